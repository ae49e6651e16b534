#include "core/secrets/profilestore.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonDocument>
#include <QPointer>
#include <QSettings>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

const QString kGroup = u"engines"_s;

ProfileResult failure(const QString &error)
{
    ProfileResult result;
    result.error = error;
    return result;
}

ProfileResult success()
{
    ProfileResult result;
    result.ok = true;
    return result;
}

template<typename T> std::optional<T> readNumber(const QSettings &settings, const QString &key)
{
    if (!settings.contains(key))
        return std::nullopt;
    bool ok = false;
    if constexpr (std::is_same_v<T, double>) {
        const double value = settings.value(key).toDouble(&ok);
        return ok ? std::optional<T>(value) : std::nullopt;
    } else {
        const qint64 value = settings.value(key).toLongLong(&ok);
        return ok ? std::optional<T>(T(value)) : std::nullopt;
    }
}

} // namespace

ProfileStore::ProfileStore(CredentialStore *credentials, QObject *parent)
    : QObject(parent)
    , m_settings(std::make_unique<QSettings>())
    , m_credentials(credentials)
{ }

ProfileStore::ProfileStore(const QString &settingsFile, CredentialStore *credentials,
                           QObject *parent)
    : QObject(parent)
    , m_settings(std::make_unique<QSettings>(settingsFile, QSettings::IniFormat))
    , m_credentials(credentials)
{ }

ProfileStore::~ProfileStore() = default;

QString ProfileStore::settingsFileName() const
{
    return m_settings->fileName();
}

QList<EngineProfile> ProfileStore::list() const
{
    m_settings->beginGroup(kGroup);
    QStringList names = m_settings->childGroups();
    m_settings->endGroup();
    names.sort();
    QList<EngineProfile> profiles;
    for (const QString &name : std::as_const(names)) {
        if (auto profile = get(name))
            profiles.append(*profile);
    }
    return profiles;
}

bool ProfileStore::contains(const QString &name) const
{
    if (profileNameProblem(name))
        return false;
    m_settings->beginGroup(kGroup);
    const bool found = m_settings->childGroups().contains(name);
    m_settings->endGroup();
    return found;
}

std::optional<EngineProfile> ProfileStore::get(const QString &name) const
{
    if (!contains(name))
        return std::nullopt;
    QSettings &s = *m_settings;
    s.beginGroup(kGroup + u'/' + name);
    EngineProfile profile;
    profile.name = name;
    const auto type = engineTypeFromName(s.value(u"type"_s).toString());
    profile.type = type.value_or(EngineType::OpenAI);
    profile.model = s.value(u"model"_s).toString();
    profile.baseUrl = s.value(u"base_url"_s).toString();
    profile.contextWindow = readNumber<qint64>(s, u"context_window"_s);
    profile.maxTokens = readNumber<int>(s, u"max_tokens"_s);
    profile.temperature = readNumber<double>(s, u"temperature"_s);
    if (s.contains(u"tool_results_in_context"_s)) {
        if (s.value(u"tool_results_in_context"_s).toString() == u"all")
            profile.toolResultsInContext = std::optional<int>();
        else if (auto n = readNumber<int>(s, u"tool_results_in_context"_s))
            profile.toolResultsInContext = std::optional<int>(*n);
    }
    profile.toolResultsTokens = readNumber<qint64>(s, u"tool_results_tokens"_s);
    profile.maxInFlight = readNumber<int>(s, u"max_in_flight"_s);
    profile.timeoutMs = readNumber<qint64>(s, u"timeout_ms"_s);
    profile.idleTimeoutMs = readNumber<qint64>(s, u"idle_timeout_ms"_s);
    if (s.contains(u"cache"_s)) {
        const QJsonDocument cache =
            QJsonDocument::fromJson(s.value(u"cache"_s).toString().toUtf8());
        profile.cache = cacheSpecFromJson(cache.object(), u"/cache"_s, nullptr);
    }
    s.endGroup();
    return profile;
}

ProfileResult ProfileStore::syncResult() const
{
    m_settings->sync();
    if (m_settings->status() != QSettings::NoError) {
        return failure(tr("cannot write the settings file %1").arg(m_settings->fileName()));
    }
    return success();
}

ProfileResult ProfileStore::write(const EngineProfile &profile)
{
    QSettings &s = *m_settings;
    s.remove(kGroup + u'/' + profile.name);
    s.beginGroup(kGroup + u'/' + profile.name);
    s.setValue(u"type"_s, engineTypeName(profile.type));
    s.setValue(u"model"_s, profile.model);
    if (!profile.baseUrl.isEmpty())
        s.setValue(u"base_url"_s, profile.baseUrl);
    if (profile.contextWindow)
        s.setValue(u"context_window"_s, *profile.contextWindow);
    if (profile.maxTokens)
        s.setValue(u"max_tokens"_s, *profile.maxTokens);
    if (profile.temperature)
        s.setValue(u"temperature"_s, *profile.temperature);
    if (profile.maxInFlight)
        s.setValue(u"max_in_flight"_s, *profile.maxInFlight);
    if (profile.toolResultsInContext) {
        if (*profile.toolResultsInContext)
            s.setValue(u"tool_results_in_context"_s, **profile.toolResultsInContext);
        else
            s.setValue(u"tool_results_in_context"_s, u"all"_s);
    }
    if (profile.toolResultsTokens)
        s.setValue(u"tool_results_tokens"_s, *profile.toolResultsTokens);
    if (profile.timeoutMs)
        s.setValue(u"timeout_ms"_s, *profile.timeoutMs);
    if (profile.idleTimeoutMs)
        s.setValue(u"idle_timeout_ms"_s, *profile.idleTimeoutMs);
    if (profile.cache)
        s.setValue(u"cache"_s,
                   QString::fromUtf8(
                       QJsonDocument(profile.cache->toJson()).toJson(QJsonDocument::Compact)));
    s.endGroup();
    return syncResult();
}

ProfileResult ProfileStore::add(const EngineProfile &profile)
{
    if (auto problem = profileNameProblem(profile.name))
        return failure(*problem);
    if (contains(profile.name))
        return failure(tr("an engine profile named '%1' already exists").arg(profile.name));
    return write(profile);
}

ProfileResult ProfileStore::update(const EngineProfile &profile)
{
    if (!contains(profile.name))
        return failure(tr("no engine profile named '%1'").arg(profile.name));
    return write(profile);
}

ProfileResult ProfileStore::removeSettings(const QString &name)
{
    m_settings->remove(kGroup + u'/' + name);
    return syncResult();
}

void ProfileStore::rename(const QString &from, const QString &to, QObject *context,
                          Callback callback)
{
    QPointer<QObject> guard(context);
    auto finish = [guard, given = context != nullptr, callback](const ProfileResult &result) {
        if (callback && (guard || !given))
            callback(result);
    };
    ProfileResult check;
    if (!contains(from))
        check = failure(tr("no engine profile named '%1'").arg(from));
    else if (auto problem = profileNameProblem(to))
        check = failure(*problem);
    else if (contains(to))
        check = failure(tr("an engine profile named '%1' already exists").arg(to));
    else
        check = success();
    if (!check.ok || from == to) {
        // Report on the next event loop turn, like every other outcome.
        QMetaObject::invokeMethod(
            this, [finish, check] { finish(check); }, Qt::QueuedConnection);
        return;
    }

    auto renameSettings = [this, from, to]() -> ProfileResult {
        EngineProfile profile = *get(from);
        profile.name = to;
        ProfileResult result = write(profile);
        if (result.ok)
            result = removeSettings(from);
        return result;
    };

    m_credentials->readKey(from, this, [=, this](const KeychainResult &read) {
        if (read.status == KeychainStatus::NotFound) {
            ProfileResult result = renameSettings();
            result.keychain = read;
            finish(result);
            return;
        }
        if (read.status != KeychainStatus::Ok) {
            ProfileResult result =
                failure(tr("cannot rename engine '%1': its key could not be read: %2")
                            .arg(from, read.message));
            result.keychain = read;
            finish(result);
            return;
        }
        m_credentials->writeKey(to, *read.key, this, [=, this](const KeychainResult &written) {
            if (written.status != KeychainStatus::Ok) {
                ProfileResult result =
                    failure(tr("cannot rename engine '%1': its key could not be stored "
                               "under the new name: %2")
                                .arg(from, written.message));
                result.keychain = written;
                finish(result);
                return;
            }
            ProfileResult renamed = renameSettings();
            if (!renamed.ok) {
                // Undo the copy so the key stays only where the profile is.
                m_credentials->deleteKey(
                    to, this, [finish, renamed](const KeychainResult &) { finish(renamed); });
                return;
            }
            m_credentials->deleteKey(from, this, [finish](const KeychainResult &deleted) {
                ProfileResult result = success();
                result.keychain = deleted;
                if (deleted.status != KeychainStatus::Ok) {
                    result.ok = false;
                    result.error =
                        tr("the engine was renamed, but the key under its old name could not "
                           "be deleted: %1")
                            .arg(deleted.message);
                }
                finish(result);
            });
        });
    });
}

void ProfileStore::remove(const QString &name, QObject *context, Callback callback)
{
    QPointer<QObject> guard(context);
    auto finish = [guard, given = context != nullptr, callback](const ProfileResult &result) {
        if (callback && (guard || !given))
            callback(result);
    };
    if (!contains(name)) {
        const ProfileResult missing = failure(tr("no engine profile named '%1'").arg(name));
        QMetaObject::invokeMethod(
            this, [finish, missing] { finish(missing); }, Qt::QueuedConnection);
        return;
    }
    const ProfileResult removed = removeSettings(name);
    if (!removed.ok) {
        QMetaObject::invokeMethod(
            this, [finish, removed] { finish(removed); }, Qt::QueuedConnection);
        return;
    }
    m_credentials->deleteKey(name, this, [finish, name](const KeychainResult &deleted) {
        ProfileResult result = success();
        result.keychain = deleted;
        if (deleted.status != KeychainStatus::Ok) {
            result.ok = false;
            result.error =
                tr("the engine '%1' was removed, but its key could not be deleted from the "
                   "keychain: %2")
                    .arg(name, deleted.message);
        }
        finish(result);
    });
}

ProfileLookup profileLookupFor(const ProfileStore &profiles)
{
    QHash<QString, KnownProfile> known;
    for (const EngineProfile &profile : profiles.list())
        known.insert(profile.name, KnownProfile { profile.type, profile.baseUrl });
    return [known](const QString &name) -> std::optional<KnownProfile> {
        const auto it = known.constFind(name);
        return it == known.cend() ? std::nullopt : std::optional<KnownProfile>(*it);
    };
}

} // namespace Callscope
