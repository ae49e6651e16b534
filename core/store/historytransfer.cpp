#include "core/store/historytransfer.h"

#include "core/store/callstore_p.h"
#include "core/store/searchindex.h"
#include "core/store/storequery.h"

#include <QHash>
#include <QSet>
#include <QSqlQuery>

#include <optional>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

constexpr int kMaxErrors = 5;

constexpr auto kCallUuid = "SELECT uuid FROM calls WHERE id = ?"_L1;
constexpr auto kCallBatch = "SELECT batch_id, line FROM batch_calls WHERE call_id = ? LIMIT 1"_L1;
constexpr auto kBatchById = R"(SELECT spec_path, spec_hash, spec, inputs_path, inputs_hash,
    total_lines, created_at FROM batches WHERE id = ?)"_L1;
constexpr auto kFindBatch = R"(SELECT id FROM batches WHERE spec_path = ? AND spec_hash = ?
    AND inputs_path = ? AND inputs_hash = ? AND created_at = ? ORDER BY id LIMIT 1)"_L1;
constexpr auto kRunsOfCall = "SELECT id FROM experiment_runs WHERE call_id = ?"_L1;
constexpr auto kRunsWithoutCall =
    "SELECT id, experiment_id FROM experiment_runs WHERE call_id IS NULL ORDER BY id"_L1;
constexpr auto kRunExperiment = "SELECT experiment_id FROM experiment_runs WHERE id = ?"_L1;
constexpr auto kRunByUuid = "SELECT 1 FROM experiment_runs WHERE uuid = ?"_L1;
constexpr auto kDeleteRun = "DELETE FROM experiment_runs WHERE id = ?"_L1;
constexpr auto kDeleteCall = "DELETE FROM calls WHERE id = ?"_L1;
constexpr auto kDeleteIdleExperiments =
    R"(DELETE FROM experiments WHERE NOT EXISTS (SELECT 1 FROM experiment_runs r
    WHERE r.experiment_id = experiments.id) AND NOT EXISTS (SELECT 1 FROM provider_batches p
    WHERE p.experiment_id = experiments.id) AND NOT EXISTS (SELECT 1 FROM review_labels l
    WHERE l.experiment_id = experiments.id))"_L1;
constexpr auto kDeleteIdleBatches = R"(DELETE FROM batches WHERE NOT EXISTS (SELECT 1 FROM
    batch_calls b WHERE b.batch_id = batches.id))"_L1;
constexpr auto kDeleteIdleSessions = R"(DELETE FROM sessions WHERE NOT EXISTS (SELECT 1 FROM
    calls c WHERE c.session_id = sessions.id))"_L1;

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(HistoryTransfer)
};

class Transfer
{
public:
    Transfer(CallStore &from, CallStore &to, TransferOutcome &outcome)
        : m_from(from)
        , m_to(to)
        , m_out(outcome)
    { }

    StoreResult<QList<qint64>> selectCalls(const TransferFilter &filter)
    {
        QString sql = u"SELECT id FROM calls WHERE 1 = 1"_s;
        QVariantList values;
        if (filter.since.isValid()) {
            sql += u" AND created_at >= ?"_s;
            values.append(filter.since.toMSecsSinceEpoch());
        }
        if (!filter.kind.isEmpty()) {
            sql += u" AND kind = ?"_s;
            values.append(filter.kind);
        }
        sql += u" ORDER BY id"_s;
        auto query = runQuery(m_from.database(), sql, values, Tr::tr("choosing the calls to send"));
        if (!query)
            return query.error();
        QList<qint64> ids;
        while (query->next())
            ids.append(query->value(0).toLongLong());
        return ids;
    }

    // Sends one call; true when the target has it now (sent, or there before).
    bool sendCall(qint64 id)
    {
        auto record = m_from.getCall(id);
        if (!record)
            return fail(id, record.error());
        CallRecord call = record.value();
        if (call.uuid.isEmpty())
            return fail(
                id,
                StoreError::make(StoreError::Code::InvalidInput, Tr::tr("the call has no UUID")));
        auto there = m_to.findCallByUuid(call.uuid);
        if (!there)
            return fail(id, there.error());
        if (there.value() > 0) {
            m_callMap.insert(id, there.value());
            ++m_out.alreadyThere;
            return true;
        }
        auto exchanges = m_from.exchanges(id);
        if (!exchanges)
            return fail(id, exchanges.error());
        call.exchanges = exchanges.value();
        call.id = 0;

        // A revision's parent: the target's call of the same UUID (parents go first).
        if (call.parent) {
            auto parent = targetCallOf(*call.parent);
            if (!parent)
                return fail(id, parent.error());
            call.parent = parent.value() > 0 ? std::optional<qint64>(parent.value()) : std::nullopt;
        }
        // The session, and the messages this call added to it.
        QList<SessionMessage> messages;
        if (call.session) {
            const qint64 source = *call.session;
            auto session = targetSessionOf(source);
            if (!session)
                return fail(id, session.error());
            if (call.firstSequence) {
                auto all = m_from.sessionMessages(source, CallStore::MessageView::All);
                if (!all)
                    return fail(id, all.error());
                const qint64 last = call.lastSequence.value_or(*call.firstSequence);
                for (SessionMessage message : all.value()) {
                    if (message.sequence < *call.firstSequence || message.sequence > last)
                        continue;
                    message.compactedBy.reset();
                    messages.append(message);
                }
            }
            call.session = session.value();
            call.firstSequence.reset();
            call.lastSequence.reset();
        }
        // The experiment the call belongs to, by the target's id.
        for (const QString &key : { u"experiment_id"_s }) {
            const QJsonValue experiment = call.metadata.value(key);
            if (!experiment.isDouble())
                continue;
            auto mapped = targetExperimentOf(qint64(experiment.toDouble()));
            if (!mapped)
                return fail(id, mapped.error());
            if (mapped.value() > 0)
                call.metadata.insert(key, mapped.value());
        }
        InsertOptions options;
        {
            auto link = runQuery(m_from.database(), kCallBatch, { id },
                                 Tr::tr("reading the batch of call %1").arg(id));
            if (!link)
                return fail(id, link.error());
            if (link->next()) {
                const qint64 sourceBatch = link->value(0).toLongLong();
                const int line = link->value(1).toInt();
                auto batch = targetBatchOf(sourceBatch);
                if (!batch)
                    return fail(id, batch.error());
                if (batch.value() > 0)
                    options.batch = BatchLink { batch.value(), line };
            }
        }
        auto stored = m_to.insertCall(call, messages, options);
        if (!stored)
            return fail(id, stored.error());
        m_callMap.insert(id, stored.value());
        ++m_out.sent;
        return true;
    }

    // The runs of the calls that went across, then (for a whole history) the runs without a
    // call. Ids of the source's runs the target has now land in `done`.
    void sendRuns(const QList<qint64> &calls, bool withoutCall, QList<qint64> *done)
    {
        QList<std::pair<qint64, qint64>> runs; // run id, source experiment id
        for (qint64 call : calls) {
            auto query = runQuery(m_from.database(), kRunsOfCall, { call },
                                  Tr::tr("reading the runs of call %1").arg(call));
            if (!query) {
                failRun(query.error());
                return;
            }
            while (query->next())
                runs.append({ query->value(0).toLongLong(), 0 });
        }
        if (withoutCall) {
            auto query = runQuery(m_from.database(), kRunsWithoutCall, {},
                                  Tr::tr("reading the experiment runs"));
            if (!query) {
                failRun(query.error());
                return;
            }
            while (query->next())
                runs.append({ query->value(0).toLongLong(), query->value(1).toLongLong() });
        }
        QHash<qint64, QList<ExperimentRunRecord>> byExperiment; // source experiment's runs
        for (auto [runId, experimentId] : runs) {
            if (m_out.unreachable)
                return;
            if (experimentId == 0) {
                auto query = runQuery(m_from.database(), kRunExperiment, { runId },
                                      Tr::tr("reading experiment run %1").arg(runId));
                if (!query || !query->next()) {
                    failRun(query ? StoreError::make(StoreError::Code::NotFound,
                                                     Tr::tr("no run %1").arg(runId))
                                  : query.error());
                    continue;
                }
                experimentId = query->value(0).toLongLong();
            }
            if (!byExperiment.contains(experimentId)) {
                auto all = m_from.experimentRuns(experimentId);
                if (!all) {
                    failRun(all.error());
                    continue;
                }
                byExperiment.insert(experimentId, all.value());
            }
            const QList<ExperimentRunRecord> &list = byExperiment[experimentId];
            const auto it = std::find_if(list.begin(), list.end(),
                                         [runId](const auto &r) { return r.id == runId; });
            if (it == list.end())
                continue;
            ExperimentRunRecord run = *it;
            if (!run.uuid.isEmpty()) {
                auto there = runQuery(m_to.database(), kRunByUuid, { run.uuid },
                                      Tr::tr("looking up experiment run %1").arg(run.uuid));
                if (!there) {
                    failRun(there.error());
                    continue;
                }
                if (there->next()) {
                    ++m_out.runsAlreadyThere;
                    done->append(runId);
                    continue;
                }
            }
            auto experiment = targetExperimentOf(experimentId);
            if (!experiment || experiment.value() == 0) {
                failRun(experiment ? StoreError::make(StoreError::Code::NotFound,
                                                      Tr::tr("no experiment %1").arg(experimentId))
                                   : experiment.error());
                continue;
            }
            run.id = 0;
            run.experimentId = experiment.value();
            if (run.callId) {
                const qint64 target = m_callMap.value(*run.callId);
                run.callId = target > 0 ? std::optional<qint64>(target) : std::nullopt;
            }
            auto saved = m_to.saveExperimentRun(run);
            if (!saved) {
                failRun(saved.error());
                continue;
            }
            ++m_out.runsSent;
            done->append(runId);
        }
    }

    const QHash<qint64, qint64> &callMap() const { return m_callMap; }

private:
    bool fail(qint64 id, const StoreError &error)
    {
        if (error.code == StoreError::Code::Unreachable) {
            m_out.unreachable = true;
            note(error.message);
            return false;
        }
        ++m_out.failed;
        note(Tr::tr("call %1: %2").arg(id).arg(error.message));
        return false;
    }

    void failRun(const StoreError &error)
    {
        if (error.code == StoreError::Code::Unreachable)
            m_out.unreachable = true;
        else
            ++m_out.runsFailed;
        note(error.message);
    }

    void note(const QString &message)
    {
        if (m_out.errors.size() < kMaxErrors && !m_out.errors.contains(message))
            m_out.errors.append(message);
    }

    // The target's id of the source's call `id` (0: not on the target).
    StoreResult<qint64> targetCallOf(qint64 id)
    {
        if (const qint64 mapped = m_callMap.value(id); mapped > 0)
            return mapped;
        auto query =
            runQuery(m_from.database(), kCallUuid, { id }, Tr::tr("reading call %1").arg(id));
        if (!query)
            return query.error();
        if (!query->next())
            return qint64(0);
        return m_to.findCallByUuid(query->value(0).toString());
    }

    StoreResult<qint64> targetSessionOf(qint64 id)
    {
        if (const qint64 mapped = m_sessionMap.value(id); mapped > 0)
            return mapped;
        auto session = m_from.getSession(id);
        if (!session)
            return session.error();
        Session copy = session.value();
        auto there = m_to.findSessionByUuid(copy.uuid);
        if (!there)
            return there.error();
        qint64 target = there.value();
        if (target == 0) {
            copy.id = 0;
            copy.summary.clear();
            copy.summaryThrough.reset();
            auto made = m_to.createSession(copy);
            if (!made)
                return made.error();
            target = made.value();
        }
        m_sessionMap.insert(id, target);
        return target;
    }

    StoreResult<qint64> targetExperimentOf(qint64 id)
    {
        if (const auto it = m_experimentMap.constFind(id); it != m_experimentMap.constEnd())
            return it.value();
        auto experiment = m_from.getExperiment(id);
        if (!experiment)
            return experiment.error();
        qint64 target = 0;
        if (experiment.value()) {
            const ExperimentRecord &e = *experiment.value();
            auto candidates = m_to.findExperiments(e.definitionHash);
            if (!candidates)
                return candidates.error();
            for (const ExperimentRecord &c : candidates.value()) {
                if (c.name == e.name
                    && c.createdAt.toMSecsSinceEpoch() == e.createdAt.toMSecsSinceEpoch()) {
                    target = c.id;
                    break;
                }
            }
            if (target == 0) {
                ExperimentRecord copy = e;
                copy.id = 0;
                auto made = m_to.createExperiment(copy);
                if (!made)
                    return made.error();
                target = made.value();
            }
        }
        m_experimentMap.insert(id, target);
        return target;
    }

    StoreResult<qint64> targetBatchOf(qint64 id)
    {
        if (const auto it = m_batchMap.constFind(id); it != m_batchMap.constEnd())
            return it.value();
        auto query =
            runQuery(m_from.database(), kBatchById, { id }, Tr::tr("reading batch %1").arg(id));
        if (!query)
            return query.error();
        qint64 target = 0;
        if (query->next()) {
            BatchInfo batch;
            batch.specPath = query->value(0).toString();
            batch.specHash = query->value(1).toString().toLatin1();
            batch.spec = CallStoreDetail::objectFrom(query->value(2));
            batch.inputsPath = query->value(3).toString();
            batch.inputsHash = query->value(4).toString().toLatin1();
            batch.totalLines = query->value(5).toInt();
            batch.createdAt = CallStoreDetail::timeFrom(query->value(6));
            auto found = runQuery(m_to.database(), kFindBatch,
                                  { batch.specPath, QString::fromLatin1(batch.specHash),
                                    batch.inputsPath, QString::fromLatin1(batch.inputsHash),
                                    batch.createdAt.toMSecsSinceEpoch() },
                                  Tr::tr("looking up a batch"));
            if (!found)
                return found.error();
            if (found->next()) {
                target = found->value(0).toLongLong();
            } else {
                auto made = m_to.createBatch(batch);
                if (!made)
                    return made.error();
                target = made.value();
            }
        }
        m_batchMap.insert(id, target);
        return target;
    }

    CallStore &m_from;
    CallStore &m_to;
    TransferOutcome &m_out;
    QHash<qint64, qint64> m_callMap;
    QHash<qint64, qint64> m_sessionMap;
    QHash<qint64, qint64> m_experimentMap;
    QHash<qint64, qint64> m_batchMap;
};

// Deletes a call of the source with its search entry (its turns, attempts, exchanges and batch
// line go with it), in one transaction.
StoreError removeCall(CallStore &store, qint64 id)
{
    auto record = store.getCall(id);
    if (!record)
        return record.error().code == StoreError::Code::NotFound ? StoreError() : record.error();
    Database &db = store.database();
    Transaction transaction(db);
    if (transaction.beginError())
        return transaction.beginError();
    const CallRecord &r = record.value();
    if (StoreError error =
            SearchIndex::remove(db, db.searchMode(), id,
                                SearchIndex::documentFor(r.input, r.response, r.error, r.messages));
        error)
        return error;
    if (auto query = runQuery(db, kDeleteCall, { id }, Tr::tr("removing call %1").arg(id)); !query)
        return query.error();
    return transaction.commit();
}

} // namespace

HistoryTransfer::HistoryTransfer(CallStore &from, CallStore &to)
    : m_from(from)
    , m_to(to)
{ }

TransferOutcome HistoryTransfer::run()
{
    TransferOutcome out;
    Transfer transfer(m_from, m_to, out);
    auto ids = transfer.selectCalls(m_filter);
    if (!ids) {
        out.errors.append(ids.error().message);
        out.failed = 1;
        return out;
    }
    out.total = int(ids->size());
    QList<qint64> across; // source calls the target has now
    int done = 0;
    for (qint64 id : ids.value()) {
        if (m_cancel && m_cancel->load()) {
            out.cancelled = true;
            break;
        }
        if (transfer.sendCall(id))
            across.append(id);
        if (out.unreachable)
            break;
        ++done;
        if (m_progress)
            m_progress(done, out.total);
    }
    QList<qint64> runsDone;
    if (!out.unreachable && !out.cancelled) {
        const bool wholeHistory = !m_filter.since.isValid() && m_filter.kind.isEmpty();
        transfer.sendRuns(across, wholeHistory, &runsDone);
    }
    if (!m_removeSent || out.unreachable)
        return out;
    // Only what the target confirmed leaves the source; a run goes before its call (the call's
    // removal would unlink it).
    Database &db = m_from.database();
    for (qint64 run : std::as_const(runsDone)) {
        if (auto query = runQuery(db, kDeleteRun, { run }, Tr::tr("removing a sent run")); !query)
            out.errors.append(query.error().message);
    }
    // A call whose run did not go across stays with it, to be sent with it next time.
    QSet<qint64> keep;
    {
        QSet<qint64> runsSent(runsDone.begin(), runsDone.end());
        for (qint64 call : std::as_const(across)) {
            auto query = runQuery(db, kRunsOfCall, { call }, Tr::tr("reading the runs of a call"));
            if (!query)
                continue;
            while (query->next()) {
                if (!runsSent.contains(query->value(0).toLongLong()))
                    keep.insert(call);
            }
        }
    }
    for (qint64 call : std::as_const(across)) {
        if (keep.contains(call))
            continue;
        if (StoreError error = removeCall(m_from, call); error)
            out.errors.append(error.message);
        else
            ++out.removed;
    }
    for (QLatin1StringView sql :
         { kDeleteIdleExperiments, kDeleteIdleBatches, kDeleteIdleSessions }) {
        if (auto query = runQuery(db, sql, {}, Tr::tr("removing what was sent")); !query)
            out.errors.append(query.error().message);
    }
    return out;
}

} // namespace Callscope
