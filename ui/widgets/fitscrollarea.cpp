#include "ui/widgets/fitscrollarea.h"

#include <QEvent>
#include <QScrollBar>

namespace Callscope {

FitScrollArea::FitScrollArea(QWidget *parent)
    : QScrollArea(parent)
{
    setWidgetResizable(false);
    setFrameShape(QFrame::NoFrame);
}

FitScrollArea::~FitScrollArea() = default;

void FitScrollArea::setContent(QWidget *content)
{
    setWidget(content);
    setFocusProxy(content);
    content->installEventFilter(this);
    fit();
}

QSize FitScrollArea::sizeHint() const
{
    return widget() ? widget()->sizeHint() : QScrollArea::sizeHint();
}

QSize FitScrollArea::minimumSizeHint() const
{
    // A dock may be narrower or shorter than its content: then it scrolls.
    return QSize(80, 80);
}

void FitScrollArea::resizeEvent(QResizeEvent *event)
{
    QScrollArea::resizeEvent(event);
    fit();
}

bool FitScrollArea::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == widget() && event->type() == QEvent::LayoutRequest)
        fit();
    return QScrollArea::eventFilter(watched, event);
}

void FitScrollArea::fit()
{
    QWidget *content = widget();
    if (!content || m_fitting)
        return;
    m_fitting = true;
    const QSize minimum = content->minimumSizeHint().expandedTo(content->minimumSize());
    const QSize room = maximumViewportSize();
    int width = std::max(room.width(), minimum.width());
    int height = std::max(room.height(), minimum.height());
    // A scroll bar in one direction takes room from the other.
    if (width > room.width())
        height =
            std::max(room.height() - horizontalScrollBar()->sizeHint().height(), minimum.height());
    if (height > room.height())
        width = std::max(room.width() - verticalScrollBar()->sizeHint().width(), minimum.width());
    if (content->size() != QSize(width, height))
        content->resize(width, height);
    m_fitting = false;
}

} // namespace Callscope
