#include "core/loop/outputvalidator.h"

using namespace Qt::StringLiterals;

namespace Callscope {

OutputValidator::OutputValidator(const QJsonObject &schema)
    : m_schema(SchemaCompiler().compile(schema))
{
}

QStringList OutputValidator::validate(const QJsonValue &instance) const
{
    QStringList lines;
    const SchemaValidationResult result = m_schema.validate(instance);
    for (const SchemaError &e : result.errors)
        lines.append((e.instancePath.isEmpty() ? u"(root)"_s : e.instancePath) + u": "_s + e.message);
    return lines;
}

} // namespace Callscope
