#pragma once

// The durable state of experiments run through the providers' batch APIs (schema version 5):
// every provider batch is stored before it is submitted and updated as it moves; every line
// says which run and which request of that run's tool loop it carries, and, once the batch
// ended, its outcome and the reply body. A resumed experiment rebuilds each run from this.

#include "core/store/storeerror.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace Callscope {

class Database;

struct ProviderBatchRecord
{
    qint64 id = 0;
    qint64 experimentId = 0;
    QString engineKey;
    QString engineType;
    int round = 0;
    int part = 0;
    // submitting: stored, the creating request not answered yet; submit_unknown: that request
    // got no answer (the provider may hold the batch); submitted; cancelling; ended (results
    // stored); failed (the provider refused it: nothing runs); abandoned (a submit_unknown
    // batch given up on by the user).
    QString status = QStringLiteral("submitting");
    QString providerId;
    QString inputFileId;
    QString providerStatus;
    int lineCount = 0;
    QJsonObject counts;
    QString error;
    QDateTime createdAt;
    QDateTime submittedAt;
    QDateTime endedAt;
    QDateTime updatedAt;

    bool isOpen() const { return isOpenStatus(status); }
    static bool
    isOpenStatus(const QString &status); // submitting, submit_unknown, submitted or cancelling
};

struct ProviderBatchLineRecord
{
    qint64 batchId = 0;
    QString customId;
    QString caseId;
    QString variant;
    int repeat = 0;
    int requestIndex = 0; // 0-based over the run's model requests
    QString requestHash; // SHA-256 (hex) of the line's body, compact JSON
    QString outcome = QStringLiteral("pending"); // pending, succeeded, errored, expired, canceled
    QByteArray result; // succeeded: the reply body
    QString error;
};

class ProviderBatchStore
{
public:
    explicit ProviderBatchStore(Database &database);

    // The batch and its lines in one transaction; returns the batch id.
    StoreResult<qint64> createBatch(const ProviderBatchRecord &batch,
                                    const QList<ProviderBatchLineRecord> &lines);
    // Status, provider id, file id, provider status, counts, error and times.
    StoreError updateBatch(const ProviderBatchRecord &batch);
    // The outcome of every line and the batch row, in one transaction.
    StoreError recordResults(const ProviderBatchRecord &batch,
                             const QList<ProviderBatchLineRecord> &lines);
    StoreResult<QList<ProviderBatchRecord>> batches(qint64 experimentId);
    StoreResult<QList<ProviderBatchLineRecord>> lines(qint64 experimentId);

private:
    Database &m_database;
};

} // namespace Callscope
