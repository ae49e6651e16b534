#pragma once

// The response cache's rows (schema version 7): a model reply under the hash of the request
// that got it. The key is made by core/eval/responsecache.h; this only keeps and finds rows,
// and keeps the table under its size bound (the oldest rows go first).

#include "core/store/storeerror.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace Callscope {

class Database;

struct CachedResponse
{
    QByteArray key; // SHA-256 (hex) of what was asked
    QString engineType;
    QString baseUrl;
    QString model;
    QJsonObject reply; // ModelReply::toJson()
};

class ResponseCacheStore
{
public:
    explicit ResponseCacheStore(Database &database);

    // The reply kept under `key` for this engine type and base URL (both checked, so a hash
    // can never answer for another engine); nullopt when there is none.
    StoreResult<std::optional<QJsonObject>> find(const QByteArray &key, const QString &engineType,
                                                 const QString &baseUrl);
    // Keeps `entry` (replacing one with the same key), then drops the oldest rows until the
    // table holds at most `maxBytes` of replies. Returns how many rows were dropped.
    StoreResult<qint64> save(const CachedResponse &entry, qint64 maxBytes);
    StoreResult<qint64> count();
    StoreResult<qint64> clear();

private:
    Database &m_database;
};

} // namespace Callscope
