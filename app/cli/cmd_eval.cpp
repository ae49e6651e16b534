// callscope-cli eval: an experiment (a spec over a dataset, variants, repeats, assertions).
//
//   eval EXPERIMENT.json [--jobs N] [--out RESULTS.jsonl] [--junit REPORT.xml] [--html REPORT.html]
//   [--resume ID]
//        [--only CASE_ID]... [--db PATH] [--allow-tool NAME]... [--baseline ID|latest]
//        [--fail-under RATE]
//
// Prints the summary {"experiment_id", "name", "variants": [...], "comparisons": [...],
// "cells": [...]}; one --out line per run. The first line on stderr, before any request, is
// "experiment <id>: <name>". After the runs, --out gets one line per label people gave the
// experiment's runs ({"label": true, "case", "variant", "repeat", "verdict", ...}), and the
// summary a "review" object (the labels and each judge's agreement with them). Exit 0 when every
// case passed in every variant, 1 when any did not, 2 for an unreadable or invalid experiment (each
// fault with where it is). With
// --baseline or --fail-under those gates decide instead: 1 for a significant regression
// against the baseline, a regression of a critical case, or a pass rate below RATE.

#include "app/cli/cliutil.h"
#include "app/cli/runsupport.h"
#include "app/cli/storecommand.h"
#include "core/eval/baseline.h"
#include "core/eval/experimentrun.h"
#include "core/eval/promptfooimport.h"
#include "core/eval/report.h"
#include "core/eval/review.h"
#include "core/service/scheduler.h"
#include "core/store/recoveryfile.h"
#include "core/store/storewriter.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTimer>
#include <QXmlStreamWriter>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace Callscope::Cli {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Cli)
};

bool writeFile(const QString &path, const QByteArray &data, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(data) != data.size()
        || !file.flush()) {
        *error = file.errorString();
        return false;
    }
    return true;
}

} // namespace

int runEval(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(u"experiment"_s, Tr::tr("The experiment file."));
    parser.addOption({ u"jobs"_s,
                       Tr::tr("Calls in flight at once (default: the experiment's, else 4)."),
                       u"N"_s });
    parser.addOption({ u"out"_s, Tr::tr("Write one JSON line per run here."), u"FILE"_s });
    parser.addOption({ u"junit"_s, Tr::tr("Write a JUnit XML report here."), u"FILE"_s });
    parser.addOption(
        { u"html"_s, Tr::tr("Write a self-contained HTML report (the matrix) here."), u"FILE"_s });
    parser.addOption({ u"resume"_s, Tr::tr("Continue this stored experiment."), u"ID"_s });
    parser.addOption({ u"only"_s, Tr::tr("Run only this case (repeatable)."), u"CASE_ID"_s });
    addHistoryOption(parser);
    parser.addOption({ u"allow-tool"_s, Tr::tr("Allow a tool that needs approval."), u"NAME"_s });
    addTrustOptions(parser);
    parser.addOption(
        { u"prices"_s,
          Tr::tr("A price table (JSON) instead of the one in the settings or shipped."),
          u"FILE"_s });
    parser.addOption(
        { u"resubmit-unknown"_s,
          Tr::tr("Through a batch API: send again the requests of provider batches whose "
                 "creation got no answer (they may exist at the provider).") });
    parser.addOption(
        { u"baseline"_s,
          Tr::tr("Compare with this stored experiment run (an id, or latest: the newest "
                 "earlier run of the same name); exit 1 on a significant regression or a "
                 "regression of a critical case."),
          u"ID"_s });
    parser.addOption(
        { u"fail-under"_s,
          Tr::tr("Exit 1 when a variant's pass rate is below RATE (0 to 1, or a percentage "
                 "such as 85%)."),
          u"RATE"_s });
    parser.addOption(
        { u"no-cache"_s, Tr::tr("Send every request; neither read nor fill the response cache.") });
    parser.addOption(
        { u"refresh-cache"_s,
          Tr::tr("Send every request and replace what the response cache holds for it.") });
    parser.addOption({ u"skip-unsupported"_s,
                       Tr::tr("A promptfoo configuration: run without the parts Callscope cannot "
                              "take (listed on stderr) instead of refusing it.") });
    if (const auto exit = parseArguments(
            parser, u"eval"_s, arguments,
            Tr::tr(
                "Usage: callscope-cli eval EXPERIMENT.json [--jobs N] [--out RESULTS.jsonl] "
                "[--junit REPORT.xml] [--resume ID] [--only CASE_ID]... [--db PATH] "
                "[--allow-tool NAME]... [--resubmit-unknown] [--baseline ID|latest] [--fail-under "
                "RATE] [--skip-unsupported]\n\n"
                "Runs every case of the dataset in every variant, "
                "repeated, checks the assertions and prints the summary.\n"
                "EXPERIMENT may also be a promptfoo configuration (.yaml, .yml): it is converted "
                "first (see callscope-cli convert), and when parts of it cannot be taken they are "
                "listed and nothing is sent unless --skip-unsupported is given.\nExit codes: 0 "
                "every "
                "case passed in every variant, 1 some did not, 2 the experiment is unreadable "
                "or invalid. With --baseline or --fail-under: 1 only for a significant regression, "
                "a regression of a critical case or a pass rate below RATE.\n")))
        return *exit;
    if (parser.positionalArguments().size() != 1) {
        printError(Tr::tr("eval needs exactly one experiment file (see eval --help)"));
        return ExitUsage;
    }
    int jobs = 0;
    if (parser.isSet(u"jobs"_s)) {
        bool ok = false;
        jobs = parser.value(u"jobs"_s).toInt(&ok);
        if (!ok || jobs < 1 || jobs > 256) {
            printError(Tr::tr("--jobs needs a whole number from 1 to 256"));
            return ExitUsage;
        }
    }
    std::optional<qint64> resumeId;
    if (parser.isSet(u"resume"_s)) {
        bool ok = false;
        resumeId = parser.value(u"resume"_s).toLongLong(&ok);
        if (!ok || *resumeId <= 0) {
            printError(Tr::tr("--resume needs an experiment id (a number)"));
            return ExitUsage;
        }
    }

    if (parser.isSet(u"no-cache"_s) && parser.isSet(u"refresh-cache"_s)) {
        printError(Tr::tr("--no-cache and --refresh-cache cannot be used together"));
        return ExitUsage;
    }
    std::optional<double> failUnder;
    if (parser.isSet(u"fail-under"_s)) {
        QString text = parser.value(u"fail-under"_s).trimmed();
        const bool percent = text.endsWith(u'%');
        if (percent)
            text.chop(1);
        bool ok = false;
        double rate = text.toDouble(&ok);
        if (percent)
            rate /= 100;
        if (!ok || rate < 0 || rate > 1) {
            printError(
                Tr::tr("--fail-under needs a pass rate from 0 to 1, or a percentage such as 85%"));
            return ExitUsage;
        }
        failUnder = rate;
    }

    PriceTable prices = PriceTable::fromSettings();
    if (parser.isSet(u"prices"_s)) {
        QString error;
        auto table = PriceTable::fromFile(parser.value(u"prices"_s), &error);
        if (!table) {
            printError(error);
            return ExitUsage;
        }
        prices = *table;
    }
    AppContext context;
    if (!openHistory(context, parser))
        return ExitFailed;
    const QString path = QFileInfo(parser.positionalArguments().first()).absoluteFilePath();
    ExperimentFileOptions fileOptions;
    fileOptions.skipUnsupported = parser.isSet(u"skip-unsupported"_s);
    const ExperimentLoad load = loadExperimentFile(path, context.store(), fileOptions);
    if (!load.experiment) {
        printError(Tr::tr("%1 is not a usable experiment:").arg(path));
        for (const ExperimentError &e : load.errors)
            std::fprintf(stderr, "  %s\n", qPrintable(e.toString()));
        if (isPromptfooConfig(path) && !fileOptions.skipUnsupported)
            printError(Tr::tr("nothing was sent; --skip-unsupported runs the rest without the "
                              "parts listed as not supported"));
        return ExitUsage;
    }
    if (!load.skipped.isEmpty()) {
        printError(Tr::tr("left out of %1 (not supported):").arg(path));
        for (const ExperimentError &e : load.skipped)
            std::fprintf(stderr, "  %s\n", qPrintable(e.toString()));
    }
    const Experiment &experiment = *load.experiment;
    if (!passTrust(context, parser,
                   experimentRunItems(experiment, parser.values(u"allow-key-env"_s)),
                   experimentTrustEntry(experiment)))
        return ExitUsage;
    QStringList only = parser.values(u"only"_s);
    for (const QString &id : std::as_const(only)) {
        if (std::none_of(experiment.rows.begin(), experiment.rows.end(),
                         [&id](const DatasetRow &r) { return r.id == id; })) {
            printError(Tr::tr("--only %1: the dataset has no case with that id").arg(id));
            return ExitUsage;
        }
    }

    // The baseline is found before this run is stored, so "latest" is the run before it.
    std::optional<qint64> baselineId;
    QList<ExperimentRunRecord> baselineRuns;
    if (parser.isSet(u"baseline"_s)) {
        QString error;
        baselineId = resolveBaseline(context.store(), parser.value(u"baseline"_s), experiment.name,
                                     resumeId.value_or(0), &error);
        if (!baselineId) {
            printError(Tr::tr("--baseline: %1").arg(error));
            return ExitUsage;
        }
        auto runs = context.store()->experimentRuns(*baselineId);
        if (!runs) {
            printError(Tr::tr("--baseline: %1").arg(runs.error().message));
            return ExitFailed;
        }
        baselineRuns = runs.value();
    }

    // The stored experiment: a new one, or the one to resume (same definition only).
    // Created through the store writer, the one connection that writes.
    QString writeError;
    std::optional<ExperimentStart> made = context.calls()->writeNow<ExperimentStart>(
        [&experiment, resumeId](CallStore &store) {
            return startStoredExperiment(&store, experiment, resumeId);
        },
        &writeError);
    if (!made) {
        printError(Tr::tr("cannot store the experiment: %1").arg(writeError));
        return ExitFailed;
    }
    const ExperimentStart started = std::move(*made);
    switch (started.problem) {
    case ExperimentStart::Problem::None:
        break;
    case ExperimentStart::Problem::NotFound:
        printError(
            Tr::tr("there is no experiment %1 in %2").arg(*resumeId).arg(context.databasePath()));
        return ExitUsage;
    case ExperimentStart::Problem::Changed:
        printError(
            Tr::tr("%1 changed since experiment %2 started; resuming would mix two experiments. "
                   "Run without --resume to start a new one.")
                .arg(path)
                .arg(*resumeId));
        return ExitUsage;
    case ExperimentStart::Problem::Store:
        printError(resumeId ? started.storeError
                            : Tr::tr("cannot store the experiment: %1").arg(started.storeError));
        return ExitFailed;
    case ExperimentStart::Problem::InUse:
        printError(Tr::tr("experiment %1 is %2: wait for it to end or stop it, then resume")
                       .arg(*resumeId)
                       .arg(started.inUse));
        return ExitFailed;
    }
    const qint64 experimentId = started.id;
    const QList<ExperimentRunRecord> &previous = started.previous;
    std::fprintf(stderr, "experiment %lld: %s\n", experimentId, qPrintable(experiment.name));
    std::fflush(stderr);

    QFile out;
    if (parser.isSet(u"out"_s)) {
        out.setFileName(parser.value(u"out"_s));
        if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Unbuffered)) {
            printError(Tr::tr("cannot write %1: %2").arg(out.fileName(), out.errorString()));
            return ExitUsage;
        }
    }

    context.calls()->scheduler()->setGlobalLimit(jobs > 0 ? jobs
                                                     : experiment.jobs > 0
                                                     ? experiment.jobs
                                                     : Scheduler::DefaultGlobalLimit);
    ExperimentRun run(context.calls(), experiment);
    run.setExperimentId(experimentId);
    if (run.viaBatch()) {
        BatchRoundSettings settings = BatchRoundSettings::fromEnvironment();
        settings.resubmitUnknown = parser.isSet(u"resubmit-unknown"_s);
        run.setBatchSettings(settings);
    }
    if (parser.isSet(u"no-cache"_s))
        run.setCacheMode(ResponseCache::Mode::Off);
    else if (parser.isSet(u"refresh-cache"_s))
        run.setCacheMode(ResponseCache::Mode::Refresh);
    run.setPreviousRuns(previous);
    run.setStoredCalls(started.storedCalls);
    run.setStoredJudges(started.storedJudges);
    run.setRunLock(started.lock);
    run.setOnlyCases(only);
    run.setPriceTable(prices);
    QSet<QString> allowed;
    for (const QString &tool : parser.values(u"allow-tool"_s))
        allowed.insert(tool);
    run.setAllowedTools(allowed);
    // A line that cannot be written whole is taken back out, said once, and stops the
    // experiment's new calls: exit 1.
    QString outError;
    QObject::connect(&run, &ExperimentRun::halted, &run, [&outError, &context](const QString &why) {
        if (!outError.isEmpty())
            return;
        printError(
            Tr::tr("the history cannot store the results (%1); no more calls are started, the "
                   "replies of the calls in flight go to %2")
                .arg(why, RecoveryFile::pathFor(context.databasePath())));
    });
    QObject::connect(&run, &ExperimentRun::notice, &run,
                     [](const QString &text) { printError(Tr::tr("warning: %1").arg(text)); });
    QObject::connect(
        &run, &ExperimentRun::runFinished, &run,
        [&out, &outError, &run, experimentId](const ExperimentRunRecord &r) {
            if (!out.isOpen() || !outError.isEmpty())
                return;
            const QJsonObject line {
                { u"experiment_id"_s, experimentId },
                { u"case"_s, r.caseId },
                { u"variant"_s, r.variant },
                { u"repeat"_s, r.repeat },
                { u"call_id"_s, r.callId ? QJsonValue(*r.callId) : QJsonValue(QJsonValue::Null) },
                { u"status"_s, r.status },
                { u"passed"_s, r.passed },
                { u"cached"_s, r.cached },
                { u"latency_ms"_s, r.latencyMs },
                { u"cost_usd"_s,
                  r.costUsd ? QJsonValue(*r.costUsd) : QJsonValue(QJsonValue::Null) },
                { u"assertions"_s, r.assertions }
            };
            const QByteArray bytes = QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n';
            if (appendWholeLine(out, bytes, &outError))
                return;
            printError(Tr::tr("cannot write %1: %2; the experiment stops starting calls (what runs "
                              "is stored)")
                           .arg(out.fileName(), outError));
            run.halt(outError);
        });

    const bool terminal = ::isatty(fileno(stderr));
    QTimer progressTimer;
    progressTimer.setInterval(terminal ? 250 : 5000);
    QObject::connect(&progressTimer, &QTimer::timeout, &run, [&run, terminal] {
        const ExperimentRun::Progress p = run.progress();
        QString text = Tr::tr("eval: %1/%2 runs done, %3 not passed, %4 in flight")
                           .arg(p.done)
                           .arg(p.total)
                           .arg(p.failed)
                           .arg(p.inFlight);
        if (BatchRounds *rounds = run.batchRounds()) {
            const BatchRoundsOverview o = rounds->overview();
            int round = 0;
            qint64 waiting = 0;
            for (const BatchRoundState &b : o.batches) {
                round = std::max(round, b.round);
                if (b.status == u"submitted"_s || b.status == u"cancelling"_s)
                    waiting = std::max(waiting, b.waitingMs);
            }
            text += QCoreApplication::translate("Cli", "; round %1, %n provider batch(es) open",
                                                nullptr, o.openBatches)
                        .arg(round)
                + QCoreApplication::translate("Cli", ", %n request(s) waiting for %1 s", nullptr,
                                              o.waitingRequests)
                      .arg(waiting / 1000);
        }
        if (terminal)
            std::fprintf(stderr, "\r\033[K%s", qPrintable(text));
        else
            std::fprintf(stderr, "%s\n", qPrintable(text));
        std::fflush(stderr);
    });
    progressTimer.start();
    bool interrupted = false;
    bool cancelling = false;
    QTimer grace;
    grace.setSingleShot(true);
    grace.setInterval(3000);
    QObject::connect(&grace, &QTimer::timeout, &run, [&run] {
        std::fprintf(
            stderr, "%s\n",
            qPrintable(Tr::tr("eval: the provider batches keep running; --resume picks them up")));
        run.stop();
    });
    StopOnSignal stopper(
        [&] {
            if (interrupted && run.viaBatch() && grace.isActive() && !cancelling) {
                // The second Ctrl+C: cancel at the provider too.
                cancelling = true;
                grace.stop();
                std::fprintf(stderr, "%s\n",
                             qPrintable(Tr::tr("eval: cancelling the provider batches")));
                run.cancelBatches();
                return;
            }
            if (interrupted)
                return;
            interrupted = true;
            if (run.viaBatch()) {
                std::fprintf(
                    stderr, "%s\n",
                    qPrintable(Tr::tr("eval: stopping; press Ctrl+C again within 3 s to cancel the "
                                      "provider batches as well")));
                grace.start();
                return;
            }
            std::fprintf(stderr, "%s\n",
                         qPrintable(Tr::tr("eval: stopping; cancelling the calls in flight")));
            run.stop();
        },
        run.viaBatch() ? 2 : 1);
    QEventLoop loop;
    QObject::connect(&run, &ExperimentRun::finished, &loop, &QEventLoop::quit);

    run.start();
    if (BatchRounds *rounds = run.batchRounds()) {
        QObject::connect(rounds, &BatchRounds::notice, rounds, [](const QString &text) {
            std::fprintf(stderr, "eval: %s\n", qPrintable(text));
        });
    }
    loop.exec();
    progressTimer.stop();
    context.calls()->flushWrites();
    if (terminal)
        std::fputs("\r\033[K", stderr);

    // People's labels of this experiment's runs (given in the studio's review queue, between
    // a run and its resume): in the summary with each judge's agreement, and in --out.
    // (None to read when the server went away and the runs went to the local queue.)
    const StoreWriter *writer = context.calls()->writer();
    if (!writer || !writer->queueing()) {
        if (auto labels = context.store()->reviewLabels(experimentId); labels)
            run.setReviewLabels(labels.value());
        else
            printError(Tr::tr("cannot read the labels of experiment %1: %2")
                           .arg(experimentId)
                           .arg(labels.error().message));
    }
    if (out.isOpen() && outError.isEmpty()) {
        for (const ReviewLabel &label : run.reviewLabels()) {
            QJsonObject line = reviewLabelJson(label);
            line.insert(u"label"_s, true);
            const QByteArray bytes = QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n';
            if (!appendWholeLine(out, bytes, &outError)) {
                printError(Tr::tr("cannot write %1: %2").arg(out.fileName(), outError));
                break;
            }
        }
    }
    QJsonObject summary = run.summary();
    std::optional<BaselineComparison> baseline;
    if (baselineId) {
        QSet<QString> critical;
        for (const DatasetRow &row : experiment.rows) {
            if (row.critical)
                critical.insert(row.id);
        }
        baseline = compareWithBaseline(summary, *baselineId, baselineRuns, critical);
        summary.insert(u"baseline"_s, baseline->toJson());
    }
    printJson(summary);
    if (parser.isSet(u"junit"_s)) {
        QString error;
        if (!writeFile(parser.value(u"junit"_s), experimentJunit(summary), &error))
            printError(Tr::tr("cannot write %1: %2").arg(parser.value(u"junit"_s), error));
    }
    if (parser.isSet(u"html"_s)) {
        QString error;
        if (!writeFile(parser.value(u"html"_s), experimentHtml(summary).toUtf8(), &error))
            printError(Tr::tr("cannot write %1: %2").arg(parser.value(u"html"_s), error));
    }
    const ExperimentRun::Progress done = run.progress();
    if (done.notStored > 0)
        std::fprintf(stderr, "%s\n",
                     qPrintable(QCoreApplication::translate(
                                    "Cli",
                                    "eval: %n answer(s) could not be stored in the "
                                    "history; those kept in %1 are stored by the next run",
                                    nullptr, done.notStored)
                                    .arg(RecoveryFile::pathFor(context.databasePath()))));
    if (interrupted || run.isHalted() || !outError.isEmpty()) {
        std::fprintf(stderr, "%s\n",
                     qPrintable(Tr::tr("to run what is left: callscope-cli eval %1 --resume %2%3")
                                    .arg(path)
                                    .arg(experimentId)
                                    .arg(historyArgument(parser))));
        return ExitFailed;
    }
    if (!baseline && !failUnder)
        return run.allPassed() ? ExitOk : ExitFailed;
    // The gates decide: regressions against the baseline, and the pass rate.
    bool failing = false;
    if (baseline && baseline->fails()) {
        failing = true;
        if (!baseline->criticalRegressions.isEmpty())
            printError(Tr::tr("regression of a critical case against experiment %1: %2")
                           .arg(*baselineId)
                           .arg(baseline->criticalRegressions.join(u", "_s)));
        if (baseline->significant)
            printError(QCoreApplication::translate(
                           "Cli",
                           "%n case(s) regressed against experiment %1, more than chance "
                           "explains (see \"baseline\")",
                           nullptr, int(baseline->regressions.size()))
                           .arg(*baselineId));
    }
    if (failUnder) {
        for (const QJsonValue &v : summary.value(u"variants"_s).toArray()) {
            const QJsonObject variant = v.toObject();
            if (variant.value(u"pass_rate"_s).toDouble() < *failUnder) {
                failing = true;
                printError(Tr::tr("variant %1 passes %2% of its cases, under %3%")
                               .arg(variant.value(u"name"_s).toString())
                               .arg(variant.value(u"pass_rate"_s).toDouble() * 100, 0, 'f', 1)
                               .arg(*failUnder * 100, 0, 'f', 1));
            }
        }
    }
    return failing ? ExitFailed : ExitOk;
}

} // namespace Callscope::Cli
