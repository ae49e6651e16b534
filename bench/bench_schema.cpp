// bench_schema [INSTANCES.jsonl] [SCHEMA.json] [--rounds N] [--tape-only]
//
// Validates the shared response schema (nested objects, arrays, enums, $ref, formats) against
// the instances written by make_instances.py (100,000 by default; the file is generated into the
// build folder when no path is given) and prints instances per second for each mode.

#include "core/schema/jsonschema.h"
#include "core/schema/jsontape.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <utility>
#include <vector>

#include "peer.h"

using namespace Qt::StringLiterals;
using namespace Callscope;

using CallscopeBench::cpuSeconds;
using CallscopeBench::line;
using CallscopeBench::sharedData;

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QStringList args;
    int rounds = 3;
    bool tapeOnly = false;
    const QStringList all = app.arguments().mid(1);
    for (qsizetype i = 0; i < all.size(); ++i) {
        if (all.at(i) == u"--rounds" && i + 1 < all.size())
            rounds = std::max(1, all.at(++i).toInt());
        else if (all.at(i) == u"--tape-only")
            tapeOnly = true;
        else
            args.append(all.at(i));
    }
    const QString schemaPath =
        args.size() > 1 ? args.at(1) : sharedData(u"bench/response-schema.json"_s);
    QString instancesPath = args.value(0);
    if (instancesPath.isEmpty()) {
        instancesPath = QDir::current().filePath(u"bench-schema-instances.jsonl"_s);
        if (!QFileInfo::exists(instancesPath)) {
            const int code = QProcess::execute(
                u"python3"_s,
                { sharedData(u"bench/make_instances.py"_s), u"100000"_s, instancesPath });
            if (code != 0) {
                std::fprintf(stderr, "bench_schema: make_instances.py failed (%d)\n", code);
                return 2;
            }
        }
    }

    QFile schemaFile(schemaPath);
    QFile instancesFile(instancesPath);
    if (!schemaFile.open(QIODevice::ReadOnly) || !instancesFile.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "bench_schema: cannot read %s or %s\n", qPrintable(schemaPath),
                     qPrintable(instancesPath));
        return 2;
    }
    const QJsonObject schemaJson = QJsonDocument::fromJson(schemaFile.readAll()).object();

    QElapsedTimer timer;
    timer.start();
    std::vector<QJsonValue> instances;
    instances.reserve(100000);
    const QByteArray text = instancesFile.readAll();
    std::vector<QByteArrayView> lines;
    for (qsizetype from = 0; from < text.size();) {
        qsizetype to = text.indexOf('\n', from);
        if (to < 0)
            to = text.size();
        if (to > from)
            lines.emplace_back(text.constData() + from, to - from);
        from = to + 1;
    }
    timer.restart();
    if (!tapeOnly) {
        for (const QByteArrayView line : lines)
            instances.push_back(QJsonDocument::fromJson(line.toByteArray()).object());
    }
    const double parseSeconds = double(timer.nsecsElapsed()) / 1e9;
    const double count = double(lines.size());
    line(u"instances: %1 (QJsonDocument parse: %2 s, %3 instances/s)"_s.arg(instances.size())
             .arg(parseSeconds, 0, 'f', 3)
             .arg(count / parseSeconds, 0, 'f', 0));

    // The same instances on one tape (the validator's own form).
    JsonTape tape;
    std::vector<qsizetype> roots;
    roots.reserve(lines.size());
    timer.restart();
    for (const QByteArrayView line : lines) {
        JsonTape::ParseError error;
        const qsizetype root = tape.append(line, &error);
        if (root < 0) {
            std::fprintf(stderr, "bench_schema: tape parse failed at %lld: %s\n",
                         qlonglong(error.offset), qPrintable(error.message));
            return 2;
        }
        roots.push_back(root);
    }
    const double tapeSeconds = double(timer.nsecsElapsed()) / 1e9;
    line(u"instances: %1 (JsonTape parse: %2 s, %3 instances/s)"_s.arg(roots.size())
             .arg(tapeSeconds, 0, 'f', 3)
             .arg(count / tapeSeconds, 0, 'f', 0));

    // Runs `body` over every instance `rounds` times (the machine is shared: the best round
    // counts); prints the rate and returns (valid, errors) of one round.
    auto measure = [&](const QString &label, auto &&body) {
        double seconds = 1e30, cpu = 1e30;
        qsizetype valid = 0, errors = 0;
        for (int round = 0; round < rounds; ++round) {
            valid = errors = 0;
            timer.restart();
            const double cpuStart = cpuSeconds();
            body(valid, errors);
            seconds = std::min(seconds, double(timer.nsecsElapsed()) / 1e9);
            cpu = std::min(cpu, cpuSeconds() - cpuStart);
        }
        line(u"%1 %2 instances/s wall, %3 per CPU second (%4 valid, %5 errors, %6 s)"_s.arg(label)
                 .arg(count / seconds, 0, 'f', 0)
                 .arg(count / cpu, 0, 'f', 0)
                 .arg(valid)
                 .arg(errors)
                 .arg(seconds, 0, 'f', 3));
        return std::pair { valid, errors };
    };

    int status = 0;
    for (const bool assertFormats : { false, true }) {
        SchemaOptions options;
        options.formatAssertion = assertFormats;
        timer.restart();
        const int compileRounds = 200;
        CompiledSchema schema;
        for (int i = 0; i < compileRounds; ++i)
            schema = SchemaCompiler(SchemaRegistry(), options).compile(schemaJson);
        const double compileMicros = double(timer.nsecsElapsed()) / 1e3 / compileRounds;
        if (!schema.isValid()) {
            std::fprintf(stderr, "bench_schema: schema does not compile: %s\n",
                         qPrintable(schema.errorString()));
            return 2;
        }
        const QString mode = assertFormats ? u"format assertion"_s : u"format annotation"_s;
        line(u"[%1] compile: %2 us"_s.arg(mode).arg(compileMicros, 0, 'f', 1));

        // Validate only: every violation with messages (as the runner reports them), then the
        // verdict alone, on the parsed tape.
        const auto full = measure(
            u"[%1] validate(tape):        "_s.arg(mode), [&](qsizetype &valid, qsizetype &errors) {
                for (const qsizetype root : roots) {
                    const SchemaValidationResult result = schema.validate(tape, root);
                    valid += result.valid ? 1 : 0;
                    errors += result.errors.size();
                }
            });
        const auto verdict = measure(u"[%1] accepts(tape):         "_s.arg(mode),
                                     [&](qsizetype &valid, qsizetype &) {
                                         for (const qsizetype root : roots)
                                             valid += schema.accepts(tape, root) ? 1 : 0;
                                     });
        // Parse + validate: the text of each instance into a reused tape, then validate().
        const auto parsed = measure(u"[%1] parse + validate(tape):"_s.arg(mode),
                                    [&](qsizetype &valid, qsizetype &errors) {
                                        JsonTape scratch;
                                        for (const QByteArrayView line : lines) {
                                            scratch.clear();
                                            const SchemaValidationResult result =
                                                schema.validate(scratch, scratch.append(line));
                                            valid += result.valid ? 1 : 0;
                                            errors += result.errors.size();
                                        }
                                    });
        if (tapeOnly)
            continue;
        // The QJsonValue entry points (serialised into a tape per call).
        const auto qt = measure(
            u"[%1] validate(QJsonValue):  "_s.arg(mode), [&](qsizetype &valid, qsizetype &errors) {
                for (const QJsonValue &instance : instances) {
                    const SchemaValidationResult result = schema.validate(instance);
                    valid += result.valid ? 1 : 0;
                    errors += result.errors.size();
                }
            });
        const auto qtVerdict = measure(u"[%1] accepts(QJsonValue):   "_s.arg(mode),
                                       [&](qsizetype &valid, qsizetype &) {
                                           for (const QJsonValue &instance : instances)
                                               valid += schema.accepts(instance) ? 1 : 0;
                                       });
        if (verdict.first != full.first || parsed != full || qt != full
            || qtVerdict.first != full.first) {
            std::fprintf(stderr,
                         "bench_schema: the entry points disagree on verdicts or error counts\n");
            status = 1;
        }
    }
    // The peer, in the same run on the same files: ajv, draft 2020-12, allErrors,
    // multipleOfPrecision 9 (formats asserted through ajv-formats).
    if (const auto peer =
            CallscopeBench::runPeer(u"ajv_validate.mjs"_s, u"ajv"_s,
                                    { schemaPath, instancesPath, QString::number(rounds) })) {
        for (const QString mode : { u"annotation"_s, u"asserted"_s }) {
            const QJsonObject m = peer->value(mode).toObject();
            for (const QString kind : { u"validate"_s, u"parse_validate"_s }) {
                const QJsonObject r = m.value(kind).toObject();
                line(
                    u"[peer ajv, formats %1] %2 %3 instances/s wall, %4 per CPU second (%5 valid, %6 errors)"_s
                        .arg(mode,
                             kind == u"validate" ? u"validate:        "_s : u"parse + validate:"_s)
                        .arg(r.value(u"per_s"_s).toDouble(), 0, 'f', 0)
                        .arg(r.value(u"per_cpu_s"_s).toDouble(), 0, 'f', 0)
                        .arg(r.value(u"valid"_s).toInt())
                        .arg(r.value(u"errors"_s).toInt()));
            }
        }
    }
    return status;
}
