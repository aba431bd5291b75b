// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QLabel>

#include <functional>

class QAbstractItemView;

namespace converge {

/// What an empty view says instead of nothing: a sentence over its viewport while its model has
/// no rows (a filter that matches nothing, a workspace with no resource yet), whose text the
/// window gives at that moment.
class TreePlaceholder final : public QLabel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TreePlaceholder)

public:
    /// `view` must have its model set; `text` says what to show when it has no rows.
    TreePlaceholder(QAbstractItemView *view, std::function<QString()> text);

    /// Shows or hides the sentence for the view's rows now (also called on the model's changes).
    void refresh();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QAbstractItemView *m_view; // not owned: the parent's parent
    std::function<QString()> m_text;
};

} // namespace converge
