// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resourcekey.h"
#include "storeerror.h"

#include <QDateTime>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QString>
#include <QVariant>

class QSqlDatabase;
class QSqlError;
class QSqlQuery;

/// What every unit of the store shares to talk to SQLite through Qt Sql: how a failure becomes
/// a StoreError, and how values go into columns and come back out of them.
namespace converge::StoreSql {

Q_DECLARE_LOGGING_CATEGORY(lcStore)

/// How long a connection waits for another writer's lock before it gives up.
constexpr int busyTimeoutMs = 5000;

/// Sets `error` (when not null) and returns false, so that a failure is one return statement.
bool fail(StoreError *error, StoreError::Code code, const QString &message);
/// The StoreError for a failed statement; `context` says what was being done.
StoreError sqlError(const QSqlError &e, const QString &context);
/// fail() with the error of `query`.
bool failSql(StoreError *error, const QSqlQuery &query, const QString &context);
/// fail() with NotFound: `key` is not in the workspace.
bool failMissing(StoreError *error, const ResourceKey &key);
/// Runs `select`, a read of `key`'s row, and moves to that row; false with the SQL error, or
/// NotFound when there is no such row.
bool readKeyedRow(QSqlQuery &select, const ResourceKey &key, StoreError *error);
/// Deletes `key`'s rows of `table` (a table keyed by kind and name); false with the SQL error.
/// `removed` (when not null) gets how many rows went.
bool deleteKeyedRows(const QSqlDatabase &db, const char *table, const ResourceKey &key,
                     StoreError *error, int *removed = nullptr);
/// For a failed read: the failure goes to the log, and to `error` when given (a read that failed
/// answers empty; the caller's error says it was not an empty answer).
void logSql(const QSqlQuery &query, const char *context, StoreError *error = nullptr);

/// A path as the person's platform writes it, for messages.
inline QString shown(const QString &path)
{
    return QDir::toNativeSeparators(path);
}

/// Qt binds a null QString as SQL NULL; text columns are NOT NULL and hold '' instead.
inline QString text(const QString &value)
{
    return value.isNull() ? QStringLiteral("") : value;
}

/// Times are stored as milliseconds since the epoch; an invalid time as NULL.
inline QVariant msOrNull(const QDateTime &time)
{
    return time.isValid() ? QVariant(time.toMSecsSinceEpoch())
                          : QVariant(QMetaType::fromType<qint64>());
}

inline QDateTime timeFrom(const QVariant &value)
{
    return value.isNull() ? QDateTime()
                          : QDateTime::fromMSecsSinceEpoch(value.toLongLong(), Qt::UTC);
}

/// JSON columns hold compact JSON.
inline QString compact(const QJsonObject &json)
{
    return QString::fromUtf8(QJsonDocument(json).toJson(QJsonDocument::Compact));
}

inline QString compact(const QJsonArray &json)
{
    return QString::fromUtf8(QJsonDocument(json).toJson(QJsonDocument::Compact));
}

inline QJsonDocument parse(const QVariant &text)
{
    return QJsonDocument::fromJson(text.toString().toUtf8());
}

/// Text written by this build is canonical, so equal text is the fast path; parsing covers text
/// written by a build whose JSON formatting differed.
inline bool sameJson(const QString &stored, const QString &incoming)
{
    return stored == incoming ||
           QJsonDocument::fromJson(stored.toUtf8()) == QJsonDocument::fromJson(incoming.toUtf8());
}

} // namespace converge::StoreSql
