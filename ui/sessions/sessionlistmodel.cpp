#include "ui/sessions/sessionlistmodel.h"

#include "core/service/callservice.h"
#include "core/store/storereader.h"
#include "core/store/storewriter.h"

#include <QLocale>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Callscope {

SessionListModel::SessionListModel(CallStore *store, QObject *parent)
    : QAbstractListModel(parent)
    , m_store(store)
{
    // The first read waits for the event loop, so a reader set right after construction
    // serves it (the GUI thread runs no SQL).
    QTimer::singleShot(0, this, [this] {
        if (m_ticket == 0)
            reload();
    });
}

SessionListModel::~SessionListModel() = default;

void SessionListModel::setStore(CallStore *store)
{
    m_store = store;
    reload();
}

void SessionListModel::setReader(StoreReader *reader)
{
    m_reader = reader;
}

void SessionListModel::reload()
{
    const quint64 ticket = ++m_ticket;
    if (!m_store) {
        beginResetModel();
        m_sessions.clear();
        endResetModel();
        m_loading = false;
        Q_EMIT reloaded(false);
        return;
    }
    m_loading = true;
    readFromStore<StoreResult<QList<Session>>>(
        m_reader, m_store, this, [](CallStore &store) { return store.listSessions(); },
        [this, ticket](const StoreResult<QList<Session>> *sessions, const QString &error) {
            if (ticket != m_ticket)
                return; // a newer reload is under way
            m_loading = false;
            if (!sessions || !*sessions) {
                m_lastError = sessions ? sessions->error().message : error;
                Q_EMIT reloaded(false);
                return;
            }
            beginResetModel();
            m_sessions = sessions->value();
            endResetModel();
            Q_EMIT reloaded(true);
        });
}

template<typename T>
void SessionListModel::write(std::function<T(CallStore &)> work,
                             std::function<void(const T *value, const QString &error)> done)
{
    // Through the writer when there is a service; a model made on a store alone (tests)
    // writes on that store.
    runOnStore<T>(m_service ? m_service->writer() : nullptr, m_store, this, std::move(work),
                  std::move(done));
}

void SessionListModel::createSession(const QString &title, const QString &systemPrompt,
                                     Created done)
{
    if (!m_store) {
        done(0, tr("there is no history database"));
        return;
    }
    Session session;
    session.title = title;
    session.systemPrompt = systemPrompt;
    session.createdAt = QDateTime::currentDateTimeUtc();
    write<StoreResult<qint64>>(
        [session](CallStore &store) { return store.createSession(session); },
        [this, session, done = std::move(done)](const StoreResult<qint64> *id,
                                                const QString &error) mutable {
            if (!id || !*id) {
                m_lastError = id ? id->error().message : error;
                if (m_lastError.isEmpty())
                    m_lastError = tr("the store writer cannot open the history database");
                done(0, m_lastError);
                return;
            }
            // Listed at once, newest first; the next reload reads it as the store keeps it.
            session.id = id->value();
            if (rowOfSession(session.id) < 0) {
                beginInsertRows({}, 0, 0);
                m_sessions.prepend(session);
                endInsertRows();
            }
            done(session.id, QString());
        });
}

void SessionListModel::renameSession(qint64 id, const QString &title, Renamed done)
{
    if (!m_store || rowOfSession(id) < 0) {
        m_lastError = tr("there is no session %1").arg(id);
        if (done)
            done(m_lastError);
        else
            Q_EMIT writeFailed(m_lastError);
        return;
    }
    write<StoreError>(
        [id, title](CallStore &store) { return store.renameSession(id, title); },
        [this, id, title, done = std::move(done)](const StoreError *error, const QString &failure) {
            QString message;
            if (!error)
                message = failure.isEmpty()
                    ? tr("the store writer cannot open the history database")
                    : failure;
            else if (*error)
                message = error->message;
            if (!message.isEmpty()) {
                m_lastError = message;
                if (done)
                    done(message);
                else
                    Q_EMIT writeFailed(message);
                return;
            }
            if (const int row = rowOfSession(id); row >= 0) {
                m_sessions[row].title = title;
                const QModelIndex changed = index(row);
                Q_EMIT dataChanged(changed, changed);
            }
            if (done)
                done(QString());
        });
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
    renameSession(m_sessions.at(index.row()).id, value.toString().trimmed());
    return true;
}

} // namespace Callscope
