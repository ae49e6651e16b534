#include "ui/sessions/sessionlistmodel.h"

#include "core/service/callservice.h"

#include <QLocale>

using namespace Qt::StringLiterals;

namespace Callscope {

SessionListModel::SessionListModel(CallStore *store, QObject *parent)
    : QAbstractListModel(parent)
    , m_store(store)
{
    reload();
}

SessionListModel::~SessionListModel() = default;

void SessionListModel::setStore(CallStore *store)
{
    m_store = store;
    reload();
}

void SessionListModel::reload()
{
    beginResetModel();
    m_sessions.clear();
    if (m_store) {
        auto sessions = m_store->listSessions();
        if (sessions)
            m_sessions = sessions.value();
        else
            m_lastError = sessions.error().message;
    }
    endResetModel();
}

qint64 SessionListModel::createSession(const QString &title, const QString &systemPrompt)
{
    if (!m_store)
        return 0;
    Session session;
    session.title = title;
    session.systemPrompt = systemPrompt;
    QString error;
    const std::optional<StoreResult<qint64>> id = m_service
        ? m_service->writeNow<StoreResult<qint64>>(
            [session](CallStore &store) { return store.createSession(session); }, &error)
        : std::optional<StoreResult<qint64>>(m_store->createSession(session));
    if (!id || !*id) {
        m_lastError = id ? id->error().message : error;
        return 0;
    }
    reload();
    return id->value();
}

bool SessionListModel::renameSession(qint64 id, const QString &title)
{
    const int row = rowOfSession(id);
    if (!m_store || row < 0)
        return false;
    QString failure;
    const std::optional<StoreError> error = m_service
        ? m_service->writeNow<StoreError>(
            [id, title](CallStore &store) { return store.renameSession(id, title); }, &failure)
        : std::optional<StoreError>(m_store->renameSession(id, title));
    if (!error || *error) {
        m_lastError = error ? error->message : failure;
        return false;
    }
    m_sessions[row].title = title;
    const QModelIndex changed = index(row);
    Q_EMIT dataChanged(changed, changed);
    return true;
}

int SessionListModel::rowOfSession(qint64 id) const
{
    for (int i = 0; i < m_sessions.size(); ++i) {
        if (m_sessions.at(i).id == id)
            return i;
    }
    return -1;
}

int SessionListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_sessions.size());
}

QVariant SessionListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Session &s = m_sessions.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return s.title.isEmpty() ? tr("Session %1").arg(s.id) : s.title;
    case Qt::EditRole:
        return s.title;
    case Qt::ToolTipRole:
        return tr("Session %1, started %2")
            .arg(s.id)
            .arg(QLocale().toString(s.createdAt.toLocalTime(), QLocale::ShortFormat));
    case SessionIdRole:
        return s.id;
    default:
        return {};
    }
}

Qt::ItemFlags SessionListModel::flags(const QModelIndex &index) const
{
    Qt::ItemFlags f = QAbstractListModel::flags(index);
    if (index.isValid())
        f |= Qt::ItemIsEditable;
    return f;
}

bool SessionListModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::EditRole
        || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    return renameSession(m_sessions.at(index.row()).id, value.toString().trimmed());
}

} // namespace Callscope
