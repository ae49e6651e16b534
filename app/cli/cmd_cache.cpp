// callscope-cli cache CALL_ID [--db PATH]
//
// Prints the cache view of a stored call as JSON: per turn the request's prefix as blocks
// (tools, system prompt, each message) with token estimates, hashes and breakpoints, whether
// the provider read or wrote its cache, and for a turn that read nothing the reason found
// against the request a cache could have held. Also the call's cost with and without the cache.
// Exit 0, 2 for bad arguments or an unknown id, 1 when the database cannot be used.

#include "app/cli/cliutil.h"
#include "app/cli/storecommand.h"
#include "core/eval/pricetable.h"
#include "core/store/cachereport.h"

#include <QCoreApplication>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace Callscope::Cli {

int runCache(const QStringList &arguments)
{
    QStringList args = arguments;
    if (args.contains(u"--help"_s) || args.contains(u"-h"_s)) {
        std::fputs(QCoreApplication::translate("Cli", "Usage: callscope-cli cache CALL_ID [--db PATH]\n\n"
                                                      "Prints the prompt cache view of a stored call as JSON.\n")
                       .toLocal8Bit()
                       .constData(),
                   stdout);
        return ExitOk;
    }
    QString dbPath;
    if (!takeDbOption(args, &dbPath))
        return ExitUsage;
    if (args.size() != 1 || args.first().startsWith(u"--")) {
        printError(QCoreApplication::translate("Cli", "cache: expected one CALL_ID (see cache --help)"));
        return ExitUsage;
    }
    const auto id = parseId(args.first(), u"CALL_ID"_s);
    if (!id)
        return ExitUsage;
    AppContext context;
    if (!openHistory(context, dbPath, AppContext::History::ReadOnly))
        return ExitFailed;
    CallStore &store = *context.store();
    const auto report = buildCacheReport(store, *id);
    if (!report) {
        printError(report.error().message);
        return exitCodeFor(report.error());
    }
    QJsonObject out = report->toJson();
    if (const auto call = store.getCall(*id)) {
        const QJsonObject costs = PriceTable::fromSettings().costJson(call.value());
        for (auto it = costs.begin(); it != costs.end(); ++it)
            out.insert(it.key(), it.value());
        out.insert(u"usage"_s, call->usage.toJson());
    }
    printJson(out);
    return ExitOk;
}

} // namespace Callscope::Cli
