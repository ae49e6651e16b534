#pragma once

// Running one SQL statement of the history: prepare, bind, execute, and a StoreError that says
// what was being done when it failed. The store's functions read as the statement and what to
// do with its rows, not as the same six lines around each.

#include "core/store/database.h"
#include "core/store/storeerror.h"

#include <QLatin1StringView>
#include <QSqlQuery>
#include <QString>
#include <QVariant>
#include <QVariantList>

#include <type_traits>

namespace Callscope {

// QSQLITE binds a null QString as SQL NULL; text columns want '' for "no text". SQL NULL is
// bound only through an invalid QVariant.
QVariant bindable(const QVariant &value);

// Binds `values` in order, each through bindable() and the dialect's textValue().
void bindAll(QSqlQuery &query, const QVariantList &values, const SqlDialect &dialect);

// A statement prepared once keeps its bound values until the next bind: let go of large
// values (a call's JSON) as soon as the statement ran.
void releaseValues(QSqlQuery &query);

namespace StoreQueryDetail {
// `what` is the translated activity ("reading call 7"), or something that makes it only when
// an error needs it (a lambda returning QString), for statements run once per row.
template<typename What> QString describe(What &&what)
{
    if constexpr (std::is_invocable_v<What>)
        return what();
    else
        return QString(what);
}
} // namespace StoreQueryDetail

// Prepares `sql` as a forward-only query on the database's connection, binds `values` as they
// are (a null QString stays SQL NULL) and executes it. The query comes back positioned before
// its first row.
template<typename What>
StoreResult<QSqlQuery> runQuery(Database &database, const QString &sql, const QVariantList &values,
                                What &&what)
{
    QSqlQuery query(database.connection());
    query.setForwardOnly(true);
    query.prepare(sql);
    for (qsizetype i = 0; i < values.size(); ++i)
        query.bindValue(int(i), values.at(i));
    if (!query.exec())
        return database.errorFrom(query, StoreQueryDetail::describe(std::forward<What>(what)));
    return StoreResult<QSqlQuery>(std::move(query));
}

template<typename What>
StoreResult<QSqlQuery> runQuery(Database &database, QLatin1StringView sql,
                                const QVariantList &values, What &&what)
{
    return runQuery(database, QString(sql), values, std::forward<What>(what));
}

// Runs a statement prepared once (CallStore::statement) with `values` bound through bindAll().
// For an INSERT prepared with SqlDialect::insertReturningId(), the new id is then
// database.dialect().insertedId(statement).
template<typename What>
StoreError runStatement(Database &database, QSqlQuery &statement, const QVariantList &values,
                        What &&what)
{
    bindAll(statement, values, database.dialect());
    if (!statement.exec())
        return database.errorFrom(statement, StoreQueryDetail::describe(std::forward<What>(what)));
    return {};
}

// Runs `work` (returning StoreResult<T>) in one write transaction: committed when it returns a
// value, rolled back when it returns an error.
template<typename T, typename Work> StoreResult<T> inTransaction(Database &database, Work &&work)
{
    Transaction transaction(database);
    if (transaction.beginError())
        return transaction.beginError();
    StoreResult<T> result = work();
    if (!result)
        return result;
    if (StoreError error = transaction.commit(); error)
        return error;
    return result;
}

} // namespace Callscope
