#pragma once

// A read-only JSON document in one flat array of nodes (a "tape"), parsed straight from UTF-8.
//
// The validator walks this form instead of QJsonValue: a node is 16 bytes, a string is a view
// into one character buffer with its hash computed while parsing, a container knows where its
// subtree ends, so walking allocates nothing. A tape may hold many documents one after another
// (append() returns each root); clear() keeps the capacity, so parsing the next document into the
// same tape allocates nothing either. The rest of the code stays on Qt's JSON types: toValue()
// and fromValue() convert.

#include <QByteArrayView>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <cstdint>
#include <string_view>
#include <vector>

namespace Callscope {

class JsonTape
{
public:
    enum class Type : std::uint8_t { Null, False, True, Number, String, Array, Object };

    struct Node
    {
        Type type = Type::Null;
        // String: byte length; Array: item count; Object: member count.
        std::uint32_t size = 0;
        union {
            double number;
            struct
            {
                std::uint32_t offset; // String: into the character buffer; containers: end index
                std::uint32_t hash; // String: hashBytes() of its UTF-8 bytes
            } ref;
        };
        Node()
            : number(0)
        { }
    };
    static_assert(sizeof(Node) == 16);

    struct ParseError
    {
        qsizetype offset = -1; // byte offset of the problem, -1 when none
        QString message;
    };

    JsonTape() = default;

    // Containers nested deeper than this are refused, as Qt's parser refuses them.
    static constexpr size_t MaxDepth = 1024;

    // Parses one document (any JSON value, surrounded by whitespace only) and appends it. Returns
    // the index of its root node, or -1 (the tape is left as it was; `error` says why).
    qsizetype append(QByteArrayView json, ParseError *error = nullptr);
    // Appends `value` (members in QJsonObject's order; numbers as toDouble() gives them).
    qsizetype appendValue(const QJsonValue &value);
    void clear();
    void shrinkToFit();

    const Node &node(qsizetype index) const { return m_nodes[size_t(index)]; }
    qsizetype nodeCount() const { return qsizetype(m_nodes.size()); }
    // Bytes of string and number text held (names, strings, number spellings).
    qsizetype textBytes() const { return qsizetype(m_chars.size()); }
    std::string_view string(qsizetype index) const
    {
        const Node &n = m_nodes[size_t(index)];
        return { m_chars.data() + n.ref.offset, n.size };
    }
    // The index just past the subtree that starts at `index`.
    qsizetype next(qsizetype index) const
    {
        const Node &n = m_nodes[size_t(index)];
        return n.type == Type::Array || n.type == Type::Object ? qsizetype(n.ref.offset)
                                                               : index + 1;
    }

    QJsonValue toValue(qsizetype index) const;

    static std::uint32_t hashBytes(const char *data, size_t size);

    // The text of a String node as a QString.
    QString text(qsizetype index) const;

private:
    void appendQt(const QJsonValue &value);
    void appendString(QStringView text);

    std::vector<Node> m_nodes;
    std::vector<char> m_chars;
    std::vector<std::uint32_t> m_stack;
};

// A value on a tape, read the way QJsonValue / QJsonObject / QJsonArray are read: value(key) of
// a non-object, or of a missing key, is undefined; toString() of a non-string is empty; an
// array iterates its items. Reading copies nothing but the strings asked for, which is what
// the stream assemblers want for the many small events of a stream. The tape must outlive it.
class JsonRef
{
public:
    JsonRef() = default;
    JsonRef(const JsonTape *tape, qsizetype index)
        : m_tape(index >= 0 ? tape : nullptr)
        , m_index(index)
    { }

    bool isUndefined() const { return !m_tape; }
    bool isNull() const { return is(JsonTape::Type::Null); }
    bool isBool() const { return is(JsonTape::Type::True) || is(JsonTape::Type::False); }
    bool isDouble() const { return is(JsonTape::Type::Number); }
    bool isString() const { return is(JsonTape::Type::String); }
    bool isArray() const { return is(JsonTape::Type::Array); }
    bool isObject() const { return is(JsonTape::Type::Object); }

    // The member named `key` (the last one, as Qt's parser keeps, when a name repeats).
    JsonRef value(QStringView key) const;
    JsonRef value(QLatin1StringView key) const;
    // Same as value(): kept so code written against QJsonValue reads the same.
    JsonRef toObject() const { return isObject() ? *this : JsonRef(); }
    JsonRef toArray() const { return isArray() ? *this : JsonRef(); }

    QString toString(const QString &defaultValue = QString()) const;
    std::string_view utf8() const
    {
        return isString() ? m_tape->string(m_index) : std::string_view();
    }
    double toDouble(double defaultValue = 0) const;
    int toInt(int defaultValue = 0) const;
    bool toBool(bool defaultValue = false) const;
    // Members or items; 0 for a scalar.
    qsizetype size() const
    {
        return isArray() || isObject() ? qsizetype(m_tape->node(m_index).size) : 0;
    }

    // Conversions for the rare parts kept as Qt values.
    QJsonValue toQt() const
    {
        return m_tape ? m_tape->toValue(m_index) : QJsonValue(QJsonValue::Undefined);
    }
    QJsonObject toQtObject() const { return isObject() ? toQt().toObject() : QJsonObject(); }

    // Iterates the items of an array (nothing for anything else).
    class const_iterator
    {
    public:
        const_iterator(const JsonTape *tape, qsizetype index)
            : m_tape(tape)
            , m_index(index)
        { }
        JsonRef operator*() const { return JsonRef(m_tape, m_index); }
        const_iterator &operator++()
        {
            m_index = m_tape->next(m_index);
            return *this;
        }
        bool operator!=(const const_iterator &other) const { return m_index != other.m_index; }

    private:
        const JsonTape *m_tape;
        qsizetype m_index;
    };
    const_iterator begin() const { return isArray() ? const_iterator(m_tape, m_index + 1) : end(); }
    const_iterator end() const
    {
        return isArray() ? const_iterator(m_tape, m_tape->next(m_index))
                         : const_iterator(nullptr, -1);
    }

private:
    bool is(JsonTape::Type type) const { return m_tape && m_tape->node(m_index).type == type; }
    template<typename Equal> JsonRef find(Equal &&equal) const;

    const JsonTape *m_tape = nullptr;
    qsizetype m_index = -1;
};

} // namespace Callscope
