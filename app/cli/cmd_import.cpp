// callscope-cli import FILE [--db PATH]
//
// Validates an export document and re-creates its rows with new ids, all or nothing.
// Prints {"calls": [new ids in document order], "sessions": [...], "id_map": {"calls":
// {"old": new}, "sessions": {...}}}. Exit 0; 2 for bad arguments or an unreadable file;
// 1 for a document that is not valid JSON or not a valid export (the message names the JSON
// Pointer) or a database failure. Nothing is written unless everything is.

#include "app/cli/cliutil.h"
#include "app/cli/storecommand.h"
#include "core/store/callexchange.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace Callscope::Cli {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Cli", text);
}

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
    parser.addPositionalArgument(u"file"_s, tr("The export document."));
    addHistoryOption(parser);
    if (const auto exit =
            parseArguments(parser, u"import"_s, arguments,
                           tr("Usage: callscope-cli import FILE [--db PATH]\n\n"
                              "Imports an export document; prints the new ids as JSON.\n")))
        return *exit;
    const QStringList args = parser.positionalArguments();
    if (args.size() != 1) {
        printError(tr("import: expected one FILE (see import --help)"));
        return ExitUsage;
    }
    const QString path = args.first();
    if (!QFileInfo(path).isFile()) {
        printError(tr("import: cannot read %1: no such file").arg(path));
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
    CallStore &store = *context.store();
    CallExchange exchange(store);
    const auto result = exchange.importDocument(*document);
    if (!result) {
        printError(tr("%1: %2").arg(path, result.error().message));
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
                            { u"id_map"_s,
                              QJsonObject { { u"calls"_s, idMap(result->callIdMap) },
                                            { u"sessions"_s, idMap(result->sessionIdMap) } } } });
    return ExitOk;
}

} // namespace Callscope::Cli
