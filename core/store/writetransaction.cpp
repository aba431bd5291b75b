// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "writetransaction.h"

#include "storesql.h"

namespace converge {

using namespace StoreSql;

QString TransactionStatements::sql(Which which)
{
    static const char *const text[Count] = {"BEGIN IMMEDIATE", "COMMIT",   "SAVEPOINT nested",
                                            "RELEASE nested",  "ROLLBACK", "ROLLBACK TO nested"};
    return QString::fromLatin1(text[which]);
}

QSqlQuery *TransactionStatements::get(const QSqlDatabase &db, Which which)
{
    std::unique_ptr<QSqlQuery> &q = m_queries[which];
    if (!q) {
        auto prepared = std::make_unique<QSqlQuery>(db);
        if (!prepared->prepare(sql(which)))
            return nullptr;
        q = std::move(prepared);
    }
    return q.get();
}

WriteTransaction::WriteTransaction(const QSqlDatabase &db, std::mutex *writers, int *depth,
                                   TransactionStatements *statements)
    : m_db(db)
    , m_writers(writers)
    , m_depth(depth)
    , m_statements(statements)
{}

WriteTransaction::~WriteTransaction()
{
    if (m_active) {
        if (!run(m_nested ? TransactionStatements::RollbackTo : TransactionStatements::Rollback,
                 nullptr))
            qCWarning(lcStore) << "rollback failed";
        if (m_nested && !run(TransactionStatements::Release, nullptr))
            qCWarning(lcStore) << "release failed";
        leave();
    }
    if (m_locked)
        m_writers->unlock();
}

bool WriteTransaction::begin(StoreError *error)
{
    m_nested = m_depth && *m_depth > 0;
    if (m_nested) {
        if (!run(TransactionStatements::Savepoint, error))
            return false;
    } else {
        if (m_writers) {
            m_writers->lock();
            m_locked = true;
        }
        if (!run(TransactionStatements::Begin, error))
            return false;
    }
    m_active = true;
    if (m_depth)
        ++*m_depth;
    return true;
}

bool WriteTransaction::commit(StoreError *error)
{
    if (!run(m_nested ? TransactionStatements::Release : TransactionStatements::Commit, error))
        return false;
    m_active = false;
    leave();
    if (m_locked) {
        m_writers->unlock();
        m_locked = false;
    }
    return true;
}

void WriteTransaction::leave()
{
    if (m_depth)
        --*m_depth;
}

bool WriteTransaction::run(TransactionStatements::Which which, StoreError *error)
{
    static const char *const what[TransactionStatements::Count] = {
        "cannot start writing", "cannot commit", "cannot start writing",
        "cannot commit",        "rollback",      "rollback"};
    QSqlQuery local(m_db);
    QSqlQuery *q = m_statements ? m_statements->get(m_db, which) : nullptr;
    if (!q) {
        if (!local.prepare(TransactionStatements::sql(which)))
            return failSql(error, local, QString::fromLatin1(what[which]));
        q = &local;
    }
    const bool ok = q->exec();
    if (!ok)
        failSql(error, *q, QString::fromLatin1(what[which]));
    q->finish();
    return ok;
}

} // namespace converge
