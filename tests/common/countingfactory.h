// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

// A Factory that counts the calls its real Managers make (the calls still go to the backend):
// what the integration tests check "no write" and "one list walk" with.

#include "factory.h"
#include "manager.h"

#include <atomic>
#include <memory>

namespace converge::test {

/// Calls made through the Managers of a CountingFactory, by operation.
struct CallCounts
{
    std::atomic<int> gets{0}, creates{0}, updates{0}, deletes{0}, lists{0};
    int writes() const { return creates + updates + deletes; }
};

/// Forwards to a real Manager and counts.
class CountingManager final : public Manager
{
public:
    CountingManager(std::shared_ptr<Manager> inner, CallCounts &counts)
        : m_inner(std::move(inner))
        , m_counts(counts)
    {}
    Outcome<Observation> get(const Target &t) override
    {
        ++m_counts.gets;
        return m_inner->get(t);
    }
    Outcome<Observation> create(const Target &t) override
    {
        ++m_counts.creates;
        return m_inner->create(t);
    }
    Outcome<Observation> update(const Target &t, const Observation &l,
                                const QStringList &d) override
    {
        ++m_counts.updates;
        return m_inner->update(t, l, d);
    }
    Outcome<std::optional<Observation>> deleteResource(const Target &t,
                                                       const Observation &l) override
    {
        ++m_counts.deletes;
        return m_inner->deleteResource(t, l);
    }
    Outcome<ListPage> list(const ListScope &s) override
    {
        ++m_counts.lists;
        return m_inner->list(s);
    }
    // What the engine asks of a Manager besides its calls, as the real one answers it (a
    // wrapper that said "incomplete" would hide the resyncs by list pages).
    bool listIsComplete() const override { return m_inner->listIsComplete(); }
    Outcome<Observation> fromListing(const Target &t, Observation item) override
    {
        return m_inner->fromListing(t, std::move(item));
    }
    bool dependsOnLocalFiles(const Resource &r) const override
    {
        return m_inner->dependsOnLocalFiles(r);
    }
    bool createAdopts() const override { return m_inner->createAdopts(); }

private:
    std::shared_ptr<Manager> m_inner;
    CallCounts &m_counts;
};

/// A real Factory whose Managers of every kind but its accounts are wrapped to count their calls.
class CountingFactory final : public Factory
{
public:
    CountingFactory(CallCounts &counts, std::unique_ptr<Factory> inner)
        : m_inner(std::move(inner))
        , m_counts(counts)
    {}
    QString provider() const override { return m_inner->provider(); }
    void registerKinds(KindRegistry &registry) const override { m_inner->registerKinds(registry); }
    QStringList kinds() const override { return m_inner->kinds(); }
    QStringList accountKinds() const override { return m_inner->accountKinds(); }
    Outcome<std::shared_ptr<Manager>> manager(const QString &kind, const Resource &account,
                                              const ManagerEnvironment &env) override
    {
        auto made = m_inner->manager(kind, account, env);
        if (!made || m_inner->accountKinds().contains(kind))
            return made;
        return std::shared_ptr<Manager>(std::make_shared<CountingManager>(made.value(), m_counts));
    }

private:
    std::unique_ptr<Factory> m_inner;
    CallCounts &m_counts;
};

} // namespace converge::test
