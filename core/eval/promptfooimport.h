#pragma once

// A promptfoo configuration (promptfooconfig.yaml) read as a Callscope experiment.
//
// Prompts become the variants' "input" (and "system_prompt" for a chat prompt's system
// message), crossed with the providers (each an engine); tests become the dataset rows with their
// vars, defaultTest the experiment's own assertions and the vars every row starts from.
// What has no counterpart here (Python assertions, embeddings, red-team plugins, providers
// without a Callscope engine, prompts written as programs) is listed with its place,
// "promptfooconfig.yaml:14 /tests/2/assert/0", and left out of the experiment.

#include "core/eval/experiment.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace Callscope {

struct PromptfooConversion
{
    std::optional<QJsonObject> experiment; // a Callscope experiment, without the unsupported parts
    QList<ExperimentError> unsupported; // what was left out, where it is and why
    QList<ExperimentError> errors; // the file cannot be read as a configuration at all
};

// Whether `path` names a promptfoo configuration (a .yaml or .yml file).
bool isPromptfooConfig(const QString &path);

// Reads the configuration and every file it names (prompt, test and schema files, relative to
// its folder). Sends nothing and runs nothing.
PromptfooConversion convertPromptfooConfig(const QString &path);

} // namespace Callscope
