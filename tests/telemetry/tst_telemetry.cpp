// The OTLP export of calls as OpenTelemetry GenAI spans: the encoders against the reference
// decoder, the spans of a real tool loop run by callscope-cli (both protocols, every capture
// level), an experiment run, the export of stored calls, and the exporter's rules against a
// collector that fails, refuses or stalls (real HTTP on 127.0.0.1: tests/support).

#include "core/eval/pricetable.h"
#include "core/eval/telemetrysettings.h"
#include "core/secrets/credentialstore.h"
#include "core/store/callstore.h"
#include "core/store/database.h"
#include "core/telemetry/genaispans.h"
#include "core/telemetry/otlpconfig.h"
#include "core/telemetry/otlpencoding.h"
#include "core/telemetry/otlpexporter.h"
#include "tests/support/fakebatchapi.h"
#include "tests/support/fakeotlpcollector.h"
#include "tests/support/fakeprovider.h"
#include "tests/support/testsupport.h"
#include "ui/history/calltab.h"
#include "ui/settings/telemetrypage.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDesktopServices>
#include <QDir>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLineEdit>
#include <QListWidget>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QTcpServer>
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
    void gzipBodies();
    void costOnCallAndChatSpans();
    void batchRoundSpans();
    void settingsPageTestsAndKeepsHeadersInTheKeychain();
    void traceLinkOpensTheCallsTrace();
    void revisionLinksItsParentAndSessionTurnsShareAConversation();
};

// Takes the URLs QDesktopServices is asked to open, in place of a browser.
class UrlCatcher : public QObject
{
    Q_OBJECT
public:
    QList<QUrl> urls;
public Q_SLOTS:
    void open(const QUrl &url) { urls.append(url); }
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
    QVERIFY(!config.gzip);
    env.insert(u"OTEL_EXPORTER_OTLP_COMPRESSION"_s, u"gzip"_s);
    QVERIFY(OtlpConfig::fromEnvironment(env).gzip);
    env.insert(u"OTEL_EXPORTER_OTLP_TRACES_COMPRESSION"_s, u"none"_s); // the traces one wins
    QVERIFY(!OtlpConfig::fromEnvironment(env).gzip);
    env.insert(u"OTEL_EXPORTER_OTLP_TRACES_COMPRESSION"_s, u"zstd"_s);
    QVERIFY(OtlpConfig::fromEnvironment(env).problem.contains(u"zstd"_s));
    env.remove(u"OTEL_EXPORTER_OTLP_TRACES_COMPRESSION"_s);
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
    // The approval the tool needed, settled by --allow-tool: an event on its span.
    bool approvalEvent = false;
    for (const QJsonValue &event : tool.events) {
        if (event[u"name"_s].toString() != u"callscope.tool.approval"_s)
            continue;
        approvalEvent = true;
        const QString events = QString::fromUtf8(QJsonDocument(event.toObject()).toJson());
        QVERIFY2(events.contains(u"callscope.approval.decision"_s)
                     && events.contains(u"\"allowed\""_s),
                 qPrintable(events));
    }
    QVERIFY(approvalEvent);
    QCOMPARE(tool.string(u"gen_ai.tool.type"_s), u"function"_s);
    QCOMPARE(agent.string(u"gen_ai.operation.name"_s), u"invoke_agent"_s);
    QCOMPARE(agent.string(u"gen_ai.agent.name"_s), u"planner"_s);
    // The price table does not know gpt-test: no cost is made up.
    QVERIFY(!PriceTable::shipped().price(u"gpt-test"_s));
    for (const CollectedSpan &span : spans)
        QVERIFY2(!span.has(u"callscope.cost.usd"_s), qPrintable(span.name));

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
    // ... sent again later, gzip-compressed this time.
    QProcessEnvironment gzipEnv;
    gzipEnv.insert(u"OTEL_EXPORTER_OTLP_TRACES_COMPRESSION"_s, u"gzip"_s);
    const CliResult e = runCli({ u"export-otlp"_s, u"--db"_s, db, u"--since"_s, u"2020-01-01"_s,
                                 u"--otlp"_s, later.endpoint() },
                               gzipEnv);
    QVERIFY2(e.exitCode == 0, e.err.constData());
    QCOMPARE(e.json().value(u"calls"_s).toInteger(), 1);
    QCOMPARE(e.json().value(u"exported"_s).toInteger(), 5);
    const QList<CollectedSpan> sentLater = later.spans(&problems);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
    QCOMPARE(sentLater.size(), 5);
    QCOMPARE(later.server().requests().at(0).header("content-encoding"), "gzip"_ba);
    QVERIFY(live.server().requests().at(0).header("content-encoding").isEmpty());
    for (int i = 0; i < 5; ++i) {
        QCOMPARE(sentLater.at(i).encoding, u"gzip"_s);
        QCOMPARE(sentLater.at(i).name, sentLive.at(i).name);
        QCOMPARE(sentLater.at(i).traceId, sentLive.at(i).traceId);
        QCOMPARE(sentLater.at(i).spanId, sentLive.at(i).spanId);
        QCOMPARE(sentLater.at(i).parentSpanId, sentLive.at(i).parentSpanId);
        QCOMPARE(sentLater.at(i).startTimeUnixNano, sentLive.at(i).startTimeUnixNano);
        QCOMPARE(sentLater.at(i).string(u"gen_ai.response.id"_s),
                 sentLive.at(i).string(u"gen_ai.response.id"_s));
    }
    // "export --otlp" is the same command, the endpoint from the environment.
    FakeOtlpCollector viaExport;
    QVERIFY(viaExport.listen());
    QProcessEnvironment endpointEnv;
    endpointEnv.insert(u"OTEL_EXPORTER_OTLP_ENDPOINT"_s, viaExport.endpoint());
    const CliResult x = runCli(
        { u"export"_s, u"--otlp"_s, u"--since"_s, u"2020-01-01"_s, u"--db"_s, db }, endpointEnv);
    QVERIFY2(x.exitCode == 0, x.err.constData());
    QCOMPARE(x.json().value(u"exported"_s).toInteger(), 5);
    const QList<CollectedSpan> sentViaExport = viaExport.spans(&problems);
    QCOMPARE(sentViaExport.size(), 5);
    QCOMPARE(sentViaExport.at(0).traceId, sentLive.at(0).traceId);
    // ... and with the endpoint after the flag.
    FakeOtlpCollector viaFlag;
    QVERIFY(viaFlag.listen());
    const CliResult f = runCli({ u"export"_s, u"--db"_s, db, u"--otlp"_s, viaFlag.endpoint() }, {});
    QVERIFY2(f.exitCode == 0, f.err.constData());
    QCOMPARE(viaFlag.spans(&problems).size(), 5);
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

void TestTelemetry::gzipBodies()
{
    // A gzip stream (magic, deflate, CRC-32, length) that Node's zlib inflates back, not
    // qCompress's zlib-with-length format.
    QByteArray text;
    for (int i = 0; i < 2000; ++i)
        text += "span " + QByteArray::number(i) + " ü\n";
    const QByteArray packed = gzipCompress(text);
    QVERIFY(packed.startsWith("\x1f\x8b\x08"));
    QVERIFY(packed.size() < text.size() / 3);
    QString error;
    QCOMPARE(FakeOtlpCollector::gunzip(packed, &error), text);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(FakeOtlpCollector::gunzip(gzipCompress(QByteArray()), &error), QByteArray());

    for (const OtlpProtocol protocol : { OtlpProtocol::Protobuf, OtlpProtocol::Json }) {
        FakeOtlpCollector collector;
        QVERIFY(collector.listen());
        OtlpConfig config = collectorConfig(collector);
        config.protocol = protocol;
        config.gzip = true;
        OtlpExporter exporter(config);
        exporter.submit(sampleSpans(30));
        QVERIFY(waitFor([&] { return exporter.stats().exported == 30; }));
        const RecordedRequest request = collector.server().requests().at(0);
        QCOMPARE(request.header("content-encoding"), "gzip"_ba);
        QVERIFY(request.body.startsWith("\x1f\x8b"));
        QStringList problems;
        const QList<CollectedSpan> spans = collector.spans(&problems);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
        QCOMPARE(spans.size(), 30);
        QCOMPARE(spans.at(7).integer(u"n"_s), 7);
        QCOMPARE(spans.at(7).encoding, u"gzip"_s);
    }
    // The settings field: telemetry/compression.
    QTemporaryDir dir;
    QSettings settings(dir.filePath(u"s.ini"_s), QSettings::IniFormat);
    settings.setValue(u"telemetry/enabled"_s, true);
    settings.setValue(u"telemetry/endpoint"_s, u"http://127.0.0.1:4318"_s);
    QVERIFY(!OtlpConfig::fromSettings(settings, {}).gzip);
    settings.setValue(u"telemetry/compression"_s, u"gzip"_s);
    QVERIFY(OtlpConfig::fromSettings(settings, {}).gzip);
    QProcessEnvironment env;
    env.insert(u"OTEL_EXPORTER_OTLP_COMPRESSION"_s, u"none"_s);
    QVERIFY(!OtlpConfig::fromSettings(settings, env).gzip);
}

void TestTelemetry::costOnCallAndChatSpans()
{
    FakeProvider provider;
    QVERIFY(provider.listen());
    FakeOtlpCollector collector;
    QVERIFY(collector.listen());
    QTemporaryDir dir;
    QJsonObject spec = toolLoopSpec(provider.baseUrl());
    QJsonObject engine = spec.value(u"engine"_s).toObject();
    engine.insert(u"model"_s, u"gpt-4.1-mini"_s);
    spec.insert(u"engine"_s, engine);
    QVERIFY(writeJson(dir.filePath(u"spec.json"_s), spec));
    scriptToolLoop(provider);
    const CliResult r =
        runCli({ u"run"_s, dir.filePath(u"spec.json"_s), u"--input"_s, u"x"_s, u"--db"_s,
                 dir.filePath(u"h.sqlite"_s), u"--allow-tool"_s, u"get_ticket"_s },
               otlpEnv(collector, u"http/json"_s));
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QStringList problems;
    const QList<CollectedSpan> spans = collector.spans(&problems);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
    const PriceTable prices = PriceTable::shipped();
    Usage turn;
    turn.inputTokens = 12;
    turn.outputTokens = 4;
    const std::optional<double> turnCost = prices.cost(u"gpt-4.1-mini"_s, turn);
    QVERIFY(turnCost && *turnCost > 0);
    auto costOf = [](const CollectedSpan &span) {
        return span.attributes.value(u"callscope.cost.usd"_s)
            .toObject()
            .value(u"doubleValue"_s)
            .toDouble();
    };
    const QList<CollectedSpan> chats = named(spans, u"chat "_s);
    QCOMPARE(chats.size(), 3);
    for (const CollectedSpan &chat : chats) {
        QCOMPARE(chat.typeOf(u"callscope.cost.usd"_s), u"doubleValue"_s);
        QVERIFY2(qAbs(costOf(chat) - *turnCost) < 1e-12,
                 qPrintable(u"%1 vs %2"_s.arg(costOf(chat)).arg(*turnCost)));
    }
    const CollectedSpan agent = named(spans, u"invoke_agent "_s).value(0);
    QCOMPARE(agent.typeOf(u"callscope.cost.usd"_s), u"doubleValue"_s);
    QVERIFY(qAbs(costOf(agent) - 3 * *turnCost) < 1e-12);
    // The same figure the history shows for the stored call.
    const CliResult show = runCli({ u"show"_s, r.json().value(u"call_id"_s).toVariant().toString(),
                                    u"--db"_s, dir.filePath(u"h.sqlite"_s) },
                                  {});
    const double shown = show.json().value(u"cost_usd"_s).toDouble(-1);
    if (shown >= 0)
        QVERIFY2(qAbs(shown - costOf(agent)) < 1e-12, show.out.constData());
    // Tools carry none.
    QVERIFY(!named(spans, u"execute_tool "_s).value(0).has(u"callscope.cost.usd"_s));
}

void TestTelemetry::batchRoundSpans()
{
    FakeProvider provider;
    QVERIFY(provider.listen());
    auto api = std::make_shared<FakeBatchApi>([](const QString &, const QJsonObject &) {
        return std::pair<int, QByteArray> {
            200, chatReply(u"r"_s, u"s1"_s, u"submit_output"_s, { { u"title"_s, u"ok"_s } })
        };
    });
    // Round 1: two of six lines fail at the provider and go into round 2.
    api->fate = [](const QString &, const QJsonObject &body, int batchNumber) {
        const QString text = QString::fromUtf8(QJsonDocument(body).toJson(QJsonDocument::Compact));
        return batchNumber == 1 && (text.contains(u"ticket 2"_s) || text.contains(u"ticket 5"_s))
            ? u"errored"_s
            : QString();
    };
    provider.setResponder(api->responder());
    FakeOtlpCollector collector;
    QVERIFY(collector.listen());
    QTemporaryDir dir;
    QJsonObject spec = toolLoopSpec(provider.baseUrl());
    spec.remove(u"tools"_s);
    QVERIFY(writeJson(dir.filePath(u"planner.spec.json"_s), spec));
    QFile cases(dir.filePath(u"cases.jsonl"_s));
    QVERIFY(cases.open(QIODevice::WriteOnly));
    for (int i = 1; i <= 6; ++i)
        cases.write("{\"id\":\"c" + QByteArray::number(i) + "\",\"input\":\"ticket "
                    + QByteArray::number(i) + "\"}\n");
    cases.close();
    QVERIFY(writeJson(dir.filePath(u"exp.json"_s),
                      QJsonDocument::fromJson(R"({"name":"nightly",
        "spec":"planner.spec.json","dataset":"cases.jsonl","via":"batch",
        "assert":[{"type":"equals","pointer":"/title","value":"ok"}]})")
                          .object()));
    QProcessEnvironment env;
    env.insert(u"CALLSCOPE_BATCH_POLL_MS"_s, u"20,200"_s);
    const CliResult r = runCli({ u"eval"_s, dir.filePath(u"exp.json"_s), u"--db"_s,
                                 dir.filePath(u"h.sqlite"_s), u"--otlp"_s, collector.endpoint() },
                               env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(api->batches.size(), 2);
    QStringList problems;
    const QList<CollectedSpan> spans = collector.spans(&problems);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
    const QList<CollectedSpan> experiments = named(spans, u"experiment "_s);
    QCOMPARE(experiments.size(), 1);
    const QList<CollectedSpan> rounds = named(spans, u"provider_batch round "_s);
    QCOMPARE(rounds.size(), 2);
    QCOMPARE(named(spans, u"invoke_agent "_s).size(), 6);
    for (int i = 0; i < 2; ++i) {
        const CollectedSpan &round = rounds.at(i);
        QCOMPARE(round.name, u"provider_batch round %1"_s.arg(i + 1));
        QCOMPARE(round.traceId, experiments.first().traceId);
        QCOMPARE(round.parentSpanId, experiments.first().spanId);
        QCOMPARE(round.integer(u"callscope.batch.round"_s), i + 1);
        QCOMPARE(round.integer(u"callscope.batch.parts"_s), 1);
        QCOMPARE(round.string(u"gen_ai.provider.name"_s), u"openai"_s);
        QCOMPARE(round.string(u"gen_ai.request.model"_s), u"gpt-test"_s);
        QCOMPARE(round.strings(u"callscope.batch.statuses"_s), QStringList { u"ended"_s });
        QCOMPARE(round.strings(u"callscope.batch.provider_ids"_s).size(), 1);
        QVERIFY(!round.string(u"callscope.batch.engine"_s).contains(QLatin1StringView(kApiKey)));
        QStringList events;
        for (const QJsonValue &event : round.events)
            events.append(event.toObject().value(u"name"_s).toString());
        QCOMPARE(events,
                 (QStringList { u"callscope.batch.submitted"_s, u"callscope.batch.ended"_s }));
        QVERIFY(round.endTimeUnixNano.toLongLong() >= round.startTimeUnixNano.toLongLong());
    }
    QCOMPARE(rounds.at(0).integer(u"callscope.batch.lines"_s), 6);
    QCOMPARE(rounds.at(0).integer(u"callscope.batch.lines.succeeded"_s), 4);
    QCOMPARE(rounds.at(0).integer(u"callscope.batch.lines.failed"_s), 2);
    QCOMPARE(rounds.at(1).integer(u"callscope.batch.lines"_s), 2);
    QCOMPARE(rounds.at(1).integer(u"callscope.batch.lines.succeeded"_s), 2);
    QCOMPARE(rounds.at(1).integer(u"callscope.batch.lines.failed"_s), 0);
    QVERIFY(rounds.at(1).startTimeUnixNano.toLongLong()
            >= rounds.at(0).endTimeUnixNano.toLongLong());
}

void TestTelemetry::settingsPageTestsAndKeepsHeadersInTheKeychain()
{
    QVERIFY2(!qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS"),
             "needs a D-Bus session with an unlocked gnome-keyring (run the suite through "
             "tools/dev.sh test)");
    QTemporaryDir dir;
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path());
    const QString settingsFile = QSettings().fileName();
    QVERIFY2(settingsFile.startsWith(dir.path()), qPrintable(settingsFile));
    const QString service = u"callscope-tst-telemetry-%1"_s.arg(QCoreApplication::applicationPid());
    CredentialStore credentials(service, nullptr);
    FakeOtlpCollector collector;
    QVERIFY(collector.listen());

    TelemetryPage page(&credentials);
    page.show();
    page.enabledBox()->setChecked(true);
    page.endpointEdit()->setText(collector.endpoint());
    page.protocolCombo()->setCurrentIndex(page.protocolCombo()->findData(u"http/json"_s));
    page.compressionCombo()->setCurrentIndex(page.compressionCombo()->findData(u"gzip"_s));
    page.captureCombo()->setCurrentIndex(page.captureCombo()->findData(u"metadata"_s));
    const QString token = u"Bearer PAGE-TOKEN-6620"_s;
    QCOMPARE(page.headerValueEdit()->echoMode(), QLineEdit::Password);
    QTest::keyClicks(page.headerNameEdit(), u"Authorization"_s);
    QTest::keyClicks(page.headerValueEdit(), token);
    QTest::mouseClick(page.addHeaderButton(), Qt::LeftButton);
    QCOMPARE(page.headerList()->count(), 1);
    QVERIFY(!page.headerList()->item(0)->text().contains(u"PAGE-TOKEN"_s));

    QSignalSpy saved(&page, &TelemetryPage::saved);
    QTest::mouseClick(page.saveButton(), Qt::LeftButton);
    QVERIFY2(saved.wait(20000), qPrintable(page.statusText()));
    QVERIFY2(saved.at(0).at(0).toBool(), qPrintable(page.statusText()));
    // The value is in the keychain, the settings file holds only the header's name.
    CredentialStore reader(service, nullptr);
    std::optional<KeychainResult> read;
    reader.readKey(TelemetrySettings::headerEntry(u"Authorization"_s), &reader,
                   [&read](const KeychainResult &result) { read = result; });
    QTRY_VERIFY_WITH_TIMEOUT(read.has_value(), 10000);
    QCOMPARE(int(read->status), int(KeychainStatus::Ok));
    QCOMPARE(read->key.value_or(QString()), token);
    QSettings().sync();
    QFile file(settingsFile);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray stored = file.readAll();
    QVERIFY2(!stored.contains("PAGE-TOKEN-6620"), stored.constData());
    QVERIFY2(stored.contains("Authorization"), stored.constData());
    QVERIFY(stored.contains("gzip"));
    // What the studio starts its exporter with.
    const OtlpConfig config = OtlpConfig::fromSettings(QSettings(), {});
    QVERIFY(config.enabled);
    QVERIFY(config.gzip);
    QCOMPARE(config.protocol, OtlpProtocol::Json);
    QCOMPARE(config.spans.capture, CaptureLevel::Metadata);
    QVERIFY(config.headersPending);
    QVERIFY(config.headers.isEmpty());

    // Test: one span, sent off the GUI thread, with the header read back from the keychain.
    QSignalSpy tested(&page, &TelemetryPage::tested);
    QTest::mouseClick(page.testButton(), Qt::LeftButton);
    QVERIFY(!page.testButton()->isEnabled());
    QVERIFY2(tested.wait(20000), qPrintable(page.statusText()));
    QVERIFY2(tested.at(0).at(0).toBool(), qPrintable(page.statusText()));
    QVERIFY2(page.statusText().contains(u"answered 200"_s), qPrintable(page.statusText()));
    QVERIFY(page.testButton()->isEnabled());
    QCOMPARE(collector.server().requestCount(), 1);
    const RecordedRequest request = collector.server().requests().at(0);
    QCOMPARE(request.header("authorization"), token.toUtf8());
    QCOMPARE(request.header("content-encoding"), "gzip"_ba);
    QStringList problems;
    const QList<CollectedSpan> spans = collector.spans(&problems);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
    QCOMPARE(spans.size(), 1);
    QCOMPARE(spans.at(0).protocol, u"json"_s);

    // Refused: the status in plain words, not retried.
    collector.server().setDefaultReply(FakeReply::text(401, "no"));
    QTest::mouseClick(page.testButton(), Qt::LeftButton);
    QVERIFY(tested.wait(20000));
    QCOMPARE(tested.at(1).at(0).toBool(), false);
    QVERIFY2(page.statusText().contains(u"refused the test span with HTTP 401"_s),
             qPrintable(page.statusText()));
    QCOMPARE(collector.server().requestCount(), 2);

    // Unreachable: a port nothing listens on.
    QTcpServer closed;
    QVERIFY(closed.listen(QHostAddress::LocalHost));
    const quint16 port = closed.serverPort();
    closed.close();
    page.endpointEdit()->setText(u"http://127.0.0.1:%1"_s.arg(port));
    QTest::mouseClick(page.testButton(), Qt::LeftButton);
    QVERIFY(tested.wait(20000));
    QCOMPARE(tested.at(2).at(0).toBool(), false);
    QVERIFY2(page.statusText().startsWith(u"Nothing answered at"_s), qPrintable(page.statusText()));

    // Removing the header deletes its value from the keychain.
    page.headerList()->setCurrentRow(0);
    QTest::mouseClick(page.removeHeaderButton(), Qt::LeftButton);
    QTest::mouseClick(page.saveButton(), Qt::LeftButton);
    QVERIFY(saved.wait(20000));
    QVERIFY2(saved.at(1).at(0).toBool(), qPrintable(page.statusText()));
    read.reset();
    reader.readKey(TelemetrySettings::headerEntry(u"Authorization"_s), &reader,
                   [&read](const KeychainResult &result) { read = result; });
    QTRY_VERIFY_WITH_TIMEOUT(read.has_value(), 10000);
    QCOMPARE(int(read->status), int(KeychainStatus::NotFound));
    QVERIFY(!OtlpConfig::fromSettings(QSettings(), {}).headersPending);
}

// A trace link in the settings (telemetry/trace_url) opens a stored call's trace in the team's
// viewer: the ids in the address are those of the spans the call was exported with, from the
// call's tab (Open Trace) and from `callscope-cli show`.
void TestTelemetry::traceLinkOpensTheCallsTrace()
{
    QVERIFY(traceViewerTemplateProblem(QString()).isEmpty());
    QVERIFY(traceViewerTemplateProblem(u"http://localhost:16686/trace/{trace_id}"_s).isEmpty());
    QVERIFY(!traceViewerTemplateProblem(u"http://localhost:16686/trace/"_s).isEmpty());
    QVERIFY(!traceViewerTemplateProblem(u"file:///tmp/{trace_id}"_s).isEmpty());
    QVERIFY(!traceViewerTemplateProblem(u"javascript:alert({trace_id})"_s).isEmpty());
    QVERIFY(!traceViewerUrl(u"ftp://x/{trace_id}"_s, TraceRef { "0123456789abcdef", "01234567" })
                 .isValid());

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
    const qint64 id = r.json().value(u"call_id"_s).toInteger();
    QVERIFY(id > 0);
    QStringList problems;
    const QList<CollectedSpan> spans = live.spans(&problems);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
    QString traceId;
    QString agentSpanId;
    for (const CollectedSpan &span : spans) {
        if (span.name.startsWith(u"invoke_agent"_s)) {
            traceId = span.traceId;
            agentSpanId = span.spanId;
        }
    }
    QVERIFY(!traceId.isEmpty());
    const QString link = u"http://viewer.test:16686/trace/{trace_id}?uiFind={span_id}"_s;
    const QUrl expected(u"http://viewer.test:16686/trace/%1?uiFind=%2"_s.arg(traceId, agentSpanId));

    // The command line, with the link in the settings file it reads.
    QTemporaryDir config;
    QVERIFY(QDir(config.path()).mkpath(u"Callscope"_s));
    {
        QSettings file(config.filePath(u"Callscope/callscope.conf"_s), QSettings::IniFormat);
        file.setValue(u"telemetry/trace_url"_s, link);
    }
    QProcessEnvironment configEnv;
    configEnv.insert(u"XDG_CONFIG_HOME"_s, config.path());
    const CliResult shown = runCli({ u"show"_s, QString::number(id), u"--db"_s, db }, configEnv);
    QVERIFY2(shown.exitCode == 0, shown.err.constData());
    const QJsonObject trace = shown.json().value(u"trace"_s).toObject();
    QCOMPARE(trace.value(u"trace_id"_s).toString(), traceId);
    QCOMPARE(trace.value(u"span_id"_s).toString(), agentSpanId);
    QCOMPARE(QUrl(trace.value(u"url"_s).toString()), expected);

    // The call's tab: no button without a link, Open Trace with one.
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path());
    QSettings().remove(u"telemetry/trace_url"_s);
    auto database = Database::open(db);
    QVERIFY2(database, qPrintable(database.error().message));
    CallStore store(**database);
    {
        CallTab tab(&store, nullptr);
        QVERIFY(tab.setCall(id));
        QVERIFY(tab.isLoaded());
        QVERIFY(tab.openTraceButton()->isHidden());
        QVERIFY(!tab.traceUrl().isValid());
    }
    QSettings().setValue(u"telemetry/trace_url"_s, link);
    UrlCatcher catcher;
    QDesktopServices::setUrlHandler(u"http"_s, &catcher, "open");
    CallTab tab(&store, nullptr);
    tab.resize(1000, 600);
    tab.show();
    QVERIFY(tab.setCall(id));
    QVERIFY(tab.openTraceButton()->isVisible());
    QCOMPARE(tab.traceUrl(), expected);
    QTest::mouseClick(tab.openTraceButton(), Qt::LeftButton);
    QDesktopServices::unsetUrlHandler(u"http"_s);
    QCOMPARE(catcher.urls, QList<QUrl> { expected });

    // A link the page cannot use is refused on Save, with the reason.
    TelemetryPage page(nullptr);
    QCOMPARE(page.traceUrlEdit()->text(), link);
    page.traceUrlEdit()->setText(u"http://viewer.test/trace/"_s);
    QSignalSpy saved(&page, &TelemetryPage::saved);
    page.save();
    QCOMPARE(saved.size(), 1);
    QCOMPARE(saved.at(0).at(0).toBool(), false);
    QVERIFY2(page.statusText().contains(u"{trace_id}"_s), qPrintable(page.statusText()));
    QCOMPARE(QSettings().value(u"telemetry/trace_url"_s).toString(), link);
}

// A revision's invoke_agent span links to the call it revises (its trace and span), and the
// calls of one session carry the same gen_ai.conversation.id; a call outside a session none.
void TestTelemetry::revisionLinksItsParentAndSessionTurnsShareAConversation()
{
    FakeProvider provider;
    QVERIFY(provider.listen());
    FakeOtlpCollector collector;
    QVERIFY(collector.listen());
    QTemporaryDir dir;
    const QString spec = dir.filePath(u"spec.json"_s);
    QVERIFY(writeJson(spec, toolLoopSpec(provider.baseUrl())));
    const QString db = dir.filePath(u"h.sqlite"_s);
    const QProcessEnvironment env = otlpEnv(collector, u"http/json"_s);
    auto agentOf = [&collector](qint64 callId) -> std::optional<CollectedSpan> {
        QStringList problems;
        for (const CollectedSpan &span : collector.spans(&problems)) {
            if (span.name.startsWith(u"invoke_agent"_s)
                && span.integer(u"callscope.call.id"_s) == callId)
                return span;
        }
        return std::nullopt;
    };

    scriptToolLoop(provider);
    const CliResult first = runCli(
        { u"run"_s, spec, u"--input"_s, u"x"_s, u"--db"_s, db, u"--allow-tool"_s, u"get_ticket"_s },
        env);
    QVERIFY2(first.exitCode == 0, first.err.constData());
    const qint64 parentId = first.json().value(u"call_id"_s).toInteger();
    const auto parent = agentOf(parentId);
    QVERIFY(parent);
    QVERIFY(parent->string(u"gen_ai.conversation.id"_s).isEmpty());

    provider.enqueue(FakeReply::json(
        200, chatReply(u"resp-4"_s, u"c4"_s, u"submit_output"_s, { { u"title"_s, u"T2"_s } })));
    const CliResult revised =
        runCli({ u"revise"_s, QString::number(parentId), u"--correction"_s,
                 u"Use a shorter title."_s, u"--db"_s, db, u"--allow-tool"_s, u"get_ticket"_s },
               env);
    QVERIFY2(revised.exitCode == 0, revised.err.constData());
    const qint64 revisionId = revised.json().value(u"call_id"_s).toInteger();
    QVERIFY(revisionId > parentId);
    const auto revision = agentOf(revisionId);
    QVERIFY(revision);
    QCOMPARE(revision->links.size(), 1);
    const QJsonObject link = revision->links.at(0).toObject();
    QCOMPARE(link.value(u"traceId"_s).toString(), parent->traceId);
    QCOMPARE(link.value(u"spanId"_s).toString(), parent->spanId);
    QVERIFY(revision->traceId != parent->traceId); // its own trace, linked

    // Two turns of one session.
    qint64 sessionId = 0;
    {
        auto database = Database::open(db);
        QVERIFY2(database, qPrintable(database.error().message));
        CallStore store(**database);
        Session session;
        session.title = u"Tickets"_s;
        const auto made = store.createSession(session);
        QVERIFY2(made, qPrintable(made.error().message));
        sessionId = made.value();
    }
    QList<qint64> turns;
    for (int i = 0; i < 2; ++i) {
        scriptToolLoop(provider);
        const CliResult turn = runCli({ u"run"_s, spec, u"--input"_s, u"turn %1"_s.arg(i),
                                        u"--session"_s, QString::number(sessionId), u"--db"_s, db,
                                        u"--allow-tool"_s, u"get_ticket"_s },
                                      env);
        QVERIFY2(turn.exitCode == 0, turn.err.constData());
        turns.append(turn.json().value(u"call_id"_s).toInteger());
    }
    const QString conversation = u"callscope-session-%1"_s.arg(sessionId);
    QStringList problems;
    int inSession = 0;
    for (const CollectedSpan &span : collector.spans(&problems)) {
        if (!turns.contains(span.integer(u"callscope.call.id"_s)))
            continue;
        ++inSession;
        QCOMPARE(span.string(u"gen_ai.conversation.id"_s), conversation);
    }
    QVERIFY2(inSession >= 2, qPrintable(QString::number(inSession)));
    QCOMPARE(agentOf(turns.at(0))->string(u"gen_ai.conversation.id"_s), conversation);
    QCOMPARE(agentOf(turns.at(1))->string(u"gen_ai.conversation.id"_s), conversation);
}

QTEST_MAIN(TestTelemetry)
#include "tst_telemetry.moc"
