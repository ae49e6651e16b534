// CallStore: experiments, their runs, and the calls and judge calls an experiment made.

#include "core/store/callstore.h"
#include "core/store/callstore_p.h"
#include "core/store/identity.h"
#include "core/store/storequery.h"

#include <QJsonDocument>
#include <QSqlQuery>

#include <limits>

using namespace Qt::StringLiterals;

namespace Callscope {

using namespace CallStoreDetail;

namespace {

constexpr auto kInsertExperiment =
    R"(INSERT INTO experiments (name, path, definition_hash, definition,
    created_at) VALUES (?, ?, ?, ?, ?))"_L1;
constexpr auto kSelectLatestExperimentNamed =
    "SELECT id FROM experiments WHERE name = ? AND id < ? ORDER BY id DESC LIMIT 1"_L1;
constexpr auto kSelectExperiment =
    "SELECT id, name, path, definition_hash, definition, created_at FROM experiments WHERE id = ?"_L1;
constexpr auto kSaveExperimentRun =
    R"(INSERT INTO experiment_runs (experiment_id, case_id, variant, repeat,
    call_id, status, passed, assertions, latency_ms, input_tokens, output_tokens, cost_usd, created_at,
    direct_cost_usd, cached, cache_saved_usd, cache_read_tokens, cache_write_tokens, uncached_cost_usd,
    uuid, person, machine)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (experiment_id, case_id, variant, repeat) DO UPDATE SET call_id = excluded.call_id,
    status = excluded.status, passed = excluded.passed, assertions = excluded.assertions,
    latency_ms = excluded.latency_ms, input_tokens = excluded.input_tokens,
    output_tokens = excluded.output_tokens, cost_usd = excluded.cost_usd, created_at = excluded.created_at,
    direct_cost_usd = excluded.direct_cost_usd, cached = excluded.cached,
    cache_saved_usd = excluded.cache_saved_usd, cache_read_tokens = excluded.cache_read_tokens,
    cache_write_tokens = excluded.cache_write_tokens, uncached_cost_usd = excluded.uncached_cost_usd)"_L1;
constexpr auto kSelectExperimentRuns =
    R"(SELECT id, experiment_id, case_id, variant, repeat, call_id, status,
    passed, assertions, latency_ms, input_tokens, output_tokens, cost_usd, direct_cost_usd, cached,
    cache_saved_usd, cache_read_tokens, cache_write_tokens, uncached_cost_usd, uuid, person, machine
    FROM experiment_runs WHERE experiment_id = ? ORDER BY id)"_L1;
constexpr auto kSelectExperimentsByHash =
    R"(SELECT id, name, path, definition_hash, definition, created_at FROM experiments
    WHERE definition_hash = ? ORDER BY id DESC)"_L1;
constexpr auto kSaveReviewLabel =
    R"(INSERT INTO review_labels (experiment_id, run_id, call_id, case_id, variant, repeat,
    verdict, score, note, reviewer, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (experiment_id, case_id, variant, repeat, reviewer) DO UPDATE SET
    run_id = excluded.run_id, call_id = excluded.call_id, verdict = excluded.verdict,
    score = excluded.score, note = excluded.note, created_at = excluded.created_at)"_L1;
// The id of a label by its key: after an upsert that updated the row, SQLite's last insert id
// is another row's.
constexpr auto kSelectReviewLabelId =
    R"(SELECT id FROM review_labels WHERE experiment_id = ? AND case_id = ? AND variant = ?
    AND repeat = ? AND reviewer = ?)"_L1;
constexpr auto kDeleteReviewLabel =
    R"(DELETE FROM review_labels WHERE experiment_id = ? AND case_id = ? AND variant = ?
    AND repeat = ? AND reviewer = ?)"_L1;
constexpr auto kSelectReviewLabels =
    R"(SELECT id, experiment_id, run_id, call_id, case_id, variant, repeat, verdict, score, note,
    reviewer, created_at FROM review_labels WHERE experiment_id = ? ORDER BY id)"_L1;
// The SQL of experimentCompletedCalls() and experimentJudgeCalls(): they read the calls'
// metadata.
QString selectExperimentCompletedCalls(const SqlDialect &d)
{
    return uR"(SELECT id, %1, %2, %3 FROM calls WHERE created_at >= ? AND status = 'completed'
    AND %4 AND %1 IS NOT NULL ORDER BY id)"_s.arg(
        d.jsonField(u"metadata", u"case"), d.jsonField(u"metadata", u"variant"),
        d.jsonField(u"metadata", u"repeat"), d.jsonFieldEquals(u"metadata", u"experiment_id"));
}

QString selectExperimentJudgeCalls(const SqlDialect &d)
{
    return uR"(SELECT id, %1, %2, response FROM calls WHERE kind = 'judge' AND created_at >= ?
    AND status = 'completed' AND %3 AND %1 IS NOT NULL ORDER BY id)"_s.arg(
        d.jsonField(u"metadata", u"judge_of"), d.jsonField(u"metadata", u"judge_key"),
        d.jsonFieldEquals(u"metadata", u"experiment_id"));
}

// A row of kSelectExperiment / kSelectExperimentsByHash.
ExperimentRecord experimentFrom(const QSqlQuery &query)
{
    ExperimentRecord e;
    e.id = query.value(0).toLongLong();
    e.name = query.value(1).toString();
    e.path = query.value(2).toString();
    e.definitionHash = query.value(3).toString().toLatin1();
    e.definition = QJsonDocument::fromJson(query.value(4).toString().toUtf8()).object();
    e.createdAt = QDateTime::fromMSecsSinceEpoch(query.value(5).toLongLong(), Qt::UTC);
    return e;
}

QVariant optionalDouble(const std::optional<double> &value)
{
    return value ? QVariant(*value) : QVariant();
}

} // namespace

StoreResult<qint64> CallStore::createExperiment(const ExperimentRecord &given)
{
    ExperimentRecord experiment = given;
    if (!experiment.createdAt.isValid())
        experiment.createdAt = QDateTime::currentDateTimeUtc();
    auto id = inTransaction<qint64>(m_database, [&]() -> StoreResult<qint64> {
        QSqlQuery &insert = insertStatement(kInsertExperiment);
        const QDateTime created = experiment.createdAt;
        if (StoreError error = runStatement(
                m_database, insert,
                { experiment.name, experiment.path, QString::fromLatin1(experiment.definitionHash),
                  QString::fromUtf8(
                      QJsonDocument(experiment.definition).toJson(QJsonDocument::Compact)),
                  created.toMSecsSinceEpoch() },
                Tr::tr("storing an experiment"));
            error)
            return error;
        return insertedId(insert);
    });
    if (id) {
        experiment.id = id.value();
        m_created.experiments.append(experiment);
    }
    return id;
}

StoreResult<std::optional<ExperimentRecord>> CallStore::getExperiment(qint64 id)
{
    auto query =
        runQuery(m_database, kSelectExperiment, { id }, Tr::tr("reading experiment %1").arg(id));
    if (!query)
        return query.error();
    if (!query->next())
        return std::optional<ExperimentRecord>();
    return std::optional<ExperimentRecord>(experimentFrom(*query));
}

StoreResult<std::optional<qint64>> CallStore::latestExperimentNamed(const QString &name,
                                                                    qint64 before)
{
    auto query = runQuery(m_database, kSelectLatestExperimentNamed,
                          { name, before > 0 ? before : std::numeric_limits<qint64>::max() },
                          Tr::tr("reading the stored experiments"));
    if (!query)
        return query.error();
    if (!query->next())
        return std::optional<qint64>();
    return std::optional<qint64>(query->value(0).toLongLong());
}

StoreResult<QList<ExperimentRecord>> CallStore::findExperiments(const QByteArray &definitionHash)
{
    auto query =
        runQuery(m_database, kSelectExperimentsByHash, { QString::fromLatin1(definitionHash) },
                 Tr::tr("reading the stored experiments"));
    if (!query)
        return query.error();
    QList<ExperimentRecord> out;
    while (query->next())
        out.append(experimentFrom(*query));
    return out;
}

StoreResult<qint64> CallStore::saveExperimentRun(const ExperimentRunRecord &run)
{
    return inTransaction<qint64>(m_database, [&]() -> StoreResult<qint64> {
        QSqlQuery &insert = insertStatement(kSaveExperimentRun);
        if (StoreError error = runStatement(
                m_database, insert,
                { run.experimentId,
                  run.caseId,
                  run.variant,
                  run.repeat,
                  run.callId ? QVariant(*run.callId) : QVariant(),
                  run.status,
                  run.passed ? 1 : 0,
                  QString::fromUtf8(QJsonDocument(run.assertions).toJson(QJsonDocument::Compact)),
                  run.latencyMs,
                  run.inputTokens,
                  run.outputTokens,
                  optionalDouble(run.costUsd),
                  QDateTime::currentMSecsSinceEpoch(),
                  optionalDouble(run.directCostUsd),
                  run.cached ? 1 : 0,
                  optionalDouble(run.cacheSavedUsd),
                  run.cacheReadTokens,
                  run.cacheWriteTokens,
                  optionalDouble(run.uncachedCostUsd),
                  run.uuid.isEmpty() ? Identity::newUuid() : run.uuid,
                  run.person.isEmpty() ? Identity::person() : run.person,
                  run.machine.isEmpty() ? Identity::machine() : run.machine },
                Tr::tr("storing a run of experiment %1").arg(run.experimentId));
            error)
            return error;
        return insertedId(insert);
    });
}

StoreResult<QList<CallStore::ExperimentCall>>
CallStore::experimentCompletedCalls(qint64 experimentId, const QDateTime &since)
{
    auto query = runQuery(m_database, selectExperimentCompletedCalls(m_database.dialect()),
                          { since.isValid() ? since.toMSecsSinceEpoch() : qint64(0), experimentId },
                          Tr::tr("reading the calls of experiment %1").arg(experimentId));
    if (!query)
        return query.error();
    QList<ExperimentCall> calls;
    while (query->next())
        calls.append({ query->value(0).toLongLong(), query->value(1).toString(),
                       query->value(2).toString(), query->value(3).toInt() });
    return calls;
}

StoreResult<QList<CallStore::JudgeCall>> CallStore::experimentJudgeCalls(qint64 experimentId,
                                                                         const QDateTime &since)
{
    auto query = runQuery(m_database, selectExperimentJudgeCalls(m_database.dialect()),
                          { since.isValid() ? since.toMSecsSinceEpoch() : qint64(0), experimentId },
                          Tr::tr("reading the judges of experiment %1").arg(experimentId));
    if (!query)
        return query.error();
    QList<JudgeCall> calls;
    while (query->next()) {
        JudgeCall call;
        call.callId = query->value(0).toLongLong();
        call.judgedCallId = query->value(1).toLongLong();
        call.judgeKey = query->value(2).toString();
        call.response = QJsonDocument::fromJson(query->value(3).toByteArray()).object();
        calls.append(call);
    }
    return calls;
}

StoreResult<QList<ExperimentRunRecord>> CallStore::experimentRuns(qint64 experimentId)
{
    auto query = runQuery(m_database, kSelectExperimentRuns, { experimentId },
                          Tr::tr("reading the runs of experiment %1").arg(experimentId));
    if (!query)
        return query.error();
    QList<ExperimentRunRecord> runs;
    while (query->next()) {
        const QSqlQuery &q = *query;
        ExperimentRunRecord r;
        r.id = q.value(0).toLongLong();
        r.experimentId = q.value(1).toLongLong();
        r.caseId = q.value(2).toString();
        r.variant = q.value(3).toString();
        r.repeat = q.value(4).toInt();
        if (!q.value(5).isNull())
            r.callId = q.value(5).toLongLong();
        r.status = q.value(6).toString();
        r.passed = q.value(7).toInt() != 0;
        r.assertions = QJsonDocument::fromJson(q.value(8).toString().toUtf8()).array();
        r.latencyMs = q.value(9).toLongLong();
        r.inputTokens = q.value(10).toLongLong();
        r.outputTokens = q.value(11).toLongLong();
        if (!q.value(12).isNull())
            r.costUsd = q.value(12).toDouble();
        if (!q.value(13).isNull())
            r.directCostUsd = q.value(13).toDouble();
        r.cached = q.value(14).toInt() != 0;
        if (!q.value(15).isNull())
            r.cacheSavedUsd = q.value(15).toDouble();
        r.cacheReadTokens = q.value(16).toLongLong();
        r.cacheWriteTokens = q.value(17).toLongLong();
        if (!q.value(18).isNull())
            r.uncachedCostUsd = q.value(18).toDouble();
        r.uuid = q.value(19).toString();
        r.person = q.value(20).toString();
        r.machine = q.value(21).toString();
        runs.append(r);
    }
    return runs;
}

StoreResult<qint64> CallStore::saveReviewLabel(const ReviewLabel &label)
{
    return inTransaction<qint64>(m_database, [&]() -> StoreResult<qint64> {
        QSqlQuery &insert = insertStatement(kSaveReviewLabel);
        const QDateTime created =
            label.createdAt.isValid() ? label.createdAt : QDateTime::currentDateTimeUtc();
        if (StoreError error = runStatement(
                m_database, insert,
                { label.experimentId, optionalValue(label.runId), optionalValue(label.callId),
                  label.caseId, label.variant, label.repeat, label.verdict,
                  label.score ? QVariant(*label.score) : QVariant(), label.note, label.reviewer,
                  created.toMSecsSinceEpoch() },
                Tr::tr("storing a label of experiment %1").arg(label.experimentId));
            error)
            return error;
        auto id = runQuery(
            m_database, kSelectReviewLabelId,
            { label.experimentId, label.caseId, label.variant, label.repeat, label.reviewer },
            Tr::tr("storing a label of experiment %1").arg(label.experimentId));
        if (!id)
            return id.error();
        if (!id->next())
            return StoreError::make(
                StoreError::Code::NotFound,
                Tr::tr("the label of experiment %1 was not stored").arg(label.experimentId));
        return id->value(0).toLongLong();
    });
}

StoreError CallStore::deleteReviewLabel(qint64 experimentId, const QString &caseId,
                                        const QString &variant, int repeat, const QString &reviewer)
{
    auto done = inTransaction<qint64>(m_database, [&]() -> StoreResult<qint64> {
        if (StoreError error =
                runStatement(m_database, statement(kDeleteReviewLabel),
                             { experimentId, caseId, variant, repeat, reviewer },
                             Tr::tr("removing a label of experiment %1").arg(experimentId));
            error)
            return error;
        return qint64(0);
    });
    return done ? StoreError() : done.error();
}

StoreResult<QList<ReviewLabel>> CallStore::reviewLabels(qint64 experimentId)
{
    auto query = runQuery(m_database, kSelectReviewLabels, { experimentId },
                          Tr::tr("reading the labels of experiment %1").arg(experimentId));
    if (!query)
        return query.error();
    QList<ReviewLabel> labels;
    while (query->next()) {
        const QSqlQuery &q = *query;
        ReviewLabel l;
        l.id = q.value(0).toLongLong();
        l.experimentId = q.value(1).toLongLong();
        if (!q.value(2).isNull())
            l.runId = q.value(2).toLongLong();
        if (!q.value(3).isNull())
            l.callId = q.value(3).toLongLong();
        l.caseId = q.value(4).toString();
        l.variant = q.value(5).toString();
        l.repeat = q.value(6).toInt();
        l.verdict = q.value(7).toString();
        if (!q.value(8).isNull())
            l.score = q.value(8).toInt();
        l.note = q.value(9).toString();
        l.reviewer = q.value(10).toString();
        l.createdAt = QDateTime::fromMSecsSinceEpoch(q.value(11).toLongLong(), Qt::UTC);
        labels.append(l);
    }
    return labels;
}

} // namespace Callscope
