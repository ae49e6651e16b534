#pragma once

// What a spec would do on this machine beyond sending requests to its engine, and where a key
// may go. Opening a file never runs anything; running it may start programs (command tools,
// pre-seeded calls of them, local MCP servers) or read environment variables that are not
// provider keys. Those are "run items": a file that has any is untrusted until the user
// trusts it (core/secrets/truststore.h keeps the answer). Both front ends and lint ask here.

#include "core/model/spec.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace Callscope {

struct RunItem
{
    enum class Kind { CommandTool, PreSeed, McpServer, KeyVariable, Assertion };
    Kind kind = Kind::CommandTool;
    QString name; // the tool, server, variable or assertion
    QStringList commandLine; // the program and its arguments; empty for KeyVariable
    QString workingFolder; // where the program starts
    QString pointer; // where the file says it: "/tools/2/command"

    // One line for a person: "command tool lookup: ./lookup.sh --fast (in /home/me/specs)".
    QString describe() const;

    friend bool operator==(const RunItem &, const RunItem &) = default;
};

// A variable that holds a provider key by name (FOO_API_KEY) may be read without asking.
bool isProviderKeyVariable(const QString &name);
// The names the user allowed besides those (the setting "keys/allowed_env", a list).
QStringList allowedKeyVariablesSetting();
// isProviderKeyVariable, the setting, or `extra` (`--allow-key-env NAME`).
bool keyVariableAllowed(const QString &name, const QStringList &extra = {});

// The folder programs of `spec` start in: the spec's folder, the current one for a spec that
// was never saved.
QString specWorkingFolder(const Spec &spec);

// Everything running `spec` would start or read that needs the user's trust, in file order:
// each command tool, each pre-seeded call of one, each local MCP server a run starts, each
// key variable that is not allowed (api_key_env, an MCP server's bearer_env or OAuth secret).
QList<RunItem> specRunItems(const Spec &spec, const QStringList &allowedVariables = {});

// What identifies a spec for trust: the SHA-256 (hex) of its content in canonical form, so
// any edit of what it does asks again while reformatting does not.
QByteArray specTrustDigest(const Spec &spec);

// "scheme://host:port" requests for `type` at `baseUrl` go to (the provider's public endpoint
// when baseUrl is empty). Empty when the address is not usable.
QString engineOrigin(EngineType type, const QString &baseUrl);

// What a check of a spec knows of an engine profile of this machine: its type and base URL.
struct KnownProfile
{
    EngineType type = EngineType::OpenAI;
    QString baseUrl;
};
// The profile of that name, or nothing when there is none. Lint and checkSpec take one from the
// front end (profileLookupFor() in core/secrets/profilestore.h); without one, or for a name it
// does not know, a spec that names a profile and its own base_url or type is reported, because
// that run is refused unless they match the profile.
using ProfileLookup = std::function<std::optional<KnownProfile>(const QString &name)>;

// A profile's key goes only to that profile's own address and engine type. `fileEngine` is the
// engine block as the file gave it (before the profile was merged in). Returns why not, with
// both addresses, when the file would send the key elsewhere.
std::optional<QString> keyRedirectProblem(const EngineSpec &fileEngine, const QString &profileName,
                                          EngineType profileType, const QString &profileBaseUrl);

} // namespace Callscope
