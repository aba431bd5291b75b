// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "event.h"
#include "resource.h"
#include "resourcekey.h"

#include <QObject>
#include <QStringList>

#include <optional>

class QMimeData;
class QWidget;

namespace converge {

struct ApplyPlan;
class CredentialStore;
class FolderMemory;
class KindRegistry;
class WorkspaceRunner;

/// Manifests into and out of the window. Files, the new-resource dialog's text and the connect
/// dialog's account are read into an ApplyPlan off the GUI thread,
/// shown in the plan dialog and stored through the writer when accepted; the selection and the
/// log panel's events are written to files the same way. The window reloads what was written
/// (written()) and shows the messages.
class ManifestFlow final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ManifestFlow)

public:
    /// `kinds`, `reader` and `writer` are not owned and must outlive the flow; its dialogs open
    /// over `window`, which owns it.
    ManifestFlow(const KindRegistry &kinds, WorkspaceRunner &reader, WorkspaceRunner &writer,
                 QWidget *window);
    /// Where the file dialogs open, and what they remember (not owned; may be null).
    void setFolderMemory(FolderMemory *folders) { m_folders = folders; }

    /// The manifest files (.yaml, .yml, .json) among dropped or pasted URLs.
    static QStringList manifestPaths(const QMimeData *mime);

    /// The "Apply manifest…" file dialog; the chosen files go to applyFiles().
    void chooseFiles();
    /// Reads manifest files as `converge apply -f` does, shows the plan, applies it if accepted.
    void applyFiles(const QStringList &paths);
    /// The same for manifest text (the new-resource editor's), `sourceName` naming it.
    void applyText(const QString &text, const QString &sourceName);
    /// The same for resources built in code; the plan is shown only when it would change an
    /// existing resource.
    void applyResources(const QList<Resource> &resources, const QString &sourceName);

    /// The new-resource dialog, its kind and owner preset to one the `selected` resource can own.
    void newResource(const QList<ResourceKey> &selected);
    /// The connect-account dialog; `credentials` (not owned, may be null) holds what it stores.
    void connectAccount(CredentialStore *credentials);

    /// The "Export selection as YAML" file dialog for `keys`.
    void chooseExportFile(const QList<ResourceKey> &keys);
    /// Writes the resources as multi-document YAML to `path`.
    void exportResources(const QList<ResourceKey> &keys, const QString &path);
    /// Writes every stored event of `type` (all when unset) whose text holds `text` to `path`,
    /// as JSON when it ends in .json, else CSV.
    void exportLog(const QString &path, std::optional<Event::Type> type, const QString &text);

Q_SIGNALS:
    /// Resources were written to the workspace (also when the write failed part way).
    void written(const QList<converge::ResourceKey> &keys);
    /// A sentence for the status bar.
    void message(const QString &text);
    /// An accepted plan was stored (empty `error`), or failed.
    void manifestApplied(const QList<converge::ResourceKey> &keys, const QString &error);
    void exportFinished(const QString &path, const QString &error);
    void logExported(const QString &path, const QString &error);

private:
    void showPlan(const ApplyPlan &plan);
    void applyPlan(const ApplyPlan &plan);

    const KindRegistry &m_kinds;
    WorkspaceRunner &m_reader;
    WorkspaceRunner &m_writer;
    QWidget *m_window;                 // not owned: the parent
    FolderMemory *m_folders = nullptr; // not owned; may be null
};

} // namespace converge
