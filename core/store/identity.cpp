#include "core/store/identity.h"

#include <QSettings>
#include <QSysInfo>
#include <QUuid>

#include <pwd.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace Callscope::Identity {

QString osUserName()
{
    if (const passwd *entry = ::getpwuid(::geteuid()); entry && entry->pw_name && *entry->pw_name)
        return QString::fromLocal8Bit(entry->pw_name);
    const QString user = qEnvironmentVariable("USER");
    return user.isEmpty() ? u"unknown"_s : user;
}

QString person()
{
    const QString configured = QSettings().value(kPersonSetting).toString().trimmed();
    return configured.isEmpty() ? osUserName() : configured;
}

QString machine()
{
    const QString forced = qEnvironmentVariable("CALLSCOPE_MACHINE").trimmed();
    if (!forced.isEmpty())
        return forced;
    const QString host = QSysInfo::machineHostName();
    return host.isEmpty() ? u"unknown"_s : host;
}

QString newUuid()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces);
}

} // namespace Callscope::Identity
