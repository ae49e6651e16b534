#pragma once

// What each provider documents about its prompt cache: how many breakpoints a request may
// mark, the shortest prefix it caches, the TTLs it takes.

#include "core/model/spec.h"

namespace Callscope::CacheRules {

// Anthropic takes at most this many cache_control marks in one request.
constexpr int MaxAnthropicBreakpoints = 4;
// OpenAI caches prompts from this many tokens on, in steps of OpenAICacheStep.
constexpr qint64 OpenAIMinimumTokens = 1024;
constexpr qint64 OpenAICacheStep = 128;

// The shortest prefix the provider caches for `model` (tokens); 0 when it documents none.
qint64 minimumTokens(EngineType type, const QString &model);

// The rough token count of text: one per 4 characters, as lint and the cache view estimate.
qint64 estimateTokens(qsizetype characters);

// Whether this engine type has a prompt cache at all.
bool caches(EngineType type);

} // namespace Callscope::CacheRules
