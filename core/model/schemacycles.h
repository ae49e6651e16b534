#pragma once

// Finds reference cycles that consume no input in a JSON Schema document: "$ref" (or
// "$dynamicRef", or an in-place applicator such as allOf) that leads back to the same subschema
// at the same instance location. Evaluation can never get out of such a loop, so no value is
// ever valid where it is reached: a spec with one is refused before any request is made.
//
// Plain JSON walking, so the spec loader (which sits below the validator) can use it: local
// references ("#", "#/json/pointer", "#anchor", within the enclosing "$id" resource) are
// followed; references to other documents are not.

#include <QJsonValue>
#include <QString>
#include <QStringList>

#include <optional>

namespace Callscope {

struct SchemaCycle
{
    QString pointer; // JSON Pointer (in the schema) of the keyword that closes the cycle
    QStringList path; // the subschemas around the cycle, first one repeated at the end
};

// The first cycle reachable from the root, or nullopt.
std::optional<SchemaCycle> findSchemaCycle(const QJsonValue &schema);

// "the schema refers back to itself without consuming any input ($ref cycle /$defs/a ->
// /$defs/b -> /$defs/a): no value can ever be valid here"
QString schemaCycleMessage(const SchemaCycle &cycle);

// A schema whose checking would take unbounded work at one instance location: a chain of
// in-place references (or allOf/anyOf/oneOf/not/if nesting) deeper than kMaxSchemaChain, or
// in-place branches that multiply to more than kMaxSchemaExpansion evaluations of one value (an
// anyOf fan-out: each level an anyOf of two references to the next). Such a schema is refused
// when the spec loads, before any request.
inline constexpr int kMaxSchemaChain = 256;
inline constexpr qint64 kMaxSchemaExpansion = 100000;

struct SchemaCostProblem
{
    QString pointer; // JSON Pointer (in the schema) of the subschema where it starts
    QString message; // for a person
};

// `maxExpansion`, when given, is set to the most evaluations one value can take at one place
// (1 for a schema without in-place branches), capped a thousand times above the limit.
std::optional<SchemaCostProblem> findSchemaCostProblem(const QJsonValue &schema,
                                                       qint64 *maxExpansion = nullptr);

} // namespace Callscope
