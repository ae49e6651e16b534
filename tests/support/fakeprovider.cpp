#include "tests/support/fakeprovider.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTcpSocket>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <sys/socket.h>
#include <utility>

using namespace Qt::StringLiterals;

namespace Callscope::Test {

namespace {

QByteArray readAllOf(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        qWarning("FakeProvider: cannot read %s: %s", qPrintable(path),
                 qPrintable(file.errorString()));
        return {};
    }
    return file.readAll();
}

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 301:
        return "Moved Permanently";
    case 302:
        return "Found";
    case 307:
        return "Temporary Redirect";
    case 308:
        return "Permanent Redirect";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 408:
        return "Request Timeout";
    case 409:
        return "Conflict";
    case 429:
        return "Too Many Requests";
    case 500:
        return "Internal Server Error";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    case 504:
        return "Gateway Timeout";
    case 529:
        return "Overloaded";
    default:
        return "Status";
    }
}

bool hasHeaderIn(const FakeHeaders &headers, QByteArrayView name)
{
    return std::any_of(headers.begin(), headers.end(), [name](const auto &pair) {
        return pair.first.compare(name, Qt::CaseInsensitive) == 0;
    });
}

} // namespace

// ---- FakeReply ---------------------------------------------------------------------------

FakeReply FakeReply::json(int status, const QByteArray &body)
{
    FakeReply reply;
    reply.status = status;
    reply.headers = { { "Content-Type", "application/json" } };
    reply.body = body;
    return reply;
}

FakeReply FakeReply::jsonFile(int status, const QString &path)
{
    return json(status, readAllOf(path));
}

FakeReply FakeReply::text(int status, const QByteArray &body, const QByteArray &contentType)
{
    FakeReply reply;
    reply.status = status;
    reply.headers = { { "Content-Type", contentType } };
    reply.body = body;
    return reply;
}

FakeReply FakeReply::sse(const QByteArray &body)
{
    FakeReply reply;
    reply.status = 200;
    reply.headers = { { "Content-Type", "text/event-stream" }, { "Cache-Control", "no-cache" } };
    reply.body = body;
    reply.framing = Framing::Chunked;
    return reply;
}

FakeReply FakeReply::sseFile(const QString &path)
{
    return sse(readAllOf(path));
}

FakeReply FakeReply::sseEvents(const QList<std::pair<QByteArray, QByteArray>> &events)
{
    QByteArray body;
    for (const auto &[name, data] : events) {
        if (!name.isEmpty())
            body += "event: " + name + '\n';
        const QList<QByteArray> lines = data.split('\n');
        for (const QByteArray &line : lines)
            body += "data: " + line + '\n';
        body += '\n';
    }
    return sse(body);
}

FakeReply FakeReply::stall()
{
    FakeReply reply;
    reply.neverAnswer = true;
    return reply;
}

FakeReply FakeReply::redirect(int status, const QUrl &location)
{
    FakeReply reply = text(status, "redirected\n");
    reply.headers.append({ "Location", location.toEncoded() });
    return reply;
}

FakeReply &FakeReply::withHeader(const QByteArray &name, const QByteArray &value)
{
    headers.append({ name, value });
    return *this;
}

FakeReply &FakeReply::withFraming(Framing value)
{
    framing = value;
    return *this;
}

FakeReply &FakeReply::delayedBy(int ms)
{
    headerDelayMs = ms;
    return *this;
}

FakeReply &FakeReply::dripped(int bytes, int everyMs)
{
    chunkBytes = std::max(1, bytes);
    intervalMs = std::max(0, everyMs);
    return *this;
}

FakeReply &FakeReply::stallAfter(qsizetype bodyBytes)
{
    cut = Cut::Stall;
    cutAfterBytes = bodyBytes;
    return *this;
}

FakeReply &FakeReply::resetAfter(qsizetype bodyBytes)
{
    cut = Cut::Reset;
    cutAfterBytes = bodyBytes;
    return *this;
}

FakeReply &FakeReply::closeAfter(qsizetype bodyBytes)
{
    cut = Cut::Close;
    cutAfterBytes = bodyBytes;
    return *this;
}

// ---- RecordedRequest ---------------------------------------------------------------------

QByteArray RecordedRequest::header(QByteArrayView name) const
{
    for (const auto &[key, value] : headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    }
    return {};
}

bool RecordedRequest::hasHeader(QByteArrayView name) const
{
    return hasHeaderIn(headers, name);
}

// ---- cassettes ---------------------------------------------------------------------------

FakeReply CassetteInteraction::toReply() const
{
    if (contentType.contains("event-stream")) {
        FakeReply reply = FakeReply::sse(responseBody);
        reply.status = status;
        return reply;
    }
    FakeReply reply = FakeReply::json(status, responseBody);
    if (!contentType.isEmpty())
        reply.headers = { { "Content-Type", contentType } };
    return reply;
}

std::optional<QList<CassetteInteraction>> loadCassette(const QString &path, QString *error)
{
    auto fail = [error](const QString &message) {
        if (error)
            *error = message;
        return std::nullopt;
    };
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return fail(u"cannot read "_s + path + u": "_s + file.errorString());
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return fail(path + u": "_s + parseError.errorString());
    const QJsonArray interactions = doc.object().value("interactions"_L1).toArray();
    if (interactions.isEmpty())
        return fail(path + u": no interactions"_s);

    QList<CassetteInteraction> out;
    for (const QJsonValue &value : interactions) {
        const QJsonObject request = value.toObject().value("request"_L1).toObject();
        const QJsonObject response = value.toObject().value("response"_L1).toObject();
        CassetteInteraction interaction;
        interaction.method = request.value("method"_L1).toString().toUtf8();
        interaction.uri = QUrl(request.value("uri"_L1).toString());
        interaction.requestBody = request.value("body"_L1);
        interaction.status = response.value("status"_L1).toInt(200);
        const QJsonValue contentType = response.value("content_type"_L1);
        interaction.contentType = (contentType.isArray() ? contentType.toArray().first().toString()
                                                         : contentType.toString())
                                      .toUtf8();
        const QJsonValue body = response.value("body"_L1);
        if (body.isString())
            interaction.responseBody = body.toString().toUtf8();
        else if (body.isObject())
            interaction.responseBody =
                QJsonDocument(body.toObject()).toJson(QJsonDocument::Compact);
        else if (body.isArray())
            interaction.responseBody = QJsonDocument(body.toArray()).toJson(QJsonDocument::Compact);
        out.append(interaction);
    }
    return out;
}

// ---- one TCP connection ------------------------------------------------------------------

class FakeConnection final : public QObject
{
    friend class FakeProvider;

public:
    FakeConnection(FakeProvider *server, QTcpSocket *socket, int id)
        : QObject(server)
        , m_server(server)
        , m_socket(socket)
        , m_id(id)
        , m_timer(new QTimer(this))
    {
        m_socket->setParent(this);
        // Small writes (drip mode) must leave at once, not wait for Nagle's algorithm.
        m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        m_timer->setSingleShot(true);
        m_timer->setTimerType(Qt::PreciseTimer);
        connect(m_socket, &QTcpSocket::readyRead, this, &FakeConnection::onReadyRead);
        connect(m_socket, &QTcpSocket::disconnected, this, &FakeConnection::onDisconnected);
        connect(m_socket, &QTcpSocket::errorOccurred, this,
                [this](QAbstractSocket::SocketError error) {
                    if (error == QAbstractSocket::RemoteHostClosedError || !m_socket->isValid())
                        onDisconnected();
                });
        connect(m_timer, &QTimer::timeout, this, &FakeConnection::onTimer);
    }

    void closeNow()
    {
        m_socket->abort();
        onDisconnected();
    }

private:
    enum class State { ReadingRequest, Responding, Idle };
    enum class Step { Headers, Body, AfterBody };

    void onReadyRead()
    {
        m_buffer += m_socket->readAll();
        parseRequests();
    }

    void parseRequests()
    {
        while (m_state == State::ReadingRequest) {
            const qsizetype headEnd = m_buffer.indexOf("\r\n\r\n");
            if (headEnd < 0)
                return;
            const QList<QByteArray> lines = m_buffer.left(headEnd).split('\n');
            RecordedRequest request;
            request.connection = m_id;
            const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
            request.method = requestLine.value(0);
            request.target = requestLine.value(1);
            const qsizetype question = request.target.indexOf('?');
            request.path = question < 0 ? request.target : request.target.left(question);
            request.query = question < 0 ? QByteArray() : request.target.mid(question + 1);
            qsizetype contentLength = 0;
            bool chunked = false;
            for (qsizetype i = 1; i < lines.size(); ++i) {
                const QByteArray line = lines[i].trimmed();
                const qsizetype colon = line.indexOf(':');
                if (colon <= 0)
                    continue;
                const QByteArray name = line.left(colon).trimmed();
                const QByteArray value = line.mid(colon + 1).trimmed();
                request.headers.append({ name, value });
                if (name.compare("content-length", Qt::CaseInsensitive) == 0)
                    contentLength = value.toLongLong();
                else if (name.compare("transfer-encoding", Qt::CaseInsensitive) == 0)
                    chunked = value.toLower().contains("chunked");
            }
            const qsizetype bodyStart = headEnd + 4;
            if (chunked) {
                const std::optional<qsizetype> consumed = dechunk(bodyStart, &request.body);
                if (!consumed)
                    return; // wait for more
                m_buffer.remove(0, *consumed);
            } else {
                if (m_buffer.size() < bodyStart + contentLength)
                    return; // wait for the rest of the body
                request.body = m_buffer.mid(bodyStart, contentLength);
                m_buffer.remove(0, bodyStart + contentLength);
            }
            QJsonParseError error;
            const QJsonDocument doc = QJsonDocument::fromJson(request.body, &error);
            if (error.error == QJsonParseError::NoError)
                request.json = doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object());
            else
                request.json = QJsonValue(QJsonValue::Undefined);
            m_closeAfter = request.header("connection").toLower() == "close";

            m_server->record(request);
            m_reply = m_server->takeReply(request);
            startReply();
        }
    }

    // A chunked request body starting at `start`: the bytes consumed (through the last
    // chunk's CRLF), or nullopt when more input is needed.
    std::optional<qsizetype> dechunk(qsizetype start, QByteArray *out) const
    {
        QByteArray body;
        qsizetype pos = start;
        for (;;) {
            const qsizetype lineEnd = m_buffer.indexOf("\r\n", pos);
            if (lineEnd < 0)
                return std::nullopt;
            bool ok = false;
            const qsizetype size =
                m_buffer.mid(pos, lineEnd - pos).split(';').first().trimmed().toLongLong(&ok, 16);
            if (!ok)
                return lineEnd + 2; // garbage: give up on this body
            pos = lineEnd + 2;
            if (size == 0) {
                const qsizetype end = m_buffer.indexOf("\r\n", pos); // trailers end
                if (end < 0)
                    return std::nullopt;
                *out = body;
                return end + 2;
            }
            if (m_buffer.size() < pos + size + 2)
                return std::nullopt;
            body += m_buffer.mid(pos, size);
            pos += size + 2;
        }
    }

    // The reply no longer holds a place of the provider's concurrency limit.
    void endReply()
    {
        if (m_endReported)
            return;
        m_endReported = true;
        m_server->replyEnded(m_reply);
    }

    void startReply()
    {
        m_endReported = false;
        m_state = State::Responding;
        if (m_reply.neverAnswer)
            return; // stays Responding forever: later input is buffered, never answered
        if (m_reply.held) {
            m_reply.held = false;
            m_server->m_held.append(m_id);
            return; // releaseHeld() starts it again
        }
        m_step = Step::Headers;
        m_sent = 0;
        m_limit = m_reply.body.size();
        if (m_reply.cut != FakeReply::Cut::None && m_reply.cutAfterBytes >= 0)
            m_limit = std::min(m_limit, m_reply.cutAfterBytes);
        m_framing = m_reply.framing;
        if (m_framing == FakeReply::Framing::Auto) {
            const bool whole = m_reply.chunkBytes == 0 && m_reply.cut == FakeReply::Cut::None;
            m_framing = whole ? FakeReply::Framing::ContentLength : FakeReply::Framing::Chunked;
        }
        if (m_reply.headerDelayMs > 0)
            m_timer->start(m_reply.headerDelayMs);
        else
            onTimer();
    }

    void onTimer()
    {
        if (m_state != State::Responding || !m_socket->isValid())
            return;
        if (m_step == Step::Headers) {
            writeHead();
            m_step = Step::Body;
        }
        if (m_step == Step::Body) {
            const qsizetype piece = m_reply.chunkBytes > 0 ? m_reply.chunkBytes : m_limit;
            const qsizetype size = std::min(piece, m_limit - m_sent);
            if (size > 0) {
                const QByteArray bytes = m_reply.body.mid(m_sent, size);
                if (m_framing == FakeReply::Framing::Chunked)
                    m_socket->write(QByteArray::number(bytes.size(), 16) + "\r\n" + bytes + "\r\n");
                else
                    m_socket->write(bytes);
                m_socket->flush();
                m_sent += size;
            }
            if (m_sent < m_limit) {
                m_timer->start(m_reply.intervalMs);
                return;
            }
            m_step = Step::AfterBody;
        }
        finishReply();
    }

    void writeHead()
    {
        QByteArray head = "HTTP/1.1 " + QByteArray::number(m_reply.status) + ' '
            + reasonPhrase(m_reply.status) + "\r\n";
        for (const auto &[name, value] : m_reply.headers)
            head += name + ": " + value + "\r\n";
        switch (m_framing) {
        case FakeReply::Framing::ContentLength:
            head += "Content-Length: " + QByteArray::number(m_reply.body.size()) + "\r\n";
            break;
        case FakeReply::Framing::Chunked:
            head += "Transfer-Encoding: chunked\r\n";
            break;
        case FakeReply::Framing::Close:
        case FakeReply::Framing::Auto:
            head += "Connection: close\r\n";
            break;
        }
        if (m_closeAfter && m_framing != FakeReply::Framing::Close)
            head += "Connection: close\r\n";
        head += "\r\n";
        m_socket->write(head);
        m_socket->flush();
    }

    void finishReply()
    {
        if (m_reply.cut != FakeReply::Cut::Stall)
            endReply();
        switch (m_reply.cut) {
        case FakeReply::Cut::Stall:
            return; // Responding forever
        case FakeReply::Cut::Close:
            m_socket->disconnectFromHost();
            return;
        case FakeReply::Cut::Reset:
            // Let the client read what was sent first, then reset (SO_LINGER 0 -> RST).
            QTimer::singleShot(100, this, [this] {
                if (!m_socket->isValid())
                    return;
                m_socket->flush();
                const linger hard { 1, 0 };
                ::setsockopt(int(m_socket->socketDescriptor()), SOL_SOCKET, SO_LINGER, &hard,
                             sizeof hard);
                closeNow();
            });
            return;
        case FakeReply::Cut::None:
            break;
        }
        if (m_framing == FakeReply::Framing::Chunked)
            m_socket->write("0\r\n\r\n");
        m_socket->flush();
        if (m_framing == FakeReply::Framing::Close || m_closeAfter) {
            m_socket->disconnectFromHost();
            return;
        }
        m_state = State::ReadingRequest;
        parseRequests(); // a request may already wait in the buffer (keep-alive)
    }

    void onDisconnected()
    {
        if (m_closed)
            return;
        m_closed = true;
        m_timer->stop();
        if (m_state == State::Responding)
            endReply();
        m_server->onConnectionClosed(m_id);
    }

    FakeProvider *m_server;
    QTcpSocket *m_socket;
    int m_id;
    QTimer *m_timer;
    QByteArray m_buffer;
    bool m_endReported = true;
    State m_state = State::ReadingRequest;
    Step m_step = Step::Headers;
    FakeReply m_reply;
    FakeReply::Framing m_framing = FakeReply::Framing::Auto;
    qsizetype m_sent = 0;
    qsizetype m_limit = 0;
    bool m_closeAfter = false;
    bool m_closed = false;
};

// ---- FakeProvider ------------------------------------------------------------------------

FakeProvider::FakeProvider(QObject *parent)
    : QObject(parent)
{
    connect(&m_server, &QTcpServer::newConnection, this, &FakeProvider::onNewConnection);
}

FakeProvider::~FakeProvider()
{
    m_server.close();
    const auto connections = m_connections.values();
    m_connections.clear();
    for (QObject *connection : connections) {
        disconnect(connection, nullptr, this, nullptr);
        delete connection;
    }
}

bool FakeProvider::listen()
{
    return m_server.listen(QHostAddress::LocalHost, 0);
}

QUrl FakeProvider::baseUrl() const
{
    QUrl url;
    url.setScheme(u"http"_s);
    url.setHost(u"127.0.0.1"_s);
    url.setPort(m_server.serverPort());
    return url;
}

QUrl FakeProvider::url(const QString &path) const
{
    QUrl result = baseUrl();
    result.setPath(path);
    return result;
}

void FakeProvider::enqueue(const FakeReply &reply)
{
    m_queue.append(reply);
}

bool FakeProvider::enqueueCassette(const QString &path, QString *error)
{
    const auto interactions = loadCassette(path, error);
    if (!interactions)
        return false;
    for (const CassetteInteraction &interaction : *interactions)
        enqueue(interaction.toReply());
    return true;
}

bool FakeProvider::isConnectionOpen(int connection) const
{
    return m_connections.contains(connection);
}

int FakeProvider::openConnectionCount() const
{
    return int(m_connections.size());
}

void FakeProvider::closeAllConnections()
{
    const auto connections = m_connections.values();
    for (QObject *connection : connections)
        static_cast<FakeConnection *>(connection)->closeNow();
}

int FakeProvider::heldCount() const
{
    int count = 0;
    for (int id : m_held)
        count += m_connections.contains(id) ? 1 : 0;
    return count;
}

void FakeProvider::releaseHeld()
{
    const QList<int> held = std::exchange(m_held, {});
    for (int id : held) {
        if (QObject *connection = m_connections.value(id))
            static_cast<FakeConnection *>(connection)->startReply();
    }
}

void FakeProvider::onNewConnection()
{
    while (QTcpSocket *socket = m_server.nextPendingConnection()) {
        const int id = ++m_connectionsSeen;
        m_connections.insert(id, new FakeConnection(this, socket, id));
    }
}

void FakeProvider::setConcurrencyLimit(int limit, const FakeReply &overflow)
{
    m_limit = limit;
    m_overflow = overflow;
}

void FakeProvider::replyEnded(const FakeReply &reply)
{
    if (reply.countsInFlight && m_inFlight > 0)
        --m_inFlight;
}

FakeReply FakeProvider::takeReply(const RecordedRequest &request)
{
    if (m_limit > 0 && m_inFlight >= m_limit && m_overflow) {
        ++m_overflows;
        return *m_overflow;
    }
    FakeReply reply;
    if (!m_queue.isEmpty())
        reply = m_queue.takeFirst();
    else if (m_responder)
        reply = m_responder(request);
    else if (m_defaultReply)
        reply = *m_defaultReply;
    else
        reply = noScriptedReply(request);
    reply.countsInFlight = true;
    ++m_inFlight;
    m_peakInFlight = std::max(m_peakInFlight, m_inFlight);
    return reply;
}

FakeReply FakeProvider::noScriptedReply(const RecordedRequest &request)
{
    const QString message = u"FakeProvider: no scripted reply for "_s
        + QString::fromUtf8(request.method) + u' ' + QString::fromUtf8(request.path);
    const QJsonObject error { { u"message"_s, message }, { u"type"_s, u"fake_provider"_s } };
    return FakeReply::json(
        500, QJsonDocument(QJsonObject { { u"error"_s, error } }).toJson(QJsonDocument::Compact));
}

void FakeProvider::record(const RecordedRequest &request)
{
    m_requests.append(request);
    Q_EMIT requestReceived(int(m_requests.size() - 1));
}

void FakeProvider::onConnectionClosed(int connection)
{
    QObject *object = m_connections.take(connection);
    if (!object)
        return;
    object->deleteLater();
    Q_EMIT connectionClosed(connection);
}

QByteArray openAiToolCallBody(const QString &id, const QString &name, const QJsonObject &arguments)
{
    const QJsonObject call { { u"id"_s, id },
                             { u"type"_s, u"function"_s },
                             { u"function"_s,
                               QJsonObject { { u"name"_s, name },
                                             { u"arguments"_s,
                                               QString::fromUtf8(QJsonDocument(arguments).toJson(
                                                   QJsonDocument::Compact)) } } } };
    const QJsonObject body {
        { u"id"_s, u"chatcmpl-fake"_s },
        { u"object"_s, u"chat.completion"_s },
        { u"created"_s, 1 },
        { u"model"_s, u"fake"_s },
        { u"choices"_s,
          QJsonArray { QJsonObject { { u"index"_s, 0 },
                                     { u"message"_s,
                                       QJsonObject { { u"role"_s, u"assistant"_s },
                                                     { u"content"_s, QJsonValue() },
                                                     { u"tool_calls"_s, QJsonArray { call } } } },
                                     { u"finish_reason"_s, u"tool_calls"_s } } } },
        { u"usage"_s,
          QJsonObject { { u"prompt_tokens"_s, 120 },
                        { u"completion_tokens"_s, 20 },
                        { u"total_tokens"_s, 140 } } }
    };
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

namespace {

QByteArray chatChunk(const QJsonObject &delta, const QJsonValue &finish,
                     const QJsonValue &usage = QJsonValue())
{
    QJsonObject chunk { { u"id"_s, u"chatcmpl-stream"_s },
                        { u"object"_s, u"chat.completion.chunk"_s },
                        { u"created"_s, 1 },
                        { u"model"_s, u"fake"_s },
                        { u"choices"_s,
                          QJsonArray { QJsonObject { { u"index"_s, 0 },
                                                     { u"delta"_s, delta },
                                                     { u"finish_reason"_s, finish } } } } };
    if (usage.isObject()) {
        chunk.insert(u"choices"_s, QJsonArray());
        chunk.insert(u"usage"_s, usage);
    }
    return "data: " + QJsonDocument(chunk).toJson(QJsonDocument::Compact) + "\n\n";
}

QList<QByteArray> chatStreamTail(const QString &finish)
{
    return { chatChunk(QJsonObject(), finish),
             chatChunk(QJsonObject(), QJsonValue(),
                       QJsonObject { { u"prompt_tokens"_s, 120 },
                                     { u"completion_tokens"_s, 20 },
                                     { u"total_tokens"_s, 140 } }),
             "data: [DONE]\n\n" };
}

} // namespace

QList<QByteArray> openAiToolCallStreamEvents(const QString &id, const QString &name,
                                             const QStringList &fragments)
{
    QList<QByteArray> events;
    events.append(chatChunk(
        QJsonObject {
            { u"role"_s, u"assistant"_s },
            { u"content"_s, QJsonValue() },
            { u"tool_calls"_s,
              QJsonArray { QJsonObject {
                  { u"index"_s, 0 },
                  { u"id"_s, id },
                  { u"type"_s, u"function"_s },
                  { u"function"_s,
                    QJsonObject { { u"name"_s, name }, { u"arguments"_s, u""_s } } } } } } },
        QJsonValue()));
    for (const QString &fragment : fragments) {
        events.append(chatChunk(
            QJsonObject {
                { u"tool_calls"_s,
                  QJsonArray { QJsonObject {
                      { u"index"_s, 0 },
                      { u"function"_s, QJsonObject { { u"arguments"_s, fragment } } } } } } },
            QJsonValue()));
    }
    events += chatStreamTail(u"tool_calls"_s);
    return events;
}

QList<QByteArray> openAiTextStreamEvents(const QStringList &fragments)
{
    QList<QByteArray> events;
    events.append(chatChunk(QJsonObject { { u"role"_s, u"assistant"_s }, { u"content"_s, u""_s } },
                            QJsonValue()));
    for (const QString &fragment : fragments)
        events.append(chatChunk(QJsonObject { { u"content"_s, fragment } }, QJsonValue()));
    events += chatStreamTail(u"stop"_s);
    return events;
}

FakeProvider::Responder twoTurnResponder(const QString &tool, const QJsonObject &output,
                                         int delayMs)
{
    return [tool, output, delayMs](const RecordedRequest &request) {
        bool hasToolResult = false;
        for (const QJsonValue &m : request.jsonObject().value(u"messages"_s).toArray())
            hasToolResult |= m.toObject().value(u"role"_s).toString() == u"tool"_s;
        FakeReply reply = hasToolResult
            ? FakeReply::json(200, openAiToolCallBody(u"call_2"_s, u"submit_output"_s, output))
            : FakeReply::json(
                200, openAiToolCallBody(u"call_1"_s, tool, QJsonObject { { u"id"_s, 7 } }));
        if (delayMs > 0)
            reply.delayedBy(delayMs);
        return reply;
    };
}

QJsonObject twoTurnSpecJson(const QUrl &base, const QString &keyEnv, const QString &model)
{
    const QJsonObject tool { { u"name"_s, u"get_ticket"_s },
                             { u"description"_s, u"Load a ticket."_s },
                             { u"input_schema"_s, QJsonObject { { u"type"_s, u"object"_s } } },
                             { u"mock"_s, u"Ticket 7: login times out"_s } };
    const QJsonObject schema { { u"type"_s, u"object"_s },
                               { u"properties"_s,
                                 QJsonObject {
                                     { u"title"_s, QJsonObject { { u"type"_s, u"string"_s } } } } },
                               { u"required"_s, QJsonArray { u"title"_s } } };
    return QJsonObject { { u"kind"_s, u"planner"_s },
                         { u"system_prompt"_s, u"Plan the work."_s },
                         { u"response_schema"_s, schema },
                         { u"tools"_s, QJsonArray { tool } },
                         { u"engine"_s,
                           QJsonObject { { u"type"_s, u"openai"_s },
                                         { u"model"_s, model },
                                         { u"base_url"_s, base.toString() },
                                         { u"api_key_env"_s, keyEnv },
                                         { u"stream"_s, false } } } };
}

FakeProviderThread::FakeProviderThread()
    : m_thread(new QThread)
    , m_anchor(new QObject)
{
    m_anchor->moveToThread(m_thread);
    m_thread->start();
    QMetaObject::invokeMethod(
        m_anchor, [this] { m_provider = new FakeProvider; }, Qt::BlockingQueuedConnection);
}

FakeProviderThread::~FakeProviderThread()
{
    QMetaObject::invokeMethod(
        m_anchor,
        [this] {
            delete m_provider;
            m_provider = nullptr;
            delete m_anchor;
        },
        Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
    delete m_thread;
}

bool FakeProviderThread::listen()
{
    bool ok = false;
    run([&](FakeProvider &provider) {
        ok = provider.listen();
        m_baseUrl = provider.baseUrl();
    });
    return ok;
}

void FakeProviderThread::run(const std::function<void(FakeProvider &)> &work)
{
    QMetaObject::invokeMethod(
        m_anchor, [&] { work(*m_provider); }, Qt::BlockingQueuedConnection);
}

} // namespace Callscope::Test
