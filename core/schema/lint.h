#pragma once

// Lint of a spec before it spends tokens.
//
// Findings are advice, never blockers: each has a severity, the JSON Pointer of the spot in
// the spec document (`/tools/1/input_schema/properties/x`), a plain-language message and a
// stable rule id. Rules depend on the target engine type: the same spec can be fine for
// Anthropic and break OpenAI's strict mode. The response schema is linted like a tool input
// schema, because it becomes the input schema of the `submit_output` tool.
//
// Rule ids (see lintRules() for a one-line summary of each):
//   tool-name-snake-case, tool-name-verb-noun, tool-name-provider, tool-description-missing,
//   tool-description-length, tool-count, schema-root-object, schema-draft-form, enum-closed-set,
//   argument-string-size, output-parser-ignored, output-mode-ignored, text-output-ignored,
//   native-unsupported, native-schema-changed,
//   strict-additional-properties, strict-required, strict-unsupported-keyword, strict-format,
//   strict-ref-siblings, strict-depth, strict-size,
//   anthropic-min-items, anthropic-unsupported-keyword, anthropic-format, anthropic-recursive-ref,
//   gemini-recursive-ref, gemini-const, gemini-dropped-keyword, gemini-parameter-name,
//   key-profile-redirect, key-env-not-allowed, and the cache rules of cachelint.h

#include "core/model/spec.h"
#include "core/model/trustpolicy.h"

#include <QList>
#include <QString>

#include <functional>
#include <optional>

namespace Callscope {

enum class LintSeverity { Warning, Info };

QString lintSeverityName(LintSeverity severity); // "warning", "info"

struct LintFinding
{
    LintSeverity severity = LintSeverity::Warning;
    QString pointer;
    QString message;
    QString rule;

    friend bool operator==(const LintFinding &, const LintFinding &) = default;
};

struct LintRule
{
    QString id;
    QString summary;
};

// Every rule lintSpec can report, in a stable order.
QList<LintRule> lintRules();

// Findings for `target`: the key rules, the output parser, the response schema, the tool count,
// then each tool in order.
QList<LintFinding> lintSpec(const Spec &spec, EngineType target,
                            const ProfileLookup &profiles = {});
// Findings for the spec's own engine type.
QList<LintFinding> lintSpec(const Spec &spec);

} // namespace Callscope
