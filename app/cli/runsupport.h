#pragma once

// What the commands that run calls share (run, revise, batch, eval, mcp): waiting for a job,
// Ctrl+C handling, trust options, short durations. What a run needs (database, keychain,
// profiles, network, the service) comes from the program's AppContext (core/service).

#include "core/secrets/truststore.h"
#include "core/service/appcontext.h"
#include "core/service/calljob.h"
#include "core/service/callservice.h"

#include <QCommandLineParser>
#include <QSocketNotifier>

#include <csignal>
#include <functional>
#include <memory>

class QFile;

namespace Callscope::Cli {

// Appends one JSONL line to `out` (an unbuffered file) whole or not at all: a line that cannot
// be written whole is cut back out. Returns false with the system's reason in *error.
bool appendWholeLine(QFile &out, const QByteArray &bytes, QString *error);

// Runs one job to its end on the event loop.
LaunchResult waitFor(CallJob *job);

// Ctrl+C / SIGTERM: `onStop` runs on the event loop (the handler only writes a byte to a pipe,
// which is async-signal-safe; a socket notifier reads it). A second signal ends the program.
class StopOnSignal
{
public:
    // `handled` signals reach onStop; the one after them ends the program at once.
    explicit StopOnSignal(std::function<void()> onStop, int handled = 1);
    ~StopOnSignal();
    Q_DISABLE_COPY_MOVE(StopOnSignal)

private:
    static void handle(int);
    std::function<void()> m_onStop;
    std::unique_ptr<QSocketNotifier> m_notifier;
    static inline int s_pipe[2] = { -1, -1 };
    static inline volatile std::sig_atomic_t s_signals = 0;
    static inline volatile std::sig_atomic_t s_handled = 1;
};

// What Ctrl+C does to a single call: cancel it (it is stored as cancelled).
std::function<void()> cancelling(CallJob *job);

// Trust (docs/trust.md): --trust and --allow-key-env NAME on the commands that run files.
void addTrustOptions(QCommandLineParser &parser);
// --trust, or CALLSCOPE_TRUST=1 in the environment.
bool trustGiven(const QCommandLineParser &parser);
// The check before anything runs: `items` are what the file would start or read (its run
// items), `entry` identifies it. Goes on (true) when there is nothing to trust, when the user
// trusted the file before, or with --trust / CALLSCOPE_TRUST=1: the service then runs this
// command's calls without asking again. Otherwise prints the list and the flag to pass and
// returns false (exit 2), before any request.
bool passTrust(AppContext &context, const QCommandLineParser &parser, const QList<RunItem> &items,
               const TrustEntry &entry);

// "42s", "3m07s", "1h05m"; "?" for a negative value.
QString durationText(qint64 ms);

} // namespace Callscope::Cli
