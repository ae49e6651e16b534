// callscope-cli show CALL_ID [--db PATH]
//
// Prints the whole stored call row as JSON (every stored field).
//
// callscope-cli cache CALL_ID [--db PATH]
//
// Prints the cache view of a stored call as JSON: per turn the request's prefix as blocks
// (tools, system prompt, each message) with token estimates, hashes and breakpoints, whether
// the provider read or wrote its cache, and for a turn that read nothing the reason found
// against the request a cache could have held; also the call's cost with and without the cache.
//
// Both: exit 0, 2 for bad arguments or an unknown id, 1 when the database cannot be used.

#include "app/cli/cliutil.h"
#include "app/cli/storecommand.h"
#include "core/eval/pricetable.h"
#include "core/store/cachereport.h"

#include <QCoreApplication>

#include <cstdio>
#include <functional>
#include <optional>

using namespace Qt::StringLiterals;

namespace Callscope::Cli {

namespace {

struct CallCommand
{
    qint64 id = 0;
    QString dbPath;
};

// The one CALL_ID and --db of a command that reads one call; `help` is printed for --help.
std::optional<CallCommand> callCommand(const QStringList &arguments, const QString &name,
                                       const QString &help, int *exit)
{
    QStringList args = arguments;
    if (args.contains(u"--help"_s) || args.contains(u"-h"_s)) {
        std::fputs(help.toLocal8Bit().constData(), stdout);
        *exit = ExitOk;
        return std::nullopt;
    }
    CallCommand command;
    if (!takeDbOption(args, &command.dbPath)) {
        *exit = ExitUsage;
        return std::nullopt;
    }
    if (args.size() != 1 || args.first().startsWith(u"--")) {
        printError(QCoreApplication::translate("Cli", "%1: expected one CALL_ID (see %1 --help)")
                       .arg(name));
        *exit = ExitUsage;
        return std::nullopt;
    }
    const auto id = parseId(args.first(), u"CALL_ID"_s);
    if (!id) {
        *exit = ExitUsage;
        return std::nullopt;
    }
    command.id = *id;
    return command;
}

} // namespace

namespace {

// The frame both commands share: CALL_ID [--db PATH], the history opened read-only, `answer`'s
// JSON printed, or its error with the matching exit code.
int printForStoredCall(const QStringList &arguments, const QString &name, const QString &usage,
                       const std::function<StoreResult<QJsonObject>(CallStore &, qint64)> &answer)
{
    int exit = ExitOk;
    const auto command = callCommand(arguments, name, usage, &exit);
    if (!command)
        return exit;
    AppContext context;
    if (!openHistory(context, command->dbPath, AppContext::History::ReadOnly))
        return ExitFailed;
    const StoreResult<QJsonObject> out = answer(*context.store(), command->id);
    if (!out) {
        printError(out.error().message);
        return exitCodeFor(out.error());
    }
    printJson(out.value());
    return ExitOk;
}

} // namespace

int runShow(const QStringList &arguments)
{
    return printForStoredCall(
        arguments, u"show"_s,
        QCoreApplication::translate("Cli",
                                    "Usage: callscope-cli show CALL_ID [--db PATH]\n\n"
                                    "Prints the stored call as JSON.\n"),
        [](CallStore &store, qint64 id) -> StoreResult<QJsonObject> {
            const auto call = store.getCall(id);
            if (!call)
                return call.error();
            return call->toJson();
        });
}

int runCache(const QStringList &arguments)
{
    return printForStoredCall(
        arguments, u"cache"_s,
        QCoreApplication::translate("Cli",
                                    "Usage: callscope-cli cache CALL_ID [--db PATH]\n\n"
                                    "Prints the prompt cache view of a stored call as JSON.\n"),
        [](CallStore &store, qint64 id) -> StoreResult<QJsonObject> {
            const auto report = buildCacheReport(store, id);
            if (!report)
                return report.error();
            QJsonObject out = report->toJson();
            if (const auto call = store.getCall(id)) {
                const QJsonObject costs = PriceTable::fromSettings().costJson(call.value());
                for (auto it = costs.begin(); it != costs.end(); ++it)
                    out.insert(it.key(), it.value());
                out.insert(u"usage"_s, call->usage.toJson());
            }
            return out;
        });
}

} // namespace Callscope::Cli
