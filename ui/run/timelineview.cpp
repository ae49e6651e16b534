#include "ui/run/timelineview.h"

#include "ui/run/transcriptdelegate.h"

#include <QEvent>
#include <QResizeEvent>
#include <QScrollBar>

namespace Callscope {

TimelineView::TimelineView(QWidget *parent)
    : QTreeView(parent)
{ }

TimelineView::~TimelineView() = default;

void TimelineView::setPendingWidget(const QModelIndex &index, QWidget *widget)
{
    if (m_pending && m_pending != widget)
        clearPendingWidget();
    if (!widget || !index.isValid())
        return;
    m_pending = widget;
    m_pendingIndex = index;
    if (widget->parentWidget() != viewport())
        widget->setParent(viewport());
    widget->installEventFilter(this);
    widget->show();
    m_lastPendingHeight =
        pendingHeight(TranscriptDelegate::bodyRect(viewport()->rect(), font()).width());
    // The row's height changes with the widget in it.
    scheduleDelayedItemsLayout();
    revealPending();
}

void TimelineView::clearPendingWidget()
{
    QWidget *widget = m_pending;
    m_pending = nullptr;
    m_pendingIndex = QPersistentModelIndex();
    m_lastPendingHeight = -1;
    if (widget) {
        widget->removeEventFilter(this);
        widget->hide();
    }
    scheduleDelayedItemsLayout();
}

int TimelineView::pendingHeight(int width) const
{
    if (!m_pending)
        return 0;
    const int h = m_pending->hasHeightForWidth() ? m_pending->heightForWidth(width)
                                                 : m_pending->sizeHint().height();
    return std::max({ h, m_pending->minimumSizeHint().height(), m_pending->minimumHeight() });
}

QRect TimelineView::pendingRect() const
{
    if (!m_pending || !m_pendingIndex.isValid())
        return {};
    const QRect row = visualRect(m_pendingIndex);
    if (row.isEmpty())
        return {};
    QRect body = TranscriptDelegate::bodyRect(row, font());
    body.setHeight(pendingHeight(body.width()));
    return body;
}

void TimelineView::revealPending()
{
    if (!m_pending || !m_pendingIndex.isValid())
        return;
    executeDelayedItemsLayout();
    const QRect row = visualRect(m_pendingIndex);
    // Taller than the view: ask for the room it lacks; until it has it, its bottom, where the
    // buttons are.
    const int lacking = row.height() - viewport()->height();
    scrollTo(m_pendingIndex, lacking > 0 ? PositionAtBottom : EnsureVisible);
    placePending();
    if (lacking > 0)
        Q_EMIT needsRoom(lacking);
}

void TimelineView::placePending()
{
    if (!m_pending)
        return;
    if (!m_pendingIndex.isValid()) {
        // The row went (the transcript was cleared): so does the widget.
        clearPendingWidget();
        return;
    }
    const QRect rect = pendingRect();
    if (rect.isEmpty()) {
        m_pending->hide();
        return;
    }
    m_pending->setGeometry(rect);
    m_pending->show();
}

void TimelineView::updateGeometries()
{
    QTreeView::updateGeometries();
    placePending();
}

void TimelineView::scrollContentsBy(int dx, int dy)
{
    QTreeView::scrollContentsBy(dx, dy);
    placePending();
}

void TimelineView::resizeEvent(QResizeEvent *event)
{
    QTreeView::resizeEvent(event);
    // Rows wrap to the width: a new width means new row heights.
    if (event->size().width() != m_lastWidth) {
        m_lastWidth = event->size().width();
        scheduleDelayedItemsLayout();
    }
    // A view that was hidden or squeezed when the wait began (a tab behind another) shows
    // the waiting row once it has its size.
    if (m_pending)
        QMetaObject::invokeMethod(this, &TimelineView::revealPending, Qt::QueuedConnection);
}

bool TimelineView::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_pending && event->type() == QEvent::LayoutRequest) {
        // The widget changed what it needs (a message, an editor opened): its row follows.
        const int h =
            pendingHeight(TranscriptDelegate::bodyRect(viewport()->rect(), font()).width());
        if (h != m_lastPendingHeight) {
            m_lastPendingHeight = h;
            scheduleDelayedItemsLayout();
            // It grew by what the person did in it: keep it whole in view.
            QMetaObject::invokeMethod(this, &TimelineView::revealPending, Qt::QueuedConnection);
        }
    }
    return QTreeView::eventFilter(watched, event);
}

} // namespace Callscope
