#include "core/store/callstore.h"

#include "core/model/jsonwriter.h"
#include "core/store/exchangestore.h"
#include "core/store/searchindex.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>

#include <limits>
#include <sqlite3.h>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

// ---- SQL ---------------------------------------------------------------------------------

constexpr auto kInsertBatch = R"(INSERT INTO batches (spec_path, spec_hash, spec, inputs_path,
    inputs_hash, total_lines, created_at) VALUES (?, ?, ?, ?, ?, ?, ?))"_L1;
constexpr auto kSelectLatestBatch =
    R"(SELECT id, spec_path, spec_hash, spec, inputs_path, inputs_hash,
    total_lines, created_at FROM batches WHERE spec_path = ? AND inputs_path = ?
    ORDER BY id DESC LIMIT 1)"_L1;
constexpr auto kSelectBatchCompleted = R"(SELECT b.line, MAX(b.call_id) FROM batch_calls b
    JOIN calls c ON c.id = b.call_id WHERE b.batch_id = ? AND c.status = 'completed'
    GROUP BY b.line)"_L1;
constexpr auto kInsertExperiment =
    R"(INSERT INTO experiments (name, path, definition_hash, definition,
    created_at) VALUES (?, ?, ?, ?, ?))"_L1;
constexpr auto kSelectLatestExperimentNamed =
    "SELECT id FROM experiments WHERE name = ? AND id < ? ORDER BY id DESC LIMIT 1"_L1;
constexpr auto kSelectExperiment =
    "SELECT id, name, path, definition_hash, definition, created_at FROM experiments WHERE id = ?"_L1;
constexpr auto kSaveExperimentRun =
    R"(INSERT INTO experiment_runs (experiment_id, case_id, variant, repeat,
    call_id, status, passed, assertions, latency_ms, input_tokens, output_tokens, cost_usd, created_at,
    direct_cost_usd, cached, cache_saved_usd, cache_read_tokens, cache_write_tokens, uncached_cost_usd)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (experiment_id, case_id, variant, repeat) DO UPDATE SET call_id = excluded.call_id,
    status = excluded.status, passed = excluded.passed, assertions = excluded.assertions,
    latency_ms = excluded.latency_ms, input_tokens = excluded.input_tokens,
    output_tokens = excluded.output_tokens, cost_usd = excluded.cost_usd, created_at = excluded.created_at,
    direct_cost_usd = excluded.direct_cost_usd, cached = excluded.cached,
    cache_saved_usd = excluded.cache_saved_usd, cache_read_tokens = excluded.cache_read_tokens,
    cache_write_tokens = excluded.cache_write_tokens, uncached_cost_usd = excluded.uncached_cost_usd)"_L1;
constexpr auto kSelectExperimentRuns =
    R"(SELECT id, experiment_id, case_id, variant, repeat, call_id, status,
    passed, assertions, latency_ms, input_tokens, output_tokens, cost_usd, direct_cost_usd, cached,
    cache_saved_usd, cache_read_tokens, cache_write_tokens, uncached_cost_usd FROM experiment_runs
    WHERE experiment_id = ? ORDER BY id)"_L1;
constexpr auto kInsertBatchCall =
    "INSERT INTO batch_calls (batch_id, line, call_id) VALUES (?, ?, ?)"_L1;
constexpr auto kSelectExperimentJudgeCalls = R"(SELECT id, json_extract(metadata, '$.judge_of'),
    json_extract(metadata, '$.judge_key'), response FROM calls WHERE kind = 'judge'
    AND created_at >= ? AND status = 'completed' AND json_extract(metadata, '$.experiment_id') = ?
    AND json_extract(metadata, '$.judge_of') IS NOT NULL ORDER BY id)"_L1;
constexpr auto kSelectRecoveredCall =
    R"(SELECT id FROM calls WHERE created_at >= ? AND created_at <= ?
    AND json_extract(metadata, '$.recovery_entry') = ? LIMIT 1)"_L1;
constexpr auto kInsertCall = R"(INSERT INTO calls (kind, status, engine_type, model, created_at,
    finished_at, parent_id, session_id, first_sequence, last_sequence, input_tokens,
    output_tokens, cached_tokens, cache_write_tokens, cache_write_1h_tokens, reasoning_tokens,
    turn_count, attempt_count, error_category, input_preview, error, system_prompt, input,
    response, metadata, spec, messages, transcript)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS TEXT),
    CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT)))"_L1;

// A large call's JSON columns are made as zero-filled blobs of their final size (which cost SQLite
// no memory) and then written piece by piece with SQLite's blob I/O (writeStreamedColumns).
constexpr auto kInsertCallStreamed = R"(INSERT INTO calls (kind, status, engine_type, model,
    created_at, finished_at, parent_id, session_id, first_sequence, last_sequence, input_tokens,
    output_tokens, cached_tokens, cache_write_tokens, cache_write_1h_tokens, reasoning_tokens,
    turn_count, attempt_count, error_category, input_preview, error, system_prompt, input,
    response, metadata, spec, messages, transcript)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, zeroblob(?),
    zeroblob(?), zeroblob(?), zeroblob(?), zeroblob(?), zeroblob(?)))"_L1;
constexpr auto kInsertCallStreamedNoResponse = R"(INSERT INTO calls (kind, status, engine_type,
    model, created_at, finished_at, parent_id, session_id, first_sequence, last_sequence,
    input_tokens, output_tokens, cached_tokens, cache_write_tokens, cache_write_1h_tokens,
    reasoning_tokens, turn_count, attempt_count, error_category, input_preview, error,
    system_prompt, input, response, metadata, spec, messages, transcript)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, zeroblob(?), NULL,
    zeroblob(?), zeroblob(?), zeroblob(?), zeroblob(?)))"_L1;
// From this size of a call's JSON (all columns together) on, the call is written that way.
constexpr qint64 kStreamedRowBytes = 4 * 1024 * 1024;

constexpr auto kUpdateCall = R"(UPDATE calls SET kind = ?, status = ?, engine_type = ?, model = ?,
    created_at = ?, finished_at = ?, parent_id = ?, session_id = ?, first_sequence = ?,
    last_sequence = ?, input_tokens = ?, output_tokens = ?, cached_tokens = ?,
    cache_write_tokens = ?, cache_write_1h_tokens = ?, reasoning_tokens = ?, turn_count = ?, attempt_count = ?, error_category = ?,
    input_preview = ?, error = ?, system_prompt = ?, input = CAST(? AS TEXT),
    response = CAST(? AS TEXT), metadata = CAST(? AS TEXT), spec = CAST(? AS TEXT),
    messages = CAST(? AS TEXT), transcript = CAST(? AS TEXT) WHERE id = ?)"_L1;

constexpr auto kInsertTurn = R"(INSERT INTO call_turns (call_id, turn_index, finish_reason,
    raw_finish_reason, input_tokens, output_tokens, cached_tokens, reasoning_tokens, tool_calls,
    note, request_report, cache_write_tokens, cache_write_1h_tokens)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?))"_L1;

constexpr auto kInsertAttempt = R"(INSERT INTO call_attempts (call_id, attempt_index, turn_index,
    outcome, finish_reason, raw_finish_reason, http_status, error, delay_ms, input_tokens,
    output_tokens, cached_tokens, reasoning_tokens, started_at, duration_ms, cache_write_tokens,
    cache_write_1h_tokens)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?))"_L1;

constexpr auto kDeleteTurns = "DELETE FROM call_turns WHERE call_id = ?"_L1;
constexpr auto kDeleteAttempts = "DELETE FROM call_attempts WHERE call_id = ?"_L1;

constexpr auto kSelectCall = R"(SELECT id, kind, status, engine_type, model, created_at,
    finished_at, parent_id, session_id, first_sequence, last_sequence, input_tokens,
    output_tokens, cached_tokens, reasoning_tokens, error_category, error, system_prompt, input,
    response, metadata, spec, messages, transcript, cache_write_tokens, cache_write_1h_tokens
    FROM calls WHERE id = ?)"_L1;

constexpr auto kSelectTurns = R"(SELECT turn_index, finish_reason, raw_finish_reason,
    input_tokens, output_tokens, cached_tokens, reasoning_tokens, tool_calls, note,
    request_report, cache_write_tokens, cache_write_1h_tokens FROM call_turns WHERE call_id = ?
    ORDER BY turn_index)"_L1;

constexpr auto kSelectAttempts = R"(SELECT attempt_index, turn_index, outcome, finish_reason,
    raw_finish_reason, http_status, error, delay_ms, input_tokens, output_tokens, cached_tokens,
    reasoning_tokens, started_at, duration_ms, cache_write_tokens, cache_write_1h_tokens
    FROM call_attempts WHERE call_id = ?
    ORDER BY attempt_index)"_L1;

constexpr auto kSelectSearchSource =
    "SELECT input, response, error, messages FROM calls WHERE id = ?"_L1;
constexpr auto kCallExists = "SELECT 1 FROM calls WHERE id = ?"_L1;
constexpr auto kSelectParent = "SELECT parent_id FROM calls WHERE id = ?"_L1;
constexpr auto kSelectPreviousSimilar = R"(SELECT p.id FROM calls c JOIN calls p
    ON p.kind = c.kind AND p.engine_type = c.engine_type AND p.model = c.model AND p.id < c.id
    AND json_extract(p.metadata, '$.variant') IS json_extract(c.metadata, '$.variant')
    WHERE c.id = ? ORDER BY p.id DESC LIMIT 1)"_L1;

// History rows: the light columns only (they sit in the row's first page).
constexpr auto kHistoryColumns = R"(SELECT c.id, c.kind, c.status, c.engine_type, c.model,
    c.input_tokens, c.output_tokens, c.cached_tokens, c.reasoning_tokens, c.error_category,
    c.created_at, c.finished_at, c.parent_id, c.session_id, c.input_preview, c.turn_count,
    c.attempt_count, (SELECT count(*) FROM calls r WHERE r.parent_id = c.id), c.cache_write_tokens,
    c.cache_write_1h_tokens)"_L1;
constexpr auto kHistoryFrom = " FROM calls c"_L1;
// A full-text page walks the FTS5 matches newest id first and stops after the page: no
// sort over every match (a common word matches most of a million rows). CROSS JOIN keeps
// the FTS table the outer loop.
constexpr auto kHistoryFromFts = " FROM calls_fts CROSS JOIN calls c ON c.id = calls_fts.rowid"_L1;
constexpr auto kFilterFtsMatch = "calls_fts MATCH ?"_L1;
constexpr auto kFilterFtsAfter = "calls_fts.rowid < ?"_L1;
constexpr auto kFtsOrder = " ORDER BY calls_fts.rowid DESC LIMIT ? OFFSET ?"_L1;
constexpr auto kWhere = " WHERE "_L1;
constexpr auto kAnd = " AND "_L1;
constexpr auto kFilterKind = "c.kind = ?"_L1;
constexpr auto kFilterStatus = "c.status = ?"_L1;
constexpr auto kFilterEngine = "c.engine_type = ?"_L1;
constexpr auto kFilterModel = "c.model = ?"_L1;
constexpr auto kFilterFrom = "c.created_at >= ?"_L1;
constexpr auto kFilterTo = "c.created_at < ?"_L1;
constexpr auto kFilterParent = "c.parent_id = ?"_L1;
constexpr auto kFilterSession = "c.session_id = ?"_L1;
constexpr auto kFilterLikeTerm = R"(c.id IN (SELECT call_id FROM calls_search WHERE
    input LIKE ? ESCAPE '\' OR output LIKE ? ESCAPE '\' OR tools LIKE ? ESCAPE '\'))"_L1;
constexpr auto kFilterAfter = "(c.created_at, c.id) < (?, ?)"_L1;
constexpr auto kHistoryOrder = " ORDER BY c.created_at DESC, c.id DESC LIMIT ? OFFSET ?"_L1;

constexpr auto kChildren = " WHERE c.parent_id = ? ORDER BY c.created_at, c.id"_L1;
constexpr auto kRevisionTree = R"( WHERE c.id IN (WITH RECURSIVE tree(id) AS (
    SELECT ? UNION SELECT k.id FROM calls k JOIN tree t ON k.parent_id = t.id) SELECT id FROM tree)
    ORDER BY c.created_at, c.id)"_L1;
constexpr auto kSessionCalls = " WHERE c.session_id = ? ORDER BY c.created_at, c.id"_L1;

constexpr auto kInsertSession = R"(INSERT INTO sessions (title, system_prompt, created_at, summary,
    summary_through, metadata) VALUES (?, ?, ?, ?, ?, ?))"_L1;
constexpr auto kSelectSession = R"(SELECT id, title, system_prompt, created_at, summary,
    summary_through, metadata FROM sessions WHERE id = ?)"_L1;
constexpr auto kSelectSessions = R"(SELECT id, title, system_prompt, created_at, summary,
    summary_through, metadata FROM sessions ORDER BY created_at DESC, id DESC)"_L1;
constexpr auto kSessionExists = "SELECT 1 FROM sessions WHERE id = ?"_L1;
constexpr auto kRenameSession = "UPDATE sessions SET title = ? WHERE id = ?"_L1;
constexpr auto kUpdateSessionSummary =
    "UPDATE sessions SET summary = ?, summary_through = ? WHERE id = ?"_L1;

constexpr auto kMaxSequence =
    "SELECT COALESCE(MAX(sequence), 0) FROM messages WHERE session_id = ?"_L1;
constexpr auto kInsertMessage = R"(INSERT INTO messages (session_id, sequence, role, message,
    send_to_model, compacted_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?))"_L1;
constexpr auto kSelectMessages = R"(SELECT sequence, message, send_to_model, compacted_by,
    created_at FROM messages WHERE session_id = ? ORDER BY sequence)"_L1;
constexpr auto kCountMessagesInRange = R"(SELECT count(*) FROM messages WHERE session_id = ?
    AND sequence BETWEEN ? AND ?)"_L1;
constexpr auto kMarkCompacted = R"(UPDATE messages SET compacted_by = ? WHERE session_id = ?
    AND sequence BETWEEN ? AND ?)"_L1;

constexpr auto kInsertCompaction = R"(INSERT INTO compactions (session_id, call_id,
    first_sequence, last_sequence, summary, created_at) VALUES (?, ?, ?, ?, ?, ?))"_L1;
constexpr auto kSelectCompactions = R"(SELECT id, session_id, call_id, first_sequence,
    last_sequence, summary, created_at FROM compactions WHERE session_id = ? ORDER BY id)"_L1;

constexpr auto kIntegrityCheck = "PRAGMA integrity_check"_L1;
constexpr auto kForeignKeyCheck = "PRAGMA foreign_key_check"_L1;
constexpr auto kTurnCountMismatch = R"(SELECT c.id, c.turn_count,
    (SELECT count(*) FROM call_turns t WHERE t.call_id = c.id) AS n FROM calls c
    WHERE c.turn_count != (SELECT count(*) FROM call_turns t WHERE t.call_id = c.id))"_L1;
constexpr auto kAttemptCountMismatch = R"(SELECT c.id, c.attempt_count,
    (SELECT count(*) FROM call_attempts a WHERE a.call_id = c.id) AS n FROM calls c
    WHERE c.attempt_count != (SELECT count(*) FROM call_attempts a WHERE a.call_id = c.id))"_L1;
constexpr auto kSpanMismatch = R"(SELECT c.id, c.session_id, c.first_sequence, c.last_sequence,
    (SELECT count(*) FROM messages m WHERE m.session_id = c.session_id
        AND m.sequence BETWEEN c.first_sequence AND c.last_sequence) AS n
    FROM calls c WHERE c.session_id IS NOT NULL AND c.first_sequence IS NOT NULL
    AND (c.last_sequence IS NULL OR c.last_sequence < c.first_sequence OR
         (SELECT count(*) FROM messages m WHERE m.session_id = c.session_id
          AND m.sequence BETWEEN c.first_sequence AND c.last_sequence)
         != c.last_sequence - c.first_sequence + 1))"_L1;

constexpr int kPreviewLength = 200;
constexpr int kDefaultLimit = 50;
constexpr int kMaxLimit = 10000;

// ---- conversions -------------------------------------------------------------------------

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Store)
};

QVariant msOrNull(const QDateTime &time)
{
    return time.isValid() ? QVariant(time.toMSecsSinceEpoch()) : QVariant();
}

QDateTime timeFrom(const QVariant &value)
{
    if (value.isNull())
        return {};
    return QDateTime::fromMSecsSinceEpoch(value.toLongLong(), Qt::UTC);
}

QVariant optionalValue(const std::optional<qint64> &value)
{
    return value ? QVariant(*value) : QVariant();
}

std::optional<qint64> optionalFrom(const QVariant &value)
{
    if (value.isNull())
        return std::nullopt;
    return value.toLongLong();
}

QString compact(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

// The large JSON columns are bound as UTF-8 bytes and cast to TEXT in the SQL: bound as a
// QString each would be copied to UTF-16 and back to UTF-8 on its way in (three copies of a
// 50 MB answer per column instead of one). Json::compact writes the same text as Qt's writer
// with no copy of a string but the output.
QByteArray compactUtf8(const QJsonObject &object)
{
    return Json::compact(object);
}

QByteArray compactUtf8(const QJsonArray &array)
{
    return Json::compact(array);
}

QVariant valueUtf8(const QJsonValue &value)
{
    if (value.isNull() || value.isUndefined())
        return QVariant();
    return Json::compact(value);
}

QJsonValue valueFrom(const QVariant &text)
{
    if (text.isNull())
        return QJsonValue(QJsonValue::Null);
    const QJsonDocument doc =
        QJsonDocument::fromJson(QByteArray('[' + text.toString().toUtf8() + ']'));
    return doc.array().isEmpty() ? QJsonValue(QJsonValue::Null) : doc.array().first();
}

QJsonObject objectFrom(const QVariant &text)
{
    return QJsonDocument::fromJson(text.toString().toUtf8()).object();
}

QJsonArray arrayFrom(const QVariant &text)
{
    return QJsonDocument::fromJson(text.toString().toUtf8()).array();
}

QVariant textOrNull(const QString &text)
{
    return text.isEmpty() ? QVariant() : QVariant(text);
}

QString inputPreview(const QJsonObject &input)
{
    return input.value(u"text"_s)
        .toString()
        .left(kPreviewLength * 2)
        .simplified()
        .left(kPreviewLength);
}

// The row values of kInsertCall / kUpdateCall before the JSON columns, in column order.
QVariantList lightValues(const CallRecord &record, const QDateTime &createdAt)
{
    const QString category = errorCategoryName(record.errorCategory);
    return { record.kind,
             callStatusName(record.status),
             record.engineType,
             record.model,
             createdAt.toMSecsSinceEpoch(),
             msOrNull(record.finishedAt),
             optionalValue(record.parent),
             optionalValue(record.session),
             optionalValue(record.firstSequence),
             optionalValue(record.lastSequence),
             record.usage.inputTokens,
             record.usage.outputTokens,
             record.usage.cacheReadTokens,
             record.usage.cacheWriteTokens,
             record.usage.cacheWrite1hTokens,
             record.usage.reasoningTokens,
             qint64(record.turns.size()),
             qint64(record.attempts.size()),
             textOrNull(category),
             inputPreview(record.input),
             textOrNull(record.error),
             record.systemPrompt };
}

// All row values of kInsertCall / kUpdateCall, in column order.
QVariantList callValues(const CallRecord &record, const QDateTime &createdAt)
{
    QVariantList values = lightValues(record, createdAt);
    values << compactUtf8(record.input) << valueUtf8(record.response)
           << compactUtf8(record.metadata) << compactUtf8(CallStore::stripSecrets(record.spec))
           << compactUtf8(record.messages) << compactUtf8(record.transcript);
    return values;
}

// One JSON column of a large call, measured before the row is made.
struct JsonColumn
{
    const char *name = nullptr;
    QJsonValue value;
    bool null = false; // SQL NULL (a call without a response)
    qint64 size = 0; // bytes of its compact text
    bool streams = true; // Json::writeCompact can write it piece by piece
    QByteArray bytes; // when it cannot: the text, made once
};

QList<JsonColumn> measureJsonColumns(const CallRecord &record)
{
    QList<JsonColumn> columns {
        { "input", record.input },       { "response", record.response },
        { "metadata", record.metadata }, { "spec", CallStore::stripSecrets(record.spec) },
        { "messages", record.messages }, { "transcript", record.transcript }
    };
    for (JsonColumn &c : columns) {
        if (c.value.isNull() || c.value.isUndefined()) {
            c.null = true;
            continue;
        }
        qint64 size = 0;
        if (Json::writeCompact(c.value, [&size](const char *, qsizetype n) { size += n; })) {
            c.size = size;
        } else {
            c.streams = false;
            c.bytes = Json::compact(c.value);
            c.size = c.bytes.size();
        }
    }
    return columns;
}

sqlite3 *sqliteHandle(const QSqlDatabase &connection)
{
    const QVariant handle = connection.driver() ? connection.driver()->handle() : QVariant();
    if (!handle.isValid() || qstrcmp(handle.typeName(), "sqlite3*") != 0)
        return nullptr;
    return *static_cast<sqlite3 *const *>(handle.constData());
}

// Fills the zero blobs kInsertCallStreamed made with each column's text, a piece at a time:
// neither the text of a column nor the row is ever held whole (by us or by SQLite).
StoreError writeStreamedColumns(sqlite3 *db, qint64 id, const QList<JsonColumn> &columns)
{
    for (const JsonColumn &c : columns) {
        if (c.null || c.size == 0)
            continue;
        sqlite3_blob *blob = nullptr;
        int rc = sqlite3_blob_open(db, "main", "calls", c.name, id, 1, &blob);
        qint64 offset = 0;
        const Json::Sink write = [&](const char *data, qsizetype n) {
            if (rc != SQLITE_OK || offset + n > c.size) {
                rc = rc == SQLITE_OK ? SQLITE_ERROR : rc;
                return;
            }
            rc = sqlite3_blob_write(blob, data, int(n), int(offset));
            offset += n;
        };
        if (rc == SQLITE_OK) {
            if (c.streams)
                Json::writeCompact(c.value, write);
            else
                write(c.bytes.constData(), c.bytes.size());
        }
        const QString message = QString::fromUtf8(sqlite3_errmsg(db));
        if (blob)
            sqlite3_blob_close(blob);
        if (rc != SQLITE_OK || offset != c.size)
            return StoreError::make(StoreError::Code::Sql,
                                    Tr::tr("storing the %1 of call %2: %3")
                                        .arg(QLatin1StringView(c.name))
                                        .arg(id)
                                        .arg(message));
    }
    return {};
}

// QSQLITE binds a null QString as SQL NULL; text columns want '' for "no text". SQL NULL is
// bound only through an invalid QVariant.
QVariant bindable(const QVariant &value)
{
    if (value.typeId() == QMetaType::QString && value.toString().isNull())
        return QVariant(QStringLiteral(""));
    return value;
}

void bindAll(QSqlQuery &query, const QVariantList &values)
{
    for (qsizetype i = 0; i < values.size(); ++i)
        query.bindValue(int(i), bindable(values.at(i)));
}

// A cached statement keeps its bound values until the next bind: let go of a call's large
// JSON as soon as it is written, not when the next call is stored.
void releaseValues(QSqlQuery &query)
{
    const qsizetype count = query.boundValues().size();
    for (qsizetype i = 0; i < count; ++i)
        query.bindValue(int(i), QVariant());
}

// A turn's or an attempt's usage: input, output, cache read and reasoning from column `first` on,
// the two cache write counts from column `writes` on.
Usage storedUsage(const QSqlQuery &q, int first, int writes)
{
    Usage u;
    u.inputTokens = q.value(first).toLongLong();
    u.outputTokens = q.value(first + 1).toLongLong();
    u.cacheReadTokens = q.value(first + 2).toLongLong();
    u.reasoningTokens = q.value(first + 3).toLongLong();
    u.cacheWriteTokens = q.value(writes).toLongLong();
    u.cacheWrite1hTokens = q.value(writes + 1).toLongLong();
    return u;
}

HistoryRow historyRowFrom(const QSqlQuery &q)
{
    HistoryRow row;
    row.id = q.value(0).toLongLong();
    row.kind = q.value(1).toString();
    row.status = callStatusFromName(q.value(2).toString()).value_or(CallStatus::Failed);
    row.engineType = q.value(3).toString();
    row.model = q.value(4).toString();
    row.usage.inputTokens = q.value(5).toLongLong();
    row.usage.outputTokens = q.value(6).toLongLong();
    row.usage.cacheReadTokens = q.value(7).toLongLong();
    row.usage.cacheWriteTokens = q.value(18).toLongLong();
    row.usage.cacheWrite1hTokens = q.value(19).toLongLong();
    row.usage.reasoningTokens = q.value(8).toLongLong();
    row.errorCategory = errorCategoryFromName(q.value(9).toString()).value_or(ErrorCategory::Other);
    row.createdAt = timeFrom(q.value(10));
    row.finishedAt = timeFrom(q.value(11));
    row.parent = optionalFrom(q.value(12));
    row.session = optionalFrom(q.value(13));
    row.inputPreview = q.value(14).toString();
    row.turnCount = q.value(15).toInt();
    row.attemptCount = q.value(16).toInt();
    row.revisionCount = q.value(17).toInt();
    return row;
}

Session sessionFrom(const QSqlQuery &q)
{
    Session s;
    s.id = q.value(0).toLongLong();
    s.title = q.value(1).toString();
    s.systemPrompt = q.value(2).toString();
    s.createdAt = timeFrom(q.value(3));
    s.summary = q.value(4).toString();
    s.summaryThrough = optionalFrom(q.value(5));
    s.metadata = objectFrom(q.value(6));
    return s;
}

QString isoOrNull(const QDateTime &time)
{
    return time.isValid() ? time.toUTC().toString(Qt::ISODateWithMs) : QString();
}

QJsonValue isoValue(const QDateTime &time)
{
    return time.isValid() ? QJsonValue(isoOrNull(time)) : QJsonValue(QJsonValue::Null);
}

QJsonValue optionalJson(const std::optional<qint64> &value)
{
    return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

std::optional<qint64> optionalFromJson(const QJsonValue &value)
{
    return value.isDouble() ? std::optional<qint64>(value.toInteger()) : std::nullopt;
}

QDateTime timeFromJson(const QJsonValue &value)
{
    return QDateTime::fromString(value.toString(), Qt::ISODateWithMs);
}

// Key names (lowercase, '-' and '_' removed) that hold credentials.
bool isSecretKey(QStringView key)
{
    QString normalized;
    normalized.reserve(key.size());
    for (QChar c : key) {
        if (c != u'_' && c != u'-' && c != u' ')
            normalized.append(c.toLower());
    }
    static const QStringList exact = { u"key"_s,    u"authorization"_s, u"proxyauthorization"_s,
                                       u"cookie"_s, u"setcookie"_s,     u"bearer"_s };
    static const QStringList suffixes = { u"apikey"_s,    u"secret"_s,     u"password"_s,
                                          u"passwd"_s,    u"token"_s,      u"privatekey"_s,
                                          u"accesskey"_s, u"credential"_s, u"credentials"_s,
                                          u"secretkey"_s, u"authtoken"_s };
    if (exact.contains(normalized))
        return true;
    for (const QString &suffix : suffixes) {
        if (normalized.endsWith(suffix))
            return true;
    }
    return false;
}

// Subtrees that are the user's content, not configuration: never rewritten.
bool isContentKey(QStringView key)
{
    return key == u"response_schema" || key == u"input_schema" || key == u"mock"
        || key == u"arguments" || key == u"text_output";
}

QJsonValue stripValue(const QJsonValue &value);

QJsonObject stripObject(const QJsonObject &object)
{
    QJsonObject out;
    for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
        if (isSecretKey(it.key()))
            continue;
        out.insert(it.key(), isContentKey(it.key()) ? it.value() : stripValue(it.value()));
    }
    return out;
}

QJsonValue stripValue(const QJsonValue &value)
{
    if (value.isObject())
        return stripObject(value.toObject());
    if (value.isArray()) {
        QJsonArray out;
        for (const QJsonValue &item : value.toArray())
            out.append(stripValue(item));
        return out;
    }
    return value;
}

} // namespace

// ---- value types -------------------------------------------------------------------------

QString HistoryCursor::toString() const
{
    return u"%1:%2"_s.arg(createdMs).arg(id);
}

std::optional<HistoryCursor> HistoryCursor::fromString(QStringView text)
{
    const qsizetype colon = text.indexOf(u':');
    if (colon <= 0)
        return std::nullopt;
    bool okTime = false;
    bool okId = false;
    HistoryCursor cursor { text.left(colon).toLongLong(&okTime),
                           text.mid(colon + 1).toLongLong(&okId) };
    if (!okTime || !okId)
        return std::nullopt;
    return cursor;
}

qint64 HistoryRow::durationMs() const
{
    if (!finishedAt.isValid() || !createdAt.isValid())
        return -1;
    return createdAt.msecsTo(finishedAt);
}

HistoryCursor HistoryRow::cursor() const
{
    return { createdAt.toMSecsSinceEpoch(), id };
}

QJsonObject HistoryRow::toJson() const
{
    const QString category = errorCategoryName(errorCategory);
    const qint64 duration = durationMs();
    return QJsonObject {
        { u"id"_s, id },
        { u"kind"_s, kind },
        { u"status"_s, callStatusName(status) },
        { u"engine_type"_s, engineType },
        { u"model"_s, model },
        { u"usage"_s, usage.toJson() },
        { u"error_category"_s,
          category.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(category) },
        { u"created_at"_s, isoValue(createdAt) },
        { u"finished_at"_s, isoValue(finishedAt) },
        { u"duration_ms"_s, duration < 0 ? QJsonValue(QJsonValue::Null) : QJsonValue(duration) },
        { u"parent"_s, optionalJson(parent) },
        { u"session"_s, optionalJson(session) },
        { u"input_preview"_s, inputPreview },
        { u"turns"_s, turnCount },
        { u"attempts"_s, attemptCount },
        { u"revisions"_s, revisionCount },
    };
}

QJsonObject Session::toJson() const
{
    return QJsonObject { { u"id"_s, id },
                         { u"title"_s, title },
                         { u"system_prompt"_s, systemPrompt },
                         { u"created_at"_s, isoValue(createdAt) },
                         { u"summary"_s, summary },
                         { u"summary_through"_s, optionalJson(summaryThrough) },
                         { u"metadata"_s, metadata } };
}

Session Session::fromJson(const QJsonObject &o)
{
    Session s;
    s.id = o.value(u"id"_s).toInteger();
    s.title = o.value(u"title"_s).toString();
    s.systemPrompt = o.value(u"system_prompt"_s).toString();
    s.createdAt = timeFromJson(o.value(u"created_at"_s));
    s.summary = o.value(u"summary"_s).toString();
    s.summaryThrough = optionalFromJson(o.value(u"summary_through"_s));
    s.metadata = o.value(u"metadata"_s).toObject();
    return s;
}

QJsonObject SessionMessage::toJson() const
{
    QJsonObject o { { u"sequence"_s, sequence },
                    { u"message"_s, message.toJson() },
                    { u"send_to_model"_s, sendToModel },
                    { u"compacted_by"_s, optionalJson(compactedBy) },
                    { u"created_at"_s, isoValue(createdAt) } };
    if (isSummary)
        o.insert(u"summary"_s, true);
    return o;
}

SessionMessage SessionMessage::fromJson(const QJsonObject &o)
{
    SessionMessage m;
    m.sequence = o.value(u"sequence"_s).toInteger();
    m.message = Message::fromJson(o.value(u"message"_s).toObject());
    m.sendToModel = o.value(u"send_to_model"_s).toBool(true);
    m.compactedBy = optionalFromJson(o.value(u"compacted_by"_s));
    m.createdAt = timeFromJson(o.value(u"created_at"_s));
    m.isSummary = o.value(u"summary"_s).toBool();
    return m;
}

QJsonObject Compaction::toJson() const
{
    return QJsonObject { { u"id"_s, id },
                         { u"session"_s, sessionId },
                         { u"call"_s, callId },
                         { u"first_sequence"_s, firstSequence },
                         { u"last_sequence"_s, lastSequence },
                         { u"summary"_s, summary },
                         { u"created_at"_s, isoValue(createdAt) } };
}

// ---- CallStore ---------------------------------------------------------------------------

CallStore::CallStore(Database &database)
    : m_database(database)
{ }

CallStore::~CallStore() = default;

QSqlQuery &CallStore::statement(QLatin1StringView sql)
{
    auto &slot = m_statements[sql.data()];
    if (!slot) {
        slot = std::make_unique<QSqlQuery>(m_database.connection());
        if (!slot->prepare(sql))
            qCWarning(lcStore) << "cannot prepare" << sql << slot->lastError().text();
    }
    return *slot;
}

QJsonObject CallStore::stripSecrets(const QJsonObject &spec)
{
    return stripObject(spec);
}

StoreResult<bool> CallStore::callExists(qint64 id)
{
    QSqlQuery query(m_database.connection());
    query.prepare(kCallExists);
    query.addBindValue(id);
    if (!query.exec())
        return m_database.errorFrom(query, Tr::tr("looking up a call"));
    return query.next();
}

StoreResult<qint64> CallStore::insertCallRow(const CallRecord &record)
{
    if (record.parent) {
        const auto exists = callExists(*record.parent);
        if (!exists)
            return exists.error();
        if (!*exists)
            return StoreError::make(StoreError::Code::NotFound,
                                    Tr::tr("parent call %1 does not exist").arg(*record.parent));
    }
    if (record.session) {
        QSqlQuery query(m_database.connection());
        query.prepare(kSessionExists);
        query.addBindValue(*record.session);
        if (!query.exec())
            return m_database.errorFrom(query, Tr::tr("looking up a session"));
        if (!query.next())
            return StoreError::make(StoreError::Code::NotFound,
                                    Tr::tr("session %1 does not exist").arg(*record.session));
    }
    const QDateTime createdAt =
        record.createdAt.isValid() ? record.createdAt : QDateTime::currentDateTimeUtc();
    if (sqlite3 *db = sqliteHandle(m_database.connection())) {
        QList<JsonColumn> columns = measureJsonColumns(record);
        qint64 total = 0;
        for (const JsonColumn &c : columns)
            total += c.size;
        if (total >= kStreamedRowBytes) {
            QSqlQuery &insert =
                statement(columns[1].null ? kInsertCallStreamedNoResponse : kInsertCallStreamed);
            QVariantList values = lightValues(record, createdAt);
            for (const JsonColumn &c : columns) {
                if (!c.null)
                    values.append(c.size);
            }
            bindAll(insert, values);
            if (!insert.exec()) {
                const StoreError error = m_database.errorFrom(insert, Tr::tr("storing call"));
                releaseValues(insert);
                return error;
            }
            const qint64 id = insert.lastInsertId().toLongLong();
            releaseValues(insert);
            if (StoreError error = writeStreamedColumns(db, id, columns); error)
                return error;
            columns.clear();
            if (StoreError error = writeChildren(id, record); error)
                return error;
            return id;
        }
    }
    QSqlQuery &insert = statement(kInsertCall);
    bindAll(insert, callValues(record, createdAt));
    if (!insert.exec()) {
        const StoreError error = m_database.errorFrom(insert, Tr::tr("storing call"));
        releaseValues(insert);
        return error;
    }
    const qint64 id = insert.lastInsertId().toLongLong();
    releaseValues(insert);
    if (StoreError error = writeChildren(id, record); error)
        return error;
    return id;
}

StoreError CallStore::writeChildren(qint64 id, const CallRecord &record)
{
    QSqlQuery &turn = statement(kInsertTurn);
    for (const TurnRecord &t : record.turns) {
        bindAll(turn,
                { id, t.index, finishReasonName(t.finishReason), t.rawFinishReason,
                  t.usage.inputTokens, t.usage.outputTokens, t.usage.cacheReadTokens,
                  t.usage.reasoningTokens, t.toolCalls, t.note, compact(t.requestReport),
                  t.usage.cacheWriteTokens, t.usage.cacheWrite1hTokens });
        if (!turn.exec())
            return m_database.errorFrom(turn,
                                        Tr::tr("storing turn %1 of call %2").arg(t.index).arg(id));
    }
    QSqlQuery &attempt = statement(kInsertAttempt);
    for (const AttemptRecord &a : record.attempts) {
        bindAll(attempt,
                { id, a.index, a.turn, a.outcome, finishReasonName(a.finishReason),
                  a.rawFinishReason, a.httpStatus, a.error, a.delayMs, a.usage.inputTokens,
                  a.usage.outputTokens, a.usage.cacheReadTokens, a.usage.reasoningTokens,
                  msOrNull(a.startedAt), a.durationMs, a.usage.cacheWriteTokens,
                  a.usage.cacheWrite1hTokens });
        if (!attempt.exec())
            return m_database.errorFrom(
                attempt, Tr::tr("storing attempt %1 of call %2").arg(a.index).arg(id));
    }
    // Raw exchanges: only when the record has them (a record read back by getCall has none).
    if (StoreError error = record.exchanges.isEmpty()
            ? StoreError()
            : ExchangeStore::replace(m_database, id, record.exchanges);
        error)
        return error;
    const SearchIndex::Document doc =
        SearchIndex::documentFor(record.input, record.response, record.error, record.messages);
    return SearchIndex::add(m_database, m_database.searchMode(), id, doc);
}

StoreResult<QList<TurnExchange>> CallStore::exchanges(qint64 id)
{
    return ExchangeStore::read(m_database, id);
}

StoreResult<qint64> CallStore::insertCall(const CallRecord &record,
                                          const QList<SessionMessage> &sessionMessages,
                                          const InsertOptions &options, SequenceSpan *spanOut)
{
    Transaction transaction(m_database);
    if (transaction.beginError())
        return transaction.beginError();
    CallRecord stored = record;
    if (!sessionMessages.isEmpty()) {
        if (!record.session)
            return StoreError::make(StoreError::Code::InvalidInput,
                                    Tr::tr("session messages given for a call without a session"));
        const auto span = appendMessagesRows(*record.session, sessionMessages);
        if (!span)
            return span.error();
        stored.firstSequence = span->first;
        stored.lastSequence = span->last;
    }
    const auto id = insertCallRow(stored);
    if (!id)
        return id;
    if (options.batch) {
        QSqlQuery &link = statement(kInsertBatchCall);
        bindAll(link, { options.batch->batchId, options.batch->line, *id });
        if (!link.exec())
            return m_database.errorFrom(
                link, Tr::tr("linking call %1 to batch %2").arg(*id).arg(options.batch->batchId));
    }
    if (StoreError error = transaction.commit(); error)
        return error;
    if (spanOut && stored.firstSequence)
        *spanOut = SequenceSpan { *stored.firstSequence,
                                  stored.lastSequence.value_or(*stored.firstSequence) };
    return id;
}

StoreResult<qint64> CallStore::createBatch(const BatchInfo &batch)
{
    Transaction transaction(m_database);
    if (transaction.beginError())
        return transaction.beginError();
    QSqlQuery &insert = statement(kInsertBatch);
    const QDateTime created =
        batch.createdAt.isValid() ? batch.createdAt : QDateTime::currentDateTimeUtc();
    bindAll(insert,
            { batch.specPath, QString::fromLatin1(batch.specHash),
              QString::fromUtf8(QJsonDocument(batch.spec).toJson(QJsonDocument::Compact)),
              batch.inputsPath, QString::fromLatin1(batch.inputsHash), batch.totalLines,
              created.toMSecsSinceEpoch() });
    if (!insert.exec())
        return m_database.errorFrom(insert, Tr::tr("storing a batch"));
    const qint64 id = insert.lastInsertId().toLongLong();
    if (StoreError error = transaction.commit(); error)
        return error;
    return id;
}

StoreResult<qint64> CallStore::createExperiment(const ExperimentRecord &experiment)
{
    Transaction transaction(m_database);
    if (transaction.beginError())
        return transaction.beginError();
    QSqlQuery &insert = statement(kInsertExperiment);
    const QDateTime created =
        experiment.createdAt.isValid() ? experiment.createdAt : QDateTime::currentDateTimeUtc();
    bindAll(
        insert,
        { experiment.name, experiment.path, QString::fromLatin1(experiment.definitionHash),
          QString::fromUtf8(QJsonDocument(experiment.definition).toJson(QJsonDocument::Compact)),
          created.toMSecsSinceEpoch() });
    if (!insert.exec())
        return m_database.errorFrom(insert, Tr::tr("storing an experiment"));
    const qint64 id = insert.lastInsertId().toLongLong();
    if (StoreError error = transaction.commit(); error)
        return error;
    return id;
}

StoreResult<std::optional<ExperimentRecord>> CallStore::getExperiment(qint64 id)
{
    QSqlQuery query(m_database.connection());
    query.prepare(kSelectExperiment);
    query.addBindValue(id);
    if (!query.exec())
        return m_database.errorFrom(query, Tr::tr("reading experiment %1").arg(id));
    if (!query.next())
        return std::optional<ExperimentRecord>();
    ExperimentRecord e;
    e.id = query.value(0).toLongLong();
    e.name = query.value(1).toString();
    e.path = query.value(2).toString();
    e.definitionHash = query.value(3).toString().toLatin1();
    e.definition = QJsonDocument::fromJson(query.value(4).toString().toUtf8()).object();
    e.createdAt = QDateTime::fromMSecsSinceEpoch(query.value(5).toLongLong(), Qt::UTC);
    return std::optional<ExperimentRecord>(e);
}

StoreResult<std::optional<qint64>> CallStore::latestExperimentNamed(const QString &name,
                                                                    qint64 before)
{
    QSqlQuery query(m_database.connection());
    query.setForwardOnly(true);
    query.prepare(kSelectLatestExperimentNamed);
    query.addBindValue(name);
    query.addBindValue(before > 0 ? before : std::numeric_limits<qint64>::max());
    if (!query.exec())
        return m_database.errorFrom(query, Tr::tr("reading the stored experiments"));
    if (!query.next())
        return std::optional<qint64>();
    return std::optional<qint64>(query.value(0).toLongLong());
}

StoreResult<QList<ExperimentRecord>> CallStore::findExperiments(const QByteArray &definitionHash)
{
    QSqlQuery query(m_database.connection());
    query.setForwardOnly(true);
    query.prepare("SELECT id, name, path, definition_hash, definition, created_at FROM experiments "
                  "WHERE definition_hash = ? ORDER BY id DESC"_L1);
    query.addBindValue(QString::fromLatin1(definitionHash));
    if (!query.exec())
        return m_database.errorFrom(query, Tr::tr("reading the stored experiments"));
    QList<ExperimentRecord> out;
    while (query.next()) {
        ExperimentRecord e;
        e.id = query.value(0).toLongLong();
        e.name = query.value(1).toString();
        e.path = query.value(2).toString();
        e.definitionHash = query.value(3).toString().toLatin1();
        e.definition = QJsonDocument::fromJson(query.value(4).toString().toUtf8()).object();
        e.createdAt = QDateTime::fromMSecsSinceEpoch(query.value(5).toLongLong(), Qt::UTC);
        out.append(e);
    }
    return out;
}

StoreResult<qint64> CallStore::saveExperimentRun(const ExperimentRunRecord &run)
{
    Transaction transaction(m_database);
    if (transaction.beginError())
        return transaction.beginError();
    QSqlQuery &insert = statement(kSaveExperimentRun);
    bindAll(insert,
            { run.experimentId, run.caseId, run.variant, run.repeat,
              run.callId ? QVariant(*run.callId) : QVariant(), run.status, run.passed ? 1 : 0,
              QString::fromUtf8(QJsonDocument(run.assertions).toJson(QJsonDocument::Compact)),
              run.latencyMs, run.inputTokens, run.outputTokens,
              run.costUsd ? QVariant(*run.costUsd) : QVariant(),
              QDateTime::currentMSecsSinceEpoch(),
              run.directCostUsd ? QVariant(*run.directCostUsd) : QVariant(), run.cached ? 1 : 0,
              run.cacheSavedUsd ? QVariant(*run.cacheSavedUsd) : QVariant(), run.cacheReadTokens,
              run.cacheWriteTokens,
              run.uncachedCostUsd ? QVariant(*run.uncachedCostUsd) : QVariant() });
    if (!insert.exec())
        return m_database.errorFrom(insert,
                                    Tr::tr("storing a run of experiment %1").arg(run.experimentId));
    const qint64 id = insert.lastInsertId().toLongLong();
    if (StoreError error = transaction.commit(); error)
        return error;
    return id;
}

StoreResult<qint64> CallStore::findRecoveredCall(const QString &entry, const QDateTime &createdAt)
{
    QSqlQuery query(m_database.connection());
    query.setForwardOnly(true);
    // The time narrows the search to a few rows through the index; the entry decides.
    query.prepare(kSelectRecoveredCall);
    query.addBindValue(createdAt.isValid() ? createdAt.toMSecsSinceEpoch() : qint64(0));
    query.addBindValue(createdAt.isValid() ? createdAt.toMSecsSinceEpoch()
                                           : std::numeric_limits<qint64>::max());
    query.addBindValue(entry);
    if (!query.exec())
        return m_database.errorFrom(query, Tr::tr("looking up a recovered call"));
    return query.next() ? query.value(0).toLongLong() : qint64(0);
}

StoreResult<QList<CallStore::ExperimentCall>>
CallStore::experimentCompletedCalls(qint64 experimentId, const QDateTime &since)
{
    QSqlQuery query(m_database.connection());
    query.setForwardOnly(true);
    query.prepare(
        u"SELECT id, json_extract(metadata, '$.case'), json_extract(metadata, '$.variant'), "
        u"json_extract(metadata, '$.repeat') FROM calls WHERE created_at >= ? AND status = "
        u"'completed' "
        u"AND json_extract(metadata, '$.experiment_id') = ? AND json_extract(metadata, '$.case') "
        u"IS NOT NULL "
        u"ORDER BY id"_s);
    query.addBindValue(since.isValid() ? since.toMSecsSinceEpoch() : qint64(0));
    query.addBindValue(experimentId);
    if (!query.exec())
        return m_database.errorFrom(query,
                                    Tr::tr("reading the calls of experiment %1").arg(experimentId));
    QList<ExperimentCall> calls;
    while (query.next())
        calls.append({ query.value(0).toLongLong(), query.value(1).toString(),
                       query.value(2).toString(), query.value(3).toInt() });
    return calls;
}

StoreResult<QList<CallStore::JudgeCall>> CallStore::experimentJudgeCalls(qint64 experimentId,
                                                                         const QDateTime &since)
{
    QSqlQuery query(m_database.connection());
    query.setForwardOnly(true);
    query.prepare(kSelectExperimentJudgeCalls);
    query.addBindValue(since.isValid() ? since.toMSecsSinceEpoch() : qint64(0));
    query.addBindValue(experimentId);
    if (!query.exec())
        return m_database.errorFrom(
            query, Tr::tr("reading the judges of experiment %1").arg(experimentId));
    QList<JudgeCall> calls;
    while (query.next()) {
        JudgeCall call;
        call.callId = query.value(0).toLongLong();
        call.judgedCallId = query.value(1).toLongLong();
        call.judgeKey = query.value(2).toString();
        call.response = QJsonDocument::fromJson(query.value(3).toByteArray()).object();
        calls.append(call);
    }
    return calls;
}

StoreResult<QList<ExperimentRunRecord>> CallStore::experimentRuns(qint64 experimentId)
{
    QSqlQuery query(m_database.connection());
    query.setForwardOnly(true);
    query.prepare(kSelectExperimentRuns);
    query.addBindValue(experimentId);
    if (!query.exec())
        return m_database.errorFrom(query,
                                    Tr::tr("reading the runs of experiment %1").arg(experimentId));
    QList<ExperimentRunRecord> runs;
    while (query.next()) {
        ExperimentRunRecord r;
        r.id = query.value(0).toLongLong();
        r.experimentId = query.value(1).toLongLong();
        r.caseId = query.value(2).toString();
        r.variant = query.value(3).toString();
        r.repeat = query.value(4).toInt();
        if (!query.value(5).isNull())
            r.callId = query.value(5).toLongLong();
        r.status = query.value(6).toString();
        r.passed = query.value(7).toInt() != 0;
        r.assertions = QJsonDocument::fromJson(query.value(8).toString().toUtf8()).array();
        r.latencyMs = query.value(9).toLongLong();
        r.inputTokens = query.value(10).toLongLong();
        r.outputTokens = query.value(11).toLongLong();
        if (!query.value(12).isNull())
            r.costUsd = query.value(12).toDouble();
        if (!query.value(13).isNull())
            r.directCostUsd = query.value(13).toDouble();
        r.cached = query.value(14).toInt() != 0;
        if (!query.value(15).isNull())
            r.cacheSavedUsd = query.value(15).toDouble();
        r.cacheReadTokens = query.value(16).toLongLong();
        r.cacheWriteTokens = query.value(17).toLongLong();
        if (!query.value(18).isNull())
            r.uncachedCostUsd = query.value(18).toDouble();
        runs.append(r);
    }
    return runs;
}

StoreResult<std::optional<BatchInfo>> CallStore::latestBatch(const QString &specPath,
                                                             const QString &inputsPath)
{
    QSqlQuery query(m_database.connection());
    query.prepare(kSelectLatestBatch);
    query.addBindValue(specPath);
    query.addBindValue(inputsPath);
    if (!query.exec())
        return m_database.errorFrom(query, Tr::tr("looking up a batch"));
    if (!query.next())
        return std::optional<BatchInfo>();
    BatchInfo batch;
    batch.id = query.value(0).toLongLong();
    batch.specPath = query.value(1).toString();
    batch.specHash = query.value(2).toString().toLatin1();
    batch.spec = QJsonDocument::fromJson(query.value(3).toString().toUtf8()).object();
    batch.inputsPath = query.value(4).toString();
    batch.inputsHash = query.value(5).toString().toLatin1();
    batch.totalLines = query.value(6).toInt();
    batch.createdAt = QDateTime::fromMSecsSinceEpoch(query.value(7).toLongLong(), Qt::UTC);
    return std::optional<BatchInfo>(batch);
}

StoreResult<QHash<int, qint64>> CallStore::batchCompletedLines(qint64 batchId)
{
    QSqlQuery query(m_database.connection());
    query.setForwardOnly(true);
    query.prepare(kSelectBatchCompleted);
    query.addBindValue(batchId);
    if (!query.exec())
        return m_database.errorFrom(query, Tr::tr("reading batch %1").arg(batchId));
    QHash<int, qint64> lines;
    while (query.next())
        lines.insert(query.value(0).toInt(), query.value(1).toLongLong());
    return lines;
}

StoreResult<QList<qint64>> CallStore::insertCalls(const QList<CallRecord> &records)
{
    Transaction transaction(m_database);
    if (transaction.beginError())
        return transaction.beginError();
    QList<qint64> ids;
    ids.reserve(records.size());
    for (const CallRecord &record : records) {
        const auto id = insertCallRow(record);
        if (!id)
            return id.error();
        ids.append(*id);
    }
    if (StoreError error = transaction.commit(); error)
        return error;
    return ids;
}

StoreError CallStore::updateCallRow(const CallRecord &record)
{
    // Forget the old search entry first: the contentless index needs the old text.
    QSqlQuery old(m_database.connection());
    old.prepare(kSelectSearchSource);
    old.addBindValue(record.id);
    if (!old.exec())
        return m_database.errorFrom(old, Tr::tr("reading call %1").arg(record.id));
    if (!old.next())
        return StoreError::make(StoreError::Code::NotFound,
                                Tr::tr("call %1 does not exist").arg(record.id));
    const SearchIndex::Document oldDoc =
        SearchIndex::documentFor(objectFrom(old.value(0)), valueFrom(old.value(1)),
                                 old.value(2).toString(), arrayFrom(old.value(3)));
    old.finish();
    if (StoreError error =
            SearchIndex::remove(m_database, m_database.searchMode(), record.id, oldDoc);
        error)
        return error;

    if (record.parent && *record.parent == record.id)
        return StoreError::make(StoreError::Code::InvalidInput,
                                Tr::tr("call %1 cannot be its own parent").arg(record.id));
    QSqlQuery &update = statement(kUpdateCall);
    QVariantList values = callValues(
        record, record.createdAt.isValid() ? record.createdAt : QDateTime::currentDateTimeUtc());
    values.append(record.id);
    bindAll(update, values);
    values.clear();
    if (!update.exec()) {
        const StoreError error =
            m_database.errorFrom(update, Tr::tr("updating call %1").arg(record.id));
        releaseValues(update);
        return error;
    }
    releaseValues(update);
    for (QLatin1StringView sql : { kDeleteTurns, kDeleteAttempts }) {
        QSqlQuery &remove = statement(sql);
        remove.bindValue(0, record.id);
        if (!remove.exec())
            return m_database.errorFrom(remove, Tr::tr("updating call %1").arg(record.id));
    }
    return writeChildren(record.id, record);
}

StoreError CallStore::updateCall(const CallRecord &record,
                                 const QList<SessionMessage> &sessionMessages)
{
    Transaction transaction(m_database);
    if (transaction.beginError())
        return transaction.beginError();
    CallRecord stored = record;
    if (!sessionMessages.isEmpty()) {
        if (!record.session)
            return StoreError::make(StoreError::Code::InvalidInput,
                                    Tr::tr("session messages given for a call without a session"));
        const auto span = appendMessagesRows(*record.session, sessionMessages);
        if (!span)
            return span.error();
        stored.firstSequence = stored.firstSequence.value_or(span->first);
        stored.lastSequence = span->last;
    }
    if (StoreError error = updateCallRow(stored); error)
        return error;
    return transaction.commit();
}

StoreResult<CallRecord> CallStore::getCall(qint64 id)
{
    QSqlQuery q(m_database.connection());
    q.setForwardOnly(true);
    q.prepare(kSelectCall);
    q.addBindValue(id);
    if (!q.exec())
        return m_database.errorFrom(q, Tr::tr("reading call %1").arg(id));
    if (!q.next())
        return StoreError::make(StoreError::Code::NotFound, Tr::tr("no call with id %1").arg(id));
    CallRecord c;
    c.id = q.value(0).toLongLong();
    c.kind = q.value(1).toString();
    c.status = callStatusFromName(q.value(2).toString()).value_or(CallStatus::Failed);
    c.engineType = q.value(3).toString();
    c.model = q.value(4).toString();
    c.createdAt = timeFrom(q.value(5));
    c.finishedAt = timeFrom(q.value(6));
    c.parent = optionalFrom(q.value(7));
    c.session = optionalFrom(q.value(8));
    c.firstSequence = optionalFrom(q.value(9));
    c.lastSequence = optionalFrom(q.value(10));
    c.usage.inputTokens = q.value(11).toLongLong();
    c.usage.outputTokens = q.value(12).toLongLong();
    c.usage.cacheReadTokens = q.value(13).toLongLong();
    c.usage.cacheWriteTokens = q.value(24).toLongLong();
    c.usage.cacheWrite1hTokens = q.value(25).toLongLong();
    c.usage.reasoningTokens = q.value(14).toLongLong();
    c.errorCategory = errorCategoryFromName(q.value(15).toString()).value_or(ErrorCategory::Other);
    c.error = q.value(16).toString();
    c.systemPrompt = q.value(17).toString();
    c.input = objectFrom(q.value(18));
    c.response = valueFrom(q.value(19));
    c.metadata = objectFrom(q.value(20));
    c.spec = objectFrom(q.value(21));
    c.messages = arrayFrom(q.value(22));
    c.transcript = arrayFrom(q.value(23));
    q.finish();

    QSqlQuery t(m_database.connection());
    t.setForwardOnly(true);
    t.prepare(kSelectTurns);
    t.addBindValue(id);
    if (!t.exec())
        return m_database.errorFrom(t, Tr::tr("reading the turns of call %1").arg(id));
    while (t.next()) {
        TurnRecord turn;
        turn.index = t.value(0).toInt();
        turn.finishReason =
            finishReasonFromName(t.value(1).toString()).value_or(FinishReason::Other);
        turn.rawFinishReason = t.value(2).toString();
        turn.usage = storedUsage(t, 3, 10);
        turn.toolCalls = t.value(7).toInt();
        turn.note = t.value(8).toString();
        turn.requestReport = objectFrom(t.value(9));
        c.turns.append(turn);
    }

    QSqlQuery a(m_database.connection());
    a.setForwardOnly(true);
    a.prepare(kSelectAttempts);
    a.addBindValue(id);
    if (!a.exec())
        return m_database.errorFrom(a, Tr::tr("reading the attempts of call %1").arg(id));
    while (a.next()) {
        AttemptRecord attempt;
        attempt.index = a.value(0).toInt();
        attempt.turn = a.value(1).toInt();
        attempt.outcome = a.value(2).toString();
        attempt.finishReason =
            finishReasonFromName(a.value(3).toString()).value_or(FinishReason::Other);
        attempt.rawFinishReason = a.value(4).toString();
        attempt.httpStatus = a.value(5).toInt();
        attempt.error = a.value(6).toString();
        attempt.delayMs = a.value(7).toLongLong();
        attempt.usage = storedUsage(a, 8, 14);
        attempt.startedAt = timeFrom(a.value(12));
        attempt.durationMs = a.value(13).toLongLong();
        c.attempts.append(attempt);
    }
    return c;
}

StoreResult<QList<HistoryRow>> CallStore::rowsFor(QLatin1StringView sql, const QVariantList &values)
{
    QSqlQuery q(m_database.connection());
    q.setForwardOnly(true);
    q.prepare(kHistoryColumns + kHistoryFrom + sql);
    bindAll(q, values);
    if (!q.exec())
        return m_database.errorFrom(q, Tr::tr("reading history"));
    QList<HistoryRow> rows;
    while (q.next())
        rows.append(historyRowFrom(q));
    return rows;
}

StoreResult<QList<HistoryRow>> CallStore::children(qint64 id)
{
    return rowsFor(kChildren, { id });
}

StoreResult<std::optional<qint64>> CallStore::previousSimilarCall(qint64 id)
{
    QSqlQuery q(m_database.connection());
    q.setForwardOnly(true);
    q.prepare(kSelectPreviousSimilar);
    q.addBindValue(id);
    if (!q.exec())
        return m_database.errorFrom(q, Tr::tr("finding the call before %1").arg(id));
    if (!q.next())
        return std::optional<qint64>();
    return std::optional<qint64>(q.value(0).toLongLong());
}

StoreResult<qint64> CallStore::revisionRoot(qint64 id)
{
    QSqlQuery q(m_database.connection());
    q.prepare(kSelectParent);
    qint64 current = id;
    QSet<qint64> seen;
    for (;;) {
        q.bindValue(0, current);
        if (!q.exec())
            return m_database.errorFrom(q, Tr::tr("reading call %1").arg(current));
        if (!q.next())
            return StoreError::make(StoreError::Code::NotFound,
                                    Tr::tr("no call with id %1").arg(current));
        const QVariant parent = q.value(0);
        q.finish();
        seen.insert(current);
        if (parent.isNull() || seen.contains(parent.toLongLong()))
            return current;
        current = parent.toLongLong();
    }
}

StoreResult<QList<HistoryRow>> CallStore::revisionTree(qint64 rootId)
{
    auto rows = rowsFor(kRevisionTree, { rootId });
    if (rows && rows->isEmpty())
        return StoreError::make(StoreError::Code::NotFound,
                                Tr::tr("no call with id %1").arg(rootId));
    return rows;
}

StoreResult<HistoryPage> CallStore::listCalls(const HistoryQuery &query)
{
    QStringList conditions;
    QVariantList values;
    auto filter = [&](QLatin1StringView condition, const QVariant &value) {
        conditions.append(condition);
        values.append(value);
    };
    if (!query.kind.isEmpty())
        filter(kFilterKind, query.kind);
    if (query.status)
        filter(kFilterStatus, callStatusName(*query.status));
    if (!query.engineType.isEmpty())
        filter(kFilterEngine, query.engineType);
    if (!query.model.isEmpty())
        filter(kFilterModel, query.model);
    if (query.from.isValid())
        filter(kFilterFrom, query.from.toMSecsSinceEpoch());
    if (query.to.isValid())
        filter(kFilterTo, query.to.toMSecsSinceEpoch());
    if (query.parent)
        filter(kFilterParent, *query.parent);
    if (query.session)
        filter(kFilterSession, *query.session);
    const QStringList terms = SearchIndex::terms(query.search);
    const bool fts = !terms.isEmpty() && m_database.searchMode() == Database::SearchMode::Fts5;
    if (!terms.isEmpty()) {
        switch (m_database.searchMode()) {
        case Database::SearchMode::Fts5:
            filter(kFilterFtsMatch, SearchIndex::ftsQuery(terms));
            break;
        case Database::SearchMode::LikeFallback:
            for (const QString &term : terms) {
                // Like the FTS5 tokenizer, ignore punctuation around a word ("flamingo,).
                qsizetype begin = 0;
                qsizetype end = term.size();
                while (begin < end && !term.at(begin).isLetterOrNumber())
                    ++begin;
                while (end > begin && !term.at(end - 1).isLetterOrNumber())
                    --end;
                if (begin == end)
                    continue;
                const QString pattern = SearchIndex::likePattern(term.mid(begin, end - begin));
                conditions.append(kFilterLikeTerm);
                values << pattern << pattern << pattern;
            }
            break;
        case Database::SearchMode::None:
            return StoreError::make(StoreError::Code::Sql,
                                    Tr::tr("this database has no search index"));
        }
    }
    if (query.after) {
        if (fts) {
            filter(kFilterFtsAfter, query.after->id);
        } else {
            conditions.append(kFilterAfter);
            values << query.after->createdMs << query.after->id;
        }
    }
    const int limit = (query.limit >= 1 && query.limit <= kMaxLimit) ? query.limit : kDefaultLimit;
    values << limit << qMax(0, query.offset);

    QString sql = kHistoryColumns + (fts ? kHistoryFromFts : kHistoryFrom);
    if (!conditions.isEmpty())
        sql += kWhere + conditions.join(kAnd);
    sql += fts ? kFtsOrder : kHistoryOrder;

    QSqlQuery q(m_database.connection());
    q.setForwardOnly(true);
    q.prepare(sql);
    bindAll(q, values);
    if (!q.exec())
        return m_database.errorFrom(q, Tr::tr("reading history"));
    HistoryPage page;
    while (q.next())
        page.rows.append(historyRowFrom(q));
    if (page.rows.size() == limit)
        page.next = page.rows.constLast().cursor();
    return page;
}

StoreResult<IntegrityReport> CallStore::checkIntegrity()
{
    IntegrityReport report;
    QSqlQuery q(m_database.connection());
    q.setForwardOnly(true);
    if (!q.exec(kIntegrityCheck))
        return m_database.errorFrom(q, Tr::tr("checking integrity"));
    while (q.next()) {
        const QString line = q.value(0).toString();
        if (line != u"ok")
            report.problems.append(u"integrity_check: "_s + line);
    }
    if (!q.exec(kForeignKeyCheck))
        return m_database.errorFrom(q, Tr::tr("checking foreign keys"));
    while (q.next()) {
        report.problems.append(u"foreign_key_check: %1 row %2 -> %3"_s.arg(
            q.value(0).toString(), q.value(1).toString(), q.value(2).toString()));
    }
    if (!q.exec(kTurnCountMismatch))
        return m_database.errorFrom(q, Tr::tr("checking turns"));
    while (q.next()) {
        report.problems.append(u"call %1: turn_count %2 but %3 turn rows"_s.arg(
            q.value(0).toString(), q.value(1).toString(), q.value(2).toString()));
    }
    if (!q.exec(kAttemptCountMismatch))
        return m_database.errorFrom(q, Tr::tr("checking attempts"));
    while (q.next()) {
        report.problems.append(u"call %1: attempt_count %2 but %3 attempt rows"_s.arg(
            q.value(0).toString(), q.value(1).toString(), q.value(2).toString()));
    }
    if (!q.exec(kSpanMismatch))
        return m_database.errorFrom(q, Tr::tr("checking session spans"));
    while (q.next()) {
        report.problems.append(u"call %1: session %2 span %3..%4 has %5 messages"_s.arg(
            q.value(0).toString(), q.value(1).toString(), q.value(2).toString(),
            q.value(3).toString(), q.value(4).toString()));
    }
    q.finish();
    return report;
}

// ---- sessions ----------------------------------------------------------------------------

StoreResult<qint64> CallStore::insertSessionRow(const Session &session)
{
    QSqlQuery &q = statement(kInsertSession);
    bindAll(q,
            { session.title, session.systemPrompt,
              (session.createdAt.isValid() ? session.createdAt : QDateTime::currentDateTimeUtc())
                  .toMSecsSinceEpoch(),
              session.summary, optionalValue(session.summaryThrough), compact(session.metadata) });
    if (!q.exec())
        return m_database.errorFrom(q, Tr::tr("storing session"));
    return q.lastInsertId().toLongLong();
}

StoreResult<qint64> CallStore::createSession(const Session &session)
{
    Transaction transaction(m_database);
    if (transaction.beginError())
        return transaction.beginError();
    const auto id = insertSessionRow(session);
    if (!id)
        return id;
    if (StoreError error = transaction.commit(); error)
        return error;
    return id;
}

StoreResult<Session> CallStore::getSession(qint64 id)
{
    QSqlQuery q(m_database.connection());
    q.prepare(kSelectSession);
    q.addBindValue(id);
    if (!q.exec())
        return m_database.errorFrom(q, Tr::tr("reading session %1").arg(id));
    if (!q.next())
        return StoreError::make(StoreError::Code::NotFound,
                                Tr::tr("no session with id %1").arg(id));
    return sessionFrom(q);
}

StoreError CallStore::renameSession(qint64 id, const QString &title)
{
    QSqlQuery q(m_database.connection());
    q.prepare(kRenameSession);
    q.addBindValue(title);
    q.addBindValue(id);
    if (!q.exec())
        return m_database.errorFrom(q, Tr::tr("renaming session %1").arg(id));
    if (q.numRowsAffected() == 0)
        return StoreError::make(StoreError::Code::NotFound,
                                Tr::tr("no session with id %1").arg(id));
    return {};
}

StoreResult<QList<Session>> CallStore::listSessions()
{
    QSqlQuery q(m_database.connection());
    q.setForwardOnly(true);
    if (!q.exec(kSelectSessions))
        return m_database.errorFrom(q, Tr::tr("reading sessions"));
    QList<Session> sessions;
    while (q.next())
        sessions.append(sessionFrom(q));
    return sessions;
}

StoreError CallStore::insertMessageRow(qint64 sessionId, const SessionMessage &m)
{
    QSqlQuery &q = statement(kInsertMessage);
    bindAll(q,
            { sessionId, m.sequence, roleName(m.message.role), compact(m.message.toJson()),
              m.sendToModel ? 1 : 0, optionalValue(m.compactedBy),
              (m.createdAt.isValid() ? m.createdAt : QDateTime::currentDateTimeUtc())
                  .toMSecsSinceEpoch() });
    if (!q.exec())
        return m_database.errorFrom(
            q, Tr::tr("storing message %1 of session %2").arg(m.sequence).arg(sessionId));
    return {};
}

StoreResult<SequenceSpan> CallStore::appendMessagesRows(qint64 sessionId,
                                                        const QList<SessionMessage> &messages)
{
    QSqlQuery exists(m_database.connection());
    exists.prepare(kSessionExists);
    exists.addBindValue(sessionId);
    if (!exists.exec())
        return m_database.errorFrom(exists, Tr::tr("looking up a session"));
    if (!exists.next())
        return StoreError::make(StoreError::Code::NotFound,
                                Tr::tr("session %1 does not exist").arg(sessionId));
    exists.finish();

    QSqlQuery max(m_database.connection());
    max.prepare(kMaxSequence);
    max.addBindValue(sessionId);
    if (!max.exec() || !max.next())
        return m_database.errorFrom(max, Tr::tr("reading session %1").arg(sessionId));
    qint64 sequence = max.value(0).toLongLong();
    max.finish();
    SequenceSpan span { sequence + 1, sequence };
    for (SessionMessage message : messages) {
        message.sequence = ++sequence;
        message.compactedBy.reset();
        if (StoreError error = insertMessageRow(sessionId, message); error)
            return error;
    }
    span.last = sequence;
    return span;
}

StoreResult<SequenceSpan> CallStore::appendMessages(qint64 sessionId,
                                                    const QList<SessionMessage> &messages)
{
    Transaction transaction(m_database);
    if (transaction.beginError())
        return transaction.beginError();
    const auto span = appendMessagesRows(sessionId, messages);
    if (!span)
        return span;
    if (StoreError error = transaction.commit(); error)
        return error;
    return span;
}

StoreResult<QList<Compaction>> CallStore::compactions(qint64 sessionId)
{
    QSqlQuery q(m_database.connection());
    q.setForwardOnly(true);
    q.prepare(kSelectCompactions);
    q.addBindValue(sessionId);
    if (!q.exec())
        return m_database.errorFrom(q, Tr::tr("reading compactions of session %1").arg(sessionId));
    QList<Compaction> list;
    while (q.next()) {
        list.append(Compaction { q.value(0).toLongLong(), q.value(1).toLongLong(),
                                 q.value(2).toLongLong(), q.value(3).toLongLong(),
                                 q.value(4).toLongLong(), q.value(5).toString(),
                                 timeFrom(q.value(6)) });
    }
    return list;
}

StoreResult<QList<SessionMessage>> CallStore::sessionMessages(qint64 sessionId, MessageView view)
{
    const auto session = getSession(sessionId);
    if (!session)
        return session.error();
    QSqlQuery q(m_database.connection());
    q.setForwardOnly(true);
    q.prepare(kSelectMessages);
    q.addBindValue(sessionId);
    if (!q.exec())
        return m_database.errorFrom(q, Tr::tr("reading messages of session %1").arg(sessionId));
    QList<SessionMessage> all;
    while (q.next()) {
        SessionMessage m;
        m.sequence = q.value(0).toLongLong();
        m.message = Message::fromJson(objectFrom(q.value(1)));
        m.sendToModel = q.value(2).toInt() != 0;
        m.compactedBy = optionalFrom(q.value(3));
        m.createdAt = timeFrom(q.value(4));
        all.append(m);
    }
    q.finish();
    if (view == MessageView::All)
        return all;

    const auto list = compactions(sessionId);
    if (!list)
        return list.error();
    QHash<qint64, Compaction> byId;
    for (const Compaction &c : *list)
        byId.insert(c.id, c);
    QList<SessionMessage> forModel;
    QSet<qint64> summarised;
    for (const SessionMessage &m : std::as_const(all)) {
        if (m.compactedBy) {
            // The first message of a compacted range stands for the whole range.
            if (!summarised.contains(*m.compactedBy) && byId.contains(*m.compactedBy)) {
                summarised.insert(*m.compactedBy);
                const Compaction &c = byId.value(*m.compactedBy);
                SessionMessage summary;
                summary.sequence = c.firstSequence;
                summary.message = Message::user(c.summary);
                summary.createdAt = c.createdAt;
                summary.isSummary = true;
                summary.compactedBy = c.id;
                forModel.append(summary);
            }
            continue;
        }
        if (m.sendToModel)
            forModel.append(m);
    }
    return forModel;
}

StoreResult<QList<Message>> CallStore::modelMessages(qint64 sessionId)
{
    const auto list = sessionMessages(sessionId, MessageView::ForModel);
    if (!list)
        return list.error();
    QList<Message> messages;
    for (const SessionMessage &m : *list)
        messages.append(m.message);
    return messages;
}

StoreResult<QList<HistoryRow>> CallStore::sessionCalls(qint64 sessionId)
{
    const auto session = getSession(sessionId);
    if (!session)
        return session.error();
    return rowsFor(kSessionCalls, { sessionId });
}

StoreResult<qint64> CallStore::insertCompactionRow(const Compaction &c)
{
    QSqlQuery &q = statement(kInsertCompaction);
    bindAll(q,
            { c.sessionId, c.callId, c.firstSequence, c.lastSequence, c.summary,
              (c.createdAt.isValid() ? c.createdAt : QDateTime::currentDateTimeUtc())
                  .toMSecsSinceEpoch() });
    if (!q.exec())
        return m_database.errorFrom(q,
                                    Tr::tr("storing a compaction of session %1").arg(c.sessionId));
    return q.lastInsertId().toLongLong();
}

StoreResult<Compaction> CallStore::recordCompaction(qint64 sessionId, const CallRecord &summaryCall,
                                                    qint64 firstSequence, qint64 lastSequence,
                                                    const QString &summary)
{
    if (firstSequence < 1 || lastSequence < firstSequence)
        return StoreError::make(
            StoreError::Code::InvalidInput,
            Tr::tr("invalid compaction range %1..%2").arg(firstSequence).arg(lastSequence));
    Transaction transaction(m_database);
    if (transaction.beginError())
        return transaction.beginError();

    QSqlQuery count(m_database.connection());
    count.prepare(kCountMessagesInRange);
    count.addBindValue(sessionId);
    count.addBindValue(firstSequence);
    count.addBindValue(lastSequence);
    if (!count.exec() || !count.next())
        return m_database.errorFrom(count, Tr::tr("reading session %1").arg(sessionId));
    if (count.value(0).toLongLong() != lastSequence - firstSequence + 1)
        return StoreError::make(StoreError::Code::InvalidInput,
                                Tr::tr("session %1 has no messages %2..%3 to compact")
                                    .arg(sessionId)
                                    .arg(firstSequence)
                                    .arg(lastSequence));
    count.finish();

    CallRecord call = summaryCall;
    call.session = sessionId;
    call.firstSequence.reset();
    call.lastSequence.reset();
    const auto callId = insertCallRow(call);
    if (!callId)
        return callId.error();

    Compaction compaction {
        0, sessionId, *callId, firstSequence, lastSequence, summary, QDateTime::currentDateTimeUtc()
    };
    const auto id = insertCompactionRow(compaction);
    if (!id)
        return id.error();
    compaction.id = *id;

    QSqlQuery mark(m_database.connection());
    mark.prepare(kMarkCompacted);
    mark.addBindValue(compaction.id);
    mark.addBindValue(sessionId);
    mark.addBindValue(firstSequence);
    mark.addBindValue(lastSequence);
    if (!mark.exec())
        return m_database.errorFrom(mark, Tr::tr("marking compacted messages"));

    QSqlQuery update(m_database.connection());
    update.prepare(kUpdateSessionSummary);
    update.addBindValue(summary);
    update.addBindValue(lastSequence);
    update.addBindValue(sessionId);
    if (!update.exec())
        return m_database.errorFrom(update, Tr::tr("updating session %1").arg(sessionId));

    if (StoreError error = transaction.commit(); error)
        return error;
    return compaction;
}

} // namespace Callscope
