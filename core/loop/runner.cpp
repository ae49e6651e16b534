#include "core/loop/runner.h"

#include "core/context/contextbudget.h"
#include "core/loop/corrections.h"
#include "core/loop/edits.h"
#include "core/loop/exchangecapture.h"
#include "core/loop/outputvalidator.h"
#include "core/model/jsonwriter.h"
#include "core/tools/toolkit.h"
#include "core/tools/toolregistry.h"

#include <QFutureWatcher>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QPromise>
#include <QThreadPool>
#include <QTimer>

using namespace Qt::StringLiterals;

Q_LOGGING_CATEGORY(lcRunner, "callscope.runner")

namespace Callscope {

namespace {

constexpr auto kSyntheticKey = "callscope_synthetic"_L1;

// Text the model reads (tool results, the submit_output description) is part of the wire
// contract: never translated, so a spec sends the same words on every desktop.
QString modelText(const char *text)
{
    return QString::fromUtf8(text);
}

// Engines whose conversation must open with a user turn.
bool needsLeadingUserTurn(EngineType type)
{
    return type == EngineType::Anthropic || type == EngineType::Gemini;
}

// The name native structured output carries: the spec's kind within OpenAI's name rule.
QString responseSchemaName(const QString &kind)
{
    QString name;
    for (QChar c : kind) {
        const bool ok = (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z')
            || (c >= u'0' && c <= u'9') || c == u'_' || c == u'-';
        name += ok ? c : u'_';
    }
    name = name.left(64);
    return name.isEmpty() ? u"output"_s : name;
}

} // namespace

QString breakpointName(Breakpoint breakpoint)
{
    switch (breakpoint) {
    case Breakpoint::None:
        return u"none"_s;
    case Breakpoint::BeforeRequest:
        return u"before_request"_s;
    case Breakpoint::AfterReply:
        return u"after_reply"_s;
    case Breakpoint::BeforeTool:
        return u"before_tool"_s;
    case Breakpoint::AfterToolResult:
        return u"after_tool_result"_s;
    case Breakpoint::OnValidationFailure:
        return u"validation_failure"_s;
    }
    return {};
}

QString runnerStateName(RunnerState state)
{
    switch (state) {
    case RunnerState::Idle:
        return u"idle"_s;
    case RunnerState::Preparing:
        return u"preparing"_s;
    case RunnerState::PreSeeding:
        return u"pre_seeding"_s;
    case RunnerState::BuildingRequest:
        return u"building_request"_s;
    case RunnerState::AwaitingModel:
        return u"awaiting_model"_s;
    case RunnerState::Validating:
        return u"validating"_s;
    case RunnerState::AwaitingApproval:
        return u"awaiting_approval"_s;
    case RunnerState::AwaitingManual:
        return u"awaiting_manual"_s;
    case RunnerState::RunningTools:
        return u"running_tools"_s;
    case RunnerState::Paused:
        return u"paused"_s;
    case RunnerState::Finished:
        return u"finished"_s;
    }
    return {};
}

QString Runner::submitToolName()
{
    return u"submit_output"_s;
}

bool Runner::usesSubmitTool() const
{
    return m_spec.responseSchema && m_spec.outputMode == OutputMode::Tool;
}

bool Runner::outputFromText() const
{
    return m_spec.responseSchema && m_spec.outputMode != OutputMode::Tool;
}

// Prompted mode: the schema and the instruction follow the system prompt (model-facing text).
QString Runner::requestSystemPrompt() const
{
    if (!m_spec.responseSchema || m_spec.outputMode != OutputMode::Prompted)
        return m_record.systemPrompt;
    const QString instruction = Corrections::promptedInstruction(schemaText());
    return m_record.systemPrompt.isEmpty() ? instruction
                                           : m_record.systemPrompt + u"\n\n"_s + instruction;
}

Runner::Runner(const Spec &spec, ModelClient *client, ToolRegistry *tools, QObject *parent)
    : QObject(parent)
    , m_spec(spec)
    , m_client(client)
    , m_tools(tools)
{
    if (m_spec.responseSchema)
        m_validator = std::make_shared<OutputValidator>(*m_spec.responseSchema);
}

Runner::~Runner()
{
    for (ToolSlot &slot : m_slots) {
        if (slot.job)
            slot.job->disconnect(this);
    }
}

void Runner::setOptions(const RunOptions &options)
{
    m_options = options;
}

void Runner::setState(RunnerState state)
{
    if (m_state == state)
        return;
    m_state = state;
    Q_EMIT stateChanged(state);
}

void Runner::pauseAt(Breakpoint bp, std::function<void()> continuation)
{
    m_pending.breakpoint = bp;
    m_pending.turn = m_turn;
    m_stateBeforePause = m_state;
    m_continuation = std::move(continuation);
    setState(RunnerState::Paused);
    Q_EMIT paused(m_pending);
}

void Runner::resume()
{
    if (m_state != RunnerState::Paused || !m_continuation)
        return;
    auto continuation = std::move(m_continuation);
    m_continuation = nullptr;
    setState(m_stateBeforePause);
    continuation();
}

void Runner::stop()
{
    if (m_state == RunnerState::Finished || m_state == RunnerState::Idle)
        return;
    m_stopping = true;
    m_continuation = nullptr;
    if (m_client)
        m_client->cancel();
    for (ToolSlot &slot : m_slots) {
        if (slot.job) {
            slot.job->disconnect(this);
            slot.job->cancel();
        }
    }
    finish(CallStatus::Cancelled, ErrorCategory::None, tr("stopped by the user"));
}

// ---------------------------------------------------------------------------------------------
// Start: toolkits, pre-seeds, the user's input

void Runner::start(const RunInput &input)
{
    if (m_state != RunnerState::Idle)
        return;
    m_clock.start();
    m_record = CallRecord();
    m_cuts = {};
    m_record.kind = m_spec.kind;
    m_record.status = CallStatus::Running;
    m_record.systemPrompt = m_spec.systemPrompt;
    if (!m_options.extraSystemPrompt.isEmpty())
        m_record.systemPrompt = m_options.extraSystemPrompt + u"\n\n"_s + m_spec.systemPrompt;
    m_record.engineType = engineTypeName(m_client ? m_client->engineType() : m_spec.engine.type);
    m_record.model = m_client ? m_client->model() : m_spec.engine.model;
    m_record.parent = m_options.parent;
    m_record.metadata = m_options.metadata;
    m_record.createdAt = QDateTime::currentDateTimeUtc();
    QJsonArray placeholders;
    for (const Attachment &a : input.attachments)
        placeholders.append(a.toJson());
    m_record.input = QJsonObject { { u"text"_s, input.text }, { u"attachments"_s, placeholders } };

    if (!m_client) {
        finish(CallStatus::Failed, ErrorCategory::Other, tr("no engine to run the call on"));
        return;
    }
    if (m_validator && !m_validator->isValid()) {
        finish(CallStatus::Failed, ErrorCategory::Other,
               tr("the response schema is invalid: %1").arg(m_validator->compileError()));
        return;
    }
    if (m_spec.responseSchema) {
        m_record.metadata.insert(u"output_mode"_s, outputModeName(m_spec.outputMode));
        if (m_spec.outputMode == OutputMode::Native)
            m_sentSchema = schemaForEngine(*m_spec.responseSchema, m_client->engineType());
    }
    connect(m_client, &ModelClient::textDelta, this, &Runner::onTextDelta);
    connect(m_client, &ModelClient::toolArgumentsDelta, this, &Runner::onToolArgumentsDelta);
    connect(m_client, &ModelClient::retryScheduled, this, &Runner::retryScheduled);
    connect(m_client, &ModelClient::finished, this, &Runner::onModelFinished);

    // The user's input goes after the pre-seeds; keep it until they ran.
    m_pending = PendingItem();
    m_conversation.clear();
    m_textAnswerMessage = -1;
    m_pendingInput = Message::user(input.text, input.attachments);
    prepareToolkits();
}

void Runner::prepareToolkits()
{
    setState(RunnerState::Preparing);
    if (!m_tools) {
        runPreSeeds();
        return;
    }
    connect(
        m_tools, &ToolRegistry::ready, this,
        [this](const QString &error) {
            if (m_state != RunnerState::Preparing)
                return;
            // A toolkit that cannot start fails the call before any token is spent.
            if (!error.isEmpty()) {
                finish(CallStatus::Failed, ErrorCategory::Other,
                       tr("a toolkit could not start: %1").arg(error));
                return;
            }
            runPreSeeds();
        },
        Qt::SingleShotConnection);
    m_tools->prepare();
}

void Runner::runPreSeeds()
{
    if (m_stopping)
        return;
    if (m_spec.preSeeds.isEmpty()) {
        appendMessage(m_pendingInput);
        beginTurn();
        return;
    }
    setState(RunnerState::PreSeeding);
    if (needsLeadingUserTurn(m_client->engineType()) && m_options.priorMessages.isEmpty()) {
        Message lead = Message::user(modelText("Context gathered before the task follows."));
        lead.providerData.insert(kSyntheticKey, true);
        appendMessage(lead);
    }
    QList<ToolCall> calls;
    for (int i = 0; i < m_spec.preSeeds.size(); ++i) {
        ToolCall call;
        call.id = u"preseed_"_s + QString::number(i);
        call.name = m_spec.preSeeds.at(i).tool;
        call.arguments = m_spec.preSeeds.at(i).arguments;
        call.rawArguments =
            QString::fromUtf8(QJsonDocument(call.arguments).toJson(QJsonDocument::Compact));
        calls.append(call);
    }
    Message asked = Message::assistant(QString(), calls);
    asked.providerData.insert(kSyntheticKey, true);
    appendMessage(asked);
    startToolBatch(calls, true, [this] {
        appendMessage(m_pendingInput);
        beginTurn();
    });
}

// ---------------------------------------------------------------------------------------------
// One turn: request, reply

EngineSpec Runner::effectiveEngine() const
{
    EngineSpec engine = m_spec.engine;
    if (m_reasks == 0 || m_spec.retry.perAttemptOverride.isEmpty())
        return engine;
    const int index = std::min<int>(m_reasks, m_spec.retry.perAttemptOverride.size()) - 1;
    const QJsonObject over = m_spec.retry.perAttemptOverride.at(index);
    if (over.contains(u"max_tokens"_s))
        engine.maxTokens = over.value(u"max_tokens"_s).toInt();
    if (over.contains(u"temperature"_s))
        engine.temperature = over.value(u"temperature"_s).toDouble();
    if (over.contains(u"model"_s))
        engine.model = over.value(u"model"_s).toString();
    return engine;
}

QList<ToolDeclaration> Runner::declarations() const
{
    QList<ToolDeclaration> decls = m_tools ? m_tools->declarations() : QList<ToolDeclaration>();
    if (usesSubmitTool()) {
        ToolDeclaration submit;
        submit.name = submitToolName();
        submit.description =
            modelText("Submit the final answer. Call this exactly once, when the task is "
                      "done; its arguments are the answer and must match the schema.");
        submit.inputSchema = *m_spec.responseSchema;
        decls.append(submit);
    }
    return decls;
}

void Runner::beginTurn()
{
    if (m_stopping)
        return;
    if (m_turn >= m_spec.maxTurns) {
        finish(CallStatus::TurnLimited, ErrorCategory::None,
               tr("no valid output within %n turn(s)", nullptr, m_spec.maxTurns));
        return;
    }
    setState(RunnerState::BuildingRequest);
    // One request's attempts (its transient retries and reasks) share retry.max_attempts; a new
    // request of the tool loop starts a fresh budget.
    if (!m_reaskPending) {
        m_attemptsUsed = 0;
        m_reasks = 0;
    }
    m_reaskPending = false;
    const EngineSpec engine = effectiveEngine();

    ChatRequest request;
    request.system = requestSystemPrompt();
    if (m_sentSchema) {
        request.responseSchema = m_sentSchema->schema;
        request.responseSchemaName = responseSchemaName(m_spec.kind);
    }
    QList<Message> all = m_options.priorMessages;
    all.append(m_conversation);
    if (m_options.budget) {
        auto [sent, report] = m_options.budget(all);
        request.messages = sent;
        m_requestReport = report;
    } else {
        request.messages = all;
        m_requestReport = {};
    }
    request.tools = declarations();
    request.toolChoice = request.tools.isEmpty() ? ToolChoiceMode::None : ToolChoiceMode::Auto;
    request.maxTokens = engine.maxTokens;
    request.temperature = engine.temperature;
    request.stream = engine.stream;
    request.cache = engine.cache;
    m_request = request;
    Q_EMIT requestBuilt(m_turn, request, m_requestReport);

    if (breakAt(Breakpoint::BeforeRequest)) {
        m_pending = PendingItem();
        m_pending.request = request;
        pauseAt(Breakpoint::BeforeRequest, [this] { sendRequest(); });
        return;
    }
    sendRequest();
}

void Runner::sendRequest()
{
    if (m_stopping || !m_request)
        return;
    setState(RunnerState::AwaitingModel);
    m_streamCheck.reset();
    m_streamCall = -1;
    m_cut.reset();
    const int remaining = std::max(1, m_spec.retry.maxAttempts - m_attemptsUsed);
    m_client->send(*m_request, remaining);
}

// ---------------------------------------------------------------------------------------------
// The answer as it streams

QJsonObject StreamCut::toJson() const
{
    return QJsonObject { { u"turn"_s, turn },
                         { u"pointer"_s, pointer },
                         { u"reason"_s, reason },
                         { u"keyword"_s, keyword },
                         { u"answer_bytes"_s, answerBytes },
                         { u"received_bytes"_s, receivedBytes },
                         { u"output_tokens"_s, outputTokens },
                         { u"output_tokens_estimated"_s, tokensEstimated } };
}

QJsonObject OutputProgress::toJson() const
{
    QJsonArray list;
    for (const StreamCheck::Field &f : fields) {
        QJsonObject field { { u"pointer"_s, f.pointer },
                            { u"state"_s, streamFieldStateName(f.state) } };
        if (!f.reason.isEmpty())
            field.insert(u"reason"_s, f.reason);
        list.append(field);
    }
    QJsonObject o { { u"turn"_s, turn },
                    { u"bytes"_s, qint64(bytes) },
                    { u"partial"_s, partial.isUndefined() ? QJsonValue() : partial },
                    { u"fields"_s, list },
                    { u"can_be_valid"_s, canStillBeValid },
                    { u"ended"_s, ended } };
    if (cut)
        o.insert(u"stopped_early"_s, true);
    return o;
}

void Runner::onTextDelta(const QString &delta)
{
    Q_EMIT textDelta(delta);
    // Native mode: the reply text is the answer. (Prompted replies may wrap it in words.)
    if (m_spec.responseSchema && m_spec.outputMode == OutputMode::Native)
        feedStream(delta);
}

void Runner::onToolArgumentsDelta(int call, const QString &name, const QString &fragment)
{
    if (!usesSubmitTool() || name != submitToolName())
        return;
    if (m_streamCall < 0)
        m_streamCall = call;
    else if (call != m_streamCall)
        return; // a second submit_output in one reply: the first one is followed
    feedStream(fragment);
}

bool Runner::mayCutStream() const
{
    if (!m_spec.stopEarly)
        return false;
    if (usesSubmitTool())
        return true;
    // A schema sent with optional properties made nullable accepts a null the spec's schema
    // does not: such a reply is only judged once it is complete (and normalised).
    return m_spec.outputMode == OutputMode::Native
        && (!m_sentSchema || m_sentSchema->nullableOptional.isEmpty());
}

void Runner::feedStream(const QString &fragment)
{
    if (m_state != RunnerState::AwaitingModel || m_cut || fragment.isEmpty())
        return;
    if (!m_streamCheck)
        m_streamCheck = std::make_unique<StreamCheck>(QJsonValue(*m_spec.responseSchema));
    const bool wasPossible = m_streamCheck->canStillBeValid();
    m_streamCheck->append(fragment.toUtf8());
    if (wasPossible && !m_streamCheck->canStillBeValid() && mayCutStream()) {
        const StreamCheck::Violation v = *m_streamCheck->firstViolation();
        StreamCut cut;
        cut.turn = m_turn;
        cut.pointer = v.pointer;
        cut.reason = v.reason;
        cut.keyword = v.keyword;
        cut.answerBytes = v.offset;
        m_cut = cut;
        m_cutPartial = m_streamCheck->snapshot();
        emitProgress(false);
        qCDebug(lcRunner) << "stop_early: cutting the reply at" << v.pointer << v.keyword;
        // The outcome (cut short) comes before cutStream() returns; nothing here may run after.
        if (!m_client->cutStream())
            m_cut.reset();
        return;
    }
    if (m_progressQueued)
        return;
    m_progressQueued = true;
    QMetaObject::invokeMethod(
        this,
        [this, check = m_streamCheck.get()] {
            m_progressQueued = false;
            if (m_streamCheck.get() == check && m_state == RunnerState::AwaitingModel)
                emitProgress(false);
        },
        Qt::QueuedConnection);
}

void Runner::emitProgress(bool ended)
{
    if (!m_streamCheck)
        return;
    OutputProgress progress;
    progress.turn = m_turn;
    progress.partial = m_streamCheck->snapshot();
    progress.fields = m_streamCheck->fields();
    progress.bytes = m_streamCheck->bytesRead();
    progress.canStillBeValid = m_streamCheck->canStillBeValid();
    progress.ended = ended;
    progress.cut = m_cut.has_value();
    Q_EMIT outputProgress(progress);
}

void Runner::endStreamCheck()
{
    if (!m_streamCheck)
        return;
    if (!m_cut)
        m_streamCheck->finish();
    emitProgress(true);
    m_streamCheck.reset();
}

namespace {

// A reply that is not a finished answer (cut off at the output limit, or by stop_early), shown
// back to the model as an assistant turn: calls cut mid-way cannot be sent back as calls, so
// their arguments go in as text.
Message fragmentOf(const ModelReply &reply)
{
    Message fragment = Message::assistant(reply.message.text);
    fragment.providerData = reply.message.providerData;
    for (const ToolCall &call : reply.message.toolCalls) {
        if (!fragment.text.isEmpty())
            fragment.text += u'\n';
        fragment.text += call.rawArguments.isEmpty()
            ? QString::fromUtf8(QJsonDocument(call.arguments).toJson(QJsonDocument::Compact))
            : call.rawArguments;
    }
    if (fragment.text.isEmpty())
        fragment.text = u"…"_s;
    return fragment;
}

} // namespace

void Runner::handleCutReply(const ModelReply &reply)
{
    if (m_stopping || !m_cut)
        return;
    ++m_turn;
    appendMessage(fragmentOf(reply));
    m_cuts.append(m_cut->toJson());
    m_record.metadata.insert(u"stopped_early"_s, m_cuts);
    const StreamCut cut = *m_cut;
    Q_EMIT streamCut(cut);
    const QString where = cut.pointer.isEmpty() ? u"(root)"_s : cut.pointer;
    const QString line = where + u": "_s + cut.reason;
    Q_EMIT validationFailed(m_turn - 1, { line });
    // The model reads the validator's words (never translated) for the field that broke, as
    // the answer stood at the cut; the reasons StreamCheck gives are for people.
    QStringList problems;
    for (const QString &v : m_validator->validate(m_cutPartial)) {
        if (v.startsWith(where + u": "_s))
            problems.append(v);
    }
    if (problems.isEmpty())
        problems.append(
            where + u": "_s
            + modelText("this value can no longer match the schema (keyword %1)").arg(cut.keyword));
    auto sendBack = [this, problems] {
        sendCorrection(Corrections::stoppedEarly(problems, schemaText(), usesSubmitTool()),
                       u"stopped_early"_s);
    };
    if (breakAt(Breakpoint::OnValidationFailure)) {
        m_pending = PendingItem();
        m_pending.validationErrors = { line };
        pauseAt(Breakpoint::OnValidationFailure, sendBack);
        return;
    }
    sendBack();
}

void Runner::onModelFinished(const ModelOutcome &outcome)
{
    if (m_state != RunnerState::AwaitingModel)
        return;
    endStreamCheck();
    if (m_stopping) {
        // stop() cancelled the request: the attempt went out and is part of the record.
        for (AttemptRecord attempt : outcome.attempts) {
            attempt.index = m_record.attempts.size();
            attempt.turn = m_turn;
            m_record.attempts.append(attempt);
        }
        return;
    }
    for (AttemptRecord attempt : outcome.attempts) {
        attempt.index = m_record.attempts.size();
        attempt.turn = m_turn;
        m_record.attempts.append(attempt);
    }
    m_attemptsUsed += std::max<int>(1, outcome.attempts.size());
    if (!outcome.cancelled && m_request)
        m_record.exchanges.append(captureExchange(outcome, m_request->messages, m_turn,
                                                  std::max<int>(0, m_record.attempts.size() - 1),
                                                  m_client->engineType() == EngineType::Replay));
    if (outcome.cancelled) {
        finish(CallStatus::Cancelled, ErrorCategory::None, tr("stopped by the user"));
        return;
    }
    if (!outcome.reply) {
        // Nothing of a failed request goes into the conversation.
        ErrorCategory category = outcome.error.category;
        if (category == ErrorCategory::None)
            category = ErrorCategory::Other;
        QString message = outcome.error.message;
        if (outcome.error.httpStatus > 0 && !outcome.error.messageNamesStatus)
            message =
                tr("HTTP %1%2: %3")
                    .arg(outcome.error.httpStatus)
                    .arg(outcome.error.providerType.isEmpty() ? QString()
                                                              : u" "_s + outcome.error.providerType,
                         message);
        finish(CallStatus::Failed, category, message);
        return;
    }
    ModelReply reply = *outcome.reply;
    const bool cut = outcome.cutShort && m_cut;
    if (cut) {
        // Only what arrived is paid for. Providers that count at the end of a stream sent no
        // count: the output tokens are estimated from the text received.
        m_cut->receivedBytes = outcome.rawResponseBytes;
        if (reply.usage.outputTokens <= 0) {
            qint64 characters = characterCount(reply.message.text);
            for (const ToolCall &call : reply.message.toolCalls)
                characters += characterCount(call.rawArguments);
            reply.usage.outputTokens = estimateTokens(characters, m_client->engineType());
            m_cut->tokensEstimated = true;
        }
        m_cut->outputTokens = reply.usage.outputTokens;
        if (!m_record.attempts.isEmpty())
            m_record.attempts.last().usage = reply.usage;
    }
    TurnRecord turn;
    turn.index = m_turn;
    turn.finishReason = reply.finishReason;
    turn.rawFinishReason = reply.rawFinishReason;
    turn.usage = reply.usage;
    turn.toolCalls = reply.message.toolCalls.size();
    turn.requestReport = m_requestReport;
    // The estimate beside what the provider actually counted for this request.
    if (!turn.requestReport.isEmpty() && reply.usage.promptTokens() > 0)
        turn.requestReport.insert(u"provider_input_tokens"_s, reply.usage.promptTokens());
    m_record.turns.append(turn);
    m_record.usage += reply.usage;
    Q_EMIT replyReceived(m_turn, reply, outcome);

    if (breakAt(Breakpoint::AfterReply)) {
        m_pending = PendingItem();
        m_pending.reply = reply;
        pauseAt(Breakpoint::AfterReply, [this, reply, cut] {
            if (cut)
                handleCutReply(reply);
            else
                handleReply(reply);
        });
        return;
    }
    if (cut)
        handleCutReply(reply);
    else
        handleReply(reply);
}

void Runner::handleReply(const ModelReply &reply)
{
    if (m_stopping)
        return;
    ++m_turn;
    const bool refused =
        reply.finishReason == FinishReason::Refusal || !reply.message.refusal.isEmpty();
    if (refused) {
        // No tool runs and no correction: asking again repeats the refusal.
        appendMessage(reply.message);
        QString why = reply.refusalCategory;
        const QString text =
            reply.message.refusal.isEmpty() ? reply.message.text : reply.message.refusal;
        if (!text.isEmpty())
            why = why.isEmpty() ? text : why + u": "_s + text;
        if (why.isEmpty())
            why = tr("the model refused (%1)").arg(reply.rawFinishReason);
        finish(CallStatus::Failed, ErrorCategory::Refusal, why);
        return;
    }
    if (reply.finishReason == FinishReason::Length) {
        handleTruncation(reply);
        return;
    }
    if (reply.finishReason == FinishReason::Pause) {
        // Anthropic pause_turn: send the assistant content back unchanged to continue.
        appendMessage(reply.message);
        beginTurn();
        return;
    }
    if (!reply.message.toolCalls.isEmpty()) {
        handleToolCalls(reply);
        return;
    }
    handleTextReply(reply);
}

void Runner::handleTruncation(const ModelReply &reply)
{
    const int maxTokens = effectiveEngine().maxTokens.value_or(0);
    const bool canReask = m_spec.retry.reask && m_attemptsUsed < m_spec.retry.maxAttempts;
    if (!canReask) {
        appendMessage(reply.message);
        finish(CallStatus::Failed, ErrorCategory::Model,
               maxTokens > 0
                   ? tr("the reply was cut off at the output limit (max_tokens %1)").arg(maxTokens)
                   : tr("the reply was cut off at the output limit"));
        return;
    }
    // Show the model its own fragment as an assistant turn, then the correction as a user turn.
    appendMessage(fragmentOf(reply));
    ++m_reasks;
    m_reaskPending = true;
    sendCorrection(Corrections::truncated(maxTokens), u"reask_truncated"_s);
}

void Runner::handleToolCalls(const ModelReply &reply)
{
    appendMessage(reply.message);
    const QList<ToolCall> calls = reply.message.toolCalls;

    // A submit_output call decides the turn.
    for (const ToolCall &call : calls) {
        if (call.name != submitToolName() || !usesSubmitTool())
            continue;
        setState(RunnerState::Validating);
        auto decide = [this, calls, call](const QStringList &errors) {
            if (errors.isEmpty()) {
                acceptOutput(call.arguments, call.id);
                return;
            }
            Q_EMIT validationFailed(m_turn - 1, errors);
            auto sendBack = [this, calls, errors, call] {
                QList<ToolResult> results;
                for (const ToolCall &other : calls) {
                    if (other.id == call.id) {
                        ToolResult r =
                            errorResult(other,
                                        Corrections::invalidOutput(
                                            errors, m_spec.retry.reask ? schemaText() : QString()));
                        results.append(r);
                    } else {
                        results.append(
                            errorResult(other,
                                        modelText("not run: the output submitted in the same turn "
                                                  "was invalid; fix it first")));
                    }
                }
                appendMessage(Message::toolResultsMessage(results));
                for (const ToolResult &r : results)
                    Q_EMIT toolResultReady(r);
                if (!m_record.turns.isEmpty())
                    m_record.turns.last().note = u"validation_failed"_s;
                Q_EMIT correctionSent(m_turn - 1, results.first().content);
                beginTurn();
            };
            if (breakAt(Breakpoint::OnValidationFailure)) {
                m_pending = PendingItem();
                m_pending.call = call;
                m_pending.validationErrors = errors;
                pauseAt(Breakpoint::OnValidationFailure, sendBack);
                return;
            }
            sendBack();
        };
        if (!call.argumentsError.isEmpty()) {
            decide(
                { modelText("the arguments are not a JSON object: %1").arg(call.argumentsError) });
            return;
        }
        checkOutput([arguments = call.arguments](
                        const OutputValidator &v) { return v.validate(arguments); },
                    std::move(decide));
        return;
    }

    startToolBatch(calls, false, [this] { beginTurn(); });
}

void Runner::handleTextReply(const ModelReply &reply)
{
    const QString text = reply.message.text;
    appendMessage(reply.message);
    if (text.trimmed().isEmpty()) {
        sendCorrection(Corrections::emptyReply(usesSubmitTool()), u"empty_reply"_s);
        return;
    }
    if (outputFromText()) {
        // text_output does not apply: the text itself is the output.
        handleStructuredText(text);
        return;
    }
    if (m_spec.responseSchema) {
        if (!m_spec.textOutputField.isEmpty()) {
            // text_output: the text is the answer, stored as a submit_output call + its result.
            // Handled once the reply's stack has unwound: the conversation then holds the only
            // UTF-16 copy of a long answer and can let it go while the answer is checked.
            const qsizetype index = m_conversation.size() - 1;
            const int turn = m_turn;
            QMetaObject::invokeMethod(
                this, [this, index, turn] { handleTextAnswer(index, turn); }, Qt::QueuedConnection);
            return;
        }
        sendCorrection(Corrections::plainText(text), u"plain_text"_s);
        return;
    }
    if (m_spec.outputParser == u"text") {
        acceptOutput(text, QString());
        return;
    }
    QString parseError;
    const std::optional<QJsonValue> parsed = Corrections::parseJsonAnswer(text, &parseError);
    if (!parsed) {
        sendCorrection(Corrections::notJson(parseError), u"parse_failed"_s);
        return;
    }
    acceptOutput(*parsed, QString());
}

// text_output: the answer is validated as JSON text {field: text}, and the arguments of the
// submit_output call it is stored as are parsed from that same text. Meanwhile the message's
// UTF-16 text is let go (it is given back from the arguments when the answer is refused, and
// Message::fromJson takes it from them when the call is read back): a long answer costs that
// text, the validator's copy and the arguments, never a UTF-16 copy besides.
void Runner::handleTextAnswer(qsizetype index, int turn)
{
    if (m_stopping || m_state == RunnerState::Finished || turn != m_turn
        || index != m_conversation.size() - 1)
        return;
    Message &message = m_conversation[index];
    QByteArray argsJson = Json::objectText(m_spec.textOutputField, message.text);
    const QString kept = message.text.isDetached() ? QString() : message.text;
    message.text = QString();
    checkOutput([argsJson](const OutputValidator &v) { return v.validateJson(argsJson); },
                [this, index, kept, argsJson](const QStringList &errors) mutable {
                    if (index >= m_conversation.size())
                        return;
                    Message &message = m_conversation[index];
                    const QJsonObject args = Json::parseObject(std::exchange(argsJson, {}));
                    if (!errors.isEmpty()) {
                        message.text = kept.isNull() ? args.constBegin().value().toString() : kept;
                        sendCorrection(Corrections::plainText(message.text), u"plain_text"_s);
                        return;
                    }
                    ToolCall call;
                    call.id = u"text_output_"_s + QString::number(m_turn - 1);
                    call.name = submitToolName();
                    // No rawArguments: the arguments are ours, not the model's text, and codecs
                    // serialize them when needed; a raw copy would store the answer once more.
                    call.arguments = args;
                    message.text = kept.isNull() ? QString() : kept;
                    message.toolCalls.append(call);
                    message.providerData.insert(u"callscope_text_answer"_s, true);
                    m_textAnswerMessage = index;
                    m_record.metadata.insert(u"text_answer"_s, true);
                    acceptOutput(args, call.id);
                });
}

// Native and prompted modes: the reply text is the output. It is parsed, then validated against
// the spec's own schema (not the one sent); a failure goes back as a user turn.
void Runner::handleStructuredText(const QString &text)
{
    setState(RunnerState::Validating);
    const bool native = m_spec.outputMode == OutputMode::Native;
    QString parseError;
    const std::optional<QJsonValue> parsed = native
        ? Corrections::parseJsonAnswer(text, &parseError)
        : Corrections::extractJsonAnswer(text, &parseError);
    QStringList errors;
    QString correction;
    QString note;
    QJsonValue output;
    if (!parsed) {
        errors.append(modelText("(root): not valid JSON: %1").arg(parseError));
        correction = Corrections::notJsonForSchema(parseError, schemaText());
        note = u"parse_failed"_s;
    } else {
        output = m_sentSchema ? normalizeNativeOutput(*parsed, *m_sentSchema) : *parsed;
        checkOutput([output](const OutputValidator &v) { return v.validate(output); },
                    [this, output](const QStringList &errors) {
                        if (errors.isEmpty()) {
                            // The stored transcript says which mode produced this answer.
                            m_conversation.last().providerData.insert(
                                u"callscope_output_mode"_s, outputModeName(m_spec.outputMode));
                            acceptOutput(output, QString());
                            return;
                        }
                        structuredTextRefused(errors,
                                              Corrections::invalidTextOutput(errors, schemaText()),
                                              u"validation_failed"_s);
                    });
        return;
    }
    structuredTextRefused(errors, correction, note);
}

void Runner::structuredTextRefused(const QStringList &errors, const QString &correction,
                                   const QString &note)
{
    Q_EMIT validationFailed(m_turn - 1, errors);
    auto sendBack = [this, correction, note] {
        sendCorrection(correction, note);
    };
    if (breakAt(Breakpoint::OnValidationFailure)) {
        m_pending = PendingItem();
        m_pending.validationErrors = errors;
        pauseAt(Breakpoint::OnValidationFailure, sendBack);
        return;
    }
    sendBack();
}

void Runner::checkOutput(std::function<QStringList(const OutputValidator &)> check,
                         std::function<void(const QStringList &)> then)
{
    // On a worker thread: a large answer (or an expensive schema, up to the validator's budget)
    // never stalls the thread the runner lives on, the studio's GUI thread included. The
    // compiled schema is immutable and may be used from any thread.
    const std::shared_ptr<const OutputValidator> validator = m_validator;
    const int turn = m_turn;
    auto promise = std::make_shared<QPromise<QStringList>>();
    auto *watcher = new QFutureWatcher<QStringList>(this);
    connect(watcher, &QFutureWatcherBase::finished, this,
            [this, watcher, turn, then = std::move(then)] {
                watcher->deleteLater();
                if (m_stopping || m_state == RunnerState::Finished || turn != m_turn
                    || watcher->future().resultCount() == 0)
                    return;
                then(watcher->future().result());
            });
    watcher->setFuture(promise->future());
    promise->start();
    QThreadPool::globalInstance()->start([promise, validator, check = std::move(check)] {
        promise->addResult(check(*validator));
        promise->finish();
    });
}

void Runner::acceptOutput(const QJsonValue &parsed, const QString &acceptedCallId)
{
    if (!acceptedCallId.isEmpty()) {
        // Pair every call of the final turn with a result so the stored transcript can be
        // replayed or revised on any engine.
        QList<ToolResult> results;
        for (const ToolCall &call : m_conversation.last().toolCalls) {
            ToolResult r;
            r.callId = call.id;
            r.name = call.name;
            if (call.id == acceptedCallId) {
                r.content = modelText("Output accepted.");
            } else {
                r.content = modelText("not run: the call ended with the submitted output");
                r.isError = true;
            }
            results.append(r);
        }
        appendMessage(Message::toolResultsMessage(results));
    }
    m_record.response = parsed;
    finish(CallStatus::Completed);
}

void Runner::sendCorrection(const QString &text, const QString &note)
{
    Message correction = Message::user(text);
    correction.providerData.insert(u"callscope_correction"_s, note);
    appendMessage(correction);
    if (!m_record.turns.isEmpty())
        m_record.turns.last().note = note;
    Q_EMIT correctionSent(m_turn - 1, text);
    beginTurn();
}

QString Runner::schemaText() const
{
    if (!m_spec.responseSchema)
        return {};
    return QString::fromUtf8(QJsonDocument(*m_spec.responseSchema).toJson(QJsonDocument::Indented));
}

// ---------------------------------------------------------------------------------------------
// Tools

Toolkit *Runner::toolkitFor(const QString &name) const
{
    return m_tools ? m_tools->toolkitFor(name) : nullptr;
}

ToolResult Runner::errorResult(const ToolCall &call, const QString &text) const
{
    ToolResult r;
    r.callId = call.id;
    r.name = call.name;
    r.content = text;
    r.isError = true;
    return r;
}

void Runner::startToolBatch(const QList<ToolCall> &calls, bool preSeed, std::function<void()> done)
{
    m_slots.clear();
    for (const ToolCall &call : calls) {
        ToolSlot slot;
        slot.call = call;
        m_slots.append(slot);
    }
    m_batchIsPreSeed = preSeed;
    m_batchDone = std::move(done);
    m_decideIndex = 0;
    m_jobsRunning = 0;
    decideNextTool();
}

// Settles each call in order: unknown tools, bad arguments, breakpoints, approvals and
// manual results. Approved calls then run together.
void Runner::decideNextTool()
{
    while (!m_stopping && m_decideIndex < m_slots.size()) {
        ToolSlot &slot = m_slots[m_decideIndex];
        const ToolCall &call = slot.call;
        const ToolSpec *tool = m_spec.tool(call.name);
        const bool manual = tool && tool->runner == ToolRunnerKind::Manual;

        if (slot.decided) {
            ++m_decideIndex;
            continue;
        }
        if (call.name == submitToolName() && usesSubmitTool()) {
            slot.result =
                errorResult(call, modelText("submit_output was not accepted in this turn"));
            slot.decided = true;
            continue;
        }
        if (!manual && !toolkitFor(call.name)) {
            slot.result = errorResult(call,
                                      modelText("unknown tool \"%1\"; the available tools are: %2")
                                          .arg(call.name, [this] {
                                              QStringList names;
                                              for (const ToolDeclaration &d : declarations())
                                                  names.append(d.name);
                                              return names.join(u", "_s);
                                          }()));
            slot.decided = true;
            continue;
        }
        if (!call.argumentsError.isEmpty()) {
            slot.result = errorResult(
                call,
                modelText("the arguments are not a JSON object: %1").arg(call.argumentsError));
            slot.decided = true;
            continue;
        }
        if (!m_batchIsPreSeed) {
            // A breakpoint first (the person may edit the arguments), then the approval.
            if (breakAt(Breakpoint::BeforeTool) && !slot.breakpointSeen) {
                slot.breakpointSeen = true;
                m_pending = PendingItem();
                m_pending.call = call;
                Q_EMIT toolCallPending(call);
                pauseAt(Breakpoint::BeforeTool, [this] { decideNextTool(); });
                return;
            }
            if (!breakAt(Breakpoint::BeforeTool))
                Q_EMIT toolCallPending(call);
            if (manual) {
                // The person typing the result is the approval.
                m_pending = PendingItem();
                m_pending.call = call;
                if (!m_options.attended) {
                    slot.result =
                        errorResult(call,
                                    modelText("the tool \"%1\" needs a person to type its "
                                              "result and this run is unattended")
                                        .arg(call.name));
                    slot.decided = true;
                    continue;
                }
                setState(RunnerState::AwaitingManual);
                Q_EMIT manualResultNeeded(call);
                return; // provideManualResult() continues
            }
        } else if (manual) {
            slot.result = errorResult(call, modelText("a manual tool cannot be pre-seeded"));
            slot.decided = true;
            continue;
        }
        {
            // A pre-seeded call of a tool that needs approval asks like any other call of it.
            // The spec entry's requires_approval decides when it is given; otherwise the
            // toolkit's default (an MCP server's annotations and approval policy).
            bool wanted = tool && tool->requiresApproval;
            if (!tool || !tool->approvalGiven) {
                const Toolkit *toolkit = m_tools ? m_tools->toolkitFor(call.name) : nullptr;
                wanted = wanted || (toolkit && toolkit->needsApproval(call.name));
            }
            const bool needsApproval = wanted && !m_alwaysAllowed.contains(call.name)
                && !m_options.allowedTools.contains(call.name);
            if (wanted && !needsApproval)
                recordApproval(slot, u"allowed"_s);
            if (needsApproval) {
                if (!m_options.attended) {
                    recordApproval(slot, u"unattended"_s);
                    slot.result = errorResult(call,
                                              modelText("refused: the tool \"%1\" needs a person's "
                                                        "approval and this run is unattended")
                                                  .arg(call.name));
                    slot.decided = true;
                    continue;
                }
                m_pending = PendingItem();
                m_pending.call = call;
                slot.asked.start();
                setState(RunnerState::AwaitingApproval);
                Q_EMIT approvalNeeded(call);
                return; // approve() / refuse() continue
            }
        }
        slot.decided = true;
    }
    if (!m_stopping)
        runDecidedTools();
}

void Runner::editPendingArguments(const QString &callId, const QJsonObject &arguments)
{
    for (ToolSlot &slot : m_slots) {
        if (slot.call.id == callId && !slot.job && !slot.result) {
            if (arguments == slot.call.arguments && slot.call.argumentsError.isEmpty())
                continue;
            applyEditedArguments(slot.call, arguments);
            m_pending.call = slot.call;
            // The conversation shows what actually ran.
            for (Message &m : m_conversation) {
                for (ToolCall &c : m.toolCalls) {
                    if (c.id == callId)
                        c = slot.call;
                }
            }
        }
    }
}

void applyEditedArguments(ToolCall &call, const QJsonObject &arguments)
{
    if (!argumentsEdited(call)) {
        call.providerData.insert(kEditedKey,
                                 QJsonObject { { u"model_arguments"_s, call.arguments },
                                               { u"model_raw_arguments"_s, call.rawArguments } });
    }
    call.arguments = arguments;
    call.rawArguments = QString::fromUtf8(QJsonDocument(arguments).toJson(QJsonDocument::Compact));
    call.argumentsError.clear();
}

void Runner::editPendingResult(const QString &callId, const ToolResult &result)
{
    for (ToolSlot &slot : m_slots) {
        if (slot.call.id == callId && slot.result) {
            if (result.content == slot.result->content && result.isError == slot.result->isError)
                continue;
            ToolResult edited = *slot.result;
            edited.images = result.images;
            applyEditedResult(edited, result.content, result.isError);
            slot.result = edited;
            m_pending.result = edited;
        }
    }
}

void applyEditedResult(ToolResult &result, const QString &content, bool isError)
{
    if (!result.toolOriginal)
        result.toolOriginal = ToolOriginal { result.content, result.isError };
    result.content = content;
    result.isError = isError;
    if (result.toolOriginal->content == content && result.toolOriginal->isError == isError)
        result.toolOriginal.reset();
}

void Runner::approve(const QString &callId, const std::optional<QJsonObject> &editedArguments)
{
    if (m_state != RunnerState::AwaitingApproval || m_decideIndex >= m_slots.size()
        || m_slots.at(m_decideIndex).call.id != callId)
        return;
    QStringList changed;
    if (editedArguments) {
        const QJsonObject &before = m_slots.at(m_decideIndex).call.arguments;
        for (auto it = editedArguments->begin(); it != editedArguments->end(); ++it) {
            if (before.value(it.key()) != it.value())
                changed.append(it.key());
        }
        for (auto it = before.begin(); it != before.end(); ++it) {
            if (!editedArguments->contains(it.key()))
                changed.append(it.key());
        }
        editPendingArguments(callId, *editedArguments);
    }
    recordApproval(m_slots.at(m_decideIndex), u"approved"_s, changed);
    m_slots[m_decideIndex].decided = true;
    ++m_decideIndex;
    setState(RunnerState::RunningTools);
    decideNextTool();
}

void Runner::refuse(const QString &callId, const QString &reason)
{
    if (m_state != RunnerState::AwaitingApproval || m_decideIndex >= m_slots.size()
        || m_slots.at(m_decideIndex).call.id != callId)
        return;
    ToolSlot &slot = m_slots[m_decideIndex];
    recordApproval(slot, u"refused"_s);
    slot.result = errorResult(slot.call,
                              reason.isEmpty() ? modelText("refused by the user")
                                               : modelText("refused by the user: %1").arg(reason));
    slot.decided = true;
    ++m_decideIndex;
    setState(RunnerState::RunningTools);
    decideNextTool();
}

void Runner::recordApproval(const ToolSlot &slot, const QString &decision,
                            const QStringList &editedArguments)
{
    QJsonObject entry { { u"call_id"_s, slot.call.id },
                        { u"tool"_s, slot.call.name },
                        { u"decision"_s, decision },
                        { u"turn"_s, m_turn } };
    if (slot.asked.isValid())
        entry.insert(u"waited_ms"_s, slot.asked.elapsed());
    if (!editedArguments.isEmpty())
        entry.insert(u"edited_arguments"_s, QJsonArray::fromStringList(editedArguments));
    QJsonArray approvals = m_record.metadata.value(u"approvals"_s).toArray();
    approvals.append(entry);
    m_record.metadata.insert(u"approvals"_s, approvals);
}

void Runner::alwaysAllow(const QString &toolName)
{
    m_alwaysAllowed.insert(toolName);
}

void Runner::provideManualResult(const QString &callId, const QString &content, bool isError)
{
    if (m_state != RunnerState::AwaitingManual || m_decideIndex >= m_slots.size()
        || m_slots.at(m_decideIndex).call.id != callId)
        return;
    ToolSlot &slot = m_slots[m_decideIndex];
    ToolResult r;
    r.callId = callId;
    r.name = slot.call.name;
    r.content = content;
    r.isError = isError;
    slot.result = r;
    slot.decided = true;
    ++m_decideIndex;
    setState(RunnerState::RunningTools);
    decideNextTool();
}

void Runner::runDecidedTools()
{
    setState(RunnerState::RunningTools);
    m_jobsRunning = 0;
    QList<ToolJob *> toStart;
    for (ToolSlot &slot : m_slots) {
        if (slot.result)
            continue;
        Toolkit *toolkit = toolkitFor(slot.call.name);
        if (!toolkit) {
            slot.result =
                errorResult(slot.call, modelText("unknown tool \"%1\"").arg(slot.call.name));
            continue;
        }
        ToolJob *job = toolkit->createJob(slot.call, this);
        if (!job) {
            slot.result = errorResult(
                slot.call, modelText("the tool \"%1\" could not be started").arg(slot.call.name));
            continue;
        }
        slot.job = job;
        const QString callId = slot.call.id;
        connect(job, &ToolJob::finished, this, [this, callId, job](const ToolResult &result) {
            job->deleteLater();
            onToolJobFinished(callId, result);
        });
        ++m_jobsRunning;
        toStart.append(job);
    }
    if (toStart.isEmpty()) {
        finishToolBatch();
        return;
    }
    // Parallel calls of one turn run concurrently.
    for (ToolJob *job : toStart)
        job->start();
}

void Runner::onToolJobFinished(const QString &callId, const ToolResult &result)
{
    if (m_stopping)
        return;
    for (ToolSlot &slot : m_slots) {
        if (slot.call.id == callId) {
            ToolResult r = result;
            r.callId = callId;
            if (r.name.isEmpty())
                r.name = slot.call.name;
            slot.result = r;
            slot.job = nullptr;
        }
    }
    if (--m_jobsRunning == 0)
        finishToolBatch();
}

void Runner::finishToolBatch()
{
    deliverResult(0);
}

// Results go back in the order of the calls, each paired by id; a breakpoint after each result
// lets the person edit it before the model sees it.
void Runner::deliverResult(int index)
{
    if (m_stopping)
        return;
    if (index < m_slots.size()) {
        const ToolResult result = *m_slots.at(index).result;
        Q_EMIT toolResultReady(result);
        if (!m_batchIsPreSeed && breakAt(Breakpoint::AfterToolResult)) {
            m_pending = PendingItem();
            m_pending.call = m_slots.at(index).call;
            m_pending.result = result;
            pauseAt(Breakpoint::AfterToolResult, [this, index] { deliverResult(index + 1); });
            return;
        }
        deliverResult(index + 1);
        return;
    }
    QList<ToolResult> results;
    for (const ToolSlot &slot : std::as_const(m_slots))
        results.append(*slot.result);
    Message message = Message::toolResultsMessage(results);
    if (m_batchIsPreSeed)
        message.providerData.insert(kSyntheticKey, true);
    m_slots.clear();
    appendMessage(message);
    auto done = std::move(m_batchDone);
    m_batchDone = nullptr;
    if (done)
        done();
}

// ---------------------------------------------------------------------------------------------
// The record

void Runner::appendMessage(const Message &message)
{
    m_conversation.append(message);
}

void Runner::finish(CallStatus status, ErrorCategory category, const QString &error)
{
    if (m_state == RunnerState::Finished)
        return;
    if (m_client)
        m_client->disconnect(this);
    m_record.status = status;
    m_record.errorCategory = category;
    m_record.error = error;
    m_record.finishedAt = QDateTime::currentDateTimeUtc();
    completeFinish();
}

void Runner::completeFinish()
{
    // An accepted text answer is in the output (and in its call's arguments, which share it):
    // the conversation holds no UTF-16 copy of it (handleTextAnswer let it go unless another
    // copy holds it anyway). The stored message leaves its text out (Message::toJson), and
    // Message::fromJson takes it back from the call.
    const bool textAnswer = m_record.status == CallStatus::Completed && m_textAnswerMessage >= 0
        && m_textAnswerMessage < m_conversation.size();
    QString answerText; // set when another copy holds the text anyway
    if (textAnswer) {
        QString &text = m_conversation[m_textAnswerMessage].text;
        if (!text.isDetached())
            answerText = text;
        text = QString();
    }

    QList<Message> stored;
    if (m_options.includePriorInRecord)
        stored = m_options.priorMessages;
    const qsizetype answerIndex = stored.size() + m_textAnswerMessage;
    stored.append(m_conversation);
    for (Message &m : stored)
        m = m.withoutAttachmentBytes();
    m_record.messages = messagesToJson(stored);
    if (m_client) {
        // The native transcript is what the provider saw and said: the submit_output call made
        // from a text answer is ours, so it is left out (it would also store the answer twice).
        for (Message &m : stored)
            m = m.withoutTextAnswerCall();
        const QString system = requestSystemPrompt();
        if (textAnswer && answerText.isNull() && m_record.response.toObject().size() == 1) {
            // Made with a stand-in for the answer, then given the answer from the output's
            // own bytes: no UTF-16 copy of it is made again.
            const QString standIn = u"\uFDD0callscope text answer\uFDD1"_s;
            stored[answerIndex].text = standIn;
            const QJsonArray native = m_client->toNative(system, stored);
            if (auto withAnswer =
                    Json::replaceString(native, standIn, m_record.response.toObject())) {
                m_record.transcript = *withAnswer;
            } else {
                stored[answerIndex].text =
                    m_record.response.toObject().constBegin().value().toString();
                m_record.transcript = m_client->toNative(system, stored);
            }
        } else {
            if (textAnswer)
                stored[answerIndex].text = answerText; // still held elsewhere: use it
            m_record.transcript = m_client->toNative(system, stored);
        }
    }
    m_record.metadata.insert(u"turns"_s, m_turn);
    m_record.metadata.insert(u"attempts"_s, m_record.attempts.size());
    m_record.metadata.insert(u"duration_ms"_s, m_clock.isValid() ? m_clock.elapsed() : 0);
    setState(RunnerState::Finished);
    qCDebug(lcRunner) << "call finished" << callStatusName(m_record.status)
                      << errorCategoryName(m_record.errorCategory) << m_record.error;
    Q_EMIT finished(m_record);
}

} // namespace Callscope
