// callscope-cli run / batch / revise end to end: the real executable against the scripted fake
// provider and a real SQLite file; the bundled samples on the replay engine; and crash safety
// of the history under SIGKILL.

#include "core/store/callstore.h"
#include "core/store/database.h"
#include "tests/support/fakeprovider.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace Qt::StringLiterals;
using namespace Callscope;
using namespace Callscope::Test;

namespace {

struct CliResult
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    QJsonObject json() const { return QJsonDocument::fromJson(out).object(); }
};

QString sampleDir()
{
    return QDir(QStringLiteral(CALLSCOPE_SOURCE_DIR)).filePath(u"resources/samples"_s);
}

// Runs the CLI without blocking the event loop, so the in-process fake provider can answer.
CliResult runCli(const QStringList &args, const QByteArray &stdinData = {}, int timeoutMs = 30000,
                 const QProcessEnvironment &extraEnv = {})
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"CALLSCOPE_TEST_API_KEY"_s, u"sk-cli-test-key"_s);
    env.insert(extraEnv);
    process.setProcessEnvironment(env);
    QSignalSpy finished(&process, &QProcess::finished);
    process.start(cliPath(), args);
    if (!process.waitForStarted(5000))
        return {};
    if (!stdinData.isEmpty())
        process.write(stdinData);
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

QByteArray chatToolCall(const QString &id, const QString &name, const QJsonObject &args)
{
    const QJsonObject body {
        { u"id"_s, u"c"_s },
        { u"object"_s, u"chat.completion"_s },
        { u"model"_s, u"m"_s },
        { u"choices"_s,
          QJsonArray { QJsonObject {
              { u"index"_s, 0 },
              { u"message"_s,
                QJsonObject { { u"role"_s, u"assistant"_s },
                              { u"content"_s, QJsonValue() },
                              { u"tool_calls"_s,
                                QJsonArray { QJsonObject {
                                    { u"id"_s, id },
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

class Fixture
{
public:
    Fixture()
    {
        server.listen();
        dbPath = dir.filePath(u"history.sqlite"_s);
    }

    QString writeSpec(const QJsonObject &extra = {}) const
    {
        QJsonObject spec {
            { u"kind"_s, u"planner"_s },
            { u"system_prompt"_s, u"Plan."_s },
            { u"response_schema"_s,
              QJsonObject {
                  { u"type"_s, u"object"_s },
                  { u"properties"_s,
                    QJsonObject { { u"title"_s, QJsonObject { { u"type"_s, u"string"_s } } } } },
                  { u"required"_s, QJsonArray { u"title"_s } } } },
            { u"tools"_s,
              QJsonArray { QJsonObject { { u"name"_s, u"get_ticket"_s },
                                         { u"description"_s, u"Load a ticket."_s },
                                         { u"requires_approval"_s, true },
                                         { u"mock"_s, u"ticket body"_s } } } },
            { u"engine"_s,
              QJsonObject { { u"type"_s, u"openai"_s },
                            { u"model"_s, u"gpt-test"_s },
                            { u"base_url"_s, server.baseUrl().toString() },
                            { u"api_key_env"_s, u"CALLSCOPE_TEST_API_KEY"_s },
                            { u"stream"_s, false } } }
        };
        for (auto it = extra.begin(); it != extra.end(); ++it)
            spec.insert(it.key(), it.value());
        const QString path = dir.filePath(u"spec.json"_s);
        QFile f(path);
        f.open(QIODevice::WriteOnly | QIODevice::Truncate);
        f.write(QJsonDocument(spec).toJson());
        return path;
    }

    QTemporaryDir dir;
    FakeProvider server;
    QString dbPath;
};

} // namespace

class TestCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QFile::exists(cliPath()), qPrintable(u"callscope-cli not built: "_s + cliPath()));
    }
    void runCompleted();
    void runPartialPrintsJsonLines();
    void runFailedAuth();
    void runWrongServerUrlIsOneLine();
    void runTurnLimited();
    void runInvalidSpecAndBadArguments();
    void unusableSchemaSpendsNothing();
    void runAllowToolAndAttach();
    void batchGoesOnPastFailures();
    void reviseFromTheCommandLine();
    void samplesRunOffline_data();
    void samplesRunOffline();
    void crashSafetyUnderSigkill();
    void enginesTestThroughTheProbe();
    void toolProgramsCheckedBeforeSending();
    void mcpToolsCallAndGracefulShutdown();
    void mcpBadArgumentsAndSpecs();
    void keyGoesOnlyToItsOwnOrigin();
    void untrustedFilesStartNothing();
    void reviseAsksBeforeRerunningTools();
    void trustAddListRevoke();
    void hostileSchemasRefusedAtLoad();
    void sigtermEndsRunInsideValidation();
    void promptfooConvertThenEval();
};

// `run --partial`: the answer as it streams, one JSON line per update on stderr; stdout keeps
// the one result.
void TestCli::runPartialPrintsJsonLines()
{
    Fixture fx;
    const QStringList fragments { u"{\"title\": \""_s, u"Plan "_s, u"the "_s, u"work\"}"_s };
    fx.server.enqueue(
        FakeReply::sse(openAiToolCallStreamEvents(u"c1"_s, u"submit_output"_s, fragments).join())
            .dripped(64, 1));
    QJsonObject engine { { u"type"_s, u"openai"_s },
                         { u"model"_s, u"gpt-test"_s },
                         { u"base_url"_s, fx.server.baseUrl().toString() },
                         { u"api_key_env"_s, u"CALLSCOPE_TEST_API_KEY"_s } };
    const CliResult r = runCli({ u"run"_s, fx.writeSpec({ { u"engine"_s, engine } }), u"--input"_s,
                                 u"Plan ticket 7"_s, u"--db"_s, fx.dbPath, u"--partial"_s });
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.json().value(u"parsed"_s).toObject(),
             QJsonObject({ { u"title"_s, u"Plan the work"_s } }));
    QList<QJsonObject> lines;
    for (const QByteArray &line : r.err.split('\n')) {
        if (line.trimmed().isEmpty())
            continue;
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
        QVERIFY2(error.error == QJsonParseError::NoError && doc.isObject(), line.constData());
        lines.append(doc.object());
    }
    QVERIFY(!lines.isEmpty());
    for (const QJsonObject &line : std::as_const(lines)) {
        QCOMPARE(line.value(u"turn"_s).toInt(), 0);
        QVERIFY(line.value(u"fields"_s).isArray());
        const QString title = line.value(u"partial"_s).toObject().value(u"title"_s).toString();
        QVERIFY2(u"Plan the work"_s.startsWith(title), qPrintable(title));
    }
    const QJsonObject last = lines.last();
    QVERIFY(last.value(u"ended"_s).toBool());
    QVERIFY(last.value(u"can_be_valid"_s).toBool());
    QCOMPARE(last.value(u"partial"_s).toObject(),
             QJsonObject({ { u"title"_s, u"Plan the work"_s } }));
    QCOMPARE(last.value(u"fields"_s).toArray(),
             QJsonArray(
                 { QJsonObject { { u"pointer"_s, u"/title"_s }, { u"state"_s, u"complete"_s } } }));

    // Without --partial nothing of it is printed.
    fx.server.enqueue(
        FakeReply::sse(openAiToolCallStreamEvents(u"c2"_s, u"submit_output"_s, fragments).join()));
    const CliResult quiet = runCli({ u"run"_s, fx.writeSpec({ { u"engine"_s, engine } }),
                                     u"--input"_s, u"Plan ticket 8"_s, u"--db"_s, fx.dbPath });
    QCOMPARE(quiet.exitCode, 0);
    QVERIFY2(!quiet.err.contains("\"partial\""), quiet.err.constData());
}

void TestCli::runCompleted()
{
    Fixture fx;
    fx.server.enqueue(FakeReply::json(
        200, chatToolCall(u"c1"_s, u"submit_output"_s, { { u"title"_s, u"Done"_s } })));
    const CliResult r = runCli(
        { u"run"_s, fx.writeSpec(), u"--input"_s, u"Plan ticket 7"_s, u"--db"_s, fx.dbPath });
    QCOMPARE(r.exitCode, 0);
    const QJsonObject out = r.json();
    const QStringList keys = out.keys();
    QCOMPARE(QSet<QString>(keys.begin(), keys.end()),
             QSet<QString>({ u"call_id"_s, u"status"_s, u"parsed"_s, u"error_category"_s,
                             u"error"_s, u"usage"_s, u"turns"_s, u"attempts"_s, u"cost_usd"_s,
                             u"cost_uncached_usd"_s }));
    QCOMPARE(out.value(u"status"_s).toString(), u"completed"_s);
    QCOMPARE(out.value(u"parsed"_s).toObject(), QJsonObject({ { u"title"_s, u"Done"_s } }));
    QVERIFY(out.value(u"error_category"_s).isNull());
    QCOMPARE(out.value(u"turns"_s).toInt(), 1);
    QCOMPARE(out.value(u"attempts"_s).toInt(), 1);
    QCOMPARE(out.value(u"usage"_s).toObject().value(u"input_tokens"_s).toInt(), 12);
    QVERIFY(out.value(u"call_id"_s).toInteger() > 0);
    QCOMPARE(fx.server.requests().at(0).header("authorization"), "Bearer sk-cli-test-key"_ba);
    QVERIFY(r.err.isEmpty() || !r.err.contains("debug"));

    // `show` gives the whole stored row.
    const CliResult show = runCli(
        { u"show"_s, QString::number(out.value(u"call_id"_s).toInteger()), u"--db"_s, fx.dbPath });
    QCOMPARE(show.exitCode, 0);
    QCOMPARE(show.json().value(u"response"_s).toObject(),
             QJsonObject({ { u"title"_s, u"Done"_s } }));
    QCOMPARE(show.json().value(u"kind"_s).toString(), u"planner"_s);

    // One run checks its engine once (the debug line of callscope.launch counts the checks).
    fx.server.enqueue(FakeReply::json(
        200, chatToolCall(u"c2"_s, u"submit_output"_s, { { u"title"_s, u"Again"_s } })));
    QProcessEnvironment logging;
    logging.insert(u"QT_LOGGING_RULES"_s, u"callscope.launch.debug=true"_s);
    const CliResult counted =
        runCli({ u"run"_s, fx.writeSpec(), u"--input"_s, u"Plan ticket 8"_s, u"--db"_s, fx.dbPath },
               {}, 30000, logging);
    QCOMPARE(counted.exitCode, 0);
    QVERIFY2(counted.err.count("preflight of the engine") == 1, counted.err.constData());
}

void TestCli::runFailedAuth()
{
    Fixture fx;
    fx.server.enqueue(FakeReply::json(
        401,
        R"({"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}})"));
    const CliResult r =
        runCli({ u"run"_s, fx.writeSpec(), u"--input"_s, u"x"_s, u"--db"_s, fx.dbPath });
    QCOMPARE(r.exitCode, 1);
    QCOMPARE(r.json().value(u"status"_s).toString(), u"failed"_s);
    QCOMPARE(r.json().value(u"error_category"_s).toString(), u"auth"_s);
    QVERIFY(r.json().value(u"error"_s).toString().contains(u"Incorrect API key provided"_s));
    QCOMPARE(fx.server.requestCount(), 1);
}

// A base URL that reaches a web server, not the API: the result's error is one line naming who
// answered and how (not its HTML page), and the 501 is asked once.
void TestCli::runWrongServerUrlIsOneLine()
{
    Fixture fx;
    fx.server.setDefaultReply(FakeReply::text(
        501, "<html>\n<body><h1>Not Implemented</h1>\n<p>no POST here</p></body>\n</html>\n",
        "text/html"));
    const CliResult r =
        runCli({ u"run"_s, fx.writeSpec(), u"--input"_s, u"x"_s, u"--db"_s, fx.dbPath });
    QCOMPARE(r.exitCode, 1);
    QCOMPARE(fx.server.requestCount(), 1);
    const QString error = r.json().value(u"error"_s).toString();
    QCOMPARE(error,
             u"the server at %1/v1/chat/completions answered 501 Not Implemented: it does not look "
             u"like a "
             "Chat Completions API"_s.arg(fx.server.baseUrl().toString()));
    QCOMPARE(r.json().value(u"attempts"_s).toInt(), 1);
    QVERIFY2(!r.out.contains("<h1>") && !r.err.contains("<h1>"), r.out.constData());
}

void TestCli::runTurnLimited()
{
    Fixture fx;
    for (int i = 0; i < 2; ++i)
        fx.server.enqueue(FakeReply::json(
            200, chatToolCall(u"c%1"_s.arg(i), u"get_ticket"_s, { { u"id"_s, i } })));
    const CliResult r = runCli({ u"run"_s, fx.writeSpec({ { u"max_turns"_s, 2 } }), u"--input"_s,
                                 u"x"_s, u"--db"_s, fx.dbPath });
    QCOMPARE(r.exitCode, 3);
    QCOMPARE(r.json().value(u"status"_s).toString(), u"turn_limited"_s);
    QCOMPARE(r.json().value(u"turns"_s).toInt(), 2);
}

void TestCli::runInvalidSpecAndBadArguments()
{
    Fixture fx;
    const QString bad = fx.dir.filePath(u"bad.json"_s);
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"engine": {"type": "telepathy"}, "max_turns": "ten"})");
    f.close();
    CliResult r = runCli({ u"run"_s, bad, u"--input"_s, u"x"_s, u"--db"_s, fx.dbPath });
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.contains("/engine/type"), r.err.constData());
    QVERIFY2(r.err.contains("/max_turns"), r.err.constData());

    r = runCli({ u"run"_s, fx.writeSpec(), u"--input"_s, u"x"_s, u"--input-file"_s, bad, u"--db"_s,
                 fx.dbPath });
    QCOMPARE(r.exitCode, 2);
    r = runCli({ u"run"_s, u"/nonexistent/spec.json"_s });
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("/nonexistent/spec.json"));
    r = runCli({ u"run"_s, fx.writeSpec(), u"--bogus"_s });
    QCOMPARE(r.exitCode, 2);
    // A device given by mistake is refused at once, not read forever.
    r = runCli({ u"run"_s, u"/dev/zero"_s, u"--input"_s, u"x"_s, u"--db"_s, fx.dbPath }, {}, 10000);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("cannot read /dev/zero: it is a device, not a file"),
             r.err.constData());
    r = runCli(
        { u"run"_s, fx.writeSpec(), u"--input-file"_s, u"/dev/zero"_s, u"--db"_s, fx.dbPath }, {},
        10000);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("it is a device"), r.err.constData());
    r = runCli({ u"batch"_s, fx.writeSpec(), u"--inputs"_s, u"/dev/zero"_s, u"--db"_s, fx.dbPath },
               {}, 10000);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("it is a device"), r.err.constData());
    QCOMPARE(fx.server.requestCount(), 0);
}

void TestCli::unusableSchemaSpendsNothing()
{
    // A response schema no value can satisfy (a $ref cycle) is refused when the spec loads:
    // run, batch and lint exit 2 and the provider never sees a request.
    Fixture fx;
    const QJsonObject cycle =
        QJsonDocument::fromJson(
            R"({"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"})")
            .object();
    const QString spec = fx.writeSpec({ { u"response_schema"_s, cycle } });
    const QByteArray where = "/response_schema/$defs/b/$ref: the schema refers back to itself "
                             "without consuming any input";
    CliResult r = runCli({ u"run"_s, spec, u"--input"_s, u"x"_s, u"--db"_s, fx.dbPath });
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.contains(where), r.err.constData());
    const QString inputs = fx.dir.filePath(u"inputs.jsonl"_s);
    QFile f(inputs);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("\"a\"\n\"b\"\n");
    f.close();
    r = runCli({ u"batch"_s, spec, u"--inputs"_s, inputs, u"--db"_s, fx.dbPath });
    QCOMPARE(r.exitCode, 2);
    r = runCli({ u"lint"_s, spec });
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(where), r.err.constData());
    QCOMPARE(fx.server.requests().size(), 0);
}

void TestCli::runAllowToolAndAttach()
{
    Fixture fx;
    const QString imagePath = fx.dir.filePath(u"dot.png"_s);
    const QByteArray png =
        QByteArray::fromBase64("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwA"
                               "FBQIAX8jx0gAAAABJRU5ErkJggg==");
    QFile image(imagePath);
    QVERIFY(image.open(QIODevice::WriteOnly));
    image.write(png);
    image.close();

    // Unattended: the approval-needing tool is refused...
    fx.server.enqueue(
        FakeReply::json(200, chatToolCall(u"c1"_s, u"get_ticket"_s, { { u"id"_s, 7 } })));
    fx.server.enqueue(FakeReply::json(
        200, chatToolCall(u"c2"_s, u"submit_output"_s, { { u"title"_s, u"T"_s } })));
    CliResult r = runCli({ u"run"_s, fx.writeSpec(), u"--input"_s, u"x"_s, u"--db"_s, fx.dbPath,
                           u"--attach"_s, imagePath });
    QCOMPARE(r.exitCode, 0);
    QJsonObject toolMsg =
        fx.server.requests().at(1).jsonObject().value(u"messages"_s).toArray().last().toObject();
    QVERIFY(toolMsg.value(u"content"_s).toString().startsWith(u"refused:"_s));
    // ...the image bytes were sent...
    QVERIFY(fx.server.requests().at(0).body.contains(png.toBase64()));
    // ...and only a placeholder is stored.
    const qint64 id = r.json().value(u"call_id"_s).toInteger();
    const CliResult show = runCli({ u"show"_s, QString::number(id), u"--db"_s, fx.dbPath });
    QVERIFY(!show.out.contains(png.toBase64()));
    QCOMPARE(show.json()
                 .value(u"input"_s)
                 .toObject()
                 .value(u"attachments"_s)
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(u"name"_s)
                 .toString(),
             u"dot.png"_s);

    // --allow-tool lets it run.
    fx.server.clearRequests();
    fx.server.enqueue(
        FakeReply::json(200, chatToolCall(u"c1"_s, u"get_ticket"_s, { { u"id"_s, 7 } })));
    fx.server.enqueue(FakeReply::json(
        200, chatToolCall(u"c2"_s, u"submit_output"_s, { { u"title"_s, u"T"_s } })));
    r = runCli({ u"run"_s, fx.writeSpec(), u"--input"_s, u"x"_s, u"--db"_s, fx.dbPath,
                 u"--allow-tool"_s, u"get_ticket"_s });
    QCOMPARE(r.exitCode, 0);
    toolMsg =
        fx.server.requests().at(1).jsonObject().value(u"messages"_s).toArray().last().toObject();
    QCOMPARE(toolMsg.value(u"content"_s).toString(), u"ticket body"_s);
}

void TestCli::batchGoesOnPastFailures()
{
    Fixture fx;
    const QString inputs = fx.dir.filePath(u"inputs.jsonl"_s);
    QFile f(inputs);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("\"first\"\n{\"input\": \"second\", \"metadata\": {\"row\": 2}}\nnot json at "
            "all\n\n\"fourth\"\n");
    f.close();
    fx.server.enqueue(FakeReply::json(
        200, chatToolCall(u"a"_s, u"submit_output"_s, { { u"title"_s, u"one"_s } })));
    fx.server.enqueue(FakeReply::json(500, R"({"error":{"message":"boom","type":"server_error"}})")
                          .withHeader("x-should-retry", "false"));
    fx.server.enqueue(FakeReply::json(
        200, chatToolCall(u"c"_s, u"submit_output"_s, { { u"title"_s, u"four"_s } })));
    const QString outPath = fx.dir.filePath(u"out.jsonl"_s);
    const CliResult r = runCli({ u"batch"_s, fx.writeSpec(), u"--inputs"_s, inputs, u"--out"_s,
                                 outPath, u"--db"_s, fx.dbPath });
    QCOMPARE(r.exitCode, 1);
    QFile out(outPath);
    QVERIFY(out.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = out.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 4);
    const QJsonObject l1 = QJsonDocument::fromJson(lines.at(0)).object();
    const QJsonObject l2 = QJsonDocument::fromJson(lines.at(1)).object();
    const QJsonObject l3 = QJsonDocument::fromJson(lines.at(2)).object();
    const QJsonObject l4 = QJsonDocument::fromJson(lines.at(3)).object();
    QCOMPARE(l1.value(u"line"_s).toInt(), 1);
    QCOMPARE(l1.value(u"status"_s).toString(), u"completed"_s);
    QCOMPARE(l2.value(u"status"_s).toString(), u"failed"_s);
    QCOMPARE(l3.value(u"line"_s).toInt(), 3);
    QCOMPARE(l3.value(u"status"_s).toString(), u"invalid_input"_s);
    QCOMPARE(l4.value(u"line"_s).toInt(), 5);
    QCOMPARE(l4.value(u"parsed"_s).toObject().value(u"title"_s).toString(), u"four"_s);
    QVERIFY2(r.err.contains("4 inputs, 2 completed, 2 not completed"), r.err.constData());
    // Every call that ran is stored, the failed one too, with the line's metadata.
    const CliResult history = runCli({ u"history"_s, u"--db"_s, fx.dbPath });
    QCOMPARE(QJsonDocument::fromJson(history.out).array().size(), 3);
    const CliResult show = runCli(
        { u"show"_s, QString::number(l2.value(u"call_id"_s).toInteger()), u"--db"_s, fx.dbPath });
    QCOMPARE(show.json().value(u"metadata"_s).toObject().value(u"row"_s).toInt(), 2);
}

void TestCli::reviseFromTheCommandLine()
{
    Fixture fx;
    fx.server.enqueue(FakeReply::json(
        200, chatToolCall(u"c1"_s, u"submit_output"_s, { { u"title"_s, u"Draft"_s } })));
    const CliResult first =
        runCli({ u"run"_s, fx.writeSpec(), u"--input"_s, u"Plan it"_s, u"--db"_s, fx.dbPath });
    QCOMPARE(first.exitCode, 0);
    const qint64 id = first.json().value(u"call_id"_s).toInteger();
    fx.server.enqueue(FakeReply::json(
        200, chatToolCall(u"c2"_s, u"submit_output"_s, { { u"title"_s, u"Final"_s } })));
    const CliResult second = runCli({ u"revise"_s, QString::number(id), u"--correction"_s,
                                      u"Call it Final."_s, u"--db"_s, fx.dbPath });
    QCOMPARE(second.exitCode, 0);
    QCOMPARE(second.json().value(u"parsed"_s).toObject().value(u"title"_s).toString(), u"Final"_s);
    const QJsonArray sent = fx.server.requests().at(1).jsonObject().value(u"messages"_s).toArray();
    QCOMPARE(sent.last().toObject().value(u"content"_s).toString(), u"Call it Final."_s);
    QVERIFY(QJsonDocument(sent).toJson().contains("Plan it"));
    const CliResult show =
        runCli({ u"show"_s, QString::number(second.json().value(u"call_id"_s).toInteger()),
                 u"--db"_s, fx.dbPath });
    QCOMPARE(show.json().value(u"parent"_s).toInteger(), id);
    QCOMPARE(runCli({ u"revise"_s, u"99999"_s, u"--correction"_s, u"x"_s, u"--db"_s, fx.dbPath })
                 .exitCode,
             2);
}

void TestCli::samplesRunOffline_data()
{
    QTest::addColumn<QString>("sample");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("status");
    QTest::addColumn<QString>("category");
    QTest::newRow("lunar-landing") << u"lunar-landing"_s << 0 << u"completed"_s << QString();
    QTest::newRow("planner") << u"planner"_s << 0 << u"completed"_s << QString();
    QTest::newRow("refusal") << u"refusal"_s << 1 << u"failed"_s << u"refusal"_s;
}

void TestCli::samplesRunOffline()
{
    QFETCH(QString, sample);
    QFETCH(int, exitCode);
    QFETCH(QString, status);
    QFETCH(QString, category);
    QTemporaryDir dir;
    const QString spec = QDir(sampleDir()).filePath(sample + u".spec.json"_s);
    const QString input = QDir(sampleDir()).filePath(sample + u".input.txt"_s);
    const CliResult r = runCli({ u"run"_s, spec, u"--input-file"_s, input, u"--db"_s,
                                 dir.filePath(u"h.sqlite"_s), u"--allow-tool"_s, u"get_ticket"_s });
    QCOMPARE(r.exitCode, exitCode);
    QCOMPARE(r.json().value(u"status"_s).toString(), status);
    QCOMPARE(r.json().value(u"error_category"_s).toString(), category);
    if (sample == u"lunar-landing") {
        // The recording's first reply is cut off: the reask path recovers it.
        QCOMPARE(r.json().value(u"attempts"_s).toInt(), 2);
        QCOMPARE(r.json().value(u"parsed"_s).toObject().value(u"mass_kg"_s).toInt(), 1340);
        // A revision on the replay engine would get the same recording back: refused, with the
        // way out, and nothing new stored.
        const QString id = QString::number(r.json().value(u"call_id"_s).toInteger());
        const QString db = dir.filePath(u"h.sqlite"_s);
        const CliResult revised =
            runCli({ u"revise"_s, id, u"--correction"_s, u"Use pounds."_s, u"--db"_s, db });
        QCOMPARE(revised.exitCode, 1);
        QVERIFY2(
            revised.err.contains(QByteArray("call " + id.toUtf8() + " ran on the replay engine")),
            revised.err.constData());
        QVERIFY2(revised.err.contains("--engine PROFILE"), revised.err.constData());
        QVERIFY(revised.json().value(u"call_id"_s).isNull());
        const CliResult list = runCli({ u"history"_s, u"--db"_s, db });
        QCOMPARE(list.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(list.out).array().size(), 1);
        // Asking for a profile that does not exist says so.
        const CliResult elsewhere = runCli({ u"revise"_s, id, u"--correction"_s, u"Use pounds."_s,
                                             u"--engine"_s, u"no-such-profile"_s, u"--db"_s, db },
                                           {}, 30000, QProcessEnvironment());
        QCOMPARE(elsewhere.exitCode, 1);
        QVERIFY2(elsewhere.err.contains("no engine profile named \"no-such-profile\""),
                 elsewhere.err.constData());
    }
}

void TestCli::crashSafetyUnderSigkill()
{
    // A batch on the offline replay engine writes calls as fast as it can; it is killed at
    // random moments until 20 kills have hit a running batch. After each kill the database
    // must be intact and hold only whole calls.
    QTemporaryDir dir;
    const QString db = dir.filePath(u"crash.sqlite"_s);
    const QString inputs = dir.filePath(u"inputs.jsonl"_s);
    QFile f(inputs);
    QVERIFY(f.open(QIODevice::WriteOnly));
    for (int i = 0; i < 5000; ++i)
        f.write("\"Plan the work for ticket " + QByteArray::number(i) + "\"\n");
    f.close();
    const QString spec = QDir(sampleDir()).filePath(u"planner.spec.json"_s);
    QRandomGenerator rng(20261130);
    int kills = 0;
    int storedAtLeastOnce = 0;
    for (int round = 0; round < 60 && kills < 20; ++round) {
        QProcess process;
        process.setProgram(cliPath());
        process.setArguments({ u"batch"_s, spec, u"--inputs"_s, inputs, u"--db"_s, db,
                               u"--allow-tool"_s, u"get_ticket"_s });
        process.setStandardErrorFile(QProcess::nullDevice());
        process.start();
        QVERIFY(process.waitForStarted());
        // Kill points are states, not times: every third kill lands as soon as the process runs
        // (start-up and migration), the others after a chosen number of output lines, each of
        // which stands for a call the batch has finished, so the kill lands among the writes.
        const int linesBeforeKill = round % 3 == 0 ? 0 : int(rng.bounded(1, 40));
        int linesSeen = 0;
        while (linesSeen < linesBeforeKill && process.state() == QProcess::Running) {
            process.waitForReadyRead(200);
            linesSeen += int(process.readAllStandardOutput().count('\n'));
        }
        if (process.state() == QProcess::Running) {
            ::kill(pid_t(process.processId()), SIGKILL);
            ++kills;
        }
        process.waitForFinished(10000);
        if (!QFile::exists(db))
            continue;

        QSqlDatabase sql = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"crashcheck"_s);
        sql.setDatabaseName(db);
        QVERIFY(sql.open());
        {
            QSqlQuery q(sql);
            QVERIFY(q.exec(u"PRAGMA integrity_check"_s));
            QVERIFY(q.next());
            QCOMPARE(q.value(0).toString(), u"ok"_s);
            // Only finished calls, each with all three turns and attempts of the sample.
            QVERIFY(q.exec(
                u"SELECT COUNT(*) FROM calls WHERE status <> 'completed' OR finished_at IS NULL"_s));
            QVERIFY(q.next());
            QCOMPARE(q.value(0).toInt(), 0);
            QVERIFY(
                q.exec(u"SELECT COUNT(*) FROM calls c WHERE (SELECT COUNT(*) FROM call_turns t "
                       u"WHERE t.call_id = c.id) <> 3 "
                       u"OR (SELECT COUNT(*) FROM call_attempts a WHERE a.call_id = c.id) <> 3"_s));
            QVERIFY(q.next());
            QCOMPARE(q.value(0).toInt(), 0);
            QVERIFY(q.exec(u"SELECT COUNT(*) FROM calls"_s));
            QVERIFY(q.next());
            storedAtLeastOnce = std::max(storedAtLeastOnce, q.value(0).toInt());
        }
        sql.close();
        sql = QSqlDatabase();
        QSqlDatabase::removeDatabase(u"crashcheck"_s);

        auto opened = Database::open(db);
        QVERIFY2(opened, qPrintable(opened ? QString() : opened.error().message));
        CallStore store(*opened.value());
        auto integrity = store.checkIntegrity();
        QVERIFY(integrity);
        QVERIFY2(integrity.value().problems.isEmpty(),
                 qPrintable(integrity.value().problems.join(u"; "_s)));
    }
    QCOMPARE(kills, 20);
    QVERIFY2(storedAtLeastOnce > 0, "no call was ever stored: the kills never hit the writes");
    // A whole stored call reads back with its result.
    auto opened = Database::open(db);
    QVERIFY(opened);
    CallStore store(*opened.value());
    auto page = store.listCalls(HistoryQuery());
    QVERIFY(page && !page.value().rows.isEmpty());
    auto call = store.getCall(page.value().rows.first().id);
    QVERIFY(call);
    QCOMPARE(call.value().response.toObject().value(u"ticket_id"_s).toInt(), 7);
}

QTEST_GUILESS_MAIN(TestCli)
void TestCli::enginesTestThroughTheProbe()
{
    // Profiles in a settings folder of the test's own; no keychain at all (a bus that is not
    // there), so a key can come only from --key-env.
    Fixture fx;
    QProcessEnvironment env;
    const QString configHome = fx.dir.filePath(u"config"_s);
    env.insert(u"XDG_CONFIG_HOME"_s, configHome);
    env.insert(u"DBUS_SESSION_BUS_ADDRESS"_s, u"unix:path="_s + fx.dir.filePath(u"no-bus"_s));
    env.insert(u"CALLSCOPE_TEST_PROBE_KEY"_s, u"sk-probe-key-77"_s);
    const QString baseUrl = fx.server.baseUrl().toString();
    CliResult r = runCli({ u"engines"_s, u"add"_s, u"local"_s, u"--type"_s, u"openai-compatible"_s,
                           u"--model"_s, u"qwen"_s, u"--base-url"_s, baseUrl },
                         {}, 30000, env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    r = runCli({ u"engines"_s, u"add"_s, u"hosted"_s, u"--type"_s, u"openai"_s, u"--model"_s,
                 u"gpt-x"_s, u"--base-url"_s, baseUrl },
               {}, 30000, env);
    QVERIFY2(r.exitCode == 0, r.err.constData());

    // Connectivity, key and model: one minimal request, with the key from the variable.
    fx.server.enqueue(FakeReply::json(
        200,
        R"({"id":"c","object":"chat.completion","model":"qwen","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}],"usage":{"prompt_tokens":9,"completion_tokens":1,"total_tokens":10}})"));
    r = runCli(
        { u"engines"_s, u"test"_s, u"local"_s, u"--key-env"_s, u"CALLSCOPE_TEST_PROBE_KEY"_s }, {},
        30000, env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QJsonObject out = r.json();
    QVERIFY(out.value(u"duration_ms"_s).isDouble());
    out.remove(u"duration_ms"_s);
    QCOMPARE(out,
             (QJsonObject { { u"name"_s, u"local"_s },
                            { u"type"_s, u"openai-compatible"_s },
                            { u"model"_s, u"qwen"_s },
                            { u"key_source"_s, u"environment"_s },
                            { u"ok"_s, true },
                            { u"reply"_s, u"ok"_s } }));
    QCOMPARE(fx.server.requestCount(), 1);
    const QJsonObject body = fx.server.requests().at(0).jsonObject();
    QCOMPARE(body.value(u"model"_s).toString(), u"qwen"_s);
    QCOMPARE(body.value(u"max_tokens"_s).toInt(body.value(u"max_completion_tokens"_s).toInt()), 16);
    QCOMPARE(fx.server.requests().at(0).header("authorization"), "Bearer sk-probe-key-77"_ba);

    // The provider's refusal: classified, its own message kept, exit 1, one attempt only.
    fx.server.enqueue(FakeReply::json(
        401,
        R"({"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}})"));
    r = runCli(
        { u"engines"_s, u"test"_s, u"local"_s, u"--key-env"_s, u"CALLSCOPE_TEST_PROBE_KEY"_s }, {},
        30000, env);
    QCOMPARE(r.exitCode, 1);
    out = r.json();
    QCOMPARE(out.value(u"ok"_s), QJsonValue(false));
    QCOMPARE(out.value(u"sent"_s), QJsonValue(true));
    QCOMPARE(out.value(u"error_category"_s).toString(), u"auth"_s);
    QCOMPARE(out.value(u"http_status"_s).toInt(), 401);
    QCOMPARE(out.value(u"provider_type"_s).toString(), u"invalid_request_error"_s);
    QCOMPARE(out.value(u"message"_s).toString(), u"Incorrect API key provided"_s);
    QVERIFY2(r.err.startsWith("callscope-cli: engine 'local' failed the test: auth (HTTP 401)"),
             r.err.constData());
    QCOMPARE(fx.server.requestCount(), 2);

    // A variable that is unset and no keychain to fall back on: stopped before the network.
    r = runCli({ u"engines"_s, u"test"_s, u"hosted"_s, u"--key-env"_s,
                 u"CALLSCOPE_TEST_UNSET_VARIABLE"_s },
               {}, 30000, env);
    QCOMPARE(r.exitCode, 1);
    out = r.json();
    QCOMPARE(out.value(u"sent"_s), QJsonValue(false));
    QCOMPARE(out.value(u"error_category"_s).toString(), u"auth"_s);
    QCOMPARE(out.value(u"problems"_s).toArray().size(), 1);
    QVERIFY2(r.err.startsWith("callscope-cli: cannot test engine 'hosted' (nothing was sent): "),
             r.err.constData());
    QCOMPARE(fx.server.requestCount(), 2);

    // A profile whose model was emptied in the settings file: the check says so, nothing sent.
    const QString settingsFile = configHome + u"/Callscope/callscope.conf"_s;
    QFile file(settingsFile);
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(settingsFile));
    QByteArray settings = file.readAll();
    file.close();
    QVERIFY(settings.contains("model=qwen"));
    settings.replace("model=qwen", "model=");
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(settings);
    file.close();
    r = runCli(
        { u"engines"_s, u"test"_s, u"local"_s, u"--key-env"_s, u"CALLSCOPE_TEST_PROBE_KEY"_s }, {},
        30000, env);
    QCOMPARE(r.exitCode, 1);
    out = r.json();
    QCOMPARE(out.value(u"sent"_s), QJsonValue(false));
    QCOMPARE(out.value(u"model"_s).toString(), QString());
    QCOMPARE(out.value(u"problems"_s).toArray(),
             QJsonArray { u"The engine profile local names no model: set its model first."_s });
    QCOMPARE(fx.server.requestCount(), 2);

    // An unknown profile.
    r = runCli({ u"engines"_s, u"test"_s, u"nope"_s }, {}, 30000, env);
    QCOMPARE(r.exitCode, 1);
    QCOMPARE(r.err, "callscope-cli: no engine profile named 'nope'\n"_ba);
}

void TestCli::toolProgramsCheckedBeforeSending()
{
    // A command tool and an MCP server whose programs are not there: the run ends before the
    // first request, saying which and where to fix it.
    Fixture fx;
    const QJsonArray tools { QJsonObject {
                                 { u"name"_s, u"lookup"_s },
                                 { u"description"_s, u"Look up."_s },
                                 { u"command"_s,
                                   QJsonArray { u"callscope-no-such-program"_s, u"--json"_s } } },
                             QJsonObject { { u"name"_s, u"script"_s },
                                           { u"description"_s, u"A script beside the spec."_s },
                                           { u"command"_s, QJsonArray { u"./bin/script.sh"_s } } },
                             QJsonObject { { u"name"_s, u"search"_s },
                                           { u"description"_s, u"Search."_s },
                                           { u"mcp"_s, u"docs"_s } } };
    const QJsonObject servers {
        { u"docs"_s,
          QJsonObject { { u"command"_s, QJsonArray { u"callscope-no-such-mcp-server"_s } } } },
        { u"unused"_s,
          QJsonObject { { u"command"_s, QJsonArray { u"callscope-also-missing"_s } } } }
    };
    const QString spec = fx.writeSpec({ { u"tools"_s, tools }, { u"mcp_servers"_s, servers } });
    CliResult r =
        runCli({ u"run"_s, spec, u"--input"_s, u"x"_s, u"--db"_s, fx.dbPath, u"--trust"_s });
    QCOMPARE(r.exitCode, 1);
    QCOMPARE(fx.server.requestCount(), 0);
    const QString error = r.json().value(u"error"_s).toString();
    const QString folder = QDir::toNativeSeparators(QFileInfo(spec).absolutePath());
    QCOMPARE(
        error.split(u'\n'),
        (QStringList {
            u"The tool \"lookup\" cannot start: its program \"callscope-no-such-program\" was not "
            u"found on "
            u"PATH (or is not executable). Install it, or fix tools[0].command."_s,
            u"The tool \"script\" cannot start: its program \"./bin/script.sh\" was not found "
            u"relative "
            u"to %1 (or is not executable). Install it, or fix tools[1].command."_s.arg(folder),
            u"The MCP server \"docs\" cannot start: its program \"callscope-no-such-mcp-server\" "
            u"was not "
            u"found on PATH (or is not executable). Install it, or fix mcp_servers.docs.command."_s }));

    // With the programs in place (the script beside the spec, found from any working folder;
    // no MCP server), the same spec runs.
    QVERIFY(QDir(fx.dir.path()).mkpath(u"bin"_s));
    QFile script(fx.dir.filePath(u"bin/script.sh"_s));
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write("#!/bin/sh\necho ok\n");
    script.close();
    script.setPermissions(script.permissions() | QFileDevice::ExeOwner);
    const QJsonArray present { tools.at(1),
                               QJsonObject {
                                   { u"name"_s, u"shell"_s },
                                   { u"description"_s, u"A shell."_s },
                                   { u"command"_s, QJsonArray { u"sh"_s, u"-c"_s, u"true"_s } } } };
    const QString runnable = fx.writeSpec({ { u"tools"_s, present } });
    fx.server.enqueue(FakeReply::json(
        200, chatToolCall(u"c1"_s, u"submit_output"_s, { { u"title"_s, u"Done"_s } })));
    r = runCli({ u"run"_s, runnable, u"--input"_s, u"x"_s, u"--db"_s, fx.dbPath, u"--trust"_s });
    QVERIFY2(r.exitCode == 0, r.out.constData());
    QCOMPARE(fx.server.requestCount(), 1);
}

namespace {

// Processes (other than ours) whose environment holds `marker`.
QList<qint64> processesWithMarker(const QByteArray &marker)
{
    QList<qint64> found;
    const QStringList entries = QDir(u"/proc"_s).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        bool numeric = false;
        const qint64 pid = entry.toLongLong(&numeric);
        if (!numeric || pid == QCoreApplication::applicationPid())
            continue;
        QFile environ(u"/proc/%1/environ"_s.arg(pid));
        if (environ.open(QIODevice::ReadOnly) && environ.readAll().contains(marker))
            found.append(pid);
    }
    return found;
}

} // namespace

void TestCli::mcpToolsCallAndGracefulShutdown()
{
    QTemporaryDir dir;
    const QByteArray marker =
        "CALLSCOPE_MCP_MARKER=" + QByteArray::number(QRandomGenerator::global()->generate64());
    const QString fake = QDir(QStringLiteral(CALLSCOPE_SOURCE_DIR))
                             .filePath(u"tests/data/tools/fake_mcp_server.js"_s);
    const QJsonObject spec {
        { u"kind"_s, u"mcp-test"_s },
        { u"system_prompt"_s, u"x"_s },
        { u"mcp_servers"_s,
          QJsonObject {
              { u"fake"_s,
                QJsonObject {
                    { u"command"_s, QJsonArray { u"node"_s, fake } },
                    { u"env"_s,
                      QJsonObject { { QString::fromLatin1(marker.split('=').at(0)),
                                      QString::fromLatin1(marker.split('=').at(1)) } } } } } } },
        { u"engine"_s, QJsonObject { { u"type"_s, u"openai"_s }, { u"model"_s, u"m"_s } } }
    };
    const QString specPath = dir.filePath(u"spec.json"_s);
    QFile file(specPath);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(spec).toJson());
    file.close();

    CliResult r = runCli({ u"mcp"_s, u"tools"_s, specPath, u"fake"_s, u"--trust"_s });
    QCOMPARE(r.exitCode, 0);
    const QJsonArray tools = QJsonDocument::fromJson(r.out).array();
    QJsonObject wipe;
    for (const QJsonValue &tool : tools)
        if (tool.toObject().value(u"name"_s).toString() == u"wipe_disk")
            wipe = tool.toObject();
    QCOMPARE(wipe.value(u"needs_approval"_s).toBool(), true);
    QCOMPARE(wipe.value(u"annotations"_s).toObject().value(u"destructiveHint"_s).toBool(), true);
    QVERIFY2(!r.err.contains("QProcess"), r.err.constData());

    r = runCli({ u"mcp"_s, u"call"_s, specPath, u"fake"_s, u"--trust"_s, u"echo_args"_s,
                 u"--args"_s, u"{\"a\": 1}"_s });
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.json().value(u"content"_s).toString(), u"{\"a\":1}"_s);
    QCOMPARE(r.json().value(u"is_error"_s).toBool(), false);
    // The server was shut down before the CLI left: no warning, no process left behind.
    QVERIFY2(!r.err.contains("QProcess") && !r.err.contains("still running"), r.err.constData());
    // Its log notification went to stderr.
    QVERIFY2(r.err.contains("[fake] notifications/message {\"data\":\"hello\""), r.err.constData());
    QCOMPARE(processesWithMarker(marker), QList<qint64>());

    r = runCli({ u"mcp"_s, u"call"_s, specPath, u"fake"_s, u"typed_bad"_s, u"--trust"_s });
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.json().value(u"content"_s).toString().contains(u"outputSchema at /total"_s),
             r.out.constData());
}

void TestCli::mcpBadArgumentsAndSpecs()
{
    CliResult r = runCli({ u"mcp"_s, u"tools"_s, u"--url"_s, u"ftp://host/mcp"_s });
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("not an http:// or https:// URL"), r.err.constData());
    r = runCli({ u"mcp"_s, u"call"_s, u"--url"_s, u"http://127.0.0.1:9/mcp"_s, u"t"_s, u"--args"_s,
                 u"[1]"_s });
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("--args is not a JSON object"), r.err.constData());

    QTemporaryDir dir;
    const QString specPath = dir.filePath(u"spec.json"_s);
    QFile file(specPath);
    QVERIFY(file.open(QIODevice::WriteOnly));
    const QJsonObject far {
        { u"url"_s, u"http://127.0.0.1:9/mcp"_s },
        { u"auth"_s, QJsonObject { { u"bearer_env"_s, u"T"_s }, { u"token"_s, u"abc"_s } } },
        { u"approval"_s, u"sometimes"_s }
    };
    file.write(
        QJsonDocument(
            QJsonObject {
                { u"kind"_s, u"k"_s },
                { u"system_prompt"_s, u"x"_s },
                { u"engine"_s, QJsonObject { { u"type"_s, u"openai"_s }, { u"model"_s, u"m"_s } } },
                { u"mcp_servers"_s, QJsonObject { { u"far"_s, far } } } })
            .toJson());
    file.close();
    r = runCli({ u"mcp"_s, u"tools"_s, specPath, u"far"_s });
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("/mcp_servers/far/auth: a token does not belong in a spec file"),
             r.err.constData());
    QVERIFY2(r.err.contains("/mcp_servers/far/approval: unknown value \"sometimes\""),
             r.err.constData());
}

namespace {

// A program that leaves a marker file beside itself when it runs.
QString writeMarkerScript(const QString &folder, const QString &name, const QString &marker)
{
    const QString path = QDir(folder).filePath(name);
    QFile script(path);
    if (!script.open(QIODevice::WriteOnly))
        return {};
    script.write(u"#!/bin/sh\ntouch '%1'\necho '{\"ok\": true}'\n"_s.arg(marker).toUtf8());
    script.close();
    script.setPermissions(script.permissions() | QFileDevice::ExeOwner);
    return path;
}

QString writeJson(const QString &path, const QJsonObject &object)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {};
    f.write(QJsonDocument(object).toJson());
    return path;
}

// Settings, profiles and remembered trust of the test's own.
QProcessEnvironment isolatedEnvironment(const QTemporaryDir &dir)
{
    QProcessEnvironment env;
    env.insert(u"XDG_CONFIG_HOME"_s, dir.filePath(u"config"_s));
    env.insert(u"XDG_DATA_HOME"_s, dir.filePath(u"data"_s));
    return env;
}

QJsonObject plainSpec(const QJsonObject &engine)
{
    return { { u"kind"_s, u"k"_s }, { u"system_prompt"_s, u"Answer."_s }, { u"engine"_s, engine } };
}

QByteArray chatTextReply(const QString &text)
{
    return QJsonDocument(
               QJsonObject {
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
                     QJsonObject { { u"prompt_tokens"_s, 5 },
                                   { u"completion_tokens"_s, 1 },
                                   { u"total_tokens"_s, 6 } } } })
        .toJson(QJsonDocument::Compact);
}

QStringList lintRulesOf(const CliResult &r)
{
    QStringList rules;
    for (const QJsonValue &f : r.json().value(u"findings"_s).toArray())
        rules.append(f.toObject().value(u"rule"_s).toString());
    return rules;
}

// An anyOf fan-out: each level an anyOf of two references to the next.
QJsonObject fanOutSchema(int depth)
{
    QJsonObject defs;
    for (int i = 0; i < depth; ++i) {
        const QString next = u"#/$defs/l%1"_s.arg(i + 1);
        defs.insert(u"l%1"_s.arg(i),
                    QJsonObject { { u"anyOf"_s,
                                    QJsonArray { QJsonObject { { u"$ref"_s, next } },
                                                 QJsonObject { { u"$ref"_s, next } } } } });
    }
    defs.insert(u"l%1"_s.arg(depth), QJsonObject { { u"type"_s, u"string"_s } });
    return { { u"type"_s, u"object"_s },
             { u"properties"_s,
               QJsonObject { { u"v"_s, QJsonObject { { u"$ref"_s, u"#/$defs/l0"_s } } } } },
             { u"$defs"_s, defs } };
}

// A chain of references, each level only a $ref to the next.
QJsonObject refChainSchema(int length)
{
    QJsonObject defs;
    for (int i = 0; i < length; ++i)
        defs.insert(u"c%1"_s.arg(i), QJsonObject { { u"$ref"_s, u"#/$defs/c%1"_s.arg(i + 1) } });
    defs.insert(u"c%1"_s.arg(length), QJsonObject { { u"type"_s, u"string"_s } });
    return { { u"type"_s, u"object"_s },
             { u"properties"_s,
               QJsonObject { { u"v"_s, QJsonObject { { u"$ref"_s, u"#/$defs/c0"_s } } } } },
             { u"$defs"_s, defs } };
}

} // namespace

void TestCli::keyGoesOnlyToItsOwnOrigin()
{
    Fixture fx; // fx.server: the profile's own address
    FakeProvider other;
    QVERIFY(other.listen());
    QProcessEnvironment env = isolatedEnvironment(fx.dir);
    env.insert(u"GITHUB_TOKEN"_s, u"ghp_not_for_you"_s);
    const QString own = fx.server.baseUrl().toString();
    const QString elsewhere = other.baseUrl().toString();
    CliResult r = runCli({ u"engines"_s, u"add"_s, u"work"_s, u"--type"_s, u"openai"_s,
                           u"--model"_s, u"gpt-test"_s, u"--base-url"_s, own, u"--key-stdin"_s },
                         "sk-work-secret\n", 30000, env);
    QVERIFY2(r.exitCode == 0, r.err.constData());

    // The profile and another base_url: refused, the reason names both addresses.
    const QString redirect = writeJson(
        fx.dir.filePath(u"redirect.json"_s),
        plainSpec(
            { { u"profile"_s, u"work"_s }, { u"base_url"_s, elsewhere }, { u"stream"_s, false } }));
    r = runCli({ u"run"_s, redirect, u"--input"_s, u"x"_s, u"--no-store"_s }, {}, 30000, env);
    QCOMPARE(r.exitCode, 1);
    QString error = r.json().value(u"error"_s).toString();
    QVERIFY2(error.contains(u"\"work\""_s) && error.contains(u"127.0.0.1:%1"_s.arg(other.port())),
             qPrintable(error));
    QVERIFY2(error.contains(u"127.0.0.1:%1"_s.arg(fx.server.port())), qPrintable(error));
    QCOMPARE(other.requestCount(), 0);
    QCOMPARE(fx.server.requestCount(), 0);
    r = runCli({ u"lint"_s, redirect }, {}, 30000, env);
    QVERIFY2(lintRulesOf(r).contains(u"key-profile-redirect"_s), r.out.constData());

    // The profile and another engine type: refused as well.
    const QString retyped = writeJson(fx.dir.filePath(u"retyped.json"_s),
                                      plainSpec({ { u"profile"_s, u"work"_s },
                                                  { u"type"_s, u"openai-compatible"_s },
                                                  { u"stream"_s, false } }));
    r = runCli({ u"run"_s, retyped, u"--input"_s, u"x"_s, u"--no-store"_s }, {}, 30000, env);
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.json().value(u"error"_s).toString().contains(u"openai-compatible"_s),
             r.out.constData());
    QCOMPARE(other.requestCount(), 0);
    QCOMPARE(fx.server.requestCount(), 0);
    r = runCli({ u"lint"_s, retyped }, {}, 30000, env);
    QVERIFY2(lintRulesOf(r).contains(u"key-profile-redirect"_s), r.out.constData());

    // A variable that is not a provider key: refused with its name, before any request.
    const QString token = writeJson(fx.dir.filePath(u"token.json"_s),
                                    plainSpec({ { u"type"_s, u"openai"_s },
                                                { u"model"_s, u"m"_s },
                                                { u"base_url"_s, elsewhere },
                                                { u"api_key_env"_s, u"GITHUB_TOKEN"_s },
                                                { u"stream"_s, false } }));
    r = runCli({ u"run"_s, token, u"--input"_s, u"x"_s, u"--no-store"_s }, {}, 30000, env);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("GITHUB_TOKEN") && r.err.contains("--allow-key-env"),
             r.err.constData());
    QCOMPARE(other.requestCount(), 0);
    r = runCli({ u"lint"_s, token }, {}, 30000, env);
    QVERIFY2(lintRulesOf(r).contains(u"key-env-not-allowed"_s), r.out.constData());
    // An MCP server's bearer_env: the same rule, nothing started or sent.
    QJsonObject far;
    far.insert(u"url"_s, QString(elsewhere + u"/mcp"_s));
    far.insert(u"auth"_s, QJsonObject { { u"bearer_env"_s, u"GITHUB_TOKEN"_s } });
    QJsonObject bearerSpec = plainSpec({ { u"type"_s, u"openai"_s }, { u"model"_s, u"m"_s } });
    bearerSpec.insert(u"mcp_servers"_s, QJsonObject { { u"far"_s, far } });
    const QString bearer = writeJson(fx.dir.filePath(u"bearer.json"_s), bearerSpec);
    r = runCli({ u"mcp"_s, u"tools"_s, bearer, u"far"_s }, {}, 30000, env);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("GITHUB_TOKEN"), r.err.constData());
    QCOMPARE(other.requestCount(), 0);
    r = runCli({ u"lint"_s, bearer }, {}, 30000, env);
    QVERIFY2(lintRulesOf(r).contains(u"key-env-not-allowed"_s), r.out.constData());

    // Allowed by name: the variable's value goes where the spec says.
    other.enqueue(FakeReply::json(200, chatTextReply(u"{}"_s)));
    r = runCli({ u"run"_s, token, u"--input"_s, u"x"_s, u"--no-store"_s, u"--allow-key-env"_s,
                 u"GITHUB_TOKEN"_s },
               {}, 30000, env);
    QVERIFY2(r.exitCode == 0, r.out.constData());
    QCOMPARE(other.requestCount(), 1);
    QCOMPARE(other.requests().at(0).header("authorization"), "Bearer ghp_not_for_you"_ba);

    // The profile alone: its key goes to its own address.
    const QString plain =
        writeJson(fx.dir.filePath(u"plain.json"_s),
                  plainSpec({ { u"profile"_s, u"work"_s }, { u"stream"_s, false } }));
    fx.server.enqueue(FakeReply::json(200, chatTextReply(u"{}"_s)));
    r = runCli({ u"run"_s, plain, u"--input"_s, u"x"_s, u"--no-store"_s }, {}, 30000, env);
    QVERIFY2(r.exitCode == 0, r.out.constData());
    QCOMPARE(fx.server.requestCount(), 1);
    QCOMPARE(fx.server.requests().at(0).header("authorization"), "Bearer sk-work-secret"_ba);
    QCOMPARE(other.requestCount(), 1);
}

void TestCli::untrustedFilesStartNothing()
{
    Fixture fx;
    const QProcessEnvironment env = isolatedEnvironment(fx.dir);
    const QString marker = fx.dir.filePath(u"ran-marker"_s);
    writeMarkerScript(fx.dir.path(), u"evil.sh"_s, marker);
    // A command tool that needs approval, pre-seeded: it would run before the first request.
    const QJsonArray tools { QJsonObject {
        { u"name"_s, u"collect_context"_s },
        { u"description"_s, u"Collect."_s },
        { u"requires_approval"_s, true },
        { u"command"_s, QJsonArray { u"./evil.sh"_s, u"--all"_s } } } };
    const QString spec =
        fx.writeSpec({ { u"tools"_s, tools },
                       { u"pre_seeds"_s,
                         QJsonArray { QJsonObject { { u"tool"_s, u"collect_context"_s },
                                                    { u"arguments"_s, QJsonObject() } } } } });
    const QString folder = QFileInfo(spec).absolutePath();

    auto refused = [&](const CliResult &r) {
        QVERIFY2(r.exitCode == 2, r.err.constData());
        QVERIFY2(r.err.contains("./evil.sh --all"), r.err.constData());
        QVERIFY2(r.err.contains(QDir::toNativeSeparators(folder).toUtf8()), r.err.constData());
        QVERIFY2(r.err.contains("--trust"), r.err.constData());
        QVERIFY(!QFile::exists(marker));
        QCOMPARE(fx.server.requestCount(), 0);
    };
    refused(runCli({ u"run"_s, spec, u"--input"_s, u"x"_s, u"--db"_s, fx.dbPath }, {}, 30000, env));
    refused(runCli({ u"run"_s, spec, u"--input"_s, u"x"_s, u"--no-store"_s }, {}, 30000, env));
    const QString inputs = fx.dir.filePath(u"inputs.jsonl"_s);
    QFile in(inputs);
    QVERIFY(in.open(QIODevice::WriteOnly));
    in.write("\"a\"\n\"b\"\n");
    in.close();
    refused(
        runCli({ u"batch"_s, spec, u"--inputs"_s, inputs, u"--db"_s, fx.dbPath }, {}, 30000, env));

    // An MCP server over stdio named by the spec: not started by `mcp tools`.
    const QString serverMarker = fx.dir.filePath(u"server-marker"_s);
    writeMarkerScript(fx.dir.path(), u"server.sh"_s, serverMarker);
    const QString mcpSpec = writeJson(
        fx.dir.filePath(u"mcp.json"_s),
        QJsonObject {
            { u"kind"_s, u"k"_s },
            { u"system_prompt"_s, u"x"_s },
            { u"engine"_s, QJsonObject { { u"type"_s, u"openai"_s }, { u"model"_s, u"m"_s } } },
            { u"mcp_servers"_s,
              QJsonObject {
                  { u"local"_s,
                    QJsonObject { { u"command"_s, QJsonArray { u"./server.sh"_s } } } } } } });
    CliResult r = runCli({ u"mcp"_s, u"tools"_s, mcpSpec, u"local"_s }, {}, 30000, env);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("MCP server local") && r.err.contains("./server.sh"),
             r.err.constData());
    QVERIFY(!QFile::exists(serverMarker));

    // An experiment's command assertion: eval runs nothing.
    const QString assertMarker = fx.dir.filePath(u"assert-marker"_s);
    writeMarkerScript(fx.dir.path(), u"check.sh"_s, assertMarker);
    const QString experiment = writeJson(
        fx.dir.filePath(u"exp.json"_s),
        QJsonObject {
            { u"name"_s, u"e"_s },
            { u"spec"_s,
              QJsonObject { { u"kind"_s, u"k"_s },
                            { u"system_prompt"_s, u"x"_s },
                            { u"engine"_s,
                              QJsonObject { { u"type"_s, u"openai"_s },
                                            { u"model"_s, u"m"_s },
                                            { u"base_url"_s, fx.server.baseUrl().toString() },
                                            { u"api_key_env"_s, u"CALLSCOPE_TEST_API_KEY"_s },
                                            { u"stream"_s, false } } } } },
            { u"dataset"_s,
              QJsonArray { QJsonObject { { u"id"_s, u"one"_s }, { u"input"_s, u"hi"_s } } } },
            { u"assert"_s,
              QJsonArray { QJsonObject { { u"type"_s, u"command"_s },
                                         { u"command"_s, QJsonArray { u"./check.sh"_s } } } } } });
    r = runCli({ u"eval"_s, experiment, u"--db"_s, fx.dbPath }, {}, 30000, env);
    QVERIFY2(r.exitCode == 2, r.err.constData());
    QVERIFY2(r.err.contains("./check.sh"), r.err.constData());
    QVERIFY(!QFile::exists(assertMarker));
    QCOMPARE(fx.server.requestCount(), 0);

    // Trusted (--trust, or CALLSCOPE_TRUST=1): the run goes ahead, and the pre-seeded call of a
    // tool that needs approval is refused like any other unattended call of it.
    fx.server.enqueue(FakeReply::json(
        200, chatToolCall(u"c1"_s, u"submit_output"_s, { { u"title"_s, u"Done"_s } })));
    r = runCli({ u"run"_s, spec, u"--input"_s, u"x"_s, u"--no-store"_s, u"--trust"_s }, {}, 30000,
               env);
    QVERIFY2(r.exitCode == 0, r.out.constData());
    QCOMPARE(fx.server.requestCount(), 1);
    QVERIFY(!QFile::exists(marker));
    QVERIFY(fx.server.requests().at(0).body.contains("needs a person's approval"));
    QProcessEnvironment trusting = env;
    trusting.insert(u"CALLSCOPE_TRUST"_s, u"1"_s);
    fx.server.enqueue(FakeReply::json(
        200, chatToolCall(u"c1"_s, u"submit_output"_s, { { u"title"_s, u"Done"_s } })));
    r = runCli({ u"run"_s, spec, u"--input"_s, u"x"_s, u"--no-store"_s, u"--allow-tool"_s,
                 u"collect_context"_s },
               {}, 30000, trusting);
    QVERIFY2(r.exitCode == 0, r.out.constData());
    QVERIFY(QFile::exists(marker)); // allowed and trusted: it ran
    QFile::remove(marker);
    fx.server.enqueue(FakeReply::json(
        200, chatToolCall(u"c1"_s, u"submit_output"_s, { { u"title"_s, u"Done"_s } })));
    r = runCli({ u"eval"_s, experiment, u"--db"_s, fx.dbPath, u"--trust"_s }, {}, 30000, env);
    QVERIFY(QFile::exists(assertMarker));
}

void TestCli::reviseAsksBeforeRerunningTools()
{
    // A call made elsewhere with a command tool, imported here: revising it would run the tool
    // again, so it asks first (exit 2, nothing run, nothing sent).
    Fixture fx;
    const QProcessEnvironment env = isolatedEnvironment(fx.dir);
    const QString marker = fx.dir.filePath(u"ran-marker"_s);
    writeMarkerScript(fx.dir.path(), u"evil.sh"_s, marker);
    const QJsonArray tools { QJsonObject { { u"name"_s, u"lookup_item"_s },
                                           { u"description"_s, u"Look up."_s },
                                           { u"command"_s, QJsonArray { u"./evil.sh"_s } } } };
    const QString spec = fx.writeSpec({ { u"tools"_s, tools } });
    const QString theirs = fx.dir.filePath(u"theirs.sqlite"_s);
    fx.server.enqueue(FakeReply::json(
        200, chatToolCall(u"c1"_s, u"submit_output"_s, { { u"title"_s, u"Done"_s } })));
    CliResult r = runCli({ u"run"_s, spec, u"--input"_s, u"x"_s, u"--db"_s, theirs, u"--trust"_s },
                         {}, 30000, env);
    QVERIFY2(r.exitCode == 0, r.out.constData());
    const qint64 id = r.json().value(u"call_id"_s).toInteger();
    QVERIFY(id > 0);
    const QString exported = fx.dir.filePath(u"call.json"_s);
    r = runCli({ u"export"_s, QString::number(id), u"--db"_s, theirs, u"--out"_s, exported }, {},
               30000, env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    r = runCli({ u"import"_s, exported, u"--db"_s, fx.dbPath }, {}, 30000, env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonArray imported = r.json().value(u"calls"_s).toArray();
    const qint64 mine = imported.isEmpty() ? 0 : imported.first().toInteger();
    QVERIFY2(mine > 0, r.out.constData());
    QCOMPARE(fx.server.requestCount(), 1);

    fx.server.enqueue(FakeReply::json(200, chatToolCall(u"c2"_s, u"lookup_item"_s, {})));
    r = runCli(
        { u"revise"_s, QString::number(mine), u"--correction"_s, u"again"_s, u"--db"_s, fx.dbPath },
        {}, 30000, env);
    QVERIFY2(r.exitCode == 2, r.err.constData());
    QVERIFY2(r.err.contains("command tool lookup_item") && r.err.contains("./evil.sh"),
             r.err.constData());
    QCOMPARE(fx.server.requestCount(), 1);
    QVERIFY(!QFile::exists(marker));
}

void TestCli::trustAddListRevoke()
{
    // Trust remembered from the command line: add, list, revoke; a revoked file and an edited
    // file ask again (exit 2 with the list), before any request and before the program runs.
    Fixture fx;
    const QProcessEnvironment env = isolatedEnvironment(fx.dir);
    const QString marker = fx.dir.filePath(u"ran-marker"_s);
    writeMarkerScript(fx.dir.path(), u"collect.sh"_s, marker);
    const QJsonArray tools { QJsonObject {
        { u"name"_s, u"collect_context"_s },
        { u"description"_s, u"Collect."_s },
        { u"command"_s, QJsonArray { u"./collect.sh"_s, u"--all"_s } } } };
    const QJsonArray preSeeds { QJsonObject { { u"tool"_s, u"collect_context"_s },
                                              { u"arguments"_s, QJsonObject() } } };
    const QString spec = fx.writeSpec({ { u"tools"_s, tools }, { u"pre_seeds"_s, preSeeds } });
    const QString absolute = QFileInfo(spec).absoluteFilePath();
    const QByteArray done =
        chatToolCall(u"c1"_s, u"submit_output"_s, { { u"title"_s, u"Done"_s } });
    auto run = [&] {
        return runCli({ u"run"_s, spec, u"--input"_s, u"x"_s, u"--no-store"_s }, {}, 30000, env);
    };
    auto listed = [&]() -> QJsonArray {
        const CliResult r = runCli({ u"trust"_s, u"list"_s }, {}, 30000, env);
        if (r.exitCode != 0)
            qWarning("trust list: %s", r.err.constData());
        return r.json().value(u"trusted"_s).toArray();
    };
    auto asksAgain = [&](const CliResult &r, int requestsBefore) {
        QVERIFY2(r.exitCode == 2, r.err.constData());
        QVERIFY2(r.err.contains("./collect.sh --all") && r.err.contains("--trust"),
                 r.err.constData());
        QVERIFY(!QFile::exists(marker));
        QCOMPARE(fx.server.requestCount(), requestsBefore);
    };

    QCOMPARE(listed().size(), 0);
    asksAgain(run(), 0);

    // add: says what the file runs, and is remembered for this content in this folder.
    CliResult r = runCli({ u"trust"_s, u"add"_s, spec }, {}, 30000, env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(r.json().value(u"trusted"_s).toString(), absolute);
    const QString digest = r.json().value(u"sha256"_s).toString();
    QCOMPARE(digest.size(), 64);
    QVERIFY2(
        r.json().value(u"runs"_s).toArray().first().toString().contains(u"./collect.sh --all"_s),
        r.out.constData());
    QJsonArray list = listed();
    QCOMPARE(list.size(), 1);
    QCOMPARE(list.first()[u"file"_s].toString(), absolute);
    QCOMPARE(list.first()[u"folder"_s].toString(), QFileInfo(spec).absolutePath());
    QCOMPARE(list.first()[u"sha256"_s].toString(), digest);
    QVERIFY(QDateTime::fromString(list.first()[u"trusted_at"_s].toString(), Qt::ISODate).isValid());

    // Trusted: it runs without --trust (the pre-seeded tool leaves its marker).
    fx.server.enqueue(FakeReply::json(200, done));
    r = run();
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY(QFile::exists(marker));
    QCOMPARE(fx.server.requestCount(), 1);
    QFile::remove(marker);

    // Reformatted only: the same spec, still trusted.
    {
        QFile file(spec);
        QVERIFY(file.open(QIODevice::ReadWrite));
        const QByteArray compact =
            QJsonDocument::fromJson(file.readAll()).toJson(QJsonDocument::Compact);
        QVERIFY(file.resize(0));
        QVERIFY(file.write(compact) == compact.size());
    }
    fx.server.enqueue(FakeReply::json(200, done));
    r = run();
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY(QFile::exists(marker));
    QCOMPARE(fx.server.requestCount(), 2);
    QFile::remove(marker);

    // Revoked: forgotten, and the run asks again.
    r = runCli({ u"trust"_s, u"revoke"_s, spec }, {}, 30000, env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(r.json().value(u"revoked"_s).toInt(), 1);
    QCOMPARE(listed().size(), 0);
    asksAgain(run(), 2);
    // Nothing left to revoke under that path: said so, exit 2.
    r = runCli({ u"trust"_s, u"revoke"_s, spec }, {}, 30000, env);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("nothing is trusted under"), r.err.constData());

    // Trusted again, then edited (another argument for the program): a new content, so it
    // asks again, and the list still holds only the old content's digest.
    r = runCli({ u"trust"_s, u"add"_s, spec }, {}, 30000, env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(r.json().value(u"sha256"_s).toString(), digest);
    QJsonArray edited = tools;
    QJsonObject tool = edited.at(0).toObject();
    tool.insert(u"command"_s, QJsonArray { u"./collect.sh"_s, u"--all"_s, u"--upload"_s });
    edited.replace(0, tool);
    fx.writeSpec({ { u"tools"_s, edited }, { u"pre_seeds"_s, preSeeds } });
    r = run();
    QVERIFY2(r.exitCode == 2, r.err.constData());
    QVERIFY2(r.err.contains("./collect.sh --all --upload"), r.err.constData());
    QVERIFY(!QFile::exists(marker));
    QCOMPARE(fx.server.requestCount(), 2);
    list = listed();
    QCOMPARE(list.size(), 1);
    QCOMPARE(list.first()[u"sha256"_s].toString(), digest);

    // The same content copied to another folder is not trusted there either.
    r = runCli({ u"trust"_s, u"add"_s, spec }, {}, 30000, env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(listed().size(), 1); // the file's older answer was replaced
    QDir(fx.dir.path()).mkdir(u"copy"_s);
    const QString copy = fx.dir.filePath(u"copy/spec.json"_s);
    QVERIFY(QFile::copy(spec, copy));
    writeMarkerScript(fx.dir.filePath(u"copy"_s), u"collect.sh"_s, marker);
    r = runCli({ u"run"_s, copy, u"--input"_s, u"x"_s, u"--no-store"_s }, {}, 30000, env);
    QVERIFY2(r.exitCode == 2, r.err.constData());
    QVERIFY(!QFile::exists(marker));

    // Revoking by folder, then --all.
    r = runCli({ u"trust"_s, u"revoke"_s, fx.dir.path() }, {}, 30000, env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(r.json().value(u"revoked"_s).toInt(), 1);
    QVERIFY(runCli({ u"trust"_s, u"add"_s, spec }, {}, 30000, env).exitCode == 0);
    QVERIFY(runCli({ u"trust"_s, u"add"_s, copy }, {}, 30000, env).exitCode == 0);
    QCOMPARE(listed().size(), 2);
    r = runCli({ u"trust"_s, u"revoke"_s, u"--all"_s }, {}, 30000, env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(r.json().value(u"revoked"_s).toInt(), 2);
    QCOMPARE(listed().size(), 0);

    // Bad input: a file that is not a spec, no file, an unknown verb.
    const QString broken = fx.dir.filePath(u"broken.json"_s);
    QFile brokenFile(broken);
    QVERIFY(brokenFile.open(QIODevice::WriteOnly));
    brokenFile.write("{\"kind\": 3");
    brokenFile.close();
    r = runCli({ u"trust"_s, u"add"_s, broken }, {}, 30000, env);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("does not load"), r.err.constData());
    QCOMPARE(listed().size(), 0);
    QCOMPARE(runCli({ u"trust"_s, u"add"_s, fx.dir.filePath(u"missing.json"_s) }, {}, 30000, env)
                 .exitCode,
             2);
    QCOMPARE(runCli({ u"trust"_s, u"forget"_s }, {}, 30000, env).exitCode, 2);
    QCOMPARE(fx.server.requestCount(), 2);
}

void TestCli::hostileSchemasRefusedAtLoad()
{
    Fixture fx;
    const QProcessEnvironment env = isolatedEnvironment(fx.dir);
    // validate on the fan-out at depth 25: refused at once (a whole process in well under ten
    // seconds even on a busy machine; checked through, it would run for hours).
    const QString schema25 = writeJson(fx.dir.filePath(u"fan25.json"_s), fanOutSchema(25));
    const QString instance =
        writeJson(fx.dir.filePath(u"instance.json"_s), QJsonObject { { u"v"_s, 7 } });
    QElapsedTimer clock;
    clock.start();
    CliResult r = runCli({ u"validate"_s, schema25, instance }, {}, 30000, env);
    const qint64 validateMs = clock.elapsed();
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("too expensive to check"), r.err.constData());
    QVERIFY2(validateMs < 10000, qPrintable(QString::number(validateMs)));
    qInfo("validate, fan-out depth 25: %lld ms", validateMs);

    // run with the fan-out at depth 40, and with a 10,000-level $ref chain: refused when the
    // spec loads (exit 2), no request, no paid turn; lint reports the same.
    const struct
    {
        QString name;
        QJsonObject schema;
        QByteArray says;
    } cases[] = { { u"fan40"_s, fanOutSchema(40), "too expensive to check" },
                  { u"chain10000"_s, refChainSchema(10000), "levels deep" },
                  { u"chain500"_s, refChainSchema(500), "levels deep" } };
    for (const auto &c : cases) {
        const QString spec = fx.writeSpec({ { u"response_schema"_s, c.schema } });
        clock.restart();
        r = runCli({ u"run"_s, spec, u"--input"_s, u"x"_s, u"--db"_s, fx.dbPath }, {}, 30000, env);
        QVERIFY2(r.exitCode == 2, qPrintable(c.name + u": "_s + QString::fromUtf8(r.err)));
        QVERIFY2(r.err.contains(c.says), r.err.constData());
        QVERIFY2(clock.elapsed() < 10000, qPrintable(c.name));
        QCOMPARE(fx.server.requestCount(), 0);
        r = runCli({ u"lint"_s, spec }, {}, 30000, env);
        QVERIFY2(r.exitCode == 2 && r.err.contains(c.says),
                 qPrintable(c.name + u": "_s + QString::fromUtf8(r.err)));
        // validate agrees with run (the same schema, alone).
        const QString alone = writeJson(fx.dir.filePath(c.name + u".schema.json"_s), c.schema);
        r = runCli({ u"validate"_s, alone, instance }, {}, 30000, env);
        QVERIFY2(r.exitCode == 2 && r.err.contains(c.says),
                 qPrintable(c.name + u": "_s + QString::fromUtf8(r.err)));
    }
}

namespace {

// CPU time (user + system) of a process, in clock ticks.
qint64 cpuTicks(qint64 pid)
{
    QFile stat(u"/proc/%1/stat"_s.arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray text = stat.readAll();
    const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
    return fields.size() > 12 ? fields.at(11).toLongLong() + fields.at(12).toLongLong() : -1;
}

// Every item fails a 12-level anyOf fan-out, so each branch is reported: checking the answer
// takes the validator's whole work budget (seconds), with nothing refused at load.
QJsonObject expensiveAnswerSchema()
{
    QJsonObject defs;
    constexpr int kDepth = 12;
    for (int i = 0; i < kDepth; ++i) {
        const QString next = u"#/$defs/l%1"_s.arg(i + 1);
        defs.insert(u"l%1"_s.arg(i),
                    QJsonObject { { u"anyOf"_s,
                                    QJsonArray { QJsonObject { { u"$ref"_s, next } },
                                                 QJsonObject { { u"$ref"_s, next } } } } });
    }
    defs.insert(u"l%1"_s.arg(kDepth), QJsonObject { { u"type"_s, u"string"_s } });
    QJsonObject items { { u"type"_s, u"array"_s },
                        { u"items"_s, QJsonObject { { u"$ref"_s, u"#/$defs/l0"_s } } } };
    return { { u"type"_s, u"object"_s },
             { u"properties"_s, QJsonObject { { u"title"_s, items } } },
             { u"required"_s, QJsonArray { u"title"_s } },
             { u"$defs"_s, defs } };
}

} // namespace

void TestCli::sigtermEndsRunInsideValidation()
{
    Fixture fx;
    const QString spec = fx.writeSpec(
        { { u"response_schema"_s, expensiveAnswerSchema() }, { u"tools"_s, QJsonArray() } });
    QJsonArray numbers;
    for (int i = 0; i < 400; ++i)
        numbers.append(i);
    fx.server.enqueue(FakeReply::json(
        200, chatToolCall(u"c1"_s, u"submit_output"_s, { { u"title"_s, numbers } })));

    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"CALLSCOPE_TEST_API_KEY"_s, u"sk-cli-test-key"_s);
    process.setProcessEnvironment(env);
    QSignalSpy finished(&process, &QProcess::finished);
    process.start(cliPath(), { u"run"_s, spec, u"--input"_s, u"x"_s, u"--db"_s, fx.dbPath });
    QVERIFY(process.waitForStarted(5000));
    process.closeWriteChannel();
    QTRY_VERIFY_WITH_TIMEOUT(fx.server.requestCount() == 1, 15000);
    // Inside the check: the reply is in, and the process burns CPU without finishing.
    const qint64 atReply = cpuTicks(process.processId());
    QVERIFY(atReply >= 0);
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1 || cpuTicks(process.processId()) - atReply >= 30,
                             15000);
    QVERIFY2(finished.isEmpty(), "the check ended before it could be interrupted");
    QElapsedTimer clock;
    clock.start();
    ::kill(pid_t(process.processId()), SIGTERM);
    QVERIFY(finished.count() == 1 || finished.wait(10000));
    const qint64 ms = clock.elapsed();
    qInfo("run ended %lld ms after SIGTERM, inside validation", ms);
    QVERIFY2(ms < 3000, qPrintable(QString::number(ms))); // about 60 ms on an idle machine
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(fx.server.requestCount(), 1);
}

// A promptfoo configuration through the real binary: convert writes the experiment, eval runs it
// and the YAML file alike; unsupported parts are listed with their places, exit 2, nothing sent.
void TestCli::promptfooConvertThenEval()
{
    FakeProvider server;
    QVERIFY(server.listen());
    server.setResponder([](const RecordedRequest &request) {
        const QString user = request.jsonObject()
                                 .value(u"messages"_s)
                                 .toArray()
                                 .last()
                                 .toObject()
                                 .value(u"content"_s)
                                 .toString();
        return FakeReply::json(200,
                               chatTextReply(user.contains(u"blue"_s) ? u"Blue."_s : u"Red."_s));
    });
    QTemporaryDir dir;
    const QByteArray base = server.baseUrl().toString().toUtf8();
    const QByteArray config = "description: colours\n"
                              "prompts:\n"
                              "  - \"Say {{colour}}.\"\n"
                              "providers:\n"
                              "  - id: openai:chat:gpt-4.1-mini\n"
                              "    config:\n"
                              "      apiBaseUrl: "
        + base
        + "/v1\n"
          "      apiKeyEnvar: CALLSCOPE_TEST_API_KEY\n"
          "tests:\n"
          "  - description: blue\n"
          "    vars: {colour: blue}\n"
          "    assert:\n"
          "      - type: icontains\n"
          "        value: BLUE\n"
          "  - description: red\n"
          "    vars: {colour: red}\n"
          "    assert:\n"
          "      - type: not-icontains\n"
          "        value: red\n";
    const QString yaml = dir.filePath(u"promptfooconfig.yaml"_s);
    QFile file(yaml);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(config);
    file.close();

    const QString experiment = dir.filePath(u"experiment.json"_s);
    const CliResult converted = runCli({ u"convert"_s, yaml, u"--out"_s, experiment });
    QVERIFY2(converted.exitCode == 0, converted.err.constData());
    QCOMPARE(server.requestCount(), 0);
    QFile written(experiment);
    QVERIFY(written.open(QIODevice::ReadOnly));
    const QJsonObject exp = QJsonDocument::fromJson(written.readAll()).object();
    QCOMPARE(exp.value(u"variants"_s).toArray().at(0).toObject().value(u"input"_s).toString(),
             u"Say {{colour}}."_s);
    QCOMPARE(exp.value(u"dataset"_s).toArray().size(), 2);

    const QString db = dir.filePath(u"h.sqlite"_s);
    for (const QString &path : { experiment, yaml }) {
        const CliResult eval =
            runCli({ u"eval"_s, path, u"--db"_s, db, u"--no-cache"_s }, {}, 60000);
        // blue passes; red answers "Red.", which the negated check refuses.
        QVERIFY2(eval.exitCode == 1, eval.err.constData());
        const QJsonArray cells = eval.json().value(u"cells"_s).toArray();
        QCOMPARE(cells.size(), 2);
        QCOMPARE(cells.at(0).toObject().value(u"case"_s).toString(), u"blue"_s);
        QCOMPARE(cells.at(0).toObject().value(u"passed"_s).toBool(), true);
        QCOMPARE(cells.at(1).toObject().value(u"passed"_s).toBool(), false);
    }
    const qsizetype sent = server.requestCount();
    QCOMPARE(sent, 4);

    // A Python assertion and an unknown provider: listed with file:line and key path, exit 2.
    QVERIFY(file.open(QIODevice::Append));
    file.write("      - type: python\n"
               "        value: output == 'Red.'\n");
    file.close();
    const CliResult refused = runCli({ u"eval"_s, yaml, u"--db"_s, db });
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.err.contains("promptfooconfig.yaml:20 /tests/1/assert/1: a Python assertion"),
             refused.err.constData());
    QVERIFY(refused.err.contains("--skip-unsupported"));
    QCOMPARE(server.requestCount(), sent);
    QFile::remove(experiment);
    const CliResult notWritten = runCli({ u"convert"_s, yaml, u"--out"_s, experiment });
    QCOMPARE(notWritten.exitCode, 2);
    QVERIFY(notWritten.err.contains("/tests/1/assert/1"));
    QVERIFY(!QFile::exists(experiment));
    // Asked to, it runs the rest and says what it left out.
    const CliResult skipped = runCli(
        { u"eval"_s, yaml, u"--db"_s, db, u"--skip-unsupported"_s, u"--no-cache"_s }, {}, 60000);
    QVERIFY2(skipped.exitCode == 1, skipped.err.constData());
    QVERIFY(skipped.err.contains("left out of"));
    QCOMPARE(server.requestCount(), sent + 2);
}

#include "tst_cli.moc"
