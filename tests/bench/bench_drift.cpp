// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT

// Converge's side of benchmark 3 (scripts/bench.sh): the drift check over a workspace whose
// resources are all Ready, against the real emulators. The CLI has no command that runs one
// resync pass and returns, so this starts the controller as the window does (8 workers, the
// real providers), waits until its first pass is done (the start-up pass: opening the workspace
// and observing everything), then asks for PASSES full resyncs (Controller::resyncNow(), what
// the periodic resync does every 10 minutes) and times each until the controller is idle again;
// then stops it and, PASSES times, times the first pass of a fresh controller over the same
// workspace (3b: what the passes before left in the workspace, the memo of quiet runs, is all it
// has of them).
// Every HTTP request the providers send is counted.
//
//   bench_drift WORKSPACE [PASSES=3] [OUT.json]
//
// Prints a line per pass and, when OUT is given, {resources, startup{…}, passes[{seconds,
// reconciles, requests, lists, writes, events}], restarts[{…}]} as JSON. Exit 1 when a pass wrote
// to the backend or did not finish.

#include "awsfactory.h"
#include "azurefactory.h"
#include "clock.h"
#include "controller.h"
#include "factoryregistry.h"
#include "gcpfactory.h"
#include "genericreconciler.h"
#include "kindregistry.h"
#include "workspace.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>
#include <QThread>
#include <QUrlQuery>

#include <atomic>
#include <ctime>

using namespace converge;
using namespace std::chrono_literals;

namespace {

int fail(const QString &what)
{
    QTextStream(stderr) << "bench_drift: " << what << Qt::endl;
    return 1;
}

/// Spins the event loop (the controller's batched signals arrive there) until `done`.
template<typename Done>
bool waitFor(Done done, int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    while (!done()) {
        if (timer.elapsed() > timeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        QThread::msleep(1);
    }
    return true;
}

struct Counters
{
    std::atomic<qint64> requests{0};
    std::atomic<qint64> lists{0};
    std::atomic<qint64> writes{0};
};

struct Pass
{
    double seconds = 0;
    double cpuSeconds = 0; // this process's CPU time, all threads: steadier than the wall clock
    qint64 reconciles = 0;
    qint64 skipped = 0; // reconciles that found the resource as the last quiet run left it
    qint64 requests = 0;
    qint64 lists = 0;
    qint64 writes = 0;
    qint64 events = 0;

    QJsonObject toJson() const
    {
        return {{QStringLiteral("seconds"), seconds},
                {QStringLiteral("cpuSeconds"), cpuSeconds},
                {QStringLiteral("reconciles"), reconciles},
                {QStringLiteral("requests"), requests},
                {QStringLiteral("lists"), lists},
                {QStringLiteral("writes"), writes},
                {QStringLiteral("events"), events},
                {QStringLiteral("skippedUnchanged"), skipped}};
    }
};

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() < 2)
        return fail(QStringLiteral("usage: bench_drift WORKSPACE [PASSES] [OUT.json]"));
    const QString path = args.at(1);
    const int passes = args.size() > 2 ? args.at(2).toInt() : 3;
    qint64 total = 0;
    {
        StoreError error;
        const auto ws = Workspace::open(path, &error);
        if (!ws)
            return fail(error.message);
        total = ws->count();
    }
    if (total == 0)
        return fail(QStringLiteral("%1 holds no resources").arg(path));

    Counters counters;
    AzureFactory::Options azureOptions;
    azureOptions.requestObserver = [&counters](const HttpRequest &request) {
        ++counters.requests;
        if (request.method != "GET" && request.method != "HEAD")
            ++counters.writes;
        else if (QUrlQuery(request.url).queryItemValue(QStringLiteral("comp")) ==
                     QLatin1String("list") ||
                 request.url.path().endsWith(QLatin1String("/Tables")))
            ++counters.lists;
    };
    KindRegistry kinds;
    FactoryRegistry factories;
    factories.add(std::make_unique<AzureFactory>(azureOptions));
    factories.add(std::make_unique<AwsFactory>());
    factories.add(std::make_unique<GcpFactory>());
    factories.registerKinds(kinds);
    GenericReconciler reconciler(kinds);
    SystemClock clock;
    Controller::Options options;                   // the window's defaults: 8 workers
    options.resyncPeriod = std::chrono::hours(24); // only the passes asked for below
    qint64 events = 0;
    std::unique_ptr<Controller> running;
    const auto makeController = [&] {
        running.reset(); // one controller at a time holds a workspace
        running = std::make_unique<Controller>(path, kinds, factories, reconciler, clock, nullptr,
                                               options);
        QObject::connect(running.get(), &Controller::eventsRecorded, &app,
                         [&events](const QList<Event> &recorded) { events += recorded.size(); });
    };
    makeController();

    const auto measure = [&](Pass *pass, const auto &begin) {
        Controller &controller = *running;
        const qint64 reconciles = controller.stats().reconciles;
        const qint64 skipped = controller.stats().skippedUnchanged;
        const qint64 requests = counters.requests, lists = counters.lists, writes = counters.writes,
                     eventsBefore = events;
        QElapsedTimer timer;
        timer.start();
        const std::clock_t cpuStart = std::clock();
        if (!begin())
            return false;
        const bool done = waitFor(
            [&] {
                return controller.isIdle() && controller.stats().reconciles >= reconciles + total;
            },
            900'000);
        pass->seconds = timer.nsecsElapsed() / 1e9;
        pass->cpuSeconds = double(std::clock() - cpuStart) / CLOCKS_PER_SEC;
        // The last batch of events is delivered one batch interval later.
        waitFor([] { return false; }, 200);
        pass->reconciles = controller.stats().reconciles - reconciles;
        pass->skipped = controller.stats().skippedUnchanged - skipped;
        pass->requests = counters.requests - requests;
        pass->lists = counters.lists - lists;
        pass->writes = counters.writes - writes;
        pass->events = events - eventsBefore;
        return done;
    };

    QTextStream out(stdout);
    const auto print = [&out, total](const QString &what, const Pass &p) {
        out << QStringLiteral("bench_drift: %1 %2 resources in %3 s (CPU %4 s): %5 requests (%6 "
                              "lists), %7 writes, %8 events, %9 unchanged\n")
                   .arg(what)
                   .arg(total)
                   .arg(p.seconds, 0, 'f', 3)
                   .arg(p.cpuSeconds, 0, 'f', 3)
                   .arg(p.requests)
                   .arg(p.lists)
                   .arg(p.writes)
                   .arg(p.events)
                   .arg(p.skipped);
        out.flush();
    };
    Pass startup;
    StoreError startError;
    if (!measure(&startup, [&] { return running->start(&startError); }))
        return fail(QStringLiteral("the start-up pass did not finish %1").arg(startError.message));
    print(QStringLiteral("start-up pass over"), startup);
    QList<Pass> runs;
    for (int i = 0; i < passes; ++i) {
        Pass pass;
        if (!measure(&pass, [&] {
                running->resyncNow();
                return true;
            }))
            return fail(QStringLiteral("resync pass %1 did not finish").arg(i + 1));
        print(QStringLiteral("resync pass %1 over").arg(i + 1), pass);
        runs.append(pass);
    }
    running->stop();
    // 3b: a fresh controller's first pass, as after a restart of the window; as many times as
    // there are resync passes, each over what the one before left.
    QList<Pass> restarts;
    for (int i = 0; i < passes; ++i) {
        makeController();
        Pass restart;
        if (!measure(&restart, [&] { return running->start(&startError); }))
            return fail(QStringLiteral("the first pass after a restart did not finish %1")
                            .arg(startError.message));
        print(QStringLiteral("first pass after restart %1 over").arg(i + 1), restart);
        running->stop();
        restarts.append(restart);
    }

    if (args.size() > 3) {
        QJsonArray passList;
        for (const Pass &p : std::as_const(runs))
            passList.append(p.toJson());
        QJsonArray restartList;
        for (const Pass &p : std::as_const(restarts))
            restartList.append(p.toJson());
        const QJsonObject json{{QStringLiteral("resources"), total},
                               {QStringLiteral("startup"), startup.toJson()},
                               {QStringLiteral("passes"), passList},
                               {QStringLiteral("restarts"), restartList}};
        QFile file(args.at(3));
        if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(json).toJson()) < 0)
            return fail(QStringLiteral("cannot write %1").arg(file.fileName()));
    }
    for (const Pass &p : runs + restarts) {
        if (p.writes > 0)
            return fail(QStringLiteral("a no-change pass wrote to the backend"));
    }
    return 0;
}
