// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "lambdacode.h"

#include "zipwriter.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>

namespace converge {

namespace {

// `what`: how large the package is, or why it cannot fit.
QString lambdaCodeTooLarge(const QString &what, qint64 limit)
{
    return QStringLiteral("%1: Lambda takes %2 bytes at most uploaded directly; upload the "
                          "package to S3 and give code: {s3Bucket, s3Key}")
        .arg(what)
        .arg(limit);
}

} // namespace

QString LambdaCode::sha256(const QByteArray &zip)
{
    return QString::fromLatin1(
        QCryptographicHash::hash(zip, QCryptographicHash::Sha256).toBase64());
}

QByteArray LambdaCode::stamp(const QString &path)
{
    const QFileInfo info(path);
    if (info.isDir())
        return "folder\n" + ZipWriter::folderStamp(path);
    if (!info.exists())
        return {};
    return QStringLiteral("file %1|%2")
        .arg(info.size())
        .arg(info.lastModified().toMSecsSinceEpoch())
        .toUtf8();
}

LambdaCode::Package LambdaCode::read(const QString &path, qint64 limit)
{
    Package package;
    const QFileInfo info(path);
    if (info.isDir()) {
        ZipWriter::Result zipped = ZipWriter::writeFolder(path, limit);
        if (!zipped.error.isEmpty()) {
            package.error = zipped.error.contains(QLatin1String("more than"))
                                ? lambdaCodeTooLarge(zipped.error, limit)
                                : zipped.error;
            return package;
        }
        package.zip = std::move(zipped.zip);
    } else {
        if (!info.exists()) {
            package.error = QStringLiteral("%1 does not exist").arg(path);
            return package;
        }
        if (info.size() > limit) {
            package.error = lambdaCodeTooLarge(
                QStringLiteral("%1 is %2 bytes").arg(path).arg(info.size()), limit);
            return package;
        }
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            package.error = QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
            return package;
        }
        package.zip = file.readAll();
        // A local file header, or the end record of an empty archive.
        if (!package.zip.startsWith("PK\x03\x04") && !package.zip.startsWith("PK\x05\x06")) {
            package.error =
                QStringLiteral("%1 is not a .zip archive: give a .zip, or the folder to zip")
                    .arg(path);
            package.zip.clear();
            return package;
        }
    }
    package.sha256 = sha256(package.zip);
    return package;
}

} // namespace converge
