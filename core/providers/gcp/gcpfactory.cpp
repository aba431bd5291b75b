// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "gcpfactory.h"

#include "declaredservices.h"
#include "gcpkinds.h"
#include "gcpprojectmanager.h"
#include "gcprestclient.h"
#include "httpclient.h"
#include "resource.h"

namespace converge {

GcpFactory::GcpFactory()
    : GcpFactory(Options{})
{}

GcpFactory::GcpFactory(Options options)
    : m_options(std::move(options))
    , m_credentials(std::make_shared<GcpCredentials>(m_options.credentials))
{}

void GcpFactory::registerKinds(KindRegistry &registry) const
{
    GcpKinds::registerKinds(registry);
}

QStringList GcpFactory::kinds() const
{
    return QStringList{GcpKinds::projectKind()} + GcpKinds::declared().kindNames();
}

QStringList GcpFactory::accountKinds() const
{
    return {GcpKinds::projectKind()};
}

std::shared_ptr<GcpSession>
GcpFactory::session(const Resource &project, const ManagerEnvironment &env, const QString &service)
{
    // CredentialStore::read() is not const although looking a secret up changes nothing we
    // own; the environment hands the store out as const.
    auto *keychain = const_cast<CredentialStore *>(env.credentials);
    auto token = [credentials = m_credentials, project, http = env.http, keychain,
                  cancelled = env.isCancelled](bool fresh) {
        return credentials->token(project, *http, keychain, cancelled, fresh);
    };
    auto session =
        std::make_shared<GcpSession>(env.http, QUrl(GcpKinds::endpoint(project.spec, service)),
                                     std::move(token), env.isCancelled);
    if (m_options.requestObserver)
        session->setRequestObserver(m_options.requestObserver);
    return session;
}

Outcome<std::shared_ptr<Manager>> GcpFactory::manager(const QString &kind, const Resource &account,
                                                      const ManagerEnvironment &env)
{
    if (account.kind != GcpKinds::projectKind())
        return BackendError::make(
            BackendError::Category::Invalid, QStringLiteral("WrongAccountKind"),
            QStringLiteral("%1 needs a GcpProject as its owner, not a %2").arg(kind, account.kind));
    if (!env.http)
        return BackendError::make(BackendError::Category::Terminal, QStringLiteral("NoHttpClient"),
                                  QStringLiteral("no HTTP client on this thread"));
    if (kind == GcpKinds::projectKind()) {
        const auto probe = GcpProjectManager::probeFor(account.spec);
        return std::shared_ptr<Manager>(std::make_shared<GcpProjectManager>(
            session(account, env, GcpProjectManager::serviceOf(probe)), probe));
    }
    if (const KindDeclaration *declared = GcpKinds::declared().declaration(kind)) {
        const ServiceDeclaration *service = GcpKinds::declared().serviceOf(kind);
        // A project on the emulators reaches only the services it names (a listing of the
        // project would otherwise reach out to Google for every service it does not run).
        if (!GcpKinds::reaches(account.spec, service->endpointPrefix))
            return BackendError::make(
                BackendError::Category::Invalid, QStringLiteral("NoEmulatorEndpoint"),
                QStringLiteral("%1 needs endpoints.%2 in GcpProject %3: its credential is "
                               "emulator: true, which reaches only the endpoints it names")
                    .arg(kind, service->endpointPrefix, account.metadata.name));
        auto caller = std::make_shared<GcpRestClient>(
            service->operations, account.spec.value(QStringLiteral("projectId")).toString(),
            session(account, env, service->endpointPrefix));
        return std::shared_ptr<Manager>(std::make_shared<DeclaredManager>(
            *declared, std::move(caller), m_options.declared, env.credentials));
    }
    return BackendError::make(BackendError::Category::Terminal, QStringLiteral("UnknownKind"),
                              QStringLiteral("the Google Cloud provider has no kind %1").arg(kind));
}

} // namespace converge
