#include "core/secrets/credentialstore.h"

#include <QCoreApplication>
#include <QLoggingCategory>
#include <QMetaObject>
#include <qt6keychain/keychain.h>

#ifdef CALLSCOPE_HAVE_QTDBUS
#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusMetaType>
#include <QDBusObjectPath>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QMap>
#endif

using namespace Qt::StringLiterals;

// Details only (the user-facing message already names the cause): debug, off by default.
Q_LOGGING_CATEGORY(lcSecrets, "callscope.secrets", QtInfoMsg)

namespace Callscope {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Callscope::CredentialStore)
};

// QtKeychain reports a missing or unreachable session bus as OtherError with GDBus's text
// ("Could not connect: ...", "Cannot autolaunch D-Bus without X11 $DISPLAY", a
// org.freedesktop.DBus.Error name): those all mean "no keychain service".
bool mentionsMissingBus(const QString &text)
{
    static const QStringList hints = { u"d-bus"_s,
                                       u"dbus"_s,
                                       u"could not connect"_s,
                                       u"autolaunch"_s,
                                       u"org.freedesktop.secrets"_s,
                                       u"serviceunknown"_s,
                                       u"was not provided by any .service files"_s,
                                       u"secret service"_s };
    for (const QString &hint : hints) {
        if (text.contains(hint, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

KeychainResult classify(QKeychain::Error error, const QString &text)
{
    KeychainResult result;
    result.backendCode = int(error);
    result.backendError = text;
    switch (error) {
    case QKeychain::NoError:
        result.status = KeychainStatus::Ok;
        break;
    case QKeychain::EntryNotFound:
        result.status = KeychainStatus::NotFound;
        break;
    case QKeychain::AccessDenied:
    case QKeychain::AccessDeniedByUser:
        // libsecret: "Cannot create an item in a locked collection" and friends.
        result.status = text.contains(u"locked"_s, Qt::CaseInsensitive)
            ? KeychainStatus::Locked
            : KeychainStatus::AccessDenied;
        break;
    case QKeychain::NoBackendAvailable:
    case QKeychain::NotImplemented:
        result.status = KeychainStatus::NoService;
        break;
    case QKeychain::OtherError:
        result.status =
            mentionsMissingBus(text) ? KeychainStatus::NoService : KeychainStatus::Failed;
        break;
    case QKeychain::CouldNotDeleteEntry:
        result.status = KeychainStatus::Failed;
        break;
    }
    if (!result.usable())
        result.message = keychainMessage(result.status, text);
    return result;
}

} // namespace

QString keychainMessage(KeychainStatus status, const QString &detail)
{
    const QString runOnly =
        Tr::tr("or give the key for this run only (an environment variable named "
               "by the spec's api_key_env, or a key typed in for this session).");
    switch (status) {
    case KeychainStatus::Ok:
    case KeychainStatus::NotFound:
        return {};
    case KeychainStatus::NoService:
        return Tr::tr("No keychain service is running (Secret Service over D-Bus: %1). Start "
                      "gnome-keyring or KWallet in your desktop session, ")
                   .arg(detail)
            + runOnly;
    case KeychainStatus::Locked:
        return Tr::tr(
                   "The keychain is locked. Unlock your keyring (for example by logging in again "
                   "or with Seahorse), ")
            + runOnly;
    case KeychainStatus::AccessDenied:
        return Tr::tr("The keychain refused access (%1). Allow Callscope to use your keyring, ")
                   .arg(detail)
            + runOnly;
    case KeychainStatus::Failed:
        return Tr::tr("The keychain reported an error: %1.").arg(detail);
    }
    return {};
}

CredentialStore::CredentialStore(QObject *parent)
    : CredentialStore(defaultServiceName(), parent)
{ }

CredentialStore::CredentialStore(const QString &service, QObject *parent)
    : QObject(parent)
    , m_service(service)
{ }

CredentialStore::~CredentialStore() = default;

QString CredentialStore::defaultServiceName()
{
    return u"callscope"_s;
}

void CredentialStore::readKey(const QString &profile, QObject *context, Callback callback)
{
    enqueue({ Operation::Read, profile, {}, context, std::move(callback) });
}

void CredentialStore::writeKey(const QString &profile, const QString &key, QObject *context,
                               Callback callback)
{
    enqueue({ Operation::Write, profile, key, context, std::move(callback) });
}

void CredentialStore::deleteKey(const QString &profile, QObject *context, Callback callback)
{
    enqueue({ Operation::Delete, profile, {}, context, std::move(callback) });
}

void CredentialStore::setSessionKey(const QString &profile, const QString &key)
{
    m_sessionKeys.insert(profile, key);
}

std::optional<QString> CredentialStore::sessionKey(const QString &profile) const
{
    const auto it = m_sessionKeys.constFind(profile);
    if (it == m_sessionKeys.constEnd())
        return std::nullopt;
    return *it;
}

void CredentialStore::clearSessionKey(const QString &profile)
{
    m_sessionKeys.remove(profile);
}

void CredentialStore::enqueue(Request request)
{
    request.contextGiven = request.context != nullptr;
    m_queue.push_back(std::move(request));
    scheduleNext();
}

void CredentialStore::scheduleNext()
{
    if (m_running || m_scheduled || m_queue.empty())
        return;
    m_scheduled = true;
    QMetaObject::invokeMethod(this, &CredentialStore::startNext, Qt::QueuedConnection);
}

void CredentialStore::startNext()
{
    m_scheduled = false;
    if (m_running || m_queue.empty())
        return;
    m_running = std::move(m_queue.front());
    m_queue.pop_front();

    // No parent: a job deletes itself once finished (setAutoDelete), even when this store is
    // gone by then; libsecret's callback must never meet a job destroyed under it.
    QKeychain::Job *job = nullptr;
    switch (m_running->operation) {
    case Operation::Read:
        job = new QKeychain::ReadPasswordJob(m_service, nullptr);
        break;
    case Operation::Write: {
        auto *write = new QKeychain::WritePasswordJob(m_service, nullptr);
        write->setTextData(m_running->key);
        job = write;
        break;
    }
    case Operation::Delete:
        job = new QKeychain::DeletePasswordJob(m_service, nullptr);
        break;
    }
    job->setKey(m_running->profile);
    job->setInsecureFallback(false);
    job->setAutoDelete(true);
    connect(job, &QKeychain::Job::finished, this, &CredentialStore::jobFinished);
    qCDebug(lcSecrets) << "keychain job" << int(m_running->operation) << "for"
                       << m_running->profile;
    job->start();
}

void CredentialStore::jobFinished(QKeychain::Job *job)
{
    if (!m_running)
        return;
    KeychainResult result = classify(job->error(), job->errorString());
    if (m_running->operation == Operation::Read && result.status == KeychainStatus::Ok) {
        if (auto *read = qobject_cast<QKeychain::ReadPasswordJob *>(job))
            result.key = read->textData();
    }
    if (m_running->operation == Operation::Delete && result.status == KeychainStatus::NotFound)
        result.status = KeychainStatus::Ok;
    if (!result.usable())
        qCDebug(lcSecrets) << "keychain error" << result.backendCode << result.backendError;

    // libsecret cannot tell a locked entry from a missing one (a read answers "not found",
    // a delete "done" and the entry stays): ask the Secret Service whether a locked entry
    // of ours exists.
    const bool mayHideLock =
        (m_running->operation == Operation::Read && result.status == KeychainStatus::NotFound)
        || (m_running->operation == Operation::Delete && result.status == KeychainStatus::Ok);
    if (mayHideLock) {
        probeLockedEntry(result);
        return;
    }
    complete(result);
}

void CredentialStore::probeLockedEntry(KeychainResult result)
{
#ifdef CALLSCOPE_HAVE_QTDBUS
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (!bus.isConnected()) {
        complete(result);
        return;
    }
    static const QMetaType registered = qDBusRegisterMetaType<QMap<QString, QString>>();
    Q_UNUSED(registered);
    QDBusMessage call =
        QDBusMessage::createMethodCall(u"org.freedesktop.secrets"_s, u"/org/freedesktop/secrets"_s,
                                       u"org.freedesktop.Secret.Service"_s, u"SearchItems"_s);
    // The attributes QtKeychain's libsecret backend files its entries under.
    const QMap<QString, QString> attributes { { u"user"_s, m_running->profile },
                                              { u"server"_s, m_service } };
    call << QVariant::fromValue(attributes);
    auto *watcher = new QDBusPendingCallWatcher(bus.asyncCall(call, 5000), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this,
            [this, result](QDBusPendingCallWatcher *w) mutable {
                w->deleteLater();
                QDBusPendingReply<QList<QDBusObjectPath>, QList<QDBusObjectPath>> reply = *w;
                if (reply.isValid() && !reply.argumentAt<1>().isEmpty()) {
                    result.status = KeychainStatus::Locked;
                    result.backendError = u"the keyring holding the entry is locked"_s;
                    result.message = keychainMessage(KeychainStatus::Locked, result.backendError);
                    result.key.reset();
                    qCDebug(lcSecrets) << "keychain entry is locked";
                }
                complete(result);
            });
#else
    complete(result);
#endif
}

void CredentialStore::complete(const KeychainResult &result)
{
    Request request = std::move(*m_running);
    m_running.reset();
    scheduleNext();
    if (result.status == KeychainStatus::NoService || result.status == KeychainStatus::Locked
        || result.status == KeychainStatus::AccessDenied) {
        Q_EMIT keychainUnavailable(result);
    }
    if (request.callback && (request.context || !request.contextGiven))
        request.callback(result);
}

} // namespace Callscope
