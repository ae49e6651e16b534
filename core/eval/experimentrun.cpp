#include "core/eval/experimentrun.h"

#include "core/engines/providerbatch.h"
#include "core/eval/cacheadvice.h"
#include "core/eval/calltelemetry.h"
#include "core/eval/review.h"
#include "core/eval/scripting.h"
#include "core/eval/statistics.h"
#include "core/model/specio.h"
#include "core/service/batchrun.h"
#include "core/service/calljob.h"
#include "core/service/callservice.h"
#include "core/service/scheduler.h"
#include "core/store/runlock.h"
#include "core/store/storewriter.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPromise>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(ExperimentRun)
};

// Which judge assertion a judge call answers: its spec (rubric and engine) decides the verdict.
QString judgeKey(const Assertion &assertion)
{
    return QString::fromLatin1(
        QCryptographicHash::hash(
            QJsonDocument(judgeSpecJson(assertion)).toJson(QJsonDocument::Compact),
            QCryptographicHash::Sha256)
            .toHex()
            .left(32));
}

QString judgedKey(qint64 judgedCallId, const QString &judgeKey)
{
    return QString::number(judgedCallId) + QChar(0x1f) + judgeKey;
}

qint64 percentile(QList<qint64> values, double p)
{
    if (values.isEmpty())
        return 0;
    std::sort(values.begin(), values.end());
    // Nearest rank.
    const qsizetype rank = qsizetype(std::ceil(p * double(values.size())));
    return values.at(std::clamp<qsizetype>(rank - 1, 0, values.size() - 1));
}

} // namespace

QByteArray experimentDefinitionHash(const Experiment &experiment)
{
    return QCryptographicHash::hash(
               QJsonDocument(experiment.definition).toJson(QJsonDocument::Compact),
               QCryptographicHash::Sha256)
        .toHex();
}

ExperimentStart startStoredExperiment(CallStore *store, const Experiment &experiment,
                                      std::optional<qint64> resumeId)
{
    ExperimentStart start;
    if (!store) {
        start.problem = ExperimentStart::Problem::Store;
        start.storeError = Tr::tr("the history database is not open");
        return start;
    }
    const QByteArray hash = experimentDefinitionHash(experiment);
    const QString databasePath = store->database().path();
    const auto lock = [&start, &databasePath](qint64 id) {
        if (databasePath.isEmpty() || databasePath == u":memory:"_s)
            return true; // no file, no other process
        QString why;
        std::unique_ptr<RunLock> held =
            RunLock::acquire(databasePath, u"experiment-%1"_s.arg(id), &why);
        if (!held) {
            start.problem = ExperimentStart::Problem::InUse;
            start.inUse = why;
            return false;
        }
        start.lock = std::move(held);
        return true;
    };
    if (resumeId) {
        // Taken before anything done is read: a second process would run the same rest.
        if (!lock(*resumeId))
            return start;
        auto stored = store->getExperiment(*resumeId);
        if (!stored) {
            start.problem = ExperimentStart::Problem::Store;
            start.storeError = stored.error().message;
            return start;
        }
        if (!stored.value()) {
            start.problem = ExperimentStart::Problem::NotFound;
            return start;
        }
        if (stored.value()->definitionHash != hash) {
            start.problem = ExperimentStart::Problem::Changed;
            return start;
        }
        auto runs = store->experimentRuns(*resumeId);
        if (!runs) {
            start.problem = ExperimentStart::Problem::Store;
            start.storeError = runs.error().message;
            return start;
        }
        // A day's margin for clocks; the index still skips the history before it.
        const QDateTime since = stored.value()->createdAt.isValid()
            ? stored.value()->createdAt.addDays(-1)
            : QDateTime();
        auto calls = store->experimentCompletedCalls(*resumeId, since);
        if (!calls) {
            start.problem = ExperimentStart::Problem::Store;
            start.storeError = calls.error().message;
            return start;
        }
        auto judges = store->experimentJudgeCalls(*resumeId, since);
        if (!judges) {
            start.problem = ExperimentStart::Problem::Store;
            start.storeError = judges.error().message;
            return start;
        }
        start.id = *resumeId;
        start.previous = runs.value();
        start.storedCalls = calls.value();
        start.storedJudges = judges.value();
        return start;
    }
    ExperimentRecord record;
    record.name = experiment.name;
    record.path = experiment.path;
    record.definitionHash = hash;
    record.definition = experiment.definition;
    auto created = store->createExperiment(record);
    if (!created) {
        start.problem = ExperimentStart::Problem::Store;
        start.storeError = created.error().message;
        return start;
    }
    start.id = created.value();
    lock(start.id);
    return start;
}

StoreResult<QList<StoredExperiment>> storedExperimentsFor(CallStore *store,
                                                          const Experiment &experiment)
{
    QList<StoredExperiment> out;
    if (!store)
        return out;
    auto records = store->findExperiments(experimentDefinitionHash(experiment));
    if (!records)
        return records.error();
    const int planned =
        int(experiment.rows.size() * experiment.variants.size()) * experiment.repeat;
    for (const ExperimentRecord &record : records.value()) {
        auto runs = store->experimentRuns(record.id);
        if (!runs)
            return runs.error();
        StoredExperiment info;
        info.record = record;
        info.planned = planned;
        info.done = int(std::count_if(runs->begin(), runs->end(), [](const ExperimentRunRecord &r) {
            return r.status != u"cancelled"_s;
        }));
        out.append(info);
    }
    return out;
}

ExperimentRun::ExperimentRun(CallService *service, const Experiment &experiment, QObject *parent)
    : QObject(parent)
    , m_service(service)
    , m_experiment(experiment)
    , m_contentCache(new GeminiContentCache(this))
{
    m_checks.setMaxThreadCount(1);
    connect(m_contentCache, &GeminiContentCache::notice, this, &ExperimentRun::notice);
}

// m_checks waits for a check under way (bounded by the validator's budget) as it goes.
ExperimentRun::~ExperimentRun() = default;

QString ExperimentRun::key(const QString &caseId, const QString &variant, int repeat)
{
    return caseId + QChar(0x1f) + variant + QChar(0x1f) + QString::number(repeat);
}

void ExperimentRun::setPreviousRuns(const QList<ExperimentRunRecord> &runs)
{
    for (const ExperimentRunRecord &run : runs) {
        // Cancelled runs, and runs whose provider batch may or may not exist, run again.
        if (run.status != u"cancelled"_s && run.status != u"submit_unknown"_s)
            m_results.insert(key(run.caseId, run.variant, run.repeat), run);
    }
}

void ExperimentRun::setStoredCalls(const QList<CallStore::ExperimentCall> &calls)
{
    for (const CallStore::ExperimentCall &call : calls) {
        const QString k = key(call.caseId, call.variant, call.repeat);
        if (!m_results.contains(k) && !m_storedCalls.contains(k))
            m_storedCalls.insert(k, call.callId);
    }
}

void ExperimentRun::setStoredJudges(const QList<CallStore::JudgeCall> &judges)
{
    for (const CallStore::JudgeCall &judge : judges) {
        if (judge.judgedCallId > 0 && !judge.judgeKey.isEmpty())
            m_storedJudges.insert(judgedKey(judge.judgedCallId, judge.judgeKey), judge);
    }
}

bool ExperimentRun::viaBatch() const
{
    return m_experiment.via == u"batch"_s;
}

void ExperimentRun::start()
{
    if (m_started)
        return;
    m_started = true;
    // Unchanged requests of a direct experiment are answered from the response cache.
    if (!viaBatch() && m_cacheMode != ResponseCache::Mode::Off && m_service && m_service->store()) {
        m_cache = new ResponseCache(m_service->store(), m_service->writer(), this);
        m_cache->setMode(m_cacheMode);
    }
    for (int r = 0; r < m_experiment.rows.size(); ++r) {
        if (!m_only.isEmpty() && !m_only.contains(m_experiment.rows.at(r).id))
            continue;
        for (int v = 0; v < m_experiment.variants.size(); ++v) {
            for (int k = 0; k < m_experiment.repeat; ++k) {
                m_plan.append({ r, v, k });
                if (m_results.contains(
                        key(m_experiment.rows.at(r).id, m_experiment.variants.at(v).name, k)))
                    ++m_resumed;
                else
                    ++m_total;
            }
        }
    }
    const auto begin = [this] {
        fill();
        checkDone();
    };
    if (!viaBatch()) {
        QTimer::singleShot(0, this, begin);
        return;
    }
    m_rounds = new BatchRounds(m_service ? m_service->store() : nullptr, m_experimentId, this);
    m_rounds->setWriter(m_service ? m_service->writer() : nullptr);
    m_rounds->apply(m_batchSettings);
    // With an OTLP export on, each round becomes a span under the experiment's.
    if (m_service) {
        if (auto *telemetry =
                m_service->findChild<CallTelemetry *>(QString(), Qt::FindDirectChildrenOnly))
            telemetry->watch(m_rounds);
    }
    // Nothing runs before the stored batches are known: a request an open batch carries waits for
    // it.
    ++m_inFlight;
    m_rounds->load([this, begin](const QString &error) {
        if (!error.isEmpty())
            qWarning("experiment %lld: the stored provider batches cannot be read: %s",
                     m_experimentId, qPrintable(error));
        --m_inFlight;
        QTimer::singleShot(0, this, begin);
    });
}

void ExperimentRun::fill()
{
    if (!m_service)
        return;
    // A few more than run at once wait in the scheduler's queue; never one job per run up front.
    // Through a batch API every run takes part in each round: all of them start at once.
    const int limit =
        m_rounds ? std::numeric_limits<int>::max() : m_service->scheduler()->globalLimit() * 2;
    while (!m_stopping && !m_halted && m_next < m_plan.size() && m_inFlight < limit) {
        const Planned planned = m_plan.at(m_next++);
        const DatasetRow &row = m_experiment.rows.at(planned.row);
        const Variant &variant = m_experiment.variants.at(planned.variant);
        const QString k = key(row.id, variant.name, planned.repeat);
        if (m_results.contains(k))
            continue;
        if (const qint64 callId = m_storedCalls.value(k); callId > 0) {
            resumeFromCall(planned, callId);
            continue;
        }
        launch(planned);
    }
}

bool ExperimentRun::isTrusted() const
{
    if (m_trusted)
        return true;
    TrustStore *trust = m_service ? m_service->trustStore() : nullptr;
    return !trust || trust->isTrusted(experimentTrustEntry(m_experiment));
}

void ExperimentRun::resumeFromCall(const Planned &planned, qint64 callId)
{
    CallStore *store = m_service ? m_service->store() : nullptr;
    // Counted as in flight while it is read (off this thread, through the writer's queue).
    ++m_inFlight;
    runOnStore<StoreResult<CallRecord>>(
        m_service ? m_service->writer() : nullptr, store, this,
        [callId](CallStore &from) { return from.getCall(callId); },
        [this, planned](const StoreResult<CallRecord> *call, const QString &) {
            if (!call || !*call) {
                // Unreadable now: the run is made again, as if the call had never been stored.
                --m_inFlight;
                m_storedCalls.remove(key(m_experiment.rows.at(planned.row).id,
                                         m_experiment.variants.at(planned.variant).name,
                                         planned.repeat));
                if (!m_stopping && !m_halted)
                    launch(planned);
                checkDone();
                return;
            }
            LaunchResult result;
            result.record = call->value();
            result.stored = true;
            // From the event loop, as a job's end would come: fill() is not re-entered.
            QMetaObject::invokeMethod(
                this, [this, planned, result] { onCallFinished(planned, result); },
                Qt::QueuedConnection);
        });
}

void ExperimentRun::halt(const QString &why)
{
    if (m_halted)
        return;
    m_halted = true;
    m_haltReason = why;
    // What waits for a place costs nothing yet and is not started; what runs ends and is kept.
    for (const QPointer<CallJob> &job : std::as_const(m_jobs)) {
        if (job && job->state() == CallJob::State::Queued)
            job->cancel();
    }
    Q_EMIT halted(why);
}

void ExperimentRun::launch(const Planned &planned)
{
    const DatasetRow &row = m_experiment.rows.at(planned.row);
    const Variant &variant = m_experiment.variants.at(planned.variant);
    LaunchRequest request;
    request.spec = m_experiment.specFor(row, variant);
    request.input.text = m_experiment.inputFor(row, variant);
    request.trusted = isTrusted();
    request.options.allowedTools = m_allowedTools;
    request.options.metadata = QJsonObject { { u"experiment_id"_s, m_experimentId },
                                             { u"experiment_name"_s, m_experiment.name },
                                             { u"case"_s, row.id },
                                             { u"variant"_s, variant.name },
                                             { u"repeat"_s, planned.repeat } };
    for (const QString &path : row.attachments) {
        QString error;
        auto attachment = readAttachmentFile(path, &error);
        if (!attachment) {
            ExperimentRunRecord run;
            run.experimentId = m_experimentId;
            run.caseId = row.id;
            run.variant = variant.name;
            run.repeat = planned.repeat;
            run.status = u"invalid_input"_s;
            AssertionResult why;
            why.type = u"input"_s;
            why.name = u"input"_s;
            why.reason = error;
            ++m_inFlight;
            complete(run, { why });
            return;
        }
        request.input.attachments.append(*attachment);
    }
    if (m_rounds) {
        const QString caseId = row.id;
        const QString variantName = variant.name;
        const int repeat = planned.repeat;
        m_rounds->expect(BatchRounds::runKey(caseId, variantName, repeat));
        request.unscheduled = true;
        request.options.metadata.insert(u"via"_s, u"batch"_s);
        QPointer<BatchRounds> rounds = m_rounds;
        request.clientFactory = [rounds, caseId, variantName,
                                 repeat](const EngineConfig &config, QNetworkAccessManager *nam,
                                         QObject *parent) -> ModelClient * {
            return rounds ? rounds->clientFor(caseId, variantName, repeat, config, nam, parent)
                          : nullptr;
        };
    }
    if (!m_rounds) {
        // A batch experiment's requests go to the provider's batch API, which names no entry.
        request.contentCache = m_contentCache;
        request.contentCacheLabel = variant.name;
    }
    if (m_cache) {
        QPointer<ResponseCache> cache = m_cache;
        const QString runKey = key(row.id, variant.name, planned.repeat);
        const int repeat = planned.repeat;
        request.clientFactory = [cache, runKey, repeat](const EngineConfig &config,
                                                        QNetworkAccessManager *nam,
                                                        QObject *parent) -> ModelClient * {
            return cache ? cache->clientFor(runKey, repeat, config, nam, parent) : nullptr;
        };
    }
    CallJob *job = m_service->launch(request);
    m_jobs.append(job);
    ++m_inFlight;
    connect(job, &CallJob::finished, this,
            [this, planned](const LaunchResult &result) { onCallFinished(planned, result); });
}

void ExperimentRun::onCallFinished(const Planned &planned, const LaunchResult &result)
{
    const DatasetRow &row = m_experiment.rows.at(planned.row);
    const Variant &variant = m_experiment.variants.at(planned.variant);
    const CallRecord &record = result.record;
    if (m_rounds)
        m_rounds->jobEnded(BatchRounds::runKey(row.id, variant.name, planned.repeat));
    ExperimentRunRecord run;
    run.experimentId = m_experimentId;
    run.caseId = row.id;
    run.variant = variant.name;
    run.repeat = planned.repeat;
    if (result.stored)
        run.callId = record.id;
    if (!result.storeError.isEmpty()) {
        // Answered but not in the history: no run is stored, so a resume makes it again (from
        // the recovery file's copy of the call, when it was kept, without a new request).
        if (result.storeFatal)
            halt(result.storeError);
        --m_inFlight;
        ++m_notStored;
        fill();
        checkDone();
        return;
    }
    run.status = result.startFailed ? u"not_started"_s : callStatusName(record.status);
    if (m_rounds
        && m_rounds->endedBySubmitUnknown(
            BatchRounds::runKey(row.id, variant.name, planned.repeat)))
        run.status = u"submit_unknown"_s;
    run.latencyMs = record.createdAt.isValid() && record.finishedAt.isValid()
        ? record.createdAt.msecsTo(record.finishedAt)
        : 0;
    run.inputTokens = record.usage.inputTokens;
    run.outputTokens = record.usage.outputTokens;
    run.cacheReadTokens = record.usage.cacheReadTokens;
    run.cacheWriteTokens = record.usage.cacheWriteTokens;
    const QString model = record.model.isEmpty() ? variant.spec.engine.model : record.model;
    const std::optional<EngineType> type = engineTypeFromName(record.engineType);
    const bool batched = m_rounds && record.metadata.value(u"via"_s).toString() == u"batch"_s
        && type && ProviderBatchClient::hasBatchApi(*type);
    run.costUsd = m_prices.cost(model, record.usage, batched);
    run.uncachedCostUsd = m_prices.uncachedCost(model, record.usage, batched);
    if (batched)
        run.directCostUsd = m_prices.cost(model, record.usage, false);
    if (m_cache) {
        // The answers the cache gave cost nothing this time: what they cost once is the saving.
        const QString runKey = key(row.id, variant.name, planned.repeat);
        const ResponseCache::RunStats stats = m_cache->stats(runKey);
        m_cache->forget(runKey);
        run.cached = stats.allCached();
        if (stats.hits > 0) {
            const std::optional<double> saved = m_prices.cost(model, stats.savedUsage, false);
            if (saved && run.costUsd) {
                run.cacheSavedUsd = *saved;
                run.costUsd = std::max(0.0, *run.costUsd - *saved);
                // Nothing was sent for those answers, with or without a prompt cache: the
                // prompt cache's saving counts only the requests that went out.
                if (const std::optional<double> savedUncached =
                        m_prices.uncachedCost(model, stats.savedUsage, false);
                    savedUncached && run.uncachedCostUsd)
                    run.uncachedCostUsd = std::max(0.0, *run.uncachedCostUsd - *savedUncached);
            }
        }
    }

    QList<Assertion> checks = m_experiment.asserts + row.asserts;
    // With no assertion at all a run passes when its call completed.
    if (checks.isEmpty()) {
        Assertion status;
        status.type = u"status"_s;
        status.name = u"status"_s;
        checks.append(status);
    }
    // In the order of the checks; the synchronous ones are filled in when they are done.
    QList<std::optional<AssertionResult>> ordered;
    QList<Assertion> sync;
    QList<Assertion> async;
    for (const Assertion &a : std::as_const(checks)) {
        if (a.type == u"max_cost_usd"_s) {
            AssertionResult r;
            r.type = a.type;
            r.name = a.name.isEmpty() ? a.type : a.name;
            r.weight = a.weight;
            const double max = a.params.value(u"value"_s).toDouble();
            if (!run.costUsd) {
                r.reason =
                    Tr::tr("no price for the model %1 (%2)").arg(record.model, m_prices.source());
            } else {
                r.passed = *run.costUsd <= max;
                if (!r.passed)
                    r.reason = Tr::tr("the call cost %1 USD, above %2")
                                   .arg(*run.costUsd, 0, 'g', 4)
                                   .arg(max);
            }
            ordered.append(run.costUsd ? negated(a, record, r) : r);
        } else if (isAsyncAssertion(a.type) || (a.type != u"judge"_s && needsScript(a, row))) {
            async.append(a);
        } else {
            sync.append(a);
            ordered.append(std::nullopt);
        }
    }
    // The checks that need no program and no call run on a worker thread: a schema from the
    // experiment file may be costly to check (up to the validator's budget), and the studio's
    // GUI thread must not wait for it. The run stays in flight until they are done.
    auto promise = std::make_shared<QPromise<QList<AssertionResult>>>();
    auto *watcher = new QFutureWatcher<QList<AssertionResult>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this,
            [this, watcher, run, ordered, async, record, row]() {
                watcher->deleteLater();
                const QList<AssertionResult> evaluated = watcher->future().resultCount() > 0
                    ? watcher->future().result()
                    : QList<AssertionResult>();
                QList<AssertionResult> results;
                qsizetype next = 0;
                for (const std::optional<AssertionResult> &r : ordered)
                    results.append(r ? *r : evaluated.value(next++));
                startAsyncChecks(run, results, async, record, row);
            });
    watcher->setFuture(promise->future());
    promise->start();
    m_checks.start([promise, sync, record, row] {
        QList<AssertionResult> evaluated;
        for (const Assertion &a : sync)
            evaluated.append(evaluateAssertion(a, record, row));
        promise->addResult(evaluated);
        promise->finish();
    });
}

void ExperimentRun::startAsyncChecks(const ExperimentRunRecord &run,
                                     const QList<AssertionResult> &results,
                                     const QList<Assertion> &async, const CallRecord &record,
                                     const DatasetRow &row)
{
    if (run.status == u"cancelled"_s || async.isEmpty()) {
        complete(run, results);
        return;
    }
    // Commands run one after another per run; they may be slow, the calls keep going meanwhile.
    const QString workingDir =
        m_experiment.path.isEmpty() ? QString() : QFileInfo(m_experiment.path).absolutePath();
    auto state =
        std::make_shared<std::pair<QList<AssertionResult>, int>>(results, int(async.size()));
    // Each verdict as it comes; the run is complete with the last one.
    const auto collect = [this, run, state](const AssertionResult &r) {
        state->first.append(r);
        if (--state->second == 0)
            complete(run, state->first);
    };
    for (const Assertion &a : std::as_const(async)) {
        if (a.type == u"judge"_s) {
            startJudge(a, record, collect);
            continue;
        }
        if (a.type != u"command"_s && needsScript(a, row)) {
            // Sandboxed scripts need no trust; they run on a worker thread.
            auto *script = new ScriptedAssertion(a, record, row, this);
            connect(script, &ScriptedAssertion::finished, this,
                    [collect, script](const AssertionResult &r) {
                        script->deleteLater();
                        collect(r);
                    });
            script->start();
            continue;
        }
        if (!isTrusted()) {
            AssertionResult r;
            r.type = a.type;
            r.name = a.name;
            r.weight = a.weight;
            r.reason = Tr::tr("not run: the experiment is not trusted to run programs");
            collect(r);
            continue;
        }
        auto *command = new CommandAssertion(a, record, workingDir, this);
        connect(command, &CommandAssertion::finished, this,
                [collect, command](const AssertionResult &r) {
                    command->deleteLater();
                    collect(r);
                });
        command->start();
    }
}

void ExperimentRun::startJudge(const Assertion &assertion, const CallRecord &judged,
                               std::function<void(const AssertionResult &)> done)
{
    AssertionResult result;
    result.type = assertion.type;
    result.name = assertion.name.isEmpty() ? assertion.type : assertion.name;
    result.weight = assertion.weight;
    const double passScore = assertion.params.value(u"pass_score"_s).toDouble(0.5);
    const auto decide = [passScore, assertion, judged](AssertionResult &r,
                                                       const QJsonObject &output) {
        const double score = output.value(u"score"_s).toDouble();
        r.passed = score >= passScore;
        r.reason = Tr::tr("score %1 (pass from %2): %3")
                       .arg(score)
                       .arg(passScore)
                       .arg(output.value(u"reason"_s).toString());
        const QString why = r.reason;
        const bool judgedPass = r.passed;
        r = negated(assertion, judged, r);
        // Under "not" a failure is the judge's pass: say so, with the judge's own words.
        if (!r.passed && judgedPass)
            r.reason = Tr::tr("the judge passed it, and it must not (\"not\"): %1").arg(why);
        else if (!r.passed || r.reason.isEmpty())
            r.reason = why;
    };
    const QString key = judgeKey(assertion);
    // An earlier session bought this verdict already (it was stopped before the run was stored).
    if (judged.id > 0) {
        const auto stored = m_storedJudges.constFind(judgedKey(judged.id, key));
        if (stored != m_storedJudges.cend()) {
            decide(result, stored->response.toObject());
            result.judgeCallId = stored->callId;
            done(result);
            return;
        }
    }
    const SpecLoadResult spec = specFromJson(judgeSpecJson(assertion), m_experiment.path);
    if (!spec.spec || !m_service) {
        result.reason = Tr::tr("the judge cannot run");
        done(result);
        return;
    }
    // The judge's verdict is a stored call of its own (kind judge), linked to the judged call
    // and to the assertion it answers, so a resumed run finds it.
    LaunchRequest request;
    request.spec = *spec.spec;
    request.input.text = judgeInput(judged);
    request.options.metadata =
        QJsonObject { { u"judge_of"_s, judged.id > 0 ? QJsonValue(judged.id) : QJsonValue() },
                      { u"judge_key"_s, key },
                      { u"experiment_id"_s, m_experimentId },
                      { u"experiment_name"_s, m_experiment.name } };
    CallJob *job = m_service->launch(request);
    m_jobs.append(job);
    connect(job, &CallJob::finished, this,
            [result, decide, done](const LaunchResult &verdict) mutable {
                if (verdict.record.status != CallStatus::Completed)
                    result.reason =
                        Tr::tr("the judge's call ended %1: %2")
                            .arg(callStatusName(verdict.record.status), verdict.record.error);
                else
                    decide(result, verdict.record.response.toObject());
                if (verdict.stored)
                    result.judgeCallId = verdict.record.id;
                done(result);
            });
}

void ExperimentRun::complete(ExperimentRunRecord run, const QList<AssertionResult> &results)
{
    run.passed = run.status != u"cancelled"_s
        && std::all_of(results.begin(), results.end(),
                       [](const AssertionResult &r) { return r.passed; });
    for (const AssertionResult &r : std::as_const(results))
        run.assertions.append(r.toJson());
    // The run counts as in flight until it is stored: the window bounds what waits for the writer.
    auto finish = [this](const ExperimentRunRecord &stored) {
        --m_inFlight;
        if (stored.status != u"cancelled"_s) {
            ++m_done;
            if (!stored.passed)
                ++m_failed;
        }
        m_results.insert(key(stored.caseId, stored.variant, stored.repeat), stored);
        Q_EMIT runFinished(stored);
        fill();
        checkDone();
    };
    CallStore *store = m_service ? m_service->store() : nullptr;
    if (!store || m_experimentId <= 0) {
        finish(run);
        return;
    }
    // Behind its call in the writer's queue, on the writer's connection, off this thread.
    if (StoreWriter *writer = m_service->writer()) {
        writer->perform(
            [run](CallStore &into) {
                WriteResult written;
                written.id = into.saveExperimentRun(run);
                return written;
            },
            this,
            [this, run, finish](const WriteResult &written) mutable {
                if (written.id) {
                    run.id = written.id.value();
                } else {
                    qWarning("experiment %lld: the run of %s could not be stored: %s",
                             m_experimentId, qPrintable(run.caseId),
                             qPrintable(written.id.error().message));
                    if (written.fatal)
                        halt(written.id.error().message);
                }
                finish(run);
            });
        return;
    }
    if (auto id = store->saveExperimentRun(run))
        run.id = id.value();
    finish(run);
}

void ExperimentRun::cancelBatches()
{
    if (!m_rounds) {
        stop();
        return;
    }
    // The cancel requests are answered before the jobs stop (a front end may exit then).
    connect(
        m_rounds, &BatchRounds::cancelRequestsAnswered, this, [this] { stop(); },
        Qt::SingleShotConnection);
    m_rounds->cancel();
}

void ExperimentRun::stop()
{
    if (m_stopping || m_finished)
        return;
    m_stopping = true;
    if (m_rounds)
        m_rounds->detach();
    for (const QPointer<CallJob> &job : std::as_const(m_jobs)) {
        if (job)
            job->cancel();
    }
    QTimer::singleShot(0, this, [this] { checkDone(); });
}

void ExperimentRun::checkDone()
{
    if (m_finished || m_inFlight > 0)
        return;
    if (!m_stopping && !m_halted && m_next < m_plan.size())
        return;
    // The explicit cache entries go before the run is over, whatever ended it.
    if (!m_contentCacheReleased) {
        if (!m_contentCacheReleasing) {
            m_contentCacheReleasing = true;
            m_contentCache->release([this] {
                m_contentCacheReleased = true;
                checkDone();
            });
        }
        return;
    }
    m_finished = true;
    m_lock.reset();
    Q_EMIT finished();
}

ExperimentRun::Progress ExperimentRun::progress() const
{
    return { m_total, m_done, m_failed, m_inFlight, m_resumed, m_notStored };
}

QList<ExperimentRunRecord> ExperimentRun::runs() const
{
    QList<ExperimentRunRecord> out;
    for (const Planned &p : m_plan) {
        const auto it = m_results.find(key(m_experiment.rows.at(p.row).id,
                                           m_experiment.variants.at(p.variant).name, p.repeat));
        if (it != m_results.end())
            out.append(it.value());
    }
    return out;
}

bool ExperimentRun::allPassed() const
{
    const QList<ExperimentRunRecord> done = runs();
    if (done.size() != m_plan.size())
        return false;
    return std::all_of(done.begin(), done.end(),
                       [](const ExperimentRunRecord &r) { return r.passed; });
}

struct ExperimentRun::CellTotals
{
    int good = 0;
    int seen = 0;
    qint64 input = 0;
    qint64 output = 0;
    qint64 cacheRead = 0;
    qint64 cacheWrite = 0;
    double cost = 0;
    double uncached = 0; // the same runs with no prompt cache
    double direct = 0; // the same runs at direct prices (batch experiments)
    int batchedRuns = 0; // runs answered through a provider batch
    int unpriced = 0;
    int cached = 0; // runs answered wholly from the response cache
    double saved = 0; // what the cache's answers would have cost
    double score = 0;
    QList<qint64> latencies;
};

QJsonObject ExperimentRun::cell(const QString &caseId, const QString &variant) const
{
    for (const DatasetRow &row : m_experiment.rows) {
        if (row.id == caseId)
            return results().cellJson(row, variant, nullptr);
    }
    return {};
}

ExperimentRun::Results ExperimentRun::results() const
{
    Results out;
    out.experiment = m_experiment;
    out.experimentId = m_experimentId;
    out.only = m_only;
    out.results = m_results;
    out.prices = m_prices;
    out.labels = m_labels;
    out.explicitCaches = m_contentCache->entries();
    if (m_rounds) {
        out.rounds = m_rounds->overview();
        out.directRuns = m_rounds->directRuns();
    }
    return out;
}

QJsonObject ExperimentRun::summary() const
{
    return results().summary();
}

QJsonObject ExperimentRun::Results::cellJson(const DatasetRow &row, const QString &variant,
                                             CellTotals *totals) const
{
    CellTotals t;
    QJsonArray runs;
    for (int k = 0; k < experiment.repeat; ++k) {
        const auto it = results.find(key(row.id, variant, k));
        if (it == results.end())
            continue;
        const ExperimentRunRecord &run = it.value();
        ++t.seen;
        t.good += run.passed ? 1 : 0;
        t.input += run.inputTokens;
        t.output += run.outputTokens;
        t.cacheRead += run.cacheReadTokens;
        t.cacheWrite += run.cacheWriteTokens;
        if (run.costUsd)
            t.cost += *run.costUsd;
        else
            ++t.unpriced;
        t.uncached += run.uncachedCostUsd ? *run.uncachedCostUsd : run.costUsd.value_or(0);
        if (run.directCostUsd) {
            t.direct += *run.directCostUsd;
            ++t.batchedRuns;
        } else if (run.costUsd) {
            t.direct += *run.costUsd;
        }
        t.latencies.append(run.latencyMs);
        t.cached += run.cached ? 1 : 0;
        t.saved += run.cacheSavedUsd.value_or(0);
        // How close the run came, by the assertions' weights (a pass is 1).
        const double score = weightedScore(run.assertions);
        t.score += score;
        runs.append(QJsonObject {
            { u"repeat"_s, k },
            { u"call_id"_s, run.callId ? QJsonValue(*run.callId) : QJsonValue(QJsonValue::Null) },
            { u"status"_s, run.status },
            { u"passed"_s, run.passed },
            { u"cached"_s, run.cached },
            { u"latency_ms"_s, run.latencyMs },
            { u"cost_usd"_s,
              run.costUsd ? QJsonValue(*run.costUsd) : QJsonValue(QJsonValue::Null) },
            { u"cost_uncached_usd"_s,
              run.uncachedCostUsd ? QJsonValue(*run.uncachedCostUsd)
                                  : QJsonValue(QJsonValue::Null) },
            { u"tokens"_s,
              QJsonObject { { u"input"_s, run.inputTokens },
                            { u"output"_s, run.outputTokens },
                            { u"cache_read"_s, run.cacheReadTokens },
                            { u"cache_write"_s, run.cacheWriteTokens } } },
            { u"score"_s, score },
            { u"assertions"_s, run.assertions } });
    }
    const bool all = t.seen == experiment.repeat && t.good == t.seen;
    const bool isFlaky = t.good > 0 && t.good < t.seen;
    if (totals)
        *totals = t;
    return QJsonObject {
        { u"case"_s, row.id },
        { u"variant"_s, variant },
        { u"passed"_s, all },
        { u"flaky"_s, isFlaky },
        { u"pass_ratio"_s, t.seen ? double(t.good) / t.seen : 0.0 },
        { u"score"_s, t.seen ? t.score / t.seen : 0.0 },
        { u"tokens"_s,
          QJsonObject { { u"input"_s, t.input },
                        { u"output"_s, t.output },
                        { u"cache_read"_s, t.cacheRead },
                        { u"cache_write"_s, t.cacheWrite } } },
        { u"cost_usd"_s,
          t.unpriced == 0 && t.seen > 0 ? QJsonValue(t.cost) : QJsonValue(QJsonValue::Null) },
        { u"cost_uncached_usd"_s,
          t.unpriced == 0 && t.seen > 0 ? QJsonValue(t.uncached) : QJsonValue(QJsonValue::Null) },
        { u"runs"_s, runs }
    };
}

QJsonArray
ExperimentRun::Results::comparisons(const QList<QHash<QString, Stats::CaseOutcome>> &outcomes) const
{
    // Every pair in the order the variants are written: b is measured against a.
    QJsonArray out;
    for (int a = 0; a < outcomes.size(); ++a) {
        for (int b = a + 1; b < outcomes.size(); ++b) {
            const QString nameA = experiment.variants.at(a).name;
            const QString nameB = experiment.variants.at(b).name;
            out.append(Stats::comparePaired(nameA, outcomes.at(a), nameB, outcomes.at(b),
                                            Stats::comparisonSeed(nameA, nameB))
                           .toJson());
        }
    }
    return out;
}

QJsonObject ExperimentRun::Results::summary() const
{
    QJsonArray variants;
    QJsonArray cells;
    // Gemini's explicit cache: what keeping each entry cost, shared evenly by the variants
    // that named it, and in the variants' cost.
    QHash<QString, double> storageOf;
    QJsonArray cacheEntries;
    double storageTotal = 0;
    bool storagePriced = true;
    for (const ExplicitCacheEntry &entry : explicitCaches) {
        QJsonObject json = entry.toJson();
        const auto usd = prices.storageCost(entry.model, entry.tokens, entry.keptSeconds());
        json.insert(u"storage_usd"_s, usd ? QJsonValue(*usd) : QJsonValue(QJsonValue::Null));
        cacheEntries.append(json);
        if (!usd) {
            storagePriced = false;
            continue;
        }
        storageTotal += *usd;
        for (const QString &user : entry.users)
            storageOf[user] += *usd / double(entry.users.size());
    }
    // Per variant, each case that ran every repeat: what the paired comparisons look at.
    QList<QHash<QString, Stats::CaseOutcome>> outcomes(experiment.variants.size());
    for (int v = 0; v < experiment.variants.size(); ++v) {
        const QString variant = experiment.variants.at(v).name;
        int cases = 0, passed = 0, failed = 0, flaky = 0, runCount = 0, unpriced = 0;
        qint64 input = 0, output = 0, cacheRead = 0, cacheWrite = 0;
        double cost = 0, direct = 0, uncached = 0;
        int batchedRuns = 0;
        int cachedRuns = 0;
        double saved = 0;
        double scoreSum = 0;
        QList<qint64> latencies;
        for (int r = 0; r < experiment.rows.size(); ++r) {
            const DatasetRow &row = experiment.rows.at(r);
            if (!only.isEmpty() && !only.contains(row.id))
                continue;
            ++cases;
            CellTotals t;
            QJsonObject cell = cellJson(row, variant, &t);
            runCount += t.seen;
            input += t.input;
            output += t.output;
            cacheRead += t.cacheRead;
            cacheWrite += t.cacheWrite;
            cost += t.cost;
            uncached += t.uncached;
            direct += t.direct;
            batchedRuns += t.batchedRuns;
            unpriced += t.unpriced;
            cachedRuns += t.cached;
            saved += t.saved;
            scoreSum += t.score;
            latencies += t.latencies;

            const bool all = cell.value(u"passed"_s).toBool();
            const bool isFlaky = cell.value(u"flaky"_s).toBool();
            passed += all ? 1 : 0;
            flaky += isFlaky ? 1 : 0;
            failed += !all && !isFlaky ? 1 : 0;
            if (t.seen == experiment.repeat && t.seen > 0)
                outcomes[v].insert(row.id, { t.seen, t.good, all, t.score / t.seen });
            cells.append(cell);
        }
        const double storage = storageOf.value(variant);
        cost += storage;
        QJsonObject entry {
            { u"name"_s, variant },
            { u"cases"_s, cases },
            { u"passed"_s, passed },
            { u"failed"_s, failed },
            { u"flaky"_s, flaky },
            { u"pass_rate"_s, cases ? double(passed) / cases : 0.0 },
            // The mean weighted score of the runs: pass rate counts whole cases, this counts
            // each assertion by its weight, so a variant that fails one light check scores high.
            { u"score"_s, runCount ? scoreSum / runCount : 0.0 },
            { u"runs"_s, runCount },
            { u"tokens"_s,
              QJsonObject { { u"input"_s, input },
                            { u"output"_s, output },
                            { u"cache_read"_s, cacheRead },
                            { u"cache_write"_s, cacheWrite } } },
            // Cache-read tokens over every prompt token the variant sent.
            { u"cache_hit_rate"_s,
              input + cacheRead + cacheWrite > 0
                  ? double(cacheRead) / double(input + cacheRead + cacheWrite)
                  : 0.0 },
            // A run on a model with no price makes the total unknown: null, never a wrong 0.
            { u"cost_usd"_s,
              unpriced == 0 && runCount > 0 ? QJsonValue(cost) : QJsonValue(QJsonValue::Null) },
            { u"cost_uncached_usd"_s,
              unpriced == 0 && runCount > 0 ? QJsonValue(uncached) : QJsonValue(QJsonValue::Null) },
            // What the provider's prompt cache saved against the same runs with no cache
            // (negative when writes cost more than the reads gave back), what the response
            // cache saved (runs answered from the history, no request sent), and both together.
            { u"prompt_cache_saved_usd"_s,
              unpriced == 0 && runCount > 0 ? QJsonValue(uncached - cost)
                                            : QJsonValue(QJsonValue::Null) },
            { u"response_cache_saved_usd"_s,
              unpriced == 0 && runCount > 0 ? QJsonValue(saved) : QJsonValue(QJsonValue::Null) },
            { u"cache_saved_usd"_s,
              unpriced == 0 && runCount > 0 ? QJsonValue(uncached - cost + saved)
                                            : QJsonValue(QJsonValue::Null) },
            // Gemini's explicit cache storage (in cost_usd, not in cost_uncached_usd).
            { u"cache_storage_usd"_s, storage },
            { u"unpriced_runs"_s, unpriced },
            { u"cached_runs"_s, cachedRuns },
            { u"latency_ms"_s,
              QJsonObject { { u"p50"_s, percentile(latencies, 0.5) },
                            { u"p95"_s, percentile(latencies, 0.95) } } }
        };
        if (experiment.repeat > 1) {
            const QList<Stats::CaseOutcome> complete = outcomes.at(v).values();
            entry.insert(u"pass_at_k"_s, Stats::passAtKJson(complete, experiment.repeat, false));
            entry.insert(u"pass_hat_k"_s, Stats::passAtKJson(complete, experiment.repeat, true));
        }
        if (experiment.via == u"batch"_s) {
            // What the same runs would have cost at direct prices, and the difference.
            const bool priced = unpriced == 0 && runCount > 0;
            entry.insert(u"batch_runs"_s, batchedRuns);
            entry.insert(u"cost_direct_usd"_s,
                         priced ? QJsonValue(direct) : QJsonValue(QJsonValue::Null));
            entry.insert(u"batch_saved_usd"_s,
                         priced ? QJsonValue(direct - cost) : QJsonValue(QJsonValue::Null));
        }
        variants.append(entry);
    }
    addCacheAdvice(variants, experiment);
    QJsonObject summary { { u"experiment_id"_s, experimentId },
                          { u"name"_s, experiment.name },
                          { u"prices"_s,
                            QJsonObject { { u"source"_s, prices.source() },
                                          { u"as_of"_s, prices.asOf() } } },
                          { u"variants"_s, variants },
                          { u"comparisons"_s, comparisons(outcomes) },
                          { u"cells"_s, cells } };
    if (!cacheEntries.isEmpty())
        summary.insert(u"explicit_cache"_s,
                       QJsonObject { { u"entries"_s, cacheEntries },
                                     { u"storage_usd"_s,
                                       storagePriced ? QJsonValue(storageTotal)
                                                     : QJsonValue(QJsonValue::Null) } });
    if (!labels.isEmpty()) {
        QList<ExperimentRunRecord> runs;
        runs.reserve(results.size());
        for (const ExperimentRunRecord &run : results)
            runs.append(run);
        // In a fixed order, so the agreement lists its judges as the runs meet them.
        std::sort(runs.begin(), runs.end(),
                  [](const ExperimentRunRecord &a, const ExperimentRunRecord &b) {
                      return a.id != b.id
                          ? a.id < b.id
                          : key(a.caseId, a.variant, a.repeat) < key(b.caseId, b.variant, b.repeat);
                  });
        summary.insert(u"review"_s, reviewSummary(runs, labels));
    }
    if (experiment.via == u"batch"_s) {
        QJsonObject batch { { u"via"_s, u"batch"_s } };
        if (rounds) {
            const BatchRoundsOverview &overview = *rounds;
            int roundCount = 0;
            QJsonArray batches;
            for (const BatchRoundState &b : overview.batches) {
                roundCount = std::max(roundCount, b.round);
                batches.append(QJsonObject { { u"id"_s, b.batchId },
                                             { u"engine_type"_s, b.engineType },
                                             { u"round"_s, b.round },
                                             { u"part"_s, b.part },
                                             { u"status"_s, b.status },
                                             { u"provider_id"_s, b.providerId },
                                             { u"lines"_s, b.lines } });
            }
            batch.insert(u"rounds"_s, roundCount);
            batch.insert(u"batches"_s, batches);
            batch.insert(u"direct_runs"_s, directRuns);
        }
        summary.insert(u"batch"_s, batch);
    }
    return summary;
}

} // namespace Callscope
