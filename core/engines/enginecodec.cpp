#include "core/engines/enginecodec.h"

#include "core/engines/codec_anthropic.h"
#include "core/engines/codec_gemini.h"
#include "core/engines/codec_openaichat.h"
#include "core/engines/codec_openairesponses.h"

using namespace Qt::StringLiterals;

namespace Callscope {

QList<std::pair<QByteArray, QByteArray>> HttpRequestData::redactedHeaders() const
{
    QList<std::pair<QByteArray, QByteArray>> out;
    out.reserve(headers.size());
    for (const auto &[name, value] : headers) {
        const QByteArray lower = name.toLower();
        const bool secret = lower == "authorization" || lower == "x-api-key"
            || lower == "x-goog-api-key" || lower == "api-key" || lower == "proxy-authorization";
        out.append({ name, secret ? "***"_ba : value });
    }
    return out;
}

std::unique_ptr<EngineCodec> createEngineCodec(EngineType type)
{
    switch (type) {
    case EngineType::OpenAI:
        return std::make_unique<OpenAIChatCodec>(OpenAIChatCodec::Flavor::OpenAI);
    case EngineType::OpenAICompatible:
        return std::make_unique<OpenAIChatCodec>(OpenAIChatCodec::Flavor::Compatible);
    case EngineType::OpenAIResponses:
        return std::make_unique<OpenAIResponsesCodec>();
    case EngineType::Anthropic:
        return std::make_unique<AnthropicCodec>();
    case EngineType::Gemini:
        return std::make_unique<GeminiCodec>();
    case EngineType::Replay:
        return nullptr;
    }
    return nullptr;
}

} // namespace Callscope
