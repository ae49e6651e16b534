#include "core/engines/httpmodelclient.h"

#include "core/engines/geminicontentcache.h"

#include <QJsonDocument>
#include <QNetworkAccessManager>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

// The stored request body must never carry the key. Codecs put keys in headers only; this
// is the last line of defence should one ever end up in the body (extraBody, a bad codec).
QJsonObject withoutKey(const QJsonObject &body, const QString &apiKey)
{
    if (apiKey.size() < 4)
        return body;
    QByteArray json = QJsonDocument(body).toJson(QJsonDocument::Compact);
    const QByteArray key = apiKey.toUtf8();
    if (!json.contains(key))
        return body;
    qCWarning(lcEngineHttp)
        << "the request body contained the API key; it was redacted from the record";
    json.replace(key, "***"_ba);
    return QJsonDocument::fromJson(json).object();
}

// A reply that echoes the key (some error bodies quote the request) loses it too.
QByteArray withoutKey(QByteArray body, const QString &apiKey)
{
    if (apiKey.size() >= 4 && body.contains(apiKey.toUtf8()))
        body.replace(apiKey.toUtf8(), "***"_ba);
    return body;
}

} // namespace

HttpModelClient::HttpModelClient(const EngineConfig &config, std::unique_ptr<EngineCodec> codec,
                                 QNetworkAccessManager *nam, QObject *parent)
    : ModelClient(parent)
    , m_config(config)
    , m_codec(std::move(codec))
    , m_nam(nam)
{
    Q_ASSERT(m_codec);
    m_settings.applyTimeouts(m_config.timeoutMs, m_config.idleTimeoutMs);
}

HttpModelClient::~HttpModelClient()
{
    // The job is a child; destroying it aborts its reply without emitting `finished`.
    delete m_job.data();
}

EngineType HttpModelClient::engineType() const
{
    return m_config.type;
}

QString HttpModelClient::model() const
{
    return m_config.model;
}

void HttpModelClient::setContentCache(GeminiContentCache *cache, const QString &label)
{
    m_contentCache = cache;
    m_contentCacheLabel = label;
}

void HttpModelClient::send(const ChatRequest &request, int maxAttempts)
{
    if (m_job || m_acquiring)
        cancel();
    if (m_contentCache && GeminiContentCache::wanted(m_config, request)) {
        // The entry for this prefix first (made by the first request that needs it); without
        // one the request sends its prefix itself.
        const quint64 ticket = ++m_acquireTicket;
        m_acquiring = true;
        m_contentCache->acquire(m_config, m_nam.data(), request, m_contentCacheLabel, this,
                                [this, ticket, request, maxAttempts](const QString &name) {
                                    if (!m_acquiring || ticket != m_acquireTicket)
                                        return;
                                    m_acquiring = false;
                                    ChatRequest named = request;
                                    named.cachedContent = name;
                                    sendNow(named, maxAttempts);
                                });
        return;
    }
    sendNow(request, maxAttempts);
}

void HttpModelClient::sendNow(const ChatRequest &request, int maxAttempts)
{
    const HttpRequestData data = m_codec->buildRequest(request, m_config);
    HttpJobSettings settings = m_settings;
    if (maxAttempts > 0)
        settings.retry.maxAttempts = maxAttempts;

    auto *job = new HttpJob(m_nam.data(), m_codec.get(), data, settings, this);
    m_job = job;
    connect(job, &HttpJob::textDelta, this, &ModelClient::textDelta);
    connect(job, &HttpJob::toolArgumentsDelta, this, &ModelClient::toolArgumentsDelta);
    connect(job, &HttpJob::retryScheduled, this, &ModelClient::retryScheduled);
    connect(job, &HttpJob::finished, this, [this, job] { onJobFinished(job); });
    qCDebug(lcEngineHttp) << "send" << engineTypeName(m_config.type) << m_config.model
                          << "max attempts" << settings.retry.maxAttempts;
    job->start();
}

void HttpModelClient::cancel()
{
    if (m_acquiring) {
        m_acquiring = false;
        ++m_acquireTicket;
        ModelOutcome outcome;
        outcome.cancelled = true;
        Q_EMIT finished(outcome);
        return;
    }
    if (m_job)
        m_job->cancel();
}

bool HttpModelClient::cutStream()
{
    return m_job && m_job->cutShort();
}

void HttpModelClient::onJobFinished(HttpJob *job)
{
    // Taken from the job, so that it holds no copy of the reply until it is deleted.
    HttpJobResult result = job->takeResult();
    ModelOutcome outcome;
    outcome.reply = std::move(result.reply);
    outcome.error = result.error;
    outcome.cancelled = result.cancelled;
    outcome.cutShort = result.cutShort;
    outcome.attempts = result.attempts;
    outcome.requestBody = withoutKey(job->request().body, m_config.apiKey);
    // A key echoed in the reply is masked; the sizes are as of the masked body, so a whole
    // reply does not look cut. (No copy is made when the reply does not hold the key.)
    const qsizetype received = result.rawResponse.size();
    outcome.rawResponse = withoutKey(std::move(result.rawResponse), m_config.apiKey);
    outcome.rawResponseBytes = result.rawResponseBytes - (received - outcome.rawResponse.size());

    if (m_job == job)
        m_job = nullptr;
    job->deleteLater();
    Q_EMIT finished(outcome);
}

QJsonArray HttpModelClient::toNative(const QString &system, const QList<Message> &messages) const
{
    return m_codec->toNative(system, messages);
}

QList<Message> HttpModelClient::fromNative(const QJsonArray &native) const
{
    return m_codec->fromNative(native);
}

ModelClient *createModelClient(const EngineConfig &config, QNetworkAccessManager *nam,
                               QObject *parent)
{
    std::unique_ptr<EngineCodec> codec = createEngineCodec(config.type);
    if (!codec)
        return nullptr;
    return new HttpModelClient(config, std::move(codec), nam, parent);
}

} // namespace Callscope
