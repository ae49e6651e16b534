#include "ui/specview.h"

#include "ui/jsonhighlighter.h"
#include "ui/jsonpointermap.h"
#include "ui/messagebar.h"

#include <QFontDatabase>
#include <QPainter>
#include <QTextBlock>
#include <QVBoxLayout>

#ifdef CALLSCOPE_HAVE_KSYNTAXHIGHLIGHTING
#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/SyntaxHighlighter>
#include <KSyntaxHighlighting/Theme>
#endif

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

class Gutter final : public QWidget
{
public:
    explicit Gutter(SpecEditor *editor)
        : QWidget(editor)
        , m_editor(editor)
    {
    }
    QSize sizeHint() const override { return {m_editor->gutterWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent *event) override { m_editor->paintGutter(event); }

private:
    SpecEditor *m_editor;
};

bool isDark(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightnessF() < 0.5;
}

} // namespace

SpecEditor::SpecEditor(QWidget *parent)
    : QPlainTextEdit(parent)
    , m_gutter(new Gutter(this))
{
    setObjectName(u"specEditor"_s);
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    setFont(font);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setTabStopDistance(QFontMetricsF(font).horizontalAdvance(u' ') * 4);
    connect(this, &QPlainTextEdit::blockCountChanged, this, &SpecEditor::updateGutterWidth);
    connect(this, &QPlainTextEdit::updateRequest, this, &SpecEditor::updateGutter);
    // Redraw the gutter's bold current line.
    connect(this, &QPlainTextEdit::cursorPositionChanged, m_gutter, qOverload<>(&QWidget::update));
    updateGutterWidth();
}

SpecEditor::~SpecEditor() = default;

int SpecEditor::gutterWidth() const
{
    int digits = 1;
    for (int max = std::max(1, blockCount()); max >= 10; max /= 10)
        ++digits;
    digits = std::max(digits, 3);
    return 12 + fontMetrics().horizontalAdvance(u'9') * digits;
}

void SpecEditor::updateGutterWidth()
{
    setViewportMargins(gutterWidth(), 0, 0, 0);
}

void SpecEditor::updateGutter(const QRect &rect, int dy)
{
    if (dy)
        m_gutter->scroll(0, dy);
    else
        m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
    if (rect.contains(viewport()->rect()))
        updateGutterWidth();
}

void SpecEditor::resizeEvent(QResizeEvent *event)
{
    QPlainTextEdit::resizeEvent(event);
    const QRect r = contentsRect();
    m_gutter->setGeometry(QRect(r.left(), r.top(), gutterWidth(), r.height()));
}

void SpecEditor::paintGutter(QPaintEvent *event)
{
    QPainter painter(m_gutter);
    const QPalette pal = palette();
    painter.fillRect(event->rect(), pal.color(QPalette::AlternateBase));
    painter.setPen(pal.color(QPalette::PlaceholderText));
    painter.setFont(font());
    const int current = textCursor().blockNumber();
    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    int bottom = top + qRound(blockBoundingRect(block).height());
    while (block.isValid() && top <= event->rect().bottom()) {
        if (block.isVisible() && bottom >= event->rect().top()) {
            QFont f = font();
            f.setBold(block.blockNumber() == current);
            painter.setFont(f);
            painter.drawText(0, top, m_gutter->width() - 6, fontMetrics().height(), Qt::AlignRight,
                             QString::number(block.blockNumber() + 1));
        }
        block = block.next();
        top = bottom;
        bottom = top + qRound(blockBoundingRect(block).height());
    }
}

SpecView::SpecView(QWidget *parent)
    : QWidget(parent)
    , m_messageBar(new MessageBar(this))
    , m_editor(new SpecEditor(this))
{
    setObjectName(u"specView"_s);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_messageBar);
    layout->addWidget(m_editor, 1);

#ifdef CALLSCOPE_HAVE_KSYNTAXHIGHLIGHTING
    m_repository = std::make_unique<KSyntaxHighlighting::Repository>();
    auto *highlighter = new KSyntaxHighlighting::SyntaxHighlighter(m_editor->document());
    highlighter->setDefinition(m_repository->definitionForName(u"JSON"_s));
    highlighter->setTheme(m_repository->defaultTheme(
        isDark(palette()) ? KSyntaxHighlighting::Repository::DarkTheme
                          : KSyntaxHighlighting::Repository::LightTheme));
    m_highlighter = highlighter;
#else
    auto *highlighter = new JsonHighlighter(m_editor->document());
    highlighter->setDarkBackground(isDark(palette()));
    m_highlighter = highlighter;
#endif
}

SpecView::~SpecView() = default;

QString SpecView::highlighterName()
{
#ifdef CALLSCOPE_HAVE_KSYNTAXHIGHLIGHTING
    return tr("KF6 SyntaxHighlighting");
#else
    return tr("built-in JSON highlighter");
#endif
}

QString SpecView::text() const
{
    return m_editor->toPlainText();
}

void SpecView::setText(const QString &text)
{
    m_editor->setPlainText(text);
    m_editor->document()->setModified(false);
}

void SpecView::moveCursorTo(qsizetype position)
{
    QTextCursor cursor = m_editor->textCursor();
    cursor.setPosition(int(std::clamp<qsizetype>(position, 0, m_editor->document()->characterCount() - 1)));
    m_editor->setTextCursor(cursor);
    m_editor->centerCursor();
}

void SpecView::moveCursorToPointer(const QString &pointer)
{
    moveCursorTo(JsonPointerMap(m_editor->toPlainText()).position(pointer));
}

} // namespace Callscope
