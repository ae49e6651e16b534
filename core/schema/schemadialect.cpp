#include "core/schema/schemadialect.h"

#include "core/model/jsonpointer.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QLocale>
#include <QSet>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(SchemaDialect)
};

// Keywords that only describe: kept beside a draft-07 "$ref" (they change no verdict).
bool isAnnotation(const QString &keyword)
{
    static const QSet<QString> names { u"title"_s,    u"description"_s, u"$comment"_s,
                                       u"default"_s,  u"examples"_s,    u"deprecated"_s,
                                       u"readOnly"_s, u"writeOnly"_s };
    return names.contains(keyword);
}

// 2020-12 keywords that an older draft does not know (and so ignores).
bool unknownIn(const QString &keyword, SchemaDialect from)
{
    static const QSet<QString> since6 { u"const"_s, u"contains"_s, u"propertyNames"_s };
    static const QSet<QString> since7 { u"if"_s, u"then"_s, u"else"_s };
    static const QSet<QString> since2019 { u"$anchor"_s,           u"$defs"_s,
                                           u"dependentRequired"_s, u"dependentSchemas"_s,
                                           u"unevaluatedItems"_s,  u"unevaluatedProperties"_s,
                                           u"minContains"_s,       u"maxContains"_s };
    static const QSet<QString> since2020 { u"prefixItems"_s, u"$dynamicRef"_s,
                                           u"$dynamicAnchor"_s };
    if (since2020.contains(keyword))
        return from < SchemaDialect::Draft202012;
    if (since2019.contains(keyword))
        return from < SchemaDialect::Draft201909;
    if (since7.contains(keyword))
        return from < SchemaDialect::Draft7;
    if (since6.contains(keyword))
        return from < SchemaDialect::Draft6;
    return false;
}

class Upgrader
{
public:
    Upgrader(const QJsonValue &root, SchemaDialect from, bool lintOnly)
        : m_root(root)
        , m_from(from)
        , m_lintOnly(lintOnly)
    {
        QString id =
            root.toObject().value(from == SchemaDialect::Draft4 ? "id"_L1 : "$id"_L1).toString();
        while (id.endsWith(u'#'))
            id.chop(1);
        m_rootId = id;
    }

    QList<DialectRewrite> changes;

    QJsonValue schema(const QJsonValue &value, const QString &pointer)
    {
        if (!value.isObject())
            return value;
        const QJsonObject in = value.toObject();
        QJsonObject out;
        const bool legacy = m_from <= SchemaDialect::Draft7;

        if (legacy && in.value("$ref"_L1).isString()) {
            out.insert(u"$ref"_s, ref(in.value("$ref"_L1).toString()));
            QStringList ignored;
            for (auto it = in.constBegin(); it != in.constEnd(); ++it) {
                const QString key = it.key();
                if (key == u"$ref")
                    continue;
                if (key == u"definitions") {
                    definitions(it.value(), pointer, out);
                } else if (isAnnotation(key) || (key == u"$schema" && pointer.isEmpty())) {
                    out.insert(key,
                               key == u"$schema" ? QJsonValue(
                                   schemaDialectUri(SchemaDialect::Draft202012).toString())
                                                 : it.value());
                } else {
                    ignored.append(u'"' + key + u'"');
                }
            }
            if (!ignored.isEmpty()) {
                add(pointer, u"$ref"_s,
                    Tr::tr(
                        "%1 beside \"$ref\" are ignored in drafts 4 to 7 but apply in 2020-12; the "
                        "2020-12 "
                        "rewrite leaves them out")
                        .arg(ignored.join(u", "_s)));
            }
            return out;
        }

        const QJsonValue items = in.value("items"_L1);
        const bool tuple = items.isArray() && m_from <= SchemaDialect::Draft201909;
        for (auto it = in.constBegin(); it != in.constEnd(); ++it) {
            const QString key = it.key();
            const QJsonValue v = it.value();
            const QString here = JsonPointer::append(pointer, key);
            if (key == u"$schema") {
                out.insert(key,
                           pointer.isEmpty()
                               ? QJsonValue(schemaDialectUri(SchemaDialect::Draft202012).toString())
                               : v);
            } else if ((key == u"id" && m_from == SchemaDialect::Draft4 && v.isString())
                       || (key == u"$id" && legacy && m_from != SchemaDialect::Draft4
                           && v.isString())) {
                identifier(key, v.toString(), here, out);
            } else if ((key == u"exclusiveMaximum" || key == u"exclusiveMinimum") && v.isBool()
                       && m_from == SchemaDialect::Draft4) {
                const QString bound = key == u"exclusiveMaximum" ? u"maximum"_s : u"minimum"_s;
                const QJsonValue limit = in.value(bound);
                if (v.toBool() && limit.isDouble()) {
                    out.insert(key, limit);
                    add(here, key,
                        Tr::tr("\"%1\": true is draft-04's way to make \"%2\" exclusive; 2020-12 "
                               "writes "
                               "\"%1\": %3 instead of \"%2\"")
                            .arg(key, bound, numberText(limit.toDouble())));
                } else {
                    add(here, key,
                        Tr::tr("\"%1\": %2 is a draft-04 boolean; 2020-12 wants a number there, so "
                               "the "
                               "rewrite "
                               "leaves it out")
                            .arg(key, v.toBool() ? u"true"_s : u"false"_s));
                }
            } else if ((key == u"maximum" || key == u"minimum") && m_from == SchemaDialect::Draft4
                       && in.value(key == u"maximum" ? "exclusiveMaximum"_L1
                                                     : "exclusiveMinimum"_L1)
                           == QJsonValue(true)) {
                continue; // became the exclusive bound
            } else if (key == u"items" && tuple) {
                out.insert(u"prefixItems"_s, list(v, here));
                QString message = Tr::tr(
                    "\"items\": [...] is the tuple form of drafts 4 to 2019-09; 2020-12 writes "
                    "\"prefixItems\": [...]");
                if (in.contains("additionalItems"_L1)) {
                    out.insert(u"items"_s,
                               schema(in.value("additionalItems"_L1),
                                      JsonPointer::append(pointer, u"additionalItems")));
                    message +=
                        Tr::tr(" and \"items\" for what \"additionalItems\" says about the rest");
                }
                add(here, key, message);
            } else if (key == u"additionalItems" && m_from <= SchemaDialect::Draft201909) {
                if (!tuple && !m_lintOnly)
                    add(here, key,
                        Tr::tr("\"additionalItems\" has no effect without an \"items\" array; the "
                               "rewrite "
                               "leaves it out"));
            } else if (key == u"dependencies" && v.isObject()) {
                dependencies(v.toObject(), here, out);
            } else if (key == u"definitions" && legacy) {
                definitions(v, pointer, out);
            } else if ((key == u"$recursiveRef" || key == u"$recursiveAnchor")
                       && m_from == SchemaDialect::Draft201909) {
                out.insert(key, v);
                add(here, key,
                    Tr::tr("\"%1\" is 2019-09 only; 2020-12 has \"$dynamicRef\" and "
                           "\"$dynamicAnchor\" "
                           "instead, which are not written for you")
                        .arg(key));
            } else if (unknownIn(key, m_from)) {
                if (m_lintOnly) {
                    out.insert(key, v);
                } else {
                    add(here, key,
                        Tr::tr(
                            "\"%1\" is not a keyword of %2 (so it was ignored there); the rewrite "
                            "leaves it out")
                            .arg(key, schemaDialectName(m_from)));
                }
            } else if (key == u"$ref" && v.isString()) {
                out.insert(key, ref(v.toString()));
            } else {
                out.insert(key, subschemas(key, v, here));
            }
        }
        return out;
    }

private:
    QJsonValue m_root;
    QString m_rootId;
    SchemaDialect m_from;
    bool m_lintOnly;
    bool m_renamedDefinitions = false;

    void add(const QString &pointer, const QString &keyword, const QString &message)
    {
        changes.append({ pointer, keyword, message });
    }

    static QString numberText(double value)
    {
        return QString::number(value, 'g', QLocale::FloatingPointShortest);
    }

    // A "$ref" into this document follows the renames: "#/definitions/a" is "#/$defs/a",
    // "#/items/1" (a tuple) is "#/prefixItems/1", "#/additionalItems" is "#/items".
    QString ref(const QString &target) const
    {
        const qsizetype hash = target.indexOf(u'#');
        if (hash < 0)
            return target;
        const QString base = target.left(hash);
        const QString fragment = target.mid(hash + 1);
        if (!fragment.startsWith(u'/') || (!base.isEmpty() && base != m_rootId))
            return target;
        enum class At { Schema, Name, Index, Other };
        At at = At::Schema;
        QJsonValue current = m_root;
        const QStringList tokens = fragment.mid(1).split(u'/');
        QStringList out;
        for (qsizetype i = 0; i < tokens.size(); ++i) {
            const QString &token = tokens.at(i);
            QString decoded = QUrl::fromPercentEncoding(token.toUtf8());
            decoded.replace(u"~1"_s, u"/"_s);
            decoded.replace(u"~0"_s, u"~"_s);
            QString written = token;
            At next = At::Other;
            switch (at) {
            case At::Schema: {
                const QJsonObject object = current.toObject();
                const bool tuple =
                    object.value("items"_L1).isArray() && m_from <= SchemaDialect::Draft201909;
                static const QSet<QString> maps { u"properties"_s, u"patternProperties"_s,
                                                  u"$defs"_s, u"dependentSchemas"_s };
                static const QSet<QString> arrays { u"allOf"_s, u"anyOf"_s, u"oneOf"_s,
                                                    u"prefixItems"_s };
                static const QSet<QString> single { u"additionalProperties"_s,
                                                    u"not"_s,
                                                    u"propertyNames"_s,
                                                    u"contains"_s,
                                                    u"if"_s,
                                                    u"then"_s,
                                                    u"else"_s,
                                                    u"unevaluatedItems"_s,
                                                    u"unevaluatedProperties"_s };
                if (decoded == u"definitions" && m_from <= SchemaDialect::Draft7) {
                    written = u"$defs"_s;
                    next = At::Name;
                } else if (decoded == u"items") {
                    written = tuple ? u"prefixItems"_s : u"items"_s;
                    next = tuple ? At::Index : At::Schema;
                } else if (decoded == u"additionalItems" && tuple) {
                    written = u"items"_s;
                    next = At::Schema;
                } else if (decoded == u"dependencies" && i + 1 < tokens.size()) {
                    const QJsonValue entry = object.value(decoded).toObject().value(
                        QUrl::fromPercentEncoding(tokens.at(i + 1).toUtf8())
                            .replace(u"~1"_s, u"/"_s)
                            .replace(u"~0"_s, u"~"_s));
                    written = entry.isArray() ? u"dependentRequired"_s : u"dependentSchemas"_s;
                    next = At::Name;
                } else if (maps.contains(decoded)) {
                    next = At::Name;
                } else if (arrays.contains(decoded)) {
                    next = At::Index;
                } else if (single.contains(decoded)) {
                    next = At::Schema;
                }
                current = object.value(decoded);
                break;
            }
            case At::Name:
                current = current.toObject().value(decoded);
                next = At::Schema;
                break;
            case At::Index:
                current = current.toArray().at(decoded.toInt());
                next = At::Schema;
                break;
            case At::Other:
                break;
            }
            out.append(written);
            at = next;
        }
        return base + u"#/"_s + out.join(u'/');
    }

    QJsonValue list(const QJsonValue &value, const QString &pointer)
    {
        if (!value.isArray())
            return value;
        const QJsonArray in = value.toArray();
        QJsonArray out;
        for (qsizetype i = 0; i < in.size(); ++i)
            out.append(schema(in.at(i), pointer + u'/' + QString::number(i)));
        return out;
    }

    QJsonValue map(const QJsonValue &value, const QString &pointer)
    {
        if (!value.isObject())
            return value;
        const QJsonObject in = value.toObject();
        QJsonObject out;
        for (auto it = in.constBegin(); it != in.constEnd(); ++it)
            out.insert(it.key(), schema(it.value(), JsonPointer::append(pointer, it.key())));
        return out;
    }

    // The value of `keyword`, with the subschemas it holds rewritten.
    QJsonValue subschemas(const QString &keyword, const QJsonValue &value, const QString &pointer)
    {
        static const QSet<QString> single { u"additionalProperties"_s,
                                            u"not"_s,
                                            u"propertyNames"_s,
                                            u"contains"_s,
                                            u"if"_s,
                                            u"then"_s,
                                            u"else"_s,
                                            u"items"_s,
                                            u"unevaluatedItems"_s,
                                            u"unevaluatedProperties"_s,
                                            u"contentSchema"_s };
        static const QSet<QString> arrays { u"allOf"_s, u"anyOf"_s, u"oneOf"_s, u"prefixItems"_s };
        static const QSet<QString> maps { u"properties"_s, u"patternProperties"_s, u"$defs"_s,
                                          u"dependentSchemas"_s };
        if (single.contains(keyword))
            return schema(value, pointer);
        if (arrays.contains(keyword))
            return list(value, pointer);
        if (maps.contains(keyword))
            return map(value, pointer);
        return value;
    }

    void identifier(const QString &key, const QString &id, const QString &pointer, QJsonObject &out)
    {
        const qsizetype hash = id.indexOf(u'#');
        const QString base = hash < 0 ? id : id.left(hash);
        const QString fragment = hash < 0 ? QString() : id.mid(hash + 1);
        if (!base.isEmpty())
            out.insert(u"$id"_s, base);
        if (!fragment.isEmpty() && !fragment.startsWith(u'/')) {
            out.insert(u"$anchor"_s, fragment);
            add(pointer, key,
                Tr::tr("an id with a fragment (%1) names a plain-name anchor; 2020-12 writes "
                       "\"$anchor\": \"%2\"")
                    .arg(u'"' + id + u'"', fragment));
        } else if (key == u"id") {
            add(pointer, key, Tr::tr("\"id\" is draft-04's spelling; 2020-12 writes \"$id\""));
        }
    }

    void definitions(const QJsonValue &value, const QString &pointer, QJsonObject &out)
    {
        QJsonObject defs = out.value("$defs"_L1).toObject();
        const QJsonObject upgraded =
            map(value, JsonPointer::append(pointer, u"definitions")).toObject();
        for (auto it = upgraded.constBegin(); it != upgraded.constEnd(); ++it)
            defs.insert(it.key(), it.value());
        out.insert(u"$defs"_s, defs);
        if (!m_renamedDefinitions || !m_lintOnly) {
            add(JsonPointer::append(pointer, u"definitions"), u"definitions"_s,
                Tr::tr("\"definitions\" is the keyword of drafts 4 to 7; 2020-12 writes \"$defs\" "
                       "(and "
                       "\"$ref\": \"#/$defs/...\")"));
        }
        m_renamedDefinitions = true;
    }

    void dependencies(const QJsonObject &value, const QString &pointer, QJsonObject &out)
    {
        QJsonObject required = out.value("dependentRequired"_L1).toObject();
        QJsonObject schemas = out.value("dependentSchemas"_L1).toObject();
        for (auto it = value.constBegin(); it != value.constEnd(); ++it) {
            if (it.value().isArray())
                required.insert(it.key(), it.value());
            else
                schemas.insert(it.key(),
                               schema(it.value(), JsonPointer::append(pointer, it.key())));
        }
        if (!required.isEmpty())
            out.insert(u"dependentRequired"_s, required);
        if (!schemas.isEmpty())
            out.insert(u"dependentSchemas"_s, schemas);
        add(pointer, u"dependencies"_s,
            Tr::tr(
                "\"dependencies\" is split in 2020-12: a list of names is \"dependentRequired\", a "
                "schema is "
                "\"dependentSchemas\""));
    }
};

// Whether `value` holds draft-04's boolean exclusive bounds anywhere.
bool hasBooleanBounds(const QJsonValue &value, int depth = 0)
{
    if (depth > 64)
        return false;
    if (value.isArray()) {
        for (const QJsonValue &item : value.toArray()) {
            if (hasBooleanBounds(item, depth + 1))
                return true;
        }
        return false;
    }
    if (!value.isObject())
        return false;
    const QJsonObject object = value.toObject();
    if (object.value("exclusiveMaximum"_L1).isBool()
        || object.value("exclusiveMinimum"_L1).isBool())
        return true;
    for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
        if (it.key() != u"enum" && it.key() != u"const" && hasBooleanBounds(it.value(), depth + 1))
            return true;
    }
    return false;
}

} // namespace

SchemaUpgrade upgradeSchema(const QJsonValue &schema, SchemaDialect from)
{
    Upgrader upgrader(schema, from, false);
    SchemaUpgrade out;
    out.schema = upgrader.schema(schema, QString());
    out.changes = upgrader.changes;
    return out;
}

QList<DialectRewrite> olderDraftForms(const QJsonObject &schema)
{
    if (schema.contains("$schema"_L1))
        return {};
    // The draft the author most likely had in mind: draft-04 when its boolean bounds or its
    // "id" show, draft-07 otherwise (its forms are those of drafts 6 and 4 too).
    const bool draft4 = hasBooleanBounds(schema) || schema.value("id"_L1).isString();
    Upgrader upgrader(schema, draft4 ? SchemaDialect::Draft4 : SchemaDialect::Draft7, true);
    upgrader.schema(schema, QString());
    return upgrader.changes;
}

} // namespace Callscope
