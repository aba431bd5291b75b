// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "zipwriter.h"

#include "crc32.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QtEndian>

#include <algorithm>

namespace converge {

namespace {

constexpr quint16 zipDosDate = (0 << 9) | (1 << 5) | 1; // 1980-01-01
constexpr quint16 zipDosTime = 0;
constexpr quint16 zipVersion = 20;       // 2.0: deflate
constexpr quint16 zipUtf8Names = 0x0800; // general purpose flag 11: names are UTF-8
constexpr quint16 zipMadeOnUnix = 3 << 8;

void zipPut16(QByteArray &out, quint16 value)
{
    char bytes[2];
    qToLittleEndian(value, bytes);
    out.append(bytes, 2);
}

void zipPut32(QByteArray &out, quint32 value)
{
    char bytes[4];
    qToLittleEndian(value, bytes);
    out.append(bytes, 4);
}

} // namespace

QByteArray ZipWriter::deflate(const QByteArray &data)
{
    // qCompress: 4-byte big-endian length, then a zlib stream: 2-byte header, raw deflate,
    // 4-byte Adler-32.
    const QByteArray zlib = qCompress(data, 9);
    if (zlib.size() < 4 + 2 + 4)
        return {};
    return zlib.mid(4 + 2, zlib.size() - 4 - 2 - 4);
}

QByteArray ZipWriter::write(QList<Entry> entries)
{
    std::sort(entries.begin(), entries.end(),
              [](const Entry &a, const Entry &b) { return a.name.toUtf8() < b.name.toUtf8(); });
    QByteArray out;
    QByteArray central;
    for (const Entry &entry : std::as_const(entries)) {
        const QByteArray name = entry.name.toUtf8();
        // An empty file is stored: zlib's stream of nothing is not empty, and stored is what
        // every zip tool writes for it.
        const bool stored = entry.data.isEmpty();
        const QByteArray body = stored ? QByteArray() : deflate(entry.data);
        const quint32 crc = Crc32::of(entry.data);
        const quint32 offset = quint32(out.size());
        const auto common = [&](QByteArray &to) {
            zipPut16(to, zipVersion);
            zipPut16(to, zipUtf8Names);
            zipPut16(to, stored ? 0 : 8);
            zipPut16(to, zipDosTime);
            zipPut16(to, zipDosDate);
            zipPut32(to, crc);
            zipPut32(to, quint32(body.size()));
            zipPut32(to, quint32(entry.data.size()));
            zipPut16(to, quint16(name.size()));
            zipPut16(to, 0); // extra field
        };
        zipPut32(out, 0x04034b50);
        common(out);
        out += name;
        out += body;

        zipPut32(central, 0x02014b50);
        zipPut16(central, zipMadeOnUnix | zipVersion);
        common(central);
        zipPut16(central, 0); // comment
        zipPut16(central, 0); // disk
        zipPut16(central, 0); // internal attributes
        const quint32 mode = entry.executable ? 0100755 : 0100644;
        zipPut32(central, mode << 16);
        zipPut32(central, offset);
        central += name;
    }
    const quint32 centralOffset = quint32(out.size());
    out += central;
    zipPut32(out, 0x06054b50);
    zipPut16(out, 0);
    zipPut16(out, 0);
    zipPut16(out, quint16(entries.size()));
    zipPut16(out, quint16(entries.size()));
    zipPut32(out, quint32(central.size()));
    zipPut32(out, centralOffset);
    zipPut16(out, 0); // comment
    return out;
}

QByteArray ZipWriter::folderStamp(const QString &folder)
{
    const QDir root(folder);
    QStringList lines;
    QDirIterator it(folder, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories | QDirIterator::FollowSymlinks);
    while (it.hasNext()) {
        const QFileInfo info(it.next());
        lines << QStringLiteral("%1|%2|%3|%4")
                     .arg(root.relativeFilePath(info.filePath()))
                     .arg(info.size())
                     .arg(info.lastModified().toMSecsSinceEpoch())
                     .arg(info.permission(QFileDevice::ExeOwner) ? 1 : 0);
    }
    lines.sort(); // the walk's order is the file system's
    return lines.join(QLatin1Char('\n')).toUtf8();
}

ZipWriter::Result ZipWriter::writeFolder(const QString &folder, qint64 limit)
{
    Result result;
    const QDir root(folder);
    if (!root.exists()) {
        result.error = QStringLiteral("%1 is not a folder").arg(folder);
        return result;
    }
    QList<Entry> entries;
    qint64 total = 0;
    QDirIterator it(folder, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories | QDirIterator::FollowSymlinks);
    while (it.hasNext()) {
        const QFileInfo info(it.next());
        QFile file(info.filePath());
        if (!file.open(QIODevice::ReadOnly)) {
            result.error =
                QStringLiteral("cannot read %1: %2").arg(info.filePath(), file.errorString());
            return result;
        }
        Entry entry;
        entry.name = root.relativeFilePath(info.filePath());
        entry.executable = info.permission(QFileDevice::ExeOwner);
        entry.data = file.readAll();
        // Deflate rarely shrinks below a tenth: a folder ten times the limit cannot fit, and
        // is refused before it is all in memory.
        total += entry.data.size();
        if (limit > 0 && total > limit * 10) {
            result.error =
                QStringLiteral("%1 holds more than %2 bytes").arg(folder).arg(limit * 10);
            return result;
        }
        entries.append(std::move(entry));
    }
    if (entries.isEmpty()) {
        result.error = QStringLiteral("%1 holds no files").arg(folder);
        return result;
    }
    result.zip = write(std::move(entries));
    if (limit > 0 && result.zip.size() > limit) {
        result.error = QStringLiteral("the archive of %1 is %2 bytes, more than %3")
                           .arg(folder)
                           .arg(result.zip.size())
                           .arg(limit);
        result.zip.clear();
    }
    return result;
}

} // namespace converge
