// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "apicaller.h"
#include "contentfiledigests.h"

#include <QJsonObject>
#include <QMap>
#include <QString>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>

namespace converge {

/// A large file's upload to S3 in parts of partBytes, a step at a time, so that a long upload
/// shows its progress between steps and survives a stop: each step first looks at what S3 holds
/// of the key's unfinished uploads (ListMultipartUploads, ListParts), goes on with the one whose
/// parts are this file's (each part's size and MD5), aborts every other, sends the missing parts
/// for about one step's time, and completes the upload once every part is there. No upload is
/// left behind: a changed file's is aborted at the next step, and abortAll() is there for a
/// delete or a put of other content. Used from one worker thread; with lanes, a step sends that
/// many parts at once, each lane on a thread of its own with a caller of its own, as boto3's
/// upload_file sends its parts from a pool of threads.
class S3MultipartUpload final
{
public:
    /// Makes a caller for a lane's thread, on that thread (an HttpClient belongs to the thread
    /// that made it); null when it cannot.
    using LaneCaller = std::function<std::shared_ptr<ApiCaller>()>;

    /// boto3's and the AWS CLI's part size, so that an object either uploads has the same ETag.
    static constexpr qint64 partBytes = qint64(8) * 1024 * 1024;
    /// S3 takes at most this many parts.
    static constexpr qint64 maxParts = 10000;

    /// Where a step left the upload.
    struct Step
    {
        bool complete = false;
        QString uploadId;
        int partsDone = 0;
        int parts = 0;
        qint64 bytesDone = 0;
        qint64 bytes = 0;
        int partsSent = 0;    ///< by this step
        bool resumed = false; ///< went on with an upload an earlier step (or process) began

        /// "uploading 3 of 16 parts (24 MiB of 128 MiB)".
        QString progress() const;
    };

    /// `s3` must outlive this. A step sends parts until `budget` has passed (at least one), on
    /// `lanes` threads at once when `laneCaller` is given (else one at a time, through `s3`).
    S3MultipartUpload(ApiCaller &s3, std::chrono::milliseconds budget, int lanes = 1,
                      LaneCaller laneCaller = {});

    /// One step of putting the file at `path` as `object` (Bucket, Key, and what
    /// CreateMultipartUpload carries: ContentType, Metadata, Tagging).
    Outcome<Step> step(const QJsonObject &object, const QString &path);
    /// The MD5 of each part of the file at `path` (16 bytes a part), read again only when the
    /// file's size or time moved.
    Outcome<QByteArray> partDigests(const QString &path);
    /// The ETag S3 gives an object put in parts whose MD5s are `digests` (partDigests'), without
    /// quotes: the MD5 of the parts' MD5s and "-N".
    static QString etagOf(const QByteArray &digests);
    /// `etag` without the quotes S3 puts around it.
    static QString bareEtag(const QJsonValue &etag);
    /// Every unfinished upload of `key` in `bucket` aborted.
    std::optional<BackendError> abortAll(const QString &bucket, const QString &key);

private:
    /// A part as ListParts and UploadPart say it.
    struct Part
    {
        QString etag; ///< bare: the part's MD5 in hex
        qint64 size = 0;
        bool operator==(const Part &) const = default;
    };
    /// The IDs of the unfinished uploads of `key`.
    Outcome<QStringList> uploadIds(const QString &bucket, const QString &key);
    /// The parts upload `uploadId` holds, by number (none when it is gone meanwhile).
    Outcome<QMap<int, Part>> partsOf(const QString &bucket, const QString &key,
                                     const QString &uploadId);
    std::optional<BackendError> abort(const QString &bucket, const QString &key,
                                      const QString &uploadId);
    /// Sends `numbers`' parts of the file at `path` to `upload` (Bucket, Key, UploadId) until
    /// `budget` has passed (at least one), `m_lanes` at a time; each sent part goes into `have`.
    std::optional<BackendError> sendParts(const QJsonObject &upload, const QString &path,
                                          const QList<int> &numbers, const QByteArray &digests,
                                          qint64 bytes, QMap<int, Part> &have, int &sent);

    ApiCaller &m_s3;
    std::chrono::milliseconds m_budget;
    int m_lanes;
    LaneCaller m_laneCaller;
    ContentFileDigests m_partDigests; ///< each file's parts' MD5s, 16 bytes a part
};

} // namespace converge
