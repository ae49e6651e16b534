#pragma once

// The Callscope history database: one connection, opened, checked and migrated. The history
// is a SQLite file on this computer (QSQLITE) or, for a team, a PostgreSQL server (QPSQL) named
// by a URL: postgresql://user@host:port/dbname?sslmode=verify-full. The SQL that differs
// between the two lives in SqlDialect (core/store/sqldialect.h).
//
// A Database is used from the thread that opened it. Each instance owns a connection with a
// unique name, so several can be open at once (the GUI and a test, two stores in one test).
// Opening never modifies a file it refuses: a file that is not an SQLite database, a
// database written by a newer Callscope, and a locked or corrupt database are reported with
// a clear message and left byte-for-byte as they were.

#include "core/store/sqldialect.h"
#include "core/store/storeerror.h"

#include <QLoggingCategory>
#include <QObject>
#include <QSqlDatabase>
#include <QString>
#include <QStringList>

#include <memory>

class QSqlError;
class QSqlQuery;
class QThread;

namespace Callscope {

Q_DECLARE_LOGGING_CATEGORY(lcStore)

// Where the GUI and `callscope-cli --db` keep the history by default:
// QStandardPaths::AppDataLocation/callscope.sqlite.
QString defaultDatabasePath();

// True for a history on a PostgreSQL server: a postgresql:// (or postgres://) URL.
bool isServerLocation(const QString &location);

// The server and database a postgresql:// URL names, as postgresql://USER@HOST:PORT/DBNAME
// (the host a `host` parameter gives, the default port 5432): what a password in the keychain
// is kept under. Empty for anything that is not a server URL.
QString historyServerKey(const QString &location);

// Where the files that sit beside a history (the recovery file, run locks) go: beside the file
// for a SQLite history; for a server, a path of this computer's own standing for that URL
// (AppDataLocation/servers/<hash>.history; the file itself is never made).
QString localPathFor(const QString &location);

// What every connection of this process to a history file shares: how many are open per
// file, and the news that SQLite found a file damaged (from any thread, any connection).
class DatabaseMonitor final : public QObject
{
    Q_OBJECT
public:
    static DatabaseMonitor *instance();

    // Open Database connections of this process on that file (the path is made canonical).
    int openConnections(const QString &path) const;
    // Read-write connections this process opened on that file so far, closed ones included
    // (every write is meant to go through the store writer's one connection).
    int writersOpened(const QString &path) const;

    // Called by Database; emits damageFound (queued to the monitor's thread).
    void reportDamage(const QString &path, const QString &message);
    // Every file SQLite called damaged in this process so far.
    QStringList damagedPaths() const;
    // After a way back was taken: the file at `path` is a new one.
    void clearDamage(const QString &path);

Q_SIGNALS:
    void damageFound(const QString &path, const QString &message);

private:
    friend class Database;
    DatabaseMonitor() = default;
    void add(const QString &key, bool readOnly);
    void remove(const QString &key);
};

class Database
{
public:
    struct Options
    {
        // How long a statement waits for another process's write lock before it reports
        // Locked. Longer than an ordinary writer holds it; the store writer retries beyond.
        int busyTimeoutMs = 15000;
        // Stop migrating at this version (0 = the latest). Tests use it to build old layouts.
        int targetVersion = 0;
        // Use the LIKE-based search table even when SQLite has FTS5 (tests the fallback).
        bool forceSearchFallback = false;
        // Refuse a file this process may not write (SQLite would open it read-only and fail
        // at the first write). Readers that never write (show, history, export) turn it off.
        bool mustWrite = true;
        // A reader: the connection is opened with SQLITE_OPEN_READONLY, so any write on it
        // fails (SQLite's "readonly database", Code::Io) instead of bypassing the store
        // writer. The file must exist
        // at the latest schema version (nothing is created or migrated).
        bool readOnly = false;
        // The password of a PostgreSQL server, from the keychain; empty: libpq's own sources
        // (PGPASSWORD, PGPASSFILE, ~/.pgpass). Never part of the URL.
        QString password;
        // Only look (a settings page's Test): connect, read the schema version and the role's
        // privileges, and neither create nor migrate anything, even in an empty database.
        // Servers only.
        bool inspectOnly = false;
    };

    // How full-text search works in this database (decided by migration 2). TextSearch is
    // PostgreSQL's: a tsvector per call with a GIN index.
    enum class SearchMode { None, Fts5, LikeFallback, TextSearch };

    ~Database();
    Q_DISABLE_COPY_MOVE(Database)

    static StoreResult<std::unique_ptr<Database>> open(const QString &path, const Options &options);
    static StoreResult<std::unique_ptr<Database>> open(const QString &path)
    {
        return open(path, Options());
    }

    static int latestSchemaVersion();

    // The password of the server historyServerKey(location) names, for every connection this
    // process opens to it (the store writer's and readers' too) when Options::password is
    // empty. Kept in memory only; an empty password forgets it.
    static void setServerPassword(const QString &location, const QString &password);

    // A thread that must run no SQL (the studio's GUI thread: a query there, however short,
    // waits for the disk and for other processes' locks while the window cannot draw). Every
    // statement any SQLite connection of this process runs on that thread is counted and
    // logged with its text; Fatal aborts at the first one (tests that must not miss one).
    // Connections opened before the call are watched too. Off (the default) costs one
    // comparison per statement.
    enum class ThreadCheck { Off, Count, Fatal };
    static void setForbiddenThread(QThread *thread, ThreadCheck check = ThreadCheck::Count);
    // Statements run on the forbidden thread since it was set (or since the last reset).
    static int forbiddenThreadStatements();
    static void resetForbiddenThreadStatements();
    // The text of the last such statement (what a failing test prints).
    static QString lastForbiddenStatement();

    // The file, or the server's URL (which never holds a password).
    QString path() const { return m_path; }
    bool isReadOnly() const { return m_readOnly; }
    // False for a server's history that the role may read but not add calls to (a reader).
    bool canWrite() const { return m_canWrite; }
    // Opened with Options::inspectOnly on a database without Callscope's tables yet: whether
    // the role may create them (the first Callscope that opens it for writing does).
    bool canCreateSchema() const { return m_canCreateSchema; }
    // The server's user, as it named itself (current_user); empty for a file.
    QString serverUser() const { return m_serverUser; }
    const SqlDialect &dialect() const { return *m_dialect; }
    bool isServer() const { return m_dialect->isPostgres(); }
    int schemaVersion() const { return m_version; }
    SearchMode searchMode() const { return m_searchMode; }
    QSqlDatabase connection() const;

    // Write transactions take the write lock at once (BEGIN IMMEDIATE), so two writers never
    // deadlock upgrading a read lock. Prefer the Transaction guard below.
    StoreError begin();
    StoreError commit();
    void rollback();

    // A StoreError from a failed query or connection, classified by SQLite's result code.
    StoreError errorFrom(const QSqlError &error, const QString &what) const;
    StoreError errorFrom(const QSqlQuery &query, const QString &what) const;

private:
    Database() = default;
    static StoreResult<std::unique_ptr<Database>> openServer(const QString &url,
                                                             const Options &options);
    StoreError migrate(const Options &options);
    StoreError migrateServer(const Options &options);
    StoreError detectSearchMode();
    StoreError serverErrorFrom(const QSqlError &error, const QString &what) const;

    QString m_path;
    QString m_connectionName;
    QString m_monitorKey; // canonical path, registered with DatabaseMonitor while open
    int m_version = 0;
    SearchMode m_searchMode = SearchMode::None;
    bool m_readOnly = false;
    bool m_canWrite = true;
    bool m_canCreateSchema = false;
    QString m_serverUser;
    const SqlDialect *m_dialect = &SqlDialect::sqlite();
};

// Rolls back unless commit() succeeded.
class Transaction
{
public:
    explicit Transaction(Database &database);
    ~Transaction();
    Q_DISABLE_COPY_MOVE(Transaction)

    const StoreError &beginError() const { return m_beginError; }
    StoreError commit();

private:
    Database &m_database;
    StoreError m_beginError;
    bool m_open = false;
};

} // namespace Callscope
