#pragma once

// The contract between the runner and the tools: a Toolkit offers declarations and starts
// ToolJobs. Every job ends with exactly one `finished`, carrying a ToolResult (errors are
// results with isError set, never exceptions or crashes).

#include "core/engines/modelclient.h"
#include "core/model/message.h"

#include <QObject>

namespace Callscope {

class ToolJob : public QObject
{
    Q_OBJECT

public:
    explicit ToolJob(QObject *parent = nullptr)
        : QObject(parent)
    { }
    ~ToolJob() override = default;

    virtual void start() = 0;
    virtual void cancel() = 0; // ends the job at once with an error result

Q_SIGNALS:
    void finished(const Callscope::ToolResult &result);
};

class Toolkit : public QObject
{
    Q_OBJECT

public:
    explicit Toolkit(QObject *parent = nullptr)
        : QObject(parent)
    { }
    ~Toolkit() override = default;

    // Some toolkits (MCP) must start a server and list its tools first. `ready` follows
    // exactly once; an empty error means the toolkit can be used.
    virtual void prepare() { Q_EMIT ready(QString()); }
    virtual QList<ToolDeclaration> declarations() const = 0;
    virtual bool offers(const QString &toolName) const = 0;
    // The job is parented to `parent` and not started; the caller connects, then start()s it.
    virtual ToolJob *createJob(const ToolCall &call, QObject *parent) = 0;
    virtual void shutdown() { }
    // Whether a call of this tool needs a person's approval when the spec entry does not say
    // (requires_approval absent); MCP servers decide by their tools' annotations.
    virtual bool needsApproval(const QString &toolName) const
    {
        Q_UNUSED(toolName);
        return false;
    }

Q_SIGNALS:
    void ready(const QString &error);
};

} // namespace Callscope
