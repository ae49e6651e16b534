#pragma once

// Where and how spans are exported: the OpenTelemetry exporter environment variables (and the
// studio's settings, group "telemetry"), read into one value.
//
//   OTEL_SDK_DISABLED=true                      nothing is exported
//   OTEL_EXPORTER_OTLP_TRACES_ENDPOINT          the traces URL, used as given
//   OTEL_EXPORTER_OTLP_ENDPOINT                 the base URL; "/v1/traces" is appended
//   OTEL_EXPORTER_OTLP_[TRACES_]PROTOCOL        http/protobuf (default) or http/json
//   OTEL_EXPORTER_OTLP_[TRACES_]HEADERS         k=v,k2=v2 (values percent-decoded)
//   OTEL_EXPORTER_OTLP_[TRACES_]COMPRESSION     gzip or none (default none)
//   OTEL_EXPORTER_OTLP_[TRACES_]TIMEOUT         ms per export request (default 10000)
//   OTEL_SERVICE_NAME                           service.name (default "callscope")
//   OTEL_SEMCONV_STABILITY_OPT_IN               gen_ai_latest_experimental honoured
//   CALLSCOPE_OTEL_CAPTURE                      none (default), metadata or full
//
// Header values may hold tokens: they are sent and never logged, stored or shown.

#include "core/engines/retrypolicy.h"
#include "core/telemetry/genaispans.h"

#include <QProcessEnvironment>
#include <QString>
#include <QUrl>

#include <optional>

class QSettings;

namespace Callscope::Telemetry {

enum class OtlpProtocol { Protobuf, Json };

struct OtlpConfig
{
    bool enabled = false;
    QUrl tracesUrl;
    OtlpProtocol protocol = OtlpProtocol::Protobuf;
    HttpHeaderList headers;
    bool gzip = false; // bodies sent with Content-Encoding: gzip
    bool headersPending = false; // the exporter holds spans until OtlpExporter::setHeaders()
    QString serviceName = QStringLiteral("callscope");
    SpanOptions spans;
    qint64 timeoutMs = 10000; // one export request
    int maxQueueSpans = 2048; // spans waiting beyond this are dropped (and counted)
    int maxBatchSpans = 512; // spans per request
    int batchDelayMs = 200; // how long a first span waits for company
    int maxAttempts = 5; // per batch, the first one included (429/502/503/504 only)
    qint64 maxRetryDelayMs = 30000; // a server asking for longer: the batch is dropped
    QString problem; // why an asked-for export cannot run (bad URL, grpc); empty when fine

    // The traces URL of a base endpoint ("http://host:4318" -> "http://host:4318/v1/traces").
    static QUrl tracesUrlFor(const QString &baseEndpoint);
    // From the environment; `endpointOverride` (the --otlp flag) is a base endpoint that wins
    // over the variables and turns the export on.
    static OtlpConfig fromEnvironment(const QProcessEnvironment &env,
                                      const QString &endpointOverride = {});
    // The studio's settings (telemetry/enabled, endpoint, protocol, capture, compression), then
    // the environment over them. Header values live in the keychain, not in the settings: the
    // studio reads them (core/eval/telemetrysettings.h) and hands them to the exporter.
    static OtlpConfig fromSettings(const QSettings &settings, const QProcessEnvironment &env);

    static QString protocolName(OtlpProtocol protocol);
    static std::optional<OtlpProtocol> protocolFromName(const QString &name);
    static HttpHeaderList parseHeaders(const QString &text);
};

} // namespace Callscope::Telemetry
