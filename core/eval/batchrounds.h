#pragma once

// An experiment through the providers' batch APIs, in rounds.
//
// Every run is an ordinary CallJob with its own Runner; only its ModelClient differs: a
// BatchModelClient does not send a request, it hands it to BatchRounds. Once no run of an
// engine is busy locally (every one waits for its model reply) the waiting requests go out as
// one provider batch (split where the provider's limits demand); when it ends each reply is
// handed to its runner exactly as a direct reply would be, so tools, validation, corrections
// and reasks run as always, and the runners' next requests form the next round. Expired and
// errored lines go into the next round; a refusal ends its run like any refusal.
//
// Durable: every provider batch and its lines (which run, which request of its loop, the
// request's hash) are stored before it is submitted and updated as it moves; reply bodies are
// stored when the batch ends. A resumed experiment runs each unfinished run again from its
// start: requests that already have a stored reply are answered from the store at once (the
// tools run again locally), a request that a still open batch carries waits for that batch
// (it is polled, never submitted again), and the rest form new rounds.
//
// A batch whose creating request got no answer (timeout, lost connection) may exist at the
// provider. OpenAI batches carry a metadata tag and are looked up by it; for Anthropic and
// Gemini, which keep no metadata, the batch is marked `submit_unknown` and its runs fail with
// a message saying so, unless resubmitting was asked for (setResubmitUnknown).

#include "core/engines/modelclient.h"
#include "core/engines/providerbatch.h"
#include "core/store/providerbatchstore.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>

#include <functional>
#include <memory>
#include <optional>

class QNetworkAccessManager;
class QTimer;

namespace Callscope {

class BatchModelClient;
class CallStore;
class StoreWriter;

// How an experiment's rounds run.
struct BatchRoundSettings
{
    qint64 firstPollMs = 5000; // the first wait after a submit, then doubling
    qint64 maxPollMs = 5 * 60 * 1000;
    std::optional<BatchLimits> limits; // unset: the provider's own
    bool resubmitUnknown = false;

    // The defaults, tuned by the environment (for tests, or a smaller file on purpose):
    // CALLSCOPE_BATCH_POLL_MS="first[,max]", CALLSCOPE_BATCH_MAX_LINES=N. The CLI and the
    // studio both start from this.
    static BatchRoundSettings fromEnvironment();
};

// One provider batch as a view shows it.
struct BatchRoundState
{
    qint64 batchId = 0; // the stored row
    QString engine; // engine key (profile, or type + base URL + model)
    QString engineType;
    int round = 0; // 1-based
    int part = 0; // 0-based: a round over the provider's limits has several parts
    QString status; // submitting, submit_unknown, submitted, cancelling, ended, failed, abandoned
    QString providerStatus; // the provider's own word
    QString providerId;
    int lines = 0;
    int succeeded = 0;
    int errored = 0;
    int pending = 0;
    QDateTime createdAt; // stored (before it was submitted)
    QDateTime submittedAt;
    QDateTime endedAt;
    qint64 waitingMs = 0; // since it was submitted (until it ended)
};

// The rounds of every engine at one moment.
struct BatchRoundsOverview
{
    QList<BatchRoundState> batches; // oldest first
    int openBatches = 0;
    int queuedRequests = 0; // waiting for the next round
    int waitingRequests = 0; // carried by an open batch
    int runsWorking = 0; // runs busy locally (tools, validation) or starting
};

class BatchRounds final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BatchRounds)

public:
    // `store` may be null (nothing durable; tests of the rounds alone). With a `writer`, every
    // read and write of the batches' state goes through the writer's queue, off this thread;
    // without one, through `store` on this thread.
    BatchRounds(CallStore *store, qint64 experimentId, QObject *parent = nullptr);
    ~BatchRounds() override;
    void setWriter(StoreWriter *writer) { m_writer = writer; }

    // Reads what an earlier session stored (resume), then calls `done` (from the event loop
    // with a writer, at once without), with the store's error or an empty string.
    void load(std::function<void(const QString &error)> done);
    void apply(const BatchRoundSettings &settings);
    // Poll intervals: the first wait after a submit, doubling up to `maxMs`.
    void setPollIntervals(qint64 firstMs, qint64 maxMs);
    void setResubmitUnknown(bool resubmit) { m_resubmitUnknown = resubmit; }

    // The experiment announces each run before its job starts and says when it ended, so a
    // round never leaves while a run is still starting.
    void expect(const QString &runKey);
    void jobEnded(const QString &runKey);
    // The ModelClient of one run (called by the run's CallJob once the engine is resolved);
    // nullptr for an engine type without a batch API (its requests then go direct).
    ModelClient *clientFor(const QString &caseId, const QString &variant, int repeat,
                           const EngineConfig &config, QNetworkAccessManager *nam, QObject *parent);
    static QString runKey(const QString &caseId, const QString &variant, int repeat);

    BatchRoundsOverview overview() const;
    // True when the run's call failed because its batch's submission is unknown (a resume
    // runs it again).
    bool endedBySubmitUnknown(const QString &runKey) const
    {
        return m_unknownRuns.contains(runKey);
    }
    int directRuns() const { return m_directRuns; }
    qint64 experimentId() const { return m_experimentId; }

    // Cancels every open provider batch at the provider; the runs waiting for them end
    // cancelled (their jobs are stopped by the experiment). finished-like signals follow.
    void cancel();
    // Stops polling and submitting: the process is about to go away, the provider batches
    // keep running and a later --resume picks them up.
    void detach();

Q_SIGNALS:
    // Something a view shows changed (a batch was stored, submitted, polled, ended).
    void changed();
    // A message for the person (a batch whose submission is unknown, a failed poll).
    void notice(const QString &text);
    // Every cancel request cancel() sent was answered (at once when there was none).
    void cancelRequestsAnswered();

private:
    friend class BatchModelClient;

    struct Group
    {
        QString key; // in memory only: includes a salted fingerprint of the key
        QString publicKey; // type|base URL|model: what the store keeps
        EngineConfig config;
        ProviderBatchClient *client = nullptr;
        QList<QPointer<BatchModelClient>> live;
        QList<QPointer<BatchModelClient>> queued;
        int round = 0;
        qint64 holdUntilMs = 0; // a refused submission waits before the next try
    };
    struct OpenBatch
    {
        ProviderBatchRecord record;
        QHash<QString, ProviderBatchLineRecord> lines; // by custom_id
        QHash<QString, QPointer<BatchModelClient>> waiting; // by custom_id
        QTimer *timer = nullptr;
        qint64 intervalMs = 0;
        bool busy = false; // a poll or a fetch is on its way
        bool cancelRequested = false;
        bool submitInFlight = false; // created at the provider, maybe: its answer is awaited
    };

    // Cancels open batch `id` (it has a provider id) there; cancelAnswered() follows.
    void cancelAtProvider(qint64 id);
    void cancelAnswered();
    void enqueue(BatchModelClient *client);
    void withdraw(BatchModelClient *client);
    void scheduleCheck();
    void check();
    void submitRound(Group &group);
    void startPolling(qint64 batchId);
    void pollNow(qint64 batchId);
    void onEnded(qint64 batchId, const BatchStatus &status);
    void failBatch(qint64 batchId, const ApiError &error, bool retryLines);
    void resolveUnknown(qint64 batchId);
    void requeue(BatchModelClient *client);
    void applyStored(const QList<ProviderBatchRecord> &batches,
                     const QList<ProviderBatchLineRecord> &lines);
    // Stores a new batch and its lines; `done` gets its id once the write is answered.
    void storeNewBatch(const ProviderBatchRecord &record,
                       const QList<ProviderBatchLineRecord> &lines,
                       std::function<void(const StoreResult<qint64> &)> done);
    void sendPart(ProviderBatchRecord record, const QList<ProviderBatchLineRecord> &lineRecords,
                  const QList<ProviderBatchLine> &lines,
                  const QList<QPointer<BatchModelClient>> &clients);
    // The provider created open batch `id` as `providerId`: stored, counted and polled.
    void markSubmitted(qint64 id, const QString &providerId);
    void save(const ProviderBatchRecord &record);
    void closeBatch(qint64 batchId);
    Group *groupFor(const QString &key);
    ProviderBatchClient *clientOfGroup(const QString &publicKey) const;
    QString submitUnknownText(const ProviderBatchRecord &record) const;

    CallStore *m_store = nullptr;
    StoreWriter *m_writer = nullptr; // outlives the rounds (the service's)
    std::unique_ptr<ProviderBatchStore> m_batchStore;
    QHash<QString, int> m_creating; // by public key: batches being stored
    qint64 m_experimentId = 0;
    qint64 m_firstPollMs = 5000;
    qint64 m_maxPollMs = 5 * 60 * 1000;
    std::optional<BatchLimits> m_limitsOverride;
    bool m_resubmitUnknown = false;
    bool m_detached = false;
    bool m_cancelling = false;
    bool m_checkScheduled = false;

    QHash<QString, Group> m_groups;
    QHash<QString, int> m_storedRounds; // by public key: the last stored round
    QHash<qint64, OpenBatch> m_open;
    QList<ProviderBatchRecord> m_closed; // for the overview
    // Lines of earlier rounds (stored or ended in this session) by runKey + request index.
    QHash<QString, QList<ProviderBatchLineRecord>> m_history;
    QHash<qint64, ProviderBatchRecord> m_recordOf; // every batch known, by id
    QSet<QString> m_starting;
    QSet<QString> m_unknownRuns;
    QSet<qint64> m_unresolvable; // submit_unknown, and no way to find out
    int m_cancelsPending = 0;
    int m_createsToAnswer = 0; // batches being stored when cancel() came
    int m_directRuns = 0;
};

// The ModelClient a run uses inside a batch experiment (see BatchRounds).
class BatchModelClient final : public ModelClient
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BatchModelClient)

public:
    enum class State { Idle, Queued, InFlight, Delivering };

    EngineType engineType() const override { return m_config.type; }
    QString model() const override { return m_config.model; }
    void send(const ChatRequest &request, int maxAttempts) override;
    void cancel() override;
    QJsonArray toNative(const QString &system, const QList<Message> &messages) const override;
    QList<Message> fromNative(const QJsonArray &native) const override;

    State state() const { return m_state; }
    QString runKey() const { return m_runKey; }

private:
    friend class BatchRounds;
    BatchModelClient(BatchRounds *rounds, const QString &group, const QString &caseId,
                     const QString &variant, int repeat, const EngineConfig &config,
                     QObject *parent);
    void deliver(const ModelOutcome &outcome);
    void deliverError(const ApiError &error);
    QString lineKey() const;

    QPointer<BatchRounds> m_rounds;
    QString m_group;
    QString m_caseId;
    QString m_variant;
    int m_repeat = 0;
    QString m_runKey;
    EngineConfig m_config;
    std::unique_ptr<EngineCodec> m_codec;

    State m_state = State::Idle;
    int m_index = -1; // the current request's index in the run
    QJsonObject m_body;
    QString m_hash;
    int m_maxAttempts = 1;
    int m_attempts = 0; // lines of the current request that came back errored
    int m_expiries = 0;
    QList<AttemptRecord> m_attemptLog;
    qint64 m_batchId = 0; // InFlight: the batch and line that carry the request
    QString m_customId;
    quint64 m_serial = 0;
};

} // namespace Callscope
