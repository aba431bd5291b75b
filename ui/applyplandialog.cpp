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
        auto *row = new QTreeWidgetItem(QStringList{
            ApplyPlan::actionName(item.action),
            item.key.isValid() ? item.key.toString() : QString(), item.detail, item.location});
        row->setToolTip(2, item.detail);
        if (item.action == ApplyPlan::Item::Action::Invalid)
            row->setIcon(0, icons.icon(StatusKind::Error));
        addChanges(row, item.changes);
        if (item.backend != ApplyPlan::Item::Backend::None) {
            auto *backend = new QTreeWidgetItem(row, {tr("backend"), QString(), item.backendNote});
            backend->setToolTip(2, item.backendNote);
            addChanges(backend, item.backendChanges);
        }
        list->addTopLevelItem(row);
        row->setExpanded(!item.changes.isEmpty() || !item.backendChanges.isEmpty());
        for (int i = 0; i < row->childCount(); ++i)
            row->child(i)->setExpanded(true);
    }
    list->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
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
