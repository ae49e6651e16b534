// Experiments: every assertion type (pass and fail), the loader (datasets in JSONL, CSV and
// inline, variant kinds, errors with where they are), and callscope-cli eval end to end
// against the fake provider on its own thread: exact summary, cells, --out lines, JUnit
// counts, exit codes, a bad experiment that sends nothing, and --resume after SIGKILL.

#include "core/eval/assertions.h"
#include "core/eval/experiment.h"
#include "core/eval/pricetable.h"
#include "core/store/callstore.h"
#include "core/store/database.h"
#include "core/schema/jsonschema.h"
#include "tests/support/fakebatchapi.h"
#include "tests/support/fakeprovider.h"
#include "tests/support/testsupport.h"

#include <QDomDocument>
#include <QElapsedTimer>
#include <QMap>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QDir>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <algorithm>
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
    r.input = QJsonObject{{u"text"_s, u"Plan ticket 7"_s}};
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
    r.messages = messagesToJson({Message::user(u"Plan ticket 7"_s), Message::assistant(QString(), {ticket}),
                                 Message::assistant(QString(), {submit})});
    TurnRecord second;
    second.index = 1;
    r.turns = {TurnRecord(), second};
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
    process.start(cliPath(), QStringList{u"eval"_s} + args);
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
            reply = FakeReply::json(200, openAiToolCallBody(u"call_1"_s, u"get_ticket"_s, {{u"id"_s, 7}}));
        } else {
            QString title = u"bad"_s;
            if (input.contains(u"pass"_s))
                title = u"ok"_s;
            else if (input.contains(u"flaky"_s))
                title = (*counts)[input]++ % 2 == 0 ? u"ok"_s : u"bad"_s;
            reply = FakeReply::json(200, openAiToolCallBody(u"call_2"_s, u"submit_output"_s, {{u"title"_s, title}}));
        }
        if (delayMs > 0)
            reply.delayedBy(delayMs);
        return reply;
    };
}

// A batch experiment: the two-turn spec on `type`/`model`, `cases` cases (every fifth one
// fails its assertion), via `via`.
void writeBatchExperiment(const QTemporaryDir &dir, const QUrl &base, const QString &type, const QString &model,
                          int cases, const QString &via)
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
        lines += "{\"id\":\"c" + QByteArray::number(i) + "\",\"input\":\"Plan the " + (i % 5 == 0 ? "fail" : "pass")
                 + " ticket " + QByteArray::number(i) + "\"}\n";
    QFile casesFile(dir.filePath(u"cases.jsonl"_s));
    QVERIFY(casesFile.open(QIODevice::WriteOnly | QIODevice::Truncate));
    casesFile.write(lines);
    casesFile.close();
    const QJsonObject experiment{{u"name"_s, QString(u"batch-"_s + type)},
                                 {u"spec"_s, u"planner.spec.json"_s},
                                 {u"dataset"_s, u"cases.jsonl"_s},
                                 {u"jobs"_s, 16},
                                 {u"via"_s, via},
                                 {u"assert"_s, QJsonArray{QJsonObject{{u"type"_s, u"equals"_s}, {u"pointer"_s, u"/title"_s}, {u"value"_s, u"ok"_s}},
                                                          QJsonObject{{u"type"_s, u"tool_sequence"_s},
                                                                      {u"names"_s, QJsonArray{u"get_ticket"_s, u"submit_output"_s}}}}}};
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
        for (const char *key : {"cost_usd", "cost_direct_usd", "batch_saved_usd", "batch_runs", "latency_ms"})
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
            runs.append(run);
        }
        cell.insert(u"runs"_s, runs);
        cells.append(cell);
    }
    summary.insert(u"cells"_s, cells);
    return summary;
}

const QHash<QString, QString> kFastPolls{{u"CALLSCOPE_BATCH_POLL_MS"_s, u"20,200"_s}};

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
            object.insert(u"type"_s, QJsonArray{type, u"null"_s});
    }
    return object;
}

// Validates OpenAI batch input files line by line ({custom_id, method, url, body}, the body
// against `bodySchema` of the OpenAI document) and the create bodies (CreateBatchRequest).
// Returns the number of lines checked; -1 after a failure (reported through QTest).
int validateOpenAiBatchFiles(const QList<QByteArray> &uploads, const QList<QJsonObject> &creates, const QString &bodySchema)
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
            return compiler.compile(QJsonObject{{u"$ref"_s, QString(base.toString() + u"#/components/schemas/"_s + name)}},
                                    QUrl(u"https://callscope.invalid/root.json"_s));
        };
        const CompiledSchema body = compileRef(bodySchema);
        const CompiledSchema create = compileRef(u"CreateBatchRequest"_s);
        QVERIFY2(body.isValid() && create.isValid(), qPrintable(body.errorString() + create.errorString()));
        // BatchRequestInput as the batch guide documents it (the current document no longer has it).
        const CompiledSchema envelope = compiler.compile(QJsonDocument::fromJson(R"({
            "type": "object", "required": ["custom_id", "method", "url", "body"], "additionalProperties": false,
            "properties": { "custom_id": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$"},
                            "method": {"const": "POST"},
                            "url": {"enum": ["/v1/chat/completions", "/v1/responses"]},
                            "body": {"type": "object"} } })").object(), QUrl(u"https://callscope.invalid/line.json"_s));
        QVERIFY(envelope.isValid());
        const QString url = bodySchema == u"CreateResponse"_s ? u"/v1/responses"_s : u"/v1/chat/completions"_s;
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
                QVERIFY2(b.valid, qPrintable(formatErrorsForModel(b.errors, 10) + u"\n"_s + QString::fromUtf8(line)));
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
    void judgeVerdictNotBoughtAgainOnResume();
};

void TestEval::assertions_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<bool>("passes");
    QTest::newRow("equals pass") << R"({"type":"equals","pointer":"/title","value":"Fix login"})"_ba << true;
    QTest::newRow("equals fail") << R"({"type":"equals","pointer":"/n","value":4})"_ba << false;
    QTest::newRow("equals missing") << R"({"type":"equals","pointer":"/nope","value":1})"_ba << false;
    QTest::newRow("contains substring") << R"({"type":"contains","pointer":"/title","value":"login"})"_ba << true;
    QTest::newRow("contains member") << R"({"type":"contains","pointer":"/tags","value":"auth"})"_ba << true;
    QTest::newRow("contains fail") << R"({"type":"contains","pointer":"/tags","value":"db"})"_ba << false;
    QTest::newRow("regex pass") << R"({"type":"regex","pointer":"/title","pattern":"^Fix \\w+$"})"_ba << true;
    QTest::newRow("regex fail") << R"({"type":"regex","pointer":"/title","pattern":"^Break"})"_ba << false;
    QTest::newRow("one_of pass") << R"({"type":"one_of","pointer":"/n","values":[1,3]})"_ba << true;
    QTest::newRow("one_of fail") << R"({"type":"one_of","pointer":"/n","values":[1,2]})"_ba << false;
    QTest::newRow("matches_expected whole") << R"({"type":"matches_expected"})"_ba << true;
    QTest::newRow("matches_expected pointers") << R"({"type":"matches_expected","pointers":["/title"]})"_ba << true;
    QTest::newRow("matches_expected fail") << R"({"type":"matches_expected","pointers":["/n"]})"_ba << false;
    QTest::newRow("schema pass") << R"({"type":"schema","schema":{"required":["title","n"]}})"_ba << true;
    QTest::newRow("schema fail") << R"({"type":"schema","schema":{"properties":{"n":{"maximum":2}}}})"_ba << false;
    QTest::newRow("status pass") << R"({"type":"status"})"_ba << true;
    QTest::newRow("status fail") << R"({"type":"status","value":"failed"})"_ba << false;
    QTest::newRow("tool_called pass") << R"({"type":"tool_called","name":"get_ticket","args":{"id":7}})"_ba << true;
    QTest::newRow("tool_called args fail") << R"({"type":"tool_called","name":"get_ticket","args":{"id":8}})"_ba << false;
    QTest::newRow("tool_called fail") << R"({"type":"tool_called","name":"list_team"})"_ba << false;
    QTest::newRow("tool_not_called pass") << R"({"type":"tool_not_called","name":"list_team"})"_ba << true;
    QTest::newRow("tool_not_called fail") << R"({"type":"tool_not_called","name":"get_ticket"})"_ba << false;
    QTest::newRow("tool_sequence pass") << R"({"type":"tool_sequence","names":["get_ticket","submit_output"]})"_ba << true;
    QTest::newRow("tool_sequence gap") << R"({"type":"tool_sequence","names":["submit_output"]})"_ba << true;
    QTest::newRow("tool_sequence strict fail") << R"({"type":"tool_sequence","names":["submit_output"],"strict":true})"_ba << false;
    QTest::newRow("tool_sequence order fail") << R"({"type":"tool_sequence","names":["submit_output","get_ticket"]})"_ba << false;
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
    QTest::newRow("bad pointer") << R"({"type":"equals","pointer":"title","value":1})"_ba << u"not a JSON Pointer"_s;
    QTest::newRow("bad regex") << R"({"type":"regex","pointer":"/a","pattern":"("})"_ba << u"not a valid regular expression"_s;
    QTest::newRow("bad schema") << R"({"type":"schema","schema":{"type":7}})"_ba << u"not usable"_s;
    QTest::newRow("bad status") << R"({"type":"status","value":"great"})"_ba << u"call status"_s;
    QTest::newRow("no names") << R"({"type":"tool_sequence"})"_ba << u"needs \"names\""_s;
    QTest::newRow("no value") << R"({"type":"max_turns"})"_ba << u"number"_s;
    QTest::newRow("no command") << R"({"type":"command","command":[]})"_ba << u"argument list"_s;
    QTest::newRow("judge no rubric") << R"({"type":"judge","engine":{"type":"openai","model":"m"}})"_ba << u"needs a \"rubric\""_s;
    QTest::newRow("judge no engine") << R"({"type":"judge","rubric":"x"})"_ba << u"needs \"engine\""_s;
    QTest::newRow("judge bad engine") << R"({"type":"judge","rubric":"x","engine":{"type":"telepathy"}})"_ba << u"not usable"_s;
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
    for (const auto &[script, passes] : {std::pair{u"grep -q '\"title\":\"Fix login\"' && echo fine"_s, true},
                                         std::pair{u"echo 'no title here'; exit 3"_s, false}}) {
        Assertion a = assertion(R"({"type":"command"})");
        a.params.insert(u"command"_s, QJsonArray{u"/bin/sh"_s, u"-c"_s, script});
        QCOMPARE(checkAssertion(a), QString());
        CommandAssertion command(a, sampleCall(), QDir::tempPath());
        QSignalSpy finished(&command, &CommandAssertion::finished);
        command.start();
        QVERIFY(finished.wait(10000));
        const AssertionResult r = finished.at(0).at(0).value<AssertionResult>();
        QCOMPARE(r.passed, passes);
        QCOMPARE(r.reason, passes ? u"fine"_s : u"no title here"_s);
    }
}

void TestEval::vars()
{
    QStringList missing;
    const QJsonObject vars = parse(R"({"ticket":7,"who":"Lin"})");
    QCOMPARE(fillVars(u"Plan {{ticket}} for {{ who }}"_s, vars, &missing), u"Plan 7 for Lin"_s);
    QVERIFY(missing.isEmpty());
    QCOMPARE(fillVars(u"{{ticket}} {{gone}}"_s, vars, &missing), u"7 {{gone}}"_s);
    QCOMPARE(missing, QStringList{u"gone"_s});
    QCOMPARE(fillVars(QJsonValue(parse(R"({"a":["{{who}}",1]})")), vars).toObject().value(u"a"_s).toArray().at(0).toString(), u"Lin"_s);
    QCOMPARE(mergeJson(parse(R"({"engine":{"type":"openai","model":"a"},"k":1})"), parse(R"({"engine":{"model":"b"}})")),
             parse(R"({"engine":{"type":"openai","model":"b"},"k":1})"));
}

void TestEval::datasetsAndVariants()
{
    QTemporaryDir dir;
    const QUrl base(u"http://127.0.0.1:9"_s);
    QVERIFY(writeFile(dir.filePath(u"planner.spec.json"_s),
                      QJsonDocument(twoTurnSpecJson(base, u"CALLSCOPE_EVAL_API_KEY"_s)).toJson()));
    QVERIFY(writeFile(dir.filePath(u"cases.jsonl"_s),
                      "{\"id\":\"a\",\"input\":\"Plan {{ticket}}\",\"vars\":{\"ticket\":7},\"expected\":{\"title\":\"x\"}}\n\n"
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

    for (const QString &dataset : {u"cases.jsonl"_s, u"cases.csv"_s}) {
        QJsonObject definition{{u"spec"_s, u"planner.spec.json"_s},
                               {u"dataset"_s, dataset},
                               {u"variants"_s, QJsonArray{
                                                   parse(R"({"name":"as is"})"),
                                                   parse(R"({"name":"other model","engine":{"model":"m2"}})"),
                                                   parse(R"({"name":"prompt","system_prompt":"Plan {{ticket}} carefully."})"),
                                                   QJsonObject{{u"name"_s, u"as call"_s}, {u"from_call"_s, callId.value()}}}}};
        if (dataset.endsWith(u".jsonl"_s))
            definition[u"variants"_s] = QJsonArray{parse(R"({"name":"as is"})"), parse(R"({"name":"other model","engine":{"model":"m2"}})"),
                                                  QJsonObject{{u"name"_s, u"as call"_s}, {u"from_call"_s, callId.value()}}};
        const ExperimentLoad load = loadExperiment(definition, dir.path(), &store);
        QVERIFY2(load.experiment, qPrintable(load.errors.isEmpty() ? QString() : load.errors.first().toString()));
        const Experiment &e = *load.experiment;
        if (dataset.endsWith(u".jsonl"_s)) {
            QCOMPARE(e.rows.size(), 2);
            QCOMPARE(e.rows.at(0).id, u"a"_s);
            QCOMPARE(e.rows.at(1).id, u"case-2"_s); // no id: its position
            QCOMPARE(e.rows.at(1).asserts.size(), 1);
            QCOMPARE(e.rows.at(0).where, u"cases.jsonl:1"_s);
            QCOMPARE(e.inputFor(e.rows.at(0)), u"Plan 7"_s);
            QCOMPARE(e.variants.size(), 3);
        } else {
            QCOMPARE(e.rows.size(), 1);
            QCOMPARE(e.rows.at(0).id, u"c1"_s);
            QCOMPARE(e.inputFor(e.rows.at(0)), u"Plan 12, fast"_s);
            QCOMPARE(e.rows.at(0).expected.toObject().value(u"title"_s).toString(), u"y"_s);
            QCOMPARE(e.variants.size(), 4);
            QCOMPARE(e.specFor(e.rows.at(0), e.variants.at(2)).systemPrompt, u"Plan 12 carefully."_s);
        }
        // Key by key: only the model changed; the rest of the engine stayed.
        QCOMPARE(e.variants.at(1).spec.engine.model, u"m2"_s);
        QCOMPARE(e.variants.at(1).spec.engine.baseUrl, base.toString());
        QCOMPARE(e.variants.at(0).spec.engine.model, u"fake-model"_s);
        QCOMPARE(e.variants.constLast().spec.engine.model, u"stored-model"_s);
    }
    // Inline rows and an inline spec.
    const ExperimentLoad inline_ = loadExperiment(
        QJsonObject{{u"spec"_s, twoTurnSpecJson(base, u"K"_s)}, {u"dataset"_s, QJsonArray{parse(R"({"input":"x"})")}}, {u"repeat"_s, 3}},
        dir.path());
    QVERIFY(inline_.experiment);
    QCOMPARE(inline_.experiment->repeat, 3);
    QCOMPARE(inline_.experiment->variants.size(), 1);
    QCOMPARE(inline_.experiment->variants.at(0).name, u"planner"_s);
}

void TestEval::badExperiments_data()
{
    QTest::addColumn<QByteArray>("experiment");
    QTest::addColumn<QByteArray>("cases");
    QTest::addColumn<QString>("where");
    QTest::addColumn<QString>("what");
    const QByteArray good = "{\"input\":\"Plan {{ticket}}\",\"vars\":{\"ticket\":1}}\n";
    QTest::newRow("unknown assertion") << R"({"spec":"s.json","dataset":"cases.jsonl","assert":[{"type":"status"},{"type":"vibes"}]})"_ba
                                       << good << u"/assert/1"_s << u"unknown assertion type"_s;
    QTest::newRow("bad pointer") << R"({"spec":"s.json","dataset":"cases.jsonl","assert":[{"type":"equals","pointer":"title","value":1}]})"_ba
                                 << good << u"/assert/0"_s << u"not a JSON Pointer"_s;
    QTest::newRow("dataset not JSON") << R"({"spec":"s.json","dataset":"cases.jsonl"})"_ba
                                      << good + "{\"input\": oops}\n" << u"cases.jsonl:2:11"_s << u"not JSON"_s;
    QTest::newRow("missing var") << R"({"spec":"s.json","dataset":"cases.jsonl"})"_ba
                                 << "{\"id\":\"c\",\"input\":\"Plan {{ticket}}\"}\n"_ba << u"cases.jsonl:1"_s << u"{{ticket}}"_s;
    QTest::newRow("variant spec invalid") << R"({"spec":"s.json","dataset":"cases.jsonl","variants":[{"name":"v","max_turns":"ten"}]})"_ba
                                          << good << u"/variants/0/max_turns"_s << QString();
    QTest::newRow("syntax") << "{\"spec\":\"s.json\",\n \"dataset\": }"_ba << good << u"exp.json:2:14"_s << u"not JSON"_s;
    QTest::newRow("unknown field") << R"({"spec":"s.json","dataset":"cases.jsonl","repeats":2})"_ba << good << u"/repeats"_s << u"unknown field"_s;
    QTest::newRow("via unknown") << R"({"spec":"s.json","dataset":"cases.jsonl","via":"bulk"})"_ba << good << u"/via"_s << u"must be"_s;
    QTest::newRow("bad weight") << R"({"spec":"s.json","dataset":"cases.jsonl","assert":[{"type":"status","weight":"heavy"}]})"_ba
                                << good << u"/assert/0/weight"_s << u"a number, 0 or more"_s;
}

void TestEval::badExperiments()
{
    QFETCH(QByteArray, experiment);
    QFETCH(QByteArray, cases);
    QFETCH(QString, where);
    QFETCH(QString, what);
    QTemporaryDir dir;
    QVERIFY(writeFile(dir.filePath(u"s.json"_s), QJsonDocument(twoTurnSpecJson(QUrl(u"http://127.0.0.1:9"_s), u"K"_s)).toJson()));
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
    QVERIFY(writeFile(dir.filePath(u"planner.spec.json"_s), QJsonDocument(twoTurnSpecJson(server.baseUrl(), u"CALLSCOPE_EVAL_API_KEY"_s)).toJson()));
    QByteArray cases;
    for (const char *kind : {"pass", "fail", "flaky"}) {
        for (int i = 1; i <= 2; ++i)
            cases += "{\"id\":\"" + QByteArray(kind) + QByteArray::number(i) + "\",\"input\":\"Plan the " + kind + " ticket " + QByteArray::number(i) + "\"}\n";
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
    const CliRun r = runEval({dir.filePath(u"exp.json"_s), u"--db"_s, db, u"--jobs"_s, u"1"_s, u"--out"_s, out, u"--junit"_s, junit,
                              u"--html"_s, html});
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
    QCOMPARE(variants.at(0).toObject().value(u"tokens"_s).toObject().value(u"input"_s).toInt(), 18 * 2 * 120);
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
    QVERIFY(xml.elementsByTagName(u"failure"_s).at(0).toElement().text().contains(u"expected \"ok\", got \"bad\""_s));
    // The HTML report: one row per case, one column per variant, cells coloured by verdict.
    QFile page(html);
    QVERIFY(page.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(page.readAll());
    QCOMPARE(text.count(u"<td class=\"pass\""_s), 4);
    QCOMPARE(text.count(u"<td class=\"flaky\""_s), 4);
    QCOMPARE(text.count(u"<td class=\"fail\""_s), 10);
    QVERIFY(text.contains(u"<th>one turn</th>"_s));
    QVERIFY(text.contains(u"expected &quot;ok&quot;, got &quot;bad&quot;"_s)); // escaped
    // Only the passing cases: exit 0.
    const CliRun passing = runEval({dir.filePath(u"exp.json"_s), u"--db"_s, db, u"--only"_s, u"pass1"_s, u"--only"_s, u"pass2"_s});
    QCOMPARE(passing.exit, 1); // "one turn" still fails them
    QCOMPARE(passing.summary.value(u"cells"_s).toArray().size(), 6);
}

void TestEval::badExperimentSendsNothing()
{
    FakeProviderThread server;
    QVERIFY(server.listen());
    server.run([](FakeProvider &p) { p.setResponder(scriptedResponder(0)); });
    QTemporaryDir dir;
    QVERIFY(writeFile(dir.filePath(u"planner.spec.json"_s), QJsonDocument(twoTurnSpecJson(server.baseUrl(), u"CALLSCOPE_EVAL_API_KEY"_s)).toJson()));
    QVERIFY(writeFile(dir.filePath(u"cases.jsonl"_s), "{\"id\":\"a\",\"input\":\"fine\"}\n{\"id\":\"b\",\"input\":\"Plan {{ticket}}\"}\n"));
    QVERIFY(writeFile(dir.filePath(u"exp.json"_s), R"({"spec":"planner.spec.json","dataset":"cases.jsonl"})"));
    const CliRun r = runEval({dir.filePath(u"exp.json"_s), u"--db"_s, dir.filePath(u"h.sqlite"_s)});
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
    QVERIFY(writeFile(dir.filePath(u"planner.spec.json"_s), QJsonDocument(twoTurnSpecJson(server.baseUrl(), u"CALLSCOPE_EVAL_API_KEY"_s)).toJson()));
    QByteArray cases;
    for (int i = 1; i <= 20; ++i)
        cases += "{\"id\":\"c" + QByteArray::number(i) + "\",\"input\":\"Plan the pass ticket " + QByteArray::number(i) + "\"}\n";
    QVERIFY(writeFile(dir.filePath(u"cases.jsonl"_s), cases));
    QVERIFY(writeFile(dir.filePath(u"exp.json"_s), R"({"spec":"planner.spec.json","dataset":"cases.jsonl","repeat":2,
        "assert":[{"type":"equals","pointer":"/title","value":"ok"}]})"));
    const QString db = dir.filePath(u"h.sqlite"_s);
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"CALLSCOPE_EVAL_API_KEY"_s, u"sk-eval"_s);
    process.setProcessEnvironment(env);
    process.start(cliPath(), {u"eval"_s, dir.filePath(u"exp.json"_s), u"--db"_s, db, u"--jobs"_s, u"4"_s});
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
    const QRegularExpressionMatch m = QRegularExpression(u"^experiment (\\d+): "_s).match(QString::fromUtf8(err));
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
    const int callsBefore = sqlCount(db, u"SELECT COUNT(*) FROM calls WHERE status = 'completed' AND "
                                         u"json_extract(metadata, '$.case') IS NOT NULL"_s);
    QVERIFY(callsBefore >= before);
    int requestsBefore = 0;
    server.run([&requestsBefore](FakeProvider &p) { requestsBefore = int(p.requestCount()); });

    const CliRun resumed = runEval({dir.filePath(u"exp.json"_s), u"--db"_s, db, u"--resume"_s, id});
    QVERIFY2(resumed.exit == 0, resumed.err.constData());
    QCOMPARE(resumed.summary.value(u"experiment_id"_s).toInteger(), id.toLongLong());
    QCOMPARE(resumed.summary.value(u"variants"_s).toArray().at(0).toObject().value(u"passed"_s).toInt(), 20);
    int requestsAfter = 0;
    server.run([&requestsAfter](FakeProvider &p) { requestsAfter = int(p.requestCount()); });
    // Only the runs without a stored call ran again: two requests each.
    QCOMPARE(requestsAfter - requestsBefore, (40 - callsBefore) * 2);
    QCOMPARE(sqlCount(db, u"SELECT COUNT(*) FROM calls WHERE status = 'completed' AND json_extract(metadata, '$.case') IS NOT NULL"_s), 40);
    auto opened = Database::open(db);
    CallStore store(**opened);
    QCOMPARE(store.experimentRuns(id.toLongLong())->size(), 40);
}

namespace {

// A judge on the fake provider (model judge-model) that passes from a score of 0.5.
QJsonObject judgeAssertion(const QUrl &base)
{
    return QJsonObject{{u"type"_s, u"judge"_s},
                       {u"rubric"_s, u"The title says what to do."_s},
                       {u"pass_score"_s, 0.5},
                       {u"engine"_s, QJsonObject{{u"type"_s, u"openai"_s},
                                                 {u"model"_s, u"judge-model"_s},
                                                 {u"base_url"_s, base.toString()},
                                                 {u"api_key_env"_s, u"CALLSCOPE_EVAL_API_KEY"_s},
                                                 {u"stream"_s, false}}}};
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
            return FakeReply::json(200, openAiToolCallBody(u"j1"_s, u"submit_output"_s, {{u"score"_s, score}, {u"reason"_s, u"looked at it"_s}}));
        });
    });
    QTemporaryDir dir;
    QVERIFY(writeFile(dir.filePath(u"planner.spec.json"_s), QJsonDocument(twoTurnSpecJson(server.baseUrl(), u"CALLSCOPE_EVAL_API_KEY"_s)).toJson()));
    QVERIFY(writeFile(dir.filePath(u"cases.jsonl"_s), "{\"id\":\"good\",\"input\":\"Plan the pass ticket\"}\n"
                                                       "{\"id\":\"poor\",\"input\":\"Plan the fail ticket\"}\n"));
    const QJsonObject experiment{{u"spec"_s, u"planner.spec.json"_s},
                                 {u"dataset"_s, u"cases.jsonl"_s},
                                 {u"assert"_s, QJsonArray{judgeAssertion(server.baseUrl())}}};
    QVERIFY(writeFile(dir.filePath(u"exp.json"_s), QJsonDocument(experiment).toJson()));
    const QString db = dir.filePath(u"h.sqlite"_s);
    const CliRun r = runEval({dir.filePath(u"exp.json"_s), u"--db"_s, db});
    QVERIFY2(r.exit == 1, r.err.constData());
    const QJsonArray cells = r.summary.value(u"cells"_s).toArray();
    QCOMPARE(cells.size(), 2);
    QCOMPARE(cells.at(0).toObject().value(u"passed"_s).toBool(), true);
    QCOMPARE(cells.at(1).toObject().value(u"passed"_s).toBool(), false);
    const QJsonObject verdict = cells.at(1).toObject().value(u"runs"_s).toArray().at(0).toObject().value(u"assertions"_s).toArray().at(0).toObject();
    QVERIFY2(verdict.value(u"reason"_s).toString().startsWith(u"score 0.2"_s), qPrintable(verdict.value(u"reason"_s).toString()));
    const qint64 judgeCall = verdict.value(u"judge_call_id"_s).toInteger();
    QVERIFY(judgeCall > 0);
    auto opened = Database::open(db);
    QVERIFY(opened);
    CallStore store(**opened);
    auto stored = store.getCall(judgeCall);
    QVERIFY(stored);
    QCOMPARE(stored->kind, u"judge"_s);
    QCOMPARE(stored->model, u"judge-model"_s);
    const qint64 judged = cells.at(1).toObject().value(u"runs"_s).toArray().at(0).toObject().value(u"call_id"_s).toInteger();
    QCOMPARE(stored->metadata.value(u"judge_of"_s).toInteger(), judged);
    QVERIFY(stored->input.value(u"text"_s).toString().contains(u"\"title\":\"bad\""_s));
}

void TestEval::pricesAndCost()
{
    const PriceTable shipped = PriceTable::shipped();
    QVERIFY(!shipped.asOf().isEmpty());
    QVERIFY(shipped.price(u"gpt-4o"_s));
    // The longest listed prefix: a dated model name finds its family, mini stays mini.
    QCOMPARE(shipped.price(u"gpt-4o-2024-08-06"_s)->input, shipped.price(u"gpt-4o"_s)->input);
    QCOMPARE(shipped.price(u"gpt-4o-mini-2024-07-18"_s)->input, shipped.price(u"gpt-4o-mini"_s)->input);
    QVERIFY(!shipped.price(u"fake-model"_s));
    QVERIFY(!shipped.cost(u"fake-model"_s, Usage{}));

    QTemporaryDir dir;
    QVERIFY(writeFile(dir.filePath(u"prices.json"_s),
                      R"({"format":"callscope-prices","as_of":"2026-12-01","models":{"m":{"input":2.5,"output":10,"cached_input":1.25}}})"));
    QString error;
    const auto own = PriceTable::fromFile(dir.filePath(u"prices.json"_s), &error);
    QVERIFY2(own, qPrintable(error));
    Usage usage;
    usage.inputTokens = 1000000;
    usage.cachedTokens = 200000;
    usage.outputTokens = 100000;
    // 0.8M fresh x 2.50 + 0.2M cached x 1.25 + 0.1M out x 10.
    QCOMPARE(*own->cost(u"m"_s, usage), 3.25);
    QCOMPARE(*own->cost(u"m"_s, usage, true), (0.8 * 1.25 + 0.2 * 1.25 + 0.1 * 5));
    QVERIFY(writeFile(dir.filePath(u"bad.json"_s), R"({"models":{}})"));
    QVERIFY(!PriceTable::fromFile(dir.filePath(u"bad.json"_s), &error));
    QVERIFY2(error.contains(u"callscope-prices"_s), qPrintable(error));

    // In an experiment: a priced model has a cost and passes max_cost_usd; an unknown one says
    // "no price" (null, never 0) and fails it.
    FakeProviderThread server;
    QVERIFY(server.listen());
    server.run([](FakeProvider &p) { p.setResponder(scriptedResponder(0)); });
    QVERIFY(writeFile(dir.filePath(u"planner.spec.json"_s), QJsonDocument(twoTurnSpecJson(server.baseUrl(), u"CALLSCOPE_EVAL_API_KEY"_s)).toJson()));
    QVERIFY(writeFile(dir.filePath(u"cases.jsonl"_s), "{\"id\":\"a\",\"input\":\"Plan the pass ticket\"}\n"));
    QVERIFY(writeFile(dir.filePath(u"exp.json"_s), R"({"spec":"planner.spec.json","dataset":"cases.jsonl","repeat":2,
        "variants":[{"name":"priced","engine":{"model":"gpt-4o-mini"}},{"name":"unpriced"}],
        "assert":[{"type":"max_cost_usd","value":0.001}]})"));
    const CliRun r = runEval({dir.filePath(u"exp.json"_s), u"--db"_s, dir.filePath(u"h.sqlite"_s)});
    QCOMPARE(r.exit, 1);
    const QJsonArray variants = r.summary.value(u"variants"_s).toArray();
    const QJsonObject priced = variants.at(0).toObject();
    const QJsonObject unpriced = variants.at(1).toObject();
    // 2 runs x 2 turns x (120 in x 0.15 + 20 out x 0.60) per million.
    QVERIFY(qAbs(priced.value(u"cost_usd"_s).toDouble() - 2 * 2 * (120 * 0.15 + 20 * 0.60) / 1e6) < 1e-12);
    QCOMPARE(priced.value(u"passed"_s).toInt(), 1);
    QVERIFY(unpriced.value(u"cost_usd"_s).isNull());
    QCOMPARE(unpriced.value(u"unpriced_runs"_s).toInt(), 2);
    QCOMPARE(unpriced.value(u"passed"_s).toInt(), 0);
    const QJsonObject verdict = r.summary.value(u"cells"_s).toArray().at(1).toObject().value(u"runs"_s).toArray().at(0)
                                    .toObject().value(u"assertions"_s).toArray().at(0).toObject();
    QVERIFY2(verdict.value(u"reason"_s).toString().startsWith(u"no price for the model fake-model"_s),
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
    const CliRun direct = runEval({directDir.filePath(u"exp.json"_s), u"--db"_s, directDir.filePath(u"h.sqlite"_s)});
    QVERIFY2(direct.exit == 1, direct.err.constData()); // every fifth case fails its assertion
    int directRequests = 0;
    server.run([&](FakeProvider &) { directRequests = api->directRequests; });
    QCOMPARE(directRequests, 2 * cases);

    QTemporaryDir batchDir;
    writeBatchExperiment(batchDir, server.baseUrl(), type, model, cases, u"batch"_s);
    QElapsedTimer clock;
    clock.start();
    const CliRun batch = runEval({batchDir.filePath(u"exp.json"_s), u"--db"_s, batchDir.filePath(u"h.sqlite"_s)}, kFastPolls);
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
    QCOMPARE(lines, (QList<int>{cases, cases}));
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
    const double directCost = direct.summary.value(u"variants"_s).toArray().at(0).toObject().value(u"cost_usd"_s).toDouble();
    const double batchCost = v.value(u"cost_usd"_s).toDouble();
    QVERIFY(directCost > 0);
    QVERIFY2(qAbs(batchCost * 2 - directCost) < 1e-9, qPrintable(u"%1 vs %2"_s.arg(batchCost).arg(directCost)));
    QVERIFY(qAbs(v.value(u"cost_direct_usd"_s).toDouble() - directCost) < 1e-9);
    QVERIFY(qAbs(v.value(u"batch_saved_usd"_s).toDouble() - (directCost - batchCost)) < 1e-9);
    qInfo("%s %s, %d cases x 2 turns: direct %.6f USD, batch %.6f USD, saved %.6f USD (%d batches, %lld ms)",
          qPrintable(type), qPrintable(model), cases, directCost, batchCost, directCost - batchCost, batches, elapsed);
    // Every run is a stored call that says it went through a batch.
    QCOMPARE(sqlCount(batchDir.filePath(u"h.sqlite"_s), u"SELECT COUNT(*) FROM calls WHERE json_extract(metadata, '$.via') = 'batch'"_s), cases);
    QCOMPARE(sqlCount(batchDir.filePath(u"h.sqlite"_s), u"SELECT COUNT(*) FROM provider_batch_lines WHERE outcome = 'succeeded'"_s), 2 * cases);
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
    const CliRun r = runEval({dir.filePath(u"exp.json"_s), u"--db"_s, db}, kFastPolls);
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
    QCOMPARE(lines, (QList<int>{20, 20, 10})); // round 2: 10 second turns + 10 retried first turns
    if (type == u"gemini"_s) {
        // Gemini reports a line that did not run as an error of its own.
        QCOMPARE(sqlCount(db, u"SELECT COUNT(*) FROM provider_batch_lines WHERE outcome = 'errored'"_s), 10);
    } else {
        QCOMPARE(sqlCount(db, u"SELECT COUNT(*) FROM provider_batch_lines WHERE outcome = 'expired'"_s), 5);
        QCOMPARE(sqlCount(db, u"SELECT COUNT(*) FROM provider_batch_lines WHERE outcome = 'errored'"_s), 5);
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
    process.start(cliPath(), {u"eval"_s, dir.filePath(u"exp.json"_s), u"--db"_s, db});
    QVERIFY(process.waitForStarted());
    QElapsedTimer clock;
    clock.start();
    int polls = 0;
    while (polls < 2 && clock.elapsed() < 20000) {
        QThread::msleep(10);
        server.run([&](FakeProvider &) { polls = api->batches.isEmpty() ? 0 : api->batches.first().polls; });
    }
    QVERIFY(polls >= 2); // submitted and being polled: round 1 has not ended
    ::kill(pid_t(process.processId()), SIGKILL);
    QVERIFY(process.waitForFinished());
    const QByteArray err = process.readAllStandardError();
    const QRegularExpressionMatch m = QRegularExpression(u"^experiment (\\d+): "_s).match(QString::fromUtf8(err));
    QVERIFY2(m.hasMatch(), err.constData());
    QCOMPARE(sqlCount(db, u"SELECT COUNT(*) FROM provider_batches WHERE status = 'submitted' AND provider_id != ''"_s), 1);
    QCOMPARE(sqlCount(db, u"SELECT COUNT(*) FROM experiment_runs"_s), 0);

    const CliRun resumed = runEval({dir.filePath(u"exp.json"_s), u"--db"_s, db, u"--resume"_s, m.captured(1)}, kFastPolls);
    QVERIFY2(resumed.exit == 1, resumed.err.constData());
    QCOMPARE(resumed.summary.value(u"variants"_s).toArray().at(0).toObject().value(u"passed"_s).toInt(), cases * 4 / 5);
    int batches = 0, firstPolls = 0, uploads = 0;
    server.run([&](FakeProvider &) {
        batches = int(api->batches.size());
        firstPolls = api->batches.first().polls;
        uploads = int(api->uploads.size());
    });
    QCOMPARE(batches, 2);            // round 1 polled again, never sent again; then round 2
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
    const CliRun r = runEval({dir.filePath(u"exp.json"_s), u"--db"_s, dir.filePath(u"h.sqlite"_s)}, env);
    QVERIFY2(r.exit == 1, r.err.constData());
    QVERIFY2(r.summary.value(u"variants"_s).toArray().at(0).toObject().value(u"passed"_s).toInt() == 8,
             QByteArray(r.err.left(3000)).constData());
    // The parts of one round are uploaded and created side by side, so they may reach the
    // provider in any order: compare each round's part sizes, largest first.
    QMap<int, QList<int>> linesPerRound;
    QList<QByteArray> uploads;
    QList<QJsonObject> creates;
    server.run([&](FakeProvider &) {
        for (const FakeBatchApi::Batch &b : std::as_const(api->batches)) {
            const QString customId = b.lines.isEmpty() ? QString() : b.lines.first().first; // "r<round>_<line>"
            const int round = customId.mid(1, customId.indexOf(u'_') - 1).toInt();
            linesPerRound[round].append(int(b.lines.size()));
        }
        uploads = api->uploads;
        creates = api->createBodies;
    });
    for (QList<int> &sizes : linesPerRound)
        std::sort(sizes.begin(), sizes.end(), std::greater<int>());
    QCOMPARE(linesPerRound, (QMap<int, QList<int>>{{1, {4, 4, 2}}, {2, {4, 4, 2}}}));
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
    process.start(cliPath(), QStringList{u"eval"_s, dir.filePath(u"exp.json"_s), u"--db"_s, dir.filePath(u"h.sqlite"_s)} + extra);
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
    QVERIFY(waitFor(server, [&] { return !api->batches.isEmpty() && api->batches.first().polls >= 1; }));
    ::kill(pid_t(process.processId()), SIGINT);
    // The second Ctrl+C once the first was taken (it offers 3 s for it), not after a guess.
    QByteArray err;
    QElapsedTimer prompt;
    prompt.start();
    while (!err.contains("press Ctrl+C again") && process.state() == QProcess::Running && prompt.elapsed() < 20000) {
        process.waitForReadyRead(100);
        err += process.readAllStandardError();
    }
    QVERIFY2(err.contains("press Ctrl+C again"), err.constData());
    ::kill(pid_t(process.processId()), SIGINT);
    QVERIFY(process.waitForFinished(20000));
    err += process.readAllStandardError();
    QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == 1, err.constData());
    QVERIFY2(err.contains("cancelling the provider batches"), err.constData());
    int cancels = 0;
    server.run([&](FakeProvider &) { cancels = api->cancels; });
    QCOMPARE(cancels, 1);
    const QString db = dir.filePath(u"h.sqlite"_s);
    QCOMPARE(sqlCount(db, u"SELECT COUNT(*) FROM provider_batches WHERE status = 'cancelling'"_s), 1);
    QCOMPARE(sqlCount(db, u"SELECT COUNT(*) FROM calls WHERE status = 'cancelled'"_s), 6);

    // One Ctrl+C only: the batch keeps running at the provider, nothing is cancelled there.
    QTemporaryDir other;
    writeBatchExperiment(other, server.baseUrl(), u"openai"_s, u"gpt-4o-mini"_s, 6, u"batch"_s);
    QProcess second;
    startEval(second, other);
    QVERIFY(second.waitForStarted());
    QVERIFY(waitFor(server, [&] { return api->batches.size() == 2 && api->batches.last().polls >= 1; }));
    ::kill(pid_t(second.processId()), SIGINT);
    QVERIFY(second.waitForFinished(20000));
    const QByteArray secondErr = second.readAllStandardError();
    QVERIFY2(secondErr.contains("keep running"), secondErr.constData());
    server.run([&](FakeProvider &) { cancels = api->cancels; });
    QCOMPARE(cancels, 1);
    QCOMPARE(sqlCount(other.filePath(u"h.sqlite"_s), u"SELECT COUNT(*) FROM provider_batches WHERE status = 'submitted'"_s), 1);
}

void TestEval::batchSubmitUnknown_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<int>("lost");
    QTest::newRow("openai, never created") << u"openai"_s << int(FakeBatchApi::LostCreate::Unprocessed);
    QTest::newRow("openai, created") << u"openai"_s << int(FakeBatchApi::LostCreate::Processed);
    QTest::newRow("anthropic, created") << u"anthropic"_s << int(FakeBatchApi::LostCreate::Processed);
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
    writeBatchExperiment(dir, server.baseUrl(), type, type == u"openai"_s ? u"gpt-4o-mini"_s : u"claude-sonnet-4"_s, cases,
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
    QCOMPARE(sqlCount(db, u"SELECT COUNT(*) FROM provider_batches WHERE status = 'submitting' AND provider_id = ''"_s), 1);

    const CliRun resumed = runEval({dir.filePath(u"exp.json"_s), u"--db"_s, db, u"--resume"_s, id}, kFastPolls);
    int batches = 0, uploads = 0;
    server.run([&](FakeProvider &) {
        batches = int(api->batches.size());
        uploads = int(api->uploads.size());
    });
    const QJsonObject v = resumed.summary.value(u"variants"_s).toArray().at(0).toObject();
    if (type == u"openai"_s) {
        QVERIFY2(resumed.exit == 1, resumed.err.constData());
        QCOMPARE(v.value(u"passed"_s).toInt(), cases * 4 / 5);
        QCOMPARE(batches, 2);   // round 1 exactly once (found, or created from its file), then round 2
        QCOMPARE(uploads, 2);   // round 1's file was not uploaded again
        QCOMPARE(sqlCount(db, u"SELECT COUNT(*) FROM calls"_s), cases);
        return;
    }
    QCOMPARE(resumed.exit, 1);
    QVERIFY2(resumed.err.contains("may have been created"), resumed.err.constData());
    QCOMPARE(batches, 1);       // nothing sent again
    QCOMPARE(v.value(u"passed"_s).toInt(), 0);
    QCOMPARE(sqlCount(db, u"SELECT COUNT(*) FROM experiment_runs WHERE status = 'submit_unknown'"_s), cases);
    QCOMPARE(sqlCount(db, u"SELECT COUNT(*) FROM provider_batches WHERE status = 'submit_unknown'"_s), 1);

    // The person checked and asks for it: sent again, every run completes.
    const CliRun again = runEval({dir.filePath(u"exp.json"_s), u"--db"_s, db, u"--resume"_s, id, u"--resubmit-unknown"_s}, kFastPolls);
    QVERIFY2(again.exit == 1, again.err.constData());
    QCOMPARE(again.summary.value(u"variants"_s).toArray().at(0).toObject().value(u"passed"_s).toInt(), cases * 4 / 5);
    server.run([&](FakeProvider &) { batches = int(api->batches.size()); });
    QCOMPARE(batches, 3);
    QCOMPARE(sqlCount(db, u"SELECT COUNT(*) FROM provider_batches WHERE status = 'abandoned'"_s), 1);
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
    QCOMPARE(weightedScore(QJsonArray{result(true, 3), result(false, 1)}), 0.75);
    QCOMPARE(weightedScore(QJsonArray{result(true, 1), result(false, 0)}), 1.0);
    QCOMPARE(weightedScore(QJsonArray{result(false, 0)}), 0.0);
    QCOMPARE(weightedScore(QJsonArray{}), 1.0);

    // In the summary: per run, per cell and per variant; the pass rate still needs every check.
    FakeProviderThread server;
    QVERIFY(server.listen());
    server.run([](FakeProvider &p) { p.setResponder(scriptedResponder(0)); });
    QTemporaryDir dir;
    QVERIFY(writeFile(dir.filePath(u"planner.spec.json"_s), QJsonDocument(twoTurnSpecJson(server.baseUrl(), u"CALLSCOPE_EVAL_API_KEY"_s)).toJson()));
    QVERIFY(writeFile(dir.filePath(u"cases.jsonl"_s), "{\"id\":\"a\",\"input\":\"Plan the pass ticket\"}\n"
                                                     "{\"id\":\"b\",\"input\":\"Plan the fail ticket\"}\n"));
    QVERIFY(writeFile(dir.filePath(u"exp.json"_s), R"({"spec":"planner.spec.json","dataset":"cases.jsonl",
        "assert":[{"type":"equals","pointer":"/title","value":"ok","weight":3},
                  {"type":"tool_sequence","names":["get_ticket","submit_output"],"weight":1},
                  {"type":"max_turns","value":1,"weight":0}]})"));
    const CliRun r = runEval({dir.filePath(u"exp.json"_s), u"--db"_s, dir.filePath(u"h.sqlite"_s)});
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
    QCOMPARE(run.value(u"assertions"_s).toArray().at(0).toObject().value(u"weight"_s).toDouble(), 3.0);
}

namespace {

// One turn, submit_output "ok" after `delayMs`.
FakeProvider::Responder okAfter(int delayMs)
{
    return [delayMs](const RecordedRequest &) {
        return FakeReply::json(200, openAiToolCallBody(u"call_1"_s, u"submit_output"_s, {{u"title"_s, u"ok"_s}})).delayedBy(delayMs);
    };
}

// `cases` cases in two variants, with a command assertion that takes 0.3 s after each call.
// Cases c1..cN, "Plan ticket N".
QByteArray numberedCases(int cases)
{
    QByteArray rows;
    for (int i = 1; i <= cases; ++i)
        rows += "{\"id\":\"c" + QByteArray::number(i) + "\",\"input\":\"Plan ticket " + QByteArray::number(i) + "\"}\n";
    return rows;
}

bool writeSlowCheckExperiment(const QTemporaryDir &dir, const QUrl &base, int cases)
{
    return writeFile(dir.filePath(u"planner.spec.json"_s), QJsonDocument(twoTurnSpecJson(base, u"CALLSCOPE_EVAL_API_KEY"_s)).toJson())
           && writeFile(dir.filePath(u"cases.jsonl"_s), numberedCases(cases))
           && writeFile(dir.filePath(u"exp.json"_s), R"({"spec":"planner.spec.json","dataset":"cases.jsonl",
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
        QStringList extra{u"--jobs"_s, QString::number(jobs)};
        if (!id.isEmpty())
            extra << u"--resume"_s << id;
        const int requestsAtStart = requestCount(server);
        startEval(process, dir, extra + QStringList{u"--trust"_s}); // its command check is ours
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
        while (requestCount(server) < at && process.state() != QProcess::NotRunning && clock.elapsed() < 30000)
            QThread::msleep(2);
        if (process.state() == QProcess::NotRunning)
            break; // everything was done before this kill point
        ::kill(pid_t(process.processId()), SIGKILL);
        QVERIFY(process.waitForFinished());
        ++killed;
    }
    const CliRun last = runEval({dir.filePath(u"exp.json"_s), u"--db"_s, db, u"--jobs"_s, QString::number(jobs), u"--resume"_s, id, u"--trust"_s});
    QVERIFY2(last.exit == 0, last.err.right(2000).constData());
    const int planned = cases * variants;
    const int requests = requestCount(server);
    qInfo("%d kills; %d requests for %d runs (%d re-sent)", killed, requests, planned, requests - planned);
    QVERIFY(killed >= 10);
    QVERIFY2(requests >= planned && requests <= planned + killed * jobs, qPrintable(QString::number(requests)));
    QCOMPARE(sqlCount(db, u"SELECT COUNT(*) FROM calls WHERE status = 'completed'"_s), planned);
    QCOMPARE(sqlCount(db, u"SELECT COUNT(*) FROM (SELECT json_extract(metadata, '$.case') AS c, json_extract(metadata, "
                          u"'$.variant') AS v FROM calls WHERE status = 'completed' GROUP BY c, v HAVING COUNT(*) > 1)"_s),
             0);
    QCOMPARE(sqlCount(db, u"SELECT COUNT(*) FROM experiment_runs WHERE experiment_id = %1"_s.arg(id)), planned);
    QCOMPARE(sqlCount(db, u"SELECT COUNT(DISTINCT case_id || '/' || variant) FROM experiment_runs WHERE experiment_id = %1"_s.arg(id)),
             planned);
    QCOMPARE(last.summary.value(u"variants"_s).toArray().at(1).toObject().value(u"passed"_s).toInt(), cases);
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
    startEval(first, dir, {u"--jobs"_s, u"2"_s, u"--trust"_s});
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
    startEval(resumed, dir, {u"--jobs"_s, u"1"_s, u"--resume"_s, id, u"--trust"_s});
    QVERIFY(resumed.waitForStarted());
    QByteArray resumedErr;
    QCOMPARE(readExperimentId(resumed, &resumedErr), id);
    const CliRun second = runEval({dir.filePath(u"exp.json"_s), u"--db"_s, db, u"--resume"_s, id, u"--trust"_s});
    QVERIFY2(resumed.state() != QProcess::NotRunning, "the first resume ended before the second started");
    QCOMPARE(second.exit, 1);
    QVERIFY2(second.err.contains("is in use by"), second.err.constData());
    QVERIFY(second.summary.isEmpty());
    QVERIFY(resumed.waitForFinished(120000));
    QVERIFY2(resumed.exitCode() == 0, QByteArray(resumedErr + resumed.readAllStandardError()).constData());
    QCOMPARE(sqlCount(db, u"SELECT COUNT(*) FROM experiment_runs WHERE experiment_id = %1"_s.arg(id)), cases * 2);
    QCOMPARE(sqlCount(db, u"SELECT COUNT(*) FROM calls WHERE status = 'completed'"_s), cases * 2);
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
            if (!messages.at(0).toObject().value(u"content"_s).toString().startsWith(u"You judge"_s))
                return calls(request);
            return FakeReply::json(200, openAiToolCallBody(u"j1"_s, u"submit_output"_s, {{u"score"_s, 0.9}, {u"reason"_s, u"fine"_s}}));
        });
    });
    const auto judgeRequests = [&server] {
        int n = 0;
        server.run([&n](FakeProvider &p) {
            for (const RecordedRequest &r : p.requests()) {
                const QJsonArray messages = r.jsonObject().value(u"messages"_s).toArray();
                n += messages.at(0).toObject().value(u"content"_s).toString().startsWith(u"You judge"_s) ? 1 : 0;
            }
        });
        return n;
    };
    QTemporaryDir dir;
    const int cases = 30;
    QVERIFY(writeFile(dir.filePath(u"planner.spec.json"_s), QJsonDocument(twoTurnSpecJson(server.baseUrl(), u"CALLSCOPE_EVAL_API_KEY"_s)).toJson()));
    QVERIFY(writeFile(dir.filePath(u"cases.jsonl"_s), numberedCases(cases)));
    // The command check waits until the test lets it go: until then no run can be stored.
    const QString release = dir.filePath(u"release"_s);
    const QJsonObject judge = judgeAssertion(server.baseUrl());
    const QJsonObject gate{{u"type"_s, u"command"_s},
                           {u"command"_s, QJsonArray{u"/bin/sh"_s, u"-c"_s,
                                                     u"cat >/dev/null; while [ ! -e '%1' ]; do sleep 0.02; done; echo ok"_s.arg(release)}}};
    const QJsonObject experiment{{u"spec"_s, u"planner.spec.json"_s}, {u"dataset"_s, u"cases.jsonl"_s}, {u"assert"_s, QJsonArray{judge, gate}}};
    QVERIFY(writeFile(dir.filePath(u"exp.json"_s), QJsonDocument(experiment).toJson()));
    const QString db = dir.filePath(u"h.sqlite"_s);
    const QString storedJudges = u"SELECT COUNT(*) FROM calls WHERE kind = 'judge' AND status = 'completed'"_s;

    QProcess first;
    startEval(first, dir, {u"--jobs"_s, u"4"_s, u"--trust"_s});
    QVERIFY(first.waitForStarted());
    QByteArray err;
    const QString id = readExperimentId(first, &err);
    QVERIFY2(!id.isEmpty(), err.constData());
    // Killed once several verdicts are stored, while their runs wait for the command check.
    QElapsedTimer clock;
    clock.start();
    while (sqlCount(db, storedJudges) < 4 && first.state() != QProcess::NotRunning && clock.elapsed() < 60000)
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
    const CliRun resumed = runEval({dir.filePath(u"exp.json"_s), u"--db"_s, db, u"--jobs"_s, u"4"_s, u"--resume"_s, id, u"--trust"_s});
    QVERIFY2(resumed.exit == 0, resumed.err.right(2000).constData());
    // One verdict per run; only the judge requests lost with the process were asked again.
    QCOMPARE(sqlCount(db, storedJudges), cases);
    QCOMPARE(judgeRequests(), cases + (judgesSent - judgesStored));
    QCOMPARE(sqlCount(db, u"SELECT COUNT(*) FROM (SELECT json_extract(metadata, '$.judge_of') AS j FROM calls "
                          u"WHERE kind = 'judge' AND status = 'completed' GROUP BY j HAVING COUNT(*) > 1)"_s),
             0);
    // Every run's verdict names the judge call that gave it.
    QCOMPARE(sqlCount(db, u"SELECT COUNT(*) FROM experiment_runs, json_each(experiment_runs.assertions) AS a WHERE "
                          u"json_extract(a.value, '$.type') = 'judge' AND json_extract(a.value, '$.judge_call_id') IN "
                          u"(SELECT id FROM calls WHERE kind = 'judge')"_s),
             cases);
}

QTEST_GUILESS_MAIN(TestEval)
#include "tst_eval.moc"
