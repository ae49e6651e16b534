#include "core/eval/calltelemetry.h"

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
                m_exporter->submit(Telemetry::callSpans(record, m_exporter->config().spans,
                                                        ref ? *ref : std::nullopt));
            });
    } else {
        std::optional<Telemetry::TraceRef> revisionOf;
        if (record.parent && m_store) {
            if (auto parent = m_store->getCall(*record.parent))
                revisionOf = Telemetry::callTraceRef(parent.value());
        }
        m_exporter->submit(Telemetry::callSpans(record, m_exporter->config().spans, revisionOf));
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
