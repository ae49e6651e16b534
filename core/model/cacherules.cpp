#include "core/model/cacherules.h"

using namespace Qt::StringLiterals;

namespace Callscope::CacheRules {

qint64 minimumTokens(EngineType type, const QString &model)
{
    switch (type) {
    case EngineType::Anthropic:
        // The minimum cacheable prompt per model, from Anthropic's prompt caching guide.
        if (model.startsWith(u"claude-opus-4-5") || model.startsWith(u"claude-haiku-4-5"))
            return 4096;
        if (model.startsWith(u"claude-3-5-haiku") || model.startsWith(u"claude-3-haiku"))
            return 2048;
        return 1024;
    case EngineType::OpenAI:
    case EngineType::OpenAIResponses:
        return OpenAIMinimumTokens;
    case EngineType::Gemini:
        // Implicit caching starts at 1,024 tokens on Flash and 2,048 on Pro.
        return model.contains(u"pro") ? 2048 : 1024;
    case EngineType::OpenAICompatible:
    case EngineType::Replay:
        break;
    }
    return 0;
}

qint64 estimateTokens(qsizetype characters)
{
    return (qint64(characters) + 3) / 4;
}

bool caches(EngineType type)
{
    return type == EngineType::Anthropic || type == EngineType::OpenAI
        || type == EngineType::OpenAIResponses || type == EngineType::Gemini;
}

} // namespace Callscope::CacheRules
