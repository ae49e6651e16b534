#pragma once

// The central view of the main window: the spec's JSON text in an editor with line numbers
// and syntax highlighting, and a message bar above it for problems with the file.

#include <QPlainTextEdit>
#include <QWidget>

#include <memory>

class QSyntaxHighlighter;

#ifdef CALLSCOPE_HAVE_KSYNTAXHIGHLIGHTING
namespace KSyntaxHighlighting {
class Repository;
}
#endif

namespace Callscope {

class MessageBar;

// A plain-text editor with a line-number gutter.
class SpecEditor final : public QPlainTextEdit
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SpecEditor)

public:
    explicit SpecEditor(QWidget *parent = nullptr);
    ~SpecEditor() override;

    int gutterWidth() const;
    void paintGutter(QPaintEvent *event);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void updateGutterWidth();
    void updateGutter(const QRect &rect, int dy);

    QWidget *m_gutter = nullptr;
};

class SpecView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SpecView)

public:
    explicit SpecView(QWidget *parent = nullptr);
    ~SpecView() override;

    SpecEditor *editor() const { return m_editor; }
    MessageBar *messageBar() const { return m_messageBar; }
    QSyntaxHighlighter *highlighter() const { return m_highlighter; }
    // "KF6 SyntaxHighlighting" or "built-in"; shown in the About box.
    static QString highlighterName();

    QString text() const;
    // Replaces the text as a fresh document: no undo history, not modified.
    void setText(const QString &text);
    // Moves the cursor to a text offset, or to where `pointer` is in the current text.
    void moveCursorTo(qsizetype position);
    void moveCursorToPointer(const QString &pointer);

private:
    MessageBar *m_messageBar = nullptr;
    SpecEditor *m_editor = nullptr;
    QSyntaxHighlighter *m_highlighter = nullptr;
#ifdef CALLSCOPE_HAVE_KSYNTAXHIGHLIGHTING
    std::unique_ptr<KSyntaxHighlighting::Repository> m_repository;
#endif
};

} // namespace Callscope
