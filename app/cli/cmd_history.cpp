// callscope-cli history [--kind K] [--status S] [--engine E] [--model M] [--session ID]
//                       [--parent ID] [--search TEXT] [--limit N] [--after CURSOR] [--db PATH]
//
// Prints a JSON array of light history rows, newest first. --after takes the "cursor" of
// the last row of a page ("createdMs:id") to get the next page.
//
// callscope-cli history check|backup|backups|restore [--from FILE]|recover|new [--db PATH]
//
// The history's care: SQLite's integrity check, a verified backup beside the database, the
// list of backups, and the three ways back from a damaged file (each keeps that file).

#include "app/cli/cliutil.h"
#include "app/cli/storecommand.h"
#include "core/store/database.h"
#include "core/store/historyrescue.h"

#include <QCoreApplication>
#include <QJsonArray>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace Callscope::Cli {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Cli)
};

QJsonObject backupJson(const HistoryRescue::BackupInfo &backup)
{
    return { { u"path"_s, backup.path },
             { u"created_at"_s, backup.createdUtc.toString(Qt::ISODate) },
             { u"calls"_s, backup.calls },
             { u"bytes"_s, backup.bytes },
             { u"readable"_s, backup.readable() } };
}

QJsonObject rescueJson(const HistoryRescue::RescueReport &report, const QString &path)
{
    QJsonObject object { { u"database"_s, path }, { u"calls"_s, report.calls } };
    if (!report.damagedKeptAs.isEmpty())
        object.insert(u"damaged_kept_as"_s, report.damagedKeptAs);
    if (!report.backupUsed.isEmpty())
        object.insert(u"backup"_s, report.backupUsed);
    if (report.rowsRead > 0)
        object.insert(u"rows_read"_s, report.rowsRead);
    if (!report.lost.isEmpty())
        object.insert(u"lost"_s, QJsonArray::fromStringList(report.lost));
    return object;
}

int runCare(const QString &action, QStringList args)
{
    QString dbPath;
    if (!takeDbOption(args, &dbPath))
        return ExitUsage;
    bool failed = false;
    const auto from =
        action == "restore"_L1 ? takeOption(args, u"--from"_s, &failed) : std::nullopt;
    if (failed)
        return ExitUsage;
    if (!args.isEmpty()) {
        printError(Tr::tr("history %1: unexpected argument '%2'").arg(action, args.first()));
        return ExitUsage;
    }
    const QString path = dbPath.isEmpty() ? defaultDatabasePath() : dbPath;

    if (action == "check"_L1) {
        auto report = HistoryRescue::check(path);
        if (!report) {
            printError(report.error().message);
            return ExitFailed;
        }
        QJsonArray backups;
        for (const auto &backup : HistoryRescue::listBackups(path))
            backups.append(backupJson(backup));
        printJson(QJsonObject { { u"database"_s, path },
                                { u"ok"_s, report->ok },
                                { u"calls"_s, report->calls },
                                { u"problems"_s, QJsonArray::fromStringList(report->problems) },
                                { u"backups"_s, backups } });
        if (!report->ok) {
            DatabaseMonitor::instance()->reportDamage(
                path, Tr::tr("the check found problems: %1").arg(report->problems.size()));
            return ExitFailed;
        }
        return ExitOk;
    }
    if (action == "backups"_L1) {
        QJsonArray backups;
        for (const auto &backup : HistoryRescue::listBackups(path))
            backups.append(backupJson(backup));
        printJson(backups);
        return ExitOk;
    }
    if (action == "backup"_L1) {
        Database::Options options;
        options.mustWrite = false;
        auto opened = Database::open(path, options);
        if (!opened) {
            printError(opened.error().message);
            return ExitFailed;
        }
        auto made = HistoryRescue::backup(*opened.value(), HistoryRescue::BackupReason::Requested);
        if (!made) {
            printError(made.error().message);
            return ExitFailed;
        }
        printJson(backupJson(*made));
        return ExitOk;
    }
    StoreResult<HistoryRescue::RescueReport> report = StoreError();
    if (action == "restore"_L1)
        report = HistoryRescue::restore(path, from.value_or(QString()));
    else if (action == "recover"_L1)
        report = HistoryRescue::recover(path);
    else
        report = HistoryRescue::startNew(path);
    if (!report) {
        printError(report.error().message);
        return ExitFailed;
    }
    if (!report->damagedKeptAs.isEmpty())
        printError(Tr::tr("the old file was kept as %1").arg(report->damagedKeptAs));
    printJson(rescueJson(*report, path));
    return ExitOk;
}

} // namespace

int runHistory(const QStringList &arguments)
{
    QStringList args = arguments;
    static const QStringList care = { u"check"_s,   u"backup"_s,  u"backups"_s,
                                      u"restore"_s, u"recover"_s, u"new"_s };
    if (!args.isEmpty() && care.contains(args.first())) {
        const QString action = args.takeFirst();
        if (!args.contains(u"--help"_s) && !args.contains(u"-h"_s))
            return runCare(action, args);
    }
    if (args.contains(u"--help"_s) || args.contains(u"-h"_s)) {
        std::fputs(
            Tr::tr(
                "Usage: callscope-cli history [--kind K] [--status S] [--engine E] [--model M]\n"
                "           [--session ID] [--parent ID] [--search TEXT] [--limit N]\n"
                "           [--after CURSOR] [--db PATH]\n\n"
                "Lists stored calls, newest first, as a JSON array. Each row has a \"cursor\";\n"
                "pass the last one to --after for the next page.\n\n"
                "       callscope-cli history check|backup|backups|restore [--from "
                "FILE]|recover|new\n"
                "           [--db PATH]\n\n"
                "check    runs SQLite's integrity check; exit 1 when the history is damaged\n"
                "backup   writes a verified backup beside the database (the newest 3 are kept)\n"
                "backups  lists the backups with their dates and number of calls\n"
                "restore  puts back the newest good backup (or --from FILE)\n"
                "recover  copies every row that can still be read into a new history\n"
                "new      starts an empty history\n"
                "restore, recover and new keep the old file beside it, renamed *.damaged-DATE.\n")
                .toLocal8Bit()
                .constData(),
            stdout);
        return ExitOk;
    }
    QString dbPath;
    if (!takeDbOption(args, &dbPath))
        return ExitUsage;
    bool failed = false;
    HistoryQuery query;
    query.kind = takeOption(args, u"--kind"_s, &failed).value_or(QString());
    query.engineType = takeOption(args, u"--engine"_s, &failed).value_or(QString());
    query.model = takeOption(args, u"--model"_s, &failed).value_or(QString());
    query.search = takeOption(args, u"--search"_s, &failed).value_or(QString());
    const auto status = takeOption(args, u"--status"_s, &failed);
    const auto limit = takeOption(args, u"--limit"_s, &failed);
    const auto session = takeOption(args, u"--session"_s, &failed);
    const auto parent = takeOption(args, u"--parent"_s, &failed);
    const auto after = takeOption(args, u"--after"_s, &failed);
    if (failed)
        return ExitUsage;
    if (!args.isEmpty()) {
        printError(
            Tr::tr("history: unexpected argument '%1' (see history --help)").arg(args.first()));
        return ExitUsage;
    }
    if (status) {
        query.status = callStatusFromName(*status);
        if (!query.status) {
            printError(Tr::tr("history: unknown status '%1' (running, completed, failed, "
                              "turn_limited, cancelled)")
                           .arg(*status));
            return ExitUsage;
        }
    }
    if (limit) {
        bool ok = false;
        query.limit = limit->toInt(&ok);
        if (!ok || query.limit < 1 || query.limit > 10000) {
            printError(
                Tr::tr("history: --limit must be a number from 1 to 10000, not '%1'").arg(*limit));
            return ExitUsage;
        }
    }
    if (session) {
        const auto id = parseId(*session, u"--session"_s);
        if (!id)
            return ExitUsage;
        query.session = *id;
    }
    if (parent) {
        const auto id = parseId(*parent, u"--parent"_s);
        if (!id)
            return ExitUsage;
        query.parent = *id;
    }
    if (after) {
        query.after = HistoryCursor::fromString(*after);
        if (!query.after) {
            printError(Tr::tr("history: --after takes a cursor such as 1764460800000:42, not '%1'")
                           .arg(*after));
            return ExitUsage;
        }
    }

    AppContext context;
    if (!openHistory(context, dbPath, AppContext::History::ReadOnly))
        return ExitFailed;
    CallStore &store = *context.store();
    const auto page = store.listCalls(query);
    if (!page) {
        printError(page.error().message);
        return ExitFailed;
    }
    QJsonArray rows;
    for (const HistoryRow &row : page->rows) {
        QJsonObject object = row.toJson();
        object.insert(u"cursor"_s, row.cursor().toString());
        rows.append(object);
    }
    printJson(rows);
    return ExitOk;
}

} // namespace Callscope::Cli
