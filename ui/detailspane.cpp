// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "detailspane.h"

#include "diffmodel.h"
#include "eventlogmodel.h"
#include "kindregistry.h"
#include "localtime.h"
#include "manifestwriter.h"
#include "specedit.h"
#include "specvalidator.h"
#include "statusicons.h"
#include "timelinemodel.h"
#include "workspace.h"
#include "workspacerunner.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTreeView>
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
    DiffModel::Comparison diff;
    QList<ConditionTransition> history; ///< newest first
    QList<Event> events;                ///< newest first
    QList<PhaseRun> runs;               ///< newest first
    QString error;
};

struct DetailsPane::ApplyResult
{
    ResourceKey key;
    bool ok = false;
    bool conflict = false;
    QString error;
    Resource stored; ///< after a successful write
    QString yaml;    ///< its editor text
};

namespace {

constexpr int eventLimit = 200;
constexpr int applyAttempts = 3;

QPlainTextEdit *makeText(QWidget *parent, const QString &name)
{
    auto *edit = new QPlainTextEdit(parent);
    edit->setObjectName(name);
    edit->setReadOnly(true);
    edit->setLineWrapMode(QPlainTextEdit::NoWrap);
    edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    return edit;
}

/// Columns as wide as what they hold; the last one (the message, the observed value) takes the
/// rest of the pane's width, elided there with the whole text in the row's tip. (QTreeView
/// sizes a row without its columns' widths, so a wrapped text would not get the lines it needs.)
void fitColumns(QTreeView *view)
{
    view->setUniformRowHeights(true);
    QHeaderView *header = view->header();
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setStretchLastSection(true);
    const int last = (view->model() ? view->model()->columnCount() : 0) - 1;
    if (last > 0)
        header->setSectionResizeMode(last, QHeaderView::Stretch);
}

QTreeWidget *makeList(QWidget *parent, const QString &name, const QStringList &headers)
{
    auto *list = new QTreeWidget(parent);
    list->setObjectName(name);
    list->setRootIsDecorated(false);
    list->setAlternatingRowColors(true);
    list->setHeaderLabels(headers);
    fitColumns(list);
    return list;
}

QTreeView *makeTable(QWidget *parent, const QString &name, QAbstractItemModel *model)
{
    auto *view = new QTreeView(parent);
    view->setObjectName(name);
    view->setRootIsDecorated(false);
    view->setAlternatingRowColors(true);
    view->setModel(model);
    fitColumns(view);
    return view;
}

QTreeWidgetItem *conditionItem(const Condition &c, const QString &when)
{
    auto *item = new QTreeWidgetItem(QStringList{
        when, Condition::statusName(c.status),
        c.severity == Condition::Severity::None ? QString() : Condition::severityName(c.severity),
        c.reason, QString::number(c.observedGeneration), c.message});
    item->setToolTip(0, localTimeText(c.lastTransitionTime));
    item->setToolTip(5, c.message);
    return item;
}

// Everything a person edits, and what the workspace keeps beside it; status and the counters
// are not part of it, so that the controller's status writes never count as a concurrent edit.
bool sameDesired(const Resource &a, const Resource &b)
{
    return a.apiVersion == b.apiVersion && a.spec == b.spec &&
           a.metadata.labels == b.metadata.labels &&
           a.metadata.annotations == b.metadata.annotations &&
           a.metadata.finalizers == b.metadata.finalizers &&
           a.metadata.generation == b.metadata.generation &&
           a.metadata.deletionTimestamp == b.metadata.deletionTimestamp;
}

// The editor's text: the manifest without workspace bookkeeping, secrets left out (they are
// never stored; a stray one must not be shown).
QString editorYaml(const KindRegistry &kinds, Resource resource)
{
    if (const Kind *kind = kinds.find(resource.kind))
        resource.spec = DiffModel::maskSecrets(kind->spec, resource.spec, QJsonValue::Null);
    return QString::fromUtf8(ManifestWriter(kinds).toYaml({resource}));
}

QString linkText(const SpecValidator::Result &r)
{
    const QString text = r.toString().toHtmlEscaped();
    if (r.line <= 0)
        return text;
    return QStringLiteral("<a href=\"goto:%1:%2\">%3</a>")
        .arg(r.line)
        .arg(std::max(1, r.column))
        .arg(text);
}

} // namespace

DetailsPane::DetailsPane(WorkspaceRunner &reader, WorkspaceRunner &writer,
                         const KindRegistry &kinds, QWidget *parent)
    : QWidget(parent)
    , m_runner(reader)
    , m_writer(writer)
    , m_kinds(kinds)
{
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    m_pages = new QStackedWidget(this);
    outer->addWidget(m_pages);
    // Nothing selected: a sentence, not an empty editor.
    m_empty = new QLabel(m_pages);
    m_empty->setObjectName(QStringLiteral("detailsEmpty"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setMargin(24);
    m_empty->setForegroundRole(QPalette::PlaceholderText);
    m_empty->setText(tr("Nothing is selected.\n\nSelect a resource in the tree to see its spec, "
                        "what its cloud holds, its conditions and its events."));
    m_pages->addWidget(m_empty);
    auto *content = new QWidget(m_pages);
    content->setObjectName(QStringLiteral("detailsContent"));
    m_pages->addWidget(content);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(0, 0, 0, 0);
    m_title = new QLabel(content);
    m_title->setObjectName(QStringLiteral("detailsTitle"));
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setWordWrap(true);
    layout->addWidget(m_title);

    m_tabs = new QTabWidget(content);
    m_tabs->setObjectName(QStringLiteral("detailsTabs"));
    // Every tab in sight: the pane is never narrower than its six titles (with scroll arrows,
    // Events and Timeline hid behind them).
    m_tabs->setUsesScrollButtons(false);

    auto *specPage = new QWidget(m_tabs);
    specPage->setObjectName(QStringLiteral("specPage"));
    auto *specLayout = new QVBoxLayout(specPage);
    specLayout->setContentsMargins(0, 0, 0, 0);
    m_spec = new SpecEdit(specPage);
    m_spec->setObjectName(QStringLiteral("specView"));
    m_spec->setReadOnly(true);
    specLayout->addWidget(m_spec, 1);
    auto *specBar = new QHBoxLayout;
    specBar->setContentsMargins(4, 2, 4, 4);
    m_specStatus = new QLabel(specPage);
    m_specStatus->setObjectName(QStringLiteral("specStatus"));
    m_specStatus->setWordWrap(true);
    m_specStatus->setTextFormat(Qt::RichText);
    m_specStatus->setTextInteractionFlags(Qt::LinksAccessibleByMouse |
                                          Qt::LinksAccessibleByKeyboard);
    m_applyButton = new QPushButton(tr("Apply"), specPage);
    m_applyButton->setObjectName(QStringLiteral("specApply"));
    m_applyButton->setToolTip(tr("Store the edited spec; the controller then reconciles it"));
    m_revertButton = new QPushButton(tr("Revert"), specPage);
    m_revertButton->setObjectName(QStringLiteral("specRevert"));
    m_revertButton->setToolTip(tr("Drop the edits and show the stored spec"));
    specBar->addWidget(m_specStatus, 1);
    specBar->addWidget(m_revertButton);
    specBar->addWidget(m_applyButton);
    specLayout->addLayout(specBar);

    m_validator = new SpecValidator(kinds, this);
    connect(m_spec, &QPlainTextEdit::textChanged, this, &DetailsPane::specEdited);
    connect(m_validator, &SpecValidator::finished, this, [this](const SpecValidator::Result &r) {
        if (r.key != m_key)
            return;
        m_valid = r.ok;
        m_validated = r.resource;
        m_problem = r.ok ? QString() : linkText(r);
        if (r.ok)
            m_spec->clearDiagnostic();
        else
            m_spec->setDiagnostic(r.line, r.column, r.toString());
        updateSpecState();
    });
    connect(m_specStatus, &QLabel::linkActivated, this, [this](const QString &link) {
        const QStringList parts = link.split(QLatin1Char(':'));
        if (parts.size() == 3 && parts.first() == QLatin1String("goto"))
            m_spec->goTo(parts.at(1).toInt(), parts.at(2).toInt());
    });
    connect(m_applyButton, &QPushButton::clicked, this, &DetailsPane::applySpec);
    connect(m_revertButton, &QPushButton::clicked, this, &DetailsPane::revertSpec);

    m_observed = makeText(m_tabs, QStringLiteral("observedView"));

    auto *diffPage = new QWidget(m_tabs);
    diffPage->setObjectName(QStringLiteral("diffPage"));
    auto *diffLayout = new QVBoxLayout(diffPage);
    diffLayout->setContentsMargins(0, 0, 0, 0);
    m_diffStatus = new QLabel(diffPage);
    m_diffStatus->setObjectName(QStringLiteral("diffStatus"));
    m_diffStatus->setWordWrap(true);
    m_diffStatus->setContentsMargins(4, 2, 4, 2);
    m_diffModel = new DiffModel(this);
    m_diffModel->setObjectName(QStringLiteral("diffModel"));
    m_diff = makeTable(diffPage, QStringLiteral("diffView"), m_diffModel);
    // What is desired and what is observed share the width, each elided in its column.
    m_diff->header()->setSectionResizeMode(DiffModel::DesiredColumn, QHeaderView::Stretch);
    diffLayout->addWidget(m_diffStatus);
    diffLayout->addWidget(m_diff, 1);

    m_conditions = makeList(
        m_tabs, QStringLiteral("conditionsView"),
        {tr("Since"), tr("Status"), tr("Severity"), tr("Reason"), tr("Generation"), tr("Message")});
    // Three columns, so that the message has the width to be read: the type is the row's icon,
    // the count follows the reason, the phase and the exact times are in the row's tip.
    m_events =
        makeList(m_tabs, QStringLiteral("eventsView"), {tr("Time"), tr("Reason"), tr("Message")});
    m_timelineModel = new TimelineModel(this);
    m_timelineModel->setObjectName(QStringLiteral("timelineModel"));
    m_timeline = makeTable(m_tabs, QStringLiteral("timelineView"), m_timelineModel);
    // A request ID is long and rarely read: a narrow column that elides it, whole in the tip.
    m_timeline->header()->setSectionResizeMode(TimelineModel::RequestIdColumn,
                                               QHeaderView::Interactive);
    m_timeline->header()->resizeSection(TimelineModel::RequestIdColumn, 110);

    m_tabs->addTab(specPage, tr("Spec"));
    m_tabs->addTab(m_observed, tr("Observed"));
    m_tabs->addTab(diffPage, tr("Diff"));
    m_tabs->addTab(m_conditions, tr("Conditions"));
    m_tabs->addTab(m_events, tr("Events"));
    m_tabs->addTab(m_timeline, tr("Timeline"));
    layout->addWidget(m_tabs);
    clear(QString());
    m_pages->setCurrentWidget(m_empty);
}

DetailsPane::~DetailsPane() = default;

bool DetailsPane::hasUnsavedEdits() const
{
    return m_base && m_edited;
}

QList<ResourceKey> DetailsPane::editedKeys() const
{
    QList<ResourceKey> keys = m_drafts.keys();
    if (hasUnsavedEdits() && !keys.contains(m_key))
        keys.append(m_key);
    std::sort(keys.begin(), keys.end());
    return keys;
}

void DetailsPane::discardEdits(const ResourceKey &key)
{
    if (key == m_key) {
        revertSpec();
        return;
    }
    if (m_drafts.remove(key))
        noteEdits();
}

void DetailsPane::noteEdits()
{
    QList<ResourceKey> keys = editedKeys();
    if (keys == m_noted)
        return;
    m_noted = std::move(keys);
    Q_EMIT editedKeysChanged();
}

void DetailsPane::showResource(const ResourceKey &key)
{
    if (key == m_key)
        return;
    if (hasUnsavedEdits())
        m_drafts.insert(m_key, Draft{m_spec->toPlainText(), *m_base, m_baseText});
    m_key = key;
    ++m_serial; // whatever is in flight is for another resource now
    m_loading = false;
    m_again = false;
    // The editor belongs to the new resource from now on; an Apply in flight reports to the
    // resource it was for.
    m_applying = false;
    m_base.reset();
    m_baseText.clear();
    m_validator->cancel();
    m_valid = false;
    m_problem.clear();
    m_applyMessage.clear();
    m_storedChanged = false;
    setSpecText(QString());
    m_spec->clearDiagnostic();
    m_spec->setReadOnly(true);
    updateSpecState();
    if (!key.isValid()) {
        clear(QString());
        m_pages->setCurrentWidget(m_empty);
        return;
    }
    m_pages->setCurrentWidget(m_pages->widget(1));
    m_title->setText(tr("<b>%1</b> — loading…").arg(key.toString().toHtmlEscaped()));
    load();
}

void DetailsPane::refreshIfShown(const QList<ResourceKey> &keys)
{
    if (!m_key.isValid() || !keys.contains(m_key))
        return;
    if (m_loading || m_applying) {
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
                const Kind *kind = kinds.find(key.kind);
                s.yaml = editorYaml(kinds, *s.resource);
                QJsonObject observed = s.resource->status.observed;
                const bool haveSpec = observed.value(QLatin1String("spec")).isObject();
                if (kind && haveSpec)
                    observed.insert(
                        QStringLiteral("spec"),
                        DiffModel::maskSecrets(kind->spec,
                                               observed.value(QLatin1String("spec")).toObject(),
                                               DetailsPane::tr("(secret)")));
                s.observed = observed.isEmpty() ? QString()
                                                : QString::fromUtf8(QJsonDocument(observed).toJson(
                                                      QJsonDocument::Indented));
                if (kind)
                    s.diff = DiffModel::compare(
                        kind->spec, s.resource->spec,
                        haveSpec ? std::optional<QJsonObject>(
                                       s.resource->status.observed.value(QLatin1String("spec"))
                                           .toObject())
                                 : std::nullopt);
            }
            s.history = ws->conditionHistory(key);
            std::reverse(s.history.begin(), s.history.end());
            EventQuery q;
            q.involved = key;
            q.newestFirst = true;
            q.limit = eventLimit;
            s.events = ws->events(q);
            s.runs = ws->phaseRuns(key);
            return s;
        },
        this,
        [this](const Snapshot &s) {
            if (s.serial != m_serial)
                return; // another resource is shown now
            m_loading = false;
            apply(s);
            if (!m_applying && std::exchange(m_again, false))
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

    applyToEditor(s);
    m_observed->setPlainText(s.observed.isEmpty() ? tr("# nothing observed yet") : s.observed);

    m_diffModel->setComparison(s.diff);
    if (!s.diff.observed)
        m_diffStatus->setText(tr("Not observed yet: the backend has not been read for this "
                                 "resource."));
    else if (s.diff.delta.isEmpty())
        m_diffStatus->setText(tr("No difference: the backend matches the spec in every "
                                 "compared field."));
    else
        m_diffStatus->setText(s.diff.delta.size() == 1
                                  ? tr("1 field differs: %1").arg(s.diff.delta.first())
                                  : tr("%1 fields differ: %2")
                                        .arg(s.diff.delta.size())
                                        .arg(s.diff.delta.join(QStringLiteral(", "))));

    m_conditions->clear();
    QStringList currentRow;
    if (!r.status.conditions.isEmpty()) {
        auto *current = conditionItem(ready, shortTimeText(ready.lastTransitionTime));
        QFont bold = current->font(0);
        bold.setBold(true);
        for (int c = 0; c < m_conditions->columnCount(); ++c) {
            current->setFont(c, bold);
            currentRow.append(current->text(c));
        }
        current->setToolTip(0, tr("current"));
        m_conditions->addTopLevelItem(current);
    }
    for (const ConditionTransition &t : s.history) {
        auto *item = conditionItem(t.condition, shortTimeText(t.condition.lastTransitionTime));
        QStringList row;
        for (int c = 0; c < m_conditions->columnCount(); ++c)
            row.append(item->text(c));
        // The newest transition is the current condition, shown in bold above: not twice.
        if (row == currentRow) {
            delete item;
            continue;
        }
        m_conditions->addTopLevelItem(item);
    }

    m_events->clear();
    for (const Event &e : s.events) {
        auto *item = new QTreeWidgetItem(QStringList{
            shortTimeText(e.lastTime),
            e.count > 1 ? tr("%1 ×%2").arg(e.reason).arg(e.count) : e.reason, e.message});
        if (e.type == Event::Type::Warning)
            item->setIcon(0, m_icons.icon(StatusKind::Warning));
        QString tip = tr("%1, phase %2, at %3")
                          .arg(EventLogModel::typeText(e.type), e.phase, localTimeText(e.lastTime));
        if (e.count > 1)
            tip += QLatin1Char('\n') +
                   tr("%n time(s) since %1", nullptr, e.count).arg(localTimeText(e.firstTime));
        tip += QLatin1Char('\n') + e.message;
        for (int c = 0; c < m_events->columnCount(); ++c)
            item->setToolTip(c, tip);
        m_events->addTopLevelItem(item);
    }
    m_timelineModel->setRuns(s.runs);
    Q_EMIT loaded(s.key);
}

void DetailsPane::applyToEditor(const Snapshot &s)
{
    const Resource &stored = *s.resource;
    if (m_applying)
        return; // the write's result decides what the editor shows
    if (m_base && m_base->key() == s.key) {
        // A read that started before our own (or another) write landed is older than the base.
        if (stored.metadata.resourceVersion < m_base->metadata.resourceVersion)
            return;
        if (!hasUnsavedEdits()) {
            m_base = stored;
            m_baseText = s.yaml;
            m_storedChanged = false;
            if (m_spec->toPlainText() != s.yaml)
                setSpecText(s.yaml);
        } else if (sameDesired(stored, *m_base)) {
            m_base = stored; // only status moved: the edits still start from the stored spec
        } else {
            m_storedChanged = true; // keep the edits and the version they started from
        }
        updateSpecState();
        return;
    }

    m_applyMessage.clear();
    m_spec->setReadOnly(false);
    if (auto draft = m_drafts.find(s.key); draft != m_drafts.end()) {
        const Draft d = *draft;
        m_drafts.erase(draft);
        if (sameDesired(stored, d.base)) {
            m_base = stored;
            m_baseText = s.yaml;
            m_storedChanged = false;
        } else {
            m_base = d.base;
            m_baseText = d.baseText;
            m_storedChanged = true;
        }
        m_restoredDraft = true;
        setSpecText(d.text);
        specEdited();
        return;
    }
    m_base = stored;
    m_baseText = s.yaml;
    m_storedChanged = false;
    m_restoredDraft = false;
    setSpecText(s.yaml);
    specEdited();
}

void DetailsPane::setSpecText(const QString &text)
{
    // Keep the place a person was reading: a refresh replaces the text, not the view.
    const QTextCursor cursor = m_spec->textCursor();
    const int line = cursor.blockNumber();
    const int column = cursor.positionInBlock();
    const int scroll = m_spec->verticalScrollBar()->value();
    m_settingText = true;
    m_spec->setPlainText(text);
    m_settingText = false;
    m_edited = text != m_baseText;
    m_spec->goTo(line + 1, column + 1);
    m_spec->verticalScrollBar()->setValue(scroll);
}

void DetailsPane::specEdited()
{
    if (m_settingText)
        return;
    m_applyMessage.clear();
    m_valid = false;
    m_problem.clear();
    // Once per keystroke, also in a megabyte of text: one copy out of the document, one compare.
    const QString text = m_spec->toPlainText();
    m_edited = text != m_baseText;
    if (!m_base || !m_edited) {
        m_validator->cancel();
        m_spec->clearDiagnostic();
        m_restoredDraft = false;
    } else {
        m_validator->schedule(m_key, text, m_base);
    }
    updateSpecState();
}

void DetailsPane::updateSpecState()
{
    const bool edited = hasUnsavedEdits();
    const bool checking = edited && m_validator->isPending();
    m_applyButton->setEnabled(m_base && edited && m_valid && !checking && !m_applying);
    m_revertButton->setEnabled(m_base && (edited || m_storedChanged) && !m_applying);

    QStringList lines;
    if (!m_applyMessage.isEmpty())
        lines << m_applyMessage;
    if (m_storedChanged && edited)
        lines << tr("<b>The stored spec changed</b> since you started editing; Apply will "
                    "refuse. Revert to see the stored version.");
    if (m_applying)
        lines << tr("Applying…");
    else if (edited && checking)
        lines << tr("Checking…");
    else if (edited && !m_problem.isEmpty())
        lines << QStringLiteral("<span style=\"color:#d32f2f\">%1</span>").arg(m_problem);
    else if (edited && m_valid)
        lines << (m_restoredDraft ? tr("Your unsaved edits, kept while another resource was "
                                       "shown: valid; Apply stores them, Revert drops them.")
                                  : tr("Valid; Apply stores it."));
    m_specStatus->setText(lines.join(QStringLiteral("<br>")));
    noteEdits();
}

void DetailsPane::applySpec()
{
    if (!m_applyButton->isEnabled() || !m_base)
        return;
    Resource edited = *m_base;
    edited.apiVersion = m_validated.apiVersion;
    edited.metadata.labels = m_validated.metadata.labels;
    edited.metadata.annotations = m_validated.metadata.annotations;
    edited.spec = m_validated.spec;
    const Resource base = *m_base;
    m_applying = true;
    m_applyMessage.clear();
    m_spec->setReadOnly(true);
    updateSpecState();

    const KindRegistry &kinds = m_kinds; // outlives the pane and the runner's tasks
    m_writer.run(
        [edited, base, &kinds](Workspace *ws, const StoreError &openError) {
            ApplyResult result;
            result.key = edited.key();
            if (!ws) {
                result.error = openError.message;
                return result;
            }
            Resource attempt = edited;
            for (int i = 0; i < applyAttempts; ++i) {
                StoreError error;
                if (ws->update(attempt, &error)) {
                    result.ok = true;
                    result.stored = ws->get(result.key).value_or(attempt);
                    result.yaml = editorYaml(kinds, result.stored);
                    return result;
                }
                if (error.code != StoreError::Code::Conflict) {
                    result.error = error.message;
                    return result;
                }
                // The resourceVersion also moves with the controller's status writes; only a
                // change of the desired state is a conflict with this edit.
                const std::optional<Resource> stored = ws->get(result.key);
                if (!stored || !sameDesired(*stored, base)) {
                    result.conflict = true;
                    result.error = stored ? error.message
                                          : DetailsPane::tr("%1 is not in the workspace any more")
                                                .arg(result.key.toString());
                    return result;
                }
                attempt.metadata.resourceVersion = stored->metadata.resourceVersion;
            }
            result.conflict = true;
            result.error = DetailsPane::tr("the workspace kept changing; try again");
            return result;
        },
        this, [this](const ApplyResult &result) { applyFinished(result); });
}

void DetailsPane::applyFinished(const ApplyResult &result)
{
    if (result.ok) {
        m_drafts.remove(result.key);
        Q_EMIT specApplied(result.key, result.stored.metadata.generation);
    }
    if (result.key != m_key) {
        if (!result.ok)
            Q_EMIT specApplyFailed(result.key, result.error);
        return; // another resource is shown now; its draft (if any) stays for later
    }
    m_applying = false;
    m_spec->setReadOnly(false);
    if (result.ok) {
        m_base = result.stored;
        m_baseText = result.yaml;
        m_storedChanged = false;
        m_restoredDraft = false;
        setSpecText(result.yaml);
        specEdited();
        m_applyMessage = tr("Applied: generation %1.").arg(result.stored.metadata.generation);
        updateSpecState();
        load();
        return;
    }
    m_applyMessage =
        result.conflict
            ? tr("<b>%1 changed meanwhile</b> — nothing was stored. Revert to see the stored "
                 "version.")
                  .arg(result.key.toString().toHtmlEscaped())
            : tr("<b>Apply failed</b>: %1").arg(result.error.toHtmlEscaped());
    if (result.conflict)
        m_storedChanged = true;
    updateSpecState();
    Q_EMIT specApplyFailed(result.key, result.error);
    if (std::exchange(m_again, false))
        load();
}

void DetailsPane::revertSpec()
{
    if (!m_base || m_applying)
        return;
    m_drafts.remove(m_key);
    m_storedChanged = false;
    m_restoredDraft = false;
    m_applyMessage.clear();
    setSpecText(m_baseText);
    specEdited();
    // The base may be older than what is stored (that is why one reverts): read it again.
    if (!m_loading)
        load();
    else
        m_again = true;
}

void DetailsPane::clear(const QString &message)
{
    m_title->setText(message.toHtmlEscaped());
    m_base.reset();
    m_baseText.clear();
    m_storedChanged = false;
    m_restoredDraft = false;
    m_applyMessage.clear();
    m_validator->cancel();
    setSpecText(QString());
    m_spec->clearDiagnostic();
    m_spec->setReadOnly(true);
    m_valid = false;
    m_problem.clear();
    updateSpecState();
    m_observed->clear();
    m_diffModel->clear();
    m_diffStatus->clear();
    m_conditions->clear();
    m_events->clear();
    m_timelineModel->clear();
}

} // namespace converge
