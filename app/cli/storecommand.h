#pragma once

// What the store commands (show, history, export, import) share: the --db option and
// opening the history database with an error message the user can act on.

#include "core/store/callstore.h"
#include "core/store/database.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace Callscope::Cli {

// Takes "--db PATH" (or "--db=PATH") out of `arguments`. Returns false (after printing the
// error) when --db has no value.
bool takeDbOption(QStringList &arguments, QString *path);

// Takes "--name VALUE" / "--name=VALUE" out of `arguments`; nullopt when absent, an error
// (printed) sets *failed.
std::optional<QString> takeOption(QStringList &arguments, const QString &name, bool *failed);

// The database at `path` (the default one when empty), or nullopt after printing why not.
// `writes` false: a read-only file is accepted (the command only reads).
std::unique_ptr<Database> openDatabase(const QString &path, bool writes = true);

// Parses a positive id ("42"); nullopt after printing an error naming `what`.
std::optional<qint64> parseId(const QString &text, const QString &what);

// The exit code for a store error: 2 when the user named something that does not exist,
// 1 otherwise.
int exitCodeFor(const StoreError &error);

} // namespace Callscope::Cli
