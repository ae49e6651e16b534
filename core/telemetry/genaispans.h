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

// `gen_ai.provider.name` of an engine type ("openai", "anthropic", "gcp.gemini", ...).
QString providerName(const QString &engineType);

} // namespace Callscope::Telemetry
