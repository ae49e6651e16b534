#pragma once

// The table of callscope-cli commands. Each command lives in its own cmd_*.cpp file and
// is only a front end: it parses options, calls core, prints JSON.

#include <QList>
#include <QString>
#include <QStringList>

namespace Callscope::Cli {

struct Command
{
    QString name;
    QString usage; // one line: "lint SPEC.json"
    QString summary; // one sentence
    int (*run)(const QStringList &arguments); // arguments after the command name
};

QList<Command> commands();

} // namespace Callscope::Cli
