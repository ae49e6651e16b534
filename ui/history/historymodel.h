#pragma once

// The history table: call rows paged from the database with keyset cursors. The first page
// loads when the query is set; the view asks for more (canFetchMore/fetchMore) as the user
// scrolls, one small indexed query per page, so a million rows cost no more than a page.
//
// With a StoreReader the pages are read on its thread: setQuery() keeps the rows shown until
// the new ones arrive (then loaded()), only the newest query's answer is used, and
// isLoading() says a read is under way. Without one they are read at once on the store.

#include "core/store/callstore.h"

#include <QAbstractTableModel>

#include <atomic>
#include <memory>
#include <optional>

namespace Callscope {

class StoreReader;

class HistoryModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryModel)

public:
    enum Column {
        IdColumn,
        KindColumn,
        StatusColumn,
        EngineColumn,
        ModelColumn,
        TokensColumn,
        StartedColumn,
        DurationColumn,
        RevisionsColumn,
        ColumnCount
    };
    enum Role { CallIdRole = Qt::UserRole + 1, SortRole };

    // `store` may be null (an empty model); it must outlive the model.
    HistoryModel(CallStore *store, QObject *parent);
    ~HistoryModel() override;

    // Empties the model; setQuery() loads from the new store.
    void setStore(CallStore *store);
    // Reads pages on `reader`'s thread from now on (null: on the store, at once). It must
    // outlive the model.
    void setReader(StoreReader *reader) { m_reader = reader; }
    bool isLoading() const { return m_loading; }
    // Replaces the rows with the first page of `query` (its limit, after and offset are ignored).
    void setQuery(const HistoryQuery &query);
    const HistoryQuery &query() const { return m_query; }
    void reload() { setQuery(m_query); }
    void setPageSize(int rows) { m_pageSize = qBound(1, rows, 10000); }
    int pageSize() const { return m_pageSize; }

    HistoryRow rowAt(int row) const { return m_rows.value(row); }
    int rowOfCall(qint64 id) const;
    QString lastError() const { return m_lastError; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

Q_SIGNALS:
    void errorOccurred(const QString &message);
    void pageLoaded(int rows, qint64 elapsedNs);
    // The rows of the query set last are in (after setQuery() or reload()).
    void loaded();
    void loadingChanged(bool loading);

private:
    // Reads a page after `after` (the first when unset); `replace` puts it in place of the rows.
    void requestPage(const std::optional<HistoryCursor> &after, bool replace);
    void applyPage(const StoreResult<HistoryPage> &page, qint64 elapsedNs, bool replace);
    void setLoading(bool loading);

    CallStore *m_store = nullptr;
    StoreReader *m_reader = nullptr;
    // The newest read asked for: answers of older ones are dropped, and reads still queued
    // behind a newer one skip their query.
    std::shared_ptr<std::atomic<quint64>> m_latest = std::make_shared<std::atomic<quint64>>(0);
    quint64 m_generation = 0;
    bool m_loading = false;
    HistoryQuery m_query;
    QList<HistoryRow> m_rows;
    std::optional<HistoryCursor> m_next;
    bool m_atEnd = true;
    bool m_resetting = false;
    bool m_inserting = false;
    int m_pageSize = 200;
    QString m_lastError;
};

} // namespace Callscope
