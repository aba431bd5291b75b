// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The service account JWT: built with a key made at test time (no private key is checked in),
// its RS256 signature verified with the public key, its header and claims as Google's token
// endpoint wants them.
#include "gcpserviceaccountkey.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include <memory>

using namespace converge;

namespace {

using PKey = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;

PKey newRsaKey()
{
    return PKey(EVP_RSA_gen(2048), EVP_PKEY_free);
}

QByteArray privatePem(EVP_PKEY *key)
{
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), BIO_free);
    PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr);
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio.get(), &data);
    return QByteArray(data, size);
}

bool verifies(EVP_PKEY *key, const QByteArray &input, const QByteArray &signature)
{
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
    return EVP_DigestVerifyInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key) == 1 &&
           EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char *>(signature.data()),
                            size_t(signature.size()),
                            reinterpret_cast<const unsigned char *>(input.data()),
                            size_t(input.size())) == 1;
}

QByteArray keyFile(const QByteArray &pem, const QString &tokenUri = {})
{
    QJsonObject o{{QStringLiteral("type"), QStringLiteral("service_account")},
                  {QStringLiteral("project_id"), QStringLiteral("my-project-123")},
                  {QStringLiteral("private_key_id"), QStringLiteral("kid-1")},
                  {QStringLiteral("private_key"), QString::fromLatin1(pem)},
                  {QStringLiteral("client_email"),
                   QStringLiteral("deployer@my-project-123.iam.gserviceaccount.com")}};
    if (!tokenUri.isEmpty())
        o.insert(QStringLiteral("token_uri"), tokenUri);
    return QJsonDocument(o).toJson();
}

QJsonObject part(const QByteArray &base64)
{
    return QJsonDocument::fromJson(QByteArray::fromBase64(base64, QByteArray::Base64UrlEncoding))
        .object();
}

} // namespace

class tst_GcpServiceAccountKey final : public QObject
{
    Q_OBJECT

private slots:
    void assertionIsSignedWithTheKey()
    {
        const PKey key = newRsaKey();
        QVERIFY(key);
        const auto parsed = GcpServiceAccountKey::parse(
            keyFile(privatePem(key.get()), QStringLiteral("http://127.0.0.1:1/t")),
            QStringLiteral("file k.json"));
        QVERIFY(parsed);
        QCOMPARE(parsed.value().tokenUri, QStringLiteral("http://127.0.0.1:1/t"));
        const QDateTime now = QDateTime::fromSecsSinceEpoch(1'800'000'000, Qt::UTC);
        const auto jwt = parsed.value().assertion(now);
        QVERIFY(jwt);
        const QList<QByteArray> parts = jwt.value().split('.');
        QCOMPARE(parts.size(), 3);
        QVERIFY(!jwt.value().contains('=')); // base64url without padding

        const QJsonObject header = part(parts[0]);
        QCOMPARE(header.value(QStringLiteral("alg")).toString(), QStringLiteral("RS256"));
        QCOMPARE(header.value(QStringLiteral("typ")).toString(), QStringLiteral("JWT"));
        QCOMPARE(header.value(QStringLiteral("kid")).toString(), QStringLiteral("kid-1"));
        const QJsonObject claims = part(parts[1]);
        QCOMPARE(claims.value(QStringLiteral("iss")).toString(),
                 QStringLiteral("deployer@my-project-123.iam.gserviceaccount.com"));
        QCOMPARE(claims.value(QStringLiteral("aud")).toString(),
                 QStringLiteral("http://127.0.0.1:1/t"));
        QCOMPARE(claims.value(QStringLiteral("scope")).toString(),
                 QStringLiteral("https://www.googleapis.com/auth/cloud-platform"));
        QCOMPARE(claims.value(QStringLiteral("iat")).toInteger(), 1'800'000'000);
        QCOMPARE(claims.value(QStringLiteral("exp")).toInteger(), 1'800'003'600);

        const QByteArray signature =
            QByteArray::fromBase64(parts[2], QByteArray::Base64UrlEncoding);
        QCOMPARE(signature.size(), 256); // RSA 2048
        QVERIFY(verifies(key.get(), parts[0] + '.' + parts[1], signature));
        // Another key's public half does not verify it, nor does a changed claim.
        const PKey other = newRsaKey();
        QVERIFY(!verifies(other.get(), parts[0] + '.' + parts[1], signature));
        QVERIFY(!verifies(key.get(), parts[0] + '.' + parts[1] + 'x', signature));
    }

    void defaultTokenUri()
    {
        const PKey key = newRsaKey();
        const auto parsed =
            GcpServiceAccountKey::parse(keyFile(privatePem(key.get())), QStringLiteral("k"));
        QVERIFY(parsed);
        QCOMPARE(parsed.value().tokenUri, QStringLiteral("https://oauth2.googleapis.com/token"));
    }

    void refusesWhatIsNoKey_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("error");
        QTest::newRow("not JSON") << QByteArray("-----BEGIN PRIVATE KEY-----")
                                  << QStringLiteral("is not a JSON service account key");
        QTest::newRow("authorized user")
            << QByteArray(R"({"type": "authorized_user", "refresh_token": "r"})")
            << QStringLiteral("is not a service account key");
        QTest::newRow("no email") << QByteArray(
                                         R"({"type": "service_account", "private_key": "x"})")
                                  << QStringLiteral("has no client_email or no private_key");
    }

    void refusesWhatIsNoKey()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, error);
        const auto parsed = GcpServiceAccountKey::parse(json, QStringLiteral("file k.json"));
        QVERIFY(!parsed);
        QCOMPARE(parsed.error().category, BackendError::Category::Unauthorized);
        QVERIFY2(parsed.error().message.contains(error), qPrintable(parsed.error().message));
        QVERIFY(parsed.error().message.startsWith(QStringLiteral("file k.json")));
    }

    void refusesAKeyThatIsNotRsa()
    {
        const auto parsed = GcpServiceAccountKey::parse(
            keyFile(QByteArrayLiteral("-----BEGIN PRIVATE KEY-----\nnot a key\n"
                                      "-----END PRIVATE KEY-----\n")),
            QStringLiteral("k"));
        QVERIFY(parsed);
        const auto jwt = parsed.value().assertion(QDateTime::currentDateTimeUtc());
        QVERIFY(!jwt);
        QVERIFY2(jwt.error().message.contains(QStringLiteral("not an RSA key in PEM")),
                 qPrintable(jwt.error().message));
        QVERIFY(!jwt.error().message.contains(QStringLiteral("not a key")));
    }
};

QTEST_GUILESS_MAIN(tst_GcpServiceAccountKey)
#include "tst_gcpserviceaccountkey.moc"
