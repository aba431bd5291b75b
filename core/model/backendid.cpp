// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "backendid.h"

#include "annotations.h"
#include "resource.h"

#include <QUrl>

namespace converge::BackendId {

QString normalized(const QString &id)
{
    if (id.startsWith(QLatin1String("/subscriptions/"), Qt::CaseInsensitive))
        return id.toLower();
    if (id.startsWith(QLatin1String("https://"), Qt::CaseInsensitive) ||
        id.startsWith(QLatin1String("http://"), Qt::CaseInsensitive)) {
        // QUrl lower-cases the scheme and the host and leaves the path as it is.
        const QUrl url(id);
        if (url.isValid())
            return url.toString();
    }
    return id;
}

QString managedBy(const Resource &resource)
{
    if (!resource.spec.contains(QLatin1String("owner")))
        return {};
    return normalized(resource.metadata.annotations.value(Annotations::resourceId()));
}

} // namespace converge::BackendId
