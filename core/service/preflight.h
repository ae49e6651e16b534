#pragma once

// The check before a call spends anything: is the engine complete enough to be asked? A model
// named, a base URL that is a web address, the key variable the spec names set, a replay
// recording that exists. A problem found here ends the call before any request goes out (and
// before any retry is spent); the GUI shows the same problems inline before it launches, the
// CLI prints them. The keychain is asked later, by the job (it answers asynchronously); a
// hosted provider's missing key is then reported by checkKey().

#include "core/model/spec.h"

#include <QList>
#include <QString>

namespace Callscope {

struct PreflightProblem
{
    enum class Field { Model, BaseUrl, Key, Replay, Profile };
    Field field = Field::Model;
    QString pointer;     // where in the spec: "/engine/model"
    QString message;     // what is missing and how to fix it, for a person
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
// After key resolution: a hosted provider on its public endpoint with no key at all cannot
// answer; a custom base URL (a local server) may need none.
PreflightResult checkKey(const EngineSpec &engine, const QString &key);

} // namespace Callscope
