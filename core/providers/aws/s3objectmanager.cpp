// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "s3objectmanager.h"

#include "s3objectkind.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QUrl>

#include <algorithm>

namespace converge {

namespace {

const QString s3ContentKey = QStringLiteral("content");
const QString s3ContentFileKey = QStringLiteral("contentFile");
const QString s3MetadataKey = QStringLiteral("metadata");
const QString s3ContentTypeKey = QStringLiteral("contentType");
const QString s3TagsKey = QStringLiteral("tags");
const QString s3CopySourceKey = QStringLiteral("copySource");
/// The details' member that names an upload still going on (S3MultipartUpload).
const QString s3UploadKey = QStringLiteral("uploadId");

/// s3://BUCKET/KEY as (bucket, key).
std::pair<QString, QString> s3CopySourceParts(const QString &uri)
{
    const QString rest = uri.mid(5);
    const qsizetype slash = rest.indexOf(QLatin1Char('/'));
    return {rest.left(slash), rest.mid(slash + 1)};
}

/// Tags as PutObject's x-amz-tagging header takes them: a URL query, every part encoded.
QString s3TaggingHeader(const QJsonObject &tags)
{
    QStringList pairs;
    for (auto it = tags.begin(); it != tags.end(); ++it)
        pairs << QString::fromLatin1(QUrl::toPercentEncoding(it.key()) + '=' +
                                     QUrl::toPercentEncoding(it.value().toString()));
    return pairs.join(QLatin1Char('&'));
}

QJsonObject ownerSpec(const QString &bucketResource)
{
    return {{QStringLiteral("owner"), QJsonObject{{QStringLiteral("name"), bucketResource}}}};
}

} // namespace

S3ObjectManager::S3ObjectManager(std::shared_ptr<ApiCaller> s3)
    : S3ObjectManager(std::move(s3), Options())
{}

S3ObjectManager::S3ObjectManager(std::shared_ptr<ApiCaller> s3, Options options,
                                 S3MultipartUpload::LaneCaller laneCaller)
    : m_s3(std::move(s3))
    , m_uploads(*m_s3, options.uploadStep, options.uploadLanes, std::move(laneCaller))
{}

Outcome<QString> S3ObjectManager::bucketOf(const Target &target)
{
    const Resource *bucket = target.owner(S3ObjectKind::bucketKind());
    if (!bucket)
        return BackendError::make(BackendError::Category::Invalid, QStringLiteral("OwnerMissing"),
                                  QStringLiteral("an S3Object needs its S3Bucket"));
    return bucket->spec.value(QStringLiteral("name")).toString(bucket->metadata.name);
}

QString S3ObjectManager::keyOf(const Resource &resource)
{
    const QString key = resource.spec.value(QStringLiteral("key")).toString();
    return key.isEmpty() ? resource.metadata.name : key;
}

QString S3ObjectManager::contentFilePath(const Resource &resource)
{
    return ContentFileDigests::resolve(resource.spec.value(s3ContentFileKey).toString());
}

QString S3ObjectManager::resourceId(const QString &bucket, const QString &key)
{
    return QStringLiteral("arn:aws:s3:::%1/%2").arg(bucket, key);
}

Outcome<QByteArray> S3ObjectManager::desiredBytes(const Resource &resource) const
{
    if (resource.spec.contains(s3ContentKey))
        return resource.spec.value(s3ContentKey).toString().toUtf8();
    const QString path = contentFilePath(resource);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return ContentFileDigests::unreadable(path, file.errorString());
    return file.readAll();
}

Outcome<QString> S3ObjectManager::desiredEtag(const Resource &resource)
{
    if (resource.spec.contains(s3ContentKey)) {
        const QByteArray bytes = resource.spec.value(s3ContentKey).toString().toUtf8();
        // Inline text goes up whole whatever its size.
        return QString::fromLatin1(
            QCryptographicHash::hash(bytes, QCryptographicHash::Md5).toHex());
    }
    // A large file's from its parts' MD5s, which its upload reads too: the file is read once.
    const QString path = contentFilePath(resource);
    if (QFileInfo(path).size() >= multipartThreshold) {
        const Outcome<QByteArray> parts = m_uploads.partDigests(path);
        if (!parts)
            return parts.error();
        return S3MultipartUpload::etagOf(parts.value());
    }
    const Outcome<QByteArray> etag = m_digests.of(path, [](QFile &file) {
        return QCryptographicHash::hash(file.readAll(), QCryptographicHash::Md5).toHex();
    });
    if (!etag)
        return etag.error();
    return QString::fromLatin1(etag.value());
}

Observation S3ObjectManager::observation(const Target &target, const QString &bucket,
                                         const ApiCaller::Reply &answer, const QString &contentType,
                                         const QJsonObject &metadata)
{
    Observation o;
    o.name = keyOf(target.resource);
    o.resourceId = resourceId(bucket, o.name);
    o.requestId = answer.requestId;
    o.spec = ownerSpec(target.resource.ownerName());
    o.spec.insert(QStringLiteral("key"), o.name);
    o.spec.insert(s3ContentTypeKey, contentType);
    o.spec.insert(s3MetadataKey, metadata);
    o.details.insert(QStringLiteral("etag"), answer.body.value(QStringLiteral("ETag")).toString());
    for (const char *member : {"VersionId", "StorageClass", "ServerSideEncryption"}) {
        const QString name = QString::fromLatin1(member);
        if (answer.body.contains(name))
            o.details.insert(name.left(1).toLower() + name.mid(1), answer.body.value(name));
    }
    return o;
}

Outcome<Observation> S3ObjectManager::get(const Target &target)
{
    const Outcome<QString> bucket = bucketOf(target);
    if (!bucket)
        return bucket.error();
    const QString key = keyOf(target.resource);
    auto answer =
        m_s3->call(QStringLiteral("HeadObject"),
                   {{QStringLiteral("Bucket"), bucket.value()}, {QStringLiteral("Key"), key}});
    if (!answer)
        return answer.error();
    const QJsonObject &head = answer.value().body;
    Observation o = observation(target, bucket.value(), answer.value(),
                                head.value(QStringLiteral("ContentType")).toString(),
                                head.value(QStringLiteral("Metadata")).toObject());
    o.details.insert(QStringLiteral("lastModified"),
                     head.value(QStringLiteral("LastModified")).toString());
    o.details.insert(QStringLiteral("contentLength"), head.value(QStringLiteral("ContentLength")));
    if (target.resource.spec.contains(s3TagsKey)) {
        auto tags = readTags(bucket.value(), key);
        if (!tags)
            return tags.error();
        o.spec.insert(s3TagsKey, tags.value());
    }
    return judge(target, std::move(o));
}

Outcome<QJsonObject> S3ObjectManager::readTags(const QString &bucket, const QString &key)
{
    auto answer = m_s3->call(QStringLiteral("GetObjectTagging"),
                             {{QStringLiteral("Bucket"), bucket}, {QStringLiteral("Key"), key}});
    if (!answer)
        return answer.error();
    QJsonObject tags;
    for (const QJsonValue &tag : answer.value().body.value(QStringLiteral("TagSet")).toArray())
        tags.insert(tag[QStringLiteral("Key")].toString(), tag[QStringLiteral("Value")].toString());
    return tags;
}

Outcome<Observation> S3ObjectManager::judge(const Target &target, Observation o)
{
    const Resource &desired = target.resource;
    const QString etag = S3MultipartUpload::bareEtag(o.details.value(QStringLiteral("etag")));
    // Content: the desired value itself when the bytes match, so that Delta sees drift only
    // when they differ.
    if (desired.spec.contains(s3ContentKey) || desired.spec.contains(s3ContentFileKey)) {
        const QString key = desired.spec.contains(s3ContentKey) ? s3ContentKey : s3ContentFileKey;
        const Outcome<QString> wanted = desiredEtag(desired);
        if (!wanted)
            return wanted.error();
        o.spec.insert(key,
                      etag == wanted.value()
                          ? desired.spec.value(key)
                          : QJsonValue(QStringLiteral("<different content, etag %1>").arg(etag)));
    }
    if (desired.spec.contains(s3CopySourceKey)) {
        // A copy is what its source is now: the same ETag (S3 gives a copy the MD5 of its bytes).
        const QString uri = desired.spec.value(s3CopySourceKey).toString();
        const auto [bucket, key] = s3CopySourceParts(uri);
        auto source = m_s3->call(QStringLiteral("HeadObject"), {{QStringLiteral("Bucket"), bucket},
                                                                {QStringLiteral("Key"), key}});
        if (!source) {
            BackendError e = source.error();
            if (e.category == BackendError::Category::NotFound) {
                e.category = BackendError::Category::Terminal;
                e.code = QStringLiteral("CopySourceNotFound");
                e.message = QStringLiteral("spec.copySource %1 does not exist; change it or "
                                           "create that object first")
                                .arg(uri);
            }
            return e;
        }
        const QString wanted =
            S3MultipartUpload::bareEtag(source.value().body.value(QStringLiteral("ETag")));
        o.spec.insert(s3CopySourceKey,
                      etag == wanted ? QJsonValue(uri)
                                     : QJsonValue(QStringLiteral("<not a copy of the source now, "
                                                                 "etag %1>")
                                                      .arg(etag)));
    }
    return o;
}

Outcome<Observation> S3ObjectManager::put(const Target &target, const QJsonObject &metadata,
                                          const QJsonObject &tags)
{
    const Outcome<QString> bucket = bucketOf(target);
    if (!bucket)
        return bucket.error();
    QJsonObject object{
        {QStringLiteral("Bucket"), bucket.value()},
        {QStringLiteral("Key"), keyOf(target.resource)},
        {QStringLiteral("ContentType"), target.resource.spec.value(s3ContentTypeKey)
                                            .toString(QStringLiteral("application/octet-stream"))}};
    if (!metadata.isEmpty())
        object.insert(QStringLiteral("Metadata"), metadata);
    // A put replaces the object's tags with what it carries.
    if (!tags.isEmpty())
        object.insert(QStringLiteral("Tagging"), s3TaggingHeader(tags));
    if (target.resource.spec.contains(s3CopySourceKey)) {
        const auto [bucket, key] =
            s3CopySourceParts(target.resource.spec.value(s3CopySourceKey).toString());
        QJsonObject copy = object;
        copy.insert(QStringLiteral("CopySource"),
                    QString(bucket + QLatin1Char('/') +
                            QString::fromLatin1(QUrl::toPercentEncoding(key, "/"))));
        // This spec's type, metadata and tags, not the source's.
        copy.insert(QStringLiteral("MetadataDirective"), QStringLiteral("REPLACE"));
        copy.insert(QStringLiteral("TaggingDirective"), QStringLiteral("REPLACE"));
        auto answer = m_s3->call(QStringLiteral("CopyObject"), copy);
        if (!answer)
            return answer.error();
        return get(target);
    }
    if (target.resource.spec.contains(s3ContentFileKey)) {
        const QString path = contentFilePath(target.resource);
        if (QFileInfo(path).size() >= multipartThreshold) {
            const auto step = m_uploads.step(object, path);
            if (!step)
                return step.error();
            if (step.value().complete)
                return get(target);
            Observation o;
            o.name = object.value(QStringLiteral("Key")).toString();
            o.resourceId = resourceId(object.value(QStringLiteral("Bucket")).toString(), o.name);
            o.inProgress = true;
            o.continues = true;
            o.progress = step.value().progress();
            o.pollAfter = std::chrono::milliseconds(0);
            o.details.insert(s3UploadKey, step.value().uploadId);
            return o;
        }
    }
    // Content that is no longer a large file: an upload an earlier step left goes.
    if (target.resource.status.observed.contains(s3UploadKey)) {
        if (auto failed = m_uploads.abortAll(object.value(QStringLiteral("Bucket")).toString(),
                                             object.value(QStringLiteral("Key")).toString()))
            return *failed;
    }
    const Outcome<QByteArray> bytes = desiredBytes(target.resource);
    if (!bytes)
        return bytes.error();
    QJsonObject input = object;
    // S3 checks the bytes against it: what arrives is what was read.
    input.insert(QStringLiteral("ContentMD5"),
                 QString::fromLatin1(
                     QCryptographicHash::hash(bytes.value(), QCryptographicHash::Md5).toBase64()));
    auto answer =
        m_s3->call(QStringLiteral("PutObject"), input, QStringLiteral("Body"), bytes.value());
    if (!answer)
        return answer.error();
    // What was put is what S3 holds: the ETag it answers is the bytes' MD5, checked against
    // Content-MD5 on the way in, and a put stores the type, metadata and tags it carries. No
    // read back (a HeadObject and a GetObjectTagging an object); the next look reads it.
    Observation o = observation(target, bucket.value(), answer.value(),
                                object.value(QStringLiteral("ContentType")).toString(), metadata);
    if (target.resource.spec.contains(s3TagsKey))
        o.spec.insert(s3TagsKey, tags);
    o.details.insert(QStringLiteral("contentLength"), qint64(bytes.value().size()));
    if (o.details.value(QStringLiteral("etag")).toString().isEmpty())
        return get(target); // an answer without its ETag says nothing of the bytes
    return judge(target, std::move(o));
}

Outcome<Observation> S3ObjectManager::create(const Target &target)
{
    return put(target, target.resource.spec.value(s3MetadataKey).toObject(),
               target.resource.spec.value(s3TagsKey).toObject());
}

Outcome<Observation> S3ObjectManager::update(const Target &target, const Observation &latest,
                                             const QStringList &delta)
{
    const Resource &desired = target.resource;
    // Tags alone change by their own call, which keeps the bytes; an empty set removes them.
    const bool tagsOnly = std::all_of(delta.cbegin(), delta.cend(), [](const QString &path) {
        return path == QLatin1String("spec.tags") || path.startsWith(QLatin1String("spec.tags."));
    });
    if (!delta.isEmpty() && tagsOnly && desired.spec.contains(s3TagsKey)) {
        const Outcome<QString> bucket = bucketOf(target);
        if (!bucket)
            return bucket.error();
        QJsonArray tagSet;
        const QJsonObject tags = desired.spec.value(s3TagsKey).toObject();
        for (auto it = tags.begin(); it != tags.end(); ++it)
            tagSet.append(QJsonObject{{QStringLiteral("Key"), it.key()},
                                      {QStringLiteral("Value"), it.value()}});
        QJsonObject input{{QStringLiteral("Bucket"), bucket.value()},
                          {QStringLiteral("Key"), keyOf(desired)}};
        if (!tagSet.isEmpty())
            input.insert(QStringLiteral("Tagging"),
                         QJsonObject{{QStringLiteral("TagSet"), tagSet}});
        auto answer = m_s3->call(tagSet.isEmpty() ? QStringLiteral("DeleteObjectTagging")
                                                  : QStringLiteral("PutObjectTagging"),
                                 input);
        if (!answer)
            return answer.error();
        return get(target);
    }
    // S3 changes an object's Content-Type and metadata only by writing it again (a CopyObject
    // onto itself would keep the bytes, but asks for read access to them): every other change
    // is a put, which keeps the metadata and tags S3 holds where the spec does not manage them.
    const QJsonObject metadata = desired.spec.contains(s3MetadataKey)
                                     ? desired.spec.value(s3MetadataKey).toObject()
                                     : latest.spec.value(s3MetadataKey).toObject();
    QJsonObject tags = desired.spec.value(s3TagsKey).toObject();
    if (!desired.spec.contains(s3TagsKey)) {
        const Outcome<QString> bucket = bucketOf(target);
        if (!bucket)
            return bucket.error();
        auto held = readTags(bucket.value(), keyOf(desired));
        if (!held)
            return held.error();
        tags = held.value();
    }
    return put(target, metadata, tags);
}

Outcome<std::optional<Observation>> S3ObjectManager::deleteResource(const Target &target,
                                                                    const Observation &latest)
{
    Q_UNUSED(latest);
    const Outcome<QString> bucket = bucketOf(target);
    if (!bucket)
        return bucket.error();
    auto answer = m_s3->call(QStringLiteral("DeleteObject"),
                             {{QStringLiteral("Bucket"), bucket.value()},
                              {QStringLiteral("Key"), keyOf(target.resource)}});
    if (!answer && answer.error().category != BackendError::Category::NotFound)
        return answer.error();
    // Nor what an upload of it left, were one going on.
    if (auto failed = m_uploads.abortAll(bucket.value(), keyOf(target.resource)))
        return *failed;
    return std::optional<Observation>();
}

Outcome<ListPage> S3ObjectManager::list(const ListScope &scope)
{
    if (scope.owners.isEmpty() || scope.owners.last().kind != S3ObjectKind::bucketKind())
        return BackendError::make(BackendError::Category::Invalid, QStringLiteral("OwnerMissing"),
                                  QStringLiteral("objects are listed under an S3Bucket"));
    const Resource &bucketResource = scope.owners.last();
    const QString bucket =
        bucketResource.spec.value(QStringLiteral("name")).toString(bucketResource.metadata.name);
    QJsonObject input{{QStringLiteral("Bucket"), bucket}};
    if (!scope.prefix.isEmpty())
        input.insert(QStringLiteral("Prefix"), scope.prefix);
    if (!scope.delimiter.isEmpty())
        input.insert(QStringLiteral("Delimiter"), scope.delimiter);
    if (!scope.continuation.isEmpty())
        input.insert(QStringLiteral("ContinuationToken"), scope.continuation);
    if (scope.pageSize > 0)
        input.insert(QStringLiteral("MaxKeys"), std::min(scope.pageSize, 1000));
    auto answer = m_s3->call(QStringLiteral("ListObjectsV2"), input);
    if (!answer)
        return answer.error();
    const QJsonObject &body = answer.value().body;
    ListPage page;
    for (const QJsonValue &item : body.value(QStringLiteral("Contents")).toArray()) {
        Observation o;
        o.name = item[QStringLiteral("Key")].toString();
        o.resourceId = resourceId(bucket, o.name);
        o.requestId = answer.value().requestId;
        o.spec = ownerSpec(bucketResource.metadata.name);
        o.spec.insert(QStringLiteral("key"), o.name);
        o.details.insert(QStringLiteral("etag"), item[QStringLiteral("ETag")].toString());
        o.details.insert(QStringLiteral("lastModified"),
                         item[QStringLiteral("LastModified")].toString());
        o.details.insert(QStringLiteral("contentLength"), item[QStringLiteral("Size")]);
        o.details.insert(QStringLiteral("storageClass"),
                         item[QStringLiteral("StorageClass")].toString());
        page.items.append(o);
    }
    for (const QJsonValue &prefix : body.value(QStringLiteral("CommonPrefixes")).toArray())
        page.prefixes.append(prefix[QStringLiteral("Prefix")].toString());
    if (body.value(QStringLiteral("IsTruncated")).toBool())
        page.continuation = body.value(QStringLiteral("NextContinuationToken")).toString();
    return page;
}

bool S3ObjectManager::dependsOnLocalFiles(const Resource &resource) const
{
    return resource.spec.contains(s3ContentFileKey);
}

} // namespace converge
