#pragma once

// A PostgreSQL server of a test's own, from Debian's postgresql package: initdb into a
// temporary folder (as an unprivileged user when the test runs as root: PostgreSQL refuses
// root), pg_ctl start with its socket in that folder and no TCP port, stopped and removed by
// the destructor. The superuser `callscope` connects without a password; every other role
// must give its own (scram-sha-256), like on a team's server. pg_ctl -w returns once the server
// accepts connections; start() then checks that a connection works.

#include <QString>
#include <QTemporaryDir>

#include <memory>

namespace Callscope::Test {

class PgServer
{
public:
    PgServer();
    ~PgServer();
    Q_DISABLE_COPY_MOVE(PgServer)

    // The folder of PostgreSQL 15's programs (initdb, pg_ctl); empty when not installed.
    static QString binDir();

    // Makes and starts the server; false with the reason in *error.
    bool start(QString *error);
    bool stop(QString *error = nullptr);
    // Starts a stopped server again on the same data, socket and port (pg_ctl start -w).
    bool restart(QString *error);
    bool isRunning() const { return m_running; }

    // A database of its own on the server (CREATE DATABASE); false with the reason.
    bool createDatabase(const QString &name, QString *error);
    // Runs SQL as the server's superuser in `database`; false with the reason.
    bool exec(const QString &database, const QString &sql, QString *error);

    // The history URL of `database`: postgresql://callscope@localhost:PORT/NAME?host=FOLDER.
    QString url(const QString &database) const;
    // The same for another role (which, unlike callscope, must give its password).
    QString url(const QString &database, const QString &role) const;
    // Every table of `database` as SQL text (pg_dump), to look for what must not be there.
    bool dump(const QString &database, QByteArray *out, QString *error);
    // The server's own log.
    QByteArray log() const;
    QString socketDir() const;
    int port() const { return m_port; }
    static QString user() { return QStringLiteral("callscope"); }

private:
    bool run(const QStringList &command, QString *error, QString *output = nullptr);
    bool launch(QString *error);

    QTemporaryDir m_dir;
    int m_port = 0;
    bool m_running = false;
    bool m_asNobody = false;
};

} // namespace Callscope::Test
