#pragma once

// A stand-in OpenTelemetry collector for tests: a FakeProvider (real HTTP on 127.0.0.1, replies
// scripted in order, every request recorded) that understands what arrived at /v1/traces.
//
//   FakeOtlpCollector collector;
//   QVERIFY(collector.listen());
//   collector.server().enqueue(FakeReply::text(503, "busy").withHeader("Retry-After", "1"));
//   ... export to collector.endpoint() ...
//   QStringList problems;
//   const QList<CollectedSpan> spans = collector.spans(&problems);
//   QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
//
// Protobuf bodies are decoded by the reference decoder (tests/support/otlpdecode.cjs: the
// OpenTelemetry JavaScript SDK's code generated from the official .proto files, installed in
// tests/npm), JSON bodies as they are; both are then read by the OTLP JSON rules, and every
// break of them is a problem: ids not lowercase hex of the right length, 64-bit integers
// (times, intValue) not strings, keys not lowerCamelCase, enums not integers.
// A body sent with Content-Encoding: gzip is inflated first (by Node's zlib).
// Unscripted requests are answered 200 with an empty body (a full success).

#include "tests/support/fakeprovider.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace Callscope::Test {

struct CollectedSpan
{
    QString protocol; // "protobuf" or "json": how it arrived
    QString encoding; // "gzip" when the body came gzip-compressed, else empty
    int request = 0; // index of the request it came in
    QJsonObject resource; // key -> AnyValue ({"stringValue": ...})
    QString traceId;
    QString spanId;
    QString parentSpanId;
    QString name;
    int kind = 0;
    QString startTimeUnixNano;
    QString endTimeUnixNano;
    QJsonObject attributes; // key -> AnyValue ({"intValue": "3"}, {"stringValue": ...}, ...)
    QJsonArray events;
    QJsonArray links;
    int statusCode = 0;

    bool has(const QString &key) const { return attributes.contains(key); }
    // The AnyValue's one field name ("stringValue", "intValue", ...), empty when absent.
    QString typeOf(const QString &key) const;
    QString string(const QString &key) const;
    qint64 integer(const QString &key) const; // intValue (a string in OTLP JSON)
    QStringList strings(const QString &key) const; // arrayValue of stringValue
};

class FakeOtlpCollector
{
public:
    FakeOtlpCollector();
    bool listen() { return m_server.listen(); }
    FakeProvider &server() { return m_server; }
    // The base endpoint (what OTEL_EXPORTER_OTLP_ENDPOINT holds); traces go to /v1/traces.
    QString endpoint() const { return m_server.baseUrl().toString(); }

    // Every span of every export request so far, in arrival order. Problems (bodies that do
    // not decode, OTLP JSON rules broken) are appended to *problems.
    QList<CollectedSpan> spans(QStringList *problems) const;

    static QList<CollectedSpan> fromOtlpJson(const QJsonObject &request, const QString &protocol,
                                             int index, QStringList *problems);
    // The protobuf body as OTLP JSON by the reference decoder; empty with *error on failure.
    static QJsonObject decodeProtobuf(const QByteArray &body, QString *error);
    // A gzip body inflated by Node's zlib (an implementation apart from ours); empty with
    // *error when it is not one valid gzip stream.
    static QByteArray gunzip(const QByteArray &body, QString *error);

private:
    FakeProvider m_server;
};

} // namespace Callscope::Test
