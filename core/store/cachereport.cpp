#include "core/store/cachereport.h"

#include "core/model/cacherules.h"
#include "core/store/callstore.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QMap>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(CacheReport)
};

QString number(qint64 n)
{
    return QLocale().toString(n);
}

QString compact(const QJsonValue &value)
{
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    if (value.isString())
        return value.toString();
    return QString::fromUtf8(QJsonDocument(QJsonArray { value }).toJson(QJsonDocument::Compact));
}

// A copy without cache_control marks anywhere: they are not part of the prefix the provider
// compares.
QJsonValue withoutMarks(const QJsonValue &value, bool *marked)
{
    if (value.isObject()) {
        QJsonObject o = value.toObject();
        if (o.contains(u"cache_control"_s)) {
            o.remove(u"cache_control"_s);
            if (marked)
                *marked = true;
        }
        for (auto it = o.begin(); it != o.end(); ++it)
            it.value() = withoutMarks(it.value(), marked);
        return o;
    }
    if (value.isArray()) {
        QJsonArray a = value.toArray();
        for (qsizetype i = 0; i < a.size(); ++i)
            a.replace(i, withoutMarks(a.at(i), marked));
        return a;
    }
    return value;
}

CachePrefixBlock makeBlock(const QString &kind, const QString &text, bool breakpoint,
                           int message = 0, const QString &role = {})
{
    CachePrefixBlock b;
    b.kind = kind;
    b.text = text;
    b.message = message;
    b.role = role;
    b.breakpoint = breakpoint;
    b.tokens = CacheRules::estimateTokens(text.size());
    b.hash = QString::fromLatin1(
        QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256).toHex().left(12));
    return b;
}

QString systemText(const QJsonValue &system)
{
    if (system.isString())
        return system.toString();
    QString text;
    for (const QJsonValue &block : system.toArray()) {
        const QJsonObject o = block.toObject();
        text += o.contains(u"text"_s) ? o.value(u"text"_s).toString()
                                      : compact(withoutMarks(o, nullptr));
    }
    return text;
}

// Where two texts first differ; -1 when equal.
qsizetype firstDifference(const QString &a, const QString &b)
{
    const qsizetype n = std::min(a.size(), b.size());
    for (qsizetype i = 0; i < n; ++i) {
        if (a.at(i) != b.at(i))
            return i;
    }
    return a.size() == b.size() ? -1 : n;
}

QString excerpt(const QString &text, qsizetype at)
{
    const qsizetype start = std::max<qsizetype>(0, at - 10);
    QString piece = text.mid(start, 40).simplified();
    if (start > 0)
        piece.prepend(u'…');
    if (start + 40 < text.size())
        piece.append(u'…');
    return piece;
}

struct Request
{
    QJsonObject body;
    std::optional<qint64> callId;
    int turn = -1;
    QDateTime at; // when the request was sent (best known)
};

qint64 cacheLifetimeMs(const QString &engineType, const QJsonObject &body)
{
    if (engineType == u"anthropic") {
        // The longest TTL marked in the request.
        const QByteArray json = QJsonDocument(body).toJson(QJsonDocument::Compact);
        return json.contains("\"ttl\":\"1h\"") ? 60 * 60 * 1000 : 5 * 60 * 1000;
    }
    if (engineType == u"openai" || engineType == u"openai-responses")
        return body.value(u"prompt_cache_retention"_s).toString() == u"24h" ? 24 * 60 * 60 * 1000
                                                                            : 10 * 60 * 1000;
    return 0; // Gemini's implicit cache gives no lifetime
}

QString lifetimeText(qint64 ms)
{
    const int hours = int(ms / (60 * 60 * 1000));
    if (hours > 0)
        return Tr::tr("%n hour(s)", nullptr, hours);
    const int minutes = int(ms / 60000);
    return Tr::tr("%n minute(s)", nullptr, minutes);
}

void explain(CacheTurnReport &turn, const QString &engineType, const QString &model, qint64 minimum,
             const QJsonObject &body, const std::optional<Request> &previous,
             const QDateTime &sentAt)
{
    if (turn.usage.cacheReadTokens > 0)
        return;
    // The prefix a cache could hold: up to the last breakpoint (Anthropic), or all of it.
    qsizetype cacheableEnd = turn.blocks.size() - 1;
    if (engineType == u"anthropic" && !turn.automaticBreakpoint) {
        cacheableEnd = -1;
        for (qsizetype i = 0; i < turn.blocks.size(); ++i) {
            if (turn.blocks.at(i).breakpoint)
                cacheableEnd = i;
        }
        if (cacheableEnd < 0) {
            turn.reasonKind = u"no_breakpoint"_s;
            turn.reason =
                Tr::tr("the request marks no cache breakpoint: Anthropic caches only what a "
                       "breakpoint (\"cache\": {\"breakpoints\": [...]}) marks");
            return;
        }
    }
    qint64 prefixTokens = 0;
    for (qsizetype i = 0; i <= cacheableEnd; ++i)
        prefixTokens += turn.blocks.at(i).tokens;
    if (engineType != u"anthropic")
        prefixTokens = std::max(prefixTokens, turn.usage.promptTokens());
    if (minimum > 0 && prefixTokens < minimum) {
        turn.reasonKind = u"below_minimum"_s;
        turn.reason =
            Tr::tr("below the model's minimum: the cacheable prefix is about %1 tokens and %2 "
                   "caches only from %3")
                .arg(number(prefixTokens), model, number(minimum));
        return;
    }
    if (!previous) {
        turn.reasonKind = u"first"_s;
        turn.reason = Tr::tr("nothing to read yet: no earlier request of this spec on this engine");
        return;
    }
    turn.comparedCall = previous->callId;
    turn.comparedTurn = previous->turn;
    const QList<CachePrefixBlock> before = cachePrefixBlocks(engineType, previous->body);
    const QString where =
        previous->callId ? Tr::tr("call %1").arg(*previous->callId) : Tr::tr("the previous turn");
    for (qsizetype i = 0; i <= cacheableEnd && i < turn.blocks.size(); ++i) {
        const CachePrefixBlock &now = turn.blocks.at(i);
        const CachePrefixBlock *then = i < before.size() ? &before.at(i) : nullptr;
        if (then && then->kind == now.kind && then->hash == now.hash)
            continue;
        turn.reasonKind = u"differs"_s;
        turn.differentBlock = int(i);
        if (!then || then->kind != now.kind) {
            turn.differentAt = 0;
            turn.reason =
                Tr::tr("the %1 is not in %2 (its request had %3 there): the prefix differs "
                       "from that block on")
                    .arg(now.label(), where, then ? then->label() : Tr::tr("nothing"));
            return;
        }
        turn.differentAt = firstDifference(now.text, then->text);
        turn.reason =
            Tr::tr("the %1 differs from %2 at character %3: \"%4\" here, \"%5\" there")
                .arg(now.label(), where, number(turn.differentAt),
                     excerpt(now.text, turn.differentAt), excerpt(then->text, turn.differentAt));
        if (now.kind == u"system" && turn.differentAt < now.text.size() / 2)
            turn.reason += Tr::tr(
                "; per-case text comes before the static text of the system prompt, so every case "
                "has its own prefix");
        return;
    }
    const qint64 lifetime = cacheLifetimeMs(engineType, body);
    if (lifetime > 0 && previous->at.isValid() && sentAt.isValid()
        && previous->at.msecsTo(sentAt) > lifetime) {
        turn.reasonKind = u"expired"_s;
        turn.reason =
            Tr::tr("the entry expired (more than %1 since %2)").arg(lifetimeText(lifetime), where);
        return;
    }
    turn.reasonKind = u"unknown"_s;
    turn.reason =
        Tr::tr("the prefix matches %1, but the provider read nothing (a cache entry is not "
               "guaranteed; OpenAI routes requests by prompt_cache_key)")
            .arg(where);
}

// Per turn the request that answered it (the last exchange of the turn).
QMap<int, QJsonObject> requestsByTurn(const QList<TurnExchange> &exchanges)
{
    QMap<int, QJsonObject> out;
    for (const TurnExchange &e : exchanges) {
        const QJsonDocument doc = QJsonDocument::fromJson(e.request);
        if (doc.isObject())
            out.insert(e.turn, doc.object());
    }
    return out;
}

QDateTime turnStart(const CallRecord &record, int turn)
{
    for (const AttemptRecord &a : record.attempts) {
        if (a.turn == turn && a.startedAt.isValid())
            return a.startedAt;
    }
    return turn == 0 ? record.createdAt : QDateTime();
}

} // namespace

QString CachePrefixBlock::label() const
{
    if (kind == u"tools")
        return Tr::tr("tool definitions");
    if (kind == u"system")
        return Tr::tr("system prompt");
    return role.isEmpty() ? Tr::tr("message %1").arg(message)
                          : Tr::tr("message %1 (%2)").arg(message).arg(role);
}

QList<CachePrefixBlock> cachePrefixBlocks(const QString &engineType, const QJsonObject &body,
                                          bool *automaticBreakpoint)
{
    QList<CachePrefixBlock> blocks;
    if (automaticBreakpoint)
        *automaticBreakpoint = body.contains(u"cache_control"_s);
    if (const QJsonValue tools = body.value(u"tools"_s);
        tools.isArray() && !tools.toArray().isEmpty()) {
        bool marked = false;
        const QString text = compact(withoutMarks(tools, &marked));
        blocks.append(makeBlock(u"tools"_s, text, marked));
    }
    auto addMessages = [&blocks](const QJsonArray &messages, int first) {
        int n = first;
        for (const QJsonValue &m : messages) {
            bool marked = false;
            const QJsonObject o = m.toObject();
            QString role = o.value(u"role"_s).toString();
            if (role.isEmpty())
                role = o.value(u"type"_s).toString();
            const QString text = compact(withoutMarks(o, &marked));
            blocks.append(makeBlock(u"message"_s, text, marked, ++n, role));
        }
    };
    if (engineType == u"anthropic") {
        if (const QJsonValue system = body.value(u"system"_s); !system.isUndefined()) {
            bool marked = false;
            withoutMarks(system, &marked);
            blocks.append(makeBlock(u"system"_s, systemText(system), marked));
        }
        addMessages(body.value(u"messages"_s).toArray(), 0);
    } else if (engineType == u"gemini") {
        const QJsonArray parts =
            body.value(u"systemInstruction"_s).toObject().value(u"parts"_s).toArray();
        if (!parts.isEmpty()) {
            QString text;
            for (const QJsonValue &p : parts)
                text += p.toObject().value(u"text"_s).toString();
            blocks.append(makeBlock(u"system"_s, text, false));
        }
        addMessages(body.value(u"contents"_s).toArray(), 0);
    } else if (engineType == u"openai-responses") {
        if (body.contains(u"instructions"_s))
            blocks.append(makeBlock(u"system"_s, body.value(u"instructions"_s).toString(), false));
        const QJsonValue input = body.value(u"input"_s);
        if (input.isArray())
            addMessages(input.toArray(), 0);
        else if (input.isString())
            blocks.append(makeBlock(u"message"_s, input.toString(), false, 1, u"user"_s));
    } else {
        // Chat Completions: leading system or developer messages are the system prompt.
        QJsonArray messages = body.value(u"messages"_s).toArray();
        QString system;
        while (!messages.isEmpty()) {
            const QJsonObject first = messages.first().toObject();
            const QString role = first.value(u"role"_s).toString();
            if (role != u"system" && role != u"developer")
                break;
            system += systemText(first.value(u"content"_s));
            messages.removeFirst();
        }
        if (!system.isEmpty())
            blocks.append(makeBlock(u"system"_s, system, false));
        addMessages(messages, 0);
    }
    return blocks;
}

QJsonObject CacheReport::toJson() const
{
    QJsonArray list;
    for (const CacheTurnReport &t : turns) {
        QJsonArray blocks;
        for (const CachePrefixBlock &b : t.blocks) {
            QJsonObject o { { u"kind"_s, b.kind },     { u"label"_s, b.label() },
                            { u"tokens"_s, b.tokens }, { u"characters"_s, b.text.size() },
                            { u"hash"_s, b.hash },     { u"breakpoint"_s, b.breakpoint } };
            if (b.kind == u"message")
                o.insert(u"message"_s, b.message);
            blocks.append(o);
        }
        QJsonObject o { { u"turn"_s, t.turn },
                        { u"status"_s, t.status },
                        { u"usage"_s, t.usage.toJson() },
                        { u"blocks"_s, blocks },
                        { u"automatic_breakpoint"_s, t.automaticBreakpoint } };
        if (!t.reason.isEmpty()) {
            o.insert(u"reason"_s, t.reason);
            o.insert(u"reason_kind"_s, t.reasonKind);
        }
        if (t.comparedCall)
            o.insert(u"compared_call"_s, *t.comparedCall);
        if (t.comparedTurn >= 0)
            o.insert(u"compared_turn"_s, t.comparedTurn);
        if (t.differentBlock >= 0) {
            o.insert(u"different_block"_s, t.differentBlock);
            o.insert(u"different_at"_s, t.differentAt);
        }
        list.append(o);
    }
    return QJsonObject { { u"call_id"_s, callId },
                         { u"engine_type"_s, engineType },
                         { u"model"_s, model },
                         { u"minimum_tokens"_s, minimumTokens },
                         { u"from_requests"_s, fromExchanges },
                         { u"turns"_s, list } };
}

StoreResult<CacheReport> buildCacheReport(CallStore &store, qint64 callId)
{
    const StoreResult<CallRecord> record = store.getCall(callId);
    if (!record)
        return record.error();
    const StoreResult<QList<TurnExchange>> exchanges = store.exchanges(callId);
    if (!exchanges)
        return exchanges.error();
    const CallRecord &r = record.value();
    CacheReport report;
    report.callId = callId;
    report.engineType = r.engineType;
    report.model = r.model;
    const std::optional<EngineType> type = engineTypeFromName(r.engineType);
    const bool caches = type && CacheRules::caches(*type);
    report.minimumTokens = type ? CacheRules::minimumTokens(*type, r.model) : 0;
    const QMap<int, QJsonObject> requests = requestsByTurn(exchanges.value());
    report.fromExchanges = !requests.isEmpty();

    // What turn 0 is compared with: the last request of the newest similar call before it.
    std::optional<Request> earlier;
    if (caches) {
        if (const auto previous = store.previousSimilarCall(callId); previous && previous.value()) {
            const qint64 id = *previous.value();
            const auto other = store.exchanges(id);
            const auto otherRecord = store.getCall(id);
            if (other && otherRecord) {
                const QMap<int, QJsonObject> theirs = requestsByTurn(other.value());
                if (!theirs.isEmpty()) {
                    const int lastTurn = theirs.lastKey();
                    Request req { theirs.last(), id, lastTurn,
                                  turnStart(otherRecord.value(), lastTurn) };
                    if (!req.at.isValid())
                        req.at = otherRecord->finishedAt;
                    earlier = req;
                }
            }
        }
    }

    for (const TurnRecord &t : r.turns) {
        CacheTurnReport turn;
        turn.turn = t.index;
        turn.usage = t.usage;
        const bool read = t.usage.cacheReadTokens > 0;
        const bool written = t.usage.cacheWriteTokens > 0;
        turn.status = !caches ? u"none"_s
            : read && written ? u"hit+written"_s
            : read            ? u"hit"_s
            : written         ? u"written"_s
                              : u"miss"_s;
        const auto it = requests.constFind(t.index);
        if (it != requests.cend()) {
            turn.blocks = cachePrefixBlocks(r.engineType, it.value(), &turn.automaticBreakpoint);
            const QDateTime sentAt = turnStart(r, t.index);
            if (caches)
                explain(turn, r.engineType, r.model, report.minimumTokens, it.value(), earlier,
                        sentAt);
            earlier = Request { it.value(), std::nullopt, t.index, sentAt };
        }
        report.turns.append(turn);
    }
    return report;
}

} // namespace Callscope
