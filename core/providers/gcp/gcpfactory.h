// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "declaredmanager.h"
#include "factory.h"
#include "gcpcredentials.h"
#include "gcpsession.h"

#include <memory>

namespace converge {

/// The Google Cloud provider: GcpProject, whose credential (GcpCredentials, shared by every
/// worker) gives the bearer token of each request, sent through a GcpSession per service; and
/// the declared kinds (GcpKinds::declared()), one DeclaredManager each over a GcpRestClient.
class GcpFactory final : public Factory
{
public:
    struct Options
    {
        GcpCredentials::Options credentials;
        DeclaredManager::Options declared;
        /// Sees every request of every session the factory makes (tests count them).
        GcpSession::RequestObserver requestObserver;
    };

    GcpFactory();
    explicit GcpFactory(Options options);

    QString provider() const override { return QStringLiteral("gcp"); }
    void registerKinds(KindRegistry &registry) const override;
    QStringList kinds() const override;
    QStringList accountKinds() const override;
    Outcome<std::shared_ptr<Manager>> manager(const QString &kind, const Resource &account,
                                              const ManagerEnvironment &env) override;

    /// A session with `service` (pubsub, spanner) of `project`, its token from the project's
    /// credential.
    std::shared_ptr<GcpSession> session(const Resource &project, const ManagerEnvironment &env,
                                        const QString &service);
    GcpCredentials &credentials() { return *m_credentials; }

private:
    Options m_options;
    std::shared_ptr<GcpCredentials> m_credentials;
};

} // namespace converge
