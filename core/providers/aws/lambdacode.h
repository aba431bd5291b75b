// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>

namespace converge {

/// A Lambda function's code given as `code: {file: PATH}`: the deployment package sent as
/// CreateFunction's or UpdateFunctionCode's ZipFile, and its CodeSha256 (the base64 SHA-256 of
/// the archive, which GetFunction's Configuration answers), by which drift of the code is seen.
/// PATH is a .zip, sent as it is, or a folder, zipped reproducibly (ZipWriter) so that the same
/// tree always gives the same sha. Lambda takes at most 50 MB this way; a larger package is
/// refused with a message that says how to give it (through S3).
class LambdaCode final
{
public:
    /// Lambda's limit for a package uploaded directly (the zipped size).
    static constexpr qint64 directUploadLimit = 50 * 1024 * 1024;

    struct Package
    {
        QByteArray zip;
        QString sha256; ///< base64, as Lambda's CodeSha256
        QString error;  ///< non-empty when PATH gives no package to send
    };
    /// The package at `path` (`limit`: the direct upload's; smaller in tests).
    static Package read(const QString &path, qint64 limit = directUploadLimit);

    /// What read()'s package of `path` depends on, read without reading the code (a folder's
    /// ZipWriter::folderStamp, a file's size and time): when it is the same, so is the package.
    static QByteArray stamp(const QString &path);

    /// Lambda's CodeSha256 of `zip`.
    static QString sha256(const QByteArray &zip);
};

} // namespace converge
