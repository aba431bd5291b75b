// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resourcekey.h"

#include <QDialog>
#include <QList>

namespace converge {

/// Asks before deleting: says what Delete and Detach will do to the selected resources (how many,
/// which) and returns the choice. Cancel is the default button.
class DeleteDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DeleteDialog)

public:
    enum class Choice { Cancel, Delete, Detach };

    explicit DeleteDialog(const QList<ResourceKey> &keys, QWidget *parent = nullptr);

    QList<ResourceKey> keys() const { return m_keys; }
    Choice choice() const { return m_choice; }

private:
    QList<ResourceKey> m_keys;
    Choice m_choice = Choice::Cancel;
};

} // namespace converge
