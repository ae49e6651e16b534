#pragma once

// A call, an experiment run and a provider batch round as spans of the OpenTelemetry GenAI
// semantic conventions (version kSemconvVersion, pinned: the conventions are still in
// Development status).
//
//   invoke_agent {kind}            INTERNAL, one per call, the whole tool loop
//     chat {model}                 CLIENT, one per turn (request, response, usage, attempts)
//       execute_tool {name}        INTERNAL, one per tool the turn asked for that ran (after
//                                  the chat span, until the next turn; edits as events)
//
// A call of an experiment run goes into the run's trace, under its `experiment {name}` span.
// Ids come from stable keys (the call's id and start time, the experiment's id), so a call
// exported live and later from the history has the same trace and span ids.
//
// Content (prompts, messages, tool arguments and results) is captured only at
// CaptureLevel::Full; Metadata adds names and sizes; None (the default) neither. Keys and
// headers are never part of a CallRecord, so no level can export them.

#include "core/model/callrecord.h"
#include "core/telemetry/span.h"

#include <QList>
#include <QString>
#include <QUrl>

#include <functional>
#include <optional>

namespace Callscope::Telemetry {

inline constexpr QLatin1StringView kSemconvVersion { "1.37.0" };
inline constexpr QLatin1StringView kSchemaUrl { "https://opentelemetry.io/schemas/1.37.0" };
inline constexpr QLatin1StringView kScopeName { "callscope" };

enum class CaptureLevel { None, Metadata, Full };
QString captureLevelName(CaptureLevel level);
std::optional<CaptureLevel> captureLevelFromName(QStringView name);

struct SpanOptions
{
    CaptureLevel capture = CaptureLevel::None;
    // OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental: only the pinned version's
    // names. Without it the names older viewers read (gen_ai.system) are sent beside them.
    bool latestExperimental = false;
    // The cost in USD of `usage` (the whole call's, or one turn's) of `record`, when the price
    // table knows its model; nullopt otherwise, and then no cost attribute is sent. Unset: no
    // costs at all (core/telemetry knows no prices; CallTelemetry sets it from the table).
    std::function<std::optional<double>(const CallRecord &record, const Usage &usage)> cost;
};

struct TraceRef
{
    QByteArray traceId;
    QByteArray spanId;
};

// Where a call's spans go: its own trace, or its experiment run's.
TraceRef callTraceRef(const CallRecord &record);
TraceRef experimentTraceRef(const QString &experimentId);

// The spans of one finished call. `revisionOf` is the call this one revised (a span link to
// its invoke_agent span).
QList<Span> callSpans(const CallRecord &record, const SpanOptions &options,
                      const std::optional<TraceRef> &revisionOf = std::nullopt);

struct ExperimentSpanInput
{
    QString experimentId;
    QString name;
    QDateTime startedAt;
    QDateTime finishedAt;
    int runs = 0;
    int failed = 0;
};
Span experimentSpan(const ExperimentSpanInput &input);

// One round of an experiment's provider batches on one engine (all parts of the round): a
// child of the experiment span, from the first part's creation to the last part's end.
struct BatchRoundSpanInput
{
    QString experimentId;
    QString engine; // type|base URL|model (no key)
    QString engineType;
    QString model;
    int round = 0;
    int parts = 0;
    QDateTime createdAt;
    QDateTime submittedAt; // the first part's
    QDateTime endedAt; // the last part's
    int lines = 0;
    int succeeded = 0;
    int failedLines = 0; // errored at the provider
    QStringList statuses; // per part: ended, failed, abandoned
    QStringList providerIds;
};
Span batchRoundSpan(const BatchRoundSpanInput &input);

// The address of a call's trace in the team's trace viewer, from a template that holds
// {trace_id} and may hold {span_id} (the call's invoke_agent span), both filled in as lower-case
// hex; for example http://localhost:16686/trace/{trace_id} for Jaeger. An empty URL when the
// template is empty or has a problem (below).
QUrl traceViewerUrl(const QString &urlTemplate, const TraceRef &ref);
// Why a template cannot give such an address (it is not an http or https URL, or has no
// {trace_id}), in words for the person; empty when it can, or when it is empty.
QString traceViewerTemplateProblem(const QString &urlTemplate);

// `gen_ai.provider.name` of an engine type ("openai", "anthropic", "gcp.gemini", ...).
QString providerName(const QString &engineType);

} // namespace Callscope::Telemetry
