#include "ui/diff/diffmodel.h"

#include <QColor>
#include <QFont>
#include <QFontDatabase>

using namespace Qt::StringLiterals;

namespace Callscope {

DiffModel::DiffModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

DiffModel::~DiffModel() = default;

void DiffModel::setDiff(const CallDiff &diff)
{
    beginResetModel();
    m_diff = diff;
    endResetModel();
}

QList<int> DiffModel::differenceRows() const
{
    QList<int> rows;
    for (int i = 0; i < m_diff.rows.size(); ++i) {
        if (m_diff.rows.at(i).state != DiffState::Same)
            rows.append(i);
    }
    return rows;
}

QColor DiffModel::stateColor(DiffState state)
{
    // Translucent tints over the view's own base colour work in light and dark palettes.
    switch (state) {
    case DiffState::Same:
        return {};
    case DiffState::Changed:
        return QColor(255, 170, 0, 80);
    case DiffState::Added:
        return QColor(40, 190, 60, 75);
    case DiffState::Removed:
        return QColor(230, 50, 50, 75);
    }
    return {};
}

int DiffModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_diff.rows.size());
}

int DiffModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DiffModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const DiffRow &row = m_diff.rows.at(index.row());
    switch (role) {
    case StateRole:
        return int(row.state);
    case SectionRole:
        return int(row.section);
    case ChangedPointersRole:
        return row.changedPointers;
    case Qt::DisplayRole:
        switch (index.column()) {
        case WhatColumn:
            return row.label;
        case LeftColumn:
            return row.hasLeft ? row.left : QString();
        case RightColumn:
            return row.hasRight ? row.right : QString();
        default:
            return {};
        }
    case Qt::ToolTipRole: {
        QString tip = diffSectionName(row.section) + u": "_s + diffStateName(row.state);
        if (!row.changedPointers.isEmpty())
            tip += u"\n"_s + tr("Changed: %1").arg(row.changedPointers.join(u", "_s));
        return tip;
    }
    case Qt::BackgroundRole: {
        if (row.state == DiffState::Same)
            return {};
        if (index.column() == LeftColumn && row.state == DiffState::Added)
            return {};
        if (index.column() == RightColumn && row.state == DiffState::Removed)
            return {};
        return stateColor(row.state);
    }
    case Qt::FontRole:
        if (index.column() == WhatColumn) {
            QFont font;
            font.setBold(row.state != DiffState::Same);
            return font;
        }
        if (row.section == DiffSection::ToolCall || row.section == DiffSection::Result)
            return QFontDatabase::systemFont(QFontDatabase::FixedFont);
        return {};
    default:
        return {};
    }
}

QVariant DiffModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case WhatColumn:
        return tr("What");
    case LeftColumn:
        return m_diff.leftId ? tr("Call %1").arg(m_diff.leftId) : tr("Left");
    case RightColumn:
        return m_diff.rightId ? tr("Call %1").arg(m_diff.rightId) : tr("Right");
    default:
        return {};
    }
}

} // namespace Callscope
