// McpToolkit against real servers: the npm reference server (@modelcontextprotocol/
// server-everything), a scripted fake server for edge cases, and broken "servers".

#include "core/tools/mcphttp.h"
#include "core/tools/mcptoolkit.h"
#include "tests/support/fakeprovider.h"
#include "tests/support/testsupport.h"
#include "tests/tools/toolstest.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>
#include <QUrlQuery>

#include <csignal>

using namespace Qt::StringLiterals;
using namespace Callscope;
using namespace Callscope::ToolsTest;

namespace {
const QString Everything = u"everything"_s;
const QString Fake = u"fake"_s;

struct Prepared
{
    QString error;
    bool answered = false;
    qint64 ms = 0;
};

Prepared prepareAndWait(McpToolkit &toolkit, int waitMs = 20000)
{
    Prepared prepared;
    int count = 0;
    QObject::connect(&toolkit, &Toolkit::ready, &toolkit, [&](const QString &error) {
        ++count;
        prepared.error = error;
    });
    QElapsedTimer clock;
    clock.start();
    toolkit.prepare();
    prepared.answered = QTest::qWaitFor([&] { return count > 0; }, waitMs);
    prepared.ms = clock.elapsed();
    QTest::qWait(20);
    if (count != 1)
        prepared.answered = false;
    return prepared;
}

McpServerSpec exposingAll(McpServerSpec server)
{
    server.exposeAll = true;
    return server;
}

// server-everything in one of its HTTP modes ("streamableHttp" or "sse") on a free port.
class HttpEverything
{
public:
    ~HttpEverything()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.terminate();
            if (!m_process.waitForFinished(3000)) {
                m_process.kill();
                m_process.waitForFinished(2000);
            }
        }
    }

    bool start(const QString &mode)
    {
        QTcpServer probe;
        if (!probe.listen(QHostAddress::LocalHost, 0))
            return false;
        port = probe.serverPort();
        probe.close();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"PORT"_s, QString::number(port));
        m_process.setProcessEnvironment(env);
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        m_process.start(nodePath(), { everythingServerScript(), mode });
        // Both modes print the port once they listen.
        return QTest::qWaitFor(
                   [&] {
                       m_output += m_process.readAll();
                       return m_output.contains(QByteArray::number(port))
                           || m_process.state() == QProcess::NotRunning;
                   },
                   20000)
            && m_process.state() == QProcess::Running;
    }

    QString url(const QString &path) const
    {
        return u"http://127.0.0.1:%1%2"_s.arg(port).arg(path);
    }
    QByteArray output()
    {
        m_output += m_process.readAll();
        return m_output;
    }

    int port = 0;

private:
    QProcess m_process;
    QByteArray m_output;
};

McpServerSpec remote(const QString &url)
{
    McpServerSpec server;
    server.url = url;
    server.exposeAll = true;
    return server;
}

const McpToolInfo *findTool(const QList<McpToolInfo> &tools, const QString &name)
{
    for (const McpToolInfo &tool : tools) {
        if (tool.name == name)
            return &tool;
    }
    return nullptr;
}

const ToolDeclaration *findDeclaration(const QList<ToolDeclaration> &list, const QString &name)
{
    for (const ToolDeclaration &declaration : list) {
        if (declaration.name == name)
            return &declaration;
    }
    return nullptr;
}
} // namespace

class TestMcpToolkit final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    // the reference server
    void listsTheReferenceServersTools();
    void callsEchoAndSum();
    void badArgumentsGiveAnErrorResult();
    void imageContentBecomesAttachment();
    void parallelCallsAreMatchedById();
    void callTimeoutLeavesServerUsable();
    void serverKilledMidCall();
    void entryOffersOnlyItsTool();
    void entryTheServerLacksFailsPrepare();
    void serverEnvironmentIsPassed();
    void shutdownStopsTheServer();
    // the scripted fake server
    void olderProtocolPaginationAndServerRequests();
    void oversizedLineFailsOnlyItsCall();
    void jsonRpcErrorAndContentKinds();
    void timedOutCallIsCancelledOnServer();
    void serverDyingMidCallQuotesStderr();
    // broken servers
    // Remote servers, annotations, output schemas, elicitation
    void remoteStreamableHttpListsAndCalls();
    void remoteLegacySseFallback();
    void remoteServerDownIsAClearError();
    void remoteRequestsHaveTheHttpJobRules();
    void oauthSignInThenRefresh();
    void oauthRefusesAnotherServersResource();
    void remoteSessionEndedStartsANewOne();
    void rootsNameTheSpecFolder();
    void annotationsDecideApproval();
    void outputSchemaViolationIsAnErrorResult();
    void elicitationDefaultsUnattended();
    void missingProgram();
    void garbageThenHang();
    void exitsDuringStartup();
};

void TestMcpToolkit::initTestCase()
{
    QVERIFY2(!nodePath().isEmpty(), "node is not installed (tools/dev.sh installs nodejs)");
    QVERIFY2(!everythingServerScript().isEmpty(),
             qPrintable(u"@modelcontextprotocol/server-everything is not installed in "_s + npmDir()
                        + u": run `npm install` there (tools/dev.sh test does it when "
                          "node_modules is missing)"_s));
    qInfo("server-everything %s", qPrintable(everythingServerVersion()));
}

void TestMcpToolkit::listsTheReferenceServersTools()
{
    McpToolkit toolkit(Everything, exposingAll(everythingServer()), {});
    QCOMPARE(toolkit.state(), McpToolkit::State::Idle);
    const Prepared prepared = prepareAndWait(toolkit);
    QVERIFY(prepared.answered);
    QVERIFY2(prepared.error.isEmpty(), qPrintable(prepared.error));
    QCOMPARE(toolkit.state(), McpToolkit::State::Ready);
    qInfo("server-everything started, initialized and listed in %lld ms; tools: %s",
          toolkit.startupMs(), qPrintable(toolkit.listedToolNames().join(u", "_s)));
    QCOMPARE(toolkit.protocolVersion(), u"2025-06-18"_s);
    QCOMPARE(toolkit.serverInfo().value(u"name"_s).toString(), u"mcp-servers/everything"_s);
    const QStringList names = toolkit.listedToolNames();
    for (const QString &name : { u"echo"_s, u"get-sum"_s, u"get-tiny-image"_s,
                                 u"trigger-long-running-operation"_s, u"get-env"_s })
        QVERIFY2(names.contains(name), qPrintable(name));

    const QList<ToolDeclaration> declarations = toolkit.declarations();
    QCOMPARE(declarations.size(), names.size());
    const ToolDeclaration *echo = findDeclaration(declarations, u"echo"_s);
    QVERIFY(echo);
    QCOMPARE(echo->description, u"Echoes back the input string"_s);
    QCOMPARE(echo->inputSchema.value(u"type"_s).toString(), u"object"_s);
    QCOMPARE(echo->inputSchema.value(u"properties"_s)[u"message"_s][u"type"_s].toString(),
             u"string"_s);
    QCOMPARE(echo->inputSchema.value(u"required"_s).toArray(), QJsonArray { u"message"_s });
    QVERIFY(!echo->inputSchema.contains(u"$schema"_s));
    QVERIFY(toolkit.offers(u"get-sum"_s));
    QVERIFY(!toolkit.offers(u"no-such-tool"_s));
}

void TestMcpToolkit::callsEchoAndSum()
{
    McpToolkit toolkit(Everything, exposingAll(everythingServer()), {});
    QVERIFY(prepareAndWait(toolkit).error.isEmpty());
    JobRun run = runJob(
        toolkit, makeCall(u"call_e"_s, u"echo"_s, { { u"message"_s, u"hello MCP"_s } }), 10000, 50);
    QCOMPARE(run.finishedCount, 1);
    QVERIFY2(!run.result.isError, qPrintable(run.result.content));
    QCOMPARE(run.result.content, u"Echo: hello MCP"_s);
    QCOMPARE(run.result.callId, u"call_e"_s);
    QCOMPARE(run.result.name, u"echo"_s);
    QVERIFY(run.result.images.isEmpty());
    qInfo("echo round trip: %lld ms", run.elapsedMs);

    run = runJob(toolkit, makeCall(u"call_s"_s, u"get-sum"_s, { { u"a"_s, 2 }, { u"b"_s, 3 } }));
    QVERIFY(!run.result.isError);
    QCOMPARE(run.result.content, u"The sum of 2 and 3 is 5."_s);
}

void TestMcpToolkit::badArgumentsGiveAnErrorResult()
{
    McpToolkit toolkit(Everything, exposingAll(everythingServer()), {});
    QVERIFY(prepareAndWait(toolkit).error.isEmpty());
    const JobRun run = runJob(toolkit, makeCall(u"c"_s, u"get-sum"_s, { { u"a"_s, u"x"_s } }));
    QCOMPARE(run.finishedCount, 1);
    QVERIFY(run.result.isError);
    QVERIFY2(run.result.content.contains(u"Invalid arguments for tool get-sum"_s),
             qPrintable(run.result.content));
    // The server stays usable.
    QCOMPARE(
        runJob(toolkit, makeCall(u"c"_s, u"echo"_s, { { u"message"_s, u"ok"_s } })).result.content,
        u"Echo: ok"_s);
}

void TestMcpToolkit::imageContentBecomesAttachment()
{
    McpToolkit toolkit(Everything, exposingAll(everythingServer()), {});
    QVERIFY(prepareAndWait(toolkit).error.isEmpty());
    const JobRun run = runJob(toolkit, makeCall(u"c"_s, u"get-tiny-image"_s));
    QVERIFY2(!run.result.isError, qPrintable(run.result.content));
    QCOMPARE(run.result.images.size(), 1);
    const Attachment &image = run.result.images.constFirst();
    QCOMPARE(image.mediaType, u"image/png"_s);
    QCOMPARE(image.name, u"image-1.png"_s);
    QVERIFY(image.data.startsWith("\x89PNG\r\n\x1a\n"));
    QCOMPARE(image.size, image.data.size());
    QVERIFY(
        run.result.content.contains(u"[image 1: image/png, %1 bytes]"_s.arg(image.data.size())));
    QVERIFY2(run.result.content.startsWith(u"Here's the image you requested:"_s),
             qPrintable(run.result.content));
}

void TestMcpToolkit::parallelCallsAreMatchedById()
{
    McpToolkit toolkit(Everything, exposingAll(everythingServer()), {});
    QVERIFY(prepareAndWait(toolkit).error.isEmpty());
    QHash<QString, ToolResult> results;
    QList<ToolJob *> jobs;
    // A slow call first: the quick ones must not wait behind it.
    jobs.append(toolkit.createJob(makeCall(u"slow"_s, u"trigger-long-running-operation"_s,
                                           { { u"duration"_s, 1 }, { u"steps"_s, 1 } }),
                                  this));
    for (int i = 0; i < 4; ++i)
        jobs.append(toolkit.createJob(
            makeCall(u"e%1"_s.arg(i), u"echo"_s, { { u"message"_s, u"m%1"_s.arg(i) } }), this));
    QList<QString> order;
    for (ToolJob *job : std::as_const(jobs)) {
        connect(job, &ToolJob::finished, this, [&](const ToolResult &result) {
            results.insert(result.callId, result);
            order.append(result.callId);
        });
        job->start();
    }
    QTRY_COMPARE_WITH_TIMEOUT(results.size(), 5, 10000);
    for (int i = 0; i < 4; ++i)
        QCOMPARE(results.value(u"e%1"_s.arg(i)).content, u"Echo: m%1"_s.arg(i));
    QCOMPARE(results.value(u"slow"_s).content,
             u"Long running operation completed. Duration: 1 seconds, Steps: 1."_s);
    QCOMPARE(order.constLast(), u"slow"_s);
    qDeleteAll(jobs);
}

void TestMcpToolkit::callTimeoutLeavesServerUsable()
{
    McpToolkit toolkit(Everything, everythingServer(),
                       { mcpEntry(u"trigger-long-running-operation"_s, Everything, 500),
                         mcpEntry(u"echo"_s, Everything) });
    QVERIFY(prepareAndWait(toolkit).error.isEmpty());
    const JobRun run = runJob(toolkit,
                              makeCall(u"c"_s, u"trigger-long-running-operation"_s,
                                       { { u"duration"_s, 5 }, { u"steps"_s, 5 } }),
                              5000, 100);
    QCOMPARE(run.finishedCount, 1);
    QVERIFY(run.result.isError);
    QCOMPARE(run.result.content,
             u"Tool \"trigger-long-running-operation\" timed out after 500 ms."_s);
    QVERIFY2(run.elapsedMs >= 490 && run.elapsedMs < 4000,
             qPrintable(QString::number(run.elapsedMs))); // the call takes 5 s
    QCOMPARE(toolkit.state(), McpToolkit::State::Ready);
    QCOMPARE(runJob(toolkit, makeCall(u"c"_s, u"echo"_s, { { u"message"_s, u"still here"_s } }))
                 .result.content,
             u"Echo: still here"_s);
}

void TestMcpToolkit::serverKilledMidCall()
{
    McpToolkit toolkit(Everything, exposingAll(everythingServer()), {});
    QVERIFY(prepareAndWait(toolkit).error.isEmpty());
    QSignalSpy failed(&toolkit, &McpToolkit::failed);
    std::unique_ptr<ToolJob> job(
        toolkit.createJob(makeCall(u"c"_s, u"trigger-long-running-operation"_s,
                                   { { u"duration"_s, 10 }, { u"steps"_s, 2 } }),
                          nullptr));
    QSignalSpy finished(job.get(), &ToolJob::finished);
    job->start();
    QTest::qWait(300);
    QCOMPARE(finished.size(), 0);
    const qint64 pid = toolkit.serverProcessId();
    QVERIFY(pid > 0);
    QElapsedTimer clock;
    clock.start();
    QCOMPARE(::kill(pid_t(pid), SIGKILL), 0);
    QVERIFY(finished.wait(15000));
    qInfo("call ended %lld ms after the server was killed", clock.elapsed());
    const auto result = finished.at(0).at(0).value<ToolResult>();
    QVERIFY(result.isError);
    QVERIFY2(result.content.startsWith(u"MCP server \"everything\" crashed or was killed."_s),
             qPrintable(result.content));
    QCOMPARE(failed.size(), 1);
    QCOMPARE(failed.at(0).at(0).toString(), toolkit.failureReason());
    QCOMPARE(toolkit.state(), McpToolkit::State::Failed);
    // Later calls fail at once, saying why.
    const JobRun later =
        runJob(toolkit, makeCall(u"c2"_s, u"echo"_s, { { u"message"_s, u"x"_s } }), 20000);
    QVERIFY(later.result.isError);
    QVERIFY2(
        later.result.content.startsWith(
            u"Tool \"echo\" could not run: MCP server \"everything\" is not available: MCP server "
            "\"everything\" crashed"_s),
        qPrintable(later.result.content));
    QCOMPARE(finished.size(), 1);
}

void TestMcpToolkit::entryOffersOnlyItsTool()
{
    ToolSpec echo = mcpEntry(u"echo"_s, Everything);
    ToolSpec sum = mcpEntry(u"get-sum"_s, Everything);
    sum.description = u"Adds two numbers (spec text)"_s;
    ToolSpec otherServer = mcpEntry(u"elsewhere"_s, u"other"_s);
    McpToolkit toolkit(Everything, everythingServer(), { echo, otherServer, sum });
    // Before start-up the entries are declared with what the spec gives.
    QCOMPARE(toolkit.declarations().size(), 2);
    QVERIFY(prepareAndWait(toolkit).error.isEmpty());
    const QList<ToolDeclaration> declarations = toolkit.declarations();
    QCOMPARE(declarations.size(), 2);
    QCOMPARE(declarations.at(0).name, u"echo"_s);
    QCOMPARE(declarations.at(0).description, u"Echoes back the input string"_s);
    QVERIFY(declarations.at(0).inputSchema.contains(u"properties"_s));
    QCOMPARE(declarations.at(1).name, u"get-sum"_s);
    QCOMPARE(declarations.at(1).description, u"Adds two numbers (spec text)"_s);
    QVERIFY(toolkit.offers(u"echo"_s));
    QVERIFY(!toolkit.offers(u"get-tiny-image"_s));
    QVERIFY(!toolkit.offers(u"elsewhere"_s));
    QCOMPARE(toolkit.createJob(makeCall(u"c"_s, u"get-tiny-image"_s), nullptr), nullptr);
}

void TestMcpToolkit::entryTheServerLacksFailsPrepare()
{
    McpToolkit toolkit(Everything, everythingServer(), { mcpEntry(u"no_such_tool"_s, Everything) });
    const Prepared prepared = prepareAndWait(toolkit);
    QVERIFY(prepared.answered);
    QVERIFY2(prepared.error.startsWith(
                 u"MCP server \"everything\" does not offer the tool(s) no_such_tool; "
                 "it lists: echo, "_s),
             qPrintable(prepared.error));
    QCOMPARE(toolkit.state(), McpToolkit::State::Failed);
    const JobRun run = runJob(toolkit, makeCall(u"c"_s, u"no_such_tool"_s), 2000);
    QVERIFY(run.result.isError);
}

void TestMcpToolkit::serverEnvironmentIsPassed()
{
    McpServerSpec server = exposingAll(everythingServer());
    server.env.insert(u"CALLSCOPE_TEST_MARKER"_s, u"marker-42"_s);
    McpToolkit toolkit(Everything, server, {});
    QVERIFY(prepareAndWait(toolkit).error.isEmpty());
    const JobRun run = runJob(toolkit, makeCall(u"c"_s, u"get-env"_s));
    QVERIFY(!run.result.isError);
    QVERIFY2(run.result.content.contains(u"\"CALLSCOPE_TEST_MARKER\": \"marker-42\""_s),
             qPrintable(run.result.content.left(500)));
}

void TestMcpToolkit::shutdownStopsTheServer()
{
    McpToolkit toolkit(Everything, exposingAll(everythingServer()), {});
    QVERIFY(prepareAndWait(toolkit).error.isEmpty());
    const qint64 pid = toolkit.serverProcessId();
    QVERIFY(processAlive(pid));
    std::unique_ptr<ToolJob> job(
        toolkit.createJob(makeCall(u"c"_s, u"trigger-long-running-operation"_s,
                                   { { u"duration"_s, 10 }, { u"steps"_s, 2 } }),
                          nullptr));
    QSignalSpy finished(job.get(), &ToolJob::finished);
    job->start();
    toolkit.shutdown();
    QCOMPARE(finished.size(), 1); // pending calls end at once
    QCOMPARE(finished.at(0).at(0).value<ToolResult>().content,
             u"MCP server \"everything\" was shut down."_s);
    QCOMPARE(toolkit.state(), McpToolkit::State::Stopped);
    QTRY_VERIFY_WITH_TIMEOUT(!processAlive(pid), 15000); // stdin closed: the server exits
}

// roots/list names the folder a local server works in (the spec's), and nothing else.
void TestMcpToolkit::rootsNameTheSpecFolder()
{
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    McpToolkit toolkit(Everything, exposingAll(everythingServer()), {});
    toolkit.setWorkingDirectory(folder.path());
    QVERIFY(prepareAndWait(toolkit).error.isEmpty());
    QVERIFY(
        toolkit.listedToolNames().contains(u"get-roots-list"_s)); // offered since we declare roots
    const JobRun run = runJob(toolkit, makeCall(u"c"_s, u"get-roots-list"_s));
    QVERIFY2(!run.result.isError, qPrintable(run.result.content));
    const QString uri = QUrl::fromLocalFile(QFileInfo(folder.path()).absoluteFilePath()).toString();
    QVERIFY2(run.result.content.contains(uri), qPrintable(run.result.content));
    QCOMPARE(run.result.content.count(u"file://"_s), 1);
}

void TestMcpToolkit::olderProtocolPaginationAndServerRequests()
{
    McpToolkit toolkit(Fake, exposingAll(fakeServer()), {});
    const Prepared prepared = prepareAndWait(toolkit);
    QVERIFY2(prepared.error.isEmpty(), qPrintable(prepared.error));
    QCOMPARE(toolkit.protocolVersion(), u"2024-11-05"_s);
    QCOMPARE(toolkit.serverInfo().value(u"version"_s).toString(), u"1.2.3"_s);
    QCOMPARE(toolkit.listedToolNames(),
             (QStringList { u"echo_args"_s, u"huge"_s, u"hang"_s, u"die"_s, u"fail_rpc"_s,
                            u"mixed"_s, u"client_answers"_s, u"cancelled_ids"_s, u"structured"_s,
                            u"wipe_disk"_s, u"read_notes"_s, u"typed_good"_s, u"typed_bad"_s }));
    QCOMPARE(toolkit.ignoredLineCount(), 1); // "this line is not JSON"

    const QJsonObject arguments { { u"deep"_s,
                                    QJsonObject { { u"list"_s, QJsonArray { 1, u"two"_s } } } } };
    JobRun run = runJob(toolkit, makeCall(u"c"_s, u"echo_args"_s, arguments));
    QCOMPARE(run.result.content, u"{\"deep\":{\"list\":[1,\"two\"]}}"_s);

    // The server asked roots/list (we offer no roots: an empty list) and ping (answered).
    run = runJob(toolkit, makeCall(u"c"_s, u"client_answers"_s));
    const QJsonArray answers = QJsonDocument::fromJson(run.result.content.toUtf8()).array();
    QCOMPARE(answers.size(), 2);
    QCOMPARE(answers.at(0).toObject(),
             (QJsonObject { { u"jsonrpc"_s, u"2.0"_s },
                            { u"id"_s, u"srv-1"_s },
                            { u"result"_s, QJsonObject { { u"roots"_s, QJsonArray() } } } }));
    QCOMPARE(answers.at(1).toObject(),
             (QJsonObject { { u"jsonrpc"_s, u"2.0"_s },
                            { u"id"_s, u"srv-2"_s },
                            { u"result"_s, QJsonObject() } }));
}

void TestMcpToolkit::remoteStreamableHttpListsAndCalls()
{
    HttpEverything server;
    QVERIFY2(server.start(u"streamableHttp"_s), server.output().constData());
    McpToolkit toolkit(Everything, remote(server.url(u"/mcp"_s)), {});
    const Prepared prepared = prepareAndWait(toolkit);
    QVERIFY2(prepared.error.isEmpty(), qPrintable(prepared.error));
    QVERIFY(toolkit.httpTransport());
    QVERIFY(!toolkit.httpTransport()->isLegacy());
    QVERIFY(!toolkit.httpTransport()->sessionId().isEmpty());
    QCOMPARE(toolkit.protocolVersion(), u"2025-11-25"_s);
    qInfo("server-everything over Streamable HTTP: ready in %lld ms", prepared.ms);

    // Annotations come with the listing; a read-only tool needs no approval.
    const McpToolInfo *echo = findTool(toolkit.tools(), u"echo"_s);
    QVERIFY(echo);
    QCOMPARE(echo->annotations.value(u"readOnlyHint"_s).toBool(), true);
    QVERIFY(echo->readOnly());
    QVERIFY(!toolkit.needsApproval(u"echo"_s));
    const McpToolInfo *weather = findTool(toolkit.tools(), u"get-structured-content"_s);
    QVERIFY(weather);
    QVERIFY(!weather->outputSchema.isEmpty());

    JobRun run =
        runJob(toolkit, makeCall(u"c1"_s, u"echo"_s, { { u"message"_s, u"over http"_s } }));
    QVERIFY2(!run.result.isError, qPrintable(run.result.content));
    QCOMPARE(run.result.content, u"Echo: over http"_s);
    // Its structuredContent fits the declared outputSchema.
    run =
        runJob(toolkit,
               makeCall(u"c2"_s, u"get-structured-content"_s, { { u"location"_s, u"Chicago"_s } }));
    QVERIFY2(!run.result.isError, qPrintable(run.result.content));

    // Closing ends the session with DELETE; `closed` follows.
    QSignalSpy closed(&toolkit, &McpToolkit::closed);
    toolkit.shutdown();
    QVERIFY(closed.wait(15000) || closed.size() == 1);
}

void TestMcpToolkit::remoteLegacySseFallback()
{
    HttpEverything server;
    QVERIFY2(server.start(u"sse"_s), server.output().constData());
    McpToolkit toolkit(Everything, remote(server.url(u"/sse"_s)), {});
    const Prepared prepared = prepareAndWait(toolkit);
    QVERIFY2(prepared.error.isEmpty(), qPrintable(prepared.error));
    QVERIFY(toolkit.httpTransport()->isLegacy());
    const JobRun run =
        runJob(toolkit, makeCall(u"c1"_s, u"echo"_s, { { u"message"_s, u"old transport"_s } }));
    QCOMPARE(run.result.content, u"Echo: old transport"_s);
}

void TestMcpToolkit::remoteServerDownIsAClearError()
{
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
    const quint16 port = probe.serverPort();
    probe.close();
    McpToolkit toolkit(u"gone"_s, remote(u"http://127.0.0.1:%1/mcp"_s.arg(port)), {});
    const Prepared prepared = prepareAndWait(toolkit);
    QVERIFY(prepared.answered);
    QVERIFY2(prepared.error.contains(u"MCP server \"gone\" could not be reached"_s),
             qPrintable(prepared.error));

    // A bearer token that is not in the environment is named before anything is sent.
    McpServerSpec bearer = remote(u"http://127.0.0.1:%1/mcp"_s.arg(port));
    bearer.auth = McpAuthKind::Bearer;
    bearer.bearerEnv = u"CALLSCOPE_TEST_NO_SUCH_TOKEN"_s;
    McpToolkit second(u"gone"_s, bearer, {});
    const Prepared noToken = prepareAndWait(second);
    QVERIFY2(noToken.error.contains(u"CALLSCOPE_TEST_NO_SUCH_TOKEN"_s), qPrintable(noToken.error));
}

// Remote MCP requests go through HttpJob: a server that goes quiet is stopped by the
// inactivity timeout, a 503 is retried after its backoff, a message the server took (2xx) is
// never sent twice, and an answer over the cap is dropped.
void TestMcpToolkit::remoteRequestsHaveTheHttpJobRules()
{
    using Callscope::Test::FakeProvider;
    using Callscope::Test::FakeReply;
    FakeProvider server;
    QVERIFY2(server.listen(), qPrintable(server.errorString()));
    McpHttpTransport transport(u"quiet"_s, server.url(u"/mcp"_s));
    HttpJobSettings settings = transport.httpSettings();
    QCOMPARE(settings.maxResponseBytes, McpHttpTransport::MaxBodyBytes);
    QCOMPARE(settings.inactivityTimeoutMs, HttpJobSettings::DefaultInactivityTimeoutMs);
    settings.inactivityTimeoutMs = 300;
    settings.retry.baseDelaySeconds = 0.02;
    settings.maxResponseBytes = 1024 * 1024;
    transport.setHttpSettings(settings);
    QSignalSpy failed(&transport, &McpHttpTransport::deliveryFailed);
    QSignalSpy received(&transport, &McpHttpTransport::messageReceived);
    const auto request = [](int id) {
        return QJsonObject { { u"jsonrpc"_s, u"2.0"_s },
                             { u"id"_s, id },
                             { u"method"_s, u"ping"_s } };
    };

    // Headers, then silence: taken by the server, so stopped and not sent again.
    server.enqueue(FakeReply::json(200, R"({"jsonrpc":"2.0","id":1,"result":{}})").stallAfter(5));
    transport.send(request(1));
    QVERIFY(failed.wait(10000));
    QCOMPARE(failed.at(0).at(0).toInt(), 1);
    QVERIFY2(
        failed.at(0).at(1).toString().contains(u"MCP server \"quiet\" sent nothing for 0.3 s"_s),
        qPrintable(failed.at(0).at(1).toString()));
    QCOMPARE(server.requestCount(), 1);

    // Not even headers, on every try: the policy's three attempts, then the timeout is named.
    server.enqueue(FakeReply::stall());
    server.enqueue(FakeReply::stall());
    server.enqueue(FakeReply::stall());
    transport.send(request(2));
    QVERIFY(failed.wait(10000));
    QCOMPARE(failed.at(1).at(0).toInt(), 2);
    QVERIFY2(failed.at(1).at(1).toString().contains(u"sent nothing"_s),
             qPrintable(failed.at(1).at(1).toString()));
    QCOMPARE(server.requestCount(), 4);

    // A 503 is retried after its backoff; the second try answers.
    server.enqueue(FakeReply::json(503, R"({"error":"busy"})"));
    server.enqueue(FakeReply::json(200, R"({"jsonrpc":"2.0","id":3,"result":{"ok":true}})"));
    transport.send(request(3));
    QVERIFY(received.wait(10000));
    QCOMPARE(received.at(0).at(0).toJsonObject().value(u"id"_s).toInt(), 3);
    QCOMPARE(server.requestCount(), 6);
    QCOMPARE(failed.size(), 2);

    // An answer over the cap is dropped, not read on.
    const QByteArray huge = R"({"jsonrpc":"2.0","id":4,"result":{"text":")"
        + QByteArray(2 * 1024 * 1024, 'x') + R"("}})";
    server.enqueue(FakeReply::json(200, huge));
    transport.send(request(4));
    QVERIFY(failed.wait(10000));
    QCOMPARE(failed.at(2).at(0).toInt(), 4);
    QVERIFY2(failed.at(2).at(1).toString().contains(u"more than 1 MiB"_s),
             qPrintable(failed.at(2).at(1).toString()));
    QCOMPARE(server.requestCount(), 7);
    QCOMPARE(received.size(), 1);
}

namespace {

// Starts fake_oauth_mcp_server.js (with `environment`, when given); the port it listens on, or
// an empty text.
QByteArray startOAuthServer(QProcess &server, const QProcessEnvironment &environment = {})
{
    if (!environment.isEmpty())
        server.setProcessEnvironment(environment);
    server.start(nodePath(), { script(u"fake_oauth_mcp_server.js"_s) });
    QByteArray output;
    QTest::qWaitFor(
        [&] {
            output += server.readAllStandardOutput();
            return output.contains('\n') || server.state() == QProcess::NotRunning;
        },
        15000);
    return output.trimmed().split(' ').value(2);
}

} // namespace

void TestMcpToolkit::oauthSignInThenRefresh()
{
    QProcess server;
    const QByteArray port = startOAuthServer(server);
    const auto stop = qScopeGuard([&] {
        server.closeWriteChannel();
        if (!server.waitForFinished(3000))
            server.kill();
    });
    QVERIFY(!port.isEmpty());
    const QString url = u"http://127.0.0.1:%1/mcp"_s.arg(QString::fromLatin1(port));

    McpServerSpec spec = remote(url);
    spec.auth = McpAuthKind::OAuth;
    McpToolkit toolkit(u"guarded"_s, spec, {});
    // No browser here: a script fetches the sign-in URL and follows its redirect to our listener.
    const QString follow = QDir(script(u"."_s)).filePath(u"../../mcp/follow-redirects.mjs"_s);
    QVERIFY(QFile::exists(follow));
    toolkit.setBrowserCommand(nodePath() + u' ' + follow);
    QSignalSpy signIns(&toolkit, &McpToolkit::authorizationStarted);
    const Prepared prepared = prepareAndWait(toolkit);
    QVERIFY2(prepared.error.isEmpty(), qPrintable(prepared.error));
    QCOMPARE(signIns.size(), 1);
    const QUrl authorization = signIns.at(0).at(0).toUrl();
    const QUrlQuery query(authorization);
    QCOMPARE(query.queryItemValue(u"code_challenge_method"_s), u"S256"_s);
    QCOMPARE(query.queryItemValue(u"resource"_s, QUrl::FullyDecoded), url);
    QCOMPARE(query.queryItemValue(u"scope"_s), u"tools"_s); // from scopes_supported

    // The first token is used up by now: the call gets a 401, the refresh token gets a new one.
    const JobRun run = runJob(toolkit, makeCall(u"c1"_s, u"stats"_s));
    QVERIFY2(!run.result.isError, qPrintable(run.result.content));
    const QJsonObject stats = QJsonDocument::fromJson(run.result.content.toUtf8()).object();
    QCOMPARE(stats.value(u"registrations"_s).toInt(), 1);
    QCOMPARE(stats.value(u"authorizations"_s).toInt(), 1);
    QCOMPARE(stats.value(u"codeGrants"_s).toInt(), 1);
    QCOMPARE(stats.value(u"refreshGrants"_s).toInt(), 1);
    QCOMPARE(signIns.size(), 1); // no second sign-in
}

void TestMcpToolkit::oauthRefusesAnotherServersResource()
{
    // A server whose metadata names another server as its resource would have its sign-in kept
    // under that server's name in the keychain (read back, or replaced, for it): refused before
    // any sign-in starts.
    QProcess server;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(u"PRM_RESOURCE"_s, u"https://mcp.example.com/mcp"_s);
    const QByteArray port = startOAuthServer(server, environment);
    const auto stop = qScopeGuard([&] {
        server.closeWriteChannel();
        if (!server.waitForFinished(3000))
            server.kill();
    });
    QVERIFY(!port.isEmpty());
    McpServerSpec spec = remote(u"http://127.0.0.1:%1/mcp"_s.arg(QString::fromLatin1(port)));
    spec.auth = McpAuthKind::OAuth;
    McpToolkit toolkit(u"impostor"_s, spec, {});
    const QString follow = QDir(script(u"."_s)).filePath(u"../../mcp/follow-redirects.mjs"_s);
    toolkit.setBrowserCommand(nodePath() + u' ' + follow);
    QSignalSpy signIns(&toolkit, &McpToolkit::authorizationStarted);
    const Prepared prepared = prepareAndWait(toolkit);
    QVERIFY2(prepared.error.contains(u"https://mcp.example.com/mcp"_s)
                 && prepared.error.contains(u"refused"_s),
             qPrintable(prepared.error));
    QCOMPARE(signIns.size(), 0);
}

namespace {

// fake_session_mcp_server.js with `env` added; the port it listens on, or 0.
int startSessionServer(QProcess &server, const QStringList &env)
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const QString &pair : env)
        environment.insert(pair.section(u'=', 0, 0), pair.section(u'=', 1));
    server.setProcessEnvironment(environment);
    server.start(nodePath(), { script(u"fake_session_mcp_server.js"_s) });
    QByteArray output;
    const bool started = QTest::qWaitFor(
        [&] {
            output += server.readAllStandardOutput();
            return output.contains('\n') || server.state() == QProcess::NotRunning;
        },
        15000);
    if (!started)
        return 0;
    return output.trimmed().split(' ').value(2).toInt();
}

void stopServer(QProcess &server)
{
    server.closeWriteChannel();
    if (!server.waitForFinished(3000))
        server.kill();
}

} // namespace

// A remote server that forgets its session (HTTP 404) gets a new initialize, and the message it
// lost goes out once more in the new session: every call answered, none run twice.
void TestMcpToolkit::remoteSessionEndedStartsANewOne()
{
    QProcess server;
    const int port = startSessionServer(server, { u"SESSION_REQUESTS=2"_s });
    const auto stop = qScopeGuard([&] { stopServer(server); });
    QVERIFY(port > 0);
    McpToolkit toolkit(u"forgetful"_s, remote(u"http://127.0.0.1:%1/mcp"_s.arg(port)), {});
    QVERIFY(prepareAndWait(toolkit).error.isEmpty()); // initialize, tools/list: one left
    QVERIFY(toolkit.httpTransport());
    const QString first = toolkit.httpTransport()->sessionId();
    QVERIFY(!first.isEmpty());
    QSignalSpy renewed(toolkit.httpTransport(), &McpHttpTransport::sessionRenewed);

    JobRun run = runJob(toolkit, makeCall(u"c1"_s, u"echo"_s, { { u"text"_s, u"one"_s } }));
    QVERIFY2(!run.result.isError, qPrintable(run.result.content));
    QCOMPARE(run.result.content, u"echo: one"_s); // the session's last answer
    run = runJob(toolkit, makeCall(u"c2"_s, u"echo"_s, { { u"text"_s, u"two"_s } }));
    QVERIFY2(!run.result.isError, qPrintable(run.result.content));
    QCOMPARE(run.result.content, u"echo: two"_s);
    QCOMPARE(renewed.size(), 1);
    QCOMPARE(toolkit.httpTransport()->sessionRenewals(), 1);
    QVERIFY(toolkit.httpTransport()->sessionId() != first);

    run = runJob(toolkit, makeCall(u"c3"_s, u"stats"_s));
    QVERIFY2(!run.result.isError, qPrintable(run.result.content));
    const QJsonObject stats = QJsonDocument::fromJson(run.result.content.toUtf8()).object();
    QCOMPARE(stats.value(u"initializes"_s).toInt(), 2);
    QCOMPARE(stats.value(u"initialized"_s).toInt(), 2); // the new session was told we are ready
    QCOMPARE(stats.value(u"notFound"_s).toInt(), 1);
    QCOMPARE(stats.value(u"echoes"_s).toInt(), 2); // "two" ran once, in the new session

    // A server that refuses the new session: the call fails with why, and nothing loops.
    QProcess refusing;
    const int port2 = startSessionServer(refusing, { u"SESSION_REQUESTS=1"_s, u"REFUSE_NEW=1"_s });
    const auto stop2 = qScopeGuard([&] { stopServer(refusing); });
    QVERIFY(port2 > 0);
    McpToolkit second(u"strict"_s, remote(u"http://127.0.0.1:%1/mcp"_s.arg(port2)), {});
    QVERIFY(prepareAndWait(second).error.isEmpty());
    run = runJob(second, makeCall(u"c1"_s, u"echo"_s, { { u"text"_s, u"lost"_s } }));
    QVERIFY(run.result.isError);
    QVERIFY2(
        run.result.content.contains(u"ended the session and refused a new one: no more sessions"_s),
        qPrintable(run.result.content));
    QCOMPARE(second.httpTransport()->sessionRenewals(), 1);
}

void TestMcpToolkit::annotationsDecideApproval()
{
    McpToolkit toolkit(Fake, exposingAll(fakeServer()), {});
    QVERIFY(prepareAndWait(toolkit).error.isEmpty());
    const McpToolInfo *wipe = findTool(toolkit.tools(), u"wipe_disk"_s);
    QVERIFY(wipe);
    QVERIFY(wipe->destructive());
    QVERIFY(toolkit.needsApproval(u"wipe_disk"_s));
    QVERIFY(!toolkit.needsApproval(u"read_notes"_s)); // read-only outweighs the destructive hint
    QVERIFY(!toolkit.needsApproval(u"echo_args"_s)); // no annotations: not destructive

    McpServerSpec always = exposingAll(fakeServer());
    always.approval = McpApprovalPolicy::Always;
    McpToolkit strict(Fake, always, {});
    QVERIFY(prepareAndWait(strict).error.isEmpty());
    QVERIFY(strict.needsApproval(u"echo_args"_s));
    QVERIFY(strict.needsApproval(u"read_notes"_s));

    McpServerSpec never = exposingAll(fakeServer());
    never.approval = McpApprovalPolicy::Never;
    McpToolkit lax(Fake, never, {});
    QVERIFY(prepareAndWait(lax).error.isEmpty());
    QVERIFY(!lax.needsApproval(u"wipe_disk"_s));
}

void TestMcpToolkit::outputSchemaViolationIsAnErrorResult()
{
    McpToolkit toolkit(Fake, exposingAll(fakeServer()), {});
    QVERIFY(prepareAndWait(toolkit).error.isEmpty());
    JobRun run = runJob(toolkit, makeCall(u"c"_s, u"typed_good"_s));
    QVERIFY2(!run.result.isError, qPrintable(run.result.content));
    QCOMPARE(run.result.content, u"{\"total\":42}"_s);

    run = runJob(toolkit, makeCall(u"c"_s, u"typed_bad"_s));
    QVERIFY(run.result.isError);
    QVERIFY2(
        run.result.content.startsWith(
            u"Tool \"typed_bad\" returned structuredContent that breaks its outputSchema at /total: "_s),
        qPrintable(run.result.content));
    // The server is fine afterwards.
    QCOMPARE(runJob(toolkit, makeCall(u"c"_s, u"echo_args"_s, { { u"a"_s, 1 } })).result.content,
             u"{\"a\":1}"_s);
}

void TestMcpToolkit::elicitationDefaultsUnattended()
{
    const QJsonObject allDefaults {
        { u"type"_s, u"object"_s },
        { u"properties"_s,
          QJsonObject {
              { u"name"_s, QJsonObject { { u"type"_s, u"string"_s }, { u"default"_s, u"Ada"_s } } },
              { u"age"_s, QJsonObject { { u"type"_s, u"integer"_s }, { u"default"_s, 36 } } },
              { u"note"_s, QJsonObject { { u"type"_s, u"string"_s } } } } },
        { u"required"_s, QJsonArray { u"name"_s, u"age"_s } }
    };
    QCOMPARE(McpToolkit::defaultElicitationAnswer(allDefaults),
             (QJsonObject {
                 { u"action"_s, u"accept"_s },
                 { u"content"_s, QJsonObject { { u"name"_s, u"Ada"_s }, { u"age"_s, 36 } } } }));
    QJsonObject missing = allDefaults;
    missing.insert(u"required"_s, QJsonArray { u"name"_s, u"note"_s });
    QCOMPARE(McpToolkit::defaultElicitationAnswer(missing),
             (QJsonObject { { u"action"_s, u"decline"_s } }));
}

void TestMcpToolkit::oversizedLineFailsOnlyItsCall()
{
    McpToolkit toolkit(Fake, exposingAll(fakeServer()), {});
    toolkit.setLineLimit(1024 * 1024);
    QVERIFY(prepareAndWait(toolkit).error.isEmpty());
    // A hanging call stays pending meanwhile: the dropped line is matched by its id.
    std::unique_ptr<ToolJob> hang(toolkit.createJob(makeCall(u"h"_s, u"hang"_s), nullptr));
    QSignalSpy hangSpy(hang.get(), &ToolJob::finished);
    hang->start();
    const JobRun run = runJob(toolkit, makeCall(u"c"_s, u"huge"_s), 10000);
    QVERIFY(run.result.isError);
    QCOMPARE(run.result.content,
             u"MCP server \"fake\" sent a reply larger than 1048576 bytes; it was dropped."_s);
    QCOMPARE(hangSpy.size(), 0);
    QCOMPARE(toolkit.state(), McpToolkit::State::Ready);
    QCOMPARE(runJob(toolkit, makeCall(u"c"_s, u"echo_args"_s, { { u"a"_s, 1 } })).result.content,
             u"{\"a\":1}"_s);
}

void TestMcpToolkit::jsonRpcErrorAndContentKinds()
{
    McpToolkit toolkit(Fake, exposingAll(fakeServer()), {});
    QVERIFY(prepareAndWait(toolkit).error.isEmpty());
    JobRun run = runJob(toolkit, makeCall(u"c"_s, u"fail_rpc"_s));
    QVERIFY(run.result.isError);
    QCOMPARE(run.result.content, u"MCP error -32000: boom"_s);

    run = runJob(toolkit, makeCall(u"c"_s, u"mixed"_s));
    QVERIFY(!run.result.isError);
    QCOMPARE(run.result.content,
             u"first\n[resource link: readme <file:///tmp/readme.txt>]\n[resource "
             u"<mem://note>]\nnote body\n"
             "[audio: audio/wav, about 3 bytes, not passed on]\n"
             "[content of type \"hologram\": {\"depth\":3,\"type\":\"hologram\"}]"_s);

    run = runJob(toolkit, makeCall(u"c"_s, u"structured"_s));
    QCOMPARE(run.result.content, u"{\"total\":42}"_s);

    run = runJob(toolkit, makeCall(u"c"_s, u"not_listed"_s));
    QVERIFY(!run.created); // not offered: the runner reports unknown tools itself
}

void TestMcpToolkit::timedOutCallIsCancelledOnServer()
{
    McpToolkit toolkit(Fake, fakeServer(),
                       { mcpEntry(u"hang"_s, Fake, 300), mcpEntry(u"cancelled_ids"_s, Fake) });
    QVERIFY(prepareAndWait(toolkit).error.isEmpty());
    JobRun run = runJob(toolkit, makeCall(u"c"_s, u"hang"_s), 15000);
    QCOMPARE(run.result.content, u"Tool \"hang\" timed out after 300 ms."_s);
    QVERIFY2(run.elapsedMs < 5000, qPrintable(QString::number(run.elapsedMs)));
    std::unique_ptr<ToolJob> cancelled(toolkit.createJob(makeCall(u"c2"_s, u"hang"_s), nullptr));
    cancelled->start();
    cancelled->cancel();
    run = runJob(toolkit, makeCall(u"c"_s, u"cancelled_ids"_s));
    const QJsonArray ids = QJsonDocument::fromJson(run.result.content.toUtf8()).array();
    QCOMPARE(ids.size(), 2);
    QVERIFY(ids.at(0).toInteger() > 1); // initialize and tools/list came first
    QCOMPARE(ids.at(1).toInteger(), ids.at(0).toInteger() + 1);
}

void TestMcpToolkit::serverDyingMidCallQuotesStderr()
{
    McpToolkit toolkit(Fake, exposingAll(fakeServer()), {});
    QVERIFY(prepareAndWait(toolkit).error.isEmpty());
    QSignalSpy failed(&toolkit, &McpToolkit::failed);
    const JobRun run = runJob(toolkit, makeCall(u"c"_s, u"die"_s), 5000);
    QCOMPARE(run.finishedCount, 1);
    QVERIFY(run.result.isError);
    QCOMPARE(run.result.content,
             u"MCP server \"fake\" exited with code 5.\nIts stderr ended with:\n"
             "fake server: dying on purpose"_s);
    QCOMPARE(failed.size(), 1);
}

void TestMcpToolkit::missingProgram()
{
    McpServerSpec server;
    server.command = QStringList { u"callscope-no-such-mcp-server"_s, u"--stdio"_s };
    McpToolkit toolkit(u"ghost"_s, server, { mcpEntry(u"lookup"_s, u"ghost"_s) });
    const Prepared prepared = prepareAndWait(toolkit, 15000);
    QVERIFY(prepared.answered);
    QCOMPARE(prepared.error,
             u"MCP server \"ghost\" could not start: program \"callscope-no-such-mcp-server\" "
             "not found or not executable."_s);
    QVERIFY2(prepared.ms < 5000,
             qPrintable(QString::number(prepared.ms))); // not the 30 s startup timeout
    // Its spec entry is still declared; calling it is an error result.
    QCOMPARE(toolkit.declarations().size(), 1);
    const JobRun run = runJob(toolkit, makeCall(u"c"_s, u"lookup"_s), 2000);
    QVERIFY(run.result.isError);
    QVERIFY(run.result.content.contains(u"not found or not executable"_s));
}

void TestMcpToolkit::garbageThenHang()
{
    McpServerSpec server;
    server.command = QStringList { script(u"garbage_server.sh"_s) };
    McpToolkit toolkit(u"junk"_s, server, {});
    toolkit.setStartupTimeoutMs(1000);
    toolkit.setKillGraceMs(300);
    const Prepared prepared = prepareAndWait(toolkit, 15000);
    QVERIFY(prepared.answered);
    QVERIFY2(prepared.ms >= 990 && prepared.ms < 5000,
             qPrintable(QString::number(prepared.ms))); // not 30 s
    QCOMPARE(prepared.error,
             u"MCP server \"junk\" did not finish starting within 1000 ms. It printed 3 "
             "line(s) that were not JSON-RPC; the first: Welcome to the server!"_s);
    const qint64 pid = toolkit.serverProcessId();
    QTRY_VERIFY_WITH_TIMEOUT(!processAlive(pid), 15000);
}

void TestMcpToolkit::exitsDuringStartup()
{
    McpServerSpec server;
    server.command = QStringList { script(u"dying_server.sh"_s) };
    McpToolkit toolkit(u"broken"_s, server, {});
    const Prepared prepared = prepareAndWait(toolkit, 5000);
    QVERIFY(prepared.answered);
    QCOMPARE(prepared.error,
             u"MCP server \"broken\" exited with code 3.\nIts stderr ended with:\n"
             "fatal: missing configuration FOO_TOKEN"_s);
}

int runMcpToolkitTests(int argc, char **argv)
{
    TestMcpToolkit test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_mcptoolkit.moc"
