// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "condition.h"

namespace converge {

Condition Condition::ready(qint64 generation, const QDateTime &now)
{
    Condition c;
    c.status = Status::True;
    c.reason = QStringLiteral("Succeeded");
    c.observedGeneration = generation;
    c.lastTransitionTime = now;
    return c;
}

Condition Condition::notReady(Severity severity, const QString &reason, const QString &message,
                              qint64 generation, const QDateTime &now)
{
    Condition c;
    c.status = Status::False;
    c.severity = severity;
    c.reason = reason;
    c.message = message;
    c.observedGeneration = generation;
    c.lastTransitionTime = now;
    return c;
}

Condition Condition::unknown(const QString &reason, const QString &message, qint64 generation,
                             const QDateTime &now)
{
    Condition c;
    c.status = Status::Unknown;
    c.reason = reason;
    c.message = message;
    c.observedGeneration = generation;
    c.lastTransitionTime = now;
    return c;
}

bool Condition::isEquivalent(const Condition &other) const
{
    return type == other.type && status == other.status && severity == other.severity &&
           reason == other.reason && message == other.message &&
           observedGeneration == other.observedGeneration;
}

int Condition::priority() const
{
    switch (status) {
    case Status::True:
        return 3;
    case Status::False:
        // A failure (Error, Warning) ranks with success; work in progress (Info) below.
        return severity == Severity::Error || severity == Severity::Warning ? 3 : 2;
    case Status::Unknown:
        return 1;
    }
    return 0;
}

bool Condition::shouldOverwrite(const Condition &current, const Condition &incoming)
{
    if (incoming.observedGeneration != current.observedGeneration)
        return incoming.observedGeneration > current.observedGeneration;
    if (current.isEquivalent(incoming))
        return false;
    return incoming.priority() >= current.priority();
}

QString Condition::statusName(Status status)
{
    switch (status) {
    case Status::True:
        return QStringLiteral("True");
    case Status::False:
        return QStringLiteral("False");
    case Status::Unknown:
        break;
    }
    return QStringLiteral("Unknown");
}

QString Condition::severityName(Severity severity)
{
    switch (severity) {
    case Severity::Info:
        return QStringLiteral("Info");
    case Severity::Warning:
        return QStringLiteral("Warning");
    case Severity::Error:
        return QStringLiteral("Error");
    case Severity::None:
        break;
    }
    return {};
}

std::optional<Condition::Status> Condition::statusFromName(const QString &name)
{
    for (Status s : {Status::True, Status::False, Status::Unknown}) {
        if (statusName(s) == name)
            return s;
    }
    return std::nullopt;
}

std::optional<Condition::Severity> Condition::severityFromName(const QString &name)
{
    for (Severity s : {Severity::None, Severity::Info, Severity::Warning, Severity::Error}) {
        if (severityName(s) == name)
            return s;
    }
    return std::nullopt;
}

QJsonObject Condition::toJson() const
{
    QJsonObject json{{QStringLiteral("type"), type},
                     {QStringLiteral("status"), statusName(status)},
                     {QStringLiteral("observedGeneration"), observedGeneration}};
    if (severity != Severity::None)
        json.insert(QStringLiteral("severity"), severityName(severity));
    if (!reason.isEmpty())
        json.insert(QStringLiteral("reason"), reason);
    if (!message.isEmpty())
        json.insert(QStringLiteral("message"), message);
    if (lastTransitionTime.isValid())
        json.insert(QStringLiteral("lastTransitionTime"),
                    lastTransitionTime.toUTC().toString(Qt::ISODateWithMs));
    return json;
}

Condition Condition::fromJson(const QJsonObject &json, QString *error)
{
    Condition c;
    c.type = json.value(QStringLiteral("type")).toString(readyType());
    const QString status = json.value(QStringLiteral("status")).toString();
    const QString severity = json.value(QStringLiteral("severity")).toString();
    if (const auto s = statusFromName(status))
        c.status = *s;
    else if (error)
        *error = QStringLiteral("status: \"%1\" is not one of True, False, Unknown").arg(status);
    if (const auto s = severityFromName(severity))
        c.severity = *s;
    else if (error)
        *error =
            QStringLiteral("severity: \"%1\" is not one of Info, Warning, Error").arg(severity);
    c.reason = json.value(QStringLiteral("reason")).toString();
    c.message = json.value(QStringLiteral("message")).toString();
    c.observedGeneration = json.value(QStringLiteral("observedGeneration")).toInteger();
    const QString time = json.value(QStringLiteral("lastTransitionTime")).toString();
    if (!time.isEmpty())
        c.lastTransitionTime = QDateTime::fromString(time, Qt::ISODateWithMs).toUTC();
    return c;
}

} // namespace converge
