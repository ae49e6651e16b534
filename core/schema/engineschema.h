#pragma once

// The schema each engine accepts in native structured output and strict tool declarations.
//
// Providers enforce only part of JSON Schema there, so the spec's response schema is rewritten
// per engine before it is sent:
// - OpenAI (Chat and Responses, strict): every object gets "additionalProperties": false, every
//   property becomes required and the optional ones nullable, "$ref"s with sibling keywords are
//   inlined, a one-entry "allOf" is flattened, "oneOf" becomes "anyOf", and keywords strict mode
//   does not support (minLength, default, not, if/then/else, unsupported formats, ...) move into
//   "description" as a hint; a tuple ("prefixItems" with "items" for the rest) becomes one
//   "items" schema that any of its positions matches (Anthropic too).
// - Anthropic: "additionalProperties" is forced to false, "oneOf" becomes "anyOf", minItems
//   above 1 and every keyword it does not enforce (min/max, pattern, maxItems, ...) move into
//   "description"; "required" is left as it is.
// - Gemini (responseJsonSchema): "const" becomes a one-value "enum", string formats and
//   exclusive bounds move into "description", "$schema", "title", "examples" and
//   "discriminator" are dropped.
// - OpenAI-compatible servers and replay get the schema as it is (local servers compile it to a
//   grammar and ignore "strict").
// A schema whose "$schema" names an older draft (draft-04 to 2019-09) is first rewritten in
// 2020-12 words with the same meaning (schemadialect.h), then as above; the changes list both.
// The reply is always validated against the original schema; normalizeNativeOutput undoes the
// one rewrite a valid reply can show (a null for an optional property made nullable).

#include "core/model/spec.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace Callscope {

struct SchemaChange
{
    QString pointer; // where in the original schema ("" is the root)
    QString rule; // stable id, see schemaChangeRules()
    QString reason; // plain words for the user
    // False when the provider no longer enforces what was there (moved into the description
    // or dropped); the reply is still validated against the original schema.
    bool enforced = true;

    friend bool operator==(const SchemaChange &, const SchemaChange &) = default;
};

struct EngineSchema
{
    QJsonObject schema; // what is sent
    QList<SchemaChange> changes; // in document order
    // Object properties (as instance paths, "*" for any array item) that were optional and
    // are now required and nullable: a null there means "absent".
    QList<QStringList> nullableOptional;

    bool unchanged() const { return changes.isEmpty(); }
};

// Rule ids of SchemaChange, with a one-line summary each.
QList<std::pair<QString, QString>> schemaChangeRules();

// The schema sent to `engine` for `schema`; a pure function.
EngineSchema schemaForEngine(const QJsonObject &schema, EngineType engine);

// Removes the nulls the transform allowed for optional properties, so that a reply can be
// validated against the original schema.
QJsonValue normalizeNativeOutput(const QJsonValue &output, const EngineSchema &sent);

} // namespace Callscope
