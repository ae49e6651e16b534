#include "core/engines/httpjob.h"

#include <QHash>
#include <QIODevice>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Callscope {

Q_LOGGING_CATEGORY(lcEngineHttp, "callscope.engine")

namespace {

int clampInterval(qint64 ms)
{
    return int(std::clamp<qint64>(ms, 1, std::numeric_limits<int>::max()));
}

QString seconds(qint64 ms)
{
    return QString::number(double(ms) / 1000.0, 'g', 6);
}

// A URL fit for logs and messages: no query (a Gemini ?key= would be there), no user info.
QString safeUrl(const QUrl &url)
{
    return url.adjusted(QUrl::RemoveQuery | QUrl::RemoveUserInfo | QUrl::RemoveFragment).toString();
}

// The request body as a device that can be read once and never rewound.
//
// Qt's HTTP/1 channel resends a request on its own when the connection closes before the
// reply's status line and headers are complete (QHttpNetworkConnectionChannel: up to three
// reconnect attempts, POST included, in Qt 6.4). Every one of those is a billed request the
// retry policy never sees. Before such a resend Qt rewinds the upload device; this one refuses,
// so the reply ends with ContentReSendError instead and the retry policy decides, with its
// backoff and an attempt record. (DoNotBufferUploadDataAttribute keeps QNAM from copying the
// body into a buffer it could rewind itself.)
class OneShotBody final : public QIODevice
{
public:
    explicit OneShotBody(const QByteArray &body, QObject *parent)
        : QIODevice(parent)
        , m_body(body)
    {
        open(QIODevice::ReadOnly);
    }

    bool isSequential() const override { return true; }
    bool reset() override { return false; }
    bool seek(qint64) override { return false; }
    qint64 size() const override { return m_body.size(); }
    bool atEnd() const override { return m_pos >= m_body.size() && QIODevice::atEnd(); }
    qint64 bytesAvailable() const override
    {
        return (m_body.size() - m_pos) + QIODevice::bytesAvailable();
    }

protected:
    qint64 readData(char *data, qint64 maxSize) override
    {
        const qint64 n = std::min<qint64>(maxSize, m_body.size() - m_pos);
        if (n <= 0)
            return m_pos >= m_body.size() ? -1 : 0;
        memcpy(data, m_body.constData() + m_pos, size_t(n));
        m_pos += n;
        return n;
    }
    qint64 writeData(const char *, qint64) override { return -1; }

private:
    const QByteArray m_body;
    qint64 m_pos = 0;
};

} // namespace

void HttpJobSettings::applyTimeouts(std::optional<qint64> totalMs,
                                    std::optional<qint64> inactivityMs)
{
    if (totalMs && *totalMs > 0)
        totalTimeoutMs = *totalMs;
    if (inactivityMs && *inactivityMs > 0)
        inactivityTimeoutMs = *inactivityMs;
}

QString HttpJob::text(Text id, const QString &arg)
{
    switch (id) {
    case Text::InactivityTimeout:
        return tr("The provider sent nothing for %1 s; the request timed out.").arg(arg);
    case Text::TotalTimeout:
        return tr("The request took longer than %1 s and was stopped.").arg(arg);
    case Text::ConnectionFailed:
        return tr("Could not reach the provider: %1").arg(arg);
    case Text::ConnectionLost:
        return tr("The connection to the provider was lost: %1").arg(arg);
    case Text::ConnectionLostAfterContent:
        return tr("The connection was lost after the reply had started (%1). It was not retried "
                  "because the model's partial answer had already been received.")
            .arg(arg);
    case Text::ClosedBeforeComplete:
        return tr("the connection closed before the reply was complete");
    case Text::StreamIncomplete:
        return tr("The provider closed the stream before its end signal.");
    case Text::CrossOriginRedirect:
        return tr("The provider redirected the request to another origin (%1). Redirects are "
                  "followed only within the same origin so the API key never leaves it; check "
                  "the engine's base URL.")
            .arg(arg);
    case Text::UnexpectedRedirect:
        return tr("The provider answered with an unexpected redirect (HTTP %1).").arg(arg);
    case Text::UnreadableReply:
        return tr("The provider's reply could not be read: %1").arg(arg);
    case Text::UnreadableErrorReply:
        return tr("The provider answered HTTP %1 with a body that could not be read.").arg(arg);
    case Text::ResponseTooLarge:
        return tr("The provider's reply exceeded %1 MiB and was stopped.").arg(arg);
    case Text::EventTooLarge:
        return tr("A stream event exceeded %1 MiB without ending; the stream was stopped.")
            .arg(arg);
    case Text::TooManyRedirects:
        return tr("The provider redirected the request more than %1 times.").arg(arg);
    case Text::Cancelled:
        return tr("The request was cancelled.");
    case Text::NoCodec:
        return tr("This engine type cannot send HTTP requests.");
    case Text::ServerAnswered:
    case Text::NotTheApi:
        return text(id, arg, QString(), QString());
    }
    return {};
}

QString HttpJob::text(Text id, const QString &arg1, const QString &arg2, const QString &arg3)
{
    switch (id) {
    case Text::ServerAnswered:
        return tr("the server at %1 answered %2").arg(arg1, arg2);
    case Text::NotTheApi:
        return tr("the server at %1 answered %2: it does not look like %3").arg(arg1, arg2, arg3);
    default:
        return text(id, arg1);
    }
}

QString HttpJob::statusLine(int httpStatus, const QString &serverPhrase)
{
    // The standard phrases (RFC 9110), so a server's odd or missing phrase does not decide it.
    static const QHash<int, const char *> phrases = { { 400, "Bad Request" },
                                                      { 401, "Unauthorized" },
                                                      { 402, "Payment Required" },
                                                      { 403, "Forbidden" },
                                                      { 404, "Not Found" },
                                                      { 405, "Method Not Allowed" },
                                                      { 406, "Not Acceptable" },
                                                      { 407, "Proxy Authentication Required" },
                                                      { 408, "Request Timeout" },
                                                      { 409, "Conflict" },
                                                      { 410, "Gone" },
                                                      { 411, "Length Required" },
                                                      { 413, "Content Too Large" },
                                                      { 414, "URI Too Long" },
                                                      { 415, "Unsupported Media Type" },
                                                      { 422, "Unprocessable Content" },
                                                      { 429, "Too Many Requests" },
                                                      { 500, "Internal Server Error" },
                                                      { 501, "Not Implemented" },
                                                      { 502, "Bad Gateway" },
                                                      { 503, "Service Unavailable" },
                                                      { 504, "Gateway Timeout" },
                                                      { 505, "HTTP Version Not Supported" } };
    const char *known = phrases.value(httpStatus, nullptr);
    const QString phrase = known ? QString::fromLatin1(known) : serverPhrase.simplified().left(60);
    return phrase.isEmpty() ? QString::number(httpStatus)
                            : QString::number(httpStatus) + u' ' + phrase;
}

QString HttpJob::apiPhrase(EngineType type)
{
    switch (type) {
    case EngineType::OpenAI:
    case EngineType::OpenAICompatible:
        return tr("a Chat Completions API");
    case EngineType::OpenAIResponses:
        return tr("an OpenAI Responses API");
    case EngineType::Anthropic:
        return tr("an Anthropic Messages API");
    case EngineType::Gemini:
        return tr("a Gemini API");
    case EngineType::Replay:
        break;
    }
    return tr("the API this engine speaks");
}

HttpJob::HttpJob(QNetworkAccessManager *nam, const EngineCodec *codec,
                 const HttpRequestData &request, const HttpJobSettings &settings, QObject *parent)
    : QObject(parent)
    , m_nam(nam)
    , m_codec(codec)
    , m_request(request)
    , m_settings(settings)
    , m_inactivityTimer(new QTimer(this))
    , m_totalTimer(new QTimer(this))
    , m_retryTimer(new QTimer(this))
{
    for (QTimer *timer : { m_inactivityTimer, m_totalTimer, m_retryTimer }) {
        timer->setSingleShot(true);
        // A coarse timer may fire up to 5 % early: a retry would then come before the
        // server's Retry-After, and a timeout before its limit.
        timer->setTimerType(Qt::PreciseTimer);
    }
    m_inactivityTimer->setInterval(clampInterval(m_settings.inactivityTimeoutMs));
    m_totalTimer->setInterval(clampInterval(m_settings.totalTimeoutMs));
    connect(m_inactivityTimer, &QTimer::timeout, this, &HttpJob::onInactivityTimeout);
    connect(m_totalTimer, &QTimer::timeout, this, &HttpJob::onTotalTimeout);
    connect(m_retryTimer, &QTimer::timeout, this, &HttpJob::startAttempt);
}

HttpJob::~HttpJob()
{
    releaseGate(true);
    dropReply();
}

void HttpJob::start()
{
    if (m_running)
        return;
    m_result = {};
    m_attemptsMade = 0;
    m_running = true;
    if ((!m_codec && !m_request.passThrough) || !m_nam) {
        // Still asynchronous, so callers can connect after start() as with a real request.
        QTimer::singleShot(0, this, [this] {
            if (!m_running)
                return;
            m_result.error = ApiError { ErrorCategory::Other, 0, {}, text(Text::NoCodec) };
            finish();
        });
        return;
    }
    if (m_request.rawBody)
        m_body = *m_request.rawBody;
    else if (sendsBodyFor(m_request.method))
        m_body = QJsonDocument(m_request.body).toJson(QJsonDocument::Compact);
    startAttempt();
}

void HttpJob::startAttempt()
{
    if (!m_settings.gate) {
        beginAttempt();
        return;
    }
    // Wait for the engine's turn; neither timer runs while waiting, and the wait is not part
    // of the attempt's duration.
    m_waitingForGate = true;
    const QPointer<HttpJob> self(this);
    const quint64 serial = m_serial;
    // `go` may run inside acquire(): it records its ticket itself.
    const RequestGate::Ticket ticket =
        m_settings.gate->acquire([self, serial](RequestGate::Ticket granted) {
            if (!self || self->m_serial != serial || !self->m_waitingForGate)
                return;
            self->m_gateTicket = granted;
            self->m_waitingForGate = false;
            self->beginAttempt();
        });
    m_gateTicket = ticket;
}

void HttpJob::releaseGate(bool withdrawn)
{
    if (!m_gateTicket || !m_settings.gate)
        return;
    const RequestGate::Ticket ticket = *m_gateTicket;
    m_gateTicket.reset();
    m_waitingForGate = false;
    GateFeedback feedback;
    feedback.withdrawn = withdrawn;
    if (!withdrawn) {
        feedback.httpStatus = m_result.httpStatus;
        feedback.headers = m_result.responseHeaders;
    }
    m_settings.gate->release(ticket, feedback);
}

void HttpJob::beginAttempt()
{
    ++m_attemptsMade;
    m_redirects = 0;
    m_attemptStartedAt = QDateTime::currentDateTimeUtc();
    m_attemptClock.start();
    m_totalTimer->start();
    post(m_request.url);
}

HttpJobResult HttpJob::takeResult()
{
    m_assembler.reset();
    m_pendingDeltas.clear();
    return std::exchange(m_result, {});
}

void HttpJob::post(const QUrl &url)
{
    m_currentUrl = url;
    m_streamEnded = false;
    m_inactivityTimer->setInterval(clampInterval(m_settings.inactivityTimeoutMs));
    m_mode = Mode::Undecided;
    m_decoder = SseDecoder();
    m_assembler.reset();
    m_pendingDeltas.clear();
    m_received.clear();
    m_receivedBytes = 0;
    m_result.httpStatus = 0;
    m_result.responseHeaders.clear();
    m_result.stop = HttpJobResult::Stop::Other; // until the attempt says how it ended
    m_result.transportDetail.clear();

    QNetworkRequest request(url);
    bool hasContentType = false;
    bool hasAccept = false;
    for (const auto &[name, value] : m_request.headers) {
        request.setRawHeader(name, value);
        hasContentType |= name.compare("content-type", Qt::CaseInsensitive) == 0;
        hasAccept |= name.compare("accept", Qt::CaseInsensitive) == 0;
    }
    if (!hasContentType && sendsBodyFor(m_request.method))
        request.setHeader(QNetworkRequest::ContentTypeHeader, "application/json"_ba);
    if (!hasAccept)
        request.setRawHeader("Accept",
                             m_request.stream ? "text/event-stream"_ba : "application/json"_ba);
    // Redirects are followed here, not by Qt: only 307/308 within the same origin, so the key
    // never leaves it. (Qt 6.4's SameOriginRedirectPolicy did the origin check, but while
    // following a 307 it sometimes re-sent the original POST on the kept-alive connection.)
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::ManualRedirectPolicy);
    // HTTP/1.1 only, also where the server offers HTTP/2 (Qt 6 would take it by ALPN on every
    // HTTPS provider). Qt 6.4's HTTP/2 handler ignores the read buffer limit: it grants the
    // server more flow-control window as soon as bytes arrive, not as we read them, so what
    // the server sends piles up inside Qt, unseen and unbounded, and a flood runs far past
    // the reply cap before the job reads that far (docs/http.md has the figures). Over
    // HTTP/1.1 Qt reads the socket only as far as we read the reply.
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);

    qCDebug(lcEngineHttp) << "attempt" << m_attemptsMade << m_request.method << safeUrl(url)
                          << (m_request.stream ? "stream" : "whole") << m_body.size() << "bytes";
    if (m_request.method == "GET") {
        m_reply = m_nam->get(request);
    } else if (m_request.method == "DELETE") {
        m_reply = m_nam->deleteResource(request);
    } else {

        // The body goes as a device Qt cannot rewind (see OneShotBody): only the retry policy
        // resends.
        request.setHeader(QNetworkRequest::ContentLengthHeader, m_body.size());
        request.setAttribute(QNetworkRequest::DoNotBufferUploadDataAttribute, true);
        auto *body = new OneShotBody(m_body, this);
        m_reply = m_request.method == "POST"
            ? m_nam->post(request, body)
            : m_nam->sendCustomRequest(request, m_request.method, body);
        body->setParent(m_reply);
    }
    limitReadBuffer();
    connect(m_reply, &QNetworkReply::readyRead, this, &HttpJob::onReadyRead);
    connect(m_reply, &QNetworkReply::finished, this, &HttpJob::onReplyFinished);
    connect(m_reply, &QNetworkReply::uploadProgress, this, [this] { m_inactivityTimer->start(); });
    connect(m_reply, &QNetworkReply::metaDataChanged, this, [this] {
        m_inactivityTimer->start();
        if (m_reply)
            m_reply->setReadBufferSize(m_settings.readBufferBytes);
        readResponseMeta(); // status and headers are known even if no body byte ever comes
    });
    m_inactivityTimer->start();
}

void HttpJob::limitReadBuffer()
{
    // Qt then reads from the socket only as far as we have read from the reply, so a flood is
    // stopped at the cap instead of being buffered ahead of us. Qt 6.4 passes the limit to its
    // HTTP thread only once the request has started there (a queued step of post()), so it is
    // set again after that step and when the headers are in.
    m_reply->setReadBufferSize(m_settings.readBufferBytes);
    QMetaObject::invokeMethod(
        this,
        [this, reply = QPointer<QNetworkReply>(m_reply)] {
            if (reply && reply == m_reply)
                reply->setReadBufferSize(m_settings.readBufferBytes);
        },
        Qt::QueuedConnection);
}

bool HttpJob::isSameOrigin(const QUrl &a, const QUrl &b)
{
    const auto defaultPort = [](const QUrl &url) {
        return url.port(url.scheme().compare(u"https"_s, Qt::CaseInsensitive) == 0 ? 443 : 80);
    };
    return a.scheme().compare(b.scheme(), Qt::CaseInsensitive) == 0
        && a.host().compare(b.host(), Qt::CaseInsensitive) == 0 && defaultPort(a) == defaultPort(b);
}

void HttpJob::followRedirect(const QByteArray &location)
{
    const int status = m_result.httpStatus;
    const QUrl target = m_currentUrl.resolved(QUrl::fromEncoded(location));
    auto fail = [this, status](const QString &message) {
        dropReply();
        failAttempt({ FailedAttempt::Kind::Unreadable,
                      status,
                      m_result.responseHeaders,
                      ApiError { ErrorCategory::Other, status, {}, message },
                      {},
                      false });
    };
    if (!target.isValid() || !isSameOrigin(target, m_request.url)) {
        qCWarning(lcEngineHttp) << "redirect to another origin refused:" << safeUrl(target);
        fail(text(Text::CrossOriginRedirect, safeUrl(target)));
        return;
    }
    // 301/302/303 would turn a POST into a GET; a GET may follow them.
    const bool seeOther = status == 301 || status == 302 || status == 303;
    if (status != 307 && status != 308 && !(seeOther && m_request.method == "GET")) {
        fail(text(Text::UnexpectedRedirect, QString::number(status)));
        return;
    }
    if (++m_redirects > MaxRedirects) {
        fail(text(Text::TooManyRedirects, QString::number(MaxRedirects)));
        return;
    }
    qCDebug(lcEngineHttp) << "same-origin redirect to" << safeUrl(target);
    // The finished reply goes; the attempt (clock, total timeout) goes on.
    QNetworkReply *old = m_reply;
    m_reply = nullptr;
    disconnect(old, nullptr, this, nullptr);
    old->deleteLater();
    post(target);
}

void HttpJob::readResponseMeta()
{
    if (!m_reply)
        return;
    m_result.httpStatus = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    m_result.reasonPhrase =
        m_reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString();
    m_result.responseHeaders.clear();
    const auto pairs = m_reply->rawHeaderPairs();
    for (const auto &[name, value] : pairs)
        m_result.responseHeaders.append({ name.toLower(), value });
}

void HttpJob::decideMode()
{
    if (m_mode != Mode::Undecided || !m_reply)
        return;
    readResponseMeta();
    const int status = m_result.httpStatus;
    const QByteArray contentType =
        RetryPolicy::header(m_result.responseHeaders, "content-type").toLower();
    // A server that ignores `stream` and answers with one JSON document is read whole.
    const bool jsonInstead = contentType.contains("json") && !contentType.contains("event-stream");
    if (m_request.passThrough) {
        const bool events =
            status >= 200 && status < 300 && contentType.contains("text/event-stream");
        m_mode = events ? Mode::Pass : Mode::Whole;
        if (events)
            return;
        bool known = false;
        const qint64 length =
            RetryPolicy::header(m_result.responseHeaders, "content-length").toLongLong(&known);
        if (known && length > 0 && length <= m_settings.maxResponseBytes)
            m_received.reserve(qsizetype(length));
        return;
    }
    if (m_request.stream && status >= 200 && status < 300 && !jsonInstead) {
        m_mode = Mode::Stream;
        m_assembler = m_codec->createStreamAssembler();
        m_assembler->onTextDelta = [this](const QString &delta) {
            m_pendingDeltas.append({ -1, {}, delta });
        };
        m_assembler->onToolArgumentsDelta = [this](int call, const QString &name,
                                                   const QString &fragment) {
            m_pendingDeltas.append({ call, name, fragment });
        };
    } else {
        m_mode = Mode::Whole;
        // A body of announced size grows once instead of doubling its way there.
        bool known = false;
        const qint64 length =
            RetryPolicy::header(m_result.responseHeaders, "content-length").toLongLong(&known);
        if (known && length > 0 && length <= m_settings.maxResponseBytes)
            m_received.reserve(qsizetype(length));
    }
}

void HttpJob::onReadyRead()
{
    if (!m_reply)
        return;
    m_inactivityTimer->start();
    decideMode();
    while (m_reply && m_reply->bytesAvailable() > 0) {
        if (!consume(readBounded()))
            return;
    }
}

QByteArray HttpJob::readBounded()
{
    // One byte past the cap is enough to know the cap was passed; never read more than that.
    const qint64 room = std::max<qint64>(0, m_settings.maxResponseBytes - m_receivedBytes) + 1;
    return m_reply->read(std::min<qint64>(room, std::max<qint64>(1, m_settings.readBufferBytes)));
}

bool HttpJob::consume(const QByteArray &bytes)
{
    if (bytes.isEmpty())
        return true;
    if (m_mode == Mode::Pass) {
        // A standing event stream may run for hours: its events are bounded by the caller's
        // decoder (SseDecoder::MaxEventBytes), not by the whole reply's cap.
        if (m_received.size() < m_settings.keepRawBytes)
            m_received += bytes.left(m_settings.keepRawBytes - m_received.size());
        m_receivedBytes += bytes.size();
        const quint64 serial = m_serial;
        QPointer<HttpJob> guard(this);
        Q_EMIT bodyReceived(bytes);
        return guard && m_serial == serial && m_reply;
    }
    if (m_receivedBytes + bytes.size() > m_settings.maxResponseBytes) {
        const bool content = contentDelivered();
        dropReply();
        m_result.stop = HttpJobResult::Stop::TooLarge;
        failAttempt(
            { FailedAttempt::Kind::Unreadable,
              m_result.httpStatus,
              m_result.responseHeaders,
              ApiError { ErrorCategory::Other,
                         m_result.httpStatus,
                         {},
                         text(Text::ResponseTooLarge,
                              QString::number(m_settings.maxResponseBytes / (1024 * 1024))) },
              {},
              content });
        return false;
    }
    if (m_mode != Mode::Stream) {
        m_receivedBytes += bytes.size();
        m_received += bytes; // parsed as one document at the end
        return true;
    }
    if (bytes.size() <= StreamSliceBytes)
        return consumeStream(bytes);
    for (qsizetype at = 0; at < bytes.size(); at += StreamSliceBytes) {
        if (!consumeStream(bytes.sliced(at, std::min(StreamSliceBytes, bytes.size() - at))))
            return false;
    }
    return true;
}

bool HttpJob::consumeStream(const QByteArray &bytes)
{
    m_receivedBytes += bytes.size();
    // A stream is decoded as it arrives; only its start is kept, for the raw view.
    if (m_received.size() < m_settings.keepRawBytes)
        m_received += bytes.left(m_settings.keepRawBytes - m_received.size());

    bool broken = false;
    if (!deliverEvents(m_decoder.feed(bytes), false, &broken))
        return false;
    if (!broken && !m_streamEnded && m_assembler->isComplete() && !m_assembler->error()) {
        // The end signal is in: a server that then keeps the connection open (no final
        // chunk, no close) gets a short grace period instead of the whole inactivity timeout.
        m_streamEnded = true;
        m_inactivityTimer->setInterval(
            clampInterval(std::min(m_settings.endGraceMs, m_settings.inactivityTimeoutMs)));
        m_inactivityTimer->start();
    }
    if (broken || m_decoder.hasError()) {
        // The decoder gives up on a runaway line or event (SseDecoder::MaxEventBytes).
        ApiError error = m_assembler->error().value_or(
            ApiError { ErrorCategory::Other,
                       m_result.httpStatus,
                       {},
                       text(Text::EventTooLarge,
                            QString::number(SseDecoder::MaxEventBytes / (1024 * 1024))) });
        if (error.category == ErrorCategory::None)
            error.category = ErrorCategory::Other;
        const bool content = m_assembler->hasContent();
        dropReply();
        failAttempt({ FailedAttempt::Kind::StreamError,
                      m_result.httpStatus,
                      m_result.responseHeaders,
                      error,
                      {},
                      content });
        return false;
    }
    return true;
}

bool HttpJob::deliverEvents(const QList<SseEvent> &events, bool atEnd, bool *broken)
{
    const quint64 serial = m_serial;
    *broken = false;
    for (const SseEvent &event : events) {
        if (atEnd && isCutOffTail(event))
            continue; // the connection ended inside this event: a lost connection, not an error
        if (!m_assembler->handleEvent(event)) {
            *broken = true;
            break;
        }
    }
    // Deltas go out after the batch so a slot that cancels never runs inside the assembler.
    const QList<PendingDelta> deltas = std::exchange(m_pendingDeltas, {});
    QPointer<HttpJob> guard(this);
    for (const PendingDelta &delta : deltas) {
        if (delta.call < 0)
            Q_EMIT textDelta(delta.fragment);
        else
            Q_EMIT toolArgumentsDelta(delta.call, delta.name, delta.fragment);
        if (!guard || m_serial != serial)
            return false;
    }
    return true;
}

bool HttpJob::isCutOffTail(const SseEvent &event) const
{
    // An unterminated last event is accepted (some servers omit the final blank line), unless
    // its data is not even JSON while the stream still lacks its end signal: then the close
    // (or reset) cut it, and it is not the provider's malformed event.
    if (m_assembler->isComplete() || event.data.trimmed() == "[DONE]")
        return false;
    QJsonParseError error;
    QJsonDocument::fromJson(event.data, &error);
    return error.error != QJsonParseError::NoError;
}

bool HttpJob::contentDelivered() const
{
    // A message of another protocol that the server took (a 2xx status came) is never sent
    // again: it may have acted on it (an MCP tool call), whatever happened to the answer.
    const bool taken =
        m_request.passThrough && m_result.httpStatus >= 200 && m_result.httpStatus < 300;
    return (m_assembler && m_assembler->hasContent()) || taken;
}

bool HttpJob::arrivedWhole() const
{
    if (m_mode == Mode::Stream)
        return m_streamEnded && m_assembler && m_assembler->isComplete() && !m_assembler->error();
    bool known = false;
    const qint64 length =
        RetryPolicy::header(m_result.responseHeaders, "content-length").toLongLong(&known);
    return m_mode == Mode::Whole && known && length > 0 && m_receivedBytes == length;
}

FailedAttempt HttpJob::transportFailure(const QString &detail)
{
    m_result.stop = HttpJobResult::Stop::Connection;
    m_result.transportDetail = detail;
    FailedAttempt failure;
    failure.httpStatus = m_result.httpStatus;
    failure.headers = m_result.responseHeaders;
    failure.contentDelivered = contentDelivered();
    failure.error.httpStatus = m_result.httpStatus;

    failure.kind = FailedAttempt::Kind::Connection;
    failure.error.category = ErrorCategory::Network;
    failure.error.transient = !failure.contentDelivered;
    if (failure.contentDelivered)
        failure.error.message = text(Text::ConnectionLostAfterContent, detail);
    else if (m_result.httpStatus == 0 && m_receivedBytes == 0)
        failure.error.message = text(Text::ConnectionFailed, detail);
    else
        failure.error.message = text(Text::ConnectionLost, detail);
    return failure;
}

FailedAttempt HttpJob::httpFailure(const QByteArray &body) const
{
    const int status = m_result.httpStatus;
    ApiError error;
    if (m_codec) {
        error = m_codec->parseError(status, body);
    } else {
        error.httpStatus = status;
        error.category =
            status == 401 || status == 403 ? ErrorCategory::Auth : ErrorCategory::Other;
    }
    error.httpStatus = status;
    if (error.category == ErrorCategory::None)
        error.category = ErrorCategory::Other;
    QJsonParseError parsed;
    QJsonDocument::fromJson(body.trimmed(), &parsed);
    if (parsed.error != QJsonParseError::NoError) {
        // Not the provider's JSON (a web server's page, a proxy's text, nothing): one line that
        // names who answered and how; the page itself stays in the raw response, for Details.
        // A wrong URL shows as 400/404/405/501 from a server that does not speak the API.
        const QString who = safeUrl(m_currentUrl);
        const QString how = statusLine(status, m_result.reasonPhrase);
        const bool wrongPlace = status == 400 || status == 404 || status == 405 || status == 501;
        error.message = wrongPlace && m_codec
            ? text(Text::NotTheApi, who, how, apiPhrase(m_codec->type()))
            : text(Text::ServerAnswered, who, how);
        error.providerType.clear();
        error.messageNamesStatus = true;
    } else if (error.message.trimmed().isEmpty()) {
        error.message = text(Text::UnreadableErrorReply, QString::number(status));
    }
    const QDateTime now = QDateTime::currentDateTimeUtc();
    if (const auto server = RetryPolicy::serverDelayMs(m_result.responseHeaders, now);
        server && *server > 0)
        error.retryAfterMs = server;
    error.transient = RetryPolicy::shouldRetryHeader(m_result.responseHeaders)
                          .value_or(error.transient || RetryPolicy::isRetryableStatus(status));
    if (status == 429 && RetryPolicy::isQuotaExhausted(error, body))
        error.transient = false;
    return {
        FailedAttempt::Kind::HttpStatus, status, m_result.responseHeaders, error, body, false
    };
}

void HttpJob::onReplyFinished()
{
    if (!m_reply)
        return;
    decideMode();
    while (m_reply->bytesAvailable() > 0) {
        if (!consume(readBounded()))
            return;
    }
    readResponseMeta();
    const int status = m_result.httpStatus;
    QNetworkReply::NetworkError networkError = m_reply->error();
    const QString detail = networkError == QNetworkReply::ContentReSendError
        ? text(Text::ClosedBeforeComplete)
        : m_reply->errorString();
    if (networkError != QNetworkReply::NoError && status >= 200 && status < 300 && arrivedWhole()) {
        // Qt 6.4 can end a reply whose last byte came with the close with an error (it wanted
        // to resend the request, which OneShotBody refuses). What arrived is the whole reply.
        qCDebug(lcEngineHttp) << "reply complete before the transport error" << networkError
                              << "; kept";
        networkError = QNetworkReply::NoError;
    }

    // Qt 6.4 rewinds the body on any 307/308 (even with a manual redirect policy); OneShotBody
    // refuses, which ends the redirect reply with ContentReSendError. The redirect is ours.
    const bool redirectRefusedRewind =
        (status == 307 || status == 308) && networkError == QNetworkReply::ContentReSendError;
    if (status >= 300 && status < 400
        && (networkError == QNetworkReply::NoError || redirectRefusedRewind)) {
        const QByteArray location = m_reply->rawHeader("Location");
        if (!location.isEmpty()) {
            followRedirect(location);
            return;
        }
    }
    if (status >= 400) {
        dropReply();
        failAttempt(httpFailure(m_received));
        return;
    }
    if (networkError != QNetworkReply::NoError) {
        const FailedAttempt failure = transportFailure(detail);
        dropReply();
        failAttempt(failure);
        return;
    }
    if (status >= 300) {
        dropReply();
        failAttempt({ FailedAttempt::Kind::Unreadable,
                      status,
                      m_result.responseHeaders,
                      ApiError { ErrorCategory::Other,
                                 status,
                                 {},
                                 text(Text::UnexpectedRedirect, QString::number(status)) },
                      {},
                      false });
        return;
    }

    if (m_mode == Mode::Stream) {
        // The stream ended: a last event without its blank line still counts.
        bool broken = false;
        if (!deliverEvents(m_decoder.finish(), true, &broken))
            return;
        const bool content = m_assembler->hasContent();
        if (auto error = m_assembler->error(); error || broken) {
            ApiError apiError = error.value_or(
                ApiError { ErrorCategory::Other, status, {}, text(Text::StreamIncomplete) });
            if (apiError.category == ErrorCategory::None)
                apiError.category = ErrorCategory::Other;
            dropReply();
            failAttempt({ FailedAttempt::Kind::StreamError,
                          status,
                          m_result.responseHeaders,
                          apiError,
                          {},
                          content });
            return;
        }
        if (!m_assembler->isComplete()) {
            dropReply();
            failAttempt({ FailedAttempt::Kind::Connection,
                          status,
                          m_result.responseHeaders,
                          ApiError { ErrorCategory::Network,
                                     status,
                                     {},
                                     content ? text(Text::ConnectionLostAfterContent,
                                                    text(Text::StreamIncomplete))
                                             : text(Text::StreamIncomplete),
                                     !content },
                          {},
                          content });
            return;
        }
        const ModelReply reply = m_assembler->reply();
        dropReply();
        succeedAttempt(reply);
        return;
    }

    if (keepsWholeBody() || m_mode == Mode::Pass) {
        // Not a model reply: the caller reads the bytes (a batch status, a results file, an
        // MCP answer) or has had them as they came (an event stream).
        dropReply();
        succeedAttempt(ModelReply());
        return;
    }
    QString parseError;
    const std::optional<ModelReply> reply = m_codec->parseReply(m_received, &parseError);
    dropReply();
    if (!reply) {
        failAttempt(
            { FailedAttempt::Kind::Unreadable,
              status,
              m_result.responseHeaders,
              ApiError {
                  ErrorCategory::Other, status, {}, text(Text::UnreadableReply, parseError) },
              {},
              false });
        return;
    }
    succeedAttempt(*reply);
}

void HttpJob::onInactivityTimeout()
{
    if (!m_reply)
        return;
    if (m_streamEnded) {
        qCDebug(lcEngineHttp) << "stream complete but the connection stayed open; closing it";
        const ModelReply reply = m_assembler->reply();
        dropReply();
        succeedAttempt(reply);
        return;
    }
    failTimeout(HttpJobResult::Stop::InactivityTimeout, Text::InactivityTimeout,
                m_settings.inactivityTimeoutMs);
}

void HttpJob::onTotalTimeout()
{
    if (!m_reply)
        return;
    failTimeout(HttpJobResult::Stop::TotalTimeout, Text::TotalTimeout, m_settings.totalTimeoutMs);
}

void HttpJob::failTimeout(HttpJobResult::Stop stop, Text what, qint64 limitMs)
{
    const bool content = contentDelivered();
    dropReply();
    m_result.stop = stop;
    failAttempt({ FailedAttempt::Kind::Timeout,
                  m_result.httpStatus,
                  m_result.responseHeaders,
                  ApiError { ErrorCategory::Network,
                             m_result.httpStatus,
                             {},
                             text(what, seconds(limitMs)),
                             !content },
                  {},
                  content });
}

void HttpJob::failAttempt(FailedAttempt failure)
{
    if (failure.error.category == ErrorCategory::None)
        failure.error.category = ErrorCategory::Other;
    if (failure.error.httpStatus == 0)
        failure.error.httpStatus = failure.httpStatus;
    if (failure.kind == FailedAttempt::Kind::HttpStatus)
        m_result.stop = HttpJobResult::Stop::None; // the status says it
    RetryPolicy policy = m_settings.retry;
    policy.maxAttempts = std::max(1, policy.maxAttempts);
    const RetryDecision decision = policy.decide(failure, m_attemptsMade);
    m_result.error = failure.error;
    keepRawResponse();

    qCInfo(lcEngineHttp).noquote()
        << "attempt" << m_attemptsMade << "failed:" << failure.error.toString() << "->"
        << (decision.retry ? u"retry in %1 ms"_s.arg(decision.delayMs) : u"no retry"_s) << '('
        << decision.reason << ')';
    if (!decision.retry) {
        recordAttempt(u"error"_s, failure.error.message, 0);
        finish();
        return;
    }
    recordAttempt(u"retry"_s, failure.error.message, decision.delayMs);
    m_retryTimer->start(clampInterval(decision.delayMs));
    Q_EMIT retryScheduled(m_attemptsMade + 1, decision.delayMs, failure.error);
}

void HttpJob::succeedAttempt(const ModelReply &reply)
{
    m_result.reply = reply;
    m_result.stop = HttpJobResult::Stop::None;
    m_result.error = {};
    m_result.error.category = ErrorCategory::None;
    keepRawResponse();
    recordAttempt(u"ok"_s, {}, 0, &reply);
    finish();
}

void HttpJob::keepRawResponse()
{
    // The attempt's buffer is released: the result holds a copy of at most keepRawBytes.
    const QByteArray body = std::exchange(m_received, {});
    m_result.rawResponseBytes = m_receivedBytes;
    const bool keepAll =
        keepsWholeBody() && m_mode != Mode::Pass && m_result.error.category == ErrorCategory::None;
    m_result.rawResponse = !keepAll && body.size() > m_settings.keepRawBytes
        ? body.left(m_settings.keepRawBytes)
        : body;
}

void HttpJob::recordAttempt(const QString &outcome, const QString &error, qint64 delayMs,
                            const ModelReply *reply)
{
    AttemptRecord record;
    record.index = int(m_result.attempts.size());
    record.outcome = outcome;
    record.httpStatus = m_result.httpStatus;
    record.error = error;
    record.delayMs = delayMs;
    record.startedAt = m_attemptStartedAt;
    record.durationMs = m_attemptClock.isValid() ? m_attemptClock.elapsed() : 0;
    if (reply) {
        record.finishReason = reply->finishReason;
        record.rawFinishReason = reply->rawFinishReason;
        record.usage = reply->usage;
    }
    m_result.attempts.append(record);
    releaseGate(false);
}

void HttpJob::dropReply()
{
    ++m_serial;
    m_inactivityTimer->stop();
    m_totalTimer->stop();
    if (!m_reply)
        return;
    QNetworkReply *reply = m_reply;
    m_reply = nullptr;
    disconnect(reply, nullptr, this, nullptr);
    if (reply->isRunning())
        reply->abort();
    reply->deleteLater();
}

void HttpJob::cancel()
{
    if (!m_running)
        return;
    const bool inFlight = !m_reply.isNull();
    m_retryTimer->stop();
    dropReply();
    // Withdrawn, whether it still waited at the gate or was cut off: a cancelled request says
    // nothing about the provider's limits.
    releaseGate(true);
    if (inFlight) {
        keepRawResponse();
        recordAttempt(u"error"_s, text(Text::Cancelled), 0);
    }
    m_result.cancelled = true;
    m_result.reply.reset();
    m_result.error = ApiError { ErrorCategory::Other, 0, {}, text(Text::Cancelled) };
    qCInfo(lcEngineHttp) << "request cancelled after" << m_attemptsMade << "attempt(s)";
    finish();
}

bool HttpJob::cutShort()
{
    if (!m_running || m_mode != Mode::Stream || !m_reply || !m_assembler)
        return false;
    dropReply();
    m_pendingDeltas.clear();
    ModelReply reply = m_assembler->reply();
    // The provider never said how it would have ended.
    reply.finishReason = FinishReason::Other;
    reply.rawFinishReason = u"stopped_early"_s;
    m_result.cutShort = true;
    qCInfo(lcEngineHttp) << "stream cut short after" << m_receivedBytes << "bytes";
    succeedAttempt(reply);
    return true;
}

void HttpJob::finish()
{
    m_running = false;
    m_retryTimer->stop();
    Q_EMIT finished();
}

} // namespace Callscope
