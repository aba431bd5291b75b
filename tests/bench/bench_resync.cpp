// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT

// A resync of up-to-date resources over the zero-latency fake Manager: the engine's own cost per
// reconcile (workspace reads, the drift check, bookkeeping), and the backend requests it sends.
// Converge observes by list pages; the peer, measured in the same run on the same workspace, is
// the same engine observing each resource with its own get (what a kind without complete lists
// does, and what a script that fetches each resource's properties does).
//
// CONVERGE_BENCH_SCALE (default 0.01, so that the test suite stays fast) multiplies the size;
// scale 1 is 10,000 resources under 10 owners. argv[1], when given, receives the figures as JSON.
//
// Instructions per reconcile (run by hand; valgrind is in Debian's valgrind package): run
//   CONVERGE_BENCH_SCALE=0.1 valgrind --tool=callgrind --collect-atstart=no
//   --toggle-collect='converge::ReconcileWorker::process(*' build/tests/bench/bench_resync
// (one line), then divide the "Collected" Ir by the reconciles the bench prints (all passes).

#include "clock.h"
#include "controller.h"
#include "enginefixture.h"
#include "factoryregistry.h"
#include "genericreconciler.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>
#include <QThread>

#include <cmath>
#include <ctime>

using namespace converge;
using namespace converge::test;
using namespace std::chrono_literals;

namespace {

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

int fail(const QString &what)
{
    QTextStream(stderr) << "bench_resync: " << what << Qt::endl;
    return 1;
}

/// Spins the event loop until `done` or the timeout; false on timeout.
template<typename Done>
bool waitFor(Done done, int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    while (!done()) {
        if (timer.elapsed() > timeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        QThread::msleep(2);
    }
    return true;
}

struct Pass
{
    double wall = 0;
    double cpu = 0;
    qint64 reconciles = 0;
    int gets = 0;
    int lists = 0;
    int writes = 0;
};

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    bool ok = false;
    double scale = qEnvironmentVariable("CONVERGE_BENCH_SCALE").toDouble(&ok);
    if (!ok || scale <= 0)
        scale = 0.01;
    const int owners = 10;
    const int resources = std::max(owners * 10, int(std::lround(10'000 * scale)));
    const int perOwner = resources / owners;

    EngineFixture f;
    QList<Resource> objects;
    for (int o = 0; o < owners; ++o) {
        const QString owner = QStringLiteral("g%1").arg(o);
        objects.append(EngineFixture::gadget(owner));
        for (int i = 0; i < perOwner; ++i)
            objects.append(EngineFixture::widget(QStringLiteral("w%1-%2").arg(o).arg(i), owner));
    }
    if (!f.apply(objects))
        return fail(s("apply failed"));
    const qint64 total = objects.size();

    FactoryRegistry factories;
    factories.add(std::make_unique<FakeFactory>(f.backend));
    GenericReconciler reconciler(f.kinds);
    SystemClock systemClock;
    Controller::Options options;
    options.workers = 8;
    options.pollInterval = 20ms;
    options.resyncPeriod = std::chrono::hours(24); // only the resyncs asked for below
    Controller controller(f.path, f.kinds, factories, reconciler, systemClock, nullptr, options);
    const auto converged = [&] {
        return controller.isIdle() && controller.stats().reconciles >= total;
    };
    QElapsedTimer timer;
    timer.start();
    if (!controller.start() || !waitFor(converged, 600'000))
        return fail(s("the first pass did not converge"));
    const double createSeconds = timer.nsecsElapsed() / 1e9;
    if (f.backend.creates != total)
        return fail(s("%1 creates for %2 resources").arg(f.backend.creates).arg(total));

    const auto measure = [&](Pass *pass) {
        const qint64 before = controller.stats().reconciles;
        const int gets = f.backend.gets, lists = f.backend.lists, writes = f.backend.writes();
        QElapsedTimer wall;
        wall.start();
        const std::clock_t cpu = std::clock();
        controller.resyncNow();
        const bool done = waitFor(
            [&] { return controller.isIdle() && controller.stats().reconciles >= before + total; },
            600'000);
        pass->wall = wall.nsecsElapsed() / 1e9;
        pass->cpu = double(std::clock() - cpu) / CLOCKS_PER_SEC;
        pass->reconciles = controller.stats().reconciles - before;
        pass->gets = f.backend.gets - gets;
        pass->lists = f.backend.lists - lists;
        pass->writes = f.backend.writes() - writes;
        return done;
    };
    f.backend.listPageSize = 5000; // Azure's largest page
    Pass converge;
    if (!measure(&converge))
        return fail(s("the list resync did not finish"));
    f.backend.listComplete = false; // the peer: a get per resource
    Pass peer;
    if (!measure(&peer))
        return fail(s("the get resync did not finish"));
    controller.stop();

    QTextStream out(stdout);
    out << QStringLiteral("bench_resync: scale %1 (%2 resources under %3 owners, 8 workers, "
                          "zero-latency fake Manager; first pass with creates %4 s)\n")
               .arg(scale)
               .arg(total)
               .arg(owners)
               .arg(createSeconds, 0, 'f', 2);
    const auto row = [&](const QString &what, const Pass &p) {
        out << QStringLiteral("  %1 %2 reconciles/s wall  %3 reconciles/s CPU  %4 requests "
                              "(%5 lists, %6 gets)  %7 writes\n")
                   .arg(what, -28)
                   .arg(p.reconciles / p.wall, 9, 'f', 0)
                   .arg(p.reconciles / p.cpu, 9, 'f', 0)
                   .arg(p.gets + p.lists, 6)
                   .arg(p.lists)
                   .arg(p.gets)
                   .arg(p.writes);
    };
    row(s("Converge (list pages)"), converge);
    row(s("peer (a get per resource)"), peer);
    out << QStringLiteral("  ratio Converge/peer: time %1 x, requests %2 x\n")
               .arg(converge.wall / peer.wall, 0, 'f', 2)
               .arg(double(converge.gets + converge.lists) / (peer.gets + peer.lists), 0, 'f', 4);
    const bool met = converge.writes == 0 && peer.writes == 0;
    out << QStringLiteral("  goal: zero backend writes: %1\n").arg(met ? s("met") : s("missed"));
    out.flush();

    if (argc > 1) {
        const auto pass = [](const Pass &p) {
            return QJsonObject{{s("seconds"), p.wall},          {s("cpuSeconds"), p.cpu},
                               {s("reconciles"), p.reconciles}, {s("gets"), p.gets},
                               {s("lists"), p.lists},           {s("writes"), p.writes}};
        };
        const QJsonObject json{{s("scale"), scale},
                               {s("resources"), total},
                               {s("createSeconds"), createSeconds},
                               {s("converge"), pass(converge)},
                               {s("peer"), pass(peer)},
                               {s("timeRatio"), converge.wall / peer.wall}};
        QFile file(QString::fromLocal8Bit(argv[1]));
        if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(json).toJson()) < 0)
            return fail(s("cannot write %1").arg(file.fileName()));
    }
    return met ? 0 : 1;
}
