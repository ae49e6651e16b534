#include "core/service/preflight.h"

#include "core/tools/toolprocess.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QSet>
#include <QStringList>
#include <QUrl>

#include <atomic>

using namespace Qt::StringLiterals;

Q_LOGGING_CATEGORY(lcLaunch, "callscope.launch", QtInfoMsg)

namespace Callscope {

namespace {

std::atomic<quint64> s_preflights { 0 };

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Callscope::Preflight)
};

} // namespace

QString PreflightResult::text() const
{
    QStringList lines;
    for (const PreflightProblem &p : problems)
        lines.append(p.message);
    return lines.join(u'\n');
}

PreflightResult preflightEngine(const Spec &spec)
{
    return preflightEngine(spec, spec.engine);
}

quint64 preflightCount()
{
    return s_preflights.load();
}

PreflightResult preflightEngine(const Spec &spec, const EngineSpec &engine)
{
    ++s_preflights;
    qCDebug(lcLaunch) << "preflight of the engine" << engineTypeName(engine.type) << engine.model;
    PreflightResult result;
    auto add = [&result](PreflightProblem::Field field, const QString &pointer,
                         const QString &message) {
        result.problems.append({ field, pointer, message });
    };

    if (engine.type == EngineType::Replay) {
        static const QRegularExpression callId(u"^\\d+$"_s);
        if (engine.replay.trimmed().isEmpty()) {
            add(PreflightProblem::Field::Replay, u"/engine/replay"_s,
                Tr::tr("The replay engine needs a recording: a recording file or a stored call id "
                       "(Replay from in the Engine tab; \"replay\" of the spec's engine)."));
        } else if (!callId.match(engine.replay).hasMatch()) {
            const QString path = spec.resolvePath(engine.replay);
            if (!QFileInfo(path).isFile())
                add(PreflightProblem::Field::Replay, u"/engine/replay"_s,
                    Tr::tr(
                        "The recording %1 does not exist (a recording named in the spec is found "
                        "relative to the spec's folder).")
                        .arg(path));
        }
        return result;
    }

    if (engine.model.trimmed().isEmpty())
        add(PreflightProblem::Field::Model, u"/engine/model"_s,
            Tr::tr("No model is set: name the model your provider lists (Model in the Engine tab; "
                   "\"model\" of the spec's engine)."));

    if (!engine.baseUrl.trimmed().isEmpty()) {
        const QUrl url(engine.baseUrl.trimmed(), QUrl::StrictMode);
        const QString scheme = url.scheme().toLower();
        if (!url.isValid() || (scheme != u"http" && scheme != u"https") || url.host().isEmpty())
            add(PreflightProblem::Field::BaseUrl, u"/engine/base_url"_s,
                Tr::tr("The base URL \"%1\" is not a web address: it must start with https:// (or "
                       "http://) and name a host.")
                    .arg(engine.baseUrl));
    } else if (engine.type == EngineType::OpenAICompatible) {
        add(PreflightProblem::Field::BaseUrl, u"/engine/base_url"_s,
            Tr::tr("An OpenAI-compatible engine needs the address of its server (Base URL in the "
                   "Engine tab; \"base_url\" of the spec's engine)."));
    }

    // The variable is the only key source besides the profile's keychain entry; with no profile
    // an unset variable cannot be made up for.
    if (!engine.apiKeyEnv.isEmpty() && engine.profile.isEmpty()
        && qEnvironmentVariable(engine.apiKeyEnv.toLocal8Bit().constData()).isEmpty())
        add(PreflightProblem::Field::Key, u"/engine/api_key_env"_s,
            Tr::tr("No key found: the environment variable %1, named as the key variable of the "
                   "engine, is not set. Set it, "
                   "or use an engine profile with a stored key.")
                .arg(engine.apiKeyEnv));
    return result;
}

PreflightResult preflightTools(const Spec &spec)
{
    PreflightResult result;
    const QString folder =
        spec.sourcePath.isEmpty() ? QDir::currentPath() : QFileInfo(spec.sourcePath).absolutePath();
    auto missing = [&folder](const QString &program) {
        return ToolProcess::resolveProgram(program, folder).isEmpty();
    };
    auto where = [&folder](const QString &program) {
        return program.contains(u'/')
            ? Tr::tr("relative to %1").arg(QDir::toNativeSeparators(folder))
            : Tr::tr("on PATH");
    };
    QSet<QString> usedServers;
    for (qsizetype i = 0; i < spec.tools.size(); ++i) {
        const ToolSpec &tool = spec.tools.at(i);
        if (tool.runner == ToolRunnerKind::Mcp)
            usedServers.insert(tool.mcpServer);
        if (tool.runner != ToolRunnerKind::Command || tool.command.isEmpty())
            continue;
        const QString program = tool.command.constFirst();
        if (missing(program))
            result.problems.append(
                { PreflightProblem::Field::Tool, u"/tools/%1/command"_s.arg(i),
                  Tr::tr("The tool \"%1\" cannot start: its program \"%2\" was not found %3 "
                         "(or is not executable). Install it, or fix tools[%4].command.")
                      .arg(tool.name, program, where(program))
                      .arg(i) });
    }
    for (auto it = spec.mcpServers.cbegin(); it != spec.mcpServers.cend(); ++it) {
        const McpServerSpec &server = it.value();
        if ((!usedServers.contains(it.key()) && !server.exposeAll) || server.command.isEmpty())
            continue; // not started by a run, or not a program at all
        const QString program = server.command.constFirst();
        if (missing(program))
            result.problems.append(
                { PreflightProblem::Field::Tool, u"/mcp_servers/%1/command"_s.arg(it.key()),
                  Tr::tr("The MCP server \"%1\" cannot start: its program \"%2\" was not found %3 "
                         "(or is not executable). Install it, or fix mcp_servers.%1.command.")
                      .arg(it.key(), program, where(program)) });
    }
    return result;
}

PreflightResult checkKey(const EngineSpec &engine, const QString &key)
{
    PreflightResult result;
    if (engine.type == EngineType::Replay || engine.type == EngineType::OpenAICompatible
        || !key.isEmpty() || !engine.baseUrl.trimmed().isEmpty())
        return result;
    result.problems.append(
        { PreflightProblem::Field::Key, u"/engine/api_key_env"_s,
          Tr::tr(
              "No key found for %1: name the environment variable that holds it (API key variable "
              "in the Engine tab; "
              "\"api_key_env\" of the spec's engine), or pick an engine profile with a stored key "
              "(Preferences, or callscope-cli engines add).")
              .arg(engineTypeName(engine.type)) });
    return result;
}

} // namespace Callscope
