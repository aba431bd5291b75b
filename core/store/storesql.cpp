// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "storesql.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>

namespace converge::StoreSql {

Q_LOGGING_CATEGORY(lcStore, "converge.store")

namespace {

// SQLite's primary result codes (Qt reports extended ones; the low byte is the primary).
constexpr int sqliteBusy = 5;
constexpr int sqliteLocked = 6;
constexpr int sqliteReadOnly = 8;
constexpr int sqliteIoErr = 10;
constexpr int sqliteCorrupt = 11;
constexpr int sqliteFull = 13;
constexpr int sqliteCantOpen = 14;
constexpr int sqliteConstraint = 19;
constexpr int sqliteNotADb = 26;

int primaryCode(const QSqlError &e)
{
    return e.nativeErrorCode().toInt() & 0xff;
}

} // namespace

bool fail(StoreError *error, StoreError::Code code, const QString &message)
{
    if (error)
        *error = {code, message};
    return false;
}

// SQLite's messages name tables and columns, never bound values, so they are safe to show.
StoreError sqlError(const QSqlError &e, const QString &context)
{
    const QString detail = e.databaseText().isEmpty() ? e.text() : e.databaseText();
    switch (primaryCode(e)) {
    case sqliteCorrupt:
    case sqliteNotADb:
        return {StoreError::Code::Corrupt,
                QStringLiteral("%1: the workspace file is damaged (%2)").arg(context, detail)};
    case sqliteBusy:
    case sqliteLocked:
        return {StoreError::Code::Io,
                QStringLiteral("%1: the workspace is locked by another writer (waited %2 s)")
                    .arg(context)
                    .arg(busyTimeoutMs / 1000)};
    case sqliteFull:
        return {StoreError::Code::Io,
                QStringLiteral("%1: the disk is full; nothing of this write was stored, what "
                               "was stored before is kept; free some space and try again")
                    .arg(context)};
    case sqliteReadOnly:
        return {StoreError::Code::Io,
                QStringLiteral("%1: the workspace file or its folder is read-only (permissions, "
                               "or a disk mounted read-only); what was stored is kept; make it "
                               "writable and try again (%2)")
                    .arg(context, detail)};
    case sqliteIoErr:
    case sqliteCantOpen:
        return {StoreError::Code::Io,
                QStringLiteral("%1: the workspace file cannot be read or written (%2): is it "
                               "still there, and is its disk?")
                    .arg(context, detail)};
    case sqliteConstraint:
        return {StoreError::Code::Invalid, QStringLiteral("%1: %2").arg(context, detail)};
    default:
        return {StoreError::Code::Io, QStringLiteral("%1: %2").arg(context, detail)};
    }
}

bool failSql(StoreError *error, const QSqlQuery &query, const QString &context)
{
    if (error)
        *error = sqlError(query.lastError(), context);
    return false;
}

bool failMissing(StoreError *error, const ResourceKey &key)
{
    return fail(error, StoreError::Code::NotFound,
                QStringLiteral("%1 does not exist").arg(key.toString()));
}

bool readKeyedRow(QSqlQuery &select, const ResourceKey &key, StoreError *error)
{
    if (!select.exec())
        return failSql(error, select, QStringLiteral("cannot read %1").arg(key.toString()));
    if (!select.next()) {
        select.finish();
        return failMissing(error, key);
    }
    return true;
}

bool deleteKeyedRows(const QSqlDatabase &db, const char *table, const ResourceKey &key,
                     StoreError *error, int *removed)
{
    QSqlQuery q(db);
    q.prepare(
        QStringLiteral("DELETE FROM %1 WHERE kind = ? AND name = ?").arg(QLatin1String(table)));
    q.addBindValue(text(key.kind));
    q.addBindValue(text(key.name));
    if (!q.exec())
        return failSql(error, q, QStringLiteral("cannot remove %1").arg(key.toString()));
    if (removed)
        *removed = q.numRowsAffected();
    return true;
}

void logSql(const QSqlQuery &query, const char *context, StoreError *error)
{
    // Only SQLite's message: the statement's values may hold anything the caller stored.
    qCWarning(lcStore, "%s: %ls", context, qUtf16Printable(query.lastError().databaseText()));
    if (error)
        *error =
            sqlError(query.lastError(),
                     QStringLiteral("cannot read the workspace (%1)").arg(QLatin1String(context)));
}

} // namespace converge::StoreSql
