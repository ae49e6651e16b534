#include "core/engines/promptcache.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace Callscope::PromptCache {

QJsonObject anthropicCacheControl(const QString &ttl)
{
    QJsonObject control { { u"type"_s, u"ephemeral"_s } };
    if (ttl == u"1h" || ttl == u"5m")
        control.insert(u"ttl"_s, ttl);
    return control;
}

namespace {

// Puts the mark on the last element of a list of blocks; false when the list is empty.
bool markLast(QJsonArray &blocks, const QJsonObject &control)
{
    if (blocks.isEmpty())
        return false;
    QJsonObject last = blocks.last().toObject();
    last.insert(u"cache_control"_s, control);
    blocks.replace(blocks.size() - 1, last);
    return true;
}

// A list of blocks from a content that may be a plain string.
QJsonArray blocksOf(const QJsonValue &content)
{
    if (content.isString())
        return QJsonArray { QJsonObject { { u"type"_s, u"text"_s },
                                          { u"text"_s, content.toString() } } };
    return content.toArray();
}

// Marks the last block of a message's content.
bool markMessage(QJsonArray &messages, qsizetype index, const QJsonObject &control)
{
    if (index < 0 || index >= messages.size())
        return false;
    QJsonObject message = messages.at(index).toObject();
    QJsonArray content = blocksOf(message.value(u"content"_s));
    if (!markLast(content, control))
        return false;
    message.insert(u"content"_s, content);
    messages.replace(index, message);
    return true;
}

} // namespace

void applyAnthropic(QJsonObject &body, const CacheSpec &cache)
{
    const QJsonObject control = anthropicCacheControl(cache.ttl);
    int used = 0;
    QJsonArray messages = body.value(u"messages"_s).toArray();
    for (const CacheBreakpoint &b : cache.breakpoints) {
        if (used >= CacheRules::MaxAnthropicBreakpoints)
            break;
        bool placed = false;
        switch (b.place) {
        case CacheBreakpoint::Place::Auto:
            body.insert(u"cache_control"_s, control);
            placed = true;
            break;
        case CacheBreakpoint::Place::Tools: {
            QJsonArray tools = body.value(u"tools"_s).toArray();
            placed = markLast(tools, control);
            if (placed)
                body.insert(u"tools"_s, tools);
            break;
        }
        case CacheBreakpoint::Place::System: {
            QJsonArray blocks = blocksOf(body.value(u"system"_s));
            placed = markLast(blocks, control);
            if (placed)
                body.insert(u"system"_s, blocks);
            break;
        }
        case CacheBreakpoint::Place::Last:
            placed = markMessage(messages, messages.size() - 1, control);
            break;
        case CacheBreakpoint::Place::LastButOne:
            placed = markMessage(messages, messages.size() - 2, control);
            break;
        case CacheBreakpoint::Place::Message:
            placed = markMessage(messages, b.message - 1, control);
            break;
        }
        used += placed ? 1 : 0;
    }
    if (body.contains(u"messages"_s))
        body.insert(u"messages"_s, messages);
}

void applyOpenAI(QJsonObject &body, const CacheSpec &cache)
{
    if (!cache.key.isEmpty())
        body.insert(u"prompt_cache_key"_s, cache.key);
    if (!cache.retention.isEmpty())
        body.insert(u"prompt_cache_retention"_s, cache.retention);
}

} // namespace Callscope::PromptCache
