#include "core/service/appcontext.h"

#include "core/secrets/credentialstore.h"
#include "core/secrets/profilestore.h"
#include "core/secrets/truststore.h"
#include "core/service/callservice.h"
#include "core/store/callstore.h"
#include "core/store/historyqueue.h"
#include "core/store/recoveryfile.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QUrl>

Q_LOGGING_CATEGORY(lcContext, "callscope.context")

using namespace Qt::StringLiterals;

namespace Callscope {

AppContext::AppContext(QObject *parent)
    : QObject(parent)
    , m_keychainService(CredentialStore::defaultServiceName())
{ }

void AppContext::setApplicationNames()
{
    QCoreApplication::setOrganizationName(QStringLiteral("Callscope"));
    QCoreApplication::setApplicationName(QStringLiteral("callscope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(CALLSCOPE_VERSION));
}

AppContext::~AppContext()
{
    // The service refers to the store, the store to the database, the profiles to the
    // keychain: each goes before what it uses (the members' order does the rest).
    m_calls.reset();
    m_store.reset();
    m_database.reset();
}

bool AppContext::openHistory(const QString &path, History mode)
{
    if (m_calls)
        qCWarning(lcContext)
            << "the history was opened after the call service was made; it keeps the old one";
    m_store.reset();
    m_database.reset();
    m_defaultDatabase = path.isEmpty();
    m_databasePath = m_defaultDatabase ? defaultDatabasePath() : path;
    m_databaseError.clear();
    m_readOnlyReason.clear();
    m_databaseErrorCode = StoreError::Code::None;
    m_queuePath.clear();
    m_queueReason.clear();
    m_queueSent = TransferOutcome();

    // A server's password comes from the keychain when `history login` put it there; every
    // connection of this process to that server (the store writer's too) uses it.
    if (isServerLocation(m_databasePath)) {
        if (const auto password = readHistoryPassword(m_databasePath))
            Database::setServerPassword(m_databasePath, *password);
    }

    Database::Options options;
    options.mustWrite = mode == History::ReadWrite
        || (mode == History::ReadWriteOrBrowse && !isServerLocation(m_databasePath));
    QString openPath = m_databasePath;
    auto opened = Database::open(openPath, options);
    // A server that cannot be reached: a program that stores calls keeps working on the
    // server's local queue, sent when the server is back (core/store/historyqueue.h).
    if (!opened && (mode == History::ReadWrite || mode == History::ReadWriteOrBrowse)
        && HistoryQueue::isUnreachable(opened.error())) {
        const QString queue = HistoryQueue::pathFor(m_databasePath);
        auto local = Database::open(queue, options);
        if (local) {
            m_queueReason = opened.error().message;
            m_queuePath = queue;
            openPath = queue;
            opened = std::move(local);
            HistoryQueue::noteServer(m_databasePath);
            qCInfo(lcContext) << "history server unreachable, calls go to" << queue;
        } else {
            StoreError both = opened.error();
            both.message = tr("%1; the local queue %2 cannot be used either: %3")
                               .arg(both.message, queue, local.error().message);
            opened = both;
        }
    }
    if (!opened) {
        // The store's messages name the file nearly always; where one does not, say which.
        const QString message = opened.error().message;
        m_databaseErrorCode = opened.error().code;
        m_databaseError = message.contains(m_databasePath)
            ? message
            : tr("cannot open the history database %1: %2").arg(m_databasePath, message);
        qCInfo(lcContext) << "history database unavailable:" << m_databaseError;
        return false;
    }
    m_database = std::move(opened.value());
    m_store = std::make_unique<CallStore>(*m_database);
    if (mode == History::ReadWriteOrBrowse && !m_database->canWrite()) {
        const QUrl url(m_database->path());
        m_readOnlyReason =
            tr("the history %1 is read-only for the role %2: calls cannot be stored, so none is "
               "run; browsing works")
                .arg(u"%1@%2%3"_s.arg(url.userName(), url.host(), url.path()),
                     m_database->serverUser());
        qCInfo(lcContext) << "history opened for browsing only:" << m_readOnlyReason;
    }
    if (mode != History::ReadOnly && m_readOnlyReason.isEmpty()) {
        // Replies an earlier run could not store: stored now, before anything reads what is
        // done (a resumed batch or experiment must see them, not buy them again).
        const RecoveryFile::ImportOutcome recovered =
            RecoveryFile::import(*m_store, m_databasePath);
        m_recoveredCalls = recovered.stored;
        if (recovered.stored > 0)
            qCInfo(lcContext) << "stored" << recovered.stored << "calls kept in"
                              << RecoveryFile::pathFor(m_databasePath);
        if (!recovered.error.isEmpty())
            qCWarning(lcContext) << "the recovery file could not be stored:" << recovered.error;
    }
    // The server is there: what its local queue holds from earlier programs is sent first
    // (each call once; what the server did not take stays queued).
    if (m_queuePath.isEmpty() && m_database->isServer() && m_database->canWrite()) {
        HistoryQueue::noteServer(m_databasePath);
        m_queueSent = HistoryQueue::send(m_databasePath, *m_store);
        if (m_queueSent.sent + m_queueSent.alreadyThere > 0)
            qCInfo(lcContext) << "sent" << m_queueSent.sent << "queued calls to" << m_databasePath;
        for (const QString &error : std::as_const(m_queueSent.errors))
            qCWarning(lcContext) << "the local queue could not be sent in full:" << error;
    }
    // The connection that created, migrated and caught up the file goes; the program reads on
    // a read-only one, so a write that does not go through the store writer fails.
    Database::Options reader;
    reader.readOnly = true;
    reader.busyTimeoutMs = options.busyTimeoutMs;
    auto readOnly = Database::open(openPath, reader);
    if (!readOnly) {
        qCInfo(lcContext) << "the history stays on its first connection:"
                          << readOnly.error().message;
        return true;
    }
    m_store = std::make_unique<CallStore>(*readOnly.value());
    m_database = std::move(readOnly.value());
    return true;
}

bool AppContext::closeHistory()
{
    if (m_calls)
        return false;
    m_store.reset();
    m_database.reset();
    return true;
}

QString AppContext::historyPasswordEntry(const QString &location)
{
    return u"history %1"_s.arg(historyServerKey(location));
}

std::optional<QString> AppContext::readHistoryPassword(const QString &location)
{
    if (historyServerKey(location).isEmpty())
        return std::nullopt;
    std::optional<QString> password;
    bool answered = false;
    QEventLoop loop;
    credentials()->readKey(historyPasswordEntry(location), &loop, [&](const KeychainResult &read) {
        answered = true;
        if (read.status == KeychainStatus::Ok && read.key)
            password = *read.key;
        else if (!read.usable())
            qCInfo(lcContext) << "no history password from the keychain:" << read.message;
        loop.quit();
    });
    if (!answered)
        loop.exec();
    return password;
}

void AppContext::setKeychainService(const QString &service)
{
    if (m_credentials)
        qCWarning(lcContext) << "the keychain service was set after the credential store was made";
    m_keychainService = service;
}

CredentialStore *AppContext::credentials()
{
    if (!m_credentials)
        m_credentials = std::make_unique<CredentialStore>(m_keychainService, nullptr);
    return m_credentials.get();
}

ProfileStore *AppContext::profiles()
{
    if (!m_profiles)
        m_profiles = std::make_unique<ProfileStore>(credentials(), nullptr);
    return m_profiles.get();
}

QNetworkAccessManager *AppContext::network()
{
    if (!m_network)
        m_network = std::make_unique<QNetworkAccessManager>();
    return m_network.get();
}

CallService *AppContext::calls()
{
    if (!m_calls) {
        m_calls =
            std::make_unique<CallService>(network(), m_store.get(), credentials(), profiles());
        m_calls->loadLimitsFromSettings();
        if (!m_queuePath.isEmpty())
            m_calls->setStoresInQueue(m_databasePath);
        m_calls->setTrustStore(trust());
        if (serviceObserver())
            serviceObserver()(this, m_calls.get());
    }
    return m_calls.get();
}

std::function<void(AppContext *, CallService *)> &AppContext::serviceObserver()
{
    static std::function<void(AppContext *, CallService *)> observer;
    return observer;
}

void AppContext::setServiceObserver(std::function<void(AppContext *, CallService *)> observer)
{
    serviceObserver() = std::move(observer);
}

} // namespace Callscope

namespace Callscope {

TrustStore *AppContext::trust()
{
    if (!m_trust)
        m_trust = std::make_unique<TrustStore>();
    return m_trust.get();
}

} // namespace Callscope
