#include "core/eval/calltelemetry.h"

#include "core/eval/batchrounds.h"
#include "core/service/calljob.h"
#include "core/service/callservice.h"
#include "core/store/callstore.h"
#include "core/store/storewriter.h"
#include "core/telemetry/genaispans.h"

using namespace Qt::StringLiterals;

namespace Callscope {

CallTelemetry::CallTelemetry(Telemetry::OtlpExporter *exporter, CallStore *store, QObject *parent)
    : QObject(parent)
    , m_exporter(exporter)
    , m_store(store)
{ }

CallTelemetry::~CallTelemetry()
{
    finishExperiments();
}

void CallTelemetry::watch(CallService *service)
{
    connect(service, &CallService::jobFinished, this,
            [this](CallJob *, const LaunchResult &result) { exportCall(result.record); });
}

Telemetry::SpanOptions CallTelemetry::spanOptions() const
{
    Telemetry::SpanOptions options = m_exporter->config().spans;
    // The same rules as the history's cost column: a replay costs nothing, a call answered
    // through a provider batch is at batch prices, an unknown model has no cost.
    options.cost = [prices = m_prices](const CallRecord &record,
                                       const Usage &usage) -> std::optional<double> {
        if (record.engineType == u"replay"_s)
            return 0.0;
        const QString model = record.model.isEmpty()
            ? record.spec.value(u"engine"_s).toObject().value(u"model"_s).toString()
            : record.model;
        return prices.cost(model, usage, record.metadata.value(u"via"_s).toString() == u"batch"_s);
    };
    return options;
}

void CallTelemetry::watch(BatchRounds *rounds)
{
    const QPointer<BatchRounds> guard(rounds);
    connect(rounds, &BatchRounds::changed, this, [this, guard] {
        if (guard)
            roundsChanged(guard);
    });
}

void CallTelemetry::roundsChanged(BatchRounds *rounds)
{
    const QString experiment = QString::number(rounds->experimentId());
    QHash<QString, QList<BatchRoundState>> byRound;
    QStringList order;
    for (const BatchRoundState &batch : rounds->overview().batches) {
        const QString key = experiment + u'/' + batch.engine + u'/' + QString::number(batch.round);
        if (!byRound.contains(key))
            order.append(key);
        byRound[key].append(batch);
    }
    QList<Telemetry::Span> spans;
    for (const QString &key : std::as_const(order)) {
        const QList<BatchRoundState> &parts = byRound[key];
        const bool open = std::any_of(parts.cbegin(), parts.cend(), [](const BatchRoundState &b) {
            return ProviderBatchRecord::isOpenStatus(b.status);
        });
        if (open) {
            m_roundsSeenOpen.insert(key);
            continue;
        }
        // Rounds that closed in an earlier process were sent then.
        if (!m_roundsSeenOpen.contains(key) || m_roundsSent.contains(key))
            continue;
        m_roundsSent.insert(key);
        Telemetry::BatchRoundSpanInput input;
        input.experimentId = experiment;
        input.engine = parts.first().engine;
        input.engineType = parts.first().engineType;
        input.model = input.engine.section(u'|', 2, 2);
        input.round = parts.first().round;
        input.parts = int(parts.size());
        for (const BatchRoundState &part : parts) {
            if (part.createdAt.isValid()
                && (!input.createdAt.isValid() || part.createdAt < input.createdAt))
                input.createdAt = part.createdAt;
            if (part.submittedAt.isValid()
                && (!input.submittedAt.isValid() || part.submittedAt < input.submittedAt))
                input.submittedAt = part.submittedAt;
            if (part.endedAt.isValid() && part.endedAt > input.endedAt)
                input.endedAt = part.endedAt;
            input.lines += part.lines;
            input.succeeded += part.succeeded;
            input.failedLines += std::max(0, part.lines - part.succeeded);
            input.statuses.append(part.status);
            input.providerIds.append(part.providerId);
        }
        if (!input.createdAt.isValid())
            input.createdAt = input.submittedAt;
        if (!input.endedAt.isValid())
            input.endedAt = QDateTime::currentDateTimeUtc();
        spans.append(Telemetry::batchRoundSpan(input));
    }
    m_exporter->submit(spans);
}

void CallTelemetry::exportCall(const CallRecord &record)
{
    if (record.parent && m_store && m_writer) {
        const qint64 parent = *record.parent;
        runOnStore<std::optional<Telemetry::TraceRef>>(
            m_writer, m_store, this,
            [parent](CallStore &from) -> std::optional<Telemetry::TraceRef> {
                if (auto call = from.getCall(parent))
                    return Telemetry::callTraceRef(call.value());
                return std::nullopt;
            },
            [this, record](const std::optional<Telemetry::TraceRef> *ref, const QString &) {
                m_exporter->submit(
                    Telemetry::callSpans(record, spanOptions(), ref ? *ref : std::nullopt));
            });
    } else {
        std::optional<Telemetry::TraceRef> revisionOf;
        if (record.parent && m_store) {
            if (auto parent = m_store->getCall(*record.parent))
                revisionOf = Telemetry::callTraceRef(parent.value());
        }
        m_exporter->submit(Telemetry::callSpans(record, spanOptions(), revisionOf));
    }

    const QJsonValue experiment = record.metadata.value(u"experiment_id"_s);
    if (experiment.isUndefined() || experiment.isNull())
        return;
    const QString id =
        experiment.isDouble() ? QString::number(experiment.toInteger()) : experiment.toString();
    ExperimentSeen &seen = m_experiments[id];
    if (seen.name.isEmpty()) {
        // The experiment's runs carry its name; older stored calls are looked up.
        seen.name = record.metadata.value(u"experiment_name"_s).toString();
        if (seen.name.isEmpty())
            seen.name = id;
        if (seen.name == id && m_store && !m_writer) {
            if (auto stored = m_store->getExperiment(id.toLongLong()); stored && stored.value())
                seen.name = stored.value()->name;
        }
    }
    if (!seen.first.isValid() || record.createdAt < seen.first)
        seen.first = record.createdAt;
    if (!seen.last.isValid() || record.finishedAt > seen.last)
        seen.last = record.finishedAt;
    ++seen.runs;
    if (record.status != CallStatus::Completed)
        ++seen.failed;
}

void CallTelemetry::finishExperiments()
{
    QList<Telemetry::Span> spans;
    for (auto it = m_experiments.cbegin(); it != m_experiments.cend(); ++it) {
        Telemetry::ExperimentSpanInput input;
        input.experimentId = it.key();
        input.name = it->name;
        input.startedAt = it->first;
        input.finishedAt = it->last;
        input.runs = it->runs;
        input.failed = it->failed;
        spans.append(Telemetry::experimentSpan(input));
    }
    m_experiments.clear();
    m_exporter->submit(spans);
}

} // namespace Callscope
