// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// DeclaredListings and DeclaredOperations over a scripted send, shaped as Spanner answers: a
// project's databases listed instance by instance and page by page, a missing database settled
// by its instance's list, and a database's operations in flight.
#include "declaredlistings.h"
#include "declaredoperations.h"

#include <QJsonArray>
#include <QTest>

using namespace converge;
using namespace std::chrono_literals;

namespace {

// Two instances, a with three databases (pages of two), b with one, c with none.
struct Project
{
    QMap<QString, QStringList> databases{{QStringLiteral("a"), {u"a1"_qs, u"a2"_qs, u"a3"_qs}},
                                         {QStringLiteral("b"), {u"b1"_qs}},
                                         {QStringLiteral("c"), {}}};
    QStringList sent;

    Outcome<ApiCaller::Reply> send(const DeclaredCall &call, const QJsonObject &in)
    {
        sent << call.operation + QLatin1Char(' ') +
                    in.value(QStringLiteral("instancesId")).toString() + QLatin1Char(' ') +
                    in.value(QStringLiteral("pageToken")).toString();
        QJsonArray items;
        if (call.operation == QLatin1String("projects.instances.list")) {
            for (const QString &instance : databases.keys())
                items.append(
                    QJsonObject{{QStringLiteral("name"),
                                 QString(QStringLiteral("projects/p/instances/") + instance)}});
            return ApiCaller::Reply{QJsonObject{{QStringLiteral("instances"), items}}, {}};
        }
        const QString instance = in.value(QStringLiteral("instancesId")).toString();
        if (!databases.contains(instance))
            return BackendError::make(BackendError::Category::Transient, QStringLiteral("INTERNAL"),
                                      QStringLiteral("failed to marshal error message"));
        const QStringList all = databases.value(instance);
        const int from = in.value(QStringLiteral("pageToken")).toString().toInt();
        for (int i = from; i < qMin(from + 2, int(all.size())); ++i)
            items.append(QJsonObject{
                {QStringLiteral("name"),
                 QStringLiteral("projects/p/instances/%1/databases/%2").arg(instance, all.at(i))}});
        QJsonObject body{{QStringLiteral("databases"), items}};
        if (from + 2 < all.size())
            body.insert(QStringLiteral("nextPageToken"), QString::number(from + 2));
        return ApiCaller::Reply{body, {}};
    }
    DeclaredListings::Send sender()
    {
        return [this](const DeclaredCall &call, const QJsonObject &in) { return send(call, in); };
    }
};

KindDeclaration databases()
{
    KindDeclaration d;
    d.kind.name = QStringLiteral("SpannerDatabase");
    d.idMember = QStringLiteral("name");
    d.list.operation = QStringLiteral("projects.instances.databases.list");
    d.list.result = QStringLiteral("databases");
    d.list.inputToken = QStringLiteral("pageToken");
    d.list.outputToken = QStringLiteral("nextPageToken");
    d.listWithin.operation = QStringLiteral("projects.instances.list");
    d.listWithin.result = QStringLiteral("instances");
    d.listWithinMember = QStringLiteral("instancesId");
    d.read.operation = QStringLiteral("projects.instances.databases.get");
    return d;
}

} // namespace

class tst_DeclaredListings final : public QObject
{
    Q_OBJECT

private slots:
    void listsEveryParentPageByPage()
    {
        Project project;
        const KindDeclaration d = databases();
        QStringList names;
        ListScope scope;
        int pages = 0;
        do {
            auto page = DeclaredListings::within(
                d, scope, project.sender(), [&](const ListScope &one, const QJsonObject &extra) {
                    QJsonObject in = extra;
                    if (!one.continuation.isEmpty())
                        in.insert(QStringLiteral("pageToken"), one.continuation);
                    auto reply = project.send(d.list, in);
                    if (!reply)
                        return Outcome<ListPage>(reply.error());
                    ListPage p;
                    for (const QJsonValue &item :
                         reply.value().body.value(QStringLiteral("databases")).toArray())
                        p.items.append(Observation{});
                    for (const QJsonValue &item :
                         reply.value().body.value(QStringLiteral("databases")).toArray())
                        names << item[QStringLiteral("name")].toString().section(u'/', -1);
                    p.continuation =
                        reply.value().body.value(QStringLiteral("nextPageToken")).toString();
                    return Outcome<ListPage>(p);
                });
            QVERIFY(page);
            scope.continuation = page.value().continuation;
            ++pages;
        } while (!scope.continuation.isEmpty() && pages < 20);
        QCOMPARE(names, (QStringList{u"a1"_qs, u"a2"_qs, u"a3"_qs, u"b1"_qs}));
        QCOMPARE(pages, 4); // a's two pages, b's, c's empty one
    }

    // An instance gone between two pages: on with the next one.
    void aParentGoneBetweenPagesIsPassed()
    {
        Project project;
        const KindDeclaration d = databases();
        ListScope scope;
        scope.continuation = QStringLiteral("aa\n2");
        QStringList asked;
        auto page = DeclaredListings::within(
            d, scope, project.sender(), [&](const ListScope &one, const QJsonObject &extra) {
                asked << extra.value(QStringLiteral("instancesId")).toString() + QLatin1Char(':') +
                             one.continuation;
                return Outcome<ListPage>(ListPage{});
            });
        QVERIFY(page);
        QCOMPARE(asked, QStringList{QStringLiteral("b:")});
        QCOMPARE(page.value().continuation, QStringLiteral("c\n"));
    }

    // The emulator's 500 for a missing database is NotFound when its instance's list lacks it,
    // and stays what it was when the list holds it.
    void aDoubtfulReadIsSettledByTheList()
    {
        Project project;
        KindDeclaration d = databases();
        d.absentConfirmedByList = true;
        auto failing = [&](const DeclaredCall &call, const QJsonObject &in) {
            if (call.operation == d.read.operation)
                return Outcome<ApiCaller::Reply>(BackendError::make(
                    BackendError::Category::Transient, QStringLiteral("INTERNAL"),
                    QStringLiteral("failed to marshal error message")));
            return project.send(call, in);
        };
        QJsonObject resource;
        const QJsonObject inA{{QStringLiteral("instancesId"), QStringLiteral("a")}};
        auto gone =
            DeclaredListings::read(d, inA, inA, QStringLiteral("a9"), failing, 10, &resource);
        QVERIFY(!gone);
        QCOMPARE(gone.error().category, BackendError::Category::NotFound);
        // a3 is on the list's second page: there, so the read's failure stands.
        auto there =
            DeclaredListings::read(d, inA, inA, QStringLiteral("a3"), failing, 10, &resource);
        QVERIFY(!there);
        QCOMPARE(there.error().category, BackendError::Category::Transient);
        // Without the declaration's word, a server's failure is never taken for absence.
        d.absentConfirmedByList = false;
        auto plain =
            DeclaredListings::read(d, inA, inA, QStringLiteral("a9"), failing, 10, &resource);
        QCOMPARE(plain.error().category, BackendError::Category::Transient);
    }

    void anOperationNotDoneIsInProgress_data()
    {
        QTest::addColumn<QJsonArray>("operations");
        QTest::addColumn<QString>("progress"); // empty: not in progress
        const QJsonObject done{
            {QStringLiteral("name"), QStringLiteral("projects/p/instances/a/operations/op1")},
            {QStringLiteral("done"), true}};
        const QJsonObject running{
            {QStringLiteral("name"),
             QStringLiteral("projects/p/instances/a/databases/a1/operations/op2")},
            {QStringLiteral("metadata"),
             QJsonObject{{QStringLiteral("@type"),
                          QStringLiteral("type.googleapis.com/google.spanner.admin.database.v1."
                                         "UpdateDatabaseDdlMetadata")}}}};
        QTest::newRow("none") << QJsonArray() << QString();
        QTest::newRow("all done") << QJsonArray{done} << QString();
        QTest::newRow("one running")
            << QJsonArray{done, running}
            << QStringLiteral("UpdateDatabaseDdl (operation op2) in progress");
    }
    void anOperationNotDoneIsInProgress()
    {
        QFETCH(QJsonArray, operations);
        QFETCH(QString, progress);
        DeclaredCall pending;
        pending.operation = QStringLiteral("projects.instances.databases.operations.list");
        pending.result = QStringLiteral("operations");
        Observation o;
        const auto failed = DeclaredOperations::follow(
            pending, {},
            [&](const DeclaredCall &, const QJsonObject &) {
                return Outcome<ApiCaller::Reply>(
                    ApiCaller::Reply{QJsonObject{{QStringLiteral("operations"), operations}}, {}});
            },
            o, 250ms);
        QVERIFY(!failed);
        QCOMPARE(o.inProgress, !progress.isEmpty());
        QCOMPARE(o.progress, progress);
        if (o.inProgress)
            QCOMPARE(o.pollAfter, 250ms);
    }
};

QTEST_GUILESS_MAIN(tst_DeclaredListings)
#include "tst_declaredlistings.moc"
