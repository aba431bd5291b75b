// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "recentworkspaces.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace converge {

namespace {

QString recentKey()
{
    return QStringLiteral("Workspaces/recent");
}

QString normalized(const QString &path)
{
    return QDir::cleanPath(QFileInfo(path).absoluteFilePath());
}

} // namespace

RecentWorkspaces::RecentWorkspaces(QSettings &settings)
    : m_settings(settings)
{}

QStringList RecentWorkspaces::stored() const
{
    return m_settings.value(recentKey()).toStringList();
}

void RecentWorkspaces::store(const QStringList &paths) const
{
    m_settings.setValue(recentKey(), paths);
}

QStringList RecentWorkspaces::paths(const QString &keep) const
{
    const QString kept = keep.isEmpty() ? QString() : normalized(keep);
    const QStringList all = stored();
    QStringList existing;
    for (const QString &path : all) {
        if (QFileInfo(path).isFile() || normalized(path) == kept)
            existing << path;
    }
    if (existing != all)
        store(existing);
    return existing;
}

void RecentWorkspaces::add(const QString &path)
{
    if (path.isEmpty())
        return;
    const QString added = normalized(path);
    QStringList list = stored();
    list.removeIf([&added](const QString &p) { return normalized(p) == added; });
    list.prepend(added);
    while (list.size() > maxCount)
        list.removeLast();
    store(list);
}

void RecentWorkspaces::clear()
{
    m_settings.remove(recentKey());
}

} // namespace converge
