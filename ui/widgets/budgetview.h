#pragma once

// The context budget of one request of one call: pick the turn, see each message and part
// with its size as a bar, what was kept, stubbed or dropped and why, the stub text actually
// sent, the budget line and the totals.

#include "core/context/contextbudget.h"
#include "core/model/callrecord.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QTableView;

namespace Callscope {

class BudgetModel;

class BudgetView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BudgetView)

public:
    explicit BudgetView(QWidget *parent = nullptr);
    ~BudgetView() override;

    BudgetModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    QComboBox *turnCombo() const { return m_turn; }
    QString summaryText() const;
    // Where the request's budget came from and what it keeps, in plain words.
    static QString budgetLineText(const BudgetReport &report);
    // The call shown (0 for none, or for a single report).
    qint64 callId() const { return m_record.id; }

public Q_SLOTS:
    // A recorded call: its turns' reports (the last turn shown first).
    void setCall(const Callscope::CallRecord &record);
    // One report (a live request, or a turn picked elsewhere).
    void setReport(const Callscope::BudgetReport &report, const QString &title = {});
    void showTurn(int turnIndex);

private:
    void showReport(const BudgetReport &report);

    CallRecord m_record;
    BudgetModel *m_model = nullptr;
    QTableView *m_view = nullptr;
    QComboBox *m_turn = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_summary = nullptr;
};

} // namespace Callscope
