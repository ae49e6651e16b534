#pragma once

// The providers' prompt caches as the request bodies ask for them, and the rules each provider
// documents (how many breakpoints, the shortest prefix it caches, the TTLs it takes).

#include "core/model/cacherules.h"
#include "core/model/cachespec.h"

#include <QJsonObject>

namespace Callscope::PromptCache {

// Adds the cache_control marks of `cache` to an Anthropic Messages body: on the last tool
// ("tools"), on the system prompt ("system", which becomes a list of one text block), on the
// last block of a message (a number, "last", "last_but_one"), and at the top level ("auto").
// Marks past MaxAnthropicBreakpoints and places the body does not have are left out.
void applyAnthropic(QJsonObject &body, const CacheSpec &cache);

// prompt_cache_key and prompt_cache_retention, for Chat Completions and Responses bodies.
void applyOpenAI(QJsonObject &body, const CacheSpec &cache);

// The cache_control object for `ttl` ("" and "5m" give the default five minutes).
QJsonObject anthropicCacheControl(const QString &ttl);

} // namespace Callscope::PromptCache
