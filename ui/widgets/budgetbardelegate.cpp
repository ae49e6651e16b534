#include "ui/widgets/budgetbardelegate.h"

#include "ui/widgets/budgetmodel.h"

#include <QApplication>
#include <QPainter>

namespace Callscope {

BudgetBarDelegate::BudgetBarDelegate(QObject *parent)
    : QStyledItemDelegate(parent)
{ }

BudgetBarDelegate::~BudgetBarDelegate() = default;

void BudgetBarDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                              const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QString text = opt.text;
    opt.text.clear();
    QWidget *widget = const_cast<QWidget *>(option.widget);
    QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

    const qint64 max = index.data(BudgetModel::MaxCharsRole).toLongLong();
    const qint64 before = index.data(BudgetModel::CharsBeforeRole).toLongLong();
    const qint64 after = index.data(BudgetModel::CharsAfterRole).toLongLong();
    const QRect area = option.rect.adjusted(4, 4, -4, -4);
    if (max > 0 && area.width() > 10) {
        const int full = std::max(1, int(area.width() * double(before) / double(max)));
        const int sent = before > 0 ? int(full * double(after) / double(before)) : 0;
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing, false);
        QColor trimmed = option.palette.color(QPalette::Text);
        trimmed.setAlpha(45);
        QColor kept = option.palette.color(QPalette::Highlight);
        kept.setAlpha(150);
        painter->fillRect(QRect(area.left(), area.top(), full, area.height()), trimmed);
        if (sent > 0)
            painter->fillRect(QRect(area.left(), area.top(), std::min(sent, full), area.height()),
                              kept);
        painter->restore();
    }
    painter->save();
    painter->setPen(option.palette.color(
        option.state & QStyle::State_Selected ? QPalette::HighlightedText : QPalette::Text));
    painter->drawText(option.rect.adjusted(8, 0, -6, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
    painter->restore();
}

QSize BudgetBarDelegate::sizeHint(const QStyleOptionViewItem &option,
                                  const QModelIndex &index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    size.setWidth(std::max(size.width(), 220));
    return size;
}

} // namespace Callscope
