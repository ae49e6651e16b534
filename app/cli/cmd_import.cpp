// callscope-cli import FILE [--db PATH]
//
// Validates an export document and re-creates its rows with new ids, all or nothing.
// Prints {"calls": [new ids in document order], "sessions": [...], "id_map": {"calls":
// {"old": new}, "sessions": {...}}}. Exit 0; 2 for bad arguments or an unreadable file;
// 1 for a document that is not valid JSON or not a valid export (the message names the JSON
// Pointer) or a database failure. Nothing is written unless everything is.

#include "app/cli/cliutil.h"
#include "app/cli/storecommand.h"
#include "core/service/callservice.h"
#include "core/store/callexchange.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace Callscope::Cli {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Cli)
};

QJsonObject idMap(const QHash<qint64, qint64> &map)
{
    QJsonObject object;
    for (auto it = map.constBegin(); it != map.constEnd(); ++it)
        object.insert(QString::number(it.key()), it.value());
    return object;
}

} // namespace

int runImport(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(u"file"_s, Tr::tr("The export document."));
    addHistoryOption(parser);
    if (const auto exit =
            parseArguments(parser, u"import"_s, arguments,
                           Tr::tr("Usage: callscope-cli import FILE [--db PATH]\n\n"
                                  "Imports an export document; prints the ids as JSON. A call or\n"
                                  "session already in the history (the same UUID) is not stored\n"
                                  "again, so importing a file twice stores it once.\n")))
        return *exit;
    const QStringList args = parser.positionalArguments();
    if (args.size() != 1) {
        printError(Tr::tr("import: expected one FILE (see import --help)"));
        return ExitUsage;
    }
    const QString path = args.first();
    if (!QFileInfo(path).isFile()) {
        printError(Tr::tr("import: cannot read %1: no such file").arg(path));
        return ExitUsage;
    }
    QString error;
    const auto document = readJsonFile(path, &error);
    if (!document) {
        printError(error);
        return ExitFailed;
    }

    AppContext context;
    if (!openHistory(context, parser))
        return ExitFailed;
    // Written through the store writer, the one connection that writes.
    QString writeError;
    const auto imported = context.calls()->writeNow<StoreResult<CallExchange::ImportResult>>(
        [&document](CallStore &store) { return CallExchange(store).importDocument(*document); },
        &writeError);
    if (!imported) {
        printError(Tr::tr("%1: %2").arg(path, writeError));
        return ExitFailed;
    }
    const auto &result = *imported;
    if (!result) {
        printError(Tr::tr("%1: %2").arg(path, result.error().message));
        return ExitFailed;
    }
    QJsonArray calls;
    for (qint64 id : result->callIds)
        calls.append(id);
    QJsonArray sessions;
    for (qint64 id : result->sessionIds)
        sessions.append(id);
    printJson(QJsonObject { { u"calls"_s, calls },
                            { u"sessions"_s, sessions },
                            { u"calls_already_present"_s, result->callsAlreadyPresent },
                            { u"sessions_already_present"_s, result->sessionsAlreadyPresent },
                            { u"id_map"_s,
                              QJsonObject { { u"calls"_s, idMap(result->callIdMap) },
                                            { u"sessions"_s, idMap(result->sessionIdMap) } } } });
    return ExitOk;
}

} // namespace Callscope::Cli
