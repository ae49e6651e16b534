// callscope-cli validate SCHEMA.json INSTANCE.json [--format-assertion] [--dialect NAME]
//
// Prints {"valid": bool, "errors": [{"instance_path", "keyword_location", "message"}]} on stdout.
// Exit 0 valid, 1 invalid, 2 for bad arguments, an unreadable file or a schema that is itself
// invalid (the message on stderr names the file and the place). Relative $refs resolve against
// the schema file's folder, so a folder of schemas works offline.

#include "app/cli/cliutil.h"
#include "core/schema/jsonschema.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace Callscope::Cli {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Cli)
};

QString validateHelp()
{
    return Tr::tr(
        "Usage: callscope-cli validate SCHEMA.json INSTANCE.json [--format-assertion]\n"
        "                              [--dialect NAME]\n\n"
        "Validates a JSON document against a JSON Schema and prints\n"
        "{\"valid\", \"errors\": [{\"instance_path\", \"keyword_location\", \"message\"}]}.\n"
        "The schema is read in the dialect its \"$schema\" names (draft-04, draft-06,\n"
        "draft-07, 2019-09 or 2020-12); without one it is 2020-12.\n"
        "Relative $refs resolve against the schema file's folder; nothing is fetched\n"
        "from the network.\n\n"
        "Options:\n"
        "  --format-assertion   treat \"format\" (date-time, date, time, duration, email,\n"
        "                       hostname, ipv4, ipv6, uri, uuid) as an assertion\n"
        "  --dialect NAME       read the schema as draft-04, draft-06, draft-07, 2019-09\n"
        "                       or 2020-12, whatever its \"$schema\" says (documents it\n"
        "                       refers to keep their own)\n\n"
        "Exit codes: 0 valid, 1 invalid, 2 bad arguments, an unreadable file or an\n"
        "invalid schema.\n");
}

// Like readJsonFile, but a document may also be a scalar ("true" is a schema, "42" an instance).
std::optional<QJsonValue> readJsonAny(const QString &path, QString *error)
{
    const auto data = readFile(path, error);
    if (!data)
        return std::nullopt;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(*data, &parseError);
    if (parseError.error == QJsonParseError::NoError)
        return doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object());
    QJsonParseError wrappedError;
    const QJsonDocument wrapped = QJsonDocument::fromJson('[' + *data + ']', &wrappedError);
    if (wrappedError.error == QJsonParseError::NoError && wrapped.array().size() == 1)
        return wrapped.array().at(0);
    *error = Tr::tr("%1: invalid JSON at %2: %3")
                 .arg(path, describeOffset(*data, parseError.offset), parseError.errorString());
    return std::nullopt;
}

// Serves the schema's own folder: under file:// URIs, and under its $id's folder when it has one.
SchemaRegistry registryFor(const QJsonValue &schema, const QString &schemaPath)
{
    SchemaRegistry registry;
    registry.setFileAccess(true);
    const QString folder = QFileInfo(schemaPath).absolutePath();
    QString id = schema.toObject().value("$id"_L1).toString();
    if (id.isEmpty() && declaredSchemaDialect(schema) == SchemaDialect::Draft4)
        id = schema.toObject().value("id"_L1).toString(); // draft 4 spells it without "$"
    if (!id.isEmpty()) {
        QUrl base(id);
        if (!base.isRelative() && !base.isLocalFile()) {
            base = base.adjusted(QUrl::RemoveFragment | QUrl::RemoveQuery | QUrl::RemoveFilename);
            registry.addDirectory(base, folder);
        }
    }
    return registry;
}

} // namespace

int runValidate(const QStringList &arguments)
{
    // A --dialect with nothing after it: say which names it takes.
    if (!arguments.isEmpty()
        && (arguments.constLast() == u"--dialect" || arguments.constLast() == u"-dialect")) {
        printError(Tr::tr("validate: --dialect needs a name: draft-04, draft-06, draft-07, "
                          "2019-09 or 2020-12"));
        return ExitUsage;
    }
    QCommandLineParser parser;
    parser.addPositionalArgument(u"schema"_s, Tr::tr("The schema."));
    parser.addPositionalArgument(u"instance"_s, Tr::tr("The document to validate."));
    parser.addOption({ u"format-assertion"_s, Tr::tr("Treat \"format\" as an assertion.") });
    parser.addOption({ u"dialect"_s, Tr::tr("Read the schema in this dialect."), u"NAME"_s });
    if (const auto exit = parseArguments(parser, u"validate"_s, arguments, validateHelp()))
        return *exit;
    SchemaOptions options;
    options.formatAssertion = parser.isSet(u"format-assertion"_s);
    if (parser.isSet(u"dialect"_s)) {
        const QString name = parser.value(u"dialect"_s);
        const auto dialect = schemaDialectFromName(name);
        if (!dialect) {
            printError(Tr::tr("validate: unknown dialect %1; use draft-04, draft-06, draft-07, "
                              "2019-09 or 2020-12")
                           .arg(name));
            return ExitUsage;
        }
        options.dialect = *dialect;
        options.overrideDialect = true;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 2) {
        printError(Tr::tr("validate: expected SCHEMA.json INSTANCE.json (see validate --help)"));
        return ExitUsage;
    }
    const QString schemaPath = positional.at(0);
    const QString instancePath = positional.at(1);

    QString error;
    const auto schema = readJsonAny(schemaPath, &error);
    if (!schema) {
        printError(error);
        return ExitUsage;
    }
    const auto instance = readJsonAny(instancePath, &error);
    if (!instance) {
        printError(error);
        return ExitUsage;
    }

    const SchemaRegistry registry = registryFor(*schema, schemaPath);
    const QUrl baseUri = QUrl::fromLocalFile(QFileInfo(schemaPath).absoluteFilePath());
    const QList<SchemaError> schemaErrors = validateSchema(*schema, registry, baseUri, options);
    if (!schemaErrors.isEmpty()) {
        const SchemaDialect dialect = options.overrideDialect
            ? options.dialect
            : declaredSchemaDialect(*schema).value_or(options.dialect);
        QString message =
            Tr::tr("%1: not a valid JSON Schema (%2):").arg(schemaPath, schemaDialectName(dialect));
        for (const SchemaError &schemaError : schemaErrors) {
            const QString where =
                schemaError.instancePath.isEmpty() ? u"(root)"_s : schemaError.instancePath;
            message += u"\n  "_s + where + u": "_s + schemaError.message;
        }
        printError(message);
        return ExitUsage;
    }

    const CompiledSchema compiled = SchemaCompiler(registry, options).compile(*schema, baseUri);
    if (!compiled.isValid()) {
        printError(Tr::tr("%1: cannot compile the schema:\n  %2")
                       .arg(schemaPath, compiled.errorString().replace(u"\n"_s, u"\n  "_s)));
        return ExitUsage;
    }
    const SchemaValidationResult result = compiled.validate(*instance);
    printJson(QJsonObject { { u"valid"_s, result.valid },
                            { u"errors"_s, schemaErrorsToJson(result.errors) } });
    return result.valid ? ExitOk : ExitFailed;
}

} // namespace Callscope::Cli
