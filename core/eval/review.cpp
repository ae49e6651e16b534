#include "core/eval/review.h"

#include "core/eval/statistics.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonArray>
#include <QSet>
#include <QSettings>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Review)
};

const QString kReviewerKey = u"review/reviewer"_s;

QString runKey(const QString &caseId, const QString &variant, int repeat)
{
    return caseId + QChar(0x1f) + variant + QChar(0x1f) + QString::number(repeat);
}

// The usual reading of kappa's size (Landis and Koch).
QString kappaWords(double kappa)
{
    if (kappa < -0.005)
        return Tr::tr("less agreement than chance");
    if (kappa < 0.005)
        return Tr::tr("no agreement beyond chance");
    if (kappa <= 0.20)
        return Tr::tr("slight agreement beyond chance");
    if (kappa <= 0.40)
        return Tr::tr("fair agreement beyond chance");
    if (kappa <= 0.60)
        return Tr::tr("moderate agreement beyond chance");
    if (kappa <= 0.80)
        return Tr::tr("substantial agreement beyond chance");
    return Tr::tr("almost perfect agreement");
}

} // namespace

QString reviewerName()
{
    const QString stored = QSettings().value(kReviewerKey).toString().trimmed();
    if (!stored.isEmpty())
        return stored;
    for (const char *variable : { "USER", "USERNAME", "LOGNAME" }) {
        const QString name = qEnvironmentVariable(variable).trimmed();
        if (!name.isEmpty())
            return name;
    }
    return u"reviewer"_s;
}

void setReviewerName(const QString &name)
{
    QSettings settings;
    if (name.trimmed().isEmpty())
        settings.remove(kReviewerKey);
    else
        settings.setValue(kReviewerKey, name.trimmed());
}

QJsonObject reviewLabelJson(const ReviewLabel &label)
{
    return QJsonObject {
        { u"experiment_id"_s, label.experimentId },
        { u"run_id"_s, label.runId ? QJsonValue(*label.runId) : QJsonValue(QJsonValue::Null) },
        { u"call_id"_s, label.callId ? QJsonValue(*label.callId) : QJsonValue(QJsonValue::Null) },
        { u"case"_s, label.caseId },
        { u"variant"_s, label.variant },
        { u"repeat"_s, label.repeat },
        { u"verdict"_s, label.verdict },
        { u"score"_s, label.score ? QJsonValue(*label.score) : QJsonValue(QJsonValue::Null) },
        { u"note"_s, label.note },
        { u"reviewer"_s, label.reviewer },
        { u"created_at"_s, label.createdAt.toUTC().toString(Qt::ISODateWithMs) },
    };
}

double JudgeAgreement::observed() const
{
    const int n = pairs();
    return n > 0 ? double(bothPass + bothFail) / n : 0.0;
}

std::optional<double> JudgeAgreement::kappa() const
{
    return Stats::cohensKappa(bothPass, judgePassPersonFail, judgeFailPersonPass, bothFail);
}

QJsonObject JudgeAgreement::toJson() const
{
    const std::optional<double> k = kappa();
    QJsonObject out {
        { u"assertion"_s, assertion },
        { u"pairs"_s, pairs() },
        { u"observed_agreement"_s, observed() },
        { u"kappa"_s, k ? QJsonValue(*k) : QJsonValue(QJsonValue::Null) },
        // Rows: what the judge said; columns: what the person said.
        { u"confusion"_s,
          QJsonObject { { u"judge_pass"_s,
                          QJsonObject { { u"person_pass"_s, bothPass },
                                        { u"person_fail"_s, judgePassPersonFail } } },
                        { u"judge_fail"_s,
                          QJsonObject { { u"person_pass"_s, judgeFailPersonPass },
                                        { u"person_fail"_s, bothFail } } } } },
    };
    out.insert(u"sentence"_s, agreementSentence(out));
    return out;
}

QList<JudgeAgreement> judgeAgreement(const QList<ExperimentRunRecord> &runs,
                                     const QList<ReviewLabel> &labels)
{
    QHash<QString, QList<const ReviewLabel *>> byRun;
    for (const ReviewLabel &label : labels) {
        if (label.verdict == u"pass"_s || label.verdict == u"fail"_s)
            byRun[runKey(label.caseId, label.variant, label.repeat)].append(&label);
    }
    QList<JudgeAgreement> out;
    QHash<QString, int> index; // by assertion name
    for (const ExperimentRunRecord &run : runs) {
        const auto labelled = byRun.constFind(runKey(run.caseId, run.variant, run.repeat));
        QSet<QString> seen; // two judges of one name in one run are told apart by a number
        for (const QJsonValue &value : run.assertions) {
            const QJsonObject result = value.toObject();
            if (result.value(u"type"_s).toString() != u"judge"_s)
                continue;
            QString name = result.value(u"name"_s).toString();
            if (name.isEmpty())
                name = u"judge"_s;
            for (int n = 2; seen.contains(name); ++n)
                name = result.value(u"name"_s).toString() + u" ("_s + QString::number(n) + u')';
            seen.insert(name);
            auto at = index.constFind(name);
            if (at == index.cend()) {
                at = index.insert(name, int(out.size()));
                out.append(JudgeAgreement { name });
            }
            if (labelled == byRun.cend())
                continue;
            JudgeAgreement &a = out[*at];
            const bool judgePassed = result.value(u"passed"_s).toBool();
            for (const ReviewLabel *label : *labelled) {
                const bool personPassed = label->verdict == u"pass"_s;
                if (judgePassed && personPassed)
                    ++a.bothPass;
                else if (judgePassed)
                    ++a.judgePassPersonFail;
                else if (personPassed)
                    ++a.judgeFailPersonPass;
                else
                    ++a.bothFail;
            }
        }
    }
    return out;
}

QJsonObject reviewSummary(const QList<ExperimentRunRecord> &runs, const QList<ReviewLabel> &labels)
{
    QJsonArray agreement;
    for (const JudgeAgreement &a : judgeAgreement(runs, labels))
        agreement.append(a.toJson());
    QStringList reviewers;
    int pass = 0, fail = 0, skip = 0;
    QJsonArray items;
    for (const ReviewLabel &label : labels) {
        if (!reviewers.contains(label.reviewer))
            reviewers.append(label.reviewer);
        pass += label.verdict == u"pass"_s ? 1 : 0;
        fail += label.verdict == u"fail"_s ? 1 : 0;
        skip += label.verdict == u"skip"_s ? 1 : 0;
        items.append(reviewLabelJson(label));
    }
    return QJsonObject {
        { u"labels"_s, int(labels.size()) },
        { u"reviewers"_s, QJsonArray::fromStringList(reviewers) },
        { u"verdicts"_s,
          QJsonObject { { u"pass"_s, pass }, { u"fail"_s, fail }, { u"skip"_s, skip } } },
        { u"agreement"_s, agreement },
        { u"items"_s, items },
    };
}

QString agreementSentence(const QJsonObject &agreement)
{
    const QString name = agreement.value(u"assertion"_s).toString();
    const int pairs = agreement.value(u"pairs"_s).toInt();
    if (pairs == 0)
        return Tr::tr("%1: no run has both its verdict and a person's pass or fail yet.").arg(name);
    const double observed = agreement.value(u"observed_agreement"_s).toDouble();
    const int agreed = qRound(observed * pairs);
    const QString start =
        QCoreApplication::translate("Review", "%1 agrees with people on %2 of %n run(s) (%3%)",
                                    nullptr, pairs)
            .arg(name)
            .arg(agreed)
            .arg(observed * 100, 0, 'f', 0);
    const QJsonValue kappa = agreement.value(u"kappa"_s);
    if (kappa.isNull() || kappa.isUndefined())
        return Tr::tr("%1; kappa cannot be told: the judge and the people gave every run the same "
                      "verdict.")
            .arg(start);
    return Tr::tr("%1; kappa %2, %3.")
        .arg(start)
        .arg(kappa.toDouble(), 0, 'f', 2)
        .arg(kappaWords(kappa.toDouble()));
}

} // namespace Callscope
