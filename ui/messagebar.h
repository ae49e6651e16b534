#pragma once

// An inline, non-modal message strip (errors, warnings, notes) shown above a view; the person
// can close it. Recoverable problems go here instead of into modal dialogs.

#include <QFrame>

class QLabel;
class QToolButton;

namespace Callscope {

class MessageBar final : public QFrame
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MessageBar)

public:
    enum class Type { Error, Warning, Information };

    explicit MessageBar(QWidget *parent = nullptr);
    ~MessageBar() override;

    void showMessage(const QString &text, Type type);
    void hideMessage();
    QString text() const;
    Type type() const { return m_type; }

private:
    QLabel *m_icon = nullptr;
    QLabel *m_text = nullptr;
    QToolButton *m_close = nullptr;
    Type m_type = Type::Information;
};

} // namespace Callscope
