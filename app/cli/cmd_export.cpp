// callscope-cli export CALL_ID | --session ID [--only] [--out FILE] [--db PATH]
//
// Writes one export document: a call with every revision below it
// (--only: just the call), or a session with its messages, compactions and calls. To stdout,
// or to FILE (written whole or not at all).

#include "app/cli/cliutil.h"
#include "app/cli/storecommand.h"
#include "core/store/callexchange.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonDocument>
#include <QSaveFile>

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
    QCommandLineParser parser;
    parser.addPositionalArgument(u"call"_s, Tr::tr("The call to export."));
    parser.addOption({ u"session"_s, Tr::tr("Export this session instead."), u"ID"_s });
    parser.addOption({ u"only"_s, Tr::tr("The call alone, without its revisions.") });
    parser.addOption({ u"out"_s, Tr::tr("Write the document here instead of stdout."), u"FILE"_s });
    addHistoryOption(parser);
    if (const auto exit = parseArguments(
            parser, u"export"_s, arguments,
            Tr::tr(
                "Usage: callscope-cli export CALL_ID | --session ID [--only] [--out FILE] [--db "
                "PATH]\n\n"
                "Exports a call and its revisions (--only: the call alone), or a session with\n"
                "its messages and calls, as one JSON document (format \"callscope-export\").\n")))
        return *exit;
    const QStringList args = parser.positionalArguments();
    const std::optional<QString> session =
        parser.isSet(u"session"_s) ? std::optional(parser.value(u"session"_s)) : std::nullopt;
    const std::optional<QString> out =
        parser.isSet(u"out"_s) ? std::optional(parser.value(u"out"_s)) : std::nullopt;
    const bool only = parser.isSet(u"only"_s);
    if ((session && !args.isEmpty()) || (!session && args.size() != 1)) {
        printError(Tr::tr("export: give either one CALL_ID or --session ID (see export --help)"));
        return ExitUsage;
    }
    const auto id =
        parseId(session ? *session : args.first(), session ? u"--session"_s : u"CALL_ID"_s);
    if (!id)
        return ExitUsage;

    AppContext context;
    if (!openHistory(context, parser, AppContext::History::ReadOnly))
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
