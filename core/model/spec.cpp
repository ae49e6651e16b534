#include "core/model/spec.h"

#include <QDir>
#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {
constexpr EngineType kAllEngineTypes[] = {
    EngineType::OpenAI, EngineType::OpenAIResponses,  EngineType::Anthropic,
    EngineType::Gemini, EngineType::OpenAICompatible, EngineType::Replay
};
}

QString engineTypeName(EngineType type)
{
    switch (type) {
    case EngineType::OpenAI:
        return u"openai"_s;
    case EngineType::OpenAIResponses:
        return u"openai-responses"_s;
    case EngineType::Anthropic:
        return u"anthropic"_s;
    case EngineType::Gemini:
        return u"gemini"_s;
    case EngineType::OpenAICompatible:
        return u"openai-compatible"_s;
    case EngineType::Replay:
        return u"replay"_s;
    }
    return {};
}

std::optional<EngineType> engineTypeFromName(QStringView name)
{
    for (EngineType t : kAllEngineTypes) {
        if (engineTypeName(t) == name)
            return t;
    }
    return std::nullopt;
}

QStringList engineTypeNames()
{
    QStringList names;
    for (EngineType t : kAllEngineTypes)
        names.append(engineTypeName(t));
    return names;
}

QString outputModeName(OutputMode mode)
{
    switch (mode) {
    case OutputMode::Tool:
        return u"tool"_s;
    case OutputMode::Native:
        return u"native"_s;
    case OutputMode::Prompted:
        return u"prompted"_s;
    }
    return {};
}

std::optional<OutputMode> outputModeFromName(QStringView name)
{
    for (OutputMode m : { OutputMode::Tool, OutputMode::Native, OutputMode::Prompted }) {
        if (outputModeName(m) == name)
            return m;
    }
    return std::nullopt;
}

const ToolSpec *Spec::tool(QStringView name) const
{
    for (const ToolSpec &t : tools) {
        if (t.name == name)
            return &t;
    }
    return nullptr;
}

QString Spec::resolvePath(const QString &path) const
{
    if (path.isEmpty() || sourcePath.isEmpty() || QDir::isAbsolutePath(path))
        return path;
    return QDir::cleanPath(QFileInfo(sourcePath).absoluteDir().filePath(path));
}

} // namespace Callscope
