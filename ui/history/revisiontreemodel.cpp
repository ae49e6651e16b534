#include "ui/history/revisiontreemodel.h"

#include "core/store/storereader.h"
#include "ui/history/historymodel.h"
#include "ui/widgets/displaynames.h"

#include <QLocale>
#include <QSet>

using namespace Qt::StringLiterals;

namespace Callscope {

int RevisionTreeModel::Node::rowInParent() const
{
    if (!parent)
        return 0;
    for (size_t i = 0; i < parent->children.size(); ++i) {
        if (parent->children[i].get() == this)
            return int(i);
    }
    return 0;
}

RevisionTreeModel::RevisionTreeModel(CallStore *store, QObject *parent)
    : QAbstractItemModel(parent)
    , m_store(store)
    , m_root(std::make_unique<Node>())
{ }

RevisionTreeModel::~RevisionTreeModel() = default;

void RevisionTreeModel::setStore(CallStore *store)
{
    m_store = store;
    m_loading = 0;
    clear();
}

QString RevisionTreeModel::relationName(Relation relation)
{
    switch (relation) {
    case Relation::Root:
        return tr("original");
    case Relation::Revision:
        return tr("revision");
    case Relation::Replay:
        return tr("replay");
    }
    return {};
}

void RevisionTreeModel::clear()
{
    beginResetModel();
    m_root = std::make_unique<Node>();
    m_byId.clear();
    endResetModel();
}

qint64 RevisionTreeModel::rootId() const
{
    return m_root->children.empty() ? 0 : m_root->children.front()->row.id;
}

struct RevisionTreeModel::Read
{
    StoreResult<QList<HistoryRow>> rows = QList<HistoryRow>();
    QHash<qint64, Relation> relations; // of the rows not known when the read was asked for
    qint64 root = 0;
};

namespace {

RevisionTreeModel::Relation relationOf(CallStore &store, const HistoryRow &row)
{
    if (!row.parent)
        return RevisionTreeModel::Relation::Root;
    if (auto call = store.getCall(row.id)) {
        // rerun_of since calls became jobs; replay_of in databases written before.
        if (call->metadata.contains(u"rerun_of"_s) || call->metadata.contains(u"replay_of"_s))
            return RevisionTreeModel::Relation::Replay;
    }
    return RevisionTreeModel::Relation::Revision;
}

} // namespace

bool RevisionTreeModel::setCall(qint64 callId)
{
    if (!m_store) {
        clear();
        return false;
    }
    if (m_byId.contains(callId) && !isLoading()) {
        refresh();
        return true;
    }
    load(callId, true);
    return isLoading() || m_lastOk;
}

void RevisionTreeModel::refresh()
{
    const qint64 root = rootId();
    if (!m_store || root == 0)
        return;
    load(root, false);
}

void RevisionTreeModel::load(qint64 callId, bool reset)
{
    const quint64 ticket = m_loading = ++m_asked;
    // Reads of the relation (one call each) only for the calls not shown yet.
    QSet<qint64> known;
    for (auto it = m_byId.cbegin(); it != m_byId.cend(); ++it)
        known.insert(it.key());
    readFromStore<Read>(
        m_reader, m_store, this,
        [callId, known](CallStore &store) {
            Read read;
            auto root = store.revisionRoot(callId);
            if (!root) {
                read.rows = root.error();
                return read;
            }
            read.root = root.value();
            read.rows = store.revisionTree(read.root);
            if (read.rows && read.rows->isEmpty())
                read.rows =
                    StoreError::make(StoreError::Code::NotFound,
                                     RevisionTreeModel::tr("call %1 not found").arg(callId));
            if (!read.rows)
                return read;
            for (const HistoryRow &row : read.rows.value()) {
                if (!known.contains(row.id))
                    read.relations.insert(row.id, relationOf(store, row));
            }
            return read;
        },
        [this, ticket, reset](const Read *read, const QString &error) {
            if (ticket != m_loading)
                return; // a newer read was asked for, or the store changed
            m_loading = 0;
            if (!read) {
                m_lastError = error;
                m_lastOk = false;
                if (reset)
                    clear();
                Q_EMIT loaded(false);
                return;
            }
            apply(*read, reset);
        });
}

void RevisionTreeModel::apply(const Read &read, bool reset)
{
    if (!read.rows) {
        m_lastError = read.rows.error().message;
        m_lastOk = false;
        if (reset)
            clear();
        Q_EMIT loaded(false);
        return;
    }
    m_lastOk = true;
    if (read.root != rootId()) {
        beginResetModel();
        m_root = std::make_unique<Node>();
        m_byId.clear();
        for (const HistoryRow &row : read.rows.value()) {
            auto node = std::make_unique<Node>();
            node->row = row;
            Node *parentNode = m_root.get();
            if (!m_byId.isEmpty()) {
                parentNode = m_byId.value(row.parent.value_or(0), nullptr);
                if (!parentNode)
                    continue; // not reachable from the root (not with revisionTree's order)
            }
            node->relation = m_byId.isEmpty() ? Relation::Root
                                              : read.relations.value(row.id, Relation::Revision);
            node->parent = parentNode;
            m_byId.insert(row.id, node.get());
            parentNode->children.push_back(std::move(node));
        }
        endResetModel();
        Q_EMIT loaded(true);
        return;
    }
    // The same tree: rows change in place and new calls are inserted under their parents, so
    // selection and expansion stay.
    for (const HistoryRow &row : read.rows.value()) {
        if (Node *existing = m_byId.value(row.id, nullptr)) {
            existing->row = row;
            Q_EMIT dataChanged(indexOf(existing, 0), indexOf(existing, ColumnCount - 1));
            continue;
        }
        Node *parentNode = m_byId.value(row.parent.value_or(0), nullptr);
        if (!parentNode)
            continue;
        auto node = std::make_unique<Node>();
        node->row = row;
        node->relation = read.relations.value(row.id, Relation::Revision);
        node->parent = parentNode;
        const int at = int(parentNode->children.size());
        beginInsertRows(indexOf(parentNode), at, at);
        m_byId.insert(row.id, node.get());
        parentNode->children.push_back(std::move(node));
        endInsertRows();
        Q_EMIT callAdded(row.id);
    }
    Q_EMIT loaded(true);
}

RevisionTreeModel::Node *RevisionTreeModel::nodeFor(const QModelIndex &index) const
{
    return index.isValid() ? static_cast<Node *>(index.internalPointer()) : m_root.get();
}

QModelIndex RevisionTreeModel::indexOf(const Node *node, int column) const
{
    if (!node || node == m_root.get())
        return {};
    return createIndex(node->rowInParent(), column, const_cast<Node *>(node));
}

QModelIndex RevisionTreeModel::indexOfCall(qint64 id, int column) const
{
    return indexOf(m_byId.value(id, nullptr), column);
}

QModelIndex RevisionTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    const Node *p = nodeFor(parent);
    return createIndex(row, column, p->children[size_t(row)].get());
}

QModelIndex RevisionTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    const Node *node = nodeFor(child);
    return indexOf(node->parent);
}

int RevisionTreeModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    return int(nodeFor(parent)->children.size());
}

int RevisionTreeModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant RevisionTreeModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Node *node = nodeFor(index);
    const HistoryRow &row = node->row;
    switch (role) {
    case CallIdRole:
        return row.id;
    case ParentIdRole:
        return row.parent ? QVariant(*row.parent) : QVariant();
    case RelationRole:
        return int(node->relation);
    case Qt::ToolTipRole:
        return row.inputPreview;
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (index.column()) {
    case CallColumn:
        return tr("#%1 %2").arg(row.id).arg(row.kind);
    case RelationColumn:
        return relationName(node->relation);
    case StatusColumn:
        return callStatusDisplayName(row.status);
    case EngineColumn:
        return row.model.isEmpty() ? row.engineType : row.engineType + u" · "_s + row.model;
    case TokensColumn:
        return formatTokens(row.usage);
    case StartedColumn:
        return QLocale().toString(row.createdAt.toLocalTime(), QLocale::ShortFormat);
    default:
        return {};
    }
}

QVariant RevisionTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case CallColumn:
        return tr("Call");
    case RelationColumn:
        return tr("Made by");
    case StatusColumn:
        return tr("Status");
    case EngineColumn:
        return tr("Engine");
    case TokensColumn:
        return tr("Tokens");
    case StartedColumn:
        return tr("Started");
    default:
        return {};
    }
}

} // namespace Callscope
