#pragma once

// The database layout as a list of migration steps (internal to core/store).
//
// Version 1 is the first shipped layout; every later version is one step that runs in one
// transaction together with `PRAGMA user_version = N`. Never edit a shipped step: add one.

#include "core/store/storeerror.h"

#include <QLatin1StringView>
#include <QList>

class QSqlDatabase;

namespace Callscope {

class Database;

namespace Schema {

struct MigrationStep
{
    int version = 0;
    QList<QLatin1StringView> statements;
    // Work SQL alone cannot do (backfilling the search index); runs after the statements,
    // inside the same transaction. May be null.
    StoreError (*extra)(Database &database, bool forceSearchFallback) = nullptr;
    // The step drops and remakes a table that others refer to: on SQLite its transaction runs
    // with foreign keys off (they would cascade the drop into the children) and is checked
    // with PRAGMA foreign_key_check before it commits.
    bool rebuildsTables = false;
};

const QList<MigrationStep> &migrations();
int latestVersion();

// Adds every call of the database to its (empty) search index; used after a recovery.
StoreError indexAllCalls(Database &database);

// Names the search index tables; the store checks which one exists.
inline constexpr QLatin1StringView kFtsTable("calls_fts");
inline constexpr QLatin1StringView kLikeTable("calls_search");

} // namespace Schema
} // namespace Callscope
