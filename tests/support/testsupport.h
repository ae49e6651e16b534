#pragma once

// Helpers every test executable shares: where the data lives, temporary data directories.

#include <QByteArray>
#include <QElapsedTimer>
#include <QJsonValue>
#include <QString>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <memory>

namespace Callscope::Test {

// ../shared/data/<relative>. Empty string when missing; callers QVERIFY2 on it so a missing
// shared folder fails loudly (never skips).
QString sharedDataPath(const QString &relative);
// tests/data/<relative> in the source tree.
QString testDataPath(const QString &relative);
// Path of the built callscope-cli.
QString cliPath();
// Path under the build directory (screenshots/, ...), created when missing.
QString buildPath(const QString &relative);

QByteArray readFile(const QString &path); // empty on failure; see lastError()
QJsonValue readJson(const QString &path); // Undefined on failure
QString lastError();

// Points QStandardPaths at a fresh temporary HOME-like tree for the lifetime of the object
// (XDG_DATA_HOME and XDG_CONFIG_HOME), so a test never touches the user's real data.
class ScopedDataHome
{
public:
    ScopedDataHome();
    ~ScopedDataHome();
    QString path() const { return m_dir.path(); }
    bool isValid() const { return m_dir.isValid(); }

private:
    QTemporaryDir m_dir;
    QByteArray m_oldDataHome;
    QByteArray m_oldConfigHome;
};

// How long this thread's event loop went, at the longest, without turning: a 5 ms timer runs
// from start() to stop() and keeps the longest time between two of its ticks.
class EventLoopGapProbe
{
public:
    EventLoopGapProbe()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(5);
        QObject::connect(&m_timer, &QTimer::timeout, &m_timer, [this] {
            const qint64 now = m_clock.elapsed();
            m_longest = std::max(m_longest, now - m_last);
            m_last = now;
        });
    }
    void start()
    {
        m_longest = 0;
        m_last = 0;
        m_clock.start();
        m_timer.start();
    }
    void stop() { m_timer.stop(); }
    qint64 longestMs() const { return m_longest; }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0;
    qint64 m_longest = 0;
};

} // namespace Callscope::Test
