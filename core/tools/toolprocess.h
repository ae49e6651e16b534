#pragma once

// Process helpers shared by the command and MCP toolkits: program lookup, process groups so
// a tool's own children die with it, and retiring a process without blocking the event loop.

#include <QString>
#include <QStringList>

class QProcess;

namespace Callscope::ToolProcess {

// The absolute path of `program`: a name without a slash is looked up in PATH, a relative
// path is taken from `workingDirectory` (the current directory when empty). Empty when there
// is no such executable file.
QString resolveProgram(const QString &program, const QString &workingDirectory);

// Makes writing to a pipe whose reader is gone fail with EPIPE instead of killing us with
// SIGPIPE (a tool that exits without reading its stdin, a server that died). Sets SIGPIPE to
// SIG_IGN for the whole process; called before each process start, since test frameworks
// and crash handlers may install their own handler in between.
void ignoreSigpipe();

// Makes the child start its own process group (so terminate/kill reach its children too).
// Call before QProcess::start().
void useOwnProcessGroup(QProcess *process);

// Sends `signal` to the process group of the running process (no-op when `pid` <= 0).
void signalGroup(qint64 pid, int signal);

// Stops a process that no one needs any more: its read channels are closed (further output is
// discarded, so a flood cannot grow memory), its group gets SIGTERM and, if it is still alive
// after `graceMs`, SIGKILL. With `stdinGraceMs` > 0 its stdin is closed first and SIGTERM
// waits that long (a polite stop for servers that exit at end of input). The QProcess is
// detached from its parent and deletes itself once it has exited; nothing waits for it.
void retire(QProcess *process, int graceMs, int stdinGraceMs = 0);

// Waits (running the event loop) until every retired process has ended, at most `maxMs`; the
// ones still running then are killed and reaped. Front ends call it before they exit, so no
// server is left behind and QProcess never warns about a process destroyed while running.
// Returns how many had to be killed.
int finishRetired(int maxMs);
int retiredCount();

// Text of at most `maxBytes` bytes of `data` decoded as UTF-8 (invalid sequences become
// U+FFFD; `invalid` tells whether there were any). A cut is marked in the text.
QString decodeCapped(const QByteArray &data, qint64 maxBytes, bool *invalid = nullptr);

} // namespace Callscope::ToolProcess
