#pragma once

// A call's revision tree: the root (revisionRoot of any call in it) and every call below it
// through parent links. refresh() adds the calls stored since (a finished revision or
// replay appears under its parent without a reset, so selection and expansion stay).

#include "core/store/callstore.h"

#include <QAbstractItemModel>
#include <QHash>

#include <memory>
#include <vector>

namespace Callscope {

class StoreReader;

class RevisionTreeModel final : public QAbstractItemModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RevisionTreeModel)

public:
    enum Column {
        CallColumn,
        RelationColumn,
        StatusColumn,
        EngineColumn,
        TokensColumn,
        StartedColumn,
        ColumnCount
    };
    enum Role { CallIdRole = Qt::UserRole + 1, ParentIdRole, RelationRole };
    enum class Relation { Root, Revision, Replay };

    RevisionTreeModel(CallStore *store, QObject *parent);
    ~RevisionTreeModel() override;

    void setStore(CallStore *store);
    // Reads the trees on `reader`'s thread from now on (null: at once on the store). It must
    // outlive the model.
    void setReader(StoreReader *reader) { m_reader = reader; }
    // Shows the tree that holds `callId` (any call of it). With a reader it is read off this
    // thread and loaded() tells how it went; without one it is loaded before this returns and
    // false means the call is unknown.
    bool setCall(qint64 callId);
    void clear();
    // Adds the calls stored under the root since the last load and updates changed rows.
    void refresh();
    bool isLoading() const { return m_loading != 0; }

    qint64 rootId() const;
    int callCount() const { return int(m_byId.size()); }
    QModelIndex indexOfCall(qint64 id, int column = 0) const;
    QString lastError() const { return m_lastError; }
    static QString relationName(Relation relation);

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    void callAdded(qint64 id);
    // The tree asked for last (setCall or refresh) is in, or could not be read (lastError()).
    void loaded(bool ok);

private:
    struct Node
    {
        HistoryRow row;
        Relation relation = Relation::Root;
        Node *parent = nullptr;
        std::vector<std::unique_ptr<Node>> children;
        int rowInParent() const;
    };
    Node *nodeFor(const QModelIndex &index) const;
    QModelIndex indexOf(const Node *node, int column = 0) const;
    struct Read; // a tree as the reader thread read it
    void load(qint64 callId, bool reset);
    void apply(const Read &read, bool reset);

    CallStore *m_store = nullptr;
    StoreReader *m_reader = nullptr;
    quint64 m_loading = 0; // the read under way (0: none)
    quint64 m_asked = 0;
    bool m_lastOk = false;
    std::unique_ptr<Node> m_root; // invisible: its single child is the tree's root call
    QHash<qint64, Node *> m_byId;
    QString m_lastError;
};

} // namespace Callscope
