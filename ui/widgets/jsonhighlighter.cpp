#include "ui/widgets/jsonhighlighter.h"

#include <QColor>
#include <QFont>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace Callscope {

JsonHighlighter::JsonHighlighter(QTextDocument *parent)
    : QSyntaxHighlighter(parent)
{
    setDarkBackground(false);
}

JsonHighlighter::~JsonHighlighter() = default;

QTextCharFormat JsonHighlighter::format(JsonToken token) const
{
    return m_formats[int(token)];
}

void JsonHighlighter::setDarkBackground(bool dark)
{
    struct Palette
    {
        QColor key, string, number, keyword, punctuation, invalid;
    };
    const Palette light { QColor(0x0b, 0x4f, 0x9c), QColor(0x1a, 0x7f, 0x37),
                          QColor(0xa3, 0x4a, 0x00), QColor(0x8a, 0x2b, 0xb5),
                          QColor(0x60, 0x60, 0x60), QColor(0xc0, 0x1c, 0x28) };
    const Palette darkColors { QColor(0x7c, 0xb7, 0xff), QColor(0x8f, 0xd6, 0x8f),
                               QColor(0xf0, 0xb0, 0x6a), QColor(0xd2, 0x9b, 0xf5),
                               QColor(0xa8, 0xa8, 0xa8), QColor(0xff, 0x6b, 0x6b) };
    const Palette &p = dark ? darkColors : light;
    for (QTextCharFormat &f : m_formats)
        f = QTextCharFormat();
    m_formats[int(JsonToken::Key)].setForeground(p.key);
    m_formats[int(JsonToken::Key)].setFontWeight(QFont::DemiBold);
    m_formats[int(JsonToken::String)].setForeground(p.string);
    m_formats[int(JsonToken::Number)].setForeground(p.number);
    m_formats[int(JsonToken::Keyword)].setForeground(p.keyword);
    m_formats[int(JsonToken::Keyword)].setFontWeight(QFont::DemiBold);
    m_formats[int(JsonToken::Punctuation)].setForeground(p.punctuation);
    m_formats[int(JsonToken::Invalid)].setForeground(p.invalid);
    m_formats[int(JsonToken::Invalid)].setUnderlineStyle(QTextCharFormat::WaveUnderline);
    m_formats[int(JsonToken::Invalid)].setUnderlineColor(p.invalid);
    rehighlight();
}

void JsonHighlighter::highlightBlock(const QString &text)
{
    const qsizetype n = text.size();
    qsizetype i = 0;
    auto isDelimiter = [](QChar c) {
        return c.isSpace() || c == u',' || c == u':' || c == u'{' || c == u'}' || c == u'['
            || c == u']' || c == u'"';
    };
    while (i < n) {
        const QChar c = text.at(i);
        if (c.isSpace()) {
            ++i;
            continue;
        }
        if (c == u'"') {
            qsizetype end = i + 1;
            bool closed = false;
            while (end < n) {
                if (text.at(end) == u'\\') {
                    end += 2;
                    continue;
                }
                if (text.at(end) == u'"') {
                    closed = true;
                    ++end;
                    break;
                }
                ++end;
            }
            end = std::min(end, n);
            // A string followed by ':' is an object key.
            qsizetype next = end;
            while (next < n && text.at(next).isSpace())
                ++next;
            const bool isKey = closed && next < n && text.at(next) == u':';
            const JsonToken token = !closed ? JsonToken::Invalid
                : isKey                     ? JsonToken::Key
                                            : JsonToken::String;
            setFormat(int(i), int(end - i), m_formats[int(token)]);
            i = end;
            continue;
        }
        if (c == u'-' || c.isDigit()) {
            qsizetype end = i + 1;
            while (end < n && !isDelimiter(text.at(end)))
                ++end;
            static const QRegularExpression number(
                u"^-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$"_s);
            const bool valid = number.match(QStringView(text).mid(i, end - i)).hasMatch();
            setFormat(int(i), int(end - i),
                      m_formats[int(valid ? JsonToken::Number : JsonToken::Invalid)]);
            i = end;
            continue;
        }
        if (c.isLetter()) {
            qsizetype end = i + 1;
            while (end < n && !isDelimiter(text.at(end)))
                ++end;
            const QStringView word = QStringView(text).mid(i, end - i);
            const bool keyword = word == u"true" || word == u"false" || word == u"null";
            setFormat(int(i), int(end - i),
                      m_formats[int(keyword ? JsonToken::Keyword : JsonToken::Invalid)]);
            i = end;
            continue;
        }
        if (c == u'{' || c == u'}' || c == u'[' || c == u']' || c == u':' || c == u',') {
            setFormat(int(i), 1, m_formats[int(JsonToken::Punctuation)]);
            ++i;
            continue;
        }
        setFormat(int(i), 1, m_formats[int(JsonToken::Invalid)]);
        ++i;
    }
}

} // namespace Callscope
