// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "eventexport.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace converge {

namespace {

QByteArray csvField(const QString &value)
{
    QByteArray utf8 = value.toUtf8();
    if (!utf8.contains(',') && !utf8.contains('"') && !utf8.contains('\n') && !utf8.contains('\r'))
        return utf8;
    utf8.replace('"', "\"\"");
    return '"' + utf8 + '"';
}

QString utc(const QDateTime &time)
{
    return time.isValid() ? time.toUTC().toString(Qt::ISODateWithMs) : QString();
}

} // namespace

QByteArray EventExport::write(const QList<Event> &events, Format format)
{
    if (format == Format::Json) {
        QJsonArray array;
        for (const Event &e : events)
            array.append(e.toJson());
        return QJsonDocument(array).toJson(QJsonDocument::Indented);
    }
    QByteArray out = "id,firstTimestamp,lastTimestamp,type,resource,phase,reason,message,count,"
                     "reconcileId,requestId\r\n";
    for (const Event &e : events) {
        const QStringList fields{
            QString::number(e.id),    utc(e.firstTime), utc(e.lastTime), Event::typeName(e.type),
            e.involved.toString(),    e.phase,          e.reason,        e.message,
            QString::number(e.count), e.reconcileId,    e.requestId};
        for (qsizetype i = 0; i < fields.size(); ++i) {
            if (i > 0)
                out += ',';
            out += csvField(fields.at(i));
        }
        out += "\r\n";
    }
    return out;
}

EventExport::Format EventExport::formatFor(const QString &path)
{
    return path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive) ? Format::Json : Format::Csv;
}

} // namespace converge
