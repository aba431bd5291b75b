// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "discoveredclaim.h"

#include "annotations.h"
#include "kindregistry.h"
#include "manager.h"
#include "schemavalidator.h"
#include "solemanager.h"
#include "workspace.h"

#include <QRegularExpression>

namespace converge {

Resource DiscoveredClaim::probe(const DiscoveredResource &item, const Resource &owner)
{
    Resource probe;
    probe.kind = item.kind;
    probe.metadata.name = item.name;
    probe.spec = item.spec;
    probe.spec.insert(QStringLiteral("owner"),
                      QJsonObject{{QStringLiteral("name"), owner.metadata.name}});
    // The ID the listing gave: all a kind without a name (an SNS subscription) is found by.
    if (!item.resourceId.isEmpty())
        probe.metadata.annotations.insert(Annotations::resourceId(), item.resourceId);
    return probe;
}

std::optional<Resource> DiscoveredClaim::prepare(const DiscoveredResource &item,
                                                 const Resource &probe,
                                                 const QList<Resource> &owners, Manager &manager,
                                                 const Workspace &workspace,
                                                 const KindRegistry &kinds, QString *error,
                                                 bool *managedElsewhere)
{
    if (managedElsewhere)
        *managedElsewhere = item.isManagedElsewhere();
    if (const QString why = refusal(item, kinds); !why.isEmpty()) {
        *error = why; // before the get: a blob's would read its bytes for nothing
        return std::nullopt;
    }
    DiscoveredResource claimed = item;
    QJsonObject observed = item.spec;
    if (!manager.listIsComplete()) {
        // A list page named it; only a get sees all of it (key schema, indexes, …).
        const Outcome<Observation> seen = manager.get(Target{probe, owners});
        if (!seen) {
            *error = seen.error().message;
            return std::nullopt;
        }
        observed = seen.value().spec;
        if (!seen.value().resourceId.isEmpty())
            claimed.resourceId = seen.value().resourceId;
    }
    // Listed under another account on the same endpoint, it may be what a resource of the
    // workspace manages already: a second manager would delete it under the first.
    if (const QString why = SoleManager::refusal(workspace, kinds, {}, claimed.resourceId);
        !why.isEmpty()) {
        if (managedElsewhere)
            *managedElsewhere = true;
        *error = why;
        return std::nullopt;
    }
    QSet<QString> taken;
    for (const Resource &r : workspace.list(item.kind))
        taken.insert(r.metadata.name);
    return build(claimed, observed, kinds, taken, error);
}

QString DiscoveredClaim::refusal(const DiscoveredResource &item, const KindRegistry &kinds)
{
    if (item.isManagedElsewhere()) {
        const QString by = item.managedByAccount.isValid()
                               ? QStringLiteral("%1 (account %2)")
                                     .arg(item.managedBy.toString(), item.managedByAccount.name)
                               : item.managedBy.toString();
        return QStringLiteral("managed by %1: a backend resource has one manager in a workspace")
            .arg(by);
    }
    const Kind *kind = kinds.find(item.kind);
    return kind ? kind->claimRefusal : QString();
}

QString DiscoveredClaim::nameFor(const QString &backendName, const QString &kind,
                                 const KindRegistry &kinds, const QSet<QString> &takenNames)
{
    const Kind *k = kinds.find(kind);
    const int maxLength = k ? k->nameMaxLength : 253;
    QString name;
    name.reserve(backendName.size());
    for (const QChar c : backendName.toLower()) {
        const bool plain = (c >= u'a' && c <= u'z') || (c >= u'0' && c <= u'9') || c == u'-';
        name.append(plain ? c : QLatin1Char('-'));
    }
    // Runs of replaced characters read better as one dash; the ends must be alphanumeric.
    static const QRegularExpression dashes(QStringLiteral("-{2,}"));
    name.replace(dashes, QStringLiteral("-"));
    while (name.startsWith(u'-'))
        name.remove(0, 1);
    while (name.endsWith(u'-'))
        name.chop(1);
    if (name.isEmpty())
        name = kind.toLower();
    const auto fit = [maxLength](QString base, const QString &suffix) {
        base.truncate(std::max<qsizetype>(1, maxLength - suffix.size()));
        while (base.endsWith(u'-'))
            base.chop(1);
        return base + suffix;
    };
    QString candidate = fit(name, QString());
    for (int n = 2; takenNames.contains(candidate); ++n)
        candidate = fit(name, QStringLiteral("-%1").arg(n));
    return candidate;
}

std::optional<Resource> DiscoveredClaim::build(const DiscoveredResource &item,
                                               const QJsonObject &observedSpec,
                                               const KindRegistry &kinds,
                                               const QSet<QString> &takenNames, QString *error)
{
    const Kind *kind = kinds.find(item.kind);
    if (!kind) {
        if (error)
            *error = QStringLiteral("no provider knows the kind %1").arg(item.kind);
        return std::nullopt;
    }
    if (!kind->claimRefusal.isEmpty()) {
        if (error)
            *error = kind->claimRefusal;
        return std::nullopt;
    }
    Resource resource;
    resource.apiVersion = kind->apiVersion();
    resource.kind = item.kind;
    resource.metadata.name = nameFor(item.name, item.kind, kinds, takenNames);
    if (!item.resourceId.isEmpty())
        resource.metadata.annotations.insert(Annotations::resourceId(), item.resourceId);
    resource.spec = observedSpec;
    if (!kind->ownerKind.isEmpty())
        resource.spec.insert(QStringLiteral("owner"),
                             QJsonObject{{QStringLiteral("name"), item.owner.name}});

    const QList<ValidationError> errors = SchemaValidator(kinds).validate(resource);
    if (!errors.isEmpty()) {
        if (error) {
            QStringList lines;
            for (const ValidationError &e : errors)
                lines.append(e.toString());
            *error = QStringLiteral("%1 %2 cannot be claimed as observed: %3")
                         .arg(item.kind, item.name, lines.join(QStringLiteral("; ")));
        }
        return std::nullopt;
    }
    return resource;
}

} // namespace converge
