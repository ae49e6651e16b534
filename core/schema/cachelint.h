#pragma once

// Lint of a spec's prompt cache settings and of what keeps its prefix cacheable, for one
// engine type. Rule ids:
//   cache-breakpoint-count   more Anthropic breakpoints than the four a request may mark
//   cache-breakpoint-place   a breakpoint on a part the request does not have
//   cache-ttl                a TTL the engine does not take
//   cache-ignored            settings this engine does not read
//   cache-key-length         an OpenAI prompt_cache_key over 64 characters
//   cache-below-minimum      a cached prefix shorter than the model's minimum (nothing is cached)
//   cache-vars-first         {{vars}} before the static text of the system prompt (every case
//                            gets a different prefix, so no case reads another's cache)

#include "core/schema/lint.h"

namespace Callscope {

QList<LintRule> cacheLintRules();
QList<LintFinding> lintCache(const Spec &spec, EngineType target);

// Where the first {{var}} of `text` starts, and how much static text follows it; nullopt when
// the text has no var or the static part before the first var is the larger.
struct VarsFirst
{
    qsizetype position = 0;
    QString var;
    qsizetype staticAfter = 0;
};
std::optional<VarsFirst> varsBeforeStaticText(const QString &text);

} // namespace Callscope
