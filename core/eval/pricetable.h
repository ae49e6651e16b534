#pragma once

// Prices per model (USD per million tokens) and the cost of a call. The table ships as a
// resource with the date its prices are from; a user's own table (the same format) replaces
// it: the setting "prices/file", or setFile(). A model that is not in the table has no price:
// cost() says so (nullopt) rather than 0.

#include "core/model/callrecord.h"

#include <QHash>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace Callscope {

struct ModelPrice
{
    double input = 0; // per million input tokens (not cached)
    double output = 0;
    double cachedInput = 0; // per million tokens read from the prompt cache
    double cacheWrite = 0; // per million tokens written to the cache for 5 minutes
    double cacheWrite1h = 0; // per million tokens written to the cache for an hour
    double cacheStoragePerHour = 0; // per million tokens kept an hour in an explicit cache
    double batchInput = 0;
    double batchOutput = 0;
};

class PriceTable
{
public:
    // The shipped table, or the user's when the setting "prices/file" names a readable one.
    static PriceTable fromSettings();
    static PriceTable shipped();
    // A table from a file of the same format; `error` says what is wrong.
    static std::optional<PriceTable> fromFile(const QString &path, QString *error = nullptr);

    QString asOf() const { return m_asOf; }
    QString source() const { return m_source; }
    // Exact model name, else the longest listed prefix.
    std::optional<ModelPrice> price(const QString &model) const;
    // USD for a call's usage on `model`: uncached input, cache reads and cache writes each at
    // their own price (at batch prices the cache prices shrink by the same factor as input).
    std::optional<double> cost(const QString &model, const Usage &usage, bool batch = false) const;
    // What the same tokens would have cost with no prompt cache: every prompt token at the
    // input price.
    std::optional<double> uncachedCost(const QString &model, const Usage &usage,
                                       bool batch = false) const;
    // What keeping `tokens` in Gemini's explicit cache for `seconds` costs: tokens times hours
    // (by the second) at cache_storage_per_hour; nullopt when the model has no price.
    std::optional<double> storageCost(const QString &model, qint64 tokens, double seconds) const;
    // {"cost_usd", "cost_uncached_usd"} of a stored call, null where the model has no price. A
    // replayed call cost nothing; a call answered through a provider batch is at batch prices.
    QJsonObject costJson(const CallRecord &record) const;

private:
    bool load(const QByteArray &json, QString *error);

    QString m_asOf;
    QString m_source;
    QHash<QString, ModelPrice> m_models;
};

} // namespace Callscope
