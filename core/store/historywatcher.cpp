#include "core/store/historywatcher.h"

#include "core/store/database.h"

#include <QSqlQuery>

namespace Callscope {

HistoryWatcher::HistoryWatcher(Database *database, int intervalMs, QObject *parent)
    : QObject(parent)
    , m_database(database)
{
    m_timer.setInterval(intervalMs);
    connect(&m_timer, &QTimer::timeout, this, &HistoryWatcher::poll);
    if (m_database) {
        poll(); // the starting value
        m_timer.start();
    }
}

void HistoryWatcher::poll()
{
    if (!m_database)
        return;
    QSqlQuery query(m_database->connection());
    if (!query.exec(QStringLiteral("PRAGMA data_version")) || !query.next())
        return; // a busy or damaged file is reported by the queries that need it
    const qint64 version = query.value(0).toLongLong();
    const bool moved = m_version >= 0 && version != m_version;
    m_version = version;
    if (moved)
        Q_EMIT changed();
}

} // namespace Callscope
