#include "core/engines/retrypolicy.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

// ms from seconds, rejecting values a qint64 cannot carry (the caps apply later).
std::optional<qint64> secondsToMs(double seconds)
{
    if (!std::isfinite(seconds) || std::abs(seconds) > 1e12)
        return std::nullopt;
    return qint64(std::llround(seconds * 1000.0));
}

int monthFromName(QByteArrayView name)
{
    static constexpr const char *months[] = { "jan", "feb", "mar", "apr", "may", "jun",
                                              "jul", "aug", "sep", "oct", "nov", "dec" };
    if (name.size() != 3)
        return 0;
    const QByteArray lower = name.toByteArray().toLower();
    for (int i = 0; i < 12; ++i) {
        if (lower == months[i])
            return i + 1;
    }
    return 0;
}

std::optional<QTime> parseClock(QByteArrayView text)
{
    const QList<QByteArray> parts = text.toByteArray().split(':');
    if (parts.size() != 3)
        return std::nullopt;
    bool okH = false, okM = false, okS = false;
    const int h = parts[0].toInt(&okH), m = parts[1].toInt(&okM), s = parts[2].toInt(&okS);
    if (!okH || !okM || !okS)
        return std::nullopt;
    const QTime time(h, m, std::min(s, 59)); // a leap second reads as :59
    if (!time.isValid())
        return std::nullopt;
    return time;
}

} // namespace

QByteArray RetryPolicy::header(const HttpHeaderList &headers, QByteArrayView name)
{
    for (const auto &[key, value] : headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value.trimmed();
    }
    return {};
}

bool RetryPolicy::isRetryableStatus(int httpStatus)
{
    // 501 Not Implemented is the server saying it has no such endpoint (a wrong base URL):
    // asking again gets the same answer.
    if (httpStatus == 501)
        return false;
    return httpStatus == 408 || httpStatus == 409 || httpStatus == 429 || httpStatus >= 500;
}

std::optional<bool> RetryPolicy::shouldRetryHeader(const HttpHeaderList &headers)
{
    const QByteArray value = header(headers, "x-should-retry").toLower();
    if (value == "true")
        return true;
    if (value == "false")
        return false;
    return std::nullopt;
}

std::optional<QDateTime> RetryPolicy::parseHttpDate(const QByteArray &value)
{
    // Normalise the three historic forms into space-separated tokens:
    //   IMF-fixdate  "Sun, 06 Nov 1994 08:49:37 GMT"
    //   RFC 850      "Sunday, 06-Nov-94 08:49:37 GMT"
    //   asctime      "Sun Nov  6 08:49:37 1994"
    QByteArray text = value;
    text.replace(',', ' ');
    text.replace('-', ' ');
    const QList<QByteArray> tokens = text.simplified().split(' ');
    if (tokens.size() < 5)
        return std::nullopt;

    int day = 0, month = 0, year = 0;
    std::optional<QTime> time;
    bool ok = false;
    if (monthFromName(tokens[1]) != 0) { // asctime
        month = monthFromName(tokens[1]);
        day = tokens[2].toInt(&ok);
        if (!ok)
            return std::nullopt;
        time = parseClock(tokens[3]);
        year = tokens[4].toInt(&ok);
        if (!ok)
            return std::nullopt;
    } else {
        day = tokens[1].toInt(&ok);
        if (!ok)
            return std::nullopt;
        month = monthFromName(tokens[2]);
        const QByteArray yearText = tokens[3];
        year = yearText.toInt(&ok);
        if (!ok)
            return std::nullopt;
        if (yearText.size() == 2) // RFC 850 two-digit year
            year += year < 70 ? 2000 : 1900;
        time = parseClock(tokens[4]);
        if (tokens.size() > 5) {
            const QByteArray zone = tokens[5].toUpper();
            if (zone != "GMT" && zone != "UTC" && zone != "Z")
                return std::nullopt;
        }
    }
    if (month == 0 || !time)
        return std::nullopt;
    const QDate date(year, month, day);
    if (!date.isValid())
        return std::nullopt;
    return QDateTime(date, *time, Qt::UTC);
}

std::optional<qint64> RetryPolicy::parseRetryAfter(const QByteArray &value, const QDateTime &nowUtc)
{
    const QByteArray trimmed = value.trimmed();
    if (trimmed.isEmpty())
        return std::nullopt;
    bool ok = false;
    const double seconds = trimmed.toDouble(&ok);
    if (ok)
        return secondsToMs(seconds);
    if (const auto date = parseHttpDate(trimmed))
        return nowUtc.msecsTo(*date);
    return std::nullopt;
}

std::optional<qint64> RetryPolicy::serverDelayMs(const HttpHeaderList &headers,
                                                 const QDateTime &nowUtc)
{
    const QByteArray ms = header(headers, "retry-after-ms");
    if (!ms.isEmpty()) {
        bool ok = false;
        const double value = ms.toDouble(&ok);
        if (ok && std::isfinite(value) && std::abs(value) < 1e15)
            return qint64(std::llround(value));
    }
    const QByteArray after = header(headers, "retry-after");
    if (!after.isEmpty())
        return parseRetryAfter(after, nowUtc);
    return std::nullopt;
}

bool RetryPolicy::isQuotaExhausted(const ApiError &error, const QByteArray &body)
{
    static const QString quota = u"insufficient_quota"_s;
    if (error.providerType == quota)
        return true;
    const QJsonObject root = QJsonDocument::fromJson(body).object();
    const QJsonObject inner = root.value("error"_L1).toObject();
    return inner.value("code"_L1).toString() == quota || inner.value("type"_L1).toString() == quota;
}

qint64 RetryPolicy::backoffMs(int retriesDone, double random01) const
{
    const double exponent = std::min(std::max(retriesDone, 0), 30);
    const double seconds = std::min(baseDelaySeconds * std::pow(2.0, exponent), maxBackoffSeconds);
    const double factor = 1.0 - jitter * std::clamp(random01, 0.0, 1.0);
    return qint64(std::llround(seconds * factor * 1000.0));
}

RetryDecision RetryPolicy::decide(const FailedAttempt &failure, int attemptsMade, double random01,
                                  const QDateTime &nowUtc) const
{
    RetryDecision decision;
    if (failure.contentDelivered) {
        decision.reason = u"the stream already delivered content"_s;
        return decision;
    }
    if (attemptsMade >= maxAttempts) {
        decision.reason = u"all %1 attempts used"_s.arg(maxAttempts);
        return decision;
    }

    bool retryable = false;
    switch (failure.kind) {
    case FailedAttempt::Kind::Connection:
    case FailedAttempt::Kind::Timeout:
        retryable = true;
        decision.reason =
            failure.kind == FailedAttempt::Kind::Timeout ? u"timeout"_s : u"connection error"_s;
        break;
    case FailedAttempt::Kind::StreamError:
        retryable = failure.error.transient;
        decision.reason = retryable ? u"transient stream error"_s : u"stream error"_s;
        break;
    case FailedAttempt::Kind::Unreadable:
        decision.reason = u"unreadable reply"_s;
        break;
    case FailedAttempt::Kind::HttpStatus: {
        const std::optional<bool> header = shouldRetryHeader(failure.headers);
        if (header) {
            retryable = *header;
            decision.reason = *header ? u"x-should-retry: true"_s : u"x-should-retry: false"_s;
        } else if (failure.httpStatus == 429 && isQuotaExhausted(failure.error, failure.body)) {
            decision.reason = u"insufficient_quota"_s;
        } else {
            retryable = isRetryableStatus(failure.httpStatus);
            decision.reason = u"HTTP %1"_s.arg(failure.httpStatus);
        }
        break;
    }
    }
    if (!retryable)
        return decision;

    std::optional<qint64> server;
    if (failure.kind == FailedAttempt::Kind::HttpStatus)
        server = serverDelayMs(failure.headers, nowUtc);
    if (!server && failure.error.retryAfterMs)
        server = failure.error.retryAfterMs;
    if (server && *server > serverDelayCapMs) {
        decision.reason +=
            u"; server asks to wait %1 ms, over the %2 ms cap: not retried"_s.arg(*server).arg(
                serverDelayCapMs);
        return decision;
    }
    decision.retry = true;
    if (server && *server > 0) {
        decision.delayMs = *server;
        decision.serverDelay = true;
    } else {
        decision.delayMs = backoffMs(attemptsMade - 1, random01);
    }
    return decision;
}

RetryDecision RetryPolicy::decide(const FailedAttempt &failure, int attemptsMade) const
{
    return decide(failure, attemptsMade, QRandomGenerator::global()->generateDouble(),
                  QDateTime::currentDateTimeUtc());
}

} // namespace Callscope
