#pragma once

// The ModelClient of the five HTTP engines: an EngineCodec driven by an HttpJob.
// One send() = one HttpJob (with its transient retries) = one `finished`.

#include "core/engines/enginecodec.h"
#include "core/engines/httpjob.h"
#include "core/engines/modelclient.h"

#include <QPointer>

#include <memory>

class QNetworkAccessManager;

namespace Callscope {

class GeminiContentCache;

class HttpModelClient final : public ModelClient
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HttpModelClient)

public:
    // `nam` must outlive the client. `codec` must not be null.
    HttpModelClient(const EngineConfig &config, std::unique_ptr<EngineCodec> codec,
                    QNetworkAccessManager *nam, QObject *parent = nullptr);
    ~HttpModelClient() override;

    EngineType engineType() const override;
    QString model() const override;

    // A send() while another one runs cancels the running one first (its `finished` carries
    // cancelled = true). `maxAttempts` overrides settings().retry.maxAttempts when > 0.
    void send(const ChatRequest &request, int maxAttempts) override;
    // Aborts at once; `finished` (cancelled = true) is emitted before cancel() returns.
    void cancel() override;
    bool cutStream() override;
    bool isBusy() const { return !m_job.isNull() || m_acquiring; }

    QJsonArray toNative(const QString &system, const QList<Message> &messages) const override;
    QList<Message> fromNative(const QJsonArray &native) const override;

    const EngineConfig &config() const { return m_config; }
    const EngineCodec &codec() const { return *m_codec; }
    HttpJobSettings settings() const { return m_settings; }
    void setSettings(const HttpJobSettings &settings) { m_settings = settings; }
    // Requests that ask for Gemini's explicit cache name the entry `cache` keeps for their
    // prefix (made before the first of them); `label` says whose work they are. Not owned.
    void setContentCache(GeminiContentCache *cache, const QString &label = {});

private:
    void sendNow(const ChatRequest &request, int maxAttempts);
    void onJobFinished(HttpJob *job);

    EngineConfig m_config;
    std::unique_ptr<EngineCodec> m_codec;
    QPointer<QNetworkAccessManager> m_nam;
    HttpJobSettings m_settings;
    QPointer<HttpJob> m_job;
    QPointer<GeminiContentCache> m_contentCache;
    QString m_contentCacheLabel;
    quint64 m_acquireTicket = 0; // a send() waiting for its cache entry, when m_acquiring
    bool m_acquiring = false;
};

// The ModelClient for an engine configuration; nullptr for EngineType::Replay (the replay
// engine is created by core/loop from a recording).
ModelClient *createModelClient(const EngineConfig &config, QNetworkAccessManager *nam,
                               QObject *parent = nullptr);

} // namespace Callscope
