// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// DeclarationReader: the checked-in declarations read whole, and a file that breaks the format
// is refused with the JSON path of the problem.
#include "declarationreader.h"

#include "awskinds.h"
#include "azurekinds.h"
#include "gcpkinds.h"
#include "kindregistry.h"
#include "schemavalidator.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace converge;

namespace {

QJsonObject minimalKind()
{
    return QJsonObject{
        {QStringLiteral("kind"), QStringLiteral("ThingOne")},
        {QStringLiteral("nameField"), QStringLiteral("name")},
        {QStringLiteral("fields"),
         QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("name")},
                                {QStringLiteral("member"), QStringLiteral("ThingName")},
                                {QStringLiteral("type"), QStringLiteral("string")},
                                {QStringLiteral("immutable"), true},
                                {QStringLiteral("maxLength"), 10},
                                {QStringLiteral("doc"), QStringLiteral("The name.")}},
                    QJsonObject{{QStringLiteral("name"), QStringLiteral("size")},
                                {QStringLiteral("member"), QStringLiteral("Size")},
                                {QStringLiteral("type"), QStringLiteral("integer")},
                                {QStringLiteral("minimum"), 1},
                                {QStringLiteral("maximum"), 5}}}},
        {QStringLiteral("read"),
         QJsonObject{{QStringLiteral("operation"), QStringLiteral("DescribeThing")},
                     {QStringLiteral("result"), QStringLiteral("Thing")}}},
        {QStringLiteral("updates"),
         QJsonArray{QJsonObject{{QStringLiteral("operation"), QStringLiteral("ResizeThing")},
                                {QStringLiteral("fields"), QJsonArray{QStringLiteral("size")}}}}},
    };
}

QJsonObject minimalFile(const QJsonObject &kind = minimalKind())
{
    return QJsonObject{
        {QStringLiteral("format"), 1},
        {QStringLiteral("service"),
         QJsonObject{{QStringLiteral("name"), QStringLiteral("things")},
                     {QStringLiteral("title"), QStringLiteral("Things")},
                     {QStringLiteral("protocol"), QStringLiteral("json")},
                     {QStringLiteral("jsonVersion"), QStringLiteral("1.1")},
                     {QStringLiteral("targetPrefix"), QStringLiteral("Things_2020")},
                     {QStringLiteral("signingName"), QStringLiteral("things")},
                     {QStringLiteral("endpointPrefix"), QStringLiteral("things")},
                     {QStringLiteral("apiVersion"), QStringLiteral("2020-01-01")}}},
        {QStringLiteral("kinds"), QJsonArray{kind}},
    };
}

DeclarationReader::Result readObject(const QJsonObject &o)
{
    return DeclarationReader::read(QJsonDocument(o).toJson(), QStringLiteral("things.json"),
                                   QStringLiteral("aws.converge.dev"), QStringLiteral("v1"),
                                   QStringLiteral("AwsAccount"));
}

} // namespace

class tst_DeclarationReader final : public QObject
{
    Q_OBJECT

private slots:
    void everyCheckedInDeclarationReads_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("group");
        QTest::addColumn<QString>("owner");
        QTest::newRow("aws") << QStringLiteral(":/kinds/aws") << AwsKinds::group()
                             << AwsKinds::accountKind();
        QTest::newRow("gcp") << QStringLiteral(":/kinds/gcp") << GcpKinds::group()
                             << GcpKinds::projectKind();
    }

    void everyCheckedInDeclarationReads()
    {
        QFETCH(QString, folder);
        QFETCH(QString, group);
        QFETCH(QString, owner);
        const auto results =
            DeclarationReader::readFolder(folder, group, QStringLiteral("v1"), owner);
        QVERIFY2(!results.isEmpty(), "no declaration is compiled in");
        for (const auto &result : results) {
            QVERIFY2(result.errors.isEmpty(), qPrintable(result.errors.join(QLatin1Char('\n'))));
            QVERIFY(!result.service.kinds.isEmpty());
            for (const KindDeclaration &d : result.service.kinds) {
                QVERIFY2(d.kind.name.at(0).isUpper(), qPrintable(d.kind.name));
                QVERIFY2(!d.kind.description.isEmpty(), qPrintable(d.kind.name));
                // The backend ID comes from a read's member, or from a call that locates it, or
                // is the name (an S3 bucket's).
                QVERIFY2(!d.idMember.isEmpty() || d.locate.isDeclared() || d.idIsName,
                         qPrintable(d.kind.name));
                QVERIFY2(d.remove.isDeclared(), qPrintable(d.kind.name));
                QVERIFY2(d.list.isDeclared(), qPrintable(d.kind.name));
                // Every field says what it is for: the editor and `converge explain` show it.
                for (const FieldSchema &f : d.kind.spec.fields)
                    QVERIFY2(!f.description.isEmpty(),
                             qPrintable(d.kind.name + QLatin1Char('.') + f.name));
            }
        }
    }

    void declaredKindsAreRegisteredBesideTheOthers()
    {
        KindRegistry kinds;
        AzureKinds::registerAll(kinds);
        const int before = kinds.names().size();
        AwsKinds::registerKinds(kinds);
        // KindRegistry::add refuses a name that exists: a declared kind named like an Azure
        // one (Queue, Table) would be missing here.
        // AwsAccount and S3Object are written by hand.
        QCOMPARE(kinds.names().size(), before + 2 + AwsKinds::declaredKinds().size());
        const Kind *logGroup = kinds.find(QStringLiteral("CloudWatchLogGroup"));
        QVERIFY(logGroup);
        QCOMPARE(logGroup->apiVersion(), QStringLiteral("aws.converge.dev/v1"));
        QCOMPARE(logGroup->ownerKind, QStringLiteral("AwsAccount"));
        QCOMPARE(logGroup->backendNameField, QStringLiteral("name"));
    }

    void fieldsBecomeTheKindsSchema()
    {
        const auto result = readObject(minimalFile());
        QVERIFY2(result.errors.isEmpty(), qPrintable(result.errors.join(QLatin1Char('\n'))));
        const KindDeclaration &d = result.service.kinds.constFirst();
        QCOMPARE(d.kind.spec.fields.first().name, QStringLiteral("owner"));
        const FieldSchema *name = d.kind.spec.field(QStringLiteral("name"));
        QVERIFY(name && name->immutable);
        QCOMPARE(name->maxLength, 10);
        QCOMPARE(name->description, QStringLiteral("The name."));
        const FieldSchema *size = d.kind.spec.field(QStringLiteral("size"));
        QVERIFY(size && size->type == FieldSchema::Type::Int);
        QCOMPARE(size->maximum, std::optional<qint64>(5));
        QCOMPARE(d.fields.at(1).member, QStringLiteral("Size"));
        QCOMPARE(d.updates.first().fields, QStringList{QStringLiteral("size")});

        // The model's constraints are what validation refuses.
        const QJsonObject spec{
            {QStringLiteral("owner"), QJsonObject{{QStringLiteral("name"), QStringLiteral("aws")}}},
            {QStringLiteral("name"), QStringLiteral("far-too-long-name")},
            {QStringLiteral("size"), 9}};
        KindRegistry kinds;
        QVERIFY(kinds.add(d.kind));
        const auto checked = SchemaValidator(kinds).validate(
            QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("aws.converge.dev/v1")},
                        {QStringLiteral("kind"), QStringLiteral("ThingOne")},
                        {QStringLiteral("metadata"),
                         QJsonObject{{QStringLiteral("name"), QStringLiteral("a")}}},
                        {QStringLiteral("spec"), spec}});
        QCOMPARE(checked.errors.size(), 2);
        QCOMPARE(checked.errors.at(0).path, QStringLiteral("spec.name"));
        QCOMPARE(checked.errors.at(1).path, QStringLiteral("spec.size"));
    }

    // A reference is a field of its own beside the ID field it stands in for; where the ID field
    // is required, exactly one of the two is.
    void referencesStandInForTheirIdField_data()
    {
        QTest::addColumn<bool>("required");
        QTest::newRow("required") << true;
        QTest::newRow("optional") << false;
    }

    void referencesStandInForTheirIdField()
    {
        QFETCH(bool, required);
        QJsonObject kind = minimalKind();
        QJsonArray fields = kind.value(QStringLiteral("fields")).toArray();
        fields.append(QJsonObject{{QStringLiteral("name"), QStringLiteral("peerARN")},
                                  {QStringLiteral("member"), QStringLiteral("PeerArn")},
                                  {QStringLiteral("type"), QStringLiteral("string")},
                                  {QStringLiteral("required"), required},
                                  {QStringLiteral("immutable"), true}});
        kind.insert(QStringLiteral("fields"), fields);
        kind.insert(
            QStringLiteral("references"),
            QJsonArray{QJsonObject{{QStringLiteral("field"), QStringLiteral("peerRef")},
                                   {QStringLiteral("kind"), QStringLiteral("ThingTwo")},
                                   {QStringLiteral("idField"), QStringLiteral("peerARN")}}});
        const auto result = readObject(minimalFile(kind));
        QVERIFY2(result.errors.isEmpty(), qPrintable(result.errors.join(QLatin1Char('\n'))));
        const Kind &k = result.service.kinds.constFirst().kind;
        QCOMPARE(k.references.size(), 1);
        QCOMPARE(k.references.first().required, required);
        QCOMPARE(k.spec.fields.last().name, QStringLiteral("peerRef"));
        QVERIFY(k.spec.fields.last().immutable);
        QVERIFY(!k.spec.field(QStringLiteral("peerARN"))->required);

        KindRegistry kinds;
        QVERIFY(kinds.add(k));
        const auto check = [&](const QJsonObject &given) {
            QJsonObject spec = given;
            spec.insert(QStringLiteral("owner"),
                        QJsonObject{{QStringLiteral("name"), QStringLiteral("aws")}});
            const auto checked = SchemaValidator(kinds).validate(
                QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("aws.converge.dev/v1")},
                            {QStringLiteral("kind"), QStringLiteral("ThingOne")},
                            {QStringLiteral("metadata"),
                             QJsonObject{{QStringLiteral("name"), QStringLiteral("a")}}},
                            {QStringLiteral("spec"), spec}});
            return checked.errors.isEmpty() ? QString() : checked.errors.first().toString();
        };
        const QJsonObject ref{{QStringLiteral("peerRef"),
                               QJsonObject{{QStringLiteral("name"), QStringLiteral("p")}}}};
        const QJsonObject arn{{QStringLiteral("peerARN"), QStringLiteral("arn:aws:things:p")}};
        QCOMPARE(check(ref), QString());
        QCOMPARE(check(arn), QString());
        QJsonObject both = ref;
        both.insert(QStringLiteral("peerARN"), arn.value(QStringLiteral("peerARN")));
        QVERIFY2(check(both).contains(
                     required ? QStringLiteral("give exactly one of peerRef and peerARN")
                              : QStringLiteral("give at most one of peerRef and peerARN")),
                 qPrintable(check(both)));
        if (required)
            QVERIFY2(check({}).contains(QStringLiteral("give exactly one of peerRef and peerARN")),
                     qPrintable(check({})));
        else
            QCOMPARE(check({}), QString());
    }

    void brokenFilesAreRefusedWithThePath_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("expected");

        QTest::newRow("not json") << QByteArray("{") << QStringLiteral("things.json: offset");
        QJsonObject file = minimalFile();
        file.insert(QStringLiteral("format"), 2);
        QTest::newRow("format") << QJsonDocument(file).toJson()
                                << QStringLiteral("things.json: format: must be 1");

        QJsonObject kind = minimalKind();
        kind.insert(QStringLiteral("feilds"), QJsonArray());
        QTest::newRow("unknown key") << QJsonDocument(minimalFile(kind)).toJson()
                                     << QStringLiteral("kinds[0].feilds: is not a known key");

        kind = minimalKind();
        QJsonArray fields = kind.value(QStringLiteral("fields")).toArray();
        QJsonObject size = fields.at(1).toObject();
        size.insert(QStringLiteral("type"), QStringLiteral("float"));
        fields.replace(1, size);
        kind.insert(QStringLiteral("fields"), fields);
        QTest::newRow("type") << QJsonDocument(minimalFile(kind)).toJson()
                              << QStringLiteral("kinds[0].fields[1].type: \"float\" is not one of");

        kind = minimalKind();
        fields = kind.value(QStringLiteral("fields")).toArray();
        QJsonObject name = fields.at(0).toObject();
        name.insert(QStringLiteral("pattern"), QStringLiteral("(unclosed"));
        fields.replace(0, name);
        kind.insert(QStringLiteral("fields"), fields);
        QTest::newRow("pattern") << QJsonDocument(minimalFile(kind)).toJson()
                                 << QStringLiteral("kinds[0].fields[0].pattern: \"(unclosed\" is "
                                                   "not a valid regular expression");

        kind = minimalKind();
        kind.remove(QStringLiteral("read"));
        QTest::newRow("no read") << QJsonDocument(minimalFile(kind)).toJson()
                                 << QStringLiteral("kinds[0].read: is required");

        kind = minimalKind();
        kind.insert(QStringLiteral("updates"),
                    QJsonArray{QJsonObject{
                        {QStringLiteral("operation"), QStringLiteral("Grow")},
                        {QStringLiteral("fields"), QJsonArray{QStringLiteral("colour")}}}});
        QTest::newRow("update of no field")
            << QJsonDocument(minimalFile(kind)).toJson()
            << QStringLiteral("kinds[0].Grow: carries colour, which is not a field");

        kind = minimalKind();
        kind.insert(QStringLiteral("references"),
                    QJsonArray{QJsonObject{{QStringLiteral("field"), QStringLiteral("peerRef")},
                                           {QStringLiteral("kind"), QStringLiteral("ThingTwo")},
                                           {QStringLiteral("idField"), QStringLiteral("peer")}}});
        QTest::newRow("reference") << QJsonDocument(minimalFile(kind)).toJson()
                                   << QStringLiteral("kinds[0].references[0].idField: names peer");

        kind = minimalKind();
        kind.insert(QStringLiteral("nameField"), QStringLiteral("title"));
        QTest::newRow("name field") << QJsonDocument(minimalFile(kind)).toJson()
                                    << QStringLiteral("kinds[0].nameField: names title");

        kind = minimalKind();
        kind.insert(QStringLiteral("ack"),
                    QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("things/v1alpha1")},
                                {QStringLiteral("kind"), QStringLiteral("Thing")},
                                {QStringLiteral("omit"), QJsonArray{QStringLiteral("colour")}}});
        QTest::newRow("ack field") << QJsonDocument(minimalFile(kind)).toJson()
                                   << QStringLiteral("kinds[0].ack: names colour, which is not a "
                                                     "field");
        kind.insert(QStringLiteral("ack"),
                    QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("things/v1alpha1")},
                                {QStringLiteral("kind"), QStringLiteral("Thing")},
                                {QStringLiteral("renames"), QJsonObject()}});
        QTest::newRow("ack key") << QJsonDocument(minimalFile(kind)).toJson()
                                 << QStringLiteral("kinds[0].ack.renames: is not a known key");
    }

    void theAckMappingIsRead()
    {
        QJsonObject kind = minimalKind();
        kind.insert(QStringLiteral("nameField"), QStringLiteral("name"));
        kind.insert(
            QStringLiteral("ack"),
            QJsonObject{
                {QStringLiteral("apiVersion"), QStringLiteral("things.services.k8s.aws/v1alpha1")},
                {QStringLiteral("kind"), QStringLiteral("Thing")},
                {QStringLiteral("fields"),
                 QJsonObject{{QStringLiteral("name"), QStringLiteral("thingName")}}},
                {QStringLiteral("omit"), QJsonArray{QStringLiteral("size")}}});
        const auto result = readObject(minimalFile(kind));
        QVERIFY2(result.errors.isEmpty(), qPrintable(result.errors.join(QLatin1Char('\n'))));
        const DeclaredAck &ack = result.service.kinds.first().ack;
        QVERIFY(ack.isDeclared());
        QCOMPARE(ack.kind, QStringLiteral("Thing"));
        QCOMPARE(ack.ackField(QStringLiteral("name")), QStringLiteral("thingName"));
        QCOMPARE(ack.ackField(QStringLiteral("size")), QStringLiteral("size"));
        QCOMPARE(ack.omit, QStringList{QStringLiteral("size")});
        // Adopted by the backend name, in ACK's spelling, unless the declaration says otherwise.
        QCOMPARE(ack.adoptionFields,
                 QJsonObject({{QStringLiteral("thingName"), QStringLiteral("name")}}));
    }

    void brokenFilesAreRefusedWithThePath()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, expected);
        const auto result = DeclarationReader::read(
            json, QStringLiteral("things.json"), QStringLiteral("aws.converge.dev"),
            QStringLiteral("v1"), QStringLiteral("AwsAccount"));
        const QString errors = result.errors.join(QLatin1Char('\n'));
        QVERIFY2(errors.contains(expected), qPrintable(errors));
    }
};

QTEST_GUILESS_MAIN(tst_DeclarationReader)
#include "tst_declarationreader.moc"
