#include "core/store/providerbatchstore.h"

#include "core/store/database.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QVariant>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

constexpr auto kInsertBatch =
    R"(INSERT INTO provider_batches (experiment_id, engine_key, engine_type, round,
    part, status, provider_id, input_file_id, provider_status, line_count, counts, error, created_at,
    submitted_at, ended_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?))"_L1;
constexpr auto kInsertLine =
    R"(INSERT INTO provider_batch_lines (batch_id, custom_id, case_id, variant,
    repeat, request_index, request_hash, outcome, result, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?))"_L1;
constexpr auto kUpdateBatch =
    R"(UPDATE provider_batches SET status = ?, provider_id = ?, input_file_id = ?,
    provider_status = ?, counts = ?, error = ?, submitted_at = ?, ended_at = ?, updated_at = ? WHERE id = ?)"_L1;
constexpr auto kUpdateLine = R"(UPDATE provider_batch_lines SET outcome = ?, result = ?, error = ?
    WHERE batch_id = ? AND custom_id = ?)"_L1;
constexpr auto kSelectBatches =
    R"(SELECT id, experiment_id, engine_key, engine_type, round, part, status,
    provider_id, input_file_id, provider_status, line_count, counts, error, created_at, submitted_at,
    ended_at, updated_at FROM provider_batches WHERE experiment_id = ? ORDER BY id)"_L1;
constexpr auto kSelectLines = R"(SELECT l.batch_id, l.custom_id, l.case_id, l.variant, l.repeat,
    l.request_index, l.request_hash, l.outcome, l.result, l.error FROM provider_batch_lines l
    JOIN provider_batches b ON b.id = l.batch_id WHERE b.experiment_id = ? ORDER BY l.batch_id, l.custom_id)"_L1;

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Store)
};

QVariant msecs(const QDateTime &time)
{
    return time.isValid() ? QVariant(time.toMSecsSinceEpoch()) : QVariant();
}

QDateTime fromMsecs(const QVariant &value)
{
    return value.isNull() ? QDateTime()
                          : QDateTime::fromMSecsSinceEpoch(value.toLongLong(), Qt::UTC);
}

void bind(QSqlQuery &query, const QVariantList &values)
{
    // A null QString would bind as NULL; text columns hold '' instead.
    for (const QVariant &v : values) {
        if (v.typeId() == QMetaType::QString && v.toString().isNull())
            query.addBindValue(QString(u""_s));
        else
            query.addBindValue(v);
    }
}

} // namespace

bool ProviderBatchRecord::isOpenStatus(const QString &status)
{
    return status == u"submitting"_s || status == u"submit_unknown"_s || status == u"submitted"_s
        || status == u"cancelling"_s;
}

ProviderBatchStore::ProviderBatchStore(Database &database)
    : m_database(database)
{ }

StoreResult<qint64> ProviderBatchStore::createBatch(const ProviderBatchRecord &batch,
                                                    const QList<ProviderBatchLineRecord> &lines)
{
    Transaction transaction(m_database);
    if (transaction.beginError())
        return transaction.beginError();
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QSqlQuery insert(m_database.connection());
    insert.prepare(kInsertBatch);
    bind(insert,
         { batch.experimentId, batch.engineKey, batch.engineType, batch.round, batch.part,
           batch.status, batch.providerId, batch.inputFileId, batch.providerStatus, batch.lineCount,
           QString::fromUtf8(QJsonDocument(batch.counts).toJson(QJsonDocument::Compact)),
           batch.error, msecs(batch.createdAt.isValid() ? batch.createdAt : now),
           msecs(batch.submittedAt), msecs(batch.endedAt), msecs(now) });
    if (!insert.exec())
        return m_database.errorFrom(insert, Tr::tr("storing a provider batch"));
    const qint64 id = insert.lastInsertId().toLongLong();
    QSqlQuery line(m_database.connection());
    line.prepare(kInsertLine);
    for (const ProviderBatchLineRecord &l : lines) {
        bind(line,
             { id, l.customId, l.caseId, l.variant, l.repeat, l.requestIndex, l.requestHash,
               l.outcome, l.result.isNull() ? QVariant() : QVariant(QString::fromUtf8(l.result)),
               l.error });
        if (!line.exec())
            return m_database.errorFrom(line, Tr::tr("storing the lines of a provider batch"));
    }
    if (StoreError error = transaction.commit(); error)
        return error;
    return id;
}

StoreError ProviderBatchStore::updateBatch(const ProviderBatchRecord &batch)
{
    QSqlQuery update(m_database.connection());
    update.prepare(kUpdateBatch);
    bind(update,
         { batch.status, batch.providerId, batch.inputFileId, batch.providerStatus,
           QString::fromUtf8(QJsonDocument(batch.counts).toJson(QJsonDocument::Compact)),
           batch.error, msecs(batch.submittedAt), msecs(batch.endedAt),
           QDateTime::currentMSecsSinceEpoch(), batch.id });
    if (!update.exec())
        return m_database.errorFrom(update, Tr::tr("updating provider batch %1").arg(batch.id));
    return {};
}

StoreError ProviderBatchStore::recordResults(const ProviderBatchRecord &batch,
                                             const QList<ProviderBatchLineRecord> &lines)
{
    Transaction transaction(m_database);
    if (transaction.beginError())
        return transaction.beginError();
    QSqlQuery update(m_database.connection());
    update.prepare(kUpdateLine);
    for (const ProviderBatchLineRecord &l : lines) {
        bind(update,
             { l.outcome, l.result.isNull() ? QVariant() : QVariant(QString::fromUtf8(l.result)),
               l.error, batch.id, l.customId });
        if (!update.exec())
            return m_database.errorFrom(
                update, Tr::tr("storing the results of provider batch %1").arg(batch.id));
    }
    if (StoreError error = updateBatch(batch); error)
        return error;
    return transaction.commit();
}

StoreResult<QList<ProviderBatchRecord>> ProviderBatchStore::batches(qint64 experimentId)
{
    QSqlQuery query(m_database.connection());
    query.setForwardOnly(true);
    query.prepare(kSelectBatches);
    query.addBindValue(experimentId);
    if (!query.exec())
        return m_database.errorFrom(
            query, Tr::tr("reading the provider batches of experiment %1").arg(experimentId));
    QList<ProviderBatchRecord> out;
    while (query.next()) {
        ProviderBatchRecord b;
        b.id = query.value(0).toLongLong();
        b.experimentId = query.value(1).toLongLong();
        b.engineKey = query.value(2).toString();
        b.engineType = query.value(3).toString();
        b.round = query.value(4).toInt();
        b.part = query.value(5).toInt();
        b.status = query.value(6).toString();
        b.providerId = query.value(7).toString();
        b.inputFileId = query.value(8).toString();
        b.providerStatus = query.value(9).toString();
        b.lineCount = query.value(10).toInt();
        b.counts = QJsonDocument::fromJson(query.value(11).toString().toUtf8()).object();
        b.error = query.value(12).toString();
        b.createdAt = fromMsecs(query.value(13));
        b.submittedAt = fromMsecs(query.value(14));
        b.endedAt = fromMsecs(query.value(15));
        b.updatedAt = fromMsecs(query.value(16));
        out.append(b);
    }
    return out;
}

StoreResult<QList<ProviderBatchLineRecord>> ProviderBatchStore::lines(qint64 experimentId)
{
    QSqlQuery query(m_database.connection());
    query.setForwardOnly(true);
    query.prepare(kSelectLines);
    query.addBindValue(experimentId);
    if (!query.exec())
        return m_database.errorFrom(
            query, Tr::tr("reading the provider batch lines of experiment %1").arg(experimentId));
    QList<ProviderBatchLineRecord> out;
    while (query.next()) {
        ProviderBatchLineRecord l;
        l.batchId = query.value(0).toLongLong();
        l.customId = query.value(1).toString();
        l.caseId = query.value(2).toString();
        l.variant = query.value(3).toString();
        l.repeat = query.value(4).toInt();
        l.requestIndex = query.value(5).toInt();
        l.requestHash = query.value(6).toString();
        l.outcome = query.value(7).toString();
        if (!query.value(8).isNull())
            l.result = query.value(8).toString().toUtf8();
        l.error = query.value(9).toString();
        out.append(l);
    }
    return out;
}

} // namespace Callscope
