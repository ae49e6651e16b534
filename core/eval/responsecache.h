#pragma once

// The response cache of experiments: a model request whose canonical body (engine type, base
// URL, model and every field of the body as the codec builds it; never the key or a header)
// and repeat index were answered before is answered again from the history's cache table,
// with no request sent and no cost. Each turn of a tool loop is its own request, so a run can
// be answered from the cache turn by turn. Entries never cross engines or base URLs: both
// are in the key and checked on every read.
//
// Reads are one indexed row on the store's connection; writes go through the StoreWriter,
// behind the calls in its queue. The table is bounded (CALLSCOPE_RESPONSE_CACHE_MAX_BYTES, by
// default 256 MiB of replies) and drops its oldest entries first.

#include "core/engines/enginecodec.h"
#include "core/engines/modelclient.h"
#include "core/model/message.h"

#include <QHash>
#include <QObject>
#include <QPointer>

#include <functional>

class QNetworkAccessManager;

namespace Callscope {

class CallStore;
class HttpModelClient;
class StoreWriter;

class ResponseCache final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ResponseCache)

public:
    enum class Mode {
        Off, // neither read nor written
        Use, // answered from the cache when it can, what is sent is kept
        Refresh, // everything is sent again, and what comes back replaces the cache's
    };

    // What the cache did for one run.
    struct RunStats
    {
        int hits = 0; // model requests answered from the cache
        int sent = 0; // model requests sent to the provider
        Usage savedUsage; // the usage of the answers the cache gave
        bool allCached() const { return hits > 0 && sent == 0; }
    };

    static constexpr qint64 DefaultMaxBytes = 256LL * 1024 * 1024;

    ResponseCache(CallStore *store, StoreWriter *writer, QObject *parent = nullptr);

    void setMode(Mode mode) { m_mode = mode; }
    Mode mode() const { return m_mode; }
    void setMaxBytes(qint64 bytes) { m_maxBytes = bytes; }

    // The client a run's call talks to: the engine's own HTTP client behind the cache.
    // nullptr when the engine is not an HTTP one (replay) or the cache is off: the call then
    // makes its usual client.
    ModelClient *clientFor(const QString &runKey, int repeat, const EngineConfig &config,
                           QNetworkAccessManager *nam, QObject *parent);
    RunStats stats(const QString &runKey) const { return m_stats.value(runKey); }
    void forget(const QString &runKey) { m_stats.remove(runKey); }

    // SHA-256 (hex) of the engine type, base URL, model, repeat and the compact body.
    static QByteArray keyFor(EngineType type, const QString &baseUrl, const QString &model,
                             const QJsonObject &body, int repeat);
    // The base URL as the cache compares it (no user info, no trailing slash; the engine
    // type's name when the provider's public endpoint is used).
    static QString baseUrlKey(const EngineConfig &config);

private:
    friend class CachingModelClient;
    // Looks the key up off the calling thread when there is a writer (in its queue), at once
    // otherwise; `done` gets the reply or nothing (a miss, or an unreadable cache), from the
    // event loop of `context`'s thread when asynchronous.
    void findLater(const QByteArray &key, const QString &engineType, const QString &baseUrl,
                   QObject *context, std::function<void(std::optional<ModelReply>)> done);
    std::optional<ModelReply> find(const QByteArray &key, const QString &engineType,
                                   const QString &baseUrl);
    void keep(const QByteArray &key, const EngineConfig &config, const ModelReply &reply);

    CallStore *m_store = nullptr;
    QPointer<StoreWriter> m_writer;
    Mode m_mode = Mode::Use;
    qint64 m_maxBytes = DefaultMaxBytes;
    bool m_readFailed = false;
    QHash<QString, RunStats> m_stats;
};

// A ModelClient in front of an HttpModelClient: each send() is looked up first.
class CachingModelClient final : public ModelClient
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CachingModelClient)

public:
    CachingModelClient(ResponseCache *cache, const QString &runKey, int repeat,
                       HttpModelClient *inner, QObject *parent = nullptr);

    EngineType engineType() const override;
    QString model() const override;
    void send(const ChatRequest &request, int maxAttempts) override;
    void cancel() override;
    bool cutStream() override;
    QJsonArray toNative(const QString &system, const QList<Message> &messages) const override;
    QList<Message> fromNative(const QJsonArray &native) const override;

private:
    friend class ResponseCache;
    QPointer<ResponseCache> m_cache;
    QString m_runKey;
    int m_repeat = 0;
    HttpModelClient *m_inner = nullptr; // a child
    QByteArray m_pendingKey; // the key of the request sent, kept when it is answered
    bool m_answering = false; // a cached answer is on its way, or the cache is being read
    quint64 m_sends = 0; // counts send() calls: a late cache answer for an older one is dropped
};

} // namespace Callscope
