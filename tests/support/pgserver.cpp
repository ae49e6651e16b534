#include "tests/support/pgserver.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRandomGenerator>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>

#include <unistd.h>

using namespace Qt::StringLiterals;

namespace Callscope::Test {

namespace {

constexpr auto kBinDir = "/usr/lib/postgresql/15/bin"_L1;

} // namespace

PgServer::PgServer()
{
    // With no TCP port the number only names the socket file in our own folder.
    m_port = 20000 + int(QRandomGenerator::global()->bounded(20000));
}

PgServer::~PgServer()
{
    stop();
}

QString PgServer::binDir()
{
    const QString dir = kBinDir;
    return QFileInfo::exists(dir + u"/initdb"_s) && QFileInfo::exists(dir + u"/pg_ctl"_s)
        ? dir
        : QString();
}

QString PgServer::socketDir() const
{
    return m_dir.path();
}

QString PgServer::url(const QString &database) const
{
    return url(database, user());
}

QString PgServer::url(const QString &database, const QString &role) const
{
    return u"postgresql://%1@localhost:%2/%3?host=%4"_s.arg(role).arg(m_port).arg(database,
                                                                                  socketDir());
}

bool PgServer::dump(const QString &database, QByteArray *out, QString *error)
{
    QString text;
    if (!run({ binDir() + u"/pg_dump"_s, u"-h"_s, socketDir(), u"-p"_s, QString::number(m_port),
               u"-U"_s, user(), u"--no-owner"_s, database },
             error, &text))
        return false;
    *out = text.toUtf8();
    return true;
}

QByteArray PgServer::log() const
{
    QFile file(m_dir.filePath(u"server.log"_s));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool PgServer::run(const QStringList &command, QString *error, QString *output)
{
    QStringList program = command;
    if (m_asNobody)
        program = QStringList { u"runuser"_s, u"-u"_s, u"nobody"_s, u"--"_s } + program;
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.setWorkingDirectory(m_dir.path());
    process.start(program.first(), program.mid(1));
    if (!process.waitForStarted() || !process.waitForFinished(-1)) {
        if (error)
            *error = u"cannot run %1: %2"_s.arg(program.join(u' '), process.errorString());
        return false;
    }
    const QString text = QString::fromLocal8Bit(process.readAll());
    if (output)
        *output = text;
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        if (error)
            *error = u"%1 failed: %2"_s.arg(program.join(u' '), text);
        return false;
    }
    return true;
}

bool PgServer::start(QString *error)
{
    if (binDir().isEmpty()) {
        *error = u"PostgreSQL 15 is not installed (%1)"_s.arg(kBinDir);
        return false;
    }
    if (!m_dir.isValid()) {
        *error = u"no temporary folder"_s;
        return false;
    }
    m_asNobody = ::geteuid() == 0;
    if (m_asNobody && ::chown(QFile::encodeName(m_dir.path()).constData(), 65534, 65534) != 0) {
        *error = u"cannot give %1 to nobody"_s.arg(m_dir.path());
        return false;
    }
    const QString data = m_dir.filePath(u"data"_s);
    if (!run({ binDir() + u"/initdb"_s, u"-D"_s, data, u"-U"_s, user(), u"--auth=trust"_s, u"-E"_s,
               u"UTF8"_s, u"--no-sync"_s, u"--no-instructions"_s },
             error))
        return false;
    // The superuser of the tests connects as before; every other role needs its password.
    {
        QFile hba(data + u"/pg_hba.conf"_s);
        if (!hba.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
            *error = u"cannot write %1"_s.arg(hba.fileName());
            return false;
        }
        hba.write("local all " + user().toLatin1() + " trust\nlocal all all scram-sha-256\n");
    }
    return launch(error);
}

bool PgServer::restart(QString *error)
{
    if (m_running)
        return true;
    return launch(error);
}

bool PgServer::launch(QString *error)
{
    const QString data = m_dir.filePath(u"data"_s);
    const QString options =
        u"-k %1 -p %2 -c listen_addresses='' -c fsync=off -c synchronous_commit=off "
        u"-c full_page_writes=off"_s.arg(m_dir.path())
            .arg(m_port);
    if (!run({ binDir() + u"/pg_ctl"_s, u"-D"_s, data, u"-l"_s, m_dir.filePath(u"server.log"_s),
               u"-o"_s, options, u"-w"_s, u"start"_s },
             error)) {
        QFile log(m_dir.filePath(u"server.log"_s));
        if (log.open(QIODevice::ReadOnly))
            *error += QString::fromLocal8Bit(log.readAll());
        return false;
    }
    m_running = true;
    return exec(u"postgres"_s, u"SELECT 1"_s, error);
}

bool PgServer::stop(QString *error)
{
    if (!m_running)
        return true;
    m_running = false;
    return run({ binDir() + u"/pg_ctl"_s, u"-D"_s, m_dir.filePath(u"data"_s), u"-m"_s, u"fast"_s,
                 u"-w"_s, u"stop"_s },
               error);
}

bool PgServer::exec(const QString &database, const QString &sql, QString *error)
{
    static int counter = 0;
    const QString name = u"pgserver-%1"_s.arg(++counter);
    bool ok = false;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QPSQL"_s, name);
        db.setHostName(socketDir());
        db.setPort(m_port);
        db.setUserName(user());
        db.setDatabaseName(database);
        if (!db.open()) {
            *error = u"cannot connect to the test server: "_s + db.lastError().text();
        } else {
            QSqlQuery query(db);
            ok = query.exec(sql);
            if (!ok)
                *error = u"%1: %2"_s.arg(sql, query.lastError().text());
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return ok;
}

bool PgServer::createDatabase(const QString &name, QString *error)
{
    return exec(u"postgres"_s, u"CREATE DATABASE \"%1\""_s.arg(name), error);
}

} // namespace Callscope::Test
