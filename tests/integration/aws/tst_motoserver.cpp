// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// moto_server (AWS on loopback) answers requests made by Converge's own HttpClient and
// SigV4Signer, here in CloudWatch Logs' JSON 1.1 protocol: on the fixture's shared moto with a
// unique name, and on a private moto for what changes the whole server (reset, signature
// checking). Without moto_server every function skips, saying why and how to get it.
#include "awstestsupport.h"
#include "privatemoto.h"
#include "sigv4signer.h"

#include <memory>

using namespace converge;
using namespace converge::test;

class tst_MotoServer final : public QObject
{
    Q_OBJECT

private:
    /// One CloudWatch Logs call: POST / with X-Amz-Target Logs_20140328.<operation>.
    static HttpResponse logsCall(HttpClient &http, const Emulators &moto, const MotoAccessKey &key,
                                 const char *operation, const QJsonObject &body)
    {
        HttpRequest request;
        request.method = QByteArrayLiteral("POST");
        request.url = moto.motoEndpoint();
        request.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
        request.clientRequestId = HttpRequest::ClientRequestId::Aws;
        request.setHeader(QByteArrayLiteral("Content-Type"),
                          QByteArrayLiteral("application/x-amz-json-1.1"));
        request.setHeader(QByteArrayLiteral("X-Amz-Target"),
                          QByteArrayLiteral("Logs_20140328.") + operation);
        const SigV4Signer signer(key.accessKeyId, key.secretAccessKey, QStringLiteral("us-east-1"),
                                 QStringLiteral("logs"));
        return http.send(request, signer.signer());
    }

    static QString describe(const HttpResponse &response)
    {
        return QStringLiteral("HTTP %1 after %2 attempt(s): %3")
            .arg(response.status)
            .arg(response.attempts)
            .arg(QString::fromUtf8(response.body.left(400)));
    }

    /// The names DescribeLogGroups answered, in its order.
    static QStringList logGroupNames(const HttpResponse &response)
    {
        QStringList names;
        const QJsonArray groups = QJsonDocument::fromJson(response.body)
                                      .object()
                                      .value(QStringLiteral("logGroups"))
                                      .toArray();
        for (const QJsonValue &group : groups)
            names << group.toObject().value(QStringLiteral("logGroupName")).toString();
        return names;
    }

    /// The private moto, started by the first function that needs it and kept for the next.
    bool startPrivateMoto(QString *error)
    {
        if (m_private)
            return true;
        auto moto = std::make_unique<PrivateMoto>(m_emulators.motoServer);
        if (!moto->start(error))
            return false;
        m_private = std::move(moto);
        return true;
    }

    Emulators m_emulators;
    std::unique_ptr<PrivateMoto> m_private;
    /// Any key does while moto does not check signatures (the fixture's never does).
    const MotoAccessKey m_anyKey{QStringLiteral("AKIACONVERGETEST0001"),
                                 QStringLiteral("converge-moto-secret-not-real-0001")};

private slots:
    void initTestCase()
    {
        m_emulators = Emulators::fromEnvironment();
        CONVERGE_REQUIRE_MOTO(m_emulators);
        qInfo("moto_server %s on port %d", qPrintable(m_emulators.motoServer),
              m_emulators.motoPort);
    }

    void createsAndDescribesALogGroup()
    {
        HttpClient http;
        const QString name = uniqueName(QStringLiteral("logs"));
        const HttpResponse created = logsCall(http, m_emulators, m_anyKey, "CreateLogGroup",
                                              QJsonObject{{QStringLiteral("logGroupName"), name}});
        QVERIFY2(created.isSuccess(), qPrintable(describe(created)));
        QCOMPARE(created.attempts, 1);

        const HttpResponse listed =
            logsCall(http, m_emulators, m_anyKey, "DescribeLogGroups",
                     QJsonObject{{QStringLiteral("logGroupNamePrefix"), name}});
        QVERIFY2(listed.isSuccess(), qPrintable(describe(listed)));
        QCOMPARE(logGroupNames(listed), QStringList{name});

        // moto keeps what it was given: the same name again is AWS's error, in AWS's shape.
        const HttpResponse again = logsCall(http, m_emulators, m_anyKey, "CreateLogGroup",
                                            QJsonObject{{QStringLiteral("logGroupName"), name}});
        QCOMPARE(again.status, 400);
        QCOMPARE(again.toError().code, QStringLiteral("ResourceAlreadyExistsException"));
    }

    void resetRefusesTheSharedMoto()
    {
        QString error;
        QVERIFY(!resetMoto(m_emulators, &error));
        QVERIFY2(error.contains(QLatin1String("PrivateMoto")), qPrintable(error));
        QVERIFY(!enableMotoSignatureChecks(m_emulators, &error));
        QVERIFY2(error.contains(QLatin1String("PrivateMoto")), qPrintable(error));
    }

    void resetEmptiesAPrivateMoto()
    {
        QString error;
        QVERIFY2(startPrivateMoto(&error), qPrintable(error));
        const Emulators moto = m_private->emulators();
        HttpClient http;
        const QJsonObject group{{QStringLiteral("logGroupName"), QStringLiteral("before-reset")}};
        const HttpResponse created = logsCall(http, moto, m_anyKey, "CreateLogGroup", group);
        QVERIFY2(created.isSuccess(), qPrintable(describe(created)));
        QCOMPARE(logGroupNames(logsCall(http, moto, m_anyKey, "DescribeLogGroups", {})),
                 QStringList{QStringLiteral("before-reset")});

        QVERIFY2(resetMoto(moto, &error), qPrintable(error));
        const HttpResponse listed = logsCall(http, moto, m_anyKey, "DescribeLogGroups", {});
        QVERIFY2(listed.isSuccess(), qPrintable(describe(listed)));
        QCOMPARE(logGroupNames(listed), QStringList());
    }

    void wrongSecretIsRefusedAfterOneRequest()
    {
        QString error;
        QVERIFY2(startPrivateMoto(&error), qPrintable(error));
        const Emulators moto = m_private->emulators();
        const std::optional<MotoAccessKey> key = enableMotoSignatureChecks(moto, &error);
        QVERIFY2(key, qPrintable(error));

        HttpClient http;
        const QJsonObject good{{QStringLiteral("logGroupName"), QStringLiteral("signed-right")}};
        const HttpResponse accepted = logsCall(http, moto, *key, "CreateLogGroup", good);
        QVERIFY2(accepted.isSuccess(), qPrintable(describe(accepted)));

        const MotoAccessKey wrongSecret{key->accessKeyId, key->secretAccessKey + QLatin1Char('x')};
        const QJsonObject bad{{QStringLiteral("logGroupName"), QStringLiteral("signed-wrong")}};
        const HttpResponse refused = logsCall(http, moto, wrongSecret, "CreateLogGroup", bad);
        QCOMPARE(refused.status, 403);
        QCOMPARE(refused.attempts, 1);
        QCOMPARE(refused.toError().category, BackendError::Category::Unauthorized);
        QVERIFY2(refused.body.contains("SignatureDoesNotMatch"), qPrintable(describe(refused)));

        // Nothing was made by the refused call; the right key still lists.
        const HttpResponse listed = logsCall(http, moto, *key, "DescribeLogGroups", {});
        QVERIFY2(listed.isSuccess(), qPrintable(describe(listed)));
        QCOMPARE(logGroupNames(listed), QStringList{QStringLiteral("signed-right")});
    }
};

QTEST_GUILESS_MAIN(tst_MotoServer)
#include "tst_motoserver.moc"
