#include "tests/support/faultserver.h"

#include <arpa/inet.h>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace Callscope::Test {

namespace {

qint64 monotonicNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// Waits up to `ms` for `events` on fd; true when ready.
bool waitFor(int fd, short events, int ms)
{
    pollfd p { fd, events, 0 };
    const int n = ::poll(&p, 1, ms);
    return n > 0;
}

// True when the peer has closed or reset (a read returns 0 or an error). Request bytes that
// arrive meanwhile are discarded.
bool peerGone(int fd, int waitMs)
{
    if (!waitFor(fd, POLLIN, waitMs))
        return false;
    char buffer[4096];
    const ssize_t n = ::recv(fd, buffer, sizeof buffer, MSG_DONTWAIT);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

} // namespace

FaultServer::FaultServer() = default;

FaultServer::~FaultServer()
{
    stop();
}

qint64 FaultServer::nowMs() const
{
    return (monotonicNs() - m_startNs) / 1000000;
}

bool FaultServer::start(Script script)
{
    m_script = std::move(script);
    m_listenFd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (m_listenFd < 0)
        return false;
    const int one = 1;
    ::setsockopt(m_listenFd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    // A small send buffer keeps "bytes the kernel accepted" close to "bytes the client read".
    const int sendBuffer = 64 * 1024;
    ::setsockopt(m_listenFd, SOL_SOCKET, SO_SNDBUF, &sendBuffer, sizeof sendBuffer);
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    if (::bind(m_listenFd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0
        || ::listen(m_listenFd, 16) != 0) {
        ::close(m_listenFd);
        m_listenFd = -1;
        return false;
    }
    socklen_t length = sizeof address;
    ::getsockname(m_listenFd, reinterpret_cast<sockaddr *>(&address), &length);
    m_port = ntohs(address.sin_port);
    m_startNs = monotonicNs();
    m_stop = false;
    m_thread = std::thread([this] { run(); });
    return true;
}

void FaultServer::stop()
{
    m_stop = true;
    if (m_thread.joinable())
        m_thread.join();
    if (m_listenFd >= 0)
        ::close(m_listenFd);
    m_listenFd = -1;
}

int FaultServer::requestCount() const
{
    std::lock_guard lock(m_mutex);
    return int(m_requests.size());
}

QList<FaultServer::Request> FaultServer::requests() const
{
    std::lock_guard lock(m_mutex);
    return m_requests;
}

QByteArray FaultServer::head(int status, const QList<QByteArray> &headers)
{
    QByteArray out = "HTTP/1.1 " + QByteArray::number(status) + " Status\r\n";
    for (const QByteArray &header : headers)
        out += header + "\r\n";
    out += "Connection: close\r\n\r\n";
    return out;
}

void FaultServer::run()
{
    while (!m_stop) {
        if (!waitFor(m_listenFd, POLLIN, 50))
            continue;
        const int fd = ::accept4(m_listenFd, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0)
            continue;
        const int one = 1;
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        int index = 0;
        {
            std::lock_guard lock(m_mutex);
            index = int(m_requests.size());
        }
        serve(fd, index);
        ::close(fd);
    }
}

void FaultServer::serve(int fd, int index)
{
    // Read one request: head up to the blank line, then Content-Length bytes of body.
    QByteArray in;
    qsizetype headEnd = -1;
    qint64 bodyLength = 0;
    while (!m_stop) {
        if (!waitFor(fd, POLLIN, 50))
            continue;
        char buffer[65536];
        const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
        if (n <= 0)
            return; // a connection that never sent a request (Qt may open spares)
        in.append(buffer, n);
        if (headEnd < 0) {
            headEnd = in.indexOf("\r\n\r\n");
            if (headEnd >= 0) {
                const QByteArray lower = in.left(headEnd).toLower();
                const qsizetype at = lower.indexOf("\r\ncontent-length:");
                if (at >= 0) {
                    const qsizetype end = lower.indexOf("\r\n", at + 2);
                    bodyLength =
                        lower.mid(at + 17, end < 0 ? -1 : end - at - 17).trimmed().toLongLong();
                }
            }
        }
        if (headEnd >= 0 && in.size() >= headEnd + 4 + bodyLength)
            break;
    }
    if (m_stop || headEnd < 0)
        return;

    Request request;
    request.head = in.left(headEnd);
    request.body = in.mid(headEnd + 4, bodyLength);
    request.receivedAtMs = nowMs();
    {
        std::lock_guard lock(m_mutex);
        m_requests.append(request);
    }
    const Behavior behavior = m_script ? m_script(index) : Behavior {};

    qint64 sent = 0;
    auto record = [&] {
        std::lock_guard lock(m_mutex);
        m_requests[index].bytesSent = sent;
        m_requests[index].endedAtMs = nowMs();
    };
    // Sends everything (blocking politely); false once the client is gone.
    auto sendAll = [&](const char *data, qint64 size) {
        qint64 done = 0;
        while (done < size && !m_stop) {
            if (!waitFor(fd, POLLOUT, 50)) {
                if (peerGone(fd, 0))
                    return false;
                continue;
            }
            const ssize_t n =
                ::send(fd, data + done, size_t(size - done), MSG_NOSIGNAL | MSG_DONTWAIT);
            if (n < 0) {
                if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
                    continue;
                return false;
            }
            done += n;
            sent += n;
        }
        return done == size;
    };
    auto reset = [&] {
        const linger hard { 1, 0 };
        ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
    };

    switch (behavior.action) {
    case Action::Send:
        sendAll(behavior.bytes.constData(), behavior.bytes.size());
        ::shutdown(fd, SHUT_WR);
        // Let the client read to the end before the close.
        for (int i = 0; i < 200 && !m_stop && !peerGone(fd, 50); ++i) { }
        break;
    case Action::ResetAfter:
        sendAll(behavior.bytes.constData(),
                std::min<qint64>(behavior.resetAfter, behavior.bytes.size()));
        // Give the bytes a moment to reach the client, so the reset lands after them.
        ::usleep(20000);
        reset();
        break;
    case Action::Stall:
        sendAll(behavior.bytes.constData(), behavior.bytes.size());
        while (!m_stop && !peerGone(fd, 50)) { }
        break;
    case Action::Drip:
        if (!sendAll(behavior.bytes.constData(), behavior.bytes.size()))
            break;
        for (qsizetype i = 0; i < behavior.chunk.size() && !m_stop; ++i) {
            if (!sendAll(behavior.chunk.constData() + i, 1)
                || peerGone(fd, behavior.dripIntervalMs))
                break;
        }
        break;
    case Action::Flood:
        if (sendAll(behavior.bytes.constData(), behavior.bytes.size())) {
            while (!m_stop && sendAll(behavior.chunk.constData(), behavior.chunk.size())) { }
        }
        break;
    }
    record();
}

} // namespace Callscope::Test
