#include "core/eval/telemetrysettings.h"

#include "core/secrets/credentialstore.h"
#include "core/telemetry/genaispans.h"
#include "core/telemetry/otlpexporter.h"

#include <QCoreApplication>
#include <QPointer>
#include <QSettings>

#include <memory>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(TelemetrySettings)
};

// Reads names[index...] into `found`, then calls `done`.
void readNext(QPointer<CredentialStore> credentials, QStringList names, qsizetype index,
              HttpHeaderList found, QStringList problems, QPointer<QObject> context,
              std::function<void(const HttpHeaderList &, const QStringList &)> done)
{
    if (!context)
        return;
    if (index >= names.size() || !credentials) {
        const int unread = int(names.size() - index);
        if (unread > 0)
            problems.append(
                Tr::tr("The keychain is gone: %n header value(s) not read.", nullptr, unread));
        done(found, problems);
        return;
    }
    const QString name = names.at(index);
    credentials->readKey(
        TelemetrySettings::headerEntry(name), context, [=](const KeychainResult &result) mutable {
            if (result.status == KeychainStatus::Ok && result.key)
                found.append({ name.toLatin1(), result.key->toUtf8() });
            else if (result.status == KeychainStatus::NotFound)
                problems.append(Tr::tr("The header %1 has no value in the keychain.").arg(name));
            else
                problems.append(Tr::tr("The value of the header %1 cannot be read: %2")
                                    .arg(name, result.message));
            readNext(credentials, names, index + 1, found, problems, context, done);
        });
}

} // namespace

TelemetrySettings TelemetrySettings::load(const QSettings &settings)
{
    TelemetrySettings s;
    s.enabled = settings.value(u"telemetry/enabled"_s, false).toBool();
    s.endpoint = settings.value(u"telemetry/endpoint"_s).toString();
    s.protocol = settings.value(u"telemetry/protocol"_s, s.protocol).toString();
    s.capture = settings.value(u"telemetry/capture"_s, s.capture).toString();
    s.compression = settings.value(u"telemetry/compression"_s, s.compression).toString();
    s.headerNames = settings.value(u"telemetry/headers"_s).toStringList();
    s.traceUrl = settings.value(u"telemetry/trace_url"_s).toString();
    return s;
}

void TelemetrySettings::save(QSettings &settings) const
{
    settings.setValue(u"telemetry/enabled"_s, enabled);
    settings.setValue(u"telemetry/endpoint"_s, endpoint);
    settings.setValue(u"telemetry/protocol"_s, protocol);
    settings.setValue(u"telemetry/capture"_s, capture);
    settings.setValue(u"telemetry/compression"_s, compression);
    settings.setValue(u"telemetry/headers"_s, headerNames);
    settings.setValue(u"telemetry/trace_url"_s, traceUrl);
}

QUrl traceUrlFromSettings(const CallRecord &record)
{
    return Telemetry::traceViewerUrl(TelemetrySettings::load(QSettings()).traceUrl,
                                     Telemetry::callTraceRef(record));
}

QString TelemetrySettings::headerEntry(const QString &name)
{
    return u"otlp-header/"_s + name.trimmed().toLower();
}

void readTelemetryHeaders(CredentialStore *credentials, const QStringList &names, QObject *context,
                          std::function<void(const HttpHeaderList &, const QStringList &)> done)
{
    readNext(credentials, names, 0, {}, {}, context, std::move(done));
}

void probeOtlpEndpoint(Telemetry::OtlpConfig config, QObject *context,
                       std::function<void(const OtlpProbeResult &)> done)
{
    config.enabled = true;
    config.maxAttempts = 1; // say what the collector answered, do not wait for retries
    config.batchDelayMs = 0;
    config.headersPending = false;
    config.timeoutMs = std::min<qint64>(config.timeoutMs, 10000);
    const QString where =
        config.tracesUrl.toDisplayString(QUrl::RemoveUserInfo | QUrl::RemoveQuery);
    auto *exporter = new Telemetry::OtlpExporter(config);
    auto reported = std::make_shared<bool>(false);
    QObject::connect(
        exporter, &Telemetry::OtlpExporter::statsChanged, context,
        [exporter, reported, where, done = std::move(done)] {
            if (*reported)
                return;
            const Telemetry::OtlpExporter::Stats stats = exporter->stats();
            if (stats.exported + stats.rejected + stats.failed + stats.partialRejected == 0)
                return;
            *reported = true;
            OtlpProbeResult result;
            result.status = stats.lastStatus;
            result.detail = stats.lastError;
            if (stats.exported > 0 || stats.partialRejected > 0) {
                result.outcome = OtlpProbeResult::Outcome::Accepted;
                result.text = Tr::tr("The collector at %1 answered %2 and took the test span.")
                                  .arg(where)
                                  .arg(result.status);
            } else if (result.status > 0) {
                result.outcome = OtlpProbeResult::Outcome::Refused;
                result.text = Tr::tr("The collector at %1 refused the test span with HTTP %2.")
                                  .arg(where)
                                  .arg(result.status);
            } else {
                result.outcome = OtlpProbeResult::Outcome::Unreachable;
                result.text = Tr::tr("Nothing answered at %1: %2").arg(where, result.detail);
            }
            exporter->deleteLater();
            done(result);
        },
        Qt::QueuedConnection);
    QObject::connect(context, &QObject::destroyed, exporter, &QObject::deleteLater);

    Telemetry::Span span;
    const QString key = u"probe:"_s + QString::number(QDateTime::currentMSecsSinceEpoch());
    span.traceId = Telemetry::traceIdFor(key);
    span.spanId = Telemetry::spanIdFor(key);
    span.name = u"callscope test"_s;
    span.kind = Telemetry::SpanKind::Internal;
    span.startUnixNano = Telemetry::unixNano(QDateTime::currentDateTimeUtc());
    span.endUnixNano = span.startUnixNano;
    span.set(u"callscope.test"_s, true);
    exporter->submit({ span });
}

} // namespace Callscope
