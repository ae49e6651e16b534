#pragma once

// Marks left on a tool call whose arguments, or a tool result whose content, a person edited at
// a pause, so the transcript, the stored call and the diff tell the model's request (and the
// tool's answer) from what ran. A call's mark lives in its providerData under
// "callscope_edited" (codecs read only their own keys, so it never reaches the wire):
// {"model_arguments": {...}, "model_raw_arguments": "..."}, the model's original. A result's
// mark is ToolResult::toolOriginal, the tool's own content and error flag.

#include "core/model/message.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace Callscope {

inline constexpr QLatin1StringView kEditedKey { "callscope_edited" };

inline bool argumentsEdited(const ToolCall &call)
{
    return call.providerData.contains(kEditedKey);
}

// The arguments the model asked for, when a person changed them.
inline std::optional<QJsonObject> modelArguments(const ToolCall &call)
{
    if (!argumentsEdited(call))
        return std::nullopt;
    return call.providerData.value(kEditedKey)
        .toObject()
        .value(QLatin1StringView("model_arguments"))
        .toObject();
}

inline bool resultEdited(const ToolResult &result)
{
    return result.toolOriginal.has_value();
}

// Gives `result` the edited content and error flag and keeps the tool's own answer beside
// them (the first answer is kept when a result is edited twice; editing it back to the tool's
// answer drops the mark).
void applyEditedResult(ToolResult &result, const QString &content, bool isError);

// Gives `call` the edited arguments and keeps the model's own beside them (the first original
// is kept when a call is edited twice).
void applyEditedArguments(ToolCall &call, const QJsonObject &arguments);

} // namespace Callscope
