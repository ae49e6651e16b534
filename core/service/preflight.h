#pragma once

// The check before a call spends anything: is the engine complete enough to be asked? A model
// named, a base URL that is a web address, the key variable the spec names set, a replay
// recording that exists, the programs of command tools and MCP servers found. A problem found here
// ends the call before any request goes out (and before any retry is spent); the GUI shows the same
// problems inline before it launches, the CLI prints them. The keychain is asked later, by the job
// (it answers asynchronously); a hosted provider's missing key is then reported by checkKey().

#include "core/model/spec.h"

#include <QList>
#include <QString>
#include <QtGlobal>

namespace Callscope {

struct PreflightProblem
{
    enum class Field { Model, BaseUrl, Key, Replay, Profile, Tool };
    Field field = Field::Model;
    QString pointer; // where in the spec: "/engine/model"
    QString message; // what is missing and how to fix it, for a person
};

struct PreflightResult
{
    QList<PreflightProblem> problems;
    bool ok() const { return problems.isEmpty(); }
    // One line per problem, for a message bar or stderr.
    QString text() const;
};

// `engine` as it will run (a profile already merged in). `spec` gives the folder relative
// replay paths resolve against.
PreflightResult preflightEngine(const Spec &spec, const EngineSpec &engine);
PreflightResult preflightEngine(const Spec &spec);
// How many times preflightEngine() ran in this process: an instrumentation counter (a Run checks
// its engine once, whichever front end started it). Each run also writes the debug line
// "preflight of the engine" to the logging category callscope.launch (off unless enabled, e.g.
// QT_LOGGING_RULES="callscope.launch.debug=true"), so a test can count them in another process.
quint64 preflightCount();
// The programs the spec's tools start: every command tool's executable and every MCP server
// that will be started (one a tool names, or one that exposes all its tools). A program is
// found the way the tools find it: a bare name on PATH, a path relative to the spec's folder
// (the current folder for a spec that was never saved). Nothing is started here.
PreflightResult preflightTools(const Spec &spec);

// After key resolution: a hosted provider on its public endpoint with no key at all cannot
// answer; a custom base URL (a local server) may need none.
PreflightResult checkKey(const EngineSpec &engine, const QString &key);

} // namespace Callscope
