#include "core/model/cachespec.h"

#include "core/model/jsonpointer.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(CacheSpec)
};

const QStringList kKnown = { u"breakpoints"_s, u"ttl"_s, u"key"_s, u"retention"_s, u"explicit"_s };

std::optional<CacheBreakpoint> breakpointFrom(const QJsonValue &value)
{
    CacheBreakpoint b;
    if (value.isDouble()) {
        const double n = value.toDouble();
        if (n < 1 || n != double(qint64(n)) || n > 100000)
            return std::nullopt;
        b.place = CacheBreakpoint::Place::Message;
        b.message = int(n);
        return b;
    }
    const QString name = value.toString();
    if (name == u"tools")
        b.place = CacheBreakpoint::Place::Tools;
    else if (name == u"system")
        b.place = CacheBreakpoint::Place::System;
    else if (name == u"last")
        b.place = CacheBreakpoint::Place::Last;
    else if (name == u"last_but_one")
        b.place = CacheBreakpoint::Place::LastButOne;
    else if (name == u"auto")
        b.place = CacheBreakpoint::Place::Auto;
    else
        return std::nullopt;
    return b;
}

} // namespace

QJsonValue CacheBreakpoint::toJson() const
{
    switch (place) {
    case Place::Tools:
        return u"tools"_s;
    case Place::System:
        return u"system"_s;
    case Place::Last:
        return u"last"_s;
    case Place::LastButOne:
        return u"last_but_one"_s;
    case Place::Auto:
        return u"auto"_s;
    case Place::Message:
        return message;
    }
    return {};
}

bool CacheSpec::hasAuto() const
{
    for (const CacheBreakpoint &b : breakpoints) {
        if (b.place == CacheBreakpoint::Place::Auto)
            return true;
    }
    return false;
}

QJsonObject CacheSpec::toJson() const
{
    QJsonObject o;
    if (!breakpoints.isEmpty()) {
        QJsonArray list;
        for (const CacheBreakpoint &b : breakpoints)
            list.append(b.toJson());
        o.insert(u"breakpoints"_s, list);
    }
    if (!ttl.isEmpty())
        o.insert(u"ttl"_s, ttl);
    if (!key.isEmpty())
        o.insert(u"key"_s, key);
    if (!retention.isEmpty())
        o.insert(u"retention"_s, retention);
    if (explicitCache)
        o.insert(u"explicit"_s, true);
    for (auto it = unknownFields.begin(); it != unknownFields.end(); ++it) {
        if (!o.contains(it.key()))
            o.insert(it.key(), it.value());
    }
    return o;
}

std::optional<qint64> cacheTtlSeconds(const QString &ttl)
{
    static const QRegularExpression seconds(u"^([0-9]{1,9})s$"_s);
    const auto m = seconds.match(ttl);
    if (!m.hasMatch())
        return std::nullopt;
    return m.captured(1).toLongLong();
}

std::optional<CacheSpec> cacheSpecFromJson(const QJsonValue &value, const QString &pointer,
                                           QList<CacheSpecError> *errors)
{
    auto fail = [errors](const QString &where, const QString &message) {
        if (errors)
            errors->append({ where, message });
    };
    if (!value.isObject()) {
        fail(pointer, Tr::tr("expected an object"));
        return std::nullopt;
    }
    const QJsonObject object = value.toObject();
    CacheSpec cache;
    bool ok = true;
    if (const QJsonValue list = object.value(u"breakpoints"_s);
        !list.isUndefined() && !list.isNull()) {
        const QString where = JsonPointer::append(pointer, u"breakpoints");
        if (!list.isArray()) {
            fail(where,
                 Tr::tr("expected an array of places (\"tools\", \"system\", \"last\", "
                        "\"last_but_one\", a message number, or \"auto\")"));
            ok = false;
        } else {
            const QJsonArray items = list.toArray();
            for (qsizetype i = 0; i < items.size(); ++i) {
                if (const auto b = breakpointFrom(items.at(i))) {
                    cache.breakpoints.append(*b);
                } else {
                    fail(JsonPointer::append(where, i),
                         Tr::tr(
                             "unknown cache breakpoint (expected \"tools\", \"system\", \"last\", "
                             "\"last_but_one\", a message number from 1, or \"auto\")"));
                    ok = false;
                }
            }
        }
    }
    auto text = [&](const QString &name, QString *into) {
        const QJsonValue v = object.value(name);
        if (v.isUndefined() || v.isNull())
            return;
        if (!v.isString()) {
            fail(JsonPointer::append(pointer, name), Tr::tr("expected a string"));
            ok = false;
            return;
        }
        *into = v.toString();
    };
    text(u"ttl"_s, &cache.ttl);
    text(u"key"_s, &cache.key);
    text(u"retention"_s, &cache.retention);
    if (!cache.ttl.isEmpty() && cache.ttl != u"5m" && cache.ttl != u"1h"
        && !cacheTtlSeconds(cache.ttl)) {
        fail(JsonPointer::append(pointer, u"ttl"),
             Tr::tr("unknown TTL \"%1\" (expected \"5m\" or \"1h\", or seconds such as \"3600s\")")
                 .arg(cache.ttl));
        ok = false;
    }
    if (!cache.retention.isEmpty() && cache.retention != u"in_memory"
        && cache.retention != u"24h") {
        fail(JsonPointer::append(pointer, u"retention"),
             Tr::tr("unknown retention \"%1\" (expected \"in_memory\" or \"24h\")")
                 .arg(cache.retention));
        ok = false;
    }
    if (const QJsonValue v = object.value(u"explicit"_s); !v.isUndefined() && !v.isNull()) {
        if (!v.isBool()) {
            fail(JsonPointer::append(pointer, u"explicit"), Tr::tr("expected true or false"));
            ok = false;
        } else {
            cache.explicitCache = v.toBool();
        }
    }
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (!kKnown.contains(it.key()))
            cache.unknownFields.insert(it.key(), it.value());
    }
    if (!ok)
        return std::nullopt;
    return cache;
}

} // namespace Callscope
