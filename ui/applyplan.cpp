// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "applyplan.h"

#include "delta.h"
#include "kindregistry.h"
#include "workspace.h"

#include <QCoreApplication>

namespace converge {

namespace {

QStringList mapChanges(const QString &field, const QMap<QString, QString> &stored,
                       const QMap<QString, QString> &incoming)
{
    QStringList paths;
    for (auto it = incoming.cbegin(); it != incoming.cend(); ++it) {
        if (stored.value(it.key()) != it.value() || !stored.contains(it.key()))
            paths.append(field + QLatin1Char('.') + it.key());
    }
    for (auto it = stored.cbegin(); it != stored.cend(); ++it) {
        if (!incoming.contains(it.key()))
            paths.append(field + QLatin1Char('.') + it.key());
    }
    return paths;
}

} // namespace

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
    for (const ManifestObject &object : read.objects) {
        const Resource &incoming = object.resource;
        Item item;
        item.key = incoming.key();
        item.location = object.location.toString();
        const std::optional<Resource> stored =
            workspace ? workspace->get(item.key) : std::optional<Resource>();
        if (!stored) {
            item.action = Item::Action::Create;
        } else {
            QStringList paths;
            if (stored->spec != incoming.spec) {
                const Kind *kind = kinds.find(incoming.kind);
                paths =
                    kind ? Delta::between(kind->spec, incoming.spec, stored->spec) : QStringList();
                if (paths.isEmpty())
                    paths.append(QStringLiteral("spec"));
            }
            // Annotations the workspace keeps for itself (the resource ID) are not the
            // manifest's business.
            QMap<QString, QString> annotations = stored->metadata.annotations;
            annotations.remove(Annotations::resourceId());
            annotations.remove(Annotations::operation());
            paths += mapChanges(QStringLiteral("metadata.labels"), stored->metadata.labels,
                                incoming.metadata.labels);
            paths += mapChanges(QStringLiteral("metadata.annotations"), annotations,
                                incoming.metadata.annotations);
            item.action = paths.isEmpty() ? Item::Action::Unchanged : Item::Action::Update;
            item.detail = paths.join(QStringLiteral(", "));
            if (stored->metadata.isBeingDeleted())
                item.detail = ApplyPlan::tr("being deleted; ") + item.detail;
        }
        plan.items.append(item);
    }
    if (read.ok()) {
        for (const ManifestObject &object : read.objects)
            plan.objects.append(object.resource);
    }
    return plan;
}

QString ApplyPlan::actionName(Item::Action action)
{
    switch (action) {
    case Item::Action::Create:
        return ApplyPlan::tr("create");
    case Item::Action::Update:
        return ApplyPlan::tr("update");
    case Item::Action::Unchanged:
        return ApplyPlan::tr("unchanged");
    case Item::Action::Invalid:
        return ApplyPlan::tr("invalid");
    }
    return {};
}

int ApplyPlan::count(Item::Action action) const
{
    return int(std::count_if(items.cbegin(), items.cend(),
                             [action](const Item &i) { return i.action == action; }));
}

bool ApplyPlan::hasChanges() const
{
    return isValid() && (count(Item::Action::Create) > 0 || count(Item::Action::Update) > 0);
}

QString ApplyPlan::summary() const
{
    QStringList parts;
    parts << ApplyPlan::tr("%1 to create").arg(count(Item::Action::Create))
          << ApplyPlan::tr("%1 to update").arg(count(Item::Action::Update))
          << ApplyPlan::tr("%1 unchanged").arg(count(Item::Action::Unchanged));
    if (const int invalid = count(Item::Action::Invalid); invalid > 0)
        parts << ApplyPlan::tr("%1 invalid").arg(invalid);
    return parts.join(QStringLiteral(", "));
}

} // namespace converge
