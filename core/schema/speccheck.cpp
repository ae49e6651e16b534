#include "core/schema/speccheck.h"

#include <QJsonDocument>
#include <QJsonParseError>

namespace Callscope {

SpecCheck checkSpec(const QByteArray &json, const QString &sourcePath, std::optional<EngineType> target)
{
    SpecCheck check;
    SpecLoadResult loaded = loadSpec(json, sourcePath);
    if (!loaded.ok()) {
        check.errors = std::move(loaded.errors);
        QJsonParseError parseError;
        QJsonDocument::fromJson(json, &parseError);
        if (parseError.error != QJsonParseError::NoError)
            check.syntaxErrorPosition = QString::fromUtf8(json.left(parseError.offset)).size();
        check.target = target.value_or(EngineType::OpenAI);
        return check;
    }
    check.spec = std::move(loaded.spec);
    check.target = target.value_or(check.spec->engine.type);
    check.findings = lintSpec(*check.spec, check.target);
    return check;
}

} // namespace Callscope
