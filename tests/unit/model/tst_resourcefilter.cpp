// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "resourcefilter.h"

#include "discoveredresource.h"
#include "reconcilestate.h"
#include "resource.h"

#include <QTest>

using namespace converge;

namespace {

const QDateTime t0 = QDateTime(QDate(2024, 5, 1), QTime(10, 0), Qt::UTC);

enum class Ready { True, Unknown, InProgress, Warning, Error };

Resource widget(const QString &name, Ready ready, const QString &reason = {}, bool deleting = false)
{
    Resource r;
    r.apiVersion = QStringLiteral("test.converge.dev/v1");
    r.kind = QStringLiteral("Widget");
    r.metadata.name = name;
    if (deleting)
        r.metadata.deletionTimestamp = t0;
    switch (ready) {
    case Ready::True:
        r.status.conditions = {Condition::ready(1, t0)};
        break;
    case Ready::Unknown:
        break;
    case Ready::InProgress:
        r.status.conditions = {
            Condition::notReady(Condition::Severity::Info, reason, QString(), 1, t0)};
        break;
    case Ready::Warning:
        r.status.conditions = {
            Condition::notReady(Condition::Severity::Warning, reason, QString(), 1, t0)};
        break;
    case Ready::Error:
        r.status.conditions = {
            Condition::notReady(Condition::Severity::Error, reason, QString(), 1, t0)};
        break;
    }
    return r;
}

} // namespace

class tst_ResourceFilter final : public QObject
{
    Q_OBJECT

private slots:
    void matches_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<ResourceFilter::Quick>("quick");
        QTest::addColumn<Resource>("resource");
        QTest::addColumn<bool>("expected");

        using Q = ResourceFilter::Quick;
        const Resource ready = widget(QStringLiteral("invoices"), Ready::True);
        const Resource unknown = widget(QStringLiteral("invoices"), Ready::Unknown);
        const Resource progress =
            widget(QStringLiteral("reports"), Ready::InProgress, QStringLiteral("Reconciling"));
        const Resource warning =
            widget(QStringLiteral("reports"), Ready::Warning, QStringLiteral("Throttled"));
        const Resource error =
            widget(QStringLiteral("reports"), Ready::Error, QStringLiteral("BadRequest"));
        const Resource deleting = widget(QStringLiteral("old"), Ready::True, {}, true);

        QTest::newRow("empty keeps all") << QString() << Q::All << error << true;
        QTest::newRow("blank text keeps all") << QStringLiteral("  ") << Q::All << ready << true;
        QTest::newRow("name substring") << QStringLiteral("voic") << Q::All << ready << true;
        QTest::newRow("name, other case") << QStringLiteral("INVOICES") << Q::All << ready << true;
        QTest::newRow("text trimmed") << QStringLiteral(" invoices ") << Q::All << ready << true;
        QTest::newRow("kind") << QStringLiteral("widget") << Q::All << ready << true;
        QTest::newRow("kind/name") << QStringLiteral("widget/inv") << Q::All << ready << true;
        QTest::newRow("reason") << QStringLiteral("throttl") << Q::All << warning << true;
        QTest::newRow("reason of ready") << QStringLiteral("succeeded") << Q::All << ready << true;
        QTest::newRow("no match") << QStringLiteral("queue") << Q::All << ready << false;
        QTest::newRow("other reason") << QStringLiteral("throttled") << Q::All << error << false;

        QTest::newRow("not ready: ready") << QString() << Q::NotReady << ready << false;
        QTest::newRow("not ready: unknown") << QString() << Q::NotReady << unknown << true;
        QTest::newRow("not ready: progress") << QString() << Q::NotReady << progress << true;
        QTest::newRow("not ready: warning") << QString() << Q::NotReady << warning << true;
        QTest::newRow("not ready: error") << QString() << Q::NotReady << error << true;
        QTest::newRow("not ready: deleting") << QString() << Q::NotReady << deleting << true;

        QTest::newRow("errors: ready") << QString() << Q::Errors << ready << false;
        QTest::newRow("errors: unknown") << QString() << Q::Errors << unknown << false;
        QTest::newRow("errors: progress") << QString() << Q::Errors << progress << false;
        QTest::newRow("errors: warning") << QString() << Q::Errors << warning << true;
        QTest::newRow("errors: error") << QString() << Q::Errors << error << true;

        QTest::newRow("unmanaged: ready") << QString() << Q::Unmanaged << ready << false;
        QTest::newRow("unmanaged: unknown") << QString() << Q::Unmanaged << unknown << false;
        QTest::newRow("unmanaged: error") << QString() << Q::Unmanaged << error << false;

        QTest::newRow("both: text and quick")
            << QStringLiteral("reports") << Q::Errors << error << true;
        QTest::newRow("both: quick fails")
            << QStringLiteral("reports") << Q::Errors << progress << false;
        QTest::newRow("both: text fails")
            << QStringLiteral("invoices") << Q::Errors << error << false;
    }

    void matches()
    {
        QFETCH(QString, text);
        QFETCH(ResourceFilter::Quick, quick);
        QFETCH(Resource, resource);
        QFETCH(bool, expected);
        const ResourceFilter filter(text, quick);
        QCOMPARE(filter.matches(resource, ReconcileState{}), expected);
    }

    void matchesDiscovered_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<ResourceFilter::Quick>("quick");
        QTest::addColumn<bool>("expected");
        using Q = ResourceFilter::Quick;
        QTest::newRow("all") << QString() << Q::All << true;
        QTest::newRow("unmanaged") << QString() << Q::Unmanaged << true;
        QTest::newRow("not ready") << QString() << Q::NotReady << false;
        QTest::newRow("errors") << QString() << Q::Errors << false;
        QTest::newRow("name") << QStringLiteral("ARCH") << Q::All << true;
        QTest::newRow("kind") << QStringLiteral("blobcont") << Q::Unmanaged << true;
        QTest::newRow("kind/name") << QStringLiteral("container/arch") << Q::All << true;
        QTest::newRow("reason text") << QStringLiteral("unmanaged") << Q::All << true;
        QTest::newRow("owner is not its text") << QStringLiteral("devstore") << Q::All << false;
        QTest::newRow("no match") << QStringLiteral("invoices") << Q::Unmanaged << false;
        QTest::newRow("text, wrong quick") << QStringLiteral("archive") << Q::Errors << false;
    }

    void matchesDiscovered()
    {
        QFETCH(QString, text);
        QFETCH(ResourceFilter::Quick, quick);
        QFETCH(bool, expected);
        DiscoveredResource d;
        d.kind = QStringLiteral("BlobContainer");
        d.name = QStringLiteral("archive");
        d.owner = ResourceKey{QStringLiteral("StorageAccount"), QStringLiteral("devstore")};
        d.resourceId = QStringLiteral("http://127.0.0.1:10000/devstoreaccount1/archive");
        QCOMPARE(ResourceFilter(text, quick).matches(d), expected);
    }

    void emptiness()
    {
        ResourceFilter filter;
        QVERIFY(filter.isEmpty());
        filter.setText(QStringLiteral("   "));
        QVERIFY(filter.isEmpty());
        QCOMPARE(filter.text(), QString());
        filter.setQuick(ResourceFilter::Quick::NotReady);
        QVERIFY(!filter.isEmpty());
        QVERIFY(filter != ResourceFilter());
        QCOMPARE(filter, ResourceFilter(QString(), ResourceFilter::Quick::NotReady));
    }
};

QTEST_APPLESS_MAIN(tst_ResourceFilter)
#include "tst_resourcefilter.moc"
