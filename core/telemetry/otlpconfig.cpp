#include "core/telemetry/otlpconfig.h"

#include <QSettings>

using namespace Qt::StringLiterals;

namespace Callscope::Telemetry {

namespace {

QString firstOf(const QProcessEnvironment &env, std::initializer_list<const char *> names)
{
    for (const char *name : names) {
        const QString value = env.value(QString::fromLatin1(name)).trimmed();
        if (!value.isEmpty())
            return value;
    }
    return {};
}

void applyProtocol(OtlpConfig &config, const QString &name)
{
    if (name.isEmpty() || name == u"http/protobuf")
        config.protocol = OtlpProtocol::Protobuf;
    else if (name == u"http/json")
        config.protocol = OtlpProtocol::Json;
    else
        config.problem =
            u"OTLP protocol '%1' is not supported (use http/protobuf or http/json)"_s.arg(name);
}

void applyCompression(OtlpConfig &config, const QString &name)
{
    if (name.isEmpty() || name.compare(u"none"_s, Qt::CaseInsensitive) == 0)
        config.gzip = false;
    else if (name.compare(u"gzip"_s, Qt::CaseInsensitive) == 0)
        config.gzip = true;
    else
        config.problem = u"OTLP compression '%1' is not supported (use gzip or none)"_s.arg(name);
}

void checkUrl(OtlpConfig &config)
{
    const QString scheme = config.tracesUrl.scheme();
    if (!config.tracesUrl.isValid() || config.tracesUrl.host().isEmpty()
        || (scheme != u"http" && scheme != u"https"))
        config.problem = u"OTLP endpoint '%1' is not an http(s) URL"_s.arg(
            config.tracesUrl.toDisplayString(QUrl::RemoveUserInfo | QUrl::RemoveQuery));
}

} // namespace

QString OtlpConfig::protocolName(OtlpProtocol protocol)
{
    return protocol == OtlpProtocol::Json ? u"http/json"_s : u"http/protobuf"_s;
}

std::optional<OtlpProtocol> OtlpConfig::protocolFromName(const QString &name)
{
    if (name == u"http/protobuf")
        return OtlpProtocol::Protobuf;
    if (name == u"http/json")
        return OtlpProtocol::Json;
    return std::nullopt;
}

QUrl OtlpConfig::tracesUrlFor(const QString &baseEndpoint)
{
    QUrl url(baseEndpoint.trimmed());
    QString path = url.path();
    if (!path.endsWith(u'/'))
        path += u'/';
    url.setPath(path + u"v1/traces"_s);
    return url;
}

HttpHeaderList OtlpConfig::parseHeaders(const QString &text)
{
    HttpHeaderList headers;
    for (const QString &item : text.split(u',', Qt::SkipEmptyParts)) {
        const qsizetype eq = item.indexOf(u'=');
        if (eq <= 0)
            continue;
        const QByteArray name = item.left(eq).trimmed().toLatin1();
        const QByteArray value =
            QByteArray::fromPercentEncoding(item.mid(eq + 1).trimmed().toUtf8());
        if (!name.isEmpty())
            headers.append({ name, value });
    }
    return headers;
}

OtlpConfig OtlpConfig::fromEnvironment(const QProcessEnvironment &env,
                                       const QString &endpointOverride)
{
    OtlpConfig config;
    const QString traces = firstOf(env, { "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT" });
    const QString base = firstOf(env, { "OTEL_EXPORTER_OTLP_ENDPOINT" });
    if (!endpointOverride.isEmpty())
        config.tracesUrl = tracesUrlFor(endpointOverride);
    else if (!traces.isEmpty())
        config.tracesUrl = QUrl(traces);
    else if (!base.isEmpty())
        config.tracesUrl = tracesUrlFor(base);
    config.enabled = !config.tracesUrl.isEmpty();
    applyProtocol(
        config,
        firstOf(env, { "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL" }));
    config.headers = parseHeaders(
        firstOf(env, { "OTEL_EXPORTER_OTLP_TRACES_HEADERS", "OTEL_EXPORTER_OTLP_HEADERS" }));
    applyCompression(
        config,
        firstOf(env,
                { "OTEL_EXPORTER_OTLP_TRACES_COMPRESSION", "OTEL_EXPORTER_OTLP_COMPRESSION" }));
    bool ok = false;
    const qint64 timeout =
        firstOf(env, { "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "OTEL_EXPORTER_OTLP_TIMEOUT" })
            .toLongLong(&ok);
    if (ok && timeout > 0)
        config.timeoutMs = timeout;
    const QString service = firstOf(env, { "OTEL_SERVICE_NAME" });
    if (!service.isEmpty())
        config.serviceName = service;
    config.spans.latestExperimental = firstOf(env, { "OTEL_SEMCONV_STABILITY_OPT_IN" })
                                          .split(u',')
                                          .contains(u"gen_ai_latest_experimental"_s);
    const QString capture = firstOf(env, { "CALLSCOPE_OTEL_CAPTURE" });
    if (!capture.isEmpty()) {
        if (const auto level = captureLevelFromName(capture))
            config.spans.capture = *level;
        else
            config.problem =
                u"CALLSCOPE_OTEL_CAPTURE '%1' is not none, metadata or full"_s.arg(capture);
    }
    if (firstOf(env, { "OTEL_SDK_DISABLED" }).compare(u"true"_s, Qt::CaseInsensitive) == 0)
        config.enabled = false;
    if (config.enabled)
        checkUrl(config);
    return config;
}

OtlpConfig OtlpConfig::fromSettings(const QSettings &settings, const QProcessEnvironment &env)
{
    OtlpConfig config = fromEnvironment(env);
    if (config.enabled || !settings.value(u"telemetry/enabled"_s, false).toBool())
        return config;
    const QString endpoint = settings.value(u"telemetry/endpoint"_s).toString();
    if (endpoint.isEmpty())
        return config;
    config.tracesUrl = tracesUrlFor(endpoint);
    config.enabled = true;
    // Header values are in the keychain: whoever starts the exporter reads and hands them over.
    config.headersPending = !settings.value(u"telemetry/headers"_s).toStringList().isEmpty();
    applyProtocol(config, settings.value(u"telemetry/protocol"_s).toString());
    if (env.value(u"OTEL_EXPORTER_OTLP_TRACES_COMPRESSION"_s).isEmpty()
        && env.value(u"OTEL_EXPORTER_OTLP_COMPRESSION"_s).isEmpty())
        applyCompression(config, settings.value(u"telemetry/compression"_s).toString());
    if (env.value(u"CALLSCOPE_OTEL_CAPTURE"_s).isEmpty()) {
        if (const auto level =
                captureLevelFromName(settings.value(u"telemetry/capture"_s).toString()))
            config.spans.capture = *level;
    }
    if (env.value(u"OTEL_SDK_DISABLED"_s).compare(u"true"_s, Qt::CaseInsensitive) == 0)
        config.enabled = false;
    if (config.enabled)
        checkUrl(config);
    return config;
}

} // namespace Callscope::Telemetry
