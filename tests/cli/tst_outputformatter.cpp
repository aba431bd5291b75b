// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "outputformatter.h"

#include "console.h"
#include "services.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace converge;

namespace {

const QDateTime now = QDateTime::fromString(QStringLiteral("2024-05-01T12:00:00Z"), Qt::ISODate);

Resource container(const QString &name, Condition ready)
{
    Resource r;
    r.apiVersion = QStringLiteral("azure.converge.dev/v1");
    r.kind = QStringLiteral("BlobContainer");
    r.metadata.name = name;
    r.metadata.uid = QStringLiteral("uid-") + name;
    r.metadata.generation = 3;
    r.metadata.resourceVersion = 7;
    r.metadata.creationTimestamp = now.addSecs(-330);
    r.metadata.annotations.insert(Annotations::reconcilePolicy(), QStringLiteral("skip"));
    r.spec = QJsonObject{{QStringLiteral("owner"),
                          QJsonObject{{QStringLiteral("name"), QStringLiteral("devstore")}}},
                         {QStringLiteral("publicAccess"), QStringLiteral("None")}};
    r.status.conditions = {ready};
    return r;
}

Event makeEvent(qint64 id, Event::Type type, const QString &reason)
{
    Event e;
    e.id = id;
    e.involved = {QStringLiteral("Queue"), QStringLiteral("events")};
    e.type = type;
    e.reason = reason;
    e.message = QStringLiteral("a message\nover two lines");
    e.phase = QStringLiteral("claim");
    e.count = 2;
    e.firstTime = now.addSecs(-600);
    e.lastTime = now.addSecs(-45);
    return e;
}

DiscoveredResource archive()
{
    DiscoveredResource d;
    d.kind = QStringLiteral("BlobContainer");
    d.name = QStringLiteral("Archive_2024"); // a backend name that is no metadata.name
    d.owner = {QStringLiteral("StorageAccount"), QStringLiteral("devstore")};
    d.resourceId = QStringLiteral("http://127.0.0.1:10000/devstoreaccount1/Archive_2024");
    d.spec = QJsonObject{{QStringLiteral("publicAccess"), QStringLiteral("Blob")}};
    d.details = QJsonObject{{QStringLiteral("etag"), QStringLiteral("0x1")}};
    d.firstSeenAt = now.addSecs(-3600);
    d.seenAt = now.addSecs(-60);
    return d;
}

} // namespace

class tst_OutputFormatter final : public QObject
{
    Q_OBJECT

private slots:
    void formatNames()
    {
        QCOMPARE(OutputFormatter::formatFromName(QStringLiteral("WIDE")),
                 OutputFormatter::Format::Wide);
        QCOMPARE(OutputFormatter::formatFromName(QStringLiteral("json")),
                 OutputFormatter::Format::Json);
        QVERIFY(!OutputFormatter::formatFromName(QStringLiteral("xml")));
    }

    void table()
    {
        const OutputFormatter f(m_services.kinds(), OutputFormatter::Format::Table, now);
        const QString text = QString::fromUtf8(f.resources(
            {container(QStringLiteral("invoices"), Condition::ready(3, now)),
             container(QStringLiteral("x"),
                       Condition::notReady(Condition::Severity::Error, QStringLiteral("Forbidden"),
                                           QStringLiteral("no"), 3, now))}));
        QCOMPARE(text, QStringLiteral("KIND/NAME                READY   REASON      AGE\n"
                                      "blobcontainer/invoices   True    Succeeded   5m30s\n"
                                      "blobcontainer/x          False   Forbidden   5m30s\n"));
    }

    void wide()
    {
        const OutputFormatter f(m_services.kinds(), OutputFormatter::Format::Wide, now);
        Resource r = container(QStringLiteral("invoices"),
                               Condition::notReady(Condition::Severity::Warning,
                                                   QStringLiteral("WaitingForOwner"),
                                                   QStringLiteral("owner missing"), 2, now));
        const QStringList lines = QString::fromUtf8(f.resources({r})).split(QLatin1Char('\n'));
        QCOMPARE(lines.at(0).split(QLatin1Char(' '), Qt::SkipEmptyParts),
                 QStringList({QStringLiteral("KIND/NAME"), QStringLiteral("READY"),
                              QStringLiteral("REASON"), QStringLiteral("AGE"),
                              QStringLiteral("POLICY"), QStringLiteral("GENERATION"),
                              QStringLiteral("OBSERVED"), QStringLiteral("MESSAGE")}));
        QCOMPARE(lines.at(1).split(QLatin1Char(' '), Qt::SkipEmptyParts),
                 QStringList({QStringLiteral("blobcontainer/invoices"), QStringLiteral("False"),
                              QStringLiteral("WaitingForOwner"), QStringLiteral("5m30s"),
                              QStringLiteral("skip"), QStringLiteral("3"), QStringLiteral("2"),
                              QStringLiteral("owner"), QStringLiteral("missing")}));
    }

    void unmanagedTable()
    {
        const OutputFormatter f(m_services.kinds(), OutputFormatter::Format::Table, now);
        const QString text = QString::fromUtf8(f.withUnmanaged(
            {container(QStringLiteral("invoices"), Condition::ready(3, now))}, {archive()}, false));
        const QStringList lines = text.split(QLatin1Char('\n'));
        QCOMPARE(lines.at(1).split(QLatin1Char(' '), Qt::SkipEmptyParts).first(),
                 QStringLiteral("blobcontainer/invoices"));
        QCOMPARE(lines.at(2), QString()); // the two tables apart
        QCOMPARE(
            lines.at(3).split(QLatin1Char(' '), Qt::SkipEmptyParts),
            QStringList({QStringLiteral("UNMANAGED"), QStringLiteral("KIND/NAME"),
                         QStringLiteral("OWNER"), QStringLiteral("FIRST"), QStringLiteral("SEEN"),
                         QStringLiteral("LAST"), QStringLiteral("SEEN")}));
        QCOMPARE(lines.at(4).split(QLatin1Char(' '), Qt::SkipEmptyParts),
                 QStringList({QStringLiteral("blobcontainer/Archive_2024"),
                              QStringLiteral("storageaccount/devstore"), QStringLiteral("60m"),
                              QStringLiteral("60s")}));
    }

    void unmanagedJsonSaysSo()
    {
        const OutputFormatter f(m_services.kinds(), OutputFormatter::Format::Json, now);
        const QJsonObject list =
            QJsonDocument::fromJson(
                f.withUnmanaged({container(QStringLiteral("invoices"), Condition::ready(3, now))},
                                {archive()}, false))
                .object();
        QCOMPARE(list.value(QStringLiteral("kind")).toString(), QStringLiteral("List"));
        const QJsonArray items = list.value(QStringLiteral("items")).toArray();
        QCOMPARE(items.size(), 2);
        QVERIFY(!items.at(0)[QStringLiteral("status")][QStringLiteral("unmanaged")].toBool());
        const QJsonObject o = items.at(1).toObject();
        QCOMPARE(o[QStringLiteral("apiVersion")].toString(),
                 QStringLiteral("azure.converge.dev/v1"));
        QCOMPARE(o[QStringLiteral("metadata")][QStringLiteral("name")].toString(),
                 QStringLiteral("archive-2024")); // what Claim would name it
        QCOMPARE(o[QStringLiteral("metadata")][QStringLiteral("annotations")]
                  [QStringLiteral("converge.dev/resource-id")]
                      .toString(),
                 archive().resourceId);
        QCOMPARE(
            o[QStringLiteral("spec")][QStringLiteral("owner")][QStringLiteral("name")].toString(),
            QStringLiteral("devstore"));
        QCOMPARE(o[QStringLiteral("spec")][QStringLiteral("publicAccess")].toString(),
                 QStringLiteral("Blob"));
        const QJsonObject status = o[QStringLiteral("status")].toObject();
        QCOMPARE(status[QStringLiteral("unmanaged")].toBool(), true);
        QCOMPARE(status[QStringLiteral("owner")].toString(),
                 QStringLiteral("StorageAccount/devstore"));
        QCOMPARE(status[QStringLiteral("backendName")].toString(), QStringLiteral("Archive_2024"));
        QCOMPARE(status[QStringLiteral("firstSeen")].toString(),
                 QStringLiteral("2024-05-01T11:00:00Z"));
        QCOMPARE(status[QStringLiteral("lastSeen")].toString(),
                 QStringLiteral("2024-05-01T11:59:00Z"));
        QCOMPARE(status[QStringLiteral("observed")][QStringLiteral("etag")].toString(),
                 QStringLiteral("0x1"));

        // One asked for by name: the object itself.
        const QJsonObject single =
            QJsonDocument::fromJson(f.withUnmanaged({}, {archive()}, true)).object();
        QCOMPARE(single[QStringLiteral("kind")].toString(), QStringLiteral("BlobContainer"));
    }

    void colourNeverMovesColumns()
    {
        Console console;
        console.setColor(true);
        const OutputFormatter plain(m_services.kinds(), OutputFormatter::Format::Table, now);
        const OutputFormatter coloured(m_services.kinds(), OutputFormatter::Format::Table, now,
                                       &console);
        const QList<Resource> list{container(QStringLiteral("a"), Condition::ready(3, now))};
        QString text = QString::fromUtf8(coloured.resources(list));
        QVERIFY(text.contains(QStringLiteral("\x1b[32mTrue\x1b[0m")));
        text.remove(QStringLiteral("\x1b[32m")).remove(QStringLiteral("\x1b[0m"));
        QCOMPARE(text, QString::fromUtf8(plain.resources(list)));
    }

    void jsonShapes()
    {
        const OutputFormatter f(m_services.kinds(), OutputFormatter::Format::Json, now);
        const Resource a = container(QStringLiteral("a"), Condition::ready(3, now));
        const Resource b = container(QStringLiteral("b"), Condition::ready(3, now));

        // One object asked for by name: the object itself, with status and bookkeeping.
        QJsonParseError error;
        const QJsonObject single = QJsonDocument::fromJson(f.resources({a}, true), &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        QCOMPARE(single.value(QStringLiteral("kind")).toString(), QStringLiteral("BlobContainer"));
        const QJsonObject meta = single.value(QStringLiteral("metadata")).toObject();
        QCOMPARE(meta.value(QStringLiteral("uid")).toString(), QStringLiteral("uid-a"));
        QCOMPARE(meta.value(QStringLiteral("generation")).toInteger(), 3);
        QCOMPARE(meta.value(QStringLiteral("resourceVersion")).toString(), QStringLiteral("7"));
        const QJsonObject ready = single.value(QStringLiteral("status"))
                                      .toObject()
                                      .value(QStringLiteral("conditions"))
                                      .toArray()
                                      .at(0)
                                      .toObject();
        QCOMPARE(ready.value(QStringLiteral("status")).toString(), QStringLiteral("True"));
        QCOMPARE(ready.value(QStringLiteral("observedGeneration")).toInteger(), 3);

        // A list request: always a List, also with one item, and with none.
        for (const QList<Resource> &items :
             {QList<Resource>{a}, QList<Resource>{a, b}, QList<Resource>{}}) {
            const QByteArray text = f.resources(items, false);
            const QJsonObject list = QJsonDocument::fromJson(text, &error).object();
            QVERIFY2(error.error == QJsonParseError::NoError, text.constData());
            QCOMPARE(list.value(QStringLiteral("kind")).toString(), QStringLiteral("List"));
            QCOMPARE(list.value(QStringLiteral("apiVersion")).toString(), QStringLiteral("v1"));
            QCOMPARE(list.value(QStringLiteral("items")).toArray().size(), items.size());
        }
        // The one-item List is laid out like the writer's own Lists.
        const QByteArray two = f.resources({a, b});
        const QByteArray one = f.resources({a});
        QVERIFY(two.startsWith(one.left(one.indexOf("\n        },") + 1)));
    }

    void yamlAndNames()
    {
        const Resource a = container(QStringLiteral("a"), Condition::ready(3, now));
        const OutputFormatter yaml(m_services.kinds(), OutputFormatter::Format::Yaml, now);
        const QByteArray text = yaml.resources({a, a});
        QCOMPARE(text.count("\n---\n"), 1);
        QVERIFY(text.contains("status:"));
        QVERIFY(text.contains("uid: uid-a"));
        const OutputFormatter names(m_services.kinds(), OutputFormatter::Format::Name, now);
        QCOMPARE(names.resources({a}), QByteArray("blobcontainer/a\n"));
    }

    void events()
    {
        const QList<Event> list{makeEvent(1, Event::Type::Normal, QStringLiteral("Claimed")),
                                makeEvent(2, Event::Type::Warning, QStringLiteral("Throttled"))};
        const OutputFormatter table(m_services.kinds(), OutputFormatter::Format::Table, now);
        QCOMPARE(QString::fromUtf8(table.events(list)),
                 QStringLiteral("LAST SEEN   TYPE      REASON      OBJECT         COUNT   "
                                "MESSAGE\n"
                                "45s         Normal    Claimed     queue/events   2       a "
                                "message over two lines\n"
                                "45s         Warning   Throttled   queue/events   2       a "
                                "message over two lines\n"));

        const OutputFormatter json(m_services.kinds(), OutputFormatter::Format::Json, now);
        const QJsonObject doc = QJsonDocument::fromJson(json.events(list)).object();
        QCOMPARE(doc.value(QStringLiteral("kind")).toString(), QStringLiteral("EventList"));
        const QJsonArray items = doc.value(QStringLiteral("items")).toArray();
        QCOMPARE(items.size(), 2);
        const QJsonObject e = items.at(1).toObject();
        QCOMPARE(e.value(QStringLiteral("type")).toString(), QStringLiteral("Warning"));
        QCOMPARE(e.value(QStringLiteral("involvedObject")).toString(),
                 QStringLiteral("Queue/events"));
        QCOMPARE(e.value(QStringLiteral("count")).toInt(), 2);
        QCOMPARE(e.value(QStringLiteral("lastTimestamp")).toString(),
                 QStringLiteral("2024-05-01T11:59:15.000Z"));

        const OutputFormatter lines(m_services.kinds(), OutputFormatter::Format::JsonLines, now);
        const QList<QByteArray> rows = lines.events(list).split('\n');
        QCOMPARE(rows.size(), 3); // two lines and the final empty piece
        QCOMPARE(QJsonDocument::fromJson(rows.at(0)).object().value(QStringLiteral("id")).toInt(),
                 1);

        QCOMPARE(table.eventLine(list.at(1)),
                 QStringLiteral("2024-05-01T11:59:15Z  Warning  Throttled  queue/events (x2)  a "
                                "message over two lines"));
    }

private:
    Services m_services;
};

QTEST_GUILESS_MAIN(tst_OutputFormatter)
#include "tst_outputformatter.moc"
