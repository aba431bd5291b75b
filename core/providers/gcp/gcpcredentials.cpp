// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "gcpcredentials.h"

#include "filecredentialstore.h"
#include "gcpkinds.h"
#include "gcpoauth.h"
#include "gcpserviceaccountkey.h"
#include "resource.h"
#include "secretreference.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QUrlQuery>

namespace converge {

namespace {

const QString gcloudRemedy =
    QStringLiteral("sign in with `gcloud auth login` (the Google Cloud CLI: the Debian package "
                   "google-cloud-cli from Google's apt repository, or cloud.google.com/sdk), then "
                   "Reconcile the project");

BackendError gcpUnauthorized(const QString &code, const QString &message)
{
    return BackendError::make(BackendError::Category::Unauthorized, code, message);
}

QString gcpAlternatives()
{
    return QStringLiteral("credential alternatives: gcloud: {}, tokenCommand: {command}, "
                          "applicationDefault: true, serviceAccountKey: {file|env|keychain}, or "
                          "emulator: true for the local emulators");
}

QString applicationDefaultPath()
{
    const QString given = qEnvironmentVariable("GOOGLE_APPLICATION_CREDENTIALS");
    if (!given.isEmpty())
        return FileCredentialStore::expandHome(given);
    const QString config = qEnvironmentVariable("CLOUDSDK_CONFIG");
    const QString folder =
        config.isEmpty() ? QDir::home().filePath(QStringLiteral(".config/gcloud")) : config;
    return QDir(folder).filePath(QStringLiteral("application_default_credentials.json"));
}

} // namespace

GcpCredentials::GcpCredentials()
    : GcpCredentials(Options{})
{}

GcpCredentials::GcpCredentials(Options options)
    : m_options(options)
    , m_commands(options.commands)
{}

Outcome<QString> GcpCredentials::token(const Resource &project, HttpClient &http,
                                       CredentialStore *keychain,
                                       const std::function<bool()> &isCancelled, bool fresh)
{
    if (GcpKinds::usesEmulators(project.spec))
        return QString();
    const QJsonObject credential = project.spec.value(QStringLiteral("credential")).toObject();
    const qint64 lifetime = qint64(m_options.commandTokenLifetime.count());
    if (credential.contains(QStringLiteral("gcloud"))) {
        TokenCommand command;
        command.argv = QStringList{QStringLiteral("gcloud"), QStringLiteral("auth"),
                                   QStringLiteral("print-access-token")};
        const QString account = credential.value(QStringLiteral("gcloud"))
                                    .toObject()
                                    .value(QStringLiteral("account"))
                                    .toString();
        if (!account.isEmpty())
            command.argv << account;
        command.description =
            QStringLiteral("the Google Cloud CLI (gcloud auth print-access-token)");
        command.remedy = gcloudRemedy;
        command.parse = TokenCommand::bareToken(lifetime);
        return fromCommand(command, fresh);
    }
    if (credential.contains(QStringLiteral("tokenCommand"))) {
        const QJsonArray argv = credential.value(QStringLiteral("tokenCommand"))
                                    .toObject()
                                    .value(QStringLiteral("command"))
                                    .toArray();
        TokenCommand command;
        for (const QJsonValue &arg : argv)
            command.argv << arg.toString();
        if (command.argv.isEmpty())
            command.argv << QString();
        command.argv.first() = FileCredentialStore::expandHome(command.argv.first());
        command.description = QStringLiteral("the token command %1").arg(command.argv.first());
        command.remedy = QStringLiteral("fix what it reports, then Reconcile the project");
        command.parse = TokenCommand::bareToken(lifetime);
        return fromCommand(command, fresh);
    }
    // A key or an ADC file is read only when a token is to be asked for: the cache is keyed by
    // where it is (a keychain read is a D-Bus call, and every request asks for a token).
    if (credential.contains(QStringLiteral("serviceAccountKey"))) {
        const QJsonObject reference =
            credential.value(QStringLiteral("serviceAccountKey")).toObject();
        const QString where =
            QString::fromUtf8(QJsonDocument(reference).toJson(QJsonDocument::Compact));
        return cached(QStringLiteral("key|") + where, fresh, [&]() -> Outcome<AccessToken> {
            const Outcome<QString> json = SecretReference::resolve(
                reference, keychain, QStringLiteral("spec.credential.serviceAccountKey"));
            if (!json)
                return gcpUnauthorized(json.error().code.isEmpty()
                                           ? QStringLiteral("CredentialUnavailable")
                                           : json.error().code,
                                       json.error().message);
            return keyExchange(json.value().toUtf8(), SecretReference::describe(reference), http,
                               isCancelled);
        });
    }
    if (credential.value(QStringLiteral("applicationDefault")).toBool()) {
        const QString path = applicationDefaultPath();
        return cached(QStringLiteral("adc|") + path, fresh,
                      [&] { return applicationDefaultExchange(path, http, isCancelled); });
    }
    return gcpUnauthorized(QStringLiteral("NoCredential"),
                           QStringLiteral("%1 is not connected: spec.credential names no "
                                          "credential; connect it (File ▸ Connect account) or "
                                          "use one of the %2")
                               .arg(project.key().toString(), gcpAlternatives()));
}

Outcome<QString> GcpCredentials::fromCommand(const TokenCommand &command, bool fresh)
{
    if (fresh)
        m_commands.forget(command);
    const Outcome<AccessToken> token = m_commands.token(command);
    if (!token)
        return gcpUnauthorized(token.error().code, token.error().message);
    return token.value().accessToken;
}

Outcome<QString> GcpCredentials::cached(const QString &key, bool fresh,
                                        const std::function<Outcome<AccessToken>()> &exchange)
{
    QMutexLocker lock(&m_mutex);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    if (fresh) {
        m_tokens.remove(key);
        m_failures.remove(key);
    }
    if (const auto it = m_tokens.constFind(key);
        it != m_tokens.constEnd() &&
        now.secsTo(it->expiresOn) > qint64(m_options.refreshBefore.count()))
        return it->accessToken;
    m_tokens.remove(key);
    if (const auto it = m_failures.constFind(key); it != m_failures.constEnd() && now < it->until)
        return it->error;
    m_failures.remove(key);
    ++m_exchanges;
    const Outcome<AccessToken> token = exchange();
    if (!token) {
        m_failures.insert(key, {token.error(), now.addSecs(qint64(m_options.failureHold.count()))});
        return token.error();
    }
    m_tokens.insert(key, token.value());
    return token.value().accessToken;
}

Outcome<AccessToken> GcpCredentials::keyExchange(const QByteArray &json, const QString &source,
                                                 HttpClient &http,
                                                 const std::function<bool()> &isCancelled)
{
    const Outcome<GcpServiceAccountKey> key = GcpServiceAccountKey::parse(json, source);
    if (!key)
        return key.error();
    const GcpServiceAccountKey &k = key.value();
    const Outcome<QByteArray> assertion = k.assertion(QDateTime::currentDateTimeUtc());
    if (!assertion)
        return assertion.error();
    QUrlQuery form;
    form.addQueryItem(QStringLiteral("grant_type"),
                      QStringLiteral("urn:ietf:params:oauth:grant-type:jwt-bearer"));
    form.addQueryItem(QStringLiteral("assertion"), QString::fromLatin1(assertion.value()));
    return GcpOAuth::exchange(
        http, QUrl(k.tokenUri), form,
        QStringLiteral("the service account key of %1 (%2)").arg(k.clientEmail, source),
        isCancelled);
}

Outcome<AccessToken>
GcpCredentials::applicationDefaultExchange(const QString &path, HttpClient &http,
                                           const std::function<bool()> &isCancelled)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return gcpUnauthorized(
            QStringLiteral("NoApplicationDefaultCredentials"),
            QStringLiteral("no Application Default Credentials at %1 (%2): run `gcloud auth "
                           "application-default login`, or set GOOGLE_APPLICATION_CREDENTIALS "
                           "to a key file")
                .arg(QDir::toNativeSeparators(path), file.errorString()));
    const QByteArray json = file.readAll();
    const QJsonObject o = QJsonDocument::fromJson(json).object();
    const QString type = o.value(QStringLiteral("type")).toString();
    const QString source = QStringLiteral("the Application Default Credentials at %1").arg(path);
    if (type == QLatin1String("service_account"))
        return keyExchange(json, source, http, isCancelled);
    if (type != QLatin1String("authorized_user"))
        return gcpUnauthorized(
            QStringLiteral("UnsupportedApplicationDefaultCredentials"),
            QStringLiteral("%1 are of type \"%2\"; Converge takes authorized_user (from `gcloud "
                           "auth application-default login`) and service_account")
                .arg(source, type));
    const QString clientId = o.value(QStringLiteral("client_id")).toString();
    const QString refreshToken = o.value(QStringLiteral("refresh_token")).toString();
    if (clientId.isEmpty() || refreshToken.isEmpty())
        return gcpUnauthorized(QStringLiteral("InvalidApplicationDefaultCredentials"),
                               QStringLiteral("%1 have no client_id or no refresh_token: run "
                                              "`gcloud auth application-default login` again")
                                   .arg(source));
    QUrlQuery form;
    form.addQueryItem(QStringLiteral("grant_type"), QStringLiteral("refresh_token"));
    form.addQueryItem(QStringLiteral("client_id"), clientId);
    form.addQueryItem(QStringLiteral("client_secret"),
                      o.value(QStringLiteral("client_secret")).toString());
    form.addQueryItem(QStringLiteral("refresh_token"), refreshToken);
    return GcpOAuth::exchange(
        http,
        QUrl(
            o.value(QStringLiteral("token_uri")).toString(GcpServiceAccountKey::defaultTokenUri())),
        form, source, isCancelled);
}

} // namespace converge
