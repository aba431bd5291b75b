// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "describecommand.h"

#include "commandcontext.h"
#include "console.h"
#include "duration.h"
#include "manifestwriter.h"
#include "outputformatter.h"
#include "services.h"
#include "texttable.h"
#include "workspace.h"

#include <QCommandLineParser>
#include <QJsonDocument>

namespace converge {

namespace {

QString timeText(const QDateTime &time, const QDateTime &now)
{
    if (!time.isValid())
        return QStringLiteral("<none>");
    return QStringLiteral("%1 (%2 ago)")
        .arg(time.toUTC().toString(Qt::ISODate),
             Duration::human(std::chrono::milliseconds(time.msecsTo(now))));
}

QString mapText(const QMap<QString, QString> &map, const QString &indent)
{
    if (map.isEmpty())
        return QStringLiteral("<none>");
    QStringList lines;
    for (auto it = map.cbegin(); it != map.cend(); ++it)
        lines << it.key() + QLatin1Char('=') + it.value();
    return lines.join(QLatin1Char('\n') + indent);
}

QString indented(const QString &text, const QString &indent)
{
    QStringList lines = text.split(QLatin1Char('\n'));
    while (!lines.isEmpty() && lines.constLast().isEmpty())
        lines.removeLast();
    for (QString &line : lines)
        line = line.isEmpty() ? line : indent + line;
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

// The spec as the writer prints it, without the lines around it.
QString specYaml(const KindRegistry &kinds, const Resource &r)
{
    const QString yaml = QString::fromUtf8(ManifestWriter(kinds).toYaml({r}));
    const qsizetype at = yaml.indexOf(QLatin1String("\nspec:"));
    if (at < 0)
        return QStringLiteral("  <none>\n");
    const QString rest = yaml.mid(at + 1);
    const qsizetype eol = rest.indexOf(QLatin1Char('\n'));
    const QString first = rest.left(eol);
    if (first != QLatin1String("spec:")) // "spec: {}"
        return QStringLiteral("  ") + first.mid(6).trimmed() + QLatin1Char('\n');
    return rest.mid(eol + 1);
}

} // namespace

QString DescribeCommand::summary() const
{
    return QStringLiteral("Show a resource in detail: spec, status, history, events");
}

QString DescribeCommand::synopsis() const
{
    return QStringLiteral("KIND/NAME… [--events N] [--unmanaged]");
}

QString DescribeCommand::description() const
{
    return QStringLiteral(
        "Prints, for people, the resource's metadata, its spec as YAML, its Ready condition and "
        "what the backend last returned, the history of its Ready condition, its most recent "
        "events, and the controller's bookkeeping: failed attempts, the last and next attempt, "
        "the last error and what it waits for (owner, backoff, operation, …). The output is "
        "meant for reading; use `get -o json` in scripts.\n\n"
        "A KIND/NAME the workspace does not have is looked for among the unmanaged resources "
        "(`converge get --unmanaged`), NAME being the backend name; --unmanaged looks only "
        "there. For one of those it prints where it was listed, when it was first and last "
        "seen, and what was observed, as the manifest `converge claim` would store.");
}

QString DescribeCommand::examples() const
{
    return QStringLiteral("# Why is this container not Ready?\n"
                          "converge describe blobcontainer/invoices\n"
                          "# What was seen of a container nothing manages\n"
                          "converge describe blobcontainer/archive --unmanaged\n");
}

QList<QCommandLineOption> DescribeCommand::options() const
{
    return {
        QCommandLineOption(QStringLiteral("events"),
                           QStringLiteral("How many recent events to show (default 20)."),
                           QStringLiteral("N"), QStringLiteral("20")),
        QCommandLineOption(QStringLiteral("unmanaged"),
                           QStringLiteral("Describe what nothing manages (discovered).")),
    };
}

int DescribeCommand::run(CommandContext &ctx, const QCommandLineParser &parser)
{
    Console &console = ctx.console();
    int code = ExitSuccess;
    if (parser.positionalArguments().isEmpty()) {
        console.error(QStringLiteral("describe needs KIND/NAME (see converge describe --help)"));
        return ExitUsage;
    }
    bool ok = false;
    const int eventCount = parser.value(QStringLiteral("events")).toInt(&ok);
    if (!ok || eventCount < 0) {
        console.error(QStringLiteral("--events needs a number"));
        return ExitUsage;
    }
    QList<ResourceKey> keys;
    if (!ctx.resolveKeys(parser.positionalArguments(), &keys, &code))
        return code;
    std::unique_ptr<Workspace> ws = ctx.openWorkspace(&code);
    if (!ws)
        return code;
    bool first = true;
    const bool unmanagedOnly = parser.isSet(QStringLiteral("unmanaged"));
    for (const ResourceKey &key : std::as_const(keys)) {
        StoreError readError;
        const std::optional<Resource> r =
            unmanagedOnly ? std::optional<Resource>() : ws->get(key, &readError);
        if (readError.isError()) {
            console.error(readError.message);
            return ExitFailed;
        }
        if (!r) {
            QList<DiscoveredResource> found;
            ctx.selectDiscovered(*ws, {KindResolver::display(key)}, &found, false, &code);
            if (found.isEmpty()) {
                console.error(QStringLiteral("%1 not found").arg(KindResolver::display(key)));
                code = ExitFailed;
                continue;
            }
            for (const DiscoveredResource &item : std::as_const(found)) {
                if (!first)
                    console.out(QByteArrayLiteral("\n"));
                first = false;
                console.out(describeUnmanaged(ctx, item).toUtf8());
            }
            continue;
        }
        if (!first)
            console.out(QByteArrayLiteral("\n"));
        first = false;
        console.out(describe(ctx, *ws, *r, eventCount));
    }
    return code;
}

QString DescribeCommand::describeUnmanaged(CommandContext &ctx, const DiscoveredResource &item)
{
    const QDateTime now = ctx.now();
    QString text;
    const auto line = [&text](const QString &label, const QString &value) {
        text += QString(label + QLatin1Char(':')).leftJustified(14) + value + QLatin1Char('\n');
    };
    line(QStringLiteral("Name"), item.name);
    line(QStringLiteral("Kind"), item.kind);
    line(QStringLiteral("Owner"), KindResolver::display(item.owner));
    line(QStringLiteral("Managed"), QStringLiteral("no (converge claim %1 claims it)")
                                        .arg(KindResolver::display({item.kind, item.name})));
    line(QStringLiteral("Resource ID"),
         item.resourceId.isEmpty() ? QStringLiteral("<none>") : item.resourceId);
    line(QStringLiteral("First Seen"), timeText(item.firstSeenAt, now));
    line(QStringLiteral("Last Seen"), timeText(item.seenAt, now));
    const QJsonObject document = OutputFormatter::unmanagedDocument(item, ctx.services().kinds());
    text +=
        QStringLiteral("What Claim would store:\n") +
        indented(QString::fromUtf8(ManifestWriter::documentsToYaml({QJsonObject{
                     {QStringLiteral("apiVersion"), document.value(QStringLiteral("apiVersion"))},
                     {QStringLiteral("kind"), item.kind},
                     {QStringLiteral("metadata"), document.value(QStringLiteral("metadata"))},
                     {QStringLiteral("spec"), document.value(QStringLiteral("spec"))}}})),
                 QStringLiteral("  "));
    text += QStringLiteral("Observed:\n");
    text += item.details.isEmpty()
                ? QStringLiteral("  <nothing more than the spec>\n")
                : indented(QString::fromUtf8(ManifestWriter::documentsToYaml({item.details})),
                           QStringLiteral("  "));
    return text;
}

QString DescribeCommand::describe(CommandContext &ctx, const Workspace &ws, const Resource &r,
                                  int eventCount) const
{
    const QDateTime now = ctx.now();
    const Console &console = ctx.console();
    const auto heading = [&console](const QString &text) {
        return console.paint(text, Console::Color::Bold);
    };
    const QString pad(24, QLatin1Char(' ')); // values start in this column
    QString text;
    const auto field = [&](const QString &name, const QString &value) {
        text += heading(name + QLatin1Char(':')) +
                QString(std::max<qsizetype>(1, pad.size() - name.size() - 1), QLatin1Char(' ')) +
                value + QLatin1Char('\n');
    };

    field(QStringLiteral("Name"), r.metadata.name);
    field(QStringLiteral("Kind"), r.kind);
    field(QStringLiteral("API Version"), r.apiVersion);
    if (!r.ownerName().isEmpty())
        field(QStringLiteral("Owner"), r.ownerName());
    field(QStringLiteral("Policy"),
          r.metadata.annotations.value(Annotations::reconcilePolicy(), QStringLiteral("manage")));
    field(QStringLiteral("UID"), r.metadata.uid);
    field(QStringLiteral("Generation"), QString::number(r.metadata.generation));
    field(QStringLiteral("Resource Version"), QString::number(r.metadata.resourceVersion));
    field(QStringLiteral("Created"), timeText(r.metadata.creationTimestamp, now));
    if (r.metadata.isBeingDeleted())
        field(QStringLiteral("Deletion Requested"), timeText(r.metadata.deletionTimestamp, now));
    field(QStringLiteral("Labels"), mapText(r.metadata.labels, pad));
    field(QStringLiteral("Annotations"), mapText(r.metadata.annotations, pad));
    field(QStringLiteral("Finalizers"), r.metadata.finalizers.isEmpty()
                                            ? QStringLiteral("<none>")
                                            : r.metadata.finalizers.join(QStringLiteral(", ")));

    text +=
        heading(QStringLiteral("Spec:")) + QLatin1Char('\n') + specYaml(ctx.services().kinds(), r);

    const Condition ready = r.status.ready();
    text += heading(QStringLiteral("Status:")) + QLatin1Char('\n');
    const auto sub = [&](const QString &name, const QString &value) {
        text += QStringLiteral("  ") + name + QLatin1Char(':') +
                QString(std::max<qsizetype>(1, pad.size() - name.size() - 3), QLatin1Char(' ')) +
                value + QLatin1Char('\n');
    };
    sub(QStringLiteral("Ready"), Condition::statusName(ready.status));
    if (ready.severity != Condition::Severity::None)
        sub(QStringLiteral("Severity"), Condition::severityName(ready.severity));
    sub(QStringLiteral("Reason"), ready.reason.isEmpty() ? QStringLiteral("<none>") : ready.reason);
    sub(QStringLiteral("Message"),
        ready.message.isEmpty() ? QStringLiteral("<none>") : ready.message);
    sub(QStringLiteral("Observed Generation"), QString::number(ready.observedGeneration));
    sub(QStringLiteral("Last Transition"), timeText(ready.lastTransitionTime, now));
    if (!r.status.observed.isEmpty()) {
        text += QStringLiteral("  Observed:\n") +
                indented(QString::fromUtf8(
                             QJsonDocument(r.status.observed).toJson(QJsonDocument::Indented)),
                         QStringLiteral("    "));
    }

    text += heading(QStringLiteral("Condition History:")) + QLatin1Char('\n');
    StoreError readError;
    const QList<ConditionTransition> history = ws.conditionHistory(r.key(), &readError);
    if (readError.isError()) {
        text += QStringLiteral("  <unreadable: %1>\n").arg(readError.message);
    } else if (history.isEmpty()) {
        text += QStringLiteral("  <none>\n");
    } else {
        TextTable table({QStringLiteral("TIME"), QStringLiteral("READY"),
                         QStringLiteral("SEVERITY"), QStringLiteral("REASON"),
                         QStringLiteral("GENERATION"), QStringLiteral("MESSAGE")});
        for (const ConditionTransition &t : history) {
            const Condition &c = t.condition;
            table.addRow({c.lastTransitionTime.toUTC().toString(Qt::ISODate),
                          Condition::statusName(c.status),
                          c.severity == Condition::Severity::None
                              ? QString()
                              : Condition::severityName(c.severity),
                          c.reason, QString::number(c.observedGeneration), c.message});
        }
        text += indented(table.render(&console), QStringLiteral("  "));
    }

    text += heading(QStringLiteral("Reconcile:")) + QLatin1Char('\n');
    const ReconcileState state = ws.reconcileState(r.key());
    sub(QStringLiteral("Attempts"), QString::number(state.attempts));
    sub(QStringLiteral("Last Attempt"), timeText(state.lastAttempt, now));
    sub(QStringLiteral("Next Attempt"),
        state.nextAttempt.isValid()
            ? QStringLiteral("%1 (in %2)")
                  .arg(state.nextAttempt.toUTC().toString(Qt::ISODate),
                       Duration::human(std::chrono::milliseconds(now.msecsTo(state.nextAttempt))))
            : QStringLiteral("<none>"));
    sub(QStringLiteral("Waiting For"),
        state.waitingFor.isEmpty() ? QStringLiteral("<nothing>") : state.waitingFor);
    sub(QStringLiteral("Last Error"),
        state.lastError.isEmpty() ? QStringLiteral("<none>") : state.lastError);
    if (!state.lastReconcileId.isEmpty())
        sub(QStringLiteral("Last Reconcile ID"), state.lastReconcileId);

    text += heading(QStringLiteral("Events:")) + QLatin1Char('\n');
    EventQuery query;
    query.involved = r.key();
    query.limit = eventCount;
    query.newestFirst = true;
    readError = {};
    QList<Event> events = eventCount > 0 ? ws.events(query, &readError) : QList<Event>{};
    std::reverse(events.begin(), events.end());
    if (readError.isError()) {
        text += QStringLiteral("  <unreadable: %1>\n").arg(readError.message);
    } else if (events.isEmpty()) {
        text += QStringLiteral("  <none>\n");
    } else {
        const OutputFormatter formatter(ctx.services().kinds(), OutputFormatter::Format::Table, now,
                                        &console);
        text += indented(QString::fromUtf8(formatter.events(events)), QStringLiteral("  "));
    }
    return text;
}

} // namespace converge
