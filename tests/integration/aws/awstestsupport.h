// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

// Shared by the AWS integration tests: the fixture's dynalite as an AwsAccount, unique table
// names, a direct DynamoDB client for out-of-band changes, and a Factory that counts the real
// Managers' calls (the calls still go to dynalite).

#include "awsfactory.h"
#include "awsjsonclient.h"
#include "awskinds.h"
#include "countingfactory.h"
#include "emulators.h"
#include "httpclient.h"
#include "sigv4signer.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTest>

#include <atomic>

namespace converge::test {

/// JSON written with single quotes, so that specs in tests read without escapes.
inline QJsonObject json(const char *text)
{
    QJsonParseError error;
    const QJsonDocument document =
        QJsonDocument::fromJson(QByteArray(text).replace('\'', '"'), &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("bad test JSON: %s", qPrintable(error.errorString()));
    return document.object();
}

/// "cvg-<what>-<random>": tables of concurrent test runs on one dynalite never meet.
inline QString uniqueName(const QString &what)
{
    return QStringLiteral("cvg-%1-%2")
        .arg(what)
        .arg(QRandomGenerator::global()->generate(), 8, 16, QLatin1Char('0'));
}

/// An AwsAccount of a fixture's emulator at `endpoint`, with the emulator's credential.
inline Resource awsEmulatorAccount(const QUrl &endpoint, const QString &name)
{
    Resource r;
    r.apiVersion = AwsKinds::apiVersion();
    r.kind = AwsKinds::accountKind();
    r.metadata.name = name;
    r.spec = QJsonObject{
        {QStringLiteral("region"), QStringLiteral("us-east-1")},
        {QStringLiteral("endpoint"), endpoint.toString()},
        {QStringLiteral("credential"), QJsonObject{{QStringLiteral("emulator"), true}}}};
    return r;
}

/// The fixture's dynalite as an AwsAccount (azureintegration.h's emulatorAccount() is Azurite).
inline Resource dynaliteAccount(const Emulators &emulators,
                                const QString &name = QStringLiteral("local"))
{
    return awsEmulatorAccount(emulators.dynamoEndpoint(), name);
}

/// The fixture's moto as an AwsAccount: every AWS service beyond DynamoDB.
inline Resource motoAccount(const Emulators &emulators,
                            const QString &name = QStringLiteral("moto"))
{
    return awsEmulatorAccount(emulators.motoEndpoint(), name);
}

/// A request signed with the emulator's key straight to moto's S3, path-style
/// (`/BUCKET/KEY?QUERY`): a change behind Converge's back, or a look it does not take.
inline HttpResponse motoS3(HttpClient &http, const Emulators &emulators, const QByteArray &method,
                           const QString &pathAndQuery, const QByteArray &body = {})
{
    HttpRequest r;
    r.method = method;
    r.url = QUrl(emulators.motoEndpoint().toString() + pathAndQuery);
    r.body = body;
    r.setHeader(QByteArrayLiteral("x-amz-content-sha256"),
                QCryptographicHash::hash(body, QCryptographicHash::Sha256).toHex());
    const SigV4Signer signer(AwsFactory::emulatorAccessKeyId(),
                             AwsFactory::emulatorSecretAccessKey(), QStringLiteral("us-east-1"),
                             QStringLiteral("s3"));
    return http.send(r, signer.signer());
}

/// A DynamoDBTable with `spec` plus its owner.
inline Resource table(const QString &name, QJsonObject spec,
                      const QString &account = QStringLiteral("local"))
{
    Resource r;
    r.apiVersion = AwsKinds::apiVersion();
    r.kind = AwsKinds::tableKind();
    r.metadata.name = name;
    spec.insert(QStringLiteral("owner"), QJsonObject{{QStringLiteral("name"), account}});
    r.spec = spec;
    return r;
}

/// pk (S) as the HASH key, on demand.
inline QJsonObject simpleSpec()
{
    return json("{'attributeDefinitions': [{'attributeName': 'pk', 'attributeType': 'S'}],"
                " 'keySchema': [{'attributeName': 'pk', 'keyType': 'HASH'}]}");
}

/// A client for changes behind Converge's back, on the calling thread.
inline std::unique_ptr<AwsJsonClient> directClient(const Emulators &emulators, HttpClient &http)
{
    return std::make_unique<AwsJsonClient>(
        AwsJsonService::dynamoDb(), &http, emulators.dynamoEndpoint(), QStringLiteral("us-east-1"),
        Credentials::aws(QStringLiteral("AKIAOUTOFBAND"), QStringLiteral("out-of-band-secret")));
}

/// The table's status, or "" when it does not exist.
inline QString tableStatus(AwsJsonClient &client, const QString &tableName)
{
    const auto reply = client.call(QStringLiteral("DescribeTable"),
                                   QJsonObject{{QStringLiteral("TableName"), tableName}});
    if (!reply)
        return reply.error().category == BackendError::Category::NotFound
                   ? QString()
                   : QStringLiteral("error: ") + reply.error().toString();
    return reply.value()
        .body.value(QStringLiteral("Table"))
        .toObject()
        .value(QStringLiteral("TableStatus"))
        .toString();
}

/// The real AwsFactory; the Managers of every kind but the account count their calls.
inline std::unique_ptr<Factory> countingAwsFactory(CallCounts &counts,
                                                   AwsFactory::Options options = {})
{
    return std::make_unique<CountingFactory>(counts, std::make_unique<AwsFactory>(options));
}

} // namespace converge::test
