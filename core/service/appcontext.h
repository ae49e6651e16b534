#pragma once

// AppContext: the pieces both programs put together at start, made in one place. The studio's
// main and every callscope-cli command that touches the history, the keychain or the network
// make one, so a call, a stored row and an engine profile mean the same from either front end.
//
// It owns the history database and its CallStore (opened from a path, the default one when
// the path is empty), the CredentialStore (the OS keychain), the ProfileStore (engine profiles
// in the settings), the QNetworkAccessManager and the CallService over all of them. Each piece
// is made when first asked for, so a command that only lists engine profiles opens no
// database and a command that only reads the history starts no service.

#include "core/store/database.h"
#include "core/store/historytransfer.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

class QNetworkAccessManager;

namespace Callscope {

class CallService;
class CallStore;
class CredentialStore;
class ProfileStore;
class TrustStore;

class AppContext final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AppContext)

public:
    // How a program uses the history.
    enum class History {
        // Calls are stored: a file this process may not write is refused at once, before any
        // request is sent (SQLite would open it read-only and fail only at the first write).
        ReadWrite,
        // Only reads (show, history, export): a read-only file is fine.
        ReadOnly,
        // The studio: calls are stored when the history can take them; a server's role that
        // may only read opens the history for browsing, and historyReadOnlyReason() says why
        // nothing can be run (the window disables Run up front).
        ReadWriteOrBrowse,
    };

    explicit AppContext(QObject *parent = nullptr);
    ~AppContext() override;

    // The organisation and application names (and the version) that the settings, the engine
    // profiles and the default history path are found by. Both programs set them first, so the
    // studio and callscope-cli read the same settings and the same history.
    static void setApplicationNames();

    // Opens the history database at `path` (empty: defaultDatabasePath()). Returns false when
    // it cannot be used; databaseError() then says why, naming the file. Open it before the
    // first calls(): the service keeps the store it was made with.
    bool openHistory(const QString &path, History mode = History::ReadWrite);
    // The file asked for (or the default one), also when it could not be opened.
    QString databasePath() const { return m_databasePath; }
    // Closes the history (the store first); calls are not stored until it is opened again.
    // Refused (false) once the call service exists: it keeps the store it was made with.
    bool closeHistory();
    // True unless a path was given to openHistory().
    bool usesDefaultDatabase() const { return m_defaultDatabase; }
    // Why the history is not available; empty when it is (or was never asked for).
    QString databaseError() const { return m_databaseError; }
    // Why the history could not be opened (None when it was); Corrupt means a way back is due.
    StoreError::Code databaseErrorCode() const { return m_databaseErrorCode; }
    Database *database() const { return m_database.get(); }
    // Why the open history cannot store calls (a reader role on a server), in words for the
    // user; empty when it can (or when it is not open: databaseError() then says why).
    QString historyReadOnlyReason() const { return m_readOnlyReason; }
    // Calls openHistory() stored from the recovery file beside the database (replies an
    // earlier run could not store; core/store/recoveryfile.h).
    int recoveredCalls() const { return m_recoveredCalls; }
    CallStore *store() const { return m_store.get(); }

    // A history server that could not be reached when a program that stores calls opened it:
    // the history is then the server's local queue (core/store/historyqueue.h), and these say
    // which file and why. Empty when the history is what was asked for.
    QString queuePath() const { return m_queuePath; }
    QString queueReason() const { return m_queueReason; }
    // What openHistory() sent from the local queue of the server it opened.
    const TransferOutcome &queueSent() const { return m_queueSent; }

    // The keychain entry (of the credential store's service) that holds the password of the
    // history server `location` names (`callscope-cli history login URL` writes it).
    static QString historyPasswordEntry(const QString &location);
    // Reads that entry, waiting for the keychain's answer (the event loop runs meanwhile).
    // nullopt when there is none or the keychain cannot be used (libpq's own sources then
    // apply: PGPASSWORD, PGPASSFILE, ~/.pgpass).
    std::optional<QString> readHistoryPassword(const QString &location);

    // The keychain service the credential store uses (default "callscope"). Set it before the
    // first credentials(); tests use their own so they never meet the user's entries.
    void setKeychainService(const QString &service);
    CredentialStore *credentials();
    // Engine profiles in the application's settings, their keys through credentials().
    ProfileStore *profiles();
    QNetworkAccessManager *network();
    // The service every call goes through: over the store (none when no history was opened:
    // calls are not kept), the keychain and the profiles, with the scheduler's limits read
    // from the settings.
    CallService *calls();
    // Called with every CallService an AppContext of this process makes, right after it is
    // made: how a program adds an observer of all its calls (the OTLP export) in one place.
    static void setServiceObserver(std::function<void(AppContext *, CallService *)> observer);
    // The files the user trusted to run things (core/secrets/truststore.h); the service refuses
    // untrusted ones that would.
    TrustStore *trust();

private:
    static std::function<void(AppContext *, CallService *)> &serviceObserver();

    QString m_databasePath;
    QString m_databaseError;
    QString m_readOnlyReason;
    StoreError::Code m_databaseErrorCode = StoreError::Code::None;
    int m_recoveredCalls = 0;
    QString m_queuePath;
    QString m_queueReason;
    TransferOutcome m_queueSent;
    QString m_keychainService;
    bool m_defaultDatabase = true;
    // Declared in the order they are made, so each goes before what it refers to.
    std::unique_ptr<QNetworkAccessManager> m_network;
    std::unique_ptr<CredentialStore> m_credentials;
    std::unique_ptr<ProfileStore> m_profiles;
    std::unique_ptr<Database> m_database;
    std::unique_ptr<CallStore> m_store;
    std::unique_ptr<TrustStore> m_trust;
    std::unique_ptr<CallService> m_calls;
};

} // namespace Callscope
