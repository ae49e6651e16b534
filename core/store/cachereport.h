#pragma once

// The cache view of a stored call: each request's prefix as blocks (tools, system prompt, each
// message) with a token estimate and a hash, where the cache breakpoints sit, and per turn
// whether the provider read its cache, wrote it, or missed. For a turn that read nothing it
// finds why, by comparing the request with the one a cache could have held: the previous turn
// of the same call, or the last request of the newest similar call before it
// (CallStore::previousSimilarCall): the first block that differs and where in it, a prefix
// below the model's minimum, or an entry that expired.

#include "core/model/callrecord.h"
#include "core/store/storeerror.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace Callscope {

class CallStore;

struct CachePrefixBlock
{
    QString kind; // "tools", "system" or "message"
    int message = 0; // kind message: 1-based number in the request
    QString role; // kind message: the provider's role name
    QString text; // what is compared: the system prompt's text, else compact JSON
    qint64 tokens = 0; // estimate
    QString hash; // first 12 hex digits of the SHA-256 of `text`
    bool breakpoint = false; // a cache_control mark ends this block (Anthropic)

    QString label() const; // "tools", "system prompt", "message 3 (user)"
};

// One turn of the call. `status` is "hit" (read from the cache), "written", "hit+written",
// "miss", or "none" (the engine has no prompt cache).
struct CacheTurnReport
{
    int turn = 0;
    Usage usage;
    QString status;
    QList<CachePrefixBlock> blocks;
    bool automaticBreakpoint = false;
    QString reason; // for a turn that read nothing: why, in plain words
    QString
        reasonKind; // "first", "differs", "below_minimum", "expired", "no_breakpoint", "unknown"
    std::optional<qint64> comparedCall; // the call its request was compared with
    int comparedTurn = -1;
    int differentBlock = -1; // index into blocks
    qsizetype differentAt = -1; // character of that block's text
};

struct CacheReport
{
    qint64 callId = 0;
    QString engineType;
    QString model;
    qint64 minimumTokens = 0;
    QList<CacheTurnReport> turns;
    bool fromExchanges = true; // false: the call has no stored requests (older or imported)

    QJsonObject toJson() const;
};

// The blocks of one request body as the engine type sends it.
QList<CachePrefixBlock> cachePrefixBlocks(const QString &engineType, const QJsonObject &body,
                                          bool *automaticBreakpoint = nullptr);

StoreResult<CacheReport> buildCacheReport(CallStore &store, qint64 callId);

} // namespace Callscope
