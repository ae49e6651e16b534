// CallStore: stored `callscope-cli batch` runs and which of their lines completed.

#include "core/store/callstore.h"
#include "core/store/callstore_p.h"
#include "core/store/storequery.h"

#include <QJsonDocument>
#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace Callscope {

using namespace CallStoreDetail;

namespace {

constexpr auto kInsertBatch = R"(INSERT INTO batches (spec_path, spec_hash, spec, inputs_path,
    inputs_hash, total_lines, created_at) VALUES (?, ?, ?, ?, ?, ?, ?))"_L1;
constexpr auto kSelectLatestBatch =
    R"(SELECT id, spec_path, spec_hash, spec, inputs_path, inputs_hash,
    total_lines, created_at FROM batches WHERE spec_path = ? AND inputs_path = ?
    ORDER BY id DESC LIMIT 1)"_L1;
constexpr auto kSelectBatchCompleted = R"(SELECT b.line, MAX(b.call_id) FROM batch_calls b
    JOIN calls c ON c.id = b.call_id WHERE b.batch_id = ? AND c.status = 'completed'
    GROUP BY b.line)"_L1;

} // namespace

StoreResult<qint64> CallStore::createBatch(const BatchInfo &given)
{
    BatchInfo batch = given;
    if (!batch.createdAt.isValid())
        batch.createdAt = QDateTime::currentDateTimeUtc();
    auto id = inTransaction<qint64>(m_database, [&]() -> StoreResult<qint64> {
        QSqlQuery &insert = insertStatement(kInsertBatch);
        const QDateTime created = batch.createdAt;
        if (StoreError error = runStatement(
                m_database, insert,
                { batch.specPath, QString::fromLatin1(batch.specHash),
                  QString::fromUtf8(QJsonDocument(batch.spec).toJson(QJsonDocument::Compact)),
                  batch.inputsPath, QString::fromLatin1(batch.inputsHash), batch.totalLines,
                  created.toMSecsSinceEpoch() },
                Tr::tr("storing a batch"));
            error)
            return error;
        return insertedId(insert);
    });
    if (id) {
        batch.id = id.value();
        m_created.batches.append(batch);
    }
    return id;
}

StoreResult<std::optional<BatchInfo>> CallStore::latestBatch(const QString &specPath,
                                                             const QString &inputsPath)
{
    auto query = runQuery(m_database, kSelectLatestBatch, { specPath, inputsPath },
                          Tr::tr("looking up a batch"));
    if (!query)
        return query.error();
    if (!query->next())
        return std::optional<BatchInfo>();
    BatchInfo batch;
    batch.id = query->value(0).toLongLong();
    batch.specPath = query->value(1).toString();
    batch.specHash = query->value(2).toString().toLatin1();
    batch.spec = QJsonDocument::fromJson(query->value(3).toString().toUtf8()).object();
    batch.inputsPath = query->value(4).toString();
    batch.inputsHash = query->value(5).toString().toLatin1();
    batch.totalLines = query->value(6).toInt();
    batch.createdAt = QDateTime::fromMSecsSinceEpoch(query->value(7).toLongLong(), Qt::UTC);
    return std::optional<BatchInfo>(batch);
}

StoreResult<QHash<int, qint64>> CallStore::batchCompletedLines(qint64 batchId)
{
    auto query = runQuery(m_database, kSelectBatchCompleted, { batchId },
                          Tr::tr("reading batch %1").arg(batchId));
    if (!query)
        return query.error();
    QHash<int, qint64> lines;
    while (query->next())
        lines.insert(query->value(0).toInt(), query->value(1).toLongLong());
    return lines;
}

} // namespace Callscope
