#include "core/secrets/keyresolver.h"

#include <QCoreApplication>
#include <QMetaObject>
#include <QPointer>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Callscope::KeyResolver)
};

QString unsetVariableError(const QString &variable)
{
    return Tr::
        tr("The environment variable %1 named by api_key_env is not set (or is empty). Set it "
           "to the key, or store a key for the engine profile with 'callscope-cli engines add'.")
            .arg(variable);
}

} // namespace

QString keySourceName(KeySource source)
{
    switch (source) {
    case KeySource::None:
        return u"none"_s;
    case KeySource::Environment:
        return u"environment"_s;
    case KeySource::Keychain:
        return u"keychain"_s;
    case KeySource::Session:
        return u"session"_s;
    case KeySource::Typed:
        return u"typed"_s;
    }
    return {};
}

KeyResolver::KeyResolver(CredentialStore *credentials, QObject *parent)
    : QObject(parent)
    , m_credentials(credentials)
{ }

void KeyResolver::resolve(const EngineSpec &engine, QObject *context, Callback callback)
{
    QPointer<QObject> guard(context);
    auto finish = [guard, given = context != nullptr, callback](const ResolvedKey &result) {
        if (callback && (guard || !given))
            callback(result);
    };
    auto finishLater = [this, finish](const ResolvedKey &result) {
        QMetaObject::invokeMethod(
            this, [finish, result] { finish(result); }, Qt::QueuedConnection);
    };

    const QString variable = engine.apiKeyEnv;
    if (!variable.isEmpty()) {
        const QString value = qEnvironmentVariable(variable.toLocal8Bit().constData());
        if (!value.isEmpty()) {
            finishLater({ true, value, KeySource::Environment, {}, std::nullopt });
            return;
        }
    }
    const bool variableMissing = !variable.isEmpty();

    const QString profile = engine.profile;
    if (profile.isEmpty() || !m_credentials) {
        if (variableMissing)
            finishLater({ false, {}, KeySource::None, unsetVariableError(variable), std::nullopt });
        else
            finishLater({ true, {}, KeySource::None, {}, std::nullopt });
        return;
    }

    QPointer<CredentialStore> credentials(m_credentials);
    m_credentials->readKey(profile, this, [=](const KeychainResult &read) {
        ResolvedKey result;
        result.keychain = read;
        if (read.status == KeychainStatus::Ok && read.key) {
            result.ok = true;
            result.key = *read.key;
            result.source = KeySource::Keychain;
            finish(result);
            return;
        }
        if (credentials) {
            if (auto session = credentials->sessionKey(profile)) {
                result.ok = true;
                result.key = *session;
                result.source = KeySource::Session;
                finish(result);
                return;
            }
        }
        if (!read.usable()) {
            result.error = read.message;
        } else if (variableMissing) {
            result.error = unsetVariableError(variable);
        } else {
            result.ok = true; // the profile simply has no key
        }
        finish(result);
    });
}

EngineConfig makeEngineConfig(const EngineSpec &spec, const std::optional<EngineProfile> &profile,
                              const QString &key)
{
    const EngineSpec merged = profile ? mergeProfileIntoSpec(spec, *profile) : spec;
    EngineConfig config;
    config.type = merged.type;
    config.model = merged.model;
    if (!merged.baseUrl.isEmpty())
        config.baseUrl = QUrl(merged.baseUrl);
    config.apiKey = key;
    config.stream = merged.stream;
    config.maxTokens = merged.maxTokens;
    config.temperature = merged.temperature;
    config.timeoutMs = merged.timeoutMs;
    config.idleTimeoutMs = merged.idleTimeoutMs;
    return config;
}

} // namespace Callscope
