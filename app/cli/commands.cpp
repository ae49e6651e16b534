#include "app/cli/commands.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace Callscope::Cli {

// Each command file defines its entry point here; keep the list in the order of --help.
int runRun(const QStringList &arguments);
int runBatch(const QStringList &arguments);
int runEval(const QStringList &arguments);
int runConvert(const QStringList &arguments);
int runExperiment(const QStringList &arguments);
int runRevise(const QStringList &arguments);
int runLint(const QStringList &arguments);
int runEngines(const QStringList &arguments);
int runValidate(const QStringList &arguments);
int runShow(const QStringList &arguments);
int runCache(const QStringList &arguments);
int runHistory(const QStringList &arguments);
int runExport(const QStringList &arguments);
int runExportOtlp(const QStringList &arguments);
int runImport(const QStringList &arguments);
int runMcp(const QStringList &arguments);
int runTrust(const QStringList &arguments);

QList<Command> commands()
{
    return {
        { u"run"_s, u"run SPEC.json [--input TEXT | --input-file F] [--attach FILE]..."_s,
          QCoreApplication::translate("Cli", "Run a structured call unattended; result as JSON."),
          runRun },
        { u"batch"_s,
          u"batch SPEC.json --inputs FILE.jsonl [--jobs N] [--resume] [--out FILE.jsonl]"_s,
          QCoreApplication::translate(
              "Cli", "Run a spec on every line of a JSON Lines file, many calls at once."),
          runBatch },
        { u"eval"_s,
          u"eval EXPERIMENT.json [--jobs N] [--out FILE.jsonl] [--junit FILE.xml] [--resume ID] [--only CASE]..."_s,
          QCoreApplication::translate(
              "Cli", "Run an experiment: a dataset, variants, repeats and assertions."),
          runEval },
        { u"convert"_s,
          u"convert promptfooconfig.yaml [--out EXPERIMENT.json] [--skip-unsupported]"_s,
          QCoreApplication::translate(
              "Cli", "Write the Callscope experiment a promptfoo configuration makes."),
          runConvert },
        { u"experiment"_s, u"experiment labels EXPERIMENT_ID [--out FILE.jsonl] [--db PATH]"_s,
          QCoreApplication::translate(
              "Cli", "Print the labels people gave an experiment's runs, as JSON Lines."),
          runExperiment },
        { u"revise"_s, u"revise CALL_ID --correction TEXT [--engine PROFILE] [--db PATH]"_s,
          QCoreApplication::translate("Cli", "Revise a stored call with a correction."),
          runRevise },
        { u"lint"_s, u"lint SPEC.json [--engine TYPE]"_s,
          QCoreApplication::translate("Cli", "Lint a spec for an engine type; findings as JSON."),
          runLint },
        { u"engines"_s, u"engines list|add|remove|test [NAME] [OPTIONS]"_s,
          QCoreApplication::translate("Cli", "Manage engine profiles; keys go to the OS keychain."),
          runEngines },
        { u"validate"_s,
          u"validate SCHEMA.json INSTANCE.json [--format-assertion] [--dialect NAME]"_s,
          QCoreApplication::translate("Cli",
                                      "Validate a JSON document against a JSON Schema 2020-12."),
          runValidate },
        { u"show"_s, u"show CALL_ID [--db PATH]"_s,
          QCoreApplication::translate("Cli", "Print a stored call, every field, as JSON."),
          runShow },
        { u"cache"_s, u"cache CALL_ID [--db PATH]"_s,
          QCoreApplication::translate(
              "Cli", "Show where a call's prompt cache hit, missed and why, as JSON."),
          runCache },
        { u"history"_s,
          u"history [--kind K] [--status S] [--search TEXT] [--limit N] [--db PATH]"_s,
          QCoreApplication::translate("Cli", "List stored calls, newest first, as a JSON array."),
          runHistory },
        { u"history"_s, u"history check|backup|backups|restore|recover|new [--db PATH]"_s,
          QCoreApplication::translate(
              "Cli", "Check the history, back it up, or bring a damaged one back."),
          runHistory },
        { u"export"_s, u"export CALL_ID | --session ID [--out FILE] [--db PATH]"_s,
          QCoreApplication::translate("Cli",
                                      "Export a call with its revisions, or a session, to JSON."),
          runExport },
        { u"export-otlp"_s,
          u"export --otlp [ENDPOINT] [--since DATE] [--kind K] [--experiment ID]"_s,
          QCoreApplication::translate("Cli",
                                      "Send stored calls to an OpenTelemetry collector as spans."),
          runExportOtlp },
        { u"import"_s, u"import FILE [--db PATH]"_s,
          QCoreApplication::translate("Cli", "Import an export document; prints the new ids."),
          runImport },
        { u"mcp"_s, u"mcp tools|call (SPEC.json SERVER | --url URL) [TOOL --args JSON]"_s,
          QCoreApplication::translate("Cli",
                                      "List or call the tools of an MCP server, local or remote."),
          runMcp },
        { u"trust"_s, u"trust list | trust add FILE | trust revoke (PATH | --all)"_s,
          QCoreApplication::translate(
              "Cli", "List, add or forget the files trusted to run programs (docs/trust.md)."),
          runTrust },
    };
}

} // namespace Callscope::Cli
