// buildToolkits() and ToolRegistry on a spec that uses every kind of tool.

#include "core/tools/commandtoolkit.h"
#include "core/tools/mcptoolkit.h"
#include "core/tools/mocktoolkit.h"
#include "core/tools/toolregistry.h"
#include "tests/support/testsupport.h"
#include "tests/tools/toolstest.h"

#include <QFileInfo>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace Callscope;
using namespace Callscope::ToolsTest;

class TestToolRegistry final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void specWithEveryKind();
    void failuresAreReportedTogether();
    void emptySpecIsReadyToo();
};

namespace {
Spec everyKindSpec()
{
    Spec spec;
    // Relative paths in the spec are taken from the spec file's folder.
    spec.sourcePath = script(u"every-kind.spec.json"_s);
    spec.tools.append(commandTool(u"where_am_i"_s, { u"./pwd.sh"_s }));
    ToolSpec manual;
    manual.name = u"ask_human"_s;
    manual.description = u"Ask the person"_s;
    manual.runner = ToolRunnerKind::Manual;
    spec.tools.append(manual);
    ToolSpec weather;
    weather.name = u"get_weather"_s;
    weather.runner = ToolRunnerKind::Mock;
    weather.mock = QJsonArray { u"sunny"_s, u"rain"_s };
    spec.tools.append(weather);
    ToolSpec echo = mcpEntry(u"echo"_s, u"everything"_s);
    echo.description = u"Say it back"_s;
    spec.tools.append(echo);
    spec.tools.append(commandTool(u"greet"_s, { u"node"_s, u"greet.js"_s }));
    spec.mcpServers.insert(u"everything"_s, everythingServer());
    McpServerSpec fake = fakeServer();
    fake.exposeAll = true;
    spec.mcpServers.insert(u"fake"_s, fake);
    McpServerSpec unused;
    unused.command = QStringList { u"callscope-no-such-server"_s };
    spec.mcpServers.insert(u"unused"_s, unused); // named by no tool: never started
    return spec;
}

QStringList namesOf(const QList<ToolDeclaration> &declarations)
{
    QStringList names;
    for (const ToolDeclaration &declaration : declarations)
        names.append(declaration.name);
    return names;
}
} // namespace

void TestToolRegistry::initTestCase()
{
    QVERIFY2(!nodePath().isEmpty(), "node is not installed (tools/dev.sh installs nodejs)");
    QVERIFY2(!everythingServerScript().isEmpty(),
             qPrintable(u"@modelcontextprotocol/server-everything is not installed in "_s + npmDir()
                        + u": run `npm install` there"_s));
}

void TestToolRegistry::specWithEveryKind()
{
    const Spec spec = everyKindSpec();

    QObject owner;
    const QList<Toolkit *> built = buildToolkits(spec, &owner);
    QCOMPARE(built.size(), 4);
    QVERIFY(qobject_cast<CommandToolkit *>(built.at(0)));
    QCOMPARE(qobject_cast<CommandToolkit *>(built.at(0))->workingDirectory(),
             QFileInfo(script(u"every-kind.spec.json"_s)).absolutePath());
    QVERIFY(qobject_cast<MockToolkit *>(built.at(1)));
    QCOMPARE(qobject_cast<McpToolkit *>(built.at(2))->serverName(), u"everything"_s);
    QCOMPARE(qobject_cast<McpToolkit *>(built.at(3))->serverName(), u"fake"_s);
    for (Toolkit *toolkit : built)
        QCOMPARE(toolkit->parent(), &owner);

    ToolRegistry registry(spec);
    QCOMPARE(registry.toolkits().size(), 4);
    QSignalSpy ready(&registry, &ToolRegistry::ready);
    registry.prepare();
    QVERIFY(ready.wait(30000));
    QCOMPARE(ready.at(0).at(0).toString(), QString());
    QVERIFY(registry.isReady());

    // Spec order first, then what the fake server exposes, in its listing order.
    QCOMPARE(
        namesOf(registry.declarations()),
        (QStringList { u"where_am_i"_s, u"ask_human"_s, u"get_weather"_s, u"echo"_s, u"greet"_s,
                       u"echo_args"_s, u"huge"_s, u"hang"_s, u"die"_s, u"fail_rpc"_s, u"mixed"_s,
                       u"client_answers"_s, u"cancelled_ids"_s, u"structured"_s, u"wipe_disk"_s,
                       u"read_notes"_s, u"typed_good"_s, u"typed_bad"_s }));
    const ToolDeclaration echo = registry.declarations().at(3);
    QCOMPARE(echo.description, u"Say it back"_s); // the entry's text wins
    QCOMPARE(echo.inputSchema.value(u"required"_s).toArray(),
             QJsonArray { u"message"_s }); // the server's
    QCOMPARE(registry.declarations().at(1).description, u"Ask the person"_s);

    QVERIFY(registry.isManual(u"ask_human"_s));
    QVERIFY(!registry.isManual(u"echo"_s));
    QVERIFY(registry.offers(u"ask_human"_s));
    QCOMPARE(registry.toolkitFor(u"ask_human"_s), nullptr);
    QCOMPARE(registry.createJob(makeCall(u"c"_s, u"ask_human"_s), nullptr), nullptr);
    QCOMPARE(registry.toolkitFor(u"unknown_tool"_s), nullptr);
    QVERIFY(!registry.offers(u"unknown_tool"_s));
    QVERIFY(qobject_cast<CommandToolkit *>(registry.toolkitFor(u"where_am_i"_s)));
    QVERIFY(qobject_cast<MockToolkit *>(registry.toolkitFor(u"get_weather"_s)));
    QCOMPARE(qobject_cast<McpToolkit *>(registry.toolkitFor(u"echo"_s))->serverName(),
             u"everything"_s);
    QCOMPARE(qobject_cast<McpToolkit *>(registry.toolkitFor(u"mixed"_s))->serverName(), u"fake"_s);
    QVERIFY(!registry.offers(u"get-sum"_s)); // everything exposes only its entry

    const auto run = [&](const ToolCall &call) {
        std::unique_ptr<ToolJob> job(registry.createJob(call, nullptr));
        ToolResult result;
        if (!job)
            return result;
        QSignalSpy spy(job.get(), &ToolJob::finished);
        job->start();
        if (spy.wait(15000))
            result = spy.at(0).at(0).value<ToolResult>();
        return result;
    };
    QCOMPARE(run(makeCall(u"1"_s, u"where_am_i"_s)).content,
             QFileInfo(script(QString())).canonicalFilePath() + u'\n');
    QCOMPARE(run(makeCall(u"2"_s, u"greet"_s, { { u"name"_s, u"Bo"_s } })).content,
             u"Hello, Bo! (1 argument(s))"_s);
    QCOMPARE(run(makeCall(u"3"_s, u"get_weather"_s)).content, u"sunny"_s);
    QCOMPARE(run(makeCall(u"4"_s, u"get_weather"_s)).content, u"rain"_s);
    QCOMPARE(run(makeCall(u"5"_s, u"echo"_s, { { u"message"_s, u"hi"_s } })).content,
             u"Echo: hi"_s);
    QCOMPARE(run(makeCall(u"6"_s, u"echo_args"_s, { { u"k"_s, u"v"_s } })).content,
             u"{\"k\":\"v\"}"_s);

    QList<qint64> pids;
    for (Toolkit *toolkit : registry.toolkits()) {
        if (auto *mcp = qobject_cast<McpToolkit *>(toolkit))
            pids.append(mcp->serverProcessId());
    }
    QCOMPARE(pids.size(), 2);
    registry.shutdown();
    for (qint64 pid : std::as_const(pids))
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive(pid), 15000);
}

void TestToolRegistry::failuresAreReportedTogether()
{
    Spec spec;
    spec.tools.append(mcpEntry(u"lookup"_s, u"ghost"_s));
    spec.tools.append(mcpEntry(u"orphan"_s, u"undefined_server"_s));
    ToolSpec mock;
    mock.name = u"m"_s;
    mock.runner = ToolRunnerKind::Mock;
    mock.mock = u"ok"_s;
    spec.tools.append(mock);
    McpServerSpec ghost;
    ghost.command = QStringList { u"callscope-no-such-mcp-server"_s };
    spec.mcpServers.insert(u"ghost"_s, ghost);

    ToolRegistry registry(spec);
    QCOMPARE(registry.toolkits().size(), 2); // mock + ghost; no toolkit for an undefined server
    QSignalSpy ready(&registry, &ToolRegistry::ready);
    registry.prepare();
    QVERIFY(ready.wait(15000));
    QCOMPARE(ready.size(), 1);
    QCOMPARE(
        ready.at(0).at(0).toString(),
        u"Tool \"orphan\" names MCP server \"undefined_server\", which the spec does not define.\n"
        "MCP server \"ghost\" could not start: program \"callscope-no-such-mcp-server\" not found "
        "or "
        "not executable."_s);
    // The failed server's entry is still declared (calls end with error results); the tool of
    // the undefined server is not.
    QCOMPARE(namesOf(registry.declarations()), (QStringList { u"lookup"_s, u"m"_s }));
    QVERIFY(registry.toolkitFor(u"lookup"_s));
    QVERIFY(!registry.toolkitFor(u"orphan"_s));
}

void TestToolRegistry::emptySpecIsReadyToo()
{
    ToolRegistry registry(Spec {});
    QSignalSpy ready(&registry, &ToolRegistry::ready);
    registry.prepare();
    QCOMPARE(ready.size(), 0);
    QVERIFY(ready.wait(15000));
    QCOMPARE(ready.at(0).at(0).toString(), QString());
    QVERIFY(registry.declarations().isEmpty());
}

int runToolRegistryTests(int argc, char **argv)
{
    TestToolRegistry test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_toolregistry.moc"
