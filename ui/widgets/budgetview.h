#pragma once

// The context budget of one request of one call: pick the turn, see each message and part
// with its size as a bar, what was kept, stubbed or dropped and why, the stub text actually
// sent, the budget line and the totals. A second tab shows the call's prompt cache: the same
// CacheView as the call tab's Cache page, for the call shown here.

#include "core/context/contextbudget.h"
#include "core/model/callrecord.h"
#include "core/store/cachereport.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QTableView;
class QTabWidget;

namespace Callscope {

class BudgetModel;
class CacheView;

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
    QTabWidget *tabs() const { return m_tabs; }
    CacheView *cacheView() const { return m_cache; }
    // Without the cache tab (the call tab has a Cache page of its own).
    void setCacheTabShown(bool shown);
    // The cache report of the call shown (read with it) and its cost with and without the
    // cache; setCall() empties the tab until it comes.
    void setCacheReport(const Callscope::CacheReport &report, std::optional<double> costUsd,
                        std::optional<double> uncachedUsd);

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
    QTabWidget *m_tabs = nullptr;
    CacheView *m_cache = nullptr;
    QLabel *m_cacheEmpty = nullptr;
};

} // namespace Callscope
