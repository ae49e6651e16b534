#include "ui/messagebar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

using namespace Qt::StringLiterals;

namespace Callscope {

MessageBar::MessageBar(QWidget *parent)
    : QFrame(parent)
    , m_icon(new QLabel(this))
    , m_text(new QLabel(this))
    , m_close(new QToolButton(this))
{
    setObjectName(u"messageBar"_s);
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    m_close->setAutoRaise(true);
    m_close->setToolTip(tr("Close"));
    m_close->setAccessibleName(tr("Close message"));

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    layout->addWidget(m_icon, 0, Qt::AlignTop);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_close, 0, Qt::AlignTop);
    connect(m_close, &QToolButton::clicked, this, &MessageBar::hideMessage);
    hide();
}

MessageBar::~MessageBar() = default;

void MessageBar::showMessage(const QString &text, Type type)
{
    m_type = type;
    m_text->setText(text);
    QColor tint;
    QStyle::StandardPixmap icon = QStyle::SP_MessageBoxInformation;
    switch (type) {
    case Type::Error:
        tint = QColor(0xe0, 0x3c, 0x31);
        icon = QStyle::SP_MessageBoxCritical;
        break;
    case Type::Warning:
        tint = QColor(0xf0, 0xa0, 0x20);
        icon = QStyle::SP_MessageBoxWarning;
        break;
    case Type::Information:
        tint = QColor(0x35, 0x84, 0xe4);
        break;
    }
    // A light wash of the type's colour over the window colour: readable in light and dark.
    QPalette pal = palette();
    const QColor base = pal.color(QPalette::Window);
    const QColor wash = QColor::fromRgbF(base.redF() * 0.8f + tint.redF() * 0.2f,
                                         base.greenF() * 0.8f + tint.greenF() * 0.2f,
                                         base.blueF() * 0.8f + tint.blueF() * 0.2f);
    pal.setColor(QPalette::Window, wash);
    setPalette(pal);
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    m_icon->setPixmap(style()->standardIcon(icon).pixmap(size, size));
    show();
}

void MessageBar::hideMessage()
{
    hide();
}

QString MessageBar::text() const
{
    return m_text->text();
}

} // namespace Callscope
