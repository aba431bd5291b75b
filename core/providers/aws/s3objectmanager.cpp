// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "s3objectmanager.h"

#include "s3objectkind.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>

namespace converge {

namespace {

const QString s3ContentKey = QStringLiteral("content");
const QString s3ContentFileKey = QStringLiteral("contentFile");
const QString s3MetadataKey = QStringLiteral("metadata");
const QString s3ContentTypeKey = QStringLiteral("contentType");

BackendError s3ObjectInvalid(const QString &code, const QString &message)
{
    BackendError e;
    e.category = BackendError::Category::Invalid;
    e.code = code;
    e.message = message;
    return e;
}

/// An ETag of an object put whole is its MD5 in hex, quoted; a multipart upload's ends in
/// "-PARTS" and is no MD5.
QByteArray md5OfEtag(const QString &etag)
{
    QString bare = etag;
    bare.remove(QLatin1Char('"'));
    if (bare.size() != 32 || bare.contains(QLatin1Char('-')))
        return {};
    return QByteArray::fromHex(bare.toLatin1());
}

QJsonObject ownerSpec(const QString &bucketResource)
{
    return {{QStringLiteral("owner"), QJsonObject{{QStringLiteral("name"), bucketResource}}}};
}

} // namespace

S3ObjectManager::S3ObjectManager(std::shared_ptr<ApiCaller> s3)
    : m_s3(std::move(s3))
{}

Outcome<QString> S3ObjectManager::bucketOf(const Target &target)
{
    const Resource *bucket = target.owner(S3ObjectKind::bucketKind());
    if (!bucket)
        return s3ObjectInvalid(QStringLiteral("OwnerMissing"),
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
    return QDir::current().absoluteFilePath(resource.spec.value(s3ContentFileKey).toString());
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
    if (file.size() > maxPutBytes)
        return s3ObjectInvalid(
            QStringLiteral("ContentFileTooLarge"),
            QStringLiteral("spec.contentFile %1 is larger than 256 MiB, which Converge does not "
                           "upload yet (multipart uploads are to come)")
                .arg(path));
    if (!file.open(QIODevice::ReadOnly))
        return s3ObjectInvalid(
            QStringLiteral("ContentFileUnreadable"),
            QStringLiteral("cannot read spec.contentFile %1: %2").arg(path, file.errorString()));
    return file.readAll();
}

Outcome<QByteArray> S3ObjectManager::desiredMd5(const Resource &resource)
{
    if (resource.spec.contains(s3ContentKey))
        return QCryptographicHash::hash(resource.spec.value(s3ContentKey).toString().toUtf8(),
                                        QCryptographicHash::Md5);
    // A file is hashed again only when its size or modification time moved.
    const QString path = contentFilePath(resource);
    const QFileInfo info(path);
    const QString stamp =
        QStringLiteral("%1|%2").arg(info.size()).arg(info.lastModified().toMSecsSinceEpoch());
    if (const auto it = m_md5Cache.constFind(path); it != m_md5Cache.cend() && it->first == stamp)
        return it->second;
    QFile file(path);
    QCryptographicHash hash(QCryptographicHash::Md5);
    if (!file.open(QIODevice::ReadOnly) || !hash.addData(&file))
        return s3ObjectInvalid(
            QStringLiteral("ContentFileUnreadable"),
            QStringLiteral("cannot read spec.contentFile %1: %2").arg(path, file.errorString()));
    m_md5Cache.insert(path, {stamp, hash.result()});
    return hash.result();
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
    Observation o;
    o.name = key;
    o.resourceId = resourceId(bucket.value(), key);
    o.requestId = answer.value().requestId;
    o.spec = ownerSpec(target.resource.ownerName());
    o.spec.insert(QStringLiteral("key"), key);
    o.spec.insert(s3ContentTypeKey, head.value(QStringLiteral("ContentType")).toString());
    o.spec.insert(s3MetadataKey, head.value(QStringLiteral("Metadata")).toObject());
    o.details.insert(QStringLiteral("etag"), head.value(QStringLiteral("ETag")).toString());
    o.details.insert(QStringLiteral("lastModified"),
                     head.value(QStringLiteral("LastModified")).toString());
    o.details.insert(QStringLiteral("contentLength"), head.value(QStringLiteral("ContentLength")));
    for (const char *member : {"VersionId", "StorageClass", "ServerSideEncryption"}) {
        const QString name = QString::fromLatin1(member);
        if (head.contains(name))
            o.details.insert(name.left(1).toLower() + name.mid(1), head.value(name));
    }
    return judge(target, std::move(o));
}

Outcome<Observation> S3ObjectManager::judge(const Target &target, Observation o)
{
    const Resource &desired = target.resource;
    // Content: the desired value itself when the bytes match, so that Delta sees drift only
    // when they differ.
    if (desired.spec.contains(s3ContentKey) || desired.spec.contains(s3ContentFileKey)) {
        const QString key = desired.spec.contains(s3ContentKey) ? s3ContentKey : s3ContentFileKey;
        const Outcome<QByteArray> wanted = desiredMd5(desired);
        if (!wanted)
            return wanted.error();
        const QByteArray md5 = md5OfEtag(o.details.value(QStringLiteral("etag")).toString());
        o.spec.insert(
            key, !md5.isEmpty() && md5 == wanted.value()
                     ? desired.spec.value(key)
                     : QJsonValue(QStringLiteral("<different content, etag %1>")
                                      .arg(o.details.value(QStringLiteral("etag")).toString())));
    }
    return o;
}

Outcome<Observation> S3ObjectManager::put(const Target &target, const QJsonObject &metadata)
{
    const Outcome<QString> bucket = bucketOf(target);
    if (!bucket)
        return bucket.error();
    const Outcome<QByteArray> bytes = desiredBytes(target.resource);
    if (!bytes)
        return bytes.error();
    QJsonObject input{
        {QStringLiteral("Bucket"), bucket.value()},
        {QStringLiteral("Key"), keyOf(target.resource)},
        {QStringLiteral("Body"), QString::fromLatin1(bytes.value().toBase64())},
        // S3 checks the bytes against it: what arrives is what was read.
        {QStringLiteral("ContentMD5"),
         QString::fromLatin1(
             QCryptographicHash::hash(bytes.value(), QCryptographicHash::Md5).toBase64())},
        {QStringLiteral("ContentType"), target.resource.spec.value(s3ContentTypeKey)
                                            .toString(QStringLiteral("application/octet-stream"))}};
    if (!metadata.isEmpty())
        input.insert(QStringLiteral("Metadata"), metadata);
    auto answer = m_s3->call(QStringLiteral("PutObject"), input);
    if (!answer)
        return answer.error();
    return get(target);
}

Outcome<Observation> S3ObjectManager::create(const Target &target)
{
    return put(target, target.resource.spec.value(s3MetadataKey).toObject());
}

Outcome<Observation> S3ObjectManager::update(const Target &target, const Observation &latest,
                                             const QStringList &delta)
{
    Q_UNUSED(delta);
    // S3 changes an object's Content-Type and metadata only by writing it again (a CopyObject
    // onto itself would keep the bytes, but asks for read access to them): every change is a
    // PutObject, which keeps the metadata S3 holds when the spec does not manage it.
    const QJsonObject metadata = target.resource.spec.contains(s3MetadataKey)
                                     ? target.resource.spec.value(s3MetadataKey).toObject()
                                     : latest.spec.value(s3MetadataKey).toObject();
    return put(target, metadata);
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
    return std::optional<Observation>();
}

Outcome<ListPage> S3ObjectManager::list(const ListScope &scope)
{
    if (scope.owners.isEmpty() || scope.owners.last().kind != S3ObjectKind::bucketKind())
        return s3ObjectInvalid(QStringLiteral("OwnerMissing"),
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
