#include "ui/widgets/noticebar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

namespace Callscope {

NoticeBar::NoticeBar(QWidget *parent)
    : QFrame(parent)
    , m_label(new QLabel(this))
    , m_detailsButton(new QToolButton(this))
    , m_close(new QToolButton(this))
    , m_detailsView(new QPlainTextEdit(this))
{
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_detailsButton->setText(tr("Details"));
    m_detailsButton->setCheckable(true);
    m_detailsButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_detailsButton->setToolTip(tr("Show what the server sent"));
    m_detailsButton->hide();
    m_detailsView->setReadOnly(true);
    m_detailsView->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_detailsView->setMaximumHeight(180);
    m_detailsView->setAccessibleName(tr("Message details"));
    m_detailsView->hide();
    m_close->setIcon(style()->standardIcon(QStyle::SP_DialogCloseButton));
    m_close->setAutoRaise(true);
    m_close->setToolTip(tr("Dismiss"));
    m_close->setAccessibleName(tr("Dismiss message"));
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(6, 3, 3, 3);
    auto *layout = new QHBoxLayout;
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_detailsButton, 0, Qt::AlignTop);
    layout->addWidget(m_close, 0, Qt::AlignTop);
    outer->addLayout(layout);
    outer->addWidget(m_detailsView);
    connect(m_close, &QToolButton::clicked, this, &NoticeBar::clearMessage);
    connect(m_detailsButton, &QToolButton::toggled, m_detailsView, &QWidget::setVisible);
    setAccessibleName(tr("Message"));
    hide();
}

NoticeBar::~NoticeBar() = default;

void NoticeBar::showMessage(const QString &text, Kind kind, const QString &details)
{
    m_kind = kind;
    m_label->setText(text);
    m_detailsView->setPlainText(details);
    m_detailsButton->setChecked(false);
    m_detailsButton->setVisible(!details.isEmpty());
    m_detailsView->hide();
    applyPalette();
    show();
}

void NoticeBar::clearMessage()
{
    m_label->clear();
    m_detailsView->clear();
    m_detailsButton->setChecked(false);
    m_detailsButton->hide();
    hide();
}

QString NoticeBar::details() const
{
    return m_detailsView->toPlainText();
}

QString NoticeBar::text() const
{
    return isVisible() || !m_label->text().isEmpty() ? m_label->text() : QString();
}

void NoticeBar::applyPalette()
{
    // Tints derived from the current palette so light and dark themes both read well.
    QPalette pal = palette();
    const QColor base = pal.color(QPalette::Window);
    QColor tint;
    switch (m_kind) {
    case Kind::Info:
        tint = QColor(60, 130, 220);
        break;
    case Kind::Warning:
        tint = QColor(230, 160, 20);
        break;
    case Kind::Error:
        tint = QColor(220, 50, 50);
        break;
    }
    const double a = 0.22;
    const QColor mixed = QColor::fromRgbF(base.redF() * (1 - a) + tint.redF() * a,
                                          base.greenF() * (1 - a) + tint.greenF() * a,
                                          base.blueF() * (1 - a) + tint.blueF() * a);
    pal.setColor(QPalette::Window, mixed);
    setPalette(pal);
}

} // namespace Callscope
