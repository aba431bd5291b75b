// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The Azurite sample manifest is valid for the Azure kinds and covers each of them, and a bad
// name in a manifest is reported at its file:line:column before anything is sent.
#include "azurekinds.h"
#include "kindregistry.h"
#include "manifestreader.h"

#include <QSet>
#include <QTest>

using namespace converge;

class tst_AzureSample final : public QObject
{
    Q_OBJECT

private:
    KindRegistry m_kinds;

private slots:
    void initTestCase() { AzureKinds::registerAll(m_kinds); }

    void sampleIsValidAndCoversEveryKind()
    {
        const QString path = qEnvironmentVariable("CONVERGE_SOURCE_DIR") +
                             QStringLiteral("/resources/samples/local-emulators/storage.yaml");
        const ManifestReader::Result result = ManifestReader(m_kinds).readFile(path);
        QStringList errors;
        for (const ManifestError &e : result.errors)
            errors << e.toString();
        QVERIFY2(result.ok(), qPrintable(errors.join(QLatin1Char('\n'))));
        QSet<QString> kinds;
        for (const ManifestObject &o : result.objects)
            kinds.insert(o.resource.kind);
        const QStringList all = AzureKinds::names();
        QCOMPARE(kinds, QSet<QString>(all.cbegin(), all.cend()));
    }

    void badNamesHaveALocation()
    {
        const QByteArray yaml = "apiVersion: azure.converge.dev/v1\n"
                                "kind: Table\n"
                                "metadata:\n"
                                "  name: t\n"
                                "spec:\n"
                                "  owner: {name: devstore}\n"
                                "  azureName: my-table\n";
        const ManifestReader::Result result =
            ManifestReader(m_kinds).read(yaml, QStringLiteral("t.yaml"));
        QCOMPARE(result.errors.size(), 1);
        const ManifestError &e = result.errors.first();
        QCOMPARE(e.path, QStringLiteral("spec.azureName"));
        QCOMPARE(e.location.line, 7);
        QVERIFY2(e.toString().startsWith(QLatin1String("t.yaml:7:")), qPrintable(e.toString()));
        QVERIFY(e.message.contains(QLatin1String("not \"tables\"")));
    }
};

QTEST_GUILESS_MAIN(tst_AzureSample)
#include "tst_azuresample.moc"
