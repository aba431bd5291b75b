// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The thin proxy over the resource tree: ResourceFilter's rules applied recursively (owners of
// a match stay), re-filtering when rows change, sorting by the shown text.
#include "resourcefilterproxy.h"

#include "enginefixture.h"
#include "resourcetreemodel.h"
#include "workspacerunner.h"

#include <QAbstractItemModelTester>
#include <QRegularExpression>
#include <QSignalSpy>

#include <memory>

using namespace converge;
using namespace converge::test;

namespace {

const QDateTime t0 = QDateTime(QDate(2026, 1, 2), QTime(3, 4, 5), Qt::UTC);

ResourceKey widgetKey(const QString &name)
{
    return {QStringLiteral("Widget"), name};
}

/// The tree of a fixture's workspace behind the proxy, sorted by name as the window sorts it,
/// every change the proxy reports checked by QAbstractItemModelTester.
struct Sorted
{
    explicit Sorted(const EngineFixture &f)
        : runner(f.path)
        , model(runner, f.kinds)
    {
        proxy.setSourceModel(&model);
        tester = std::make_unique<QAbstractItemModelTester>(
            &proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.sort(ResourceTreeModel::NameColumn);
    }
    /// Loads the whole workspace and waits until it is in.
    bool load()
    {
        model.reload();
        return QTest::qWaitFor([this] { return !model.isLoading(); }, 10000);
    }

    WorkspaceRunner runner;
    ResourceTreeModel model;
    ResourceFilterProxy proxy;
    std::unique_ptr<QAbstractItemModelTester> tester;
};

} // namespace

class tst_ResourceFilterProxy final : public QObject
{
    Q_OBJECT

private:
    bool setReady(EngineFixture &f, const ResourceKey &key, const Condition &ready)
    {
        ResourceStatus status = f.stored(key).status;
        status.conditions = {ready};
        return f.ws->updateStatus(key, status, nullptr);
    }

    // "name(child, child)" for every shown row, in the proxy's order.
    static QString shape(const QAbstractItemModel &model, const QModelIndex &parent = {})
    {
        QStringList parts;
        for (int row = 0; row < model.rowCount(parent); ++row) {
            const QModelIndex index = model.index(row, 0, parent);
            QString part = index.data().toString();
            if (model.rowCount(index) > 0)
                part += QLatin1Char('(') + shape(model, index) + QLatin1Char(')');
            parts.append(part);
        }
        return parts.join(QStringLiteral(", "));
    }

private slots:
    void filters()
    {
        EngineFixture f;
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("other")),
                         EngineFixture::gadget(QStringLiteral("acct")),
                         EngineFixture::widget(QStringLiteral("reports"), QStringLiteral("acct")),
                         EngineFixture::widget(QStringLiteral("invoices"), QStringLiteral("acct")),
                         EngineFixture::widget(QStringLiteral("logs"), QStringLiteral("other"))}));
        QVERIFY(setReady(f, {QStringLiteral("Gadget"), QStringLiteral("acct")},
                         Condition::ready(1, t0)));
        QVERIFY(setReady(f, widgetKey(QStringLiteral("invoices")), Condition::ready(1, t0)));
        QVERIFY(setReady(f, widgetKey(QStringLiteral("reports")),
                         Condition::notReady(Condition::Severity::Error,
                                             QStringLiteral("BadRequest"), QString(), 1, t0)));
        QVERIFY(setReady(f, widgetKey(QStringLiteral("logs")),
                         Condition::notReady(Condition::Severity::Info,
                                             QStringLiteral("Reconciling"), QString(), 1, t0)));

        Sorted tree(f);
        QVERIFY(tree.load());
        ResourceTreeModel &model = tree.model;
        ResourceFilterProxy &proxy = tree.proxy;

        QCOMPARE(shape(proxy), QStringLiteral("acct(invoices, reports), other(logs)"));
        proxy.setFilterText(QStringLiteral("INVO"));
        QCOMPARE(shape(proxy), QStringLiteral("acct(invoices)"));
        proxy.setFilterText(QStringLiteral("badreq"));
        QCOMPARE(shape(proxy), QStringLiteral("acct(reports)"));
        proxy.setFilterText(QStringLiteral("gadget"));
        QCOMPARE(shape(proxy), QStringLiteral("acct, other"));
        proxy.setFilterText(QString());

        proxy.setQuickFilter(ResourceFilter::Quick::Errors);
        QCOMPARE(shape(proxy), QStringLiteral("acct(reports)"));
        proxy.setQuickFilter(ResourceFilter::Quick::NotReady);
        QCOMPARE(shape(proxy), QStringLiteral("acct(reports), other(logs)"));
        proxy.setFilterText(QStringLiteral("logs"));
        QCOMPARE(shape(proxy), QStringLiteral("other(logs)"));
        QCOMPARE(proxy.filter(),
                 ResourceFilter(QStringLiteral("logs"), ResourceFilter::Quick::NotReady));
        proxy.setFilter(ResourceFilter());
        QCOMPARE(shape(proxy), QStringLiteral("acct(invoices, reports), other(logs)"));

        // A row that starts failing joins the Errors view when the model updates it.
        proxy.setQuickFilter(ResourceFilter::Quick::Errors);
        QVERIFY(setReady(f, widgetKey(QStringLiteral("logs")),
                         Condition::notReady(Condition::Severity::Warning,
                                             QStringLiteral("Throttled"), QString(), 1, t0)));
        model.reloadKeys({widgetKey(QStringLiteral("logs"))});
        QTRY_VERIFY(!model.isLoading());
        QCOMPARE(shape(proxy), QStringLiteral("acct(reports), other(logs)"));

        // Only the severity changes (same reason, same text): still re-filtered.
        QVERIFY(setReady(f, widgetKey(QStringLiteral("logs")),
                         Condition::notReady(Condition::Severity::Info, QStringLiteral("Throttled"),
                                             QString(), 1, t0)));
        model.reloadKeys({widgetKey(QStringLiteral("logs"))});
        QTRY_VERIFY(!model.isLoading());
        QCOMPARE(shape(proxy), QStringLiteral("acct(reports)"));

        // New rows are filtered as they come.
        QVERIFY(
            f.apply({EngineFixture::widget(QStringLiteral("broken"), QStringLiteral("other"))}));
        QVERIFY(setReady(f, widgetKey(QStringLiteral("broken")),
                         Condition::notReady(Condition::Severity::Error, QStringLiteral("Nope"),
                                             QString(), 1, t0)));
        model.reloadKeys({widgetKey(QStringLiteral("broken"))});
        QTRY_VERIFY(!model.isLoading());
        QCOMPARE(shape(proxy), QStringLiteral("acct(reports), other(broken)"));
    }

    void aRowUnderAHiddenOwnerMapsToNothingAndLeavesNoMapping()
    {
        // Qt 6.4's proxy makes a mapping for the parent of any row it is asked to map, hidden
        // or not, and with recursive filtering leaves that mapping alone when rows that do not
        // match go in under the hidden parent: once shown again it misses them, and the next
        // insertion there is "invalid inserted rows" and a crash (the soak, seed 1057854973).
        QTest::failOnWarning(QRegularExpression(QStringLiteral("QSortFilterProxyModel")));
        EngineFixture f;
        QVERIFY(f.apply({EngineFixture::gadget(QStringLiteral("acct")),
                         EngineFixture::gadget(QStringLiteral("other")),
                         EngineFixture::widget(QStringLiteral("w1"), QStringLiteral("acct"))}));
        Sorted tree(f);
        QVERIFY(tree.load());
        ResourceTreeModel &model = tree.model;
        ResourceFilterProxy &proxy = tree.proxy;

        proxy.setFilterText(QStringLiteral("other"));
        QCOMPARE(shape(proxy), QStringLiteral("other"));
        QVERIFY(!proxy.mapFromSource(model.indexOf(widgetKey(QStringLiteral("w1")))).isValid());
        const auto add = [&](const QString &name) {
            if (!f.apply({EngineFixture::widget(name, QStringLiteral("acct"))}))
                return false;
            model.reloadKeys({widgetKey(name)});
            return QTest::qWaitFor([&] { return !model.isLoading(); }, 10000);
        };
        QVERIFY(add(QStringLiteral("w2"))); // under the hidden owner, matching nothing
        proxy.setFilterText(QString());
        QCOMPARE(shape(proxy), QStringLiteral("acct(w1, w2), other"));
        QVERIFY(add(QStringLiteral("w3")));
        QCOMPARE(shape(proxy), QStringLiteral("acct(w1, w2, w3), other"));
        // Rows under shown owners still map.
        QVERIFY(proxy.mapFromSource(model.indexOf(widgetKey(QStringLiteral("w3")))).isValid());
    }

    void discoveredRows()
    {
        EngineFixture f;
        QVERIFY(
            f.apply({EngineFixture::gadget(QStringLiteral("acct")),
                     EngineFixture::gadget(QStringLiteral("other")),
                     EngineFixture::widget(QStringLiteral("invoices"), QStringLiteral("acct"))}));
        QVERIFY(setReady(f, widgetKey(QStringLiteral("invoices")),
                         Condition::notReady(Condition::Severity::Error,
                                             QStringLiteral("BadRequest"), QString(), 1, t0)));
        DiscoveredResource archive;
        archive.kind = QStringLiteral("Widget");
        archive.name = QStringLiteral("archive");
        archive.owner = {QStringLiteral("Gadget"), QStringLiteral("acct")};
        archive.seenAt = t0;
        archive.firstSeenAt = t0; // as the store reads it back
        QVERIFY(f.ws->replaceDiscovered(archive.owner, archive.kind, {archive}, nullptr));

        Sorted tree(f);
        QVERIFY(tree.load());
        ResourceTreeModel &model = tree.model;
        ResourceFilterProxy &proxy = tree.proxy;

        QCOMPARE(shape(proxy), QStringLiteral("acct(archive, invoices), other"));
        proxy.setQuickFilter(ResourceFilter::Quick::Unmanaged);
        QCOMPARE(shape(proxy), QStringLiteral("acct(archive)"));
        proxy.setQuickFilter(ResourceFilter::Quick::Errors);
        QCOMPARE(shape(proxy), QStringLiteral("acct(invoices)"));
        proxy.setQuickFilter(ResourceFilter::Quick::NotReady); // the accounts are not reconciled
        QCOMPARE(shape(proxy), QStringLiteral("acct(invoices), other"));
        proxy.setFilter(ResourceFilter(QStringLiteral("unmanaged")));
        QCOMPARE(shape(proxy), QStringLiteral("acct(archive)"));
        proxy.setFilter(ResourceFilter(QStringLiteral("arch")));
        QCOMPARE(shape(proxy), QStringLiteral("acct(archive)"));

        // Under the Unmanaged filter, rows come and go as the owner's list changes.
        proxy.setFilter(ResourceFilter(QString(), ResourceFilter::Quick::Unmanaged));
        DiscoveredResource logs = archive;
        logs.name = QStringLiteral("logs");
        logs.owner = {QStringLiteral("Gadget"), QStringLiteral("other")};
        QVERIFY(f.ws->replaceDiscovered(logs.owner, logs.kind, {logs}, nullptr));
        QVERIFY(f.ws->replaceDiscovered(archive.owner, archive.kind, {}, nullptr));
        model.reloadKeys({archive.owner, logs.owner});
        QTRY_VERIFY(!model.isLoading());
        QCOMPARE(shape(proxy), QStringLiteral("other(logs)"));
        const QModelIndex shown = proxy.index(0, 0, proxy.index(0, 0));
        QVERIFY(!model.keyAt(proxy.mapToSource(shown)).isValid());
        QCOMPARE(shown.data(ResourceTreeModel::DiscoveredRole).value<DiscoveredResource>(), logs);
    }
};

QTEST_MAIN(tst_ResourceFilterProxy)
#include "tst_resourcefilterproxy.moc"
