#include "core/schema/lint.h"

#include "core/model/jsonpointer.h"
#include "core/model/specio.h"
#include "core/model/trustpolicy.h"
#include "core/schema/cachelint.h"
#include "core/schema/engineschema.h"
#include "core/schema/schemadialect.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Callscope::Lint)
};

QString quoted(const QString &text)
{
    return u'"' + text + u'"';
}

constexpr qsizetype kMaxDescription = 1024;
constexpr qint64 kMaxArgumentString = 8192;
constexpr int kOpenAiMaxTools = 128;
constexpr int kAnthropicMaxTools = 64;
constexpr int kStrictMaxLevels = 10; // current OpenAI docs
constexpr int kStrictOldMaxLevels = 5; // early OpenAI docs and the seed notes
constexpr int kStrictMaxProperties = 5000;
constexpr int kStrictMaxEnumValues = 1000;
constexpr qsizetype kStrictMaxNameChars = 120000;

bool isStrictTarget(EngineType t)
{
    return t == EngineType::OpenAI || t == EngineType::OpenAIResponses;
}

QString providerLabel(EngineType t)
{
    switch (t) {
    case EngineType::OpenAI:
    case EngineType::OpenAIResponses:
        return Tr::tr("OpenAI");
    case EngineType::Anthropic:
        return Tr::tr("Anthropic");
    case EngineType::Gemini:
        return Tr::tr("Gemini");
    case EngineType::OpenAICompatible:
        return Tr::tr("OpenAI-compatible servers");
    case EngineType::Replay:
        return Tr::tr("replay");
    }
    return {};
}

// The function-name rule of each provider; empty when there is none.
QString nameRule(EngineType t)
{
    switch (t) {
    case EngineType::OpenAI:
    case EngineType::OpenAIResponses:
    case EngineType::OpenAICompatible:
        return u"^[a-zA-Z0-9_-]{1,64}$"_s;
    case EngineType::Anthropic:
        return u"^[a-zA-Z0-9_-]{1,128}$"_s;
    case EngineType::Gemini:
        return u"^[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}$"_s;
    case EngineType::Replay:
        break;
    }
    return {};
}

// Why `model` on `t` cannot do native structured output, or empty when it can (or when we
// cannot tell). Model families from the providers' structured-output documentation.
QString nativeUnsupportedReason(EngineType t, const QString &model)
{
    const QString m = model.toLower();
    switch (t) {
    case EngineType::OpenAI:
    case EngineType::OpenAIResponses:
        if (m.startsWith(u"gpt-3.5") || m == u"gpt-4" || m.startsWith(u"gpt-4-")
            || m == u"gpt-4o-2024-05-13" || m.startsWith(u"o1-mini") || m.startsWith(u"o1-preview"))
            return Tr::tr("%1 has no json_schema structured output (it needs gpt-4o-2024-08-06 or "
                          "newer)")
                .arg(quoted(model));
        break;
    case EngineType::Anthropic:
        if (m.startsWith(u"claude-2") || m.startsWith(u"claude-instant")
            || m.startsWith(u"claude-3"))
            return Tr::tr("%1 has no structured output (output_config.format needs a Claude 4 "
                          "model)")
                .arg(quoted(model));
        break;
    case EngineType::Gemini:
        if (m.startsWith(u"gemini-1.0") || m == u"gemini-pro" || m.startsWith(u"gemini-pro-vision"))
            return Tr::tr("%1 has no JSON-schema output (responseJsonSchema needs Gemini 1.5 or "
                          "newer)")
                .arg(quoted(model));
        break;
    case EngineType::OpenAICompatible:
    case EngineType::Replay:
        break;
    }
    return {};
}

bool hasType(const QJsonObject &schema, QStringView type)
{
    const QJsonValue t = schema.value("type"_L1);
    if (t.isString())
        return t.toString() == type;
    if (t.isArray()) {
        for (const QJsonValue &v : t.toArray()) {
            if (v.toString() == type)
                return true;
        }
    }
    return false;
}

bool isObjectSchema(const QJsonObject &schema)
{
    return hasType(schema, u"object") || schema.contains("properties"_L1);
}

// Calls `visit(schema, pointer, level)` for the schema and every subschema in it. `level`
// counts the object schemas from the root down to and including this one.
template<typename Visit>
void forEachSchema(const QJsonValue &value, const QString &pointer, int parentLevel, Visit &&visit)
{
    if (!value.isObject())
        return;
    const QJsonObject schema = value.toObject();
    const int level = parentLevel + (isObjectSchema(schema) ? 1 : 0);
    visit(schema, pointer, level);

    static const QStringList maps = { u"properties"_s, u"patternProperties"_s, u"$defs"_s,
                                      u"definitions"_s, u"dependentSchemas"_s };
    static const QStringList single = { u"items"_s,
                                        u"additionalProperties"_s,
                                        u"additionalItems"_s,
                                        u"not"_s,
                                        u"if"_s,
                                        u"then"_s,
                                        u"else"_s,
                                        u"contains"_s,
                                        u"propertyNames"_s,
                                        u"unevaluatedItems"_s,
                                        u"unevaluatedProperties"_s };
    static const QStringList lists = { u"anyOf"_s, u"oneOf"_s, u"allOf"_s, u"prefixItems"_s };
    for (auto it = schema.constBegin(); it != schema.constEnd(); ++it) {
        const QString key = it.key();
        const QString child = JsonPointer::append(pointer, key);
        if (maps.contains(key) && it->isObject()) {
            const QJsonObject map = it->toObject();
            for (auto m = map.constBegin(); m != map.constEnd(); ++m)
                forEachSchema(m.value(), JsonPointer::append(child, m.key()), level, visit);
        } else if (single.contains(key)) {
            if (it->isArray() && key == u"items") { // draft 4 tuple form
                const QJsonArray items = it->toArray();
                for (qsizetype i = 0; i < items.size(); ++i)
                    forEachSchema(items.at(i), JsonPointer::append(child, i), level, visit);
            } else {
                forEachSchema(it.value(), child, level, visit);
            }
        } else if (lists.contains(key) && it->isArray()) {
            const QJsonArray items = it->toArray();
            for (qsizetype i = 0; i < items.size(); ++i)
                forEachSchema(items.at(i), JsonPointer::append(child, i), level, visit);
        }
    }
}

// The option list of a description that names a closed set, or empty. Recognised forms:
// "one of: draft, sent or paid", "either open or closed", "draft|sent|paid",
// and a quoted list '"low", "medium" or "high"'.
QStringList closedSetOptions(const QString &description)
{
    auto cleanItems = [](const QStringList &raw) {
        QStringList items;
        for (QString item : raw) {
            item = item.trimmed();
            while (!item.isEmpty() && QStringView(u"\"'`").contains(item.front()))
                item.remove(0, 1);
            while (!item.isEmpty() && QStringView(u"\"'`").contains(item.back()))
                item.chop(1);
            item = item.trimmed();
            if (item.isEmpty())
                continue;
            if (item.split(u' ', Qt::SkipEmptyParts).size() > 3)
                return QStringList(); // prose, not a list of values
            items.append(item);
        }
        return items.size() >= 2 ? items : QStringList();
    };
    static const QRegularExpression separators(u"\\s*(?:,|\\bor\\b|\\|)\\s*"_s);

    static const QRegularExpression oneOf(u"\\bone of(?: the following)?\\s*:?\\s*([^.;()\\n]+)"_s,
                                          QRegularExpression::CaseInsensitiveOption);
    if (const auto m = oneOf.match(description); m.hasMatch()) {
        const QStringList items = cleanItems(m.captured(1).split(separators, Qt::SkipEmptyParts));
        if (!items.isEmpty())
            return items;
    }
    static const QRegularExpression either(
        u"\\beither\\s+([\"'`]?[\\w-]+[\"'`]?)\\s+or\\s+([\"'`]?[\\w-]+[\"'`]?)"_s,
        QRegularExpression::CaseInsensitiveOption);
    if (const auto m = either.match(description); m.hasMatch())
        return cleanItems({ m.captured(1), m.captured(2) });
    static const QRegularExpression piped(u"(?<![\\w|-])[\\w-]+(?:\\s*\\|\\s*[\\w-]+)+"_s);
    if (const auto m = piped.match(description); m.hasMatch())
        return cleanItems(m.captured(0).split(u'|'));
    static const QRegularExpression quotedList(
        u"([\"'`][^\"'`]+[\"'`](?:\\s*,\\s*[\"'`][^\"'`]+[\"'`])*,?\\s+or\\s+[\"'`][^\"'`]+[\"'`])"_s);
    if (const auto m = quotedList.match(description); m.hasMatch())
        return cleanItems(m.captured(1).split(separators, Qt::SkipEmptyParts));
    return {};
}

class Linter
{
public:
    Linter(const Spec &spec, EngineType target, const ProfileLookup &profiles)
        : m_spec(spec)
        , m_target(target)
        , m_profiles(profiles)
    { }

    QList<LintFinding> run()
    {
        lintUnknownFields();
        lintKeys();
        lintRemoteMcpServers();
        lintOutputParser();
        lintOutputMode();
        lintStopEarly();
        if (m_spec.responseSchema)
            lintSchema(*m_spec.responseSchema, u"/response_schema"_s, true);
        lintToolCount();
        for (qsizetype i = 0; i < m_spec.tools.size(); ++i)
            lintTool(m_spec.tools.at(i), JsonPointer::append(u"/tools"_s, i));
        m_findings += lintCache(m_spec, m_target);
        return m_findings;
    }

private:
    void add(LintSeverity severity, const QString &pointer, const QString &rule,
             const QString &message)
    {
        m_findings.append({ severity, pointer, message, rule });
    }
    void warn(const QString &pointer, const QString &rule, const QString &message)
    {
        add(LintSeverity::Warning, pointer, rule, message);
    }
    void info(const QString &pointer, const QString &rule, const QString &message)
    {
        add(LintSeverity::Info, pointer, rule, message);
    }

    // Where keys go: a profile's key only to that profile's address and type; a variable that
    // is not a provider key only when the user allowed it or trusts the file.
    void lintKeys()
    {
        const EngineSpec &engine = m_spec.engine;
        if (!engine.profile.isEmpty() && (!engine.baseUrl.isEmpty() || !engine.typeFromProfile)) {
            const QString where =
                engine.baseUrl.isEmpty() ? u"/engine/type"_s : u"/engine/base_url"_s;
            const std::optional<KnownProfile> profile =
                m_profiles ? m_profiles(engine.profile) : std::nullopt;
            if (profile) {
                if (auto problem =
                        keyRedirectProblem(engine, engine.profile, profile->type, profile->baseUrl))
                    warn(where, u"key-profile-redirect"_s,
                         Tr::tr("the run is refused: %1").arg(*problem));
            } else {
                // No such profile here (yet): whoever has one of that name would have its key
                // checked against this address when the spec runs.
                warn(where, u"key-profile-redirect"_s,
                     Tr::tr(
                         "the engine block names the profile \"%1\" and its own %2: the profile's "
                         "key goes only to "
                         "the profile's own address and engine type, so the run is refused unless "
                         "they match")
                         .arg(engine.profile,
                              engine.baseUrl.isEmpty() ? Tr::tr("type") : Tr::tr("base_url")));
            }
        }
        for (const RunItem &item : specRunItems(m_spec)) {
            if (item.kind != RunItem::Kind::KeyVariable)
                continue;
            warn(
                item.pointer, u"key-env-not-allowed"_s,
                Tr::tr(
                    "%1 is not a provider key variable (those end in _API_KEY): the run is refused "
                    "unless the "
                    "variable is allowed (the setting keys/allowed_env, --allow-key-env %1) or the "
                    "file is trusted")
                    .arg(item.name));
        }
    }

    // A remote MCP server over plain http on another machine: its sign-in and tools travel in the
    // clear. The loopback is fine.
    void lintRemoteMcpServers()
    {
        for (auto it = m_spec.mcpServers.constBegin(); it != m_spec.mcpServers.constEnd(); ++it) {
            if (!it->isRemote())
                continue;
            const QUrl url(it->url);
            const QString host = url.host().toLower();
            const bool loopback =
                host == u"localhost" || host == u"::1" || host.startsWith(u"127.");
            if (url.scheme() == u"http" && !loopback)
                warn(JsonPointer::append(JsonPointer::append(u"/mcp_servers"_s, it.key()), u"url"),
                     u"mcp-insecure-url"_s,
                     Tr::tr(
                         "the MCP server \"%1\" is reached over plain http: tokens and tool calls "
                         "travel "
                         "unencrypted; use https")
                         .arg(it.key()));
        }
    }

    // A field the format does not know is kept on save but does nothing: most often a typo,
    // so the nearest known name is offered.
    void lintUnknownFields()
    {
        auto check = [this](const QJsonObject &unknown, const QString &base, SpecSection section) {
            const QStringList known = knownSpecFields(section);
            for (auto it = unknown.begin(); it != unknown.end(); ++it) {
                const QString pointer = JsonPointer::append(base, it.key());
                const QString nearest = nearestName(it.key(), known);
                if (nearest.isEmpty())
                    warn(pointer, u"unknown-field"_s,
                         Tr::tr("unknown field \"%1\": it is kept in the file but has no effect")
                             .arg(it.key()));
                else
                    warn(pointer, u"unknown-field"_s,
                         Tr::tr("unknown field \"%1\" has no effect; did you mean \"%2\"?")
                             .arg(it.key(), nearest));
            }
        };
        check(m_spec.unknownFields, QString(), SpecSection::Root);
        check(m_spec.engine.unknownFields, u"/engine"_s, SpecSection::Engine);
        check(m_spec.retry.unknownFields, u"/retry"_s, SpecSection::Retry);
        check(m_spec.context.unknownFields, u"/context"_s, SpecSection::Context);
        for (qsizetype i = 0; i < m_spec.tools.size(); ++i)
            check(m_spec.tools.at(i).unknownFields, JsonPointer::append(u"/tools"_s, i),
                  SpecSection::Tool);
        for (auto it = m_spec.mcpServers.constBegin(); it != m_spec.mcpServers.constEnd(); ++it)
            check(it->unknownFields, JsonPointer::append(u"/mcp_servers"_s, it.key()),
                  SpecSection::McpServer);
    }

    // The known name closest to `name` by edit distance, when it is close enough to be a typo.
    static QString nearestName(const QString &name, const QStringList &known)
    {
        QString best;
        int bestDistance = std::max(2, int(name.size()) / 3) + 1;
        for (const QString &candidate : known) {
            const QString a = name.toLower();
            const QString &b = candidate;
            QList<int> row(b.size() + 1);
            for (qsizetype j = 0; j <= b.size(); ++j)
                row[j] = int(j);
            for (qsizetype i = 1; i <= a.size(); ++i) {
                int diagonal = row[0];
                row[0] = int(i);
                for (qsizetype j = 1; j <= b.size(); ++j) {
                    const int up = row[j];
                    row[j] = std::min(
                        { row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1) });
                    diagonal = up;
                }
            }
            if (row[b.size()] < bestDistance) {
                bestDistance = row[b.size()];
                best = candidate;
            }
        }
        return best;
    }

    void lintOutputParser()
    {
        if (m_spec.responseSchema && m_spec.outputParser != u"json") {
            info(u"/output_parser"_s, u"output-parser-ignored"_s,
                 Tr::tr("output_parser is ignored when a response_schema is set: the output comes "
                        "from submit_output"));
        }
    }

    void lintStopEarly()
    {
        if (!m_spec.stopEarly)
            return;
        if (!m_spec.responseSchema) {
            info(u"/stop_early"_s, u"stop-early-ignored"_s,
                 Tr::tr("stop_early needs a response_schema: without one there is nothing to "
                        "check the answer against while it streams"));
        } else if (m_spec.outputMode == OutputMode::Prompted) {
            info(u"/stop_early"_s, u"stop-early-ignored"_s,
                 Tr::tr("stop_early does not apply in prompted mode: the reply text may hold "
                        "words around the JSON, so it is checked only once it is complete"));
        } else if (!m_spec.engine.stream) {
            info(u"/stop_early"_s, u"stop-early-ignored"_s,
                 Tr::tr("stop_early needs a streamed reply: engine.stream is false"));
        }
    }

    bool nativeMode() const
    {
        return m_spec.responseSchema && m_spec.outputMode == OutputMode::Native;
    }

    void lintOutputMode()
    {
        if (m_spec.outputMode == OutputMode::Tool)
            return;
        if (!m_spec.responseSchema) {
            info(u"/output_mode"_s, u"output-mode-ignored"_s,
                 Tr::tr("output_mode is used only with a response_schema; without one the output "
                        "parser reads the reply"));
            return;
        }
        if (!m_spec.textOutputField.isEmpty()) {
            info(
                u"/text_output"_s, u"text-output-ignored"_s,
                Tr::tr("text_output does not apply in %1 mode: the reply text itself is the output")
                    .arg(outputModeName(m_spec.outputMode)));
        }
        if (m_spec.outputMode != OutputMode::Native)
            return;
        if (m_target == EngineType::OpenAICompatible) {
            info(u"/output_mode"_s, u"native-unsupported"_s,
                 Tr::tr(
                     "native output on an OpenAI-compatible server depends on the server: Ollama, "
                     "llama.cpp and vLLM turn response_format json_schema into a grammar, others "
                     "may ignore it (the reply is validated here either way)"));
        }
        // The model only counts when the spec targets its own engine type.
        if (m_target == m_spec.engine.type) {
            if (const QString why = nativeUnsupportedReason(m_target, m_spec.engine.model);
                !why.isEmpty()) {
                warn(u"/output_mode"_s, u"native-unsupported"_s,
                     Tr::tr("native output will be rejected: %1; use output_mode tool or prompted")
                         .arg(why));
            }
        }
        const EngineSchema sent = schemaForEngine(*m_spec.responseSchema, m_target);
        for (const SchemaChange &c : sent.changes) {
            add(c.enforced ? LintSeverity::Info : LintSeverity::Warning,
                u"/response_schema"_s + c.pointer, u"native-schema-changed"_s,
                Tr::tr("sent to %1 changed: %2").arg(providerLabel(m_target), c.reason));
        }
    }

    void lintToolCount()
    {
        const qsizetype count = m_spec.tools.size()
            + (m_spec.responseSchema && m_spec.outputMode == OutputMode::Tool ? 1 : 0);
        int limit = 0;
        if (isStrictTarget(m_target))
            limit = kOpenAiMaxTools;
        else if (m_target == EngineType::Anthropic)
            limit = kAnthropicMaxTools;
        if (limit > 0 && count > limit) {
            warn(u"/tools"_s, u"tool-count"_s,
                 Tr::tr("%1 tools (counting submit_output) exceed the %2 limit of %3 tools per "
                        "request; expose only the tools this call needs")
                     .arg(count)
                     .arg(providerLabel(m_target))
                     .arg(limit));
        }
    }

    void lintTool(const ToolSpec &tool, const QString &pointer)
    {
        const QString namePointer = JsonPointer::append(pointer, u"name");
        static const QRegularExpression snake(u"^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$"_s);
        if (!snake.match(tool.name).hasMatch()) {
            warn(namePointer, u"tool-name-snake-case"_s,
                 Tr::tr("tool name %1 is not snake_case; use lowercase words joined by \"_\", verb "
                        "first (for example get_ticket)")
                     .arg(quoted(tool.name)));
        } else if (!tool.name.contains(u'_')) {
            info(namePointer, u"tool-name-verb-noun"_s,
                 Tr::tr("tool name %1 is a single word; name it verb_noun (for example %2_items or "
                        "get_%2) so the model can tell what it does")
                     .arg(quoted(tool.name), tool.name));
        }
        if (const QString rule = nameRule(m_target); !rule.isEmpty()) {
            const QRegularExpression re(rule);
            if (!re.match(tool.name).hasMatch()) {
                warn(namePointer, u"tool-name-provider"_s,
                     Tr::tr("tool name %1 breaks the %2 rule for function names (%3); the request "
                            "will be rejected")
                         .arg(quoted(tool.name), providerLabel(m_target), rule));
            }
        }
        // MCP tools may take their description from the server's tools/list.
        if (tool.description.trimmed().isEmpty() && tool.runner != ToolRunnerKind::Mcp) {
            warn(pointer, u"tool-description-missing"_s,
                 Tr::tr("tool %1 has no description; say when to use it and when not to")
                     .arg(quoted(tool.name)));
        } else if (tool.description.size() > kMaxDescription) {
            warn(JsonPointer::append(pointer, u"description"), u"tool-description-length"_s,
                 Tr::tr("description is %1 characters; providers cut tool descriptions after %2")
                     .arg(tool.description.size())
                     .arg(kMaxDescription));
        }
        if (!tool.inputSchema.isEmpty())
            lintSchema(tool.inputSchema, JsonPointer::append(pointer, u"input_schema"), false);
    }

    void lintSchema(const QJsonObject &root, const QString &base, bool isResponseSchema)
    {
        lintRoot(root, base);
        lintDraftForms(root, base);
        // In native mode the response schema is rewritten for the engine (engineschema.h): the
        // keyword rules below are what the rewrite fixes, and lintOutputMode lists its changes.
        const bool rewritten = isResponseSchema && nativeMode();
        const bool strict = isStrictTarget(m_target);
        // Anthropic's limits apply to structured output, which is where the response schema
        // goes; ordinary Anthropic tool schemas are advisory and may use any keyword.
        const bool anthropic = m_target == EngineType::Anthropic && isResponseSchema;
        const bool gemini = m_target == EngineType::Gemini;

        bool reportedOldDepth = false;
        bool reportedDepth = false;
        int propertyCount = 0;
        int enumValues = 0;
        qsizetype nameChars = 0;
        forEachSchema(
            root, base, 0, [&](const QJsonObject &schema, const QString &pointer, int level) {
                lintClosedSet(schema, pointer);
                if (m_target == EngineType::OpenAI || m_target == EngineType::OpenAIResponses)
                    lintArgumentSize(schema, pointer);
                if (strict) {
                    if (!rewritten)
                        lintStrict(schema, pointer);
                    if (level > kStrictMaxLevels && !reportedDepth) {
                        reportedDepth = true;
                        warn(
                            pointer, u"strict-depth"_s,
                            Tr::tr("objects nest %1 levels deep here; OpenAI strict mode allows %2")
                                .arg(level)
                                .arg(kStrictMaxLevels));
                    } else if (level > kStrictOldMaxLevels && !reportedOldDepth && !reportedDepth) {
                        reportedOldDepth = true;
                        info(pointer, u"strict-depth"_s,
                             Tr::tr("objects nest %1 levels deep here; older OpenAI documentation "
                                    "allowed only %2 levels in strict mode")
                                 .arg(level)
                                 .arg(kStrictOldMaxLevels));
                    }
                    const QJsonObject properties = schema.value("properties"_L1).toObject();
                    propertyCount += int(properties.size());
                    for (auto it = properties.constBegin(); it != properties.constEnd(); ++it)
                        nameChars += it.key().size();
                    const QJsonArray values = schema.value("enum"_L1).toArray();
                    enumValues += int(values.size());
                    for (const QJsonValue &v : values)
                        nameChars += v.toString().size();
                    nameChars += schema.value("const"_L1).toString().size();
                }
                if (anthropic && !rewritten)
                    lintAnthropic(schema, pointer);
                if (gemini && !rewritten)
                    lintGemini(schema, pointer);
            });
        if (strict) {
            if (propertyCount > kStrictMaxProperties) {
                warn(base, u"strict-size"_s,
                     Tr::tr("%1 properties exceed OpenAI's strict-mode limit of %2")
                         .arg(propertyCount)
                         .arg(kStrictMaxProperties));
            }
            if (enumValues > kStrictMaxEnumValues) {
                warn(base, u"strict-size"_s,
                     Tr::tr("%1 enum values exceed OpenAI's strict-mode limit of %2")
                         .arg(enumValues)
                         .arg(kStrictMaxEnumValues));
            }
            if (nameChars > kStrictMaxNameChars) {
                warn(base, u"strict-size"_s,
                     Tr::tr("property names and enum values add up to %1 characters; OpenAI's "
                            "strict mode allows %2")
                         .arg(nameChars)
                         .arg(kStrictMaxNameChars));
            }
        }
        if (gemini) {
            lintRecursion(
                root, base, u"gemini-recursive-ref"_s,
                Tr::tr("recursive \"$ref\" to %1; Gemini refuses recursive schemas (unroll it to a "
                       "fixed depth)"));
        }
        if (anthropic) {
            lintRecursion(
                root, base, u"anthropic-recursive-ref"_s,
                Tr::tr("recursive \"$ref\" to %1; Anthropic structured output refuses recursive "
                       "schemas (unroll it to a fixed depth)"));
        }
    }

    void lintRoot(const QJsonObject &root, const QString &base)
    {
        if (root.value("type"_L1) == u"object"_s)
            return;
        QString message;
        if (root.contains("anyOf"_L1) || root.contains("oneOf"_L1)) {
            message = Tr::tr("the root is a union (anyOf/oneOf); tool arguments must be one object "
                             "with \"type\": \"object\" (wrap the union in a property)");
        } else if (!root.contains("type"_L1)) {
            message =
                Tr::tr("the root has no \"type\": \"object\"; providers expect tool arguments "
                       "to be an object");
        } else {
            message = Tr::tr("the root has \"type\" %1; tool arguments must be an object")
                          .arg(QString::fromUtf8(QJsonDocument(QJsonArray { root.value("type"_L1) })
                                                     .toJson(QJsonDocument::Compact))
                                   .mid(1)
                                   .chopped(1));
        }
        warn(base, u"schema-root-object"_s, message);
    }

    // A schema without "$schema" is read as 2020-12: the forms of older drafts that mean
    // something else there (or are refused there), each with its 2020-12 rewrite. Those that
    // still work the same here (definitions, dependencies) are advice only.
    void lintDraftForms(const QJsonObject &root, const QString &base)
    {
        for (const DialectRewrite &form : olderDraftForms(root)) {
            const bool stillWorks =
                form.keyword == u"definitions" || form.keyword == u"dependencies";
            add(stillWorks ? LintSeverity::Info : LintSeverity::Warning, base + form.pointer,
                u"schema-draft-form"_s,
                Tr::tr("%1 (this schema has no \"$schema\", so it is read as 2020-12)")
                    .arg(form.message));
        }
    }

    void lintClosedSet(const QJsonObject &schema, const QString &pointer)
    {
        if (!hasType(schema, u"string") || schema.contains("enum"_L1)
            || schema.contains("const"_L1))
            return;
        const QStringList options = closedSetOptions(schema.value("description"_L1).toString());
        if (options.isEmpty())
            return;
        warn(pointer, u"enum-closed-set"_s,
             Tr::tr("the description lists a closed set (%1); put the values in \"enum\" so the "
                    "model cannot invent others")
                 .arg(options.join(u", "_s)));
    }

    void lintArgumentSize(const QJsonObject &schema, const QString &pointer)
    {
        const QJsonValue maxLength = schema.value("maxLength"_L1);
        if (maxLength.isDouble() && maxLength.toDouble() > double(kMaxArgumentString)) {
            info(JsonPointer::append(pointer, u"maxLength"), u"argument-string-size"_s,
                 Tr::tr("maxLength %1 is above the %2 bytes OpenAI documents for one argument "
                        "string; longer values may be cut off")
                     .arg(qint64(maxLength.toDouble()))
                     .arg(kMaxArgumentString));
        }
    }

    void lintStrict(const QJsonObject &schema, const QString &pointer)
    {
        if (isObjectSchema(schema)) {
            const QJsonValue additional = schema.value("additionalProperties"_L1);
            if (additional.isUndefined()) {
                warn(pointer, u"strict-additional-properties"_s,
                     Tr::tr("object without \"additionalProperties\": false; OpenAI strict mode "
                            "needs it on every object"));
            } else if (additional != QJsonValue(false)) {
                warn(JsonPointer::append(pointer, u"additionalProperties"),
                     u"strict-additional-properties"_s,
                     Tr::tr("\"additionalProperties\" must be false in OpenAI strict mode"));
            }
            const QJsonObject properties = schema.value("properties"_L1).toObject();
            QSet<QString> required;
            for (const QJsonValue &v : schema.value("required"_L1).toArray())
                required.insert(v.toString());
            for (auto it = properties.constBegin(); it != properties.constEnd(); ++it) {
                if (required.contains(it.key()))
                    continue;
                const QJsonValue type = it->toObject().value("type"_L1);
                const QString example = type.isString()
                    ? u"[\""_s + type.toString() + u"\", \"null\"]"_s
                    : u"[T, \"null\"]"_s;
                warn(JsonPointer::append(JsonPointer::append(pointer, u"properties"), it.key()),
                     u"strict-required"_s,
                     Tr::tr("property %1 is not in \"required\"; OpenAI strict mode needs every "
                            "property there (make it optional with \"type\": %2)")
                         .arg(quoted(it.key()), example));
            }
        }
        static const QStringList unsupported = { u"allOf"_s,
                                                 u"oneOf"_s,
                                                 u"not"_s,
                                                 u"if"_s,
                                                 u"then"_s,
                                                 u"else"_s,
                                                 u"patternProperties"_s,
                                                 u"default"_s,
                                                 u"dependentRequired"_s,
                                                 u"dependentSchemas"_s,
                                                 u"unevaluatedProperties"_s,
                                                 u"unevaluatedItems"_s,
                                                 u"propertyNames"_s,
                                                 u"contains"_s };
        for (const QString &keyword : unsupported) {
            if (!schema.contains(keyword))
                continue;
            QString hint;
            if (keyword == u"allOf" && schema.value(keyword).toArray().size() == 1)
                hint = Tr::tr("; a single-entry allOf can be inlined");
            else if (keyword == u"oneOf")
                hint = Tr::tr("; use anyOf");
            else if (keyword == u"default")
                hint = Tr::tr("; state the default in the description");
            warn(JsonPointer::append(pointer, keyword), u"strict-unsupported-keyword"_s,
                 Tr::tr("OpenAI strict mode does not support %1%2").arg(quoted(keyword), hint));
        }
        static const QStringList formats = { u"date-time"_s, u"time"_s,  u"date"_s,
                                             u"duration"_s,  u"email"_s, u"hostname"_s,
                                             u"ipv4"_s,      u"ipv6"_s,  u"uuid"_s };
        if (const QJsonValue format = schema.value("format"_L1);
            format.isString() && !formats.contains(format.toString())) {
            warn(JsonPointer::append(pointer, u"format"), u"strict-format"_s,
                 Tr::tr("format %1 is not one OpenAI strict mode supports (%2)")
                     .arg(quoted(format.toString()), formats.join(u", "_s)));
        }
        if (schema.contains("$ref"_L1) && schema.size() > 1) {
            QStringList siblings = schema.keys();
            siblings.removeAll(u"$ref"_s);
            info(pointer, u"strict-ref-siblings"_s,
                 Tr::tr(
                     "\"$ref\" has sibling keywords (%1); OpenAI strict mode wants a bare $ref, so "
                     "they must be inlined into the referenced schema")
                     .arg(siblings.join(u", "_s)));
        }
    }

    void lintAnthropic(const QJsonObject &schema, const QString &pointer)
    {
        if (const QJsonValue minItems = schema.value("minItems"_L1);
            minItems.isDouble() && minItems.toDouble() > 1) {
            warn(JsonPointer::append(pointer, u"minItems"), u"anthropic-min-items"_s,
                 Tr::tr(
                     "Anthropic structured output supports minItems 0 or 1 only; %1 is moved into "
                     "the description and not enforced (the result is still validated here)")
                     .arg(qint64(minItems.toDouble())));
        }
        static const QStringList moved = { u"minimum"_s,
                                           u"maximum"_s,
                                           u"exclusiveMinimum"_s,
                                           u"exclusiveMaximum"_s,
                                           u"multipleOf"_s,
                                           u"minLength"_s,
                                           u"maxLength"_s,
                                           u"pattern"_s,
                                           u"maxItems"_s,
                                           u"uniqueItems"_s,
                                           u"minProperties"_s,
                                           u"maxProperties"_s,
                                           u"patternProperties"_s,
                                           u"propertyNames"_s,
                                           u"contains"_s,
                                           u"prefixItems"_s,
                                           u"dependentRequired"_s,
                                           u"dependentSchemas"_s,
                                           u"not"_s,
                                           u"if"_s,
                                           u"then"_s,
                                           u"else"_s,
                                           u"unevaluatedProperties"_s,
                                           u"unevaluatedItems"_s };
        for (const QString &keyword : moved) {
            if (!schema.contains(keyword))
                continue;
            warn(JsonPointer::append(pointer, keyword), u"anthropic-unsupported-keyword"_s,
                 Tr::tr("Anthropic structured output does not enforce %1; it is moved into the "
                        "description as a hint (the result is still validated here)")
                     .arg(quoted(keyword)));
        }
        static const QStringList formats = { u"date-time"_s, u"time"_s,  u"date"_s,
                                             u"duration"_s,  u"email"_s, u"hostname"_s,
                                             u"uri"_s,       u"ipv4"_s,  u"ipv6"_s,
                                             u"uuid"_s };
        if (const QJsonValue format = schema.value("format"_L1);
            format.isString() && !formats.contains(format.toString())) {
            warn(JsonPointer::append(pointer, u"format"), u"anthropic-format"_s,
                 Tr::tr("format %1 is not one Anthropic structured output supports (%2)")
                     .arg(quoted(format.toString()), formats.join(u", "_s)));
        }
    }

    void lintGemini(const QJsonObject &schema, const QString &pointer)
    {
        if (schema.contains("const"_L1)) {
            info(JsonPointer::append(pointer, u"const"), u"gemini-const"_s,
                 Tr::tr("Gemini gets \"const\" rewritten to a one-value \"enum\""));
        }
        for (const QString &keyword :
             { u"format"_s, u"exclusiveMinimum"_s, u"exclusiveMaximum"_s }) {
            if (!schema.contains(keyword))
                continue;
            warn(
                JsonPointer::append(pointer, keyword), u"gemini-dropped-keyword"_s,
                Tr::tr("%1 is dropped from schemas sent to Gemini, so the model never sees it (the "
                       "result is still validated here)")
                    .arg(quoted(keyword)));
        }
        static const QRegularExpression parameterName(u"^[a-zA-Z0-9_]{1,64}$"_s);
        const QJsonObject properties = schema.value("properties"_L1).toObject();
        for (auto it = properties.constBegin(); it != properties.constEnd(); ++it) {
            if (parameterName.match(it.key()).hasMatch())
                continue;
            warn(JsonPointer::append(JsonPointer::append(pointer, u"properties"), it.key()),
                 u"gemini-parameter-name"_s,
                 Tr::tr("parameter name %1 breaks Gemini's rule (letters, digits and _, at most 64 "
                        "characters)")
                     .arg(quoted(it.key())));
        }
    }

    // A local $ref is recursive when its target can reach, through further $refs, a schema
    // that contains the $ref itself. `message` takes the target.
    void lintRecursion(const QJsonObject &root, const QString &base, const QString &rule,
                       const QString &message)
    {
        struct Ref
        {
            QString location; // schema pointer relative to root ("" is the root)
            QString target; // pointer relative to root
        };
        QList<Ref> refs;
        forEachSchema(
            root, QString(), 0, [&](const QJsonObject &schema, const QString &pointer, int) {
                const QString ref = schema.value("$ref"_L1).toString();
                if (ref.startsWith(u'#'))
                    refs.append({ pointer, QUrl::fromPercentEncoding(ref.mid(1).toUtf8()) });
            });
        if (refs.isEmpty())
            return;
        auto inside = [](const QString &location, const QString &container) {
            return location == container || container.isEmpty()
                || location.startsWith(container + u'/');
        };
        // Edges: target T -> targets of the refs located inside T.
        QHash<QString, QSet<QString>> edges;
        for (const Ref &r : std::as_const(refs)) {
            for (const Ref &container : std::as_const(refs)) {
                if (inside(r.location, container.target))
                    edges[container.target].insert(r.target);
            }
        }
        for (const Ref &r : std::as_const(refs)) {
            // Containers of this ref: every target whose subtree holds it.
            QSet<QString> containers;
            for (const Ref &other : std::as_const(refs)) {
                if (inside(r.location, other.target))
                    containers.insert(other.target);
            }
            QSet<QString> seen;
            QList<QString> queue { r.target };
            bool recursive = false;
            while (!queue.isEmpty() && !recursive) {
                const QString t = queue.takeFirst();
                if (containers.contains(t)) {
                    recursive = true;
                    break;
                }
                if (seen.contains(t))
                    continue;
                seen.insert(t);
                for (const QString &next : edges.value(t))
                    queue.append(next);
            }
            if (recursive) {
                warn(JsonPointer::append(base + r.location, u"$ref"), rule,
                     message.arg(quoted(u'#' + r.target)));
            }
        }
    }

    const Spec &m_spec;
    EngineType m_target;
    const ProfileLookup &m_profiles;
    QList<LintFinding> m_findings;
};

} // namespace

QString lintSeverityName(LintSeverity severity)
{
    return severity == LintSeverity::Warning ? u"warning"_s : u"info"_s;
}

QList<LintRule> lintRules()
{
    QList<LintRule> rules {
        { u"tool-name-snake-case"_s, Tr::tr("tool names are snake_case") },
        { u"tool-name-verb-noun"_s, Tr::tr("tool names are verb_noun, not a single word") },
        { u"tool-name-provider"_s, Tr::tr("tool names match the provider's name rule") },
        { u"tool-description-missing"_s, Tr::tr("every tool has a description") },
        { u"tool-description-length"_s, Tr::tr("descriptions are at most 1024 characters") },
        { u"tool-count"_s,
          Tr::tr("no more tools than the provider accepts (OpenAI 128, Anthropic 64)") },
        { u"schema-root-object"_s, Tr::tr("tool and response schemas have an object root") },
        { u"schema-draft-form"_s,
          Tr::tr("a schema without $schema (2020-12) uses no form of an older draft") },
        { u"enum-closed-set"_s, Tr::tr("closed sets named in a description are an enum") },
        { u"argument-string-size"_s, Tr::tr("string arguments fit OpenAI's 8192-byte limit") },
        { u"unknown-field"_s, Tr::tr("fields the spec format does not know (often a typo)") },
        { u"output-parser-ignored"_s,
          Tr::tr("output_parser has no effect with a response schema") },
        { u"output-mode-ignored"_s, Tr::tr("output_mode has no effect without a response schema") },
        { u"text-output-ignored"_s,
          Tr::tr("text_output has no effect in native or prompted mode") },
        { u"stop-early-ignored"_s,
          Tr::tr("stop_early has no effect without a schema, in prompted mode or unstreamed") },
        { u"native-unsupported"_s,
          Tr::tr("native output on an engine or model that cannot do it") },
        { u"native-schema-changed"_s,
          Tr::tr("native output: each change made to the schema sent") },
        { u"strict-additional-properties"_s,
          Tr::tr("OpenAI strict: additionalProperties false on every object") },
        { u"strict-required"_s, Tr::tr("OpenAI strict: every property is required") },
        { u"strict-unsupported-keyword"_s, Tr::tr("OpenAI strict: no unsupported keywords") },
        { u"strict-format"_s, Tr::tr("OpenAI strict: only supported string formats") },
        { u"strict-ref-siblings"_s, Tr::tr("OpenAI strict: $ref without sibling keywords") },
        { u"strict-depth"_s, Tr::tr("OpenAI strict: nesting depth limit") },
        { u"strict-size"_s, Tr::tr("OpenAI strict: property, enum and size caps") },
        { u"anthropic-min-items"_s, Tr::tr("Anthropic structured output: minItems 0 or 1 only") },
        { u"anthropic-unsupported-keyword"_s,
          Tr::tr("Anthropic structured output: keywords it does not enforce") },
        { u"anthropic-format"_s,
          Tr::tr("Anthropic structured output: only supported string formats") },
        { u"anthropic-recursive-ref"_s, Tr::tr("Anthropic structured output: no recursive $ref") },
        { u"gemini-recursive-ref"_s, Tr::tr("Gemini: no recursive $ref") },
        { u"gemini-const"_s, Tr::tr("Gemini: const becomes a one-value enum") },
        { u"gemini-dropped-keyword"_s, Tr::tr("Gemini: keywords dropped before sending") },
        { u"gemini-parameter-name"_s, Tr::tr("Gemini: parameter names [a-zA-Z0-9_]{1,64}") },
        { u"key-profile-redirect"_s,
          Tr::tr("a profile's key goes only to that profile's address and engine type") },
        { u"key-env-not-allowed"_s,
          Tr::tr("key variables other than *_API_KEY need the user's allow list or trust") },
        { u"mcp-insecure-url"_s, Tr::tr("remote MCP servers are reached over https") },
    };
    rules += cacheLintRules();
    return rules;
}

QList<LintFinding> lintSpec(const Spec &spec, EngineType target, const ProfileLookup &profiles)
{
    return Linter(spec, target, profiles).run();
}

QList<LintFinding> lintSpec(const Spec &spec)
{
    return lintSpec(spec, spec.engine.type);
}

} // namespace Callscope
