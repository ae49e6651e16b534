#pragma once

// Engine keys in the OS keychain, through QtKeychain (service "callscope", entry = profile
// name). Never an insecure fallback: when no keychain is usable the caller gets a classified
// error with a message that names the cause and what to do, and may keep a key for the
// current session in memory only (setSessionKey).
//
// Every operation is asynchronous and reports through a callback. Operations run one at a
// time, in the order they were asked for; the next one is started from a queued call, never
// from inside the previous job's finished handler (QtKeychain's D-Bus backends do not like
// re-entrant starts).

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QString>

#include <deque>
#include <functional>
#include <optional>

namespace QKeychain {
class Job;
}

namespace Callscope {

enum class KeychainStatus {
    Ok, // the operation succeeded (for a read: a key was found)
    NotFound, // read: the profile has no key (not an error)
    NoService, // no keychain service: Secret Service / D-Bus missing, no backend
    Locked, // the keyring is locked
    AccessDenied, // the keychain refused access for another reason
    Failed, // any other keychain error
};

struct KeychainResult
{
    KeychainStatus status = KeychainStatus::Ok;
    std::optional<QString> key; // read: the key when status is Ok
    QString message; // user-facing text for an error status; empty otherwise
    QString backendError; // QtKeychain's errorString(), for logs and details
    int backendCode = 0; // QKeychain::Error

    // True for Ok and NotFound: the keychain answered.
    bool usable() const
    {
        return status == KeychainStatus::Ok || status == KeychainStatus::NotFound;
    }
};

// The user-facing message of an error status; `detail` is the backend's text.
QString keychainMessage(KeychainStatus status, const QString &detail);

class CredentialStore final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CredentialStore)

public:
    using Callback = std::function<void(const Callscope::KeychainResult &)>;

    explicit CredentialStore(QObject *parent = nullptr);
    // A different service name (tests use their own so they never meet the user's entries).
    CredentialStore(const QString &service, QObject *parent);
    ~CredentialStore() override;

    static QString defaultServiceName(); // "callscope"
    QString serviceName() const { return m_service; }

    // The callback runs later on this thread, unless `context` was destroyed meanwhile.
    void readKey(const QString &profile, QObject *context, Callback callback);
    void writeKey(const QString &profile, const QString &key, QObject *context, Callback callback);
    // Deleting an entry that does not exist succeeds.
    void deleteKey(const QString &profile, QObject *context, Callback callback);

    // A key for this session only, for when the keychain cannot be used. Memory only.
    void setSessionKey(const QString &profile, const QString &key);
    std::optional<QString> sessionKey(const QString &profile) const;
    void clearSessionKey(const QString &profile);

    // Operations queued or running.
    int pendingCount() const { return int(m_queue.size()) + (m_running ? 1 : 0); }

Q_SIGNALS:
    // Emitted when an operation found no usable keychain (NoService, Locked, AccessDenied),
    // so a GUI can show one message bar.
    void keychainUnavailable(const Callscope::KeychainResult &result);

private:
    enum class Operation { Read, Write, Delete };
    struct Request
    {
        Operation operation = Operation::Read;
        QString profile;
        QString key;
        QPointer<QObject> context;
        Callback callback;
        bool contextGiven = false;
    };

    void enqueue(Request request);
    void scheduleNext();
    void startNext();
    void jobFinished(QKeychain::Job *job);
    void probeLockedEntry(KeychainResult result);
    void complete(const KeychainResult &result);

    QString m_service;
    std::deque<Request> m_queue;
    std::optional<Request> m_running;
    bool m_scheduled = false;
    QHash<QString, QString> m_sessionKeys;
};

} // namespace Callscope
