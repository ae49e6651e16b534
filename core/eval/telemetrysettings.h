#pragma once

// The studio's OTLP export settings: what goes into the settings file (group "telemetry":
// enabled, endpoint, protocol, capture, compression, and the header *names*) and what into
// the OS keychain (every header value, entry "otlp-header/<name>", since they usually carry
// tokens). Also the Test of a settings page: one small span sent to an endpoint, and what
// happened in plain words.

#include "core/engines/retrypolicy.h"
#include "core/model/callrecord.h"
#include "core/telemetry/otlpconfig.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <functional>

class QSettings;

namespace Callscope {

class CredentialStore;

struct TelemetrySettings
{
    bool enabled = false;
    QString endpoint; // base URL; /v1/traces is appended
    QString protocol = QStringLiteral("http/protobuf"); // or http/json
    QString capture = QStringLiteral("none"); // none, metadata, full
    QString compression = QStringLiteral("none"); // none, gzip
    QStringList headerNames; // their values are in the keychain
    // Where a call's trace opens in the team's viewer: a URL with {trace_id} (and {span_id}).
    QString traceUrl;

    static TelemetrySettings load(const QSettings &settings);
    void save(QSettings &settings) const;
    // The keychain entry of a header's value.
    static QString headerEntry(const QString &name);
};

// Where `record`'s trace opens in the viewer named by the settings' trace link (empty when no
// usable link is set): the one reading of the link for the studio and `callscope-cli show`.
QUrl traceUrlFromSettings(const CallRecord &record);

// Reads the values of `names` from the keychain, one after another; `done` (on `context`'s
// thread) gets the headers found, and a sentence per header that could not be read.
void readTelemetryHeaders(CredentialStore *credentials, const QStringList &names, QObject *context,
                          std::function<void(const HttpHeaderList &, const QStringList &)> done);

struct OtlpProbeResult
{
    enum class Outcome { Accepted, Refused, Unreachable };
    Outcome outcome = Outcome::Unreachable;
    int status = 0; // HTTP status when the collector answered
    QString detail; // the transport's words when it did not
    QString text; // the whole result in plain words, for the person
};

// Sends one small span to `config`'s endpoint from the exporter's own thread (one attempt, no
// retries) and calls `done` on `context`'s thread with what happened.
void probeOtlpEndpoint(Telemetry::OtlpConfig config, QObject *context,
                       std::function<void(const OtlpProbeResult &)> done);

} // namespace Callscope
