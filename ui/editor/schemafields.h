#pragma once

// The common case of a response schema as a list of fields, and back. Plain data, no widgets:
// the schema builder shows this, and the tests check the round trip without a window.

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace Callscope {

class SchemaFields
{
public:
    enum class Type { Any, String, Number, Integer, Boolean, Object, Array };

    struct Field
    {
        QString name;
        Type type = Type::String;
        bool required = true;
        bool nullable = false; // "type": [type, "null"]: the answer may give null instead
        QString description;
        QStringList enumValues; // strings only
        Type itemType = Type::Any; // arrays only
        // Object fields and arrays of objects: the properties of the object (the item's for an
        // array).
        QList<Field> children;
        // additionalProperties: false on that object (absent when false here).
        bool closed = true;

        bool hasChildren() const
        {
            return type == Type::Object || (type == Type::Array && itemType == Type::Object);
        }
        bool operator==(const Field &) const = default;
    };

    struct Parsed
    {
        QList<Field> fields;
        bool closed = true; // the root object's additionalProperties: false
        // Keywords or forms the builder cannot show; empty when the schema is fully represented.
        QStringList unsupported;
        bool representable() const { return unsupported.isEmpty(); }
    };

    static Parsed fromSchema(const QJsonObject &schema);
    static QJsonObject toSchema(const QList<Field> &fields, bool closed = true);

    static QString typeName(Type type); // JSON Schema word; "" for Any
    static std::optional<Type> typeFromName(const QString &name);
    static QList<Type> allTypes();
};

} // namespace Callscope
