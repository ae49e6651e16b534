// MockToolkit: canned results, lists in order, mocked errors.

#include "core/tools/mocktoolkit.h"
#include "tests/tools/toolstest.h"

#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace Callscope;
using namespace Callscope::ToolsTest;

namespace {
ToolSpec mockTool(const QString &name, const QJsonValue &mock)
{
    ToolSpec tool;
    tool.name = name;
    tool.runner = ToolRunnerKind::Mock;
    tool.mock = mock;
    return tool;
}
} // namespace

class TestMockToolkit final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void singleValue_data();
    void singleValue();
    void listInOrderThenLastRepeats();
    void errorValue();
    void countsPerToolAndPerToolkit();
    void answersAfterStartAndCancel();
};

void TestMockToolkit::singleValue_data()
{
    QTest::addColumn<QJsonValue>("mock");
    QTest::addColumn<QString>("content");
    QTest::newRow("string as is") << QJsonValue(u"{\"not\": parsed}"_s) << u"{\"not\": parsed}"_s;
    QTest::newRow("object compact")
        << QJsonValue(QJsonObject { { u"b"_s, 1 }, { u"a"_s, QJsonArray { true, QJsonValue() } } })
        << u"{\"a\":[true,null],\"b\":1}"_s;
    QTest::newRow("number") << QJsonValue(3.5) << u"3.5"_s;
    QTest::newRow("null") << QJsonValue() << u"null"_s;
    QTest::newRow("one array, written as [[...]]")
        << QJsonValue(QJsonArray { QJsonArray { 1, 2 } }) << u"[1,2]"_s;
    QTest::newRow("empty array") << QJsonValue(QJsonArray()) << u"[]"_s;
    QTest::newRow("$error with other keys is plain data")
        << QJsonValue(QJsonObject { { u"$error"_s, u"x"_s }, { u"more"_s, 1 } })
        << u"{\"$error\":\"x\",\"more\":1}"_s;
}

void TestMockToolkit::singleValue()
{
    QFETCH(QJsonValue, mock);
    QFETCH(QString, content);
    MockToolkit toolkit({ mockTool(u"lookup"_s, mock) });
    for (int i = 0; i < 3; ++i) {
        const JobRun run = runJob(toolkit, makeCall(u"c%1"_s.arg(i), u"lookup"_s), 2000);
        QCOMPARE(run.finishedCount, 1);
        QVERIFY(!run.result.isError);
        QCOMPARE(run.result.content, content);
        QCOMPARE(run.result.callId, u"c%1"_s.arg(i));
        QCOMPARE(run.result.name, u"lookup"_s);
    }
}

void TestMockToolkit::listInOrderThenLastRepeats()
{
    const QJsonArray list { u"first"_s, QJsonObject { { u"n"_s, 2 } },
                            QJsonObject { { u"$error"_s, u"busy"_s } }, u"last"_s };
    MockToolkit toolkit({ mockTool(u"step"_s, list) });
    const QStringList expected { u"first"_s, u"{\"n\":2}"_s, u"busy"_s,
                                 u"last"_s,  u"last"_s,      u"last"_s };
    for (qsizetype i = 0; i < expected.size(); ++i) {
        const JobRun run = runJob(toolkit, makeCall(u"c"_s, u"step"_s), 2000);
        QCOMPARE(run.result.content, expected.at(i));
        QCOMPARE(run.result.isError, i == 2);
    }
}

void TestMockToolkit::errorValue()
{
    MockToolkit toolkit(
        { mockTool(u"quota"_s, QJsonObject { { u"$error"_s, u"quota exceeded"_s } }),
          mockTool(u"structured"_s,
                   QJsonObject { { u"$error"_s, QJsonObject { { u"code"_s, 429 } } } }) });
    JobRun run = runJob(toolkit, makeCall(u"c"_s, u"quota"_s), 2000);
    QVERIFY(run.result.isError);
    QCOMPARE(run.result.content, u"quota exceeded"_s);
    run = runJob(toolkit, makeCall(u"c"_s, u"structured"_s), 2000);
    QVERIFY(run.result.isError);
    QCOMPARE(run.result.content, u"{\"code\":429}"_s);
}

void TestMockToolkit::countsPerToolAndPerToolkit()
{
    const QList<ToolSpec> tools { mockTool(u"a"_s, QJsonArray { 1, 2 }),
                                  mockTool(u"b"_s, QJsonArray { 10, 20 }) };
    MockToolkit toolkit(tools);
    QCOMPARE(runJob(toolkit, makeCall(u"c"_s, u"a"_s)).result.content, u"1"_s);
    QCOMPARE(runJob(toolkit, makeCall(u"c"_s, u"b"_s)).result.content, u"10"_s);
    QCOMPARE(runJob(toolkit, makeCall(u"c"_s, u"a"_s)).result.content, u"2"_s);
    MockToolkit fresh(tools); // a new run starts again at the first value
    QCOMPARE(runJob(fresh, makeCall(u"c"_s, u"a"_s)).result.content, u"1"_s);
    QCOMPARE(toolkit.declarations().size(), 2);
    QCOMPARE(toolkit.declarations().at(1).name, u"b"_s);
    QCOMPARE(toolkit.createJob(makeCall(u"c"_s, u"other"_s), nullptr), nullptr);
}

void TestMockToolkit::answersAfterStartAndCancel()
{
    MockToolkit toolkit({ mockTool(u"m"_s, u"value"_s) });
    std::unique_ptr<ToolJob> job(toolkit.createJob(makeCall(u"c1"_s, u"m"_s), nullptr));
    QSignalSpy spy(job.get(), &ToolJob::finished);
    job->start();
    QCOMPARE(spy.size(), 0); // never from inside start()
    QVERIFY(spy.wait(15000));
    QCOMPARE(spy.at(0).at(0).value<ToolResult>().content, u"value"_s);

    std::unique_ptr<ToolJob> cancelled(toolkit.createJob(makeCall(u"c2"_s, u"m"_s), nullptr));
    QSignalSpy cancelSpy(cancelled.get(), &ToolJob::finished);
    cancelled->start();
    cancelled->cancel(); // before the queued answer: the answer is dropped
    QCOMPARE(cancelSpy.size(), 1);
    QCOMPARE(cancelSpy.at(0).at(0).value<ToolResult>().content, u"cancelled"_s);
    QTest::qWait(100);
    QCOMPARE(cancelSpy.size(), 1);
}

int runMockToolkitTests(int argc, char **argv)
{
    TestMockToolkit test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_mocktoolkit.moc"
