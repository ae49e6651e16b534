#include "core/engines/codec_openaichat.h"

#include "core/engines/codec_common.h"
#include "core/engines/promptcache.h"
#include "core/model/jsonwriter.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QMap>

using namespace Qt::StringLiterals;

namespace Callscope {

using namespace CodecCommon;

namespace {

// Text of a Chat content value: a string, null, or an array of {type:"text", text} parts.
QString contentText(const QJsonValue &content)
{
    if (content.isString())
        return content.toString();
    QString text;
    const QJsonArray parts = content.toArray();
    for (const QJsonValue &part : parts) {
        const QJsonObject object = part.toObject();
        if (object.value(u"type"_s).toString() == u"text")
            text += object.value(u"text"_s).toString();
    }
    return text;
}

// Reasoning text some compatible servers add: `reasoning` (Ollama) or `reasoning_content`
// (llama.cpp, vLLM).
QString reasoningText(const QJsonObject &message)
{
    const QString reasoning = message.value(u"reasoning"_s).toString();
    return reasoning.isEmpty() ? message.value(u"reasoning_content"_s).toString() : reasoning;
}

Attachment attachmentFromDataUri(const QString &uri, const QString &name)
{
    // data:<type>;base64,<payload>
    const qsizetype comma = uri.indexOf(u',');
    if (!uri.startsWith(u"data:") || comma < 0)
        return {};
    QString mediaType = uri.mid(5, comma - 5);
    mediaType = mediaType.section(u';', 0, 0);
    return Attachment::fromData(name, mediaType,
                                QByteArray::fromBase64(uri.sliced(comma + 1).toLatin1()));
}

class ChatStreamAssembler final : public TextStreamAssembler
{
public:
    bool handleEvent(const SseEvent &event) override;
    ModelReply reply() const override;

private:
    struct PendingCall
    {
        QString id;
        QString name;
        QString arguments;
    };

    QString m_reasoning;
    QMap<int, PendingCall> m_calls;
    int m_lastIndex = -1;
    QString m_finishReason;
};

bool ChatStreamAssembler::handleEvent(const SseEvent &event)
{
    if (m_error)
        return false;
    if (m_done)
        return true; // nothing may follow [DONE]; ignore stray events
    const QByteArray data = event.data.trimmed();
    if (data == "[DONE]") {
        m_done = true;
        return true;
    }
    if (data.isEmpty())
        return true;
    const auto parsed = eventRef(event, data, m_tape, m_error);
    if (!parsed)
        return false;
    const JsonRef chunk = *parsed;
    const JsonRef errorValue = chunk.value("error"_L1);
    if (errorValue.isObject() || errorValue.isString())
        return fail(OpenAIChatCodec::parseOpenAIError(0, data));
    if (m_id.isEmpty())
        m_id = chunk.value("id"_L1).toString();
    if (m_model.isEmpty())
        m_model = chunk.value("model"_L1).toString();
    if (const JsonRef usage = chunk.value("usage"_L1); usage.isObject())
        m_usage = OpenAIChatCodec::parseUsage(usage.toQtObject());

    for (const JsonRef choice : chunk.value("choices"_L1)) {
        if (choice.value("index"_L1).toInt(0) != 0)
            continue; // only the first choice is assembled (we never ask for n > 1)
        const JsonRef delta = choice.value("delta"_L1);
        const JsonRef contentValue = delta.value("content"_L1);
        const QString content =
            contentValue.isString() ? contentValue.toString() : contentText(contentValue.toQt());
        appendText(content);
        appendRefusal(delta.value("refusal"_L1).toString());
        const QString reasoning = delta.value("reasoning"_L1).toString();
        m_reasoning +=
            reasoning.isEmpty() ? delta.value("reasoning_content"_L1).toString() : reasoning;
        for (const JsonRef call : delta.value("tool_calls"_L1)) {
            const QString id = call.value("id"_L1).toString();
            int index = m_lastIndex;
            if (call.value("index"_L1).isDouble()) {
                index = call.value("index"_L1).toInt();
            } else if (index < 0 || (!id.isEmpty() && m_calls.value(index).id != id)) {
                index = m_calls.isEmpty() ? 0 : m_calls.lastKey() + 1; // servers without index
            }
            m_lastIndex = index;
            PendingCall &pending = m_calls[index];
            if (!id.isEmpty())
                pending.id = id;
            const JsonRef function = call.value("function"_L1);
            const QString name = function.value("name"_L1).toString();
            if (!name.isEmpty())
                pending.name = name;
            const JsonRef arguments = function.value("arguments"_L1);
            QString fragment;
            if (arguments.isString())
                fragment = arguments.toString();
            else if (arguments.isObject()) // a few local servers send an object
                fragment = compactJson(arguments.toQtObject());
            pending.arguments += fragment;
            m_hasContent = true;
            if (!fragment.isEmpty() && onToolArgumentsDelta)
                onToolArgumentsDelta(index, pending.name, fragment);
        }
        const QString finish = choice.value("finish_reason"_L1).toString();
        if (!finish.isEmpty())
            m_finishReason = finish;
    }
    return true;
}

ModelReply ChatStreamAssembler::reply() const
{
    ModelReply reply = baseReply();
    if (!m_reasoning.isEmpty())
        reply.message.providerData.insert(u"reasoning"_s, m_reasoning);
    for (const PendingCall &pending : m_calls) {
        reply.message.toolCalls.append(makeToolCall(pending.id, pending.name, pending.arguments));
    }
    reply.rawFinishReason = m_finishReason;
    reply.finishReason =
        OpenAIChatCodec::mapFinishReason(m_finishReason, !reply.message.toolCalls.isEmpty(),
                                         !m_refusal.isEmpty(), &reply.refusalCategory);
    return reply;
}

} // namespace

EngineType OpenAIChatCodec::type() const
{
    return m_flavor == Flavor::OpenAI ? EngineType::OpenAI : EngineType::OpenAICompatible;
}

HttpRequestData OpenAIChatCodec::buildRequest(const ChatRequest &request,
                                              const EngineConfig &config) const
{
    const bool compatible = m_flavor == Flavor::Compatible;
    HttpRequestData out;
    out.url = endpointUrl(config.baseUrl,
                          compatible ? u"http://localhost:11434"_s : u"https://api.openai.com"_s,
                          u"/v1/chat/completions"_s);
    out.headers = jsonRequestHeaders("Authorization"_ba, config.apiKey, "Bearer "_ba);
    out.stream = streaming(request, config);

    QJsonObject body;
    body.insert(u"model"_s, config.model);
    body.insert(u"messages"_s, toNative(request.system, request.messages));

    if (!request.tools.isEmpty()) {
        QJsonArray tools;
        for (const ToolDeclaration &tool : request.tools) {
            QJsonObject function { { u"name"_s, tool.name } };
            if (!tool.description.isEmpty())
                function.insert(u"description"_s, tool.description);
            function.insert(
                u"parameters"_s,
                tool.inputSchema.isEmpty()
                    ? QJsonObject { { u"type"_s, u"object"_s }, { u"properties"_s, QJsonObject() } }
                    : tool.inputSchema);
            if (tool.strict)
                function.insert(u"strict"_s, true);
            tools.append(QJsonObject { { u"type"_s, u"function"_s }, { u"function"_s, function } });
        }
        body.insert(u"tools"_s, tools);
        if (!compatible) {
            switch (request.toolChoice) {
            case ToolChoiceMode::Auto:
                body.insert(u"tool_choice"_s, u"auto"_s);
                break;
            case ToolChoiceMode::None:
                body.insert(u"tool_choice"_s, u"none"_s);
                break;
            case ToolChoiceMode::Required:
                body.insert(u"tool_choice"_s, u"required"_s);
                break;
            case ToolChoiceMode::Force:
                body.insert(u"tool_choice"_s,
                            QJsonObject { { u"type"_s, u"function"_s },
                                          { u"function"_s,
                                            QJsonObject { { u"name"_s, request.forcedTool } } } });
                break;
            }
        }
        body.insert(u"parallel_tool_calls"_s, request.parallelToolCalls);
    }

    if (request.responseSchema) {
        QJsonObject jsonSchema { { u"name"_s, request.responseSchemaName },
                                 { u"schema"_s, *request.responseSchema } };
        if (!compatible)
            jsonSchema.insert(u"strict"_s, true);
        body.insert(
            u"response_format"_s,
            QJsonObject { { u"type"_s, u"json_schema"_s }, { u"json_schema"_s, jsonSchema } });
    }
    if (const auto tokens = maxTokens(request, config))
        body.insert(compatible ? u"max_tokens"_s : u"max_completion_tokens"_s, *tokens);
    if (const auto temp = temperature(request, config))
        body.insert(u"temperature"_s, *temp);
    body.insert(u"stream"_s, out.stream);
    if (out.stream)
        body.insert(u"stream_options"_s, QJsonObject { { u"include_usage"_s, true } });

    // Local OpenAI-compatible servers have no such fields.
    if (request.cache && config.type == EngineType::OpenAI)
        PromptCache::applyOpenAI(body, *request.cache);
    mergePatch(body, request.extraBody);
    out.body = body;
    return out;
}

FinishReason OpenAIChatCodec::mapFinishReason(const QString &raw, bool hasToolCalls,
                                              bool hasRefusal, QString *category)
{
    if (raw == u"content_filter") {
        if (category)
            *category = u"content_filter"_s;
        return FinishReason::Refusal;
    }
    if (hasRefusal)
        return FinishReason::Refusal;
    if (raw == u"length")
        return FinishReason::Length;
    if (raw == u"tool_calls" || raw == u"function_call" || hasToolCalls)
        return FinishReason::ToolCalls; // a forced tool may still say "stop"
    if (raw == u"stop")
        return FinishReason::Stop;
    return FinishReason::Other;
}

Usage OpenAIChatCodec::parseUsage(const QJsonObject &usage)
{
    const QJsonObject details = usage.value(u"prompt_tokens_details"_s).toObject();
    Usage out = usageFromInclusivePrompt(usage.value(u"prompt_tokens"_s).toInteger(),
                                         details.value(u"cached_tokens"_s).toInteger(),
                                         details.value(u"cache_write_tokens"_s).toInteger());
    out.outputTokens = usage.value(u"completion_tokens"_s).toInteger();
    out.reasoningTokens = usage.value(u"completion_tokens_details"_s)
                              .toObject()
                              .value(u"reasoning_tokens"_s)
                              .toInteger();
    return out;
}

std::optional<ModelReply> OpenAIChatCodec::parseReply(const QByteArray &body, QString *error) const
{
    const auto parsed = replyObject(body, error);
    if (!parsed)
        return std::nullopt;
    const QJsonObject root = *parsed;
    const QJsonArray choices = root.value(u"choices"_s).toArray();
    if (choices.isEmpty()) {
        if (error)
            *error =
                QCoreApplication::translate("Callscope::EngineCodec", "The reply has no choices.");
        return std::nullopt;
    }
    const QJsonObject choice = choices.first().toObject();
    const QJsonObject message = choice.value(u"message"_s).toObject();

    ModelReply reply;
    reply.message.role = Role::Assistant;
    reply.message.text = contentText(message.value(u"content"_s));
    reply.message.refusal = message.value(u"refusal"_s).toString();
    const QString reasoning = reasoningText(message);
    if (!reasoning.isEmpty())
        reply.message.providerData.insert(u"reasoning"_s, reasoning);
    const QJsonArray toolCalls = message.value(u"tool_calls"_s).toArray();
    for (const QJsonValue &value : toolCalls) {
        const QJsonObject object = value.toObject();
        const QJsonObject function = object.value(u"function"_s).toObject();
        const QJsonValue arguments = function.value(u"arguments"_s);
        const ToolCall call = makeToolCall(
            object.value(u"id"_s).toString(), function.value(u"name"_s).toString(),
            arguments.isObject() ? compactJson(arguments.toObject()) : arguments.toString());
        reply.message.toolCalls.append(call);
    }
    reply.rawFinishReason = choice.value(u"finish_reason"_s).toString();
    reply.finishReason = mapFinishReason(reply.rawFinishReason, !reply.message.toolCalls.isEmpty(),
                                         !reply.message.refusal.isEmpty(), &reply.refusalCategory);
    reply.usage = parseUsage(root.value(u"usage"_s).toObject());
    reply.responseId = root.value(u"id"_s).toString();
    reply.model = root.value(u"model"_s).toString();
    return reply;
}

std::unique_ptr<StreamAssembler> OpenAIChatCodec::createStreamAssembler() const
{
    return std::make_unique<ChatStreamAssembler>();
}

ApiError OpenAIChatCodec::parseOpenAIError(int httpStatus, const QByteArray &body)
{
    ApiError error = httpStatus > 0 ? errorForStatus(httpStatus) : ApiError {};
    const auto doc = parseJson(body);
    QJsonObject object;
    if (doc && doc->isObject()) {
        const QJsonObject root = doc->object();
        const QJsonValue inner = root.value(u"error"_s);
        if (inner.isObject())
            object = inner.toObject();
        else if (inner.isString()) // {"error": "text"} (some proxies and local servers)
            object = QJsonObject { { u"message"_s, inner } };
        else
            object = root; // flat {"object":"error","message",...}
    } else if (doc && doc->isArray() && doc->array().at(0).isObject()) {
        object = doc->array().at(0).toObject().value(u"error"_s).toObject();
    }
    const QString type = object.value(u"type"_s).toString();
    const QJsonValue codeValue = object.value(u"code"_s);
    const QString code = codeValue.isString() ? codeValue.toString() : QString();
    error.providerType = type.isEmpty() ? code : type;
    error.message = object.value(u"message"_s).toString();
    if (error.message.isEmpty() && !(doc && doc->isObject()))
        error.message = QString::fromUtf8(body.trimmed().left(500));
    refineError(error, type, code);
    return error;
}

ApiError OpenAIChatCodec::parseError(int httpStatus, const QByteArray &body) const
{
    return parseOpenAIError(httpStatus, body);
}

QJsonArray OpenAIChatCodec::toNative(const QString &system, const QList<Message> &messages) const
{
    const bool compatible = m_flavor == Flavor::Compatible;
    QJsonArray out;
    if (!system.isEmpty())
        out.append(QJsonObject { { u"role"_s, u"system"_s }, { u"content"_s, system } });

    const auto userContent = [](const QString &text,
                                const QList<Attachment> &attachments) -> QJsonValue {
        if (attachments.isEmpty())
            return text;
        QJsonArray parts;
        if (!text.isEmpty())
            parts.append(QJsonObject { { u"type"_s, u"text"_s }, { u"text"_s, text } });
        for (const Attachment &attachment : attachments) {
            if (attachment.isPlaceholder()) {
                parts.append(QJsonObject { { u"type"_s, u"text"_s },
                                           { u"text"_s, placeholderText(attachment) } });
            } else if (attachment.isImage()) {
                parts.append(QJsonObject {
                    { u"type"_s, u"image_url"_s },
                    { u"image_url"_s, QJsonObject { { u"url"_s, dataUri(attachment) } } } });
            } else if (isTextLike(attachment.mediaType)) {
                parts.append(QJsonObject {
                    { u"type"_s, u"text"_s },
                    { u"text"_s,
                      QString(attachment.name + u":\n"_s + QString::fromUtf8(attachment.data)) } });
            } else {
                parts.append(
                    QJsonObject { { u"type"_s, u"file"_s },
                                  { u"file"_s,
                                    QJsonObject { { u"filename"_s, attachment.name },
                                                  { u"file_data"_s, dataUri(attachment) } } } });
            }
        }
        return parts;
    };

    for (const Message &message : messages) {
        switch (message.role) {
        case Role::System:
            out.append(QJsonObject { { u"role"_s, u"system"_s }, { u"content"_s, message.text } });
            break;
        case Role::User:
            out.append(
                QJsonObject { { u"role"_s, u"user"_s },
                              { u"content"_s, userContent(message.text, message.attachments) } });
            break;
        case Role::Assistant: {
            QJsonObject object { { u"role"_s, u"assistant"_s } };
            if (!message.text.isEmpty())
                object = Json::withString(object, u"content",
                                          message.text); // a long text costs one copy
            else
                object.insert(u"content"_s, compatible ? QJsonValue(u""_s) : QJsonValue());
            if (!message.refusal.isEmpty() && !compatible)
                object.insert(u"refusal"_s, message.refusal);
            else if (!message.refusal.isEmpty() && message.text.isEmpty())
                object.insert(u"content"_s, message.refusal);
            if (!message.toolCalls.isEmpty()) {
                QJsonArray calls;
                for (const ToolCall &call : message.toolCalls) {
                    const QString arguments = call.rawArguments.isEmpty()
                        ? compactJson(call.arguments)
                        : call.rawArguments;
                    calls.append(QJsonObject { { u"id"_s, call.id },
                                               { u"type"_s, u"function"_s },
                                               { u"function"_s,
                                                 QJsonObject { { u"name"_s, call.name },
                                                               { u"arguments"_s, arguments } } } });
                }
                object.insert(u"tool_calls"_s, calls);
            }
            out.append(object);
            break;
        }
        case Role::Tool: {
            QList<Attachment> images;
            for (const ToolResult &result : message.toolResults) {
                out.append(QJsonObject { { u"role"_s, u"tool"_s },
                                         { u"tool_call_id"_s, result.callId },
                                         { u"content"_s, result.content } });
                images += result.images;
            }
            // Tool messages carry text only: images a tool returned follow as a user message.
            if (!images.isEmpty()) {
                out.append(QJsonObject {
                    { u"role"_s, u"user"_s },
                    { u"content"_s,
                      userContent(QCoreApplication::translate("Callscope::EngineCodec",
                                                              "Images returned by the tools:"),
                                  images) } });
            }
            break;
        }
        }
    }
    return out;
}

QList<Message> OpenAIChatCodec::fromNative(const QJsonArray &native) const
{
    QList<Message> out;
    QHash<QString, QString> names;
    for (const QJsonValue &value : native) {
        const QJsonObject object = value.toObject();
        const QString role = object.value(u"role"_s).toString();
        if (role == u"system" || role == u"developer") {
            out.append(Message::system(contentText(object.value(u"content"_s))));
        } else if (role == u"user") {
            Message message = Message::user({});
            const QJsonValue content = object.value(u"content"_s);
            if (content.isString()) {
                message.text = content.toString();
            } else {
                const QJsonArray parts = content.toArray();
                for (const QJsonValue &partValue : parts) {
                    const QJsonObject part = partValue.toObject();
                    const QString type = part.value(u"type"_s).toString();
                    if (type == u"text") {
                        message.text += part.value(u"text"_s).toString();
                    } else if (type == u"image_url") {
                        const Attachment a = attachmentFromDataUri(
                            part.value(u"image_url"_s).toObject().value(u"url"_s).toString(), {});
                        if (!a.mediaType.isEmpty())
                            message.attachments.append(a);
                    } else if (type == u"file") {
                        const QJsonObject file = part.value(u"file"_s).toObject();
                        const Attachment a =
                            attachmentFromDataUri(file.value(u"file_data"_s).toString(),
                                                  file.value(u"filename"_s).toString());
                        if (!a.mediaType.isEmpty())
                            message.attachments.append(a);
                    }
                }
            }
            out.append(message);
        } else if (role == u"assistant") {
            Message message = Message::assistant(contentText(object.value(u"content"_s)));
            message.refusal = object.value(u"refusal"_s).toString();
            const QJsonArray calls = object.value(u"tool_calls"_s).toArray();
            for (const QJsonValue &callValue : calls) {
                const QJsonObject callObject = callValue.toObject();
                const QJsonObject function = callObject.value(u"function"_s).toObject();
                const ToolCall call = makeToolCall(callObject.value(u"id"_s).toString(),
                                                   function.value(u"name"_s).toString(),
                                                   function.value(u"arguments"_s).toString());
                names.insert(call.id, call.name);
                message.toolCalls.append(call);
            }
            out.append(message);
        } else if (role == u"tool") {
            ToolResult result;
            result.callId = object.value(u"tool_call_id"_s).toString();
            result.name = names.value(result.callId);
            result.content = contentText(object.value(u"content"_s));
            appendToolResult(out, result);
        }
    }
    return out;
}

} // namespace Callscope
