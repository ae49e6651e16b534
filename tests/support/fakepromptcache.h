#pragma once

// The prompt caches of the providers, simulated for tests as each provider documents them,
// so a fake provider can report the usage the real one would:
// - Anthropic: prefixes are cached only at cache_control breakpoints (on tools, system blocks,
//   message blocks, or the top-level automatic one), for 5 minutes or an hour, and only when
//   the prefix reaches the model's minimum; a request reads the longest cached prefix ending
//   at a block boundary at most 20 blocks before one of its breakpoints, and writes the rest up
//   to its last breakpoint. input_tokens leaves reads and writes out.
// - OpenAI: prompts of 1,024 tokens or more are cached on their own; a hit is the common prefix
//   with an earlier prompt of the same prompt_cache_key, from 1,024 tokens on in steps of 128;
//   cached_tokens is part of prompt_tokens / input_tokens.
// - Gemini: implicit caching of the common prefix from the model's minimum on;
//   cachedContentTokenCount is part of promptTokenCount. An explicit cachedContents entry
//   (created, used by name, deleted) is counted whole.
// Tokens are counted as one per 4 bytes of each block's compact JSON (rounded up). Time is a
// clock the test moves (advance()), so expiry is tested without waiting.

#include "tests/support/fakeprovider.h"

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <functional>
#include <memory>
#include <mutex>

namespace Callscope::Test {

struct FakeCacheUsage
{
    qint64 uncached = 0; // prompt tokens neither read nor written
    qint64 read = 0;
    qint64 written5m = 0;
    qint64 written1h = 0;
    qint64 prompt() const { return uncached + read + written5m + written1h; }
};

class FakePromptCache
{
public:
    enum class Provider { Anthropic, OpenAIChat, OpenAIResponses, Gemini };

    explicit FakePromptCache(Provider provider, qint64 minimumTokens = 1024);

    // What a request with this body reads and writes; the cache is updated as the provider's
    // would be.
    FakeCacheUsage use(const QJsonObject &body);
    // The usage object of the provider's reply for `usage` and `outputTokens`.
    QJsonObject usageJson(const FakeCacheUsage &usage, qint64 outputTokens) const;

    // Gemini explicit caching: a cachedContents entry for the body's systemInstruction and
    // tools; returns its name. remove() deletes it (false when there is none of that name).
    QString create(const QJsonObject &body, qint64 ttlSeconds);
    // The same through Gemini's REST shape (POST /v1beta/cachedContents): `body` is a
    // CachedContent (model "models/…", systemInstruction, tools, toolConfig, contents, ttl
    // "<n>s"); the answer is the created resource (name, model, createTime, expireTime,
    // usageMetadata.totalTokenCount). Empty with `error` set when Gemini would refuse it (a
    // field it does not know, a missing model, a bad ttl, less than the model's minimum).
    QJsonObject createResource(const QJsonObject &body, QString *error);
    bool hasEntry(const QString &name) const;
    bool remove(const QString &name);
    int explicitEntries() const { return int(m_explicit.size()); }
    int explicitCreated() const { return m_explicitCreated; }

    void advance(qint64 ms) { m_now += ms; }
    Provider provider() const { return m_provider; }
    static qint64 tokens(const QByteArray &bytes) { return (bytes.size() + 3) / 4; }

private:
    struct Block
    {
        QByteArray text; // compact JSON without any cache_control
        qint64 tokens = 0;
        bool breakpoint = false;
        QString ttl; // of the breakpoint: "5m" or "1h"
    };
    QList<Block> anthropicBlocks(const QJsonObject &body) const;
    FakeCacheUsage useAnthropic(const QJsonObject &body);
    FakeCacheUsage usePrefix(const QJsonObject &body);

    struct Entry
    {
        qint64 expires = 0;
        qint64 ttl = 0;
    };
    struct Prompt
    {
        QByteArray text;
        qint64 expires = 0;
    };
    Provider m_provider;
    qint64 m_minimum;
    qint64 m_now = 0;
    QHash<QByteArray, Entry> m_prefixes; // Anthropic: prefix hash -> entry
    QHash<QString, QList<Prompt>> m_prompts; // OpenAI / Gemini: routing key -> prompts
    struct Explicit
    {
        qint64 tokens = 0;
        qint64 expires = 0;
    };
    QHash<QString, Explicit> m_explicit;
    int m_explicitCreated = 0;
};

// The tool call a caching responder answers a request with: a name and its arguments.
using FakeToolChoice = std::function<std::pair<QString, QJsonObject>(const QJsonObject &body)>;

// What a caching responder saw: each request's cache usage, in the order they came.
struct FakeCacheLog
{
    std::mutex mutex;
    QList<FakeCacheUsage> usages;
    // Gemini's explicit cache endpoints (withGeminiCacheEndpoints): every create body, every
    // path deleted, and the requests refused.
    QList<QJsonObject> creates;
    QList<QByteArray> deletes;
    QList<QByteArray> createKeys; // x-goog-api-key of each create and delete
    QStringList refused;
    QList<FakeCacheUsage> snapshot()
    {
        std::lock_guard lock(mutex);
        return usages;
    }
};

// A responder that answers every model request of `cache`'s provider with the tool call
// `choose` picks, in that provider's reply shape (not streamed), with the usage the cache
// gives it and `outputTokens` output tokens.
FakeProvider::Responder cachingResponder(std::shared_ptr<FakePromptCache> cache,
                                         FakeToolChoice choose, std::shared_ptr<FakeCacheLog> log,
                                         qint64 outputTokens = 40);

// Gemini's explicit cache over REST in front of `next`: POST {root}/cachedContents creates an
// entry in `cache` (400 INVALID_ARGUMENT for what Gemini refuses), DELETE {root}/cachedContents/ID
// removes it (404 when there is none), and a generateContent request that names a
// cachedContent is refused when it sends systemInstruction, tools or toolConfig too (400) or
// names an entry that does not exist (404), as Gemini documents. Everything else goes to `next`.
FakeProvider::Responder withGeminiCacheEndpoints(std::shared_ptr<FakePromptCache> cache,
                                                 std::shared_ptr<FakeCacheLog> log,
                                                 FakeProvider::Responder next);

} // namespace Callscope::Test
