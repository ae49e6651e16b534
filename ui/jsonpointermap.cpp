#include "ui/jsonpointermap.h"

#include "core/model/jsonpointer.h"

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

class Scanner
{
public:
    Scanner(QStringView text, QHash<QString, qsizetype> &out)
        : m_text(text)
        , m_out(out)
    {
    }

    void run()
    {
        skipSpace();
        value(QString(), m_pos);
    }

private:
    bool atEnd() const { return m_pos >= m_text.size(); }
    QChar peek() const { return atEnd() ? QChar() : m_text.at(m_pos); }

    void skipSpace()
    {
        while (!atEnd() && m_text.at(m_pos).isSpace())
            ++m_pos;
    }

    // Reads a string starting at '"'; returns its unescaped content, nullopt on error.
    std::optional<QString> string()
    {
        if (peek() != u'"')
            return std::nullopt;
        ++m_pos;
        QString out;
        while (!atEnd()) {
            const QChar c = m_text.at(m_pos++);
            if (c == u'"')
                return out;
            if (c == u'\\') {
                if (atEnd())
                    return std::nullopt;
                const QChar e = m_text.at(m_pos++);
                switch (e.unicode()) {
                case 'n': out += u'\n'; break;
                case 't': out += u'\t'; break;
                case 'r': out += u'\r'; break;
                case 'b': out += u'\b'; break;
                case 'f': out += u'\f'; break;
                case 'u': {
                    if (m_pos + 4 > m_text.size())
                        return std::nullopt;
                    bool ok = false;
                    const ushort code = m_text.mid(m_pos, 4).toUShort(&ok, 16);
                    if (!ok)
                        return std::nullopt;
                    out += QChar(code);
                    m_pos += 4;
                    break;
                }
                default: out += e; break;
                }
                continue;
            }
            if (c == u'\n')
                return std::nullopt;
            out += c;
        }
        return std::nullopt;
    }

    // Parses one value at m_pos; `pointer` names it, `anchor` is where a finding about it
    // should point (the key for object members). Returns false on a syntax error.
    bool value(const QString &pointer, qsizetype anchor)
    {
        if (++m_depth > 512)
            return false;
        m_out.insert(pointer, anchor);
        bool ok = true;
        const QChar c = peek();
        if (c == u'{') {
            ok = object(pointer);
        } else if (c == u'[') {
            ok = array(pointer);
        } else if (c == u'"') {
            ok = string().has_value();
        } else if (!atEnd()) {
            // number, true, false, null: anything up to a delimiter
            const qsizetype start = m_pos;
            while (!atEnd()) {
                const QChar d = m_text.at(m_pos);
                if (d.isSpace() || d == u',' || d == u'}' || d == u']' || d == u':')
                    break;
                ++m_pos;
            }
            ok = m_pos > start;
        } else {
            ok = false;
        }
        --m_depth;
        return ok;
    }

    bool object(const QString &pointer)
    {
        ++m_pos; // '{'
        skipSpace();
        if (peek() == u'}') {
            ++m_pos;
            return true;
        }
        while (!atEnd()) {
            skipSpace();
            const qsizetype keyStart = m_pos;
            const auto key = string();
            if (!key)
                return false;
            skipSpace();
            if (peek() != u':')
                return false;
            ++m_pos;
            skipSpace();
            if (!value(JsonPointer::append(pointer, *key), keyStart))
                return false;
            skipSpace();
            if (peek() == u',') {
                ++m_pos;
                continue;
            }
            if (peek() == u'}') {
                ++m_pos;
                return true;
            }
            return false;
        }
        return false;
    }

    bool array(const QString &pointer)
    {
        ++m_pos; // '['
        skipSpace();
        if (peek() == u']') {
            ++m_pos;
            return true;
        }
        qsizetype index = 0;
        while (!atEnd()) {
            skipSpace();
            if (!value(JsonPointer::append(pointer, index++), m_pos))
                return false;
            skipSpace();
            if (peek() == u',') {
                ++m_pos;
                continue;
            }
            if (peek() == u']') {
                ++m_pos;
                return true;
            }
            return false;
        }
        return false;
    }

    QStringView m_text;
    QHash<QString, qsizetype> &m_out;
    qsizetype m_pos = 0;
    int m_depth = 0;
};

} // namespace

JsonPointerMap::JsonPointerMap(QStringView text)
{
    Scanner(text, m_positions).run();
}

std::optional<qsizetype> JsonPointerMap::exactPosition(const QString &pointer) const
{
    const auto it = m_positions.constFind(pointer);
    if (it == m_positions.constEnd())
        return std::nullopt;
    return *it;
}

qsizetype JsonPointerMap::position(const QString &pointer) const
{
    QString p = pointer;
    while (true) {
        if (const auto exact = exactPosition(p))
            return *exact;
        if (p.isEmpty())
            return 0;
        p.truncate(p.lastIndexOf(u'/'));
    }
}

} // namespace Callscope
