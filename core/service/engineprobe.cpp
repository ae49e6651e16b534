#include "core/service/engineprobe.h"

#include "core/engines/httpmodelclient.h"
#include "core/secrets/credentialstore.h"
#include "core/secrets/keyresolver.h"

#include <QElapsedTimer>
#include <QNetworkAccessManager>
#include <QTimer>

#include <memory>

using namespace Qt::StringLiterals;

namespace Callscope {

EngineProbe::EngineProbe(QNetworkAccessManager *nam, CredentialStore *credentials, QObject *parent)
    : QObject(parent)
    , m_nam(nam)
    , m_credentials(credentials)
{
}

EngineProbe::~EngineProbe() = default;

void EngineProbe::start(const EngineProfile &profile, const QString &keyEnv)
{
    if (m_running)
        return;
    m_running = true;
    EngineSpec spec;
    spec.type = profile.type;
    spec.model = profile.model;
    spec.profile = profile.name;
    spec.apiKeyEnv = keyEnv;
    spec.stream = false;
    spec.maxTokens = 16;

    auto fail = [this](ErrorCategory category, const QString &message) {
        EngineProbeResult result;
        result.category = category;
        result.message = message;
        QTimer::singleShot(0, this, [this, result] { finish(result); });
    };
    if (!m_nam) {
        fail(ErrorCategory::Other, tr("no network access"));
        return;
    }
    auto *resolver = new KeyResolver(m_credentials, this);
    resolver->resolve(spec, this, [this, resolver, spec, profile](const ResolvedKey &resolved) {
        resolver->deleteLater();
        if (!resolved.ok) {
            EngineProbeResult result;
            result.category = ErrorCategory::Auth;
            result.message = resolved.error;
            finish(result);
            return;
        }
        const EngineConfig config = makeEngineConfig(spec, profile, resolved.key);
        m_client.reset(createModelClient(config, m_nam, nullptr));
        if (!m_client) {
            EngineProbeResult result;
            result.category = ErrorCategory::Other;
            result.message = tr("an engine of type %1 cannot be tested").arg(engineTypeName(config.type));
            finish(result);
            return;
        }
        if (auto *http = qobject_cast<HttpModelClient *>(m_client.get())) {
            HttpJobSettings settings = http->settings();
            settings.retry.maxAttempts = 1;
            settings.inactivityTimeoutMs = 30000;
            settings.totalTimeoutMs = 60000;
            http->setSettings(settings);
        }
        auto timer = std::make_shared<QElapsedTimer>();
        const QString keySource = keySourceName(resolved.source);
        connect(m_client.get(), &ModelClient::finished, this, [this, timer, keySource](const ModelOutcome &outcome) {
            EngineProbeResult result;
            result.keySource = keySource;
            result.durationMs = timer->elapsed();
            if (outcome.reply) {
                result.ok = true;
                result.reply = outcome.reply->message.text;
            } else {
                result.category = outcome.error.category;
                result.httpStatus = outcome.error.httpStatus;
                result.message = outcome.error.toString();
            }
            // The client is released after its own signal has returned.
            QTimer::singleShot(0, this, [this, result] { finish(result); });
        });
        ChatRequest request;
        request.messages.append(Message::user(u"Reply with the single word: ok"_s));
        request.maxTokens = 16;
        request.stream = false;
        timer->start();
        m_client->send(request, 1);
    });
}

void EngineProbe::finish(const EngineProbeResult &result)
{
    m_client.reset();
    m_running = false;
    Q_EMIT finished(result);
}

} // namespace Callscope
