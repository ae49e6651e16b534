#pragma once

// What the studio's panels share: the network access manager, the history database and its
// store, the keychain and engine profiles, and the CallService every run goes through. All of
// them belong to the program's AppContext (core/service/appcontext.h), made by the studio's
// main from --db; this is the studio's view of it, which adds what only the GUI needs (an MCP
// server's request for input becomes a form).

#include "core/service/appcontext.h"

#include <QObject>
#include <QString>

namespace Callscope {

class StoreReader;

class StudioServices final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StudioServices)

public:
    // A view of `context`, which must outlive it (the studio's main makes one for the program).
    explicit StudioServices(AppContext *context, QObject *parent = nullptr);
    // A context of its own on the history at `databasePath` (empty = defaultDatabasePath()),
    // for a window made without one (tests). When the database cannot be opened the studio
    // still runs calls; databaseError() says why nothing is stored.
    explicit StudioServices(const QString &databasePath, QObject *parent = nullptr);
    ~StudioServices() override;

    AppContext *context() const { return m_context; }
    QNetworkAccessManager *network() const { return m_context->network(); }
    CallStore *store() const { return m_context->store(); }
    Database *database() const { return m_context->database(); }
    CredentialStore *credentials() const { return m_context->credentials(); }
    ProfileStore *profiles() const { return m_context->profiles(); }
    CallService *calls() const { return m_context->calls(); }
    QString databaseError() const { return m_context->databaseError(); }
    // The one thread every view reads the history on (null without a history file): the GUI
    // thread runs no SQL. Made on first use; it belongs to these services.
    StoreReader *reader();

private:
    void attach();

    AppContext *m_context = nullptr;
    StoreReader *m_reader = nullptr;
};

} // namespace Callscope
