// The OTLP export of calls as OpenTelemetry GenAI spans: the encoders against the reference
// decoder, the spans of a real tool loop run by callscope-cli (both protocols, every capture
// level), an experiment run, the export of stored calls, and the exporter's rules against a
// collector that fails, refuses or stalls (real HTTP on 127.0.0.1: tests/support).

#include "core/telemetry/genaispans.h"
#include "core/telemetry/otlpconfig.h"
#include "core/telemetry/otlpencoding.h"
#include "core/telemetry/otlpexporter.h"
#include "tests/support/fakeotlpcollector.h"
#include "tests/support/fakeprovider.h"
#include "tests/support/testsupport.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace Callscope;
using namespace Callscope::Telemetry;
using namespace Callscope::Test;

namespace {

constexpr auto kApiKey = "sk-telemetry-secret-key";

struct CliResult
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    QJsonObject json() const { return QJsonDocument::fromJson(out).object(); }
};

// Runs callscope-cli without blocking the event loop, so the in-process fakes can answer.
CliResult runCli(const QStringList &args, const QProcessEnvironment &extraEnv,
                 int timeoutMs = 120000)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString &name : env.keys()) {
        if (name.startsWith(u"OTEL_"_s) || name.startsWith(u"CALLSCOPE_OTEL"_s))
            env.remove(name);
    }
    env.insert(u"CALLSCOPE_TEST_API_KEY"_s, QString::fromLatin1(kApiKey));
    env.insert(extraEnv);
    process.setProcessEnvironment(env);
    QSignalSpy finished(&process, &QProcess::finished);
    process.start(cliPath(), args);
    if (!process.waitForStarted(10000))
        return {};
    process.closeWriteChannel();
    if (!finished.wait(timeoutMs)) {
        process.kill();
        process.waitForFinished();
    }
    CliResult r;
    r.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    r.out = process.readAllStandardOutput();
    r.err = process.readAllStandardError();
    return r;
}

QByteArray chatReply(const QString &responseId, const QString &callId, const QString &name,
                     const QJsonObject &args)
{
    const QJsonObject body {
        { u"id"_s, responseId },
        { u"object"_s, u"chat.completion"_s },
        { u"model"_s, u"gpt-test-2026"_s },
        { u"choices"_s,
          QJsonArray { QJsonObject {
              { u"index"_s, 0 },
              { u"message"_s,
                QJsonObject { { u"role"_s, u"assistant"_s },
                              { u"content"_s, QJsonValue() },
                              { u"tool_calls"_s,
                                QJsonArray { QJsonObject {
                                    { u"id"_s, callId },
                                    { u"type"_s, u"function"_s },
                                    { u"function"_s,
                                      QJsonObject { { u"name"_s, name },
                                                    { u"arguments"_s,
                                                      QString::fromUtf8(QJsonDocument(args).toJson(
                                                          QJsonDocument::Compact)) } } } } } } } },
              { u"finish_reason"_s, u"tool_calls"_s } } } },
        { u"usage"_s,
          QJsonObject { { u"prompt_tokens"_s, 12 },
                        { u"completion_tokens"_s, 4 },
                        { u"total_tokens"_s, 16 } } }
    };
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

// Words that must never leave the machine at capture level none.
constexpr auto kInputText = "Plan ticket INPUT-WORD-7731";
constexpr auto kSystemPrompt = "Plan with SYSTEM-WORD-5521.";
constexpr auto kToolArgument = "ARGUMENT-WORD-9913";
constexpr auto kToolResult = "RESULT-WORD-4410";

QJsonObject toolLoopSpec(const QUrl &provider)
{
    return {
        { u"kind"_s, u"planner"_s },
        { u"system_prompt"_s, QString::fromLatin1(kSystemPrompt) },
        { u"response_schema"_s,
          QJsonObject {
              { u"type"_s, u"object"_s },
              { u"properties"_s,
                QJsonObject { { u"title"_s, QJsonObject { { u"type"_s, u"string"_s } } } } },
              { u"required"_s, QJsonArray { u"title"_s } } } },
        { u"tools"_s,
          QJsonArray { QJsonObject {
              { u"name"_s, u"get_ticket"_s },
              { u"description"_s, u"Load a ticket."_s },
              { u"input_schema"_s,
                QJsonObject {
                    { u"type"_s, u"object"_s },
                    { u"properties"_s,
                      QJsonObject { { u"id"_s, QJsonObject { { u"type"_s, u"string"_s } } } } } } },
              { u"requires_approval"_s, true },
              { u"mock"_s, QString::fromLatin1(kToolResult) } } } },
        { u"engine"_s,
          QJsonObject { { u"type"_s, u"openai"_s },
                        { u"model"_s, u"gpt-test"_s },
                        { u"base_url"_s, provider.toString() },
                        { u"api_key_env"_s, u"CALLSCOPE_TEST_API_KEY"_s },
                        { u"max_tokens"_s, 256 },
                        { u"temperature"_s, 0.5 },
                        { u"stream"_s, false } } }
    };
}

bool writeJson(const QString &path, const QJsonObject &object)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    return file.write(QJsonDocument(object).toJson()) > 0;
}

// Three turns: a tool (needs approval, allowed), an invalid answer (corrected), the answer.
void scriptToolLoop(FakeProvider &provider)
{
    provider.enqueue(
        FakeReply::json(200,
                        chatReply(u"resp-1"_s, u"c1"_s, u"get_ticket"_s,
                                  { { u"id"_s, QString::fromLatin1(kToolArgument) } })));
    provider.enqueue(FakeReply::json(200, chatReply(u"resp-2"_s, u"c2"_s, u"submit_output"_s, {})));
    provider.enqueue(FakeReply::json(
        200, chatReply(u"resp-3"_s, u"c3"_s, u"submit_output"_s, { { u"title"_s, u"T"_s } })));
}

QProcessEnvironment otlpEnv(const FakeOtlpCollector &collector, const QString &protocol,
                            const QString &capture = {})
{
    QProcessEnvironment env;
    env.insert(u"OTEL_EXPORTER_OTLP_ENDPOINT"_s, collector.endpoint());
    env.insert(u"OTEL_EXPORTER_OTLP_PROTOCOL"_s, protocol);
    env.insert(u"OTEL_EXPORTER_OTLP_HEADERS"_s, u"x-honeycomb-team=HEADER-TOKEN-3381"_s);
    if (!capture.isEmpty())
        env.insert(u"CALLSCOPE_OTEL_CAPTURE"_s, capture);
    return env;
}

QList<CollectedSpan> named(const QList<CollectedSpan> &spans, const QString &prefix)
{
    QList<CollectedSpan> out;
    for (const CollectedSpan &span : spans) {
        if (span.name.startsWith(prefix))
            out.append(span);
    }
    return out;
}

QByteArray allBodies(const FakeProvider &server)
{
    QByteArray out;
    for (const RecordedRequest &request : server.requests()) {
        out += request.body;
        for (const auto &header : request.headers)
            out += header.first + ": " + header.second + "\n";
    }
    return out;
}

QList<Span> sampleSpans(int count)
{
    QList<Span> spans;
    for (int i = 0; i < count; ++i) {
        Span span;
        span.traceId = traceIdFor(u"sample"_s);
        span.spanId = spanIdFor(u"sample/"_s + QString::number(i));
        span.name = u"chat m"_s;
        span.kind = SpanKind::Client;
        span.startUnixNano = 1764633600000000000LL + i;
        span.endUnixNano = span.startUnixNano + 5;
        span.set(u"n"_s, qint64(i));
        spans.append(span);
    }
    return spans;
}

OtlpConfig collectorConfig(const FakeOtlpCollector &collector)
{
    OtlpConfig config;
    config.enabled = true;
    config.tracesUrl = OtlpConfig::tracesUrlFor(collector.endpoint());
    config.batchDelayMs = 10;
    return config;
}

// Waits on the event loop (the collector answers on this thread) until `done` or ~60 s.
bool waitFor(const std::function<bool()> &done)
{
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > 60000)
            return false;
        QTest::qWait(20);
    }
    return true;
}

} // namespace

class TestTelemetry : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void encodingAgreesWithTheReferenceDecoder();
    void partialSuccessIsRead();
    void configFromEnvironment();
    void toolLoopSpans();
    void fullCaptureMessages();
    void retriesOn503WithRetryAfter();
    void refusedBatchesAreNotRetried();
    void stalledCollectorNeverHoldsACall();
    void experimentRunSpans();
    void exportOfStoredCallsKeepsIdsAndTimes();
};

void TestTelemetry::initTestCase()
{
    QString error;
    FakeOtlpCollector::decodeProtobuf(QByteArray(), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

void TestTelemetry::encodingAgreesWithTheReferenceDecoder()
{
    Span parent;
    parent.traceId = traceIdFor(u"t"_s);
    parent.spanId = spanIdFor(u"a"_s);
    parent.name = u"invoke_agent planner"_s;
    parent.startUnixNano = 1764633600123456789LL;
    parent.endUnixNano = 1764633601123456789LL;
    parent.set(u"s"_s, u"text ü"_s);
    parent.set(u"b"_s, true);
    parent.set(u"i"_s, qint64(9007199254740993LL)); // above 2^53: must stay exact
    parent.set(u"d"_s, 0.25);
    parent.set(u"l"_s, QStringList { u"stop"_s, u"length"_s });
    parent.status = StatusCode::Error;
    parent.statusMessage = u"failed"_s;
    Span child;
    child.traceId = parent.traceId;
    child.spanId = spanIdFor(u"b"_s);
    child.parentSpanId = parent.spanId;
    child.name = u"chat gpt-4.1-mini"_s;
    child.kind = SpanKind::Client;
    child.startUnixNano = parent.startUnixNano + 1;
    child.endUnixNano = parent.endUnixNano - 1;
    child.events.append(
        { u"callscope.retry"_s, child.startUnixNano + 7, { { u"k"_s, qint64(3) } } });
    child.links.append({ traceIdFor(u"other"_s), spanIdFor(u"other"_s), {} });
    ExportScope scope;
    setAttribute(scope.resource, u"service.name"_s, u"callscope-test"_s);
    scope.scopeName = u"callscope"_s;
    scope.schemaUrl = kSchemaUrl;

    QString error;
    QStringList problems;
    const QJsonObject decoded =
        FakeOtlpCollector::decodeProtobuf(encodeTracesProtobuf(scope, { parent, child }), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QList<CollectedSpan> viaProtobuf =
        FakeOtlpCollector::fromOtlpJson(decoded, u"protobuf"_s, 0, &problems);
    const QList<CollectedSpan> viaJson = FakeOtlpCollector::fromOtlpJson(
        QJsonDocument::fromJson(encodeTracesJson(scope, { parent, child })).object(), u"json"_s, 0,
        &problems);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
    for (const QList<CollectedSpan> &spans : { viaProtobuf, viaJson }) {
        QCOMPARE(spans.size(), 2);
        const CollectedSpan &p = spans.at(0);
        const CollectedSpan &c = spans.at(1);
        QCOMPARE(p.resource.value(u"service.name"_s).toObject().value(u"stringValue"_s).toString(),
                 u"callscope-test"_s);
        QCOMPARE(p.traceId, QString::fromLatin1(parent.traceId.toHex()));
        QCOMPARE(p.spanId, QString::fromLatin1(parent.spanId.toHex()));
        QVERIFY(p.parentSpanId.isEmpty());
        QCOMPARE(c.parentSpanId, p.spanId);
        QCOMPARE(p.name, parent.name);
        QCOMPARE(p.kind, 1);
        QCOMPARE(c.kind, 3);
        QCOMPARE(p.startTimeUnixNano, u"1764633600123456789"_s);
        QCOMPARE(p.endTimeUnixNano, u"1764633601123456789"_s);
        QCOMPARE(p.string(u"s"_s), u"text ü"_s);
        QCOMPARE(p.typeOf(u"b"_s), u"boolValue"_s);
        QCOMPARE(p.typeOf(u"i"_s), u"intValue"_s);
        QCOMPARE(p.integer(u"i"_s), 9007199254740993LL);
        QCOMPARE(p.attributes.value(u"d"_s).toObject().value(u"doubleValue"_s).toDouble(), 0.25);
        QCOMPARE(p.strings(u"l"_s), QStringList({ u"stop"_s, u"length"_s }));
        QCOMPARE(p.statusCode, 2);
        QCOMPARE(c.events.size(), 1);
        QCOMPARE(c.events.at(0).toObject().value(u"timeUnixNano"_s).toString(),
                 QString::number(child.startUnixNano + 7));
        QCOMPARE(c.links.size(), 1);
        QCOMPARE(c.links.at(0).toObject().value(u"spanId"_s).toString(),
                 QString::fromLatin1(spanIdFor(u"other"_s).toHex()));
    }
}

void TestTelemetry::partialSuccessIsRead()
{
    const auto json = readPartialSuccess(
        R"({"partialSuccess":{"rejectedSpans":"2","errorMessage":"too old"}})", true);
    QVERIFY(json);
    QCOMPARE(json->rejectedSpans, 2);
    QCOMPARE(json->errorMessage, u"too old"_s);
    // partial_success {rejected_spans: 3, error_message: "x"}
    const auto proto = readPartialSuccess(QByteArray::fromHex("0a050803120178"), false);
    QVERIFY(proto);
    QCOMPARE(proto->rejectedSpans, 3);
    QCOMPARE(proto->errorMessage, u"x"_s);
    QVERIFY(!readPartialSuccess(QByteArray(), false));
    QVERIFY(!readPartialSuccess("{}", true));
    QVERIFY(!readPartialSuccess(QByteArray::fromHex("ff"), false)); // malformed: no crash
}

void TestTelemetry::configFromEnvironment()
{
    QProcessEnvironment env;
    QVERIFY(!OtlpConfig::fromEnvironment(env).enabled);
    env.insert(u"OTEL_EXPORTER_OTLP_ENDPOINT"_s, u"http://collector:4318"_s);
    OtlpConfig config = OtlpConfig::fromEnvironment(env);
    QVERIFY(config.enabled);
    QCOMPARE(config.tracesUrl, QUrl(u"http://collector:4318/v1/traces"_s));
    QCOMPARE(config.protocol, OtlpProtocol::Protobuf);
    QCOMPARE(config.spans.capture, CaptureLevel::None);
    QVERIFY(!config.spans.latestExperimental);
    env.insert(u"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"_s,
               u"https://cloud.langfuse.com/api/public/otel/v1/traces"_s);
    env.insert(u"OTEL_EXPORTER_OTLP_PROTOCOL"_s, u"http/json"_s);
    env.insert(u"OTEL_EXPORTER_OTLP_HEADERS"_s, u"Authorization=Basic%20abc%3D,x-b = 2"_s);
    env.insert(u"OTEL_SERVICE_NAME"_s, u"planner-team"_s);
    env.insert(u"OTEL_SEMCONV_STABILITY_OPT_IN"_s, u"http,gen_ai_latest_experimental"_s);
    env.insert(u"CALLSCOPE_OTEL_CAPTURE"_s, u"full"_s);
    config = OtlpConfig::fromEnvironment(env);
    QVERIFY2(config.problem.isEmpty(), qPrintable(config.problem));
    QCOMPARE(config.tracesUrl.path(), u"/api/public/otel/v1/traces"_s);
    QCOMPARE(config.protocol, OtlpProtocol::Json);
    QCOMPARE(config.headers.size(), 2);
    QCOMPARE(config.headers.at(0).second, "Basic abc="_ba);
    QCOMPARE(config.headers.at(1).first, "x-b"_ba);
    QCOMPARE(config.serviceName, u"planner-team"_s);
    QVERIFY(config.spans.latestExperimental);
    QCOMPARE(config.spans.capture, CaptureLevel::Full);
    // --otlp wins over the variables.
    QCOMPARE(OtlpConfig::fromEnvironment(env, u"http://127.0.0.1:4318/"_s).tracesUrl,
             QUrl(u"http://127.0.0.1:4318/v1/traces"_s));
    env.insert(u"OTEL_EXPORTER_OTLP_PROTOCOL"_s, u"grpc"_s);
    QVERIFY(OtlpConfig::fromEnvironment(env).problem.contains(u"grpc"_s));
    env.insert(u"OTEL_EXPORTER_OTLP_PROTOCOL"_s, u"http/protobuf"_s);
    env.insert(u"CALLSCOPE_OTEL_CAPTURE"_s, u"everything"_s);
    QVERIFY(OtlpConfig::fromEnvironment(env).problem.contains(u"everything"_s));
    env.insert(u"OTEL_SDK_DISABLED"_s, u"true"_s);
    QVERIFY(!OtlpConfig::fromEnvironment(env).enabled);
}

void TestTelemetry::toolLoopSpans()
{
    FakeProvider provider;
    QVERIFY(provider.listen());
    FakeOtlpCollector collector;
    QVERIFY(collector.listen());
    QTemporaryDir dir;
    const QString spec = dir.filePath(u"spec.json"_s);
    QVERIFY(writeJson(spec, toolLoopSpec(provider.baseUrl())));
    const QString db = dir.filePath(u"h.sqlite"_s);
    scriptToolLoop(provider);
    const CliResult r = runCli({ u"run"_s, spec, u"--input"_s, QString::fromLatin1(kInputText),
                                 u"--db"_s, db, u"--allow-tool"_s, u"get_ticket"_s },
                               otlpEnv(collector, u"http/protobuf"_s));
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(provider.requestCount(), 3);

    QStringList problems;
    const QList<CollectedSpan> spans = collector.spans(&problems);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
    QCOMPARE(spans.size(), 5);
    const QList<CollectedSpan> agents = named(spans, u"invoke_agent "_s);
    const QList<CollectedSpan> chats = named(spans, u"chat "_s);
    const QList<CollectedSpan> tools = named(spans, u"execute_tool "_s);
    QCOMPARE(agents.size(), 1);
    QCOMPARE(chats.size(), 3);
    QCOMPARE(tools.size(), 1);
    const CollectedSpan &agent = agents.first();
    QCOMPARE(agent.name, u"invoke_agent planner"_s);
    QVERIFY(agent.parentSpanId.isEmpty());
    QCOMPARE(agent.kind, 1);
    QCOMPARE(agent.resource.value(u"service.name"_s).toObject().value(u"stringValue"_s).toString(),
             u"callscope"_s);
    for (const CollectedSpan &span : spans)
        QCOMPARE(span.traceId, agent.traceId);
    for (const CollectedSpan &chat : chats) {
        QCOMPARE(chat.name, u"chat gpt-test"_s);
        QCOMPARE(chat.parentSpanId, agent.spanId);
        QCOMPARE(chat.kind, 3); // CLIENT
    }
    const CollectedSpan &tool = tools.first();
    QCOMPARE(tool.name, u"execute_tool get_ticket"_s);
    QCOMPARE(tool.parentSpanId, chats.at(0).spanId); // the turn that asked for it
    QVERIFY(tool.startTimeUnixNano.toLongLong() >= chats.at(0).endTimeUnixNano.toLongLong());
    QVERIFY(tool.endTimeUnixNano.toLongLong() <= chats.at(1).startTimeUnixNano.toLongLong());

    // Every attribute, with its type.
    const QList<std::pair<QString, QString>> chatAttributes {
        { u"gen_ai.operation.name"_s, u"stringValue"_s },
        { u"gen_ai.provider.name"_s, u"stringValue"_s },
        { u"gen_ai.system"_s, u"stringValue"_s }, // without the opt-in, for older viewers
        { u"gen_ai.request.model"_s, u"stringValue"_s },
        { u"gen_ai.request.max_tokens"_s, u"intValue"_s },
        { u"gen_ai.request.temperature"_s, u"doubleValue"_s },
        { u"gen_ai.response.id"_s, u"stringValue"_s },
        { u"gen_ai.response.model"_s, u"stringValue"_s },
        { u"gen_ai.response.finish_reasons"_s, u"arrayValue"_s },
        { u"gen_ai.usage.input_tokens"_s, u"intValue"_s },
        { u"gen_ai.usage.output_tokens"_s, u"intValue"_s },
        { u"gen_ai.usage.cache_read.input_tokens"_s, u"intValue"_s },
        { u"gen_ai.usage.cache_creation.input_tokens"_s, u"intValue"_s },
        { u"gen_ai.usage.reasoning.output_tokens"_s, u"intValue"_s },
        { u"gen_ai.output.type"_s, u"stringValue"_s },
        { u"callscope.attempts"_s, u"intValue"_s },
    };
    for (const CollectedSpan &chat : chats) {
        for (const auto &[key, type] : chatAttributes)
            QVERIFY2(chat.typeOf(key) == type,
                     qPrintable(chat.name + u": "_s + key + u" is '"_s + chat.typeOf(key) + u'\''));
        QCOMPARE(chat.string(u"gen_ai.operation.name"_s), u"chat"_s);
        QCOMPARE(chat.string(u"gen_ai.provider.name"_s), u"openai"_s);
        QCOMPARE(chat.string(u"gen_ai.request.model"_s), u"gpt-test"_s);
        QCOMPARE(chat.string(u"gen_ai.response.model"_s), u"gpt-test-2026"_s);
        QCOMPARE(chat.integer(u"gen_ai.request.max_tokens"_s), 256);
        QCOMPARE(chat.string(u"gen_ai.output.type"_s), u"json"_s);
        QCOMPARE(chat.integer(u"gen_ai.usage.input_tokens"_s), 12);
        QCOMPARE(chat.integer(u"gen_ai.usage.output_tokens"_s), 4);
        QCOMPARE(chat.strings(u"gen_ai.response.finish_reasons"_s),
                 QStringList { u"tool_calls"_s });
    }
    QCOMPARE(chats.at(0).string(u"gen_ai.response.id"_s), u"resp-1"_s);
    QCOMPARE(chats.at(2).string(u"gen_ai.response.id"_s), u"resp-3"_s);
    for (const auto &[key, type] :
         QList<std::pair<QString, QString>> { { u"gen_ai.operation.name"_s, u"stringValue"_s },
                                              { u"gen_ai.tool.name"_s, u"stringValue"_s },
                                              { u"gen_ai.tool.call.id"_s, u"stringValue"_s },
                                              { u"gen_ai.tool.type"_s, u"stringValue"_s } })
        QVERIFY2(tool.typeOf(key) == type, qPrintable(key));
    QCOMPARE(tool.string(u"gen_ai.tool.call.id"_s), u"c1"_s);
    QCOMPARE(tool.string(u"gen_ai.tool.type"_s), u"function"_s);
    QCOMPARE(agent.string(u"gen_ai.operation.name"_s), u"invoke_agent"_s);
    QCOMPARE(agent.string(u"gen_ai.agent.name"_s), u"planner"_s);

    // Usage equals the stored call's.
    const qint64 callId = r.json().value(u"call_id"_s).toInteger();
    QCOMPARE(agent.integer(u"callscope.call.id"_s), callId);
    const CliResult show = runCli({ u"show"_s, QString::number(callId), u"--db"_s, db }, {});
    const QJsonObject usage = show.json().value(u"usage"_s).toObject();
    QVERIFY2(!usage.isEmpty(), show.out.constData());
    const Usage stored = Usage::fromJson(usage);
    QCOMPARE(agent.integer(u"gen_ai.usage.input_tokens"_s), stored.promptTokens());
    QCOMPARE(agent.integer(u"gen_ai.usage.output_tokens"_s), stored.outputTokens);
    qint64 turnsIn = 0;
    for (const CollectedSpan &chat : chats)
        turnsIn += chat.integer(u"gen_ai.usage.input_tokens"_s);
    QCOMPARE(turnsIn, stored.promptTokens());

    // Capture level none: no prompt, message, argument or result text, no key, no header value.
    const QByteArray bytes = allBodies(collector.server());
    QVERIFY(!bytes.isEmpty());
    for (const char *word :
         { "INPUT-WORD-7731", "SYSTEM-WORD-5521", kToolArgument, kToolResult, kApiKey })
        QVERIFY2(!bytes.contains(word), word);
    QVERIFY(!agent.has(u"gen_ai.input.messages"_s));
    QVERIFY(!chats.at(0).has(u"gen_ai.input.messages"_s));
    QVERIFY(!chats.at(0).has(u"gen_ai.system_instructions"_s));
    QVERIFY(!tool.has(u"gen_ai.tool.call.arguments"_s));
    // The headers from the environment reach the collector, and only the collector.
    QCOMPARE(collector.server().requests().at(0).header("x-honeycomb-team"),
             "HEADER-TOKEN-3381"_ba);
    QVERIFY(!r.err.contains("HEADER-TOKEN-3381"));
}

void TestTelemetry::fullCaptureMessages()
{
    FakeProvider provider;
    QVERIFY(provider.listen());
    FakeOtlpCollector collector;
    QVERIFY(collector.listen());
    QTemporaryDir dir;
    const QString spec = dir.filePath(u"spec.json"_s);
    QVERIFY(writeJson(spec, toolLoopSpec(provider.baseUrl())));
    scriptToolLoop(provider);
    QProcessEnvironment env = otlpEnv(collector, u"http/json"_s, u"full"_s);
    env.insert(u"OTEL_SEMCONV_STABILITY_OPT_IN"_s, u"gen_ai_latest_experimental"_s);
    const CliResult r =
        runCli({ u"run"_s, spec, u"--input"_s, QString::fromLatin1(kInputText), u"--db"_s,
                 dir.filePath(u"h.sqlite"_s), u"--allow-tool"_s, u"get_ticket"_s },
               env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QStringList problems;
    const QList<CollectedSpan> spans = collector.spans(&problems);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
    QCOMPARE(collector.server().requests().at(0).header("content-type"), "application/json"_ba);
    const QList<CollectedSpan> chats = named(spans, u"chat "_s);
    QCOMPARE(chats.size(), 3);
    for (const CollectedSpan &span : spans)
        QVERIFY2(!span.has(u"gen_ai.system"_s), qPrintable(span.name)); // latest names only

    auto parse = [](const QString &text) {
        QJsonParseError error;
        const QJsonDocument document = QJsonDocument::fromJson(text.toUtf8(), &error);
        return document.isArray() ? document.array() : QJsonArray();
    };
    // The conventions' shapes: messages {role, parts[{type, ...}]}, system parts, tools.
    const QJsonArray system = parse(chats.at(0).string(u"gen_ai.system_instructions"_s));
    QCOMPARE(system.size(), 1);
    QCOMPARE(system.at(0).toObject().value(u"type"_s).toString(), u"text"_s);
    QCOMPARE(system.at(0).toObject().value(u"content"_s).toString(),
             QString::fromLatin1(kSystemPrompt));
    for (const CollectedSpan &chat : chats) {
        const QJsonArray input = parse(chat.string(u"gen_ai.input.messages"_s));
        const QJsonArray output = parse(chat.string(u"gen_ai.output.messages"_s));
        QVERIFY2(!input.isEmpty() && output.size() == 1, qPrintable(chat.spanId));
        QJsonArray both = input;
        both.append(output.at(0));
        for (const QJsonValue &message : std::as_const(both)) {
            const QJsonObject m = message.toObject();
            QVERIFY(QStringList({ u"user"_s, u"assistant"_s, u"tool"_s })
                        .contains(m.value(u"role"_s).toString()));
            QVERIFY(m.value(u"parts"_s).isArray());
            for (const QJsonValue &part : m.value(u"parts"_s).toArray())
                QVERIFY(QStringList({ u"text"_s, u"tool_call"_s, u"tool_call_response"_s })
                            .contains(part.toObject().value(u"type"_s).toString()));
        }
        QVERIFY(output.at(0).toObject().value(u"finish_reason"_s).isString());
        const QJsonArray definitions = parse(chat.string(u"gen_ai.tool.definitions"_s));
        QCOMPARE(definitions.size(), 1);
        QCOMPARE(definitions.at(0).toObject().value(u"name"_s).toString(), u"get_ticket"_s);
    }
    const QJsonArray first = parse(chats.at(0).string(u"gen_ai.input.messages"_s));
    QCOMPARE(first.at(0).toObject().value(u"role"_s).toString(), u"user"_s);
    QCOMPARE(first.at(0)
                 .toObject()
                 .value(u"parts"_s)
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(u"content"_s)
                 .toString(),
             QString::fromLatin1(kInputText));
    const QJsonArray second = parse(chats.at(1).string(u"gen_ai.input.messages"_s));
    QCOMPARE(second.last().toObject().value(u"role"_s).toString(), u"tool"_s);
    const CollectedSpan tool = named(spans, u"execute_tool "_s).value(0);
    QVERIFY(
        tool.string(u"gen_ai.tool.call.arguments"_s).contains(QLatin1StringView(kToolArgument)));
    QCOMPARE(tool.string(u"gen_ai.tool.call.result"_s), QString::fromLatin1(kToolResult));
    // Full content still never carries the key.
    QVERIFY(!allBodies(collector.server()).contains(kApiKey));
}

void TestTelemetry::retriesOn503WithRetryAfter()
{
    FakeOtlpCollector collector;
    QVERIFY(collector.listen());
    collector.server().enqueue(FakeReply::text(503, "busy").withHeader("Retry-After", "1"));
    collector.server().enqueue(FakeReply::text(200, QByteArray(), "application/x-protobuf"));
    OtlpExporter exporter(collectorConfig(collector));
    exporter.submit(sampleSpans(10));
    QVERIFY(waitFor([&] { return exporter.stats().exported == 10; }));
    const OtlpExporter::Stats stats = exporter.stats();
    QCOMPARE(stats.retries, 1);
    QCOMPARE(stats.requests, 2);
    QCOMPARE(stats.failed + stats.rejected + stats.dropped, 0);
    QCOMPARE(collector.server().requestCount(), 2);
    // The same batch again, after the second the collector asked for.
    const QList<RecordedRequest> requests = collector.server().requests();
    QCOMPARE(requests.at(1).body, requests.at(0).body);
    QStringList problems;
    const QList<CollectedSpan> all = collector.spans(&problems);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
    QSet<QString> delivered;
    for (const CollectedSpan &span : all) {
        if (span.request != 1)
            continue;
        QVERIFY2(!delivered.contains(span.spanId), "a span arrived twice");
        delivered.insert(span.spanId);
    }
    QCOMPARE(delivered.size(), 10);
}

void TestTelemetry::refusedBatchesAreNotRetried()
{
    for (int status : { 400, 413 }) {
        FakeOtlpCollector collector;
        QVERIFY(collector.listen());
        collector.server().setDefaultReply(FakeReply::text(status, "no"));
        OtlpExporter exporter(collectorConfig(collector));
        exporter.submit(sampleSpans(4));
        QVERIFY(waitFor([&] { return exporter.stats().rejected == 4; }));
        QVERIFY(exporter.flush(5000));
        QCOMPARE(exporter.stats().retries, 0);
        QCOMPARE(collector.server().requestCount(), 1);
    }
    // A partial success is counted and logged, not sent again.
    FakeOtlpCollector collector;
    QVERIFY(collector.listen());
    collector.server().setDefaultReply(FakeReply::json(
        200, R"({"partialSuccess":{"rejectedSpans":"1","errorMessage":"span too old"}})"));
    OtlpConfig config = collectorConfig(collector);
    config.protocol = OtlpProtocol::Json;
    OtlpExporter exporter(config);
    QTest::ignoreMessage(QtWarningMsg,
                         QRegularExpression(u"rejected 1 of 4 spans: span too old"_s));
    exporter.submit(sampleSpans(4));
    QVERIFY(waitFor([&] { return exporter.stats().exported == 3; }));
    QCOMPARE(exporter.stats().partialRejected, 1);
    QCOMPARE(exporter.stats().retries, 0);
    QCOMPARE(collector.server().requestCount(), 1);
}

void TestTelemetry::stalledCollectorNeverHoldsACall()
{
    FakeOtlpCollector collector;
    QVERIFY(collector.listen());
    collector.server().setDefaultReply(FakeReply::stall());
    // The queue bound holds: a stalled collector costs dropped spans, never a wait.
    OtlpConfig config = collectorConfig(collector);
    config.maxQueueSpans = 50;
    config.maxBatchSpans = 10;
    {
        OtlpExporter exporter(config);
        for (int i = 0; i < 100; ++i)
            exporter.submit(sampleSpans(5));
        QVERIFY(waitFor([&] { return collector.server().requestCount() >= 1; }));
        const OtlpExporter::Stats stats = exporter.stats();
        QCOMPARE(stats.submitted, 500);
        QVERIFY(stats.queued <= 50);
        QVERIFY2(stats.dropped >= 440, qPrintable(QString::number(stats.dropped)));
        QVERIFY(!exporter.flush(100)); // bounded: gives up, the request still hangs
    }

    // A call with export on to a collector that never answers: finishes, stored, exit 0.
    FakeProvider provider;
    QVERIFY(provider.listen());
    QTemporaryDir dir;
    const QString spec = dir.filePath(u"spec.json"_s);
    QVERIFY(writeJson(spec, toolLoopSpec(provider.baseUrl())));
    scriptToolLoop(provider);
    const CliResult r = runCli({ u"run"_s, spec, u"--input"_s, u"x"_s, u"--db"_s,
                                 dir.filePath(u"h.sqlite"_s), u"--allow-tool"_s, u"get_ticket"_s },
                               otlpEnv(collector, u"http/protobuf"_s));
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY(r.json().value(u"call_id"_s).toInteger() > 0);
    QVERIFY2(r.err.contains("not delivered (see docs/telemetry.md)"), r.err.constData());
}

void TestTelemetry::experimentRunSpans()
{
    FakeProvider provider;
    QVERIFY(provider.listen());
    provider.setResponder([](const RecordedRequest &) {
        return FakeReply::json(
            200, chatReply(u"r"_s, u"s1"_s, u"submit_output"_s, { { u"title"_s, u"ok"_s } }));
    });
    FakeOtlpCollector collector;
    QVERIFY(collector.listen());
    QTemporaryDir dir;
    QJsonObject spec = toolLoopSpec(provider.baseUrl());
    spec.remove(u"tools"_s);
    QVERIFY(writeJson(dir.filePath(u"planner.spec.json"_s), spec));
    QFile cases(dir.filePath(u"cases.jsonl"_s));
    QVERIFY(cases.open(QIODevice::WriteOnly));
    for (int i = 1; i <= 20; ++i)
        cases.write("{\"id\":\"c" + QByteArray::number(i) + "\",\"input\":\"ticket "
                    + QByteArray::number(i) + "\"}\n");
    cases.close();
    QVERIFY(writeJson(dir.filePath(u"exp.json"_s),
                      QJsonDocument::fromJson(R"({"name":"planner-regression",
        "spec":"planner.spec.json","dataset":"cases.jsonl",
        "variants":[{"name":"base"},{"name":"careful","system_prompt":"Plan carefully."}],
        "assert":[{"type":"equals","pointer":"/title","value":"ok"}]})")
                          .object()));
    const CliResult r =
        runCli({ u"eval"_s, dir.filePath(u"exp.json"_s), u"--db"_s, dir.filePath(u"h.sqlite"_s),
                 u"--jobs"_s, u"8"_s, u"--otlp"_s, collector.endpoint() },
               {});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QStringList problems;
    const QList<CollectedSpan> spans = collector.spans(&problems);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
    const QList<CollectedSpan> experiments = named(spans, u"experiment "_s);
    QCOMPARE(experiments.size(), 1);
    const CollectedSpan &experiment = experiments.first();
    QCOMPARE(experiment.name, u"experiment planner-regression"_s);
    QVERIFY(experiment.parentSpanId.isEmpty());
    QCOMPARE(experiment.integer(u"callscope.experiment.runs"_s), 40);
    const QList<CollectedSpan> agents = named(spans, u"invoke_agent "_s);
    QCOMPARE(agents.size(), 40);
    QSet<QString> cells;
    for (const CollectedSpan &agent : agents) {
        QCOMPARE(agent.traceId, experiment.traceId);
        QCOMPARE(agent.parentSpanId, experiment.spanId);
        QCOMPARE(agent.string(u"callscope.experiment.id"_s),
                 experiment.string(u"callscope.experiment.id"_s));
        QCOMPARE(agent.typeOf(u"callscope.experiment.repeat"_s), u"intValue"_s);
        cells.insert(agent.string(u"callscope.experiment.variant"_s) + u'/'
                     + agent.string(u"callscope.experiment.case"_s));
        QVERIFY(agent.startTimeUnixNano.toLongLong() >= experiment.startTimeUnixNano.toLongLong());
        QVERIFY(agent.endTimeUnixNano.toLongLong() <= experiment.endTimeUnixNano.toLongLong());
    }
    QCOMPARE(cells.size(), 40);
    QVERIFY(cells.contains(u"careful/c20"_s));
    QCOMPARE(named(spans, u"chat "_s).size(), 40);
}

void TestTelemetry::exportOfStoredCallsKeepsIdsAndTimes()
{
    FakeProvider provider;
    QVERIFY(provider.listen());
    FakeOtlpCollector live;
    QVERIFY(live.listen());
    QTemporaryDir dir;
    const QString spec = dir.filePath(u"spec.json"_s);
    QVERIFY(writeJson(spec, toolLoopSpec(provider.baseUrl())));
    const QString db = dir.filePath(u"h.sqlite"_s);
    scriptToolLoop(provider);
    const CliResult r = runCli(
        { u"run"_s, spec, u"--input"_s, u"x"_s, u"--db"_s, db, u"--allow-tool"_s, u"get_ticket"_s },
        otlpEnv(live, u"http/json"_s));
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QStringList problems;
    const QList<CollectedSpan> sentLive = live.spans(&problems);
    QCOMPARE(sentLive.size(), 5);

    FakeOtlpCollector later;
    QVERIFY(later.listen());
    const CliResult e = runCli({ u"export-otlp"_s, u"--db"_s, db, u"--since"_s, u"2020-01-01"_s,
                                 u"--otlp"_s, later.endpoint() },
                               {});
    QVERIFY2(e.exitCode == 0, e.err.constData());
    QCOMPARE(e.json().value(u"calls"_s).toInteger(), 1);
    QCOMPARE(e.json().value(u"exported"_s).toInteger(), 5);
    const QList<CollectedSpan> sentLater = later.spans(&problems);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
    QCOMPARE(sentLater.size(), 5);
    for (int i = 0; i < 5; ++i) {
        QCOMPARE(sentLater.at(i).name, sentLive.at(i).name);
        QCOMPARE(sentLater.at(i).traceId, sentLive.at(i).traceId);
        QCOMPARE(sentLater.at(i).spanId, sentLive.at(i).spanId);
        QCOMPARE(sentLater.at(i).parentSpanId, sentLive.at(i).parentSpanId);
        QCOMPARE(sentLater.at(i).startTimeUnixNano, sentLive.at(i).startTimeUnixNano);
        QCOMPARE(sentLater.at(i).string(u"gen_ai.response.id"_s),
                 sentLive.at(i).string(u"gen_ai.response.id"_s));
    }
    // Nothing matches a kind that has no calls.
    FakeOtlpCollector none;
    QVERIFY(none.listen());
    const CliResult n = runCli(
        { u"export-otlp"_s, u"--db"_s, db, u"--kind"_s, u"other"_s, u"--otlp"_s, none.endpoint() },
        {});
    QCOMPARE(n.exitCode, 0);
    QCOMPARE(n.json().value(u"calls"_s).toInteger(), 0);
    QCOMPARE(none.server().requestCount(), 0);
}

QTEST_GUILESS_MAIN(TestTelemetry)
#include "tst_telemetry.moc"
