#pragma once

// Gemini's explicit prompt cache (cachedContents) for one piece of work: a single call, a batch
// or an experiment. Every request that asks for it (spec or profile `"cache": {"explicit":
// true, "ttl": "3600s"}`) goes through acquire(): the first request of a prefix (engine
// origin, key, model, system instruction, tools and tool config, exactly as the codec builds
// them) creates an entry (POST {root}/cachedContents with model, systemInstruction, tools,
// toolConfig and ttl); every later request of the same prefix, and those that waited for the
// create, get its name and send `cachedContent` instead of the prefix. release() deletes every
// entry (DELETE {root}/{name}) when the work ends, also when it was cancelled or failed.
//
// A create that fails (the prefix is below the model's minimum, a 4xx, no answer) is never a
// failed call: the requests of that prefix send it normally, and `notice` says so once. An
// entry close to the end of its TTL is not named any more: the next request makes a new one.
//
// Requests go to the engine's own origin with its own key, built by the engine's codec like the
// model requests (same headers, same redirect rule in HttpJob).

#include "core/engines/enginecodec.h"
#include "core/engines/httpjob.h"
#include "core/engines/modelclient.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>

#include <functional>
#include <memory>

class QNetworkAccessManager;

namespace Callscope {

// One cachedContents entry as this run used it.
struct ExplicitCacheEntry
{
    QString name; // "cachedContents/…"
    QString model;
    qint64 tokens = 0; // usageMetadata.totalTokenCount of the created entry
    qint64 ttlSeconds = 0;
    QDateTime created;
    QDateTime ended; // deleted (or the end of its TTL when it could not be deleted); null: alive
    bool deleted = false;
    QString deleteError; // why the delete failed
    int requests = 0; // requests that named it
    QSet<QString> users; // labels of the work that named it (experiment variants)

    // The seconds it was kept (to the millisecond): creation to deletion; its whole TTL when it
    // was not deleted (it lives on at the provider until then). Up to `now` while it is alive.
    double keptSeconds(const QDateTime &now = QDateTime::currentDateTimeUtc()) const;
    QJsonObject toJson() const;
};

class GeminiContentCache final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(GeminiContentCache)

public:
    explicit GeminiContentCache(QObject *parent = nullptr);
    ~GeminiContentCache() override;

    // Whether `request` on `config` asks for an explicit cache (Gemini, "explicit": true, a
    // system prompt or tools to keep, no cachedContent named yet).
    static bool wanted(const EngineConfig &config, const ChatRequest &request);
    // The entry's TTL for `cache` (its "ttl", else an hour).
    static qint64 ttlSeconds(const std::optional<CacheSpec> &cache);

    // `done` gets the name of the entry to name, or an empty string (send the prefix). It runs
    // once, from the event loop or at once for an entry that exists, never once `context` is
    // gone. `label` says whose work the request is (an experiment's variant; may be empty).
    void acquire(const EngineConfig &config, QNetworkAccessManager *nam, const ChatRequest &request,
                 const QString &label, QObject *context,
                 std::function<void(const QString &name)> done);
    // Deletes every entry; `done` runs once all creates and deletes have been answered (at
    // once when there is nothing to delete). Requests acquired after it send their prefix.
    void release(std::function<void()> done);
    bool isReleased() const { return m_released; }

    // Every entry made, in the order they were made (deleted ones included).
    QList<ExplicitCacheEntry> entries() const;
    // The fallbacks said so far (each also went out as `notice`).
    QStringList notices() const { return m_notices; }
    // For tests: how long before the end of its TTL an entry is no longer named.
    void setExpiryMarginSeconds(qint64 seconds) { m_marginSeconds = seconds; }

Q_SIGNALS:
    // A create failed: the requests of that prefix send it normally. Said once per prefix.
    void notice(const QString &text);

private:
    struct Waiter
    {
        QPointer<QObject> context;
        std::function<void(const QString &)> done;
        QString label;
    };
    struct Slot
    {
        int entry = -1; // index in m_entries of the live entry
        bool creating = false;
        bool failed = false; // the create failed: never asked again in this run
        QList<Waiter> waiters;
    };
    struct Origin
    {
        EngineConfig config;
        QPointer<QNetworkAccessManager> nam;
    };

    void create(const QByteArray &key, const EngineConfig &config, QNetworkAccessManager *nam,
                const QJsonObject &body, qint64 ttl);
    void remove(int entry);
    void answer(Slot &slot, const QString &name);
    void checkReleased();
    HttpRequestData requestFor(const EngineConfig &config, const QByteArray &method,
                               const QString &path) const;

    QHash<QByteArray, Slot> m_slots;
    QList<ExplicitCacheEntry> m_entries;
    QList<Origin> m_origins; // per entry: where it lives and the key to reach it
    QStringList m_notices;
    int m_pending = 0; // creates and deletes not answered yet
    bool m_released = false;
    QList<std::function<void()>> m_releaseDone;
    qint64 m_marginSeconds = 30;
    std::unique_ptr<EngineCodec> m_codec; // Gemini's: builds the requests, reads the errors
};

} // namespace Callscope
