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

} // namespace Callscope
