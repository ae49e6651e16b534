#pragma once

// OpenAI Responses API (`openai-responses`): POST /v1/responses, typed input/output items,
// named SSE events without a [DONE] sentinel.

#include "core/engines/enginecodec.h"

namespace Callscope {

class OpenAIResponsesCodec final : public EngineCodec
{
public:
    EngineType type() const override { return EngineType::OpenAIResponses; }
    HttpRequestData buildRequest(const ChatRequest &request,
                                 const EngineConfig &config) const override;
    std::optional<ModelReply> parseReply(const QByteArray &body, QString *error) const override;
    std::unique_ptr<StreamAssembler> createStreamAssembler() const override;
    ApiError parseError(int httpStatus, const QByteArray &body) const override;
    // The system prompt becomes the first input item (role "system"), so the stored input
    // list is exactly what the request carried.
    QJsonArray toNative(const QString &system, const QList<Message> &messages) const override;
    QList<Message> fromNative(const QJsonArray &native) const override;

    // A whole Response object ({output[], status, incomplete_details, usage, ...}).
    static ModelReply replyFromResponse(const QJsonObject &response);
    static Usage parseUsage(const QJsonObject &usage);
    // Finish reason from status / incomplete reason / the items found.
    static FinishReason mapFinish(const QString &status, const QString &incompleteReason,
                                  bool hasToolCalls, bool hasRefusal, QString *rawFinish,
                                  QString *category);
};

} // namespace Callscope
