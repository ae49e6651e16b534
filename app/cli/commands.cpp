#include "app/cli/commands.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace Callscope::Cli {

// Each command file defines its entry point here; keep the list in the order of --help.

QList<Command> commands()
{
    return {};
}

} // namespace Callscope::Cli
