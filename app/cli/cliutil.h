#pragma once

// Small helpers every callscope-cli command shares: JSON on stdout, messages on stderr,
// reading files with errors that say which file and why.

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonValue>
#include <QString>
#include <QStringList>

#include <optional>

namespace Callscope::Cli {

// Exit codes of every command (README, "Command line").
enum ExitCode : int { ExitOk = 0, ExitFailed = 1, ExitUsage = 2, ExitTurnLimited = 3 };

void printJson(const QJsonValue &value); // indented JSON plus newline on stdout
void printJsonLine(const QJsonValue &value); // compact, one line (batch/jsonl)
void printError(const QString &message); // "callscope-cli: <message>" on stderr

// Reads a whole file; on failure returns nullopt and sets `error` to a message naming the file.
std::optional<QByteArray> readFile(const QString &path, QString *error);
// Reads and parses a JSON file; the error names the file, line and column.
std::optional<QJsonValue> readJsonFile(const QString &path, QString *error);

// "line L, column C" of a byte offset, for parse errors.
QString describeOffset(const QByteArray &data, qsizetype offset);

} // namespace Callscope::Cli
