#pragma once

// JSON Schema validation: drafts 4, 6 and 7, 2019-09 and 2020-12.
//
// Each schema resource is read in the dialect its `$schema` names (a document without one in
// SchemaOptions::dialect, 2020-12 unless set); a document reached by `$ref` that names none
// keeps the dialect of the schema that referred to it.
//
// A schema is compiled once by SchemaCompiler (base URIs, anchors, $ref/$dynamicRef targets,
// remote documents from a SchemaRegistry, never the network) into a CompiledSchema, which is
// immutable: validate() may run on many threads at once. Instances are walked as a JsonTape
// (parsed from text, or copied from a QJsonValue). Errors name every violation with a JSON
// Pointer into the instance, the keyword location in the schema and a short message written
// for a model to act on. docs/schema-validator.md describes the design.

#include <QHash>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QUrl>

#include <functional>
#include <memory>
#include <optional>

namespace Callscope {

class JsonTape;

// The JSON Schema dialects the validator knows, oldest first.
enum class SchemaDialect : quint8 { Draft4, Draft6, Draft7, Draft201909, Draft202012 };

// "draft-04", "draft-06", "draft-07", "2019-09", "2020-12".
QString schemaDialectName(SchemaDialect dialect);
// Accepts the names above, "draft4"/"4", "draft2019-09" and the meta-schema URIs.
std::optional<SchemaDialect> schemaDialectFromName(QStringView name);
// The dialect a `$schema` URI names (with or without "#", http or https); nullopt for others.
std::optional<SchemaDialect> schemaDialectOfUri(QStringView uri);
// The official meta-schema URI of a dialect.
QUrl schemaDialectUri(SchemaDialect dialect);
// The dialect `schema` declares at its root with `$schema` (a known URI), else nullopt.
std::optional<SchemaDialect> declaredSchemaDialect(const QJsonValue &schema);

struct SchemaError
{
    QString instancePath; // JSON Pointer into the instance ("" is the whole instance)
    QString
        keywordLocation; // path of the failing keyword through the schema ("/properties/a/type")
    QString message; // "expected a string, got 7"
    QString keyword; // the failing keyword ("type", "required", "anyOf", ...)

    bool operator==(const SchemaError &other) const = default;
};

struct SchemaValidationResult
{
    bool valid = true;
    QList<SchemaError> errors;
};

// Documents a schema may reference by URI. The meta-schemas of every dialect are always known.
// Copies are cheap and share nothing mutable with the compiled schemas made from them.
class SchemaRegistry
{
public:
    using Loader = std::function<std::optional<QJsonValue>(const QUrl &uri)>;

    SchemaRegistry();

    // Registers one document under `uri` (fragment ignored).
    void addDocument(const QUrl &uri, const QJsonValue &document);
    // Serves the JSON files under `directory` as `baseUri` + relative path, read when first needed
    // ("http://localhost:1234/" + "draft2020-12/tree.json").
    void addDirectory(const QUrl &baseUri, const QString &directory);
    // Called for a URI nothing else knows; returns the document or nullopt.
    void setLoader(Loader loader);
    // Serves file:// URIs from the local disk (off by default).
    void setFileAccess(bool allowed);

    // The document registered for `uri` (fragment ignored), loading it when needed.
    std::optional<QJsonValue> document(const QUrl &uri) const;

    // The official URI of the 2020-12 meta-schema.
    static QUrl metaSchemaUri();

private:
    QHash<QString, QJsonValue> m_documents;
    QList<std::pair<QString, QString>> m_directories; // (base URI, folder)
    Loader m_loader;
    bool m_fileAccess = false;
};

struct SchemaOptions
{
    bool formatAssertion = false; // assert the known formats instead of only annotating them
    int maxDepth = 512; // nesting of instance and schema evaluation
    int maxErrors = 1000; // stop collecting after this many violations
    // Evaluation steps one instance may take (plus 64 per node of the instance): beyond it the
    // check stops with "this schema is too expensive to check".
    qint64 stepBudget = 2000000;
    // The dialect of a schema document that names none with `$schema`.
    SchemaDialect dialect = SchemaDialect::Draft202012;
    // Read the root document in `dialect` even when its `$schema` names another one (documents
    // it refers to keep their own).
    bool overrideDialect = false;
};

// Stops every validation in progress and every later one (the program ends: SIGTERM, Ctrl+C);
// a stopped validation fails with "the check was stopped". Async-signal-safe: it only stores
// to a lock-free atomic, so a signal handler may call it.
void stopAllValidation();
bool validationStopped();

namespace SchemaDetail {
struct Compiled;
}

class CompiledSchema
{
public:
    CompiledSchema();

    // False when compiling failed (unresolvable $ref, invalid pattern, malformed keyword, nesting
    // too deep); compileErrors() says why and where (keywordLocation). validate() on an invalid
    // schema returns those errors.
    bool isValid() const;
    QList<SchemaError> compileErrors() const;
    QString errorString() const; // compile errors, one per line

    // Every violation of `instance`. Thread-safe on a const object.
    SchemaValidationResult validate(const QJsonValue &instance) const;
    // Only the verdict, faster (stops at the first violation).
    bool accepts(const QJsonValue &instance) const;

    // The same over a parsed tape (`root` is the instance's node): the fast path, which
    // allocates nothing on a valid instance. The QJsonValue overloads serialise the value into a
    // per-thread tape first.
    SchemaValidationResult validate(const JsonTape &tape, qsizetype root) const;
    bool accepts(const JsonTape &tape, qsizetype root) const;

private:
    friend class SchemaCompiler;
    std::shared_ptr<const SchemaDetail::Compiled> m_data;
    QList<SchemaError> m_compileErrors;
};

class SchemaCompiler
{
public:
    SchemaCompiler() = default;
    explicit SchemaCompiler(const SchemaRegistry &registry, const SchemaOptions &options = {});

    void setOptions(const SchemaOptions &options) { m_options = options; }
    const SchemaOptions &options() const { return m_options; }

    // `baseUri` is the retrieval URI of the schema (its file, say) used when it has no $id.
    CompiledSchema compile(const QJsonValue &schema, const QUrl &baseUri = {}) const;

private:
    SchemaRegistry m_registry;
    SchemaOptions m_options;
};

// Checks `schema` against the meta-schema of its dialect (options.dialect when it names none,
// or always with options.overrideDialect), that it compiles (refs resolve, patterns
// are valid regular expressions) and that it has no reference cycle that consumes no input (no
// value could ever be valid where one is reached). Empty list when the schema is usable.
// `registry` serves the documents its $refs point to when compiling.
QList<SchemaError> validateSchema(const QJsonValue &schema, const SchemaRegistry &registry = {},
                                  const QUrl &baseUri = {}, const SchemaOptions &options = {});

// The list as the tool-error text sent back to the model: one line per violation,
// "/steps/2: expected a string, got 7" ("(root)" for the whole instance).
QString formatErrorsForModel(const QList<SchemaError> &errors, int maxLines = 50);

// Converts errors to [{"instance_path", "keyword_location", "message"}].
QJsonValue schemaErrorsToJson(const QList<SchemaError> &errors);

} // namespace Callscope
