#include "core/model/message.h"

#include "core/model/jsonwriter.h"

#include <QCborMap>
#include <QCborValue>
#include <QCryptographicHash>
#include <QJsonArray>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

QJsonArray toArray(const auto &list)
{
    QJsonArray array;
    for (const auto &item : list)
        array.append(item.toJson());
    return array;
}

template<typename T> QList<T> fromArray(const QJsonValue &value)
{
    QList<T> list;
    const QJsonArray array = value.toArray();
    list.reserve(array.size());
    for (const QJsonValue &item : array)
        list.append(T::fromJson(item.toObject()));
    return list;
}

} // namespace

QString roleName(Role role)
{
    switch (role) {
    case Role::System:
        return u"system"_s;
    case Role::User:
        return u"user"_s;
    case Role::Assistant:
        return u"assistant"_s;
    case Role::Tool:
        return u"tool"_s;
    }
    return {};
}

std::optional<Role> roleFromName(QStringView name)
{
    if (name == u"system")
        return Role::System;
    if (name == u"user")
        return Role::User;
    if (name == u"assistant")
        return Role::Assistant;
    if (name == u"tool")
        return Role::Tool;
    return std::nullopt;
}

QString finishReasonName(FinishReason reason)
{
    switch (reason) {
    case FinishReason::Stop:
        return u"stop"_s;
    case FinishReason::Length:
        return u"length"_s;
    case FinishReason::ToolCalls:
        return u"tool_calls"_s;
    case FinishReason::Refusal:
        return u"refusal"_s;
    case FinishReason::Pause:
        return u"pause"_s;
    case FinishReason::Other:
        return u"other"_s;
    }
    return {};
}

std::optional<FinishReason> finishReasonFromName(QStringView name)
{
    for (FinishReason r : { FinishReason::Stop, FinishReason::Length, FinishReason::ToolCalls,
                            FinishReason::Refusal, FinishReason::Pause, FinishReason::Other }) {
        if (finishReasonName(r) == name)
            return r;
    }
    return std::nullopt;
}

Attachment Attachment::placeholder() const
{
    Attachment copy = *this;
    if (!data.isEmpty()) {
        copy.size = data.size();
        copy.sha256Hex = QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex();
    }
    copy.data.clear();
    return copy;
}

Attachment Attachment::fromData(const QString &name, const QString &mediaType,
                                const QByteArray &data)
{
    Attachment a;
    a.name = name;
    a.mediaType = mediaType;
    a.data = data;
    a.size = data.size();
    a.sha256Hex = QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex();
    return a;
}

QJsonObject Attachment::toJson() const
{
    const Attachment p = placeholder();
    return QJsonObject { { u"name"_s, p.name },
                         { u"media_type"_s, p.mediaType },
                         { u"size"_s, p.size },
                         { u"sha256"_s, QString::fromLatin1(p.sha256Hex) } };
}

Attachment Attachment::fromJson(const QJsonObject &object)
{
    Attachment a;
    a.name = object.value(u"name"_s).toString();
    a.mediaType = object.value(u"media_type"_s).toString();
    a.size = object.value(u"size"_s).toInteger();
    a.sha256Hex = object.value(u"sha256"_s).toString().toLatin1();
    return a;
}

QJsonObject ToolCall::toJson() const
{
    QJsonObject o { { u"id"_s, id }, { u"name"_s, name }, { u"arguments"_s, arguments } };
    if (!rawArguments.isEmpty())
        o.insert(u"raw_arguments"_s, rawArguments);
    if (!argumentsError.isEmpty())
        o.insert(u"arguments_error"_s, argumentsError);
    if (!providerData.isEmpty())
        o.insert(u"provider_data"_s, providerData);
    return o;
}

ToolCall ToolCall::fromJson(const QJsonObject &object)
{
    ToolCall c;
    c.id = object.value(u"id"_s).toString();
    c.name = object.value(u"name"_s).toString();
    c.arguments = object.value(u"arguments"_s).toObject();
    c.rawArguments = object.value(u"raw_arguments"_s).toString();
    c.argumentsError = object.value(u"arguments_error"_s).toString();
    c.providerData = object.value(u"provider_data"_s).toObject();
    return c;
}

QJsonObject ToolResult::toJson() const
{
    QJsonObject o { { u"call_id"_s, callId }, { u"name"_s, name }, { u"content"_s, content } };
    if (isError)
        o.insert(u"is_error"_s, true);
    if (!images.isEmpty())
        o.insert(u"images"_s, toArray(images));
    if (toolOriginal) {
        QJsonObject edited { { u"tool_content"_s, toolOriginal->content } };
        if (toolOriginal->isError)
            edited.insert(u"tool_is_error"_s, true);
        o.insert(u"edited"_s, edited);
    }
    return o;
}

ToolResult ToolResult::fromJson(const QJsonObject &object)
{
    ToolResult r;
    r.callId = object.value(u"call_id"_s).toString();
    r.name = object.value(u"name"_s).toString();
    r.content = object.value(u"content"_s).toString();
    r.isError = object.value(u"is_error"_s).toBool();
    r.images = fromArray<Attachment>(object.value(u"images"_s));
    if (const QJsonValue edited = object.value(u"edited"_s); edited.isObject()) {
        const QJsonObject e = edited.toObject();
        r.toolOriginal = ToolOriginal { e.value(u"tool_content"_s).toString(),
                                        e.value(u"tool_is_error"_s).toBool() };
    }
    return r;
}

Message Message::system(const QString &text)
{
    Message m;
    m.role = Role::System;
    m.text = text;
    return m;
}

Message Message::user(const QString &text, const QList<Attachment> &attachments)
{
    Message m;
    m.role = Role::User;
    m.text = text;
    m.attachments = attachments;
    return m;
}

Message Message::assistant(const QString &text, const QList<ToolCall> &calls)
{
    Message m;
    m.role = Role::Assistant;
    m.text = text;
    m.toolCalls = calls;
    return m;
}

Message Message::toolResultsMessage(const QList<ToolResult> &results)
{
    Message m;
    m.role = Role::Tool;
    m.toolResults = results;
    return m;
}

Message Message::withoutTextAnswerCall() const
{
    if (!providerData.value(u"callscope_text_answer"_s).toBool())
        return *this;
    Message copy = *this;
    copy.toolCalls.removeIf([](const ToolCall &c) { return c.id.startsWith(u"text_output_"); });
    copy.providerData.remove(u"callscope_text_answer"_s);
    return copy;
}

const ToolCall *Message::textAnswerCall() const
{
    if (!providerData.value(u"callscope_text_answer"_s).toBool())
        return nullptr;
    for (const ToolCall &call : toolCalls) {
        if (!call.id.startsWith(u"text_output_") || call.arguments.size() != 1)
            continue;
        // The same text exactly, compared where Qt holds it (no UTF-16 copy of the argument).
        const QCborValue argument = QCborMap::fromJsonObject(call.arguments).constBegin().value();
        if (argument.isString() && argument.compare(QCborValue(text)) == 0)
            return &call;
    }
    return nullptr;
}

Message Message::withoutAttachmentBytes() const
{
    Message copy = *this;
    for (Attachment &a : copy.attachments)
        a = a.placeholder();
    for (ToolResult &r : copy.toolResults) {
        for (Attachment &a : r.images)
            a = a.placeholder();
    }
    return copy;
}

QJsonObject Message::toJson() const
{
    QJsonObject o { { u"role"_s, roleName(role) } };
    // First: a long text then costs one copy (Json::withString), and what is inserted after
    // (tool calls, whose arguments may be a long output) is shared, not copied.
    if (!text.isEmpty() && !textAnswerCall())
        o = Json::withString(o, u"text", text);
    if (!attachments.isEmpty())
        o.insert(u"attachments"_s, toArray(attachments));
    if (!toolCalls.isEmpty())
        o.insert(u"tool_calls"_s, toArray(toolCalls));
    if (!toolResults.isEmpty())
        o.insert(u"tool_results"_s, toArray(toolResults));
    if (!refusal.isEmpty())
        o.insert(u"refusal"_s, refusal);
    if (!providerData.isEmpty())
        o.insert(u"provider_data"_s, providerData);
    return o;
}

Message Message::fromJson(const QJsonObject &object)
{
    Message m;
    m.role = roleFromName(object.value(u"role"_s).toString()).value_or(Role::User);
    m.text = object.value(u"text"_s).toString();
    m.attachments = fromArray<Attachment>(object.value(u"attachments"_s));
    m.toolCalls = fromArray<ToolCall>(object.value(u"tool_calls"_s));
    m.toolResults = fromArray<ToolResult>(object.value(u"tool_results"_s));
    m.refusal = object.value(u"refusal"_s).toString();
    m.providerData = object.value(u"provider_data"_s).toObject();
    if (!object.contains(u"text"_s) && m.providerData.value(u"callscope_text_answer"_s).toBool()) {
        // Stored once, as the answer's call arguments (toJson).
        for (const ToolCall &call : std::as_const(m.toolCalls)) {
            if (call.id.startsWith(u"text_output_") && call.arguments.size() == 1
                && call.arguments.constBegin().value().isString()) {
                m.text = call.arguments.constBegin().value().toString();
                break;
            }
        }
    }
    return m;
}

QJsonArray messagesToJson(const QList<Message> &messages)
{
    return toArray(messages);
}

QList<Message> messagesFromJson(const QJsonArray &array)
{
    return fromArray<Message>(QJsonValue(array));
}

Usage &Usage::operator+=(const Usage &other)
{
    inputTokens += other.inputTokens;
    outputTokens += other.outputTokens;
    cacheReadTokens += other.cacheReadTokens;
    cacheWriteTokens += other.cacheWriteTokens;
    cacheWrite1hTokens += other.cacheWrite1hTokens;
    reasoningTokens += other.reasoningTokens;
    return *this;
}

QJsonObject Usage::toJson() const
{
    return QJsonObject { { u"input_tokens"_s, inputTokens },
                         { u"cache_read_tokens"_s, cacheReadTokens },
                         { u"cache_write_tokens"_s, cacheWriteTokens },
                         { u"cache_write_1h_tokens"_s, cacheWrite1hTokens },
                         { u"output_tokens"_s, outputTokens },
                         { u"reasoning_tokens"_s, reasoningTokens } };
}

Usage Usage::fromJson(const QJsonObject &object)
{
    Usage u;
    u.inputTokens = std::max<qint64>(0, object.value(u"input_tokens"_s).toInteger());
    u.outputTokens = std::max<qint64>(0, object.value(u"output_tokens"_s).toInteger());
    u.reasoningTokens = std::max<qint64>(0, object.value(u"reasoning_tokens"_s).toInteger());
    if (!object.contains(u"cache_read_tokens"_s) && object.contains(u"cached_tokens"_s)) {
        // The shape written before cache writes were counted: input_tokens was the whole prompt.
        u.cacheReadTokens =
            std::clamp<qint64>(object.value(u"cached_tokens"_s).toInteger(), 0, u.inputTokens);
        u.inputTokens -= u.cacheReadTokens;
        return u;
    }
    u.cacheReadTokens = std::max<qint64>(0, object.value(u"cache_read_tokens"_s).toInteger());
    u.cacheWriteTokens = std::max<qint64>(0, object.value(u"cache_write_tokens"_s).toInteger());
    u.cacheWrite1hTokens = std::clamp<qint64>(object.value(u"cache_write_1h_tokens"_s).toInteger(),
                                              0, u.cacheWriteTokens);
    return u;
}

QJsonObject ModelReply::toJson() const
{
    QJsonObject o { { u"message"_s, message.toJson() },
                    { u"finish_reason"_s, finishReasonName(finishReason) },
                    { u"raw_finish_reason"_s, rawFinishReason },
                    { u"usage"_s, usage.toJson() } };
    if (!refusalCategory.isEmpty())
        o.insert(u"refusal_category"_s, refusalCategory);
    if (!responseId.isEmpty())
        o.insert(u"response_id"_s, responseId);
    if (!model.isEmpty())
        o.insert(u"model"_s, model);
    return o;
}

ModelReply ModelReply::fromJson(const QJsonObject &object)
{
    ModelReply r;
    r.message = Message::fromJson(object.value(u"message"_s).toObject());
    r.finishReason = finishReasonFromName(object.value(u"finish_reason"_s).toString())
                         .value_or(FinishReason::Other);
    r.rawFinishReason = object.value(u"raw_finish_reason"_s).toString();
    r.refusalCategory = object.value(u"refusal_category"_s).toString();
    r.usage = Usage::fromJson(object.value(u"usage"_s).toObject());
    r.responseId = object.value(u"response_id"_s).toString();
    r.model = object.value(u"model"_s).toString();
    return r;
}

} // namespace Callscope
