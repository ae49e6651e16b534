#pragma once

// Everything a spec file's text says about itself before it runs: the errors that stop it from
// loading (JSON syntax, wrong fields) and, once it loads, the lint findings for an engine type.
// The studio's findings list and `callscope-cli lint` both come from checkSpec, so they agree.

#include "core/model/specio.h"
#include "core/schema/lint.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

namespace Callscope {

struct SpecCheck
{
    std::optional<Spec> spec;  // set when the text loads
    QList<SpecError> errors;   // why it does not load; empty when spec is set
    // A JSON syntax error: where it is, in characters of the text (-1 when the JSON parses).
    qsizetype syntaxErrorPosition = -1;
    EngineType target = EngineType::OpenAI; // the engine the lint findings are for
    QList<LintFinding> findings;            // lint advice; empty when the spec does not load

    bool ok() const { return spec.has_value(); }
};

// Loads `json` (relative paths resolve against `sourcePath`) and lints it for `target`, or for
// the spec's own engine type when no target is given.
SpecCheck checkSpec(const QByteArray &json, const QString &sourcePath = {},
                    std::optional<EngineType> target = std::nullopt);

} // namespace Callscope
