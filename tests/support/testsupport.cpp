#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QStandardPaths>

using namespace Qt::StringLiterals;

namespace Callscope::Test {

namespace {
QString g_lastError;

QString envPath(const char *name)
{
    return QString::fromLocal8Bit(qgetenv(name));
}
} // namespace

QString sharedDataPath(const QString &relative)
{
    const QString path = QDir(envPath("CALLSCOPE_SHARED_DATA")).filePath(relative);
    if (!QFileInfo::exists(path)) {
        g_lastError = u"shared data missing: "_s + path
            + u" (is ../shared beside the clone? CALLSCOPE_SHARED_DATA="_s
            + envPath("CALLSCOPE_SHARED_DATA") + u')';
        return {};
    }
    return path;
}

QString testDataPath(const QString &relative)
{
    return QDir(envPath("CALLSCOPE_TEST_DATA")).filePath(relative);
}

QString cliPath()
{
    return envPath("CALLSCOPE_CLI");
}

QString buildPath(const QString &relative)
{
    const QString path = QDir(envPath("CALLSCOPE_BUILD_DIR")).filePath(relative);
    QDir().mkpath(QFileInfo(path).absolutePath());
    return path;
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        g_lastError = u"cannot read "_s + path + u": "_s + file.errorString();
        return {};
    }
    return file.readAll();
}

QJsonValue readJson(const QString &path)
{
    const QByteArray data = readFile(path);
    if (data.isEmpty())
        return QJsonValue(QJsonValue::Undefined);
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(data, &error);
    if (error.error != QJsonParseError::NoError) {
        g_lastError = path + u": "_s + error.errorString();
        return QJsonValue(QJsonValue::Undefined);
    }
    return doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object());
}

QString lastError()
{
    return g_lastError;
}

ScopedDataHome::ScopedDataHome()
    : m_oldDataHome(qgetenv("XDG_DATA_HOME"))
    , m_oldConfigHome(qgetenv("XDG_CONFIG_HOME"))
{
    qputenv("XDG_DATA_HOME", QFile::encodeName(m_dir.filePath(u"data"_s)));
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_dir.filePath(u"config"_s)));
    // Not QStandardPaths' test mode: it ignores XDG_* and writes under ~/.qttest, shared by
    // every test. The variables alone make AppDataLocation and QSettings land in m_dir.
    QStandardPaths::setTestModeEnabled(false);
}

ScopedDataHome::~ScopedDataHome()
{
    qputenv("XDG_DATA_HOME", m_oldDataHome);
    qputenv("XDG_CONFIG_HOME", m_oldConfigHome);
}

} // namespace Callscope::Test
