#include "core/eval/report.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QStringList>
#include <QXmlStreamWriter>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(ExperimentReport)
};

QString esc(const QString &text)
{
    return text.toHtmlEscaped();
}

QStringList failingReasons(const QJsonObject &cell)
{
    QStringList reasons;
    for (const QJsonValue &r : cell.value(u"runs"_s).toArray()) {
        const QJsonObject run = r.toObject();
        for (const QJsonValue &a : run.value(u"assertions"_s).toArray()) {
            const QJsonObject assertion = a.toObject();
            if (!assertion.value(u"passed"_s).toBool())
                reasons.append(Tr::tr("repeat %1, %2: %3")
                                   .arg(run.value(u"repeat"_s).toInt())
                                   .arg(assertion.value(u"name"_s).toString(),
                                        assertion.value(u"reason"_s).toString()));
        }
    }
    return reasons;
}

QString money(const QJsonValue &value)
{
    return value.isNull() || value.isUndefined()
        ? Tr::tr("no price")
        : u"$"_s + QString::number(value.toDouble(), 'f', 4);
}

// A section heading and the header row of its table.
QString tableStart(const QString &title, const QStringList &headers)
{
    QString html = u"<h2>"_s + esc(title) + u"</h2>\n<table><tr>"_s;
    for (const QString &h : headers)
        html += u"<th>"_s + esc(h) + u"</th>"_s;
    return html + u"</tr>\n"_s;
}

QString percent(double fraction)
{
    return QString::number(fraction * 100, 'f', 1);
}

// The paired comparisons (each with its sentence), then pass@k and pass^k when there are repeats.
QString comparisonsHtml(const QJsonObject &summary)
{
    QString html;
    const QJsonArray comparisons = summary.value(u"comparisons"_s).toArray();
    if (!comparisons.isEmpty()) {
        html += tableStart(Tr::tr("Comparisons"),
                           { Tr::tr("A"), Tr::tr("B"), Tr::tr("Cases"),
                             Tr::tr("B \u2212 A (points)"), Tr::tr("95% interval"), Tr::tr("p"),
                             Tr::tr("Score B \u2212 A"), Tr::tr("In words") });
        for (const QJsonValue &c : comparisons) {
            const QJsonObject comparison = c.toObject();
            const QJsonArray ci = comparison.value(u"ci95"_s).toArray();
            const QJsonArray scoreCi = comparison.value(u"score_ci95"_s).toArray();
            html += u"<tr><td>"_s + esc(comparison.value(u"a"_s).toString()) + u"</td><td>"_s
                + esc(comparison.value(u"b"_s).toString()) + u"</td>"_s;
            html += u"<td class=\"num\">"_s + QString::number(comparison.value(u"cases"_s).toInt())
                + u"</td>"_s;
            html += u"<td class=\"num\">"_s
                + percent(comparison.value(u"pass_rate_diff"_s).toDouble()) + u"</td>"_s;
            html += u"<td class=\"num\">"_s + percent(ci.at(0).toDouble()) + u" \u2013 "_s
                + percent(ci.at(1).toDouble()) + u"</td>"_s;
            html += u"<td class=\"num\">"_s
                + QString::number(comparison.value(u"p_value"_s).toDouble(), 'g', 3) + u"</td>"_s;
            html += u"<td class=\"num\">"_s
                + QString::number(comparison.value(u"score_diff"_s).toDouble(), 'f', 3) + u" ("_s
                + QString::number(scoreCi.at(0).toDouble(), 'f', 3) + u" \u2013 "_s
                + QString::number(scoreCi.at(1).toDouble(), 'f', 3) + u")</td>"_s;
            html += u"<td>"_s + esc(comparison.value(u"sentence"_s).toString()) + u"</td></tr>\n"_s;
        }
        html += u"</table>\n"_s;
    }
    bool repeats = false;
    for (const QJsonValue &v : summary.value(u"variants"_s).toArray())
        repeats |= v.toObject().contains(u"pass_at_k"_s);
    if (!repeats)
        return html;
    html +=
        tableStart(Tr::tr("Over repeats"), { Tr::tr("Variant"), u"k"_s, u"pass@k"_s, u"pass^k"_s });
    for (const QJsonValue &v : summary.value(u"variants"_s).toArray()) {
        const QJsonObject variant = v.toObject();
        const QJsonObject atK = variant.value(u"pass_at_k"_s).toObject();
        const QJsonObject hatK = variant.value(u"pass_hat_k"_s).toObject();
        for (auto it = atK.constBegin(); it != atK.constEnd(); ++it) {
            html += u"<tr><td>"_s + esc(variant.value(u"name"_s).toString())
                + u"</td><td class=\"num\">"_s + esc(it.key()) + u"</td><td class=\"num\">"_s
                + percent(it.value().toDouble()) + u"%</td><td class=\"num\">"_s
                + percent(hatK.value(it.key()).toDouble()) + u"%</td></tr>\n"_s;
        }
    }
    html += u"</table>\n<p><small>"_s
        + esc(Tr::tr("pass@k: the chance that at least one of k runs of a case passes; pass^k: "
                     "that all k pass."))
        + u"</small></p>\n"_s;
    return html;
}

// How each judge agrees with the people who labelled the runs (the review queue).
QString reviewHtml(const QJsonObject &summary)
{
    const QJsonObject review = summary.value(u"review"_s).toObject();
    if (review.isEmpty())
        return {};
    const QJsonObject verdicts = review.value(u"verdicts"_s).toObject();
    QString html = u"<h2>"_s + esc(Tr::tr("People's labels")) + u"</h2>\n<p>"_s
        + esc(Tr::tr("%1 labels by %2: %3 pass, %4 fail, %5 skipped.")
                  .arg(review.value(u"labels"_s).toInt())
                  .arg(review.value(u"reviewers"_s).toVariant().toStringList().join(u", "_s))
                  .arg(verdicts.value(u"pass"_s).toInt())
                  .arg(verdicts.value(u"fail"_s).toInt())
                  .arg(verdicts.value(u"skip"_s).toInt()))
        + u"</p>\n"_s;
    const QJsonArray agreement = review.value(u"agreement"_s).toArray();
    if (agreement.isEmpty())
        return html;
    html += tableStart(Tr::tr("Judges and people"),
                       { Tr::tr("Judge"), Tr::tr("Runs"), Tr::tr("Agreed"), Tr::tr("Kappa"),
                         Tr::tr("Judge pass, person pass"), Tr::tr("Judge pass, person fail"),
                         Tr::tr("Judge fail, person pass"), Tr::tr("Judge fail, person fail"),
                         Tr::tr("In words") });
    for (const QJsonValue &value : agreement) {
        const QJsonObject a = value.toObject();
        const QJsonObject confusion = a.value(u"confusion"_s).toObject();
        const QJsonObject jp = confusion.value(u"judge_pass"_s).toObject();
        const QJsonObject jf = confusion.value(u"judge_fail"_s).toObject();
        const QJsonValue kappa = a.value(u"kappa"_s);
        html += u"<tr><td>"_s + esc(a.value(u"assertion"_s).toString()) + u"</td>"_s;
        html += u"<td class=\"num\">"_s + QString::number(a.value(u"pairs"_s).toInt())
            + u"</td><td class=\"num\">"_s + percent(a.value(u"observed_agreement"_s).toDouble())
            + u"%</td>"_s;
        html += u"<td class=\"num\">"_s
            + (kappa.isDouble() ? QString::number(kappa.toDouble(), 'f', 2) : u"–"_s) + u"</td>"_s;
        for (int n : { jp.value(u"person_pass"_s).toInt(), jp.value(u"person_fail"_s).toInt(),
                       jf.value(u"person_pass"_s).toInt(), jf.value(u"person_fail"_s).toInt() })
            html += u"<td class=\"num\">"_s + QString::number(n) + u"</td>"_s;
        html += u"<td>"_s + esc(a.value(u"sentence"_s).toString()) + u"</td></tr>\n"_s;
    }
    html += u"</table>\n<p><small>"_s
        + esc(Tr::tr("Kappa: how much more often the judge and the people agree than two "
                     "raters guessing at the same rates would; 1 is full agreement, 0 is "
                     "chance."))
        + u"</small></p>\n"_s;
    return html;
}

} // namespace

QString experimentHtml(const QJsonObject &summary)
{
    const QJsonArray variants = summary.value(u"variants"_s).toArray();
    const QJsonArray cells = summary.value(u"cells"_s).toArray();
    QStringList caseOrder;
    QHash<QString, QJsonObject> byKey;
    for (const QJsonValue &c : cells) {
        const QJsonObject cell = c.toObject();
        const QString id = cell.value(u"case"_s).toString();
        if (!caseOrder.contains(id))
            caseOrder.append(id);
        byKey.insert(id + QChar(0x1f) + cell.value(u"variant"_s).toString(), cell);
    }
    QString html;
    html += u"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>"_s
        + esc(summary.value(u"name"_s).toString())
        + u"</title>\n<style>"
          u"body{font-family:sans-serif;margin:24px;color:#222}"
          u"table{border-collapse:collapse;margin:12px 0}"
          u"th,td{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}"
          u"th{background:#f3f3f3}"
          u"td.pass{background:#d8f0d8}td.fail{background:#f6d4d4}td.flaky{background:#fbecc2}td."
          u"none{background:#eee}"
          u"td.num{text-align:right}small{color:#555}"
          u"</style></head><body>\n"_s;
    html += u"<h1>"_s + esc(summary.value(u"name"_s).toString()) + u"</h1>\n"_s;
    html += u"<p><small>"_s
        + esc(Tr::tr("Experiment %1").arg(summary.value(u"experiment_id"_s).toInteger()))
        + u"</small></p>\n"_s;

    html += tableStart(Tr::tr("Variants"),
                       { Tr::tr("Variant"), Tr::tr("Cases"), Tr::tr("Passed"), Tr::tr("Failed"),
                         Tr::tr("Flaky"), Tr::tr("Pass rate"), Tr::tr("Runs"),
                         Tr::tr("Tokens in / out"), Tr::tr("Cost"), Tr::tr("Latency p50 / p95") });
    for (const QJsonValue &v : variants) {
        const QJsonObject variant = v.toObject();
        const QJsonObject tokens = variant.value(u"tokens"_s).toObject();
        const QJsonObject latency = variant.value(u"latency_ms"_s).toObject();
        html += u"<tr><td>"_s + esc(variant.value(u"name"_s).toString()) + u"</td>"_s;
        for (const char *key : { "cases", "passed", "failed", "flaky" })
            html += u"<td class=\"num\">"_s
                + QString::number(variant.value(QLatin1StringView(key)).toInt()) + u"</td>"_s;
        html += u"<td class=\"num\">"_s
            + QString::number(variant.value(u"pass_rate"_s).toDouble() * 100, 'f', 1) + u"%</td>"_s;
        html += u"<td class=\"num\">"_s + QString::number(variant.value(u"runs"_s).toInt())
            + u"</td>"_s;
        // Every prompt token: uncached, read from the cache and written to it.
        const qint64 in = tokens.value(u"input"_s).toInteger()
            + tokens.value(u"cache_read"_s).toInteger()
            + tokens.value(u"cache_write"_s).toInteger();
        html += u"<td class=\"num\">"_s + QString::number(in) + u" / "_s
            + QString::number(tokens.value(u"output"_s).toInteger()) + u"</td>"_s;
        html += u"<td class=\"num\">"_s + esc(money(variant.value(u"cost_usd"_s))) + u"</td>"_s;
        html += u"<td class=\"num\">"_s + QString::number(latency.value(u"p50"_s).toInteger())
            + u" / "_s + QString::number(latency.value(u"p95"_s).toInteger())
            + u" ms</td></tr>\n"_s;
    }
    html += u"</table>\n"_s;
    html += comparisonsHtml(summary);
    html += reviewHtml(summary);

    html += u"<h2>"_s + esc(Tr::tr("Matrix")) + u"</h2>\n<table><tr><th>"_s + esc(Tr::tr("Case"))
        + u"</th>"_s;
    for (const QJsonValue &v : variants)
        html += u"<th>"_s + esc(v.toObject().value(u"name"_s).toString()) + u"</th>"_s;
    html += u"</tr>\n"_s;
    for (const QString &id : std::as_const(caseOrder)) {
        html += u"<tr><th>"_s + esc(id) + u"</th>"_s;
        for (const QJsonValue &v : variants) {
            const auto it =
                byKey.constFind(id + QChar(0x1f) + v.toObject().value(u"name"_s).toString());
            if (it == byKey.cend()) {
                html += u"<td class=\"none\">–</td>"_s;
                continue;
            }
            const QJsonObject cell = it.value();
            const QJsonArray runs = cell.value(u"runs"_s).toArray();
            int good = 0;
            for (const QJsonValue &r : runs)
                good += r.toObject().value(u"passed"_s).toBool() ? 1 : 0;
            const QString cls = cell.value(u"passed"_s).toBool() ? u"pass"_s
                : cell.value(u"flaky"_s).toBool()                ? u"flaky"_s
                                                                 : u"fail"_s;
            const QStringList reasons = failingReasons(cell);
            html += u"<td class=\""_s + cls + u"\" title=\""_s + esc(reasons.join(u'\n')) + u"\">"_s
                + QString::number(good) + u"/"_s + QString::number(runs.size());
            if (!reasons.isEmpty())
                html += u"<br><small>"_s + esc(reasons.first().left(160)) + u"</small>"_s;
            html += u"</td>"_s;
        }
        html += u"</tr>\n"_s;
    }
    html += u"</table>\n</body></html>\n"_s;
    return html;
}

QByteArray experimentJunit(const QJsonObject &summary)
{
    QByteArray out;
    QXmlStreamWriter xml(&out);
    xml.setAutoFormatting(true);
    xml.writeStartDocument();
    xml.writeStartElement(u"testsuites"_s);
    xml.writeAttribute(u"name"_s, summary.value(u"name"_s).toString());
    const QJsonArray cells = summary.value(u"cells"_s).toArray();
    for (const QJsonValue &v : summary.value(u"variants"_s).toArray()) {
        const QJsonObject variant = v.toObject();
        const QString name = variant.value(u"name"_s).toString();
        xml.writeStartElement(u"testsuite"_s);
        xml.writeAttribute(u"name"_s, name);
        xml.writeAttribute(u"tests"_s, QString::number(variant.value(u"cases"_s).toInt()));
        xml.writeAttribute(u"failures"_s,
                           QString::number(variant.value(u"cases"_s).toInt()
                                           - variant.value(u"passed"_s).toInt()));
        for (const QJsonValue &c : cells) {
            const QJsonObject cell = c.toObject();
            if (cell.value(u"variant"_s).toString() != name)
                continue;
            xml.writeStartElement(u"testcase"_s);
            xml.writeAttribute(u"classname"_s, name);
            xml.writeAttribute(u"name"_s, cell.value(u"case"_s).toString());
            if (!cell.value(u"passed"_s).toBool()) {
                xml.writeStartElement(u"failure"_s);
                xml.writeAttribute(u"message"_s,
                                   cell.value(u"flaky"_s).toBool() ? u"flaky"_s : u"failed"_s);
                xml.writeCharacters(failingReasons(cell).join(u'\n'));
                xml.writeEndElement();
            }
            xml.writeEndElement();
        }
        xml.writeEndElement();
    }
    xml.writeEndElement();
    xml.writeEndDocument();
    return out;
}

} // namespace Callscope
