#pragma once

// The neutral message model every engine converts to and from its wire format.
// The GUI shows this model; the store keeps the engine-native transcript beside it.

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>

#include <optional>

namespace Callscope {

enum class Role { System, User, Assistant, Tool };

QString roleName(Role role);
std::optional<Role> roleFromName(QStringView name);

// Normalised reason a model reply ended.
enum class FinishReason { Stop, Length, ToolCalls, Refusal, Pause, Other };

QString finishReasonName(FinishReason reason);
std::optional<FinishReason> finishReasonFromName(QStringView name);

// An image or a file given to the model. When `data` is empty the attachment is a stored
// placeholder: the bytes were sent but never kept.
struct Attachment
{
    QString name;
    QString mediaType;
    QByteArray data;
    qint64 size = 0;
    QByteArray sha256Hex;

    bool isImage() const { return mediaType.startsWith(u"image/"); }
    bool isPlaceholder() const { return data.isEmpty(); }
    // Copy without the bytes; size and hash are filled from the data when missing.
    Attachment placeholder() const;
    static Attachment fromData(const QString &name, const QString &mediaType,
                               const QByteArray &data);

    QJsonObject toJson() const; // placeholder form only: never carries the bytes
    static Attachment fromJson(const QJsonObject &object);

    friend bool operator==(const Attachment &, const Attachment &) = default;
};

struct ToolCall
{
    QString id;
    QString name;
    QJsonObject arguments; // parsed arguments (empty when they did not parse)
    QString rawArguments; // the arguments exactly as the wire carried them
    QString argumentsError; // non-empty when rawArguments was not a JSON object
    QJsonObject providerData; // engine extras that must be echoed back (e.g. thoughtSignature)

    QJsonObject toJson() const;
    static ToolCall fromJson(const QJsonObject &object);

    friend bool operator==(const ToolCall &, const ToolCall &) = default;
};

// What a tool itself returned, kept beside a result a person changed at a pause.
struct ToolOriginal
{
    QString content;
    bool isError = false;

    friend bool operator==(const ToolOriginal &, const ToolOriginal &) = default;
};

struct ToolResult
{
    QString callId;
    QString name; // the tool's name (Gemini pairs results by name)
    QString content;
    bool isError = false;
    QList<Attachment> images; // images a tool returned (MCP image content)
    // Set when a person edited the result at a pause: the tool's own answer. Stored as
    // "edited": {"tool_content", "tool_is_error"}; codecs never send it.
    std::optional<ToolOriginal> toolOriginal;

    QJsonObject toJson() const;
    static ToolResult fromJson(const QJsonObject &object);

    friend bool operator==(const ToolResult &, const ToolResult &) = default;
};

// One message of a conversation in neutral form.
//  System:    text
//  User:      text, attachments
//  Assistant: text, toolCalls, refusal
//  Tool:      toolResults (all results of one turn in one message)
struct Message
{
    Role role = Role::User;
    QString text;
    QList<Attachment> attachments;
    QList<ToolCall> toolCalls;
    QList<ToolResult> toolResults;
    QString refusal;
    QJsonObject providerData; // engine extras kept for the round trip (reasoning, ids)

    static Message system(const QString &text);
    static Message user(const QString &text, const QList<Attachment> &attachments = {});
    static Message assistant(const QString &text, const QList<ToolCall> &calls = {});
    static Message toolResultsMessage(const QList<ToolResult> &results);

    // A copy whose attachments (its own and its tool results' images) are placeholders: what
    // may be stored, exported or put in a session.
    Message withoutAttachmentBytes() const;
    // Under text_output the runner records a text answer as a submit_output call of its own
    // ("text_output_N", providerData callscope_text_answer); the provider never saw that call.
    // This drops it (and the mark), for what goes back to the provider or into its transcript.
    Message withoutTextAnswerCall() const;
    // That call, when it holds exactly this message's text as its only argument. toJson then
    // leaves "text" out (the answer is stored once, in the call's arguments) and fromJson
    // takes the text back from there.
    const ToolCall *textAnswerCall() const;

    QJsonObject toJson() const;
    static Message fromJson(const QJsonObject &object);

    friend bool operator==(const Message &, const Message &) = default;
};

QJsonArray messagesToJson(const QList<Message> &messages);
QList<Message> messagesFromJson(const QJsonArray &array);

// Token counts of one request (or a sum of them) in one shape for every provider. The prompt
// is split in three parts that never overlap: tokens sent uncached, tokens read from the
// provider's prompt cache, and tokens written to it. Each codec maps its wire counts onto this
// (Anthropic's input_tokens already leaves cache reads and writes out; OpenAI's and Gemini's
// prompt counts hold the cached tokens, which the codec takes out).
struct Usage
{
    qint64 inputTokens = 0; // prompt tokens neither read from nor written to a cache
    qint64 outputTokens = 0; // all output tokens, reasoning included
    qint64 cacheReadTokens = 0; // prompt tokens read from a cache
    qint64 reasoningTokens = 0; // output tokens spent thinking
    qint64 cacheWriteTokens = 0; // prompt tokens written to a cache, every TTL
    qint64 cacheWrite1hTokens = 0; // the part of cacheWriteTokens kept for one hour

    // Every prompt token, whichever way it was billed.
    qint64 promptTokens() const { return inputTokens + cacheReadTokens + cacheWriteTokens; }
    qint64 cacheWrite5mTokens() const { return cacheWriteTokens - cacheWrite1hTokens; }
    Usage &operator+=(const Usage &other);
    bool isEmpty() const { return promptTokens() == 0 && outputTokens == 0; }
    QJsonObject toJson() const;
    // Reads this shape, and the older one whose input_tokens held the cached_tokens.
    static Usage fromJson(const QJsonObject &object);

    friend bool operator==(const Usage &, const Usage &) = default;
};

// A complete model reply in neutral form.
struct ModelReply
{
    Message message; // role Assistant
    FinishReason finishReason = FinishReason::Stop;
    QString rawFinishReason; // the provider's own value, e.g. "end_turn", "MAX_TOKENS"
    QString refusalCategory; // provider category or block reason for refusals
    Usage usage;
    QString responseId;
    QString model;

    QJsonObject toJson() const;
    static ModelReply fromJson(const QJsonObject &object);
};

} // namespace Callscope
