#include "core/service/historysettings.h"

#include "core/store/database.h"

#include <QCoreApplication>
#include <QSettings>
#include <QUrl>
#include <QUrlQuery>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {
struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(HistorySettings)
};
} // namespace

QString configuredHistoryLocation(const QSettings &settings)
{
    const QString location = settings.value(kHistoryLocationSetting).toString().trimmed();
    // Anything but a server URL (an old or hand-made entry) means this computer's file.
    if (!isServerLocation(location) || !QUrl(location).password().isEmpty())
        return {};
    return location;
}

bool saveHistoryLocation(QSettings &settings, const QString &location, QString *problem)
{
    const QString trimmed = location.trimmed();
    if (trimmed.isEmpty()) {
        settings.remove(kHistoryLocationSetting);
        return true;
    }
    const QUrl url(trimmed, QUrl::StrictMode);
    QString why;
    if (!isServerLocation(trimmed) || !url.isValid() || url.path().size() < 2)
        why = Tr::tr("%1 is not a PostgreSQL history URL").arg(url.toString(QUrl::RemovePassword));
    else if (!url.password().isEmpty())
        why = Tr::tr("the URL must not hold the password (it would be written to the settings)");
    if (!why.isEmpty()) {
        if (problem)
            *problem = why;
        return false;
    }
    settings.setValue(kHistoryLocationSetting, trimmed);
    return true;
}

QString HistoryServerCheck::text() const
{
    if (!connected)
        return Tr::tr("Could not connect: %1").arg(problem);
    if (!problem.isEmpty())
        return Tr::tr("Connected, but %1").arg(problem);
    QString schema;
    if (schemaVersion == 0)
        schema = Tr::tr("the database has no Callscope tables yet; the studio creates them "
                        "when it first opens it");
    else if (schemaVersion < latestVersion)
        schema = Tr::tr("schema version %1; this Callscope migrates it to %2 when it first "
                        "opens it")
                     .arg(schemaVersion)
                     .arg(latestVersion);
    else
        schema = Tr::tr("schema version %1, up to date").arg(schemaVersion);
    const QString role = canWrite
        ? Tr::tr("the role %1 may store calls.").arg(user)
        : (schemaVersion == 0 ? Tr::tr("the role %1 may not create them, so nobody can store "
                                       "calls yet (ask for a role that may write).")
                                    .arg(user)
                              : Tr::tr("the role %1 may only read: the history is read-only, "
                                       "browsing works and Run stays off.")
                                    .arg(user));
    return Tr::tr("Connected: %1; %2").arg(schema, role);
}

HistoryServerCheck checkHistoryServer(const QString &location, const QString &password,
                                      int timeoutSeconds)
{
    HistoryServerCheck check;
    check.latestVersion = Database::latestSchemaVersion();
    QUrl url(location);
    QUrlQuery query(url);
    if (url.isValid() && !query.hasQueryItem(u"connect_timeout"_s)) {
        query.addQueryItem(u"connect_timeout"_s, QString::number(timeoutSeconds));
        url.setQuery(query);
    }
    Database::Options options;
    options.inspectOnly = true;
    options.mustWrite = false;
    options.password = password;
    const QString tried = url.isValid() ? url.toString() : location;
    auto opened = Database::open(tried, options);
    if (!opened) {
        // A schema made by a newer Callscope is refused after connecting.
        check.connected = opened.error().code == StoreError::Code::NewerVersion;
        // Named as the user gave it (without the timeout added here).
        check.problem = opened.error().message;
        check.problem.replace(QUrl(tried).toString(QUrl::RemovePassword),
                              QUrl(location).toString(QUrl::RemovePassword));
        return check;
    }
    check.connected = true;
    check.schemaVersion = opened.value()->schemaVersion();
    check.canWrite = opened.value()->canWrite();
    check.user = opened.value()->serverUser();
    return check;
}

} // namespace Callscope
