// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "contentfiledigests.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace converge {

Outcome<QByteArray> ContentFileDigests::of(const QString &path, const Compute &compute)
{
    const QFileInfo info(path);
    const QString stamp =
        QStringLiteral("%1|%2").arg(info.size()).arg(info.lastModified().toMSecsSinceEpoch());
    if (const auto it = m_cache.constFind(path); it != m_cache.cend() && it->first == stamp)
        return it->second;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return unreadable(path, file.errorString());
    const QByteArray digest = compute(file);
    if (file.error() != QFileDevice::NoError)
        return unreadable(path, file.errorString());
    m_cache.insert(path, {stamp, digest});
    return digest;
}

QString ContentFileDigests::resolve(const QString &contentFile)
{
    return QDir::current().absoluteFilePath(contentFile);
}

BackendError ContentFileDigests::unreadable(const QString &path, const QString &why)
{
    return BackendError::make(BackendError::Category::Invalid,
                              QStringLiteral("ContentFileUnreadable"),
                              QStringLiteral("cannot read spec.contentFile %1: %2").arg(path, why));
}

} // namespace converge
