#include "core/telemetry/otlpencoding.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstring>
#include <zlib.h>

using namespace Qt::StringLiterals;

namespace Callscope::Telemetry {

namespace {

// --- protobuf wire format --------------------------------------------------------------------

enum WireType : quint32 { Varint = 0, Fixed64 = 1, LengthDelimited = 2, Fixed32 = 5 };

void putVarint(QByteArray &out, quint64 value)
{
    while (value >= 0x80) {
        out.append(char((value & 0x7f) | 0x80));
        value >>= 7;
    }
    out.append(char(value));
}

void putTag(QByteArray &out, quint32 field, WireType type)
{
    putVarint(out, (quint64(field) << 3) | type);
}

void putBytes(QByteArray &out, quint32 field, const QByteArray &bytes)
{
    putTag(out, field, LengthDelimited);
    putVarint(out, quint64(bytes.size()));
    out.append(bytes);
}

void putString(QByteArray &out, quint32 field, const QString &text)
{
    if (!text.isEmpty())
        putBytes(out, field, text.toUtf8());
}

void putFixed64(QByteArray &out, quint32 field, quint64 value)
{
    putTag(out, field, Fixed64);
    for (int i = 0; i < 8; ++i)
        out.append(char((value >> (8 * i)) & 0xff));
}

void putDouble(QByteArray &out, quint32 field, double value)
{
    quint64 bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    putFixed64(out, field, bits);
}

void putEnum(QByteArray &out, quint32 field, int value)
{
    if (value != 0) {
        putTag(out, field, Varint);
        putVarint(out, quint64(qint64(value)));
    }
}

QByteArray anyValueProto(const QVariant &value)
{
    // AnyValue: 1 string_value, 2 bool_value, 3 int_value, 4 double_value, 5 array_value.
    QByteArray out;
    switch (value.typeId()) {
    case QMetaType::Bool:
        putTag(out, 2, Varint);
        putVarint(out, value.toBool() ? 1 : 0);
        break;
    case QMetaType::Int:
    case QMetaType::LongLong:
    case QMetaType::UInt:
    case QMetaType::ULongLong:
        putTag(out, 3, Varint);
        putVarint(out, quint64(value.toLongLong()));
        break;
    case QMetaType::Double:
    case QMetaType::Float:
        putDouble(out, 4, value.toDouble());
        break;
    case QMetaType::QStringList: {
        QByteArray array; // ArrayValue: 1 values
        for (const QString &item : value.toStringList()) {
            QByteArray one;
            putBytes(one, 1, item.toUtf8());
            putBytes(array, 1, one);
        }
        putBytes(out, 5, array);
        break;
    }
    default:
        putBytes(out, 1, value.toString().toUtf8());
        break;
    }
    return out;
}

void putAttributes(QByteArray &out, quint32 field, const Attributes &attributes)
{
    for (const Attribute &attribute : attributes) {
        QByteArray keyValue; // KeyValue: 1 key, 2 value
        putString(keyValue, 1, attribute.key);
        putBytes(keyValue, 2, anyValueProto(attribute.value));
        putBytes(out, field, keyValue);
    }
}

QByteArray spanProto(const Span &span)
{
    // Span: 1 trace_id, 2 span_id, 4 parent_span_id, 5 name, 6 kind, 7 start, 8 end,
    // 9 attributes, 11 events, 13 links, 15 status.
    QByteArray out;
    putBytes(out, 1, span.traceId);
    putBytes(out, 2, span.spanId);
    if (!span.parentSpanId.isEmpty())
        putBytes(out, 4, span.parentSpanId);
    putString(out, 5, span.name);
    putEnum(out, 6, int(span.kind));
    putFixed64(out, 7, quint64(span.startUnixNano));
    putFixed64(out, 8, quint64(span.endUnixNano));
    putAttributes(out, 9, span.attributes);
    for (const SpanEvent &event : span.events) {
        QByteArray e; // Event: 1 time_unix_nano, 2 name, 3 attributes
        putFixed64(e, 1, quint64(event.timeUnixNano));
        putString(e, 2, event.name);
        putAttributes(e, 3, event.attributes);
        putBytes(out, 11, e);
    }
    for (const SpanLink &link : span.links) {
        QByteArray l; // Link: 1 trace_id, 2 span_id, 4 attributes
        putBytes(l, 1, link.traceId);
        putBytes(l, 2, link.spanId);
        putAttributes(l, 4, link.attributes);
        putBytes(out, 13, l);
    }
    if (span.status != StatusCode::Unset || !span.statusMessage.isEmpty()) {
        QByteArray s; // Status: 2 message, 3 code
        putString(s, 2, span.statusMessage);
        putEnum(s, 3, int(span.status));
        putBytes(out, 15, s);
    }
    return out;
}

// --- JSON ------------------------------------------------------------------------------------

QJsonObject anyValueJson(const QVariant &value)
{
    switch (value.typeId()) {
    case QMetaType::Bool:
        return { { u"boolValue"_s, value.toBool() } };
    case QMetaType::Int:
    case QMetaType::LongLong:
    case QMetaType::UInt:
    case QMetaType::ULongLong:
        return { { u"intValue"_s, QString::number(value.toLongLong()) } };
    case QMetaType::Double:
    case QMetaType::Float:
        return { { u"doubleValue"_s, value.toDouble() } };
    case QMetaType::QStringList: {
        QJsonArray values;
        for (const QString &item : value.toStringList())
            values.append(QJsonObject { { u"stringValue"_s, item } });
        return { { u"arrayValue"_s, QJsonObject { { u"values"_s, values } } } };
    }
    default:
        return { { u"stringValue"_s, value.toString() } };
    }
}

QJsonArray attributesJson(const Attributes &attributes)
{
    QJsonArray out;
    for (const Attribute &attribute : attributes)
        out.append(QJsonObject { { u"key"_s, attribute.key },
                                 { u"value"_s, anyValueJson(attribute.value) } });
    return out;
}

QString hex(const QByteArray &bytes)
{
    return QString::fromLatin1(bytes.toHex());
}

QJsonObject spanJson(const Span &span)
{
    QJsonObject out { { u"traceId"_s, hex(span.traceId) },
                      { u"spanId"_s, hex(span.spanId) },
                      { u"name"_s, span.name },
                      { u"kind"_s, int(span.kind) },
                      { u"startTimeUnixNano"_s, QString::number(span.startUnixNano) },
                      { u"endTimeUnixNano"_s, QString::number(span.endUnixNano) },
                      { u"attributes"_s, attributesJson(span.attributes) } };
    if (!span.parentSpanId.isEmpty())
        out.insert(u"parentSpanId"_s, hex(span.parentSpanId));
    if (!span.events.isEmpty()) {
        QJsonArray events;
        for (const SpanEvent &event : span.events)
            events.append(QJsonObject { { u"timeUnixNano"_s, QString::number(event.timeUnixNano) },
                                        { u"name"_s, event.name },
                                        { u"attributes"_s, attributesJson(event.attributes) } });
        out.insert(u"events"_s, events);
    }
    if (!span.links.isEmpty()) {
        QJsonArray links;
        for (const SpanLink &link : span.links)
            links.append(QJsonObject { { u"traceId"_s, hex(link.traceId) },
                                       { u"spanId"_s, hex(link.spanId) },
                                       { u"attributes"_s, attributesJson(link.attributes) } });
        out.insert(u"links"_s, links);
    }
    if (span.status != StatusCode::Unset || !span.statusMessage.isEmpty()) {
        QJsonObject status { { u"code"_s, int(span.status) } };
        if (!span.statusMessage.isEmpty())
            status.insert(u"message"_s, span.statusMessage);
        out.insert(u"status"_s, status);
    }
    return out;
}

// --- reading a response ----------------------------------------------------------------------

// Reads one protobuf message's fields; false on a malformed body.
struct ProtoField
{
    quint32 number = 0;
    quint32 type = 0;
    quint64 varint = 0;
    QByteArray bytes;
};

bool readVarint(const QByteArray &data, qsizetype &pos, quint64 &value)
{
    value = 0;
    for (int shift = 0; shift < 64 && pos < data.size(); shift += 7) {
        const auto byte = quint8(data.at(pos++));
        value |= quint64(byte & 0x7f) << shift;
        if (!(byte & 0x80))
            return true;
    }
    return false;
}

bool readFields(const QByteArray &data, QList<ProtoField> &fields)
{
    qsizetype pos = 0;
    while (pos < data.size()) {
        quint64 key = 0;
        if (!readVarint(data, pos, key))
            return false;
        ProtoField field;
        field.number = quint32(key >> 3);
        field.type = quint32(key & 7);
        switch (field.type) {
        case Varint:
            if (!readVarint(data, pos, field.varint))
                return false;
            break;
        case Fixed64:
            if (pos + 8 > data.size())
                return false;
            pos += 8;
            break;
        case Fixed32:
            if (pos + 4 > data.size())
                return false;
            pos += 4;
            break;
        case LengthDelimited: {
            quint64 length = 0;
            if (!readVarint(data, pos, length) || length > quint64(data.size() - pos))
                return false;
            field.bytes = data.mid(pos, qsizetype(length));
            pos += qsizetype(length);
            break;
        }
        default:
            return false;
        }
        fields.append(field);
    }
    return true;
}

} // namespace

QByteArray encodeTracesProtobuf(const ExportScope &scope, const QList<Span> &spans)
{
    QByteArray resource; // Resource: 1 attributes
    putAttributes(resource, 1, scope.resource);
    QByteArray instrumentation; // InstrumentationScope: 1 name, 2 version
    putString(instrumentation, 1, scope.scopeName);
    putString(instrumentation, 2, scope.scopeVersion);
    QByteArray scopeSpans; // ScopeSpans: 1 scope, 2 spans, 3 schema_url
    putBytes(scopeSpans, 1, instrumentation);
    for (const Span &span : spans)
        putBytes(scopeSpans, 2, spanProto(span));
    putString(scopeSpans, 3, scope.schemaUrl);
    QByteArray resourceSpans; // ResourceSpans: 1 resource, 2 scope_spans, 3 schema_url
    putBytes(resourceSpans, 1, resource);
    putBytes(resourceSpans, 2, scopeSpans);
    putString(resourceSpans, 3, scope.schemaUrl);
    QByteArray request; // ExportTraceServiceRequest: 1 resource_spans
    putBytes(request, 1, resourceSpans);
    return request;
}

QByteArray encodeTracesJson(const ExportScope &scope, const QList<Span> &spans)
{
    QJsonArray spanArray;
    for (const Span &span : spans)
        spanArray.append(spanJson(span));
    QJsonObject instrumentation { { u"name"_s, scope.scopeName } };
    if (!scope.scopeVersion.isEmpty())
        instrumentation.insert(u"version"_s, scope.scopeVersion);
    QJsonObject scopeSpans { { u"scope"_s, instrumentation }, { u"spans"_s, spanArray } };
    QJsonObject resourceSpans {
        { u"resource"_s, QJsonObject { { u"attributes"_s, attributesJson(scope.resource) } } },
        { u"scopeSpans"_s, QJsonArray { scopeSpans } }
    };
    if (!scope.schemaUrl.isEmpty()) {
        scopeSpans.insert(u"schemaUrl"_s, scope.schemaUrl);
        resourceSpans.insert(u"scopeSpans"_s, QJsonArray { scopeSpans });
        resourceSpans.insert(u"schemaUrl"_s, scope.schemaUrl);
    }
    const QJsonObject request { { u"resourceSpans"_s, QJsonArray { resourceSpans } } };
    return QJsonDocument(request).toJson(QJsonDocument::Compact);
}

std::optional<PartialSuccess> readPartialSuccess(const QByteArray &body, bool json)
{
    if (body.trimmed().isEmpty())
        return std::nullopt;
    PartialSuccess result;
    if (json) {
        const QJsonObject partial =
            QJsonDocument::fromJson(body).object().value(u"partialSuccess"_s).toObject();
        if (partial.isEmpty())
            return std::nullopt;
        const QJsonValue rejected = partial.value(u"rejectedSpans"_s);
        result.rejectedSpans =
            rejected.isString() ? rejected.toString().toLongLong() : rejected.toInteger();
        result.errorMessage = partial.value(u"errorMessage"_s).toString();
    } else {
        // ExportTraceServiceResponse: 1 partial_success {1 rejected_spans, 2 error_message}
        QList<ProtoField> fields;
        if (!readFields(body, fields))
            return std::nullopt;
        bool found = false;
        for (const ProtoField &field : fields) {
            if (field.number != 1 || field.type != LengthDelimited)
                continue;
            QList<ProtoField> inner;
            if (!readFields(field.bytes, inner))
                return std::nullopt;
            found = true;
            for (const ProtoField &item : inner) {
                if (item.number == 1 && item.type == Varint)
                    result.rejectedSpans = qint64(item.varint);
                else if (item.number == 2 && item.type == LengthDelimited)
                    result.errorMessage = QString::fromUtf8(item.bytes);
            }
        }
        if (!found)
            return std::nullopt;
    }
    if (result.rejectedSpans == 0 && result.errorMessage.isEmpty())
        return std::nullopt;
    return result;
}

QByteArray gzipCompress(const QByteArray &data)
{
    z_stream stream {};
    // windowBits 15 + 16: a gzip header and trailer around the deflate stream.
    if (deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY)
        != Z_OK)
        return {};
    QByteArray out;
    out.resize(qsizetype(deflateBound(&stream, uLong(data.size()))) + 32);
    stream.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.constData()));
    stream.avail_in = uInt(data.size());
    stream.next_out = reinterpret_cast<Bytef *>(out.data());
    stream.avail_out = uInt(out.size());
    const int result = deflate(&stream, Z_FINISH);
    const qsizetype written = qsizetype(stream.total_out);
    deflateEnd(&stream);
    if (result != Z_STREAM_END)
        return {};
    out.truncate(written);
    return out;
}

} // namespace Callscope::Telemetry
