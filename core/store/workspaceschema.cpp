// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "workspaceschema.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>

#include <array>
#include <span>

namespace converge {

namespace {

// A step, once released, never changes: files in the wild were written by it. Later changes are
// new steps. Times are milliseconds since the epoch (UTC); JSON columns hold compact JSON.
const char *const version1[] = {
    // Counters that must survive deletions (resource_version is global, like etcd's
    // revision, so a re-created object never reuses an old token).
    "CREATE TABLE workspace_meta (key TEXT PRIMARY KEY, value) WITHOUT ROWID",
    "INSERT INTO workspace_meta (key, value) VALUES ('resource_version', 0)",

    "CREATE TABLE resources ("
    " id INTEGER PRIMARY KEY,"
    " kind TEXT NOT NULL,"
    " name TEXT NOT NULL,"
    " api_version TEXT NOT NULL,"
    " uid TEXT NOT NULL UNIQUE,"
    " generation INTEGER NOT NULL,"
    " resource_version INTEGER NOT NULL,"
    " labels TEXT NOT NULL,"      // JSON object
    " annotations TEXT NOT NULL," // JSON object
    " finalizers TEXT NOT NULL,"  // JSON array
    " spec TEXT NOT NULL,"        // canonical JSON: compact, keys sorted
    " status TEXT NOT NULL,"      // JSON {conditions, observed}
    " creation_time INTEGER NOT NULL,"
    " deletion_time INTEGER,"
    " UNIQUE (kind, name))",

    "CREATE TABLE condition_transitions ("
    " id INTEGER PRIMARY KEY,"
    " kind TEXT NOT NULL,"
    " name TEXT NOT NULL,"
    " type TEXT NOT NULL,"
    " status TEXT NOT NULL,"
    " severity TEXT NOT NULL,"
    " reason TEXT NOT NULL,"
    " message TEXT NOT NULL,"
    " observed_generation INTEGER NOT NULL,"
    " transition_time INTEGER NOT NULL)",
    "CREATE INDEX condition_transitions_resource"
    " ON condition_transitions (kind, name, id)",

    "CREATE TABLE reconcile_state ("
    " kind TEXT NOT NULL,"
    " name TEXT NOT NULL,"
    " attempts INTEGER NOT NULL,"
    " last_attempt INTEGER,"
    " next_attempt INTEGER,"
    " last_error TEXT NOT NULL,"
    " waiting_for TEXT NOT NULL,"
    " last_reconcile_id TEXT NOT NULL,"
    " PRIMARY KEY (kind, name)) WITHOUT ROWID",

    // Events name their resource through event_objects: a small integer per kind/name keeps
    // rows and the per-resource index small. Rows there are never deleted (events outlive their
    // resource), so a connection may cache the ids.
    "CREATE TABLE event_objects ("
    " id INTEGER PRIMARY KEY,"
    " kind TEXT NOT NULL,"
    " name TEXT NOT NULL,"
    " UNIQUE (kind, name))",

    // Ids never go back, also after retention emptied the table (a follower's afterId stays
    // meaningful): the workspace assigns them from max(id) and workspace_meta's event_id, which
    // pruning raises to the highest id it saw. type: 0 Normal, 1 Warning. aggregation: a 64-bit
    // FNV-1a of Event::aggregationKey(), to find the event a repeat belongs to.
    "INSERT INTO workspace_meta (key, value) VALUES ('event_id', 0)",
    "CREATE TABLE events ("
    " id INTEGER PRIMARY KEY,"
    " object INTEGER NOT NULL REFERENCES event_objects (id),"
    " type INTEGER NOT NULL,"
    " reason TEXT NOT NULL,"
    " message TEXT NOT NULL,"
    " phase TEXT NOT NULL,"
    " reconcile_id TEXT NOT NULL,"
    " request_id TEXT NOT NULL,"
    " count INTEGER NOT NULL,"
    " first_time INTEGER NOT NULL,"
    " last_time INTEGER NOT NULL,"
    " aggregation INTEGER NOT NULL)",
    // Per resource, and the way to a repeat: object and hash are equalities, last_time the
    // aggregation window; the hash is in the index, so no row is read to rule a candidate out.
    "CREATE INDEX events_resource ON events (object, aggregation, last_time)",

    "CREATE TABLE journal ("
    " id INTEGER PRIMARY KEY AUTOINCREMENT,"
    " kind TEXT NOT NULL,"
    " name TEXT NOT NULL,"
    " operation TEXT NOT NULL,"
    " details TEXT NOT NULL," // JSON object; never a secret
    " started_at INTEGER NOT NULL,"
    " finished_at INTEGER,"
    " outcome TEXT NOT NULL DEFAULT '')",
    "CREATE INDEX journal_unfinished ON journal (started_at) WHERE finished_at IS NULL",
};

// Time-range queries and pruning by age scanned the whole events table in version 1.
const char *const version2[] = {
    "CREATE INDEX events_time ON events (last_time)",
};

// The Timeline (one row per phase run, newest 200 kept per resource) and discovery (backend
// resources a list found under a workspace owner that nothing manages).
const char *const version3[] = {
    "CREATE TABLE phase_runs ("
    " id INTEGER PRIMARY KEY,"
    " kind TEXT NOT NULL,"
    " name TEXT NOT NULL,"
    " reconcile_id TEXT NOT NULL,"
    " phase TEXT NOT NULL,"
    " started_at INTEGER NOT NULL,"
    " duration_ms INTEGER NOT NULL,"
    " outcome TEXT NOT NULL,"
    " reason TEXT NOT NULL,"
    " message TEXT NOT NULL,"
    " backend_writes INTEGER NOT NULL,"
    " backend_code TEXT NOT NULL,"
    " request_id TEXT NOT NULL)",
    "CREATE INDEX phase_runs_resource ON phase_runs (kind, name, id)",

    "CREATE TABLE discovered ("
    " owner_kind TEXT NOT NULL,"
    " owner_name TEXT NOT NULL,"
    " kind TEXT NOT NULL,"
    " name TEXT NOT NULL,"
    " resource_id TEXT NOT NULL,"
    " spec TEXT NOT NULL,"    // JSON object
    " details TEXT NOT NULL," // JSON object
    " seen_at INTEGER NOT NULL,"
    " PRIMARY KEY (owner_kind, owner_name, kind, name)) WITHOUT ROWID",
    "CREATE INDEX discovered_resource_id ON discovered (resource_id)",
    // Which resource records a backend ID (a list's items are checked against it).
    "CREATE INDEX resources_id ON resources"
    " (json_extract(annotations, '$.\"converge.dev/resource-id\"'))",
    // The controller looks for what changed since its last look, not at everything.
    "CREATE INDEX resources_version ON resources (resource_version)",
    // Half the index per event: a 32-bit aggregation hash (the whole key is compared anyway)
    // and no last_time in it (the few rows with the same object and hash are read). Inserting
    // events dirtied twice the index pages before, which was a third of their cost.
    "DROP INDEX events_resource",
    "UPDATE events SET aggregation = aggregation & 4294967295",
    "CREATE INDEX events_aggregation ON events (object, aggregation)",
};

// When a discovered resource was first listed, kept while later lists show it again.
const char *const version4[] = {
    "ALTER TABLE discovered ADD COLUMN first_seen_at INTEGER",
    "UPDATE discovered SET first_seen_at = seen_at",
};

// The memo of quiet runs (RunMemo): what a resource's last run that changed nothing saw, so that
// the first pass after a start finds it as it was left without judging it again. A row counts
// only while its resource_version is the resource's.
const char *const version5[] = {
    "CREATE TABLE run_memos ("
    " kind TEXT NOT NULL,"
    " name TEXT NOT NULL,"
    " resource_version INTEGER NOT NULL,"
    " memo TEXT NOT NULL," // JSON object, the engine's
    " PRIMARY KEY (kind, name)) WITHOUT ROWID",
};

// An event row stores each thing once, and small: its first time as the span back from its last
// (0, no byte at all, for an event seen once), a known phase as its code and a backend request
// ID that is a lowercase UUID as its 16 bytes (BLOB columns: other values stay text, and SQLite
// converts nothing). Request IDs stored as text by earlier versions stay text.
const char *const version6[] = {
    "CREATE TABLE events_v6 ("
    " id INTEGER PRIMARY KEY,"
    " object INTEGER NOT NULL REFERENCES event_objects (id),"
    " type INTEGER NOT NULL,"
    " reason TEXT NOT NULL,"
    " message TEXT NOT NULL,"
    " phase BLOB NOT NULL,"
    " reconcile_id TEXT NOT NULL,"
    " request_id BLOB NOT NULL,"
    " count INTEGER NOT NULL,"
    " last_time INTEGER NOT NULL,"
    " span INTEGER NOT NULL,"
    " aggregation INTEGER NOT NULL)",
    // The codes of EventStore's phase list, which only ever grows.
    "INSERT INTO events_v6 (id, object, type, reason, message, phase, reconcile_id, request_id,"
    " count, last_time, span, aggregation)"
    " SELECT id, object, type, reason, message,"
    " CASE phase WHEN 'claim' THEN 1 WHEN 'createOrUpdate' THEN 2 WHEN 'delete' THEN 3"
    " WHEN 'updateStatus' THEN 4 WHEN 'recovery' THEN 5 WHEN 'apply' THEN 6 ELSE phase END,"
    " reconcile_id, request_id, count, last_time, last_time - first_time, aggregation"
    " FROM events ORDER BY id",
    "DROP TABLE events",
    "ALTER TABLE events_v6 RENAME TO events",
    "CREATE INDEX events_aggregation ON events (object, aggregation)",
    "CREATE INDEX events_time ON events (last_time)",
};

// A listing's rows by owner and stamp: the latest stamp (each merge stamps after it) and
// what a reader has not read yet are seeks, not scans of a large account.
const char *const version7[] = {
    "CREATE INDEX discovered_seen ON discovered (owner_kind, owner_name, seen_at)",
};

// A quiet resync repeats the resource's newest phase run rather than adding one
// (PhaseRun::repeats): the Timeline's 200 rows keep what happened, and a pass over many
// resources that finds nothing to do rewrites a row each instead of inserting and pruning.
const char *const version8[] = {
    "ALTER TABLE phase_runs ADD COLUMN repeats INTEGER NOT NULL DEFAULT 1",
    "ALTER TABLE phase_runs ADD COLUMN first_started_at INTEGER", // NULL: once
};

// One backend resource, one manager (DESIGN: the resource model). backend_id is the normalized
// ID a resource with an owner records (BackendId::managedBy), and the unique index refuses a
// second resource recording it, also from another process. Files written before held
// duplicates (two accounts on one endpoint, one table claimed twice): the oldest keeps the ID,
// the later ones keep their annotation and a NULL backend_id, which is how the engine knows
// them (it refuses their writes and their delete until one of them is detached). Every ID an
// earlier version stored is already in its normalized form (no ARM IDs were stored before).
// discovered.managed_by: the workspace resource that manages what another account's listing
// shows (JSON {resource, account}), so that the row says so rather than offering Claim.
const char *const version9[] = {
    "ALTER TABLE resources ADD COLUMN backend_id TEXT",
    "UPDATE resources SET backend_id = json_extract(annotations, '$.\"converge.dev/resource-id\"')"
    " WHERE json_extract(spec, '$.owner') IS NOT NULL"
    " AND coalesce(json_extract(annotations, '$.\"converge.dev/resource-id\"'), '') <> ''"
    " AND id = (SELECT min(r.id) FROM resources r WHERE json_extract(r.spec, '$.owner') IS NOT"
    " NULL AND json_extract(r.annotations, '$.\"converge.dev/resource-id\"') ="
    " json_extract(resources.annotations, '$.\"converge.dev/resource-id\"'))",
    "CREATE UNIQUE INDEX resources_backend_id ON resources (backend_id)",
    "ALTER TABLE discovered ADD COLUMN managed_by TEXT",
};

struct Step
{
    int version;
    std::span<const char *const> statements;
};

const std::array steps{Step{1, version1}, Step{2, version2}, Step{3, version3},
                       Step{4, version4}, Step{5, version5}, Step{6, version6},
                       Step{7, version7}, Step{8, version8}, Step{9, version9}};

bool run(QSqlDatabase &db, const QString &sql, QString *error)
{
    QSqlQuery query(db);
    if (query.exec(sql))
        return true;
    if (error)
        *error = query.lastError().databaseText();
    return false;
}

} // namespace

int WorkspaceSchema::currentVersion()
{
    return steps.back().version;
}

bool WorkspaceSchema::upgrade(QSqlDatabase &db, int fromVersion, QString *error)
{
    return upgrade(db, fromVersion, currentVersion(), error);
}

bool WorkspaceSchema::upgrade(QSqlDatabase &db, int fromVersion, int toVersion, QString *error)
{
    for (const Step &step : steps) {
        if (step.version <= fromVersion || step.version > toVersion)
            continue;
        for (const char *statement : step.statements) {
            if (!run(db, QString::fromUtf8(statement), error))
                return false;
        }
    }
    // Both live in the header page and are written inside the caller's transaction.
    return run(db, QStringLiteral("PRAGMA application_id = %1").arg(applicationId), error) &&
           run(db, QStringLiteral("PRAGMA user_version = %1").arg(toVersion), error);
}

} // namespace converge
