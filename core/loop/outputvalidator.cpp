#include "core/loop/outputvalidator.h"

#include "core/schema/jsontape.h"

using namespace Qt::StringLiterals;

namespace Callscope {

OutputValidator::OutputValidator(const QJsonObject &schema)
    : m_schema(SchemaCompiler().compile(schema))
{ }

namespace {

QStringList linesOf(const SchemaValidationResult &result)
{
    QStringList lines;
    for (const SchemaError &e : result.errors)
        lines.append((e.instancePath.isEmpty() ? u"(root)"_s : e.instancePath) + u": "_s
                     + e.message);
    return lines;
}

} // namespace

QStringList OutputValidator::validate(const QJsonValue &instance) const
{
    return linesOf(m_schema.validate(instance));
}

QStringList OutputValidator::validateJson(QByteArrayView json) const
{
    JsonTape tape;
    JsonTape::ParseError error;
    const qsizetype root = tape.append(json, &error);
    if (root < 0)
        return { u"(root): "_s + error.message };
    return linesOf(m_schema.validate(tape, root));
}

} // namespace Callscope
