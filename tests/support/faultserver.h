#pragma once

// A fault-injecting HTTP/1.1 server on raw POSIX sockets, for testing our HTTP stack from the
// outside: it shares no code with it (no Qt networking), counts every request head it reads,
// and can reset a connection after any byte, stall, drip, or flood without end.
//
// It runs on its own thread, so the test thread may block (for example in wait4() on a child
// process) while the server answers. One connection is served at a time; every answer ends by
// closing the connection, so each request arrives on a fresh one.

#include <QByteArray>
#include <QList>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace Callscope::Test {

class FaultServer
{
public:
    enum class Action {
        Send, // send `bytes`, then close normally
        ResetAfter, // send the first `resetAfter` bytes of `bytes`, then reset (RST)
        Stall, // send `bytes` (may be empty), then nothing until the client goes
        Drip, // send `bytes`, then `chunk` one byte every `dripIntervalMs`
        Flood, // send `bytes`, then `chunk` again and again until the client goes
    };
    struct Behavior
    {
        Action action = Action::Send;
        QByteArray bytes;
        qint64 resetAfter = 0;
        int dripIntervalMs = 1000;
        QByteArray chunk;
    };
    // Asked once per request, with its 0-based index.
    using Script = std::function<Behavior(int request)>;

    FaultServer();
    ~FaultServer();
    FaultServer(const FaultServer &) = delete;
    FaultServer &operator=(const FaultServer &) = delete;

    bool start(Script script); // listens on 127.0.0.1, any free port
    void stop();
    int port() const { return m_port; }

    struct Request
    {
        QByteArray head; // request line and headers
        QByteArray body;
        qint64 receivedAtMs = 0; // since start(), when the head was complete
        qint64 bytesSent = 0; // bytes the kernel accepted for this answer
        qint64 endedAtMs = 0; // when the answer ended (reset, close, client gone)
    };
    int requestCount() const;
    QList<Request> requests() const;

    // HTTP/1.1 head of a reply with the given status and headers, and Connection: close.
    static QByteArray head(int status, const QList<QByteArray> &headers);

private:
    void run();
    void serve(int fd, int index);

    Script m_script;
    int m_listenFd = -1;
    int m_port = 0;
    std::atomic<bool> m_stop { false };
    std::thread m_thread;
    mutable std::mutex m_mutex;
    QList<Request> m_requests;
    qint64 m_startNs = 0;
    qint64 nowMs() const;
};

} // namespace Callscope::Test
