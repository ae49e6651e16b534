#pragma once

// The HTTP side of a remote MCP server: the Streamable HTTP transport, with the HTTP+SSE
// transport of protocol 2024-11-05 as a fallback.
//
// Streamable HTTP: every JSON-RPC message is POSTed to the server URL with
// "Accept: application/json, text/event-stream". The answer is 202 (a notification or a
// response was taken), a JSON body, or an SSE stream that carries the response and any requests
// and notifications the server sends first. The session ID from the initialize answer
// (Mcp-Session-Id) and the negotiated MCP-Protocol-Version go with every later request. After
// initialization a GET opens the server's own stream (a 405 means the server has none). A
// stream that ends before the response it owes is resumed with a GET carrying Last-Event-ID,
// after the delay of the stream's last "retry" field (1 s when it gave none). close() ends the
// session with DELETE.
//
// Fallback: when the initialize POST is refused with 400, 404 or 405, the URL is opened with a
// GET as a legacy SSE stream; its "endpoint" event names where messages are POSTed, and every
// answer comes on that stream.
//
// Auth: static headers from the spec, a bearer token, or McpOAuth; a 401 or a 403 with
// insufficient_scope hands the WWW-Authenticate header to McpOAuth and sends the message again
// when it got a token. Redirects are followed within the same origin only.
//
// Every request goes through HttpJob (a passThrough request), so remote MCP has the model
// calls' inactivity and total timeouts, retry rules (a message the server took, 2xx, is never
// sent twice) and reply cap (JSON answers; events are bounded by SseDecoder). The two
// standing streams (the server's GET stream, the legacy SSE stream) may be quiet for long:
// they are bounded by StandingStreamLimitMs instead, and a GET stream that ends that way is
// opened again; each request on them is bounded by its tool's own timeout.

#include "core/engines/httpjob.h"
#include "core/engines/ssedecoder.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QNetworkAccessManager>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <QUrl>

#include <functional>
#include <memory>

namespace Callscope {

class McpOAuth;

class McpHttpTransport final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(McpHttpTransport)

public:
    static constexpr int DefaultRetryMs = 1000;
    static constexpr int MaxResumes = 5; // per stream, without a message in between
    static constexpr int MaxAuthRetries = 3; // per message
    static constexpr qint64 MaxBodyBytes =
        64 * 1024 * 1024; // a JSON answer; events: SseDecoder's bound
    static constexpr qint64 StandingStreamLimitMs = 24LL * 60 * 60 * 1000;

    McpHttpTransport(const QString &serverName, const QUrl &url, QObject *parent = nullptr);
    ~McpHttpTransport() override;

    QNetworkAccessManager *networkAccessManager() { return &m_nam; }
    void setHeaders(const QMap<QString, QString> &headers) { m_headers = headers; }
    void setBearerToken(const QByteArray &token) { m_bearer = token; }
    void setOAuth(McpOAuth *auth);
    void setProtocolVersion(const QString &version) { m_protocolVersion = version; }
    // Timeouts, retries and the reply cap of every request (HttpJob's defaults, the cap
    // MaxBodyBytes, unless set).
    void setHttpSettings(const HttpJobSettings &settings) { m_http = settings; }
    const HttpJobSettings &httpSettings() const { return m_http; }

    // Sends one JSON-RPC message (request, response or notification).
    void send(const QJsonObject &message);
    // Opens the server's GET stream (after initialization).
    void openServerStream();
    // Ends the session (DELETE when there is one) and every stream; `closed` follows, once.
    void close();

    QString sessionId() const { return m_sessionId; }
    int sessionRenewals() const { return m_renewals; }
    bool isLegacy() const { return m_legacy; }

Q_SIGNALS:
    void messageReceived(const QJsonObject &message);
    // A request could not be delivered or answered; `id` is its JSON-RPC id.
    void deliveryFailed(const QJsonValue &id, const QString &error);
    void closed();
    // The server ended the session and a new one was started (the messages it lost went again).
    void sessionRenewed();

private:
    struct Post;
    struct Stream;

    enum class Kind { Message, Answer, Standing, Close };
    // Starts one request through HttpJob; the caller connects to it. Finished jobs are deleted
    // by forget().
    HttpJob *startJob(const QUrl &url, const QByteArray &method, const QByteArray &accept,
                      Kind kind, const QByteArray &body = {}, const QByteArray &lastEventId = {});
    void forget(HttpJob *job);
    void post(std::shared_ptr<Post> post);
    void onPostFinished(std::shared_ptr<Post> post, const HttpJobResult &result);
    void takeSessionId(const HttpJobResult &result, const Post &post);
    void dispatchEvent(const SseEvent &event, const std::shared_ptr<Stream> &stream);
    void dispatchBody(const QByteArray &body, const std::shared_ptr<Post> &post);
    void openGet(const QString &lastEventId, const QJsonValue &awaitedId, bool serverStream);
    void startLegacy(std::shared_ptr<Post> initialize);
    void fail(const std::shared_ptr<Post> &post, const QString &error);
    // A message the server answered 404 for (its session is gone): start a new session with
    // the same initialize, then send it once more. Only our own answer is consumed.
    void renewSession(const std::shared_ptr<Post> &post);
    bool takeRenewalAnswer(const QJsonObject &message);
    // Hands each message of a body or event to the toolkit (our own renewal answer excepted);
    // an answer on a stream also ends that stream's resumes.
    void deliver(const QJsonDocument &doc, bool fromStream);
    QString describe(const HttpJobResult &result) const;

    QString m_serverName;
    QUrl m_url;
    QNetworkAccessManager m_nam;
    HttpJobSettings m_http;
    QMap<QString, QString> m_headers;
    QByteArray m_bearer;
    QPointer<McpOAuth> m_auth;
    QString m_protocolVersion;
    QString m_sessionId;
    QJsonObject m_initializeMessage; // sent again to start a new session
    std::shared_ptr<Post> m_renewal; // that initialize, while it is out
    QList<std::shared_ptr<Post>> m_waitingForSession;
    int m_renewals = 0;

    bool m_legacy = false;
    QUrl m_legacyEndpoint;
    QList<std::shared_ptr<Post>> m_legacyQueue;
    std::shared_ptr<Post> m_legacyInitialize;

    QPointer<HttpJob> m_serverStream;
    QList<QPointer<HttpJob>> m_jobs; // everything in flight, stopped on close
    QSet<QString> m_awaited; // ids of requests whose answer has not come
    int m_resumes = 0;
    bool m_closing = false;
    bool m_closedEmitted = false;
};

} // namespace Callscope
