#include "app/cli/commands.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace Callscope::Cli {

// Each command file defines its entry point here; keep the list in the order of --help.
int runLint(const QStringList &arguments);
int runEngines(const QStringList &arguments);
int runValidate(const QStringList &arguments);

QList<Command> commands()
{
    return {
        {u"lint"_s, u"lint SPEC.json [--engine TYPE]"_s,
         QCoreApplication::translate("Cli", "Lint a spec for an engine type; findings as JSON."), runLint},
        {u"engines"_s, u"engines list|add|remove|test [NAME] [OPTIONS]"_s,
         QCoreApplication::translate("Cli", "Manage engine profiles; keys go to the OS keychain."), runEngines},
        {u"validate"_s, u"validate SCHEMA.json INSTANCE.json [--format-assertion]"_s,
         QCoreApplication::translate("Cli", "Validate a JSON document against a JSON Schema 2020-12."), runValidate},
    };
}

} // namespace Callscope::Cli
