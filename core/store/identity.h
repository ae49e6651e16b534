#pragma once

// Who stores a row and where: every call, session and experiment run carries a UUID (so ids
// never collide when histories from several machines meet, in a shared server or through
// export and import), the person who made it and the machine it was made on.
//
// The person is the settings key "history/person" (the studio's Settings and
// `callscope-cli` read the same settings), defaulting to the name of the OS user. The machine
// is the host name (QSysInfo::machineHostName()), or CALLSCOPE_MACHINE when it is set.

#include <QLatin1StringView>
#include <QString>

namespace Callscope::Identity {

inline constexpr QLatin1StringView kPersonSetting("history/person");

// The settings' person, else the OS user's name; never empty ("unknown" at worst).
QString person();
// CALLSCOPE_MACHINE, else the host name; never empty.
QString machine();
// A new random UUID (version 4), lowercase, without braces.
QString newUuid();

// The OS user's name (the person when the settings name none).
QString osUserName();

} // namespace Callscope::Identity
