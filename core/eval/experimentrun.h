#pragma once

// Runs an experiment over CallService jobs: every (case, variant,
// repeat) is one call; the scheduler bounds what runs at once. When a call is stored its
// assertions are checked, and the run (with every assertion's verdict) is stored too, so a
// stopped or crashed experiment resumes with only what has no stored run. The summary and the
// cells are built from the runs.

#include "core/eval/assertions.h"
#include "core/eval/batchrounds.h"
#include "core/eval/experiment.h"
#include "core/eval/pricetable.h"
#include "core/eval/responsecache.h"
#include "core/service/callservice.h"
#include "core/store/callstore.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QThreadPool>

#include <memory>
#include <optional>

namespace Callscope {

class CallJob;
class CallService;
class RunLock;
namespace Stats {
struct CaseOutcome;
}

// SHA-256 (hex) of the experiment's definition (compact JSON): a stored experiment resumes only
// under the same definition.
QByteArray experimentDefinitionHash(const Experiment &experiment);

// The stored experiment a session runs under: a new record, or an earlier one to resume (its
// stored runs are then not run again). Each front end words the errors its own way.
//
// One process at a time works on a stored experiment: the start takes its RunLock (a lock file
// beside the database, taken over when its holder died) before reading what is done, and the
// run holds it until it ends (ExperimentRun::setRunLock). Problem::InUse when another live
// process has it (`inUse` says which).
struct ExperimentStart
{
    enum class Problem { None, NotFound, Changed, Store, InUse };
    qint64 id = 0;
    QList<ExperimentRunRecord> previous;
    // Completed calls of runs that have no stored run yet (killed while their assertions ran,
    // or stored from the recovery file): their assertions resume from the call, not a new one.
    QList<CallStore::ExperimentCall> storedCalls;
    // Completed judge calls: a run resumed from its call reuses their verdicts.
    QList<CallStore::JudgeCall> storedJudges;
    std::shared_ptr<RunLock> lock;
    Problem problem = Problem::None;
    QString storeError; // with Problem::Store
    QString inUse; // with Problem::InUse
    bool ok() const { return problem == Problem::None; }
};
ExperimentStart startStoredExperiment(CallStore *store, const Experiment &experiment,
                                      std::optional<qint64> resumeId = {});

// Stored experiments with this experiment's definition, newest first, and how many of their
// runs are done (cancelled ones not counted); `planned` is what a complete one has.
struct StoredExperiment
{
    ExperimentRecord record;
    int done = 0;
    int planned = 0;
    bool complete() const { return done >= planned; }
};
StoreResult<QList<StoredExperiment>> storedExperimentsFor(CallStore *store,
                                                          const Experiment &experiment);

class ExperimentRun final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ExperimentRun)

public:
    struct Progress
    {
        int total = 0; // runs to do in this session (resumed ones not counted)
        int done = 0;
        int failed = 0; // done, with an assertion that did not pass
        int inFlight = 0;
        int resumed = 0;
        int notStored = 0; // calls answered but not stored (no run stored for them)
    };

    ExperimentRun(CallService *service, const Experiment &experiment, QObject *parent = nullptr);
    ~ExperimentRun() override;

    void setExperimentId(qint64 id) { m_experimentId = id; }
    // Runs stored by an earlier session of the same experiment: not run again (cancelled ones are).
    void setPreviousRuns(const QList<ExperimentRunRecord> &runs);
    // Completed calls whose runs were not stored: checked from the stored call (after
    // setPreviousRuns).
    void setStoredCalls(const QList<CallStore::ExperimentCall> &calls);
    // Completed judge calls of an earlier session: a judge assertion of a stored call that
    // already has its judge's verdict is not bought again.
    void setStoredJudges(const QList<CallStore::JudgeCall> &judges);
    // People's labels of this experiment's runs: the summary gets "review" (the labels and each
    // judge's agreement with them) when there are any.
    void setReviewLabels(const QList<ReviewLabel> &labels) { m_labels = labels; }
    QList<ReviewLabel> reviewLabels() const { return m_labels; }
    // Held until the run ends (ExperimentStart::lock).
    void setRunLock(std::shared_ptr<RunLock> lock) { m_lock = std::move(lock); }
    // The store failed in a way that will recur (full disk, read-only or damaged file): no new
    // call starts, the calls waiting for a place are cancelled; haltReason() says why.
    bool isHalted() const { return m_halted; }
    QString haltReason() const { return m_haltReason; }
    // The same from outside (a front end cannot write its output): no new call starts.
    void halt(const QString &why);
    void setOnlyCases(const QStringList &caseIds)
    {
        m_only = QSet<QString>(caseIds.begin(), caseIds.end());
    }
    void setAllowedTools(const QSet<QString> &tools) { m_allowedTools = tools; }
    // Costs and max_cost_usd use this table (default: the shipped one).
    void setPriceTable(const PriceTable &prices) { m_prices = prices; }
    // The person trusted the experiment for this run (docs/trust.md): its variants' programs
    // and its command assertions run. Without it they run only when the service has no trust
    // store or its store trusts the experiment; otherwise calls that would start programs
    // fail before they start and command assertions fail unrun.
    void setTrusted(bool trusted) { m_trusted = trusted; }
    bool isTrusted() const;

    // The response cache (before start()): on by default; direct experiments only (a batch
    // experiment's requests go to the provider's batch API).
    void setCacheMode(ResponseCache::Mode mode) { m_cacheMode = mode; }

    // "via": "batch": how the rounds run (before start()).
    void setBatchSettings(const BatchRoundSettings &settings) { m_batchSettings = settings; }
    // The rounds of a batch experiment (null for a direct one, and before start()): their
    // state for a view (BatchRounds::overview(), changed()) and cancel().
    BatchRounds *batchRounds() const { return m_rounds; }
    bool viaBatch() const;

    void start();
    // No new calls; those in flight are cancelled; finished follows. A batch experiment's
    // provider batches keep running (a later resume picks them up): see cancelBatches().
    void stop();
    // Cancels the provider batches at the provider too, then stops.
    void cancelBatches();
    Progress progress() const;

    // {"experiment_id", "name", "variants": [...], "cells": [...]} as `eval` prints it.
    QJsonObject summary() const;
    struct CellTotals;
    // What the summary is made of, copied (the lists are shared until written, so a copy is
    // cheap): its summary() is this run's, and can be built on any thread.
    struct Results
    {
        Experiment experiment;
        qint64 experimentId = 0;
        QSet<QString> only;
        QHash<QString, ExperimentRunRecord> results; // by key()
        PriceTable prices = PriceTable::shipped();
        std::optional<BatchRoundsOverview> rounds; // a batch experiment's, once started
        int directRuns = 0;
        QList<ReviewLabel> labels; // people's labels of the runs (the summary's "review")
        QList<ExplicitCacheEntry> explicitCaches; // Gemini cachedContents this session made

        QJsonObject summary() const;
        QJsonObject cellJson(const DatasetRow &row, const QString &variant,
                             CellTotals *totals) const;
        QJsonArray comparisons(const QList<QHash<QString, Stats::CaseOutcome>> &outcomes) const;
    };
    Results results() const;
    // One cell of the summary (a case in a variant, as in "cells"): what a view updates when
    // one run finishes, without building the whole summary.
    QJsonObject cell(const QString &caseId, const QString &variant) const;
    QList<ExperimentRunRecord> runs() const; // every run, resumed ones included, in plan order
    bool allPassed() const;
    // Gemini's explicit cache entries of this session (made by the first call of each prefix,
    // deleted before `finished`).
    GeminiContentCache *contentCache() const { return m_contentCache; }

Q_SIGNALS:
    // Something the person should know that does not stop the run (an explicit cache that
    // could not be made: the calls send their prefix).
    void notice(const QString &text);
    void runFinished(const Callscope::ExperimentRunRecord &run);
    // The first store failure that will recur; finished follows once what runs has ended.
    void halted(const QString &why);
    void finished();

private:
    struct Planned
    {
        int row = 0;
        int variant = 0;
        int repeat = 0;
    };

    static QString key(const QString &caseId, const QString &variant, int repeat);
    void fill();
    void launch(const Planned &planned);
    void onCallFinished(const Planned &planned, const LaunchResult &result);
    void resumeFromCall(const Planned &planned, qint64 callId);
    void complete(ExperimentRunRecord run, const QList<AssertionResult> &results);
    // The checks that run a program or a call (command, judge), after the others' `results`.
    void startAsyncChecks(const ExperimentRunRecord &run, const QList<AssertionResult> &results,
                          const QList<Assertion> &async, const CallRecord &record,
                          const DatasetRow &row);
    void startJudge(const Assertion &assertion, const CallRecord &judged,
                    std::function<void(const AssertionResult &)> done);
    void checkDone();

    QPointer<CallService> m_service;
    BatchRoundSettings m_batchSettings;
    BatchRounds *m_rounds = nullptr;
    ResponseCache::Mode m_cacheMode = ResponseCache::Mode::Use;
    ResponseCache *m_cache = nullptr;
    GeminiContentCache *m_contentCache = nullptr; // a child
    bool m_contentCacheReleasing = false;
    bool m_contentCacheReleased = false;
    Experiment m_experiment;
    qint64 m_experimentId = 0;
    QSet<QString> m_only;
    QSet<QString> m_allowedTools;
    PriceTable m_prices = PriceTable::shipped();
    bool m_trusted = false;
    QList<Planned> m_plan;
    QHash<QString, ExperimentRunRecord> m_results; // by key()
    QList<ReviewLabel> m_labels;
    QHash<QString, qint64> m_storedCalls; // by key(): completed calls without a run
    QHash<QString, CallStore::JudgeCall> m_storedJudges; // by judged call id + judge key
    std::shared_ptr<RunLock> m_lock;
    bool m_halted = false;
    QString m_haltReason;
    int m_next = 0;
    int m_inFlight = 0; // calls and their async checks
    // The checks that run no program, one at a time in the order the calls ended (so runs end
    // in that order, as they were checked), off the thread this object lives on.
    QThreadPool m_checks;
    QList<QPointer<CallJob>> m_jobs;
    bool m_started = false;
    bool m_stopping = false;
    bool m_finished = false;
    int m_total = 0;
    int m_done = 0;
    int m_failed = 0;
    int m_resumed = 0;
    int m_notStored = 0;
};

} // namespace Callscope
