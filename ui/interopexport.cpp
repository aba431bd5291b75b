// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "interopexport.h"

#include "asoexportoptionsdialog.h"
#include "foldermemory.h"

#include "workspacerunner.h"

#include <QFileDialog>
#include <QMessageBox>
#include <QPushButton>

namespace converge {

InteropExport::InteropExport(std::function<WorkspaceRunner *()> runner, QWidget *window)
    : QObject(window)
    , m_runner(std::move(runner))
    , m_window(window)
{}

QString InteropExport::targetName(Target target)
{
    switch (target) {
    case Target::Aso:
        return tr("Azure Service Operator");
    case Target::Ack:
        return tr("AWS Controllers for Kubernetes");
    case Target::Kcc:
        return tr("Config Connector");
    }
    return {};
}

void InteropExport::start(Target target, const QList<ResourceKey> &selection)
{
    if (selection.isEmpty()) {
        next(target, {});
        return;
    }
    auto *ask = new QMessageBox(QMessageBox::Question, tr("Export for %1").arg(targetName(target)),
                                tr("Export the %n selected resource(s) or everything in the "
                                   "workspace?",
                                   nullptr, int(selection.size())),
                                QMessageBox::Cancel, m_window);
    ask->setObjectName(QStringLiteral("interopExportScope"));
    ask->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *selected = ask->addButton(tr("Selection"), QMessageBox::AcceptRole);
    selected->setObjectName(QStringLiteral("exportSelectionButton"));
    QPushButton *everything = ask->addButton(tr("Everything"), QMessageBox::AcceptRole);
    everything->setObjectName(QStringLiteral("exportEverythingButton"));
    ask->setDefaultButton(selected);
    connect(ask, &QMessageBox::buttonClicked, this,
            [this, target, selection, selected, everything](QAbstractButton *button) {
                if (button == selected)
                    next(target, selection);
                else if (button == everything)
                    next(target, {});
            });
    ask->open();
}

void InteropExport::next(Target target, const QList<ResourceKey> &keys)
{
    if (target == Target::Aso)
        askAsoFields(keys);
    else
        chooseFile(target, keys);
}

void InteropExport::askAsoFields(const QList<ResourceKey> &keys)
{
    WorkspaceRunner *runner = m_runner();
    if (!runner) {
        chooseFile(Target::Aso, keys); // the export says that no workspace is open
        return;
    }
    runner->run(
        [keys](Workspace *ws, const StoreError &) { return WindowJobs::resourcesOf(ws, keys); },
        this,
        [this, keys](const QList<Resource> &resources) {
            const QList<Resource> needing = AsoExportOptionsDialog::needingFields(resources);
            if (needing.isEmpty()) {
                chooseFile(Target::Aso, keys);
                return;
            }
            auto *dialog = new AsoExportOptionsDialog(needing, m_window);
            dialog->setAttribute(Qt::WA_DeleteOnClose);
            connect(dialog, &QDialog::accepted, this, [this, keys, dialog] {
                AsoExporter::Options options;
                options.accounts = dialog->fields();
                chooseFile(Target::Aso, keys, options);
            });
            dialog->open();
        });
}

void InteropExport::chooseFile(Target target, const QList<ResourceKey> &keys,
                               const AsoExporter::Options &aso)
{
    auto *dialog = new QFileDialog(m_window, tr("Export for %1").arg(targetName(target)), QString(),
                                   tr("YAML manifests (*.yaml *.yml)"));
    dialog->setObjectName(QStringLiteral("interopExportFileDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    if (m_folders)
        m_folders->follow(dialog);
    dialog->setDefaultSuffix(QStringLiteral("yaml"));
    dialog->selectFile(target == Target::Aso   ? QStringLiteral("aso.yaml")
                       : target == Target::Ack ? QStringLiteral("ack.yaml")
                                               : QStringLiteral("kcc.yaml"));
    connect(dialog, &QFileDialog::fileSelected, this,
            [this, target, keys, aso](const QString &path) { exportTo(target, keys, path, aso); });
    dialog->open();
}

void InteropExport::exportTo(Target target, const QList<ResourceKey> &keys, const QString &path,
                             const AsoExporter::Options &aso)
{
    WorkspaceRunner *runner = m_runner();
    if (!runner) {
        Q_EMIT finished(path, tr("no workspace is open"));
        return;
    }
    runner->run(
        [keys, target, path, aso](Workspace *ws, const StoreError &openError) {
            return WindowJobs::exportFor(ws, openError, keys, target, path, aso);
        },
        this,
        [this, target, path](const WindowJobs::InteropExported &result) {
            report(target, path, result);
        });
}

void InteropExport::report(Target target, const QString &path,
                           const WindowJobs::InteropExported &result)
{
    QString error = result.error;
    QStringList details;
    if (!result.missing.isEmpty()) {
        error = tr("the workspace does not hold fields that %1 needs; nothing was written")
                    .arg(targetName(target));
        details = result.missing;
    } else if (error.isEmpty() && result.documents == 0) {
        error = tr("nothing selected has a counterpart in %1").arg(targetName(target));
        details = result.dropped;
    } else if (error.isEmpty() && !result.dropped.isEmpty()) {
        details = result.dropped;
    }
    if (!error.isEmpty() || !details.isEmpty()) {
        auto *box = new QMessageBox(m_window);
        box->setObjectName(QStringLiteral("interopExportMessage"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->setWindowTitle(tr("Export for %1").arg(targetName(target)));
        box->setIcon(error.isEmpty() ? QMessageBox::Information : QMessageBox::Warning);
        QString text = error.isEmpty() ? tr("Exported %n document(s) to %1. Not exported, with no "
                                            "counterpart:",
                                            nullptr, result.documents)
                                             .arg(path)
                                       : tr("Export failed: %1.").arg(error);
        if (!details.isEmpty())
            text += QStringLiteral("\n\n• ") + details.join(QStringLiteral("\n• "));
        box->setText(text);
        box->open();
    }
    Q_EMIT finished(path, error);
}

} // namespace converge
