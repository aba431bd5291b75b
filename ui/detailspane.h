// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resourcekey.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QTabWidget;
class QTreeWidget;

namespace converge {

class KindRegistry;
class WorkspaceRunner;

/// The selected resource in tabs: Spec (the manifest as YAML), Observed (what the backend last
/// returned), Conditions (current and every stored transition) and Events (the resource's
/// newest first). Read on a WorkspaceRunner's thread; a result for a resource that is no longer
/// shown is dropped.
class DetailsPane final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DetailsPane)

public:
    /// Neither reference is owned; both must outlive the pane.
    DetailsPane(WorkspaceRunner &runner, const KindRegistry &kinds, QWidget *parent = nullptr);
    ~DetailsPane() override;

    ResourceKey currentKey() const { return m_key; }
    /// Shows `key`; an invalid key clears the pane.
    void showResource(const ResourceKey &key);
    /// Reads the shown resource again when it is among `keys`.
    void refreshIfShown(const QList<ResourceKey> &keys);

    struct Snapshot;

Q_SIGNALS:
    /// The shown resource's data is in the tabs.
    void loaded(const converge::ResourceKey &key);

private:
    void load();
    void apply(const Snapshot &snapshot);
    void clear(const QString &message);

    WorkspaceRunner &m_runner;
    const KindRegistry &m_kinds;
    ResourceKey m_key;
    quint64 m_serial = 0;
    bool m_loading = false;
    bool m_again = false; // a refresh came while loading
    QLabel *m_title = nullptr;
    QTabWidget *m_tabs = nullptr;
    QPlainTextEdit *m_spec = nullptr;
    QPlainTextEdit *m_observed = nullptr;
    QTreeWidget *m_conditions = nullptr;
    QTreeWidget *m_events = nullptr;
};

} // namespace converge
