// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "privatemoto.h"

#include "httpclient.h"
#include "sigv4signer.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QTcpServer>
#include <QTest>
#include <QXmlStreamReader>

namespace converge::test {

namespace {

quint16 freePort()
{
    QTcpServer probe;
    return probe.listen(QHostAddress::LocalHost, 0) ? probe.serverPort() : 0;
}

QString loopback()
{
    return QStringLiteral("127.0.0.1");
}

/// One attempt, no retries: moto counts the calls it lets through unchecked, so a retry would
/// spend one of them.
HttpClient::Options onceOnly()
{
    HttpClient::Options options;
    options.retry.maxRetries = 0;
    options.connectTimeout = std::chrono::milliseconds(2000);
    return options;
}

/// A query-protocol call (IAM, STS), signed with a key moto does not know: accepted while
/// signatures are not checked.
HttpResponse queryCall(HttpClient &http, const Emulators &emulators, const QString &service,
                       const QList<QPair<QByteArray, QString>> &parameters)
{
    HttpRequest request;
    request.method = QByteArrayLiteral("POST");
    request.url = emulators.motoEndpoint();
    QByteArrayList pairs;
    for (const auto &[name, value] : parameters)
        pairs << QByteArray(name + '=' + QUrl::toPercentEncoding(value));
    request.body = pairs.join('&');
    request.setHeader(QByteArrayLiteral("Content-Type"),
                      QByteArrayLiteral("application/x-www-form-urlencoded; charset=utf-8"));
    const SigV4Signer signer(QStringLiteral("AKIACONVERGESETUP"), QStringLiteral("setup-secret"),
                             QStringLiteral("us-east-1"), service);
    return http.send(request, signer.signer());
}

HttpResponse motoApiPost(HttpClient &http, const Emulators &emulators, const QString &path,
                         const QByteArray &body)
{
    HttpRequest request;
    request.method = QByteArrayLiteral("POST");
    request.url = emulators.motoEndpoint().resolved(QUrl(path));
    request.body = body;
    // Not a form: moto reads reset-auth's count from the raw body, which Flask empties for one.
    request.setHeader(QByteArrayLiteral("Content-Type"), QByteArrayLiteral("text/plain"));
    return http.send(request);
}

QString describe(const HttpResponse &response)
{
    if (response.isSuccess())
        return QStringLiteral("HTTP %1").arg(response.status);
    return response.toError().toString() + QStringLiteral(": ") +
           QString::fromUtf8(response.body.left(300));
}

bool refuseShared(const Emulators &emulators, const char *what, QString *error)
{
    if (!emulators.hasMoto()) {
        *error = QStringLiteral("no moto: %1").arg(emulators.motoMissing);
        return true;
    }
    if (!emulators.motoIsPrivate) {
        *error = QStringLiteral("%1 refused on the fixture's moto: the tests running beside this "
                                "one share it; use a PrivateMoto")
                     .arg(QLatin1String(what));
        return true;
    }
    return false;
}

QString xmlElement(const QByteArray &xml, QStringView name)
{
    QXmlStreamReader reader(xml);
    while (!reader.atEnd()) {
        if (reader.readNext() == QXmlStreamReader::StartElement && reader.name() == name)
            return reader.readElementText();
    }
    return {};
}

} // namespace

PrivateMoto::PrivateMoto(QString server)
    : m_server(std::move(server))
    , m_port(freePort())
{}

PrivateMoto::~PrivateMoto()
{
    if (m_process.state() != QProcess::NotRunning) {
        m_process.kill();
        m_process.waitForFinished(5000);
    }
}

bool PrivateMoto::start(QString *error)
{
    if (m_server.isEmpty() || !m_dir.isValid() || !m_port) {
        *error = m_server.isEmpty() ? QStringLiteral("no moto_server to run")
                                    : QStringLiteral("no temporary folder or free port");
        return false;
    }
    const QString log = m_dir.filePath(QStringLiteral("moto.log"));
    const auto logTail = [&log] {
        QFile file(log);
        return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll().right(2000))
                                              : QString();
    };
    m_process.setProgram(m_server);
    m_process.setArguments(
        {QStringLiteral("-H"), loopback(), QStringLiteral("-p"), QString::number(m_port)});
    m_process.setWorkingDirectory(m_dir.path());
    // One line per request: kept out of the test's output, shown when it fails to start.
    m_process.setStandardOutputFile(log);
    m_process.setStandardErrorFile(log, QIODevice::Append);
    m_process.start();
    if (!m_process.waitForStarted(10000)) {
        *error = QStringLiteral("%1 did not start: %2").arg(m_server, m_process.errorString());
        return false;
    }
    HttpClient http(onceOnly());
    const Emulators self = emulators();
    QDeadlineTimer deadline(60000);
    QString last;
    while (!deadline.hasExpired()) {
        if (m_process.state() != QProcess::Running) {
            *error = QStringLiteral("moto_server exited early:\n") + logTail();
            return false;
        }
        const HttpResponse answer = queryCall(http, self, QStringLiteral("sts"),
                                              {{"Action", QStringLiteral("GetCallerIdentity")},
                                               {"Version", QStringLiteral("2011-06-15")}});
        if (answer.isSuccess() && answer.body.contains("<GetCallerIdentityResponse"))
            return true;
        last = describe(answer);
        QTest::qWait(100);
    }
    *error = QStringLiteral("moto_server did not answer in 60 s (%1):\n").arg(last) + logTail();
    return false;
}

Emulators PrivateMoto::emulators() const
{
    Emulators e;
    e.host = loopback();
    e.motoPort = m_port;
    e.motoServer = m_server;
    e.motoIsPrivate = true;
    return e;
}

bool resetMoto(const Emulators &emulators, QString *error)
{
    if (refuseShared(emulators, "reset", error))
        return false;
    HttpClient http(onceOnly());
    const HttpResponse answer = motoApiPost(http, emulators, QStringLiteral("/moto-api/reset"), {});
    if (!answer.isSuccess()) {
        *error = QStringLiteral("POST /moto-api/reset: ") + describe(answer);
        return false;
    }
    return true;
}

std::optional<MotoAccessKey> enableMotoSignatureChecks(const Emulators &emulators, QString *error)
{
    if (refuseShared(emulators, "signature checking", error))
        return std::nullopt;
    HttpClient http(onceOnly());
    const HttpResponse reset =
        motoApiPost(http, emulators, QStringLiteral("/moto-api/reset-auth"), "4");
    if (!reset.isSuccess()) {
        *error = QStringLiteral("POST /moto-api/reset-auth: ") + describe(reset);
        return std::nullopt;
    }
    const QString user = QStringLiteral("converge-test");
    const QString policy = QStringLiteral("converge-everything");
    const QString version = QStringLiteral("2010-05-08");
    const QList<QList<QPair<QByteArray, QString>>> calls = {
        {{"Action", QStringLiteral("CreateUser")}, {"UserName", user}, {"Version", version}},
        {{"Action", QStringLiteral("CreatePolicy")},
         {"PolicyName", policy},
         {"PolicyDocument", QStringLiteral(R"({"Version": "2012-10-17", "Statement": )"
                                           R"([{"Effect": "Allow", "Action": "*", )"
                                           R"("Resource": "*"}]})")},
         {"Version", version}},
        {{"Action", QStringLiteral("AttachUserPolicy")},
         {"UserName", user},
         {"PolicyArn", QStringLiteral("arn:aws:iam::123456789012:policy/") + policy},
         {"Version", version}},
        {{"Action", QStringLiteral("CreateAccessKey")}, {"UserName", user}, {"Version", version}},
    };
    HttpResponse answer;
    for (const auto &call : calls) {
        answer = queryCall(http, emulators, QStringLiteral("iam"), call);
        if (!answer.isSuccess()) {
            *error = QStringLiteral("IAM %1: ").arg(call.first().second) + describe(answer);
            return std::nullopt;
        }
    }
    MotoAccessKey key{xmlElement(answer.body, u"AccessKeyId"),
                      xmlElement(answer.body, u"SecretAccessKey")};
    if (key.accessKeyId.isEmpty() || key.secretAccessKey.isEmpty()) {
        *error = QStringLiteral("IAM CreateAccessKey answered without a key: ") +
                 QString::fromUtf8(answer.body.left(300));
        return std::nullopt;
    }
    return key;
}

} // namespace converge::test
