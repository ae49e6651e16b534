#pragma once

// An engine profile: the connection settings a user sets up once (`engines add`, the GUI's
// engine dialog) and a spec names with `engine.profile`. A profile never holds its key: the
// key lives in the OS keychain under the profile's name (core/secrets/credentialstore.h).

#include "core/model/spec.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace Callscope {

struct EngineProfile
{
    QString name;
    EngineType type = EngineType::OpenAI;
    QString model;
    QString baseUrl; // host root; empty = the provider's public endpoint
    std::optional<qint64> contextWindow;
    std::optional<int> maxTokens;
    std::optional<double> temperature;
    // Same meaning as in EngineSpec: absent = inherit, null = send everything, N = newest N.
    std::optional<std::optional<int>> toolResultsInContext;
    std::optional<qint64> toolResultsTokens;
    // Calls in flight on this engine at most (the scheduler's per-engine limit); unset = the
    // default of the settings.
    std::optional<int> maxInFlight;
    std::optional<qint64> timeoutMs; // as EngineSpec::timeoutMs
    std::optional<qint64> idleTimeoutMs; // as EngineSpec::idleTimeoutMs
    std::optional<CacheSpec> cache; // used when the spec has no "cache" of its own

    // {"name", "type", "model", "base_url", ...}: only the fields that are set (plus name,
    // type and model). There is no key field, by construction.
    QJsonObject toJson() const;

    friend bool operator==(const EngineProfile &, const EngineProfile &) = default;
};

// Profile names double as settings group names and keychain entry names, so they are kept
// simple: 1 to 64 characters of letters, digits, '.', '_' and '-', starting with a letter or
// digit. Returns a user-facing reason when `name` is not acceptable.
std::optional<QString> profileNameProblem(const QString &name);

// The engine spec a run uses: the profile's settings fill in whatever the spec leaves unset
// (the spec always wins). The type comes from the profile only when the spec gave none
// (EngineSpec::typeFromProfile).
EngineSpec mergeProfileIntoSpec(const EngineSpec &spec, const EngineProfile &profile);

} // namespace Callscope
