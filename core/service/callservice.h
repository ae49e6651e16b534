#pragma once

// CallService: the one place that turns "run this spec on this input" into a stored call. It
// makes a CallJob per call (core/service/calljob.h); a job is checked and connected to its
// engine by the LaunchResolver (core/service/launchresolver.h: profile, trust, preflight, key,
// client), builds the toolkits, applies the context budget to every request, drives a Runner,
// and has the finished call (and its session messages) written in one transaction.
// The GUI and the CLI both go through it, so a call behaves the same from either front end.

#include "core/engines/enginecodec.h"
#include "core/engines/geminicontentcache.h"
#include "core/loop/runner.h"
#include "core/model/callrecord.h"
#include "core/model/spec.h"
#include "core/service/launchresolver.h"
#include "core/store/callstore.h"
#include "core/store/storewriter.h"
#include "core/tools/mcptoolkit.h"

#include <QHash>
#include <QObject>
#include <QPointer>

#include <memory>

class QNetworkAccessManager;

namespace Callscope {

class CallStore;
class CredentialStore;
class ProfileStore;
class ToolRegistry;
class TrustStore;

struct LaunchResult
{
    CallRecord record; // id set when stored
    bool stored = false;
    // Stored in the local queue of a history server that could not be reached, not on the
    // server yet (record.id is the queue's; core/store/historyqueue.h).
    bool queued = false;
    QString storeError; // why the call could not be stored
    bool storeFatal = false; // that failure will recur (full disk, damaged file): stop
    bool recovered = false; // not stored, kept in the recovery file for the next run
    // A request went out (a reply may have been paid for) and the call is not in the history.
    bool unstoredReply() const
    {
        return !storeError.isEmpty()
            && (record.status == CallStatus::Completed || !record.attempts.isEmpty());
    }
    bool startFailed = false; // the call never started (bad engine, missing key)
    // The Gemini explicit cache entries this call made for itself (deleted when it ended) and
    // what went wrong with them; empty when it named a batch's or an experiment's.
    QList<ExplicitCacheEntry> explicitCaches;
    QStringList cacheNotices;
};

// How a compaction ended: ok with the summary call's id (0: nothing to fold), or why not.
struct CompactionOutcome
{
    bool ok = false;
    QString message;
    qint64 callId = 0;
};

class CallJob;
class Scheduler;
class StoreWriter;

// The factory of jobs: every call, from any front end, is a CallJob made here. The service
// holds any number of them at once; its Scheduler decides when each may start and how many
// requests each engine gets. It also writes every finished call through one StoreWriter.
class CallService final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CallService)

public:
    // Nothing is owned; `store`, `credentials` and `profiles` may be null (no history, no
    // keychain). They must outlive the service.
    CallService(QNetworkAccessManager *nam, CallStore *store, CredentialStore *credentials,
                ProfileStore *profiles, QObject *parent = nullptr);
    ~CallService() override;

    // Whether `request` can start: the profile merged in, where its key may go, trust, the
    // engine and the tools (core/service/launchresolver.h). Nothing is read from the keychain,
    // started or sent. Front ends that show the answer before a launch pass it to launch().
    LaunchCheck check(const LaunchRequest &request) const { return m_resolver.check(request); }

    // Every method returns the job at once; its signals follow from the event loop (connect
    // before returning to it). `finished` comes exactly once, also when the call could not
    // start. The request is checked first (check()); a failed check ends the call unstored.
    CallJob *launch(const LaunchRequest &request);
    // The request of a check() already made (not made again); a failed check ends the call
    // with its message.
    CallJob *launch(const LaunchCheck &checked);
    // A revision: the parent's conversation plus `correction`, on the parent's spec and engine
    // type (or on `engine` when given: a revision of a replayed call needs a live engine),
    // linked by parent (and in the parent's session when it had one).
    // A revision that would run on the replay engine fails at once with a message that says so
    // (a recording answers the same whatever the correction says).
    CallJob *revise(qint64 callId, const QString &correction, const RunOptions &options = {},
                    const std::optional<EngineSpec> &engine = std::nullopt);
    // The same on a parent already read (the studio reads it off the GUI thread).
    CallJob *revise(const CallRecord &parent, const QString &correction,
                    const RunOptions &options = {},
                    const std::optional<EngineSpec> &engine = std::nullopt);
    // True when revising `call` (on `engine`, when given) would run on the replay engine.
    static bool revisionNeedsLiveEngine(const CallRecord &call,
                                        const std::optional<EngineSpec> &engine = std::nullopt);
    // Runs a recorded call's input again with `spec` (another engine, an edited spec) as a new
    // call whose parent is the original; its metadata says `rerun_of`.
    CallJob *rerun(qint64 callId, const Spec &spec, const RunOptions &options = {});
    // The same with the answer of a check() already made on the new spec and options.
    CallJob *rerun(qint64 callId, const LaunchCheck &checked);
    // The same on an original already read (the studio reads it off the GUI thread).
    CallJob *rerun(const CallRecord &original, const Spec &spec, const RunOptions &options = {});
    CallJob *rerun(const CallRecord &original, const LaunchCheck &checked);
    // Folds all but the newest `keepRecent` model-visible messages of a session into a summary
    // made on `engineFrom`'s engine (a call of kind `compaction`). Message rows are never
    // deleted. The job's compactionFinished, then finished, follow.
    CallJob *compact(qint64 sessionId, int keepRecent, const Spec &engineFrom);

    // Jobs not finished yet, oldest first.
    QList<CallJob *> jobs() const;
    int activeJobs() const { return int(m_jobs.size()); }
    void cancelAll();

    Scheduler *scheduler() const { return m_scheduler; }
    // Reads the limits from QSettings ("scheduler/global_limit", "scheduler/engine_limit")
    // and the engine profiles' max_in_flight.
    void loadLimitsFromSettings();

    // Settings for HTTP engines built by this service (timeouts), and for tests.
    void setInactivityTimeoutMs(int ms) { m_inactivityTimeoutMs = ms; }
    // Attended runs hand an MCP server's request for input (elicitation) to this handler (the
    // GUI shows a form); unattended runs and an empty handler use the unattended answer.
    void setElicitationHandler(McpElicitationHandler handler)
    {
        m_elicitationHandler = std::move(handler);
    }
    const McpElicitationHandler &elicitationHandler() const { return m_elicitationHandler; }
    int inactivityTimeoutMs() const { return m_inactivityTimeoutMs; }

    CallStore *store() const { return m_store; }
    // With a trust store, untrusted specs that would run something are refused (the programs'
    // front ends set one; see LaunchRequest::trusted). Not owned; may be null.
    void setTrustStore(TrustStore *trust) { m_trust = trust; }
    TrustStore *trustStore() const { return m_trust; }
    // Variables every call may read as keys without trust (--allow-key-env), besides the
    // provider names and the setting.
    void setAllowedKeyVariables(const QStringList &names) { m_allowedKeyVariables = names; }
    QStringList allowedKeyVariables() const { return m_allowedKeyVariables; }
    // The writer every finished call goes through (null without a history file). Runners put
    // their own writes (experiment runs) in its queue, behind the calls they belong to.
    StoreWriter *writer();
    // The store is the local queue of a history server that could not be reached when the
    // program started (AppContext::openHistory): every call it stores waits to be sent.
    // `server` is the history's URL: the writer is made on it, so its first write finds the
    // server still gone (and writes to the queue, core/store/historyqueue.h) or back.
    void setStoresInQueue(const QString &server) { m_queueServer = server; }
    bool storesInQueue() const { return !m_queueServer.isEmpty(); }
    // Blocks until every finished call handed to the writer is committed (shutdown, tests).
    void flushWrites();
    // Runs `work` on the writer's thread and connection, in its queue, and waits for it: the
    // way to write for the few callers that need the answer at once (a new session's or
    // batch's id, an import). Without a writer (a store without a file) it runs on the store.
    // Empty, with the reason in `error`, when there is no store or the writer cannot open
    // the database.
    template<typename T>
    std::optional<T> writeNow(std::function<T(CallStore &)> work, QString *error = nullptr)
    {
        if (StoreWriter *to = writer()) {
            auto value = std::make_shared<std::optional<T>>();
            to->perform(
                [value, work = std::move(work)](CallStore &into) {
                    value->emplace(work(into));
                    WriteResult result;
                    result.id = qint64(0); // the work's own errors travel in its value
                    return result;
                },
                this, [](const WriteResult &) {});
            to->flush();
            if (!value->has_value() && error)
                *error = tr("the store writer cannot open the history database");
            return *value;
        }
        if (!m_store) {
            if (error)
                *error = tr("there is no history database");
            return std::nullopt;
        }
        return work(*m_store);
    }

Q_SIGNALS:
    void jobAdded(Callscope::CallJob *job);
    // Any job ended (after its call was stored): for lists of jobs and for History.
    void jobFinished(Callscope::CallJob *job, const Callscope::LaunchResult &result);

private:
    friend class CallJob;
    friend class LaunchResolver;
    CallJob *makeJob(int kind, const LaunchRequest &request);
    CallJob *failedJob(int kind, const LaunchRequest &request, const QString &why);
    void onJobFinished(CallJob *job, const LaunchResult &result);
    CredentialStore *credentials();
    // Qt 6.4 opens at most 6 HTTP/1.1 connections per host and manager and queues the rest
    // inside the manager, out of the scheduler's sight. Jobs of one engine are spread over
    // managers so that none carries more than that.
    QNetworkAccessManager *acquireNetwork(const QString &key);
    // Calls in one session run one after another: `go` runs when `job` has the session's turn.
    void claimSession(qint64 session, CallJob *job, std::function<void()> go);
    void releaseSession(qint64 session, CallJob *job);
    void releaseNetwork(QNetworkAccessManager *nam, const QString &key);

    QPointer<QNetworkAccessManager> m_nam;
    CallStore *m_store = nullptr;
    CredentialStore *m_credentials = nullptr;
    ProfileStore *m_profiles = nullptr;
    TrustStore *m_trust = nullptr;
    QStringList m_allowedKeyVariables;
    int m_inactivityTimeoutMs = 0;
    McpElicitationHandler m_elicitationHandler;
    LaunchResolver m_resolver { this };
    Scheduler *m_scheduler = nullptr;
    StoreWriter *m_writer = nullptr;
    bool m_writerChecked = false;
    QString m_queueServer;
    QList<CallJob *> m_jobs;
    quint64 m_nextJobId = 0;
    QList<QNetworkAccessManager *> m_extraNetworks; // owned; m_nam comes first
    QHash<QNetworkAccessManager *, QHash<QString, int>> m_networkLoad;
    struct SessionWaiter
    {
        QPointer<CallJob> job;
        std::function<void()> go;
    };
    QHash<qint64, QPointer<CallJob>> m_sessionHolder;
    QHash<qint64, QList<SessionWaiter>> m_sessionWaiters;
};

} // namespace Callscope
