#include "core/store/responsecachestore.h"

#include "core/store/database.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonDocument>
#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

constexpr auto kFind =
    "SELECT reply FROM response_cache WHERE key = ? AND engine_type = ? AND base_url = ?"_L1;
constexpr auto kSave =
    R"(INSERT INTO response_cache (key, engine_type, base_url, model, reply, bytes, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT(key) DO UPDATE SET engine_type = excluded.engine_type, base_url = excluded.base_url,
    model = excluded.model, reply = excluded.reply, bytes = excluded.bytes, created_at = excluded.created_at)"_L1;
// The newest rows whose sizes add up to the bound stay; the rest (the oldest) go.
constexpr auto kTrim = R"(DELETE FROM response_cache WHERE key IN (
    SELECT key FROM (SELECT key, SUM(bytes) OVER (ORDER BY created_at DESC, %1 DESC) AS total FROM response_cache) AS sized
    WHERE total > ?))"_L1;
constexpr auto kCount = "SELECT COUNT(*) FROM response_cache"_L1;
constexpr auto kClear = "DELETE FROM response_cache"_L1;

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(ResponseCacheStore)
};

} // namespace

ResponseCacheStore::ResponseCacheStore(Database &database)
    : m_database(database)
{ }

StoreResult<std::optional<QJsonObject>>
ResponseCacheStore::find(const QByteArray &key, const QString &engineType, const QString &baseUrl)
{
    QSqlQuery query(m_database.connection());
    query.setForwardOnly(true);
    query.prepare(kFind);
    query.addBindValue(QString::fromLatin1(key));
    query.addBindValue(engineType);
    query.addBindValue(baseUrl);
    if (!query.exec())
        return m_database.errorFrom(query, Tr::tr("reading the response cache"));
    if (!query.next())
        return std::optional<QJsonObject>();
    return std::optional<QJsonObject>(
        QJsonDocument::fromJson(query.value(0).toString().toUtf8()).object());
}

StoreResult<qint64> ResponseCacheStore::save(const CachedResponse &entry, qint64 maxBytes)
{
    Transaction transaction(m_database);
    if (transaction.beginError())
        return transaction.beginError();
    const QByteArray reply = QJsonDocument(entry.reply).toJson(QJsonDocument::Compact);
    QSqlQuery insert(m_database.connection());
    insert.prepare(kSave);
    insert.addBindValue(QString::fromLatin1(entry.key));
    insert.addBindValue(entry.engineType);
    insert.addBindValue(entry.baseUrl);
    insert.addBindValue(entry.model);
    insert.addBindValue(QString::fromUtf8(reply));
    insert.addBindValue(qint64(reply.size()));
    insert.addBindValue(QDateTime::currentMSecsSinceEpoch());
    if (!insert.exec())
        return m_database.errorFrom(insert, Tr::tr("storing a reply in the response cache"));
    QSqlQuery trim(m_database.connection());
    trim.prepare(QString(kTrim).arg(m_database.dialect().rowOrder()));
    trim.addBindValue(maxBytes);
    if (!trim.exec())
        return m_database.errorFrom(trim, Tr::tr("trimming the response cache"));
    const qint64 dropped = trim.numRowsAffected();
    if (StoreError error = transaction.commit(); error)
        return error;
    return dropped;
}

StoreResult<qint64> ResponseCacheStore::count()
{
    QSqlQuery query(m_database.connection());
    if (!query.exec(kCount) || !query.next())
        return m_database.errorFrom(query, Tr::tr("reading the response cache"));
    return query.value(0).toLongLong();
}

StoreResult<qint64> ResponseCacheStore::clear()
{
    QSqlQuery query(m_database.connection());
    if (!query.exec(kClear))
        return m_database.errorFrom(query, Tr::tr("clearing the response cache"));
    return qint64(query.numRowsAffected());
}

} // namespace Callscope
