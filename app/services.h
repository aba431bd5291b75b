// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "clock.h"
#include "controller.h"
#include "factoryregistry.h"
#include "genericreconciler.h"
#include "keychaincredentialstore.h"
#include "kindregistry.h"

#include <QString>

#include <memory>

namespace converge {

/// The services both front ends use, built once in main() and passed by reference to the window
/// and the CLI (there are no singletons): the kinds and providers (Azure Storage, DynamoDB), the
/// generic reconciler, the wall clock, the OS keychain and the controller's options.
class Services final
{
public:
    Services();
    ~Services();
    Q_DISABLE_COPY_MOVE(Services)

    const KindRegistry &kinds() const { return m_kinds; }
    const FactoryRegistry &factories() const { return m_factories; }
    Reconciler &reconciler() { return m_reconciler; }
    Clock &clock() { return m_clock; }
    /// The OS keychain, for credentials that name one (`keychain: ENTRY`).
    const CredentialStore *credentials() const { return &m_keychain; }
    /// The same keychain, writable: the window's connect dialog stores account secrets in it.
    CredentialStore *keychain() { return &m_keychain; }

    Controller::Options controllerOptions() const { return m_controllerOptions; }
    void setControllerOptions(const Controller::Options &options) { m_controllerOptions = options; }

    /// A controller for the workspace at `workspacePath`, on these services (which must outlive
    /// it). Not started. Run one per workspace only while holding its ControllerLock.
    std::unique_ptr<Controller> makeController(const QString &workspacePath,
                                               QObject *parent = nullptr);

    /// The workspace to open: `given` when not empty, else $CONVERGE_WORKSPACE, else
    /// default.converge in the application data folder (created when missing). Absolute.
    static QString workspacePath(const QString &given = {});

private:
    KindRegistry m_kinds;
    FactoryRegistry m_factories;
    GenericReconciler m_reconciler; // refers to m_kinds
    SystemClock m_clock;
    KeychainCredentialStore m_keychain;
    Controller::Options m_controllerOptions;
};

} // namespace converge
