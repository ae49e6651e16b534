#include "core/engines/codec_gemini.h"

#include "core/engines/codec_common.h"
#include "core/model/jsonwriter.h"

#include <QCoreApplication>
#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace Callscope {

using namespace CodecCommon;

namespace {

bool isSafetyFinish(const QString &raw)
{
    static const QStringList safety { u"SAFETY"_s,
                                      u"RECITATION"_s,
                                      u"BLOCKLIST"_s,
                                      u"PROHIBITED_CONTENT"_s,
                                      u"SPII"_s,
                                      u"IMAGE_SAFETY"_s,
                                      u"IMAGE_PROHIBITED_CONTENT"_s,
                                      u"IMAGE_RECITATION"_s };
    return safety.contains(raw);
}

// The tool call of a `functionCall` part, its thought signature kept. The id stays empty when
// the part has none (older models): the caller generates one.
ToolCall functionCallOf(const QJsonObject &function, const QString &signature)
{
    ToolCall call;
    call.id = function.value(u"id"_s).toString();
    call.name = function.value(u"name"_s).toString();
    call.arguments = function.value(u"args"_s).toObject();
    call.rawArguments = compactJson(call.arguments);
    if (!signature.isEmpty())
        call.providerData.insert(u"thoughtSignature"_s, signature);
    return call;
}

QString blockedText(const QString &reason)
{
    return QCoreApplication::translate("Callscope::EngineCodec", "The response was blocked (%1).")
        .arg(reason);
}

ApiError geminiError(int httpStatus, const QJsonObject &inner)
{
    const int code = inner.value(u"code"_s).toInt();
    ApiError error = httpStatus > 0 ? errorForStatus(httpStatus)
                                    : (code > 0 ? errorForStatus(code) : ApiError {});
    if (httpStatus == 0)
        error.httpStatus = 0; // a mid-stream error: no HTTP status of its own
    error.providerType = inner.value(u"status"_s).toString();
    error.message = inner.value(u"message"_s).toString();
    refineError(error, error.providerType, {});
    const QJsonArray details = inner.value(u"details"_s).toArray();
    for (const QJsonValue &detailValue : details) {
        const QJsonObject detail = detailValue.toObject();
        if (!detail.value(u"@type"_s).toString().endsWith(u"google.rpc.RetryInfo"))
            continue;
        QString delay = detail.value(u"retryDelay"_s).toString(); // "37s" or "1.5s"
        if (delay.endsWith(u's')) {
            delay.chop(1);
            bool ok = false;
            const double seconds = delay.toDouble(&ok);
            if (ok && seconds >= 0)
                error.retryAfterMs = qint64(seconds * 1000);
        }
    }
    return error;
}

// The error object of an error body: {"error":{...}} or [{"error":{...}}].
std::optional<QJsonObject> errorObject(const QJsonDocument &doc)
{
    QJsonObject root;
    if (doc.isArray())
        root = doc.array().at(0).toObject();
    else
        root = doc.object();
    if (root.value(u"error"_s).isObject())
        return root.value(u"error"_s).toObject();
    return std::nullopt;
}

// Accumulates GenerateContentResponse chunks (one for a plain reply, many for a stream).
class GeminiAccumulator
{
public:
    // Returns the text of this chunk (for text deltas).
    QString absorb(const QJsonObject &chunk)
    {
        QString newText;
        if (m_responseId.isEmpty())
            m_responseId = chunk.value(u"responseId"_s).toString();
        if (m_model.isEmpty())
            m_model = chunk.value(u"modelVersion"_s).toString();
        if (chunk.value(u"usageMetadata"_s).isObject())
            m_usage = chunk.value(u"usageMetadata"_s).toObject(); // repeated: the last one wins
        const QString blockReason =
            chunk.value(u"promptFeedback"_s).toObject().value(u"blockReason"_s).toString();
        if (!blockReason.isEmpty()) {
            m_blockReason = blockReason;
            m_blockMessage = chunk.value(u"promptFeedback"_s)
                                 .toObject()
                                 .value(u"blockReasonMessage"_s)
                                 .toString();
            m_finished = true;
        }
        const QJsonArray candidates = chunk.value(u"candidates"_s).toArray();
        if (candidates.isEmpty())
            return newText;
        m_sawCandidate = true;
        const QJsonObject candidate = candidates.first().toObject();
        const QJsonArray parts =
            candidate.value(u"content"_s).toObject().value(u"parts"_s).toArray();
        for (const QJsonValue &partValue : parts) {
            const QJsonObject part = partValue.toObject();
            const QString signature = part.value(u"thoughtSignature"_s).toString();
            if (part.value(u"functionCall"_s).isObject()) {
                ToolCall call = functionCallOf(part.value(u"functionCall"_s).toObject(), signature);
                if (call.id.isEmpty())
                    call.id =
                        GeminiCodec::generatedCallId(m_responseId, int(m_message.toolCalls.size()));
                m_message.toolCalls.append(call);
                m_hasContent = true;
            } else if (part.value(u"text"_s).isString()) {
                const QString text = part.value(u"text"_s).toString();
                if (part.value(u"thought"_s).toBool()) {
                    m_thoughts += text;
                } else {
                    m_message.text += text;
                    newText += text;
                    if (!text.isEmpty())
                        m_hasContent = true;
                }
                if (!signature.isEmpty() && !m_message.providerData.contains(u"thoughtSignature"_s))
                    m_message.providerData.insert(u"thoughtSignature"_s, signature);
            }
        }
        const QString finish = candidate.value(u"finishReason"_s).toString();
        if (!finish.isEmpty()) {
            m_finish = finish;
            m_finished = true;
        }
        return newText;
    }

    ModelReply reply() const
    {
        ModelReply reply;
        reply.message = m_message;
        reply.message.role = Role::Assistant;
        if (!m_thoughts.isEmpty())
            reply.message.providerData.insert(u"thoughts"_s, m_thoughts);
        reply.usage = GeminiCodec::parseUsage(m_usage);
        reply.responseId = m_responseId;
        reply.model = m_model;
        if (!m_blockReason.isEmpty() && !m_sawCandidate) {
            reply.finishReason = FinishReason::Refusal;
            reply.rawFinishReason = m_blockReason;
            reply.refusalCategory = m_blockReason;
            reply.message.refusal =
                m_blockMessage.isEmpty() ? blockedText(m_blockReason) : m_blockMessage;
            return reply;
        }
        reply.rawFinishReason = m_finish;
        reply.finishReason = GeminiCodec::mapFinishReason(m_finish, !m_message.toolCalls.isEmpty(),
                                                          &reply.refusalCategory);
        if (reply.finishReason == FinishReason::Refusal && reply.message.refusal.isEmpty())
            reply.message.refusal = blockedText(m_finish);
        return reply;
    }

    bool finished() const { return m_finished; }
    bool hasContent() const { return m_hasContent; }
    const QList<ToolCall> &toolCalls() const { return m_message.toolCalls; }

private:
    Message m_message = Message::assistant({});
    QString m_thoughts;
    QJsonObject m_usage;
    QString m_responseId;
    QString m_model;
    QString m_finish;
    QString m_blockReason;
    QString m_blockMessage;
    bool m_sawCandidate = false;
    bool m_finished = false;
    bool m_hasContent = false;
};

class GeminiStreamAssembler final : public StreamAssembler
{
public:
    bool handleEvent(const SseEvent &event) override
    {
        if (m_error)
            return false;
        if (event.data.trimmed().isEmpty())
            return true;
        QString parseError;
        const auto doc = parseJson(event.data, &parseError);
        if (!doc) {
            m_error = malformedEventError(event, parseError);
            return false;
        }
        // Without alt=sse (or in the raw JSON fallback) chunks come as one JSON array.
        QJsonArray chunks;
        if (doc->isArray())
            chunks = doc->array();
        else
            chunks.append(doc->object());
        for (const QJsonValue &chunkValue : std::as_const(chunks)) {
            const QJsonObject chunk = chunkValue.toObject();
            if (chunk.value(u"error"_s).isObject()) {
                m_error = geminiError(0, chunk.value(u"error"_s).toObject());
                return false;
            }
            const qsizetype callsBefore = m_accumulator.toolCalls().size();
            const QString text = m_accumulator.absorb(chunk);
            if (!text.isEmpty() && onTextDelta)
                onTextDelta(text);
            // Gemini sends each call's arguments whole, in one part.
            const QList<ToolCall> &calls = m_accumulator.toolCalls();
            for (qsizetype i = callsBefore; onToolArgumentsDelta && i < calls.size(); ++i)
                onToolArgumentsDelta(int(i), calls.at(i).name, calls.at(i).rawArguments);
        }
        return true;
    }
    bool isComplete() const override { return m_accumulator.finished(); }
    bool hasContent() const override { return m_accumulator.hasContent(); }
    std::optional<ApiError> error() const override { return m_error; }
    ModelReply reply() const override { return m_accumulator.reply(); }

private:
    GeminiAccumulator m_accumulator;
    std::optional<ApiError> m_error;
};

QJsonObject inlineData(const Attachment &attachment)
{
    return QJsonObject { { u"inlineData"_s,
                           QJsonObject {
                               { u"mimeType"_s, attachment.mediaType },
                               { u"data"_s, QString::fromLatin1(attachment.data.toBase64()) } } } };
}

void appendAttachments(QJsonArray &parts, const QList<Attachment> &attachments)
{
    for (const Attachment &attachment : attachments) {
        if (attachment.isPlaceholder())
            parts.append(QJsonObject { { u"text"_s, placeholderText(attachment) } });
        else
            parts.append(inlineData(attachment));
    }
}

} // namespace

QString GeminiCodec::generatedCallId(const QString &responseId, int index)
{
    if (responseId.isEmpty())
        return u"call_"_s + QString::number(index);
    return u"call_"_s + responseId + u'_' + QString::number(index);
}

HttpRequestData GeminiCodec::buildRequest(const ChatRequest &request,
                                          const EngineConfig &config) const
{
    HttpRequestData out;
    out.stream = streaming(request, config);
    QString model = config.model;
    if (model.startsWith(u"models/"))
        model = model.sliced(7);
    const QString method = out.stream ? u":streamGenerateContent"_s : u":generateContent"_s;
    out.url =
        endpointUrl(config.baseUrl, u"https://generativelanguage.googleapis.com"_s,
                    u"/v1beta/models/"_s + model + method, out.stream ? u"alt=sse"_s : QString());
    out.headers = jsonRequestHeaders("x-goog-api-key"_ba, config.apiKey);

    QJsonObject body;
    body.insert(u"contents"_s, toNative(request.system, request.messages));
    if (!request.system.isEmpty())
        body.insert(
            u"systemInstruction"_s,
            QJsonObject {
                { u"parts"_s, QJsonArray { QJsonObject { { u"text"_s, request.system } } } } });
    if (!request.tools.isEmpty()) {
        QJsonArray declarations;
        for (const ToolDeclaration &tool : request.tools) {
            QJsonObject declaration { { u"name"_s, tool.name },
                                      { u"description"_s, tool.description } };
            declaration.insert(u"parametersJsonSchema"_s,
                               tool.inputSchema.isEmpty()
                                   ? QJsonObject { { u"type"_s, u"object"_s } }
                                   : tool.inputSchema);
            declarations.append(declaration);
        }
        body.insert(u"tools"_s,
                    QJsonArray { QJsonObject { { u"functionDeclarations"_s, declarations } } });
        // AUTO is the default; other modes are sent. Gemini has no parallel switch.
        QJsonObject callingConfig;
        switch (request.toolChoice) {
        case ToolChoiceMode::Auto:
            break;
        case ToolChoiceMode::None:
            callingConfig.insert(u"mode"_s, u"NONE"_s);
            break;
        case ToolChoiceMode::Required:
            callingConfig.insert(u"mode"_s, u"ANY"_s);
            break;
        case ToolChoiceMode::Force:
            callingConfig.insert(u"mode"_s, u"ANY"_s);
            callingConfig.insert(u"allowedFunctionNames"_s, QJsonArray { request.forcedTool });
            break;
        }
        if (!callingConfig.isEmpty())
            body.insert(u"toolConfig"_s,
                        QJsonObject { { u"functionCallingConfig"_s, callingConfig } });
    }
    QJsonObject generation;
    if (const auto tokens = maxTokens(request, config))
        generation.insert(u"maxOutputTokens"_s, *tokens);
    if (const auto temp = temperature(request, config))
        generation.insert(u"temperature"_s, *temp);
    if (request.responseSchema) {
        generation.insert(u"responseMimeType"_s, u"application/json"_s);
        generation.insert(u"responseJsonSchema"_s, *request.responseSchema);
    }
    if (!generation.isEmpty())
        body.insert(u"generationConfig"_s, generation);
    if (!request.cachedContent.isEmpty()) {
        // The cached content holds the system instruction, the tools and their config; a
        // request that names it may not send them again.
        body.remove(u"systemInstruction"_s);
        body.remove(u"tools"_s);
        body.remove(u"toolConfig"_s);
        body.insert(u"cachedContent"_s, request.cachedContent);
    }
    mergePatch(body, request.extraBody);
    out.body = body;
    return out;
}

Usage GeminiCodec::parseUsage(const QJsonObject &usage)
{
    Usage out =
        usageFromInclusivePrompt(usage.value(u"promptTokenCount"_s).toInteger()
                                     + usage.value(u"toolUsePromptTokenCount"_s).toInteger(),
                                 usage.value(u"cachedContentTokenCount"_s).toInteger());
    out.reasoningTokens = usage.value(u"thoughtsTokenCount"_s).toInteger();
    out.outputTokens = usage.value(u"candidatesTokenCount"_s).toInteger() + out.reasoningTokens;
    return out;
}

FinishReason GeminiCodec::mapFinishReason(const QString &raw, bool hasToolCalls, QString *category)
{
    if (raw == u"STOP")
        return hasToolCalls ? FinishReason::ToolCalls : FinishReason::Stop;
    if (raw == u"MAX_TOKENS")
        return FinishReason::Length;
    if (isSafetyFinish(raw)) {
        if (category)
            *category = raw;
        return FinishReason::Refusal;
    }
    if (raw.isEmpty() && hasToolCalls)
        return FinishReason::ToolCalls;
    return FinishReason::Other;
}

std::optional<ModelReply> GeminiCodec::parseReply(const QByteArray &body, QString *error) const
{
    QString parseError;
    const auto doc = parseJson(body, &parseError);
    if (!doc) {
        if (error)
            *error =
                QCoreApplication::translate("Callscope::EngineCodec", "The reply is not JSON: %1")
                    .arg(parseError);
        return std::nullopt;
    }
    if (const auto errorObj = errorObject(*doc)) {
        if (error)
            *error = errorObj->value(u"message"_s).toString();
        return std::nullopt;
    }
    GeminiAccumulator accumulator;
    if (doc->isArray()) {
        const QJsonArray chunks = doc->array();
        for (const QJsonValue &chunk : chunks)
            accumulator.absorb(chunk.toObject());
    } else {
        accumulator.absorb(doc->object());
    }
    return accumulator.reply();
}

std::unique_ptr<StreamAssembler> GeminiCodec::createStreamAssembler() const
{
    return std::make_unique<GeminiStreamAssembler>();
}

ApiError GeminiCodec::parseError(int httpStatus, const QByteArray &body) const
{
    const auto doc = parseJson(body);
    const auto inner = doc ? errorObject(*doc) : std::nullopt;
    if (!inner)
        return statusError(httpStatus, body);
    return geminiError(httpStatus, *inner);
}

QJsonArray GeminiCodec::toNative(const QString &system, const QList<Message> &messages) const
{
    Q_UNUSED(system) // systemInstruction, see buildRequest
    QJsonArray out;
    const auto append = [&out](const QString &role, const QJsonArray &parts) {
        appendAlternatingTurn(out, role, u"parts"_s, parts);
    };
    for (const Message &message : messages) {
        switch (message.role) {
        case Role::System:
        case Role::User: {
            QJsonArray parts;
            if (!message.text.isEmpty())
                parts.append(QJsonObject { { u"text"_s, message.text } });
            appendAttachments(parts, message.attachments);
            append(u"user"_s, parts);
            break;
        }
        case Role::Assistant: {
            QJsonArray parts;
            const QString text = message.text.isEmpty() ? message.refusal : message.text;
            if (!text.isEmpty()) {
                QJsonObject part;
                const QString signature =
                    message.providerData.value(u"thoughtSignature"_s).toString();
                if (!signature.isEmpty())
                    part.insert(u"thoughtSignature"_s, signature);
                part = Json::withString(part, u"text", text);
                parts.append(part);
            }
            for (const ToolCall &call : message.toolCalls) {
                QJsonObject function { { u"name"_s, call.name }, { u"args"_s, call.arguments } };
                if (!call.id.isEmpty())
                    function.insert(u"id"_s, call.id);
                QJsonObject part { { u"functionCall"_s, function } };
                const QString signature = call.providerData.value(u"thoughtSignature"_s).toString();
                if (!signature.isEmpty())
                    part.insert(u"thoughtSignature"_s, signature);
                parts.append(part);
            }
            append(u"model"_s, parts);
            break;
        }
        case Role::Tool: {
            QJsonArray parts;
            QList<Attachment> images;
            for (const ToolResult &result : message.toolResults) {
                // `response` must be an object: a JSON object result is sent as is, anything
                // else is wrapped ({"result": ...}, or {"error": ...} for a failed call).
                QJsonObject response;
                const auto doc = parseJson(result.content.toUtf8());
                if (!result.isError && doc && doc->isObject())
                    response = doc->object();
                else
                    response.insert(result.isError ? u"error"_s : u"result"_s, result.content);
                QJsonObject function { { u"name"_s, result.name }, { u"response"_s, response } };
                if (!result.callId.isEmpty())
                    function.insert(u"id"_s, result.callId);
                parts.append(QJsonObject { { u"functionResponse"_s, function } });
                images += result.images;
            }
            appendAttachments(parts, images);
            append(u"user"_s, parts);
            break;
        }
        }
    }
    return out;
}

QList<Message> GeminiCodec::fromNative(const QJsonArray &native) const
{
    QList<Message> out;
    QList<ToolCall> openCalls; // calls of the last model turn not answered yet
    int generated = 0;
    for (const QJsonValue &value : native) {
        const QJsonObject content = value.toObject();
        const QString role = content.value(u"role"_s).toString(u"user"_s);
        const QJsonArray parts = content.value(u"parts"_s).toArray();
        if (role == u"model") {
            Message message = Message::assistant({});
            for (const QJsonValue &partValue : parts) {
                const QJsonObject part = partValue.toObject();
                const QString signature = part.value(u"thoughtSignature"_s).toString();
                if (part.value(u"functionCall"_s).isObject()) {
                    ToolCall call =
                        functionCallOf(part.value(u"functionCall"_s).toObject(), signature);
                    if (call.id.isEmpty())
                        call.id = generatedCallId({}, generated++);
                    message.toolCalls.append(call);
                } else if (part.value(u"text"_s).isString() && !part.value(u"thought"_s).toBool()) {
                    message.text += part.value(u"text"_s).toString();
                    if (!signature.isEmpty()
                        && !message.providerData.contains(u"thoughtSignature"_s))
                        message.providerData.insert(u"thoughtSignature"_s, signature);
                }
            }
            openCalls = message.toolCalls;
            out.append(message);
            continue;
        }
        QList<ToolResult> results;
        Message user = Message::user({});
        for (const QJsonValue &partValue : parts) {
            const QJsonObject part = partValue.toObject();
            if (part.value(u"functionResponse"_s).isObject()) {
                const QJsonObject function = part.value(u"functionResponse"_s).toObject();
                ToolResult result;
                result.name = function.value(u"name"_s).toString();
                result.callId = function.value(u"id"_s).toString();
                // Without an id, pair by name and order with the calls of the last model turn.
                for (qsizetype i = 0; i < openCalls.size(); ++i) {
                    const bool match = result.callId.isEmpty() ? openCalls[i].name == result.name
                                                               : openCalls[i].id == result.callId;
                    if (match) {
                        result.callId = openCalls[i].id;
                        openCalls.removeAt(i);
                        break;
                    }
                }
                const QJsonObject response = function.value(u"response"_s).toObject();
                if (response.size() == 1 && response.contains(u"error"_s)
                    && response.value(u"error"_s).isString()) {
                    result.isError = true;
                    result.content = response.value(u"error"_s).toString();
                } else if (response.size() == 1 && response.contains(u"result"_s)
                           && response.value(u"result"_s).isString()) {
                    result.content = response.value(u"result"_s).toString();
                } else {
                    result.content = compactJson(response);
                }
                results.append(result);
            } else if (part.value(u"text"_s).isString()) {
                user.text += part.value(u"text"_s).toString();
            } else if (part.value(u"inlineData"_s).isObject()) {
                const QJsonObject data = part.value(u"inlineData"_s).toObject();
                const Attachment attachment = Attachment::fromData(
                    {}, data.value(u"mimeType"_s).toString(),
                    QByteArray::fromBase64(data.value(u"data"_s).toString().toLatin1()));
                if (!results.isEmpty())
                    results.last().images.append(attachment);
                else
                    user.attachments.append(attachment);
            }
        }
        appendUserTurn(out, results, user);
    }
    return out;
}

} // namespace Callscope
