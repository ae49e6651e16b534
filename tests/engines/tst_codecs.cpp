// The wire-format half of the engines: SSE decoding, request building, reply and stream
// parsing, errors and the native transcript of every engine, checked against the recorded
// provider traffic in ../shared/data/wire-fixtures and against the OpenAI OpenAPI description.

#include "core/engines/codec_anthropic.h"
#include "core/engines/codec_gemini.h"
#include "core/engines/codec_openaichat.h"
#include "core/engines/codec_openairesponses.h"
#include "core/engines/enginecodec.h"
#include "core/schema/engineschema.h"
#include "core/schema/jsonschema.h"
#include "tests/engines/codectesthelpers.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QSet>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace Callscope;

namespace {

QByteArray fixtureBytes(const QString &relative)
{
    const QString path = Test::sharedDataPath(u"wire-fixtures/"_s + relative);
    if (path.isEmpty())
        return {};
    return Test::readFile(path);
}

QJsonObject fixtureJson(const QString &relative)
{
    return QJsonDocument::fromJson(fixtureBytes(relative)).object();
}

QByteArray dataBytes(const QString &name)
{
    return Test::readFile(Test::engineDataPath(name));
}

QJsonObject parseObject(const QString &text)
{
    return QJsonDocument::fromJson(text.toUtf8()).object();
}

// The fixtures every test below covers; fixturesAreAllCovered() fails when a new one appears.
const QStringList coveredFixtures {
    u"openai_chat/stream_parallel_tool_calls.sse"_s,
    u"openai_chat/stream_refusal.sse"_s,
    u"openai_chat/stream_length.sse"_s,
    u"openai_chat/refusal.json"_s,
    u"openai_chat/tool_calls.json"_s,
    u"openai_chat/length.json"_s,
    u"openai_responses/stream_function_call.sse"_s,
    u"openai_responses/error_400.json"_s,
    u"anthropic/stream_tool_use.sse"_s,
    u"anthropic/stream_text.sse"_s,
    u"anthropic/stream_refusal.sse"_s,
    u"anthropic/parallel_tool_use_roundtrip.cassette.json"_s,
    u"anthropic/error_404.json"_s,
    u"gemini/stream_function_call_roundtrip.cassette.json"_s,
    u"gemini/stream_function_call.sse"_s,
    u"gemini/max_tokens.json"_s,
    u"gemini/native_output_json_schema.cassette.json"_s,
    u"local_openai_compat/ollama_json_schema.cassette.json"_s,
};

#define LOAD_FIXTURE(var, relative)                                                                \
    const QByteArray var = fixtureBytes(relative);                                                 \
    QVERIFY2(!var.isEmpty(), qPrintable(Test::lastError()))

#define LOAD_DATA(var, name)                                                                       \
    const QByteArray var = dataBytes(name);                                                        \
    QVERIFY2(!var.isEmpty(), qPrintable(Test::lastError()))

#define COMPARE_JSON(actual, expected)                                                             \
    QVERIFY2(QJsonValue(actual) == QJsonValue(expected),                                           \
             qPrintable(u"\n  actual:   "_s + Test::compact(QJsonValue(actual))                    \
                        + u"\n  expected: "_s + Test::compact(QJsonValue(expected))))

EngineConfig configFor(EngineType type, const QString &model)
{
    EngineConfig config;
    config.type = type;
    config.model = model;
    config.apiKey = u"sk-test"_s;
    return config;
}

ToolDeclaration weatherTool()
{
    ToolDeclaration tool;
    tool.name = u"get_weather"_s;
    tool.description = u"Weather for a city"_s;
    tool.inputSchema = parseObject(
        uR"({"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false})"_s);
    tool.strict = true;
    return tool;
}

// A conversation that exercises every neutral feature: text, an image, parallel calls, an
// error result, a follow-up.
QList<Message> richConversation()
{
    QList<Message> messages;
    const QByteArray png =
        QByteArray::fromBase64("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+"
                               "M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==");
    messages.append(Message::user(u"What is the weather in Oslo and Bergen? See the map."_s,
                                  { Attachment::fromData(u"map.png"_s, u"image/png"_s, png) }));
    ToolCall a;
    a.id = u"call_1"_s;
    a.name = u"get_weather"_s;
    a.arguments = QJsonObject { { u"city"_s, u"Oslo"_s } };
    a.rawArguments = u"{\"city\":\"Oslo\"}"_s;
    ToolCall b = a;
    b.id = u"call_2"_s;
    b.arguments = QJsonObject { { u"city"_s, u"Bergen"_s } };
    b.rawArguments = u"{\"city\":\"Bergen\"}"_s;
    messages.append(Message::assistant(u"Checking both."_s, { a, b }));
    ToolResult ra { u"call_1"_s, u"get_weather"_s, u"{\"temp\":3}"_s, false, {} };
    ToolResult rb { u"call_2"_s, u"get_weather"_s, u"station offline"_s, true, {} };
    messages.append(Message::toolResultsMessage({ ra, rb }));
    messages.append(Message::assistant(u"Oslo is 3 degrees; Bergen is unknown."_s));
    messages.append(Message::user(u"Thanks"_s));
    return messages;
}

// Turns the OpenAPI description into plain JSON Schema 2020-12:
//  - 3.0 leftovers: {"type": T, "nullable": true} means T or null;
//  - a oneOf with a `discriminator` picks its branch by the discriminator in OpenAPI, so the
//    branches may overlap (EasyInputMessage and InputMessage both accept
//    {"type":"message","role":"user","content":[...]}); JSON Schema has no discriminator, so
//    such a oneOf is read as anyOf.
QJsonValue tolerateNullable(const QJsonValue &value)
{
    if (value.isArray()) {
        QJsonArray out;
        const QJsonArray in = value.toArray();
        for (const QJsonValue &item : in)
            out.append(tolerateNullable(item));
        return out;
    }
    if (!value.isObject())
        return value;
    QJsonObject object = value.toObject();
    for (auto it = object.begin(); it != object.end(); ++it)
        it.value() = tolerateNullable(it.value());
    if (object.contains(u"discriminator"_s) && object.contains(u"oneOf"_s)) {
        object.insert(u"anyOf"_s, object.value(u"oneOf"_s));
        object.remove(u"oneOf"_s);
    }
    if (object.value(u"nullable"_s).toBool()) {
        object.remove(u"nullable"_s);
        const QJsonValue type = object.value(u"type"_s);
        if (type.isString()) {
            object.insert(u"type"_s, QJsonArray { type, u"null"_s });
        } else if (type.isArray()) {
            QJsonArray types = type.toArray();
            if (!types.contains(u"null"_s))
                types.append(u"null"_s);
            object.insert(u"type"_s, types);
        }
        if (object.contains(u"enum"_s)) {
            QJsonArray values = object.value(u"enum"_s).toArray();
            values.append(QJsonValue::Null);
            object.insert(u"enum"_s, values);
        }
    }
    return object;
}

} // namespace

class TestCodecs final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void toolArgumentDeltasAddUpToTheCalls_data();
    void toolArgumentDeltasAddUpToTheCalls();
    void promptCacheRequestBodies();
    void promptCacheUsageNormalised();
    // SSE decoder
    void sseLineEndsAndFields();
    void sseCrLfSplitAcrossChunks();
    void sseNoTrailingBlankLine();
    void sseRunawayLineGuard();
    void sseRawJsonFallback();
    void sseFixturesAnyChunking_data();
    void sseFixturesAnyChunking();

    // Every recorded fixture, with exact neutral results
    void fixturesAreAllCovered();
    void openaiStreamParallelToolCalls();
    void openaiStreamRefusal();
    void openaiStreamLength();
    void openaiJsonRefusal();
    void openaiJsonToolCalls();
    void openaiJsonLength();
    void responsesStreamFunctionCall();
    void responsesError400();
    void anthropicStreamToolUse();
    void anthropicStreamText();
    void anthropicStreamRefusal();
    void anthropicError404();
    void anthropicCassetteRoundTrip();
    void geminiStreamFunctionCall();
    void geminiMaxTokens();
    void geminiCassetteRoundTrip();
    void geminiNativeOutputCassette();
    void ollamaJsonSchemaCassette();

    // Requests
    void requestEndpointsAndAuth_data();
    void requestEndpointsAndAuth();
    void requestToolChoice();
    void requestStructuredOutputAndLimits();
    void requestAttachments();
    void requestExtraBodyMergePatch();

    // Transcripts
    void nativeRoundTrip_data();
    void nativeRoundTrip();
    void anthropicResultsInOneUserMessage();
    void geminiResultsWrapScalars();

    // Replies, streams and errors beyond the fixtures
    void argumentsThatAreNotObjects();
    void refusalsAndSpecialFinishes();
    void midStreamErrors();
    void malformedStreamEvent();
    void paddedAndUnknownAnthropicEvents();
    void compatibleStream();
    void thinkingIsKeptAndEchoed();
    void responsesTextIncomplete();
    void errorClassification();

    // Conformance with the official OpenAI description
    void openApiConformance();

    // The schema each engine accepts (native output)
    void engineSchemaRules_data();
    void engineSchemaRules();
    void engineSchemaEveryEngine();
    void engineSchemaNullsCountAsAbsent();
};

// ---------------------------------------------------------------------------------------------
// SSE decoder

void TestCodecs::sseLineEndsAndFields()
{
    const auto decode = [](const QByteArray &bytes) {
        return Test::decodeChunked(bytes, { bytes.size() + 1 });
    };

    QCOMPARE(decode("data: a\n\n"_ba), (QList<SseEvent> { { u""_s, "a"_ba, u""_s } }));
    QCOMPARE(decode("data:a\r\n\r\n"_ba), (QList<SseEvent> { { u""_s, "a"_ba, u""_s } }));
    QCOMPARE(decode("data:  two spaces\n\n"_ba),
             (QList<SseEvent> { { u""_s, " two spaces"_ba, u""_s } }));
    QCOMPARE(decode("event: upd\ndata: 1\ndata: 2\nid: 7\n\n"_ba),
             (QList<SseEvent> { { u"upd"_s, "1\n2"_ba, u"7"_s } }));
    QCOMPARE(decode(": keep-alive\ndata: c\n:another\n\n"_ba),
             (QList<SseEvent> { { u""_s, "c"_ba, u""_s } }));
    QCOMPARE(decode("data: a\r\rdata: b\r\r"_ba),
             (QList<SseEvent> { { u""_s, "a"_ba, u""_s }, { u""_s, "b"_ba, u""_s } }));
    QCOMPARE(decode("data\n\n"_ba), (QList<SseEvent> { { u""_s, ""_ba, u""_s } }));
    // An event without data is not dispatched, and its name does not leak into the next one.
    QCOMPARE(decode("event: lonely\n\ndata: x\n\n"_ba),
             (QList<SseEvent> { { u""_s, "x"_ba, u""_s } }));
    // The last event id persists (WHATWG), retry and unknown fields are ignored.
    QCOMPARE(decode("id: 1\ndata: a\n\nretry: 10\nfoo: bar\ndata: b\n\n"_ba),
             (QList<SseEvent> { { u""_s, "a"_ba, u"1"_s }, { u""_s, "b"_ba, u"1"_s } }));
    // A leading UTF-8 BOM is skipped, even when it arrives a byte at a time.
    QCOMPARE(Test::decodeChunked("\xEF\xBB\xBF"
                                 "data: bom\n\n"_ba,
                                 { 1 }),
             (QList<SseEvent> { { u""_s, "bom"_ba, u""_s } }));
}

void TestCodecs::sseCrLfSplitAcrossChunks()
{
    // "\r" ends a chunk and "\n" opens the next: ONE line end, so the two data lines belong
    // to one event. Treating the "\n" as a second (blank) line would split it in two.
    SseDecoder decoder;
    QList<SseEvent> events = decoder.feed("data: a\r"_ba);
    QVERIFY(events.isEmpty());
    events += decoder.feed("\ndata: b\r"_ba);
    QVERIFY(events.isEmpty());
    events += decoder.feed("\n"_ba);
    QVERIFY(events.isEmpty());
    events += decoder.feed("\r\n"_ba);
    QCOMPARE(events, (QList<SseEvent> { { u""_s, "a\nb"_ba, u""_s } }));
    QCOMPARE(decoder.pendingBytes(), qsizetype(0));
}

void TestCodecs::sseNoTrailingBlankLine()
{
    SseDecoder decoder;
    QVERIFY(decoder.feed("data: first\n\ndata: last"_ba).size() == 1);
    QCOMPARE(decoder.pendingBytes(), qsizetype(10));
    QCOMPARE(decoder.finish(), (QList<SseEvent> { { u""_s, "last"_ba, u""_s } }));

    SseDecoder second;
    QVERIFY(second.feed("event: e\ndata: x\n"_ba).isEmpty());
    QCOMPARE(second.finish(), (QList<SseEvent> { { u"e"_s, "x"_ba, u""_s } }));
}

void TestCodecs::sseRunawayLineGuard()
{
    // A line that never ends: the decoder gives up past 16 MiB instead of buffering forever.
    SseDecoder decoder;
    const QByteArray mebibyte(1024 * 1024, 'x');
    QVERIFY(decoder.feed("data: "_ba).isEmpty());
    for (int i = 0; i < 15; ++i)
        QVERIFY(decoder.feed(mebibyte).isEmpty());
    QVERIFY(!decoder.hasError()); // 15 MiB + 6 bytes: not yet
    QCOMPARE(decoder.pendingBytes(), qsizetype(15 * 1024 * 1024 + 6));
    QVERIFY(decoder.feed(mebibyte).isEmpty()); // 16 MiB + 6 bytes: too long
    QVERIFY(decoder.hasError());
    QCOMPARE(decoder.pendingBytes(), qsizetype(0));
    QVERIFY(decoder.errorString().contains(u"16 MiB"_s));
    QVERIFY(decoder.feed("\n\ndata: after\n\n"_ba).isEmpty()); // dead from now on
    QVERIFY(decoder.finish().isEmpty());

    // Many short data lines adding up to one huge event trip the same guard.
    SseDecoder lines;
    const QByteArray line = "data: "_ba + mebibyte + "\n"_ba;
    for (int i = 0; i < 17 && !lines.hasError(); ++i)
        QVERIFY(lines.feed(line).isEmpty());
    QVERIFY(lines.hasError());
    QCOMPARE(lines.pendingBytes(), qsizetype(0));
}

void TestCodecs::sseRawJsonFallback()
{
    LOAD_DATA(body, u"gemini_stream_raw_error.sse"_s);
    for (const qsizetype chunk : { qsizetype(1), qsizetype(7), body.size() }) {
        const QList<SseEvent> events = Test::decodeChunked(body, { chunk });
        QCOMPARE(events.size(), 2);
        QCOMPARE(events[0].event, u""_s);
        QCOMPARE(events[1].event, SseEvent::rawJsonEvent());
        const QJsonObject error = QJsonDocument::fromJson(events[1].data).object();
        QCOMPARE(error.value(u"error"_s).toObject().value(u"code"_s).toInt(), 503);
    }
}

void TestCodecs::sseFixturesAnyChunking_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("expectedEvents");
    const QStringList files { u"openai_chat/stream_parallel_tool_calls.sse"_s,
                              u"openai_chat/stream_refusal.sse"_s,
                              u"openai_chat/stream_length.sse"_s,
                              u"openai_responses/stream_function_call.sse"_s,
                              u"anthropic/stream_tool_use.sse"_s,
                              u"anthropic/stream_text.sse"_s,
                              u"anthropic/stream_refusal.sse"_s,
                              u"gemini/stream_function_call.sse"_s };
    for (const QString &file : files) {
        const QByteArray body = fixtureBytes(file);
        QTest::newRow(qPrintable(file))
            << body << int(body.count("\ndata:") + (body.startsWith("data:") ? 1 : 0));
    }
    // The SSE bodies inside the Gemini cassette (CRLF separators).
    const QJsonArray interactions =
        fixtureJson(u"gemini/stream_function_call_roundtrip.cassette.json"_s)
            .value(u"interactions"_s)
            .toArray();
    for (qsizetype i = 0; i < interactions.size(); ++i) {
        const QByteArray body = interactions[i]
                                    .toObject()
                                    .value(u"response"_s)
                                    .toObject()
                                    .value(u"body"_s)
                                    .toString()
                                    .toUtf8();
        QTest::newRow(qPrintable(u"gemini cassette response %1"_s.arg(i)))
            << body << int(body.count("\ndata:") + (body.startsWith("data:") ? 1 : 0));
    }
}

void TestCodecs::sseFixturesAnyChunking()
{
    QFETCH(QByteArray, body);
    QFETCH(int, expectedEvents);
    QVERIFY2(!body.isEmpty(), qPrintable(Test::lastError()));
    QVERIFY(expectedEvents > 1);

    const QList<SseEvent> whole = Test::decodeChunked(body, { body.size() });
    QCOMPARE(whole.size(), expectedEvents);
    for (const SseEvent &event : whole)
        QVERIFY2(QJsonDocument::fromJson(event.data).isObject() || event.data == "[DONE]",
                 event.data.constData());

    QCOMPARE(Test::decodeChunked(body, { 1 }), whole);
    QCOMPARE(Test::decodeChunked(body, { 2, 3 }), whole);
    QRandomGenerator random(20261130u); // seeded: failures reproduce
    for (int round = 0; round < 50; ++round) {
        const int maxChunk = 1 + round * 7;
        const QList<SseEvent> events = Test::decodeRandomly(body, random, maxChunk);
        QVERIFY2(events == whole,
                 qPrintable(u"round %1 (chunks up to %2 bytes)"_s.arg(round).arg(maxChunk)));
    }
}

// ---------------------------------------------------------------------------------------------
// Recorded fixtures

void TestCodecs::fixturesAreAllCovered()
{
    const QString root = Test::sharedDataPath(u"wire-fixtures"_s);
    QVERIFY2(!root.isEmpty(), qPrintable(Test::lastError()));
    QDirIterator it(root, QDir::Files, QDirIterator::Subdirectories);
    int files = 0;
    while (it.hasNext()) {
        const QString relative = QDir(root).relativeFilePath(it.next());
        if (relative == u"README.md" || relative.endsWith(u".cassette.yaml"))
            continue; // the YAML cassettes have JSON twins, which are what we replay
        ++files;
        QVERIFY2(coveredFixtures.contains(relative),
                 qPrintable(u"fixture not covered: "_s + relative));
    }
    QCOMPARE(files, int(coveredFixtures.size()));
}

void TestCodecs::toolArgumentDeltasAddUpToTheCalls_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("engine");
    QTest::addColumn<int>("calls");
    QTest::addColumn<bool>("whole"); // the provider sends each call's arguments in one piece
    QTest::newRow("openai chat") << u"openai_chat/stream_parallel_tool_calls.sse"_s
                                 << int(EngineType::OpenAI) << 2 << false;
    QTest::newRow("openai responses") << u"openai_responses/stream_function_call.sse"_s
                                      << int(EngineType::OpenAIResponses) << 1 << false;
    QTest::newRow("anthropic") << u"anthropic/stream_tool_use.sse"_s << int(EngineType::Anthropic)
                               << 1 << false;
    QTest::newRow("gemini") << u"gemini/stream_function_call.sse"_s << int(EngineType::Gemini) << 1
                            << true;
}

// What the runner checks while a reply streams: every codec hands on each call's argument text
// as it arrives, and the pieces add up to the arguments of the assembled call.
void TestCodecs::toolArgumentDeltasAddUpToTheCalls()
{
    QFETCH(QString, file);
    QFETCH(int, engine);
    QFETCH(int, calls);
    QFETCH(bool, whole);
    LOAD_FIXTURE(body, file);
    const auto codec = createEngineCodec(EngineType(engine));
    const Test::StreamResult result = Test::runStream(*codec, body);
    QVERIFY(!result.error);
    QVERIFY(result.complete);
    QCOMPARE(result.reply.message.toolCalls.size(), calls);
    QCOMPARE(result.toolArguments.size(), calls);
    if (whole)
        QCOMPARE(result.toolFragments, calls);
    else
        QVERIFY2(result.toolFragments > calls, qPrintable(QString::number(result.toolFragments)));
    for (int i = 0; i < calls; ++i) {
        const ToolCall &call = result.reply.message.toolCalls.at(i);
        QCOMPARE(result.toolArguments.at(i).first, call.name);
        QCOMPARE(QJsonDocument::fromJson(result.toolArguments.at(i).second.toUtf8()).object(),
                 call.arguments);
    }
}

void TestCodecs::openaiStreamParallelToolCalls()
{
    LOAD_FIXTURE(body, u"openai_chat/stream_parallel_tool_calls.sse"_s);
    const auto codec = createEngineCodec(EngineType::OpenAI);
    const Test::StreamResult result = Test::runStream(*codec, body);
    QVERIFY(!result.error);
    QVERIFY(result.complete);
    QVERIFY(result.hasContent);
    QCOMPARE(result.events, 26);
    const ModelReply &reply = result.reply;
    QCOMPARE(reply.message.text, u""_s);
    QVERIFY(result.textDeltas.isEmpty());
    QCOMPARE(reply.message.toolCalls.size(), 2);
    const ToolCall &first = reply.message.toolCalls[0];
    QCOMPARE(first.id, u"call_JMW1whyEaYG438VE1OIflxA2"_s);
    QCOMPARE(first.name, u"GetWeatherArgs"_s);
    QCOMPARE(first.rawArguments,
             u"{\"city\": \"Edinburgh\", \"country\": \"GB\", \"units\": \"c\"}"_s);
    COMPARE_JSON(first.arguments,
                 (QJsonObject { { u"city"_s, u"Edinburgh"_s },
                                { u"country"_s, u"GB"_s },
                                { u"units"_s, u"c"_s } }));
    QCOMPARE(first.argumentsError, u""_s);
    const ToolCall &second = reply.message.toolCalls[1];
    QCOMPARE(second.id, u"call_DNYTawLBoN8fj3KN6qU9N1Ou"_s);
    QCOMPARE(second.name, u"get_stock_price"_s);
    COMPARE_JSON(second.arguments,
                 (QJsonObject { { u"ticker"_s, u"AAPL"_s }, { u"exchange"_s, u"NASDAQ"_s } }));
    QCOMPARE(reply.finishReason, FinishReason::ToolCalls);
    QCOMPARE(reply.rawFinishReason, u"tool_calls"_s);
    QCOMPARE(reply.refusalCategory, u""_s);
    QCOMPARE(reply.usage, (Usage { 149, 60, 0, 0 }));
    QCOMPARE(reply.responseId, u"chatcmpl-ABfwAwrNePHUgBBezonVC6MX3zd63"_s);
    QCOMPARE(reply.model, u"gpt-4o-2024-08-06"_s);
}

void TestCodecs::openaiStreamRefusal()
{
    LOAD_FIXTURE(body, u"openai_chat/stream_refusal.sse"_s);
    const auto codec = createEngineCodec(EngineType::OpenAI);
    const Test::StreamResult result = Test::runStream(*codec, body);
    QVERIFY(!result.error);
    QVERIFY(result.complete);
    QVERIFY(result.hasContent);
    QCOMPARE(result.reply.message.refusal, u"I'm sorry, I can't assist with that request."_s);
    QCOMPARE(result.reply.message.text, u""_s);
    QVERIFY(result.textDeltas.isEmpty()); // refusal fragments are not text deltas
    QVERIFY(result.reply.message.toolCalls.isEmpty());
    QCOMPARE(result.reply.finishReason, FinishReason::Refusal);
    QCOMPARE(result.reply.rawFinishReason, u"stop"_s);
    QCOMPARE(result.reply.refusalCategory, u""_s); // OpenAI gives no category
    QCOMPARE(result.reply.usage, (Usage { 79, 11, 0, 0 }));
}

void TestCodecs::openaiStreamLength()
{
    LOAD_FIXTURE(body, u"openai_chat/stream_length.sse"_s);
    const auto codec = createEngineCodec(EngineType::OpenAI);
    const Test::StreamResult result = Test::runStream(*codec, body);
    QVERIFY(!result.error);
    QVERIFY(result.complete);
    QCOMPARE(result.reply.message.text, u"{\""_s);
    QCOMPARE(result.textDeltas, QStringList { u"{\""_s });
    QCOMPARE(result.reply.finishReason, FinishReason::Length);
    QCOMPARE(result.reply.rawFinishReason, u"length"_s);
    QCOMPARE(result.reply.usage, (Usage { 79, 1, 0, 0 }));
    QCOMPARE(result.reply.responseId, u"chatcmpl-ABfw3Oqj8RD0z6aJiiX37oTjV2HFh"_s);
}

void TestCodecs::openaiJsonRefusal()
{
    LOAD_FIXTURE(body, u"openai_chat/refusal.json"_s);
    const auto codec = createEngineCodec(EngineType::OpenAI);
    QString error;
    const auto reply = codec->parseReply(body, &error);
    QVERIFY2(reply, qPrintable(error));
    QCOMPARE(reply->message.role, Role::Assistant);
    QCOMPARE(reply->message.text, u""_s);
    QCOMPARE(reply->message.refusal, u"I'm very sorry, but I can't assist with that."_s);
    QCOMPARE(reply->finishReason, FinishReason::Refusal);
    QCOMPARE(reply->rawFinishReason, u"stop"_s);
    QCOMPARE(reply->refusalCategory, u""_s);
    QCOMPARE(reply->usage, (Usage { 79, 12, 0, 0 }));
    QCOMPARE(reply->responseId, u"chatcmpl-ABfvwoKVWPQj2UPlAcAKM7s40GsRx"_s);
}

void TestCodecs::openaiJsonToolCalls()
{
    LOAD_FIXTURE(body, u"openai_chat/tool_calls.json"_s);
    const auto codec = createEngineCodec(EngineType::OpenAI);
    QString error;
    const auto reply = codec->parseReply(body, &error);
    QVERIFY2(reply, qPrintable(error));
    QCOMPARE(reply->message.text, u""_s);
    QCOMPARE(reply->message.toolCalls.size(), 1);
    const ToolCall &call = reply->message.toolCalls.first();
    QCOMPARE(call.id, u"call_NKpApJybW1MzOjZO2FzwYw0d"_s);
    QCOMPARE(call.name, u"Query"_s);
    QCOMPARE(call.argumentsError, u""_s);
    const QJsonObject fromRaw = QJsonDocument::fromJson(call.rawArguments.toUtf8()).object();
    COMPARE_JSON(call.arguments, fromRaw);
    QCOMPARE(call.arguments.value(u"name"_s).toString(),
             u"May 2022 Fulfilled Orders Not Delivered on Time"_s);
    QCOMPARE(call.arguments.value(u"table_name"_s).toString(), u"orders"_s);
    QCOMPARE(call.arguments.value(u"columns"_s).toArray().size(), 7);
    QCOMPARE(call.arguments.value(u"columns"_s).toArray().at(6).toString(), u"canceled_at"_s);
    const QJsonArray conditions = call.arguments.value(u"conditions"_s).toArray();
    QCOMPARE(conditions.size(), 4);
    COMPARE_JSON(
        conditions[3].toObject(),
        (QJsonObject {
            { u"column"_s, u"delivered_at"_s },
            { u"operator"_s, u">"_s },
            { u"value"_s, QJsonObject { { u"column_name"_s, u"expected_delivery_date"_s } } } }));
    QCOMPARE(call.arguments.value(u"order_by"_s).toString(), u"asc"_s);
    QCOMPARE(reply->finishReason, FinishReason::ToolCalls);
    QCOMPARE(reply->rawFinishReason, u"tool_calls"_s);
    QCOMPARE(reply->usage, (Usage { 512, 132, 0, 0 }));
}

void TestCodecs::openaiJsonLength()
{
    LOAD_FIXTURE(body, u"openai_chat/length.json"_s);
    const auto codec = createEngineCodec(EngineType::OpenAI);
    QString error;
    const auto reply = codec->parseReply(body, &error);
    QVERIFY2(reply, qPrintable(error));
    QCOMPARE(reply->message.text, u"{\""_s);
    QCOMPARE(reply->message.refusal, u""_s);
    QCOMPARE(reply->finishReason, FinishReason::Length);
    QCOMPARE(reply->rawFinishReason, u"length"_s);
    QCOMPARE(reply->usage, (Usage { 79, 1, 0, 0 }));
    QCOMPARE(reply->model, u"gpt-4o-2024-08-06"_s);
}

void TestCodecs::responsesStreamFunctionCall()
{
    LOAD_FIXTURE(body, u"openai_responses/stream_function_call.sse"_s);
    const auto codec = createEngineCodec(EngineType::OpenAIResponses);
    const Test::StreamResult result = Test::runStream(*codec, body);
    QVERIFY(!result.error);
    QVERIFY(result.complete);
    QVERIFY(result.hasContent);
    QCOMPARE(result.events, 11);
    QCOMPARE(result.reply.message.text, u""_s);
    QCOMPARE(result.reply.message.toolCalls.size(), 1);
    const ToolCall &call = result.reply.message.toolCalls.first();
    QCOMPARE(call.id, u"call_kL0PCQV7M2WMoVX8V8OtYSAL"_s);
    QCOMPARE(call.name, u"get_capital"_s);
    QCOMPARE(call.rawArguments, u"{\"country\":\"France\"}"_s);
    COMPARE_JSON(call.arguments, (QJsonObject { { u"country"_s, u"France"_s } }));
    QCOMPARE(call.providerData.value(u"item_id"_s).toString(),
             u"fc_67e554a1de488191af0831d35cbe082e0794405d35281ae2"_s);
    QCOMPARE(result.reply.finishReason, FinishReason::ToolCalls);
    QCOMPARE(result.reply.rawFinishReason, u"completed"_s);
    QCOMPARE(result.reply.usage, (Usage { 255, 16, 0, 0 }));
    QCOMPARE(result.reply.responseId, u"resp_67e554a155508191900ee113293c4c830794405d35281ae2"_s);
    QCOMPARE(result.reply.model, u"gpt-4o-2024-08-06"_s);

    // The function_call item is re-sent as is, followed by its output.
    const QJsonArray native = codec->toNative(
        {},
        { result.reply.message,
          Message::toolResultsMessage({ { call.id, call.name, u"Paris"_s, false, {} } }) });
    COMPARE_JSON(
        native,
        parseObject(
            u"{\"a\":[{\"type\":\"function_call\",\"call_id\":\"call_kL0PCQV7M2WMoVX8V8OtYSAL\",\"name\":\"get_capital\",\"arguments\":\"{\\\"country\\\":\\\"France\\\"}\",\"id\":\"fc_67e554a1de488191af0831d35cbe082e0794405d35281ae2\"},{\"type\":\"function_call_output\",\"call_id\":\"call_kL0PCQV7M2WMoVX8V8OtYSAL\",\"output\":\"Paris\"}]}"_s)
            .value(u"a"_s)
            .toArray());
}

void TestCodecs::responsesError400()
{
    LOAD_FIXTURE(body, u"openai_responses/error_400.json"_s);
    const auto codec = createEngineCodec(EngineType::OpenAIResponses);
    const ApiError error = codec->parseError(400, body);
    QCOMPARE(error.category, ErrorCategory::Model);
    QCOMPARE(error.httpStatus, 400);
    QCOMPARE(error.providerType, u"invalid_request_error"_s);
    QCOMPARE(
        error.message,
        u"Invalid 'temperature': decimal below minimum value. Expected a value >= 0, but got -1 instead."_s);
    QVERIFY(!error.transient);
}

void TestCodecs::anthropicStreamToolUse()
{
    LOAD_FIXTURE(body, u"anthropic/stream_tool_use.sse"_s);
    const auto codec = createEngineCodec(EngineType::Anthropic);
    const Test::StreamResult result = Test::runStream(*codec, body);
    QVERIFY(!result.error);
    QVERIFY(result.complete);
    QVERIFY(result.hasContent);
    QCOMPARE(result.reply.message.text, u"I'll check the current weather in Paris for you."_s);
    QCOMPARE(result.textDeltas,
             (QStringList { u"I"_s, u"'ll check the current weather in Paris for you."_s }));
    QCOMPARE(result.reply.message.toolCalls.size(), 1);
    const ToolCall &call = result.reply.message.toolCalls.first();
    QCOMPARE(call.id, u"toolu_01NRLabsLyVHZPKxbKvkfSMn"_s);
    QCOMPARE(call.name, u"get_weather"_s);
    QCOMPARE(call.rawArguments, u"{\"location\": \"Paris\"}"_s);
    COMPARE_JSON(call.arguments, (QJsonObject { { u"location"_s, u"Paris"_s } }));
    QCOMPARE(result.reply.finishReason, FinishReason::ToolCalls);
    QCOMPARE(result.reply.rawFinishReason, u"tool_use"_s);
    QCOMPARE(result.reply.usage, (Usage { 377, 65, 0, 0 }));
    QCOMPARE(result.reply.responseId, u"msg_019Q1hrJbZG26Fb9BQhrkHEr"_s);
    QCOMPARE(result.reply.model, u"claude-sonnet-4-20250514"_s);
}

void TestCodecs::anthropicStreamText()
{
    LOAD_FIXTURE(body, u"anthropic/stream_text.sse"_s);
    const auto codec = createEngineCodec(EngineType::Anthropic);
    const Test::StreamResult result = Test::runStream(*codec, body);
    QVERIFY(!result.error);
    QVERIFY(result.complete);
    QCOMPARE(result.reply.message.text, u"Hello there!"_s);
    QCOMPARE(result.textDeltas, (QStringList { u"Hello"_s, u" there"_s, u"!"_s }));
    QVERIFY(result.reply.message.toolCalls.isEmpty());
    QCOMPARE(result.reply.finishReason, FinishReason::Stop);
    QCOMPARE(result.reply.rawFinishReason, u"end_turn"_s);
    QCOMPARE(result.reply.usage, (Usage { 11, 6, 0, 0 }));
}

void TestCodecs::anthropicStreamRefusal()
{
    LOAD_FIXTURE(body, u"anthropic/stream_refusal.sse"_s);
    const auto codec = createEngineCodec(EngineType::Anthropic);
    const Test::StreamResult result = Test::runStream(*codec, body);
    QVERIFY(!result.error);
    QVERIFY(result.complete);
    QVERIFY(!result.hasContent);
    QCOMPARE(result.reply.message.text, u""_s);
    QCOMPARE(result.reply.message.refusal, u"This request was refused due to policy."_s);
    QCOMPARE(result.reply.finishReason, FinishReason::Refusal);
    QCOMPARE(result.reply.rawFinishReason, u"refusal"_s);
    QCOMPARE(result.reply.refusalCategory, u"cyber"_s);
    QCOMPARE(result.reply.usage, (Usage { 20, 0, 0, 0 }));
}

void TestCodecs::anthropicError404()
{
    LOAD_FIXTURE(body, u"anthropic/error_404.json"_s);
    const auto codec = createEngineCodec(EngineType::Anthropic);
    const ApiError error = codec->parseError(404, body);
    QCOMPARE(error.category, ErrorCategory::Model);
    QCOMPARE(error.httpStatus, 404);
    QCOMPARE(error.providerType, u"not_found_error"_s);
    QCOMPARE(error.message, u"model: claude-does-not-exist"_s);
    QVERIFY(!error.transient);
}

void TestCodecs::anthropicCassetteRoundTrip()
{
    const QJsonObject cassette =
        fixtureJson(u"anthropic/parallel_tool_use_roundtrip.cassette.json"_s);
    const QJsonArray interactions = cassette.value(u"interactions"_s).toArray();
    QVERIFY2(interactions.size() == 2, qPrintable(Test::lastError()));
    const QJsonObject request1 = interactions[0].toObject().value(u"request"_s).toObject();
    const QJsonObject body1 = request1.value(u"body"_s).toObject();
    const QJsonObject request2 = interactions[1].toObject().value(u"request"_s).toObject();
    const QJsonObject body2 = request2.value(u"body"_s).toObject();
    const auto codec = createEngineCodec(EngineType::Anthropic);

    // Turn 1: the neutral request rebuilt from the recording gives the recorded body.
    ChatRequest request;
    request.system = body1.value(u"system"_s).toString();
    request.messages = codec->fromNative(body1.value(u"messages"_s).toArray());
    QCOMPARE(request.messages.size(), 1);
    QCOMPARE(request.messages[0].role, Role::User);
    for (const QJsonValue &toolValue : body1.value(u"tools"_s).toArray()) {
        const QJsonObject tool = toolValue.toObject();
        request.tools.append({ tool.value(u"name"_s).toString(),
                               tool.value(u"description"_s).toString(),
                               tool.value(u"input_schema"_s).toObject(), false });
    }
    request.maxTokens = body1.value(u"max_tokens"_s).toInt();
    request.stream = false;
    const EngineConfig config = configFor(EngineType::Anthropic, u"claude-haiku-4-5"_s);
    const HttpRequestData built1 = codec->buildRequest(request, config);
    COMPARE_JSON(built1.body, body1);
    QCOMPARE(built1.url.toString(QUrl::RemoveQuery),
             QUrl(request1.value(u"uri"_s).toString()).toString(QUrl::RemoveQuery));

    // The reply: four parallel tool_use blocks.
    const QByteArray response1 =
        QJsonDocument(
            interactions[0].toObject().value(u"response"_s).toObject().value(u"body"_s).toObject())
            .toJson();
    QString error;
    const auto reply1 = codec->parseReply(response1, &error);
    QVERIFY2(reply1, qPrintable(error));
    QCOMPARE(
        reply1->message.text,
        u"I'll help you find out who is the youngest by retrieving information about each family member. I'll retrieve their entity information to compare their ages."_s);
    QCOMPARE(reply1->message.toolCalls.size(), 4);
    const QStringList ids { u"toolu_0167cfEnoQaPviGdVXA95zcu"_s,
                            u"toolu_01EEe2V5HD1Ac4rKiUR4HD2T"_s,
                            u"toolu_01XFyAjstT3966qvRynZyVPo"_s,
                            u"toolu_013mnQZbgtK2oe3Mo3XKJsx3"_s };
    const QStringList names { u"Alice"_s, u"Bob"_s, u"Charlie"_s, u"Daisy"_s };
    for (int i = 0; i < 4; ++i) {
        QCOMPARE(reply1->message.toolCalls[i].id, ids[i]);
        QCOMPARE(reply1->message.toolCalls[i].name, u"retrieve_entity_info"_s);
        COMPARE_JSON(reply1->message.toolCalls[i].arguments,
                     (QJsonObject { { u"name"_s, names[i] } }));
    }
    QCOMPARE(reply1->finishReason, FinishReason::ToolCalls);
    QCOMPARE(reply1->rawFinishReason, u"tool_use"_s);
    QCOMPARE(reply1->usage, (Usage { 423, 202, 0, 0 }));

    // Turn 2: what the tools returned (taken from the recording), paired by id.
    QHash<QString, QString> recordedResults;
    const QJsonArray blocks =
        body2.value(u"messages"_s).toArray().at(2).toObject().value(u"content"_s).toArray();
    for (const QJsonValue &block : blocks)
        recordedResults.insert(block.toObject().value(u"tool_use_id"_s).toString(),
                               block.toObject().value(u"content"_s).toString());
    QList<ToolResult> results;
    for (const ToolCall &call : reply1->message.toolCalls)
        results.append({ call.id, call.name, recordedResults.value(call.id), false, {} });
    request.messages.append(reply1->message);
    request.messages.append(Message::toolResultsMessage(results));
    const HttpRequestData built2 = codec->buildRequest(request, config);
    // Every field: roles, tool_use ids, the tool_result blocks (first, in one user message,
    // with is_error), tools, system, tool_choice, model, max_tokens, stream.
    COMPARE_JSON(built2.body, body2);

    const QByteArray response2 =
        QJsonDocument(
            interactions[1].toObject().value(u"response"_s).toObject().value(u"body"_s).toObject())
            .toJson();
    const auto reply2 = codec->parseReply(response2, &error);
    QVERIFY2(reply2, qPrintable(error));
    QVERIFY(reply2->message.text.startsWith(u"Based on the retrieved information"_s));
    QVERIFY(reply2->message.text.endsWith(u"the youngest among the four family members."_s));
    QCOMPARE(reply2->finishReason, FinishReason::Stop);
    QCOMPARE(reply2->rawFinishReason, u"end_turn"_s);
    QCOMPARE(reply2->usage, (Usage { 771, 77, 0, 0 }));
    QCOMPARE(reply2->responseId, u"msg_01JVqZPgDwmnyb2kKC3MwCVf"_s);
}

void TestCodecs::geminiStreamFunctionCall()
{
    LOAD_FIXTURE(body, u"gemini/stream_function_call.sse"_s);
    const auto codec = createEngineCodec(EngineType::Gemini);
    const Test::StreamResult result = Test::runStream(*codec, body);
    QVERIFY(!result.error);
    QVERIFY(result.complete);
    QVERIFY(result.hasContent);
    QCOMPARE(result.reply.message.text, u""_s);
    QCOMPARE(result.reply.message.toolCalls.size(), 1);
    const ToolCall &call = result.reply.message.toolCalls.first();
    QCOMPARE(call.id, u"call_QUVVadTSNJ6_qtsPvN7J8Q0_0"_s); // generated: Gemini sent no id
    QCOMPARE(call.name, u"get_country"_s);
    COMPARE_JSON(call.arguments, QJsonObject());
    QCOMPARE(call.argumentsError, u""_s);
    const QString signature = call.providerData.value(u"thoughtSignature"_s).toString();
    QVERIFY(signature.startsWith(
        u"EpwICpkIAXLI2nxlU6gsWZaZHRYkX1orzuM8vSUFwaAt1JRxEC2hJzPAcAu3PWaKz7X+PIyT"_s));
    QVERIFY(signature.endsWith(u"AXOk15QuFyU="_s));
    QCOMPARE(signature.size(), 1408);
    QCOMPARE(result.reply.finishReason, FinishReason::ToolCalls); // STOP + functionCall parts
    QCOMPARE(result.reply.rawFinishReason, u"STOP"_s);
    // 29 prompt; 10 candidates + 202 thoughts = 212 output (241 total).
    QCOMPARE(result.reply.usage, (Usage { 29, 212, 0, 202 }));
    QCOMPARE(result.reply.responseId, u"QUVVadTSNJ6_qtsPvN7J8Q0"_s);
    QCOMPARE(result.reply.model, u"gemini-3-pro-preview"_s);
}

void TestCodecs::geminiMaxTokens()
{
    LOAD_FIXTURE(body, u"gemini/max_tokens.json"_s);
    const auto codec = createEngineCodec(EngineType::Gemini);
    QString error;
    const auto reply = codec->parseReply(body, &error);
    QVERIFY2(reply, qPrintable(error));
    QCOMPARE(reply->message.text, u"The capital of France is"_s);
    QCOMPARE(reply->finishReason, FinishReason::Length);
    QCOMPARE(reply->rawFinishReason, u"MAX_TOKENS"_s);
    QCOMPARE(reply->usage, (Usage { 15, 5, 0, 0 }));
    QCOMPARE(reply->responseId, u"R5MoavWNNp_8qtsP2fWD2A0"_s);
    QCOMPARE(reply->model, u"gemini-2.5-flash"_s);
}

void TestCodecs::geminiCassetteRoundTrip()
{
    const QJsonObject cassette =
        fixtureJson(u"gemini/stream_function_call_roundtrip.cassette.json"_s);
    const QJsonArray interactions = cassette.value(u"interactions"_s).toArray();
    QVERIFY2(interactions.size() == 2, qPrintable(Test::lastError()));
    const QJsonObject request1 = interactions[0].toObject().value(u"request"_s).toObject();
    const QJsonObject body1 = request1.value(u"body"_s).toObject();
    const QJsonObject request2 = interactions[1].toObject().value(u"request"_s).toObject();
    const QJsonObject body2 = request2.value(u"body"_s).toObject();
    const auto codec = createEngineCodec(EngineType::Gemini);

    ChatRequest request;
    request.messages = codec->fromNative(body1.value(u"contents"_s).toArray());
    const QJsonObject declaration = body1.value(u"tools"_s)
                                        .toArray()
                                        .at(0)
                                        .toObject()
                                        .value(u"functionDeclarations"_s)
                                        .toArray()
                                        .at(0)
                                        .toObject();
    request.tools.append({ declaration.value(u"name"_s).toString(),
                           declaration.value(u"description"_s).toString(),
                           declaration.value(u"parameters_json_schema"_s).toObject(), false });
    const EngineConfig config = configFor(EngineType::Gemini, u"gemini-3-pro-preview"_s);
    const HttpRequestData built1 = codec->buildRequest(request, config);
    QCOMPARE(built1.url.toString(), request1.value(u"uri"_s).toString());
    QVERIFY(built1.stream);
    COMPARE_JSON(built1.body.value(u"contents"_s), body1.value(u"contents"_s));
    // The recording spells the declaration field in snake_case; the API takes either.
    const QJsonObject builtDeclaration = built1.body.value(u"tools"_s)
                                             .toArray()
                                             .at(0)
                                             .toObject()
                                             .value(u"functionDeclarations"_s)
                                             .toArray()
                                             .at(0)
                                             .toObject();
    QCOMPARE(builtDeclaration.value(u"name"_s).toString(), u"get_country"_s);
    QCOMPARE(builtDeclaration.value(u"description"_s).toString(), u""_s);
    COMPARE_JSON(builtDeclaration.value(u"parametersJsonSchema"_s),
                 declaration.value(u"parameters_json_schema"_s));
    QVERIFY(!built1.body.contains(u"systemInstruction"_s));

    const QByteArray stream1 = interactions[0]
                                   .toObject()
                                   .value(u"response"_s)
                                   .toObject()
                                   .value(u"body"_s)
                                   .toString()
                                   .toUtf8();
    const Test::StreamResult result1 = Test::runStream(*codec, stream1);
    QVERIFY(!result1.error);
    QVERIFY(result1.complete);
    QCOMPARE(result1.reply.message.toolCalls.size(), 1);
    const ToolCall call = result1.reply.message.toolCalls.first();
    QCOMPARE(call.name, u"get_country"_s);

    // Turn 2: the tool returned "Mexico" (the recording's functionResponse).
    const QJsonArray contents2 = body2.value(u"contents"_s).toArray();
    QCOMPARE(contents2.size(), 3);
    const QJsonObject recordedResponse = contents2[2]
                                             .toObject()
                                             .value(u"parts"_s)
                                             .toArray()
                                             .at(0)
                                             .toObject()
                                             .value(u"functionResponse"_s)
                                             .toObject();
    const QString toolOutput =
        recordedResponse.value(u"response"_s).toObject().value(u"return_value"_s).toString();
    QCOMPARE(toolOutput, u"Mexico"_s);
    request.messages.append(result1.reply.message);
    request.messages.append(
        Message::toolResultsMessage({ { call.id, call.name, toolOutput, false, {} } }));
    const HttpRequestData built2 = codec->buildRequest(request, config);
    const QJsonArray builtContents = built2.body.value(u"contents"_s).toArray();
    QCOMPARE(builtContents.size(), 3);
    COMPARE_JSON(builtContents[0], contents2[0]);

    // The model turn: role, the functionCall (name, args), and its thoughtSignature echoed.
    // pydantic-ai re-encoded the signature as base64url and gave the call its own id; both
    // must carry the same bytes, and our id must pair call and response.
    const QJsonObject builtModel = builtContents[1].toObject();
    const QJsonObject recordedModel = contents2[1].toObject();
    QCOMPARE(builtModel.value(u"role"_s).toString(), recordedModel.value(u"role"_s).toString());
    QCOMPARE(builtModel.value(u"parts"_s).toArray().size(), 1);
    const QJsonObject builtPart = builtModel.value(u"parts"_s).toArray().at(0).toObject();
    const QJsonObject recordedPart = recordedModel.value(u"parts"_s).toArray().at(0).toObject();
    const QJsonObject builtCall = builtPart.value(u"functionCall"_s).toObject();
    const QJsonObject recordedCall = recordedPart.value(u"functionCall"_s).toObject();
    QCOMPARE(builtCall.value(u"name"_s), recordedCall.value(u"name"_s));
    COMPARE_JSON(builtCall.value(u"args"_s), recordedCall.value(u"args"_s));
    QCOMPARE(builtCall.value(u"id"_s).toString(), call.id);
    const QByteArray builtSignature =
        QByteArray::fromBase64(builtPart.value(u"thoughtSignature"_s).toString().toLatin1());
    const QByteArray recordedSignature =
        QByteArray::fromBase64(recordedPart.value(u"thoughtSignature"_s).toString().toLatin1(),
                               QByteArray::Base64UrlEncoding);
    QCOMPARE(builtSignature.size(), 1055);
    QCOMPARE(builtSignature, recordedSignature);

    // The user turn with the functionResponse: name, the id of the call, the value.
    const QJsonObject builtUser = builtContents[2].toObject();
    QCOMPARE(builtUser.value(u"role"_s).toString(), u"user"_s);
    QCOMPARE(builtUser.value(u"parts"_s).toArray().size(), 1);
    const QJsonObject builtResponse = builtUser.value(u"parts"_s)
                                          .toArray()
                                          .at(0)
                                          .toObject()
                                          .value(u"functionResponse"_s)
                                          .toObject();
    QCOMPARE(builtResponse.value(u"name"_s), recordedResponse.value(u"name"_s));
    QCOMPARE(builtResponse.value(u"id"_s).toString(), builtCall.value(u"id"_s).toString());
    QCOMPARE(recordedResponse.value(u"id"_s),
             recordedCall.value(u"id"_s)); // the recording pairs the same way
    COMPARE_JSON(builtResponse.value(u"response"_s),
                 (QJsonObject { { u"result"_s, u"Mexico"_s } }));
    COMPARE_JSON(built2.body.value(u"tools"_s), built1.body.value(u"tools"_s));

    // And the transcript reads back to the same neutral conversation.
    const QList<Message> back = codec->fromNative(builtContents);
    QCOMPARE(back.size(), 3);
    QCOMPARE(back[1].toolCalls.first().id, call.id);
    QCOMPARE(back[1].toolCalls.first().providerData, call.providerData);
    QCOMPARE(back[2].toolResults.first().callId, call.id);
    QCOMPARE(back[2].toolResults.first().content, u"Mexico"_s);

    // The final answer streamed in turn 2.
    const QByteArray stream2 = interactions[1]
                                   .toObject()
                                   .value(u"response"_s)
                                   .toObject()
                                   .value(u"body"_s)
                                   .toString()
                                   .toUtf8();
    const Test::StreamResult result2 = Test::runStream(*codec, stream2);
    QVERIFY(!result2.error);
    QVERIFY(result2.complete);
    QCOMPARE(result2.reply.message.text, u"The capital of Mexico is Mexico City."_s);
    QCOMPARE(result2.textDeltas,
             (QStringList { u"The capital of Mexico"_s, u" is Mexico City."_s }));
    QCOMPARE(result2.reply.finishReason, FinishReason::Stop);
    QCOMPARE(result2.reply.usage,
             (Usage { 257, 8, 0, 0 })); // the last usageMetadata wins (55 -> 257)
}

void TestCodecs::geminiNativeOutputCassette()
{
    const QJsonObject cassette = fixtureJson(u"gemini/native_output_json_schema.cassette.json"_s);
    const QJsonObject interaction = cassette.value(u"interactions"_s).toArray().at(0).toObject();
    QVERIFY2(!interaction.isEmpty(), qPrintable(Test::lastError()));
    const QJsonObject recorded = interaction.value(u"request"_s).toObject();
    const QJsonObject body = recorded.value(u"body"_s).toObject();
    const auto codec = createEngineCodec(EngineType::Gemini);

    ChatRequest request;
    request.messages = codec->fromNative(body.value(u"contents"_s).toArray());
    const QJsonObject generation = body.value(u"generationConfig"_s).toObject();
    request.responseSchema = generation.value(u"responseJsonSchema"_s).toObject();
    request.stream = false;
    const HttpRequestData built =
        codec->buildRequest(request, configFor(EngineType::Gemini, u"gemini-2.0-flash"_s));
    QCOMPARE(built.url.toString(), recorded.value(u"uri"_s).toString());
    QVERIFY(!built.stream);
    COMPARE_JSON(built.body.value(u"contents"_s), body.value(u"contents"_s));
    const QJsonObject builtGeneration = built.body.value(u"generationConfig"_s).toObject();
    QCOMPARE(builtGeneration.value(u"responseMimeType"_s), generation.value(u"responseMimeType"_s));
    COMPARE_JSON(builtGeneration.value(u"responseJsonSchema"_s),
                 generation.value(u"responseJsonSchema"_s));
    QVERIFY(!builtGeneration.contains(u"responseModalities"_s)); // pydantic-ai's own addition

    QString error;
    const auto reply = codec->parseReply(
        QJsonDocument(interaction.value(u"response"_s).toObject().value(u"body"_s).toObject())
            .toJson(),
        &error);
    QVERIFY2(reply, qPrintable(error));
    QCOMPARE(reply->message.text,
             u"{\n  \"city\": \"Mexico City\",\n  \"country\": \"Mexico\"\n}"_s);
    QCOMPARE(reply->finishReason, FinishReason::Stop);
    QCOMPARE(reply->rawFinishReason, u"STOP"_s);
    QCOMPARE(reply->usage, (Usage { 8, 20, 0, 0 }));
    QCOMPARE(reply->responseId, u"EfsgaZT5JPbXz7IPqtGJkQ8"_s);
}

void TestCodecs::ollamaJsonSchemaCassette()
{
    const QJsonObject cassette =
        fixtureJson(u"local_openai_compat/ollama_json_schema.cassette.json"_s);
    const QJsonObject interaction = cassette.value(u"interactions"_s).toArray().at(0).toObject();
    QVERIFY2(!interaction.isEmpty(), qPrintable(Test::lastError()));
    const QJsonObject recorded = interaction.value(u"request"_s).toObject();
    const QJsonObject body = recorded.value(u"body"_s).toObject();
    const auto codec = createEngineCodec(EngineType::OpenAICompatible);

    ChatRequest request;
    request.messages = codec->fromNative(body.value(u"messages"_s).toArray());
    const QJsonObject jsonSchema =
        body.value(u"response_format"_s).toObject().value(u"json_schema"_s).toObject();
    request.responseSchema = jsonSchema.value(u"schema"_s).toObject();
    request.responseSchemaName = jsonSchema.value(u"name"_s).toString();
    request.stream = false;
    EngineConfig config = configFor(EngineType::OpenAICompatible, u"qwen3:0.6b"_s);
    config.baseUrl = QUrl(u"http://localhost:11434"_s);
    config.apiKey.clear();
    const HttpRequestData built = codec->buildRequest(request, config);
    QCOMPARE(built.url.toString(), recorded.value(u"uri"_s).toString());
    COMPARE_JSON(built.body, body); // no strict, no stream_options, nothing extra
    for (const auto &header : built.headers)
        QVERIFY(header.first != "Authorization"); // no key, no auth header

    QString error;
    const auto reply = codec->parseReply(
        QJsonDocument(interaction.value(u"response"_s).toObject().value(u"body"_s).toObject())
            .toJson(),
        &error);
    QVERIFY2(reply, qPrintable(error));
    QCOMPARE(reply->message.text, u"{ \"city\": \"Paris\", \"country\": \"France\" }"_s);
    QVERIFY(reply->message.providerData.value(u"reasoning"_s)
                .toString()
                .startsWith(u"Okay, the user is asking for the capital of France."_s));
    QCOMPARE(reply->finishReason, FinishReason::Stop);
    QCOMPARE(reply->usage, (Usage { 136, 15, 0, 0 }));
    QCOMPARE(reply->responseId, u"chatcmpl-150"_s);
    QCOMPARE(reply->model, u"qwen3:0.6b"_s);
}

// ---------------------------------------------------------------------------------------------
// Requests

void TestCodecs::requestEndpointsAndAuth_data()
{
    QTest::addColumn<int>("type");
    QTest::addColumn<QString>("baseUrl");
    QTest::addColumn<bool>("stream");
    QTest::addColumn<QString>("url");
    QTest::addColumn<QStringList>("headers"); // "name: value" with the key "sk-test"

    const QStringList bearer { u"Content-Type: application/json"_s,
                               u"Authorization: Bearer sk-test"_s };
    QTest::newRow("openai") << int(EngineType::OpenAI) << u""_s << true
                            << u"https://api.openai.com/v1/chat/completions"_s << bearer;
    QTest::newRow("openai proxy with /v1")
        << int(EngineType::OpenAI) << u"https://proxy.example/v1/"_s << true
        << u"https://proxy.example/v1/chat/completions"_s << bearer;
    QTest::newRow("responses") << int(EngineType::OpenAIResponses) << u""_s << false
                               << u"https://api.openai.com/v1/responses"_s << bearer;
    QTest::newRow("compatible") << int(EngineType::OpenAICompatible) << u"http://127.0.0.1:8080"_s
                                << true << u"http://127.0.0.1:8080/v1/chat/completions"_s << bearer;
    QTest::newRow("compatible default")
        << int(EngineType::OpenAICompatible) << u""_s << true
        << u"http://localhost:11434/v1/chat/completions"_s << bearer;
    QTest::newRow("anthropic") << int(EngineType::Anthropic) << u""_s << true
                               << u"https://api.anthropic.com/v1/messages"_s
                               << QStringList { u"Content-Type: application/json"_s,
                                                u"x-api-key: sk-test"_s,
                                                u"anthropic-version: 2023-06-01"_s };
    QTest::newRow("gemini stream")
        << int(EngineType::Gemini) << u""_s << true
        << u"https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"_s
        << QStringList { u"Content-Type: application/json"_s, u"x-goog-api-key: sk-test"_s };
    QTest::newRow("gemini plain, local base")
        << int(EngineType::Gemini) << u"http://127.0.0.1:9000"_s << false
        << u"http://127.0.0.1:9000/v1beta/models/gemini-2.5-flash:generateContent"_s
        << QStringList { u"Content-Type: application/json"_s, u"x-goog-api-key: sk-test"_s };
}

void TestCodecs::requestEndpointsAndAuth()
{
    QFETCH(int, type);
    QFETCH(QString, baseUrl);
    QFETCH(bool, stream);
    QFETCH(QString, url);
    QFETCH(QStringList, headers);

    const auto codec = createEngineCodec(EngineType(type));
    QVERIFY(codec);
    QCOMPARE(codec->type(), EngineType(type));
    EngineConfig config = configFor(EngineType(type), u"gemini-2.5-flash"_s);
    config.baseUrl = QUrl(baseUrl);
    ChatRequest request;
    request.messages = { Message::user(u"hi"_s) };
    request.stream = stream;
    const HttpRequestData built = codec->buildRequest(request, config);
    QCOMPARE(built.url.toString(), url);
    QCOMPARE(built.stream, stream);
    QStringList actual;
    for (const auto &[name, value] : built.headers)
        actual.append(QString::fromUtf8(name + ": "_ba + value));
    QCOMPARE(actual, headers);
    for (const auto &[name, value] : built.redactedHeaders())
        QVERIFY2(!value.contains("sk-test"), name.constData());

    // No key: no credential header at all (local servers).
    config.apiKey.clear();
    for (const auto &[name, value] : codec->buildRequest(request, config).headers) {
        QVERIFY(name != "Authorization" && name != "x-api-key" && name != "x-goog-api-key");
        Q_UNUSED(value)
    }
    // The engine's stream switch wins over the request's.
    config.stream = false;
    request.stream = true;
    QVERIFY(!codec->buildRequest(request, config).stream);
}

void TestCodecs::requestToolChoice()
{
    ChatRequest request;
    request.messages = { Message::user(u"weather?"_s) };
    request.tools = { weatherTool() };
    const EngineConfig config = configFor(EngineType::OpenAI, u"m"_s);

    struct Row
    {
        ToolChoiceMode mode;
        bool parallel;
        const char *openai;
        const char *responses;
        const char *anthropic;
        const char *gemini; // toolConfig, "" = absent
    };
    const Row rows[] = {
        { ToolChoiceMode::Auto, true, R"("auto")", R"("auto")", R"({"type":"auto"})", "" },
        { ToolChoiceMode::None, false, R"("none")", R"("none")", R"({"type":"none"})",
          R"({"functionCallingConfig":{"mode":"NONE"}})" },
        { ToolChoiceMode::Required, false, R"("required")", R"("required")",
          R"({"type":"any","disable_parallel_tool_use":true})",
          R"({"functionCallingConfig":{"mode":"ANY"}})" },
        { ToolChoiceMode::Force, true, R"({"type":"function","function":{"name":"get_weather"}})",
          R"({"type":"function","name":"get_weather"})", R"({"type":"tool","name":"get_weather"})",
          R"({"functionCallingConfig":{"mode":"ANY","allowedFunctionNames":["get_weather"]}})" },
    };
    const auto json = [](const char *text) {
        return QJsonDocument::fromJson("[" + QByteArray(text) + "]").array().at(0);
    };
    for (const Row &row : rows) {
        request.toolChoice = row.mode;
        request.forcedTool = u"get_weather"_s;
        request.parallelToolCalls = row.parallel;
        const QJsonObject openai =
            createEngineCodec(EngineType::OpenAI)->buildRequest(request, config).body;
        COMPARE_JSON(openai.value(u"tool_choice"_s), json(row.openai));
        QCOMPARE(openai.value(u"parallel_tool_calls"_s).toBool(), row.parallel);
        COMPARE_JSON(
            openai.value(u"tools"_s),
            json(
                R"([{"type":"function","function":{"name":"get_weather","description":"Weather for a city","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false},"strict":true}}])"));
        const QJsonObject responses =
            createEngineCodec(EngineType::OpenAIResponses)->buildRequest(request, config).body;
        COMPARE_JSON(responses.value(u"tool_choice"_s), json(row.responses));
        QCOMPARE(responses.value(u"parallel_tool_calls"_s).toBool(), row.parallel);
        COMPARE_JSON(
            responses.value(u"tools"_s),
            json(
                R"([{"type":"function","name":"get_weather","description":"Weather for a city","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false},"strict":true}])"));
        const QJsonObject anthropic =
            createEngineCodec(EngineType::Anthropic)->buildRequest(request, config).body;
        COMPARE_JSON(anthropic.value(u"tool_choice"_s), json(row.anthropic));
        COMPARE_JSON(
            anthropic.value(u"tools"_s),
            json(
                R"([{"name":"get_weather","description":"Weather for a city","input_schema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false},"strict":true}])"));
        const QJsonObject gemini =
            createEngineCodec(EngineType::Gemini)->buildRequest(request, config).body;
        if (*row.gemini)
            COMPARE_JSON(gemini.value(u"toolConfig"_s), json(row.gemini));
        else
            QVERIFY(!gemini.contains(u"toolConfig"_s));
        COMPARE_JSON(
            gemini.value(u"tools"_s),
            json(
                R"([{"functionDeclarations":[{"name":"get_weather","description":"Weather for a city","parametersJsonSchema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}}]}])"));
        // Compatible servers: tool_choice is never sent (Ollama ignores it, vLLM may reject it).
        const QJsonObject compatible =
            createEngineCodec(EngineType::OpenAICompatible)->buildRequest(request, config).body;
        QVERIFY(!compatible.contains(u"tool_choice"_s));
        QCOMPARE(compatible.value(u"parallel_tool_calls"_s).toBool(), row.parallel);
    }
    // Without tools, no tool fields at all.
    request.tools.clear();
    for (const EngineType type :
         { EngineType::OpenAI, EngineType::OpenAIResponses, EngineType::Anthropic,
           EngineType::Gemini, EngineType::OpenAICompatible }) {
        const QJsonObject body = createEngineCodec(type)->buildRequest(request, config).body;
        for (const QString &key :
             { u"tools"_s, u"tool_choice"_s, u"parallel_tool_calls"_s, u"toolConfig"_s })
            QVERIFY2(!body.contains(key), qPrintable(key));
    }
}

void TestCodecs::requestStructuredOutputAndLimits()
{
    const QJsonObject schema = parseObject(
        uR"({"type":"object","properties":{"a":{"type":"integer"}},"required":["a"],"additionalProperties":false})"_s);
    ChatRequest request;
    request.system = u"Be terse."_s;
    request.messages = { Message::user(u"go"_s) };
    request.responseSchema = schema;
    request.responseSchemaName = u"result"_s;
    request.maxTokens = 300;
    EngineConfig config = configFor(EngineType::OpenAI, u"m"_s);
    config.maxTokens = 999; // the request's own value wins
    config.temperature = 0.25; // used as the request sets none

    const QJsonObject openai =
        createEngineCodec(EngineType::OpenAI)->buildRequest(request, config).body;
    COMPARE_JSON(openai.value(u"response_format"_s),
                 (QJsonObject { { u"type"_s, u"json_schema"_s },
                                { u"json_schema"_s,
                                  QJsonObject { { u"name"_s, u"result"_s },
                                                { u"schema"_s, schema },
                                                { u"strict"_s, true } } } }));
    QCOMPARE(openai.value(u"max_completion_tokens"_s).toInt(), 300);
    QVERIFY(!openai.contains(u"max_tokens"_s));
    QCOMPARE(openai.value(u"temperature"_s).toDouble(), 0.25);
    QCOMPARE(openai.value(u"stream"_s).toBool(), true);
    COMPARE_JSON(openai.value(u"stream_options"_s), (QJsonObject { { u"include_usage"_s, true } }));
    COMPARE_JSON(openai.value(u"messages"_s).toArray().at(0),
                 (QJsonObject { { u"role"_s, u"system"_s }, { u"content"_s, u"Be terse."_s } }));

    const QJsonObject compatible =
        createEngineCodec(EngineType::OpenAICompatible)->buildRequest(request, config).body;
    QCOMPARE(compatible.value(u"max_tokens"_s).toInt(), 300);
    QVERIFY(!compatible.contains(u"max_completion_tokens"_s));
    QVERIFY(!compatible.value(u"response_format"_s)
                 .toObject()
                 .value(u"json_schema"_s)
                 .toObject()
                 .contains(u"strict"_s));
    COMPARE_JSON(compatible.value(u"stream_options"_s),
                 (QJsonObject { { u"include_usage"_s, true } }));

    const QJsonObject responses =
        createEngineCodec(EngineType::OpenAIResponses)->buildRequest(request, config).body;
    COMPARE_JSON(responses.value(u"text"_s),
                 (QJsonObject { { u"format"_s,
                                  QJsonObject { { u"type"_s, u"json_schema"_s },
                                                { u"name"_s, u"result"_s },
                                                { u"schema"_s, schema },
                                                { u"strict"_s, true } } } }));
    QCOMPARE(responses.value(u"max_output_tokens"_s).toInt(), 300);
    QVERIFY(!responses.contains(u"stream_options"_s));
    COMPARE_JSON(responses.value(u"input"_s).toArray().at(0),
                 (QJsonObject { { u"type"_s, u"message"_s },
                                { u"role"_s, u"system"_s },
                                { u"content"_s, u"Be terse."_s } }));

    const QJsonObject anthropic =
        createEngineCodec(EngineType::Anthropic)->buildRequest(request, config).body;
    COMPARE_JSON(anthropic.value(u"output_config"_s),
                 (QJsonObject { { u"format"_s,
                                  QJsonObject { { u"type"_s, u"json_schema"_s },
                                                { u"schema"_s, schema } } } }));
    QCOMPARE(anthropic.value(u"max_tokens"_s).toInt(), 300);
    QCOMPARE(anthropic.value(u"system"_s).toString(), u"Be terse."_s);
    QCOMPARE(anthropic.value(u"messages"_s).toArray().size(), 1); // no system message
    QCOMPARE(anthropic.value(u"temperature"_s).toDouble(), 0.25);

    const QJsonObject gemini =
        createEngineCodec(EngineType::Gemini)->buildRequest(request, config).body;
    COMPARE_JSON(gemini.value(u"generationConfig"_s),
                 (QJsonObject { { u"maxOutputTokens"_s, 300 },
                                { u"temperature"_s, 0.25 },
                                { u"responseMimeType"_s, u"application/json"_s },
                                { u"responseJsonSchema"_s, schema } }));
    COMPARE_JSON(
        gemini.value(u"systemInstruction"_s),
        (QJsonObject {
            { u"parts"_s, QJsonArray { QJsonObject { { u"text"_s, u"Be terse."_s } } } } }));

    // Anthropic requires max_tokens: a default is sent when nothing sets it.
    request.maxTokens.reset();
    config.maxTokens.reset();
    QCOMPARE(createEngineCodec(EngineType::Anthropic)
                 ->buildRequest(request, config)
                 .body.value(u"max_tokens"_s)
                 .toInt(),
             4096);
    QVERIFY(!createEngineCodec(EngineType::OpenAI)
                 ->buildRequest(request, config)
                 .body.contains(u"max_completion_tokens"_s));
}

void TestCodecs::requestAttachments()
{
    const QByteArray png("\x89PNG\r\n\x1a\n-fake-image", 19);
    const QByteArray pdf("%PDF-1.4 fake");
    const QString png64 = QString::fromLatin1(png.toBase64());
    const QString pdf64 = QString::fromLatin1(pdf.toBase64());
    Attachment image = Attachment::fromData(u"a.png"_s, u"image/png"_s, png);
    Attachment document = Attachment::fromData(u"doc.pdf"_s, u"application/pdf"_s, pdf);
    Attachment placeholder = image.placeholder();
    ChatRequest request;
    request.messages = { Message::user(u"look"_s, { image, document, placeholder }) };
    const EngineConfig config = configFor(EngineType::OpenAI, u"m"_s);
    const QString note = u"[attachment a.png (image/png, 19 bytes) was not kept]"_s;

    const QJsonArray openai = createEngineCodec(EngineType::OpenAI)
                                  ->buildRequest(request, config)
                                  .body.value(u"messages"_s)
                                  .toArray()
                                  .at(0)
                                  .toObject()
                                  .value(u"content"_s)
                                  .toArray();
    COMPARE_JSON(
        openai,
        (QJsonArray {
            QJsonObject { { u"type"_s, u"text"_s }, { u"text"_s, u"look"_s } },
            QJsonObject {
                { u"type"_s, u"image_url"_s },
                { u"image_url"_s,
                  QJsonObject { { u"url"_s, QString(u"data:image/png;base64,"_s + png64) } } } },
            QJsonObject {
                { u"type"_s, u"file"_s },
                { u"file"_s,
                  QJsonObject {
                      { u"filename"_s, u"doc.pdf"_s },
                      { u"file_data"_s, QString(u"data:application/pdf;base64,"_s + pdf64) } } } },
            QJsonObject { { u"type"_s, u"text"_s }, { u"text"_s, note } } }));

    const QJsonArray responses = createEngineCodec(EngineType::OpenAIResponses)
                                     ->buildRequest(request, config)
                                     .body.value(u"input"_s)
                                     .toArray()
                                     .at(0)
                                     .toObject()
                                     .value(u"content"_s)
                                     .toArray();
    COMPARE_JSON(responses.at(1),
                 (QJsonObject { { u"type"_s, u"input_image"_s },
                                { u"image_url"_s, QString(u"data:image/png;base64,"_s + png64) },
                                { u"detail"_s, u"auto"_s } }));
    COMPARE_JSON(
        responses.at(2),
        (QJsonObject { { u"type"_s, u"input_file"_s },
                       { u"filename"_s, u"doc.pdf"_s },
                       { u"file_data"_s, QString(u"data:application/pdf;base64,"_s + pdf64) } }));

    const QJsonArray anthropic = createEngineCodec(EngineType::Anthropic)
                                     ->buildRequest(request, config)
                                     .body.value(u"messages"_s)
                                     .toArray()
                                     .at(0)
                                     .toObject()
                                     .value(u"content"_s)
                                     .toArray();
    COMPARE_JSON(anthropic.at(1),
                 (QJsonObject { { u"type"_s, u"image"_s },
                                { u"source"_s,
                                  QJsonObject { { u"type"_s, u"base64"_s },
                                                { u"media_type"_s, u"image/png"_s },
                                                { u"data"_s, png64 } } } }));
    COMPARE_JSON(anthropic.at(2),
                 (QJsonObject { { u"type"_s, u"document"_s },
                                { u"title"_s, u"doc.pdf"_s },
                                { u"source"_s,
                                  QJsonObject { { u"type"_s, u"base64"_s },
                                                { u"media_type"_s, u"application/pdf"_s },
                                                { u"data"_s, pdf64 } } } }));
    COMPARE_JSON(anthropic.at(3), (QJsonObject { { u"type"_s, u"text"_s }, { u"text"_s, note } }));

    const QJsonArray gemini = createEngineCodec(EngineType::Gemini)
                                  ->buildRequest(request, config)
                                  .body.value(u"contents"_s)
                                  .toArray()
                                  .at(0)
                                  .toObject()
                                  .value(u"parts"_s)
                                  .toArray();
    COMPARE_JSON(
        gemini,
        (QJsonArray { QJsonObject { { u"text"_s, u"look"_s } },
                      QJsonObject { { u"inlineData"_s,
                                      QJsonObject { { u"mimeType"_s, u"image/png"_s },
                                                    { u"data"_s, png64 } } } },
                      QJsonObject { { u"inlineData"_s,
                                      QJsonObject { { u"mimeType"_s, u"application/pdf"_s },
                                                    { u"data"_s, pdf64 } } } },
                      QJsonObject { { u"text"_s, note } } }));
}

void TestCodecs::requestExtraBodyMergePatch()
{
    ChatRequest request;
    request.messages = { Message::user(u"x"_s) };
    request.extraBody = parseObject(
        uR"({"stream_options":{"include_obfuscation":false},"temperature":null,"seed":7})"_s);
    EngineConfig config = configFor(EngineType::OpenAI, u"m"_s);
    config.temperature = 1.0;
    const QJsonObject body =
        createEngineCodec(EngineType::OpenAI)->buildRequest(request, config).body;
    COMPARE_JSON(
        body.value(u"stream_options"_s),
        (QJsonObject { { u"include_usage"_s, true }, { u"include_obfuscation"_s, false } }));
    QVERIFY(!body.contains(u"temperature"_s)); // null deletes
    QCOMPARE(body.value(u"seed"_s).toInt(), 7);
}

// ---------------------------------------------------------------------------------------------
// Transcripts

void TestCodecs::nativeRoundTrip_data()
{
    QTest::addColumn<int>("type");
    QTest::newRow("openai") << int(EngineType::OpenAI);
    QTest::newRow("openai-responses") << int(EngineType::OpenAIResponses);
    QTest::newRow("anthropic") << int(EngineType::Anthropic);
    QTest::newRow("gemini") << int(EngineType::Gemini);
    QTest::newRow("openai-compatible") << int(EngineType::OpenAICompatible);
}

void TestCodecs::nativeRoundTrip()
{
    QFETCH(int, type);
    const auto codec = createEngineCodec(EngineType(type));
    const QList<Message> messages = richConversation();
    const QJsonArray native = codec->toNative({}, messages);
    const QList<Message> back = codec->fromNative(native);
    QCOMPARE(back.size(), messages.size());
    for (qsizetype i = 0; i < messages.size(); ++i) {
        const Message &want = messages[i];
        const Message &got = back[i];
        QCOMPARE(got.role, want.role);
        QCOMPARE(got.text, want.text);
        QCOMPARE(got.attachments.size(), want.attachments.size());
        for (qsizetype a = 0; a < want.attachments.size(); ++a) {
            QCOMPARE(got.attachments[a].mediaType, want.attachments[a].mediaType);
            QCOMPARE(got.attachments[a].data, want.attachments[a].data);
        }
        QCOMPARE(got.toolCalls.size(), want.toolCalls.size());
        for (qsizetype c = 0; c < want.toolCalls.size(); ++c) {
            QCOMPARE(got.toolCalls[c].id, want.toolCalls[c].id);
            QCOMPARE(got.toolCalls[c].name, want.toolCalls[c].name);
            COMPARE_JSON(got.toolCalls[c].arguments, want.toolCalls[c].arguments);
        }
        QCOMPARE(got.toolResults.size(), want.toolResults.size());
        for (qsizetype r = 0; r < want.toolResults.size(); ++r) {
            QCOMPARE(got.toolResults[r].callId, want.toolResults[r].callId);
            QCOMPARE(got.toolResults[r].name, want.toolResults[r].name);
            QCOMPARE(got.toolResults[r].content, want.toolResults[r].content);
            // Only Anthropic and Gemini carry the error flag on the wire.
            const bool flagged =
                EngineType(type) == EngineType::Anthropic || EngineType(type) == EngineType::Gemini;
            QCOMPARE(got.toolResults[r].isError, flagged && want.toolResults[r].isError);
        }
    }
    // The system prompt: a message for the OpenAI shapes, a separate field elsewhere.
    const QJsonArray withSystem = codec->toNative(u"sys"_s, messages);
    const bool systemInList = EngineType(type) == EngineType::OpenAI
        || EngineType(type) == EngineType::OpenAIResponses
        || EngineType(type) == EngineType::OpenAICompatible;
    QCOMPARE(withSystem.size(), native.size() + (systemInList ? 1 : 0));
    if (systemInList)
        QCOMPARE(codec->fromNative(withSystem).first().role, Role::System);
}

void TestCodecs::anthropicResultsInOneUserMessage()
{
    const auto codec = createEngineCodec(EngineType::Anthropic);
    QList<Message> messages = richConversation();
    // A user remark right after the results joins the same user message, after the results.
    messages.insert(3, Message::user(u"also: hurry"_s));
    const QJsonArray native = codec->toNative({}, messages);
    QCOMPARE(native.size(), 5);
    const QJsonObject results = native[2].toObject();
    QCOMPARE(results.value(u"role"_s).toString(), u"user"_s);
    COMPARE_JSON(results.value(u"content"_s),
                 parseObject(uR"({"a":[
        {"type":"tool_result","tool_use_id":"call_1","content":"{\"temp\":3}","is_error":false},
        {"type":"tool_result","tool_use_id":"call_2","content":"station offline","is_error":true},
        {"type":"text","text":"also: hurry"}]})"_s)
                     .value(u"a"_s));
    QCOMPARE(native[1].toObject().value(u"role"_s).toString(), u"assistant"_s);
    COMPARE_JSON(
        native[1].toObject().value(u"content"_s).toArray().at(1),
        parseObject(
            uR"({"type":"tool_use","id":"call_1","name":"get_weather","input":{"city":"Oslo"}})"_s));
}

void TestCodecs::geminiResultsWrapScalars()
{
    const auto codec = createEngineCodec(EngineType::Gemini);
    const QJsonArray native = codec->toNative({}, richConversation());
    const QJsonArray parts = native[2].toObject().value(u"parts"_s).toArray();
    COMPARE_JSON(parts,
                 parseObject(uR"({"a":[
        {"functionResponse":{"name":"get_weather","id":"call_1","response":{"temp":3}}},
        {"functionResponse":{"name":"get_weather","id":"call_2","response":{"error":"station offline"}}}]})"_s)
                     .value(u"a"_s));

    // Calls without ids (older transcripts) pair with results by name and order.
    const QJsonArray noIds = parseObject(uR"({"a":[
        {"role":"user","parts":[{"text":"q"}]},
        {"role":"model","parts":[{"functionCall":{"name":"f","args":{"n":1}}},{"functionCall":{"name":"g","args":{}}},{"functionCall":{"name":"f","args":{"n":2}}}]},
        {"role":"user","parts":[{"functionResponse":{"name":"g","response":{"result":"G"}}},{"functionResponse":{"name":"f","response":{"result":"F1"}}},{"functionResponse":{"name":"f","response":{"result":"F2"}}}]}]})"_s)
                                 .value(u"a"_s)
                                 .toArray();
    const QList<Message> back = codec->fromNative(noIds);
    QCOMPARE(back.size(), 3);
    QCOMPARE(back[1].toolCalls.size(), 3);
    QCOMPARE(back[1].toolCalls[0].id, u"call_0"_s);
    QCOMPARE(back[1].toolCalls[1].id, u"call_1"_s);
    QCOMPARE(back[1].toolCalls[2].id, u"call_2"_s);
    QCOMPARE(back[2].toolResults[0].callId, u"call_1"_s);
    QCOMPARE(back[2].toolResults[0].content, u"G"_s);
    QCOMPARE(back[2].toolResults[1].callId, u"call_0"_s);
    QCOMPARE(back[2].toolResults[1].content, u"F1"_s);
    QCOMPARE(back[2].toolResults[2].callId, u"call_2"_s);
    QCOMPARE(back[2].toolResults[2].content, u"F2"_s);
}

// ---------------------------------------------------------------------------------------------
// Replies, streams, errors

void TestCodecs::argumentsThatAreNotObjects()
{
    LOAD_DATA(body, u"openai_invalid_arguments.json"_s);
    const auto codec = createEngineCodec(EngineType::OpenAI);
    QString error;
    const auto reply = codec->parseReply(body, &error);
    QVERIFY2(reply, qPrintable(error));
    QCOMPARE(reply->message.toolCalls.size(), 3);
    const ToolCall &broken = reply->message.toolCalls[0];
    QCOMPARE(broken.rawArguments, u"{\"a\": 1"_s);
    QVERIFY(broken.arguments.isEmpty());
    QVERIFY2(broken.argumentsError.startsWith(u"The arguments are not valid JSON"_s),
             qPrintable(broken.argumentsError));
    const ToolCall &array = reply->message.toolCalls[1];
    QCOMPARE(array.rawArguments, u"[1,2]"_s);
    QVERIFY(array.arguments.isEmpty());
    QCOMPARE(array.argumentsError, u"The arguments are not a JSON object."_s);
    const ToolCall &empty = reply->message.toolCalls[2];
    QVERIFY(empty.arguments.isEmpty());
    QCOMPARE(empty.argumentsError, u""_s); // "" means no arguments: {}
    QCOMPARE(reply->usage, (Usage { 6, 5, 4, 2 })); // cached_tokens is part of prompt_tokens
    // Re-sent as the model wrote them.
    const QJsonArray native = codec->toNative({}, { reply->message });
    QCOMPARE(native[0]
                 .toObject()
                 .value(u"tool_calls"_s)
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(u"function"_s)
                 .toObject()
                 .value(u"arguments"_s)
                 .toString(),
             u"{\"a\": 1"_s);
}

void TestCodecs::refusalsAndSpecialFinishes()
{
    QString error;
    {
        LOAD_DATA(body, u"openai_content_filter.json"_s);
        const auto reply = createEngineCodec(EngineType::OpenAI)->parseReply(body, &error);
        QVERIFY2(reply, qPrintable(error));
        QCOMPARE(reply->finishReason, FinishReason::Refusal);
        QCOMPARE(reply->refusalCategory, u"content_filter"_s);
        QCOMPARE(reply->rawFinishReason, u"content_filter"_s);
    }
    {
        LOAD_DATA(body, u"responses_refusal.json"_s);
        const auto codec = createEngineCodec(EngineType::OpenAIResponses);
        const auto reply = codec->parseReply(body, &error);
        QVERIFY2(reply, qPrintable(error));
        QCOMPARE(reply->finishReason, FinishReason::Refusal);
        QCOMPARE(reply->message.refusal, u"I can't help with that."_s);
        QCOMPARE(reply->message.text, u""_s);
        QCOMPARE(reply->usage, (Usage { 9, 7, 0, 0 }));
        // The reasoning item is kept and re-sent ahead of the message.
        const QJsonArray native = codec->toNative({}, { reply->message });
        QCOMPARE(native.size(), 2);
        QCOMPARE(native[0].toObject().value(u"id"_s).toString(), u"rs_1"_s);
    }
    {
        const auto codec = createEngineCodec(EngineType::OpenAIResponses);
        const auto filtered = codec->parseReply(
            "{\"id\":\"resp_f\",\"status\":\"incomplete\",\"incomplete_details\":{\"reason\":\"content_filter\"},\"output\":[]}"_ba,
            &error);
        QVERIFY2(filtered, qPrintable(error));
        QCOMPARE(filtered->finishReason, FinishReason::Refusal);
        QCOMPARE(filtered->refusalCategory, u"content_filter"_s);
        QCOMPARE(filtered->rawFinishReason, u"content_filter"_s);
        // A failed response is not a reply: parseReply says why.
        QVERIFY(!codec->parseReply(
            "{\"status\":\"failed\",\"error\":{\"code\":\"server_error\",\"message\":\"it broke\"}}"_ba,
            &error));
        QCOMPARE(error, u"it broke"_s);
        QVERIFY(!codec->parseReply("not json"_ba, &error));
        QVERIFY(error.startsWith(u"The reply is not a JSON object"_s));
    }
    {
        LOAD_DATA(body, u"anthropic_pause_turn.json"_s);
        const auto codec = createEngineCodec(EngineType::Anthropic);
        const auto reply = codec->parseReply(body, &error);
        QVERIFY2(reply, qPrintable(error));
        QCOMPARE(reply->finishReason, FinishReason::Pause);
        QCOMPARE(reply->rawFinishReason, u"pause_turn"_s);
        QCOMPARE(reply->message.text, u"Working"_s);
        QCOMPARE(reply->usage, (Usage { 1, 2, 0, 1 }));
        // pause_turn: the content goes back unchanged, thinking block (with signature) first.
        const QJsonArray native = codec->toNative({}, { reply->message });
        COMPARE_JSON(
            native[0].toObject().value(u"content"_s),
            parseObject(
                uR"({"a":[{"type":"thinking","thinking":"hmm","signature":"sig123"},{"type":"text","text":"Working"}]})"_s)
                .value(u"a"_s));
    }
    {
        LOAD_DATA(body, u"anthropic_context_exceeded.json"_s);
        const auto reply = createEngineCodec(EngineType::Anthropic)->parseReply(body, &error);
        QVERIFY2(reply, qPrintable(error));
        QCOMPARE(reply->finishReason, FinishReason::Length);
        QCOMPARE(reply->rawFinishReason, u"model_context_window_exceeded"_s);
    }
    {
        LOAD_DATA(body, u"gemini_safety.json"_s);
        const auto reply = createEngineCodec(EngineType::Gemini)->parseReply(body, &error);
        QVERIFY2(reply, qPrintable(error));
        QCOMPARE(reply->finishReason, FinishReason::Refusal);
        QCOMPARE(reply->refusalCategory, u"SAFETY"_s);
        QCOMPARE(reply->message.text, u""_s);
        QCOMPARE(reply->message.refusal, u"The response was blocked (SAFETY)."_s);
        QCOMPARE(reply->usage, (Usage { 12, 0, 0, 0 }));
    }
    {
        LOAD_DATA(body, u"gemini_blocked_prompt.json"_s);
        const auto codec = createEngineCodec(EngineType::Gemini);
        const auto reply = codec->parseReply(body, &error);
        QVERIFY2(reply, qPrintable(error));
        QCOMPARE(reply->finishReason, FinishReason::Refusal);
        QCOMPARE(reply->refusalCategory, u"PROHIBITED_CONTENT"_s);
        QCOMPARE(reply->rawFinishReason, u"PROHIBITED_CONTENT"_s);
        QCOMPARE(reply->message.refusal, u"The response was blocked (PROHIBITED_CONTENT)."_s);
        // Streamed, a blocked prompt also ends the stream.
        const Test::StreamResult streamed =
            Test::runStream(*codec, "data: "_ba + body.simplified() + "\r\n\r\n"_ba);
        QVERIFY(streamed.complete);
        QCOMPARE(streamed.reply.finishReason, FinishReason::Refusal);
        QVERIFY(!streamed.hasContent);
    }
}

void TestCodecs::midStreamErrors()
{
    {
        LOAD_DATA(body, u"openai_stream_midstream_error.sse"_s);
        const Test::StreamResult result =
            Test::runStream(*createEngineCodec(EngineType::OpenAI), body);
        QVERIFY(result.error);
        QVERIFY(!result.complete);
        QVERIFY(result.hasContent); // "Hel" arrived: the job must not retry silently
        QCOMPARE(result.textDeltas, QStringList { u"Hel"_s });
        QCOMPARE(result.error->providerType, u"server_error"_s);
        QCOMPARE(result.error->message,
                 u"The server had an error while processing your request."_s);
        QCOMPARE(result.error->httpStatus, 0);
        QVERIFY(result.error->transient);
    }
    {
        LOAD_DATA(body, u"anthropic_stream_overloaded.sse"_s);
        const Test::StreamResult result =
            Test::runStream(*createEngineCodec(EngineType::Anthropic), body);
        QVERIFY(result.error);
        QVERIFY(!result.hasContent);
        QCOMPARE(result.error->providerType, u"overloaded_error"_s);
        QCOMPARE(result.error->message, u"Overloaded"_s);
        QVERIFY(result.error->transient);
    }
    {
        LOAD_DATA(body, u"responses_stream_error.sse"_s);
        const Test::StreamResult result =
            Test::runStream(*createEngineCodec(EngineType::OpenAIResponses), body);
        QVERIFY(result.error);
        QCOMPARE(result.error->providerType, u"server_error"_s);
        QCOMPARE(result.error->message, u"Something went wrong"_s);
        QVERIFY(result.error->transient);
    }
    {
        LOAD_DATA(body, u"gemini_stream_raw_error.sse"_s);
        const Test::StreamResult result =
            Test::runStream(*createEngineCodec(EngineType::Gemini), body);
        QVERIFY(result.error);
        QVERIFY(!result.complete);
        QCOMPARE(result.textDeltas, QStringList { u"Par"_s });
        QCOMPARE(result.error->providerType, u"UNAVAILABLE"_s);
        QCOMPARE(result.error->message, u"The model is overloaded. Please try again later."_s);
        QCOMPARE(result.error->httpStatus, 0);
        QVERIFY(result.error->transient);
    }
    {
        // A non-transient mid-stream error stays non-transient.
        const Test::StreamResult result = Test::runStream(
            *createEngineCodec(EngineType::Anthropic),
            "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"bad\"}}\n\n"_ba);
        QVERIFY(result.error);
        QVERIFY(!result.error->transient);
    }
}

void TestCodecs::malformedStreamEvent()
{
    LOAD_DATA(body, u"openai_stream_malformed.sse"_s);
    for (const EngineType type :
         { EngineType::OpenAI, EngineType::OpenAICompatible, EngineType::Gemini }) {
        const Test::StreamResult result = Test::runStream(*createEngineCodec(type), body);
        QVERIFY(result.error);
        QCOMPARE(result.error->providerType, u"malformed_event"_s);
        QVERIFY2(result.error->message.startsWith(u"Malformed JSON in stream event \"message\""_s),
                 qPrintable(result.error->message));
        QVERIFY(result.error->message.contains(u"chatcmpl-2"_s)); // quotes the data
    }
    const QByteArray named =
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\n\n"_ba;
    const Test::StreamResult anthropic =
        Test::runStream(*createEngineCodec(EngineType::Anthropic), named);
    QVERIFY(anthropic.error);
    QVERIFY2(anthropic.error->message.contains(u"\"content_block_delta\""_s),
             qPrintable(anthropic.error->message));
    const Test::StreamResult responses =
        Test::runStream(*createEngineCodec(EngineType::OpenAIResponses),
                        "event: response.created\ndata: [1,\n\n"_ba);
    QVERIFY(responses.error);
    QVERIFY(responses.error->message.contains(u"\"response.created\""_s));
}

void TestCodecs::paddedAndUnknownAnthropicEvents()
{
    LOAD_DATA(body, u"anthropic_stream_padded.sse"_s);
    const Test::StreamResult result =
        Test::runStream(*createEngineCodec(EngineType::Anthropic), body);
    QVERIFY(!result.error);
    QVERIFY(result.complete);
    QCOMPARE(result.reply.message.toolCalls.size(), 2);
    const ToolCall &empty = result.reply.message.toolCalls[0];
    QCOMPARE(empty.id, u"toolu_empty"_s);
    QCOMPARE(empty.rawArguments, u""_s);
    COMPARE_JSON(empty.arguments, QJsonObject()); // empty total means {}
    QCOMPARE(empty.argumentsError, u""_s);
    const ToolCall &cut = result.reply.message.toolCalls[1]; // cut off by max_tokens
    QCOMPARE(cut.rawArguments, u"{\"text\": \"unfinis"_s);
    QVERIFY(!cut.argumentsError.isEmpty());
    QCOMPARE(result.reply.finishReason, FinishReason::Length);
    // input = 10 + 3 cache creation + 7 cache read; cached = 7.
    QCOMPARE(result.reply.usage,
             (Usage { 10, 42, 7, 0, 3, 0 })); // input_tokens leaves reads and writes out
}

void TestCodecs::compatibleStream()
{
    LOAD_DATA(body, u"compat_stream_ollama.sse"_s);
    const auto codec = createEngineCodec(EngineType::OpenAICompatible);
    const Test::StreamResult result = Test::runStream(*codec, body);
    QVERIFY(!result.error);
    QVERIFY(result.complete);
    QCOMPARE(result.reply.message.text, u""_s);
    QVERIFY(result.textDeltas.isEmpty());
    QCOMPARE(result.reply.message.providerData.value(u"reasoning"_s).toString(), u"Thinking."_s);
    QCOMPARE(result.reply.message.toolCalls.size(), 1);
    QCOMPARE(result.reply.message.toolCalls[0].id, u"call_x1"_s);
    COMPARE_JSON(result.reply.message.toolCalls[0].arguments,
                 (QJsonObject { { u"city"_s, u"Oslo"_s } }));
    QCOMPARE(result.reply.finishReason, FinishReason::ToolCalls);
    QCOMPARE(result.reply.usage, (Usage { 30, 12, 0, 0 }));
    // Re-sent with content "" (not null) beside the tool calls.
    const QJsonObject assistant = codec->toNative({}, { result.reply.message }).at(0).toObject();
    QVERIFY(assistant.value(u"content"_s).isString());
    QCOMPARE(assistant.value(u"content"_s).toString(), u""_s);
    // The OpenAI flavour sends null there.
    const QJsonObject openai = createEngineCodec(EngineType::OpenAI)
                                   ->toNative({}, { result.reply.message })
                                   .at(0)
                                   .toObject();
    QVERIFY(openai.value(u"content"_s).isNull());
}

void TestCodecs::thinkingIsKeptAndEchoed()
{
    {
        LOAD_DATA(body, u"anthropic_stream_thinking.sse"_s);
        const auto codec = createEngineCodec(EngineType::Anthropic);
        const Test::StreamResult result = Test::runStream(*codec, body);
        QVERIFY(!result.error);
        QVERIFY(result.complete);
        QVERIFY(result.textDeltas.isEmpty()); // thinking is not answer text
        QCOMPARE(result.reply.message.text, u""_s);
        QCOMPARE(result.reply.finishReason, FinishReason::ToolCalls);
        QCOMPARE(result.reply.usage, (Usage { 50, 30, 40, 0 }));
        // With tools, the thinking block goes back first and unchanged (signature included).
        const QJsonArray native = codec->toNative({}, { result.reply.message });
        COMPARE_JSON(
            native[0].toObject().value(u"content"_s),
            parseObject(
                uR"({"a":[{"type":"thinking","thinking":"Need the weather.","signature":"EqQBCgIYAhIM"},
                                           {"type":"tool_use","id":"toolu_t1","name":"get_weather","input":{"city":"Oslo"}}]})"_s)
                .value(u"a"_s));
        QCOMPARE(codec->fromNative(native).first().providerData, result.reply.message.providerData);
    }
    {
        LOAD_DATA(body, u"gemini_stream_thought_text.sse"_s);
        const auto codec = createEngineCodec(EngineType::Gemini);
        const Test::StreamResult result = Test::runStream(*codec, body);
        QVERIFY(!result.error);
        QVERIFY(result.complete);
        QCOMPARE(result.reply.message.text, u"Oslo is cold."_s);
        QCOMPARE(result.textDeltas,
                 (QStringList { u"Oslo"_s, u" is cold."_s })); // thoughts are not
        QCOMPARE(result.reply.message.providerData.value(u"thoughts"_s).toString(),
                 u"Thinking it over"_s);
        QCOMPARE(result.reply.usage, (Usage { 6, 10, 3, 6 }));
        QCOMPARE(result.reply.finishReason, FinishReason::Stop);
        // The text part's signature is echoed; the thought summary is not re-sent.
        const QJsonArray native = codec->toNative({}, { result.reply.message });
        COMPARE_JSON(
            native[0].toObject().value(u"parts"_s),
            parseObject(uR"({"a":[{"text":"Oslo is cold.","thoughtSignature":"c2lnLXRleHQ="}]})"_s)
                .value(u"a"_s));
    }
}

void TestCodecs::responsesTextIncomplete()
{
    LOAD_DATA(body, u"responses_stream_text_incomplete.sse"_s);
    const Test::StreamResult result =
        Test::runStream(*createEngineCodec(EngineType::OpenAIResponses), body);
    QVERIFY(!result.error);
    QVERIFY(result.complete);
    QCOMPARE(result.reply.message.text, u"Once upon a time"_s);
    QCOMPARE(result.textDeltas, (QStringList { u"Once upon"_s, u" a time"_s }));
    QCOMPARE(result.reply.finishReason, FinishReason::Length);
    QCOMPARE(result.reply.rawFinishReason, u"max_output_tokens"_s);
    QCOMPARE(result.reply.usage, (Usage { 12, 16, 8, 10 }));
}

void TestCodecs::errorClassification()
{
    const auto openai = createEngineCodec(EngineType::OpenAI);
    const auto anthropic = createEngineCodec(EngineType::Anthropic);
    const auto gemini = createEngineCodec(EngineType::Gemini);

    struct Row
    {
        int status;
        ErrorCategory category;
        bool transient;
    };
    for (const Row row :
         { Row { 400, ErrorCategory::Model, false }, Row { 401, ErrorCategory::Auth, false },
           Row { 403, ErrorCategory::Auth, false }, Row { 404, ErrorCategory::Model, false },
           Row { 408, ErrorCategory::Other, true }, Row { 409, ErrorCategory::Other, true },
           Row { 413, ErrorCategory::Model, false }, Row { 422, ErrorCategory::Model, false },
           Row { 429, ErrorCategory::Other, true }, Row { 500, ErrorCategory::Other, true },
           Row { 503, ErrorCategory::Other, true }, Row { 529, ErrorCategory::Other, true },
           Row { 402, ErrorCategory::Other, false } }) {
        for (const auto *codec : { openai.get(), anthropic.get(), gemini.get() }) {
            const ApiError error = codec->parseError(row.status, "<html>gateway says no</html>"_ba);
            QCOMPARE(error.httpStatus, row.status);
            QCOMPARE(error.category, row.category);
            QCOMPARE(error.transient, row.transient);
            QCOMPARE(error.message, u"<html>gateway says no</html>"_s);
        }
    }
    {
        LOAD_DATA(body, u"openai_error_quota.json"_s);
        const ApiError error = openai->parseError(429, body);
        QCOMPARE(error.providerType, u"insufficient_quota"_s);
        QVERIFY(!error.transient); // retrying will not help
        QCOMPARE(error.category, ErrorCategory::Other);
    }
    {
        LOAD_DATA(body, u"openai_error_401.json"_s);
        const ApiError error = openai->parseError(401, body);
        QCOMPARE(error.category, ErrorCategory::Auth);
        QCOMPARE(error.providerType, u"invalid_request_error"_s);
        QVERIFY(error.message.startsWith(u"Incorrect API key provided"_s));
    }
    {
        LOAD_DATA(body, u"anthropic_error_529.json"_s);
        const ApiError error = anthropic->parseError(529, body);
        QCOMPARE(error.providerType, u"overloaded_error"_s);
        QCOMPARE(error.message, u"Overloaded"_s);
        QVERIFY(error.transient);
    }
    {
        LOAD_DATA(body, u"gemini_error_429.json"_s);
        const ApiError error = gemini->parseError(429, body);
        QCOMPARE(error.providerType, u"RESOURCE_EXHAUSTED"_s);
        QCOMPARE(error.message, u"Resource has been exhausted (e.g. check quota)."_s);
        QVERIFY(error.transient);
        QCOMPARE(error.retryAfterMs, std::optional<qint64>(37000));
    }
    // Compatible servers: llama.cpp's integer code and old vLLM's flat body.
    const auto compatible = createEngineCodec(EngineType::OpenAICompatible);
    ApiError llama = compatible->parseError(
        400,
        "{\"error\":{\"code\":400,\"message\":\"bad grammar\",\"type\":\"invalid_request_error\"}}"_ba);
    QCOMPARE(llama.message, u"bad grammar"_s);
    QCOMPARE(llama.providerType, u"invalid_request_error"_s);
    ApiError vllm = compatible->parseError(
        404,
        "{\"object\":\"error\",\"message\":\"model x does not exist\",\"type\":\"NotFoundError\",\"code\":404}"_ba);
    QCOMPARE(vllm.message, u"model x does not exist"_s);
    QCOMPARE(vllm.category, ErrorCategory::Model);
}

// ---------------------------------------------------------------------------------------------
// OpenAPI conformance

void TestCodecs::openApiConformance()
{
    const QString path = Test::sharedDataPath(u"openai-openapi.json"_s);
    QVERIFY2(!path.isEmpty(), qPrintable(Test::lastError()));
    const QJsonValue document = tolerateNullable(Test::readJson(path));
    QVERIFY(document.isObject());
    const QUrl base(u"https://callscope.invalid/openai-openapi.json"_s);
    SchemaRegistry registry;
    registry.addDocument(base, document);
    SchemaCompiler compiler(registry);
    const auto compileRef = [&](const QString &name) {
        return compiler.compile(
            QJsonObject {
                { u"$ref"_s, QString(base.toString() + u"#/components/schemas/"_s + name) } },
            QUrl(u"https://callscope.invalid/root.json"_s));
    };
    const CompiledSchema chat = compileRef(u"CreateChatCompletionRequest"_s);
    QVERIFY2(chat.isValid(), qPrintable(chat.errorString()));
    const CompiledSchema responses = compileRef(u"CreateResponse"_s);
    QVERIFY2(responses.isValid(), qPrintable(responses.errorString()));

    // Requests covering every feature the two engines build.
    QList<ChatRequest> requests;
    ChatRequest plain;
    plain.messages = { Message::user(u"hello"_s) };
    requests.append(plain);
    ChatRequest full;
    full.system = u"You are terse."_s;
    full.messages = richConversation();
    full.messages.append(Message::user(
        u"file"_s, { Attachment::fromData(u"d.pdf"_s, u"application/pdf"_s, "%PDF"_ba) }));
    full.tools = { weatherTool() };
    full.maxTokens = 500;
    full.temperature = 0.5;
    requests.append(full);
    for (const ToolChoiceMode mode :
         { ToolChoiceMode::None, ToolChoiceMode::Required, ToolChoiceMode::Force }) {
        ChatRequest choice = full;
        choice.toolChoice = mode;
        choice.forcedTool = u"get_weather"_s;
        choice.parallelToolCalls = false;
        choice.stream = false;
        requests.append(choice);
    }
    ChatRequest structured = plain;
    structured.responseSchema = parseObject(
        uR"({"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false})"_s);
    requests.append(structured);
    // Native output mode: the schema as the OpenAI transform sends it, beside the spec's tools.
    ChatRequest native = full;
    native.responseSchema =
        schemaForEngine(
            parseObject(
                uR"({"type":"object","properties":{"title":{"type":"string","minLength":3},"note":{"type":"string","format":"uri"}},"required":["title"]})"_s),
            EngineType::OpenAI)
            .schema;
    native.responseSchemaName = u"planner"_s;
    requests.append(native);
    ChatRequest refused = plain;
    Message refusal = Message::assistant({});
    refusal.refusal = u"No."_s;
    refused.messages.append(refusal);
    refused.messages.append(Message::user(u"please"_s));
    requests.append(refused);
    // The prompt cache fields: prompt_cache_key and prompt_cache_retention as the spec has them.
    ChatRequest cached = full;
    CacheSpec cacheSettings;
    cacheSettings.key = u"planner-acme"_s;
    cacheSettings.retention = u"24h"_s;
    cached.cache = cacheSettings;
    requests.append(cached);

    const EngineConfig config = configFor(EngineType::OpenAI, u"gpt-4.1"_s);
    int checked = 0;
    for (const ChatRequest &request : std::as_const(requests)) {
        for (const EngineType type : { EngineType::OpenAI, EngineType::OpenAIResponses }) {
            const QJsonObject body = createEngineCodec(type)->buildRequest(request, config).body;
            const SchemaValidationResult result =
                (type == EngineType::OpenAI ? chat : responses).validate(body);
            QVERIFY2(result.valid,
                     qPrintable(engineTypeName(type) + u": "_s
                                + formatErrorsForModel(result.errors, 20) + u"\nbody: "_s
                                + Test::compact(body).left(3000)));
            ++checked;
        }
    }
    QCOMPARE(checked, 18);

    // The validator is really applied: a wrong body is rejected.
    QJsonObject wrong = createEngineCodec(EngineType::OpenAI)->buildRequest(plain, config).body;
    wrong.insert(
        u"messages"_s,
        QJsonArray { QJsonObject { { u"role"_s, u"wizard"_s }, { u"content"_s, u"x"_s } } });
    QVERIFY(!chat.validate(wrong).valid);
    QJsonObject wrongResponses =
        createEngineCodec(EngineType::OpenAIResponses)->buildRequest(plain, config).body;
    wrongResponses.insert(u"max_output_tokens"_s, u"many"_s);
    QVERIFY(!responses.validate(wrongResponses).valid);
}

// ---------------------------------------------------------------------------------------------
// The schema each engine accepts

void TestCodecs::engineSchemaRules_data()
{
    QTest::addColumn<int>("engine");
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<QStringList>("changes"); // "pointer rule", in order
    const auto row = [](const char *name, EngineType e, const QString &in, const QString &out,
                        const QStringList &changes) {
        QTest::newRow(name) << int(e) << in << out << changes;
    };
    using E = EngineType;
    // OpenAI strict (Chat and Responses share the rules).
    row("openai: additionalProperties added", E::OpenAI,
        uR"J({"type":"object","properties":{"a":{"type":"string"}},"required":["a"]})J"_s,
        uR"J({"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false})J"_s,
        { u"/additionalProperties additional-properties-false"_s });
    row("openai: additionalProperties true set to false", E::OpenAI,
        uR"J({"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":true})J"_s,
        uR"J({"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false})J"_s,
        { u"/additionalProperties additional-properties-false"_s });
    row("openai: optional made required and nullable", E::OpenAI,
        uR"J({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer","enum":[1,2]},"c":{"anyOf":[{"type":"string"}]}},"required":["a"],"additionalProperties":false})J"_s,
        uR"J({"type":"object","properties":{"a":{"type":"string"},"b":{"type":["integer","null"],"enum":[1,2,null]},"c":{"anyOf":[{"anyOf":[{"type":"string"}]},{"type":"null"}]}},"required":["a","b","c"],"additionalProperties":false})J"_s,
        { u"/properties/b optional-made-nullable"_s, u"/properties/c optional-made-nullable"_s });
    row("responses: optional made required and nullable", E::OpenAIResponses,
        uR"J({"type":"object","properties":{"a":{"type":["string","integer"]}},"additionalProperties":false})J"_s,
        uR"J({"type":"object","properties":{"a":{"type":["string","integer","null"]}},"required":["a"],"additionalProperties":false})J"_s,
        { u"/properties/a optional-made-nullable"_s });
    row("openai: unsupported keyword into the description", E::OpenAI,
        uR"J({"type":"object","properties":{"a":{"type":"string","minLength":2,"description":"Name."}},"required":["a"],"additionalProperties":false})J"_s,
        uR"J({"type":"object","properties":{"a":{"type":"string","description":"Name. (minLength: 2)"}},"required":["a"],"additionalProperties":false})J"_s,
        { u"/properties/a/minLength keyword-to-description"_s });
    row("openai: default into the description", E::OpenAI,
        uR"J({"type":"object","properties":{"a":{"type":"string","default":"x"}},"required":["a"],"additionalProperties":false})J"_s,
        uR"J({"type":"object","properties":{"a":{"type":"string","description":"(default: \"x\")"}},"required":["a"],"additionalProperties":false})J"_s,
        { u"/properties/a/default keyword-to-description"_s });
    row("openai: unsupported format into the description", E::OpenAI,
        uR"J({"type":"object","properties":{"a":{"type":"string","format":"uri"},"d":{"type":"string","format":"date"}},"required":["a","d"],"additionalProperties":false})J"_s,
        uR"J({"type":"object","properties":{"a":{"type":"string","description":"(format: \"uri\")"},"d":{"type":"string","format":"date"}},"required":["a","d"],"additionalProperties":false})J"_s,
        { u"/properties/a/format keyword-to-description"_s });
    row("openai: $ref siblings inlined", E::OpenAI,
        uR"J({"type":"object","$defs":{"p":{"type":"string"}},"properties":{"a":{"$ref":"#/$defs/p","description":"A."},"b":{"$ref":"#/$defs/p"}},"required":["a","b"],"additionalProperties":false})J"_s,
        uR"J({"type":"object","$defs":{"p":{"type":"string"}},"properties":{"a":{"type":"string","description":"A."},"b":{"$ref":"#/$defs/p"}},"required":["a","b"],"additionalProperties":false})J"_s,
        { u"/properties/a/$ref ref-inlined"_s });
    row("openai: oneOf sent as anyOf", E::OpenAI,
        uR"J({"type":"object","properties":{"a":{"oneOf":[{"type":"string"},{"type":"integer","default":1}]}},"required":["a"],"additionalProperties":false})J"_s,
        uR"J({"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"type":"integer","description":"(default: 1)"}]}},"required":["a"],"additionalProperties":false})J"_s,
        { u"/properties/a/oneOf one-of-to-any-of"_s,
          u"/properties/a/oneOf/1/default keyword-to-description"_s });
    row("openai: one-entry allOf flattened", E::OpenAI,
        uR"J({"type":"object","properties":{"a":{"allOf":[{"type":"string"}]}},"required":["a"],"additionalProperties":false})J"_s,
        uR"J({"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false})J"_s,
        { u"/properties/a/allOf all-of-flattened"_s });
    row("openai: nested objects", E::OpenAI,
        uR"J({"type":"object","properties":{"steps":{"type":"array","items":{"type":"object","properties":{"s":{"type":"string"}}}}},"required":["steps"],"additionalProperties":false})J"_s,
        uR"J({"type":"object","properties":{"steps":{"type":"array","items":{"type":"object","properties":{"s":{"type":["string","null"]}},"required":["s"],"additionalProperties":false}}},"required":["steps"],"additionalProperties":false})J"_s,
        { u"/properties/steps/items/additionalProperties additional-properties-false"_s,
          u"/properties/steps/items/properties/s optional-made-nullable"_s });
    // Anthropic.
    row("anthropic: additionalProperties forced, required left", E::Anthropic,
        uR"J({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["a"]})J"_s,
        uR"J({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["a"],"additionalProperties":false})J"_s,
        { u"/additionalProperties additional-properties-false"_s });
    row("anthropic: minItems above 1 into the description", E::Anthropic,
        uR"J({"type":"object","properties":{"a":{"type":"array","minItems":3,"items":{"type":"string"}},"b":{"type":"array","minItems":1}},"required":["a"],"additionalProperties":false})J"_s,
        uR"J({"type":"object","properties":{"a":{"type":"array","description":"(minItems: 3)","items":{"type":"string"}},"b":{"type":"array","minItems":1}},"required":["a"],"additionalProperties":false})J"_s,
        { u"/properties/a/minItems keyword-to-description"_s });
    row("anthropic: bounds and pattern into the description", E::Anthropic,
        uR"J({"type":"object","properties":{"n":{"type":"integer","minimum":1,"maximum":9},"s":{"type":"string","pattern":"^x"}},"required":["n"],"additionalProperties":false})J"_s,
        uR"J({"type":"object","properties":{"n":{"type":"integer","description":"(minimum: 1) (maximum: 9)"},"s":{"type":"string","description":"(pattern: \"^x\")"}},"required":["n"],"additionalProperties":false})J"_s,
        { u"/properties/n/minimum keyword-to-description"_s,
          u"/properties/n/maximum keyword-to-description"_s,
          u"/properties/s/pattern keyword-to-description"_s });
    row("anthropic: oneOf sent as anyOf, allOf kept", E::Anthropic,
        uR"J({"type":"object","properties":{"a":{"oneOf":[{"type":"string"},{"type":"null"}]},"b":{"allOf":[{"type":"string"}]}},"required":["a"],"additionalProperties":false})J"_s,
        uR"J({"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"type":"null"}]},"b":{"allOf":[{"type":"string"}]}},"required":["a"],"additionalProperties":false})J"_s,
        { u"/properties/a/oneOf one-of-to-any-of"_s });
    row("anthropic: unsupported format", E::Anthropic,
        uR"J({"type":"object","properties":{"a":{"type":"string","format":"regex"},"u":{"type":"string","format":"uri"}},"required":["a"],"additionalProperties":false})J"_s,
        uR"J({"type":"object","properties":{"a":{"type":"string","description":"(format: \"regex\")"},"u":{"type":"string","format":"uri"}},"required":["a"],"additionalProperties":false})J"_s,
        { u"/properties/a/format keyword-to-description"_s });
    // Gemini.
    row("gemini: const as a one-value enum", E::Gemini,
        uR"J({"type":"object","properties":{"k":{"const":"x"}},"required":["k"]})J"_s,
        uR"J({"type":"object","properties":{"k":{"enum":["x"]}},"required":["k"]})J"_s,
        { u"/properties/k/const const-to-enum"_s });
    row("gemini: formats and exclusive bounds into the description", E::Gemini,
        uR"J({"type":"object","properties":{"w":{"type":"string","format":"date-time"},"r":{"type":"number","exclusiveMinimum":0}}})J"_s,
        uR"J({"type":"object","properties":{"w":{"type":"string","description":"(format: \"date-time\")"},"r":{"type":"number","description":"(exclusiveMinimum: 0)"}}})J"_s,
        { u"/properties/r/exclusiveMinimum keyword-to-description"_s,
          u"/properties/w/format keyword-to-description"_s });
    row("gemini: annotations dropped", E::Gemini,
        uR"J({"$schema":"https://json-schema.org/draft/2020-12/schema","title":"Plan","type":"object","properties":{"title":{"type":"string","examples":["a"]}}})J"_s,
        uR"J({"type":"object","properties":{"title":{"type":"string"}}})J"_s,
        { u"/title keyword-dropped"_s, u"/properties/title/examples keyword-dropped"_s,
          u"/$schema keyword-dropped"_s });
    // Sent as they are.
    row("compatible: as it is", E::OpenAICompatible,
        uR"J({"type":"object","properties":{"a":{"type":"string","minLength":2}}})J"_s,
        uR"J({"type":"object","properties":{"a":{"type":"string","minLength":2}}})J"_s, {});
    row("replay: as it is", E::Replay, uR"J({"type":"object","properties":{"k":{"const":"x"}}})J"_s,
        uR"J({"type":"object","properties":{"k":{"const":"x"}}})J"_s, {});
}

void TestCodecs::engineSchemaRules()
{
    QFETCH(int, engine);
    QFETCH(QString, input);
    QFETCH(QString, expected);
    QFETCH(QStringList, changes);
    const QJsonObject original = parseObject(input);
    const EngineSchema sent = schemaForEngine(original, EngineType(engine));
    COMPARE_JSON(sent.schema, parseObject(expected));
    QStringList got;
    for (const SchemaChange &c : sent.changes) {
        QVERIFY(!c.reason.isEmpty());
        got.append(c.pointer + u' ' + c.rule);
    }
    QCOMPARE(got, changes);
    // The schema sent is itself valid 2020-12, and so was the original.
    QCOMPARE(validateSchema(original).size(), 0);
    const QList<SchemaError> errors = validateSchema(sent.schema);
    QVERIFY2(errors.isEmpty(), qPrintable(formatErrorsForModel(errors, 5)));
}

void TestCodecs::engineSchemaEveryEngine()
{
    // A schema every engine accepts as it is, and one that each strict engine changes.
    const QJsonObject clean = parseObject(
        uR"J({"type":"object","properties":{"title":{"type":"string"},"steps":{"type":"array","items":{"type":"string"}}},"required":["title","steps"],"additionalProperties":false})J"_s);
    const QJsonObject loose = parseObject(
        uR"J({"type":"object","properties":{"n":{"type":"integer","exclusiveMinimum":0}},"required":["n"]})J"_s);
    for (const EngineType e :
         { EngineType::OpenAI, EngineType::OpenAIResponses, EngineType::Anthropic,
           EngineType::Gemini, EngineType::OpenAICompatible, EngineType::Replay }) {
        const EngineSchema same = schemaForEngine(clean, e);
        QVERIFY2(same.unchanged(), qPrintable(engineTypeName(e)));
        COMPARE_JSON(same.schema, clean);
        const EngineSchema changed = schemaForEngine(loose, e);
        const bool asIs = e == EngineType::OpenAICompatible || e == EngineType::Replay;
        QVERIFY2(changed.unchanged() == asIs, qPrintable(engineTypeName(e)));
        QCOMPARE(validateSchema(changed.schema).size(), 0);
    }
}

void TestCodecs::engineSchemaNullsCountAsAbsent()
{
    const QJsonObject original = parseObject(
        uR"J({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"},"items":{"type":"array","items":{"type":"object","properties":{"x":{"type":"integer"}}}}},"required":["a","items"],"additionalProperties":false})J"_s);
    const EngineSchema sent = schemaForEngine(original, EngineType::OpenAI);
    const QJsonValue reply = parseObject(uR"J({"a":"t","b":null,"items":[{"x":null},{"x":2}]})J"_s);
    const CompiledSchema schema = SchemaCompiler().compile(original);
    QVERIFY(!schema.validate(reply).valid); // the nulls break the original schema
    const QJsonValue normalized = normalizeNativeOutput(reply, sent);
    COMPARE_JSON(normalized.toObject(), parseObject(uR"J({"a":"t","items":[{},{"x":2}]})J"_s));
    QVERIFY(schema.validate(normalized).valid);
    // A null where the original allows one is kept.
    QCOMPARE(normalizeNativeOutput(QJsonObject { { u"a"_s, QJsonValue() } }, sent)
                 .toObject()
                 .contains(u"a"_s),
             true);
}

// The cache settings as each provider documents them in its request body: Anthropic's
// cache_control objects on the last tool, the system prompt and a message's last block (at
// most four, the automatic one at the top level), OpenAI's prompt_cache_key and
// prompt_cache_retention (not sent to local servers), Gemini's cachedContent in place of the
// system instruction and tools.
void TestCodecs::promptCacheRequestBodies()
{
    ChatRequest request;
    request.system = u"You plan tickets."_s;
    request.messages = { Message::user(u"Plan ticket 7"_s), Message::assistant(u"Looking."_s),
                         Message::user(u"Go on"_s) };
    request.tools = { weatherTool() };
    CacheSpec cache;
    cache.breakpoints = { { CacheBreakpoint::Place::Tools },
                          { CacheBreakpoint::Place::System },
                          { CacheBreakpoint::Place::LastButOne } };
    cache.ttl = u"1h"_s;
    request.cache = cache;
    const EngineConfig anthropic = configFor(EngineType::Anthropic, u"claude-sonnet-4"_s);
    QJsonObject body =
        createEngineCodec(EngineType::Anthropic)->buildRequest(request, anthropic).body;
    const QJsonObject hour { { u"type"_s, u"ephemeral"_s }, { u"ttl"_s, u"1h"_s } };
    COMPARE_JSON(body.value(u"tools"_s).toArray().last().toObject().value(u"cache_control"_s),
                 hour);
    COMPARE_JSON(body.value(u"system"_s),
                 (QJsonArray { QJsonObject { { u"type"_s, u"text"_s },
                                             { u"text"_s, u"You plan tickets."_s },
                                             { u"cache_control"_s, hour } } }));
    const QJsonArray messages = body.value(u"messages"_s).toArray();
    QCOMPARE(messages.size(), 3);
    COMPARE_JSON(messages.at(1)
                     .toObject()
                     .value(u"content"_s)
                     .toArray()
                     .last()
                     .toObject()
                     .value(u"cache_control"_s),
                 hour);
    QVERIFY(!Test::compact(messages.at(0)).contains(u"cache_control"_s));
    QVERIFY(!Test::compact(messages.at(2)).contains(u"cache_control"_s));
    QVERIFY(!body.contains(u"cache_control"_s));

    // Five places: the fifth is not sent; "auto" is the top-level mark; a 5-minute TTL is "5m".
    cache.breakpoints = { { CacheBreakpoint::Place::Auto },
                          { CacheBreakpoint::Place::Tools },
                          { CacheBreakpoint::Place::System },
                          { CacheBreakpoint::Place::Message, 1 },
                          { CacheBreakpoint::Place::Last } };
    cache.ttl = u"5m"_s;
    request.cache = cache;
    body = createEngineCodec(EngineType::Anthropic)->buildRequest(request, anthropic).body;
    COMPARE_JSON(body.value(u"cache_control"_s),
                 (QJsonObject { { u"type"_s, u"ephemeral"_s }, { u"ttl"_s, u"5m"_s } }));
    QCOMPARE(Test::compact(body).count(u"\"cache_control\""_s), qsizetype(4));
    QVERIFY(
        !Test::compact(body.value(u"messages"_s).toArray().last()).contains(u"cache_control"_s));
    COMPARE_JSON(body.value(u"messages"_s).toArray().first().toObject().value(u"content"_s),
                 (QJsonArray { QJsonObject {
                     { u"type"_s, u"text"_s },
                     { u"text"_s, u"Plan ticket 7"_s },
                     { u"cache_control"_s,
                       QJsonObject { { u"type"_s, u"ephemeral"_s }, { u"ttl"_s, u"5m"_s } } } } }));

    CacheSpec openai;
    openai.key = u"planner-acme"_s;
    openai.retention = u"24h"_s;
    request.cache = openai;
    for (EngineType type : { EngineType::OpenAI, EngineType::OpenAIResponses }) {
        body = createEngineCodec(type)->buildRequest(request, configFor(type, u"gpt-4.1"_s)).body;
        QCOMPARE(body.value(u"prompt_cache_key"_s).toString(), u"planner-acme"_s);
        QCOMPARE(body.value(u"prompt_cache_retention"_s).toString(), u"24h"_s);
        QVERIFY(!Test::compact(body).contains(u"cache_control"_s));
    }
    body = createEngineCodec(EngineType::OpenAICompatible)
               ->buildRequest(request, configFor(EngineType::OpenAICompatible, u"m"_s))
               .body;
    QVERIFY(!body.contains(u"prompt_cache_key"_s));
    QVERIFY(!body.contains(u"prompt_cache_retention"_s));

    request.cache.reset();
    request.cachedContent = u"cachedContents/abc"_s;
    body = createEngineCodec(EngineType::Gemini)
               ->buildRequest(request, configFor(EngineType::Gemini, u"gemini-2.5-flash"_s))
               .body;
    QCOMPARE(body.value(u"cachedContent"_s).toString(), u"cachedContents/abc"_s);
    QVERIFY(!body.contains(u"systemInstruction"_s));
    QVERIFY(!body.contains(u"tools"_s));
    QCOMPARE(body.value(u"contents"_s).toArray().size(), 3);
}

// One usage model from four wire formats: Anthropic's input_tokens leaves cache reads and
// writes out (and splits writes by TTL); OpenAI's and Gemini's prompt counts hold the cached
// tokens, which are taken out once, so the parts add up to the prompt exactly.
void TestCodecs::promptCacheUsageNormalised()
{
    const Usage anthropic = AnthropicCodec::parseUsage(
        parseObject(uR"({"input_tokens":50,"cache_read_input_tokens":2000,
        "cache_creation_input_tokens":1500,"cache_creation":{"ephemeral_5m_input_tokens":500,"ephemeral_1h_input_tokens":1000},
        "output_tokens":80})"_s));
    QCOMPARE(anthropic, (Usage { 50, 80, 2000, 0, 1500, 1000 }));
    QCOMPARE(anthropic.promptTokens(), qint64(3550));
    QCOMPARE(anthropic.cacheWrite5mTokens(), qint64(500));
    // An older reply with only the total of the writes: all of it at five minutes.
    QCOMPARE(AnthropicCodec::parseUsage(parseObject(
                 uR"({"input_tokens":5,"cache_creation_input_tokens":1200,"output_tokens":1})"_s)),
             (Usage { 5, 1, 0, 0, 1200, 0 }));

    const Usage chat =
        OpenAIChatCodec::parseUsage(parseObject(uR"({"prompt_tokens":2006,"completion_tokens":300,
        "prompt_tokens_details":{"cached_tokens":1920},"completion_tokens_details":{"reasoning_tokens":100}})"_s));
    QCOMPARE(chat, (Usage { 86, 300, 1920, 100, 0, 0 }));
    QCOMPARE(chat.promptTokens(), qint64(2006));
    const Usage responses = OpenAIResponsesCodec::parseUsage(parseObject(uR"({"input_tokens":1500,
        "input_tokens_details":{"cached_tokens":1152},"output_tokens":20})"_s));
    QCOMPARE(responses, (Usage { 348, 20, 1152, 0, 0, 0 }));
    const Usage gemini = GeminiCodec::parseUsage(
        parseObject(uR"({"promptTokenCount":4100,"cachedContentTokenCount":4000,
        "candidatesTokenCount":10,"thoughtsTokenCount":5,"totalTokenCount":4115})"_s));
    QCOMPARE(gemini, (Usage { 100, 15, 4000, 5, 0, 0 }));
    // A count larger than the prompt is clamped, never negative.
    QCOMPARE(OpenAIChatCodec::parseUsage(parseObject(
                 uR"({"prompt_tokens":10,"prompt_tokens_details":{"cached_tokens":99}})"_s)),
             (Usage { 0, 0, 10, 0, 0, 0 }));

    // The stored shape, and the older one (input held the cached tokens) read the same way.
    COMPARE_JSON(
        anthropic.toJson(),
        parseObject(uR"({"input_tokens":50,"cache_read_tokens":2000,"cache_write_tokens":1500,
        "cache_write_1h_tokens":1000,"output_tokens":80,"reasoning_tokens":0})"_s));
    QCOMPARE(Usage::fromJson(anthropic.toJson()), anthropic);
    QCOMPARE(
        Usage::fromJson(parseObject(
            uR"({"input_tokens":2006,"cached_tokens":1920,"output_tokens":300,"reasoning_tokens":100})"_s)),
        chat);
}

QTEST_GUILESS_MAIN(TestCodecs)
#include "tst_codecs.moc"
