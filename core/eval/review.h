#pragma once

// People's labels of an experiment's runs (the studio's review queue) and what they say about
// the experiment's judges: for each `judge` assertion, how often the judge and the people gave
// the same verdict, beyond what chance gives (Cohen's kappa), and the table of the four ways
// they can meet (the confusion matrix).

#include "core/store/callstore.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace Callscope {

// The name stored with a label: the setting `review/reviewer`, else the user the program runs
// as (USER, USERNAME or LOGNAME), else "reviewer".
QString reviewerName();
// Stores the name for later labels (an empty name goes back to the default).
void setReviewerName(const QString &name);

// One label as a JSON object (a line of `experiment labels` and of `eval --out`):
// {"experiment_id", "run_id", "call_id", "case", "variant", "repeat", "verdict", "score", "note",
// "reviewer", "created_at"}.
QJsonObject reviewLabelJson(const ReviewLabel &label);

// How one judge and the people met on the runs both gave a pass or fail verdict to (a skip, or
// a run the judge did not check, is left out).
struct JudgeAgreement
{
    QString assertion; // the judge assertion's name
    int bothPass = 0; // judge passed, person passed
    int judgePassPersonFail = 0;
    int judgeFailPersonPass = 0;
    int bothFail = 0;
    int pairs() const { return bothPass + judgePassPersonFail + judgeFailPersonPass + bothFail; }
    double observed() const; // the share of pairs where they agreed (0 with no pairs)
    std::optional<double> kappa() const; // none with no pairs, or when chance explains all
    QJsonObject toJson() const;
};

// Every judge assertion that checked a labelled run, in the order they first appear in `runs`.
QList<JudgeAgreement> judgeAgreement(const QList<ExperimentRunRecord> &runs,
                                     const QList<ReviewLabel> &labels);

// The summary's "review": {"labels", "reviewers", "verdicts": {"pass", "fail", "skip"},
// "agreement": [JudgeAgreement::toJson()...], "items": [reviewLabelJson()...]}.
QJsonObject reviewSummary(const QList<ExperimentRunRecord> &runs, const QList<ReviewLabel> &labels);

// A plain sentence for one judge: "judge agrees with people on 35 of 50 runs (70%); kappa 0.40,
// fair agreement beyond chance".
QString agreementSentence(const QJsonObject &agreement);

} // namespace Callscope
