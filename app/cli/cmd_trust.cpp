// callscope-cli trust list | add FILE | revoke (PATH | --all)
//
// The files trusted to run things on this computer (docs/trust.md): list them, trust one for
// good (its content as it is now, in its folder), or forget them. The studio's question trusts
// the same way; --trust trusts for one run only.

#include "app/cli/cliutil.h"
#include "core/eval/experiment.h"
#include "core/model/specio.h"
#include "core/secrets/truststore.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace Callscope::Cli {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Cli)
};

QString trustHelp()
{
    return Tr::tr(
        "Usage: callscope-cli trust list\n"
        "       callscope-cli trust add FILE\n"
        "       callscope-cli trust revoke (PATH | --all)\n\n"
        "Lists the files trusted to run programs or read key variables on this computer,\n"
        "trusts a spec or experiment file as it is now (an edit, or the same content in\n"
        "another folder, is not trusted), or forgets them: PATH is a trusted file or a\n"
        "folder (every file trusted in it). add prints what the file will run.\n"
        "Exit codes: 0 done, 1 the list could not be written, 2 bad arguments, a file that\n"
        "does not load, or nothing trusted under PATH.\n");
}

// Trusts the spec or experiment at `path` (an experiment has a "dataset"). Prints what it runs.
int trustFile(TrustStore &store, const QString &path)
{
    QString readError;
    const auto bytes = readFile(path, &readError);
    if (!bytes) {
        printError(readError);
        return ExitUsage;
    }
    const bool experiment = QJsonDocument::fromJson(*bytes).object().contains(u"dataset"_s);
    QList<RunItem> items;
    TrustEntry entry;
    QStringList errors;
    if (experiment) {
        const ExperimentLoad loaded = loadExperimentFile(path);
        for (const ExperimentError &e : loaded.errors)
            errors.append(e.toString());
        if (loaded.experiment) {
            items = experimentRunItems(*loaded.experiment);
            entry = experimentTrustEntry(*loaded.experiment);
        }
    } else {
        const SpecLoadResult loaded = loadSpecFile(path);
        for (const SpecError &e : loaded.errors)
            errors.append(e.toString());
        if (loaded.spec) {
            items = specRunItems(*loaded.spec);
            entry = trustEntryFor(*loaded.spec);
        }
    }
    if (!errors.isEmpty() || entry.digest.isEmpty()) {
        printError(Tr::tr("%1 does not load, so it cannot be trusted:\n  %2")
                       .arg(path, errors.join(u"\n  "_s)));
        return ExitUsage;
    }
    entry.trustedAt = QDateTime::currentDateTimeUtc();
    QString error;
    if (!store.trust(entry, &error)) {
        printError(error);
        return ExitFailed;
    }
    QJsonArray runs;
    for (const RunItem &item : std::as_const(items))
        runs.append(item.describe());
    printJson(QJsonObject { { u"trusted"_s, entry.file },
                            { u"folder"_s, entry.folder },
                            { u"sha256"_s, QString::fromLatin1(entry.digest) },
                            { u"runs"_s, runs } });
    return ExitOk;
}

} // namespace

int runTrust(const QStringList &arguments)
{
    const QString verb = arguments.value(0);
    if (verb.isEmpty() || verb == u"--help" || verb == u"-h") {
        std::fputs(trustHelp().toLocal8Bit().constData(), stdout);
        return verb.isEmpty() ? ExitUsage : ExitOk;
    }
    QCommandLineParser parser;
    parser.addOption({ u"all"_s, Tr::tr("revoke: forget every trusted file.") });
    if (const auto exit = parseArguments(parser, u"trust "_s + verb, arguments.mid(1), trustHelp()))
        return *exit;
    const QStringList positional = parser.positionalArguments();
    const bool all = parser.isSet(u"all"_s);
    TrustStore store;
    if (verb == u"list" && positional.isEmpty() && !all) {
        QJsonArray list;
        for (const TrustEntry &entry : store.entries()) {
            list.append(
                QJsonObject { { u"file"_s, entry.file },
                              { u"folder"_s, entry.folder },
                              { u"sha256"_s, QString::fromLatin1(entry.digest) },
                              { u"trusted_at"_s, entry.trustedAt.toUTC().toString(Qt::ISODate) } });
        }
        printJson(QJsonObject { { u"store"_s, QDir::toNativeSeparators(store.path()) },
                                { u"trusted"_s, list } });
        return ExitOk;
    }
    if (verb == u"add" && positional.size() == 1 && !all)
        return trustFile(store, positional.first());
    if (verb == u"revoke" && (positional.size() == 1) != all) {
        const QString target = all ? QString() : QFileInfo(positional.first()).absoluteFilePath();
        QString error;
        const int removed = store.revoke(target, &error);
        if (!error.isEmpty()) {
            printError(error);
            return ExitFailed;
        }
        printJson(QJsonObject { { u"revoked"_s, removed } });
        if (removed == 0 && !target.isEmpty()) {
            printError(Tr::tr("nothing is trusted under %1").arg(QDir::toNativeSeparators(target)));
            return ExitUsage;
        }
        return ExitOk;
    }
    printError(Tr::tr("usage: trust list | trust add FILE | trust revoke (PATH | --all)"));
    return ExitUsage;
}

} // namespace Callscope::Cli
