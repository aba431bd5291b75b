// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The `lambdaFunction` hook on its own (tst_declaredkinds drives the kind on moto): the code
// zipped and judged by CodeSha256, code in S3 followed without a sha, environment values given
// by reference read where sent and never observed, a listing without the environment, layers as
// ARNs, and LastUpdateStatus.
#include "awskinds.h"
#include "condition.h"
#include "lambdacode.h"
#include "lambdafunctionhook.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace converge;

namespace {

const QString lambdaSecretValue = QStringLiteral("s3cr3t-9d2f");

DeclaredCall callOf(const char *operation)
{
    DeclaredCall call;
    call.operation = QString::fromLatin1(operation);
    return call;
}

QJsonObject reference(const char *variable)
{
    return {{QStringLiteral("env"), QString::fromLatin1(variable)}};
}

Target functionTarget(const QJsonObject &spec, const QJsonObject &observed = {},
                      qint64 generation = 1, qint64 observedGeneration = 1)
{
    Resource r;
    r.kind = QStringLiteral("LambdaFunction");
    r.metadata.name = QStringLiteral("orders");
    r.metadata.generation = generation;
    r.spec = spec;
    r.status.observed = observed;
    r.status.conditions = {Condition::ready(observedGeneration, QDateTime::currentDateTimeUtc())};
    return Target{r};
}

} // namespace

class tst_LambdaFunctionHook final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_folder;

    QString folderSha() const { return LambdaCode::read(m_folder).sha256; }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_folder = m_dir.filePath(QStringLiteral("orders"));
        QVERIFY(QDir().mkpath(m_folder));
        QFile code(m_folder + QStringLiteral("/index.py"));
        QVERIFY(code.open(QIODevice::WriteOnly));
        code.write("def handler(event, context):\n    return 1\n");
        qputenv("CONVERGE_TEST_HOOK_SECRET", lambdaSecretValue.toUtf8());
    }

    // CreateFunction carries the folder zipped under Code; UpdateFunctionCode beside the name.
    void codeIsZippedWhereSent()
    {
        LambdaFunctionHook hook(nullptr);
        const QJsonObject spec{
            {QStringLiteral("code"), QJsonObject{{QStringLiteral("file"), m_folder}}}};
        QStringList secrets;
        const auto create =
            hook.completeInput(callOf("CreateFunction"),
                               {{QStringLiteral("FunctionName"), QStringLiteral("orders")},
                                {QStringLiteral("Code"), QJsonObject()}},
                               spec, nullptr, &secrets);
        QVERIFY(create);
        const QByteArray zip =
            QByteArray::fromBase64(create.value()[QStringLiteral("Code")][QStringLiteral("ZipFile")]
                                       .toString()
                                       .toLatin1());
        QCOMPARE(LambdaCode::sha256(zip), folderSha());

        const QJsonObject s3{{QStringLiteral("code"),
                              QJsonObject{{QStringLiteral("s3Bucket"), QStringLiteral("deploy")},
                                          {QStringLiteral("s3Key"), QStringLiteral("o.zip")}}}};
        const auto update =
            hook.completeInput(callOf("UpdateFunctionCode"),
                               {{QStringLiteral("FunctionName"), QStringLiteral("orders")},
                                {QStringLiteral("Code"), QJsonObject()}},
                               s3, nullptr, &secrets);
        QVERIFY(update);
        QCOMPARE(update.value(),
                 (QJsonObject{{QStringLiteral("FunctionName"), QStringLiteral("orders")},
                              {QStringLiteral("S3Bucket"), QStringLiteral("deploy")},
                              {QStringLiteral("S3Key"), QStringLiteral("o.zip")}}));
        QVERIFY(secrets.isEmpty());

        const auto missing = hook.completeInput(
            callOf("CreateFunction"), {{QStringLiteral("Code"), QJsonObject()}},
            {{QStringLiteral("code"),
              QJsonObject{{QStringLiteral("file"), m_dir.filePath(QStringLiteral("nothing"))}}}},
            nullptr, &secrets);
        QVERIFY(!missing);
        QCOMPARE(missing.error().category, BackendError::Category::Invalid);
        QVERIFY2(missing.error().message.startsWith(QStringLiteral("spec.code.file: ")),
                 qPrintable(missing.error().message));
    }

    // A value by reference is read where it is sent, and named as a secret; text stays text.
    void environmentReferencesAreReadWhereSent()
    {
        LambdaFunctionHook hook(nullptr);
        const QJsonObject input{
            {QStringLiteral("Environment"),
             QJsonObject{{QStringLiteral("Variables"),
                          QJsonObject{{QStringLiteral("STAGE"), QStringLiteral("dev")},
                                      {QStringLiteral("TOKEN"),
                                       reference("CONVERGE_TEST_HOOK_SECRET")}}}}}};
        QStringList secrets;
        const auto sent =
            hook.completeInput(callOf("UpdateFunctionConfiguration"), input, {}, nullptr, &secrets);
        QVERIFY(sent);
        const QJsonObject variables =
            sent.value()[QStringLiteral("Environment")][QStringLiteral("Variables")].toObject();
        QCOMPARE(variables[QStringLiteral("TOKEN")].toString(), lambdaSecretValue);
        QCOMPARE(variables[QStringLiteral("STAGE")].toString(), QStringLiteral("dev"));
        QCOMPARE(secrets, QStringList{lambdaSecretValue});

        QJsonObject unset = input;
        unset.insert(QStringLiteral("Environment"),
                     QJsonObject{{QStringLiteral("Variables"),
                                  QJsonObject{{QStringLiteral("TOKEN"),
                                               reference("CONVERGE_TEST_HOOK_UNSET")}}}});
        QVERIFY(!hook.completeInput(callOf("CreateFunction"), unset, {}, nullptr, &secrets));
    }

    // Observed as the reference when Lambda holds its value, as a marker when not: never the
    // value itself.
    void environmentReferencesAreNeverObserved()
    {
        LambdaFunctionHook hook(nullptr);
        const QJsonObject desired{
            {QStringLiteral("environment"),
             QJsonObject{{QStringLiteral("variables"),
                          QJsonObject{{QStringLiteral("TOKEN"),
                                       reference("CONVERGE_TEST_HOOK_SECRET")}}}}}};
        const auto observed = [&](const QString &held) {
            Observation o;
            o.spec.insert(QStringLiteral("environment"),
                          QJsonObject{{QStringLiteral("variables"),
                                       QJsonObject{{QStringLiteral("TOKEN"), held}}}});
            const auto failed = hook.observe(o, {}, desired, functionTarget(desired), {});
            return failed ? QJsonObject() : o.spec;
        };
        const QJsonObject same = observed(lambdaSecretValue);
        QCOMPARE(same[QStringLiteral("environment")], desired[QStringLiteral("environment")]);
        const QJsonObject other = observed(QStringLiteral("old-value"));
        const QJsonValue marker = other[QStringLiteral("environment")][QStringLiteral("variables")]
                                       [QStringLiteral("TOKEN")];
        QVERIFY(marker.isObject());
        QVERIFY(marker.toObject().contains(QStringLiteral("differs")));
        const QString text = marker[QStringLiteral("differs")].toString();
        QVERIFY(!text.contains(lambdaSecretValue) && !text.contains(QStringLiteral("old-value")));
        QVERIFY2(text.contains(QStringLiteral("CONVERGE_TEST_HOOK_SECRET")), qPrintable(text));

        // A listing knows no spec: it keeps no environment at all.
        Observation listed;
        listed.spec.insert(
            QStringLiteral("environment"),
            QJsonObject{{QStringLiteral("variables"),
                         QJsonObject{{QStringLiteral("TOKEN"), lambdaSecretValue}}}});
        hook.listed(listed);
        QVERIFY(!listed.spec.contains(QStringLiteral("environment")));
    }

    // The folder's sha against Lambda's CodeSha256; code in S3 by its sha256 when given.
    void codeIsJudgedByCodeSha256()
    {
        LambdaFunctionHook hook(nullptr);
        const QJsonObject code{{QStringLiteral("file"), m_folder}};
        const QJsonObject desired{{QStringLiteral("code"), code}};
        const auto observedCode = [&](const QJsonObject &want, const QString &actual,
                                      const QJsonObject &before = {},
                                      const QSet<QString> &sent = {}) {
            Observation o;
            const auto failed = hook.observe(o, {{QStringLiteral("CodeSha256"), actual}}, want,
                                             functionTarget(want, before), sent);
            return failed ? QJsonValue() : o.spec[QStringLiteral("code")];
        };
        QCOMPARE(observedCode(desired, folderSha()), QJsonValue(code));
        QCOMPARE(observedCode(desired, QStringLiteral("b3RoZXI=")),
                 QJsonValue(QJsonObject{{QStringLiteral("sha256"), QStringLiteral("b3RoZXI=")}}));

        QJsonObject s3{{QStringLiteral("s3Bucket"), QStringLiteral("deploy")},
                       {QStringLiteral("s3Key"), QStringLiteral("v2.zip")},
                       {QStringLiteral("sha256"), QStringLiteral("djI=")}};
        QCOMPARE(observedCode({{QStringLiteral("code"), s3}}, QStringLiteral("djI=")),
                 QJsonValue(s3));
        QVERIFY(observedCode({{QStringLiteral("code"), s3}}, QStringLiteral("djE=")) !=
                QJsonValue(s3));

        // Without a sha: as just deployed, then as last deployed while Lambda's sha stays.
        s3.remove(QStringLiteral("sha256"));
        const QJsonObject wanted{{QStringLiteral("code"), s3}};
        QCOMPARE(observedCode(wanted, QStringLiteral("djI="), {}, {QStringLiteral("code")}),
                 QJsonValue(s3));
        QJsonObject v1 = s3;
        v1.insert(QStringLiteral("s3Key"), QStringLiteral("v1.zip"));
        const QJsonObject before{
            {QStringLiteral("spec"), QJsonObject{{QStringLiteral("code"), v1}}},
            {QStringLiteral("CodeSha256"), QStringLiteral("djE=")}};
        QCOMPARE(observedCode(wanted, QStringLiteral("djE="), before), QJsonValue(v1));
        QCOMPARE(observedCode(wanted, QStringLiteral("eA=="), before),
                 QJsonValue(QJsonObject{{QStringLiteral("sha256"), QStringLiteral("eA==")}}));
    }

    // The folder is zipped again only when it moved, and a change of it is seen at once.
    void aChangedFolderIsSeen()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("code"));
        QVERIFY(QDir().mkpath(folder));
        const auto write = [&](const QByteArray &text, int secondsAhead) {
            QFile f(folder + QStringLiteral("/index.py"));
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(text);
            f.flush();
            QVERIFY(f.setFileTime(QDateTime::currentDateTime().addSecs(secondsAhead),
                                  QFileDevice::FileModificationTime));
        };
        write("def handler(e, c):\n    return 1\n", 0);
        const QByteArray stamp = LambdaCode::stamp(folder);
        QCOMPARE(LambdaCode::stamp(folder), stamp);
        const QString before = LambdaCode::read(folder).sha256;
        LambdaFunctionHook hook(nullptr);
        const QJsonObject code{{QStringLiteral("file"), folder}};
        const QJsonObject desired{{QStringLiteral("code"), code}};
        const auto observed = [&](const QString &actual) {
            Observation o;
            const auto failed = hook.observe(o, {{QStringLiteral("CodeSha256"), actual}}, desired,
                                             functionTarget(desired), {});
            return failed ? QJsonValue() : o.spec[QStringLiteral("code")];
        };
        QCOMPARE(observed(before), QJsonValue(code));
        write("def handler(e, c):\n    return 2\n", 5);
        QVERIFY(LambdaCode::stamp(folder) != stamp);
        QVERIFY(observed(before) != QJsonValue(code));
        QCOMPARE(observed(LambdaCode::read(folder).sha256), QJsonValue(code));
    }

    // InProgress is an operation in progress; Failed an error until the spec changes.
    void lastUpdateStatus()
    {
        LambdaFunctionHook hook(nullptr);
        Observation o;
        o.name = QStringLiteral("orders");
        QVERIFY(!hook.observe(o,
                              {{QStringLiteral("LastUpdateStatus"), QStringLiteral("InProgress")}},
                              {}, functionTarget({}), {}));
        QVERIFY(o.inProgress);
        const QJsonObject failed{
            {QStringLiteral("LastUpdateStatus"), QStringLiteral("Failed")},
            {QStringLiteral("LastUpdateStatusReasonCode"),
             QStringLiteral("SubnetOutOfIPAddresses")},
            {QStringLiteral("LastUpdateStatusReason"), QStringLiteral("no free addresses")}};
        Observation seen;
        seen.name = QStringLiteral("orders");
        const auto error = hook.observe(seen, failed, {}, functionTarget({}), {});
        QVERIFY(error);
        QCOMPARE(error->category, BackendError::Category::Terminal);
        QVERIFY2(error->message.contains(QStringLiteral("SubnetOutOfIPAddresses")) &&
                     error->message.contains(QStringLiteral("no free addresses")),
                 qPrintable(error->message));
        // A spec changed since is tried.
        Observation next;
        QVERIFY(!hook.observe(next, failed, {}, functionTarget({}, {}, 2, 1), {}));
        QVERIFY(!next.inProgress);
    }

    void layersAreObservedAsTheirArns()
    {
        LambdaFunctionHook hook(nullptr);
        const QString arn = QStringLiteral("arn:aws:lambda:us-east-1:123456789012:layer:deps:3");
        Observation o;
        QVERIFY(!hook.observe(
            o,
            {{QStringLiteral("Layers"), QJsonArray{QJsonObject{{QStringLiteral("Arn"), arn},
                                                               {QStringLiteral("CodeSize"), 9}}}}},
            {}, functionTarget({}), {}));
        QCOMPARE(o.spec[QStringLiteral("layers")], QJsonValue(QJsonArray{arn}));
    }
};

QTEST_GUILESS_MAIN(tst_LambdaFunctionHook)
#include "tst_lambdafunctionhook.moc"
