#pragma once

// Ways back for a history: verified backups beside the database, a check, and for a damaged
// file a restore, a recovery into a new file, or a new history. None of them ever writes over
// a damaged file: it is renamed aside (with its -wal and -shm) and kept.
//
// Backups are made with SQLite's VACUUM INTO through a connection (never by copying the file,
// which could catch a half-written state and, worse, would drop this process's locks when
// the copy's descriptor closes), then opened read-only and checked before they count.
// Their names: `<database>.backup-<UTC yyyyMMdd-HHmmss-zzz>`, the newest kKeptBackups kept.

#include "core/store/storeerror.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

namespace Callscope {

class Database;

namespace HistoryRescue {

inline constexpr int kKeptBackups = 3;

enum class BackupReason {
    Daily, // the studio's one backup a day
    BeforeMigration, // an older layout is about to change
    Requested, // `callscope-cli history backup`
};

struct BackupInfo
{
    QString path;
    QDateTime createdUtc; // from the file name
    qint64 calls = -1; // -1: the backup could not be read
    qint64 bytes = 0;
    bool readable() const { return calls >= 0; }
};

struct CheckReport
{
    bool ok = false;
    qint64 calls = -1; // -1: the calls table could not be counted
    QStringList problems; // SQLite's integrity_check lines (at most 20), or why it failed
};

struct RescueReport
{
    QString damagedKeptAs; // where the damaged file now is (empty: nothing was set aside)
    QString backupUsed; // restore: which backup
    qint64 calls = 0; // calls in the history now at the path
    qint64 rowsRead = 0; // recover: rows copied over, every table
    QStringList lost; // recover: what could not be read ("calls: ids 120 to 187")
};

// The backups of the database at `databasePath`, newest first, each opened read-only to
// count its calls (an unreadable one has calls = -1).
QList<BackupInfo> listBackups(const QString &databasePath);

// True when the newest backup is older than a day (or there is none).
bool dailyBackupDue(const QString &databasePath);

// Writes a backup of `database` beside it, verifies it (quick_check and its calls counted),
// and removes all but the newest kKeptBackups. Uses the caller's connection (any thread
// that owns it); a busy history is fine, VACUUM INTO reads one snapshot.
StoreResult<BackupInfo> backup(Database &database, BackupReason reason);

// Opens the file read-only and runs SQLite's integrity check. A missing file is an error.
StoreResult<CheckReport> check(const QString &databasePath);

// Sets the damaged file aside and puts a copy of `backupPath` (default: the newest readable
// backup) in its place. Refused while this process has the file open.
StoreResult<RescueReport> restore(const QString &databasePath, const QString &backupPath = {});

// Reads every row that can still be read into a new file, sets the damaged file aside and
// puts the new file in its place. Refused while this process has the file open.
StoreResult<RescueReport> recover(const QString &databasePath);

// Sets the damaged file aside; the next open makes an empty history at the path.
StoreResult<RescueReport> startNew(const QString &databasePath);

} // namespace HistoryRescue
} // namespace Callscope
