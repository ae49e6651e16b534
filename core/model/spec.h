#pragma once

// The spec: everything that defines a structured call except the user's input. A plain value
// type: the engine to call (type, model, endpoint, sampling, limits, prompt caching), the
// system prompt, the response schema and how the output is obtained (OutputMode), the tools
// and how each one runs (a command, an MCP server, a person, a mock), the MCP servers, calls
// pre-seeded into the conversation, the turn limit, and the retry and context-budget settings.
// Fields a newer file has that this version does not know are kept for saving. Loading,
// validation and saving live in core/model/specio.h; the checks before a run in
// core/schema/speccheck.h.

#include "core/model/cachespec.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

namespace Callscope {

enum class EngineType { OpenAI, OpenAIResponses, Anthropic, Gemini, OpenAICompatible, Replay };

QString engineTypeName(EngineType type);
std::optional<EngineType> engineTypeFromName(QStringView name);
QStringList engineTypeNames();

// How a structured call gets its output when the spec has a response schema:
// the submit_output tool, the provider's own structured-output field, or the schema in the
// system prompt with the JSON taken from the reply text.
enum class OutputMode { Tool, Native, Prompted };

QString outputModeName(OutputMode mode);
std::optional<OutputMode> outputModeFromName(QStringView name);

enum class ToolRunnerKind { None, Command, Mcp, Manual, Mock };

struct ToolSpec
{
    QString name;
    QString description;
    QJsonObject inputSchema; // empty means: take it from the MCP server, or {"type":"object"}
    bool requiresApproval = false;
    bool approvalGiven = false; // the file said requires_approval (true or false)
    int timeoutMs = 30000;
    ToolRunnerKind runner = ToolRunnerKind::None;
    QStringList command; // runner Command: argument vector, no shell
    QString mcpServer; // runner Mcp: key of Spec::mcpServers
    QJsonValue mock; // runner Mock: one result, or an array of results in order
    QJsonObject unknownFields; // kept on save

    friend bool operator==(const ToolSpec &, const ToolSpec &) = default;
};

// How a remote MCP server is signed in to: nothing, a bearer token from an environment
// variable, or OAuth (the MCP authorization flow; the optional fields name a pre-registered
// client or a client ID metadata document instead of dynamic registration).
enum class McpAuthKind { None, Bearer, OAuth };

// Which of a server's tools need a person's approval by default (a spec entry's
// requires_approval always wins): every one, the ones marked destructive, or none.
enum class McpApprovalPolicy { Always, Destructive, Never };

struct McpServerSpec
{
    QStringList command; // a local server over stdio ...
    QString url; // ... or a remote one (Streamable HTTP, legacy SSE fallback)
    QMap<QString, QString> headers; // remote: sent with every request
    McpAuthKind auth = McpAuthKind::None;
    QString bearerEnv; // auth Bearer: the variable that holds the token
    QString oauthClientId; // auth OAuth: a pre-registered client ...
    QString oauthClientSecretEnv; // ... and the variable with its secret (none: public client)
    QString oauthClientMetadataUrl; // a client ID metadata document URL, used when offered
    QString oauthScope; // scopes to ask for instead of the server's hints
    McpApprovalPolicy approval = McpApprovalPolicy::Destructive;
    QMap<QString, QString> env;
    bool exposeAll = false; // "expose": "all"

    bool isRemote() const { return !url.isEmpty(); }
    QJsonObject unknownFields;

    friend bool operator==(const McpServerSpec &, const McpServerSpec &) = default;
};

struct PreSeed
{
    QString tool;
    QJsonObject arguments;
    QJsonObject unknownFields;

    friend bool operator==(const PreSeed &, const PreSeed &) = default;
};

struct EngineSpec
{
    EngineType type = EngineType::OpenAI;
    QString model;
    QString baseUrl; // host root; the engine adds its own path
    QString apiKeyEnv;
    QString profile;
    std::optional<int> maxTokens;
    std::optional<double> temperature;
    std::optional<qint64> contextWindow;
    // tool_results_in_context: absent = inherit, null = send everything, N = newest N in full
    std::optional<std::optional<int>> toolResultsInContext;
    std::optional<qint64> toolResultsTokens;
    // Per HTTP attempt: `timeout_ms` bounds the whole attempt, `idle_timeout_ms` the silence
    // between two bytes. Absent = the profile's, else the defaults (600 s, 60 s).
    std::optional<qint64> timeoutMs;
    std::optional<qint64> idleTimeoutMs;
    bool stream = true;
    QString replay; // recording file or call id, for EngineType::Replay
    // The spec's top-level "cache" object (it sits here so a profile's can fill it in).
    std::optional<CacheSpec> cache;
    // The file gave no "type" but named a profile: the type comes from that profile
    // (`engines add --type`), and saving leaves "type" out again.
    bool typeFromProfile = false;
    QJsonObject unknownFields;

    friend bool operator==(const EngineSpec &, const EngineSpec &) = default;
};

struct RetrySpec
{
    int maxAttempts = 3;
    bool reask = false;
    QList<QJsonObject> perAttemptOverride; // entry k is merged over the engine spec on retry k
    QJsonObject unknownFields;

    friend bool operator==(const RetrySpec &, const RetrySpec &) = default;
};

struct ContextSpec
{
    std::optional<int> toolResultsInContext = 6; // nullopt = send every result in full
    std::optional<qint64> toolResultsTokens;
    std::optional<qint64> toolResultsChars;
    int imagesInContext = 2;
    QJsonObject unknownFields;

    friend bool operator==(const ContextSpec &, const ContextSpec &) = default;
};

struct Spec
{
    QString kind = QStringLiteral("call");
    QString systemPrompt;
    std::optional<QJsonObject> responseSchema; // a boolean schema is not allowed at the root
    QString outputParser = QStringLiteral("json"); // "json" or "text"; used without a schema
    OutputMode outputMode = OutputMode::Tool; // used with a schema
    QString textOutputField; // text_output.field; empty = no text_output
    QJsonObject textOutputUnknownFields; // other keys of the text_output object, kept on save
    // stop_early: a streamed answer that can no longer match the schema is cut off there and
    // the correction sent at once (tool and native modes).
    bool stopEarly = false;
    QList<ToolSpec> tools;
    QMap<QString, McpServerSpec> mcpServers;
    QList<PreSeed> preSeeds;
    int maxTurns = 10;
    EngineSpec engine;
    RetrySpec retry;
    ContextSpec context;
    QJsonObject unknownFields; // top-level fields we do not know, kept on save
    QString sourcePath; // file the spec was loaded from (not saved); may be empty

    const ToolSpec *tool(QStringView name) const;
    // `path` as given in the spec (a replay recording, a command), resolved against the
    // folder of sourcePath when it is relative; unchanged when there is no sourcePath.
    QString resolvePath(const QString &path) const;

    friend bool operator==(const Spec &, const Spec &) = default;
};

} // namespace Callscope
