// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "factory.h"

#include <memory>
#include <vector>

namespace converge {

/// The providers this process has, built in app/ (or a test) and handed to the engine.
class FactoryRegistry final
{
public:
    void add(std::unique_ptr<Factory> factory) { m_factories.push_back(std::move(factory)); }

    /// The factory that makes Managers for `kind`, or nullptr.
    Factory *factoryFor(const QString &kind) const
    {
        for (const auto &f : m_factories) {
            if (f->kinds().contains(kind))
                return f.get();
        }
        return nullptr;
    }

    bool isAccountKind(const QString &kind) const
    {
        for (const auto &f : m_factories) {
            if (f->accountKinds().contains(kind))
                return true;
        }
        return false;
    }

    void registerKinds(KindRegistry &registry) const
    {
        for (const auto &f : m_factories)
            f->registerKinds(registry);
    }

private:
    std::vector<std::unique_ptr<Factory>> m_factories;
};

} // namespace converge
