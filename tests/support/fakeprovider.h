#pragma once

// A scripted fake LLM provider: a tiny HTTP/1.1 server on 127.0.0.1 for tests.
//
// It answers ANY method and path with the next reply of a queue (FIFO), or with the default
// reply once the queue is empty (500 {"error":{"message":"FakeProvider: no scripted reply
// for POST /v1/...","type":"fake_provider"}} unless setDefaultReply() changed it). Every
// request is recorded (method, target, headers, body, parsed JSON) for assertions.
// It runs in the thread that creates it, on that thread's event loop: drive the client
// asynchronously, never block the test thread on the client. For anything timed (drip,
// retry delays, timeouts) wait with a real event loop (QSignalSpy::wait, or a QEventLoop
// quit by a short timer): QTRY_* / QTest::qWait sleep 10 ms between event batches, which
// turns a 1 byte/ms drip into 1 byte per 10 ms.
//
//   using namespace Callscope::Test;
//   FakeProvider server;
//   QVERIFY2(server.listen(), qPrintable(server.errorString()));
//   config.baseUrl = server.baseUrl();                        // 127.0.0.1:<port>, no path
//   server.enqueue(FakeReply::jsonFile(429, testDataPath(u"http/error_429.json"_s))
//                      .withHeader("retry-after", "1"));     // first request: 429
//   server.enqueue(FakeReply::sseFile(path).dripped(1, 1));   // second: SSE, 1 byte per ms
//   server.enqueue(FakeReply::sseFile(path).resetAfter(300)); // TCP RST after 300 body bytes
//   server.enqueue(FakeReply::stall());                       // read the request, never answer
//   server.enqueueCassette(cassettePath);                     // every response of a cassette
//   ... run the client ...
//   QCOMPARE(server.requestCount(), 2);
//   QCOMPARE(server.requests()[1].header("authorization"), "Bearer k"_ba);
//   QCOMPARE(server.requests()[1].jsonObject()["model"].toString(), u"gpt-4o"_s);
//   QTRY_VERIFY(!server.isConnectionOpen(server.requests()[0].connection));
//
// Framing: a reply delivered whole carries Content-Length and keeps the connection alive
// (several requests per connection work); dripped or cut replies use chunked transfer
// encoding by default (withFraming(Framing::Close) sends no length and closes instead).

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTcpServer>
#include <QUrl>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <utility>

class QThread;

namespace Callscope::Test {

using FakeHeaders = QList<std::pair<QByteArray, QByteArray>>;

struct FakeReply
{
    enum class Framing { Auto, ContentLength, Chunked, Close };
    enum class Cut { None, Stall, Reset, Close };

    int status = 200;
    FakeHeaders headers; // sent as given; framing headers are added
    QByteArray body;
    Framing framing = Framing::Auto;
    bool neverAnswer = false; // read the request, then send nothing at all
    int headerDelayMs = 0; // wait before the status line
    int chunkBytes = 0; // body piece size; 0 = the whole body in one write
    int intervalMs = 0; // between pieces
    qsizetype cutAfterBytes = -1; // with `cut`: body bytes sent before it happens
    Cut cut = Cut::None;
    bool countsInFlight = false; // set by the provider: this reply holds a place of its limit
    // Kept back (request read, nothing sent) until FakeProvider::releaseHeld(): a test holds a
    // run at a known point, changes the world (stops a server), then lets it go on.
    bool held = false;

    // Builders. Bodies are sent byte for byte (invalid UTF-8 or broken JSON included).
    static FakeReply json(int status, const QByteArray &body);
    static FakeReply jsonFile(int status, const QString &path); // empty body if unreadable
    static FakeReply text(int status, const QByteArray &body,
                          const QByteArray &contentType = "text/plain");
    static FakeReply sse(const QByteArray &body); // 200 text/event-stream
    static FakeReply sseFile(const QString &path);
    // 200 SSE from (event name or empty, data) pairs; data with '\n' becomes several lines.
    static FakeReply sseEvents(const QList<std::pair<QByteArray, QByteArray>> &events);
    static FakeReply stall();
    static FakeReply redirect(int status, const QUrl &location);

    FakeReply &withHeader(const QByteArray &name, const QByteArray &value);
    FakeReply &withFraming(Framing value);
    FakeReply &delayedBy(int ms);
    FakeReply &dripped(int bytes, int everyMs); // `bytes` body bytes every `everyMs` ms
    FakeReply &stallAfter(qsizetype bodyBytes); // headers + bodyBytes, then silence
    FakeReply &resetAfter(qsizetype bodyBytes); // headers + bodyBytes, then TCP reset
    FakeReply &closeAfter(qsizetype bodyBytes); // headers + bodyBytes, then a clean close
};

struct RecordedRequest
{
    int connection = 0; // id of the TCP connection it came on
    QByteArray method;
    QByteArray target; // path + query as sent
    QByteArray path;
    QByteArray query; // without '?'
    FakeHeaders headers; // names as sent
    QByteArray body;
    QJsonValue json; // parsed body; Undefined when it is not JSON

    QByteArray header(QByteArrayView name) const; // case-insensitive; empty when absent
    bool hasHeader(QByteArrayView name) const;
    QJsonObject jsonObject() const { return json.toObject(); }
};

// One interaction of a `.cassette.json` fixture (wire-fixtures/README.md).
struct CassetteInteraction
{
    QByteArray method;
    QUrl uri;
    QJsonValue requestBody; // object for JSON requests
    int status = 200;
    QByteArray contentType;
    QByteArray responseBody; // JSON re-serialised compactly, SSE raw
    FakeReply toReply() const;
};
std::optional<QList<CassetteInteraction>> loadCassette(const QString &path,
                                                       QString *error = nullptr);

class FakeProvider final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FakeProvider)

public:
    explicit FakeProvider(QObject *parent = nullptr);
    ~FakeProvider() override;

    bool listen(); // 127.0.0.1, a free port
    QString errorString() const { return m_server.errorString(); }
    quint16 port() const { return m_server.serverPort(); }
    QUrl baseUrl() const; // scheme, host and port; no path
    QUrl url(const QString &path) const;

    void enqueue(const FakeReply &reply);
    // Answers every request the queue does not: the reply can depend on the request (a tool
    // loop's second turn, say).
    using Responder = std::function<FakeReply(const RecordedRequest &request)>;
    void setResponder(Responder responder) { m_responder = std::move(responder); }
    // At most `limit` replies in progress (headers sent, body not finished); a request beyond
    // that gets `overflow` at once (a 429 with retry-after-ms, say). 0 = no limit.
    void setConcurrencyLimit(int limit, const FakeReply &overflow);
    int inFlight() const { return m_inFlight; }
    int peakInFlight() const { return m_peakInFlight; }
    int overflowCount() const { return m_overflows; }
    void resetCounters()
    {
        m_peakInFlight = m_inFlight;
        m_overflows = 0;
    }
    bool enqueueCassette(const QString &path, QString *error = nullptr);
    void setDefaultReply(const FakeReply &reply) { m_defaultReply = reply; }
    qsizetype pendingReplies() const { return m_queue.size(); }

    const QList<RecordedRequest> &requests() const { return m_requests; }
    qsizetype requestCount() const { return m_requests.size(); }
    void clearRequests() { m_requests.clear(); }

    int connectionCount() const { return m_connectionsSeen; }
    bool isConnectionOpen(int connection) const;
    int openConnectionCount() const;
    void closeAllConnections();
    // Replies kept back (FakeReply::held) right now, and sending them.
    int heldCount() const;
    void releaseHeld();

Q_SIGNALS:
    void requestReceived(int index);
    void connectionClosed(int connection);

private:
    friend class FakeConnection;
    void onNewConnection();
    FakeReply takeReply(const RecordedRequest &request);
    static FakeReply noScriptedReply(const RecordedRequest &request);
    void record(const RecordedRequest &request);
    void onConnectionClosed(int connection);
    void replyEnded(const FakeReply &reply);
    friend class FakeConnection;

    QTcpServer m_server;
    Responder m_responder;
    int m_limit = 0;
    std::optional<FakeReply> m_overflow;
    int m_inFlight = 0;
    int m_peakInFlight = 0;
    int m_overflows = 0;
    QList<FakeReply> m_queue;
    std::optional<FakeReply> m_defaultReply;
    QList<RecordedRequest> m_requests;
    QHash<int, QObject *> m_connections; // open ones
    QList<int> m_held; // connections whose reply is held
    int m_connectionsSeen = 0;
};

// An OpenAI Chat Completions reply that calls one tool.
QByteArray openAiToolCallBody(const QString &id, const QString &name, const QJsonObject &arguments);
// The events of an OpenAI Chat Completions stream (each "data: ...\n\n") that calls `name`
// with its arguments sent as `fragments`, one chunk each, then finish_reason tool_calls, the
// usage and [DONE]. Joined, they are the body; summed, their sizes say where a fragment ends.
QList<QByteArray> openAiToolCallStreamEvents(const QString &id, const QString &name,
                                             const QStringList &fragments);
// The same for a reply whose text is sent as `fragments` (native structured output).
QList<QByteArray> openAiTextStreamEvents(const QStringList &fragments);

// A responder for a two-turn OpenAI chat tool loop: a request that carries no tool result yet
// gets a call of `tool`; one that does gets submit_output with `output`. Every reply waits
// `delayMs` before its status line (a provider's latency).
FakeProvider::Responder twoTurnResponder(const QString &tool, const QJsonObject &output,
                                         int delayMs);

// The spec twoTurnResponder answers: kind planner, a mock get_ticket tool, a schema with a
// required string "title", the openai engine at `base` with its key in the variable `keyEnv`.
QJsonObject twoTurnSpecJson(const QUrl &base, const QString &keyEnv,
                            const QString &model = QStringLiteral("fake-model"));

// A FakeProvider on a thread of its own, so the test's thread may block (on a child process,
// say) while the provider answers on time. Configure and read it only through run(), which
// executes on the provider's thread and waits.
class FakeProviderThread
{
public:
    FakeProviderThread();
    ~FakeProviderThread();
    Q_DISABLE_COPY_MOVE(FakeProviderThread)

    bool listen(); // false when no port could be opened
    QUrl baseUrl() const { return m_baseUrl; }
    void run(const std::function<void(FakeProvider &)> &work);

private:
    QThread *m_thread = nullptr;
    QObject *m_anchor = nullptr; // lives on the thread
    FakeProvider *m_provider = nullptr; // created and deleted on the thread
    QUrl m_baseUrl;
};

} // namespace Callscope::Test
