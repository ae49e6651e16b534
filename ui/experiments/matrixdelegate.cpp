#include "ui/experiments/matrixdelegate.h"

#include <QPainter>

namespace Callscope {

VerdictColors verdictColors(CellVerdict verdict, bool dark)
{
    switch (verdict) {
    case CellVerdict::Pass:
        return dark ? VerdictColors { QColor(0x1f, 0x5e, 0x37), QColor(0xd9, 0xf7, 0xe3) }
                    : VerdictColors { QColor(0xc6, 0xeb, 0xd0), QColor(0x12, 0x4a, 0x27) };
    case CellVerdict::Flaky:
        return dark ? VerdictColors { QColor(0x6b, 0x4e, 0x0c), QColor(0xff, 0xee, 0xc2) }
                    : VerdictColors { QColor(0xfb, 0xe3, 0xa4), QColor(0x6a, 0x45, 0x00) };
    case CellVerdict::Fail:
        return dark ? VerdictColors { QColor(0x74, 0x24, 0x24), QColor(0xff, 0xdd, 0xdd) }
                    : VerdictColors { QColor(0xf6, 0xc4, 0xc4), QColor(0x7a, 0x16, 0x16) };
    case CellVerdict::Partial:
    case CellVerdict::NotRun:
        break;
    }
    return dark ? VerdictColors { QColor(0x3a, 0x3d, 0x42), QColor(0xc8, 0xcc, 0xd0) }
                : VerdictColors { QColor(0xec, 0xee, 0xf1), QColor(0x55, 0x5b, 0x63) };
}

MatrixDelegate::MatrixDelegate(QObject *parent)
    : QStyledItemDelegate(parent)
{ }

MatrixDelegate::~MatrixDelegate() = default;

void MatrixDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                           const QModelIndex &index) const
{
    const bool dark = option.palette.color(QPalette::Base).lightness() < 128;
    const auto verdict = CellVerdict(index.data(MatrixModel::VerdictRole).toInt());
    const VerdictColors colors = verdictColors(verdict, dark);
    const QRect box = option.rect.adjusted(2, 2, -2, -2);
    painter->save();
    painter->fillRect(box, colors.fill);

    // One mark per repeat along the bottom: filled = passed, hollow = not passed, faint = not run.
    const QVariantList passes = index.data(MatrixModel::RunPassesRole).toList();
    const int marks = int(std::min<qsizetype>(passes.size(), 12));
    const int size = 5, gap = 3;
    const int marksWidth = marks * size + (marks - 1) * gap;
    int x = box.center().x() - marksWidth / 2;
    const int y = box.bottom() - size - 3;
    if (marks > 1) {
        for (int i = 0; i < marks; ++i, x += size + gap) {
            const int pass = passes.at(i).toInt();
            const QRect mark(x, y, size, size);
            if (pass == 1) {
                painter->fillRect(mark, colors.text);
            } else if (pass == 0) {
                painter->setPen(colors.text);
                painter->drawRect(mark.adjusted(0, 0, -1, -1));
            } else {
                QColor faint = colors.text;
                faint.setAlpha(60);
                painter->fillRect(mark, faint);
            }
        }
    }

    const QString text = index.data(Qt::DisplayRole).toString();
    if (!text.isEmpty()) {
        painter->setPen(colors.text);
        painter->setFont(option.font);
        QRect textRect = box;
        if (marks > 1)
            textRect.setBottom(y - 1);
        painter->drawText(textRect, Qt::AlignCenter, text);
    }
    if (option.state & QStyle::State_Selected) {
        QPen pen(option.palette.color(QPalette::Highlight), 2);
        painter->setPen(pen);
        painter->setBrush(Qt::NoBrush);
        painter->drawRect(option.rect.adjusted(1, 1, -1, -1));
    } else if (option.state & QStyle::State_HasFocus) {
        painter->setPen(QPen(option.palette.color(QPalette::Highlight), 1, Qt::DotLine));
        painter->drawRect(option.rect.adjusted(1, 1, -2, -2));
    }
    painter->restore();
}

QSize MatrixDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &) const
{
    const int line = option.fontMetrics.height();
    return { std::max(72, option.fontMetrics.horizontalAdvance(QStringLiteral("00/00")) + 24),
             line + 16 };
}

} // namespace Callscope
