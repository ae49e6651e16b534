#include "tests/support/fakeotlpcollector.h"

#include <QDir>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>

using namespace Qt::StringLiterals;

namespace Callscope::Test {

QString CollectedSpan::typeOf(const QString &key) const
{
    const QJsonObject value = attributes.value(key).toObject();
    return value.isEmpty() ? QString() : value.keys().constFirst();
}

QString CollectedSpan::string(const QString &key) const
{
    return attributes.value(key).toObject().value(u"stringValue"_s).toString();
}

qint64 CollectedSpan::integer(const QString &key) const
{
    return attributes.value(key).toObject().value(u"intValue"_s).toString().toLongLong();
}

QStringList CollectedSpan::strings(const QString &key) const
{
    QStringList out;
    const QJsonArray values = attributes.value(key)
                                  .toObject()
                                  .value(u"arrayValue"_s)
                                  .toObject()
                                  .value(u"values"_s)
                                  .toArray();
    for (const QJsonValue &value : values)
        out.append(value.toObject().value(u"stringValue"_s).toString());
    return out;
}

FakeOtlpCollector::FakeOtlpCollector()
{
    m_server.setDefaultReply(FakeReply::text(200, QByteArray(), "application/x-protobuf"));
}

namespace {

bool isHex(const QString &text, int length)
{
    static const QRegularExpression hex(u"^[0-9a-f]*$"_s);
    return text.size() == length && hex.match(text).hasMatch();
}

bool isDecimalString(const QJsonValue &value)
{
    static const QRegularExpression digits(u"^-?[0-9]+$"_s);
    return value.isString() && digits.match(value.toString()).hasMatch();
}

void checkKeys(const QJsonValue &value, const QString &where, QStringList *problems)
{
    // OTLP JSON keys are lowerCamelCase; the keys of attribute objects are data, not fields.
    if (value.isArray()) {
        for (const QJsonValue &item : value.toArray())
            checkKeys(item, where, problems);
        return;
    }
    if (!value.isObject())
        return;
    const QJsonObject object = value.toObject();
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (it.key().contains(u'_') || (!it.key().isEmpty() && it.key().at(0).isUpper()))
            problems->append(where + u": key '"_s + it.key() + u"' is not lowerCamelCase"_s);
        checkKeys(it.value(), where, problems);
    }
}

void checkAnyValue(const QJsonObject &value, const QString &where, QStringList *problems)
{
    if (value.size() != 1) {
        problems->append(where + u": an AnyValue holds one field"_s);
        return;
    }
    const QString kind = value.keys().constFirst();
    if (kind == u"intValue" && !isDecimalString(value.value(kind)))
        problems->append(where + u": intValue is not a decimal string"_s);
    else if (kind == u"stringValue" && !value.value(kind).isString())
        problems->append(where + u": stringValue is not a string"_s);
    else if (kind == u"boolValue" && !value.value(kind).isBool())
        problems->append(where + u": boolValue is not a bool"_s);
    else if (kind == u"doubleValue" && !value.value(kind).isDouble())
        problems->append(where + u": doubleValue is not a number"_s);
    else if (kind == u"arrayValue") {
        for (const QJsonValue &item : value.value(kind).toObject().value(u"values"_s).toArray())
            checkAnyValue(item.toObject(), where, problems);
    } else if (kind != u"intValue" && kind != u"stringValue" && kind != u"boolValue"
               && kind != u"doubleValue")
        problems->append(where + u": unexpected AnyValue field "_s + kind);
}

QJsonObject attributeMap(const QJsonArray &attributes, const QString &where, QStringList *problems)
{
    QJsonObject out;
    for (const QJsonValue &item : attributes) {
        const QString key = item.toObject().value(u"key"_s).toString();
        const QJsonObject value = item.toObject().value(u"value"_s).toObject();
        if (out.contains(key))
            problems->append(where + u": attribute "_s + key + u" twice"_s);
        checkAnyValue(value, where + u" "_s + key, problems);
        out.insert(key, value);
    }
    return out;
}

} // namespace

QList<CollectedSpan> FakeOtlpCollector::fromOtlpJson(const QJsonObject &request,
                                                     const QString &protocol, int index,
                                                     QStringList *problems)
{
    QList<CollectedSpan> out;
    const QString where = u"request %1 (%2)"_s.arg(index).arg(protocol);
    checkKeys(request, where, problems);
    for (const QJsonValue &resourceSpans : request.value(u"resourceSpans"_s).toArray()) {
        const QJsonObject resource = attributeMap(resourceSpans.toObject()
                                                      .value(u"resource"_s)
                                                      .toObject()
                                                      .value(u"attributes"_s)
                                                      .toArray(),
                                                  where, problems);
        for (const QJsonValue &scopeSpans :
             resourceSpans.toObject().value(u"scopeSpans"_s).toArray()) {
            for (const QJsonValue &value : scopeSpans.toObject().value(u"spans"_s).toArray()) {
                const QJsonObject span = value.toObject();
                CollectedSpan s;
                s.protocol = protocol;
                s.request = index;
                s.resource = resource;
                s.traceId = span.value(u"traceId"_s).toString();
                s.spanId = span.value(u"spanId"_s).toString();
                s.parentSpanId = span.value(u"parentSpanId"_s).toString();
                s.name = span.value(u"name"_s).toString();
                const QString at = where + u" span '"_s + s.name + u'\'';
                if (!isHex(s.traceId, 32))
                    problems->append(at + u": traceId is not 32 hex digits"_s);
                if (!isHex(s.spanId, 16))
                    problems->append(at + u": spanId is not 16 hex digits"_s);
                if (!s.parentSpanId.isEmpty() && !isHex(s.parentSpanId, 16))
                    problems->append(at + u": parentSpanId is not 16 hex digits"_s);
                if (span.contains(u"kind"_s) && !span.value(u"kind"_s).isDouble())
                    problems->append(at + u": kind is not an integer"_s);
                s.kind = span.value(u"kind"_s).toInt();
                for (const char *field : { "startTimeUnixNano", "endTimeUnixNano" }) {
                    if (!isDecimalString(span.value(QLatin1StringView(field))))
                        problems->append(at + u": "_s + QLatin1StringView(field)
                                         + u" is not a decimal string"_s);
                }
                s.startTimeUnixNano = span.value(u"startTimeUnixNano"_s).toString();
                s.endTimeUnixNano = span.value(u"endTimeUnixNano"_s).toString();
                s.attributes = attributeMap(span.value(u"attributes"_s).toArray(), at, problems);
                s.events = span.value(u"events"_s).toArray();
                for (const QJsonValue &event : std::as_const(s.events))
                    attributeMap(event.toObject().value(u"attributes"_s).toArray(), at, problems);
                s.links = span.value(u"links"_s).toArray();
                const QJsonValue code = span.value(u"status"_s).toObject().value(u"code"_s);
                if (!code.isUndefined() && !code.isDouble())
                    problems->append(at + u": status code is not an integer"_s);
                s.statusCode = code.toInt();
                out.append(s);
            }
        }
    }
    return out;
}

namespace {

// Runs tests/support/otlpdecode.cjs on `body`; its output, or empty with *error.
QByteArray runDecoder(const QByteArray &body, const QStringList &options, QString *error)
{
    const QString node = QStandardPaths::findExecutable(u"node"_s);
    if (node.isEmpty()) {
        *error = u"node is not installed (tools/dev.sh installs nodejs)"_s;
        return {};
    }
    QProcess process;
    process.start(
        node,
        QStringList {
            QDir(QStringLiteral(CALLSCOPE_TEST_SUPPORT_DIR)).filePath(u"otlpdecode.cjs"_s) }
            + options);
    if (!process.waitForStarted(10000)) {
        *error = u"node did not start: "_s + process.errorString();
        return {};
    }
    process.write(body);
    process.closeWriteChannel();
    if (!process.waitForFinished(60000) || process.exitCode() != 0) {
        *error = u"the reference decoder failed: "_s
            + QString::fromUtf8(process.readAllStandardError()).trimmed()
            + u" (is @opentelemetry/otlp-transformer installed in tests/npm? tools/dev.sh "
              "test installs it)"_s;
        return {};
    }
    return process.readAllStandardOutput();
}

} // namespace

QByteArray FakeOtlpCollector::gunzip(const QByteArray &body, QString *error)
{
    if (!body.startsWith("\x1f\x8b")) {
        *error = u"the body is not gzip (no 1f 8b magic)"_s;
        return {};
    }
    return runDecoder(body, { u"--gunzip"_s }, error);
}

QJsonObject FakeOtlpCollector::decodeProtobuf(const QByteArray &body, QString *error)
{
    const QByteArray out = runDecoder(body, {}, error);
    if (!error->isEmpty())
        return {};
    QJsonParseError parse;
    const QJsonDocument document = QJsonDocument::fromJson(out, &parse);
    if (!document.isObject()) {
        *error = u"the reference decoder printed no JSON: "_s + parse.errorString();
        return {};
    }
    return document.object();
}

QList<CollectedSpan> FakeOtlpCollector::spans(QStringList *problems) const
{
    QList<CollectedSpan> out;
    const QList<RecordedRequest> requests = m_server.requests();
    for (int i = 0; i < requests.size(); ++i) {
        const RecordedRequest &request = requests.at(i);
        if (request.path != "/v1/traces") {
            problems->append(
                u"request %1 went to %2"_s.arg(i).arg(QString::fromUtf8(request.path)));
            continue;
        }
        const QByteArray type = request.header("content-type");
        const QByteArray encoding = request.header("content-encoding").trimmed().toLower();
        QByteArray body = request.body;
        if (encoding == "gzip") {
            QString error;
            body = gunzip(request.body, &error);
            if (!error.isEmpty()) {
                problems->append(u"request %1: "_s.arg(i) + error);
                continue;
            }
        } else if (!encoding.isEmpty()) {
            problems->append(
                u"request %1: Content-Encoding '%2'"_s.arg(i).arg(QString::fromLatin1(encoding)));
            continue;
        }
        QList<CollectedSpan> got;
        if (type.startsWith("application/x-protobuf")) {
            QString error;
            const QJsonObject decoded = decodeProtobuf(body, &error);
            if (!error.isEmpty()) {
                problems->append(u"request %1: "_s.arg(i) + error);
                continue;
            }
            got = fromOtlpJson(decoded, u"protobuf"_s, i, problems);
        } else if (type.startsWith("application/json")) {
            const QJsonDocument json = QJsonDocument::fromJson(body);
            if (!json.isObject()) {
                problems->append(u"request %1: the body is not a JSON object"_s.arg(i));
                continue;
            }
            got = fromOtlpJson(json.object(), u"json"_s, i, problems);
        } else {
            problems->append(
                u"request %1: Content-Type '%2'"_s.arg(i).arg(QString::fromLatin1(type)));
            continue;
        }
        for (CollectedSpan &span : got)
            span.encoding = QString::fromLatin1(encoding);
        out.append(got);
    }
    return out;
}

} // namespace Callscope::Test
