#include "ui/editor/schemafields.h"

#include <QJsonArray>
#include <QSet>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

using Type = SchemaFields::Type;
using Field = SchemaFields::Field;

void note(QStringList *unsupported, const QString &what)
{
    if (!unsupported->contains(what))
        unsupported->append(what);
}

// Reads the properties/required/additionalProperties of an object schema into fields.
void readObject(const QJsonObject &o, QList<Field> *fields, bool *closed, QStringList *unsupported);

std::optional<Type> readType(const QJsonObject &o, QStringList *unsupported,
                             bool *nullable = nullptr)
{
    if (!o.contains(u"type"_s))
        return Type::Any;
    QJsonValue t = o.value(u"type"_s);
    // [type, "null"] is the one list the builder shows (as "or null").
    if (nullable && t.isArray() && t.toArray().size() == 2 && t.toArray().at(1) == u"null"_s
        && t.toArray().at(0).isString() && t.toArray().at(0) != u"null"_s) {
        *nullable = true;
        t = t.toArray().at(0);
    }
    if (!t.isString()) {
        note(unsupported, u"type lists"_s);
        return std::nullopt;
    }
    const auto type = SchemaFields::typeFromName(t.toString());
    if (!type || *type == Type::Any) {
        note(unsupported, u"type \"%1\""_s.arg(t.toString()));
        return std::nullopt;
    }
    return type;
}

void readField(const QString &name, const QJsonValue &value, Field *f, QStringList *unsupported)
{
    f->name = name;
    f->required = false;
    if (!value.isObject()) {
        note(unsupported, u"boolean schemas"_s);
        return;
    }
    const QJsonObject o = value.toObject();
    const auto type = readType(o, unsupported, &f->nullable);
    if (!type)
        return;
    f->type = *type;
    static const QSet<QString> common { u"type"_s, u"description"_s };
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QString &key = it.key();
        if (common.contains(key))
            continue;
        if (key == u"enum" && f->type == Type::String)
            continue;
        if (f->type == Type::Object
            && (key == u"properties" || key == u"required" || key == u"additionalProperties"))
            continue;
        if (f->type == Type::Array && key == u"items")
            continue;
        note(unsupported, key);
    }
    if (o.contains(u"description"_s)) {
        if (o.value(u"description"_s).isString())
            f->description = o.value(u"description"_s).toString();
        else
            note(unsupported, u"description"_s);
    }
    if (o.contains(u"enum"_s) && f->type == Type::String) {
        QJsonArray values = o.value(u"enum"_s).toArray();
        bool ok = o.value(u"enum"_s).isArray();
        // A field that may be null lists null among its values, last.
        if (f->nullable && !values.isEmpty() && values.last().isNull())
            values.removeLast();
        ok = ok && !values.isEmpty();
        for (const QJsonValue &v : std::as_const(values)) {
            const QString s = v.toString();
            // Shown comma-separated: a value with a comma or outer spaces would not come back.
            ok = ok && v.isString() && !s.contains(u',') && s == s.trimmed() && !s.isEmpty();
            f->enumValues.append(s);
        }
        if (!ok)
            note(unsupported, u"enum"_s);
    }
    if (f->type == Type::Object) {
        readObject(o, &f->children, &f->closed, unsupported);
    } else if (f->type == Type::Array && o.contains(u"items"_s)) {
        const QJsonValue items = o.value(u"items"_s);
        if (!items.isObject()) {
            note(unsupported, u"items"_s);
            return;
        }
        const QJsonObject io = items.toObject();
        const auto itemType = readType(io, unsupported);
        if (!itemType)
            return;
        if (*itemType == Type::Array)
            note(unsupported, u"arrays of arrays"_s);
        f->itemType = *itemType;
        for (auto it = io.begin(); it != io.end(); ++it) {
            const QString &key = it.key();
            if (key == u"type")
                continue;
            if (f->itemType == Type::Object
                && (key == u"properties" || key == u"required" || key == u"additionalProperties"))
                continue;
            note(unsupported, key == u"description" ? u"item descriptions"_s : key);
        }
        if (f->itemType == Type::Object)
            readObject(io, &f->children, &f->closed, unsupported);
    }
}

void readObject(const QJsonObject &o, QList<Field> *fields, bool *closed, QStringList *unsupported)
{
    *closed = false;
    if (o.contains(u"additionalProperties"_s)) {
        const QJsonValue ap = o.value(u"additionalProperties"_s);
        if (ap.isBool() && !ap.toBool())
            *closed = true;
        else
            note(unsupported, u"additionalProperties"_s);
    }
    const QJsonValue props = o.value(u"properties"_s);
    if (o.contains(u"properties"_s) && !props.isObject())
        note(unsupported, u"properties"_s);
    const QJsonObject p = props.toObject();
    for (auto it = p.begin(); it != p.end(); ++it) {
        Field f;
        readField(it.key(), it.value(), &f, unsupported);
        fields->append(f);
    }
    if (o.contains(u"required"_s)) {
        const QJsonValue r = o.value(u"required"_s);
        if (!r.isArray()) {
            note(unsupported, u"required"_s);
            return;
        }
        QSet<QString> seen;
        for (const QJsonValue &v : r.toArray()) {
            const QString name = v.toString();
            bool found = false;
            for (Field &f : *fields) {
                if (f.name == name) {
                    f.required = true;
                    found = true;
                }
            }
            if (!v.isString() || !found || seen.contains(name))
                note(unsupported, u"required names that are not fields"_s);
            seen.insert(name);
        }
    }
}

QJsonObject writeObject(const QList<Field> &fields, bool closed);

QJsonObject writeField(const Field &f)
{
    QJsonObject o;
    if (f.type != Type::Any && f.nullable)
        o.insert(u"type"_s, QJsonArray { SchemaFields::typeName(f.type), u"null"_s });
    else if (f.type != Type::Any)
        o.insert(u"type"_s, SchemaFields::typeName(f.type));
    if (!f.description.isEmpty())
        o.insert(u"description"_s, f.description);
    if (f.type == Type::String && !f.enumValues.isEmpty()) {
        QJsonArray values = QJsonArray::fromStringList(f.enumValues);
        if (f.nullable)
            values.append(QJsonValue::Null);
        o.insert(u"enum"_s, values);
    }
    if (f.type == Type::Object) {
        const QJsonObject obj = writeObject(f.children, f.closed);
        for (auto it = obj.begin(); it != obj.end(); ++it) {
            if (it.key() != u"type")
                o.insert(it.key(), it.value());
        }
    } else if (f.type == Type::Array && f.itemType != Type::Any) {
        QJsonObject items { { u"type"_s, SchemaFields::typeName(f.itemType) } };
        if (f.itemType == Type::Object) {
            const QJsonObject obj = writeObject(f.children, f.closed);
            for (auto it = obj.begin(); it != obj.end(); ++it)
                items.insert(it.key(), it.value());
        }
        o.insert(u"items"_s, items);
    }
    return o;
}

QJsonObject writeObject(const QList<Field> &fields, bool closed)
{
    QJsonObject o { { u"type"_s, u"object"_s } };
    QJsonObject props;
    QJsonArray required;
    for (const Field &f : fields) {
        props.insert(f.name, writeField(f));
        if (f.required)
            required.append(f.name);
    }
    o.insert(u"properties"_s, props);
    if (!required.isEmpty())
        o.insert(u"required"_s, required);
    if (closed)
        o.insert(u"additionalProperties"_s, false);
    return o;
}

// The order of "required" carries no meaning; compare schemas with it sorted.
QJsonValue normalised(const QJsonValue &v)
{
    if (v.isArray()) {
        QJsonArray out;
        for (const QJsonValue &x : v.toArray())
            out.append(normalised(x));
        return out;
    }
    if (!v.isObject())
        return v;
    QJsonObject o = v.toObject();
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (it.key() == u"required" && it.value().isArray()) {
            QStringList names;
            for (const QJsonValue &x : it.value().toArray())
                names.append(x.toString());
            names.sort();
            it.value() = QJsonArray::fromStringList(names);
        } else {
            it.value() = normalised(it.value());
        }
    }
    return o;
}

} // namespace

SchemaFields::Parsed SchemaFields::fromSchema(const QJsonObject &schema)
{
    Parsed out;
    const QJsonValue rootType = schema.value(u"type"_s);
    // A word that is no JSON Schema type is named as it is written (a typo shows as such).
    if (rootType.isString() && rootType != u"object"_s && !typeFromName(rootType.toString()))
        note(&out.unsupported, u"type \"%1\""_s.arg(rootType.toString()));
    else if (rootType != u"object"_s)
        note(&out.unsupported, u"a root that is not an object"_s);
    for (auto it = schema.begin(); it != schema.end(); ++it) {
        static const QSet<QString> rootKeys { u"type"_s, u"properties"_s, u"required"_s,
                                              u"additionalProperties"_s };
        if (!rootKeys.contains(it.key()))
            note(&out.unsupported, it.key());
    }
    readObject(schema, &out.fields, &out.closed, &out.unsupported);
    // Whatever the checks above missed: the builder must write back exactly what it read.
    if (out.unsupported.isEmpty()
        && normalised(toSchema(out.fields, out.closed)) != normalised(schema))
        note(&out.unsupported, u"forms the builder would rewrite"_s);
    return out;
}

QJsonObject SchemaFields::toSchema(const QList<Field> &fields, bool closed)
{
    return writeObject(fields, closed);
}

QString SchemaFields::typeName(Type type)
{
    switch (type) {
    case Type::Any:
        return {};
    case Type::String:
        return u"string"_s;
    case Type::Number:
        return u"number"_s;
    case Type::Integer:
        return u"integer"_s;
    case Type::Boolean:
        return u"boolean"_s;
    case Type::Object:
        return u"object"_s;
    case Type::Array:
        return u"array"_s;
    }
    return {};
}

std::optional<SchemaFields::Type> SchemaFields::typeFromName(const QString &name)
{
    for (Type t : allTypes()) {
        if (typeName(t) == name)
            return t;
    }
    return std::nullopt;
}

QList<SchemaFields::Type> SchemaFields::allTypes()
{
    return { Type::String, Type::Number, Type::Integer, Type::Boolean,
             Type::Object, Type::Array,  Type::Any };
}

} // namespace Callscope
