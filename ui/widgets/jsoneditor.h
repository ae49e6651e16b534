#pragma once

// A plain-text JSON editor: syntax highlighting, line numbers, and markers (a wavy underline
// and a tooltip) at the JSON Pointers of findings.

#include <QList>
#include <QPlainTextEdit>

#include <functional>

class QSyntaxHighlighter;

namespace Callscope {

struct EditorMarker
{
    QString pointer; // relative to this editor's document
    QString message;
    bool error = true; // error (red) or warning (amber)
};

class JsonEditor final : public QPlainTextEdit
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JsonEditor)

public:
    explicit JsonEditor(QWidget *parent = nullptr);
    ~JsonEditor() override;

    // The application installs the project's highlighter (KF6 when present) here; editors made
    // afterwards use it. Without one a small built-in highlighter is used.
    using HighlighterFactory =
        std::function<QSyntaxHighlighter *(QTextDocument *document, const QPalette &palette)>;
    static void setHighlighterFactory(HighlighterFactory factory);

    // Replaces the text without touching the editor's own undo history meaning: the spec
    // editor keeps the real undo stack, so the document's own is off.
    void setJsonText(const QString &text);

    // Shows `document` (owned elsewhere, e.g. by a SpecDocument) instead of the editor's own;
    // the highlighter moves with it.
    void showDocument(QTextDocument *document);
    QSyntaxHighlighter *highlighter() const { return m_highlighter; }

    void setMarkers(const QList<EditorMarker> &markers);
    const QList<EditorMarker> &markers() const { return m_markers; }
    // Moves the cursor to the value at `pointer` (or its nearest ancestor); false if none.
    bool revealPointer(const QString &pointer);
    // Moves the cursor to a 1-based line and column.
    void revealLineColumn(int line, int column);

    int lineNumberAreaWidth() const;
    void paintLineNumbers(QPaintEvent *event);

protected:
    void resizeEvent(QResizeEvent *event) override;
    bool event(QEvent *event) override;

private:
    void updateLineNumberAreaWidth();
    void updateLineNumberArea(const QRect &rect, int dy);
    void applyMarkers();

    QWidget *m_lineNumbers = nullptr;
    QSyntaxHighlighter *m_highlighter = nullptr;
    QList<EditorMarker> m_markers;
    struct Placed
    {
        int start;
        int end;
        QString message;
    };
    QList<Placed> m_placed;
};

} // namespace Callscope
