// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "azuremanager.h"
#include "contentfiledigests.h"

#include <QHash>

#include <utility>

namespace converge {

/// Block blobs: Get Blob Properties (HEAD) or a List Blobs page judged by Content-MD5, Put Blob
/// with Content-MD5, Copy Blob (asynchronous in Azure: a pending copy is an observation in
/// progress, a failed one a Terminal error), Set Blob Properties / Metadata for changes that keep
/// the bytes, Delete Blob with its snapshots, and List Blobs.
class BlobManager final : public AzureManager
{
public:
    explicit BlobManager(std::shared_ptr<AzureStorageClient> client);

    Outcome<Observation> get(const Target &target) override;
    Outcome<Observation> create(const Target &target) override;
    Outcome<Observation> update(const Target &target, const Observation &latest,
                                const QStringList &delta) override;
    Outcome<std::optional<Observation>> deleteResource(const Target &target,
                                                       const Observation &latest) override;
    Outcome<ListPage> list(const ListScope &scope) override;
    Outcome<Observation> fromListing(const Target &target, Observation item) override;
    bool listIsComplete() const override;
    bool dependsOnLocalFiles(const Resource &resource) const override;

private:
    Outcome<QUrl> blobUrl(const Target &target, const AzureStorageClient::Query &query = {}) const;
    /// contentFile resolved against the working directory.
    static QString contentFilePath(const Resource &resource);
    Outcome<QByteArray> desiredBytes(const Resource &resource) const;
    Outcome<QByteArray> desiredMd5(const Resource &resource);
    /// `o` (from the headers or a list page) compared with the desired content and copy
    /// source; a failed copy from the wanted source is a Terminal error.
    Outcome<Observation> judge(const Target &target, Observation o, const QString &copyDescription,
                               int httpStatus);
    Outcome<Observation> put(const Target &target, const QJsonObject &metadata);
    Outcome<Observation> startCopy(const Target &target, const QJsonObject &metadata);

    ContentFileDigests m_digests; ///< the files' MD5s, read again only when they change
};

} // namespace converge
