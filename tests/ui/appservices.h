// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "awsfactory.h"
#include "azurefactory.h"
#include "clock.h"
#include "factoryregistry.h"
#include "genericreconciler.h"
#include "kindregistry.h"

#include <memory>

namespace converge::test {

/// The services app/services.cpp builds for the window's end-to-end tests, without the OS
/// keychain (their manifests use the emulator credential).
struct AppServices
{
    /// `azure` lets a test watch the requests (AzureFactory::Options::requestObserver).
    explicit AppServices(AzureFactory::Options azure = {})
        : reconciler(kinds)
    {
        factories.add(std::make_unique<AzureFactory>(std::move(azure)));
        factories.add(std::make_unique<AwsFactory>());
        factories.registerKinds(kinds);
    }

    KindRegistry kinds;
    FactoryRegistry factories;
    GenericReconciler reconciler;
    SystemClock clock;
};

} // namespace converge::test
