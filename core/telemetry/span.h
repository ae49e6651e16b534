#pragma once

// The span model the exporter sends: the part of OpenTelemetry's trace data model Callscope
// fills (ids, name, kind, times, attributes, events, links, status). Attribute values are a
// string, a bool, a 64-bit integer, a double or a list of strings, the AnyValue kinds the
// GenAI conventions use.

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>
#include <QVariant>

namespace Callscope::Telemetry {

struct Attribute
{
    QString key;
    QVariant value; // QString, bool, qint64, double or QStringList

    friend bool operator==(const Attribute &, const Attribute &) = default;
};

using Attributes = QList<Attribute>;

// Adds (or replaces) one attribute; an empty string or an empty list is left out.
void setAttribute(Attributes &attributes, const QString &key, const QVariant &value);
// The value of `key`, or an invalid QVariant.
QVariant attributeValue(const Attributes &attributes, QStringView key);

enum class SpanKind { Unspecified = 0, Internal = 1, Server = 2, Client = 3 };
enum class StatusCode { Unset = 0, Ok = 1, Error = 2 };

struct SpanEvent
{
    QString name;
    qint64 timeUnixNano = 0;
    Attributes attributes;
};

struct SpanLink
{
    QByteArray traceId; // 16 bytes
    QByteArray spanId; // 8 bytes
    Attributes attributes;
};

struct Span
{
    QByteArray traceId; // 16 bytes
    QByteArray spanId; // 8 bytes
    QByteArray parentSpanId; // 8 bytes, empty for a root span
    QString name;
    SpanKind kind = SpanKind::Internal;
    qint64 startUnixNano = 0;
    qint64 endUnixNano = 0;
    Attributes attributes;
    QList<SpanEvent> events;
    QList<SpanLink> links;
    StatusCode status = StatusCode::Unset;
    QString statusMessage;

    void set(const QString &key, const QVariant &value) { setAttribute(attributes, key, value); }
    QVariant get(QStringView key) const { return attributeValue(attributes, key); }
};

// Nanoseconds since the epoch of a UTC time (0 for an invalid one).
qint64 unixNano(const QDateTime &time);

// Ids derived from a stable key, so a call exported live and again from the history keeps
// its ids: the first 16 (trace) or 8 (span) bytes of SHA-256 over a prefix and the key.
QByteArray traceIdFor(const QString &key);
QByteArray spanIdFor(const QString &key);

} // namespace Callscope::Telemetry
