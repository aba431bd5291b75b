// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// AwsAccounts with `credential: {profile: NAME}` (and `env: true` with AWS_PROFILE) against the
// fixture's dynalite. dynalite does not check signatures, so each request's signing key ID is
// read from its Authorization header through the factory's request observer.
#include "awstestsupport.h"

#include "clock.h"
#include "controller.h"
#include "factoryregistry.h"
#include "genericreconciler.h"
#include "httprequest.h"
#include "kindregistry.h"
#include "schemavalidator.h"
#include "workspace.h"

#include <QFile>
#include <QMutex>
#include <QRegularExpression>
#include <QTemporaryDir>

using namespace converge;
using namespace converge::test;
using namespace std::chrono_literals;

namespace {

const QByteArray staticSecret = "converge-profile-secret-not-real-0001";
const QByteArray sessionToken = "converge-profile-session-token-0001";

/// The key IDs and session tokens requests were signed with, from any thread.
struct Signatures
{
    QMutex mutex;
    QStringList keyIds;
    QList<QByteArray> tokens;

    AwsJsonClient::RequestObserver observer()
    {
        return [this](const HttpRequest &request) {
            static const QRegularExpression credential(QStringLiteral("Credential=([^/]+)/"));
            const QString authorization =
                QString::fromLatin1(request.header(QByteArrayLiteral("Authorization")));
            const QMutexLocker locker(&mutex);
            keyIds << credential.match(authorization).captured(1);
            tokens << request.header(QByteArrayLiteral("X-Amz-Security-Token"));
        };
    }
    QStringList takeKeyIds()
    {
        const QMutexLocker locker(&mutex);
        tokens.clear();
        return std::exchange(keyIds, {});
    }
};

} // namespace

class tst_AwsProfiles final : public QObject
{
    Q_OBJECT

private:
    Emulators m_emulators;
    QTemporaryDir m_dir;
    std::unique_ptr<HttpClient> m_http;
    Signatures m_signatures;
    std::unique_ptr<AwsFactory> m_factory;

    QString counter() const { return m_dir.filePath(QStringLiteral("process-runs")); }
    int runs() const
    {
        QFile file(counter());
        return file.open(QIODevice::ReadOnly) ? int(file.readAll().count('\n')) : 0;
    }
    QByteArray process(const QString &keyId, const QString &seconds) const
    {
        return QStringLiteral("sh '%1/tests/fixtures/aws-credential-process.sh' '%2' %3 %4")
            .arg(qEnvironmentVariable("CONVERGE_SOURCE_DIR"), counter(), keyId, seconds)
            .toUtf8();
    }

    void write(const char *variable, const QString &name, const QByteArray &content)
    {
        const QString path = m_dir.filePath(name);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        QVERIFY(file.setPermissions(QFile::ReadOwner | QFile::WriteOwner));
        file.write(content);
        qputenv(variable, path.toLocal8Bit());
    }

    Resource account(const QJsonObject &credential, bool withRegion = true)
    {
        Resource r = dynaliteAccount(m_emulators, QStringLiteral("profiled"));
        r.spec.insert(QStringLiteral("credential"), credential);
        if (!withRegion)
            r.spec.remove(QStringLiteral("region"));
        return r;
    }
    static QJsonObject profile(const QString &name)
    {
        return QJsonObject{{QStringLiteral("profile"), name}};
    }

    /// One ListTables through a new account Manager; the key IDs it was signed with.
    Outcome<Observation> reach(const Resource &account)
    {
        ManagerEnvironment env;
        env.http = m_http.get();
        auto manager = m_factory->manager(AwsKinds::accountKind(), account, env);
        if (!manager)
            return manager.error();
        return manager.value()->get(Target{account, {}});
    }

private slots:
    void initTestCase()
    {
        m_emulators = Emulators::fromEnvironment();
        QVERIFY2(m_emulators.isValid(), qPrintable(m_emulators.error));
        QVERIFY(m_dir.isValid());
        m_http = std::make_unique<HttpClient>();
    }

    void init()
    {
        qunsetenv("AWS_ACCESS_KEY_ID");
        qunsetenv("AWS_SECRET_ACCESS_KEY");
        qunsetenv("AWS_SESSION_TOKEN");
        qunsetenv("AWS_PROFILE");
        QFile::remove(counter());
        write("AWS_CONFIG_FILE", QStringLiteral("config"),
              "[profile static]\n"
              "region = eu-west-3\n"
              "[profile temporary]\n"
              "[profile process]\n"
              "region = ap-south-1\n"
              "credential_process = " +
                  process(QStringLiteral("ASIAPROCESSLONG"), QStringLiteral("3600")) +
                  "\n"
                  "[profile expiring]\n"
                  "credential_process = " +
                  process(QStringLiteral("ASIAPROCESSSOON"), QStringLiteral("60")) +
                  "\n"
                  "[profile role]\n"
                  "role_arn = arn:aws:iam::123456789012:role/admin\n"
                  "source_profile = static\n");
        write("AWS_SHARED_CREDENTIALS_FILE", QStringLiteral("credentials"),
              "[static]\naws_access_key_id = AKIAPROFILESTATIC\naws_secret_access_key = " +
                  staticSecret + "\n\n[temporary]\naws_access_key_id = ASIAPROFILETEMP\n" +
                  "aws_secret_access_key = " + staticSecret +
                  "\naws_session_token = " + sessionToken + "\n");
        m_signatures.takeKeyIds();
        AwsFactory::Options options;
        options.requestObserver = m_signatures.observer();
        m_factory = std::make_unique<AwsFactory>(options);
    }

    void staticKeysSignEveryRequest()
    {
        const auto seen = reach(account(profile(QStringLiteral("static"))));
        QVERIFY2(seen.ok(), qPrintable(seen.ok() ? QString() : seen.error().toString()));
        QCOMPARE(m_signatures.keyIds, QStringList{QStringLiteral("AKIAPROFILESTATIC")});
        QVERIFY(m_signatures.tokens == QList<QByteArray>{QByteArray()});
        // The spec's region wins over the profile's.
        QCOMPARE(seen.value().details.value(QStringLiteral("region")).toString(),
                 QStringLiteral("us-east-1"));
    }

    void profileRegionWhenTheSpecNamesNone()
    {
        const auto seen = reach(account(profile(QStringLiteral("static")), false));
        QVERIFY(seen.ok());
        QCOMPARE(seen.value().details.value(QStringLiteral("region")).toString(),
                 QStringLiteral("eu-west-3"));
        const auto none = reach(account(profile(QStringLiteral("temporary")), false));
        QVERIFY(!none.ok());
        QCOMPARE(none.error().code, QStringLiteral("NoRegion"));
        QVERIFY(m_signatures.keyIds.size() == 1); // nothing sent without a region
    }

    void sessionTokenTravelsWithTheRequest()
    {
        QVERIFY(reach(account(profile(QStringLiteral("temporary")))).ok());
        QCOMPARE(m_signatures.keyIds, QStringList{QStringLiteral("ASIAPROFILETEMP")});
        // Compared without printing: a failure must not put the token in the test log.
        QVERIFY(m_signatures.tokens == QList<QByteArray>{sessionToken});
    }

    void credentialProcessRunsOnceUntilNearExpiration()
    {
        for (int i = 0; i < 3; ++i)
            QVERIFY(reach(account(profile(QStringLiteral("process")))).ok());
        QCOMPARE(runs(), 1);
        QCOMPARE(m_signatures.takeKeyIds(), QStringList(3, QStringLiteral("ASIAPROCESSLONG")));

        // An answer 60 s from expiring is due for refresh: each Manager runs the command again.
        for (int i = 0; i < 3; ++i)
            QVERIFY(reach(account(profile(QStringLiteral("expiring")))).ok());
        QCOMPARE(runs(), 4);
        QCOMPARE(m_signatures.takeKeyIds(), QStringList(3, QStringLiteral("ASIAPROCESSSOON")));
    }

    void envWithAwsProfile()
    {
        qputenv("AWS_PROFILE", "process");
        const Resource r = account(QJsonObject{{QStringLiteral("env"), true}}, false);
        const auto seen = reach(r);
        QVERIFY2(seen.ok(), qPrintable(seen.ok() ? QString() : seen.error().toString()));
        QCOMPARE(seen.value().details.value(QStringLiteral("region")).toString(),
                 QStringLiteral("ap-south-1"));
        QCOMPARE(m_signatures.takeKeyIds(), QStringList{QStringLiteral("ASIAPROCESSLONG")});
        // Keys in the environment win, as with the AWS CLI.
        qputenv("AWS_ACCESS_KEY_ID", "AKIAFROMENVIRONMENT");
        qputenv("AWS_SECRET_ACCESS_KEY", staticSecret);
        QVERIFY(reach(account(QJsonObject{{QStringLiteral("env"), true}})).ok());
        QCOMPARE(m_signatures.takeKeyIds(), QStringList{QStringLiteral("AKIAFROMENVIRONMENT")});
    }

    void refusedProfilesSendNothing()
    {
        const auto role = reach(account(profile(QStringLiteral("role"))));
        QVERIFY(!role.ok());
        QCOMPARE(role.error().category, BackendError::Category::Unauthorized);
        QCOMPARE(role.error().code, QStringLiteral("ProfileNotSupported"));
        QVERIFY(role.error().message.contains(QStringLiteral("role_arn")));
        const auto missing = reach(account(profile(QStringLiteral("nobody"))));
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error().code, QStringLiteral("ProfileNotFound"));
        QVERIFY(m_signatures.keyIds.isEmpty());
    }

    void throughTheEngine()
    {
        // A table under a credential_process account is created with the process's keys; an
        // account whose profile is missing is Ready False, Error, naming the profile and files.
        QTemporaryDir dir;
        KindRegistry kinds;
        AwsKinds::registerKinds(kinds);
        const QString path = dir.filePath(QStringLiteral("profiles.converge"));
        auto ws = Workspace::open(path, nullptr);
        QVERIFY(ws);
        Resource good = account(profile(QStringLiteral("process")), false);
        good.metadata.name = QStringLiteral("good");
        good.spec.insert(QStringLiteral("region"), QStringLiteral("us-east-1"));
        Resource missing = account(profile(QStringLiteral("nobody")));
        missing.metadata.name = QStringLiteral("missing");
        const QString tableName = uniqueName(QStringLiteral("profile"));
        QList<Resource> resources{good, missing,
                                  table(tableName, simpleSpec(), QStringLiteral("good"))};
        SchemaValidator validator(kinds);
        for (Resource &r : resources) {
            const auto errors = validator.validate(r);
            QVERIFY2(errors.isEmpty(), qPrintable(errors.value(0).toString()));
        }
        QList<ApplyOutcome> outcomes;
        StoreError error;
        QVERIFY2(ws->apply(resources, &outcomes, &error), qPrintable(error.message));

        FactoryRegistry factories;
        AwsFactory::Options options;
        options.requestObserver = m_signatures.observer();
        options.declared.pollAfter = 100ms;
        factories.add(std::make_unique<AwsFactory>(options));
        GenericReconciler reconciler{kinds};
        SystemClock clock;
        Controller::Options o;
        o.workers = 2;
        o.pollInterval = 20ms;
        auto controller =
            std::make_unique<Controller>(path, kinds, factories, reconciler, clock, nullptr, o);
        QVERIFY(controller->start());
        auto ready = [&ws](const QString &kind, const QString &name) {
            return ws->get(ResourceKey{kind, name}).value_or(Resource{}).status.ready();
        };
        QTRY_VERIFY_WITH_TIMEOUT(ready(AwsKinds::tableKind(), tableName).isReady(), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(
            ready(AwsKinds::accountKind(), QStringLiteral("missing")).severity ==
                Condition::Severity::Error,
            30000);
        const Condition refused = ready(AwsKinds::accountKind(), QStringLiteral("missing"));
        QVERIFY(!refused.isReady());
        QVERIFY2(refused.message.contains(QStringLiteral("\"nobody\"")),
                 qPrintable(refused.message));
        QVERIFY2(refused.message.contains(m_dir.filePath(QStringLiteral("config"))),
                 qPrintable(refused.message));
        controller.reset();

        const QStringList keyIds = m_signatures.takeKeyIds();
        QVERIFY(!keyIds.isEmpty());
        QCOMPARE(keyIds, QStringList(keyIds.size(), QStringLiteral("ASIAPROCESSLONG")));
        QCOMPARE(runs(), 1); // one answer for both workers and every phase

        HttpClient http;
        auto direct = directClient(m_emulators, http);
        direct->call(QStringLiteral("DeleteTable"),
                     QJsonObject{{QStringLiteral("TableName"), tableName}});
    }
};

QTEST_GUILESS_MAIN(tst_AwsProfiles)
#include "tst_awsprofiles.moc"
