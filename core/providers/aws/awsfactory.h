// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "awscredentialprocess.h"
#include "awsjsonclient.h"
#include "awsrestxmlclient.h"
#include "credentials.h"
#include "declaredmanager.h"
#include "factory.h"
#include "s3objectmanager.h"
#include "servicedeclaration.h"

#include <QJsonObject>

namespace converge {

/// The AWS provider: AwsAccount, DynamoDBTable over DynamoDB's JSON 1.0 API, and the declared
/// kinds (AwsKinds::declarations()) through one DeclaredManager each, all signed with SigV4.
///
/// manager() reads the AwsAccount's spec: the endpoint (by default the region's public one) and
/// the credential, resolved on the worker thread from exactly one of `emulator: true` (fixed
/// dummy keys, loopback endpoints only), `env: true` (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
/// AWS_SESSION_TOKEN, or else the profile AWS_PROFILE names), `profile: NAME` (an AwsProfile
/// of the AWS shared files, static keys or a credential_process run through the factory's
/// AwsCredentialProcess cache; its region when the spec names none), `file: PATH` (a
/// FileCredentialStore with aws_access_key_id, aws_secret_access_key, aws_session_token) or
/// `keychain: ENTRY` (the same three names under "ENTRY/" in ManagerEnvironment::credentials).
/// Any credential problem is an Unauthorized error whose message names the alternatives and
/// never a secret.
class AwsFactory final : public Factory
{
public:
    struct Options
    {
        DeclaredManager::Options declared;
        S3ObjectManager::Options objects;
        AwsCredentialProcess::Options credentialProcess;
        /// Sees every signed request of every client the factory makes.
        AwsJsonClient::RequestObserver requestObserver;
    };

    /// What an AwsAccount's spec resolves to on the worker thread.
    struct Connection
    {
        Credentials credentials;
        QString region; ///< the spec's, else the profile's
    };

    AwsFactory();
    explicit AwsFactory(Options options);

    QString provider() const override { return QStringLiteral("aws"); }
    void registerKinds(KindRegistry &registry) const override;
    QStringList kinds() const override;
    QStringList accountKinds() const override;
    Outcome<std::shared_ptr<Manager>> manager(const QString &kind, const Resource &account,
                                              const ManagerEnvironment &env) override;

    /// The keys that `credential: {emulator: true}` stands for. Not secrets: emulators accept
    /// any key.
    static QString emulatorAccessKeyId() { return QStringLiteral("AKIACONVERGEEMULATOR"); }
    static QString emulatorSecretAccessKey()
    {
        return QStringLiteral("converge-emulator-not-a-secret");
    }

    /// The credentials and region an AwsAccount spec names. `keychain` may be null (no OS
    /// keychain); `processes` may be null (a credential_process then runs on every call).
    static Outcome<Connection> resolve(const Resource &account, CredentialStore *keychain,
                                       AwsCredentialProcess *processes = nullptr,
                                       const std::function<bool()> &isCancelled = {});
    /// Whether S3 requests of an account with `accountSpec` name the bucket in the host
    /// (s3AddressingStyle: virtual, or auto with AWS's own endpoint) rather than in the path.
    static bool virtualHosted(const QJsonObject &accountSpec, const QString &endpointPrefix);
    /// resolve()'s credentials alone.
    static Outcome<Credentials> resolveCredentials(const Resource &account,
                                                   CredentialStore *keychain);
    /// A client of `service` for the account's endpoint, region and credentials, sending
    /// through `env.http` (or through a client of its own when the account allows plain http to
    /// a remote host).
    Outcome<std::shared_ptr<AwsJsonClient>>
    client(const Resource &account, const ManagerEnvironment &env, const AwsJsonService &service);

private:
    /// What any client of the account needs: its connection, a service's endpoint, and an
    /// HttpClient of its own when the worker's cannot serve it.
    struct Link
    {
        Connection connection;
        QUrl endpoint;
        std::unique_ptr<HttpClient> own;
    };
    Outcome<Link> link(const Resource &account, const ManagerEnvironment &env,
                       const QString &endpointPrefix);
    /// The client of a declared kind's service, in its protocol.
    Outcome<std::shared_ptr<ApiCaller>> caller(const Resource &account,
                                               const ManagerEnvironment &env,
                                               const ServiceDeclaration &service,
                                               const KindDeclaration &kind);
    /// The rest-xml service of S3's declaration for `account` in `region`.
    static AwsRestXmlClient::Service restXmlService(const Resource &account,
                                                    const ServiceDeclaration &service,
                                                    const QString &region);
    /// S3Object's Manager: its caller, and a lane caller for a large file's parts.
    Outcome<std::shared_ptr<Manager>> objectManager(const Resource &account,
                                                    const ManagerEnvironment &env);
    static Outcome<Connection> resolveSource(const Resource &account, CredentialStore *keychain,
                                             AwsCredentialProcess *processes,
                                             const std::function<bool()> &isCancelled);

    Options m_options;
    std::unique_ptr<AwsCredentialProcess> m_processes;
};

} // namespace converge
