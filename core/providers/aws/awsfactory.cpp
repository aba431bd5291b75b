// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "awsfactory.h"

#include "awsaccountmanager.h"
#include "awsjsonclient.h"
#include "awskinds.h"
#include "awsprofile.h"
#include "awsqueryclient.h"
#include "awsrestjsonclient.h"
#include "awsrestxmlclient.h"
#include "declaredmanager.h"
#include "envcredentialstore.h"
#include "filecredentialstore.h"
#include "httpclient.h"
#include "s3objectkind.h"
#include "s3objectmanager.h"

#include <algorithm>

namespace converge {

namespace {

const QString accessKeyIdName = QStringLiteral("aws_access_key_id");
const QString secretName = QStringLiteral("aws_secret_access_key");
const QString tokenName = QStringLiteral("aws_session_token");

QString alternatives()
{
    return QStringLiteral("credential alternatives: env: true (AWS_ACCESS_KEY_ID and "
                          "AWS_SECRET_ACCESS_KEY, or AWS_PROFILE), profile: NAME, file: PATH, "
                          "keychain: ENTRY, or emulator: true for a local emulator");
}

BackendError unauthorized(const Resource &account, const QString &code, const QString &message)
{
    BackendError error;
    error.category = BackendError::Category::Unauthorized;
    error.code = code;
    error.message = QStringLiteral("%1: %2").arg(account.key().toString(), message);
    return error;
}

// Reads the three parts from one store; the session token is optional.
Outcome<Credentials> readKeys(const Resource &account, CredentialStore &store,
                              const QString &keyIdName, const QString &secretKeyName,
                              const QString &sessionTokenName)
{
    QStringList values;
    for (const QString &name : {keyIdName, secretKeyName, sessionTokenName}) {
        BackendError error;
        const std::optional<QString> value = store.read(name, &error);
        if (!value) {
            if (name == sessionTokenName && error.category == BackendError::Category::NotFound) {
                values << QString();
                continue;
            }
            return unauthorized(
                account,
                error.code.isEmpty() ? QStringLiteral("CredentialUnavailable") : error.code,
                error.message + QStringLiteral(" (") + alternatives() + QLatin1Char(')'));
        }
        values << value->trimmed();
    }
    return Credentials::aws(values.at(0), values.at(1), values.at(2));
}

// Whether every endpoint the account may send to is on this machine: `endpoint`, which serves
// every service `endpoints` does not name, and each of those.
bool onlyLoopback(const QJsonObject &spec)
{
    if (!HttpClient::isLoopbackHost(QUrl(spec.value(QStringLiteral("endpoint")).toString()).host()))
        return false;
    const QJsonObject endpoints = spec.value(QStringLiteral("endpoints")).toObject();
    return std::all_of(endpoints.begin(), endpoints.end(), [](const QJsonValue &url) {
        return HttpClient::isLoopbackHost(QUrl(url.toString()).host());
    });
}

// Static keys, or the answer of the profile's credential_process; the profile's region comes
// along for a spec that names none.
Outcome<AwsFactory::Connection> fromProfile(const Resource &account, const QString &name,
                                            AwsCredentialProcess *processes,
                                            const std::function<bool()> &isCancelled)
{
    const auto profile = AwsProfile::load(name, AwsProfile::filesFromEnvironment());
    if (!profile)
        return unauthorized(account, profile.error().code, profile.error().message);
    AwsFactory::Connection connection;
    connection.region = profile.value().region();
    const QString command = profile.value().credentialProcess();
    if (command.isEmpty()) {
        connection.credentials = profile.value().staticCredentials();
        return connection;
    }
    AwsCredentialProcess once;
    auto answer = (processes ? processes : &once)->credentials(name, command, isCancelled);
    if (!answer)
        return unauthorized(account, answer.error().code, answer.error().message);
    connection.credentials = answer.value();
    return connection;
}

} // namespace

AwsFactory::AwsFactory()
    : AwsFactory(Options{})
{}

AwsFactory::AwsFactory(Options options)
    : m_options(std::move(options))
    , m_processes(std::make_unique<AwsCredentialProcess>(m_options.credentialProcess))
{}

void AwsFactory::registerKinds(KindRegistry &registry) const
{
    AwsKinds::registerKinds(registry);
}

QStringList AwsFactory::kinds() const
{
    return QStringList{AwsKinds::accountKind(), S3ObjectKind::name()} + AwsKinds::declaredKinds();
}

QStringList AwsFactory::accountKinds() const
{
    return {AwsKinds::accountKind()};
}

Outcome<Credentials> AwsFactory::resolveCredentials(const Resource &account,
                                                    CredentialStore *keychain)
{
    auto resolved = resolve(account, keychain);
    if (!resolved)
        return resolved.error();
    return resolved.value().credentials;
}

Outcome<AwsFactory::Connection> AwsFactory::resolve(const Resource &account,
                                                    CredentialStore *keychain,
                                                    AwsCredentialProcess *processes,
                                                    const std::function<bool()> &isCancelled)
{
    Outcome<Connection> connection = resolveSource(account, keychain, processes, isCancelled);
    if (!connection)
        return connection;
    const QString region = account.spec.value(QStringLiteral("region")).toString();
    if (!region.isEmpty())
        connection.value().region = region;
    if (connection.value().region.isEmpty()) {
        BackendError error = unauthorized(
            account, QStringLiteral("NoRegion"),
            QStringLiteral("the AwsAccount names no region, and its profile has none either: set "
                           "spec.region or the profile's region"));
        error.category = BackendError::Category::Invalid;
        return error;
    }
    return connection;
}

Outcome<AwsFactory::Connection> AwsFactory::resolveSource(const Resource &account,
                                                          CredentialStore *keychain,
                                                          AwsCredentialProcess *processes,
                                                          const std::function<bool()> &isCancelled)
{
    auto keysOnly = [](Outcome<Credentials> credentials) -> Outcome<Connection> {
        if (!credentials)
            return credentials.error();
        return Connection{credentials.value(), QString()};
    };
    const QJsonObject credential = account.spec.value(QStringLiteral("credential")).toObject();
    if (credential.value(QStringLiteral("emulator")).toBool()) {
        // The schema says so too; checked again because dummy keys must never reach AWS.
        if (!onlyLoopback(account.spec))
            return unauthorized(account, QStringLiteral("EmulatorCredentialNotLocal"),
                                QStringLiteral("credential emulator: true is only for an "
                                               "endpoint on this machine; ") +
                                    alternatives());
        return keysOnly(Credentials::aws(emulatorAccessKeyId(), emulatorSecretAccessKey()));
    }
    if (credential.contains(QStringLiteral("profile")))
        return fromProfile(account, credential.value(QStringLiteral("profile")).toString(),
                           processes, isCancelled);
    if (credential.value(QStringLiteral("env")).toBool()) {
        // As the AWS CLI: keys in the environment win over a profile named there.
        const QString profile = qEnvironmentVariable("AWS_PROFILE");
        if (qEnvironmentVariableIsEmpty("AWS_ACCESS_KEY_ID") && !profile.isEmpty())
            return fromProfile(account, profile, processes, isCancelled);
        EnvCredentialStore store;
        return keysOnly(readKeys(account, store, QStringLiteral("AWS_ACCESS_KEY_ID"),
                                 QStringLiteral("AWS_SECRET_ACCESS_KEY"),
                                 QStringLiteral("AWS_SESSION_TOKEN")));
    }
    if (credential.contains(QStringLiteral("file"))) {
        FileCredentialStore store(
            FileCredentialStore::expandHome(credential.value(QStringLiteral("file")).toString()));
        return keysOnly(readKeys(account, store, accessKeyIdName, secretName, tokenName));
    }
    if (credential.contains(QStringLiteral("keychain"))) {
        if (!keychain)
            return unauthorized(account, QStringLiteral("KeychainUnavailable"),
                                QStringLiteral("no OS keychain is available to this process; ") +
                                    alternatives());
        const QString entry = credential.value(QStringLiteral("keychain")).toString();
        const QString prefix = entry + QLatin1Char('/');
        return keysOnly(readKeys(account, *keychain, prefix + accessKeyIdName, prefix + secretName,
                                 prefix + tokenName));
    }
    return unauthorized(account, QStringLiteral("NoCredential"),
                        QStringLiteral("the AwsAccount is not connected: spec.credential names "
                                       "no credential; connect it (File ▸ Connect account) or "
                                       "use one of the ") +
                            alternatives());
}

bool AwsFactory::virtualHosted(const QJsonObject &accountSpec, const QString &endpointPrefix)
{
    const QString style = accountSpec.value(QStringLiteral("s3AddressingStyle")).toString();
    if (style == QLatin1String("virtual") || style == QLatin1String("path"))
        return style == QLatin1String("virtual");
    // auto: AWS's own endpoint takes the bucket in its host; an endpoint set for an emulator or
    // an S3-compatible server seldom resolves BUCKET.HOST.
    return !accountSpec.value(QStringLiteral("endpoints")).toObject().contains(endpointPrefix) &&
           !accountSpec.contains(QStringLiteral("endpoint"));
}

Outcome<AwsFactory::Link> AwsFactory::link(const Resource &account, const ManagerEnvironment &env,
                                           const QString &endpointPrefix)
{
    // CredentialStore::read() is not const although looking a secret up changes nothing we
    // own; the environment hands the store out as const.
    auto connection = resolve(account, const_cast<CredentialStore *>(env.credentials),
                              m_processes.get(), env.isCancelled);
    if (!connection)
        return connection.error();
    Link link;
    link.connection = connection.value();
    link.endpoint = AwsEndpoint::of(account.spec, endpointPrefix, link.connection.region);

    // HttpClient refuses plain http to remote hosts unless its own option says otherwise, and
    // the worker's client is shared: an account that allows it gets a client of its own, made
    // here on the worker thread that will use it.
    const bool insecureRemote = link.endpoint.scheme().toLower() == QLatin1String("http") &&
                                !HttpClient::isLoopbackHost(link.endpoint.host());
    if (insecureRemote && account.spec.value(QStringLiteral("allowInsecureHttp")).toBool()) {
        HttpClient::Options options;
        options.allowInsecureHttp = true;
        link.own = std::make_unique<HttpClient>(options);
    } else if (!env.http) {
        link.own = std::make_unique<HttpClient>();
    }
    return link;
}

Outcome<std::shared_ptr<AwsJsonClient>> AwsFactory::client(const Resource &account,
                                                           const ManagerEnvironment &env,
                                                           const AwsJsonService &service)
{
    auto made = link(account, env, service.endpointPrefix);
    if (!made)
        return made.error();
    Link &l = made.value();
    auto client = std::make_shared<AwsJsonClient>(service, env.http, l.endpoint,
                                                  l.connection.region, l.connection.credentials,
                                                  env.isCancelled, std::move(l.own));
    if (m_options.requestObserver)
        client->setRequestObserver(m_options.requestObserver);
    return client;
}

Outcome<std::shared_ptr<ApiCaller>> AwsFactory::caller(const Resource &account,
                                                       const ManagerEnvironment &env,
                                                       const ServiceDeclaration &service,
                                                       const KindDeclaration &kind)
{
    if (service.protocol == QLatin1String("json")) {
        auto json = client(account, env,
                           {service.signingName, service.targetPrefix, service.jsonVersion,
                            service.endpointPrefix});
        if (!json)
            return json.error();
        return std::shared_ptr<ApiCaller>(json.value());
    }
    auto made = link(account, env, service.endpointPrefix);
    if (!made)
        return made.error();
    Link &l = made.value();
    if (service.protocol == QLatin1String("rest-xml")) {
        auto client = std::make_shared<AwsRestXmlClient>(
            restXmlService(account, service, l.connection.region), env.http, l.endpoint,
            l.connection.region, l.connection.credentials, env.isCancelled, std::move(l.own));
        if (m_options.requestObserver)
            client->setRequestObserver(m_options.requestObserver);
        return std::shared_ptr<ApiCaller>(client);
    }
    if (service.protocol == QLatin1String("rest-json")) {
        auto client = std::make_shared<AwsRestJsonClient>(
            AwsRestJsonClient::Service{service.signingName, {service.operations, service.shapes}},
            env.http, l.endpoint, l.connection.region, l.connection.credentials, env.isCancelled,
            std::move(l.own));
        if (m_options.requestObserver)
            client->setRequestObserver(m_options.requestObserver);
        return std::shared_ptr<ApiCaller>(client);
    }
    AwsQueryClient::Service query{service.signingName, service.apiVersion, {}};
    if (!kind.attributesMember.isEmpty())
        query.mapMembers << kind.attributesMember;
    if (kind.tags.isDeclared() && !kind.tags.addShape.isList)
        query.mapMembers << kind.tags.addMember;
    auto client = std::make_shared<AwsQueryClient>(query, env.http, l.endpoint, l.connection.region,
                                                   l.connection.credentials, env.isCancelled,
                                                   std::move(l.own));
    if (m_options.requestObserver)
        client->setRequestObserver(m_options.requestObserver);
    return std::shared_ptr<ApiCaller>(client);
}

AwsRestXmlClient::Service AwsFactory::restXmlService(const Resource &account,
                                                     const ServiceDeclaration &service,
                                                     const QString &region)
{
    AwsRestXmlClient::Service rest{service.signingName,
                                   {service.operations, service.shapes},
                                   virtualHosted(account.spec, service.endpointPrefix),
                                   {}};
    // A bucket in another region is followed there on AWS's own endpoints only: an endpoint the
    // account sets is the only host its credentials go to.
    if (AwsEndpoint::of(account.spec, service.endpointPrefix, region) ==
        AwsEndpoint::defaultFor(service.endpointPrefix, region))
        rest.regionalEndpoint = [prefix = service.endpointPrefix](const QString &to) {
            return AwsEndpoint::defaultFor(prefix, to);
        };
    return rest;
}

Outcome<std::shared_ptr<Manager>> AwsFactory::objectManager(const Resource &account,
                                                            const ManagerEnvironment &env)
{
    // Objects speak S3's rest-xml, through the model the s3 declaration carries: the worker's
    // client, and one of its own for each lane of a large file's parts, made on the lane's
    // thread. The endpoint, region and credentials are resolved here, once, for all of them.
    const ServiceDeclaration &service = *AwsKinds::serviceOf(S3ObjectKind::bucketKind());
    auto made = link(account, env, service.endpointPrefix);
    if (!made)
        return made.error();
    Link &l = made.value();
    const auto client = [rest = restXmlService(account, service, l.connection.region),
                         endpoint = l.endpoint, region = l.connection.region,
                         credentials = l.connection.credentials, isCancelled = env.isCancelled,
                         observer = m_options.requestObserver](HttpClient *http,
                                                               std::unique_ptr<HttpClient> own) {
        auto s3 = std::make_shared<AwsRestXmlClient>(rest, http, endpoint, region, credentials,
                                                     isCancelled, std::move(own));
        if (observer)
            s3->setRequestObserver(observer);
        return std::shared_ptr<ApiCaller>(s3);
    };
    const HttpClient *base = l.own ? l.own.get() : env.http;
    S3MultipartUpload::LaneCaller lanes = [client, options = base ? base->options()
                                                                  : HttpClient::Options()] {
        auto own = std::make_unique<HttpClient>(options);
        HttpClient *http = own.get();
        return client(http, std::move(own));
    };
    return std::shared_ptr<Manager>(std::make_shared<S3ObjectManager>(
        client(env.http, std::move(l.own)), m_options.objects, std::move(lanes)));
}

Outcome<std::shared_ptr<Manager>> AwsFactory::manager(const QString &kind, const Resource &account,
                                                      const ManagerEnvironment &env)
{
    if (account.kind != AwsKinds::accountKind()) {
        BackendError error;
        error.category = BackendError::Category::Invalid;
        error.code = QStringLiteral("WrongAccountKind");
        error.message =
            QStringLiteral("%1 needs an AwsAccount as its owner, not a %2").arg(kind, account.kind);
        return error;
    }
    if (const KindDeclaration *declared = AwsKinds::declaration(kind)) {
        const ServiceDeclaration *service = AwsKinds::serviceOf(kind);
        auto made = caller(account, env, *service, *declared);
        if (!made)
            return made.error();
        return std::shared_ptr<Manager>(std::make_shared<DeclaredManager>(
            *declared, made.value(), m_options.declared, env.credentials));
    }
    if (kind == S3ObjectKind::name())
        return objectManager(account, env);
    auto made = client(account, env, AwsJsonService::dynamoDb());
    if (!made)
        return made.error();
    if (kind == AwsKinds::accountKind())
        return std::shared_ptr<Manager>(std::make_shared<AwsAccountManager>(made.value()));
    BackendError error;
    error.category = BackendError::Category::Terminal;
    error.code = QStringLiteral("UnknownKind");
    error.message = QStringLiteral("the AWS provider has no kind %1").arg(kind);
    return error;
}

} // namespace converge
