#include "core/schema/engineschema.h"

#include "core/model/jsonpointer.h"
#include "core/schema/schemadialect.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Callscope::EngineSchema)
};

enum class Dialect { AsIs, OpenAIStrict, Anthropic, Gemini };

Dialect dialectFor(EngineType engine)
{
    switch (engine) {
    case EngineType::OpenAI:
    case EngineType::OpenAIResponses:
        return Dialect::OpenAIStrict;
    case EngineType::Anthropic:
        return Dialect::Anthropic;
    case EngineType::Gemini:
        return Dialect::Gemini;
    case EngineType::OpenAICompatible:
    case EngineType::Replay:
        break;
    }
    return Dialect::AsIs;
}

QString compactText(const QJsonValue &value)
{
    const QByteArray wrapped = QJsonDocument(QJsonArray { value }).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(wrapped.mid(1, wrapped.size() - 2));
}

bool hasType(const QJsonObject &schema, QStringView type)
{
    const QJsonValue t = schema.value("type"_L1);
    if (t.isString())
        return t.toString() == type;
    for (const QJsonValue &v : t.toArray()) {
        if (v.toString() == type)
            return true;
    }
    return false;
}

bool isObjectSchema(const QJsonObject &schema)
{
    return hasType(schema, u"object") || schema.contains("properties"_L1);
}

// Keywords each provider does not enforce; they go into the description.
const QStringList &unsupportedKeywords(Dialect d)
{
    static const QStringList openai = { u"minLength"_s,
                                        u"maxLength"_s,
                                        u"minProperties"_s,
                                        u"maxProperties"_s,
                                        u"uniqueItems"_s,
                                        u"contains"_s,
                                        u"minContains"_s,
                                        u"maxContains"_s,
                                        u"prefixItems"_s,
                                        u"not"_s,
                                        u"if"_s,
                                        u"then"_s,
                                        u"else"_s,
                                        u"patternProperties"_s,
                                        u"propertyNames"_s,
                                        u"dependentRequired"_s,
                                        u"dependentSchemas"_s,
                                        u"unevaluatedProperties"_s,
                                        u"unevaluatedItems"_s,
                                        u"default"_s };
    static const QStringList anthropic = { u"minimum"_s,
                                           u"maximum"_s,
                                           u"exclusiveMinimum"_s,
                                           u"exclusiveMaximum"_s,
                                           u"multipleOf"_s,
                                           u"minLength"_s,
                                           u"maxLength"_s,
                                           u"pattern"_s,
                                           u"maxItems"_s,
                                           u"uniqueItems"_s,
                                           u"minProperties"_s,
                                           u"maxProperties"_s,
                                           u"patternProperties"_s,
                                           u"propertyNames"_s,
                                           u"contains"_s,
                                           u"prefixItems"_s,
                                           u"dependentRequired"_s,
                                           u"dependentSchemas"_s,
                                           u"not"_s,
                                           u"if"_s,
                                           u"then"_s,
                                           u"else"_s,
                                           u"unevaluatedProperties"_s,
                                           u"unevaluatedItems"_s };
    static const QStringList gemini = { u"exclusiveMinimum"_s, u"exclusiveMaximum"_s };
    static const QStringList none;
    switch (d) {
    case Dialect::OpenAIStrict:
        return openai;
    case Dialect::Anthropic:
        return anthropic;
    case Dialect::Gemini:
        return gemini;
    case Dialect::AsIs:
        break;
    }
    return none;
}

// String formats each provider supports; empty means every format is moved.
const QStringList &supportedFormats(Dialect d)
{
    static const QStringList openai = { u"date-time"_s, u"time"_s,  u"date"_s,
                                        u"duration"_s,  u"email"_s, u"hostname"_s,
                                        u"ipv4"_s,      u"ipv6"_s,  u"uuid"_s };
    static const QStringList anthropic = { u"date-time"_s, u"time"_s,     u"date"_s, u"duration"_s,
                                           u"email"_s,     u"hostname"_s, u"uri"_s,  u"ipv4"_s,
                                           u"ipv6"_s,      u"uuid"_s };
    static const QStringList none;
    return d == Dialect::OpenAIStrict ? openai : d == Dialect::Anthropic ? anthropic : none;
}

class Transformer
{
public:
    Transformer(const QJsonObject &root, Dialect dialect)
        : m_root(root)
        , m_dialect(dialect)
    { }

    EngineSchema run()
    {
        EngineSchema out;
        out.schema =
            m_dialect == Dialect::AsIs ? m_root : node(m_root, QString(), QStringList(), 0);
        if (m_dialect == Dialect::Gemini && out.schema.contains("$schema"_L1)) {
            out.schema.remove("$schema"_L1);
            change(u"/$schema"_s, u"keyword-dropped"_s,
                   Tr::tr("\"$schema\" is dropped: Gemini does not take it"), true);
        }
        out.changes = m_changes;
        out.nullableOptional = m_nullable;
        return out;
    }

private:
    void change(const QString &pointer, const QString &rule, const QString &reason, bool enforced)
    {
        m_changes.append({ pointer, rule, reason, enforced });
    }

    void toDescription(QJsonObject &schema, const QString &pointer, const QString &keyword)
    {
        const QJsonValue value = schema.take(keyword);
        QString description = schema.value("description"_L1).toString();
        if (!description.isEmpty())
            description += u' ';
        description += u'(' + keyword + u": "_s + compactText(value) + u')';
        schema.insert("description"_L1, description);
        change(
            JsonPointer::append(pointer, keyword), u"keyword-to-description"_s,
            Tr::tr("\"%1\" is not enforced by this provider; it is moved into the description as a "
                   "hint")
                .arg(keyword),
            false);
    }

    // A provider without "prefixItems": "items" (the rest of a tuple, often false) would then
    // apply to every item, so it becomes one schema any tuple position matches.
    void tupleToItems(QJsonObject &schema, const QString &pointer)
    {
        QJsonArray any = schema.value("prefixItems"_L1).toArray();
        const QJsonValue rest = schema.value("items"_L1);
        if (rest.isObject())
            any.append(rest);
        else if (rest.isUndefined() || rest == QJsonValue(true))
            return; // the items after the tuple may be anything: no "items" is right
        QJsonValue items;
        if (any.size() == 1)
            items = any.at(0);
        else if (!any.isEmpty())
            items = QJsonObject { { u"anyOf"_s, any } };
        if (items.isUndefined())
            schema.remove("items"_L1);
        else
            schema.insert("items"_L1, items);
        change(
            JsonPointer::append(pointer, u"items"), u"tuple-to-items"_s,
            Tr::tr(
                "\"items\" is sent as one schema every item may match, because the provider does "
                "not take "
                "the tuple (\"prefixItems\"); the positions and the count are checked here"),
            false);
    }

    std::optional<QJsonObject> resolveRef(const QString &ref) const
    {
        if (!ref.startsWith(u'#'))
            return std::nullopt;
        const auto target = JsonPointer::resolve(m_root, QStringView(ref).mid(1));
        if (!target || !target->isObject())
            return std::nullopt;
        return target->toObject();
    }

    // `path` is the instance path of this schema (property names, "*" for array items), used
    // to undo the nullable rewrite on a reply; it is cleared below unions and definitions.
    QJsonObject node(QJsonObject schema, const QString &pointer, std::optional<QStringList> path,
                     int refDepth)
    {
        const bool openai = m_dialect == Dialect::OpenAIStrict;

        // Rewrites of the node itself first, then its subschemas, then the keywords it keeps.
        if (openai && schema.contains("$ref"_L1) && schema.size() > 1 && refDepth < 8) {
            if (const auto target = resolveRef(schema.value("$ref"_L1).toString())) {
                QJsonObject merged = *target;
                for (auto it = schema.constBegin(); it != schema.constEnd(); ++it) {
                    if (it.key() != u"$ref")
                        merged.insert(it.key(), it.value());
                }
                change(JsonPointer::append(pointer, u"$ref"), u"ref-inlined"_s,
                       Tr::tr("\"$ref\" with sibling keywords is inlined: strict mode wants a bare "
                              "$ref"),
                       true);
                return node(merged, pointer, path, refDepth + 1);
            }
        }
        if (openai && schema.value("allOf"_L1).toArray().size() == 1
            && schema.value("allOf"_L1).toArray().at(0).isObject()) {
            const QJsonObject only = schema.take("allOf"_L1).toArray().at(0).toObject();
            for (auto it = only.constBegin(); it != only.constEnd(); ++it) {
                if (!schema.contains(it.key()))
                    schema.insert(it.key(), it.value());
            }
            change(JsonPointer::append(pointer, u"allOf"), u"all-of-flattened"_s,
                   Tr::tr("a one-entry \"allOf\" is merged into its schema: strict mode does not "
                          "support allOf"),
                   true);
        }
        if ((openai || m_dialect == Dialect::Anthropic) && schema.contains("oneOf"_L1)
            && !schema.contains("anyOf"_L1)) {
            schema.insert("anyOf"_L1, schema.take("oneOf"_L1));
            m_renamed.insert(JsonPointer::append(pointer, u"anyOf"),
                             JsonPointer::append(pointer, u"oneOf"));
            change(JsonPointer::append(pointer, u"oneOf"), u"one-of-to-any-of"_s,
                   Tr::tr("\"oneOf\" is sent as \"anyOf\": the provider supports only anyOf (that "
                          "exactly one branch matches is still checked here)"),
                   false);
        }
        if (m_dialect == Dialect::Gemini && schema.contains("const"_L1)) {
            schema.insert("enum"_L1, QJsonArray { schema.take("const"_L1) });
            change(JsonPointer::append(pointer, u"const"), u"const-to-enum"_s,
                   Tr::tr("\"const\" is sent as a one-value \"enum\""), true);
        }
        if (m_dialect == Dialect::Gemini) {
            for (const QString &keyword : { u"title"_s, u"examples"_s, u"discriminator"_s }) {
                if (!schema.contains(keyword)
                    || (keyword == u"title" && !schema.value(keyword).isString()))
                    continue;
                schema.remove(keyword);
                change(JsonPointer::append(pointer, keyword), u"keyword-dropped"_s,
                       Tr::tr("\"%1\" is dropped: Gemini does not take it").arg(keyword), true);
            }
        }

        // Objects (before the subschemas: an additionalProperties schema is replaced).
        if ((openai || m_dialect == Dialect::Anthropic) && isObjectSchema(schema)) {
            const QJsonValue additional = schema.value("additionalProperties"_L1);
            if (additional != QJsonValue(false)) {
                schema.insert("additionalProperties"_L1, false);
                change(
                    JsonPointer::append(pointer, u"additionalProperties"),
                    u"additional-properties-false"_s,
                    additional.isUndefined()
                        ? Tr::tr("\"additionalProperties\": false is added: the provider needs it "
                                 "on every object")
                        : Tr::tr("\"additionalProperties\" is set to false: the provider allows no "
                                 "other value (extra properties are still checked here)"),
                    additional.isUndefined());
            }
        }
        // Subschemas.
        static const QStringList maps = { u"properties"_s, u"$defs"_s, u"definitions"_s,
                                          u"patternProperties"_s, u"dependentSchemas"_s };
        static const QStringList single = { u"items"_s,
                                            u"additionalProperties"_s,
                                            u"not"_s,
                                            u"if"_s,
                                            u"then"_s,
                                            u"else"_s,
                                            u"contains"_s,
                                            u"propertyNames"_s,
                                            u"unevaluatedItems"_s,
                                            u"unevaluatedProperties"_s };
        static const QStringList lists = { u"anyOf"_s, u"oneOf"_s, u"allOf"_s, u"prefixItems"_s };
        const QStringList keys = schema.keys();
        for (const QString &key : keys) {
            const QString original = m_renamed.value(JsonPointer::append(pointer, key));
            const QString child = original.isEmpty() ? JsonPointer::append(pointer, key) : original;
            const QJsonValue value = schema.value(key);
            if (maps.contains(key) && value.isObject()) {
                QJsonObject map = value.toObject();
                for (auto it = map.begin(); it != map.end(); ++it) {
                    if (!it->isObject())
                        continue;
                    std::optional<QStringList> childPath;
                    if (key == u"properties" && path)
                        childPath = *path + QStringList { it.key() };
                    *it = node(it->toObject(), JsonPointer::append(child, it.key()), childPath,
                               refDepth);
                }
                schema.insert(key, map);
            } else if (single.contains(key) && value.isObject()) {
                std::optional<QStringList> childPath;
                if (key == u"items" && path)
                    childPath = *path + QStringList { u"*"_s };
                schema.insert(key, node(value.toObject(), child, childPath, refDepth));
            } else if (lists.contains(key) && value.isArray()) {
                QJsonArray list = value.toArray();
                for (qsizetype i = 0; i < list.size(); ++i) {
                    if (list.at(i).isObject())
                        list[i] = node(list.at(i).toObject(), JsonPointer::append(child, i), {},
                                       refDepth);
                }
                schema.insert(key, list);
            }
        }

        // Keywords the provider does not enforce.
        for (const QString &keyword : unsupportedKeywords(m_dialect)) {
            if (keyword == u"prefixItems" && schema.value(keyword).isArray())
                tupleToItems(schema, pointer);
            if (schema.contains(keyword))
                toDescription(schema, pointer, keyword);
        }
        if (m_dialect == Dialect::Anthropic) {
            const QJsonValue minItems = schema.value("minItems"_L1);
            if (minItems.isDouble() && minItems.toDouble() > 1)
                toDescription(schema, pointer, u"minItems"_s);
        }
        if (m_dialect != Dialect::AsIs && schema.value("format"_L1).isString()
            && !supportedFormats(m_dialect).contains(schema.value("format"_L1).toString()))
            toDescription(schema, pointer, u"format"_s);
        if (openai && schema.contains("allOf"_L1))
            toDescription(schema, pointer, u"allOf"_s);

        if (openai && isObjectSchema(schema)) {
            QJsonObject properties = schema.value("properties"_L1).toObject();
            QJsonArray required = schema.value("required"_L1).toArray();
            QSet<QString> listed;
            for (const QJsonValue &v : std::as_const(required))
                listed.insert(v.toString());
            bool changed = false;
            for (auto it = properties.begin(); it != properties.end(); ++it) {
                if (listed.contains(it.key()))
                    continue;
                required.append(it.key());
                *it = nullable(it->toObject());
                changed = true;
                const QString propPointer =
                    JsonPointer::append(JsonPointer::append(pointer, u"properties"), it.key());
                change(propPointer, u"optional-made-nullable"_s,
                       Tr::tr("optional property \"%1\" is made required and nullable: strict mode "
                              "needs every property in \"required\" (a null answer counts as "
                              "absent)")
                           .arg(it.key()),
                       true);
                if (path)
                    m_nullable.append(*path + QStringList { it.key() });
            }
            if (changed) {
                schema.insert("properties"_L1, properties);
                schema.insert("required"_L1, required);
            }
        }
        return schema;
    }

    static QJsonObject nullable(QJsonObject schema)
    {
        const QJsonValue type = schema.value("type"_L1);
        if (type.isString()) {
            if (type.toString() != u"null")
                schema.insert("type"_L1, QJsonArray { type, u"null"_s });
        } else if (type.isArray()) {
            QJsonArray types = type.toArray();
            if (!types.contains(u"null"_s))
                types.append(u"null"_s);
            schema.insert("type"_L1, types);
        } else {
            return QJsonObject {
                { u"anyOf"_s, QJsonArray { schema, QJsonObject { { u"type"_s, u"null"_s } } } }
            };
        }
        if (schema.value("enum"_L1).isArray()) {
            QJsonArray values = schema.value("enum"_L1).toArray();
            if (!values.contains(QJsonValue(QJsonValue::Null)))
                values.append(QJsonValue(QJsonValue::Null));
            schema.insert("enum"_L1, values);
        }
        return schema;
    }

    const QJsonObject m_root;
    const Dialect m_dialect;
    QList<SchemaChange> m_changes;
    QList<QStringList> m_nullable;
    QHash<QString, QString> m_renamed; // pointer after a rename -> pointer in the original
};

QJsonValue dropNull(const QJsonValue &value, const QStringList &path, qsizetype at)
{
    if (at >= path.size())
        return value;
    const QString &segment = path.at(at);
    if (segment == u"*") {
        if (!value.isArray())
            return value;
        QJsonArray array = value.toArray();
        for (qsizetype i = 0; i < array.size(); ++i)
            array[i] = dropNull(array.at(i), path, at + 1);
        return array;
    }
    if (!value.isObject())
        return value;
    QJsonObject object = value.toObject();
    if (!object.contains(segment))
        return value;
    if (at == path.size() - 1) {
        if (object.value(segment).isNull())
            object.remove(segment);
    } else {
        object.insert(segment, dropNull(object.value(segment), path, at + 1));
    }
    return object;
}

} // namespace

QList<std::pair<QString, QString>> schemaChangeRules()
{
    return {
        { u"dialect-rewritten"_s,
          Tr::tr("a schema of an older draft is sent in 2020-12 words, same meaning") },
        { u"additional-properties-false"_s, Tr::tr("objects get \"additionalProperties\": false") },
        { u"optional-made-nullable"_s, Tr::tr("optional properties become required and nullable") },
        { u"ref-inlined"_s, Tr::tr("a \"$ref\" with sibling keywords is inlined") },
        { u"all-of-flattened"_s, Tr::tr("a one-entry \"allOf\" is merged into its schema") },
        { u"one-of-to-any-of"_s, Tr::tr("\"oneOf\" is sent as \"anyOf\"") },
        { u"tuple-to-items"_s,
          Tr::tr("a tuple the provider does not take is sent as one \"items\" schema") },
        { u"const-to-enum"_s, Tr::tr("\"const\" is sent as a one-value \"enum\"") },
        { u"keyword-to-description"_s,
          Tr::tr("a keyword the provider does not enforce moves into the description") },
        { u"keyword-dropped"_s, Tr::tr("an annotation the provider does not take is dropped") },
    };
}

EngineSchema schemaForEngine(const QJsonObject &schema, EngineType engine)
{
    const Dialect dialect = dialectFor(engine);
    const std::optional<SchemaDialect> declared = declaredSchemaDialect(schema);
    if (dialect == Dialect::AsIs || !declared || *declared == SchemaDialect::Draft202012)
        return Transformer(schema, dialect).run();
    // Providers read 2020-12 (or a subset of it): a draft-04 tuple or boolean bound would be
    // misread there, so the schema goes in 2020-12 words first (the same verdicts).
    const SchemaUpgrade upgrade = upgradeSchema(schema, *declared);
    EngineSchema out = Transformer(upgrade.schema.toObject(), dialect).run();
    QList<SchemaChange> rewritten;
    for (const DialectRewrite &c : upgrade.changes)
        rewritten.append({ c.pointer, u"dialect-rewritten"_s, c.message, true });
    out.changes = rewritten + out.changes;
    return out;
}

QJsonValue normalizeNativeOutput(const QJsonValue &output, const EngineSchema &sent)
{
    QJsonValue value = output;
    for (const QStringList &path : sent.nullableOptional)
        value = dropNull(value, path, 0);
    return value;
}

} // namespace Callscope
