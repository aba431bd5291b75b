// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

// A Manager double for the engine's unit tests only: an in-memory backend that can inject
// latency, errors, throttling with retry-after and asynchronous states. Never used elsewhere.

#include "factory.h"
#include "testkinds.h"

#include <QHash>
#include <QJsonObject>
#include <QMutex>
#include <QSemaphore>
#include <QSet>
#include <QThread>

#include <atomic>
#include <functional>

namespace converge::test {

/// The shared in-memory "cloud". Thread-safe.
class FakeBackend
{
public:
    struct Object
    {
        QJsonObject spec;
        int pendingPolls = 0;   ///< gets that still report the create/update in progress
        int deletingPolls = -1; ///< >= 0: being deleted, gone after this many more gets
    };

    // Knobs, set before the controller starts (or under the lock).
    std::atomic<int> latencyMs{0};
    std::atomic<int> asyncPolls{0};        ///< creates stay "in progress" for this many gets
    std::atomic<int> asyncDeletePolls{-1}; ///< >= 0: deletes are asynchronous
    std::atomic<int> listPageSize{1000};   ///< items per list page
    std::atomic<int> listFailsFrom{-1};    ///< a page from this offset on fails once (Transient)
    /// A list page from this offset waits until the test calls releaseList(): a latch that holds
    /// a listing in a known state, instead of a test hoping to sample it in passing.
    std::atomic<int> listHoldsAt{-1};
    QSemaphore listHeld;                   ///< released once a held page has started waiting
    QSemaphore listReleased;               ///< what the held page waits for
    std::atomic<bool> listComplete{true};  ///< whether list pages observe as fully as get
    std::atomic<bool> listIds{true};       ///< false: list items carry a name only (ListTables)
    std::atomic<bool> createAdopts{false}; ///< create finds an existing object instead of replacing
    /// Every account reaches every object, whoever made it: two accounts on one endpoint.
    std::atomic<bool> oneEndpoint{false};
    /// Errors to return, by operation ("get", "create", "update", "delete") and key, FIFO.
    QHash<QString, QList<BackendError>> errors;
    /// Called at the start of every write with the operation and the key (for order checks).
    std::function<void(const QString &op, const ResourceKey &key)> onWrite;

    mutable QMutex mutex;
    QHash<QString, Object> objects; ///< by kind/name

    std::atomic<int> gets{0}, creates{0}, updates{0}, deletes{0}, lists{0};
    std::atomic<int> concurrentViolations{0};
    std::atomic<int> createsAtFirstList{-1}; ///< how many creates had started when a list first ran

    int writes() const { return creates + updates + deletes; }

    void put(const ResourceKey &key, const QJsonObject &spec)
    {
        QMutexLocker lock(&mutex);
        objects.insert(key.toString(), Object{spec, 0, -1});
    }
    bool has(const ResourceKey &key) const
    {
        QMutexLocker lock(&mutex);
        return objects.contains(key.toString());
    }
    QJsonObject spec(const ResourceKey &key) const
    {
        QMutexLocker lock(&mutex);
        return objects.value(key.toString()).spec;
    }
    /// Lets a page held by listHoldsAt go on (idempotent, so that a test may call it on every
    /// exit).
    void releaseList()
    {
        if (listHoldsAt.exchange(-1) >= 0)
            listReleased.release();
    }
    void injectError(const QString &op, const ResourceKey &key, const BackendError &error)
    {
        QMutexLocker lock(&mutex);
        errors[op + QLatin1Char('|') + key.toString()].append(error);
    }

    /// Marks `key` in flight; records a violation if it already was.
    void enter(const ResourceKey &key)
    {
        QMutexLocker lock(&mutex);
        if (m_inFlight.contains(key.toString()))
            ++concurrentViolations;
        m_inFlight.insert(key.toString());
    }
    void leave(const ResourceKey &key)
    {
        QMutexLocker lock(&mutex);
        m_inFlight.remove(key.toString());
    }
    std::optional<BackendError> takeError(const QString &op, const ResourceKey &key)
    {
        QMutexLocker lock(&mutex);
        auto it = errors.find(op + QLatin1Char('|') + key.toString());
        if (it == errors.end() || it->isEmpty())
            return std::nullopt;
        return it->takeFirst();
    }

private:
    QSet<QString> m_inFlight;
};

inline BackendError fakeError(BackendError::Category category, const QString &code,
                              std::optional<std::chrono::milliseconds> retryAfter = {})
{
    BackendError e;
    e.category = category;
    e.code = code;
    e.httpStatus = category == BackendError::Category::NotFound ? 404 : 400;
    e.message = QStringLiteral("injected %1").arg(code);
    e.requestId = QStringLiteral("req-%1").arg(code);
    e.retryAfter = retryAfter;
    return e;
}

class FakeManager final : public Manager
{
public:
    explicit FakeManager(FakeBackend &backend, const QString &kind = QStringLiteral("Widget"))
        : m_backend(backend)
        , m_kind(kind)
    {}

    Outcome<Observation> get(const Target &target) override
    {
        const ResourceKey key = backendKey(target.resource);
        Guard guard(m_backend, key);
        ++m_backend.gets;
        if (auto e = m_backend.takeError(QStringLiteral("get"), key))
            return *e;
        QMutexLocker lock(&m_backend.mutex);
        auto it = m_backend.objects.find(key.toString());
        if (it == m_backend.objects.end())
            return fakeError(BackendError::Category::NotFound, QStringLiteral("NotFound"));
        Observation o = observe(key, *it);
        if (it->deletingPolls == 0) {
            m_backend.objects.erase(it);
            return fakeError(BackendError::Category::NotFound, QStringLiteral("NotFound"));
        }
        if (it->deletingPolls > 0) {
            --it->deletingPolls;
            o.inProgress = true;
            o.progress = QStringLiteral("DELETING");
        } else if (it->pendingPolls > 0) {
            --it->pendingPolls;
            o.inProgress = true;
            o.progress = QStringLiteral("CREATING");
            o.pollAfter = std::chrono::milliseconds(10);
        }
        return o;
    }

    Outcome<Observation> create(const Target &target) override
    {
        const ResourceKey key = backendKey(target.resource);
        Guard guard(m_backend, key);
        ++m_backend.creates;
        if (m_backend.onWrite)
            m_backend.onWrite(QStringLiteral("create"), key);
        if (auto e = m_backend.takeError(QStringLiteral("create"), key))
            return *e;
        QMutexLocker lock(&m_backend.mutex);
        if (m_backend.createAdopts) {
            if (auto it = m_backend.objects.constFind(key.toString());
                it != m_backend.objects.cend()) {
                Observation o = observe(key, *it);
                o.existed = true;
                return o;
            }
        }
        FakeBackend::Object obj{target.resource.spec, m_backend.asyncPolls, -1};
        m_backend.objects.insert(key.toString(), obj);
        Observation o = observe(key, obj);
        o.inProgress = obj.pendingPolls > 0;
        return o;
    }

    Outcome<Observation> update(const Target &target, const Observation &,
                                const QStringList &delta) override
    {
        const ResourceKey key = backendKey(target.resource);
        Guard guard(m_backend, key);
        ++m_backend.updates;
        m_lastDelta = delta;
        if (m_backend.onWrite)
            m_backend.onWrite(QStringLiteral("update"), key);
        if (auto e = m_backend.takeError(QStringLiteral("update"), key))
            return *e;
        QMutexLocker lock(&m_backend.mutex);
        FakeBackend::Object &obj = m_backend.objects[key.toString()];
        obj.spec = target.resource.spec;
        return observe(key, obj);
    }

    Outcome<std::optional<Observation>> deleteResource(const Target &target,
                                                       const Observation &) override
    {
        const ResourceKey key = backendKey(target.resource);
        Guard guard(m_backend, key);
        ++m_backend.deletes;
        if (m_backend.onWrite)
            m_backend.onWrite(QStringLiteral("delete"), key);
        if (auto e = m_backend.takeError(QStringLiteral("delete"), key))
            return *e;
        QMutexLocker lock(&m_backend.mutex);
        auto it = m_backend.objects.find(key.toString());
        if (it == m_backend.objects.end())
            return std::optional<Observation>();
        if (m_backend.asyncDeletePolls >= 0) {
            it->deletingPolls = m_backend.asyncDeletePolls;
            Observation o = observe(key, *it);
            o.inProgress = true;
            return std::optional<Observation>(o);
        }
        m_backend.objects.erase(it);
        return std::optional<Observation>();
    }

    /// The objects of this manager's kind whose spec.owner is the scope's direct owner, in
    /// name order, `listPageSize` per page.
    Outcome<ListPage> list(const ListScope &scope) override
    {
        ++m_backend.lists;
        int never = -1;
        m_backend.createsAtFirstList.compare_exchange_strong(never, m_backend.creates.load());
        const QString owner =
            scope.owners.isEmpty() ? QString() : scope.owners.last().metadata.name;
        if (auto e = m_backend.takeError(QStringLiteral("list"), ResourceKey{m_kind, owner}))
            return *e;
        QMutexLocker lock(&m_backend.mutex);
        QStringList names;
        const QString prefix = m_kind + QLatin1Char('/');
        for (auto it = m_backend.objects.cbegin(); it != m_backend.objects.cend(); ++it) {
            const QString ownerName = it->spec.value(QStringLiteral("owner"))
                                          .toObject()
                                          .value(QStringLiteral("name"))
                                          .toString();
            if (it.key().startsWith(prefix) && (ownerName == owner || m_backend.oneEndpoint) &&
                it->deletingPolls < 0)
                names.append(it.key().mid(prefix.size()));
        }
        names.sort();
        const int from = scope.continuation.toInt();
        if (from == m_backend.listHoldsAt.load()) {
            lock.unlock();
            m_backend.listHeld.release();
            m_backend.listReleased.acquire();
            lock.relock();
        }
        if (from > 0 && from == m_backend.listFailsFrom.load()) {
            m_backend.listFailsFrom = -1;
            return fakeError(BackendError::Category::Transient, QStringLiteral("PageLost"));
        }
        const int size = std::max(1, m_backend.listPageSize.load());
        ListPage page;
        for (int i = from; i < names.size() && i < from + size; ++i) {
            const ResourceKey key{m_kind, names.at(i)};
            Observation o = observe(key, m_backend.objects.value(key.toString()));
            if (!m_backend.listIds)
                o.resourceId.clear();
            if (!m_backend.listComplete)
                o.spec =
                    QJsonObject{{QStringLiteral("owner"), o.spec.value(QStringLiteral("owner"))}};
            page.items.append(o);
        }
        if (from + size < names.size())
            page.continuation = QString::number(from + size);
        return page;
    }
    bool listIsComplete() const override { return m_backend.listComplete; }
    bool createAdopts() const override { return m_backend.createAdopts; }

    QStringList lastDelta() const { return m_lastDelta; }

private:
    struct Guard
    {
        Guard(FakeBackend &b, const ResourceKey &k)
            : backend(b)
            , key(k)
        {
            backend.enter(key);
            if (const int ms = backend.latencyMs; ms > 0)
                QThread::msleep(ms);
        }
        ~Guard() { backend.leave(key); }
        FakeBackend &backend;
        ResourceKey key;
    };

    /// Like the real providers, the backend name is spec.azureName when set, else metadata.name.
    static ResourceKey backendKey(const Resource &resource)
    {
        const QString azureName = resource.spec.value(QStringLiteral("azureName")).toString();
        return ResourceKey{resource.kind, azureName.isEmpty() ? resource.metadata.name : azureName};
    }

    static Observation observe(const ResourceKey &key, const FakeBackend::Object &obj)
    {
        Observation o;
        o.spec = obj.spec;
        if (key.kind == QLatin1String("Widget"))
            o.spec.insert(QStringLiteral("azureName"), key.name);
        o.resourceId = QStringLiteral("fake://") + key.toString();
        o.name = key.name;
        o.requestId = QStringLiteral("fake-request");
        return o;
    }

    FakeBackend &m_backend;
    const QString m_kind;
    QStringList m_lastDelta;
};

/// Makes FakeManagers for the test kinds (Gadget is the account kind).
class FakeFactory final : public Factory
{
public:
    explicit FakeFactory(FakeBackend &backend)
        : m_backend(backend)
    {}

    QString provider() const override { return QStringLiteral("fake"); }
    void registerKinds(KindRegistry &registry) const override { registerTestKinds(registry); }
    QStringList kinds() const override
    {
        return {QStringLiteral("Gadget"), QStringLiteral("Widget")};
    }
    QStringList accountKinds() const override { return {QStringLiteral("Gadget")}; }
    Outcome<std::shared_ptr<Manager>> manager(const QString &kind, const Resource &account,
                                              const ManagerEnvironment &) override
    {
        if (account.spec.value(QStringLiteral("location")).toString() == QLatin1String("denied"))
            return fakeError(BackendError::Category::Unauthorized,
                             QStringLiteral("AuthenticationFailed"));
        return std::shared_ptr<Manager>(std::make_shared<FakeManager>(m_backend, kind));
    }

private:
    FakeBackend &m_backend;
};

} // namespace converge::test
