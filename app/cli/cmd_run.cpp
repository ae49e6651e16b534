// callscope-cli run | batch | revise: structured calls from the command line, unattended.
//
//   run SPEC.json [--input TEXT | --input-file F] [--attach FILE]... [--session ID]
//                 [--db PATH] [--allow-tool NAME]... [--no-store]
//   batch SPEC.json --inputs FILE.jsonl [--out FILE.jsonl] [--db PATH] [--allow-tool NAME]...
//   revise CALL_ID --correction TEXT [--db PATH]
//
// run and revise print {"call_id", "status", "parsed", "error_category", "error", "usage",
// "turns", "attempts"}; exit 0 completed, 1 failed or cancelled, 3 turn_limited, 2 bad
// arguments or an invalid spec. batch prints one such line per input line (plus "line"), goes
// on past failing inputs, and exits 0 when every input completed, 1 otherwise.

#include "app/cli/cliutil.h"
#include "core/model/specio.h"
#include "core/secrets/credentialstore.h"
#include "core/secrets/profilestore.h"
#include "core/service/callservice.h"
#include "core/store/callstore.h"
#include "core/store/database.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QMimeDatabase>
#include <QNetworkAccessManager>
#include <QSocketNotifier>

#include <csignal>
#include <cstdio>

using namespace Qt::StringLiterals;

namespace Callscope::Cli {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Cli", text);
}

// The pieces a run needs: database, keychain, profiles, network, and the service over them.
struct RunContext
{
    std::unique_ptr<Database> database;
    std::unique_ptr<CallStore> store;
    CredentialStore credentials;
    std::unique_ptr<ProfileStore> profiles;
    QNetworkAccessManager nam;
    std::unique_ptr<CallService> service;

    bool open(const QString &dbPath, bool useStore)
    {
        if (useStore) {
            const QString path = dbPath.isEmpty() ? defaultDatabasePath() : dbPath;
            auto db = Database::open(path);
            if (!db) {
                printError(tr("cannot open the history database %1: %2").arg(path, db.error().message));
                return false;
            }
            database = std::move(db.value());
            store = std::make_unique<CallStore>(*database);
        }
        profiles = std::make_unique<ProfileStore>(&credentials, nullptr);
        service = std::make_unique<CallService>(&nam, store.get(), &credentials, profiles.get());
        return true;
    }

    // Runs one launch to its end on the event loop.
    LaunchResult wait(const std::function<void()> &start)
    {
        LaunchResult out;
        QEventLoop loop;
        QObject::connect(service.get(), &CallService::finished, &loop, [&](const LaunchResult &result) {
            out = result;
            loop.quit();
        });
        start();
        loop.exec();
        QObject::disconnect(service.get(), &CallService::finished, &loop, nullptr);
        return out;
    }
};

QJsonObject resultJson(const LaunchResult &result)
{
    const CallRecord &r = result.record;
    QJsonObject out{
        {u"call_id"_s, result.stored ? QJsonValue(r.id) : QJsonValue(QJsonValue::Null)},
        {u"status"_s, callStatusName(r.status)},
        {u"parsed"_s, r.response.isUndefined() ? QJsonValue(QJsonValue::Null) : r.response},
        {u"error_category"_s, r.errorCategory == ErrorCategory::None ? QJsonValue(QJsonValue::Null)
                                                                     : QJsonValue(errorCategoryName(r.errorCategory))},
        {u"error"_s, r.error.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(r.error)},
        {u"usage"_s, r.usage.toJson()},
        {u"turns"_s, r.turns.size()},
        {u"attempts"_s, r.attempts.size()},
    };
    if (!result.storeError.isEmpty())
        out.insert(u"store_error"_s, result.storeError);
    return out;
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
        printError(tr("%1 is not a usable spec:").arg(path));
        for (const SpecError &e : loaded.errors)
            std::fprintf(stderr, "  %s: %s\n", qPrintable(e.pointer.isEmpty() ? u"(root)"_s : e.pointer),
                         qPrintable(e.message));
        return std::nullopt;
    }
    return loaded.spec;
}

std::optional<Attachment> readAttachment(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        printError(tr("cannot read the attachment %1: %2").arg(path, file.errorString()));
        return std::nullopt;
    }
    const QByteArray data = file.readAll();
    const QString mime = QMimeDatabase().mimeTypeForFileNameAndData(path, data).name();
    return Attachment::fromData(QFileInfo(path).fileName(), mime, data);
}

bool parseOrComplain(QCommandLineParser &parser, const QString &command, const QStringList &arguments)
{
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    if (!parser.parse(QStringList{u"callscope-cli "_s + command} + arguments)) {
        printError(parser.errorText());
        return false;
    }
    return true;
}

// Stops the running call on Ctrl+C / SIGTERM so it is stored as cancelled, not lost.
class StopOnSignal
{
public:
    explicit StopOnSignal(CallService *service)
    {
        s_service = service;
        std::signal(SIGINT, &StopOnSignal::handle);
    }
    ~StopOnSignal()
    {
        std::signal(SIGINT, SIG_DFL);
        s_service = nullptr;
    }

private:
    static void handle(int)
    {
        // Only async-signal-safe work here: queue the stop for the event loop.
        if (s_service)
            QMetaObject::invokeMethod(s_service, &CallService::stop, Qt::QueuedConnection);
    }
    static inline CallService *s_service = nullptr;
};

} // namespace

int runRun(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(u"spec"_s, tr("The spec file."));
    parser.addOption({u"input"_s, tr("The user's input text."), u"TEXT"_s});
    parser.addOption({u"input-file"_s, tr("Read the input text from a file."), u"F"_s});
    parser.addOption({u"attach"_s, tr("Send a file (image or document) with the input."), u"FILE"_s});
    parser.addOption({u"session"_s, tr("Run inside this session."), u"ID"_s});
    parser.addOption({u"db"_s, tr("The history database."), u"PATH"_s});
    parser.addOption({u"allow-tool"_s, tr("Allow a tool that needs approval."), u"NAME"_s});
    parser.addOption({u"no-store"_s, tr("Do not keep the call in the history.")});
    parser.addOption({u"help"_s, tr("Show this help.")});
    if (!parseOrComplain(parser, u"run"_s, arguments))
        return ExitUsage;
    if (parser.isSet(u"help"_s)) {
        std::fputs(qPrintable(tr("Usage: callscope-cli run SPEC.json [--input TEXT | --input-file F] "
                                 "[--attach FILE]... [--session ID] [--db PATH] [--allow-tool NAME]... "
                                 "[--no-store]\n\nRuns the spec once, unattended: tools that need "
                                 "approval are refused unless allowed with --allow-tool.\n"
                                 "Exit codes: 0 completed, 1 failed, 2 bad arguments or an invalid spec, "
                                 "3 turn limited.\n")),
                   stdout);
        return ExitOk;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1) {
        printError(tr("run needs exactly one spec file (see run --help)"));
        return ExitUsage;
    }
    if (parser.isSet(u"input"_s) && parser.isSet(u"input-file"_s)) {
        printError(tr("give either --input or --input-file, not both"));
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
        auto attachment = readAttachment(path);
        if (!attachment)
            return ExitUsage;
        request.input.attachments.append(*attachment);
    }
    for (const QString &tool : parser.values(u"allow-tool"_s))
        request.options.allowedTools.insert(tool);
    if (parser.isSet(u"session"_s)) {
        bool ok = false;
        request.sessionId = parser.value(u"session"_s).toLongLong(&ok);
        if (!ok) {
            printError(tr("--session needs a session id (a number)"));
            return ExitUsage;
        }
        if (parser.isSet(u"no-store"_s)) {
            printError(tr("--session needs the history: it cannot be combined with --no-store"));
            return ExitUsage;
        }
    }

    RunContext context;
    if (!context.open(parser.value(u"db"_s), !parser.isSet(u"no-store"_s)))
        return ExitFailed;
    StopOnSignal stopper(context.service.get());
    const LaunchResult result = context.wait([&] { context.service->launch(request); });
    printJson(resultJson(result));
    // A call that could not be stored is not a success, even when the model answered.
    if (!result.storeError.isEmpty())
        return ExitFailed;
    return exitCodeFor(result);
}

int runRevise(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(u"call"_s, tr("The call to revise."));
    parser.addOption({u"correction"_s, tr("What to change."), u"TEXT"_s});
    parser.addOption({u"db"_s, tr("The history database."), u"PATH"_s});
    parser.addOption({u"allow-tool"_s, tr("Allow a tool that needs approval."), u"NAME"_s});
    if (!parseOrComplain(parser, u"revise"_s, arguments))
        return ExitUsage;
    bool ok = false;
    const qint64 callId = parser.positionalArguments().value(0).toLongLong(&ok);
    if (parser.positionalArguments().size() != 1 || !ok) {
        printError(tr("revise needs one call id (a number)"));
        return ExitUsage;
    }
    if (parser.value(u"correction"_s).trimmed().isEmpty()) {
        printError(tr("revise needs --correction TEXT"));
        return ExitUsage;
    }
    RunContext context;
    if (!context.open(parser.value(u"db"_s), true))
        return ExitFailed;
    if (auto exists = context.store->callExists(callId); !exists || !exists.value()) {
        printError(tr("no call %1 in %2").arg(callId).arg(context.database->path()));
        return ExitUsage;
    }
    RunOptions options;
    for (const QString &tool : parser.values(u"allow-tool"_s))
        options.allowedTools.insert(tool);
    StopOnSignal stopper(context.service.get());
    const LaunchResult result =
        context.wait([&] { context.service->revise(callId, parser.value(u"correction"_s), options); });
    printJson(resultJson(result));
    return exitCodeFor(result);
}

int runBatch(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(u"spec"_s, tr("The spec file."));
    parser.addOption({u"inputs"_s, tr("JSON Lines: one input per line."), u"FILE"_s});
    parser.addOption({u"out"_s, tr("Write the result lines here instead of stdout."), u"FILE"_s});
    parser.addOption({u"db"_s, tr("The history database."), u"PATH"_s});
    parser.addOption({u"allow-tool"_s, tr("Allow a tool that needs approval."), u"NAME"_s});
    if (!parseOrComplain(parser, u"batch"_s, arguments))
        return ExitUsage;
    if (parser.positionalArguments().size() != 1 || !parser.isSet(u"inputs"_s)) {
        printError(tr("usage: batch SPEC.json --inputs FILE.jsonl [--out FILE.jsonl] [--db PATH]"));
        return ExitUsage;
    }
    const auto spec = loadSpecOrComplain(parser.positionalArguments().first());
    if (!spec)
        return ExitUsage;
    QFile inputs(parser.value(u"inputs"_s));
    if (!inputs.open(QIODevice::ReadOnly)) {
        printError(tr("cannot read %1: %2").arg(inputs.fileName(), inputs.errorString()));
        return ExitUsage;
    }
    QFile out;
    if (parser.isSet(u"out"_s)) {
        out.setFileName(parser.value(u"out"_s));
        if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
            printError(tr("cannot write %1: %2").arg(out.fileName(), out.errorString()));
            return ExitUsage;
        }
    }
    auto emitLine = [&out](const QJsonObject &line) {
        if (out.isOpen()) {
            out.write(QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n');
            out.flush();
        } else {
            printJsonLine(line);
        }
    };

    RunContext context;
    if (!context.open(parser.value(u"db"_s), true))
        return ExitFailed;
    StopOnSignal stopper(context.service.get());
    QSet<QString> allowed;
    for (const QString &tool : parser.values(u"allow-tool"_s))
        allowed.insert(tool);

    int lineNumber = 0;
    int failures = 0;
    int total = 0;
    while (!inputs.atEnd()) {
        const QByteArray raw = inputs.readLine().trimmed();
        ++lineNumber;
        if (raw.isEmpty())
            continue;
        ++total;
        // A line is a JSON string (the input text) or an object {"input", "attachments",
        // "metadata"}; anything else is reported and skipped.
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson("[" + raw + "]", &parseError);
        LaunchRequest request;
        request.spec = *spec;
        request.options.allowedTools = allowed;
        QString lineError;
        if (parseError.error != QJsonParseError::NoError || doc.array().size() != 1) {
            lineError = tr("line %1 is not JSON: %2").arg(lineNumber).arg(parseError.errorString());
        } else if (doc.array().at(0).isString()) {
            request.input.text = doc.array().at(0).toString();
        } else if (doc.array().at(0).isObject() && doc.array().at(0).toObject().value(u"input"_s).isString()) {
            const QJsonObject item = doc.array().at(0).toObject();
            request.input.text = item.value(u"input"_s).toString();
            request.options.metadata = item.value(u"metadata"_s).toObject();
            for (const QJsonValue &path : item.value(u"attachments"_s).toArray()) {
                auto attachment = readAttachment(path.toString());
                if (!attachment) {
                    lineError = tr("line %1: cannot read the attachment %2").arg(lineNumber).arg(path.toString());
                    break;
                }
                request.input.attachments.append(*attachment);
            }
        } else {
            lineError = tr("line %1: expected a JSON string or an object with a string \"input\"").arg(lineNumber);
        }
        if (!lineError.isEmpty()) {
            ++failures;
            emitLine(QJsonObject{{u"line"_s, lineNumber}, {u"status"_s, u"invalid_input"_s}, {u"error"_s, lineError}});
            continue;
        }
        request.options.metadata.insert(u"batch_line"_s, lineNumber);
        const LaunchResult result = context.wait([&] { context.service->launch(request); });
        QJsonObject line = resultJson(result);
        line.insert(u"line"_s, lineNumber);
        emitLine(line);
        if (result.record.status != CallStatus::Completed)
            ++failures;
        if (result.record.status == CallStatus::Cancelled)
            break; // Ctrl+C stops the batch, not just one input
    }
    std::fprintf(stderr, "%s\n", qPrintable(tr("batch: %1 inputs, %2 completed, %3 not completed")
                                                .arg(total)
                                                .arg(total - failures)
                                                .arg(failures)));
    return failures == 0 ? ExitOk : ExitFailed;
}

} // namespace Callscope::Cli
