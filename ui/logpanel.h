// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resourcekey.h"

#include <QWidget>

class QLabel;
class QSettings;
class QToolButton;

namespace converge {

class EventLogFilterProxy;
class FolderMemory;
class EventLogModel;
class EventLogView;

/// The log panel: the event log behind its filter bar (type, text), a button that loads older
/// pages of history, one that exports what the filters show, and Follow, which keeps the
/// newest event in sight (EventLogView says when following stops and starts again). Picking a
/// row names the resource it is about, so that the window can select it in the tree.
class LogPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LogPanel)

public:
    /// `model` (not owned) must outlive the panel.
    explicit LogPanel(EventLogModel &model, QWidget *parent = nullptr);

    EventLogView *view() const { return m_view; }
    /// Shows `text` in a banner above the log until the person closes it (a crash report left
    /// by the last run, say).
    void showNotice(const QString &text);
    /// The filters as they are set in the bar.
    EventLogFilterProxy *proxy() const { return m_proxy; }
    /// Where the export's file dialog opens, and what it remembers (not owned; may be null).
    void setFolderMemory(FolderMemory *folders) { m_folders = folders; }
    /// The column layout and the last Follow chosen with the button, in the settings' current
    /// group (the window's).
    void restoreState(const QSettings &settings);
    void saveState(QSettings &settings) const;

Q_SIGNALS:
    /// A file to export the filtered log to was chosen.
    void exportRequested(const QString &path);
    /// The current row is about `key`.
    void resourceActivated(const converge::ResourceKey &key);

private:
    void updateOlder();
    void currentChanged();

    EventLogModel &m_model;
    FolderMemory *m_folders = nullptr;
    // Owned through Qt parents.
    EventLogFilterProxy *m_proxy = nullptr;
    EventLogView *m_view = nullptr;
    QToolButton *m_olderButton = nullptr;
    QToolButton *m_followButton = nullptr;
    // Follow as last clicked: kept for the next start (scrolling changes what the button
    // shows, not this).
    bool m_followChosen = true;
    QWidget *m_notice = nullptr;
    QLabel *m_noticeText = nullptr;
};

} // namespace converge
