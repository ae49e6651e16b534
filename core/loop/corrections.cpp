#include "core/loop/corrections.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace Callscope::Corrections {

namespace {
constexpr qsizetype kQuoteLimit = 4000;

QString quoted(const QString &text)
{
    QString body = text.size() > kQuoteLimit ? text.left(kQuoteLimit) + u"\n[…]"_s : text;
    QString out;
    for (QStringView line : QStringView(body).split(u'\n'))
        out += u"> "_s + line + u'\n';
    return out;
}
} // namespace

QString plainText(const QString &text)
{
    return u"You answered in plain text:\n\n"_s + quoted(text)
        + u"\nThat does not finish the task. Call the submit_output tool with your answer as its "
          u"arguments; it is the only way to return the result."_s;
}

QString emptyReply(bool expectsSubmitOutput)
{
    if (expectsSubmitOutput)
        return u"Your reply was empty. Carry on with the task, and call submit_output with the "
               u"result when you are done."_s;
    return u"Your reply was empty. Carry on with the task and give your answer."_s;
}

QString invalidOutput(const QStringList &violations, const QString &schemaText)
{
    QString text = u"The submitted output does not match the response schema ("_s
        + QString::number(violations.size())
        + (violations.size() == 1 ? u" problem):\n"_s : u" problems):\n"_s);
    for (const QString &v : violations)
        text += u"- "_s + v + u'\n';
    if (!schemaText.isEmpty())
        text += u"\nThe full schema the output must match:\n"_s + schemaText + u'\n';
    text += u"Fix every problem and call submit_output again."_s;
    return text;
}

QString stoppedEarly(const QStringList &violations, const QString &schemaText,
                     bool expectsSubmitOutput)
{
    QString text = u"Your answer was stopped while you were writing it: it can no longer match "
                   u"the response schema ("_s
        + QString::number(violations.size())
        + (violations.size() == 1 ? u" problem):\n"_s : u" problems):\n"_s);
    for (const QString &v : violations)
        text += u"- "_s + v + u'\n';
    text += u"\nThe part you wrote is above."_s;
    if (!schemaText.isEmpty())
        text += u" The full schema the answer must match:\n"_s + schemaText + u'\n';
    else
        text += u'\n';
    text += expectsSubmitOutput
        ? u"Fix the problem and call submit_output again with the whole answer."_s
        : u"Fix the problem and give the whole answer again."_s;
    return text;
}

QString truncated(int maxTokens)
{
    QString limit = maxTokens > 0
        ? u" (the limit is "_s + QString::number(maxTokens) + u" tokens)"_s
        : QString();
    return u"Your reply was cut off because it ran out of room"_s + limit
        + u". Your partial reply is above. Answer again from the start, more briefly: keep every "
          u"value short and leave out anything that is not asked for."_s;
}

QString notJson(const QString &parseError)
{
    return u"Your reply is not valid JSON ("_s + parseError
        + u"). Reply with only the JSON value, with no text around it."_s;
}

QString promptedInstruction(const QString &schemaText)
{
    return u"Answer with one JSON value that matches the JSON Schema below. Reply with the JSON "
           u"only, optionally inside one ```json code block; nothing you write outside it is "
           u"read.\n\nJSON Schema:\n"_s
        + schemaText;
}

QString invalidTextOutput(const QStringList &violations, const QString &schemaText)
{
    QString text = u"Your answer does not match the response schema ("_s
        + QString::number(violations.size())
        + (violations.size() == 1 ? u" problem):\n"_s : u" problems):\n"_s);
    for (const QString &v : violations)
        text += u"- "_s + v + u'\n';
    if (!schemaText.isEmpty())
        text += u"\nThe full schema the answer must match:\n"_s + schemaText + u'\n';
    text += u"Fix every problem and answer again with the whole corrected JSON value only."_s;
    return text;
}

QString notJsonForSchema(const QString &parseError, const QString &schemaText)
{
    QString text = u"Your answer is not valid JSON ("_s + parseError + u")."_s;
    if (!schemaText.isEmpty())
        text +=
            u" The answer must be one JSON value matching this schema:\n"_s + schemaText + u'\n';
    text += u"Answer again with the JSON value only."_s;
    return text;
}

std::optional<QJsonValue> extractJsonAnswer(const QString &text, QString *error)
{
    QString firstError;
    if (auto whole = parseJsonAnswer(text, &firstError))
        return whole;
    static const QRegularExpression fenced(u"```[A-Za-z0-9_-]*[ \t]*\n(.*?)```"_s,
                                           QRegularExpression::DotMatchesEverythingOption);
    QStringList blocks;
    for (auto it = fenced.globalMatch(text); it.hasNext();)
        blocks.append(it.next().captured(1));
    if (blocks.size() > 1) {
        if (error)
            *error = u"the reply has "_s + QString::number(blocks.size())
                + u" code blocks; give the answer in one"_s;
        return std::nullopt;
    }
    if (blocks.size() == 1)
        return parseJsonAnswer(blocks.first(), error);
    // No fence: the outermost object or array, with the prose around it ignored.
    const qsizetype open = text.indexOf(QRegularExpression(u"[\\[{]"_s));
    if (open >= 0) {
        const QChar close = text.at(open) == u'{' ? u'}' : u']';
        const qsizetype end = text.lastIndexOf(close);
        if (end > open) {
            if (auto inner = parseJsonAnswer(text.mid(open, end - open + 1), error))
                return inner;
            return std::nullopt;
        }
    }
    if (error)
        *error = firstError;
    return std::nullopt;
}

std::optional<QJsonValue> parseJsonAnswer(const QString &text, QString *error)
{
    QString body = text.trimmed();
    static const QRegularExpression fence(u"^```[A-Za-z0-9_-]*\\s*\\n(.*)\\n```$"_s,
                                          QRegularExpression::DotMatchesEverythingOption);
    const auto match = fence.match(body);
    if (match.hasMatch())
        body = match.captured(1).trimmed();
    const QByteArray utf8 = body.toUtf8();
    // Wrap so scalars parse too, and report positions relative to the answer itself.
    const QByteArray wrapped = "[" + utf8 + "]";
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(wrapped, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isArray() || doc.array().size() != 1) {
        if (error) {
            qsizetype offset = std::max<qsizetype>(0, parseError.offset - 1);
            qsizetype line = 1, column = 1;
            for (qsizetype i = 0; i < offset && i < utf8.size(); ++i) {
                if (utf8.at(i) == '\n') {
                    ++line;
                    column = 1;
                } else {
                    ++column;
                }
            }
            *error = u"line "_s + QString::number(line) + u", column "_s + QString::number(column)
                + u": "_s
                + (parseError.error == QJsonParseError::NoError ? u"more than one value"_s
                                                                : parseError.errorString());
        }
        return std::nullopt;
    }
    return doc.array().at(0);
}

} // namespace Callscope::Corrections
