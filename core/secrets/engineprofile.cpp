#include "core/secrets/engineprofile.h"

#include <QCoreApplication>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace Callscope {

QJsonObject EngineProfile::toJson() const
{
    QJsonObject object { { u"name"_s, name },
                         { u"type"_s, engineTypeName(type) },
                         { u"model"_s, model } };
    if (!baseUrl.isEmpty())
        object.insert(u"base_url"_s, baseUrl);
    if (contextWindow)
        object.insert(u"context_window"_s, double(*contextWindow));
    if (maxTokens)
        object.insert(u"max_tokens"_s, *maxTokens);
    if (temperature)
        object.insert(u"temperature"_s, *temperature);
    if (toolResultsInContext) {
        object.insert(u"tool_results_in_context"_s,
                      *toolResultsInContext ? QJsonValue(**toolResultsInContext)
                                            : QJsonValue(QJsonValue::Null));
    }
    if (toolResultsTokens)
        object.insert(u"tool_results_tokens"_s, double(*toolResultsTokens));
    if (maxInFlight)
        object.insert(u"max_in_flight"_s, *maxInFlight);
    if (timeoutMs)
        object.insert(u"timeout_ms"_s, double(*timeoutMs));
    if (idleTimeoutMs)
        object.insert(u"idle_timeout_ms"_s, double(*idleTimeoutMs));
    if (cache)
        object.insert(u"cache"_s, cache->toJson());
    return object;
}

std::optional<QString> profileNameProblem(const QString &name)
{
    static const QRegularExpression pattern(u"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"_s);
    if (name.isEmpty())
        return QCoreApplication::translate("Callscope::EngineProfile",
                                           "the engine profile name is empty");
    if (!pattern.match(name).hasMatch()) {
        return QCoreApplication::translate("Callscope::EngineProfile",
                                           "invalid engine profile name '%1': use 1 to 64 letters, "
                                           "digits, '.', '_' or '-', "
                                           "starting with a letter or digit")
            .arg(name);
    }
    return std::nullopt;
}

EngineSpec mergeProfileIntoSpec(const EngineSpec &spec, const EngineProfile &profile)
{
    EngineSpec merged = spec;
    if (spec.typeFromProfile)
        merged.type = profile.type;
    if (merged.model.isEmpty())
        merged.model = profile.model;
    if (merged.baseUrl.isEmpty())
        merged.baseUrl = profile.baseUrl;
    if (!merged.contextWindow)
        merged.contextWindow = profile.contextWindow;
    if (!merged.maxTokens)
        merged.maxTokens = profile.maxTokens;
    if (!merged.temperature)
        merged.temperature = profile.temperature;
    if (!merged.toolResultsInContext)
        merged.toolResultsInContext = profile.toolResultsInContext;
    if (!merged.toolResultsTokens)
        merged.toolResultsTokens = profile.toolResultsTokens;
    if (!merged.timeoutMs)
        merged.timeoutMs = profile.timeoutMs;
    if (!merged.idleTimeoutMs)
        merged.idleTimeoutMs = profile.idleTimeoutMs;
    if (!merged.cache)
        merged.cache = profile.cache;
    return merged;
}

} // namespace Callscope
