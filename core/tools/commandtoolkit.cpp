#include "core/tools/commandtoolkit.h"

#include "core/tools/toolprocess.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QProcess>

using namespace Qt::StringLiterals;

namespace Callscope {

Q_LOGGING_CATEGORY(lcCommandTool, "callscope.tools.command")

namespace {
constexpr qint64 ExcerptBytes = 16 * 1024; // of stderr/stdout quoted in an error result
constexpr qint64 PreviewBytes = 2 * 1024; // of an output that went over the cap
constexpr int DefaultTimeoutMs = 30000;

QString utf8Note()
{
    return QCoreApplication::translate(
        "Callscope::CommandToolkit",
        "[note: the output was not valid UTF-8; invalid bytes were replaced with U+FFFD]");
}
} // namespace

ToolDeclaration declarationOf(const ToolSpec &tool)
{
    ToolDeclaration declaration;
    declaration.name = tool.name;
    declaration.description = tool.description;
    declaration.inputSchema =
        tool.inputSchema.isEmpty() ? QJsonObject { { u"type"_s, u"object"_s } } : tool.inputSchema;
    return declaration;
}

// ---------------------------------------------------------------------------------------------

CommandJob::CommandJob(const ToolSpec &tool, const ToolCall &call, const CommandSettings &settings,
                       QObject *parent)
    : BasicToolJob(call, parent)
    , m_tool(tool)
    , m_settings(settings)
{
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        const int ms = m_timer.interval();
        qCInfo(lcCommandTool) << "tool" << m_tool.name << "timed out after" << ms << "ms";
        finishWithError(tr("Tool \"%1\" timed out after %2 ms; the process was stopped.")
                            .arg(m_tool.name)
                            .arg(ms));
    });
}

CommandJob::~CommandJob()
{
    release();
}

void CommandJob::begin()
{
    if (!call().argumentsError.isEmpty()) {
        finishWithError(tr("Tool \"%1\" was not run: its arguments are not a JSON object (%2).")
                            .arg(m_tool.name, call().argumentsError));
        return;
    }
    if (m_tool.command.isEmpty() || m_tool.command.constFirst().isEmpty()) {
        finishWithError(tr("Tool \"%1\" has an empty command.").arg(m_tool.name));
        return;
    }
    const QString workingDirectory = m_settings.workingDirectory;
    if (!workingDirectory.isEmpty() && !QFileInfo(workingDirectory).isDir()) {
        finishWithError(
            tr("Tool \"%1\" could not start: its working directory \"%2\" does not exist.")
                .arg(m_tool.name, workingDirectory));
        return;
    }
    m_program = ToolProcess::resolveProgram(m_tool.command.constFirst(), workingDirectory);
    if (m_program.isEmpty()) {
        finishWithError(
            tr("Tool \"%1\" could not start: program \"%2\" not found or not executable.")
                .arg(m_tool.name, m_tool.command.constFirst()));
        return;
    }

    m_process = new QProcess(this);
    m_process->setProgram(m_program);
    m_process->setArguments(m_tool.command.mid(1));
    if (!workingDirectory.isEmpty())
        m_process->setWorkingDirectory(workingDirectory);
    ToolProcess::useOwnProcessGroup(m_process);
    connect(m_process, &QProcess::readyReadStandardOutput, this, &CommandJob::readStdout);
    connect(m_process, &QProcess::readyReadStandardError, this, &CommandJob::readStderr);
    connect(m_process, &QProcess::started, this, [this] { m_pid = m_process->processId(); });
    connect(m_process, &QProcess::finished, this,
            [this](int code, QProcess::ExitStatus status) { onFinished(code, int(status)); });
    connect(m_process, &QProcess::errorOccurred, this,
            [this](QProcess::ProcessError error) { onProcessError(int(error)); });

    m_timer.start(m_tool.timeoutMs > 0 ? m_tool.timeoutMs : DefaultTimeoutMs);
    qCDebug(lcCommandTool) << "starting" << m_program << m_tool.command.mid(1);
    m_process->start(QIODevice::ReadWrite);
    if (m_process && m_process->state() != QProcess::NotRunning) {
        m_process->write(QJsonDocument(call().arguments).toJson(QJsonDocument::Compact));
        m_process->closeWriteChannel();
    }
}

void CommandJob::release()
{
    m_timer.stop();
    if (m_process) {
        QProcess *process = m_process;
        m_process = nullptr;
        ToolProcess::retire(process, m_settings.killGraceMs);
    }
}

void CommandJob::readStdout()
{
    if (!m_process)
        return;
    m_stdout += m_process->readAllStandardOutput();
    if (m_stdout.size() > m_settings.outputLimit)
        overflow(u"stdout"_s, m_stdout);
}

void CommandJob::readStderr()
{
    if (!m_process)
        return;
    m_stderr += m_process->readAllStandardError();
    if (m_stderr.size() > m_settings.outputLimit)
        overflow(u"stderr"_s, m_stderr);
}

void CommandJob::overflow(const QString &stream, const QByteArray &head)
{
    qCInfo(lcCommandTool) << "tool" << m_tool.name << "went over the" << stream << "cap of"
                          << m_settings.outputLimit << "bytes";
    const QString preview = ToolProcess::decodeCapped(head, PreviewBytes);
    m_stdout.clear();
    m_stderr.clear();
    finishWithError(
        tr("Tool \"%1\" wrote more than %2 bytes to %3: the output was cut at %2 bytes, "
           "the process was stopped and the output discarded. It began with:\n%4")
            .arg(m_tool.name)
            .arg(m_settings.outputLimit)
            .arg(stream, preview));
}

QString CommandJob::failureText(const QString &what) const
{
    bool invalid = false;
    bool invalidOut = false;
    QString text = what;
    text += u"\nstderr:\n"_s;
    text += m_stderr.isEmpty() ? tr("(empty)")
                               : ToolProcess::decodeCapped(m_stderr, ExcerptBytes, &invalid);
    if (!m_stdout.isEmpty()) {
        text += u"\nstdout:\n"_s;
        text += ToolProcess::decodeCapped(m_stdout, ExcerptBytes, &invalidOut);
    }
    if (invalid || invalidOut)
        text += u'\n' + utf8Note();
    return text;
}

void CommandJob::onFinished(int exitCode, int exitStatus)
{
    if (isDone() || !m_process)
        return;
    // Whatever was still in the pipes.
    readStdout();
    readStderr();
    if (isDone())
        return;
    if (exitStatus == QProcess::CrashExit) {
        finishWithError(
            failureText(tr("Tool \"%1\" crashed or was killed by a signal.").arg(m_tool.name)));
        return;
    }
    if (exitCode != 0) {
        finishWithError(failureText(
            tr("Tool \"%1\" failed with exit code %2.").arg(m_tool.name).arg(exitCode)));
        return;
    }
    if (!m_stderr.isEmpty()) {
        finishWithError(
            failureText(tr("Tool \"%1\" wrote to stderr (exit code 0), which counts as a failure.")
                            .arg(m_tool.name)));
        return;
    }
    bool invalid = false;
    QString content = ToolProcess::decodeCapped(m_stdout, m_settings.outputLimit, &invalid);
    if (invalid) {
        qCInfo(lcCommandTool) << "tool" << m_tool.name << "wrote invalid UTF-8";
        content += u'\n' + utf8Note();
    }
    finishWithText(content);
}

void CommandJob::onProcessError(int error)
{
    if (isDone())
        return;
    if (error == QProcess::FailedToStart) {
        const QString reason = m_process ? m_process->errorString() : QString();
        finishWithError(tr("Tool \"%1\" could not start program \"%2\": %3")
                            .arg(m_tool.name, m_program, reason));
        return;
    }
    // Crashes and pipe errors are followed by `finished`, which reports them; a write error
    // only means the tool did not read all of its stdin.
    qCDebug(lcCommandTool) << "tool" << m_tool.name << "process error" << error;
}

// ---------------------------------------------------------------------------------------------

CommandToolkit::CommandToolkit(const QList<ToolSpec> &tools, QObject *parent)
    : Toolkit(parent)
{
    setObjectName(u"command"_s);
    for (const ToolSpec &tool : tools) {
        if (tool.runner == ToolRunnerKind::Command)
            m_tools.append(tool);
    }
}

QList<ToolDeclaration> CommandToolkit::declarations() const
{
    QList<ToolDeclaration> result;
    for (const ToolSpec &tool : m_tools)
        result.append(declarationOf(tool));
    return result;
}

bool CommandToolkit::offers(const QString &toolName) const
{
    return std::any_of(m_tools.cbegin(), m_tools.cend(),
                       [&](const ToolSpec &tool) { return tool.name == toolName; });
}

ToolJob *CommandToolkit::createJob(const ToolCall &call, QObject *parent)
{
    for (const ToolSpec &tool : std::as_const(m_tools)) {
        if (tool.name == call.name)
            return new CommandJob(tool, call, m_settings, parent);
    }
    return nullptr;
}

} // namespace Callscope
