#pragma once

// Adds a variant to an experiment file without rewriting the rest of it: the new variant goes
// after the last one of "variants", indented like its neighbours, with "name" first; a file
// with no "variants" gets the array, holding the variant it ran so far (the spec as it is)
// and the new one. The file's other text, key order and spacing stay as they were.

#include "core/model/spec.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace Callscope {

struct Experiment;

// The variant as JSON text: one line when short, else one key a line at `indent` + 2.
QString variantText(const QJsonObject &variant, int indent);

// The experiment text with `variant` added; `defaultName` names the spec-as-is variant when the
// text has no "variants" yet. nullopt with `error` set when the text is not a JSON object.
std::optional<QString> insertVariant(const QString &text, const QJsonObject &variant,
                                     const QString &defaultName, QString *error);

// A variant holding what `spec` changes over the experiment's spec: every top-level field
// whose value differs, whole. `dropped` lists fields the experiment's spec has and `spec` has
// not (a variant cannot remove a field; they stay as the experiment's spec has them).
QJsonObject variantFromSpec(const QString &name, const Experiment &experiment, const Spec &spec,
                            QStringList *dropped = nullptr);
QJsonObject variantFromCall(const QString &name, qint64 callId);

// Writes the file with the variant added (atomically); the error otherwise.
std::optional<QString> addVariantToFile(const QString &path, const QJsonObject &variant,
                                        const QString &defaultName);

} // namespace Callscope
