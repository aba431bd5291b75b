// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "browser.h"

#include "clock.h"
#include "controllerlog.h"
#include "discoveredclaim.h"
#include "discovery.h"
#include "kindregistry.h"
#include "managedelsewhere.h"
#include "notificationbuffer.h"
#include "scheduler.h"
#include "snapshot.h"
#include "threadcontext.h"
#include "workspace.h"

#include <QSet>

namespace converge {

namespace {

const QString browseJobKind = QStringLiteral("converge.dev/Browse");

} // namespace

Browser::Browser(const KindRegistry &kinds, Scheduler &scheduler, const Clock &clock,
                 NotificationBuffer &notifications, PageReady pageReady)
    : m_kinds(kinds)
    , m_scheduler(scheduler)
    , m_clock(clock)
    , m_notifications(notifications)
    , m_pageReady(std::move(pageReady))
{}

void Browser::browse(const BrowseRequest &request)
{
    const ResourceKey jobKey{browseJobKind, QString::number(request.id)};
    {
        const Scheduler::Lock lock = m_scheduler.lock();
        m_requests.insert(jobKey, request);
        m_scheduler.add(lock, jobKey, WorkQueue::Lane::UserAction);
    }
    m_scheduler.wakeWorkers();
}

bool Browser::isBrowseJob(const ResourceKey &key)
{
    return key.kind == browseJobKind;
}

void Browser::run(ThreadContext &tc, const ResourceKey &jobKey)
{
    BrowsePage page;
    {
        const Scheduler::Lock lock = m_scheduler.lock();
        const auto it = m_requests.constFind(jobKey);
        if (it == m_requests.cend())
            return;
        page.request = *it;
        m_requests.erase(it);
    }
    const BrowseRequest &request = page.request;
    const auto fail = [&](const QString &error) {
        page.error = error;
        m_pageReady(page);
    };
    Workspace &ws = tc.workspace();
    StoreError readError;
    const std::optional<Resource> owner = ws.get(request.owner, &readError);
    if (readError.isError())
        return fail(readError.message);
    if (!owner)
        return fail(QStringLiteral("%1 is not in the workspace").arg(request.owner.toString()));
    if (!owner->status.ready().isReady())
        return fail(QStringLiteral("%1 is not Ready: %2")
                        .arg(request.owner.toString(), owner->status.ready().message));
    ListScope scope;
    scope.owners = tc.ownersOf(*owner);
    scope.owners.append(*owner);
    const bool throughUnmanaged = !request.within.kind.isEmpty();
    if (throughUnmanaged)
        scope.owners.append(DiscoveredClaim::probe(request.within, *owner));
    scope.prefix = request.prefix;
    scope.delimiter = request.delimiter;
    scope.continuation = request.continuation;
    scope.pageSize = request.pageSize;
    Resource probe;
    probe.kind = request.kind;
    std::optional<BackendError> managerError;
    const std::shared_ptr<Manager> manager =
        tc.managerFor(probe, scope.owners.first(), &managerError);
    if (!manager)
        return fail(managerError ? managerError->message
                                 : QStringLiteral("no Manager for %1").arg(request.kind));
    // What the workspace manages has its own row; by backend ID, else by backend name.
    QSet<QString> managedIds;
    QSet<QString> managedNames;
    const Kind *kind = m_kinds.find(request.kind);
    const QList<Resource> managed =
        throughUnmanaged ? QList<Resource>() : ws.listOwnedBy(request.kind, request.owner.name);
    for (const Resource &r : managed) {
        const QString id = r.metadata.annotations.value(Annotations::resourceId());
        if (!id.isEmpty())
            managedIds.insert(id);
        managedNames.insert(Snapshot::backendNameOf(kind, r));
    }
    const QDateTime seenAt = m_clock.now();

    if (!request.name.isEmpty()) {
        DiscoveredResource wanted;
        wanted.kind = request.kind;
        wanted.name = request.name;
        wanted.owner = request.owner;
        const Outcome<Observation> got =
            manager->get(Target{DiscoveredClaim::probe(wanted, scope.owners.last()), scope.owners});
        if (!got) {
            return fail(got.error().category == BackendError::Category::NotFound
                            ? QStringLiteral("%1 %2 is not under %3")
                                  .arg(request.kind, request.name, request.owner.toString())
                            : got.error().message);
        }
        Observation observed = got.value();
        if (observed.name.isEmpty())
            observed.name = request.name;
        if ((!observed.resourceId.isEmpty() && managedIds.contains(observed.resourceId)) ||
            managedNames.contains(observed.name)) {
            page.managedSkipped = 1;
            return m_pageReady(page);
        }
        page.items.append(Discovery::unmanaged(observed, request.kind, request.owner, seenAt));
        if (!throughUnmanaged)
            ManagedElsewhere(ws, m_kinds, request.kind, scope.owners).mark(page.items, *manager);
        if (kind && kind->folderDelimiter.isEmpty() && !throughUnmanaged) {
            StoreError error;
            if (ws.mergeDiscovered(request.owner, request.kind, page.items, &error))
                m_notifications.discoveryChanged(request.owner);
            else
                qCWarning(lcController) << "store:" << error.message;
        }
        return m_pageReady(page);
    }

    const Outcome<ListPage> listed = manager->list(scope);
    if (!listed)
        return fail(listed.error().message);
    for (const Observation &item : listed.value().items) {
        if ((!item.resourceId.isEmpty() && managedIds.contains(item.resourceId)) ||
            managedNames.contains(item.name)) {
            ++page.managedSkipped;
            continue;
        }
        page.items.append(Discovery::unmanaged(item, request.kind, request.owner, seenAt));
    }
    if (!throughUnmanaged)
        ManagedElsewhere(ws, m_kinds, request.kind, scope.owners).mark(page.items, *manager);
    page.folders = listed.value().prefixes;
    page.continuation = listed.value().continuation;
    m_pageReady(page);
}

} // namespace converge
