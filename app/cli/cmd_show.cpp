// callscope-cli show CALL_ID [--db PATH]
//
// Prints the whole stored call row as JSON (every stored field), and under "trace" the ids its
// OpenTelemetry spans carry (the same whether sent live or later), with the address of the trace
// when the settings have a trace link (telemetry/trace_url).
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
#include "core/eval/telemetrysettings.h"
#include "core/store/cachereport.h"
#include "core/telemetry/genaispans.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QSettings>

#include <functional>

using namespace Qt::StringLiterals;

namespace Callscope::Cli {

namespace {

// The frame both commands share: CALL_ID [--db PATH], the history opened read-only, `answer`'s
// JSON printed, or its error with the matching exit code.
int printForStoredCall(const QStringList &arguments, const QString &name, const QString &help,
                       const std::function<StoreResult<QJsonObject>(CallStore &, qint64)> &answer)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(u"call"_s, QCoreApplication::translate("Cli", "The call."));
    addHistoryOption(parser);
    if (const auto exit = parseArguments(parser, name, arguments, help))
        return *exit;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1) {
        printError(QCoreApplication::translate("Cli", "%1: expected one CALL_ID (see %1 --help)")
                       .arg(name));
        return ExitUsage;
    }
    const auto id = parseId(positional.first(), u"CALL_ID"_s);
    if (!id)
        return ExitUsage;
    AppContext context;
    if (!openHistory(context, parser, AppContext::History::ReadOnly))
        return ExitFailed;
    const StoreResult<QJsonObject> out = answer(*context.store(), *id);
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
            QJsonObject out = call->toJson();
            const Telemetry::TraceRef ref = Telemetry::callTraceRef(call.value());
            QJsonObject trace { { u"trace_id"_s, QString::fromLatin1(ref.traceId.toHex()) },
                                { u"span_id"_s, QString::fromLatin1(ref.spanId.toHex()) } };
            if (const QUrl url =
                    Telemetry::traceViewerUrl(TelemetrySettings::load(QSettings()).traceUrl, ref);
                url.isValid())
                trace.insert(u"url"_s, url.toString());
            out.insert(u"trace"_s, trace);
            return out;
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
