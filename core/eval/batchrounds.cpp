#include "core/eval/batchrounds.h"

#include "core/store/callstore.h"
#include "core/store/storewriter.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QRandomGenerator>
#include <QTimer>

#include <algorithm>

using namespace Qt::StringLiterals;

Q_LOGGING_CATEGORY(lcBatchRounds, "callscope.batch")

namespace Callscope {

BatchRoundSettings BatchRoundSettings::fromEnvironment()
{
    BatchRoundSettings settings;
    const QStringList poll =
        qEnvironmentVariable("CALLSCOPE_BATCH_POLL_MS").split(u',', Qt::SkipEmptyParts);
    if (!poll.isEmpty() && poll.first().toLongLong() > 0) {
        settings.firstPollMs = poll.first().toLongLong();
        settings.maxPollMs = poll.size() > 1 && poll.at(1).toLongLong() > 0
            ? poll.at(1).toLongLong()
            : std::max(settings.firstPollMs, settings.maxPollMs);
    }
    if (const int lines = qEnvironmentVariableIntValue("CALLSCOPE_BATCH_MAX_LINES"); lines > 0) {
        BatchLimits limits;
        limits.maxLines = lines;
        settings.limits = limits;
    }
    return settings;
}

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(BatchRounds)
};

QString hashOf(const QJsonObject &body)
{
    return QString::fromLatin1(
        QCryptographicHash::hash(QJsonDocument(body).toJson(QJsonDocument::Compact),
                                 QCryptographicHash::Sha256)
            .toHex());
}

QString lineKeyOf(const QString &runKey, int index)
{
    return runKey + QChar(0x1e) + QString::number(index);
}

constexpr int MaxExpiries = 5;

} // namespace

// ---------------------------------------------------------------------------------------------
// BatchModelClient

BatchModelClient::BatchModelClient(BatchRounds *rounds, const QString &group, const QString &caseId,
                                   const QString &variant, int repeat, const EngineConfig &config,
                                   QObject *parent)
    : ModelClient(parent)
    , m_rounds(rounds)
    , m_group(group)
    , m_caseId(caseId)
    , m_variant(variant)
    , m_repeat(repeat)
    , m_runKey(BatchRounds::runKey(caseId, variant, repeat))
    , m_config(config)
    , m_codec(createEngineCodec(config.type))
{
    m_config.stream = false;
}

QString BatchModelClient::lineKey() const
{
    return lineKeyOf(m_runKey, m_index);
}

void BatchModelClient::send(const ChatRequest &request, int maxAttempts)
{
    if (m_state != State::Idle)
        cancel();
    ++m_index;
    ChatRequest whole = request;
    whole.stream = false;
    m_body = m_codec->buildRequest(whole, m_config).body;
    m_hash = hashOf(m_body);
    m_maxAttempts = std::max(1, maxAttempts);
    m_attempts = 0;
    m_expiries = 0;
    m_attemptLog.clear();
    ++m_serial;
    if (!m_rounds) {
        deliverError(ApiError { ErrorCategory::Other, 0, {}, Tr::tr("the batch rounds are gone") });
        return;
    }
    m_rounds->enqueue(this);
}

void BatchModelClient::cancel()
{
    if (m_state == State::Idle)
        return;
    if (m_rounds)
        m_rounds->withdraw(this);
    m_state = State::Idle;
    ++m_serial;
    ModelOutcome outcome;
    outcome.cancelled = true;
    outcome.error = ApiError { ErrorCategory::Other, 0, {}, Tr::tr("The request was cancelled.") };
    outcome.attempts = m_attemptLog;
    outcome.requestBody = m_body;
    Q_EMIT finished(outcome);
}

void BatchModelClient::deliver(const ModelOutcome &outcome)
{
    // Always from the event loop: the runner may send its next request from inside `finished`.
    m_state = State::Delivering; // the runner works on it next: a round does not leave without it
    const quint64 serial = m_serial;
    QTimer::singleShot(0, this, [this, outcome, serial] {
        if (serial != m_serial)
            return;
        m_state = State::Idle;
        m_batchId = 0;
        m_customId.clear();
        Q_EMIT finished(outcome);
        if (m_rounds)
            m_rounds->scheduleCheck();
    });
}

void BatchModelClient::deliverError(const ApiError &error)
{
    ModelOutcome outcome;
    outcome.error = error;
    outcome.attempts = m_attemptLog;
    outcome.requestBody = m_body;
    deliver(outcome);
}

QJsonArray BatchModelClient::toNative(const QString &system, const QList<Message> &messages) const
{
    return m_codec->toNative(system, messages);
}

QList<Message> BatchModelClient::fromNative(const QJsonArray &native) const
{
    return m_codec->fromNative(native);
}

// ---------------------------------------------------------------------------------------------
// BatchRounds: set-up

BatchRounds::BatchRounds(CallStore *store, qint64 experimentId, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_experimentId(experimentId)
{
    if (m_store)
        m_batchStore = std::make_unique<ProviderBatchStore>(m_store->database());
}

BatchRounds::~BatchRounds() = default;

QString BatchRounds::runKey(const QString &caseId, const QString &variant, int repeat)
{
    return caseId + QChar(0x1f) + variant + QChar(0x1f) + QString::number(repeat);
}

void BatchRounds::setPollIntervals(qint64 firstMs, qint64 maxMs)
{
    m_firstPollMs = std::max<qint64>(1, firstMs);
    m_maxPollMs = std::max(m_firstPollMs, maxMs);
}

void BatchRounds::apply(const BatchRoundSettings &settings)
{
    setPollIntervals(settings.firstPollMs, settings.maxPollMs);
    m_limitsOverride = settings.limits;
    m_resubmitUnknown = settings.resubmitUnknown;
}

void BatchRounds::load(std::function<void(const QString &error)> done)
{
    if (m_writer) {
        // Read on the writer's connection, in its queue: behind every write asked for so far.
        auto stored = std::make_shared<
            std::pair<QList<ProviderBatchRecord>, QList<ProviderBatchLineRecord>>>();
        const qint64 experimentId = m_experimentId;
        m_writer->perform(
            [stored, experimentId](CallStore &into) {
                WriteResult read;
                ProviderBatchStore batches(into.database());
                auto records = batches.batches(experimentId);
                if (!records) {
                    read.id = records.error();
                    return read;
                }
                auto lines = batches.lines(experimentId);
                if (!lines) {
                    read.id = lines.error();
                    return read;
                }
                stored->first = records.value();
                stored->second = lines.value();
                read.id = experimentId;
                return read;
            },
            this,
            [this, stored, done](const WriteResult &read) {
                if (!read.id) {
                    done(read.id.error().message);
                    return;
                }
                applyStored(stored->first, stored->second);
                done(QString());
            });
        return;
    }
    if (!m_batchStore) {
        done(QString());
        return;
    }
    auto batches = m_batchStore->batches(m_experimentId);
    if (!batches) {
        done(batches.error().message);
        return;
    }
    auto lines = m_batchStore->lines(m_experimentId);
    if (!lines) {
        done(lines.error().message);
        return;
    }
    applyStored(batches.value(), lines.value());
    done(QString());
}

void BatchRounds::applyStored(const QList<ProviderBatchRecord> &batches,
                              const QList<ProviderBatchLineRecord> &lines)
{
    QHash<qint64, QList<ProviderBatchLineRecord>> byBatch;
    for (const ProviderBatchLineRecord &line : lines)
        byBatch[line.batchId].append(line);
    for (const ProviderBatchRecord &batch : batches) {
        m_recordOf.insert(batch.id, batch);
        for (const ProviderBatchLineRecord &line : byBatch.value(batch.id))
            m_history[lineKeyOf(runKey(line.caseId, line.variant, line.repeat), line.requestIndex)]
                .append(line);
        if (!batch.isOpen()) {
            m_closed.append(batch);
            continue;
        }
        OpenBatch open;
        open.record = batch;
        for (const ProviderBatchLineRecord &line : byBatch.value(batch.id))
            open.lines.insert(line.customId, line);
        m_open.insert(batch.id, open);
        qCInfo(lcBatchRounds) << "open provider batch" << batch.id << batch.status
                              << batch.providerId;
    }
    // Rounds go on from the last stored one.
    for (const ProviderBatchRecord &batch : batches)
        m_storedRounds[batch.engineKey] =
            std::max(m_storedRounds.value(batch.engineKey), batch.round);
}

void BatchRounds::expect(const QString &key)
{
    m_starting.insert(key);
}

void BatchRounds::jobEnded(const QString &key)
{
    if (m_starting.remove(key))
        scheduleCheck();
}

BatchRounds::Group *BatchRounds::groupFor(const QString &key)
{
    auto it = m_groups.find(key);
    return it == m_groups.end() ? nullptr : &it.value();
}

ProviderBatchClient *BatchRounds::clientOfGroup(const QString &publicKey) const
{
    for (const Group &group : m_groups) {
        if (group.publicKey == publicKey && group.client)
            return group.client;
    }
    return nullptr;
}

ModelClient *BatchRounds::clientFor(const QString &caseId, const QString &variant, int repeat,
                                    const EngineConfig &config, QNetworkAccessManager *nam,
                                    QObject *parent)
{
    const QString key = runKey(caseId, variant, repeat);
    m_starting.remove(key);
    if (!ProviderBatchClient::hasBatchApi(config.type)) {
        // No batch API (OpenAI-compatible servers): this run's requests go direct.
        ++m_directRuns;
        scheduleCheck();
        return nullptr;
    }
    // One group per engine: type, base URL, model and key.
    // The key tells engines apart without ever being stored: only a fingerprint salted per
    // process is part of the in-memory group key.
    static const QByteArray salt = QByteArray::number(QRandomGenerator::system()->generate64(), 16);
    const QString publicKey = engineTypeName(config.type) + u'|'
        + config.baseUrl.adjusted(QUrl::RemoveUserInfo | QUrl::RemoveQuery).toString() + u'|'
        + config.model;
    const QString groupKey = publicKey + u'|'
        + QString::fromLatin1(QCryptographicHash::hash(QByteArray(salt + config.apiKey.toUtf8()),
                                                       QCryptographicHash::Sha256)
                                  .toHex()
                                  .left(16));
    Group &group = m_groups[groupKey];
    group.key = groupKey;
    group.publicKey = publicKey;
    group.round = std::max(group.round, m_storedRounds.value(publicKey));
    if (!group.client) {
        group.config = config;
        group.client = ProviderBatchClient::create(config, nam, this);
        // Batches this engine left open in an earlier session are polled now that a key is known.
        for (auto it = m_open.begin(); it != m_open.end(); ++it) {
            if (it->record.engineKey == publicKey)
                startPolling(it.key());
        }
    }
    auto *client = new BatchModelClient(this, groupKey, caseId, variant, repeat, config, parent);
    group.live.append(client);
    connect(client, &QObject::destroyed, this, [this, groupKey] {
        if (Group *g = groupFor(groupKey)) {
            g->live.removeIf([](const QPointer<BatchModelClient> &c) { return c.isNull(); });
            g->queued.removeIf([](const QPointer<BatchModelClient> &c) { return c.isNull(); });
        }
        scheduleCheck();
    });
    scheduleCheck();
    return client;
}

// ---------------------------------------------------------------------------------------------
// Requests

void BatchRounds::enqueue(BatchModelClient *client)
{
    Group *group = groupFor(client->m_group);
    if (!group) {
        client->deliverError(
            ApiError { ErrorCategory::Other, 0, {}, Tr::tr("no batch engine for this run") });
        return;
    }
    // What earlier rounds (this session or a stored one) did with this very request.
    const QList<ProviderBatchLineRecord> history = m_history.value(client->lineKey());
    QString lastError;
    for (const ProviderBatchLineRecord &line : history) {
        if (line.requestHash != client->m_hash)
            continue; // the conversation went another way: that line answers another request
        if (line.outcome == u"errored"_s) {
            ++client->m_attempts;
            lastError = line.error;
        } else if (line.outcome == u"expired"_s || line.outcome == u"canceled"_s) {
            ++client->m_expiries;
        }
    }
    for (const ProviderBatchLineRecord &line : history) {
        if (line.requestHash != client->m_hash)
            continue;
        if (line.outcome == u"succeeded"_s) {
            QString error;
            const std::optional<ModelReply> reply =
                m_groups.value(client->m_group).client->decode(line.result, &error);
            if (reply) {
                const ProviderBatchRecord record = m_recordOf.value(line.batchId);
                AttemptRecord attempt;
                attempt.outcome = u"ok"_s;
                attempt.httpStatus = 200;
                attempt.finishReason = reply->finishReason;
                attempt.rawFinishReason = reply->rawFinishReason;
                attempt.usage = reply->usage;
                attempt.startedAt = record.submittedAt;
                attempt.durationMs = record.submittedAt.isValid() && record.endedAt.isValid()
                    ? record.submittedAt.msecsTo(record.endedAt)
                    : 0;
                client->m_attemptLog.append(attempt);
                ModelOutcome outcome;
                outcome.reply = reply;
                outcome.attempts = client->m_attemptLog;
                outcome.requestBody = client->m_body;
                outcome.rawResponse = line.result;
                outcome.rawResponseBytes = line.result.size();
                client->deliver(outcome);
                return;
            }
        }
        if (line.outcome == u"pending"_s && m_unresolvable.contains(line.batchId)) {
            m_unknownRuns.insert(client->runKey());
            client->deliverError(ApiError {
                ErrorCategory::Network, 0, {}, submitUnknownText(m_recordOf.value(line.batchId)) });
            return;
        }
        if (line.outcome == u"pending"_s && m_open.contains(line.batchId)) {
            // Carried by a batch still open (or still being looked for): wait for it.
            OpenBatch &open = m_open[line.batchId];
            {
                open.waiting.insert(line.customId, client);
                client->m_state = BatchModelClient::State::InFlight;
                client->m_batchId = line.batchId;
                client->m_customId = line.customId;
                Q_EMIT changed();
                return;
            }
        }
    }
    if (client->m_attempts >= client->m_maxAttempts && !lastError.isEmpty()) {
        client->deliverError(ApiError { ErrorCategory::Other, 0, {}, lastError });
        return;
    }
    client->m_state = BatchModelClient::State::Queued;
    group->queued.append(client);
    scheduleCheck();
}

void BatchRounds::withdraw(BatchModelClient *client)
{
    if (Group *group = groupFor(client->m_group))
        group->queued.removeAll(client);
    if (client->m_batchId && m_open.contains(client->m_batchId))
        m_open[client->m_batchId].waiting.remove(client->m_customId);
    client->m_batchId = 0;
    scheduleCheck();
}

void BatchRounds::requeue(BatchModelClient *client)
{
    client->m_batchId = 0;
    client->m_customId.clear();
    if (m_cancelling) {
        client->m_state = BatchModelClient::State::Idle;
        ModelOutcome outcome;
        outcome.cancelled = true;
        outcome.attempts = client->m_attemptLog;
        outcome.requestBody = client->m_body;
        client->deliver(outcome);
        return;
    }
    client->m_state = BatchModelClient::State::Queued;
    if (Group *group = groupFor(client->m_group))
        group->queued.append(client);
    scheduleCheck();
}

// ---------------------------------------------------------------------------------------------
// Rounds

void BatchRounds::scheduleCheck()
{
    if (m_checkScheduled || m_detached)
        return;
    m_checkScheduled = true;
    QTimer::singleShot(0, this, [this] {
        m_checkScheduled = false;
        check();
    });
}

void BatchRounds::check()
{
    if (m_detached || m_cancelling)
        return;
    Q_EMIT changed();
    if (!m_starting.isEmpty())
        return; // a run that has not asked for its engine yet would miss the round
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (auto it = m_groups.begin(); it != m_groups.end(); ++it) {
        Group &group = it.value();
        if (group.queued.isEmpty() || !group.client)
            continue;
        const bool open = std::any_of(m_open.cbegin(), m_open.cend(), [&group](const OpenBatch &b) {
            return b.record.engineKey == group.publicKey;
        });
        if (open || m_creating.value(group.publicKey) > 0)
            continue;
        const bool working = std::any_of(
            group.live.cbegin(), group.live.cend(), [](const QPointer<BatchModelClient> &c) {
                return c
                    && (c->state() == BatchModelClient::State::Idle
                        || c->state() == BatchModelClient::State::Delivering);
            });
        if (working)
            continue; // a run is still busy locally: its next request belongs to this round
        if (group.holdUntilMs > now) {
            QTimer::singleShot(int(group.holdUntilMs - now), this, [this] { scheduleCheck(); });
            continue;
        }
        submitRound(group);
    }
}

void BatchRounds::submitRound(Group &group)
{
    QList<QPointer<BatchModelClient>> queued = std::exchange(group.queued, {});
    queued.removeIf([](const QPointer<BatchModelClient> &c) { return c.isNull(); });
    if (queued.isEmpty())
        return;
    std::sort(queued.begin(), queued.end(),
              [](const QPointer<BatchModelClient> &a, const QPointer<BatchModelClient> &b) {
                  return a->runKey() < b->runKey();
              });
    ++group.round;
    const BatchLimits limits = m_limitsOverride.value_or(BatchLimits::forEngine(group.config.type));

    // Parts within the provider's limits: lines and bytes.
    QList<QList<BatchModelClient *>> parts;
    QList<BatchModelClient *> current;
    qint64 bytes = 0;
    for (const QPointer<BatchModelClient> &client : std::as_const(queued)) {
        ProviderBatchLine line { QString(), client->m_body };
        const qint64 size = group.client->lineBytes(line);
        if (!current.isEmpty()
            && (current.size() >= limits.maxLines || bytes + size > limits.maxBytes)) {
            parts.append(current);
            current.clear();
            bytes = 0;
        }
        current.append(client);
        bytes += size;
    }
    if (!current.isEmpty())
        parts.append(current);
    qCInfo(lcBatchRounds) << "round" << group.round << "of" << group.key << ":" << queued.size()
                          << "requests in" << parts.size() << "batch(es)";

    for (int p = 0; p < parts.size(); ++p) {
        const QList<BatchModelClient *> &part = parts.at(p);
        ProviderBatchRecord record;
        record.experimentId = m_experimentId;
        record.engineKey = group.publicKey;
        record.engineType = engineTypeName(group.config.type);
        record.round = group.round;
        record.part = p;
        record.status = u"submitting"_s;
        record.lineCount = int(part.size());
        record.createdAt = QDateTime::currentDateTimeUtc();
        QList<ProviderBatchLineRecord> lineRecords;
        QList<ProviderBatchLine> lines;
        for (int i = 0; i < part.size(); ++i) {
            BatchModelClient *client = part.at(i);
            ProviderBatchLineRecord l;
            l.customId = u"r"_s + QString::number(group.round) + u"_"_s + QString::number(i);
            l.caseId = client->m_caseId;
            l.variant = client->m_variant;
            l.repeat = client->m_repeat;
            l.requestIndex = client->m_index;
            l.requestHash = client->m_hash;
            lineRecords.append(l);
            lines.append(ProviderBatchLine { l.customId, client->m_body });
        }
        // Stored before anything is sent: a crash from here on finds the batch on resume. Until
        // the write is answered the runs count as carried (no new round of this engine starts).
        QList<QPointer<BatchModelClient>> clients;
        for (BatchModelClient *client : part) {
            client->m_state = BatchModelClient::State::InFlight;
            clients.append(client);
        }
        const QString publicKey = group.publicKey;
        ++m_creating[publicKey];
        storeNewBatch(
            record, lineRecords,
            [this, record, lineRecords, lines, clients,
             publicKey](const StoreResult<qint64> &created) mutable {
                // A run cancelled meanwhile has let go of its request (it is Idle again, or sent
                // another).
                for (QPointer<BatchModelClient> &client : clients) {
                    if (client
                        && (client->m_state != BatchModelClient::State::InFlight
                            || client->m_batchId != 0))
                        client = nullptr;
                }
                if (--m_creating[publicKey] <= 0)
                    m_creating.remove(publicKey);
                // A cancel asked meanwhile waits for this answer too (cancelRequestsAnswered).
                const bool cancelWaits = m_cancelling && m_createsToAnswer > 0;
                if (cancelWaits)
                    --m_createsToAnswer;
                if (!created) {
                    for (const QPointer<BatchModelClient> &client : std::as_const(clients)) {
                        if (client)
                            client->deliverError(
                                ApiError { ErrorCategory::Other,
                                           0,
                                           {},
                                           Tr::tr("cannot store the provider batch: %1")
                                               .arg(created.error().message) });
                    }
                    scheduleCheck();
                    if (cancelWaits)
                        cancelAnswered();
                    return;
                }
                record.id = created.value();
                if (m_cancelling) {
                    // Cancel Batches came while it was being stored: it is never sent.
                    record.status = u"failed"_s;
                    record.error = Tr::tr("cancelled before it was sent");
                    m_closed.append(record);
                    save(record);
                    for (const QPointer<BatchModelClient> &client : std::as_const(clients)) {
                        if (client && !m_detached)
                            requeue(client);
                    }
                    Q_EMIT changed();
                    if (cancelWaits)
                        cancelAnswered();
                    return;
                }
                if (m_detached)
                    return; // stored, never sent: a resume finds it as after a crash at this point
                sendPart(record, lineRecords, lines, clients);
            });
    }
    Q_EMIT changed();
}

void BatchRounds::storeNewBatch(const ProviderBatchRecord &record,
                                const QList<ProviderBatchLineRecord> &lines,
                                std::function<void(const StoreResult<qint64> &)> done)
{
    if (m_writer) {
        m_writer->perform(
            [record, lines](CallStore &into) {
                WriteResult written;
                written.id = ProviderBatchStore(into.database()).createBatch(record, lines);
                return written;
            },
            this, [done](const WriteResult &written) { done(written.id); });
        return;
    }
    if (m_batchStore) {
        done(m_batchStore->createBatch(record, lines));
        return;
    }
    static qint64 memoryIds = 0;
    done(++memoryIds);
}

void BatchRounds::sendPart(ProviderBatchRecord record,
                           const QList<ProviderBatchLineRecord> &lineRecords,
                           const QList<ProviderBatchLine> &lines,
                           const QList<QPointer<BatchModelClient>> &clients)
{
    const qint64 id = record.id;
    OpenBatch open;
    open.record = record;
    for (int i = 0; i < clients.size(); ++i) {
        ProviderBatchLineRecord l = lineRecords.at(i);
        l.batchId = id;
        open.lines.insert(l.customId, l);
        const QPointer<BatchModelClient> &client = clients.at(i);
        m_history[lineKeyOf(runKey(l.caseId, l.variant, l.repeat), l.requestIndex)].append(l);
        if (!client)
            continue; // its run went while the batch was stored; the reply is kept all the same
        open.waiting.insert(l.customId, client);
        client->m_batchId = id;
        client->m_customId = l.customId;
    }
    m_open.insert(id, open);
    m_recordOf.insert(id, record);
    ProviderBatchClient *client = clientOfGroup(record.engineKey);
    if (!client) {
        failBatch(id,
                  ApiError { ErrorCategory::Other,
                             0,
                             {},
                             Tr::tr("the engine of provider batch %1 is gone").arg(id) },
                  false);
        return;
    }
    const QString tag = u"callscope-e%1-b%2"_s.arg(m_experimentId).arg(id);
    m_open[id].submitInFlight = true;
    client->submit(
        lines, tag,
        [this, id](const QString &fileId) {
            if (!m_open.contains(id))
                return;
            m_open[id].record.inputFileId = fileId;
            save(m_open[id].record);
        },
        [this, id](const ProviderBatchClient::SubmitResult &result) {
            if (!m_open.contains(id))
                return;
            OpenBatch &batch = m_open[id];
            batch.submitInFlight = false;
            // Cancel Batches came while this one was on its way: it is cancelled now that
            // it has an id, and the cancel counts as answered only then.
            const bool cancelAsked = batch.cancelRequested;
            if (result.ok) {
                markSubmitted(id, result.providerId);
                if (cancelAsked)
                    cancelAtProvider(id);
                Q_EMIT changed();
                return;
            }
            if (cancelAsked)
                cancelAnswered();
            if (result.unknown) {
                batch.record.status = u"submit_unknown"_s;
                batch.record.error = result.error.message;
                save(batch.record);
                resolveUnknown(id);
                return;
            }
            failBatch(id, result.error, result.error.transient);
        });
    Q_EMIT changed();
}

void BatchRounds::markSubmitted(qint64 id, const QString &providerId)
{
    OpenBatch &batch = m_open[id];
    batch.record.providerId = providerId;
    batch.record.status = u"submitted"_s;
    batch.record.submittedAt = QDateTime::currentDateTimeUtc();
    save(batch.record);
    qCInfo(lcBatchRounds) << "provider batch" << id << "submitted as" << providerId;
    startPolling(id);
}

void BatchRounds::save(const ProviderBatchRecord &record)
{
    m_recordOf.insert(record.id, record);
    if (m_writer) {
        // In the writer's queue, in order: a later state never lands before an earlier one.
        m_writer->perform(
            [record](CallStore &into) {
                WriteResult written;
                const StoreError error = ProviderBatchStore(into.database()).updateBatch(record);
                written.id = error ? StoreResult<qint64>(error) : StoreResult<qint64>(record.id);
                return written;
            },
            this,
            [id = record.id](const WriteResult &written) {
                if (!written.id)
                    qCWarning(lcBatchRounds)
                        << "could not store provider batch" << id << written.id.error().message;
            });
        return;
    }
    if (m_batchStore) {
        if (StoreError error = m_batchStore->updateBatch(record); error)
            qCWarning(lcBatchRounds)
                << "could not store provider batch" << record.id << error.message;
    }
}

QString BatchRounds::submitUnknownText(const ProviderBatchRecord &record) const
{
    return Tr::tr("provider batch %1 (round %2) may have been created at the provider, but the "
                  "request that "
                  "creates it got no answer; it is not sent again so that nothing is paid "
                  "twice. Check the "
                  "provider's console, then resume with --resubmit-unknown to send these "
                  "requests again.")
        .arg(record.id)
        .arg(record.round);
}

void BatchRounds::resolveUnknown(qint64 id)
{
    if (!m_open.contains(id))
        return;
    OpenBatch &open = m_open[id];
    ProviderBatchClient *client = clientOfGroup(open.record.engineKey);
    if (!client)
        return; // polled once the engine's key is known (startPolling)
    const QString tag = u"callscope-e%1-b%2"_s.arg(m_experimentId).arg(id);
    open.busy = true;
    client->findByTag(
        tag, [this, id, client](bool supported, const QString &found, const ApiError &error) {
            if (!m_open.contains(id))
                return;
            OpenBatch &batch = m_open[id];
            batch.busy = false;
            if (supported && error.category == ErrorCategory::None) {
                if (!found.isEmpty()) {
                    qCInfo(lcBatchRounds) << "provider batch" << id << "found by its tag:" << found;
                    batch.record.providerId = found;
                    batch.record.status = u"submitted"_s;
                    if (!batch.record.submittedAt.isValid())
                        batch.record.submittedAt = QDateTime::currentDateTimeUtc();
                    batch.record.error.clear();
                    save(batch.record);
                    startPolling(id);
                    return;
                }
                if (!batch.record.inputFileId.isEmpty()) {
                    // The file is up and no batch has the tag: create it now (once).
                    batch.record.status = u"submitting"_s;
                    client->createFromFile(
                        batch.record.inputFileId,
                        u"callscope-e%1-b%2"_s.arg(m_experimentId).arg(id),
                        [this, id](const ProviderBatchClient::SubmitResult &result) {
                            if (!m_open.contains(id))
                                return;
                            OpenBatch &o = m_open[id];
                            if (result.ok) {
                                markSubmitted(id, result.providerId);
                            } else if (result.unknown) {
                                o.record.status = u"submit_unknown"_s;
                                save(o.record);
                                QTimer::singleShot(int(m_firstPollMs), this,
                                                   [this, id] { resolveUnknown(id); });
                            } else {
                                failBatch(id, result.error, result.error.transient);
                            }
                        });
                    return;
                }
                // Listed, and not there: it was never created. Its lines go into the next round.
                batch.record.status = u"abandoned"_s;
                batch.record.error =
                    Tr::tr("the provider has no batch with this tag; its requests were sent again");
                save(batch.record);
                failBatch(id, ApiError { ErrorCategory::Network, 0, {}, batch.record.error }, true);
                return;
            }
            if (supported) {
                // The listing failed: ask again later.
                QTimer::singleShot(int(m_firstPollMs), this, [this, id] { resolveUnknown(id); });
                return;
            }
            // No metadata to look for: honest about it.
            if (m_resubmitUnknown) {
                batch.record.status = u"abandoned"_s;
                save(batch.record);
                failBatch(id, ApiError { ErrorCategory::Network, 0, {}, batch.record.error }, true);
                return;
            }
            m_unresolvable.insert(id);
            Q_EMIT notice(submitUnknownText(batch.record));
            const QHash<QString, QPointer<BatchModelClient>> waiting =
                std::exchange(batch.waiting, {});
            for (const QPointer<BatchModelClient> &c : waiting) {
                if (c) {
                    m_unknownRuns.insert(c->runKey());
                    c->deliverError(ApiError {
                        ErrorCategory::Network, 0, {}, submitUnknownText(batch.record) });
                }
            }
            // It stays open in the store (another resume may resubmit), but not in this session.
            m_closed.append(batch.record);
            closeBatch(id);
            Q_UNUSED(client)
        });
}

void BatchRounds::failBatch(qint64 id, const ApiError &error, bool retryLines)
{
    if (!m_open.contains(id))
        return;
    OpenBatch &open = m_open[id];
    if (open.record.status != u"abandoned"_s)
        open.record.status = u"failed"_s;
    open.record.error = error.message;
    open.record.endedAt = QDateTime::currentDateTimeUtc();
    save(open.record);
    qCWarning(lcBatchRounds) << "provider batch" << id << "failed:" << error.toString()
                             << (retryLines ? "(lines retried)" : "");
    const QHash<QString, QPointer<BatchModelClient>> waiting = std::exchange(open.waiting, {});
    const QString group = open.record.engineKey;
    m_closed.append(open.record);
    closeBatch(id);
    if (retryLines) {
        for (Group &g : m_groups) {
            if (g.publicKey == group)
                g.holdUntilMs = QDateTime::currentMSecsSinceEpoch() + m_firstPollMs;
        }
    }
    for (const QPointer<BatchModelClient> &c : waiting) {
        if (!c)
            continue;
        AttemptRecord attempt;
        attempt.outcome = retryLines ? u"retry"_s : u"error"_s;
        attempt.httpStatus = error.httpStatus;
        attempt.error = error.message;
        c->m_attemptLog.append(attempt);
        if (retryLines && ++c->m_attempts <= c->m_maxAttempts)
            requeue(c);
        else
            c->deliverError(error);
    }
    scheduleCheck();
}

void BatchRounds::closeBatch(qint64 id)
{
    auto it = m_open.find(id);
    if (it == m_open.end())
        return;
    if (it->timer)
        it->timer->deleteLater();
    m_open.erase(it);
    Q_EMIT changed();
}

// ---------------------------------------------------------------------------------------------
// Polling

void BatchRounds::startPolling(qint64 id)
{
    if (!m_open.contains(id) || m_detached)
        return;
    OpenBatch &open = m_open[id];
    if (open.record.status == u"submitting"_s || open.record.status == u"submit_unknown"_s) {
        if (open.record.providerId.isEmpty()) {
            // Left half-submitted by an earlier session. OpenAI without a file: the batch
            // was certainly never created (it is created after the file id is stored).
            const bool openAi = open.record.engineType == engineTypeName(EngineType::OpenAI)
                || open.record.engineType == engineTypeName(EngineType::OpenAIResponses);
            if (!open.busy && open.record.status == u"submitting"_s && openAi
                && open.record.inputFileId.isEmpty() && open.waiting.isEmpty()
                && clientOfGroup(open.record.engineKey)) {
                open.record.status = u"abandoned"_s;
                open.record.error =
                    Tr::tr("never created (the process stopped before its file was uploaded)");
                save(open.record);
                m_closed.append(open.record);
                closeBatch(id);
                scheduleCheck();
                return;
            }
            if (!open.busy && open.waiting.isEmpty() && clientOfGroup(open.record.engineKey)) {
                open.record.status = u"submit_unknown"_s;
                save(open.record);
                resolveUnknown(id);
            }
            return;
        }
    }
    if (!open.timer) {
        open.timer = new QTimer(this);
        open.timer->setSingleShot(true);
        connect(open.timer, &QTimer::timeout, this, [this, id] { pollNow(id); });
    }
    if (open.intervalMs == 0)
        open.intervalMs = m_firstPollMs;
    open.timer->start(int(std::min<qint64>(open.intervalMs, std::numeric_limits<int>::max())));
}

void BatchRounds::pollNow(qint64 id)
{
    if (!m_open.contains(id) || m_detached)
        return;
    OpenBatch &open = m_open[id];
    ProviderBatchClient *client = clientOfGroup(open.record.engineKey);
    if (!client || open.busy)
        return;
    open.busy = true;
    client->poll(
        open.record.providerId, [this, id](const BatchStatus &status, const ApiError &error) {
            if (!m_open.contains(id) || m_detached)
                return;
            OpenBatch &batch = m_open[id];
            batch.busy = false;
            batch.intervalMs = std::min(m_maxPollMs, batch.intervalMs * 2);
            if (error.category != ErrorCategory::None) {
                qCInfo(lcBatchRounds)
                    << "poll of provider batch" << id << "failed:" << error.toString();
                Q_EMIT notice(
                    Tr::tr("could not poll provider batch %1: %2").arg(id).arg(error.toString()));
                startPolling(id);
                return;
            }
            batch.record.providerStatus = status.rawStatus;
            batch.record.counts = QJsonObject { { u"total"_s, status.total },
                                                { u"succeeded"_s, status.succeeded },
                                                { u"errored"_s, status.errored },
                                                { u"pending"_s, status.pending } };
            if (status.state == BatchStatus::State::Cancelling
                && batch.record.status != u"cancelling"_s)
                batch.record.status = u"cancelling"_s;
            save(batch.record);
            Q_EMIT changed();
            if (status.state == BatchStatus::State::Failed) {
                failBatch(id,
                          ApiError { ErrorCategory::Model, 0, status.rawStatus,
                                     status.message.isEmpty()
                                         ? Tr::tr("the provider refused the batch")
                                         : status.message },
                          false);
                return;
            }
            if (status.state == BatchStatus::State::Ended) {
                onEnded(id, status);
                return;
            }
            startPolling(id);
        });
}

void BatchRounds::onEnded(qint64 id, const BatchStatus &status)
{
    OpenBatch &open = m_open[id];
    ProviderBatchClient *client = clientOfGroup(open.record.engineKey);
    open.busy = true;
    client->fetchResults(
        status, [this, id, client](const QList<BatchLineResult> &results, const ApiError &error) {
            if (!m_open.contains(id) || m_detached)
                return;
            OpenBatch &batch = m_open[id];
            batch.busy = false;
            if (error.category != ErrorCategory::None) {
                Q_EMIT notice(Tr::tr("could not read the results of provider batch %1: %2")
                                  .arg(id)
                                  .arg(error.toString()));
                startPolling(id); // the batch is still there; try again
                return;
            }
            QHash<QString, BatchLineResult> byId;
            for (const BatchLineResult &r : results)
                byId.insert(r.customId, r);
            QList<ProviderBatchLineRecord> updated;
            for (auto it = batch.lines.begin(); it != batch.lines.end(); ++it) {
                ProviderBatchLineRecord &line = it.value();
                const auto found = byId.constFind(line.customId);
                if (found == byId.cend()) {
                    line.outcome = u"expired"_s; // no result at all: it did not run
                } else {
                    line.outcome = batchLineKindName(found->kind);
                    line.result = found->body;
                    line.error = found->error.message;
                }
                updated.append(line);
            }
            batch.record.status = u"ended"_s;
            batch.record.endedAt = QDateTime::currentDateTimeUtc();
            // Every reply is stored before any of them reaches its runner: in the writer's queue
            // the results go ahead of every call their replies lead to.
            if (m_writer) {
                m_writer->perform(
                    [record = batch.record, updated](CallStore &into) {
                        WriteResult written;
                        const StoreError stored =
                            ProviderBatchStore(into.database()).recordResults(record, updated);
                        written.id =
                            stored ? StoreResult<qint64>(stored) : StoreResult<qint64>(record.id);
                        return written;
                    },
                    this,
                    [id](const WriteResult &written) {
                        if (!written.id)
                            qCWarning(lcBatchRounds)
                                << "could not store the results of provider batch" << id
                                << written.id.error().message;
                    });
            } else if (m_batchStore) {
                if (StoreError e = m_batchStore->recordResults(batch.record, updated); e)
                    qCWarning(lcBatchRounds)
                        << "could not store the results of provider batch" << id << e.message;
            }
            m_recordOf.insert(id, batch.record);
            for (const ProviderBatchLineRecord &line : std::as_const(updated)) {
                QList<ProviderBatchLineRecord> &history = m_history[lineKeyOf(
                    runKey(line.caseId, line.variant, line.repeat), line.requestIndex)];
                for (ProviderBatchLineRecord &h : history) {
                    if (h.batchId == id && h.customId == line.customId)
                        h = line;
                }
            }
            const qint64 durationMs = batch.record.submittedAt.isValid()
                ? batch.record.submittedAt.msecsTo(batch.record.endedAt)
                : 0;
            const QHash<QString, QPointer<BatchModelClient>> waiting =
                std::exchange(batch.waiting, {});
            const QHash<QString, ProviderBatchLineRecord> lines = batch.lines;
            const ProviderBatchRecord record = batch.record;
            m_closed.append(record);
            closeBatch(id);
            qCInfo(lcBatchRounds) << "provider batch" << id << "ended:" << results.size()
                                  << "results for" << lines.size() << "lines";

            for (auto it = waiting.cbegin(); it != waiting.cend(); ++it) {
                BatchModelClient *c = it.value();
                if (!c)
                    continue;
                const ProviderBatchLineRecord line = lines.value(it.key());
                const BatchLineResult result = byId.value(it.key());
                AttemptRecord attempt;
                attempt.startedAt = record.submittedAt;
                attempt.durationMs = durationMs;
                if (line.outcome == u"succeeded"_s) {
                    QString decodeError;
                    const std::optional<ModelReply> reply =
                        client->decode(line.result, &decodeError);
                    if (reply) {
                        attempt.outcome = u"ok"_s;
                        attempt.httpStatus = 200;
                        attempt.finishReason = reply->finishReason;
                        attempt.rawFinishReason = reply->rawFinishReason;
                        attempt.usage = reply->usage;
                        c->m_attemptLog.append(attempt);
                        ModelOutcome outcome;
                        outcome.reply = reply;
                        outcome.attempts = c->m_attemptLog;
                        outcome.requestBody = c->m_body;
                        outcome.rawResponse = line.result;
                        outcome.rawResponseBytes = line.result.size();
                        c->deliver(outcome);
                        continue;
                    }
                    attempt.outcome = u"error"_s;
                    attempt.error = decodeError;
                    c->m_attemptLog.append(attempt);
                    c->deliverError(ApiError { ErrorCategory::Other, 200, {}, decodeError });
                    continue;
                }
                if (line.outcome == u"expired"_s || line.outcome == u"canceled"_s) {
                    attempt.outcome = u"retry"_s;
                    attempt.error = line.outcome == u"expired"_s
                        ? Tr::tr("the line expired in the batch")
                        : Tr::tr("the line was cancelled in the batch");
                    c->m_attemptLog.append(attempt);
                    if (++c->m_expiries <= MaxExpiries) {
                        requeue(c);
                    } else {
                        c->deliverError(ApiError {
                            ErrorCategory::Network,
                            0,
                            {},
                            QCoreApplication::translate(
                                "BatchRounds", "the request expired in %n batch(es) in a row",
                                nullptr, MaxExpiries + 1) });
                    }
                    continue;
                }
                // Errored: like a failed direct attempt, retried while the request has attempts
                // left.
                attempt.outcome = u"retry"_s;
                attempt.httpStatus = result.error.httpStatus;
                attempt.error = result.error.message;
                ++c->m_attempts;
                if (result.error.transient && c->m_attempts < c->m_maxAttempts) {
                    c->m_attemptLog.append(attempt);
                    requeue(c);
                } else {
                    attempt.outcome = u"error"_s;
                    c->m_attemptLog.append(attempt);
                    c->deliverError(result.error);
                }
            }
            scheduleCheck();
        });
}

// ---------------------------------------------------------------------------------------------
// Cancel, detach, overview

void BatchRounds::cancel()
{
    m_cancelling = true;
    QList<qint64> known;
    for (auto it = m_open.begin(); it != m_open.end(); ++it) {
        OpenBatch &open = it.value();
        if (!clientOfGroup(open.record.engineKey) || open.cancelRequested)
            continue;
        if (open.record.providerId.isEmpty()) {
            // Being created: cancelled as soon as the provider's answer names it (above).
            if (open.submitInFlight) {
                open.cancelRequested = true;
                ++m_cancelsPending;
            }
            continue;
        }
        known.append(it.key());
    }
    for (const qint64 id : std::as_const(known)) {
        m_open[id].cancelRequested = true;
        ++m_cancelsPending;
        cancelAtProvider(id);
    }
    // Batches being stored are never sent now; the cancel is answered once their writes are.
    for (const int creating : std::as_const(m_creating)) {
        m_createsToAnswer += creating;
        m_cancelsPending += creating;
    }
    if (m_cancelsPending == 0)
        QTimer::singleShot(0, this, [this] { Q_EMIT cancelRequestsAnswered(); });
    // Queued requests never go out now.
    for (Group &group : m_groups) {
        const QList<QPointer<BatchModelClient>> queued = std::exchange(group.queued, {});
        for (const QPointer<BatchModelClient> &c : queued) {
            if (c)
                requeue(c);
        }
    }
    Q_EMIT changed();
}

void BatchRounds::cancelAtProvider(qint64 id)
{
    OpenBatch &open = m_open[id];
    ProviderBatchClient *client = clientOfGroup(open.record.engineKey);
    open.record.status = u"cancelling"_s;
    save(open.record);
    client->cancel(open.record.providerId, [this, id](const ApiError &error) {
        if (error.category != ErrorCategory::None)
            Q_EMIT notice(
                Tr::tr("could not cancel provider batch %1: %2").arg(id).arg(error.toString()));
        cancelAnswered();
    });
}

void BatchRounds::cancelAnswered()
{
    if (--m_cancelsPending == 0)
        Q_EMIT cancelRequestsAnswered();
}

void BatchRounds::detach()
{
    m_detached = true;
    for (OpenBatch &open : m_open) {
        if (open.timer)
            open.timer->stop();
    }
}

BatchRoundsOverview BatchRounds::overview() const
{
    BatchRoundsOverview o;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    auto stateOf = [&now](const ProviderBatchRecord &r) {
        BatchRoundState s;
        s.batchId = r.id;
        s.engine = r.engineKey.section(u'|', 0, 2);
        s.engineType = r.engineType;
        s.round = r.round;
        s.part = r.part;
        s.status = r.status;
        s.providerStatus = r.providerStatus;
        s.providerId = r.providerId;
        s.lines = r.lineCount;
        s.succeeded = r.counts.value(u"succeeded"_s).toInt();
        s.errored = r.counts.value(u"errored"_s).toInt();
        s.pending = r.counts.value(u"pending"_s).toInt(r.isOpen() ? r.lineCount : 0);
        s.createdAt = r.createdAt;
        s.submittedAt = r.submittedAt;
        s.endedAt = r.endedAt;
        if (r.submittedAt.isValid())
            s.waitingMs = r.submittedAt.msecsTo(r.endedAt.isValid() ? r.endedAt : now);
        return s;
    };
    QList<ProviderBatchRecord> all = m_closed;
    for (const OpenBatch &open : m_open) {
        all.append(open.record);
        ++o.openBatches;
        o.waitingRequests += int(open.waiting.size());
    }
    std::sort(
        all.begin(), all.end(),
        [](const ProviderBatchRecord &a, const ProviderBatchRecord &b) { return a.id < b.id; });
    for (const ProviderBatchRecord &r : all)
        o.batches.append(stateOf(r));
    for (const Group &group : m_groups) {
        o.queuedRequests += int(group.queued.size());
        for (const QPointer<BatchModelClient> &c : group.live)
            o.runsWorking += c
                    && (c->state() == BatchModelClient::State::Idle
                        || c->state() == BatchModelClient::State::Delivering)
                ? 1
                : 0;
    }
    o.runsWorking += int(m_starting.size());
    return o;
}

} // namespace Callscope
