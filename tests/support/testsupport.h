#pragma once

// Helpers every test executable shares: where the data lives, temporary data directories.

#include <QByteArray>
#include <QJsonValue>
#include <QString>
#include <QTemporaryDir>

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

QByteArray readFile(const QString &path);         // empty on failure; see lastError()
QJsonValue readJson(const QString &path);         // Undefined on failure
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

} // namespace Callscope::Test
