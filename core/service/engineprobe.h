#pragma once

// EngineProbe: the "Test" of an engine profile. Resolves the profile's key the way a run does
// (an optional environment variable first, then the keychain entry, then a session key), sends
// one minimal non-streamed request ("Reply with the single word: ok", 16 tokens, one attempt)
// and reports the reply or the classified API error. Used by the GUI's engines page; the
// CLI's `engines test` does the same steps.

#include "core/model/callrecord.h"
#include "core/secrets/engineprofile.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <memory>

class QNetworkAccessManager;

namespace Callscope {

class CredentialStore;
class ModelClient;

struct EngineProbeResult
{
    bool ok = false;
    QString reply;                       // the model's text when ok
    ErrorCategory category = ErrorCategory::None;
    int httpStatus = 0;
    QString message;                     // user-facing, when !ok
    QString keySource;                   // keySourceName() of the key used
    qint64 durationMs = 0;
};

class EngineProbe final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EngineProbe)

public:
    // `credentials` may be null (no keychain: only `keyEnv` can give a key).
    EngineProbe(QNetworkAccessManager *nam, CredentialStore *credentials, QObject *parent);
    ~EngineProbe() override;

    // Tests `profile` (as given; it need not be saved). finished follows exactly once, later.
    void start(const EngineProfile &profile, const QString &keyEnv = {});
    bool isRunning() const { return m_running; }

Q_SIGNALS:
    void finished(const Callscope::EngineProbeResult &result);

private:
    void finish(const EngineProbeResult &result);

    QPointer<QNetworkAccessManager> m_nam;
    CredentialStore *m_credentials = nullptr;
    std::unique_ptr<ModelClient> m_client;
    bool m_running = false;
};

} // namespace Callscope
