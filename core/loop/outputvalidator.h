#pragma once

// The response schema of a spec, compiled once and checked on every submit_output.

#include "core/schema/jsonschema.h"

#include <QJsonObject>
#include <QStringList>

namespace Callscope {

class OutputValidator
{
public:
    explicit OutputValidator(const QJsonObject &schema);

    bool isValid() const { return m_schema.isValid(); }
    QString compileError() const { return m_schema.errorString(); }
    // Every violation as "<instance pointer>: <message>" ("(root)" for the whole value).
    QStringList validate(const QJsonValue &instance) const;

private:
    CompiledSchema m_schema;
};

} // namespace Callscope
