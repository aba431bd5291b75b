// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "awscredentialprocess.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace converge;
using namespace std::chrono_literals;

namespace {

const QString processSecret = QStringLiteral("converge-process-secret-not-real-0001");

} // namespace

class tst_AwsCredentialProcess final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_counter;

    /// The stand-in command printing keys for `keyId` valid for `seconds`.
    QString command(const QString &keyId, const QString &seconds) const
    {
        return QStringLiteral("sh '%1/tests/fixtures/aws-credential-process.sh' '%2' %3 %4")
            .arg(qEnvironmentVariable("CONVERGE_SOURCE_DIR"), m_counter, keyId, seconds);
    }
    int runs() const
    {
        QFile file(m_counter);
        return file.open(QIODevice::ReadOnly) ? int(file.readAll().count('\n')) : 0;
    }

private slots:
    void init()
    {
        QVERIFY(m_dir.isValid());
        m_counter = m_dir.filePath(
            QStringLiteral("runs-%1").arg(QLatin1String(QTest::currentTestFunction())));
        QFile::remove(m_counter);
    }

    void parses_data()
    {
        QTest::addColumn<QByteArray>("output");
        QTest::addColumn<QString>("code"); // empty: accepted
        QTest::addColumn<bool>("expires");

        QTest::newRow("long-term keys")
            << QByteArray(R"({"Version":1,"AccessKeyId":"AKIA1","SecretAccessKey":"s3cr3t-xyz"})")
            << QString() << false;
        QTest::newRow("temporary keys")
            << QByteArray(R"({"Version":1,"AccessKeyId":"ASIA1","SecretAccessKey":"s",)"
                          R"("SessionToken":"t","Expiration":"2099-01-01T00:00:00Z"})")
            << QString() << true;
        QTest::newRow("fractional seconds and offset")
            << QByteArray(R"({"Version":1,"AccessKeyId":"ASIA1","SecretAccessKey":"s",)"
                          R"("Expiration":"2099-01-01T00:00:00.123+02:00"})")
            << QString() << true;
        QTest::newRow("null expiration")
            << QByteArray(R"({"Version":1,"AccessKeyId":"A","SecretAccessKey":"s",)"
                          R"("Expiration":null})")
            << QString() << false;
        QTest::newRow("not JSON") << QByteArray("AKIA1 s3cr3t")
                                  << QStringLiteral("CredentialProcessInvalidOutput") << false;
        QTest::newRow("array") << QByteArray("[]")
                               << QStringLiteral("CredentialProcessInvalidOutput") << false;
        QTest::newRow("version 2")
            << QByteArray(R"({"Version":2,"AccessKeyId":"A","SecretAccessKey":"s"})")
            << QStringLiteral("CredentialProcessInvalidOutput") << false;
        QTest::newRow("no version") << QByteArray(R"({"AccessKeyId":"A","SecretAccessKey":"s"})")
                                    << QStringLiteral("CredentialProcessInvalidOutput") << false;
        QTest::newRow("no secret") << QByteArray(R"({"Version":1,"AccessKeyId":"A"})")
                                   << QStringLiteral("CredentialProcessInvalidOutput") << false;
        QTest::newRow("no key id") << QByteArray(R"({"Version":1,"SecretAccessKey":"s"})")
                                   << QStringLiteral("CredentialProcessInvalidOutput") << false;
        QTest::newRow("bad expiration")
            << QByteArray(R"({"Version":1,"AccessKeyId":"A","SecretAccessKey":"s",)"
                          R"("Expiration":"tomorrow"})")
            << QStringLiteral("CredentialProcessInvalidOutput") << false;
        QTest::newRow("already expired")
            << QByteArray(R"({"Version":1,"AccessKeyId":"A","SecretAccessKey":"s",)"
                          R"("Expiration":"2020-01-01T00:00:00Z"})")
            << QStringLiteral("CredentialProcessExpired") << false;
    }

    void parses()
    {
        QFETCH(QByteArray, output);
        QFETCH(QString, code);
        QFETCH(bool, expires);
        const auto answer = AwsCredentialProcess::parse(output, QStringLiteral("dev"),
                                                        QDateTime::currentDateTimeUtc());
        if (!code.isEmpty()) {
            QVERIFY(!answer.ok());
            QCOMPARE(answer.error().code, code);
            QCOMPARE(answer.error().category, BackendError::Category::Unauthorized);
            QVERIFY(answer.error().message.contains(QStringLiteral("\"dev\"")));
            QVERIFY(!answer.error().message.contains(QStringLiteral("s3cr3t")));
            return;
        }
        QVERIFY2(answer.ok(), qPrintable(answer.ok() ? QString() : answer.error().message));
        QVERIFY(answer.value().credentials.awsValue());
        QCOMPARE(answer.value().expiration.isValid(), expires);
    }

    void runsOnceWhileTheAnswerIsFresh()
    {
        AwsCredentialProcess processes;
        for (int i = 0; i < 3; ++i) {
            const auto credentials =
                processes.credentials(QStringLiteral("dev"), command(QStringLiteral("ASIAPROCESS1"),
                                                                     QStringLiteral("3600")));
            QVERIFY2(credentials.ok(),
                     qPrintable(credentials.ok() ? QString() : credentials.error().message));
            QCOMPARE(credentials.value().awsValue()->accessKeyId, QStringLiteral("ASIAPROCESS1"));
            QVERIFY(credentials.value().awsValue()->secretAccessKey == processSecret);
            QVERIFY(!credentials.value().awsValue()->sessionToken.isEmpty());
        }
        QCOMPARE(runs(), 1);
        // Long-term keys from a process are kept as well.
        const QString never = command(QStringLiteral("AKIAPROCESS2"), QStringLiteral("never"));
        QVERIFY(processes.credentials(QStringLiteral("dev"), never).ok());
        QVERIFY(processes.credentials(QStringLiteral("dev"), never).ok());
        QCOMPARE(runs(), 2);
    }

    void runsAgainBeforeExpiration()
    {
        // 60 s left is inside the 5 minutes before expiration: every call runs the command.
        AwsCredentialProcess processes;
        const QString soon = command(QStringLiteral("ASIASOON"), QStringLiteral("60"));
        for (int i = 0; i < 3; ++i)
            QVERIFY(processes.credentials(QStringLiteral("dev"), soon).ok());
        QCOMPARE(runs(), 3);
        AwsCredentialProcess::Options options;
        options.refreshBefore = 10s;
        AwsCredentialProcess relaxed(options);
        QVERIFY(relaxed.credentials(QStringLiteral("dev"), soon).ok());
        QVERIFY(relaxed.credentials(QStringLiteral("dev"), soon).ok());
        QCOMPARE(runs(), 4);
    }

    void failureCarriesTheCommandsMessage()
    {
        AwsCredentialProcess processes;
        const auto credentials = processes.credentials(
            QStringLiteral("dev"), command(QStringLiteral("fail"), QStringLiteral("60")));
        QVERIFY(!credentials.ok());
        QCOMPARE(credentials.error().category, BackendError::Category::Unauthorized);
        QCOMPARE(credentials.error().code, QStringLiteral("CredentialProcessFailed"));
        const QString message = credentials.error().message;
        QVERIFY2(message.contains(QStringLiteral("exit status 3")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("run 'corp-login' again")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("\"dev\"")), qPrintable(message));
        // A failure is not kept: the next call tries again.
        QVERIFY(!processes
                     .credentials(QStringLiteral("dev"),
                                  command(QStringLiteral("fail"), QStringLiteral("60")))
                     .ok());
        QCOMPARE(runs(), 2);
    }

    void missingCommandFails()
    {
        AwsCredentialProcess processes;
        const auto credentials = processes.credentials(
            QStringLiteral("dev"), QStringLiteral("/nonexistent/converge-credential-tool"));
        QVERIFY(!credentials.ok());
        QCOMPARE(credentials.error().code, QStringLiteral("CredentialProcessFailed"));
        QVERIFY2(credentials.error().message.contains(QStringLiteral("not found")),
                 qPrintable(credentials.error().message));
    }

    void hangingCommandTimesOut()
    {
        AwsCredentialProcess::Options options;
        options.timeout = 500ms;
        AwsCredentialProcess processes(options);
        QElapsedTimer timer;
        timer.start();
        const auto credentials = processes.credentials(
            QStringLiteral("dev"), command(QStringLiteral("ASIAHANG"), QStringLiteral("hang")));
        QVERIFY(!credentials.ok());
        QCOMPARE(credentials.error().code, QStringLiteral("CredentialProcessTimeout"));
        QVERIFY(timer.elapsed() < 10000);
    }

    void cancelledWaitStops()
    {
        AwsCredentialProcess processes;
        QElapsedTimer timer;
        timer.start();
        const auto credentials = processes.credentials(
            QStringLiteral("dev"), command(QStringLiteral("ASIAHANG"), QStringLiteral("hang")),
            [&timer] { return timer.elapsed() > 300; });
        QVERIFY(!credentials.ok());
        QCOMPARE(credentials.error().code, QStringLiteral("Cancelled"));
        QVERIFY(timer.elapsed() < 10000);
    }
};

QTEST_GUILESS_MAIN(tst_AwsCredentialProcess)
#include "tst_awscredentialprocess.moc"
