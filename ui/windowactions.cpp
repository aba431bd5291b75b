// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "windowactions.h"

#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QToolBar>

namespace converge {

WindowActions::Enabled WindowActions::enabledFor(const Selection &selection)
{
    // Discovered rows are not in the workspace: only Claim applies to them.
    const bool managed = selection.managed > 0;
    const bool engine = managed && selection.controller;
    Enabled enabled;
    enabled.claim = selection.controller && (selection.unclaimed > 0 || selection.discovered > 0);
    enabled.reconcile = engine;
    // A browsed folder is listed again by Refresh, as its container is.
    enabled.refresh = engine || (selection.controller && selection.browsable > 0);
    enabled.cancel = engine;
    enabled.remove = managed;
    enabled.exportYaml = managed;
    return enabled;
}

WindowActions::WindowActions(QObject *parent)
    : QObject(parent)
{
    setObjectName(QStringLiteral("windowActions"));
    const auto make = [this](const QString &text, const QString &name, const QKeySequence &key,
                             const QString &tip) {
        auto *action = new QAction(text, this);
        action->setObjectName(name);
        action->setShortcut(key);
        action->setToolTip(tip + QStringLiteral(" (") + key.toString(QKeySequence::NativeText) +
                           QLatin1Char(')'));
        action->setStatusTip(tip);
        return action;
    };
    m_claim = make(tr("C&laim"), QStringLiteral("claimAction"),
                   QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L),
                   tr("Manage the selected unmanaged resources, as they are, with no change "
                      "to the backend"));
    m_reconcile =
        make(tr("&Reconcile now"), QStringLiteral("reconcileAction"),
             QKeySequence(Qt::CTRL | Qt::Key_R), tr("Reconcile the selected resources now"));
    m_refresh =
        make(tr("Re&fresh"), QStringLiteral("refreshAction"), QKeySequence(QKeySequence::Refresh),
             tr("Observe the selected resources without changing them"));
    m_cancel = make(tr("&Cancel queued work"), QStringLiteral("cancelAction"),
                    QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_X),
                    tr("Remove the selected resources' queued work"));
    m_delete =
        make(tr("&Delete…"), QStringLiteral("deleteAction"), QKeySequence(QKeySequence::Delete),
             tr("Delete or detach the selected resources"));
    m_apply = make(tr("&Apply manifest…"), QStringLiteral("applyManifestAction"),
                   QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A),
                   tr("Apply manifest files (or drop them here)"));
    m_export = make(tr("&Export selection as YAML…"), QStringLiteral("exportAction"),
                    QKeySequence(Qt::CTRL | Qt::Key_E),
                    tr("Write the selected resources as a YAML manifest"));
    m_exportAso =
        make(tr("for &Azure Service Operator…"), QStringLiteral("exportAsoAction"), QKeySequence(),
             tr("Write the selection or everything as Azure Service Operator "
                "resources, for a cluster"));
    m_exportAck = make(tr("for AWS &Controllers for Kubernetes…"),
                       QStringLiteral("exportAckAction"), QKeySequence(),
                       tr("Write the selection or everything as AWS Controllers for Kubernetes "
                          "resources, for a cluster"));
    m_exportKcc =
        make(tr("for &Google Config Connector…"), QStringLiteral("exportKccAction"), QKeySequence(),
             tr("Write the selection or everything as Config Connector resources, "
                "for a cluster"));
    m_newResource = make(tr("&New resource…"), QStringLiteral("newResourceAction"),
                         QKeySequence::New, tr("Create a resource from a template of its kind"));
    m_connect = make(
        tr("&Connect account…"), QStringLiteral("connectAction"),
        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C),
        tr("Add an Azure Storage or AWS account, a Google Cloud project, or a local emulator"));
    m_openByName = make(tr("Open &by name…"), QStringLiteral("openByNameAction"),
                        QKeySequence(Qt::CTRL | Qt::Key_L),
                        tr("Go to a resource by Kind/name, backend name, URL or ARN"));
    m_settings = make(tr("&Settings…"), QStringLiteral("settingsAction"),
                      QKeySequence(Qt::CTRL | Qt::Key_Comma),
                      tr("Workers, resync period, theme and delete confirmation"));
    m_settings->setMenuRole(QAction::PreferencesRole);
    m_newWorkspace = make(tr("New &workspace…"), QStringLiteral("newWorkspaceAction"),
                          QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N),
                          tr("Create a workspace file and open "
                             "it in a new window"));
    m_openWorkspace = make(tr("&Open workspace…"), QStringLiteral("openWorkspaceAction"),
                           QKeySequence::Open, tr("Open a workspace file in a new window"));
    m_quit = new QAction(tr("&Quit"), this);
    m_quit->setObjectName(QStringLiteral("quitAction"));
    m_quit->setShortcut(QKeySequence::Quit);
    m_documentation = make(tr("&Documentation"), QStringLiteral("documentationAction"),
                           QKeySequence::HelpContents,
                           tr("The manifest reference, the command line and the interop guide"));
    m_about = new QAction(tr("&About Converge"), this);
    m_about->setObjectName(QStringLiteral("aboutAction"));
    m_about->setMenuRole(QAction::AboutRole);
    m_aboutQt = new QAction(tr("About &Qt"), this);
    m_aboutQt->setObjectName(QStringLiteral("aboutQtAction"));
    m_aboutQt->setMenuRole(QAction::AboutQtRole);
    for (QAction *action : {m_claim, m_reconcile, m_refresh, m_cancel})
        m_tips.insert(action, action->toolTip());

    auto *separator = new QAction(this);
    separator->setSeparator(true);
    auto *separator2 = new QAction(this);
    separator2->setSeparator(true);
    m_context = {m_claim,   m_reconcile, m_refresh,  m_cancel,
                 separator, m_delete,    separator2, m_export};
    updateIcons();
}

void WindowActions::updateIcons()
{
    const std::pair<QAction *, const char *> icons[] = {
        {m_claim, "claim"},     {m_reconcile, "reconcile"}, {m_refresh, "refresh"},
        {m_cancel, "cancel"},   {m_delete, "delete"},       {m_apply, "apply"},
        {m_export, "export"},   {m_newResource, "new"},     {m_connect, "connect"},
        {m_openByName, "open"},
    };
    for (const auto &[action, name] : icons)
        action->setIcon(m_icons.action(QString::fromLatin1(name)));
}

void WindowActions::update(const Selection &selection)
{
    const Enabled enabled = enabledFor(selection);
    // Without the controller (another window holds it) the engine's actions cannot act: their
    // tips say so where they are greyed.
    for (auto it = m_tips.cbegin(); it != m_tips.cend(); ++it) {
        it.key()->setToolTip(selection.controller
                                 ? it.value()
                                 : tr("Another Converge window runs this workspace's controller: "
                                      "claim, reconcile, refresh and cancel there"));
    }
    if (selection.controller && !enabled.claim && !selection.claimRefusal.isEmpty())
        m_claim->setToolTip(tr("Cannot claim: %1").arg(selection.claimRefusal));
    m_claim->setEnabled(enabled.claim);
    m_reconcile->setEnabled(enabled.reconcile);
    m_refresh->setEnabled(enabled.refresh);
    m_cancel->setEnabled(enabled.cancel);
    m_delete->setEnabled(enabled.remove);
    m_export->setEnabled(enabled.exportYaml);
    m_apply->setEnabled(enabled.apply);
    m_newResource->setEnabled(enabled.newResource);
    m_connect->setEnabled(enabled.connect);
}

QMenu *WindowActions::fillMenuBar(QMenuBar *bar, const QList<QAction *> &viewToggles)
{
    QMenu *file = bar->addMenu(tr("&File"));
    file->addActions({m_newWorkspace, m_openWorkspace});
    QMenu *recent = file->addMenu(tr("Open &Recent"));
    recent->setObjectName(QStringLiteral("recentMenu"));
    // Filled when the File menu opens, so that the list is current and missing files are gone.
    connect(file, &QMenu::aboutToShow, this, &WindowActions::fileMenuAboutToShow);
    file->addSeparator();
    file->addAction(m_openByName);
    file->addSeparator();
    file->addAction(m_connect);
    file->addAction(m_apply);
    file->addAction(m_export);
    QMenu *exportFor = file->addMenu(tr("E&xport"));
    exportFor->setObjectName(QStringLiteral("exportForMenu"));
    exportFor->addActions({m_exportAso, m_exportAck, m_exportKcc});
    file->addSeparator();
    file->addAction(m_settings);
    file->addSeparator();
    file->addAction(m_quit);
    QMenu *resource = bar->addMenu(tr("&Resource"));
    resource->addAction(m_newResource);
    resource->addSeparator();
    resource->addActions({m_claim, m_reconcile, m_refresh, m_cancel});
    resource->addSeparator();
    resource->addAction(m_delete);
    QMenu *view = bar->addMenu(tr("&View"));
    view->setObjectName(QStringLiteral("viewMenu"));
    for (QAction *toggle : viewToggles) {
        if (toggle)
            view->addAction(toggle);
    }
    QMenu *help = bar->addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("helpMenu"));
    help->addAction(m_documentation);
    help->addSeparator();
    help->addActions({m_about, m_aboutQt});
    return recent;
}

void WindowActions::fillToolBar(QToolBar *toolbar) const
{
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->setIconSize(QSize(16, 16));
    toolbar->addActions({m_claim, m_reconcile, m_refresh, m_cancel, m_delete});
    toolbar->addSeparator();
    toolbar->addActions({m_newResource, m_apply, m_export});
}

} // namespace converge
