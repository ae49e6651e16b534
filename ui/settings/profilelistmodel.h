#pragma once

// The engine profiles of a ProfileStore, with whether each has a key in the keychain (asked
// asynchronously; unknown until the keychain answered).

#include "core/secrets/engineprofile.h"

#include <QAbstractListModel>
#include <QHash>

namespace Callscope {

class CredentialStore;
class ProfileStore;

class ProfileListModel final : public QAbstractListModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProfileListModel)

public:
    enum Role { NameRole = Qt::UserRole + 1, KeyStateRole };
    enum class KeyState { Unknown, Stored, Missing, Unavailable };

    ProfileListModel(ProfileStore *profiles, CredentialStore *credentials, QObject *parent);
    ~ProfileListModel() override;

    // Re-reads the profiles and asks the keychain which of them have a key.
    void reload();
    int rowOfProfile(const QString &name) const;
    EngineProfile profileAt(int row) const { return m_list.value(row); }
    KeyState keyState(const QString &name) const
    {
        return m_keyStates.value(name, KeyState::Unknown);
    }
    void setKeyState(const QString &name, KeyState state);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    void keychainProblem(const QString &message);

private:
    ProfileStore *m_store = nullptr;
    CredentialStore *m_credentials = nullptr;
    QList<EngineProfile> m_list;
    QHash<QString, KeyState> m_keyStates;
};

} // namespace Callscope
