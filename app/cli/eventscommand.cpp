// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "eventscommand.h"

#include "commandcontext.h"
#include "console.h"
#include "duration.h"
#include "outputformatter.h"
#include "services.h"
#include "signalwatcher.h"
#include "workspace.h"

#include <QCommandLineParser>
#include <QEventLoop>
#include <QTimer>

using namespace std::chrono_literals;

namespace converge {

QString EventsCommand::summary() const
{
    return QStringLiteral("Show events (what the controller did and why), or follow them");
}

QString EventsCommand::synopsis() const
{
    return QStringLiteral("[KIND/NAME] [--since DURATION] [--type Warning|Normal] "
                          "[-o table|wide|json|jsonl] [--follow]");
}

QString EventsCommand::description() const
{
    return QStringLiteral(
        "Prints the workspace's events, oldest first: those of one resource with KIND/NAME, "
        "those last seen within DURATION with --since, only warnings or only normal events with "
        "--type. At most --limit events are shown (the most recent; default 1000, 0 for all).\n\n"
        "Repeats of an event are aggregated: COUNT says how often it was seen, LAST SEEN when "
        "last. table: LAST SEEN, TYPE, REASON, OBJECT, COUNT, MESSAGE; wide adds PHASE, FIRST "
        "SEEN, RECONCILE ID and REQUEST ID; json prints an EventList; jsonl one event per line.\n\n"
        "--follow keeps printing events as they are recorded (by this machine's window or "
        "`converge run`) until Ctrl-C; exit 0. Repeats of an event already printed are not "
        "printed again.");
}

QString EventsCommand::examples() const
{
    return QStringLiteral("# What went wrong in the last hour?\n"
                          "converge events --type Warning --since 1h\n"
                          "# Everything about one resource\n"
                          "converge events blobcontainer/invoices\n"
                          "# Follow, as JSON lines\n"
                          "converge events --follow -o jsonl\n");
}

QList<QCommandLineOption> EventsCommand::options() const
{
    return {QCommandLineOption(QStringLiteral("since"),
                               QStringLiteral("Only events last seen within DURATION (e.g. 10m)."),
                               QStringLiteral("DURATION")),
            QCommandLineOption(QStringLiteral("type"),
                               QStringLiteral("Only Warning or only Normal events."),
                               QStringLiteral("TYPE")),
            QCommandLineOption(QStringLiteral("limit"),
                               QStringLiteral("At most N events, the most recent (default 1000; "
                                              "0 for all)."),
                               QStringLiteral("N"), QStringLiteral("1000")),
            QCommandLineOption({QStringLiteral("follow")},
                               QStringLiteral("Keep printing new events until Ctrl-C.")),
            outputOption({QStringLiteral("table"), QStringLiteral("wide"), QStringLiteral("json"),
                          QStringLiteral("jsonl")})};
}

int EventsCommand::run(CommandContext &ctx, const QCommandLineParser &parser)
{
    Console &console = ctx.console();
    int code = ExitSuccess;
    EventQuery query;
    const QStringList args = parser.positionalArguments();
    if (args.size() > 1) {
        console.error(QStringLiteral("events takes at most one KIND/NAME"));
        return ExitUsage;
    }
    if (!args.isEmpty()) {
        QList<ResourceKey> keys;
        if (!ctx.resolveKeys(args, &keys, &code))
            return code;
        query.involved = keys.constFirst();
    }
    if (parser.isSet(QStringLiteral("since"))) {
        const std::optional<std::chrono::milliseconds> since =
            Duration::parse(parser.value(QStringLiteral("since")));
        if (!since) {
            console.error(QStringLiteral("\"%1\" is not a duration (e.g. 30s, 10m, 1h)")
                              .arg(parser.value(QStringLiteral("since"))));
            return ExitUsage;
        }
        query.since = ctx.now().addMSecs(-since->count());
    }
    if (parser.isSet(QStringLiteral("type"))) {
        const QString type = parser.value(QStringLiteral("type"));
        if (type.compare(QLatin1String("Warning"), Qt::CaseInsensitive) == 0)
            query.type = Event::Type::Warning;
        else if (type.compare(QLatin1String("Normal"), Qt::CaseInsensitive) == 0)
            query.type = Event::Type::Normal;
        else {
            console.error(QStringLiteral("--type is Warning or Normal, not \"%1\"").arg(type));
            return ExitUsage;
        }
    }
    bool ok = false;
    const int limit = parser.value(QStringLiteral("limit")).toInt(&ok);
    if (!ok || limit < 0) {
        console.error(QStringLiteral("--limit needs a number"));
        return ExitUsage;
    }
    const QString formatName = parser.value(QStringLiteral("output"));
    const std::optional<OutputFormatter::Format> format =
        OutputFormatter::formatFromName(formatName);
    if (!format || *format == OutputFormatter::Format::Yaml ||
        *format == OutputFormatter::Format::Name) {
        console.error(QStringLiteral("unknown output format \"%1\" (table, wide, json, jsonl)")
                          .arg(formatName));
        return ExitUsage;
    }
    std::unique_ptr<Workspace> ws = ctx.openWorkspace(&code);
    if (!ws)
        return code;

    // The most recent `limit`, printed oldest first.
    query.limit = limit;
    query.newestFirst = true;
    StoreError readError;
    QList<Event> events = ws->events(query, &readError);
    if (readError.isError()) {
        console.error(readError.message);
        return ExitFailed;
    }
    std::reverse(events.begin(), events.end());
    const bool follow = parser.isSet(QStringLiteral("follow"));
    const OutputFormatter formatter(ctx.services().kinds(), *format, ctx.now(), &console);
    if (!follow) {
        if (events.isEmpty() && (*format == OutputFormatter::Format::Table ||
                                 *format == OutputFormatter::Format::Wide)) {
            if (!console.isQuiet())
                console.err(QStringLiteral("No events found.\n"));
            return code;
        }
        console.out(formatter.events(events));
        return code;
    }

    // Following: one line per event, as they come. JSON becomes JSON lines (a document that
    // never ends is no use to a JSON reader).
    const bool lines =
        *format == OutputFormatter::Format::Json || *format == OutputFormatter::Format::JsonLines;
    const OutputFormatter lineFormatter(ctx.services().kinds(), OutputFormatter::Format::JsonLines,
                                        ctx.now(), &console);
    qint64 lastId = 0;
    const auto print = [&](const QList<Event> &batch) {
        for (const Event &e : batch) {
            lastId = std::max(lastId, e.id);
            if (lines)
                console.out(lineFormatter.events({e}));
            else
                console.out(formatter.eventLine(e) + QLatin1Char('\n'));
        }
    };
    // Ids grow: anything after the last one printed is new (older matches beyond --limit have
    // smaller ids). An aggregated repeat keeps its id, so it is not printed twice.
    print(events);

    QEventLoop loop;
    SignalWatcher signalWatcher;
    QObject::connect(&signalWatcher, &SignalWatcher::signalled, &loop, &QEventLoop::quit);
    QTimer poll;
    poll.setInterval(250ms);
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        EventQuery next = query;
        next.afterId = lastId;
        next.limit = 0;
        next.newestFirst = false;
        print(ws->events(next));
    });
    poll.start();
    loop.exec();
    return code;
}

} // namespace converge
