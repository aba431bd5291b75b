// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resourcekey.h"
#include "windowjobs.h"

#include <QObject>

#include <functional>

class QWidget;

namespace converge {

class FolderMemory;
class WorkspaceRunner;

/// File ▸ Export ▸ for Azure Service Operator… / for AWS Controllers for Kubernetes… / for Google
/// Config Connector…: asks
/// whether to export the selection or everything (when something is selected); for ASO, when a
/// storage account to export lacks what ASO needs, asks for it (AsoExportOptionsDialog); then
/// for a file, and runs the workspace reads and the export on the workspace runner's thread.
/// Fields the target still needs are shown each with how to give it, and nothing is written;
/// resources with no counterpart are named.
class InteropExport final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InteropExport)

public:
    using Target = WindowJobs::InteropTarget;

    /// `runner` gives the window's current reader (it changes with the workspace); `window`
    /// parents the dialogs and this object.
    InteropExport(std::function<WorkspaceRunner *()> runner, QWidget *window);

    /// Starts the questions; `selection` may be empty (everything is exported then).
    void start(Target target, const QList<ResourceKey> &selection);
    /// Exports `keys` (everything when empty) to `path` without asking; `aso` as the command
    /// line's flags give it.
    void exportTo(Target target, const QList<ResourceKey> &keys, const QString &path,
                  const AsoExporter::Options &aso = {});

    static QString targetName(Target target);
    /// Where the file dialog opens, and what it remembers (not owned; may be null).
    void setFolderMemory(FolderMemory *folders) { m_folders = folders; }

Q_SIGNALS:
    /// The export ended: `error` is empty when the file was written.
    void finished(const QString &path, const QString &error);

private:
    void askAsoFields(const QList<ResourceKey> &keys);
    void chooseFile(Target target, const QList<ResourceKey> &keys,
                    const AsoExporter::Options &aso = {});
    void next(Target target, const QList<ResourceKey> &keys);
    void report(Target target, const QString &path, const WindowJobs::InteropExported &result);

    std::function<WorkspaceRunner *()> m_runner;
    FolderMemory *m_folders = nullptr; // not owned; may be null
    QWidget *m_window;                 // not owned: the parent
};

} // namespace converge
