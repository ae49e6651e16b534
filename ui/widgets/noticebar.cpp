#include "ui/widgets/noticebar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

namespace Callscope {

NoticeBar::NoticeBar(QWidget *parent)
    : QFrame(parent)
    , m_label(new QLabel(this))
    , m_close(new QToolButton(this))
{
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_close->setIcon(style()->standardIcon(QStyle::SP_DialogCloseButton));
    m_close->setAutoRaise(true);
    m_close->setToolTip(tr("Dismiss"));
    m_close->setAccessibleName(tr("Dismiss message"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 3, 3, 3);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_close, 0, Qt::AlignTop);
    connect(m_close, &QToolButton::clicked, this, &NoticeBar::clearMessage);
    setAccessibleName(tr("Message"));
    hide();
}

NoticeBar::~NoticeBar() = default;

void NoticeBar::showMessage(const QString &text, Kind kind)
{
    m_kind = kind;
    m_label->setText(text);
    applyPalette();
    show();
}

void NoticeBar::clearMessage()
{
    m_label->clear();
    hide();
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
