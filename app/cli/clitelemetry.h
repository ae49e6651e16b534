#pragma once

// The OTLP export of callscope-cli (docs/telemetry.md): on when --otlp ENDPOINT is given or
// OTEL_EXPORTER_OTLP_ENDPOINT / OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set (OTEL_SDK_DISABLED=true
// turns it off). Every call any command runs is then exported as it finishes, and the program
// waits at most 2 s on exit for what is still queued.

#include "core/telemetry/otlpconfig.h"

#include <QStringList>

namespace Callscope::Telemetry {
class OtlpExporter;
}

namespace Callscope::Cli {

// Takes "--otlp ENDPOINT" out of `arguments`, reads the environment and, when the export is
// on, watches every call service the command makes. False (after printing why) on a bad
// endpoint, protocol or capture level.
bool startTelemetry(QStringList &arguments);
// For "export ... --otlp": true when `arguments` hold --otlp, which makes the export one of
// stored calls as spans (export-otlp). A bare --otlp (last, or before another option) is taken
// out: the endpoint then comes from the environment; "--otlp ENDPOINT" is left for
// startTelemetry().
bool takeOtlpExportFlag(QStringList &arguments);
// The exporter, or null when the export is off.
Telemetry::OtlpExporter *telemetryExporter();
// Sends what is still queued, at most 2 s; prints the spans that were dropped or refused.
void finishTelemetry();

} // namespace Callscope::Cli
