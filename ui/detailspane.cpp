// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "detailspane.h"

#include "manifestwriter.h"
#include "statusicons.h"
#include "workspace.h"
#include "workspacerunner.h"

#include <QFontDatabase>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

#include <optional>

namespace converge {

struct DetailsPane::Snapshot
{
    quint64 serial = 0;
    ResourceKey key;
    std::optional<Resource> resource;
    QString yaml;
    QString observed;
    QList<ConditionTransition> history; ///< newest first
    QList<Event> events;                ///< newest first
    QString error;
};

namespace {

constexpr int eventLimit = 200;

QString timeText(const QDateTime &utc)
{
    return utc.isValid() ? utc.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))
                         : QString();
}

QPlainTextEdit *makeText(QWidget *parent, const QString &name)
{
    auto *edit = new QPlainTextEdit(parent);
    edit->setObjectName(name);
    edit->setReadOnly(true);
    edit->setLineWrapMode(QPlainTextEdit::NoWrap);
    edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    return edit;
}

QTreeWidget *makeList(QWidget *parent, const QString &name, const QStringList &headers)
{
    auto *list = new QTreeWidget(parent);
    list->setObjectName(name);
    list->setRootIsDecorated(false);
    list->setUniformRowHeights(true);
    list->setAlternatingRowColors(true);
    list->setHeaderLabels(headers);
    list->header()->setStretchLastSection(true);
    return list;
}

QTreeWidgetItem *conditionItem(const Condition &c, const QString &when)
{
    auto *item = new QTreeWidgetItem(QStringList{
        when, Condition::statusName(c.status),
        c.severity == Condition::Severity::None ? QString() : Condition::severityName(c.severity),
        c.reason, QString::number(c.observedGeneration), c.message});
    item->setToolTip(5, c.message);
    return item;
}

} // namespace

DetailsPane::DetailsPane(WorkspaceRunner &runner, const KindRegistry &kinds, QWidget *parent)
    : QWidget(parent)
    , m_runner(runner)
    , m_kinds(kinds)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("detailsTitle"));
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setWordWrap(true);
    layout->addWidget(m_title);

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("detailsTabs"));
    m_spec = makeText(m_tabs, QStringLiteral("specView"));
    m_observed = makeText(m_tabs, QStringLiteral("observedView"));
    m_conditions = makeList(
        m_tabs, QStringLiteral("conditionsView"),
        {tr("Since"), tr("Status"), tr("Severity"), tr("Reason"), tr("Generation"), tr("Message")});
    m_events =
        makeList(m_tabs, QStringLiteral("eventsView"),
                 {tr("Time"), tr("Type"), tr("Reason"), tr("Phase"), tr("Count"), tr("Message")});
    m_tabs->addTab(m_spec, tr("Spec"));
    m_tabs->addTab(m_observed, tr("Observed"));
    m_tabs->addTab(m_conditions, tr("Conditions"));
    m_tabs->addTab(m_events, tr("Events"));
    layout->addWidget(m_tabs);
    clear(tr("Select a resource to see its spec, observed state, conditions and events."));
}

DetailsPane::~DetailsPane() = default;

void DetailsPane::showResource(const ResourceKey &key)
{
    if (key == m_key)
        return;
    m_key = key;
    ++m_serial; // whatever is in flight is for another resource now
    m_loading = false;
    m_again = false;
    if (!key.isValid()) {
        clear(tr("Select a resource to see its spec, observed state, conditions and events."));
        return;
    }
    m_title->setText(tr("<b>%1</b> — loading…").arg(key.toString().toHtmlEscaped()));
    load();
}

void DetailsPane::refreshIfShown(const QList<ResourceKey> &keys)
{
    if (!m_key.isValid() || !keys.contains(m_key))
        return;
    if (m_loading) {
        m_again = true;
        return;
    }
    load();
}

void DetailsPane::load()
{
    m_loading = true;
    const KindRegistry &kinds = m_kinds; // outlives the pane and the runner's tasks
    m_runner.run(
        [serial = m_serial, key = m_key, &kinds](Workspace *ws, const StoreError &error) {
            Snapshot s;
            s.serial = serial;
            s.key = key;
            if (!ws) {
                s.error = error.message;
                return s;
            }
            s.resource = ws->get(key);
            if (s.resource) {
                s.yaml = QString::fromUtf8(ManifestWriter(kinds).toYaml({*s.resource}));
                s.observed = s.resource->status.observed.isEmpty()
                                 ? QString()
                                 : QString::fromUtf8(QJsonDocument(s.resource->status.observed)
                                                         .toJson(QJsonDocument::Indented));
            }
            s.history = ws->conditionHistory(key);
            std::reverse(s.history.begin(), s.history.end());
            EventQuery q;
            q.involved = key;
            q.newestFirst = true;
            q.limit = eventLimit;
            s.events = ws->events(q);
            return s;
        },
        this,
        [this](const Snapshot &s) {
            if (s.serial != m_serial)
                return; // another resource is shown now
            m_loading = false;
            apply(s);
            if (std::exchange(m_again, false))
                load();
        });
}

void DetailsPane::apply(const Snapshot &s)
{
    if (!s.error.isEmpty()) {
        clear(tr("Cannot read %1: %2").arg(s.key.toString(), s.error));
        return;
    }
    if (!s.resource) {
        clear(tr("%1 is not in the workspace (any more).").arg(s.key.toString()));
        Q_EMIT loaded(s.key);
        return;
    }
    const Resource &r = *s.resource;
    const Condition ready = r.status.ready();
    const StatusKind status = StatusIcons::kindOf(r);
    QString title =
        tr("<b>%1</b> — %2")
            .arg(s.key.toString().toHtmlEscaped(), StatusIcons::label(status).toHtmlEscaped());
    if (!ready.reason.isEmpty())
        title += tr(" (%1)").arg(ready.reason.toHtmlEscaped());
    if (!ready.message.isEmpty())
        title += QStringLiteral("<br>") + ready.message.toHtmlEscaped();
    m_title->setText(title);

    m_spec->setPlainText(s.yaml);
    m_observed->setPlainText(s.observed.isEmpty() ? tr("# nothing observed yet") : s.observed);

    m_conditions->clear();
    if (!r.status.conditions.isEmpty()) {
        auto *current = conditionItem(ready, timeText(ready.lastTransitionTime));
        QFont bold = current->font(0);
        bold.setBold(true);
        for (int c = 0; c < m_conditions->columnCount(); ++c)
            current->setFont(c, bold);
        current->setToolTip(0, tr("current"));
        m_conditions->addTopLevelItem(current);
    }
    for (const ConditionTransition &t : s.history)
        m_conditions->addTopLevelItem(
            conditionItem(t.condition, timeText(t.condition.lastTransitionTime)));

    m_events->clear();
    for (const Event &e : s.events) {
        auto *item =
            new QTreeWidgetItem(QStringList{timeText(e.lastTime), Event::typeName(e.type), e.reason,
                                            e.phase, QString::number(e.count), e.message});
        item->setToolTip(5, e.message);
        m_events->addTopLevelItem(item);
    }
    Q_EMIT loaded(s.key);
}

void DetailsPane::clear(const QString &message)
{
    m_title->setText(message.toHtmlEscaped());
    m_spec->clear();
    m_observed->clear();
    m_conditions->clear();
    m_events->clear();
}

} // namespace converge
