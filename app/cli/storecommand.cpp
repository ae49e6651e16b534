#include "app/cli/storecommand.h"

#include "app/cli/cliutil.h"
#include "core/store/database.h"
#include "core/store/historyrescue.h"
#include "core/store/recoveryfile.h"

#include <QCoreApplication>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace Callscope::Cli {

std::optional<QString> takeOption(QStringList &arguments, const QString &name, bool *failed)
{
    const QString prefix = name + u'=';
    for (qsizetype i = 0; i < arguments.size(); ++i) {
        const QString &argument = arguments.at(i);
        if (argument == name) {
            if (i + 1 >= arguments.size()) {
                printError(QCoreApplication::translate("Cli", "%1 needs a value").arg(name));
                *failed = true;
                return std::nullopt;
            }
            const QString value = arguments.at(i + 1);
            arguments.remove(i, 2);
            return value;
        }
        if (argument.startsWith(prefix)) {
            const QString value = argument.mid(prefix.size());
            arguments.removeAt(i);
            return value;
        }
    }
    return std::nullopt;
}

bool takeDbOption(QStringList &arguments, QString *path)
{
    bool failed = false;
    const auto value = takeOption(arguments, u"--db"_s, &failed);
    if (failed)
        return false;
    *path = value.value_or(QString());
    return true;
}

bool openHistory(AppContext &context, const QString &path, AppContext::History mode)
{
    if (context.openHistory(path, mode)) {
        if (context.recoveredCalls() > 0)
            std::fprintf(stderr, "%s\n",
                         qPrintable(QCoreApplication::translate(
                                        "Cli",
                                        "%n call(s) that an earlier run could not store "
                                        "were stored from %1",
                                        nullptr, context.recoveredCalls())
                                        .arg(RecoveryFile::pathFor(context.databasePath()))));
        return true;
    }
    printError(context.databaseError());
    return false;
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
