#pragma once

// The texts the runner sends back to a model. They are part of the wire contract, not the
// user interface, so they are not translated: the same spec sends the same words everywhere.

#include <QJsonValue>
#include <QString>
#include <QStringList>

#include <optional>

namespace Callscope::Corrections {

// A plain-text answer where submit_output was expected: the text is quoted back.
QString plainText(const QString &text);
// An empty reply: carry on with the task.
QString emptyReply(bool expectsSubmitOutput);
// Invalid submit_output arguments: every violation, then the full schema when given.
QString invalidOutput(const QStringList &violations, const QString &schemaText);
// stop_early: the answer was cut off at the first field that can no longer match the schema;
// the violations found, the full schema, then "answer again" (with submit_output in tool mode).
QString stoppedEarly(const QStringList &violations, const QString &schemaText,
                     bool expectsSubmitOutput);
// A reply cut off by the output limit: it ran out of room, answer again shorter.
QString truncated(int maxTokens);
// No schema, output parser json: the text did not parse.
QString notJson(const QString &parseError);

// Prompted mode: the instruction and the schema added to the system prompt.
QString promptedInstruction(const QString &schemaText);
// Native and prompted modes: the answer text does not match the schema; every violation,
// then the full schema.
QString invalidTextOutput(const QStringList &violations, const QString &schemaText);
// Native and prompted modes: the answer text is not JSON.
QString notJsonForSchema(const QString &parseError, const QString &schemaText);

// Prompted mode: the JSON value in a reply; one Markdown code fence is allowed and text
// around it (or around a bare JSON object or array) is ignored.
std::optional<QJsonValue> extractJsonAnswer(const QString &text, QString *error);

// Parses a JSON answer, accepting one surrounding Markdown code fence; `error` names the
// line and column of a parse failure.
std::optional<QJsonValue> parseJsonAnswer(const QString &text, QString *error);

} // namespace Callscope::Corrections
