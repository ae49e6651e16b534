#pragma once

// The local queue of a shared history: when the PostgreSQL server a history URL names cannot be
// reached (when a program starts, or it goes away in the middle of a run), what would be stored
// there (calls, session turns, experiment runs, batch lines) is stored in a local history file
// of this computer instead, one per server URL: AppDataLocation/queue/<hash>.sqlite. It is a
// history like any other (the same schema, WAL, the same writer rules), so several processes may
// write it at once and `callscope-cli history --db FILE` reads it.
//
// Calls made by a run that started on the server refer to rows that live there (the run's
// experiment, batch or session): the store writer copies those rows into the queue with the
// same ids (copyCreatedRows) before it writes there, so the queue stays a consistent history.
//
// When the server is back (the next program that opens it, or the studio's retry), send()
// hands the queue to HistoryTransfer (core/store/historytransfer.h): every call goes across once
// (by UUID), and only what the server confirmed leaves the queue. Two processes never send
// the same queue at once (a lock file beside it); one that finds it taken leaves it to the
// other.

#include "core/store/callstore.h"
#include "core/store/historytransfer.h"

#include <QString>

namespace Callscope::HistoryQueue {

// The queue file for the server `location` names (AppDataLocation/queue/<hash>.sqlite, the hash
// of the URL without any password). Empty for a location that is not a server.
QString pathFor(const QString &location);

// How the messages name the server: HOST:PORT/DBNAME (the socket folder for a local one).
QString serverName(const QString &location);

// True for the error of a server that cannot be reached now (it may be back later).
bool isUnreachable(const StoreError &error);

// Copies the experiments, batches and sessions in `rows` into the queue with the same ids,
// where the queue has no row of that id yet.
StoreError copyCreatedRows(CallStore &queue, const CallStore::CreatedRows &rows);

struct Waiting
{
    int calls = 0;
    int runs = 0; // experiment runs
};
// What waits in the queue store.
StoreResult<Waiting> waiting(CallStore &queue);
// What waits in the queue file of `location` (read through a read-only connection of its own;
// nothing when there is no file). Blocks on the disk: not for the GUI thread.
Waiting waitingFor(const QString &location);

// "3 calls wait to be sent to the shared history at db.example:5432/callscope", in plain words.
QString waitingMessage(const QString &location, int calls);

// Sends the queue file of `location` into `server` and removes what it took. Nothing happens
// (an outcome with total 0) when there is no queue file, or when another process is sending
// it right now.
TransferOutcome send(const QString &location, CallStore &server);

// The server URLs this process used a queue for or opened (for the CLI's last word).
void noteServer(const QString &location);
QStringList serversNoted();

} // namespace Callscope::HistoryQueue
