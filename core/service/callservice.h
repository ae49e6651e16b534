#pragma once

// CallService: the one place that turns "run this spec on this input" into a stored call. It
// resolves the engine (profile, key, replay recording), builds the toolkits, applies the
// context budget to every request, drives a Runner, and writes the finished call (and its
// session messages) in one transaction. The GUI and the CLI both go through it, so a call
// behaves the same from either front end.

#include "core/loop/runner.h"
#include "core/model/callrecord.h"
#include "core/model/spec.h"

#include <QObject>
#include <QPointer>

#include <memory>

class QNetworkAccessManager;

namespace Callscope {

class CallStore;
class CredentialStore;
class ProfileStore;
class ToolRegistry;

// Session compaction by policy (MISSION.md 4, `context_size`): before a session turn, when the
// last request's prompt plus output passed maxContextTokens, everything but the newest
// keepRecent messages folds into a rolling summary made by a call of kind `compaction`.
struct CompactionPolicy
{
    qint64 maxContextTokens = 0;        // 0 = never by policy
    int keepRecent = 6;
};

struct LaunchRequest
{
    Spec spec;
    RunInput input;
    RunOptions options;                 // breakpoints, attended, allowed tools, metadata
    std::optional<qint64> sessionId;    // run inside a session (MISSION.md section 4)
    std::optional<qint64> reviseOf;     // set by revise(): replays that call's conversation
    QString replayOf;                   // metadata note for replays
    std::optional<CompactionPolicy> compaction; // session turns only
};

struct LaunchResult
{
    CallRecord record;                  // id set when stored
    bool stored = false;
    QString storeError;                 // why the call could not be stored
    bool startFailed = false;           // the call never started (bad engine, missing key)
};

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

    // Starts a call; runnerCreated then finished follow (finished exactly once, also when the
    // call could not start). One call at a time per service.
    void launch(const LaunchRequest &request);
    // A revision: the parent's conversation plus `correction`, on the parent's spec and engine
    // type, linked by parent (and in the parent's session when it had one).
    void revise(qint64 callId, const QString &correction, const RunOptions &options = {});
    // Re-runs a recorded call's input with `spec` (another engine, an edited spec) as a new
    // call whose parent is the original; metadata says it is a replay.
    void replay(qint64 callId, const Spec &spec, const RunOptions &options = {});
    void stop();
    // Folds all but the newest `keepRecent` model-visible messages of a session into a summary
    // made on `engineFrom`'s engine; compactionFinished follows. Message rows are never deleted.
    void compact(qint64 sessionId, int keepRecent, const Spec &engineFrom);

    bool isRunning() const { return m_running; }
    Runner *runner() const { return m_runner; }

    // Settings for HTTP engines built by this service (timeouts), and for tests.
    void setInactivityTimeoutMs(int ms) { m_inactivityTimeoutMs = ms; }

Q_SIGNALS:
    void runnerCreated(Callscope::Runner *runner);
    void finished(const Callscope::LaunchResult &result);
    // ok: a summary was stored (callId is its call); otherwise `message` says why and nothing
    // changed. "Nothing to fold" is ok with callId 0.
    void compactionFinished(qint64 sessionId, bool ok, const QString &message, qint64 callId);

private:
    void resolveEngine();
    void startRunner(ModelClient *client);
    void onRunnerFinished(const CallRecord &record);
    void fail(ErrorCategory category, const QString &message);
    void cleanUp();
    void continueLaunch();
    void startCompaction(qint64 sessionId, int keepRecent, const Spec &engineFrom,
                         std::function<void(bool, const QString &, qint64)> done);

    QPointer<QNetworkAccessManager> m_nam;
    CallStore *m_store = nullptr;
    CredentialStore *m_credentials = nullptr;
    ProfileStore *m_profiles = nullptr;
    int m_inactivityTimeoutMs = 0;

    bool m_running = false;
    LaunchRequest m_request;
    QList<Message> m_prior;             // what came before this call (session or parent)
    QPointer<Runner> m_runner;
    QPointer<ModelClient> m_client;
    QPointer<ToolRegistry> m_tools;
    QPointer<CallService> m_compactor;  // a store-less child service that runs summary calls
};

} // namespace Callscope
