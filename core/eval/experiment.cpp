#include "core/eval/experiment.h"

#include "core/eval/assertions.h"
#include "core/eval/promptfooimport.h"
#include "core/eval/scripting.h"
#include "core/model/boundedread.h"
#include "core/model/specio.h"
#include "core/store/callstore.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Experiment)
};

// Line and column of a byte offset, 1-based.
QString lineColumn(const QByteArray &data, qsizetype offset)
{
    int line = 1;
    int column = 1;
    for (qsizetype i = 0; i < offset && i < data.size(); ++i) {
        if (data[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return u"%1:%2"_s.arg(line).arg(column);
}

QList<Assertion> readAssertions(const QJsonValue &value, const QString &where,
                                QList<ExperimentError> *errors)
{
    QList<Assertion> out;
    if (value.isUndefined())
        return out;
    if (!value.isArray()) {
        errors->append({ where, Tr::tr("must be an array of assertions") });
        return out;
    }
    const QJsonArray array = value.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString at = where + u'/' + QString::number(i);
        if (!array.at(i).isObject()) {
            errors->append({ at, Tr::tr("an assertion is an object with a \"type\"") });
            continue;
        }
        const QJsonObject object = array.at(i).toObject();
        Assertion a;
        a.type = object.value(u"type"_s).toString();
        a.name = object.value(u"name"_s).toString(a.type);
        a.weight = object.value(u"weight"_s).toDouble(1);
        a.params = object;
        a.where = at;
        if (object.contains(u"weight"_s)
            && (!object.value(u"weight"_s).isDouble() || a.weight < 0)) {
            errors->append({ at + u"/weight"_s, Tr::tr("must be a number, 0 or more") });
            continue;
        }
        if (!object.value(u"type"_s).isString()) {
            errors->append({ at + u"/type"_s,
                             Tr::tr("missing; one of: %1").arg(assertionTypes().join(u", "_s)) });
            continue;
        }
        if (const QString problem = checkAssertion(a); !problem.isEmpty()) {
            errors->append({ at, problem });
            continue;
        }
        out.append(a);
    }
    return out;
}

std::optional<DatasetRow> readRow(const QJsonObject &object, const QString &where,
                                  const QString &baseDir, int index, QList<ExperimentError> *errors)
{
    DatasetRow row;
    row.where = where;
    row.id = object.value(u"id"_s).isString() ? object.value(u"id"_s).toString()
        : object.value(u"id"_s).isDouble()    ? QString::number(object.value(u"id"_s).toInteger())
                                              : u"case-%1"_s.arg(index + 1);
    const QJsonValue input = object.value(u"input"_s);
    if (!input.isUndefined() && !input.isString()) {
        errors->append({ where, Tr::tr("a row needs a string \"input\"") });
        return std::nullopt;
    }
    // Whether a row without one is usable depends on the variants; checked once they are read.
    row.hasInput = input.isString();
    row.input = input.toString();
    const QJsonValue vars = object.value(u"vars"_s);
    if (!vars.isUndefined() && !vars.isObject()) {
        errors->append({ where, Tr::tr("\"vars\" must be an object") });
        return std::nullopt;
    }
    row.vars = vars.toObject();
    for (const QJsonValue &p : object.value(u"attachments"_s).toArray()) {
        if (!p.isString()) {
            errors->append({ where, Tr::tr("\"attachments\" must be an array of file paths") });
            return std::nullopt;
        }
        row.attachments.append(QDir(baseDir).absoluteFilePath(p.toString()));
    }
    row.expected = object.value(u"expected"_s);
    const QJsonValue critical = object.value(u"critical"_s);
    if (!critical.isUndefined() && !critical.isBool()) {
        errors->append({ where, Tr::tr("\"critical\" must be true or false") });
        return std::nullopt;
    }
    row.critical = critical.toBool();
    const QJsonValue transform = object.value(u"transform"_s);
    if (!transform.isUndefined()) {
        if (!transform.isString()) {
            errors->append(
                { where + u" /transform"_s, Tr::tr("\"transform\" must be a JavaScript string") });
            return std::nullopt;
        }
        if (const QString error = checkScriptSyntax(transform.toString()); !error.isEmpty()) {
            errors->append({ where + u" /transform"_s, error });
            return std::nullopt;
        }
        row.transform = transform.toString();
    }
    row.asserts = readAssertions(object.value(u"assert"_s), where + u" /assert"_s, errors);
    return row;
}

// A CSV line split into fields (RFC 4180 quoting, "" is a quote inside quotes).
QStringList splitCsv(const QString &line, bool *ok)
{
    QStringList fields;
    QString field;
    bool quoted = false;
    *ok = true;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line.at(i);
        if (quoted) {
            if (c == u'"') {
                if (i + 1 < line.size() && line.at(i + 1) == u'"') {
                    field += u'"';
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                field += c;
            }
        } else if (c == u'"' && field.isEmpty()) {
            quoted = true;
        } else if (c == u',') {
            fields.append(field);
            field.clear();
        } else {
            field += c;
        }
    }
    if (quoted)
        *ok = false;
    fields.append(field);
    return fields;
}

QList<DatasetRow> readDataset(const QJsonValue &value, const QString &baseDir,
                              QList<ExperimentError> *errors)
{
    QList<DatasetRow> rows;
    if (value.isArray()) {
        const QJsonArray array = value.toArray();
        for (qsizetype i = 0; i < array.size(); ++i) {
            const QString where = u"/dataset/"_s + QString::number(i);
            if (!array.at(i).isObject()) {
                errors->append({ where, Tr::tr("a row is an object") });
                continue;
            }
            if (auto row = readRow(array.at(i).toObject(), where, baseDir, int(i), errors))
                rows.append(*row);
        }
        return rows;
    }
    if (!value.isString()) {
        errors->append(
            { u"/dataset"_s, Tr::tr("missing: a JSONL or CSV file, or an array of rows") });
        return rows;
    }
    const QString path = QDir(baseDir).absoluteFilePath(value.toString());
    const QString name = QFileInfo(path).fileName();
    QFile file(path);
    QString openError;
    if (!openForReading(file, &openError)) {
        errors->append({ u"/dataset"_s, openError });
        return rows;
    }
    const QString datasetDir = QFileInfo(path).absolutePath();
    const bool csv = path.endsWith(u".csv"_s, Qt::CaseInsensitive);
    QStringList header;
    int lineNumber = 0;
    while (!file.atEnd()) {
        bool tooLong = false;
        const QByteArray raw = readLineBounded(file, MaxLineBytes, &tooLong);
        ++lineNumber;
        const QString where = u"%1:%2"_s.arg(name).arg(lineNumber);
        if (tooLong) {
            errors->append({ where,
                             Tr::tr("the line is longer than %1; nothing after it was read")
                                 .arg(sizeText(MaxLineBytes)) });
            return rows;
        }
        if (raw.trimmed().isEmpty())
            continue;
        if (!csv) {
            QJsonParseError error;
            const QJsonDocument doc = QJsonDocument::fromJson(raw, &error);
            if (error.error != QJsonParseError::NoError) {
                errors->append({ u"%1:%2"_s.arg(where).arg(error.offset + 1),
                                 Tr::tr("not JSON: %1").arg(error.errorString()) });
                continue;
            }
            if (!doc.isObject()) {
                errors->append({ where, Tr::tr("a row is a JSON object") });
                continue;
            }
            if (auto row = readRow(doc.object(), where, datasetDir, int(rows.size()), errors))
                rows.append(*row);
            continue;
        }
        bool ok = true;
        const QStringList fields =
            splitCsv(QString::fromUtf8(raw).remove(u'\r').remove(u'\n'), &ok);
        if (!ok) {
            errors->append({ where, Tr::tr("a quoted field is not closed") });
            continue;
        }
        if (header.isEmpty()) {
            // Without an "input" column each row leaves its input to the variants (a prompt
            // template per variant); whether they all have one is checked once they are read.
            header = fields;
            continue;
        }
        if (fields.size() != header.size()) {
            errors->append(
                { where,
                  Tr::tr("%1 fields, the header has %2").arg(fields.size()).arg(header.size()) });
            continue;
        }
        QJsonObject object;
        QJsonObject vars;
        for (qsizetype i = 0; i < header.size(); ++i) {
            const QString &column = header.at(i);
            if (column == u"id"_s || column == u"input"_s) {
                object.insert(column, fields.at(i));
            } else if (column == u"critical"_s) {
                const QString flag = fields.at(i).trimmed().toLower();
                object.insert(column, flag == u"true"_s || flag == u"1"_s || flag == u"yes"_s);
            } else if (column == u"expected"_s) {
                if (fields.at(i).isEmpty())
                    continue;
                QJsonParseError error;
                const QJsonDocument doc =
                    QJsonDocument::fromJson("[" + fields.at(i).toUtf8() + "]", &error);
                if (error.error != QJsonParseError::NoError) {
                    errors->append(
                        { where, Tr::tr("\"expected\" is not JSON: %1").arg(error.errorString()) });
                    continue;
                }
                object.insert(column, doc.array().at(0));
            } else {
                vars.insert(column, fields.at(i));
            }
        }
        object.insert(u"vars"_s, vars);
        if (auto row = readRow(object, where, datasetDir, int(rows.size()), errors))
            rows.append(*row);
    }
    return rows;
}

void prefix(QList<SpecError> specErrors, const QString &where, QList<ExperimentError> *errors)
{
    for (const SpecError &e : specErrors)
        errors->append({ where + e.pointer, e.message });
}

} // namespace

QString fillVars(const QString &text, const QJsonObject &vars, QStringList *missing)
{
    static const QRegularExpression placeholder(u"\\{\\{\\s*([A-Za-z0-9_.-]+)\\s*\\}\\}"_s);
    QString out;
    qsizetype last = 0;
    auto it = placeholder.globalMatch(text);
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        out += QStringView(text).mid(last, m.capturedStart() - last);
        const QString name = m.captured(1);
        const QJsonValue value = vars.value(name);
        if (value.isUndefined()) {
            if (missing && !missing->contains(name))
                missing->append(name);
            out += m.captured(0);
        } else if (value.isString()) {
            out += value.toString();
        } else {
            const QByteArray json =
                QJsonDocument(QJsonArray { value }).toJson(QJsonDocument::Compact);
            out += QString::fromUtf8(json.mid(1, json.size() - 2));
        }
        last = m.capturedEnd();
    }
    out += QStringView(text).mid(last);
    return out;
}

QJsonValue fillVars(const QJsonValue &value, const QJsonObject &vars, QStringList *missing)
{
    if (value.isString())
        return fillVars(value.toString(), vars, missing);
    if (value.isArray()) {
        QJsonArray out;
        for (const QJsonValue &v : value.toArray())
            out.append(fillVars(v, vars, missing));
        return out;
    }
    if (value.isObject()) {
        QJsonObject out;
        const QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it)
            out.insert(it.key(), fillVars(it.value(), vars, missing));
        return out;
    }
    return value;
}

QJsonObject mergeJson(const QJsonObject &base, const QJsonObject &over)
{
    QJsonObject out = base;
    for (auto it = over.begin(); it != over.end(); ++it) {
        if (it.value().isObject() && out.value(it.key()).isObject())
            out.insert(it.key(), mergeJson(out.value(it.key()).toObject(), it.value().toObject()));
        else
            out.insert(it.key(), it.value());
    }
    return out;
}

Spec Experiment::specFor(const DatasetRow &row, const Variant &variant) const
{
    Spec spec = variant.spec;
    spec.systemPrompt = fillVars(spec.systemPrompt, row.vars);
    if (spec.engine.cache && !spec.engine.cache->key.isEmpty())
        spec.engine.cache->key = fillVars(spec.engine.cache->key, row.vars);
    for (ToolSpec &tool : spec.tools) {
        if (!tool.mock.isUndefined())
            tool.mock = fillVars(tool.mock, row.vars);
    }
    return spec;
}

QString Experiment::inputFor(const DatasetRow &row, const Variant &variant) const
{
    return fillVars(variant.input.value_or(row.input), row.vars);
}

ExperimentLoad loadExperimentFile(const QString &path, CallStore *store,
                                  const ExperimentFileOptions &options)
{
    ExperimentLoad load;
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (isPromptfooConfig(absolute)) {
        const PromptfooConversion converted = convertPromptfooConfig(absolute);
        if (!converted.errors.isEmpty() || !converted.experiment) {
            load.errors = converted.errors;
            return load;
        }
        if (!converted.unsupported.isEmpty() && !options.skipUnsupported) {
            load.errors = converted.unsupported;
            load.onlyUnsupported = true;
            return load;
        }
        load = loadExperiment(*converted.experiment, QFileInfo(absolute).absolutePath(), store,
                              absolute);
        load.skipped = converted.unsupported;
        return load;
    }
    QString readError;
    const std::optional<QByteArray> bytes = readFileBounded(absolute, MaxSpecFileBytes, &readError);
    if (!bytes) {
        load.errors.append({ QString(), readError });
        return load;
    }
    const QByteArray &data = *bytes;
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(data, &error);
    if (error.error != QJsonParseError::NoError) {
        load.errors.append({ QFileInfo(absolute).fileName() + u':' + lineColumn(data, error.offset),
                             Tr::tr("not JSON: %1").arg(error.errorString()) });
        return load;
    }
    if (!doc.isObject()) {
        load.errors.append({ u"(root)"_s, Tr::tr("an experiment is a JSON object") });
        return load;
    }
    return loadExperiment(doc.object(), QFileInfo(absolute).absolutePath(), store, absolute);
}

ExperimentLoad loadExperiment(const QJsonObject &definition, const QString &baseDir,
                              CallStore *store, const QString &path)
{
    ExperimentLoad load;
    QList<ExperimentError> &errors = load.errors;
    Experiment e;
    e.path = path;
    e.definition = definition;
    static const QSet<QString> known { u"name"_s,     u"spec"_s,   u"dataset"_s,
                                       u"variants"_s, u"repeat"_s, u"jobs"_s,
                                       u"via"_s,      u"assert"_s, u"description"_s };
    for (auto it = definition.begin(); it != definition.end(); ++it) {
        if (!known.contains(it.key()))
            errors.append({ u"/"_s + it.key(),
                            Tr::tr("unknown field (known: %1)")
                                .arg(QStringList(known.values()).join(u", "_s)) });
    }
    e.name = definition.value(u"name"_s).toString(
        path.isEmpty() ? u"experiment"_s : QFileInfo(path).completeBaseName());

    // The base spec, as JSON (variants merge over it).
    QJsonObject baseSpec;
    QString specPath;
    const QJsonValue specValue = definition.value(u"spec"_s);
    if (specValue.isString()) {
        specPath = QDir(baseDir).absoluteFilePath(specValue.toString());
        QString readError;
        const std::optional<QByteArray> specBytes =
            readFileBounded(specPath, MaxSpecFileBytes, &readError);
        if (!specBytes) {
            errors.append({ u"/spec"_s, readError });
        } else {
            QJsonParseError error;
            const QByteArray &data = *specBytes;
            const QJsonDocument doc = QJsonDocument::fromJson(data, &error);
            if (error.error != QJsonParseError::NoError || !doc.isObject())
                errors.append(
                    { QFileInfo(specPath).fileName() + u':' + lineColumn(data, error.offset),
                      Tr::tr("the spec is not a JSON object: %1").arg(error.errorString()) });
            else
                baseSpec = doc.object();
        }
    } else if (specValue.isObject()) {
        baseSpec = specValue.toObject();
        specPath = QDir(baseDir).absoluteFilePath(u"experiment-inline.spec.json"_s);
    } else {
        errors.append({ u"/spec"_s, Tr::tr("missing: a spec file or an inline spec object") });
    }

    const QJsonValue repeat = definition.value(u"repeat"_s);
    if (!repeat.isUndefined()) {
        if (!repeat.isDouble() || repeat.toDouble() != std::floor(repeat.toDouble())
            || repeat.toInt() < 1 || repeat.toInt() > 1000)
            errors.append({ u"/repeat"_s, Tr::tr("must be a whole number from 1 to 1000") });
        else
            e.repeat = repeat.toInt();
    }
    const QJsonValue jobs = definition.value(u"jobs"_s);
    if (!jobs.isUndefined()) {
        if (!jobs.isDouble() || jobs.toInt() < 1 || jobs.toInt() > 256)
            errors.append({ u"/jobs"_s, Tr::tr("must be a whole number from 1 to 256") });
        else
            e.jobs = jobs.toInt();
    }
    e.via = definition.value(u"via"_s).toString(u"direct"_s);
    if (e.via != u"direct"_s && e.via != u"batch"_s)
        errors.append({ u"/via"_s, Tr::tr("must be \"direct\" or \"batch\"") });
    e.asserts = readAssertions(definition.value(u"assert"_s), u"/assert"_s, &errors);
    e.rows = readDataset(definition.value(u"dataset"_s), baseDir, &errors);
    QSet<QString> ids;
    for (const DatasetRow &row : std::as_const(e.rows)) {
        if (ids.contains(row.id))
            errors.append({ row.where, Tr::tr("the id \"%1\" is used twice").arg(row.id) });
        ids.insert(row.id);
    }
    if (e.rows.isEmpty() && errors.isEmpty())
        errors.append({ u"/dataset"_s, Tr::tr("the dataset has no rows") });

    e.baseSpec = baseSpec;
    // Variants: the spec as is, or each one merged over it.
    const QJsonValue variants = definition.value(u"variants"_s);
    QList<std::pair<QString, QJsonObject>> wanted; // (where, overrides)
    if (variants.isUndefined()) {
        wanted.append(
            { QString(),
              QJsonObject { { u"name"_s, baseSpec.value(u"kind"_s).toString(u"spec"_s) } } });
    } else if (!variants.isArray() || variants.toArray().isEmpty()) {
        errors.append({ u"/variants"_s, Tr::tr("must be a non-empty array of variants") });
    } else {
        const QJsonArray array = variants.toArray();
        for (qsizetype i = 0; i < array.size(); ++i) {
            const QString where = u"/variants/"_s + QString::number(i);
            if (!array.at(i).isObject() || !array.at(i).toObject().value(u"name"_s).isString()) {
                errors.append({ where, Tr::tr("a variant is an object with a \"name\"") });
                continue;
            }
            wanted.append({ where, array.at(i).toObject() });
        }
    }
    QSet<QString> names;
    for (const auto &[where, object] : std::as_const(wanted)) {
        Variant v;
        v.name = object.value(u"name"_s).toString();
        if (names.contains(v.name)) {
            errors.append(
                { where + u"/name"_s, Tr::tr("the name \"%1\" is used twice").arg(v.name) });
            continue;
        }
        names.insert(v.name);
        QJsonObject base = baseSpec;
        QJsonObject overrides = object;
        overrides.remove(u"name"_s);
        if (overrides.contains(u"input"_s)) {
            const QJsonValue input = overrides.take(u"input"_s);
            if (!input.isString()) {
                errors.append(
                    { where + u"/input"_s,
                      Tr::tr("must be a string: the input of every case, with {{vars}}") });
                continue;
            }
            v.input = input.toString();
        }
        if (overrides.contains(u"from_call"_s)) {
            const QJsonValue id = overrides.take(u"from_call"_s);
            if (!id.isDouble() || id.toInteger() <= 0) {
                errors.append(
                    { where + u"/from_call"_s, Tr::tr("must be a call id (a positive number)") });
                continue;
            }
            v.fromCall = id.toInteger();
            if (!store) {
                errors.append({ where + u"/from_call"_s, Tr::tr("needs the history database") });
                continue;
            }
            auto call = store->getCall(*v.fromCall);
            if (!call) {
                errors.append({ where + u"/from_call"_s,
                                Tr::tr("call %1: %2").arg(*v.fromCall).arg(call.error().message) });
                continue;
            }
            base = call.value().spec;
        }
        v.specJson = mergeJson(base, overrides);
        const SpecLoadResult spec = specFromJson(v.specJson, specPath);
        if (!spec.spec) {
            prefix(spec.errors, where.isEmpty() ? u"/spec"_s : where, &errors);
            continue;
        }
        v.spec = *spec.spec;
        e.variants.append(v);
    }

    // Every {{var}} has a value in every row, for every variant.
    for (const DatasetRow &row : std::as_const(e.rows)) {
        QStringList missing;
        bool inputLeftOut = false;
        for (const Variant &v : std::as_const(e.variants)) {
            if (!v.input && !row.hasInput)
                inputLeftOut = true;
            fillVars(v.input.value_or(row.input), row.vars, &missing);
        }
        if (inputLeftOut)
            errors.append({ row.where,
                            Tr::tr("a row needs a string \"input\" (or every variant an "
                                   "\"input\")") });
        for (const Variant &v : std::as_const(e.variants)) {
            fillVars(v.spec.systemPrompt, row.vars, &missing);
            if (v.spec.engine.cache)
                fillVars(v.spec.engine.cache->key, row.vars, &missing);
            for (const ToolSpec &tool : v.spec.tools) {
                if (!tool.mock.isUndefined())
                    fillVars(tool.mock, row.vars, &missing);
            }
        }
        if (!missing.isEmpty())
            errors.append({ row.where,
                            Tr::tr("no value for {{%1}} in the row's vars (case %2)")
                                .arg(missing.join(u"}}, {{"_s), row.id) });
    }
    if (errors.isEmpty())
        load.experiment = e;
    return load;
}

} // namespace Callscope

namespace Callscope {

namespace {

QList<const Assertion *> allAssertions(const Experiment &experiment)
{
    QList<const Assertion *> out;
    for (const Assertion &a : experiment.asserts)
        out.append(&a);
    for (const DatasetRow &row : experiment.rows) {
        for (const Assertion &a : row.asserts)
            out.append(&a);
    }
    return out;
}

} // namespace

QList<RunItem> experimentRunItems(const Experiment &experiment, const QStringList &allowedVariables)
{
    QList<RunItem> items;
    for (const Variant &variant : experiment.variants) {
        for (RunItem item : specRunItems(variant.spec, allowedVariables)) {
            item.pointer = u"variant "_s + variant.name + u' ' + item.pointer;
            if (!items.contains(item))
                items.append(item);
        }
    }
    const QString folder =
        experiment.path.isEmpty() ? QDir::currentPath() : QFileInfo(experiment.path).absolutePath();
    for (const Assertion *a : allAssertions(experiment)) {
        if (a->type != u"command"_s)
            continue;
        QStringList argv;
        for (const QJsonValue &v : a->params.value(u"command"_s).toArray())
            argv.append(v.toString());
        items.append({ RunItem::Kind::Assertion, a->name, argv, folder, a->where });
    }
    return items;
}

TrustEntry experimentTrustEntry(const Experiment &experiment)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(QJsonDocument(experiment.definition).toJson(QJsonDocument::Compact));
    for (const Variant &variant : experiment.variants)
        hash.addData(specTrustDigest(variant.spec));
    for (const Assertion *a : allAssertions(experiment))
        hash.addData(QJsonDocument(a->params).toJson(QJsonDocument::Compact));
    TrustEntry entry;
    entry.digest = hash.result().toHex();
    if (!experiment.path.isEmpty()) {
        const QFileInfo info(experiment.path);
        entry.folder = info.absolutePath();
        entry.file = info.absoluteFilePath();
    }
    return entry;
}

} // namespace Callscope
