#pragma once

// The history table: call rows paged from the database with keyset cursors. The first page
// loads when the query is set; the view asks for more (canFetchMore/fetchMore) as the user
// scrolls, one small indexed query per page, so a million rows cost no more than a page.

#include "core/store/callstore.h"

#include <QAbstractTableModel>

#include <optional>

namespace Callscope {

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

private:
    std::optional<HistoryPage> loadPage(const std::optional<HistoryCursor> &after);

    CallStore *m_store = nullptr;
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
