// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "kindtemplate.h"

#include "awskinds.h"
#include "azurekinds.h"
#include "gcpkinds.h"
#include "kindregistry.h"
#include "manifestreader.h"
#include "testkinds.h"

#include <QTest>

using namespace converge;

namespace {

KindRegistry builtInKinds()
{
    KindRegistry kinds;
    AzureKinds::registerAll(kinds);
    AwsKinds::registerKinds(kinds);
    GcpKinds::registerKinds(kinds);
    return kinds;
}

QString readErrors(const ManifestReader::Result &result)
{
    QStringList errors;
    for (const ManifestError &error : result.errors)
        errors << error.toString();
    return errors.join(QLatin1Char('\n'));
}

} // namespace

class tst_KindTemplate final : public QObject
{
    Q_OBJECT

private slots:
    void builtInKindValidates_data()
    {
        QTest::addColumn<QString>("kind");
        for (const QString &name : builtInKinds().names())
            QTest::newRow(qPrintable(name)) << name;
    }

    // Every built-in kind's template reads back as exactly one valid object, once it has a name
    // and an owner: nothing else needs filling in.
    void builtInKindValidates()
    {
        QFETCH(QString, kind);
        const KindRegistry kinds = builtInKinds();
        const Kind *k = kinds.find(kind);
        QVERIFY(k);
        const QString name = KindTemplate::suggestedName(*k);
        const QString text = KindTemplate::yaml(*k, name, QStringLiteral("owner1"));
        const ManifestReader::Result read =
            ManifestReader(kinds).read(text.toUtf8(), QStringLiteral("template.yaml"));
        QVERIFY2(read.ok(), qPrintable(readErrors(read) + QStringLiteral("\n") + text));
        QCOMPARE(read.objects.size(), 1);
        const Resource &r = read.objects.constFirst().resource;
        QCOMPARE(r.kind, kind);
        QCOMPARE(r.apiVersion, k->apiVersion());
        QCOMPARE(r.metadata.name, name);
        QCOMPARE(r.ownerName(), k->ownerKind.isEmpty() ? QString() : QStringLiteral("owner1"));
        // Every field of the spec is mentioned, written or commented out.
        for (const FieldSchema &field : k->spec.fields)
            QVERIFY2(text.contains(QStringLiteral("  ") + field.name + QLatin1Char(':')) ||
                         text.contains(QStringLiteral("# ") + field.name + QLatin1Char(':')),
                     qPrintable(field.name));
    }

    // Without the built-in starters a kind still gets required fields, defaults written, and the
    // rest commented out, each field with its one-line comment.
    void genericKind()
    {
        KindRegistry kinds;
        test::registerTestKinds(kinds);
        const Kind *widget = kinds.find(QStringLiteral("Widget"));
        QVERIFY(widget);
        const QString text = KindTemplate::yaml(*widget, QStringLiteral("w1"), QStringLiteral("g"));
        const QStringList lines = text.split(QLatin1Char('\n'));
        QVERIFY(lines.contains(QStringLiteral("  replicas: 1")));
        QVERIFY(lines.contains(QStringLiteral("  # enabled: false")));
        QVERIFY(lines.contains(QStringLiteral("  owner:")));
        QVERIFY(lines.contains(QStringLiteral("    name: g")));
        QVERIFY2(text.contains(QStringLiteral("# integer, default 1")), qPrintable(text));
        // One comment line above every field line.
        for (int i = 0; i < lines.size(); ++i) {
            const QString line = lines.at(i).trimmed();
            if (i > 4 && !line.isEmpty() && !line.startsWith(QLatin1Char('#')) &&
                !line.startsWith(QLatin1Char('-')) && line != QLatin1String("spec:"))
                QVERIFY2(lines.at(i - 1).trimmed().startsWith(QLatin1Char('#')),
                         qPrintable(lines.at(i)));
        }
        const ManifestReader::Result read =
            ManifestReader(kinds).read(text.toUtf8(), QStringLiteral("widget.yaml"));
        QVERIFY2(read.ok(), qPrintable(readErrors(read) + QStringLiteral("\n") + text));
    }

    void fieldSummary_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("summary");
        QTest::newRow("enum with default")
            << QStringLiteral("BlobContainer") << QStringLiteral("publicAccess")
            << QStringLiteral("enum None | Blob | Container, default None");
        QTest::newRow("required immutable object")
            << QStringLiteral("BlobContainer") << QStringLiteral("owner")
            << QStringLiteral("object, required, immutable");
        QTest::newRow("map") << QStringLiteral("Queue") << QStringLiteral("metadata")
                             << QStringLiteral("map of string");
        QTest::newRow("list") << QStringLiteral("DynamoDBTable") << QStringLiteral("tags")
                              << QStringLiteral("list of object");
        QTest::newRow("required string")
            << QStringLiteral("StorageAccount") << QStringLiteral("accountName")
            << QStringLiteral("string, required");
        QTest::newRow("optional string")
            << QStringLiteral("AwsAccount") << QStringLiteral("region") << QStringLiteral("string");
    }

    void fieldSummary()
    {
        QFETCH(QString, kind);
        QFETCH(QString, field);
        QFETCH(QString, summary);
        const KindRegistry kinds = builtInKinds();
        const FieldSchema *f = kinds.find(kind)->spec.field(field);
        QVERIFY(f);
        QCOMPARE(KindTemplate::fieldSummary(*f), summary);
    }

    // Strings that a YAML reader would take for something else are quoted.
    void quotesWhatNeedsIt()
    {
        const KindRegistry kinds = builtInKinds();
        const QString text = KindTemplate::yaml(*kinds.find(QStringLiteral("Blob")),
                                                QStringLiteral("true"), QStringLiteral("c1"));
        QVERIFY2(text.contains(QStringLiteral("  name: \"true\"")), qPrintable(text));
        const ManifestReader::Result read =
            ManifestReader(kinds).read(text.toUtf8(), QStringLiteral("blob.yaml"));
        QVERIFY2(read.ok(), qPrintable(readErrors(read)));
        QCOMPARE(read.objects.constFirst().resource.metadata.name, QStringLiteral("true"));
    }
};

QTEST_GUILESS_MAIN(tst_KindTemplate)
#include "tst_kindtemplate.moc"
