#pragma once

// Paints a transcript row: a coloured bar for its kind, a bold title line, the text wrapped
// below. Sizes come from the view's width so long rows wrap instead of scrolling sideways. In a
// TimelineView the row that holds the pending widget gets the widget's height and no text (the
// widget stands where the text would be).

#include <QStyledItemDelegate>

class QAbstractItemView;

namespace Callscope {

class TranscriptDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TranscriptDelegate)

public:
    explicit TranscriptDelegate(QAbstractItemView *view);
    ~TranscriptDelegate() override;

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    // The part of a row below its title, where the text (or the pending widget) goes.
    static QRect bodyRect(const QRect &rowRect, const QFont &font);

private:
    int textWidth() const;
    bool isPendingRow(const QModelIndex &index) const;
    QAbstractItemView *m_view;
};

} // namespace Callscope
