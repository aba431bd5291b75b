// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "awskinds.h"

#include "declaredservices.h"
#include "dynamodbtablerules.h"
#include "httpclient.h"
#include "kindregistry.h"
#include "s3objectkind.h"

#include <QJsonObject>
#include <QUrl>

#include <algorithm>

namespace converge {

namespace {

using F = FieldSchema;

QString checkEndpoint(const QJsonValue &value)
{
    const QUrl url(value.toString(), QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || url.host().isEmpty() ||
        (scheme != QLatin1String("https") && scheme != QLatin1String("http")))
        return QStringLiteral("must be an http or https URL, e.g. https://dynamodb.eu-west-1."
                              "amazonaws.com or http://127.0.0.1:8000");
    if (!url.userInfo().isEmpty() || url.hasQuery() || url.hasFragment())
        return QStringLiteral("must not contain a user, a query or a fragment");
    return QString();
}

QString checkCredential(const QJsonValue &value)
{
    const QJsonObject o = value.toObject();
    // `credential: {}` is an account not connected yet (one an ACK import brought).
    if (o.isEmpty())
        return QString();
    int chosen = 0;
    for (const char *key : {"emulator", "keychain", "env", "file", "profile"})
        chosen += o.contains(QLatin1String(key)) ? 1 : 0;
    if (chosen != 1)
        return QStringLiteral("give exactly one of emulator: true, keychain: ENTRY, env: true, "
                              "file: PATH, profile: NAME");
    for (const char *key : {"emulator", "env"}) {
        if (o.contains(QLatin1String(key)) && !o.value(QLatin1String(key)).toBool())
            return QStringLiteral("%1: false means nothing; leave it out and name the credential "
                                  "to use")
                .arg(QLatin1String(key));
    }
    return QString();
}

QString checkAccount(const QJsonValue &value)
{
    const QJsonObject spec = value.toObject();
    // `endpoint` serves every service but those `endpoints` names.
    QList<QUrl> endpoints;
    if (spec.contains(QStringLiteral("endpoint")))
        endpoints << QUrl(spec.value(QStringLiteral("endpoint")).toString());
    const QJsonObject perService = spec.value(QStringLiteral("endpoints")).toObject();
    for (auto it = perService.begin(); it != perService.end(); ++it)
        endpoints << QUrl(it.value().toString());
    const bool loopback =
        !endpoints.isEmpty() && std::all_of(endpoints.begin(), endpoints.end(), [](const QUrl &u) {
            return HttpClient::isLoopbackHost(u.host());
        });
    const QJsonObject credential = spec.value(QStringLiteral("credential")).toObject();
    // A profile (named, or through AWS_PROFILE) may carry the region instead.
    if (spec.value(QStringLiteral("region")).toString().isEmpty() &&
        !credential.contains(QStringLiteral("profile")) &&
        !credential.value(QStringLiteral("env")).toBool())
        return QStringLiteral("region is required unless the credential is a profile: NAME or "
                              "env: true whose profile names one");
    if (credential.value(QStringLiteral("emulator")).toBool() &&
        (!loopback || !spec.contains(QStringLiteral("endpoint"))))
        return QStringLiteral("credential emulator: true is only for a local emulator: the "
                              "endpoint (and every one of endpoints) must be a loopback address "
                              "(127.0.0.1, ::1, localhost)");
    for (const QUrl &endpoint : std::as_const(endpoints)) {
        if (endpoint.scheme().toLower() == QLatin1String("http") &&
            !HttpClient::isLoopbackHost(endpoint.host()) &&
            !spec.value(QStringLiteral("allowInsecureHttp")).toBool())
            return QStringLiteral("a plain http endpoint on another host sends signed requests "
                                  "unencrypted: use https, or set allowInsecureHttp: true");
    }
    return QString();
}

} // namespace

Kind AwsKinds::account()
{
    Kind kind;
    kind.group = group();
    kind.version = version();
    kind.name = accountKind();
    kind.description = QStringLiteral(
        "A connection to AWS in one region: the endpoints and where the credentials come from. "
        "Ready says whether DynamoDB's endpoint answers an authorized ListTables. Removing it "
        "deletes nothing in AWS.");

    F credential = F::object(
        QStringLiteral("credential"),
        {F::boolean(QStringLiteral("emulator"),
                    QStringLiteral("Fixed dummy keys for a local emulator (dynalite, DynamoDB "
                                   "Local); only with a loopback endpoint.")),
         F::string(QStringLiteral("keychain"),
                   QStringLiteral("An OS keychain entry ENTRY: the keys are read from the entries "
                                  "ENTRY/aws_access_key_id, ENTRY/aws_secret_access_key and, "
                                  "for temporary keys, ENTRY/aws_session_token."))
             .setLength(1, 200),
         F::boolean(QStringLiteral("env"),
                    QStringLiteral("The environment variables AWS_ACCESS_KEY_ID, "
                                   "AWS_SECRET_ACCESS_KEY and, for temporary keys, "
                                   "AWS_SESSION_TOKEN; without them, the profile AWS_PROFILE "
                                   "names.")),
         F::string(QStringLiteral("file"),
                   QStringLiteral("A file of name=value lines (mode 0600) with "
                                  "aws_access_key_id, aws_secret_access_key and optionally "
                                  "aws_session_token; '~/' means the home folder."))
             .setLength(1, 4096),
         F::string(QStringLiteral("profile"),
                   QStringLiteral("A profile NAME of the AWS shared files ([profile NAME] in "
                                  "~/.aws/config, [NAME] in ~/.aws/credentials, or the files "
                                  "AWS_CONFIG_FILE and AWS_SHARED_CREDENTIALS_FILE name): static "
                                  "keys or a credential_process, and the profile's region when "
                                  "spec.region is not given. Profiles that assume a role or "
                                  "sign in with SSO are refused."))
             .setLength(1, 200)},
        QStringLiteral("Where the access keys come from: exactly one of emulator, keychain, env, "
                       "file, profile; {} for an account not connected yet. Secrets never enter "
                       "the workspace."));
    credential.setRequired().setCheck(checkCredential);

    kind.spec = F::object(
        QStringLiteral("spec"),
        {F::string(QStringLiteral("region"),
                   QStringLiteral("The AWS region, e.g. eu-west-1; may be left out "
                                  "when the credential's profile names one."))
             .setLength(1, 50)
             .setPattern(QStringLiteral("[a-z0-9]+(-[a-z0-9]+)*"),
                         QStringLiteral("lower-case letters, digits and '-', e.g. eu-west-1")),
         F::string(QStringLiteral("endpoint"),
                   QStringLiteral("The endpoint URL of every service but those endpoints names; "
                                  "by default each service's own, e.g. "
                                  "https://dynamodb.REGION.amazonaws.com. Set it for a local "
                                  "emulator, e.g. http://127.0.0.1:5000 (moto serves every "
                                  "service on one port)."))
             .setCheck(checkEndpoint),
         F::map(QStringLiteral("endpoints"),
                F::string(QStringLiteral("url")).setCheck(checkEndpoint),
                QStringLiteral("Endpoint URLs of single services, by the service's endpoint "
                               "prefix (dynamodb, logs, sqs, …), e.g. dynamodb: "
                               "http://127.0.0.1:8000 for dynalite beside moto."))
             .setPattern(QStringLiteral("[a-z0-9-]+"),
                         QStringLiteral("a service's endpoint prefix, e.g. dynamodb")),
         F::boolean(QStringLiteral("allowInsecureHttp"),
                    QStringLiteral("Allow a plain http endpoint on a host other than this "
                                   "machine. Signed requests then travel unencrypted."))
             .setDefault(false),
         F::enumeration(
             QStringLiteral("s3AddressingStyle"),
             {QStringLiteral("auto"), QStringLiteral("virtual"), QStringLiteral("path")},
             QStringLiteral("How S3 requests name their bucket: virtual "
                            "(BUCKET.s3.REGION.amazonaws.com, AWS's), path "
                            "(ENDPOINT/BUCKET, what emulators and most S3-compatible servers "
                            "want), or auto (when left out): virtual for AWS's own endpoint, "
                            "path for an endpoint set here.")),
         credential});
    kind.spec.setCheck(checkAccount);
    return kind;
}

const DeclaredServices &AwsKinds::declared()
{
    // The declarations are compiled into the program: read once.
    static const DeclaredServices services(QStringLiteral(":/kinds/aws"), group(), version(),
                                           accountKind(), [](Kind &kind) {
                                               if (kind.name == tableKind())
                                                   DynamoDbTableRules::apply(kind);
                                           });
    return services;
}

const QList<ServiceDeclaration> &AwsKinds::declarations()
{
    return declared().services();
}

const KindDeclaration *AwsKinds::declaration(const QString &kind)
{
    return declared().declaration(kind);
}

const ServiceDeclaration *AwsKinds::serviceOf(const QString &kind)
{
    return declared().serviceOf(kind);
}

QStringList AwsKinds::declaredKinds()
{
    return declared().kindNames();
}

void AwsKinds::registerKinds(KindRegistry &registry)
{
    registry.add(account());
    registry.add(S3ObjectKind::kind());
    for (const ServiceDeclaration &service : declarations()) {
        for (const KindDeclaration &declared : service.kinds)
            registry.add(declared.kind);
    }
}

} // namespace converge
