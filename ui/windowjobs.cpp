// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "windowjobs.h"
#include "kccexporter.h"

#include "ackexporter.h"
#include "asoexporter.h"
#include "eventexport.h"
#include "eventlogfilterproxy.h"
#include "kccexporter.h"
#include "manifestwriter.h"
#include "workspace.h"

#include <QCoreApplication>
#include <QSaveFile>

namespace converge {

WindowJobs::Written WindowJobs::requestDeletion(Workspace *ws, const StoreError &openError,
                                                const QList<ResourceKey> &keys, bool detach)
{
    Written result;
    result.keys = keys;
    if (!ws) {
        result.error = openError.message;
        return result;
    }
    QStringList errors;
    for (const ResourceKey &key : keys) {
        // Detaching is deleting under the detach-on-delete policy; the controller then
        // leaves the backend resource alone. A concurrent write (the controller's)
        // makes the update conflict: read again and retry.
        for (int attempt = 0; detach && attempt < 5; ++attempt) {
            std::optional<Resource> r = ws->get(key);
            if (!r || r->policy() != Annotations::ReconcilePolicy::Manage)
                break;
            r->metadata.annotations.insert(
                Annotations::reconcilePolicy(),
                Annotations::policyName(Annotations::ReconcilePolicy::DetachOnDelete));
            StoreError error;
            if (ws->update(*r, &error))
                break;
            if (error.code != StoreError::Code::Conflict) {
                errors.append(error.message);
                break;
            }
        }
        StoreError error;
        if (!ws->requestDeletion(key, &error))
            errors.append(error.message);
    }
    result.error = errors.join(QStringLiteral("; "));
    return result;
}

WindowJobs::Written WindowJobs::apply(Workspace *ws, const StoreError &openError,
                                      const QList<Resource> &objects)
{
    Written result;
    for (const Resource &r : objects)
        result.keys.append(r.key());
    if (!ws) {
        result.error = openError.message;
        return result;
    }
    QList<ApplyOutcome> outcomes;
    StoreError error;
    if (!ws->apply(objects, &outcomes, &error)) {
        result.error = error.message;
        return result;
    }
    int created = 0, updated = 0, unchanged = 0;
    for (const ApplyOutcome &o : std::as_const(outcomes)) {
        created += o.action == ApplyOutcome::Action::Created;
        updated += o.action == ApplyOutcome::Action::Updated;
        unchanged += o.action == ApplyOutcome::Action::Unchanged;
    }
    result.summary =
        QCoreApplication::translate("MainWindow", "Applied: %1 created, %2 updated, %3 "
                                                  "unchanged")
            .arg(created)
            .arg(updated)
            .arg(unchanged);
    return result;
}

QString WindowJobs::exportResources(Workspace *ws, const StoreError &openError,
                                    const QList<ResourceKey> &keys, const QString &path,
                                    const KindRegistry &kinds)
{
    if (!ws)
        return openError.message;
    QList<Resource> resources;
    for (const ResourceKey &key : keys) {
        if (std::optional<Resource> r = ws->get(key))
            resources.append(*r);
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(ManifestWriter(kinds).toYaml(resources)) < 0 || !file.commit())
        return file.errorString();
    return {};
}

QList<Resource> WindowJobs::resourcesOf(Workspace *ws, const QList<ResourceKey> &keys)
{
    if (!ws)
        return {};
    QList<Resource> all = ws->list({});
    if (!keys.isEmpty()) {
        const QSet<ResourceKey> wanted(keys.cbegin(), keys.cend());
        all.removeIf([&wanted](const Resource &r) { return !wanted.contains(r.key()); });
    }
    return all;
}

WindowJobs::InteropExported WindowJobs::exportFor(Workspace *ws, const StoreError &openError,
                                                  const QList<ResourceKey> &keys,
                                                  InteropTarget target, const QString &path,
                                                  const AsoExporter::Options &aso)
{
    InteropExported result;
    if (!ws) {
        result.error = openError.message;
        return result;
    }
    StoreError readError;
    const QList<Resource> all = ws->list({}, &readError);
    if (readError.isError()) {
        result.error = readError.message;
        return result;
    }
    QList<Resource> selection;
    if (keys.isEmpty()) {
        selection = all;
    } else {
        const QSet<ResourceKey> wanted(keys.cbegin(), keys.cend());
        for (const Resource &r : all) {
            if (wanted.contains(r.key()))
                selection.append(r);
        }
    }
    // The options of `converge export --for …` (for ASO, with the flags the window asked
    // for): the same bytes as the command line.
    const ExportResult exported =
        target == InteropTarget::Aso ? AsoExporter(aso).exportResources(selection, all)
        : target == InteropTarget::Ack
            ? AckExporter(AckExporter::Options{}).exportResources(selection, all)
            : KccExporter(KccExporter::Options{}).exportResources(selection, all);
    result.missing = exported.missing;
    result.dropped = exported.dropped;
    result.notes = exported.notes;
    if (!exported.ok() || exported.documents.isEmpty())
        return result;
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(ManifestWriter::documentsToYaml(exported.documents)) < 0 || !file.commit()) {
        result.error = file.errorString();
        return result;
    }
    result.documents = int(exported.documents.size());
    return result;
}

QString WindowJobs::exportLog(Workspace *ws, const StoreError &openError, const QString &path,
                              std::optional<Event::Type> type, const QString &text)
{
    if (!ws)
        return openError.message;
    EventQuery query;
    query.type = type;
    query.limit = 0;
    QList<Event> events = ws->events(query);
    events.removeIf([&](const Event &e) { return !EventLogFilterProxy::accepts(e, type, text); });
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(EventExport::write(events, EventExport::formatFor(path))) < 0 || !file.commit())
        return file.errorString();
    return {};
}

QHash<QString, QStringList> WindowJobs::namesByKind(const Workspace *ws, const QStringList &kinds)
{
    QHash<QString, QStringList> names;
    if (!ws)
        return names;
    for (const QString &kind : kinds) {
        for (const Resource &r : ws->list(kind))
            names[kind].append(r.metadata.name);
    }
    return names;
}

} // namespace converge
