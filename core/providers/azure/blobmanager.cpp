// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "blobmanager.h"

#include "azurekinds.h"

#include <QCryptographicHash>
#include <QFile>

namespace converge {

namespace {

using Service = AzureStorageClient::Service;

const QString contentKey = QStringLiteral("content");
const QString contentFileKey = QStringLiteral("contentFile");
const QString copySourceKey = QStringLiteral("copySource");
/// A listed failed copy's reason, for fromListing()'s error; not kept in the observation.
const QString copyDescriptionKey = QStringLiteral("copyStatusDescription");
constexpr qint64 maxUploadBytes = qint64(256) * 1024 * 1024;

QString header(const HttpResponse &r, const char *name)
{
    return QString::fromLatin1(r.header(name));
}

QString contentTypeOf(const Resource &resource)
{
    return resource.spec.value(QStringLiteral("contentType"))
        .toString(QStringLiteral("application/octet-stream"));
}

QJsonObject metadataOf(const Resource &resource)
{
    return resource.spec.value(QStringLiteral("metadata")).toObject();
}

/// Get Blob Properties answers the ETag quoted; List Blobs may spell it bare.
QString quotedEtag(const QString &etag)
{
    if (etag.isEmpty() || etag.startsWith(QLatin1Char('"')))
        return etag;
    return QLatin1Char('"') + etag + QLatin1Char('"');
}

/// Copy URLs are compared as URLs (Azure may normalise the encoding it echoes).
bool sameUrl(const QString &a, const QString &b)
{
    return a == b || QUrl(a).adjusted(QUrl::NormalizePathSegments) ==
                         QUrl(b).adjusted(QUrl::NormalizePathSegments);
}

} // namespace

BlobManager::BlobManager(std::shared_ptr<AzureStorageClient> client)
    : AzureManager(std::move(client), AzureKinds::blob())
{}

Outcome<QUrl> BlobManager::blobUrl(const Target &target,
                                   const AzureStorageClient::Query &query) const
{
    const Outcome<QString> container = ownerName(target, AzureKinds::blobContainer());
    if (!container)
        return container.error();
    const Outcome<QString> name = backendName(target.resource);
    if (!name)
        return name.error();
    return m_client->url(Service::Blob, container.value() + QLatin1Char('/') + name.value(), query);
}

QString BlobManager::contentFilePath(const Resource &resource)
{
    return ContentFileDigests::resolve(resource.spec.value(contentFileKey).toString());
}

Outcome<QByteArray> BlobManager::desiredBytes(const Resource &resource) const
{
    if (resource.spec.contains(contentKey))
        return resource.spec.value(contentKey).toString().toUtf8();
    const QString path = contentFilePath(resource);
    QFile file(path);
    if (file.size() > maxUploadBytes)
        return AzureStorageClient::invalid(
            QStringLiteral("ContentFileTooLarge"),
            QStringLiteral("spec.contentFile %1 is larger than 256 MiB, which Converge does not "
                           "upload")
                .arg(path));
    if (!file.open(QIODevice::ReadOnly))
        return ContentFileDigests::unreadable(path, file.errorString());
    return file.readAll();
}

Outcome<QByteArray> BlobManager::desiredMd5(const Resource &resource)
{
    if (resource.spec.contains(contentKey))
        return QCryptographicHash::hash(resource.spec.value(contentKey).toString().toUtf8(),
                                        QCryptographicHash::Md5);
    return m_digests.of(contentFilePath(resource), [](QFile &file) {
        QCryptographicHash hash(QCryptographicHash::Md5);
        hash.addData(&file);
        return hash.result();
    });
}

Outcome<Observation> BlobManager::get(const Target &target)
{
    const Outcome<QUrl> url = blobUrl(target);
    if (!url)
        return url.error();
    Outcome<HttpResponse> answer =
        m_client->call(Service::Blob, AzureStorageClient::request("HEAD", url.value()));
    if (!answer)
        return answer.error();
    const HttpResponse &r = answer.value();
    const Resource &desired = target.resource;

    Observation o;
    o.name = AzureKinds::azureName(desired);
    o.resourceId = AzureStorageClient::resourceId(url.value());
    o.requestId = r.requestId;
    o.spec = specWithOwner(desired.ownerName());
    o.spec.insert(QStringLiteral("azureName"), o.name);
    o.spec.insert(QStringLiteral("contentType"), header(r, "Content-Type"));
    o.spec.insert(QStringLiteral("metadata"), AzureStorageClient::metadataFromHeaders(r.headers));
    o.details.insert(QStringLiteral("etag"), header(r, "ETag"));
    o.details.insert(QStringLiteral("lastModified"), header(r, "Last-Modified"));
    o.details.insert(QStringLiteral("contentLength"), header(r, "Content-Length").toLongLong());
    o.details.insert(QStringLiteral("contentMD5"), header(r, "Content-MD5"));
    o.details.insert(QStringLiteral("blobType"), header(r, "x-ms-blob-type"));
    const QString copyStatus = header(r, "x-ms-copy-status");
    if (!copyStatus.isEmpty()) {
        o.details.insert(QStringLiteral("copyStatus"), copyStatus);
        o.details.insert(QStringLiteral("copyId"), header(r, "x-ms-copy-id"));
        o.details.insert(QStringLiteral("copyProgress"), header(r, "x-ms-copy-progress"));
        o.details.insert(QStringLiteral("copySource"), header(r, "x-ms-copy-source"));
    }
    return judge(target, std::move(o), header(r, "x-ms-copy-status-description"), r.status);
}

Outcome<Observation> BlobManager::fromListing(const Target &target, Observation item)
{
    // A page observes the blob as Get Blob Properties does (list() asks for the same facts);
    // what is left is the comparison with the desired content, here as in get().
    const QString description = item.details.take(copyDescriptionKey).toString();
    return judge(target, std::move(item), description, 200);
}

Outcome<Observation> BlobManager::judge(const Target &target, Observation o,
                                        const QString &copyDescription, int httpStatus)
{
    const Resource &desired = target.resource;
    o.spec.insert(QStringLiteral("metadata"),
                  AzureStorageClient::alignMetadataNames(
                      o.spec.value(QStringLiteral("metadata")).toObject(), metadataOf(desired)));
    const QByteArray md5 =
        QByteArray::fromBase64(o.details.value(QStringLiteral("contentMD5")).toString().toLatin1());

    // Content: the desired value itself when the bytes match, so that Delta sees drift only
    // when they differ.
    if (desired.spec.contains(contentKey) || desired.spec.contains(contentFileKey)) {
        const QString key = desired.spec.contains(contentKey) ? contentKey : contentFileKey;
        const Outcome<QByteArray> wanted = desiredMd5(desired);
        if (!wanted)
            return wanted.error();
        o.spec.insert(key,
                      !md5.isEmpty() && md5 == wanted.value()
                          ? desired.spec.value(key)
                          : QJsonValue(QStringLiteral("<different content, md5 %1>")
                                           .arg(md5.isEmpty() ? QStringLiteral("unknown")
                                                              : QString::fromLatin1(md5.toHex()))));
    }

    // Copy Blob runs asynchronously in Azure: its state is on the destination blob, so
    // observing it is all a resumed engine needs.
    const QString copyStatus = o.details.value(QStringLiteral("copyStatus")).toString();
    const QString copySource = o.details.value(QStringLiteral("copySource")).toString();
    if (desired.spec.contains(copySourceKey)) {
        const QString wanted = desired.spec.value(copySourceKey).toString();
        const bool fromWanted = !copySource.isEmpty() && sameUrl(copySource, wanted);
        o.spec.insert(copySourceKey,
                      fromWanted
                          ? wanted
                          : (copySource.isEmpty() ? QStringLiteral("<not copied>") : copySource));
        if (fromWanted &&
            (copyStatus == QLatin1String("failed") || copyStatus == QLatin1String("aborted")) &&
            !desired.metadata.isBeingDeleted()) {
            BackendError e;
            e.category = BackendError::Category::Terminal;
            e.code = copyStatus == QLatin1String("failed") ? QStringLiteral("CopyFailed")
                                                           : QStringLiteral("CopyAborted");
            e.message = m_client->redact(
                QStringLiteral("the copy from %1 %2: %3; change copySource or delete the blob to "
                               "try again")
                    .arg(AzureStorageClient::resourceId(QUrl(wanted)), copyStatus,
                         copyDescription));
            e.httpStatus = httpStatus;
            e.requestId = o.requestId;
            return e;
        }
    }
    if (copyStatus == QLatin1String("pending")) {
        o.inProgress = true;
        const QString progress = o.details.value(QStringLiteral("copyProgress")).toString();
        o.progress = progress.isEmpty() ? QStringLiteral("copy pending")
                                        : QStringLiteral("copy %1 bytes").arg(progress);
    }
    return o;
}

Outcome<Observation> BlobManager::put(const Target &target, const QJsonObject &metadata)
{
    const Outcome<QUrl> url = blobUrl(target);
    if (!url)
        return url.error();
    const Outcome<QByteArray> bytes = desiredBytes(target.resource);
    if (!bytes)
        return bytes.error();
    HttpRequest request = AzureStorageClient::request("PUT", url.value());
    request.body = bytes.value();
    const QByteArray contentType = contentTypeOf(target.resource).toUtf8();
    request.setHeader(QByteArrayLiteral("x-ms-blob-type"), QByteArrayLiteral("BlockBlob"));
    request.setHeader(QByteArrayLiteral("Content-Type"), contentType);
    request.setHeader(QByteArrayLiteral("x-ms-blob-content-type"), contentType);
    // Azure checks the bytes against it and keeps it: the MD5 later observations compare.
    request.setHeader(QByteArrayLiteral("Content-MD5"),
                      QCryptographicHash::hash(request.body, QCryptographicHash::Md5).toBase64());
    AzureStorageClient::setMetadataHeaders(request, metadata);
    Outcome<HttpResponse> answer = m_client->call(Service::Blob, request);
    if (!answer)
        return answer.error();
    return get(target);
}

Outcome<Observation> BlobManager::startCopy(const Target &target, const QJsonObject &metadata)
{
    const Outcome<QUrl> url = blobUrl(target);
    if (!url)
        return url.error();
    HttpRequest request = AzureStorageClient::request("PUT", url.value());
    request.setHeader(QByteArrayLiteral("x-ms-copy-source"),
                      target.resource.spec.value(copySourceKey).toString().toUtf8());
    // Without metadata headers, the copy takes the source's metadata.
    AzureStorageClient::setMetadataHeaders(request, metadata);
    Outcome<HttpResponse> answer = m_client->call(Service::Blob, request);
    if (!answer)
        return answer.error();
    return get(target);
}

Outcome<Observation> BlobManager::create(const Target &target)
{
    if (target.resource.spec.contains(copySourceKey))
        return startCopy(target, metadataOf(target.resource));
    return put(target, metadataOf(target.resource));
}

Outcome<Observation> BlobManager::update(const Target &target, const Observation &latest,
                                         const QStringList &delta)
{
    // Put Blob and Copy Blob replace the metadata: keep what is there when the spec does not
    // manage it.
    const QJsonObject metadata = target.resource.spec.contains(QStringLiteral("metadata"))
                                     ? metadataOf(target.resource)
                                     : latest.spec.value(QStringLiteral("metadata")).toObject();
    if (touches(delta, QStringLiteral("spec.content")) ||
        touches(delta, QStringLiteral("spec.contentFile")))
        return put(target, metadata);
    if (touches(delta, QStringLiteral("spec.copySource")))
        return startCopy(target, metadata);

    if (touches(delta, QStringLiteral("spec.contentType"))) {
        const Outcome<QUrl> url =
            blobUrl(target, {{QStringLiteral("comp"), QStringLiteral("properties")}});
        if (!url)
            return url.error();
        HttpRequest request = AzureStorageClient::request("PUT", url.value());
        request.setHeader(QByteArrayLiteral("x-ms-blob-content-type"),
                          contentTypeOf(target.resource).toUtf8());
        // Set Blob Properties clears every content header it is not given, the MD5 included.
        const QString md5 = latest.details.value(QStringLiteral("contentMD5")).toString();
        if (!md5.isEmpty())
            request.setHeader(QByteArrayLiteral("x-ms-blob-content-md5"), md5.toLatin1());
        Outcome<HttpResponse> answer = m_client->call(Service::Blob, request);
        if (!answer)
            return answer.error();
    }
    if (touches(delta, QStringLiteral("spec.metadata"))) {
        const Outcome<QUrl> url =
            blobUrl(target, {{QStringLiteral("comp"), QStringLiteral("metadata")}});
        if (!url)
            return url.error();
        HttpRequest request = AzureStorageClient::request("PUT", url.value());
        AzureStorageClient::setMetadataHeaders(request, metadata);
        Outcome<HttpResponse> answer = m_client->call(Service::Blob, request);
        if (!answer)
            return answer.error();
    }
    return get(target);
}

Outcome<std::optional<Observation>> BlobManager::deleteResource(const Target &target,
                                                                const Observation &latest)
{
    Q_UNUSED(latest);
    const Outcome<QUrl> url = blobUrl(target);
    if (!url)
        return url.error();
    HttpRequest request = AzureStorageClient::request("DELETE", url.value());
    request.setHeader(QByteArrayLiteral("x-ms-delete-snapshots"), QByteArrayLiteral("include"));
    Outcome<HttpResponse> answer = m_client->call(Service::Blob, request);
    if (!answer && answer.error().category != BackendError::Category::NotFound)
        return answer.error();
    return std::optional<Observation>();
}

Outcome<ListPage> BlobManager::list(const ListScope &scope)
{
    if (scope.owners.isEmpty() || scope.owners.last().kind != AzureKinds::blobContainer())
        return AzureStorageClient::invalid(
            QStringLiteral("OwnerMissing"),
            QStringLiteral("blobs are listed under a BlobContainer"));
    const Resource &container = scope.owners.last();
    const Outcome<QString> containerName = backendName(container);
    if (!containerName)
        return containerName.error();
    const QString owner = container.metadata.name;
    return listXml(
        Service::Blob, containerName.value(),
        {{QStringLiteral("restype"), QStringLiteral("container")},
         {QStringLiteral("comp"), QStringLiteral("list")},
         {QStringLiteral("include"), QStringLiteral("copy,metadata")}},
        QStringLiteral("Blob"), scope,
        [this, owner, name = containerName.value()](const AzureListParser::Item &item) {
            // The facts get() reads from the headers, in the same shape: a resync by list
            // pages then stores nothing new (fromListing() compares the content).
            const auto property = [&item](const char *name) {
                return item.properties.value(QString::fromLatin1(name));
            };
            Observation o;
            o.name = item.name;
            o.resourceId = AzureStorageClient::resourceId(
                m_client->url(Service::Blob, name + QLatin1Char('/') + item.name));
            o.spec = specWithOwner(owner);
            o.spec.insert(QStringLiteral("azureName"), item.name);
            o.spec.insert(QStringLiteral("contentType"), property("Content-Type"));
            o.spec.insert(QStringLiteral("metadata"), item.metadata);
            o.details.insert(QStringLiteral("etag"), quotedEtag(property("Etag")));
            o.details.insert(QStringLiteral("lastModified"), property("Last-Modified"));
            o.details.insert(QStringLiteral("contentLength"),
                             property("Content-Length").toLongLong());
            o.details.insert(QStringLiteral("contentMD5"), property("Content-MD5"));
            o.details.insert(QStringLiteral("blobType"), property("BlobType"));
            const QString copyStatus = property("CopyStatus");
            if (!copyStatus.isEmpty()) {
                o.details.insert(QStringLiteral("copyStatus"), copyStatus);
                o.details.insert(QStringLiteral("copyId"), property("CopyId"));
                o.details.insert(QStringLiteral("copyProgress"), property("CopyProgress"));
                o.details.insert(QStringLiteral("copySource"), property("CopySource"));
                const QString description = property("CopyStatusDescription");
                if (!description.isEmpty())
                    o.details.insert(copyDescriptionKey, description);
            }
            if (copyStatus == QLatin1String("pending")) {
                o.inProgress = true;
                o.progress = QStringLiteral("copy %1 bytes").arg(property("CopyProgress"));
            }
            return o;
        });
}

bool BlobManager::listIsComplete() const
{
    // A page carries what Get Blob Properties does (with include=copy,metadata); the desired
    // bytes it is compared with are the spec's, in fromListing().
    return true;
}

bool BlobManager::dependsOnLocalFiles(const Resource &resource) const
{
    return resource.spec.contains(contentFileKey);
}

} // namespace converge
