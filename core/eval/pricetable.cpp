#include "core/eval/pricetable.h"

#include "core/model/boundedread.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>

using namespace Qt::StringLiterals;

// The resource file's initialiser lives in the global namespace.
static void initPriceResources()
{
    Q_INIT_RESOURCE(resources);
}

namespace Callscope {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(PriceTable)
};

} // namespace

bool PriceTable::load(const QByteArray &json, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        if (error)
            *error = Tr::tr("not a JSON object: %1").arg(parseError.errorString());
        return false;
    }
    const QJsonObject root = doc.object();
    if (root.value(u"format"_s).toString() != u"callscope-prices"_s) {
        if (error)
            *error = Tr::tr("\"format\" must be \"callscope-prices\"");
        return false;
    }
    m_asOf = root.value(u"as_of"_s).toString();
    const QJsonObject models = root.value(u"models"_s).toObject();
    for (auto it = models.begin(); it != models.end(); ++it) {
        const QJsonObject p = it.value().toObject();
        if (!p.value(u"input"_s).isDouble() || !p.value(u"output"_s).isDouble()) {
            if (error)
                *error = Tr::tr("/models/%1 needs numbers \"input\" and \"output\"").arg(it.key());
            return false;
        }
        ModelPrice price;
        price.input = p.value(u"input"_s).toDouble();
        price.output = p.value(u"output"_s).toDouble();
        price.cachedInput = p.value(u"cached_input"_s).toDouble(price.input);
        // A provider that charges nothing extra for writing its cache bills them as input.
        price.cacheWrite = p.value(u"cache_write"_s).toDouble(price.input);
        price.cacheWrite1h = p.value(u"cache_write_1h"_s).toDouble(price.cacheWrite);
        price.cacheStoragePerHour = p.value(u"cache_storage_per_hour"_s).toDouble(0);
        price.batchInput = p.value(u"batch_input"_s).toDouble(price.input / 2);
        price.batchOutput = p.value(u"batch_output"_s).toDouble(price.output / 2);
        m_models.insert(it.key(), price);
    }
    return true;
}

PriceTable PriceTable::shipped()
{
    initPriceResources();
    PriceTable table;
    QFile file(u":/callscope/prices/prices.json"_s);
    if (file.open(QIODevice::ReadOnly))
        table.load(file.readAll(), nullptr);
    table.m_source = Tr::tr("the table shipped with Callscope");
    return table;
}

std::optional<PriceTable> PriceTable::fromFile(const QString &path, QString *error)
{
    QString readError;
    const std::optional<QByteArray> data = readFileBounded(path, MaxSpecFileBytes, &readError);
    if (!data) {
        if (error)
            *error = readError;
        return std::nullopt;
    }
    PriceTable table;
    QString why;
    if (!table.load(*data, &why)) {
        if (error)
            *error = Tr::tr("%1: %2").arg(path, why);
        return std::nullopt;
    }
    table.m_source = path;
    return table;
}

PriceTable PriceTable::fromSettings()
{
    const QString path = QSettings().value(u"prices/file"_s).toString();
    if (!path.isEmpty()) {
        if (auto table = fromFile(path))
            return *table;
    }
    return shipped();
}

std::optional<ModelPrice> PriceTable::price(const QString &model) const
{
    if (const auto it = m_models.constFind(model); it != m_models.cend())
        return it.value();
    QString best;
    for (auto it = m_models.cbegin(); it != m_models.cend(); ++it) {
        if (model.startsWith(it.key()) && it.key().size() > best.size())
            best = it.key();
    }
    if (best.isEmpty())
        return std::nullopt;
    return m_models.value(best);
}

std::optional<double> PriceTable::cost(const QString &model, const Usage &usage, bool batch) const
{
    const auto p = price(model);
    if (!p)
        return std::nullopt;
    const double in = batch ? p->batchInput : p->input;
    const double out = batch ? p->batchOutput : p->output;
    const double scale = (batch && p->input > 0) ? p->batchInput / p->input : 1.0;
    const double usd = double(usage.inputTokens) * in
        + double(usage.cacheReadTokens) * p->cachedInput * scale
        + double(usage.cacheWrite5mTokens()) * p->cacheWrite * scale
        + double(usage.cacheWrite1hTokens) * p->cacheWrite1h * scale
        + double(usage.outputTokens) * out;
    return usd / 1e6;
}

std::optional<double> PriceTable::uncachedCost(const QString &model, const Usage &usage,
                                               bool batch) const
{
    const auto p = price(model);
    if (!p)
        return std::nullopt;
    const double in = batch ? p->batchInput : p->input;
    const double out = batch ? p->batchOutput : p->output;
    return (double(usage.promptTokens()) * in + double(usage.outputTokens) * out) / 1e6;
}

std::optional<double> PriceTable::storageCost(const QString &model, qint64 tokens,
                                              double seconds) const
{
    const auto p = price(model);
    if (!p)
        return std::nullopt;
    return double(tokens) * p->cacheStoragePerHour * (seconds / 3600.0) / 1e6;
}

QJsonObject PriceTable::costJson(const CallRecord &record) const
{
    if (record.engineType == u"replay"_s)
        return { { u"cost_usd"_s, 0.0 }, { u"cost_uncached_usd"_s, 0.0 } };
    const bool batch = record.metadata.value(u"via"_s).toString() == u"batch"_s;
    const QString model = record.model.isEmpty()
        ? record.spec.value(u"engine"_s).toObject().value(u"model"_s).toString()
        : record.model;
    auto value = [](const std::optional<double> &usd) {
        return usd ? QJsonValue(*usd) : QJsonValue(QJsonValue::Null);
    };
    return { { u"cost_usd"_s, value(cost(model, record.usage, batch)) },
             { u"cost_uncached_usd"_s, value(uncachedCost(model, record.usage, batch)) } };
}

} // namespace Callscope
