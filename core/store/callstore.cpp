#include "core/store/callstore.h"

#include "core/model/jsonwriter.h"
#include "core/store/callstore_p.h"
#include "core/store/storequery.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>

// CallStore is split by what it stores: callstore_calls.cpp (calls, their turns and attempts),
// callstore_history.cpp (history pages and revision trees), callstore_sessions.cpp (sessions,
// messages, compactions), callstore_batches.cpp and callstore_experiments.cpp. This file holds
// the value types, the conversions they share, secret stripping and the integrity check.

using namespace Qt::StringLiterals;

namespace Callscope {

namespace CallStoreDetail {

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
    row.person = q.value(20).toString();
    row.machine = q.value(21).toString();
    return row;
}

} // namespace CallStoreDetail

using namespace CallStoreDetail;

namespace {

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
        { u"person"_s, person },
        { u"machine"_s, machine },
        { u"turns"_s, turnCount },
        { u"attempts"_s, attemptCount },
        { u"revisions"_s, revisionCount },
    };
}

QJsonObject Session::toJson() const
{
    return QJsonObject { { u"id"_s, id },
                         { u"uuid"_s, uuid },
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
    s.uuid = o.value(u"uuid"_s).toString();
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

QSqlQuery &CallStore::insertStatement(QLatin1StringView sql)
{
    auto &slot = m_statements[sql.data()];
    if (!slot) {
        slot = std::make_unique<QSqlQuery>(m_database.connection());
        if (!slot->prepare(m_database.dialect().insertReturningId(sql)))
            qCWarning(lcStore) << "cannot prepare" << sql << slot->lastError().text();
    }
    return *slot;
}

qint64 CallStore::insertedId(QSqlQuery &statement)
{
    return m_database.dialect().insertedId(statement);
}

QJsonObject CallStore::stripSecrets(const QJsonObject &spec)
{
    return stripObject(spec);
}

StoreResult<IntegrityReport> CallStore::checkIntegrity()
{
    IntegrityReport report;
    // A server keeps its own pages and foreign keys; SQLite's file is checked here.
    const bool server = m_database.isServer();
    if (!server) {
        auto integrity = runQuery(m_database, kIntegrityCheck, {}, Tr::tr("checking integrity"));
        if (!integrity)
            return integrity.error();
        while (integrity->next()) {
            const QString line = integrity->value(0).toString();
            if (line != u"ok")
                report.problems.append(u"integrity_check: "_s + line);
        }
        integrity->finish();
    }

    // Each check lists offending rows; `format` has one %n per column.
    const struct
    {
        QLatin1StringView sql;
        const char *what;
        QString format;
    } checks[] = {
        { kForeignKeyCheck, QT_TRANSLATE_NOOP("Store", "checking foreign keys"),
          u"foreign_key_check: %1 row %2 -> %3"_s },
        { kTurnCountMismatch, QT_TRANSLATE_NOOP("Store", "checking turns"),
          u"call %1: turn_count %2 but %3 turn rows"_s },
        { kAttemptCountMismatch, QT_TRANSLATE_NOOP("Store", "checking attempts"),
          u"call %1: attempt_count %2 but %3 attempt rows"_s },
        { kSpanMismatch, QT_TRANSLATE_NOOP("Store", "checking session spans"),
          u"call %1: session %2 span %3..%4 has %5 messages"_s },
    };
    for (const auto &check : checks) {
        if (server && check.sql == kForeignKeyCheck)
            continue;
        auto q = runQuery(m_database, check.sql, {}, Tr::tr(check.what));
        if (!q)
            return q.error();
        const int columns = int(check.format.count(u'%'));
        while (q->next()) {
            QString line = check.format;
            for (int i = 0; i < columns; ++i)
                line = line.arg(q->value(i).toString());
            report.problems.append(line);
        }
    }
    return report;
}

} // namespace Callscope
