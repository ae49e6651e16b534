#pragma once

// Tells when the history changed under this connection: calls stored by another Callscope
// process (a CLI batch beside the studio), by the store writer thread or by an import.
//
// It asks SQLite's `PRAGMA data_version` at an interval; the value changes whenever any other
// connection committed to the file, and the question costs no disk read. Either on a Database
// of the watcher's own thread, or through a StoreReader (the question then runs on the
// reader's thread and connection, so the GUI thread runs no SQL; one question at a time).

#include <QObject>
#include <QTimer>

namespace Callscope {

class Database;
class StoreReader;

class HistoryWatcher final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryWatcher)

public:
    // `database` must outlive the watcher. Starts watching at once.
    explicit HistoryWatcher(Database *database, int intervalMs = 1000, QObject *parent = nullptr);
    // `reader` must outlive the watcher. Starts watching at once.
    explicit HistoryWatcher(StoreReader *reader, int intervalMs = 1000, QObject *parent = nullptr);

    // Looks now (the timer does this on its own); emits changed() when something was committed.
    void poll();

Q_SIGNALS:
    void changed();

private:
    void take(qint64 version);

    Database *m_database = nullptr;
    StoreReader *m_reader = nullptr;
    bool m_asking = false; // a question to the reader is under way
    QTimer m_timer;
    qint64 m_version = -1;
};

} // namespace Callscope
