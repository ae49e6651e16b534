// Lint rules per engine type (core/schema/lint.h). Each rule has a spec under
// tests/data/spec/lint/ that breaks it; rows also check engines where the rule must stay quiet.

#include "core/model/specio.h"
#include "core/schema/engineschema.h"
#include "core/schema/jsonschema.h"
#include "core/schema/lint.h"
#include "core/schema/speccheck.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace Callscope;

namespace {

struct RuleCase
{
    const char *name;
    QString file;
    EngineType engine;
    QString rule;
    QStringList pointers; // every finding of `rule`, in order; empty: the rule must stay quiet
};

const QString kDeep = u"/tools/0/input_schema"_s;

QString repeatA(int times)
{
    QString s;
    for (int i = 0; i < times; ++i)
        s += u"/properties/a"_s;
    return s;
}

QList<RuleCase> ruleCases()
{
    using E = EngineType;
    return {
        { "snake case",
          u"names"_s,
          E::OpenAI,
          u"tool-name-snake-case"_s,
          { u"/tools/0/name"_s, u"/tools/2/name"_s, u"/tools/4/name"_s } },
        { "snake case on replay",
          u"names"_s,
          E::Replay,
          u"tool-name-snake-case"_s,
          { u"/tools/0/name"_s, u"/tools/2/name"_s, u"/tools/4/name"_s } },
        { "verb noun", u"names"_s, E::Anthropic, u"tool-name-verb-noun"_s, { u"/tools/1/name"_s } },
        { "OpenAI name rule",
          u"names"_s,
          E::OpenAI,
          u"tool-name-provider"_s,
          { u"/tools/2/name"_s, u"/tools/3/name"_s } },
        { "Responses name rule",
          u"names"_s,
          E::OpenAIResponses,
          u"tool-name-provider"_s,
          { u"/tools/2/name"_s, u"/tools/3/name"_s } },
        { "compatible name rule",
          u"names"_s,
          E::OpenAICompatible,
          u"tool-name-provider"_s,
          { u"/tools/2/name"_s, u"/tools/3/name"_s } },
        { "Anthropic name rule (128 chars)",
          u"names"_s,
          E::Anthropic,
          u"tool-name-provider"_s,
          { u"/tools/2/name"_s } },
        { "Gemini name rule (dots, letter first)",
          u"names"_s,
          E::Gemini,
          u"tool-name-provider"_s,
          { u"/tools/4/name"_s } },
        { "no name rule for replay", u"names"_s, E::Replay, u"tool-name-provider"_s, {} },
        { "description missing",
          u"descriptions"_s,
          E::OpenAI,
          u"tool-description-missing"_s,
          { u"/tools/0"_s, u"/tools/3"_s } },
        { "description missing on gemini",
          u"descriptions"_s,
          E::Gemini,
          u"tool-description-missing"_s,
          { u"/tools/0"_s, u"/tools/3"_s } },
        { "description too long",
          u"descriptions"_s,
          E::Anthropic,
          u"tool-description-length"_s,
          { u"/tools/1/description"_s } },
        { "closed set as enum",
          u"closed-set"_s,
          E::OpenAI,
          u"enum-closed-set"_s,
          { u"/tools/0/input_schema/properties/order"_s,
            u"/tools/0/input_schema/properties/priority"_s,
            u"/tools/0/input_schema/properties/size"_s,
            u"/tools/0/input_schema/properties/state"_s } },
        { "closed set on anthropic",
          u"closed-set"_s,
          E::Anthropic,
          u"enum-closed-set"_s,
          { u"/tools/0/input_schema/properties/order"_s,
            u"/tools/0/input_schema/properties/priority"_s,
            u"/tools/0/input_schema/properties/size"_s,
            u"/tools/0/input_schema/properties/state"_s } },
        { "OpenAI 128 tools", u"tool-count-130"_s, E::OpenAI, u"tool-count"_s, { u"/tools"_s } },
        { "Responses 128 tools",
          u"tool-count-130"_s,
          E::OpenAIResponses,
          u"tool-count"_s,
          { u"/tools"_s } },
        { "OpenAI allows 70", u"tool-count-70"_s, E::OpenAI, u"tool-count"_s, {} },
        { "Anthropic 64 tools",
          u"tool-count-70"_s,
          E::Anthropic,
          u"tool-count"_s,
          { u"/tools"_s } },
        { "no count limit for gemini", u"tool-count-130"_s, E::Gemini, u"tool-count"_s, {} },
        { "root must be an object",
          u"strict"_s,
          E::Gemini,
          u"schema-root-object"_s,
          { u"/tools/1/input_schema"_s, u"/tools/2/input_schema"_s } },
        { "root must be an object (openai)",
          u"strict"_s,
          E::OpenAI,
          u"schema-root-object"_s,
          { u"/tools/1/input_schema"_s, u"/tools/2/input_schema"_s } },
        { "8192-byte strings",
          u"strict"_s,
          E::OpenAI,
          u"argument-string-size"_s,
          { u"/response_schema/properties/body/maxLength"_s } },
        { "8192-byte strings, anthropic",
          u"strict"_s,
          E::Anthropic,
          u"argument-string-size"_s,
          {} },
        { "output parser ignored",
          u"output-parser"_s,
          E::Gemini,
          u"output-parser-ignored"_s,
          { u"/output_parser"_s } },
        { "strict additionalProperties",
          u"strict"_s,
          E::OpenAI,
          u"strict-additional-properties"_s,
          { u"/response_schema/properties/extra"_s } },
        { "strict additionalProperties, anthropic",
          u"strict"_s,
          E::Anthropic,
          u"strict-additional-properties"_s,
          {} },
        { "strict required",
          u"strict"_s,
          E::OpenAIResponses,
          u"strict-required"_s,
          { u"/response_schema/properties/body"_s } },
        { "strict required, gemini", u"strict"_s, E::Gemini, u"strict-required"_s, {} },
        { "strict required, compatible",
          u"strict"_s,
          E::OpenAICompatible,
          u"strict-required"_s,
          {} },
        { "strict keywords",
          u"strict"_s,
          E::OpenAI,
          u"strict-unsupported-keyword"_s,
          { u"/response_schema/properties/mixed/allOf"_s,
            u"/response_schema/properties/title/default"_s } },
        { "strict keywords, replay", u"strict"_s, E::Replay, u"strict-unsupported-keyword"_s, {} },
        { "strict format",
          u"strict"_s,
          E::OpenAI,
          u"strict-format"_s,
          { u"/response_schema/properties/link/format"_s } },
        { "strict $ref siblings",
          u"strict"_s,
          E::OpenAIResponses,
          u"strict-ref-siblings"_s,
          { u"/response_schema/properties/owner"_s } },
        { "strict depth",
          u"strict"_s,
          E::OpenAI,
          u"strict-depth"_s,
          { kDeep + repeatA(5), kDeep + repeatA(10) } },
        { "strict depth, gemini", u"strict"_s, E::Gemini, u"strict-depth"_s, {} },
        { "strict size", u"strict-size"_s, E::OpenAI, u"strict-size"_s, { u"/response_schema"_s } },
        { "strict size, anthropic", u"strict-size"_s, E::Anthropic, u"strict-size"_s, {} },
        { "anthropic minItems",
          u"anthropic"_s,
          E::Anthropic,
          u"anthropic-min-items"_s,
          { u"/response_schema/properties/items/minItems"_s } },
        { "anthropic minItems, openai", u"anthropic"_s, E::OpenAI, u"anthropic-min-items"_s, {} },
        { "anthropic keywords (response schema only)",
          u"anthropic"_s,
          E::Anthropic,
          u"anthropic-unsupported-keyword"_s,
          { u"/response_schema/properties/items/maxItems"_s,
            u"/response_schema/properties/items/items/pattern"_s,
            u"/response_schema/properties/score/minimum"_s,
            u"/response_schema/properties/score/maximum"_s } },
        { "anthropic format",
          u"anthropic"_s,
          E::Anthropic,
          u"anthropic-format"_s,
          { u"/response_schema/properties/blob/format"_s } },
        { "gemini recursive $ref",
          u"gemini"_s,
          E::Gemini,
          u"gemini-recursive-ref"_s,
          { u"/response_schema/$defs/node/properties/children/items/$ref"_s } },
        { "recursive $ref is fine for openai",
          u"gemini"_s,
          E::OpenAI,
          u"gemini-recursive-ref"_s,
          {} },
        { "anthropic recursive $ref",
          u"gemini"_s,
          E::Anthropic,
          u"anthropic-recursive-ref"_s,
          { u"/response_schema/$defs/node/properties/children/items/$ref"_s } },
        { "anthropic recursion rule is Anthropic's",
          u"gemini"_s,
          E::Gemini,
          u"anthropic-recursive-ref"_s,
          {} },
        { "gemini const",
          u"gemini"_s,
          E::Gemini,
          u"gemini-const"_s,
          { u"/response_schema/properties/kind/const"_s } },
        { "gemini dropped keywords",
          u"gemini"_s,
          E::Gemini,
          u"gemini-dropped-keyword"_s,
          { u"/response_schema/properties/ratio/exclusiveMinimum"_s,
            u"/response_schema/properties/when/format"_s } },
        { "gemini parameter names",
          u"gemini"_s,
          E::Gemini,
          u"gemini-parameter-name"_s,
          { u"/response_schema/properties/user-name"_s } },
        // No $schema: read as 2020-12, so the draft-04 forms are named with their rewrite; the
        // tool's schema says it is draft-07 and has nothing to flag.
        { "older draft forms without $schema",
          u"draft-forms"_s,
          E::OpenAI,
          u"schema-draft-form"_s,
          { u"/response_schema/definitions"_s,
            u"/response_schema/properties/confidence/exclusiveMaximum"_s,
            u"/response_schema/properties/point/items"_s } },
        { "older draft forms, any engine",
          u"draft-forms"_s,
          E::Gemini,
          u"schema-draft-form"_s,
          { u"/response_schema/definitions"_s,
            u"/response_schema/properties/confidence/exclusiveMaximum"_s,
            u"/response_schema/properties/point/items"_s } },
        { "output mode without a schema",
          u"output-mode-no-schema"_s,
          E::OpenAI,
          u"output-mode-ignored"_s,
          { u"/output_mode"_s } },
        { "stop_early in prompted mode",
          u"stop-early-prompted"_s,
          E::OpenAI,
          u"stop-early-ignored"_s,
          { u"/stop_early"_s } },
        { "text_output ignored in native mode",
          u"native"_s,
          E::OpenAI,
          u"text-output-ignored"_s,
          { u"/text_output"_s } },
        { "native on claude-3",
          u"native"_s,
          E::Anthropic,
          u"native-unsupported"_s,
          { u"/output_mode"_s } },
        { "native on a compatible server",
          u"native"_s,
          E::OpenAICompatible,
          u"native-unsupported"_s,
          { u"/output_mode"_s } },
        { "native: the model only counts on its own engine",
          u"native"_s,
          E::OpenAI,
          u"native-unsupported"_s,
          {} },
        { "native schema for openai",
          u"native"_s,
          E::OpenAI,
          u"native-schema-changed"_s,
          { u"/response_schema/additionalProperties"_s,
            u"/response_schema/properties/title/minLength"_s,
            u"/response_schema/properties/note"_s } },
        { "native schema for anthropic",
          u"native"_s,
          E::Anthropic,
          u"native-schema-changed"_s,
          { u"/response_schema/additionalProperties"_s,
            u"/response_schema/properties/title/minLength"_s } },
        { "native schema unchanged for gemini",
          u"native"_s,
          E::Gemini,
          u"native-schema-changed"_s,
          {} },
        { "native: strict rules are the rewrite's",
          u"native"_s,
          E::OpenAI,
          u"strict-required"_s,
          {} },
        { "gemini parameter names, anthropic",
          u"gemini"_s,
          E::Anthropic,
          u"gemini-parameter-name"_s,
          {} },
        { "unknown fields",
          u"unknown-fields"_s,
          E::OpenAI,
          u"unknown-field"_s,
          { u"/max_turn"_s, u"/notes_for_me"_s, u"/engine/modle"_s, u"/retry/max_attempt"_s,
            u"/tools/0/descripton"_s } },
        { "unknown fields: none in a clean spec", u"clean"_s, E::OpenAI, u"unknown-field"_s, {} },
        { "unknown fields of an MCP server",
          u"mcp-remote"_s,
          E::OpenAI,
          u"unknown-field"_s,
          { u"/mcp_servers/secure/x_region"_s } },
        { "remote MCP server over plain http",
          u"mcp-remote"_s,
          E::OpenAI,
          u"mcp-insecure-url"_s,
          { u"/mcp_servers/plain/url"_s } },
        // No profile lookup in this test: a base_url beside a profile is reported as it is.
        { "profile key sent elsewhere",
          u"keys"_s,
          E::OpenAI,
          u"key-profile-redirect"_s,
          { u"/engine/base_url"_s } },
        { "key variables not allowed",
          u"keys"_s,
          E::OpenAI,
          u"key-env-not-allowed"_s,
          { u"/engine/api_key_env"_s, u"/mcp_servers/far/auth/bearer_env"_s } },
        // The prompt cache, per engine.
        { "vars before static text",
          u"cache"_s,
          E::Anthropic,
          u"cache-vars-first"_s,
          { u"/system_prompt"_s } },
        { "vars before static text on OpenAI",
          u"cache"_s,
          E::OpenAI,
          u"cache-vars-first"_s,
          { u"/system_prompt"_s } },
        { "no cache on a local server",
          u"cache"_s,
          E::OpenAICompatible,
          u"cache-vars-first"_s,
          {} },
        { "five breakpoints",
          u"cache"_s,
          E::Anthropic,
          u"cache-breakpoint-count"_s,
          { u"/cache/breakpoints"_s } },
        { "breakpoints on missing parts",
          u"cache-nothing-to-mark"_s,
          E::Anthropic,
          u"cache-breakpoint-place"_s,
          { u"/cache/breakpoints/0"_s, u"/cache/breakpoints/1"_s } },
        { "Anthropic TTL", u"cache"_s, E::Anthropic, u"cache-ttl"_s, { u"/cache/ttl"_s } },
        { "a TTL of seconds on Gemini", u"cache"_s, E::Gemini, u"cache-ttl"_s, {} },
        { "Anthropic TTL of an hour",
          u"cache-nothing-to-mark"_s,
          E::Anthropic,
          u"cache-ttl"_s,
          {} },
        { "Anthropic below the minimum",
          u"cache"_s,
          E::Anthropic,
          u"cache-below-minimum"_s,
          { u"/cache/breakpoints/0"_s, u"/cache/breakpoints/1"_s } },
        { "OpenAI below the minimum",
          u"cache"_s,
          E::OpenAI,
          u"cache-below-minimum"_s,
          { u"/cache/key"_s } },
        { "Gemini explicit cache below the minimum",
          u"cache"_s,
          E::Gemini,
          u"cache-below-minimum"_s,
          { u"/cache/explicit"_s } },
        { "Anthropic ignores the OpenAI and Gemini fields",
          u"cache"_s,
          E::Anthropic,
          u"cache-ignored"_s,
          { u"/cache/key"_s, u"/cache/retention"_s, u"/cache/explicit"_s } },
        { "OpenAI ignores breakpoints, ttl and explicit",
          u"cache"_s,
          E::OpenAI,
          u"cache-ignored"_s,
          { u"/cache/breakpoints"_s, u"/cache/ttl"_s, u"/cache/explicit"_s } },
        { "Gemini ignores breakpoints and the key",
          u"cache"_s,
          E::Gemini,
          u"cache-ignored"_s,
          { u"/cache/breakpoints"_s, u"/cache/key"_s } },
        { "OpenAI key length", u"cache"_s, E::OpenAI, u"cache-key-length"_s, { u"/cache/key"_s } },
        { "key length is OpenAI's", u"cache"_s, E::Anthropic, u"cache-key-length"_s, {} },
    };
}

std::optional<Spec> loadLintSpec(const QString &name, QString *error)
{
    const SpecLoadResult result =
        loadSpecFile(Test::testDataPath(u"spec/lint/"_s + name + u".spec.json"_s));
    if (!result.ok()) {
        for (const SpecError &e : result.errors)
            *error += e.toString() + u'\n';
        return std::nullopt;
    }
    return result.spec;
}

QStringList describe(const QList<LintFinding> &findings)
{
    QStringList out;
    for (const LintFinding &f : findings)
        out.append(f.rule + u' ' + f.pointer + u": "_s + f.message);
    return out;
}

} // namespace

class TestLint final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanSpecHasNoFindings_data();
    void cleanSpecHasNoFindings();
    void rules_data();
    void rules();
    void everyRuleIsTested();
    void messages_data();
    void messages();
    void severities();
    void defaultTargetIsSpecEngine();
    void samplesAreClean();
    void checkSpecGivesLoadErrorsOrLint();
    void checkSpecReadsEachSchemaInItsDialect();
    void providerLimits_data();
    void providerLimits();
    void olderDraftSentIn202012Words();
};

void TestLint::cleanSpecHasNoFindings_data()
{
    QTest::addColumn<EngineType>("engine");
    for (const QString &name : engineTypeNames())
        QTest::newRow(qPrintable(name)) << *engineTypeFromName(name);
}

void TestLint::cleanSpecHasNoFindings()
{
    QFETCH(EngineType, engine);
    QString error;
    const auto spec = loadLintSpec(u"clean"_s, &error);
    QVERIFY2(spec, qPrintable(error));
    const QList<LintFinding> findings = lintSpec(*spec, engine);
    QVERIFY2(findings.isEmpty(), qPrintable(describe(findings).join(u'\n')));
}

void TestLint::rules_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<EngineType>("engine");
    QTest::addColumn<QString>("rule");
    QTest::addColumn<QStringList>("pointers");
    for (const RuleCase &c : ruleCases())
        QTest::newRow(c.name) << c.file << c.engine << c.rule << c.pointers;
}

void TestLint::rules()
{
    QFETCH(QString, file);
    QFETCH(EngineType, engine);
    QFETCH(QString, rule);
    QFETCH(QStringList, pointers);
    QString error;
    const auto spec = loadLintSpec(file, &error);
    QVERIFY2(spec, qPrintable(error));
    const QList<LintFinding> findings = lintSpec(*spec, engine);
    QStringList got;
    for (const LintFinding &f : findings) {
        QVERIFY2(!f.message.isEmpty() && !f.rule.isEmpty(), qPrintable(f.pointer));
        if (f.rule == rule)
            got.append(f.pointer);
    }
    QCOMPARE(got, pointers);
}

void TestLint::everyRuleIsTested()
{
    QSet<QString> broken;
    for (const RuleCase &c : ruleCases()) {
        if (!c.pointers.isEmpty())
            broken.insert(c.rule);
    }
    for (const LintRule &rule : lintRules())
        QVERIFY2(broken.contains(rule.id), qPrintable(u"no spec breaks rule "_s + rule.id));
    QCOMPARE(lintRules().size(), 42);
}

void TestLint::messages_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<EngineType>("engine");
    QTest::addColumn<QString>("pointer");
    QTest::addColumn<QString>("message");
    QTest::newRow("typo gets the nearest name")
        << u"unknown-fields"_s << EngineType::OpenAI << u"/max_turn"_s
        << u"unknown field \"max_turn\" has no effect; did you mean \"max_turns\"?"_s;
    QTest::newRow("typo in the engine")
        << u"unknown-fields"_s << EngineType::OpenAI << u"/engine/modle"_s
        << u"unknown field \"modle\" has no effect; did you mean \"model\"?"_s;
    QTest::newRow("no near name")
        << u"unknown-fields"_s << EngineType::OpenAI << u"/notes_for_me"_s
        << u"unknown field \"notes_for_me\": it is kept in the file but has no effect"_s;
    QTest::newRow("snake case")
        << u"names"_s << EngineType::OpenAI << u"/tools/0/name"_s
        << u"tool name \"getTicket\" is not snake_case; use lowercase words "
           "joined by \"_\", verb first (for example get_ticket)"_s;
    QTest::newRow("verb noun")
        << u"names"_s << EngineType::Anthropic << u"/tools/1/name"_s
        << u"tool name \"search\" is a single word; name it verb_noun (for "
           "example search_items or get_search) so the model can tell what it does"_s;
    QTest::newRow("provider rule")
        << u"names"_s << EngineType::Anthropic << u"/tools/2/name"_s
        << u"tool name \"lookup.user\" breaks the Anthropic rule for function names "
           "(^[a-zA-Z0-9_-]{1,128}$); the request will be rejected"_s;
    QTest::newRow("closed set") << u"closed-set"_s << EngineType::OpenAI
                                << u"/tools/0/input_schema/properties/priority"_s
                                << u"the description lists a closed set (low, medium, high); put "
                                   "the values in \"enum\" so the model cannot invent others"_s;
    QTest::newRow("quoted closed set")
        << u"closed-set"_s << EngineType::Gemini << u"/tools/0/input_schema/properties/size"_s
        << u"the description lists a closed set (S, M, L); put the "
           "values in \"enum\" so the model cannot invent others"_s;
    QTest::newRow("tool count")
        << u"tool-count-70"_s << EngineType::Anthropic << u"/tools"_s
        << u"70 tools (counting submit_output) exceed the Anthropic limit "
           "of 64 tools per request; expose only the tools this call needs"_s;
    QTest::newRow("strict required")
        << u"strict"_s << EngineType::OpenAI << u"/response_schema/properties/body"_s
        << u"property \"body\" is not in \"required\"; OpenAI strict "
           "mode needs every property there (make it optional with "
           "\"type\": [\"string\", \"null\"])"_s;
    QTest::newRow("root array")
        << u"strict"_s << EngineType::Anthropic << u"/tools/1/input_schema"_s
        << u"the root has \"type\" \"array\"; tool arguments must be an object"_s;
    QTest::newRow("root union")
        << u"strict"_s << EngineType::Anthropic << u"/tools/2/input_schema"_s
        << u"the root is a union (anyOf/oneOf); tool arguments must be one "
           "object with \"type\": \"object\" (wrap the union in a property)"_s;
    QTest::newRow("description length")
        << u"descriptions"_s << EngineType::OpenAI << u"/tools/1/description"_s
        << u"description is 1125 characters; providers cut tool "
           "descriptions after 1024"_s;
    QTest::newRow("gemini recursion")
        << u"gemini"_s << EngineType::Gemini
        << u"/response_schema/$defs/node/properties/children/items/$ref"_s
        << u"recursive \"$ref\" to \"#/$defs/node\"; Gemini refuses recursive schemas (unroll it "
           "to a fixed depth)"_s;
    QTest::newRow("strict size") << u"strict-size"_s << EngineType::OpenAI << u"/response_schema"_s
                                 << u"1001 enum values exceed OpenAI's strict-mode limit of 1000"_s;
}

void TestLint::messages()
{
    QFETCH(QString, file);
    QFETCH(EngineType, engine);
    QFETCH(QString, pointer);
    QFETCH(QString, message);
    QString error;
    const auto spec = loadLintSpec(file, &error);
    QVERIFY2(spec, qPrintable(error));
    QStringList atPointer;
    for (const LintFinding &f : lintSpec(*spec, engine)) {
        if (f.pointer == pointer)
            atPointer.append(f.message);
    }
    QVERIFY2(atPointer.contains(message), qPrintable(atPointer.join(u'\n')));
}

void TestLint::severities()
{
    QString error;
    const auto spec = loadLintSpec(u"names"_s, &error);
    QVERIFY2(spec, qPrintable(error));
    for (const LintFinding &f : lintSpec(*spec, EngineType::OpenAI)) {
        const LintSeverity expected =
            f.rule == u"tool-name-verb-noun" ? LintSeverity::Info : LintSeverity::Warning;
        QCOMPARE(f.severity, expected);
    }
    QCOMPARE(lintSeverityName(LintSeverity::Warning), u"warning"_s);
    QCOMPARE(lintSeverityName(LintSeverity::Info), u"info"_s);

    const auto deep = loadLintSpec(u"strict"_s, &error);
    QVERIFY2(deep, qPrintable(error));
    QList<LintSeverity> depth;
    for (const LintFinding &f : lintSpec(*deep, EngineType::OpenAI)) {
        if (f.rule == u"strict-depth")
            depth.append(f.severity);
    }
    // Past the old 5-level limit: a note; past the current 10 levels: a warning.
    QCOMPARE(depth, (QList<LintSeverity> { LintSeverity::Info, LintSeverity::Warning }));
}

void TestLint::defaultTargetIsSpecEngine()
{
    QString error;
    const auto spec = loadLintSpec(u"anthropic"_s, &error);
    QVERIFY2(spec, qPrintable(error));
    QCOMPARE(spec->engine.type, EngineType::Anthropic);
    QCOMPARE(lintSpec(*spec), lintSpec(*spec, EngineType::Anthropic));
    QVERIFY(lintSpec(*spec) != lintSpec(*spec, EngineType::OpenAI));
}

void TestLint::samplesAreClean()
{
    // The bundled samples are what a newcomer sees first: no findings on any engine.
    for (const QString &name : { u"lunar-landing"_s, u"planner"_s, u"refusal"_s }) {
        const SpecLoadResult result =
            loadSpecFile(u":/callscope/samples/"_s + name + u".spec.json"_s);
        QVERIFY2(result.ok(), qPrintable(name));
        for (const QString &engine : engineTypeNames()) {
            const QList<LintFinding> findings = lintSpec(*result.spec, *engineTypeFromName(engine));
            QVERIFY2(
                findings.isEmpty(),
                qPrintable(name + u" on "_s + engine + u":\n"_s + describe(findings).join(u'\n')));
        }
    }
}

int runLintTests(int argc, char **argv)
{
    TestLint test;
    return QTest::qExec(&test, argc, argv);
}

// checkSpec: what the studio's findings list and `callscope-cli lint` both show for a text.
// The response schema (no $schema, a draft-04 tuple) is not valid 2020-12: the error says where,
// and the older-draft findings stay beside it with the rewrite. The tool's schema names
// draft-07, so its tuple is checked against the draft-07 meta-schema and is fine.
void TestLint::checkSpecReadsEachSchemaInItsDialect()
{
    const QString path = Test::testDataPath(u"spec/lint/draft-forms.spec.json"_s);
    const SpecCheck check = checkSpec(Test::readFile(path), path, EngineType::OpenAI);
    QVERIFY(check.ok());
    QVERIFY(!check.runnable());
    QStringList errorPointers;
    for (const SpecSchemaError &e : check.schemaErrors)
        errorPointers.append(e.pointer);
    QVERIFY2(errorPointers.contains(u"/response_schema/properties/point/items"_s),
             qPrintable(errorPointers.join(u' ')));
    for (const QString &pointer : std::as_const(errorPointers))
        QVERIFY2(pointer.startsWith(u"/response_schema"_s), qPrintable(pointer));
    QStringList draftForms;
    for (const LintFinding &f : check.findings) {
        if (f.rule == u"schema-draft-form")
            draftForms.append(f.pointer);
        // Other advice about the broken schema is still held back.
        if (f.pointer.startsWith(u"/response_schema"_s))
            QCOMPARE(f.rule, u"schema-draft-form"_s);
    }
    QCOMPARE(draftForms.size(), 3);
    const auto tuple =
        std::find_if(check.findings.cbegin(), check.findings.cend(), [](const LintFinding &f) {
            return f.pointer == u"/response_schema/properties/point/items"_s;
        });
    QVERIFY(tuple != check.findings.cend());
    QCOMPARE(tuple->severity, LintSeverity::Warning);
    QVERIFY2(tuple->message.contains(u"\"prefixItems\": [...]"_s)
                 && tuple->message.contains(u"additionalItems"_s),
             qPrintable(tuple->message));
}

void TestLint::providerLimits_data()
{
    QTest::addColumn<QString>("path");
    const QDir dir(Test::testDataPath(u"schema/limits"_s));
    const QStringList files = dir.entryList({ u"*.json"_s }, QDir::Files, QDir::Name);
    QVERIFY(files.size() >= 12);
    for (const QString &file : files)
        QTest::newRow(qPrintable(file)) << dir.filePath(file);
}

// One schema per documented provider limit (tests/data/schema/limits, written by make_limits.py),
// as the response schema of a spec. Lint names the limit with its pointers for each engine it
// applies to and says nothing of it for the others. For every engine, the schema sent is valid
// JSON Schema, never refuses an answer the original accepts (unless it made optional properties
// nullable, where a null stands for absent), and the answer checked here against the original
// schema keeps the original verdict.
void TestLint::providerLimits()
{
    QFETCH(QString, path);
    const QJsonObject limit = QJsonDocument::fromJson(Test::readFile(path)).object();
    QVERIFY2(!limit.isEmpty(), qPrintable(path));
    const QJsonObject schema = limit.value("schema"_L1).toObject();
    const QString rule = limit.value("rule"_L1).toString();
    QStringList expected;
    for (const QJsonValue &p : limit.value("pointers"_L1).toArray())
        expected.append(u"/response_schema"_s + p.toString());
    QSet<QString> engines;
    for (const QJsonValue &e : limit.value("engines"_L1).toArray())
        engines.insert(e.toString());
    const QList<LintRule> rules = lintRules();
    QVERIFY(
        std::any_of(rules.cbegin(), rules.cend(), [&](const LintRule &r) { return r.id == rule; }));

    const QJsonObject specJson { { u"system_prompt"_s, u"Answer."_s },
                                 { u"response_schema"_s, schema } };
    const SpecLoadResult loaded = loadSpec(QJsonDocument(specJson).toJson(), QString());
    QVERIFY(loaded.ok());
    const CompiledSchema original = SchemaCompiler().compile(schema);
    QVERIFY2(original.isValid(), qPrintable(original.errorString()));
    for (const QString &name : engineTypeNames()) {
        const EngineType engine = *engineTypeFromName(name);
        QStringList got;
        for (const LintFinding &f : lintSpec(*loaded.spec, engine)) {
            if (f.rule == rule)
                got.append(f.pointer);
        }
        if (engines.contains(name))
            QVERIFY2(got == expected, qPrintable(name + u": "_s + got.join(u' ')));
        else
            QVERIFY2(got.isEmpty(), qPrintable(name + u" should stay silent: "_s + got.join(u' ')));

        const EngineSchema sent = schemaForEngine(schema, engine);
        const CompiledSchema sentCompiled = SchemaCompiler().compile(sent.schema);
        QVERIFY2(sentCompiled.isValid(), qPrintable(name + u": "_s + sentCompiled.errorString()));
        int sentAccepts = 0;
        for (const bool validSet : { true, false }) {
            const QJsonArray instances =
                limit.value(validSet ? "valid"_L1 : "invalid"_L1).toArray();
            QVERIFY(!instances.isEmpty());
            for (const QJsonValue &instance : instances) {
                QCOMPARE(original.accepts(instance), validSet);
                QCOMPARE(original.accepts(normalizeNativeOutput(instance, sent)), validSet);
                if (validSet && sentCompiled.accepts(instance))
                    ++sentAccepts;
                else if (validSet)
                    qInfo().noquote() << name << "is sent a stricter schema that refuses"
                                      << QJsonDocument(QJsonArray { instance })
                                             .toJson(QJsonDocument::Compact)
                                             .left(120);
            }
        }
        // A model that keeps to the schema sent can still give an answer the original accepts
        // (where optional properties became nullable, a null stands for absent).
        if (sent.nullableOptional.isEmpty())
            QVERIFY2(sentAccepts > 0,
                     qPrintable(name + u": the schema sent refuses every valid answer"_s));
    }
}

// A response schema that says it is draft-04 goes to the providers in 2020-12 words (a draft-04
// tuple or boolean bound would be misread there); the answer is still checked against the
// original, read as draft-04.
void TestLint::olderDraftSentIn202012Words()
{
    const QJsonObject schema = QJsonDocument::fromJson(R"({
        "$schema": "http://json-schema.org/draft-04/schema#",
        "type": "object",
        "properties": {
            "point": {"type": "array", "items": [{"type": "number"}, {"type": "number"}], "additionalItems": false},
            "share": {"type": "number", "minimum": 0, "exclusiveMinimum": true},
            "owner": {"$ref": "#/definitions/person"}
        },
        "required": ["point", "share", "owner"],
        "additionalProperties": false,
        "definitions": {"person": {"type": "string"}}
    })")
                                   .object();
    QVERIFY(!schema.isEmpty());
    const CompiledSchema original = SchemaCompiler().compile(schema);
    QVERIFY2(original.isValid(), qPrintable(original.errorString()));
    const QJsonValue good =
        QJsonDocument::fromJson(R"({"point": [1, 2], "share": 0.5, "owner": "ann"})").object();
    const QJsonValue zeroShare =
        QJsonDocument::fromJson(R"({"point": [1, 2], "share": 0, "owner": "ann"})").object();
    const QJsonValue longPoint =
        QJsonDocument::fromJson(R"({"point": [1, 2, 3], "share": 1, "owner": "ann"})").object();
    QVERIFY(original.accepts(good));
    QVERIFY(!original.accepts(zeroShare));
    QVERIFY(!original.accepts(longPoint));
    for (const EngineType engine : { EngineType::OpenAI, EngineType::OpenAIResponses,
                                     EngineType::Anthropic, EngineType::Gemini }) {
        const QString name = engineTypeName(engine);
        const EngineSchema sent = schemaForEngine(schema, engine);
        QStringList rewritten;
        for (const SchemaChange &c : sent.changes) {
            if (c.rule == u"dialect-rewritten"_s) {
                QVERIFY(c.enforced);
                rewritten.append(c.pointer);
            }
        }
        QVERIFY2(rewritten.contains(u"/properties/point/items"_s)
                     && rewritten.contains(u"/definitions"_s)
                     && rewritten.contains(u"/properties/share/exclusiveMinimum"_s),
                 qPrintable(name + u": "_s + rewritten.join(u' ')));
        const QByteArray text = QJsonDocument(sent.schema).toJson(QJsonDocument::Compact);
        QVERIFY2(!text.contains("\"definitions\"") && !text.contains("draft-04")
                     && !text.contains("\"exclusiveMinimum\":true"),
                 text.constData());
        // What is sent reads as 2020-12, and an answer the provider keeps to is judged by the
        // original.
        QVERIFY2(validateSchema(sent.schema).isEmpty(), qPrintable(name));
        QVERIFY2(SchemaCompiler().compile(sent.schema).accepts(good), qPrintable(name));
        // OpenAI and Anthropic take no tuple: its positions go into one "items" schema.
        const bool tupleTaken = engine == EngineType::Gemini;
        QCOMPARE(std::any_of(sent.changes.cbegin(), sent.changes.cend(),
                             [](const SchemaChange &c) { return c.rule == u"tuple-to-items"_s; }),
                 !tupleTaken);
        for (const QJsonValue &answer : { good, zeroShare, longPoint })
            QCOMPARE(original.accepts(normalizeNativeOutput(answer, sent)),
                     original.accepts(answer));
    }
    for (const EngineType engine : { EngineType::OpenAICompatible, EngineType::Replay })
        QVERIFY(schemaForEngine(schema, engine).unchanged());
}

void TestLint::checkSpecGivesLoadErrorsOrLint()
{
    const QString path = Test::testDataPath(u"spec/lint/names.spec.json"_s);
    const QByteArray bytes = Test::readFile(path);
    QVERIFY(!bytes.isEmpty());
    const SpecCheck own = checkSpec(bytes, path);
    QVERIFY(own.ok());
    QVERIFY(own.errors.isEmpty());
    QCOMPARE(own.syntaxErrorPosition, qsizetype(-1));
    QCOMPARE(own.target, own.spec->engine.type);
    QCOMPARE(own.findings, lintSpec(*own.spec));
    QVERIFY(!own.findings.isEmpty());
    QCOMPARE(own.spec->sourcePath, path);
    // Another target lints for that engine.
    const SpecCheck gemini = checkSpec(bytes, path, EngineType::Gemini);
    QCOMPARE(gemini.target, EngineType::Gemini);
    QCOMPARE(gemini.findings, lintSpec(*gemini.spec, EngineType::Gemini));
    QVERIFY(gemini.findings != own.findings);

    // Not JSON: the load error, where it is (in characters, past a non-ASCII one), no lint.
    const QByteArray broken = "{\"kind\": \"\xc3\xa9t\xc3\xa9\",\n \"max_turns\": }";
    const SpecCheck syntax = checkSpec(broken);
    QVERIFY(!syntax.ok());
    QCOMPARE(syntax.errors.size(), 1);
    QVERIFY2(syntax.errors.first().message.startsWith(u"line 2, column"_s),
             qPrintable(syntax.errors.first().message));
    // (The parser stops just past the token it could not take; counted in characters, so the
    // two-byte "é"s count once each.)
    QCOMPARE(syntax.syntaxErrorPosition, qsizetype(QString::fromUtf8(broken).indexOf(u'}') + 1));
    QVERIFY(syntax.findings.isEmpty());

    // JSON, but not a spec: every load error, no syntax position, no lint.
    const SpecCheck wrong = checkSpec("{\"kind\": 3, \"max_turns\": \"x\"}");
    QVERIFY(!wrong.ok());
    QCOMPARE(wrong.errors, loadSpec("{\"kind\": 3, \"max_turns\": \"x\"}").errors);
    QVERIFY(wrong.errors.size() >= 2);
    QCOMPARE(wrong.syntaxErrorPosition, qsizetype(-1));
    QVERIFY(wrong.findings.isEmpty());
}

#include "tst_lint.moc"
