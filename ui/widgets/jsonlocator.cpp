#include "ui/widgets/jsonlocator.h"

#include "core/model/jsonpointer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonValue>

using namespace Qt::StringLiterals;

namespace Callscope {

JsonLocator::JsonLocator(const QString &text)
    : m_text(text)
{
    value(skipSpace(0), QString());
}

int JsonLocator::skipSpace(int pos) const
{
    while (pos < m_text.size() && m_text.at(pos).isSpace())
        ++pos;
    return pos;
}

int JsonLocator::stringEnd(int pos) const
{
    ++pos;
    while (pos < m_text.size()) {
        const QChar c = m_text.at(pos);
        if (c == u'\\') {
            pos += 2;
            continue;
        }
        if (c == u'"')
            return pos + 1;
        ++pos;
    }
    return -1;
}

// Returns the offset after the value, or -1 when the text stops being JSON.
int JsonLocator::value(int pos, const QString &pointer)
{
    if (pos >= m_text.size() || ++m_depth > 200)
        return -1;
    const int start = pos;
    const QChar c = m_text.at(pos);
    int end = -1;
    if (c == u'{') {
        pos = skipSpace(pos + 1);
        if (pos < m_text.size() && m_text.at(pos) == u'}') {
            end = pos + 1;
        } else {
            while (pos < m_text.size()) {
                if (m_text.at(pos) != u'"')
                    break;
                const int keyStart = pos;
                const int keyEnd = stringEnd(pos);
                if (keyEnd < 0)
                    break;
                const QString keyJson = u"["_s + m_text.mid(pos, keyEnd - pos) + u"]"_s;
                const QString key =
                    QJsonDocument::fromJson(keyJson.toUtf8()).array().at(0).toString();
                pos = skipSpace(keyEnd);
                if (pos >= m_text.size() || m_text.at(pos) != u':')
                    break;
                const QString member = JsonPointer::append(pointer, key);
                m_keys.insert(member, keyStart);
                pos = skipSpace(pos + 1);
                const int after = value(pos, member);
                if (after < 0)
                    break;
                pos = skipSpace(after);
                if (pos < m_text.size() && m_text.at(pos) == u',') {
                    pos = skipSpace(pos + 1);
                    continue;
                }
                if (pos < m_text.size() && m_text.at(pos) == u'}')
                    end = pos + 1;
                break;
            }
        }
    } else if (c == u'[') {
        pos = skipSpace(pos + 1);
        if (pos < m_text.size() && m_text.at(pos) == u']') {
            end = pos + 1;
        } else {
            qsizetype index = 0;
            while (pos < m_text.size()) {
                const int after = value(pos, JsonPointer::append(pointer, index++));
                if (after < 0)
                    break;
                pos = skipSpace(after);
                if (pos < m_text.size() && m_text.at(pos) == u',') {
                    pos = skipSpace(pos + 1);
                    continue;
                }
                if (pos < m_text.size() && m_text.at(pos) == u']')
                    end = pos + 1;
                break;
            }
        }
    } else if (c == u'"') {
        end = stringEnd(pos);
    } else {
        while (pos < m_text.size()) {
            const QChar d = m_text.at(pos);
            if (d == u',' || d == u'}' || d == u']' || d.isSpace())
                break;
            ++pos;
        }
        end = pos > start ? pos : -1;
    }
    --m_depth;
    // Containers that did not close still get a span up to where scanning stopped.
    m_spans.insert(pointer, TextSpan { start, end < 0 ? int(std::max(pos, start + 1)) : end });
    return end;
}

std::optional<TextSpan> JsonLocator::locate(const QString &pointer) const
{
    QString p = pointer;
    while (true) {
        auto it = m_spans.constFind(p);
        if (it != m_spans.cend())
            return *it;
        if (p.isEmpty())
            return std::nullopt;
        p.truncate(std::max<qsizetype>(0, p.lastIndexOf(u'/')));
    }
}

std::optional<int> JsonLocator::start(const QString &pointer) const
{
    if (const auto key = m_keys.constFind(pointer); key != m_keys.cend())
        return *key;
    if (const auto span = m_spans.constFind(pointer); span != m_spans.cend())
        return span->start;
    return std::nullopt;
}

int JsonLocator::nearestStart(const QString &pointer) const
{
    QString p = pointer;
    while (true) {
        if (const std::optional<int> at = start(p))
            return *at;
        if (p.isEmpty())
            return 0;
        p.truncate(std::max<qsizetype>(0, p.lastIndexOf(u'/')));
    }
}

std::pair<int, int> JsonLocator::lineColumn(const QString &text, int offset)
{
    int line = 1;
    int column = 1;
    for (int i = 0; i < offset && i < text.size(); ++i) {
        if (text.at(i) == u'\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return { line, column };
}

} // namespace Callscope
