// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "manifestflow.h"

#include "foldermemory.h"

#include "applyplan.h"
#include "applyplandialog.h"
#include "connectdialog.h"
#include "kindregistry.h"
#include "manifestreader.h"
#include "newresourcedialog.h"
#include "windowjobs.h"
#include "workspace.h"
#include "workspacerunner.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QMimeData>
#include <QUrl>

namespace converge {

ManifestFlow::ManifestFlow(const KindRegistry &kinds, WorkspaceRunner &reader,
                           WorkspaceRunner &writer, QWidget *window)
    : QObject(window)
    , m_kinds(kinds)
    , m_reader(reader)
    , m_writer(writer)
    , m_window(window)
{}

QStringList ManifestFlow::manifestPaths(const QMimeData *mime)
{
    QStringList paths;
    if (!mime || !mime->hasUrls())
        return paths;
    for (const QUrl &url : mime->urls()) {
        if (!url.isLocalFile())
            continue;
        const QString path = url.toLocalFile();
        const QString suffix = QFileInfo(path).suffix().toLower();
        if (suffix == QLatin1String("yaml") || suffix == QLatin1String("yml") ||
            suffix == QLatin1String("json"))
            paths.append(path);
    }
    return paths;
}

void ManifestFlow::chooseFiles()
{
    auto *dialog = new QFileDialog(m_window, tr("Apply manifest"), QString(),
                                   tr("Manifests (*.yaml *.yml *.json);;All files (*)"));
    dialog->setObjectName(QStringLiteral("applyFileDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::ExistingFiles);
    if (m_folders)
        m_folders->follow(dialog);
    connect(dialog, &QFileDialog::filesSelected, this, &ManifestFlow::applyFiles);
    dialog->open();
}

void ManifestFlow::applyFiles(const QStringList &paths)
{
    if (paths.isEmpty())
        return;
    Q_EMIT message(tr("Reading %1…").arg(paths.join(QStringLiteral(", "))));
    const KindRegistry &kinds = m_kinds; // outlives the flow and the runners' tasks
    m_reader.run(
        [paths, &kinds](Workspace *ws, const StoreError &) {
            // No workspace yet (a new file): everything in the manifests is new. ASO and ACK
            // files are read as `converge apply -f` reads them.
            return ApplyPlan::build(paths, ApplyPlan::readPaths(paths, ws, kinds), ws, kinds);
        },
        this, [this](const ApplyPlan &plan) { showPlan(plan); });
}

void ManifestFlow::applyText(const QString &text, const QString &sourceName)
{
    const KindRegistry &kinds = m_kinds;
    m_reader.run(
        [text, sourceName, &kinds](Workspace *ws, const StoreError &) {
            return ApplyPlan::build(
                {sourceName}, ApplyPlan::readText(text.toUtf8(), sourceName, ws, kinds), ws, kinds);
        },
        this, [this](const ApplyPlan &plan) { showPlan(plan); });
}

void ManifestFlow::applyResources(const QList<Resource> &resources, const QString &sourceName)
{
    const KindRegistry &kinds = m_kinds;
    m_reader.run(
        [resources, sourceName, &kinds](Workspace *ws, const StoreError &) {
            ManifestReader::Result read;
            for (const Resource &r : resources)
                read.objects.append(ManifestObject{r, SourceLocation{sourceName, 0, 0}, {}});
            return ApplyPlan::build({sourceName}, read, ws, kinds);
        },
        this,
        [this](const ApplyPlan &plan) {
            if (plan.count(ApplyPlan::Item::Action::Create) == int(plan.items.size()))
                applyPlan(plan);
            else
                showPlan(plan);
        });
}

void ManifestFlow::newResource(const QList<ResourceKey> &selected)
{
    const KindRegistry &kinds = m_kinds;
    m_reader.run(
        [names = kinds.names()](Workspace *ws, const StoreError &) {
            return WindowJobs::namesByKind(ws, names);
        },
        this,
        [this, selected](const QHash<QString, QStringList> &names) {
            auto *dialog = new NewResourceDialog(m_kinds, names, m_window);
            dialog->setAttribute(Qt::WA_DeleteOnClose);
            // Preselect a kind that the selected resource can own.
            if (selected.size() == 1) {
                for (const QString &name : m_kinds.names()) {
                    if (m_kinds.find(name)->ownerKind == selected.constFirst().kind) {
                        dialog->setKind(name);
                        dialog->setOwner(selected.constFirst().name);
                        break;
                    }
                }
            }
            connect(dialog, &QDialog::accepted, this,
                    [this, dialog] { applyText(dialog->manifest(), tr("new resource")); });
            dialog->open();
        });
}

void ManifestFlow::connectAccount(CredentialStore *credentials)
{
    QStringList accountKinds;
    for (const QString &name : m_kinds.names()) {
        if (m_kinds.find(name)->ownerKind.isEmpty())
            accountKinds.append(name);
    }
    m_reader.run(
        [accountKinds](Workspace *ws, const StoreError &) {
            QStringList keys;
            const QHash<QString, QStringList> names = WindowJobs::namesByKind(ws, accountKinds);
            for (auto it = names.cbegin(); it != names.cend(); ++it) {
                for (const QString &name : it.value())
                    keys.append(ResourceKey{it.key(), name}.toString());
            }
            return keys;
        },
        this,
        [this, credentials](const QStringList &existing) {
            auto *dialog = new ConnectDialog(m_kinds, credentials, existing, m_window);
            dialog->setAttribute(Qt::WA_DeleteOnClose);
            connect(dialog, &QDialog::accepted, this, [this, dialog] {
                const QString note = dialog->note();
                applyResources({dialog->resource()}, tr("connect dialog"));
                if (!note.isEmpty())
                    QMessageBox::information(m_window, tr("Connect account"), note);
            });
            dialog->open();
        });
}

void ManifestFlow::showPlan(const ApplyPlan &plan)
{
    auto *dialog = new ApplyPlanDialog(plan, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { applyPlan(dialog->plan()); });
    dialog->open();
}

void ManifestFlow::applyPlan(const ApplyPlan &plan)
{
    if (!plan.hasChanges())
        return;
    m_writer.run(
        [objects = plan.objects](Workspace *ws, const StoreError &openError) {
            return WindowJobs::apply(ws, openError, objects);
        },
        this,
        [this](const WindowJobs::Written &result) {
            Q_EMIT written(result.keys);
            Q_EMIT message(result.error.isEmpty() ? result.summary
                                                  : tr("Apply failed: %1").arg(result.error));
            Q_EMIT manifestApplied(result.keys, result.error);
        });
}

void ManifestFlow::chooseExportFile(const QList<ResourceKey> &keys)
{
    if (keys.isEmpty())
        return;
    auto *dialog = new QFileDialog(m_window, tr("Export selection as YAML"), QString(),
                                   tr("YAML manifests (*.yaml *.yml)"));
    dialog->setObjectName(QStringLiteral("exportFileDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    if (m_folders)
        m_folders->follow(dialog);
    dialog->setDefaultSuffix(QStringLiteral("yaml"));
    dialog->selectFile(keys.size() == 1 ? keys.constFirst().name + QStringLiteral(".yaml")
                                        : QStringLiteral("selection.yaml"));
    connect(dialog, &QFileDialog::fileSelected, this,
            [this, keys](const QString &path) { exportResources(keys, path); });
    dialog->open();
}

void ManifestFlow::exportResources(const QList<ResourceKey> &keys, const QString &path)
{
    const KindRegistry &kinds = m_kinds;
    m_reader.run(
        [keys, path, &kinds](Workspace *ws, const StoreError &openError) {
            return WindowJobs::exportResources(ws, openError, keys, path, kinds);
        },
        this,
        [this, path](const QString &error) {
            Q_EMIT message(error.isEmpty() ? tr("Exported to %1").arg(path)
                                           : tr("Export failed: %1").arg(error));
            Q_EMIT exportFinished(path, error);
        });
}

void ManifestFlow::exportLog(const QString &path, std::optional<Event::Type> type,
                             const QString &text)
{
    m_reader.run(
        [path, type, text](Workspace *ws, const StoreError &openError) {
            return WindowJobs::exportLog(ws, openError, path, type, text);
        },
        this,
        [this, path](const QString &error) {
            Q_EMIT message(error.isEmpty() ? tr("Log exported to %1").arg(path)
                                           : tr("Log export failed: %1").arg(error));
            Q_EMIT logExported(path, error);
        });
}

} // namespace converge
