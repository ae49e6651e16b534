#pragma once

// What the studio's panels share: the network access manager, the history database and its
// store, the keychain and engine profiles, and the CallService every run goes through.

#include <QObject>
#include <QString>

#include <memory>

class QNetworkAccessManager;

namespace Callscope {

class CallService;
class CallStore;
class CredentialStore;
class Database;
class ProfileStore;

class StudioServices final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StudioServices)

public:
    // `databasePath` empty = defaultDatabasePath(). When the database cannot be opened the
    // studio still runs calls; databaseError() says why nothing is stored.
    explicit StudioServices(const QString &databasePath, QObject *parent = nullptr);
    ~StudioServices() override;

    QNetworkAccessManager *network() const { return m_nam; }
    CallStore *store() const { return m_store.get(); }
    Database *database() const { return m_database.get(); }
    CredentialStore *credentials() const { return m_credentials; }
    ProfileStore *profiles() const { return m_profiles; }
    CallService *calls() const { return m_service; }
    QString databaseError() const { return m_databaseError; }

private:
    QNetworkAccessManager *m_nam = nullptr;
    std::unique_ptr<Database> m_database;
    std::unique_ptr<CallStore> m_store;
    CredentialStore *m_credentials = nullptr;
    ProfileStore *m_profiles = nullptr;
    CallService *m_service = nullptr;
    QString m_databaseError;
};

} // namespace Callscope
