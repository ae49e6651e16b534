#include "core/store/schema.h"

#include "core/store/database.h"
#include "core/store/searchindex.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace Callscope::Schema {

namespace {

// ---- Version 1: the first shipped layout -------------------------------------------------
//
// Times are milliseconds since the epoch (UTC). JSON values are compact JSON text. In `calls`
// the small columns come first and the large JSON last, so history queries read a row's
// first page only and never its overflow pages.

constexpr auto kV1Sessions = R"(CREATE TABLE sessions (
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL DEFAULT '',
    system_prompt TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    summary TEXT NOT NULL DEFAULT '',
    summary_through INTEGER,
    metadata TEXT NOT NULL DEFAULT '{}'
))"_L1;

constexpr auto kV1Calls = R"(CREATE TABLE calls (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    status TEXT NOT NULL
        CHECK (status IN ('running', 'completed', 'failed', 'turn_limited', 'cancelled')),
    engine_type TEXT NOT NULL DEFAULT '',
    model TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    finished_at INTEGER,
    parent_id INTEGER REFERENCES calls(id) ON DELETE SET NULL,
    session_id INTEGER REFERENCES sessions(id) ON DELETE SET NULL,
    first_sequence INTEGER,
    last_sequence INTEGER,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    cached_tokens INTEGER NOT NULL DEFAULT 0,
    reasoning_tokens INTEGER NOT NULL DEFAULT 0,
    turn_count INTEGER NOT NULL DEFAULT 0,
    attempt_count INTEGER NOT NULL DEFAULT 0,
    error_category TEXT,
    input_preview TEXT NOT NULL DEFAULT '',
    error TEXT,
    system_prompt TEXT NOT NULL DEFAULT '',
    input TEXT NOT NULL DEFAULT '{}',
    response TEXT,
    metadata TEXT NOT NULL DEFAULT '{}',
    spec TEXT NOT NULL DEFAULT '{}',
    messages TEXT NOT NULL DEFAULT '[]',
    transcript TEXT NOT NULL DEFAULT '[]',
    CHECK (first_sequence IS NULL OR session_id IS NOT NULL)
))"_L1;

// History pages are ordered by (created_at, id); id is the rowid, so every index below ends
// with it implicitly and a filtered page is one index range scan.
constexpr auto kV1IndexCreated = "CREATE INDEX calls_by_created ON calls(created_at)"_L1;
constexpr auto kV1IndexKind = "CREATE INDEX calls_by_kind ON calls(kind, created_at)"_L1;
constexpr auto kV1IndexStatus = "CREATE INDEX calls_by_status ON calls(status, created_at)"_L1;
constexpr auto kV1IndexEngine = "CREATE INDEX calls_by_engine ON calls(engine_type, created_at)"_L1;
constexpr auto kV1IndexModel = "CREATE INDEX calls_by_model ON calls(model, created_at)"_L1;
constexpr auto kV1IndexParent = "CREATE INDEX calls_by_parent ON calls(parent_id)"_L1;
constexpr auto kV1IndexSession =
    "CREATE INDEX calls_by_session ON calls(session_id, first_sequence)"_L1;

// Turns and attempts are child rows written in the call's transaction; calls.turn_count and
// calls.attempt_count let a checker prove no call lost its children.
constexpr auto kV1Turns = R"(CREATE TABLE call_turns (
    call_id INTEGER NOT NULL REFERENCES calls(id) ON DELETE CASCADE,
    turn_index INTEGER NOT NULL,
    finish_reason TEXT NOT NULL,
    raw_finish_reason TEXT NOT NULL DEFAULT '',
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    cached_tokens INTEGER NOT NULL DEFAULT 0,
    reasoning_tokens INTEGER NOT NULL DEFAULT 0,
    tool_calls INTEGER NOT NULL DEFAULT 0,
    note TEXT NOT NULL DEFAULT '',
    request_report TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (call_id, turn_index)
))"_L1;

constexpr auto kV1Attempts = R"(CREATE TABLE call_attempts (
    call_id INTEGER NOT NULL REFERENCES calls(id) ON DELETE CASCADE,
    attempt_index INTEGER NOT NULL,
    turn_index INTEGER NOT NULL,
    outcome TEXT NOT NULL DEFAULT '',
    finish_reason TEXT NOT NULL,
    raw_finish_reason TEXT NOT NULL DEFAULT '',
    http_status INTEGER NOT NULL DEFAULT 0,
    error TEXT NOT NULL DEFAULT '',
    delay_ms INTEGER NOT NULL DEFAULT 0,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    cached_tokens INTEGER NOT NULL DEFAULT 0,
    reasoning_tokens INTEGER NOT NULL DEFAULT 0,
    started_at INTEGER,
    duration_ms INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (call_id, attempt_index)
))"_L1;

// A compaction row links a summary call (kind `compaction`) to the message range it folds.
constexpr auto kV1Compactions = R"(CREATE TABLE compactions (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    call_id INTEGER NOT NULL REFERENCES calls(id),
    first_sequence INTEGER NOT NULL,
    last_sequence INTEGER NOT NULL,
    summary TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    CHECK (first_sequence <= last_sequence)
))"_L1;
constexpr auto kV1IndexCompactions =
    "CREATE INDEX compactions_by_session ON compactions(session_id, id)"_L1;

// Session messages in neutral JSON. `send_to_model = 0` marks the accepted-output copy of a
// structured turn, which views show and the model never gets back.
constexpr auto kV1Messages = R"(CREATE TABLE messages (
    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    sequence INTEGER NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
    message TEXT NOT NULL,
    send_to_model INTEGER NOT NULL DEFAULT 1 CHECK (send_to_model IN (0, 1)),
    compacted_by INTEGER REFERENCES compactions(id),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (session_id, sequence)
))"_L1;
constexpr auto kV1IndexMessagesCompacted =
    "CREATE INDEX messages_by_compaction ON messages(compacted_by) WHERE compacted_by IS NOT NULL"_L1;

// ---- Version 2: full-text search ---------------------------------------------------------

constexpr auto kV2Fts = R"(CREATE VIRTUAL TABLE calls_fts USING fts5(
    input, output, tools, content='', tokenize='unicode61 remove_diacritics 2'))"_L1;
constexpr auto kV2LikeTable = R"(CREATE TABLE calls_search (
    call_id INTEGER PRIMARY KEY REFERENCES calls(id) ON DELETE CASCADE,
    input TEXT NOT NULL DEFAULT '',
    output TEXT NOT NULL DEFAULT '',
    tools TEXT NOT NULL DEFAULT ''
))"_L1;
// On a PostgreSQL server: a tsvector per call (the 'simple' configuration: words lowercased,
// no stemming, like FTS5's unicode61) with a GIN index.
constexpr auto kV2ServerSearch = R"(CREATE TABLE calls_search (
    call_id BIGINT PRIMARY KEY REFERENCES calls(id) ON DELETE CASCADE,
    document TSVECTOR NOT NULL
))"_L1;
constexpr auto kV2ServerSearchIndex =
    "CREATE INDEX calls_search_by_document ON calls_search USING GIN (document)"_L1;
constexpr auto kV2SelectCalls =
    "SELECT id, input, response, error, messages FROM calls ORDER BY id"_L1;

QJsonValue parseJsonValue(const QString &text)
{
    if (text.isEmpty())
        return QJsonValue(QJsonValue::Undefined);
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray('[' + text.toUtf8() + ']'));
    return doc.array().isEmpty() ? QJsonValue(QJsonValue::Undefined) : doc.array().first();
}

StoreError indexCalls(Database &database, Database::SearchMode mode);

// Creates the search index (FTS5, or the LIKE table when FTS5 is missing or refused) and
// indexes every existing call.
StoreError createSearchIndex(Database &database, bool forceFallback)
{
    QSqlDatabase db = database.connection();
    QSqlQuery query(db);
    if (database.isServer()) {
        for (QLatin1StringView statement : { kV2ServerSearch, kV2ServerSearchIndex }) {
            if (!query.exec(statement))
                return database.errorFrom(
                    query, QCoreApplication::translate("Store", "creating the search table"));
        }
        return indexCalls(database, Database::SearchMode::TextSearch);
    }
    bool fts = false;
    if (!forceFallback) {
        fts = query.exec(kV2Fts);
        if (!fts)
            qCInfo(lcStore) << "FTS5 unavailable, using the LIKE search fallback:"
                            << query.lastError().text();
    }
    if (!fts && !query.exec(kV2LikeTable))
        return database.errorFrom(
            query, QCoreApplication::translate("Store", "creating the search table"));
    return indexCalls(database,
                      fts ? Database::SearchMode::Fts5 : Database::SearchMode::LikeFallback);
}

} // namespace

StoreError indexAllCalls(Database &database)
{
    return indexCalls(database, database.searchMode());
}

namespace {

StoreError indexCalls(Database &database, Database::SearchMode mode)
{
    QSqlDatabase db = database.connection();
    QSqlQuery rows(db);
    rows.setForwardOnly(true);
    if (!rows.exec(kV2SelectCalls))
        return database.errorFrom(rows,
                                  QCoreApplication::translate("Store", "reading calls to index"));
    while (rows.next()) {
        const auto input = QJsonDocument::fromJson(rows.value(1).toString().toUtf8()).object();
        const QJsonValue response = parseJsonValue(rows.value(2).toString());
        const auto messages = QJsonDocument::fromJson(rows.value(4).toString().toUtf8()).array();
        const SearchIndex::Document doc =
            SearchIndex::documentFor(input, response, rows.value(3).toString(), messages);
        if (StoreError error = SearchIndex::add(database, mode, rows.value(0).toLongLong(), doc);
            error)
            return error;
    }
    return {};
}

// ---- Version 3: stored batches (callscope-cli batch --resume) -----------------------------

constexpr auto kV3Batches = R"(CREATE TABLE batches (
    id INTEGER PRIMARY KEY,
    spec_path TEXT NOT NULL,
    spec_hash TEXT NOT NULL,
    spec TEXT NOT NULL,
    inputs_path TEXT NOT NULL,
    inputs_hash TEXT NOT NULL,
    total_lines INTEGER NOT NULL,
    created_at TEXT NOT NULL
))"_L1;
constexpr auto kV3IndexBatches =
    "CREATE INDEX batches_by_files ON batches(spec_path, inputs_path, id)"_L1;
constexpr auto kV3BatchCalls = R"(CREATE TABLE batch_calls (
    batch_id INTEGER NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
    line INTEGER NOT NULL,
    call_id INTEGER NOT NULL REFERENCES calls(id) ON DELETE CASCADE,
    PRIMARY KEY (batch_id, line, call_id)
))"_L1;
constexpr auto kV3IndexBatchCalls = "CREATE INDEX batch_calls_by_call ON batch_calls(call_id)"_L1;

// ---- Version 4: experiments and their runs (callscope-cli eval) --------------------------

constexpr auto kV4Experiments = R"(CREATE TABLE experiments (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    path TEXT NOT NULL DEFAULT '',
    definition_hash TEXT NOT NULL,
    definition TEXT NOT NULL,
    created_at INTEGER NOT NULL
))"_L1;
constexpr auto kV4Runs = R"(CREATE TABLE experiment_runs (
    id INTEGER PRIMARY KEY,
    experiment_id INTEGER NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
    case_id TEXT NOT NULL,
    variant TEXT NOT NULL,
    repeat INTEGER NOT NULL,
    call_id INTEGER REFERENCES calls(id) ON DELETE SET NULL,
    status TEXT NOT NULL,
    passed INTEGER NOT NULL,
    assertions TEXT NOT NULL DEFAULT '[]',
    latency_ms INTEGER NOT NULL DEFAULT 0,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    cost_usd REAL,
    created_at INTEGER NOT NULL,
    UNIQUE (experiment_id, case_id, variant, repeat)
))"_L1;
constexpr auto kV4IndexRunsByCall =
    "CREATE INDEX experiment_runs_by_call ON experiment_runs(call_id)"_L1;

// ---- Version 5: experiments through the providers' batch APIs ---------------------------
//
// One row per provider batch, written before it is submitted and updated as it moves, and
// one row per line: which run and which request of its tool loop the line carries, and, once
// the batch ended, its outcome and the reply body. `--resume` rebuilds every run from these.

constexpr auto kV5ProviderBatches = R"(CREATE TABLE provider_batches (
    id INTEGER PRIMARY KEY,
    experiment_id INTEGER NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
    engine_key TEXT NOT NULL,
    engine_type TEXT NOT NULL,
    round INTEGER NOT NULL,
    part INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL CHECK (status IN ('submitting', 'submit_unknown', 'submitted', 'cancelling',
        'ended', 'failed', 'abandoned')),
    provider_id TEXT NOT NULL DEFAULT '',
    input_file_id TEXT NOT NULL DEFAULT '',
    provider_status TEXT NOT NULL DEFAULT '',
    line_count INTEGER NOT NULL,
    counts TEXT NOT NULL DEFAULT '{}',
    error TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    submitted_at INTEGER,
    ended_at INTEGER,
    updated_at INTEGER NOT NULL
))"_L1;
constexpr auto kV5IndexProviderBatches =
    "CREATE INDEX provider_batches_by_experiment ON provider_batches(experiment_id, id)"_L1;
constexpr auto kV5ProviderBatchLines = R"(CREATE TABLE provider_batch_lines (
    batch_id INTEGER NOT NULL REFERENCES provider_batches(id) ON DELETE CASCADE,
    custom_id TEXT NOT NULL,
    case_id TEXT NOT NULL,
    variant TEXT NOT NULL,
    repeat INTEGER NOT NULL,
    request_index INTEGER NOT NULL,
    request_hash TEXT NOT NULL,
    outcome TEXT NOT NULL DEFAULT 'pending'
        CHECK (outcome IN ('pending', 'succeeded', 'errored', 'expired', 'canceled')),
    result TEXT,
    error TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (batch_id, custom_id)
))"_L1;
// What a run would have cost at direct prices (the summary's batch saving).
constexpr auto kV5DirectCost = "ALTER TABLE experiment_runs ADD COLUMN direct_cost_usd REAL"_L1;

// ---- Version 6: the raw HTTP exchanges of a call -----------------------------------------
//
// One row per request of a call's tool loop that got a reply or a final error, in the order
// made: the request body (JSON, attachments' bytes replaced, at most 1 MiB) and the head of
// the reply (at most 256 KiB), each with its whole size. Read only by CallStore::exchanges()
// (the call view), never by history queries. Calls stored before this version have none.
constexpr auto kV6Exchanges = R"(CREATE TABLE call_exchanges (
    call_id INTEGER NOT NULL REFERENCES calls(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    turn_index INTEGER NOT NULL,
    attempt_index INTEGER NOT NULL DEFAULT 0,
    http_status INTEGER NOT NULL DEFAULT 0,
    replayed INTEGER NOT NULL DEFAULT 0 CHECK (replayed IN (0, 1)),
    request_bytes INTEGER NOT NULL DEFAULT 0,
    response_bytes INTEGER NOT NULL DEFAULT 0,
    request BLOB NOT NULL,
    response BLOB NOT NULL,
    PRIMARY KEY (call_id, seq)
))"_L1;

// ---- Version 7: the response cache of experiments ----------------------------------------
//
// A model reply kept under the hash of what was asked (engine type, base URL, model, the
// request body as sent, the repeat), so an unchanged request of an experiment is answered
// without being sent again. Bounded by size; the oldest entries go first. A run records
// whether its requests were answered from here and what that saved.
constexpr auto kV7ResponseCache = R"(CREATE TABLE response_cache (
    key TEXT PRIMARY KEY,
    engine_type TEXT NOT NULL,
    base_url TEXT NOT NULL,
    model TEXT NOT NULL,
    reply TEXT NOT NULL,
    bytes INTEGER NOT NULL,
    created_at INTEGER NOT NULL
))"_L1;
constexpr auto kV7IndexResponseCache =
    "CREATE INDEX response_cache_by_age ON response_cache(created_at)"_L1;
constexpr auto kV7RunCached =
    "ALTER TABLE experiment_runs ADD COLUMN cached INTEGER NOT NULL DEFAULT 0"_L1;
constexpr auto kV7RunCacheSaved = "ALTER TABLE experiment_runs ADD COLUMN cache_saved_usd REAL"_L1;

// ---- Version 8: prompt cache writes ----------------------------------------------------
//
// input_tokens used to hold every prompt token, cached_tokens (the cache reads) among them.
// From here on the prompt is three parts that do not overlap: input_tokens (uncached),
// cached_tokens (read from the provider's cache) and cache_write_tokens (written to it, of
// which cache_write_1h_tokens for an hour). Old rows are split the same way; their cache
// writes were not kept apart, so they stay in input_tokens.
constexpr auto kV8CallsWrite =
    "ALTER TABLE calls ADD COLUMN cache_write_tokens INTEGER NOT NULL DEFAULT 0"_L1;
constexpr auto kV8CallsWrite1h =
    "ALTER TABLE calls ADD COLUMN cache_write_1h_tokens INTEGER NOT NULL DEFAULT 0"_L1;
constexpr auto kV8TurnsWrite =
    "ALTER TABLE call_turns ADD COLUMN cache_write_tokens INTEGER NOT NULL DEFAULT 0"_L1;
constexpr auto kV8TurnsWrite1h =
    "ALTER TABLE call_turns ADD COLUMN cache_write_1h_tokens INTEGER NOT NULL DEFAULT 0"_L1;
constexpr auto kV8AttemptsWrite =
    "ALTER TABLE call_attempts ADD COLUMN cache_write_tokens INTEGER NOT NULL DEFAULT 0"_L1;
constexpr auto kV8AttemptsWrite1h =
    "ALTER TABLE call_attempts ADD COLUMN cache_write_1h_tokens INTEGER NOT NULL DEFAULT 0"_L1;
constexpr auto kV8RunsRead =
    "ALTER TABLE experiment_runs ADD COLUMN cache_read_tokens INTEGER NOT NULL DEFAULT 0"_L1;
constexpr auto kV8RunsWrite =
    "ALTER TABLE experiment_runs ADD COLUMN cache_write_tokens INTEGER NOT NULL DEFAULT 0"_L1;
// What a run would have cost with no prompt cache (the summary's cache saving).
constexpr auto kV8RunsUncached = "ALTER TABLE experiment_runs ADD COLUMN uncached_cost_usd REAL"_L1;
constexpr auto kV8SplitRuns = R"(UPDATE experiment_runs SET
    cache_read_tokens = COALESCE((SELECT c.cached_tokens FROM calls c WHERE c.id = experiment_runs.call_id), 0),
    input_tokens = MAX(0, input_tokens
        - COALESCE((SELECT c.cached_tokens FROM calls c WHERE c.id = experiment_runs.call_id), 0)),
    uncached_cost_usd = cost_usd)"_L1;
constexpr auto kV8SplitCalls =
    "UPDATE calls SET input_tokens = MAX(0, input_tokens - cached_tokens) WHERE cached_tokens > 0"_L1;
constexpr auto kV8SplitTurns =
    "UPDATE call_turns SET input_tokens = MAX(0, input_tokens - cached_tokens) WHERE cached_tokens > 0"_L1;
constexpr auto kV8SplitAttempts =
    "UPDATE call_attempts SET input_tokens = MAX(0, input_tokens - cached_tokens) WHERE cached_tokens > 0"_L1;

// ---- Version 9: who and where, and a UUID beside each local id ---------------------------
//
// Ids are this history's own numbers; a UUID names a call, a session or an experiment run
// everywhere (a shared server written by many machines, an export imported twice). Each call
// and run also records the person who made it and the machine it ran on; rows stored before
// this version have none (empty) but get a UUID here.
constexpr auto kV9CallsUuid = "ALTER TABLE calls ADD COLUMN uuid TEXT"_L1;
constexpr auto kV9CallsPerson = "ALTER TABLE calls ADD COLUMN person TEXT NOT NULL DEFAULT ''"_L1;
constexpr auto kV9CallsMachine = "ALTER TABLE calls ADD COLUMN machine TEXT NOT NULL DEFAULT ''"_L1;
constexpr auto kV9IndexCallsUuid = "CREATE UNIQUE INDEX calls_by_uuid ON calls(uuid)"_L1;
constexpr auto kV9IndexCallsPerson = "CREATE INDEX calls_by_person ON calls(person, created_at)"_L1;
constexpr auto kV9SessionsUuid = "ALTER TABLE sessions ADD COLUMN uuid TEXT"_L1;
constexpr auto kV9IndexSessionsUuid = "CREATE UNIQUE INDEX sessions_by_uuid ON sessions(uuid)"_L1;
constexpr auto kV9RunsUuid = "ALTER TABLE experiment_runs ADD COLUMN uuid TEXT"_L1;
constexpr auto kV9RunsPerson =
    "ALTER TABLE experiment_runs ADD COLUMN person TEXT NOT NULL DEFAULT ''"_L1;
constexpr auto kV9RunsMachine =
    "ALTER TABLE experiment_runs ADD COLUMN machine TEXT NOT NULL DEFAULT ''"_L1;
constexpr auto kV9IndexRunsUuid =
    "CREATE UNIQUE INDEX experiment_runs_by_uuid ON experiment_runs(uuid)"_L1;

// Gives every row stored before version 9 its UUID (the expression is the dialect's).
StoreError assignUuids(Database &database, bool)
{
    QSqlQuery query(database.connection());
    for (const char *table : { "calls", "sessions", "experiment_runs" }) {
        const QString sql = u"UPDATE %1 SET uuid = %2 WHERE uuid IS NULL"_s.arg(
            QLatin1StringView(table), database.dialect().newUuid());
        if (!query.exec(sql))
            return database.errorFrom(
                query, QCoreApplication::translate("Store", "giving the stored rows their UUIDs"));
    }
    return {};
}

// ---- Version 10: people's labels of experiment runs ----------------------------------------
//
// The review queue stores one label per run and reviewer: pass, fail or skip, an optional
// score from 1 to 5 and a note. The run is named by its key (case, variant, repeat), which
// outlives a rerun of the run's row; run_id and call_id say which row and call were looked at.
constexpr auto kV10ReviewLabels = R"(CREATE TABLE review_labels (
    id INTEGER PRIMARY KEY,
    experiment_id INTEGER NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
    run_id INTEGER REFERENCES experiment_runs(id) ON DELETE SET NULL,
    call_id INTEGER REFERENCES calls(id) ON DELETE SET NULL,
    case_id TEXT NOT NULL,
    variant TEXT NOT NULL,
    repeat INTEGER NOT NULL,
    verdict TEXT NOT NULL CHECK (verdict IN ('pass', 'fail', 'skip')),
    score INTEGER CHECK (score IS NULL OR (score >= 1 AND score <= 5)),
    note TEXT NOT NULL DEFAULT '',
    reviewer TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (experiment_id, case_id, variant, repeat, reviewer)
))"_L1;

// ---- Version 11: the calls table remade with its JSON columns last --------------------------
//
// A large call is stored as zero-filled blobs of its JSON columns' final sizes, written piece
// by piece afterwards (CallStore::insertCallRow). SQLite keeps such blobs unallocated only
// while every column after them is empty (NULL, 0 or 1); the columns versions 8 and 9 added
// came after the JSON (a cache write count, the UUID, the person, the machine), so SQLite
// filled the blobs in memory: a 50 MB answer cost 300 MB more to store. The table is copied
// into the layout version 1 meant (small columns first, JSON last); ids, indexes and the search
// index (keyed by the call id) stay as they are. PostgreSQL keeps its table: it stores large
// values apart from the row in any order.
constexpr auto kV11Calls = R"(CREATE TABLE calls_v11 (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    status TEXT NOT NULL
        CHECK (status IN ('running', 'completed', 'failed', 'turn_limited', 'cancelled')),
    engine_type TEXT NOT NULL DEFAULT '',
    model TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    finished_at INTEGER,
    parent_id INTEGER REFERENCES calls(id) ON DELETE SET NULL,
    session_id INTEGER REFERENCES sessions(id) ON DELETE SET NULL,
    first_sequence INTEGER,
    last_sequence INTEGER,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    cached_tokens INTEGER NOT NULL DEFAULT 0,
    reasoning_tokens INTEGER NOT NULL DEFAULT 0,
    cache_write_tokens INTEGER NOT NULL DEFAULT 0,
    cache_write_1h_tokens INTEGER NOT NULL DEFAULT 0,
    turn_count INTEGER NOT NULL DEFAULT 0,
    attempt_count INTEGER NOT NULL DEFAULT 0,
    error_category TEXT,
    input_preview TEXT NOT NULL DEFAULT '',
    error TEXT,
    uuid TEXT,
    person TEXT NOT NULL DEFAULT '',
    machine TEXT NOT NULL DEFAULT '',
    system_prompt TEXT NOT NULL DEFAULT '',
    input TEXT NOT NULL DEFAULT '{}',
    response TEXT,
    metadata TEXT NOT NULL DEFAULT '{}',
    spec TEXT NOT NULL DEFAULT '{}',
    messages TEXT NOT NULL DEFAULT '[]',
    transcript TEXT NOT NULL DEFAULT '[]',
    CHECK (first_sequence IS NULL OR session_id IS NOT NULL)
))"_L1;
constexpr auto kV11Columns = "id, kind, status, engine_type, model, created_at, finished_at, "
                             "parent_id, session_id, first_sequence, last_sequence, input_tokens, "
                             "output_tokens, cached_tokens, reasoning_tokens, cache_write_tokens, "
                             "cache_write_1h_tokens, turn_count, attempt_count, error_category, "
                             "input_preview, error, uuid, person, machine, system_prompt, input, "
                             "response, metadata, spec, messages, transcript"_L1;

StoreError rebuildCalls(Database &database, bool)
{
    if (database.isServer())
        return {};
    const QString what = QCoreApplication::translate("Store", "reordering the calls table");
    QSqlQuery query(database.connection());
    // The indexes go with the old table; their definitions are kept to make them again.
    QStringList indexes;
    if (!query.exec(u"SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'calls' "
                    "AND sql IS NOT NULL"_s))
        return database.errorFrom(query, what);
    while (query.next())
        indexes.append(query.value(0).toString());
    query.finish();
    const QStringList statements {
        kV11Calls,
        u"INSERT INTO calls_v11 (%1) SELECT %1 FROM calls"_s.arg(kV11Columns),
        u"DROP TABLE calls"_s,
        u"ALTER TABLE calls_v11 RENAME TO calls"_s,
    };
    for (const QString &statement : statements + indexes) {
        if (!query.exec(statement))
            return database.errorFrom(query, what);
    }
    return {};
}

// ---- Version 12: a history of a million calls and many experiments --------------------------
//
// The experiment view finds the stored runs of an experiment by its definition's hash, Compare
// the latest run of the same name: indexed, so neither reads the experiments' definitions (on
// SQLite they are in the table's pages). On PostgreSQL the search index's column keeps the
// frequencies of up to 100,000 words in its statistics (the default keeps about 1,000): the
// planner then knows a rare word is rare and takes the matches from the GIN index, instead of
// walking the whole history newest first to find a few (6 s at a million calls, now 2 ms).
constexpr auto kV12ExperimentsByHash =
    "CREATE INDEX experiments_by_hash ON experiments(definition_hash, id)"_L1;
constexpr auto kV12ExperimentsByName =
    "CREATE INDEX experiments_by_name ON experiments(name, id)"_L1;
constexpr auto kV12ServerSearchStatistics =
    "ALTER TABLE calls_search ALTER COLUMN document SET STATISTICS 10000"_L1;

StoreError tuneServerSearch(Database &database, bool)
{
    if (!database.isServer())
        return {};
    QSqlQuery query(database.connection());
    if (!query.exec(kV12ServerSearchStatistics))
        return database.errorFrom(
            query, QCoreApplication::translate("Store", "tuning the search index's statistics"));
    return {};
}

} // namespace

const QList<MigrationStep> &migrations()
{
    static const QList<MigrationStep> steps = {
        { 1,
          { kV1Sessions, kV1Calls, kV1IndexCreated, kV1IndexKind, kV1IndexStatus, kV1IndexEngine,
            kV1IndexModel, kV1IndexParent, kV1IndexSession, kV1Turns, kV1Attempts, kV1Compactions,
            kV1IndexCompactions, kV1Messages, kV1IndexMessagesCompacted },
          nullptr },
        { 2, {}, &createSearchIndex },
        { 3, { kV3Batches, kV3IndexBatches, kV3BatchCalls, kV3IndexBatchCalls }, nullptr },
        { 4, { kV4Experiments, kV4Runs, kV4IndexRunsByCall }, nullptr },
        { 5,
          { kV5ProviderBatches, kV5IndexProviderBatches, kV5ProviderBatchLines, kV5DirectCost },
          nullptr },
        { 6, { kV6Exchanges }, nullptr },
        { 7, { kV7ResponseCache, kV7IndexResponseCache, kV7RunCached, kV7RunCacheSaved }, nullptr },
        { 8,
          { kV8CallsWrite, kV8CallsWrite1h, kV8TurnsWrite, kV8TurnsWrite1h, kV8AttemptsWrite,
            kV8AttemptsWrite1h, kV8RunsRead, kV8RunsWrite, kV8RunsUncached, kV8SplitRuns,
            kV8SplitCalls, kV8SplitTurns, kV8SplitAttempts },
          nullptr },
        { 9,
          { kV9CallsUuid, kV9CallsPerson, kV9CallsMachine, kV9IndexCallsUuid, kV9IndexCallsPerson,
            kV9SessionsUuid, kV9IndexSessionsUuid, kV9RunsUuid, kV9RunsPerson, kV9RunsMachine,
            kV9IndexRunsUuid },
          &assignUuids },
        { 10, { kV10ReviewLabels }, nullptr },
        { 11, {}, &rebuildCalls, true },
        { 12, { kV12ExperimentsByHash, kV12ExperimentsByName }, &tuneServerSearch },
    };
    return steps;
}

int latestVersion()
{
    return migrations().constLast().version;
}

} // namespace Callscope::Schema
