#pragma once

// The run's timeline: the transcript as a list, where one row can hold the widget of what the
// run waits on (an approval, a manual tool's result, the editor of a breakpoint). That row grows
// to the widget's height, the widget moves with its row as the list scrolls, and the row is
// scrolled into view when the widget appears. The other rows are painted by the delegate.

#include <QPersistentModelIndex>
#include <QPointer>
#include <QTreeView>

namespace Callscope {

class TimelineView final : public QTreeView
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TimelineView)

public:
    explicit TimelineView(QWidget *parent = nullptr);
    ~TimelineView() override;

    // Shows `widget` inside the row `index` (the widget is moved into the view) and scrolls the
    // row into view. One widget at a time; a new one replaces the last (which is hidden).
    void setPendingWidget(const QModelIndex &index, QWidget *widget);
    // Hides the widget; it stays a child of the view for its next use.
    void clearPendingWidget();
    QWidget *pendingWidget() const { return m_pending; }
    QModelIndex pendingIndex() const { return m_pendingIndex; }
    // The height the widget needs at `width` (for the delegate's size of its row).
    int pendingHeight(int width) const;
    // Where the widget stands, in viewport coordinates (empty when there is none).
    QRect pendingRect() const;
    // Scrolls so the whole pending row shows (its bottom, with the buttons, when it is taller
    // than the view).
    void revealPending();

Q_SIGNALS:
    // The pending row is `pixels` taller than the view: whoever lays the view out may give it
    // that much more room (the row is shown whole once it fits).
    void needsRoom(int pixels);

protected:
    void updateGeometries() override;
    void scrollContentsBy(int dx, int dy) override;
    void resizeEvent(QResizeEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void placePending();

    QPointer<QWidget> m_pending;
    QPersistentModelIndex m_pendingIndex;
    int m_lastWidth = -1;
    int m_lastPendingHeight = -1;
};

} // namespace Callscope
