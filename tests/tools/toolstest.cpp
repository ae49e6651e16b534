#include "tests/tools/toolstest.h"

#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include <csignal>
#include <sys/types.h>

using namespace Qt::StringLiterals;

namespace Callscope::ToolsTest {

JobRun runJob(Toolkit &toolkit, const ToolCall &call, int waitMs, int lingerMs)
{
    JobRun run;
    ToolJob *job = toolkit.createJob(call, nullptr);
    if (!job)
        return run;
    run.created = true;
    QObject::connect(job, &ToolJob::finished, job, [&run](const ToolResult &result) {
        ++run.finishedCount;
        run.result = result;
    });
    QElapsedTimer clock;
    clock.start();
    job->start();
    const bool done = QTest::qWaitFor([&] { return run.finishedCount > 0; }, waitMs);
    Q_UNUSED(done)
    run.elapsedMs = clock.elapsed();
    if (lingerMs > 0)
        QTest::qWait(lingerMs);
    delete job;
    return run;
}

ToolCall makeCall(const QString &id, const QString &name, const QJsonObject &arguments)
{
    ToolCall call;
    call.id = id;
    call.name = name;
    call.arguments = arguments;
    call.rawArguments = QString::fromUtf8(QJsonDocument(arguments).toJson(QJsonDocument::Compact));
    return call;
}

QString script(const QString &name)
{
    return QDir::cleanPath(Test::testDataPath(u"tools/"_s + name));
}

QString nodePath()
{
    return QStandardPaths::findExecutable(u"node"_s);
}

QString npmDir()
{
    const QString fromEnv = QString::fromLocal8Bit(qgetenv("CALLSCOPE_NPM_DIR"));
    if (!fromEnv.isEmpty())
        return fromEnv;
    return QDir::cleanPath(Test::testDataPath(u"../npm"_s));
}

QString everythingServerScript()
{
    const QString path = QDir(npmDir()).filePath(
        u"node_modules/@modelcontextprotocol/server-everything/dist/index.js"_s);
    return QFileInfo::exists(path) ? path : QString();
}

QString everythingServerVersion()
{
    const QJsonValue package = Test::readJson(QDir(npmDir()).filePath(
        u"node_modules/@modelcontextprotocol/server-everything/package.json"_s));
    return package.toObject().value(u"version"_s).toString();
}

McpServerSpec everythingServer()
{
    McpServerSpec server;
    server.command = QStringList { nodePath(), everythingServerScript(), u"stdio"_s };
    return server;
}

McpServerSpec fakeServer()
{
    McpServerSpec server;
    server.command = QStringList { nodePath(), script(u"fake_mcp_server.js"_s) };
    return server;
}

ToolSpec commandTool(const QString &name, const QStringList &command, int timeoutMs)
{
    ToolSpec tool;
    tool.name = name;
    tool.description = u"test tool "_s + name;
    tool.runner = ToolRunnerKind::Command;
    tool.command = command;
    tool.timeoutMs = timeoutMs;
    return tool;
}

ToolSpec mcpEntry(const QString &name, const QString &server, int timeoutMs)
{
    ToolSpec tool;
    tool.name = name;
    tool.runner = ToolRunnerKind::Mcp;
    tool.mcpServer = server;
    tool.timeoutMs = timeoutMs;
    return tool;
}

bool processAlive(qint64 pid)
{
    if (pid <= 0 || ::kill(pid_t(pid), 0) != 0)
        return false;
    QFile stat(u"/proc/%1/stat"_s.arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray text = stat.readAll();
    const qsizetype close = text.lastIndexOf(')');
    return close < 0 || text.mid(close + 2, 1) != "Z";
}

qint64 peakRssKiB()
{
    QFile status(u"/proc/self/status"_s);
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    const QList<QByteArray> lines = status.readAll().split('\n');
    for (const QByteArray &line : lines) {
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').constFirst().toLongLong();
    }
    return -1;
}

} // namespace Callscope::ToolsTest
