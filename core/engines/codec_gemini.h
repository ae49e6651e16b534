#pragma once

// Google Gemini API v1beta (`gemini`): models/{model}:generateContent and
// :streamGenerateContent?alt=sse.

#include "core/engines/enginecodec.h"

namespace Callscope {

class GeminiCodec final : public EngineCodec
{
public:
    EngineType type() const override { return EngineType::Gemini; }
    HttpRequestData buildRequest(const ChatRequest &request,
                                 const EngineConfig &config) const override;
    std::optional<ModelReply> parseReply(const QByteArray &body, QString *error) const override;
    std::unique_ptr<StreamAssembler> createStreamAssembler() const override;
    ApiError parseError(int httpStatus, const QByteArray &body) const override;
    // The system prompt goes to `systemInstruction`: toNative ignores `system`. Tool calls
    // keep their `thoughtSignature` (ToolCall::providerData) and are re-sent with it.
    QJsonArray toNative(const QString &system, const QList<Message> &messages) const override;
    QList<Message> fromNative(const QJsonArray &native) const override;

    static Usage parseUsage(const QJsonObject &usageMetadata);
    static FinishReason mapFinishReason(const QString &raw, bool hasToolCalls, QString *category);
    // The id given to a functionCall that came without one: stable for a given reply.
    static QString generatedCallId(const QString &responseId, int index);
};

} // namespace Callscope
