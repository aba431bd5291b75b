// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "settingsdialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

namespace converge {

SettingsDialog::SettingsDialog(const WindowSettings &settings, QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("settingsDialog"));
    setWindowTitle(tr("Settings"));
    auto *layout = new QVBoxLayout(this);

    auto *engine = new QGroupBox(tr("Engine"), this);
    auto *engineForm = new QFormLayout(engine);
    m_workers = new QSpinBox(engine);
    m_workers->setObjectName(QStringLiteral("workersSpin"));
    m_workers->setRange(WindowSettings::minWorkers, WindowSettings::maxWorkers);
    m_workers->setValue(settings.workers);
    m_workers->setToolTip(tr("Worker threads that reconcile resources in parallel"));
    engineForm->addRow(tr("&Workers:"), m_workers);
    m_resync = new QSpinBox(engine);
    m_resync->setObjectName(QStringLiteral("resyncSpin"));
    m_resync->setRange(WindowSettings::minResyncMinutes, WindowSettings::maxResyncMinutes);
    m_resync->setSuffix(tr(" min"));
    m_resync->setValue(settings.resyncMinutes);
    m_resync->setToolTip(tr("How often every resource is observed again to detect drift (±25%)"));
    engineForm->addRow(tr("&Resync period:"), m_resync);
    auto *restart = new QLabel(tr("Workers and the resync period apply the next time Converge "
                                  "starts the controller of a workspace."),
                               engine);
    restart->setObjectName(QStringLiteral("restartNote"));
    restart->setWordWrap(true);
    engineForm->addRow(restart);
    layout->addWidget(engine);

    auto *window = new QGroupBox(tr("Window"), this);
    auto *windowForm = new QFormLayout(window);
    m_theme = new QComboBox(window);
    m_theme->setObjectName(QStringLiteral("themeCombo"));
    m_theme->addItem(tr("Follow the system"), int(WindowSettings::Theme::System));
    m_theme->addItem(tr("Light"), int(WindowSettings::Theme::Light));
    m_theme->addItem(tr("Dark"), int(WindowSettings::Theme::Dark));
    m_theme->setCurrentIndex(m_theme->findData(int(settings.theme)));
    windowForm->addRow(tr("&Theme:"), m_theme);
    m_confirmDelete = new QCheckBox(tr("Ask before deleting (delete or detach)"), window);
    m_confirmDelete->setObjectName(QStringLiteral("confirmDeleteCheck"));
    m_confirmDelete->setChecked(settings.confirmDelete);
    m_confirmDelete->setToolTip(tr("When off, Delete deletes the selected resources in the cloud "
                                   "at once, without offering to detach them"));
    windowForm->addRow(m_confirmDelete);
    m_askBeforeLeaving = new QCheckBox(tr("Ask before leaving unsaved spec edits"), window);
    m_askBeforeLeaving->setObjectName(QStringLiteral("askBeforeLeavingCheck"));
    m_askBeforeLeaving->setChecked(settings.askBeforeLeavingEdits);
    m_askBeforeLeaving->setToolTip(tr("When off, edits of a resource's spec that are not applied "
                                      "stay as a draft when another resource is selected, "
                                      "marked with * in the tree"));
    windowForm->addRow(m_askBeforeLeaving);
    layout->addWidget(window);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->setObjectName(QStringLiteral("settingsButtons"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

WindowSettings SettingsDialog::settings() const
{
    WindowSettings s;
    s.workers = m_workers->value();
    s.resyncMinutes = m_resync->value();
    s.theme = static_cast<WindowSettings::Theme>(m_theme->currentData().toInt());
    s.confirmDelete = m_confirmDelete->isChecked();
    s.askBeforeLeavingEdits = m_askBeforeLeaving->isChecked();
    return s;
}

} // namespace converge
