#pragma once

// Helpers the engine codecs share (internal to core/engines).

#include "core/engines/enginecodec.h"
#include "core/schema/jsontape.h"

#include <QJsonDocument>

namespace Callscope::CodecCommon {

// Parses a JSON document leniently (surrounding whitespace allowed). nullopt + error on failure.
std::optional<QJsonDocument> parseJson(QByteArrayView data, QString *error = nullptr);

// Parses ToolCall::rawArguments into ToolCall::arguments. An empty string means {}; anything
// that is not a JSON object leaves `arguments` empty and sets `argumentsError`.
void parseToolArguments(ToolCall &call);

QString compactJson(const QJsonObject &object);

// The endpoint under `baseUrl` (the host root), or under `defaultRoot` when baseUrl is empty.
// A base that already ends with the first segment of `path` (".../v1") does not repeat it.
QUrl endpointUrl(const QUrl &baseUrl, const QString &defaultRoot, const QString &path,
                 const QString &query = {});

// The headers of a JSON request: Content-Type, then `keyHeader: <keyPrefix><apiKey>` when an
// API key is set (no credential header at all without one).
QList<std::pair<QByteArray, QByteArray>> jsonRequestHeaders(const QByteArray &keyHeader,
                                                            const QString &apiKey,
                                                            const QByteArray &keyPrefix = {});

// RFC 7386 JSON merge patch: objects merge recursively, null deletes a key.
void mergePatch(QJsonObject &target, const QJsonObject &patch);

// A usage whose prompt count holds the tokens read from (and written to) a cache, as OpenAI and
// Gemini report it, split into the three parts of Usage. Counts that do not add up are clamped.
Usage usageFromInclusivePrompt(qint64 promptTokens, qint64 cacheRead, qint64 cacheWrite = 0);

std::optional<int> maxTokens(const ChatRequest &request, const EngineConfig &config);
std::optional<double> temperature(const ChatRequest &request, const EngineConfig &config);
bool streaming(const ChatRequest &request, const EngineConfig &config);

// "data:<media type>;base64,<bytes>".
QString dataUri(const Attachment &attachment);
bool isTextLike(const QString &mediaType);
// The text sent in place of an attachment whose bytes were not kept.
QString placeholderText(const Attachment &attachment);

// An ApiError with category and transient flag from the HTTP status alone:
// 401/403 auth; 400/404/413/422 model; 408/409/429/5xx/529 transient "other"; else other.
ApiError errorForStatus(int httpStatus);
// Applies what the provider's error type / code tells beyond the status: insufficient_quota
// is never transient, content-policy codes are refusals, overload/server types are transient.
void refineError(ApiError &error, const QString &type, const QString &code);

ApiError malformedEventError(const SseEvent &event, const QString &parseError);

// The JSON object an SSE event carries in `data` (the event's data, possibly already trimmed).
// Anything else sets `error` to a malformed-event error and returns nullopt.
std::optional<QJsonObject> eventObject(const SseEvent &event, QByteArrayView data,
                                       std::optional<ApiError> &error);

// The same, parsed into `tape` (cleared first) and read in place: the stream assemblers take
// their events this way, without building Qt JSON values for each one.
std::optional<JsonRef> eventRef(const SseEvent &event, QByteArrayView data, JsonTape &tape,
                                std::optional<ApiError> &error);

// An event's type: the "type" member of its JSON data, else the SSE event name.
QString eventType(const SseEvent &event, const QJsonObject &data);
QString eventType(const SseEvent &event, const JsonRef &data);

// The top-level JSON object of a non-streamed reply body; nullopt and a translated
// "The reply is not a JSON object" message in `error` when the body is not one.
std::optional<QJsonObject> replyObject(QByteArrayView body, QString *error);

// An error from the HTTP status alone whose message is the start of the body (for error
// bodies in no format the provider documents).
ApiError statusError(int httpStatus, const QByteArray &body);

// Appends a turn {role, <itemsKey>: items} to a conversation in which roles must alternate:
// a turn of the same role as the last one is merged into it. Empty `items` add nothing.
void appendAlternatingTurn(QJsonArray &turns, const QString &role, const QString &itemsKey,
                           const QJsonArray &items);

// Appends a tool result to a neutral conversation: it joins the tool message the conversation
// ends with, or starts a new one.
void appendToolResult(QList<Message> &messages, const ToolResult &result);

// Appends what one provider user turn held: its tool results as a tool message first, then the
// rest as a user message (each only when not empty).
void appendUserTurn(QList<Message> &messages, const QList<ToolResult> &results,
                    const Message &user);

// A neutral tool call whose arguments are parsed from `rawArguments` (see parseToolArguments).
ToolCall makeToolCall(const QString &id, const QString &name, const QString &rawArguments);

// What the OpenAI stream assemblers (Chat Completions and Responses) keep alike: the end
// signal, whether model content arrived, the error that broke the stream, the reply's text and
// refusal as they arrive, its usage, id and model, and the tape each event is read into. The
// subclass reads its provider's events and keeps the tool calls and finish reason.
class TextStreamAssembler : public StreamAssembler
{
public:
    bool isComplete() const override { return m_done; }
    bool hasContent() const override { return m_hasContent; }
    std::optional<ApiError> error() const override { return m_error; }

protected:
    // A fragment of the reply's text: content, and handed to onTextDelta. Empty adds nothing.
    void appendText(const QString &text);
    // A fragment of the model's refusal: content, not handed on. Empty adds nothing.
    void appendRefusal(const QString &refusal);
    // Breaks the stream with `error`; returns false, what handleEvent then returns.
    bool fail(const ApiError &error);
    // The assistant message with the text and refusal so far, and the usage, id and model.
    ModelReply baseReply() const;

    bool m_done = false;
    bool m_hasContent = false;
    std::optional<ApiError> m_error;
    QString m_text;
    QString m_refusal;
    Usage m_usage;
    QString m_id;
    QString m_model;
    JsonTape m_tape; // the current event, reused
};

} // namespace Callscope::CodecCommon
