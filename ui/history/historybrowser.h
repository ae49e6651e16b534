#pragma once

// The history browser: filters (kind, status, engine, date range), a debounced full-text
// search, the paged call table and the selected call shown read-only below it.

#include "core/store/callstore.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDateEdit;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;
class QTimer;

namespace Callscope {

class HistoryWatcher;

class CallService;
class CallView;
class HistoryModel;

class HistoryBrowser final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryBrowser)

public:
    // `store` may be null until setStore(); it must outlive the browser.
    explicit HistoryBrowser(CallStore *store, QWidget *parent = nullptr);
    ~HistoryBrowser() override;

    void setStore(CallStore *store);
    // Reloads the table (keeping the selection) whenever a call of `service` is stored.
    void setCallService(CallService *service);
    HistoryModel *model() const { return m_model; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    QTableView *view() const { return m_view; }
    CallView *callView() const { return m_callView; }
    QLineEdit *searchEdit() const { return m_search; }
    QLineEdit *kindEdit() const { return m_kind; }
    QComboBox *statusCombo() const { return m_status; }
    QComboBox *engineCombo() const { return m_engine; }
    QCheckBox *dateCheck() const { return m_dateRange; }
    QDateEdit *fromEdit() const { return m_from; }
    QDateEdit *toEdit() const { return m_to; }
    int searchDelayMs() const;

    // The filters as a query (what applyFilters() runs).
    HistoryQuery currentQuery() const;
    qint64 selectedCallId() const;

public Q_SLOTS:
    void refresh();
    // Refreshes now, or once at the end of a burst of changes.
    void requestRefresh();
    void applyFilters();
    // Selects the call when it is loaded and shows it.
    void openCall(qint64 id);

Q_SIGNALS:
    void callOpened(qint64 id);
    void revisionTreeRequested(qint64 id);
    void diffRequested(qint64 id);
    void budgetRequested(qint64 id);
    void exportRequested(qint64 id);

private:
    void showCall(qint64 id);
    void onSelectionChanged();

    CallStore *m_store = nullptr;
    HistoryWatcher *m_watcher = nullptr;
    QTimer *m_quiet = nullptr; // coalesces refreshes while many calls arrive
    bool m_refreshMissed = false;
    HistoryModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QTableView *m_view = nullptr;
    CallView *m_callView = nullptr;
    QLineEdit *m_search = nullptr;
    QLineEdit *m_kind = nullptr;
    QComboBox *m_status = nullptr;
    QComboBox *m_engine = nullptr;
    QCheckBox *m_dateRange = nullptr;
    QDateEdit *m_from = nullptr;
    QDateEdit *m_to = nullptr;
    QLabel *m_message = nullptr;
    QTimer *m_debounce = nullptr;
    bool m_columnsSized = false;
};

} // namespace Callscope
