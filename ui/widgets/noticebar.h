#pragma once

// A non-modal message bar shown above a view: recoverable errors and notes inline, never a
// modal dialog. A message can carry details (a server's whole error page, say): they stay
// behind a Details button so the bar itself shows one line.

#include <QFrame>

class QLabel;
class QPlainTextEdit;
class QToolButton;

namespace Callscope {

class NoticeBar final : public QFrame
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(NoticeBar)

public:
    enum class Kind { Info, Warning, Error };

    explicit NoticeBar(QWidget *parent = nullptr);
    ~NoticeBar() override;

    void showMessage(const QString &text, Kind kind = Kind::Info, const QString &details = {});
    void clearMessage();
    QString text() const;
    Kind kind() const { return m_kind; }
    QString details() const;
    QToolButton *detailsButton() const { return m_detailsButton; }
    QPlainTextEdit *detailsView() const { return m_detailsView; }

private:
    void applyPalette();

    QLabel *m_label = nullptr;
    QToolButton *m_detailsButton = nullptr;
    QToolButton *m_close = nullptr;
    QPlainTextEdit *m_detailsView = nullptr;
    Kind m_kind = Kind::Info;
};

} // namespace Callscope
