// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "applyplandialog.h"

#include "statusicons.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace converge {

namespace {

// "FILE:LINE:COLUMN" with the file's name only: the title names the files, and the whole
// path is the cell's tool tip.
QString shortLocation(const QString &location)
{
    const qsizetype column = location.lastIndexOf(QLatin1Char(':'));
    const qsizetype line = column > 0 ? location.lastIndexOf(QLatin1Char(':'), column - 1) : -1;
    if (line <= 0)
        return location;
    return QFileInfo(location.left(line)).fileName() + location.mid(line);
}

} // namespace

ApplyPlanDialog::ApplyPlanDialog(const ApplyPlan &plan, QWidget *parent)
    : QDialog(parent)
    , m_plan(plan)
{
    setObjectName(QStringLiteral("applyPlanDialog"));
    QStringList names;
    for (const QString &file : plan.files)
        names.append(QFileInfo(file).fileName());
    setWindowTitle(tr("Apply %1").arg(names.join(QStringLiteral(", "))));

    auto *layout = new QVBoxLayout(this);
    auto *summary = new QLabel(this);
    summary->setObjectName(QStringLiteral("planSummary"));
    summary->setWordWrap(true);
    summary->setText(plan.isValid() ? plan.summary()
                                    : tr("%1. Nothing will be applied until the manifests are "
                                         "fixed.")
                                          .arg(plan.summary()));
    layout->addWidget(summary);

    const StatusIcons icons;
    auto *list = new QTreeWidget(this);
    list->setObjectName(QStringLiteral("planItems"));
    list->setUniformRowHeights(true);
    list->setHeaderLabels({tr("Action"), tr("Resource"), tr("Details"), tr("Where")});
    // Each object's changed fields and what the next reconcile would do to the backend, as
    // its children: old → new, a secret only as changed.
    const auto addChanges = [](QTreeWidgetItem *parent, const QList<ApplyPlan::Change> &changes) {
        for (const ApplyPlan::Change &change : changes) {
            auto *child = new QTreeWidgetItem(
                parent, {QString(), change.path, change.toString().mid(change.path.size() + 2)});
            child->setToolTip(2, change.toString());
        }
    };
    for (const ApplyPlan::Item &item : plan.items) {
        auto *row =
            new QTreeWidgetItem(QStringList{ApplyPlan::actionName(item.action),
                                            item.key.isValid() ? item.key.toString() : QString(),
                                            item.detail, shortLocation(item.location)});
        row->setToolTip(2, item.detail);
        row->setToolTip(3, item.location);
        if (item.action == ApplyPlan::Item::Action::Invalid)
            row->setIcon(0, icons.icon(StatusKind::Error));
        addChanges(row, item.changes);
        // What the backend would see gets a row of its own only when it names fields; a note
        // alone ("not observed yet", "being deleted") follows the object's own details, so that
        // an object with nothing to show does not open onto one line of it.
        if (!item.backendChanges.isEmpty()) {
            auto *backend = new QTreeWidgetItem(row, {tr("backend"), QString(), item.backendNote});
            backend->setToolTip(2, item.backendNote);
            addChanges(backend, item.backendChanges);
        } else if (item.backend != ApplyPlan::Item::Backend::None &&
                   !item.detail.contains(item.backendNote)) {
            const QString detail = item.detail.isEmpty()
                                       ? tr("backend: %1").arg(item.backendNote)
                                       : tr("%1; backend: %2").arg(item.detail, item.backendNote);
            row->setText(2, detail);
            row->setToolTip(2, detail);
        }
        list->addTopLevelItem(row);
        row->setExpanded(!item.changes.isEmpty() || !item.backendChanges.isEmpty());
        for (int i = 0; i < row->childCount(); ++i)
            row->child(i)->setExpanded(true);
    }
    // The details take what is left, cut with an ellipsis (the whole text is the tool tip), so
    // that the file:line:column of each object stays in sight at the dialog's size.
    list->header()->setStretchLastSection(false);
    list->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    list->header()->setSectionResizeMode(2, QHeaderView::Stretch);
    layout->addWidget(list);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    QPushButton *apply = buttons->addButton(tr("Apply"), QDialogButtonBox::AcceptRole);
    apply->setObjectName(QStringLiteral("applyButton"));
    apply->setEnabled(plan.hasChanges());
    apply->setDefault(plan.hasChanges());
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(720, 360);
}

} // namespace converge
