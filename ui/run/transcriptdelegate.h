#pragma once

// Paints a transcript row: a coloured bar for its kind, a bold title line, the text wrapped
// below. Sizes come from the view's width so long rows wrap instead of scrolling sideways.

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

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

private:
    int textWidth() const;
    QAbstractItemView *m_view;
};

} // namespace Callscope
