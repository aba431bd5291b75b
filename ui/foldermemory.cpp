// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "foldermemory.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>

namespace converge {

namespace {

QString lastFolderKey()
{
    return QStringLiteral("Dialogs/lastFolder");
}

} // namespace

FolderMemory::FolderMemory(QSettings &settings)
    : m_settings(settings)
{}

QString FolderMemory::folder() const
{
    const QString last = m_settings.value(lastFolderKey()).toString();
    return !last.isEmpty() && QFileInfo(last).isDir() ? last : QDir::homePath();
}

void FolderMemory::remember(const QString &path)
{
    if (path.isEmpty())
        return;
    const QFileInfo info(path);
    m_settings.setValue(lastFolderKey(),
                        info.isDir() ? info.absoluteFilePath() : info.absolutePath());
}

void FolderMemory::follow(QFileDialog *dialog)
{
    dialog->setDirectory(folder());
    QObject::connect(dialog, &QFileDialog::filesSelected, dialog, [this](const QStringList &paths) {
        if (!paths.isEmpty())
            remember(paths.constFirst());
    });
}

} // namespace converge
