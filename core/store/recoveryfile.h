#pragma once

// Paid replies that could not reach the database (a full disk, a read-only or damaged file, a
// lock held past the writer's patience) are kept in a recovery file beside it,
// "<database>.recovered.jsonl": one JSON line per call holding everything the store needs,
// {"entry": a unique id, "call": CallRecord::toJson(), "batch": {"batch_id", "line"},
// "session_messages": [SessionMessage::toJson()], "exchanges": [the raw HTTP exchanges]}.
// The next process that opens the history for writing stores them (AppContext::openHistory)
// and empties the file, so a resumed batch or experiment finds those calls stored and does not
// buy them again.
//
// The import is idempotent: each stored call carries its entry's id in its metadata
// ("recovery_entry"), and an entry whose call is already there is not stored again. A process
// killed after storing some entries but before emptying the file leaves them in it; the next
// import skips them.
//
// The file may be shared by several processes on one history: every append and every import
// holds flock() on it (never on the database file itself). A writer reserves room for it when it
// opens (fallocate, without changing the size), so the lines still fit once the disk is full.

#include "core/store/callstore.h"

#include <QString>

namespace Callscope {

class CallStore;

namespace RecoveryFile {

QString pathFor(const QString &databasePath);
// Reserves `bytes` of disk for the file without growing it (Linux; elsewhere nothing).
void reserve(const QString &databasePath, qint64 bytes);
// Appends one call; false with `error` when even that failed.
bool append(const QString &databasePath, const CallRecord &record, const InsertOptions &options,
            const QList<SessionMessage> &sessionMessages, QString *error);

struct ImportOutcome
{
    int stored = 0; // calls written into the store
    int alreadyStored = 0; // entries an earlier, interrupted import had stored
    int unreadable = 0; // lines that were not a call (kept in "<file>.bad")
    QString error; // the store refused: nothing was removed from the file
};
// Stores every call of the file, then empties it. A missing or empty file is not an error.
ImportOutcome import(CallStore &store, const QString &databasePath);

} // namespace RecoveryFile

} // namespace Callscope
