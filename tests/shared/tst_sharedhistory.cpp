// One history used by many processes at once, and the ways back from a damaged one: real
// SQLite files, real callscope-cli processes (a batch against the fake provider, with history,
// show, export and import run beside it), /proc/PID/fd read to catch a process writing into a
// deleted -wal or -shm, damaged files made by overwriting pages or by half a checkpoint, and
// the studio's rescue dialog and History list driven offscreen.

#include "core/model/specio.h"
#include "core/service/appcontext.h"
#include "core/service/calljob.h"
#include "core/service/callservice.h"
#include "core/store/callexchange.h"
#include "core/store/callstore.h"
#include "core/store/database.h"
#include "core/store/historyrescue.h"
#include "core/store/historywatcher.h"
#include "core/store/storereader.h"
#include "tests/support/fakeprovider.h"
#include "tests/support/testsupport.h"
#include "ui/history/historymodel.h"
#include "ui/transfer/transfercontroller.h"
#include "ui/widgets/historyrescuedialog.h"
#include "ui/widgets/studioservices.h"
#include "ui/window/historydocks.h"
#include "ui/window/mainwindow.h"

#include <QApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QRandomGenerator>
#include <QSettings>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <map>
#include <unistd.h>

using namespace Qt::StringLiterals;
using namespace Callscope;
using namespace Callscope::Test;

namespace {

constexpr auto kKeyEnv = "SHARED_TEST_API_KEY";

struct Cli
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    QJsonValue json() const
    {
        const QJsonDocument doc = QJsonDocument::fromJson(out);
        if (doc.isArray())
            return doc.array();
        return doc.isObject() ? QJsonValue(doc.object()) : QJsonValue();
    }
};

QProcessEnvironment cliEnvironment()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QString::fromLatin1(kKeyEnv), u"sk-shared-test"_s);
    env.insert(u"CALLSCOPE_TRUST"_s, u"1"_s);
    return env;
}

Cli runCli(const QStringList &arguments)
{
    QProcess process;
    process.setProcessEnvironment(cliEnvironment());
    process.start(cliPath(), arguments);
    Cli result;
    process.closeWriteChannel();
    if (!process.waitForFinished(120000)) {
        process.kill();
        process.waitForFinished();
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

// Descriptors of `pid` that point at a deleted file whose name starts with `path` (the
// database, its -wal or -shm): the sign of a process writing where nobody else looks.
QStringList deletedHistoryFiles(qint64 pid, const QString &path)
{
    QStringList found;
    const QString canonical = QFileInfo(path).canonicalFilePath().isEmpty()
        ? QFileInfo(path).absoluteFilePath()
        : QFileInfo(path).canonicalFilePath();
    QDirIterator it(u"/proc/%1/fd"_s.arg(pid), QDir::System | QDir::Files | QDir::NoDotAndDotDot);
    while (it.hasNext()) {
        const QByteArray link = QFile::encodeName(it.next());
        char target[4096];
        const ssize_t n = ::readlink(link.constData(), target, sizeof target - 1);
        if (n <= 0)
            continue;
        const QString name = QFile::decodeName(QByteArray(target, int(n)));
        if (name.startsWith(canonical) && name.endsWith(u" (deleted)"_s))
            found.append(name);
    }
    return found;
}

CallRecord sampleCall(int n)
{
    CallRecord r;
    r.kind = u"shared"_s;
    r.status = CallStatus::Completed;
    r.input =
        QJsonObject { { u"text"_s, u"Question number %1 about the shared history"_s.arg(n) } };
    r.response = QJsonObject { { u"answer"_s, u"Answer %1 "_s.arg(n).repeated(40) } };
    r.systemPrompt = u"Answer briefly."_s;
    r.engineType = u"openai"_s;
    r.model = u"fake-model"_s;
    r.createdAt = QDateTime::currentDateTimeUtc();
    r.finishedAt = r.createdAt;
    return r;
}

bool fillHistory(const QString &path, int calls, int from = 1)
{
    auto db = Database::open(path);
    if (!db)
        return false;
    CallStore store(**db);
    QList<CallRecord> records;
    for (int i = 0; i < calls; ++i)
        records.append(sampleCall(from + i));
    return bool(store.insertCalls(records));
}

qint64 countCalls(const QString &path)
{
    auto report = HistoryRescue::check(path);
    return report ? report->calls : -1;
}

// Overwrites three pages in the middle of the calls table's own pages (SQLite's dbstat table
// says which they are), as a disk fault under the stored calls would. The schema's pages are
// left alone: where they lie depends on the migrations, and a damaged schema is another case
// (the file does not open at all).
bool overwriteMiddle(const QString &path)
{
    QList<qint64> pages;
    const QString name = u"pages-"_s + QString::number(QRandomGenerator::global()->generate64());
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, name);
        db.setDatabaseName(path);
        if (db.open()) {
            QSqlQuery q(db);
            if (q.exec(u"SELECT pageno FROM dbstat WHERE name = 'calls' ORDER BY pageno"_s)) {
                while (q.next())
                    pages.append(q.value(0).toLongLong());
            }
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    if (pages.size() < 8)
        return false;
    QFile file(path);
    if (!file.open(QIODevice::ReadWrite))
        return false;
    const qint64 page = 4096;
    for (qsizetype i = pages.size() / 2; i < pages.size() / 2 + 3; ++i) {
        if (!file.seek((pages.at(i) - 1) * page)
            || file.write(QByteArray(int(page), '\x5a')) != page)
            return false;
    }
    return true;
}

QByteArray hashOf(const QString &path)
{
    return QCryptographicHash::hash(readFile(path), QCryptographicHash::Sha256);
}

// A checkpoint cut off part way, then the WAL lost (what a process deleting another's WAL leads
// to): of the newest version of each page the WAL holds, every other one reaches the file.
bool halfCheckpointThenLoseWal(const QString &path)
{
    const QByteArray wal = readFile(path + u"-wal"_s);
    if (wal.size() < 32)
        return false;
    auto be32 = [&wal](qsizetype at) {
        return (quint32(quint8(wal[at])) << 24) | (quint32(quint8(wal[at + 1])) << 16)
            | (quint32(quint8(wal[at + 2])) << 8) | quint32(quint8(wal[at + 3]));
    };
    const quint32 pageSize = be32(8);
    const qsizetype frame = 24 + qsizetype(pageSize);
    const qsizetype frames = (wal.size() - 32) / frame;
    if (frames < 4)
        return false;
    // Only the frames of the WAL's current generation count: they carry the header's salts.
    // Frames after them are left from before the WAL was last restarted (SQLite ignores them);
    // so are the frames of a transaction that has no commit frame yet.
    std::map<quint32, qsizetype> newest; // page number -> offset of its newest frame
    std::map<quint32, qsizetype> pending;
    for (qsizetype i = 0; i < frames; ++i) {
        const qsizetype at = 32 + i * frame;
        if (be32(at + 8) != be32(16) || be32(at + 12) != be32(20))
            break;
        pending[be32(at)] = at;
        if (be32(at + 4) != 0) { // a commit frame: the database's size after it
            for (const auto &[pageNumber, offset] : pending)
                newest[pageNumber] = offset;
            pending.clear();
        }
    }
    if (newest.size() < 4)
        return false;
    QFile db(path);
    if (!db.open(QIODevice::ReadWrite))
        return false;
    // Every other page reaches the file.
    bool write = true;
    for (const auto &[pageNumber, at] : newest) {
        if (write) {
            db.seek(qint64(pageNumber - 1) * pageSize);
            db.write(wal.constData() + at + 24, pageSize);
        }
        write = !write;
    }
    db.close();
    return QFile::remove(path + u"-wal"_s)
        && (!QFile::exists(path + u"-shm"_s) || QFile::remove(path + u"-shm"_s));
}

// Clicks `choice` in the rescue dialog as soon as it is shown (it is modal).
void answerRescueDialog(HistoryRescueDialog::Choice choice, QString *shownText, bool *found)
{
    auto *timer = new QTimer;
    timer->setInterval(20);
    QObject::connect(timer, &QTimer::timeout, timer, [timer, choice, shownText, found] {
        auto *dialog = qobject_cast<HistoryRescueDialog *>(QApplication::activeModalWidget());
        if (!dialog)
            return;
        timer->stop();
        timer->deleteLater();
        *found = true;
        for (QLabel *label : dialog->findChildren<QLabel *>())
            *shownText += label->text() + u'\n';
        dialog->resize(640, dialog->sizeHint().height());
        dialog->grab().save(Test::buildPath(u"screenshots/history-rescue.png"_s));
        QTest::mouseClick(dialog->button(choice), Qt::LeftButton);
    });
    timer->start();
}

} // namespace

class TestSharedHistory final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void secondOpenInProcessKeepsTheWal();
    void processesShareOneHistory();
    void backupsAreVerifiedAndKept();
    void damagedFileWaysBackFromTheCli();
    void lostWalWaysBackFromTheCli();
    void studioOffersTheWayBack();
    void studioSeesOtherProcessesCalls();
    void studioBesideACliBatch();
    void studioImportsBesideACliBatch();
};

void TestSharedHistory::initTestCase()
{
    QVERIFY2(QFile::exists(cliPath()), "callscope-cli not built");
    QCoreApplication::setOrganizationName(u"CallscopeTest"_s);
    QCoreApplication::setApplicationName(u"tst_sharedhistory"_s);
}

void TestSharedHistory::secondOpenInProcessKeepsTheWal()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"h.sqlite"_s);
    auto first = Database::open(path);
    QVERIFY2(first, qPrintable(first.error().message));
    CallStore store(**first);
    QVERIFY(store.insertCall(sampleCall(1)));
    {
        // A second connection in this process, opened and closed (the store writer, an export).
        auto second = Database::open(path);
        QVERIFY2(second, qPrintable(second.error().message));
    }
    QCOMPARE(DatabaseMonitor::instance()->openConnections(path), 1);
    // Another process opens and closes the history; it must not take itself for the last user.
    for (int i = 0; i < 3; ++i) {
        const Cli listed = runCli({ u"history"_s, u"--db"_s, path });
        QVERIFY2(listed.exitCode == 0, listed.err.constData());
    }
    QVERIFY2(
        deletedHistoryFiles(QCoreApplication::applicationPid(), path).isEmpty(),
        qPrintable(deletedHistoryFiles(QCoreApplication::applicationPid(), path).join(u", "_s)));
    QVERIFY(QFile::exists(path + u"-wal"_s));
    // What this process writes now is what the other processes read.
    auto id = store.insertCall(sampleCall(2));
    QVERIFY(id);
    const Cli shown = runCli({ u"show"_s, QString::number(*id), u"--db"_s, path });
    QVERIFY2(shown.exitCode == 0, shown.err.constData());
    QCOMPARE(shown.json().toObject().value(u"id"_s).toInteger(), *id);
}

void TestSharedHistory::processesShareOneHistory()
{
    QTemporaryDir dir;
    FakeProviderThread server;
    QVERIFY(server.listen());
    server.run([](FakeProvider &p) {
        p.setResponder(twoTurnResponder(u"get_ticket"_s, { { u"title"_s, u"Shared"_s } }, 40));
    });
    const QString spec = dir.filePath(u"planner.spec.json"_s);
    const QString inputs = dir.filePath(u"inputs.jsonl"_s);
    const QString path = dir.filePath(u"history.sqlite"_s);
    const int lines = 60;
    {
        QFile file(spec);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(twoTurnSpecJson(server.baseUrl(), QString::fromLatin1(kKeyEnv)))
                       .toJson());
        QFile in(inputs);
        QVERIFY(in.open(QIODevice::WriteOnly));
        for (int i = 1; i <= lines; ++i)
            in.write("\"Plan ticket " + QByteArray::number(i) + "\"\n");
    }
    // Something to import while the batch writes: an export of a call from another history.
    const QString other = dir.filePath(u"other.sqlite"_s);
    QVERIFY(fillHistory(other, 1));
    const QString document = dir.filePath(u"import.json"_s);
    const Cli exported = runCli({ u"export"_s, u"1"_s, u"--out"_s, document, u"--db"_s, other });
    QVERIFY2(exported.exitCode == 0, exported.err.constData());

    QProcess batch;
    batch.setProcessEnvironment(cliEnvironment());
    // Nobody reads its pipes while the readers run: a full pipe would stall the batch.
    batch.setStandardOutputFile(dir.filePath(u"batch.out"_s));
    batch.setStandardErrorFile(dir.filePath(u"batch.err"_s));
    batch.start(cliPath(),
                { u"batch"_s, spec, u"--inputs"_s, inputs, u"--jobs"_s, u"4"_s, u"--db"_s, path });
    QVERIFY(batch.waitForStarted());
    batch.closeWriteChannel();

    int readers = 0;
    int checks = 0;
    bool imported = false;
    QStringList failures;
    QStringList deleted;
    // Readers and an importer beside the writer, until the batch is done.
    // (waitForFinished(1) lets QProcess notice the batch's exit; nothing else here runs its
    // event loop.)
    while (!batch.waitForFinished(1) && batch.state() == QProcess::Running) {
        deleted += deletedHistoryFiles(batch.processId(), path);
        ++checks;
        if (!QFile::exists(path)) {
            batch.waitForFinished(50);
            continue;
        }
        const Cli listed = runCli({ u"history"_s, u"--limit"_s, u"5"_s, u"--db"_s, path });
        ++readers;
        if (listed.exitCode != 0) {
            failures.append(u"history: "_s + QString::fromUtf8(listed.err));
            continue;
        }
        const QJsonArray rows = listed.json().toArray();
        if (!rows.isEmpty()) {
            const QString id = QString::number(rows.first().toObject().value(u"id"_s).toInteger());
            const Cli shown = runCli({ u"show"_s, id, u"--db"_s, path });
            const Cli out = runCli(
                { u"export"_s, id, u"--out"_s, dir.filePath(u"out.json"_s), u"--db"_s, path });
            readers += 2;
            if (shown.exitCode != 0)
                failures.append(u"show: "_s + QString::fromUtf8(shown.err));
            if (out.exitCode != 0)
                failures.append(u"export: "_s + QString::fromUtf8(out.err));
            if (!imported) {
                const Cli in = runCli({ u"import"_s, document, u"--db"_s, path });
                imported = true;
                if (in.exitCode != 0)
                    failures.append(u"import: "_s + QString::fromUtf8(in.err));
            }
        }
        deleted += deletedHistoryFiles(batch.processId(), path);
    }
    QCOMPARE(batch.state(), QProcess::NotRunning);
    const QByteArray batchErr = readFile(dir.filePath(u"batch.err"_s));
    QVERIFY2(batch.exitCode() == 0, batchErr.constData());
    QVERIFY2(failures.isEmpty(), qPrintable(failures.join(u'\n')));
    QVERIFY2(deleted.isEmpty(), qPrintable(deleted.join(u'\n')));
    qInfo("%d reader processes and one import beside the batch; /proc/PID/fd read %d times",
          readers, checks);
    QVERIFY(readers >= 3);
    QVERIFY(imported);

    auto report = HistoryRescue::check(path);
    QVERIFY2(report && report->ok,
             report ? qPrintable(report->problems.join(u'\n')) : "check failed");
    // Every input line stored exactly once, plus the imported call; ids never collided.
    auto db = Database::open(path);
    QVERIFY(db);
    QSqlQuery q((*db)->connection());
    QVERIFY(q.exec(u"SELECT b.line, COUNT(*) FROM batch_calls b JOIN calls c ON c.id = b.call_id "
                   u"WHERE c.status = 'completed' GROUP BY b.line"_s));
    QHash<int, int> perLine;
    while (q.next())
        perLine.insert(q.value(0).toInt(), q.value(1).toInt());
    QCOMPARE(perLine.size(), lines);
    for (auto it = perLine.cbegin(); it != perLine.cend(); ++it)
        QCOMPARE(it.value(), 1);
    QCOMPARE(report->calls, qint64(lines + 1));
}

void TestSharedHistory::backupsAreVerifiedAndKept()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"h.sqlite"_s);
    QVERIFY(fillHistory(path, 5));
    QVERIFY(HistoryRescue::dailyBackupDue(path));
    for (int round = 1; round <= 5; ++round) {
        QVERIFY(fillHistory(path, 1, 100 + round));
        const Cli made = runCli({ u"history"_s, u"backup"_s, u"--db"_s, path });
        QVERIFY2(made.exitCode == 0, made.err.constData());
        const QJsonObject backup = made.json().toObject();
        QCOMPARE(backup.value(u"calls"_s).toInteger(), qint64(5 + round));
        QVERIFY(QFile::exists(backup.value(u"path"_s).toString()));
    }
    QVERIFY(!HistoryRescue::dailyBackupDue(path));
    const QList<HistoryRescue::BackupInfo> backups = HistoryRescue::listBackups(path);
    QCOMPARE(backups.size(), HistoryRescue::kKeptBackups);
    QCOMPARE(backups.first().calls, qint64(10)); // newest first
    QCOMPARE(backups.last().calls, qint64(8));
    const Cli listed = runCli({ u"history"_s, u"backups"_s, u"--db"_s, path });
    QCOMPARE(listed.json().toArray().size(), HistoryRescue::kKeptBackups);
    // No half-written backup is left behind, and none is counted.
    QCOMPARE(QDir(dir.path()).entryList({ u"*.part"_s }).size(), 0);
}

void TestSharedHistory::damagedFileWaysBackFromTheCli()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"h.sqlite"_s);
    QVERIFY(fillHistory(path, 200));
    const Cli made = runCli({ u"history"_s, u"backup"_s, u"--db"_s, path });
    QVERIFY2(made.exitCode == 0, made.err.constData());
    QVERIFY(fillHistory(path, 50, 201));
    QCOMPARE(countCalls(path), qint64(250));
    QVERIFY(overwriteMiddle(path));
    auto damaged = HistoryRescue::check(path);
    QVERIFY(damaged);
    QVERIFY2(!damaged->ok, "overwriting the middle of the file should have damaged it");
    const QByteArray damagedHash = hashOf(path);
    for (const QString &copy : { u"recover.sqlite"_s, u"new.sqlite"_s })
        QVERIFY(QFile::copy(path, dir.filePath(copy)));

    // check says so, with the ways back and the backup's date and size.
    const Cli checked = runCli({ u"history"_s, u"check"_s, u"--db"_s, path });
    QCOMPARE(checked.exitCode, 1);
    QCOMPARE(checked.json().toObject().value(u"ok"_s).toBool(), false);
    QVERIFY2(checked.err.contains("is damaged") && checked.err.contains("history restore")
                 && checked.err.contains("history recover") && checked.err.contains("history new")
                 && checked.err.contains("200 calls"),
             checked.err.constData());

    // restore: the backup's 200 calls; the damaged file kept byte for byte.
    const Cli restored = runCli({ u"history"_s, u"restore"_s, u"--db"_s, path });
    QVERIFY2(restored.exitCode == 0, restored.err.constData());
    const QJsonObject r = restored.json().toObject();
    QCOMPARE(r.value(u"calls"_s).toInteger(), qint64(200));
    const QString kept = r.value(u"damaged_kept_as"_s).toString();
    QVERIFY(QFile::exists(kept));
    QCOMPARE(hashOf(kept), damagedHash);
    QVERIFY(HistoryRescue::check(path)->ok);
    const Cli listed = runCli({ u"history"_s, u"--limit"_s, u"1000"_s, u"--db"_s, path });
    QCOMPARE(listed.json().toArray().size(), 200);

    // recover: what can be read, into a sound new file; the damaged one kept.
    const QString recoverPath = dir.filePath(u"recover.sqlite"_s);
    const Cli recovered = runCli({ u"history"_s, u"recover"_s, u"--db"_s, recoverPath });
    QVERIFY2(recovered.exitCode == 0, recovered.err.constData());
    const QJsonObject rr = recovered.json().toObject();
    qInfo("recover read %lld of 250 calls; lost: %s", rr.value(u"calls"_s).toInteger(),
          QJsonDocument(rr.value(u"lost"_s).toArray()).toJson(QJsonDocument::Compact).constData());
    QVERIFY(rr.value(u"calls"_s).toInteger() >= 150);
    QVERIFY(rr.value(u"calls"_s).toInteger() <= 250);
    QCOMPARE(hashOf(rr.value(u"damaged_kept_as"_s).toString()), damagedHash);
    auto after = HistoryRescue::check(recoverPath);
    QVERIFY2(after && after->ok, after ? qPrintable(after->problems.join(u'\n')) : "check failed");
    QCOMPARE(after->calls, rr.value(u"calls"_s).toInteger());
    const Cli searched = runCli({ u"history"_s, u"--search"_s, u"shared"_s, u"--limit"_s, u"1000"_s,
                                  u"--db"_s, recoverPath });
    QCOMPARE(searched.json().toArray().size(), int(after->calls)); // the search index was rebuilt

    // new: an empty history; the damaged file kept.
    const QString newPath = dir.filePath(u"new.sqlite"_s);
    const Cli fresh = runCli({ u"history"_s, u"new"_s, u"--db"_s, newPath });
    QVERIFY2(fresh.exitCode == 0, fresh.err.constData());
    QCOMPARE(hashOf(fresh.json().toObject().value(u"damaged_kept_as"_s).toString()), damagedHash);
    const Cli empty = runCli({ u"history"_s, u"--db"_s, newPath });
    QVERIFY2(empty.exitCode == 0, empty.err.constData());
    QCOMPARE(empty.json().toArray().size(), 0);
}

void TestSharedHistory::lostWalWaysBackFromTheCli()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"h.sqlite"_s);
    QVERIFY(fillHistory(path, 100));
    const Cli made = runCli({ u"history"_s, u"backup"_s, u"--db"_s, path });
    QVERIFY2(made.exitCode == 0, made.err.constData());
    const QString copy = dir.filePath(u"lost-wal.sqlite"_s);
    {
        // Writes that stay in the WAL (no checkpoint), copied by another process while open.
        auto db = Database::open(path);
        QVERIFY(db);
        QSqlQuery q((*db)->connection());
        QVERIFY(q.exec(u"PRAGMA wal_autocheckpoint = 0"_s));
        CallStore store(**db);
        for (int i = 0; i < 10; ++i) {
            QList<CallRecord> records;
            for (int j = 0; j < 30; ++j) {
                records.append(sampleCall(1000 + i * 30 + j));
                // UUIDs in order: the pages the WAL holds, and so the damage, are the same
                // every run (random ones made the recovery find nothing in some runs).
                records.last().uuid =
                    u"00000000-0000-4000-8000-%1"_s.arg(i * 30 + j, 12, 10, QLatin1Char('0'));
            }
            QVERIFY(store.insertCalls(records));
        }
        QVERIFY(QProcess::execute(u"cp"_s, { path, copy }) == 0);
        QVERIFY(QProcess::execute(u"cp"_s, { path + u"-wal"_s, copy + u"-wal"_s }) == 0);
    }
    QVERIFY(halfCheckpointThenLoseWal(copy));
    auto damaged = HistoryRescue::check(copy);
    QVERIFY(damaged);
    QVERIFY2(!damaged->ok, "half a checkpoint without its WAL should have damaged the file");
    // The backup belongs to h.sqlite; this copy has none of its own.
    const Cli checked = runCli({ u"history"_s, u"check"_s, u"--db"_s, copy });
    QCOMPARE(checked.exitCode, 1);
    QVERIFY2(checked.err.contains("no backup yet"), checked.err.constData());
    const Cli noBackup = runCli({ u"history"_s, u"restore"_s, u"--db"_s, copy });
    QCOMPARE(noBackup.exitCode, 1);
    QVERIFY(QFile::exists(copy)); // a failed restore moves nothing
    const Cli recovered = runCli({ u"history"_s, u"recover"_s, u"--db"_s, copy });
    QVERIFY2(recovered.exitCode == 0, recovered.err.constData());
    const qint64 calls = recovered.json().toObject().value(u"calls"_s).toInteger();
    qInfo("recovered %lld calls from half a checkpoint without its WAL", calls);
    QVERIFY(calls >= 1);
    QVERIFY(HistoryRescue::check(copy)->ok);
}

void TestSharedHistory::studioOffersTheWayBack()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"h.sqlite"_s);
    QVERIFY(fillHistory(path, 150));
    {
        auto db = Database::open(path);
        QVERIFY(db);
        QVERIFY(HistoryRescue::backup(**db, HistoryRescue::BackupReason::Requested));
    }
    QVERIFY(fillHistory(path, 50, 151));
    QVERIFY(overwriteMiddle(path));
    const QByteArray damagedHash = hashOf(path);

    // A damaged middle opens fine; the store's first read of it says damaged, as in a studio
    // that ran into it. The next start offers the way back.
    AppContext context;
    QVERIFY(context.openHistory(path));
    QSignalSpy damage(DatabaseMonitor::instance(), &DatabaseMonitor::damageFound);
    QWidget window;
    HistoryRescueDialog::watchForDamage(&window, &context);
    // Reading the calls one by one, as the History list and the call tabs do.
    int unreadable = 0;
    for (qint64 id = 1; id <= 200; ++id) {
        auto call = context.store()->getCall(id);
        if (!call && call.error().code == StoreError::Code::Corrupt)
            ++unreadable;
    }
    QVERIFY(unreadable > 0);
    QTRY_VERIFY(!damage.isEmpty());
    QTRY_VERIFY(HistoryRescueDialog::rememberedDamage().contains(path));
    // The running studio said it once, offering a restart; this one just closes.
    QWidget *box = nullptr;
    QTRY_VERIFY((box = window.findChild<QWidget *>(u"historyDamagedBox"_s)) != nullptr);
    delete box;
    context.closeHistory();

    QString shown;
    bool found = false;
    answerRescueDialog(HistoryRescueDialog::Choice::Restore, &shown, &found);
    AppContext next;
    next.openHistory(path);
    QVERIFY(HistoryRescueDialog::offerAtStart(next, path));
    QVERIFY(found);
    QVERIFY2(shown.contains(u"150 call"_s), qPrintable(shown)); // the backup, with its calls
    QVERIFY(next.store());
    QCOMPARE(countCalls(path), qint64(150));
    QVERIFY(!HistoryRescueDialog::rememberedDamage().contains(path));
    const QStringList kept = QDir(dir.path()).entryList({ u"h.sqlite.damaged-*"_s });
    QVERIFY(!kept.isEmpty());
    QCOMPARE(hashOf(dir.filePath(kept.first())), damagedHash);
    // Sound now: the next start offers nothing.
    AppContext third;
    third.openHistory(path);
    QVERIFY(!HistoryRescueDialog::offerAtStart(third, path));
}

void TestSharedHistory::studioSeesOtherProcessesCalls()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"h.sqlite"_s);
    QVERIFY(fillHistory(path, 2));
    auto db = Database::open(path);
    QVERIFY(db);
    HistoryWatcher watcher(db->get(), 50);
    QSignalSpy changed(&watcher, &HistoryWatcher::changed);
    const QString document = dir.filePath(u"doc.json"_s);
    QVERIFY(runCli({ u"export"_s, u"1"_s, u"--out"_s, document, u"--db"_s, path }).exitCode == 0);
    QVERIFY(changed.isEmpty()); // reading changes nothing
    const Cli imported = runCli({ u"import"_s, document, u"--db"_s, path });
    QVERIFY2(imported.exitCode == 0, imported.err.constData());
    QTRY_VERIFY(!changed.isEmpty());
}

void TestSharedHistory::studioBesideACliBatch()
{
    QTemporaryDir dir;
    FakeProviderThread server;
    QVERIFY(server.listen());
    server.run([](FakeProvider &p) {
        p.setResponder(twoTurnResponder(u"get_ticket"_s, { { u"title"_s, u"Beside"_s } }, 30));
    });
    qputenv(kKeyEnv, "sk-shared-test");
    const QJsonObject specJson = twoTurnSpecJson(server.baseUrl(), QString::fromLatin1(kKeyEnv));
    const QString spec = dir.filePath(u"planner.spec.json"_s);
    const QString inputs = dir.filePath(u"inputs.jsonl"_s);
    const QString path = dir.filePath(u"history.sqlite"_s);
    const int lines = 30;
    {
        QFile file(spec);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(specJson).toJson());
        QFile in(inputs);
        QVERIFY(in.open(QIODevice::WriteOnly));
        for (int i = 1; i <= lines; ++i)
            in.write("\"Plan ticket " + QByteArray::number(i) + "\"\n");
    }
    QVERIFY(fillHistory(path, 1));

    MainWindow::Options options;
    options.databasePath = path;
    MainWindow window(options);
    window.resize(1280, 800);
    window.show();
    auto *model = window.findChild<HistoryModel *>();
    QVERIFY(model);
    QTRY_COMPARE(model->rowCount(), 1);

    QProcess batch;
    batch.setProcessEnvironment(cliEnvironment());
    batch.setStandardOutputFile(dir.filePath(u"batch.out"_s));
    batch.setStandardErrorFile(dir.filePath(u"batch.err"_s));
    batch.start(cliPath(),
                { u"batch"_s, spec, u"--inputs"_s, inputs, u"--jobs"_s, u"4"_s, u"--db"_s, path });
    QVERIFY(batch.waitForStarted());
    // The batch has begun storing before the studio does its own work.
    QTRY_VERIFY_WITH_TIMEOUT(model->rowCount() > 1, 60000);

    // The studio runs a call through its service (the store writer) while the batch writes...
    auto *services = window.findChild<StudioServices *>();
    QVERIFY(services && services->calls());
    auto loaded = specFromJson(specJson, spec);
    QVERIFY(loaded.ok());
    LaunchRequest request;
    request.spec = *loaded.spec;
    request.input.text = u"Plan the studio's own ticket"_s;
    CallJob *job = services->calls()->launch(request);
    QSignalSpy finished(job, &CallJob::finished);
    // ...and exports a call on a connection of its own.
    TransferController transfer(path, &window, nullptr);
    QSignalSpy exported(&transfer, &TransferController::finished);
    transfer.startExport(TransferResult::Kind::ExportCall, 1,
                         dir.filePath(u"studio-export.json"_s));
    QVERIFY(exported.wait(60000));
    const auto exportResult = exported.first().first().value<TransferResult>();
    QVERIFY2(exportResult.ok, qPrintable(exportResult.message));
    QVERIFY(finished.wait(60000) || !finished.isEmpty());
    const auto result = finished.first().first().value<LaunchResult>();
    QCOMPARE(result.record.status, CallStatus::Completed);
    QVERIFY2(result.stored, qPrintable(result.storeError));

    QTRY_VERIFY_WITH_TIMEOUT(batch.state() == QProcess::NotRunning, 120000);
    QVERIFY2(batch.exitCode() == 0, readFile(dir.filePath(u"batch.err"_s)).constData());
    QVERIFY(deletedHistoryFiles(QCoreApplication::applicationPid(), path).isEmpty());
    // The studio's History shows every call of the batch, its own and the first one, with no
    // restart and no refresh by hand.
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), lines + 2, 30000);
    auto report = HistoryRescue::check(path);
    QVERIFY(report && report->ok);
    QCOMPARE(report->calls, qint64(lines + 2));
    window.close();
}

// The studio imports an export while a CLI batch writes to the same history: the import's rows
// go through the studio's store writer (its one writing connection), waiting for the batch's
// writes instead of failing; every call is stored once and the file is whole. Every other
// connection of the studio is read-only: a write through the program's connection or the store
// reader's fails.
void TestSharedHistory::studioImportsBesideACliBatch()
{
    QTemporaryDir dir;
    FakeProviderThread server;
    QVERIFY(server.listen());
    server.run([](FakeProvider &p) {
        p.setResponder(twoTurnResponder(u"get_ticket"_s, { { u"title"_s, u"Beside"_s } }, 30));
    });
    qputenv(kKeyEnv, "sk-shared-test");
    const QJsonObject specJson = twoTurnSpecJson(server.baseUrl(), QString::fromLatin1(kKeyEnv));
    const QString spec = dir.filePath(u"planner.spec.json"_s);
    const QString inputs = dir.filePath(u"inputs.jsonl"_s);
    const QString path = dir.filePath(u"history.sqlite"_s);
    const int lines = 30;
    const int importedCalls = 6;
    {
        QFile file(spec);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(specJson).toJson());
        QFile in(inputs);
        QVERIFY(in.open(QIODevice::WriteOnly));
        for (int i = 1; i <= lines; ++i)
            in.write("\"Plan ticket " + QByteArray::number(i) + "\"\n");
    }
    QVERIFY(fillHistory(path, 1));
    // The export comes from another history.
    const QString other = dir.filePath(u"other.sqlite"_s);
    QVERIFY(fillHistory(other, importedCalls, 100));
    const QString document = dir.filePath(u"export.json"_s);
    {
        auto db = Database::open(other);
        QVERIFY(db);
        CallStore store(**db);
        CallExchange exchange(store);
        QList<qint64> ids;
        for (int i = 1; i <= importedCalls; ++i)
            ids.append(i);
        auto exported = exchange.exportCalls(ids);
        QVERIFY2(exported, qPrintable(exported ? QString() : exported.error().message));
        QFile file(document);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(exported.value()).toJson());
    }

    MainWindow::Options options;
    options.databasePath = path;
    MainWindow window(options);
    window.resize(1280, 800);
    window.show();
    auto *model = window.findChild<HistoryModel *>();
    QVERIFY(model);
    QTRY_COMPARE(model->rowCount(), 1);
    StudioServices *services = window.studioServices();
    QVERIFY(services && services->calls() && services->calls()->writer());
    // The writer opens its connection at its first task.
    QVERIFY(services->calls()->writeNow<int>([](CallStore &) { return 0; }));
    const int writersBefore = DatabaseMonitor::instance()->writersOpened(path);
    QVERIFY(writersBefore >= 1);

    QProcess batch;
    batch.setProcessEnvironment(cliEnvironment());
    batch.setStandardOutputFile(dir.filePath(u"batch.out"_s));
    batch.setStandardErrorFile(dir.filePath(u"batch.err"_s));
    batch.start(cliPath(),
                { u"batch"_s, spec, u"--inputs"_s, inputs, u"--jobs"_s, u"4"_s, u"--db"_s, path });
    QVERIFY(batch.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(model->rowCount() > 1, 60000);

    TransferController *transfer = window.historyDocks()->transfer();
    QSignalSpy finished(transfer, &TransferController::finished);
    transfer->startImport(document);
    QVERIFY(finished.wait(60000));
    const auto result = finished.first().first().value<TransferResult>();
    QVERIFY2(result.ok, qPrintable(result.message));
    QCOMPARE(result.callIds.size(), importedCalls);
    // The import opened no writing connection of its own: the writer (made once) wrote it.
    QCOMPARE(DatabaseMonitor::instance()->writersOpened(path), writersBefore);

    // The program's connection and the reader's refuse a write.
    Session stray;
    stray.title = u"stray"_s;
    QVERIFY(!services->store()->createSession(stray));
    QVERIFY(services->reader());
    bool refused = false;
    bool answered = false;
    readFromStore<bool>(
        services->reader(), nullptr, &window,
        [stray](CallStore &store) { return !store.createSession(stray); },
        [&](const bool *value, const QString &) {
            refused = value && *value;
            answered = true;
        });
    QTRY_VERIFY(answered);
    QVERIFY(refused);

    QTRY_VERIFY_WITH_TIMEOUT(batch.state() == QProcess::NotRunning, 120000);
    QVERIFY2(batch.exitCode() == 0, readFile(dir.filePath(u"batch.err"_s)).constData());
    QVERIFY(deletedHistoryFiles(QCoreApplication::applicationPid(), path).isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 1 + lines + importedCalls, 30000);
    auto report = HistoryRescue::check(path);
    QVERIFY(report && report->ok);
    QCOMPARE(report->calls, qint64(1 + lines + importedCalls));
    // Each input of the batch once, each imported call once.
    auto db = Database::open(path);
    QVERIFY(db);
    QSqlQuery query((*db)->connection());
    QVERIFY(query.exec(u"SELECT COUNT(*), COUNT(DISTINCT input) FROM calls"_s) && query.next());
    QCOMPARE(query.value(0).toInt(), query.value(1).toInt());
    window.close();
}

QTEST_MAIN(TestSharedHistory)
#include "tst_sharedhistory.moc"
