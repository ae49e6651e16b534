#include "core/eval/statistics.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QHash>
#include <QJsonArray>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace Callscope::Stats {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(ExperimentStatistics)
};

double logChoose(int n, int k)
{
    return std::lgamma(double(n) + 1) - std::lgamma(double(k) + 1) - std::lgamma(double(n - k) + 1);
}

double mean(const QList<double> &values)
{
    if (values.isEmpty())
        return 0;
    double sum = 0;
    for (double v : values)
        sum += v;
    return sum / double(values.size());
}

double stdDev(const QList<double> &values)
{
    if (values.size() < 2)
        return 0;
    const double m = mean(values);
    double sum = 0;
    for (double v : values)
        sum += (v - m) * (v - m);
    return std::sqrt(sum / double(values.size() - 1));
}

// Percentage points with one decimal ("6.5").
QString points(double fraction)
{
    return QString::number(fraction * 100, 'f', 1);
}

QString pText(double p)
{
    if (p < 0.001)
        return u"p < 0.001"_s;
    return u"p = "_s + QString::number(p, 'f', 3);
}

} // namespace

std::uint64_t Random::next()
{
    std::uint64_t z = (m_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

std::uint32_t Random::below(std::uint32_t n)
{
    // Lemire's multiply-shift: no modulo bias worth speaking of for n far below 2^32.
    return std::uint32_t((next() >> 32) * std::uint64_t(n) >> 32);
}

double Random::uniform()
{
    return double(next() >> 11) * (1.0 / 9007199254740992.0);
}

double mcnemarExactP(int onlyA, int onlyB)
{
    const int n = onlyA + onlyB;
    if (n <= 0)
        return 1;
    const int smaller = std::min(onlyA, onlyB);
    // P(X <= smaller) for X ~ Binomial(n, 1/2), summed in log space so n may be large.
    const double logHalfN = double(n) * std::log(0.5);
    double tail = 0;
    for (int i = 0; i <= smaller; ++i)
        tail += std::exp(logChoose(n, i) + logHalfN);
    return std::min(1.0, 2 * tail);
}

Interval bootstrapMeanInterval(const QList<double> &values, std::uint64_t seed, int resamples,
                               double level)
{
    if (values.isEmpty())
        return {};
    const auto n = std::uint32_t(values.size());
    Random random(seed);
    QList<double> means;
    means.reserve(resamples);
    for (int r = 0; r < resamples; ++r) {
        double sum = 0;
        for (std::uint32_t i = 0; i < n; ++i)
            sum += values.at(random.below(n));
        means.append(sum / double(n));
    }
    std::sort(means.begin(), means.end());
    const double tail = (1 - level) / 2;
    const auto at = [&means](double q) {
        const qsizetype i = std::clamp<qsizetype>(
            qsizetype(std::floor(q * double(means.size() - 1) + 0.5)), 0, means.size() - 1);
        return means.at(i);
    };
    return { at(tail), at(1 - tail) };
}

double signFlipP(const QList<double> &values, std::uint64_t seed, int iterations)
{
    QList<double> nonZero;
    for (double v : values) {
        if (std::abs(v) > 1e-12)
            nonZero.append(v);
    }
    if (nonZero.isEmpty())
        return 1;
    double observed = 0;
    for (double v : nonZero)
        observed += v;
    observed = std::abs(observed);
    // Float sums of the same numbers in another order differ in the last bits.
    const double tolerance = 1e-9 * double(nonZero.size());
    const int m = int(nonZero.size());
    if (m <= 16) {
        const std::uint32_t all = 1u << m;
        std::uint32_t extreme = 0;
        for (std::uint32_t signs = 0; signs < all; ++signs) {
            double sum = 0;
            for (int i = 0; i < m; ++i)
                sum += (signs >> i) & 1u ? -nonZero.at(i) : nonZero.at(i);
            extreme += std::abs(sum) >= observed - tolerance ? 1 : 0;
        }
        return double(extreme) / double(all);
    }
    Random random(seed);
    int extreme = 0;
    for (int it = 0; it < iterations; ++it) {
        double sum = 0;
        for (int i = 0; i < m; i += 64) {
            std::uint64_t bits = random.next();
            for (int j = i; j < std::min(m, i + 64); ++j, bits >>= 1)
                sum += bits & 1u ? -nonZero.at(j) : nonZero.at(j);
        }
        extreme += std::abs(sum) >= observed - tolerance ? 1 : 0;
    }
    // Counting the observed assignment itself keeps p above 0.
    return double(extreme + 1) / double(iterations + 1);
}

std::optional<double> cohensKappa(int yesYes, int yesNo, int noYes, int noNo)
{
    const double n = double(yesYes) + yesNo + noYes + noNo;
    if (n <= 0)
        return std::nullopt;
    const double observed = (yesYes + noNo) / n;
    const double firstYes = (yesYes + yesNo) / n;
    const double secondYes = (yesYes + noYes) / n;
    const double chance = firstYes * secondYes + (1 - firstYes) * (1 - secondYes);
    if (chance >= 1 - 1e-12)
        return std::nullopt;
    return (observed - chance) / (1 - chance);
}

double passAtK(int n, int c, int k)
{
    if (k <= 0 || n < k || c < 0 || c > n)
        return 0;
    if (n - c < k)
        return 1;
    return 1 - std::exp(logChoose(n - c, k) - logChoose(n, k));
}

double passHatK(int n, int c, int k)
{
    if (k <= 0 || n < k || c < 0 || c > n || c < k)
        return 0;
    return std::exp(logChoose(c, k) - logChoose(n, k));
}

double detectableDifference(int cases, double differenceStdDev)
{
    if (cases <= 0)
        return 1;
    // z for a two-sided 5% test plus z for 80% power.
    constexpr double z = 1.959964 + 0.841621;
    return std::min(1.0, z * differenceStdDev / std::sqrt(double(cases)));
}

PairedComparison comparePaired(const QString &nameA, const QHash<QString, CaseOutcome> &outcomesA,
                               const QString &nameB, const QHash<QString, CaseOutcome> &outcomesB,
                               std::uint64_t seed)
{
    PairedComparison c;
    c.a = nameA;
    c.b = nameB;
    // Sorted case ids: the resamples see the cases in one order, whatever the hash's.
    QStringList ids;
    for (auto it = outcomesA.cbegin(); it != outcomesA.cend(); ++it) {
        if (outcomesB.contains(it.key()))
            ids.append(it.key());
    }
    std::sort(ids.begin(), ids.end());
    QList<double> passDiffs;
    QList<double> scoreDiffs;
    int passedA = 0;
    int passedB = 0;
    for (const QString &id : std::as_const(ids)) {
        const CaseOutcome &a = outcomesA.value(id);
        const CaseOutcome &b = outcomesB.value(id);
        passDiffs.append(double(b.passed) - double(a.passed));
        scoreDiffs.append(b.score - a.score);
        passedA += a.passed ? 1 : 0;
        passedB += b.passed ? 1 : 0;
        c.onlyA += a.passed && !b.passed ? 1 : 0;
        c.onlyB += b.passed && !a.passed ? 1 : 0;
    }
    c.cases = int(ids.size());
    if (c.cases == 0) {
        c.sentence = Tr::tr("%1 and %2 have no case that both ran completely: nothing to compare.")
                         .arg(nameA, nameB);
        return c;
    }
    c.passRateDiff = mean(passDiffs);
    c.ci95 = bootstrapMeanInterval(passDiffs, seed);
    c.pValue = mcnemarExactP(c.onlyA, c.onlyB);
    c.scoreDiff = mean(scoreDiffs);
    c.scoreCi95 = bootstrapMeanInterval(scoreDiffs, seed ^ 0x5c0feULL);
    c.scorePValue = signFlipP(scoreDiffs, seed ^ 0xf11bULL);
    // With no disagreement seen, the spread two independent variants with these pass rates
    // would have: an upper bound for paired cases; with nothing varying at all, the widest.
    double spread = stdDev(passDiffs);
    if (spread <= 0) {
        const double pa = double(passedA) / c.cases;
        const double pb = double(passedB) / c.cases;
        spread = std::sqrt(pa * (1 - pa) + pb * (1 - pb));
        if (spread <= 0)
            spread = std::sqrt(0.5);
    }
    c.detectable = detectableDifference(c.cases, spread);
    c.sentence = comparisonSentence(c);
    return c;
}

QString comparisonSentence(const PairedComparison &c)
{
    if (c.cases == 0)
        return Tr::tr("%1 and %2 have no case that both ran completely: nothing to compare.")
            .arg(c.a, c.b);
    const QString interval = Tr::tr("95% CI %1 to %2").arg(points(c.ci95.low), points(c.ci95.high));
    if (c.significant()) {
        const QString text = c.passRateDiff > 0
            ? Tr::tr("%1 passes %2 points more often than %3 (%4; %5).")
            : Tr::tr("%1 passes %2 points less often than %3 (%4; %5).");
        return text.arg(c.b, points(std::abs(c.passRateDiff)), c.a, interval, pText(c.pValue));
    }
    return Tr::tr("No difference this run can detect between %1 and %2 (%2 minus %1: %3 points, "
                  "%4; %5); "
                  "with %6 cases it would see about %7 points.")
        .arg(c.a, c.b, points(c.passRateDiff), interval, pText(c.pValue))
        .arg(c.cases)
        .arg(QString::number(c.detectable * 100, 'f', 0));
}

QJsonObject PairedComparison::toJson() const
{
    const auto pair = [](const Interval &i) {
        return QJsonArray { i.low, i.high };
    };
    return QJsonObject { { u"a"_s, a },
                         { u"b"_s, b },
                         { u"cases"_s, cases },
                         { u"only_a"_s, onlyA },
                         { u"only_b"_s, onlyB },
                         { u"pass_rate_diff"_s, passRateDiff },
                         { u"ci95"_s, pair(ci95) },
                         { u"p_value"_s, pValue },
                         { u"significant"_s, significant() },
                         { u"score_diff"_s, scoreDiff },
                         { u"score_ci95"_s, pair(scoreCi95) },
                         { u"score_p_value"_s, scorePValue },
                         { u"detectable_diff"_s, detectable },
                         { u"sentence"_s, sentence } };
}

QJsonObject passAtKJson(const QList<CaseOutcome> &cases, int repeat, bool allOfK)
{
    QJsonObject out;
    for (int k = 1; k <= repeat; ++k) {
        double sum = 0;
        int counted = 0;
        for (const CaseOutcome &c : cases) {
            if (c.runs < k)
                continue;
            sum += allOfK ? passHatK(c.runs, c.passedRuns, k) : passAtK(c.runs, c.passedRuns, k);
            ++counted;
        }
        if (counted > 0)
            out.insert(QString::number(k), sum / counted);
    }
    return out;
}

std::uint64_t comparisonSeed(const QString &a, const QString &b)
{
    const QByteArray digest =
        QCryptographicHash::hash((a + QChar(0x1f) + b).toUtf8(), QCryptographicHash::Sha256);
    std::uint64_t seed = 0;
    for (int i = 0; i < 8; ++i)
        seed = (seed << 8) | std::uint8_t(digest.at(i));
    return seed;
}

} // namespace Callscope::Stats
