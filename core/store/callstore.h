#pragma once

// The call history: call rows with their turns and attempts, revision links, sessions with
// their messages and compactions, and the history queries the GUI and the CLI page through.
//
// Every write is one transaction: a call row, its turns, its attempts, its search entry and
// the session messages it adds are all written or none is. Nothing here stores a key: a
// CallRecord carries none, and the stored spec is passed through stripSecrets() anyway.

#include "core/model/callrecord.h"
#include "core/model/message.h"
#include "core/store/database.h"
#include "core/store/storeerror.h"

#include <QDateTime>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <unordered_map>

class QSqlQuery;

namespace Callscope {

// Keyset position in the history order (newest first: created_at DESC, id DESC).
struct HistoryCursor
{
    qint64 createdMs = 0;
    qint64 id = 0;

    QString toString() const; // "createdMs:id", for scripts and the GUI to hand back
    static std::optional<HistoryCursor> fromString(QStringView text);
    friend bool operator==(const HistoryCursor &, const HistoryCursor &) = default;
};

// Filters of a history page; empty/unset fields do not filter.
//
// Pages are newest first: by (created_at, id). A full-text search page (FTS5) is ordered by
// id instead, the order calls were stored: the same order except for imported calls and
// calls that overlapped in time, and it lets SQLite stop after one page of matches instead
// of sorting every match (a common word matches most of a million rows). Either way, pass
// the page's `next` cursor back as `after` for the following page.
struct HistoryQuery
{
    QString kind;
    std::optional<CallStatus> status;
    QString engineType;
    QString model;
    QString person; // who made the call (exact name)
    QDateTime from; // created_at >= from (when valid)
    QDateTime to; // created_at < to (when valid)
    std::optional<qint64> parent; // direct revisions of this call
    std::optional<qint64> session; // calls of this session
    QString search; // words that must all occur in input/output/tools
    int limit = 50; // 1..10000; other values mean 50
    int offset = 0; // rows to skip (prefer `after` for deep pages)
    std::optional<HistoryCursor> after; // keyset paging: rows strictly after this position
};

// A light history row: no transcript, no JSON bodies.
struct HistoryRow
{
    qint64 id = 0;
    QString kind;
    CallStatus status = CallStatus::Running;
    QString engineType;
    QString model;
    Usage usage;
    ErrorCategory errorCategory = ErrorCategory::None;
    QDateTime createdAt;
    QDateTime finishedAt; // invalid while running
    std::optional<qint64> parent;
    std::optional<qint64> session;
    QString inputPreview; // the first 200 characters of the input text
    QString person; // who made the call; empty for calls stored before it was recorded
    QString machine;
    int turnCount = 0;
    int attemptCount = 0;
    int revisionCount = 0; // direct revisions (rows whose parent is this one)

    qint64 durationMs() const; // -1 while running
    HistoryCursor cursor() const;
    QJsonObject toJson() const;
};

struct HistoryPage
{
    QList<HistoryRow> rows;
    std::optional<HistoryCursor> next; // set when the page was full
};

struct Session
{
    qint64 id = 0;
    QString title;
    QString systemPrompt;
    QDateTime createdAt;
    QString summary; // the current rolling summary (latest compaction)
    std::optional<qint64> summaryThrough; // last sequence the summary covers
    QJsonObject metadata;
    QString uuid; // given by the store when empty; export and import keep it

    QJsonObject toJson() const;
    static Session fromJson(const QJsonObject &object);
};

// One message of a session.
struct SessionMessage
{
    qint64 sequence = 0; // assigned by the store (1, 2, ...)
    Message message;
    // false for the accepted-output copy of a structured turn: shown, never sent to the model.
    bool sendToModel = true;
    std::optional<qint64> compactedBy; // compaction that folded this message
    QDateTime createdAt;
    // Only in MessageView::ForModel: this entry stands for a compaction's summary
    // (message is a user message holding the summary text; sequence is the range's first).
    bool isSummary = false;

    QJsonObject toJson() const;
    static SessionMessage fromJson(const QJsonObject &object);
};

// A compaction: a summary call (kind `compaction`) folding a range of a session's messages.
struct Compaction
{
    qint64 id = 0;
    qint64 sessionId = 0;
    qint64 callId = 0;
    qint64 firstSequence = 0;
    qint64 lastSequence = 0;
    QString summary;
    QDateTime createdAt;

    QJsonObject toJson() const;
};

struct SequenceSpan
{
    qint64 first = 0;
    qint64 last = 0;
};

// A call that answers one line of a stored batch (written with the call, in its transaction).
struct BatchLink
{
    qint64 batchId = 0;
    int line = 0;
};

struct InsertOptions
{
    std::optional<BatchLink> batch;
};

// A stored `callscope-cli batch` run: what it ran, on which inputs file.
struct BatchInfo
{
    qint64 id = 0;
    QString specPath; // absolute
    QByteArray specHash; // SHA-256 (hex) of the spec as stored (secrets stripped)
    QJsonObject spec;
    QString inputsPath; // absolute
    QByteArray inputsHash; // SHA-256 (hex) of the inputs file's bytes
    int totalLines = 0; // input lines that hold an input
    QDateTime createdAt;
};

// A stored experiment (callscope-cli eval): what it was when it started.
struct ExperimentRecord
{
    qint64 id = 0;
    QString name;
    QString path; // the experiment file, absolute (empty when inline)
    QByteArray definitionHash; // SHA-256 (hex) of the definition, compact JSON
    QJsonObject definition;
    QDateTime createdAt;
};

// One run of an experiment: a case in a variant, one repeat, and how its checks went.
struct ExperimentRunRecord
{
    qint64 id = 0;
    qint64 experimentId = 0;
    QString caseId;
    QString variant;
    int repeat = 0; // 0-based
    std::optional<qint64> callId; // the stored call (none when the call could not start)
    QString status; // the call's status, or "invalid_input" / "not_started"
    bool passed = false;
    QJsonArray assertions; // [{"type", "name", "passed", "reason"}]
    qint64 latencyMs = 0;
    qint64 inputTokens = 0; // uncached prompt tokens
    qint64 outputTokens = 0;
    qint64 cacheReadTokens = 0;
    qint64 cacheWriteTokens = 0;
    std::optional<double> costUsd; // none: the model has no price
    // Through a provider batch API: what the run would have cost at direct prices.
    std::optional<double> directCostUsd;
    // Every model request of the run was answered from the response cache (no request sent).
    bool cached = false;
    // What the requests answered from the response cache would have cost (none: no price, or none
    // cached).
    std::optional<double> cacheSavedUsd;
    // What the run would have cost with no prompt cache (same batch or direct prices).
    std::optional<double> uncachedCostUsd;
    // Given by the store (a new UUID, this person and machine) when the run is first saved.
    QString uuid;
    QString person;
    QString machine;
};

// A person's label of one run of an experiment (the review queue): their verdict, a score from
// 1 to 5 if they gave one, a note, and who they are. One label per run and reviewer: labelling
// the same run again replaces it.
struct ReviewLabel
{
    qint64 id = 0;
    qint64 experimentId = 0;
    std::optional<qint64> runId;
    std::optional<qint64> callId;
    QString caseId;
    QString variant;
    int repeat = 0; // 0-based
    QString verdict; // "pass", "fail" or "skip"
    std::optional<int> score; // 1..5
    QString note;
    QString reviewer;
    QDateTime createdAt;
};

// What checkIntegrity() found; `problems` is empty when the database is consistent.
struct IntegrityReport
{
    QStringList problems;
    bool ok() const { return problems.isEmpty(); }
};

class CallStore
{
public:
    // `database` must outlive the store.
    explicit CallStore(Database &database);
    ~CallStore();
    Q_DISABLE_COPY_MOVE(CallStore)

    Database &database() { return m_database; }

    // ---- calls ----------------------------------------------------------------------------
    // Inserts a call (record.id is ignored) with its turns and attempts. When
    // `sessionMessages` is not empty they are appended to record.session in the same
    // transaction and the call's first/last sequence are set to their span. An unset
    // createdAt becomes now. Returns the new id.
    StoreResult<qint64> insertCall(const CallRecord &record,
                                   const QList<SessionMessage> &sessionMessages = {},
                                   const InsertOptions &options = {},
                                   SequenceSpan *spanOut = nullptr);
    // Replaces every field of the stored call record.id (finishing a running call): the row,
    // its turns and attempts, its search entry, and appends `sessionMessages` as above.
    // Inserts many calls in one transaction (bulk loads, benchmarks); ids in input order.
    StoreResult<QList<qint64>> insertCalls(const QList<CallRecord> &records);
    StoreError updateCall(const CallRecord &record,
                          const QList<SessionMessage> &sessionMessages = {});
    // The call without its raw exchanges (record.exchanges stays empty): those are read apart.
    StoreResult<CallRecord> getCall(qint64 id);
    // The raw HTTP exchanges of a call, in the order made; empty for calls stored before they
    // were kept (schema version 6) and for calls that made no request.
    StoreResult<QList<TurnExchange>> exchanges(qint64 id);
    StoreResult<bool> callExists(qint64 id);
    // The local id of the call with this UUID; 0 when there is none.
    StoreResult<qint64> findCallByUuid(const QString &uuid);
    // The newest call made before `id` of the same kind on the same engine type and model (and,
    // for an experiment's call, of the same variant): what a prompt cache would have held.
    StoreResult<std::optional<qint64>> previousSimilarCall(qint64 id);
    // The call an import stored from recovery-file entry `entry` (metadata "recovery_entry"),
    // created at `createdAt`; 0 when there is none.
    StoreResult<qint64> findRecoveredCall(const QString &entry, const QDateTime &createdAt);

    // ---- revisions ------------------------------------------------------------------------
    StoreResult<QList<HistoryRow>> children(qint64 id); // direct revisions, oldest first
    StoreResult<qint64> revisionRoot(qint64 id); // follows parent links up
    // `rootId` and every call below it through parent links, parents before children.
    StoreResult<QList<HistoryRow>> revisionTree(qint64 rootId);

    // ---- history --------------------------------------------------------------------------
    StoreResult<HistoryPage> listCalls(const HistoryQuery &query);

    // ---- sessions -------------------------------------------------------------------------
    // Creates a session (session.id ignored; createdAt now when unset). Returns the id.
    StoreResult<qint64> createSession(const Session &session);
    // The local id of the session with this UUID; 0 when there is none.
    StoreResult<qint64> findSessionByUuid(const QString &uuid);
    StoreResult<Session> getSession(qint64 id);
    StoreResult<QList<Session>> listSessions();
    // Sets a session's title (nothing else changes). NotFound when there is no such session.
    StoreError renameSession(qint64 id, const QString &title);
    // Appends messages (their sequence fields are ignored) in one transaction.
    StoreResult<SequenceSpan> appendMessages(qint64 sessionId,
                                             const QList<SessionMessage> &messages);

    enum class MessageView {
        All, // every stored message, in sequence order
        ForModel, // what the next request carries: no send_to_model=false copies, and each
                  // compacted range replaced by its compaction's summary (isSummary = true)
    };
    StoreResult<QList<SessionMessage>> sessionMessages(qint64 sessionId,
                                                       MessageView view = MessageView::All);
    // The ForModel view as plain messages.
    StoreResult<QList<Message>> modelMessages(qint64 sessionId);
    // session.structured_calls: the session's calls, oldest first.
    StoreResult<QList<HistoryRow>> sessionCalls(qint64 sessionId);

    // Stores a compaction in one transaction: the summary call (its kind should be
    // `compaction`; session is set to sessionId), the compaction row, the compacted_by mark
    // on messages [first, last], and the session's current summary. Messages are never deleted.
    StoreResult<Compaction> recordCompaction(qint64 sessionId, const CallRecord &summaryCall,
                                             qint64 firstSequence, qint64 lastSequence,
                                             const QString &summary);
    StoreResult<QList<Compaction>> compactions(qint64 sessionId);

    // ---- batches --------------------------------------------------------------------------
    StoreResult<qint64> createBatch(const BatchInfo &batch);
    // The newest batch of this spec file and inputs file; nullopt when there is none.
    StoreResult<std::optional<BatchInfo>> latestBatch(const QString &specPath,
                                                      const QString &inputsPath);
    // line -> id of its completed call (the newest one, should there be more).
    StoreResult<QHash<int, qint64>> batchCompletedLines(qint64 batchId);

    // ---- experiments ----------------------------------------------------------------------
    StoreResult<qint64> createExperiment(const ExperimentRecord &experiment);
    StoreResult<std::optional<ExperimentRecord>> getExperiment(qint64 id);
    // The experiments stored with this definition hash, newest first.
    StoreResult<QList<ExperimentRecord>> findExperiments(const QByteArray &definitionHash);
    // The newest experiment of this name stored before the one with id `before` (0: any).
    StoreResult<std::optional<qint64>> latestExperimentNamed(const QString &name,
                                                             qint64 before = 0);
    // Inserts or replaces the run of (experiment, case, variant, repeat); returns its id.
    StoreResult<qint64> saveExperimentRun(const ExperimentRunRecord &run);
    StoreResult<QList<ExperimentRunRecord>> experimentRuns(qint64 experimentId);
    // The completed calls of an experiment's runs (not its judges), by their metadata, made
    // since `since` (the experiment's start: an index range, not a scan of the history).
    struct ExperimentCall
    {
        qint64 callId = 0;
        QString caseId;
        QString variant;
        int repeat = 0;
    };
    StoreResult<QList<ExperimentCall>> experimentCompletedCalls(qint64 experimentId,
                                                                const QDateTime &since);
    // The completed judge calls of an experiment (metadata "judge_of", the judged call, and
    // "judge_key", which judge assertion), made since `since`, with their verdicts.
    struct JudgeCall
    {
        qint64 callId = 0;
        qint64 judgedCallId = 0;
        QString judgeKey;
        QJsonValue response;
    };
    StoreResult<QList<JudgeCall>> experimentJudgeCalls(qint64 experimentId, const QDateTime &since);

    // ---- review labels (people's verdicts on an experiment's runs) ------------------------
    // Inserts the label, or replaces the one the reviewer gave the same run; returns its id.
    // An unset createdAt becomes now.
    StoreResult<qint64> saveReviewLabel(const ReviewLabel &label);
    // Removes the reviewer's label of a run (undo); no error when there is none.
    StoreError deleteReviewLabel(qint64 experimentId, const QString &caseId, const QString &variant,
                                 int repeat, const QString &reviewer);
    // Every label of the experiment, oldest first.
    StoreResult<QList<ReviewLabel>> reviewLabels(qint64 experimentId);

    // ---- what this store object made -------------------------------------------------------
    // The experiments, batches and sessions created through this object (in this process), as
    // stored: the rows a local queue copies with the same ids when the server they were made
    // on goes away in the middle of a run (core/store/historyqueue.h).
    struct CreatedRows
    {
        QList<ExperimentRecord> experiments;
        QList<BatchInfo> batches;
        QList<Session> sessions;
    };
    const CreatedRows &createdRows() const { return m_created; }

    // ---- checks ---------------------------------------------------------------------------
    // Read-only consistency check (crash tests, support): SQLite's integrity_check and
    // foreign_key_check, every call has exactly turn_count turns and attempt_count attempts,
    // and every session call's sequence span is fully present in its session.
    StoreResult<IntegrityReport> checkIntegrity();

    // ---- secrets --------------------------------------------------------------------------
    // A copy of a spec without anything that looks like a credential: object keys such as
    // api_key, authorization, password, secret, *_token (case and '-'/'_' ignored) are
    // dropped. Schemas, mock results and pre-seed arguments are user content and kept as is.
    static QJsonObject stripSecrets(const QJsonObject &spec);

private:
    friend class CallExchange;

    // Building blocks that run inside the caller's transaction.
    StoreResult<qint64> insertCallRow(const CallRecord &record);
    StoreError updateCallRow(const CallRecord &record);
    StoreError writeChildren(qint64 id, const CallRecord &record);
    StoreResult<SequenceSpan> appendMessagesRows(qint64 sessionId,
                                                 const QList<SessionMessage> &messages);
    StoreError insertMessageRow(qint64 sessionId, const SessionMessage &message);
    StoreResult<qint64> insertSessionRow(const Session &session);
    StoreResult<qint64> insertCompactionRow(const Compaction &compaction);
    StoreResult<QList<HistoryRow>> rowsFor(QLatin1StringView sql, const QVariantList &values);
    // Write statements are prepared once and reused (a bulk import prepares nothing per row).
    QSqlQuery &statement(QLatin1StringView sql);
    // An INSERT of a row with an id, prepared once; after exec() the new id is insertedId().
    QSqlQuery &insertStatement(QLatin1StringView sql);
    qint64 insertedId(QSqlQuery &statement);

    Database &m_database;
    std::unordered_map<const char *, std::unique_ptr<QSqlQuery>> m_statements;
    CreatedRows m_created;
};

} // namespace Callscope
