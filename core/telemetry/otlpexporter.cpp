#include "core/telemetry/otlpexporter.h"

#include "core/engines/httpjob.h"
#include "core/telemetry/otlpencoding.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QNetworkAccessManager>
#include <QRandomGenerator>
#include <QTimer>

#include <climits>

using namespace Qt::StringLiterals;

namespace Callscope::Telemetry {

Q_LOGGING_CATEGORY(lcTelemetry, "callscope.telemetry")

class OtlpExporter::Worker final : public QObject
{
public:
    explicit Worker(OtlpExporter *owner)
        : m_owner(owner)
    { }

    // Runs on the worker thread: sends the next batch when it is time.
    void kick()
    {
        if (!m_nam) {
            m_nam = new QNetworkAccessManager(this);
            m_batchTimer = new QTimer(this);
            m_batchTimer->setSingleShot(true);
            connect(m_batchTimer, &QTimer::timeout, this, [this] { sendNext(); });
            m_retryTimer = new QTimer(this);
            m_retryTimer->setSingleShot(true);
            connect(m_retryTimer, &QTimer::timeout, this, [this] { post(); });
        }
        QMutexLocker lock(&m_owner->m_mutex);
        if (m_owner->m_busy || m_owner->m_headersPending)
            return;
        if (m_owner->m_queue.isEmpty()) {
            m_owner->m_idle.wakeAll();
            return;
        }
        const bool now =
            m_owner->m_flushing || m_owner->m_queue.size() >= m_owner->m_config.maxBatchSpans;
        lock.unlock();
        if (now)
            sendNext();
        else if (!m_batchTimer->isActive())
            m_batchTimer->start(m_owner->m_config.batchDelayMs);
    }

private:
    void sendNext()
    {
        m_batchTimer->stop();
        QList<Span> batch;
        {
            QMutexLocker lock(&m_owner->m_mutex);
            if (m_owner->m_busy || m_owner->m_queue.isEmpty())
                return;
            const qsizetype n =
                std::min<qsizetype>(m_owner->m_queue.size(), m_owner->m_config.maxBatchSpans);
            batch = m_owner->m_queue.mid(0, n);
            m_owner->m_queue.remove(0, n);
            m_owner->m_stats.queued = int(m_owner->m_queue.size());
            m_owner->m_busy = true;
        }
        const OtlpConfig &config = m_owner->m_config;
        ExportScope scope;
        setAttribute(scope.resource, u"service.name"_s, config.serviceName);
        setAttribute(scope.resource, u"service.version"_s, QCoreApplication::applicationVersion());
        setAttribute(scope.resource, u"telemetry.sdk.name"_s, u"callscope"_s);
        setAttribute(scope.resource, u"telemetry.sdk.language"_s, u"cpp"_s);
        scope.scopeName = kScopeName;
        scope.scopeVersion = QCoreApplication::applicationVersion();
        scope.schemaUrl = kSchemaUrl;
        m_json = config.protocol == OtlpProtocol::Json;
        m_body = m_json ? encodeTracesJson(scope, batch) : encodeTracesProtobuf(scope, batch);
        m_gzip = false;
        if (config.gzip) {
            QByteArray packed = gzipCompress(m_body);
            if (!packed.isEmpty()) {
                m_body = std::move(packed);
                m_gzip = true;
            }
        }
        {
            QMutexLocker lock(&m_owner->m_mutex);
            m_headers = m_owner->m_config.headers;
        }
        m_batchSize = batch.size();
        m_attempts = 0;
        post();
    }

    void post()
    {
        const OtlpConfig &config = m_owner->m_config;
        HttpRequestData request;
        request.url = config.tracesUrl;
        request.method = "POST";
        request.rawBody = m_body;
        request.passThrough = true;
        request.headers = m_headers;
        request.headers.append(
            { "Content-Type", m_json ? "application/json"_ba : "application/x-protobuf"_ba });
        if (m_gzip)
            request.headers.append({ "Content-Encoding", "gzip"_ba });
        HttpJobSettings settings;
        settings.retry.maxAttempts = 1; // OTLP's own rules below
        settings.totalTimeoutMs = config.timeoutMs;
        settings.inactivityTimeoutMs = config.timeoutMs;
        settings.maxResponseBytes = 1024 * 1024;
        auto *job = new HttpJob(m_nam, nullptr, request, settings, this);
        ++m_attempts;
        {
            QMutexLocker lock(&m_owner->m_mutex);
            ++m_owner->m_stats.requests;
        }
        connect(job, &HttpJob::finished, this, [this, job] {
            job->deleteLater();
            onFinished(job->result());
        });
        job->start();
    }

    static bool retryable(int status)
    {
        return status == 429 || status == 502 || status == 503 || status == 504;
    }

    void onFinished(const HttpJobResult &result)
    {
        const OtlpConfig &config = m_owner->m_config;
        const int status = result.httpStatus;
        {
            QMutexLocker lock(&m_owner->m_mutex);
            m_owner->m_stats.lastStatus = status;
            m_owner->m_stats.lastError = status > 0 ? QString() : result.transportDetail;
        }
        const QString where =
            config.tracesUrl.toDisplayString(QUrl::RemoveUserInfo | QUrl::RemoveQuery);
        if (status >= 200 && status < 300) {
            const auto partial = readPartialSuccess(result.rawResponse, m_json);
            QMutexLocker lock(&m_owner->m_mutex);
            const qint64 rejected =
                partial ? std::min<qint64>(partial->rejectedSpans, m_batchSize) : 0;
            m_owner->m_stats.exported += m_batchSize - rejected;
            m_owner->m_stats.partialRejected += rejected;
            lock.unlock();
            if (partial)
                qCWarning(lcTelemetry).noquote()
                    << "the collector at" << where << "rejected" << partial->rejectedSpans << "of"
                    << m_batchSize << "spans:" << partial->errorMessage.left(200);
            done();
            return;
        }
        if (retryable(status) && m_attempts < config.maxAttempts) {
            const auto server =
                RetryPolicy::serverDelayMs(result.responseHeaders, QDateTime::currentDateTimeUtc());
            RetryPolicy backoff;
            const qint64 delay = server && *server >= 0
                ? *server
                : backoff.backoffMs(m_attempts - 1, QRandomGenerator::global()->generateDouble());
            if (delay <= config.maxRetryDelayMs) {
                {
                    QMutexLocker lock(&m_owner->m_mutex);
                    ++m_owner->m_stats.retries;
                }
                qCInfo(lcTelemetry).noquote() << "the collector at" << where << "answered" << status
                                              << "- retrying in" << delay << "ms";
                m_retryTimer->start(int(std::min<qint64>(delay, INT_MAX)));
                return;
            }
        }
        QMutexLocker lock(&m_owner->m_mutex);
        if (status > 0 && !retryable(status))
            m_owner->m_stats.rejected += m_batchSize;
        else
            m_owner->m_stats.failed += m_batchSize;
        lock.unlock();
        if (status > 0)
            qCWarning(lcTelemetry).noquote() << "the collector at" << where << "answered" << status
                                             << "- dropped" << m_batchSize << "spans";
        else
            qCWarning(lcTelemetry).noquote() << "could not send" << m_batchSize << "spans to"
                                             << where << ":" << result.transportDetail;
        done();
    }

    void done()
    {
        {
            QMutexLocker lock(&m_owner->m_mutex);
            m_owner->m_busy = false;
        }
        m_body.clear();
        Q_EMIT m_owner->statsChanged();
        kick();
    }

    OtlpExporter *m_owner;
    QNetworkAccessManager *m_nam = nullptr;
    QTimer *m_batchTimer = nullptr;
    QTimer *m_retryTimer = nullptr;
    QByteArray m_body;
    HttpHeaderList m_headers;
    bool m_json = false;
    bool m_gzip = false;
    qsizetype m_batchSize = 0;
    int m_attempts = 0;
};

OtlpExporter::OtlpExporter(const OtlpConfig &config, QObject *parent)
    : QObject(parent)
    , m_config(config)
    , m_worker(new Worker(this))
    , m_headersPending(config.headersPending)
{
    m_thread.setObjectName(u"otlp-exporter"_s);
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.start(QThread::LowPriority);
}

OtlpExporter::~OtlpExporter()
{
    m_thread.quit();
    m_thread.wait();
}

void OtlpExporter::submit(const QList<Span> &spans)
{
    if (spans.isEmpty())
        return;
    {
        QMutexLocker lock(&m_mutex);
        m_stats.submitted += spans.size();
        const qsizetype room = std::max<qsizetype>(0, m_config.maxQueueSpans - m_queue.size());
        const qsizetype taken = std::min(room, spans.size());
        m_queue.append(spans.mid(0, taken));
        m_stats.dropped += spans.size() - taken;
        m_stats.queued = int(m_queue.size());
    }
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker] { worker->kick(); }, Qt::QueuedConnection);
}

void OtlpExporter::setHeaders(const HttpHeaderList &headers)
{
    {
        QMutexLocker lock(&m_mutex);
        m_config.headers = headers;
        m_headersPending = false;
    }
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker] { worker->kick(); }, Qt::QueuedConnection);
}

bool OtlpExporter::flush(int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    QMutexLocker lock(&m_mutex);
    m_flushing = true;
    lock.unlock();
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker] { worker->kick(); }, Qt::QueuedConnection);
    lock.relock();
    while (m_busy || !m_queue.isEmpty()) {
        if (!m_idle.wait(&m_mutex, deadline))
            break;
    }
    const bool empty = !m_busy && m_queue.isEmpty();
    m_flushing = false;
    return empty;
}

OtlpExporter::Stats OtlpExporter::stats() const
{
    QMutexLocker lock(&m_mutex);
    return m_stats;
}

} // namespace Callscope::Telemetry
