// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "awskinds.h"

#include "declaredservices.h"
#include "dynamodbjson.h"
#include "httpclient.h"
#include "kindregistry.h"
#include "s3objectkind.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QSet>
#include <QUrl>

#include <algorithm>

namespace converge {

namespace {

using F = FieldSchema;

using DynamoDbJson::payPerRequest;
using DynamoDbJson::provisioned;

// DynamoDB's rule for table and index names.
F dynamoName(const QString &name, const QString &description)
{
    return F::string(name, description)
        .setLength(3, 255)
        .setPattern(QStringLiteral("[A-Za-z0-9_.-]+"),
                    QStringLiteral("letters, digits, '_', '-' and '.'"));
}

F keySchemaField(const QString &description)
{
    F key = F::object(
        QStringLiteral("keySchemaElement"),
        {F::string(QStringLiteral("attributeName"), QStringLiteral("An attribute of "
                                                                   "attributeDefinitions."))
             .setRequired()
             .setLength(1, 255),
         F::enumeration(QStringLiteral("keyType"),
                        {QStringLiteral("HASH"), QStringLiteral("RANGE")},
                        QStringLiteral("HASH (the partition key) or RANGE (the sort key)."))
             .setRequired()});
    F list = F::list(QStringLiteral("keySchema"), key, description);
    list.maxItems = 2;
    list.setCheck([](const QJsonValue &value) {
        const QJsonArray keys = value.toArray();
        if (keys.isEmpty())
            return QStringLiteral("needs a HASH key");
        if (keys.at(0)[QStringLiteral("keyType")].toString() != QLatin1String("HASH"))
            return QStringLiteral("the first key must be the HASH key");
        if (keys.size() == 2) {
            if (keys.at(1)[QStringLiteral("keyType")].toString() != QLatin1String("RANGE"))
                return QStringLiteral("the second key must be the RANGE key");
            if (keys.at(0)[QStringLiteral("attributeName")] ==
                keys.at(1)[QStringLiteral("attributeName")])
                return QStringLiteral("the HASH and RANGE keys must be different attributes");
        }
        return QString();
    });
    return list;
}

F throughputField(const QString &description)
{
    return F::object(
        QStringLiteral("provisionedThroughput"),
        {F::integer(QStringLiteral("readCapacityUnits"),
                    QStringLiteral("Strongly consistent reads of up to 4 KB per second."))
             .setRequired()
             .setRange(1, 1'000'000'000'000),
         F::integer(QStringLiteral("writeCapacityUnits"),
                    QStringLiteral("Writes of up to 1 KB per second."))
             .setRequired()
             .setRange(1, 1'000'000'000'000)},
        description);
}

QString checkProjection(const QJsonValue &value)
{
    const QJsonObject o = value.toObject();
    const bool include =
        o.value(QStringLiteral("projectionType")).toString() == QLatin1String("INCLUDE");
    const bool hasAttributes = !o.value(QStringLiteral("nonKeyAttributes")).toArray().isEmpty();
    if (include && !hasAttributes)
        return QStringLiteral("projectionType INCLUDE needs nonKeyAttributes");
    if (!include && o.contains(QStringLiteral("nonKeyAttributes")))
        return QStringLiteral("nonKeyAttributes are only for projectionType INCLUDE");
    return QString();
}

QString checkStream(const QJsonValue &value)
{
    const QJsonObject o = value.toObject();
    const bool enabled = o.value(QStringLiteral("streamEnabled")).toBool();
    const bool hasType = o.contains(QStringLiteral("streamViewType"));
    if (enabled && !hasType)
        return QStringLiteral("an enabled stream needs a streamViewType");
    if (!enabled && hasType)
        return QStringLiteral("streamViewType is only for an enabled stream");
    return QString();
}

QString checkUnique(const QJsonValue &value, const QString &key, const QString &what)
{
    QSet<QString> seen;
    for (const QJsonValue &item : value.toArray()) {
        const QString name = item[key].toString();
        if (seen.contains(name))
            return QStringLiteral("%1 \"%2\" appears twice").arg(what, name);
        seen.insert(name);
    }
    return QString();
}

// The rules that tie fields together, as DynamoDB checks them on CreateTable.
QString checkTable(const QJsonValue &value)
{
    const QJsonObject spec = value.toObject();
    const QString mode = spec.value(QStringLiteral("billingMode")).toString(payPerRequest);
    const bool isProvisioned = mode == provisioned;
    const QJsonArray indexes = spec.value(QStringLiteral("globalSecondaryIndexes")).toArray();

    if (isProvisioned && !spec.contains(QStringLiteral("provisionedThroughput")))
        return QStringLiteral("billingMode PROVISIONED needs provisionedThroughput");
    if (!isProvisioned && spec.contains(QStringLiteral("provisionedThroughput")))
        return QStringLiteral("provisionedThroughput is only for billingMode PROVISIONED");
    for (const QJsonValue &index : indexes) {
        const QString name = index[QStringLiteral("indexName")].toString();
        const bool has = index.toObject().contains(QStringLiteral("provisionedThroughput"));
        if (isProvisioned && !has)
            return QStringLiteral("index %1 needs provisionedThroughput (billingMode "
                                  "PROVISIONED)")
                .arg(name);
        if (!isProvisioned && has)
            return QStringLiteral("index %1: provisionedThroughput is only for billingMode "
                                  "PROVISIONED")
                .arg(name);
    }

    // Every key attribute is defined, and every definition is a key of the table or an index.
    QSet<QString> keyAttributes;
    const auto addKeys = [&keyAttributes](const QJsonArray &keys) {
        for (const QJsonValue &k : keys)
            keyAttributes.insert(k[QStringLiteral("attributeName")].toString());
    };
    addKeys(spec.value(QStringLiteral("keySchema")).toArray());
    for (const QJsonValue &index : indexes)
        addKeys(index[QStringLiteral("keySchema")].toArray());
    QSet<QString> defined;
    for (const QJsonValue &d : spec.value(QStringLiteral("attributeDefinitions")).toArray())
        defined.insert(d[QStringLiteral("attributeName")].toString());
    QStringList undefined = QStringList(keyAttributes.cbegin(), keyAttributes.cend());
    undefined.removeIf([&defined](const QString &a) { return defined.contains(a); });
    undefined.sort();
    if (!undefined.isEmpty())
        return QStringLiteral("attributeDefinitions must define the key attribute(s) %1")
            .arg(undefined.join(QStringLiteral(", ")));
    QStringList unused = QStringList(defined.cbegin(), defined.cend());
    unused.removeIf([&keyAttributes](const QString &a) { return keyAttributes.contains(a); });
    unused.sort();
    if (!unused.isEmpty())
        return QStringLiteral("attributeDefinitions may only define key attributes of the table "
                              "or its indexes; not used: %1")
            .arg(unused.join(QStringLiteral(", ")));
    return QString();
}

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

Kind AwsKinds::table()
{
    Kind kind;
    kind.group = group();
    kind.version = version();
    kind.name = tableKind();
    kind.ownerKind = accountKind();
    kind.service = QStringLiteral("DynamoDB");
    kind.backendNameField = QStringLiteral("tableName");
    kind.description = QStringLiteral(
        "An Amazon DynamoDB table, shaped like the Table resource of AWS Controllers for "
        "Kubernetes. Creation, updates and deletion are asynchronous: the table is Reconciling "
        "while it is CREATING, UPDATING or DELETING.");
    // metadata.name is the default table name, so it must be a valid one as well.
    kind.namePattern = QStringLiteral("^[a-z0-9][-a-z0-9.]+[a-z0-9]$");
    kind.namePatternHint =
        QStringLiteral("lower-case letters, digits, '-' and '.', at least 3 characters, starting "
                       "and ending with a letter or digit");

    F attribute =
        F::object(QStringLiteral("attributeDefinition"),
                  {F::string(QStringLiteral("attributeName")).setRequired().setLength(1, 255),
                   F::enumeration(QStringLiteral("attributeType"),
                                  {QStringLiteral("S"), QStringLiteral("N"), QStringLiteral("B")},
                                  QStringLiteral("S (string), N (number) or B (binary)."))
                       .setRequired()});
    F attributes = F::list(QStringLiteral("attributeDefinitions"), attribute,
                           QStringLiteral("The types of the key attributes of the table and its "
                                          "indexes, and of no other attribute."));
    attributes.setRequired().setCheck([](const QJsonValue &v) {
        return checkUnique(v, QStringLiteral("attributeName"), QStringLiteral("attribute"));
    });

    F nonKey = F::list(QStringLiteral("nonKeyAttributes"), F::string(QStringLiteral("name")),
                       QStringLiteral("The further attributes copied into the index "
                                      "(INCLUDE only)."));
    nonKey.maxItems = 100;
    F projection =
        F::object(QStringLiteral("projection"),
                  {F::enumeration(QStringLiteral("projectionType"),
                                  {QStringLiteral("ALL"), QStringLiteral("KEYS_ONLY"),
                                   QStringLiteral("INCLUDE")},
                                  QStringLiteral("Which attributes the index holds."))
                       .setDefault(QStringLiteral("ALL")),
                   nonKey},
                  QStringLiteral("The attributes copied into the index; ALL by default."));
    projection.setDefault(QJsonObject{{QStringLiteral("projectionType"), QStringLiteral("ALL")}})
        .setCheck(checkProjection);

    F index = F::object(
        QStringLiteral("globalSecondaryIndex"),
        {dynamoName(QStringLiteral("indexName"), QStringLiteral("The index name.")).setRequired(),
         keySchemaField(QStringLiteral("The index keys: a HASH key and an optional RANGE key."))
             .setRequired(),
         projection,
         throughputField(QStringLiteral("The index capacity; required with billingMode "
                                        "PROVISIONED, not allowed otherwise."))});
    F indexes = F::list(QStringLiteral("globalSecondaryIndexes"), index,
                        QStringLiteral("Global secondary indexes; none when left out. They are "
                                       "created and deleted one per UpdateTable call, as "
                                       "DynamoDB requires; an index whose keys or projection "
                                       "change is deleted and re-created."));
    indexes.maxItems = 20;
    // Absent means "no indexes", not "whatever exists": the attribute definitions that the
    // indexes need could not be removed otherwise.
    indexes.setDefault(QJsonArray());
    indexes.setCheck([](const QJsonValue &v) {
        return checkUnique(v, QStringLiteral("indexName"), QStringLiteral("index"));
    });

    F stream = F::object(
        QStringLiteral("streamSpecification"),
        {F::boolean(QStringLiteral("streamEnabled")).setRequired(),
         F::enumeration(QStringLiteral("streamViewType"),
                        {QStringLiteral("KEYS_ONLY"), QStringLiteral("NEW_IMAGE"),
                         QStringLiteral("OLD_IMAGE"), QStringLiteral("NEW_AND_OLD_IMAGES")},
                        QStringLiteral("What the stream records of a changed item."))},
        QStringLiteral("DynamoDB Streams: a change log of the table's items."));
    stream.setCheck(checkStream);

    F tag = F::object(QStringLiteral("tag"),
                      {F::string(QStringLiteral("key")).setRequired().setLength(1, 128),
                       F::string(QStringLiteral("value")).setLength(0, 256).setDefault(QString())});
    F tags = F::list(QStringLiteral("tags"), tag,
                     QStringLiteral("Tags of the table. When given, the table has exactly these "
                                    "tags: others are removed."));
    tags.maxItems = 50;
    tags.setCheck([](const QJsonValue &v) {
        return checkUnique(v, QStringLiteral("key"), QStringLiteral("tag key"));
    });

    kind.spec = F::object(
        QStringLiteral("spec"),
        {F::object(QStringLiteral("owner"),
                   {F::string(QStringLiteral("name"), QStringLiteral("The AwsAccount's name."))
                        .setRequired()
                        .setLength(1, 253)},
                   QStringLiteral("The AwsAccount the table lives in."))
             .setRequired()
             .setImmutable(),
         dynamoName(QStringLiteral("tableName"),
                    QStringLiteral("The table's name in DynamoDB; metadata.name by default."))
             .setImmutable(),
         attributes,
         keySchemaField(QStringLiteral("The primary key: a HASH (partition) key and an optional "
                                       "RANGE (sort) key."))
             .setRequired()
             .setImmutable(),
         F::enumeration(QStringLiteral("billingMode"), {provisioned, payPerRequest},
                        QStringLiteral("PAY_PER_REQUEST (on demand; the default here, although "
                                       "AWS defaults to PROVISIONED) or PROVISIONED (fixed "
                                       "capacity, with provisionedThroughput)."))
             .setDefault(payPerRequest),
         throughputField(QStringLiteral("The table capacity; required with billingMode "
                                        "PROVISIONED, not allowed otherwise.")),
         indexes, stream, tags});
    kind.spec.setCheck(checkTable);
    return kind;
}

const DeclaredServices &AwsKinds::declared()
{
    // The declarations are compiled into the program: read once.
    static const DeclaredServices services(QStringLiteral(":/kinds/aws"), group(), version(),
                                           accountKind());
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
    registry.add(table());
    registry.add(S3ObjectKind::kind());
    for (const ServiceDeclaration &service : declarations()) {
        for (const KindDeclaration &declared : service.kinds)
            registry.add(declared.kind);
    }
}

} // namespace converge
