// callscope-cli experiment labels EXPERIMENT_ID [--out FILE.jsonl] [--db PATH]
//
// Prints the labels people gave the runs of a stored experiment in the studio's review queue,
// one JSON object per line (oldest first): experiment_id, run_id, call_id, case, variant,
// repeat, verdict (pass, fail or skip), score (1-5 or null), note, reviewer, created_at.
// Exit 0, 2 for bad arguments or an unknown experiment, 1 when the database cannot be used.

#include "app/cli/cliutil.h"
#include "app/cli/storecommand.h"
#include "core/eval/review.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QJsonDocument>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace Callscope::Cli {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Cli)
};

int runLabels(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(u"labels"_s, Tr::tr("What to print: labels."));
    parser.addPositionalArgument(u"experiment"_s, Tr::tr("The stored experiment's id."));
    parser.addOption({ u"out"_s, Tr::tr("Write the lines to this file instead of standard output."),
                       u"FILE"_s });
    addHistoryOption(parser);
    if (const auto exit = parseArguments(
            parser, u"experiment"_s, arguments,
            Tr::tr("Usage: callscope-cli experiment labels EXPERIMENT_ID [--out FILE.jsonl] "
                   "[--db PATH]\n\n"
                   "Prints the labels people gave the experiment's runs in the review queue, "
                   "one JSON object per line.\n")))
        return *exit;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 2) {
        printError(Tr::tr("experiment labels: expected one EXPERIMENT_ID (see experiment --help)"));
        return ExitUsage;
    }
    const auto id = parseId(positional.at(1), u"EXPERIMENT_ID"_s);
    if (!id)
        return ExitUsage;
    AppContext context;
    if (!openHistory(context, parser, AppContext::History::ReadOnly))
        return ExitFailed;
    CallStore *store = context.store();
    const auto experiment = store->getExperiment(*id);
    if (!experiment) {
        printError(experiment.error().message);
        return exitCodeFor(experiment.error());
    }
    if (!experiment->has_value()) {
        printError(Tr::tr("there is no experiment %1 in %2").arg(*id).arg(context.databasePath()));
        return ExitUsage;
    }
    const auto labels = store->reviewLabels(*id);
    if (!labels) {
        printError(labels.error().message);
        return exitCodeFor(labels.error());
    }
    QByteArray lines;
    for (const ReviewLabel &label : labels.value())
        lines += QJsonDocument(reviewLabelJson(label)).toJson(QJsonDocument::Compact) + '\n';
    if (parser.isSet(u"out"_s)) {
        QFile out(parser.value(u"out"_s));
        if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate)
            || out.write(lines) != lines.size() || !out.flush()) {
            printError(Tr::tr("cannot write %1: %2").arg(out.fileName(), out.errorString()));
            return ExitFailed;
        }
    } else {
        std::fwrite(lines.constData(), 1, size_t(lines.size()), stdout);
        std::fflush(stdout);
    }
    return ExitOk;
}

} // namespace

int runExperiment(const QStringList &arguments)
{
    const QString sub = arguments.value(0);
    if (sub == u"labels"_s)
        return runLabels(arguments);
    if (sub == u"--help"_s || sub == u"-h"_s || sub == u"help"_s) {
        std::fputs(qPrintable(Tr::tr("Usage: callscope-cli experiment labels EXPERIMENT_ID "
                                     "[--out FILE.jsonl] [--db PATH]\n")),
                   stdout);
        return ExitOk;
    }
    printError(Tr::tr("experiment: expected \"labels\" (see experiment --help)"));
    return ExitUsage;
}

} // namespace Callscope::Cli
