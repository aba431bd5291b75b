// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace converge {

/// A status condition with Azure Service Operator's semantics. Converge uses one type, Ready.
///
/// Severity says what a False condition means: Error is fatal (no retry until the spec changes),
/// Warning is retried, Info is work in progress. True and Unknown conditions carry no severity.
struct Condition
{
    enum class Status { True, False, Unknown };
    enum class Severity { None, Info, Warning, Error };

    QString type = readyType();
    Status status = Status::Unknown;
    Severity severity = Severity::None;
    QString reason;  ///< PascalCase, e.g. Succeeded, Reconciling, WaitingForOwner
    QString message; ///< for people; never holds a secret
    qint64 observedGeneration = 0;
    QDateTime lastTransitionTime; ///< UTC

    static QString readyType() { return QStringLiteral("Ready"); }

    /// Ready True, reason Succeeded.
    static Condition ready(qint64 generation, const QDateTime &now);
    /// Ready False with a severity and reason.
    static Condition notReady(Severity severity, const QString &reason, const QString &message,
                              qint64 generation, const QDateTime &now);
    /// Ready Unknown, e.g. before the first reconcile.
    static Condition unknown(const QString &reason, const QString &message, qint64 generation,
                             const QDateTime &now);

    /// Same type, status, severity, reason, message and observedGeneration (time ignored).
    bool isEquivalent(const Condition &other) const;

    /// ASO's ranking at one generation: True and failed (Error, Warning) rank highest,
    /// in progress (False/Info) next, Unknown lowest.
    int priority() const;

    /// Whether `incoming` should replace `current`: a newer observedGeneration always wins, an
    /// older one never; an equivalent condition never overwrites (the transition time stays); at
    /// the same generation the incoming one wins when its priority is at least the current one's.
    static bool shouldOverwrite(const Condition &current, const Condition &incoming);

    bool isReady() const { return status == Status::True; }
    bool isFatal() const { return status == Status::False && severity == Severity::Error; }

    QJsonObject toJson() const;
    /// Reads what toJson() wrote; unknown enum spellings are reported in `error`.
    static Condition fromJson(const QJsonObject &json, QString *error = nullptr);

    static QString statusName(Status status);
    static QString severityName(Severity severity);
    static std::optional<Status> statusFromName(const QString &name);
    static std::optional<Severity> severityFromName(const QString &name);

    friend bool operator==(const Condition &, const Condition &) = default;
};

} // namespace converge
