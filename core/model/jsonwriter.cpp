#include "core/model/jsonwriter.h"

#include <QCborArray>
#include <QCborMap>
#include <QCborStreamWriter>
#include <QCborValue>
#include <QIODevice>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QLocale>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

namespace Callscope::Json {

namespace {

// One ASCII character as Qt's writer writes it inside a string.
void appendEscapedAscii(QByteArray &out, uchar c)
{
    static const char hex[] = "0123456789abcdef";
    switch (c) {
    case '"':
        out += "\\\"";
        return;
    case '\\':
        out += "\\\\";
        return;
    case '\b':
        out += "\\b";
        return;
    case '\f':
        out += "\\f";
        return;
    case '\n':
        out += "\\n";
        return;
    case '\r':
        out += "\\r";
        return;
    case '\t':
        out += "\\t";
        return;
    default:
        if (c < 0x20) {
            const char u[] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xf] };
            out.append(u, sizeof u);
        } else {
            out += char(c);
        }
    }
}

// The UTF-16 form, escaped as Qt's writer does: as escape() for ASCII, UTF-8 for the rest,
// and \uXXXX (lower-case hex) for each unpaired surrogate.
void appendEscapedUtf16(QByteArray &out, QStringView text)
{
    static const char hex[] = "0123456789abcdef";
    out.reserve(out.size() + text.size() + 2);
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char16_t u = text[i].unicode();
        if (u < 0x80) {
            const uchar c = uchar(u);
            appendEscapedAscii(out, c);
            continue;
        }
        char32_t cp = u;
        if (QChar::isSurrogate(u)) {
            if (QChar::isHighSurrogate(u) && i + 1 < text.size() && text[i + 1].isLowSurrogate()) {
                cp = QChar::surrogateToUcs4(u, text[i + 1].unicode());
                ++i;
            } else {
                const char e[] = { '\\',
                                   'u',
                                   hex[(u >> 12) & 0xf],
                                   hex[(u >> 8) & 0xf],
                                   hex[(u >> 4) & 0xf],
                                   hex[u & 0xf] };
                out.append(e, sizeof e);
                continue;
            }
        }
        if (cp < 0x800) {
            out += char(0xc0 | (cp >> 6));
        } else if (cp < 0x10000) {
            out += char(0xe0 | (cp >> 12));
            out += char(0x80 | ((cp >> 6) & 0x3f));
        } else {
            out += char(0xf0 | (cp >> 18));
            out += char(0x80 | ((cp >> 12) & 0x3f));
            out += char(0x80 | ((cp >> 6) & 0x3f));
        }
        out += char(0x80 | (cp & 0x3f));
    }
}

// A write-only device that takes the CBOR that QCborValue::toCbor writes and turns it into
// compact JSON as it arrives. Strings reach writeData as pointers into Qt's own storage, so
// they are escaped into the output without an intermediate copy.
//
// Only what a JSON value can give is understood (integers, doubles, text strings, arrays,
// maps, true/false/null/undefined); anything else marks the result unusable and the caller
// uses Qt's writer.
//
// Unpaired surrogates: Qt's CBOR encoder writes an unpaired UTF-16 surrogate as '?', where
// Qt's JSON writer writes a \uXXXX escape. A string whose bytes hold a '?' is therefore looked
// up in the value itself (by its position, which the container stack knows) and, when it has
// an unpaired surrogate, written again from its UTF-16 form. Only such strings are ever
// converted to UTF-16.
class CborToJson final : public QIODevice
{
public:
    CborToJson(QByteArray &out, const QJsonValue &root, bool indented, const Sink *sink = nullptr)
        : m_out(out)
        , m_root(root)
        , m_indented(indented)
        , m_sink(sink)
    {
        open(WriteOnly | Unbuffered);
    }

    // With a sink: hands on what is written so far (the rest stays in the output).
    void flush()
    {
        if (!m_sink || m_out.isEmpty() || m_failed)
            return;
        (*m_sink)(m_out.constData(), m_out.size());
        m_stringStart -= m_out.size(); // negative: that string's start has been handed on
        m_out.resize(0);
    }

    bool usable() const { return !m_failed && m_stack.empty() && m_state == State::Head && m_done; }

protected:
    qint64 readData(char *, qint64) override { return -1; }

    qint64 writeData(const char *data, qint64 size) override
    {
        const auto *p = reinterpret_cast<const uchar *>(data);
        const uchar *const end = p + size;
        while (p < end && !m_failed) {
            if (m_state == State::String) {
                const qint64 take = std::min<qint64>({ m_remaining, end - p, kPiece });
                escape(p, take);
                p += take;
                m_remaining -= take;
                if (m_remaining == 0)
                    endString();
                flushIfFull();
                continue;
            }
            if (m_done) {
                m_failed = true; // more than one top-level item
                break;
            }
            m_head[m_headSize++] = *p++;
            if (m_headSize == 1) {
                const uchar info = m_head[0] & 0x1f;
                m_headNeed = info < 24 ? 1
                    : info == 24       ? 2
                    : info == 25       ? 3
                    : info == 26       ? 5
                    : info == 27       ? 9
                                       : 0;
                if (m_headNeed == 0) {
                    m_failed = true; // indefinite lengths and reserved values are never written
                    break;
                }
            }
            if (m_headSize == m_headNeed) {
                takeHead();
                flushIfFull();
            }
        }
        return size;
    }

private:
    enum class State { Head, String };
    struct Frame
    {
        bool map = false;
        quint64 count = 0; // items (a map counts keys and values)
        quint64 index = 0;
    };

    quint64 headArgument() const
    {
        const uchar info = m_head[0] & 0x1f;
        if (info < 24)
            return info;
        quint64 value = 0;
        for (int i = 1; i < m_headNeed; ++i)
            value = (value << 8) | m_head[i];
        return value;
    }

    void takeHead()
    {
        const uchar major = m_head[0] >> 5;
        const uchar info = m_head[0] & 0x1f;
        const quint64 arg = headArgument();
        m_headSize = 0;
        switch (major) {
        case 0: // unsigned integer
            if (arg > quint64(std::numeric_limits<qint64>::max()))
                return fail();
            beginItem();
            m_out += QByteArray::number(qint64(arg));
            endItem();
            return;
        case 1: // negative integer: -1 - arg
            if (arg > quint64(std::numeric_limits<qint64>::max()))
                return fail();
            beginItem();
            m_out += QByteArray::number(-1 - qint64(arg));
            endItem();
            return;
        case 3: // text string
            beginItem();
            m_out += '"';
            m_remaining = qint64(arg);
            m_stringStart = m_out.size();
            m_question = false;
            if (arg > quint64(std::numeric_limits<qint64>::max()))
                return fail();
            if (m_remaining == 0)
                endString();
            else
                m_state = State::String;
            return;
        case 4: // array
        case 5: // map
            beginItem();
            m_out += major == 5 ? '{' : '[';
            if (m_indented)
                m_out += '\n';
            if (major == 5 && arg > quint64(std::numeric_limits<qint64>::max()) / 2)
                return fail();
            if (arg == 0) {
                indent(m_stack.size());
                m_out += major == 5 ? '}' : ']';
                endItem();
                return;
            }
            m_stack.push_back(Frame { major == 5, major == 5 ? arg * 2 : arg, 0 });
            return;
        case 7:
            if (info == 20 || info == 21 || info == 22 || info == 23) {
                if (info == 23 || info == 22)
                    return scalar("null");
                return scalar(info == 21 ? "true" : "false");
            }
            if (info == 25 || info == 26 || info == 27) {
                double d = 0;
                if (info == 27) {
                    const quint64 bits = arg;
                    std::memcpy(&d, &bits, sizeof d);
                } else if (info == 26) {
                    const quint32 bits = quint32(arg);
                    float f = 0;
                    std::memcpy(&f, &bits, sizeof f);
                    d = f;
                } else {
                    d = halfToDouble(quint16(arg));
                }
                beginItem();
                if (std::isfinite(d))
                    m_out += QByteArray::number(d, 'g', QLocale::FloatingPointShortest);
                else
                    m_out += "null";
                endItem();
                return;
            }
            return fail();
        default: // byte strings and tags never come from JSON
            return fail();
        }
    }

    static double halfToDouble(quint16 h)
    {
        const int exponent = (h >> 10) & 0x1f;
        const int mantissa = h & 0x3ff;
        double value = 0;
        if (exponent == 0)
            value = std::ldexp(mantissa, -24);
        else if (exponent != 31)
            value = std::ldexp(mantissa + 1024, exponent - 25);
        else
            value = mantissa == 0 ? INFINITY : NAN;
        return (h & 0x8000) ? -value : value;
    }

    void scalar(const char *text)
    {
        beginItem();
        m_out += text;
        endItem();
    }

    void fail() { m_failed = true; }

    static constexpr qint64 kPiece = 1024 * 1024;

    void flushIfFull()
    {
        if (m_out.size() >= kPiece)
            flush();
    }

    void beginItem()
    {
        if (m_stack.empty())
            return;
        const Frame &top = m_stack.back();
        if (top.map && top.index % 2 == 1) {
            m_out += m_indented ? ": " : ":";
            return;
        }
        if (top.index > 0)
            m_out += m_indented ? ",\n" : ",";
        indent(m_stack.size());
    }

    void indent(size_t level)
    {
        if (m_indented)
            m_out.append(qsizetype(4 * level), ' ');
    }

    void endItem()
    {
        while (!m_stack.empty()) {
            Frame &top = m_stack.back();
            if (++top.index < top.count)
                return;
            const bool map = top.map;
            m_stack.pop_back();
            if (m_indented)
                m_out += '\n';
            indent(m_stack.size());
            m_out += map ? '}' : ']';
        }
        m_done = true;
    }

    void endString()
    {
        if (m_question)
            checkSurrogates();
        m_out += '"';
        m_state = State::Head;
        endItem();
    }

    // Escapes as Qt's JSON writer does: the two-character escapes for " \ \b \f \n \r \t, \u00xx
    // for the other control characters, every other byte as it is.
    void escape(const uchar *p, qint64 size)
    {
        const uchar *run = p;
        const uchar *const end = p + size;
        for (; p < end; ++p) {
            const uchar c = *p;
            if (c >= 0x20 && c != '"' && c != '\\') {
                m_question |= c == '?';
                continue;
            }
            m_out.append(reinterpret_cast<const char *>(run), p - run);
            run = p + 1;
            m_out += '\\';
            switch (c) {
            case '"':
                m_out += '"';
                break;
            case '\\':
                m_out += '\\';
                break;
            case '\b':
                m_out += 'b';
                break;
            case '\f':
                m_out += 'f';
                break;
            case '\n':
                m_out += 'n';
                break;
            case '\r':
                m_out += 'r';
                break;
            case '\t':
                m_out += 't';
                break;
            default: {
                static const char hex[] = "0123456789abcdef";
                const char u[] = { 'u', '0', '0', hex[c >> 4], hex[c & 0xf] };
                m_out.append(u, sizeof u);
            }
            }
        }
        m_out.append(reinterpret_cast<const char *>(run), end - run);
    }

    // The string being written, as Qt holds it: found by the positions on the stack.
    std::optional<QString> currentString() const
    {
        QJsonValue value = m_root;
        for (size_t k = 0; k < m_stack.size(); ++k) {
            const Frame &frame = m_stack[k];
            if (frame.map) {
                const QJsonObject object = value.toObject();
                if (qsizetype(frame.index / 2) >= object.size())
                    return std::nullopt;
                const auto it = object.constBegin() + qsizetype(frame.index / 2);
                if (k + 1 == m_stack.size() && frame.index % 2 == 0)
                    return it.key();
                value = it.value();
            } else {
                const QJsonArray array = value.toArray();
                if (qsizetype(frame.index) >= array.size())
                    return std::nullopt;
                value = array.at(qsizetype(frame.index));
            }
        }
        if (!value.isString())
            return std::nullopt;
        return value.toString();
    }

    void checkSurrogates()
    {
        const std::optional<QString> text = currentString();
        if (!text)
            return fail();
        bool unpaired = false;
        for (qsizetype i = 0; i < text->size() && !unpaired; ++i) {
            const QChar c = text->at(i);
            if (c.isHighSurrogate() && i + 1 < text->size() && text->at(i + 1).isLowSurrogate())
                ++i;
            else
                unpaired = c.isSurrogate();
        }
        if (!unpaired)
            return;
        if (m_stringStart < 0)
            return fail(); // streamed on already: the caller writes the value another way
        m_out.truncate(m_stringStart);
        escapeUtf16(*text);
    }

    void escapeUtf16(QStringView text) { appendEscapedUtf16(m_out, text); }

    QByteArray &m_out;
    const QJsonValue m_root;
    const bool m_indented;
    const Sink *m_sink = nullptr;
    std::vector<Frame> m_stack;
    State m_state = State::Head;
    uchar m_head[9] = {};
    int m_headSize = 0;
    int m_headNeed = 0;
    qint64 m_remaining = 0;
    qsizetype m_stringStart = 0;
    bool m_question = false;
    bool m_failed = false;
    bool m_done = false;
};

// The output grows by doubling; what was never written costs no memory, but give the slack
// back before the bytes are held.
QByteArray squeezed(QByteArray bytes)
{
    if (bytes.capacity() - bytes.size() > 4096)
        bytes.squeeze();
    return bytes;
}

std::optional<QByteArray> viaCbor(const QCborValue &value, const QJsonValue &root,
                                  bool indented = false)
{
    QByteArray out;
    {
        CborToJson device(out, root, indented);
        QCborStreamWriter writer(&device);
        value.toCbor(writer);
        if (!device.usable())
            return std::nullopt;
    }
    return squeezed(std::move(out));
}

bool streamViaCbor(const QCborValue &value, const QJsonValue &root, const Sink &sink,
                   bool indented = false)
{
    QByteArray out;
    CborToJson device(out, root, indented, &sink);
    QCborStreamWriter writer(&device);
    value.toCbor(writer);
    if (!device.usable())
        return false;
    device.flush();
    return true;
}

} // namespace

bool writeCompact(const QJsonObject &object, const Sink &sink)
{
    return streamViaCbor(QCborMap::fromJsonObject(object), object, sink);
}

bool writeCompact(const QJsonArray &array, const Sink &sink)
{
    return streamViaCbor(QCborArray::fromJsonArray(array), array, sink);
}

bool writeIndented(const QJsonObject &object, const Sink &sink)
{
    if (!streamViaCbor(QCborMap::fromJsonObject(object), object, sink, true))
        return false;
    sink("\n", 1);
    return true;
}

bool writeCompact(const QJsonValue &value, const Sink &sink)
{
    if (value.isObject())
        return writeCompact(value.toObject(), sink);
    if (value.isArray())
        return writeCompact(value.toArray(), sink);
    return false;
}

QByteArray compact(const QJsonObject &object)
{
    if (auto out = viaCbor(QCborMap::fromJsonObject(object), object))
        return *out;
    return squeezed(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

QByteArray compact(const QJsonArray &array)
{
    if (auto out = viaCbor(QCborArray::fromJsonArray(array), array))
        return *out;
    return squeezed(QJsonDocument(array).toJson(QJsonDocument::Compact));
}

QByteArray compact(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Object:
        return compact(value.toObject());
    case QJsonValue::Array:
        return compact(value.toArray());
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        return QByteArrayLiteral("null");
    default: {
        // A scalar: written as the only item of an array, without the brackets.
        QByteArray out = compact(QJsonArray { value });
        out.chop(1);
        out.remove(0, 1);
        return squeezed(std::move(out));
    }
    }
}

QByteArray indented(const QJsonObject &object)
{
    if (auto out = viaCbor(QCborMap::fromJsonObject(object), object, true)) {
        out->append('\n');
        return std::move(*out);
    }
    return squeezed(QJsonDocument(object).toJson(QJsonDocument::Indented));
}

QByteArray indented(const QJsonArray &array)
{
    if (auto out = viaCbor(QCborArray::fromJsonArray(array), array, true)) {
        out->append('\n');
        return std::move(*out);
    }
    return squeezed(QJsonDocument(array).toJson(QJsonDocument::Indented));
}

QByteArray objectText(QStringView key, QStringView text)
{
    QByteArray json("{\"");
    appendEscapedUtf16(json, key);
    json += "\":\"";
    appendEscapedUtf16(json, text);
    json += "\"}";
    return json;
}

QJsonObject parseObject(const QByteArray &json)
{
    return QJsonDocument::fromJson(json).object();
}

std::optional<QJsonArray> replaceString(const QJsonArray &array, QStringView placeholder,
                                        const QJsonObject &source)
{
    if (source.size() != 1 || !source.constBegin().value().isString())
        return std::nullopt;
    const QByteArray text = compact(array);
    QByteArray literal("\"");
    appendEscapedUtf16(literal, placeholder);
    literal += '"';
    const qsizetype at = text.indexOf(literal);
    if (at < 0 || text.indexOf(literal, at + 1) >= 0)
        return std::nullopt;
    // The source's value as JSON text: its compact form without {"key": and the closing brace.
    const qsizetype skip =
        compact(QJsonObject { { source.constBegin().key(), QString() } }).size() - 3;
    QByteArray json(text.constData(), at);
    qsizetype seen = 0;
    const bool streamed = writeCompact(source, [&](const char *data, qsizetype size) {
        const qsizetype drop = std::clamp<qsizetype>(skip - seen, 0, size);
        json.append(data + drop, size - drop);
        seen += size;
    });
    if (!streamed || !json.endsWith('}'))
        return std::nullopt;
    json.chop(1);
    json.append(text.constData() + at + literal.size(), text.size() - at - literal.size());
    QJsonParseError error;
    const QJsonDocument parsed = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError || !parsed.isArray())
        return std::nullopt;
    return parsed.array();
}

QJsonObject withString(QJsonObject object, QStringView key, const QString &text)
{
    // Qt's parser orders non-ASCII keys as UTF-8 bytes, insert() as UTF-16: the same object
    // only when every key is ASCII.
    const auto isAscii = [](QStringView s) {
        return std::all_of(s.begin(), s.end(), [](QChar c) { return c.unicode() < 0x80; });
    };
    bool asciiKeys = isAscii(key);
    for (auto it = object.constBegin(); asciiKeys && it != object.constEnd(); ++it)
        asciiKeys = isAscii(it.key());
    if (text.size() < kLongString || !asciiKeys) {
        object.insert(key, text);
        return object;
    }
    object.remove(key);
    QByteArray json = compact(object);
    json.chop(1); // the closing brace
    if (!object.isEmpty())
        json += ',';
    json += '"';
    appendEscapedUtf16(json, key);
    json += "\":\"";
    appendEscapedUtf16(json, text);
    json += "\"}";
    QJsonParseError error;
    QJsonDocument parsed = QJsonDocument::fromJson(json, &error);
    json = QByteArray();
    if (error.error != QJsonParseError::NoError || !parsed.isObject()) {
        // Cannot happen (the text is what the writer makes); the slow way is still right.
        object.insert(key, text);
        return object;
    }
    return parsed.object();
}

} // namespace Callscope::Json
