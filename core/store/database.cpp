#include "core/store/database.h"

#include "core/store/historyrescue.h"
#include "core/store/schema.h"

#include <QAtomicInteger>
#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QHash>
#include <QMutex>
#include <QMutexLocker>
#include <QScopeGuard>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QThread>
#include <QUrl>
#include <QUrlQuery>

#include <algorithm>
#include <array>
#include <atomic>
#include <functional>
#include <optional>
#include <sqlite3.h>

using namespace Qt::StringLiterals;

namespace Callscope {

Q_LOGGING_CATEGORY(lcStore, "callscope.store")

namespace {

constexpr auto kDriver = "QSQLITE"_L1;
constexpr auto kFileName = "callscope.sqlite"_L1;

constexpr auto kReadUserVersion = "PRAGMA user_version"_L1;
constexpr auto kSetJournalWal = "PRAGMA journal_mode = WAL"_L1;
constexpr auto kSetForeignKeys = "PRAGMA foreign_keys = ON"_L1;
// In WAL mode NORMAL is crash-consistent; it can only lose the newest transactions on a power
// cut, never corrupt the file.
constexpr auto kSetSynchronous = "PRAGMA synchronous = NORMAL"_L1;
// 32 MiB of page cache (SQLite's default is 2 MiB): index pages of a large history stay hot.
constexpr auto kSetCacheSize = "PRAGMA cache_size = -32768"_L1;
// PRAGMA takes no bound values; the number comes from the migration table, not from input.
constexpr auto kSetUserVersion = "PRAGMA user_version = %1"_L1;
constexpr auto kCommit = "COMMIT"_L1;
constexpr auto kRollback = "ROLLBACK"_L1;
constexpr auto kFindTable = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"_L1;

constexpr auto kServerDriver = "QPSQL"_L1;
// The schema version of a server's history, in table callscope_schema (SQLite keeps it in
// PRAGMA user_version).
constexpr auto kServerFindVersionTable = "SELECT to_regclass('callscope_schema') IS NOT NULL"_L1;
constexpr auto kServerCurrentUser = "SELECT current_user"_L1;
constexpr auto kServerCanCreate =
    "SELECT has_schema_privilege(current_user, 'public', 'CREATE')"_L1;
constexpr auto kServerReadVersion = "SELECT COALESCE(MAX(version), 0) FROM callscope_schema"_L1;
constexpr auto kServerCreateVersionTable =
    "CREATE TABLE IF NOT EXISTS callscope_schema (version BIGINT NOT NULL)"_L1;
constexpr auto kServerSetVersion = "INSERT INTO callscope_schema (version) VALUES (?)"_L1;
constexpr auto kServerClearVersion = "DELETE FROM callscope_schema"_L1;
// Processes that find an old schema at once migrate one after the other.
constexpr auto kServerMigrationLock = "SELECT pg_advisory_xact_lock(7462616201)"_L1;
// The libpq parameters a history URL may carry beside user, host, port and database. A
// password is not one of them: it comes from the keychain or libpq's own sources.
constexpr std::array kServerParameters = { "sslmode"_L1,          "sslrootcert"_L1,
                                           "sslcert"_L1,          "sslkey"_L1,
                                           "sslcrl"_L1,           "connect_timeout"_L1,
                                           "application_name"_L1, "target_session_attrs"_L1 };

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Store)
};

QString nextConnectionName()
{
    static QAtomicInteger<quint64> counter;
    return u"callscope-store-%1"_s.arg(counter.fetchAndAddRelaxed(1) + 1);
}

// SQLite primary result code of a Qt SQL error (QSQLITE reports extended codes).
int sqliteCode(const QSqlError &error)
{
    bool ok = false;
    const int code = error.nativeErrorCode().toInt(&ok);
    return ok ? (code & 0xff) : -1;
}

// Removes a connection when the scope ends; the QSqlDatabase handles must be gone first.
class ConnectionGuard
{
public:
    explicit ConnectionGuard(QString name)
        : m_name(std::move(name))
    { }
    ~ConnectionGuard()
    {
        if (!m_name.isEmpty())
            QSqlDatabase::removeDatabase(m_name);
    }
    void release() { m_name.clear(); }
    Q_DISABLE_COPY_MOVE(ConnectionGuard)

private:
    QString m_name;
};

QMutex &monitorMutex()
{
    static QMutex mutex;
    return mutex;
}

QHash<QString, int> &openCounts()
{
    static QHash<QString, int> counts;
    return counts;
}

QHash<QString, int> &writerCounts()
{
    static QHash<QString, int> counts;
    return counts;
}

QStringList &damaged()
{
    static QStringList paths;
    return paths;
}

// The thread that must run no SQL, and what a statement there does (Database::ThreadCheck).
std::atomic<QThread *> forbiddenThread { nullptr };
std::atomic<int> forbiddenCheck { 0 };
std::atomic<int> forbiddenCount { 0 };

QString &lastForbidden()
{
    static QString text;
    return text;
}

// SQLite calls this before each statement of a connection runs (sqlite3_trace_v2).
int traceStatement(unsigned type, void *, void *statement, void *)
{
    if (type != SQLITE_TRACE_STMT || forbiddenThread.load() != QThread::currentThread())
        return 0;
    const char *sql = sqlite3_sql(static_cast<sqlite3_stmt *>(statement));
    const QString text = QString::fromUtf8(sql ? sql : "");
    forbiddenCount.fetch_add(1);
    {
        QMutexLocker lock(&monitorMutex());
        lastForbidden() = text;
    }
    if (forbiddenCheck.load() == int(Database::ThreadCheck::Fatal))
        qFatal("SQL on a thread that must run none (the GUI's): %s", qPrintable(text));
    qCWarning(lcStore) << "SQL on a thread that must run none (the GUI's):" << text;
    return 0;
}

// Every SQLite connection reports its statements to traceStatement.
void watchStatements(const QSqlDatabase &db)
{
    const QVariant handle = db.driver() ? db.driver()->handle() : QVariant();
    if (!handle.isValid() || qstrcmp(handle.typeName(), "sqlite3*") != 0)
        return;
    if (sqlite3 *connection = *static_cast<sqlite3 *const *>(handle.constData()))
        sqlite3_trace_v2(connection, SQLITE_TRACE_STMT, traceStatement, nullptr);
}

QString monitorKey(const QString &path)
{
    const QFileInfo info(path);
    const QString canonical = info.canonicalFilePath();
    return canonical.isEmpty() ? info.absoluteFilePath() : canonical;
}

} // namespace

DatabaseMonitor *DatabaseMonitor::instance()
{
    // Made on first use; it lives as long as the process (connections may report from any
    // thread, up to the end).
    static DatabaseMonitor *monitor = [] {
        auto *made = new DatabaseMonitor;
        if (QCoreApplication *app = QCoreApplication::instance())
            made->moveToThread(app->thread());
        return made;
    }();
    return monitor;
}

int DatabaseMonitor::openConnections(const QString &path) const
{
    QMutexLocker lock(&monitorMutex());
    return openCounts().value(monitorKey(path));
}

QStringList DatabaseMonitor::damagedPaths() const
{
    QMutexLocker lock(&monitorMutex());
    return damaged();
}

void DatabaseMonitor::clearDamage(const QString &path)
{
    QMutexLocker lock(&monitorMutex());
    damaged().removeAll(path);
}

int DatabaseMonitor::writersOpened(const QString &path) const
{
    QMutexLocker lock(&monitorMutex());
    return writerCounts().value(monitorKey(path));
}

void DatabaseMonitor::add(const QString &key, bool readOnly)
{
    QMutexLocker lock(&monitorMutex());
    ++openCounts()[key];
    if (!readOnly)
        ++writerCounts()[key];
}

void DatabaseMonitor::remove(const QString &key)
{
    QMutexLocker lock(&monitorMutex());
    auto it = openCounts().find(key);
    if (it != openCounts().end() && --it.value() <= 0)
        openCounts().erase(it);
}

void DatabaseMonitor::reportDamage(const QString &path, const QString &message)
{
    {
        QMutexLocker lock(&monitorMutex());
        if (damaged().contains(path))
            return; // said once per process
        damaged().append(path);
    }
    qCWarning(lcStore) << "damaged history:" << message;
    QMetaObject::invokeMethod(
        this, [this, path, message] { Q_EMIT damageFound(path, message); }, Qt::QueuedConnection);
}

bool isServerLocation(const QString &location)
{
    return location.startsWith("postgresql://"_L1, Qt::CaseInsensitive)
        || location.startsWith("postgres://"_L1, Qt::CaseInsensitive);
}

QString historyServerKey(const QString &location)
{
    if (!isServerLocation(location))
        return {};
    const QUrl url(location);
    const QString host = QUrlQuery(url).queryItemValue(u"host"_s, QUrl::FullyDecoded);
    return u"postgresql://%1@%2:%3%4"_s
        .arg(url.userName(QUrl::FullyDecoded), host.isEmpty() ? url.host() : host)
        .arg(url.port(5432))
        .arg(url.path(QUrl::FullyDecoded));
}

namespace {

QHash<QString, QString> &serverPasswords()
{
    static QHash<QString, QString> passwords;
    return passwords;
}

QString serverPassword(const QString &location)
{
    QMutexLocker lock(&monitorMutex());
    return serverPasswords().value(historyServerKey(location));
}

} // namespace

void Database::setServerPassword(const QString &location, const QString &password)
{
    const QString key = historyServerKey(location);
    if (key.isEmpty())
        return;
    QMutexLocker lock(&monitorMutex());
    if (password.isEmpty())
        serverPasswords().remove(key);
    else
        serverPasswords().insert(key, password);
}

QString localPathFor(const QString &location)
{
    if (!isServerLocation(location))
        return location;
    const QUrl url(location);
    const QByteArray key =
        url.toString(QUrl::RemovePassword | QUrl::NormalizePathSegments).toUtf8();
    const QString name = QString::fromLatin1(
        QCryptographicHash::hash(key, QCryptographicHash::Sha256).toHex().left(16));
    const QDir dir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)
                   + u"/servers"_s);
    dir.mkpath(u"."_s);
    return dir.filePath(name + u".history"_s);
}

QString defaultDatabasePath()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
        .filePath(kFileName);
}

int Database::latestSchemaVersion()
{
    return Schema::latestVersion();
}

void Database::setForbiddenThread(QThread *thread, ThreadCheck check)
{
    forbiddenCheck.store(int(check));
    forbiddenThread.store(check == ThreadCheck::Off ? nullptr : thread);
    resetForbiddenThreadStatements();
}

int Database::forbiddenThreadStatements()
{
    return forbiddenCount.load();
}

void Database::resetForbiddenThreadStatements()
{
    forbiddenCount.store(0);
    QMutexLocker lock(&monitorMutex());
    lastForbidden().clear();
}

QString Database::lastForbiddenStatement()
{
    QMutexLocker lock(&monitorMutex());
    return lastForbidden();
}

Database::~Database()
{
    if (!m_monitorKey.isEmpty())
        DatabaseMonitor::instance()->remove(m_monitorKey);
    if (m_connectionName.isEmpty())
        return;
    {
        QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
        // A writer leaves the write-ahead log empty behind it: SQLite checkpoints and removes it
        // only when the last connection closes, and a reader (this process's read-only
        // connection, often the last to go) cannot. Without waiting: another process that
        // still reads keeps its log, and its own last writer empties it.
        if (db.isOpen() && !m_readOnly && !isServer()) {
            QSqlQuery query(db);
            query.exec(u"PRAGMA busy_timeout = 0"_s);
            query.exec(u"PRAGMA wal_checkpoint(TRUNCATE)"_s);
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(m_connectionName);
}

QSqlDatabase Database::connection() const
{
    return QSqlDatabase::database(m_connectionName, false);
}

StoreError Database::errorFrom(const QSqlError &error, const QString &what) const
{
    if (isServer())
        return serverErrorFrom(error, what);
    const QString detail = error.text().trimmed();
    const int code = sqliteCode(error);
    switch (code) {
    case 5: // SQLITE_BUSY
    case 6: // SQLITE_LOCKED
        return StoreError::make(
            StoreError::Code::Locked,
            Tr::tr("database %1 is locked by another program (%2): %3").arg(m_path, what, detail));
    case 11: { // SQLITE_CORRUPT
        const QString message = Tr::tr("database %1 is damaged (%2): %3").arg(m_path, what, detail);
        DatabaseMonitor::instance()->reportDamage(m_path, message);
        return StoreError::make(StoreError::Code::Corrupt, message);
    }
    case 26: // SQLITE_NOTADB
        return StoreError::make(
            StoreError::Code::NotADatabase,
            Tr::tr("%1 is not a Callscope database (%2): %3").arg(m_path, what, detail));
    case 19: // SQLITE_CONSTRAINT
        return StoreError::make(StoreError::Code::Constraint,
                                Tr::tr("%1 was refused by the database: %2").arg(what, detail));
    case 14: // SQLITE_CANTOPEN
    case 10: // SQLITE_IOERR
    case 13: // SQLITE_FULL
    case 8: // SQLITE_READONLY
        return StoreError::make(
            StoreError::Code::Io,
            Tr::tr("cannot use database %1 (%2): %3").arg(m_path, what, detail));
    default:
        return StoreError::make(StoreError::Code::Sql,
                                Tr::tr("database error in %1 (%2): %3").arg(m_path, what, detail));
    }
}

StoreError Database::errorFrom(const QSqlQuery &query, const QString &what) const
{
    return errorFrom(query.lastError(), what);
}

// Classified by the SQLSTATE the server answered (QPSQL's native error code).
StoreError Database::serverErrorFrom(const QSqlError &error, const QString &what) const
{
    const QString detail = error.text().trimmed();
    const QString state = error.nativeErrorCode();
    if (state.startsWith("23"_L1))
        return StoreError::make(StoreError::Code::Constraint,
                                Tr::tr("%1 was refused by the database: %2").arg(what, detail));
    if (state == "40001"_L1 || state == "40P01"_L1 || state == "55P03"_L1)
        return StoreError::make(
            StoreError::Code::Locked,
            Tr::tr("the history on %1 is busy (%2): %3").arg(m_path, what, detail));
    if (state == "25006"_L1 || state == "42501"_L1)
        return StoreError::make(StoreError::Code::ReadOnly,
                                Tr::tr("the history on %1 is read-only for this user (%2): %3")
                                    .arg(m_path, what, detail));
    // A connection failure (08), the server shutting down (57P), or libpq's own words for no
    // server there or a connection gone (it gives no SQLSTATE for those): the server cannot be
    // reached now and may be back later (core/store/historyqueue.h). A refused password or an
    // unknown database is not that: it stays an error to act on.
    static const QLatin1StringView gone[] = {
        "no such file or directory"_L1,
        "connection refused"_L1,
        "could not connect"_L1,
        "timeout expired"_L1,
        "server closed the connection"_L1,
        "no connection to the server"_L1,
        "could not send data"_L1,
        "could not receive data"_L1,
        "connection reset"_L1,
        "network is unreachable"_L1,
        "no route to host"_L1,
        "could not translate host name"_L1,
        "eof detected"_L1,
        "terminating connection"_L1,
        "the database system is shutting down"_L1,
        "the database system is starting up"_L1,
    };
    const bool lost = state.isEmpty() && !detail.contains("certificate"_L1, Qt::CaseInsensitive)
        && std::any_of(std::begin(gone), std::end(gone), [&detail](QLatin1StringView words) {
                          return detail.contains(words, Qt::CaseInsensitive);
                      });
    if (lost || state.startsWith("08"_L1) || state.startsWith("57P"_L1))
        return StoreError::make(
            StoreError::Code::Unreachable,
            Tr::tr("cannot reach the history server %1 (%2): %3").arg(m_path, what, detail));
    if (state.isEmpty() || state.startsWith("28"_L1))
        return StoreError::make(
            StoreError::Code::Io,
            Tr::tr("cannot use the history server %1 (%2): %3").arg(m_path, what, detail));
    return StoreError::make(StoreError::Code::Sql,
                            Tr::tr("database error in %1 (%2): %3").arg(m_path, what, detail));
}

StoreResult<std::unique_ptr<Database>> Database::openServer(const QString &location,
                                                            const Options &options)
{
    std::unique_ptr<Database> database(new Database);
    database->m_dialect = &SqlDialect::postgres();
    const QUrl url(location, QUrl::StrictMode);
    database->m_path = url.isValid() ? url.toString(QUrl::RemovePassword) : location;
    const QString usage = u"postgresql://USER@HOST:PORT/DBNAME?sslmode=verify-full"_s;
    if (!url.isValid() || url.path().size() < 2)
        return StoreError::make(
            StoreError::Code::InvalidInput,
            Tr::tr("%1 is not a PostgreSQL history URL (%2)").arg(database->m_path, usage));
    if (!url.password().isEmpty())
        return StoreError::make(
            StoreError::Code::InvalidInput,
            Tr::tr("%1: a password does not belong in the history URL (it would show in the "
                   "process list and the settings); keep it in the keychain or in PGPASSFILE")
                .arg(database->m_path));
    if (!QSqlDatabase::isDriverAvailable(kServerDriver))
        return StoreError::make(StoreError::Code::Io,
                                Tr::tr("cannot open %1: Qt's PostgreSQL driver (QPSQL, Debian "
                                       "package libqt6sql6-psql) is not installed")
                                    .arg(database->m_path));
    QString host = url.host();
    QStringList connectOptions;
    const QUrlQuery query(url);
    for (const auto &[key, value] : query.queryItems(QUrl::FullyDecoded)) {
        if (key == "host"_L1) {
            host = value; // a socket folder, as libpq takes it
            continue;
        }
        if (std::find(kServerParameters.begin(), kServerParameters.end(), key)
            == kServerParameters.end())
            return StoreError::make(StoreError::Code::InvalidInput,
                                    Tr::tr("%1: unknown parameter %2 (the URL takes host, "
                                           "sslmode, sslrootcert, sslcert, sslkey, sslcrl, "
                                           "connect_timeout, application_name)")
                                        .arg(database->m_path, key));
        connectOptions.append(key + u'=' + value);
    }

    database->m_connectionName = nextConnectionName();
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(kServerDriver, database->m_connectionName);
        db.setHostName(host);
        if (url.port() > 0)
            db.setPort(url.port());
        db.setUserName(url.userName());
        db.setDatabaseName(url.path().mid(1));
        const QString password =
            options.password.isEmpty() ? serverPassword(location) : options.password;
        if (!password.isEmpty())
            db.setPassword(password);
        db.setConnectOptions(connectOptions.join(u';'));
        if (!db.open())
            return database->errorFrom(db.lastError(), Tr::tr("connecting"));
    }
    if (StoreError error = database->migrateServer(options); error)
        return error;
    database->m_searchMode = SearchMode::TextSearch;
    {
        QSqlQuery query(database->connection());
        if (!query.exec(kServerCurrentUser) || !query.next())
            return database->errorFrom(query, Tr::tr("reading the role's privileges"));
        database->m_serverUser = query.value(0).toString();
        if (database->m_version == 0) {
            // Only inspectOnly leaves a database without tables: may this role make them?
            if (!query.exec(kServerCanCreate) || !query.next())
                return database->errorFrom(query, Tr::tr("reading the role's privileges"));
            database->m_canCreateSchema = query.value(0).toBool();
            database->m_canWrite = database->m_canCreateSchema;
        } else {
            if (!query.exec(database->dialect().canInsertCalls()) || !query.next())
                return database->errorFrom(query, Tr::tr("reading the role's privileges"));
            database->m_canWrite = query.value(0).toBool();
        }
    }
    if (options.inspectOnly)
        return database;
    // Like a file this process may not write: refused before any call is paid for.
    if (!database->m_canWrite && options.mustWrite && !options.readOnly)
        return StoreError::make(StoreError::Code::ReadOnly,
                                Tr::tr("the history on %1 is read-only for the role %2: calls "
                                       "could not be stored, so none is run. Browsing it "
                                       "(history, show, export) works; running calls needs a "
                                       "role that may write.")
                                    .arg(database->m_path, url.userName()));
    return database;
}

StoreError Database::migrateServer(const Options &options)
{
    const int target = options.targetVersion > 0 ? options.targetVersion : Schema::latestVersion();
    auto readVersion = [this](QSqlQuery &query) -> StoreError {
        if (!query.exec(kServerFindVersionTable) || !query.next())
            return errorFrom(query, Tr::tr("reading the schema version"));
        m_version = 0;
        if (query.value(0).toBool()) {
            if (!query.exec(kServerReadVersion) || !query.next())
                return errorFrom(query, Tr::tr("reading the schema version"));
            m_version = query.value(0).toInt();
        }
        query.finish();
        if (m_version > Schema::latestVersion())
            return StoreError::make(StoreError::Code::NewerVersion,
                                    Tr::tr("the history on %1 has schema version %2, made by "
                                           "a newer Callscope; this version reads up to %3. "
                                           "It was left untouched: use the newer Callscope.")
                                        .arg(m_path)
                                        .arg(m_version)
                                        .arg(Schema::latestVersion()));
        return {};
    };
    {
        // The common case, an up-to-date schema, needs no write (a reader role may browse).
        QSqlQuery query(connection());
        if (StoreError error = readVersion(query); error)
            return error;
        if (m_version >= target || options.inspectOnly)
            return {};
    }
    Transaction transaction(*this);
    if (transaction.beginError())
        return transaction.beginError();
    QSqlQuery query(connection());
    for (QLatin1StringView statement : { kServerMigrationLock, kServerCreateVersionTable }) {
        if (!query.exec(statement))
            return errorFrom(query, Tr::tr("migrating the schema"));
    }
    // Read again under the lock: another process may have migrated since we looked.
    if (StoreError error = readVersion(query); error)
        return error;
    const int from = m_version;
    for (const Schema::MigrationStep &step : Schema::migrations()) {
        if (step.version <= from || step.version > target)
            continue;
        qCInfo(lcStore) << "migrating" << m_path << "to schema version" << step.version;
        for (QLatin1StringView statement : step.statements) {
            if (!query.exec(dialect().schemaStatement(statement)))
                return errorFrom(query, Tr::tr("migrating to schema version %1").arg(step.version));
        }
        if (step.extra) {
            if (StoreError error = step.extra(*this, options.forceSearchFallback); error)
                return error;
        }
        m_version = step.version;
    }
    if (!query.exec(kServerClearVersion))
        return errorFrom(query, Tr::tr("migrating the schema"));
    query.prepare(kServerSetVersion);
    query.addBindValue(m_version);
    if (!query.exec())
        return errorFrom(query, Tr::tr("migrating the schema"));
    return transaction.commit();
}

StoreResult<std::unique_ptr<Database>> Database::open(const QString &path, const Options &options)
{
    if (isServerLocation(path))
        return openServer(path, options);
    std::unique_ptr<Database> database(new Database);
    database->m_path = path;
    if (path.isEmpty())
        return StoreError::make(StoreError::Code::Io, Tr::tr("no database path given"));

    const QFileInfo info(path);
    if (info.exists()) {
        if (!info.isFile())
            return StoreError::make(StoreError::Code::Io, Tr::tr("%1 is not a file").arg(path));
        // The file is never opened outside SQLite. POSIX locks belong to the process: closing
        // any descriptor of the file (a QFile reading its header, say) would silently drop the
        // locks of every connection this process already has on it, and another process
        // would then take itself for the last user and checkpoint and delete the WAL under
        // us. SQLite shares one descriptor per file between a process's connections and
        // keeps it until the last lock is gone, so checks go through a read-only connection.
        const bool empty = info.size() == 0;

        // Read the version through a read-only connection: a read-write one could change the
        // file on close (WAL checkpoint) even when we then refuse it. An empty file is a new
        // database to SQLite, and that is fine.
        if (!empty) {
            const QString name = nextConnectionName();
            ConnectionGuard guard(name);
            StoreError error;
            int version = 0;
            {
                QSqlDatabase db = QSqlDatabase::addDatabase(kDriver, name);
                db.setDatabaseName(path);
                db.setConnectOptions(
                    u"QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=%1"_s.arg(options.busyTimeoutMs));
                if (!db.open()) {
                    error = database->errorFrom(db.lastError(), Tr::tr("opening read-only"));
                } else {
                    watchStatements(db);
                    QSqlQuery query(db);
                    if (!query.exec(kReadUserVersion) || !query.next())
                        error = database->errorFrom(query, Tr::tr("reading the schema version"));
                    else
                        version = query.value(0).toInt();
                }
                db.close();
            }
            if (error.code == StoreError::Code::NotADatabase)
                return StoreError::make(StoreError::Code::NotADatabase,
                                        Tr::tr("%1 is not a Callscope database (it is not an "
                                               "SQLite file); it was left untouched")
                                            .arg(path));
            if (error) {
                error.message += u' ' + Tr::tr("(the file was left untouched)");
                return error;
            }
            if (version > Schema::latestVersion())
                return StoreError::make(
                    StoreError::Code::NewerVersion,
                    Tr::tr("database %1 has schema version %2, made by a newer Callscope; "
                           "this version reads up to %3. It was left untouched: use the newer "
                           "Callscope or another --db.")
                        .arg(path)
                        .arg(version)
                        .arg(Schema::latestVersion()));
        }
        // SQLite opens a file it may not write read-only without a word, and the first
        // write would fail only after the call had been paid for: refuse it now.
        if (options.mustWrite && !info.isWritable())
            return StoreError::make(StoreError::Code::Io,
                                    Tr::tr("database %1 is read-only: calls could not be "
                                           "stored. Make the file writable or use another "
                                           "--db.")
                                        .arg(path));
    } else if (options.readOnly) {
        return StoreError::make(StoreError::Code::Io,
                                Tr::tr("database %1 does not exist").arg(path));
    } else if (!QDir().mkpath(info.absolutePath())) {
        return StoreError::make(StoreError::Code::Io,
                                Tr::tr("cannot create the folder %1").arg(info.absolutePath()));
    }

    database->m_connectionName = nextConnectionName();
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(kDriver, database->m_connectionName);
        db.setDatabaseName(path);
        database->m_readOnly = options.readOnly;
        db.setConnectOptions((options.readOnly ? u"QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=%1"_s
                                               : u"QSQLITE_BUSY_TIMEOUT=%1"_s)
                                 .arg(options.busyTimeoutMs));
        if (!db.open())
            return database->errorFrom(db.lastError(), Tr::tr("opening"));
        watchStatements(db);
        database->m_monitorKey = monitorKey(path);
        DatabaseMonitor::instance()->add(database->m_monitorKey, options.readOnly);
        QSqlQuery query(db);
        // A reader leaves the journal mode to the writers that set it.
        for (QLatin1StringView pragma :
             { kSetJournalWal, kSetForeignKeys, kSetSynchronous, kSetCacheSize }) {
            if (options.readOnly && pragma == kSetJournalWal)
                continue;
            // Switching a new file to WAL takes an exclusive lock without SQLite's busy
            // handler: two processes making the same new history at once (the local queue of
            // a shared one) see "locked" until the first has switched. Retried as long as a
            // statement would wait.
            QElapsedTimer waited;
            waited.start();
            int pause = 5;
            while (!query.exec(pragma)) {
                StoreError error = database->errorFrom(query, Tr::tr("setting up the connection"));
                if (error.code != StoreError::Code::Locked
                    || waited.elapsed() > options.busyTimeoutMs)
                    return error;
                QThread::msleep(pause);
                pause = std::min(pause * 2, 200);
            }
        }
    }
    if (StoreError error = database->migrate(options); error)
        return error;
    if (StoreError error = database->detectSearchMode(); error)
        return error;
    return database;
}

StoreError Database::migrate(const Options &options)
{
    const int target = options.targetVersion > 0 ? options.targetVersion : Schema::latestVersion();
    {
        // The common case, an up-to-date database, takes no write lock (a batch may be
        // writing while `history` opens the database).
        QSqlQuery query(connection());
        if (!query.exec(kReadUserVersion) || !query.next())
            return errorFrom(query, Tr::tr("reading the schema version"));
        m_version = query.value(0).toInt();
        if (m_version > Schema::latestVersion())
            return StoreError::make(StoreError::Code::NewerVersion,
                                    Tr::tr("database %1 has schema version %2, made by a newer "
                                           "Callscope")
                                        .arg(m_path)
                                        .arg(m_version));
        if (m_version >= target)
            return {};
        if (options.readOnly)
            return StoreError::make(StoreError::Code::Io,
                                    Tr::tr("database %1 has schema version %2 and needs "
                                           "version %3: a reader cannot migrate it")
                                        .arg(m_path)
                                        .arg(m_version)
                                        .arg(target));
    }
    // A history made by an older Callscope is copied aside before its layout changes (a
    // new, empty file has nothing to keep).
    if (m_version > 0) {
        auto backup = HistoryRescue::backup(*this, HistoryRescue::BackupReason::BeforeMigration);
        if (!backup)
            return StoreError::make(backup.error().code,
                                    Tr::tr("database %1 was not migrated, because it could not "
                                           "be backed up first: %2")
                                        .arg(m_path, backup.error().message));
    }
    for (const Schema::MigrationStep &step : Schema::migrations()) {
        if (step.version > target)
            break;
        if (step.version <= m_version)
            continue;
        // A step that remakes a table runs with foreign keys off (dropping the old table would
        // cascade into its children otherwise); the pragma only takes effect outside a
        // transaction, and they are on again whatever the step's outcome.
        std::optional<QScopeGuard<std::function<void()>>> keysBackOn;
        if (step.rebuildsTables) {
            QSqlQuery pragma(connection());
            if (!pragma.exec(u"PRAGMA foreign_keys = OFF"_s))
                return errorFrom(pragma,
                                 Tr::tr("migrating to schema version %1").arg(step.version));
            keysBackOn.emplace(std::function<void()>([this] {
                QSqlQuery on(connection());
                if (!on.exec(kSetForeignKeys))
                    qCWarning(lcStore)
                        << "could not turn foreign keys on again:" << on.lastError().text();
            }));
        }
        Transaction transaction(*this);
        if (transaction.beginError())
            return transaction.beginError();
        // Read the version inside the write transaction: another process may have migrated
        // since we looked.
        QSqlQuery query(connection());
        if (!query.exec(kReadUserVersion) || !query.next())
            return errorFrom(query, Tr::tr("reading the schema version"));
        m_version = query.value(0).toInt();
        query.finish();
        if (m_version > Schema::latestVersion())
            return StoreError::make(StoreError::Code::NewerVersion,
                                    Tr::tr("database %1 has schema version %2, made by a newer "
                                           "Callscope")
                                        .arg(m_path)
                                        .arg(m_version));
        if (m_version >= step.version)
            continue;
        qCInfo(lcStore) << "migrating" << m_path << "to schema version" << step.version;
        for (QLatin1StringView statement : step.statements) {
            if (!query.exec(statement))
                return errorFrom(query, Tr::tr("migrating to schema version %1").arg(step.version));
        }
        if (step.extra) {
            if (StoreError error = step.extra(*this, options.forceSearchFallback); error)
                return error;
        }
        if (step.rebuildsTables) {
            // Nothing may point nowhere after the table was remade.
            if (!query.exec(u"PRAGMA foreign_key_check"_s))
                return errorFrom(query, Tr::tr("migrating to schema version %1").arg(step.version));
            if (query.next())
                return StoreError::make(
                    StoreError::Code::Corrupt,
                    Tr::tr("database %1 was not migrated to schema version %2: table %3 row %4 "
                           "refers to a row that does not exist")
                        .arg(m_path)
                        .arg(step.version)
                        .arg(query.value(0).toString(), query.value(1).toString()));
            query.finish();
        }
        if (!query.exec(QString(kSetUserVersion).arg(step.version)))
            return errorFrom(query, Tr::tr("migrating to schema version %1").arg(step.version));
        if (StoreError error = transaction.commit(); error)
            return error;
        m_version = step.version;
    }
    return {};
}

StoreError Database::detectSearchMode()
{
    m_searchMode = SearchMode::None;
    QSqlQuery query(connection());
    for (auto [table, mode] : { std::pair { Schema::kFtsTable, SearchMode::Fts5 },
                                std::pair { Schema::kLikeTable, SearchMode::LikeFallback } }) {
        query.prepare(kFindTable);
        query.addBindValue(QString(table));
        if (!query.exec())
            return errorFrom(query, Tr::tr("reading the schema"));
        if (query.next()) {
            m_searchMode = mode;
            break;
        }
    }
    return {};
}

StoreError Database::begin()
{
    QSqlQuery query(connection());
    if (!query.exec(dialect().beginWrite()))
        return errorFrom(query, Tr::tr("starting a transaction"));
    return {};
}

StoreError Database::commit()
{
    QSqlQuery query(connection());
    if (!query.exec(kCommit))
        return errorFrom(query, Tr::tr("committing"));
    return {};
}

void Database::rollback()
{
    QSqlQuery query(connection());
    if (!query.exec(kRollback))
        qCWarning(lcStore) << "rollback failed:" << query.lastError().text();
}

Transaction::Transaction(Database &database)
    : m_database(database)
{
    m_beginError = m_database.begin();
    m_open = !m_beginError;
}

Transaction::~Transaction()
{
    if (m_open)
        m_database.rollback();
}

StoreError Transaction::commit()
{
    if (!m_open)
        return m_beginError
            ? m_beginError
            : StoreError::make(StoreError::Code::Sql, Tr::tr("no open transaction"));
    StoreError error = m_database.commit();
    if (!error)
        m_open = false;
    return error;
}

} // namespace Callscope
