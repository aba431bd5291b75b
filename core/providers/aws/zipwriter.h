// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace converge {

/// A ZIP archive (PKWARE's APPNOTE 2.0: deflated entries, no ZIP64) written reproducibly: the
/// entries sorted by name, every timestamp 1980-01-01 00:00 (the format's first instant), modes
/// 0644 or 0755 and nothing else from the file system, so that the same tree gives the same
/// bytes and so the same SHA-256 (a Lambda function's CodeSha256) on any machine.
///
/// Written by hand because Qt has no public ZIP writer (QZipWriter is private API, not kept
/// stable) and the project takes no other library for it. The deflate stream is zlib's, through
/// qCompress: its 4-byte length prefix, 2-byte zlib header and 4-byte Adler-32 trailer are cut,
/// leaving the raw deflate data a ZIP entry holds. CRC-32 is Crc32's. Nothing here is
/// cryptography.
class ZipWriter final
{
public:
    struct Entry
    {
        QString name; ///< relative, '/'-separated
        QByteArray data;
        bool executable = false; ///< 0755 instead of 0644 (a custom runtime's `bootstrap`)
    };

    /// The archive of `entries`, sorted by name; equal names are an error of the caller.
    static QByteArray write(QList<Entry> entries);

    struct Result
    {
        QByteArray zip;
        QString error; ///< non-empty when the folder cannot be read or the archive is too large
    };
    /// Every regular file under `folder` (symbolic links followed, hidden files included), named
    /// relative to it; refused with a message once the archive would pass `limit` bytes.
    static Result writeFolder(const QString &folder, qint64 limit);
    /// What writeFolder's archive of `folder` depends on, without reading a file: each file's
    /// name, size, modification time and execute bit, in the same walk. Equal stamps, equal
    /// archives (a file rewritten with the same size within the same millisecond aside).
    static QByteArray folderStamp(const QString &folder);

    /// The raw deflate stream of `data` (zlib's, without its framing).
    static QByteArray deflate(const QByteArray &data);
};

} // namespace converge
