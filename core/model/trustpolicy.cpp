#include "core/model/trustpolicy.h"

#include "core/model/specio.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSet>
#include <QSettings>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Callscope::TrustPolicy)
};

QString quoted(const QStringList &commandLine)
{
    QStringList parts;
    for (const QString &part : commandLine) {
        if (part.isEmpty() || part.contains(u' ') || part.contains(u'"') || part.contains(u'\''))
            parts.append(u'"' + QString(part).replace(u'"', u"\\\""_s) + u'"');
        else
            parts.append(part);
    }
    return parts.join(u' ');
}

} // namespace

QString RunItem::describe() const
{
    const QString folder = QDir::toNativeSeparators(workingFolder);
    switch (kind) {
    case Kind::CommandTool:
        return Tr::tr("command tool %1 runs: %2 (in %3)").arg(name, quoted(commandLine), folder);
    case Kind::PreSeed:
        return Tr::tr("pre-seeded call of %1 runs before the first request: %2 (in %3)")
            .arg(name, quoted(commandLine), folder);
    case Kind::McpServer:
        return Tr::tr("MCP server %1 starts: %2 (in %3)").arg(name, quoted(commandLine), folder);
    case Kind::Assertion:
        return Tr::tr("assertion %1 runs: %2 (in %3)").arg(name, quoted(commandLine), folder);
    case Kind::KeyVariable:
        return Tr::tr("reads the environment variable %1 as a key (%2)").arg(name, pointer);
    }
    return {};
}

bool isProviderKeyVariable(const QString &name)
{
    return name.size() > 8 && name.endsWith(u"_API_KEY"_s);
}

QStringList allowedKeyVariablesSetting()
{
    QSettings settings;
    QStringList names = settings.value(u"keys/allowed_env"_s).toStringList();
    // A single value written by hand may be a comma separated list.
    QStringList out;
    for (const QString &entry : std::as_const(names)) {
        for (const QString &part : entry.split(u',', Qt::SkipEmptyParts))
            out.append(part.trimmed());
    }
    return out;
}

bool keyVariableAllowed(const QString &name, const QStringList &extra)
{
    if (isProviderKeyVariable(name) || extra.contains(name))
        return true;
    return allowedKeyVariablesSetting().contains(name);
}

QString specWorkingFolder(const Spec &spec)
{
    return spec.sourcePath.isEmpty() ? QDir::currentPath()
                                     : QFileInfo(spec.sourcePath).absolutePath();
}

QList<RunItem> specRunItems(const Spec &spec, const QStringList &allowedVariables)
{
    QList<RunItem> items;
    const QString folder = specWorkingFolder(spec);
    QStringList allowed = allowedVariables;
    allowed += allowedKeyVariablesSetting();
    auto variable = [&](const QString &name, const QString &pointer) {
        if (name.isEmpty() || isProviderKeyVariable(name) || allowed.contains(name))
            return;
        items.append({ RunItem::Kind::KeyVariable, name, {}, {}, pointer });
    };
    variable(spec.engine.apiKeyEnv, u"/engine/api_key_env"_s);

    QSet<QString> usedServers;
    for (qsizetype i = 0; i < spec.tools.size(); ++i) {
        const ToolSpec &tool = spec.tools.at(i);
        if (tool.runner == ToolRunnerKind::Mcp)
            usedServers.insert(tool.mcpServer);
        if (tool.runner == ToolRunnerKind::Command && !tool.command.isEmpty())
            items.append({ RunItem::Kind::CommandTool, tool.name, tool.command, folder,
                           u"/tools/%1/command"_s.arg(i) });
    }
    for (qsizetype i = 0; i < spec.preSeeds.size(); ++i) {
        const ToolSpec *tool = spec.tool(spec.preSeeds.at(i).tool);
        if (tool && tool->runner == ToolRunnerKind::Command && !tool->command.isEmpty())
            items.append({ RunItem::Kind::PreSeed, tool->name, tool->command, folder,
                           u"/pre_seeds/%1"_s.arg(i) });
    }
    for (auto it = spec.mcpServers.cbegin(); it != spec.mcpServers.cend(); ++it) {
        const McpServerSpec &server = it.value();
        const QString pointer = u"/mcp_servers/"_s + it.key();
        if (!server.command.isEmpty() && (usedServers.contains(it.key()) || server.exposeAll))
            items.append({ RunItem::Kind::McpServer, it.key(), server.command, folder,
                           pointer + u"/command"_s });
        if (server.auth == McpAuthKind::Bearer)
            variable(server.bearerEnv, pointer + u"/auth/bearer_env"_s);
        if (server.auth == McpAuthKind::OAuth)
            variable(server.oauthClientSecretEnv, pointer + u"/auth/client_secret_env"_s);
    }
    return items;
}

QByteArray specTrustDigest(const Spec &spec)
{
    const QByteArray canonical = QJsonDocument(specToJson(spec)).toJson(QJsonDocument::Compact);
    return QCryptographicHash::hash(canonical, QCryptographicHash::Sha256).toHex();
}

QString engineOrigin(EngineType type, const QString &baseUrl)
{
    QString address = baseUrl;
    if (address.isEmpty()) {
        switch (type) {
        case EngineType::OpenAI:
        case EngineType::OpenAIResponses:
            address = u"https://api.openai.com"_s;
            break;
        case EngineType::Anthropic:
            address = u"https://api.anthropic.com"_s;
            break;
        case EngineType::Gemini:
            address = u"https://generativelanguage.googleapis.com"_s;
            break;
        case EngineType::OpenAICompatible:
            address = u"http://localhost:11434"_s;
            break;
        case EngineType::Replay:
            return {};
        }
    }
    const QUrl url(address);
    if (!url.isValid() || url.host().isEmpty())
        return {};
    const QString scheme = url.scheme().toLower();
    const int port = url.port(scheme == u"https"_s ? 443 : 80);
    return scheme + u"://"_s + url.host().toLower() + u':' + QString::number(port);
}

std::optional<QString> keyRedirectProblem(const EngineSpec &fileEngine, const QString &profileName,
                                          EngineType profileType, const QString &profileBaseUrl)
{
    const EngineType type = fileEngine.typeFromProfile ? profileType : fileEngine.type;
    const QString base = fileEngine.baseUrl.isEmpty() ? profileBaseUrl : fileEngine.baseUrl;
    const QString own = engineOrigin(profileType, profileBaseUrl);
    const QString asked = engineOrigin(type, base);
    if (type == profileType && asked == own)
        return std::nullopt;
    if (type != profileType) {
        return Tr::
            tr("the spec names the engine profile \"%1\" (%2 at %3) but asks for the engine "
               "type %4 at %5: "
               "the profile's key goes only to its own engine. Remove \"type\" and \"base_url\" "
               "from the "
               "engine block, or make a profile for the other engine.")
                .arg(profileName, engineTypeName(profileType), own, engineTypeName(type),
                     asked.isEmpty() ? base : asked);
    }
    return Tr::
        tr("the spec names the engine profile \"%1\" whose key belongs to %2 but sends requests "
           "to %3: "
           "the profile's key goes only to its own address. Remove \"base_url\" from the engine "
           "block, "
           "or make a profile for the other address.")
            .arg(profileName, own, asked.isEmpty() ? base : asked);
}

} // namespace Callscope
