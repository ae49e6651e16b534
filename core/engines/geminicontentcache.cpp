#include "core/engines/geminicontentcache.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QTimer>

#include <limits>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(GeminiContentCache)
};

QByteArray compact(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QString modelName(const QString &model)
{
    return model.startsWith(u"models/"_s) ? model : u"models/"_s + model;
}

} // namespace

double ExplicitCacheEntry::keptSeconds(const QDateTime &now) const
{
    if (!created.isValid())
        return 0;
    const QDateTime end = ended.isValid() ? ended : now;
    const qint64 ms =
        std::clamp<qint64>(created.msecsTo(end), 0,
                           ttlSeconds > 0 ? ttlSeconds * 1000 : std::numeric_limits<qint64>::max());
    return double(ms) / 1000.0;
}

QJsonObject ExplicitCacheEntry::toJson() const
{
    QJsonArray usedBy;
    QStringList sorted(users.begin(), users.end());
    sorted.sort();
    for (const QString &u : sorted)
        usedBy.append(u);
    QJsonObject out { { u"name"_s, name },
                      { u"model"_s, model },
                      { u"tokens"_s, tokens },
                      { u"ttl_seconds"_s, ttlSeconds },
                      { u"kept_seconds"_s, keptSeconds() },
                      { u"requests"_s, requests },
                      { u"deleted"_s, deleted } };
    if (!deleteError.isEmpty())
        out.insert(u"delete_error"_s, deleteError);
    if (!usedBy.isEmpty())
        out.insert(u"used_by"_s, usedBy);
    return out;
}

GeminiContentCache::GeminiContentCache(QObject *parent)
    : QObject(parent)
    , m_codec(createEngineCodec(EngineType::Gemini))
{ }

GeminiContentCache::~GeminiContentCache()
{
    // The jobs read the codec: they go first.
    qDeleteAll(findChildren<HttpJob *>(QString(), Qt::FindDirectChildrenOnly));
}

bool GeminiContentCache::wanted(const EngineConfig &config, const ChatRequest &request)
{
    return config.type == EngineType::Gemini && request.cache && request.cache->explicitCache
        && request.cachedContent.isEmpty()
        && (!request.system.isEmpty() || !request.tools.isEmpty());
}

qint64 GeminiContentCache::ttlSeconds(const std::optional<CacheSpec> &cache)
{
    if (cache) {
        if (const auto seconds = cacheTtlSeconds(cache->ttl); seconds && *seconds > 0)
            return *seconds;
    }
    return 3600;
}

HttpRequestData GeminiContentCache::requestFor(const EngineConfig &config, const QByteArray &method,
                                               const QString &path) const
{
    // The codec's request carries the key the way a model request does; the API root is its
    // URL up to the version ("/v1beta"), so the entry lives where the calls go.
    ChatRequest probe;
    probe.messages = { Message::user(u"x"_s) };
    probe.stream = false;
    HttpRequestData request = m_codec->buildRequest(probe, config);
    QUrl url = request.url.adjusted(QUrl::RemoveQuery | QUrl::RemoveFragment);
    QString root = url.path();
    if (const qsizetype at = root.lastIndexOf(u"/models/"_s); at >= 0)
        root = root.first(at);
    url.setPath(root + u'/' + path);
    request.url = url;
    request.body = {};
    request.stream = false;
    request.method = method;
    request.wholeReply = true;
    if (method != "POST") {
        request.headers.removeIf([](const std::pair<QByteArray, QByteArray> &h) {
            return h.first.compare("content-type", Qt::CaseInsensitive) == 0;
        });
    }
    return request;
}

void GeminiContentCache::acquire(const EngineConfig &config, QNetworkAccessManager *nam,
                                 const ChatRequest &request, const QString &label, QObject *context,
                                 std::function<void(const QString &)> done)
{
    QPointer<QObject> guard(context);
    auto later = [guard, done](const QString &name) {
        QTimer::singleShot(0, guard.data(), [guard, done, name] {
            if (guard)
                done(name);
        });
    };
    if (m_released || !wanted(config, request) || !nam) {
        later(QString());
        return;
    }
    // The prefix exactly as the codec sends it.
    ChatRequest plain = request;
    plain.stream = false;
    plain.cachedContent.clear();
    const QJsonObject built = m_codec->buildRequest(plain, config).body;
    QJsonObject body { { u"model"_s, modelName(config.model) } };
    for (const QString &field : { u"systemInstruction"_s, u"tools"_s, u"toolConfig"_s }) {
        if (built.contains(field))
            body.insert(field, built.value(field));
    }
    const QUrl origin = config.baseUrl;
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(origin.adjusted(QUrl::RemovePath | QUrl::RemoveQuery).toString().toUtf8());
    hash.addData("\n");
    hash.addData(QCryptographicHash::hash(config.apiKey.toUtf8(), QCryptographicHash::Sha256));
    hash.addData(compact(body));
    const QByteArray key = hash.result();
    const qint64 ttl = ttlSeconds(request.cache);

    Slot &slot = m_slots[key];
    if (slot.failed) {
        later(QString());
        return;
    }
    if (slot.entry >= 0) {
        ExplicitCacheEntry &entry = m_entries[slot.entry];
        const QDateTime now = QDateTime::currentDateTimeUtc();
        if (entry.created.addSecs(entry.ttlSeconds - m_marginSeconds) > now) {
            ++entry.requests;
            if (!label.isEmpty())
                entry.users.insert(label);
            later(entry.name);
            return;
        }
        // About to expire: it ends by itself (counted for its whole TTL); a new one is made.
        entry.ended = entry.created.addSecs(entry.ttlSeconds);
        slot.entry = -1;
    }
    slot.waiters.append({ guard, std::move(done), label });
    if (slot.creating)
        return;
    slot.creating = true;
    body.insert(u"ttl"_s, QString(QString::number(ttl) + u's'));
    create(key, config, nam, body, ttl);
}

void GeminiContentCache::create(const QByteArray &key, const EngineConfig &config,
                                QNetworkAccessManager *nam, const QJsonObject &body, qint64 ttl)
{
    HttpRequestData request = requestFor(config, "POST", u"cachedContents"_s);
    request.body = body;
    HttpJobSettings settings;
    settings.applyTimeouts(config.timeoutMs, config.idleTimeoutMs);
    settings.retry.maxAttempts = 2;
    auto *job = new HttpJob(nam, m_codec.get(), request, settings, this);
    ++m_pending;
    QPointer<QNetworkAccessManager> network(nam);
    connect(job, &HttpJob::finished, this, [this, job, key, config, network, ttl] {
        const HttpJobResult &result = job->result();
        job->deleteLater();
        --m_pending;
        Slot &slot = m_slots[key];
        slot.creating = false;
        const QJsonObject reply = QJsonDocument::fromJson(result.rawResponse).object();
        const QString name = reply.value(u"name"_s).toString();
        if (!result.reply || name.isEmpty()) {
            slot.failed = true;
            const QString why = !result.reply ? result.error.toString()
                                              : Tr::tr("the answer names no cached content");
            const QString text =
                Tr::tr("Gemini's explicit cache for %1 could not be created (%2); the calls "
                       "send the system prompt and tools themselves")
                    .arg(config.model, why);
            m_notices.append(text);
            Q_EMIT notice(text);
            answer(slot, QString());
            checkReleased();
            return;
        }
        ExplicitCacheEntry entry;
        entry.name = name;
        entry.model = config.model;
        entry.tokens =
            reply.value(u"usageMetadata"_s).toObject().value(u"totalTokenCount"_s).toInteger();
        entry.ttlSeconds = ttl;
        entry.created = QDateTime::currentDateTimeUtc();
        m_entries.append(entry);
        m_origins.append(Origin { config, network });
        const int index = int(m_entries.size()) - 1;
        if (m_released) {
            // The work ended while it was made: nobody names it, it goes at once.
            answer(slot, QString());
            remove(index);
            return;
        }
        slot.entry = index;
        answer(slot, name);
        checkReleased();
    });
    job->start();
}

void GeminiContentCache::answer(Slot &slot, const QString &name)
{
    const QList<Waiter> waiters = std::exchange(slot.waiters, {});
    for (const Waiter &w : waiters) {
        if (!name.isEmpty() && slot.entry >= 0) {
            ExplicitCacheEntry &entry = m_entries[slot.entry];
            ++entry.requests;
            if (!w.label.isEmpty())
                entry.users.insert(w.label);
        }
        if (w.context)
            QTimer::singleShot(0, w.context.data(), [ctx = w.context, done = w.done, name] {
                if (ctx)
                    done(name);
            });
    }
}

void GeminiContentCache::remove(int index)
{
    ExplicitCacheEntry &entry = m_entries[index];
    const Origin &origin = m_origins.at(index);
    if (entry.deleted || !entry.deleteError.isEmpty())
        return;
    if (!origin.nam) {
        entry.deleteError = Tr::tr("no network access");
        entry.ended = entry.created.addSecs(entry.ttlSeconds);
        return;
    }
    HttpRequestData request = requestFor(origin.config, "DELETE", entry.name);
    HttpJobSettings settings;
    settings.applyTimeouts(origin.config.timeoutMs, origin.config.idleTimeoutMs);
    settings.retry.maxAttempts = 3;
    auto *job = new HttpJob(origin.nam.data(), m_codec.get(), request, settings, this);
    ++m_pending;
    connect(job, &HttpJob::finished, this, [this, job, index] {
        const HttpJobResult &result = job->result();
        job->deleteLater();
        --m_pending;
        ExplicitCacheEntry &entry = m_entries[index];
        // Gone already (404) is as good as deleted: it costs nothing any more.
        if (result.reply || result.httpStatus == 404) {
            entry.deleted = true;
            entry.ended = QDateTime::currentDateTimeUtc();
        } else {
            entry.deleteError = result.error.toString();
            entry.ended = entry.created.addSecs(entry.ttlSeconds);
            const QString text = Tr::tr("Gemini's explicit cache %1 could not be deleted (%2); "
                                        "it ends by itself after its TTL")
                                     .arg(entry.name, entry.deleteError);
            m_notices.append(text);
            Q_EMIT notice(text);
        }
        checkReleased();
    });
    job->start();
}

void GeminiContentCache::release(std::function<void()> done)
{
    if (done)
        m_releaseDone.append(std::move(done));
    if (!m_released) {
        m_released = true;
        for (auto it = m_slots.begin(); it != m_slots.end(); ++it) {
            it->entry = -1;
            answer(it.value(), QString());
        }
        for (int i = 0; i < m_entries.size(); ++i)
            remove(i);
    }
    QTimer::singleShot(0, this, [this] { checkReleased(); });
}

void GeminiContentCache::checkReleased()
{
    if (!m_released || m_pending > 0 || m_releaseDone.isEmpty())
        return;
    const QList<std::function<void()>> done = std::exchange(m_releaseDone, {});
    for (const auto &d : done)
        d();
}

QList<ExplicitCacheEntry> GeminiContentCache::entries() const
{
    return m_entries;
}

} // namespace Callscope
