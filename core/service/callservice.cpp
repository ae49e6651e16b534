#include "core/service/callservice.h"

#include "core/context/compactionplan.h"
#include "core/context/contextbudget.h"
#include "core/engines/httpmodelclient.h"
#include "core/loop/replayclient.h"
#include "core/model/specio.h"
#include "core/secrets/credentialstore.h"
#include "core/secrets/keyresolver.h"
#include "core/secrets/profilestore.h"
#include "core/store/callstore.h"
#include "core/tools/toolregistry.h"

#include <QJsonDocument>
#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QRegularExpression>
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
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Indented)).trimmed();
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Indented)).trimmed();
    const QByteArray wrapped = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(wrapped.mid(1, wrapped.size() - 2));
}

} // namespace

CallService::CallService(QNetworkAccessManager *nam, CallStore *store, CredentialStore *credentials,
                         ProfileStore *profiles, QObject *parent)
    : QObject(parent)
    , m_nam(nam)
    , m_store(store)
    , m_credentials(credentials)
    , m_profiles(profiles)
{
}

CallService::~CallService()
{
    if (m_runner)
        m_runner->disconnect(this);
}

void CallService::fail(ErrorCategory category, const QString &message)
{
    LaunchResult result;
    result.startFailed = true;
    result.record.kind = m_request.spec.kind;
    result.record.status = CallStatus::Failed;
    result.record.errorCategory = category;
    result.record.error = message;
    result.record.engineType = engineTypeName(m_request.spec.engine.type);
    result.record.model = m_request.spec.engine.model;
    result.record.createdAt = QDateTime::currentDateTimeUtc();
    result.record.finishedAt = result.record.createdAt;
    result.record.input = QJsonObject{{u"text"_s, m_request.input.text}};
    cleanUp();
    Q_EMIT finished(result);
}

void CallService::cleanUp()
{
    m_running = false;
    if (m_runner)
        m_runner->deleteLater();
    if (m_client)
        m_client->deleteLater();
    if (m_tools) {
        m_tools->shutdown();
        m_tools->deleteLater();
    }
    m_runner = nullptr;
    m_client = nullptr;
    m_tools = nullptr;
}

void CallService::stop()
{
    if (m_runner)
        m_runner->stop();
}

void CallService::launch(const LaunchRequest &request)
{
    if (m_running) {
        LaunchResult busy;
        busy.startFailed = true;
        busy.record.status = CallStatus::Failed;
        busy.record.errorCategory = ErrorCategory::Other;
        busy.record.error = tr("another call is still running");
        Q_EMIT finished(busy);
        return;
    }
    m_running = true;
    m_request = request;
    m_prior.clear();

    // The profile's settings go under the spec's own (the spec wins).
    const QString profileName = m_request.spec.engine.profile;
    if (!profileName.isEmpty()) {
        std::optional<EngineProfile> profile = m_profiles ? m_profiles->get(profileName) : std::nullopt;
        if (!profile) {
            QTimer::singleShot(0, this, [this, profileName] {
                fail(ErrorCategory::Other,
                     tr("no engine profile named \"%1\" (list them with: callscope-cli engines list)").arg(profileName));
            });
            return;
        }
        m_request.spec.engine = mergeProfileIntoSpec(m_request.spec.engine, *profile);
    }

    if (m_request.sessionId && !m_store) {
        QTimer::singleShot(0, this, [this] { fail(ErrorCategory::Other, tr("sessions need the history database")); });
        return;
    }
    // A session turn may first fold old messages into a summary (by policy); a failed summary
    // lets the turn go ahead uncompacted.
    if (m_request.sessionId && m_request.compaction && m_request.compaction->maxContextTokens > 0) {
        bool needed = false;
        if (auto calls = m_store->sessionCalls(*m_request.sessionId); calls && !calls.value().isEmpty()) {
            if (auto last = m_store->getCall(calls.value().last().id); last && !last.value().turns.isEmpty()) {
                const Usage &u = last.value().turns.last().usage;
                needed = compactionNeeded(u.inputTokens, u.outputTokens, m_request.compaction->maxContextTokens);
            }
        }
        if (needed) {
            const qint64 sessionId = *m_request.sessionId;
            startCompaction(sessionId, m_request.compaction->keepRecent, m_request.spec,
                            [this, sessionId](bool ok, const QString &message, qint64 callId) {
                                Q_EMIT compactionFinished(sessionId, ok, message, callId);
                                continueLaunch();
                            });
            return;
        }
    }
    QTimer::singleShot(0, this, [this] { continueLaunch(); });
}

void CallService::continueLaunch()
{
    if (m_request.sessionId) {
        auto session = m_store->getSession(*m_request.sessionId);
        if (!session) {
            const QString why = session.error().message;
            fail(ErrorCategory::Other, why);
            return;
        }
        auto messages = m_store->modelMessages(*m_request.sessionId);
        if (!messages) {
            const QString why = messages.error().message;
            fail(ErrorCategory::Other, why);
            return;
        }
        m_prior = messages.value();
        m_request.options.extraSystemPrompt = session.value().systemPrompt;
    } else if (!m_request.options.priorMessages.isEmpty()) {
        m_prior = m_request.options.priorMessages;
    }
    resolveEngine();
}

void CallService::resolveEngine()
{
    const EngineSpec &engine = m_request.spec.engine;
    if (engine.type == EngineType::Replay) {
        const QString source = engine.replay;
        static const QRegularExpression callId(u"^\\d+$"_s);
        std::optional<Recording> recording;
        QString error;
        if (callId.match(source).hasMatch()) {
            if (!m_store) {
                fail(ErrorCategory::Other, tr("replaying call %1 needs the history database").arg(source));
                return;
            }
            auto call = m_store->getCall(source.toLongLong());
            if (!call) {
                fail(ErrorCategory::Other, tr("cannot replay call %1: %2").arg(source, call.error().message));
                return;
            }
            recording = recordingFromCall(call.value());
        } else {
            recording = recordingFromFile(m_request.spec.resolvePath(source), &error);
        }
        if (!recording) {
            fail(ErrorCategory::Other, error);
            return;
        }
        startRunner(new ReplayModelClient(*recording, this));
        return;
    }
    if (!m_nam) {
        fail(ErrorCategory::Other, tr("no network access for engine %1").arg(engineTypeName(engine.type)));
        return;
    }
    if (!m_credentials)
        m_credentials = new CredentialStore(this);
    auto *resolver = new KeyResolver(m_credentials, this);
    resolver->resolve(engine, this, [this, resolver](const ResolvedKey &key) {
        resolver->deleteLater();
        if (!key.ok) {
            fail(ErrorCategory::Auth, key.error);
            return;
        }
        EngineConfig config = makeEngineConfig(m_request.spec.engine, std::nullopt, key.key);
        ModelClient *client = createModelClient(config, m_nam, this);
        if (!client) {
            fail(ErrorCategory::Other, tr("engine type %1 cannot be used here").arg(engineTypeName(config.type)));
            return;
        }
        if (m_inactivityTimeoutMs > 0) {
            if (auto *http = qobject_cast<HttpModelClient *>(client)) {
                HttpJobSettings settings = http->settings();
                settings.inactivityTimeoutMs = m_inactivityTimeoutMs;
                http->setSettings(settings);
            }
        }
        startRunner(client);
    });
}

void CallService::startRunner(ModelClient *client)
{
    m_client = client;
    m_tools = new ToolRegistry(m_request.spec, this);

    RunOptions options = m_request.options;
    options.priorMessages = m_prior;
    options.includePriorInRecord = m_request.reviseOf.has_value() && !m_request.sessionId;
    if (m_request.reviseOf)
        options.parent = m_request.reviseOf;
    const BudgetSettings budget = BudgetSettings::fromSpec(m_request.spec);
    options.budget = [budget, system = m_request.spec.systemPrompt](const QList<Message> &messages) {
        BudgetResult result = applyContextBudget(system, messages, budget);
        return std::make_pair(result.messages, result.report.toJson());
    };
    if (!m_request.spec.sourcePath.isEmpty())
        options.metadata.insert(u"spec_path"_s, m_request.spec.sourcePath);
    if (!m_request.replayOf.isEmpty())
        options.metadata.insert(u"replay_of"_s, m_request.replayOf);
    if (m_request.reviseOf)
        options.metadata.insert(u"revision_of"_s, *m_request.reviseOf);

    m_runner = new Runner(m_request.spec, client, m_tools, this);
    m_runner->setOptions(options);
    connect(m_runner, &Runner::finished, this, &CallService::onRunnerFinished);
    Q_EMIT runnerCreated(m_runner);
    m_runner->start(m_request.input);
}

void CallService::onRunnerFinished(const CallRecord &finishedRecord)
{
    LaunchResult result;
    result.record = finishedRecord;
    CallRecord &record = result.record;
    record.spec = CallStore::stripSecrets(specToJson(m_request.spec));
    record.session = m_request.sessionId;

    if (m_store) {
        QList<SessionMessage> sessionMessages;
        if (m_request.sessionId && m_runner) {
            for (const Message &m : m_runner->conversation()) {
                SessionMessage sm;
                sm.message = m.withoutAttachmentBytes();
                sessionMessages.append(sm);
            }
            // The accepted output as a plain assistant message for chat views and history;
            // never sent back to the model (its history must not teach it plain-text answers).
            if (record.status == CallStatus::Completed && m_request.spec.responseSchema) {
                SessionMessage copy;
                copy.message = Message::assistant(outputAsText(record.response));
                copy.message.providerData.insert(u"callscope_output_copy"_s, true);
                copy.sendToModel = false;
                sessionMessages.append(copy);
            }
        }
        auto id = m_store->insertCall(record, sessionMessages);
        if (id) {
            record.id = id.value();
            result.stored = true;
            if (m_request.sessionId) {
                // Read back the span the store assigned.
                if (auto stored = m_store->getCall(record.id)) {
                    record.firstSequence = stored.value().firstSequence;
                    record.lastSequence = stored.value().lastSequence;
                }
            }
        } else {
            result.storeError = id.error().message;
            qCWarning(lcService) << "could not store the call:" << result.storeError;
        }
    }
    cleanUp();
    Q_EMIT finished(result);
}

void CallService::revise(qint64 callId, const QString &correction, const RunOptions &options)
{
    auto fail_ = [this](const QString &why) {
        m_running = true;
        QTimer::singleShot(0, this, [this, why] { fail(ErrorCategory::Other, why); });
    };
    if (!m_store) {
        fail_(tr("revising a call needs the history database"));
        return;
    }
    auto parent = m_store->getCall(callId);
    if (!parent) {
        fail_(tr("cannot revise call %1: %2").arg(callId).arg(parent.error().message));
        return;
    }
    const CallRecord &p = parent.value();
    SpecLoadResult loaded = specFromJson(p.spec, p.metadata.value(u"spec_path"_s).toString());
    if (!loaded.spec) {
        fail_(tr("call %1 has no usable spec stored: %2")
                  .arg(callId)
                  .arg(loaded.errors.isEmpty() ? QString() : loaded.errors.first().message));
        return;
    }
    LaunchRequest request;
    request.spec = *loaded.spec;
    request.input.text = correction;
    request.options = options;
    request.reviseOf = callId;
    request.sessionId = p.session;
    if (!p.session)
        request.options.priorMessages = messagesFromJson(p.messages);
    launch(request);
}

void CallService::replay(qint64 callId, const Spec &spec, const RunOptions &options)
{
    if (!m_store) {
        m_running = true;
        QTimer::singleShot(0, this, [this] { fail(ErrorCategory::Other, tr("replaying a call needs the history database")); });
        return;
    }
    auto original = m_store->getCall(callId);
    if (!original) {
        const QString why = original.error().message;
        m_running = true;
        QTimer::singleShot(0, this, [this, why] { fail(ErrorCategory::Other, why); });
        return;
    }
    LaunchRequest request;
    request.spec = spec;
    request.input.text = original.value().input.value(u"text"_s).toString();
    request.options = options;
    request.options.parent = callId;
    request.replayOf = QString::number(callId);
    launch(request);
}

// ---------------------------------------------------------------------------------------------
// Compaction

namespace {

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
            line += u" [result of "_s + r.name + (r.isError ? u" (error)"_s : QString()) + u": "_s + r.content + u']';
        if (!m.refusal.isEmpty())
            line += u" [refused: "_s + m.refusal + u']';
        text += line + u'\n';
    }
    return text;
}

} // namespace

void CallService::compact(qint64 sessionId, int keepRecent, const Spec &engineFrom)
{
    startCompaction(sessionId, keepRecent, engineFrom, [this, sessionId](bool ok, const QString &message, qint64 callId) {
        Q_EMIT compactionFinished(sessionId, ok, message, callId);
    });
}

void CallService::startCompaction(qint64 sessionId, int keepRecent, const Spec &engineFrom,
                                  std::function<void(bool, const QString &, qint64)> done)
{
    auto later = [this, done](bool ok, const QString &message) {
        QTimer::singleShot(0, this, [done, ok, message] { done(ok, message, 0); });
    };
    if (!m_store) {
        later(false, tr("compaction needs the history database"));
        return;
    }
    if (m_compactor) {
        later(false, tr("a compaction is already running"));
        return;
    }
    auto stored = m_store->sessionMessages(sessionId, CallStore::MessageView::All);
    auto session = m_store->getSession(sessionId);
    if (!stored || !session) {
        later(false, !stored ? stored.error().message : session.error().message);
        return;
    }
    // Only what the model still sees can fold: not yet compacted, not output copies.
    QList<SessionMessage> candidates;
    for (const SessionMessage &m : stored.value()) {
        if (m.sendToModel && !m.compactedBy)
            candidates.append(m);
    }
    QList<Message> plain;
    for (const SessionMessage &m : std::as_const(candidates))
        plain.append(m.message);
    const CompactionPlan plan = planCompaction(plain, keepRecent);
    if (plan.isEmpty()) {
        later(true, tr("nothing to fold: the session holds %n message(s) the model sees", nullptr, int(plain.size())));
        return;
    }
    const qint64 first = candidates.first().sequence;
    const qint64 last = candidates.at(plan.foldCount - 1).sequence;

    Spec spec;
    spec.kind = u"compaction"_s;
    spec.systemPrompt = u"You compress conversations. Summarise the conversation you are given so that "
                        u"it can replace it: keep decisions, facts, numbers, names, open questions and "
                        u"what tools returned that still matters; drop pleasantries and repetition. "
                        u"Write plain prose of at most 300 words."_s;
    spec.responseSchema = QJsonObject{{u"type"_s, u"object"_s},
                                      {u"properties"_s, QJsonObject{{u"summary"_s, QJsonObject{{u"type"_s, u"string"_s}, {u"minLength"_s, 1}}}}},
                                      {u"required"_s, QJsonArray{u"summary"_s}},
                                      {u"additionalProperties"_s, false}};
    spec.textOutputField = u"summary"_s;
    spec.maxTurns = 3;
    spec.engine = engineFrom.engine;
    spec.sourcePath = engineFrom.sourcePath;

    LaunchRequest request;
    request.spec = spec;
    request.input.text = transcriptForSummary(session.value().summary, plain.mid(0, plan.foldCount));
    request.options.metadata = QJsonObject{{u"session"_s, sessionId},
                                           {u"compacts_sequences"_s, QJsonArray{first, last}}};

    // A store-less child runs the summary call; the compaction (call, range, marks, summary)
    // is then written in one transaction.
    m_compactor = new CallService(m_nam, nullptr, m_credentials, m_profiles, this);
    m_compactor->setInactivityTimeoutMs(m_inactivityTimeoutMs);
    connect(m_compactor, &CallService::finished, this,
            [this, sessionId, first, last, done](const LaunchResult &result) {
                m_compactor->deleteLater();
                m_compactor = nullptr;
                if (result.record.status != CallStatus::Completed) {
                    done(false, tr("the summary call did not complete (%1): %2")
                                    .arg(callStatusName(result.record.status), result.record.error),
                         0);
                    return;
                }
                const QString summary = result.record.response.toObject().value(u"summary"_s).toString();
                auto compaction = m_store->recordCompaction(sessionId, result.record, first, last, summary);
                if (!compaction) {
                    done(false, compaction.error().message, 0);
                    return;
                }
                done(true, tr("folded messages %1 to %2 into a summary").arg(first).arg(last),
                     compaction.value().callId);
            });
    m_compactor->launch(request);
}

} // namespace Callscope
