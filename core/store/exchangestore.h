#pragma once

// The raw HTTP exchanges of stored calls (table call_exchanges, schema version 6): written in
// the call's own transaction, read only when a view asks for them, so loading a call for
// the history never touches their bodies. Calls stored before version 6 have none.

#include "core/model/callrecord.h"
#include "core/store/storeerror.h"

#include <QList>

namespace Callscope {

class Database;

namespace ExchangeStore {

// Replaces the exchanges of `callId` with `exchanges` (in the caller's transaction). Bodies
// longer than TurnExchange's bounds are cut here too, whoever built the record.
StoreError replace(Database &database, qint64 callId, const QList<TurnExchange> &exchanges);
// The exchanges of `callId` in the order they were made (empty for an older call).
StoreResult<QList<TurnExchange>> read(Database &database, qint64 callId);

} // namespace ExchangeStore

} // namespace Callscope
