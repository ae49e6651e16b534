#include "core/eval/responsecache.h"

#include "core/engines/httpmodelclient.h"
#include "core/store/callstore.h"
#include "core/store/responsecachestore.h"
#include "core/store/storewriter.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QLoggingCategory>

using namespace Qt::StringLiterals;

namespace Callscope {

Q_LOGGING_CATEGORY(lcResponseCache, "callscope.eval.cache")

ResponseCache::ResponseCache(CallStore *store, StoreWriter *writer, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_writer(writer)
{
    bool ok = false;
    const qint64 bound = qEnvironmentVariable("CALLSCOPE_RESPONSE_CACHE_MAX_BYTES").toLongLong(&ok);
    if (ok && bound >= 0)
        m_maxBytes = bound;
}

QString ResponseCache::baseUrlKey(const EngineConfig &config)
{
    if (config.baseUrl.isEmpty())
        return engineTypeName(config.type);
    return config.baseUrl
        .adjusted(QUrl::RemoveUserInfo | QUrl::StripTrailingSlash | QUrl::NormalizePathSegments)
        .toString();
}

QByteArray ResponseCache::keyFor(EngineType type, const QString &baseUrl, const QString &model,
                                 const QJsonObject &body, int repeat)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    // Each part ends with a separator no part holds, so two requests can never run together.
    for (const QString &part : { engineTypeName(type), baseUrl, model, QString::number(repeat) }) {
        hash.addData(part.toUtf8());
        hash.addData(QByteArrayView("\x1f", 1));
    }
    // Object keys are sorted in compact JSON: the same fields give the same bytes.
    hash.addData(QJsonDocument(body).toJson(QJsonDocument::Compact));
    return hash.result().toHex();
}

ModelClient *ResponseCache::clientFor(const QString &runKey, int repeat, const EngineConfig &config,
                                      QNetworkAccessManager *nam, QObject *parent)
{
    if (m_mode == Mode::Off || !m_store)
        return nullptr;
    auto *wrapper = new CachingModelClient(this, runKey, repeat, nullptr, parent);
    ModelClient *inner = createModelClient(config, nam, wrapper);
    auto *http = qobject_cast<HttpModelClient *>(inner);
    if (!http) {
        delete wrapper;
        return nullptr;
    }
    wrapper->m_inner = http;
    connect(http, &ModelClient::textDelta, wrapper, &ModelClient::textDelta);
    connect(http, &ModelClient::toolArgumentsDelta, wrapper, &ModelClient::toolArgumentsDelta);
    connect(http, &ModelClient::retryScheduled, wrapper, &ModelClient::retryScheduled);
    connect(http, &ModelClient::finished, wrapper, [wrapper](const ModelOutcome &outcome) {
        // A reply cut short is not what the request gets: it is never served again.
        if (wrapper->m_cache && outcome.reply && !outcome.cancelled && !outcome.cutShort
            && !wrapper->m_pendingKey.isEmpty())
            wrapper->m_cache->keep(wrapper->m_pendingKey, wrapper->m_inner->config(),
                                   *outcome.reply);
        wrapper->m_pendingKey.clear();
        Q_EMIT wrapper->finished(outcome);
    });
    return wrapper;
}

void ResponseCache::findLater(const QByteArray &key, const QString &engineType,
                              const QString &baseUrl, QObject *context,
                              std::function<void(std::optional<ModelReply>)> done)
{
    if (!m_store || m_readFailed || !m_writer) {
        done(find(key, engineType, baseUrl));
        return;
    }
    using Found = StoreResult<std::optional<QJsonObject>>;
    QPointer<ResponseCache> self(this);
    runOnStore<Found>(
        m_writer, m_store, context,
        [key, engineType, baseUrl](CallStore &from) {
            return ResponseCacheStore(from.database()).find(key, engineType, baseUrl);
        },
        [self, done = std::move(done)](const Found *found, const QString &error) {
            if (!found || !*found) {
                // An unreadable cache is as good as an empty one; the requests are sent.
                if (self && !self->m_readFailed) {
                    qCWarning(lcResponseCache, "the response cache cannot be read: %s",
                              qPrintable(found ? found->error().message : error));
                    self->m_readFailed = true;
                }
                done(std::nullopt);
                return;
            }
            if (!found->value()) {
                done(std::nullopt);
                return;
            }
            done(ModelReply::fromJson(*found->value()));
        });
}

std::optional<ModelReply> ResponseCache::find(const QByteArray &key, const QString &engineType,
                                              const QString &baseUrl)
{
    if (!m_store || m_readFailed)
        return std::nullopt;
    ResponseCacheStore table(m_store->database());
    auto found = table.find(key, engineType, baseUrl);
    if (!found) {
        // An unreadable cache is as good as an empty one; the requests are sent.
        qCWarning(lcResponseCache, "the response cache cannot be read: %s",
                  qPrintable(found.error().message));
        m_readFailed = true;
        return std::nullopt;
    }
    if (!found.value())
        return std::nullopt;
    return ModelReply::fromJson(*found.value());
}

void ResponseCache::keep(const QByteArray &key, const EngineConfig &config, const ModelReply &reply)
{
    CachedResponse entry;
    entry.key = key;
    entry.engineType = engineTypeName(config.type);
    entry.baseUrl = baseUrlKey(config);
    entry.model = config.model;
    entry.reply = reply.toJson();
    const qint64 bound = m_maxBytes;
    auto save = [entry, bound](CallStore &into) {
        ResponseCacheStore table(into.database());
        WriteResult written;
        auto dropped = table.save(entry, bound);
        if (dropped)
            written.id = dropped.value();
        else
            written.id = dropped.error();
        return written;
    };
    if (m_writer) {
        m_writer->perform(save, this, [](const WriteResult &written) {
            if (!written.id)
                qCWarning(lcResponseCache, "a reply could not be kept in the response cache: %s",
                          qPrintable(written.id.error().message));
        });
        return;
    }
    if (m_store)
        save(*m_store);
}

CachingModelClient::CachingModelClient(ResponseCache *cache, const QString &runKey, int repeat,
                                       HttpModelClient *inner, QObject *parent)
    : ModelClient(parent)
    , m_cache(cache)
    , m_runKey(runKey)
    , m_repeat(repeat)
    , m_inner(inner)
{ }

EngineType CachingModelClient::engineType() const
{
    return m_inner->engineType();
}

QString CachingModelClient::model() const
{
    return m_inner->model();
}

void CachingModelClient::send(const ChatRequest &request, int maxAttempts)
{
    m_answering = false;
    if (!m_cache || m_cache->mode() == ResponseCache::Mode::Off) {
        m_pendingKey.clear();
        m_inner->send(request, maxAttempts);
        return;
    }
    const EngineConfig &config = m_inner->config();
    // The body exactly as the engine would send it.
    const QJsonObject body = m_inner->codec().buildRequest(request, config).body;
    const QString baseUrl = ResponseCache::baseUrlKey(config);
    const QByteArray key =
        ResponseCache::keyFor(config.type, baseUrl, config.model, body, m_repeat);
    const quint64 ticket = ++m_sends;
    if (m_cache->mode() != ResponseCache::Mode::Use) {
        ++m_cache->m_stats[m_runKey].sent;
        m_pendingKey = key;
        m_inner->send(request, maxAttempts);
        return;
    }
    // Looked up off the GUI thread; until the answer comes a cancel ends the request at once.
    m_answering = true;
    m_cache->findLater(
        key, engineTypeName(config.type), baseUrl, this,
        [this, ticket, key, body, request, maxAttempts](std::optional<ModelReply> reply) {
            if (!m_answering || ticket != m_sends)
                return; // cancelled, or another request was sent meanwhile
            ResponseCache::RunStats *stats = m_cache ? &m_cache->m_stats[m_runKey] : nullptr;
            if (!reply) {
                m_answering = false;
                if (stats)
                    ++stats->sent;
                m_pendingKey = key;
                m_inner->send(request, maxAttempts);
                return;
            }
            if (stats) {
                ++stats->hits;
                stats->savedUsage += reply->usage;
            }
            ModelOutcome outcome;
            outcome.reply = std::move(reply);
            outcome.requestBody = body;
            // From the event loop, as a reply from the network would come.
            QMetaObject::invokeMethod(
                this,
                [this, ticket, outcome] {
                    if (!m_answering || ticket != m_sends)
                        return;
                    m_answering = false;
                    Q_EMIT finished(outcome);
                },
                Qt::QueuedConnection);
        });
}

bool CachingModelClient::cutStream()
{
    return !m_answering && m_inner->cutStream();
}

void CachingModelClient::cancel()
{
    if (m_answering) {
        m_answering = false;
        ModelOutcome outcome;
        outcome.cancelled = true;
        Q_EMIT finished(outcome);
        return;
    }
    m_inner->cancel();
}

QJsonArray CachingModelClient::toNative(const QString &system, const QList<Message> &messages) const
{
    return m_inner->toNative(system, messages);
}

QList<Message> CachingModelClient::fromNative(const QJsonArray &native) const
{
    return m_inner->fromNative(native);
}

} // namespace Callscope
