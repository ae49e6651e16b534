#include "core/eval/cacheadvice.h"

#include "core/schema/cachelint.h"

#include <QJsonObject>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Callscope {

void addCacheAdvice(QJsonArray &variants, const Experiment &experiment)
{
    double best = 0;
    for (const QJsonValue &v : variants)
        best = std::max(best, v.toObject().value(u"cache_hit_rate"_s).toDouble());
    for (qsizetype i = 0; i < variants.size() && i < experiment.variants.size(); ++i) {
        QJsonObject entry = variants.at(i).toObject();
        const Spec &spec = experiment.variants.at(i).spec;
        QJsonArray advice;
        bool varsFirst = false;
        for (const LintFinding &f : lintCache(spec, spec.engine.type)) {
            if (f.severity != LintSeverity::Warning)
                continue;
            varsFirst |= f.rule == u"cache-vars-first";
            advice.append(QJsonObject {
                { u"rule"_s, f.rule }, { u"pointer"_s, f.pointer }, { u"message"_s, f.message } });
        }
        const double rate = entry.value(u"cache_hit_rate"_s).toDouble();
        const bool ran = entry.value(u"runs"_s).toInt() > 0;
        entry.insert(u"cache_advice"_s, advice);
        entry.insert(u"breaks_cache"_s, varsFirst || (ran && rate < 0.1 && best >= 0.5));
        variants.replace(i, entry);
    }
}

} // namespace Callscope
