#pragma once

// Inline JavaScript in experiments, on Qt's own engine (QJSEngine, from Qt Qml): the
// `javascript` assertion and the `transform` of a case or an assertion. A script is an
// expression (`output.color === 'yellow'`) or a function body (statements, `return`); it sees
// `output` (the parsed output, or the text), `vars` (the case's), `expected`, and `turns` (the
// call's messages). Each script runs in a fresh engine with nothing installed beyond the ECMAScript
// built-ins: no `require`, no `XMLHttpRequest`, no console, no file, network or process
// access. A watchdog thread interrupts a script at its time limit.
//
// ScriptedAssertion runs the assertions of a run that involve a script on a worker thread, so
// a slow script never holds up the thread that runs the experiment.

#include "core/eval/assertions.h"

#include <QFutureWatcher>
#include <QJsonArray>
#include <QJsonValue>
#include <QObject>

namespace Callscope {

constexpr int DefaultScriptTimeoutMs = 2000;

struct ScriptInput
{
    QJsonValue output;
    QJsonObject vars;
    QJsonValue expected;
    QJsonArray turns;
};

struct ScriptResult
{
    bool ok = false; // ran to its end without throwing
    QJsonValue value; // what it returned
    QString error; // what it threw, or why it stopped
    bool timedOut = false;
};

// Empty when `source` compiles; otherwise the syntax error with its line ("line 2: ...").
QString checkScriptSyntax(const QString &source);
ScriptResult runScript(const QString &source, const ScriptInput &input,
                       int timeoutMs = DefaultScriptTimeoutMs);

// Whether this assertion of this case needs a script: a `javascript` assertion, or a
// `transform` on the assertion or on the case.
bool needsScript(const Assertion &assertion, const DatasetRow &row);
// The assertion checked with its scripts (on the calling thread): the case's transform, then
// the assertion's, then the check itself on the transformed output.
AssertionResult evaluateScripted(const Assertion &assertion, const CallRecord &record,
                                 const DatasetRow &row);

class ScriptedAssertion final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ScriptedAssertion)

public:
    ScriptedAssertion(const Assertion &assertion, const CallRecord &record, const DatasetRow &row,
                      QObject *parent = nullptr);
    ~ScriptedAssertion() override;
    void start();

Q_SIGNALS:
    void finished(const Callscope::AssertionResult &result);

private:
    Assertion m_assertion;
    CallRecord m_record;
    DatasetRow m_row;
    QFutureWatcher<AssertionResult> m_watcher;
};

} // namespace Callscope
