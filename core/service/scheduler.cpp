#include "core/service/scheduler.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QLoggingCategory>
#include <QTimer>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

Q_LOGGING_CATEGORY(lcScheduler, "callscope.scheduler")

namespace Callscope {

namespace {

// A slow-down with no wait of the server's holds new requests this long.
constexpr qint64 kDefaultSlowDownHoldMs = 1000;
// A wait longer than this is not believed (a broken header must not stop an engine for days).
constexpr qint64 kMaxHoldMs = 10 * 60 * 1000;
// After this long without a slow-down the lane forgets where the provider said no.
constexpr qint64 kCeilingMemoryMs = 60 * 1000;
constexpr int kMaxProbeWindows = 64;

std::optional<qint64> headerNumber(const HttpHeaderList &headers, QByteArrayView name)
{
    const QByteArray value = RetryPolicy::header(headers, name).trimmed();
    if (value.isEmpty())
        return std::nullopt;
    bool ok = false;
    const qint64 n = value.toLongLong(&ok);
    return ok && n >= 0 ? std::optional<qint64>(n) : std::nullopt;
}

} // namespace

QString engineKey(const EngineSpec &engine)
{
    if (!engine.profile.isEmpty())
        return u"profile:"_s + engine.profile;
    if (engine.type == EngineType::Replay)
        return u"replay"_s;
    QString base = engine.baseUrl;
    while (base.endsWith(u'/'))
        base.chop(1);
    return engineTypeName(engine.type) + u'|' + base + u'|' + engine.model;
}

std::optional<qint64> parseResetDuration(const QByteArray &raw)
{
    const QByteArray value = raw.trimmed();
    if (value.isEmpty())
        return std::nullopt;
    bool ok = false;
    const double plain = value.toDouble(&ok);
    if (ok)
        return plain >= 0 ? std::optional<qint64>(qint64(std::ceil(plain * 1000))) : std::nullopt;
    // Go-style durations: 1h2m3.5s, 6m0s, 250ms.
    double total = 0;
    qsizetype i = 0;
    bool any = false;
    while (i < value.size()) {
        const qsizetype start = i;
        while (i < value.size() && (std::isdigit(uchar(value[i])) || value[i] == '.'))
            ++i;
        if (i == start)
            return std::nullopt;
        const double number = value.mid(start, i - start).toDouble(&ok);
        if (!ok)
            return std::nullopt;
        const qsizetype unitStart = i;
        while (i < value.size() && std::isalpha(uchar(value[i])))
            ++i;
        const QByteArray unit = value.mid(unitStart, i - unitStart);
        double factor = 0;
        if (unit == "h")
            factor = 3600000;
        else if (unit == "m")
            factor = 60000;
        else if (unit == "s")
            factor = 1000;
        else if (unit == "ms")
            factor = 1;
        else
            return std::nullopt;
        total += number * factor;
        any = true;
    }
    if (!any)
        return std::nullopt;
    return qint64(std::ceil(total));
}

RateLimitSignal readRateLimit(int httpStatus, const HttpHeaderList &headers,
                              const QDateTime &nowUtc)
{
    RateLimitSignal signal;
    signal.slowDown = httpStatus == 429 || httpStatus == 529 || httpStatus == 503;
    if (const auto wait = RetryPolicy::serverDelayMs(headers, nowUtc); wait && *wait >= 0)
        signal.waitMs = *wait;

    if (auto remaining = headerNumber(headers, "x-ratelimit-remaining-requests")) {
        signal.remainingRequests = remaining;
        signal.resetMs =
            parseResetDuration(RetryPolicy::header(headers, "x-ratelimit-reset-requests"));
    } else if (auto left = headerNumber(headers, "anthropic-ratelimit-requests-remaining")) {
        signal.remainingRequests = left;
        const QByteArray reset =
            RetryPolicy::header(headers, "anthropic-ratelimit-requests-reset").trimmed();
        const QDateTime at = QDateTime::fromString(QString::fromLatin1(reset), Qt::ISODateWithMs);
        if (at.isValid())
            signal.resetMs = std::max<qint64>(0, nowUtc.msecsTo(at));
    }
    return signal;
}

// ---------------------------------------------------------------------------------------------
// EngineLane

EngineLane::EngineLane(const QString &key, int maxLimit, QObject *parent)
    : QObject(parent)
    , m_key(key)
    , m_maxLimit(std::max(0, maxLimit))
    , m_holdTimer(new QTimer(this))
    , m_now([] {
        static QElapsedTimer clock = [] {
            QElapsedTimer t;
            t.start();
            return t;
        }();
        return clock.elapsed();
    })
{
    m_limit = std::min(InitialLimit, cap());
    m_holdTimer->setSingleShot(true);
    m_holdTimer->setTimerType(Qt::PreciseTimer);
    connect(m_holdTimer, &QTimer::timeout, this, [this] {
        pump();
        Q_EMIT changed();
    });
}

EngineLane::~EngineLane() = default;

void EngineLane::setMaxLimit(int limit)
{
    m_maxLimit = std::max(0, limit);
    m_limit = std::min(m_limit, cap());
    if (m_maxLimit > 0 && m_slowStart)
        m_limit = std::min(std::max(m_limit, std::min(InitialLimit, cap())), cap());
    pump();
    Q_EMIT changed();
}

qint64 EngineLane::holdRemainingMs() const
{
    const qint64 t = now();
    qint64 until = m_holdUntilMs;
    if (m_budget && *m_budget <= 0 && m_budgetResetMs > t)
        until = std::max(until, m_budgetResetMs);
    return std::max<qint64>(0, until - t);
}

RequestGate::Ticket EngineLane::acquire(std::function<void(Ticket)> go)
{
    const Ticket ticket = ++m_nextTicket;
    m_waiting.push_back({ ticket, std::move(go) });
    pump();
    Q_EMIT changed();
    return ticket;
}

void EngineLane::release(Ticket ticket, const GateFeedback &feedback)
{
    const auto waiting = std::find_if(m_waiting.begin(), m_waiting.end(),
                                      [ticket](const Waiter &w) { return w.ticket == ticket; });
    if (waiting != m_waiting.end()) {
        m_waiting.erase(waiting);
        Q_EMIT changed();
        return;
    }
    if (!m_active.remove(ticket))
        return;
    const bool wasSaturated = m_inFlight >= m_limit || !m_waiting.empty();
    --m_inFlight;
    if (!feedback.withdrawn)
        learn(feedback, wasSaturated);
    pump();
    Q_EMIT changed();
}

void EngineLane::learn(const GateFeedback &feedback, bool wasSaturated)
{
    const qint64 t = now();
    // Dates in headers are wall-clock; what they mean is turned into a wait from now.
    const RateLimitSignal signal =
        readRateLimit(feedback.httpStatus, feedback.headers, QDateTime::currentDateTimeUtc());

    if (signal.remainingRequests) {
        m_budget = *signal.remainingRequests;
        m_budgetResetMs = t + std::min(signal.resetMs.value_or(kDefaultSlowDownHoldMs), kMaxHoldMs);
    }

    if (signal.slowDown) {
        ++m_slowDowns;
        // What was still in flight went through: that is about what the provider takes now.
        const int others = m_inFlight;
        const int before = m_limit;
        m_limit = std::max(1, std::min(m_limit - 1, others));
        // Replies refused together (a burst sent before the first refusal came back) are one
        // episode; a new episode at the same level makes the next probe wait twice as long.
        const bool sameEpisode = m_ceiling > 0 && t < m_holdUntilMs;
        if (!sameEpisode) {
            if (m_ceiling > 0 && t - m_lastSlowDownMs < kCeilingMemoryMs)
                m_probeWindows = std::min(kMaxProbeWindows, m_probeWindows * 2);
            else
                m_probeWindows = 8;
        }
        m_ceiling = m_limit + 1;
        m_lastSlowDownMs = t;
        m_slowStart = false;
        m_successes = 0;
        const qint64 wait = std::min(signal.waitMs.value_or(kDefaultSlowDownHoldMs), kMaxHoldMs);
        m_holdUntilMs = std::max(m_holdUntilMs, t + wait);
        qCInfo(lcScheduler).noquote()
            << m_key << "slow down (HTTP" << feedback.httpStatus << "): limit" << before << "->"
            << m_limit << ", new requests held" << wait << "ms";
        return;
    }
    if (feedback.httpStatus < 200 || feedback.httpStatus >= 300)
        return;
    if (m_ceiling > 0 && t - m_lastSlowDownMs >= kCeilingMemoryMs) {
        m_ceiling = 0;
        m_probeWindows = 1;
    }
    // Only a limit that held requests back is raised: an idle lane keeps its limit.
    if (!wasSaturated || m_limit >= cap())
        return;
    ++m_successes;
    if (m_slowStart) {
        ++m_limit; // one per success: doubles every window
        m_successes = 0;
        return;
    }
    const bool towardsCeiling = m_ceiling > 0 && m_limit + 1 >= m_ceiling;
    const int needed = m_limit * (towardsCeiling ? m_probeWindows : 1);
    if (m_successes >= needed) {
        ++m_limit;
        m_successes = 0;
    }
}

void EngineLane::pump()
{
    if (m_pumping)
        return;
    m_pumping = true;
    while (!m_waiting.empty() && m_inFlight < m_limit) {
        const qint64 t = now();
        if (m_budget && t >= m_budgetResetMs)
            m_budget.reset();
        const qint64 hold = holdRemainingMs();
        if (hold > 0) {
            m_holdTimer->start(int(std::min<qint64>(hold, kMaxHoldMs)) + 1);
            break;
        }
        Waiter next = std::move(m_waiting.front());
        m_waiting.pop_front();
        ++m_inFlight;
        m_active.insert(next.ticket);
        if (m_budget)
            --*m_budget;
        next.go(next.ticket);
    }
    m_pumping = false;
}

// ---------------------------------------------------------------------------------------------
// Scheduler

Scheduler::Scheduler(QObject *parent)
    : QObject(parent)
    , m_heldTimer(new QTimer(this))
{
    m_heldTimer->setSingleShot(true);
    connect(m_heldTimer, &QTimer::timeout, this, &Scheduler::schedulePump);
}

Scheduler::~Scheduler()
{
    for (const auto &lane : std::as_const(m_lanes))
        lane->disconnect(this);
}

void Scheduler::setGlobalLimit(int limit)
{
    m_globalLimit = std::max(1, limit);
    schedulePump();
}

void Scheduler::setDefaultEngineLimit(int limit)
{
    m_defaultEngineLimit = std::max(0, limit);
    for (auto it = m_lanes.cbegin(); it != m_lanes.cend(); ++it)
        it.value()->setMaxLimit(engineLimit(it.key()));
    schedulePump();
}

void Scheduler::setEngineLimit(const QString &key, int limit)
{
    if (limit > 0)
        m_engineLimits.insert(key, limit);
    else
        m_engineLimits.remove(key);
    if (auto lane = m_lanes.value(key))
        lane->setMaxLimit(engineLimit(key));
    schedulePump();
}

int Scheduler::engineLimit(const QString &key) const
{
    return m_engineLimits.value(key, m_defaultEngineLimit);
}

std::shared_ptr<EngineLane> Scheduler::lane(const QString &key)
{
    if (auto existing = m_lanes.value(key))
        return existing;
    // No parent: jobs hold their lane by shared_ptr and may outlive the scheduler.
    auto lane = std::make_shared<EngineLane>(key, engineLimit(key));
    connect(lane.get(), &EngineLane::changed, this, &Scheduler::schedulePump);
    m_lanes.insert(key, lane);
    return lane;
}

Scheduler::Slot Scheduler::enqueue(const QString &key, std::function<void()> start)
{
    const Slot slot = ++m_nextSlot;
    if (!m_queues.contains(key))
        m_order.append(key);
    m_queues[key].push_back({ slot, std::move(start) });
    m_queuedKey.insert(slot, key);
    schedulePump();
    Q_EMIT changed();
    return slot;
}

void Scheduler::release(Slot slot)
{
    if (const auto key = m_queuedKey.take(slot); !key.isEmpty()) {
        auto &queue = m_queues[key];
        queue.erase(std::remove_if(queue.begin(), queue.end(),
                                   [slot](const Entry &e) { return e.slot == slot; }),
                    queue.end());
        Q_EMIT changed();
        return;
    }
    const QString key = m_running.take(slot);
    if (key.isNull())
        return;
    if (--m_runningPerKey[key] <= 0)
        m_runningPerKey.remove(key);
    schedulePump();
    Q_EMIT changed();
}

bool Scheduler::isQueued(Slot slot) const
{
    return m_queuedKey.contains(slot);
}

int Scheduler::queued() const
{
    return int(m_queuedKey.size());
}

int Scheduler::engineCapacity(const QString &key) const
{
    int capacity = engineLimit(key);
    if (capacity <= 0)
        capacity = m_globalLimit;
    if (const auto lane = m_lanes.value(key)) {
        if (lane->holdRemainingMs() > 0)
            return 0;
        // Jobs also spend time between requests (tools, validation): one more job than the
        // lane lets through keeps the lane busy without piling requests up at its gate.
        capacity = std::min(capacity, lane->limit() + 1);
    }
    return capacity;
}

void Scheduler::schedulePump()
{
    if (m_pumpScheduled)
        return;
    m_pumpScheduled = true;
    QTimer::singleShot(0, this, [this] {
        m_pumpScheduled = false;
        pump();
    });
}

void Scheduler::pump()
{
    bool admitted = true;
    bool anyHeld = false;
    while (admitted && running() < m_globalLimit && !m_queuedKey.isEmpty()) {
        admitted = false;
        // One job per engine per round: engines take turns.
        const int base = m_next;
        for (int i = 0; i < m_order.size() && running() < m_globalLimit; ++i) {
            const int index = (base + i) % int(m_order.size());
            const QString key = m_order.at(index);
            auto &queue = m_queues[key];
            if (queue.empty())
                continue;
            if (m_runningPerKey.value(key) >= engineCapacity(key)) {
                if (const auto lane = m_lanes.value(key); lane && lane->holdRemainingMs() > 0)
                    anyHeld = true;
                continue;
            }
            Entry entry = std::move(queue.front());
            queue.pop_front();
            m_queuedKey.remove(entry.slot);
            m_running.insert(entry.slot, key);
            ++m_runningPerKey[key];
            m_next = (index + 1) % int(m_order.size());
            admitted = true;
            entry.start();
        }
    }
    // Forget engines with nothing queued, so m_order stays short.
    for (int i = int(m_order.size()) - 1; i >= 0; --i) {
        const QString &key = m_order.at(i);
        const auto queue = m_queues.constFind(key);
        if (queue == m_queues.cend() || queue->empty()) {
            m_queues.remove(key);
            m_order.removeAt(i);
            if (m_next > i)
                --m_next;
        }
    }
    if (m_order.isEmpty())
        m_next = 0;
    else
        m_next %= int(m_order.size());
    if (anyHeld) {
        // A held lane frees itself by time, not by an event: look again when its hold ends.
        qint64 soonest = 0;
        for (const auto &lane : std::as_const(m_lanes)) {
            const qint64 hold = lane->holdRemainingMs();
            if (hold > 0 && (soonest == 0 || hold < soonest))
                soonest = hold;
        }
        if (soonest > 0 && (!m_heldTimer->isActive() || m_heldTimer->remainingTime() > soonest + 1))
            m_heldTimer->start(int(std::min<qint64>(soonest, kMaxHoldMs)) + 1);
    }
    Q_EMIT changed();
}

} // namespace Callscope
