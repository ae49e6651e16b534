#include "core/model/specio.h"

#include "core/model/boundedread.h"
#include "core/model/jsonpointer.h"
#include "core/model/schemacycles.h"

#include <QCoreApplication>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSet>
#include <QUrl>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace Callscope {

QStringList knownSpecFields(SpecSection section)
{
    switch (section) {
    case SpecSection::Root:
        return { u"kind"_s,        u"system_prompt"_s, u"response_schema"_s, u"output_parser"_s,
                 u"output_mode"_s, u"text_output"_s,   u"tools"_s,           u"mcp_servers"_s,
                 u"pre_seeds"_s,   u"max_turns"_s,     u"engine"_s,          u"retry"_s,
                 u"context"_s,     u"cache"_s,         u"stop_early"_s };
    case SpecSection::Engine:
        return { u"type"_s,
                 u"model"_s,
                 u"base_url"_s,
                 u"api_key_env"_s,
                 u"api_key"_s,
                 u"profile"_s,
                 u"max_tokens"_s,
                 u"temperature"_s,
                 u"context_window"_s,
                 u"tool_results_in_context"_s,
                 u"tool_results_tokens"_s,
                 u"timeout_ms"_s,
                 u"idle_timeout_ms"_s,
                 u"stream"_s,
                 u"replay"_s };
    case SpecSection::Retry:
        return { u"max_attempts"_s, u"reask"_s, u"per_attempt_override"_s };
    case SpecSection::Context:
        return { u"tool_results_in_context"_s, u"tool_results_tokens"_s, u"tool_results_chars"_s,
                 u"images_in_context"_s };
    case SpecSection::McpServer:
        return { u"command"_s,  u"url"_s, u"headers"_s, u"auth"_s,
                 u"approval"_s, u"env"_s, u"expose"_s };
    case SpecSection::Tool:
        return { u"name"_s,       u"description"_s, u"input_schema"_s, u"requires_approval"_s,
                 u"timeout_ms"_s, u"command"_s,     u"mcp"_s,          u"manual"_s,
                 u"mock"_s };
    }
    return {};
}

Q_LOGGING_CATEGORY(lcSpecIo, "callscope.spec", QtInfoMsg)

namespace {

constexpr int kDefaultMaxTurns = 10;
constexpr int kDefaultTimeoutMs = 30000;
const QString kSubmitOutput = u"submit_output"_s;

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Callscope::SpecIO)
};

QString quoted(const QString &text)
{
    return u'"' + text + u'"';
}

// Line and column (1-based, in characters) of a byte offset into UTF-8 text.
QString describeOffset(const QByteArray &data, qsizetype offset)
{
    qsizetype line = 1;
    qsizetype lineStart = 0;
    offset = std::clamp<qsizetype>(offset, 0, data.size());
    for (qsizetype i = 0; i < offset; ++i) {
        if (data.at(i) == '\n') {
            ++line;
            lineStart = i + 1;
        }
    }
    const qsizetype column = QString::fromUtf8(data.mid(lineStart, offset - lineStart)).size() + 1;
    return Tr::tr("line %1, column %2").arg(line).arg(column);
}

// Collects errors while it reads the document; every reader returns nullopt after
// recording a problem, so callers keep the default and carry on.
class Loader
{
public:
    QList<SpecError> errors;

    void error(const QString &pointer, const QString &message)
    {
        errors.append({ pointer, message });
    }

    void typeError(const QString &pointer, const QString &expected, const QJsonValue &got)
    {
        error(pointer, Tr::tr("expected %1, got %2").arg(expected, jsonTypeDescription(got)));
    }

    void missing(const QString &pointer, const QString &field, const QString &why = {})
    {
        QString message = Tr::tr("missing required field %1").arg(quoted(field));
        if (!why.isEmpty())
            message += u" ("_s + why + u')';
        error(pointer, message);
    }

    static bool present(const QJsonObject &object, QLatin1StringView key)
    {
        const auto it = object.constFind(key);
        return it != object.constEnd() && !it->isNull();
    }

    std::optional<QString> string(const QJsonObject &object, QLatin1StringView key,
                                  const QString &parent, bool nonEmpty = false)
    {
        if (!present(object, key))
            return std::nullopt;
        const QJsonValue value = object.value(key);
        const QString pointer = JsonPointer::append(parent, QString(key));
        if (!value.isString()) {
            typeError(pointer, Tr::tr("a string"), value);
            return std::nullopt;
        }
        if (nonEmpty && value.toString().isEmpty()) {
            error(pointer, Tr::tr("must not be empty"));
            return std::nullopt;
        }
        return value.toString();
    }

    std::optional<bool> boolean(const QJsonObject &object, QLatin1StringView key,
                                const QString &parent)
    {
        if (!present(object, key))
            return std::nullopt;
        const QJsonValue value = object.value(key);
        if (!value.isBool()) {
            typeError(JsonPointer::append(parent, QString(key)), Tr::tr("a boolean"), value);
            return std::nullopt;
        }
        return value.toBool();
    }

    std::optional<double> number(const QJsonObject &object, QLatin1StringView key,
                                 const QString &parent, double minimum)
    {
        if (!present(object, key))
            return std::nullopt;
        const QJsonValue value = object.value(key);
        const QString pointer = JsonPointer::append(parent, QString(key));
        if (!value.isDouble()) {
            typeError(pointer, Tr::tr("a number"), value);
            return std::nullopt;
        }
        if (value.toDouble() < minimum) {
            error(pointer,
                  Tr::tr("must be at least %1, got %2")
                      .arg(QString::number(minimum), QString::number(value.toDouble())));
            return std::nullopt;
        }
        return value.toDouble();
    }

    // Checks one JSON value as an integer >= minimum; `pointer` names it.
    std::optional<qint64> integerValue(const QJsonValue &value, const QString &pointer,
                                       qint64 minimum, qint64 maximum)
    {
        const double d = value.toDouble();
        if (!value.isDouble() || std::floor(d) != d || std::abs(d) > 9007199254740992.0) {
            typeError(pointer, Tr::tr("an integer"), value);
            return std::nullopt;
        }
        const auto n = qint64(d);
        if (n < minimum) {
            error(pointer, Tr::tr("must be at least %1, got %2").arg(minimum).arg(n));
            return std::nullopt;
        }
        if (n > maximum) {
            error(pointer, Tr::tr("must be at most %1, got %2").arg(maximum).arg(n));
            return std::nullopt;
        }
        return n;
    }

    std::optional<qint64> integer(const QJsonObject &object, QLatin1StringView key,
                                  const QString &parent, qint64 minimum,
                                  qint64 maximum = std::numeric_limits<int>::max())
    {
        if (!present(object, key))
            return std::nullopt;
        return integerValue(object.value(key), JsonPointer::append(parent, QString(key)), minimum,
                            maximum);
    }

    // A JSON object at `key`; nullopt when absent, null or of the wrong type (then an error).
    std::optional<QJsonObject> object(const QJsonObject &parentObject, QLatin1StringView key,
                                      const QString &parent)
    {
        if (!present(parentObject, key))
            return std::nullopt;
        const QJsonValue value = parentObject.value(key);
        if (!value.isObject()) {
            typeError(JsonPointer::append(parent, QString(key)), Tr::tr("an object"), value);
            return std::nullopt;
        }
        return value.toObject();
    }

    std::optional<QJsonArray> array(const QJsonObject &parentObject, QLatin1StringView key,
                                    const QString &parent)
    {
        if (!present(parentObject, key))
            return std::nullopt;
        const QJsonValue value = parentObject.value(key);
        if (!value.isArray()) {
            typeError(JsonPointer::append(parent, QString(key)), Tr::tr("an array"), value);
            return std::nullopt;
        }
        return value.toArray();
    }

    // An argument vector: a non-empty array of strings whose first entry (the program) is
    // not empty.
    std::optional<QStringList> command(const QJsonObject &parentObject, QLatin1StringView key,
                                       const QString &parent)
    {
        const QString pointer = JsonPointer::append(parent, QString(key));
        const QJsonValue value = parentObject.value(key);
        if (value.isString()) {
            error(pointer,
                  Tr::tr("expected an array of strings (program and arguments, run without "
                         "a shell), got a string"));
            return std::nullopt;
        }
        const auto items = array(parentObject, key, parent);
        if (!items)
            return std::nullopt;
        if (items->isEmpty()) {
            error(pointer, Tr::tr("must name at least the program to run"));
            return std::nullopt;
        }
        QStringList result;
        bool ok = true;
        for (qsizetype i = 0; i < items->size(); ++i) {
            const QJsonValue item = items->at(i);
            if (!item.isString()) {
                typeError(JsonPointer::append(pointer, i), Tr::tr("a string"), item);
                ok = false;
                continue;
            }
            if (i == 0 && item.toString().isEmpty()) {
                error(JsonPointer::append(pointer, 0), Tr::tr("must not be empty"));
                ok = false;
            }
            result.append(item.toString());
        }
        return ok ? std::optional<QStringList>(result) : std::nullopt;
    }

    // The object's fields that are not in `known`.
    static QJsonObject unknownFields(const QJsonObject &object, const QStringList &known)
    {
        QJsonObject unknown;
        for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
            if (!known.contains(it.key()))
                unknown.insert(it.key(), it.value());
        }
        return unknown;
    }

    static QJsonObject unknownFields(const QJsonObject &object,
                                     std::initializer_list<QLatin1StringView> known)
    {
        QJsonObject unknown;
        for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
            bool isKnown = false;
            for (QLatin1StringView k : known) {
                if (it.key() == k) {
                    isKnown = true;
                    break;
                }
            }
            if (!isKnown)
                unknown.insert(it.key(), it.value());
        }
        return unknown;
    }
};

void loadMcpServers(Loader &in, const QJsonObject &root, Spec &spec)
{
    const auto servers = in.object(root, "mcp_servers"_L1, QString());
    if (!servers)
        return;
    const QString base = u"/mcp_servers"_s;
    for (auto it = servers->constBegin(); it != servers->constEnd(); ++it) {
        const QString pointer = JsonPointer::append(base, it.key());
        if (!it.value().isObject()) {
            in.typeError(pointer, Tr::tr("an object"), it.value());
            continue;
        }
        const QJsonObject object = it.value().toObject();
        McpServerSpec server;
        const bool hasCommand = Loader::present(object, "command"_L1);
        const bool hasUrl = Loader::present(object, "url"_L1);
        if (hasCommand && hasUrl) {
            in.error(pointer,
                     Tr::tr("both command and url; give command for a local server or url for a "
                            "remote one"));
        } else if (hasCommand) {
            if (auto command = in.command(object, "command"_L1, pointer))
                server.command = *command;
        } else if (hasUrl) {
            if (const auto url = in.string(object, "url"_L1, pointer, true)) {
                const QUrl parsed(*url, QUrl::StrictMode);
                const QString scheme = parsed.scheme().toLower();
                if (!parsed.isValid() || (scheme != u"http" && scheme != u"https")
                    || parsed.host().isEmpty())
                    in.error(JsonPointer::append(pointer, u"url"),
                             Tr::tr("%1 is not an http:// or https:// URL").arg(quoted(*url)));
                else
                    server.url = *url;
            }
        } else {
            in.missing(
                pointer, u"command"_s,
                Tr::tr("the program that starts the server, or \"url\" for a remote server"));
        }
        if (const auto headers = in.object(object, "headers"_L1, pointer)) {
            const QString headersPointer = JsonPointer::append(pointer, u"headers");
            if (!hasUrl)
                in.error(headersPointer,
                         Tr::tr("headers are only sent to a remote server (one with \"url\")"));
            for (auto h = headers->constBegin(); h != headers->constEnd(); ++h) {
                static const QRegularExpression token(u"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$"_s);
                if (!h.value().isString())
                    in.typeError(JsonPointer::append(headersPointer, h.key()), Tr::tr("a string"),
                                 h.value());
                else if (!token.match(h.key()).hasMatch())
                    in.error(JsonPointer::append(headersPointer, h.key()),
                             Tr::tr("%1 is not a valid HTTP header name").arg(quoted(h.key())));
                else if (h.value().toString().contains(u'\n')
                         || h.value().toString().contains(u'\r'))
                    in.error(JsonPointer::append(headersPointer, h.key()),
                             Tr::tr("a header value must be one line"));
                else
                    server.headers.insert(h.key(), h.value().toString());
            }
        }
        if (Loader::present(object, "auth"_L1)) {
            const QString authPointer = JsonPointer::append(pointer, u"auth");
            const QJsonValue auth = object.value("auth"_L1);
            if (!hasUrl)
                in.error(authPointer,
                         Tr::tr("auth is only used with a remote server (one with \"url\")"));
            if (auth.isString()) {
                if (auth.toString() == u"oauth")
                    server.auth = McpAuthKind::OAuth;
                else if (auth.toString() != u"none")
                    in.error(authPointer,
                             Tr::tr("unknown value %1 (use \"oauth\", \"none\" or an object with "
                                    "\"bearer_env\" or \"oauth\")")
                                 .arg(quoted(auth.toString())));
            } else if (auth.isObject()) {
                const QJsonObject a = auth.toObject();
                const bool bearer = Loader::present(a, "bearer_env"_L1);
                const bool oauth = Loader::present(a, "oauth"_L1);
                if (bearer && oauth) {
                    in.error(authPointer, Tr::tr("both bearer_env and oauth; give one"));
                } else if (bearer) {
                    if (const auto var = in.string(a, "bearer_env"_L1, authPointer, true)) {
                        server.auth = McpAuthKind::Bearer;
                        server.bearerEnv = *var;
                    }
                } else if (oauth) {
                    const QJsonValue o = a.value("oauth"_L1);
                    const QString oauthPointer = JsonPointer::append(authPointer, u"oauth");
                    if (o.isBool()) {
                        if (o.toBool())
                            server.auth = McpAuthKind::OAuth;
                    } else if (o.isObject()) {
                        const QJsonObject oo = o.toObject();
                        server.auth = McpAuthKind::OAuth;
                        server.oauthClientId =
                            in.string(oo, "client_id"_L1, oauthPointer, true).value_or(QString());
                        server.oauthClientSecretEnv =
                            in.string(oo, "client_secret_env"_L1, oauthPointer, true)
                                .value_or(QString());
                        server.oauthClientMetadataUrl =
                            in.string(oo, "client_metadata_url"_L1, oauthPointer, true)
                                .value_or(QString());
                        server.oauthScope =
                            in.string(oo, "scope"_L1, oauthPointer).value_or(QString());
                        if (Loader::present(oo, "client_secret"_L1))
                            in.error(
                                JsonPointer::append(oauthPointer, u"client_secret"),
                                Tr::tr(
                                    "a client secret does not belong in a spec file; put it in an "
                                    "environment variable and name it with \"client_secret_env\""));
                        if (!server.oauthClientSecretEnv.isEmpty()
                            && server.oauthClientId.isEmpty())
                            in.missing(oauthPointer, u"client_id"_s,
                                       Tr::tr("the client the secret belongs to"));
                        const QStringList known { u"client_id"_s, u"client_secret_env"_s,
                                                  u"client_metadata_url"_s, u"scope"_s,
                                                  u"client_secret"_s };
                        for (auto k = oo.constBegin(); k != oo.constEnd(); ++k) {
                            if (!known.contains(k.key()))
                                in.error(JsonPointer::append(oauthPointer, k.key()),
                                         Tr::tr("unknown field (known: %1)")
                                             .arg(known.mid(0, 4).join(u", "_s)));
                        }
                    } else {
                        in.typeError(oauthPointer, Tr::tr("true or an object"), o);
                    }
                } else {
                    in.error(authPointer,
                             Tr::tr("give \"bearer_env\" (a variable holding the token) or "
                                    "\"oauth\""));
                }
                if (Loader::present(a, "token"_L1) || Loader::present(a, "bearer"_L1))
                    in.error(
                        authPointer,
                        Tr::tr("a token does not belong in a spec file; name the variable that "
                               "holds it with \"bearer_env\""));
            } else {
                in.typeError(authPointer, Tr::tr("\"oauth\" or an object"), auth);
            }
        }
        if (const auto approval = in.string(object, "approval"_L1, pointer)) {
            if (*approval == u"always")
                server.approval = McpApprovalPolicy::Always;
            else if (*approval == u"destructive")
                server.approval = McpApprovalPolicy::Destructive;
            else if (*approval == u"never")
                server.approval = McpApprovalPolicy::Never;
            else
                in.error(JsonPointer::append(pointer, u"approval"),
                         Tr::tr("unknown value %1 (use \"always\", \"destructive\" or \"never\")")
                             .arg(quoted(*approval)));
        }
        if (const auto env = in.object(object, "env"_L1, pointer)) {
            const QString envPointer = JsonPointer::append(pointer, u"env");
            for (auto e = env->constBegin(); e != env->constEnd(); ++e) {
                if (!e.value().isString())
                    in.typeError(JsonPointer::append(envPointer, e.key()), Tr::tr("a string"),
                                 e.value());
                else
                    server.env.insert(e.key(), e.value().toString());
            }
        }
        if (const auto expose = in.string(object, "expose"_L1, pointer)) {
            if (*expose == u"all")
                server.exposeAll = true;
            else
                in.error(
                    JsonPointer::append(pointer, u"expose"),
                    Tr::tr("unknown value %1 (the only value is \"all\")").arg(quoted(*expose)));
        }
        server.unknownFields =
            Loader::unknownFields(object, knownSpecFields(SpecSection::McpServer));
        spec.mcpServers.insert(it.key(), server);
    }
}

void loadTools(Loader &in, const QJsonObject &root, Spec &spec)
{
    const auto tools = in.array(root, "tools"_L1, QString());
    if (!tools)
        return;
    QHash<QString, QString> firstUse; // tool name -> pointer of the tool that used it first
    for (qsizetype i = 0; i < tools->size(); ++i) {
        const QString pointer = JsonPointer::append(u"/tools"_s, i);
        if (!tools->at(i).isObject()) {
            in.typeError(pointer, Tr::tr("an object"), tools->at(i));
            continue;
        }
        const QJsonObject object = tools->at(i).toObject();
        ToolSpec tool;
        const QString namePointer = JsonPointer::append(pointer, u"name");
        if (!Loader::present(object, "name"_L1)) {
            in.missing(pointer, u"name"_s);
        } else if (const auto name = in.string(object, "name"_L1, pointer, true)) {
            tool.name = *name;
            if (tool.name == kSubmitOutput) {
                in.error(namePointer,
                         Tr::tr("the name \"submit_output\" is reserved for the tool that "
                                "returns the response schema's output"));
            } else if (const auto it = firstUse.constFind(tool.name); it != firstUse.constEnd()) {
                in.error(namePointer,
                         Tr::tr("duplicate tool name %1 (first used at %2)")
                             .arg(quoted(tool.name), *it));
            } else {
                firstUse.insert(tool.name, pointer);
            }
        }
        tool.description = in.string(object, "description"_L1, pointer).value_or(QString());
        tool.inputSchema = in.object(object, "input_schema"_L1, pointer).value_or(QJsonObject());
        // The model's arguments are checked against it: its cost is bounded before any request.
        if (const auto cost = findSchemaCostProblem(tool.inputSchema))
            in.error(JsonPointer::append(pointer, u"input_schema"_s) + cost->pointer,
                     cost->message);
        const auto approval = in.boolean(object, "requires_approval"_L1, pointer);
        tool.requiresApproval = approval.value_or(false);
        tool.approvalGiven = approval.has_value();
        tool.timeoutMs =
            int(in.integer(object, "timeout_ms"_L1, pointer, 1).value_or(kDefaultTimeoutMs));

        QStringList runners;
        if (Loader::present(object, "command"_L1)) {
            runners.append(u"command"_s);
            tool.runner = ToolRunnerKind::Command;
            tool.command = in.command(object, "command"_L1, pointer).value_or(QStringList());
        }
        if (Loader::present(object, "mcp"_L1)) {
            runners.append(u"mcp"_s);
            tool.runner = ToolRunnerKind::Mcp;
            if (const auto server = in.string(object, "mcp"_L1, pointer, true)) {
                tool.mcpServer = *server;
                if (!spec.mcpServers.contains(*server)
                    && !root.value("mcp_servers"_L1).toObject().contains(*server)) {
                    in.error(JsonPointer::append(pointer, u"mcp"),
                             Tr::tr("unknown MCP server %1 (mcp_servers has no entry of that name)")
                                 .arg(quoted(*server)));
                }
            }
        }
        if (const auto manual = in.boolean(object, "manual"_L1, pointer); manual && *manual) {
            runners.append(u"manual"_s);
            tool.runner = ToolRunnerKind::Manual;
        }
        if (Loader::present(object, "mock"_L1)) {
            runners.append(u"mock"_s);
            tool.runner = ToolRunnerKind::Mock;
            tool.mock = object.value("mock"_L1);
        }
        if (runners.size() > 1) {
            in.error(pointer,
                     Tr::tr("more than one runner (%1); give exactly one of command, mcp, "
                            "manual or mock")
                         .arg(runners.join(u", "_s)));
        } else if (runners.isEmpty() && !in.errors.isEmpty()
                   && in.errors.constLast().pointer == JsonPointer::append(pointer, u"manual")) {
            // "manual" had the wrong type: that error already explains the missing runner.
        } else if (runners.isEmpty()) {
            in.error(pointer, Tr::tr("no runner; give one of command, mcp, manual (true) or mock"));
        }
        tool.unknownFields = Loader::unknownFields(object, knownSpecFields(SpecSection::Tool));
        spec.tools.append(tool);
    }
}

void loadPreSeeds(Loader &in, const QJsonObject &root, Spec &spec, bool toolsValid)
{
    const auto seeds = in.array(root, "pre_seeds"_L1, QString());
    if (!seeds)
        return;
    bool anyExposeAll = false;
    for (const McpServerSpec &server : std::as_const(spec.mcpServers))
        anyExposeAll = anyExposeAll || server.exposeAll;
    for (qsizetype i = 0; i < seeds->size(); ++i) {
        const QString pointer = JsonPointer::append(u"/pre_seeds"_s, i);
        if (!seeds->at(i).isObject()) {
            in.typeError(pointer, Tr::tr("an object"), seeds->at(i));
            continue;
        }
        const QJsonObject object = seeds->at(i).toObject();
        PreSeed seed;
        if (!Loader::present(object, "tool"_L1)) {
            in.missing(pointer, u"tool"_s);
        } else if (const auto tool = in.string(object, "tool"_L1, pointer, true)) {
            seed.tool = *tool;
            if (toolsValid && !spec.tool(*tool) && !anyExposeAll) {
                in.error(
                    JsonPointer::append(pointer, u"tool"),
                    Tr::tr("unknown tool %1 (no entry in tools has that name)").arg(quoted(*tool)));
            }
        }
        seed.arguments = in.object(object, "arguments"_L1, pointer).value_or(QJsonObject());
        seed.unknownFields = Loader::unknownFields(object, { "tool"_L1, "arguments"_L1 });
        spec.preSeeds.append(seed);
    }
}

void loadEngine(Loader &in, const QJsonObject &root, Spec &spec)
{
    const auto object = in.object(root, "engine"_L1, QString());
    if (!object)
        return;
    const QString pointer = u"/engine"_s;
    EngineSpec &engine = spec.engine;
    engine.profile = in.string(*object, "profile"_L1, pointer).value_or(QString());
    if (Loader::present(*object, "type"_L1)) {
        if (const auto type = in.string(*object, "type"_L1, pointer)) {
            if (const auto known = engineTypeFromName(*type)) {
                engine.type = *known;
            } else {
                in.error(JsonPointer::append(pointer, u"type"),
                         Tr::tr("unknown engine type %1 (expected one of %2)")
                             .arg(quoted(*type), engineTypeNames().join(u", "_s)));
            }
        }
    } else if (!engine.profile.isEmpty()) {
        engine.typeFromProfile = true;
    }
    engine.model = in.string(*object, "model"_L1, pointer).value_or(QString());
    if (const auto baseUrl = in.string(*object, "base_url"_L1, pointer)) {
        const QUrl url(*baseUrl, QUrl::StrictMode);
        if (!url.isValid() || (url.scheme() != u"http" && url.scheme() != u"https")
            || url.host().isEmpty()) {
            in.error(
                JsonPointer::append(pointer, u"base_url"),
                Tr::tr("expected an http or https URL such as \"http://127.0.0.1:8080\", got %1")
                    .arg(quoted(*baseUrl)));
        } else {
            engine.baseUrl = *baseUrl;
        }
    }
    if (const auto keyEnv = in.string(*object, "api_key_env"_L1, pointer)) {
        static const QRegularExpression envName(u"^[A-Za-z_][A-Za-z0-9_]*$"_s);
        if (!envName.match(*keyEnv).hasMatch()) {
            in.error(JsonPointer::append(pointer, u"api_key_env"),
                     Tr::tr("expected the name of an environment variable (letters, digits and _), "
                            "not the key itself"));
        } else {
            engine.apiKeyEnv = *keyEnv;
        }
    }
    if (object->contains("api_key"_L1)) {
        in.error(JsonPointer::append(pointer, u"api_key"),
                 Tr::tr("API keys do not belong in spec files; name an environment variable in "
                        "api_key_env or a profile whose key is in the keychain"));
    }
    if (const auto n = in.integer(*object, "max_tokens"_L1, pointer, 1))
        engine.maxTokens = int(*n);
    if (const auto t = in.number(*object, "temperature"_L1, pointer, 0.0))
        engine.temperature = *t;
    if (const auto n = in.integer(*object, "context_window"_L1, pointer, 1,
                                  std::numeric_limits<qint64>::max()))
        engine.contextWindow = *n;
    if (const auto it = object->constFind("tool_results_in_context"_L1); it != object->constEnd()) {
        if (it->isNull()) {
            engine.toolResultsInContext = std::optional<int>();
        } else if (const auto n = in.integerValue(
                       *it, JsonPointer::append(pointer, u"tool_results_in_context"), 0,
                       std::numeric_limits<int>::max())) {
            engine.toolResultsInContext = std::optional<int>(int(*n));
        }
    }
    if (const auto n = in.integer(*object, "tool_results_tokens"_L1, pointer, 0,
                                  std::numeric_limits<qint64>::max()))
        engine.toolResultsTokens = *n;
    if (const auto n =
            in.integer(*object, "timeout_ms"_L1, pointer, 1, std::numeric_limits<int>::max()))
        engine.timeoutMs = *n;
    if (const auto n =
            in.integer(*object, "idle_timeout_ms"_L1, pointer, 1, std::numeric_limits<int>::max()))
        engine.idleTimeoutMs = *n;
    engine.stream = in.boolean(*object, "stream"_L1, pointer).value_or(true);
    engine.replay = in.string(*object, "replay"_L1, pointer, true).value_or(QString());
    if (engine.type == EngineType::Replay && !Loader::present(*object, "replay"_L1)) {
        in.missing(pointer, u"replay"_s,
                   Tr::tr("the replay engine answers from a recording file or a stored call id"));
    }
    engine.unknownFields = Loader::unknownFields(*object, knownSpecFields(SpecSection::Engine));
}

void loadRetry(Loader &in, const QJsonObject &root, Spec &spec)
{
    const auto object = in.object(root, "retry"_L1, QString());
    if (!object)
        return;
    const QString pointer = u"/retry"_s;
    spec.retry.maxAttempts = int(in.integer(*object, "max_attempts"_L1, pointer, 1).value_or(3));
    spec.retry.reask = in.boolean(*object, "reask"_L1, pointer).value_or(false);
    if (const auto schedule = in.array(*object, "per_attempt_override"_L1, pointer)) {
        const QString schedulePointer = JsonPointer::append(pointer, u"per_attempt_override");
        for (qsizetype i = 0; i < schedule->size(); ++i) {
            if (!schedule->at(i).isObject())
                in.typeError(JsonPointer::append(schedulePointer, i), Tr::tr("an object"),
                             schedule->at(i));
            else
                spec.retry.perAttemptOverride.append(schedule->at(i).toObject());
        }
    }
    spec.retry.unknownFields = Loader::unknownFields(*object, knownSpecFields(SpecSection::Retry));
}

void loadContext(Loader &in, const QJsonObject &root, Spec &spec)
{
    const auto object = in.object(root, "context"_L1, QString());
    if (!object)
        return;
    const QString pointer = u"/context"_s;
    ContextSpec &context = spec.context;
    if (const auto it = object->constFind("tool_results_in_context"_L1); it != object->constEnd()) {
        if (it->isNull()) {
            context.toolResultsInContext = std::nullopt;
        } else if (const auto n = in.integerValue(
                       *it, JsonPointer::append(pointer, u"tool_results_in_context"), 0,
                       std::numeric_limits<int>::max())) {
            context.toolResultsInContext = int(*n);
        }
    }
    if (const auto n = in.integer(*object, "tool_results_tokens"_L1, pointer, 0,
                                  std::numeric_limits<qint64>::max()))
        context.toolResultsTokens = *n;
    if (const auto n = in.integer(*object, "tool_results_chars"_L1, pointer, 0,
                                  std::numeric_limits<qint64>::max()))
        context.toolResultsChars = *n;
    context.imagesInContext =
        int(in.integer(*object, "images_in_context"_L1, pointer, 0).value_or(2));
    context.unknownFields = Loader::unknownFields(*object, knownSpecFields(SpecSection::Context));
}

// --- Saving ---------------------------------------------------------------------------------

void putUnknown(QJsonObject &object, const QJsonObject &unknown)
{
    for (auto it = unknown.constBegin(); it != unknown.constEnd(); ++it) {
        if (!object.contains(it.key()))
            object.insert(it.key(), it.value());
    }
}

QJsonArray toArray(const QStringList &list)
{
    return QJsonArray::fromStringList(list);
}

QJsonValue optionalCount(const std::optional<int> &value)
{
    return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

QJsonObject toolToJson(const ToolSpec &tool)
{
    QJsonObject o;
    o.insert("name"_L1, tool.name);
    if (!tool.description.isEmpty())
        o.insert("description"_L1, tool.description);
    if (!tool.inputSchema.isEmpty())
        o.insert("input_schema"_L1, tool.inputSchema);
    if (tool.requiresApproval || tool.approvalGiven)
        o.insert("requires_approval"_L1, tool.requiresApproval);
    if (tool.timeoutMs != kDefaultTimeoutMs)
        o.insert("timeout_ms"_L1, tool.timeoutMs);
    switch (tool.runner) {
    case ToolRunnerKind::Command:
        o.insert("command"_L1, toArray(tool.command));
        break;
    case ToolRunnerKind::Mcp:
        o.insert("mcp"_L1, tool.mcpServer);
        break;
    case ToolRunnerKind::Manual:
        o.insert("manual"_L1, true);
        break;
    case ToolRunnerKind::Mock:
        o.insert("mock"_L1, tool.mock);
        break;
    case ToolRunnerKind::None:
        break;
    }
    putUnknown(o, tool.unknownFields);
    return o;
}

QJsonObject engineToJson(const EngineSpec &engine)
{
    QJsonObject o;
    if (!engine.typeFromProfile || engine.profile.isEmpty())
        o.insert("type"_L1, engineTypeName(engine.type));
    if (!engine.model.isEmpty())
        o.insert("model"_L1, engine.model);
    if (!engine.baseUrl.isEmpty())
        o.insert("base_url"_L1, engine.baseUrl);
    if (!engine.apiKeyEnv.isEmpty())
        o.insert("api_key_env"_L1, engine.apiKeyEnv);
    if (!engine.profile.isEmpty())
        o.insert("profile"_L1, engine.profile);
    if (engine.maxTokens)
        o.insert("max_tokens"_L1, *engine.maxTokens);
    if (engine.temperature)
        o.insert("temperature"_L1, *engine.temperature);
    if (engine.contextWindow)
        o.insert("context_window"_L1, double(*engine.contextWindow));
    if (engine.toolResultsInContext)
        o.insert("tool_results_in_context"_L1, optionalCount(*engine.toolResultsInContext));
    if (engine.toolResultsTokens)
        o.insert("tool_results_tokens"_L1, double(*engine.toolResultsTokens));
    if (engine.timeoutMs)
        o.insert("timeout_ms"_L1, double(*engine.timeoutMs));
    if (engine.idleTimeoutMs)
        o.insert("idle_timeout_ms"_L1, double(*engine.idleTimeoutMs));
    if (!engine.stream)
        o.insert("stream"_L1, false);
    if (!engine.replay.isEmpty())
        o.insert("replay"_L1, engine.replay);
    putUnknown(o, engine.unknownFields);
    return o;
}

// Key order for saved files: the order of the spec format in the README for spec objects, a
// readable order for schemas, alphabetical for maps (QJsonObject forgets the order it was read in).
enum class Shape {
    Spec,
    Tool,
    Engine,
    Retry,
    Context,
    McpServer,
    PreSeed,
    TextOutput,
    Schema,
    SchemaMap,
    ServerMap,
    Plain
};

QStringList keyOrder(Shape shape)
{
    switch (shape) {
    case Shape::Spec:
        return { u"kind"_s,        u"system_prompt"_s, u"response_schema"_s, u"output_parser"_s,
                 u"output_mode"_s, u"text_output"_s,   u"tools"_s,           u"mcp_servers"_s,
                 u"pre_seeds"_s,   u"max_turns"_s,     u"engine"_s,          u"retry"_s,
                 u"context"_s,     u"cache"_s,         u"stop_early"_s };
    case Shape::Tool:
        return { u"name"_s,       u"description"_s, u"input_schema"_s, u"requires_approval"_s,
                 u"timeout_ms"_s, u"command"_s,     u"mcp"_s,          u"manual"_s,
                 u"mock"_s };
    case Shape::Engine:
        return { u"type"_s,
                 u"model"_s,
                 u"base_url"_s,
                 u"api_key_env"_s,
                 u"profile"_s,
                 u"max_tokens"_s,
                 u"temperature"_s,
                 u"context_window"_s,
                 u"tool_results_in_context"_s,
                 u"tool_results_tokens"_s,
                 u"timeout_ms"_s,
                 u"idle_timeout_ms"_s,
                 u"stream"_s,
                 u"replay"_s };
    case Shape::Retry:
        return { u"max_attempts"_s, u"reask"_s, u"per_attempt_override"_s };
    case Shape::Context:
        return { u"tool_results_in_context"_s, u"tool_results_tokens"_s, u"tool_results_chars"_s,
                 u"images_in_context"_s };
    case Shape::McpServer:
        return { u"command"_s,  u"url"_s, u"headers"_s, u"auth"_s,
                 u"approval"_s, u"env"_s, u"expose"_s };
    case Shape::PreSeed:
        return { u"tool"_s, u"arguments"_s };
    case Shape::TextOutput:
        return { u"field"_s };
    case Shape::Schema:
        return {
            u"$schema"_s, u"$id"_s,   u"title"_s,      u"description"_s, u"type"_s,
            u"enum"_s,    u"const"_s, u"properties"_s, u"required"_s,    u"additionalProperties"_s,
            u"items"_s
        };
    case Shape::SchemaMap:
    case Shape::ServerMap:
    case Shape::Plain:
        break;
    }
    return {};
}

Shape childShape(Shape parent, const QString &key)
{
    static const QSet<QString> schemaValued = { u"items"_s,
                                                u"additionalProperties"_s,
                                                u"not"_s,
                                                u"if"_s,
                                                u"then"_s,
                                                u"else"_s,
                                                u"contains"_s,
                                                u"propertyNames"_s,
                                                u"unevaluatedItems"_s,
                                                u"unevaluatedProperties"_s,
                                                u"additionalItems"_s,
                                                u"anyOf"_s,
                                                u"oneOf"_s,
                                                u"allOf"_s,
                                                u"prefixItems"_s };
    static const QSet<QString> schemaMaps = { u"properties"_s, u"$defs"_s, u"definitions"_s,
                                              u"patternProperties"_s, u"dependentSchemas"_s };
    switch (parent) {
    case Shape::Spec:
        if (key == u"tools")
            return Shape::Tool;
        if (key == u"response_schema")
            return Shape::Schema;
        if (key == u"engine")
            return Shape::Engine;
        if (key == u"retry")
            return Shape::Retry;
        if (key == u"context")
            return Shape::Context;
        if (key == u"mcp_servers")
            return Shape::ServerMap;
        if (key == u"pre_seeds")
            return Shape::PreSeed;
        if (key == u"text_output")
            return Shape::TextOutput;
        return Shape::Plain;
    case Shape::Tool:
        return key == u"input_schema" ? Shape::Schema : Shape::Plain;
    case Shape::ServerMap:
        return Shape::McpServer;
    case Shape::Schema:
        if (schemaValued.contains(key))
            return Shape::Schema;
        if (schemaMaps.contains(key))
            return Shape::SchemaMap;
        return Shape::Plain;
    case Shape::SchemaMap:
        return Shape::Schema;
    default:
        return Shape::Plain;
    }
}

QByteArray scalarText(const QJsonValue &value)
{
    const QByteArray wrapped = QJsonDocument(QJsonArray { value }).toJson(QJsonDocument::Compact);
    return wrapped.mid(1, wrapped.size() - 2);
}

void writeValue(QByteArray &out, const QJsonValue &value, Shape shape, int indent)
{
    const QByteArray pad(indent * 4, ' ');
    const QByteArray innerPad((indent + 1) * 4, ' ');
    if (value.isArray()) {
        const QJsonArray array = value.toArray();
        if (array.isEmpty()) {
            out += "[]";
            return;
        }
        // Arrays of scalars stay on one line when short: ["prog", "arg"], ["a", "b"].
        bool allScalar = true;
        for (const QJsonValue &item : array)
            allScalar = allScalar && !item.isArray() && !item.isObject();
        if (allScalar) {
            QByteArray line = "[";
            for (qsizetype i = 0; i < array.size(); ++i)
                line += (i ? ", " : "") + scalarText(array.at(i));
            line += ']';
            if (line.size() + indent * 4 <= 96) {
                out += line;
                return;
            }
        }
        out += "[\n";
        for (qsizetype i = 0; i < array.size(); ++i) {
            out += innerPad;
            writeValue(out, array.at(i), shape, indent + 1);
            out += i + 1 < array.size() ? ",\n" : "\n";
        }
        out += pad + ']';
        return;
    }
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        if (object.isEmpty()) {
            out += "{}";
            return;
        }
        QStringList keys;
        for (const QString &key : keyOrder(shape)) {
            if (object.contains(key))
                keys.append(key);
        }
        for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
            if (!keys.contains(it.key()))
                keys.append(it.key());
        }
        out += "{\n";
        for (qsizetype i = 0; i < keys.size(); ++i) {
            const QString &key = keys.at(i);
            out += innerPad + scalarText(key) + ": ";
            writeValue(out, object.value(key), childShape(shape, key), indent + 1);
            out += i + 1 < keys.size() ? ",\n" : "\n";
        }
        out += pad + '}';
        return;
    }
    out += scalarText(value);
}

} // namespace

QString SpecError::toString() const
{
    return pointer.isEmpty() ? message : pointer + u": "_s + message;
}

QString jsonTypeDescription(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Null:
        return Tr::tr("null");
    case QJsonValue::Bool:
        return Tr::tr("a boolean");
    case QJsonValue::Double: {
        const double d = value.toDouble();
        return std::floor(d) == d ? Tr::tr("an integer") : Tr::tr("a number");
    }
    case QJsonValue::String:
        return Tr::tr("a string");
    case QJsonValue::Array:
        return Tr::tr("an array");
    case QJsonValue::Object:
        return Tr::tr("an object");
    case QJsonValue::Undefined:
        break;
    }
    return Tr::tr("nothing");
}

SpecLoadResult specFromJson(const QJsonObject &root, const QString &sourcePath)
{
    Loader in;
    Spec spec;
    spec.sourcePath = sourcePath;

    if (Loader::present(root, "kind"_L1)) {
        if (const auto kind = in.string(root, "kind"_L1, QString(), true))
            spec.kind = *kind;
    }
    spec.systemPrompt = in.string(root, "system_prompt"_L1, QString()).value_or(QString());
    if (Loader::present(root, "response_schema"_L1)) {
        const QJsonValue schema = root.value("response_schema"_L1);
        if (schema.isObject()) {
            spec.responseSchema = schema.toObject();
            // A schema no output can satisfy would spend every turn on refused submissions.
            if (const auto cycle = findSchemaCycle(schema))
                in.error(u"/response_schema"_s + cycle->pointer, schemaCycleMessage(*cycle));
            // Nor one whose checking would take unbounded work (a fan-out, a deep $ref chain).
            else if (const auto cost = findSchemaCostProblem(schema))
                in.error(u"/response_schema"_s + cost->pointer, cost->message);
        } else {
            in.typeError(u"/response_schema"_s, Tr::tr("an object"), schema);
        }
    }
    if (const auto parser = in.string(root, "output_parser"_L1, QString())) {
        if (*parser == u"json" || *parser == u"text")
            spec.outputParser = *parser;
        else
            in.error(
                u"/output_parser"_s,
                Tr::tr("unknown output parser %1 (expected json or text)").arg(quoted(*parser)));
    }
    if (const auto mode = in.string(root, "output_mode"_L1, QString())) {
        if (const auto known = outputModeFromName(*mode))
            spec.outputMode = *known;
        else
            in.error(u"/output_mode"_s,
                     Tr::tr("unknown output mode %1 (expected tool, native or prompted)")
                         .arg(quoted(*mode)));
    }
    if (const auto textOutput = in.object(root, "text_output"_L1, QString())) {
        const QString pointer = u"/text_output"_s;
        if (!Loader::present(*textOutput, "field"_L1)) {
            in.missing(pointer, u"field"_s,
                       Tr::tr("the submit_output argument a plain-text answer goes into"));
        } else if (const auto field = in.string(*textOutput, "field"_L1, pointer, true)) {
            spec.textOutputField = *field;
        }
        spec.textOutputUnknownFields = Loader::unknownFields(*textOutput, { "field"_L1 });
        if (!Loader::present(root, "response_schema"_L1)) {
            in.error(pointer,
                     Tr::tr("needs a response_schema: text_output maps a plain-text answer "
                            "onto the arguments of submit_output"));
        }
    }

    if (const auto stopEarly = in.boolean(root, "stop_early"_L1, QString()))
        spec.stopEarly = *stopEarly;

    loadMcpServers(in, root, spec);
    const qsizetype errorsBeforeTools = in.errors.size();
    loadTools(in, root, spec);
    // Names only count as known when every tool entry loaded; otherwise the pre-seed check
    // would report a second, misleading error for a tool whose own entry is broken.
    const bool toolsValid = in.errors.size() == errorsBeforeTools;
    loadPreSeeds(in, root, spec, toolsValid);
    if (const auto turns = in.integer(root, "max_turns"_L1, QString(), 1))
        spec.maxTurns = int(*turns);
    loadEngine(in, root, spec);
    loadRetry(in, root, spec);
    loadContext(in, root, spec);
    if (const QJsonValue cache = root.value("cache"_L1); !cache.isUndefined() && !cache.isNull()) {
        QList<CacheSpecError> problems;
        spec.engine.cache = cacheSpecFromJson(cache, u"/cache"_s, &problems);
        for (const CacheSpecError &p : problems)
            in.error(p.pointer, p.message);
    }

    spec.unknownFields = Loader::unknownFields(root, knownSpecFields(SpecSection::Root));

    SpecLoadResult result;
    result.errors = in.errors;
    if (result.errors.isEmpty())
        result.spec = std::move(spec);
    else
        qCDebug(lcSpecIo) << "spec" << sourcePath << "has" << result.errors.size() << "errors";
    return result;
}

SpecLoadResult loadSpec(const QByteArray &json, const QString &sourcePath)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        // QJsonDocument only takes objects and arrays at the top; say what a scalar document
        // holds instead of reporting "illegal value" at its first character.
        const QJsonDocument wrapped = QJsonDocument::fromJson('[' + json + ']');
        if (wrapped.isArray() && wrapped.array().size() == 1) {
            SpecLoadResult result;
            result.errors.append({ QString(),
                                   Tr::tr("expected an object, got %1")
                                       .arg(jsonTypeDescription(wrapped.array().at(0))) });
            return result;
        }
        SpecLoadResult result;
        result.errors.append(
            { QString(),
              describeOffset(json, parseError.offset) + u": "_s + parseError.errorString() });
        return result;
    }
    if (!document.isObject()) {
        SpecLoadResult result;
        result.errors.append({ QString(),
                               Tr::tr("expected an object, got %1")
                                   .arg(document.isArray() ? Tr::tr("an array")
                                                           : jsonTypeDescription(QJsonValue())) });
        return result;
    }
    return specFromJson(document.object(), sourcePath);
}

SpecLoadResult loadSpecFile(const QString &path)
{
    QString error;
    const std::optional<QByteArray> data = readFileBounded(path, MaxSpecFileBytes, &error);
    if (!data) {
        SpecLoadResult result;
        result.errors.append({ QString(), error });
        return result;
    }
    return loadSpec(*data, path);
}

QJsonObject specToJson(const Spec &spec)
{
    QJsonObject o;
    o.insert("kind"_L1, spec.kind);
    o.insert("system_prompt"_L1, spec.systemPrompt);
    if (spec.responseSchema)
        o.insert("response_schema"_L1, *spec.responseSchema);
    if (spec.outputParser != u"json")
        o.insert("output_parser"_L1, spec.outputParser);
    if (spec.outputMode != OutputMode::Tool)
        o.insert("output_mode"_L1, outputModeName(spec.outputMode));
    if (!spec.textOutputField.isEmpty() || !spec.textOutputUnknownFields.isEmpty()) {
        QJsonObject textOutput;
        if (!spec.textOutputField.isEmpty())
            textOutput.insert("field"_L1, spec.textOutputField);
        putUnknown(textOutput, spec.textOutputUnknownFields);
        o.insert("text_output"_L1, textOutput);
    }
    if (spec.stopEarly)
        o.insert("stop_early"_L1, true);
    if (!spec.tools.isEmpty()) {
        QJsonArray tools;
        for (const ToolSpec &tool : spec.tools)
            tools.append(toolToJson(tool));
        o.insert("tools"_L1, tools);
    }
    if (!spec.mcpServers.isEmpty()) {
        QJsonObject servers;
        for (auto it = spec.mcpServers.constBegin(); it != spec.mcpServers.constEnd(); ++it) {
            QJsonObject server;
            if (it->isRemote()) {
                server.insert("url"_L1, it->url);
                if (!it->headers.isEmpty()) {
                    QJsonObject headers;
                    for (auto h = it->headers.constBegin(); h != it->headers.constEnd(); ++h)
                        headers.insert(h.key(), h.value());
                    server.insert("headers"_L1, headers);
                }
                if (it->auth == McpAuthKind::Bearer) {
                    server.insert("auth"_L1, QJsonObject { { "bearer_env"_L1, it->bearerEnv } });
                } else if (it->auth == McpAuthKind::OAuth) {
                    QJsonObject oauth;
                    if (!it->oauthClientId.isEmpty())
                        oauth.insert("client_id"_L1, it->oauthClientId);
                    if (!it->oauthClientSecretEnv.isEmpty())
                        oauth.insert("client_secret_env"_L1, it->oauthClientSecretEnv);
                    if (!it->oauthClientMetadataUrl.isEmpty())
                        oauth.insert("client_metadata_url"_L1, it->oauthClientMetadataUrl);
                    if (!it->oauthScope.isEmpty())
                        oauth.insert("scope"_L1, it->oauthScope);
                    if (oauth.isEmpty())
                        server.insert("auth"_L1, u"oauth"_s);
                    else
                        server.insert("auth"_L1, QJsonObject { { "oauth"_L1, oauth } });
                }
            } else {
                server.insert("command"_L1, toArray(it->command));
            }
            if (it->approval == McpApprovalPolicy::Always)
                server.insert("approval"_L1, u"always"_s);
            else if (it->approval == McpApprovalPolicy::Never)
                server.insert("approval"_L1, u"never"_s);
            if (!it->env.isEmpty()) {
                QJsonObject env;
                for (auto e = it->env.constBegin(); e != it->env.constEnd(); ++e)
                    env.insert(e.key(), e.value());
                server.insert("env"_L1, env);
            }
            if (it->exposeAll)
                server.insert("expose"_L1, u"all"_s);
            putUnknown(server, it->unknownFields);
            servers.insert(it.key(), server);
        }
        o.insert("mcp_servers"_L1, servers);
    }
    if (!spec.preSeeds.isEmpty()) {
        QJsonArray seeds;
        for (const PreSeed &seed : spec.preSeeds) {
            QJsonObject s { { "tool"_L1, seed.tool }, { "arguments"_L1, seed.arguments } };
            putUnknown(s, seed.unknownFields);
            seeds.append(s);
        }
        o.insert("pre_seeds"_L1, seeds);
    }
    if (spec.maxTurns != kDefaultMaxTurns)
        o.insert("max_turns"_L1, spec.maxTurns);
    o.insert("engine"_L1, engineToJson(spec.engine));
    if (spec.retry != RetrySpec {}) {
        QJsonObject retry;
        const RetrySpec defaults;
        if (spec.retry.maxAttempts != defaults.maxAttempts)
            retry.insert("max_attempts"_L1, spec.retry.maxAttempts);
        if (spec.retry.reask != defaults.reask)
            retry.insert("reask"_L1, spec.retry.reask);
        if (!spec.retry.perAttemptOverride.isEmpty()) {
            QJsonArray schedule;
            for (const QJsonObject &entry : spec.retry.perAttemptOverride)
                schedule.append(entry);
            retry.insert("per_attempt_override"_L1, schedule);
        }
        putUnknown(retry, spec.retry.unknownFields);
        o.insert("retry"_L1, retry);
    }
    if (spec.context != ContextSpec {}) {
        QJsonObject context;
        const ContextSpec defaults;
        if (spec.context.toolResultsInContext != defaults.toolResultsInContext)
            context.insert("tool_results_in_context"_L1,
                           optionalCount(spec.context.toolResultsInContext));
        if (spec.context.toolResultsTokens)
            context.insert("tool_results_tokens"_L1, double(*spec.context.toolResultsTokens));
        if (spec.context.toolResultsChars)
            context.insert("tool_results_chars"_L1, double(*spec.context.toolResultsChars));
        if (spec.context.imagesInContext != defaults.imagesInContext)
            context.insert("images_in_context"_L1, spec.context.imagesInContext);
        putUnknown(context, spec.context.unknownFields);
        o.insert("context"_L1, context);
    }
    if (spec.engine.cache)
        o.insert("cache"_L1, spec.engine.cache->toJson());
    putUnknown(o, spec.unknownFields);
    return o;
}

QByteArray saveSpec(const Spec &spec)
{
    QByteArray out;
    writeValue(out, specToJson(spec), Shape::Spec, 0);
    out += '\n';
    return out;
}

std::optional<QString> saveSpecFile(const Spec &spec, const QString &path)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return Tr::tr("cannot write %1: %2").arg(path, file.errorString());
    const QByteArray bytes = saveSpec(spec);
    if (file.write(bytes) != bytes.size() || !file.commit())
        return Tr::tr("cannot write %1: %2").arg(path, file.errorString());
    return std::nullopt;
}

} // namespace Callscope
