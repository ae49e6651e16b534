#pragma once

// Older JSON Schema drafts written in 2020-12 words.
//
// A schema written for draft-04, -06, -07 or 2019-09 can say the same thing in 2020-12 with
// other keywords: the tuple "items": [...] is "prefixItems", "additionalItems" after it is
// "items", draft-04's boolean "exclusiveMaximum": true makes "maximum" exclusive,
// "dependencies" is "dependentRequired" (names) or "dependentSchemas" (a schema), "definitions"
// is "$defs", draft-04's "id" is "$id" (an id "#name" is an "$anchor"), and in drafts up to 7
// every keyword beside "$ref" is ignored. upgradeSchema() rewrites a schema into those forms,
// keeping its verdict on every instance; lint uses the same walk to say where a schema without
// "$schema" (read as 2020-12) uses a form that means something else there.

#include "core/schema/jsonschema.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace Callscope {

struct DialectRewrite
{
    QString pointer; // in the original schema ("" is the root)
    QString keyword; // the older keyword ("items", "exclusiveMaximum", "dependencies", ...)
    QString message; // what it means and what 2020-12 writes instead, in plain words

    friend bool operator==(const DialectRewrite &, const DialectRewrite &) = default;
};

struct SchemaUpgrade
{
    QJsonValue schema; // the 2020-12 schema
    QList<DialectRewrite> changes; // in document order; empty when nothing had to change
};

// `schema` read as `from` (its own "$schema" is not consulted), rewritten into 2020-12. A root
// "$schema" is replaced by the 2020-12 URI. 2019-09's "$recursiveRef" has no exact 2020-12
// word and is left as it is (reported).
SchemaUpgrade upgradeSchema(const QJsonValue &schema, SchemaDialect from);

// The forms of an older draft in a schema that names no "$schema" (so it is read as 2020-12),
// each with the 2020-12 rewrite. Keywords that keep their meaning or are only unknown
// annotations are not reported.
QList<DialectRewrite> olderDraftForms(const QJsonObject &schema);

} // namespace Callscope
