#pragma once

// CallJob: one call from "asked for" to "stored". CallService makes
// them; each job has its own runner, its own events and its own cancel, so a view follows
// exactly the jobs it started and never filters anyone else's.
//
// Life of a job: resolved (LaunchResolver::check: profile, trust, engine and tools; a failed
// check ends it at once) -> Queued (waiting for the scheduler: global and per-engine limits) ->
// Starting (the session's turn, a compaction job first when the session's policy asks for one,
// the conversation so far, key and client by LaunchResolver::connect, toolkits) -> Running (the
// runner's tool loop; its requests pass the engine's lane, which adapts to rate limits) ->
// Finished, after the call was stored.
// `finished` is emitted exactly once on every path, after the call was written (one
// transaction, through the store writer); the service deletes the job later from the event
// loop, so hold it in a QPointer.
//
// cancel() works in every state: a queued or starting job is stored as a cancelled call with
// no turns, a running one stops its runner (the call is stored as cancelled with what it did).

#include "core/service/callservice.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>

class QNetworkAccessManager;

namespace Callscope {

class KeyResolver;
class ModelClient;
class ToolRegistry;

class CallJob final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CallJob)

public:
    enum class Kind { Run, Revision, Rerun, SessionTurn, Compaction };
    Q_ENUM(Kind)
    enum class State { Queued, Starting, Running, Finished };
    Q_ENUM(State)

    ~CallJob() override;

    quint64 id() const { return m_id; }
    Kind kind() const { return m_kind; }
    State state() const { return m_state; }
    bool isFinished() const { return m_state == State::Finished; }
    // A short label for lists of jobs ("planner on openai gpt-4o").
    QString title() const;
    QString engineKey() const { return m_engineKey; }
    const LaunchRequest &request() const { return m_request; }
    Runner *runner() const { return m_runner; }
    // Valid once finished.
    const LaunchResult &result() const { return m_result; }
    // Set for compaction jobs once finished.
    const CompactionOutcome &compaction() const { return m_compaction; }
    qint64 elapsedMs() const { return m_clock.isValid() ? m_clock.elapsed() : 0; }

    void cancel();

Q_SIGNALS:
    void stateChanged(Callscope::CallJob::State state);
    void runnerCreated(Callscope::Runner *runner);
    // The run stopped and waits for a person (breakpoint, approval, manual result).
    void attentionNeeded(Callscope::CallJob *job);
    void retryScheduled(int attempt, qint64 delayMs, const Callscope::ApiError &reason);
    // A session turn folded older messages first (compaction by policy), or a compaction job
    // ended: ok with the summary call's id, or why not.
    void compactionFinished(qint64 sessionId, bool ok, const QString &message, qint64 callId);
    void finished(const Callscope::LaunchResult &result);

private:
    friend class CallService;
    CallJob(CallService *service, Kind kind, const LaunchRequest &request, quint64 id);

    // Compaction jobs: what to fold, planned when the job starts.
    struct CompactionTask
    {
        qint64 sessionId = 0;
        int keepRecent = 6;
        Spec engineFrom;
    };

    // The steps of a call, in the order they run (calljob.cpp reads the same way).
    void start(); // resolve: the check, unless the request was checked already
    void schedule(); // wait for the scheduler (global and per-engine limits)
    void begin(); // admitted: the session's turn, then what the call needs first
    void withSession(std::function<void()> next);
    void prepareTurn(); // a session turn: compaction first when the policy asks for it
    void compactFirst();
    void planCompaction(); // a compaction job: what folds, then the summary call
    void foldSession(const QList<SessionMessage> &stored, const Session &session);
    void loadConversation(); // the session's or the revised call's messages
    void connectEngine(); // key and client (LaunchResolver::connect)
    void runLoop(ModelClient *client);
    void onRunnerFinished(const CallRecord &record);
    void storeCompaction(const CallRecord &record);
    void storeAndFinish(const CallRecord &record, const QList<SessionMessage> &sessionMessages);
    // Ends before or instead of the loop.
    void fail(ErrorCategory category, const QString &message);
    void finishCancelledBeforeStart();
    void emitFinished(const LaunchResult &result);
    void releaseSlot();
    void cleanUp();
    void setState(State state);
    CallRecord baseRecord() const;

    QPointer<CallService> m_service;
    const quint64 m_id;
    const Kind m_kind;
    LaunchRequest m_request;
    std::optional<CompactionTask> m_compactionTask;
    bool m_checked = false; // the request passed LaunchResolver::check() already
    bool m_underTurn = false; // a compaction inside a session turn: the turn's place and claim
    State m_state = State::Queued;
    QString m_engineKey;
    std::optional<quint64> m_slot;
    bool m_cancelRequested = false;
    bool m_storing = false; // the record went to the writer; finished follows
    bool m_finishEmitted = false;
    bool m_holdsSession = false; // this job has its session's turn (see claimSession)
    bool m_waitingForSession = false;
    qint64 m_claimedSession = 0;
    QString m_networkKey; // scheme, host and port the job's requests go to
    QElapsedTimer m_clock;

    QList<Message> m_prior;
    QPointer<Runner> m_runner;
    QPointer<ModelClient> m_client;
    QPointer<QNetworkAccessManager>
        m_network; // taken from the service's pool, given back at the end
    QPointer<ToolRegistry> m_tools;
    QPointer<CallJob> m_child; // a compaction run before a session turn
    QPointer<GeminiContentCache> m_ownCache; // a lone call's explicit cache (a child)
    bool m_releasingCache = false; // its entries are being deleted; finished follows
    LaunchResult m_result;
    CompactionOutcome m_compaction;
};

} // namespace Callscope
