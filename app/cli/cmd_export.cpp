// callscope-cli export CALL_ID | --session ID [--only] [--out FILE] [--db PATH]
//
// Writes one export document: a call with every revision below it
// (--only: just the call), or a session with its messages, compactions and calls. To stdout,
// or to FILE (written whole or not at all).

#include "app/cli/cliutil.h"
#include "app/cli/storecommand.h"
#include "core/store/callexchange.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QSaveFile>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace Callscope::Cli {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Cli)
};

} // namespace

int runExport(const QStringList &arguments)
{
    QStringList args = arguments;
    if (args.contains(u"--help"_s) || args.contains(u"-h"_s)) {
        std::fputs(
            Tr::tr("Usage: callscope-cli export CALL_ID | --session ID [--only] [--out FILE] [--db "
                   "PATH]\n\n"
                   "Exports a call and its revisions (--only: the call alone), or a session with\n"
                   "its messages and calls, as one JSON document (format \"callscope-export\").\n")
                .toLocal8Bit()
                .constData(),
            stdout);
        return ExitOk;
    }
    QString dbPath;
    if (!takeDbOption(args, &dbPath))
        return ExitUsage;
    bool failed = false;
    const auto session = takeOption(args, u"--session"_s, &failed);
    const auto out = takeOption(args, u"--out"_s, &failed);
    if (failed)
        return ExitUsage;
    const bool only = args.removeAll(u"--only"_s) > 0;
    for (const QString &arg : std::as_const(args)) {
        if (arg.startsWith(u"--")) {
            printError(Tr::tr("export: unknown option %1 (see export --help)").arg(arg));
            return ExitUsage;
        }
    }
    if ((session && !args.isEmpty()) || (!session && args.size() != 1)) {
        printError(Tr::tr("export: give either one CALL_ID or --session ID (see export --help)"));
        return ExitUsage;
    }
    const auto id =
        parseId(session ? *session : args.first(), session ? u"--session"_s : u"CALL_ID"_s);
    if (!id)
        return ExitUsage;

    AppContext context;
    if (!openHistory(context, dbPath, AppContext::History::ReadOnly))
        return ExitFailed;
    CallStore &store = *context.store();
    CallExchange exchange(store);
    const auto document = session
        ? exchange.exportSession(*id)
        : (only ? exchange.exportCalls({ *id }) : exchange.exportRevisionTree(*id));
    if (!document) {
        printError(document.error().message);
        return exitCodeFor(document.error());
    }
    if (!out) {
        printJson(*document);
        return ExitOk;
    }
    QSaveFile file(*out);
    if (!file.open(QIODevice::WriteOnly)) {
        printError(Tr::tr("cannot write %1: %2").arg(*out, file.errorString()));
        return ExitFailed;
    }
    file.write(QJsonDocument(*document).toJson(QJsonDocument::Indented));
    if (!file.commit()) {
        printError(Tr::tr("cannot write %1: %2").arg(*out, file.errorString()));
        return ExitFailed;
    }
    return ExitOk;
}

} // namespace Callscope::Cli
