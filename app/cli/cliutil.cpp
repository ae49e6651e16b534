#include "app/cli/cliutil.h"

#include "core/model/boundedread.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonParseError>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace Callscope::Cli {

namespace {
void writeOut(const QByteArray &bytes, FILE *stream)
{
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stream);
    std::fflush(stream);
}

QJsonDocument toDocument(const QJsonValue &value)
{
    if (value.isArray())
        return QJsonDocument(value.toArray());
    if (value.isObject())
        return QJsonDocument(value.toObject());
    return {};
}

QByteArray encode(const QJsonValue &value, QJsonDocument::JsonFormat format)
{
    if (value.isObject() || value.isArray())
        return toDocument(value).toJson(format);
    // Scalars: wrap in an array and strip the brackets.
    QByteArray wrapped = QJsonDocument(QJsonArray { value }).toJson(QJsonDocument::Compact);
    return wrapped.mid(1, wrapped.size() - 2);
}
} // namespace

void printJson(const QJsonValue &value)
{
    QByteArray bytes = encode(value, QJsonDocument::Indented);
    if (!bytes.endsWith('\n'))
        bytes.append('\n');
    writeOut(bytes, stdout);
}

void printJsonLine(const QJsonValue &value)
{
    writeOut(encode(value, QJsonDocument::Compact) + '\n', stdout);
}

void printError(const QString &message)
{
    writeOut(("callscope-cli: "_ba + message.toUtf8() + '\n'), stderr);
}

std::optional<QByteArray> readFile(const QString &path, QString *error)
{
    return readFileBounded(path, MaxInputFileBytes, error);
}

QString describeOffset(const QByteArray &data, qsizetype offset)
{
    qsizetype line = 1;
    qsizetype column = 1;
    for (qsizetype i = 0; i < offset && i < data.size(); ++i) {
        if (data.at(i) == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return QCoreApplication::translate("Cli", "line %1, column %2").arg(line).arg(column);
}

std::optional<QJsonValue> readJsonFile(const QString &path, QString *error)
{
    const auto data = readFile(path, error);
    if (!data)
        return std::nullopt;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(*data, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        if (error)
            *error =
                QCoreApplication::translate("Cli", "%1: invalid JSON at %2: %3")
                    .arg(path, describeOffset(*data, parseError.offset), parseError.errorString());
        return std::nullopt;
    }
    if (doc.isArray())
        return QJsonValue(doc.array());
    return QJsonValue(doc.object());
}

} // namespace Callscope::Cli
