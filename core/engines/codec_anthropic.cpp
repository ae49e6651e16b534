#include "core/engines/codec_anthropic.h"

#include "core/engines/codec_common.h"
#include "core/engines/promptcache.h"
#include "core/model/jsonwriter.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QMap>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Callscope {

using namespace CodecCommon;

namespace {

// Applies a stop_reason / stop_details pair to the reply.
void applyStop(ModelReply &reply, const QString &stopReason, const QJsonObject &stopDetails)
{
    reply.rawFinishReason = stopReason;
    reply.finishReason =
        AnthropicCodec::mapStopReason(stopReason, !reply.message.toolCalls.isEmpty());
    if (reply.finishReason == FinishReason::Refusal) {
        reply.refusalCategory = stopDetails.value(u"category"_s).toString();
        const QString explanation = stopDetails.value(u"explanation"_s).toString();
        reply.message.refusal = explanation.isEmpty() ? reply.message.text : explanation;
        if (reply.message.refusal.isEmpty())
            reply.message.refusal = QCoreApplication::translate("Callscope::EngineCodec",
                                                                "The model refused to answer.");
    }
}

ApiError anthropicError(int httpStatus, const QJsonObject &root)
{
    ApiError error = httpStatus > 0 ? errorForStatus(httpStatus) : ApiError {};
    const QJsonObject inner = root.value(u"error"_s).toObject();
    error.providerType = inner.value(u"type"_s).toString();
    error.message = inner.value(u"message"_s).toString();
    refineError(error, error.providerType, {});
    return error;
}

class AnthropicStreamAssembler final : public StreamAssembler
{
public:
    bool handleEvent(const SseEvent &event) override;
    bool isComplete() const override { return m_done; }
    bool hasContent() const override { return m_hasContent; }
    std::optional<ApiError> error() const override { return m_error; }
    ModelReply reply() const override;

private:
    struct Block
    {
        QString type;
        QString text; // text, or thinking text
        QString signature; // thinking signature
        QString id;
        QString name;
        QString json; // input_json_delta fragments
        QJsonObject raw; // the content_block of content_block_start
    };

    bool m_done = false;
    bool m_hasContent = false;
    std::optional<ApiError> m_error;
    QMap<int, Block> m_blocks;
    QString m_stopReason;
    QJsonObject m_stopDetails;
    QJsonObject m_usage;
    QString m_id;
    QString m_model;
    JsonTape m_tape; // the current event, reused
};

bool AnthropicStreamAssembler::handleEvent(const SseEvent &event)
{
    if (m_error)
        return false;
    if (event.data.trimmed().isEmpty())
        return true;
    const auto parsed = eventRef(event, event.data, m_tape, m_error);
    if (!parsed)
        return false;
    const JsonRef data = *parsed;
    const QString type = eventType(event, data);

    if (type == u"error") {
        m_error = anthropicError(0, data.toQtObject());
        return false;
    }
    if (type == u"message_start") {
        const JsonRef message = data.value("message"_L1);
        m_id = message.value("id"_L1).toString();
        m_model = message.value("model"_L1).toString();
        m_usage = message.value("usage"_L1).toQtObject();
    } else if (type == u"content_block_start") {
        const int index = data.value("index"_L1).toInt();
        const JsonRef block = data.value("content_block"_L1);
        Block &b = m_blocks[index];
        b.type = block.value("type"_L1).toString();
        if (b.type != u"text" && b.type != u"tool_use")
            b.raw = block.toQtObject(); // kept whole for redacted thinking
        if (b.type == u"text") {
            b.text = block.value("text"_L1).toString();
            if (!b.text.isEmpty()) {
                m_hasContent = true;
                if (onTextDelta)
                    onTextDelta(b.text);
            }
        } else if (b.type == u"tool_use") {
            b.id = block.value("id"_L1).toString();
            b.name = block.value("name"_L1).toString();
            m_hasContent = true; // the `input: {}` placeholder is ignored
        } else if (b.type == u"thinking") {
            b.text = block.value("thinking"_L1).toString();
            b.signature = block.value("signature"_L1).toString();
        }
    } else if (type == u"content_block_delta") {
        Block &b = m_blocks[data.value("index"_L1).toInt()];
        const JsonRef delta = data.value("delta"_L1);
        const std::string_view deltaType = delta.value("type"_L1).utf8();
        if (deltaType == "text_delta") {
            const QString text = delta.value("text"_L1).toString();
            if (b.type.isEmpty())
                b.type = u"text"_s;
            b.text += text;
            if (!text.isEmpty()) {
                m_hasContent = true;
                if (onTextDelta)
                    onTextDelta(text);
            }
        } else if (deltaType == "input_json_delta") {
            const QString fragment = delta.value("partial_json"_L1).toString();
            b.json += fragment;
            m_hasContent = true;
            if (!fragment.isEmpty() && onToolArgumentsDelta)
                onToolArgumentsDelta(data.value("index"_L1).toInt(), b.name, fragment);
        } else if (deltaType == "thinking_delta") {
            b.text += delta.value("thinking"_L1).toString();
        } else if (deltaType == "signature_delta") {
            b.signature += delta.value("signature"_L1).toString();
        }
    } else if (type == u"message_delta") {
        const JsonRef delta = data.value("delta"_L1);
        const QString stop = delta.value("stop_reason"_L1).toString();
        if (!stop.isEmpty())
            m_stopReason = stop;
        if (const JsonRef details = delta.value("stop_details"_L1); details.isObject())
            m_stopDetails = details.toQtObject();
        // Usage here is cumulative; fields present replace the message_start figures.
        const QJsonObject usage = data.value("usage"_L1).toQtObject();
        for (auto it = usage.begin(); it != usage.end(); ++it) {
            if (!it.value().isNull())
                m_usage.insert(it.key(), it.value());
        }
    } else if (type == u"message_stop") {
        m_done = true;
    }
    // ping, content_block_stop and unknown events need nothing.
    return true;
}

ModelReply AnthropicStreamAssembler::reply() const
{
    ModelReply reply;
    reply.message.role = Role::Assistant;
    QJsonArray thinking;
    for (const Block &b : m_blocks) {
        if (b.type == u"text") {
            reply.message.text += b.text;
        } else if (b.type == u"tool_use") {
            // An empty total means {}.
            reply.message.toolCalls.append(makeToolCall(b.id, b.name, b.json));
        } else if (b.type == u"thinking") {
            thinking.append(QJsonObject { { u"type"_s, u"thinking"_s },
                                          { u"thinking"_s, b.text },
                                          { u"signature"_s, b.signature } });
        } else if (b.type == u"redacted_thinking") {
            thinking.append(b.raw);
        }
    }
    if (!thinking.isEmpty())
        reply.message.providerData.insert(u"thinking"_s, thinking);
    applyStop(reply, m_stopReason, m_stopDetails);
    reply.usage = AnthropicCodec::parseUsage(m_usage);
    reply.responseId = m_id;
    reply.model = m_model;
    return reply;
}

QJsonArray attachmentBlocks(const QList<Attachment> &attachments)
{
    QJsonArray blocks;
    for (const Attachment &attachment : attachments) {
        if (attachment.isPlaceholder()) {
            blocks.append(QJsonObject { { u"type"_s, u"text"_s },
                                        { u"text"_s, placeholderText(attachment) } });
        } else if (attachment.isImage()) {
            blocks.append(QJsonObject {
                { u"type"_s, u"image"_s },
                { u"source"_s,
                  QJsonObject {
                      { u"type"_s, u"base64"_s },
                      { u"media_type"_s, attachment.mediaType },
                      { u"data"_s, QString::fromLatin1(attachment.data.toBase64()) } } } });
        } else if (isTextLike(attachment.mediaType)) {
            QJsonObject block { { u"type"_s, u"document"_s },
                                { u"source"_s,
                                  QJsonObject {
                                      { u"type"_s, u"text"_s },
                                      { u"media_type"_s, u"text/plain"_s },
                                      { u"data"_s, QString::fromUtf8(attachment.data) } } } };
            if (!attachment.name.isEmpty())
                block.insert(u"title"_s, attachment.name);
            blocks.append(block);
        } else {
            QJsonObject block {
                { u"type"_s, u"document"_s },
                { u"source"_s,
                  QJsonObject { { u"type"_s, u"base64"_s },
                                { u"media_type"_s, attachment.mediaType },
                                { u"data"_s, QString::fromLatin1(attachment.data.toBase64()) } } }
            };
            if (!attachment.name.isEmpty())
                block.insert(u"title"_s, attachment.name);
            blocks.append(block);
        }
    }
    return blocks;
}

std::optional<Attachment> attachmentFromBlock(const QJsonObject &block)
{
    const QString type = block.value(u"type"_s).toString();
    if (type != u"image" && type != u"document")
        return std::nullopt;
    const QJsonObject source = block.value(u"source"_s).toObject();
    const QString sourceType = source.value(u"type"_s).toString();
    const QString name = block.value(u"title"_s).toString();
    if (sourceType == u"base64") {
        return Attachment::fromData(
            name, source.value(u"media_type"_s).toString(),
            QByteArray::fromBase64(source.value(u"data"_s).toString().toLatin1()));
    }
    if (sourceType == u"text")
        return Attachment::fromData(name, u"text/plain"_s,
                                    source.value(u"data"_s).toString().toUtf8());
    return std::nullopt;
}

} // namespace

HttpRequestData AnthropicCodec::buildRequest(const ChatRequest &request,
                                             const EngineConfig &config) const
{
    HttpRequestData out;
    out.url = endpointUrl(config.baseUrl, u"https://api.anthropic.com"_s, u"/v1/messages"_s);
    out.headers = jsonRequestHeaders("x-api-key"_ba, config.apiKey);
    out.headers.append({ "anthropic-version"_ba, "2023-06-01"_ba });
    out.stream = streaming(request, config);

    QJsonObject body;
    body.insert(u"model"_s, config.model);
    body.insert(u"max_tokens"_s, maxTokens(request, config).value_or(DefaultMaxTokens));
    if (!request.system.isEmpty())
        body.insert(u"system"_s, request.system);
    body.insert(u"messages"_s, toNative(request.system, request.messages));
    if (!request.tools.isEmpty()) {
        QJsonArray tools;
        for (const ToolDeclaration &tool : request.tools) {
            QJsonObject object { { u"name"_s, tool.name } };
            if (!tool.description.isEmpty())
                object.insert(u"description"_s, tool.description);
            object.insert(u"input_schema"_s,
                          tool.inputSchema.isEmpty() ? QJsonObject { { u"type"_s, u"object"_s } }
                                                     : tool.inputSchema);
            if (tool.strict)
                object.insert(u"strict"_s, true);
            tools.append(object);
        }
        body.insert(u"tools"_s, tools);
        QJsonObject choice;
        switch (request.toolChoice) {
        case ToolChoiceMode::Auto:
            choice.insert(u"type"_s, u"auto"_s);
            break;
        case ToolChoiceMode::None:
            choice.insert(u"type"_s, u"none"_s);
            break;
        case ToolChoiceMode::Required:
            choice.insert(u"type"_s, u"any"_s);
            break;
        case ToolChoiceMode::Force:
            choice.insert(u"type"_s, u"tool"_s);
            choice.insert(u"name"_s, request.forcedTool);
            break;
        }
        if (!request.parallelToolCalls && request.toolChoice != ToolChoiceMode::None)
            choice.insert(u"disable_parallel_tool_use"_s, true);
        body.insert(u"tool_choice"_s, choice);
    }
    if (request.responseSchema) {
        body.insert(u"output_config"_s,
                    QJsonObject { { u"format"_s,
                                    QJsonObject { { u"type"_s, u"json_schema"_s },
                                                  { u"schema"_s, *request.responseSchema } } } });
    }
    if (const auto temp = temperature(request, config))
        body.insert(u"temperature"_s, *temp);
    body.insert(u"stream"_s, out.stream);
    if (request.cache)
        PromptCache::applyAnthropic(body, *request.cache);
    mergePatch(body, request.extraBody);
    out.body = body;
    return out;
}

FinishReason AnthropicCodec::mapStopReason(const QString &stopReason, bool hasToolCalls)
{
    if (stopReason == u"end_turn" || stopReason == u"stop_sequence")
        return hasToolCalls ? FinishReason::ToolCalls : FinishReason::Stop;
    if (stopReason == u"max_tokens" || stopReason == u"model_context_window_exceeded")
        return FinishReason::Length;
    if (stopReason == u"tool_use")
        return FinishReason::ToolCalls;
    if (stopReason == u"pause_turn")
        return FinishReason::Pause;
    if (stopReason == u"refusal")
        return FinishReason::Refusal;
    return FinishReason::Other;
}

Usage AnthropicCodec::parseUsage(const QJsonObject &usage)
{
    // input_tokens leaves out what was read from or written to the cache.
    Usage out;
    out.inputTokens = std::max<qint64>(0, usage.value(u"input_tokens"_s).toInteger());
    out.cacheReadTokens =
        std::max<qint64>(0, usage.value(u"cache_read_input_tokens"_s).toInteger());
    const QJsonObject creation = usage.value(u"cache_creation"_s).toObject();
    const qint64 written5m =
        std::max<qint64>(0, creation.value(u"ephemeral_5m_input_tokens"_s).toInteger());
    const qint64 written1h =
        std::max<qint64>(0, creation.value(u"ephemeral_1h_input_tokens"_s).toInteger());
    out.cacheWriteTokens =
        std::max<qint64>(0, usage.value(u"cache_creation_input_tokens"_s).toInteger());
    if (creation.contains(u"ephemeral_5m_input_tokens"_s)
        || creation.contains(u"ephemeral_1h_input_tokens"_s))
        out.cacheWriteTokens = std::max(out.cacheWriteTokens, written5m + written1h);
    out.cacheWrite1hTokens = std::min(written1h, out.cacheWriteTokens);
    out.outputTokens = usage.value(u"output_tokens"_s).toInteger();
    const QJsonObject details = usage.value(u"output_tokens_details"_s).toObject();
    out.reasoningTokens = details.contains(u"thinking_tokens"_s)
        ? details.value(u"thinking_tokens"_s).toInteger()
        : details.value(u"reasoning_tokens"_s).toInteger();
    return out;
}

std::optional<ModelReply> AnthropicCodec::parseReply(const QByteArray &body, QString *error) const
{
    const auto parsed = replyObject(body, error);
    if (!parsed)
        return std::nullopt;
    const QJsonObject root = *parsed;
    if (root.value(u"type"_s).toString() == u"error") {
        if (error)
            *error = root.value(u"error"_s).toObject().value(u"message"_s).toString();
        return std::nullopt;
    }
    ModelReply reply;
    const QList<Message> messages = fromNative(QJsonArray { QJsonObject {
        { u"role"_s, u"assistant"_s }, { u"content"_s, root.value(u"content"_s) } } });
    reply.message = messages.isEmpty() ? Message::assistant({}) : messages.first();
    applyStop(reply, root.value(u"stop_reason"_s).toString(),
              root.value(u"stop_details"_s).toObject());
    reply.usage = parseUsage(root.value(u"usage"_s).toObject());
    reply.responseId = root.value(u"id"_s).toString();
    reply.model = root.value(u"model"_s).toString();
    return reply;
}

std::unique_ptr<StreamAssembler> AnthropicCodec::createStreamAssembler() const
{
    return std::make_unique<AnthropicStreamAssembler>();
}

ApiError AnthropicCodec::parseError(int httpStatus, const QByteArray &body) const
{
    const auto doc = parseJson(body);
    if (!doc || !doc->isObject())
        return statusError(httpStatus, body);
    return anthropicError(httpStatus, doc->object());
}

QJsonArray AnthropicCodec::toNative(const QString &system, const QList<Message> &messages) const
{
    Q_UNUSED(system) // a top-level field of the request, see buildRequest
    QJsonArray out;
    // Consecutive turns of one role merge into one message (the API wants alternation).
    const auto append = [&out](const QString &role, const QJsonArray &content) {
        appendAlternatingTurn(out, role, u"content"_s, content);
    };
    const auto textBlock = [](const QString &text) {
        return Json::withString(QJsonObject { { u"type"_s, u"text"_s } }, u"text", text);
    };

    for (const Message &message : messages) {
        switch (message.role) {
        case Role::System:
        case Role::User: {
            QJsonArray content;
            if (!message.text.isEmpty())
                content.append(textBlock(message.text));
            for (const QJsonValue &block : attachmentBlocks(message.attachments))
                content.append(block);
            append(u"user"_s, content);
            break;
        }
        case Role::Assistant: {
            QJsonArray content;
            const QJsonArray thinking = message.providerData.value(u"thinking"_s).toArray();
            for (const QJsonValue &block : thinking)
                content.append(block);
            if (!message.text.isEmpty())
                content.append(textBlock(message.text));
            else if (!message.refusal.isEmpty() && message.toolCalls.isEmpty())
                content.append(textBlock(message.refusal));
            for (const ToolCall &call : message.toolCalls) {
                content.append(QJsonObject { { u"type"_s, u"tool_use"_s },
                                             { u"id"_s, call.id },
                                             { u"name"_s, call.name },
                                             { u"input"_s, call.arguments } });
            }
            append(u"assistant"_s, content);
            break;
        }
        case Role::Tool: {
            // All results of a turn in one user message, tool_result blocks first.
            QJsonArray content;
            for (const ToolResult &result : message.toolResults) {
                QJsonObject block { { u"type"_s, u"tool_result"_s },
                                    { u"tool_use_id"_s, result.callId } };
                if (result.images.isEmpty()) {
                    block.insert(u"content"_s, result.content);
                } else {
                    QJsonArray inner;
                    if (!result.content.isEmpty())
                        inner.append(textBlock(result.content));
                    for (const QJsonValue &image : attachmentBlocks(result.images))
                        inner.append(image);
                    block.insert(u"content"_s, inner);
                }
                block.insert(u"is_error"_s, result.isError);
                content.append(block);
            }
            append(u"user"_s, content);
            break;
        }
        }
    }
    return out;
}

QList<Message> AnthropicCodec::fromNative(const QJsonArray &native) const
{
    QList<Message> out;
    QHash<QString, QString> names;
    for (const QJsonValue &value : native) {
        const QJsonObject object = value.toObject();
        const QString role = object.value(u"role"_s).toString();
        const QJsonValue contentValue = object.value(u"content"_s);
        QJsonArray blocks;
        if (contentValue.isString())
            blocks.append(
                QJsonObject { { u"type"_s, u"text"_s }, { u"text"_s, contentValue.toString() } });
        else
            blocks = contentValue.toArray();

        if (role == u"assistant") {
            Message message = Message::assistant({});
            QJsonArray thinking;
            for (const QJsonValue &blockValue : blocks) {
                const QJsonObject block = blockValue.toObject();
                const QString type = block.value(u"type"_s).toString();
                if (type == u"text") {
                    message.text += block.value(u"text"_s).toString();
                } else if (type == u"tool_use") {
                    ToolCall call;
                    call.id = block.value(u"id"_s).toString();
                    call.name = block.value(u"name"_s).toString();
                    call.arguments = block.value(u"input"_s).toObject();
                    call.rawArguments = compactJson(call.arguments);
                    names.insert(call.id, call.name);
                    message.toolCalls.append(call);
                } else if (type == u"thinking" || type == u"redacted_thinking") {
                    thinking.append(block);
                }
            }
            if (!thinking.isEmpty())
                message.providerData.insert(u"thinking"_s, thinking);
            out.append(message);
            continue;
        }

        // A user message: tool_result blocks become a Tool message, the rest a User message.
        QList<ToolResult> results;
        Message user = Message::user({});
        for (const QJsonValue &blockValue : blocks) {
            const QJsonObject block = blockValue.toObject();
            const QString type = block.value(u"type"_s).toString();
            if (type == u"tool_result") {
                ToolResult result;
                result.callId = block.value(u"tool_use_id"_s).toString();
                result.name = names.value(result.callId);
                result.isError = block.value(u"is_error"_s).toBool();
                const QJsonValue content = block.value(u"content"_s);
                if (content.isString()) {
                    result.content = content.toString();
                } else {
                    const QJsonArray inner = content.toArray();
                    for (const QJsonValue &innerValue : inner) {
                        const QJsonObject innerBlock = innerValue.toObject();
                        if (innerBlock.value(u"type"_s).toString() == u"text")
                            result.content += innerBlock.value(u"text"_s).toString();
                        else if (const auto image = attachmentFromBlock(innerBlock))
                            result.images.append(*image);
                    }
                }
                results.append(result);
            } else if (type == u"text") {
                user.text += block.value(u"text"_s).toString();
            } else if (const auto attachment = attachmentFromBlock(block)) {
                user.attachments.append(*attachment);
            }
        }
        appendUserTurn(out, results, user);
    }
    return out;
}

} // namespace Callscope
