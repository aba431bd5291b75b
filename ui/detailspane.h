// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resource.h"
#include "resourcekey.h"
#include "statusicons.h"

#include <QHash>
#include <QWidget>

#include <optional>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;
class QTabWidget;
class QTreeView;
class QTreeWidget;

namespace converge {

class DiffModel;
class KindRegistry;
class SpecEdit;
class SpecValidator;
class TimelineModel;
class WorkspaceRunner;

/// The selected resource in tabs: Spec (an editor for its manifest, validated as you type, with
/// Apply and Revert), Observed (what the backend last returned), Diff (desired against observed
/// over the kind's compared fields), Conditions (current and every stored transition), Events
/// (the resource's, newest first) and Timeline (its phase runs, newest first).
///
/// Reads run on the reading WorkspaceRunner, Apply on the writing one; a result for a resource
/// that is no longer shown is dropped. Apply writes with the resourceVersion the edit started
/// from, so a concurrent change of the desired state (spec, labels, annotations, finalizers)
/// conflicts and overwrites nothing; the controller's status writes alone do not conflict.
///
/// Unsaved edits are never overwritten: a refresh that brings a different stored spec only says
/// so, and switching to another resource keeps the edits (per resource, in memory, until Apply
/// or Revert) and restores them when that resource is shown again.
class DetailsPane final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DetailsPane)

public:
    /// No reference is owned; all must outlive the pane.
    DetailsPane(WorkspaceRunner &reader, WorkspaceRunner &writer, const KindRegistry &kinds,
                QWidget *parent = nullptr);
    ~DetailsPane() override;

    ResourceKey currentKey() const { return m_key; }
    /// Shows `key`; an invalid key clears the pane.
    void showResource(const ResourceKey &key);
    /// Reads the shown resource again when it is among `keys`.
    void refreshIfShown(const QList<ResourceKey> &keys);

    /// Whether the editor's text differs from the stored spec it was loaded from.
    bool hasUnsavedEdits() const;
    /// Resources (other than the shown one) whose unsaved edits are kept.
    QList<ResourceKey> draftKeys() const { return m_drafts.keys(); }
    /// Every resource with unsaved edits: the kept drafts, and the shown one when edited.
    QList<ResourceKey> editedKeys() const;
    /// Drops the unsaved edits of `key`, shown or kept as a draft.
    void discardEdits(const ResourceKey &key);

    /// Writes the editor's (valid) text to the workspace; what the Apply button does.
    void applySpec();
    /// Drops the edits and shows the stored spec; what the Revert button does.
    void revertSpec();

    struct Snapshot;
    struct ApplyResult;

Q_SIGNALS:
    /// The shown resource's data is in the tabs.
    void loaded(const converge::ResourceKey &key);
    /// Apply stored the edited spec (`generation` is the stored one): time to wake the
    /// controller.
    void specApplied(const converge::ResourceKey &key, qint64 generation);
    /// Apply stored nothing; `message` says why (as shown under the editor).
    void specApplyFailed(const converge::ResourceKey &key, const QString &message);
    /// editedKeys() changed.
    void editedKeysChanged();

private:
    struct Draft
    {
        QString text;
        Resource base;
        QString baseText;
    };

    void load();
    void apply(const Snapshot &snapshot);
    void applyToEditor(const Snapshot &snapshot);
    void clear(const QString &message);
    void setSpecText(const QString &text);
    void specEdited();
    void applyFinished(const ApplyResult &result);
    void updateSpecState();
    void noteEdits();

    WorkspaceRunner &m_runner;
    WorkspaceRunner &m_writer;
    const KindRegistry &m_kinds;
    ResourceKey m_key;
    quint64 m_serial = 0;
    bool m_loading = false;
    bool m_again = false; // a refresh came while loading or applying

    // The spec editor's state.
    std::optional<Resource> m_base; // the stored resource the editor's text starts from
    QString m_baseText;             // its YAML, what Revert shows
    bool m_storedChanged = false;   // the stored desired state moved on under unsaved edits
    bool m_applying = false;
    bool m_settingText = false;
    bool m_edited = false; // the editor's text differs from m_baseText
    bool m_restoredDraft = false;
    bool m_valid = false; // the validator accepted the current text
    Resource m_validated; // what it made of it
    QString m_problem;    // the validator's message (rich text, with a link to the place)
    QString m_applyMessage;
    QHash<ResourceKey, Draft> m_drafts;
    QList<ResourceKey> m_noted; // editedKeys() as last signalled

    QStackedWidget *m_pages = nullptr; // the empty state, or the title and tabs
    QLabel *m_empty = nullptr;

    QLabel *m_title = nullptr;
    QTabWidget *m_tabs = nullptr;
    SpecEdit *m_spec = nullptr;
    QLabel *m_specStatus = nullptr;
    QPushButton *m_applyButton = nullptr;
    QPushButton *m_revertButton = nullptr;
    SpecValidator *m_validator = nullptr; // a child
    QPlainTextEdit *m_observed = nullptr;
    QLabel *m_diffStatus = nullptr;
    DiffModel *m_diffModel = nullptr;
    QTreeView *m_diff = nullptr;
    QTreeWidget *m_conditions = nullptr;
    QTreeWidget *m_events = nullptr;
    TimelineModel *m_timelineModel = nullptr;
    StatusIcons m_icons;
    QTreeView *m_timeline = nullptr;
};

} // namespace converge
