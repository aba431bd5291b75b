// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "resourcefilter.h"

#include "discoveredresource.h"
#include "reconcilestate.h"
#include "resource.h"

namespace converge {

ResourceFilter::ResourceFilter(const QString &text, Quick quick)
    : m_text(text.trimmed())
    , m_quick(quick)
{}

void ResourceFilter::setText(const QString &text)
{
    m_text = text.trimmed();
}

bool ResourceFilter::matches(const Resource &resource, const ReconcileState &state) const
{
    // The reconcile state takes part in no rule yet; it is in the signature so that rules such
    // as "waiting for its owner" need no change in callers.
    Q_UNUSED(state);
    const Condition ready = resource.status.ready();
    switch (m_quick) {
    case Quick::All:
        break;
    case Quick::NotReady:
        if (ready.isReady() && !resource.metadata.isBeingDeleted())
            return false;
        break;
    case Quick::Errors:
        if (ready.status != Condition::Status::False ||
            (ready.severity != Condition::Severity::Error &&
             ready.severity != Condition::Severity::Warning))
            return false;
        break;
    case Quick::Unmanaged:
        return false;
    }
    return matchesText(resource.metadata.name, resource.kind, ready.reason);
}

bool ResourceFilter::matches(const DiscoveredResource &discovered) const
{
    if (m_quick != Quick::All && m_quick != Quick::Unmanaged)
        return false;
    return matchesText(discovered.name, discovered.kind, QStringLiteral("Unmanaged"));
}

bool ResourceFilter::matchesText(const QString &name, const QString &kind,
                                 const QString &reason) const
{
    if (m_text.isEmpty())
        return true;
    const auto has = [this](const QString &field) {
        return field.contains(m_text, Qt::CaseInsensitive);
    };
    if (has(name) || has(kind) || has(reason))
        return true;
    // "Kind/name" is built only when it can matter: on big trees every row is asked.
    return m_text.contains(QLatin1Char('/')) && has(kind + QLatin1Char('/') + name);
}

} // namespace converge
