#include "core/store/storereader.h"

#include "core/store/database.h"

#include <QThread>

namespace Callscope {

// Lives on the reader thread; opens its connection there on the first read.
class StoreReaderWorker final : public QObject
{
public:
    explicit StoreReaderWorker(const QString &path)
        : m_path(path)
    { }

    void run(const StoreReader::Task &task)
    {
        if (!m_store) {
            Database::Options options;
            options.mustWrite = false; // a reader: a read-only file is fine
            options.readOnly = true; // and a write through it fails instead of bypassing
                                     // the store writer
            auto db = Database::open(m_path, options);
            if (!db) {
                task(nullptr, db.error().message);
                return;
            }
            m_database = std::move(db.value());
            m_store = std::make_unique<CallStore>(*m_database);
        }
        task(m_store.get(), QString());
    }

    void close()
    {
        m_store.reset();
        m_database.reset();
    }

private:
    QString m_path;
    std::unique_ptr<Database> m_database;
    std::unique_ptr<CallStore> m_store;
};

StoreReader::StoreReader(const QString &databasePath, QObject *parent)
    : QObject(parent)
    , m_path(databasePath)
    , m_thread(new QThread)
    , m_worker(new StoreReaderWorker(databasePath))
    , m_pending(std::make_shared<std::atomic<int>>(0))
{
    m_thread->setObjectName(QStringLiteral("callscope-store-reader"));
    m_worker->moveToThread(m_thread);
    m_thread->start();
}

StoreReader::~StoreReader()
{
    // The reads still queued find their context gone (or run quickly); the connection closes
    // on its own thread.
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker] { worker->close(); }, Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
    delete m_worker;
    delete m_thread;
}

void StoreReader::enqueue(Task task)
{
    ++*m_pending;
    QMetaObject::invokeMethod(
        m_worker,
        [worker = m_worker, task = std::move(task), pending = m_pending]() mutable {
            worker->run(task);
            task = nullptr;
            --*pending;
        },
        Qt::QueuedConnection);
}

void StoreReader::flush()
{
    if (QThread::currentThread() == m_thread)
        return;
    QMetaObject::invokeMethod(
        m_worker, [] {}, Qt::BlockingQueuedConnection);
}

} // namespace Callscope
