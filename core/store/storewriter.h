#pragma once

// One writer for finished calls: every finished call of every job is
// written here, one transaction per call, on a thread of its own with its own connection to
// the database file. The thread that finishes calls (the GUI's) never waits for SQLite; its
// own connection keeps reading while the writer writes (WAL).
//
// Writes run in the order they were asked for. `done` runs on the thread of `context`, from
// its event loop, after the transaction committed (or failed); it is dropped when `context`
// is gone by then. The destructor writes everything still queued before it returns.
//
// Failures come in two kinds. Another writer holding the database (Locked) passes: the write
// is tried again with a growing pause (up to 1 s) until the retry limit (setRetryLimitMs) is over,
// longer than any single writer holds the lock, and the writes asked for meanwhile wait in the
// queue (in memory; the runners bound how many by their windows, none is dropped). A failure that
// will recur (a full disk, a read-only or damaged file, or the lock still held at the limit) is
// fatal: WriteResult::fatal is set and failure() says why, so a runner stops starting calls.
// A call that could not be stored, whichever the reason, goes to the recovery file beside
// the database (core/store/recoveryfile.h) when a request of it went out: a paid reply is
// never thrown away.
//
// A history on a PostgreSQL server that cannot be reached (when the writer first connects, or
// it goes away in the middle of a run) is not a failure: the write, and every later one, goes
// into the server's local queue (core/store/historyqueue.h) and WriteResult::queued says so.

#include "core/store/callstore.h"
#include "core/store/historytransfer.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

class QThread;

namespace Callscope {

struct WriteResult
{
    StoreResult<qint64> id = StoreError::make(StoreError::Code::Io, QString());
    SequenceSpan span; // the session messages' span, when there were any
    bool fatal = false; // the failure will recur: stop writing new calls
    bool recovered = false; // not stored, but kept in the recovery file
    // Stored, but in the local queue of a server that could not be reached, not on the server
    // (id is the queue's own; core/store/historyqueue.h).
    bool queued = false;
};

class StoreWriterWorker;

class StoreWriter final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StoreWriter)

public:
    explicit StoreWriter(const QString &databasePath, QObject *parent = nullptr);
    ~StoreWriter() override;

    QString databasePath() const { return m_path; }

    using Done = std::function<void(const WriteResult &)>;
    void insertCall(const CallRecord &record, const QList<SessionMessage> &sessionMessages,
                    const InsertOptions &options, QObject *context, Done done);
    // Any other write, in the same queue: `task` runs on the writer's thread with the writer's
    // store (a failure to open the database is answered without running it).
    using Task = std::function<WriteResult(CallStore &store)>;
    void perform(Task task, QObject *context, Done done);

    // A history on a server: true once a write could not reach it and went to the local
    // queue instead (core/store/historyqueue.h); every later write goes there too, so what it
    // refers to is there, until sendQueue() has emptied the queue.
    bool queueing() const;
    // The queue file of this writer's server; empty for a history file.
    QString queuePath() const;
    struct QueueReport
    {
        TransferOutcome outcome; // what this try sent
        int waitingCalls = 0; // still in the queue after it
        int waitingRuns = 0;
        bool queueing = false; // writes still go to the queue
    };
    // Sends the queue to the server when it can be reached, in the writer's queue and thread;
    // `done` gets what was sent and what still waits, on the thread of `context`.
    void sendQueue(QObject *context, std::function<void(const QueueReport &)> done);

    int pending() const; // writes asked for and not yet answered
    // How long a write waits for another writer's lock in all (default 120 s).
    void setRetryLimitMs(int ms);
    // The first fatal failure's message, empty while there was none (any thread).
    QString failure() const;
    // Blocks until every write asked for so far is committed (shutdown, tests).
    void flush();

private:
    void enqueue(Task task, std::function<void(WriteResult &)> fallback, QObject *context,
                 Done done);

    QString m_path;
    QThread *m_thread = nullptr;
    StoreWriterWorker *m_worker = nullptr;
    std::shared_ptr<std::atomic<int>> m_pending;
    std::shared_ptr<std::atomic<int>> m_retryLimitMs;
};

// Work on the history that the calling thread (the GUI's) must not wait for: with a writer it
// runs on the writer's thread and connection, in its queue (so it sees every write asked for
// before it), and `done` gets the value on the thread of `context`, from its event loop; without
// one it runs at once on `store`. `done` gets a null value and the reason when the database
// could not be opened, or when there is neither.
template<typename T>
void runOnStore(StoreWriter *writer, CallStore *store, QObject *context,
                std::function<T(CallStore &)> work,
                std::function<void(const T *value, const QString &error)> done)
{
    if (!writer) {
        if (!store) {
            done(nullptr, QString());
            return;
        }
        const T value = work(*store);
        done(&value, QString());
        return;
    }
    auto value = std::make_shared<std::optional<T>>();
    writer->perform(
        [value, work = std::move(work)](CallStore &into) {
            value->emplace(work(into));
            WriteResult result;
            result.id = qint64(0); // a read: its own errors travel in the value
            return result;
        },
        context,
        [value, done = std::move(done)](const WriteResult &result) {
            if (value->has_value())
                done(&**value, QString());
            else
                done(nullptr, result.id ? QString() : result.id.error().message);
        });
}

} // namespace Callscope
