#include "ui/common/studioservices.h"

#include "core/secrets/credentialstore.h"
#include "core/secrets/profilestore.h"
#include "core/service/callservice.h"
#include "core/store/callstore.h"
#include "core/store/database.h"
#include "ui/common/elicitationdialog.h"

#include <QApplication>

#include <QDir>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QNetworkAccessManager>

Q_LOGGING_CATEGORY(lcStudio, "callscope.studio")

namespace Callscope {

StudioServices::StudioServices(const QString &databasePath, QObject *parent)
    : QObject(parent)
    , m_nam(new QNetworkAccessManager(this))
{
    const QString path = databasePath.isEmpty() ? defaultDatabasePath() : databasePath;
    QDir().mkpath(QFileInfo(path).absolutePath());
    auto opened = Database::open(path);
    if (opened) {
        m_database = std::move(opened.value());
        m_store = std::make_unique<CallStore>(*m_database);
    } else {
        m_databaseError = opened.error().message;
        qCWarning(lcStudio) << "history database unavailable:" << m_databaseError;
    }
    m_credentials = new CredentialStore(this);
    m_profiles = new ProfileStore(m_credentials, this);
    m_service = new CallService(m_nam, m_store.get(), m_credentials, m_profiles, this);
    m_service->loadLimitsFromSettings();
    // An MCP server asking for input during an attended run gets a form.
    m_service->setElicitationHandler([](const McpElicitation &request, std::function<void(const QJsonObject &)> reply) {
        ElicitationDialog::ask(QApplication::activeWindow(), request, std::move(reply));
    });
}

StudioServices::~StudioServices()
{
    // The service refers to the store: it goes first.
    delete m_service;
    m_service = nullptr;
    m_store.reset();
    m_database.reset();
}

} // namespace Callscope
