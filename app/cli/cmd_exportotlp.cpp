// callscope-cli export-otlp [--since DATE] [--kind K] [--experiment ID] [--db PATH]
//                           [--otlp ENDPOINT]
//
// Sends stored calls to an OTLP collector as spans with their original times and ids (the
// same ids a live export gave them), oldest first. Prints a JSON summary.

#include "app/cli/clitelemetry.h"
#include "app/cli/cliutil.h"
#include "app/cli/storecommand.h"
#include "core/eval/calltelemetry.h"
#include "core/telemetry/otlpexporter.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonObject>

#include <algorithm>
#include <cstdio>

using namespace Qt::StringLiterals;

namespace Callscope::Cli {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Cli)
};

QDateTime parseSince(const QString &text)
{
    QDateTime time = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!time.isValid()) {
        const QDate date = QDate::fromString(text, Qt::ISODate);
        if (date.isValid())
            time = date.startOfDay(Qt::UTC);
    }
    return time;
}

} // namespace

int runExportOtlp(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(
        { u"since"_s, Tr::tr("Only calls started on or after this date."), u"DATE"_s });
    parser.addOption({ u"kind"_s, Tr::tr("Only calls of this kind."), u"K"_s });
    parser.addOption({ u"experiment"_s, Tr::tr("Only the calls of this experiment."), u"ID"_s });
    addHistoryOption(parser);
    if (const auto exit = parseArguments(
            parser, u"export-otlp"_s, arguments,
            Tr::tr("Usage: callscope-cli export --otlp [ENDPOINT] [--since DATE] [--kind K]\n"
                   "       [--experiment ID] [--db PATH]\n"
                   "   or: callscope-cli export-otlp [the same options] [--otlp ENDPOINT]\n\n"
                   "Sends stored calls to an OpenTelemetry collector as spans, with their\n"
                   "original times. The endpoint comes from --otlp or the OTEL_EXPORTER_OTLP_*\n"
                   "variables (docs/telemetry.md).\n")))
        return *exit;
    if (!parser.positionalArguments().isEmpty()) {
        printError(Tr::tr("export-otlp: unexpected argument %1 (see export-otlp --help)")
                       .arg(parser.positionalArguments().first()));
        return ExitUsage;
    }
    const auto optionValue = [&parser](const QString &name) -> std::optional<QString> {
        if (!parser.isSet(name))
            return std::nullopt;
        return parser.value(name);
    };
    const std::optional<QString> since = optionValue(u"since"_s);
    const std::optional<QString> kind = optionValue(u"kind"_s);
    const std::optional<QString> experiment = optionValue(u"experiment"_s);
    Telemetry::OtlpExporter *exporter = telemetryExporter();
    if (!exporter) {
        printError(Tr::tr("export-otlp: no endpoint: give --otlp ENDPOINT or set "
                          "OTEL_EXPORTER_OTLP_ENDPOINT"));
        return ExitUsage;
    }
    HistoryQuery query;
    if (since) {
        query.from = parseSince(*since);
        if (!query.from.isValid()) {
            printError(Tr::tr("export-otlp: --since '%1' is not a date (YYYY-MM-DD) or an ISO "
                              "date and time")
                           .arg(*since));
            return ExitUsage;
        }
    }
    query.kind = kind.value_or(QString());
    query.limit = 500;

    AppContext context;
    if (!openHistory(context, parser, AppContext::History::ReadOnly))
        return ExitFailed;
    CallStore &store = *context.store();

    // The ids, newest first as the history pages them; sent oldest first.
    QList<qint64> ids;
    for (;;) {
        auto page = store.listCalls(query);
        if (!page) {
            printError(page.error().message);
            return exitCodeFor(page.error());
        }
        for (const HistoryRow &row : page.value().rows)
            ids.append(row.id);
        if (!page.value().next)
            break;
        query.after = page.value().next;
    }
    std::reverse(ids.begin(), ids.end());

    qint64 sentCalls = 0;
    {
        CallTelemetry telemetry(exporter, &store);
        const int bound = exporter->config().maxQueueSpans / 2;
        for (qint64 id : std::as_const(ids)) {
            auto call = store.getCall(id);
            if (!call)
                continue;
            CallRecord record = call.value();
            if (record.status == CallStatus::Running)
                continue;
            if (experiment) {
                const QJsonValue of = record.metadata.value(u"experiment_id"_s);
                const QString text =
                    of.isDouble() ? QString::number(of.toInteger()) : of.toString();
                if (text != *experiment)
                    continue;
            }
            if (auto exchanges = store.exchanges(id))
                record.exchanges = exchanges.value();
            telemetry.exportCall(record);
            ++sentCalls;
            // A long history goes out in steps, so the queue bound never drops any of it.
            if (exporter->stats().queued > bound)
                exporter->flush(int(exporter->config().timeoutMs) * exporter->config().maxAttempts);
        }
    }
    exporter->flush(int(exporter->config().timeoutMs) * exporter->config().maxAttempts);
    const Telemetry::OtlpExporter::Stats stats = exporter->stats();
    printJson(QJsonObject { { u"calls"_s, sentCalls },
                            { u"spans"_s, stats.submitted },
                            { u"exported"_s, stats.exported },
                            { u"dropped"_s, stats.dropped },
                            { u"rejected"_s, stats.rejected + stats.partialRejected },
                            { u"failed"_s, stats.failed + stats.queued } });
    return stats.exported == stats.submitted ? ExitOk : ExitFailed;
}

} // namespace Callscope::Cli
