// Experiments: every assertion type (pass and fail), the loader (datasets in JSONL, CSV and
// inline, variant kinds, errors with where they are), and callscope-cli eval end to end
// against the fake provider on its own thread: exact summary, cells, --out lines, JUnit
// counts, exit codes, a bad experiment that sends nothing, and --resume after SIGKILL.

#include "core/eval/assertions.h"
#include "core/eval/baseline.h"
#include "core/eval/experiment.h"
#include "core/eval/pricetable.h"
#include "core/eval/promptfooimport.h"
#include "core/eval/review.h"
#include "core/eval/scripting.h"
#include "core/eval/statistics.h"
#include "core/schema/jsonschema.h"
#include "core/store/callstore.h"
#include "core/store/database.h"
#include "tests/support/fakebatchapi.h"
#include "tests/support/fakepromptcache.h"
#include "tests/support/fakeprovider.h"
#include "tests/support/testsupport.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QDomDocument>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMap>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <functional>

using namespace Qt::StringLiterals;
using namespace Callscope;
using namespace Callscope::Test;

namespace {

QJsonObject parse(const QByteArray &json)
{
    return QJsonDocument::fromJson(json).object();
}

// A finished call: output {"title": "Fix login", "tags": ["ui", "auth"], "n": 3}, tools
// get_ticket(id 7) then submit_output, 2 turns, 150 + 30 tokens, 1.2 s.
CallRecord sampleCall()
{
    CallRecord r;
    r.kind = u"planner"_s;
    r.engineType = u"openai"_s;
    r.model = u"fake-model"_s;
    r.input = QJsonObject { { u"text"_s, u"Plan ticket 7"_s } };
    r.status = CallStatus::Completed;
    r.response = parse(R"({"title":"Fix login","tags":["ui","auth"],"n":3})");
    ToolCall ticket;
    ticket.id = u"c1"_s;
    ticket.name = u"get_ticket"_s;
    ticket.arguments = parse(R"({"id":7,"verbose":true})");
    ToolCall submit;
    submit.id = u"c2"_s;
    submit.name = u"submit_output"_s;
    submit.arguments = r.response.toObject();
    r.messages = messagesToJson({ Message::user(u"Plan ticket 7"_s),
                                  Message::assistant(QString(), { ticket }),
                                  Message::assistant(QString(), { submit }) });
    TurnRecord second;
    second.index = 1;
    r.turns = { TurnRecord(), second };
    r.usage.inputTokens = 150;
    r.usage.outputTokens = 30;
    r.createdAt = QDateTime::fromMSecsSinceEpoch(1000000, Qt::UTC);
    r.finishedAt = r.createdAt.addMSecs(1200);
    return r;
}

Assertion assertion(const QByteArray &json)
{
    Assertion a;
    a.params = parse(json);
    a.type = a.params.value(u"type"_s).toString();
    a.name = a.type;
    return a;
}

bool writeFile(const QString &path, const QByteArray &data)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(data) == data.size();
}

struct CliRun
{
    int exit = -1;
    QJsonObject summary;
    QByteArray err;
};

CliRun runEval(const QStringList &args, const QHash<QString, QString> &extraEnv = {})
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"CALLSCOPE_EVAL_API_KEY"_s, u"sk-eval"_s);
    for (auto it = extraEnv.cbegin(); it != extraEnv.cend(); ++it)
        env.insert(it.key(), it.value());
    process.setProcessEnvironment(env);
    process.start(cliPath(), QStringList { u"eval"_s } + args);
    process.closeWriteChannel();
    if (!process.waitForFinished(120000))
        process.kill();
    CliRun r;
    r.exit = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    r.summary = QJsonDocument::fromJson(process.readAllStandardOutput()).object();
    r.err = process.readAllStandardError();
    return r;
}

// The provider for the end-to-end runs: get_ticket first; then the title decides: inputs
// with "pass" get "ok", with "fail" get "bad", with "flaky" alternate ok, bad, ok, ... per input.
FakeProvider::Responder scriptedResponder(int delayMs)
{
    auto counts = std::make_shared<QHash<QString, int>>();
    return [counts, delayMs](const RecordedRequest &request) {
        const QJsonArray messages = request.jsonObject().value(u"messages"_s).toArray();
        QString input;
        bool hasToolResult = false;
        for (const QJsonValue &m : messages) {
            const QJsonObject message = m.toObject();
            if (message.value(u"role"_s).toString() == u"user"_s && input.isEmpty())
                input = message.value(u"content"_s).toString();
            hasToolResult |= message.value(u"role"_s).toString() == u"tool"_s;
        }
        FakeReply reply;
        if (!hasToolResult) {
            reply = FakeReply::json(
                200, openAiToolCallBody(u"call_1"_s, u"get_ticket"_s, { { u"id"_s, 7 } }));
        } else {
            QString title = u"bad"_s;
            if (input.contains(u"pass"_s))
                title = u"ok"_s;
            else if (input.contains(u"flaky"_s))
                title = (*counts)[input]++ % 2 == 0 ? u"ok"_s : u"bad"_s;
            reply = FakeReply::json(
                200,
                openAiToolCallBody(u"call_2"_s, u"submit_output"_s, { { u"title"_s, title } }));
        }
        if (delayMs > 0)
            reply.delayedBy(delayMs);
        return reply;
    };
}

// A batch experiment: the two-turn spec on `type`/`model`, `cases` cases (every fifth one
// fails its assertion), via `via`.
void writeBatchExperiment(const QTemporaryDir &dir, const QUrl &base, const QString &type,
                          const QString &model, int cases, const QString &via)
{
    QJsonObject spec = twoTurnSpecJson(base, u"CALLSCOPE_EVAL_API_KEY"_s, model);
    QJsonObject engine = spec.value(u"engine"_s).toObject();
    engine.insert(u"type"_s, type);
    spec.insert(u"engine"_s, engine);
    QFile specFile(dir.filePath(u"planner.spec.json"_s));
    QVERIFY(specFile.open(QIODevice::WriteOnly | QIODevice::Truncate));
    specFile.write(QJsonDocument(spec).toJson());
    specFile.close();
    QByteArray lines;
    for (int i = 1; i <= cases; ++i)
        lines += "{\"id\":\"c" + QByteArray::number(i) + "\",\"input\":\"Plan the "
            + (i % 5 == 0 ? "fail" : "pass") + " ticket " + QByteArray::number(i) + "\"}\n";
    QFile casesFile(dir.filePath(u"cases.jsonl"_s));
    QVERIFY(casesFile.open(QIODevice::WriteOnly | QIODevice::Truncate));
    casesFile.write(lines);
    casesFile.close();
    const QJsonObject experiment {
        { u"name"_s, QString(u"batch-"_s + type) },
        { u"spec"_s, u"planner.spec.json"_s },
        { u"dataset"_s, u"cases.jsonl"_s },
        { u"jobs"_s, 16 },
        { u"via"_s, via },
        { u"assert"_s,
          QJsonArray {
              QJsonObject { { u"type"_s, u"equals"_s },
                            { u"pointer"_s, u"/title"_s },
                            { u"value"_s, u"ok"_s } },
              QJsonObject { { u"type"_s, u"tool_sequence"_s },
                            { u"names"_s, QJsonArray { u"get_ticket"_s, u"submit_output"_s } } } } }
    };
    QFile expFile(dir.filePath(u"exp.json"_s));
    QVERIFY(expFile.open(QIODevice::WriteOnly | QIODevice::Truncate));
    expFile.write(QJsonDocument(experiment).toJson());
}

// A summary without what differs between a direct and a batch run of the same experiment:
// ids, prices, latency, costs (batch prices) and the batch section.
QJsonObject comparable(QJsonObject summary)
{
    summary.remove(u"experiment_id"_s);
    summary.remove(u"batch"_s);
    summary.remove(u"prices"_s);
    QJsonArray variants;
    for (const QJsonValue &v : summary.value(u"variants"_s).toArray()) {
        QJsonObject o = v.toObject();
        for (const char *key : { "cost_usd", "cost_direct_usd", "batch_saved_usd", "batch_runs",
                                 "latency_ms", "cost_uncached_usd", "cache_saved_usd" })
            o.remove(QString::fromLatin1(key));
        variants.append(o);
    }
    summary.insert(u"variants"_s, variants);
    QJsonArray cells;
    for (const QJsonValue &c : summary.value(u"cells"_s).toArray()) {
        QJsonObject cell = c.toObject();
        QJsonArray runs;
        for (const QJsonValue &r : cell.value(u"runs"_s).toArray()) {
            QJsonObject run = r.toObject();
            run.remove(u"call_id"_s);
            run.remove(u"latency_ms"_s);
            run.remove(u"cost_usd"_s);
            run.remove(u"cost_uncached_usd"_s);
            runs.append(run);
        }
        cell.insert(u"runs"_s, runs);
        cell.remove(u"cost_usd"_s);
        cell.remove(u"cost_uncached_usd"_s);
        cells.append(cell);
    }
    summary.insert(u"cells"_s, cells);
    return summary;
}

const QHash<QString, QString> kFastPolls { { u"CALLSCOPE_BATCH_POLL_MS"_s, u"20,200"_s } };

int sqlCount(const QString &db, const QString &sql)
{
    auto opened = Database::open(db);
    if (!opened)
        return -1;
    QSqlQuery query((*opened)->connection());
    if (!query.exec(sql) || !query.next())
        return -1;
    return query.value(0).toInt();
}

// OpenAPI 3.0 leftovers in the OpenAI document, read as JSON Schema 2020-12.
QJsonValue openApiAsJsonSchema(const QJsonValue &value)
{
    if (value.isArray()) {
        QJsonArray out;
        for (const QJsonValue &item : value.toArray())
            out.append(openApiAsJsonSchema(item));
        return out;
    }
    if (!value.isObject())
        return value;
    QJsonObject object = value.toObject();
    for (auto it = object.begin(); it != object.end(); ++it)
        it.value() = openApiAsJsonSchema(it.value());
    if (object.contains(u"discriminator"_s) && object.contains(u"oneOf"_s)) {
        object.insert(u"anyOf"_s, object.value(u"oneOf"_s));
        object.remove(u"oneOf"_s);
    }
    if (object.value(u"nullable"_s).toBool()) {
        object.remove(u"nullable"_s);
        const QJsonValue type = object.value(u"type"_s);
        if (type.isString())
            object.insert(u"type"_s, QJsonArray { type, u"null"_s });
    }
    return object;
}

// Validates OpenAI batch input files line by line ({custom_id, method, url, body}, the body
// against `bodySchema` of the OpenAI document) and the create bodies (CreateBatchRequest).
// Returns the number of lines checked; -1 after a failure (reported through QTest).
int validateOpenAiBatchFiles(const QList<QByteArray> &uploads, const QList<QJsonObject> &creates,
                             const QString &bodySchema)
{
    int checked = -1;
    [&] {
        const QString path = sharedDataPath(u"openai-openapi.json"_s);
        QVERIFY2(!path.isEmpty(), qPrintable(lastError()));
        const QUrl base(u"https://callscope.invalid/openai-openapi.json"_s);
        SchemaRegistry registry;
        registry.addDocument(base, openApiAsJsonSchema(readJson(path)));
        SchemaCompiler compiler(registry);
        const auto compileRef = [&](const QString &name) {
            return compiler.compile(
                QJsonObject {
                    { u"$ref"_s, QString(base.toString() + u"#/components/schemas/"_s + name) } },
                QUrl(u"https://callscope.invalid/root.json"_s));
        };
        const CompiledSchema body = compileRef(bodySchema);
        const CompiledSchema create = compileRef(u"CreateBatchRequest"_s);
        QVERIFY2(body.isValid() && create.isValid(),
                 qPrintable(body.errorString() + create.errorString()));
        // BatchRequestInput as the batch guide documents it (the current document no longer has
        // it).
        const CompiledSchema envelope =
            compiler.compile(QJsonDocument::fromJson(R"({
            "type": "object", "required": ["custom_id", "method", "url", "body"], "additionalProperties": false,
            "properties": { "custom_id": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$"},
                            "method": {"const": "POST"},
                            "url": {"enum": ["/v1/chat/completions", "/v1/responses"]},
                            "body": {"type": "object"} } })")
                                 .object(),
                             QUrl(u"https://callscope.invalid/line.json"_s));
        QVERIFY(envelope.isValid());
        const QString url =
            bodySchema == u"CreateResponse"_s ? u"/v1/responses"_s : u"/v1/chat/completions"_s;
        int count = 0;
        for (const QByteArray &file : uploads) {
            QSet<QString> ids;
            for (const QByteArray &line : file.split('\n')) {
                if (line.isEmpty())
                    continue;
                const QJsonObject entry = QJsonDocument::fromJson(line).object();
                QVERIFY2(envelope.validate(entry).valid, line.constData());
                QCOMPARE(entry.value(u"url"_s).toString(), url);
                const SchemaValidationResult b = body.validate(entry.value(u"body"_s));
                QVERIFY2(b.valid,
                         qPrintable(formatErrorsForModel(b.errors, 10) + u"\n"_s
                                    + QString::fromUtf8(line)));
                QVERIFY(!entry.value(u"body"_s).toObject().value(u"stream"_s).toBool());
                ids.insert(entry.value(u"custom_id"_s).toString());
                ++count;
            }
            QCOMPARE(ids.size(), file.count('\n')); // custom ids are unique within a file
        }
        for (const QJsonObject &c : creates) {
            QVERIFY2(create.validate(c).valid, QJsonDocument(c).toJson().constData());
            QCOMPARE(c.value(u"endpoint"_s).toString(), url);
        }
        checked = count;
    }();
    return checked;
}

} // namespace

class TestEval final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void assertions_data();
    void assertions();
    void assertionChecks_data();
    void assertionChecks();
    void commandAssertion();
    void vars();
    void datasetsAndVariants();
    void badExperiments_data();
    void badExperiments();
    void evalEndToEnd();
    void badExperimentSendsNothing();
    void resumeAfterKill();
    void judgeDecidesAndIsStored();
    void cohensKappaByHand();
    void reviewLabelsInSummaryAndOut();
    void pricesAndCost();
    void batchTwoTurnLoop_data();
    void batchTwoTurnLoop();
    void batchExpiredAndErroredLines_data();
    void batchExpiredAndErroredLines();
    void batchResumeAfterKill_data();
    void batchResumeAfterKill();
    void batchSplitByLineLimit();
    void batchCancelOnProvider();
    void batchSubmitUnknown_data();
    void batchSubmitUnknown();
    void weightsScore();
    void randomKillsNeverPayTwice();
    void secondResumeIsRefused();
    void statisticsByHand();
    void statisticsCoverage();
    void pairedComparisonPlanted();
    void baselineRegressions();
    void baselineByHand();
    void responseCache();
    void javascriptAssertions();
    void javascriptInAnExperiment();
    void fakeCachesAsDocumented();
    void cacheThreeTurnToolLoopAnthropic();
    void cacheCountedOnceOpenAIAndGemini_data();
    void cacheCountedOnceOpenAIAndGemini();
    void cacheExperimentVarsFirstBreaksTheCache();
    void cacheGeminiExplicitBatch();
    void cacheGeminiExplicitBatchEndsBadly();
    void cacheGeminiExplicitExperiment();
    void judgeVerdictNotBoughtAgainOnResume();
    void promptfooConversion_data();
    void promptfooConversion();
    void promptfooUnsupportedPlaces();
    void promptfooSuitesRun_data();
    void promptfooSuitesRun();
};

void TestEval::assertions_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<bool>("passes");
    QTest::newRow("equals pass") << R"({"type":"equals","pointer":"/title","value":"Fix login"})"_ba
                                 << true;
    QTest::newRow("equals fail") << R"({"type":"equals","pointer":"/n","value":4})"_ba << false;
    QTest::newRow("equals missing")
        << R"({"type":"equals","pointer":"/nope","value":1})"_ba << false;
    QTest::newRow("contains substring")
        << R"({"type":"contains","pointer":"/title","value":"login"})"_ba << true;
    QTest::newRow("contains member")
        << R"({"type":"contains","pointer":"/tags","value":"auth"})"_ba << true;
    QTest::newRow("contains fail")
        << R"({"type":"contains","pointer":"/tags","value":"db"})"_ba << false;
    QTest::newRow("regex pass")
        << R"({"type":"regex","pointer":"/title","pattern":"^Fix \\w+$"})"_ba << true;
    QTest::newRow("regex fail") << R"({"type":"regex","pointer":"/title","pattern":"^Break"})"_ba
                                << false;
    QTest::newRow("one_of pass") << R"({"type":"one_of","pointer":"/n","values":[1,3]})"_ba << true;
    QTest::newRow("one_of fail") << R"({"type":"one_of","pointer":"/n","values":[1,2]})"_ba
                                 << false;
    QTest::newRow("matches_expected whole") << R"({"type":"matches_expected"})"_ba << true;
    QTest::newRow("matches_expected pointers")
        << R"({"type":"matches_expected","pointers":["/title"]})"_ba << true;
    QTest::newRow("matches_expected fail")
        << R"({"type":"matches_expected","pointers":["/n"]})"_ba << false;
    QTest::newRow("schema pass") << R"({"type":"schema","schema":{"required":["title","n"]}})"_ba
                                 << true;
    QTest::newRow("schema fail")
        << R"({"type":"schema","schema":{"properties":{"n":{"maximum":2}}}})"_ba << false;
    QTest::newRow("status pass") << R"({"type":"status"})"_ba << true;
    QTest::newRow("status fail") << R"({"type":"status","value":"failed"})"_ba << false;
    QTest::newRow("tool_called pass")
        << R"({"type":"tool_called","name":"get_ticket","args":{"id":7}})"_ba << true;
    QTest::newRow("tool_called args fail")
        << R"({"type":"tool_called","name":"get_ticket","args":{"id":8}})"_ba << false;
    QTest::newRow("tool_called fail") << R"({"type":"tool_called","name":"list_team"})"_ba << false;
    QTest::newRow("tool_not_called pass")
        << R"({"type":"tool_not_called","name":"list_team"})"_ba << true;
    QTest::newRow("tool_not_called fail")
        << R"({"type":"tool_not_called","name":"get_ticket"})"_ba << false;
    QTest::newRow("tool_sequence pass")
        << R"({"type":"tool_sequence","names":["get_ticket","submit_output"]})"_ba << true;
    QTest::newRow("tool_sequence gap")
        << R"({"type":"tool_sequence","names":["submit_output"]})"_ba << true;
    QTest::newRow("tool_sequence strict fail")
        << R"({"type":"tool_sequence","names":["submit_output"],"strict":true})"_ba << false;
    QTest::newRow("tool_sequence order fail")
        << R"({"type":"tool_sequence","names":["submit_output","get_ticket"]})"_ba << false;
    QTest::newRow("max_turns pass") << R"({"type":"max_turns","value":2})"_ba << true;
    QTest::newRow("max_turns fail") << R"({"type":"max_turns","value":1})"_ba << false;
    QTest::newRow("max_tokens pass") << R"({"type":"max_tokens","value":180})"_ba << true;
    QTest::newRow("max_tokens fail") << R"({"type":"max_tokens","value":179})"_ba << false;
    QTest::newRow("max_latency_ms pass") << R"({"type":"max_latency_ms","value":1500})"_ba << true;
    QTest::newRow("max_latency_ms fail") << R"({"type":"max_latency_ms","value":1000})"_ba << false;
}

void TestEval::assertions()
{
    QFETCH(QByteArray, json);
    QFETCH(bool, passes);
    const Assertion a = assertion(json);
    QCOMPARE(checkAssertion(a), QString());
    DatasetRow row;
    row.expected = parse(R"({"title":"Fix login","tags":["ui","auth"],"n":3})");
    if (QByteArray(QTest::currentDataTag()) == "matches_expected fail")
        row.expected = parse(R"({"title":"Fix login","n":4})");
    const AssertionResult result = evaluateAssertion(a, sampleCall(), row);
    QVERIFY2(result.passed == passes, qPrintable(result.reason));
    if (!passes)
        QVERIFY2(!result.reason.isEmpty(), "a failure says why");
}

void TestEval::assertionChecks_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("problem");
    QTest::newRow("unknown") << R"({"type":"looks_good"})"_ba << u"unknown assertion type"_s;
    QTest::newRow("no pointer") << R"({"type":"equals","value":1})"_ba << u"needs \"pointer\""_s;
    QTest::newRow("bad pointer") << R"({"type":"equals","pointer":"title","value":1})"_ba
                                 << u"not a JSON Pointer"_s;
    QTest::newRow("bad regex") << R"({"type":"regex","pointer":"/a","pattern":"("})"_ba
                               << u"not a valid regular expression"_s;
    QTest::newRow("bad schema") << R"({"type":"schema","schema":{"type":7}})"_ba << u"not usable"_s;
    QTest::newRow("bad status") << R"({"type":"status","value":"great"})"_ba << u"call status"_s;
    QTest::newRow("no names") << R"({"type":"tool_sequence"})"_ba << u"needs \"names\""_s;
    QTest::newRow("no value") << R"({"type":"max_turns"})"_ba << u"number"_s;
    QTest::newRow("no command") << R"({"type":"command","command":[]})"_ba << u"argument list"_s;
    QTest::newRow("judge no rubric")
        << R"({"type":"judge","engine":{"type":"openai","model":"m"}})"_ba
        << u"needs a \"rubric\""_s;
    QTest::newRow("judge no engine")
        << R"({"type":"judge","rubric":"x"})"_ba << u"needs \"engine\""_s;
    QTest::newRow("judge bad engine")
        << R"({"type":"judge","rubric":"x","engine":{"type":"telepathy"}})"_ba << u"not usable"_s;
    QTest::newRow("cost without value") << R"({"type":"max_cost_usd"})"_ba << u"number"_s;
}

void TestEval::assertionChecks()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, problem);
    const QString found = checkAssertion(assertion(json));
    QVERIFY2(found.contains(problem), qPrintable(found));
}

void TestEval::commandAssertion()
{
    for (const auto &[script, passes] :
         { std::pair { u"grep -q '\"title\":\"Fix login\"' && echo fine"_s, true },
           std::pair { u"echo 'no title here'; exit 3"_s, false } }) {
        Assertion a = assertion(R"({"type":"command"})");
        a.params.insert(u"command"_s, QJsonArray { u"/bin/sh"_s, u"-c"_s, script });
        QCOMPARE(checkAssertion(a), QString());
        CommandAssertion command(a, sampleCall(), QDir::tempPath());
        QSignalSpy finished(&command, &CommandAssertion::finished);
        command.start();
        QVERIFY(finished.wait(10000));
        const AssertionResult r = finished.at(0).at(0).value<AssertionResult>();
        QCOMPARE(r.passed, passes);
        QCOMPARE(r.reason, passes ? u"fine"_s : u"no title here"_s);
    }
    // Under "not" a verdict flips, but a command that gives none (it cannot start, it crashes)
    // stays failed: a broken check never passes.
    const std::tuple<QJsonArray, bool, QString> negatedCases[] = {
        { QJsonArray { u"/bin/sh"_s, u"-c"_s, u"exit 3"_s }, true, QString() },
        { QJsonArray { u"/bin/sh"_s, u"-c"_s, u"echo fine"_s }, false, u"must not"_s },
        { QJsonArray { u"/nonexistent/callscope-check"_s }, false, u"could not start"_s },
        { QJsonArray { u"/bin/sh"_s, u"-c"_s, u"kill -SEGV $$"_s }, false, u"crashed"_s },
    };
    for (const auto &[argv, passes, why] : negatedCases) {
        Assertion a = assertion(R"({"type":"command","not":true})");
        a.params.insert(u"command"_s, argv);
        CommandAssertion command(a, sampleCall(), QDir::tempPath());
        QSignalSpy finished(&command, &CommandAssertion::finished);
        command.start();
        QVERIFY(finished.wait(10000));
        const AssertionResult r = finished.at(0).at(0).value<AssertionResult>();
        QVERIFY2(r.passed == passes,
                 qPrintable(argv.at(argv.size() - 1).toString() + u": "_s + r.reason));
        QVERIFY2(r.reason.contains(why), qPrintable(r.reason));
    }
}

void TestEval::vars()
{
    QStringList missing;
    const QJsonObject vars = parse(R"({"ticket":7,"who":"Lin"})");
    QCOMPARE(fillVars(u"Plan {{ticket}} for {{ who }}"_s, vars, &missing), u"Plan 7 for Lin"_s);
    QVERIFY(missing.isEmpty());
    QCOMPARE(fillVars(u"{{ticket}} {{gone}}"_s, vars, &missing), u"7 {{gone}}"_s);
    QCOMPARE(missing, QStringList { u"gone"_s });
    QCOMPARE(fillVars(QJsonValue(parse(R"({"a":["{{who}}",1]})")), vars)
                 .toObject()
                 .value(u"a"_s)
                 .toArray()
                 .at(0)
                 .toString(),
             u"Lin"_s);
    QCOMPARE(mergeJson(parse(R"({"engine":{"type":"openai","model":"a"},"k":1})"),
                       parse(R"({"engine":{"model":"b"}})")),
             parse(R"({"engine":{"type":"openai","model":"b"},"k":1})"));
}

void TestEval::datasetsAndVariants()
{
    QTemporaryDir dir;
    const QUrl base(u"http://127.0.0.1:9"_s);
    QVERIFY(writeFile(dir.filePath(u"planner.spec.json"_s),
                      QJsonDocument(twoTurnSpecJson(base, u"CALLSCOPE_EVAL_API_KEY"_s)).toJson()));
    QVERIFY(writeFile(dir.filePath(u"cases.jsonl"_s),
                      "{\"id\":\"a\",\"input\":\"Plan "
                      "{{ticket}}\",\"vars\":{\"ticket\":7},\"expected\":{\"title\":\"x\"}}\n\n"
                      "{\"input\":\"Plan 9\",\"assert\":[{\"type\":\"status\"}]}\n"));
    QVERIFY(writeFile(dir.filePath(u"cases.csv"_s),
                      "id,input,expected,ticket\n"
                      "c1,\"Plan {{ticket}}, fast\",\"{\"\"title\"\":\"\"y\"\"}\",12\n"));
    // A stored call for from_call.
    auto db = Database::open(dir.filePath(u"h.sqlite"_s));
    QVERIFY(db);
    CallStore store(**db);
    CallRecord stored = sampleCall();
    QJsonObject storedSpec = twoTurnSpecJson(base, u"CALLSCOPE_EVAL_API_KEY"_s, u"stored-model"_s);
    stored.spec = storedSpec;
    const auto callId = store.insertCall(stored);
    QVERIFY2(callId, qPrintable(callId ? QString() : callId.error().message));

    for (const QString &dataset : { u"cases.jsonl"_s, u"cases.csv"_s }) {
        QJsonObject definition {
            { u"spec"_s, u"planner.spec.json"_s },
            { u"dataset"_s, dataset },
            { u"variants"_s,
              QJsonArray {
                  parse(R"({"name":"as is"})"),
                  parse(R"({"name":"other model","engine":{"model":"m2"}})"),
                  parse(R"({"name":"prompt","system_prompt":"Plan {{ticket}} carefully."})"),
                  QJsonObject { { u"name"_s, u"as call"_s },
                                { u"from_call"_s, callId.value() } } } }
        };
        if (dataset.endsWith(u".jsonl"_s))
            definition[u"variants"_s] =
                QJsonArray { parse(R"({"name":"as is"})"),
                             parse(R"({"name":"other model","engine":{"model":"m2"}})"),
                             QJsonObject { { u"name"_s, u"as call"_s },
                                           { u"from_call"_s, callId.value() } } };
        const ExperimentLoad load = loadExperiment(definition, dir.path(), &store);
        QVERIFY2(load.experiment,
                 qPrintable(load.errors.isEmpty() ? QString() : load.errors.first().toString()));
        const Experiment &e = *load.experiment;
        if (dataset.endsWith(u".jsonl"_s)) {
            QCOMPARE(e.rows.size(), 2);
            QCOMPARE(e.rows.at(0).id, u"a"_s);
            QCOMPARE(e.rows.at(1).id, u"case-2"_s); // no id: its position
            QCOMPARE(e.rows.at(1).asserts.size(), 1);
            QCOMPARE(e.rows.at(0).where, u"cases.jsonl:1"_s);
            QCOMPARE(e.inputFor(e.rows.at(0), e.variants.at(0)), u"Plan 7"_s);
            QCOMPARE(e.variants.size(), 3);
        } else {
            QCOMPARE(e.rows.size(), 1);
            QCOMPARE(e.rows.at(0).id, u"c1"_s);
            QCOMPARE(e.inputFor(e.rows.at(0), e.variants.at(0)), u"Plan 12, fast"_s);
            QCOMPARE(e.rows.at(0).expected.toObject().value(u"title"_s).toString(), u"y"_s);
            QCOMPARE(e.variants.size(), 4);
            QCOMPARE(e.specFor(e.rows.at(0), e.variants.at(2)).systemPrompt,
                     u"Plan 12 carefully."_s);
        }
        // Key by key: only the model changed; the rest of the engine stayed.
        QCOMPARE(e.variants.at(1).spec.engine.model, u"m2"_s);
        QCOMPARE(e.variants.at(1).spec.engine.baseUrl, base.toString());
        QCOMPARE(e.variants.at(0).spec.engine.model, u"fake-model"_s);
        QCOMPARE(e.variants.constLast().spec.engine.model, u"stored-model"_s);
    }
    // Inline rows and an inline spec.
    const ExperimentLoad inline_ =
        loadExperiment(QJsonObject { { u"spec"_s, twoTurnSpecJson(base, u"K"_s) },
                                     { u"dataset"_s, QJsonArray { parse(R"({"input":"x"})") } },
                                     { u"repeat"_s, 3 } },
                       dir.path());
    QVERIFY(inline_.experiment);
    QCOMPARE(inline_.experiment->repeat, 3);
    QCOMPARE(inline_.experiment->variants.size(), 1);
    QCOMPARE(inline_.experiment->variants.at(0).name, u"planner"_s);

    // A CSV of vars only: every variant brings the input (a prompt template), or each row is
    // named for the input it lacks.
    QVERIFY(writeFile(dir.filePath(u"countries.csv"_s), "id,country\nfr,France\npe,Peru\n"));
    QJsonObject prompts {
        { u"spec"_s, u"planner.spec.json"_s },
        { u"dataset"_s, u"countries.csv"_s },
        { u"variants"_s,
          QJsonArray { parse(R"({"name":"ask","input":"Capital of {{country}}?"})"),
                       parse(R"({"name":"name","input":"Name the capital of {{country}}."})") } }
    };
    const ExperimentLoad fromVars = loadExperiment(prompts, dir.path());
    QVERIFY2(
        fromVars.experiment,
        qPrintable(fromVars.errors.isEmpty() ? QString() : fromVars.errors.first().toString()));
    QCOMPARE(fromVars.experiment->rows.size(), 2);
    QVERIFY(!fromVars.experiment->rows.at(1).hasInput);
    QCOMPARE(fromVars.experiment->inputFor(fromVars.experiment->rows.at(1),
                                           fromVars.experiment->variants.at(0)),
             u"Capital of Peru?"_s);
    prompts.insert(u"variants"_s,
                   QJsonArray { parse(R"({"name":"ask","input":"Capital of {{country}}?"})"),
                                parse(R"({"name":"plain"})") });
    const ExperimentLoad lacking = loadExperiment(prompts, dir.path());
    QVERIFY(!lacking.experiment);
    QStringList places;
    for (const ExperimentError &e : lacking.errors)
        places.append(e.toString());
    QVERIFY2(places.size() == 2 && places.at(0).startsWith(u"countries.csv:2"_s)
                 && places.at(1).startsWith(u"countries.csv:3"_s)
                 && places.at(0).contains(u"every variant an \"input\""_s),
             qPrintable(places.join(u"\n"_s)));
}

void TestEval::badExperiments_data()
{
    QTest::addColumn<QByteArray>("experiment");
    QTest::addColumn<QByteArray>("cases");
    QTest::addColumn<QString>("where");
    QTest::addColumn<QString>("what");
    const QByteArray good = "{\"input\":\"Plan {{ticket}}\",\"vars\":{\"ticket\":1}}\n";
    QTest::newRow("unknown assertion")
        << R"({"spec":"s.json","dataset":"cases.jsonl","assert":[{"type":"status"},{"type":"vibes"}]})"_ba
        << good << u"/assert/1"_s << u"unknown assertion type"_s;
    QTest::newRow("bad pointer")
        << R"({"spec":"s.json","dataset":"cases.jsonl","assert":[{"type":"equals","pointer":"title","value":1}]})"_ba
        << good << u"/assert/0"_s << u"not a JSON Pointer"_s;
    QTest::newRow("dataset not JSON")
        << R"({"spec":"s.json","dataset":"cases.jsonl"})"_ba << good + "{\"input\": oops}\n"
        << u"cases.jsonl:2:11"_s << u"not JSON"_s;
    QTest::newRow("missing var") << R"({"spec":"s.json","dataset":"cases.jsonl"})"_ba
                                 << "{\"id\":\"c\",\"input\":\"Plan {{ticket}}\"}\n"_ba
                                 << u"cases.jsonl:1"_s << u"{{ticket}}"_s;
    QTest::newRow("variant spec invalid")
        << R"({"spec":"s.json","dataset":"cases.jsonl","variants":[{"name":"v","max_turns":"ten"}]})"_ba
        << good << u"/variants/0/max_turns"_s << QString();
    QTest::newRow("syntax") << "{\"spec\":\"s.json\",\n \"dataset\": }"_ba << good
                            << u"exp.json:2:14"_s << u"not JSON"_s;
    QTest::newRow("unknown field") << R"({"spec":"s.json","dataset":"cases.jsonl","repeats":2})"_ba
                                   << good << u"/repeats"_s << u"unknown field"_s;
    QTest::newRow("via unknown") << R"({"spec":"s.json","dataset":"cases.jsonl","via":"bulk"})"_ba
                                 << good << u"/via"_s << u"must be"_s;
    QTest::newRow("javascript syntax")
        << R"({"spec":"s.json","dataset":"cases.jsonl","assert":[{"type":"javascript","value":"output.title ==="}]})"_ba
        << good << u"/assert/0"_s << u"line 1: SyntaxError"_s;
    QTest::newRow("javascript second line")
        << R"({"spec":"s.json","dataset":"cases.jsonl","assert":[{"type":"javascript","value":"const n = 1;\nreturn n +;"}]})"_ba
        << good << u"/assert/0"_s << u"line 2: SyntaxError"_s;
    QTest::newRow("javascript missing")
        << R"({"spec":"s.json","dataset":"cases.jsonl","assert":[{"type":"javascript"}]})"_ba
        << good << u"/assert/0"_s << u"needs \"value\""_s;
    QTest::newRow("transform syntax")
        << R"({"spec":"s.json","dataset":"cases.jsonl","assert":[{"type":"status","transform":"output."}]})"_ba
        << good << u"/assert/0"_s << u"\"transform\": line 1"_s;
    QTest::newRow("case transform syntax") << R"({"spec":"s.json","dataset":"cases.jsonl"})"_ba
                                           << "{\"input\":\"Plan\",\"transform\":\"(\"}\n"_ba
                                           << u"cases.jsonl:1 /transform"_s << u"line 1"_s;
    QTest::newRow("critical not bool") << R"({"spec":"s.json","dataset":"cases.jsonl"})"_ba
                                       << "{\"input\":\"Plan\",\"critical\":\"yes\"}\n"_ba
                                       << u"cases.jsonl:1"_s << u"\"critical\""_s;
    QTest::newRow("bad weight")
        << R"({"spec":"s.json","dataset":"cases.jsonl","assert":[{"type":"status","weight":"heavy"}]})"_ba
        << good << u"/assert/0/weight"_s << u"a number, 0 or more"_s;
}

void TestEval::badExperiments()
{
    QFETCH(QByteArray, experiment);
    QFETCH(QByteArray, cases);
    QFETCH(QString, where);
    QFETCH(QString, what);
    QTemporaryDir dir;
    QVERIFY(
        writeFile(dir.filePath(u"s.json"_s),
                  QJsonDocument(twoTurnSpecJson(QUrl(u"http://127.0.0.1:9"_s), u"K"_s)).toJson()));
    QVERIFY(writeFile(dir.filePath(u"cases.jsonl"_s), cases));
    QVERIFY(writeFile(dir.filePath(u"exp.json"_s), experiment));
    const ExperimentLoad load = loadExperimentFile(dir.filePath(u"exp.json"_s));
    QVERIFY(!load.experiment);
    QStringList all;
    bool found = false;
    for (const ExperimentError &e : load.errors) {
        all.append(e.toString());
        found |= e.where == where && e.message.contains(what);
    }
    QVERIFY2(found, qPrintable(all.join(u" | "_s)));
}

void TestEval::evalEndToEnd()
{
    FakeProviderThread server;
    QVERIFY(server.listen());
    server.run([](FakeProvider &p) { p.setResponder(scriptedResponder(0)); });
    QTemporaryDir dir;
    QVERIFY(writeFile(
        dir.filePath(u"planner.spec.json"_s),
        QJsonDocument(twoTurnSpecJson(server.baseUrl(), u"CALLSCOPE_EVAL_API_KEY"_s)).toJson()));
    QByteArray cases;
    for (const char *kind : { "pass", "fail", "flaky" }) {
        for (int i = 1; i <= 2; ++i)
            cases += "{\"id\":\"" + QByteArray(kind) + QByteArray::number(i)
                + "\",\"input\":\"Plan the " + kind + " ticket " + QByteArray::number(i) + "\"}\n";
    }
    QVERIFY(writeFile(dir.filePath(u"cases.jsonl"_s), cases));
    QVERIFY(writeFile(dir.filePath(u"exp.json"_s), R"({
        "name": "planner-regression", "spec": "planner.spec.json", "dataset": "cases.jsonl", "repeat": 3,
        "variants": [ {"name": "base"}, {"name": "prompt", "system_prompt": "Plan carefully."}, {"name": "one turn", "max_turns": 1} ],
        "assert": [ {"type": "equals", "pointer": "/title", "value": "ok"},
                    {"type": "tool_sequence", "names": ["get_ticket", "submit_output"]} ] })"));
    const QString db = dir.filePath(u"h.sqlite"_s);
    const QString out = dir.filePath(u"runs.jsonl"_s);
    const QString junit = dir.filePath(u"report.xml"_s);
    // One at a time, so the flaky cases alternate in a known order.
    const QString html = dir.filePath(u"report.html"_s);
    const CliRun r = runEval({ dir.filePath(u"exp.json"_s), u"--db"_s, db, u"--jobs"_s, u"1"_s,
                               u"--out"_s, out, u"--junit"_s, junit, u"--html"_s, html });
    QVERIFY2(r.exit == 1, r.err.constData());
    QVERIFY2(r.err.startsWith("experiment "), r.err.constData());
    const QJsonArray variants = r.summary.value(u"variants"_s).toArray();
    QCOMPARE(variants.size(), 3);
    auto expect = [&](int i, const QString &name, int passed, int failed, int flaky) {
        const QJsonObject v = variants.at(i).toObject();
        QCOMPARE(v.value(u"name"_s).toString(), name);
        QCOMPARE(v.value(u"cases"_s).toInt(), 6);
        QCOMPARE(v.value(u"passed"_s).toInt(), passed);
        QCOMPARE(v.value(u"failed"_s).toInt(), failed);
        QCOMPARE(v.value(u"flaky"_s).toInt(), flaky);
        QCOMPARE(v.value(u"runs"_s).toInt(), 18);
        QCOMPARE(v.value(u"pass_rate"_s).toDouble(), passed / 6.0);
        QVERIFY(v.value(u"cost_usd"_s).isNull()); // no price table: no price, not 0
    };
    expect(0, u"base"_s, 2, 2, 2);
    expect(1, u"prompt"_s, 2, 2, 2);
    expect(2, u"one turn"_s, 0, 6, 0);
    QCOMPARE(variants.at(0).toObject().value(u"tokens"_s).toObject().value(u"input"_s).toInt(),
             18 * 2 * 120);
    const QJsonArray cells = r.summary.value(u"cells"_s).toArray();
    QCOMPARE(cells.size(), 18);
    for (const QJsonValue &c : cells) {
        const QJsonObject cell = c.toObject();
        const QString id = cell.value(u"case"_s).toString();
        const bool oneTurn = cell.value(u"variant"_s).toString() == u"one turn"_s;
        QCOMPARE(cell.value(u"runs"_s).toArray().size(), 3);
        QCOMPARE(cell.value(u"passed"_s).toBool(), !oneTurn && id.startsWith(u"pass"_s));
        QCOMPARE(cell.value(u"flaky"_s).toBool(), !oneTurn && id.startsWith(u"flaky"_s));
        const QJsonObject first = cell.value(u"runs"_s).toArray().at(0).toObject();
        QVERIFY(first.value(u"call_id"_s).toInteger() > 0);
        QCOMPARE(first.value(u"assertions"_s).toArray().size(), 2);
    }
    // pass@k and pass^k per variant, for k = 1..3, worked out here from each case's passes:
    // pass@k = 1 - C(3-c, k)/C(3, k), pass^k = C(c, k)/C(3, k), averaged over the 6 cases.
    const auto choose = [](int n, int k) {
        return k < 0 || k > n              ? 0.0
            : n == 3 && (k == 1 || k == 2) ? 3.0
            : k == 0 || k == n             ? 1.0
                                           : 2.0;
    };
    for (int v = 0; v < 3; ++v) {
        const QJsonObject variant = variants.at(v).toObject();
        const QString name = variant.value(u"name"_s).toString();
        QList<int> passes;
        for (const QJsonValue &c : cells) {
            if (c.toObject().value(u"variant"_s).toString() != name)
                continue;
            int good = 0;
            for (const QJsonValue &run : c.toObject().value(u"runs"_s).toArray())
                good += run.toObject().value(u"passed"_s).toBool() ? 1 : 0;
            passes.append(good);
        }
        QCOMPARE(passes.size(), 6);
        for (int k = 1; k <= 3; ++k) {
            double atK = 0, hatK = 0;
            for (int c : passes) {
                atK += 1 - choose(3 - c, k) / choose(3, k);
                hatK += choose(c, k) / choose(3, k);
            }
            const QString key = QString::number(k);
            QVERIFY(qAbs(variant.value(u"pass_at_k"_s).toObject().value(key).toDouble() - atK / 6)
                    < 1e-12);
            QVERIFY(qAbs(variant.value(u"pass_hat_k"_s).toObject().value(key).toDouble() - hatK / 6)
                    < 1e-12);
        }
    }
    // The base variant: 2 cases always, 2 never, the 2 flaky ones some of the time.
    const QJsonObject baseAtK = variants.at(0).toObject().value(u"pass_at_k"_s).toObject();
    QVERIFY(baseAtK.value(u"3"_s).toDouble() == 4.0 / 6
            && variants.at(0).toObject().value(u"pass_hat_k"_s).toObject().value(u"3"_s).toDouble()
                == 2.0 / 6);
    // --out: one line per run.
    QFile lines(out);
    QVERIFY(lines.open(QIODevice::ReadOnly));
    QCOMPARE(lines.readAll().count('\n'), 54);
    // JUnit: a suite per variant, a test case per case, failures where a case did not pass.
    QFile report(junit);
    QVERIFY(report.open(QIODevice::ReadOnly));
    QDomDocument xml;
    QVERIFY(xml.setContent(&report));
    const QDomNodeList suites = xml.elementsByTagName(u"testsuite"_s);
    QCOMPARE(suites.size(), 3);
    QCOMPARE(suites.at(0).toElement().attribute(u"tests"_s), u"6"_s);
    QCOMPARE(suites.at(0).toElement().attribute(u"failures"_s), u"4"_s);
    QCOMPARE(suites.at(2).toElement().attribute(u"failures"_s), u"6"_s);
    QCOMPARE(xml.elementsByTagName(u"testcase"_s).size(), 18);
    QCOMPARE(xml.elementsByTagName(u"failure"_s).size(), 14);
    QVERIFY(xml.elementsByTagName(u"failure"_s)
                .at(0)
                .toElement()
                .text()
                .contains(u"expected \"ok\", got \"bad\""_s));
    // The HTML report: one row per case, one column per variant, cells coloured by verdict.
    QFile page(html);
    QVERIFY(page.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(page.readAll());
    QCOMPARE(text.count(u"<td class=\"pass\""_s), 4);
    QCOMPARE(text.count(u"<td class=\"flaky\""_s), 4);
    QCOMPARE(text.count(u"<td class=\"fail\""_s), 10);
    QVERIFY(text.contains(u"<th>one turn</th>"_s));
    QVERIFY(text.contains(u"expected &quot;ok&quot;, got &quot;bad&quot;"_s)); // escaped
    // With repeats, pass@k and pass^k per variant and k; three variants, three comparisons.
    QVERIFY(text.contains(u"<h2>Over repeats</h2>"_s));
    QCOMPARE(text.count(u"<tr><td>base</td><td class=\"num\">"_s),
             1 + 3); // its figures, and k = 1..3
    QCOMPARE(text.count(u"<tr><td>base</td><td>"_s), 2); // the comparisons with base as A
    QCOMPARE(r.summary.value(u"comparisons"_s).toArray().size(), 3);
    // Only the passing cases: exit 0.
    const CliRun passing = runEval({ dir.filePath(u"exp.json"_s), u"--db"_s, db, u"--only"_s,
                                     u"pass1"_s, u"--only"_s, u"pass2"_s });
    QCOMPARE(passing.exit, 1); // "one turn" still fails them
    QCOMPARE(passing.summary.value(u"cells"_s).toArray().size(), 6);
}

void TestEval::badExperimentSendsNothing()
{
    FakeProviderThread server;
    QVERIFY(server.listen());
    server.run([](FakeProvider &p) { p.setResponder(scriptedResponder(0)); });
    QTemporaryDir dir;
    QVERIFY(writeFile(
        dir.filePath(u"planner.spec.json"_s),
        QJsonDocument(twoTurnSpecJson(server.baseUrl(), u"CALLSCOPE_EVAL_API_KEY"_s)).toJson()));
    QVERIFY(writeFile(
        dir.filePath(u"cases.jsonl"_s),
        "{\"id\":\"a\",\"input\":\"fine\"}\n{\"id\":\"b\",\"input\":\"Plan {{ticket}}\"}\n"));
    QVERIFY(writeFile(dir.filePath(u"exp.json"_s),
                      R"({"spec":"planner.spec.json","dataset":"cases.jsonl"})"));
    const CliRun r =
        runEval({ dir.filePath(u"exp.json"_s), u"--db"_s, dir.filePath(u"h.sqlite"_s) });
    QCOMPARE(r.exit, 2);
    QVERIFY2(r.err.contains("cases.jsonl:2") && r.err.contains("{{ticket}}"), r.err.constData());
    int requests = -1;
    server.run([&requests](FakeProvider &p) { requests = int(p.requestCount()); });
    QCOMPARE(requests, 0);
}

void TestEval::resumeAfterKill()
{
    FakeProviderThread server;
    QVERIFY(server.listen());
    server.run([](FakeProvider &p) { p.setResponder(scriptedResponder(40)); });
    QTemporaryDir dir;
    QVERIFY(writeFile(
        dir.filePath(u"planner.spec.json"_s),
        QJsonDocument(twoTurnSpecJson(server.baseUrl(), u"CALLSCOPE_EVAL_API_KEY"_s)).toJson()));
    QByteArray cases;
    for (int i = 1; i <= 20; ++i)
        cases += "{\"id\":\"c" + QByteArray::number(i) + "\",\"input\":\"Plan the pass ticket "
            + QByteArray::number(i) + "\"}\n";
    QVERIFY(writeFile(dir.filePath(u"cases.jsonl"_s), cases));
    QVERIFY(writeFile(dir.filePath(u"exp.json"_s),
                      R"({"spec":"planner.spec.json","dataset":"cases.jsonl","repeat":2,
        "assert":[{"type":"equals","pointer":"/title","value":"ok"}]})"));
    const QString db = dir.filePath(u"h.sqlite"_s);
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"CALLSCOPE_EVAL_API_KEY"_s, u"sk-eval"_s);
    process.setProcessEnvironment(env);
    process.start(cliPath(),
                  { u"eval"_s, dir.filePath(u"exp.json"_s), u"--db"_s, db, u"--jobs"_s, u"4"_s });
    QVERIFY(process.waitForStarted());
    QElapsedTimer clock;
    clock.start();
    int requests = 0;
    while (requests < 30 && clock.elapsed() < 30000) {
        QThread::msleep(5);
        server.run([&requests](FakeProvider &p) { requests = int(p.requestCount()); });
    }
    ::kill(pid_t(process.processId()), SIGKILL);
    QVERIFY(process.waitForFinished());
    const QByteArray err = process.readAllStandardError();
    const QRegularExpressionMatch m =
        QRegularExpression(u"^experiment (\\d+): "_s).match(QString::fromUtf8(err));
    QVERIFY2(m.hasMatch(), err.constData());
    const QString id = m.captured(1);

    int before = 0;
    {
        auto opened = Database::open(db);
        QVERIFY(opened);
        CallStore store(**opened);
        before = int(store.experimentRuns(id.toLongLong())->size());
    }
    QVERIFY2(before > 0 && before < 40, qPrintable(QString::number(before)));
    // A run whose call is stored is done, with or without its run row (a kill can come between).
    const int callsBefore = sqlCount(db,
                                     u"SELECT COUNT(*) FROM calls WHERE status = 'completed' AND "
                                     u"json_extract(metadata, '$.case') IS NOT NULL"_s);
    QVERIFY(callsBefore >= before);
    int requestsBefore = 0;
    server.run([&requestsBefore](FakeProvider &p) { requestsBefore = int(p.requestCount()); });

    // Without the response cache, which would answer the first turns the killed runs already
    // got: the exact count below is of the runs the resume makes again.
    const CliRun resumed =
        runEval({ dir.filePath(u"exp.json"_s), u"--db"_s, db, u"--resume"_s, id, u"--no-cache"_s });
    QVERIFY2(resumed.exit == 0, resumed.err.constData());
    QCOMPARE(resumed.summary.value(u"experiment_id"_s).toInteger(), id.toLongLong());
    QCOMPARE(
        resumed.summary.value(u"variants"_s).toArray().at(0).toObject().value(u"passed"_s).toInt(),
        20);
    int requestsAfter = 0;
    server.run([&requestsAfter](FakeProvider &p) { requestsAfter = int(p.requestCount()); });
    // Only the runs without a stored call ran again: two requests each.
    QCOMPARE(requestsAfter - requestsBefore, (40 - callsBefore) * 2);
    QCOMPARE(
        sqlCount(
            db,
            u"SELECT COUNT(*) FROM calls WHERE status = 'completed' AND json_extract(metadata, '$.case') IS NOT NULL"_s),
        40);
    auto opened = Database::open(db);
    CallStore store(**opened);
    QCOMPARE(store.experimentRuns(id.toLongLong())->size(), 40);
}

namespace {

// A judge on the fake provider (model judge-model) that passes from a score of 0.5.
QJsonObject judgeAssertion(const QUrl &base)
{
    return QJsonObject { { u"type"_s, u"judge"_s },
                         { u"rubric"_s, u"The title says what to do."_s },
                         { u"pass_score"_s, 0.5 },
                         { u"engine"_s,
                           QJsonObject { { u"type"_s, u"openai"_s },
                                         { u"model"_s, u"judge-model"_s },
                                         { u"base_url"_s, base.toString() },
                                         { u"api_key_env"_s, u"CALLSCOPE_EVAL_API_KEY"_s },
                                         { u"stream"_s, false } } } };
}

} // namespace

void TestEval::judgeDecidesAndIsStored()
{
    FakeProviderThread server;
    QVERIFY(server.listen());
    // The judge (its system prompt says so) scores outputs of "pass" tasks 0.9, others 0.2.
    server.run([](FakeProvider &p) {
        const FakeProvider::Responder calls = scriptedResponder(0);
        p.setResponder([calls](const RecordedRequest &request) {
            const QJsonArray messages = request.jsonObject().value(u"messages"_s).toArray();
            const QString system = messages.at(0).toObject().value(u"content"_s).toString();
            if (!system.startsWith(u"You judge"_s))
                return calls(request);
            const QString task = messages.at(1).toObject().value(u"content"_s).toString();
            const double score = task.contains(u"pass"_s) ? 0.9 : 0.2;
            return FakeReply::json(
                200,
                openAiToolCallBody(u"j1"_s, u"submit_output"_s,
                                   { { u"score"_s, score }, { u"reason"_s, u"looked at it"_s } }));
        });
    });
    QTemporaryDir dir;
    QVERIFY(writeFile(
        dir.filePath(u"planner.spec.json"_s),
        QJsonDocument(twoTurnSpecJson(server.baseUrl(), u"CALLSCOPE_EVAL_API_KEY"_s)).toJson()));
    QVERIFY(writeFile(dir.filePath(u"cases.jsonl"_s),
                      "{\"id\":\"good\",\"input\":\"Plan the pass ticket\"}\n"
                      "{\"id\":\"poor\",\"input\":\"Plan the fail ticket\"}\n"));
    const QJsonObject experiment { { u"spec"_s, u"planner.spec.json"_s },
                                   { u"dataset"_s, u"cases.jsonl"_s },
                                   { u"assert"_s,
                                     QJsonArray { judgeAssertion(server.baseUrl()) } } };
    QVERIFY(writeFile(dir.filePath(u"exp.json"_s), QJsonDocument(experiment).toJson()));
    const QString db = dir.filePath(u"h.sqlite"_s);
    const CliRun r = runEval({ dir.filePath(u"exp.json"_s), u"--db"_s, db });
    QVERIFY2(r.exit == 1, r.err.constData());
    const QJsonArray cells = r.summary.value(u"cells"_s).toArray();
    QCOMPARE(cells.size(), 2);
    QCOMPARE(cells.at(0).toObject().value(u"passed"_s).toBool(), true);
    QCOMPARE(cells.at(1).toObject().value(u"passed"_s).toBool(), false);
    // The first assertion's verdict in a cell's first run.
    const auto firstVerdict = [](const QJsonValue &cell) {
        return cell.toObject()
            .value(u"runs"_s)
            .toArray()
            .at(0)
            .toObject()
            .value(u"assertions"_s)
            .toArray()
            .at(0)
            .toObject();
    };
    const QJsonObject verdict = firstVerdict(cells.at(1));
    QVERIFY2(verdict.value(u"reason"_s).toString().startsWith(u"score 0.2"_s),
             qPrintable(verdict.value(u"reason"_s).toString()));
    const qint64 judgeCall = verdict.value(u"judge_call_id"_s).toInteger();
    QVERIFY(judgeCall > 0);
    auto opened = Database::open(db);
    QVERIFY(opened);
    CallStore store(**opened);
    auto stored = store.getCall(judgeCall);
    QVERIFY(stored);
    QCOMPARE(stored->kind, u"judge"_s);
    QCOMPARE(stored->model, u"judge-model"_s);
    const qint64 judged = cells.at(1)
                              .toObject()
                              .value(u"runs"_s)
                              .toArray()
                              .at(0)
                              .toObject()
                              .value(u"call_id"_s)
                              .toInteger();
    QCOMPARE(stored->metadata.value(u"judge_of"_s).toInteger(), judged);
    QVERIFY(stored->input.value(u"text"_s).toString().contains(u"\"title\":\"bad\""_s));

    // The same judge under "not" (promptfoo's not-llm-rubric): the verdicts flip, and the failure
    // says it is the judge's pass that fails it, with the judge's score and words.
    QJsonObject negatedJudge = judgeAssertion(server.baseUrl());
    negatedJudge.insert(u"not"_s, true);
    QJsonObject negatedExperiment = experiment;
    negatedExperiment.insert(u"assert"_s, QJsonArray { negatedJudge });
    QVERIFY(writeFile(dir.filePath(u"not.json"_s), QJsonDocument(negatedExperiment).toJson()));
    const CliRun n =
        runEval({ dir.filePath(u"not.json"_s), u"--db"_s, dir.filePath(u"n.sqlite"_s) });
    QVERIFY2(n.exit == 1, n.err.constData());
    const QJsonArray negatedCells = n.summary.value(u"cells"_s).toArray();
    QCOMPARE(negatedCells.size(), 2);
    QCOMPARE(negatedCells.at(0).toObject().value(u"passed"_s).toBool(), false);
    QCOMPARE(negatedCells.at(1).toObject().value(u"passed"_s).toBool(), true);
    const QString reason = firstVerdict(negatedCells.at(0)).value(u"reason"_s).toString();
    QVERIFY2(reason.startsWith(u"the judge passed it, and it must not"_s)
                 && reason.contains(u"score 0.9"_s) && reason.contains(u"looked at it"_s),
             qPrintable(reason));
}

// Cohen's kappa from 2x2 tables worked out by hand, and the agreement of a judge with labels.
void TestEval::cohensKappaByHand()
{
    // 50 runs: judge pass & person pass 20, judge pass & person fail 5, judge fail & person pass
    // 10, both fail 15. Observed agreement 35/50 = 0.7; the judge passes 25/50 = 0.5, the person
    // 30/50 = 0.6; chance agreement 0.5 * 0.6 + 0.5 * 0.4 = 0.5; kappa (0.7 - 0.5) / 0.5 = 0.4.
    QVERIFY(qAbs(*Stats::cohensKappa(20, 5, 10, 15) - 0.4) < 1e-12);
    // 100 runs 45/15/25/15: observed 0.6, yes rates 0.6 and 0.7, chance 0.42 + 0.12 = 0.54;
    // kappa 0.06 / 0.46.
    QVERIFY(qAbs(*Stats::cohensKappa(45, 15, 25, 15) - 0.06 / 0.46) < 1e-12);
    QCOMPARE(*Stats::cohensKappa(10, 0, 0, 10), 1.0);
    // Always disagreeing, at even rates: observed 0, chance 0.5, kappa -1.
    QCOMPARE(*Stats::cohensKappa(0, 10, 10, 0), -1.0);
    QVERIFY(!Stats::cohensKappa(0, 0, 0, 0));
    QVERIFY(!Stats::cohensKappa(10, 0, 0, 0)); // both always "pass": chance explains it all

    // The same 50 runs as stored runs and labels; a skip and a run without a judge are left out.
    QList<ExperimentRunRecord> runs;
    QList<ReviewLabel> labels;
    const int table[4] = { 20, 5, 10, 15 };
    int n = 0;
    for (int cell = 0; cell < 4; ++cell) {
        for (int i = 0; i < table[cell]; ++i, ++n) {
            ExperimentRunRecord run;
            run.id = n + 1;
            run.experimentId = 3;
            run.caseId = u"c%1"_s.arg(n);
            run.variant = u"A"_s;
            const bool judgePassed = cell < 2;
            run.assertions = QJsonArray { QJsonObject { { u"type"_s, u"equals"_s },
                                                        { u"name"_s, u"title"_s },
                                                        { u"passed"_s, true } },
                                          QJsonObject { { u"type"_s, u"judge"_s },
                                                        { u"name"_s, u"tone"_s },
                                                        { u"passed"_s, judgePassed } } };
            runs.append(run);
            ReviewLabel label;
            label.experimentId = 3;
            label.caseId = run.caseId;
            label.variant = u"A"_s;
            label.verdict = cell == 0 || cell == 2 ? u"pass"_s : u"fail"_s;
            label.reviewer = u"ana"_s;
            labels.append(label);
        }
    }
    ExperimentRunRecord unjudged;
    unjudged.caseId = u"extra"_s;
    unjudged.variant = u"A"_s;
    runs.append(unjudged);
    ReviewLabel skip;
    skip.experimentId = 3;
    skip.caseId = u"c0"_s;
    skip.variant = u"A"_s;
    skip.verdict = u"skip"_s;
    skip.reviewer = u"ben"_s;
    labels.append(skip);
    ReviewLabel other = skip;
    other.caseId = u"extra"_s;
    other.verdict = u"fail"_s;
    labels.append(other);
    const QList<JudgeAgreement> agreement = judgeAgreement(runs, labels);
    QCOMPARE(agreement.size(), 1);
    QCOMPARE(agreement.first().assertion, u"tone"_s);
    QCOMPARE(agreement.first().pairs(), 50);
    QCOMPARE(agreement.first().bothPass, 20);
    QCOMPARE(agreement.first().judgePassPersonFail, 5);
    QCOMPARE(agreement.first().judgeFailPersonPass, 10);
    QCOMPARE(agreement.first().bothFail, 15);
    QVERIFY(qAbs(*agreement.first().kappa() - 0.4) < 1e-12);
    const QJsonObject summary = reviewSummary(runs, labels);
    QCOMPARE(summary.value(u"labels"_s).toInt(), 52);
    QCOMPARE(summary.value(u"reviewers"_s).toArray(), (QJsonArray { u"ana"_s, u"ben"_s }));
    QCOMPARE(summary.value(u"verdicts"_s).toObject().value(u"skip"_s).toInt(), 1);
    const QJsonObject tone = summary.value(u"agreement"_s).toArray().at(0).toObject();
    QCOMPARE(tone.value(u"observed_agreement"_s).toDouble(), 0.7);
    QVERIFY2(tone.value(u"sentence"_s).toString().contains(u"35 of 50"_s)
                 && tone.value(u"sentence"_s).toString().contains(u"kappa 0.40"_s),
             qPrintable(tone.value(u"sentence"_s).toString()));
}

// Labels given after a run come back in the summary (with the judge's agreement), in the
// HTML report, as lines of --out, and from `experiment labels` as JSON Lines.
void TestEval::reviewLabelsInSummaryAndOut()
{
    FakeProviderThread server;
    QVERIFY(server.listen());
    server.run([](FakeProvider &p) {
        const FakeProvider::Responder calls = scriptedResponder(0);
        p.setResponder([calls](const RecordedRequest &request) {
            const QJsonArray messages = request.jsonObject().value(u"messages"_s).toArray();
            const QString system = messages.at(0).toObject().value(u"content"_s).toString();
            if (!system.startsWith(u"You judge"_s))
                return calls(request);
            const QString task = messages.at(1).toObject().value(u"content"_s).toString();
            const double score = task.contains(u"pass"_s) ? 0.9 : 0.2;
            return FakeReply::json(
                200,
                openAiToolCallBody(u"j1"_s, u"submit_output"_s,
                                   { { u"score"_s, score }, { u"reason"_s, u"looked at it"_s } }));
        });
    });
    QTemporaryDir dir;
    QVERIFY(writeFile(
        dir.filePath(u"planner.spec.json"_s),
        QJsonDocument(twoTurnSpecJson(server.baseUrl(), u"CALLSCOPE_EVAL_API_KEY"_s)).toJson()));
    QVERIFY(writeFile(dir.filePath(u"cases.jsonl"_s),
                      "{\"id\":\"good\",\"input\":\"Plan the pass ticket\"}\n"
                      "{\"id\":\"poor\",\"input\":\"Plan the fail ticket\"}\n"));
    const QJsonObject experiment { { u"spec"_s, u"planner.spec.json"_s },
                                   { u"dataset"_s, u"cases.jsonl"_s },
                                   { u"assert"_s,
                                     QJsonArray { judgeAssertion(server.baseUrl()) } } };
    QVERIFY(writeFile(dir.filePath(u"exp.json"_s), QJsonDocument(experiment).toJson()));
    const QString db = dir.filePath(u"h.sqlite"_s);
    const CliRun first = runEval({ dir.filePath(u"exp.json"_s), u"--db"_s, db });
    QVERIFY2(first.exit == 1, first.err.constData());
    QVERIFY(!first.summary.contains(u"review"_s));
    const qint64 id = first.summary.value(u"experiment_id"_s).toInteger();
    QVERIFY(id > 0);

    // A person passes both outputs (the judge passed "good" and failed "poor").
    {
        auto opened = Database::open(db);
        QVERIFY(opened);
        CallStore store(**opened);
        const auto runs = store.experimentRuns(id);
        QVERIFY(runs);
        QCOMPARE(runs->size(), 2);
        for (const ExperimentRunRecord &run : runs.value()) {
            ReviewLabel label;
            label.experimentId = id;
            label.runId = run.id;
            label.callId = run.callId;
            label.caseId = run.caseId;
            label.variant = run.variant;
            label.repeat = run.repeat;
            label.verdict = u"pass"_s;
            label.score = run.caseId == u"good"_s ? 5 : 3;
            label.note = run.caseId == u"poor"_s ? u"says fail but is fine"_s : QString();
            label.reviewer = u"ana"_s;
            QVERIFY(store.saveReviewLabel(label));
        }
    }

    const QString out = dir.filePath(u"out.jsonl"_s);
    const QString html = dir.filePath(u"report.html"_s);
    const CliRun again = runEval({ dir.filePath(u"exp.json"_s), u"--db"_s, db, u"--resume"_s,
                                   QString::number(id), u"--out"_s, out, u"--html"_s, html });
    QVERIFY2(again.exit == 1, again.err.constData());
    const QJsonObject review = again.summary.value(u"review"_s).toObject();
    QCOMPARE(review.value(u"labels"_s).toInt(), 2);
    QCOMPARE(review.value(u"items"_s).toArray().size(), 2);
    // Judge pass / person pass 1, judge fail / person pass 1: observed 0.5; the judge passes
    // half, the person all; chance 0.5 * 1 + 0.5 * 0 = 0.5; kappa (0.5 - 0.5) / 0.5 = 0.
    const QJsonObject agreement = review.value(u"agreement"_s).toArray().at(0).toObject();
    QCOMPARE(agreement.value(u"pairs"_s).toInt(), 2);
    QCOMPARE(agreement.value(u"kappa"_s).toDouble(), 0.0);
    QCOMPARE(agreement.value(u"confusion"_s)
                 .toObject()
                 .value(u"judge_fail"_s)
                 .toObject()
                 .value(u"person_pass"_s)
                 .toInt(),
             1);
    QFile lines(out);
    QVERIFY(lines.open(QIODevice::ReadOnly));
    QList<QJsonObject> labelLines;
    for (const QByteArray &line : lines.readAll().split('\n')) {
        const QJsonObject object = QJsonDocument::fromJson(line).object();
        if (object.value(u"label"_s).toBool())
            labelLines.append(object);
    }
    QCOMPARE(labelLines.size(), 2);
    const QJsonObject poorLine = labelLines.at(0).value(u"case"_s).toString() == u"poor"_s
        ? labelLines.at(0)
        : labelLines.at(1);
    QCOMPARE(poorLine.value(u"case"_s).toString(), u"poor"_s);
    QCOMPARE(poorLine.value(u"verdict"_s).toString(), u"pass"_s);
    QCOMPARE(poorLine.value(u"score"_s).toInt(), 3);
    QCOMPARE(poorLine.value(u"note"_s).toString(), u"says fail but is fine"_s);
    QCOMPARE(poorLine.value(u"reviewer"_s).toString(), u"ana"_s);
    QVERIFY(poorLine.value(u"call_id"_s).toInteger() > 0);
    QFile report(html);
    QVERIFY(report.open(QIODevice::ReadOnly));
    const QString page = QString::fromUtf8(report.readAll());
    QVERIFY(page.contains(u"Judges and people"_s));
    QVERIFY(page.contains(u"kappa 0.00"_s));

    // `experiment labels` prints the same labels as JSON Lines.
    QProcess process;
    process.start(cliPath(), { u"experiment"_s, u"labels"_s, QString::number(id), u"--db"_s, db });
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitCode(), 0);
    const QList<QByteArray> printed = process.readAllStandardOutput().trimmed().split('\n');
    QCOMPARE(printed.size(), 2);
    QJsonObject printedFirst = QJsonDocument::fromJson(printed.at(0)).object();
    if (printedFirst.value(u"case"_s).toString() != u"good"_s)
        printedFirst = QJsonDocument::fromJson(printed.at(1)).object();
    QCOMPARE(printedFirst.value(u"case"_s).toString(), u"good"_s);
    QCOMPARE(printedFirst.value(u"experiment_id"_s).toInteger(), id);
    QVERIFY(printedFirst.value(u"call_id"_s).toInteger() > 0);
    QCOMPARE(printedFirst.value(u"score"_s).toInt(), 5);
    QProcess unknown;
    unknown.start(cliPath(), { u"experiment"_s, u"labels"_s, u"999"_s, u"--db"_s, db });
    QVERIFY(unknown.waitForFinished(60000));
    QCOMPARE(unknown.exitCode(), 2);
}

void TestEval::pricesAndCost()
{
    const PriceTable shipped = PriceTable::shipped();
    QVERIFY(!shipped.asOf().isEmpty());
    QVERIFY(shipped.price(u"gpt-4o"_s));
    // The longest listed prefix: a dated model name finds its family, mini stays mini.
    QCOMPARE(shipped.price(u"gpt-4o-2024-08-06"_s)->input, shipped.price(u"gpt-4o"_s)->input);
    QCOMPARE(shipped.price(u"gpt-4o-mini-2024-07-18"_s)->input,
             shipped.price(u"gpt-4o-mini"_s)->input);
    QVERIFY(!shipped.price(u"fake-model"_s));
    QVERIFY(!shipped.cost(u"fake-model"_s, Usage {}));

    QTemporaryDir dir;
    QVERIFY(writeFile(
        dir.filePath(u"prices.json"_s),
        R"({"format":"callscope-prices","as_of":"2026-12-01","models":{"m":{"input":2.5,"output":10,"cached_input":1.25}}})"));
    QString error;
    const auto own = PriceTable::fromFile(dir.filePath(u"prices.json"_s), &error);
    QVERIFY2(own, qPrintable(error));
    Usage usage;
    usage.inputTokens = 800000;
    usage.cacheReadTokens = 200000;
    usage.outputTokens = 100000;
    // 0.8M fresh x 2.50 + 0.2M cached x 1.25 + 0.1M out x 10.
    QCOMPARE(*own->cost(u"m"_s, usage), 3.25);
    // At batch prices the cache price shrinks by the same factor as input (the providers'
    // batch discount stacks with the cache price): 0.2M cached x 1.25 x (1.25 / 2.50).
    QCOMPARE(*own->cost(u"m"_s, usage, true), (0.8 * 1.25 + 0.2 * 0.625 + 0.1 * 5));
    // With no cache, every prompt token at the input price.
    QCOMPARE(*own->uncachedCost(u"m"_s, usage), 1.0 * 2.5 + 0.1 * 10);
    QVERIFY(writeFile(dir.filePath(u"bad.json"_s), R"({"models":{}})"));
    QVERIFY(!PriceTable::fromFile(dir.filePath(u"bad.json"_s), &error));
    QVERIFY2(error.contains(u"callscope-prices"_s), qPrintable(error));

    // In an experiment: a priced model has a cost and passes max_cost_usd; an unknown one says
    // "no price" (null, never 0) and fails it.
    FakeProviderThread server;
    QVERIFY(server.listen());
    server.run([](FakeProvider &p) { p.setResponder(scriptedResponder(0)); });
    QVERIFY(writeFile(
        dir.filePath(u"planner.spec.json"_s),
        QJsonDocument(twoTurnSpecJson(server.baseUrl(), u"CALLSCOPE_EVAL_API_KEY"_s)).toJson()));
    QVERIFY(writeFile(dir.filePath(u"cases.jsonl"_s),
                      "{\"id\":\"a\",\"input\":\"Plan the pass ticket\"}\n"));
    QVERIFY(writeFile(dir.filePath(u"exp.json"_s),
                      R"({"spec":"planner.spec.json","dataset":"cases.jsonl","repeat":2,
        "variants":[{"name":"priced","engine":{"model":"gpt-4o-mini"}},{"name":"unpriced"}],
        "assert":[{"type":"max_cost_usd","value":0.001}]})"));
    const CliRun r =
        runEval({ dir.filePath(u"exp.json"_s), u"--db"_s, dir.filePath(u"h.sqlite"_s) });
    QCOMPARE(r.exit, 1);
    const QJsonArray variants = r.summary.value(u"variants"_s).toArray();
    const QJsonObject priced = variants.at(0).toObject();
    const QJsonObject unpriced = variants.at(1).toObject();
    // 2 runs x 2 turns x (120 in x 0.15 + 20 out x 0.60) per million.
    QVERIFY(qAbs(priced.value(u"cost_usd"_s).toDouble() - 2 * 2 * (120 * 0.15 + 20 * 0.60) / 1e6)
            < 1e-12);
    QCOMPARE(priced.value(u"passed"_s).toInt(), 1);
    QVERIFY(unpriced.value(u"cost_usd"_s).isNull());
    QCOMPARE(unpriced.value(u"unpriced_runs"_s).toInt(), 2);
    QCOMPARE(unpriced.value(u"passed"_s).toInt(), 0);
    const QJsonObject verdict = r.summary.value(u"cells"_s)
                                    .toArray()
                                    .at(1)
                                    .toObject()
                                    .value(u"runs"_s)
                                    .toArray()
                                    .at(0)
                                    .toObject()
                                    .value(u"assertions"_s)
                                    .toArray()
                                    .at(0)
                                    .toObject();
    QVERIFY2(
        verdict.value(u"reason"_s).toString().startsWith(u"no price for the model fake-model"_s),
        qPrintable(verdict.value(u"reason"_s).toString()));
    QCOMPARE(r.summary.value(u"prices"_s).toObject().value(u"as_of"_s).toString(), shipped.asOf());
}

void TestEval::batchTwoTurnLoop_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<QString>("model");
    QTest::newRow("openai") << u"openai"_s << u"gpt-4o-mini"_s;
    QTest::newRow("openai-responses") << u"openai-responses"_s << u"gpt-4.1-mini"_s;
    QTest::newRow("anthropic") << u"anthropic"_s << u"claude-sonnet-4"_s;
    QTest::newRow("gemini") << u"gemini"_s << u"gemini-2.0-flash"_s;
}

// 500 cases of a two-turn tool loop: directly (1,000 requests), then through the batch API:
// exactly 2 provider batches (one per round), no direct request, and the same summary.
void TestEval::batchTwoTurnLoop()
{
    QFETCH(QString, type);
    QFETCH(QString, model);
    FakeProviderThread server;
    QVERIFY(server.listen());
    auto api = std::make_shared<FakeBatchApi>(twoTurnBatchModel());
    api->processingMs = 100;
    server.run([api](FakeProvider &p) { p.setResponder(api->responder()); });
    constexpr int cases = 500;

    QTemporaryDir directDir;
    writeBatchExperiment(directDir, server.baseUrl(), type, model, cases, u"direct"_s);
    const CliRun direct = runEval(
        { directDir.filePath(u"exp.json"_s), u"--db"_s, directDir.filePath(u"h.sqlite"_s) });
    QVERIFY2(direct.exit == 1, direct.err.constData()); // every fifth case fails its assertion
    int directRequests = 0;
    server.run([&](FakeProvider &) { directRequests = api->directRequests; });
    QCOMPARE(directRequests, 2 * cases);

    QTemporaryDir batchDir;
    writeBatchExperiment(batchDir, server.baseUrl(), type, model, cases, u"batch"_s);
    QElapsedTimer clock;
    clock.start();
    const CliRun batch =
        runEval({ batchDir.filePath(u"exp.json"_s), u"--db"_s, batchDir.filePath(u"h.sqlite"_s) },
                kFastPolls);
    const qint64 elapsed = clock.elapsed();
    QVERIFY2(batch.exit == 1, batch.err.constData());
    int batches = 0, requestsAfter = 0, uploads = 0;
    QList<int> lines;
    server.run([&](FakeProvider &) {
        batches = int(api->batches.size());
        requestsAfter = api->directRequests;
        uploads = int(api->uploads.size());
        for (const FakeBatchApi::Batch &b : std::as_const(api->batches))
            lines.append(int(b.lines.size()));
    });
    QCOMPARE(batches, 2);
    QCOMPARE(lines, (QList<int> { cases, cases }));
    QCOMPARE(requestsAfter, directRequests); // not one direct request
    QCOMPARE(uploads, type.startsWith(u"openai"_s) ? 2 : 0);
    if (type == u"openai-responses"_s) {
        QList<QByteArray> files;
        QList<QJsonObject> creates;
        server.run([&](FakeProvider &) {
            files = api->uploads;
            creates = api->createBodies;
        });
        QCOMPARE(validateOpenAiBatchFiles(files, creates, u"CreateResponse"_s), 2 * cases);
    }
    QCOMPARE(comparable(batch.summary), comparable(direct.summary));
    const QJsonObject v = batch.summary.value(u"variants"_s).toArray().at(0).toObject();
    QCOMPARE(v.value(u"passed"_s).toInt(), cases * 4 / 5);
    QCOMPARE(batch.summary.value(u"batch"_s).toObject().value(u"rounds"_s).toInt(), 2);

    // Cost: the batch price table halves both rates for these models.
    const double directCost = direct.summary.value(u"variants"_s)
                                  .toArray()
                                  .at(0)
                                  .toObject()
                                  .value(u"cost_usd"_s)
                                  .toDouble();
    const double batchCost = v.value(u"cost_usd"_s).toDouble();
    QVERIFY(directCost > 0);
    QVERIFY2(qAbs(batchCost * 2 - directCost) < 1e-9,
             qPrintable(u"%1 vs %2"_s.arg(batchCost).arg(directCost)));
    QVERIFY(qAbs(v.value(u"cost_direct_usd"_s).toDouble() - directCost) < 1e-9);
    QVERIFY(qAbs(v.value(u"batch_saved_usd"_s).toDouble() - (directCost - batchCost)) < 1e-9);
    qInfo("%s %s, %d cases x 2 turns: direct %.6f USD, batch %.6f USD, saved %.6f USD (%d batches, "
          "%lld ms)",
          qPrintable(type), qPrintable(model), cases, directCost, batchCost, directCost - batchCost,
          batches, elapsed);
    // Every run is a stored call that says it went through a batch.
    QCOMPARE(
        sqlCount(batchDir.filePath(u"h.sqlite"_s),
                 u"SELECT COUNT(*) FROM calls WHERE json_extract(metadata, '$.via') = 'batch'"_s),
        cases);
    QCOMPARE(sqlCount(batchDir.filePath(u"h.sqlite"_s),
                      u"SELECT COUNT(*) FROM provider_batch_lines WHERE outcome = 'succeeded'"_s),
             2 * cases);
}

void TestEval::batchExpiredAndErroredLines_data()
{
    batchTwoTurnLoop_data();
}

// Lines that expire or fail in round 1 go into round 2 and complete: 3 rounds in all.
void TestEval::batchExpiredAndErroredLines()
{
    QFETCH(QString, type);
    QFETCH(QString, model);
    FakeProviderThread server;
    QVERIFY(server.listen());
    auto api = std::make_shared<FakeBatchApi>(twoTurnBatchModel());
    api->fate = [](const QString &customId, const QJsonObject &, int batchNumber) {
        if (batchNumber != 1)
            return QString();
        const int n = customId.section(u'_', 1).toInt();
        return n % 4 == 1 ? u"expired"_s : n % 4 == 2 ? u"errored"_s : QString();
    };
    server.run([api](FakeProvider &p) { p.setResponder(api->responder()); });
    QTemporaryDir dir;
    writeBatchExperiment(dir, server.baseUrl(), type, model, 20, u"batch"_s);
    const QString db = dir.filePath(u"h.sqlite"_s);
    const CliRun r = runEval({ dir.filePath(u"exp.json"_s), u"--db"_s, db }, kFastPolls);
    QVERIFY2(r.exit == 1, r.err.constData());
    const QJsonObject v = r.summary.value(u"variants"_s).toArray().at(0).toObject();
    QCOMPARE(v.value(u"passed"_s).toInt(), 16);
    QCOMPARE(v.value(u"failed"_s).toInt(), 4); // the "fail" cases, not the retried ones
    int batches = 0;
    QList<int> lines;
    server.run([&](FakeProvider &) {
        batches = int(api->batches.size());
        for (const FakeBatchApi::Batch &b : std::as_const(api->batches))
            lines.append(int(b.lines.size()));
    });
    QCOMPARE(batches, 3);
    QCOMPARE(lines,
             (QList<int> { 20, 20, 10 })); // round 2: 10 second turns + 10 retried first turns
    if (type == u"gemini"_s) {
        // Gemini reports a line that did not run as an error of its own.
        QCOMPARE(
            sqlCount(db, u"SELECT COUNT(*) FROM provider_batch_lines WHERE outcome = 'errored'"_s),
            10);
    } else {
        QCOMPARE(
            sqlCount(db, u"SELECT COUNT(*) FROM provider_batch_lines WHERE outcome = 'expired'"_s),
            5);
        QCOMPARE(
            sqlCount(db, u"SELECT COUNT(*) FROM provider_batch_lines WHERE outcome = 'errored'"_s),
            5);
    }
    QCOMPARE(sqlCount(db, u"SELECT COUNT(*) FROM calls WHERE status = 'completed'"_s), 20);
}

void TestEval::batchResumeAfterKill_data()
{
    batchTwoTurnLoop_data();
}

// SIGKILL while round 1 is at the provider; --resume polls that same batch, sends round 2,
// and every run completes exactly once.
void TestEval::batchResumeAfterKill()
{
    QFETCH(QString, type);
    QFETCH(QString, model);
    FakeProviderThread server;
    QVERIFY(server.listen());
    auto api = std::make_shared<FakeBatchApi>(twoTurnBatchModel());
    api->processingMs = 2500;
    server.run([api](FakeProvider &p) { p.setResponder(api->responder()); });
    QTemporaryDir dir;
    constexpr int cases = 30;
    writeBatchExperiment(dir, server.baseUrl(), type, model, cases, u"batch"_s);
    const QString db = dir.filePath(u"h.sqlite"_s);
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"CALLSCOPE_EVAL_API_KEY"_s, u"sk-eval"_s);
    env.insert(u"CALLSCOPE_BATCH_POLL_MS"_s, u"50,100"_s);
    process.setProcessEnvironment(env);
    process.start(cliPath(), { u"eval"_s, dir.filePath(u"exp.json"_s), u"--db"_s, db });
    QVERIFY(process.waitForStarted());
    QElapsedTimer clock;
    clock.start();
    int polls = 0;
    while (polls < 2 && clock.elapsed() < 20000) {
        QThread::msleep(10);
        server.run([&](FakeProvider &) {
            polls = api->batches.isEmpty() ? 0 : api->batches.first().polls;
        });
    }
    QVERIFY(polls >= 2); // submitted and being polled: round 1 has not ended
    ::kill(pid_t(process.processId()), SIGKILL);
    QVERIFY(process.waitForFinished());
    const QByteArray err = process.readAllStandardError();
    const QRegularExpressionMatch m =
        QRegularExpression(u"^experiment (\\d+): "_s).match(QString::fromUtf8(err));
    QVERIFY2(m.hasMatch(), err.constData());
    QCOMPARE(
        sqlCount(
            db,
            u"SELECT COUNT(*) FROM provider_batches WHERE status = 'submitted' AND provider_id != ''"_s),
        1);
    QCOMPARE(sqlCount(db, u"SELECT COUNT(*) FROM experiment_runs"_s), 0);

    const CliRun resumed = runEval(
        { dir.filePath(u"exp.json"_s), u"--db"_s, db, u"--resume"_s, m.captured(1) }, kFastPolls);
    QVERIFY2(resumed.exit == 1, resumed.err.constData());
    QCOMPARE(
        resumed.summary.value(u"variants"_s).toArray().at(0).toObject().value(u"passed"_s).toInt(),
        cases * 4 / 5);
    int batches = 0, firstPolls = 0, uploads = 0;
    server.run([&](FakeProvider &) {
        batches = int(api->batches.size());
        firstPolls = api->batches.first().polls;
        uploads = int(api->uploads.size());
    });
    QCOMPARE(batches, 2); // round 1 polled again, never sent again; then round 2
    QVERIFY(firstPolls > polls);
    QCOMPARE(uploads, type.startsWith(u"openai"_s) ? 2 : 0);
    QCOMPARE(sqlCount(db, u"SELECT COUNT(*) FROM experiment_runs"_s), cases);
    QCOMPARE(sqlCount(db, u"SELECT COUNT(*) FROM calls"_s), cases); // each run completed once
    QCOMPARE(sqlCount(db, u"SELECT COUNT(*) FROM provider_batches WHERE status = 'ended'"_s), 2);
}

// A round over the line limit goes out as several batches; OpenAI's lines and create bodies
// match the published request schemas.
void TestEval::batchSplitByLineLimit()
{
    FakeProviderThread server;
    QVERIFY(server.listen());
    auto api = std::make_shared<FakeBatchApi>(twoTurnBatchModel());
    server.run([api](FakeProvider &p) { p.setResponder(api->responder()); });
    QTemporaryDir dir;
    writeBatchExperiment(dir, server.baseUrl(), u"openai"_s, u"gpt-4o-mini"_s, 10, u"batch"_s);
    QHash<QString, QString> env = kFastPolls;
    env.insert(u"CALLSCOPE_BATCH_MAX_LINES"_s, u"4"_s);
    const CliRun r =
        runEval({ dir.filePath(u"exp.json"_s), u"--db"_s, dir.filePath(u"h.sqlite"_s) }, env);
    QVERIFY2(r.exit == 1, r.err.constData());
    QVERIFY2(r.summary.value(u"variants"_s).toArray().at(0).toObject().value(u"passed"_s).toInt()
                 == 8,
             QByteArray(r.err.left(3000)).constData());
    // The parts of one round are uploaded and created side by side, so they may reach the
    // provider in any order: compare each round's part sizes, largest first.
    QMap<int, QList<int>> linesPerRound;
    QList<QByteArray> uploads;
    QList<QJsonObject> creates;
    server.run([&](FakeProvider &) {
        for (const FakeBatchApi::Batch &b : std::as_const(api->batches)) {
            const QString customId =
                b.lines.isEmpty() ? QString() : b.lines.first().first; // "r<round>_<line>"
            const int round = customId.mid(1, customId.indexOf(u'_') - 1).toInt();
            linesPerRound[round].append(int(b.lines.size()));
        }
        uploads = api->uploads;
        creates = api->createBodies;
    });
    for (QList<int> &sizes : linesPerRound)
        std::sort(sizes.begin(), sizes.end(), std::greater<int>());
    QCOMPARE(linesPerRound, (QMap<int, QList<int>> { { 1, { 4, 4, 2 } }, { 2, { 4, 4, 2 } } }));
    const QJsonArray parts = r.summary.value(u"batch"_s).toObject().value(u"batches"_s).toArray();
    QCOMPARE(parts.size(), 6);
    QCOMPARE(parts.at(2).toObject().value(u"round"_s).toInt(), 1);
    QCOMPARE(parts.at(2).toObject().value(u"part"_s).toInt(), 2);
    QCOMPARE(parts.at(3).toObject().value(u"round"_s).toInt(), 2);

    QCOMPARE(validateOpenAiBatchFiles(uploads, creates, u"CreateChatCompletionRequest"_s), 20);
    QCOMPARE(creates.size(), 6);
}

namespace {

// Starts `eval` on dir/exp.json with fast polls; the process runs on while the test goes on.
void startEval(QProcess &process, const QTemporaryDir &dir, const QStringList &extra = {})
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"CALLSCOPE_EVAL_API_KEY"_s, u"sk-eval"_s);
    env.insert(u"CALLSCOPE_BATCH_POLL_MS"_s, u"50,100"_s);
    process.setProcessEnvironment(env);
    process.start(cliPath(),
                  QStringList { u"eval"_s, dir.filePath(u"exp.json"_s), u"--db"_s,
                                dir.filePath(u"h.sqlite"_s) }
                      + extra);
}

bool waitFor(FakeProviderThread &server, const std::function<bool()> &done, int timeoutMs = 20000)
{
    QElapsedTimer clock;
    clock.start();
    bool ok = false;
    while (!ok && clock.elapsed() < timeoutMs) {
        QThread::msleep(10);
        server.run([&](FakeProvider &) { ok = done(); });
    }
    return ok;
}

QString experimentIdFrom(const QByteArray &err)
{
    return QRegularExpression(u"^experiment (\\d+): "_s).match(QString::fromUtf8(err)).captured(1);
}

} // namespace

// Ctrl+C twice: the open provider batch is cancelled at the provider before the CLI exits.
void TestEval::batchCancelOnProvider()
{
    FakeProviderThread server;
    QVERIFY(server.listen());
    auto api = std::make_shared<FakeBatchApi>(twoTurnBatchModel());
    api->processingMs = 60000;
    server.run([api](FakeProvider &p) { p.setResponder(api->responder()); });
    QTemporaryDir dir;
    writeBatchExperiment(dir, server.baseUrl(), u"openai"_s, u"gpt-4o-mini"_s, 6, u"batch"_s);
    QProcess process;
    startEval(process, dir);
    QVERIFY(process.waitForStarted());
    QVERIFY(waitFor(server,
                    [&] { return !api->batches.isEmpty() && api->batches.first().polls >= 1; }));
    ::kill(pid_t(process.processId()), SIGINT);
    // The second Ctrl+C once the first was taken (it offers 3 s for it), not after a guess.
    QByteArray err;
    QElapsedTimer prompt;
    prompt.start();
    while (!err.contains("press Ctrl+C again") && process.state() == QProcess::Running
           && prompt.elapsed() < 20000) {
        process.waitForReadyRead(100);
        err += process.readAllStandardError();
    }
    QVERIFY2(err.contains("press Ctrl+C again"), err.constData());
    ::kill(pid_t(process.processId()), SIGINT);
    QVERIFY(process.waitForFinished(20000));
    err += process.readAllStandardError();
    QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == 1,
             err.constData());
    QVERIFY2(err.contains("cancelling the provider batches"), err.constData());
    int cancels = 0;
    server.run([&](FakeProvider &) { cancels = api->cancels; });
    QCOMPARE(cancels, 1);
    const QString db = dir.filePath(u"h.sqlite"_s);
    QCOMPARE(sqlCount(db, u"SELECT COUNT(*) FROM provider_batches WHERE status = 'cancelling'"_s),
             1);
    QCOMPARE(sqlCount(db, u"SELECT COUNT(*) FROM calls WHERE status = 'cancelled'"_s), 6);

    // One Ctrl+C only: the batch keeps running at the provider, nothing is cancelled there.
    QTemporaryDir other;
    writeBatchExperiment(other, server.baseUrl(), u"openai"_s, u"gpt-4o-mini"_s, 6, u"batch"_s);
    QProcess second;
    startEval(second, other);
    QVERIFY(second.waitForStarted());
    QVERIFY(waitFor(server,
                    [&] { return api->batches.size() == 2 && api->batches.last().polls >= 1; }));
    ::kill(pid_t(second.processId()), SIGINT);
    QVERIFY(second.waitForFinished(20000));
    const QByteArray secondErr = second.readAllStandardError();
    QVERIFY2(secondErr.contains("keep running"), secondErr.constData());
    server.run([&](FakeProvider &) { cancels = api->cancels; });
    QCOMPARE(cancels, 1);
    QCOMPARE(sqlCount(other.filePath(u"h.sqlite"_s),
                      u"SELECT COUNT(*) FROM provider_batches WHERE status = 'submitted'"_s),
             1);
}

void TestEval::batchSubmitUnknown_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<int>("lost");
    QTest::newRow("openai, never created")
        << u"openai"_s << int(FakeBatchApi::LostCreate::Unprocessed);
    QTest::newRow("openai, created") << u"openai"_s << int(FakeBatchApi::LostCreate::Processed);
    QTest::newRow("anthropic, created")
        << u"anthropic"_s << int(FakeBatchApi::LostCreate::Processed);
}

// The request that creates round 1's batch gets no answer and the CLI dies. OpenAI: the
// resume finds the batch by its metadata tag (or creates it from the uploaded file once).
// Anthropic keeps no metadata: the runs say the batch may exist and nothing is sent again,
// until --resubmit-unknown.
void TestEval::batchSubmitUnknown()
{
    QFETCH(QString, type);
    QFETCH(int, lost);
    FakeProviderThread server;
    QVERIFY(server.listen());
    auto api = std::make_shared<FakeBatchApi>(twoTurnBatchModel());
    api->loseNextCreate = FakeBatchApi::LostCreate(lost);
    server.run([api](FakeProvider &p) { p.setResponder(api->responder()); });
    QTemporaryDir dir;
    constexpr int cases = 10;
    writeBatchExperiment(dir, server.baseUrl(), type,
                         type == u"openai"_s ? u"gpt-4o-mini"_s : u"claude-sonnet-4"_s, cases,
                         u"batch"_s);
    const QString db = dir.filePath(u"h.sqlite"_s);
    QProcess process;
    startEval(process, dir);
    QVERIFY(process.waitForStarted());
    QVERIFY(waitFor(server, [&] { return api->loseNextCreate == FakeBatchApi::LostCreate::None; }));
    // Killed once the history says what a crash there leaves: a batch being submitted, with
    // no provider id (and, for OpenAI, its uploaded file named).
    const QString submitting = type == u"openai"_s
        ? u"SELECT COUNT(*) FROM provider_batches WHERE status = 'submitting' AND provider_id = '' "
          "AND input_file_id <> ''"_s
        : u"SELECT COUNT(*) FROM provider_batches WHERE status = 'submitting' AND provider_id = ''"_s;
    QElapsedTimer stored;
    stored.start();
    while (sqlCount(db, submitting) != 1 && stored.elapsed() < 20000)
        QThread::msleep(20);
    ::kill(pid_t(process.processId()), SIGKILL);
    QVERIFY(process.waitForFinished());
    const QString id = experimentIdFrom(process.readAllStandardError());
    QVERIFY(!id.isEmpty());
    QCOMPARE(
        sqlCount(
            db,
            u"SELECT COUNT(*) FROM provider_batches WHERE status = 'submitting' AND provider_id = ''"_s),
        1);

    const CliRun resumed =
        runEval({ dir.filePath(u"exp.json"_s), u"--db"_s, db, u"--resume"_s, id }, kFastPolls);
    int batches = 0, uploads = 0;
    server.run([&](FakeProvider &) {
        batches = int(api->batches.size());
        uploads = int(api->uploads.size());
    });
    const QJsonObject v = resumed.summary.value(u"variants"_s).toArray().at(0).toObject();
    if (type == u"openai"_s) {
        QVERIFY2(resumed.exit == 1, resumed.err.constData());
        QCOMPARE(v.value(u"passed"_s).toInt(), cases * 4 / 5);
        QCOMPARE(batches,
                 2); // round 1 exactly once (found, or created from its file), then round 2
        QCOMPARE(uploads, 2); // round 1's file was not uploaded again
        QCOMPARE(sqlCount(db, u"SELECT COUNT(*) FROM calls"_s), cases);
        return;
    }
    QCOMPARE(resumed.exit, 1);
    QVERIFY2(resumed.err.contains("may have been created"), resumed.err.constData());
    QCOMPARE(batches, 1); // nothing sent again
    QCOMPARE(v.value(u"passed"_s).toInt(), 0);
    QCOMPARE(
        sqlCount(db, u"SELECT COUNT(*) FROM experiment_runs WHERE status = 'submit_unknown'"_s),
        cases);
    QCOMPARE(
        sqlCount(db, u"SELECT COUNT(*) FROM provider_batches WHERE status = 'submit_unknown'"_s),
        1);

    // The person checked and asks for it: sent again, every run completes.
    const CliRun again = runEval(
        { dir.filePath(u"exp.json"_s), u"--db"_s, db, u"--resume"_s, id, u"--resubmit-unknown"_s },
        kFastPolls);
    QVERIFY2(again.exit == 1, again.err.constData());
    QCOMPARE(
        again.summary.value(u"variants"_s).toArray().at(0).toObject().value(u"passed"_s).toInt(),
        cases * 4 / 5);
    server.run([&](FakeProvider &) { batches = int(api->batches.size()); });
    QCOMPARE(batches, 3);
    QCOMPARE(sqlCount(db, u"SELECT COUNT(*) FROM provider_batches WHERE status = 'abandoned'"_s),
             1);
}

void TestEval::weightsScore()
{
    // The weighted share of the checks that passed; a weight 0 check does not count.
    auto result = [](bool passed, double weight) {
        AssertionResult r;
        r.passed = passed;
        r.weight = weight;
        return r.toJson();
    };
    QCOMPARE(weightedScore(QJsonArray { result(true, 3), result(false, 1) }), 0.75);
    QCOMPARE(weightedScore(QJsonArray { result(true, 1), result(false, 0) }), 1.0);
    QCOMPARE(weightedScore(QJsonArray { result(false, 0) }), 0.0);
    QCOMPARE(weightedScore(QJsonArray {}), 1.0);

    // In the summary: per run, per cell and per variant; the pass rate still needs every check.
    FakeProviderThread server;
    QVERIFY(server.listen());
    server.run([](FakeProvider &p) { p.setResponder(scriptedResponder(0)); });
    QTemporaryDir dir;
    QVERIFY(writeFile(
        dir.filePath(u"planner.spec.json"_s),
        QJsonDocument(twoTurnSpecJson(server.baseUrl(), u"CALLSCOPE_EVAL_API_KEY"_s)).toJson()));
    QVERIFY(writeFile(dir.filePath(u"cases.jsonl"_s),
                      "{\"id\":\"a\",\"input\":\"Plan the pass ticket\"}\n"
                      "{\"id\":\"b\",\"input\":\"Plan the fail ticket\"}\n"));
    QVERIFY(writeFile(dir.filePath(u"exp.json"_s),
                      R"({"spec":"planner.spec.json","dataset":"cases.jsonl",
        "assert":[{"type":"equals","pointer":"/title","value":"ok","weight":3},
                  {"type":"tool_sequence","names":["get_ticket","submit_output"],"weight":1},
                  {"type":"max_turns","value":1,"weight":0}]})"));
    const CliRun r =
        runEval({ dir.filePath(u"exp.json"_s), u"--db"_s, dir.filePath(u"h.sqlite"_s) });
    QCOMPARE(r.exit, 1);
    const QJsonObject variant = r.summary.value(u"variants"_s).toArray().at(0).toObject();
    // a: equals and sequence pass, max_turns (weight 0) fails: 4/4, but the case fails.
    // b: only the sequence passes: 1/4.
    QCOMPARE(variant.value(u"passed"_s).toInt(), 0);
    QCOMPARE(variant.value(u"pass_rate"_s).toDouble(), 0.0);
    QCOMPARE(variant.value(u"score"_s).toDouble(), (1.0 + 0.25) / 2);
    const QJsonArray cells = r.summary.value(u"cells"_s).toArray();
    QCOMPARE(cells.at(0).toObject().value(u"score"_s).toDouble(), 1.0);
    QCOMPARE(cells.at(1).toObject().value(u"score"_s).toDouble(), 0.25);
    const QJsonObject run = cells.at(1).toObject().value(u"runs"_s).toArray().at(0).toObject();
    QCOMPARE(run.value(u"score"_s).toDouble(), 0.25);
    QCOMPARE(run.value(u"tokens"_s).toObject().value(u"input"_s).toInt(), 2 * 120);
    QCOMPARE(run.value(u"assertions"_s).toArray().at(0).toObject().value(u"weight"_s).toDouble(),
             3.0);
}

namespace {

// One turn, submit_output "ok" after `delayMs`.
FakeProvider::Responder okAfter(int delayMs)
{
    return [delayMs](const RecordedRequest &) {
        return FakeReply::json(
                   200,
                   openAiToolCallBody(u"call_1"_s, u"submit_output"_s, { { u"title"_s, u"ok"_s } }))
            .delayedBy(delayMs);
    };
}

// `cases` cases in two variants, with a command assertion that takes 0.3 s after each call.
// Cases c1..cN, "Plan ticket N".
QByteArray numberedCases(int cases)
{
    QByteArray rows;
    for (int i = 1; i <= cases; ++i)
        rows += "{\"id\":\"c" + QByteArray::number(i) + "\",\"input\":\"Plan ticket "
            + QByteArray::number(i) + "\"}\n";
    return rows;
}

bool writeSlowCheckExperiment(const QTemporaryDir &dir, const QUrl &base, int cases)
{
    return writeFile(dir.filePath(u"planner.spec.json"_s),
                     QJsonDocument(twoTurnSpecJson(base, u"CALLSCOPE_EVAL_API_KEY"_s)).toJson())
        && writeFile(dir.filePath(u"cases.jsonl"_s), numberedCases(cases))
        && writeFile(dir.filePath(u"exp.json"_s),
                     R"({"spec":"planner.spec.json","dataset":"cases.jsonl",
                "variants":[{"name":"a"},{"name":"b","system_prompt":"Plan carefully."}],
                "assert":[{"type":"command","command":["/bin/sh","-c","cat >/dev/null; sleep 0.3; echo checked"]}]})");
}

int requestCount(FakeProviderThread &server)
{
    int n = 0;
    server.run([&n](FakeProvider &p) { n = int(p.requestCount()); });
    return n;
}

// The experiment id from the first stderr line of a running eval ("" when it ended first).
QString readExperimentId(QProcess &process, QByteArray *err)
{
    process.setReadChannel(QProcess::StandardError);
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 30000) {
        *err += process.readAllStandardError();
        const QString id = experimentIdFrom(*err);
        if (!id.isEmpty())
            return id;
        if (process.state() == QProcess::NotRunning)
            break;
        process.waitForReadyRead(100);
    }
    return {};
}

} // namespace

// 20 SIGKILLs at random numbers of requests during eval --jobs 8 with a slow command check,
// each followed by --resume: every run has exactly one completed call, and the provider saw
// one request per run plus at most --jobs per kill (the calls in flight when it came).
void TestEval::randomKillsNeverPayTwice()
{
    FakeProviderThread server;
    QVERIFY(server.listen());
    server.run([](FakeProvider &p) { p.setResponder(okAfter(20)); });
    QTemporaryDir dir;
    const int cases = 100;
    const int variants = 2;
    const int jobs = 8;
    const int kills = 20;
    QVERIFY(writeSlowCheckExperiment(dir, server.baseUrl(), cases));
    const QString db = dir.filePath(u"h.sqlite"_s);
    const quint32 seed = QRandomGenerator::global()->generate();
    QRandomGenerator random(seed);
    qInfo("kill points from seed %u", seed);
    QString id;
    int killed = 0;
    for (int round = 0; round < kills; ++round) {
        QProcess process;
        QStringList extra { u"--jobs"_s, QString::number(jobs) };
        if (!id.isEmpty())
            extra << u"--resume"_s << id;
        const int requestsAtStart = requestCount(server);
        startEval(process, dir, extra + QStringList { u"--trust"_s }); // its command check is ours
        QVERIFY(process.waitForStarted());
        QByteArray err;
        const QString seen = readExperimentId(process, &err);
        QVERIFY2(!seen.isEmpty(), err.constData());
        if (id.isEmpty())
            id = seen;
        QCOMPARE(seen, id);
        // A kill after 1 to 8 new requests: calls in flight, checks running, runs being stored.
        const int at = requestsAtStart + 1 + int(random.bounded(8));
        QElapsedTimer clock;
        clock.start();
        while (requestCount(server) < at && process.state() != QProcess::NotRunning
               && clock.elapsed() < 30000)
            QThread::msleep(2);
        if (process.state() == QProcess::NotRunning)
            break; // everything was done before this kill point
        ::kill(pid_t(process.processId()), SIGKILL);
        QVERIFY(process.waitForFinished());
        ++killed;
    }
    const CliRun last = runEval({ dir.filePath(u"exp.json"_s), u"--db"_s, db, u"--jobs"_s,
                                  QString::number(jobs), u"--resume"_s, id, u"--trust"_s });
    QVERIFY2(last.exit == 0, last.err.right(2000).constData());
    const int planned = cases * variants;
    const int requests = requestCount(server);
    qInfo("%d kills; %d requests for %d runs (%d re-sent)", killed, requests, planned,
          requests - planned);
    QVERIFY(killed >= 10);
    QVERIFY2(requests >= planned && requests <= planned + killed * jobs,
             qPrintable(QString::number(requests)));
    QCOMPARE(sqlCount(db, u"SELECT COUNT(*) FROM calls WHERE status = 'completed'"_s), planned);
    QCOMPARE(
        sqlCount(
            db,
            u"SELECT COUNT(*) FROM (SELECT json_extract(metadata, '$.case') AS c, "
            u"json_extract(metadata, "
            u"'$.variant') AS v FROM calls WHERE status = 'completed' GROUP BY c, v HAVING COUNT(*) > 1)"_s),
        0);
    QCOMPARE(
        sqlCount(db, u"SELECT COUNT(*) FROM experiment_runs WHERE experiment_id = %1"_s.arg(id)),
        planned);
    QCOMPARE(
        sqlCount(
            db,
            u"SELECT COUNT(DISTINCT case_id || '/' || variant) FROM experiment_runs WHERE experiment_id = %1"_s
                .arg(id)),
        planned);
    QCOMPARE(
        last.summary.value(u"variants"_s).toArray().at(1).toObject().value(u"passed"_s).toInt(),
        cases);
}

// While one eval works on a stored experiment, a second --resume of it is refused.
void TestEval::secondResumeIsRefused()
{
    FakeProviderThread server;
    QVERIFY(server.listen());
    server.run([](FakeProvider &p) { p.setResponder(okAfter(300)); });
    QTemporaryDir dir;
    const int cases = 20;
    QVERIFY(writeSlowCheckExperiment(dir, server.baseUrl(), cases));
    const QString db = dir.filePath(u"h.sqlite"_s);
    // A first run, killed: the experiment to resume (its lock file is left behind).
    QProcess first;
    startEval(first, dir, { u"--jobs"_s, u"2"_s, u"--trust"_s });
    QVERIFY(first.waitForStarted());
    QByteArray err;
    const QString id = readExperimentId(first, &err);
    QVERIFY2(!id.isEmpty(), err.constData());
    QElapsedTimer clock;
    clock.start();
    while (requestCount(server) < 2 && clock.elapsed() < 30000)
        QThread::msleep(2);
    ::kill(pid_t(first.processId()), SIGKILL);
    QVERIFY(first.waitForFinished());

    // The resume takes over the dead process's lock; a second resume meanwhile is refused.
    QProcess resumed;
    // One call at a time at 300 ms each: it runs for seconds after the second one is refused.
    startEval(resumed, dir, { u"--jobs"_s, u"1"_s, u"--resume"_s, id, u"--trust"_s });
    QVERIFY(resumed.waitForStarted());
    QByteArray resumedErr;
    QCOMPARE(readExperimentId(resumed, &resumedErr), id);
    const CliRun second =
        runEval({ dir.filePath(u"exp.json"_s), u"--db"_s, db, u"--resume"_s, id, u"--trust"_s });
    QVERIFY2(resumed.state() != QProcess::NotRunning,
             "the first resume ended before the second started");
    QCOMPARE(second.exit, 1);
    QVERIFY2(second.err.contains("is in use by"), second.err.constData());
    QVERIFY(second.summary.isEmpty());
    QVERIFY(resumed.waitForFinished(120000));
    QVERIFY2(resumed.exitCode() == 0,
             QByteArray(resumedErr + resumed.readAllStandardError()).constData());
    QCOMPARE(
        sqlCount(db, u"SELECT COUNT(*) FROM experiment_runs WHERE experiment_id = %1"_s.arg(id)),
        cases * 2);
    QCOMPARE(sqlCount(db, u"SELECT COUNT(*) FROM calls WHERE status = 'completed'"_s), cases * 2);
}

namespace {

// One turn: submit_output with title "ok" or "bad". The system prompt carries the plan in
// brackets: "[rate=84 tag=A break=20]" passes case N ("Plan ticket N") when a hash of its
// input and the tag falls below the rate (in percent), except cases 1..break. The same input
// and prompt always get the same answer. `requestsByTag` counts what each tag sent.
FakeProvider::Responder plantedResponder(std::shared_ptr<QHash<QString, int>> requestsByTag = {})
{
    return [requestsByTag](const RecordedRequest &request) {
        QString system;
        QString input;
        for (const QJsonValue &m : request.jsonObject().value(u"messages"_s).toArray()) {
            const QJsonObject message = m.toObject();
            const QString role = message.value(u"role"_s).toString();
            if ((role == u"system"_s || role == u"developer"_s) && system.isEmpty())
                system = message.value(u"content"_s).toString();
            if (role == u"user"_s && input.isEmpty())
                input = message.value(u"content"_s).toString();
        }
        const QRegularExpressionMatch plan =
            QRegularExpression(u"\\[rate=(\\d+) tag=(\\w+)(?: break=(\\d+))?\\]"_s).match(system);
        const int rate = plan.hasMatch() ? plan.captured(1).toInt() : 100;
        const QString tag = plan.captured(2);
        const int broken = plan.captured(3).toInt();
        const int number = QRegularExpression(u"ticket (\\d+)"_s).match(input).captured(1).toInt();
        const QByteArray digest =
            QCryptographicHash::hash((input + u'|' + tag).toUtf8(), QCryptographicHash::Sha256);
        const int draw = ((uchar(digest.at(0)) << 8) | uchar(digest.at(1))) % 100;
        const bool passes = draw < rate && number > broken;
        if (requestsByTag)
            (*requestsByTag)[tag]++;
        return FakeReply::json(200,
                               openAiToolCallBody(u"call_1"_s, u"submit_output"_s,
                                                  { { u"title"_s, passes ? u"ok"_s : u"bad"_s } }));
    };
}

// `cases` cases "Plan ticket N" over the planned responder, with these variants (JSON array).
bool writePlantedExperiment(const QTemporaryDir &dir, const QUrl &base, int cases,
                            const QByteArray &variants, int repeat = 1,
                            const QByteArray &extra = {}, const QSet<int> &critical = {})
{
    QByteArray rows;
    for (int i = 1; i <= cases; ++i)
        rows += "{\"id\":\"c" + QByteArray::number(i) + "\",\"input\":\"Plan ticket "
            + QByteArray::number(i) + "\"" + (critical.contains(i) ? ",\"critical\":true" : "")
            + "}\n";
    return writeFile(dir.filePath(u"planner.spec.json"_s),
                     QJsonDocument(twoTurnSpecJson(base, u"CALLSCOPE_EVAL_API_KEY"_s)).toJson())
        && writeFile(dir.filePath(u"cases.jsonl"_s), rows)
        && writeFile(dir.filePath(u"exp.json"_s),
                     "{\"name\":\"planted\",\"spec\":\"planner.spec.json\",\"dataset\":\"cases."
                     "jsonl\",\"repeat\":"
                         + QByteArray::number(repeat) + ",\"variants\":" + variants + extra
                         + ",\"assert\":[{\"type\":\"equals\",\"pointer\":\"/"
                           "title\",\"value\":\"ok\"}]}");
}

QJsonObject comparisonOf(const QJsonObject &summary, const QString &a, const QString &b)
{
    for (const QJsonValue &c : summary.value(u"comparisons"_s).toArray()) {
        if (c.toObject().value(u"a"_s).toString() == a
            && c.toObject().value(u"b"_s).toString() == b)
            return c.toObject();
    }
    return {};
}

struct CliOutput
{
    int exit = -1;
    QJsonObject json;
    QByteArray out;
    QByteArray err;
};

CliOutput runCli(const QStringList &args)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"CALLSCOPE_EVAL_API_KEY"_s, u"sk-eval"_s);
    process.setProcessEnvironment(env);
    process.start(cliPath(), args);
    process.closeWriteChannel();
    if (!process.waitForFinished(180000))
        process.kill();
    CliOutput r;
    r.exit = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    r.out = process.readAllStandardOutput();
    r.json = QJsonDocument::fromJson(r.out).object();
    r.err = process.readAllStandardError();
    return r;
}

// A long system prompt that never changes: about 1,300 tokens.
QString staticRules()
{
    QString text;
    for (int i = 0; i < 80; ++i)
        text += u"Rule %1: answer with the ticket's title, short and exact. "_s.arg(i, 2, 10,
                                                                                    QChar(u'0'));
    return text;
}

QJsonObject cacheSpecJson(const QUrl &base, const QString &type, const QString &model,
                          const QString &system, const QJsonObject &cache, bool withTool)
{
    QJsonObject spec = twoTurnSpecJson(base, u"CALLSCOPE_EVAL_API_KEY"_s, model);
    spec.insert(u"system_prompt"_s, system);
    QJsonObject engine = spec.value(u"engine"_s).toObject();
    engine.insert(u"type"_s, type);
    engine.insert(u"max_tokens"_s, 512);
    spec.insert(u"engine"_s, engine);
    spec.insert(u"max_turns"_s, 6);
    if (!withTool)
        spec.remove(u"tools"_s);
    if (!cache.isEmpty())
        spec.insert(u"cache"_s, cache);
    return spec;
}

int toolResults(const QJsonObject &body)
{
    int n = 0;
    const QByteArray json = QJsonDocument(body).toJson(QJsonDocument::Compact);
    n += int(json.count("\"tool_result\"")); // Anthropic
    n += int(json.count("\"role\":\"tool\"")); // OpenAI Chat
    n += int(json.count("\"functionResponse\"")); // Gemini
    return n;
}

QJsonObject usageOf(const QJsonObject &o)
{
    return o.value(u"usage"_s).toObject();
}

qint64 tokens(const QJsonObject &usage, const char *field)
{
    return usage.value(QLatin1StringView(field)).toInteger();
}

// The provider answers every request with submit_output {"title": "ok"}, billing each as its
// cache would.
void answerWithTitle(FakeProviderThread &server, FakePromptCache::Provider provider,
                     const std::shared_ptr<FakeCacheLog> &log, qint64 outputTokens)
{
    auto cache = std::make_shared<FakePromptCache>(provider, 1024);
    server.run([&](FakeProvider &p) {
        p.setResponder(cachingResponder(
            cache,
            [](const QJsonObject &) {
                return std::pair { u"submit_output"_s, QJsonObject { { u"title"_s, u"ok"_s } } };
            },
            log, outputTokens));
    });
}

} // namespace

// The statistics against numbers worked out by hand.
void TestEval::statisticsByHand()
{
    using namespace Stats;
    // McNemar: 0 against 6 disagreeing cases: 2 * (1/2)^6.
    QCOMPARE(mcnemarExactP(0, 6), 2.0 / 64);
    QCOMPARE(mcnemarExactP(6, 0), 2.0 / 64);
    // 2 against 8: 2 * (C(10,0) + C(10,1) + C(10,2)) / 2^10 = 2 * 56 / 1024.
    QVERIFY(qFuzzyCompare(mcnemarExactP(2, 8), 112.0 / 1024));
    QCOMPARE(mcnemarExactP(5, 5), 1.0);
    QCOMPARE(mcnemarExactP(0, 0), 1.0);
    // Large counts stay finite: 100 against 160 is far from even.
    QVERIFY(mcnemarExactP(100, 160) < 0.001);
    QVERIFY(mcnemarExactP(100, 160) > 0);

    // pass@k = 1 - C(n-c,k)/C(n,k); pass^k = C(c,k)/C(n,k).
    QVERIFY(qFuzzyCompare(passAtK(3, 1, 2), 1 - 1.0 / 3)); // 1 - C(2,2)/C(3,2)
    QVERIFY(qFuzzyCompare(passAtK(3, 1, 1), 1.0 / 3));
    QCOMPARE(passAtK(3, 0, 3), 0.0);
    QCOMPARE(passAtK(5, 3, 3), 1.0); // only 2 failures: 3 draws always hit a pass
    QVERIFY(qFuzzyCompare(passAtK(5, 1, 2), 1 - 6.0 / 10)); // 1 - C(4,2)/C(5,2)
    QVERIFY(qFuzzyCompare(passHatK(3, 2, 2), 1.0 / 3)); // C(2,2)/C(3,2)
    QVERIFY(qFuzzyCompare(passHatK(5, 3, 3), 1.0 / 10)); // C(3,3)/C(5,3)
    QVERIFY(qFuzzyCompare(passHatK(5, 4, 2), 6.0 / 10)); // C(4,2)/C(5,2)
    QCOMPARE(passHatK(3, 1, 2), 0.0);
    QCOMPARE(passHatK(3, 3, 3), 1.0);
    // Averaged over cases: (2/3 + 1 + 0) / 3 for k = 2, passes 1, 3 and 0 of 3.
    const QJsonObject atK =
        passAtKJson({ { 3, 1, false, 0 }, { 3, 3, true, 1 }, { 3, 0, false, 0 } }, 3, false);
    QVERIFY(qFuzzyCompare(atK.value(u"1"_s).toDouble(), (1.0 / 3 + 1 + 0) / 3));
    QVERIFY(qFuzzyCompare(atK.value(u"2"_s).toDouble(), (2.0 / 3 + 1 + 0) / 3));
    QVERIFY(qFuzzyCompare(atK.value(u"3"_s).toDouble(), (1.0 + 1 + 0) / 3));
    const QJsonObject hatK =
        passAtKJson({ { 3, 1, false, 0 }, { 3, 3, true, 1 }, { 3, 0, false, 0 } }, 3, true);
    QVERIFY(qFuzzyCompare(hatK.value(u"2"_s).toDouble(), (0 + 1.0 + 0) / 3));
    QVERIFY(qFuzzyCompare(hatK.value(u"3"_s).toDouble(), 1.0 / 3));

    // Sign flips, exact for few differences: {1, 1, 1}: only all-plus and all-minus reach |3|.
    QCOMPARE(signFlipP({ 1, 1, 1, 0, 0 }, 1), 2.0 / 8);
    QCOMPARE(signFlipP({ 0, 0 }, 1), 1.0);
    // {1, 1, -1}: every assignment reaches |sum| >= 1.
    QCOMPARE(signFlipP({ 1, 1, -1 }, 1), 1.0);

    // The bootstrap: all differences equal gives that value; the same seed the same interval.
    const Interval same = bootstrapMeanInterval({ 0.5, 0.5, 0.5 }, 7);
    QCOMPARE(same.low, 0.5);
    QCOMPARE(same.high, 0.5);
    QList<double> mixed;
    for (int i = 0; i < 50; ++i)
        mixed.append(i % 3 == 0 ? 1.0 : i % 3 == 1 ? -1.0 : 0.0);
    const Interval once = bootstrapMeanInterval(mixed, 42);
    const Interval again = bootstrapMeanInterval(mixed, 42);
    QCOMPARE(once.low, again.low);
    QCOMPARE(once.high, again.high);
    const double mixedMean = 0.0; // 17 ones, 17 minus ones, 16 zeros
    QVERIFY(once.low < mixedMean && mixedMean < once.high);

    // The sentence says which way and how sure; an even split says what it could have seen.
    QHash<QString, CaseOutcome> a;
    QHash<QString, CaseOutcome> b;
    for (int i = 0; i < 200; ++i) {
        const QString id = u"c%1"_s.arg(i);
        a.insert(id, { 1, i < 150 ? 1 : 0, i < 150, i < 150 ? 1.0 : 0.0 });
        b.insert(id, { 1, i < 120 ? 1 : 0, i < 120, i < 120 ? 1.0 : 0.0 });
    }
    const PairedComparison worse = comparePaired(u"A"_s, a, u"B"_s, b, 3);
    QCOMPARE(worse.cases, 200);
    QCOMPARE(worse.onlyA, 30);
    QCOMPARE(worse.onlyB, 0);
    QCOMPARE(worse.passRateDiff, -0.15);
    QVERIFY(worse.ci95.high < 0);
    QVERIFY(worse.significant());
    QVERIFY2(worse.sentence.startsWith(u"B passes 15.0 points less often than A (95% CI "_s),
             qPrintable(worse.sentence));
    QVERIFY2(worse.sentence.endsWith(u"; p < 0.001)."_s), qPrintable(worse.sentence));
    QCOMPARE(worse.scoreDiff, -0.15);
    QVERIFY(worse.scorePValue < 0.001);
    const PairedComparison even = comparePaired(u"A"_s, a, u"A again"_s, a, 3);
    QCOMPARE(even.passRateDiff, 0.0);
    QVERIFY(even.ci95.contains(0));
    QCOMPARE(even.pValue, 1.0);
    QVERIFY(!even.significant());
    // No disagreement: the detectable difference from two independent 75% rates,
    // (1.96 + 0.84) * sqrt(2 * 0.75 * 0.25) / sqrt(200) = 12.1 points.
    QVERIFY2(even.sentence.contains(u"with 200 cases it would see about 12 points"_s),
             qPrintable(even.sentence));
    QVERIFY2(even.sentence.startsWith(u"No difference this run can detect between A and A again"_s),
             qPrintable(even.sentence));
}

// 100 simulated experiments of 400 paired cases with a known difference (84% under A, 74%
// under B, the two correlated): the 95% interval covers the true -10 points in at least 90.
void TestEval::statisticsCoverage()
{
    using namespace Stats;
    const double truth = 0.74 - 0.84;
    int covered = 0;
    int excludesZero = 0;
    int significant = 0;
    int identicalCovered = 0;
    for (int seed = 1; seed <= 100; ++seed) {
        Random random(std::uint64_t(seed) * 7919);
        QHash<QString, CaseOutcome> a;
        QHash<QString, CaseOutcome> b;
        for (int i = 0; i < 400; ++i) {
            // Both pass 70%, only A 14%, only B 4%, neither 12%.
            const double u = random.uniform();
            const bool passA = u < 0.84;
            const bool passB = u < 0.70 || (u >= 0.84 && u < 0.88);
            const QString id = u"case-%1"_s.arg(i);
            a.insert(id, { 1, passA, passA, double(passA) });
            b.insert(id, { 1, passB, passB, double(passB) });
        }
        const PairedComparison c = comparePaired(
            u"A"_s, a, u"B"_s, b, comparisonSeed(u"A"_s, u"B"_s) + std::uint64_t(seed));
        covered += c.ci95.contains(truth) ? 1 : 0;
        excludesZero += c.ci95.contains(0) ? 0 : 1;
        significant += c.significant() ? 1 : 0;
        const PairedComparison same = comparePaired(u"A"_s, a, u"A2"_s, a, std::uint64_t(seed));
        identicalCovered += same.ci95.contains(0) ? 1 : 0;
    }
    qInfo("interval covered the true difference in %d of 100; excluded 0 in %d; significant in %d",
          covered, excludesZero, significant);
    QVERIFY2(covered >= 90, qPrintable(QString::number(covered)));
    // A 10-point difference on 400 paired cases is seen nearly every time.
    QVERIFY(significant >= 95);
    QCOMPARE(identicalCovered, 100);
}

// A planted difference through the CLI: 400 cases, A passes about 84%, B about 74%; a third
// variant answers exactly like A. The comparison finds B below A, not A and its twin apart;
// the numbers are the same on a rerun; the HTML report carries the sentences.
void TestEval::pairedComparisonPlanted()
{
    FakeProviderThread server;
    QVERIFY(server.listen());
    server.run([](FakeProvider &p) { p.setResponder(plantedResponder()); });
    QTemporaryDir dir;
    QVERIFY(writePlantedExperiment(dir, server.baseUrl(), 400,
                                   R"([{"name":"A","system_prompt":"Plan. [rate=84 tag=A]"},
                                       {"name":"B","system_prompt":"Plan. [rate=74 tag=B]"},
                                       {"name":"A twin","system_prompt":"Plan. [rate=84 tag=A] "}])"));
    const QString html = dir.filePath(u"report.html"_s);
    const CliRun r = runEval({ dir.filePath(u"exp.json"_s), u"--db"_s, dir.filePath(u"h.sqlite"_s),
                               u"--jobs"_s, u"8"_s, u"--html"_s, html });
    QVERIFY2(r.exit == 1, r.err.constData());
    const QJsonArray variants = r.summary.value(u"variants"_s).toArray();
    const double rateA = variants.at(0).toObject().value(u"pass_rate"_s).toDouble();
    const double rateB = variants.at(1).toObject().value(u"pass_rate"_s).toDouble();
    qInfo("pass rates: A %.3f, B %.3f", rateA, rateB);
    QVERIFY(rateA > 0.78 && rateA < 0.90);
    QVERIFY(rateB > 0.68 && rateB < 0.80);
    QCOMPARE(r.summary.value(u"comparisons"_s).toArray().size(), 3);
    const QJsonObject ab = comparisonOf(r.summary, u"A"_s, u"B"_s);
    QCOMPARE(ab.value(u"cases"_s).toInt(), 400);
    QVERIFY(qFuzzyCompare(ab.value(u"pass_rate_diff"_s).toDouble(), rateB - rateA));
    const QJsonArray ci = ab.value(u"ci95"_s).toArray();
    qInfo("A vs B: %s", qPrintable(ab.value(u"sentence"_s).toString()));
    QVERIFY(ci.at(0).toDouble() < ab.value(u"pass_rate_diff"_s).toDouble());
    QVERIFY(ci.at(1).toDouble() < 0); // excludes 0, below it
    QVERIFY(ab.value(u"p_value"_s).toDouble() < 0.05);
    QVERIFY(ab.value(u"significant"_s).toBool());
    QVERIFY(ab.value(u"score_diff"_s).toDouble() < 0);
    QCOMPARE(ab.value(u"score_ci95"_s).toArray().size(), 2);
    QVERIFY(ab.value(u"sentence"_s).toString().startsWith(u"B passes "_s));
    QVERIFY(ab.value(u"sentence"_s).toString().contains(u"points less often than A (95% CI "_s));
    const QJsonObject twin = comparisonOf(r.summary, u"A"_s, u"A twin"_s);
    QCOMPARE(twin.value(u"pass_rate_diff"_s).toDouble(), 0.0);
    QVERIFY(twin.value(u"ci95"_s).toArray().at(0).toDouble() <= 0);
    QVERIFY(twin.value(u"ci95"_s).toArray().at(1).toDouble() >= 0);
    QCOMPARE(twin.value(u"p_value"_s).toDouble(), 1.0);
    QVERIFY(
        twin.value(u"sentence"_s).toString().startsWith(u"No difference this run can detect"_s));
    // No repeats: no pass@k.
    QVERIFY(!variants.at(0).toObject().contains(u"pass_at_k"_s));

    // The HTML report shows each comparison's sentence.
    QFile page(html);
    QVERIFY(page.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(page.readAll());
    QVERIFY(text.contains(ab.value(u"sentence"_s).toString().toHtmlEscaped()));
    QVERIFY(text.contains(u"<h2>Comparisons</h2>"_s));

    // The same runs, summed again from the store: the same numbers, to the last digit.
    const QString id = QString::number(r.summary.value(u"experiment_id"_s).toInteger());
    const CliRun again = runEval(
        { dir.filePath(u"exp.json"_s), u"--db"_s, dir.filePath(u"h.sqlite"_s), u"--resume"_s, id });
    QCOMPARE(comparisonOf(again.summary, u"A"_s, u"B"_s), ab);
}

// --baseline: a changed prompt that breaks 20 of 100 cases lists exactly those as regressions
// and exits 1; an unchanged rerun exits 0; a regression of a critical case exits 1 even when it
// is one of two; --fail-under gates on the pass rate.
void TestEval::baselineRegressions()
{
    FakeProviderThread server;
    QVERIFY(server.listen());
    server.run([](FakeProvider &p) { p.setResponder(plantedResponder()); });
    QTemporaryDir dir;
    const QString db = dir.filePath(u"h.sqlite"_s);
    const auto write = [&](const QByteArray &plan) {
        return writePlantedExperiment(
            dir, server.baseUrl(), 100,
            "[{\"name\":\"main\",\"system_prompt\":\"Plan. " + plan + "\"}]", 1, {}, { 2 });
    };
    const auto eval = [&](const QStringList &extra) {
        return runEval(
            QStringList { dir.filePath(u"exp.json"_s), u"--db"_s, db, u"--jobs"_s, u"8"_s }
            + extra);
    };
    QVERIFY(write("[rate=100 tag=A]"));
    const CliRun first = eval({});
    QVERIFY2(first.exit == 0, first.err.constData());
    const QString firstId = QString::number(first.summary.value(u"experiment_id"_s).toInteger());
    QVERIFY(!first.summary.contains(u"baseline"_s));

    // 20 cases broken by the new prompt.
    QVERIFY(write("[rate=100 tag=A break=20]"));
    const CliRun broken = eval({ u"--baseline"_s, u"latest"_s });
    QVERIFY2(broken.exit == 1, broken.err.constData());
    const QJsonObject baseline = broken.summary.value(u"baseline"_s).toObject();
    QCOMPARE(baseline.value(u"run"_s).toInteger(), firstId.toLongLong());
    QStringList expected;
    for (int i = 1; i <= 20; ++i)
        expected.append(u"c%1"_s.arg(i));
    QCOMPARE(baseline.value(u"regressions"_s).toVariant().toStringList(), expected);
    QCOMPARE(baseline.value(u"fixes"_s).toArray().size(), 0);
    QCOMPARE(baseline.value(u"newly_flaky"_s).toArray().size(), 0);
    QVERIFY(baseline.value(u"significant"_s).toBool());
    QCOMPARE(baseline.value(u"critical_regressions"_s).toVariant().toStringList(),
             QStringList { u"c2"_s });
    const QJsonObject main = baseline.value(u"variants"_s).toArray().at(0).toObject();
    QCOMPARE(main.value(u"cases"_s).toInt(), 100);
    QCOMPARE(main.value(u"pass_rate_before"_s).toDouble(), 1.0);
    QCOMPARE(main.value(u"pass_rate_now"_s).toDouble(), 0.8);
    QVERIFY(main.value(u"p_value"_s).toDouble() < 1e-5); // 2 * 0.5^20
    const QJsonObject equals = main.value(u"assertions"_s).toArray().at(0).toObject();
    QCOMPARE(equals.value(u"name"_s).toString(), u"equals"_s);
    QCOMPARE(equals.value(u"regressions"_s).toInt(), 20);
    QVERIFY(broken.err.contains("regression of a critical case"));

    // Unchanged against the first run: nothing regressed, exit 0 (the same cases still pass).
    QVERIFY(write("[rate=100 tag=A]"));
    const CliRun same = eval({ u"--baseline"_s, firstId });
    QVERIFY2(same.exit == 0, same.err.constData());
    QCOMPARE(same.summary.value(u"baseline"_s).toObject().value(u"regressions"_s).toArray().size(),
             0);
    QVERIFY(!same.summary.value(u"baseline"_s).toObject().value(u"significant"_s).toBool());
    // Against the broken run ("latest" is now the unchanged one, so name it): 20 fixes, exit 0.
    const QString brokenId = QString::number(broken.summary.value(u"experiment_id"_s).toInteger());
    const CliRun fixed = eval({ u"--baseline"_s, brokenId });
    QVERIFY2(fixed.exit == 0, fixed.err.constData());
    QCOMPARE(
        fixed.summary.value(u"baseline"_s).toObject().value(u"fixes"_s).toVariant().toStringList(),
        expected);

    // One regression, not critical and not significant: exit 0. Two with the critical c2: exit 1.
    QVERIFY(write("[rate=100 tag=A break=1]"));
    const CliRun one = eval({ u"--baseline"_s, firstId });
    QVERIFY2(one.exit == 0, one.err.constData());
    QCOMPARE(one.summary.value(u"baseline"_s)
                 .toObject()
                 .value(u"regressions"_s)
                 .toVariant()
                 .toStringList(),
             QStringList { u"c1"_s });
    QVERIFY(write("[rate=100 tag=A break=2]"));
    const CliRun critical = eval({ u"--baseline"_s, firstId });
    QVERIFY2(critical.exit == 1, critical.err.constData());
    QVERIFY(!critical.summary.value(u"baseline"_s).toObject().value(u"significant"_s).toBool());
    QCOMPARE(critical.summary.value(u"baseline"_s)
                 .toObject()
                 .value(u"critical_regressions"_s)
                 .toVariant()
                 .toStringList(),
             QStringList { u"c2"_s });

    // --fail-under: 98 of 100 pass.
    QCOMPARE(eval({ u"--fail-under"_s, u"0.99"_s }).exit, 1);
    QCOMPARE(eval({ u"--fail-under"_s, u"95%"_s }).exit, 0);
    QCOMPARE(eval({ u"--fail-under"_s, u"2"_s }).exit, 2);
    // An unknown baseline is refused before anything runs.
    const int before = requestCount(server);
    const CliRun unknown = eval({ u"--baseline"_s, u"9999"_s });
    QCOMPARE(unknown.exit, 2);
    QVERIFY2(unknown.err.contains("no stored experiment 9999"), unknown.err.constData());
    QCOMPARE(requestCount(server), before);
}

// The response cache: the same experiment run twice sends nothing the second time, every run
// says cached and costs 0 (the saving shown); editing one variant's prompt sends that
// variant's requests only; --no-cache and --refresh-cache send everything; another base URL
// never hits; a tool loop is cached turn by turn; the table keeps to its bound.
void TestEval::responseCache()
{
    auto byTag = std::make_shared<QHash<QString, int>>();
    FakeProviderThread server;
    QVERIFY(server.listen());
    server.run([byTag](FakeProvider &p) { p.setResponder(plantedResponder(byTag)); });
    QTemporaryDir dir;
    const QString db = dir.filePath(u"h.sqlite"_s);
    const QString out = dir.filePath(u"runs.jsonl"_s);
    const auto write = [&](const QUrl &base, const QByteArray &secondPlan) {
        return writePlantedExperiment(
                   dir, base, 30,
                   "[{\"name\":\"A\",\"system_prompt\":\"Plan. [rate=84 tag=A]\"},"
                   "{\"name\":\"B\",\"system_prompt\":\"Plan. "
                       + secondPlan + "\"}]",
                   2)
            && writeFile(dir.filePath(u"planner.spec.json"_s),
                         QJsonDocument(
                             twoTurnSpecJson(base, u"CALLSCOPE_EVAL_API_KEY"_s, u"gpt-4o-mini"_s))
                             .toJson());
    };
    const auto eval = [&](const QStringList &extra = {}, const QHash<QString, QString> &env = {}) {
        return runEval(QStringList { dir.filePath(u"exp.json"_s), u"--db"_s, db, u"--jobs"_s,
                                     u"8"_s, u"--out"_s, out }
                           + extra,
                       env);
    };
    const auto tagged = [&](const QString &tag) {
        int n = 0;
        server.run([&](FakeProvider &) { n = byTag->value(tag); });
        return n;
    };
    const auto outLines = [&out] {
        QList<QJsonObject> lines;
        QFile file(out);
        if (file.open(QIODevice::ReadOnly)) {
            for (const QByteArray &line : file.readAll().split('\n')) {
                if (!line.isEmpty())
                    lines.append(QJsonDocument::fromJson(line).object());
            }
        }
        return lines;
    };
    QVERIFY(write(server.baseUrl(), "[rate=74 tag=B]"));
    const CliRun first = eval();
    QVERIFY2(first.exit == 1, first.err.constData());
    QCOMPARE(requestCount(server), 120); // 30 cases x 2 variants x 2 repeats
    const QJsonObject firstA = first.summary.value(u"variants"_s).toArray().at(0).toObject();
    QCOMPARE(firstA.value(u"cached_runs"_s).toInt(), 0);
    QCOMPARE(firstA.value(u"cache_saved_usd"_s).toDouble(), 0.0);
    QVERIFY(firstA.value(u"cost_usd"_s).toDouble() > 0);
    for (const QJsonObject &line : outLines())
        QCOMPARE(line.value(u"cached"_s).toBool(), false);
    // The planted answers do not change between repeats: pass@k and pass^k are the pass rate.
    for (const char *k : { "1", "2" }) {
        QVERIFY(qFuzzyCompare(
            firstA.value(u"pass_at_k"_s).toObject().value(QLatin1StringView(k)).toDouble(),
            firstA.value(u"pass_rate"_s).toDouble()));
        QVERIFY(qFuzzyCompare(
            firstA.value(u"pass_hat_k"_s).toObject().value(QLatin1StringView(k)).toDouble(),
            firstA.value(u"pass_rate"_s).toDouble()));
    }
    QCOMPARE(sqlCount(db, u"SELECT COUNT(*) FROM response_cache"_s), 120);
    // Neither the key nor a header is kept.
    QCOMPARE(
        sqlCount(
            db,
            u"SELECT COUNT(*) FROM response_cache WHERE reply LIKE '%sk-eval%' OR key LIKE '%sk-eval%'"_s),
        0);

    // The same again: no request, every run cached, no cost, the saving is the first run's cost.
    const CliRun second = eval();
    QVERIFY2(second.exit == 1, second.err.constData());
    QCOMPARE(requestCount(server), 120);
    for (int v = 0; v < 2; ++v) {
        const QJsonObject before = first.summary.value(u"variants"_s).toArray().at(v).toObject();
        const QJsonObject now = second.summary.value(u"variants"_s).toArray().at(v).toObject();
        QCOMPARE(now.value(u"cached_runs"_s).toInt(), 60);
        QCOMPARE(now.value(u"cost_usd"_s).toDouble(), 0.0);
        QVERIFY(qAbs(now.value(u"cache_saved_usd"_s).toDouble()
                     - before.value(u"cost_usd"_s).toDouble())
                < 1e-12);
        QCOMPARE(now.value(u"passed"_s).toInt(), before.value(u"passed"_s).toInt());
    }
    for (const QJsonValue &c : second.summary.value(u"cells"_s).toArray()) {
        for (const QJsonValue &r : c.toObject().value(u"runs"_s).toArray())
            QVERIFY(r.toObject().value(u"cached"_s).toBool());
    }
    const QList<QJsonObject> cachedLines = outLines();
    QCOMPARE(cachedLines.size(), 120);
    for (const QJsonObject &line : cachedLines) {
        QCOMPARE(line.value(u"cached"_s).toBool(), true);
        QCOMPARE(line.value(u"cost_usd"_s).toDouble(), 0.0);
    }
    // The comparison is the same: the same answers.
    QCOMPARE(comparisonOf(second.summary, u"A"_s, u"B"_s),
             comparisonOf(first.summary, u"A"_s, u"B"_s));

    // One variant edited: only its requests are sent.
    QVERIFY(write(server.baseUrl(), "[rate=74 tag=C]"));
    const CliRun edited = eval();
    QVERIFY2(edited.exit == 1, edited.err.constData());
    QCOMPARE(requestCount(server), 180);
    QCOMPARE(tagged(u"A"_s), 60);
    QCOMPARE(tagged(u"C"_s), 60);
    QCOMPARE(edited.summary.value(u"variants"_s)
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(u"cached_runs"_s)
                 .toInt(),
             60);
    QCOMPARE(edited.summary.value(u"variants"_s)
                 .toArray()
                 .at(1)
                 .toObject()
                 .value(u"cached_runs"_s)
                 .toInt(),
             0);

    // --no-cache and --refresh-cache send everything; a refreshed cache answers the next run.
    QCOMPARE(eval({ u"--no-cache"_s }).exit, 1);
    QCOMPARE(requestCount(server), 300);
    QCOMPARE(eval({ u"--refresh-cache"_s }).exit, 1);
    QCOMPARE(requestCount(server), 420);
    QCOMPARE(eval().exit, 1);
    QCOMPARE(requestCount(server), 420);
    QCOMPARE(eval({ u"--no-cache"_s, u"--refresh-cache"_s }).exit, 2);

    // The same experiment on another base URL (another server): nothing comes from the cache.
    FakeProviderThread other;
    QVERIFY(other.listen());
    other.run([](FakeProvider &p) { p.setResponder(plantedResponder()); });
    QVERIFY(write(other.baseUrl(), "[rate=74 tag=C]"));
    const CliRun moved = eval();
    QVERIFY2(moved.exit == 1, moved.err.constData());
    QCOMPARE(requestCount(other), 120);
    QCOMPARE(moved.summary.value(u"variants"_s)
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(u"cached_runs"_s)
                 .toInt(),
             0);
    QCOMPARE(requestCount(server), 420);

    // A two-turn tool loop, cached turn by turn: the rerun sends nothing.
    FakeProviderThread loop;
    QVERIFY(loop.listen());
    loop.run([](FakeProvider &p) { p.setResponder(scriptedResponder(0)); });
    QVERIFY(writeFile(
        dir.filePath(u"planner.spec.json"_s),
        QJsonDocument(twoTurnSpecJson(loop.baseUrl(), u"CALLSCOPE_EVAL_API_KEY"_s)).toJson()));
    QVERIFY(writeFile(dir.filePath(u"cases.jsonl"_s),
                      "{\"id\":\"a\",\"input\":\"Plan the pass ticket\"}\n"
                      "{\"id\":\"b\",\"input\":\"Plan the fail ticket\"}\n"));
    QVERIFY(writeFile(dir.filePath(u"exp.json"_s),
                      R"({"spec":"planner.spec.json","dataset":"cases.jsonl",
        "assert":[{"type":"equals","pointer":"/title","value":"ok"},{"type":"tool_sequence","names":["get_ticket","submit_output"]}]})"));
    const CliRun loopFirst = eval();
    QCOMPARE(requestCount(loop), 4);
    const CliRun loopSecond = eval();
    QCOMPARE(requestCount(loop), 4);
    QCOMPARE(loopSecond.summary.value(u"variants"_s)
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(u"cached_runs"_s)
                 .toInt(),
             2);
    QCOMPARE(
        loopSecond.summary.value(u"cells"_s).toArray().at(0).toObject().value(u"passed"_s).toBool(),
        true);
    QCOMPARE(
        loopSecond.summary.value(u"cells"_s).toArray().at(1).toObject().value(u"passed"_s).toBool(),
        false);
    // The call answered from the cache is stored like any other, with both turns.
    const qint64 callId = loopSecond.summary.value(u"cells"_s)
                              .toArray()
                              .at(0)
                              .toObject()
                              .value(u"runs"_s)
                              .toArray()
                              .at(0)
                              .toObject()
                              .value(u"call_id"_s)
                              .toInteger();
    QCOMPARE(sqlCount(db, u"SELECT turn_count FROM calls WHERE id = %1"_s.arg(callId)), 2);

    // Bounded: with room for about three replies, the oldest go first.
    QHash<QString, QString> small { { u"CALLSCOPE_RESPONSE_CACHE_MAX_BYTES"_s, u"1500"_s } };
    QVERIFY(write(server.baseUrl(), "[rate=74 tag=D]"));
    QCOMPARE(eval({}, small).exit, 1);
    QVERIFY(sqlCount(db, u"SELECT COUNT(*) FROM response_cache"_s) > 0);
    QVERIFY(sqlCount(db, u"SELECT COALESCE(SUM(bytes), 0) FROM response_cache"_s) <= 1500);
    const int sent = requestCount(server);
    QCOMPARE(eval({}, small).exit, 1);
    QVERIFY(requestCount(server) - sent >= 110); // almost everything sent again
}

// Inline JavaScript: passing, failing, throwing and endless scripts; no require,
// XMLHttpRequest, Qt or file access; transforms on an assertion and on a case.
void TestEval::javascriptAssertions()
{
    const CallRecord call = sampleCall(); // {"title": "Fix login", "tags": ["ui", "auth"], "n": 3}
    DatasetRow row;
    row.id = u"r"_s;
    row.vars = QJsonObject { { u"ticket"_s, 7 } };
    row.expected = QJsonObject { { u"title"_s, u"Fix login"_s } };
    const auto check = [&](const QByteArray &json, const DatasetRow &on) {
        const Assertion a = assertion(json);
        const QString problem = checkAssertion(a);
        if (!problem.isEmpty()) {
            AssertionResult invalid;
            invalid.reason = u"invalid: "_s + problem;
            return invalid;
        }
        return evaluateScripted(a, call, on);
    };
    const auto passes = [&](const QByteArray &json) {
        return check(json, row);
    };

    QVERIFY(
        passes(
            R"j({"type":"javascript","value":"output.title === 'Fix login' && output.tags.length === 2"})j")
            .passed);
    QVERIFY(
        passes(
            R"j({"type":"javascript","value":"vars.ticket === 7 && expected.title === output.title"})j")
            .passed);
    // The call's messages are in scope: the last one carries submit_output.
    QVERIFY(passes(R"j({"type":"javascript","value":"turns.length === 3"})j").passed);
    // A function body with return, over several lines.
    QVERIFY(
        passes(
            R"j({"type":"javascript","value":"const n = output.n;\nif (n > 2)\n  return true;\nreturn false;"})j")
            .passed);
    const AssertionResult failing = passes(R"j({"type":"javascript","value":"output.n > 10"})j");
    QVERIFY(!failing.passed);
    QCOMPARE(failing.reason, u"the script returned false"_s);
    // A number is a score against the threshold; an object says pass and why.
    QVERIFY(passes(R"j({"type":"javascript","value":"output.n / 4"})j").passed);
    QVERIFY(!passes(R"j({"type":"javascript","value":"output.n / 4","threshold":0.9})j").passed);
    const AssertionResult said = passes(
        R"j({"type":"javascript","value":"({pass: false, reason: 'too short: ' + output.title.length})"})j");
    QVERIFY(!said.passed);
    QCOMPARE(said.reason, u"too short: 9"_s);

    const AssertionResult thrown = passes(
        R"j({"type":"javascript","value":"if (output.n === 3) throw new Error('boom at ' + output.n); return true;"})j");
    QVERIFY(!thrown.passed);
    QVERIFY2(thrown.reason.contains(u"the script threw"_s)
                 && thrown.reason.contains(u"boom at 3"_s),
             qPrintable(thrown.reason));

    // An endless script is stopped at its limit, not hung on.
    QElapsedTimer clock;
    clock.start();
    const AssertionResult endless =
        passes(R"j({"type":"javascript","value":"while (true) {}","timeout_ms":300})j");
    QVERIFY(!endless.passed);
    QVERIFY2(endless.reason.contains(u"longer than its limit of 300 ms"_s),
             qPrintable(endless.reason));
    QVERIFY2(clock.elapsed() < 20000, qPrintable(QString::number(clock.elapsed())));
    // The same for an endless transform.
    const AssertionResult endlessTransform =
        passes(R"j({"type":"status","transform":"for (;;) {}","timeout_ms":200})j");
    QVERIFY(!endlessTransform.passed);
    QVERIFY2(endlessTransform.reason.contains(u"the assertion's transform failed"_s),
             qPrintable(endlessTransform.reason));

    // Nothing outside the script: each attempt fails cleanly with what was missing.
    for (const char *script : { "require('fs').readFileSync('/etc/passwd')", "new XMLHttpRequest()",
                                "Qt.include('/etc/passwd')", "fetch('http://127.0.0.1:9')",
                                "importScripts('x.js')", "readFile('/etc/passwd')" }) {
        const AssertionResult r =
            passes(QByteArray("{\"type\":\"javascript\",\"value\":\"") + script + "\"}");
        QVERIFY2(!r.passed, script);
        QVERIFY2(r.reason.contains(u"ReferenceError"_s),
                 qPrintable(QString::fromLatin1(script) + u": "_s + r.reason));
    }
    QVERIFY(
        passes(
            R"j({"type":"javascript","value":"typeof require === 'undefined' && typeof XMLHttpRequest === 'undefined' && typeof Qt === 'undefined'"})j")
            .passed);
    // Each script runs in a fresh engine: what one leaves behind, the next does not see.
    QVERIFY(passes(R"j({"type":"javascript","value":"leak = 1; return leak === 1;"})j").passed);
    QVERIFY(passes(R"j({"type":"javascript","value":"typeof leak === 'undefined'"})j").passed);

    // A transform on an assertion reshapes the output for that check only.
    QVERIFY(
        passes(
            R"j({"type":"equals","pointer":"/t","value":"FIX LOGIN","transform":"({t: output.title.toUpperCase()})"})j")
            .passed);
    QVERIFY(!passes(R"j({"type":"equals","pointer":"/title","value":"FIX LOGIN"})j").passed);
    QVERIFY(passes(R"j({"type":"contains","pointer":"","value":"auth","transform":"output.tags"})j")
                .passed);
    // A case's transform comes first, then the assertion's.
    DatasetRow transformed = row;
    transformed.transform = u"({title: output.title.toLowerCase(), n: output.n * 2})"_s;
    QVERIFY(check(R"j({"type":"equals","pointer":"/n","value":6})j", transformed).passed);
    QVERIFY(check(R"j({"type":"javascript","value":"output.title === 'fix login'"})j", transformed)
                .passed);
    QVERIFY(
        check(R"j({"type":"equals","pointer":"/n","value":7,"transform":"({n: output.n + 1})"})j",
              transformed)
            .passed);
    DatasetRow broken = row;
    broken.transform = u"output.missing.field"_s;
    const AssertionResult brokenResult = check(R"j({"type":"status"})j", broken);
    QVERIFY(!brokenResult.passed);
    QVERIFY2(brokenResult.reason.contains(u"the case's transform failed"_s)
                 && brokenResult.reason.contains(u"TypeError"_s),
             qPrintable(brokenResult.reason));
    QVERIFY(checkScriptSyntax(u"output.title ==="_s).startsWith(u"line 1: SyntaxError"_s));
}

// Through the CLI: a javascript assertion and a transformed one decide the verdicts; an endless
// script fails its runs at the limit and the experiment ends; a syntax error stops the
// experiment before any request.
void TestEval::javascriptInAnExperiment()
{
    FakeProviderThread server;
    QVERIFY(server.listen());
    server.run([](FakeProvider &p) { p.setResponder(scriptedResponder(0)); });
    QTemporaryDir dir;
    QVERIFY(writeFile(
        dir.filePath(u"planner.spec.json"_s),
        QJsonDocument(twoTurnSpecJson(server.baseUrl(), u"CALLSCOPE_EVAL_API_KEY"_s)).toJson()));
    QVERIFY(writeFile(
        dir.filePath(u"cases.jsonl"_s),
        "{\"id\":\"a\",\"input\":\"Plan the pass ticket\",\"vars\":{\"want\":\"ok\"}}\n"
        "{\"id\":\"b\",\"input\":\"Plan the fail ticket\",\"vars\":{\"want\":\"ok\"}}\n"
        "{\"id\":\"c\",\"input\":\"Plan the fail ticket again\",\"vars\":{\"want\":\"bad\"},"
        "\"transform\":\"({title: output.title.toUpperCase()})\"}\n"));
    QVERIFY(writeFile(dir.filePath(u"exp.json"_s),
                      R"j({"spec":"planner.spec.json","dataset":"cases.jsonl",
        "assert":[{"type":"javascript","name":"wanted","value":"output.title.toLowerCase() === vars.want"},
                  {"type":"equals","name":"loud","pointer":"/t","value":"OK","transform":"({t: output.title.toUpperCase()})"}]})j"));
    const QString db = dir.filePath(u"h.sqlite"_s);
    const CliRun r = runEval({ dir.filePath(u"exp.json"_s), u"--db"_s, db });
    QVERIFY2(r.exit == 1, r.err.constData());
    const QJsonArray cells = r.summary.value(u"cells"_s).toArray();
    QCOMPARE(cells.size(), 3);
    const auto verdicts = [&cells](int i) {
        QMap<QString, bool> out;
        for (const QJsonValue &a : cells.at(i)
                                       .toObject()
                                       .value(u"runs"_s)
                                       .toArray()
                                       .at(0)
                                       .toObject()
                                       .value(u"assertions"_s)
                                       .toArray())
            out.insert(a.toObject().value(u"name"_s).toString(),
                       a.toObject().value(u"passed"_s).toBool());
        return out;
    };
    // a: "ok" is wanted and loud. b: "bad" is not wanted, not loud. c: its case transform makes
    // "BAD", wanted as "bad"; the loud check sees "BAD" upper-cased again.
    QCOMPARE(verdicts(0), (QMap<QString, bool> { { u"wanted"_s, true }, { u"loud"_s, true } }));
    QCOMPARE(verdicts(1), (QMap<QString, bool> { { u"wanted"_s, false }, { u"loud"_s, false } }));
    QCOMPARE(verdicts(2), (QMap<QString, bool> { { u"wanted"_s, true }, { u"loud"_s, false } }));
    QCOMPARE(cells.at(0).toObject().value(u"passed"_s).toBool(), true);

    // An endless script: every run fails at the limit, the experiment still ends.
    QVERIFY(writeFile(dir.filePath(u"exp.json"_s),
                      R"j({"spec":"planner.spec.json","dataset":"cases.jsonl",
        "assert":[{"type":"javascript","value":"while (true) {}","timeout_ms":250}]})j"));
    const CliRun endless = runEval({ dir.filePath(u"exp.json"_s), u"--db"_s, db });
    QVERIFY2(endless.exit == 1, endless.err.constData());
    QCOMPARE(
        endless.summary.value(u"variants"_s).toArray().at(0).toObject().value(u"failed"_s).toInt(),
        3);

    // A syntax error: exit 2 with its place, nothing sent.
    const int before = requestCount(server);
    QVERIFY(writeFile(dir.filePath(u"exp.json"_s),
                      R"j({"spec":"planner.spec.json","dataset":"cases.jsonl",
        "assert":[{"type":"status"},{"type":"javascript","value":"const a = 1;\nreturn a ==;"}]})j"));
    const CliRun bad = runEval({ dir.filePath(u"exp.json"_s), u"--db"_s, db });
    QCOMPARE(bad.exit, 2);
    QVERIFY2(bad.err.contains("/assert/1") && bad.err.contains("line 2: SyntaxError"),
             bad.err.constData());
    QCOMPARE(requestCount(server), before);
}

// The baseline comparison on runs made up here: a steady case that turned flaky, a fix, a
// regression of a critical case, per-assertion counts and the cost and latency deltas; one
// variant on each side is matched although the names differ.
void TestEval::baselineByHand()
{
    const auto storedRun = [](const QString &caseId, int repeat, bool passed, double cost,
                              qint64 latency) {
        ExperimentRunRecord r;
        r.caseId = caseId;
        r.variant = u"old"_s;
        r.repeat = repeat;
        r.status = u"completed"_s;
        r.passed = passed;
        r.costUsd = cost;
        r.latencyMs = latency;
        AssertionResult a;
        a.type = u"equals"_s;
        a.name = u"title"_s;
        a.passed = passed;
        r.assertions = QJsonArray { a.toJson() };
        return r;
    };
    // Before: x and z passed both repeats, y failed both.
    QList<ExperimentRunRecord> before;
    for (int k = 0; k < 2; ++k) {
        before.append(storedRun(u"x"_s, k, true, 0.01, 100));
        before.append(storedRun(u"y"_s, k, false, 0.01, 100));
        before.append(storedRun(u"z"_s, k, true, 0.01, 100));
    }
    before.append(storedRun(u"gone"_s, 0, true, 0.01, 100)); // not in this run: not compared
    // Now: x passes once (flaky), y passes, z fails.
    const auto run = [](bool passed) {
        AssertionResult a;
        a.type = u"equals"_s;
        a.name = u"title"_s;
        a.passed = passed;
        return QJsonObject { { u"passed"_s, passed },
                             { u"cost_usd"_s, 0.02 },
                             { u"latency_ms"_s, 300 },
                             { u"assertions"_s, QJsonArray { a.toJson() } } };
    };
    const auto cell = [&run](const QString &id, bool first, bool second) {
        return QJsonObject { { u"case"_s, id },
                             { u"variant"_s, u"new"_s },
                             { u"passed"_s, first && second },
                             { u"flaky"_s, first != second },
                             { u"runs"_s, QJsonArray { run(first), run(second) } } };
    };
    const QJsonObject summary { { u"variants"_s,
                                  QJsonArray { QJsonObject { { u"name"_s, u"new"_s } } } },
                                { u"cells"_s,
                                  QJsonArray { cell(u"x"_s, true, false), cell(u"y"_s, true, true),
                                               cell(u"z"_s, false, false) } } };
    const BaselineComparison c = compareWithBaseline(summary, 7, before, { u"z"_s });
    QCOMPARE(c.run, 7);
    QCOMPARE(c.regressions, QStringList { u"z"_s });
    QCOMPARE(c.fixes, QStringList { u"y"_s });
    QCOMPARE(c.newlyFlaky, QStringList { u"x"_s });
    QCOMPARE(c.criticalRegressions, QStringList { u"z"_s });
    QVERIFY(c.fails());
    QVERIFY(!c.significant); // 2 worse (x, z) against 1 better: p = 1
    QCOMPARE(c.variants.size(), 1);
    const BaselineVariant &v = c.variants.first();
    QCOMPARE(v.baselineVariant, u"old"_s);
    QCOMPARE(v.cases, 3);
    QCOMPARE(v.worse, 2);
    QCOMPARE(v.better, 1);
    QCOMPARE(v.pValue, 1.0);
    QCOMPARE(v.passRateBefore, 2.0 / 3);
    QCOMPARE(v.passRateNow, 1.0 / 3);
    QVERIFY(v.costDeltaUsd && qAbs(*v.costDeltaUsd - (6 * 0.02 - 6 * 0.01)) < 1e-12);
    QCOMPARE(v.latencyP50DeltaMs, 200);
    // The title check regressed in x and z and was fixed in y.
    QCOMPARE(v.assertions.size(), 1);
    QCOMPARE(v.assertions.at(0).toObject().value(u"regressions"_s).toInt(), 2);
    QCOMPARE(v.assertions.at(0).toObject().value(u"fixes"_s).toInt(), 1);
    const QJsonObject json = c.toJson();
    QCOMPARE(json.value(u"newly_flaky"_s).toArray(), QJsonArray { u"x"_s });
    QCOMPARE(json.value(u"significant"_s).toBool(), false);
    // Without the critical mark nothing fails: one regression is not beyond chance.
    QVERIFY(!compareWithBaseline(summary, 7, before, {}).fails());
}

// The fake providers' caches follow the rules each provider documents, so the tests below
// measure Callscope against the behaviour of the real services.
void TestEval::fakeCachesAsDocumented()
{
    const QString rules = staticRules();
    // Anthropic: nothing is cached without a breakpoint, nor below the minimum; a breakpoint
    // writes once, the same prefix reads, an entry lives 5 minutes (refreshed by a read), and
    // expires after that.
    FakePromptCache anthropic(FakePromptCache::Provider::Anthropic, 1024);
    QJsonObject body {
        { u"system"_s, rules },
        { u"messages"_s,
          QJsonArray { QJsonObject { { u"role"_s, u"user"_s }, { u"content"_s, u"a"_s } } } }
    };
    QCOMPARE(anthropic.use(body).read + anthropic.use(body).written5m, qint64(0));
    const QJsonObject mark { { u"type"_s, u"ephemeral"_s } };
    body.insert(u"system"_s,
                QJsonArray { QJsonObject { { u"type"_s, u"text"_s },
                                           { u"text"_s, rules },
                                           { u"cache_control"_s, mark } } });
    const FakeCacheUsage first = anthropic.use(body);
    QVERIFY(first.written5m > 1024);
    QCOMPARE(first.read, qint64(0));
    const FakeCacheUsage second = anthropic.use(body);
    QCOMPARE(second.read, first.written5m);
    QCOMPARE(second.written5m, qint64(0));
    QCOMPARE(second.prompt(), first.prompt());
    anthropic.advance(4 * 60 * 1000);
    QCOMPARE(anthropic.use(body).read, first.written5m); // refreshed
    anthropic.advance(5 * 60 * 1000 + 1);
    QCOMPARE(anthropic.use(body).written5m, first.written5m); // expired, written again
    QJsonObject shortBody = body;
    shortBody.insert(u"system"_s,
                     QJsonArray { QJsonObject { { u"type"_s, u"text"_s },
                                                { u"text"_s, u"Be brief."_s },
                                                { u"cache_control"_s, mark } } });
    QCOMPARE(anthropic.use(shortBody).written5m, qint64(0));
    QCOMPARE(anthropic.use(shortBody).read, qint64(0));

    // OpenAI: automatic from 1,024 tokens, hits in steps of 128, routed by prompt_cache_key.
    FakePromptCache openai(FakePromptCache::Provider::OpenAIChat);
    QJsonObject chat {
        { u"messages"_s,
          QJsonArray { QJsonObject { { u"role"_s, u"system"_s }, { u"content"_s, rules } },
                       QJsonObject { { u"role"_s, u"user"_s }, { u"content"_s, u"one"_s } } } }
    };
    QCOMPARE(openai.use(chat).read, qint64(0));
    QJsonObject other = chat;
    other.insert(
        u"messages"_s,
        QJsonArray { chat.value(u"messages"_s).toArray().at(0),
                     QJsonObject { { u"role"_s, u"user"_s }, { u"content"_s, u"two"_s } } });
    const FakeCacheUsage hit = openai.use(other);
    QVERIFY(hit.read >= 1024);
    QCOMPARE((hit.read - 1024) % 128, qint64(0));
    QVERIFY(hit.prompt() - hit.read < 128 + 20);
    QJsonObject keyed = other;
    keyed.insert(u"prompt_cache_key"_s, u"elsewhere"_s);
    QCOMPARE(openai.use(keyed).read, qint64(0));

    // Gemini: implicit caching of the common prefix from the minimum on; an explicit entry
    // is counted whole and is gone once deleted.
    FakePromptCache gemini(FakePromptCache::Provider::Gemini, 1024);
    const QJsonObject g {
        { u"systemInstruction"_s,
          QJsonObject { { u"parts"_s, QJsonArray { QJsonObject { { u"text"_s, rules } } } } } },
        { u"contents"_s,
          QJsonArray { QJsonObject {
              { u"role"_s, u"user"_s },
              { u"parts"_s, QJsonArray { QJsonObject { { u"text"_s, u"x"_s } } } } } } }
    };
    QCOMPARE(gemini.use(g).read, qint64(0));
    QVERIFY(gemini.use(g).read > 1024);
    const QString name = gemini.create(g, 3600);
    const QJsonObject byName { { u"cachedContent"_s, name },
                               { u"contents"_s, g.value(u"contents"_s) } };
    QVERIFY(gemini.use(byName).read > 1024);
    QVERIFY(gemini.remove(name));
    QCOMPARE(gemini.explicitEntries(), 0);
}

// A three-turn tool loop on Anthropic with breakpoints after the tools and the system prompt:
// turn 1 writes the prefix, turns 2 and 3 read it. The request bodies carry the documented
// cache_control objects; the stored usage, the cost at the shipped prices and the saving are
// exact.
void TestEval::cacheThreeTurnToolLoopAnthropic()
{
    auto cache = std::make_shared<FakePromptCache>(FakePromptCache::Provider::Anthropic, 1024);
    auto log = std::make_shared<FakeCacheLog>();
    FakeProviderThread server;
    QVERIFY(server.listen());
    server.run([&](FakeProvider &p) {
        p.setResponder(cachingResponder(
            cache,
            [](const QJsonObject &body) {
                const int results = toolResults(body);
                if (results < 2)
                    return std::pair { u"get_ticket"_s, QJsonObject { { u"id"_s, 7 + results } } };
                return std::pair { u"submit_output"_s,
                                   QJsonObject { { u"title"_s, u"Fix login"_s } } };
            },
            log));
    });
    QTemporaryDir dir;
    const QJsonObject cacheSettings { { u"breakpoints"_s, QJsonArray { u"tools"_s, u"system"_s } },
                                      { u"ttl"_s, u"5m"_s } };
    QVERIFY(writeFile(
        dir.filePath(u"loop.spec.json"_s),
        QJsonDocument(cacheSpecJson(server.baseUrl(), u"anthropic"_s, u"claude-sonnet-4"_s,
                                    staticRules(), cacheSettings, true))
            .toJson()));
    const QString db = dir.filePath(u"h.sqlite"_s);
    const CliOutput run = runCli({ u"run"_s, dir.filePath(u"loop.spec.json"_s), u"--input"_s,
                                   u"Plan ticket 7"_s, u"--db"_s, db });
    QVERIFY2(run.exit == 0, run.err.constData());
    QCOMPARE(run.json.value(u"turns"_s).toInt(), 3);

    // The request bodies, as Anthropic documents them.
    QList<RecordedRequest> requests;
    server.run([&](FakeProvider &p) { requests = p.requests(); });
    QCOMPARE(requests.size(), 3);
    const QJsonObject control { { u"type"_s, u"ephemeral"_s }, { u"ttl"_s, u"5m"_s } };
    for (const RecordedRequest &r : requests) {
        const QJsonObject body = r.jsonObject();
        QCOMPARE(
            body.value(u"tools"_s).toArray().last().toObject().value(u"cache_control"_s).toObject(),
            control);
        const QJsonArray system = body.value(u"system"_s).toArray();
        QCOMPARE(system.size(), 1);
        QCOMPARE(system.at(0).toObject().value(u"cache_control"_s).toObject(), control);
        QCOMPARE(system.at(0).toObject().value(u"text"_s).toString(), staticRules());
    }

    // What the fake provider billed: turn 1 writes, turns 2 and 3 read the same prefix.
    const QList<FakeCacheUsage> billed = log->snapshot();
    QCOMPARE(billed.size(), 3);
    const qint64 written = billed.at(0).written5m;
    QVERIFY2(written > 1024, qPrintable(QString::number(written)));
    QCOMPARE(billed.at(0).read, qint64(0));
    for (int t : { 1, 2 }) {
        QCOMPARE(billed.at(t).read, written);
        QCOMPARE(billed.at(t).written5m + billed.at(t).written1h, qint64(0));
    }
    qint64 uncached = 0, read = 0;
    for (const FakeCacheUsage &u : billed) {
        uncached += u.uncached;
        read += u.read;
    }

    // The stored call: per turn and summed.
    const CliOutput shown = runCli(
        { u"show"_s, QString::number(run.json.value(u"call_id"_s).toInteger()), u"--db"_s, db });
    QCOMPARE(shown.exit, 0);
    const QJsonArray turns = shown.json.value(u"turns"_s).toArray();
    QCOMPARE(turns.size(), 3);
    for (int t = 0; t < 3; ++t) {
        const QJsonObject u = usageOf(turns.at(t).toObject());
        QCOMPARE(tokens(u, "input_tokens"), billed.at(t).uncached);
        QCOMPARE(tokens(u, "cache_read_tokens"), billed.at(t).read);
        QCOMPARE(tokens(u, "cache_write_tokens"), billed.at(t).written5m);
        QCOMPARE(tokens(u, "cache_write_1h_tokens"), qint64(0));
        QCOMPARE(tokens(u, "output_tokens"), qint64(40));
    }
    for (const QJsonObject &u : { usageOf(shown.json), usageOf(run.json) }) {
        QCOMPARE(tokens(u, "input_tokens"), uncached);
        QCOMPARE(tokens(u, "cache_read_tokens"), read);
        QCOMPARE(tokens(u, "cache_write_tokens"), written);
        QCOMPARE(tokens(u, "output_tokens"), qint64(120));
    }

    // Cost by hand with the shipped claude-sonnet-4 prices (USD per million): input 3.00,
    // cache read 0.30, 5-minute write 3.75, output 15.00; without the cache every prompt
    // token at 3.00.
    const double cost = (uncached * 3.00 + read * 0.30 + written * 3.75 + 120 * 15.00) / 1e6;
    const double plain = ((uncached + read + written) * 3.00 + 120 * 15.00) / 1e6;
    qInfo("tokens: %lld uncached, %lld read, %lld written, 120 out; cost $%.6f, without the cache "
          "$%.6f, saved $%.6f",
          uncached, read, written, cost, plain, plain - cost);
    QVERIFY(qAbs(run.json.value(u"cost_usd"_s).toDouble() - cost) < 1e-12);
    QVERIFY(qAbs(run.json.value(u"cost_uncached_usd"_s).toDouble() - plain) < 1e-12);
    QCOMPARE(qRound64(run.json.value(u"cost_usd"_s).toDouble() * 100), qRound64(cost * 100));
    QVERIFY(plain - cost > 0);

    // The cache view: the write, then two reads; the first turn had nothing to read.
    const CliOutput view = runCli(
        { u"cache"_s, QString::number(run.json.value(u"call_id"_s).toInteger()), u"--db"_s, db });
    QVERIFY2(view.exit == 0, view.err.constData());
    const QJsonArray viewTurns = view.json.value(u"turns"_s).toArray();
    QCOMPARE(viewTurns.size(), 3);
    QCOMPARE(viewTurns.at(0).toObject().value(u"status"_s).toString(), u"written"_s);
    QCOMPARE(viewTurns.at(0).toObject().value(u"reason_kind"_s).toString(), u"first"_s);
    QCOMPARE(viewTurns.at(1).toObject().value(u"status"_s).toString(), u"hit"_s);
    QCOMPARE(viewTurns.at(2).toObject().value(u"status"_s).toString(), u"hit"_s);
    const QJsonArray blocks = viewTurns.at(2).toObject().value(u"blocks"_s).toArray();
    QCOMPARE(blocks.at(0).toObject().value(u"kind"_s).toString(), u"tools"_s);
    QVERIFY(blocks.at(0).toObject().value(u"breakpoint"_s).toBool());
    QCOMPARE(blocks.at(1).toObject().value(u"kind"_s).toString(), u"system"_s);
    QVERIFY(blocks.at(1).toObject().value(u"breakpoint"_s).toBool());
    QCOMPARE(blocks.size(), 2 + 5); // input, call, result, call, result
    QVERIFY(qAbs(view.json.value(u"cost_usd"_s).toDouble() - cost) < 1e-12);

    // Lint: the tools alone are far below the model's minimum, so their breakpoint caches nothing.
    const CliOutput lint = runCli({ u"lint"_s, dir.filePath(u"loop.spec.json"_s) });
    QCOMPARE(lint.exit, 0);
    QVERIFY2(lint.out.contains("\"pointer\": \"/cache/breakpoints/0\"")
                 && lint.out.contains("cache-below-minimum"),
             lint.out.constData());
    QVERIFY2(!lint.out.contains("cache-vars-first"), lint.out.constData());
}

// OpenAI and Gemini count cached tokens inside the prompt: they are taken out once, so the
// stored parts add up to what the provider counted and the cost bills each token once.
void TestEval::cacheCountedOnceOpenAIAndGemini_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("provider");
    QTest::addColumn<double>("inPrice");
    QTest::addColumn<double>("cachedPrice");
    QTest::addColumn<double>("outPrice");
    QTest::newRow("openai") << u"openai"_s << u"gpt-4.1"_s
                            << int(FakePromptCache::Provider::OpenAIChat) << 2.00 << 0.50 << 8.00;
    QTest::newRow("openai-responses")
        << u"openai-responses"_s << u"gpt-4.1-mini"_s
        << int(FakePromptCache::Provider::OpenAIResponses) << 0.40 << 0.10 << 1.60;
    QTest::newRow("gemini") << u"gemini"_s << u"gemini-2.5-flash"_s
                            << int(FakePromptCache::Provider::Gemini) << 0.30 << 0.075 << 2.50;
}

void TestEval::cacheCountedOnceOpenAIAndGemini()
{
    QFETCH(QString, type);
    QFETCH(QString, model);
    QFETCH(int, provider);
    QFETCH(double, inPrice);
    QFETCH(double, cachedPrice);
    QFETCH(double, outPrice);
    auto log = std::make_shared<FakeCacheLog>();
    FakeProviderThread server;
    QVERIFY(server.listen());
    answerWithTitle(server, FakePromptCache::Provider(provider), log, 12);
    QTemporaryDir dir;
    const QJsonObject settings =
        type == u"gemini" ? QJsonObject() : QJsonObject { { u"key"_s, u"planner"_s } };
    QVERIFY(writeFile(
        dir.filePath(u"s.spec.json"_s),
        QJsonDocument(cacheSpecJson(server.baseUrl(), type, model, staticRules(), settings, false))
            .toJson()));
    const QString db = dir.filePath(u"h.sqlite"_s);
    CliOutput runs[2];
    for (int i = 0; i < 2; ++i) {
        runs[i] = runCli({ u"run"_s, dir.filePath(u"s.spec.json"_s), u"--input"_s,
                           u"Plan ticket %1"_s.arg(i), u"--db"_s, db });
        QVERIFY2(runs[i].exit == 0, runs[i].err.constData());
    }
    QList<RecordedRequest> requests;
    server.run([&](FakeProvider &p) { requests = p.requests(); });
    if (type != u"gemini")
        QCOMPARE(requests.at(0).jsonObject().value(u"prompt_cache_key"_s).toString(), u"planner"_s);
    const QList<FakeCacheUsage> billed = log->snapshot();
    QCOMPARE(billed.size(), 2);
    QCOMPARE(billed.at(0).read, qint64(0));
    QVERIFY2(billed.at(1).read >= 1024, qPrintable(QString::number(billed.at(1).read)));
    const QJsonObject u = usageOf(runs[1].json);
    // The provider counted billed.prompt() prompt tokens, cached ones included.
    QCOMPARE(tokens(u, "input_tokens") + tokens(u, "cache_read_tokens")
                 + tokens(u, "cache_write_tokens"),
             billed.at(1).prompt());
    QCOMPARE(tokens(u, "cache_read_tokens"), billed.at(1).read);
    QCOMPARE(tokens(u, "input_tokens"), billed.at(1).prompt() - billed.at(1).read);
    const double cost = ((billed.at(1).prompt() - billed.at(1).read) * inPrice
                         + billed.at(1).read * cachedPrice + 12 * outPrice)
        / 1e6;
    const double plain = (billed.at(1).prompt() * inPrice + 12 * outPrice) / 1e6;
    QVERIFY2(qAbs(runs[1].json.value(u"cost_usd"_s).toDouble() - cost) < 1e-12,
             qPrintable(u"%1 != %2"_s.arg(runs[1].json.value(u"cost_usd"_s).toDouble()).arg(cost)));
    QVERIFY(qAbs(runs[1].json.value(u"cost_uncached_usd"_s).toDouble() - plain) < 1e-12);
    QVERIFY(qAbs(runs[0].json.value(u"cost_usd"_s).toDouble()
                 - runs[0].json.value(u"cost_uncached_usd"_s).toDouble())
            < 1e-15);
}

// 50 cases, two variants: A puts {{customer}} at the start of the system prompt, B at its end.
// Lint warns on A; on OpenAI (automatic prefix caching) A's hit rate is 0 and B's high, the
// saving is exact, the summary names A as the variant that breaks the cache, and the cache
// view of an A call names the system prompt and the character where it differs.
void TestEval::cacheExperimentVarsFirstBreaksTheCache()
{
    auto log = std::make_shared<FakeCacheLog>();
    FakeProviderThread server;
    QVERIFY(server.listen());
    answerWithTitle(server, FakePromptCache::Provider::OpenAIChat, log, 10);
    QTemporaryDir dir;
    const QString first = u"Customer: {{customer}}. "_s + staticRules();
    const QString last = staticRules() + u"Customer: {{customer}}."_s;
    QVERIFY(writeFile(
        dir.filePath(u"p.spec.json"_s),
        QJsonDocument(cacheSpecJson(server.baseUrl(), u"openai"_s, u"gpt-4.1"_s, first, {}, false))
            .toJson()));
    QJsonArray rows;
    for (int i = 0; i < 50; ++i)
        rows.append(QJsonObject {
            { u"id"_s, u"case-%1"_s.arg(i) },
            { u"input"_s, u"Plan ticket %1"_s.arg(i) },
            { u"vars"_s, QJsonObject { { u"customer"_s, u"Client %1"_s.arg(1000 + i * 7) } } } });
    const QJsonObject experiment {
        { u"name"_s, u"cache order"_s },
        { u"spec"_s, u"p.spec.json"_s },
        { u"dataset"_s, rows },
        { u"jobs"_s, 4 },
        { u"variants"_s,
          QJsonArray { QJsonObject { { u"name"_s, u"A"_s }, { u"system_prompt"_s, first } },
                       QJsonObject { { u"name"_s, u"B"_s }, { u"system_prompt"_s, last } } } }
    };
    QVERIFY(writeFile(dir.filePath(u"exp.json"_s), QJsonDocument(experiment).toJson()));

    // Lint of A's spec, before anything is spent.
    const CliOutput lint = runCli({ u"lint"_s, dir.filePath(u"p.spec.json"_s) });
    QCOMPARE(lint.exit, 0);
    QVERIFY2(lint.out.contains("cache-vars-first")
                 && lint.out.contains("\"pointer\": \"/system_prompt\""),
             lint.out.constData());

    const QString db = dir.filePath(u"h.sqlite"_s);
    const CliRun r = runEval({ dir.filePath(u"exp.json"_s), u"--db"_s, db });
    QVERIFY2(r.exit == 0, r.err.constData());
    const QJsonArray variants = r.summary.value(u"variants"_s).toArray();
    QCOMPARE(variants.size(), 2);
    const QJsonObject a = variants.at(0).toObject();
    const QJsonObject b = variants.at(1).toObject();
    qInfo("hit rate A %.3f, B %.3f; saved A $%.6f, B $%.6f",
          a.value(u"cache_hit_rate"_s).toDouble(), b.value(u"cache_hit_rate"_s).toDouble(),
          a.value(u"cache_saved_usd"_s).toDouble(), b.value(u"cache_saved_usd"_s).toDouble());
    QCOMPARE(a.value(u"cache_hit_rate"_s).toDouble(), 0.0);
    QVERIFY(b.value(u"cache_hit_rate"_s).toDouble() > 0.8);
    QCOMPARE(a.value(u"cache_saved_usd"_s).toDouble(), 0.0);
    // gpt-4.1: a cached token costs 0.50 instead of 2.00 per million.
    const qint64 bRead = b.value(u"tokens"_s).toObject().value(u"cache_read"_s).toInteger();
    QVERIFY(bRead > 49 * 1024);
    QVERIFY(qAbs(b.value(u"cache_saved_usd"_s).toDouble() - bRead * 1.50 / 1e6) < 1e-12);
    QVERIFY(qAbs(b.value(u"cost_uncached_usd"_s).toDouble() - b.value(u"cost_usd"_s).toDouble()
                 - bRead * 1.50 / 1e6)
            < 1e-12);
    QVERIFY(a.value(u"breaks_cache"_s).toBool());
    QVERIFY(!b.value(u"breaks_cache"_s).toBool());
    QCOMPARE(a.value(u"cache_advice"_s).toArray().at(0).toObject().value(u"rule"_s).toString(),
             u"cache-vars-first"_s);
    QVERIFY(b.value(u"cache_advice"_s).toArray().isEmpty());

    // The cache view of A's last call: it differs from the A call before it in the system
    // prompt, in the digits after "Customer: Client " (every case has its own number).
    qint64 lastA = 0;
    {
        auto opened = Database::open(db);
        QVERIFY(opened);
        QSqlQuery q((*opened)->connection());
        QVERIFY(
            q.exec(u"SELECT max(id) FROM calls WHERE json_extract(metadata, '$.variant') = 'A'"_s)
            && q.next());
        lastA = q.value(0).toLongLong();
    }
    const CliOutput view = runCli({ u"cache"_s, QString::number(lastA), u"--db"_s, db });
    QVERIFY2(view.exit == 0, view.err.constData());
    const QJsonObject turn = view.json.value(u"turns"_s).toArray().at(0).toObject();
    QCOMPARE(turn.value(u"status"_s).toString(), u"miss"_s);
    QCOMPARE(turn.value(u"reason_kind"_s).toString(), u"differs"_s);
    const QJsonArray blocks = turn.value(u"blocks"_s).toArray();
    QCOMPARE(
        blocks.at(turn.value(u"different_block"_s).toInt()).toObject().value(u"kind"_s).toString(),
        u"system"_s);
    const qint64 compared = turn.value(u"compared_call"_s).toInteger();
    QVERIFY(compared > 0 && compared < lastA);
    const int at = turn.value(u"different_at"_s).toInt();
    QVERIFY2(at >= 18 && at <= 21, qPrintable(QString::number(at)));
    const QString reason = turn.value(u"reason"_s).toString();
    QVERIFY2(reason.contains(
                 u"system prompt differs from call %1 at character %2"_s.arg(compared).arg(at)),
             qPrintable(reason));
}

namespace {

// Gemini with its explicit cache endpoints: every model request is answered with submit_output
// {"title": "ok"} and billed as `cache` would (`next` instead, when given).
void serveGeminiExplicit(FakeProviderThread &server, const std::shared_ptr<FakePromptCache> &cache,
                         const std::shared_ptr<FakeCacheLog> &log, qint64 outputTokens,
                         FakeProvider::Responder next = {})
{
    if (!next)
        next = cachingResponder(
            cache,
            [](const QJsonObject &) {
                return std::pair { u"submit_output"_s, QJsonObject { { u"title"_s, u"ok"_s } } };
            },
            log, outputTokens);
    server.run(
        [&](FakeProvider &p) { p.setResponder(withGeminiCacheEndpoints(cache, log, next)); });
}

QList<RecordedRequest> generateRequests(FakeProviderThread &server)
{
    QList<RecordedRequest> out;
    server.run([&](FakeProvider &p) {
        for (const RecordedRequest &r : p.requests()) {
            if (r.path.contains(":generateContent") || r.path.contains(":streamGenerateContent"))
                out.append(r);
        }
    });
    return out;
}

QString writeInputs(const QTemporaryDir &dir, int lines)
{
    QByteArray inputs;
    for (int i = 0; i < lines; ++i)
        inputs += "\"Plan ticket " + QByteArray::number(i) + "\"\n";
    const QString path = dir.filePath(u"inputs.jsonl"_s);
    writeFile(path, inputs);
    return path;
}

QList<QJsonObject> jsonLines(const QByteArray &out)
{
    QList<QJsonObject> lines;
    for (const QByteArray &line : out.split('\n')) {
        if (!line.trimmed().isEmpty())
            lines.append(QJsonDocument::fromJson(line).object());
    }
    return lines;
}

const QJsonObject kExplicit { { u"explicit"_s, true }, { u"ttl"_s, u"3600s"_s } };

} // namespace

// A batch of 20 calls with Gemini's explicit cache: the entry is created once, before the first
// call, with the documented body; all 20 requests name it and send neither the system
// instruction nor the tools; it is deleted at the end (the provider holds none); the cached
// tokens are inside the input once, and the batch's cost adds the storage.
void TestEval::cacheGeminiExplicitBatch()
{
    auto cache = std::make_shared<FakePromptCache>(FakePromptCache::Provider::Gemini, 1024);
    auto log = std::make_shared<FakeCacheLog>();
    FakeProviderThread server;
    QVERIFY(server.listen());
    serveGeminiExplicit(server, cache, log, 20);
    QTemporaryDir dir;
    QVERIFY(
        writeFile(dir.filePath(u"g.spec.json"_s),
                  QJsonDocument(cacheSpecJson(server.baseUrl(), u"gemini"_s, u"gemini-2.5-flash"_s,
                                              staticRules(), kExplicit, true))
                      .toJson()));
    const QString db = dir.filePath(u"h.sqlite"_s);
    const CliOutput r = runCli({ u"batch"_s, dir.filePath(u"g.spec.json"_s), u"--inputs"_s,
                                 writeInputs(dir, 20), u"--jobs"_s, u"4"_s, u"--db"_s, db });
    QVERIFY2(r.exit == 0, r.err.constData());

    // One create, with the documented CachedContent body, before any model request.
    int created = -1, entries = -1;
    QList<RecordedRequest> all;
    server.run([&](FakeProvider &p) {
        created = cache->explicitCreated();
        entries = cache->explicitEntries();
        all = p.requests();
    });
    QCOMPARE(created, 1);
    QCOMPARE(entries, 0);
    QCOMPARE(log->creates.size(), 1);
    QVERIFY2(log->refused.isEmpty(), qPrintable(log->refused.join(u"; "_s)));
    const QJsonObject body = log->creates.first();
    QCOMPARE(body.value(u"model"_s).toString(), u"models/gemini-2.5-flash"_s);
    QCOMPARE(body.value(u"ttl"_s).toString(), u"3600s"_s);
    QCOMPARE(body.value(u"systemInstruction"_s)
                 .toObject()
                 .value(u"parts"_s)
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(u"text"_s)
                 .toString(),
             staticRules());
    QStringList toolNames;
    for (const QJsonValue &d : body.value(u"tools"_s)
                                   .toArray()
                                   .at(0)
                                   .toObject()
                                   .value(u"functionDeclarations"_s)
                                   .toArray())
        toolNames.append(d.toObject().value(u"name"_s).toString());
    QVERIFY2(toolNames.contains(u"submit_output"_s) && toolNames.size() >= 2,
             qPrintable(toolNames.join(u','))); // the spec's tool and submit_output
    QVERIFY(!body.contains(u"contents"_s));
    QCOMPARE(all.first().method, QByteArray("POST"));
    QVERIFY(all.first().path.endsWith("/v1beta/cachedContents"));
    QCOMPARE(all.last().method, QByteArray("DELETE"));
    QCOMPARE(log->deletes, QList<QByteArray> { "/v1beta/cachedContents/fake-1" });
    // The key goes to the engine's own address, on the create and the delete alike.
    QCOMPARE(log->createKeys, (QList<QByteArray> { "sk-eval", "sk-eval" }));

    // All 20 requests name the entry and leave the prefix out.
    const QList<RecordedRequest> calls = generateRequests(server);
    QCOMPARE(calls.size(), 20);
    for (const RecordedRequest &c : calls) {
        const QJsonObject b = c.jsonObject();
        QCOMPARE(b.value(u"cachedContent"_s).toString(), u"cachedContents/fake-1"_s);
        QVERIFY(!b.contains(u"systemInstruction"_s));
        QVERIFY(!b.contains(u"tools"_s));
        QVERIFY(!b.contains(u"toolConfig"_s));
        QCOMPARE(c.header("x-goog-api-key"), QByteArray("sk-eval"));
    }

    // The cached tokens are inside the prompt once: the stored parts add up to what the
    // provider counted, and each line's cost bills each token once (gemini-2.5-flash: input
    // 0.30, cached 0.075, output 2.50 per million).
    const QList<FakeCacheUsage> billed = log->snapshot();
    QCOMPARE(billed.size(), 20);
    const qint64 entryTokens = billed.first().read;
    QVERIFY2(entryTokens > 1024, qPrintable(QString::number(entryTokens)));
    qint64 billedPrompt = 0;
    for (const FakeCacheUsage &u : billed) {
        QCOMPARE(u.read, entryTokens);
        billedPrompt += u.prompt();
    }
    const QList<QJsonObject> lines = jsonLines(r.out);
    QCOMPARE(lines.size(), 20);
    qint64 input = 0, read = 0;
    double cost = 0, plain = 0;
    for (const QJsonObject &line : lines) {
        QCOMPARE(line.value(u"status"_s).toString(), u"completed"_s);
        const QJsonObject u = usageOf(line);
        QCOMPARE(tokens(u, "cache_read_tokens"), entryTokens);
        QCOMPARE(tokens(u, "cache_write_tokens"), qint64(0));
        input += tokens(u, "input_tokens");
        read += tokens(u, "cache_read_tokens");
        const double expected =
            (tokens(u, "input_tokens") * 0.30 + entryTokens * 0.075 + 20 * 2.50) / 1e6;
        QVERIFY2(qAbs(line.value(u"cost_usd"_s).toDouble() - expected) < 1e-12,
                 qPrintable(u"%1 != %2"_s.arg(line.value(u"cost_usd"_s).toDouble()).arg(expected)));
        cost += expected;
        plain += ((tokens(u, "input_tokens") + entryTokens) * 0.30 + 20 * 2.50) / 1e6;
    }
    QCOMPARE(input + read, billedPrompt);
    QCOMPARE(read, 20 * entryTokens);

    // The summary on stderr: the entry, its requests, its storage (tokens x hours kept at
    // 1.00 per million tokens an hour), inside the batch's cost; without the cache: no storage.
    const QString err = QString::fromUtf8(r.err);
    const QRegularExpressionMatch entry =
        QRegularExpression(u"explicit cache cachedContents/fake-1: (\\d+) tokens, named by (\\d+) "
                           "requests, kept ([0-9.]+) s, deleted; storage \\$([0-9.e-]+)"_s)
            .match(err);
    QVERIFY2(entry.hasMatch(), r.err.constData());
    QCOMPARE(entry.captured(1).toLongLong(), entryTokens);
    QCOMPARE(entry.captured(2).toInt(), 20);
    const double kept = entry.captured(3).toDouble();
    QVERIFY(kept > 0 && kept < 180);
    const double storage = entryTokens * 1.00 * (kept / 3600.0) / 1e6;
    QVERIFY(qAbs(entry.captured(4).toDouble() - storage) <= storage * 1e-3 + 1e-12);
    const QRegularExpressionMatch total =
        QRegularExpression(u"\\$([0-9.]+) with \\$([0-9.e-]+) of cache storage, \\$([0-9.]+) "
                           "without the cache"_s)
            .match(err);
    QVERIFY2(total.hasMatch(), r.err.constData());
    QVERIFY(qAbs(total.captured(1).toDouble() - (cost + storage)) < 2e-6);
    QVERIFY(qAbs(total.captured(3).toDouble() - plain) < 2e-6);
    qInfo("explicit cache: %lld tokens, 20 requests, kept %.3f s; batch $%.6f (storage $%.10f), "
          "$%.6f without the cache",
          entryTokens, kept, cost + storage, storage, plain);
    QVERIFY(plain > cost + storage);
}

// The entry goes also when the batch fails or is cancelled, and a create that Gemini refuses
// (the prefix is below the model's minimum) is said once: the calls send their prefix and
// complete.
void TestEval::cacheGeminiExplicitBatchEndsBadly()
{
    // Every model request fails: the batch fails, the entry is still deleted.
    {
        auto cache = std::make_shared<FakePromptCache>(FakePromptCache::Provider::Gemini, 1024);
        auto log = std::make_shared<FakeCacheLog>();
        FakeProviderThread server;
        QVERIFY(server.listen());
        serveGeminiExplicit(server, cache, log, 20, [](const RecordedRequest &) {
            return FakeReply::json(
                400, R"({"error":{"code":400,"message":"bad","status":"INVALID_ARGUMENT"}})");
        });
        QTemporaryDir dir;
        QVERIFY(writeFile(
            dir.filePath(u"g.spec.json"_s),
            QJsonDocument(cacheSpecJson(server.baseUrl(), u"gemini"_s, u"gemini-2.5-flash"_s,
                                        staticRules(), kExplicit, true))
                .toJson()));
        const CliOutput r = runCli({ u"batch"_s, dir.filePath(u"g.spec.json"_s), u"--inputs"_s,
                                     writeInputs(dir, 5), u"--db"_s, dir.filePath(u"h.sqlite"_s) });
        QCOMPARE(r.exit, 1);
        int created = -1, entries = -1;
        server.run([&](FakeProvider &) {
            created = cache->explicitCreated();
            entries = cache->explicitEntries();
        });
        QCOMPARE(created, 1);
        QCOMPARE(entries, 0);
        QCOMPARE(log->deletes.size(), 1);
        QCOMPARE(generateRequests(server).size(), 5);
    }
    // Ctrl+C while the calls wait for their answers: cancelled, and the entry is deleted.
    {
        auto cache = std::make_shared<FakePromptCache>(FakePromptCache::Provider::Gemini, 1024);
        auto log = std::make_shared<FakeCacheLog>();
        FakeProviderThread server;
        QVERIFY(server.listen());
        auto waiting = std::make_shared<std::atomic<int>>(0);
        serveGeminiExplicit(server, cache, log, 20, [waiting](const RecordedRequest &) {
            ++*waiting;
            return FakeReply::stall();
        });
        QTemporaryDir dir;
        QVERIFY(writeFile(
            dir.filePath(u"g.spec.json"_s),
            QJsonDocument(cacheSpecJson(server.baseUrl(), u"gemini"_s, u"gemini-2.5-flash"_s,
                                        staticRules(), kExplicit, true))
                .toJson()));
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"CALLSCOPE_EVAL_API_KEY"_s, u"sk-eval"_s);
        process.setProcessEnvironment(env);
        process.start(cliPath(),
                      { u"batch"_s, dir.filePath(u"g.spec.json"_s), u"--inputs"_s,
                        writeInputs(dir, 8), u"--jobs"_s, u"2"_s, u"--db"_s,
                        dir.filePath(u"h.sqlite"_s) });
        QVERIFY(process.waitForStarted());
        QVERIFY(waitFor(server, [&] { return *waiting >= 2; }));
        ::kill(pid_t(process.processId()), SIGINT);
        QVERIFY(process.waitForFinished(30000));
        const QByteArray err = process.readAllStandardError();
        QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == 1,
                 err.constData());
        int entries = -1;
        server.run([&](FakeProvider &) { entries = cache->explicitEntries(); });
        QCOMPARE(entries, 0);
        QCOMPARE(log->creates.size(), 1);
        QCOMPARE(log->deletes, QList<QByteArray> { "/v1beta/cachedContents/fake-1" });
    }
    // The create is refused (the prefix is below the minimum): one warning, no entry, every
    // call sends its prefix and completes.
    {
        auto cache = std::make_shared<FakePromptCache>(FakePromptCache::Provider::Gemini, 1000000);
        auto log = std::make_shared<FakeCacheLog>();
        FakeProviderThread server;
        QVERIFY(server.listen());
        serveGeminiExplicit(server, cache, log, 20);
        QTemporaryDir dir;
        QVERIFY(writeFile(
            dir.filePath(u"g.spec.json"_s),
            QJsonDocument(cacheSpecJson(server.baseUrl(), u"gemini"_s, u"gemini-2.5-flash"_s,
                                        staticRules(), kExplicit, true))
                .toJson()));
        const CliOutput r =
            runCli({ u"batch"_s, dir.filePath(u"g.spec.json"_s), u"--inputs"_s, writeInputs(dir, 6),
                     u"--jobs"_s, u"3"_s, u"--db"_s, dir.filePath(u"h.sqlite"_s) });
        QVERIFY2(r.exit == 0, r.err.constData());
        QCOMPARE(log->creates.size(), 1); // asked once, not once per call
        QCOMPARE(log->deletes.size(), 0);
        QCOMPARE(r.err.count("could not be created"), qsizetype(1));
        QVERIFY2(r.err.contains("warning: Gemini's explicit cache for gemini-2.5-flash could not "
                                "be created")
                     && r.err.contains("Cached content is too small"),
                 r.err.constData());
        const QList<RecordedRequest> calls = generateRequests(server);
        QCOMPARE(calls.size(), 6);
        for (const RecordedRequest &c : calls) {
            const QJsonObject b = c.jsonObject();
            QVERIFY(!b.contains(u"cachedContent"_s));
            QVERIFY(b.contains(u"systemInstruction"_s));
            QVERIFY(b.contains(u"tools"_s));
        }
        for (const QJsonObject &line : jsonLines(r.out))
            QCOMPARE(line.value(u"status"_s).toString(), u"completed"_s);
    }
}

// An experiment of two variants with their own system prompts on Gemini's explicit cache: one
// entry per variant, made once and named by each of its 10 calls, both deleted at the end; the
// summary lists them, and each variant's cost holds its entry's storage.
void TestEval::cacheGeminiExplicitExperiment()
{
    auto cache = std::make_shared<FakePromptCache>(FakePromptCache::Provider::Gemini, 1024);
    auto log = std::make_shared<FakeCacheLog>();
    FakeProviderThread server;
    QVERIFY(server.listen());
    serveGeminiExplicit(server, cache, log, 15);
    QTemporaryDir dir;
    QVERIFY(
        writeFile(dir.filePath(u"g.spec.json"_s),
                  QJsonDocument(cacheSpecJson(server.baseUrl(), u"gemini"_s, u"gemini-2.5-flash"_s,
                                              staticRules(), kExplicit, true))
                      .toJson()));
    QJsonArray rows;
    for (int i = 0; i < 10; ++i)
        rows.append(QJsonObject { { u"id"_s, u"case-%1"_s.arg(i) },
                                  { u"input"_s, u"Plan ticket %1"_s.arg(i) } });
    const QJsonObject experiment {
        { u"name"_s, u"explicit"_s },
        { u"spec"_s, u"g.spec.json"_s },
        { u"dataset"_s, rows },
        { u"jobs"_s, 4 },
        { u"variants"_s,
          QJsonArray {
              QJsonObject { { u"name"_s, u"A"_s } },
              QJsonObject { { u"name"_s, u"B"_s },
                            { u"system_prompt"_s, QString(staticRules() + u" Be brief."_s) } } } }
    };
    QVERIFY(writeFile(dir.filePath(u"exp.json"_s), QJsonDocument(experiment).toJson()));
    const CliRun r =
        runEval({ dir.filePath(u"exp.json"_s), u"--db"_s, dir.filePath(u"h.sqlite"_s) });
    QVERIFY2(r.exit == 0, r.err.constData());

    int created = -1, entries = -1;
    server.run([&](FakeProvider &) {
        created = cache->explicitCreated();
        entries = cache->explicitEntries();
    });
    QCOMPARE(created, 2);
    QCOMPARE(entries, 0);
    QCOMPARE(log->deletes.size(), 2);
    const QList<RecordedRequest> calls = generateRequests(server);
    QCOMPARE(calls.size(), 20);
    QHash<QString, int> named;
    for (const RecordedRequest &c : calls) {
        const QJsonObject b = c.jsonObject();
        QVERIFY(!b.contains(u"systemInstruction"_s) && !b.contains(u"tools"_s));
        ++named[b.value(u"cachedContent"_s).toString()];
    }
    QCOMPARE(named.value(u"cachedContents/fake-1"_s), 10);
    QCOMPARE(named.value(u"cachedContents/fake-2"_s), 10);

    const QJsonObject explicitCache = r.summary.value(u"explicit_cache"_s).toObject();
    const QJsonArray list = explicitCache.value(u"entries"_s).toArray();
    QCOMPARE(list.size(), 2);
    double storage = 0;
    QHash<QString, double> storageOf;
    for (const QJsonValue &v : list) {
        const QJsonObject e = v.toObject();
        QCOMPARE(e.value(u"requests"_s).toInt(), 10);
        QVERIFY(e.value(u"deleted"_s).toBool());
        QCOMPARE(e.value(u"used_by"_s).toArray().size(), 1);
        const double usd = e.value(u"tokens"_s).toInteger() * 1.00
            * (e.value(u"kept_seconds"_s).toDouble() / 3600.0) / 1e6;
        QVERIFY(qAbs(e.value(u"storage_usd"_s).toDouble() - usd) < 1e-15);
        storage += usd;
        storageOf[e.value(u"used_by"_s).toArray().at(0).toString()] += usd;
    }
    QVERIFY(qAbs(explicitCache.value(u"storage_usd"_s).toDouble() - storage) < 1e-15);
    const QJsonArray variants = r.summary.value(u"variants"_s).toArray();
    QCOMPARE(variants.size(), 2);
    for (const QJsonValue &v : variants) {
        const QJsonObject variant = v.toObject();
        const QString name = variant.value(u"name"_s).toString();
        double runs = 0;
        for (const QJsonValue &c : r.summary.value(u"cells"_s).toArray()) {
            if (c.toObject().value(u"variant"_s).toString() == name)
                runs += c.toObject().value(u"cost_usd"_s).toDouble();
        }
        QVERIFY(qAbs(variant.value(u"cache_storage_usd"_s).toDouble() - storageOf.value(name))
                < 1e-15);
        QVERIFY(qAbs(variant.value(u"cost_usd"_s).toDouble() - (runs + storageOf.value(name)))
                < 1e-12);
        QVERIFY(variant.value(u"cache_hit_rate"_s).toDouble() > 0.5);
        QVERIFY(variant.value(u"cost_uncached_usd"_s).toDouble()
                > variant.value(u"cost_usd"_s).toDouble());
    }
}

// A run killed after its judge's verdict was stored (its command check still running) resumes
// from its stored call and reuses that verdict: the judge is asked once per run, plus only the
// judge requests that were on their way when the process died.
void TestEval::judgeVerdictNotBoughtAgainOnResume()
{
    FakeProviderThread server;
    QVERIFY(server.listen());
    server.run([](FakeProvider &p) {
        const FakeProvider::Responder calls = okAfter(10);
        p.setResponder([calls](const RecordedRequest &request) {
            const QJsonArray messages = request.jsonObject().value(u"messages"_s).toArray();
            if (!messages.at(0)
                     .toObject()
                     .value(u"content"_s)
                     .toString()
                     .startsWith(u"You judge"_s))
                return calls(request);
            return FakeReply::json(
                200,
                openAiToolCallBody(u"j1"_s, u"submit_output"_s,
                                   { { u"score"_s, 0.9 }, { u"reason"_s, u"fine"_s } }));
        });
    });
    const auto judgeRequests = [&server] {
        int n = 0;
        server.run([&n](FakeProvider &p) {
            for (const RecordedRequest &r : p.requests()) {
                const QJsonArray messages = r.jsonObject().value(u"messages"_s).toArray();
                n += messages.at(0)
                         .toObject()
                         .value(u"content"_s)
                         .toString()
                         .startsWith(u"You judge"_s)
                    ? 1
                    : 0;
            }
        });
        return n;
    };
    QTemporaryDir dir;
    const int cases = 30;
    QVERIFY(writeFile(
        dir.filePath(u"planner.spec.json"_s),
        QJsonDocument(twoTurnSpecJson(server.baseUrl(), u"CALLSCOPE_EVAL_API_KEY"_s)).toJson()));
    QVERIFY(writeFile(dir.filePath(u"cases.jsonl"_s), numberedCases(cases)));
    // The command check waits until the test lets it go: until then no run can be stored.
    const QString release = dir.filePath(u"release"_s);
    const QJsonObject judge = judgeAssertion(server.baseUrl());
    const QJsonObject gate {
        { u"type"_s, u"command"_s },
        { u"command"_s,
          QJsonArray { u"/bin/sh"_s, u"-c"_s,
                       u"cat >/dev/null; while [ ! -e '%1' ]; do sleep 0.02; done; echo ok"_s.arg(
                           release) } }
    };
    const QJsonObject experiment { { u"spec"_s, u"planner.spec.json"_s },
                                   { u"dataset"_s, u"cases.jsonl"_s },
                                   { u"assert"_s, QJsonArray { judge, gate } } };
    QVERIFY(writeFile(dir.filePath(u"exp.json"_s), QJsonDocument(experiment).toJson()));
    const QString db = dir.filePath(u"h.sqlite"_s);
    const QString storedJudges =
        u"SELECT COUNT(*) FROM calls WHERE kind = 'judge' AND status = 'completed'"_s;

    QProcess first;
    startEval(first, dir, { u"--jobs"_s, u"4"_s, u"--trust"_s });
    QVERIFY(first.waitForStarted());
    QByteArray err;
    const QString id = readExperimentId(first, &err);
    QVERIFY2(!id.isEmpty(), err.constData());
    // Killed once several verdicts are stored, while their runs wait for the command check.
    QElapsedTimer clock;
    clock.start();
    while (sqlCount(db, storedJudges) < 4 && first.state() != QProcess::NotRunning
           && clock.elapsed() < 60000)
        QThread::msleep(20);
    QVERIFY2(first.state() != QProcess::NotRunning, first.readAllStandardError().constData());
    ::kill(pid_t(first.processId()), SIGKILL);
    QVERIFY(first.waitForFinished());
    const int judgesStored = sqlCount(db, storedJudges);
    const int judgesSent = judgeRequests();
    QCOMPARE(sqlCount(db, u"SELECT COUNT(*) FROM experiment_runs"_s), 0);
    QVERIFY(judgesStored >= 4);
    qInfo("killed with %d verdicts stored of %d judge requests", judgesStored, judgesSent);

    QVERIFY(writeFile(release, "go"));
    const CliRun resumed = runEval({ dir.filePath(u"exp.json"_s), u"--db"_s, db, u"--jobs"_s,
                                     u"4"_s, u"--resume"_s, id, u"--trust"_s });
    QVERIFY2(resumed.exit == 0, resumed.err.right(2000).constData());
    // One verdict per run; only the judge requests lost with the process were asked again.
    QCOMPARE(sqlCount(db, storedJudges), cases);
    QCOMPARE(judgeRequests(), cases + (judgesSent - judgesStored));
    QCOMPARE(
        sqlCount(
            db,
            u"SELECT COUNT(*) FROM (SELECT json_extract(metadata, '$.judge_of') AS j FROM calls "
            u"WHERE kind = 'judge' AND status = 'completed' GROUP BY j HAVING COUNT(*) > 1)"_s),
        0);
    // Every run's verdict names the judge call that gave it.
    QCOMPARE(sqlCount(db,
                      u"SELECT COUNT(*) FROM experiment_runs, "
                      u"json_each(experiment_runs.assertions) AS a WHERE "
                      u"json_extract(a.value, '$.type') = 'judge' AND json_extract(a.value, "
                      u"'$.judge_call_id') IN "
                      u"(SELECT id FROM calls WHERE kind = 'judge')"_s),
             cases);
}

QTEST_GUILESS_MAIN(TestEval)
#include "tst_eval.moc"

namespace {

// An OpenAI chat completion that answers with text (priced as gpt-4.1-mini).
QByteArray openAiTextBody(const QString &text)
{
    const QJsonObject body {
        { u"id"_s, u"chatcmpl-text"_s },
        { u"object"_s, u"chat.completion"_s },
        { u"created"_s, 1 },
        { u"model"_s, u"gpt-4.1-mini"_s },
        { u"choices"_s,
          QJsonArray { QJsonObject {
              { u"index"_s, 0 },
              { u"message"_s,
                QJsonObject { { u"role"_s, u"assistant"_s }, { u"content"_s, text } } },
              { u"finish_reason"_s, u"stop"_s } } } },
        { u"usage"_s,
          QJsonObject { { u"prompt_tokens"_s, 40 },
                        { u"completion_tokens"_s, 12 },
                        { u"total_tokens"_s, 52 } } }
    };
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

// The answers of the promptfoo suites' provider, by the exact user message; a judge (its system
// prompt says so) scores an output 0.9 when it says "please", else 0.2.
FakeProvider::Responder promptfooResponder()
{
    static const QHash<QString, QString> answers {
        { u"What is the capital of France? Answer in one sentence."_s,
          u"The capital of France is Paris."_s },
        { u"Name the capital city of France."_s, u"Paris"_s },
        { u"What is the capital of Japan? Answer in one sentence."_s,
          u"The capital of Japan is Tokyo."_s },
        { u"Name the capital city of Japan."_s, u"Tokyo."_s },
        { u"What is the capital of Peru? Answer in one sentence."_s, u"I don't know."_s },
        { u"Name the capital city of Peru."_s, u"Lima."_s },
        { u"Translate to French: Good morning"_s, u"Bonjour"_s },
        { u"Say 'Good morning' in French."_s, u"Sorry, I only speak English."_s },
        { u"Good morning"_s, u"Bonjour !"_s },
        { u"Translate to French: Thank you"_s, u"Merci"_s },
        { u"Say 'Thank you' in French."_s, u"merci bien"_s },
        { u"Thank you"_s, u"Danke"_s },
        { u"Translate to French: Cat"_s, u"Chat"_s },
        { u"Say 'Cat' in French."_s, u"Le chat"_s },
        { u"Cat"_s, u"Hund"_s },
        { u"Who is in this sentence, and when were they born? Ada Lovelace was born in 1815."_s,
          u"{\"name\": \"Ada Lovelace\", \"born\": 1815}"_s },
        { u"Extract the person: Ada Lovelace was born in 1815."_s,
          u"Here you go: {\"name\": \"Ada Lovelace\", \"born\": \"1815\"}"_s },
        { u"Who is in this sentence, and when were they born? Alan Turing was born in 1912."_s,
          u"```json\n{\"name\": \"Alan Turing\", \"born\": 1912}\n```"_s },
        { u"Extract the person: Alan Turing was born in 1912."_s,
          u"{\"name\": \"Alan Turing\", \"age\": 41}"_s },
        { u"Write a one-line reply to: I want my money back."_s,
          u"Sorry about that, please expect your refund this week."_s },
        { u"Write a one-line reply to: Thanks for the quick fix!"_s,
          u"You're welcome, glad it helped!"_s },
        { u"Write a one-line reply to: Your product is useless."_s, u"No, it is not."_s },
        { u"What colour is the sky?"_s, u"The sky is blue."_s },
        { u"Count to three as JSON."_s, u"[1, 2, 3]"_s },
        { u"Name a farm animal."_s, u"Cow."_s },
    };
    return [](const RecordedRequest &request) {
        const QJsonArray messages = request.jsonObject().value(u"messages"_s).toArray();
        QString system;
        QString user;
        for (const QJsonValue &m : messages) {
            const QJsonObject message = m.toObject();
            if (message.value(u"role"_s).toString() == u"system"_s)
                system = message.value(u"content"_s).toString();
            else if (message.value(u"role"_s).toString() == u"user"_s && user.isEmpty())
                user = message.value(u"content"_s).toString();
        }
        if (system.startsWith(u"You judge"_s))
            return FakeReply::json(
                200,
                openAiToolCallBody(u"j1"_s, u"submit_output"_s,
                                   { { u"score"_s, user.contains(u"please"_s) ? 0.9 : 0.2 },
                                     { u"reason"_s, u"read it"_s } }));
        return FakeReply::json(200, openAiTextBody(answers.value(user, u"I don't know."_s)));
    };
}

// A copy of a promptfoo suite whose base URLs point at `base`.
bool copySuite(const QString &suite, const QTemporaryDir &dir, const QUrl &base)
{
    const QDir from(testDataPath(u"promptfoo/"_s + suite));
    QDirIterator it(from.absolutePath(), QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QByteArray data = readFile(path);
        data.replace("http://127.0.0.1:9", base.toString(QUrl::RemovePath).toUtf8());
        const QString target = dir.filePath(from.relativeFilePath(path));
        QDir().mkpath(QFileInfo(target).absolutePath());
        if (!writeFile(target, data))
            return false;
    }
    return true;
}

} // namespace

// Each suite converts to the experiment written beside it (checked by hand), and the result loads.
void TestEval::promptfooConversion_data()
{
    QTest::addColumn<QString>("suite");
    for (const char *suite : { "capitals", "translate", "extract", "tone", "checks" })
        QTest::newRow(suite) << QString::fromLatin1(suite);
}

void TestEval::promptfooConversion()
{
    QFETCH(QString, suite);
    const QString config = testDataPath(u"promptfoo/%1/promptfooconfig.yaml"_s.arg(suite));
    const PromptfooConversion converted = convertPromptfooConfig(config);
    QVERIFY2(converted.errors.isEmpty(), qPrintable(converted.errors.value(0).toString()));
    QVERIFY2(converted.unsupported.isEmpty(),
             qPrintable(converted.unsupported.value(0).toString()));
    QVERIFY(converted.experiment);
    const QJsonObject expected =
        readJson(testDataPath(u"promptfoo/%1/expected.experiment.json"_s.arg(suite))).toObject();
    QVERIFY(!expected.isEmpty());
    QCOMPARE(*converted.experiment, expected);
    // The one loader takes the YAML file itself and gives the same experiment.
    const ExperimentLoad load = loadExperimentFile(config);
    QVERIFY2(load.experiment, qPrintable(load.errors.value(0).toString()));
    QCOMPARE(load.experiment->definition, expected);
}

// What cannot be taken is listed with file:line and the key path, and the loader refuses the file
// unless told to skip those parts.
void TestEval::promptfooUnsupportedPlaces()
{
    const QString config = testDataPath(u"promptfoo/unsupported/promptfooconfig.yaml"_s);
    const PromptfooConversion converted = convertPromptfooConfig(config);
    QVERIFY(converted.errors.isEmpty());
    QStringList places;
    for (const ExperimentError &e : converted.unsupported)
        places.append(e.where);
    QCOMPARE(places,
             (QStringList { u"promptfooconfig.yaml:10 /providers/1"_s,
                            u"promptfooconfig.yaml:5 /prompts/1"_s,
                            u"promptfooconfig.yaml:17 /tests/0/assert/1"_s,
                            u"promptfooconfig.yaml:19 /tests/0/assert/2"_s,
                            u"promptfooconfig.yaml:23 /redteam"_s }));
    QVERIFY(converted.unsupported.at(2).message.contains(u"Python"_s));
    QVERIFY(converted.unsupported.at(3).message.contains(u"embeddings"_s));
    QVERIFY(converted.unsupported.at(4).message.contains(u"red-team"_s));
    const ExperimentLoad refused = loadExperimentFile(config);
    QVERIFY(!refused.experiment);
    QCOMPARE(refused.errors.size(), 5);
    ExperimentFileOptions skip;
    skip.skipUnsupported = true;
    const ExperimentLoad skipped = loadExperimentFile(config, nullptr, skip);
    QVERIFY2(skipped.experiment, qPrintable(skipped.errors.value(0).toString()));
    QCOMPARE(skipped.skipped.size(), 5);
    QCOMPARE(skipped.experiment->variants.size(), 1);
    QCOMPARE(skipped.experiment->rows.at(0).asserts.size(), 1);
}

// Every suite run by `eval` on the YAML file against the fake provider; the verdict of every
// case in every variant as worked out by hand from the provider's answers (promptfooResponder).
void TestEval::promptfooSuitesRun_data()
{
    QTest::addColumn<QString>("suite");
    QTest::addColumn<QStringList>("passing"); // "case|variant" of the cells that pass
    QTest::addColumn<int>("cells");
    const QString p1 = u"prompt 1"_s;
    const QString p2 = u"prompt 2"_s;
    // France passes with both prompts; Japan's and Peru's sentences fail starts-with, regex,
    // equals and the negated "i don't know".
    QTest::newRow("capitals") << u"capitals"_s
                              << QStringList { u"france|"_s + p1, u"france|"_s + p2,
                                               u"japan|"_s + p2, u"peru|"_s + p2 }
                              << 6;
    // "Sorry, I only speak English." fails the shared not-icontains; "Danke" has no merci;
    // "Hund" is what the cat must not be.
    QTest::newRow("translate") << u"translate"_s << QStringList { u"greeting|translate.txt #1"_s,
                                                                  u"greeting|chat"_s,
                                                                  u"thanks|translate.txt #1"_s,
                                                                  u"thanks|translate.txt #2"_s,
                                                                  u"cat|translate.txt #1"_s,
                                                                  u"cat|translate.txt #2"_s }
                               << 9;
    // The inline chat's Ada is JSON inside prose with a string year; its Alan has an age, which
    // the negated contains-json refuses. The YAML chat's fenced Alan passes after the transform.
    QTest::newRow("extract") << u"extract"_s
                             << QStringList { u"ada|yaml-chat"_s, u"alan|yaml-chat"_s } << 4;
    // Only the refund says "please": the judge passes it and fails the other two, which the
    // negated rubric of "rude" turns into a pass.
    QTest::newRow("tone") << u"tone"_s << QStringList { u"refund|writer"_s, u"rude|writer"_s } << 3;
    // "[1, 2, 3]" is JSON, which not-is-json refuses.
    QTest::newRow("checks") << u"checks"_s
                            << QStringList { u"colour|openai:gpt-4.1-mini"_s,
                                             u"animal|openai:gpt-4.1-mini"_s }
                            << 3;
}

void TestEval::promptfooSuitesRun()
{
    QFETCH(QString, suite);
    QFETCH(QStringList, passing);
    QFETCH(int, cells);
    FakeProviderThread server;
    QVERIFY(server.listen());
    server.run([](FakeProvider &p) { p.setResponder(promptfooResponder()); });
    QTemporaryDir dir;
    QVERIFY(copySuite(suite, dir, server.baseUrl()));
    const CliRun r =
        runEval({ dir.filePath(u"promptfooconfig.yaml"_s), u"--db"_s, dir.filePath(u"h.sqlite"_s) },
                { { u"OPENAI_API_KEY"_s, u"sk-test"_s } });
    QVERIFY2(r.exit == (passing.size() == cells ? 0 : 1), r.err.constData());
    QStringList passed;
    const QJsonArray summaryCells = r.summary.value(u"cells"_s).toArray();
    QCOMPARE(summaryCells.size(), cells);
    for (const QJsonValue &value : summaryCells) {
        const QJsonObject cell = value.toObject();
        if (cell.value(u"passed"_s).toBool())
            passed.append(cell.value(u"case"_s).toString() + u'|'
                          + cell.value(u"variant"_s).toString());
    }
    passed.sort();
    passing.sort();
    QCOMPARE(passed, passing);
}
