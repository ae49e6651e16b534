#pragma once

// The sessions of the history, newest first as the store lists them.

#include "core/store/callstore.h"

#include <QAbstractListModel>

namespace Callscope {

class CallService;

class SessionListModel final : public QAbstractListModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SessionListModel)

public:
    enum Role { SessionIdRole = Qt::UserRole + 1 };

    SessionListModel(CallStore *store, QObject *parent);
    ~SessionListModel() override;

    void setStore(CallStore *store);
    // New sessions and names are written through the service's store writer (the store's own
    // connection may be read-only); without a service, on the store.
    void setService(CallService *service) { m_service = service; }
    void reload();
    // Creates a session and returns its id (0 on failure; see lastError()).
    qint64 createSession(const QString &title, const QString &systemPrompt = {});
    bool renameSession(qint64 id, const QString &title);
    int rowOfSession(qint64 id) const;
    Session sessionAt(int row) const { return m_sessions.value(row); }
    QString lastError() const { return m_lastError; }

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;

private:
    CallStore *m_store = nullptr;
    CallService *m_service = nullptr;
    QList<Session> m_sessions;
    QString m_lastError;
};

} // namespace Callscope
