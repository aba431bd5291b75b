// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

class QFileDialog;
class QSettings;

namespace converge {

/// The folder a file dialog of the window last chose a file in, kept in the window's settings,
/// where the next one opens (Apply manifest, the exports, the log's export), not the folder the
/// process happened to start in.
class FolderMemory final
{
public:
    /// `settings` is not owned and must outlive this.
    explicit FolderMemory(QSettings &settings);

    /// The last folder chosen that still exists, else the home folder.
    QString folder() const;
    /// Remembers the folder of `path` (a file, or a folder).
    void remember(const QString &path);
    /// Opens `dialog` in folder() and remembers the folder of what it selects.
    void follow(QFileDialog *dialog);

private:
    QSettings &m_settings;
};

} // namespace converge
