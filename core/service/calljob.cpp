#include "core/service/calljob.h"

#include "core/context/compactionplan.h"
#include "core/context/contextbudget.h"
#include "core/model/specio.h"
#include "core/service/scheduler.h"
#include "core/store/callstore.h"
#include "core/store/storewriter.h"
#include "core/tools/toolregistry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QTimer>

using namespace Qt::StringLiterals;

Q_LOGGING_CATEGORY(lcService, "callscope.service")

namespace Callscope {

namespace {

QString outputAsText(const QJsonValue &value)
{
    if (value.isString())
        return value.toString();
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Indented))
            .trimmed();
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Indented))
            .trimmed();
    const QByteArray wrapped = QJsonDocument(QJsonArray { value }).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(wrapped.mid(1, wrapped.size() - 2));
}

// The text the summary call reads: the previous summary, then the folded messages.
QString transcriptForSummary(const QString &previousSummary, const QList<Message> &messages)
{
    QString text;
    if (!previousSummary.isEmpty())
        text += u"Summary so far:\n"_s + previousSummary + u"\n\nLater messages:\n"_s;
    for (const Message &m : messages) {
        QString line = roleName(m.role) + u": "_s;
        if (!m.text.isEmpty())
            line += m.text;
        for (const ToolCall &c : m.toolCalls)
            line += u" [calls "_s + c.name + u' ' + c.rawArguments + u']';
        for (const ToolResult &r : m.toolResults)
            line += u" [result of "_s + r.name + (r.isError ? u" (error)"_s : QString()) + u": "_s
                + r.content + u']';
        if (!m.refusal.isEmpty())
            line += u" [refused: "_s + m.refusal + u']';
        text += line + u'\n';
    }
    return text;
}

// The summary call's spec (model-facing text: not translated).
Spec summarySpec(const Spec &engineFrom)
{
    Spec spec;
    spec.kind = u"compaction"_s;
    spec.systemPrompt =
        u"You compress conversations. Summarise the conversation you are given so that "
        u"it can replace it: keep decisions, facts, numbers, names, open questions and "
        u"what tools returned that still matters; drop pleasantries and repetition. "
        u"Write plain prose of at most 300 words."_s;
    spec.responseSchema = QJsonObject {
        { u"type"_s, u"object"_s },
        { u"properties"_s,
          QJsonObject { { u"summary"_s,
                          QJsonObject { { u"type"_s, u"string"_s }, { u"minLength"_s, 1 } } } } },
        { u"required"_s, QJsonArray { u"summary"_s } },
        { u"additionalProperties"_s, false }
    };
    spec.textOutputField = u"summary"_s;
    spec.maxTurns = 3;
    spec.engine = engineFrom.engine;
    spec.sourcePath = engineFrom.sourcePath;
    return spec;
}

} // namespace

CallJob::CallJob(CallService *service, Kind kind, const LaunchRequest &request, quint64 id)
    : QObject(service)
    , m_service(service)
    , m_id(id)
    , m_kind(kind)
    , m_request(request)
{ }

CallJob::~CallJob()
{
    releaseSlot();
    if (m_runner)
        m_runner->disconnect(this);
}

QString CallJob::title() const
{
    const EngineSpec &engine = m_request.spec.engine;
    const QString where = engine.profile.isEmpty()
        ? (engineTypeName(engine.type) + (engine.model.isEmpty() ? QString() : u' ' + engine.model))
        : engine.profile;
    switch (m_kind) {
    case Kind::Revision:
        return tr("revision of call %1 on %2").arg(m_request.reviseOf.value_or(0)).arg(where);
    case Kind::Rerun:
        return tr("call %1 again on %2").arg(m_request.rerunOf, where);
    case Kind::SessionTurn:
        return tr("session %1 turn on %2").arg(m_request.sessionId.value_or(0)).arg(where);
    case Kind::Compaction:
        return tr("summary of session %1 on %2").arg(m_request.sessionId.value_or(0)).arg(where);
    case Kind::Run:
        break;
    }
    const QString kind = m_request.spec.kind.isEmpty() ? tr("call") : m_request.spec.kind;
    return tr("%1 on %2").arg(kind, where);
}

void CallJob::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    Q_EMIT stateChanged(state);
}

CallRecord CallJob::baseRecord() const
{
    CallRecord record;
    record.kind = m_request.spec.kind;
    record.engineType = engineTypeName(m_request.spec.engine.type);
    record.model = m_request.spec.engine.model;
    record.createdAt = QDateTime::currentDateTimeUtc();
    record.finishedAt = record.createdAt;
    record.input = QJsonObject { { u"text"_s, m_request.input.text } };
    record.systemPrompt = m_request.spec.systemPrompt;
    record.spec = CallStore::stripSecrets(specToJson(m_request.spec));
    record.session = m_request.sessionId;
    if (m_request.reviseOf)
        record.parent = m_request.reviseOf;
    else if (m_request.options.parent)
        record.parent = m_request.options.parent;
    record.metadata = m_request.options.metadata;
    return record;
}

// ---------------------------------------------------------------------------------------------
// 1. Resolve: the one check (profile, key redirect, trust, engine, tools)

void CallJob::start()
{
    if (!m_checked) {
        LaunchCheck checked = m_service->check(m_request);
        m_request = std::move(checked.request); // the profile merged in, when there is one
        if (!checked.ok()) {
            // A missing profile or an engine that cannot answer takes no place in the queue.
            QTimer::singleShot(0, this, [this, category = checked.category, why = checked.message] {
                fail(category, why);
            });
            return;
        }
        m_checked = true;
    }
    schedule();
}

// ---------------------------------------------------------------------------------------------
// 2. Schedule: a place under the global and per-engine limits

void CallJob::schedule()
{
    m_engineKey = Callscope::engineKey(m_request.spec.engine);
    setState(State::Queued);
    if (m_request.unscheduled) {
        QTimer::singleShot(0, this, [this] { begin(); });
        return;
    }
    m_slot = m_service->scheduler()->enqueue(m_engineKey, [this] { begin(); });
}

void CallJob::releaseSlot()
{
    if (m_slot && m_service)
        m_service->scheduler()->release(*m_slot);
    m_slot.reset();
}

// ---------------------------------------------------------------------------------------------
// 3. Start: the session's turn, a compaction first when asked for, the conversation so far

void CallJob::begin()
{
    if (m_finishEmitted)
        return;
    m_clock.start();
    setState(State::Starting);
    if (m_cancelRequested) {
        finishCancelledBeforeStart();
        return;
    }
    CallStore *store = m_service ? m_service->store() : nullptr;
    if (m_compactionTask) {
        if (!store) {
            m_compaction = { false, tr("compaction needs the history database"), 0 };
            Q_EMIT compactionFinished(m_compactionTask->sessionId, false, m_compaction.message, 0);
            fail(ErrorCategory::Other, m_compaction.message);
            return;
        }
        // A compaction job of its own waits for the session like a turn; one inside a turn
        // runs under its turn's claim.
        m_request.sessionId = m_compactionTask->sessionId;
        if (m_underTurn)
            planCompaction();
        else
            withSession([this] { planCompaction(); });
        return;
    }
    if (!m_request.sessionId) {
        loadConversation();
        return;
    }
    if (!store) {
        fail(ErrorCategory::Other, tr("sessions need the history database"));
        return;
    }
    // One call at a time per session: each turn must see the one before it.
    withSession([this] { prepareTurn(); });
}

void CallJob::withSession(std::function<void()> next)
{
    const qint64 session = *m_request.sessionId;
    m_waitingForSession = true;
    m_service->claimSession(session, this, [this, session, next = std::move(next)] {
        m_waitingForSession = false;
        m_holdsSession = true;
        m_claimedSession = session;
        if (m_finishEmitted) {
            // Ended while it waited (cancelled): pass the turn on at once.
            m_holdsSession = false;
            m_service->releaseSession(session, this);
            return;
        }
        if (m_cancelRequested) {
            finishCancelledBeforeStart();
            return;
        }
        next();
    });
}

void CallJob::prepareTurn()
{
    // A session turn may first fold old messages into a summary (by policy), when the last
    // request's prompt and output passed the limit. The last call is read in the writer's
    // queue, after the turns stored before this one, and off the GUI thread.
    if (!m_request.compaction || m_request.compaction->maxContextTokens <= 0) {
        loadConversation();
        return;
    }
    const qint64 sessionId = *m_request.sessionId;
    const qint64 limit = m_request.compaction->maxContextTokens;
    runOnStore<bool>(
        m_service->writer(), m_service->store(), this,
        [sessionId, limit](CallStore &from) {
            auto calls = from.sessionCalls(sessionId);
            if (!calls || calls.value().isEmpty())
                return false;
            auto last = from.getCall(calls.value().last().id);
            if (!last || last.value().turns.isEmpty())
                return false;
            const Usage &u = last.value().turns.last().usage;
            return compactionNeeded(u.promptTokens(), u.outputTokens, limit);
        },
        [this](const bool *needed, const QString &) {
            if (m_finishEmitted)
                return;
            if (m_cancelRequested) {
                finishCancelledBeforeStart();
                return;
            }
            if (needed && *needed)
                compactFirst();
            else
                loadConversation();
        });
}

void CallJob::compactFirst()
{
    // The compaction is a job of its own, run before this one: it holds no place of its own
    // (this job has it; the summary's requests still pass the lane) and runs under this turn's
    // claim on the session. A failed summary lets the turn go ahead uncompacted.
    const qint64 sessionId = *m_request.sessionId;
    LaunchRequest request;
    request.spec.kind = u"compaction"_s;
    request.spec.engine = m_request.spec.engine; // checked with this turn
    request.spec.sourcePath = m_request.spec.sourcePath;
    request.sessionId = sessionId;
    auto *child = new CallJob(m_service, Kind::Compaction, request, 0);
    child->setParent(this);
    child->m_compactionTask =
        CompactionTask { sessionId, m_request.compaction->keepRecent, m_request.spec };
    child->m_checked = true;
    child->m_underTurn = true;
    child->m_engineKey = m_engineKey;
    m_child = child;
    connect(child, &CallJob::finished, this, [this, child, sessionId](const LaunchResult &) {
        const CompactionOutcome outcome = child->compaction();
        child->deleteLater();
        m_child = nullptr;
        Q_EMIT compactionFinished(sessionId, outcome.ok, outcome.message, outcome.callId);
        if (m_cancelRequested) {
            finishCancelledBeforeStart();
            return;
        }
        loadConversation();
    });
    child->begin();
}

namespace {

// Why a session read through runOnStore() gave nothing usable, or empty when it did: the
// store's own reason, the writer's (the database could not be opened), or a plain one.
template<typename Read> QString sessionReadFailure(const Read *read, const QString &error)
{
    if (read && read->error.isEmpty())
        return {};
    const QString why = read ? read->error : error;
    return why.isEmpty() ? CallJob::tr("the session cannot be read") : why;
}

} // namespace

void CallJob::planCompaction()
{
    // What folds: only what the model still sees (not yet compacted, not output copies), but
    // the newest keepRecent messages. The summary call is this job's call. The session is read
    // in the writer's queue, off the GUI thread.
    const qint64 sessionId = m_compactionTask->sessionId;
    struct Read
    {
        QString error;
        QList<SessionMessage> messages;
        Session session;
    };
    runOnStore<Read>(
        m_service->writer(), m_service->store(), this,
        [sessionId](CallStore &from) {
            Read out;
            auto stored = from.sessionMessages(sessionId, CallStore::MessageView::All);
            auto session = from.getSession(sessionId);
            if (!stored || !session) {
                out.error = !stored ? stored.error().message : session.error().message;
                return out;
            }
            out.messages = stored.value();
            out.session = session.value();
            return out;
        },
        [this, sessionId](const Read *read, const QString &error) {
            if (m_finishEmitted)
                return;
            if (const QString message = sessionReadFailure(read, error); !message.isEmpty()) {
                m_compaction = { false, message, 0 };
                Q_EMIT compactionFinished(sessionId, false, message, 0);
                fail(ErrorCategory::Other, message);
                return;
            }
            foldSession(read->messages, read->session);
        });
}

void CallJob::foldSession(const QList<SessionMessage> &stored, const Session &session)
{
    const qint64 sessionId = m_compactionTask->sessionId;
    QList<SessionMessage> candidates;
    for (const SessionMessage &m : stored) {
        if (m.sendToModel && !m.compactedBy)
            candidates.append(m);
    }
    QList<Message> plain;
    for (const SessionMessage &m : std::as_const(candidates))
        plain.append(m.message);
    const CompactionPlan plan = Callscope::planCompaction(plain, m_compactionTask->keepRecent);
    if (plan.isEmpty()) {
        m_compaction = { true,
                         tr("nothing to fold: the session holds %n message(s) the model sees",
                            nullptr, int(plain.size())),
                         0 };
        Q_EMIT compactionFinished(sessionId, true, m_compaction.message, 0);
        LaunchResult result;
        result.record = baseRecord();
        result.record.status = CallStatus::Completed;
        emitFinished(result);
        return;
    }
    const qint64 first = candidates.first().sequence;
    const qint64 last = candidates.at(plan.foldCount - 1).sequence;
    Spec engineFrom = m_compactionTask->engineFrom;
    engineFrom.engine = m_request.spec.engine; // as checked: the profile merged in
    m_request.spec = summarySpec(engineFrom);
    m_request.sessionId.reset(); // the summary call itself does not run inside the session
    m_request.input.text = transcriptForSummary(session.summary, plain.mid(0, plan.foldCount));
    m_request.options.metadata =
        QJsonObject { { u"session"_s, sessionId },
                      { u"compacts_sequences"_s, QJsonArray { first, last } } };
    loadConversation();
}

void CallJob::loadConversation()
{
    if (m_cancelRequested) {
        finishCancelledBeforeStart();
        return;
    }
    if (!m_request.sessionId) {
        if (!m_request.options.priorMessages.isEmpty())
            m_prior = m_request.options.priorMessages;
        connectEngine();
        return;
    }
    // The conversation so far, read in the writer's queue: after the turn before this one was
    // stored, and off the GUI thread.
    const qint64 sessionId = *m_request.sessionId;
    struct Read
    {
        QString error;
        QList<Message> messages;
        QString systemPrompt;
    };
    runOnStore<Read>(
        m_service->writer(), m_service->store(), this,
        [sessionId](CallStore &from) {
            Read out;
            auto session = from.getSession(sessionId);
            if (!session) {
                out.error = session.error().message;
                return out;
            }
            auto messages = from.modelMessages(sessionId);
            if (!messages) {
                out.error = messages.error().message;
                return out;
            }
            out.messages = messages.value();
            out.systemPrompt = session.value().systemPrompt;
            return out;
        },
        [this](const Read *read, const QString &error) {
            if (m_finishEmitted)
                return;
            if (m_cancelRequested) {
                finishCancelledBeforeStart();
                return;
            }
            if (const QString message = sessionReadFailure(read, error); !message.isEmpty()) {
                fail(ErrorCategory::Other, message);
                return;
            }
            m_prior = read->messages;
            m_request.options.extraSystemPrompt = read->systemPrompt;
            connectEngine();
        });
}

void CallJob::connectEngine()
{
    // A call that asks for Gemini's explicit cache on its own (not part of a batch or an
    // experiment that shares one) makes its entry and deletes it when it ends.
    const EngineSpec &engine = m_request.spec.engine;
    if (!m_request.contentCache && engine.type == EngineType::Gemini && engine.cache
        && engine.cache->explicitCache) {
        m_ownCache = new GeminiContentCache(this);
        m_request.contentCache = m_ownCache;
    }
    m_service->m_resolver.connect(m_request, m_engineKey, this,
                                  [this](const ConnectedClient &connected) {
                                      m_network = connected.network;
                                      m_networkKey = connected.networkKey;
                                      if (m_cancelRequested) {
                                          if (connected.client)
                                              connected.client->deleteLater();
                                          finishCancelledBeforeStart();
                                          return;
                                      }
                                      if (!connected.client) {
                                          fail(connected.category, connected.error);
                                          return;
                                      }
                                      runLoop(connected.client);
                                  });
}

// ---------------------------------------------------------------------------------------------
// 4. Run the loop

void CallJob::runLoop(ModelClient *client)
{
    m_client = client;
    ToolkitOptions toolOptions;
    if (m_request.options.attended)
        toolOptions.mcpElicitation = m_service->elicitationHandler();
    m_tools = new ToolRegistry(m_request.spec, toolOptions, this);

    RunOptions options = m_request.options;
    options.priorMessages = m_prior;
    options.includePriorInRecord = m_request.reviseOf.has_value() && !m_request.sessionId;
    if (m_request.reviseOf)
        options.parent = m_request.reviseOf;
    const BudgetSettings budget = BudgetSettings::fromSpec(m_request.spec);
    options.budget = [budget,
                      system = m_request.spec.systemPrompt](const QList<Message> &messages) {
        BudgetResult result = applyContextBudget(system, messages, budget);
        return std::make_pair(result.messages, result.report.toJson());
    };
    if (!m_request.spec.sourcePath.isEmpty())
        options.metadata.insert(u"spec_path"_s, m_request.spec.sourcePath);
    if (!m_request.rerunOf.isEmpty())
        options.metadata.insert(u"rerun_of"_s, m_request.rerunOf);
    if (m_request.reviseOf)
        options.metadata.insert(u"revision_of"_s, *m_request.reviseOf);

    m_runner = new Runner(m_request.spec, client, m_tools, this);
    m_runner->setOptions(options);
    connect(m_runner, &Runner::finished, this, &CallJob::onRunnerFinished);
    connect(m_runner, &Runner::paused, this, [this] { Q_EMIT attentionNeeded(this); });
    connect(m_runner, &Runner::approvalNeeded, this, [this] { Q_EMIT attentionNeeded(this); });
    connect(m_runner, &Runner::manualResultNeeded, this, [this] { Q_EMIT attentionNeeded(this); });
    connect(m_runner, &Runner::retryScheduled, this, &CallJob::retryScheduled);
    setState(State::Running);
    Q_EMIT runnerCreated(m_runner);
    m_runner->start(m_request.input);
}

// ---------------------------------------------------------------------------------------------
// 5. Store

void CallJob::onRunnerFinished(const CallRecord &finishedRecord)
{
    // The place stays taken until the call is written (emitFinished): calls waiting for the
    // writer count against the limit, so at most that many are answered and unstored when the
    // store fails for good, and none starts before the runner has heard of the failure.
    CallRecord record = finishedRecord;
    record.spec = CallStore::stripSecrets(specToJson(m_request.spec));
    record.session = m_request.sessionId;
    if (m_compactionTask) {
        storeCompaction(record);
        return;
    }
    QList<SessionMessage> sessionMessages;
    // Only a completed turn joins the session: a failed or cancelled one would leave half a
    // conversation (tool calls without results, replies the call did not accept) that the next
    // turn sends to the model. The call itself is still stored, with its session, in History.
    if (m_service->store() && m_request.sessionId && m_runner
        && record.status == CallStatus::Completed) {
        for (const Message &m : m_runner->conversation()) {
            SessionMessage sm;
            sm.message = m.withoutAttachmentBytes();
            sessionMessages.append(sm);
        }
        // The accepted output as a plain assistant message for chat views and history; never
        // sent back to the model (its history must not teach it plain-text answers).
        if (m_request.spec.responseSchema) {
            SessionMessage copy;
            copy.message = Message::assistant(outputAsText(record.response));
            copy.message.providerData.insert(u"callscope_output_copy"_s, true);
            copy.sendToModel = false;
            sessionMessages.append(copy);
        }
    }
    // The runner, its client (with the last reply's bytes) and the toolkits are done: let them
    // go now, before the record is serialized, so a large reply is not held twice meanwhile.
    cleanUp();
    storeAndFinish(record, sessionMessages);
}

void CallJob::storeCompaction(const CallRecord &record)
{
    // The summary, its range, the marks and the session's summary: one transaction.
    const qint64 sessionId = m_compactionTask->sessionId;
    LaunchResult result;
    result.record = record;
    if (record.status != CallStatus::Completed) {
        m_compaction = { false,
                         tr("the summary call did not complete (%1): %2")
                             .arg(callStatusName(record.status), record.error),
                         0 };
        Q_EMIT compactionFinished(sessionId, false, m_compaction.message, 0);
        emitFinished(result);
        return;
    }
    const QJsonArray range = m_request.options.metadata.value(u"compacts_sequences"_s).toArray();
    const qint64 first = range.at(0).toInteger();
    const qint64 last = range.at(1).toInteger();
    const QString summary = record.response.toObject().value(u"summary"_s).toString();
    auto apply = [this, sessionId, first, last, result](const StoreResult<qint64> &callId) mutable {
        if (!callId) {
            m_compaction = { false, callId.error().message, 0 };
            result.storeError = callId.error().message;
        } else {
            m_compaction = { true,
                             tr("folded messages %1 to %2 into a summary").arg(first).arg(last),
                             callId.value() };
            result.record.id = callId.value();
            result.stored = true;
        }
        Q_EMIT compactionFinished(sessionId, m_compaction.ok, m_compaction.message,
                                  m_compaction.callId);
        emitFinished(result);
    };
    cleanUp();
    m_storing = true;
    // Written in the writer's queue, after the session's turns, off the GUI thread.
    const auto task = [sessionId, record, first, last, summary](CallStore &into) {
        WriteResult written;
        auto compaction = into.recordCompaction(sessionId, record, first, last, summary);
        if (compaction)
            written.id = compaction.value().callId;
        else
            written.id = compaction.error();
        return written;
    };
    if (StoreWriter *writer = m_service->writer()) {
        writer->perform(task, this,
                        [apply](const WriteResult &written) mutable { apply(written.id); });
    } else {
        apply(task(*m_service->store()).id);
    }
}

void CallJob::storeAndFinish(const CallRecord &record, const QList<SessionMessage> &sessionMessages)
{
    if (m_storing || m_finishEmitted)
        return;
    m_storing = true;
    LaunchResult result;
    result.record = record;
    CallStore *store = m_service ? m_service->store() : nullptr;
    if (!store) {
        emitFinished(result);
        return;
    }
    InsertOptions options;
    options.batch = m_request.batch;
    auto apply = [this](LaunchResult out, const StoreResult<qint64> &id, const SequenceSpan &span,
                        bool fatal, bool recovered, bool queued = false) {
        if (id) {
            out.record.id = id.value();
            out.stored = true;
            out.queued = queued;
            if (out.record.session && span.first > 0) {
                out.record.firstSequence = span.first;
                out.record.lastSequence = span.last;
            }
        } else {
            out.storeError = id.error().message;
            out.storeFatal = fatal;
            out.recovered = recovered;
            qCWarning(lcService) << "could not store the call:" << out.storeError;
        }
        emitFinished(out);
    };
    if (StoreWriter *writer = m_service->writer()) {
        writer->insertCall(record, sessionMessages, options, this,
                           [apply, result](const WriteResult &written) {
                               apply(result, written.id, written.span, written.fatal,
                                     written.recovered, written.queued);
                           });
        return;
    }
    SequenceSpan span;
    const auto id = store->insertCall(record, sessionMessages, options, &span);
    apply(result, id, span, false, false);
}

void CallJob::fail(ErrorCategory category, const QString &message)
{
    LaunchResult result;
    result.startFailed = true;
    result.record = baseRecord();
    result.record.status = CallStatus::Failed;
    result.record.errorCategory = category;
    result.record.error = message;
    emitFinished(result);
}

void CallJob::finishCancelledBeforeStart()
{
    if (m_finishEmitted || m_storing)
        return;
    releaseSlot();
    CallRecord record = baseRecord();
    record.status = CallStatus::Cancelled;
    record.error = tr("cancelled before it started");
    record.metadata.insert(u"cancelled_before_start"_s, true);
    if (m_compactionTask) {
        m_compaction = { false, record.error, 0 };
        Q_EMIT compactionFinished(m_compactionTask->sessionId, false, record.error, 0);
        LaunchResult result;
        result.record = record;
        emitFinished(result);
        return;
    }
    storeAndFinish(record, {});
}

void CallJob::cancel()
{
    if (m_finishEmitted || m_storing || m_releasingCache)
        return;
    const bool again = m_cancelRequested;
    m_cancelRequested = true;
    switch (m_state) {
    case State::Queued:
        if (again)
            return; // already on its way out
        releaseSlot();
        QTimer::singleShot(0, this, [this] { finishCancelledBeforeStart(); });
        return;
    case State::Starting:
        if (m_waitingForSession) {
            finishCancelledBeforeStart(); // waits for nothing more
            return;
        }
        if (m_child)
            m_child->cancel();
        return; // the next step of the start sees the flag
    case State::Running:
        if (m_runner)
            m_runner->stop();
        return;
    case State::Finished:
        return;
    }
}

void CallJob::cleanUp()
{
    if (m_runner) {
        m_runner->disconnect(this);
        m_runner->deleteLater();
    }
    if (m_client)
        m_client->deleteLater();
    if (m_tools) {
        m_tools->shutdown();
        m_tools->deleteLater();
    }
    m_runner = nullptr;
    m_client = nullptr;
    m_tools = nullptr;
    if (m_network && m_service)
        m_service->releaseNetwork(m_network, m_networkKey);
    m_network = nullptr;
}

void CallJob::emitFinished(const LaunchResult &result)
{
    if (m_finishEmitted || m_releasingCache)
        return;
    if (m_ownCache && !m_ownCache->isReleased()) {
        // The call's own explicit cache entry is deleted before the call is over (a front end
        // may exit at its end).
        m_releasingCache = true;
        if (m_runner)
            m_runner->disconnect(this);
        m_ownCache->release([this, result] {
            m_releasingCache = false;
            LaunchResult out = result;
            out.explicitCaches = m_ownCache->entries();
            out.cacheNotices = m_ownCache->notices();
            emitFinished(out);
        });
        return;
    }
    m_finishEmitted = true;
    releaseSlot();
    m_result = result;
    cleanUp();
    // The session's next call may start only now: this one is stored.
    if (m_holdsSession && m_service) {
        m_holdsSession = false;
        m_service->releaseSession(m_claimedSession, this);
    }
    setState(State::Finished);
    Q_EMIT finished(result);
}

} // namespace Callscope
