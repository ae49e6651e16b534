#pragma once

// A scripted fault-injecting HTTPS server that speaks HTTP/2 (ALPN "h2") or HTTP/1.1 over TLS,
// for testing the client as it talks to real providers. The server is
// tests/support/h2faultserver.py (Debian's python3-h2 and Python's ssl module: no code shared
// with Qt), run as a child process; this class writes its script, starts it, waits for its
// port and reads back what it saw (connections, the negotiated protocol, each request, the
// body bytes it could send before each answer ended).
//
// The certificate is self-signed for the IP address 127.0.0.1, made once per test process
// with the openssl command; trustTestCertificate() adds it to the default
// QSslConfiguration's CA certificates, which requests made in this process then use.

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

#include <memory>

class QProcess;
class QTemporaryDir;

namespace Callscope::Test {

class TlsFaultServer
{
public:
    struct Behavior
    {
        // send, reset_after, stall, drip, pause, flood, goaway, drop_in_headers (see the
        // script's docstring for what each does on HTTP/2 and on HTTP/1.1).
        QString action = QStringLiteral("send");
        int status = 200;
        QList<QPair<QByteArray, QByteArray>> headers;
        QByteArray body;
        QByteArray chunk; // what a flood repeats
        qint64 resetAfter = 0; // body bytes before the reset
        // With reset_after: the reset waits until this file exists (the test creates it once
        // the client showed it read the bytes; a reset discards what its socket holds unread).
        QString resetWhen;
        int dripMs = 1000;
    };

    struct Connection
    {
        int id = 0;
        QString alpn; // "h2", "http/1.1"
        bool preface = false; // the HTTP/2 client preface opened the connection
    };

    struct Request
    {
        int index = 0;
        int connection = 0;
        int stream = 0; // HTTP/2 stream id; 0 on HTTP/1.1
        QByteArray method;
        QByteArray path;
        qint64 receivedAtMs = 0; // since the server started, when the head was complete
        qint64 bodyBytes = 0;
        bool authorization = false;
        // How the answer ended: complete, reset, client_reset, client_closed, goaway,
        // dropped_in_headers, stream_closed; empty while it goes on.
        QString how;
        qint64 bytesSent = 0; // body bytes the client's flow control / socket let through
        qint64 endedAtMs = -1;
    };

    TlsFaultServer();
    ~TlsFaultServer();
    TlsFaultServer(const TlsFaultServer &) = delete;
    TlsFaultServer &operator=(const TlsFaultServer &) = delete;

    // Request k gets script[min(k, size - 1)]. `alpn`: the protocols offered, in order.
    bool start(const QList<Behavior> &script, const QString &alpn = QStringLiteral("h2,http/1.1"));
    void stop();
    int port() const { return m_port; }
    QString errorString() const { return m_error; }

    QList<Connection> connections() const;
    QList<Request> requests() const;

    // The self-signed certificate for 127.0.0.1 (PEM file), made on first use; empty on failure.
    static QString certificatePath(QString *error = nullptr);
    // Adds it to QSslConfiguration::defaultConfiguration()'s CA certificates.
    static bool trustTestCertificate(QString *error = nullptr);
    // The server can run here: /usr/bin/python3 with the h2 module, and openssl.
    static bool available(QString *why);

private:
    void readLog(QList<Connection> *connections, QList<Request> *requests) const;

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QProcess> m_process;
    int m_port = 0;
    QString m_error;
};

} // namespace Callscope::Test
