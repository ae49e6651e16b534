#include "core/engines/codec_common.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonParseError>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Callscope::CodecCommon {

std::optional<QJsonDocument> parseJson(QByteArrayView data, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(data.trimmed().toByteArray(), &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        if (error)
            *error =
                parseError.errorString() + u" at offset "_s + QString::number(parseError.offset);
        return std::nullopt;
    }
    return doc;
}

void parseToolArguments(ToolCall &call)
{
    call.arguments = {};
    call.argumentsError.clear();
    const QByteArray raw = call.rawArguments.toUtf8().trimmed();
    if (raw.isEmpty())
        return; // no arguments at all: {}
    QString error;
    const auto doc = parseJson(raw, &error);
    if (!doc) {
        call.argumentsError = QCoreApplication::translate("Callscope::EngineCodec",
                                                          "The arguments are not valid JSON: %1")
                                  .arg(error);
        return;
    }
    if (!doc->isObject()) {
        call.argumentsError = QCoreApplication::translate("Callscope::EngineCodec",
                                                          "The arguments are not a JSON object.");
        return;
    }
    call.arguments = doc->object();
}

QString compactJson(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

QUrl endpointUrl(const QUrl &baseUrl, const QString &defaultRoot, const QString &path,
                 const QString &query)
{
    QUrl url = baseUrl.isEmpty() ? QUrl(defaultRoot) : baseUrl;
    QString basePath = url.path();
    while (basePath.endsWith(u'/'))
        basePath.chop(1);
    QString tail = path;
    const qsizetype secondSlash = path.indexOf(u'/', 1);
    if (secondSlash > 0) {
        const QString firstSegment = path.first(secondSlash); // "/v1"
        if (basePath.endsWith(firstSegment))
            tail = path.sliced(secondSlash);
    }
    url.setPath(basePath + tail);
    if (!query.isEmpty())
        url.setQuery(query);
    return url;
}

QList<std::pair<QByteArray, QByteArray>>
jsonRequestHeaders(const QByteArray &keyHeader, const QString &apiKey, const QByteArray &keyPrefix)
{
    QList<std::pair<QByteArray, QByteArray>> headers { { "Content-Type"_ba,
                                                         "application/json"_ba } };
    if (!apiKey.isEmpty())
        headers.append({ keyHeader, keyPrefix + apiKey.toUtf8() });
    return headers;
}

void mergePatch(QJsonObject &target, const QJsonObject &patch)
{
    for (auto it = patch.begin(); it != patch.end(); ++it) {
        if (it.value().isNull()) {
            target.remove(it.key());
        } else if (it.value().isObject() && target.value(it.key()).isObject()) {
            QJsonObject inner = target.value(it.key()).toObject();
            mergePatch(inner, it.value().toObject());
            target.insert(it.key(), inner);
        } else {
            target.insert(it.key(), it.value());
        }
    }
}

Usage usageFromInclusivePrompt(qint64 promptTokens, qint64 cacheRead, qint64 cacheWrite)
{
    Usage out;
    const qint64 prompt = std::max<qint64>(0, promptTokens);
    out.cacheReadTokens = std::clamp<qint64>(cacheRead, 0, prompt);
    out.cacheWriteTokens = std::clamp<qint64>(cacheWrite, 0, prompt - out.cacheReadTokens);
    out.inputTokens = prompt - out.cacheReadTokens - out.cacheWriteTokens;
    return out;
}

std::optional<int> maxTokens(const ChatRequest &request, const EngineConfig &config)
{
    return request.maxTokens ? request.maxTokens : config.maxTokens;
}

std::optional<double> temperature(const ChatRequest &request, const EngineConfig &config)
{
    return request.temperature ? request.temperature : config.temperature;
}

bool streaming(const ChatRequest &request, const EngineConfig &config)
{
    return request.stream && config.stream;
}

QString dataUri(const Attachment &attachment)
{
    return u"data:"_s + attachment.mediaType + u";base64,"_s
        + QString::fromLatin1(attachment.data.toBase64());
}

bool isTextLike(const QString &mediaType)
{
    return mediaType.startsWith(u"text/") || mediaType == u"application/json"
        || mediaType == u"application/xml" || mediaType.endsWith(u"+json")
        || mediaType.endsWith(u"+xml");
}

QString placeholderText(const Attachment &attachment)
{
    return QCoreApplication::translate("Callscope::EngineCodec",
                                       "[attachment %1 (%2, %3 bytes) was not kept]")
        .arg(attachment.name, attachment.mediaType, QString::number(attachment.size));
}

ApiError errorForStatus(int httpStatus)
{
    ApiError error;
    error.httpStatus = httpStatus;
    switch (httpStatus) {
    case 401:
    case 403:
        error.category = ErrorCategory::Auth;
        break;
    case 400:
    case 404:
    case 413:
    case 422:
        error.category = ErrorCategory::Model;
        break;
    case 408:
    case 409:
    case 429:
        error.category = ErrorCategory::Other;
        error.transient = true;
        break;
    default:
        error.category = ErrorCategory::Other;
        error.transient = httpStatus >= 500 && httpStatus != 501; // retrypolicy.h, rule 4
        break;
    }
    return error;
}

void refineError(ApiError &error, const QString &type, const QString &code)
{
    const auto is = [&](QStringView value) {
        return type == value || code == value;
    };
    if (is(u"insufficient_quota") || is(u"billing_error")) {
        error.category = ErrorCategory::Other;
        error.transient = false;
    } else if (is(u"content_policy_violation") || is(u"content_filter")) {
        error.category = ErrorCategory::Refusal;
        error.transient = false;
    } else if (is(u"overloaded_error") || is(u"rate_limit_error") || is(u"rate_limit_exceeded")
               || is(u"server_error") || is(u"api_error") || is(u"timeout_error")
               || is(u"UNAVAILABLE") || is(u"INTERNAL") || is(u"RESOURCE_EXHAUSTED")
               || is(u"DEADLINE_EXCEEDED")) {
        // Status-less (mid-stream) errors take their retryability from the type.
        if (error.httpStatus == 0)
            error.transient = true;
    } else if (is(u"authentication_error") || is(u"permission_error") || is(u"UNAUTHENTICATED")
               || is(u"PERMISSION_DENIED") || is(u"invalid_api_key")) {
        error.category = ErrorCategory::Auth;
        error.transient = false;
    }
}

ApiError malformedEventError(const SseEvent &event, const QString &parseError)
{
    ApiError error;
    error.category = ErrorCategory::Other;
    error.providerType = u"malformed_event"_s;
    const QString name = event.event.isEmpty() ? u"message"_s : event.event;
    QString excerpt = QString::fromUtf8(event.data.left(120));
    if (event.data.size() > 120)
        excerpt += u"…"_s;
    error.message =
        QCoreApplication::translate("Callscope::EngineCodec",
                                    "Malformed JSON in stream event \"%1\": %2 (data: %3)")
            .arg(name, parseError, excerpt);
    return error;
}

std::optional<QJsonObject> eventObject(const SseEvent &event, QByteArrayView data,
                                       std::optional<ApiError> &error)
{
    QString parseError;
    const auto doc = parseJson(data, &parseError);
    if (!doc || !doc->isObject()) {
        if (doc)
            parseError = u"not a JSON object"_s;
        error = malformedEventError(event, parseError);
        return std::nullopt;
    }
    return doc->object();
}

std::optional<JsonRef> eventRef(const SseEvent &event, QByteArrayView data, JsonTape &tape,
                                std::optional<ApiError> &error)
{
    tape.clear();
    qsizetype root = tape.append(data);
    if (root < 0) {
        // Qt's parser has the error messages users already see (and takes a few inputs the tape
        // does not, such as a leading byte order mark).
        const std::optional<QJsonObject> object = eventObject(event, data, error);
        if (!object)
            return std::nullopt;
        root = tape.appendValue(*object);
    }
    const JsonRef value(&tape, root);
    if (!value.isObject()) {
        error = malformedEventError(event, u"not a JSON object"_s);
        return std::nullopt;
    }
    return value;
}

QString eventType(const SseEvent &event, const JsonRef &data)
{
    const std::string_view type = data.value("type"_L1).utf8();
    return type.empty() ? event.event : QString::fromUtf8(type.data(), qsizetype(type.size()));
}

QString eventType(const SseEvent &event, const QJsonObject &data)
{
    const QString type = data.value(u"type"_s).toString();
    return type.isEmpty() ? event.event : type;
}

std::optional<QJsonObject> replyObject(QByteArrayView body, QString *error)
{
    QString parseError;
    const auto doc = parseJson(body, &parseError);
    if (!doc || !doc->isObject()) {
        if (error)
            *error = QCoreApplication::translate("Callscope::EngineCodec",
                                                 "The reply is not a JSON object: %1")
                         .arg(doc ? u"wrong type"_s : parseError);
        return std::nullopt;
    }
    return doc->object();
}

ApiError statusError(int httpStatus, const QByteArray &body)
{
    ApiError error = errorForStatus(httpStatus);
    error.message = QString::fromUtf8(body.trimmed().left(500));
    return error;
}

void appendAlternatingTurn(QJsonArray &turns, const QString &role, const QString &itemsKey,
                           const QJsonArray &items)
{
    if (items.isEmpty())
        return;
    if (!turns.isEmpty() && turns.last().toObject().value(u"role"_s).toString() == role) {
        QJsonObject last = turns.last().toObject();
        QJsonArray merged = last.value(itemsKey).toArray();
        for (const QJsonValue &item : items)
            merged.append(item);
        last.insert(itemsKey, merged);
        turns.replace(turns.size() - 1, last);
        return;
    }
    turns.append(QJsonObject { { u"role"_s, role }, { itemsKey, items } });
}

void appendToolResult(QList<Message> &messages, const ToolResult &result)
{
    if (!messages.isEmpty() && messages.last().role == Role::Tool)
        messages.last().toolResults.append(result);
    else
        messages.append(Message::toolResultsMessage({ result }));
}

void appendUserTurn(QList<Message> &messages, const QList<ToolResult> &results, const Message &user)
{
    if (!results.isEmpty())
        messages.append(Message::toolResultsMessage(results));
    if (!user.text.isEmpty() || !user.attachments.isEmpty())
        messages.append(user);
}

ToolCall makeToolCall(const QString &id, const QString &name, const QString &rawArguments)
{
    ToolCall call;
    call.id = id;
    call.name = name;
    call.rawArguments = rawArguments;
    parseToolArguments(call);
    return call;
}

void TextStreamAssembler::appendText(const QString &text)
{
    if (text.isEmpty())
        return;
    m_text += text;
    m_hasContent = true;
    if (onTextDelta)
        onTextDelta(text);
}

void TextStreamAssembler::appendRefusal(const QString &refusal)
{
    if (refusal.isEmpty())
        return;
    m_refusal += refusal;
    m_hasContent = true;
}

bool TextStreamAssembler::fail(const ApiError &error)
{
    m_error = error;
    return false;
}

ModelReply TextStreamAssembler::baseReply() const
{
    ModelReply reply;
    reply.message.role = Role::Assistant;
    reply.message.text = m_text;
    reply.message.refusal = m_refusal;
    reply.usage = m_usage;
    reply.responseId = m_id;
    reply.model = m_model;
    return reply;
}

} // namespace Callscope::CodecCommon
