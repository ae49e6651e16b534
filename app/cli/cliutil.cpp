#include "app/cli/cliutil.h"

#include "core/model/boundedread.h"

#include <QCommandLineParser>
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

std::optional<int> parseArguments(QCommandLineParser &parser, const QString &command,
                                  const QStringList &arguments, const QString &help)
{
    const QCommandLineOption helpOption({ u"h"_s, u"help"_s },
                                        QCoreApplication::translate("Cli", "Show this help."));
    parser.addOption(helpOption);
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    if (!parser.parse(QStringList { u"callscope-cli "_s + command } + arguments)) {
        // --help wins over anything else wrong on the line.
        if (arguments.contains(u"--help"_s) || arguments.contains(u"-h"_s)) {
            std::fputs(help.toLocal8Bit().constData(), stdout);
            return int(ExitOk);
        }
        const QStringList unknown = parser.unknownOptionNames();
        if (!unknown.isEmpty()) {
            const QString name = unknown.first();
            printError(QCoreApplication::translate("Cli", "%1: unknown option %2 (see %1 --help)")
                           .arg(command, (name.size() == 1 ? u"-"_s : u"--"_s) + name));
        } else {
            printError(u"%1: %2"_s.arg(command, parser.errorText()));
        }
        return int(ExitUsage);
    }
    if (parser.isSet(helpOption)) {
        std::fputs(help.toLocal8Bit().constData(), stdout);
        return int(ExitOk);
    }
    return std::nullopt;
}

} // namespace Callscope::Cli
