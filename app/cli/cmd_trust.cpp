// callscope-cli trust list | revoke (PATH | --all)
//
// The files trusted to run things on this computer (docs/trust.md): list them, or forget them.
// Trusting is done by the studio's question, or for one run by --trust.

#include "app/cli/cliutil.h"
#include "core/secrets/truststore.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace Callscope::Cli {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Cli", text);
}

void printTrustHelp()
{
    std::fputs(qPrintable(tr("Usage: callscope-cli trust list\n"
                             "       callscope-cli trust revoke (PATH | --all)\n\n"
                             "Lists the files trusted to run programs or read key variables on this computer,\n"
                             "or forgets them: PATH is a trusted file or a folder (every file trusted in it).\n"
                             "Exit codes: 0 done, 1 the list could not be written, 2 bad arguments or nothing\n"
                             "trusted under PATH.\n")),
               stdout);
}

} // namespace

int runTrust(const QStringList &arguments)
{
    const QString verb = arguments.value(0);
    if (verb.isEmpty() || verb == u"--help" || verb == u"-h") {
        printTrustHelp();
        return verb.isEmpty() ? ExitUsage : ExitOk;
    }
    TrustStore store;
    if (verb == u"list" && arguments.size() == 1) {
        QJsonArray list;
        for (const TrustEntry &entry : store.entries()) {
            list.append(QJsonObject{{u"file"_s, entry.file},
                                    {u"folder"_s, entry.folder},
                                    {u"sha256"_s, QString::fromLatin1(entry.digest)},
                                    {u"trusted_at"_s, entry.trustedAt.toUTC().toString(Qt::ISODate)}});
        }
        printJson(QJsonObject{{u"store"_s, QDir::toNativeSeparators(store.path())}, {u"trusted"_s, list}});
        return ExitOk;
    }
    if (verb == u"revoke" && arguments.size() == 2) {
        const QString target = arguments.at(1) == u"--all" ? QString() : QFileInfo(arguments.at(1)).absoluteFilePath();
        QString error;
        const int removed = store.revoke(target, &error);
        if (!error.isEmpty()) {
            printError(error);
            return ExitFailed;
        }
        printJson(QJsonObject{{u"revoked"_s, removed}});
        if (removed == 0 && !target.isEmpty()) {
            printError(tr("nothing is trusted under %1").arg(QDir::toNativeSeparators(target)));
            return ExitUsage;
        }
        return ExitOk;
    }
    printError(tr("usage: trust list | trust revoke (PATH | --all)"));
    return ExitUsage;
}

} // namespace Callscope::Cli
