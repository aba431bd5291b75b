// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "treeplaceholder.h"

#include <QAbstractItemView>
#include <QEvent>

namespace converge {

TreePlaceholder::TreePlaceholder(QAbstractItemView *view, std::function<QString()> text)
    : QLabel(view->viewport())
    , m_view(view)
    , m_text(std::move(text))
{
    setObjectName(QStringLiteral("treePlaceholder"));
    setAlignment(Qt::AlignCenter);
    setWordWrap(true);
    setMargin(24);
    setForegroundRole(QPalette::PlaceholderText);
    setAttribute(Qt::WA_TransparentForMouseEvents);
    view->viewport()->installEventFilter(this);
    QAbstractItemModel *model = view->model();
    for (const auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(model, signal, this, &TreePlaceholder::refresh);
    connect(model, &QAbstractItemModel::modelReset, this, &TreePlaceholder::refresh);
    connect(model, &QAbstractItemModel::layoutChanged, this, &TreePlaceholder::refresh);
    refresh();
}

void TreePlaceholder::refresh()
{
    const bool empty = m_view->model()->rowCount() == 0;
    if (empty)
        setText(m_text());
    setGeometry(m_view->viewport()->rect());
    setVisible(empty && !text().isEmpty());
}

bool TreePlaceholder::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_view->viewport() && event->type() == QEvent::Resize)
        setGeometry(m_view->viewport()->rect());
    return QLabel::eventFilter(watched, event);
}

} // namespace converge
