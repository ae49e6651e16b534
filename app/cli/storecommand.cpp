#include "app/cli/storecommand.h"

#include "app/cli/cliutil.h"
#include "core/store/database.h"
#include "core/store/historyqueue.h"
#include "core/store/historyrescue.h"
#include "core/store/recoveryfile.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace Callscope::Cli {

namespace {

const QString kHistoryOption = u"db"_s;

} // namespace

void addHistoryOption(QCommandLineParser &parser)
{
    parser.addOption(
        { kHistoryOption,
          QCoreApplication::translate("Cli", "The history database (without it, the default one)."),
          u"PATH"_s });
}

QString historyPath(const QCommandLineParser &parser)
{
    const QString path = parser.value(kHistoryOption);
    return path.isEmpty() ? defaultDatabasePath() : path;
}

QString historyArgument(const QCommandLineParser &parser)
{
    if (!parser.isSet(kHistoryOption))
        return {};
    return u" --db "_s + QFileInfo(parser.value(kHistoryOption)).absoluteFilePath();
}

bool openHistory(AppContext &context, const QCommandLineParser &parser, AppContext::History mode)
{
    if (context.openHistory(parser.value(kHistoryOption), mode)) {
        if (context.recoveredCalls() > 0)
            std::fprintf(stderr, "%s\n",
                         qPrintable(QCoreApplication::translate(
                                        "Cli",
                                        "%n call(s) that an earlier run could not store "
                                        "were stored from %1",
                                        nullptr, context.recoveredCalls())
                                        .arg(RecoveryFile::pathFor(context.databasePath()))));
        if (!context.queuePath().isEmpty())
            std::fprintf(
                stderr, "%s\n",
                qPrintable(QCoreApplication::translate(
                               "Cli",
                               "%1; calls are kept in the local queue %2 and sent to the shared "
                               "history when it can be reached again")
                               .arg(context.queueReason(), context.queuePath())));
        const TransferOutcome &sent = context.queueSent();
        if (sent.sent > 0)
            std::fprintf(stderr, "%s\n",
                         qPrintable(QCoreApplication::translate(
                                        "Cli",
                                        "%n call(s) from the local queue were sent to the shared "
                                        "history at %1",
                                        nullptr, sent.sent)
                                        .arg(HistoryQueue::serverName(context.databasePath()))));
        for (const QString &error : sent.errors)
            printError(QCoreApplication::translate(
                           "Cli", "the local queue was not sent in full (it keeps the rest): %1")
                           .arg(error));
        return true;
    }
    printError(context.databaseError());
    return false;
}

void printQueueAdvice()
{
    for (const QString &server : HistoryQueue::serversNoted()) {
        const HistoryQueue::Waiting waiting = HistoryQueue::waitingFor(server);
        if (waiting.calls > 0 || waiting.runs > 0)
            std::fprintf(stderr, "%s\n",
                         qPrintable(HistoryQueue::waitingMessage(server, waiting.calls) + u" ("_s
                                    + HistoryQueue::pathFor(server) + u')'));
    }
}

void printDamageAdvice()
{
    for (const QString &path : DatabaseMonitor::instance()->damagedPaths()) {
        QString newest = QCoreApplication::translate("Cli", "there is no backup yet");
        for (const HistoryRescue::BackupInfo &backup : HistoryRescue::listBackups(path)) {
            if (backup.readable()) {
                newest = QCoreApplication::translate("Cli", "newest good backup: %1, %2 calls")
                             .arg(backup.createdUtc.toString(u"yyyy-MM-dd HH:mm 'UTC'"_s))
                             .arg(backup.calls);
                break;
            }
        }
        printError(QCoreApplication::translate(
                       "Cli",
                       "the history %1 is damaged. Ways back (each keeps the damaged file "
                       "beside it, renamed):\n"
                       "  callscope-cli history restore --db %1   put back the backup (%2)\n"
                       "  callscope-cli history recover --db %1   copy what can still be read "
                       "into a new history\n"
                       "  callscope-cli history new --db %1       start an empty history")
                       .arg(path, newest));
    }
}

std::optional<qint64> parseId(const QString &text, const QString &what)
{
    bool ok = false;
    const qint64 id = text.toLongLong(&ok);
    if (!ok || id < 1) {
        printError(QCoreApplication::translate("Cli", "%1 must be a positive number, not '%2'")
                       .arg(what, text));
        return std::nullopt;
    }
    return id;
}

int exitCodeFor(const StoreError &error)
{
    return error.code == StoreError::Code::NotFound ? ExitUsage : ExitFailed;
}

} // namespace Callscope::Cli
