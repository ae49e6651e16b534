#pragma once

// Loading, validating and saving spec files.
//
// Loading collects every problem it finds, not only the first; each error names the JSON
// Pointer of the offending value (or of the object that misses a field) and says in plain
// words what was expected. Fields the loader does not know are kept, at every level, and
// written back on save.
//
// Decisions the file format leaves open (documented here because users meet them as errors):
// - `null` is the same as a missing field, except where null has its own meaning
//   (`tool_results_in_context: null` sends every tool result in full).
// - A tool entry needs exactly one runner: `command`, `mcp`, `manual: true` or `mock`.
//   Tools that an MCP server offers with `"expose": "all"` need no entry at all.
// - A pre-seed must name a tool entry, unless some MCP server exposes all its tools (the
//   name can then only be checked once the server lists them).
// - `submit_output` is reserved for the response schema's tool and cannot name a tool.
// - `text_output` needs a `response_schema`: it maps a plain-text answer onto the
//   arguments of `submit_output`.
// - Without "type", the engine type comes from `profile`; with neither, it is `openai`.

#include "core/model/spec.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace Callscope {

struct SpecError
{
    QString pointer; // "" is the whole document
    QString message;

    // "/tools/2/input_schema: expected an object, got a string"; a bare message for "".
    QString toString() const;

    friend bool operator==(const SpecError &, const SpecError &) = default;
};

struct SpecLoadResult
{
    std::optional<Spec> spec; // set only when errors is empty
    QList<SpecError> errors;

    bool ok() const { return spec.has_value(); }
};

// Parses and validates spec JSON. `sourcePath` becomes Spec::sourcePath (used to resolve
// relative paths); it does not appear in error pointers.
SpecLoadResult loadSpec(const QByteArray &json, const QString &sourcePath = {});
// Validates an already parsed document.
SpecLoadResult specFromJson(const QJsonObject &object, const QString &sourcePath = {});
// Reads and loads a file; an unreadable file gives one error with pointer "".
SpecLoadResult loadSpecFile(const QString &path);

// The spec as a JSON document: fields that differ from their defaults (plus kind, the
// system prompt and the engine type), then every unknown field kept from loading.
// loadSpec(saveSpec(s), s.sourcePath) gives back a spec equal to s.
QJsonObject specToJson(const Spec &spec);
QByteArray saveSpec(const Spec &spec); // indented JSON text with a final newline
// Writes atomically (QSaveFile). Returns an error message, or nullopt on success.
std::optional<QString> saveSpecFile(const Spec &spec, const QString &path);

// "an object", "a string", ... for messages.
QString jsonTypeDescription(const QJsonValue &value);

// The field names the spec format knows, per object: what the loader reads and what lint
// compares an unknown field with (a typo gets the nearest known name).
enum class SpecSection { Root, Engine, Retry, Context, Tool, McpServer };
QStringList knownSpecFields(SpecSection section);

} // namespace Callscope
