#pragma once

// Everything a spec file's text says about itself before it runs: the errors that stop it from
// loading (JSON syntax, wrong fields), the schemas in it that are not valid JSON Schema (the
// response schema and each tool's parameters, checked against the meta-schema of the dialect
// their "$schema" names, 2020-12 without one) and,
// once it loads, the lint findings for an engine type. The studio's findings list, the form's
// markers, the run button and `callscope-cli lint` all read checkSpec, so they agree.

#include "core/model/specio.h"
#include "core/schema/lint.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <functional>
#include <optional>

namespace Callscope {

// A schema in the spec that is not valid JSON Schema (or cannot be compiled: a $ref that does
// not resolve, a pattern that is not a regular expression, a $ref cycle).
struct SpecSchemaError
{
    // The rule every schema error is listed under beside the lint rules (in the studio's
    // findings and in `callscope-cli lint`); the keyword says which part of the schema is wrong.
    static QString rule() { return QStringLiteral("schema-invalid"); }

    QString pointer; // into the spec document: "/response_schema/properties/answer/minLength"
    QString keyword; // the schema keyword that is wrong: "minLength"
    QString message; // what is wrong with it, in plain words

    friend bool operator==(const SpecSchemaError &, const SpecSchemaError &) = default;
};

struct SpecCheck
{
    std::optional<Spec> spec; // set when the text loads
    QList<SpecError> errors; // why it does not load; empty when spec is set
    // A JSON syntax error: where it is, in characters of the text (-1 when the JSON parses).
    qsizetype syntaxErrorPosition = -1;
    // Schemas of a spec that loads but that no engine could use; a spec with any cannot run.
    QList<SpecSchemaError> schemaErrors;
    EngineType target = EngineType::OpenAI; // the engine the lint findings are for
    // Lint advice; empty when the spec does not load. A schema with errors is not linted.
    QList<LintFinding> findings;

    bool ok() const { return spec.has_value(); }
    // Loads and has no invalid schema: the spec can be sent.
    bool runnable() const { return ok() && schemaErrors.isEmpty(); }
    // Why the spec cannot run, in one line (empty when it can).
    QString blockingReason() const;
};

// Loads `json` (relative paths resolve against `sourcePath`), checks its schemas and lints it
// for `target`, or for the spec's own engine type when no target is given. `profiles` tells the
// engine profiles of this machine: a spec that names a profile and no type takes the profile's
// type (the spec's engine.type is set to it), so it is linted for the engine it will run on,
// and the key rules compare the engine block with the profile. Thread-safe when `profiles` is
// (profileLookupFor() is): the studio runs it on a worker thread.
SpecCheck checkSpec(const QByteArray &json, const QString &sourcePath = {},
                    std::optional<EngineType> target = std::nullopt,
                    const ProfileLookup &profiles = {});

// The meta-schema errors of the schemas in `spec` (response schema, tool parameters).
QList<SpecSchemaError> checkSpecSchemas(const Spec &spec);

} // namespace Callscope
