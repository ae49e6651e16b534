#include "core/service/callservice.h"

#include "core/model/specio.h"
#include "core/secrets/credentialstore.h"
#include "core/secrets/profilestore.h"
#include "core/service/calljob.h"
#include "core/service/scheduler.h"
#include "core/store/callstore.h"
#include "core/store/storewriter.h"

#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QSettings>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Callscope {

CallService::CallService(QNetworkAccessManager *nam, CallStore *store, CredentialStore *credentials,
                         ProfileStore *profiles, QObject *parent)
    : QObject(parent)
    , m_nam(nam)
    , m_store(store)
    , m_credentials(credentials)
    , m_profiles(profiles)
    , m_scheduler(new Scheduler(this))
{ }

CallService::~CallService()
{
    // Jobs still running end here; what they would store is lost, but nothing is half-written.
    const QList<CallJob *> jobs = m_jobs;
    for (CallJob *job : jobs)
        job->disconnect(this);
    qDeleteAll(jobs);
    m_jobs.clear();
    delete m_writer; // writes what is queued first
    m_writer = nullptr;
}

StoreWriter *CallService::writer()
{
    if (!m_writerChecked) {
        m_writerChecked = true;
        // One writer thread over its own connection; a store without a file (tests that use a
        // private path are files too) is written in place.
        const QString path = !m_queueServer.isEmpty()
            ? m_queueServer
            : (m_store ? m_store->database().path() : QString());
        if (!path.isEmpty() && path != u":memory:"_s)
            m_writer = new StoreWriter(path);
    }
    return m_writer;
}

CredentialStore *CallService::credentials()
{
    if (!m_credentials)
        m_credentials = new CredentialStore(this);
    return m_credentials;
}

QNetworkAccessManager *CallService::acquireNetwork(const QString &key)
{
    constexpr int kConnectionsPerHost = 6;
    if (!m_nam)
        return nullptr;
    QList<QNetworkAccessManager *> pool { m_nam.data() };
    pool += m_extraNetworks;
    for (QNetworkAccessManager *nam : std::as_const(pool)) {
        int &load = m_networkLoad[nam][key];
        if (load < kConnectionsPerHost) {
            ++load;
            return nam;
        }
    }
    auto *nam = new QNetworkAccessManager(this);
    nam->setProxy(m_nam->proxy());
    m_extraNetworks.append(nam);
    m_networkLoad[nam][key] = 1;
    return nam;
}

void CallService::releaseNetwork(QNetworkAccessManager *nam, const QString &key)
{
    auto it = m_networkLoad.find(nam);
    if (it == m_networkLoad.end())
        return;
    auto load = it->find(key);
    if (load != it->end() && --load.value() <= 0)
        it->erase(load);
}

void CallService::claimSession(qint64 session, CallJob *job, std::function<void()> go)
{
    const QPointer<CallJob> holder = m_sessionHolder.value(session);
    if (!holder || holder == job) {
        m_sessionHolder.insert(session, job);
        go();
        return;
    }
    m_sessionWaiters[session].append({ job, std::move(go) });
}

void CallService::releaseSession(qint64 session, CallJob *job)
{
    if (m_sessionHolder.value(session) != job)
        return;
    m_sessionHolder.remove(session);
    auto &waiters = m_sessionWaiters[session];
    while (!waiters.isEmpty()) {
        SessionWaiter next = waiters.takeFirst();
        if (!next.job)
            continue;
        m_sessionHolder.insert(session, next.job);
        // From the event loop: the releasing job is still unwinding.
        QTimer::singleShot(0, next.job, std::move(next.go));
        break;
    }
    if (waiters.isEmpty())
        m_sessionWaiters.remove(session);
}

void CallService::flushWrites()
{
    if (m_writer)
        m_writer->flush();
}

void CallService::loadLimitsFromSettings()
{
    QSettings settings;
    const int global =
        settings.value(u"scheduler/global_limit"_s, Scheduler::DefaultGlobalLimit).toInt();
    m_scheduler->setGlobalLimit(global > 0 ? global : Scheduler::DefaultGlobalLimit);
    m_scheduler->setDefaultEngineLimit(
        std::max(0, settings.value(u"scheduler/engine_limit"_s, 0).toInt()));
    if (m_profiles) {
        for (const EngineProfile &profile : m_profiles->list())
            m_scheduler->setEngineLimit(u"profile:"_s + profile.name,
                                        profile.maxInFlight.value_or(0));
    }
}

QList<CallJob *> CallService::jobs() const
{
    return m_jobs;
}

void CallService::cancelAll()
{
    const QList<CallJob *> jobs = m_jobs;
    for (CallJob *job : jobs)
        job->cancel();
}

CallJob *CallService::makeJob(int kind, const LaunchRequest &request)
{
    auto *job = new CallJob(this, CallJob::Kind(kind), request, ++m_nextJobId);
    m_jobs.append(job);
    connect(job, &CallJob::finished, this,
            [this, job](const LaunchResult &result) { onJobFinished(job, result); });
    Q_EMIT jobAdded(job);
    return job;
}

CallJob *CallService::failedJob(int kind, const LaunchRequest &request, const QString &why)
{
    CallJob *job = makeJob(kind, request);
    QTimer::singleShot(0, job, [job, why] { job->fail(ErrorCategory::Other, why); });
    return job;
}

void CallService::onJobFinished(CallJob *job, const LaunchResult &result)
{
    m_jobs.removeOne(job);
    Q_EMIT jobFinished(job, result);
    job->deleteLater();
}

namespace {

int kindOf(const LaunchRequest &request)
{
    return int(request.reviseOf                 ? CallJob::Kind::Revision
                   : !request.rerunOf.isEmpty() ? CallJob::Kind::Rerun
                   : request.sessionId          ? CallJob::Kind::SessionTurn
                                                : CallJob::Kind::Run);
}

} // namespace

CallJob *CallService::launch(const LaunchRequest &request)
{
    CallJob *job = makeJob(kindOf(request), request);
    job->start();
    return job;
}

CallJob *CallService::launch(const LaunchCheck &checked)
{
    CallJob *job = makeJob(kindOf(checked.request), checked.request);
    if (!checked.ok()) {
        QTimer::singleShot(0, job, [job, category = checked.category, why = checked.message] {
            job->fail(category, why);
        });
        return job;
    }
    job->m_checked = true;
    job->start();
    return job;
}

CallJob *CallService::revise(qint64 callId, const QString &correction, const RunOptions &options,
                             const std::optional<EngineSpec> &engine)
{
    LaunchRequest request;
    request.input.text = correction;
    request.options = options;
    request.reviseOf = callId;
    if (!m_store)
        return failedJob(int(CallJob::Kind::Revision), request,
                         tr("revising a call needs the history database"));
    auto parent = m_store->getCall(callId);
    if (!parent)
        return failedJob(int(CallJob::Kind::Revision), request,
                         tr("cannot revise call %1: %2").arg(callId).arg(parent.error().message));
    return revise(parent.value(), correction, options, engine);
}

CallJob *CallService::revise(const CallRecord &p, const QString &correction,
                             const RunOptions &options, const std::optional<EngineSpec> &engine)
{
    const qint64 callId = p.id;
    LaunchRequest request;
    request.input.text = correction;
    request.options = options;
    request.reviseOf = callId;
    if (!m_store)
        return failedJob(int(CallJob::Kind::Revision), request,
                         tr("revising a call needs the history database"));
    SpecLoadResult loaded = specFromJson(p.spec, p.metadata.value(u"spec_path"_s).toString());
    if (!loaded.spec)
        return failedJob(
            int(CallJob::Kind::Revision), request,
            tr("call %1 has no usable spec stored: %2")
                .arg(callId)
                .arg(loaded.errors.isEmpty() ? QString() : loaded.errors.first().message));
    request.spec = *loaded.spec;
    if (revisionNeedsLiveEngine(p, engine)
        || (!engine && request.spec.engine.type == EngineType::Replay))
        return failedJob(
            int(CallJob::Kind::Revision), request,
            tr("call %1 ran on the replay engine: its recording would answer the same whatever the "
               "correction says, so nothing was sent. Revise it on a live engine (an engine "
               "profile: "
               "revise %1 --engine PROFILE).")
                .arg(callId));
    if (engine) {
        EngineSpec chosen = *engine;
        if (!chosen.maxTokens)
            chosen.maxTokens = request.spec.engine.maxTokens;
        if (!chosen.temperature)
            chosen.temperature = request.spec.engine.temperature;
        request.spec.engine = chosen;
    }
    request.sessionId = p.session;
    if (!p.session)
        request.options.priorMessages = messagesFromJson(p.messages);
    return launch(request);
}

bool CallService::revisionNeedsLiveEngine(const CallRecord &call,
                                          const std::optional<EngineSpec> &engine)
{
    if (engine)
        return engine->type == EngineType::Replay
            && !(engine->typeFromProfile && !engine->profile.isEmpty());
    return call.engineType == engineTypeName(EngineType::Replay);
}

CallJob *CallService::rerun(qint64 callId, const Spec &spec, const RunOptions &options)
{
    LaunchRequest request;
    request.spec = spec;
    request.options = options;
    return rerun(callId, check(request));
}

CallJob *CallService::rerun(qint64 callId, const LaunchCheck &checked)
{
    LaunchCheck next = checked;
    LaunchRequest &request = next.request;
    request.options.parent = callId;
    request.rerunOf = QString::number(callId);
    if (!m_store)
        return failedJob(int(CallJob::Kind::Rerun), request,
                         tr("running a call again needs the history database"));
    auto original = m_store->getCall(callId);
    if (!original)
        return failedJob(int(CallJob::Kind::Rerun), request, original.error().message);
    return rerun(original.value(), checked);
}

CallJob *CallService::rerun(const CallRecord &original, const Spec &spec, const RunOptions &options)
{
    LaunchRequest request;
    request.spec = spec;
    request.options = options;
    return rerun(original, check(request));
}

CallJob *CallService::rerun(const CallRecord &original, const LaunchCheck &checked)
{
    LaunchCheck next = checked;
    LaunchRequest &request = next.request;
    request.options.parent = original.id;
    request.rerunOf = QString::number(original.id);
    if (!m_store)
        return failedJob(int(CallJob::Kind::Rerun), request,
                         tr("running a call again needs the history database"));
    request.input.text = original.input.value(u"text"_s).toString();
    return launch(next);
}

CallJob *CallService::compact(qint64 sessionId, int keepRecent, const Spec &engineFrom)
{
    LaunchRequest request;
    request.spec.kind = u"compaction"_s;
    request.spec.engine = engineFrom.engine;
    request.spec.sourcePath = engineFrom.sourcePath;
    request.sessionId = sessionId;
    CallJob *job = makeJob(int(CallJob::Kind::Compaction), request);
    job->m_compactionTask = CallJob::CompactionTask { sessionId, keepRecent, engineFrom };
    job->start();
    return job;
}

} // namespace Callscope
