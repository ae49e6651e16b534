#pragma once

// The non-modal panel that asks a person about a tool call: approve, refuse with a reason,
// edit the arguments and approve, always allow the tool for the rest of the run. Manual tools
// ask for their result here too (send it, or send it as an error). The run panel shows it inline
// in the timeline at the row that waits; a session shows it under its chat.
//
// Keys: the focus goes to the first thing to do (Approve, or the result box); Enter presses a
// button only when the focus is on it; Ctrl+Return approves (or sends the result) and
// Ctrl+Shift+Backspace refuses while the focus is inside the panel.

#include "core/model/message.h"

#include <QFrame>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace Callscope {

class JsonEditor;
class NoticeBar;

class ApprovalPanel final : public QFrame
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ApprovalPanel)

public:
    enum class Mode { None, Approval, Manual };

    explicit ApprovalPanel(QWidget *parent = nullptr);
    ~ApprovalPanel() override;

    // `editedByYou`: the arguments are the ones the person edited at a pause, not the model's.
    void askApproval(const ToolCall &call, bool editedByYou = false);
    QString titleText() const;
    void askManualResult(const ToolCall &call);
    void dismiss();

    Mode mode() const { return m_mode; }
    const ToolCall &call() const { return m_call; }

    // Widgets, for tests and for focus handling.
    QLabel *titleLabel() const { return m_title; }
    JsonEditor *argumentsEditor() const { return m_arguments; }
    QLineEdit *reasonEdit() const { return m_reason; }
    QPlainTextEdit *resultEdit() const { return m_result; }
    QCheckBox *alwaysAllowBox() const { return m_alwaysAllow; }
    QPushButton *approveButton() const { return m_approve; }
    QPushButton *refuseButton() const { return m_refuse; }
    QPushButton *editButton() const { return m_edit; }
    QPushButton *submitButton() const { return m_submit; }

Q_SIGNALS:
    // editedArguments is set when the person changed them.
    void approved(const QString &callId, const std::optional<QJsonObject> &editedArguments,
                  bool alwaysAllow);
    void refused(const QString &callId, const QString &reason);
    void manualResult(const QString &callId, const QString &content, bool isError);

protected:
    void keyPressEvent(QKeyEvent *event) override;

private:
    void onApprove();
    void fitArguments();

    Mode m_mode = Mode::None;
    ToolCall m_call;
    QLabel *m_title = nullptr;
    JsonEditor *m_arguments = nullptr;
    QLineEdit *m_reason = nullptr;
    QCheckBox *m_alwaysAllow = nullptr;
    QPushButton *m_approve = nullptr;
    QPushButton *m_edit = nullptr;
    QPushButton *m_refuse = nullptr;
    QPlainTextEdit *m_result = nullptr;
    QPushButton *m_submit = nullptr;
    QPushButton *m_submitError = nullptr;
    NoticeBar *m_messages = nullptr;
    QWidget *m_approvalRow = nullptr;
    QWidget *m_manualRow = nullptr;
};

} // namespace Callscope
