// callscope-cli convert promptfooconfig.yaml [--out EXPERIMENT.json] [--skip-unsupported]
//
// Writes the Callscope experiment a promptfoo configuration makes (what `eval` on the YAML file
// would run), indented, to --out or stdout. The experiment is self-contained: prompts, tests and
// schemas from the files the configuration names are written into it. Parts that cannot be
// taken are listed on stderr as "file:line /key/path: reason"; without --skip-unsupported nothing
// is written then. Exit 0 written, 2 unreadable, invalid or with unsupported parts.

#include "app/cli/cliutil.h"
#include "core/eval/experiment.h"
#include "core/eval/promptfooimport.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <QSaveFile>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace Callscope::Cli {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Cli)
};

void printPlaces(const QList<ExperimentError> &places)
{
    for (const ExperimentError &e : places)
        std::fprintf(stderr, "  %s\n", qPrintable(e.toString()));
}

} // namespace

int runConvert(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(u"config"_s, Tr::tr("The promptfoo configuration."));
    parser.addOption(
        { u"out"_s, Tr::tr("Write the experiment here instead of stdout."), u"FILE"_s });
    parser.addOption({ u"skip-unsupported"_s,
                       Tr::tr("Write the experiment without the parts Callscope cannot take.") });
    if (const auto exit = parseArguments(
            parser, u"convert"_s, arguments,
            Tr::tr("Usage: callscope-cli convert promptfooconfig.yaml [--out EXPERIMENT.json]\n"
                   "                             [--skip-unsupported]\n\n"
                   "Reads a promptfoo configuration (prompts, providers, tests, defaultTest and\n"
                   "their assertions) and writes the Callscope experiment it makes: the one\n"
                   "callscope-cli eval runs for the same file. Prompt, test and schema files it\n"
                   "names are read and written into the experiment. Nothing is sent.\n"
                   "What cannot be taken (Python assertions, embeddings, red-team plugins,\n"
                   "providers without a Callscope engine, prompts written as programs) is listed\n"
                   "on stderr as \"file:line /key/path: reason\", and nothing is written unless\n"
                   "--skip-unsupported is given.\n\n"
                   "Options:\n"
                   "  --out FILE           write the experiment here (default: stdout)\n"
                   "  --skip-unsupported   leave the listed parts out and write the rest\n\n"
                   "Exit codes: 0 written, 2 an unreadable or invalid configuration, or parts\n"
                   "that are not supported (without --skip-unsupported).\n")))
        return *exit;
    if (parser.positionalArguments().size() != 1) {
        printError(
            Tr::tr("convert needs exactly one promptfoo configuration (see convert --help)"));
        return ExitUsage;
    }
    const QString path = QFileInfo(parser.positionalArguments().first()).absoluteFilePath();
    if (!isPromptfooConfig(path)) {
        printError(Tr::tr("%1: a promptfoo configuration is a .yaml or .yml file").arg(path));
        return ExitUsage;
    }
    const PromptfooConversion converted = convertPromptfooConfig(path);
    if (!converted.errors.isEmpty() || !converted.experiment) {
        printError(Tr::tr("%1 cannot be read as a promptfoo configuration:").arg(path));
        printPlaces(converted.errors);
        return ExitUsage;
    }
    const bool skip = parser.isSet(u"skip-unsupported"_s);
    if (!converted.unsupported.isEmpty()) {
        printError(skip ? Tr::tr("left out of %1 (not supported):").arg(path)
                        : Tr::tr("%1 has parts Callscope cannot take:").arg(path));
        printPlaces(converted.unsupported);
        if (!skip) {
            printError(Tr::tr("nothing was written; --skip-unsupported writes the rest"));
            return ExitUsage;
        }
    }
    // What is written must load as it will when it runs.
    const ExperimentLoad load =
        loadExperiment(*converted.experiment, QFileInfo(path).absolutePath(), nullptr, path);
    if (!load.experiment) {
        printError(Tr::tr("the experiment made from %1 does not load:").arg(path));
        printPlaces(load.errors);
        return ExitUsage;
    }
    const QByteArray json = QJsonDocument(*converted.experiment).toJson(QJsonDocument::Indented);
    if (!parser.isSet(u"out"_s)) {
        std::fwrite(json.constData(), 1, size_t(json.size()), stdout);
        std::fflush(stdout);
        return ExitOk;
    }
    QSaveFile out(parser.value(u"out"_s));
    if (!out.open(QIODevice::WriteOnly) || out.write(json) != json.size() || !out.commit()) {
        printError(Tr::tr("cannot write %1: %2").arg(parser.value(u"out"_s), out.errorString()));
        return ExitFailed;
    }
    return ExitOk;
}

} // namespace Callscope::Cli
