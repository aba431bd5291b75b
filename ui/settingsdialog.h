// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "windowsettings.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QSpinBox;

namespace converge {

/// Edits WindowSettings: workers and resync period (used when the controller next starts, as the
/// dialog says), theme (applied when accepted) and whether Delete asks first.
class SettingsDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SettingsDialog)

public:
    explicit SettingsDialog(const WindowSettings &settings, QWidget *parent = nullptr);

    /// What the widgets say now.
    WindowSettings settings() const;

private:
    QSpinBox *m_workers = nullptr;
    QSpinBox *m_resync = nullptr;
    QComboBox *m_theme = nullptr;
    QCheckBox *m_confirmDelete = nullptr;
    QCheckBox *m_askBeforeLeaving = nullptr;
};

} // namespace converge
