// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "apicaller.h"
#include "manager.h"

#include <QHash>

#include <memory>
#include <utility>

namespace converge {

/// S3 objects through the rest-xml model of S3's own operations: HeadObject judged by the
/// content's MD5 (S3's ETag of an object put whole), PutObject with Content-MD5 for a new
/// content, Content-Type or metadata (S3 keeps no other way to change them), DeleteObject,
/// and ListObjectsV2 by prefix and delimiter, so that the window opens a bucket folder by
/// folder whatever its size.
class S3ObjectManager final : public Manager
{
public:
    /// `s3` speaks S3's rest-xml (AwsRestXmlClient with the s3 declaration's model).
    explicit S3ObjectManager(std::shared_ptr<ApiCaller> s3);

    Outcome<Observation> get(const Target &target) override;
    Outcome<Observation> create(const Target &target) override;
    Outcome<Observation> update(const Target &target, const Observation &latest,
                                const QStringList &delta) override;
    Outcome<std::optional<Observation>> deleteResource(const Target &target,
                                                       const Observation &latest) override;
    Outcome<ListPage> list(const ListScope &scope) override;
    bool dependsOnLocalFiles(const Resource &resource) const override;

    /// At most this many bytes are put in one request (S3 takes 5 GiB; a larger file waits
    /// for multipart uploads).
    static constexpr qint64 maxPutBytes = qint64(256) * 1024 * 1024;

private:
    static Outcome<QString> bucketOf(const Target &target);
    static QString keyOf(const Resource &resource);
    static QString contentFilePath(const Resource &resource);
    static QString resourceId(const QString &bucket, const QString &key);
    Outcome<QByteArray> desiredBytes(const Resource &resource) const;
    Outcome<QByteArray> desiredMd5(const Resource &resource);
    /// HeadObject's answer (or a listed item's) compared with the desired content.
    Outcome<Observation> judge(const Target &target, Observation o);
    Outcome<Observation> put(const Target &target, const QJsonObject &metadata);

    std::shared_ptr<ApiCaller> m_s3;
    /// path → (size|mtime, MD5), so that a resync does not read unchanged files again.
    QHash<QString, std::pair<QString, QByteArray>> m_md5Cache;
};

} // namespace converge
