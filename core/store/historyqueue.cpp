#include "core/store/historyqueue.h"

#include "core/store/callstore_p.h"
#include "core/store/database.h"
#include "core/store/runlock.h"
#include "core/store/storequery.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QMutex>
#include <QStandardPaths>
#include <QUrl>
#include <QUrlQuery>

using namespace Qt::StringLiterals;

namespace Callscope::HistoryQueue {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(HistoryQueue)
};

constexpr auto kCopyExperiment = R"(INSERT INTO experiments (id, name, path, definition_hash,
    definition, created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING)"_L1;
constexpr auto kCopyBatch = R"(INSERT INTO batches (id, spec_path, spec_hash, spec, inputs_path,
    inputs_hash, total_lines, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (id) DO NOTHING)"_L1;
constexpr auto kCopySession = R"(INSERT INTO sessions (id, title, system_prompt, created_at,
    summary, summary_through, metadata, uuid) VALUES (?, ?, ?, ?, '', NULL, ?, ?)
    ON CONFLICT (id) DO NOTHING)"_L1;
constexpr auto kCountCalls = "SELECT count(*) FROM calls"_L1;
constexpr auto kCountRuns = "SELECT count(*) FROM experiment_runs"_L1;

QMutex &notedMutex()
{
    static QMutex mutex;
    return mutex;
}

QStringList &noted()
{
    static QStringList list;
    return list;
}

} // namespace

QString pathFor(const QString &location)
{
    if (!isServerLocation(location))
        return {};
    const QUrl url(location);
    const QByteArray key =
        url.toString(QUrl::RemovePassword | QUrl::NormalizePathSegments).toUtf8();
    const QString name = QString::fromLatin1(
        QCryptographicHash::hash(key, QCryptographicHash::Sha256).toHex().left(16));
    const QDir dir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + u"/queue"_s);
    dir.mkpath(u"."_s);
    return dir.filePath(name + u".sqlite"_s);
}

QString serverName(const QString &location)
{
    const QUrl url(location);
    QString host = QUrlQuery(url).queryItemValue(u"host"_s, QUrl::FullyDecoded);
    if (host.isEmpty())
        host = url.host();
    return u"%1:%2%3"_s.arg(host).arg(url.port(5432)).arg(url.path(QUrl::FullyDecoded));
}

bool isUnreachable(const StoreError &error)
{
    return error.code == StoreError::Code::Unreachable;
}

StoreError copyCreatedRows(CallStore &queue, const CallStore::CreatedRows &rows)
{
    Database &db = queue.database();
    auto run = [&db](QLatin1StringView sql, const QVariantList &values) -> StoreError {
        QSqlQuery query(db.connection());
        query.prepare(sql);
        bindAll(query, values, db.dialect());
        if (!query.exec())
            return db.errorFrom(query, Tr::tr("copying a row of the server into the local queue"));
        return {};
    };
    for (const ExperimentRecord &e : rows.experiments) {
        if (StoreError error =
                run(kCopyExperiment,
                    { e.id, e.name, e.path, QString::fromLatin1(e.definitionHash),
                      QString::fromUtf8(QJsonDocument(e.definition).toJson(QJsonDocument::Compact)),
                      e.createdAt.toMSecsSinceEpoch() });
            error)
            return error;
    }
    for (const BatchInfo &b : rows.batches) {
        if (StoreError error =
                run(kCopyBatch,
                    { b.id, b.specPath, QString::fromLatin1(b.specHash),
                      QString::fromUtf8(QJsonDocument(b.spec).toJson(QJsonDocument::Compact)),
                      b.inputsPath, QString::fromLatin1(b.inputsHash), b.totalLines,
                      b.createdAt.toMSecsSinceEpoch() });
            error)
            return error;
    }
    for (const Session &s : rows.sessions) {
        if (StoreError error =
                run(kCopySession,
                    { s.id, s.title, s.systemPrompt, s.createdAt.toMSecsSinceEpoch(),
                      QString::fromUtf8(QJsonDocument(s.metadata).toJson(QJsonDocument::Compact)),
                      s.uuid });
            error)
            return error;
    }
    return {};
}

StoreResult<Waiting> waiting(CallStore &queue)
{
    Waiting w;
    for (auto [sql, count] :
         { std::pair { kCountCalls, &w.calls }, std::pair { kCountRuns, &w.runs } }) {
        auto query = runQuery(queue.database(), sql, {}, Tr::tr("counting what waits to be sent"));
        if (!query)
            return query.error();
        if (query->next())
            *count = query->value(0).toInt();
    }
    return w;
}

Waiting waitingFor(const QString &location)
{
    const QString path = pathFor(location);
    if (path.isEmpty() || !QFileInfo::exists(path))
        return {};
    Database::Options options;
    options.readOnly = true;
    options.mustWrite = false;
    auto db = Database::open(path, options);
    if (!db)
        return {};
    CallStore store(*db.value());
    auto counted = waiting(store);
    return counted ? counted.value() : Waiting();
}

QString waitingMessage(const QString &location, int calls)
{
    return Tr::tr("%n call(s) wait to be sent to the shared history at %1", nullptr, calls)
        .arg(serverName(location));
}

TransferOutcome send(const QString &location, CallStore &server)
{
    const QString path = pathFor(location);
    if (path.isEmpty() || !QFileInfo::exists(path))
        return {};
    QString busy;
    const auto lock = RunLock::acquire(path, u"send"_s, &busy);
    if (!lock)
        return {}; // another process is sending it now
    auto db = Database::open(path);
    if (!db) {
        TransferOutcome out;
        out.failed = 1;
        out.errors.append(db.error().message);
        return out;
    }
    CallStore queue(*db.value());
    HistoryTransfer transfer(queue, server);
    transfer.setRemoveSent(true);
    return transfer.run();
}

void noteServer(const QString &location)
{
    if (!isServerLocation(location))
        return;
    QMutexLocker lock(&notedMutex());
    if (!noted().contains(location))
        noted().append(location);
}

QStringList serversNoted()
{
    QMutexLocker lock(&notedMutex());
    return noted();
}

} // namespace Callscope::HistoryQueue
