#pragma once

// A small JSON syntax highlighter, used when KF6 SyntaxHighlighting is not available.
// JSON strings cannot span lines, so each block is tokenised on its own.

#include <QSyntaxHighlighter>
#include <QTextCharFormat>

class QTextDocument;

namespace Callscope {

enum class JsonToken { Key, String, Number, Keyword, Punctuation, Invalid };

class JsonHighlighter final : public QSyntaxHighlighter
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JsonHighlighter)

public:
    explicit JsonHighlighter(QTextDocument *parent);
    ~JsonHighlighter() override;

    QTextCharFormat format(JsonToken token) const;
    // Chooses colours that read well on a dark or a light background.
    void setDarkBackground(bool dark);

protected:
    void highlightBlock(const QString &text) override;

private:
    QTextCharFormat m_formats[6];
};

} // namespace Callscope
