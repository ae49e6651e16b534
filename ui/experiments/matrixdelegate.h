#pragma once

// Paints a matrix cell: its verdict as a colour (pass green, flaky amber, fail red, not run
// plain), the passes over the repeats ("2/3") and one small mark per repeat. Cheap: fills and
// one line of text, no style calls, so thousands of cells scroll smoothly.

#include "ui/experiments/matrixmodel.h"

#include <QColor>
#include <QStyledItemDelegate>

namespace Callscope {

// The colours a verdict is drawn with (also used by the charts).
struct VerdictColors
{
    QColor fill;
    QColor text;
};
VerdictColors verdictColors(CellVerdict verdict, bool dark);

class MatrixDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MatrixDelegate)

public:
    explicit MatrixDelegate(QObject *parent = nullptr);
    ~MatrixDelegate() override;

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

} // namespace Callscope
