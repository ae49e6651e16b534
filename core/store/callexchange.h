#pragma once

// Export and import of calls and sessions.
//
// An export is one JSON document:
//   {"format": "callscope-export", "version": 1, "exported_at": "...",
//    "calls": [every stored field of each call, parents before revisions],
//    "sessions": [{..., "messages": [...], "compactions": [...]}]}
// described by resources/schemas/export-format.schema.json (":/callscope/schemas/...").
//
// An import validates the whole document first (the JSON Schema with the team's validator,
// then the links between rows), then re-creates every row in one transaction with new ids
// (a call or session whose UUID is already in the history is not stored again: an import is
// idempotent, and links to such a row go to the one already there),
// rewriting parent, session, compaction and compacted_by links to them. A link to a row that
// is not in the document (the parent of an exported revision, the session of a lone call) is
// dropped. Anything wrong refuses the whole document with the JSON Pointer of the first
// problem, and nothing is written.

#include "core/store/callstore.h"
#include "core/store/storeerror.h"

#include <QHash>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>

namespace Callscope {

class CallExchange
{
public:
    static constexpr QLatin1StringView kFormatName { "callscope-export" };
    static constexpr int kFormatVersion = 1;

    explicit CallExchange(CallStore &store);
    Q_DISABLE_COPY_MOVE(CallExchange)

    // Exactly these calls (duplicates ignored), parents before their revisions.
    StoreResult<QJsonObject> exportCalls(const QList<qint64> &ids);
    // `id` and every revision below it.
    StoreResult<QJsonObject> exportRevisionTree(qint64 id);
    // The session with its messages and compactions, and every call of the session.
    StoreResult<QJsonObject> exportSession(qint64 sessionId);

    struct ImportResult
    {
        QList<qint64> callIds; // ids in this history, in document order
        QList<qint64> sessionIds; // ids in this history, in document order
        QHash<qint64, qint64> callIdMap; // document id -> new id
        QHash<qint64, qint64> sessionIdMap;
        // Rows whose UUID the history already held: not stored again (their ids above are
        // the ones already there).
        int callsAlreadyPresent = 0;
        int sessionsAlreadyPresent = 0;
    };
    StoreResult<ImportResult> importDocument(const QJsonValue &document);

    // The checks an import runs before writing: the JSON Schema, then unique ids and links
    // that resolve. The error's `pointer` names the first offending place.
    static StoreError validateDocument(const QJsonValue &document);
    // The export-format schema shipped in the resources.
    static QJsonObject formatSchema();

private:
    StoreResult<QJsonObject> exportRows(const QList<qint64> &callIds,
                                        const QList<qint64> &sessionIds);

    CallStore &m_store;
};

} // namespace Callscope
