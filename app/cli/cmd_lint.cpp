// callscope-cli lint SPEC.json [--engine TYPE]
//
// Prints {"spec", "engine", "findings": [{"severity", "pointer", "message", "rule"}],
// "summary": {"warning", "info"}} on stdout. Exit 0 even with findings (they are advice);
// exit 2 with every load error on stderr for an unreadable or invalid spec.

#include "app/cli/cliutil.h"
#include "core/schema/speccheck.h"
#include "core/secrets/profilestore.h"
#include "core/service/appcontext.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonObject>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace Callscope::Cli {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Cli)
};

QString lintHelp()
{
    return Tr::tr("Usage: callscope-cli lint SPEC.json [--engine TYPE]\n\n"
                  "Checks a spec before it spends tokens: tool names, descriptions, closed sets, "
                  "provider\n"
                  "limits and strict-mode schema rules. Prints the findings as JSON; they are "
                  "warnings,\n"
                  "so the exit code is 0 even when there are some.\n\n"
                  "Options:\n"
                  "  --engine TYPE   lint for this engine type instead of the spec's own\n"
                  "                  (%1)\n\n"
                  "Exit codes: 0 linted, 2 bad arguments or an unreadable or invalid spec.\n")
        .arg(engineTypeNames().join(u", "_s));
}

} // namespace

int runLint(const QStringList &arguments)
{
    // A --engine with nothing after it: say which values it takes.
    if (!arguments.isEmpty()
        && (arguments.constLast() == u"--engine" || arguments.constLast() == u"-engine")) {
        printError(
            Tr::tr("--engine needs an engine type (%1)").arg(engineTypeNames().join(u", "_s)));
        return ExitUsage;
    }
    QCommandLineParser parser;
    parser.addPositionalArgument(u"spec"_s, Tr::tr("The spec file."));
    parser.addOption({ u"engine"_s, Tr::tr("Lint for this engine type."), u"TYPE"_s });
    if (const auto exit = parseArguments(parser, u"lint"_s, arguments, lintHelp()))
        return *exit;
    std::optional<EngineType> engine;
    if (parser.isSet(u"engine"_s)) {
        const QString value = parser.value(u"engine"_s);
        engine = engineTypeFromName(value);
        if (!engine) {
            printError(Tr::tr("unknown engine type \"%1\" (expected one of %2)")
                           .arg(value, engineTypeNames().join(u", "_s)));
            return ExitUsage;
        }
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1) {
        printError(Tr::tr("lint takes one spec file, got %1 and %2")
                       .arg(positional.at(0), positional.at(1)));
        return ExitUsage;
    }
    if (positional.isEmpty()) {
        printError(Tr::tr("lint needs a spec file: callscope-cli lint SPEC.json [--engine TYPE]"));
        return ExitUsage;
    }
    const QString specPath = positional.first();

    QString readError;
    const auto bytes = readFile(specPath, &readError);
    if (!bytes) {
        printError(readError);
        return ExitUsage;
    }
    // Checked against this machine's engine profiles, as the studio's findings are: a spec
    // that names a profile and no type is linted for the profile's type, and one that names a
    // profile beside its own address or type is reported.
    AppContext context;
    const SpecCheck check =
        checkSpec(*bytes, specPath, engine, profileLookupFor(*context.profiles()));
    if (!check.ok()) {
        QString message = check.errors.size() == 1
            ? Tr::tr("%1 is not a valid spec (1 error):").arg(specPath)
            : Tr::tr("%1 is not a valid spec (%2 errors):").arg(specPath).arg(check.errors.size());
        for (const SpecError &error : check.errors)
            message += u"\n  "_s + (error.pointer.isEmpty() ? u"(document)"_s : error.pointer)
                + u": "_s + error.message;
        printError(message);
        return ExitUsage;
    }

    const EngineType target = check.target;
    const QList<LintFinding> &findings = check.findings;
    QJsonArray list;
    int warnings = 0;
    int infos = 0;
    // Schemas that are not valid JSON Schema come first: the spec cannot run with them.
    for (const SpecSchemaError &e : check.schemaErrors) {
        list.append(QJsonObject { { "severity"_L1, u"error"_s },
                                  { "pointer"_L1, e.pointer },
                                  { "keyword"_L1, e.keyword },
                                  { "message"_L1, e.message },
                                  { "rule"_L1, SpecSchemaError::rule() } });
    }
    for (const LintFinding &f : findings) {
        list.append(QJsonObject { { "severity"_L1, lintSeverityName(f.severity) },
                                  { "pointer"_L1, f.pointer },
                                  { "message"_L1, f.message },
                                  { "rule"_L1, f.rule } });
        (f.severity == LintSeverity::Warning ? warnings : infos) += 1;
    }
    printJson(QJsonObject { { "spec"_L1, specPath },
                            { "engine"_L1, engineTypeName(target) },
                            { "findings"_L1, list },
                            { "summary"_L1,
                              QJsonObject { { "error"_L1, int(check.schemaErrors.size()) },
                                            { "warning"_L1, warnings },
                                            { "info"_L1, infos } } } });
    if (!check.schemaErrors.isEmpty()) {
        QString message =
            Tr::tr("%1 cannot run, because of schemas that are not valid JSON Schema:")
                .arg(specPath);
        for (const SpecSchemaError &e : check.schemaErrors)
            message +=
                u"\n  "_s + Tr::tr("%1 (keyword \"%2\"): %3").arg(e.pointer, e.keyword, e.message);
        printError(message);
        return ExitUsage;
    }
    return ExitOk;
}

} // namespace Callscope::Cli
