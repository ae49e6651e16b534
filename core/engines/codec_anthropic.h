#pragma once

// Anthropic Messages API (`anthropic`): POST /v1/messages, content blocks, named SSE events.

#include "core/engines/enginecodec.h"

namespace Callscope {

class AnthropicCodec final : public EngineCodec
{
public:
    // max_tokens is required by the API; this is sent when neither request nor engine set it.
    static constexpr int DefaultMaxTokens = 4096;

    EngineType type() const override { return EngineType::Anthropic; }
    HttpRequestData buildRequest(const ChatRequest &request,
                                 const EngineConfig &config) const override;
    std::optional<ModelReply> parseReply(const QByteArray &body, QString *error) const override;
    std::unique_ptr<StreamAssembler> createStreamAssembler() const override;
    ApiError parseError(int httpStatus, const QByteArray &body) const override;
    // The system prompt is a top-level field here, not a message: toNative ignores `system`
    // (buildRequest places it) and a neutral System message becomes a user text block.
    QJsonArray toNative(const QString &system, const QList<Message> &messages) const override;
    QList<Message> fromNative(const QJsonArray &native) const override;

    static Usage parseUsage(const QJsonObject &usage);
    static FinishReason mapStopReason(const QString &stopReason, bool hasToolCalls);
};

} // namespace Callscope
