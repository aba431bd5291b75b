// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT

// The window's models and views under load, offscreen, over a real workspace:
//   tree     100,000 resources: reload() to the first paint of the tree (a QTreeView over the
//            filter proxy, configured as the window's), memory per resource, filter changes.
//   live     10,000 events a second for 30 seconds into the log panel, recorded by a writer
//            thread and handed over in at most 20 batches a second (as the controller does): the
//            longest GUI-thread stall (a 1 ms timer's largest gap), rowsInserted signals per
//            second, memory per event.
//   history  1,000,000 events in the workspace: opening the log panel (first rows painted),
//            scrolling to the end (the newest) and paging back to the oldest.
//
// CONVERGE_BENCH_SCALE (default 0.01, so that the test suite stays fast) multiplies the sizes
// and the duration. Usage: bench_window [figures.json] [tree] [live] [history] (all parts when
// none is named; run one part per process for clean memory figures).

#include "eventlogfilterproxy.h"
#include "eventlogmodel.h"
#include "eventlogview.h"
#include "kindregistry.h"
#include "resourcefilterproxy.h"
#include "resourcetreemodel.h"
#include "schemavalidator.h"
#include "testkinds.h"
#include "workspace.h"
#include "workspacerunner.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPaintEvent>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>
#include <QTimer>
#include <QTreeView>

#include <atomic>
#include <cmath>
#include <mutex>
#include <thread>

#include <unistd.h>

using namespace converge;
using converge::test::registerTestKinds;
using converge::test::testApiVersion;

namespace {

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

QTextStream &out()
{
    static QTextStream stream(stdout);
    return stream;
}

/// Resident set size in bytes (/proc/self/statm, second field).
qint64 rss()
{
    QFile file(s("/proc/self/statm"));
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> fields = file.readAll().split(' ');
    return fields.size() > 1 ? fields.at(1).toLongLong() * sysconf(_SC_PAGESIZE) : 0;
}

double ms(const QElapsedTimer &timer)
{
    return timer.nsecsElapsed() / 1e6;
}

void row(const QString &what, double value, const QString &unit)
{
    out() << QStringLiteral("  %1 %2  %3\n")
                 .arg(what, -44)
                 .arg(std::isfinite(value) ? QString::number(value, 'f', value < 100 ? 2 : 0)
                                           : s("-"),
                      12)
                 .arg(unit);
    out().flush();
}

/// Notes when the watched widget paints (the time of the first paint once `armed` says so).
class PaintWatch final : public QObject
{
public:
    explicit PaintWatch(QWidget *widget)
        : m_widget(widget)
    {
        widget->installEventFilter(this);
    }

    /// Waits for a paint after now that `ready()` accepts; returns its time on `clock` in ms,
    /// or NaN after `timeoutMs`.
    template<typename Ready>
    double waitForPaint(const QElapsedTimer &clock, Ready ready, int timeoutMs = 600000)
    {
        m_paintedAt = -1;
        m_ready = ready;
        m_clock = &clock;
        m_widget->update();
        (void)QTest::qWaitFor([this] { return m_paintedAt >= 0; }, timeoutMs);
        m_ready = nullptr;
        return m_paintedAt >= 0 ? m_paintedAt : NAN;
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Paint && m_ready && m_paintedAt < 0 && m_ready()) {
            // The paint is what the person waits for: count it in.
            const bool handled = watched->event(event);
            m_paintedAt = ms(*m_clock);
            return handled;
        }
        return QObject::eventFilter(watched, event);
    }

private:
    QWidget *m_widget;
    const QElapsedTimer *m_clock = nullptr;
    std::function<bool()> m_ready;
    double m_paintedAt = -1;
};

/// The longest time the watched widget spent painting.
class PaintTimer final : public QObject
{
public:
    explicit PaintTimer(QWidget *widget) { widget->installEventFilter(this); }
    double longestMs = 0;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() != QEvent::Paint || m_inside)
            return QObject::eventFilter(watched, event);
        m_inside = true;
        QElapsedTimer t;
        t.start();
        const bool handled = watched->event(event);
        longestMs = std::max(longestMs, ms(t));
        m_inside = false;
        return handled;
    }

private:
    bool m_inside = false;
};

// --- tree ---------------------------------------------------------------------------------

Resource widget(int account, int i)
{
    Resource r;
    r.apiVersion = testApiVersion();
    r.kind = s("Widget");
    r.metadata.name = QStringLiteral("w-%1-%2")
                          .arg(account, 3, 10, QLatin1Char('0'))
                          .arg(i, 6, 10, QLatin1Char('0'));
    r.spec =
        QJsonObject{{s("owner"), QJsonObject{{s("name"), QStringLiteral("acct-%1").arg(account)}}},
                    {s("replicas"), i % 5 + 1}};
    return r;
}

QJsonObject benchTree(double scale)
{
    const int total = std::max(1000, int(std::lround(100'000 * scale)));
    const int accounts = std::max(2, int(std::lround(20 * std::min(1.0, scale * 10))));
    const int perAccount = total / accounts - 1;
    const int discoveredPerAccount = 50;
    out() << QStringLiteral("tree: %1 resources (%2 accounts of %3 widgets), %4 discovered\n")
                 .arg(accounts * (perAccount + 1))
                 .arg(accounts)
                 .arg(perAccount)
                 .arg(accounts * discoveredPerAccount);

    KindRegistry kinds;
    registerTestKinds(kinds);
    QTemporaryDir dir;
    const QString path = dir.filePath(s("tree.converge"));
    QElapsedTimer timer;
    timer.start();
    {
        auto ws = Workspace::open(path, nullptr);
        ws->setRelaxedDurability(true);
        const SchemaValidator validator(kinds);
        QList<Resource> batch;
        const auto flush = [&] {
            for (Resource &r : batch)
                validator.validate(r);
            StoreError error;
            if (!ws->apply(batch, nullptr, &error))
                qFatal("apply: %s", qPrintable(error.message));
            batch.clear();
        };
        for (int a = 0; a < accounts; ++a) {
            Resource g;
            g.apiVersion = testApiVersion();
            g.kind = s("Gadget");
            g.metadata.name = QStringLiteral("acct-%1").arg(a);
            g.spec = QJsonObject{{s("location"), s("west")}};
            batch.append(g);
            for (int i = 0; i < perAccount; ++i) {
                batch.append(widget(a, i));
                if (batch.size() >= 5000)
                    flush();
            }
            QList<DiscoveredResource> found;
            for (int i = 0; i < discoveredPerAccount; ++i) {
                DiscoveredResource d;
                d.kind = s("Widget");
                d.name = QStringLiteral("found-%1").arg(i, 4, 10, QLatin1Char('0'));
                d.owner = {s("Gadget"), g.metadata.name};
                d.seenAt = QDateTime::currentDateTimeUtc();
                found.append(d);
            }
            flush();
            ws->replaceDiscovered({s("Gadget"), g.metadata.name}, s("Widget"), found, nullptr);
        }
        // Some variety in the Ready column: every 50th widget is failing.
        for (int a = 0; a < accounts; ++a) {
            for (int i = 0; i < perAccount; i += 50) {
                ResourceStatus status;
                status.conditions = {Condition::notReady(Condition::Severity::Warning,
                                                         s("Throttled"), s("slow down"), 1,
                                                         QDateTime::currentDateTimeUtc())};
                ws->updateStatus(widget(a, i).key(), status, nullptr);
            }
        }
    }
    row(s("filling the workspace"), ms(timer) / 1000, s("s"));

    WorkspaceRunner runner(path);
    ResourceTreeModel model(runner, kinds);
    ResourceFilterProxy proxy;
    proxy.setSourceModel(&model);
    QTreeView view;
    view.setUniformRowHeights(true);
    view.setAlternatingRowColors(true);
    view.setSelectionMode(QAbstractItemView::ExtendedSelection);
    view.setSelectionBehavior(QAbstractItemView::SelectRows);
    view.setModel(&proxy);
    view.setSortingEnabled(true);
    view.sortByColumn(ResourceTreeModel::NameColumn, Qt::AscendingOrder);
    view.header()->resizeSection(ResourceTreeModel::NameColumn, 220);
    // As the window: new top-level rows are expanded when a batch brings fewer than 100.
    QObject::connect(&proxy, &QAbstractItemModel::rowsInserted, &view,
                     [&](const QModelIndex &parent, int first, int last) {
                         if (parent.isValid() || last - first >= 100)
                             return;
                         for (int r = first; r <= last; ++r)
                             view.expand(proxy.index(r, 0));
                     });
    view.resize(1200, 800);
    view.show();
    if (!QTest::qWaitForWindowExposed(&view))
        qFatal("the tree view is not exposed");
    PaintWatch watch(view.viewport());
    QCoreApplication::processEvents();

    const qint64 rssBefore = rss();
    double appliedAt = NAN;
    double applyStartedAt = NAN;
    QElapsedTimer clock;
    const auto started =
        QObject::connect(&model, &QAbstractItemModel::rowsAboutToBeInserted, &view, [&] {
            if (std::isnan(applyStartedAt))
                applyStartedAt = ms(clock);
        });
    const auto finished = QObject::connect(&model, &ResourceTreeModel::batchApplied, &view,
                                           [&] { appliedAt = ms(clock); });
    clock.start();
    model.reload();
    const double firstPaint = watch.waitForPaint(clock, [&] { return proxy.rowCount() > 0; });
    QObject::disconnect(started);
    QObject::disconnect(finished);
    const qint64 rssAfter = rss();
    const int rows = model.resourceCount() + model.discoveredCount();
    row(s("load on the runner's thread"), applyStartedAt, s("ms"));
    row(s("applying the batch (GUI thread, incl. proxy)"), appliedAt - applyStartedAt, s("ms"));
    row(s("reload() to first paint"), firstPaint, s("ms"));
    const double perResource = double(rssAfter - rssBefore) / rows;
    row(s("memory per row (RSS)"), perResource, s("B"));

    const auto filterTime = [&](const std::function<void()> &change) {
        QElapsedTimer t;
        t.start();
        change();
        const double call = ms(t);
        const double painted = watch.waitForPaint(t, [] { return true; });
        return std::pair{call, painted};
    };
    const auto [textCall, textPaint] = filterTime([&] { proxy.setFilterText(s("w-001-00004")); });
    const int textRows = proxy.rowCount(proxy.index(0, 0));
    row(s("filter text: setFilterText"), textCall, s("ms"));
    row(s("filter text: to the next paint"), textPaint, s("ms"));
    const auto [quickCall, quickPaint] = filterTime(
        [&] { proxy.setFilter(ResourceFilter(QString(), ResourceFilter::Quick::Errors)); });
    row(s("quick filter Errors: to the next paint"), quickPaint, s("ms"));
    const auto [unmanagedCall, unmanagedPaint] = filterTime(
        [&] { proxy.setFilter(ResourceFilter(QString(), ResourceFilter::Quick::Unmanaged)); });
    row(s("quick filter Unmanaged: to the next paint"), unmanagedPaint, s("ms"));
    const auto [clearCall, clearPaint] = filterTime([&] { proxy.setFilter(ResourceFilter()); });
    row(s("clearing the filter: to the next paint"), clearPaint, s("ms"));
    Q_UNUSED(quickCall);
    Q_UNUSED(unmanagedCall);
    Q_UNUSED(clearCall);
    if (textRows < 1)
        qFatal("the text filter kept nothing");

    return QJsonObject{
        {s("resources"), model.resourceCount()}, {s("discovered"), model.discoveredCount()},
        {s("loadMs"), applyStartedAt},           {s("applyMs"), appliedAt - applyStartedAt},
        {s("firstPaintMs"), firstPaint},         {s("bytesPerRow"), perResource},
        {s("filterTextCallMs"), textCall},       {s("filterTextPaintMs"), textPaint},
        {s("filterErrorsPaintMs"), quickPaint},  {s("filterUnmanagedPaintMs"), unmanagedPaint},
        {s("filterClearPaintMs"), clearPaint},
    };
}

// --- events -------------------------------------------------------------------------------

const QStringList reasons{s("Created"), s("Updated"), s("Synced"), s("DriftDetected"),
                          s("WaitingForOwner")};

/// Event `i`; every one is distinct (the message), so that none is aggregated.
Event makeEvent(qint64 i, const QDateTime &time)
{
    Event e;
    e.involved = {s("BlobContainer"),
                  QStringLiteral("object-%1").arg(i % 5000, 6, 10, QLatin1Char('0'))};
    e.type = i % 10 == 0 ? Event::Type::Warning : Event::Type::Normal;
    e.reason = reasons.at(int(i % reasons.size()));
    e.message = QStringLiteral("reconciled %1 in %2 ms (attempt %3)")
                    .arg(e.involved.toString())
                    .arg(i % 997)
                    .arg(i);
    e.phase = s("createOrUpdate");
    e.reconcileId = QStringLiteral("rec-%1").arg(i / 4, 8, 16, QLatin1Char('0'));
    e.requestId = QStringLiteral("00000000-0000-4000-8000-%1").arg(i, 12, 16, QLatin1Char('0'));
    e.firstTime = e.lastTime = time;
    return e;
}

/// The log panel as the window builds it.
struct LogPanel
{
    explicit LogPanel(const QString &path)
        : runner(path)
        , model(runner, 500)
    {
        proxy.setSourceModel(&model);
        view.setModel(&proxy);
        view.setHistoryModel(&model);
        view.header()->setStretchLastSection(false);
        view.resize(1200, 400);
        view.show();
        if (!QTest::qWaitForWindowExposed(&view))
            qFatal("the log view is not exposed");
    }

    WorkspaceRunner runner;
    EventLogModel model;
    EventLogFilterProxy proxy;
    EventLogView view;
};

QJsonObject benchLive(double scale)
{
    const int rate = 10'000;
    const double duration = std::max(1.0, 30 * scale);
    out() << QStringLiteral("live: %1 events/s for %2 s, batches every 50 ms\n")
                 .arg(rate)
                 .arg(duration);
    QTemporaryDir dir;
    const QString path = dir.filePath(s("live.converge"));
    Workspace::open(path, nullptr);
    LogPanel panel(path);
    panel.model.reload();
    if (!QTest::qWaitFor([&] { return !panel.model.isLoading(); }, 10000))
        qFatal("the log panel did not load");

    // The GUI thread's pulse: the largest gap between 1 ms timer ticks.
    QTimer pulse;
    pulse.setTimerType(Qt::PreciseTimer);
    pulse.setInterval(1);
    QElapsedTimer sinceTick;
    qint64 maxGapNs = 0;
    QList<qint64> gaps;
    QObject::connect(&pulse, &QTimer::timeout, &panel.view, [&] {
        const qint64 gap = sinceTick.nsecsElapsed();
        sinceTick.start();
        maxGapNs = std::max(maxGapNs, gap);
        gaps.append(gap);
    });
    int inserted = 0;
    int batches = 0;
    double longestAppendMs = 0;
    PaintTimer paints(panel.view.viewport());
    QObject::connect(&panel.model, &QAbstractItemModel::rowsInserted, &panel.view,
                     [&] { ++inserted; });

    const qint64 rssBefore = rss();
    std::atomic<bool> done{false};
    std::atomic<qint64> written{0};
    QString writerError;
    QElapsedTimer clock;
    clock.start();
    sinceTick.start();
    pulse.start();
    std::thread writer([&] {
        StoreError error;
        auto ws = Workspace::open(path, &error);
        if (!ws) {
            writerError = error.message;
            done = true;
            return;
        }
        ws->setRelaxedDurability(true);
        QElapsedTimer t;
        t.start();
        const auto total = qint64(rate * duration);
        qint64 next = 0;
        while (next < total) {
            // Whatever is due by now, at most 20 hand-overs a second (the controller's rate).
            const auto due = std::min(total, qint64(t.nsecsElapsed() / 1e9 * rate) + 1);
            QList<Event> chunk;
            const QDateTime now = QDateTime::currentDateTimeUtc();
            for (; next < due; ++next)
                chunk.append(makeEvent(next, now));
            if (!ws->recordEvents(chunk, &error)) {
                writerError = error.message;
                break;
            }
            written += chunk.size();
            QMetaObject::invokeMethod(
                &panel.model,
                [&panel, &longestAppendMs, chunk] {
                    QElapsedTimer t;
                    t.start();
                    panel.model.appendEvents(chunk);
                    longestAppendMs = std::max(longestAppendMs, ms(t));
                },
                Qt::QueuedConnection);
            ++batches;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        done = true;
    });
    if (!QTest::qWaitFor(
            [&] { return done && panel.model.rowCount() >= written && !panel.model.isLoading(); },
            int(duration * 1000) + 120000))
        qWarning("the panel did not catch up with the writer");
    const double elapsed = ms(clock) / 1000;
    pulse.stop();
    writer.join();
    if (!writerError.isEmpty())
        qFatal("writer: %s", qPrintable(writerError));
    const qint64 rssAfter = rss();
    std::sort(gaps.begin(), gaps.end());
    const double p99 = gaps.isEmpty() ? NAN : gaps.at(gaps.size() * 99 / 100) / 1e6;
    const double perEvent = double(rssAfter - rssBefore) / std::max(1, panel.model.rowCount());

    row(s("events written and shown"), double(panel.model.rowCount()), s(""));
    row(s("achieved rate"), written / elapsed, s("events/s"));
    row(s("hand-overs (batches)"), batches / elapsed, s("/s"));
    row(s("rowsInserted signals"), inserted / elapsed, s("/s"));
    row(s("longest GUI-thread stall (1 ms timer gap)"), maxGapNs / 1e6, s("ms"));
    row(s("99th percentile timer gap"), p99, s("ms"));
    row(s("  longest appendEvents() (model, proxy, view)"), longestAppendMs, s("ms"));
    row(s("  longest paint of the log view"), paints.longestMs, s("ms"));
    row(s("memory per event in the panel (RSS)"), perEvent, s("B"));
    return QJsonObject{
        {s("seconds"), elapsed},
        {s("events"), panel.model.rowCount()},
        {s("eventsPerSecond"), written / elapsed},
        {s("batchesPerSecond"), batches / elapsed},
        {s("rowsInsertedPerSecond"), inserted / elapsed},
        {s("maxStallMs"), maxGapNs / 1e6},
        {s("p99GapMs"), p99},
        {s("longestAppendMs"), longestAppendMs},
        {s("longestPaintMs"), paints.longestMs},
        {s("bytesPerEvent"), perEvent},
    };
}

QJsonObject benchHistory(double scale)
{
    const qint64 total = std::max<qint64>(5000, std::llround(1'000'000 * scale));
    out() << QStringLiteral("history: %1 events in the workspace\n").arg(total);
    QTemporaryDir dir;
    const QString path = dir.filePath(s("history.converge"));
    QElapsedTimer timer;
    timer.start();
    {
        auto ws = Workspace::open(path, nullptr);
        ws->setRelaxedDurability(true);
        const QDateTime base = QDateTime::currentDateTimeUtc().addSecs(-total / 100);
        for (qint64 first = 0; first < total; first += 5000) {
            QList<Event> chunk;
            for (qint64 i = first; i < std::min(total, first + 5000); ++i)
                chunk.append(makeEvent(i, base.addMSecs(i * 10)));
            StoreError error;
            if (!ws->recordEvents(chunk, &error))
                qFatal("recordEvents: %s", qPrintable(error.message));
        }
    }
    row(s("filling the workspace"), ms(timer) / 1000, s("s"));

    const qint64 rssBefore = rss();
    QElapsedTimer clock;
    clock.start();
    LogPanel panel(path);
    PaintWatch watch(panel.view.viewport());
    panel.model.reload();
    const double open = watch.waitForPaint(clock, [&] { return panel.proxy.rowCount() > 0; });
    row(s("open the log panel: first rows painted"), open, s("ms"));

    QScrollBar *bar = panel.view.verticalScrollBar();
    bar->setValue(bar->minimum() + (bar->maximum() - bar->minimum()) / 2);
    QCoreApplication::processEvents();
    clock.start();
    panel.view.scrollToBottom();
    const double end = watch.waitForPaint(clock, [&] { return bar->value() == bar->maximum(); });
    const qint64 newest = panel.proxy.index(panel.proxy.rowCount() - 1, 0)
                              .data(EventLogModel::EventIdRole)
                              .toLongLong();
    row(s("scroll to the end (the newest event)"), end, s("ms"));
    if (newest != total)
        qFatal("the last row is event %lld, not %lld", newest, total);

    // Back to the oldest: scrolled to the top, the view asks for the previous page each time.
    const double budgetMs = 120'000;
    clock.start();
    int pages = 0;
    while (ms(clock) < budgetMs) {
        if (!panel.model.isLoading() && !panel.model.canFetchMore({}))
            break;
        const int before = panel.model.rowCount();
        if (bar->value() != bar->minimum())
            bar->setValue(bar->minimum()); // the view asks for the previous page
        else if (panel.model.canFetchMore({}))
            panel.model.fetchMore({}); // already at the top: what "Older events" does
        if (!QTest::qWaitFor([&] { return panel.model.rowCount() > before; }, 10000))
            break;
        ++pages;
    }
    const double startMs = watch.waitForPaint(clock, [] { return true; });
    const bool reached = panel.model.index(0, 0).data(EventLogModel::EventIdRole).toLongLong() == 1;
    const double perPage = startMs / std::max(1, pages);
    const qint64 rssAfter = rss();
    row(reached ? s("page back to the oldest event") : s("paging back (budget spent)"), startMs,
        s("ms"));
    row(s("  pages of 500"), pages, s(""));
    row(s("  per page"), perPage, s("ms"));
    row(s("memory per event shown (RSS)"), double(rssAfter - rssBefore) / panel.model.rowCount(),
        s("B"));
    return QJsonObject{
        {s("events"), total},
        {s("openMs"), open},
        {s("scrollToEndMs"), end},
        {s("pageBackMs"), startMs},
        {s("pageBackReachedOldest"), reached},
        {s("pages"), pages},
        {s("msPerPage"), perPage},
        {s("rowsShown"), panel.model.rowCount()},
        {s("bytesPerEventShown"), double(rssAfter - rssBefore) / panel.model.rowCount()},
    };
}

} // namespace

int main(int argc, char **argv)
{
    // Without a display (a server, CI) the views render offscreen.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY") &&
        qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    bool ok = false;
    double scale = qEnvironmentVariable("CONVERGE_BENCH_SCALE").toDouble(&ok);
    if (!ok || scale <= 0)
        scale = 0.01;
    QString figures;
    QStringList parts;
    for (int i = 1; i < argc; ++i) {
        const QString arg = QString::fromLocal8Bit(argv[i]);
        if (arg == s("tree") || arg == s("live") || arg == s("history"))
            parts.append(arg);
        else
            figures = arg;
    }
    if (parts.isEmpty())
        parts = {s("tree"), s("live"), s("history")};

    out() << QStringLiteral("bench_window: scale %1\n").arg(scale);
    QJsonObject json{{s("scale"), scale}};
    if (parts.contains(s("tree")))
        json.insert(s("tree"), benchTree(scale));
    if (parts.contains(s("live")))
        json.insert(s("live"), benchLive(scale));
    if (parts.contains(s("history")))
        json.insert(s("history"), benchHistory(scale));

    if (!figures.isEmpty()) {
        QFile file(figures);
        if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(json).toJson()) < 0) {
            QTextStream(stderr) << "bench_window: cannot write " << figures << Qt::endl;
            return 1;
        }
    }
    return 0;
}
