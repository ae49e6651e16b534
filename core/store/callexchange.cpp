#include "core/store/callexchange.h"

#include "core/model/jsonpointer.h"
#include "core/schema/jsonschema.h"
#include "core/store/storequery.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QUrl>

using namespace Qt::StringLiterals;

// The resources library is static: its data registers only when someone asks for it.
static void initExportResources()
{
    Q_INIT_RESOURCE(resources);
}

namespace Callscope {

namespace {

constexpr auto kKeepImportedIdentity =
    "UPDATE calls SET person = COALESCE(?, ''), machine = COALESCE(?, '') WHERE id = ?"_L1;

constexpr auto kSchemaResource = ":/callscope/schemas/export-format.schema.json"_L1;

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Store)
};

StoreError invalid(const QString &pointer, const QString &message)
{
    const QString where = pointer.isEmpty() ? Tr::tr("(document root)") : pointer;
    return StoreError::make(StoreError::Code::InvalidInput,
                            Tr::tr("invalid export document at %1: %2").arg(where, message),
                            pointer);
}

QString isoNow()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
}

const CompiledSchema &compiledFormatSchema()
{
    static const CompiledSchema schema =
        SchemaCompiler().compile(CallExchange::formatSchema(), QUrl(u"qrc"_s + kSchemaResource));
    return schema;
}

// Step 1 of validation: the document against the shipped JSON Schema.
StoreError checkSchema(const QJsonValue &document)
{
    const CompiledSchema &schema = compiledFormatSchema();
    if (!schema.isValid())
        return StoreError::make(
            StoreError::Code::Sql,
            Tr::tr("the export-format schema does not compile: %1").arg(schema.errorString()));
    const SchemaValidationResult result = schema.validate(document);
    if (result.valid)
        return {};
    const SchemaError &first = result.errors.constFirst();
    QString message = first.message;
    const int more = int(result.errors.size() - 1);
    if (more > 0)
        message += u' ' + Tr::tr("(and %n more problem(s))", nullptr, more);
    return invalid(first.instancePath, message);
}

QString pointer(std::initializer_list<QVariant> parts)
{
    QString p;
    for (const QVariant &part : parts) {
        if (part.typeId() == QMetaType::QString)
            p = JsonPointer::append(p, part.toString());
        else
            p = JsonPointer::append(p, qsizetype(part.toLongLong()));
    }
    return p;
}

// Step 2: what a schema cannot say. Unique ids, links inside the document that resolve,
// no parent cycles.
StoreError checkLinks(const QJsonObject &doc)
{
    const QJsonArray calls = doc.value(u"calls"_s).toArray();
    QHash<qint64, qsizetype> callIndex;
    for (qsizetype i = 0; i < calls.size(); ++i) {
        const qint64 id = calls.at(i).toObject().value(u"id"_s).toInteger();
        if (callIndex.contains(id))
            return invalid(pointer({ u"calls"_s, i, u"id"_s }),
                           Tr::tr("call id %1 appears twice (first at /calls/%2)")
                               .arg(id)
                               .arg(callIndex.value(id)));
        callIndex.insert(id, i);
    }
    for (qsizetype i = 0; i < calls.size(); ++i) {
        // Follow parents inside the document; coming back to the start is a cycle.
        QSet<qint64> seen;
        qint64 current = calls.at(i).toObject().value(u"id"_s).toInteger();
        while (true) {
            seen.insert(current);
            const QJsonValue parent =
                calls.at(callIndex.value(current)).toObject().value(u"parent"_s);
            if (!parent.isDouble() || !callIndex.contains(parent.toInteger()))
                break;
            current = parent.toInteger();
            if (seen.contains(current))
                return invalid(pointer({ u"calls"_s, i, u"parent"_s }),
                               Tr::tr("parent links form a cycle through call %1").arg(current));
        }
    }

    const QJsonArray sessions = doc.value(u"sessions"_s).toArray();
    QSet<qint64> sessionIds;
    for (qsizetype s = 0; s < sessions.size(); ++s) {
        const QJsonObject session = sessions.at(s).toObject();
        const qint64 sessionId = session.value(u"id"_s).toInteger();
        if (sessionIds.contains(sessionId))
            return invalid(pointer({ u"sessions"_s, s, u"id"_s }),
                           Tr::tr("session id %1 appears twice").arg(sessionId));
        sessionIds.insert(sessionId);

        QSet<qint64> compactionIds;
        const QJsonArray compactions = session.value(u"compactions"_s).toArray();
        for (qsizetype c = 0; c < compactions.size(); ++c) {
            const QJsonObject compaction = compactions.at(c).toObject();
            const qint64 id = compaction.value(u"id"_s).toInteger();
            if (compactionIds.contains(id))
                return invalid(pointer({ u"sessions"_s, s, u"compactions"_s, c, u"id"_s }),
                               Tr::tr("compaction id %1 appears twice").arg(id));
            compactionIds.insert(id);
            const qint64 call = compaction.value(u"call"_s).toInteger();
            if (!callIndex.contains(call))
                return invalid(pointer({ u"sessions"_s, s, u"compactions"_s, c, u"call"_s }),
                               Tr::tr("summary call %1 is not in the document's calls").arg(call));
            if (compaction.value(u"first_sequence"_s).toInteger()
                > compaction.value(u"last_sequence"_s).toInteger())
                return invalid(
                    pointer({ u"sessions"_s, s, u"compactions"_s, c, u"last_sequence"_s }),
                    Tr::tr("the range ends before it starts"));
        }

        QSet<qint64> sequences;
        const QJsonArray messages = session.value(u"messages"_s).toArray();
        for (qsizetype m = 0; m < messages.size(); ++m) {
            const QJsonObject message = messages.at(m).toObject();
            const qint64 sequence = message.value(u"sequence"_s).toInteger();
            if (sequences.contains(sequence))
                return invalid(pointer({ u"sessions"_s, s, u"messages"_s, m, u"sequence"_s }),
                               Tr::tr("sequence %1 appears twice in this session").arg(sequence));
            sequences.insert(sequence);
            const QJsonValue compactedBy = message.value(u"compacted_by"_s);
            if (compactedBy.isDouble() && !compactionIds.contains(compactedBy.toInteger()))
                return invalid(pointer({ u"sessions"_s, s, u"messages"_s, m, u"compacted_by"_s }),
                               Tr::tr("compaction %1 is not one of this session's compactions")
                                   .arg(compactedBy.toInteger()));
            if (message.value(u"message"_s).toObject().value(u"role"_s).toString().isEmpty())
                return invalid(
                    pointer({ u"sessions"_s, s, u"messages"_s, m, u"message"_s, u"role"_s }),
                    Tr::tr("a message needs a role"));
        }
    }
    return {};
}

// Orders calls so that a parent inside the set comes before its revisions (stable otherwise).
QList<CallRecord> parentsFirst(QList<CallRecord> calls)
{
    QSet<qint64> ids;
    for (const CallRecord &c : calls)
        ids.insert(c.id);
    QList<CallRecord> ordered;
    QSet<qint64> placed;
    while (!calls.isEmpty()) {
        qsizetype before = calls.size();
        for (auto it = calls.begin(); it != calls.end();) {
            if (!it->parent || !ids.contains(*it->parent) || placed.contains(*it->parent)) {
                placed.insert(it->id);
                ordered.append(*it);
                it = calls.erase(it);
            } else {
                ++it;
            }
        }
        if (calls.size() == before) { // a cycle (never stored by CallStore): keep the rest as is
            ordered.append(calls);
            break;
        }
    }
    return ordered;
}

} // namespace

CallExchange::CallExchange(CallStore &store)
    : m_store(store)
{ }

QJsonObject CallExchange::formatSchema()
{
    initExportResources();
    QFile file(kSchemaResource);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

StoreError CallExchange::validateDocument(const QJsonValue &document)
{
    if (!document.isObject())
        return invalid(QString(), Tr::tr("expected a JSON object"));
    const QJsonObject doc = document.toObject();
    // Give the two most likely mistakes a plain message before the schema's list.
    if (doc.value(u"format"_s).toString() != kFormatName)
        return invalid(u"/format"_s,
                       Tr::tr("not a Callscope export (format must be \"%1\")").arg(kFormatName));
    if (doc.value(u"version"_s).toInteger() != kFormatVersion)
        return invalid(u"/version"_s,
                       Tr::tr("export format version %1 is not supported (this "
                              "Callscope reads version %2)")
                           .arg(doc.value(u"version"_s).toVariant().toString())
                           .arg(kFormatVersion));
    if (StoreError error = checkSchema(document); error)
        return error;
    return checkLinks(doc);
}

StoreResult<QJsonObject> CallExchange::exportRows(const QList<qint64> &callIds,
                                                  const QList<qint64> &sessionIds)
{
    QList<CallRecord> records;
    QSet<qint64> seen;
    for (qint64 id : callIds) {
        if (seen.contains(id))
            continue;
        seen.insert(id);
        auto record = m_store.getCall(id);
        if (!record)
            return record.error();
        records.append(*record);
    }
    QJsonArray calls;
    for (const CallRecord &record : parentsFirst(records))
        calls.append(record.toJson());

    QJsonArray sessions;
    for (qint64 sessionId : sessionIds) {
        const auto session = m_store.getSession(sessionId);
        if (!session)
            return session.error();
        const auto messages = m_store.sessionMessages(sessionId, CallStore::MessageView::All);
        if (!messages)
            return messages.error();
        const auto compactions = m_store.compactions(sessionId);
        if (!compactions)
            return compactions.error();
        QJsonObject object = session->toJson();
        QJsonArray messageArray;
        for (const SessionMessage &m : *messages)
            messageArray.append(m.toJson());
        QJsonArray compactionArray;
        for (const Compaction &c : *compactions) {
            QJsonObject o = c.toJson();
            o.remove(u"session"_s); // implied by the enclosing session
            compactionArray.append(o);
        }
        object.insert(u"messages"_s, messageArray);
        object.insert(u"compactions"_s, compactionArray);
        sessions.append(object);
    }
    return QJsonObject { { u"format"_s, QString(kFormatName) },
                         { u"version"_s, kFormatVersion },
                         { u"exported_at"_s, isoNow() },
                         { u"calls"_s, calls },
                         { u"sessions"_s, sessions } };
}

StoreResult<QJsonObject> CallExchange::exportCalls(const QList<qint64> &ids)
{
    return exportRows(ids, {});
}

StoreResult<QJsonObject> CallExchange::exportRevisionTree(qint64 id)
{
    const auto tree = m_store.revisionTree(id);
    if (!tree)
        return tree.error();
    QList<qint64> ids;
    for (const HistoryRow &row : *tree)
        ids.append(row.id);
    return exportRows(ids, {});
}

StoreResult<QJsonObject> CallExchange::exportSession(qint64 sessionId)
{
    const auto calls = m_store.sessionCalls(sessionId);
    if (!calls)
        return calls.error();
    QList<qint64> ids;
    for (const HistoryRow &row : *calls)
        ids.append(row.id);
    return exportRows(ids, { sessionId });
}

StoreResult<CallExchange::ImportResult> CallExchange::importDocument(const QJsonValue &document)
{
    if (StoreError error = validateDocument(document); error)
        return error;
    const QJsonObject doc = document.toObject();
    ImportResult result;

    Transaction transaction(m_store.database());
    if (transaction.beginError())
        return transaction.beginError();

    // A row whose UUID this history already holds was imported (or made) before: it keeps
    // its row, and links to it go there. So importing a document twice stores it once.
    const QJsonArray sessions = doc.value(u"sessions"_s).toArray();
    QSet<qint64> presentSessions;
    for (const QJsonValue &value : sessions) {
        const Session session = Session::fromJson(value.toObject());
        const auto present = m_store.findSessionByUuid(session.uuid);
        if (!present)
            return present.error();
        if (*present > 0) {
            presentSessions.insert(*present);
            ++result.sessionsAlreadyPresent;
        }
        const auto id = *present > 0 ? present : m_store.insertSessionRow(session);
        if (!id)
            return id.error();
        result.sessionIds.append(*id);
        result.sessionIdMap.insert(session.id, *id);
    }

    QList<CallRecord> records;
    QHash<qint64, qsizetype> documentIndex;
    const QJsonArray calls = doc.value(u"calls"_s).toArray();
    for (qsizetype i = 0; i < calls.size(); ++i) {
        records.append(CallRecord::fromJson(calls.at(i).toObject()));
        documentIndex.insert(records.constLast().id, i);
    }
    QHash<qint64, qint64> newIds;
    for (CallRecord record : parentsFirst(records)) {
        const qint64 oldId = record.id;
        record.parent = (record.parent && newIds.contains(*record.parent))
            ? std::optional<qint64>(newIds.value(*record.parent))
            : std::nullopt;
        if (record.session && result.sessionIdMap.contains(*record.session)) {
            record.session = result.sessionIdMap.value(*record.session);
        } else {
            record.session.reset();
            record.firstSequence.reset();
            record.lastSequence.reset();
        }
        const auto present = m_store.findCallByUuid(record.uuid);
        if (!present)
            return present.error();
        if (*present > 0) {
            ++result.callsAlreadyPresent;
            newIds.insert(oldId, *present);
            continue;
        }
        const auto id = m_store.insertCallRow(record);
        if (!id) {
            StoreError error = id.error();
            error.pointer = pointer({ u"calls"_s, documentIndex.value(oldId) });
            error.message = Tr::tr("cannot import %1: %2").arg(error.pointer, error.message);
            return error;
        }
        // An imported call was made by whoever the document names, not by the person who
        // imports it: a document that names nobody (an older export) leaves them unknown.
        if (record.person.isEmpty() || record.machine.isEmpty()) {
            auto kept = runQuery(m_store.database(), kKeepImportedIdentity,
                                 { record.person, record.machine, *id },
                                 Tr::tr("importing call %1").arg(oldId));
            if (!kept)
                return kept.error();
        }
        newIds.insert(oldId, *id);
    }
    for (const CallRecord &record : std::as_const(records))
        result.callIds.append(newIds.value(record.id));
    result.callIdMap = newIds;

    for (qsizetype s = 0; s < sessions.size(); ++s) {
        const QJsonObject session = sessions.at(s).toObject();
        const qint64 sessionId = result.sessionIds.at(s);
        if (presentSessions.contains(sessionId))
            continue; // its messages and compactions are there already
        QHash<qint64, qint64> compactionIds;
        for (const QJsonValue &value : session.value(u"compactions"_s).toArray()) {
            const QJsonObject o = value.toObject();
            Compaction c;
            c.sessionId = sessionId;
            c.callId = newIds.value(o.value(u"call"_s).toInteger());
            c.firstSequence = o.value(u"first_sequence"_s).toInteger();
            c.lastSequence = o.value(u"last_sequence"_s).toInteger();
            c.summary = o.value(u"summary"_s).toString();
            c.createdAt =
                QDateTime::fromString(o.value(u"created_at"_s).toString(), Qt::ISODateWithMs);
            const auto id = m_store.insertCompactionRow(c);
            if (!id)
                return id.error();
            compactionIds.insert(o.value(u"id"_s).toInteger(), *id);
        }
        for (const QJsonValue &value : session.value(u"messages"_s).toArray()) {
            SessionMessage m = SessionMessage::fromJson(value.toObject());
            m.isSummary = false;
            if (m.compactedBy)
                m.compactedBy = compactionIds.value(*m.compactedBy);
            if (StoreError error = m_store.insertMessageRow(sessionId, m); error)
                return error;
        }
    }

    if (StoreError error = transaction.commit(); error)
        return error;
    return result;
}

} // namespace Callscope
