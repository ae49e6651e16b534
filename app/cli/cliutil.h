#pragma once

// Small helpers every callscope-cli command shares: JSON on stdout, messages on stderr,
// reading files with errors that say which file and why.

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonValue>
#include <QString>
#include <QStringList>

#include <optional>

class QCommandLineParser;

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

// How every command reads its arguments: QCommandLineParser (long options, also written with
// one dash, "--name VALUE" or "--name=VALUE") plus --help / -h, which prints `help` on stdout.
// Returns the exit code when the command ends here (0 after the help; 2 after saying on stderr
// what is wrong, such as an unknown option or a missing value), nullopt to go on.
std::optional<int> parseArguments(QCommandLineParser &parser, const QString &command,
                                  const QStringList &arguments, const QString &help);

// "line L, column C" of a byte offset, for parse errors.
QString describeOffset(const QByteArray &data, qsizetype offset);

} // namespace Callscope::Cli
