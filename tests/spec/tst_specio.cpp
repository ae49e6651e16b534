// Loading, validating and saving spec files (core/model/specio.h).

#include "core/model/boundedread.h"
#include "core/model/jsonpointer.h"
#include "core/model/specio.h"
#include "tests/support/testsupport.h"

#include <QBuffer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace Qt::StringLiterals;
using namespace Callscope;

namespace {

QString specFile(const QString &relative)
{
    return Test::testDataPath(u"spec/"_s + relative);
}

QStringList errorStrings(const QList<SpecError> &errors)
{
    QStringList out;
    for (const SpecError &e : errors)
        out.append(e.toString());
    return out;
}

QJsonObject readObject(const QString &path)
{
    return Test::readJson(path).toObject();
}

} // namespace

class TestSpecIo final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void loadsEveryField();
    void appliesDefaults();
    void profileGivesEngineType();
    void roundTripKeepsEveryField();
    void keepsUnknownFields();
    void cacheSettingsLoadSaveAndErrors();
    void defaultSpecRoundTrips();
    void savesInContractOrder();
    void saveSpecFileWritesAndReloads();
    void brokenSpecs_data();
    void brokenSpecs();
    void unreadableFile();
    void boundedReads();
    void remoteMcpServersRoundTrip();
    void resolvesRelativePaths();
    void samplesLoad_data();
    void samplesLoad();
};

void TestSpecIo::loadsEveryField()
{
    const QString path = specFile(u"valid/full.spec.json"_s);
    const SpecLoadResult result = loadSpecFile(path);
    QVERIFY2(result.ok(), qPrintable(errorStrings(result.errors).join(u'\n')));
    const Spec &spec = *result.spec;
    QCOMPARE(spec.sourcePath, path);
    QCOMPARE(spec.kind, u"planner"_s);
    QCOMPARE(spec.systemPrompt,
             u"Plan the work on the ticket. Use the tools; ask before changing anything."_s);
    QVERIFY(spec.responseSchema.has_value());
    QCOMPARE(spec.responseSchema->value("required"_L1).toArray(),
             (QJsonArray { u"steps"_s, u"answer"_s }));
    QCOMPARE(spec.outputParser, u"text"_s);
    QCOMPARE(spec.outputMode, OutputMode::Prompted);
    QCOMPARE(spec.textOutputField, u"answer"_s);

    QCOMPARE(spec.tools.size(), 4);
    const ToolSpec &ticket = spec.tools.at(0);
    QCOMPARE(ticket.name, u"get_ticket"_s);
    QCOMPARE(ticket.description,
             u"Use when you need a ticket's title, status and history by id."_s);
    QCOMPARE(ticket.inputSchema.value("required"_L1).toArray(), QJsonArray { u"id"_s });
    QCOMPARE(ticket.requiresApproval, true);
    QCOMPARE(ticket.timeoutMs, 5000);
    QCOMPARE(ticket.runner, ToolRunnerKind::Command);
    QCOMPARE(ticket.command, (QStringList { u"python3"_s, u"tools/get_ticket.py"_s, u"--json"_s }));
    const ToolSpec &docs = spec.tools.at(1);
    QCOMPARE(docs.runner, ToolRunnerKind::Mcp);
    QCOMPARE(docs.mcpServer, u"docs"_s);
    QVERIFY(docs.description.isEmpty());
    QVERIFY(docs.inputSchema.isEmpty());
    QCOMPARE(docs.timeoutMs, 30000);
    QCOMPARE(docs.requiresApproval, false);
    QCOMPARE(spec.tools.at(2).runner, ToolRunnerKind::Manual);
    const ToolSpec &users = spec.tools.at(3);
    QCOMPARE(users.runner, ToolRunnerKind::Mock);
    QCOMPARE(users.mock.toArray().size(), 2);
    QCOMPARE(users.mock.toArray().at(0).toObject().value("users"_L1).toArray(),
             QJsonArray { u"ada"_s });
    QCOMPARE(spec.tool(u"ask_person"), &spec.tools.at(2));
    QCOMPARE(spec.tool(u"nope"), nullptr);

    QCOMPARE(spec.mcpServers.size(), 1);
    const McpServerSpec server = spec.mcpServers.value(u"docs"_s);
    QCOMPARE(server.command,
             (QStringList { u"npx"_s, u"-y"_s, u"@modelcontextprotocol/server-everything"_s }));
    QCOMPARE(server.env.value(u"DEBUG"_s), u"0"_s);
    QCOMPARE(server.exposeAll, true);

    QCOMPARE(spec.preSeeds.size(), 1);
    QCOMPARE(spec.preSeeds.at(0).tool, u"get_ticket"_s);
    QCOMPARE(spec.preSeeds.at(0).arguments, (QJsonObject { { "id"_L1, 7 } }));
    QCOMPARE(spec.maxTurns, 4);

    const EngineSpec &engine = spec.engine;
    QCOMPARE(engine.type, EngineType::Anthropic);
    QCOMPARE(engine.model, u"claude-sonnet-4-5"_s);
    QCOMPARE(engine.baseUrl, u"http://127.0.0.1:8080"_s);
    QCOMPARE(engine.apiKeyEnv, u"ANTHROPIC_API_KEY"_s);
    QCOMPARE(engine.profile, u"work"_s);
    QCOMPARE(engine.maxTokens, std::optional<int>(1024));
    QCOMPARE(engine.temperature, std::optional<double>(0.5));
    QCOMPARE(engine.contextWindow, std::optional<qint64>(200000));
    // null: send every tool result in full (present, but empty inside).
    QVERIFY(engine.toolResultsInContext.has_value());
    QVERIFY(!engine.toolResultsInContext->has_value());
    QCOMPARE(engine.toolResultsTokens, std::optional<qint64>(4000));
    QCOMPARE(engine.timeoutMs, std::optional<qint64>(120000));
    QCOMPARE(engine.idleTimeoutMs, std::optional<qint64>(15000));
    QCOMPARE(engine.stream, false);
    QCOMPARE(engine.replay, u"recording.json"_s);
    QCOMPARE(engine.typeFromProfile, false);

    QCOMPARE(spec.retry.maxAttempts, 5);
    QCOMPARE(spec.retry.reask, true);
    QCOMPARE(spec.retry.perAttemptOverride.size(), 2);
    QCOMPARE(spec.retry.perAttemptOverride.at(1), (QJsonObject { { "max_tokens"_L1, 4096 } }));

    QCOMPARE(spec.context.toolResultsInContext, std::optional<int>(3));
    QCOMPARE(spec.context.toolResultsTokens, std::optional<qint64>(9000));
    QCOMPARE(spec.context.toolResultsChars, std::optional<qint64>(50000));
    QCOMPARE(spec.context.imagesInContext, 1);
    QVERIFY(spec.unknownFields.isEmpty());
}

void TestSpecIo::appliesDefaults()
{
    const SpecLoadResult result = loadSpecFile(specFile(u"valid/minimal.spec.json"_s));
    QVERIFY2(result.ok(), qPrintable(errorStrings(result.errors).join(u'\n')));
    const Spec &spec = *result.spec;
    QCOMPARE(spec.kind, u"call"_s);
    QCOMPARE(spec.systemPrompt, u"Answer in one word."_s);
    QVERIFY(!spec.responseSchema.has_value());
    QCOMPARE(spec.outputParser, u"json"_s);
    QCOMPARE(spec.outputMode, OutputMode::Tool);
    QVERIFY(spec.textOutputField.isEmpty());
    QVERIFY(spec.tools.isEmpty());
    QVERIFY(spec.mcpServers.isEmpty());
    QVERIFY(spec.preSeeds.isEmpty());
    QCOMPARE(spec.maxTurns, 10);
    QCOMPARE(spec.engine.type, EngineType::OpenAI);
    QVERIFY(spec.engine.model.isEmpty());
    QVERIFY(!spec.engine.maxTokens.has_value());
    QVERIFY(!spec.engine.temperature.has_value());
    QVERIFY(!spec.engine.contextWindow.has_value());
    QVERIFY(!spec.engine.toolResultsInContext.has_value()); // inherit
    QVERIFY(!spec.engine.toolResultsTokens.has_value());
    QVERIFY(!spec.engine.timeoutMs.has_value());
    QVERIFY(!spec.engine.idleTimeoutMs.has_value());
    QCOMPARE(spec.engine.stream, true);
    QCOMPARE(spec.retry.maxAttempts, 3);
    QCOMPARE(spec.retry.reask, false);
    QVERIFY(spec.retry.perAttemptOverride.isEmpty());
    QCOMPARE(spec.context.toolResultsInContext, std::optional<int>(6));
    QVERIFY(!spec.context.toolResultsTokens.has_value());
    QVERIFY(!spec.context.toolResultsChars.has_value());
    QCOMPARE(spec.context.imagesInContext, 2);
    // A default-constructed Spec is what an empty file gives (apart from the source path).
    Spec defaults;
    defaults.systemPrompt = spec.systemPrompt;
    defaults.sourcePath = spec.sourcePath;
    QCOMPARE(spec, defaults);
}

void TestSpecIo::profileGivesEngineType()
{
    const SpecLoadResult result = loadSpecFile(specFile(u"valid/profile-only.spec.json"_s));
    QVERIFY2(result.ok(), qPrintable(errorStrings(result.errors).join(u'\n')));
    QCOMPARE(result.spec->engine.profile, u"local-llama"_s);
    QCOMPARE(result.spec->engine.typeFromProfile, true);
    QCOMPARE(result.spec->engine.toolResultsInContext, std::optional<std::optional<int>>(2));
    // Saving leaves "type" out again, so the profile keeps deciding it.
    const QJsonObject saved = specToJson(*result.spec);
    QCOMPARE(
        saved.value("engine"_L1).toObject(),
        (QJsonObject { { "profile"_L1, u"local-llama"_s }, { "tool_results_in_context"_L1, 2 } }));
}

void TestSpecIo::roundTripKeepsEveryField()
{
    const QString path = specFile(u"valid/full.spec.json"_s);
    const SpecLoadResult result = loadSpecFile(path);
    QVERIFY(result.ok());
    // Every field of this file differs from its default, so saving writes the same document.
    QCOMPARE(specToJson(*result.spec), readObject(path));
    const SpecLoadResult again = loadSpec(saveSpec(*result.spec), path);
    QVERIFY2(again.ok(), qPrintable(errorStrings(again.errors).join(u'\n')));
    QCOMPARE(*again.spec, *result.spec);
}

// The top-level "cache" object: every field read, saved back the same, and each bad value an
// error with its pointer (nothing runs with a cache setting that was mistyped).
void TestSpecIo::cacheSettingsLoadSaveAndErrors()
{
    const QByteArray json = R"({"kind": "k", "engine": {"type": "anthropic", "model": "m"},
        "cache": {"breakpoints": ["tools", "system", "last_but_one", 3, "auto"], "ttl": "1h",
                  "key": "planner-{{customer}}", "retention": "24h", "explicit": true, "x_note": 1}})";
    const SpecLoadResult loaded = loadSpec(json);
    QVERIFY2(loaded.ok(), qPrintable(loaded.errors.value(0).toString()));
    const std::optional<CacheSpec> &cache = loaded.spec->engine.cache;
    QVERIFY(cache);
    QCOMPARE(cache->breakpoints.size(), 5);
    QCOMPARE(cache->breakpoints.at(2).place, CacheBreakpoint::Place::LastButOne);
    QCOMPARE(cache->breakpoints.at(3).place, CacheBreakpoint::Place::Message);
    QCOMPARE(cache->breakpoints.at(3).message, 3);
    QVERIFY(cache->hasAuto());
    QCOMPARE(cache->ttl, u"1h"_s);
    QCOMPARE(cache->key, u"planner-{{customer}}"_s);
    QCOMPARE(cache->retention, u"24h"_s);
    QVERIFY(cache->explicitCache);
    QCOMPARE(cache->unknownFields.value(u"x_note"_s).toInt(), 1);
    const SpecLoadResult again = loadSpec(saveSpec(*loaded.spec));
    QVERIFY(again.ok());
    QCOMPARE(again.spec->engine.cache, cache);
    QVERIFY(!loadSpec(R"({"kind": "k"})").spec->engine.cache);

    const SpecLoadResult bad =
        loadSpec(R"({"kind": "k", "cache": {"breakpoints": ["tools", "middle", 0],
        "ttl": "10m", "retention": "forever", "explicit": "yes", "key": 7}})");
    QVERIFY(!bad.ok());
    QStringList pointers;
    for (const SpecError &e : bad.errors)
        pointers.append(e.pointer);
    QCOMPARE(pointers,
             (QStringList { u"/cache/breakpoints/1"_s, u"/cache/breakpoints/2"_s, u"/cache/key"_s,
                            u"/cache/ttl"_s, u"/cache/retention"_s, u"/cache/explicit"_s }));
    QVERIFY2(bad.errors.at(3).message.contains(u"\"5m\" or \"1h\""_s),
             qPrintable(bad.errors.at(3).message));
    QCOMPARE(loadSpec(R"({"kind": "k", "cache": []})").errors.value(0).pointer, u"/cache"_s);
}

void TestSpecIo::keepsUnknownFields()
{
    const QString path = specFile(u"valid/unknown-fields.spec.json"_s);
    const SpecLoadResult result = loadSpecFile(path);
    QVERIFY2(result.ok(), qPrintable(errorStrings(result.errors).join(u'\n')));
    const Spec &spec = *result.spec;
    QCOMPARE(spec.unknownFields.keys(), (QStringList { u"x_owner"_s, u"x_version"_s }));
    QCOMPARE(spec.textOutputUnknownFields, (QJsonObject { { "x_trim"_L1, true } }));
    QCOMPARE(spec.tools.at(0).unknownFields,
             (QJsonObject { { "strict"_L1, true }, { "x_cost"_L1, 0.25 } }));
    QCOMPARE(spec.mcpServers.value(u"fs"_s).unknownFields,
             (QJsonObject { { "x_cwd"_L1, u"/tmp"_s } }));
    QCOMPARE(spec.preSeeds.at(0).unknownFields, (QJsonObject { { "x_note"_L1, u"warm-up"_s } }));
    QCOMPARE(spec.engine.unknownFields,
             (QJsonObject { { "reasoning_effort"_L1, u"low"_s }, { "x_org"_L1, u"org-1"_s } }));
    QCOMPARE(spec.retry.unknownFields, (QJsonObject { { "x_backoff"_L1, u"slow"_s } }));
    QCOMPARE(spec.context.unknownFields.value("x_policy"_L1).toObject().value("keep"_L1).toArray(),
             (QJsonArray { 1, 2 }));

    // Saved text parses back to the very same document: every unknown value at its pointer.
    const QJsonObject original = readObject(path);
    const QJsonObject saved = QJsonDocument::fromJson(saveSpec(spec)).object();
    const QStringList unknownPointers = { u"/x_owner"_s,
                                          u"/x_version"_s,
                                          u"/text_output/x_trim"_s,
                                          u"/tools/0/x_cost"_s,
                                          u"/tools/0/strict"_s,
                                          u"/mcp_servers/fs/x_cwd"_s,
                                          u"/pre_seeds/0/x_note"_s,
                                          u"/engine/x_org"_s,
                                          u"/engine/reasoning_effort"_s,
                                          u"/retry/x_backoff"_s,
                                          u"/context/x_policy"_s,
                                          u"/response_schema/x-ui-order"_s };
    for (const QString &pointer : unknownPointers) {
        const auto before = JsonPointer::resolve(original, pointer);
        const auto after = JsonPointer::resolve(saved, pointer);
        QVERIFY2(before.has_value(), qPrintable(pointer));
        QVERIFY2(after.has_value(), qPrintable(u"lost on save: "_s + pointer));
        QCOMPARE(*after, *before);
    }
    QCOMPARE(saved, original);
    QCOMPARE(*loadSpec(saveSpec(spec), path).spec, spec);
}

void TestSpecIo::defaultSpecRoundTrips()
{
    const Spec spec;
    const QByteArray bytes = saveSpec(spec);
    const SpecLoadResult result = loadSpec(bytes);
    QVERIFY2(result.ok(), qPrintable(errorStrings(result.errors).join(u'\n')));
    QCOMPARE(*result.spec, spec);
    QCOMPARE(QJsonDocument::fromJson(bytes).object(),
             (QJsonObject { { "kind"_L1, u"call"_s },
                            { "system_prompt"_L1, QString() },
                            { "engine"_L1, QJsonObject { { "type"_L1, u"openai"_s } } } }));

    // Programmatic edits survive a round trip too.
    Spec edited;
    edited.maxTurns = 2;
    edited.engine.toolResultsInContext = std::optional<int>();
    edited.context.toolResultsInContext = std::nullopt;
    ToolSpec tool;
    tool.name = u"get_time"_s;
    tool.runner = ToolRunnerKind::Mock;
    tool.mock = u"12:00"_s;
    edited.tools.append(tool);
    edited.preSeeds.append({ u"get_time"_s, {}, {} });
    const SpecLoadResult again = loadSpec(saveSpec(edited));
    QVERIFY2(again.ok(), qPrintable(errorStrings(again.errors).join(u'\n')));
    QCOMPARE(*again.spec, edited);
}

void TestSpecIo::savesInContractOrder()
{
    const SpecLoadResult result = loadSpecFile(specFile(u"valid/full.spec.json"_s));
    QVERIFY(result.ok());
    const QString text = QString::fromUtf8(saveSpec(*result.spec));
    QVERIFY2(text.startsWith(u"{\n    \"kind\": \"planner\",\n    \"system_prompt\": "_s),
             qPrintable(text));
    QStringList topLevel;
    for (const QString &line : text.split(u'\n')) {
        if (line.startsWith(u"    \"") && !line.startsWith(u"     "))
            topLevel.append(line.mid(5, line.indexOf(u'"', 5) - 5));
    }
    QCOMPARE(
        topLevel,
        (QStringList { u"kind"_s, u"system_prompt"_s, u"response_schema"_s, u"output_parser"_s,
                       u"output_mode"_s, u"text_output"_s, u"tools"_s, u"mcp_servers"_s,
                       u"pre_seeds"_s, u"max_turns"_s, u"engine"_s, u"retry"_s, u"context"_s }));
    QVERIFY(text.contains(u"\"command\": [\"python3\", \"tools/get_ticket.py\", \"--json\"]"_s));
    QVERIFY(text.endsWith(u"}\n"_s));
}

void TestSpecIo::saveSpecFileWritesAndReloads()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const SpecLoadResult result = loadSpecFile(specFile(u"valid/full.spec.json"_s));
    QVERIFY(result.ok());
    const QString path = dir.filePath(u"copy.spec.json"_s);
    QVERIFY(!saveSpecFile(*result.spec, path).has_value());
    const SpecLoadResult reloaded = loadSpecFile(path);
    QVERIFY(reloaded.ok());
    Spec expected = *result.spec;
    expected.sourcePath = path;
    QCOMPARE(*reloaded.spec, expected);

    const auto error = saveSpecFile(*result.spec, dir.filePath(u"missing/dir/x.json"_s));
    QVERIFY(error.has_value());
    QVERIFY2(
        error->startsWith(u"cannot write "_s + dir.filePath(u"missing/dir/x.json"_s) + u": "_s),
        qPrintable(*error));
}

void TestSpecIo::brokenSpecs_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("errors");

    const QString engines =
        u"openai, openai-responses, anthropic, gemini, openai-compatible, replay"_s;
    QTest::newRow("bad JSON") << u"bad-json.spec.json"_s
                              << QStringList {
                                     u"line 3, column 16: object is missing after a comma"_s
                                 };
    QTest::newRow("root is an array")
        << u"root-array.spec.json"_s << QStringList { u"expected an object, got an array"_s };
    QTest::newRow("root is a string")
        << u"root-scalar.spec.json"_s << QStringList { u"expected an object, got a string"_s };
    QTest::newRow("input schema is a string")
        << u"input-schema-string.spec.json"_s
        << QStringList { u"/tools/2/input_schema: expected an object, got a string"_s };
    QTest::newRow("unknown engine type")
        << u"unknown-engine.spec.json"_s
        << QStringList { u"/engine/type: unknown engine type \"foo\" (expected one of "_s + engines
                         + u')' };
    QTest::newRow("duplicate tool names")
        << u"duplicate-tools.spec.json"_s
        << QStringList {
               u"/tools/2/name: duplicate tool name \"get_ticket\" (first used at /tools/0)"_s
           };
    QTest::newRow("tool with two runners")
        << u"two-runners.spec.json"_s
        << QStringList { u"/tools/0: more than one runner (command, mock); give exactly one of "
                         "command, mcp, manual or mock"_s };
    QTest::newRow("tool without runner")
        << u"no-runner.spec.json"_s
        << QStringList {
               u"/tools/0: no runner; give one of command, mcp, manual (true) or mock"_s
           };
    QTest::newRow("mcp names a missing server")
        << u"mcp-unknown-server.spec.json"_s
        << QStringList {
               u"/tools/0/mcp: unknown MCP server \"fs\" (mcp_servers has no entry of that name)"_s
           };
    QTest::newRow("pre-seed names a missing tool")
        << u"preseed-missing-tool.spec.json"_s
        << QStringList {
               u"/pre_seeds/1/tool: unknown tool \"get_user\" (no entry in tools has that name)"_s
           };
    QTest::newRow("unknown output parser")
        << u"output-parser.spec.json"_s
        << QStringList {
               u"/output_parser: unknown output parser \"xml\" (expected json or text)"_s
           };
    QTest::newRow("unknown output mode")
        << u"output-mode.spec.json"_s
        << QStringList {
               u"/output_mode: unknown output mode \"json\" (expected tool, native or prompted)"_s
           };
    QTest::newRow("output mode not a string")
        << u"output-mode-number.spec.json"_s
        << QStringList { u"/output_mode: expected a string, got an integer"_s };
    QTest::newRow("stop_early not a boolean")
        << u"stop-early-string.spec.json"_s
        << QStringList { u"/stop_early: expected a boolean, got a string"_s };
    QTest::newRow("text_output without field")
        << u"text-output-no-field.spec.json"_s
        << QStringList {
               u"/text_output: missing required field \"field\" (the submit_output argument "
               "a plain-text answer goes into)"_s
           };
    QTest::newRow("text_output without response schema")
        << u"text-output-no-schema.spec.json"_s
        << QStringList { u"/text_output: needs a response_schema: text_output maps a plain-text "
                         "answer onto the arguments of submit_output"_s };
    QTest::newRow("max_turns 0") << u"max-turns-zero.spec.json"_s
                                 << QStringList { u"/max_turns: must be at least 1, got 0"_s };
    QTest::newRow("retry max_attempts 0")
        << u"retry-attempts-zero.spec.json"_s
        << QStringList { u"/retry/max_attempts: must be at least 1, got 0"_s };
    QTest::newRow("per_attempt_override not an array")
        << u"override-not-array.spec.json"_s
        << QStringList { u"/retry/per_attempt_override: expected an array, got an object"_s };
    QTest::newRow("per_attempt_override entries not objects")
        << u"override-entry-not-object.spec.json"_s
        << QStringList { u"/retry/per_attempt_override/1: expected an object, got an integer"_s,
                         u"/retry/per_attempt_override/2: expected an object, got a string"_s };
    QTest::newRow("negative timeout")
        << u"negative-timeout.spec.json"_s
        << QStringList { u"/tools/0/timeout_ms: must be at least 1, got -5"_s };
    QTest::newRow("response schema that can never validate")
        << u"ref-cycle.spec.json"_s
        << QStringList {
               u"/response_schema/$defs/b/$ref: the schema refers back to itself without consuming "
               u"any "
               "input (a $ref cycle: /$defs/a -> /$defs/b -> /$defs/a), so no value can ever be valid here"_s
           };
    QTest::newRow("response schema is a boolean")
        << u"response-schema-bool.spec.json"_s
        << QStringList { u"/response_schema: expected an object, got a boolean"_s };
    QTest::newRow("submit_output is reserved")
        << u"submit-output-reserved.spec.json"_s
        << QStringList { u"/tools/0/name: the name \"submit_output\" is reserved for the tool that "
                         "returns the response schema's output"_s };
    QTest::newRow("replay engine without recording")
        << u"replay-without-recording.spec.json"_s
        << QStringList { u"/engine: missing required field \"replay\" (the replay engine answers "
                         "from a recording file or a stored call id)"_s };
    QTest::newRow("wrong types everywhere, all reported")
        << u"wrong-types.spec.json"_s
        << QStringList { u"/kind: expected a string, got an integer"_s,
                         u"/system_prompt: expected a string, got an array"_s,
                         u"/mcp_servers: expected an object, got an array"_s,
                         u"/tools: expected an array, got an object"_s,
                         u"/max_turns: expected an integer, got a string"_s,
                         u"/engine/max_tokens: expected an integer, got a number"_s,
                         u"/engine/temperature: expected a number, got a string"_s,
                         u"/engine/stream: expected a boolean, got a string"_s,
                         u"/retry/reask: expected a boolean, got an integer"_s,
                         u"/context/tool_results_in_context: expected an integer, got a string"_s,
                         u"/context/images_in_context: must be at least 0, got -1"_s };
    QTest::newRow("API key in the spec")
        << u"api-key-in-spec.spec.json"_s
        << QStringList { u"/engine/api_key_env: expected the name of an environment variable "
                         "(letters, digits and _), not the key itself"_s,
                         u"/engine/api_key: API keys do not belong in spec files; name an "
                         "environment variable in api_key_env or a profile whose key is in the "
                         "keychain"_s };
    QTest::newRow("command is not an argument vector")
        << u"command-string.spec.json"_s
        << QStringList { u"/tools/0/command: expected an array of strings (program and arguments, "
                         "run without a shell), got a string"_s,
                         u"/tools/1/command/0: must not be empty"_s,
                         u"/tools/1/command/1: expected a string, got an integer"_s };
    QTest::newRow("base_url is not a URL")
        << u"base-url.spec.json"_s
        << QStringList { u"/engine/base_url: expected an http or https URL such as "
                         "\"http://127.0.0.1:8080\", got \"localhost:8080\""_s };
    QTest::newRow("tool entries without names")
        << u"tool-missing-name.spec.json"_s
        << QStringList { u"/tools/0: missing required field \"name\""_s,
                         u"/tools/1: expected an object, got a string"_s,
                         u"/tools/2/name: must not be empty"_s };
    QTest::newRow("broken MCP servers")
        << u"mcp-server-broken.spec.json"_s
        << QStringList {
               u"/mcp_servers/fs: missing required field \"command\" (the program that "
               "starts the server, or \"url\" for a remote server)"_s,
               u"/mcp_servers/fs/env/DEBUG: expected a string, got an integer"_s,
               u"/mcp_servers/fs/expose: unknown value \"some\" (the only value is \"all\")"_s,
               u"/mcp_servers/web: expected an object, got a string"_s
           };
    QTest::newRow("broken remote MCP servers")
        << u"mcp-remote-broken.spec.json"_s
        << QStringList {
               u"/mcp_servers/both: both command and url; give command for a local server or url for a remote one"_s,
               u"/mcp_servers/ftp/url: \"ftp://host/mcp\" is not an http:// or https:// URL"_s,
               u"/mcp_servers/local/headers: headers are only sent to a remote server (one with \"url\")"_s,
               u"/mcp_servers/local/auth: auth is only used with a remote server (one with \"url\")"_s,
               u"/mcp_servers/secret/auth/oauth/client_secret: a client secret does not belong in "
               u"a spec file; "
               "put it in an environment variable and name it with \"client_secret_env\""_s,
               u"/mcp_servers/token/auth: a token does not belong in a spec file; name the "
               u"variable that holds "
               "it with \"bearer_env\""_s,
               u"/mcp_servers/weird/headers/bad name: \"bad name\" is not a valid HTTP header name"_s,
               u"/mcp_servers/weird/auth: unknown value \"kerberos\" (use \"oauth\", \"none\" or "
               u"an object with "
               "\"bearer_env\" or \"oauth\")"_s,
               u"/mcp_servers/weird/approval: unknown value \"sometimes\" (use \"always\", "
               u"\"destructive\" or "
               "\"never\")"_s
           };
    QTest::newRow("broken pre-seeds")
        << u"preseed-broken.spec.json"_s
        << QStringList { u"/pre_seeds/0: missing required field \"tool\""_s,
                         u"/pre_seeds/1/arguments: expected an object, got an array"_s,
                         u"/pre_seeds/2: expected an object, got an integer"_s };
}

void TestSpecIo::brokenSpecs()
{
    QFETCH(QString, file);
    QFETCH(QStringList, errors);
    const QString path = specFile(u"broken/"_s + file);
    const QByteArray bytes = Test::readFile(path);
    QVERIFY2(!bytes.isEmpty(), qPrintable(Test::lastError()));
    const SpecLoadResult result = loadSpec(bytes, path);
    QVERIFY(!result.ok());
    QVERIFY(!result.spec.has_value());
    QCOMPARE(errorStrings(result.errors), errors);
    // Pointers are separate from messages and resolve into the document where they can.
    for (const SpecError &error : result.errors) {
        QVERIFY(error.pointer.isEmpty() || error.pointer.startsWith(u'/'));
        QVERIFY(!error.message.isEmpty());
    }
}

void TestSpecIo::remoteMcpServersRoundTrip()
{
    const SpecLoadResult result = loadSpecFile(specFile(u"valid/remote-mcp.spec.json"_s));
    QVERIFY2(result.ok(), qPrintable(errorStrings(result.errors).join(u'\n')));
    const Spec &spec = *result.spec;
    const McpServerSpec docs = spec.mcpServers.value(u"docs"_s);
    QVERIFY(docs.isRemote());
    QCOMPARE(docs.url, u"https://mcp.example.com/mcp"_s);
    QCOMPARE(docs.headers.value(u"X-Team"_s), u"core"_s);
    QCOMPARE(docs.auth, McpAuthKind::OAuth);
    QCOMPARE(docs.oauthClientId, u"callscope-desktop"_s);
    QCOMPARE(docs.oauthClientSecretEnv, u"DOCS_CLIENT_SECRET"_s);
    QCOMPARE(docs.oauthScope, u"docs:read"_s);
    QCOMPARE(docs.approval, McpApprovalPolicy::Always);
    const McpServerSpec wiki = spec.mcpServers.value(u"wiki"_s);
    QCOMPARE(wiki.auth, McpAuthKind::Bearer);
    QCOMPARE(wiki.bearerEnv, u"WIKI_TOKEN"_s);
    QVERIFY(wiki.exposeAll);
    QCOMPARE(wiki.approval, McpApprovalPolicy::Destructive);
    QCOMPARE(spec.mcpServers.value(u"open"_s).auth, McpAuthKind::OAuth);
    QVERIFY(spec.tools.at(0).approvalGiven);
    QVERIFY(!spec.tools.at(0).requiresApproval);

    // Saved and loaded again: the same spec, requires_approval: false kept.
    const QByteArray saved = saveSpec(spec);
    QVERIFY(saved.contains("\"requires_approval\": false"));
    const SpecLoadResult again = loadSpec(saved);
    QVERIFY2(again.ok(), qPrintable(errorStrings(again.errors).join(u'\n')));
    Spec reloaded = *again.spec;
    reloaded.sourcePath = spec.sourcePath;
    QCOMPARE(reloaded.mcpServers, spec.mcpServers);
    QCOMPARE(reloaded.tools, spec.tools);
}

void TestSpecIo::unreadableFile()
{
    const QString path = specFile(u"broken/does-not-exist.spec.json"_s);
    const SpecLoadResult result = loadSpecFile(path);
    QVERIFY(!result.ok());
    QCOMPARE(result.errors.size(), 1);
    QCOMPARE(result.errors.at(0).pointer, QString());
    QCOMPARE(result.errors.at(0).message,
             u"cannot read "_s + path + u": No such file or directory"_s);
}

// A folder, a device, a file past the bound and a line past the bound are refused by name, and
// nothing past the bound is read; a pipe is read like a file.
void TestSpecIo::boundedReads()
{
    QString error;
    QVERIFY(!readFileBounded(u"/dev/zero"_s, MaxSpecFileBytes, &error));
    QCOMPARE(error, u"cannot read /dev/zero: it is a device, not a file"_s);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(!readFileBounded(dir.path(), MaxSpecFileBytes, &error));
    QCOMPARE(error, u"cannot read %1: it is a folder, not a file"_s.arg(dir.path()));
    const SpecLoadResult fromDevice = loadSpecFile(u"/dev/urandom"_s);
    QVERIFY(!fromDevice.ok());
    QCOMPARE(fromDevice.errors.at(0).message,
             u"cannot read /dev/urandom: it is a device, not a file"_s);

    // Exactly at the bound is read; one byte more is refused.
    const QString path = dir.filePath(u"sized.json"_s);
    const auto write = [&path](qint64 size) {
        QFile file(path);
        return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
            && file.write(QByteArray(size, ' ')) == size;
    };
    QVERIFY(write(1000));
    const std::optional<QByteArray> fits = readFileBounded(path, 1000, &error);
    QVERIFY(fits);
    QCOMPARE(fits->size(), 1000);
    QVERIFY(write(1001));
    QVERIFY(!readFileBounded(path, 1000, &error));
    QCOMPARE(error,
             u"cannot read %1: it is larger than 1000 bytes, the most read from such a file"_s.arg(
                 path));
    QVERIFY(write(MaxSpecFileBytes + 1));
    const SpecLoadResult tooLarge = loadSpecFile(path);
    QVERIFY(!tooLarge.ok());
    QVERIFY2(tooLarge.errors.at(0).message.endsWith(
                 u"it is larger than 32 MiB, the most read from such a file"_s),
             qPrintable(tooLarge.errors.at(0).message));

    // A pipe that never ends stops at the bound.
    const QString fifo = dir.filePath(u"endless"_s);
    QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
    QProcess writer;
    writer.start(u"sh"_s, { u"-c"_s, u"yes > '%1'"_s.arg(fifo) });
    QVERIFY(writer.waitForStarted());
    QVERIFY(!readFileBounded(fifo, 4 << 20, &error));
    QVERIFY2(error.endsWith(u"it is larger than 4 MiB, the most read from such a file"_s),
             qPrintable(error));
    writer.kill();
    writer.waitForFinished();

    // Lines: within the bound, then one past it (the reader is told, and gets nothing of it).
    QBuffer buffer;
    buffer.setData("short\n" + QByteArray(100, 'x') + "\nafter\n");
    QVERIFY(buffer.open(QIODevice::ReadOnly));
    bool tooLong = true;
    QCOMPARE(readLineBounded(buffer, 10, &tooLong), QByteArray("short\n"));
    QVERIFY(!tooLong);
    QCOMPARE(readLineBounded(buffer, 10, &tooLong), QByteArray());
    QVERIFY(tooLong);
}

void TestSpecIo::resolvesRelativePaths()
{
    Spec spec;
    QCOMPARE(spec.resolvePath(u"rec.json"_s), u"rec.json"_s);
    spec.sourcePath = u"/data/specs/lunar.spec.json"_s;
    QCOMPARE(spec.resolvePath(u"rec.json"_s), u"/data/specs/rec.json"_s);
    QCOMPARE(spec.resolvePath(u"../rec/a.json"_s), u"/data/rec/a.json"_s);
    QCOMPARE(spec.resolvePath(u"/abs/a.json"_s), u"/abs/a.json"_s);
    QCOMPARE(spec.resolvePath(QString()), QString());
}

void TestSpecIo::samplesLoad_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("tools");
    QTest::addColumn<QString>("replay");
    QTest::newRow("lunar landing")
        << u"lunar-landing"_s << u"extraction"_s << 0 << u"lunar-landing.recording.json"_s;
    QTest::newRow("planner") << u"planner"_s << u"planner"_s << 2 << u"planner.recording.json"_s;
    QTest::newRow("refusal") << u"refusal"_s << u"call"_s << 0 << u"refusal.recording.json"_s;
}

void TestSpecIo::samplesLoad()
{
    QFETCH(QString, name);
    QFETCH(QString, kind);
    QFETCH(int, tools);
    QFETCH(QString, replay);
    // The bundled copy (resources.qrc) is what the programs ship.
    const QString path = u":/callscope/samples/"_s + name + u".spec.json"_s;
    const SpecLoadResult result = loadSpecFile(path);
    QVERIFY2(result.ok(), qPrintable(path + u": "_s + errorStrings(result.errors).join(u'\n')));
    QCOMPARE(result.spec->kind, kind);
    QCOMPARE(result.spec->tools.size(), tools);
    QCOMPARE(result.spec->engine.type, EngineType::Replay);
    QCOMPARE(result.spec->engine.replay, replay);
    QVERIFY(result.spec->responseSchema.has_value());
}

int runSpecIoTests(int argc, char **argv)
{
    TestSpecIo test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_specio.moc"
