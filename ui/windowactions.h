// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "themedicons.h"

#include <QHash>
#include <QList>
#include <QObject>

class QAction;
class QMenu;
class QMenuBar;
class QToolBar;

namespace converge {

/// The window's actions (object names, texts, shortcuts, tips) and the rules that say which of
/// them the selection allows. The rules take a plain summary of the selection, so that they can
/// be checked without a window; the menus, the toolbar and the tree's context menu are filled
/// from the same actions.
class WindowActions final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WindowActions)

public:
    /// What the rules need to know about the tree's selection.
    struct Selection
    {
        int managed = 0;         // rows in the workspace
        int discovered = 0;      // rows the backend lists that nothing manages
        int unclaimed = 0;       // managed rows with no finalizer yet that are not being deleted
        int browsable = 0;       // rows whose backend listing can be read again (folders)
        bool controller = false; // this process runs the controller
        QString claimRefusal;    // why a selected discovered row cannot be claimed, if one cannot
    };

    /// Which of the selection-dependent actions are enabled.
    struct Enabled
    {
        bool claim = false;
        bool reconcile = false;
        bool refresh = false;
        bool cancel = false;
        bool remove = false;
        bool exportYaml = false;
        // Templates, accounts and manifests need no selection.
        bool apply = true;
        bool newResource = true;
        bool connect = true;

        bool operator==(const Enabled &) const = default;
    };

    static Enabled enabledFor(const Selection &selection);

    explicit WindowActions(QObject *parent = nullptr);

    /// Enables the actions as enabledFor() says.
    void update(const Selection &selection);
    /// Draws the icons again in the palette's colours (after a theme change).
    void updateIcons();

    /// The File, Resource, View and Help menus; `viewToggles` (the log, the details, the toolbar)
    /// go into View. Returns the File menu's Open Recent submenu, which the caller fills.
    QMenu *fillMenuBar(QMenuBar *bar, const QList<QAction *> &viewToggles);
    void fillToolBar(QToolBar *toolbar) const;
    /// The tree's context menu, separators included.
    QList<QAction *> contextActions() const { return m_context; }

    QAction *claim() const { return m_claim; }
    QAction *reconcile() const { return m_reconcile; }
    QAction *refresh() const { return m_refresh; }
    QAction *cancel() const { return m_cancel; }
    QAction *remove() const { return m_delete; }
    QAction *apply() const { return m_apply; }
    QAction *exportYaml() const { return m_export; }
    /// File ▸ Export ▸ for Azure Service Operator / for AWS Controllers for Kubernetes: of the
    /// selection or everything, so always enabled.
    QAction *exportAso() const { return m_exportAso; }
    QAction *exportAck() const { return m_exportAck; }
    QAction *exportKcc() const { return m_exportKcc; }
    QAction *newResource() const { return m_newResource; }
    QAction *openByName() const { return m_openByName; }
    QAction *connectAccount() const { return m_connect; }
    QAction *settings() const { return m_settings; }
    QAction *newWorkspace() const { return m_newWorkspace; }
    QAction *openWorkspace() const { return m_openWorkspace; }
    QAction *quit() const { return m_quit; }
    /// Help ▸ Documentation (F1), About Converge, About Qt.
    QAction *documentation() const { return m_documentation; }
    QAction *about() const { return m_about; }
    QAction *aboutQt() const { return m_aboutQt; }

Q_SIGNALS:
    /// The File menu is about to open (the recent list is refreshed then).
    void fileMenuAboutToShow();

private:
    ThemedIcons m_icons;
    // Owned through Qt parents.
    QAction *m_claim = nullptr;
    QAction *m_reconcile = nullptr;
    QAction *m_refresh = nullptr;
    QAction *m_cancel = nullptr;
    QAction *m_delete = nullptr;
    QAction *m_apply = nullptr;
    QAction *m_export = nullptr;
    QAction *m_exportAso = nullptr;
    QAction *m_exportAck = nullptr;
    QAction *m_exportKcc = nullptr;
    QAction *m_newResource = nullptr;
    QAction *m_openByName = nullptr;
    QAction *m_connect = nullptr;
    QAction *m_settings = nullptr;
    QAction *m_newWorkspace = nullptr;
    QAction *m_openWorkspace = nullptr;
    QAction *m_quit = nullptr;
    QAction *m_documentation = nullptr;
    QAction *m_about = nullptr;
    QAction *m_aboutQt = nullptr;
    QList<QAction *> m_context;
    QHash<QAction *, QString> m_tips; // what each engine action's tool tip says when it can act
};

} // namespace converge
