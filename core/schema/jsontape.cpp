#include "core/schema/jsontape.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonObject>
#include <QStringDecoder>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(JsonTape)
};

// QString::fromUtf8 drops a byte order mark at the start of its input, which would lose a U+FEFF
// that opens a JSON string; the string is the model's text, so every character stays.
QString stringFromUtf8(std::string_view text)
{
    if (text.size() >= 3 && std::memcmp(text.data(), "\xEF\xBB\xBF", 3) == 0) {
        QStringDecoder decoder(QStringConverter::Utf8, QStringConverter::Flag::ConvertInitialBom);
        return decoder.decode(QByteArrayView(text.data(), qsizetype(text.size())));
    }
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

inline bool isSpace(unsigned char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

inline bool isDigit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

// At most 4 bytes, never more than the escape it replaces (6 or 12 bytes).
char *appendUtf8(char *out, char32_t cp)
{
    if (cp < 0x80) {
        *out++ = char(cp);
    } else if (cp < 0x800) {
        *out++ = char(0xC0 | (cp >> 6));
        *out++ = char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        *out++ = char(0xE0 | (cp >> 12));
        *out++ = char(0x80 | ((cp >> 6) & 0x3F));
        *out++ = char(0x80 | (cp & 0x3F));
    } else {
        *out++ = char(0xF0 | (cp >> 18));
        *out++ = char(0x80 | ((cp >> 12) & 0x3F));
        *out++ = char(0x80 | ((cp >> 6) & 0x3F));
        *out++ = char(0x80 | (cp & 0x3F));
    }
    return out;
}

int hexValue(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// Length of the valid UTF-8 sequence at `p` (lead byte >= 0x80), 0 when it is not valid.
size_t utf8Sequence(const unsigned char *p, const unsigned char *end)
{
    const unsigned char c = p[0];
    auto cont = [&](size_t i) {
        return p + i < end && (p[i] & 0xC0) == 0x80;
    };
    if (c >= 0xC2 && c <= 0xDF)
        return cont(1) ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        if (!cont(1) || !cont(2))
            return 0;
        if (c == 0xE0 && p[1] < 0xA0)
            return 0; // overlong
        if (c == 0xED && p[1] >= 0xA0)
            return 0; // a surrogate
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (!cont(1) || !cont(2) || !cont(3))
            return 0;
        if (c == 0xF0 && p[1] < 0x90)
            return 0;
        if (c == 0xF4 && p[1] >= 0x90)
            return 0;
        return 4;
    }
    return 0;
}

class Parser
{
public:
    // `chars` points at room for json.size() bytes (decoded strings are never longer than
    // their source); `charBase` is the start of the tape's character buffer.
    Parser(std::vector<JsonTape::Node> &nodes, char *charBase, char *chars,
           std::vector<std::uint32_t> &stack, QByteArrayView json)
        : m_nodes(nodes)
        , m_charBase(charBase)
        , m_out(chars)
        , m_stack(stack)
        , m_begin(reinterpret_cast<const unsigned char *>(json.data()))
        , m_p(m_begin)
        , m_end(m_begin + json.size())
    { }

    bool run();
    // One past the last character written.
    const char *charsEnd() const { return m_out; }

    qsizetype errorOffset = -1;
    QString errorMessage;

private:
    std::vector<JsonTape::Node> &m_nodes;
    char *m_charBase;
    char *m_out;
    std::vector<std::uint32_t> &m_stack;
    const unsigned char *m_begin;
    const unsigned char *m_p;
    const unsigned char *m_end;

    bool fail(const unsigned char *where, const QString &message)
    {
        errorOffset = where - m_begin;
        errorMessage = message;
        return false;
    }
    void skipSpace()
    {
        while (m_p < m_end && isSpace(*m_p))
            ++m_p;
    }
    bool parseString();
    bool parseNumber();
    bool parseLiteral(const char *word, size_t length, JsonTape::Type type);
};

bool Parser::parseString()
{
    // m_p is at the opening quote.
    const unsigned char *start = m_p;
    ++m_p;
    char *const first = m_out;
    for (;;) {
        const unsigned char *run = m_p;
        while (m_p < m_end && *m_p != '"' && *m_p != '\\' && *m_p >= 0x20 && *m_p < 0x80)
            ++m_p;
        if (m_p > run) {
            std::memcpy(m_out, run, size_t(m_p - run));
            m_out += m_p - run;
        }
        if (m_p >= m_end)
            return fail(start, Tr::tr("unterminated string"));
        const unsigned char c = *m_p;
        if (c == '"') {
            ++m_p;
            break;
        }
        if (c < 0x20)
            return fail(m_p, Tr::tr("control character in a string"));
        if (c >= 0x80) {
            const size_t length = utf8Sequence(m_p, m_end);
            if (length == 0)
                return fail(m_p, Tr::tr("invalid UTF-8 in a string"));
            std::memcpy(m_out, m_p, length);
            m_out += length;
            m_p += length;
            continue;
        }
        // An escape.
        if (m_p + 1 >= m_end)
            return fail(m_p, Tr::tr("unterminated string"));
        const unsigned char e = m_p[1];
        m_p += 2;
        switch (e) {
        case '"':
            *m_out++ = '"';
            break;
        case '\\':
            *m_out++ = '\\';
            break;
        case '/':
            *m_out++ = '/';
            break;
        case 'b':
            *m_out++ = '\b';
            break;
        case 'f':
            *m_out++ = '\f';
            break;
        case 'n':
            *m_out++ = '\n';
            break;
        case 'r':
            *m_out++ = '\r';
            break;
        case 't':
            *m_out++ = '\t';
            break;
        case 'u': {
            auto hex4 = [&](const unsigned char *at) -> int {
                if (at + 4 > m_end)
                    return -1;
                int v = 0;
                for (int i = 0; i < 4; ++i) {
                    const int h = hexValue(at[i]);
                    if (h < 0)
                        return -1;
                    v = v * 16 + h;
                }
                return v;
            };
            const int unit = hex4(m_p);
            if (unit < 0)
                return fail(m_p - 2, Tr::tr("invalid \\u escape"));
            m_p += 4;
            char32_t cp = char32_t(unit);
            if (unit >= 0xD800 && unit <= 0xDBFF) {
                const int low =
                    (m_p + 6 <= m_end && m_p[0] == '\\' && m_p[1] == 'u') ? hex4(m_p + 2) : -1;
                if (low >= 0xDC00 && low <= 0xDFFF) {
                    cp = 0x10000 + ((char32_t(unit) - 0xD800) << 10) + (char32_t(low) - 0xDC00);
                    m_p += 6;
                } else {
                    cp = 0xFFFD; // a lone surrogate has no UTF-8 form
                }
            } else if (unit >= 0xDC00 && unit <= 0xDFFF) {
                cp = 0xFFFD;
            }
            m_out = appendUtf8(m_out, cp);
            break;
        }
        default:
            return fail(m_p - 2, Tr::tr("invalid escape sequence"));
        }
    }
    const size_t length = size_t(m_out - first);
    const size_t offset = size_t(first - m_charBase);
    if (length > 0xFFFFFFFFu || offset > 0xFFFFFFFFu)
        return fail(start, Tr::tr("document too large"));
    JsonTape::Node &node = m_nodes.emplace_back();
    node.type = JsonTape::Type::String;
    node.size = std::uint32_t(length);
    node.ref.offset = std::uint32_t(offset);
    node.ref.hash = JsonTape::hashBytes(first, length);
    return true;
}

bool Parser::parseNumber()
{
    const unsigned char *start = m_p;
    if (m_p < m_end && *m_p == '-')
        ++m_p;
    if (m_p >= m_end || !isDigit(*m_p))
        return fail(start, Tr::tr("invalid number"));
    bool simple = true; // digits only: exact when short
    std::uint64_t integer = 0;
    int digitCount = 0;
    if (*m_p == '0') {
        ++m_p;
        digitCount = 1;
    } else {
        while (m_p < m_end && isDigit(*m_p)) {
            integer = integer * 10 + (*m_p - '0');
            ++digitCount;
            ++m_p;
        }
    }
    if (m_p < m_end && *m_p == '.') {
        simple = false;
        ++m_p;
        if (m_p >= m_end || !isDigit(*m_p))
            return fail(start, Tr::tr("invalid number"));
        while (m_p < m_end && isDigit(*m_p))
            ++m_p;
    }
    if (m_p < m_end && (*m_p == 'e' || *m_p == 'E')) {
        simple = false;
        ++m_p;
        if (m_p < m_end && (*m_p == '+' || *m_p == '-'))
            ++m_p;
        if (m_p >= m_end || !isDigit(*m_p))
            return fail(start, Tr::tr("invalid number"));
        while (m_p < m_end && isDigit(*m_p))
            ++m_p;
    }
    double value = 0;
    if (simple && digitCount <= 15) {
        value = double(integer);
        if (*start == '-')
            value = -value;
    } else {
        const auto result = std::from_chars(reinterpret_cast<const char *>(start),
                                            reinterpret_cast<const char *>(m_p), value);
        if (result.ec != std::errc() || result.ptr != reinterpret_cast<const char *>(m_p))
            return fail(start, Tr::tr("number out of range"));
    }
    JsonTape::Node &node = m_nodes.emplace_back();
    node.type = JsonTape::Type::Number;
    node.number = value;
    return true;
}

bool Parser::parseLiteral(const char *word, size_t length, JsonTape::Type type)
{
    if (size_t(m_end - m_p) < length || std::memcmp(m_p, word, length) != 0)
        return fail(m_p, Tr::tr("invalid value"));
    m_p += length;
    m_nodes.emplace_back().type = type;
    return true;
}

bool Parser::run()
{
    const size_t stackBase = m_stack.size();
    auto closeContainer = [&] {
        JsonTape::Node &container = m_nodes[m_stack.back()];
        container.ref.offset = std::uint32_t(m_nodes.size());
        m_stack.pop_back();
    };
    auto parseKey = [&]() -> bool {
        skipSpace();
        if (m_p >= m_end || *m_p != '"')
            return fail(m_p, Tr::tr("expected a member name"));
        if (!parseString())
            return false;
        skipSpace();
        if (m_p >= m_end || *m_p != ':')
            return fail(m_p, Tr::tr("expected ':'"));
        ++m_p;
        return true;
    };

    for (;;) {
        // A value.
        skipSpace();
        if (m_p >= m_end)
            return fail(m_p, Tr::tr("unexpected end of the document"));
        if (m_nodes.size() >= 0xFFFFFFF0u)
            return fail(m_p, Tr::tr("document too large"));
        const unsigned char c = *m_p;
        bool opened = false;
        switch (c) {
        case '{':
        case '[': {
            if (m_stack.size() - stackBase >= JsonTape::MaxDepth)
                return fail(m_p, Tr::tr("too deeply nested document"));
            JsonTape::Node &node = m_nodes.emplace_back();
            node.type = c == '{' ? JsonTape::Type::Object : JsonTape::Type::Array;
            node.size = 0;
            node.ref.offset = 0;
            m_stack.push_back(std::uint32_t(m_nodes.size() - 1));
            ++m_p;
            skipSpace();
            if (m_p < m_end && *m_p == (c == '{' ? '}' : ']')) {
                ++m_p;
                closeContainer();
            } else {
                opened = true;
                if (c == '{' && !parseKey())
                    return false;
            }
            break;
        }
        case '"':
            if (!parseString())
                return false;
            break;
        case 't':
            if (!parseLiteral("true", 4, JsonTape::Type::True))
                return false;
            break;
        case 'f':
            if (!parseLiteral("false", 5, JsonTape::Type::False))
                return false;
            break;
        case 'n':
            if (!parseLiteral("null", 4, JsonTape::Type::Null))
                return false;
            break;
        default:
            if (c == '-' || isDigit(c)) {
                if (!parseNumber())
                    return false;
            } else {
                return fail(m_p, Tr::tr("invalid value"));
            }
        }
        if (opened)
            continue;

        // After a complete value: close what ends here, then find the next value.
        for (;;) {
            if (m_stack.size() == stackBase) {
                skipSpace();
                if (m_p != m_end)
                    return fail(m_p, Tr::tr("garbage after the document"));
                return true;
            }
            JsonTape::Node &container = m_nodes[m_stack.back()];
            ++container.size;
            skipSpace();
            if (m_p >= m_end)
                return fail(m_p, Tr::tr("unexpected end of the document"));
            const bool isObject = container.type == JsonTape::Type::Object;
            if (*m_p == ',') {
                ++m_p;
                if (isObject && !parseKey())
                    return false;
                break; // the next value
            }
            if (*m_p == (isObject ? '}' : ']')) {
                ++m_p;
                closeContainer();
                continue;
            }
            return fail(m_p,
                        isObject ? Tr::tr("expected ',' or '}'") : Tr::tr("expected ',' or ']'"));
        }
    }
}

} // namespace

std::uint32_t JsonTape::hashBytes(const char *data, size_t size)
{
    // Eight bytes a step; good enough to tell member names and enum values apart.
    std::uint64_t h = 0x9E3779B97F4A7C15ull ^ size;
    while (size >= 8) {
        std::uint64_t word;
        std::memcpy(&word, data, 8);
        h = (h ^ word) * 0xFF51AFD7ED558CCDull;
        h ^= h >> 32;
        data += 8;
        size -= 8;
    }
    if (size > 0) {
        std::uint64_t word = 0;
        std::memcpy(&word, data, size);
        h = (h ^ word) * 0xC4CEB9FE1A85EC53ull;
        h ^= h >> 29;
    }
    return std::uint32_t(h ^ (h >> 32));
}

qsizetype JsonTape::append(QByteArrayView json, ParseError *error)
{
    const size_t nodeMark = m_nodes.size();
    const size_t charMark = m_chars.size();
    const size_t stackMark = m_stack.size();
    const size_t wanted = nodeMark + size_t(json.size() / 8) + 4;
    if (m_nodes.capacity() < wanted)
        m_nodes.reserve(std::max(wanted, m_nodes.capacity() * 2));
    m_chars.resize(charMark + size_t(json.size()));
    Parser parser(m_nodes, m_chars.data(), m_chars.data() + charMark, m_stack, json);
    const bool ok = parser.run();
    if (!ok) {
        m_nodes.resize(nodeMark);
        m_chars.resize(charMark);
        m_stack.resize(stackMark);
        if (error)
            *error = { parser.errorOffset, parser.errorMessage };
        return -1;
    }
    m_chars.resize(size_t(parser.charsEnd() - m_chars.data()));
    if (error)
        *error = {};
    return qsizetype(nodeMark);
}

qsizetype JsonTape::appendValue(const QJsonValue &value)
{
    const qsizetype root = nodeCount();
    appendQt(value);
    return root;
}

void JsonTape::appendString(QStringView text)
{
    // UTF-16 to UTF-8 (a lone surrogate becomes U+FFFD, as in the parser).
    // Sized exactly: a worst-case reservation (3 bytes a unit) of a long string would triple it.
    size_t bytes = 0;
    for (const QChar c : text) {
        const char16_t unit = c.unicode();
        bytes += unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3;
    }
    const size_t offset = m_chars.size();
    m_chars.resize(offset + bytes);
    char *out = m_chars.data() + offset;
    const char16_t *p = text.utf16();
    const char16_t *end = p + text.size();
    while (p < end) {
        char32_t cp = *p++;
        if (cp < 0x80) {
            *out++ = char(cp);
            continue;
        }
        if (QChar::isHighSurrogate(cp)) {
            if (p < end && QChar::isLowSurrogate(*p))
                cp = QChar::surrogateToUcs4(char16_t(cp), *p++);
            else
                cp = 0xFFFD;
        } else if (QChar::isLowSurrogate(cp)) {
            cp = 0xFFFD;
        }
        out = appendUtf8(out, cp);
    }
    const size_t length = size_t(out - (m_chars.data() + offset));
    m_chars.resize(offset + length);
    Node &node = m_nodes.emplace_back();
    node.type = Type::String;
    node.size = std::uint32_t(length);
    node.ref.offset = std::uint32_t(offset);
    node.ref.hash = hashBytes(m_chars.data() + offset, length);
}

void JsonTape::appendQt(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Bool:
        m_nodes.emplace_back().type = value.toBool() ? Type::True : Type::False;
        return;
    case QJsonValue::Double: {
        Node &node = m_nodes.emplace_back();
        node.type = Type::Number;
        node.number = value.toDouble();
        return;
    }
    case QJsonValue::String:
        appendString(value.toString());
        return;
    case QJsonValue::Array: {
        const size_t index = m_nodes.size();
        m_nodes.emplace_back().type = Type::Array;
        const QJsonArray array = value.toArray();
        for (const QJsonValue &item : array)
            appendQt(item);
        m_nodes[index].size = std::uint32_t(array.size());
        m_nodes[index].ref.offset = std::uint32_t(m_nodes.size());
        return;
    }
    case QJsonValue::Object: {
        const size_t index = m_nodes.size();
        m_nodes.emplace_back().type = Type::Object;
        const QJsonObject object = value.toObject();
        for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
            appendString(it.key());
            appendQt(it.value());
        }
        m_nodes[index].size = std::uint32_t(object.size());
        m_nodes[index].ref.offset = std::uint32_t(m_nodes.size());
        return;
    }
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        break;
    }
    m_nodes.emplace_back().type = Type::Null;
}

void JsonTape::clear()
{
    m_nodes.clear();
    m_chars.clear();
    m_stack.clear();
}

void JsonTape::shrinkToFit()
{
    m_nodes.shrink_to_fit();
    m_chars.shrink_to_fit();
    m_stack.shrink_to_fit();
}

QJsonValue JsonTape::toValue(qsizetype index) const
{
    const Node &n = node(index);
    switch (n.type) {
    case Type::Null:
        return QJsonValue(QJsonValue::Null);
    case Type::False:
        return false;
    case Type::True:
        return true;
    case Type::Number:
        // Qt keeps integers as integers (and writes them without an exponent).
        if (n.number == std::floor(n.number) && std::fabs(n.number) < 9007199254740992.0)
            return qint64(n.number);
        return n.number;
    case Type::String: {
        return stringFromUtf8(string(index));
    }
    case Type::Array: {
        QJsonArray array;
        for (qsizetype child = index + 1; child < qsizetype(n.ref.offset); child = next(child))
            array.append(toValue(child));
        return array;
    }
    case Type::Object: {
        QJsonObject object;
        for (qsizetype key = index + 1; key < qsizetype(n.ref.offset);) {
            const std::string_view name = string(key);
            object.insert(stringFromUtf8(name), toValue(key + 1));
            key = next(key + 1);
        }
        return object;
    }
    }
    return {};
}

QString JsonTape::text(qsizetype index) const
{
    return stringFromUtf8(string(index));
}

// ---- JsonRef ------------------------------------------------------------------------------

template<typename Equal> JsonRef JsonRef::find(Equal &&equal) const
{
    if (!isObject())
        return {};
    qsizetype found = -1;
    const qsizetype end = m_tape->next(m_index);
    for (qsizetype key = m_index + 1; key < end; key = m_tape->next(key + 1)) {
        if (equal(m_tape->string(key)))
            found = key + 1;
    }
    return found < 0 ? JsonRef() : JsonRef(m_tape, found);
}

JsonRef JsonRef::value(QStringView key) const
{
    return find([key](std::string_view name) {
        // Member names asked for are ASCII; a name with other bytes never equals one.
        if (qsizetype(name.size()) != key.size())
            return false;
        for (qsizetype i = 0; i < key.size(); ++i) {
            if (char16_t(static_cast<unsigned char>(name[size_t(i)])) != key[i].unicode())
                return false;
        }
        return true;
    });
}

JsonRef JsonRef::value(QLatin1StringView key) const
{
    return find([key](std::string_view name) {
        return qsizetype(name.size()) == key.size()
            && std::memcmp(name.data(), key.data(), name.size()) == 0;
    });
}

QString JsonRef::toString(const QString &defaultValue) const
{
    return isString() ? m_tape->text(m_index) : defaultValue;
}

double JsonRef::toDouble(double defaultValue) const
{
    return isDouble() ? m_tape->node(m_index).number : defaultValue;
}

int JsonRef::toInt(int defaultValue) const
{
    if (!isDouble())
        return defaultValue;
    const double n = m_tape->node(m_index).number;
    if (n != std::floor(n) || n < double(std::numeric_limits<int>::min())
        || n > double(std::numeric_limits<int>::max()))
        return defaultValue;
    return int(n);
}

bool JsonRef::toBool(bool defaultValue) const
{
    if (is(JsonTape::Type::True))
        return true;
    if (is(JsonTape::Type::False))
        return false;
    return defaultValue;
}

} // namespace Callscope
