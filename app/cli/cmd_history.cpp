// callscope-cli history [--kind K] [--status S] [--engine E] [--model M] [--person NAME] [--session
// ID]
//                       [--parent ID] [--search TEXT] [--limit N] [--after CURSOR] [--db PATH]
//
// Prints a JSON array of light history rows, newest first. --after takes the "cursor" of
// the last row of a page ("createdMs:id") to get the next page.
//
// callscope-cli history check|backup|backups|restore [--from FILE]|recover|new [--db PATH]
//
// The history's care: SQLite's integrity check, a verified backup beside the database, the
// list of backups, and the three ways back from a damaged file (each keeps that file).
//
// callscope-cli history login|logout URL
//
// The password of a PostgreSQL history in the OS keychain: asked for (never an argument),
// checked by connecting, then kept; logout removes it.
//
// callscope-cli history push --to URL [--since DATE] [--kind K] [--db PATH]
//
// Sends the calls of a history (or those made since DATE, of kind K) to a shared one, each once
// by UUID (core/store/historytransfer.h); progress on stderr, a JSON summary on stdout.

#include "app/cli/cliutil.h"
#include "app/cli/runsupport.h"
#include "app/cli/storecommand.h"
#include "core/secrets/credentialstore.h"
#include "core/store/database.h"
#include "core/store/historyrescue.h"
#include "core/store/historytransfer.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QThread>
#include <QUrl>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <string>
#include <termios.h>
#include <unistd.h>
#include <utility>

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

int runCare(const QString &action, const QStringList &arguments, const QString &help)
{
    QCommandLineParser parser;
    addHistoryOption(parser);
    if (action == "restore"_L1)
        parser.addOption({ u"from"_s, Tr::tr("The backup to put back."), u"FILE"_s });
    if (const auto exit = parseArguments(parser, u"history "_s + action, arguments, help))
        return *exit;
    if (!parser.positionalArguments().isEmpty()) {
        printError(Tr::tr("history %1: unexpected argument '%2'")
                       .arg(action, parser.positionalArguments().first()));
        return ExitUsage;
    }
    const std::optional<QString> from =
        parser.isSet(u"from"_s) ? std::optional(parser.value(u"from"_s)) : std::nullopt;
    const QString path = historyPath(parser);
    if (isServerLocation(path)) {
        printError(Tr::tr("history %1 works on a history file; a PostgreSQL server is checked and "
                          "backed up with its own tools (pg_dump, pg_amcheck)")
                       .arg(action));
        return ExitUsage;
    }

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

// The password for `history login`: typed without echo on a terminal, else the first line of
// stdin (for scripts). Never an argument: it would show in the process list.
std::optional<QString> readPassword(const QString &server)
{
    if (::isatty(STDIN_FILENO)) {
        std::fprintf(stderr, "%s", qPrintable(Tr::tr("Password for %1: ").arg(server)));
        std::fflush(stderr);
        termios saved {};
        const bool quiet = ::tcgetattr(STDIN_FILENO, &saved) == 0;
        if (quiet) {
            termios silent = saved;
            silent.c_lflag &= ~tcflag_t(ECHO);
            ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent);
        }
        std::string line;
        int c = 0;
        while ((c = std::fgetc(stdin)) != EOF && c != '\n')
            line.push_back(char(c));
        if (quiet)
            ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved);
        std::fprintf(stderr, "\n");
        QString password = QString::fromLocal8Bit(line.data(), qsizetype(line.size()));
        std::fill(line.begin(), line.end(), '\0');
        if (password.endsWith(u'\r'))
            password.chop(1);
        if (password.isEmpty())
            return std::nullopt;
        return password;
    }
    QFile in;
    if (!in.open(stdin, QIODevice::ReadOnly))
        return std::nullopt;
    QByteArray line = in.readLine();
    while (line.endsWith('\n') || line.endsWith('\r'))
        line.chop(1);
    if (line.isEmpty())
        return std::nullopt;
    return QString::fromUtf8(line);
}

// history login URL / history logout URL: the server's password in the OS keychain.
int runLogin(const QString &action, const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(u"url"_s,
                                 Tr::tr("The history server, postgresql://USER@HOST/DB."));
    const QString help =
        Tr::tr("Usage: callscope-cli history login URL\n"
               "       callscope-cli history logout URL\n\n"
               "login asks for the password of the PostgreSQL history URL names (without echo on\n"
               "a terminal, else the first line of standard input), checks it by connecting,\n"
               "and keeps it in the OS keychain; every command then uses it for that server.\n"
               "logout removes it. The password is never taken from an argument.\n");
    if (const auto exit = parseArguments(parser, u"history "_s + action, arguments, help))
        return *exit;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1 || !isServerLocation(positional.first())) {
        printError(
            Tr::tr("history %1 takes one postgresql:// URL (see history %1 --help)").arg(action));
        return ExitUsage;
    }
    const QString location = positional.first();
    const QUrl url(location);
    if (!url.password().isEmpty()) {
        printError(
            Tr::tr("history %1: the URL must not hold the password; it is asked for").arg(action));
        return ExitUsage;
    }
    const QString server = historyServerKey(location);
    AppContext context; // the keychain, and the context of its jobs
    QEventLoop loop;
    int code = ExitOk;
    if (action == "logout"_L1) {
        context.credentials()->deleteKey(
            AppContext::historyPasswordEntry(location), &loop, [&](const KeychainResult &done) {
                if (done.status != KeychainStatus::Ok) {
                    printError(Tr::tr("cannot remove the password of %1 from the keychain: %2")
                                   .arg(server, done.message));
                    code = ExitFailed;
                } else {
                    printJson(QJsonObject { { u"server"_s, server }, { u"removed"_s, true } });
                }
                loop.quit();
            });
        loop.exec();
        return code;
    }

    const std::optional<QString> password = readPassword(server);
    if (!password) {
        printError(Tr::tr("history login: no password given"));
        return ExitUsage;
    }
    // Checked before it is kept: the keychain holds only a password the server took.
    bool canWrite = false;
    {
        Database::Options options;
        options.password = *password;
        options.mustWrite = false;
        auto opened = Database::open(location, options);
        if (!opened) {
            printError(
                Tr::tr("history login: %1; the password was not kept").arg(opened.error().message));
            return ExitFailed;
        }
        canWrite = opened.value()->canWrite();
    }
    context.credentials()->writeKey(
        AppContext::historyPasswordEntry(location), *password, &loop,
        [&](const KeychainResult &written) {
            if (written.status != KeychainStatus::Ok) {
                printError(Tr::tr("cannot keep the password of %1 in the keychain: %2")
                               .arg(server, written.message));
                code = ExitFailed;
            } else {
                printJson(QJsonObject {
                    { u"server"_s, server }, { u"stored"_s, true }, { u"can_write"_s, canWrite } });
            }
            loop.quit();
        });
    loop.exec();
    return code;
}

// DATE as 2026-12-01 (the day's start, UTC) or an ISO 8601 time.
QDateTime parseSince(const QString &text)
{
    QDateTime time = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!time.isValid()) {
        const QDate day = QDate::fromString(text, Qt::ISODate);
        if (day.isValid())
            time = day.startOfDay(Qt::UTC);
    }
    return time;
}

// history push --to URL [--since DATE] [--kind K] [--db PATH]
int runPush(const QStringList &arguments)
{
    QCommandLineParser parser;
    addHistoryOption(parser);
    parser.addOption(
        { u"to"_s, Tr::tr("The shared history, postgresql://USER@HOST/DB."), u"URL"_s });
    parser.addOption({ u"since"_s, Tr::tr("Only calls made at or after DATE."), u"DATE"_s });
    parser.addOption({ u"kind"_s, Tr::tr("Only calls of this kind."), u"K"_s });
    const QString help = Tr::tr(
        "Usage: callscope-cli history push --to URL [--since DATE] [--kind K] [--db PATH]\n\n"
        "Sends the calls of the history --db names (without it, the one on this\n"
        "computer), or those made since DATE (2026-12-01 or an ISO 8601 time) and of\n"
        "kind K, to the shared history URL names, with their sessions, batches and\n"
        "experiment runs. A call the shared history holds already (the same UUID) is\n"
        "not sent again. Progress goes to stderr, a JSON summary to stdout\n"
        "(sent, already_there, failed). Ctrl+C stops between two calls. The password\n"
        "comes from `history login` or libpq (PGPASSWORD, ~/.pgpass), never from an\n"
        "argument.\n");
    if (const auto exit = parseArguments(parser, u"history push"_s, arguments, help))
        return *exit;
    const QString target = parser.value(u"to"_s);
    if (!parser.positionalArguments().isEmpty() || !isServerLocation(target)) {
        printError(Tr::tr("history push takes --to postgresql://USER@HOST/DB (see history push "
                          "--help)"));
        return ExitUsage;
    }
    if (!QUrl(target).password().isEmpty()) {
        printError(Tr::tr("history push: the URL must not hold the password; keep it with "
                          "history login or in ~/.pgpass"));
        return ExitUsage;
    }
    TransferFilter filter;
    filter.kind = parser.value(u"kind"_s);
    if (parser.isSet(u"since"_s)) {
        filter.since = parseSince(parser.value(u"since"_s));
        if (!filter.since.isValid()) {
            printError(Tr::tr("history push: --since takes a date (2026-12-01) or an ISO 8601 "
                              "time, not '%1'")
                           .arg(parser.value(u"since"_s)));
            return ExitUsage;
        }
    }
    const QString source = historyPath(parser);
    if (historyServerKey(source) == historyServerKey(target) && isServerLocation(source)) {
        printError(Tr::tr("history push: --db and --to name the same history"));
        return ExitUsage;
    }
    AppContext context; // the keychain
    for (const QString &location : { source, target }) {
        if (!isServerLocation(location))
            continue;
        if (const auto password = context.readHistoryPassword(location))
            Database::setServerPassword(location, *password);
    }

    // The transfer runs on a thread of its own (its connections are made there), so Ctrl+C
    // reaches this one's event loop and stops it between two calls.
    std::atomic<bool> cancel { false };
    TransferOutcome outcome;
    QString openError;
    std::atomic<int> exit { ExitOk };
    QThread *worker = QThread::create([&] {
        Database::Options readOptions;
        readOptions.readOnly = !isServerLocation(source);
        readOptions.mustWrite = false;
        auto from = Database::open(source, readOptions);
        if (!from) {
            openError = from.error().message;
            exit = ExitFailed;
            return;
        }
        auto to = Database::open(target);
        if (!to) {
            openError = to.error().message;
            exit = ExitFailed;
            return;
        }
        CallStore fromStore(*from.value());
        CallStore toStore(*to.value());
        HistoryTransfer transfer(fromStore, toStore);
        transfer.setFilter(filter);
        transfer.setCancelFlag(&cancel);
        transfer.setProgress([](int done, int total) {
            std::fprintf(stderr, "%s\n",
                         qPrintable(Tr::tr("history push: %1 of %2").arg(done).arg(total)));
        });
        outcome = transfer.run();
    });
    QEventLoop loop;
    QObject::connect(worker, &QThread::finished, &loop, &QEventLoop::quit);
    {
        StopOnSignal stop([&cancel] {
            if (!cancel.exchange(true))
                std::fprintf(stderr, "%s\n",
                             qPrintable(Tr::tr("history push: stopping after the call being "
                                               "sent")));
        });
        worker->start();
        loop.exec();
    }
    worker->wait();
    delete worker;
    if (!openError.isEmpty()) {
        printError(Tr::tr("history push: %1").arg(openError));
        return exit;
    }
    for (const QString &error : std::as_const(outcome.errors))
        printError(Tr::tr("history push: %1").arg(error));
    if (outcome.cancelled)
        std::fprintf(stderr, "%s\n",
                     qPrintable(Tr::tr("history push: stopped; what was sent stays sent, the "
                                       "next push sends the rest")));
    else if (outcome.sent == 0 && outcome.runsSent == 0 && outcome.complete())
        std::fprintf(stderr, "%s\n",
                     qPrintable(Tr::tr("history push: nothing new to send; %1 holds every one "
                                       "of these calls")
                                    .arg(historyServerKey(target))));
    printJson(QJsonObject { { u"to"_s, historyServerKey(target) },
                            { u"calls"_s, outcome.total },
                            { u"sent"_s, outcome.sent },
                            { u"already_there"_s, outcome.alreadyThere },
                            { u"failed"_s, outcome.failed },
                            { u"runs_sent"_s, outcome.runsSent },
                            { u"runs_already_there"_s, outcome.runsAlreadyThere },
                            { u"runs_failed"_s, outcome.runsFailed },
                            { u"cancelled"_s, outcome.cancelled },
                            { u"unreachable"_s, outcome.unreachable } });
    return outcome.complete() ? ExitOk : ExitFailed;
}

} // namespace

int runHistory(const QStringList &arguments)
{
    const QString help = Tr::tr(
        "Usage: callscope-cli history [--kind K] [--status S] [--engine E] [--model M]\n"
        "           [--person NAME] [--session ID] [--parent ID] [--search TEXT]\n"
        "           [--limit N] [--after CURSOR] [--db PATH]\n\n"
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
        "restore, recover and new keep the old file beside it, renamed *.damaged-DATE.\n\n"
        "       callscope-cli history login|logout URL\n\n"
        "login    keeps the password of a PostgreSQL history in the OS keychain\n"
        "logout   removes it\n\n"
        "       callscope-cli history push --to URL [--since DATE] [--kind K] [--db PATH]\n\n"
        "push     sends this history's calls to a shared one, each once (see push --help)\n");
    static const QStringList care = { u"check"_s,   u"backup"_s,  u"backups"_s,
                                      u"restore"_s, u"recover"_s, u"new"_s };
    if (!arguments.isEmpty() && care.contains(arguments.first()))
        return runCare(arguments.first(), arguments.mid(1), help);
    if (!arguments.isEmpty()
        && (arguments.first() == "login"_L1 || arguments.first() == "logout"_L1))
        return runLogin(arguments.first(), arguments.mid(1));
    if (!arguments.isEmpty() && arguments.first() == "push"_L1)
        return runPush(arguments.mid(1));

    QCommandLineParser parser;
    addHistoryOption(parser);
    static const std::pair<const char *, const char *> filters[] = {
        { "kind", "K" },      { "engine", "E" },     { "model", "M" }, { "person", "NAME" },
        { "search", "TEXT" }, { "status", "S" },     { "limit", "N" }, { "session", "ID" },
        { "parent", "ID" },   { "after", "CURSOR" },
    };
    for (const auto &[name, value] : filters)
        parser.addOption({ QString::fromLatin1(name), QString(), QString::fromLatin1(value) });
    if (const auto exit = parseArguments(parser, u"history"_s, arguments, help))
        return *exit;
    if (!parser.positionalArguments().isEmpty()) {
        printError(Tr::tr("history: unexpected argument '%1' (see history --help)")
                       .arg(parser.positionalArguments().first()));
        return ExitUsage;
    }
    auto option = [&parser](const QString &name) {
        return parser.isSet(name) ? std::optional(parser.value(name)) : std::nullopt;
    };
    HistoryQuery query;
    query.kind = parser.value(u"kind"_s);
    query.engineType = parser.value(u"engine"_s);
    query.model = parser.value(u"model"_s);
    query.person = parser.value(u"person"_s);
    query.search = parser.value(u"search"_s);
    const auto status = option(u"status"_s);
    const auto limit = option(u"limit"_s);
    const auto session = option(u"session"_s);
    const auto parent = option(u"parent"_s);
    const auto after = option(u"after"_s);
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
    if (!openHistory(context, parser, AppContext::History::ReadOnly))
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
