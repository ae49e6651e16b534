#pragma once

// The numbers that turn an experiment's matrix into a decision: paired comparisons of two
// variants on the same cases (a bootstrap interval for the difference, McNemar's exact test on
// the cases where they disagree, a sign-flip test for the mean score), pass@k and pass^k over
// repeats, and the plain sentence a person reads. Pure functions: no Qt objects, no store.
//
// Every random draw comes from a generator seeded by the caller, so the same runs give the
// same numbers on every machine.

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <cstdint>
#include <optional>

namespace Callscope::Stats {

struct Interval
{
    double low = 0;
    double high = 0;
    bool contains(double x) const { return low <= x && x <= high; }
};

// A small deterministic generator (SplitMix64): the same seed gives the same stream on every
// platform and standard library, which std::uniform_int_distribution does not promise.
class Random
{
public:
    explicit Random(std::uint64_t seed)
        : m_state(seed)
    { }
    std::uint64_t next();
    // Uniform in [0, n), n > 0.
    std::uint32_t below(std::uint32_t n);
    // Uniform in [0, 1).
    double uniform();

private:
    std::uint64_t m_state;
};

// Two-sided exact McNemar test: `onlyA` cases passed under A alone, `onlyB` under B alone.
// Under "no difference" each disagreeing case is a fair coin; p is the chance of a split at
// least as uneven as this one. 1 when nothing disagrees.
double mcnemarExactP(int onlyA, int onlyB);

// The 95% (or `level`) percentile bootstrap interval of the mean of `values` (per-case paired
// differences), from `resamples` resamples of the cases with replacement.
Interval bootstrapMeanInterval(const QList<double> &values, std::uint64_t seed,
                               int resamples = 2000, double level = 0.95);

// Two-sided paired sign-flip test of "the mean difference is 0": each case's difference keeps
// its size and gets a random sign. Exact when there are few differing cases; otherwise
// `iterations` random flips. 1 when every difference is 0.
double signFlipP(const QList<double> &values, std::uint64_t seed, int iterations = 5000);

// Cohen's kappa of two raters' yes/no verdicts on the same items, from the 2x2 table: `yesYes`
// items both said yes to, `yesNo` the first said yes and the second no, and so on. It is
// (observed agreement - agreement expected by chance) / (1 - agreement expected by chance):
// 1 for full agreement, 0 for what chance alone gives, below 0 for less. None with no items,
// or when chance explains every agreement (both raters always gave one and the same verdict).
std::optional<double> cohensKappa(int yesYes, int yesNo, int noYes, int noNo);

// Unbiased estimators over n runs of a case of which c passed (n >= k):
// pass@k = 1 - C(n-c, k) / C(n, k): at least one of k runs passes;
// pass^k = C(c, k) / C(n, k): all k runs pass.
double passAtK(int n, int c, int k);
double passHatK(int n, int c, int k);

// A case's runs in one variant: how many there were and how many passed, and the mean score.
struct CaseOutcome
{
    int runs = 0;
    int passedRuns = 0;
    bool passed = false; // every planned run passed
    double score = 0; // mean weighted score of its runs
};

// The comparison of B against A on the cases both ran completely.
struct PairedComparison
{
    QString a;
    QString b;
    int cases = 0;
    int onlyA = 0; // cases passed under A, not B
    int onlyB = 0; // cases passed under B, not A
    double passRateDiff = 0; // B's pass rate minus A's, as a fraction (-1..1)
    Interval ci95;
    double pValue = 1; // McNemar exact
    double scoreDiff = 0; // B's mean score minus A's
    Interval scoreCi95;
    double scorePValue = 1; // sign-flip test of the per-case score differences
    double detectable = 0; // the pass-rate difference (fraction) this many cases would see
    QString sentence;

    bool significant() const { return cases > 0 && pValue < 0.05 && !ci95.contains(0); }
    QJsonObject toJson() const;
};

// `outcomesA` and `outcomesB` are keyed by case id; only cases present in both count. The seed
// decides every resample (the same seed, the same numbers).
PairedComparison comparePaired(const QString &nameA, const QHash<QString, CaseOutcome> &outcomesA,
                               const QString &nameB, const QHash<QString, CaseOutcome> &outcomesB,
                               std::uint64_t seed);

// About how large a pass-rate difference (fraction) `cases` paired cases would detect at the
// 5% level 80% of the time, given the spread of the per-case differences.
double detectableDifference(int cases, double differenceStdDev);

// The sentence of a comparison, in the user's language.
QString comparisonSentence(const PairedComparison &c);

// {"1": x, ..., "k": y} of pass@k (or pass^k) over the cases, averaged, for k = 1..repeat.
QJsonObject passAtKJson(const QList<CaseOutcome> &cases, int repeat, bool allOfK);

// The seed of a pair of variants in an experiment: fixed, from the names, so a rerun prints
// the same numbers.
std::uint64_t comparisonSeed(const QString &a, const QString &b);

} // namespace Callscope::Stats
