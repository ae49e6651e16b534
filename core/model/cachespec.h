#pragma once

// The prompt cache settings of a spec or an engine profile (`"cache": {...}`; the spec's
// object wins over the profile's as a whole). Each provider reads its own fields:
// - Anthropic: `breakpoints` (where cache_control marks go: "tools", "system", "last",
//   "last_but_one", a 1-based message number, or "auto" for the automatic breakpoint) and
//   `ttl` ("5m" or "1h").
// - OpenAI (Chat and Responses): `key` (prompt_cache_key, {{vars}} filled per case) and
//   `retention` (prompt_cache_retention: "in_memory" or "24h").
// - Gemini: `explicit` (a cachedContents entry for the system prompt and tools) and `ttl`
//   ("3600s"); without it Gemini's implicit cache is only reported.

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QVariant>

#include <optional>

namespace Callscope {

struct CacheBreakpoint
{
    enum class Place { Tools, System, Last, LastButOne, Message, Auto };
    Place place = Place::System;
    int message = 0; // Place::Message: 1-based message number

    QJsonValue toJson() const;
    friend bool operator==(const CacheBreakpoint &, const CacheBreakpoint &) = default;
};

struct CacheSpec
{
    QList<CacheBreakpoint> breakpoints;
    QString ttl; // "5m" / "1h" (Anthropic), "<seconds>s" (Gemini); empty = default
    QString key; // OpenAI prompt_cache_key; may hold {{vars}}
    QString retention; // OpenAI prompt_cache_retention
    bool explicitCache = false; // Gemini cachedContents
    QJsonObject unknownFields;

    bool hasAuto() const;
    QJsonObject toJson() const;

    friend bool operator==(const CacheSpec &, const CacheSpec &) = default;
};

struct CacheSpecError
{
    QString pointer;
    QString message;
};

// Reads a "cache" object found at `pointer`; every problem goes to `errors` with its pointer.
std::optional<CacheSpec> cacheSpecFromJson(const QJsonValue &value, const QString &pointer,
                                           QList<CacheSpecError> *errors);

// "3600s" as seconds; nullopt for anything else.
std::optional<qint64> cacheTtlSeconds(const QString &ttl);

} // namespace Callscope
