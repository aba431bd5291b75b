// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The Azure kinds' schemas: name rules, credential choice, the emulator's loopback rule, and
// that every field is documented (the docs become the manifest reference).
#include "azurekinds.h"
#include "kindregistry.h"
#include "schemavalidator.h"

#include <QJsonArray>
#include <QTest>

using namespace converge;

class tst_AzureKinds final : public QObject
{
    Q_OBJECT

private:
    KindRegistry m_kinds;

    static QJsonObject object(const QString &kind, const QString &name, const QJsonObject &spec)
    {
        return QJsonObject{
            {QStringLiteral("apiVersion"), AzureKinds::apiVersion()},
            {QStringLiteral("kind"), kind},
            {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}}},
            {QStringLiteral("spec"), spec}};
    }

    static QJsonObject owned(QJsonObject spec, const QString &owner = QStringLiteral("acct"))
    {
        spec.insert(QStringLiteral("owner"), QJsonObject{{QStringLiteral("name"), owner}});
        return spec;
    }

    static QJsonObject emulatorAccount(const QString &host = QStringLiteral("127.0.0.1"))
    {
        QJsonObject endpoints;
        int port = 10000;
        for (const char *service : {"blob", "queue", "table"})
            endpoints.insert(QLatin1String(service),
                             QStringLiteral("http://%1:%2/devstoreaccount1").arg(host).arg(port++));
        return QJsonObject{
            {QStringLiteral("accountName"), QStringLiteral("devstoreaccount1")},
            {QStringLiteral("endpoints"), endpoints},
            {QStringLiteral("credential"), QJsonObject{{QStringLiteral("emulator"), true}}}};
    }

    QStringList errorsOf(const QJsonObject &document)
    {
        SchemaValidator validator(m_kinds);
        QStringList errors;
        for (const ValidationError &e : validator.validate(document).errors)
            errors << e.toString();
        return errors;
    }

    static void checkDocumented(const FieldSchema &schema, const QString &path)
    {
        if (path != QLatin1String("spec"))
            QVERIFY2(!schema.description.isEmpty(),
                     qPrintable(path + QStringLiteral(" has no doc")));
        for (const FieldSchema &f : schema.fields)
            checkDocumented(f, path + QLatin1Char('.') + f.name);
    }

private slots:
    void initTestCase() { AzureKinds::registerAll(m_kinds); }

    void registersEveryKind()
    {
        QCOMPARE(m_kinds.names().size(), 5);
        for (const QString &name : AzureKinds::names()) {
            const Kind *kind = m_kinds.find(AzureKinds::apiVersion(), name);
            QVERIFY(kind);
            QVERIFY(!kind->description.isEmpty());
            checkDocumented(kind->spec, QStringLiteral("spec"));
        }
        QCOMPARE(m_kinds.find(QStringLiteral("Blob"))->ownerKind, QStringLiteral("BlobContainer"));
        QCOMPARE(m_kinds.find(QStringLiteral("Table"))->ownerKind,
                 QStringLiteral("StorageAccount"));
        QVERIFY(m_kinds.find(QStringLiteral("StorageAccount"))->ownerKind.isEmpty());
    }

    void names_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("valid");
        const QString c = AzureKinds::blobContainer();
        const QString q = AzureKinds::queue();
        const QString t = AzureKinds::table();
        const QString b = AzureKinds::blob();
        QTest::newRow("container ok") << c << "invoices-2026" << true;
        QTest::newRow("container min") << c << "abc" << true;
        QTest::newRow("container max") << c << QString(63, QLatin1Char('a')) << true;
        QTest::newRow("container too short") << c << "ab" << false;
        QTest::newRow("container too long") << c << QString(64, QLatin1Char('a')) << false;
        QTest::newRow("container upper") << c << "Invoices" << false;
        QTest::newRow("container double hyphen") << c << "a--b" << false;
        QTest::newRow("container leading hyphen") << c << "-abc" << false;
        QTest::newRow("container trailing hyphen") << c << "abc-" << false;
        QTest::newRow("container underscore") << c << "a_bc" << false;
        QTest::newRow("container dot") << c << "a.bc" << false;
        QTest::newRow("queue ok") << q << "q1-events" << true;
        QTest::newRow("queue double hyphen") << q << "q--1" << false;
        QTest::newRow("table ok") << t << "Customers2026" << true;
        QTest::newRow("table lower") << t << "abc" << true;
        QTest::newRow("table digit first") << t << "1abc" << false;
        QTest::newRow("table hyphen") << t << "ab-c" << false;
        QTest::newRow("table too short") << t << "ab" << false;
        QTest::newRow("table max")
            << t << (QStringLiteral("a") + QString(62, QLatin1Char('1'))) << true;
        QTest::newRow("table too long") << t << QString(64, QLatin1Char('a')) << false;
        QTest::newRow("table reserved") << t << "tables" << false;
        QTest::newRow("table reserved any case") << t << "TaBlEs" << false;
        QTest::newRow("table longer than reserved") << t << "tables2" << true;
        QTest::newRow("blob path") << b << "docs/2026/README.txt" << true;
        QTest::newRow("blob trailing slash") << b << "docs/" << false;
        QTest::newRow("blob trailing dot") << b << "docs." << false;
        QTest::newRow("blob backslash") << b << "a\\b" << false;
        QTest::newRow("blob too long") << b << QString(1025, QLatin1Char('a')) << false;
    }

    void names()
    {
        QFETCH(QString, kind);
        QFETCH(QString, name);
        QFETCH(bool, valid);
        QCOMPARE(AzureKinds::nameError(kind, name).isEmpty(), valid);

        // The schema says the same, at spec.azureName.
        QJsonObject spec = owned({{QStringLiteral("azureName"), name}});
        if (kind == AzureKinds::blob())
            spec.insert(QStringLiteral("content"), QStringLiteral("x"));
        const QStringList errors = errorsOf(object(kind, QStringLiteral("n"), spec));
        QCOMPARE(errors.isEmpty(), valid);
        if (!valid)
            QVERIFY2(errors.first().startsWith(QLatin1String("spec.azureName")),
                     qPrintable(errors.first()));
    }

    void accountName_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("valid");
        QTest::newRow("azurite") << "devstoreaccount1" << true;
        QTest::newRow("plain") << "acme2026" << true;
        QTest::newRow("upper") << "Acme" << false;
        QTest::newRow("short") << "ab" << false;
        QTest::newRow("long") << QString(25, QLatin1Char('a')) << false;
        QTest::newRow("hyphen") << "ac-me" << false;
    }

    void accountName()
    {
        QFETCH(QString, name);
        QFETCH(bool, valid);
        QJsonObject spec{{QStringLiteral("accountName"), name},
                         {QStringLiteral("credential"),
                          QJsonObject{{QStringLiteral("env"), QStringLiteral("KEY")}}}};
        QCOMPARE(
            errorsOf(object(AzureKinds::storageAccount(), QStringLiteral("a"), spec)).isEmpty(),
            valid);
    }

    void credentialIsExactlyOne_data()
    {
        QTest::addColumn<QJsonObject>("credential");
        QTest::addColumn<QString>("error");
        QTest::newRow("env") << QJsonObject{{QStringLiteral("env"), QStringLiteral("K")}} << "";
        QTest::newRow("keychain") << QJsonObject{{QStringLiteral("keychain"),
                                                  QStringLiteral("acme")}}
                                  << "";
        QTest::newRow("file") << QJsonObject{{QStringLiteral("file"), QStringLiteral("k.txt")}}
                              << "";
        QTest::newRow("sas") << QJsonObject{{QStringLiteral("sasEnv"), QStringLiteral("SAS")}}
                             << "";
        QTest::newRow("connection string")
            << QJsonObject{{QStringLiteral("connectionStringEnv"), QStringLiteral("CS")}} << "";
        // An account an ASO import created: valid, Ready False until it is connected.
        QTest::newRow("not connected yet") << QJsonObject{} << "";
        QTest::newRow("emulator false")
            << QJsonObject{{QStringLiteral("emulator"), false}} << "exactly one of";
        QTest::newRow("two") << QJsonObject{{QStringLiteral("env"), QStringLiteral("K")},
                                            {QStringLiteral("file"), QStringLiteral("f")}}
                             << "not env and file";
        QTest::newRow("bad variable") << QJsonObject{{QStringLiteral("env"), QStringLiteral("1X")}}
                                      << "environment variable name";
        QTest::newRow("inline key")
            << QJsonObject{{QStringLiteral("key"), QStringLiteral("c2VjcmV0")}} << "unknown field";
    }

    void credentialIsExactlyOne()
    {
        QFETCH(QJsonObject, credential);
        QFETCH(QString, error);
        const QJsonObject spec{{QStringLiteral("accountName"), QStringLiteral("acme")},
                               {QStringLiteral("credential"), credential}};
        const QStringList errors =
            errorsOf(object(AzureKinds::storageAccount(), QStringLiteral("a"), spec));
        if (error.isEmpty()) {
            QVERIFY2(errors.isEmpty(), qPrintable(errors.join(QLatin1Char('\n'))));
        } else {
            QCOMPARE(errors.size(), 1);
            QVERIFY2(errors.first().contains(error), qPrintable(errors.first()));
            QVERIFY(errors.first().startsWith(QLatin1String("spec.credential")));
        }
    }

    void emulatorNeedsLoopback()
    {
        QVERIFY(
            errorsOf(object(AzureKinds::storageAccount(), QStringLiteral("dev"), emulatorAccount()))
                .isEmpty());
        QVERIFY(errorsOf(object(AzureKinds::storageAccount(), QStringLiteral("dev"),
                                emulatorAccount(QStringLiteral("localhost"))))
                    .isEmpty());
        QJsonObject spec = emulatorAccount(QStringLiteral("10.0.0.5"));
        spec.insert(QStringLiteral("allowInsecureHttp"), true);
        QStringList errors =
            errorsOf(object(AzureKinds::storageAccount(), QStringLiteral("d"), spec));
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors.first().contains(QLatin1String("loopback")), qPrintable(errors.first()));
        // Without endpoints the defaults are Azure's public hosts: not for the emulator key.
        spec.remove(QStringLiteral("endpoints"));
        errors = errorsOf(object(AzureKinds::storageAccount(), QStringLiteral("d"), spec));
        QCOMPARE(errors.size(), 1);
        QVERIFY(errors.first().contains(QLatin1String("devstoreaccount1.blob.core.windows.net")));
    }

    void plainHttpNeedsConsent()
    {
        QJsonObject spec{{QStringLiteral("accountName"), QStringLiteral("acme")},
                         {QStringLiteral("endpoints"),
                          QJsonObject{{QStringLiteral("blob"),
                                       QStringLiteral("http://storage.example:8080/acme")}}},
                         {QStringLiteral("credential"),
                          QJsonObject{{QStringLiteral("env"), QStringLiteral("K")}}}};
        QStringList errors =
            errorsOf(object(AzureKinds::storageAccount(), QStringLiteral("a"), spec));
        QCOMPARE(errors.size(), 1);
        QVERIFY(errors.first().contains(QLatin1String("allowInsecureHttp")));
        spec.insert(QStringLiteral("allowInsecureHttp"), true);
        QVERIFY(
            errorsOf(object(AzureKinds::storageAccount(), QStringLiteral("a"), spec)).isEmpty());
        spec.insert(
            QStringLiteral("endpoints"),
            QJsonObject{{QStringLiteral("blob"),
                         QStringLiteral("https://acme.blob.core.windows.net/?sv=1&sig=x")}});
        errors = errorsOf(object(AzureKinds::storageAccount(), QStringLiteral("a"), spec));
        QCOMPARE(errors.size(), 1);
        QVERIFY(errors.first().contains(QLatin1String("sasEnv")));
    }

    void blobContentIsExactlyOne_data()
    {
        QTest::addColumn<QJsonObject>("spec");
        QTest::addColumn<bool>("valid");
        QTest::newRow("content") << owned({{QStringLiteral("content"), QString()}}) << true;
        QTest::newRow("file") << owned({{QStringLiteral("contentFile"), QStringLiteral("a.txt")}})
                              << true;
        QTest::newRow("copy") << owned({{QStringLiteral("copySource"),
                                         QStringLiteral("https://a.blob.core.windows.net/c/b")}})
                              << true;
        QTest::newRow("none") << owned({}) << false;
        QTest::newRow("two") << owned({{QStringLiteral("content"), QStringLiteral("x")},
                                       {QStringLiteral("contentFile"), QStringLiteral("a")}})
                             << false;
        QTest::newRow("copy not a URL")
            << owned({{QStringLiteral("copySource"), QStringLiteral("c/b")}}) << false;
        // A SAS would be stored in the workspace: refused, also when its name is upper-case.
        QTest::newRow("copy with a SAS")
            << owned({{QStringLiteral("copySource"),
                       QStringLiteral("https://a.blob.core.windows.net/c/b?sv=2021-12-02&sp=r&"
                                      "sig=c2lnbmF0dXJlLW9mLWEtc2FzLXRva2VuLWhlcmU%3D")}})
            << false;
        QTest::newRow("copy with a SAS, SIG")
            << owned({{QStringLiteral("copySource"),
                       QStringLiteral("https://a.blob.core.windows.net/c/b?SIG=abc")}})
            << false;
        QTest::newRow("copy with a harmless query")
            << owned({{QStringLiteral("copySource"),
                       QStringLiteral("https://a.blob.core.windows.net/c/b?snapshot=2026-01-01")}})
            << true;
    }

    void blobContentIsExactlyOne()
    {
        QFETCH(QJsonObject, spec);
        QFETCH(bool, valid);
        QCOMPARE(errorsOf(object(AzureKinds::blob(), QStringLiteral("b"), spec)).isEmpty(), valid);
    }

    void metadata_data()
    {
        QTest::addColumn<QJsonObject>("metadata");
        QTest::addColumn<bool>("valid");
        QTest::newRow("ok") << QJsonObject{{QStringLiteral("team"), QStringLiteral("billing")},
                                           {QStringLiteral("_x9"), QStringLiteral("a b")}}
                            << true;
        QTest::newRow("digit first")
            << QJsonObject{{QStringLiteral("9x"), QStringLiteral("v")}} << false;
        QTest::newRow("hyphen") << QJsonObject{{QStringLiteral("a-b"), QStringLiteral("v")}}
                                << false;
        QTest::newRow("same name twice")
            << QJsonObject{{QStringLiteral("Team"), QStringLiteral("a")},
                           {QStringLiteral("team"), QStringLiteral("b")}}
            << false;
        QTest::newRow("non-ASCII")
            << QJsonObject{{QStringLiteral("a"), QStringLiteral("é")}} << false;
        QTest::newRow("padded") << QJsonObject{{QStringLiteral("a"), QStringLiteral(" v")}}
                                << false;
        QTest::newRow("empty value") << QJsonObject{{QStringLiteral("a"), QString()}} << false;
    }

    void metadata()
    {
        QFETCH(QJsonObject, metadata);
        QFETCH(bool, valid);
        const QJsonObject spec = owned({{QStringLiteral("metadata"), metadata}});
        QCOMPARE(errorsOf(object(AzureKinds::queue(), QStringLiteral("q1"), spec)).isEmpty(),
                 valid);
    }

    void defaultsAreFilledIn()
    {
        SchemaValidator validator(m_kinds);
        const auto result = validator.validate(
            object(AzureKinds::blobContainer(), QStringLiteral("c1"), owned({})));
        QVERIFY(result.ok());
        QCOMPARE(result.resource.spec.value(QStringLiteral("publicAccess")).toString(),
                 QStringLiteral("None"));
        const auto account = validator.validate(
            object(AzureKinds::storageAccount(), QStringLiteral("dev"), emulatorAccount()));
        QVERIFY(account.ok());
        QCOMPARE(account.resource.spec.value(QStringLiteral("allowInsecureHttp")),
                 QJsonValue(false));
    }

    void azureNameDefaultsToMetadataName()
    {
        Resource r;
        r.kind = AzureKinds::blobContainer();
        r.metadata.name = QStringLiteral("invoices");
        QCOMPARE(AzureKinds::azureName(r), QStringLiteral("invoices"));
        r.spec.insert(QStringLiteral("azureName"), QStringLiteral("other"));
        QCOMPARE(AzureKinds::azureName(r), QStringLiteral("other"));
    }
};

QTEST_GUILESS_MAIN(tst_AzureKinds)
#include "tst_azurekinds.moc"
