#pragma once

// What an experiment summary says about the prompt cache of each variant: the cache advice
// lint gives for the variant's spec (per-case text before static text, a prefix below the
// model's minimum, ...) and whether the variant is the one that breaks the cache.

#include "core/eval/experiment.h"

#include <QJsonArray>

namespace Callscope {

// Adds "cache_advice" (the cache findings of lint: [{"rule", "pointer", "message"}]) and
// "breaks_cache" to each summary entry of `variants` (same order as `experiment.variants`).
// A variant breaks the cache when lint finds per-case text before its static prefix, or when
// it read under a tenth of its prompt from the cache while another variant read half or more.
void addCacheAdvice(QJsonArray &variants, const Experiment &experiment);

} // namespace Callscope
