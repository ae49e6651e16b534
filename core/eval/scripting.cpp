#include "core/eval/scripting.h"

#include <QCoreApplication>
#include <QJSEngine>
#include <QJsonDocument>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(ExperimentScripts)
};

// The script as a function of its inputs, in either of two forms: an expression whose value
// is returned, or a function body as written (statements, `return`). Neither adds a line
// before the script, so the engine's line numbers are the script's.
QString asExpression(const QString &source)
{
    return u"(function (output, vars, expected, turns, context) { return ("_s + source
        + u"\n); })"_s;
}

QString asBody(const QString &source)
{
    return u"(function (output, vars, expected, turns, context) { "_s + source + u"\n})"_s;
}

QString errorText(const QJSValue &error, int lines = 0)
{
    int line = error.property(u"lineNumber"_s).toInt();
    // An error at the end of the script is found on the wrapper's last line.
    if (lines > 0)
        line = std::min(line, lines);
    const QString message = error.toString();
    return line > 0 ? Tr::tr("line %1: %2").arg(line).arg(message) : message;
}

// The script compiled (not run) as an expression if it is one, else as a body. On a syntax
// error, the body's error (the one that says where a statement went wrong).
QJSValue compile(QJSEngine &engine, const QString &source, QString *error)
{
    QJSValue function = engine.evaluate(asExpression(source));
    if (!function.isError())
        return function;
    function = engine.evaluate(asBody(source));
    if (function.isError())
        *error = errorText(function, int(source.count(u'\n')) + 1);
    return function;
}

// Calls setInterrupted(true) on the engine when the time limit passes before done().
class Watchdog
{
public:
    Watchdog(QJSEngine *engine, int timeoutMs)
        : m_thread([this, engine, timeoutMs] {
            std::unique_lock lock(m_mutex);
            if (!m_done.wait_for(lock, std::chrono::milliseconds(timeoutMs),
                                 [this] { return m_finished; })) {
                m_fired = true;
                engine->setInterrupted(true);
            }
        })
    { }
    ~Watchdog() { done(); }
    void done()
    {
        {
            std::lock_guard lock(m_mutex);
            m_finished = true;
        }
        m_done.notify_all();
        if (m_thread.joinable())
            m_thread.join();
    }
    bool fired()
    {
        std::lock_guard lock(m_mutex);
        return m_fired;
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_done;
    bool m_finished = false;
    bool m_fired = false;
    std::thread m_thread;
};

} // namespace

QString checkScriptSyntax(const QString &source)
{
    if (source.trimmed().isEmpty())
        return Tr::tr("the script is empty");
    // Evaluating the function expression compiles the script without running its body.
    QJSEngine engine;
    QString error;
    compile(engine, source, &error);
    return error;
}

ScriptResult runScript(const QString &source, const ScriptInput &input, int timeoutMs)
{
    ScriptResult result;
    QJSEngine engine;
    const QJSValue function = compile(engine, source, &result.error);
    if (function.isError())
        return result;
    // Values cross as JSON text, read by the engine's own JSON.parse: exactly the JSON types.
    const QJSValue json = engine.globalObject().property(u"JSON"_s);
    const QJSValue parse = json.property(u"parse"_s);
    const auto value = [&parse](const QJsonValue &v) {
        if (v.isUndefined())
            return QJSValue(QJSValue::UndefinedValue);
        return parse
            .call({ QString::fromUtf8(
                QJsonDocument(QJsonArray { v }).toJson(QJsonDocument::Compact)) })
            .property(0);
    };
    // `context.vars` as well as `vars`: scripts written for promptfoo read them there.
    const QJSValueList arguments { value(input.output), value(input.vars), value(input.expected),
                                   value(input.turns),
                                   value(QJsonObject { { u"vars"_s, input.vars } }) };
    QJSValue returned;
    bool fired = false;
    {
        Watchdog watchdog(&engine, timeoutMs);
        returned = function.call(arguments);
        watchdog.done();
        fired = watchdog.fired();
    }
    if (fired) {
        result.timedOut = true;
        result.error =
            Tr::tr("the script ran longer than its limit of %1 ms and was stopped").arg(timeoutMs);
        return result;
    }
    if (returned.isError() || engine.hasError()) {
        result.error = Tr::tr("the script threw: %1")
                           .arg(errorText(returned.isError() ? returned : engine.catchError()));
        return result;
    }
    result.ok = true;
    if (!returned.isUndefined()) {
        // Back through JSON.stringify: functions and cycles cannot come out.
        const QJSValue text = json.property(u"stringify"_s).call({ returned });
        if (text.isError()) {
            result.ok = false;
            result.error = Tr::tr("the script's result is not JSON: %1").arg(errorText(text));
            return result;
        }
        if (text.isString()) {
            const QJsonDocument doc = QJsonDocument::fromJson("[" + text.toString().toUtf8() + "]");
            result.value = doc.array().at(0);
        }
    }
    return result;
}

bool needsScript(const Assertion &assertion, const DatasetRow &row)
{
    return assertion.type == u"javascript"_s || assertion.params.contains(u"transform"_s)
        || !row.transform.isEmpty();
}

AssertionResult evaluateScripted(const Assertion &assertion, const CallRecord &record,
                                 const DatasetRow &row)
{
    AssertionResult result;
    result.type = assertion.type;
    result.name = assertion.name.isEmpty() ? assertion.type : assertion.name;
    result.weight = assertion.weight;
    const int timeoutMs = assertion.params.value(u"timeout_ms"_s).toInt(DefaultScriptTimeoutMs);
    ScriptInput input;
    input.output = record.response.isUndefined() ? QJsonValue(QJsonValue::Null) : record.response;
    input.vars = row.vars;
    input.expected = row.expected;
    input.turns = record.messages;
    // The case's transform, then the assertion's: each sees what the one before returned.
    const QList<std::pair<QString, QString>> transforms {
        { row.transform, Tr::tr("the case's transform") },
        { assertion.params.value(u"transform"_s).toString(), Tr::tr("the assertion's transform") }
    };
    for (const auto &[source, what] : transforms) {
        if (source.isEmpty())
            continue;
        const ScriptResult transformed = runScript(source, input, timeoutMs);
        if (!transformed.ok) {
            result.reason = Tr::tr("%1 failed: %2").arg(what, transformed.error);
            return result;
        }
        input.output = transformed.value;
    }
    if (assertion.type == u"javascript"_s) {
        const ScriptResult verdict =
            runScript(assertion.params.value(u"value"_s).toString(), input, timeoutMs);
        if (!verdict.ok) {
            result.reason = verdict.error;
            return result;
        }
        // true/false; a number is a score that passes from `threshold` (default 0.5); an object
        // may say {pass, score, reason}.
        const QJsonValue v = verdict.value;
        const double threshold = assertion.params.value(u"threshold"_s).toDouble(0.5);
        if (v.isObject()) {
            const QJsonObject o = v.toObject();
            result.passed = o.contains(u"pass"_s) ? o.value(u"pass"_s).toBool()
                                                  : o.value(u"score"_s).toDouble() >= threshold;
            result.reason = o.value(u"reason"_s).toString();
        } else if (v.isDouble()) {
            result.passed = v.toDouble() >= threshold;
            result.reason = Tr::tr("score %1 (pass from %2)").arg(v.toDouble()).arg(threshold);
        } else {
            result.passed = v.isBool() ? v.toBool()
                                       : !(v.isNull() || v.isUndefined() || v == QJsonValue(u""_s));
        }
        if (!result.passed && result.reason.isEmpty())
            result.reason =
                Tr::tr("the script returned %1")
                    .arg(v.isUndefined()
                             ? u"undefined"_s
                             : QString::fromUtf8(
                                   QJsonDocument(QJsonArray { v }).toJson(QJsonDocument::Compact))
                                   .mid(1)
                                   .chopped(1));
        return negated(assertion, record, result);
    }
    // Any other check, on the transformed output.
    CallRecord transformed = record;
    transformed.response = input.output;
    return evaluateAssertion(assertion, transformed, row);
}

ScriptedAssertion::ScriptedAssertion(const Assertion &assertion, const CallRecord &record,
                                     const DatasetRow &row, QObject *parent)
    : QObject(parent)
    , m_assertion(assertion)
    , m_record(record)
    , m_row(row)
{
    connect(&m_watcher, &QFutureWatcher<AssertionResult>::finished, this,
            [this] { Q_EMIT finished(m_watcher.result()); });
}

ScriptedAssertion::~ScriptedAssertion()
{
    // A script still running ends at its time limit at the latest.
    m_watcher.waitForFinished();
}

void ScriptedAssertion::start()
{
    const Assertion assertion = m_assertion;
    const CallRecord record = m_record;
    const DatasetRow row = m_row;
    m_watcher.setFuture(QtConcurrent::run(
        [assertion, record, row] { return evaluateScripted(assertion, record, row); }));
}

} // namespace Callscope
