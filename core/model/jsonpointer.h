#pragma once

// RFC 6901 JSON Pointers: building them for error locations and resolving them in documents.

#include <QJsonValue>
#include <QString>
#include <QStringList>

#include <optional>

namespace Callscope::JsonPointer {

QString escapeToken(QStringView token);
QString unescapeToken(QStringView token);
QString append(const QString &pointer, QStringView token);
QString append(const QString &pointer, qsizetype index);
// Splits "/a/b~1c" into {"a", "b/c"}; nullopt for a string that is not a pointer.
std::optional<QStringList> split(QStringView pointer);
// The value at `pointer` in `document`, or nullopt when the path does not exist.
std::optional<QJsonValue> resolve(const QJsonValue &document, QStringView pointer);

} // namespace Callscope::JsonPointer
