// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// GcpProject's credentials end to end, against a token endpoint on loopback that checks what
// Google's checks: the JWT's RS256 signature with the service account's public key, an
// authorized user's refresh token and client secret; and a Pub/Sub list that takes only the
// tokens the endpoint gave. No emulator serves these flows.
#include "gcpfactory.h"
#include "gcpkinds.h"
#include "httpclient.h"
#include "resource.h"
#include "testhttpserver.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QUrlQuery>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include <memory>

using namespace converge;
using converge::test::TestHttpServer;

namespace {

using PKey = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;

const QString projectId = QStringLiteral("my-project-123");
const QByteArray refreshToken = "1//refresh-token-not-to-be-seen";
const QByteArray clientSecret = "client-secret+not/to=be&seen";

QByteArray pemOf(EVP_PKEY *key)
{
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), BIO_free);
    PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr);
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio.get(), &data);
    return QByteArray(data, size);
}

bool signatureVerifies(EVP_PKEY *key, const QByteArray &jwt)
{
    const QList<QByteArray> parts = jwt.split('.');
    if (parts.size() != 3)
        return false;
    const QByteArray input = parts[0] + '.' + parts[1];
    const QByteArray signature = QByteArray::fromBase64(parts[2], QByteArray::Base64UrlEncoding);
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
    return EVP_DigestVerifyInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key) == 1 &&
           EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char *>(signature.data()),
                            size_t(signature.size()),
                            reinterpret_cast<const unsigned char *>(input.data()),
                            size_t(input.size())) == 1;
}

TestHttpServer::Reply jsonReply(int status, const QJsonObject &body)
{
    TestHttpServer::Reply r;
    r.status = status;
    r.headers = {{"Content-Type", "application/json"}};
    r.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    return r;
}

} // namespace

class tst_GcpCredentials final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    PKey m_trusted{nullptr, EVP_PKEY_free}; ///< the service account's key the endpoint knows
    PKey m_stranger{nullptr, EVP_PKEY_free};
    TestHttpServer *m_server = nullptr;
    QSet<QByteArray> m_issued; ///< tokens the endpoint gave and the API takes
    int m_tokenRequests = 0;
    QStringList m_messages; ///< every error message the tests saw

    QString tokenUri() const { return m_server->url(QStringLiteral("/token")).toString(); }

    TestHttpServer::Reply respond(const TestHttpServer::Received &request)
    {
        if (request.method == "POST" && request.target == "/token") {
            ++m_tokenRequests;
            // As a form is read: '+' is a space, then percent-decoding.
            QHash<QByteArray, QByteArray> form;
            for (const QByteArray &pair : request.body.split('&')) {
                const qsizetype eq = pair.indexOf('=');
                QByteArray v = pair.mid(eq + 1);
                form.insert(pair.left(eq), QByteArray::fromPercentEncoding(v.replace('+', ' ')));
            }
            const auto value = [&form](const char *name) { return form.value(name); };
            const QByteArray grant = value("grant_type");
            bool granted = false;
            if (grant == "urn:ietf:params:oauth:grant-type:jwt-bearer") {
                const QByteArray jwt = value("assertion");
                const QJsonObject claims =
                    QJsonDocument::fromJson(QByteArray::fromBase64(jwt.split('.').value(1),
                                                                   QByteArray::Base64UrlEncoding))
                        .object();
                granted = signatureVerifies(m_trusted.get(), jwt) &&
                          claims.value(QStringLiteral("aud")).toString() == tokenUri();
            } else if (grant == "refresh_token") {
                // '+', '/', '=' and '&' survive the form's encoding.
                granted = value("refresh_token") == refreshToken &&
                          value("client_secret") == clientSecret &&
                          value("client_id") == "client-1.apps.example.com";
            }
            if (!granted)
                return jsonReply(400, {{QStringLiteral("error"), QStringLiteral("invalid_grant")},
                                       {QStringLiteral("error_description"),
                                        QStringLiteral("Invalid JWT Signature.")}});
            const QByteArray token = "ya29.token-" + QByteArray::number(m_tokenRequests);
            m_issued.insert(token);
            return jsonReply(200, {{QStringLiteral("access_token"), QString::fromLatin1(token)},
                                   {QStringLiteral("expires_in"), 3599},
                                   {QStringLiteral("token_type"), QStringLiteral("Bearer")}});
        }
        if (request.method == "GET" && request.target.startsWith(QByteArray(
                                           "/v1/projects/" + projectId.toLatin1() + "/topics?"))) {
            const QByteArray bearer = request.header("Authorization");
            if (!bearer.startsWith("Bearer ") || !m_issued.contains(bearer.mid(7)))
                return jsonReply(
                    401,
                    {{QStringLiteral("error"),
                      QJsonObject{{QStringLiteral("code"), 401},
                                  {QStringLiteral("status"), QStringLiteral("UNAUTHENTICATED")},
                                  {QStringLiteral("message"),
                                   QStringLiteral("Request had invalid authentication "
                                                  "credentials.")}}}});
            return jsonReply(200, {});
        }
        return jsonReply(
            404, {{QStringLiteral("error"),
                   QJsonObject{{QStringLiteral("status"), QStringLiteral("NOT_FOUND")},
                               {QStringLiteral("message"), QStringLiteral("no such path")}}}});
    }

    Resource project(const QJsonObject &credential) const
    {
        Resource r;
        r.apiVersion = GcpKinds::apiVersion();
        r.kind = GcpKinds::projectKind();
        r.metadata.name = QStringLiteral("dev");
        r.spec =
            QJsonObject{{QStringLiteral("projectId"), projectId},
                        {QStringLiteral("endpoints"),
                         QJsonObject{{QStringLiteral("pubsub"),
                                      m_server->url(QStringLiteral("/")).toString().chopped(1)}}},
                        {QStringLiteral("credential"), credential}};
        return r;
    }

    QString writeKey(EVP_PKEY *key, const QString &name)
    {
        const QJsonObject json{{QStringLiteral("type"), QStringLiteral("service_account")},
                               {QStringLiteral("private_key_id"), QStringLiteral("kid-1")},
                               {QStringLiteral("private_key"), QString::fromLatin1(pemOf(key))},
                               {QStringLiteral("client_email"),
                                QStringLiteral("deployer@my-project-123.iam.gserviceaccount.com")},
                               {QStringLiteral("token_uri"), tokenUri()}};
        const QString path = m_dir.filePath(name);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            return {};
        file.write(QJsonDocument(json).toJson());
        file.setPermissions(QFile::ReadOwner | QFile::WriteOwner);
        return path;
    }

    QString writeScript(const QString &name, const QByteArray &body)
    {
        const QString path = m_dir.filePath(name);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            return {};
        file.write("#!/bin/sh\n" + body);
        file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        return path;
    }

    // One GcpProject get through the factory, as a worker makes it.
    Outcome<Observation> get(GcpFactory &factory, const Resource &p)
    {
        HttpClient http;
        ManagerEnvironment env;
        env.http = &http;
        auto manager = factory.manager(GcpKinds::projectKind(), p, env);
        if (!manager)
            return manager.error();
        Outcome<Observation> observed = manager.value()->get(Target(p));
        if (!observed)
            m_messages << observed.error().message;
        return observed;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_trusted.reset(EVP_RSA_gen(2048));
        m_stranger.reset(EVP_RSA_gen(2048));
        QVERIFY(m_trusted && m_stranger);
        m_server = new TestHttpServer(this);
        QVERIFY(m_server->isListening());
        m_server->setResponder([this](const TestHttpServer::Received &r) { return respond(r); });
    }

    void serviceAccountKeyFromAFile()
    {
        GcpFactory factory;
        const QString key = writeKey(m_trusted.get(), QStringLiteral("key.json"));
        const Resource p = project(
            {{QStringLiteral("serviceAccountKey"), QJsonObject{{QStringLiteral("file"), key}}}});
        const int before = m_tokenRequests;
        const auto observed = get(factory, p);
        QVERIFY2(observed, qPrintable(observed ? QString() : observed.error().toString()));
        QCOMPARE(observed.value().details.value(QStringLiteral("reachable")).toBool(), true);
        QCOMPARE(observed.value().resourceId, QStringLiteral("projects/") + projectId);
        QCOMPARE(m_tokenRequests, before + 1);
        // The token is kept: a second look asks no endpoint for another, nor reads the key
        // again (it is read when a token is asked for; gone now, it is not missed).
        QVERIFY(QFile::remove(key));
        QVERIFY(get(factory, p));
        QCOMPARE(m_tokenRequests, before + 1);
        QCOMPARE(factory.credentials().exchanges(), 1);
    }

    void aKeyTheEndpointDoesNotKnowIsRefused()
    {
        GcpFactory factory;
        const QString key = writeKey(m_stranger.get(), QStringLiteral("stranger.json"));
        const auto observed = get(factory, project({{QStringLiteral("serviceAccountKey"),
                                                     QJsonObject{{QStringLiteral("file"), key}}}}));
        QVERIFY(!observed);
        QCOMPARE(observed.error().category, BackendError::Category::Unauthorized);
        QCOMPARE(observed.error().code, QStringLiteral("CredentialRefused"));
        QVERIFY2(observed.error().message.contains(QStringLiteral("refused the service account "
                                                                  "key of deployer@")),
                 qPrintable(observed.error().message));
        QVERIFY2(observed.error().message.contains(QStringLiteral("invalid_grant")),
                 qPrintable(observed.error().message));
        // Held for a moment: the next ask gives the same answer without a request.
        const int before = m_tokenRequests;
        QVERIFY(!get(factory, project({{QStringLiteral("serviceAccountKey"),
                                        QJsonObject{{QStringLiteral("file"), key}}}})));
        QCOMPARE(m_tokenRequests, before);
    }

    void aKeyByEnvironmentVariable()
    {
        GcpFactory factory;
        QFile file(writeKey(m_trusted.get(), QStringLiteral("env.json")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        qputenv("CONVERGE_TEST_GCP_KEY", file.readAll());
        const auto observed =
            get(factory, project({{QStringLiteral("serviceAccountKey"),
                                   QJsonObject{{QStringLiteral("env"),
                                                QStringLiteral("CONVERGE_TEST_GCP_KEY")}}}}));
        qunsetenv("CONVERGE_TEST_GCP_KEY");
        QVERIFY2(observed, qPrintable(observed ? QString() : observed.error().toString()));
    }

    void authorizedUserApplicationDefault()
    {
        const QString path = m_dir.filePath(QStringLiteral("adc.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(
            QJsonDocument(
                QJsonObject{
                    {QStringLiteral("type"), QStringLiteral("authorized_user")},
                    {QStringLiteral("client_id"), QStringLiteral("client-1.apps.example.com")},
                    {QStringLiteral("client_secret"), QString::fromLatin1(clientSecret)},
                    {QStringLiteral("refresh_token"), QString::fromLatin1(refreshToken)},
                    {QStringLiteral("token_uri"), tokenUri()}})
                .toJson());
        file.close();
        qputenv("GOOGLE_APPLICATION_CREDENTIALS", path.toLocal8Bit());
        GcpFactory factory;
        const auto observed = get(factory, project({{QStringLiteral("applicationDefault"), true}}));
        QVERIFY2(observed, qPrintable(observed ? QString() : observed.error().toString()));
        QCOMPARE(factory.credentials().exchanges(), 1);

        // A file that is not there says how to make one.
        qputenv("GOOGLE_APPLICATION_CREDENTIALS",
                m_dir.filePath(QStringLiteral("none.json")).toLocal8Bit());
        GcpFactory other;
        const auto missing = get(other, project({{QStringLiteral("applicationDefault"), true}}));
        qunsetenv("GOOGLE_APPLICATION_CREDENTIALS");
        QVERIFY(!missing);
        QCOMPARE(missing.error().code, QStringLiteral("NoApplicationDefaultCredentials"));
        QVERIFY(missing.error().message.contains(
            QStringLiteral("gcloud auth application-default login")));
    }

    void aRevokedTokenIsReplacedOnce()
    {
        GcpFactory factory;
        const Resource p =
            project({{QStringLiteral("serviceAccountKey"),
                      QJsonObject{{QStringLiteral("file"),
                                   writeKey(m_trusted.get(), QStringLiteral("revoked.json"))}}}});
        QVERIFY(get(factory, p));
        m_issued.clear(); // revoked, or expired early
        const int before = m_tokenRequests;
        const auto observed = get(factory, p);
        QVERIFY2(observed, qPrintable(observed ? QString() : observed.error().toString()));
        QCOMPARE(m_tokenRequests, before + 1);
    }

    void tokenCommands()
    {
        m_issued.insert("ya29.from-a-command");
        GcpFactory factory;
        const QString good = writeScript(QStringLiteral("token.sh"), "echo ya29.from-a-command\n");
        const Resource p = project({{QStringLiteral("tokenCommand"),
                                     QJsonObject{{QStringLiteral("command"), QJsonArray{good}}}}});
        QVERIFY(get(factory, p));
        QVERIFY(get(factory, p));
        QCOMPARE(factory.credentials().commandRuns(), 1);

        const QString bad =
            writeScript(QStringLiteral("bad.sh"), "echo 'not signed in: run login' >&2\nexit 3\n");
        const auto failed =
            get(factory, project({{QStringLiteral("tokenCommand"),
                                   QJsonObject{{QStringLiteral("command"), QJsonArray{bad}}}}}));
        QVERIFY(!failed);
        QCOMPARE(failed.error().category, BackendError::Category::Unauthorized);
        QVERIFY2(failed.error().message.contains(QStringLiteral("failed (exit 3): not signed in")),
                 qPrintable(failed.error().message));
    }

    void gcloudMissingSaysHowToGetIt()
    {
        const QByteArray path = qgetenv("PATH");
        qputenv("PATH", m_dir.path().toLocal8Bit()); // no gcloud there
        GcpFactory factory;
        const auto failed = get(factory, project({{QStringLiteral("gcloud"), QJsonObject{}}}));
        qputenv("PATH", path);
        QVERIFY(!failed);
        QVERIFY2(failed.error().message.contains(QStringLiteral("gcloud auth login")),
                 qPrintable(failed.error().message));
        QVERIFY(failed.error().message.contains(QStringLiteral("google-cloud-cli")));
    }

    void anEmulatorGetsNoAuthorization()
    {
        GcpFactory factory;
        const qsizetype before = m_server->received().size();
        m_issued.insert(QByteArray()); // the list takes "Bearer " alone only if one is sent
        const auto observed = get(factory, project({{QStringLiteral("emulator"), true}}));
        m_issued.remove(QByteArray());
        QVERIFY(!observed); // no token at all: the endpoint refuses
        QCOMPARE(m_server->received().size(), before + 1);
        QVERIFY(!m_server->received().constLast().hasHeader("Authorization"));
        // No retry with a "fresh" token either: there is none.
        QCOMPARE(observed.error().code, QStringLiteral("UNAUTHENTICATED"));
    }

    void noSecretInAnyMessage()
    {
        QVERIFY(!m_messages.isEmpty());
        const QByteArray trustedPem = pemOf(m_trusted.get());
        const QByteArray keyLine = trustedPem.split('\n').value(1);
        for (const QString &message : std::as_const(m_messages)) {
            for (const QByteArray &secret :
                 {refreshToken, clientSecret, keyLine, QByteArray("ya29."), QByteArray("eyJ")})
                QVERIFY2(!message.toUtf8().contains(secret), qPrintable(message));
        }
    }
};

QTEST_GUILESS_MAIN(tst_GcpCredentials)
#include "tst_gcpcredentials.moc"
