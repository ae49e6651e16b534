#pragma once

// EngineProbe: the "Test" of an engine profile, for the GUI's engines page and the CLI's
// `engines test` alike. It checks what can be checked without the network first (a model
// named, a base URL that is a web address, a key for a hosted provider), resolving the key the
// way a run does (an optional environment variable first, then the keychain entry, then a
// session key). When one of those is missing nothing is sent. Otherwise it sends one minimal
// non-streamed request ("Reply with the single word: ok", 16 tokens, one attempt) and reports
// the reply or the classified API error.

#include "core/model/callrecord.h"
#include "core/secrets/engineprofile.h"
#include "core/service/preflight.h"

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
    bool sent = false; // a request went out (false: stopped before the network)
    QString name; // the profile tested
    EngineType type = EngineType::OpenAI;
    QString model; // the model asked
    QString reply; // the model's text when ok
    ErrorCategory category = ErrorCategory::None;
    int httpStatus = 0;
    QString providerType; // the provider's own error type, when it sent one
    QString providerMessage; // the provider's own message (or the transport's)
    QString message; // user-facing summary, when !ok
    QList<PreflightProblem> problems; // what stopped the test before sending
    QString keySource; // keySourceName() of the key used
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

    // Tests `profile` (as given; it need not be saved). `keyEnv` names an environment variable
    // whose key is tried before the profile's keychain entry. `typedKey`, when not empty, is
    // the key to test with (the one typed in a dialog and not saved yet): it wins over both, so
    // what is tested is what the dialog shows. finished follows exactly once, later (never
    // from inside start()).
    void start(const EngineProfile &profile, const QString &keyEnv = {},
               const QString &typedKey = {});
    bool isRunning() const { return m_running; }

Q_SIGNALS:
    void finished(const Callscope::EngineProbeResult &result);

private:
    void finish(const EngineProbeResult &result);
    void finishLater(const EngineProbeResult &result);

    QPointer<QNetworkAccessManager> m_nam;
    CredentialStore *m_credentials = nullptr;
    std::unique_ptr<ModelClient> m_client;
    bool m_running = false;
};

} // namespace Callscope
