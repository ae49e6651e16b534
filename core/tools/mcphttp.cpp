#include "core/tools/mcphttp.h"

#include "core/tools/mcpoauth.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Callscope {

Q_LOGGING_CATEGORY(lcMcpHttp, "callscope.tools.mcp.http")

namespace {

QString idKey(const QJsonValue &id)
{
    if (id.isString())
        return u"s:"_s + id.toString();
    return u"n:"_s + QString::number(id.toDouble(), 'g', 17);
}

QByteArray header(const HttpJobResult &result, QByteArrayView name)
{
    return RetryPolicy::header(result.responseHeaders, name);
}

bool isSse(const HttpJobResult &result)
{
    return header(result, "content-type").toLower().contains("text/event-stream");
}

// A 2xx event stream: it ended (cleanly, cut or timed out), and is resumed if it owed an answer.
bool isEventStream(const HttpJobResult &result)
{
    return result.httpStatus / 100 == 2 && isSse(result);
}

} // namespace

struct McpHttpTransport::Post
{
    QJsonObject message;
    QJsonValue id; // undefined for notifications and responses
    bool isRequest = false;
    bool isInitialize = false;
    bool renewal = false; // our own initialize that starts a new session (never reported)
    bool resent = false; // sent again once after its session was renewed
    QString sessionId; // the session it went out in
    int authTries = 0;
};

struct McpHttpTransport::Stream
{
    SseDecoder decoder;
    QJsonValue awaitedId; // the request whose answer this stream owes, if any
    bool serverStream = false;
    bool legacy = false;
    bool sawEvent = false;
};

McpHttpTransport::McpHttpTransport(const QString &serverName, const QUrl &url, QObject *parent)
    : QObject(parent)
    , m_serverName(serverName)
    , m_url(url)
{
    m_http.maxResponseBytes = MaxBodyBytes;
}

McpHttpTransport::~McpHttpTransport()
{
    m_closing = true;
    // Stopped while the network access manager (a member) is still there.
    const QList<QPointer<HttpJob>> jobs = std::exchange(m_jobs, {});
    for (const QPointer<HttpJob> &job : jobs) {
        if (job) {
            job->disconnect(this);
            job->cancel();
            job->deleteLater();
        }
    }
}

void McpHttpTransport::setOAuth(McpOAuth *auth)
{
    m_auth = auth;
}

HttpJob *McpHttpTransport::startJob(const QUrl &url, const QByteArray &method,
                                    const QByteArray &accept, Kind kind, const QByteArray &body,
                                    const QByteArray &lastEventId)
{
    HttpRequestData request;
    request.url = url;
    request.method = method;
    request.passThrough = true;
    request.headers.emplaceBack("Accept", accept);
    if (HttpJob::sendsBodyFor(method)) {
        request.headers.emplaceBack("Content-Type", "application/json");
        request.rawBody = body;
    }
    for (auto it = m_headers.constBegin(); it != m_headers.constEnd(); ++it)
        request.headers.emplaceBack(it.key().toLatin1(), it.value().toUtf8());
    if (m_auth && m_auth->hasToken())
        request.headers.emplaceBack("Authorization", m_auth->authorizationHeader());
    else if (!m_bearer.isEmpty())
        request.headers.emplaceBack("Authorization", "Bearer " + m_bearer);
    if (!m_sessionId.isEmpty())
        request.headers.emplaceBack("Mcp-Session-Id", m_sessionId.toLatin1());
    if (!m_protocolVersion.isEmpty() && !m_legacy)
        request.headers.emplaceBack("MCP-Protocol-Version", m_protocolVersion.toLatin1());
    if (!lastEventId.isEmpty())
        request.headers.emplaceBack("Last-Event-ID", lastEventId);

    HttpJobSettings settings = m_http;
    switch (kind) {
    case Kind::Message:
        break;
    case Kind::Answer:
        settings.retry.maxAttempts = 1; // a stream that does not come back is resumed or fails
        break;
    case Kind::Standing:
        settings.retry.maxAttempts = 1;
        settings.inactivityTimeoutMs =
            std::max(settings.inactivityTimeoutMs, StandingStreamLimitMs);
        settings.totalTimeoutMs = std::max(settings.totalTimeoutMs, StandingStreamLimitMs);
        break;
    case Kind::Close:
        settings.retry.maxAttempts = 1;
        settings.inactivityTimeoutMs = std::min<qint64>(settings.inactivityTimeoutMs, 3000);
        settings.totalTimeoutMs = std::min<qint64>(settings.totalTimeoutMs, 3000);
        break;
    }
    // No parent: a job may be inside its own signal when the transport goes (a slot that
    // shuts the toolkit down), so it is stopped and deleted later, never deleted there.
    auto *job = new HttpJob(&m_nam, nullptr, request, settings);
    m_jobs.append(job);
    return job; // the caller connects, then starts it
}

void McpHttpTransport::forget(HttpJob *job)
{
    m_jobs.removeAll(job);
    job->disconnect(this);
    job->deleteLater();
}

void McpHttpTransport::takeSessionId(const HttpJobResult &result, const Post &post)
{
    // The session starts with the initialize answer, before its stream ends.
    const QByteArray sessionId = header(result, "mcp-session-id");
    if (!sessionId.isEmpty() && post.isInitialize)
        m_sessionId = QString::fromLatin1(sessionId);
}

void McpHttpTransport::send(const QJsonObject &message)
{
    if (m_closing)
        return;
    auto post = std::make_shared<Post>();
    post->message = message;
    post->isRequest = message.contains(u"method"_s) && message.contains(u"id"_s);
    post->isInitialize = message.value(u"method"_s).toString() == u"initialize";
    if (post->isRequest) {
        post->id = message.value(u"id"_s);
        m_awaited.insert(idKey(post->id));
    }
    if (post->isInitialize)
        m_initializeMessage = message;
    if (m_legacy && m_legacyEndpoint.isEmpty()) {
        m_legacyQueue.append(post);
        return;
    }
    if (m_renewal && !post->isInitialize) {
        m_waitingForSession.append(post); // goes out in the new session
        return;
    }
    this->post(post);
}

void McpHttpTransport::post(std::shared_ptr<Post> post)
{
    if (m_closing)
        return;
    const QUrl target = m_legacy ? m_legacyEndpoint : m_url;
    post->sessionId = m_sessionId;
    HttpJob *job = startJob(target, "POST", "application/json, text/event-stream", Kind::Message,
                            QJsonDocument(post->message).toJson(QJsonDocument::Compact));
    auto stream = std::make_shared<Stream>();
    stream->awaitedId = post->id;
    connect(job, &HttpJob::bodyReceived, this, [this, job, stream, post](const QByteArray &bytes) {
        takeSessionId(job->result(), *post);
        for (const SseEvent &event : stream->decoder.feed(bytes))
            dispatchEvent(event, stream);
    });
    connect(job, &HttpJob::finished, this, [this, job, post, stream] {
        const HttpJobResult result = job->takeResult();
        forget(job);
        if (m_closing)
            return;
        if (isEventStream(result)) {
            takeSessionId(result, *post);
            for (const SseEvent &event : stream->decoder.finish())
                dispatchEvent(event, stream);
            if (stream->decoder.hasError()) {
                fail(post,
                     tr("MCP server \"%1\" sent a broken event stream: %2")
                         .arg(m_serverName, stream->decoder.errorString()));
                return;
            }
            // A stream that ended (or broke, or went quiet) before its answer is resumed from
            // where it stopped.
            if (post->isRequest && m_awaited.contains(idKey(post->id))) {
                const qint64 delay =
                    stream->decoder.retryMs() >= 0 ? stream->decoder.retryMs() : DefaultRetryMs;
                const QString lastId = stream->decoder.lastEventId();
                const QJsonValue id = post->id;
                QTimer::singleShot(int(delay), this,
                                   [this, lastId, id] { openGet(lastId, id, false); });
            }
            return;
        }
        onPostFinished(post, result);
    });
    job->start();
}

void McpHttpTransport::onPostFinished(std::shared_ptr<Post> post, const HttpJobResult &result)
{
    const int status = result.httpStatus;
    const QByteArray body = result.rawResponse;
    takeSessionId(result, *post);
    const QByteArray challenge = header(result, "www-authenticate");

    if (result.cancelled || (status / 100 == 2 && result.error.category != ErrorCategory::None)) {
        // No answer to read: the job stopped (too large, cut, timed out) after a 2xx.
        fail(post, describe(result));
        return;
    }
    const bool stepUp = status == 403 && challenge.contains("insufficient_scope");
    if ((status == 401 || stepUp) && m_auth) {
        if (post->authTries >= MaxAuthRetries) {
            fail(post,
                 tr("the server still refuses the token after %1 sign-ins (HTTP %2)")
                     .arg(post->authTries)
                     .arg(status));
            return;
        }
        ++post->authTries;
        m_auth->handleChallenge(status, challenge, [this, post](const QString &error) {
            if (m_closing)
                return;
            if (!error.isEmpty()) {
                fail(post,
                     tr("signing in to MCP server \"%1\" failed: %2").arg(m_serverName, error));
                return;
            }
            this->post(post);
        });
        return;
    }
    if (status == 401) {
        fail(post,
             tr("MCP server \"%1\" wants a sign-in (HTTP 401); give \"auth\" in its spec entry")
                 .arg(m_serverName));
        return;
    }
    if (post->isInitialize && !post->renewal && !m_legacy && m_sessionId.isEmpty()
        && (status == 400 || status == 404 || status == 405)) {
        qCInfo(lcMcpHttp) << "MCP server" << m_serverName
                          << "refused the Streamable HTTP initialize with" << status
                          << "; trying the HTTP+SSE transport";
        startLegacy(post);
        return;
    }
    if (status == 404 && !post->sessionId.isEmpty() && !post->isInitialize && !m_legacy) {
        // The server ended the session (restarted, or it expired): it did not read the message,
        // so a new session is started and the message goes out once more in it.
        if (post->resent || m_initializeMessage.isEmpty()) {
            fail(post,
                 tr("MCP server \"%1\" no longer knows the session (HTTP 404), even a new one")
                     .arg(m_serverName));
            return;
        }
        renewSession(post);
        return;
    }
    if (status / 100 != 2) {
        fail(post, describe(result));
        return;
    }
    if (!post->isRequest || m_legacy)
        return; // taken (202); legacy answers come on the event stream, whatever the body says
    if (body.trimmed().isEmpty()) {
        fail(post,
             tr("MCP server \"%1\" answered HTTP %2 with no body").arg(m_serverName).arg(status));
        return;
    }
    dispatchBody(body, post);
}

void McpHttpTransport::renewSession(const std::shared_ptr<Post> &post)
{
    post->resent = true;
    if (!m_sessionId.isEmpty() && m_sessionId != post->sessionId) {
        this->post(post); // another message already started the new session
        return;
    }
    m_waitingForSession.append(post);
    if (m_renewal)
        return;
    qCInfo(lcMcpHttp) << "MCP server" << m_serverName
                      << "no longer knows session; starting a new one";
    m_sessionId.clear();
    m_renewal = std::make_shared<Post>();
    m_renewal->message = m_initializeMessage;
    m_renewal->id = u"callscope-new-session-%1"_s.arg(++m_renewals);
    m_renewal->message.insert(u"id"_s, m_renewal->id);
    m_renewal->isRequest = true;
    m_renewal->isInitialize = true;
    m_renewal->renewal = true;
    m_awaited.insert(idKey(m_renewal->id));
    this->post(m_renewal);
}

bool McpHttpTransport::takeRenewalAnswer(const QJsonObject &message)
{
    if (!m_renewal || message.contains(u"method"_s) || message.value(u"id"_s) != m_renewal->id)
        return false;
    m_awaited.remove(idKey(m_renewal->id));
    m_renewal.reset();
    const QList<std::shared_ptr<Post>> waiting = std::exchange(m_waitingForSession, {});
    if (message.contains(u"error"_s) || m_sessionId.isEmpty()) {
        const QString why = message.value(u"error"_s).toObject().value(u"message"_s).toString();
        for (const std::shared_ptr<Post> &p : waiting)
            fail(p,
                 tr("MCP server \"%1\" ended the session and refused a new one%2")
                     .arg(m_serverName, why.isEmpty() ? QString() : u": "_s + why));
        return true;
    }
    Q_EMIT sessionRenewed();
    send(QJsonObject { { u"jsonrpc"_s, u"2.0"_s },
                       { u"method"_s, u"notifications/initialized"_s } });
    for (const std::shared_ptr<Post> &p : waiting)
        this->post(p);
    return true;
}

void McpHttpTransport::deliver(const QJsonDocument &doc, bool fromStream)
{
    const QPointer<McpHttpTransport> self(this);
    const QJsonArray items = doc.isArray() ? doc.array() : QJsonArray { doc.object() };
    for (const QJsonValue &item : items) {
        if (!self)
            return;
        const QJsonObject message = item.toObject();
        if (takeRenewalAnswer(message))
            continue;
        if (message.contains(u"id"_s) && !message.contains(u"method"_s)) {
            m_awaited.remove(idKey(message.value(u"id"_s)));
            if (fromStream)
                m_resumes = 0;
        }
        Q_EMIT messageReceived(message);
    }
}

void McpHttpTransport::dispatchBody(const QByteArray &body, const std::shared_ptr<Post> &post)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError) {
        fail(post,
             tr("MCP server \"%1\" answered with JSON that does not parse: %2")
                 .arg(m_serverName, error.errorString()));
        return;
    }
    const QPointer<McpHttpTransport> self(this);
    deliver(doc, false);
    if (self && post->isRequest && m_awaited.contains(idKey(post->id)))
        fail(post,
             tr("MCP server \"%1\" answered without a response to the request").arg(m_serverName));
}

void McpHttpTransport::dispatchEvent(const SseEvent &event, const std::shared_ptr<Stream> &stream)
{
    stream->sawEvent = true;
    if (stream->legacy && event.event == u"endpoint") {
        const QUrl endpoint = m_url.resolved(QUrl(QString::fromUtf8(event.data).trimmed()));
        if (endpoint.scheme() != m_url.scheme() || endpoint.host() != m_url.host()
            || endpoint.port() != m_url.port()) {
            qCWarning(lcMcpHttp) << "MCP server" << m_serverName
                                 << "named an endpoint on another origin; ignored";
            return;
        }
        m_legacyEndpoint = endpoint;
        if (m_legacyInitialize)
            post(std::exchange(m_legacyInitialize, nullptr));
        const QList<std::shared_ptr<Post>> queued = std::exchange(m_legacyQueue, {});
        for (const auto &p : queued)
            post(p);
        return;
    }
    if (!event.event.isEmpty() && event.event != u"message")
        return;
    if (event.data.trimmed().isEmpty())
        return; // a priming event: only an id and a retry delay
    const QJsonDocument doc = QJsonDocument::fromJson(event.data);
    if (doc.isNull()) {
        qCWarning(lcMcpHttp).noquote()
            << u"MCP server %1 sent an event that is not JSON (ignored)"_s.arg(m_serverName);
        return;
    }
    deliver(doc, true);
}

void McpHttpTransport::openServerStream()
{
    if (m_legacy || m_serverStream || m_closing)
        return;
    openGet(QString(), QJsonValue(QJsonValue::Undefined), true);
}

void McpHttpTransport::openGet(const QString &lastEventId, const QJsonValue &awaitedId,
                               bool serverStream)
{
    if (m_closing)
        return;
    if (!serverStream && !m_awaited.contains(idKey(awaitedId)))
        return; // answered meanwhile
    if (!serverStream && ++m_resumes > MaxResumes) {
        Q_EMIT deliveryFailed(awaitedId,
                              tr("MCP server \"%1\" closed its stream %2 times without answering")
                                  .arg(m_serverName)
                                  .arg(MaxResumes));
        return;
    }
    HttpJob *job = startJob(m_url, "GET", "text/event-stream",
                            serverStream ? Kind::Standing : Kind::Answer, {}, lastEventId.toUtf8());
    if (serverStream)
        m_serverStream = job;
    auto stream = std::make_shared<Stream>();
    stream->awaitedId = awaitedId;
    stream->serverStream = serverStream;
    connect(job, &HttpJob::bodyReceived, this, [this, stream](const QByteArray &bytes) {
        for (const SseEvent &event : stream->decoder.feed(bytes))
            dispatchEvent(event, stream);
    });
    connect(job, &HttpJob::finished, this, [this, job, stream, lastEventId] {
        const HttpJobResult result = job->takeResult();
        forget(job);
        if (m_serverStream == job)
            m_serverStream = nullptr;
        if (m_closing)
            return;
        const int status = result.httpStatus;
        const bool ok = isEventStream(result);
        if (ok) {
            for (const SseEvent &event : stream->decoder.finish())
                dispatchEvent(event, stream);
        }
        const qint64 delay =
            stream->decoder.retryMs() >= 0 ? stream->decoder.retryMs() : DefaultRetryMs;
        const QString nextId =
            stream->decoder.lastEventId().isEmpty() ? lastEventId : stream->decoder.lastEventId();
        if (stream->serverStream) {
            // The server's own stream: reconnect while it keeps working; a refusal means none.
            if (!ok) {
                qCDebug(lcMcpHttp) << "MCP server" << m_serverName << "offers no GET stream (HTTP"
                                   << status << ")";
                return;
            }
            // A stream that stayed quiet for its whole bound did nothing wrong.
            const bool quiet = result.stop == HttpJobResult::Stop::InactivityTimeout
                || result.stop == HttpJobResult::Stop::TotalTimeout;
            if (stream->sawEvent || quiet)
                m_resumes = 0;
            if (++m_resumes > MaxResumes)
                return;
            QTimer::singleShot(int(delay), this, [this, nextId] {
                if (!m_serverStream && !m_closing)
                    openGet(nextId, QJsonValue(QJsonValue::Undefined), true);
            });
            return;
        }
        if (!m_awaited.contains(idKey(stream->awaitedId)))
            return;
        if (!ok) {
            Q_EMIT deliveryFailed(
                stream->awaitedId,
                status == 0 ? describe(result)
                            : tr("MCP server \"%1\" could not resume the stream (HTTP %2)")
                                  .arg(m_serverName)
                                  .arg(status));
            return;
        }
        const QJsonValue id = stream->awaitedId;
        QTimer::singleShot(int(delay), this, [this, nextId, id] { openGet(nextId, id, false); });
    });
    job->start();
}

void McpHttpTransport::startLegacy(std::shared_ptr<Post> initialize)
{
    m_legacy = true;
    m_legacyInitialize = initialize;
    HttpJob *job = startJob(m_url, "GET", "text/event-stream", Kind::Standing);
    auto stream = std::make_shared<Stream>();
    stream->legacy = true;
    connect(job, &HttpJob::bodyReceived, this, [this, stream](const QByteArray &bytes) {
        for (const SseEvent &event : stream->decoder.feed(bytes))
            dispatchEvent(event, stream);
    });
    connect(job, &HttpJob::finished, this, [this, job, stream] {
        const HttpJobResult result = job->takeResult();
        forget(job);
        if (m_closing)
            return;
        if (isEventStream(result)) {
            for (const SseEvent &event : stream->decoder.finish())
                dispatchEvent(event, stream);
        }
        const QString error = isEventStream(result)
            ? tr("MCP server \"%1\" closed its event stream").arg(m_serverName)
            : tr("MCP server \"%1\" speaks neither Streamable HTTP nor HTTP+SSE: %2")
                  .arg(m_serverName, describe(result));
        if (m_legacyInitialize)
            fail(std::exchange(m_legacyInitialize, nullptr), error);
        const QList<std::shared_ptr<Post>> queued = std::exchange(m_legacyQueue, {});
        for (const auto &p : queued)
            fail(p, error);
        const QSet<QString> awaited = std::exchange(m_awaited, {});
        Q_UNUSED(awaited);
        Q_EMIT deliveryFailed(QJsonValue(QJsonValue::Undefined), error);
    });
    job->start();
}

void McpHttpTransport::fail(const std::shared_ptr<Post> &post, const QString &error)
{
    qCInfo(lcMcpHttp).noquote() << error;
    if (post->renewal) {
        // The new session did not start: what waited for it fails with the reason.
        m_awaited.remove(idKey(post->id));
        m_renewal.reset();
        const QList<std::shared_ptr<Post>> waiting = std::exchange(m_waitingForSession, {});
        for (const std::shared_ptr<Post> &p : waiting)
            fail(p,
                 tr("MCP server \"%1\" ended the session and a new one could not start: %2")
                     .arg(m_serverName, error));
        return;
    }
    if (!post->isRequest)
        return;
    m_awaited.remove(idKey(post->id));
    Q_EMIT deliveryFailed(post->id, error);
}

QString McpHttpTransport::describe(const HttpJobResult &result) const
{
    const int status = result.httpStatus;
    const auto seconds = [](qint64 ms) {
        return QString::number(double(ms) / 1000.0, 'g', 6);
    };
    switch (result.stop) {
    case HttpJobResult::Stop::InactivityTimeout:
        return tr("MCP server \"%1\" sent nothing for %2 s; the request was stopped")
            .arg(m_serverName, seconds(m_http.inactivityTimeoutMs));
    case HttpJobResult::Stop::TotalTimeout:
        return tr("MCP server \"%1\" took longer than %2 s to answer; the request was stopped")
            .arg(m_serverName, seconds(m_http.totalTimeoutMs));
    case HttpJobResult::Stop::TooLarge:
        return tr("MCP server \"%1\" answered with more than %2 MiB; the answer was dropped")
            .arg(m_serverName)
            .arg(m_http.maxResponseBytes / (1024 * 1024));
    case HttpJobResult::Stop::Connection:
        if (status == 0)
            return tr("MCP server \"%1\" could not be reached: %2")
                .arg(m_serverName, result.transportDetail);
        return tr("MCP server \"%1\" broke off its answer: %2")
            .arg(m_serverName, result.transportDetail);
    case HttpJobResult::Stop::None:
    case HttpJobResult::Stop::Other:
        break;
    }
    if (result.cancelled)
        return tr("MCP server \"%1\": the request was cancelled").arg(m_serverName);
    if (status == 0)
        return tr("MCP server \"%1\" could not be reached: %2")
            .arg(m_serverName, result.error.message);
    if (status / 100 == 2)
        return tr("MCP server \"%1\": %2").arg(m_serverName, result.error.message);
    const QByteArray body = result.rawResponse;
    QString text = QString::fromUtf8(body.left(300)).trimmed();
    const QJsonObject o = QJsonDocument::fromJson(body).object();
    if (o.contains(u"error"_s)) {
        const QJsonValue e = o.value(u"error"_s);
        text = e.isObject() ? e.toObject().value(u"message"_s).toString() : e.toString();
    } else if (result.error.messageNamesStatus) {
        text.clear(); // a web server's page, not the MCP server's words
    }
    return tr("MCP server \"%1\" answered HTTP %2%3")
        .arg(m_serverName)
        .arg(status)
        .arg(text.isEmpty() ? QString() : u": "_s + text);
}

void McpHttpTransport::close()
{
    if (m_closing)
        return;
    m_closing = true;
    const QList<QPointer<HttpJob>> jobs = std::exchange(m_jobs, {});
    for (const QPointer<HttpJob> &job : jobs) {
        if (job) {
            job->disconnect(this);
            job->cancel();
            job->deleteLater();
        }
    }
    m_serverStream = nullptr;
    auto emitClosed = [this] {
        if (m_closedEmitted)
            return;
        m_closedEmitted = true;
        Q_EMIT closed();
    };
    if (m_sessionId.isEmpty() || m_legacy) {
        QMetaObject::invokeMethod(this, emitClosed, Qt::QueuedConnection);
        return;
    }
    // startJob() refuses nothing while closing; the DELETE is the last request.
    HttpJob *job = startJob(m_url, "DELETE", "application/json, text/event-stream", Kind::Close);
    connect(job, &HttpJob::finished, this, [this, job, emitClosed] {
        forget(job);
        emitClosed();
    });
    job->start();
}

} // namespace Callscope
