#pragma once

// CallTelemetry: turns the calls a CallService finishes into spans for an OtlpExporter
// (core/telemetry). It only listens (CallService::jobFinished), so a call never waits for it
// and a failing export never fails a call. A revision gets a span link to the call it revised
// (read from the history); the calls of an experiment run share the run's trace, and the
// run's `experiment {name}` span is sent by finishExperiments() (and on destruction, which
// comes with the service's), spanning the first to the last call seen. Calls and turns carry
// their cost (callscope.cost.usd) when the price table knows the model. An experiment through
// provider batches gets a span per round and engine once every batch of that round closed.

#include "core/eval/pricetable.h"
#include "core/model/callrecord.h"
#include "core/telemetry/otlpexporter.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>

namespace Callscope {

class BatchRounds;
class CallService;
class CallStore;
class StoreWriter;

class CallTelemetry final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CallTelemetry)

public:
    // `store` (may be null) is read for the parent of a revision and an experiment's name.
    CallTelemetry(Telemetry::OtlpExporter *exporter, CallStore *store, QObject *parent = nullptr);
    ~CallTelemetry() override;

    void watch(CallService *service);
    // With a writer, the parent of a revision is read in its queue, off the calling thread (the
    // studio's GUI thread must not wait for SQLite); without one it is read at once (the CLI,
    // whose process may end right after the call).
    void setWriter(StoreWriter *writer) { m_writer = writer; }
    // The provider batch rounds of a running experiment (ExperimentRun hands them over).
    void watch(BatchRounds *rounds);
    // The prices costs are figured with (PriceTable::fromSettings() unless set).
    void setPriceTable(const PriceTable &prices) { m_prices = prices; }
    // Queues the spans of one finished call (live, or from the history).
    void exportCall(const CallRecord &record);
    // Sends the experiment spans of the experiment runs whose calls were exported.
    void finishExperiments();

    Telemetry::OtlpExporter *exporter() const { return m_exporter; }

private:
    struct ExperimentSeen
    {
        QString name;
        QDateTime first;
        QDateTime last;
        int runs = 0;
        int failed = 0;
    };

    void roundsChanged(BatchRounds *rounds);
    Telemetry::SpanOptions spanOptions() const;

    Telemetry::OtlpExporter *m_exporter;
    CallStore *m_store;
    StoreWriter *m_writer = nullptr; // the service's, which outlives this
    PriceTable m_prices = PriceTable::fromSettings();
    QSet<QString> m_roundsSeenOpen; // experiment/engine/round of rounds open in this process
    QSet<QString> m_roundsSent;
    QHash<QString, ExperimentSeen> m_experiments;
};

} // namespace Callscope
