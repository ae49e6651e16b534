#pragma once

// A context budget report (core/context/contextbudget.h) as a table: one row per message of
// the request, followed by one row per part of it (text, tool call, tool result, image, note).

#include "core/context/contextbudget.h"

#include <QAbstractTableModel>

namespace Callscope {

class BudgetModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BudgetModel)

public:
    enum Column {
        ItemColumn,
        StatusColumn,
        ReasonColumn,
        SizeColumn,
        TokensColumn,
        SentColumn,
        ColumnCount
    };
    enum Role {
        CharsBeforeRole = Qt::UserRole + 1,
        CharsAfterRole,
        MaxCharsRole, // the largest charsBefore of any row, for the bars
        IsPartRole,
        StatusRole, // BudgetStatus as int
        ReasonNameRole, // budgetReasonName()
        MessageIndexRole,
    };

    explicit BudgetModel(QObject *parent);
    ~BudgetModel() override;

    void setReport(const BudgetReport &report);
    const BudgetReport &report() const { return m_report; }
    void clear() { setReport(BudgetReport()); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    static QString statusText(BudgetStatus status);
    static QString reasonText(BudgetReason reason);

private:
    struct Row
    {
        int message = 0;
        int part = -1; // -1: the message row
    };
    BudgetReport m_report;
    QList<Row> m_rows;
    qint64 m_maxChars = 0;
};

} // namespace Callscope
