#include "tests/support/fakepromptcache.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonValue>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Callscope::Test {

namespace {

constexpr qint64 kFiveMinutes = 5 * 60 * 1000;
constexpr qint64 kOneHour = 60 * 60 * 1000;
constexpr int kLookBack = 20;

QByteArray compact(const QJsonValue &value)
{
    if (value.isObject())
        return QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact);
    if (value.isArray())
        return QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact);
    return QJsonDocument(QJsonArray { value }).toJson(QJsonDocument::Compact);
}

} // namespace

FakePromptCache::FakePromptCache(Provider provider, qint64 minimumTokens)
    : m_provider(provider)
    , m_minimum(minimumTokens)
{ }

QList<FakePromptCache::Block> FakePromptCache::anthropicBlocks(const QJsonObject &body) const
{
    QList<Block> blocks;
    auto add = [&blocks](QJsonObject object, const QByteArray &prefix) {
        Block b;
        if (object.contains(u"cache_control"_s)) {
            b.breakpoint = true;
            b.ttl = object.value(u"cache_control"_s).toObject().value(u"ttl"_s).toString(u"5m"_s);
            object.remove(u"cache_control"_s);
        }
        b.text = prefix + compact(object);
        b.tokens = tokens(b.text);
        blocks.append(b);
    };
    for (const QJsonValue &tool : body.value(u"tools"_s).toArray())
        add(tool.toObject(), "tool:");
    const QJsonValue system = body.value(u"system"_s);
    if (system.isString())
        add(QJsonObject { { u"type"_s, u"text"_s }, { u"text"_s, system.toString() } }, "system:");
    for (const QJsonValue &block : system.toArray())
        add(block.toObject(), "system:");
    for (const QJsonValue &m : body.value(u"messages"_s).toArray()) {
        const QJsonObject message = m.toObject();
        const QByteArray role = message.value(u"role"_s).toString().toUtf8() + ':';
        const QJsonValue content = message.value(u"content"_s);
        if (content.isString())
            add(QJsonObject { { u"type"_s, u"text"_s }, { u"text"_s, content.toString() } }, role);
        for (const QJsonValue &block : content.toArray())
            add(block.toObject(), role);
    }
    // The automatic breakpoint sits on the last block.
    if (body.contains(u"cache_control"_s) && !blocks.isEmpty()) {
        blocks.last().breakpoint = true;
        blocks.last().ttl =
            body.value(u"cache_control"_s).toObject().value(u"ttl"_s).toString(u"5m"_s);
    }
    return blocks;
}

FakeCacheUsage FakePromptCache::useAnthropic(const QJsonObject &body)
{
    const QList<Block> blocks = anthropicBlocks(body);
    // Prefix hashes and token counts up to and including each block.
    QList<QByteArray> hashes;
    QList<qint64> sums;
    QCryptographicHash hash(QCryptographicHash::Sha256);
    qint64 sum = 0;
    for (const Block &b : blocks) {
        hash.addData(b.text);
        hash.addData("\n");
        hashes.append(hash.result());
        sum += b.tokens;
        sums.append(sum);
    }
    FakeCacheUsage usage;
    qint64 total = sum;
    // The longest live prefix ending within the look-back window of a breakpoint.
    int readEnd = -1;
    for (int i = 0; i < blocks.size(); ++i) {
        if (!blocks.at(i).breakpoint)
            continue;
        for (int j = i; j >= 0 && j >= i - kLookBack; --j) {
            const auto it = m_prefixes.find(hashes.at(j));
            if (it != m_prefixes.end() && it->expires > m_now) {
                readEnd = std::max(readEnd, j);
                break;
            }
        }
    }
    const qint64 read = readEnd >= 0 ? sums.at(readEnd) : 0;
    usage.read = read;
    // Refresh what was read.
    for (int j = 0; j <= readEnd; ++j) {
        const auto it = m_prefixes.find(hashes.at(j));
        if (it != m_prefixes.end() && it->expires > m_now)
            it->expires = std::max(it->expires, m_now + it->ttl);
    }
    // Write every breakpoint past the read that reaches the minimum.
    qint64 covered = read;
    for (int i = readEnd + 1; i < blocks.size(); ++i) {
        const Block &b = blocks.at(i);
        if (!b.breakpoint || sums.at(i) < m_minimum)
            continue;
        const qint64 span = sums.at(i) - covered;
        const qint64 ttl = b.ttl == u"1h" ? kOneHour : kFiveMinutes;
        (b.ttl == u"1h" ? usage.written1h : usage.written5m) += span;
        covered = sums.at(i);
        m_prefixes.insert(hashes.at(i), Entry { m_now + ttl, ttl });
    }
    usage.uncached = total - covered;
    return usage;
}

FakeCacheUsage FakePromptCache::usePrefix(const QJsonObject &body)
{
    QByteArray text;
    QString key;
    qint64 explicitTokens = 0;
    qint64 expiresAfter = 10 * 60 * 1000; // in-memory entries live 5 to 10 minutes
    if (m_provider == Provider::Gemini) {
        if (const QString name = body.value(u"cachedContent"_s).toString(); !name.isEmpty()) {
            const auto it = m_explicit.constFind(name);
            if (it != m_explicit.cend() && it->expires > m_now)
                explicitTokens = it->tokens;
        }
        text = "system:" + compact(body.value(u"systemInstruction"_s))
            + "tools:" + compact(body.value(u"tools"_s));
        for (const QJsonValue &c : body.value(u"contents"_s).toArray())
            text += compact(c);
    } else {
        key = body.value(u"prompt_cache_key"_s).toString();
        if (body.value(u"prompt_cache_retention"_s).toString() == u"24h")
            expiresAfter = 24 * kOneHour;
        text = "tools:" + compact(body.value(u"tools"_s));
        if (m_provider == Provider::OpenAIResponses) {
            text += "instructions:" + compact(body.value(u"instructions"_s));
            const QJsonValue input = body.value(u"input"_s);
            if (input.isArray()) {
                for (const QJsonValue &item : input.toArray())
                    text += compact(item);
            } else {
                text += compact(input);
            }
        } else {
            for (const QJsonValue &m : body.value(u"messages"_s).toArray())
                text += compact(m);
        }
    }
    const qint64 total = tokens(text) + explicitTokens;
    qint64 common = 0;
    QList<Prompt> &prompts = m_prompts[key];
    prompts.erase(std::remove_if(prompts.begin(), prompts.end(),
                                 [this](const Prompt &p) { return p.expires <= m_now; }),
                  prompts.end());
    for (Prompt &p : prompts) {
        const qsizetype n = std::min(p.text.size(), text.size());
        qsizetype i = 0;
        while (i < n && p.text.at(i) == text.at(i))
            ++i;
        common = std::max<qint64>(common, i / 4);
    }
    qint64 read = 0;
    if (m_provider == Provider::Gemini) {
        read = common >= m_minimum ? common : 0;
    } else if (total >= 1024 && common >= 1024) {
        read = 1024 + ((common - 1024) / 128) * 128;
    }
    read = std::min(read, total - explicitTokens);
    if (total >= m_minimum)
        prompts.append(Prompt { text, m_now + expiresAfter });
    FakeCacheUsage usage;
    usage.read = read + explicitTokens;
    usage.uncached = total - usage.read;
    return usage;
}

FakeCacheUsage FakePromptCache::use(const QJsonObject &body)
{
    return m_provider == Provider::Anthropic ? useAnthropic(body) : usePrefix(body);
}

QJsonObject FakePromptCache::usageJson(const FakeCacheUsage &usage, qint64 outputTokens) const
{
    switch (m_provider) {
    case Provider::Anthropic:
        return QJsonObject {
            { u"input_tokens"_s, usage.uncached },
            { u"cache_read_input_tokens"_s, usage.read },
            { u"cache_creation_input_tokens"_s, usage.written5m + usage.written1h },
            { u"cache_creation"_s,
              QJsonObject { { u"ephemeral_5m_input_tokens"_s, usage.written5m },
                            { u"ephemeral_1h_input_tokens"_s, usage.written1h } } },
            { u"output_tokens"_s, outputTokens }
        };
    case Provider::OpenAIChat:
        return QJsonObject { { u"prompt_tokens"_s, usage.prompt() },
                             { u"completion_tokens"_s, outputTokens },
                             { u"total_tokens"_s, usage.prompt() + outputTokens },
                             { u"prompt_tokens_details"_s,
                               QJsonObject { { u"cached_tokens"_s, usage.read } } } };
    case Provider::OpenAIResponses:
        return QJsonObject { { u"input_tokens"_s, usage.prompt() },
                             { u"input_tokens_details"_s,
                               QJsonObject { { u"cached_tokens"_s, usage.read } } },
                             { u"output_tokens"_s, outputTokens },
                             { u"total_tokens"_s, usage.prompt() + outputTokens } };
    case Provider::Gemini: {
        QJsonObject o { { u"promptTokenCount"_s, usage.prompt() },
                        { u"candidatesTokenCount"_s, outputTokens },
                        { u"totalTokenCount"_s, usage.prompt() + outputTokens } };
        if (usage.read > 0)
            o.insert(u"cachedContentTokenCount"_s, usage.read);
        return o;
    }
    }
    return {};
}

QString FakePromptCache::create(const QJsonObject &body, qint64 ttlSeconds)
{
    const QByteArray text = "system:" + compact(body.value(u"systemInstruction"_s))
        + "tools:" + compact(body.value(u"tools"_s));
    ++m_explicitCreated;
    const QString name = u"cachedContents/fake-%1"_s.arg(m_explicitCreated);
    m_explicit.insert(name, Explicit { tokens(text), m_now + ttlSeconds * 1000 });
    return name;
}

QJsonObject FakePromptCache::createResource(const QJsonObject &body, QString *error)
{
    static const QSet<QString> known { u"model"_s,      u"systemInstruction"_s, u"tools"_s,
                                       u"toolConfig"_s, u"contents"_s,          u"ttl"_s,
                                       u"expireTime"_s, u"displayName"_s };
    for (auto it = body.begin(); it != body.end(); ++it) {
        if (!known.contains(it.key())) {
            *error = u"Invalid JSON payload received. Unknown name \"%1\""_s.arg(it.key());
            return {};
        }
    }
    const QString model = body.value(u"model"_s).toString();
    if (!model.startsWith(u"models/"_s) || model.size() <= 7) {
        *error = u"model is required and must look like models/{model}"_s;
        return {};
    }
    static const QRegularExpression duration(u"^\\d+(\\.\\d{1,9})?s$"_s);
    const QString ttl = body.value(u"ttl"_s).toString();
    if (body.contains(u"ttl"_s) && !duration.match(ttl).hasMatch()) {
        *error = u"Invalid value at 'cached_content.ttl' (type.googleapis.com/"
                 "google.protobuf.Duration), \"%1\""_s.arg(ttl);
        return {};
    }
    const QJsonValue system = body.value(u"systemInstruction"_s);
    if (!system.isUndefined()
        && (!system.isObject() || !system.toObject().value(u"parts"_s).isArray())) {
        *error = u"systemInstruction must be a Content with parts"_s;
        return {};
    }
    if (body.contains(u"tools"_s) && !body.value(u"tools"_s).isArray()) {
        *error = u"tools must be a list of Tool"_s;
        return {};
    }
    const QByteArray text = "system:" + compact(body.value(u"systemInstruction"_s))
        + "tools:" + compact(body.value(u"tools"_s)) + compact(body.value(u"contents"_s));
    const qint64 count = tokens(text);
    if (count < m_minimum) {
        *error = u"Cached content is too small. total_token_count=%1, min_total_token_count=%2"_s
                     .arg(count)
                     .arg(m_minimum);
        return {};
    }
    const qint64 seconds = ttl.isEmpty() ? 3600 : qint64(ttl.chopped(1).toDouble());
    ++m_explicitCreated;
    const QString name = u"cachedContents/fake-%1"_s.arg(m_explicitCreated);
    m_explicit.insert(name, Explicit { count, m_now + seconds * 1000 });
    const QDateTime now = QDateTime::currentDateTimeUtc();
    return QJsonObject { { u"name"_s, name },
                         { u"model"_s, model },
                         { u"createTime"_s, now.toString(Qt::ISODateWithMs) },
                         { u"updateTime"_s, now.toString(Qt::ISODateWithMs) },
                         { u"expireTime"_s, now.addSecs(seconds).toString(Qt::ISODateWithMs) },
                         { u"usageMetadata"_s, QJsonObject { { u"totalTokenCount"_s, count } } } };
}

bool FakePromptCache::hasEntry(const QString &name) const
{
    const auto it = m_explicit.constFind(name);
    return it != m_explicit.cend() && it->expires > m_now;
}

bool FakePromptCache::remove(const QString &name)
{
    return m_explicit.remove(name) > 0;
}

FakeProvider::Responder cachingResponder(std::shared_ptr<FakePromptCache> cache,
                                         FakeToolChoice choose, std::shared_ptr<FakeCacheLog> log,
                                         qint64 outputTokens)
{
    auto count = std::make_shared<int>(0);
    return [cache, choose, log, outputTokens, count](const RecordedRequest &request) {
        const QJsonObject body = request.jsonObject();
        const FakeCacheUsage usage = cache->use(body);
        {
            std::lock_guard lock(log->mutex);
            log->usages.append(usage);
        }
        const auto [name, arguments] = choose(body);
        const QString id = u"call_%1"_s.arg(++*count);
        const QJsonObject usageJson = cache->usageJson(usage, outputTokens);
        QJsonObject reply;
        switch (cache->provider()) {
        case FakePromptCache::Provider::Anthropic:
            reply = QJsonObject { { u"id"_s, u"msg_%1"_s.arg(*count) },
                                  { u"type"_s, u"message"_s },
                                  { u"role"_s, u"assistant"_s },
                                  { u"model"_s, body.value(u"model"_s) },
                                  { u"content"_s,
                                    QJsonArray { QJsonObject { { u"type"_s, u"tool_use"_s },
                                                               { u"id"_s, id },
                                                               { u"name"_s, name },
                                                               { u"input"_s, arguments } } } },
                                  { u"stop_reason"_s, u"tool_use"_s },
                                  { u"stop_sequence"_s, QJsonValue() },
                                  { u"usage"_s, usageJson } };
            break;
        case FakePromptCache::Provider::OpenAIChat: {
            reply = QJsonDocument::fromJson(openAiToolCallBody(id, name, arguments)).object();
            reply.insert(u"usage"_s, usageJson);
            break;
        }
        case FakePromptCache::Provider::OpenAIResponses:
            reply = QJsonObject {
                { u"id"_s, u"resp_%1"_s.arg(*count) },
                { u"object"_s, u"response"_s },
                { u"status"_s, u"completed"_s },
                { u"output"_s,
                  QJsonArray { QJsonObject { { u"type"_s, u"function_call"_s },
                                             { u"id"_s, QString(u"fc_"_s + id) },
                                             { u"call_id"_s, id },
                                             { u"name"_s, name },
                                             { u"arguments"_s,
                                               QString::fromUtf8(QJsonDocument(arguments).toJson(
                                                   QJsonDocument::Compact)) },
                                             { u"status"_s, u"completed"_s } } } },
                { u"usage"_s, usageJson }
            };
            break;
        case FakePromptCache::Provider::Gemini:
            reply = QJsonObject {
                { u"candidates"_s,
                  QJsonArray { QJsonObject {
                      { u"content"_s,
                        QJsonObject { { u"role"_s, u"model"_s },
                                      { u"parts"_s,
                                        QJsonArray { QJsonObject {
                                            { u"functionCall"_s,
                                              QJsonObject { { u"name"_s, name },
                                                            { u"args"_s, arguments } } } } } } } },
                      { u"finishReason"_s, u"STOP"_s } } } },
                { u"usageMetadata"_s, usageJson },
                { u"responseId"_s, u"r%1"_s.arg(*count) }
            };
            break;
        }
        return FakeReply::json(200, QJsonDocument(reply).toJson(QJsonDocument::Compact));
    };
}

FakeProvider::Responder withGeminiCacheEndpoints(std::shared_ptr<FakePromptCache> cache,
                                                 std::shared_ptr<FakeCacheLog> log,
                                                 FakeProvider::Responder next)
{
    auto status = [](int code, const QString &state, const QString &message) {
        const QJsonObject error { { u"error"_s,
                                    QJsonObject { { u"code"_s, code },
                                                  { u"message"_s, message },
                                                  { u"status"_s, state } } } };
        return FakeReply::json(code, QJsonDocument(error).toJson(QJsonDocument::Compact));
    };
    return [cache, log, next, status](const RecordedRequest &request) {
        const QByteArray path = request.path;
        if (request.method == "POST" && path.endsWith("/v1beta/cachedContents")) {
            const QJsonObject body = request.jsonObject();
            QString error;
            const QJsonObject created = cache->createResource(body, &error);
            {
                std::lock_guard lock(log->mutex);
                log->creates.append(body);
                log->createKeys.append(request.header("x-goog-api-key"));
                if (created.isEmpty())
                    log->refused.append(error);
            }
            if (created.isEmpty())
                return status(400, u"INVALID_ARGUMENT"_s, error);
            return FakeReply::json(200, QJsonDocument(created).toJson(QJsonDocument::Compact));
        }
        if (request.method == "DELETE" && path.contains("/v1beta/cachedContents/")) {
            const QString name = QString::fromUtf8(path.mid(path.indexOf("/v1beta/") + 8));
            const bool removed = cache->remove(name);
            {
                std::lock_guard lock(log->mutex);
                log->deletes.append(path);
                log->createKeys.append(request.header("x-goog-api-key"));
            }
            if (!removed)
                return status(404, u"NOT_FOUND"_s, u"CachedContent not found"_s);
            return FakeReply::json(200, "{}");
        }
        const QJsonObject body = request.jsonObject();
        if (const QString name = body.value(u"cachedContent"_s).toString(); !name.isEmpty()) {
            QString why;
            if (body.contains(u"systemInstruction"_s) || body.contains(u"tools"_s)
                || body.contains(u"toolConfig"_s))
                why = u"CachedContent can not be used with GenerateContent request setting "
                      "system_instruction, tools or tool_config."_s;
            else if (!cache->hasEntry(name))
                why = u"CachedContent not found (or permission denied)"_s;
            if (!why.isEmpty()) {
                {
                    std::lock_guard lock(log->mutex);
                    log->refused.append(why);
                }
                return status(why.startsWith(u"CachedContent not"_s) ? 404 : 400,
                              why.startsWith(u"CachedContent not"_s) ? u"NOT_FOUND"_s
                                                                     : u"INVALID_ARGUMENT"_s,
                              why);
            }
        }
        return next(request);
    };
}

} // namespace Callscope::Test
