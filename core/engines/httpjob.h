#pragma once

// One model request over HTTP, retries included. The job owns the reply's
// lifetime, the inactivity and total timeouts, cancellation, the redirect rule and error
// classification; the codec only builds the body and reads the bytes.
//
// - `finished` is emitted exactly once per start(), on every path (success, error, timeout,
//   cancel). cancel() emits it synchronously, before returning.
// - Streamed bytes go through SseDecoder -> StreamAssembler as they arrive; text fragments
//   are forwarded by `textDelta`. Once a stream delivered model content nothing is retried.
// - Redirects (307/308) are followed only within the same origin, so the key never leaves
//   it; a redirect elsewhere ends the request with an error and the other origin is never
//   contacted.
// - Every attempt leaves an AttemptRecord (status, outcome, delay waited after it, duration).
// - Requests of other protocols (HttpRequestData::passThrough: remote MCP and its OAuth) get
//   the same timeouts, retry rules, redirect rule and reply cap without a codec.

#include "core/engines/enginecodec.h"
#include "core/engines/requestgate.h"
#include "core/engines/retrypolicy.h"

#include <QElapsedTimer>
#include <QLoggingCategory>
#include <QObject>
#include <QPointer>

#include <memory>
#include <optional>

class QNetworkAccessManager;
class QNetworkReply;
class QTimer;

namespace Callscope {

Q_DECLARE_LOGGING_CATEGORY(lcEngineHttp) // "callscope.engine"; never logs keys or bodies

struct HttpJobSettings
{
    // Defaults for interactive use; a spec or profile sets its own (`idle_timeout_ms`,
    // `timeout_ms`, see applyTimeouts()). No byte for this long ends the attempt.
    static constexpr qint64 DefaultInactivityTimeoutMs = 60000;
    static constexpr qint64 DefaultTotalTimeoutMs = 600000;
    qint64 inactivityTimeoutMs = DefaultInactivityTimeoutMs;
    qint64 totalTimeoutMs =
        DefaultTotalTimeoutMs; // bound on one attempt, request sent to last byte
    qint64 endGraceMs = 2000; // after a stream's end signal, wait this long for the close
    // Reading stops (and the reply is aborted) once an attempt's body would pass this.
    qint64 maxResponseBytes = 64 * 1024 * 1024;
    // Bytes Qt may hold for us between reads: bounds memory, whatever the server sends.
    qint64 readBufferBytes = 1024 * 1024;
    // HttpJobResult::rawResponse keeps at most this much of the body (for the raw view).
    qint64 keepRawBytes = 4 * 1024 * 1024;
    RetryPolicy retry; // retry.maxAttempts bounds the attempts
    // Asked before every attempt (the scheduler's per-engine limit); none = send at once.
    std::shared_ptr<RequestGate> gate;

    // Sets the timeouts that are given (> 0); the others keep their values.
    void applyTimeouts(std::optional<qint64> totalMs, std::optional<qint64> inactivityMs);
};

struct HttpJobResult
{
    std::optional<ModelReply> reply;
    ApiError error; // meaningful when !reply
    bool cancelled = false;
    QList<AttemptRecord> attempts;
    // Body of the last attempt (streams: the raw SSE bytes), at most settings.keepRawBytes of
    // it; rawResponseBytes is the whole size, so a shortened copy can say so.
    QByteArray rawResponse;
    qint64 rawResponseBytes = 0;
    int httpStatus = 0; // of the last attempt
    HttpHeaderList responseHeaders; // of the last attempt
    QString reasonPhrase; // of the last attempt, as the server sent it
    // How the last failed attempt ended, for callers that word their own messages (MCP).
    enum class Stop { None, Connection, InactivityTimeout, TotalTimeout, TooLarge, Other };
    Stop stop = Stop::None;
    QString transportDetail; // the network layer's words for a Connection stop
    // cutShort() ended the stream: `reply` holds what had arrived, rawResponseBytes how much.
    bool cutShort = false;
};

class HttpJob final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HttpJob)

public:
    // Every user-visible text the job produces; see text().
    enum class Text {
        InactivityTimeout, // arg: seconds
        TotalTimeout, // arg: seconds
        ConnectionFailed, // arg: transport detail
        ConnectionLost, // arg: transport detail
        ConnectionLostAfterContent,
        ClosedBeforeComplete, // the transport detail of a close Qt wanted to answer by resending
        StreamIncomplete,
        CrossOriginRedirect, // arg: target URL (no query)
        UnexpectedRedirect, // arg: HTTP status
        UnreadableReply, // arg: parser detail
        UnreadableErrorReply, // arg: HTTP status
        ResponseTooLarge, // arg: limit in MiB
        EventTooLarge, // arg: limit in MiB
        TooManyRedirects, // arg: limit
        Cancelled,
        NoCodec,
        // An error reply that is not the provider's JSON (a web server's page, plain text):
        // one line naming who answered, the body stays in the raw response.
        ServerAnswered, // args: URL (no query), status line ("404 Not Found")
        NotTheApi, // args: URL, status line, the API ("a Chat Completions API")
    };
    static QString text(Text id, const QString &arg = {});
    static QString text(Text id, const QString &arg1, const QString &arg2,
                        const QString &arg3 = {});
    // "501 Not Implemented": the status with its standard reason phrase (the server's own
    // phrase when the status has none here).
    static QString statusLine(int httpStatus, const QString &serverPhrase = {});
    // How the API a codec speaks is named in NotTheApi ("a Chat Completions API").
    static QString apiPhrase(EngineType type);

    // `nam` and `codec` must outlive the job.
    HttpJob(QNetworkAccessManager *nam, const EngineCodec *codec, const HttpRequestData &request,
            const HttpJobSettings &settings, QObject *parent = nullptr);
    ~HttpJob() override;

    void start();
    void cancel();
    // Ends a model stream under way at once, keeping what arrived: the reply is assembled from
    // the events read so far and `finished` follows before this returns, with
    // HttpJobResult::cutShort set. False (and nothing happens) when no stream is being read.
    bool cutShort();
    bool isRunning() const { return m_running; }
    const HttpJobResult &result() const { return m_result; }
    // The result, moved out, and the stream assembler let go: a finished job then holds no copy
    // of a long answer while it waits to be deleted.
    HttpJobResult takeResult();
    const HttpRequestData &request() const { return m_request; }
    // Whether a request of this method carries a body ("GET" and "DELETE" do not).
    static bool sendsBodyFor(const QByteArray &method)
    {
        return method != "GET" && method != "DELETE";
    }

Q_SIGNALS:
    void textDelta(const QString &delta);
    // A fragment of a tool call's arguments (StreamAssembler::onToolArgumentsDelta).
    void toolArgumentsDelta(int call, const QString &name, const QString &fragment);
    // passThrough requests: the next piece of a 2xx event stream, as read (status and headers
    // are in result() by then). A slot may cancel the job.
    void bodyReceived(const QByteArray &bytes);
    // `attempt` is the 1-based number of the attempt that will start after `delayMs`.
    void retryScheduled(int attempt, qint64 delayMs, const Callscope::ApiError &reason);
    void finished();

private:
    enum class Mode { Undecided, Stream, Whole, Pass };

    void startAttempt();
    void beginAttempt(); // the gate let this attempt go
    void releaseGate(bool withdrawn);
    void post(const QUrl &url);
    void limitReadBuffer();
    void followRedirect(const QByteArray &location);
    static bool isSameOrigin(const QUrl &a, const QUrl &b);
    void decideMode();
    void onReadyRead();
    QByteArray readBounded();
    void onReplyFinished();
    void onInactivityTimeout();
    void onTotalTimeout();
    // Ends the attempt as timed out: `stop` and the message `what` with the limit in seconds.
    void failTimeout(HttpJobResult::Stop stop, Text what, qint64 limitMs);
    bool consume(const QByteArray &bytes);
    bool arrivedWhole() const;
    bool contentDelivered() const; // a retry would repeat what the caller already has
    bool keepsWholeBody() const { return m_request.wholeReply || m_request.passThrough; }

    bool isCutOffTail(const SseEvent &event) const;
    // Hands decoded events to the assembler, then emits the text deltas they brought. At the
    // end of the stream (`atEnd`) an event the close cut off is skipped. `broken` says whether
    // the assembler gave up on an event. False when a textDelta slot cancelled or restarted
    // the job (or deleted it): the caller must then return at once and touch nothing.
    bool deliverEvents(const QList<SseEvent> &events, bool atEnd, bool *broken);
    void failAttempt(FailedAttempt failure);
    void succeedAttempt(const ModelReply &reply);
    void recordAttempt(const QString &outcome, const QString &error, qint64 delayMs,
                       const ModelReply *reply = nullptr);
    void keepRawResponse();
    void dropReply();
    void finish();
    void readResponseMeta();
    FailedAttempt transportFailure(const QString &detail); // records the detail in the result
    FailedAttempt httpFailure(const QByteArray &body) const;

    QNetworkAccessManager *m_nam = nullptr;
    const EngineCodec *m_codec = nullptr;
    HttpRequestData m_request;
    QByteArray m_body;
    HttpJobSettings m_settings;

    HttpJobResult m_result;
    bool m_running = false;
    int m_attemptsMade = 0;
    quint64 m_serial = 0; // bumps whenever the current attempt ends
    static constexpr int MaxRedirects = 5;
    int m_redirects = 0; // followed within the current attempt
    QUrl m_currentUrl;
    std::optional<RequestGate::Ticket> m_gateTicket; // held from acquire() to release()
    bool m_waitingForGate = false;

    QPointer<QNetworkReply> m_reply;
    QTimer *m_inactivityTimer = nullptr;
    QTimer *m_totalTimer = nullptr;
    QTimer *m_retryTimer = nullptr;
    QElapsedTimer m_attemptClock;
    QDateTime m_attemptStartedAt;

    Mode m_mode = Mode::Undecided;
    SseDecoder m_decoder;
    std::unique_ptr<StreamAssembler> m_assembler;
    struct PendingDelta
    {
        int call = -1; // -1: reply text; otherwise the tool call whose arguments grow
        QString name;
        QString fragment;
    };
    QList<PendingDelta> m_pendingDeltas;
    // A stream is decoded in pieces of at most this many bytes, and the deltas of each piece
    // go out before the next is read: a slot that cuts the stream short then stops it within
    // this distance of the event that made it decide, however much one read brought.
    static constexpr qsizetype StreamSliceBytes = 512;
    bool consumeStream(const QByteArray &bytes);
    QByteArray m_received; // this attempt's body (streams: its first keepRawBytes)
    qint64 m_receivedBytes = 0; // this attempt's body size, all of it
    bool m_streamEnded = false; // the assembler saw the end signal
};

} // namespace Callscope
