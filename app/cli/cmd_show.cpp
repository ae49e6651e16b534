// callscope-cli show CALL_ID [--db PATH]
//
// Prints the whole stored call row as JSON (every stored field).
// Exit 0, 2 for bad arguments or an unknown id, 1 when the database cannot be used.

#include "app/cli/cliutil.h"
#include "app/cli/storecommand.h"

#include <QCoreApplication>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace Callscope::Cli {

int runShow(const QStringList &arguments)
{
    QStringList args = arguments;
    if (args.contains(u"--help"_s) || args.contains(u"-h"_s)) {
        std::fputs(QCoreApplication::translate("Cli", "Usage: callscope-cli show CALL_ID [--db PATH]\n\n"
                                                      "Prints the stored call as JSON.\n")
                       .toLocal8Bit()
                       .constData(),
                   stdout);
        return ExitOk;
    }
    QString dbPath;
    if (!takeDbOption(args, &dbPath))
        return ExitUsage;
    if (args.size() != 1 || args.first().startsWith(u"--")) {
        printError(QCoreApplication::translate("Cli", "show: expected one CALL_ID (see show --help)"));
        return ExitUsage;
    }
    const auto id = parseId(args.first(), u"CALL_ID"_s);
    if (!id)
        return ExitUsage;
    AppContext context;
    if (!openHistory(context, dbPath, AppContext::History::ReadOnly))
        return ExitFailed;
    CallStore &store = *context.store();
    const auto call = store.getCall(*id);
    if (!call) {
        printError(call.error().message);
        return exitCodeFor(call.error());
    }
    printJson(call->toJson());
    return ExitOk;
}

} // namespace Callscope::Cli
