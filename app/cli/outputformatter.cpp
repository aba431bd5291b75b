// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "outputformatter.h"

#include "console.h"
#include "discoveredclaim.h"
#include "duration.h"
#include "kindregistry.h"
#include "kindresolver.h"
#include "manifestwriter.h"
#include "texttable.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace converge {

namespace {

Console::Color readyColor(const Condition &ready)
{
    if (ready.isReady())
        return Console::Color::Green;
    if (ready.status == Condition::Status::False) {
        return ready.severity == Condition::Severity::Error     ? Console::Color::Red
               : ready.severity == Condition::Severity::Warning ? Console::Color::Yellow
                                                                : Console::Color::None;
    }
    return Console::Color::None;
}

QString age(const QDateTime &from, const QDateTime &now)
{
    if (!from.isValid())
        return QStringLiteral("<unknown>");
    return Duration::human(std::chrono::milliseconds(from.msecsTo(now)));
}

// ManifestWriter's List, for one object that a list request found.
QByteArray asList(const QByteArray &object)
{
    QByteArray items = object.trimmed();
    items.replace("\n", "\n        ");
    return "{\n    \"apiVersion\": \"v1\",\n    \"kind\": \"List\",\n    \"items\": [\n        " +
           items + "\n    ]\n}\n";
}

} // namespace

std::optional<OutputFormatter::Format> OutputFormatter::formatFromName(const QString &name)
{
    const QString n = name.toLower();
    if (n == QLatin1String("table"))
        return Format::Table;
    if (n == QLatin1String("wide"))
        return Format::Wide;
    if (n == QLatin1String("yaml"))
        return Format::Yaml;
    if (n == QLatin1String("json"))
        return Format::Json;
    if (n == QLatin1String("name"))
        return Format::Name;
    if (n == QLatin1String("jsonl"))
        return Format::JsonLines;
    return std::nullopt;
}

OutputFormatter::OutputFormatter(const KindRegistry &registry, Format format, const QDateTime &now,
                                 const Console *console)
    : m_registry(registry)
    , m_format(format)
    , m_now(now)
    , m_console(console)
{}

QByteArray OutputFormatter::resources(const QList<Resource> &resources, bool single) const
{
    ManifestWriter::Options options;
    options.withStatus = true;
    options.full = true;
    const ManifestWriter writer(m_registry, options);
    switch (m_format) {
    case Format::Yaml:
        return writer.toYaml(resources);
    case Format::Json:
    case Format::JsonLines:
        if (resources.size() == 1 && !single)
            return asList(writer.toJson(resources));
        return writer.toJson(resources);
    case Format::Name: {
        QByteArray text;
        for (const Resource &r : resources)
            text += KindResolver::display(r.key()).toUtf8() + '\n';
        return text;
    }
    case Format::Table:
    case Format::Wide:
        break;
    }

    const bool wide = m_format == Format::Wide;
    QStringList headers{QStringLiteral("KIND/NAME"), QStringLiteral("READY"),
                        QStringLiteral("REASON"), QStringLiteral("AGE")};
    if (wide)
        headers << QStringLiteral("POLICY") << QStringLiteral("GENERATION")
                << QStringLiteral("OBSERVED") << QStringLiteral("MESSAGE");
    TextTable table(headers);
    for (const Resource &r : resources) {
        const Condition ready = r.status.ready();
        QString reason = ready.reason;
        // Deletion waits for the controller; say so until it has something to say (a Ready or
        // Unknown condition from before the deletion says nothing about it; a failure does).
        if (r.metadata.isBeingDeleted() && ready.status != Condition::Status::False)
            reason = QStringLiteral("Deleting");
        QStringList cells{KindResolver::display(r.key()), Condition::statusName(ready.status),
                          reason, age(r.metadata.creationTimestamp, m_now)};
        if (wide) {
            const QString policy = r.metadata.annotations.value(Annotations::reconcilePolicy(),
                                                                QStringLiteral("manage"));
            cells << policy << QString::number(r.metadata.generation)
                  << QString::number(ready.observedGeneration) << ready.message;
        }
        table.addRow(cells, {Console::Color::None, readyColor(ready)});
    }
    return table.render(m_console).toUtf8();
}

QJsonObject OutputFormatter::unmanagedDocument(const DiscoveredResource &item,
                                               const KindRegistry &registry)
{
    QString error;
    std::optional<Resource> preview = DiscoveredClaim::build(item, item.spec, registry, {}, &error);
    QJsonObject spec = preview ? preview->spec : item.spec;
    const QString name = preview ? preview->metadata.name : item.name;
    QJsonObject metadata{{QStringLiteral("name"), name}};
    if (!item.resourceId.isEmpty())
        metadata.insert(QStringLiteral("annotations"),
                        QJsonObject{{Annotations::resourceId(), item.resourceId}});
    QJsonObject status{{QStringLiteral("unmanaged"), true},
                       {QStringLiteral("owner"), item.owner.toString()},
                       {QStringLiteral("backendName"), item.name}};
    if (item.firstSeenAt.isValid())
        status.insert(QStringLiteral("firstSeen"), item.firstSeenAt.toUTC().toString(Qt::ISODate));
    if (item.seenAt.isValid())
        status.insert(QStringLiteral("lastSeen"), item.seenAt.toUTC().toString(Qt::ISODate));
    if (!item.details.isEmpty())
        status.insert(QStringLiteral("observed"), item.details);
    const Kind *kind = registry.find(item.kind);
    return QJsonObject{{QStringLiteral("apiVersion"),
                        preview ? preview->apiVersion : (kind ? kind->apiVersion() : QString())},
                       {QStringLiteral("kind"), item.kind},
                       {QStringLiteral("metadata"), metadata},
                       {QStringLiteral("spec"), spec},
                       {QStringLiteral("status"), status}};
}

QByteArray OutputFormatter::withUnmanaged(const QList<Resource> &resources,
                                          const QList<DiscoveredResource> &unmanaged,
                                          bool single) const
{
    switch (m_format) {
    case Format::Yaml:
    case Format::Json:
    case Format::JsonLines: {
        // One List (or stream of documents) for both, each object in the shape `get` prints.
        QList<QJsonObject> documents;
        const OutputFormatter json(m_registry, Format::Json, m_now);
        for (const Resource &r : resources)
            documents.append(QJsonDocument::fromJson(json.resources({r}, true)).object());
        for (const DiscoveredResource &item : unmanaged)
            documents.append(unmanagedDocument(item, m_registry));
        if (m_format == Format::Yaml)
            return ManifestWriter::documentsToYaml(documents);
        if (documents.size() == 1 && !single)
            return asList(ManifestWriter::documentsToJson(documents));
        return ManifestWriter::documentsToJson(documents);
    }
    case Format::Name: {
        QByteArray text = resources.isEmpty() ? QByteArray() : this->resources(resources);
        for (const DiscoveredResource &item : unmanaged)
            text += KindResolver::display({item.kind, item.name}).toUtf8() + '\n';
        return text;
    }
    case Format::Table:
    case Format::Wide:
        break;
    }
    QByteArray text = resources.isEmpty() ? QByteArray() : this->resources(resources);
    if (unmanaged.isEmpty())
        return text;
    if (!text.isEmpty())
        text += '\n';
    const bool wide = m_format == Format::Wide;
    QStringList headers{QStringLiteral("UNMANAGED KIND/NAME"), QStringLiteral("OWNER"),
                        QStringLiteral("FIRST SEEN"), QStringLiteral("LAST SEEN")};
    if (wide)
        headers << QStringLiteral("RESOURCE ID");
    TextTable table(headers);
    for (const DiscoveredResource &item : unmanaged) {
        QStringList cells{KindResolver::display({item.kind, item.name}),
                          KindResolver::display(item.owner), age(item.firstSeenAt, m_now),
                          age(item.seenAt, m_now)};
        if (wide)
            cells << item.resourceId;
        table.addRow(cells);
    }
    return text + table.render(m_console).toUtf8();
}

QByteArray OutputFormatter::events(const QList<Event> &events) const
{
    if (m_format == Format::Json) {
        QJsonArray items;
        for (const Event &e : events)
            items.append(e.toJson());
        const QJsonObject list{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
                               {QStringLiteral("kind"), QStringLiteral("EventList")},
                               {QStringLiteral("items"), items}};
        return QJsonDocument(list).toJson(QJsonDocument::Indented);
    }
    if (m_format == Format::JsonLines) {
        QByteArray text;
        for (const Event &e : events)
            text += QJsonDocument(e.toJson()).toJson(QJsonDocument::Compact) + '\n';
        return text;
    }
    if (m_format == Format::Name) {
        QByteArray text;
        for (const Event &e : events)
            text += QByteArray::number(e.id) + '\n';
        return text;
    }
    const bool wide = m_format == Format::Wide;
    QStringList headers{QStringLiteral("LAST SEEN"), QStringLiteral("TYPE"),
                        QStringLiteral("REASON"),    QStringLiteral("OBJECT"),
                        QStringLiteral("COUNT"),     QStringLiteral("MESSAGE")};
    if (wide)
        headers << QStringLiteral("PHASE") << QStringLiteral("FIRST SEEN")
                << QStringLiteral("RECONCILE ID") << QStringLiteral("REQUEST ID");
    TextTable table(headers);
    for (const Event &e : events) {
        QStringList cells{age(e.lastTime, m_now),
                          Event::typeName(e.type),
                          e.reason,
                          KindResolver::display(e.involved),
                          QString::number(e.count),
                          e.message};
        if (wide)
            cells << e.phase << age(e.firstTime, m_now) << e.reconcileId << e.requestId;
        table.addRow(cells,
                     {Console::Color::None, e.type == Event::Type::Warning ? Console::Color::Yellow
                                                                           : Console::Color::None});
    }
    return table.render(m_console).toUtf8();
}

QString OutputFormatter::eventLine(const Event &event) const
{
    const QString type = Event::typeName(event.type);
    QString line = event.lastTime.toUTC().toString(Qt::ISODate) + QStringLiteral("  ") +
                   (m_console && event.type == Event::Type::Warning
                        ? m_console->paint(type, Console::Color::Yellow)
                        : type) +
                   QStringLiteral("  ") + event.reason + QStringLiteral("  ") +
                   KindResolver::display(event.involved);
    if (event.count > 1)
        line += QStringLiteral(" (x%1)").arg(event.count);
    line += QStringLiteral("  ") + event.message;
    line.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return line;
}

} // namespace converge
