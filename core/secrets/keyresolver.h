#pragma once

// Finds the key a run uses, and builds the run's EngineConfig.
//
// Order: the environment variable the spec names (`api_key_env`), then the keychain entry of
// the spec's `profile`, then a key kept for this session only (CredentialStore::setSessionKey,
// for when the keychain cannot be used). A run with no key at all is allowed (local servers);
// it is an error only when the spec named a variable that is unset and nothing else gave a
// key, or when the keychain could not be asked and no session key stands in.

#include "core/engines/enginecodec.h"
#include "core/model/spec.h"
#include "core/secrets/credentialstore.h"
#include "core/secrets/engineprofile.h"

#include <QObject>
#include <QString>

#include <functional>
#include <optional>

namespace Callscope {

// Typed: given by hand for this one use (the key field of the engine dialog, before Save).
enum class KeySource { None, Environment, Keychain, Session, Typed };

QString keySourceName(KeySource source); // "none", "environment", "keychain", "session", "typed"

struct ResolvedKey
{
    bool ok = false;
    QString key; // empty when source is None
    KeySource source = KeySource::None;
    QString error; // user-facing, when !ok
    std::optional<KeychainResult> keychain; // the keychain's answer, when it was asked
};

class KeyResolver final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(KeyResolver)

public:
    explicit KeyResolver(CredentialStore *credentials, QObject *parent = nullptr);

    using Callback = std::function<void(const Callscope::ResolvedKey &)>;
    // Always answers asynchronously (on a later event loop turn), unless `context` is gone.
    void resolve(const EngineSpec &engine, QObject *context, Callback callback);

private:
    CredentialStore *m_credentials = nullptr;
};

// The connection settings of a run: the spec, with the profile's settings under it (the spec
// wins), and the key. The key lives only in the returned struct.
EngineConfig makeEngineConfig(const EngineSpec &spec, const std::optional<EngineProfile> &profile,
                              const QString &key);

} // namespace Callscope
