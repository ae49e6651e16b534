#pragma once

// What the commands that use the history (show, cache, history, export, import, run, batch,
// revise, eval) share: the --db option, read in this one place, and opening the history in
// the program's AppContext with an error message the user can act on.

#include "core/service/appcontext.h"
#include "core/store/callstore.h"
#include "core/store/storeerror.h"

#include <QString>
#include <QStringList>

#include <optional>

class QCommandLineParser;

namespace Callscope::Cli {

// Adds --db PATH: the history database (without it, the default one).
void addHistoryOption(QCommandLineParser &parser);

// The history file --db names, or the default one (defaultDatabasePath()) without --db.
QString historyPath(const QCommandLineParser &parser);

// " --db ABSOLUTE_PATH" when --db was given, else empty: for the command lines a command
// prints for the user to run next.
QString historyArgument(const QCommandLineParser &parser);

// Opens the history --db names in `context`; false after printing why not.
// AppContext::History::ReadOnly accepts a read-only file (the command only reads).
bool openHistory(AppContext &context, const QCommandLineParser &parser,
                 AppContext::History mode = AppContext::History::ReadWrite);

// After a command: for every history SQLite called damaged in this process, says so on
// stderr with the three ways back (restore, recover, new), naming the newest good backup.
void printDamageAdvice();

// After a command: for every history server it used whose local queue still holds calls, says
// how many wait to be sent (core/store/historyqueue.h).
void printQueueAdvice();

// Parses a positive id ("42"); nullopt after printing an error naming `what`.
std::optional<qint64> parseId(const QString &text, const QString &what);

// The exit code for a store error: 2 when the user named something that does not exist,
// 1 otherwise.
int exitCodeFor(const StoreError &error);

} // namespace Callscope::Cli
