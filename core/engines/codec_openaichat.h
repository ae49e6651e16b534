#pragma once

// OpenAI Chat Completions (`openai`) and the OpenAI-compatible local servers
// (`openai-compatible`: Ollama, llama.cpp, vLLM, LM Studio).

#include "core/engines/enginecodec.h"

namespace Callscope {

class OpenAIChatCodec final : public EngineCodec
{
public:
    // Compatible differs from OpenAI in: `max_tokens` instead of `max_completion_tokens`,
    // no `tool_choice` (Ollama ignores it, vLLM rejects "auto" without server flags), no
    // `strict` on json_schema, `content: ""` rather than null beside tool calls, and
    // `http://localhost:11434` (Ollama) as the default host.
    enum class Flavor { OpenAI, Compatible };

    explicit OpenAIChatCodec(Flavor flavor = Flavor::OpenAI)
        : m_flavor(flavor)
    { }

    EngineType type() const override;
    HttpRequestData buildRequest(const ChatRequest &request,
                                 const EngineConfig &config) const override;
    std::optional<ModelReply> parseReply(const QByteArray &body, QString *error) const override;
    std::unique_ptr<StreamAssembler> createStreamAssembler() const override;
    ApiError parseError(int httpStatus, const QByteArray &body) const override;
    QJsonArray toNative(const QString &system, const QList<Message> &messages) const override;
    QList<Message> fromNative(const QJsonArray &native) const override;

    // The normalised finish reason of a Chat Completions choice; `category` gets the refusal
    // category when it is a refusal.
    static FinishReason mapFinishReason(const QString &raw, bool hasToolCalls, bool hasRefusal,
                                        QString *category);
    static Usage parseUsage(const QJsonObject &usage);
    // OpenAI-style error body {"error":{message,type,param,code}} (also the flat
    // {"object":"error",...} of old vLLM builds and a plain-text body).
    static ApiError parseOpenAIError(int httpStatus, const QByteArray &body);

private:
    Flavor m_flavor;
};

} // namespace Callscope
