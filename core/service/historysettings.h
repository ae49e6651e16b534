#pragma once

// Which history the studio opens: this computer's SQLite file or a team's PostgreSQL server,
// chosen in Settings > History and kept in the settings as "history/location" (the server's URL,
// never with a password; absent for this computer). The password of a server is the keychain
// entry `callscope-cli history login` writes (AppContext::historyPasswordEntry()).
//
// checkHistoryServer() is what the page's Test does: connect, read the schema version and
// whether the role may store calls, and create or migrate nothing. It blocks (a server across
// a network may take seconds): call it off the GUI thread.

#include <QLatin1StringView>
#include <QString>

class QSettings;

namespace Callscope {

inline constexpr QLatin1StringView kHistoryLocationSetting("history/location");

// The server URL the settings name, or empty for the history on this computer.
QString configuredHistoryLocation(const QSettings &settings);
// Keeps `location` (a postgresql:// URL without password; empty: this computer). False, with
// the reason in *problem, for a URL that holds a password or is not a server URL.
bool saveHistoryLocation(QSettings &settings, const QString &location, QString *problem = nullptr);

struct HistoryServerCheck
{
    bool connected = false; // the server took the connection (and the password)
    int schemaVersion = 0; // 0: no Callscope tables yet
    int latestVersion = 0; // the version this Callscope writes
    bool canWrite = false; // the role may store calls (or create the tables)
    QString user; // the role, as the server names it
    QString problem; // why not connected: the server's reason, in its words
    // What happened, in plain words (connected, schema version, read-only or not; or why not).
    QString text() const;
};

// Connects to `location` with `password` (empty: libpq's own sources, PGPASSFILE, ~/.pgpass)
// and looks; at most `timeoutSeconds` for the connection unless the URL gives connect_timeout.
// Blocking; any thread.
HistoryServerCheck checkHistoryServer(const QString &location, const QString &password,
                                      int timeoutSeconds = 10);

} // namespace Callscope
