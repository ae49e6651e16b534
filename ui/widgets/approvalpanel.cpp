#include "ui/widgets/approvalpanel.h"

#include "ui/widgets/jsoneditor.h"
#include "ui/widgets/noticebar.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Callscope {

ApprovalPanel::ApprovalPanel(QWidget *parent)
    : QFrame(parent)
    , m_title(new QLabel(this))
    , m_arguments(new JsonEditor(this))
    , m_reason(new QLineEdit(this))
    , m_alwaysAllow(new QCheckBox(tr("Always allow this tool for the rest of the run"), this))
    , m_approve(new QPushButton(tr("&Approve"), this))
    , m_edit(new QPushButton(tr("&Edit Arguments"), this))
    , m_refuse(new QPushButton(tr("Re&fuse"), this))
    , m_result(new QPlainTextEdit(this))
    , m_submit(new QPushButton(tr("&Send Result"), this))
    , m_submitError(new QPushButton(tr("Send as &Error"), this))
    , m_messages(new NoticeBar(this))
{
    setObjectName(u"approvalPanel"_s);
    setAccessibleName(tr("Tool approval"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    QPalette pal = palette();
    pal.setColor(QPalette::Window, pal.color(QPalette::AlternateBase));
    setPalette(pal);

    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_title->setWordWrap(true);
    m_arguments->setObjectName(u"approvalArguments"_s);
    m_arguments->setAccessibleName(tr("Tool call arguments"));
    m_arguments->setReadOnly(true);
    // Sized to the arguments, within bounds: the buttons matter more than room for long
    // arguments (the editor scrolls).
    fitArguments();
    m_reason->setObjectName(u"refusalReason"_s);
    m_reason->setAccessibleName(tr("Reason for refusing, sent to the model"));
    m_reason->setPlaceholderText(tr("Reason sent to the model when you refuse (optional)"));
    m_alwaysAllow->setObjectName(u"alwaysAllow"_s);
    m_approve->setObjectName(u"approveButton"_s);
    m_approve->setToolTip(tr("Run the tool with these arguments (Ctrl+Return)"));
    m_edit->setObjectName(u"editArgumentsButton"_s);
    m_edit->setCheckable(true);
    m_edit->setToolTip(tr("Edit the arguments, then approve"));
    m_refuse->setObjectName(u"refuseButton"_s);
    m_refuse->setToolTip(tr("Do not run the tool; the model gets the reason as an error result "
                            "(Ctrl+Shift+Backspace)"));
    m_result->setObjectName(u"manualResult"_s);
    m_result->setAccessibleName(tr("Tool result to send"));
    m_result->setPlaceholderText(tr("Type or paste the tool's result"));
    m_result->setTabChangesFocus(true);
    m_submit->setObjectName(u"submitManualButton"_s);
    m_submit->setToolTip(tr("Send this text to the model as the tool's result (Ctrl+Return)"));
    m_submitError->setObjectName(u"submitManualErrorButton"_s);
    m_submitError->setToolTip(tr("Send this text to the model as the tool's error"));
    // Enter presses the button that has the focus, and no other.
    for (QPushButton *b : { m_approve, m_refuse, m_submit, m_submitError })
        b->setAutoDefault(true);
    // The shortcuts act only while the focus is inside this panel, so typing elsewhere (the
    // spec, another tab's run) never approves anything.
    auto *primary = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), this);
    primary->setContext(Qt::WidgetWithChildrenShortcut);
    connect(primary, &QShortcut::activated, this, [this] {
        if (m_mode == Mode::Approval)
            m_approve->click();
        else if (m_mode == Mode::Manual)
            m_submit->click();
    });
    auto *refuse = new QShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Backspace), this);
    refuse->setContext(Qt::WidgetWithChildrenShortcut);
    connect(refuse, &QShortcut::activated, this, [this] {
        if (m_mode == Mode::Approval)
            m_refuse->click();
    });

    m_approvalRow = new QWidget(this);
    auto *ar = new QVBoxLayout(m_approvalRow);
    ar->setContentsMargins(0, 0, 0, 0);
    ar->addWidget(m_reason);
    // The check box on its own row: the buttons fit a narrow panel (the Sessions dock).
    ar->addWidget(m_alwaysAllow);
    auto *buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_edit);
    buttons->addWidget(m_refuse);
    buttons->addWidget(m_approve);
    ar->addLayout(buttons);

    m_manualRow = new QWidget(this);
    auto *mr = new QVBoxLayout(m_manualRow);
    mr->setContentsMargins(0, 0, 0, 0);
    mr->addWidget(m_result);
    auto *mb = new QHBoxLayout;
    mb->addStretch(1);
    mb->addWidget(m_submitError);
    mb->addWidget(m_submit);
    mr->addLayout(mb);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_messages);
    layout->addWidget(m_arguments);
    layout->addWidget(m_approvalRow);
    layout->addWidget(m_manualRow);

    connect(m_edit, &QPushButton::toggled, this, [this](bool on) {
        m_arguments->setReadOnly(!on);
        m_approve->setText(on ? tr("&Approve Edited") : tr("&Approve"));
        if (on)
            m_arguments->setFocus(Qt::OtherFocusReason);
    });
    connect(m_approve, &QPushButton::clicked, this, &ApprovalPanel::onApprove);
    connect(m_refuse, &QPushButton::clicked, this, [this] {
        const QString id = m_call.id;
        const QString reason = m_reason->text().trimmed();
        dismiss();
        Q_EMIT refused(id, reason);
    });
    connect(m_submit, &QPushButton::clicked, this, [this] {
        const QString id = m_call.id;
        const QString text = m_result->toPlainText();
        dismiss();
        Q_EMIT manualResult(id, text, false);
    });
    connect(m_submitError, &QPushButton::clicked, this, [this] {
        const QString id = m_call.id;
        const QString text = m_result->toPlainText();
        dismiss();
        Q_EMIT manualResult(id, text, true);
    });
    hide();
}

ApprovalPanel::~ApprovalPanel() = default;

QString ApprovalPanel::titleText() const
{
    return m_title->text();
}

void ApprovalPanel::askApproval(const ToolCall &call, bool editedByYou)
{
    m_mode = Mode::Approval;
    m_call = call;
    m_title->setText(
        editedByYou
            ? tr("\"%1\" (call %2) is to run with the arguments you edited, not the model's. "
                 "It needs your approval.")
                  .arg(call.name, call.id)
            : tr("The model wants to run \"%1\" (call %2). It needs your approval.")
                  .arg(call.name, call.id));
    m_arguments->setJsonText(
        QString::fromUtf8(QJsonDocument(call.arguments).toJson(QJsonDocument::Indented)).trimmed());
    m_arguments->setReadOnly(true);
    fitArguments();
    m_edit->setChecked(false);
    m_reason->clear();
    m_alwaysAllow->setChecked(false);
    m_messages->clearMessage();
    m_approvalRow->show();
    m_manualRow->hide();
    show();
    m_approve->setFocus(Qt::OtherFocusReason);
}

void ApprovalPanel::askManualResult(const ToolCall &call)
{
    m_mode = Mode::Manual;
    m_call = call;
    m_title->setText(
        tr("\"%1\" is a manual tool: type its result for call %2.").arg(call.name, call.id));
    m_arguments->setJsonText(
        QString::fromUtf8(QJsonDocument(call.arguments).toJson(QJsonDocument::Indented)).trimmed());
    m_arguments->setReadOnly(true);
    fitArguments();
    m_result->clear();
    m_messages->clearMessage();
    m_approvalRow->hide();
    m_manualRow->show();
    show();
    m_result->setFocus(Qt::OtherFocusReason);
}

void ApprovalPanel::fitArguments()
{
    // Three to eight lines of the arguments, the rest scrolls.
    const int lines = std::clamp(m_arguments->document()->blockCount(), 3, 8);
    const int frame =
        2 * m_arguments->frameWidth() + int(2 * m_arguments->document()->documentMargin());
    m_arguments->setFixedHeight(lines * m_arguments->fontMetrics().lineSpacing() + frame + 4);
    m_result->setFixedHeight(5 * m_result->fontMetrics().lineSpacing() + 2 * m_result->frameWidth()
                             + int(2 * m_result->document()->documentMargin()) + 4);
}

void ApprovalPanel::keyPressEvent(QKeyEvent *event)
{
    // Enter that no focused button took (in the reason line, say) stops here: it neither
    // approves nor reaches the list the panel stands in.
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) {
        event->accept();
        return;
    }
    QFrame::keyPressEvent(event);
}

void ApprovalPanel::dismiss()
{
    m_mode = Mode::None;
    hide();
}

void ApprovalPanel::onApprove()
{
    std::optional<QJsonObject> edited;
    if (m_edit->isChecked()) {
        QJsonParseError error;
        const QJsonDocument doc =
            QJsonDocument::fromJson(m_arguments->toPlainText().toUtf8(), &error);
        if (error.error != QJsonParseError::NoError || !doc.isObject()) {
            m_messages->showMessage(error.error != QJsonParseError::NoError
                                        ? tr("The arguments are not valid JSON: %1 (at offset %2)")
                                              .arg(error.errorString())
                                              .arg(error.offset)
                                        : tr("The arguments must be a JSON object."),
                                    NoticeBar::Kind::Error);
            return;
        }
        if (doc.object() != m_call.arguments)
            edited = doc.object();
    }
    const QString id = m_call.id;
    const bool always = m_alwaysAllow->isChecked();
    dismiss();
    Q_EMIT approved(id, edited, always);
}

} // namespace Callscope
