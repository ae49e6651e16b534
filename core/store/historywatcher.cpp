#include "core/store/historywatcher.h"

#include "core/store/database.h"
#include "core/store/storereader.h"

#include <QSqlQuery>

namespace Callscope {

namespace {

// -1 when the question could not be asked (a busy or damaged file is reported by the queries
// that need it).
qint64 dataVersion(Database &database)
{
    QSqlQuery query(database.connection());
    if (!query.exec(QStringLiteral("PRAGMA data_version")) || !query.next())
        return -1;
    return query.value(0).toLongLong();
}

} // namespace

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

HistoryWatcher::HistoryWatcher(StoreReader *reader, int intervalMs, QObject *parent)
    : QObject(parent)
    , m_reader(reader)
{
    m_timer.setInterval(intervalMs);
    connect(&m_timer, &QTimer::timeout, this, &HistoryWatcher::poll);
    if (m_reader) {
        poll(); // the starting value
        m_timer.start();
    }
}

void HistoryWatcher::poll()
{
    if (m_database) {
        take(dataVersion(*m_database));
        return;
    }
    if (!m_reader || m_asking)
        return;
    m_asking = true;
    readFromStore<qint64>(
        m_reader, nullptr, this, [](CallStore &store) { return dataVersion(store.database()); },
        [this](const qint64 *version, const QString &) {
            m_asking = false;
            take(version ? *version : -1);
        });
}

void HistoryWatcher::take(qint64 version)
{
    if (version < 0)
        return;
    const bool moved = m_version >= 0 && version != m_version;
    m_version = version;
    if (moved)
        Q_EMIT changed();
}

} // namespace Callscope
