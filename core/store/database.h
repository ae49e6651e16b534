#pragma once

// The Callscope history database: one QSQLITE connection, opened, checked and migrated.
//
// A Database is used from the thread that opened it. Each instance owns a connection with a
// unique name, so several can be open at once (the GUI and a test, two stores in one test).
// Opening never modifies a file it refuses: a file that is not an SQLite database, a
// database written by a newer Callscope, and a locked or corrupt database are reported with
// a clear message and left byte-for-byte as they were.

#include "core/store/storeerror.h"

#include <QLoggingCategory>
#include <QSqlDatabase>
#include <QString>

#include <memory>

class QSqlError;
class QSqlQuery;

namespace Callscope {

Q_DECLARE_LOGGING_CATEGORY(lcStore)

// Where the GUI and `callscope-cli --db` keep the history by default:
// QStandardPaths::AppDataLocation/callscope.sqlite.
QString defaultDatabasePath();

class Database
{
public:
    struct Options
    {
        int busyTimeoutMs = 5000;        // how long a write waits for another writer
        // Stop migrating at this version (0 = the latest). Tests use it to build old layouts.
        int targetVersion = 0;
        // Use the LIKE-based search table even when SQLite has FTS5 (tests the fallback).
        bool forceSearchFallback = false;
        // Refuse a file this process may not write (SQLite would open it read-only and fail
        // at the first write). Readers that never write (show, history, export) turn it off.
        bool mustWrite = true;
    };

    // How full-text search works in this database (decided by migration 2).
    enum class SearchMode { None, Fts5, LikeFallback };

    ~Database();
    Q_DISABLE_COPY_MOVE(Database)

    static StoreResult<std::unique_ptr<Database>> open(const QString &path, const Options &options);
    static StoreResult<std::unique_ptr<Database>> open(const QString &path)
    {
        return open(path, Options());
    }

    static int latestSchemaVersion();

    QString path() const { return m_path; }
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
    StoreError migrate(const Options &options);
    StoreError detectSearchMode();

    QString m_path;
    QString m_connectionName;
    int m_version = 0;
    SearchMode m_searchMode = SearchMode::None;
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
