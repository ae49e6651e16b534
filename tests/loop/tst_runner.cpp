// The runner's rules, driven through the offline replay engine with real
// toolkits (mock and command). Every test checks the exact requests the model received and the
// final record. The same rules over real HTTP engines are in tst_runner_http.cpp.

#include "core/loop/corrections.h"
#include "core/loop/replayclient.h"
#include "core/loop/runner.h"
#include "core/model/specio.h"
#include "core/tools/toolregistry.h"
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace Callscope;

namespace {

QJsonObject planSchema()
{
    return QJsonObject {
        { u"type"_s, u"object"_s },
        { u"properties"_s,
          QJsonObject {
              { u"title"_s, QJsonObject { { u"type"_s, u"string"_s } } },
              { u"steps"_s,
                QJsonObject { { u"type"_s, u"array"_s },
                              { u"items"_s, QJsonObject { { u"type"_s, u"string"_s } } } } } } },
        { u"required"_s, QJsonArray { u"title"_s, u"steps"_s } },
        { u"additionalProperties"_s, false }
    };
}

Spec specFrom(const QJsonObject &json)
{
    QJsonObject object = json;
    if (!object.contains(u"engine"_s))
        object.insert(u"engine"_s,
                      QJsonObject { { u"type"_s, u"replay"_s }, { u"replay"_s, u"inline"_s } });
    const SpecLoadResult result = specFromJson(object);
    if (!result.spec) {
        QStringList errors;
        for (const SpecError &e : result.errors)
            errors.append(e.pointer + u": "_s + e.message);
        qFatal("test spec invalid: %s", qPrintable(errors.join(u"; "_s)));
    }
    return *result.spec;
}

QJsonObject ticketTool(bool approval = false)
{
    return QJsonObject {
        { u"name"_s, u"get_ticket"_s },
        { u"description"_s, u"Load a ticket by id."_s },
        { u"input_schema"_s,
          QJsonObject {
              { u"type"_s, u"object"_s },
              { u"properties"_s,
                QJsonObject { { u"id"_s, QJsonObject { { u"type"_s, u"integer"_s } } } } } } },
        { u"requires_approval"_s, approval },
        { u"mock"_s, u"Ticket 7: the login page times out."_s }
    };
}

ToolCall call(const QString &id, const QString &name, const QJsonObject &args)
{
    ToolCall c;
    c.id = id;
    c.name = name;
    c.arguments = args;
    c.rawArguments = QString::fromUtf8(QJsonDocument(args).toJson(QJsonDocument::Compact));
    return c;
}

ModelReply toolReply(const QList<ToolCall> &calls, const QString &text = {})
{
    ModelReply r;
    r.message = Message::assistant(text, calls);
    r.finishReason = FinishReason::ToolCalls;
    r.usage.inputTokens = 100;
    r.usage.outputTokens = 20;
    return r;
}

ModelReply textReply(const QString &text, FinishReason finish = FinishReason::Stop)
{
    ModelReply r;
    r.message = Message::assistant(text);
    r.finishReason = finish;
    r.usage.inputTokens = 50;
    r.usage.outputTokens = 10;
    return r;
}

ModelReply submit(const QJsonObject &args, const QString &id = u"call_submit"_s)
{
    return toolReply({ call(id, Runner::submitToolName(), args) });
}

QJsonObject goodPlan()
{
    return QJsonObject { { u"title"_s, u"Fix login"_s },
                         { u"steps"_s, QJsonArray { u"reproduce"_s, u"patch"_s } } };
}

// Runs a spec to the end on recorded replies, answering pauses with `onPause`.
struct Harness
{
    Spec spec;
    Recording recording;
    RunOptions options;
    std::unique_ptr<ReplayModelClient> client;
    std::unique_ptr<ToolRegistry> tools;
    std::unique_ptr<Runner> runner;
    std::function<void(Runner &, const PendingItem &)> onPause;
    std::function<void(Runner &, const ToolCall &)> onApproval;
    std::function<void(Runner &, const ToolCall &)> onManual;
    QList<PendingItem> pauses;

    CallRecord run(const QString &input = u"Plan ticket 7"_s, int timeoutMs = 10000)
    {
        client = std::make_unique<ReplayModelClient>(recording);
        tools = std::make_unique<ToolRegistry>(spec);
        runner = std::make_unique<Runner>(spec, client.get(), tools.get());
        runner->setOptions(options);
        QObject::connect(
            runner.get(), &Runner::paused, runner.get(),
            [this](const PendingItem &item) {
                pauses.append(item);
                if (onPause)
                    onPause(*runner, item);
                else
                    runner->resume();
            },
            Qt::QueuedConnection);
        QObject::connect(
            runner.get(), &Runner::approvalNeeded, runner.get(),
            [this](const ToolCall &c) {
                if (onApproval)
                    onApproval(*runner, c);
            },
            Qt::QueuedConnection);
        QObject::connect(
            runner.get(), &Runner::manualResultNeeded, runner.get(),
            [this](const ToolCall &c) {
                if (onManual)
                    onManual(*runner, c);
            },
            Qt::QueuedConnection);
        QSignalSpy finished(runner.get(), &Runner::finished);
        runner->start(RunInput { input, {} });
        if (!runner->isFinished() && !finished.wait(timeoutMs))
            qWarning("runner did not finish; state %s",
                     qPrintable(runnerStateName(runner->state())));
        return runner->record();
    }

    QList<ChatRequest> requests() const { return client->requests(); }
};

const Message &lastMessage(const ChatRequest &request)
{
    return request.messages.last();
}

} // namespace

class TestRunner : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void happyPathWithToolCall();
    void replayExchangesShowTheRecordedReplies();
    void invalidOutputThenCorrected();
    void invalidOutputWithReaskSendsSchema();
    void plainTextThenCorrected();
    void emptyReplyAskedToCarryOn();
    void textOutputAcceptsPlainText();
    void textOutputRefusedKeepsItsText();
    void noSchemaJsonParseFailureThenFixed();
    void noSchemaTextParser();
    void unknownToolIsAnErrorResult();
    void parallelCallsPairedById();
    void approvalRefusedUnattended();
    void approvalAllowedByAllowList();
    void approvalApprovedRefusedEdited();
    void alwaysAllowSkipsLaterApprovals();
    void manualToolResultFromPerson();
    void turnLimited();
    void refusalRunsNoToolAndSendsNoCorrection();
    void truncationFailsWithoutReask();
    void truncationReaskRaisesLimit();
    void reaskScheduleRepeatsLastEntry();
    void preSeedsRunBeforeTheInput();
    void commandToolFailureIsErrorResult();
    void pauseAtEveryBreakpoint();
    void editedToolResultReachesModel();
    void stopEndsCancelled();
    void replayRunsOutOfReplies();
    void attachmentsStoredAsPlaceholders();
    void recordingRoundTripFromCall();
    void correctionTexts();
    void nativeOnReplayUsesTheRecording();
    void nativeTextNotJsonThenFixed();
    void promptedBreakpointAndSubmitOutputUnknown();
    void extractJsonAnswer();
};

void TestRunner::happyPathWithToolCall()
{
    Harness h;
    h.spec = specFrom({ { u"kind"_s, u"planner"_s },
                        { u"system_prompt"_s, u"Plan the work."_s },
                        { u"response_schema"_s, planSchema() },
                        { u"tools"_s, QJsonArray { ticketTool() } } });
    h.recording.replies = { toolReply({ call(u"call_1"_s, u"get_ticket"_s, { { u"id"_s, 7 } }) }),
                            submit(goodPlan()) };
    const CallRecord rec = h.run();

    QCOMPARE(callStatusName(rec.status), u"completed"_s);
    QCOMPARE(rec.response.toObject(), goodPlan());
    QCOMPARE(rec.kind, u"planner"_s);
    QCOMPARE(rec.turns.size(), 2);
    QCOMPARE(rec.usage.inputTokens, 200);
    QCOMPARE(rec.usage.outputTokens, 40);
    QCOMPARE(h.requests().size(), 2);

    const ChatRequest first = h.requests().at(0);
    QCOMPARE(first.system, u"Plan the work."_s);
    QCOMPARE(first.messages.size(), 1);
    QCOMPARE(first.messages.at(0).text, u"Plan ticket 7"_s);
    QCOMPARE(first.tools.size(), 2);
    QCOMPARE(first.tools.at(0).name, u"get_ticket"_s);
    QCOMPARE(first.tools.at(1).name, u"submit_output"_s);
    QCOMPARE(first.tools.at(1).inputSchema, planSchema());

    const ChatRequest second = h.requests().at(1);
    QCOMPARE(second.messages.size(), 3);
    QCOMPARE(second.messages.at(1).toolCalls.at(0).id, u"call_1"_s);
    const ToolResult result = lastMessage(second).toolResults.at(0);
    QCOMPARE(result.callId, u"call_1"_s);
    QCOMPARE(result.content, u"Ticket 7: the login page times out."_s);
    QVERIFY(!result.isError);

    // The stored conversation pairs the accepted submit_output with a result.
    const QList<Message> stored = messagesFromJson(rec.messages);
    QCOMPARE(stored.size(), 5);
    QCOMPARE(stored.last().toolResults.at(0).callId, u"call_submit"_s);
    QVERIFY(!rec.transcript.isEmpty());
}

// A replayed call keeps an exchange per turn too, marked as replayed: the request is what the
// replay engine was asked, the response the recording's reply for that turn.
void TestRunner::replayExchangesShowTheRecordedReplies()
{
    Harness h;
    h.spec = specFrom({ { u"kind"_s, u"planner"_s },
                        { u"system_prompt"_s, u"Plan the work."_s },
                        { u"response_schema"_s, planSchema() },
                        { u"tools"_s, QJsonArray { ticketTool() } } });
    h.recording.source = u"planner.recording.json"_s;
    h.recording.replies = { toolReply({ call(u"call_1"_s, u"get_ticket"_s, { { u"id"_s, 7 } }) }),
                            submit(goodPlan()) };
    const CallRecord rec = h.run();
    QCOMPARE(callStatusName(rec.status), u"completed"_s);
    QCOMPARE(rec.exchanges.size(), 2);
    for (int i = 0; i < 2; ++i) {
        const TurnExchange &e = rec.exchanges.at(i);
        QCOMPARE(e.turn, i);
        QVERIFY(e.replayed);
        QCOMPARE(e.httpStatus, 0);
        const QJsonObject request = QJsonDocument::fromJson(e.request).object();
        QCOMPARE(request.value(u"replay"_s).toBool(), true);
        QCOMPARE(request.value(u"messages"_s).toArray().size(), h.requests().at(i).messages.size());
        const QJsonObject response = QJsonDocument::fromJson(e.response).object();
        QCOMPARE(response.value(u"replay"_s).toBool(), true);
        QCOMPARE(response.value(u"recording"_s).toString(), u"planner.recording.json"_s);
        QCOMPARE(response.value(u"reply_index"_s).toInt(), i + 1);
        QCOMPARE(response.value(u"recorded_reply"_s).toObject(),
                 h.recording.replies.at(i).toJson());
        QCOMPARE(e.responseBytes, qint64(e.response.size()));
    }
}

void TestRunner::invalidOutputThenCorrected()
{
    Harness h;
    h.spec = specFrom({ { u"response_schema"_s, planSchema() } });
    h.recording.replies = { submit({ { u"title"_s, 3 }, { u"steps"_s, QJsonArray { u"a"_s, 7 } } },
                                   u"c1"_s),
                            submit(goodPlan()) };
    const CallRecord rec = h.run();
    QCOMPARE(callStatusName(rec.status), u"completed"_s);
    QCOMPARE(h.requests().size(), 2);
    const ToolResult err = lastMessage(h.requests().at(1)).toolResults.at(0);
    QCOMPARE(err.callId, u"c1"_s);
    QVERIFY(err.isError);
    // Every violation, each with its JSON Pointer; no schema without the reask policy.
    QVERIFY2(err.content.contains(u"- /title: "_s), qPrintable(err.content));
    QVERIFY2(err.content.contains(u"- /steps/1: "_s), qPrintable(err.content));
    QVERIFY(err.content.contains(u"(2 problems)"_s));
    QVERIFY(!err.content.contains(u"full schema"_s));
    QCOMPARE(rec.turns.at(0).note, u"validation_failed"_s);
}

void TestRunner::invalidOutputWithReaskSendsSchema()
{
    Harness h;
    h.spec = specFrom(
        { { u"response_schema"_s, planSchema() },
          { u"retry"_s, QJsonObject { { u"max_attempts"_s, 3 }, { u"reask"_s, true } } } });
    h.recording.replies = { submit({ { u"title"_s, u"x"_s } }, u"c1"_s), submit(goodPlan()) };
    const CallRecord rec = h.run();
    QCOMPARE(callStatusName(rec.status), u"completed"_s);
    const ToolResult err = lastMessage(h.requests().at(1)).toolResults.at(0);
    QVERIFY(err.content.contains(u"missing required property"_s)
            || err.content.contains(u"steps"_s));
    QVERIFY2(err.content.contains(u"The full schema the output must match:"_s),
             qPrintable(err.content));
    QVERIFY(err.content.contains(u"\"additionalProperties\": false"_s));
}

void TestRunner::plainTextThenCorrected()
{
    Harness h;
    h.spec = specFrom({ { u"response_schema"_s, planSchema() } });
    h.recording.replies = { textReply(u"Title: Fix login\nSteps: reproduce"_s),
                            submit(goodPlan()) };
    const CallRecord rec = h.run();
    QCOMPARE(callStatusName(rec.status), u"completed"_s);
    const Message correction = lastMessage(h.requests().at(1));
    QCOMPARE(correction.role, Role::User);
    QCOMPARE(correction.text, Corrections::plainText(u"Title: Fix login\nSteps: reproduce"_s));
    QVERIFY(correction.text.contains(u"> Title: Fix login\n> Steps: reproduce"_s));
    QCOMPARE(h.requests().at(1).messages.at(1).text, u"Title: Fix login\nSteps: reproduce"_s);
}

void TestRunner::emptyReplyAskedToCarryOn()
{
    Harness h;
    h.spec = specFrom({ { u"response_schema"_s, planSchema() } });
    h.recording.replies = { textReply(QString()), submit(goodPlan()) };
    const CallRecord rec = h.run();
    QCOMPARE(callStatusName(rec.status), u"completed"_s);
    QCOMPARE(lastMessage(h.requests().at(1)).text, Corrections::emptyReply(true));
    QCOMPARE(rec.turns.at(0).note, u"empty_reply"_s);
}

void TestRunner::textOutputAcceptsPlainText()
{
    Harness h;
    h.spec = specFrom(
        { { u"response_schema"_s,
            QJsonObject {
                { u"type"_s, u"object"_s },
                { u"properties"_s,
                  QJsonObject { { u"answer"_s, QJsonObject { { u"type"_s, u"string"_s } } } } },
                { u"required"_s, QJsonArray { u"answer"_s } } } },
          { u"text_output"_s, QJsonObject { { u"field"_s, u"answer"_s } } } });
    h.recording.replies = { textReply(u"Forty-two."_s) };
    const CallRecord rec = h.run();
    QCOMPARE(callStatusName(rec.status), u"completed"_s);
    QCOMPARE(h.requests().size(), 1); // no second model call
    QCOMPARE(rec.response.toObject(), QJsonObject({ { u"answer"_s, u"Forty-two."_s } }));
    QCOMPARE(rec.metadata.value(u"text_answer"_s).toBool(), true);
    // Stored as a submit_output call plus its result.
    const QList<Message> stored = messagesFromJson(rec.messages);
    QCOMPARE(stored.at(1).toolCalls.size(), 1);
    QCOMPARE(stored.at(1).toolCalls.at(0).name, u"submit_output"_s);
    QCOMPARE(stored.at(2).toolResults.at(0).callId, stored.at(1).toolCalls.at(0).id);
    // Stored once: in the call's arguments; the message's text is read back from there.
    QVERIFY(!rec.messages.at(1).toObject().contains(u"text"_s));
    QCOMPARE(stored.at(1).text, u"Forty-two."_s);
    // The native transcript has the answer itself (made with a stand-in, then given the answer).
    const QByteArray native = QJsonDocument(rec.transcript).toJson(QJsonDocument::Compact);
    QVERIFY2(native.contains("\"Forty-two.\""), native.constData());
    QVERIFY2(!native.contains("callscope text answer"), native.constData());
}

// A text answer the schema refuses goes back to the model as its own turn, text and all.
void TestRunner::textOutputRefusedKeepsItsText()
{
    Harness h;
    h.spec =
        specFrom({ { u"response_schema"_s,
                     QJsonObject { { u"type"_s, u"object"_s },
                                   { u"properties"_s,
                                     QJsonObject { { u"answer"_s,
                                                     QJsonObject { { u"type"_s, u"string"_s },
                                                                   { u"maxLength"_s, 5 } } } } },
                                   { u"required"_s, QJsonArray { u"answer"_s } } } },
                   { u"text_output"_s, QJsonObject { { u"field"_s, u"answer"_s } } } });
    h.recording.replies = { textReply(u"Far too long an answer"_s), textReply(u"42"_s) };
    const CallRecord rec = h.run();
    QCOMPARE(callStatusName(rec.status), u"completed"_s);
    QCOMPARE(h.requests().size(), 2);
    const QList<Message> sent = h.requests().at(1).messages;
    bool refusedSeen = false;
    for (const Message &m : sent)
        refusedSeen |= m.role == Role::Assistant && m.text == u"Far too long an answer"_s;
    QVERIFY(refusedSeen);
    QCOMPARE(rec.response.toObject(), QJsonObject({ { u"answer"_s, u"42"_s } }));
    const QList<Message> stored = messagesFromJson(rec.messages);
    QCOMPARE(stored.at(1).text, u"Far too long an answer"_s);
    QVERIFY(stored.at(1).toolCalls.isEmpty());
    QCOMPARE(stored.last().role, Role::Tool);
    QCOMPARE(stored.at(stored.size() - 2).text, u"42"_s);
}

void TestRunner::noSchemaJsonParseFailureThenFixed()
{
    Harness h;
    h.spec = specFrom({ { u"output_parser"_s, u"json"_s } });
    h.recording.replies = { textReply(u"{\"a\": 1,"_s), textReply(u"```json\n{\"a\": 1}\n```"_s) };
    const CallRecord rec = h.run();
    QCOMPARE(callStatusName(rec.status), u"completed"_s);
    QCOMPARE(rec.response.toObject(), QJsonObject({ { u"a"_s, 1 } }));
    const QString correction = lastMessage(h.requests().at(1)).text;
    QVERIFY2(correction.startsWith(u"Your reply is not valid JSON (line 1, column "_s),
             qPrintable(correction));
    QCOMPARE(rec.turns.at(0).note, u"parse_failed"_s);
}

void TestRunner::noSchemaTextParser()
{
    Harness h;
    h.spec = specFrom({ { u"output_parser"_s, u"text"_s } });
    h.recording.replies = { textReply(u"just words"_s) };
    const CallRecord rec = h.run();
    QCOMPARE(callStatusName(rec.status), u"completed"_s);
    QCOMPARE(rec.response.toString(), u"just words"_s);
}

void TestRunner::unknownToolIsAnErrorResult()
{
    Harness h;
    h.spec = specFrom(
        { { u"response_schema"_s, planSchema() }, { u"tools"_s, QJsonArray { ticketTool() } } });
    h.recording.replies = { toolReply({ call(u"c9"_s, u"delete_everything"_s, {}) }),
                            submit(goodPlan()) };
    const CallRecord rec = h.run();
    QCOMPARE(callStatusName(rec.status), u"completed"_s);
    const ToolResult r = lastMessage(h.requests().at(1)).toolResults.at(0);
    QCOMPARE(r.callId, u"c9"_s);
    QVERIFY(r.isError);
    QCOMPARE(
        r.content,
        u"unknown tool \"delete_everything\"; the available tools are: get_ticket, submit_output"_s);
}

void TestRunner::parallelCallsPairedById()
{
    Harness h;
    QJsonObject second = ticketTool();
    second.insert(u"name"_s, u"get_user"_s);
    second.insert(u"mock"_s, u"user ada"_s);
    h.spec = specFrom({ { u"response_schema"_s, planSchema() },
                        { u"tools"_s, QJsonArray { ticketTool(), second } } });
    h.recording.replies = { toolReply({ call(u"a1"_s, u"get_user"_s, {}),
                                        call(u"b2"_s, u"get_ticket"_s, { { u"id"_s, 1 } }) }),
                            submit(goodPlan()) };
    const CallRecord rec = h.run();
    QCOMPARE(callStatusName(rec.status), u"completed"_s);
    const QList<ToolResult> results = lastMessage(h.requests().at(1)).toolResults;
    QCOMPARE(results.size(), 2);
    QCOMPARE(results.at(0).callId, u"a1"_s);
    QCOMPARE(results.at(0).content, u"user ada"_s);
    QCOMPARE(results.at(1).callId, u"b2"_s);
    QCOMPARE(results.at(1).content, u"Ticket 7: the login page times out."_s);
}

void TestRunner::approvalRefusedUnattended()
{
    Harness h;
    h.spec = specFrom({ { u"response_schema"_s, planSchema() },
                        { u"tools"_s, QJsonArray { ticketTool(true) } } });
    h.recording.replies = { toolReply({ call(u"c1"_s, u"get_ticket"_s, { { u"id"_s, 7 } }) }),
                            submit(goodPlan()) };
    const CallRecord rec = h.run();
    const ToolResult r = lastMessage(h.requests().at(1)).toolResults.at(0);
    QVERIFY(r.isError);
    QCOMPARE(
        r.content,
        u"refused: the tool \"get_ticket\" needs a person's approval and this run is unattended"_s);
    QCOMPARE(callStatusName(rec.status), u"completed"_s);
}

void TestRunner::approvalAllowedByAllowList()
{
    Harness h;
    h.spec = specFrom({ { u"response_schema"_s, planSchema() },
                        { u"tools"_s, QJsonArray { ticketTool(true) } } });
    h.options.allowedTools = { u"get_ticket"_s };
    h.recording.replies = { toolReply({ call(u"c1"_s, u"get_ticket"_s, { { u"id"_s, 7 } }) }),
                            submit(goodPlan()) };
    h.run();
    const ToolResult r = lastMessage(h.requests().at(1)).toolResults.at(0);
    QVERIFY(!r.isError);
    QCOMPARE(r.content, u"Ticket 7: the login page times out."_s);
}

void TestRunner::approvalApprovedRefusedEdited()
{
    QJsonObject echo { { u"name"_s, u"echo_args"_s },
                       { u"description"_s, u"Echo."_s },
                       { u"requires_approval"_s, true },
                       { u"command"_s, QJsonArray { u"/bin/cat"_s } } };
    Harness h;
    h.spec =
        specFrom({ { u"response_schema"_s, planSchema() }, { u"tools"_s, QJsonArray { echo } } });
    h.options.attended = true;
    h.recording.replies = { toolReply({ call(u"c1"_s, u"echo_args"_s, { { u"n"_s, 1 } }),
                                        call(u"c2"_s, u"echo_args"_s, { { u"n"_s, 2 } }),
                                        call(u"c3"_s, u"echo_args"_s, { { u"n"_s, 3 } }) }),
                            submit(goodPlan()) };
    QStringList asked;
    h.onApproval = [&asked](Runner &runner, const ToolCall &c) {
        asked.append(c.id);
        if (c.id == u"c1")
            runner.approve(c.id);
        else if (c.id == u"c2")
            runner.refuse(c.id, u"not this one"_s);
        else
            runner.approve(c.id, QJsonObject { { u"n"_s, 33 } });
    };
    const CallRecord rec = h.run();
    QCOMPARE(asked, QStringList({ u"c1"_s, u"c2"_s, u"c3"_s }));
    const QList<ToolResult> results = lastMessage(h.requests().at(1)).toolResults;
    QCOMPARE(results.size(), 3);
    QCOMPARE(results.at(0).content, u"{\"n\":1}"_s);
    QVERIFY(!results.at(0).isError);
    QCOMPARE(results.at(1).content, u"refused by the user: not this one"_s);
    QVERIFY(results.at(1).isError);
    QCOMPARE(results.at(2).content, u"{\"n\":33}"_s);
    // The edited arguments are what the stored conversation shows was run.
    QCOMPARE(h.requests().at(1).messages.at(1).toolCalls.at(2).arguments.value(u"n"_s).toInt(), 33);
    QCOMPARE(callStatusName(rec.status), u"completed"_s);
    // How each was settled is kept with the call (the telemetry's approval events read it).
    const QJsonArray approvals = rec.metadata.value(u"approvals"_s).toArray();
    QCOMPARE(approvals.size(), 3);
    QStringList decisions;
    for (const QJsonValue &a : approvals) {
        decisions.append(a[u"call_id"_s].toString() + u'=' + a[u"decision"_s].toString());
        QVERIFY(a.toObject().contains(u"waited_ms"_s));
        QVERIFY(a[u"waited_ms"_s].toInteger() >= 0);
    }
    QCOMPARE(decisions, QStringList({ u"c1=approved"_s, u"c2=refused"_s, u"c3=approved"_s }));
    QVERIFY(!approvals.at(0).toObject().contains(u"edited_arguments"_s));
    QCOMPARE(approvals.at(2)[u"edited_arguments"_s].toArray(), QJsonArray { u"n"_s });
}

void TestRunner::alwaysAllowSkipsLaterApprovals()
{
    Harness h;
    h.spec = specFrom({ { u"response_schema"_s, planSchema() },
                        { u"tools"_s, QJsonArray { ticketTool(true) } } });
    h.options.attended = true;
    h.recording.replies = { toolReply({ call(u"c1"_s, u"get_ticket"_s, { { u"id"_s, 1 } }) }),
                            toolReply({ call(u"c2"_s, u"get_ticket"_s, { { u"id"_s, 2 } }) }),
                            submit(goodPlan()) };
    int asked = 0;
    h.onApproval = [&asked](Runner &runner, const ToolCall &c) {
        ++asked;
        runner.alwaysAllow(c.name);
        runner.approve(c.id);
    };
    const CallRecord rec = h.run();
    QCOMPARE(asked, 1);
    QCOMPARE(callStatusName(rec.status), u"completed"_s);
    const QJsonArray approvals = rec.metadata.value(u"approvals"_s).toArray();
    QCOMPARE(approvals.size(), 2);
    QCOMPARE(approvals.at(0)[u"decision"_s].toString(), u"approved"_s);
    QCOMPARE(approvals.at(1)[u"decision"_s].toString(), u"allowed"_s);
    QVERIFY(!approvals.at(1).toObject().contains(u"waited_ms"_s)); // nobody was asked
    QVERIFY(!lastMessage(h.requests().at(2)).toolResults.at(0).isError);
}

void TestRunner::manualToolResultFromPerson()
{
    QJsonObject manual { { u"name"_s, u"ask_person"_s },
                         { u"description"_s, u"Ask."_s },
                         { u"manual"_s, true } };
    Harness h;
    h.spec =
        specFrom({ { u"response_schema"_s, planSchema() }, { u"tools"_s, QJsonArray { manual } } });
    h.options.attended = true;
    h.recording.replies = { toolReply(
                                { call(u"m1"_s, u"ask_person"_s, { { u"q"_s, u"which?"_s } }) }),
                            submit(goodPlan()) };
    h.onManual = [](Runner &runner, const ToolCall &c) {
        runner.provideManualResult(c.id, u"the second one"_s);
    };
    h.run();
    const ToolResult r = lastMessage(h.requests().at(1)).toolResults.at(0);
    QCOMPARE(r.content, u"the second one"_s);
    QCOMPARE(r.callId, u"m1"_s);

    // Unattended, a manual tool cannot be answered: an error result, not a hang.
    Harness u;
    u.spec = h.spec;
    u.recording.replies = h.recording.replies;
    const CallRecord rec = u.run();
    QCOMPARE(callStatusName(rec.status), u"completed"_s);
    QVERIFY(lastMessage(u.requests().at(1)).toolResults.at(0).isError);
}

void TestRunner::turnLimited()
{
    Harness h;
    h.spec = specFrom({ { u"response_schema"_s, planSchema() },
                        { u"tools"_s, QJsonArray { ticketTool() } },
                        { u"max_turns"_s, 2 } });
    h.recording.replies = { toolReply({ call(u"c1"_s, u"get_ticket"_s, { { u"id"_s, 1 } }) }),
                            toolReply({ call(u"c2"_s, u"get_ticket"_s, { { u"id"_s, 2 } }) }),
                            submit(goodPlan()) };
    const CallRecord rec = h.run();
    QCOMPARE(callStatusName(rec.status), u"turn_limited"_s);
    QCOMPARE(h.requests().size(), 2);
    QCOMPARE(rec.turns.size(), 2);
    QVERIFY(rec.response.isNull() || rec.response.isUndefined());
}

void TestRunner::refusalRunsNoToolAndSendsNoCorrection()
{
    QJsonObject marker { { u"name"_s, u"touch_marker"_s },
                         { u"description"_s, u"Leaves a file behind."_s },
                         { u"command"_s,
                           QJsonArray { u"/bin/sh"_s, u"-c"_s, u"cat > \"$0\""_s, u"MARKER"_s } } };
    QTemporaryDir dir;
    marker[u"command"_s] =
        QJsonArray { u"/bin/sh"_s, u"-c"_s, u"cat > \"$0\""_s, dir.filePath(u"ran"_s) };
    Harness h;
    h.spec =
        specFrom({ { u"response_schema"_s, planSchema() }, { u"tools"_s, QJsonArray { marker } } });
    ModelReply refusal = toolReply({ call(u"c1"_s, u"touch_marker"_s, {}) });
    refusal.finishReason = FinishReason::Refusal;
    refusal.refusalCategory = u"cyber"_s;
    refusal.message.refusal = u"I can't help with that."_s;
    h.recording.replies = { refusal, submit(goodPlan()) };
    const CallRecord rec = h.run();
    QCOMPARE(callStatusName(rec.status), u"failed"_s);
    QCOMPARE(errorCategoryName(rec.errorCategory), u"refusal"_s);
    QCOMPARE(rec.error, u"cyber: I can't help with that."_s);
    QCOMPARE(h.requests().size(), 1); // no correction
    QVERIFY(!QFile::exists(dir.filePath(u"ran"_s)));
}

void TestRunner::truncationFailsWithoutReask()
{
    Harness h;
    h.spec = specFrom(
        { { u"response_schema"_s, planSchema() },
          { u"engine"_s,
            QJsonObject {
                { u"type"_s, u"replay"_s }, { u"replay"_s, u"x"_s }, { u"max_tokens"_s, 32 } } } });
    h.recording.replies = { textReply(u"{\"title\": \"Fix lo"_s, FinishReason::Length),
                            submit(goodPlan()) };
    const CallRecord rec = h.run();
    QCOMPARE(callStatusName(rec.status), u"failed"_s);
    QCOMPARE(errorCategoryName(rec.errorCategory), u"model"_s);
    QCOMPARE(rec.error, u"the reply was cut off at the output limit (max_tokens 32)"_s);
    QCOMPARE(h.requests().size(), 1);
}

void TestRunner::truncationReaskRaisesLimit()
{
    Harness h;
    h.spec = specFrom(
        { { u"response_schema"_s, planSchema() },
          { u"engine"_s,
            QJsonObject {
                { u"type"_s, u"replay"_s }, { u"replay"_s, u"x"_s }, { u"max_tokens"_s, 32 } } },
          { u"retry"_s,
            QJsonObject { { u"max_attempts"_s, 3 },
                          { u"reask"_s, true },
                          { u"per_attempt_override"_s,
                            QJsonArray { QJsonObject { { u"max_tokens"_s, 256 } } } } } } });
    ModelReply cut = submit({});
    cut.finishReason = FinishReason::Length;
    cut.message.toolCalls[0].rawArguments = u"{\"title\": \"Fix lo"_s;
    cut.message.toolCalls[0].argumentsError = u"unterminated string"_s;
    h.recording.replies = { cut, submit(goodPlan()) };
    const CallRecord rec = h.run();
    QCOMPARE(callStatusName(rec.status), u"completed"_s);
    QCOMPARE(h.requests().size(), 2);
    QCOMPARE(h.requests().at(0).maxTokens.value_or(0), 32); // attempt 0 untouched
    QCOMPARE(h.requests().at(1).maxTokens.value_or(0), 256); // retry 1 merges entry 1
    const QList<Message> sent = h.requests().at(1).messages;
    QCOMPARE(sent.at(sent.size() - 2).role, Role::Assistant);
    QCOMPARE(sent.at(sent.size() - 2).text, u"{\"title\": \"Fix lo"_s); // its own fragment
    QVERIFY(sent.at(sent.size() - 2).toolCalls.isEmpty());
    QCOMPARE(sent.last().text, Corrections::truncated(32));
    QCOMPARE(rec.turns.at(0).note, u"reask_truncated"_s);
}

void TestRunner::reaskScheduleRepeatsLastEntry()
{
    Harness h;
    h.spec = specFrom(
        { { u"response_schema"_s, planSchema() },
          { u"engine"_s,
            QJsonObject {
                { u"type"_s, u"replay"_s }, { u"replay"_s, u"x"_s }, { u"max_tokens"_s, 10 } } },
          { u"retry"_s,
            QJsonObject { { u"max_attempts"_s, 4 },
                          { u"reask"_s, true },
                          { u"per_attempt_override"_s,
                            QJsonArray { QJsonObject { { u"max_tokens"_s, 100 } },
                                         QJsonObject { { u"max_tokens"_s, 200 } } } } } } });
    const ModelReply cut = textReply(u"{\"ti"_s, FinishReason::Length);
    h.recording.replies = { cut, cut, cut, cut, submit(goodPlan()) };
    const CallRecord rec = h.run();
    // max_attempts 4: attempt 0 and three reasks, then the budget is spent.
    QCOMPARE(h.requests().size(), 4);
    QCOMPARE(h.requests().at(0).maxTokens.value_or(0), 10);
    QCOMPARE(h.requests().at(1).maxTokens.value_or(0), 100);
    QCOMPARE(h.requests().at(2).maxTokens.value_or(0), 200);
    QCOMPARE(h.requests().at(3).maxTokens.value_or(0), 200); // the last entry repeats
    QCOMPARE(callStatusName(rec.status), u"failed"_s);
    QCOMPARE(rec.attempts.size(), 4);
}

void TestRunner::preSeedsRunBeforeTheInput()
{
    Harness h;
    h.spec = specFrom(
        { { u"response_schema"_s, planSchema() },
          { u"tools"_s, QJsonArray { ticketTool(true) } },
          { u"pre_seeds"_s,
            QJsonArray { QJsonObject { { u"tool"_s, u"get_ticket"_s },
                                       { u"arguments"_s, QJsonObject { { u"id"_s, 7 } } } } } } });
    h.recording.replies = { submit(goodPlan()) };
    const CallRecord rec = h.run();
    QCOMPARE(callStatusName(rec.status), u"completed"_s);
    const QList<Message> sent = h.requests().at(0).messages;
    QCOMPARE(sent.size(), 3);
    QCOMPARE(sent.at(0).role, Role::Assistant);
    QCOMPARE(sent.at(0).toolCalls.at(0).name, u"get_ticket"_s);
    QCOMPARE(sent.at(0).toolCalls.at(0).arguments, QJsonObject({ { u"id"_s, 7 } }));
    // A pre-seeded call of a tool that needs approval asks like any other call of it: this run
    // is unattended, so it is refused (and the model is told why).
    QVERIFY2(sent.at(1).toolResults.at(0).content.contains(u"needs a person's approval"_s),
             qPrintable(sent.at(1).toolResults.at(0).content));
    QCOMPARE(sent.at(1).toolResults.at(0).callId, sent.at(0).toolCalls.at(0).id);
    QCOMPARE(sent.at(2).text, u"Plan ticket 7"_s);
}

void TestRunner::commandToolFailureIsErrorResult()
{
    QJsonObject failing { { u"name"_s, u"run_check"_s },
                          { u"description"_s, u"Fails."_s },
                          { u"command"_s,
                            QJsonArray { u"/bin/sh"_s, u"-c"_s, u"echo broken >&2; exit 1"_s } } };
    Harness h;
    h.spec = specFrom(
        { { u"response_schema"_s, planSchema() }, { u"tools"_s, QJsonArray { failing } } });
    h.recording.replies = { toolReply({ call(u"c1"_s, u"run_check"_s, {}) }), submit(goodPlan()) };
    const CallRecord rec = h.run();
    QCOMPARE(callStatusName(rec.status), u"completed"_s);
    const ToolResult r = lastMessage(h.requests().at(1)).toolResults.at(0);
    QVERIFY(r.isError);
    QVERIFY2(r.content.contains(u"broken"_s), qPrintable(r.content));
}

void TestRunner::pauseAtEveryBreakpoint()
{
    Harness h;
    h.spec = specFrom(
        { { u"response_schema"_s, planSchema() }, { u"tools"_s, QJsonArray { ticketTool() } } });
    h.options.breakpoints = Breakpoint::BeforeRequest | Breakpoint::AfterReply
        | Breakpoint::BeforeTool | Breakpoint::AfterToolResult | Breakpoint::OnValidationFailure;
    h.recording.replies = { toolReply({ call(u"c1"_s, u"get_ticket"_s, { { u"id"_s, 7 } }) }),
                            submit({ { u"title"_s, 1 } }), submit(goodPlan()) };
    QStringList seen;
    h.onPause = [&seen](Runner &runner, const PendingItem &item) {
        QCOMPARE(runner.state(), RunnerState::Paused);
        seen.append(breakpointName(item.breakpoint));
        runner.resume();
    };
    const CallRecord rec = h.run();
    QCOMPARE(callStatusName(rec.status), u"completed"_s);
    QCOMPARE(seen,
             QStringList({ u"before_request"_s, u"after_reply"_s, u"before_tool"_s,
                           u"after_tool_result"_s, u"before_request"_s, u"after_reply"_s,
                           u"validation_failure"_s, u"before_request"_s, u"after_reply"_s }));
}

void TestRunner::editedToolResultReachesModel()
{
    Harness h;
    h.spec = specFrom(
        { { u"response_schema"_s, planSchema() }, { u"tools"_s, QJsonArray { ticketTool() } } });
    h.options.breakpoints = Breakpoint::BeforeTool | Breakpoint::AfterToolResult;
    h.recording.replies = { toolReply({ call(u"c1"_s, u"get_ticket"_s, { { u"id"_s, 7 } }) }),
                            submit(goodPlan()) };
    h.onPause = [](Runner &runner, const PendingItem &item) {
        if (item.breakpoint == Breakpoint::BeforeTool)
            runner.editPendingArguments(item.call.id, QJsonObject { { u"id"_s, 8 } });
        if (item.breakpoint == Breakpoint::AfterToolResult) {
            ToolResult edited = item.result;
            edited.content = u"Ticket 8 (edited by hand)"_s;
            runner.editPendingResult(item.call.id, edited);
        }
        runner.resume();
    };
    const CallRecord rec = h.run();
    QCOMPARE(callStatusName(rec.status), u"completed"_s);
    const ChatRequest second = h.requests().at(1);
    QCOMPARE(second.messages.at(1).toolCalls.at(0).arguments, QJsonObject({ { u"id"_s, 8 } }));
    QCOMPARE(lastMessage(second).toolResults.at(0).content, u"Ticket 8 (edited by hand)"_s);
    QCOMPARE(lastMessage(second).toolResults.at(0).callId, u"c1"_s);
}

void TestRunner::stopEndsCancelled()
{
    Harness h;
    h.spec = specFrom(
        { { u"response_schema"_s, planSchema() }, { u"tools"_s, QJsonArray { ticketTool() } } });
    h.options.breakpoints = Breakpoint::AfterReply;
    h.recording.replies = { toolReply({ call(u"c1"_s, u"get_ticket"_s, { { u"id"_s, 7 } }) }),
                            submit(goodPlan()) };
    h.onPause = [](Runner &runner, const PendingItem &) {
        runner.stop();
    };
    const CallRecord rec = h.run();
    QCOMPARE(callStatusName(rec.status), u"cancelled"_s);
    QCOMPARE(h.requests().size(), 1);
    QVERIFY(rec.finishedAt.isValid());
}

void TestRunner::replayRunsOutOfReplies()
{
    Harness h;
    h.spec = specFrom(
        { { u"response_schema"_s, planSchema() }, { u"tools"_s, QJsonArray { ticketTool() } } });
    h.recording.source = u"planner.recording.json"_s;
    h.recording.replies = { toolReply({ call(u"c1"_s, u"get_ticket"_s, { { u"id"_s, 7 } }) }) };
    const CallRecord rec = h.run();
    QCOMPARE(callStatusName(rec.status), u"failed"_s);
    QVERIFY2(rec.error.contains(u"holds 1 model replies and the run asked for reply 2"_s),
             qPrintable(rec.error));
}

void TestRunner::attachmentsStoredAsPlaceholders()
{
    Harness h;
    h.spec = specFrom({ { u"output_parser"_s, u"text"_s } });
    h.recording.replies = { textReply(u"a red square"_s) };
    const QByteArray png =
        QByteArray::fromBase64("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwA"
                               "FBQIAX8jx0gAAAABJRU5ErkJggg==");
    Recording recording = h.recording;
    ReplayModelClient client(recording);
    ToolRegistry tools(h.spec);
    Runner runner(h.spec, &client, &tools);
    QSignalSpy finished(&runner, &Runner::finished);
    runner.start(
        RunInput { u"describe"_s, { Attachment::fromData(u"dot.png"_s, u"image/png"_s, png) } });
    QVERIFY(finished.wait(15000));
    // The bytes reached the model...
    QCOMPARE(client.requests().at(0).messages.at(0).attachments.at(0).data, png);
    // ...but only a placeholder is stored.
    const CallRecord rec = runner.record();
    const QJsonObject placeholder = rec.input.value(u"attachments"_s).toArray().at(0).toObject();
    QCOMPARE(placeholder.value(u"name"_s).toString(), u"dot.png"_s);
    QCOMPARE(placeholder.value(u"size"_s).toInteger(), png.size());
    QCOMPARE(placeholder.value(u"sha256"_s).toString().size(), 64);
    const QByteArray stored = QJsonDocument(rec.toJson()).toJson();
    QVERIFY(!stored.contains(png.toBase64()));
}

void TestRunner::recordingRoundTripFromCall()
{
    Harness h;
    h.spec = specFrom(
        { { u"response_schema"_s, planSchema() }, { u"tools"_s, QJsonArray { ticketTool() } } });
    h.recording.replies = { toolReply({ call(u"c1"_s, u"get_ticket"_s, { { u"id"_s, 7 } }) }),
                            submit(goodPlan()) };
    const CallRecord first = h.run();
    // Replaying the stored call after its tool's mock changed: the model's recorded next reply
    // comes back, and the transcript carries the new result.
    Harness again;
    QJsonObject changed = ticketTool();
    changed.insert(u"mock"_s, u"Ticket 7 v2: the page is fixed."_s);
    again.spec = specFrom(
        { { u"response_schema"_s, planSchema() }, { u"tools"_s, QJsonArray { changed } } });
    again.recording = recordingFromCall(first);
    QCOMPARE(again.recording.replies.size(), 2);
    const CallRecord second = again.run();
    QCOMPARE(callStatusName(second.status), u"completed"_s);
    QCOMPARE(second.response, first.response);
    QCOMPARE(lastMessage(again.requests().at(1)).toolResults.at(0).content,
             u"Ticket 7 v2: the page is fixed."_s);
}

void TestRunner::correctionTexts()
{
    QString error;
    QVERIFY(!Corrections::parseJsonAnswer(u"{\n  \"a\": }"_s, &error));
    QVERIFY2(error.startsWith(u"line 2, column "_s), qPrintable(error));
    QCOMPARE(Corrections::parseJsonAnswer(u" 42 "_s, &error)->toInt(), 42);
    QVERIFY(!Corrections::parseJsonAnswer(u"1 2"_s, &error));
    QCOMPARE(Corrections::invalidOutput({ u"/a: x"_s }, {}),
             u"The submitted output does not match the response schema (1 problem):\n- /a: x\n"
             u"Fix every problem and call submit_output again."_s);
}

void TestRunner::nativeOnReplayUsesTheRecording()
{
    // Native mode on the replay engine: the recorded text is the output; the request carries
    // the schema as the replay engine gets it (as it is), no submit_output, the spec's tools.
    Harness h;
    h.spec = specFrom({ { u"kind"_s, u"planner"_s },
                        { u"response_schema"_s, planSchema() },
                        { u"output_mode"_s, u"native"_s },
                        { u"text_output"_s, QJsonObject { { u"field"_s, u"title"_s } } },
                        { u"tools"_s, QJsonArray { ticketTool() } } });
    h.recording.replies = {
        toolReply({ call(u"call_1"_s, u"get_ticket"_s, { { u"id"_s, 7 } }) }),
        textReply(u"{\"title\": \"Fix login\", \"steps\": [\"reproduce\", \"patch\"]}"_s)
    };
    const CallRecord rec = h.run();
    QCOMPARE(callStatusName(rec.status), u"completed"_s);
    QCOMPARE(rec.response.toObject(), goodPlan());
    QCOMPARE(h.requests().size(), 2);
    for (const ChatRequest &r : h.requests()) {
        QCOMPARE(r.tools.size(), 1);
        QCOMPARE(r.tools.at(0).name, u"get_ticket"_s);
        QVERIFY(r.responseSchema.has_value());
        QCOMPARE(*r.responseSchema, planSchema());
        QCOMPARE(r.responseSchemaName, u"planner"_s);
        QCOMPARE(r.system, h.spec.systemPrompt);
    }
    // The output is the assistant's text, not a submit_output call; text_output did not apply.
    const QList<Message> stored = messagesFromJson(rec.messages);
    QCOMPARE(stored.last().role, Role::Assistant);
    QVERIFY(stored.last().toolCalls.isEmpty());
    QCOMPARE(stored.last().providerData.value(u"callscope_output_mode"_s).toString(), u"native"_s);
    QVERIFY(!rec.metadata.contains(u"text_answer"_s));
    QCOMPARE(rec.metadata.value(u"output_mode"_s).toString(), u"native"_s);
}

void TestRunner::nativeTextNotJsonThenFixed()
{
    Harness h;
    h.spec =
        specFrom({ { u"response_schema"_s, planSchema() }, { u"output_mode"_s, u"native"_s } });
    h.recording.replies = { textReply(u"Fix login first."_s),
                            textReply(u"{\"title\": \"Fix login\"}"_s),
                            textReply(u"{\"title\": \"Fix login\", \"steps\": [\"patch\"]}"_s) };
    const CallRecord rec = h.run();
    QCOMPARE(callStatusName(rec.status), u"completed"_s);
    QCOMPARE(h.requests().size(), 3);
    // Not JSON: a user turn says so, with the schema.
    const Message first = lastMessage(h.requests().at(1));
    QCOMPARE(first.role, Role::User);
    QVERIFY2(first.text.startsWith(u"Your answer is not valid JSON (line 1, column 1"_s),
             qPrintable(first.text));
    QVERIFY(first.text.contains(u"\"additionalProperties\": false"_s));
    // Invalid: every violation with its pointer, then the schema.
    const Message second = lastMessage(h.requests().at(2));
    QCOMPARE(second.role, Role::User);
    QVERIFY2(second.text.contains(u"- (root): "_s) && second.text.contains(u"steps"_s),
             qPrintable(second.text));
    QVERIFY(second.text.contains(u"The full schema the answer must match:"_s));
    QCOMPARE(rec.turns.at(0).note, u"parse_failed"_s);
    QCOMPARE(rec.turns.at(1).note, u"validation_failed"_s);
    // The answers stay in the conversation as the model's text.
    QCOMPARE(h.requests().at(2).messages.at(3).text, u"{\"title\": \"Fix login\"}"_s);
}

void TestRunner::promptedBreakpointAndSubmitOutputUnknown()
{
    // Prompted mode: the instruction and schema follow the system prompt; a submit_output call
    // is an unknown tool there; the validation-failure breakpoint stops before the correction.
    Harness h;
    h.spec = specFrom({ { u"system_prompt"_s, u"Plan the work."_s },
                        { u"response_schema"_s, planSchema() },
                        { u"output_mode"_s, u"prompted"_s } });
    h.options.breakpoints = Breakpoint::OnValidationFailure;
    h.recording.replies = {
        submit(goodPlan(), u"c1"_s), textReply(u"Plan:\n```json\n{\"title\": 1}\n```"_s),
        textReply(
            u"```json\n{\"title\": \"Fix login\", \"steps\": [\"reproduce\", \"patch\"]}\n```\nDone."_s)
    };
    const CallRecord rec = h.run();
    QCOMPARE(callStatusName(rec.status), u"completed"_s);
    QCOMPARE(rec.response.toObject(), goodPlan());
    const ChatRequest first = h.requests().at(0);
    QVERIFY(first.tools.isEmpty());
    QVERIFY(!first.responseSchema.has_value());
    QVERIFY2(
        first.system.startsWith(
            u"Plan the work.\n\nAnswer with one JSON value that matches the JSON Schema below."_s),
        qPrintable(first.system));
    QVERIFY(first.system.contains(u"\"additionalProperties\": false"_s));
    const ToolResult unknown = lastMessage(h.requests().at(1)).toolResults.at(0);
    QVERIFY(unknown.isError);
    QVERIFY2(unknown.content.startsWith(u"unknown tool \"submit_output\""_s),
             qPrintable(unknown.content));
    QCOMPARE(h.pauses.size(), 1);
    QCOMPARE(h.pauses.at(0).breakpoint, Breakpoint::OnValidationFailure);
    QVERIFY2(h.pauses.at(0).validationErrors.join(u'|').contains(u"/title: "_s),
             qPrintable(h.pauses.at(0).validationErrors.join(u'|')));
    // The stored transcript carries the instruction the model read.
    QVERIFY(QJsonDocument(rec.transcript).toJson().contains("Answer with one JSON value"));
}

void TestRunner::extractJsonAnswer()
{
    QString error;
    QCOMPARE(
        Corrections::extractJsonAnswer(u"Sure:\n```json\n{\"a\": 1}\n```\nAnything else?"_s, &error)
            ->toObject(),
        QJsonObject({ { u"a"_s, 1 } }));
    QCOMPARE(Corrections::extractJsonAnswer(u"The answer is {\"a\": [1, {\"b\": 2}]} as asked."_s,
                                            &error)
                 ->toObject(),
             QJsonObject({ { u"a"_s, QJsonArray { 1, QJsonObject { { u"b"_s, 2 } } } } }));
    QCOMPARE(Corrections::extractJsonAnswer(u"[1, 2]"_s, &error)->toArray(), (QJsonArray { 1, 2 }));
    QVERIFY(!Corrections::extractJsonAnswer(u"```\n{\"a\": 1}\n```\nor\n```\n{\"a\": 2}\n```"_s,
                                            &error));
    QCOMPARE(error, u"the reply has 2 code blocks; give the answer in one"_s);
    QVERIFY(!Corrections::extractJsonAnswer(u"no json here"_s, &error));
    QVERIFY2(error.startsWith(u"line 1, column "_s), qPrintable(error));
    QVERIFY(!Corrections::extractJsonAnswer(u"almost {\"a\": } there"_s, &error));
    QVERIFY2(error.startsWith(u"line 1, column "_s), qPrintable(error));
}

int runRunnerHttpTests(int argc, char **argv); // tst_runner_http.cpp

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    TestRunner runnerTests;
    int failures = QTest::qExec(&runnerTests, argc, argv);
    failures += runRunnerHttpTests(argc, argv);
    return failures;
}

#include "tst_runner.moc"
