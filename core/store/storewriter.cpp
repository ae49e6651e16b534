#include "core/store/storewriter.h"

#include "core/store/database.h"
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

    void close()
    {
        m_store.reset();
        m_database.reset();
    }

private:
    WriteResult attempt(const StoreWriter::Task &task)
    {
        if (!m_store) {
            auto db = Database::open(m_path);
            if (!db) {
                WriteResult result;
                result.id = db.error();
                return result;
            }
            m_database = std::move(db.value());
            m_store = std::make_unique<CallStore>(*m_database);
            if (!m_reserved) {
                m_reserved = true;
                RecoveryFile::reserve(m_path, RecoveryReserveBytes);
            }
        }
        return task(*m_store);
    }

    void noteFailure(const QString &message)
    {
        QMutexLocker locker(&m_mutex);
        if (m_failure.isEmpty())
            m_failure = message;
    }

    QString m_path;
    std::unique_ptr<Database> m_database;
    std::unique_ptr<CallStore> m_store;
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
    auto task = [record, sessionMessages, options](CallStore &store) {
        WriteResult result;
        result.id = store.insertCall(record, sessionMessages, options, &result.span);
        return result;
    };
    // A call that sent a request may have been paid for: it is kept, stored or not.
    const bool paid = !record.attempts.isEmpty() || record.status == CallStatus::Completed;
    StoreWriterWorker::Fallback fallback;
    if (paid) {
        fallback = [path = m_path, record, sessionMessages, options](WriteResult &result) {
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
