#pragma once

// When a failed model request is tried again, and after how long.
// Pure: no clock, no randomness of its own (both are passed in), so every rule is testable.
//
// Rules, in the order they apply:
//  1. Nothing is retried once a stream delivered model content (the user saw it; a retry
//     would duplicate it), nor once `maxAttempts` attempts were made.
//  2. An HTTP error reply carrying `x-should-retry: true` or `false` is obeyed either way.
//  3. A 429 whose error is `insufficient_quota` is never retried (it cannot succeed).
//  4. Retried: connection failures, timeouts, HTTP 408, 409, 429 and every status >= 500
//     (Anthropic's 529 included) except 501, and mid-stream error events the codec marks
//     transient. Never retried (unless rule 2 says so): every other 4xx (400, 401, 403, 404,
//     405, ...) and 501 Not Implemented: a wrong URL or key answers the same every time.
//  5. The delay is the server's when it sent one (`retry-after-ms`, then `Retry-After` as
//     seconds with fractions, then `Retry-After` as an HTTP-date, then a delay the codec read
//     from the body such as Gemini's RetryInfo), used when it is > 0 and <= serverDelayCapMs.
//     A server delay above the cap means "do not retry": the server asks for a wait longer
//     than a caller should block on, which is how openai-python treats it too.
//     Otherwise: min(base * 2^n, maxBackoff) * (1 - jitter * random), n = retries already
//     made, random in [0, 1).

#include "core/engines/modelclient.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>

#include <optional>
#include <utility>

namespace Callscope {

using HttpHeaderList = QList<std::pair<QByteArray, QByteArray>>;

// What went wrong in one attempt, as the HTTP job saw it.
struct FailedAttempt
{
    enum class Kind {
        HttpStatus, // the server answered with an error status
        Connection, // connect failed, connection reset or closed early
        Timeout, // inactivity or total timeout
        StreamError, // an error event or a broken event inside a 2xx stream
        Unreadable, // a 2xx reply that could not be understood, a refused redirect, ...
    };

    Kind kind = Kind::Connection;
    int httpStatus = 0;
    HttpHeaderList headers; // response headers (names compared case-insensitively)
    ApiError error; // the classified error (codec's parseError for HttpStatus)
    QByteArray body; // the error body, to spot insufficient_quota
    bool contentDelivered = false; // a stream already delivered model content
};

struct RetryDecision
{
    bool retry = false;
    qint64 delayMs = 0;
    bool serverDelay = false; // the delay came from the server (header or body)
    QString reason; // short, for logs: why this decision was taken
};

class RetryPolicy
{
public:
    int maxAttempts = 3; // attempts in total, the first one included
    qint64 serverDelayCapMs = 60000;
    double baseDelaySeconds = 0.5;
    double maxBackoffSeconds = 8.0;
    double jitter = 0.25;

    // `attemptsMade` counts the failed attempt itself (1 after the first failure).
    RetryDecision decide(const FailedAttempt &failure, int attemptsMade, double random01,
                         const QDateTime &nowUtc) const;
    // Same, with QRandomGenerator::global() and the current time.
    RetryDecision decide(const FailedAttempt &failure, int attemptsMade) const;

    // The exponential backoff with jitter for the retry after `retriesDone` retries.
    qint64 backoffMs(int retriesDone, double random01) const;

    static bool isRetryableStatus(int httpStatus);
    // `x-should-retry`: true, false, or nullopt when absent or not a boolean.
    static std::optional<bool> shouldRetryHeader(const HttpHeaderList &headers);
    // The delay a server asked for in its headers, in ms (may be <= 0 or huge: the caller
    // applies the cap). nullopt when no usable header was sent.
    static std::optional<qint64> serverDelayMs(const HttpHeaderList &headers,
                                               const QDateTime &nowUtc);
    // One `Retry-After` value: delay-seconds (fractions allowed) or an HTTP-date
    // (IMF-fixdate, RFC 850 or asctime forms).
    static std::optional<qint64> parseRetryAfter(const QByteArray &value, const QDateTime &nowUtc);
    static std::optional<QDateTime> parseHttpDate(const QByteArray &value);
    static bool isQuotaExhausted(const ApiError &error, const QByteArray &body);

    static QByteArray header(const HttpHeaderList &headers, QByteArrayView name);
};

} // namespace Callscope
