// The runner over real HTTP: CallService + HttpModelClient + each engine's codec against the
// scripted FakeProvider on 127.0.0.1, with a real SQLite history. Every test checks the exact
// requests the server received and the stored record.

#include "core/context/contextbudget.h"
#include "core/loop/corrections.h"
#include "core/model/specio.h"
#include "core/service/calljob.h"
#include "core/service/callservice.h"
#include "core/service/preflight.h"
#include "core/store/callstore.h"
#include "core/store/database.h"
#include "tests/support/fakeprovider.h"
#include "tests/support/testsupport.h"
#include "tests/support/tlsfaultserver.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QProcess>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace Callscope;
using namespace Callscope::Test;

namespace {

constexpr auto kKey = "sk-test-7f3a9c-DO-NOT-STORE";

QByteArray compact(const QJsonValue &v)
{
    if (v.isObject())
        return QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact);
    return QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact);
}

// Replies in each engine's own wire format (non-streamed).
struct Wire
{
    EngineType type;

    QByteArray toolCall(const QString &id, const QString &name, const QJsonObject &args,
                        int in = 10, int out = 5) const
    {
        const QString argText = QString::fromUtf8(compact(args));
        switch (type) {
        case EngineType::OpenAI:
        case EngineType::OpenAICompatible:
            return compact(QJsonObject {
                { u"id"_s, u"chatcmpl-1"_s },
                { u"object"_s, u"chat.completion"_s },
                { u"created"_s, 1 },
                { u"model"_s, u"m"_s },
                { u"choices"_s,
                  QJsonArray { QJsonObject {
                      { u"index"_s, 0 },
                      { u"message"_s,
                        QJsonObject {
                            { u"role"_s, u"assistant"_s },
                            { u"content"_s,
                              type == EngineType::OpenAICompatible ? QJsonValue(u""_s)
                                                                   : QJsonValue() },
                            { u"tool_calls"_s,
                              QJsonArray { QJsonObject {
                                  { u"id"_s, id },
                                  { u"type"_s, u"function"_s },
                                  { u"function"_s,
                                    QJsonObject { { u"name"_s, name },
                                                  { u"arguments"_s, argText } } } } } } } },
                      { u"finish_reason"_s, u"tool_calls"_s } } } },
                { u"usage"_s,
                  QJsonObject { { u"prompt_tokens"_s, in },
                                { u"completion_tokens"_s, out },
                                { u"total_tokens"_s, in + out } } } });
        case EngineType::OpenAIResponses:
            return compact(
                QJsonObject { { u"id"_s, u"resp_1"_s },
                              { u"object"_s, u"response"_s },
                              { u"status"_s, u"completed"_s },
                              { u"output"_s,
                                QJsonArray { QJsonObject { { u"type"_s, u"function_call"_s },
                                                           { u"id"_s, QString(u"fc_"_s + id) },
                                                           { u"call_id"_s, id },
                                                           { u"name"_s, name },
                                                           { u"arguments"_s, argText },
                                                           { u"status"_s, u"completed"_s } } } },
                              { u"usage"_s,
                                QJsonObject { { u"input_tokens"_s, in },
                                              { u"output_tokens"_s, out },
                                              { u"total_tokens"_s, in + out } } } });
        case EngineType::Anthropic:
            return compact(QJsonObject {
                { u"id"_s, u"msg_1"_s },
                { u"type"_s, u"message"_s },
                { u"role"_s, u"assistant"_s },
                { u"model"_s, u"m"_s },
                { u"content"_s,
                  QJsonArray { QJsonObject { { u"type"_s, u"tool_use"_s },
                                             { u"id"_s, id },
                                             { u"name"_s, name },
                                             { u"input"_s, args } } } },
                { u"stop_reason"_s, u"tool_use"_s },
                { u"usage"_s,
                  QJsonObject { { u"input_tokens"_s, in }, { u"output_tokens"_s, out } } } });
        case EngineType::Gemini:
            return compact(QJsonObject {
                { u"candidates"_s,
                  QJsonArray { QJsonObject {
                      { u"content"_s,
                        QJsonObject { { u"role"_s, u"model"_s },
                                      { u"parts"_s,
                                        QJsonArray { QJsonObject {
                                            { u"functionCall"_s,
                                              QJsonObject { { u"name"_s, name },
                                                            { u"args"_s, args },
                                                            { u"id"_s, id } } } } } } } },
                      { u"finishReason"_s, u"STOP"_s },
                      { u"index"_s, 0 } } } },
                { u"usageMetadata"_s,
                  QJsonObject { { u"promptTokenCount"_s, in },
                                { u"candidatesTokenCount"_s, out },
                                { u"totalTokenCount"_s, in + out } } } });
        case EngineType::Replay:
            break;
        }
        return {};
    }

    // A complete text reply.
    QByteArray text(const QString &text, int in = 10, int out = 5) const
    {
        switch (type) {
        case EngineType::OpenAI:
        case EngineType::OpenAICompatible:
            return compact(QJsonObject {
                { u"id"_s, u"c"_s },
                { u"object"_s, u"chat.completion"_s },
                { u"model"_s, u"m"_s },
                { u"choices"_s,
                  QJsonArray { QJsonObject {
                      { u"index"_s, 0 },
                      { u"message"_s,
                        QJsonObject { { u"role"_s, u"assistant"_s }, { u"content"_s, text } } },
                      { u"finish_reason"_s, u"stop"_s } } } },
                { u"usage"_s,
                  QJsonObject { { u"prompt_tokens"_s, in },
                                { u"completion_tokens"_s, out },
                                { u"total_tokens"_s, in + out } } } });
        case EngineType::OpenAIResponses:
            return compact(QJsonObject {
                { u"id"_s, u"r"_s },
                { u"object"_s, u"response"_s },
                { u"status"_s, u"completed"_s },
                { u"output"_s,
                  QJsonArray { QJsonObject {
                      { u"type"_s, u"message"_s },
                      { u"role"_s, u"assistant"_s },
                      { u"content"_s,
                        QJsonArray { QJsonObject { { u"type"_s, u"output_text"_s },
                                                   { u"text"_s, text },
                                                   { u"annotations"_s, QJsonArray {} } } } } } } },
                { u"usage"_s,
                  QJsonObject { { u"input_tokens"_s, in },
                                { u"output_tokens"_s, out },
                                { u"total_tokens"_s, in + out } } } });
        case EngineType::Anthropic:
            return compact(QJsonObject {
                { u"id"_s, u"msg"_s },
                { u"type"_s, u"message"_s },
                { u"role"_s, u"assistant"_s },
                { u"model"_s, u"m"_s },
                { u"content"_s,
                  QJsonArray { QJsonObject { { u"type"_s, u"text"_s }, { u"text"_s, text } } } },
                { u"stop_reason"_s, u"end_turn"_s },
                { u"usage"_s,
                  QJsonObject { { u"input_tokens"_s, in }, { u"output_tokens"_s, out } } } });
        case EngineType::Gemini:
            return compact(QJsonObject {
                { u"candidates"_s,
                  QJsonArray { QJsonObject {
                      { u"content"_s,
                        QJsonObject {
                            { u"role"_s, u"model"_s },
                            { u"parts"_s, QJsonArray { QJsonObject { { u"text"_s, text } } } } } },
                      { u"finishReason"_s, u"STOP"_s } } } },
                { u"usageMetadata"_s,
                  QJsonObject { { u"promptTokenCount"_s, in },
                                { u"candidatesTokenCount"_s, out },
                                { u"totalTokenCount"_s, in + out } } } });
        case EngineType::Replay:
            break;
        }
        return {};
    }

    // The native structured-output field of a request body, as the engine names it.
    QJsonValue nativeField(const QJsonObject &body) const
    {
        switch (type) {
        case EngineType::OpenAI:
        case EngineType::OpenAICompatible:
            return body.value(u"response_format"_s);
        case EngineType::OpenAIResponses:
            return body.value(u"text"_s);
        case EngineType::Anthropic:
            return body.value(u"output_config"_s);
        case EngineType::Gemini: {
            const QJsonObject generation = body.value(u"generationConfig"_s).toObject();
            if (!generation.contains(u"responseJsonSchema"_s)
                && !generation.contains(u"responseMimeType"_s))
                return QJsonValue::Undefined;
            return QJsonObject { { u"responseMimeType"_s, generation.value(u"responseMimeType"_s) },
                                 { u"responseJsonSchema"_s,
                                   generation.value(u"responseJsonSchema"_s) } };
        }
        case EngineType::Replay:
            break;
        }
        return QJsonValue::Undefined;
    }

    // The tool names a request body declares.
    QStringList toolNames(const QJsonObject &body) const
    {
        QStringList names;
        for (const QJsonValue &t : body.value(u"tools"_s).toArray()) {
            const QJsonObject tool = t.toObject();
            switch (type) {
            case EngineType::OpenAI:
            case EngineType::OpenAICompatible:
                names.append(tool.value(u"function"_s).toObject().value(u"name"_s).toString());
                break;
            case EngineType::Gemini:
                for (const QJsonValue &d : tool.value(u"functionDeclarations"_s).toArray())
                    names.append(d.toObject().value(u"name"_s).toString());
                break;
            default:
                names.append(tool.value(u"name"_s).toString());
            }
        }
        return names;
    }

    // A reply cut off by the output limit, carrying `text`.
    QByteArray truncated(const QString &text) const
    {
        switch (type) {
        case EngineType::OpenAI:
        case EngineType::OpenAICompatible:
            return compact(QJsonObject {
                { u"id"_s, u"c"_s },
                { u"object"_s, u"chat.completion"_s },
                { u"model"_s, u"m"_s },
                { u"choices"_s,
                  QJsonArray { QJsonObject {
                      { u"index"_s, 0 },
                      { u"message"_s,
                        QJsonObject { { u"role"_s, u"assistant"_s }, { u"content"_s, text } } },
                      { u"finish_reason"_s, u"length"_s } } } },
                { u"usage"_s,
                  QJsonObject { { u"prompt_tokens"_s, 10 },
                                { u"completion_tokens"_s, 32 },
                                { u"total_tokens"_s, 42 } } } });
        case EngineType::OpenAIResponses:
            return compact(QJsonObject {
                { u"id"_s, u"r"_s },
                { u"object"_s, u"response"_s },
                { u"status"_s, u"incomplete"_s },
                { u"incomplete_details"_s,
                  QJsonObject { { u"reason"_s, u"max_output_tokens"_s } } },
                { u"output"_s,
                  QJsonArray { QJsonObject {
                      { u"type"_s, u"message"_s },
                      { u"role"_s, u"assistant"_s },
                      { u"content"_s,
                        QJsonArray { QJsonObject { { u"type"_s, u"output_text"_s },
                                                   { u"text"_s, text },
                                                   { u"annotations"_s, QJsonArray {} } } } } } } },
                { u"usage"_s,
                  QJsonObject { { u"input_tokens"_s, 10 },
                                { u"output_tokens"_s, 32 },
                                { u"total_tokens"_s, 42 } } } });
        case EngineType::Anthropic:
            return compact(QJsonObject {
                { u"id"_s, u"msg"_s },
                { u"type"_s, u"message"_s },
                { u"role"_s, u"assistant"_s },
                { u"model"_s, u"m"_s },
                { u"content"_s,
                  QJsonArray { QJsonObject { { u"type"_s, u"text"_s }, { u"text"_s, text } } } },
                { u"stop_reason"_s, u"max_tokens"_s },
                { u"usage"_s,
                  QJsonObject { { u"input_tokens"_s, 10 }, { u"output_tokens"_s, 32 } } } });
        case EngineType::Gemini:
            return compact(QJsonObject {
                { u"candidates"_s,
                  QJsonArray { QJsonObject {
                      { u"content"_s,
                        QJsonObject {
                            { u"role"_s, u"model"_s },
                            { u"parts"_s, QJsonArray { QJsonObject { { u"text"_s, text } } } } } },
                      { u"finishReason"_s, u"MAX_TOKENS"_s } } } },
                { u"usageMetadata"_s,
                  QJsonObject { { u"promptTokenCount"_s, 10 },
                                { u"candidatesTokenCount"_s, 32 },
                                { u"totalTokenCount"_s, 42 } } } });
        case EngineType::Replay:
            break;
        }
        return {};
    }

    // A refusal that also carries a tool call (which must never run).
    QByteArray refusal(const QString &toolName) const
    {
        switch (type) {
        case EngineType::OpenAI:
        case EngineType::OpenAICompatible:
            return compact(QJsonObject {
                { u"id"_s, u"c"_s },
                { u"object"_s, u"chat.completion"_s },
                { u"model"_s, u"m"_s },
                { u"choices"_s,
                  QJsonArray { QJsonObject {
                      { u"index"_s, 0 },
                      { u"message"_s,
                        QJsonObject { { u"role"_s, u"assistant"_s },
                                      { u"content"_s, QJsonValue() },
                                      { u"refusal"_s, u"I can't help with that."_s } } },
                      { u"finish_reason"_s, u"content_filter"_s } } } } });
        case EngineType::OpenAIResponses:
            return compact(QJsonObject {
                { u"id"_s, u"r"_s },
                { u"object"_s, u"response"_s },
                { u"status"_s, u"completed"_s },
                { u"output"_s,
                  QJsonArray {
                      QJsonObject { { u"type"_s, u"message"_s },
                                    { u"role"_s, u"assistant"_s },
                                    { u"content"_s,
                                      QJsonArray { QJsonObject {
                                          { u"type"_s, u"refusal"_s },
                                          { u"refusal"_s, u"I can't help with that."_s } } } } },
                      QJsonObject { { u"type"_s, u"function_call"_s },
                                    { u"id"_s, u"fc_x"_s },
                                    { u"call_id"_s, u"call_x"_s },
                                    { u"name"_s, toolName },
                                    { u"arguments"_s, u"{}"_s } } } } });
        case EngineType::Anthropic:
            return compact(QJsonObject {
                { u"id"_s, u"msg"_s },
                { u"type"_s, u"message"_s },
                { u"role"_s, u"assistant"_s },
                { u"model"_s, u"m"_s },
                { u"content"_s,
                  QJsonArray { QJsonObject { { u"type"_s, u"tool_use"_s },
                                             { u"id"_s, u"toolu_x"_s },
                                             { u"name"_s, toolName },
                                             { u"input"_s, QJsonObject {} } } } },
                { u"stop_reason"_s, u"refusal"_s },
                { u"stop_details"_s,
                  QJsonObject { { u"type"_s, u"refusal"_s },
                                { u"category"_s, u"cyber"_s },
                                { u"explanation"_s, u"Not allowed."_s } } },
                { u"usage"_s,
                  QJsonObject { { u"input_tokens"_s, 10 }, { u"output_tokens"_s, 1 } } } });
        case EngineType::Gemini:
            return compact(QJsonObject {
                { u"candidates"_s,
                  QJsonArray { QJsonObject { { u"content"_s, QJsonObject {} },
                                             { u"finishReason"_s, u"SAFETY"_s },
                                             { u"index"_s, 0 } } } },
                { u"usageMetadata"_s,
                  QJsonObject { { u"promptTokenCount"_s, 10 }, { u"totalTokenCount"_s, 10 } } } });
        case EngineType::Replay:
            break;
        }
        return {};
    }

    QString path(const QString &model) const
    {
        switch (type) {
        case EngineType::OpenAI:
        case EngineType::OpenAICompatible:
            return u"/v1/chat/completions"_s;
        case EngineType::OpenAIResponses:
            return u"/v1/responses"_s;
        case EngineType::Anthropic:
            return u"/v1/messages"_s;
        case EngineType::Gemini:
            return u"/v1beta/models/"_s + model + u":generateContent"_s;
        case EngineType::Replay:
            break;
        }
        return {};
    }

    // The auth header and the value carrying the key.
    std::pair<QByteArray, QByteArray> auth() const
    {
        switch (type) {
        case EngineType::Anthropic:
            return { "x-api-key", kKey };
        case EngineType::Gemini:
            return { "x-goog-api-key", kKey };
        default:
            return { "authorization", "Bearer "_ba + kKey };
        }
    }

    std::optional<int> maxTokens(const QJsonObject &body) const
    {
        QJsonValue v;
        switch (type) {
        case EngineType::OpenAI:
            v = body.value(u"max_completion_tokens"_s);
            break;
        case EngineType::OpenAICompatible:
        case EngineType::Anthropic:
            v = body.value(u"max_tokens"_s);
            break;
        case EngineType::OpenAIResponses:
            v = body.value(u"max_output_tokens"_s);
            break;
        case EngineType::Gemini:
            v = body.value(u"generationConfig"_s).toObject().value(u"maxOutputTokens"_s);
            break;
        case EngineType::Replay:
            break;
        }
        return v.isDouble() ? std::optional<int>(v.toInt()) : std::nullopt;
    }

    // The native messages of a request body.
    QJsonArray messages(const QJsonObject &body) const
    {
        switch (type) {
        case EngineType::OpenAIResponses:
            return body.value(u"input"_s).toArray();
        case EngineType::Gemini:
            return body.value(u"contents"_s).toArray();
        default:
            return body.value(u"messages"_s).toArray();
        }
    }

    // The tool result in the last native message, as (call id or name, content text).
    std::pair<QString, QString> lastToolResult(const QJsonObject &body) const
    {
        const QJsonArray msgs = messages(body);
        const QJsonObject last = msgs.last().toObject();
        switch (type) {
        case EngineType::OpenAI:
        case EngineType::OpenAICompatible:
            return { last.value(u"tool_call_id"_s).toString(),
                     last.value(u"content"_s).toString() };
        case EngineType::OpenAIResponses:
            return { last.value(u"call_id"_s).toString(), last.value(u"output"_s).toString() };
        case EngineType::Anthropic: {
            const QJsonObject block = last.value(u"content"_s).toArray().at(0).toObject();
            QString content = block.value(u"content"_s).toString();
            if (block.value(u"content"_s).isArray())
                content = block.value(u"content"_s)
                              .toArray()
                              .at(0)
                              .toObject()
                              .value(u"text"_s)
                              .toString();
            return { block.value(u"tool_use_id"_s).toString(), content };
        }
        case EngineType::Gemini: {
            const QJsonObject fr = last.value(u"parts"_s)
                                       .toArray()
                                       .at(0)
                                       .toObject()
                                       .value(u"functionResponse"_s)
                                       .toObject();
            const QJsonObject response = fr.value(u"response"_s).toObject();
            QString content = response.value(u"result"_s).toString();
            if (content.isEmpty())
                content = response.value(u"content"_s).toString();
            if (content.isEmpty())
                content = response.value(u"output"_s).toString();
            return { fr.value(u"id"_s).toString().isEmpty() ? fr.value(u"name"_s).toString()
                                                            : fr.value(u"id"_s).toString(),
                     content };
        }
        case EngineType::Replay:
            break;
        }
        return {};
    }
};

QJsonObject planSchema()
{
    return QJsonObject { { u"type"_s, u"object"_s },
                         { u"properties"_s,
                           QJsonObject {
                               { u"title"_s, QJsonObject { { u"type"_s, u"string"_s } } } } },
                         { u"required"_s, QJsonArray { u"title"_s } },
                         { u"additionalProperties"_s, false } };
}

// A schema that OpenAI and Anthropic change for native output: a keyword they do not enforce,
// an optional property, no additionalProperties.
QJsonObject nativeSchema()
{
    return QJsonObject {
        { u"type"_s, u"object"_s },
        { u"properties"_s,
          QJsonObject {
              { u"title"_s, QJsonObject { { u"type"_s, u"string"_s }, { u"minLength"_s, 3 } } },
              { u"note"_s, QJsonObject { { u"type"_s, u"string"_s } } } } },
        { u"required"_s, QJsonArray { u"title"_s } }
    };
}

// The native field each engine must receive for nativeSchema(), written out by hand.
QJsonValue expectedNativeField(EngineType type)
{
    const QJsonObject strictSchema =
        QJsonDocument::fromJson(
            R"J({"type":"object","properties":{"title":{"type":"string","description":"(minLength: 3)"},"note":{"type":["string","null"]}},"required":["title","note"],"additionalProperties":false})J")
            .object();
    const QJsonObject anthropicSchema =
        QJsonDocument::fromJson(
            R"J({"type":"object","properties":{"title":{"type":"string","description":"(minLength: 3)"},"note":{"type":"string"}},"required":["title"],"additionalProperties":false})J")
            .object();
    switch (type) {
    case EngineType::OpenAI:
        return QJsonObject { { u"type"_s, u"json_schema"_s },
                             { u"json_schema"_s,
                               QJsonObject { { u"name"_s, u"planner"_s },
                                             { u"schema"_s, strictSchema },
                                             { u"strict"_s, true } } } };
    case EngineType::OpenAICompatible:
        return QJsonObject { { u"type"_s, u"json_schema"_s },
                             { u"json_schema"_s,
                               QJsonObject { { u"name"_s, u"planner"_s },
                                             { u"schema"_s, nativeSchema() } } } };
    case EngineType::OpenAIResponses:
        return QJsonObject { { u"format"_s,
                               QJsonObject { { u"type"_s, u"json_schema"_s },
                                             { u"name"_s, u"planner"_s },
                                             { u"schema"_s, strictSchema },
                                             { u"strict"_s, true } } } };
    case EngineType::Anthropic:
        return QJsonObject { { u"format"_s,
                               QJsonObject { { u"type"_s, u"json_schema"_s },
                                             { u"schema"_s, anthropicSchema } } } };
    case EngineType::Gemini:
        return QJsonObject { { u"responseMimeType"_s, u"application/json"_s },
                             { u"responseJsonSchema"_s, nativeSchema() } };
    case EngineType::Replay:
        break;
    }
    return {};
}

QJsonObject ticketTool()
{
    return QJsonObject {
        { u"name"_s, u"get_ticket"_s },
        { u"description"_s, u"Load a ticket by id."_s },
        { u"input_schema"_s,
          QJsonObject {
              { u"type"_s, u"object"_s },
              { u"properties"_s,
                QJsonObject { { u"id"_s, QJsonObject { { u"type"_s, u"integer"_s } } } } } } },
        { u"mock"_s, u"Ticket 7: login times out"_s }
    };
}

class Env
{
public:
    Env()
    {
        db = std::move(Database::open(dir.filePath(u"history.sqlite"_s)).value());
        store = std::make_unique<CallStore>(*db);
        service = std::make_unique<CallService>(&nam, store.get(), nullptr, nullptr);
        service->setInactivityTimeoutMs(5000);
        qputenv("CALLSCOPE_TEST_KEY", kKey);
    }

    Spec spec(EngineType type, QJsonObject extra = {})
    {
        QJsonObject engine { { u"type"_s, engineTypeName(type) },
                             { u"model"_s, u"test-model"_s },
                             { u"base_url"_s, server.baseUrl().toString() },
                             { u"api_key_env"_s, u"CALLSCOPE_TEST_KEY"_s },
                             { u"stream"_s, false },
                             { u"max_tokens"_s, 64 } };
        const QJsonObject engineExtra = extra.take(u"engine"_s).toObject();
        for (auto it = engineExtra.begin(); it != engineExtra.end(); ++it)
            engine.insert(it.key(), it.value());
        QJsonObject object { { u"kind"_s, u"planner"_s },
                             { u"system_prompt"_s, u"Plan the work."_s },
                             { u"response_schema"_s, planSchema() },
                             { u"tools"_s, QJsonArray { ticketTool() } },
                             { u"engine"_s, engine } };
        for (auto it = extra.begin(); it != extra.end(); ++it)
            object.insert(it.key(), it.value());
        const SpecLoadResult loaded = specFromJson(object);
        if (!loaded.spec)
            qFatal("bad test spec: %s",
                   qPrintable(loaded.errors.value(0).pointer + u" "_s
                              + loaded.errors.value(0).message));
        return *loaded.spec;
    }

    // Runs the job `start` returns to its end; `compactions` (when given) spies on the job's
    // compactionFinished.
    LaunchResult run(const std::function<CallJob *()> &start,
                     std::unique_ptr<QSignalSpy> *compactions = nullptr)
    {
        CallJob *job = start();
        QSignalSpy finished(job, &CallJob::finished);
        if (compactions)
            *compactions = std::make_unique<QSignalSpy>(job, &CallJob::compactionFinished);
        if (!finished.wait(20000))
            return {};
        return finished.at(0).at(0).value<LaunchResult>();
    }

    LaunchResult launch(const Spec &spec, const QString &input = u"Plan ticket 7"_s,
                        std::optional<qint64> session = {})
    {
        LaunchRequest request;
        request.spec = spec;
        request.input.text = input;
        request.sessionId = session;
        return run([&] { return service->launch(request); });
    }

    QTemporaryDir dir;
    FakeProvider server;
    QNetworkAccessManager nam;
    std::unique_ptr<Database> db;
    std::unique_ptr<CallStore> store;
    std::unique_ptr<CallService> service;
};

void addEngineRows()
{
    QTest::addColumn<int>("engine");
    for (EngineType t : { EngineType::OpenAI, EngineType::OpenAIResponses, EngineType::Anthropic,
                          EngineType::Gemini, EngineType::OpenAICompatible })
        QTest::newRow(qPrintable(engineTypeName(t))) << int(t);
}

QByteArray fileBytes(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

Q_DECLARE_METATYPE(Callscope::LaunchResult)

class TestRunnerHttp : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { qRegisterMetaType<LaunchResult>(); }
    void happyPath_data() { addEngineRows(); }
    void happyPath();
    void refusal_data() { addEngineRows(); }
    void refusal();
    void truncationReask_data() { addEngineRows(); }
    void truncationReask();
    void revise_data() { addEngineRows(); }
    void revise();
    void transientFailureWritesNothing();
    void authErrorNotRetried();
    void streamedFixtureDrivesTheLoop();
    void budgetStubsOldResults();
    void sessionTurnsMixAndOutputCopyNotResent();
    void keyNeverStored();
    void exchangesKeptWithTheCall();
    void mcpServerToolInTheLoop();
    void remoteMcpServerInTheLoop();
    void mcpAnnotationsDecideApproval();
    void compactionByPolicy();
    void replayOnAnotherEngine();
    void failedSummaryLetsTurnGoAhead();

    // Output modes
    void nativeValidInOneTurn_data() { addEngineRows(); }
    void nativeValidInOneTurn();
    void nativeInvalidThenCorrected_data() { addEngineRows(); }
    void nativeInvalidThenCorrected();
    void nativeWithTools_data() { addEngineRows(); }
    void nativeWithTools();
    void nativeTruncationReask_data() { addEngineRows(); }
    void nativeTruncationReask();
    void nativeRefusal_data() { addEngineRows(); }
    void nativeRefusal();
    void nativeRecordedReplies();
    void nativeStreamed();
    void promptedFenceWithProse_data() { addEngineRows(); }
    void promptedFenceWithProse();
    void promptedInvalidThenCorrected_data() { addEngineRows(); }
    void promptedInvalidThenCorrected();

    // HTTPS, with a server that offers HTTP/2
    void callOverHttpsOfferingHttp2();
    void floodOverHttpsStopsAtCap();
};

void TestRunnerHttp::happyPath()
{
    QFETCH(int, engine);
    const Wire wire { EngineType(engine) };
    Env env;
    QVERIFY(env.server.listen());
    env.server.enqueue(FakeReply::json(
        200, wire.toolCall(u"call_1"_s, u"get_ticket"_s, { { u"id"_s, 7 } }, 100, 20)));
    env.server.enqueue(FakeReply::json(200,
                                       wire.toolCall(u"call_2"_s, u"submit_output"_s,
                                                     { { u"title"_s, u"Fix login"_s } }, 150, 30)));
    const LaunchResult result = env.launch(env.spec(wire.type));

    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    QVERIFY2(result.stored, qPrintable(result.storeError));
    QCOMPARE(result.record.response.toObject(), QJsonObject({ { u"title"_s, u"Fix login"_s } }));
    QCOMPARE(env.server.requestCount(), 2);
    QCOMPARE(result.record.usage.inputTokens, 250);
    QCOMPARE(result.record.usage.outputTokens, 50);

    for (const RecordedRequest &r : env.server.requests()) {
        QCOMPARE(QString::fromLatin1(r.target).section(u'?', 0, 0), wire.path(u"test-model"_s));
        QCOMPARE(r.header(wire.auth().first), wire.auth().second);
        // Both tools are declared, submit_output with the response schema.
        const QByteArray body = compact(r.jsonObject());
        QVERIFY2(body.contains("\"get_ticket\"") && body.contains("\"submit_output\""),
                 body.constData());
        QVERIFY(body.contains("Plan the work."));
    }
    // The tool result went back paired with its call, in the engine's own shape.
    const auto [pairedWith, content] =
        wire.lastToolResult(env.server.requests().at(1).jsonObject());
    QCOMPARE(pairedWith, u"call_1"_s);
    QCOMPARE(content, u"Ticket 7: login times out"_s);

    // The stored row.
    auto stored = env.store->getCall(result.record.id);
    QVERIFY(stored);
    QCOMPARE(stored.value().engineType, engineTypeName(wire.type));
    QCOMPARE(stored.value().model, u"test-model"_s);
    QCOMPARE(stored.value().turns.size(), 2);
    QCOMPARE(stored.value().turns.at(0).finishReason, FinishReason::ToolCalls);
    QCOMPARE(stored.value().response, result.record.response);
    QVERIFY(!stored.value().transcript.isEmpty());
    QVERIFY(compact(stored.value().transcript).contains("Ticket 7: login times out"));
}

void TestRunnerHttp::refusal()
{
    QFETCH(int, engine);
    const Wire wire { EngineType(engine) };
    Env env;
    QVERIFY(env.server.listen());
    QJsonObject marker { { u"name"_s, u"touch_marker"_s },
                         { u"description"_s, u"Leaves a file behind."_s },
                         { u"command"_s,
                           QJsonArray { u"/bin/sh"_s, u"-c"_s, u"cat > \"$0\""_s,
                                        env.dir.filePath(u"ran"_s) } } };
    env.server.enqueue(FakeReply::json(200, wire.refusal(u"touch_marker"_s)));
    env.server.enqueue(FakeReply::json(
        200, wire.toolCall(u"c2"_s, u"submit_output"_s, { { u"title"_s, u"x"_s } })));
    const LaunchResult result =
        env.launch(env.spec(wire.type, { { u"tools"_s, QJsonArray { marker } } }));
    QCOMPARE(callStatusName(result.record.status), u"failed"_s);
    QCOMPARE(errorCategoryName(result.record.errorCategory), u"refusal"_s);
    QVERIFY(!result.record.error.isEmpty());
    QCOMPARE(env.server.requestCount(), 1); // no correction
    QVERIFY(!QFile::exists(env.dir.filePath(u"ran"_s))); // no tool ran
    if (wire.type == EngineType::Anthropic)
        QVERIFY2(result.record.error.startsWith(u"cyber"_s), qPrintable(result.record.error));
}

void TestRunnerHttp::truncationReask()
{
    QFETCH(int, engine);
    const Wire wire { EngineType(engine) };
    Env env;
    QVERIFY(env.server.listen());
    env.server.enqueue(FakeReply::json(200, wire.truncated(u"{\"title\": \"Fix lo"_s)));
    env.server.enqueue(FakeReply::json(
        200, wire.toolCall(u"c2"_s, u"submit_output"_s, { { u"title"_s, u"Fix login"_s } })));
    const Spec spec = env.spec(
        wire.type,
        { { u"engine"_s, QJsonObject { { u"max_tokens"_s, 32 } } },
          { u"retry"_s,
            QJsonObject { { u"max_attempts"_s, 3 },
                          { u"reask"_s, true },
                          { u"per_attempt_override"_s,
                            QJsonArray { QJsonObject { { u"max_tokens"_s, 256 } } } } } } });
    const LaunchResult result = env.launch(spec);
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    QCOMPARE(env.server.requestCount(), 2);
    QCOMPARE(wire.maxTokens(env.server.requests().at(0).jsonObject()).value_or(-1), 32);
    QCOMPARE(wire.maxTokens(env.server.requests().at(1).jsonObject()).value_or(-1), 256);
    // The fragment went back as an assistant turn, the correction as a user turn.
    const QByteArray second = compact(wire.messages(env.server.requests().at(1).jsonObject()));
    QVERIFY2(second.contains("Fix lo"), second.constData());
    QVERIFY(second.contains("ran out of room"));

    // Without the retry policy the same reply fails the call.
    Env plain;
    QVERIFY(plain.server.listen());
    plain.server.enqueue(FakeReply::json(200, wire.truncated(u"{\"title\": \"Fix lo"_s)));
    const LaunchResult failed = plain.launch(plain.spec(wire.type));
    QCOMPARE(callStatusName(failed.record.status), u"failed"_s);
    QCOMPARE(plain.server.requestCount(), 1);
}

void TestRunnerHttp::revise()
{
    QFETCH(int, engine);
    const Wire wire { EngineType(engine) };
    Env env;
    QVERIFY(env.server.listen());
    env.server.enqueue(
        FakeReply::json(200, wire.toolCall(u"call_1"_s, u"get_ticket"_s, { { u"id"_s, 7 } })));
    env.server.enqueue(FakeReply::json(
        200, wire.toolCall(u"call_2"_s, u"submit_output"_s, { { u"title"_s, u"Fix login"_s } })));
    const LaunchResult first = env.launch(env.spec(wire.type));
    QCOMPARE(callStatusName(first.record.status), u"completed"_s);

    env.server.enqueue(FakeReply::json(200,
                                       wire.toolCall(u"call_3"_s, u"submit_output"_s,
                                                     { { u"title"_s, u"Fix login quickly"_s } })));
    const LaunchResult second =
        env.run([&] { return env.service->revise(first.record.id, u"Make the title urgent."_s); });
    QCOMPARE(callStatusName(second.record.status), u"completed"_s);
    QCOMPARE(second.record.parent.value_or(-1), first.record.id);
    QCOMPARE(second.record.response.toObject().value(u"title"_s).toString(),
             u"Fix login quickly"_s);
    QCOMPARE(env.server.requestCount(), 3);
    // The revision's request replays the parent's conversation plus the correction.
    const QJsonArray sent = wire.messages(env.server.requests().at(2).jsonObject());
    const QByteArray text = compact(sent);
    QVERIFY(text.contains("Plan ticket 7"));
    QVERIFY(text.contains("Ticket 7: login times out"));
    QVERIFY(text.contains("call_2") || wire.type == EngineType::Gemini);
    QVERIFY2(compact(sent.last().toObject()).contains("Make the title urgent."), text.constData());
    // Same engine type, stored as a child of the first.
    QCOMPARE(second.record.engineType, first.record.engineType);
    auto children = env.store->children(first.record.id);
    QVERIFY(children);
    QCOMPARE(children.value().size(), 1);
    QCOMPARE(children.value().at(0).id, second.record.id);
}

void TestRunnerHttp::transientFailureWritesNothing()
{
    const Wire wire { EngineType::OpenAI };
    Env env;
    QVERIFY(env.server.listen());
    env.server.enqueue(
        FakeReply::json(503, R"({"error":{"message":"overloaded","type":"server_error"}})")
            .withHeader("retry-after-ms", "20"));
    env.server.enqueue(
        FakeReply::json(200, wire.toolCall(u"call_1"_s, u"get_ticket"_s, { { u"id"_s, 7 } })));
    env.server.enqueue(FakeReply::json(
        200, wire.toolCall(u"call_2"_s, u"submit_output"_s, { { u"title"_s, u"T"_s } })));
    const LaunchResult result = env.launch(env.spec(wire.type));
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    QCOMPARE(env.server.requestCount(), 3);
    // The failed attempt is on record as an attempt, and nowhere in the conversation.
    QCOMPARE(result.record.attempts.size(), 3);
    QCOMPARE(result.record.attempts.at(0).httpStatus, 503);
    QCOMPARE(result.record.turns.size(), 2);
    const QList<Message> messages = messagesFromJson(result.record.messages);
    int assistantTurns = 0;
    for (const Message &m : messages)
        assistantTurns += m.role == Role::Assistant ? 1 : 0;
    QCOMPARE(assistantTurns, 2);
    // The retried request is byte-identical to the failed one.
    QCOMPARE(env.server.requests().at(1).body, env.server.requests().at(0).body);
}

void TestRunnerHttp::authErrorNotRetried()
{
    Env env;
    QVERIFY(env.server.listen());
    env.server.enqueue(FakeReply::json(
        401,
        R"({"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}})"));
    const LaunchResult result = env.launch(env.spec(EngineType::Anthropic));
    QCOMPARE(callStatusName(result.record.status), u"failed"_s);
    QCOMPARE(errorCategoryName(result.record.errorCategory), u"auth"_s);
    QVERIFY2(result.record.error.contains(u"invalid x-api-key"_s), qPrintable(result.record.error));
    QCOMPARE(env.server.requestCount(), 1);
}

void TestRunnerHttp::streamedFixtureDrivesTheLoop()
{
    // A recorded Anthropic stream (text, then a tool_use assembled from input_json_delta) as
    // the first turn; the loop runs the tool and ends with a streamed submit_output.
    const QString fixture = sharedDataPath(u"wire-fixtures/anthropic/stream_tool_use.sse"_s);
    QVERIFY2(!fixture.isEmpty(), qPrintable(lastError()));
    Env env;
    QVERIFY(env.server.listen());
    env.server.enqueue(FakeReply::sseFile(fixture).dripped(7, 1));
    const QByteArray submit =
        R"({"type":"message_start","message":{"id":"msg_2","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"usage":{"input_tokens":30,"output_tokens":1}}})";
    env.server.enqueue(FakeReply::sseEvents({
        { "message_start", submit },
        { "content_block_start",
          R"({"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_s","name":"submit_output","input":{}}})" },
        { "content_block_delta",
          R"({"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"title\": "}})" },
        { "content_block_delta",
          R"({"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"\"Streamed\"}"}})" },
        { "content_block_stop", R"({"type":"content_block_stop","index":0})" },
        { "message_delta",
          R"({"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":12}})" },
        { "message_stop", R"({"type":"message_stop"})" },
    }));
    // The fixture's tool is get_weather: offer it as a mock.
    QJsonObject weather { { u"name"_s, u"get_weather"_s },
                          { u"description"_s, u"Weather."_s },
                          { u"mock"_s, u"sunny"_s } };
    const Spec spec = env.spec(EngineType::Anthropic,
                               { { u"engine"_s, QJsonObject { { u"stream"_s, true } } },
                                 { u"tools"_s, QJsonArray { weather } } });
    QStringList deltas;
    connect(env.service.get(), &CallService::jobAdded, this, [this, &deltas](CallJob *job) {
        connect(job, &CallJob::runnerCreated, this, [&deltas](Runner *runner) {
            connect(runner, &Runner::textDelta, runner,
                    [&deltas](const QString &d) { deltas.append(d); });
        });
    });
    const LaunchResult result = env.launch(spec);
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    QCOMPARE(result.record.response.toObject().value(u"title"_s).toString(), u"Streamed"_s);
    QVERIFY(!deltas.isEmpty()); // text arrived as it streamed
    QCOMPARE(env.server.requests().at(0).jsonObject().value(u"stream"_s).toBool(), true);
    const QJsonArray second =
        env.server.requests().at(1).jsonObject().value(u"messages"_s).toArray();
    const QJsonObject result0 =
        second.last().toObject().value(u"content"_s).toArray().at(0).toObject();
    QCOMPARE(result0.value(u"type"_s).toString(), u"tool_result"_s);
    QVERIFY(result0.value(u"tool_use_id"_s).toString().startsWith(u"toolu_"_s));
}

void TestRunnerHttp::budgetStubsOldResults()
{
    // Ten 5,000-character results; the engine's budget keeps 5,000 tokens (20,000 chars) of
    // large results: the newest 4 in full, the older ones as stubs.
    const Wire wire { EngineType::OpenAI };
    Env env;
    QVERIFY(env.server.listen());
    QJsonArray results;
    for (int i = 0; i < 10; ++i)
        results.append(
            QString(u"result %1\n"_s.arg(i)).repeated(1).leftJustified(5000, QChar(u'a' + i)));
    QJsonObject search { { u"name"_s, u"search_docs"_s },
                         { u"description"_s, u"Search."_s },
                         { u"mock"_s, results } };
    for (int i = 0; i < 10; ++i)
        env.server.enqueue(FakeReply::json(
            200, wire.toolCall(u"call_%1"_s.arg(i), u"search_docs"_s, { { u"q"_s, i } })));
    env.server.enqueue(FakeReply::json(
        200, wire.toolCall(u"call_end"_s, u"submit_output"_s, { { u"title"_s, u"done"_s } })));
    const Spec spec =
        env.spec(wire.type,
                 { { u"tools"_s, QJsonArray { search } },
                   { u"max_turns"_s, 12 },
                   { u"engine"_s, QJsonObject { { u"tool_results_tokens"_s, 5000 } } },
                   { u"context"_s, QJsonObject { { u"tool_results_in_context"_s, 4 } } } });
    const LaunchResult result = env.launch(spec);
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    QCOMPARE(env.server.requestCount(), 11);
    // The last request carries results 0..9; with N = 4 and 20,000 chars of budget only the
    // newest four fit, so results 0..5 are stubs.
    const QJsonArray last =
        env.server.requests().at(10).jsonObject().value(u"messages"_s).toArray();
    int seen = 0;
    for (const QJsonValue &v : last) {
        const QJsonObject m = v.toObject();
        if (m.value(u"role"_s).toString() != u"tool")
            continue;
        const int i = seen++;
        const QString content = m.value(u"content"_s).toString();
        QCOMPARE(m.value(u"tool_call_id"_s).toString(), u"call_%1"_s.arg(i));
        if (i < 6)
            QCOMPARE(content, stubText(u"search_docs"_s, results.at(i).toString()));
        else
            QCOMPARE(content, results.at(i).toString());
    }
    QCOMPARE(seen, 10);
    // The stored transcript keeps every result in full.
    const QByteArray stored = compact(result.record.transcript);
    for (const QJsonValue &r : results)
        QVERIFY(stored.contains(r.toString().right(4000).toUtf8()));
    QVERIFY(!stored.contains("trimmed from context"));
    // And the report of the last turn says why.
    const QJsonObject report = result.record.turns.last().requestReport;
    QVERIFY2(compact(report).contains("over_budget"), compact(report).left(400).constData());
    QCOMPARE(report.value(u"provider_input_tokens"_s).toInteger(), 10); // the provider's own count
    QVERIFY(report.value(u"totals"_s).isObject() || report.contains(u"messages"_s));
}

void TestRunnerHttp::sessionTurnsMixAndOutputCopyNotResent()
{
    const Wire wire { EngineType::OpenAI };
    Env env;
    QVERIFY(env.server.listen());
    Session session;
    session.title = u"Planning"_s;
    session.systemPrompt = u"You are terse."_s;
    const qint64 sessionId = env.store->createSession(session).value();

    // A structured call in the session...
    env.server.enqueue(FakeReply::json(
        200, wire.toolCall(u"c1"_s, u"submit_output"_s, { { u"title"_s, u"First plan"_s } })));
    const LaunchResult first = env.launch(env.spec(wire.type), u"Plan A"_s, sessionId);
    QCOMPARE(callStatusName(first.record.status), u"completed"_s);
    QCOMPARE(first.record.session.value_or(-1), sessionId);
    QVERIFY(first.record.firstSequence && first.record.lastSequence);
    // The session prompt was added for that turn.
    QCOMPARE(env.server.requests()
                 .at(0)
                 .jsonObject()
                 .value(u"messages"_s)
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(u"content"_s)
                 .toString(),
             u"You are terse.\n\nPlan the work."_s);

    // ...then an ordinary chat turn (no schema) in the same session.
    env.server.enqueue(FakeReply::json(
        200,
        R"({"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"\"ok\""},"finish_reason":"stop"}]})"));
    Spec chat = env.spec(wire.type);
    chat.responseSchema.reset();
    chat.tools.clear();
    chat.kind = u"chat"_s;
    const LaunchResult second = env.launch(chat, u"Thanks"_s, sessionId);
    QCOMPARE(callStatusName(second.record.status), u"completed"_s);
    const QByteArray sent = compact(env.server.requests().at(1).jsonObject().value(u"messages"_s));
    QVERIFY(sent.contains("Plan A"));
    QVERIFY(sent.contains("submit_output")); // the earlier call's turn is in the history
    // The accepted-output copy is stored but never sent back.
    auto all = env.store->sessionMessages(sessionId);
    QVERIFY(all);
    bool hasCopy = false;
    for (const SessionMessage &m : all.value())
        hasCopy |= !m.sendToModel && m.message.text.contains(u"First plan"_s);
    QVERIFY(hasCopy);
    int copiesSent = 0;
    for (const QJsonValue &m :
         env.server.requests().at(1).jsonObject().value(u"messages"_s).toArray())
        copiesSent += (m.toObject().value(u"role"_s) == u"assistant"_s
                       && m.toObject().value(u"content"_s).toString().contains(u"First plan"_s))
            ? 1
            : 0;
    QCOMPARE(copiesSent, 0);
    auto calls = env.store->sessionCalls(sessionId);
    QVERIFY(calls);
    QCOMPARE(calls.value().size(), 2);
}

void TestRunnerHttp::keyNeverStored()
{
    const Wire wire { EngineType::OpenAI };
    Env env;
    QVERIFY(env.server.listen());
    env.server.enqueue(FakeReply::json(
        200, wire.toolCall(u"c1"_s, u"submit_output"_s, { { u"title"_s, u"T"_s } })));
    const LaunchResult result = env.launch(env.spec(wire.type));
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    QCOMPARE(env.server.requests().at(0).header("authorization"), "Bearer "_ba + kKey);
    env.store.reset();
    env.db.reset();
    const QStringList files = QDir(env.dir.path()).entryList(QDir::Files);
    QVERIFY(!files.isEmpty());
    for (const QString &f : files)
        QVERIFY2(!fileBytes(env.dir.filePath(f)).contains(kKey), qPrintable(f));
    QVERIFY(!compact(result.record.toJson()).contains(kKey));
}

// Each request of the tool loop is stored with the call: the body exactly as the server got
// it (the attachment's bytes replaced by a placeholder), the HTTP status and the reply's head,
// cut at 256 KiB with its whole size kept. Neither the key nor the attachment's bytes reach
// the database, even when a reply echoes the key.
void TestRunnerHttp::exchangesKeptWithTheCall()
{
    const Wire wire { EngineType::OpenAI };
    Env env;
    QVERIFY(env.server.listen());
    // A first reply of about 600 KiB (an extra field the codec ignores).
    QJsonObject big =
        QJsonDocument::fromJson(wire.toolCall(u"call_1"_s, u"get_ticket"_s, { { u"id"_s, 7 } }))
            .object();
    big.insert(u"x_padding"_s, QString(600 * 1024, u'p'));
    const QByteArray bigBody = compact(big);
    env.server.enqueue(FakeReply::json(200, bigBody));
    // The second echoes the key, as some error bodies quote the request.
    QJsonObject echo = QJsonDocument::fromJson(wire.toolCall(u"call_2"_s, u"submit_output"_s,
                                                             { { u"title"_s, u"Fix login"_s } }))
                           .object();
    echo.insert(u"x_echo"_s, QString::fromLatin1(kKey));
    env.server.enqueue(FakeReply::json(200, compact(echo)));

    QByteArray pixels(3000, Qt::Uninitialized);
    for (qsizetype i = 0; i < pixels.size(); ++i)
        pixels[i] = char((i * 37 + 11) % 251);
    LaunchRequest request;
    request.spec = env.spec(wire.type);
    request.input.text = u"Plan ticket 7"_s;
    request.input.attachments = { Attachment::fromData(u"pixel.png"_s, u"image/png"_s, pixels) };
    const LaunchResult result = env.run([&] { return env.service->launch(request); });
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    QVERIFY2(result.stored, qPrintable(result.storeError));
    QCOMPARE(env.server.requestCount(), 2);

    const auto exchanges = env.store->exchanges(result.record.id);
    QVERIFY2(exchanges, qPrintable(exchanges.error().message));
    QCOMPARE(exchanges->size(), 2);
    const QByteArray dataUri = "data:image/png;base64," + pixels.toBase64();
    const QByteArray placeholder = "[attachment pixel.png (image/png, 3000 bytes) not kept]";
    for (int i = 0; i < 2; ++i) {
        const TurnExchange &e = exchanges->at(i);
        QCOMPARE(e.turn, i);
        QCOMPARE(e.httpStatus, 200);
        QVERIFY(!e.replayed);
        QVERIFY(!e.requestCut());
        // What the server received, with the attachment's data URI replaced.
        const QByteArray received = compact(env.server.requests().at(i).jsonObject());
        QVERIFY2(received.contains(dataUri), "the image was not sent");
        QByteArray expected = received;
        expected.replace(dataUri, placeholder);
        QCOMPARE(QJsonDocument::fromJson(e.request).object(),
                 QJsonDocument::fromJson(expected).object());
        QVERIFY(!e.request.contains(pixels.toBase64()));
        QCOMPARE(e.requestBytes, qint64(e.request.size()));
    }
    QCOMPARE(exchanges->at(0).attempt, 0);
    QCOMPARE(exchanges->at(1).attempt, 1);
    // The big reply: its first 256 KiB and its whole size.
    QCOMPARE(exchanges->at(0).response.size(), TurnExchange::kMaxResponseBytes);
    QCOMPARE(exchanges->at(0).responseBytes, qint64(bigBody.size()));
    QCOMPARE(exchanges->at(0).response, bigBody.left(TurnExchange::kMaxResponseBytes));
    // The small one whole, the key in it masked.
    const QByteArray second = exchanges->at(1).response;
    QVERIFY2(!second.contains(kKey), second.constData());
    QCOMPARE(QJsonDocument::fromJson(second).object().value(u"x_echo"_s).toString(), u"***"_s);
    QCOMPARE(exchanges->at(1).responseBytes, qint64(second.size()));

    // The history load stays light: no bodies in the call itself.
    const auto stored = env.store->getCall(result.record.id);
    QVERIFY(stored && stored->exchanges.isEmpty());

    env.store.reset();
    env.db.reset();
    const QStringList files = QDir(env.dir.path()).entryList(QDir::Files);
    QVERIFY(!files.isEmpty());
    for (const QString &f : files) {
        const QByteArray bytes = fileBytes(env.dir.filePath(f));
        QVERIFY2(!bytes.contains(kKey), qPrintable(f));
        QVERIFY2(!bytes.contains(pixels.toBase64()), qPrintable(f));
    }
    QVERIFY(files.join(u' ').contains(u"history.sqlite"_s));
}

void TestRunnerHttp::mcpServerToolInTheLoop()
{
    QString npmDir = QString::fromLocal8Bit(qgetenv("CALLSCOPE_NPM_DIR"));
    if (npmDir.isEmpty())
        npmDir = QDir(QStringLiteral(CALLSCOPE_SOURCE_DIR)).filePath(u"tests/npm"_s);
    const QString entry = QDir(npmDir).filePath(
        u"node_modules/@modelcontextprotocol/server-everything/dist/index.js"_s);
    QVERIFY2(QFile::exists(entry),
             qPrintable(u"MCP reference server missing: "_s + entry
                        + u" (run npm install in tests/npm)"_s));
    const Wire wire { EngineType::OpenAI };
    Env env;
    QVERIFY(env.server.listen());
    env.server.enqueue(FakeReply::json(
        200, wire.toolCall(u"c1"_s, u"echo"_s, { { u"message"_s, u"hi from the loop"_s } })));
    env.server.enqueue(FakeReply::json(
        200, wire.toolCall(u"c2"_s, u"submit_output"_s, { { u"title"_s, u"T"_s } })));
    const Spec spec =
        env.spec(wire.type,
                 { { u"tools"_s,
                     QJsonArray { QJsonObject { { u"name"_s, u"echo"_s },
                                                { u"mcp"_s, u"everything"_s } } } },
                   { u"mcp_servers"_s,
                     QJsonObject {
                         { u"everything"_s,
                           QJsonObject { { u"command"_s,
                                           QJsonArray { u"node"_s, entry, u"stdio"_s } } } } } } });
    const LaunchResult result = env.launch(spec);
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    // The server's own description and schema were declared.
    const QJsonArray tools = env.server.requests().at(0).jsonObject().value(u"tools"_s).toArray();
    QCOMPARE(tools.at(0).toObject().value(u"function"_s).toObject().value(u"name"_s).toString(),
             u"echo"_s);
    QVERIFY(!tools.at(0)
                 .toObject()
                 .value(u"function"_s)
                 .toObject()
                 .value(u"description"_s)
                 .toString()
                 .isEmpty());
    const auto [id, content] = wire.lastToolResult(env.server.requests().at(1).jsonObject());
    QCOMPARE(id, u"c1"_s);
    QCOMPARE(content, u"Echo: hi from the loop"_s);
}

namespace {

QString npmEverything()
{
    QString npmDir = QString::fromLocal8Bit(qgetenv("CALLSCOPE_NPM_DIR"));
    if (npmDir.isEmpty())
        npmDir = QDir(QStringLiteral(CALLSCOPE_SOURCE_DIR)).filePath(u"tests/npm"_s);
    return QDir(npmDir).filePath(
        u"node_modules/@modelcontextprotocol/server-everything/dist/index.js"_s);
}

} // namespace

void TestRunnerHttp::remoteMcpServerInTheLoop()
{
    const QString entry = npmEverything();
    QVERIFY2(QFile::exists(entry), qPrintable(u"MCP reference server missing: "_s + entry));
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
    const quint16 port = probe.serverPort();
    probe.close();
    QProcess everything;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(u"PORT"_s, QString::number(port));
    everything.setProcessEnvironment(environment);
    everything.setProcessChannelMode(QProcess::MergedChannels);
    everything.start(u"node"_s, { entry, u"streamableHttp"_s });
    QByteArray output;
    QVERIFY2(QTest::qWaitFor(
                 [&] {
                     output += everything.readAll();
                     return output.contains(QByteArray::number(port));
                 },
                 20000),
             output.constData());
    const auto stop = qScopeGuard([&] {
        everything.terminate();
        if (!everything.waitForFinished(3000))
            everything.kill();
        everything.waitForFinished(2000);
    });

    const Wire wire { EngineType::OpenAI };
    Env env;
    QVERIFY(env.server.listen());
    env.server.enqueue(FakeReply::json(
        200, wire.toolCall(u"c1"_s, u"echo"_s, { { u"message"_s, u"hi over http"_s } })));
    env.server.enqueue(FakeReply::json(
        200, wire.toolCall(u"c2"_s, u"submit_output"_s, { { u"title"_s, u"T"_s } })));
    const QString url = u"http://127.0.0.1:%1/mcp"_s.arg(port);
    const Spec spec =
        env.spec(wire.type,
                 { { u"tools"_s,
                     QJsonArray { QJsonObject { { u"name"_s, u"echo"_s },
                                                { u"mcp"_s, u"everything"_s } } } },
                   { u"mcp_servers"_s,
                     QJsonObject { { u"everything"_s, QJsonObject { { u"url"_s, url } } } } } });
    const LaunchResult result = env.launch(spec);
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    const auto [id, content] = wire.lastToolResult(env.server.requests().at(1).jsonObject());
    QCOMPARE(id, u"c1"_s);
    QCOMPARE(content, u"Echo: hi over http"_s);
}

void TestRunnerHttp::mcpAnnotationsDecideApproval()
{
    const QString fake = QDir(QStringLiteral(CALLSCOPE_SOURCE_DIR))
                             .filePath(u"tests/data/tools/fake_mcp_server.js"_s);
    const Wire wire { EngineType::OpenAI };
    const QJsonObject servers {
        { u"fake"_s, QJsonObject { { u"command"_s, QJsonArray { u"node"_s, fake } } } }
    };
    for (const bool overridden : { false, true }) {
        Env env;
        QVERIFY(env.server.listen());
        env.server.enqueue(FakeReply::json(200, wire.toolCall(u"c1"_s, u"wipe_disk"_s, {})));
        env.server.enqueue(FakeReply::json(200, wire.toolCall(u"c2"_s, u"read_notes"_s, {})));
        env.server.enqueue(FakeReply::json(
            200, wire.toolCall(u"c3"_s, u"submit_output"_s, { { u"title"_s, u"T"_s } })));
        QJsonObject wipe { { u"name"_s, u"wipe_disk"_s }, { u"mcp"_s, u"fake"_s } };
        if (overridden)
            wipe.insert(u"requires_approval"_s, false); // the spec's word beats the annotation
        const Spec spec = env.spec(wire.type,
                                   { { u"tools"_s,
                                       QJsonArray { wipe,
                                                    QJsonObject { { u"name"_s, u"read_notes"_s },
                                                                  { u"mcp"_s, u"fake"_s } } } },
                                     { u"mcp_servers"_s, servers } });
        const LaunchResult result = env.launch(spec); // unattended: no one can approve
        QCOMPARE(callStatusName(result.record.status), u"completed"_s);
        const auto [id1, wiped] = wire.lastToolResult(env.server.requests().at(1).jsonObject());
        QCOMPARE(id1, u"c1"_s);
        if (overridden)
            QCOMPARE(wiped, u"wipe_disk ran"_s);
        else
            QVERIFY2(wiped.contains(u"needs a person's approval"_s), qPrintable(wiped));
        const auto [id2, notes] = wire.lastToolResult(env.server.requests().at(2).jsonObject());
        QCOMPARE(id2, u"c2"_s);
        QCOMPARE(notes, u"read_notes ran"_s); // read-only: runs unattended
    }
}

namespace {

QByteArray chatText(const QString &text, int in = 10, int out = 5)
{
    return compact(QJsonObject {
        { u"id"_s, u"c"_s },
        { u"object"_s, u"chat.completion"_s },
        { u"model"_s, u"m"_s },
        { u"choices"_s,
          QJsonArray { QJsonObject {
              { u"index"_s, 0 },
              { u"message"_s,
                QJsonObject { { u"role"_s, u"assistant"_s }, { u"content"_s, text } } },
              { u"finish_reason"_s, u"stop"_s } } } },
        { u"usage"_s,
          QJsonObject { { u"prompt_tokens"_s, in },
                        { u"completion_tokens"_s, out },
                        { u"total_tokens"_s, in + out } } } });
}

// Three chat turns in a session, the last one reporting a large prompt.
qint64 chattySession(Env &env, Spec &chat)
{
    Session session;
    session.title = u"Long chat"_s;
    const qint64 id = env.store->createSession(session).value();
    chat = env.spec(EngineType::OpenAI);
    chat.responseSchema.reset();
    chat.tools.clear();
    chat.kind = u"chat"_s;
    chat.outputParser = u"text"_s;
    const QStringList questions { u"First question about apples"_s, u"Second about bananas"_s,
                                  u"Third about cherries"_s };
    for (int i = 0; i < questions.size(); ++i) {
        env.server.enqueue(FakeReply::json(
            200, chatText(u"Answer %1"_s.arg(i + 1), i == 2 ? 9000 : 100, i == 2 ? 2000 : 10)));
        const LaunchResult r = env.launch(chat, questions.at(i), id);
        if (r.record.status != CallStatus::Completed)
            qWarning("chat turn %d failed: %s", i, qPrintable(r.record.error));
    }
    return id;
}

} // namespace

void TestRunnerHttp::compactionByPolicy()
{
    Env env;
    QVERIFY(env.server.listen());
    Spec chat;
    const qint64 sessionId = chattySession(env, chat);
    const qsizetype rowsBefore = env.store->sessionMessages(sessionId).value().size();
    QCOMPARE(rowsBefore, 6);
    QCOMPARE(env.server.requestCount(), 3);

    // The last request used 9,000 + 2,000 tokens, over the 10,000 limit: the next turn first
    // folds all but the newest 2 messages into a summary.
    env.server.enqueue(FakeReply::json(
        200, chatText(u"The user asked about apples and bananas; answers 1 and 2 were given."_s)));
    env.server.enqueue(FakeReply::json(200, chatText(u"Answer 4"_s)));
    std::unique_ptr<QSignalSpy> spy;
    LaunchRequest request;
    request.spec = chat;
    request.input.text = u"Fourth about dates"_s;
    request.sessionId = sessionId;
    request.compaction = CompactionPolicy { 10000, 2 };
    const quint64 checksBefore = preflightCount();
    const LaunchResult result = env.run([&] { return env.service->launch(request); }, &spy);
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    // The compaction job ran under the turn's check: one for both calls.
    QCOMPARE(preflightCount() - checksBefore, 1u);
    QSignalSpy &compacted = *spy;
    QCOMPARE(compacted.size(), 1);
    QCOMPARE(compacted.at(0).at(1).toBool(), true);
    const qint64 summaryCallId = compacted.at(0).at(3).toLongLong();
    QVERIFY(summaryCallId > 0);

    QCOMPARE(env.server.requestCount(), 5);
    // Request 4 is the summary call: it reads the four folded messages.
    const QByteArray summaryRequest = compact(env.server.requests().at(3).jsonObject());
    QVERIFY(summaryRequest.contains("First question about apples"));
    QVERIFY(summaryRequest.contains("Answer 2"));
    QVERIFY(!summaryRequest.contains("Third about cherries"));
    // Request 5 carries the summary instead of the folded messages, then the kept ones.
    const QByteArray turn = compact(env.server.requests().at(4).jsonObject().value(u"messages"_s));
    QVERIFY2(turn.contains("The user asked about apples and bananas"), turn.constData());
    QVERIFY(!turn.contains("First question about apples"));
    QVERIFY(turn.contains("Third about cherries"));
    QVERIFY(turn.contains("Fourth about dates"));

    // Stored: the summary call with kind compaction, its range; no message row deleted.
    auto summaryCall = env.store->getCall(summaryCallId);
    QVERIFY(summaryCall);
    QCOMPARE(summaryCall.value().kind, u"compaction"_s);
    auto compactions = env.store->compactions(sessionId);
    QCOMPARE(compactions.value().size(), 1);
    QCOMPARE(compactions.value().at(0).firstSequence, 1);
    QCOMPARE(compactions.value().at(0).lastSequence, 4);
    QCOMPARE(env.store->sessionMessages(sessionId).value().size(), rowsBefore + 2);
}

void TestRunnerHttp::replayOnAnotherEngine()
{
    Env env;
    QVERIFY(env.server.listen());
    const Wire openai { EngineType::OpenAI };
    const Wire anthropic { EngineType::Anthropic };
    env.server.enqueue(FakeReply::json(
        200, openai.toolCall(u"c1"_s, u"submit_output"_s, { { u"title"_s, u"From OpenAI"_s } })));
    const LaunchResult original = env.launch(env.spec(EngineType::OpenAI), u"Plan ticket 9"_s);
    QCOMPARE(callStatusName(original.record.status), u"completed"_s);

    env.server.enqueue(FakeReply::json(200,
                                       anthropic.toolCall(u"toolu_1"_s, u"submit_output"_s,
                                                          { { u"title"_s, u"From Claude"_s } })));
    const LaunchResult replayed = env.run(
        [&] { return env.service->rerun(original.record.id, env.spec(EngineType::Anthropic)); });
    QCOMPARE(callStatusName(replayed.record.status), u"completed"_s);
    QCOMPARE(replayed.record.engineType, u"anthropic"_s);
    QCOMPARE(replayed.record.parent.value_or(-1), original.record.id);
    QCOMPARE(replayed.record.metadata.value(u"rerun_of"_s).toString(),
             QString::number(original.record.id));
    // The same input went to the other engine, in its own wire shape.
    const RecordedRequest &sent = env.server.requests().at(1);
    QCOMPARE(QString::fromLatin1(sent.target), u"/v1/messages"_s);
    QCOMPARE(sent.jsonObject()
                     .value(u"messages"_s)
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(u"content"_s)
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(u"text"_s)
                     .toString()
                     .isEmpty()
                 ? sent.jsonObject()
                       .value(u"messages"_s)
                       .toArray()
                       .at(0)
                       .toObject()
                       .value(u"content"_s)
                       .toString()
                 : sent.jsonObject()
                       .value(u"messages"_s)
                       .toArray()
                       .at(0)
                       .toObject()
                       .value(u"content"_s)
                       .toArray()
                       .at(0)
                       .toObject()
                       .value(u"text"_s)
                       .toString(),
             u"Plan ticket 9"_s);
    auto children = env.store->children(original.record.id);
    QCOMPARE(children.value().size(), 1);
}

void TestRunnerHttp::failedSummaryLetsTurnGoAhead()
{
    Env env;
    QVERIFY(env.server.listen());
    Spec chat;
    const qint64 sessionId = chattySession(env, chat);
    env.server.enqueue(FakeReply::json(
        400, R"({"error":{"message":"context too long","type":"invalid_request_error"}})"));
    env.server.enqueue(FakeReply::json(200, chatText(u"Answer 4"_s)));
    std::unique_ptr<QSignalSpy> spy;
    LaunchRequest request;
    request.spec = chat;
    request.input.text = u"Fourth about dates"_s;
    request.sessionId = sessionId;
    request.compaction = CompactionPolicy { 10000, 2 };
    const LaunchResult result = env.run([&] { return env.service->launch(request); }, &spy);
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    QSignalSpy &compacted = *spy;
    QCOMPARE(compacted.size(), 1);
    QCOMPARE(compacted.at(0).at(1).toBool(), false);
    QVERIFY(compacted.at(0).at(2).toString().contains(u"context too long"_s));
    // The turn went ahead with the whole history.
    const QByteArray turn = compact(env.server.requests().at(4).jsonObject().value(u"messages"_s));
    QVERIFY(turn.contains("First question about apples"));
    QVERIFY(env.store->compactions(sessionId).value().isEmpty());
}

// ---------------------------------------------------------------------------------------------
// Output modes

namespace {
Spec modeSpec(Env &env, EngineType type, const QString &mode, QJsonObject extra = {})
{
    extra.insert(u"output_mode"_s, mode);
    if (!extra.contains(u"response_schema"_s))
        extra.insert(u"response_schema"_s, nativeSchema());
    return env.spec(type, extra);
}
} // namespace

void TestRunnerHttp::nativeValidInOneTurn()
{
    QFETCH(int, engine);
    const Wire wire { EngineType(engine) };
    Env env;
    QVERIFY(env.server.listen());
    // OpenAI strict made the optional "note" required and nullable: its null means absent.
    const bool strict = wire.type == EngineType::OpenAI || wire.type == EngineType::OpenAIResponses;
    env.server.enqueue(
        FakeReply::json(200,
                        wire.text(strict ? u"{\"title\": \"Fix login\", \"note\": null}"_s
                                         : u"{\"title\": \"Fix login\"}"_s,
                                  40, 9)));
    const LaunchResult result = env.launch(modeSpec(env, wire.type, u"native"_s));
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    QCOMPARE(result.record.response.toObject(), QJsonObject({ { u"title"_s, u"Fix login"_s } }));
    QCOMPARE(env.server.requestCount(), 1);
    const QJsonObject body = env.server.requests().at(0).jsonObject();
    // The exact native field (name, strict flag, the schema as this engine gets it).
    QCOMPARE(wire.nativeField(body), expectedNativeField(wire.type));
    // The spec's tools are offered, submit_output is not.
    QCOMPARE(wire.toolNames(body), QStringList { u"get_ticket"_s });
    QVERIFY(!compact(body).contains("Answer with one JSON value"));

    // The output is an assistant text message; the mode is part of the stored record.
    auto stored = env.store->getCall(result.record.id);
    QVERIFY(stored);
    const QJsonArray messages = stored.value().messages;
    const QJsonObject last = messages.last().toObject();
    QCOMPARE(last.value(u"role"_s).toString(), u"assistant"_s);
    QVERIFY2(compact(last).contains("Fix login") && !compact(messages).contains("submit_output"),
             compact(messages).constData());
    QCOMPARE(stored.value().spec.value(u"output_mode"_s).toString(), u"native"_s);
    QCOMPARE(stored.value().metadata.value(u"output_mode"_s).toString(), u"native"_s);
}

void TestRunnerHttp::nativeInvalidThenCorrected()
{
    QFETCH(int, engine);
    const Wire wire { EngineType(engine) };
    Env env;
    QVERIFY(env.server.listen());
    env.server.enqueue(FakeReply::json(200, wire.text(u"{\"title\": \"no\", \"extra\": 1}"_s)));
    env.server.enqueue(FakeReply::json(200, wire.text(u"{\"title\": \"Fix login\"}"_s)));
    const LaunchResult result = env.launch(modeSpec(env, wire.type, u"native"_s));
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    QCOMPARE(env.server.requestCount(), 2);
    // The correction is a user turn with every violation at its pointer, and the schema.
    const QJsonArray second = wire.messages(env.server.requests().at(1).jsonObject());
    const QByteArray correction = compact(second.last());
    QVERIFY2(correction.contains("/title") && correction.contains("The full schema"),
             correction.constData());
    QVERIFY2(correction.contains("minLength"), correction.constData());
    QVERIFY2(compact(second).contains("\\\"no\\\""),
             compact(second).constData()); // the invalid answer went back as the model's turn
    const QString role = second.last().toObject().value(u"role"_s).toString();
    QVERIFY2(role == u"user" || (wire.type == EngineType::OpenAIResponses && role == u"user"),
             qPrintable(role));
    // Both requests carry the native field.
    QCOMPARE(wire.nativeField(env.server.requests().at(1).jsonObject()),
             expectedNativeField(wire.type));
    QCOMPARE(result.record.turns.at(0).note, u"validation_failed"_s);
}

void TestRunnerHttp::nativeWithTools()
{
    QFETCH(int, engine);
    const Wire wire { EngineType(engine) };
    Env env;
    QVERIFY(env.server.listen());
    env.server.enqueue(
        FakeReply::json(200, wire.toolCall(u"call_1"_s, u"get_ticket"_s, { { u"id"_s, 7 } })));
    env.server.enqueue(FakeReply::json(200, wire.text(u"{\"title\": \"Fix login timeout\"}"_s)));
    const LaunchResult result = env.launch(modeSpec(env, wire.type, u"native"_s));
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    QCOMPARE(result.record.response.toObject(),
             QJsonObject({ { u"title"_s, u"Fix login timeout"_s } }));
    QCOMPARE(env.server.requestCount(), 2);
    const auto [pairedWith, content] =
        wire.lastToolResult(env.server.requests().at(1).jsonObject());
    QCOMPARE(pairedWith, u"call_1"_s);
    QCOMPARE(content, u"Ticket 7: login times out"_s);
    for (const RecordedRequest &r : env.server.requests())
        QCOMPARE(wire.nativeField(r.jsonObject()), expectedNativeField(wire.type));
}

void TestRunnerHttp::nativeTruncationReask()
{
    QFETCH(int, engine);
    const Wire wire { EngineType(engine) };
    Env env;
    QVERIFY(env.server.listen());
    env.server.enqueue(FakeReply::json(200, wire.truncated(u"{\"title\": \"Fix lo"_s)));
    env.server.enqueue(FakeReply::json(200, wire.text(u"{\"title\": \"Fix login\"}"_s)));
    const Spec spec = modeSpec(
        env, wire.type, u"native"_s,
        { { u"engine"_s, QJsonObject { { u"max_tokens"_s, 32 } } },
          { u"retry"_s,
            QJsonObject { { u"max_attempts"_s, 3 },
                          { u"reask"_s, true },
                          { u"per_attempt_override"_s,
                            QJsonArray { QJsonObject { { u"max_tokens"_s, 256 } } } } } } });
    const LaunchResult result = env.launch(spec);
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    QCOMPARE(env.server.requestCount(), 2);
    QCOMPARE(wire.maxTokens(env.server.requests().at(0).jsonObject()).value_or(-1), 32);
    QCOMPARE(wire.maxTokens(env.server.requests().at(1).jsonObject()).value_or(-1), 256);
    const QByteArray second = compact(wire.messages(env.server.requests().at(1).jsonObject()));
    QVERIFY2(second.contains("Fix lo") && second.contains("ran out of room"), second.constData());
}

void TestRunnerHttp::nativeRefusal()
{
    QFETCH(int, engine);
    const Wire wire { EngineType(engine) };
    Env env;
    QVERIFY(env.server.listen());
    env.server.enqueue(FakeReply::json(200, wire.refusal(u"get_ticket"_s)));
    env.server.enqueue(FakeReply::json(200, wire.text(u"{\"title\": \"Fix login\"}"_s)));
    const LaunchResult result = env.launch(modeSpec(env, wire.type, u"native"_s));
    QCOMPARE(callStatusName(result.record.status), u"failed"_s);
    QCOMPARE(errorCategoryName(result.record.errorCategory), u"refusal"_s);
    QCOMPARE(env.server.requestCount(), 1); // no correction
}

void TestRunnerHttp::nativeRecordedReplies()
{
    // Recorded native replies drive the loop: Gemini's JSON-output cassette and Ollama's
    // json_schema cassette, each with the schema its request carried.
    struct Case
    {
        EngineType type;
        QString file;
        QJsonObject expected;
    };
    const QList<Case> cases = {
        { EngineType::Gemini, u"gemini/native_output_json_schema.cassette.json"_s,
          QJsonObject { { u"city"_s, u"Mexico City"_s }, { u"country"_s, u"Mexico"_s } } },
        { EngineType::OpenAICompatible,
          u"local_openai_compat/ollama_json_schema.cassette.json"_s,
          {} },
    };
    for (const Case &c : cases) {
        const QJsonObject cassette =
            readJson(sharedDataPath(u"wire-fixtures/"_s + c.file)).toObject();
        const QJsonObject interaction =
            cassette.value(u"interactions"_s).toArray().at(0).toObject();
        QVERIFY2(!interaction.isEmpty(), qPrintable(c.file));
        const QJsonObject requestBody =
            interaction.value(u"request"_s).toObject().value(u"body"_s).toObject();
        const QJsonObject schema = c.type == EngineType::Gemini
            ? requestBody.value(u"generationConfig"_s)
                  .toObject()
                  .value(u"responseJsonSchema"_s)
                  .toObject()
            : requestBody.value(u"response_format"_s)
                  .toObject()
                  .value(u"json_schema"_s)
                  .toObject()
                  .value(u"schema"_s)
                  .toObject();
        QVERIFY2(!schema.isEmpty(), qPrintable(c.file));
        const QJsonObject responseBody =
            interaction.value(u"response"_s).toObject().value(u"body"_s).toObject();
        Env env;
        QVERIFY(env.server.listen());
        env.server.enqueue(FakeReply::json(200, compact(responseBody)));
        const Spec spec =
            modeSpec(env, c.type, u"native"_s,
                     { { u"response_schema"_s, schema }, { u"tools"_s, QJsonArray {} } });
        const LaunchResult result = env.launch(spec);
        QVERIFY2(result.record.status == CallStatus::Completed,
                 qPrintable(c.file + u": "_s + result.record.error));
        QCOMPARE(env.server.requestCount(), 1);
        QVERIFY(result.record.response.isObject());
        if (!c.expected.isEmpty())
            QCOMPARE(result.record.response.toObject(), c.expected);
        const QJsonValue sent =
            Wire { c.type }.nativeField(env.server.requests().at(0).jsonObject());
        QVERIFY2(compact(sent).contains(compact(schema)) || c.type == EngineType::Gemini,
                 compact(sent).constData());
    }
}

void TestRunnerHttp::nativeStreamed()
{
    // A streamed native answer: the JSON arrives in text deltas (OpenAI Chat and Anthropic).
    const QStringList pieces = { u"{\"ti"_s, u"tle\": \"Fix "_s, u"login\"}"_s };
    for (const EngineType type : { EngineType::OpenAI, EngineType::Anthropic }) {
        Env env;
        QVERIFY(env.server.listen());
        QList<std::pair<QByteArray, QByteArray>> events;
        const auto event = [&events](const QByteArray &name, const QByteArray &data) {
            events.append(std::make_pair(name, data));
        };
        if (type == EngineType::OpenAI) {
            for (const QString &p : pieces)
                event(
                    QByteArray(),
                    compact(QJsonObject { { u"object"_s, u"chat.completion.chunk"_s },
                                          { u"choices"_s,
                                            QJsonArray { QJsonObject {
                                                { u"index"_s, 0 },
                                                { u"delta"_s, QJsonObject { { u"content"_s, p } } },
                                                { u"finish_reason"_s, QJsonValue() } } } } }));
            event(QByteArray(),
                  compact(QJsonObject {
                      { u"object"_s, u"chat.completion.chunk"_s },
                      { u"choices"_s,
                        QJsonArray { QJsonObject { { u"index"_s, 0 },
                                                   { u"delta"_s, QJsonObject {} },
                                                   { u"finish_reason"_s, u"stop"_s } } } } }));
            event(QByteArray(), "[DONE]");
        } else {
            event(
                "message_start",
                R"({"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"usage":{"input_tokens":12,"output_tokens":1}}})");
            event(
                "content_block_start",
                R"({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}})");
            for (const QString &p : pieces)
                event("content_block_delta",
                      compact(QJsonObject {
                          { u"type"_s, u"content_block_delta"_s },
                          { u"index"_s, 0 },
                          { u"delta"_s,
                            QJsonObject { { u"type"_s, u"text_delta"_s }, { u"text"_s, p } } } }));
            event("content_block_stop", R"({"type":"content_block_stop","index":0})");
            event(
                "message_delta",
                R"({"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":9}})");
            event("message_stop", R"({"type":"message_stop"})");
        }
        env.server.enqueue(FakeReply::sseEvents(events));
        const LaunchResult result = env.launch(modeSpec(
            env, type, u"native"_s, { { u"engine"_s, QJsonObject { { u"stream"_s, true } } } }));
        QVERIFY2(result.record.status == CallStatus::Completed,
                 qPrintable(engineTypeName(type) + u": "_s + result.record.error));
        QCOMPARE(result.record.response.toObject(),
                 QJsonObject({ { u"title"_s, u"Fix login"_s } }));
        const QJsonObject body = env.server.requests().at(0).jsonObject();
        QCOMPARE(body.value(u"stream"_s).toBool(), true);
        QCOMPARE(Wire { type }.nativeField(body), expectedNativeField(type));
    }
}

void TestRunnerHttp::promptedFenceWithProse()
{
    QFETCH(int, engine);
    const Wire wire { EngineType(engine) };
    Env env;
    QVERIFY(env.server.listen());
    env.server.enqueue(FakeReply::json(
        200,
        wire.text(
            u"Here is the plan:\n```json\n{\"title\": \"Fix login\"}\n```\nTell me if you need more."_s)));
    const LaunchResult result = env.launch(modeSpec(env, wire.type, u"prompted"_s));
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    QCOMPARE(result.record.response.toObject(), QJsonObject({ { u"title"_s, u"Fix login"_s } }));
    QCOMPARE(env.server.requestCount(), 1);
    const QJsonObject body = env.server.requests().at(0).jsonObject();
    QVERIFY(wire.nativeField(body).isUndefined());
    QCOMPARE(wire.toolNames(body), QStringList { u"get_ticket"_s });
    // The instruction and the original schema follow the spec's system prompt.
    const QByteArray text = compact(body);
    QVERIFY2(
        text.contains(
            "Plan the work.\\n\\nAnswer with one JSON value that matches the JSON Schema below."),
        text.constData());
    QVERIFY2(text.contains("\\\"minLength\\\": 3"), text.constData());
    QCOMPARE(result.record.metadata.value(u"output_mode"_s).toString(), u"prompted"_s);
}

void TestRunnerHttp::promptedInvalidThenCorrected()
{
    QFETCH(int, engine);
    const Wire wire { EngineType(engine) };
    Env env;
    QVERIFY(env.server.listen());
    env.server.enqueue(FakeReply::json(200, wire.text(u"Sure! {\"title\": 7}"_s)));
    env.server.enqueue(FakeReply::json(200, wire.text(u"not json at all"_s)));
    env.server.enqueue(FakeReply::json(200, wire.text(u"```\n{\"title\": \"Fix login\"}\n```"_s)));
    const LaunchResult result = env.launch(modeSpec(env, wire.type, u"prompted"_s));
    QCOMPARE(callStatusName(result.record.status), u"completed"_s);
    QCOMPARE(env.server.requestCount(), 3);
    const QByteArray first =
        compact(wire.messages(env.server.requests().at(1).jsonObject()).last());
    QVERIFY2(first.contains("/title") && first.contains("The full schema"), first.constData());
    const QByteArray second =
        compact(wire.messages(env.server.requests().at(2).jsonObject()).last());
    QVERIFY2(second.contains("not valid JSON"), second.constData());
    QCOMPARE(result.record.turns.at(0).note, u"validation_failed"_s);
    QCOMPARE(result.record.turns.at(1).note, u"parse_failed"_s);
}

namespace {

QByteArray chatDelta(const QString &text)
{
    return "data: "
        + compact(QJsonObject {
            { u"object"_s, u"chat.completion.chunk"_s },
            { u"choices"_s,
              QJsonArray { QJsonObject { { u"index"_s, 0 },
                                         { u"delta"_s, QJsonObject { { u"content"_s, text } } },
                                         { u"finish_reason"_s, QJsonValue() } } } } })
        + "\n\n";
}

// A call spec whose text answer becomes {"title": text}, against `port` over HTTPS.
Spec httpsTitleSpec(int port)
{
    const QJsonObject object {
        { u"kind"_s, u"call"_s },
        { u"system_prompt"_s, u"Give the title."_s },
        { u"response_schema"_s,
          QJsonObject {
              { u"type"_s, u"object"_s },
              { u"properties"_s,
                QJsonObject { { u"title"_s, QJsonObject { { u"type"_s, u"string"_s } } } } },
              { u"required"_s, QJsonArray { u"title"_s } },
              { u"additionalProperties"_s, false } } },
        { u"text_output"_s, QJsonObject { { u"field"_s, u"title"_s } } },
        { u"max_turns"_s, 1 },
        { u"engine"_s,
          QJsonObject { { u"type"_s, u"openai"_s },
                        { u"model"_s, u"gpt-fault"_s },
                        { u"base_url"_s, u"https://127.0.0.1:%1"_s.arg(port) },
                        { u"api_key_env"_s, u"CALLSCOPE_TEST_KEY"_s },
                        { u"stream"_s, true } } },
        { u"retry"_s, QJsonObject { { u"max_attempts"_s, 3 } } },
    };
    const SpecLoadResult loaded = specFromJson(object);
    if (!loaded.spec)
        qFatal("bad test spec: %s", qPrintable(loaded.errors.value(0).message));
    return *loaded.spec;
}

QString noHttp2(const TlsFaultServer &server)
{
    for (const TlsFaultServer::Connection &c : server.connections()) {
        if (c.alpn == u"h2"_s || c.preface)
            return u"connection %1 spoke HTTP/2"_s.arg(c.id);
    }
    return server.connections().isEmpty() ? u"no connection"_s : QString();
}

} // namespace

// A whole call (spec, service, engine, store) over HTTPS against a server offering HTTP/2, as
// providers do: the first try is cut off inside the reply's headers, the second streams the
// answer. One stored call, two stored attempts with the backoff between them, two POSTs, and
// none of it over HTTP/2 (docs/http.md says why).
void TestRunnerHttp::callOverHttpsOfferingHttp2()
{
    QString why;
    QVERIFY2(TlsFaultServer::available(&why), qPrintable(why));
    QVERIFY2(TlsFaultServer::trustTestCertificate(&why), qPrintable(why));
    const QList<QPair<QByteArray, QByteArray>> sse { { "content-type", "text/event-stream" } };
    TlsFaultServer::Behavior cut;
    cut.action = u"drop_in_headers"_s;
    cut.headers = sse;
    TlsFaultServer::Behavior ok;
    ok.headers = sse;
    ok.body = chatDelta(u"Fix "_s) + chatDelta(u"login"_s)
        + "data: "
          "{\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_"
          "reason\":\"stop\"}]}\n\n"
          "data: "
          "{\"object\":\"chat.completion.chunk\",\"choices\":[],\"usage\":{\"prompt_tokens\":10,"
          "\"completion_tokens\":5,\"total_tokens\":15}}\n\n"
          "data: [DONE]\n\n";
    TlsFaultServer server;
    QVERIFY2(server.start({ cut, ok }), qPrintable(server.errorString()));
    Env env;
    const LaunchResult result = env.launch(httpsTitleSpec(server.port()), u"Name the bug"_s);

    QVERIFY2(result.record.status == CallStatus::Completed, qPrintable(result.record.error));
    QVERIFY2(result.stored, qPrintable(result.storeError));
    QCOMPARE(result.record.response.toObject(), QJsonObject({ { u"title"_s, u"Fix login"_s } }));
    auto stored = env.store->getCall(result.record.id);
    QVERIFY(stored);
    const QList<AttemptRecord> attempts = stored.value().attempts;
    QCOMPARE(attempts.size(), 2);
    QCOMPARE(attempts[0].outcome, u"retry"_s);
    QVERIFY2(attempts[0].delayMs >= 375 && attempts[0].delayMs <= 500,
             qPrintable(QString::number(attempts[0].delayMs)));
    QCOMPARE(attempts[1].outcome, u"ok"_s);
    QCOMPARE(attempts[1].httpStatus, 200);
    QCOMPARE(stored.value().usage.outputTokens, 5);

    const QList<TlsFaultServer::Request> requests = server.requests();
    QCOMPARE(requests.size(), 2);
    for (const TlsFaultServer::Request &r : requests) {
        QCOMPARE(r.method, "POST"_ba);
        QCOMPARE(r.path, "/v1/chat/completions"_ba);
        QVERIFY(r.authorization);
    }
    const qint64 gap = requests[1].receivedAtMs - requests[0].endedAtMs;
    QVERIFY2(gap >= attempts[0].delayMs - 30,
             qPrintable(u"gap %1 ms, delay %2 ms"_s.arg(gap).arg(attempts[0].delayMs)));
    const QString problem = noHttp2(server);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

// Valid deltas without end over HTTPS, through a whole call: the call fails at the 64 MiB cap,
// is stored, and the server could send little more than the cap.
void TestRunnerHttp::floodOverHttpsStopsAtCap()
{
    QString why;
    QVERIFY2(TlsFaultServer::available(&why), qPrintable(why));
    QVERIFY2(TlsFaultServer::trustTestCertificate(&why), qPrintable(why));
    TlsFaultServer::Behavior flood;
    flood.action = u"flood"_s;
    flood.headers = { { "content-type", "text/event-stream" } };
    flood.body = chatDelta(u"Title: "_s);
    flood.chunk = chatDelta(u"tok "_s).repeated(2048);
    TlsFaultServer server;
    QVERIFY2(server.start({ flood }), qPrintable(server.errorString()));
    Env env;
    const LaunchResult result = env.launch(httpsTitleSpec(server.port()), u"Name the bug"_s);

    QCOMPARE(callStatusName(result.record.status), u"failed"_s);
    QCOMPARE(errorCategoryName(result.record.errorCategory), u"other"_s);
    QVERIFY2(result.record.error.contains(u"exceeded 64 MiB"_s), qPrintable(result.record.error));
    QVERIFY2(result.stored, qPrintable(result.storeError));
    auto stored = env.store->getCall(result.record.id);
    QVERIFY(stored);
    QCOMPARE(stored.value().attempts.size(), 1);
    // The server logged how the answer ended (the client closed it): its byte count is final.
    QTRY_VERIFY_WITH_TIMEOUT(
        !server.requests().isEmpty() && !server.requests().constFirst().how.isEmpty(), 20000);
    const QList<TlsFaultServer::Request> requests = server.requests();
    QCOMPARE(requests.size(), 1);
    const qint64 sent = requests[0].bytesSent;
    qInfo("whole call, flood over HTTPS: the server sent %.1f MiB",
          double(sent) / (1024.0 * 1024.0));
    QVERIFY2(sent <= 64 * 1024 * 1024 + 9 * 1024 * 1024, qPrintable(QString::number(sent)));
    const QString problem = noHttp2(server);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

int runRunnerHttpTests(int argc, char **argv)
{
    TestRunnerHttp tests;
    return QTest::qExec(&tests, argc, argv);
}

#include "tst_runner_http.moc"
