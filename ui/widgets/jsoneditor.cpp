#include "ui/widgets/jsoneditor.h"

#include "ui/widgets/jsonhighlighter.h"
#include "ui/widgets/jsonlocator.h"

#include <QHelpEvent>
#include <QPainter>
#include <QScrollBar>
#include <QSyntaxHighlighter>
#include <QTextBlock>
#include <QToolTip>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

class LineNumberArea final : public QWidget
{
public:
    explicit LineNumberArea(JsonEditor *editor)
        : QWidget(editor)
        , m_editor(editor)
    { }
    QSize sizeHint() const override { return { m_editor->lineNumberAreaWidth(), 0 }; }

protected:
    void paintEvent(QPaintEvent *event) override { m_editor->paintLineNumbers(event); }

private:
    JsonEditor *m_editor;
};

JsonEditor::HighlighterFactory &highlighterFactory()
{
    static JsonEditor::HighlighterFactory factory;
    return factory;
}

} // namespace

void JsonEditor::setHighlighterFactory(HighlighterFactory factory)
{
    highlighterFactory() = std::move(factory);
}

JsonEditor::JsonEditor(QWidget *parent)
    : QPlainTextEdit(parent)
    , m_lineNumbers(new LineNumberArea(this))
{
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    setFont(mono);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setTabChangesFocus(true);
    setUndoRedoEnabled(false);
    if (highlighterFactory())
        m_highlighter = highlighterFactory()(document(), palette());
    if (!m_highlighter) {
        auto *highlighter = new JsonHighlighter(document());
        highlighter->setDarkBackground(palette().color(QPalette::Base).lightness() < 128);
        m_highlighter = highlighter;
    }
    connect(this, &QPlainTextEdit::blockCountChanged, this, &JsonEditor::updateLineNumberAreaWidth);
    connect(this, &QPlainTextEdit::updateRequest, this, &JsonEditor::updateLineNumberArea);
    // The current line's number is drawn bold.
    connect(this, &QPlainTextEdit::cursorPositionChanged, m_lineNumbers,
            qOverload<>(&QWidget::update));
    setTabStopDistance(QFontMetricsF(mono).horizontalAdvance(u' ') * 4);
    updateLineNumberAreaWidth();
}

JsonEditor::~JsonEditor() = default;

void JsonEditor::setJsonText(const QString &text)
{
    if (text == toPlainText())
        return;
    const int position = textCursor().position();
    const int scroll = verticalScrollBar()->value();
    setPlainText(text);
    QTextCursor cursor = textCursor();
    cursor.setPosition(std::min(position, int(text.size())));
    setTextCursor(cursor);
    verticalScrollBar()->setValue(scroll);
    applyMarkers();
}

void JsonEditor::showDocument(QTextDocument *shown)
{
    if (shown == document())
        return;
    // The editor's own document goes (with its children); the highlighter moves over first.
    if (m_highlighter) {
        m_highlighter->setParent(this);
        m_highlighter->setDocument(shown);
    }
    setDocument(shown);
    updateLineNumberAreaWidth();
    applyMarkers();
}

int JsonEditor::lineNumberAreaWidth() const
{
    int digits = 1;
    int max = std::max(1, blockCount());
    while (max >= 10) {
        max /= 10;
        ++digits;
    }
    return 8 + fontMetrics().horizontalAdvance(u'9') * std::max(digits, 2);
}

void JsonEditor::updateLineNumberAreaWidth()
{
    setViewportMargins(lineNumberAreaWidth(), 0, 0, 0);
}

void JsonEditor::updateLineNumberArea(const QRect &rect, int dy)
{
    if (dy)
        m_lineNumbers->scroll(0, dy);
    else
        m_lineNumbers->update(0, rect.y(), m_lineNumbers->width(), rect.height());
    if (rect.contains(viewport()->rect()))
        updateLineNumberAreaWidth();
}

void JsonEditor::resizeEvent(QResizeEvent *event)
{
    QPlainTextEdit::resizeEvent(event);
    const QRect cr = contentsRect();
    m_lineNumbers->setGeometry(QRect(cr.left(), cr.top(), lineNumberAreaWidth(), cr.height()));
}

void JsonEditor::paintLineNumbers(QPaintEvent *event)
{
    QPainter painter(m_lineNumbers);
    painter.fillRect(event->rect(), palette().color(QPalette::AlternateBase));
    QSet<int> markedLines;
    for (const Placed &p : std::as_const(m_placed))
        markedLines.insert(document()->findBlock(p.start).blockNumber());
    QTextBlock block = firstVisibleBlock();
    int number = block.blockNumber();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    int bottom = top + qRound(blockBoundingRect(block).height());
    const int width = m_lineNumbers->width();
    const int current = textCursor().blockNumber();
    while (block.isValid() && top <= event->rect().bottom()) {
        if (block.isVisible() && bottom >= event->rect().top()) {
            QFont numberFont = font();
            numberFont.setBold(number == current);
            painter.setFont(numberFont);
            if (markedLines.contains(number)) {
                painter.fillRect(0, top, 3, bottom - top, QColor(220, 50, 50));
                painter.setPen(palette().color(QPalette::Text));
            } else {
                painter.setPen(palette().color(QPalette::PlaceholderText));
            }
            painter.drawText(0, top, width - 4, fontMetrics().height(), Qt::AlignRight,
                             QString::number(number + 1));
        }
        block = block.next();
        top = bottom;
        bottom = top + qRound(blockBoundingRect(block).height());
        ++number;
    }
}

void JsonEditor::setMarkers(const QList<EditorMarker> &markers)
{
    m_markers = markers;
    applyMarkers();
}

void JsonEditor::applyMarkers()
{
    m_placed.clear();
    QList<QTextEdit::ExtraSelection> selections;
    if (!m_markers.isEmpty()) {
        const QString text = toPlainText();
        const JsonLocator locator(text);
        for (const EditorMarker &marker : std::as_const(m_markers)) {
            const std::optional<TextSpan> span = locator.locate(marker.pointer);
            if (!span)
                continue;
            // Containers: mark only their first line, not the whole block.
            int end = span->end;
            const int newline = text.indexOf(u'\n', span->start);
            if (newline >= 0 && newline < end)
                end = newline;
            if (end <= span->start)
                end = std::min<int>(span->start + 1, text.size());
            QTextEdit::ExtraSelection sel;
            sel.cursor = QTextCursor(document());
            sel.cursor.setPosition(span->start);
            sel.cursor.setPosition(end, QTextCursor::KeepAnchor);
            sel.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
            sel.format.setUnderlineColor(marker.error ? QColor(220, 50, 50) : QColor(230, 160, 20));
            sel.format.setToolTip(marker.message);
            selections.append(sel);
            m_placed.append(Placed { span->start, end, marker.message });
        }
    }
    setExtraSelections(selections);
    m_lineNumbers->update();
}

bool JsonEditor::revealPointer(const QString &pointer)
{
    const JsonLocator locator(toPlainText());
    const std::optional<TextSpan> span = locator.locate(pointer);
    if (!span)
        return false;
    QTextCursor cursor(document());
    cursor.setPosition(span->start);
    setTextCursor(cursor);
    centerCursor();
    setFocus(Qt::OtherFocusReason);
    return true;
}

void JsonEditor::revealLineColumn(int line, int column)
{
    const QTextBlock block = document()->findBlockByNumber(std::max(0, line - 1));
    if (!block.isValid())
        return;
    QTextCursor cursor(block);
    cursor.setPosition(block.position() + std::clamp(column - 1, 0, block.length() - 1));
    setTextCursor(cursor);
    centerCursor();
}

bool JsonEditor::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QPoint pos = viewport()->mapFromGlobal(help->globalPos());
        const int offset = cursorForPosition(pos).position();
        QStringList messages;
        for (const Placed &p : std::as_const(m_placed)) {
            if (offset >= p.start && offset <= p.end)
                messages.append(p.message);
        }
        if (!messages.isEmpty()) {
            QToolTip::showText(help->globalPos(), messages.join(u'\n'), this);
            return true;
        }
        QToolTip::hideText();
        event->ignore();
        return true;
    }
    return QPlainTextEdit::event(event);
}

} // namespace Callscope
