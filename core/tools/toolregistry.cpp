#include "core/tools/toolregistry.h"

#include "core/tools/commandtoolkit.h"
#include "core/tools/mcptoolkit.h"
#include "core/tools/mocktoolkit.h"

#include <QFileInfo>
#include <QLoggingCategory>
#include <QSet>

using namespace Qt::StringLiterals;

namespace Callscope {

Q_LOGGING_CATEGORY(lcToolRegistry, "callscope.tools")

QList<Toolkit *> buildToolkits(const Spec &spec, QObject *parent)
{
    return buildToolkits(spec, parent, ToolkitOptions());
}

QList<Toolkit *> buildToolkits(const Spec &spec, QObject *parent, const ToolkitOptions &options)
{
    QString workingDirectory = options.workingDirectory;
    if (workingDirectory.isEmpty() && !spec.sourcePath.isEmpty())
        workingDirectory = QFileInfo(spec.sourcePath).absolutePath();

    QList<Toolkit *> toolkits;
    bool hasCommand = false;
    bool hasMock = false;
    QSet<QString> servers;
    for (const ToolSpec &tool : spec.tools) {
        hasCommand = hasCommand || tool.runner == ToolRunnerKind::Command;
        hasMock = hasMock || tool.runner == ToolRunnerKind::Mock;
        if (tool.runner == ToolRunnerKind::Mcp) {
            if (spec.mcpServers.contains(tool.mcpServer))
                servers.insert(tool.mcpServer);
            else
                qCWarning(lcToolRegistry) << "tool" << tool.name << "names MCP server"
                                          << tool.mcpServer << "which the spec does not define";
        }
    }
    if (hasCommand) {
        auto *toolkit = new CommandToolkit(spec.tools, parent);
        toolkit->setWorkingDirectory(workingDirectory);
        toolkit->setOutputLimit(options.outputLimitBytes);
        toolkit->setKillGraceMs(options.killGraceMs);
        toolkits.append(toolkit);
    }
    if (hasMock)
        toolkits.append(new MockToolkit(spec.tools, parent));
    for (auto it = spec.mcpServers.cbegin(); it != spec.mcpServers.cend(); ++it) {
        if (!servers.contains(it.key()) && !it.value().exposeAll)
            continue; // defined but unused: not started
        auto *toolkit = new McpToolkit(it.key(), it.value(), spec.tools, parent);
        toolkit->setWorkingDirectory(workingDirectory);
        toolkit->setStartupTimeoutMs(options.mcpStartupTimeoutMs);
        toolkit->setKillGraceMs(options.killGraceMs);
        if (options.mcpElicitation)
            toolkit->setElicitationHandler(options.mcpElicitation);
        toolkits.append(toolkit);
    }
    return toolkits;
}

// ---------------------------------------------------------------------------------------------

ToolRegistry::ToolRegistry(const Spec &spec, QObject *parent)
    : ToolRegistry(spec, ToolkitOptions(), parent)
{ }

ToolRegistry::ToolRegistry(const Spec &spec, const ToolkitOptions &options, QObject *parent)
    : QObject(parent)
    , m_spec(spec)
{
    const QList<Toolkit *> built = buildToolkits(spec, this, options);
    for (Toolkit *toolkit : built)
        m_toolkits.append(toolkit);
    for (const ToolSpec &tool : spec.tools) {
        if (tool.runner == ToolRunnerKind::Mcp && !spec.mcpServers.contains(tool.mcpServer)) {
            m_errors.append(
                tr("Tool \"%1\" names MCP server \"%2\", which the spec does not define.")
                    .arg(tool.name, tool.mcpServer));
        }
    }
}

ToolRegistry::~ToolRegistry()
{
    shutdown();
}

QList<Toolkit *> ToolRegistry::toolkits() const
{
    QList<Toolkit *> result;
    for (const QPointer<Toolkit> &toolkit : m_toolkits) {
        if (toolkit)
            result.append(toolkit);
    }
    return result;
}

void ToolRegistry::prepare()
{
    if (m_preparing || m_ready)
        return;
    m_preparing = true;
    const QList<Toolkit *> all = toolkits();
    m_waiting = int(all.size());
    for (Toolkit *toolkit : all) {
        connect(
            toolkit, &Toolkit::ready, this,
            [this](const QString &error) {
                if (!error.isEmpty())
                    m_errors.append(error);
                if (--m_waiting == 0) {
                    m_ready = true;
                    m_preparing = false;
                    Q_EMIT ready(this->error());
                }
            },
            Qt::SingleShotConnection);
    }
    if (all.isEmpty()) {
        // Nothing to wait for; still answer asynchronously, like the toolkits that start servers.
        QMetaObject::invokeMethod(
            this,
            [this] {
                m_ready = true;
                m_preparing = false;
                Q_EMIT ready(error());
            },
            Qt::QueuedConnection);
        return;
    }
    for (Toolkit *toolkit : all)
        toolkit->prepare();
}

QList<ToolDeclaration> ToolRegistry::declarations() const
{
    QHash<QString, ToolDeclaration> offered;
    QStringList order;
    for (const QPointer<Toolkit> &toolkit : m_toolkits) {
        if (!toolkit)
            continue;
        for (const ToolDeclaration &declaration : toolkit->declarations()) {
            if (offered.contains(declaration.name))
                continue; // the first toolkit that offers a name runs it
            offered.insert(declaration.name, declaration);
            order.append(declaration.name);
        }
    }
    QList<ToolDeclaration> result;
    QSet<QString> seen;
    for (const ToolSpec &tool : m_spec.tools) {
        if (seen.contains(tool.name))
            continue;
        if (tool.runner == ToolRunnerKind::Manual) {
            result.append(declarationOf(tool));
            seen.insert(tool.name);
        } else if (offered.contains(tool.name)) {
            result.append(offered.value(tool.name));
            seen.insert(tool.name);
        }
    }
    for (const QString &name : std::as_const(order)) {
        if (!seen.contains(name)) {
            result.append(offered.value(name));
            seen.insert(name);
        }
    }
    return result;
}

bool ToolRegistry::isManual(const QString &toolName) const
{
    const ToolSpec *tool = m_spec.tool(toolName);
    return tool && tool->runner == ToolRunnerKind::Manual;
}

Toolkit *ToolRegistry::toolkitFor(const QString &toolName) const
{
    if (isManual(toolName))
        return nullptr;
    for (const QPointer<Toolkit> &toolkit : m_toolkits) {
        if (toolkit && toolkit->offers(toolName))
            return toolkit;
    }
    return nullptr;
}

bool ToolRegistry::offers(const QString &toolName) const
{
    return isManual(toolName) || toolkitFor(toolName);
}

ToolJob *ToolRegistry::createJob(const ToolCall &call, QObject *parent) const
{
    Toolkit *toolkit = toolkitFor(call.name);
    return toolkit ? toolkit->createJob(call, parent) : nullptr;
}

void ToolRegistry::shutdown()
{
    for (const QPointer<Toolkit> &toolkit : m_toolkits) {
        if (toolkit)
            toolkit->shutdown();
    }
}

} // namespace Callscope
