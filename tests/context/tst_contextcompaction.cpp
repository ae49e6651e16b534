// Where compaction cuts a conversation (core/context/compactionplan.h).

#include "core/context/compactionplan.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace Callscope;

namespace {

// "u" user, "a" assistant text, "a:c1,c2" assistant calling c1 and c2, "t:c1,c2" their results.
QList<Message> parse(const QString &script)
{
    QList<Message> messages;
    const QStringList tokens = script.split(u' ', Qt::SkipEmptyParts);
    for (const QString &token : tokens) {
        const QString kind = token.section(u':', 0, 0);
        const QStringList ids = token.section(u':', 1).split(u',', Qt::SkipEmptyParts);
        if (kind == u"u") {
            messages.append(Message::user(u"question"_s));
        } else if (kind == u"a") {
            QList<ToolCall> calls;
            for (const QString &id : ids)
                calls.append(ToolCall { id, u"tool_"_s + id, {}, u"{}"_s, {}, {} });
            messages.append(Message::assistant(calls.isEmpty() ? u"answer"_s : QString(), calls));
        } else if (kind == u"t") {
            QList<ToolResult> results;
            for (const QString &id : ids)
                results.append(ToolResult { id, u"tool_"_s + id, u"result"_s, false, {} });
            messages.append(Message::toolResultsMessage(results));
        }
    }
    return messages;
}

} // namespace

class TestContextCompaction final : public QObject
{
    Q_OBJECT

private slots:
    void needed_data();
    void needed();
    void plan_data();
    void plan();
};

void TestContextCompaction::needed_data()
{
    QTest::addColumn<qint64>("prompt");
    QTest::addColumn<qint64>("output");
    QTest::addColumn<qint64>("limit");
    QTest::addColumn<bool>("expected");
    QTest::newRow("at the limit") << qint64(100) << qint64(20) << qint64(120) << false;
    QTest::newRow("one over") << qint64(100) << qint64(21) << qint64(120) << true;
    QTest::newRow("prompt alone over") << qint64(130) << qint64(0) << qint64(120) << true;
    QTest::newRow("limit 0 is off") << qint64(5000) << qint64(10) << qint64(0) << false;
    QTest::newRow("negative limit is off") << qint64(5000) << qint64(10) << qint64(-1) << false;
}

void TestContextCompaction::needed()
{
    QFETCH(qint64, prompt);
    QFETCH(qint64, output);
    QFETCH(qint64, limit);
    QFETCH(bool, expected);
    QCOMPARE(compactionNeeded(prompt, output, limit), expected);
}

void TestContextCompaction::plan_data()
{
    QTest::addColumn<QString>("script");
    QTest::addColumn<int>("keep");
    QTest::addColumn<int>("fold");
    QTest::addColumn<int>("extra");

    QTest::newRow("empty") << QString() << 4 << 0 << 0;
    QTest::newRow("plain chat") << u"u a u a"_s << 2 << 2 << 0;
    QTest::newRow("keep more than there is") << u"u a u a"_s << 9 << 0 << 0;
    QTest::newRow("keep 0 folds all") << u"u a:c1 t:c1"_s << 0 << 3 << 0;
    QTest::newRow("negative keep folds all") << u"u a"_s << -3 << 2 << 0;
    QTest::newRow("cut on a result moves before its call") << u"u a:c1 t:c1 a u"_s << 3 << 1 << 1;
    QTest::newRow("cut after a result is fine") << u"u a:c1 t:c1 a u"_s << 2 << 3 << 0;
    QTest::newRow("second tool turn") << u"u a:c1 t:c1 a:c2 t:c2 a"_s << 2 << 3 << 1;
    QTest::newRow("parallel calls in one message") << u"u a:c1,c2 t:c1,c2 a"_s << 2 << 1 << 1;
    QTest::newRow("results of two call messages") << u"u a:c1 a:c2 t:c1,c2 a"_s << 2 << 1 << 2;
    QTest::newRow("moving the cut pulls in older results")
        << u"u a:c1 a:c2 t:c1 t:c2 u"_s << 2 << 1 << 3;
    QTest::newRow("orphan result does not move the cut") << u"u t:zz a"_s << 2 << 1 << 0;
    QTest::newRow("everything must stay") << u"a:c1 t:c1"_s << 1 << 0 << 1;
    QTest::newRow("unanswered call at the end") << u"u a u a:c9"_s << 1 << 3 << 0;
}

void TestContextCompaction::plan()
{
    QFETCH(QString, script);
    QFETCH(int, keep);
    QFETCH(int, fold);
    QFETCH(int, extra);

    const QList<Message> messages = parse(script);
    const CompactionPlan plan = planCompaction(messages, keep);
    QCOMPARE(plan.foldCount, fold);
    QCOMPARE(plan.extraKept, extra);
    QCOMPARE(plan.isEmpty(), fold == 0);

    // The invariant itself: no kept result answers a folded call.
    QSet<QString> folded;
    for (int m = 0; m < plan.foldCount; ++m) {
        for (const ToolCall &call : messages[m].toolCalls)
            folded.insert(call.id);
    }
    for (qsizetype m = plan.foldCount; m < messages.size(); ++m) {
        for (const ToolResult &result : messages[m].toolResults)
            QVERIFY2(!folded.contains(result.callId), qPrintable(result.callId));
    }
}

int runContextCompactionTests(int argc, char **argv)
{
    TestContextCompaction test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_contextcompaction.moc"
