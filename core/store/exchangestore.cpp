#include "core/store/exchangestore.h"

#include "core/store/database.h"

#include <QCoreApplication>
#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace Callscope::ExchangeStore {

namespace {

constexpr auto kDelete = "DELETE FROM call_exchanges WHERE call_id = ?"_L1;
constexpr auto kInsert = R"(INSERT INTO call_exchanges (call_id, seq, turn_index, attempt_index,
    http_status, replayed, request_bytes, response_bytes, request, response)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?))"_L1;
constexpr auto kSelect = R"(SELECT turn_index, attempt_index, http_status, replayed, request_bytes,
    response_bytes, request, response FROM call_exchanges WHERE call_id = ? ORDER BY seq)"_L1;

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Store)
};

} // namespace

StoreError replace(Database &database, qint64 callId, const QList<TurnExchange> &exchanges)
{
    QSqlQuery remove(database.connection());
    remove.prepare(kDelete);
    remove.addBindValue(callId);
    if (!remove.exec())
        return database.errorFrom(remove, Tr::tr("storing the exchanges of call %1").arg(callId));
    if (exchanges.isEmpty())
        return {};
    QSqlQuery insert(database.connection());
    insert.prepare(kInsert);
    for (qsizetype i = 0; i < exchanges.size(); ++i) {
        const TurnExchange &e = exchanges.at(i);
        const QByteArray request = e.request.left(TurnExchange::kMaxRequestBytes);
        const QByteArray response = e.response.left(TurnExchange::kMaxResponseBytes);
        insert.bindValue(0, callId);
        insert.bindValue(1, qint64(i));
        insert.bindValue(2, e.turn);
        insert.bindValue(3, e.attempt);
        insert.bindValue(4, e.httpStatus);
        insert.bindValue(5, e.replayed ? 1 : 0);
        insert.bindValue(6, std::max<qint64>(e.requestBytes, e.request.size()));
        insert.bindValue(7, std::max<qint64>(e.responseBytes, e.response.size()));
        // Never NULL: an empty body is an empty blob.
        insert.bindValue(8, request.isNull() ? QByteArray(""_ba) : request);
        insert.bindValue(9, response.isNull() ? QByteArray(""_ba) : response);
        if (!insert.exec())
            return database.errorFrom(
                insert, Tr::tr("storing exchange %1 of call %2").arg(i + 1).arg(callId));
    }
    return {};
}

StoreResult<QList<TurnExchange>> read(Database &database, qint64 callId)
{
    QSqlQuery query(database.connection());
    query.setForwardOnly(true);
    query.prepare(kSelect);
    query.addBindValue(callId);
    if (!query.exec())
        return database.errorFrom(query, Tr::tr("reading the exchanges of call %1").arg(callId));
    QList<TurnExchange> exchanges;
    while (query.next()) {
        TurnExchange e;
        e.turn = query.value(0).toInt();
        e.attempt = query.value(1).toInt();
        e.httpStatus = query.value(2).toInt();
        e.replayed = query.value(3).toInt() != 0;
        e.requestBytes = query.value(4).toLongLong();
        e.responseBytes = query.value(5).toLongLong();
        e.request = query.value(6).toByteArray();
        e.response = query.value(7).toByteArray();
        exchanges.append(e);
    }
    return exchanges;
}

} // namespace Callscope::ExchangeStore
