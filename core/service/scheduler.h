#pragma once

// How many calls run at once, and how many requests each engine gets.
//
// Two levels:
// - Scheduler admits jobs (calls): at most globalLimit() run at once, and per engine at most
//   its own limit (settings or profile) and never more than its lane currently allows. Queued
//   jobs wait per engine and engines are served in turn, so a long batch on one engine does
//   not starve a run on another. A queued job can leave the queue at any time.
// - EngineLane (one per engine) admits HTTP requests: it is the RequestGate every HttpJob of
//   that engine asks before each attempt. It adapts to the provider: a 429, 529 or 503 lowers
//   the lane's limit to what was in flight without trouble and holds every new request until
//   the server's wait (retry-after-ms, retry-after) is over; request budgets from
//   x-ratelimit-remaining-requests / anthropic-ratelimit-requests-remaining hold new requests
//   until the budget resets; successes raise the limit again, quickly at first (slow start),
//   then one step per window, and only slowly towards the level where the provider said no.
//
// An engine is identified by engineKey(): the profile name when the spec names a profile,
// else type + base URL + model.

#include "core/engines/requestgate.h"
#include "core/model/spec.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <QObject>
#include <QSet>

#include <deque>
#include <functional>
#include <memory>
#include <optional>

class QTimer;

namespace Callscope {

QString engineKey(const EngineSpec &engine);

// What one response says about the provider's limits.
struct RateLimitSignal
{
    bool slowDown = false; // 429, 529 or 503: the provider is over its limit
    std::optional<qint64> waitMs; // retry-after-ms / retry-after
    std::optional<qint64> remainingRequests; // requests left in the current window
    std::optional<qint64> resetMs; // until that window resets
};
RateLimitSignal readRateLimit(int httpStatus, const HttpHeaderList &headers,
                              const QDateTime &nowUtc);
// "6m0s", "1s", "250ms", "1h2m3.5s", or plain seconds; nullopt when unreadable.
std::optional<qint64> parseResetDuration(const QByteArray &value);

class EngineLane final : public QObject, public RequestGate
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EngineLane)

public:
    static constexpr int InitialLimit = 8;
    static constexpr int HardCap = 1024;

    // `maxLimit` 0: no limit of its own (the scheduler's global limit bounds it).
    explicit EngineLane(const QString &key, int maxLimit = 0, QObject *parent = nullptr);
    ~EngineLane() override;

    QString key() const { return m_key; }
    void setMaxLimit(int limit);

    int limit() const { return m_limit; } // requests allowed in flight now
    int inFlight() const { return m_inFlight; }
    int waiting() const { return int(m_waiting.size()); }
    // How long new requests are held (0 when they are not).
    qint64 holdRemainingMs() const;
    int slowDowns() const { return m_slowDowns; } // 429/529/503 replies seen

    Ticket acquire(std::function<void(Ticket)> go) override;
    void release(Ticket ticket, const GateFeedback &feedback) override;

    // For tests: the lane's clock (ms, monotonic by default: a wall-clock step never holds an
    // engine), settable so adaptation is testable.
    void setClock(std::function<qint64()> nowMs) { m_now = std::move(nowMs); }

Q_SIGNALS:
    void changed();

private:
    struct Waiter
    {
        Ticket ticket;
        std::function<void(Ticket)> go;
    };

    void learn(const GateFeedback &feedback, bool wasSaturated);
    void pump();
    int cap() const { return m_maxLimit > 0 ? std::min(m_maxLimit, HardCap) : HardCap; }
    qint64 now() const { return m_now(); }

    QString m_key;
    int m_maxLimit = 0;
    int m_limit = InitialLimit;
    int m_inFlight = 0;
    std::deque<Waiter> m_waiting;
    QSet<Ticket> m_active;
    Ticket m_nextTicket = 0;

    bool m_slowStart = true;
    int m_successes = 0; // since the limit last changed
    int m_slowDowns = 0;
    int m_ceiling = 0; // the limit + 1 at the last slow-down (0 = none)
    int m_probeWindows = 1; // windows of successes before probing the ceiling
    qint64 m_lastSlowDownMs = 0;
    qint64 m_holdUntilMs = 0;
    std::optional<qint64> m_budget; // requests left before m_budgetResetMs
    qint64 m_budgetResetMs = 0;
    bool m_pumping = false;

    QTimer *m_holdTimer = nullptr;
    std::function<qint64()> m_now;
};

class Scheduler final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Scheduler)

public:
    using Slot = quint64;
    static constexpr int DefaultGlobalLimit = 4;

    explicit Scheduler(QObject *parent = nullptr);
    ~Scheduler() override;

    int globalLimit() const { return m_globalLimit; }
    void setGlobalLimit(int limit);
    // The limit of engines without one of their own (0 = the global limit only).
    int defaultEngineLimit() const { return m_defaultEngineLimit; }
    void setDefaultEngineLimit(int limit);
    // An engine's own limit (an engine profile's max_in_flight); 0 removes it.
    void setEngineLimit(const QString &key, int limit);
    int engineLimit(const QString &key) const;

    // The request gate of an engine (created on first use).
    std::shared_ptr<EngineLane> lane(const QString &key);
    std::shared_ptr<EngineLane> existingLane(const QString &key) const
    {
        return m_lanes.value(key);
    }

    // Queues a job for `key`; `start` runs from the event loop once a place is free. The slot
    // must be given back with release() when the job ends (or leaves the queue).
    Slot enqueue(const QString &key, std::function<void()> start);
    void release(Slot slot);
    bool isQueued(Slot slot) const;

    int running() const { return int(m_running.size()); }
    int queued() const;
    int running(const QString &key) const { return m_runningPerKey.value(key); }

Q_SIGNALS:
    void changed();

private:
    struct Entry
    {
        Slot slot;
        std::function<void()> start;
    };

    int engineCapacity(const QString &key) const;
    void schedulePump();
    void pump();

    int m_globalLimit = DefaultGlobalLimit;
    int m_defaultEngineLimit = 0;
    QHash<QString, int> m_engineLimits;
    QHash<QString, std::shared_ptr<EngineLane>> m_lanes;
    QHash<QString, std::deque<Entry>> m_queues;
    QList<QString> m_order; // engines in the order they are served
    int m_next = 0; // where the round-robin goes on
    QHash<Slot, QString> m_running; // slot -> key
    QHash<Slot, QString> m_queuedKey; // slot -> key, while queued
    QHash<QString, int> m_runningPerKey;
    Slot m_nextSlot = 0;
    bool m_pumpScheduled = false;
    QTimer *m_heldTimer = nullptr; // looks again when the soonest hold ends
};

} // namespace Callscope
