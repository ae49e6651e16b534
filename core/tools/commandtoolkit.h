#pragma once

// Tools that run a program (ToolSpec::command). The program is started
// directly with its argument vector, never through a shell. The call's arguments go to stdin
// as compact JSON, then stdin is closed; stdout is the result.
//
// Error results (isError set), each saying what happened:
//  - the program is not found or cannot start (the message names it);
//  - it exits with a non-zero code, is killed by a signal, or writes anything to stderr
//    (the message gives the exit code and up to 16 KiB of stderr and stdout);
//  - it runs longer than ToolSpec::timeoutMs: "timed out after N ms". Its process group gets
//    SIGTERM, then SIGKILL after a grace period, without anyone waiting for it;
//  - it writes more than outputLimit() bytes to stdout or to stderr: it is stopped the same
//    way and the result is an error saying where it was cut, with a short preview. A partial
//    output is never passed on as if it were the answer (cut JSON would mislead the model).
// Output that is not valid UTF-8 is decoded with U+FFFD replacement characters and a note
// is appended to the content.
// The working directory is workingDirectory() (buildToolkits() sets the spec file's folder),
// else the current one; a relative program path with a slash is taken from there too. The
// environment is inherited as it is.

#include "core/model/spec.h"
#include "core/tools/basictooljob.h"
#include "core/tools/toolkit.h"

#include <QHash>
#include <QTimer>

class QProcess;

namespace Callscope {

struct CommandSettings
{
    QString workingDirectory;
    qint64 outputLimit = 1024 * 1024; // per stream
    int killGraceMs = 2000;
};

class CommandJob final : public BasicToolJob
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CommandJob)

public:
    CommandJob(const ToolSpec &tool, const ToolCall &call, const CommandSettings &settings,
               QObject *parent = nullptr);
    ~CommandJob() override;

    qint64 processId() const { return m_pid; }

protected:
    void begin() override;
    void release() override;

private:
    void readStdout();
    void readStderr();
    void onFinished(int exitCode, int exitStatus);
    void onProcessError(int error);
    void overflow(const QString &stream, const QByteArray &head);
    QString failureText(const QString &what) const;

    ToolSpec m_tool;
    CommandSettings m_settings;
    QString m_program;
    QProcess *m_process = nullptr;
    QTimer m_timer;
    QByteArray m_stdout;
    QByteArray m_stderr;
    qint64 m_pid = 0;
};

class CommandToolkit final : public Toolkit
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CommandToolkit)

public:
    static constexpr qint64 DefaultOutputLimit = 1024 * 1024;

    // Keeps the tools whose runner is Command; others are ignored.
    explicit CommandToolkit(const QList<ToolSpec> &tools, QObject *parent = nullptr);

    void setWorkingDirectory(const QString &directory) { m_settings.workingDirectory = directory; }
    QString workingDirectory() const { return m_settings.workingDirectory; }
    // Cap on stdout and on stderr, each (default 1 MiB).
    void setOutputLimit(qint64 bytes) { m_settings.outputLimit = qMax<qint64>(1, bytes); }
    qint64 outputLimit() const { return m_settings.outputLimit; }
    // Time between SIGTERM and SIGKILL when a tool is stopped (default 2 s).
    void setKillGraceMs(int ms) { m_settings.killGraceMs = qMax(0, ms); }

    QList<ToolDeclaration> declarations() const override;
    bool offers(const QString &toolName) const override;
    ToolJob *createJob(const ToolCall &call, QObject *parent) override;

private:
    QList<ToolSpec> m_tools;
    CommandSettings m_settings;
};

// The declaration of a spec tool: its schema, or {"type":"object"} when it gives none.
ToolDeclaration declarationOf(const ToolSpec &tool);

} // namespace Callscope
