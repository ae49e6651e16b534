#include "core/store/storewriter.h"

#include "core/store/database.h"

#include <QCoreApplication>
#include <QPointer>
#include <QThread>

#include <atomic>

namespace Callscope {

// Lives on the writer thread; opens its connection there on the first write.
class StoreWriterWorker final : public QObject
{
public:
    explicit StoreWriterWorker(const QString &path)
        : m_path(path)
    {
    }

    WriteResult perform(const StoreWriter::Task &task)
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
        }
        return task(*m_store);
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

StoreWriter::StoreWriter(const QString &databasePath, QObject *parent)
    : QObject(parent)
    , m_path(databasePath)
    , m_thread(new QThread)
    , m_worker(new StoreWriterWorker(databasePath))
    , m_pending(std::make_shared<std::atomic<int>>(0))
{
    m_thread->setObjectName(QStringLiteral("callscope-store-writer"));
    m_worker->moveToThread(m_thread);
    m_thread->start();
}

StoreWriter::~StoreWriter()
{
    flush();
    QMetaObject::invokeMethod(m_worker, [worker = m_worker] { worker->close(); }, Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
    delete m_worker;
    delete m_thread;
}

void StoreWriter::insertCall(const CallRecord &record, const QList<SessionMessage> &sessionMessages,
                             const InsertOptions &options, QObject *context, Done done)
{
    perform(
        [record, sessionMessages, options](CallStore &store) {
            WriteResult result;
            result.id = store.insertCall(record, sessionMessages, options, &result.span);
            return result;
        },
        context, std::move(done));
}

void StoreWriter::perform(Task task, QObject *context, Done done)
{
    ++*m_pending;
    QPointer<QObject> target(context);
    QMetaObject::invokeMethod(
        m_worker,
        [worker = m_worker, writer = this, task = std::move(task), target, done = std::move(done),
         pending = m_pending]() mutable {
            const WriteResult result = worker->perform(task);
            // The task (and whatever large record it holds) goes before the answer is queued.
            task = nullptr;
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
    QMetaObject::invokeMethod(m_worker, [] {}, Qt::BlockingQueuedConnection);
}

} // namespace Callscope
