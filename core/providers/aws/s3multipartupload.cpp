// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "s3multipartupload.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QLocale>
#include <QThread>

#include <algorithm>
#include <mutex>
#include <vector>

namespace converge {

namespace {

QString s3UploadSize(qint64 bytes)
{
    return QLocale::c().formattedDataSize(bytes, 1, QLocale::DataSizeIecFormat);
}

} // namespace

QString S3MultipartUpload::Step::progress() const
{
    return QStringLiteral("uploading %1 of %2 parts (%3 of %4)")
        .arg(partsDone)
        .arg(parts)
        .arg(s3UploadSize(bytesDone), s3UploadSize(bytes));
}

S3MultipartUpload::S3MultipartUpload(ApiCaller &s3, std::chrono::milliseconds budget, int lanes,
                                     LaneCaller laneCaller)
    : m_s3(s3)
    , m_budget(budget)
    , m_lanes(std::max(1, lanes))
    , m_laneCaller(std::move(laneCaller))
{}

QString S3MultipartUpload::bareEtag(const QJsonValue &etag)
{
    return etag.toString().remove(QLatin1Char('"'));
}

QString S3MultipartUpload::etagOf(const QByteArray &digests)
{
    return QStringLiteral("%1-%2")
        .arg(
            QString::fromLatin1(QCryptographicHash::hash(digests, QCryptographicHash::Md5).toHex()))
        .arg(digests.size() / 16);
}

Outcome<QStringList> S3MultipartUpload::uploadIds(const QString &bucket, const QString &key)
{
    auto listed = m_s3.call(QStringLiteral("ListMultipartUploads"),
                            {{QStringLiteral("Bucket"), bucket}, {QStringLiteral("Prefix"), key}});
    if (!listed)
        return listed.error();
    QStringList ids;
    for (const QJsonValue &item : listed.value().body.value(QStringLiteral("Uploads")).toArray()) {
        if (item[QStringLiteral("Key")].toString() == key)
            ids << item[QStringLiteral("UploadId")].toString();
    }
    return ids;
}

Outcome<QMap<int, S3MultipartUpload::Part>>
S3MultipartUpload::partsOf(const QString &bucket, const QString &key, const QString &uploadId)
{
    QMap<int, Part> parts;
    QJsonObject request{{QStringLiteral("Bucket"), bucket},
                        {QStringLiteral("Key"), key},
                        {QStringLiteral("UploadId"), uploadId}};
    // At most 1,000 parts a page; 10,000 at most in all.
    for (int page = 0; page < 11; ++page) {
        auto listed = m_s3.call(QStringLiteral("ListParts"), request);
        if (!listed) {
            if (listed.error().category == BackendError::Category::NotFound)
                break; // completed or aborted meanwhile
            return listed.error();
        }
        const QJsonObject &body = listed.value().body;
        for (const QJsonValue &part : body.value(QStringLiteral("Parts")).toArray())
            parts.insert(part[QStringLiteral("PartNumber")].toInt(),
                         Part{bareEtag(part[QStringLiteral("ETag")]),
                              part[QStringLiteral("Size")].toInteger()});
        if (!body.value(QStringLiteral("IsTruncated")).toBool())
            break;
        request.insert(QStringLiteral("PartNumberMarker"),
                       body.value(QStringLiteral("NextPartNumberMarker")));
    }
    return parts;
}

std::optional<BackendError> S3MultipartUpload::abort(const QString &bucket, const QString &key,
                                                     const QString &uploadId)
{
    auto aborted =
        m_s3.call(QStringLiteral("AbortMultipartUpload"), {{QStringLiteral("Bucket"), bucket},
                                                           {QStringLiteral("Key"), key},
                                                           {QStringLiteral("UploadId"), uploadId}});
    if (!aborted && aborted.error().category != BackendError::Category::NotFound)
        return aborted.error();
    return std::nullopt;
}

std::optional<BackendError> S3MultipartUpload::abortAll(const QString &bucket, const QString &key)
{
    const auto ids = uploadIds(bucket, key);
    if (!ids)
        return ids.error();
    for (const QString &id : ids.value()) {
        if (auto failed = abort(bucket, key, id))
            return failed;
    }
    return std::nullopt;
}

Outcome<QByteArray> S3MultipartUpload::partDigests(const QString &path)
{
    return m_partDigests.of(path, [](QFile &f) {
        QByteArray out;
        while (!f.atEnd())
            out += QCryptographicHash::hash(f.read(partBytes), QCryptographicHash::Md5);
        return out;
    });
}

std::optional<BackendError> S3MultipartUpload::sendParts(const QJsonObject &upload,
                                                         const QString &path,
                                                         const QList<int> &numbers,
                                                         const QByteArray &digests, qint64 bytes,
                                                         QMap<int, Part> &have, int &sent)
{
    QElapsedTimer timer;
    timer.start();
    std::mutex lock; // guards what follows, and `have` and `sent`
    qsizetype next = 0;
    std::optional<BackendError> failed;
    const auto fail = [&](BackendError error) {
        std::lock_guard guard(lock);
        if (!failed)
            failed = std::move(error);
    };
    // The next part to send; 0 when none is left, the step's time is spent or a part failed.
    const auto take = [&]() -> int {
        std::lock_guard guard(lock);
        if (failed || next >= numbers.size() || (next > 0 && timer.elapsed() >= m_budget.count()))
            return 0;
        return numbers.at(next++);
    };
    const auto lane = [&](ApiCaller &s3) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return fail(ContentFileDigests::unreadable(path, file.errorString()));
        for (int number = take(); number != 0; number = take()) {
            const qint64 size = std::min(partBytes, bytes - qint64(number - 1) * partBytes);
            if (!file.seek(qint64(number - 1) * partBytes))
                return fail(ContentFileDigests::unreadable(path, file.errorString()));
            const QByteArray part = file.read(partBytes);
            if (file.error() != QFileDevice::NoError)
                return fail(ContentFileDigests::unreadable(path, file.errorString()));
            // The part's MD5 is the one read for its digest when its bytes are the same size; S3
            // checks them against it (a file that changed meanwhile is refused, not stored).
            const QByteArray md5 = part.size() == size
                                       ? digests.mid((number - 1) * 16, 16)
                                       : QCryptographicHash::hash(part, QCryptographicHash::Md5);
            QJsonObject request = upload;
            request.insert(QStringLiteral("PartNumber"), number);
            request.insert(QStringLiteral("ContentMD5"), QString::fromLatin1(md5.toBase64()));
            auto answer =
                s3.call(QStringLiteral("UploadPart"), request, QStringLiteral("Body"), part);
            if (!answer)
                return fail(answer.error());
            std::lock_guard guard(lock);
            have.insert(number, Part{bareEtag(answer.value().body.value(QStringLiteral("ETag"))),
                                     part.size()});
            ++sent;
        }
    };
    const qsizetype lanes = m_laneCaller ? std::min<qsizetype>(m_lanes, numbers.size()) : 1;
    if (lanes <= 1) {
        lane(m_s3);
        return failed;
    }
    // Each lane on a thread of its own, with a caller (and so connections) of its own, made and
    // destroyed there.
    std::vector<std::unique_ptr<QThread>> threads;
    for (qsizetype i = 0; i < lanes; ++i) {
        threads.emplace_back(QThread::create([&] {
            const std::shared_ptr<ApiCaller> own = m_laneCaller();
            if (!own)
                return fail(BackendError::make(
                    BackendError::Category::Transient, QStringLiteral("NoConnection"),
                    QStringLiteral("no connection for a part of %1").arg(path)));
            lane(*own);
        }));
        threads.back()->start();
    }
    for (const auto &thread : threads)
        thread->wait();
    return failed;
}

Outcome<S3MultipartUpload::Step> S3MultipartUpload::step(const QJsonObject &object,
                                                         const QString &path)
{
    const QString bucket = object.value(QStringLiteral("Bucket")).toString();
    const QString key = object.value(QStringLiteral("Key")).toString();
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return ContentFileDigests::unreadable(path, file.errorString());
    Step step;
    step.bytes = file.size();
    step.parts = int((step.bytes + partBytes - 1) / partBytes);
    if (step.parts > maxParts)
        return BackendError::make(
            BackendError::Category::Invalid, QStringLiteral("ContentFileTooLarge"),
            QStringLiteral("spec.contentFile %1 needs more than %2 parts of 8 MiB, which S3 "
                           "does not take")
                .arg(path)
                .arg(maxParts));
    const Outcome<QByteArray> digests = partDigests(path);
    if (!digests)
        return digests.error();
    const auto partSize = [&step](int number) {
        return std::min(partBytes, step.bytes - qint64(number - 1) * partBytes);
    };
    // A part of this file as S3 says it: its MD5 in hex and its size.
    const auto expected = [&](int number) {
        return Part{QString::fromLatin1(digests.value().mid((number - 1) * 16, 16).toHex()),
                    partSize(number)};
    };

    // Go on with the upload whose parts are this file's; any other of the key would stay, and
    // be billed. One without a part says nothing of whose it is: it goes too.
    const auto ids = uploadIds(bucket, key);
    if (!ids)
        return ids.error();
    QMap<int, Part> have;
    for (const QString &id : ids.value()) {
        auto parts = partsOf(bucket, key, id);
        if (!parts)
            return parts.error();
        bool ours = step.uploadId.isEmpty() && !parts.value().isEmpty();
        for (auto it = parts.value().cbegin(); ours && it != parts.value().cend(); ++it)
            ours = it.key() >= 1 && it.key() <= step.parts && it.value() == expected(it.key());
        if (ours) {
            step.uploadId = id;
            step.resumed = true;
            have = parts.value();
        } else if (auto failed = abort(bucket, key, id)) {
            return *failed;
        }
    }
    if (step.uploadId.isEmpty()) {
        auto created = m_s3.call(QStringLiteral("CreateMultipartUpload"), object);
        if (!created)
            return created.error();
        step.uploadId = created.value().body.value(QStringLiteral("UploadId")).toString();
    }
    const QJsonObject upload{{QStringLiteral("Bucket"), bucket},
                             {QStringLiteral("Key"), key},
                             {QStringLiteral("UploadId"), step.uploadId}};

    QList<int> missing;
    for (int number = 1; number <= step.parts; ++number) {
        if (!have.contains(number))
            missing << number;
    }
    // A failed part leaves the upload for the next step, which goes on with it.
    if (auto failed =
            sendParts(upload, path, missing, digests.value(), step.bytes, have, step.partsSent))
        return *failed;
    for (const Part &part : std::as_const(have)) {
        ++step.partsDone;
        step.bytesDone += part.size;
    }
    if (step.partsDone < step.parts)
        return step;

    QJsonArray parts;
    for (auto it = have.begin(); it != have.end(); ++it)
        parts.append(QJsonObject{{QStringLiteral("ETag"),
                                  QString(QLatin1Char('"') + it.value().etag + QLatin1Char('"'))},
                                 {QStringLiteral("PartNumber"), it.key()}});
    QJsonObject complete = upload;
    complete.insert(QStringLiteral("MultipartUpload"),
                    QJsonObject{{QStringLiteral("Parts"), parts}});
    auto done = m_s3.call(QStringLiteral("CompleteMultipartUpload"), complete);
    if (!done) {
        // Parts S3 will not put together (InvalidPart) go, so that the next step begins anew.
        if (done.error().category != BackendError::Category::Transient &&
            done.error().category != BackendError::Category::Throttled)
            abort(bucket, key, step.uploadId);
        return done.error();
    }
    step.complete = true;
    return step;
}

} // namespace converge
