#pragma once

// Building the toolkits a spec needs, and finding a tool among them.
//
// buildToolkits() makes one CommandToolkit (if the spec has command tools), one MockToolkit
// (if it has mock tools) and one McpToolkit per MCP server that an entry names or that
// exposes all its tools. Manual tools get no toolkit: the runner pauses for them.
//
// ToolRegistry owns such a set, prepares all of them at once and then answers which toolkit
// offers a name and what to declare to the model, in spec order (then the tools servers
// expose beyond the spec's entries, in the order they list them). A toolkit whose prepare()
// failed still answers for its spec entries (their calls end with error results); the
// registry's `ready` carries every error, one per line.

#include "core/engines/modelclient.h"
#include "core/model/spec.h"
#include "core/tools/mcptoolkit.h"
#include "core/tools/toolkit.h"

#include <QList>
#include <QObject>
#include <QPointer>

namespace Callscope {

struct ToolkitOptions
{
    // Working directory of command tools and MCP servers. Empty: the folder of the spec file
    // (Spec::sourcePath) when there is one, else the current directory.
    QString workingDirectory;
    qint64 outputLimitBytes = 1024 * 1024; // command tools: cap on stdout and on stderr, each
    int mcpStartupTimeoutMs = 30000;
    int killGraceMs = 2000; // SIGTERM to SIGKILL
    // Asks a person when an MCP server wants input (attended runs); empty: the unattended
    // answer (accept with the defaults, else decline).
    McpElicitationHandler mcpElicitation;
};

QList<Toolkit *> buildToolkits(const Spec &spec, QObject *parent);
QList<Toolkit *> buildToolkits(const Spec &spec, QObject *parent, const ToolkitOptions &options);

class ToolRegistry final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ToolRegistry)

public:
    // Builds the spec's toolkits with buildToolkits() and owns them.
    explicit ToolRegistry(const Spec &spec, QObject *parent = nullptr);
    ToolRegistry(const Spec &spec, const ToolkitOptions &options, QObject *parent = nullptr);
    ~ToolRegistry() override;

    QList<Toolkit *> toolkits() const;

    // Prepares every toolkit; `ready` follows once all have answered (exactly once).
    void prepare();
    bool isReady() const { return m_ready; }
    QString error() const { return m_errors.join(u'\n'); }

    QList<ToolDeclaration> declarations() const;
    bool offers(const QString &toolName) const; // a toolkit's tool or a manual tool
    bool isManual(const QString &toolName) const;
    Toolkit *toolkitFor(const QString &toolName) const; // nullptr for manual and unknown tools
    // A job of the tool's toolkit, not started; nullptr for manual and unknown tools.
    ToolJob *createJob(const ToolCall &call, QObject *parent) const;
    void shutdown();

Q_SIGNALS:
    void ready(const QString &error);

private:
    Spec m_spec;
    QList<QPointer<Toolkit>> m_toolkits;
    QStringList m_errors;
    int m_waiting = 0;
    bool m_preparing = false;
    bool m_ready = false;
};

} // namespace Callscope
