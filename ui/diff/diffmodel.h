#pragma once

// The rows of a CallDiff as a table: what, left call, right call. Rows that differ carry a
// background (translucent, so it reads on light and dark palettes) and their state.

#include "ui/widgets/calldiff.h"

#include <QAbstractTableModel>

namespace Callscope {

class DiffModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DiffModel)

public:
    enum Column { WhatColumn, LeftColumn, RightColumn, ColumnCount };
    enum Role { StateRole = Qt::UserRole + 1, SectionRole, ChangedPointersRole };

    explicit DiffModel(QObject *parent);
    ~DiffModel() override;

    void setDiff(const CallDiff &diff);
    const CallDiff &diff() const { return m_diff; }
    // Rows that are not Same, in order (for "next difference").
    QList<int> differenceRows() const;

    static QColor stateColor(DiffState state);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    CallDiff m_diff;
};

} // namespace Callscope
