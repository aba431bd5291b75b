// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "apicaller.h"
#include "contentfiledigests.h"
#include "manager.h"

#include <QHash>

#include <optional>

#include "s3multipartupload.h"

#include <chrono>
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
    struct Options
    {
        /// How long one reconcile sends a large file's parts before it says its progress and
        /// goes on at the next (S3MultipartUpload).
        std::chrono::milliseconds uploadStep{2000};
        /// How many parts of a large file go at once, when the Manager has a lane caller (as
        /// boto3's upload_file, which sends 10 by default).
        int uploadLanes = 8;
    };

    /// `s3` speaks S3's rest-xml (AwsRestXmlClient with the s3 declaration's model);
    /// `laneCaller` makes the same on another thread, for a large file's parts sent at once (one
    /// at a time without it).
    explicit S3ObjectManager(std::shared_ptr<ApiCaller> s3);
    S3ObjectManager(std::shared_ptr<ApiCaller> s3, Options options,
                    S3MultipartUpload::LaneCaller laneCaller = {});

    Outcome<Observation> get(const Target &target) override;
    Outcome<Observation> create(const Target &target) override;
    Outcome<Observation> update(const Target &target, const Observation &latest,
                                const QStringList &delta) override;
    Outcome<std::optional<Observation>> deleteResource(const Target &target,
                                                       const Observation &latest) override;
    Outcome<ListPage> list(const ListScope &scope) override;
    bool dependsOnLocalFiles(const Resource &resource) const override;

    /// A file of this size or more goes up in parts of partBytes (boto3's and the AWS CLI's
    /// defaults, so that an object either uploaded has the same multipart ETag).
    static constexpr qint64 multipartThreshold = qint64(8) * 1024 * 1024;

private:
    static Outcome<QString> bucketOf(const Target &target);
    static QString keyOf(const Resource &resource);
    static QString contentFilePath(const Resource &resource);
    static QString resourceId(const QString &bucket, const QString &key);
    Outcome<QByteArray> desiredBytes(const Resource &resource) const;
    /// The ETag the desired content has once put, without quotes (the MD5 in hex; a large
    /// file's S3MultipartUpload::etagOf), a file's cached by size and time.
    Outcome<QString> desiredEtag(const Resource &resource);
    /// What HeadObject's or PutObject's `answer` says of the object: its key, type, metadata,
    /// ETag and the version, storage class and encryption it names.
    static Observation observation(const Target &target, const QString &bucket,
                                   const ApiCaller::Reply &answer, const QString &contentType,
                                   const QJsonObject &metadata);
    /// HeadObject's answer (or a listed item's) compared with the desired content.
    Outcome<Observation> judge(const Target &target, Observation o);
    /// The object put with `metadata` and `tags` (a put replaces both with what it carries).
    Outcome<Observation> put(const Target &target, const QJsonObject &metadata,
                             const QJsonObject &tags);
    Outcome<QJsonObject> readTags(const QString &bucket, const QString &key);
    std::shared_ptr<ApiCaller> m_s3;
    ContentFileDigests m_digests; ///< the files' ETags, read again only when they change
    S3MultipartUpload m_uploads;
};

} // namespace converge
