// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>

class QSettings;

namespace converge {

/// The recently opened workspaces, newest first, kept in QSettings (`Workspaces/recent`): at most
/// maxCount, each once (compared as absolute, cleaned paths), files that no longer exist dropped
/// when the list is read.
class RecentWorkspaces final
{
public:
    static constexpr int maxCount = 8;

    /// `settings` is not owned and must outlive this object.
    explicit RecentWorkspaces(QSettings &settings);

    /// The existing files of the list, newest first. Drops the missing ones from the settings,
    /// except `keep` (a window's own workspace, which is created by its first write).
    QStringList paths(const QString &keep = {}) const;
    /// Puts `path` first (moving it when it is listed already) and trims the list to maxCount.
    void add(const QString &path);
    void clear();

private:
    QStringList stored() const;
    void store(const QStringList &paths) const;

    QSettings &m_settings;
};

} // namespace converge
