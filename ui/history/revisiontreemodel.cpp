#include "ui/history/revisiontreemodel.h"

#include "ui/history/historymodel.h"
#include "ui/widgets/displaynames.h"

#include <QLocale>

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

RevisionTreeModel::Relation RevisionTreeModel::relationOf(const HistoryRow &row)
{
    if (!row.parent)
        return Relation::Root;
    if (m_store) {
        if (auto call = m_store->getCall(row.id)) {
            // rerun_of since calls became jobs; replay_of in databases written before.
            if (call->metadata.contains(u"rerun_of"_s) || call->metadata.contains(u"replay_of"_s))
                return Relation::Replay;
        }
    }
    return Relation::Revision;
}

bool RevisionTreeModel::setCall(qint64 callId)
{
    if (!m_store) {
        clear();
        return false;
    }
    auto root = m_store->revisionRoot(callId);
    if (!root) {
        m_lastError = root.error().message;
        clear();
        return false;
    }
    if (root.value() == rootId()) {
        refresh();
        return true;
    }
    clear();
    auto tree = m_store->revisionTree(root.value());
    if (!tree || tree->isEmpty()) {
        m_lastError = tree ? tr("call %1 not found").arg(callId) : tree.error().message;
        return false;
    }
    beginResetModel();
    for (const HistoryRow &row : tree.value()) {
        auto node = std::make_unique<Node>();
        node->row = row;
        Node *parentNode = m_root.get();
        if (!m_byId.isEmpty()) {
            parentNode = m_byId.value(row.parent.value_or(0), nullptr);
            if (!parentNode)
                continue; // not reachable from the root (cannot happen with revisionTree's order)
        }
        node->relation = m_byId.isEmpty() ? Relation::Root : relationOf(row);
        node->parent = parentNode;
        m_byId.insert(row.id, node.get());
        parentNode->children.push_back(std::move(node));
    }
    endResetModel();
    return true;
}

void RevisionTreeModel::refresh()
{
    const qint64 root = rootId();
    if (!m_store || root == 0)
        return;
    auto tree = m_store->revisionTree(root);
    if (!tree) {
        m_lastError = tree.error().message;
        return;
    }
    for (const HistoryRow &row : tree.value()) {
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
        node->relation = relationOf(row);
        node->parent = parentNode;
        const int at = int(parentNode->children.size());
        beginInsertRows(indexOf(parentNode), at, at);
        m_byId.insert(row.id, node.get());
        parentNode->children.push_back(std::move(node));
        endInsertRows();
        Q_EMIT callAdded(row.id);
    }
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
