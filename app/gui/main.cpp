#include "core/eval/calltelemetry.h"
#include "core/eval/telemetrysettings.h"
#include "core/service/appcontext.h"
#include "core/service/callservice.h"
#include "core/service/historysettings.h"
#include "core/store/database.h"
#include "core/store/historyrescue.h"
#include "core/tools/toolprocess.h"
#include "ui/widgets/historyrescuedialog.h"
#include "ui/window/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QSettings>
#include <QThread>

#include <csignal>
#include <memory>
#include <string_view>

#include "translations/translationloader.h"

using namespace Qt::StringLiterals;

namespace {

void describeOptions(QCommandLineParser &parser)
{
    parser.setApplicationDescription(
        QCoreApplication::translate("Gui", "Desktop studio for engineering LLM calls."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOption(
        { u"db"_s,
          QCoreApplication::translate("Gui",
                                      "Use this history (a file, or a postgresql:// URL) instead "
                                      "of the one chosen in Settings > History."),
          u"PATH"_s });
    parser.addPositionalArgument(
        u"spec"_s, QCoreApplication::translate("Gui", "A spec file to open."), u"[spec.json]"_s);
}

// --help and --version must work without a display, so they are answered before QApplication
// (which needs a platform plugin) exists.
bool onlyWantsInformation(int argc, char *argv[])
{
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg(argv[i]);
        if (arg == "--help" || arg == "-h" || arg == "--help-all" || arg == "--version"
            || arg == "-v")
            return true;
    }
    return false;
}

} // namespace

int main(int argc, char *argv[])
{
    // A tool or MCP server that exits without reading its stdin must not kill us with SIGPIPE.
    std::signal(SIGPIPE, SIG_IGN);
    if (onlyWantsInformation(argc, argv)) {
        QCoreApplication app(argc, argv);
        Callscope::AppContext::setApplicationNames();
        Callscope::installTranslators(&app);
        QCommandLineParser parser;
        describeOptions(parser);
        parser.process(app); // prints and exits
        return 0;
    }

    QApplication app(argc, argv);
    Callscope::AppContext::setApplicationNames();
    QApplication::setApplicationDisplayName(u"Callscope"_s);
    QGuiApplication::setDesktopFileName(u"io.callscope.Callscope"_s);
    Callscope::installTranslators(&app);
    QCommandLineParser parser;
    describeOptions(parser);
    parser.process(app);

    // Calls as OpenTelemetry spans (docs/telemetry.md): the settings' telemetry/* keys, then
    // the OTEL_* variables. The exporter has its own thread; the window never waits for it.
    std::unique_ptr<Callscope::Telemetry::OtlpExporter> telemetry;
    const auto telemetryConfig = Callscope::Telemetry::OtlpConfig::fromSettings(
        QSettings(), QProcessEnvironment::systemEnvironment());
    if (telemetryConfig.enabled && telemetryConfig.problem.isEmpty()) {
        telemetry = std::make_unique<Callscope::Telemetry::OtlpExporter>(telemetryConfig);
        Callscope::AppContext::setServiceObserver(
            [exporter = telemetry.get()](Callscope::AppContext *context,
                                         Callscope::CallService *service) {
                auto *calls = new Callscope::CallTelemetry(exporter, context->store(), service);
                calls->setWriter(service->writer());
                calls->watch(service);
            });
    } else if (telemetryConfig.enabled) {
        qWarning("%s", qPrintable(telemetryConfig.problem));
    }

    // The same services callscope-cli assembles, on the same history: a history that cannot be
    // opened is said in the window, and calls still run (they are not kept).
    // --db wins; else the history Settings > History chose (this computer's file when none).
    // A server's role that may only read opens for browsing: the window says so and keeps Run
    // off.
    const QString history = parser.isSet(u"db"_s)
        ? parser.value(u"db"_s)
        : Callscope::configuredHistoryLocation(QSettings());
    Callscope::AppContext context;
    context.openHistory(history, Callscope::AppContext::History::ReadWriteOrBrowse);
    // Header values of the export are in the keychain; the exporter holds its spans until
    // they are read (asynchronously: the window does not wait).
    if (telemetry && telemetryConfig.headersPending) {
        const auto names = Callscope::TelemetrySettings::load(QSettings()).headerNames;
        Callscope::readTelemetryHeaders(
            context.credentials(), names, telemetry.get(),
            [exporter = telemetry.get()](const Callscope::HttpHeaderList &headers,
                                         const QStringList &problems) {
                for (const QString &problem : problems)
                    qWarning("OTLP export: %s", qPrintable(problem));
                exporter->setHeaders(headers);
            });
    }
    // A damaged history is never a dead end: the way back is offered before the window.
    Callscope::HistoryRescueDialog::offerAtStart(context, history);
    // From here on the GUI thread runs no SQL (the views read through the store reader, every
    // write goes through the store writer): a statement on it is logged with its text, and
    // with CALLSCOPE_GUI_SQL=fatal (tests) it aborts. CALLSCOPE_GUI_SQL=off turns it off.
    {
        const QByteArray mode = qgetenv("CALLSCOPE_GUI_SQL");
        Callscope::Database::setForbiddenThread(
            app.thread(),
            mode == "off"         ? Callscope::Database::ThreadCheck::Off
                : mode == "fatal" ? Callscope::Database::ThreadCheck::Fatal
                                  : Callscope::Database::ThreadCheck::Count);
    }
    Callscope::MainWindow::Options options;
    options.context = &context;
    Callscope::MainWindow window(options);
    Callscope::HistoryRescueDialog::watchForDamage(&window, &context);
    // One verified backup a day, made beside the history on a thread of its own.
    std::unique_ptr<QThread> backup;
    if (context.database() && !context.database()->isServer()
        && Callscope::HistoryRescue::dailyBackupDue(context.databasePath())) {
        backup.reset(QThread::create([path = context.databasePath()] {
            // A backup only reads (VACUUM INTO writes the copy, not the history).
            Callscope::Database::Options readOnly;
            readOnly.mustWrite = false;
            readOnly.readOnly = true;
            if (auto opened = Callscope::Database::open(path, readOnly))
                Callscope::HistoryRescue::backup(*opened.value(),
                                                 Callscope::HistoryRescue::BackupReason::Daily);
        }));
        backup->start();
    }
    const QStringList specs = parser.positionalArguments();
    if (!specs.isEmpty())
        window.openSpecFile(specs.constFirst());
    window.fitToScreen();
    window.show();
    const int code = QApplication::exec();
    if (telemetry) {
        // The experiment spans of this session, then at most 2 s for what is still queued.
        if (auto *watcher = context.calls()->findChild<Callscope::CallTelemetry *>())
            watcher->finishExperiments();
        telemetry->flush(2000);
        Callscope::AppContext::setServiceObserver({});
    }
    if (backup)
        backup->wait();
    Callscope::ToolProcess::finishRetired(5000); // MCP servers still stopping at exit
    return code;
}
