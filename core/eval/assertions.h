#pragma once

// The checks of an experiment, one function per type behind one table.
// checkAssertion() runs when the experiment loads (a bad pointer, pattern or schema is refused
// before any token is spent); evaluateAssertion() runs on a finished call. `command` runs a
// program and is asynchronous: CommandAssertion does it.

#include "core/eval/experiment.h"
#include "core/model/callrecord.h"

#include <QObject>
#include <QPointer>

class QProcess;

namespace Callscope {

struct AssertionResult
{
    QString type;
    QString name;
    bool passed = false;
    QString reason; // why it failed (or what it saw, for passes that say so)
    double weight = 1;
    qint64 judgeCallId = 0; // a judge's own stored call

    QJsonObject toJson() const;
    static AssertionResult fromJson(const QJsonObject &object);
};

// The assertion types this version knows.
QStringList assertionTypes();
// Empty when `assertion` is usable; otherwise what is wrong (its parameter named).
QString checkAssertion(const Assertion &assertion);
// Whether the type is checked asynchronously (command, judge).
bool isAsyncAssertion(const QString &type);
// A judge assertion's call: kind `judge`, the rubric in the system prompt, a {score, reason}
// schema, the assertion's engine; and what it reads (the task and the output).
QJsonObject judgeSpecJson(const Assertion &assertion);
QString judgeInput(const CallRecord &record);

// The model's tool calls in order (submit_output included in tool mode), from the record.
QList<ToolCall> toolTrajectory(const CallRecord &record);

// The weighted share of a run's checks that passed (each result's "weight", default 1): 1 when
// all passed, 0 when none did. It does not change whether a run passes (every check must), it
// says how close a failing run came. When every weight is 0 it is 1 or 0 as the run passed.
double weightedScore(const QJsonArray &results);

// The verdict reversed when the assertion says "not": true (a call with no output still fails).
AssertionResult negated(const Assertion &assertion, const CallRecord &record,
                        AssertionResult result);

// Every synchronous type; for an async type it returns a failed result saying so.
AssertionResult evaluateAssertion(const Assertion &assertion, const CallRecord &record,
                                  const DatasetRow &row);

// A `command` assertion: the call's JSON on stdin; exit 0 passes; stdout (first 2,000
// characters) is the reason. Times out after 30 s. `finished` once.
class CommandAssertion final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CommandAssertion)

public:
    CommandAssertion(const Assertion &assertion, const CallRecord &record,
                     const QString &workingDir, QObject *parent = nullptr);
    ~CommandAssertion() override;
    void start();

Q_SIGNALS:
    void finished(const Callscope::AssertionResult &result);

private:
    // `broken`: the command did not give a verdict (it could not start, crashed or took too
    // long); such a result stays failed under "not".
    void done(bool passed, const QString &reason, bool broken = false);

    Assertion m_assertion;
    CallRecord m_record;
    QString m_workingDir;
    QPointer<QProcess> m_process;
    bool m_done = false;
};

} // namespace Callscope
