#include "core/store/historyrescue.h"

#include "core/store/database.h"
#include "core/store/schema.h"

#include <QAtomicInteger>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QTimeZone>

#include <functional>
#include <limits>

using namespace Qt::StringLiterals;

namespace Callscope::HistoryRescue {

namespace {

constexpr auto kBackupInfix = ".backup-"_L1;
constexpr auto kDamagedInfix = ".damaged-"_L1;
constexpr auto kPartSuffix = ".part"_L1;
constexpr auto kStampFormat = "yyyyMMdd-HHmmss"_L1;
// Backups carry milliseconds too, so that their names sort in the order they were made.
constexpr auto kBackupStampFormat = "yyyyMMdd-HHmmss-zzz"_L1;
constexpr int kBackupStampLength = 19;
// Rows copied per query while recovering; a damaged page costs at most this many re-reads.
constexpr int kRecoverChunk = 256;

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Store)
};

QString nextName()
{
    static QAtomicInteger<quint64> counter;
    return u"callscope-rescue-%1"_s.arg(counter.fetchAndAddRelaxed(1) + 1);
}

QString stamp(const QDateTime &when)
{
    return when.toUTC().toString(kStampFormat);
}

// Runs `work` on a read-only connection of its own to `path` (never a QFile: see
// database.cpp for why), then removes the connection.
StoreError withReadOnly(const QString &path, const std::function<StoreError(QSqlDatabase &)> &work)
{
    const QString name = nextName();
    StoreError error;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, name);
        db.setDatabaseName(path);
        db.setConnectOptions(u"QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=15000"_s);
        if (!db.open())
            error = StoreError::make(StoreError::Code::Io,
                                     Tr::tr("cannot open %1: %2").arg(path, db.lastError().text()));
        else
            error = work(db);
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return error;
}

qint64 countCalls(QSqlDatabase &db)
{
    QSqlQuery query(db);
    if (query.exec(u"SELECT count(*) FROM calls"_s) && query.next())
        return query.value(0).toLongLong();
    return -1;
}

QStringList companions(const QString &path)
{
    return { path, path + u"-wal"_s, path + u"-shm"_s };
}

StoreError refuseWhileOpen(const QString &path)
{
    if (DatabaseMonitor::instance()->openConnections(path) > 0)
        return StoreError::make(
            StoreError::Code::Locked,
            Tr::tr("%1 is still open in this program; close it first").arg(path));
    return {};
}

// Renames the database and its -wal/-shm to `<path>.damaged-<stamp>`; returns the new name
// (empty when there was no file).
StoreResult<QString> setAside(const QString &path)
{
    if (!QFileInfo::exists(path))
        return QString();
    QString target = path + kDamagedInfix + stamp(QDateTime::currentDateTimeUtc());
    for (int n = 2; QFileInfo::exists(target); ++n)
        target = path + kDamagedInfix + stamp(QDateTime::currentDateTimeUtc()) + u'-'
            + QString::number(n);
    const QStringList from = companions(path);
    const QStringList to = companions(target);
    for (int i = 0; i < from.size(); ++i) {
        if (!QFileInfo::exists(from.at(i)))
            continue;
        if (!QFile::rename(from.at(i), to.at(i)))
            return StoreError::make(StoreError::Code::Io,
                                    Tr::tr("cannot move %1 aside to %2").arg(from.at(i), to.at(i)));
    }
    return target;
}

std::optional<QDateTime> stampOf(const QString &fileName, const QString &base)
{
    const QString prefix = base + kBackupInfix;
    if (!fileName.startsWith(prefix) || fileName.endsWith(kPartSuffix))
        return std::nullopt;
    QDateTime when =
        QDateTime::fromString(fileName.mid(prefix.size(), kBackupStampLength), kBackupStampFormat);
    if (!when.isValid())
        return std::nullopt;
    when.setTimeZone(QTimeZone::utc());
    return when;
}

// Backup file names of the database, newest first (no file is opened).
QStringList backupFiles(const QString &databasePath)
{
    const QFileInfo info(databasePath);
    const QDir dir = info.absoluteDir();
    const QString base = info.fileName();
    QList<std::pair<QDateTime, QString>> found;
    const QStringList names = dir.entryList({ base + kBackupInfix + u'*' }, QDir::Files);
    for (const QString &name : names) {
        if (auto when = stampOf(name, base))
            found.append({ *when, dir.filePath(name) });
    }
    std::sort(found.begin(), found.end(), [](const auto &a, const auto &b) {
        return a.first != b.first ? a.first > b.first : a.second > b.second;
    });
    QStringList paths;
    for (const auto &entry : std::as_const(found))
        paths.append(entry.second);
    return paths;
}

BackupInfo describe(const QString &path, const QString &databasePath)
{
    BackupInfo info;
    info.path = path;
    info.bytes = QFileInfo(path).size();
    info.createdUtc = stampOf(QFileInfo(path).fileName(), QFileInfo(databasePath).fileName())
                          .value_or(QDateTime());
    withReadOnly(path, [&info](QSqlDatabase &db) {
        info.calls = countCalls(db);
        return StoreError();
    });
    return info;
}

// A damaged page makes a query fail part way; these helpers say where to read on.
struct TableCopy
{
    QString table;
    QStringList columns;
    qint64 rows = 0;
    QStringList lost;
};

// The first rowid at or after `from` whose page can be read, probing ever further past a
// damaged stretch; nullopt when nothing readable follows.
std::optional<qint64> nextReadable(QSqlDatabase &db, const QString &table, qint64 from,
                                   qint64 maxRowid)
{
    QSqlQuery probe(db);
    qint64 step = 1;
    for (qint64 at = from; at <= maxRowid; at = (at > maxRowid - step) ? maxRowid + 1 : at + step) {
        probe.prepare(
            u"SELECT rowid FROM \"%1\" WHERE rowid >= ? ORDER BY rowid LIMIT 1"_s.arg(table));
        probe.addBindValue(at);
        if (probe.exec()) {
            if (probe.next())
                return probe.value(0).toLongLong();
            if (!probe.lastError().isValid())
                return std::nullopt; // nothing after this point
        }
        if (step < (std::numeric_limits<qint64>::max() / 4))
            step *= 2;
    }
    return std::nullopt;
}

StoreError copyTable(QSqlDatabase &from, QSqlDatabase &to, TableCopy &copy)
{
    const QString columnList = u'"' + copy.columns.join(u"\", \""_s) + u'"';
    QStringList marks;
    for (qsizetype i = 0; i < copy.columns.size(); ++i)
        marks.append(u"?"_s);
    QSqlQuery insert(to);
    if (!insert.prepare(u"INSERT OR IGNORE INTO \"%1\" (%2) VALUES (%3)"_s.arg(
            copy.table, columnList, marks.join(u", "_s))))
        return StoreError::make(StoreError::Code::Sql, insert.lastError().text());

    // The largest rowid bounds the search past damage; if even that cannot be read, probe
    // up to the largest possible one.
    qint64 maxRowid = std::numeric_limits<qint64>::max() - 1;
    {
        QSqlQuery max(from);
        if (max.exec(u"SELECT max(rowid) FROM \"%1\""_s.arg(copy.table)) && max.next()) {
            if (max.value(0).isNull())
                return {}; // an empty table
            maxRowid = max.value(0).toLongLong();
        }
    }
    qint64 next = std::numeric_limits<qint64>::min() + 1;
    QSqlQuery read(from);
    read.setForwardOnly(true);
    while (next <= maxRowid) {
        read.prepare(u"SELECT rowid, %1 FROM \"%2\" WHERE rowid >= ? ORDER BY rowid LIMIT %3"_s
                         .arg(columnList, copy.table)
                         .arg(kRecoverChunk));
        read.addBindValue(next);
        int got = 0;
        qint64 last = next - 1;
        bool failed = !read.exec();
        while (!failed && read.next()) {
            last = read.value(0).toLongLong();
            for (int i = 0; i < copy.columns.size(); ++i)
                insert.bindValue(i, read.value(i + 1));
            if (!insert.exec())
                return StoreError::make(StoreError::Code::Sql, insert.lastError().text());
            ++copy.rows;
            ++got;
        }
        if (!failed && read.lastError().isValid())
            failed = true;
        read.finish();
        if (!failed) {
            if (got < kRecoverChunk || last >= maxRowid)
                break;
            next = last + 1;
            continue;
        }
        const auto resume = nextReadable(from, copy.table, last + 1, maxRowid);
        // Rows the damage hid: from after the last one read to before the next readable one.
        const QString firstLost = QString::number(last < 1 ? 1 : last + 1);
        if (!resume || *resume > maxRowid) {
            copy.lost.append(Tr::tr("%1: rows from %2 on").arg(copy.table, firstLost));
            break;
        }
        if (*resume <= last + 1) {
            // The seek works but reading on does not: skip this row alone.
            copy.lost.append(Tr::tr("%1: row %2").arg(copy.table).arg(last + 1));
            next = last + 2;
        } else {
            copy.lost.append(
                Tr::tr("%1: rows %2 to %3").arg(copy.table, firstLost).arg(*resume - 1));
            next = *resume;
        }
    }
    return {};
}

QStringList columnsOf(QSqlDatabase &db, const QString &table)
{
    QStringList columns;
    QSqlQuery query(db);
    if (!query.exec(u"PRAGMA table_info(\"%1\")"_s.arg(table)))
        return columns;
    while (query.next())
        columns.append(query.value(1).toString());
    return columns;
}

} // namespace

QList<BackupInfo> listBackups(const QString &databasePath)
{
    QList<BackupInfo> backups;
    for (const QString &path : backupFiles(databasePath))
        backups.append(describe(path, databasePath));
    return backups;
}

bool dailyBackupDue(const QString &databasePath)
{
    const QStringList files = backupFiles(databasePath);
    if (files.isEmpty())
        return true;
    const auto newest =
        stampOf(QFileInfo(files.first()).fileName(), QFileInfo(databasePath).fileName());
    return !newest || newest->secsTo(QDateTime::currentDateTimeUtc()) >= 24 * 3600;
}

StoreResult<BackupInfo> backup(Database &database, BackupReason reason)
{
    const QString databasePath = database.path();
    // Later than every backup there is, even within one millisecond.
    QDateTime when = QDateTime::currentDateTimeUtc();
    const QStringList existing = backupFiles(databasePath);
    if (!existing.isEmpty()) {
        const auto newest =
            stampOf(QFileInfo(existing.first()).fileName(), QFileInfo(databasePath).fileName());
        if (newest && *newest >= when)
            when = newest->addMSecs(1);
    }
    const QString target = databasePath + kBackupInfix + when.toUTC().toString(kBackupStampFormat);
    const QString part = target + kPartSuffix;
    QFile::remove(part);

    QSqlQuery query(database.connection());
    query.prepare(u"VACUUM INTO ?"_s);
    query.addBindValue(part);
    if (!query.exec()) {
        StoreError error = database.errorFrom(query, Tr::tr("writing a backup to %1").arg(part));
        QFile::remove(part);
        return error;
    }
    query.finish();

    // A backup counts only once it reads back whole.
    BackupInfo info;
    const StoreError verified = withReadOnly(part, [&info](QSqlDatabase &db) {
        QSqlQuery check(db);
        if (!check.exec(u"PRAGMA quick_check"_s) || !check.next())
            return StoreError::make(StoreError::Code::Corrupt, check.lastError().text());
        if (check.value(0).toString() != "ok"_L1)
            return StoreError::make(StoreError::Code::Corrupt, check.value(0).toString());
        check.finish();
        info.calls = countCalls(db);
        return info.calls < 0
            ? StoreError::make(StoreError::Code::Corrupt, Tr::tr("no calls table"))
            : StoreError();
    });
    if (verified) {
        QFile::remove(part);
        return StoreError::make(
            verified.code,
            Tr::tr("the backup %1 did not read back: %2").arg(target, verified.message));
    }
    if (!QFile::rename(part, target)) {
        QFile::remove(part);
        return StoreError::make(StoreError::Code::Io,
                                Tr::tr("cannot name the backup %1").arg(target));
    }
    info.path = target;
    info.bytes = QFileInfo(target).size();
    info.createdUtc = stampOf(QFileInfo(target).fileName(), QFileInfo(databasePath).fileName())
                          .value_or(QDateTime::currentDateTimeUtc());
    qCInfo(lcStore) << "backup" << target << "of" << databasePath << "with" << info.calls
                    << "calls, reason" << static_cast<int>(reason);

    const QStringList files = backupFiles(databasePath);
    for (qsizetype i = kKeptBackups; i < files.size(); ++i)
        QFile::remove(files.at(i));
    return info;
}

StoreResult<CheckReport> check(const QString &databasePath)
{
    if (!QFileInfo(databasePath).isFile())
        return StoreError::make(StoreError::Code::Io,
                                Tr::tr("there is no history at %1").arg(databasePath));
    CheckReport report;
    const StoreError error = withReadOnly(databasePath, [&report](QSqlDatabase &db) {
        QSqlQuery query(db);
        if (!query.exec(u"PRAGMA integrity_check(20)"_s)) {
            report.problems.append(query.lastError().text());
            return StoreError();
        }
        while (query.next())
            report.problems.append(query.value(0).toString());
        if (query.lastError().isValid())
            report.problems.append(query.lastError().text());
        query.finish();
        report.ok = report.problems == QStringList { u"ok"_s };
        if (report.ok)
            report.problems.clear();
        report.calls = countCalls(db);
        return StoreError();
    });
    if (error)
        return error;
    return report;
}

StoreResult<RescueReport> restore(const QString &databasePath, const QString &backupPath)
{
    if (StoreError error = refuseWhileOpen(databasePath); error)
        return error;
    BackupInfo chosen;
    if (!backupPath.isEmpty()) {
        chosen = describe(backupPath, databasePath);
    } else {
        for (const BackupInfo &info : listBackups(databasePath)) {
            if (info.readable()) {
                chosen = info;
                break;
            }
        }
    }
    if (chosen.path.isEmpty())
        return StoreError::make(StoreError::Code::NotFound,
                                Tr::tr("there is no backup of %1 to restore").arg(databasePath));
    if (!chosen.readable())
        return StoreError::make(StoreError::Code::Corrupt,
                                Tr::tr("the backup %1 cannot be read").arg(chosen.path));
    // Copy first, so that a failure leaves the damaged file where it was.
    const QString incoming = databasePath + u".restoring"_s;
    QFile::remove(incoming);
    if (!QFile::copy(chosen.path, incoming))
        return StoreError::make(
            StoreError::Code::Io,
            Tr::tr("cannot copy the backup %1 to %2").arg(chosen.path, incoming));
    auto aside = setAside(databasePath);
    if (!aside) {
        QFile::remove(incoming);
        return aside.error();
    }
    if (!QFile::rename(incoming, databasePath))
        return StoreError::make(StoreError::Code::Io,
                                Tr::tr("cannot put the backup in place at %1 "
                                       "(it is at %2)")
                                    .arg(databasePath, incoming));
    DatabaseMonitor::instance()->clearDamage(databasePath);
    RescueReport report;
    report.damagedKeptAs = *aside;
    report.backupUsed = chosen.path;
    report.calls = chosen.calls;
    return report;
}

StoreResult<RescueReport> recover(const QString &databasePath)
{
    if (StoreError error = refuseWhileOpen(databasePath); error)
        return error;
    if (!QFileInfo(databasePath).isFile())
        return StoreError::make(StoreError::Code::Io,
                                Tr::tr("there is no history at %1").arg(databasePath));
    const QString fresh = databasePath + u".recovering"_s;
    for (const QString &file : companions(fresh))
        QFile::remove(file);

    RescueReport report;
    {
        auto opened = Database::open(fresh);
        if (!opened)
            return opened.error();
        Database &target = *opened.value();
        QSqlDatabase to = target.connection();
        QSqlQuery setup(to);
        // Rows arrive table by table; links are checked once everything is in.
        setup.exec(u"PRAGMA foreign_keys = OFF"_s);
        QStringList tables;
        setup.exec(
            u"SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "AND name NOT LIKE 'calls_fts%' AND name <> 'calls_search' ORDER BY name"_s);
        while (setup.next())
            tables.append(setup.value(0).toString());
        setup.finish();

        if (StoreError error = target.begin(); error)
            return error;
        StoreError copyError = withReadOnly(databasePath, [&](QSqlDatabase &from) {
            for (const QString &table : std::as_const(tables)) {
                const QStringList theirs = columnsOf(from, table);
                TableCopy copy;
                copy.table = table;
                for (const QString &column : columnsOf(to, table)) {
                    if (theirs.contains(column))
                        copy.columns.append(column);
                }
                if (copy.columns.isEmpty()) {
                    // A table an older layout did not have is not lost; one SQLite cannot
                    // even name is.
                    QSqlQuery exists(from);
                    exists.prepare(
                        u"SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"_s);
                    exists.addBindValue(table);
                    if (!exists.exec() || exists.next() || exists.lastError().isValid())
                        report.lost.append(Tr::tr("%1: the whole table").arg(table));
                    continue;
                }
                if (StoreError error = copyTable(from, to, copy); error)
                    return error;
                report.rowsRead += copy.rows;
                report.lost.append(copy.lost);
            }
            return StoreError();
        });
        if (copyError) {
            target.rollback();
            return copyError;
        }
        // Rows whose parent was lost go too (a turn without its call, ...), until none is left.
        for (int round = 0; round < 8; ++round) {
            QSqlQuery fk(to);
            QList<std::pair<QString, qint64>> orphans;
            if (fk.exec(u"PRAGMA foreign_key_check"_s)) {
                while (fk.next())
                    orphans.append({ fk.value(0).toString(), fk.value(1).toLongLong() });
            }
            fk.finish();
            if (orphans.isEmpty())
                break;
            for (const auto &[table, rowid] : std::as_const(orphans)) {
                QSqlQuery remove(to);
                remove.prepare(u"DELETE FROM \"%1\" WHERE rowid = ?"_s.arg(table));
                remove.addBindValue(rowid);
                remove.exec();
            }
            report.lost.append(Tr::tr("rows whose parent row was lost: %1").arg(orphans.size()));
        }
        if (StoreError error = Schema::indexAllCalls(target); error) {
            target.rollback();
            return error;
        }
        if (StoreError error = target.commit(); error)
            return error;
        QSqlQuery count(to);
        if (count.exec(u"SELECT count(*) FROM calls"_s) && count.next())
            report.calls = count.value(0).toLongLong();
    }
    // The new file is closed (its WAL folded in); only now does the damaged one move.
    auto aside = setAside(databasePath);
    if (!aside)
        return aside.error();
    report.damagedKeptAs = *aside;
    const QStringList from = companions(fresh);
    const QStringList to = companions(databasePath);
    for (int i = 0; i < from.size(); ++i) {
        if (QFileInfo::exists(from.at(i)) && !QFile::rename(from.at(i), to.at(i)))
            return StoreError::make(StoreError::Code::Io,
                                    Tr::tr("cannot put the recovered history in place at %1 (it is "
                                           "at %2)")
                                        .arg(databasePath, fresh));
    }
    DatabaseMonitor::instance()->clearDamage(databasePath);
    return report;
}

StoreResult<RescueReport> startNew(const QString &databasePath)
{
    if (StoreError error = refuseWhileOpen(databasePath); error)
        return error;
    auto aside = setAside(databasePath);
    if (!aside)
        return aside.error();
    DatabaseMonitor::instance()->clearDamage(databasePath);
    RescueReport report;
    report.damagedKeptAs = *aside;
    return report;
}

} // namespace Callscope::HistoryRescue
