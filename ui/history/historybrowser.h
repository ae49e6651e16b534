#pragma once

// The history browser: filters (kind, status, engine, date range), a debounced full-text
// search, the paged call table and the selected call shown read-only below it.
//
// With a StoreReader (setReader) every read runs off the GUI thread: the table keeps its rows
// and its selection while a page is read, and says "Loading" only when a read takes long.

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
class NoticeBar;
class StoreReader;

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
    // The same reading on `reader`'s thread from the first read on (the GUI thread runs no SQL).
    HistoryBrowser(CallStore *store, StoreReader *reader, QWidget *parent);
    ~HistoryBrowser() override;

    void setStore(CallStore *store);
    // Reads the list and the calls on `reader`'s thread (null: on the store, at once). It must
    // outlive the browser.
    void setReader(StoreReader *reader);
    // A read is under way, and the "Loading" line shown while one takes long.
    bool isLoading() const;
    QLabel *loadingLabel() const { return m_loading; }
    // Reloads the table (keeping the selection) whenever a call of `service` is stored.
    void setCallService(CallService *service);
    HistoryModel *model() const { return m_model; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    QTableView *view() const { return m_view; }
    CallView *callView() const { return m_callView; }
    QLineEdit *searchEdit() const { return m_search; }
    QLineEdit *kindEdit() const { return m_kind; }
    QLineEdit *personEdit() const { return m_person; }
    QComboBox *statusCombo() const { return m_status; }
    QComboBox *engineCombo() const { return m_engine; }
    QCheckBox *dateCheck() const { return m_dateRange; }
    QDateEdit *fromEdit() const { return m_from; }
    QDateEdit *toEdit() const { return m_to; }
    int searchDelayMs() const;
    // Problems with the history and the calls it leads to (a call that cannot be read, an
    // import that failed), shown above the list until closed or the next query.
    NoticeBar *messageBar() const { return m_message; }

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
    // The list holds the rows of the filters set last (after applyFilters() or refresh()).
    void listLoaded();
    // The call below the list is `id` now (read after a pick or openCall()).
    void callShown(qint64 id);
    void revisionTreeRequested(qint64 id);
    void diffRequested(qint64 id);
    void budgetRequested(qint64 id);
    void exportRequested(qint64 id);
    // Open Trace (offered when Settings > Telemetry has a trace link).
    void traceRequested(qint64 id);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    // Shows the columns that fit the table's width, the most needed first (a narrow sidebar
    // keeps the call, its status, when it started and on which engine).
    void fitColumns();
    // Watches the history for commits of other connections (through the reader when set).
    void watchStore();
    void showCall(qint64 id);
    void onSelectionChanged();
    void onLoaded();

    CallStore *m_store = nullptr;
    StoreReader *m_reader = nullptr;
    // The rows picked when the list was reset, picked again once the new rows are in.
    struct Picked
    {
        qint64 current = 0;
        QList<qint64> others;
        bool recorded = false;
    };
    Picked m_picked;
    qint64 m_pendingOpen = 0; // openCall() of a call not listed yet: picked when it is
    qint64 m_showing = 0; // the call being read for the view below the list
    HistoryWatcher *m_watcher = nullptr;
    QTimer *m_quiet = nullptr; // coalesces refreshes while many calls arrive
    bool m_refreshMissed = false;
    HistoryModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QTableView *m_view = nullptr;
    CallView *m_callView = nullptr;
    QLineEdit *m_search = nullptr;
    QLineEdit *m_kind = nullptr;
    QLineEdit *m_person = nullptr;
    QComboBox *m_status = nullptr;
    QComboBox *m_engine = nullptr;
    QCheckBox *m_dateRange = nullptr;
    QDateEdit *m_from = nullptr;
    QDateEdit *m_to = nullptr;
    NoticeBar *m_message = nullptr;
    QLabel *m_loading = nullptr;
    QTimer *m_loadingDelay = nullptr;
    QTimer *m_debounce = nullptr;
    bool m_columnsSized = false;
    QList<int> m_naturalWidths; // each column's width for its contents (from the first page)
};

} // namespace Callscope
