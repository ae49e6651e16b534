// callscope-cli history [--kind K] [--status S] [--engine E] [--model M] [--session ID]
//                       [--parent ID] [--search TEXT] [--limit N] [--after CURSOR] [--db PATH]
//
// Prints a JSON array of light history rows, newest first. --after takes the "cursor" of
// the last row of a page ("createdMs:id") to get the next page.

#include "app/cli/cliutil.h"
#include "app/cli/storecommand.h"

#include <QCoreApplication>
#include <QJsonArray>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace Callscope::Cli {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Cli", text);
}

} // namespace

int runHistory(const QStringList &arguments)
{
    QStringList args = arguments;
    if (args.contains(u"--help"_s) || args.contains(u"-h"_s)) {
        std::fputs(tr("Usage: callscope-cli history [--kind K] [--status S] [--engine E] [--model M]\n"
                      "           [--session ID] [--parent ID] [--search TEXT] [--limit N]\n"
                      "           [--after CURSOR] [--db PATH]\n\n"
                      "Lists stored calls, newest first, as a JSON array. Each row has a \"cursor\";\n"
                      "pass the last one to --after for the next page.\n")
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
        printError(tr("history: unexpected argument '%1' (see history --help)").arg(args.first()));
        return ExitUsage;
    }
    if (status) {
        query.status = callStatusFromName(*status);
        if (!query.status) {
            printError(tr("history: unknown status '%1' (running, completed, failed, "
                          "turn_limited, cancelled)")
                           .arg(*status));
            return ExitUsage;
        }
    }
    if (limit) {
        bool ok = false;
        query.limit = limit->toInt(&ok);
        if (!ok || query.limit < 1 || query.limit > 10000) {
            printError(tr("history: --limit must be a number from 1 to 10000, not '%1'").arg(*limit));
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
            printError(tr("history: --after takes a cursor such as 1764460800000:42, not '%1'").arg(*after));
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
