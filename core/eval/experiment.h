#pragma once

// An experiment: a spec over a dataset, in several variants, repeated,
// with assertions on every output. This file is the model and its loader; running it is
// ExperimentRun (experimentrun.h), checking an output is assertions.h.
//
// Everything that can be wrong with an experiment is found when it loads, before any token is
// spent: JSON syntax (line and column), unknown fields' types, assertions (type, pointers,
// patterns, schemas), dataset lines (file:line), variants that do not make a valid spec, and
// {{vars}} that a row does not give.

#include "core/model/spec.h"
#include "core/secrets/truststore.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace Callscope {

class CallStore;

struct Assertion
{
    QString type;
    QString name; // defaults to the type
    double weight = 1;
    QJsonObject params; // the whole assertion object
    QString where; // where it was written: "/assert/2" or "cases.jsonl:4 /assert/0"
};

struct DatasetRow
{
    QString id;
    QString input; // with {{vars}} still in it
    bool hasInput = false; // a row may leave the input to its variants' "input"
    QJsonObject vars;
    QStringList attachments; // absolute paths
    QJsonValue expected; // Undefined when the row has none
    QList<Assertion> asserts; // the row's own, checked after the experiment's
    bool critical = false; // any regression of this case against a baseline fails
    QString transform; // JavaScript run on the output before this case's assertions
    QString where; // "cases.jsonl:4", "cases.csv:4", "/dataset/3"
};

struct Variant
{
    QString name;
    QJsonObject specJson; // the merged spec (vars not filled)
    // "input": the user message of every case in this variant, a template with {{vars}}
    // (a promptfoo prompt); without it each case sends its own input.
    std::optional<QString> input;
    std::optional<qint64> fromCall;
    Spec spec; // parsed from specJson
};

struct Experiment
{
    QString name;
    QString path; // the experiment file (absolute); empty for inline tests
    QJsonObject definition; // the file as written
    QJsonObject baseSpec; // the spec the variants merge over, as JSON
    QList<Variant> variants;
    QList<DatasetRow> rows;
    int repeat = 1;
    int jobs = 0; // 0 = the caller's default
    QString via = QStringLiteral("direct");
    QList<Assertion> asserts;

    // Every (row, variant) as the spec and input that run: {{vars}} filled in the system
    // prompt, the input and mock tool results. Never fails on a loaded experiment (load checks).
    Spec specFor(const DatasetRow &row, const Variant &variant) const;
    QString inputFor(const DatasetRow &row, const Variant &variant) const;
};

// What running the experiment would start or read that needs the user's trust
// (core/model/trustpolicy.h): every variant's run items, then each `command` assertion.
QList<RunItem> experimentRunItems(const Experiment &experiment,
                                  const QStringList &allowedVariables = {});
// The experiment's digest (its file, the variants' specs and every assertion) and folder.
TrustEntry experimentTrustEntry(const Experiment &experiment);

struct ExperimentError
{
    QString where; // a JSON Pointer into the experiment, or file:line[:column]
    QString message;
    QString toString() const
    {
        return where.isEmpty() ? message : where + QStringLiteral(": ") + message;
    }
};

struct ExperimentLoad
{
    std::optional<Experiment> experiment;
    QList<ExperimentError> errors;
    // Parts of a promptfoo configuration left out with ExperimentFileOptions::skipUnsupported.
    QList<ExperimentError> skipped;
    // The errors are only parts of a promptfoo configuration that Callscope cannot take: the
    // file loads with ExperimentFileOptions::skipUnsupported.
    bool onlyUnsupported = false;
};

struct ExperimentFileOptions
{
    // A promptfoo configuration with parts Callscope cannot take loads without them
    // (listed in ExperimentLoad::skipped) instead of failing with them as errors.
    bool skipUnsupported = false;
};

// `store` serves variants with from_call (may be null: such variants are then an error).
// A .yaml or .yml file is a promptfoo configuration, converted first (promptfooimport.h).
ExperimentLoad loadExperimentFile(const QString &path, CallStore *store = nullptr,
                                  const ExperimentFileOptions &options = {});
// `baseDir` resolves relative paths (spec, dataset, attachments).
ExperimentLoad loadExperiment(const QJsonObject &definition, const QString &baseDir,
                              CallStore *store = nullptr, const QString &path = {});

// "{{name}}" (spaces allowed inside the braces) replaced by vars[name] (strings as they are,
// other JSON compact). The names without a value go to `missing`.
QString fillVars(const QString &text, const QJsonObject &vars, QStringList *missing = nullptr);
// The same in every string of a JSON value (mock results).
QJsonValue fillVars(const QJsonValue &value, const QJsonObject &vars,
                    QStringList *missing = nullptr);
// Objects merged key by key (recursively); anything else in `over` replaces.
QJsonObject mergeJson(const QJsonObject &base, const QJsonObject &over);

} // namespace Callscope
