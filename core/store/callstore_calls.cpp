// CallStore: calls with their turns, attempts, raw exchanges and search entries.

#include "core/model/jsonwriter.h"
#include "core/store/callstore.h"
#include "core/store/callstore_p.h"
#include "core/store/exchangestore.h"
#include "core/store/identity.h"
#include "core/store/searchindex.h"
#include "core/store/storequery.h"

#include <QSqlDriver>
#include <QSqlQuery>

#include <limits>
#include <sqlite3.h>

using namespace Qt::StringLiterals;

namespace Callscope {

using namespace CallStoreDetail;

namespace {

constexpr auto kInsertBatchCall =
    "INSERT INTO batch_calls (batch_id, line, call_id) VALUES (?, ?, ?)"_L1;
constexpr auto kInsertCall =
    R"(INSERT INTO calls (uuid, person, machine, kind, status, engine_type, model, created_at,
    finished_at, parent_id, session_id, first_sequence, last_sequence, input_tokens,
    output_tokens, cached_tokens, cache_write_tokens, cache_write_1h_tokens, reasoning_tokens,
    turn_count, attempt_count, error_category, input_preview, error, system_prompt, input,
    response, metadata, spec, messages, transcript)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS TEXT),
    CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT)))"_L1;

// A large call's JSON columns are made as zero-filled blobs of their final size (which cost SQLite
// no memory) and then written piece by piece with SQLite's blob I/O (writeStreamedColumns).
// SQLite keeps the blobs unallocated only while the columns after them in the table hold
// nothing, so the JSON columns stay the table's last (schema version 11).
constexpr auto kInsertCallStreamed =
    R"(INSERT INTO calls (uuid, person, machine, kind, status, engine_type, model,
    created_at, finished_at, parent_id, session_id, first_sequence, last_sequence, input_tokens,
    output_tokens, cached_tokens, cache_write_tokens, cache_write_1h_tokens, reasoning_tokens,
    turn_count, attempt_count, error_category, input_preview, error, system_prompt, input,
    response, metadata, spec, messages, transcript)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, zeroblob(?),
    zeroblob(?), zeroblob(?), zeroblob(?), zeroblob(?), zeroblob(?)))"_L1;
constexpr auto kInsertCallStreamedNoResponse =
    R"(INSERT INTO calls (uuid, person, machine, kind, status,
    engine_type, model, created_at, finished_at, parent_id, session_id, first_sequence, last_sequence,
    input_tokens, output_tokens, cached_tokens, cache_write_tokens, cache_write_1h_tokens,
    reasoning_tokens, turn_count, attempt_count, error_category, input_preview, error,
    system_prompt, input, response, metadata, spec, messages, transcript)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, zeroblob(?), NULL,
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
    response, metadata, spec, messages, transcript, cache_write_tokens, cache_write_1h_tokens,
    uuid, person, machine FROM calls WHERE id = ?)"_L1;
constexpr auto kCallByUuid = "SELECT id FROM calls WHERE uuid = ?"_L1;

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
// The SQL of previousSimilarCall() and findRecoveredCall(): they read the metadata's JSON.
QString selectPreviousSimilar(const SqlDialect &dialect)
{
    return uR"(SELECT p.id FROM calls c JOIN calls p
    ON p.kind = c.kind AND p.engine_type = c.engine_type AND p.model = c.model AND p.id < c.id
    AND %1 WHERE c.id = ? ORDER BY p.id DESC LIMIT 1)"_s.arg(
        dialect.sameOrBothNull(dialect.jsonField(u"p.metadata", u"variant"),
                               dialect.jsonField(u"c.metadata", u"variant")));
}

QString selectRecoveredCall(const SqlDialect &dialect)
{
    return u"SELECT id FROM calls WHERE created_at >= ? AND created_at <= ? AND %1 LIMIT 1"_s.arg(
        dialect.jsonFieldEquals(u"metadata", u"recovery_entry"));
}

constexpr int kPreviewLength = 200;

QString inputPreview(const QJsonObject &input)
{
    return input.value(u"text"_s)
        .toString()
        .left(kPreviewLength * 2)
        .simplified()
        .left(kPreviewLength);
}

// The values of the identity columns an INSERT starts with (uuid, person, machine): the
// record's own, or new ones (a UUID, this person, this machine) where it has none.
QVariantList identityValues(const CallRecord &record)
{
    return { record.uuid.isEmpty() ? Identity::newUuid() : record.uuid,
             record.person.isEmpty() ? Identity::person() : record.person,
             record.machine.isEmpty() ? Identity::machine() : record.machine };
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

} // namespace

StoreResult<bool> CallStore::callExists(qint64 id)
{
    auto query = runQuery(m_database, kCallExists, { id }, Tr::tr("looking up a call"));
    if (!query)
        return query.error();
    return query->next();
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
        auto query = runQuery(m_database, kSessionExists, { *record.session },
                              Tr::tr("looking up a session"));
        if (!query)
            return query.error();
        if (!query->next())
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
            QSqlQuery &insert = insertStatement(columns[1].null ? kInsertCallStreamedNoResponse
                                                                : kInsertCallStreamed);
            QVariantList values = identityValues(record) + lightValues(record, createdAt);
            for (const JsonColumn &c : columns) {
                if (!c.null)
                    values.append(c.size);
            }
            const StoreError stored =
                runStatement(m_database, insert, values, [] { return Tr::tr("storing call"); });
            const qint64 id = stored ? 0 : insertedId(insert);
            releaseValues(insert);
            if (stored)
                return stored;
            if (StoreError error = writeStreamedColumns(db, id, columns); error)
                return error;
            columns.clear();
            if (StoreError error = writeChildren(id, record); error)
                return error;
            return id;
        }
    }
    QSqlQuery &insert = insertStatement(kInsertCall);
    const StoreError stored =
        runStatement(m_database, insert, identityValues(record) + callValues(record, createdAt),
                     [] { return Tr::tr("storing call"); });
    const qint64 id = stored ? 0 : insertedId(insert);
    releaseValues(insert);
    if (stored)
        return stored;
    if (StoreError error = writeChildren(id, record); error)
        return error;
    return id;
}

StoreError CallStore::writeChildren(qint64 id, const CallRecord &record)
{
    QSqlQuery &turn = statement(kInsertTurn);
    for (const TurnRecord &t : record.turns) {
        if (StoreError error = runStatement(
                m_database, turn,
                { id, t.index, finishReasonName(t.finishReason), t.rawFinishReason,
                  t.usage.inputTokens, t.usage.outputTokens, t.usage.cacheReadTokens,
                  t.usage.reasoningTokens, t.toolCalls, t.note, compact(t.requestReport),
                  t.usage.cacheWriteTokens, t.usage.cacheWrite1hTokens },
                [&] { return Tr::tr("storing turn %1 of call %2").arg(t.index).arg(id); });
            error)
            return error;
    }
    QSqlQuery &attempt = statement(kInsertAttempt);
    for (const AttemptRecord &a : record.attempts) {
        if (StoreError error = runStatement(
                m_database, attempt,
                { id, a.index, a.turn, a.outcome, finishReasonName(a.finishReason),
                  a.rawFinishReason, a.httpStatus, a.error, a.delayMs, a.usage.inputTokens,
                  a.usage.outputTokens, a.usage.cacheReadTokens, a.usage.reasoningTokens,
                  msOrNull(a.startedAt), a.durationMs, a.usage.cacheWriteTokens,
                  a.usage.cacheWrite1hTokens },
                [&] { return Tr::tr("storing attempt %1 of call %2").arg(a.index).arg(id); });
            error)
            return error;
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
    CallRecord stored = record;
    const auto id = inTransaction<qint64>(m_database, [&]() -> StoreResult<qint64> {
        if (!sessionMessages.isEmpty()) {
            if (!record.session)
                return StoreError::make(
                    StoreError::Code::InvalidInput,
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
            if (StoreError error = runStatement(
                    m_database, statement(kInsertBatchCall),
                    { options.batch->batchId, options.batch->line, *id },
                    Tr::tr("linking call %1 to batch %2").arg(*id).arg(options.batch->batchId));
                error)
                return error;
        }
        return id;
    });
    if (id && spanOut && stored.firstSequence)
        *spanOut = SequenceSpan { *stored.firstSequence,
                                  stored.lastSequence.value_or(*stored.firstSequence) };
    return id;
}

StoreResult<QList<qint64>> CallStore::insertCalls(const QList<CallRecord> &records)
{
    return inTransaction<QList<qint64>>(m_database, [&]() -> StoreResult<QList<qint64>> {
        QList<qint64> ids;
        ids.reserve(records.size());
        for (const CallRecord &record : records) {
            const auto id = insertCallRow(record);
            if (!id)
                return id.error();
            ids.append(*id);
        }
        return ids;
    });
}

StoreError CallStore::updateCallRow(const CallRecord &record)
{
    // Forget the old search entry first: the contentless index needs the old text.
    auto old = runQuery(m_database, kSelectSearchSource, { record.id },
                        Tr::tr("reading call %1").arg(record.id));
    if (!old)
        return old.error();
    if (!old->next())
        return StoreError::make(StoreError::Code::NotFound,
                                Tr::tr("call %1 does not exist").arg(record.id));
    const SearchIndex::Document oldDoc =
        SearchIndex::documentFor(objectFrom(old->value(0)), valueFrom(old->value(1)),
                                 old->value(2).toString(), arrayFrom(old->value(3)));
    old->finish();
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
    const StoreError updated =
        runStatement(m_database, update, values, Tr::tr("updating call %1").arg(record.id));
    values.clear();
    releaseValues(update);
    if (updated)
        return updated;
    for (QLatin1StringView sql : { kDeleteTurns, kDeleteAttempts }) {
        if (StoreError error = runStatement(m_database, statement(sql), { record.id },
                                            Tr::tr("updating call %1").arg(record.id));
            error)
            return error;
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
    auto q = runQuery(m_database, kSelectCall, { id }, Tr::tr("reading call %1").arg(id));
    if (!q)
        return q.error();
    if (!q->next())
        return StoreError::make(StoreError::Code::NotFound, Tr::tr("no call with id %1").arg(id));
    CallRecord c;
    c.id = q->value(0).toLongLong();
    c.kind = q->value(1).toString();
    c.status = callStatusFromName(q->value(2).toString()).value_or(CallStatus::Failed);
    c.engineType = q->value(3).toString();
    c.model = q->value(4).toString();
    c.createdAt = timeFrom(q->value(5));
    c.finishedAt = timeFrom(q->value(6));
    c.parent = optionalFrom(q->value(7));
    c.session = optionalFrom(q->value(8));
    c.firstSequence = optionalFrom(q->value(9));
    c.lastSequence = optionalFrom(q->value(10));
    c.usage.inputTokens = q->value(11).toLongLong();
    c.usage.outputTokens = q->value(12).toLongLong();
    c.usage.cacheReadTokens = q->value(13).toLongLong();
    c.usage.cacheWriteTokens = q->value(24).toLongLong();
    c.usage.cacheWrite1hTokens = q->value(25).toLongLong();
    c.usage.reasoningTokens = q->value(14).toLongLong();
    c.errorCategory = errorCategoryFromName(q->value(15).toString()).value_or(ErrorCategory::Other);
    c.error = q->value(16).toString();
    c.systemPrompt = q->value(17).toString();
    c.input = objectFrom(q->value(18));
    c.response = valueFrom(q->value(19));
    c.metadata = objectFrom(q->value(20));
    c.spec = objectFrom(q->value(21));
    c.messages = arrayFrom(q->value(22));
    c.transcript = arrayFrom(q->value(23));
    c.uuid = q->value(26).toString();
    c.person = q->value(27).toString();
    c.machine = q->value(28).toString();
    q->finish();

    auto t =
        runQuery(m_database, kSelectTurns, { id }, Tr::tr("reading the turns of call %1").arg(id));
    if (!t)
        return t.error();
    while (t->next()) {
        TurnRecord turn;
        turn.index = t->value(0).toInt();
        turn.finishReason =
            finishReasonFromName(t->value(1).toString()).value_or(FinishReason::Other);
        turn.rawFinishReason = t->value(2).toString();
        turn.usage = storedUsage(*t, 3, 10);
        turn.toolCalls = t->value(7).toInt();
        turn.note = t->value(8).toString();
        turn.requestReport = objectFrom(t->value(9));
        c.turns.append(turn);
    }

    auto a = runQuery(m_database, kSelectAttempts, { id },
                      Tr::tr("reading the attempts of call %1").arg(id));
    if (!a)
        return a.error();
    while (a->next()) {
        AttemptRecord attempt;
        attempt.index = a->value(0).toInt();
        attempt.turn = a->value(1).toInt();
        attempt.outcome = a->value(2).toString();
        attempt.finishReason =
            finishReasonFromName(a->value(3).toString()).value_or(FinishReason::Other);
        attempt.rawFinishReason = a->value(4).toString();
        attempt.httpStatus = a->value(5).toInt();
        attempt.error = a->value(6).toString();
        attempt.delayMs = a->value(7).toLongLong();
        attempt.usage = storedUsage(*a, 8, 14);
        attempt.startedAt = timeFrom(a->value(12));
        attempt.durationMs = a->value(13).toLongLong();
        c.attempts.append(attempt);
    }
    return c;
}

StoreResult<qint64> CallStore::findCallByUuid(const QString &uuid)
{
    if (uuid.isEmpty())
        return qint64(0);
    auto query =
        runQuery(m_database, kCallByUuid, { uuid }, Tr::tr("looking up call %1").arg(uuid));
    if (!query)
        return query.error();
    return query->next() ? query->value(0).toLongLong() : qint64(0);
}

StoreResult<std::optional<qint64>> CallStore::previousSimilarCall(qint64 id)
{
    auto q = runQuery(m_database, selectPreviousSimilar(m_database.dialect()), { id },
                      Tr::tr("finding the call before %1").arg(id));
    if (!q)
        return q.error();
    if (!q->next())
        return std::optional<qint64>();
    return std::optional<qint64>(q->value(0).toLongLong());
}

StoreResult<qint64> CallStore::findRecoveredCall(const QString &entry, const QDateTime &createdAt)
{
    // The time narrows the search to a few rows through the index; the entry decides.
    auto query = runQuery(
        m_database, selectRecoveredCall(m_database.dialect()),
        { createdAt.isValid() ? createdAt.toMSecsSinceEpoch() : qint64(0),
          createdAt.isValid() ? createdAt.toMSecsSinceEpoch() : std::numeric_limits<qint64>::max(),
          entry },
        Tr::tr("looking up a recovered call"));
    if (!query)
        return query.error();
    return query->next() ? query->value(0).toLongLong() : qint64(0);
}

} // namespace Callscope
