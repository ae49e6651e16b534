#pragma once

// What the commands that use the history (show, history, export, import, run, batch, revise,
// eval) share: the --db option and opening the history database in the program's AppContext
// with an error message the user can act on.

#include "core/service/appcontext.h"
#include "core/store/callstore.h"
#include "core/store/storeerror.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace Callscope::Cli {

// Takes "--db PATH" (or "--db=PATH") out of `arguments`. Returns false (after printing the
// error) when --db has no value.
bool takeDbOption(QStringList &arguments, QString *path);

// Takes "--name VALUE" / "--name=VALUE" out of `arguments`; nullopt when absent, an error
// (printed) sets *failed.
std::optional<QString> takeOption(QStringList &arguments, const QString &name, bool *failed);

// Opens the history at `path` (the default one when empty) in `context`; false after printing
// why not. AppContext::History::ReadOnly accepts a read-only file (the command only reads).
bool openHistory(AppContext &context, const QString &path,
                 AppContext::History mode = AppContext::History::ReadWrite);

// After a command: for every history SQLite called damaged in this process, says so on
// stderr with the three ways back (restore, recover, new), naming the newest good backup.
void printDamageAdvice();

// Parses a positive id ("42"); nullopt after printing an error naming `what`.
std::optional<qint64> parseId(const QString &text, const QString &what);

// The exit code for a store error: 2 when the user named something that does not exist,
// 1 otherwise.
int exitCodeFor(const StoreError &error);

} // namespace Callscope::Cli
