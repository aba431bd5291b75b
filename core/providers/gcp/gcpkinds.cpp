// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "gcpkinds.h"

#include "declaredservices.h"
#include "httpclient.h"
#include "kindregistry.h"
#include "secretreferencefield.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QUrl>

namespace converge {

namespace {

using F = FieldSchema;

QString checkGcpEndpoint(const QJsonValue &value)
{
    const QUrl url(value.toString(), QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || url.host().isEmpty() ||
        (scheme != QLatin1String("https") && scheme != QLatin1String("http")))
        return QStringLiteral("must be an http or https URL, e.g. https://pubsub.googleapis.com "
                              "or http://127.0.0.1:8085");
    if (!url.userInfo().isEmpty() || url.hasQuery() || url.hasFragment() ||
        (!url.path().isEmpty() && url.path() != QLatin1String("/")))
        return QStringLiteral("must be a scheme, a host and a port only, without a path, a user, "
                              "a query or a fragment");
    if (scheme == QLatin1String("http") && !HttpClient::isLoopbackHost(url.host()))
        return QStringLiteral("a plain http endpoint on another host sends the access token "
                              "unencrypted: use https");
    return QString();
}

QString checkGcpCredential(const QJsonValue &value)
{
    const QJsonObject o = value.toObject();
    // `credential: {}` is a project not connected yet (one a Config Connector import brought).
    if (o.isEmpty())
        return QString();
    if (o.size() != 1)
        return QStringLiteral("give exactly one of emulator: true, gcloud: {}, tokenCommand: "
                              "{command}, applicationDefault: true, serviceAccountKey: "
                              "{file|env|keychain}");
    for (const char *key : {"emulator", "applicationDefault"}) {
        if (o.contains(QLatin1String(key)) && !o.value(QLatin1String(key)).toBool())
            return QStringLiteral("%1: false means nothing; leave it out and name the credential "
                                  "to use")
                .arg(QLatin1String(key));
    }
    return QString();
}

QString checkGcpProject(const QJsonValue &value)
{
    const QJsonObject spec = value.toObject();
    if (!GcpKinds::usesEmulators(spec))
        return QString();
    // An emulator takes no credential: a project on Google's endpoints would be asked without
    // one, and its answers would say nothing of what is wrong.
    const QJsonObject endpoints = spec.value(QStringLiteral("endpoints")).toObject();
    if (endpoints.isEmpty())
        return QStringLiteral("credential emulator: true is only for the local emulators: give "
                              "endpoints (e.g. pubsub: http://127.0.0.1:8085) on this machine");
    for (auto it = endpoints.begin(); it != endpoints.end(); ++it) {
        if (!HttpClient::isLoopbackHost(QUrl(it.value().toString()).host()))
            return QStringLiteral("credential emulator: true is only for the local emulators: "
                                  "endpoints.%1 must be a loopback address (127.0.0.1, ::1, "
                                  "localhost)")
                .arg(it.key());
    }
    return QString();
}

} // namespace

Kind GcpKinds::project()
{
    Kind kind;
    kind.group = group();
    kind.version = version();
    kind.name = projectKind();
    kind.description = QStringLiteral(
        "A connection to one Google Cloud project: its ID, the service endpoints and where the "
        "access token comes from. Ready says whether Pub/Sub's endpoint answers an authorized "
        "list of the project's topics. Removing it deletes nothing in Google Cloud.");

    F endpoints = F::object(
        QStringLiteral("endpoints"),
        {F::string(QStringLiteral("pubsub"),
                   QStringLiteral("Pub/Sub's endpoint; https://pubsub.googleapis.com by default, "
                                  "http://127.0.0.1:8085 for the emulator."))
             .setCheck(checkGcpEndpoint),
         F::string(QStringLiteral("spanner"),
                   QStringLiteral("Spanner's endpoint; https://spanner.googleapis.com by "
                                  "default, the emulator's REST gateway (http://127.0.0.1:9020) "
                                  "for local use."))
             .setCheck(checkGcpEndpoint)},
        QStringLiteral("Endpoint URLs of single services; Google's own where left out."));

    F credential = F::object(
        QStringLiteral("credential"),
        {F::boolean(QStringLiteral("emulator"),
                    QStringLiteral("No credential, for Google's local emulators; only with "
                                   "loopback endpoints.")),
         F::object(QStringLiteral("gcloud"),
                   {F::string(QStringLiteral("account"),
                              QStringLiteral("The signed-in account to use; gcloud's active "
                                             "one when left out."))
                        .setLength(1, 320)},
                   QStringLiteral("The access token `gcloud auth print-access-token` prints for "
                                  "a user signed in with `gcloud auth login`; asked for again "
                                  "before it expires.")),
         F::object(QStringLiteral("tokenCommand"),
                   {F::list(QStringLiteral("command"),
                            F::string(QStringLiteral("argument")).setLength(0, 4096),
                            QStringLiteral("The program and its arguments (no shell); '~/' "
                                           "in the program means the home folder."))
                        .setRequired()
                        .setCheck([](const QJsonValue &v) {
                            return v.toArray().isEmpty() || v.toArray().first().toString().isEmpty()
                                       ? QStringLiteral("needs the program first")
                                       : QString();
                        })},
                   QStringLiteral("A program that prints an access token on one line, as "
                                  "`gcloud auth print-access-token` does; run again every 45 "
                                  "minutes or when the token is refused, never stored.")),
         F::boolean(QStringLiteral("applicationDefault"),
                    QStringLiteral("Application Default Credentials: the file "
                                   "GOOGLE_APPLICATION_CREDENTIALS names, else "
                                   "~/.config/gcloud/application_default_credentials.json "
                                   "(written by `gcloud auth application-default login`): an "
                                   "authorized user's refresh token or a service account key.")),
         SecretReferenceField::make(QStringLiteral("serviceAccountKey"),
                                    QStringLiteral("A service account's JSON key: Converge signs a "
                                                   "token request with it (RS256) and exchanges it "
                                                   "at the key's token_uri."))},
        QStringLiteral("Where the access token comes from: exactly one of emulator, gcloud, "
                       "tokenCommand, applicationDefault, serviceAccountKey; {} for a project "
                       "not connected yet. Tokens and keys never enter the workspace."));
    credential.setRequired().setCheck(checkGcpCredential);

    kind.spec = F::object(
        QStringLiteral("spec"),
        {F::string(QStringLiteral("projectId"),
                   QStringLiteral("The project's ID, e.g. my-project-123 (not its number or "
                                  "display name)."))
             .setRequired()
             .setLength(6, 30)
             .setPattern(QStringLiteral("[a-z][a-z0-9-]*[a-z0-9]"),
                         QStringLiteral("lower-case letters, digits and '-', starting with a "
                                        "letter and not ending with '-'")),
         endpoints, credential});
    kind.spec.setCheck(checkGcpProject);
    return kind;
}

QString GcpKinds::defaultEndpoint(const QString &service)
{
    return QStringLiteral("https://%1.googleapis.com").arg(service);
}

QString GcpKinds::endpoint(const QJsonObject &projectSpec, const QString &service)
{
    const QString given =
        projectSpec.value(QStringLiteral("endpoints")).toObject().value(service).toString();
    return given.isEmpty() ? defaultEndpoint(service) : given;
}

bool GcpKinds::usesEmulators(const QJsonObject &projectSpec)
{
    return projectSpec.value(QStringLiteral("credential"))
        .toObject()
        .value(QStringLiteral("emulator"))
        .toBool();
}

bool GcpKinds::reaches(const QJsonObject &projectSpec, const QString &service)
{
    return !usesEmulators(projectSpec) || !projectSpec.value(QStringLiteral("endpoints"))
                                               .toObject()
                                               .value(service)
                                               .toString()
                                               .isEmpty();
}

const DeclaredServices &GcpKinds::declared()
{
    static const DeclaredServices services(QStringLiteral(":/kinds/gcp"), group(), version(),
                                           projectKind());
    return services;
}

void GcpKinds::registerKinds(KindRegistry &registry)
{
    registry.add(project());
    for (const ServiceDeclaration &service : declared().services()) {
        for (const KindDeclaration &declaredKind : service.kinds)
            registry.add(declaredKind.kind);
    }
}

} // namespace converge
