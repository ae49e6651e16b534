// CommandToolkit against real processes: scripts in tests/data/tools, run by argument vector.

#include "core/tools/commandtoolkit.h"
#include "tests/support/testsupport.h"
#include "tests/tools/toolstest.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace Callscope;
using namespace Callscope::ToolsTest;

class TestCommandToolkit final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void declaresItsTools();
    void greetsFromStdinJson();
    void stdinReceivesExactArgumentsJson();
    void exitCodeOneWithStderrIsError();
    void stderrWithExitZeroIsError();
    void killedBySignalIsError();
    void timeoutStopsTheProcessGroup();
    void sleepFiveWithShortTimeout();
    void floodIsCutAndBounded_data();
    void floodIsCutAndBounded();
    void missingProgramIsNamed();
    void invalidUtf8IsReplacedAndNoted();
    void workingDirectoryAndRelativeProgram();
    void parallelJobsRunConcurrently();
    void cancelEndsAtOnceExactlyOnce();
    void unparsableArgumentsAreNotRun();
};

void TestCommandToolkit::initTestCase()
{
    QVERIFY2(QFileInfo(script(u"fail.sh"_s)).isExecutable(),
             qPrintable(u"test scripts missing or not executable: "_s + script(u"fail.sh"_s)));
    QVERIFY2(!nodePath().isEmpty(), "node is not installed (tools/dev.sh installs nodejs)");
}

void TestCommandToolkit::declaresItsTools()
{
    ToolSpec mock;
    mock.name = u"not_mine"_s;
    mock.runner = ToolRunnerKind::Mock;
    ToolSpec withSchema = commandTool(u"with_schema"_s, { u"cat"_s });
    withSchema.inputSchema =
        QJsonObject { { u"type"_s, u"object"_s }, { u"required"_s, QJsonArray { u"id"_s } } };
    CommandToolkit toolkit({ commandTool(u"plain"_s, { u"cat"_s }), mock, withSchema });
    const QList<ToolDeclaration> declarations = toolkit.declarations();
    QCOMPARE(declarations.size(), 2);
    QCOMPARE(declarations.at(0).name, u"plain"_s);
    QCOMPARE(declarations.at(0).description, u"test tool plain"_s);
    QCOMPARE(declarations.at(0).inputSchema, (QJsonObject { { u"type"_s, u"object"_s } }));
    QCOMPARE(declarations.at(1).inputSchema, withSchema.inputSchema);
    QVERIFY(toolkit.offers(u"plain"_s));
    QVERIFY(!toolkit.offers(u"not_mine"_s));
    QCOMPARE(toolkit.createJob(makeCall(u"x"_s, u"not_mine"_s), nullptr), nullptr);
}

void TestCommandToolkit::greetsFromStdinJson()
{
    CommandToolkit toolkit({ commandTool(u"greet"_s, { u"node"_s, script(u"greet.js"_s) }) });
    const JobRun run = runJob(
        toolkit, makeCall(u"call_1"_s, u"greet"_s, { { u"name"_s, u"Ada"_s }, { u"extra"_s, 1 } }),
        15000, 100);
    QCOMPARE(run.finishedCount, 1);
    QVERIFY2(!run.result.isError, qPrintable(run.result.content));
    QCOMPARE(run.result.content, u"Hello, Ada! (2 argument(s))"_s);
    QCOMPARE(run.result.callId, u"call_1"_s);
    QCOMPARE(run.result.name, u"greet"_s);
}

void TestCommandToolkit::stdinReceivesExactArgumentsJson()
{
    CommandToolkit toolkit({ commandTool(u"cat"_s, { u"cat"_s }) });
    const QJsonObject arguments { { u"text"_s, u"zürich \"quoted\"\nline"_s },
                                  { u"n"_s, QJsonArray { 1, 2.5, true } } };
    const JobRun run = runJob(toolkit, makeCall(u"c"_s, u"cat"_s, arguments));
    QVERIFY(!run.result.isError);
    QCOMPARE(run.result.content,
             u"{\"n\":[1,2.5,true],\"text\":\"zürich \\\"quoted\\\"\\nline\"}"_s);
}

void TestCommandToolkit::exitCodeOneWithStderrIsError()
{
    CommandToolkit toolkit({ commandTool(u"get_ticket"_s, { script(u"fail.sh"_s), u"T-7"_s }) });
    const JobRun run = runJob(toolkit, makeCall(u"c"_s, u"get_ticket"_s, { { u"id"_s, 7 } }));
    QCOMPARE(run.finishedCount, 1);
    QVERIFY(run.result.isError);
    QCOMPARE(run.result.content,
             u"Tool \"get_ticket\" failed with exit code 1.\nstderr:\nticket T-7 not found\n"
             "\nstdout:\npartial output\n"_s);
}

void TestCommandToolkit::stderrWithExitZeroIsError()
{
    CommandToolkit toolkit({ commandTool(u"warn"_s, { script(u"warn.sh"_s) }) });
    const JobRun run = runJob(toolkit, makeCall(u"c"_s, u"warn"_s));
    QVERIFY(run.result.isError);
    QVERIFY2(run.result.content.startsWith(u"Tool \"warn\" wrote to stderr (exit code 0)"_s),
             qPrintable(run.result.content));
    QVERIFY(run.result.content.contains(u"stderr:\ndeprecated option"_s));
    QVERIFY(run.result.content.contains(u"stdout:\nresult"_s));
}

void TestCommandToolkit::killedBySignalIsError()
{
    CommandToolkit toolkit({ commandTool(u"crash"_s, { script(u"crash.sh"_s) }) });
    const JobRun run = runJob(toolkit, makeCall(u"c"_s, u"crash"_s));
    QVERIFY(run.result.isError);
    QVERIFY2(run.result.content.startsWith(u"Tool \"crash\" crashed or was killed by a signal."_s),
             qPrintable(run.result.content));
}

void TestCommandToolkit::timeoutStopsTheProcessGroup()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString pidFile = dir.filePath(u"pids"_s);
    CommandToolkit toolkit({ commandTool(u"slow"_s, { script(u"sleeper.sh"_s), pidFile }, 300) });
    toolkit.setKillGraceMs(500);
    const JobRun run = runJob(toolkit, makeCall(u"c"_s, u"slow"_s), 5000, 100);
    QCOMPARE(run.finishedCount, 1);
    QVERIFY(run.result.isError);
    QCOMPARE(run.result.content,
             u"Tool \"slow\" timed out after 300 ms; the process was stopped."_s);
    QVERIFY2(run.elapsedMs >= 290 && run.elapsedMs < 5000,
             qPrintable(QString::number(run.elapsedMs))); // the script sleeps 30 s
    // The script and the `sleep 30` it started are both gone: the whole group was stopped.
    const QList<QByteArray> pids = Test::readFile(pidFile).trimmed().split(' ');
    QCOMPARE(pids.size(), 2);
    for (const QByteArray &pid : pids)
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive(pid.toLongLong()), 15000);
}

void TestCommandToolkit::sleepFiveWithShortTimeout()
{
    CommandToolkit toolkit({ commandTool(u"sleep"_s, { u"sleep"_s, u"5"_s }, 300) });
    const JobRun run = runJob(toolkit, makeCall(u"c"_s, u"sleep"_s), 5000);
    QVERIFY(run.result.isError);
    QVERIFY(run.result.content.contains(u"timed out after 300 ms"_s));
    QVERIFY2(run.elapsedMs < 4000, qPrintable(QString::number(run.elapsedMs))); // not the 5 s sleep
}

void TestCommandToolkit::floodIsCutAndBounded_data()
{
    QTest::addColumn<QString>("stream");
    QTest::newRow("stdout") << u"stdout"_s;
    QTest::newRow("stderr") << u"stderr"_s;
}

void TestCommandToolkit::floodIsCutAndBounded()
{
    QFETCH(QString, stream);
    const qint64 peakBefore = peakRssKiB();
    QVERIFY(peakBefore > 0);
    CommandToolkit toolkit({ commandTool(u"flood"_s, { script(u"flood.sh"_s), stream }) });
    QCOMPARE(toolkit.outputLimit(), 1024 * 1024);
    const JobRun run = runJob(toolkit, makeCall(u"c"_s, u"flood"_s), 10000);
    QCOMPARE(run.finishedCount, 1);
    QVERIFY(run.result.isError);
    QVERIFY2(
        run.result.content.startsWith(
            u"Tool \"flood\" wrote more than 1048576 bytes to %1: the output was cut at 1048576 bytes"_s
                .arg(stream)),
        qPrintable(run.result.content.left(300)));
    QVERIFY(run.result.content.contains(u"aaaaaaaaaa"_s)); // the preview
    QVERIFY2(run.result.content.size() < 4096,
             qPrintable(QString::number(run.result.content.size())));
    QVERIFY2(run.elapsedMs < 15000, qPrintable(QString::number(run.elapsedMs)));
    // 50 MB went through a pipe; this process never held more than a few MiB of it.
    const qint64 grown = peakRssKiB() - peakBefore;
    qInfo("%s flood: cut after %lld ms, peak RSS grew by %lld KiB", qPrintable(stream),
          run.elapsedMs, grown);
    QVERIFY2(grown < 24 * 1024, qPrintable(QString::number(grown)));
}

void TestCommandToolkit::missingProgramIsNamed()
{
    CommandToolkit toolkit({ commandTool(u"ghost"_s, { u"callscope-no-such-program"_s, u"x"_s }),
                             commandTool(u"ghost2"_s, { u"./no-such-script.sh"_s }) });
    toolkit.setWorkingDirectory(QDir::tempPath());
    JobRun run = runJob(toolkit, makeCall(u"c1"_s, u"ghost"_s), 5000, 50);
    QCOMPARE(run.finishedCount, 1);
    QVERIFY(run.result.isError);
    QCOMPARE(run.result.content,
             u"Tool \"ghost\" could not start: program \"callscope-no-such-program\" "
             "not found or not executable."_s);
    QCOMPARE(run.result.callId, u"c1"_s);
    run = runJob(toolkit, makeCall(u"c2"_s, u"ghost2"_s), 5000);
    QVERIFY(run.result.isError);
    QVERIFY(run.result.content.contains(u"\"./no-such-script.sh\" not found"_s));
}

void TestCommandToolkit::invalidUtf8IsReplacedAndNoted()
{
    CommandToolkit toolkit({ commandTool(u"bytes"_s, { script(u"badutf8.sh"_s) }) });
    const JobRun run = runJob(toolkit, makeCall(u"c"_s, u"bytes"_s));
    QVERIFY2(!run.result.isError, qPrintable(run.result.content));
    QCOMPARE(run.result.content,
             u"café \uFFFD ok\n[note: the output was not valid UTF-8; invalid bytes were replaced "
             "with U+FFFD]"_s);
}

void TestCommandToolkit::workingDirectoryAndRelativeProgram()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    CommandToolkit toolkit({ commandTool(u"where"_s, { script(u"pwd.sh"_s) }),
                             commandTool(u"relative"_s, { u"./pwd.sh"_s }) });
    toolkit.setWorkingDirectory(dir.path());
    JobRun run = runJob(toolkit, makeCall(u"c"_s, u"where"_s));
    QCOMPARE(run.result.content, QFileInfo(dir.path()).canonicalFilePath() + u'\n');
    // A relative program path is taken from the working directory (the spec's folder).
    toolkit.setWorkingDirectory(script(QString()));
    run = runJob(toolkit, makeCall(u"c"_s, u"relative"_s));
    QVERIFY2(!run.result.isError, qPrintable(run.result.content));
    QCOMPARE(run.result.content, QFileInfo(script(QString())).canonicalFilePath() + u'\n');
}

void TestCommandToolkit::parallelJobsRunConcurrently()
{
    CommandToolkit toolkit({ commandTool(u"slowcat"_s, { script(u"slowcat.sh"_s) }) });
    QList<ToolJob *> jobs;
    QHash<QString, ToolResult> results;
    for (int i = 0; i < 3; ++i) {
        ToolJob *job =
            toolkit.createJob(makeCall(u"call_%1"_s.arg(i), u"slowcat"_s, { { u"i"_s, i } }), this);
        connect(job, &ToolJob::finished, this,
                [&results](const ToolResult &result) { results.insert(result.callId, result); });
        jobs.append(job);
    }
    QElapsedTimer clock;
    clock.start();
    for (ToolJob *job : std::as_const(jobs))
        job->start();
    QTRY_COMPARE_WITH_TIMEOUT(results.size(), 3, 15000);
    const qint64 elapsed = clock.elapsed();
    qInfo("three 400 ms tools in parallel took %lld ms", elapsed);
    QVERIFY2(elapsed < 1100, qPrintable(QString::number(elapsed))); // one after another: >= 1200
    for (int i = 0; i < 3; ++i)
        QCOMPARE(results.value(u"call_%1"_s.arg(i)).content, u"{\"i\":%1}"_s.arg(i));
    qDeleteAll(jobs);
}

void TestCommandToolkit::cancelEndsAtOnceExactlyOnce()
{
    CommandToolkit toolkit({ commandTool(u"sleep"_s, { u"sleep"_s, u"5"_s }) });
    std::unique_ptr<ToolJob> job(toolkit.createJob(makeCall(u"c9"_s, u"sleep"_s), nullptr));
    QSignalSpy spy(job.get(), &ToolJob::finished);
    job->start();
    QTest::qWait(100);
    QCOMPARE(spy.size(), 0);
    job->cancel();
    QCOMPARE(spy.size(), 1); // at once, not on a later event
    const auto result = spy.at(0).at(0).value<ToolResult>();
    QVERIFY(result.isError);
    QCOMPARE(result.content, u"cancelled"_s);
    QCOMPARE(result.callId, u"c9"_s);
    job->cancel();
    QTest::qWait(300);
    QCOMPARE(spy.size(), 1);
}

void TestCommandToolkit::unparsableArgumentsAreNotRun()
{
    QTemporaryDir dir;
    const QString marker = dir.filePath(u"ran"_s);
    CommandToolkit toolkit({ commandTool(u"touch"_s, { u"touch"_s, marker }) });
    ToolCall call = makeCall(u"c"_s, u"touch"_s);
    call.rawArguments = u"{\"a\": "_s;
    call.argumentsError = u"unterminated object"_s;
    const JobRun run = runJob(toolkit, call);
    QVERIFY(run.result.isError);
    QCOMPARE(
        run.result.content,
        u"Tool \"touch\" was not run: its arguments are not a JSON object (unterminated object)."_s);
    QVERIFY(!QFileInfo::exists(marker));
}

int runCommandToolkitTests(int argc, char **argv)
{
    TestCommandToolkit test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_commandtoolkit.moc"
