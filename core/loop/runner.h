#pragma once

// The structured-call runner: an explicit state machine that drives one
// call of a spec on an input through the tool loop. It emits an event at every step, can pause
// at breakpoints and resume after the caller edited what is pending. The GUI and the CLI drive
// this same class; the CLI simply runs it without pauses or an approval handler.

#include "core/engines/modelclient.h"
#include "core/model/callrecord.h"
#include "core/model/spec.h"
#include "core/schema/engineschema.h"
#include "core/schema/streamcheck.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>

#include <functional>
#include <memory>

namespace Callscope {

class Toolkit;
class ToolRegistry;
class ToolJob;
class OutputValidator;
class StreamCheck;

enum class Breakpoint : unsigned {
    None = 0,
    BeforeRequest = 1u << 0,
    AfterReply = 1u << 1,
    BeforeTool = 1u << 2,
    AfterToolResult = 1u << 3,
    OnValidationFailure = 1u << 4,
};
Q_DECLARE_FLAGS(Breakpoints, Breakpoint)
Q_DECLARE_OPERATORS_FOR_FLAGS(Breakpoints)
QString breakpointName(Breakpoint breakpoint);

enum class RunnerState {
    Idle,
    Preparing, // starting toolkits (MCP servers)
    PreSeeding, // running the spec's pre-seeded calls
    BuildingRequest,
    AwaitingModel,
    Validating,
    AwaitingApproval, // a tool needs a person's decision
    AwaitingManual, // a manual tool needs its result typed in
    RunningTools,
    Paused, // stopped at a breakpoint
    Finished,
};
QString runnerStateName(RunnerState state);

struct RunInput
{
    QString text;
    QList<Attachment> attachments; // with their bytes; stored as placeholders
};

struct RunOptions
{
    Breakpoints breakpoints = Breakpoint::None;
    // True when someone answers approvalNeeded/manualResultNeeded (the GUI). Unattended runs
    // refuse tools that need approval unless they are in allowedTools.
    bool attended = false;
    QSet<QString> allowedTools;
    // Conversation that comes before this call (a session's earlier messages, or a parent
    // call's conversation for a revision). Sent to the model, not part of this call's record
    // unless includePriorInRecord is set (revisions store the whole replayed conversation).
    QList<Message> priorMessages;
    bool includePriorInRecord = false;
    QString extraSystemPrompt; // a session's own system prompt, added for this call only
    std::optional<qint64> parent;
    QJsonObject metadata; // user metadata merged into the record's metadata
    // Trims the messages of each request (the context budget); identity when unset. Returns
    // the messages to send and a JSON report stored on the turn.
    std::function<std::pair<QList<Message>, QJsonObject>(const QList<Message> &)> budget;
};

// What a pause or a decision is about.
struct PendingItem
{
    Breakpoint breakpoint = Breakpoint::None;
    int turn = 0;
    ChatRequest request; // BeforeRequest
    std::optional<ModelReply> reply; // AfterReply
    ToolCall call; // BeforeTool, approvals, manual tools
    ToolResult result; // AfterToolResult
    QStringList validationErrors; // OnValidationFailure
};

// The structured answer of a reply as it streams (the submit_output arguments, or the reply
// text in native mode), checked against the response schema as it arrives.
struct OutputProgress
{
    int turn = 0;
    QJsonValue partial; // what arrived, as JSON (StreamCheck::snapshot())
    QList<StreamCheck::Field> fields; // every field so far, with its state
    qsizetype bytes = 0; // bytes of the answer's text read
    bool canStillBeValid = true;
    bool ended = false; // the reply is over (complete, failed or cut off)
    bool cut = false; // stop_early cut the reply off at the first field that rules it out

    // {"turn", "bytes", "partial", "fields": [{"pointer", "state", "reason"}], "can_be_valid",
    // "ended", "stopped_early"}: one line of `run --partial`.
    QJsonObject toJson() const;
};

// What stop_early cut off: where the answer went wrong and how much had come by then.
struct StreamCut
{
    int turn = 0;
    QString pointer; // the field that can no longer be valid
    QString reason;
    QString keyword; // the schema keyword that rules it out
    qint64 answerBytes = 0; // bytes of the answer's text when the violation was read
    qint64 receivedBytes = 0; // bytes of the HTTP reply received before the cut
    qint64 outputTokens = 0; // output tokens of the cut reply (reported, or estimated)
    bool tokensEstimated = false; // the provider sent no count: estimated from the text

    QJsonObject toJson() const;
};

class Runner final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Runner)

public:
    // The client and the toolkits are not owned; they must outlive the run.
    // `tools` (built from the same spec) offers the tools; the runner prepares it on start.
    Runner(const Spec &spec, ModelClient *client, ToolRegistry *tools, QObject *parent = nullptr);
    ~Runner() override;

    void setOptions(const RunOptions &options);
    const RunOptions &options() const { return m_options; }

    void start(const RunInput &input);
    void stop(); // ends the call as cancelled (kept)
    void resume(); // continue after a pause

    // At a pause: replace what is pending before resuming.
    void editPendingArguments(const QString &callId, const QJsonObject &arguments);
    void editPendingResult(const QString &callId, const ToolResult &result);

    // Decisions for approvalNeeded / manualResultNeeded.
    void approve(const QString &callId, const std::optional<QJsonObject> &editedArguments = {});
    void refuse(const QString &callId, const QString &reason);
    void alwaysAllow(const QString &toolName);
    void provideManualResult(const QString &callId, const QString &content, bool isError = false);

    RunnerState state() const { return m_state; }
    const PendingItem &pending() const { return m_pending; }
    const CallRecord &record() const { return m_record; }
    QList<Message> conversation() const { return m_conversation; }
    bool isFinished() const { return m_state == RunnerState::Finished; }

    static QString submitToolName();

Q_SIGNALS:
    void stateChanged(Callscope::RunnerState state);
    void requestBuilt(int turn, const Callscope::ChatRequest &request,
                      const QJsonObject &budgetReport);
    void textDelta(const QString &delta);
    // The structured answer while it streams, at most once per pass of the event loop, and
    // once more when the reply ends.
    void outputProgress(const Callscope::OutputProgress &progress);
    // stop_early cut a reply off (the correction follows).
    void streamCut(const Callscope::StreamCut &cut);
    void replyReceived(int turn, const Callscope::ModelReply &reply,
                       const Callscope::ModelOutcome &outcome);
    void toolCallPending(const Callscope::ToolCall &call);
    void approvalNeeded(const Callscope::ToolCall &call);
    void manualResultNeeded(const Callscope::ToolCall &call);
    void toolResultReady(const Callscope::ToolResult &result);
    void validationFailed(int turn, const QStringList &errors);
    void correctionSent(int turn, const QString &text);
    void retryScheduled(int attempt, qint64 delayMs, const Callscope::ApiError &reason);
    void paused(const Callscope::PendingItem &item);
    void finished(const Callscope::CallRecord &record);

private:
    struct ToolSlot
    {
        ToolCall call;
        std::optional<ToolResult> result;
        bool decided = false; // approval settled (or not needed)
        bool breakpointSeen = false;
        QPointer<ToolJob> job;
        QElapsedTimer asked; // started when the person was asked to approve
    };

    void setState(RunnerState state);
    // Notes how a call of a tool that needs approval was settled, in the record's metadata
    // ("approvals": call id, tool, decision, how long the person took, the argument names they
    // changed): approved, refused, allowed (--allow-tool, Always Allow) or unattended.
    void recordApproval(const ToolSlot &slot, const QString &decision,
                        const QStringList &editedArguments = {});
    void pauseAt(Breakpoint bp, std::function<void()> continuation);
    bool breakAt(Breakpoint bp) const { return m_options.breakpoints.testFlag(bp); }

    void prepareToolkits();
    void runPreSeeds();
    void beginTurn();
    void sendRequest();
    void onModelFinished(const ModelOutcome &outcome);
    // The answer as it streams: into a StreamCheck of the current reply.
    void onTextDelta(const QString &delta);
    void onToolArgumentsDelta(int call, const QString &name, const QString &fragment);
    void feedStream(const QString &fragment);
    void emitProgress(bool ended);
    void endStreamCheck(); // the reply is over: last progress, then the check goes
    bool mayCutStream() const;
    void handleCutReply(const ModelReply &reply);
    void handleReply(const ModelReply &reply);
    void handleToolCalls(const ModelReply &reply);
    void handleTextReply(const ModelReply &reply);
    void handleTruncation(const ModelReply &reply);
    void handleStructuredText(const QString &text);
    void structuredTextRefused(const QStringList &errors, const QString &correction,
                               const QString &note);
    // Validation off the runner's thread; `then` follows on it unless the run ended or moved on.
    void checkOutput(std::function<QStringList(const Callscope::OutputValidator &)> check,
                     std::function<void(const QStringList &)> then);
    void acceptOutput(const QJsonValue &parsed, const QString &acceptedCallId);
    // With a schema: submit_output carries the output (tool mode), or the reply text does
    // (native and prompted modes).
    bool usesSubmitTool() const;
    bool outputFromText() const;
    QString requestSystemPrompt() const;

    // Tool execution for one batch of calls (a turn's calls, or the pre-seeds).
    void startToolBatch(const QList<ToolCall> &calls, bool preSeed, std::function<void()> done);
    void decideNextTool();
    void runDecidedTools();
    void onToolJobFinished(const QString &callId, const ToolResult &result);
    void finishToolBatch();
    void deliverResult(int index);
    ToolResult errorResult(const ToolCall &call, const QString &text) const;
    Toolkit *toolkitFor(const QString &name) const;

    void sendCorrection(const QString &text, const QString &note);
    void appendMessage(const Message &message);
    QList<ToolDeclaration> declarations() const;
    EngineSpec effectiveEngine() const; // with the per-attempt override merged
    QString schemaText() const;

    void finish(CallStatus status, ErrorCategory category = ErrorCategory::None,
                const QString &error = {});
    void completeFinish(); // builds the record's messages and transcript, emits finished
    void handleTextAnswer(qsizetype index, int turn); // text_output: check and accept the text

    Spec m_spec;
    QPointer<ModelClient> m_client;
    QPointer<ToolRegistry> m_tools;
    RunOptions m_options;
    std::shared_ptr<OutputValidator> m_validator;
    std::optional<EngineSchema> m_sentSchema; // native mode: the schema as the engine gets it

    RunnerState m_state = RunnerState::Idle;
    RunnerState m_stateBeforePause = RunnerState::Idle;
    std::function<void()> m_continuation;
    PendingItem m_pending;

    CallRecord m_record;
    QList<Message> m_conversation; // this call's messages (after priorMessages)
    int m_turn = 0; // index of the current turn
    int m_attemptsUsed = 0;
    int m_reasks = 0; // reasks of the current request (per-attempt schedule)
    bool m_reaskPending = false; // the next request is a reask of the previous one
    Message m_pendingInput; // the user's input, sent after the pre-seeds
    QHash<QString, int> m_mockCursor;
    QSet<QString> m_alwaysAllowed;
    bool m_stopping = false;
    // A text answer accepted under text_output: its message in m_conversation.
    qsizetype m_textAnswerMessage = -1;
    QElapsedTimer m_clock;

    // The current tool batch.
    QList<ToolSlot> m_slots;
    int m_decideIndex = 0;
    int m_jobsRunning = 0;
    bool m_batchIsPreSeed = false;
    std::function<void()> m_batchDone;
    std::optional<ChatRequest> m_request;
    QJsonObject m_requestReport;

    // The current reply's answer as it streams.
    std::unique_ptr<StreamCheck> m_streamCheck;
    int m_streamCall = -1; // the submit_output call being read (tool mode)
    bool m_progressQueued = false;
    std::optional<StreamCut> m_cut; // set when stop_early cut the current reply
    QJsonValue m_cutPartial; // the answer as it stood at the cut
    QJsonArray m_cuts; // every cut of the call, stored in the metadata
};

} // namespace Callscope

Q_DECLARE_METATYPE(Callscope::PendingItem)
Q_DECLARE_METATYPE(Callscope::OutputProgress)
Q_DECLARE_METATYPE(Callscope::StreamCut)
