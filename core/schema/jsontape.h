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
                std::uint32_t hash;   // String: hashBytes() of its UTF-8 bytes
            } ref;
        };
        Node() : number(0) {}
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
        return {m_chars.data() + n.ref.offset, n.size};
    }
    // The index just past the subtree that starts at `index`.
    qsizetype next(qsizetype index) const
    {
        const Node &n = m_nodes[size_t(index)];
        return n.type == Type::Array || n.type == Type::Object ? qsizetype(n.ref.offset) : index + 1;
    }

    QJsonValue toValue(qsizetype index) const;

    static std::uint32_t hashBytes(const char *data, size_t size);

private:
    void appendQt(const QJsonValue &value);
    void appendString(QStringView text);

    std::vector<Node> m_nodes;
    std::vector<char> m_chars;
    std::vector<std::uint32_t> m_stack;
};

} // namespace Callscope
