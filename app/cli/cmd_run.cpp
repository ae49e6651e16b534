// callscope-cli run | batch | revise: structured calls from the command line, unattended.
//
//   run SPEC.json [--input TEXT | --input-file F] [--attach FILE]... [--session ID]
//                 [--db PATH] [--allow-tool NAME]... [--no-store] [--partial]
//   batch SPEC.json --inputs FILE.jsonl [--jobs N] [--resume] [--out FILE.jsonl] [--db PATH]
//         [--allow-tool NAME]...
//   revise CALL_ID --correction TEXT [--engine PROFILE] [--db PATH]
//
// run and revise print {"call_id", "status", "parsed", "error_category", "error", "usage",
// "turns", "attempts"}; exit 0 completed, 1 failed or cancelled, 3 turn_limited, 2 bad
// arguments or an invalid spec. batch prints one such line per input line (plus "line"), in
// input order, with --jobs calls in flight; it goes on past failing inputs, shows progress on
// stderr, and exits 0 when every input completed, 1 otherwise.

#include "app/cli/cliutil.h"
#include "app/cli/runsupport.h"
#include "app/cli/storecommand.h"
#include "core/eval/pricetable.h"
#include "core/loop/runner.h"
#include "core/model/jsonwriter.h"
#include "core/model/specio.h"
#include "core/service/appcontext.h"
#include "core/service/batchrun.h"
#include "core/service/calljob.h"
#include "core/service/callservice.h"
#include "core/service/scheduler.h"
#include "core/store/callstore.h"
#include "core/store/database.h"
#include "core/store/recoveryfile.h"
#include "core/store/runlock.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSocketNotifier>
#include <QTimer>

#include <cerrno>
#include <csignal>
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

// {"entries": [...each with its storage_usd], "storage_usd"} of Gemini explicit cache entries.
QJsonObject explicitCacheJson(const QList<ExplicitCacheEntry> &entries, const PriceTable &prices)
{
    QJsonArray list;
    double total = 0;
    for (const ExplicitCacheEntry &entry : entries) {
        QJsonObject json = entry.toJson();
        const auto usd = prices.storageCost(entry.model, entry.tokens, entry.keptSeconds());
        json.insert(u"storage_usd"_s, usd ? QJsonValue(*usd) : QJsonValue(QJsonValue::Null));
        total += usd.value_or(0);
        list.append(json);
    }
    return { { u"entries"_s, list }, { u"storage_usd"_s, total } };
}

QJsonObject resultJson(const LaunchResult &result)
{
    const CallRecord &r = result.record;
    QJsonObject out {
        { u"call_id"_s, result.stored ? QJsonValue(r.id) : QJsonValue(QJsonValue::Null) },
        { u"status"_s, callStatusName(r.status) },
        { u"parsed"_s, r.response.isUndefined() ? QJsonValue(QJsonValue::Null) : r.response },
        { u"error_category"_s,
          r.errorCategory == ErrorCategory::None ? QJsonValue(QJsonValue::Null)
                                                 : QJsonValue(errorCategoryName(r.errorCategory)) },
        { u"error"_s, r.error.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(r.error) },
        { u"usage"_s, r.usage.toJson() },
        { u"turns"_s, r.turns.size() },
        { u"attempts"_s, r.attempts.size() },
    };
    // Read once per process: a batch prints a result per line.
    static const PriceTable prices = PriceTable::fromSettings();
    const QJsonObject costs = prices.costJson(r);
    for (auto it = costs.begin(); it != costs.end(); ++it)
        out.insert(it.key(), it.value());
    if (!result.explicitCaches.isEmpty()) {
        // The call's own Gemini cache entry: what keeping it cost is part of the call's cost.
        out.insert(u"explicit_cache"_s, explicitCacheJson(result.explicitCaches, prices));
        const double storage =
            out.value(u"explicit_cache"_s).toObject().value(u"storage_usd"_s).toDouble();
        out.insert(u"cache_storage_usd"_s, storage);
        if (out.value(u"cost_usd"_s).isDouble())
            out.insert(u"cost_usd"_s, out.value(u"cost_usd"_s).toDouble() + storage);
    }
    if (!result.storeError.isEmpty())
        out.insert(u"store_error"_s, result.storeError);
    if (result.queued)
        out.insert(u"queued"_s, true); // call_id is the local queue's until it is sent
    if (result.unstoredReply()) {
        // Answered but not in the history: not a completion. "recovered": kept in the recovery
        // file beside the database, stored by the next run without a new request.
        out.insert(u"status"_s, u"not_stored"_s);
        out.insert(u"call_status"_s, callStatusName(r.status));
        out.insert(u"recovered"_s, result.recovered);
    }
    return out;
}

// The result on stdout, indented as printJson does, without Qt's writer (its copies of a
// large answer, UTF-16 and a doubling buffer, would be the peak of a large call) and without
// holding the text whole: written in pieces once a first pass has shown that it can be.
void printResult(const LaunchResult &result)
{
    const QJsonObject out = resultJson(result);
    if (Json::writeIndented(out, [](const char *, qsizetype) {})) {
        Json::writeIndented(out, [](const char *data, qsizetype size) {
            std::fwrite(data, 1, size_t(size), stdout);
        });
    } else {
        const QByteArray bytes = Json::indented(out);
        std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
    }
    std::fflush(stdout);
}

int exitCodeFor(const LaunchResult &result)
{
    switch (result.record.status) {
    case CallStatus::Completed:
        return ExitOk;
    case CallStatus::TurnLimited:
        return ExitTurnLimited;
    default:
        return ExitFailed;
    }
}

std::optional<Spec> loadSpecOrComplain(const QString &path)
{
    const SpecLoadResult loaded = loadSpecFile(path);
    if (!loaded.spec) {
        printError(Tr::tr("%1 is not a usable spec:").arg(path));
        for (const SpecError &e : loaded.errors)
            std::fprintf(stderr, "  %s: %s\n",
                         qPrintable(e.pointer.isEmpty() ? u"(root)"_s : e.pointer),
                         qPrintable(e.message));
        return std::nullopt;
    }
    return loaded.spec;
}

} // namespace

int runRun(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(u"spec"_s, Tr::tr("The spec file."));
    parser.addOption({ u"input"_s, Tr::tr("The user's input text."), u"TEXT"_s });
    parser.addOption({ u"input-file"_s, Tr::tr("Read the input text from a file."), u"F"_s });
    parser.addOption(
        { u"attach"_s, Tr::tr("Send a file (image or document) with the input."), u"FILE"_s });
    parser.addOption({ u"session"_s, Tr::tr("Run inside this session."), u"ID"_s });
    addHistoryOption(parser);
    parser.addOption({ u"allow-tool"_s, Tr::tr("Allow a tool that needs approval."), u"NAME"_s });
    parser.addOption({ u"no-store"_s, Tr::tr("Do not keep the call in the history.") });
    parser.addOption({ u"partial"_s,
                       Tr::tr("Print the structured answer as it streams: one JSON line on "
                              "stderr per update, with each field's state.") });
    addTrustOptions(parser);
    if (const auto exit = parseArguments(
            parser, u"run"_s, arguments,
            Tr::tr("Usage: callscope-cli run SPEC.json [--input TEXT | --input-file F] "
                   "[--attach FILE]... [--session ID] [--db PATH] [--allow-tool NAME]... "
                   "[--no-store] [--partial] [--trust] [--allow-key-env NAME]...\n\nRuns the "
                   "spec once, "
                   "unattended: tools that need approval are refused unless allowed with "
                   "--allow-tool. A file that would start programs or read a variable that is not "
                   "a provider key runs only when trusted (--trust, CALLSCOPE_TRUST=1).\n"
                   "Exit codes: 0 completed, 1 failed, 2 bad arguments or an invalid spec, "
                   "3 turn limited.\n")))
        return *exit;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1) {
        printError(Tr::tr("run needs exactly one spec file (see run --help)"));
        return ExitUsage;
    }
    if (parser.isSet(u"input"_s) && parser.isSet(u"input-file"_s)) {
        printError(Tr::tr("give either --input or --input-file, not both"));
        return ExitUsage;
    }
    const auto spec = loadSpecOrComplain(positional.first());
    if (!spec)
        return ExitUsage;

    LaunchRequest request;
    request.spec = *spec;
    request.input.text = parser.value(u"input"_s);
    if (parser.isSet(u"input-file"_s)) {
        QString error;
        const auto data = readFile(parser.value(u"input-file"_s), &error);
        if (!data) {
            printError(error);
            return ExitUsage;
        }
        request.input.text = QString::fromUtf8(*data);
    }
    for (const QString &path : parser.values(u"attach"_s)) {
        QString error;
        auto attachment = readAttachmentFile(path, &error);
        if (!attachment) {
            printError(error);
            return ExitUsage;
        }
        request.input.attachments.append(*attachment);
    }
    for (const QString &tool : parser.values(u"allow-tool"_s))
        request.options.allowedTools.insert(tool);
    if (parser.isSet(u"session"_s)) {
        bool ok = false;
        request.sessionId = parser.value(u"session"_s).toLongLong(&ok);
        if (!ok) {
            printError(Tr::tr("--session needs a session id (a number)"));
            return ExitUsage;
        }
        if (parser.isSet(u"no-store"_s)) {
            printError(
                Tr::tr("--session needs the history: it cannot be combined with --no-store"));
            return ExitUsage;
        }
    }

    AppContext context;
    if (!parser.isSet(u"no-store"_s) && !openHistory(context, parser))
        return ExitFailed;
    if (!passTrust(context, parser, specRunItems(*spec, parser.values(u"allow-key-env"_s)),
                   trustEntryFor(*spec)))
        return ExitUsage;
    CallJob *job = context.calls()->launch(request);
    if (parser.isSet(u"partial"_s)) {
        QObject::connect(job, &CallJob::runnerCreated, job, [](Runner *runner) {
            QObject::connect(
                runner, &Runner::outputProgress, runner, [](const OutputProgress &progress) {
                    const QByteArray line =
                        QJsonDocument(progress.toJson()).toJson(QJsonDocument::Compact);
                    std::fwrite(line.constData(), 1, size_t(line.size()), stderr);
                    std::fputc('\n', stderr);
                    std::fflush(stderr);
                });
        });
    }
    StopOnSignal stopper(cancelling(job));
    const LaunchResult result = waitFor(job);
    for (const QString &notice : result.cacheNotices)
        printError(Tr::tr("warning: %1").arg(notice));
    printResult(result);
    // A call that could not be stored is not a success, even when the model answered.
    if (!result.storeError.isEmpty())
        return ExitFailed;
    return exitCodeFor(result);
}

int runRevise(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(u"call"_s, Tr::tr("The call to revise."));
    parser.addOption({ u"correction"_s, Tr::tr("What to change."), u"TEXT"_s });
    addHistoryOption(parser);
    parser.addOption({ u"allow-tool"_s, Tr::tr("Allow a tool that needs approval."), u"NAME"_s });
    parser.addOption({ u"engine"_s,
                       Tr::tr("Revise on this engine profile instead of the call's own engine."),
                       u"PROFILE"_s });
    addTrustOptions(parser);
    if (const auto exit = parseArguments(
            parser, u"revise"_s, arguments,
            Tr::tr("Usage: callscope-cli revise CALL_ID --correction TEXT [--engine PROFILE] "
                   "[--db PATH] [--allow-tool NAME]... [--trust]\n\nRuns the stored call again "
                   "with the correction added; the result is stored as its revision.\n"
                   "Exit codes: 0 completed, 1 failed, 2 bad arguments or an unknown call, "
                   "3 turn limited.\n")))
        return *exit;
    bool ok = false;
    const qint64 callId = parser.positionalArguments().value(0).toLongLong(&ok);
    if (parser.positionalArguments().size() != 1 || !ok) {
        printError(Tr::tr("revise needs one call id (a number)"));
        return ExitUsage;
    }
    if (parser.value(u"correction"_s).trimmed().isEmpty()) {
        printError(Tr::tr("revise needs --correction TEXT"));
        return ExitUsage;
    }
    AppContext context;
    if (!openHistory(context, parser))
        return ExitFailed;
    if (auto exists = context.store()->callExists(callId); !exists || !exists.value()) {
        printError(Tr::tr("no call %1 in %2").arg(callId).arg(context.databasePath()));
        return ExitUsage;
    }
    // A revision runs the stored call's tools again: an imported call's spec is someone else's.
    if (auto parent = context.store()->getCall(callId)) {
        const SpecLoadResult stored = specFromJson(
            parent.value().spec, parent.value().metadata.value(u"spec_path"_s).toString());
        if (stored.spec
            && !passTrust(context, parser,
                          specRunItems(*stored.spec, parser.values(u"allow-key-env"_s)),
                          trustEntryFor(*stored.spec)))
            return ExitUsage;
    }
    RunOptions options;
    for (const QString &tool : parser.values(u"allow-tool"_s))
        options.allowedTools.insert(tool);
    std::optional<EngineSpec> engine;
    if (parser.isSet(u"engine"_s)) {
        engine.emplace();
        engine->profile = parser.value(u"engine"_s);
        engine->typeFromProfile = true;
    }
    CallJob *job = context.calls()->revise(callId, parser.value(u"correction"_s), options, engine);
    StopOnSignal stopper(cancelling(job));
    const LaunchResult result = waitFor(job);
    printResult(result);
    if (result.startFailed)
        printError(result.record.error);
    return exitCodeFor(result);
}

int runBatch(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(u"spec"_s, Tr::tr("The spec file."));
    parser.addOption({ u"inputs"_s, Tr::tr("JSON Lines: one input per line."), u"FILE"_s });
    parser.addOption(
        { u"out"_s, Tr::tr("Write the result lines here instead of stdout."), u"FILE"_s });
    addHistoryOption(parser);
    parser.addOption({ u"jobs"_s, Tr::tr("Calls in flight at once (default 4)."), u"N"_s });
    parser.addOption(
        { u"resume"_s, Tr::tr("Continue the newest batch of this spec and inputs file.") });
    parser.addOption({ u"allow-tool"_s, Tr::tr("Allow a tool that needs approval."), u"NAME"_s });
    addTrustOptions(parser);
    if (const auto exit = parseArguments(
            parser, u"batch"_s, arguments,
            Tr::tr(
                "Usage: callscope-cli batch SPEC.json --inputs FILE.jsonl [--jobs N] [--resume] "
                "[--out FILE.jsonl] [--db PATH] [--allow-tool NAME]... [--trust]\n\n"
                "Runs the spec on every line of the inputs file with N calls in flight "
                "(default 4) and prints one result line per input line, in input order.\n"
                "A line is a JSON string or {\"input\", \"attachments\": [paths], \"metadata\"}.\n"
                "The batch is stored: --resume runs only the lines that have no completed "
                "call yet. Ctrl+C cancels what is in flight and prints how to resume.\n"
                "Exit codes: 0 every input completed, 1 otherwise, 2 bad arguments.\n")))
        return *exit;
    if (parser.positionalArguments().size() != 1 || !parser.isSet(u"inputs"_s)) {
        printError(Tr::tr("usage: batch SPEC.json --inputs FILE.jsonl [--jobs N] [--resume] [--out "
                          "FILE.jsonl] [--db PATH]"));
        return ExitUsage;
    }
    int jobs = 4;
    if (parser.isSet(u"jobs"_s)) {
        bool ok = false;
        jobs = parser.value(u"jobs"_s).toInt(&ok);
        if (!ok || jobs < 1 || jobs > 256) {
            printError(Tr::tr("--jobs needs a whole number from 1 to 256"));
            return ExitUsage;
        }
    }
    const QString specPath = QFileInfo(parser.positionalArguments().first()).absoluteFilePath();
    const auto spec = loadSpecOrComplain(parser.positionalArguments().first());
    if (!spec)
        return ExitUsage;
    const QString inputsPath = QFileInfo(parser.value(u"inputs"_s)).absoluteFilePath();
    const BatchInputs inputs = readBatchInputs(inputsPath);
    if (!inputs.error.isEmpty()) {
        printError(inputs.error);
        return ExitUsage;
    }
    QFile out;
    if (parser.isSet(u"out"_s)) {
        out.setFileName(parser.value(u"out"_s));
        if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Unbuffered)) {
            printError(Tr::tr("cannot write %1: %2").arg(out.fileName(), out.errorString()));
            return ExitUsage;
        }
    }
    // A line that cannot be written whole is taken back out (the file never ends in half a
    // line), said once on stderr, and stops the batch: exit 1.
    QString outError;
    BatchRun *running = nullptr;
    auto emitLine = [&out, &outError, &running](const QJsonObject &line) {
        if (!outError.isEmpty())
            return;
        if (!out.isOpen()) {
            printJsonLine(line);
            return;
        }
        const QByteArray bytes = QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n';
        if (appendWholeLine(out, bytes, &outError))
            return;
        printError(
            Tr::tr("cannot write %1: %2; the batch stops starting calls (what runs is stored)")
                .arg(out.fileName(), outError));
        if (running)
            running->halt(outError);
    };

    AppContext context;
    if (!openHistory(context, parser))
        return ExitFailed;
    if (!passTrust(context, parser, specRunItems(*spec, parser.values(u"allow-key-env"_s)),
                   trustEntryFor(*spec)))
        return ExitUsage;
    CallService *calls = context.calls();
    calls->scheduler()->setGlobalLimit(jobs);
    if (const int own = calls->scheduler()->engineLimit(engineKey(spec->engine));
        own > 0 && own < jobs)
        std::fprintf(
            stderr, "%s\n",
            qPrintable(Tr::tr("batch: the engine is limited to %1 calls at once (settings or its "
                              "profile), so at most %1 of the %2 jobs run on it")
                           .arg(own)
                           .arg(jobs)));

    // The stored batch: a new one, or with --resume the newest one of the same files.
    const QJsonObject storedSpec = CallStore::stripSecrets(specToJson(*spec));
    const QByteArray specHash =
        QCryptographicHash::hash(QJsonDocument(storedSpec).toJson(QJsonDocument::Compact),
                                 QCryptographicHash::Sha256)
            .toHex();
    qint64 batchId = 0;
    QHash<int, qint64> completed;
    // Held until the batch ends, taken before its completed lines are read: a second run of the
    // same batch would send the same unfinished lines again.
    std::unique_ptr<RunLock> lock;
    const auto lockBatch = [&](qint64 id) {
        QString lockError;
        lock = RunLock::acquire(context.databasePath(), u"batch-%1"_s.arg(id), &lockError);
        if (!lock)
            printError(Tr::tr("batch %1 is %2: wait for it to end or stop it, then resume")
                           .arg(id)
                           .arg(lockError));
        return bool(lock);
    };
    if (parser.isSet(u"resume"_s)) {
        auto latest = context.store()->latestBatch(specPath, inputsPath);
        if (!latest) {
            printError(latest.error().message);
            return ExitFailed;
        }
        if (latest.value()) {
            const BatchInfo &found = *latest.value();
            if (found.specHash != specHash) {
                printError(
                    Tr::tr("the spec %1 changed since batch %2 was started; resuming would mix "
                           "two specs. "
                           "Run without --resume to start a new batch.")
                        .arg(specPath)
                        .arg(found.id));
                return ExitUsage;
            }
            if (found.inputsHash != inputs.sha256) {
                printError(
                    Tr::tr(
                        "the inputs file %1 changed since batch %2 was started; its lines may mean "
                        "other inputs now. Run without --resume to start a new batch.")
                        .arg(inputsPath)
                        .arg(found.id));
                return ExitUsage;
            }
            batchId = found.id;
            if (!lockBatch(batchId))
                return ExitFailed;
            auto lines = context.store()->batchCompletedLines(batchId);
            if (!lines) {
                printError(lines.error().message);
                return ExitFailed;
            }
            completed = lines.value();
            std::fprintf(stderr, "%s\n",
                         qPrintable(Tr::tr("batch %1: resuming, %2 of %3 inputs already completed")
                                        .arg(batchId)
                                        .arg(completed.size())
                                        .arg(inputs.lines.size())));
        } else {
            std::fprintf(stderr, "%s\n",
                         qPrintable(Tr::tr(
                             "batch: nothing to resume for these files, starting a new batch")));
        }
    }
    if (batchId == 0) {
        BatchInfo info;
        info.specPath = specPath;
        info.specHash = specHash;
        info.spec = storedSpec;
        info.inputsPath = inputsPath;
        info.inputsHash = inputs.sha256;
        info.totalLines = int(inputs.lines.size());
        QString writeError;
        const auto created = calls->writeNow<StoreResult<qint64>>(
            [&info](CallStore &store) { return store.createBatch(info); }, &writeError);
        if (!created || !*created) {
            printError(Tr::tr("cannot store the batch: %1")
                           .arg(created ? created->error().message : writeError));
            return ExitFailed;
        }
        batchId = created->value();
        if (!lockBatch(batchId))
            return ExitFailed;
    }

    BatchRun run(calls, *spec, inputs.lines);
    running = &run;
    QObject::connect(&run, &BatchRun::halted, &run, [&outError, &context](const QString &why) {
        if (!outError.isEmpty())
            return; // said already
        printError(
            Tr::tr("the history cannot store the results (%1); no more calls are started, the "
                   "replies of the calls in flight go to %2")
                .arg(why, RecoveryFile::pathFor(context.databasePath())));
    });
    QObject::connect(&run, &BatchRun::notice, &run,
                     [](const QString &text) { printError(Tr::tr("warning: %1").arg(text)); });
    run.setBatchId(batchId);
    run.setCompletedLines(completed);
    run.setWindow(jobs);
    QSet<QString> allowed;
    for (const QString &tool : parser.values(u"allow-tool"_s))
        allowed.insert(tool);
    run.setAllowedTools(allowed);

    int notCompleted = 0;
    // The batch's tokens and cost, summed over the calls this process made.
    Usage batchUsage;
    double batchCost = 0, batchUncached = 0;
    bool batchPriced = true;
    QObject::connect(
        &run, &BatchRun::lineFinished, &run,
        [&](int line, const LaunchResult &result, bool resumed, const QString &lineError) {
            QJsonObject json;
            if (!lineError.isEmpty()) {
                json = QJsonObject { { u"line"_s, line },
                                     { u"status"_s, u"invalid_input"_s },
                                     { u"error"_s, lineError } };
                ++notCompleted;
            } else {
                json = resultJson(result);
                json.insert(u"line"_s, line);
                if (!resumed) {
                    batchUsage += result.record.usage;
                    batchPriced &= json.value(u"cost_usd"_s).isDouble();
                    batchCost += json.value(u"cost_usd"_s).toDouble();
                    batchUncached += json.value(u"cost_uncached_usd"_s).toDouble();
                }
                if (resumed)
                    json.insert(u"resumed"_s, true);
                if (result.record.status != CallStatus::Completed || !result.storeError.isEmpty())
                    ++notCompleted;
            }
            emitLine(json);
        });

    // Progress on stderr: a line redrawn in place on a terminal, a plain line now and then
    // otherwise (logs, CI).
    const bool terminal = ::isatty(fileno(stderr));
    auto progressText = [&run] {
        const BatchRun::Progress p = run.progress();
        return Tr::tr("batch: %1/%2 done, %3 failed, %4 in flight, %5 calls/s, ETA %6")
            .arg(p.done)
            .arg(p.total)
            .arg(p.failed)
            .arg(p.inFlight)
            .arg(p.callsPerSecond, 0, 'f', 1)
            .arg(durationText(p.etaMs));
    };
    QTimer progressTimer;
    progressTimer.setInterval(terminal ? 250 : 5000);
    QObject::connect(&progressTimer, &QTimer::timeout, &run, [&] {
        if (terminal)
            std::fprintf(stderr, "\r\033[K%s", qPrintable(progressText()));
        else
            std::fprintf(stderr, "%s\n", qPrintable(progressText()));
        std::fflush(stderr);
    });
    progressTimer.start();

    bool interrupted = false;
    StopOnSignal stopper([&] {
        if (interrupted)
            return;
        interrupted = true;
        if (terminal)
            std::fputs("\n", stderr);
        std::fprintf(stderr, "%s\n",
                     qPrintable(Tr::tr("batch: stopping; cancelling the calls in flight")));
        run.stop();
    });

    QEventLoop loop;
    QObject::connect(&run, &BatchRun::finished, &loop, &QEventLoop::quit);
    run.start();
    loop.exec();
    progressTimer.stop();
    calls->flushWrites();

    const BatchRun::Progress p = run.progress();
    if (terminal)
        std::fputs("\r\033[K", stderr);
    const int completedNow = p.done - p.failed;
    std::fprintf(stderr, "%s\n",
                 qPrintable(Tr::tr("batch %1: %2 inputs, %3 completed, %4 not completed")
                                .arg(batchId)
                                .arg(inputs.lines.size())
                                .arg(completedNow + p.resumed)
                                .arg(int(inputs.lines.size()) - completedNow - p.resumed)));
    // Gemini's explicit cache: what keeping its entries cost is part of the batch's cost.
    const QList<ExplicitCacheEntry> entries = run.contentCache()->entries();
    static const PriceTable prices = PriceTable::fromSettings();
    const QJsonObject explicitCache = explicitCacheJson(entries, prices);
    const double storage = explicitCache.value(u"storage_usd"_s).toDouble();
    batchCost += storage;
    for (const QJsonValue &e : explicitCache.value(u"entries"_s).toArray()) {
        const QJsonObject entry = e.toObject();
        std::fprintf(
            stderr, "%s\n",
            qPrintable(Tr::tr("batch %1: explicit cache %2: %3 tokens, named by %4 requests, kept "
                              "%5 s, %6; storage $%7")
                           .arg(batchId)
                           .arg(entry.value(u"name"_s).toString())
                           .arg(entry.value(u"tokens"_s).toInteger())
                           .arg(entry.value(u"requests"_s).toInt())
                           .arg(entry.value(u"kept_seconds"_s).toDouble(), 0, 'f', 3)
                           .arg(entry.value(u"deleted"_s).toBool() ? Tr::tr("deleted")
                                                                   : Tr::tr("not deleted"))
                           .arg(entry.value(u"storage_usd"_s).toDouble(), 0, 'g', 6)));
    }
    if (!batchUsage.isEmpty()) {
        QString tokens =
            Tr::tr("batch %1: %2 prompt tokens (%3 uncached, %4 read from the cache, %5 "
                   "written to it), %6 output")
                .arg(batchId)
                .arg(batchUsage.promptTokens())
                .arg(batchUsage.inputTokens)
                .arg(batchUsage.cacheReadTokens)
                .arg(batchUsage.cacheWriteTokens)
                .arg(batchUsage.outputTokens);
        if (batchPriced && entries.isEmpty())
            tokens += Tr::tr("; $%1, $%2 without the cache")
                          .arg(batchCost, 0, 'f', 4)
                          .arg(batchUncached, 0, 'f', 4);
        else if (batchPriced)
            tokens += Tr::tr("; $%1 with $%2 of cache storage, $%3 without the cache")
                          .arg(batchCost, 0, 'f', 6)
                          .arg(storage, 0, 'g', 6)
                          .arg(batchUncached, 0, 'f', 6);
        std::fprintf(stderr, "%s\n", qPrintable(tokens));
    }
    if (p.notStored > 0)
        std::fprintf(stderr, "%s\n",
                     qPrintable(QCoreApplication::translate(
                                    "Cli",
                                    "batch %1: %n answer(s) could not be stored in the history; "
                                    "those kept in %2 are stored by the next run",
                                    nullptr, p.notStored)
                                    .arg(batchId)
                                    .arg(RecoveryFile::pathFor(context.databasePath()))));
    if (interrupted || run.isHalted() || p.done + p.resumed < inputs.lines.size()) {
        QString command =
            u"callscope-cli batch "_s + specPath + u" --inputs "_s + inputsPath + u" --resume"_s;
        command += historyArgument(parser);
        if (parser.isSet(u"jobs"_s))
            command += u" --jobs "_s + QString::number(jobs);
        for (const QString &tool : parser.values(u"allow-tool"_s))
            command += u" --allow-tool "_s + tool;
        std::fprintf(stderr, "%s\n", qPrintable(Tr::tr("to run what is left: %1").arg(command)));
    }
    if (!outError.isEmpty() || run.isHalted())
        return ExitFailed;
    return notCompleted == 0 && p.done + p.resumed == inputs.lines.size() ? ExitOk : ExitFailed;
}

} // namespace Callscope::Cli
