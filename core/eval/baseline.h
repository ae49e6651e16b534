#pragma once

// A run of an experiment measured against an earlier stored run (its baseline) on the cases and
// variants both have: which cases regressed (passed before, fail now), which were fixed, which
// became flaky, per assertion too, with the cost and latency deltas, and whether the paired test
// finds the change significant. What a CI job decides on.

#include "core/store/callstore.h"

#include <QJsonObject>
#include <QSet>
#include <QStringList>

namespace Callscope {

struct BaselineVariant
{
    QString variant;
    QString baselineVariant;
    int cases = 0; // compared: in both runs, every run done in each
    QStringList regressions; // passed before, fail now (every repeat)
    QStringList fixes; // did not pass before, pass now
    QStringList newlyFlaky; // were not flaky, are now
    int worse = 0; // passed before, not now (flaky included): the paired test's count
    int better = 0;
    double passRateBefore = 0;
    double passRateNow = 0;
    double pValue = 1; // McNemar exact on worse / better
    bool significant = false; // more worse than better, p < 0.05
    std::optional<double> costDeltaUsd;
    qint64 latencyP50DeltaMs = 0;
    QJsonArray assertions; // [{"name", "regressions": n, "fixes": n}] where one changed
};

struct BaselineComparison
{
    qint64 run = 0;
    QList<BaselineVariant> variants;
    QStringList regressions; // case ids, each once
    QStringList fixes;
    QStringList newlyFlaky;
    QStringList criticalRegressions; // regressions of cases marked critical
    bool significant = false;
    // Exit 1: a significant regression, or any regression of a critical case.
    bool fails() const { return significant || !criticalRegressions.isEmpty(); }
    QJsonObject toJson() const;
};

// `summary` is ExperimentRun::summary() of this run; `baseline` the stored runs of the baseline
// experiment. Variants are matched by name; a run with one variant each is matched whatever
// the names.
BaselineComparison compareWithBaseline(const QJsonObject &summary, qint64 baselineId,
                                       const QList<ExperimentRunRecord> &baseline,
                                       const QSet<QString> &criticalCases);

// `spec` is an experiment id or "latest" (the newest stored experiment of this name before
// `currentId`). nullopt with `error` set when there is none or it cannot be read.
std::optional<qint64> resolveBaseline(CallStore *store, const QString &spec,
                                      const QString &experimentName, qint64 currentId,
                                      QString *error);

} // namespace Callscope
