#pragma once

// A non-modal message bar shown above a view: recoverable errors and notes inline, never a
// modal dialog.

#include <QFrame>

class QLabel;
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

    void showMessage(const QString &text, Kind kind = Kind::Info);
    void clearMessage();
    QString text() const;
    Kind kind() const { return m_kind; }

private:
    void applyPalette();

    QLabel *m_label = nullptr;
    QToolButton *m_close = nullptr;
    Kind m_kind = Kind::Info;
};

} // namespace Callscope
