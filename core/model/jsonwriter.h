#pragma once

// Compact JSON text of Qt's JSON values, byte for byte what QJsonDocument::toJson(Compact)
// gives, without its memory cost on large strings.
//
// Qt's writer turns every string into UTF-16 before escaping it and grows its output by
// doubling, so a 45 MB string costs about 90 MB of temporary UTF-16 plus the output several
// times over. This writer walks the value as CBOR (which reads Qt's stored string bytes as
// they are), escapes each string straight into the output, and gives the output back at its
// size: the only large allocation is the output itself.

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>

#include <functional>
#include <optional>

namespace Callscope::Json {

QByteArray compact(const QJsonObject &object);
QByteArray compact(const QJsonArray &array);
// Any value: a scalar gives its JSON text ("null" for null and undefined).
QByteArray compact(const QJsonValue &value);

// The compact text handed to `sink` in pieces of about 1 MiB, as it is written, so that not even
// the output is held whole. False when the value cannot be written that way (a scalar, or a
// string the CBOR walk cannot give exactly, see jsonwriter.cpp); the sink may then have had
// part of the text, and the caller uses compact() instead. The pieces of one value are always
// the same, so a first pass can count the bytes and a second write them.
using Sink = std::function<void(const char *data, qsizetype size)>;
bool writeCompact(const QJsonObject &object, const Sink &sink);
bool writeCompact(const QJsonArray &array, const Sink &sink);
bool writeCompact(const QJsonValue &value, const Sink &sink);
// The same for the text indented() gives.
bool writeIndented(const QJsonObject &object, const Sink &sink);

// What QJsonDocument::toJson(Indented) gives: four spaces a level, a newline at the end.
QByteArray indented(const QJsonObject &object);
QByteArray indented(const QJsonArray &array);

// `object` with `key` set to `text`. Qt copies a string several times over on its way into a
// JSON container (through UTF-16 and two temporary values: about four times a long ASCII
// text at once). From kLongString characters on, the object is written as JSON text with the
// string in it and parsed back, which makes the container's own copy and the text only.
constexpr qsizetype kLongString = 64 * 1024;
QJsonObject withString(QJsonObject object, QStringView key, const QString &text);
// The compact text of {key: text}, and an object parsed from such text (empty when it does not
// parse): the parts of withString for a caller that also needs the text.
QByteArray objectText(QStringView key, QStringView text);
QJsonObject parseObject(const QByteArray &json);

// `array` with the one string equal to `placeholder` replaced by the value of `source`, an
// object of one member whose value is a string, made from source's stored bytes (no UTF-16
// copy). Nothing when the placeholder is not there exactly once or source is not such an
// object.
std::optional<QJsonArray> replaceString(const QJsonArray &array, QStringView placeholder,
                                        const QJsonObject &source);

} // namespace Callscope::Json
