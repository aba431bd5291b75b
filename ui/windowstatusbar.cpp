// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "windowstatusbar.h"

#include "controller.h"
#include "controllerlock.h"
#include "kindregistry.h"
#include "resourcetreemodel.h"
#include "workspace.h"
#include "workspacerunner.h"

#include <QLabel>
#include <QProgressBar>

#include <algorithm>

namespace converge {

namespace {

struct Probe
{
    qint64 lockOwner = 0;
    qint64 dataVersion = -1;
};

} // namespace

WindowStatusBar::WindowStatusBar(const ResourceTreeModel &tree, const KindRegistry &kinds,
                                 Controller *controller, WorkspaceRunner &reader,
                                 const QString &workspacePath, QWidget *parent)
    : QStatusBar(parent)
    , m_tree(tree)
    , m_kinds(kinds)
    , m_controller(controller)
    , m_reader(reader)
    , m_path(workspacePath)
{
    setObjectName(QStringLiteral("statusBar"));
    const auto label = [this](const QString &name) {
        auto *l = new QLabel(this);
        l->setObjectName(name);
        addPermanentWidget(l);
        return l;
    };
    // Outstanding work as a bar: its maximum is the most queued since the queue was last empty,
    // so a bulk apply or delete shows how far the controller got.
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("workProgress"));
    m_progress->setMaximumWidth(160);
    m_progress->setTextVisible(false);
    // Shown and hidden as work comes and goes, several times a second while a listing runs:
    // its place is kept, so that neither lays the window out again.
    QSizePolicy policy = m_progress->sizePolicy();
    policy.setRetainSizeWhenHidden(true);
    m_progress->setSizePolicy(policy);
    m_progress->setVisible(false);
    addPermanentWidget(m_progress);
    m_accountsLabel = label(QStringLiteral("accountsLabel"));
    m_queueLabel = label(QStringLiteral("queueLabel"));
    m_workersLabel = label(QStringLiteral("workersLabel"));
    m_reconcilesLabel = label(QStringLiteral("reconcilesLabel"));
    m_controllerLabel = label(QStringLiteral("controllerLabel"));
    m_uptime.start();
    m_timer.setInterval(1000);
    connect(&m_timer, &QTimer::timeout, this, &WindowStatusBar::poll);
    connect(this, &QStatusBar::messageChanged, this, [this](const QString &shown) {
        if (shown.isEmpty()) {
            m_message.clear();
            setToolTip(QString());
        }
    });
}

void WindowStatusBar::say(const QString &message, int timeoutMs)
{
    m_message = message;
    const QString shown = fitted(message);
    setToolTip(shown == message ? QString() : message);
    showMessage(shown, timeoutMs);
}

QString WindowStatusBar::fitted(const QString &message) const
{
    if (!isVisible())
        return message;
    // Where QStatusBar draws a message: from 6 px to 2 px short of the first visible permanent
    // widget (or 12 px short of the right edge).
    int right = width() - 12;
    const std::initializer_list<const QWidget *> permanent{m_progress,        m_accountsLabel,
                                                           m_queueLabel,      m_workersLabel,
                                                           m_reconcilesLabel, m_controllerLabel};
    for (const QWidget *w : permanent) {
        if (w->isVisible()) {
            right = std::min(right, w->x() - 2);
            break;
        }
    }
    const int room = right - 6;
    return room <= 0 ? message : fontMetrics().elidedText(message, Qt::ElideRight, room);
}

void WindowStatusBar::resizeEvent(QResizeEvent *event)
{
    QStatusBar::resizeEvent(event);
    if (m_message.isEmpty())
        return;
    // Laid out again: the room changed. What is left of the message's time is not known to
    // QStatusBar's caller, so it is shown for the usual time again.
    const QString shown = fitted(m_message);
    if (shown != currentMessage()) {
        const QString whole = m_message;
        say(whole);
    }
}

void WindowStatusBar::setLabelText(QLabel *label, const QString &text)
{
    if (label->text() == text)
        return;
    // Of a fixed size, grown when a text needs more and never shrunk: a label whose size hint
    // changes lays the status bar out again, and that the whole window (QLayout::activate()
    // updates its widget's geometry), which costs the GUI thread milliseconds each second
    // while a listing streams rows into an expanded account.
    const QMargins margins = label->contentsMargins();
    const QSize need = label->fontMetrics().size(Qt::TextSingleLine, text) +
                       QSize(margins.left() + margins.right() + 2 * label->margin() + 2,
                             margins.top() + margins.bottom() + 2 * label->margin());
    if (need.width() > label->minimumWidth() || need.height() > label->minimumHeight())
        label->setFixedSize(std::max(need.width(), label->minimumWidth()),
                            std::max(need.height(), label->minimumHeight()));
    label->setText(text);
}

void WindowStatusBar::start()
{
    poll();
    m_timer.start();
}

void WindowStatusBar::stop()
{
    m_timer.stop();
}

void WindowStatusBar::poll()
{
    pollAccounts();
    if (m_controller) {
        pollController();
        return;
    }
    m_queueLabel->setVisible(false);
    m_workersLabel->setVisible(false);
    m_reconcilesLabel->setVisible(false);
    probe();
}

void WindowStatusBar::pollAccounts()
{
    // Account health from what the tree shows: accounts are the roots of ownership.
    int accounts = 0;
    int unhealthy = 0;
    for (int row = 0; row < m_tree.rowCount(); ++row) {
        const QModelIndex index = m_tree.index(row, 0);
        const Kind *kind = m_kinds.find(index.data(ResourceTreeModel::KindRole).toString());
        if (!kind || !kind->ownerKind.isEmpty() ||
            index.data(ResourceTreeModel::IsDiscoveredRole).toBool())
            continue;
        ++accounts;
        if (index.data(ResourceTreeModel::ReadyRole).toInt() != int(Condition::Status::True))
            ++unhealthy;
    }
    m_accountsLabel->setVisible(accounts > 0);
    setLabelText(m_accountsLabel,
                 unhealthy == 0 ? tr("Accounts: %n healthy", nullptr, accounts)
                                : tr("Accounts: %1 of %2 not Ready").arg(unhealthy).arg(accounts));
}

QString WindowStatusBar::queueText(int dueNow, int waiting)
{
    return tr("%1 queued · %2 waiting to retry").arg(dueNow).arg(waiting);
}

void WindowStatusBar::pollController()
{
    const Controller::Stats stats = m_controller->stats();
    setLabelText(m_queueLabel, queueText(stats.queued - stats.waiting, stats.waiting));
    m_queueLabel->setToolTip(tr("Due now, and retries and polls waiting for a later time; "
                                "%n in flight",
                                nullptr, stats.inFlight));
    setLabelText(m_workersLabel, tr("Workers busy: %1").arg(stats.busyWorkers));
    const qint64 now = m_uptime.elapsed();
    m_reconcileSamples.emplace_back(now, stats.reconciles);
    while (m_reconcileSamples.size() > 1 && m_reconcileSamples.front().first < now - 60'000)
        m_reconcileSamples.pop_front();
    const auto &[since, before] = m_reconcileSamples.front();
    const double minutes = std::max<qint64>(now - since, 1000) / 60'000.0;
    setLabelText(m_reconcilesLabel,
                 tr("Reconciles: %1/min").arg(qRound(double(stats.reconciles - before) / minutes)));
    m_reconcilesLabel->setToolTip(tr("%1 reconciles since start").arg(stats.reconciles));
    setLabelText(m_controllerLabel, tr("Controller: this window"));
    // Work under way: in flight and due now. A retry or poll waiting for a later time is no
    // progress to wait for (the queue label counts it): with it, a bar stayed at "2 of 3 done"
    // for the minutes of a backoff.
    const int underWay = stats.inFlight + std::max(0, stats.queued - stats.waiting);
    m_progressPeak = underWay == 0 ? 0 : std::max(m_progressPeak, underWay);
    m_progress->setVisible(m_progressPeak > 1);
    m_progress->setMaximum(std::max(m_progressPeak, 1));
    m_progress->setValue(m_progressPeak - underWay);
    m_progress->setToolTip(tr("%1 of %2 done; waiting for %3 in flight and %4 due now")
                               .arg(m_progressPeak - underWay)
                               .arg(m_progressPeak)
                               .arg(stats.inFlight)
                               .arg(std::max(0, stats.queued - stats.waiting)));
}

void WindowStatusBar::probe()
{
    if (m_probing)
        return;
    // Whether another process runs the controller, and whether anything was committed since
    // the last look: both off the GUI thread.
    m_probing = true;
    m_reader.run(
        [path = m_path](Workspace *ws, const StoreError &) {
            Probe probe;
            probe.lockOwner = ControllerLock(path).ownerPid();
            probe.dataVersion = ws ? ws->dataVersion() : -1;
            return probe;
        },
        this,
        [this](const Probe &probe) {
            m_probing = false;
            setLabelText(m_controllerLabel,
                         probe.lockOwner != 0
                             ? tr("Controller: another process (PID %1)").arg(probe.lockOwner)
                             : tr("Controller: none"));
            const bool changed = m_dataVersion >= 0 && probe.dataVersion != m_dataVersion;
            m_dataVersion = probe.dataVersion;
            if (changed)
                Q_EMIT workspaceChanged();
        });
}

} // namespace converge
