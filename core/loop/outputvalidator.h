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
    // The same for an instance given as JSON text (it must parse): no Qt container, and no
    // UTF-16 copy of its strings, is made on the way.
    QStringList validateJson(QByteArrayView json) const;

private:
    CompiledSchema m_schema;
};

} // namespace Callscope
