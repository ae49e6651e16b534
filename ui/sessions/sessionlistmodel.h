#pragma once

// The sessions of the history, newest first as the store lists them.
//
// With a StoreReader the list is read on its thread; with a CallService new sessions and names
// are written through its store writer (the store's own connection may be read-only). Either
// way the GUI thread runs no SQL: the model changes when the answer is in (a write only once
// it is committed), and a failure comes back through the callback or writeFailed().

#include "core/store/callstore.h"

#include <QAbstractListModel>

#include <functional>

namespace Callscope {

class CallService;
class StoreReader;

class SessionListModel final : public QAbstractListModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SessionListModel)

public:
    enum Role { SessionIdRole = Qt::UserRole + 1 };

    SessionListModel(CallStore *store, QObject *parent);
    ~SessionListModel() override;

    void setStore(CallStore *store);
    // Reads the list on `reader`'s thread from now on (null: at once on the store). It must
    // outlive the model.
    void setReader(StoreReader *reader);
    void setService(CallService *service) { m_service = service; }
    // Reads the list again; reloaded() follows (the newest reload's answer counts).
    void reload();
    bool isLoading() const { return m_loading; }
    // `done` gets the new session's id once it is stored and listed, or 0 and the reason.
    using Created = std::function<void(qint64 id, const QString &error)>;
    void createSession(const QString &title, const QString &systemPrompt, Created done);
    // The row shows the new title once it is stored; `done` (may be empty) gets the reason
    // when it could not be (empty on success).
    using Renamed = std::function<void(const QString &error)>;
    void renameSession(qint64 id, const QString &title, Renamed done = {});
    int rowOfSession(qint64 id) const;
    Session sessionAt(int row) const { return m_sessions.value(row); }
    QString lastError() const { return m_lastError; }

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    // A name typed in the list: written through the writer; the row changes when it is stored.
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;

Q_SIGNALS:
    void reloaded(bool ok);
    // A write asked for without a callback (a name typed in the list) failed.
    void writeFailed(const QString &message);

private:
    template<typename T>
    void write(std::function<T(CallStore &)> work,
               std::function<void(const T *value, const QString &error)> done);

    CallStore *m_store = nullptr;
    StoreReader *m_reader = nullptr;
    CallService *m_service = nullptr;
    QList<Session> m_sessions;
    QString m_lastError;
    quint64 m_ticket = 0;
    bool m_loading = false;
};

} // namespace Callscope
