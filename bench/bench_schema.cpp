// bench_schema [INSTANCES.jsonl] [SCHEMA.json]
//
// Validates the shared response schema (nested objects, arrays, enums, $ref, formats) against
// the instances written by make_instances.py (100,000 by default; the file is generated into the
// build folder when no path is given) and prints instances per second for each mode.

#include "core/schema/jsonschema.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include <cstdio>
#include <ctime>
#include <vector>

using namespace Qt::StringLiterals;
using namespace Callscope;

namespace {

QString sharedData(const QString &relative)
{
    QString root = qEnvironmentVariable("CALLSCOPE_SHARED_DATA");
    if (root.isEmpty())
        root = QStringLiteral(CALLSCOPE_SHARED_DATA_DIR);
    return QDir(root).filePath(relative);
}

// Process CPU time: the machine may be shared, so rates are also given per CPU second.
double cpuSeconds()
{
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

void line(const QString &text)
{
    std::fputs((text + u'\n').toUtf8().constData(), stdout);
    std::fflush(stdout);
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments().mid(1);
    const QString schemaPath = args.size() > 1 ? args.at(1) : sharedData(u"bench/response-schema.json"_s);
    QString instancesPath = args.value(0);
    if (instancesPath.isEmpty()) {
        instancesPath = QDir::current().filePath(u"bench-schema-instances.jsonl"_s);
        if (!QFileInfo::exists(instancesPath)) {
            const int code = QProcess::execute(u"python3"_s, {sharedData(u"bench/make_instances.py"_s),
                                                              u"100000"_s, instancesPath});
            if (code != 0) {
                std::fprintf(stderr, "bench_schema: make_instances.py failed (%d)\n", code);
                return 2;
            }
        }
    }

    QFile schemaFile(schemaPath);
    QFile instancesFile(instancesPath);
    if (!schemaFile.open(QIODevice::ReadOnly) || !instancesFile.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "bench_schema: cannot read %s or %s\n", qPrintable(schemaPath), qPrintable(instancesPath));
        return 2;
    }
    const QJsonObject schemaJson = QJsonDocument::fromJson(schemaFile.readAll()).object();

    QElapsedTimer timer;
    timer.start();
    std::vector<QJsonValue> instances;
    instances.reserve(100000);
    const QList<QByteArray> lines = instancesFile.readAll().split('\n');
    for (const QByteArray &text : lines) {
        if (!text.isEmpty())
            instances.push_back(QJsonDocument::fromJson(text).object());
    }
    const double parseSeconds = double(timer.nsecsElapsed()) / 1e9;
    const double count = double(instances.size());
    line(u"instances: %1 (parsed in %2 s, %3 instances/s)"_s.arg(instances.size())
             .arg(parseSeconds, 0, 'f', 3)
             .arg(count / parseSeconds, 0, 'f', 0));

    for (const bool assertFormats : {false, true}) {
        SchemaOptions options;
        options.formatAssertion = assertFormats;
        timer.restart();
        const int compileRounds = 200;
        CompiledSchema schema;
        for (int i = 0; i < compileRounds; ++i)
            schema = SchemaCompiler(SchemaRegistry(), options).compile(schemaJson);
        const double compileMicros = double(timer.nsecsElapsed()) / 1e3 / compileRounds;
        if (!schema.isValid()) {
            std::fprintf(stderr, "bench_schema: schema does not compile: %s\n", qPrintable(schema.errorString()));
            return 2;
        }
        const QString mode = assertFormats ? u"format assertion"_s : u"format annotation"_s;
        line(u"[%1] compile: %2 us"_s.arg(mode).arg(compileMicros, 0, 'f', 1));

        // validate(): every violation with messages, as the runner does.
        timer.restart();
        double cpu = cpuSeconds();
        qsizetype valid = 0, errors = 0;
        for (const QJsonValue &instance : instances) {
            const SchemaValidationResult result = schema.validate(instance);
            valid += result.valid ? 1 : 0;
            errors += result.errors.size();
        }
        double seconds = double(timer.nsecsElapsed()) / 1e9;
        cpu = cpuSeconds() - cpu;
        line(u"[%1] validate(): %2 instances/s wall, %7 per CPU second (%3 valid, %4 invalid, %5 errors, %6 s)"_s
                 .arg(mode)
                 .arg(count / seconds, 0, 'f', 0)
                 .arg(valid)
                 .arg(qsizetype(count) - valid)
                 .arg(errors)
                 .arg(seconds, 0, 'f', 3)
                 .arg(count / cpu, 0, 'f', 0));

        // accepts(): the verdict only.
        timer.restart();
        cpu = cpuSeconds();
        qsizetype accepted = 0;
        for (const QJsonValue &instance : instances)
            accepted += schema.accepts(instance) ? 1 : 0;
        seconds = double(timer.nsecsElapsed()) / 1e9;
        cpu = cpuSeconds() - cpu;
        line(u"[%1] accepts():  %2 instances/s wall, %5 per CPU second (%3 accepted, %4 s)"_s.arg(mode)
                 .arg(count / seconds, 0, 'f', 0)
                 .arg(accepted)
                 .arg(seconds, 0, 'f', 3)
                 .arg(count / cpu, 0, 'f', 0));
        if (accepted != valid) {
            std::fprintf(stderr, "bench_schema: accepts() and validate() disagree\n");
            return 1;
        }
    }
    return 0;
}
