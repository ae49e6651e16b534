#pragma once

// Engine profiles in QSettings: one group per profile under "engines/". Nothing secret is
// ever written there; keys go through CredentialStore. Renaming a profile moves its key,
// removing a profile deletes its key: those two are asynchronous because the keychain is.

#include "core/model/trustpolicy.h"
#include "core/secrets/credentialstore.h"
#include "core/secrets/engineprofile.h"

#include <QList>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

class QSettings;

namespace Callscope {

struct ProfileResult
{
    bool ok = false;
    QString error; // user-facing, when !ok
    // The keychain part of the operation (rename: moving the key; remove: deleting it).
    std::optional<KeychainResult> keychain;
};

class ProfileStore final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProfileStore)

public:
    // The application's settings (QSettings with the organisation and application names).
    ProfileStore(CredentialStore *credentials, QObject *parent);
    // An explicit INI file (tests, portable setups).
    ProfileStore(const QString &settingsFile, CredentialStore *credentials, QObject *parent);
    ~ProfileStore() override;

    QString settingsFileName() const;

    QList<EngineProfile> list() const; // sorted by name
    std::optional<EngineProfile> get(const QString &name) const;
    bool contains(const QString &name) const;

    // Synchronous settings changes; the error names the problem (bad name, exists, missing,
    // settings file not writable).
    ProfileResult add(const EngineProfile &profile);
    ProfileResult update(const EngineProfile &profile); // by profile.name

    using Callback = std::function<void(const Callscope::ProfileResult &)>;
    // Moves the key first; the profile is renamed only when the key was moved (or there was
    // none), so a failing keychain never leaves a key behind under the old name.
    void rename(const QString &from, const QString &to, QObject *context, Callback callback);
    // Removes the profile, then deletes its key. When the keychain cannot delete it, the
    // profile is still removed and the result says that the key is left (ok = false).
    void remove(const QString &name, QObject *context, Callback callback);

private:
    ProfileResult write(const EngineProfile &profile);
    ProfileResult removeSettings(const QString &name);
    ProfileResult syncResult() const;

    std::unique_ptr<QSettings> m_settings;
    CredentialStore *m_credentials = nullptr;
};

// The profiles as they are now, copied, for checks of a spec (lint, the studio's findings):
// the lookup reads only its own copy, so it may be called on any thread.
ProfileLookup profileLookupFor(const ProfileStore &profiles);

} // namespace Callscope
