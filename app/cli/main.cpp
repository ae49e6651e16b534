#include "app/cli/clitelemetry.h"
#include "app/cli/cliutil.h"
#include "app/cli/commands.h"
#include "app/cli/storecommand.h"
#include "core/service/appcontext.h"
#include "core/tools/toolprocess.h"

#include <QCoreApplication>
#include <QLoggingCategory>

#include <csignal>
#include <cstdio>

#include "translations/translationloader.h"

using namespace Qt::StringLiterals;
using namespace Callscope::Cli;

namespace {

void printHelp()
{
    QString text = QCoreApplication::translate(
        "Cli",
        "Usage: callscope-cli COMMAND [OPTIONS]\n\n"
        "Runs, inspects and stores LLM structured calls without the GUI.\n"
        "Data goes to stdout as JSON; messages go to stderr.\n\nCommands:\n");
    for (const Command &command : commands())
        text += u"  "_s + command.usage.leftJustified(58) + u' ' + command.summary + u'\n';
    text += QCoreApplication::translate("Cli",
                                        "\nOptions:\n  --help       Show this help.\n"
                                        "  --version    Show the version.\n");
    std::fputs(text.toLocal8Bit().constData(), stdout);
}

} // namespace

int main(int argc, char *argv[])
{
    // A tool or MCP server that exits without reading its stdin must not kill us with SIGPIPE.
    std::signal(SIGPIPE, SIG_IGN);
    QCoreApplication app(argc, argv);
    Callscope::AppContext::setApplicationNames(); // the studio's settings and history
    // stdout carries JSON and stderr carries messages for people: keep debug chatter out unless
    // asked for (QT_LOGGING_RULES="callscope.*.debug=true" still turns it on).
    QLoggingCategory::setFilterRules(u"callscope.*.debug=false\ncallscope.*.info=false"_s);
    Callscope::installTranslators(&app);

    QStringList arguments = QCoreApplication::arguments().mid(1);
    if (arguments.isEmpty()) {
        printHelp();
        return ExitUsage;
    }
    QString first = arguments.takeFirst();
    // "export --otlp [--since DATE] [--kind K] [--experiment ID]" is export-otlp by another name.
    if (first == u"export" && takeOtlpExportFlag(arguments))
        first = u"export-otlp"_s;
    if (first == u"--help" || first == u"-h" || first == u"help") {
        printHelp();
        return ExitOk;
    }
    if (first == u"--version" || first == u"-v") {
        std::printf("callscope-cli %s\n", CALLSCOPE_VERSION);
        return ExitOk;
    }
    for (const Command &command : commands()) {
        if (command.name == first) {
            if (!startTelemetry(arguments))
                return ExitUsage;
            const int code = command.run(arguments);
            finishTelemetry();
            printDamageAdvice();
            printQueueAdvice();
            // MCP servers still stopping get their grace period, then are reaped.
            Callscope::ToolProcess::finishRetired(5000);
            return code;
        }
    }
    printError(QCoreApplication::translate("Cli", "unknown command '%1' (see --help)").arg(first));
    return ExitUsage;
}
