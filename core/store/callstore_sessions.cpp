// CallStore: sessions, their messages and compactions.

#include "core/store/callstore.h"
#include "core/store/callstore_p.h"
#include "core/store/identity.h"
#include "core/store/storequery.h"

#include <QSet>
#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace Callscope {

using namespace CallStoreDetail;

namespace {

constexpr auto kSessionCalls = " WHERE c.session_id = ? ORDER BY c.created_at, c.id"_L1;
constexpr auto kInsertSession = R"(INSERT INTO sessions (title, system_prompt, created_at, summary,
    summary_through, metadata, uuid) VALUES (?, ?, ?, ?, ?, ?, ?))"_L1;
constexpr auto kSelectSession = R"(SELECT id, title, system_prompt, created_at, summary,
    summary_through, metadata, uuid FROM sessions WHERE id = ?)"_L1;
constexpr auto kSelectSessions = R"(SELECT id, title, system_prompt, created_at, summary,
    summary_through, metadata, uuid FROM sessions ORDER BY created_at DESC, id DESC)"_L1;
constexpr auto kSessionByUuid = "SELECT id FROM sessions WHERE uuid = ?"_L1;
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
    s.uuid = q.value(7).toString();
    return s;
}

} // namespace

StoreResult<qint64> CallStore::insertSessionRow(const Session &session)
{
    QSqlQuery &q = insertStatement(kInsertSession);
    if (StoreError error = runStatement(
            m_database, q,
            { session.title, session.systemPrompt,
              (session.createdAt.isValid() ? session.createdAt : QDateTime::currentDateTimeUtc())
                  .toMSecsSinceEpoch(),
              session.summary, optionalValue(session.summaryThrough), compact(session.metadata),
              session.uuid.isEmpty() ? Identity::newUuid() : session.uuid },
            Tr::tr("storing session"));
        error)
        return error;
    return insertedId(q);
}

StoreResult<qint64> CallStore::findSessionByUuid(const QString &uuid)
{
    if (uuid.isEmpty())
        return qint64(0);
    auto query =
        runQuery(m_database, kSessionByUuid, { uuid }, Tr::tr("looking up session %1").arg(uuid));
    if (!query)
        return query.error();
    return query->next() ? query->value(0).toLongLong() : qint64(0);
}

StoreResult<qint64> CallStore::createSession(const Session &given)
{
    Session session = given;
    if (session.uuid.isEmpty())
        session.uuid = Identity::newUuid();
    if (!session.createdAt.isValid())
        session.createdAt = QDateTime::currentDateTimeUtc();
    auto id = inTransaction<qint64>(m_database, [&] { return insertSessionRow(session); });
    if (id) {
        session.id = id.value();
        m_created.sessions.append(session);
    }
    return id;
}

StoreResult<Session> CallStore::getSession(qint64 id)
{
    auto q = runQuery(m_database, kSelectSession, { id }, Tr::tr("reading session %1").arg(id));
    if (!q)
        return q.error();
    if (!q->next())
        return StoreError::make(StoreError::Code::NotFound,
                                Tr::tr("no session with id %1").arg(id));
    return sessionFrom(*q);
}

StoreError CallStore::renameSession(qint64 id, const QString &title)
{
    auto q =
        runQuery(m_database, kRenameSession, { title, id }, Tr::tr("renaming session %1").arg(id));
    if (!q)
        return q.error();
    if (q->numRowsAffected() == 0)
        return StoreError::make(StoreError::Code::NotFound,
                                Tr::tr("no session with id %1").arg(id));
    return {};
}

StoreResult<QList<Session>> CallStore::listSessions()
{
    auto q = runQuery(m_database, kSelectSessions, {}, Tr::tr("reading sessions"));
    if (!q)
        return q.error();
    QList<Session> sessions;
    while (q->next())
        sessions.append(sessionFrom(*q));
    return sessions;
}

StoreError CallStore::insertMessageRow(qint64 sessionId, const SessionMessage &m)
{
    return runStatement(
        m_database, statement(kInsertMessage),
        { sessionId, m.sequence, roleName(m.message.role), compact(m.message.toJson()),
          m.sendToModel ? 1 : 0, optionalValue(m.compactedBy),
          (m.createdAt.isValid() ? m.createdAt : QDateTime::currentDateTimeUtc())
              .toMSecsSinceEpoch() },
        [&] { return Tr::tr("storing message %1 of session %2").arg(m.sequence).arg(sessionId); });
}

StoreResult<SequenceSpan> CallStore::appendMessagesRows(qint64 sessionId,
                                                        const QList<SessionMessage> &messages)
{
    auto exists =
        runQuery(m_database, kSessionExists, { sessionId }, Tr::tr("looking up a session"));
    if (!exists)
        return exists.error();
    if (!exists->next())
        return StoreError::make(StoreError::Code::NotFound,
                                Tr::tr("session %1 does not exist").arg(sessionId));
    exists->finish();

    auto max = runQuery(m_database, kMaxSequence, { sessionId },
                        Tr::tr("reading session %1").arg(sessionId));
    if (!max)
        return max.error();
    if (!max->next())
        return m_database.errorFrom(*max, Tr::tr("reading session %1").arg(sessionId));
    qint64 sequence = max->value(0).toLongLong();
    max->finish();
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
    return inTransaction<SequenceSpan>(m_database,
                                       [&] { return appendMessagesRows(sessionId, messages); });
}

StoreResult<QList<Compaction>> CallStore::compactions(qint64 sessionId)
{
    auto q = runQuery(m_database, kSelectCompactions, { sessionId },
                      Tr::tr("reading compactions of session %1").arg(sessionId));
    if (!q)
        return q.error();
    QList<Compaction> list;
    while (q->next()) {
        list.append(Compaction { q->value(0).toLongLong(), q->value(1).toLongLong(),
                                 q->value(2).toLongLong(), q->value(3).toLongLong(),
                                 q->value(4).toLongLong(), q->value(5).toString(),
                                 timeFrom(q->value(6)) });
    }
    return list;
}

StoreResult<QList<SessionMessage>> CallStore::sessionMessages(qint64 sessionId, MessageView view)
{
    const auto session = getSession(sessionId);
    if (!session)
        return session.error();
    auto q = runQuery(m_database, kSelectMessages, { sessionId },
                      Tr::tr("reading messages of session %1").arg(sessionId));
    if (!q)
        return q.error();
    QList<SessionMessage> all;
    while (q->next()) {
        SessionMessage m;
        m.sequence = q->value(0).toLongLong();
        m.message = Message::fromJson(objectFrom(q->value(1)));
        m.sendToModel = q->value(2).toInt() != 0;
        m.compactedBy = optionalFrom(q->value(3));
        m.createdAt = timeFrom(q->value(4));
        all.append(m);
    }
    q->finish();
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
    QSqlQuery &q = insertStatement(kInsertCompaction);
    if (StoreError error =
            runStatement(m_database, q,
                         { c.sessionId, c.callId, c.firstSequence, c.lastSequence, c.summary,
                           (c.createdAt.isValid() ? c.createdAt : QDateTime::currentDateTimeUtc())
                               .toMSecsSinceEpoch() },
                         Tr::tr("storing a compaction of session %1").arg(c.sessionId));
        error)
        return error;
    return insertedId(q);
}

StoreResult<Compaction> CallStore::recordCompaction(qint64 sessionId, const CallRecord &summaryCall,
                                                    qint64 firstSequence, qint64 lastSequence,
                                                    const QString &summary)
{
    if (firstSequence < 1 || lastSequence < firstSequence)
        return StoreError::make(
            StoreError::Code::InvalidInput,
            Tr::tr("invalid compaction range %1..%2").arg(firstSequence).arg(lastSequence));
    return inTransaction<Compaction>(m_database, [&]() -> StoreResult<Compaction> {
        auto count =
            runQuery(m_database, kCountMessagesInRange, { sessionId, firstSequence, lastSequence },
                     Tr::tr("reading session %1").arg(sessionId));
        if (!count)
            return count.error();
        if (!count->next())
            return m_database.errorFrom(*count, Tr::tr("reading session %1").arg(sessionId));
        if (count->value(0).toLongLong() != lastSequence - firstSequence + 1)
            return StoreError::make(StoreError::Code::InvalidInput,
                                    Tr::tr("session %1 has no messages %2..%3 to compact")
                                        .arg(sessionId)
                                        .arg(firstSequence)
                                        .arg(lastSequence));
        count->finish();

        CallRecord call = summaryCall;
        call.session = sessionId;
        call.firstSequence.reset();
        call.lastSequence.reset();
        const auto callId = insertCallRow(call);
        if (!callId)
            return callId.error();

        Compaction compaction { 0,
                                sessionId,
                                *callId,
                                firstSequence,
                                lastSequence,
                                summary,
                                QDateTime::currentDateTimeUtc() };
        const auto id = insertCompactionRow(compaction);
        if (!id)
            return id.error();
        compaction.id = *id;

        if (auto mark = runQuery(m_database, kMarkCompacted,
                                 { compaction.id, sessionId, firstSequence, lastSequence },
                                 Tr::tr("marking compacted messages"));
            !mark)
            return mark.error();
        if (auto update =
                runQuery(m_database, kUpdateSessionSummary, { summary, lastSequence, sessionId },
                         Tr::tr("updating session %1").arg(sessionId));
            !update)
            return update.error();
        return compaction;
    });
}

} // namespace Callscope
