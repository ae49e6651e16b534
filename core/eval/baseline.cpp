#include "core/eval/baseline.h"

#include "core/eval/statistics.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonArray>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(ExperimentBaseline)
};

// One case in one variant of one run, as far as a comparison needs it.
struct CellState
{
    int runs = 0;
    int good = 0;
    bool passed = false;
    bool flaky = false;
    double cost = 0;
    bool priced = true;
    QList<qint64> latencies;
    QHash<QString, bool> assertions; // name -> passed in every run
    QStringList assertionOrder;

    void addAssertions(const QJsonArray &results)
    {
        for (const QJsonValue &a : results) {
            const QJsonObject result = a.toObject();
            const QString name = result.value(u"name"_s).toString();
            const bool ok = result.value(u"passed"_s).toBool();
            if (!assertions.contains(name)) {
                assertions.insert(name, ok);
                assertionOrder.append(name);
            } else if (!ok) {
                assertions[name] = false;
            }
        }
    }
};

qint64 median(QList<qint64> values)
{
    if (values.isEmpty())
        return 0;
    std::sort(values.begin(), values.end());
    return values.at((values.size() - 1) / 2);
}

QString cellKey(const QString &caseId, const QString &variant)
{
    return caseId + QChar(0x1f) + variant;
}

void appendOnce(QStringList &list, const QString &id)
{
    if (!list.contains(id))
        list.append(id);
}

} // namespace

QJsonObject BaselineComparison::toJson() const
{
    QJsonArray perVariant;
    for (const BaselineVariant &v : variants) {
        perVariant.append(QJsonObject {
            { u"variant"_s, v.variant },
            { u"baseline_variant"_s, v.baselineVariant },
            { u"cases"_s, v.cases },
            { u"regressions"_s, QJsonArray::fromStringList(v.regressions) },
            { u"fixes"_s, QJsonArray::fromStringList(v.fixes) },
            { u"newly_flaky"_s, QJsonArray::fromStringList(v.newlyFlaky) },
            { u"pass_rate_before"_s, v.passRateBefore },
            { u"pass_rate_now"_s, v.passRateNow },
            { u"p_value"_s, v.pValue },
            { u"significant"_s, v.significant },
            { u"cost_delta_usd"_s,
              v.costDeltaUsd ? QJsonValue(*v.costDeltaUsd) : QJsonValue(QJsonValue::Null) },
            { u"latency_p50_delta_ms"_s, v.latencyP50DeltaMs },
            { u"assertions"_s, v.assertions } });
    }
    return QJsonObject { { u"run"_s, run },
                         { u"regressions"_s, QJsonArray::fromStringList(regressions) },
                         { u"fixes"_s, QJsonArray::fromStringList(fixes) },
                         { u"newly_flaky"_s, QJsonArray::fromStringList(newlyFlaky) },
                         { u"critical_regressions"_s,
                           QJsonArray::fromStringList(criticalRegressions) },
                         { u"significant"_s, significant },
                         { u"variants"_s, perVariant } };
}

BaselineComparison compareWithBaseline(const QJsonObject &summary, qint64 baselineId,
                                       const QList<ExperimentRunRecord> &baseline,
                                       const QSet<QString> &criticalCases)
{
    BaselineComparison out;
    out.run = baselineId;

    QHash<QString, CellState> before;
    QStringList baselineVariants;
    for (const ExperimentRunRecord &run : baseline) {
        if (run.status == u"cancelled"_s)
            continue;
        if (!baselineVariants.contains(run.variant))
            baselineVariants.append(run.variant);
        CellState &cell = before[cellKey(run.caseId, run.variant)];
        ++cell.runs;
        cell.good += run.passed ? 1 : 0;
        if (run.costUsd)
            cell.cost += *run.costUsd;
        else
            cell.priced = false;
        cell.latencies.append(run.latencyMs);
        cell.addAssertions(run.assertions);
    }
    for (CellState &cell : before) {
        cell.passed = cell.runs > 0 && cell.good == cell.runs;
        cell.flaky = cell.good > 0 && cell.good < cell.runs;
    }

    QStringList currentVariants;
    for (const QJsonValue &v : summary.value(u"variants"_s).toArray())
        currentVariants.append(v.toObject().value(u"name"_s).toString());
    // A single variant on each side is the same variant, renamed or not.
    const bool onlyOne = currentVariants.size() == 1 && baselineVariants.size() == 1;

    for (const QString &variant : std::as_const(currentVariants)) {
        const QString matched = onlyOne ? baselineVariants.first() : variant;
        if (!baselineVariants.contains(matched))
            continue;
        BaselineVariant result;
        result.variant = variant;
        result.baselineVariant = matched;
        int passedBefore = 0;
        int passedNow = 0;
        double costBefore = 0;
        double costNow = 0;
        bool priced = true;
        QList<qint64> latenciesBefore;
        QList<qint64> latenciesNow;
        QHash<QString, QPair<int, int>> byAssertion; // name -> (regressions, fixes)
        QStringList assertionOrder;
        for (const QJsonValue &c : summary.value(u"cells"_s).toArray()) {
            const QJsonObject cellJson = c.toObject();
            if (cellJson.value(u"variant"_s).toString() != variant)
                continue;
            const QString caseId = cellJson.value(u"case"_s).toString();
            const auto old = before.constFind(cellKey(caseId, matched));
            const QJsonArray runs = cellJson.value(u"runs"_s).toArray();
            if (old == before.cend() || runs.isEmpty())
                continue;
            CellState now;
            now.runs = int(runs.size());
            now.passed = cellJson.value(u"passed"_s).toBool();
            now.flaky = cellJson.value(u"flaky"_s).toBool();
            for (const QJsonValue &r : runs) {
                const QJsonObject run = r.toObject();
                if (run.value(u"cost_usd"_s).isDouble())
                    now.cost += run.value(u"cost_usd"_s).toDouble();
                else
                    now.priced = false;
                now.latencies.append(run.value(u"latency_ms"_s).toInteger());
                now.addAssertions(run.value(u"assertions"_s).toArray());
            }
            ++result.cases;
            passedBefore += old->passed ? 1 : 0;
            passedNow += now.passed ? 1 : 0;
            if (old->passed && !now.passed && !now.flaky)
                result.regressions.append(caseId);
            if (!old->passed && now.passed)
                result.fixes.append(caseId);
            if (!old->flaky && now.flaky)
                result.newlyFlaky.append(caseId);
            result.worse += old->passed && !now.passed ? 1 : 0;
            result.better += !old->passed && now.passed ? 1 : 0;
            costBefore += old->cost;
            costNow += now.cost;
            priced = priced && old->priced && now.priced;
            latenciesBefore += old->latencies;
            latenciesNow += now.latencies;
            for (const QString &name : std::as_const(now.assertionOrder)) {
                const auto was = old->assertions.constFind(name);
                if (was == old->assertions.cend())
                    continue;
                const bool is = now.assertions.value(name);
                if (was.value() == is)
                    continue;
                if (!byAssertion.contains(name))
                    assertionOrder.append(name);
                QPair<int, int> &counts = byAssertion[name];
                (was.value() ? counts.first : counts.second) += 1;
            }
        }
        if (result.cases == 0)
            continue;
        result.passRateBefore = double(passedBefore) / result.cases;
        result.passRateNow = double(passedNow) / result.cases;
        result.pValue = Stats::mcnemarExactP(result.worse, result.better);
        result.significant = result.worse > result.better && result.pValue < 0.05;
        if (priced)
            result.costDeltaUsd = costNow - costBefore;
        result.latencyP50DeltaMs = median(latenciesNow) - median(latenciesBefore);
        for (const QString &name : std::as_const(assertionOrder)) {
            const QPair<int, int> counts = byAssertion.value(name);
            result.assertions.append(QJsonObject { { u"name"_s, name },
                                                   { u"regressions"_s, counts.first },
                                                   { u"fixes"_s, counts.second } });
        }
        for (const QString &id : std::as_const(result.regressions)) {
            appendOnce(out.regressions, id);
            if (criticalCases.contains(id))
                appendOnce(out.criticalRegressions, id);
        }
        for (const QString &id : std::as_const(result.fixes))
            appendOnce(out.fixes, id);
        for (const QString &id : std::as_const(result.newlyFlaky))
            appendOnce(out.newlyFlaky, id);
        out.significant = out.significant || result.significant;
        out.variants.append(result);
    }
    return out;
}

std::optional<qint64> resolveBaseline(CallStore *store, const QString &spec,
                                      const QString &experimentName, qint64 currentId,
                                      QString *error)
{
    if (!store) {
        *error = Tr::tr("the history database is not open");
        return std::nullopt;
    }
    if (spec == u"latest"_s) {
        auto latest = store->latestExperimentNamed(experimentName, currentId);
        if (!latest) {
            *error = latest.error().message;
            return std::nullopt;
        }
        if (!latest.value()) {
            *error =
                Tr::tr("no earlier run of the experiment \"%1\" is stored").arg(experimentName);
            return std::nullopt;
        }
        return *latest.value();
    }
    bool ok = false;
    const qint64 id = spec.toLongLong(&ok);
    if (!ok || id <= 0) {
        *error = Tr::tr("\"%1\" is neither an experiment id nor \"latest\"").arg(spec);
        return std::nullopt;
    }
    auto stored = store->getExperiment(id);
    if (!stored) {
        *error = stored.error().message;
        return std::nullopt;
    }
    if (!stored.value()) {
        *error = Tr::tr("there is no stored experiment %1").arg(id);
        return std::nullopt;
    }
    return id;
}

} // namespace Callscope
