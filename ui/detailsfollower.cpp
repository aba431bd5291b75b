// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "detailsfollower.h"

#include "detailspane.h"
#include "namelookup.h"
#include "resourcetreemodel.h"
#include "unmanageddetails.h"

#include <QCheckBox>
#include <QItemSelectionModel>
#include <QMessageBox>
#include <QPushButton>
#include <QStackedWidget>
#include <QTreeView>

namespace converge {

DetailsFollower::DetailsFollower(const Parts &parts, QObject *parent)
    : QObject(parent)
    , m_parts(parts)
{
    QItemSelectionModel *selection = m_parts.view->selectionModel();
    connect(selection, &QItemSelectionModel::selectionChanged, this, &DetailsFollower::follow);
    connect(selection, &QItemSelectionModel::currentChanged, this, &DetailsFollower::follow);
    // A reset, a new layout or removed rows may take the selection without a signal of the
    // selection model's: look once the model settled.
    QAbstractItemModel *model = m_parts.view->model();
    connect(model, &QAbstractItemModel::modelReset, this, &DetailsFollower::followLater);
    connect(model, &QAbstractItemModel::layoutChanged, this, &DetailsFollower::followLater);
    connect(model, &QAbstractItemModel::rowsRemoved, this, &DetailsFollower::followLater);
    connect(m_parts.details, &DetailsPane::editedKeysChanged, this, &DetailsFollower::markEdited);
}

QModelIndex DetailsFollower::shownRow() const
{
    const QItemSelectionModel *selection = m_parts.view->selectionModel();
    const QModelIndex current = selection->currentIndex();
    if (current.isValid() && selection->isRowSelected(current.row(), current.parent()))
        return m_parts.toSource(current);
    const QModelIndexList rows = selection->selectedRows(0);
    return rows.isEmpty() ? QModelIndex() : m_parts.toSource(rows.constFirst());
}

void DetailsFollower::followLater()
{
    if (std::exchange(m_queued, true))
        return;
    QMetaObject::invokeMethod(
        this,
        [this] {
            m_queued = false;
            follow();
        },
        Qt::QueuedConnection);
}

void DetailsFollower::follow()
{
    if (m_question)
        return; // its answer follows the selection as it is then
    const QModelIndex row = shownRow();
    const DiscoveredResource *item = m_parts.tree->discoveredAt(row);
    const ResourceKey key = item ? ResourceKey() : m_parts.tree->keyAt(row);
    const ResourceKey shown = m_parts.details->currentKey();
    const bool same = !item && key == shown &&
                      m_parts.stack->currentWidget() == static_cast<QWidget *>(m_parts.details);
    if (same)
        return;
    if (key != shown && m_parts.details->hasUnsavedEdits() && m_ask && !m_leaving) {
        ask(shown);
        return;
    }
    // What nothing manages has no spec to edit: the backend's side of it, and Claim.
    if (item) {
        m_parts.details->showResource({});
        m_parts.unmanaged->showItem(*item);
        m_parts.stack->setCurrentWidget(m_parts.unmanaged);
        if (m_parts.lookup)
            m_parts.lookup->observe(*item); // a list page says less than a get
        return;
    }
    m_parts.unmanaged->showItem(std::nullopt);
    m_parts.stack->setCurrentWidget(m_parts.details);
    m_parts.details->showResource(key);
}

void DetailsFollower::ask(const ResourceKey &edited)
{
    auto *box =
        new QMessageBox(QMessageBox::Question, tr("Unsaved edits"),
                        tr("The spec of %1 has edits that are not applied.").arg(edited.toString()),
                        QMessageBox::NoButton, m_parts.view->window());
    box->setObjectName(QStringLiteral("unsavedEditsQuestion"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::WindowModal);
    box->setInformativeText(tr("Keep them as a draft (shown again when you come back to it, "
                               "marked with * in the tree until then), discard them, or stay."));
    QPushButton *keep = box->addButton(tr("Keep as Draft"), QMessageBox::AcceptRole);
    keep->setObjectName(QStringLiteral("keepDraftButton"));
    QPushButton *discard = box->addButton(tr("Discard"), QMessageBox::DestructiveRole);
    discard->setObjectName(QStringLiteral("discardEditsButton"));
    QPushButton *stay = box->addButton(tr("Stay"), QMessageBox::RejectRole);
    stay->setObjectName(QStringLiteral("stayButton"));
    box->setDefaultButton(keep);
    box->setEscapeButton(stay);
    auto *dontAsk = new QCheckBox(tr("Do not ask again: keep edits as drafts"), box);
    dontAsk->setObjectName(QStringLiteral("dontAskCheck"));
    box->setCheckBox(dontAsk);
    connect(box, &QMessageBox::finished, this, [this, box, keep, discard, dontAsk, edited] {
        QAbstractButton *chosen = box->clickedButton();
        if (chosen == keep || chosen == discard) {
            if (chosen == discard)
                m_parts.details->discardEdits(edited);
            if (dontAsk->isChecked()) {
                m_ask = false;
                Q_EMIT askBeforeLeavingEditsChanged(false);
            }
            m_question = nullptr;
            m_leaving = true;
            follow();
            m_leaving = false;
            return;
        }
        // Stay: the edited resource is selected again (when it is still shown).
        m_question = nullptr;
        const QModelIndex view = m_parts.toView(m_parts.tree->indexOf(edited));
        if (!view.isValid()) {
            m_leaving = true; // not shown any more: nothing to stay on
            follow();
            m_leaving = false;
            return;
        }
        m_parts.view->selectionModel()->setCurrentIndex(view, QItemSelectionModel::ClearAndSelect |
                                                                  QItemSelectionModel::Rows);
        m_parts.view->scrollTo(view);
    });
    m_question = box;
    box->open();
}

void DetailsFollower::markEdited()
{
    m_parts.tree->setEditedKeys(m_parts.details->editedKeys());
}

} // namespace converge
