#pragma once

// What the parts of CallStore (callstore_*.cpp, one per kind of thing stored) share: the
// conversions between stored columns and the model, and the light history columns.

#include "core/store/callstore.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QLatin1StringView>
#include <QString>
#include <QVariant>

#include <optional>

class QSqlQuery;

namespace Callscope::CallStoreDetail {

using namespace Qt::StringLiterals;

// History rows: the light columns only (they sit in the row's first page).
constexpr auto kHistoryColumns = R"(SELECT c.id, c.kind, c.status, c.engine_type, c.model,
    c.input_tokens, c.output_tokens, c.cached_tokens, c.reasoning_tokens, c.error_category,
    c.created_at, c.finished_at, c.parent_id, c.session_id, c.input_preview, c.turn_count,
    c.attempt_count, (SELECT count(*) FROM calls r WHERE r.parent_id = c.id), c.cache_write_tokens,
    c.cache_write_1h_tokens, c.person, c.machine)"_L1;
constexpr auto kHistoryFrom = " FROM calls c"_L1;

constexpr auto kSessionExists = "SELECT 1 FROM sessions WHERE id = ?"_L1;

// The translation context of the store's messages.
struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Store)
};

QVariant msOrNull(const QDateTime &time);
QDateTime timeFrom(const QVariant &value); // stored milliseconds (UTC); invalid for NULL
QVariant optionalValue(const std::optional<qint64> &value);
std::optional<qint64> optionalFrom(const QVariant &value);
QString compact(const QJsonObject &object);

// The large JSON columns are bound as UTF-8 bytes and cast to TEXT in the SQL: bound as a
// QString each would be copied to UTF-16 and back to UTF-8 on its way in (three copies of a
// 50 MB answer per column instead of one). Json::compact writes the same text as Qt's writer
// with no copy of a string but the output.
QByteArray compactUtf8(const QJsonObject &object);
QByteArray compactUtf8(const QJsonArray &array);
QVariant valueUtf8(const QJsonValue &value); // NULL for null/undefined

QJsonValue valueFrom(const QVariant &text);
QJsonObject objectFrom(const QVariant &text);
QJsonArray arrayFrom(const QVariant &text);
QVariant textOrNull(const QString &text);

// A row of kHistoryColumns.
HistoryRow historyRowFrom(const QSqlQuery &q);

} // namespace Callscope::CallStoreDetail
