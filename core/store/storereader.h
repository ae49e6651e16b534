#pragma once

// Reads of the history that the calling thread (the GUI's) must not wait for: each runs on a
// thread of its own with its own connection to the database file (opened on the first read,
// never written through), so a long query over a million calls never stalls a frame and
// never waits behind the store writer's queue (WAL lets both go at once).
//
// Reads run in the order they were asked for. `done` runs on the thread that made the reader
// (the GUI's), from its event loop, with the value, or with null and the reason when the
// database could not be opened; it is dropped when `context` is gone by then. The destructor
// waits for the reads still queued; their answers are dropped.

#include "core/store/callstore.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

class QThread;

namespace Callscope {

class StoreReaderWorker;

class StoreReader final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StoreReader)

public:
    explicit StoreReader(const QString &databasePath, QObject *parent = nullptr);
    ~StoreReader() override;

    QString databasePath() const { return m_path; }
    int pending() const { return m_pending->load(); } // reads asked for and not yet answered

    // `task` runs on the reader's thread with the reader's store, or with a null store and the
    // reason when the database could not be opened. readFromStore() below is the usual way in.
    using Task = std::function<void(CallStore *store, const QString &error)>;
    void enqueue(Task task);
    // Blocks until every read asked for so far ran (tests, shutdown).
    void flush();

private:
    QString m_path;
    QThread *m_thread = nullptr;
    StoreReaderWorker *m_worker = nullptr;
    std::shared_ptr<std::atomic<int>> m_pending;
};

// Reads `work` off the calling thread when there is a reader; without one it runs at once on
// `store` (tools and tests that hold only a store). `done` gets the value from the event loop,
// or null and the reason when the database could not be opened or there is neither.
template<typename T>
void readFromStore(StoreReader *reader, CallStore *store, QObject *context,
                   std::function<T(CallStore &)> work,
                   std::function<void(const T *value, const QString &error)> done)
{
    if (!reader) {
        if (!store) {
            done(nullptr, QString());
            return;
        }
        const T value = work(*store);
        done(&value, QString());
        return;
    }
    QPointer<QObject> target(context);
    reader->enqueue([reader, target, work = std::move(work),
                     done = std::move(done)](CallStore *from, const QString &error) mutable {
        auto value = std::make_shared<std::optional<T>>();
        if (from)
            value->emplace(work(*from));
        // Answered on the reader object's thread, where `target` can be checked safely.
        QMetaObject::invokeMethod(
            reader,
            [target, value, error, done = std::move(done)] {
                if (!target)
                    return;
                if (value->has_value())
                    done(&**value, QString());
                else
                    done(nullptr, error);
            },
            Qt::QueuedConnection);
    });
}

} // namespace Callscope
