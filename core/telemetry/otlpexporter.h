#pragma once

// OtlpExporter: sends spans to an OTLP/HTTP collector from a thread of its own, so neither a
// call nor the GUI ever waits for it.
//
// - submit() only appends to a bounded queue under a mutex; spans beyond
//   OtlpConfig::maxQueueSpans are dropped and counted (Stats::dropped), never waited for.
// - The worker sends batches of at most maxBatchSpans, one request at a time, through the
//   engines' HttpJob (its timeouts and redirect rule; its own retries are off). Retry rules are
//   OTLP's: only 429, 502, 503 and 504 are tried again, after the Retry-After the collector
//   sent (else an exponential backoff), at most maxAttempts times. Every other status (400,
//   413, ...) drops the batch at once; a partial success (rejected spans in a 2xx answer) is
//   logged and counted, not retried. A connection failure drops the batch.
// - With OtlpConfig::gzip the body goes gzip-compressed, with Content-Encoding: gzip.
// - With OtlpConfig::headersPending nothing is sent until setHeaders() came (the studio reads
//   header values from the keychain, which answers later); spans queue meanwhile.
// - flush() blocks the calling thread until the queue is empty or the time is up (the
//   programs call it once on exit, bounded to 2 s).
// - Logs (category callscope.telemetry) name the URL without its query and the status; never
//   the headers (they may hold tokens) nor span content.

#include "core/telemetry/otlpconfig.h"
#include "core/telemetry/span.h"

#include <QLoggingCategory>
#include <QMutex>
#include <QObject>
#include <QThread>
#include <QWaitCondition>

namespace Callscope::Telemetry {

Q_DECLARE_LOGGING_CATEGORY(lcTelemetry)

class OtlpExporter final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(OtlpExporter)

public:
    struct Stats
    {
        qint64 submitted = 0; // spans handed to submit()
        qint64 exported = 0; // spans a collector took
        qint64 dropped = 0; // spans not queued: the queue was full
        qint64 rejected = 0; // spans of batches answered with a status that is not retried
        qint64 failed = 0; // spans given up on (unreachable, retries used up)
        qint64 partialRejected = 0; // spans a 2xx answer said it rejected
        qint64 retries = 0; // requests sent again
        qint64 requests = 0; // requests sent, retries included
        int queued = 0; // spans waiting now
        int lastStatus = 0; // HTTP status of the last answered request (0: none, or no answer)
        QString lastError; // why the last request got no answer (transport), else empty
    };

    explicit OtlpExporter(const OtlpConfig &config, QObject *parent = nullptr);
    ~OtlpExporter() override; // stops the thread; what was not sent yet is lost: flush() first

    const OtlpConfig &config() const { return m_config; }
    void submit(const QList<Span> &spans);
    // The headers every request carries from now on (replacing the config's), and sending may
    // start when the config said the headers were pending. Values are never logged.
    void setHeaders(const HttpHeaderList &headers);
    // True when everything submitted so far was sent or given up on within `timeoutMs`.
    bool flush(int timeoutMs);
    Stats stats() const;

Q_SIGNALS:
    // Emitted from the exporter's thread after every request and drop.
    void statsChanged();

private:
    class Worker;
    friend class Worker;

    OtlpConfig m_config;
    QThread m_thread;
    Worker *m_worker = nullptr;
    mutable QMutex m_mutex;
    QWaitCondition m_idle;
    QList<Span> m_queue;
    Stats m_stats;
    bool m_busy = false; // a batch is being sent or waits for its retry
    bool m_flushing = false;
    bool m_headersPending = false;
};

} // namespace Callscope::Telemetry
