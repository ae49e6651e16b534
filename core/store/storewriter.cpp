#include "core/store/storewriter.h"

#include "core/store/database.h"
#include "core/store/historyqueue.h"
#include "core/store/identity.h"
#include "core/store/recoveryfile.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QMutex>
#include <QPointer>
#include <QThread>

#include <algorithm>
#include <atomic>

namespace Callscope {

namespace {

constexpr int DefaultRetryLimitMs = 120 * 1000;
constexpr int MaxPauseMs = 1000;
// Disk kept free for the recovery file while a writer runs (a few hundred typical calls).
constexpr qint64 RecoveryReserveBytes = 1024 * 1024;

bool isFatal(StoreError::Code code)
{
    switch (code) {
    case StoreError::Code::Io:
    case StoreError::Code::ReadOnly:
    case StoreError::Code::Unreachable: // with no local queue to take the write
    case StoreError::Code::Corrupt:
    case StoreError::Code::NotADatabase:
    case StoreError::Code::NewerVersion:
    case StoreError::Code::Locked: // only once the retries are over
        return true;
    default:
        return false;
    }
}

} // namespace

// Lives on the writer thread; opens its connection there on the first write.
class StoreWriterWorker final : public QObject
{
public:
    explicit StoreWriterWorker(const QString &path)
        : m_path(path)
        , m_queuePath(HistoryQueue::pathFor(path))
    { }

    using Fallback = std::function<void(WriteResult &)>;

    // Tries `task` until it succeeds, fails for good, or the lock outlasts `retryLimitMs`.
    WriteResult perform(const StoreWriter::Task &task, const Fallback &fallback, int retryLimitMs)
    {
        QElapsedTimer clock;
        clock.start();
        int pause = 20;
        for (;;) {
            WriteResult result = attempt(task);
            if (result.id.ok())
                return result;
            const StoreError::Code code = result.id.error().code;
            if (code == StoreError::Code::Locked && clock.elapsed() < retryLimitMs) {
                QThread::msleep(pause);
                pause = std::min(pause * 2, MaxPauseMs);
                continue;
            }
            if (isFatal(code)) {
                result.fatal = true;
                noteFailure(result.id.error().message);
            }
            if (fallback)
                fallback(result);
            return result;
        }
    }

    QString failure() const
    {
        QMutexLocker locker(&m_mutex);
        return m_failure;
    }

    bool queueing() const { return m_queueing.load(); }
    QString queuePath() const { return m_queuePath; }

    void close()
    {
        m_store.reset();
        m_database.reset();
        m_queueStore.reset();
        m_queueDatabase.reset();
    }

    // Sends the local queue to the server when it can be reached; what is still waiting after.
    StoreWriter::QueueReport sendQueue()
    {
        StoreWriter::QueueReport report;
        if (m_queuePath.isEmpty())
            return report;
        if (!m_store || m_queueing.load()) {
            auto db = Database::open(m_path);
            if (!db) {
                report.outcome.unreachable = HistoryQueue::isUnreachable(db.error());
                report.outcome.errors.append(db.error().message);
            } else {
                keepCreatedRows();
                m_store.reset();
                m_database = std::move(db.value());
                m_store = std::make_unique<CallStore>(*m_database);
            }
        }
        if (m_store) {
            // The queue is sent on a connection of its own; this one lets go of the file first.
            m_queueStore.reset();
            m_queueDatabase.reset();
            report.outcome = HistoryQueue::send(m_path, *m_store);
            if (report.outcome.unreachable) {
                keepCreatedRows();
                m_store.reset();
                m_database.reset();
            }
        }
        const HistoryQueue::Waiting left = HistoryQueue::waitingFor(m_path);
        report.waitingCalls = left.calls;
        report.waitingRuns = left.runs;
        // Back on the server once nothing waits: later writes refer to its rows again.
        if (m_store && left.calls == 0 && left.runs == 0)
            m_queueing.store(false);
        report.queueing = m_queueing.load();
        return report;
    }

private:
    WriteResult attempt(const StoreWriter::Task &task)
    {
        if (!m_queueing.load()) {
            if (!m_store) {
                auto db = Database::open(m_path);
                if (!db) {
                    if (m_queuePath.isEmpty() || !HistoryQueue::isUnreachable(db.error())) {
                        WriteResult result;
                        result.id = db.error();
                        return result;
                    }
                    enterQueue(db.error().message);
                } else {
                    m_database = std::move(db.value());
                    m_store = std::make_unique<CallStore>(*m_database);
                    if (!m_reserved) {
                        m_reserved = true;
                        RecoveryFile::reserve(m_path, RecoveryReserveBytes);
                    }
                }
            }
            if (m_store) {
                WriteResult result = task(*m_store);
                if (result.id.ok() || m_queuePath.isEmpty()
                    || !HistoryQueue::isUnreachable(result.id.error()))
                    return result;
                enterQueue(result.id.error().message);
            }
        }
        return attemptOnQueue(task);
    }

    // The server is gone: this write and every later one go to the local queue, with copies of
    // the rows they refer to that this process made on the server.
    WriteResult attemptOnQueue(const StoreWriter::Task &task)
    {
        if (!m_queueStore) {
            auto db = Database::open(m_queuePath);
            if (!db) {
                WriteResult result;
                result.id = db.error();
                return result;
            }
            m_queueDatabase = std::move(db.value());
            m_queueStore = std::make_unique<CallStore>(*m_queueDatabase);
        }
        if (StoreError error = HistoryQueue::copyCreatedRows(*m_queueStore, m_created); error) {
            WriteResult result;
            result.id = error;
            return result;
        }
        WriteResult result = task(*m_queueStore);
        result.queued = result.id.ok();
        return result;
    }

    void keepCreatedRows()
    {
        if (!m_store)
            return;
        const CallStore::CreatedRows &rows = m_store->createdRows();
        m_created.experiments += rows.experiments;
        m_created.batches += rows.batches;
        m_created.sessions += rows.sessions;
    }

    void enterQueue(const QString &why)
    {
        keepCreatedRows();
        m_store.reset();
        m_database.reset();
        if (!m_queueing.exchange(true))
            qWarning("the history server cannot be reached (%s); writes go to the local queue %s",
                     qPrintable(why), qPrintable(m_queuePath));
    }

    void noteFailure(const QString &message)
    {
        QMutexLocker locker(&m_mutex);
        if (m_failure.isEmpty())
            m_failure = message;
    }

    QString m_path;
    QString m_queuePath; // empty unless m_path names a server
    std::unique_ptr<Database> m_database;
    std::unique_ptr<CallStore> m_store;
    std::unique_ptr<Database> m_queueDatabase;
    std::unique_ptr<CallStore> m_queueStore;
    CallStore::CreatedRows m_created; // what stores closed since had made on the server
    std::atomic<bool> m_queueing { false };
    bool m_reserved = false;
    mutable QMutex m_mutex;
    QString m_failure;
};

StoreWriter::StoreWriter(const QString &databasePath, QObject *parent)
    : QObject(parent)
    , m_path(databasePath)
    , m_thread(new QThread)
    , m_worker(new StoreWriterWorker(databasePath))
    , m_pending(std::make_shared<std::atomic<int>>(0))
    , m_retryLimitMs(std::make_shared<std::atomic<int>>(DefaultRetryLimitMs))
{
    m_thread->setObjectName(QStringLiteral("callscope-store-writer"));
    m_worker->moveToThread(m_thread);
    m_thread->start();
}

StoreWriter::~StoreWriter()
{
    flush();
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker] { worker->close(); }, Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
    delete m_worker;
    delete m_thread;
}

void StoreWriter::setRetryLimitMs(int ms)
{
    m_retryLimitMs->store(std::max(0, ms));
}

QString StoreWriter::failure() const
{
    return m_worker->failure();
}

void StoreWriter::insertCall(const CallRecord &record, const QList<SessionMessage> &sessionMessages,
                             const InsertOptions &options, QObject *context, Done done)
{
    // The UUID is the call's before the first try: a write the server may have committed
    // before it went away keeps it in the local queue, and is then sent only once.
    CallRecord stamped = record;
    if (stamped.uuid.isEmpty())
        stamped.uuid = Identity::newUuid();
    auto task = [record = stamped, sessionMessages, options](CallStore &store) {
        WriteResult result;
        result.id = store.insertCall(record, sessionMessages, options, &result.span);
        return result;
    };
    // A call that sent a request may have been paid for: it is kept, stored or not.
    const bool paid = !record.attempts.isEmpty() || record.status == CallStatus::Completed;
    StoreWriterWorker::Fallback fallback;
    if (paid) {
        fallback = [path = m_path, record = stamped, sessionMessages,
                    options](WriteResult &result) {
            QString error;
            if (RecoveryFile::append(path, record, options, sessionMessages, &error)) {
                result.recovered = true;
            } else {
                qWarning("a reply could not be stored nor kept in %s: %s",
                         qPrintable(RecoveryFile::pathFor(path)), qPrintable(error));
            }
        };
    }
    enqueue(std::move(task), std::move(fallback), context, std::move(done));
}

void StoreWriter::perform(Task task, QObject *context, Done done)
{
    enqueue(std::move(task), {}, context, std::move(done));
}

void StoreWriter::enqueue(Task task, std::function<void(WriteResult &)> fallback, QObject *context,
                          Done done)
{
    ++*m_pending;
    QPointer<QObject> target(context);
    QMetaObject::invokeMethod(
        m_worker,
        [worker = m_worker, writer = this, task = std::move(task), fallback = std::move(fallback),
         target, done = std::move(done), pending = m_pending, limit = m_retryLimitMs]() mutable {
            const WriteResult result = worker->perform(task, fallback, limit->load());
            // The task (and whatever large record it holds) goes before the answer is queued.
            task = nullptr;
            fallback = nullptr;
            --*pending;
            // Answered on the writer's own thread, where `target` can be checked safely.
            QMetaObject::invokeMethod(
                writer,
                [target, done = std::move(done), result] {
                    if (target && done)
                        done(result);
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

bool StoreWriter::queueing() const
{
    return m_worker->queueing();
}

QString StoreWriter::queuePath() const
{
    return m_worker->queuePath();
}

void StoreWriter::sendQueue(QObject *context, std::function<void(const QueueReport &)> done)
{
    ++*m_pending;
    QPointer<QObject> target(context);
    QMetaObject::invokeMethod(
        m_worker,
        [worker = m_worker, writer = this, target, done = std::move(done), pending = m_pending] {
            const QueueReport report = worker->sendQueue();
            --*pending;
            QMetaObject::invokeMethod(
                writer,
                [target, done, report] {
                    if (target && done)
                        done(report);
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

int StoreWriter::pending() const
{
    return m_pending->load();
}

void StoreWriter::flush()
{
    if (QThread::currentThread() == m_thread)
        return;
    // An empty blocking call returns after everything queued before it ran.
    QMetaObject::invokeMethod(
        m_worker, [] {}, Qt::BlockingQueuedConnection);
}

} // namespace Callscope
