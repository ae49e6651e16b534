#pragma once

// Draws a row's size as a bar: the full length of the original content, and the part of it
// that was actually sent, scaled to the largest row of the request.

#include <QStyledItemDelegate>

namespace Callscope {

class BudgetBarDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BudgetBarDelegate)

public:
    explicit BudgetBarDelegate(QObject *parent);
    ~BudgetBarDelegate() override;

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

} // namespace Callscope
