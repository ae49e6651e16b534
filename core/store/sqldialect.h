#pragma once

// The SQL that differs between the two history backends, in one place per backend: SQLite
// (a file on this computer, QSQLITE) and PostgreSQL (a shared server, QPSQL). The store writes
// its statements once and asks the dialect for the pieces that differ: reading a field of a
// JSON column, comparing two values that may be NULL, getting the id of a new row, starting a
// write transaction, the column types of the schema, and the search index. Everything else
// (upsert with ON CONFLICT, row values, recursive CTEs, window functions) both speak alike.

#include <QLatin1StringView>
#include <QSqlQuery>
#include <QString>
#include <QVariant>

namespace Callscope {

class SqlDialect
{
public:
    enum class Backend { Sqlite, Postgres };

    static const SqlDialect &sqlite();
    static const SqlDialect &postgres();

    Backend backend() const { return m_backend; }
    bool isPostgres() const { return m_backend == Backend::Postgres; }

    // The text of `key` in the JSON object stored in the text column `column` (NULL when the
    // object has no such key). For a number, its decimal text on PostgreSQL, the number itself
    // on SQLite; compare it with jsonFieldEquals().
    QString jsonField(QStringView column, QStringView key) const;
    // "`key` of `column` = ?" for a bound number or text.
    QString jsonFieldEquals(QStringView column, QStringView key) const;
    // "a IS b": equal, or both NULL.
    QString sameOrBothNull(const QString &a, const QString &b) const;

    // An INSERT statement that gives the new row's id back to insertedId().
    QString insertReturningId(QLatin1StringView insert) const;
    // The id of the row the INSERT made (after a successful exec()).
    qint64 insertedId(QSqlQuery &query) const;

    // Starts a transaction that writes: SQLite takes the write lock at once; PostgreSQL's
    // rows are locked as they are written and readers are never blocked.
    QLatin1StringView beginWrite() const;

    // An SQL expression giving a new random UUID (version 4, lowercase text) for each row it
    // is evaluated for: PostgreSQL's gen_random_uuid(), SQLite's randomblob() shaped as one.
    QLatin1StringView newUuid() const;

    // Whether the connected role may add calls: PostgreSQL's table privilege (a reader role
    // may not); SQLite files are checked for write access by the Database itself.
    QLatin1StringView canInsertCalls() const;

    // The rows' physical order, to break ties in a window's ORDER BY: rowid / ctid.
    QLatin1StringView rowOrder() const;

    // A value bound to a text column: the large JSON columns are made as UTF-8 bytes; SQLite
    // casts them to TEXT in the statement, PostgreSQL takes them as text.
    QVariant textValue(const QVariant &value) const;

    // A CREATE TABLE / ALTER TABLE / UPDATE statement of the schema (written for SQLite) in
    // this dialect: SQLite's rowid keys become identity columns, INTEGER bigint, REAL double
    // precision, BLOB bytea, MAX(a, b) of two values GREATEST.
    QString schemaStatement(QLatin1StringView statement) const;

private:
    explicit SqlDialect(Backend backend)
        : m_backend(backend)
    { }
    Backend m_backend;
};

} // namespace Callscope
