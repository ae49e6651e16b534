#include "core/eval/assertions.h"

#include "core/eval/scripting.h"
#include "core/model/jsonpointer.h"
#include "core/model/message.h"
#include "core/model/specio.h"
#include "core/schema/jsonschema.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QTimer>

#include <functional>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Assertions)
};

QString compact(const QJsonValue &value)
{
    const QByteArray json = QJsonDocument(QJsonArray { value }).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(json.mid(1, json.size() - 2));
}

QString shortened(const QString &text, int max = 200)
{
    return text.size() <= max ? text : text.left(max) + u'…';
}

// Every object key of `want` is in `have` with a matching value (recursively); arrays and
// scalars are equal.
bool jsonSubset(const QJsonValue &want, const QJsonValue &have)
{
    if (want.isObject()) {
        if (!have.isObject())
            return false;
        const QJsonObject w = want.toObject();
        const QJsonObject h = have.toObject();
        for (auto it = w.begin(); it != w.end(); ++it) {
            if (!h.contains(it.key()) || !jsonSubset(it.value(), h.value(it.key())))
                return false;
        }
        return true;
    }
    return want == have;
}

bool isPointer(const QJsonValue &value)
{
    return value.isString() && JsonPointer::split(value.toString()).has_value();
}

struct Outcome
{
    bool passed;
    QString reason;
};

// Why a check of the output cannot pass: the call gave none.
QString noOutputReason(const CallRecord &record)
{
    return Tr::tr("the call has no output (status %1)").arg(callStatusName(record.status));
}

// The value at the assertion's pointer in the parsed output.
std::optional<QJsonValue> at(const Assertion &a, const CallRecord &record, QString *reason)
{
    const QString pointer = a.params.value(u"pointer"_s).toString();
    if (record.response.isUndefined()) {
        *reason = noOutputReason(record);
        return std::nullopt;
    }
    auto value = JsonPointer::resolve(record.response, pointer);
    if (!value)
        *reason =
            Tr::tr("nothing at %1 in the output").arg(pointer.isEmpty() ? u"(root)"_s : pointer);
    return value;
}

// The first JSON object or array in `text` that parses (and, with a schema, validates).
std::optional<QJsonValue> findJson(const QString &text, const CompiledSchema *schema,
                                   QString *lastProblem)
{
    for (qsizetype start = 0; start < text.size(); ++start) {
        const QChar open = text.at(start);
        if (open != u'{' && open != u'[')
            continue;
        int depth = 0;
        bool inString = false;
        for (qsizetype i = start; i < text.size(); ++i) {
            const QChar c = text.at(i);
            if (inString) {
                if (c == u'\\')
                    ++i;
                else if (c == u'"')
                    inString = false;
                continue;
            }
            if (c == u'"') {
                inString = true;
            } else if (c == u'{' || c == u'[') {
                ++depth;
            } else if (c == u'}' || c == u']') {
                if (--depth > 0)
                    continue;
                QJsonParseError error;
                const QJsonDocument doc =
                    QJsonDocument::fromJson(text.mid(start, i - start + 1).toUtf8(), &error);
                if (error.error != QJsonParseError::NoError)
                    break;
                const QJsonValue value =
                    doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object());
                if (!schema)
                    return value;
                const SchemaValidationResult result = schema->validate(value);
                if (result.valid)
                    return value;
                *lastProblem = formatErrorsForModel(result.errors, 5);
                break;
            }
        }
    }
    return std::nullopt;
}

// The output as JSON: a JSON value as it is, a string parsed as JSON (nullopt when it is not).
std::optional<QJsonValue> outputAsJson(const QJsonValue &response, QString *error)
{
    if (!response.isString())
        return response;
    QJsonParseError parseError;
    const QJsonDocument doc =
        QJsonDocument::fromJson("[" + response.toString().trimmed().toUtf8() + "]", &parseError);
    if (parseError.error != QJsonParseError::NoError || doc.array().size() != 1) {
        *error = parseError.errorString();
        return std::nullopt;
    }
    return doc.array().at(0);
}

QString checkOptionalSchema(const Assertion &a)
{
    const QJsonValue schema = a.params.value(u"schema"_s);
    if (schema.isUndefined())
        return {};
    if (!schema.isObject() && !schema.isBool())
        return Tr::tr("\"schema\" must be a JSON Schema");
    const QList<SchemaError> problems = validateSchema(schema);
    return problems.isEmpty()
        ? QString()
        : Tr::tr("\"schema\" is not usable: %1").arg(problems.first().message);
}

using Check = std::function<QString(const Assertion &)>; // load time: problem or empty
using Run = std::function<Outcome(const Assertion &, const CallRecord &, const DatasetRow &)>;

struct Type
{
    Check check;
    Run run;
};

QString needPointer(const Assertion &a, bool required = true)
{
    const QJsonValue p = a.params.value(u"pointer"_s);
    if (p.isUndefined())
        return required
            ? Tr::tr(
                "needs \"pointer\" (a JSON Pointer such as /title, or \"\" for the whole output)")
            : QString();
    return isPointer(p) ? QString()
                        : Tr::tr("\"pointer\" is not a JSON Pointer: %1").arg(compact(p));
}

QString needNumber(const Assertion &a)
{
    return a.params.value(u"value"_s).isDouble() ? QString() : Tr::tr("needs a number \"value\"");
}

Outcome limit(double seen, double max, const QString &what)
{
    if (seen <= max)
        return { true, QString() };
    return { false, Tr::tr("%1 was %2, above %3").arg(what).arg(seen).arg(max) };
}

const QHash<QString, Type> &types()
{
    static const QHash<QString, Type> table = {
        { u"equals"_s,
          { [](const Assertion &a) {
               if (QString p = needPointer(a); !p.isEmpty())
                   return p;
               return a.params.contains(u"value"_s) ? QString() : Tr::tr("needs \"value\"");
           },
            [](const Assertion &a, const CallRecord &r, const DatasetRow &) -> Outcome {
                QString why;
                const auto v = at(a, r, &why);
                if (!v)
                    return { false, why };
                if (*v == a.params.value(u"value"_s))
                    return { true, {} };
                return { false,
                         Tr::tr("expected %1, got %2")
                             .arg(shortened(compact(a.params.value(u"value"_s))),
                                  shortened(compact(*v))) };
            } } },
        { u"contains"_s,
          { [](const Assertion &a) {
               if (QString p = needPointer(a); !p.isEmpty())
                   return p;
               return a.params.contains(u"value"_s) ? QString() : Tr::tr("needs \"value\"");
           },
            [](const Assertion &a, const CallRecord &r, const DatasetRow &) -> Outcome {
                QString why;
                const auto v = at(a, r, &why);
                if (!v)
                    return { false, why };
                const QJsonValue want = a.params.value(u"value"_s);
                if (v->isString() && want.isString() && v->toString().contains(want.toString()))
                    return { true, {} };
                if (v->isArray() && v->toArray().contains(want))
                    return { true, {} };
                return {
                    false,
                    Tr::tr("%1 does not contain %2").arg(shortened(compact(*v)), compact(want))
                };
            } } },
        { u"regex"_s,
          { [](const Assertion &a) {
               if (QString p = needPointer(a); !p.isEmpty())
                   return p;
               const QRegularExpression re(a.params.value(u"pattern"_s).toString());
               if (!a.params.value(u"pattern"_s).isString())
                   return Tr::tr("needs a string \"pattern\"");
               return re.isValid() ? QString()
                                   : Tr::tr("\"pattern\" is not a valid regular expression: %1")
                                         .arg(re.errorString());
           },
            [](const Assertion &a, const CallRecord &r, const DatasetRow &) -> Outcome {
                QString why;
                const auto v = at(a, r, &why);
                if (!v)
                    return { false, why };
                const QString text = v->isString() ? v->toString() : compact(*v);
                const QRegularExpression re(a.params.value(u"pattern"_s).toString());
                if (re.match(text).hasMatch())
                    return { true, {} };
                return { false,
                         Tr::tr("%1 does not match /%2/").arg(shortened(text), re.pattern()) };
            } } },
        { u"one_of"_s,
          { [](const Assertion &a) {
               if (QString p = needPointer(a); !p.isEmpty())
                   return p;
               return a.params.value(u"values"_s).isArray() ? QString()
                                                            : Tr::tr("needs an array \"values\"");
           },
            [](const Assertion &a, const CallRecord &r, const DatasetRow &) -> Outcome {
                QString why;
                const auto v = at(a, r, &why);
                if (!v)
                    return { false, why };
                if (a.params.value(u"values"_s).toArray().contains(*v))
                    return { true, {} };
                return { false,
                         Tr::tr("%1 is none of %2")
                             .arg(shortened(compact(*v)),
                                  shortened(compact(a.params.value(u"values"_s)))) };
            } } },
        { u"matches_expected"_s,
          { [](const Assertion &a) {
               const QJsonValue pointers = a.params.value(u"pointers"_s);
               if (pointers.isUndefined())
                   return QString();
               if (!pointers.isArray())
                   return Tr::tr("\"pointers\" must be an array of JSON Pointers");
               for (const QJsonValue &p : pointers.toArray()) {
                   if (!isPointer(p))
                       return Tr::tr("\"pointers\" holds something that is not a JSON Pointer: %1")
                           .arg(compact(p));
               }
               return QString();
           },
            [](const Assertion &a, const CallRecord &r, const DatasetRow &row) -> Outcome {
                if (row.expected.isUndefined())
                    return { false, Tr::tr("the case has no \"expected\"") };
                if (r.response.isUndefined())
                    return { false, noOutputReason(r) };
                const QJsonArray pointers = a.params.value(u"pointers"_s).toArray();
                if (pointers.isEmpty()) {
                    if (r.response == row.expected)
                        return { true, {} };
                    return { false,
                             Tr::tr("expected %1, got %2")
                                 .arg(shortened(compact(row.expected)),
                                      shortened(compact(r.response))) };
                }
                for (const QJsonValue &p : pointers) {
                    const auto want = JsonPointer::resolve(row.expected, p.toString());
                    const auto have = JsonPointer::resolve(r.response, p.toString());
                    if (want != have)
                        return { false,
                                 Tr::tr("at %1 expected %2, got %3")
                                     .arg(p.toString(),
                                          want ? shortened(compact(*want)) : Tr::tr("nothing"),
                                          have ? shortened(compact(*have)) : Tr::tr("nothing")) };
                }
                return { true, {} };
            } } },
        { u"schema"_s,
          { [](const Assertion &a) {
               if (!a.params.value(u"schema"_s).isObject() && !a.params.value(u"schema"_s).isBool())
                   return Tr::tr("needs \"schema\" (a JSON Schema)");
               const QList<SchemaError> problems = validateSchema(a.params.value(u"schema"_s));
               return problems.isEmpty()
                   ? QString()
                   : Tr::tr("\"schema\" is not usable: %1").arg(problems.first().message);
           },
            [](const Assertion &a, const CallRecord &r, const DatasetRow &) -> Outcome {
                if (r.response.isUndefined())
                    return { false, noOutputReason(r) };
                const CompiledSchema schema = SchemaCompiler().compile(a.params.value(u"schema"_s));
                const SchemaValidationResult result = schema.validate(r.response);
                if (result.valid)
                    return { true, {} };
                return { false, formatErrorsForModel(result.errors, 5) };
            } } },
        { u"is_json"_s,
          { checkOptionalSchema,
            [](const Assertion &a, const CallRecord &r, const DatasetRow &) -> Outcome {
                if (r.response.isUndefined())
                    return { false, noOutputReason(r) };
                QString error;
                const auto value = outputAsJson(r.response, &error);
                if (!value)
                    return { false, Tr::tr("the output is not JSON: %1").arg(error) };
                if (!a.params.contains(u"schema"_s))
                    return { true, {} };
                const CompiledSchema schema = SchemaCompiler().compile(a.params.value(u"schema"_s));
                const SchemaValidationResult result = schema.validate(*value);
                if (result.valid)
                    return { true, {} };
                return { false, formatErrorsForModel(result.errors, 5) };
            } } },
        { u"contains_json"_s,
          { checkOptionalSchema,
            [](const Assertion &a, const CallRecord &r, const DatasetRow &) -> Outcome {
                if (r.response.isUndefined())
                    return { false, noOutputReason(r) };
                std::optional<CompiledSchema> schema;
                if (a.params.contains(u"schema"_s))
                    schema = SchemaCompiler().compile(a.params.value(u"schema"_s));
                if (!r.response.isString()) {
                    if (!schema)
                        return { true, {} };
                    const SchemaValidationResult result = schema->validate(r.response);
                    if (result.valid)
                        return { true, {} };
                    return { false, formatErrorsForModel(result.errors, 5) };
                }
                QString problem;
                if (findJson(r.response.toString(), schema ? &*schema : nullptr, &problem))
                    return { true, {} };
                return {
                    false,
                    problem.isEmpty()
                        ? Tr::tr("the output holds no JSON object or array")
                        : Tr::tr("no JSON in the output matches the schema: %1").arg(problem)
                };
            } } },
        { u"status"_s,
          { [](const Assertion &a) {
               const QJsonValue v = a.params.value(u"value"_s);
               if (v.isUndefined())
                   return QString();
               return v.isString() && callStatusFromName(v.toString())
                   ? QString()
                   : Tr::tr(
                       "\"value\" must be a call status such as completed, failed, turn_limited");
           },
            [](const Assertion &a, const CallRecord &r, const DatasetRow &) -> Outcome {
                const QString want = a.params.value(u"value"_s).toString(u"completed"_s);
                if (callStatusName(r.status) == want)
                    return { true, {} };
                QString reason =
                    Tr::tr("the call ended %1, not %2").arg(callStatusName(r.status), want);
                if (!r.error.isEmpty())
                    reason += u": "_s + shortened(r.error);
                return { false, reason };
            } } },
        { u"tool_called"_s,
          { [](const Assertion &a) {
               if (!a.params.value(u"name"_s).isString() && !a.params.value(u"tool"_s).isString())
                   return Tr::tr("needs the tool's \"name\"");
               const QJsonValue args = a.params.value(u"args"_s);
               return args.isUndefined() || args.isObject() ? QString()
                                                            : Tr::tr("\"args\" must be an object");
           },
            [](const Assertion &a, const CallRecord &r, const DatasetRow &) -> Outcome {
                const QString name =
                    a.params.value(u"tool"_s).toString(a.params.value(u"name"_s).toString());
                const QJsonValue args = a.params.value(u"args"_s);
                bool calledAtAll = false;
                for (const ToolCall &call : toolTrajectory(r)) {
                    if (call.name != name)
                        continue;
                    calledAtAll = true;
                    if (args.isUndefined() || jsonSubset(args, call.arguments))
                        return { true, {} };
                }
                if (calledAtAll)
                    return { false,
                             Tr::tr("%1 was called, never with %2").arg(name, compact(args)) };
                return { false, Tr::tr("%1 was not called").arg(name) };
            } } },
        { u"tool_not_called"_s,
          { [](const Assertion &a) {
               return a.params.value(u"tool"_s).isString() || a.params.value(u"name"_s).isString()
                   ? QString()
                   : Tr::tr("needs the tool's \"name\"");
           },
            [](const Assertion &a, const CallRecord &r, const DatasetRow &) -> Outcome {
                const QString name =
                    a.params.value(u"tool"_s).toString(a.params.value(u"name"_s).toString());
                int times = 0;
                for (const ToolCall &call : toolTrajectory(r))
                    times += call.name == name ? 1 : 0;
                if (times == 0)
                    return { true, {} };
                return { false,
                         QCoreApplication::translate("Assertions", "%1 was called %n time(s)",
                                                     nullptr, times)
                             .arg(name) };
            } } },
        { u"tool_sequence"_s,
          { [](const Assertion &a) {
               const QJsonValue names = a.params.value(u"names"_s);
               if (!names.isArray() || names.toArray().isEmpty())
                   return Tr::tr("needs \"names\", an array of tool names");
               for (const QJsonValue &n : names.toArray()) {
                   if (!n.isString())
                       return Tr::tr("\"names\" must hold tool names (strings)");
               }
               return QString();
           },
            [](const Assertion &a, const CallRecord &r, const DatasetRow &) -> Outcome {
                QStringList want;
                for (const QJsonValue &n : a.params.value(u"names"_s).toArray())
                    want.append(n.toString());
                QStringList seen;
                for (const ToolCall &call : toolTrajectory(r))
                    seen.append(call.name);
                const bool strict = a.params.value(u"strict"_s).toBool(false);
                bool ok = false;
                if (strict) {
                    ok = seen == want;
                } else {
                    qsizetype next = 0;
                    for (const QString &name : std::as_const(seen)) {
                        if (next < want.size() && name == want.at(next))
                            ++next;
                    }
                    ok = next == want.size();
                }
                if (ok)
                    return { true, {} };
                return { false,
                         Tr::tr("the tools ran as [%1], expected [%2]%3")
                             .arg(seen.join(u", "_s), want.join(u", "_s),
                                  strict ? Tr::tr(" exactly") : QString()) };
            } } },
        { u"max_turns"_s,
          { needNumber,
            [](const Assertion &a, const CallRecord &r, const DatasetRow &) -> Outcome {
                return limit(r.turns.size(), a.params.value(u"value"_s).toDouble(),
                             Tr::tr("the number of turns"));
            } } },
        { u"max_tokens"_s,
          { needNumber,
            [](const Assertion &a, const CallRecord &r, const DatasetRow &) -> Outcome {
                return limit(double(r.usage.promptTokens() + r.usage.outputTokens),
                             a.params.value(u"value"_s).toDouble(),
                             Tr::tr("input + output tokens"));
            } } },
        { u"max_latency_ms"_s,
          { needNumber,
            [](const Assertion &a, const CallRecord &r, const DatasetRow &) -> Outcome {
                const qint64 ms = r.createdAt.isValid() && r.finishedAt.isValid()
                    ? r.createdAt.msecsTo(r.finishedAt)
                    : 0;
                return limit(double(ms), a.params.value(u"value"_s).toDouble(),
                             Tr::tr("the latency in ms"));
            } } },
        { u"max_cost_usd"_s,
          { needNumber, nullptr } }, // checked by ExperimentRun, which has the prices
        { u"judge"_s,
          { [](const Assertion &a) {
               if (!a.params.value(u"rubric"_s).isString()
                   || a.params.value(u"rubric"_s).toString().trimmed().isEmpty())
                   return Tr::tr("needs a \"rubric\": what a good output is");
               if (!a.params.value(u"engine"_s).isObject())
                   return Tr::tr("needs \"engine\", the engine that judges (as in a spec)");
               const QJsonValue pass = a.params.value(u"pass_score"_s);
               if (!pass.isUndefined()
                   && (!pass.isDouble() || pass.toDouble() < 0 || pass.toDouble() > 1))
                   return Tr::tr("\"pass_score\" must be a number from 0 to 1");
               const SpecLoadResult spec = specFromJson(judgeSpecJson(a));
               if (!spec.spec)
                   return Tr::tr("\"engine\" is not usable: %1%2")
                       .arg(spec.errors.isEmpty() ? QString()
                                                  : spec.errors.first().pointer + u" "_s,
                            spec.errors.isEmpty() ? QString() : spec.errors.first().message);
               return QString();
           },
            nullptr } },
        { u"command"_s,
          { [](const Assertion &a) {
               const QJsonValue argv = a.params.value(u"command"_s);
               if (!argv.isArray() || argv.toArray().isEmpty() || !argv.toArray().at(0).isString())
                   return Tr::tr(
                       "needs \"command\", an argument list such as [\"python3\", \"check.py\"]");
               return QString();
           },
            nullptr } },
        // Checked with its script by evaluateScripted() (core/eval/scripting.h).
        { u"javascript"_s,
          { [](const Assertion &a) {
               const QJsonValue value = a.params.value(u"value"_s);
               if (!value.isString())
                   return Tr::tr("needs \"value\", a JavaScript expression or function body");
               const QString error = checkScriptSyntax(value.toString());
               return error.isEmpty() ? QString() : Tr::tr("\"value\": %1").arg(error);
           },
            nullptr } },
    };
    return table;
}

} // namespace

QJsonObject AssertionResult::toJson() const
{
    QJsonObject object { { u"type"_s, type }, { u"name"_s, name }, { u"passed"_s, passed } };
    object.insert(u"reason"_s,
                  reason.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(reason));
    if (weight != 1)
        object.insert(u"weight"_s, weight);
    if (judgeCallId > 0)
        object.insert(u"judge_call_id"_s, judgeCallId);
    return object;
}

AssertionResult AssertionResult::fromJson(const QJsonObject &object)
{
    AssertionResult r;
    r.type = object.value(u"type"_s).toString();
    r.name = object.value(u"name"_s).toString();
    r.passed = object.value(u"passed"_s).toBool();
    r.reason = object.value(u"reason"_s).toString();
    r.weight = object.value(u"weight"_s).toDouble(1);
    r.judgeCallId = object.value(u"judge_call_id"_s).toInteger();
    return r;
}

double weightedScore(const QJsonArray &results)
{
    double total = 0, passed = 0;
    bool all = true;
    for (const QJsonValue &value : results) {
        const QJsonObject result = value.toObject();
        const double weight = result.value(u"weight"_s).toDouble(1);
        const bool ok = result.value(u"passed"_s).toBool();
        all &= ok;
        total += weight;
        if (ok)
            passed += weight;
    }
    if (total <= 0)
        return all ? 1.0 : 0.0;
    return passed / total;
}

QStringList assertionTypes()
{
    QStringList names = types().keys();
    names.sort();
    return names;
}

QString checkAssertion(const Assertion &assertion)
{
    const auto it = types().find(assertion.type);
    if (it == types().end()) {
        return Tr::tr("unknown assertion type \"%1\" (known: %2)")
            .arg(assertion.type, assertionTypes().join(u", "_s));
    }
    if (const QString problem = it->check(assertion); !problem.isEmpty())
        return problem;
    const QJsonValue negate = assertion.params.value(u"not"_s);
    if (!negate.isUndefined() && !negate.isBool())
        return Tr::tr("\"not\" must be true or false");
    // Any assertion may reshape the output with a script before it checks it.
    const QJsonValue transform = assertion.params.value(u"transform"_s);
    if (!transform.isUndefined()) {
        if (!transform.isString())
            return Tr::tr("\"transform\" must be a JavaScript string");
        if (const QString error = checkScriptSyntax(transform.toString()); !error.isEmpty())
            return Tr::tr("\"transform\": %1").arg(error);
    }
    return {};
}

bool isAsyncAssertion(const QString &type)
{
    return type == u"command"_s || type == u"judge"_s;
}

QJsonObject judgeSpecJson(const Assertion &assertion)
{
    // Model-facing text: not translated.
    const QString system =
        u"You judge the output of another model. You are given the task it was "
        u"given and the output it produced. Score how well the output meets the "
        u"rubric, from 0 (not at all) to 1 (fully), and give a one-sentence reason. "
        u"Rubric: "_s
        + assertion.params.value(u"rubric"_s).toString();
    const QJsonObject schema {
        { u"type"_s, u"object"_s },
        { u"properties"_s,
          QJsonObject { { u"score"_s,
                          QJsonObject { { u"type"_s, u"number"_s },
                                        { u"minimum"_s, 0 },
                                        { u"maximum"_s, 1 } } },
                        { u"reason"_s, QJsonObject { { u"type"_s, u"string"_s } } } } },
        { u"required"_s, QJsonArray { u"score"_s, u"reason"_s } },
        { u"additionalProperties"_s, false }
    };
    return QJsonObject { { u"kind"_s, u"judge"_s },
                         { u"system_prompt"_s, system },
                         { u"response_schema"_s, schema },
                         { u"max_turns"_s, 3 },
                         { u"engine"_s, assertion.params.value(u"engine"_s).toObject() } };
}

QString judgeInput(const CallRecord &record)
{
    const QString task = record.input.value(u"text"_s).toString();
    const QString output = record.response.isUndefined()
        ? u"(no output; the call ended "_s + callStatusName(record.status) + u')'
        : compact(record.response);
    return u"Task:\n"_s + task + u"\n\nOutput:\n"_s + output;
}

QList<ToolCall> toolTrajectory(const CallRecord &record)
{
    QList<ToolCall> calls;
    for (const Message &m : messagesFromJson(record.messages)) {
        if (m.role == Role::Assistant)
            calls += m.toolCalls;
    }
    return calls;
}

AssertionResult evaluateAssertion(const Assertion &assertion, const CallRecord &record,
                                  const DatasetRow &row)
{
    AssertionResult result;
    result.type = assertion.type;
    result.name = assertion.name.isEmpty() ? assertion.type : assertion.name;
    result.weight = assertion.weight;
    const auto it = types().find(assertion.type);
    if (it == types().end() || !it->run) {
        result.reason =
            Tr::tr("the assertion type \"%1\" cannot be checked here").arg(assertion.type);
        return result;
    }
    const Outcome outcome = it->run(assertion, record, row);
    result.passed = outcome.passed;
    result.reason = outcome.reason;
    return negated(assertion, record, result);
}

AssertionResult negated(const Assertion &assertion, const CallRecord &record,
                        AssertionResult result)
{
    if (!assertion.params.value(u"not"_s).toBool())
        return result;
    // A call with no output is not the opposite of anything: it stays failed.
    if (record.response.isUndefined()) {
        result.passed = false;
        if (result.reason.isEmpty())
            result.reason = noOutputReason(record);
        return result;
    }
    result.passed = !result.passed;
    result.reason =
        result.passed ? QString() : Tr::tr("the check passed, and it must not (\"not\")");
    return result;
}

// ---------------------------------------------------------------------------------------------

CommandAssertion::CommandAssertion(const Assertion &assertion, const CallRecord &record,
                                   const QString &workingDir, QObject *parent)
    : QObject(parent)
    , m_assertion(assertion)
    , m_record(record)
    , m_workingDir(workingDir)
{ }

CommandAssertion::~CommandAssertion()
{
    if (m_process && m_process->state() != QProcess::NotRunning) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(1000);
    }
}

void CommandAssertion::start()
{
    QStringList argv;
    for (const QJsonValue &v : m_assertion.params.value(u"command"_s).toArray())
        argv.append(v.toString());
    m_process = new QProcess(this);
    m_process->setWorkingDirectory(m_workingDir);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            done(false, Tr::tr("the command could not start: %1").arg(m_process->errorString()),
                 true);
    });
    connect(m_process, &QProcess::finished, this,
            [this](int exitCode, QProcess::ExitStatus status) {
                const QString out =
                    QString::fromUtf8(m_process->readAllStandardOutput()).trimmed().left(2000);
                if (status != QProcess::NormalExit)
                    done(false, Tr::tr("the command crashed"), true);
                else
                    done(exitCode == 0,
                         out.isEmpty() && exitCode != 0
                             ? Tr::tr("the command exited with %1").arg(exitCode)
                             : out);
            });
    QTimer::singleShot(30000, this, [this] {
        if (m_process && m_process->state() != QProcess::NotRunning) {
            m_process->kill();
            done(false, Tr::tr("the command took longer than 30 s"), true);
        }
    });
    m_process->start(argv.first(), argv.mid(1));
    m_process->write(QJsonDocument(m_record.toJson()).toJson(QJsonDocument::Compact));
    m_process->closeWriteChannel();
}

void CommandAssertion::done(bool passed, const QString &reason, bool broken)
{
    if (m_done)
        return;
    m_done = true;
    AssertionResult result;
    result.type = m_assertion.type;
    result.name = m_assertion.name.isEmpty() ? m_assertion.type : m_assertion.name;
    result.weight = m_assertion.weight;
    result.passed = passed;
    result.reason = reason;
    // A check that could not run is not the opposite of anything: "not" leaves it failed.
    Q_EMIT finished(broken ? result : negated(m_assertion, m_record, result));
}

} // namespace Callscope
