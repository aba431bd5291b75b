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
//   frozen   the whole window (MainWindow over a real Controller) on 200 containers and queues
//            in a private Azurite, which is then frozen with SIGSTOP for 30 seconds while a
//            resync and a Refresh send the workers at it: the GUI thread's longest stall and 99th
//            percentile (a 10 ms timer's lateness) during the freeze, whether and when the account
//            shows unreachable (tree data, status bar), and after SIGCONT the time until every
//            resource is Ready again. Runs only when named; needs the npm emulators installed.
//            The controller has the window's defaults (8 workers, 60 s transfer timeout);
//            CONVERGE_BENCH_HTTP_TIMEOUT_MS shortens the HTTP connect and transfer timeouts.
//   explorer the whole window on an account holding 100,000 containers that nothing manages
//            (seeded into a private Azurite by the SDK peer, tests/bench/peers/
//            azure-list-containers.js, which then lists them all as the peer): from the
//            controller's start to the first unmanaged row in the tree and to the last, a
//            Refresh of the account (listed again) to the end of its listing, the longest GUI
//            stall meanwhile, and memory per unmanaged row. Runs only when named; needs node
//            and the npm packages. BENCH_EXPLORER_AZURITE_DIR=DIR keeps Azurite's data in DIR:
//            the first run seeds it (14 minutes for 100,000 here), later runs of the same size
//            reuse it.
//   bucket   the whole window over an S3 bucket of many objects in moto, seeded by bench.js's
//            boto3 peer (CONVERGE_BENCH_S3_ENDPOINT, _BUCKET, _OBJECTS; the peer's list times in
//            _SDK_FIRST and _SDK_ALL): opening the bucket's row to the first object row, scrolling
//            to the last, the longest GUI stall meanwhile (benchmark 9c). Runs only when named.
//
// CONVERGE_BENCH_SCALE (default 0.01, so that the test suite stays fast) multiplies the sizes
// and the duration (the freeze: at least 3 s). Usage:
// bench_window [figures.json] [tree] [live] [history] [frozen] [explorer] [bucket] (tree, live and
// history when none is named; run one part per process for clean memory figures).

#include "awsfactory.h"
#include "awskinds.h"
#include "azurefactory.h"
#include "azurekinds.h"
#include "clock.h"
#include "controller.h"
#include "emulators.h"
#include "eventlogfilterproxy.h"
#include "eventlogmodel.h"
#include "eventlogview.h"
#include "factoryregistry.h"
#include "genericreconciler.h"
#include "kindregistry.h"
#include "mainwindow.h"
#include "privateazurite.h"
#include "resourcefilterproxy.h"
#include "resourcetreemodel.h"
#include "rowpagingproxy.h"
#include "schemavalidator.h"
#include "scrollfetcher.h"
#include "testkinds.h"
#include "workspace.h"
#include "workspacerunner.h"

#include <QAbstractProxyModel>
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPaintEvent>
#include <QProcess>
#include <QScrollBar>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>
#include <QThread>
#include <QTimer>
#include <QTreeView>

#include <atomic>
#include <cmath>
#include <csignal>
#include <mutex>
#include <thread>

#include <ctime>
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

/// Runs the GUI thread's event loop until `done()` holds or `timeoutMs` pass; returns `done()`.
/// Unlike QTest::qWaitFor, which sleeps up to 10 ms between passes of the loop, the thread waits
/// only for events, as under QApplication::exec(): a sleep of the harness would count as a stall
/// of the window.
template<typename Done>
bool waitUntil(Done done, int timeoutMs)
{
    if (done())
        return true;
    QEventLoop loop;
    QTimer check;
    check.setInterval(5);
    QObject::connect(&check, &QTimer::timeout, &loop, [&] {
        if (done())
            loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    check.start();
    loop.exec();
    return done();
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
        (void)waitUntil([this] { return m_paintedAt >= 0; }, timeoutMs);
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

// --- the GUI thread's time ------------------------------------------------------------

/// The GUI thread's pulse: how late each tick of a 10 ms timer comes, while `recording`.
class Pulse final : public QObject
{
public:
    static constexpr int intervalMs = 10;

    Pulse()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(intervalMs);
        connect(&m_timer, &QTimer::timeout, this, [this] {
            const qint64 gap = m_sinceTick.nsecsElapsed();
            m_sinceTick.start();
            if (recording)
                m_late.append(std::max<qint64>(0, gap - qint64(intervalMs) * 1'000'000));
        });
        m_sinceTick.start();
        m_timer.start();
    }
    /// Starts a new series.
    void restart()
    {
        m_late.clear();
        recording = true;
    }
    double maxMs() const
    {
        return m_late.isEmpty() ? NAN : *std::max_element(m_late.cbegin(), m_late.cend()) / 1e6;
    }
    double p99Ms() const
    {
        if (m_late.isEmpty())
            return NAN;
        QList<qint64> sorted = m_late;
        std::sort(sorted.begin(), sorted.end());
        return sorted.at(sorted.size() * 99 / 100) / 1e6;
    }
    qsizetype ticks() const { return m_late.size(); }
    bool recording = false;

private:
    QTimer m_timer;
    QElapsedTimer m_sinceTick;
    QList<qint64> m_late; // ns beyond the interval
};

/// The GUI thread's slowest events: which receiver and event type a stall was, with its wall and
/// CPU time (a stall with little CPU is the thread waiting for a core, not work of its own).
class TimedApplication final : public QApplication
{
public:
    using QApplication::QApplication;

    struct Slow
    {
        double wallMs = 0;
        double cpuMs = 0;
        QString what;
    };

    bool notify(QObject *receiver, QEvent *event) override
    {
        // QApplication::notify() runs for the events of every thread: the workers' (a socket's
        // notifier in a request's own event loop) are no stall of the window's.
        if (m_depth > 0 || !recording || QThread::currentThread() != thread()) {
            ++m_depth;
            const bool r = QApplication::notify(receiver, event);
            --m_depth;
            return r;
        }
        ++m_depth;
        const qint64 cpuStart = threadCpuNs();
        QElapsedTimer wall;
        wall.start();
        const int type = event->type();
        const char *cls = receiver->metaObject()->className();
        // A nameless receiver (a QSocketNotifier, a QTimer) is told by its parent.
        QString name = receiver->objectName();
        if (name.isEmpty() && receiver->parent())
            name = QStringLiteral("(of %1)").arg(
                QLatin1String(receiver->parent()->metaObject()->className()));
        const bool r = QApplication::notify(receiver, event);
        const double wallMs = wall.nsecsElapsed() / 1e6;
        --m_depth;
        if (wallMs >= 8) {
            m_slow.append(
                {wallMs, (threadCpuNs() - cpuStart) / 1e6,
                 QStringLiteral("%1 %2 event %3").arg(QLatin1String(cls), name).arg(type)});
            std::sort(m_slow.begin(), m_slow.end(),
                      [](const Slow &a, const Slow &b) { return a.wallMs > b.wallMs; });
            if (m_slow.size() > 8)
                m_slow.resize(8);
        }
        return r;
    }
    void restart()
    {
        m_slow.clear();
        recording = true;
    }
    /// The slowest events since restart(), one per line.
    void print(const QString &title) const
    {
        out() << title << ":\n";
        for (const Slow &slow : m_slow)
            out() << QStringLiteral("  %1 ms wall, %2 ms CPU: %3\n")
                         .arg(slow.wallMs, 0, 'f', 1)
                         .arg(slow.cpuMs, 0, 'f', 1)
                         .arg(slow.what);
        out().flush();
    }
    bool recording = false;

private:
    static qint64 threadCpuNs()
    {
        timespec t{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        return qint64(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
    }
    int m_depth = 0;
    QList<Slow> m_slow;
};

TimedApplication *timedApp()
{
    return static_cast<TimedApplication *>(QCoreApplication::instance());
}

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
    RowPagingProxy pages; // as the window: a page of rows per owner, more on scrolling
    pages.setSourceModel(&proxy);
    view.setModel(&pages);
    new ScrollFetcher(&view, &pages); // the view's child
    view.setSortingEnabled(true);
    view.sortByColumn(ResourceTreeModel::NameColumn, Qt::AscendingOrder);
    view.header()->resizeSection(ResourceTreeModel::NameColumn, 220);
    // As the window: new top-level rows are expanded when a batch brings fewer than 100.
    QObject::connect(&pages, &QAbstractItemModel::rowsInserted, &view,
                     [&](const QModelIndex &parent, int first, int last) {
                         if (parent.isValid() || last - first >= 100)
                             return;
                         for (int r = first; r <= last; ++r)
                             view.expand(pages.index(r, 0));
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
    const auto finished = QObject::connect(&model, &ResourceTreeModel::batchApplied, &view, [&] {
        if (std::isnan(appliedAt))
            appliedAt = ms(clock);
    });
    Pulse pulse;
    QTest::qWait(100);
    pulse.restart();
    timedApp()->restart();
    clock.start();
    model.reload();
    const double firstPaint = watch.waitForPaint(clock, [&] { return proxy.rowCount() > 0; });
    QObject::disconnect(started);
    QObject::disconnect(finished);
    // The rest comes page by page; the GUI thread's longest stall meanwhile.
    if (!waitUntil([&] { return !model.isLoading(); }, 600000))
        qFatal("tree: the load did not end in 10 minutes");
    const double loaded = ms(clock);
    (void)watch.waitForPaint(clock, [] { return true; });
    const double maxStall = pulse.maxMs();
    const double p99Stall = pulse.p99Ms();
    pulse.recording = false;
    timedApp()->print(s("tree: the slowest events while the rows came"));
    const qint64 rssAfter = rss();
    const int rows = model.resourceCount() + model.discoveredCount();
    row(s("first page on the runner's thread"), applyStartedAt, s("ms"));
    row(s("applying it (GUI thread, incl. proxy)"), appliedAt - applyStartedAt, s("ms"));
    row(s("reload() to first paint"), firstPaint, s("ms"));
    row(s("reload() to the last row"), loaded, s("ms"));
    row(s("longest GUI stall meanwhile (10 ms timer)"), maxStall, s("ms"));
    row(s("99th percentile GUI stall meanwhile"), p99Stall, s("ms"));
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
        {s("resources"), model.resourceCount()},
        {s("discovered"), model.discoveredCount()},
        {s("loadMs"), applyStartedAt},
        {s("applyMs"), appliedAt - applyStartedAt},
        {s("firstPaintMs"), firstPaint},
        {s("bytesPerRow"), perResource},
        {s("allRowsMs"), loaded},
        {s("maxStallMs"), maxStall},
        {s("p99StallMs"), p99Stall},
        {s("filterTextCallMs"), textCall},
        {s("filterTextPaintMs"), textPaint},
        {s("filterErrorsPaintMs"), quickPaint},
        {s("filterUnmanagedPaintMs"), unmanagedPaint},
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
    if (!waitUntil([&] { return !panel.model.isLoading(); }, 10000))
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
    timedApp()->restart();
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
    if (!waitUntil(
            [&] { return done && panel.model.rowCount() >= written && !panel.model.isLoading(); },
            int(duration * 1000) + 120000))
        qWarning("the panel did not catch up with the writer");
    const double elapsed = ms(clock) / 1000;
    pulse.stop();
    timedApp()->recording = false;
    timedApp()->print(s("live: the slowest events"));
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
        if (!waitUntil([&] { return panel.model.rowCount() > before; }, 10000))
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

// The window as app/main.cpp opens it: a controller in the background over the workspace at
// `path` (not started), the window's settings in `settingsFile`, the window shown at 1280x800
// and exposed (`what` names the benchmark in a failure).
class BenchWindow final
{
public:
    BenchWindow(const QString &path, const KindRegistry &kinds, const FactoryRegistry &factories,
                Reconciler &reconciler, Clock &clock, const QString &settingsFile,
                Controller::Options options, const char *what)
        : controller(path, kinds, factories, reconciler, clock, nullptr, inBackground(options))
        , settings(settingsFile, QSettings::IniFormat)
        , window(WindowServices{kinds, path, &controller, &settings})
    {
        window.resize(1280, 800);
        window.show();
        if (!QTest::qWaitForWindowExposed(&window))
            qFatal("%s: the window is not exposed", what);
    }

    Controller controller;
    QSettings settings;
    MainWindow window;

private:
    // As app/main.cpp starts the window's controller.
    static Controller::Options inBackground(Controller::Options options)
    {
        options.background = true;
        return options;
    }
};

// --- frozen -------------------------------------------------------------------------------

QJsonObject benchFrozen(double scale)
{
    using namespace std::chrono_literals;
    const int children = 200;
    const double freezeSeconds = std::max(3.0, 30 * scale);
    const int httpTimeoutMs = qEnvironmentVariableIsSet("CONVERGE_BENCH_HTTP_TIMEOUT_MS")
                                  ? qEnvironmentVariableIntValue("CONVERGE_BENCH_HTTP_TIMEOUT_MS")
                                  : 0;
    out() << QStringLiteral("frozen: %1 containers and queues, Azurite stopped for %2 s%3\n")
                 .arg(children)
                 .arg(freezeSeconds)
                 .arg(httpTimeoutMs > 0 ? QStringLiteral(", HTTP timeouts %1 ms").arg(httpTimeoutMs)
                                        : QString());
    // The source tree's npm install; CONVERGE_SOURCE_DIR wins (CTest sets it).
    test::PrivateAzurite azurite(qEnvironmentVariableIsSet("CONVERGE_SOURCE_DIR")
                                     ? qEnvironmentVariable("CONVERGE_SOURCE_DIR")
                                     : QString::fromUtf8(CONVERGE_BENCH_SOURCE_DIR));
    if (!azurite.start())
        qFatal("frozen: the private Azurite did not start (is `npm ci` done in the source tree?)");

    // What app/ builds, over the Azure provider.
    KindRegistry kinds;
    FactoryRegistry factories;
    factories.add(std::make_unique<AzureFactory>());
    factories.registerKinds(kinds);
    GenericReconciler reconciler(kinds);
    SystemClock clock;

    QTemporaryDir dir;
    const QString path = dir.filePath(s("frozen.converge"));
    QList<ResourceKey> keys;
    ResourceKey accountKey;
    {
        auto ws = Workspace::open(path, nullptr);
        Resource account;
        account.apiVersion = AzureKinds::apiVersion();
        account.kind = AzureKinds::storageAccount();
        account.metadata.name = s("frozen");
        account.spec = QJsonObject{{s("accountName"), test::devAccountName()},
                                   {s("endpoints"), azurite.endpoints()},
                                   {s("credential"), QJsonObject{{s("emulator"), true}}}};
        QList<Resource> batch{account};
        for (int i = 0; i < children; ++i) {
            Resource r;
            r.apiVersion = AzureKinds::apiVersion();
            r.kind = i % 2 == 0 ? AzureKinds::blobContainer() : AzureKinds::queue();
            r.metadata.name = QStringLiteral("%1-%2")
                                  .arg(i % 2 == 0 ? s("box") : s("line"))
                                  .arg(i / 2, 3, 10, QLatin1Char('0'));
            r.spec = QJsonObject{{s("owner"), QJsonObject{{s("name"), account.metadata.name}}}};
            batch.append(r);
        }
        const SchemaValidator validator(kinds);
        for (Resource &r : batch) {
            const QList<ValidationError> errors = validator.validate(r);
            if (!errors.isEmpty())
                qFatal("frozen: %s", qPrintable(errors.first().toString()));
            keys.append(r.key());
        }
        StoreError error;
        if (!ws->apply(batch, nullptr, &error))
            qFatal("frozen: apply: %s", qPrintable(error.message));
        accountKey = account.key();
    }

    Controller::Options options; // the window's defaults (WindowSettings: 8 workers)
    if (httpTimeoutMs > 0) {
        options.http.connectTimeout = std::chrono::milliseconds(httpTimeoutMs);
        options.http.transferTimeout = std::chrono::milliseconds(httpTimeoutMs);
    }
    BenchWindow opened(path, kinds, factories, reconciler, clock, dir.filePath(s("ui.ini")),
                       options, "frozen");
    Controller &controller = opened.controller;
    MainWindow &window = opened.window;
    auto *tree = window.findChild<ResourceTreeModel *>(s("resourceTreeModel"));
    auto *accountsLabel = window.findChild<QLabel *>(s("accountsLabel"));
    auto *refresh = window.findChild<QAction *>(s("refreshAction"));
    if (!tree || !accountsLabel || !refresh)
        qFatal("frozen: the window has no tree model, accounts label or Refresh action");

    const auto readyCount = [&] {
        int ready = 0;
        for (const ResourceKey &key : std::as_const(keys)) {
            const QModelIndex index = tree->indexOf(key);
            ready += index.isValid() && index.data(ResourceTreeModel::ReadyRole).toInt() ==
                                            int(Condition::Status::True)
                         ? 1
                         : 0;
        }
        return ready;
    };
    const auto saysUnreachable = [&](const ResourceKey &key) {
        const QModelIndex index = tree->indexOf(key);
        if (!index.isValid() ||
            index.data(ResourceTreeModel::ReadyRole).toInt() == int(Condition::Status::True))
            return false;
        const QString text =
            (index.data(ResourceTreeModel::ReasonRole).toString() + QLatin1Char(' ') +
             index.data(ResourceTreeModel::MessageRole).toString())
                .toLower();
        return text.contains(QLatin1String("unreachable")) ||
               text.contains(QLatin1String("timeout")) || text.contains(QLatin1String("timed out"));
    };

    QElapsedTimer timer;
    timer.start();
    if (!controller.start())
        qFatal("frozen: the controller did not start");
    if (!waitUntil([&] { return readyCount() == keys.size(); }, 300000))
        qFatal("frozen: only %d of %lld Ready before the freeze", readyCount(),
               qlonglong(keys.size()));
    const double readySeconds = ms(timer) / 1000;
    row(s("first convergence"), readySeconds, s("s"));

    // Freeze; then what the periodic resync and a person's Refresh of the account would do.
    Pulse pulse;
    QTest::qWait(200); // the pulse settles
    pulse.restart();
    azurite.signal(SIGSTOP);
    QElapsedTimer frozen;
    frozen.start();
    controller.resyncNow();
    if (!window.selectResource(accountKey))
        qFatal("frozen: the account is not in the tree");
    refresh->trigger();

    double accountShownAt = NAN;
    double statusShownAt = NAN;
    int childrenShown = 0;
    QString reason;
    QString message;
    QString statusText;
    while (frozen.elapsed() < qint64(freezeSeconds * 1000)) {
        QTest::qWait(50);
        if (std::isnan(accountShownAt) && saysUnreachable(accountKey)) {
            accountShownAt = frozen.elapsed() / 1000.0;
            const QModelIndex index = tree->indexOf(accountKey);
            reason = index.data(ResourceTreeModel::ReasonRole).toString();
            message = index.data(ResourceTreeModel::MessageRole).toString();
        }
        if (std::isnan(statusShownAt) && accountsLabel->text().contains(s("not Ready"))) {
            statusShownAt = frozen.elapsed() / 1000.0;
            statusText = accountsLabel->text();
        }
    }
    for (const ResourceKey &key : std::as_const(keys))
        childrenShown += key != accountKey && saysUnreachable(key) ? 1 : 0;
    const double frozenFor = frozen.elapsed() / 1000.0;
    const double maxStall = pulse.maxMs();
    const double p99Stall = pulse.p99Ms();
    const qsizetype ticks = pulse.ticks();

    pulse.restart();
    azurite.signal(SIGCONT);
    QElapsedTimer resumed;
    resumed.start();
    const bool reconverged =
        waitUntil([&] { return readyCount() == keys.size() && controller.isIdle(); }, 600000);
    const double reconverge = reconverged ? resumed.elapsed() / 1000.0 : NAN;
    const double maxStallAfter = pulse.maxMs();
    pulse.recording = false;

    const bool shown = !std::isnan(accountShownAt);
    row(s("freeze"), frozenFor, s("s"));
    row(s("longest GUI stall during the freeze (10 ms timer)"), maxStall, s("ms"));
    row(s("99th percentile GUI stall during the freeze"), p99Stall, s("ms"));
    row(s("  timer ticks during the freeze"), double(ticks), s(""));
    row(s("account shows unreachable after"), accountShownAt, s("s"));
    row(s("status bar shows the account not Ready after"), statusShownAt, s("s"));
    row(s("children showing unreachable at SIGCONT"), childrenShown, s(""));
    if (shown)
        out() << QStringLiteral("  account: %1: %2\n").arg(reason, message);
    row(s("SIGCONT to everything Ready again"), reconverge, s("s"));
    row(s("longest GUI stall while reconverging"), maxStallAfter, s("ms"));
    return QJsonObject{
        {s("resources"), int(keys.size())},
        {s("httpTimeoutMs"),
         httpTimeoutMs > 0 ? httpTimeoutMs : int(options.http.transferTimeout.count())},
        {s("firstReadySeconds"), readySeconds},
        {s("freezeSeconds"), frozenFor},
        {s("maxStallMs"), maxStall},
        {s("p99StallMs"), p99Stall},
        {s("ticks"), double(ticks)},
        {s("unreachableShown"), shown},
        {s("unreachableAfterSeconds"), shown ? QJsonValue(accountShownAt) : QJsonValue()},
        {s("statusBarNotReadyAfterSeconds"),
         std::isnan(statusShownAt) ? QJsonValue() : QJsonValue(statusShownAt)},
        {s("statusBar"), statusText},
        {s("accountReason"), reason},
        {s("accountMessage"), message},
        {s("childrenUnreachable"), childrenShown},
        {s("reconvergeSeconds"), reconverged ? QJsonValue(reconverge) : QJsonValue()},
        {s("maxStallReconvergeMs"), maxStallAfter},
    };
}

// --- explorer -----------------------------------------------------------------------------

QJsonObject benchExplorer(double scale)
{
    const int containers = std::max(500, int(std::lround(100'000 * scale)));
    out() << QStringLiteral("explorer: an account of %1 unmanaged containers\n").arg(containers);
    const QString sourceDir = qEnvironmentVariableIsSet("CONVERGE_SOURCE_DIR")
                                  ? qEnvironmentVariable("CONVERGE_SOURCE_DIR")
                                  : QString::fromUtf8(CONVERGE_BENCH_SOURCE_DIR);
    // A kept directory says how many containers it was seeded with.
    test::PrivateAzurite::Options azuriteOptions;
    azuriteOptions.location = qEnvironmentVariable("BENCH_EXPLORER_AZURITE_DIR");
    const QString seededMark =
        azuriteOptions.location.isEmpty()
            ? QString()
            : QDir(azuriteOptions.location).filePath(s("converge-seeded-%1").arg(containers));
    const bool seeded = !seededMark.isEmpty() && QFileInfo::exists(seededMark);
    if (!azuriteOptions.location.isEmpty())
        QDir().mkpath(azuriteOptions.location);
    test::PrivateAzurite azurite(sourceDir, azuriteOptions);
    if (!azurite.start())
        qFatal("explorer: the private Azurite did not start (is `npm ci` done in the source "
               "tree?)");

    // The SDK seeds the account, then lists it as the peer: to the first page and to the last.
    const auto runPeer = [&](bool seed) {
        QProcess peer;
        peer.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        peer.start(s("node"),
                   {sourceDir + s("/tests/bench/peers/azure-list-containers.js"), s("--blob"),
                    azurite.endpoints().value(s("blob")).toString(), s("--count"),
                    QString::number(containers), s("--seed"), seed ? s("1") : s("0")});
        if (!peer.waitForFinished(-1) || peer.exitCode() != 0)
            qFatal("explorer: the SDK peer failed (exit %d)", peer.exitCode());
        return QJsonDocument::fromJson(peer.readAllStandardOutput()).object();
    };
    QJsonObject sdk = runPeer(!seeded);
    if (!seededMark.isEmpty() && !seeded) {
        // Stopped as a person would, Azurite writes what it holds; its next start reads it.
        if (!azurite.stop() || !azurite.start())
            qFatal("explorer: the private Azurite did not restart on its seeded data");
        const double seedSeconds = sdk.value(s("seedSeconds")).toDouble();
        sdk = runPeer(false);
        sdk.insert(s("seedSeconds"), seedSeconds);
        QFile mark(seededMark);
        if (!mark.open(QIODevice::WriteOnly))
            qFatal("explorer: cannot write %s", qPrintable(seededMark));
    }
    if (sdk.value(s("listed")).toInt() < containers)
        qFatal("explorer: the SDK listed %d of %d containers", sdk.value(s("listed")).toInt(),
               containers);

    KindRegistry kinds;
    FactoryRegistry factories;
    factories.add(std::make_unique<AzureFactory>());
    factories.registerKinds(kinds);
    GenericReconciler reconciler(kinds);
    SystemClock clock;
    QTemporaryDir dir;
    const QString path = dir.filePath(s("explorer.converge"));
    ResourceKey accountKey;
    {
        auto ws = Workspace::open(path, nullptr);
        Resource account;
        account.apiVersion = AzureKinds::apiVersion();
        account.kind = AzureKinds::storageAccount();
        account.metadata.name = s("explorer");
        account.spec = QJsonObject{{s("accountName"), test::devAccountName()},
                                   {s("endpoints"), azurite.endpoints()},
                                   {s("credential"), QJsonObject{{s("emulator"), true}}}};
        StoreError error;
        if (!ws->apply({account}, nullptr, &error))
            qFatal("explorer: apply: %s", qPrintable(error.message));
        accountKey = account.key();
    }

    BenchWindow opened(path, kinds, factories, reconciler, clock, dir.filePath(s("ui.ini")), {},
                       "explorer");
    Controller &controller = opened.controller;
    MainWindow &window = opened.window;
    auto *tree = window.findChild<ResourceTreeModel *>(s("resourceTreeModel"));
    auto *refresh = window.findChild<QAction *>(s("refreshAction"));
    if (!tree || !refresh)
        qFatal("explorer: the window has no tree model or Refresh action");
    QTest::qWait(500); // the empty workspace loaded and painted
    const qint64 rssBefore = rss();

    // When the rows come, to the millisecond: the model says so as it inserts them.
    QElapsedTimer timer;
    double firstRowMs = NAN;
    double allRowsMs = NAN;
    QObject::connect(tree, &QAbstractItemModel::rowsInserted, tree, [&] {
        const int shown = tree->discoveredCount();
        if (shown > 0 && std::isnan(firstRowMs))
            firstRowMs = ms(timer);
        if (shown >= containers && std::isnan(allRowsMs))
            allRowsMs = ms(timer);
    });
    Pulse pulse;
    QTest::qWait(200);
    pulse.restart();
    timedApp()->restart();
    timer.start();
    if (!controller.start())
        qFatal("explorer: the controller did not start");
    if (!waitUntil([&] { return !std::isnan(allRowsMs); }, 600000))
        qFatal("explorer: %d of %d rows after 10 minutes", tree->discoveredCount(), containers);
    const double coldStall = pulse.maxMs();
    const double coldP99 = pulse.p99Ms();
    timedApp()->print(s("explorer: the slowest events while the rows came"));
    QTest::qWait(1000); // the last batch settles
    const qint64 rssAfter = rss();
    const double bytesPerRow = double(rssAfter - rssBefore) / containers;

    // A person's Refresh of the account: listed again, every row seen anew.
    if (!window.selectResource(accountKey))
        qFatal("explorer: the account is not in the tree");
    QTest::qWait(200);
    pulse.restart();
    timedApp()->restart();
    QElapsedTimer refreshTimer;
    refreshTimer.start();
    refresh->trigger();
    (void)waitUntil([&] { return controller.isListing({accountKey}); }, 10000);
    if (!waitUntil([&] { return !controller.isListing({accountKey}) && !tree->isLoading(); },
                   600000))
        qFatal("explorer: the Refresh's listing did not end");
    const double refreshSeconds = ms(refreshTimer) / 1000;
    const double refreshStall = pulse.maxMs();
    timedApp()->print(s("explorer: the slowest events during the Refresh"));
    pulse.recording = false;
    const int rowsAfterRefresh = tree->discoveredCount();

    const double sdkFirst = sdk.value(s("firstPageSeconds")).toDouble();
    const double sdkAll = sdk.value(s("seconds")).toDouble();
    row(s("SDK: seeding (createIfNotExists, 64 at a time)"), sdk.value(s("seedSeconds")).toDouble(),
        s("s"));
    row(s("SDK listContainers: first page"), sdkFirst * 1000, s("ms"));
    row(s("SDK listContainers: every page"), sdkAll, s("s"));
    row(s("start to the first unmanaged row"), firstRowMs, s("ms"));
    row(s("start to the last unmanaged row"), allRowsMs / 1000, s("s"));
    row(s("  ratio to the SDK's last page"), allRowsMs / 1000 / sdkAll, s("x"));
    row(s("longest GUI stall meanwhile (10 ms timer)"), coldStall, s("ms"));
    row(s("99th percentile GUI stall meanwhile"), coldP99, s("ms"));
    row(s("memory per unmanaged row"), bytesPerRow, s("B"));
    row(s("Refresh of the account to its listing's end"), refreshSeconds, s("s"));
    row(s("longest GUI stall during the Refresh"), refreshStall, s("ms"));
    row(s("rows after the Refresh"), rowsAfterRefresh, s(""));
    return QJsonObject{
        {s("containers"), containers},
        {s("sdkSeedSeconds"), sdk.value(s("seedSeconds"))},
        {s("sdkFirstPageSeconds"), sdkFirst},
        {s("sdkSeconds"), sdkAll},
        {s("sdkPages"), sdk.value(s("pages"))},
        {s("firstRowSeconds"), firstRowMs / 1000},
        {s("allRowsSeconds"), allRowsMs / 1000},
        {s("ratioToSdk"), allRowsMs / 1000 / sdkAll},
        {s("maxStallMs"), coldStall},
        {s("p99StallMs"), coldP99},
        {s("bytesPerRow"), bytesPerRow},
        {s("refreshSeconds"), refreshSeconds},
        {s("refreshMaxStallMs"), refreshStall},
        {s("rowsAfterRefresh"), rowsAfterRefresh},
    };
}

// --- bucket -------------------------------------------------------------------------------

// The window over an S3 bucket of many objects that bench.js's boto3 peer put into moto (and
// listed as the peer): from opening the bucket's row to its first object row, then scrolling to
// the end as a person would, to the last, and the longest GUI stall meanwhile.
QJsonObject benchBucket()
{
    const QString endpoint = qEnvironmentVariable("CONVERGE_BENCH_S3_ENDPOINT");
    const QString bucketName = qEnvironmentVariable("CONVERGE_BENCH_S3_BUCKET");
    const int objects = qEnvironmentVariableIntValue("CONVERGE_BENCH_S3_OBJECTS");
    if (endpoint.isEmpty() || bucketName.isEmpty() || objects <= 0)
        qFatal("bucket: CONVERGE_BENCH_S3_ENDPOINT, _BUCKET and _OBJECTS name a seeded bucket "
               "(tests/bench/peers/bench.js sets them)");
    out() << QStringLiteral("bucket: %1 objects in %2\n").arg(objects).arg(bucketName);
    KindRegistry kinds;
    FactoryRegistry factories;
    factories.add(std::make_unique<AwsFactory>());
    factories.registerKinds(kinds);
    GenericReconciler reconciler(kinds);
    SystemClock clock;
    QTemporaryDir dir;
    const QString path = dir.filePath(s("bucket.converge"));
    Resource account;
    account.apiVersion = AwsKinds::apiVersion();
    account.kind = AwsKinds::accountKind();
    account.metadata.name = s("bench");
    account.spec = QJsonObject{{s("region"), s("us-east-1")},
                               {s("endpoint"), endpoint},
                               {s("credential"), QJsonObject{{s("emulator"), true}}}};
    Resource bucket;
    bucket.apiVersion = AwsKinds::apiVersion();
    bucket.kind = s("S3Bucket");
    bucket.metadata.name = bucketName;
    bucket.spec =
        QJsonObject{{s("owner"), QJsonObject{{s("name"), s("bench")}}}, {s("name"), bucketName}};
    {
        // Closed before the window and its controller open it.
        auto ws = Workspace::open(path, nullptr);
        StoreError error;
        if (!ws || !ws->apply({account, bucket}, nullptr, &error))
            qFatal("bucket: apply: %s", qPrintable(error.message));
    }

    BenchWindow opened(path, kinds, factories, reconciler, clock, dir.filePath(s("ui.ini")), {},
                       "bucket");
    Controller &controller = opened.controller;
    MainWindow &window = opened.window;
    auto *tree = window.findChild<ResourceTreeModel *>(s("resourceTreeModel"));
    auto *filter = window.findChild<QSortFilterProxyModel *>(s("resourceFilterProxy"));
    auto *pages = window.findChild<QAbstractProxyModel *>(s("resourcePages"));
    auto *view = window.findChild<QTreeView *>(s("resourceTree"));
    if (!tree || !filter || !pages || !view)
        qFatal("bucket: the window has no tree");
    if (!controller.start())
        qFatal("bucket: the controller did not start");
    const ResourceKey bucketKey = bucket.key();
    const auto ready = [&] {
        const QModelIndex at = tree->indexOf(bucketKey);
        return at.isValid() && at.data(ResourceTreeModel::ReadyRole).toInt() ==
                                   static_cast<int>(Condition::Status::True);
    };
    if (!waitUntil(ready, 60000))
        qFatal("bucket: the bucket did not become Ready");
    QTest::qWait(500);

    const auto shown = [&] { return tree->rowCount(tree->indexOf(bucketKey)); };
    QElapsedTimer timer;
    double firstRowMs = NAN;
    double allRowsMs = NAN;
    Pulse pulse;
    pulse.restart();
    timedApp()->restart();
    timer.start();
    const QModelIndex bucketRow =
        pages->mapFromSource(filter->mapFromSource(tree->indexOf(bucketKey)));
    view->expand(bucketRow); // a person opens the bucket
    if (!waitUntil([&] { return shown() > 0; }, 60000))
        qFatal("bucket: no object row after a minute");
    firstRowMs = ms(timer);
    // Then scrolls to the end, again and again, as the rows come.
    if (!waitUntil(
            [&] {
                view->scrollToBottom();
                return shown() >= objects;
            },
            600000))
        qFatal("bucket: %d of %d rows after 10 minutes", shown(), objects);
    allRowsMs = ms(timer);
    const double stall = pulse.maxMs();
    const double p99 = pulse.p99Ms();
    pulse.recording = false;
    timedApp()->print(s("bucket: the slowest events while the rows came"));
    controller.stop();

    const double sdkFirst = qEnvironmentVariable("CONVERGE_BENCH_S3_SDK_FIRST").toDouble();
    const double sdkAll = qEnvironmentVariable("CONVERGE_BENCH_S3_SDK_ALL").toDouble();
    row(s("list_objects_v2: first page"), sdkFirst * 1000, s("ms"));
    row(s("list_objects_v2: every page"), sdkAll, s("s"));
    row(s("opening the bucket to its first object row"), firstRowMs, s("ms"));
    row(s("to the last row, scrolled as they came"), allRowsMs / 1000, s("s"));
    row(s("longest GUI stall meanwhile (10 ms timer)"), stall, s("ms"));
    row(s("99th percentile GUI stall meanwhile"), p99, s("ms"));
    return QJsonObject{{s("objects"), objects},
                       {s("sdkFirstPageSeconds"), sdkFirst},
                       {s("sdkSeconds"), sdkAll},
                       {s("firstRowSeconds"), firstRowMs / 1000},
                       {s("allRowsSeconds"), allRowsMs / 1000},
                       {s("maxStallMs"), stall},
                       {s("p99StallMs"), p99}};
}

} // namespace

int main(int argc, char **argv)
{
    // Without a display (a server, CI) the views render offscreen.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY") &&
        qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    TimedApplication app(argc, argv);
    bool ok = false;
    double scale = qEnvironmentVariable("CONVERGE_BENCH_SCALE").toDouble(&ok);
    if (!ok || scale <= 0)
        scale = 0.01;
    QString figures;
    QStringList parts;
    for (int i = 1; i < argc; ++i) {
        const QString arg = QString::fromLocal8Bit(argv[i]);
        if (arg == s("tree") || arg == s("live") || arg == s("history") || arg == s("frozen") ||
            arg == s("explorer") || arg == s("bucket"))
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
    if (parts.contains(s("frozen")))
        json.insert(s("frozen"), benchFrozen(scale));
    if (parts.contains(s("explorer")))
        json.insert(s("explorer"), benchExplorer(scale));
    if (parts.contains(s("bucket")))
        json.insert(s("bucket"), benchBucket());

    if (!figures.isEmpty()) {
        QFile file(figures);
        if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(json).toJson()) < 0) {
            QTextStream(stderr) << "bench_window: cannot write " << figures << Qt::endl;
            return 1;
        }
    }
    return 0;
}
