// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "applyplan.h"

#include "ackimporter.h"
#include "annotations.h"
#include "asoimporter.h"
#include "awskinds.h"
#include "azurekinds.h"
#include "delta.h"
#include "fieldpath.h"
#include "gcpkinds.h"
#include "immutablefields.h"
#include "kccimporter.h"
#include "kindregistry.h"
#include "workspace.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>

namespace converge {

namespace {

QString compact(const QJsonValue &value)
{
    if (value.isUndefined())
        return {};
    // QJsonDocument writes arrays and objects only: a scalar is written as a one-item array.
    const QByteArray text = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(text.mid(1, text.size() - 2));
}

/// The schema of the field at `path` (which starts with "spec"), or nullptr.
const FieldSchema *schemaAt(const FieldSchema &spec, const QList<FieldPath::Segment> &segments)
{
    const FieldSchema *schema = &spec;
    for (qsizetype i = 1; i < segments.size() && schema; ++i) {
        const FieldPath::Segment &s = segments.at(i);
        if (schema->type == FieldSchema::Type::Object && !s.isIndex())
            schema = schema->field(s.key);
        else if ((schema->type == FieldSchema::Type::Map ||
                  schema->type == FieldSchema::Type::List) &&
                 !schema->items.isEmpty())
            schema = &schema->items.constFirst();
        else
            schema = nullptr;
    }
    return schema;
}

/// The values of `path` in two specs, a default shown as such where the field is absent.
ApplyPlan::Change specChange(const FieldSchema &specSchema, const QString &path,
                             const QJsonObject &before, const QJsonObject &after)
{
    ApplyPlan::Change change;
    change.path = path;
    const std::optional<QList<FieldPath::Segment>> segments = FieldPath::split(path);
    if (!segments || segments->isEmpty())
        return change;
    const FieldSchema *schema = schemaAt(specSchema, *segments);
    change.secret = schema && schema->secret;
    if (change.secret)
        return change;
    const auto show = [schema](const QJsonValue &value) {
        if (!value.isUndefined() || !schema || !schema->hasDefault())
            return compact(value);
        return ApplyPlan::tr("%1 (default)").arg(compact(schema->defaultValue));
    };
    change.before = show(FieldPath::valueAt(before, *segments));
    change.after = show(FieldPath::valueAt(after, *segments));
    return change;
}

QList<ApplyPlan::Change> mapChanges(const QString &field, const QMap<QString, QString> &stored,
                                    const QMap<QString, QString> &incoming)
{
    QStringList keys = stored.keys() + incoming.keys();
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    QList<ApplyPlan::Change> changes;
    for (const QString &key : std::as_const(keys)) {
        const auto before = stored.constFind(key);
        const auto after = incoming.constFind(key);
        if (before != stored.cend() && after != incoming.cend() && before.value() == after.value())
            continue;
        changes.append({FieldPath::child(field, key),
                        before == stored.cend() ? QString() : compact(before.value()),
                        after == incoming.cend() ? QString() : compact(after.value())});
    }
    return changes;
}

QStringList joinPaths(const QList<ApplyPlan::Change> &changes)
{
    QStringList paths;
    for (const ApplyPlan::Change &c : changes)
        paths.append(c.path);
    return paths;
}

QList<Resource> accountsOf(const Workspace *workspace)
{
    if (!workspace)
        return {};
    return workspace->list(AzureKinds::storageAccount()) +
           workspace->list(AwsKinds::accountKind()) + workspace->list(GcpKinds::projectKind());
}

} // namespace

QString ApplyPlan::Change::toString() const
{
    if (secret)
        return ApplyPlan::tr("%1: (secret) changed").arg(path);
    const QString none = ApplyPlan::tr("(none)");
    return ApplyPlan::tr("%1: %2 → %3")
        .arg(path, before.isEmpty() ? none : before, after.isEmpty() ? none : after);
}

ManifestReader::Result ApplyPlan::readPaths(const QStringList &paths, const Workspace *workspace,
                                            const KindRegistry &kinds, const QString &awsAccount,
                                            const QString &gcpProject)
{
    const QList<Resource> accounts = accountsOf(workspace);
    const AsoImporter aso(accounts);
    const AckImporter ack(accounts, awsAccount);
    const KccImporter kcc(accounts, gcpProject);
    ManifestReader::Options options;
    options.translators = {&aso, &ack, &kcc};
    return ManifestReader(kinds, options).readPaths(paths);
}

ManifestReader::Result ApplyPlan::readText(const QByteArray &data, const QString &fileName,
                                           const Workspace *workspace, const KindRegistry &kinds)
{
    const QList<Resource> accounts = accountsOf(workspace);
    const AsoImporter aso(accounts);
    const AckImporter ack(accounts, QString());
    const KccImporter kcc(accounts, QString());
    ManifestReader::Options options;
    options.translators = {&aso, &ack, &kcc};
    return ManifestReader(kinds, options).read(data, fileName);
}

QStringList ApplyPlan::engineAnnotations()
{
    return {Annotations::resourceId(), Annotations::operation(),
            Annotations::reconcileRequestedAt(), Annotations::refreshRequestedAt()};
}

ApplyPlan ApplyPlan::build(const QStringList &files, const ManifestReader::Result &read,
                           const Workspace *workspace, const KindRegistry &kinds)
{
    ApplyPlan plan;
    plan.files = files;
    for (const ManifestError &error : read.errors) {
        Item item;
        item.action = Item::Action::Invalid;
        item.detail = error.path.isEmpty() ? error.message
                                           : error.path + QStringLiteral(": ") + error.message;
        item.location = error.location.toString();
        plan.items.append(item);
    }

    // The stored objects, read in one statement.
    QHash<ResourceKey, Resource> stored;
    if (workspace && !read.objects.isEmpty()) {
        QList<ResourceKey> keys;
        keys.reserve(read.objects.size());
        for (const ManifestObject &object : read.objects)
            keys.append(object.resource.key());
        for (Resource &r : workspace->get(keys))
            stored.insert(r.key(), std::move(r));
    }
    const QStringList kept = engineAnnotations();

    for (const ManifestObject &object : read.objects) {
        Resource incoming = object.resource;
        Item item;
        item.key = incoming.key();
        item.location = object.location.toString();
        const auto found = stored.constFind(item.key);
        if (found == stored.cend()) {
            item.action = Item::Action::Create;
            item.backend = Item::Backend::Create;
            item.backendNote = tr("create");
            plan.items.append(item);
            plan.objects.append(incoming);
            continue;
        }
        const Resource &old = *found;
        // A field the backend resource cannot change is refused here, before anything is
        // stored: reconciled, a new name would make a second resource and leave this one.
        if (const Kind *kind = kinds.find(incoming.kind); kind && !old.metadata.isBeingDeleted()) {
            const QList<ImmutableFields::Change> changes =
                ImmutableFields::changed(*kind, incoming, old);
            if (!changes.isEmpty()) {
                item.action = Item::Action::Invalid;
                item.location = object.locationOf(changes.first().path).toString();
                item.detail = ImmutableFields::describe(item.key, changes);
                plan.items.append(item);
                continue;
            }
        }
        for (const QString &name : kept) {
            const auto it = old.metadata.annotations.constFind(name);
            if (it != old.metadata.annotations.cend() &&
                !incoming.metadata.annotations.contains(name))
                incoming.metadata.annotations.insert(name, it.value());
        }

        // The workspace: what the store compares (every field of the spec, labels,
        // annotations, apiVersion), field by field with the engine's Delta both ways, so that
        // a field the manifest drops is named too.
        const Kind *kind = kinds.find(incoming.kind);
        if (old.apiVersion != incoming.apiVersion)
            item.changes.append({QStringLiteral("apiVersion"), compact(old.apiVersion),
                                 compact(incoming.apiVersion)});
        if (old.spec != incoming.spec) {
            QStringList paths;
            if (kind) {
                // What the store compares: every field, server-defaulted ones included.
                constexpr Delta::Fields every = Delta::Fields::Every;
                paths = Delta::between(kind->spec, incoming.spec, old.spec, every);
                for (const QString &p :
                     Delta::between(kind->spec, old.spec, incoming.spec, every)) {
                    if (!paths.contains(p))
                        paths.append(p);
                }
                for (const QString &p : std::as_const(paths))
                    item.changes.append(specChange(kind->spec, p, old.spec, incoming.spec));
            }
            // Only spelled differently (a default written out): the store rewrites it.
            if (paths.isEmpty())
                item.changes.append(
                    {QStringLiteral("spec"), tr("as stored"), tr("the same values, written out")});
        }
        item.changes += mapChanges(QStringLiteral("metadata.labels"), old.metadata.labels,
                                   incoming.metadata.labels);
        item.changes += mapChanges(QStringLiteral("metadata.annotations"), old.metadata.annotations,
                                   incoming.metadata.annotations);
        item.action = item.changes.isEmpty() ? Item::Action::Unchanged : Item::Action::Update;
        item.detail = joinPaths(item.changes).join(QStringLiteral(", "));

        // The backend, once reconciled: the engine's own comparison of the desired spec with
        // what was last observed.
        const QJsonValue observed = old.status.observed.value(QStringLiteral("spec"));
        if (old.metadata.isBeingDeleted()) {
            item.backend = Item::Backend::Held;
            item.backendNote = tr("being deleted");
            item.detail = tr("being deleted; ") + item.detail;
        } else if (!observed.isObject() || !kind) {
            item.backend = Item::Backend::NotObserved;
            item.backendNote = tr("not observed yet: the next reconcile looks first");
        } else {
            const QStringList delta =
                Delta::between(kind->spec, incoming.spec, observed.toObject());
            for (const QString &p : delta)
                item.backendChanges.append(
                    specChange(kind->spec, p, observed.toObject(), incoming.spec));
            const QStringList immutable = Delta::immutablePaths(kind->spec, delta);
            if (delta.isEmpty()) {
                item.backend = Item::Backend::None;
                item.backendNote = tr("no change");
            } else if (!immutable.isEmpty()) {
                item.backend = Item::Backend::Held;
                item.backendNote = tr("%1 cannot change after creation: the reconcile would "
                                      "fail")
                                       .arg(immutable.join(QStringLiteral(", ")));
            } else if (incoming.policy() == Annotations::ReconcilePolicy::Skip) {
                item.backend = Item::Backend::Held;
                item.backendNote = tr("differs, not corrected (policy skip)");
            } else {
                item.backend = Item::Backend::Update;
                item.backendNote = tr("update %1").arg(delta.join(QStringLiteral(", ")));
            }
        }
        plan.items.append(item);
        plan.objects.append(incoming);
    }
    if (!plan.isValid())
        plan.objects.clear();
    return plan;
}

QString ApplyPlan::actionName(Item::Action action)
{
    switch (action) {
    case Item::Action::Create:
        return tr("create");
    case Item::Action::Update:
        return tr("update");
    case Item::Action::Unchanged:
        return tr("unchanged");
    case Item::Action::Invalid:
        return tr("invalid");
    }
    return {};
}

int ApplyPlan::count(Item::Action action) const
{
    return int(std::count_if(items.cbegin(), items.cend(),
                             [action](const Item &i) { return i.action == action; }));
}

int ApplyPlan::count(Item::Backend backend) const
{
    return int(std::count_if(items.cbegin(), items.cend(),
                             [backend](const Item &i) { return i.backend == backend; }));
}

bool ApplyPlan::hasChanges() const
{
    return isValid() && (count(Item::Action::Create) > 0 || count(Item::Action::Update) > 0);
}

bool ApplyPlan::hasBackendChanges() const
{
    return isValid() && (count(Item::Backend::Create) > 0 || count(Item::Backend::Update) > 0);
}

QString ApplyPlan::summary() const
{
    QStringList parts;
    parts << tr("%1 to create").arg(count(Item::Action::Create))
          << tr("%1 to update").arg(count(Item::Action::Update))
          << tr("%1 unchanged").arg(count(Item::Action::Unchanged));
    if (const int invalid = count(Item::Action::Invalid); invalid > 0)
        parts << tr("%1 invalid").arg(invalid);
    return parts.join(QStringLiteral(", "));
}

} // namespace converge
