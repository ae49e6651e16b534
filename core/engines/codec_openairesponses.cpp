#include "core/engines/codec_openairesponses.h"

#include "core/engines/codec_common.h"
#include "core/engines/codec_openaichat.h"
#include "core/engines/promptcache.h"
#include "core/model/jsonwriter.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QMap>

using namespace Qt::StringLiterals;

namespace Callscope {

using namespace CodecCommon;

namespace {

// Reads one output item into the reply being built.
void absorbOutputItem(const QJsonObject &item, Message &message, QJsonArray &reasoningItems)
{
    const QString type = item.value(u"type"_s).toString();
    if (type == u"message") {
        const QJsonArray content = item.value(u"content"_s).toArray();
        for (const QJsonValue &partValue : content) {
            const QJsonObject part = partValue.toObject();
            const QString partType = part.value(u"type"_s).toString();
            if (partType == u"output_text")
                message.text += part.value(u"text"_s).toString();
            else if (partType == u"refusal")
                message.refusal += part.value(u"refusal"_s).toString();
        }
    } else if (type == u"function_call") {
        ToolCall call =
            makeToolCall(item.value(u"call_id"_s).toString(), item.value(u"name"_s).toString(),
                         item.value(u"arguments"_s).toString());
        const QString itemId = item.value(u"id"_s).toString();
        if (!itemId.isEmpty())
            call.providerData.insert(u"item_id"_s, itemId);
        message.toolCalls.append(call);
    } else if (type == u"reasoning") {
        reasoningItems.append(item);
    }
}

class ResponsesStreamAssembler final : public TextStreamAssembler
{
public:
    bool handleEvent(const SseEvent &event) override;
    ModelReply reply() const override;

private:
    struct PendingCall
    {
        QString itemId;
        QString callId;
        QString name;
        QString arguments;
        bool argumentsDone = false;
    };
    PendingCall &callFor(const JsonRef &data);
    int keyOf(const PendingCall &call) const;
    // The call's final arguments: what did not come as deltas goes to onToolArgumentsDelta.
    void finishArguments(PendingCall &call, const QString &arguments, int key);

    QMap<int, PendingCall> m_calls; // by output_index
    QJsonArray m_reasoning;
    QString m_status;
    QString m_incompleteReason;
};

ResponsesStreamAssembler::PendingCall &ResponsesStreamAssembler::callFor(const JsonRef &data)
{
    const QString itemId = data.value("item_id"_L1).toString();
    if (!itemId.isEmpty()) {
        for (auto it = m_calls.begin(); it != m_calls.end(); ++it) {
            if (it->itemId == itemId)
                return *it;
        }
    }
    PendingCall &call = m_calls[data.value("output_index"_L1).toInt()];
    if (call.itemId.isEmpty())
        call.itemId = itemId;
    return call;
}

int ResponsesStreamAssembler::keyOf(const PendingCall &call) const
{
    for (auto it = m_calls.cbegin(); it != m_calls.cend(); ++it) {
        if (&*it == &call)
            return it.key();
    }
    return -1;
}

void ResponsesStreamAssembler::finishArguments(PendingCall &call, const QString &arguments, int key)
{
    if (call.argumentsDone) {
        call.arguments = arguments;
        return;
    }
    // Servers that skip the deltas send the arguments whole here; the part not yet handed on
    // goes out now (all of it when the final text is not a continuation of the deltas).
    if (onToolArgumentsDelta && arguments.size() > call.arguments.size()
        && arguments.startsWith(call.arguments))
        onToolArgumentsDelta(key, call.name, arguments.sliced(call.arguments.size()));
    call.arguments = arguments;
    call.argumentsDone = true;
}

bool ResponsesStreamAssembler::handleEvent(const SseEvent &event)
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

    if (type == u"error" || (type.isEmpty() && data.value("error"_L1).isObject())) {
        ApiError error;
        const JsonRef body = data.value("error"_L1).isObject() ? data.value("error"_L1) : data;
        const QString code = body.value("code"_L1).toString();
        const QString errorType = body.value("type"_L1).toString();
        error.providerType = code.isEmpty() ? errorType : code;
        error.message = body.value("message"_L1).toString();
        refineError(error, errorType, code);
        return fail(error);
    }
    if (type == u"response.created" || type == u"response.in_progress") {
        const JsonRef response = data.value("response"_L1).toObject();
        m_id = response.value("id"_L1).toString(m_id);
        m_model = response.value("model"_L1).toString(m_model);
    } else if (type == u"response.output_item.added" || type == u"response.output_item.done") {
        const JsonRef item = data.value("item"_L1).toObject();
        const QString itemType = item.value("type"_L1).toString();
        if (itemType == u"function_call") {
            PendingCall &call = m_calls[data.value("output_index"_L1).toInt()];
            call.itemId = item.value("id"_L1).toString(call.itemId);
            call.callId = item.value("call_id"_L1).toString(call.callId);
            call.name = item.value("name"_L1).toString(call.name);
            if (type == u"response.output_item.done" && item.value("arguments"_L1).isString()) {
                finishArguments(call, item.value("arguments"_L1).toString(),
                                data.value("output_index"_L1).toInt());
            }
            m_hasContent = true;
        } else if (itemType == u"reasoning" && type == u"response.output_item.done") {
            m_reasoning.append(item.toQtObject());
        }
    } else if (type == u"response.output_text.delta") {
        appendText(data.value("delta"_L1).toString());
    } else if (type == u"response.refusal.delta") {
        appendRefusal(data.value("delta"_L1).toString());
    } else if (type == u"response.function_call_arguments.delta") {
        PendingCall &call = callFor(data);
        const QString fragment = data.value("delta"_L1).toString();
        if (!call.argumentsDone) {
            call.arguments += fragment;
            if (!fragment.isEmpty() && onToolArgumentsDelta)
                onToolArgumentsDelta(keyOf(call), call.name, fragment);
        }
        m_hasContent = true;
    } else if (type == u"response.function_call_arguments.done") {
        PendingCall &call = callFor(data);
        call.name = data.value("name"_L1).toString(call.name);
        finishArguments(call, data.value("arguments"_L1).toString(call.arguments), keyOf(call));
    } else if (type == u"response.completed" || type == u"response.incomplete") {
        const JsonRef response = data.value("response"_L1).toObject();
        m_status = response.value("status"_L1)
                       .toString(type == u"response.completed" ? u"completed"_s : u"incomplete"_s);
        m_incompleteReason =
            response.value("incomplete_details"_L1).toObject().value("reason"_L1).toString();
        m_usage = OpenAIResponsesCodec::parseUsage(response.value("usage"_L1).toQtObject());
        m_id = response.value("id"_L1).toString(m_id);
        m_model = response.value("model"_L1).toString(m_model);
        m_done = true;
    } else if (type == u"response.failed") {
        const JsonRef response = data.value("response"_L1).toObject();
        const JsonRef errorObject = response.value("error"_L1).toObject();
        ApiError error;
        error.providerType = errorObject.value("code"_L1).toString();
        error.message = errorObject.value("message"_L1).toString();
        refineError(error, error.providerType, error.providerType);
        return fail(error);
    }
    // Every other event type (about 60 exist) is ignored.
    return true;
}

ModelReply ResponsesStreamAssembler::reply() const
{
    ModelReply reply = baseReply();
    if (!m_reasoning.isEmpty())
        reply.message.providerData.insert(u"reasoning_items"_s, m_reasoning);
    for (const PendingCall &pending : m_calls) {
        ToolCall call = makeToolCall(pending.callId, pending.name, pending.arguments);
        if (!pending.itemId.isEmpty())
            call.providerData.insert(u"item_id"_s, pending.itemId);
        reply.message.toolCalls.append(call);
    }
    reply.finishReason = OpenAIResponsesCodec::mapFinish(
        m_status, m_incompleteReason, !reply.message.toolCalls.isEmpty(), !m_refusal.isEmpty(),
        &reply.rawFinishReason, &reply.refusalCategory);
    return reply;
}

QJsonValue inputContent(const QString &text, const QList<Attachment> &attachments)
{
    if (attachments.isEmpty())
        return text;
    QJsonArray parts;
    if (!text.isEmpty())
        parts.append(QJsonObject { { u"type"_s, u"input_text"_s }, { u"text"_s, text } });
    for (const Attachment &attachment : attachments) {
        if (attachment.isPlaceholder()) {
            parts.append(QJsonObject { { u"type"_s, u"input_text"_s },
                                       { u"text"_s, placeholderText(attachment) } });
        } else if (attachment.isImage()) {
            parts.append(QJsonObject { { u"type"_s, u"input_image"_s },
                                       { u"image_url"_s, dataUri(attachment) },
                                       { u"detail"_s, u"auto"_s } });
        } else if (isTextLike(attachment.mediaType)) {
            parts.append(QJsonObject {
                { u"type"_s, u"input_text"_s },
                { u"text"_s,
                  QString(attachment.name + u":\n"_s + QString::fromUtf8(attachment.data)) } });
        } else {
            parts.append(QJsonObject { { u"type"_s, u"input_file"_s },
                                       { u"filename"_s, attachment.name },
                                       { u"file_data"_s, dataUri(attachment) } });
        }
    }
    return parts;
}

} // namespace

HttpRequestData OpenAIResponsesCodec::buildRequest(const ChatRequest &request,
                                                   const EngineConfig &config) const
{
    HttpRequestData out;
    out.url = endpointUrl(config.baseUrl, u"https://api.openai.com"_s, u"/v1/responses"_s);
    out.headers = jsonRequestHeaders("Authorization"_ba, config.apiKey, "Bearer "_ba);
    out.stream = streaming(request, config);

    QJsonObject body;
    body.insert(u"model"_s, config.model);
    body.insert(u"input"_s, toNative(request.system, request.messages));
    if (!request.tools.isEmpty()) {
        QJsonArray tools;
        for (const ToolDeclaration &tool : request.tools) {
            QJsonObject object { { u"type"_s, u"function"_s }, { u"name"_s, tool.name } };
            if (!tool.description.isEmpty())
                object.insert(u"description"_s, tool.description);
            object.insert(
                u"parameters"_s,
                tool.inputSchema.isEmpty()
                    ? QJsonObject { { u"type"_s, u"object"_s }, { u"properties"_s, QJsonObject() } }
                    : tool.inputSchema);
            object.insert(u"strict"_s, tool.strict); // the API defaults to true: say it
            tools.append(object);
        }
        body.insert(u"tools"_s, tools);
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
            body.insert(
                u"tool_choice"_s,
                QJsonObject { { u"type"_s, u"function"_s }, { u"name"_s, request.forcedTool } });
            break;
        }
        body.insert(u"parallel_tool_calls"_s, request.parallelToolCalls);
    }
    if (request.responseSchema) {
        body.insert(u"text"_s,
                    QJsonObject { { u"format"_s,
                                    QJsonObject { { u"type"_s, u"json_schema"_s },
                                                  { u"name"_s, request.responseSchemaName },
                                                  { u"schema"_s, *request.responseSchema },
                                                  { u"strict"_s, true } } } });
    }
    if (const auto tokens = maxTokens(request, config))
        body.insert(u"max_output_tokens"_s, *tokens);
    if (const auto temp = temperature(request, config))
        body.insert(u"temperature"_s, *temp);
    body.insert(u"stream"_s, out.stream);
    if (request.cache && config.type != EngineType::OpenAICompatible)
        PromptCache::applyOpenAI(body, *request.cache);
    mergePatch(body, request.extraBody);
    out.body = body;
    return out;
}

Usage OpenAIResponsesCodec::parseUsage(const QJsonObject &usage)
{
    const QJsonObject details = usage.value(u"input_tokens_details"_s).toObject();
    Usage out = usageFromInclusivePrompt(usage.value(u"input_tokens"_s).toInteger(),
                                         details.value(u"cached_tokens"_s).toInteger(),
                                         details.value(u"cache_write_tokens"_s).toInteger());
    out.outputTokens = usage.value(u"output_tokens"_s).toInteger();
    out.reasoningTokens =
        usage.value(u"output_tokens_details"_s).toObject().value(u"reasoning_tokens"_s).toInteger();
    return out;
}

FinishReason OpenAIResponsesCodec::mapFinish(const QString &status, const QString &incompleteReason,
                                             bool hasToolCalls, bool hasRefusal, QString *rawFinish,
                                             QString *category)
{
    if (rawFinish)
        *rawFinish =
            status == u"incomplete" && !incompleteReason.isEmpty() ? incompleteReason : status;
    if (status == u"incomplete") {
        if (incompleteReason == u"content_filter") {
            if (category)
                *category = u"content_filter"_s;
            return FinishReason::Refusal;
        }
        if (incompleteReason == u"max_output_tokens")
            return FinishReason::Length;
        return FinishReason::Other;
    }
    if (hasRefusal)
        return FinishReason::Refusal;
    if (hasToolCalls)
        return FinishReason::ToolCalls;
    if (status == u"completed")
        return FinishReason::Stop;
    return FinishReason::Other;
}

ModelReply OpenAIResponsesCodec::replyFromResponse(const QJsonObject &response)
{
    ModelReply reply;
    reply.message.role = Role::Assistant;
    QJsonArray reasoning;
    const QJsonArray output = response.value(u"output"_s).toArray();
    for (const QJsonValue &item : output)
        absorbOutputItem(item.toObject(), reply.message, reasoning);
    if (!reasoning.isEmpty())
        reply.message.providerData.insert(u"reasoning_items"_s, reasoning);
    reply.finishReason =
        mapFinish(response.value(u"status"_s).toString(),
                  response.value(u"incomplete_details"_s).toObject().value(u"reason"_s).toString(),
                  !reply.message.toolCalls.isEmpty(), !reply.message.refusal.isEmpty(),
                  &reply.rawFinishReason, &reply.refusalCategory);
    reply.usage = parseUsage(response.value(u"usage"_s).toObject());
    reply.responseId = response.value(u"id"_s).toString();
    reply.model = response.value(u"model"_s).toString();
    return reply;
}

std::optional<ModelReply> OpenAIResponsesCodec::parseReply(const QByteArray &body,
                                                           QString *error) const
{
    const auto parsed = replyObject(body, error);
    if (!parsed)
        return std::nullopt;
    const QJsonObject response = *parsed;
    if (response.value(u"status"_s).toString() == u"failed") {
        if (error)
            *error = response.value(u"error"_s).toObject().value(u"message"_s).toString();
        return std::nullopt;
    }
    return replyFromResponse(response);
}

std::unique_ptr<StreamAssembler> OpenAIResponsesCodec::createStreamAssembler() const
{
    return std::make_unique<ResponsesStreamAssembler>();
}

ApiError OpenAIResponsesCodec::parseError(int httpStatus, const QByteArray &body) const
{
    return OpenAIChatCodec::parseOpenAIError(httpStatus, body);
}

QJsonArray OpenAIResponsesCodec::toNative(const QString &system,
                                          const QList<Message> &messages) const
{
    QJsonArray out;
    const auto message = [](const QString &role, const QJsonValue &content) {
        return QJsonObject { { u"type"_s, u"message"_s },
                             { u"role"_s, role },
                             { u"content"_s, content } };
    };
    if (!system.isEmpty())
        out.append(message(u"system"_s, system));
    for (const Message &m : messages) {
        switch (m.role) {
        case Role::System:
            out.append(message(u"system"_s, m.text));
            break;
        case Role::User:
            out.append(message(u"user"_s, inputContent(m.text, m.attachments)));
            break;
        case Role::Assistant: {
            const QJsonArray reasoning = m.providerData.value(u"reasoning_items"_s).toArray();
            for (const QJsonValue &item : reasoning)
                out.append(item);
            if (!m.text.isEmpty())
                out.append(Json::withString(
                    QJsonObject { { u"type"_s, u"message"_s }, { u"role"_s, u"assistant"_s } },
                    u"content", m.text));
            else if (!m.refusal.isEmpty())
                out.append(message(u"assistant"_s, m.refusal));
            for (const ToolCall &call : m.toolCalls) {
                QJsonObject item { { u"type"_s, u"function_call"_s },
                                   { u"call_id"_s, call.id },
                                   { u"name"_s, call.name },
                                   { u"arguments"_s,
                                     call.rawArguments.isEmpty() ? compactJson(call.arguments)
                                                                 : call.rawArguments } };
                const QString itemId = call.providerData.value(u"item_id"_s).toString();
                if (!itemId.isEmpty())
                    item.insert(u"id"_s, itemId);
                out.append(item);
            }
            break;
        }
        case Role::Tool:
            for (const ToolResult &result : m.toolResults) {
                QJsonValue output = result.content;
                if (!result.images.isEmpty()) {
                    QJsonArray parts = inputContent(result.content, result.images).toArray();
                    output = parts;
                }
                out.append(QJsonObject { { u"type"_s, u"function_call_output"_s },
                                         { u"call_id"_s, result.callId },
                                         { u"output"_s, output } });
            }
            break;
        }
    }
    return out;
}

QList<Message> OpenAIResponsesCodec::fromNative(const QJsonArray &native) const
{
    QList<Message> out;
    QHash<QString, QString> names;
    const auto textOf = [](const QJsonValue &content) {
        if (content.isString())
            return content.toString();
        QString text;
        const QJsonArray parts = content.toArray();
        for (const QJsonValue &part : parts) {
            const QJsonObject object = part.toObject();
            const QString type = object.value(u"type"_s).toString();
            if (type == u"input_text" || type == u"output_text" || type == u"text")
                text += object.value(u"text"_s).toString();
        }
        return text;
    };
    const auto assistant = [&out]() -> Message & {
        if (out.isEmpty() || out.last().role != Role::Assistant)
            out.append(Message::assistant({}));
        return out.last();
    };
    for (const QJsonValue &value : native) {
        const QJsonObject item = value.toObject();
        const QString type = item.value(u"type"_s).toString(u"message"_s);
        if (type == u"message") {
            const QString role = item.value(u"role"_s).toString();
            if (role == u"system" || role == u"developer") {
                out.append(Message::system(textOf(item.value(u"content"_s))));
            } else if (role == u"user") {
                Message message = Message::user(textOf(item.value(u"content"_s)));
                const QJsonArray parts = item.value(u"content"_s).toArray();
                for (const QJsonValue &part : parts) {
                    const QJsonObject object = part.toObject();
                    const QString partType = object.value(u"type"_s).toString();
                    QString uri;
                    QString name;
                    if (partType == u"input_image") {
                        uri = object.value(u"image_url"_s).toString();
                    } else if (partType == u"input_file") {
                        uri = object.value(u"file_data"_s).toString();
                        name = object.value(u"filename"_s).toString();
                    }
                    const qsizetype comma = uri.indexOf(u',');
                    if (uri.startsWith(u"data:") && comma > 0) {
                        message.attachments.append(Attachment::fromData(
                            name, uri.mid(5, comma - 5).section(u';', 0, 0),
                            QByteArray::fromBase64(uri.sliced(comma + 1).toLatin1())));
                    }
                }
                out.append(message);
            } else if (role == u"assistant") {
                Message &message = assistant();
                QJsonValue content = item.value(u"content"_s);
                message.text += textOf(content);
                const QJsonArray parts = content.toArray();
                for (const QJsonValue &part : parts) {
                    if (part.toObject().value(u"type"_s).toString() == u"refusal")
                        message.refusal += part.toObject().value(u"refusal"_s).toString();
                }
            }
        } else if (type == u"reasoning") {
            Message &message = assistant();
            QJsonArray items = message.providerData.value(u"reasoning_items"_s).toArray();
            items.append(item);
            message.providerData.insert(u"reasoning_items"_s, items);
        } else if (type == u"function_call") {
            Message &message = assistant();
            ToolCall call =
                makeToolCall(item.value(u"call_id"_s).toString(), item.value(u"name"_s).toString(),
                             item.value(u"arguments"_s).toString());
            if (item.contains(u"id"_s))
                call.providerData.insert(u"item_id"_s, item.value(u"id"_s).toString());
            names.insert(call.id, call.name);
            message.toolCalls.append(call);
        } else if (type == u"function_call_output") {
            ToolResult result;
            result.callId = item.value(u"call_id"_s).toString();
            result.name = names.value(result.callId);
            result.content = textOf(item.value(u"output"_s));
            appendToolResult(out, result);
        }
    }
    return out;
}

} // namespace Callscope
