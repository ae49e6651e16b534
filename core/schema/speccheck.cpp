#include "core/schema/speccheck.h"

#include "core/schema/jsonschema.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QSet>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

// The last token of a JSON Pointer, unescaped ("/properties/a~1b" -> "a/b").
QString lastToken(const QString &pointer)
{
    QString token = pointer.mid(pointer.lastIndexOf(u'/') + 1);
    token.replace(u"~1"_s, u"/"_s);
    token.replace(u"~0"_s, u"~"_s);
    return token;
}

void addSchemaErrors(const QJsonObject &schema, const QString &base, QList<SpecSchemaError> &out)
{
    QSet<QString> seen;
    for (const SchemaError &e : validateSchema(schema)) {
        // The meta-schema reports one violation several ways (each branch of an anyOf); one line
        // per spot of the schema is what a person can act on.
        if (seen.contains(e.instancePath))
            continue;
        seen.insert(e.instancePath);
        SpecSchemaError error;
        error.pointer = base + e.instancePath;
        error.keyword = e.instancePath.isEmpty() ? e.keyword : lastToken(e.instancePath);
        error.message = e.instancePath.isEmpty()
            ? e.message
            : QCoreApplication::translate("Callscope::SpecCheck",
                                          "\"%1\" is not valid JSON Schema here: %2")
                  .arg(error.keyword, e.message);
        out.append(error);
    }
}

bool under(const QString &pointer, const QString &base)
{
    return pointer == base || pointer.startsWith(base + u'/');
}

} // namespace

QString SpecCheck::blockingReason() const
{
    if (!errors.isEmpty())
        return errors.constFirst().toString();
    if (!schemaErrors.isEmpty())
        return schemaErrors.constFirst().pointer + u": "_s + schemaErrors.constFirst().message;
    return {};
}

QList<SpecSchemaError> checkSpecSchemas(const Spec &spec)
{
    QList<SpecSchemaError> out;
    if (spec.responseSchema)
        addSchemaErrors(*spec.responseSchema, u"/response_schema"_s, out);
    for (qsizetype i = 0; i < spec.tools.size(); ++i) {
        if (!spec.tools.at(i).inputSchema.isEmpty())
            addSchemaErrors(spec.tools.at(i).inputSchema, u"/tools/%1/input_schema"_s.arg(i), out);
    }
    return out;
}

SpecCheck checkSpec(const QByteArray &json, const QString &sourcePath,
                    std::optional<EngineType> target, const ProfileLookup &profiles)
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
    EngineSpec &engine = check.spec->engine;
    if (engine.typeFromProfile && !engine.profile.isEmpty() && profiles) {
        if (const std::optional<KnownProfile> profile = profiles(engine.profile))
            engine.type = profile->type;
    }
    check.target = target.value_or(check.spec->engine.type);
    check.schemaErrors = checkSpecSchemas(*check.spec);
    check.findings = lintSpec(*check.spec, check.target, profiles);
    // Advice on a schema that is not valid would be about what it does not say (an "answer"
    // missing from a "required" that is a string): the errors come first. The older-draft forms
    // stay: they are often why the schema is not valid 2020-12, and they give the rewrite.
    QSet<QString> broken;
    for (const SpecSchemaError &e : std::as_const(check.schemaErrors))
        broken.insert(e.pointer.startsWith(u"/response_schema"_s) ? u"/response_schema"_s
                                                                  : e.pointer.section(u'/', 0, 3));
    if (!broken.isEmpty()) {
        check.findings.removeIf([&broken](const LintFinding &f) {
            if (f.rule == u"schema-draft-form")
                return false;
            for (const QString &base : broken) {
                if (under(f.pointer, base))
                    return true;
            }
            return false;
        });
    }
    return check;
}

} // namespace Callscope
