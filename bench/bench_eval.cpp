// Experiment throughput: `callscope-cli eval` (the real executable, with its database) runs
// CASES cases x 2 variants of a two-turn structured call against a fake provider on a thread of
// this process that answers every request after a fixed latency, with --jobs N. Prints the wall
// time beside the ideal (runs x turns x latency / jobs), the most requests the provider saw at
// once, and the CLI's CPU time per turn.
//
//   bench_eval [--cases N] [--latency MS] [--jobs N] [--cli PATH]
//   defaults: 1,000 cases, 250 ms, 16 jobs.

#include "tests/support/fakeprovider.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>

#include <cstdio>
#include <sys/resource.h>

using namespace Qt::StringLiterals;
using namespace Callscope::Test;

namespace {

double childCpuSeconds()
{
    rusage usage {};
    getrusage(RUSAGE_CHILDREN, &usage);
    return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec
        + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    int cases = 1000;
    int latency = 250;
    int jobs = 16;
    QString cli = QDir(QCoreApplication::applicationDirPath()).filePath(u"../app/callscope-cli"_s);
    const QStringList args = app.arguments();
    for (int i = 1; i + 1 < args.size(); i += 2) {
        if (args.at(i) == u"--cases"_s)
            cases = args.at(i + 1).toInt();
        else if (args.at(i) == u"--latency"_s)
            latency = args.at(i + 1).toInt();
        else if (args.at(i) == u"--jobs"_s)
            jobs = args.at(i + 1).toInt();
        else if (args.at(i) == u"--cli"_s)
            cli = args.at(i + 1);
    }
    if (!QFileInfo::exists(cli) || cases < 1 || jobs < 1) {
        std::fprintf(stderr,
                     "usage: bench_eval [--cases N] [--latency MS] [--jobs N] [--cli PATH]\n");
        return 2;
    }
    FakeProviderThread server;
    if (!server.listen())
        return 1;
    server.run([latency](FakeProvider &p) {
        p.setResponder(
            twoTurnResponder(u"get_ticket"_s, { { u"title"_s, u"Fix login"_s } }, latency));
    });
    QTemporaryDir dir;
    {
        QFile spec(dir.filePath(u"planner.spec.json"_s));
        spec.open(QIODevice::WriteOnly);
        spec.write(
            QJsonDocument(twoTurnSpecJson(server.baseUrl(), u"CALLSCOPE_BENCH_KEY"_s)).toJson());
        QFile rows(dir.filePath(u"cases.jsonl"_s));
        rows.open(QIODevice::WriteOnly);
        for (int i = 1; i <= cases; ++i)
            rows.write("{\"id\":\"c" + QByteArray::number(i) + "\",\"input\":\"Plan ticket "
                       + QByteArray::number(i) + "\"}\n");
        QFile experiment(dir.filePath(u"exp.json"_s));
        experiment.open(QIODevice::WriteOnly);
        experiment.write(R"({"name":"bench","spec":"planner.spec.json","dataset":"cases.jsonl",
            "variants":[{"name":"a"},{"name":"b","system_prompt":"Plan the work carefully."}],
            "assert":[{"type":"equals","pointer":"/title","value":"Fix login"}]})");
    }
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"CALLSCOPE_BENCH_KEY"_s, u"sk-bench"_s);
    process.setProcessEnvironment(env);
    process.setStandardOutputFile(dir.filePath(u"summary.json"_s));
    process.setStandardErrorFile(QProcess::nullDevice());
    const double cpu0 = childCpuSeconds();
    QElapsedTimer clock;
    clock.start();
    process.start(cli,
                  { u"eval"_s, dir.filePath(u"exp.json"_s), u"--db"_s, dir.filePath(u"h.sqlite"_s),
                    u"--jobs"_s, QString::number(jobs) });
    process.waitForFinished(-1);
    const qint64 wall = clock.elapsed();
    const double cpu = childCpuSeconds() - cpu0;
    int requests = 0;
    int peak = 0;
    server.run([&](FakeProvider &p) {
        requests = int(p.requestCount());
        peak = p.peakInFlight();
    });
    QFile summaryFile(dir.filePath(u"summary.json"_s));
    summaryFile.open(QIODevice::ReadOnly);
    const QJsonObject summary = QJsonDocument::fromJson(summaryFile.readAll()).object();
    int passed = 0;
    for (const QJsonValue &v : summary.value(u"variants"_s).toArray())
        passed += v.toObject().value(u"passed"_s).toInt();
    const double ideal = double(cases) * 2 * 2 * latency / jobs;
    std::printf("bench_eval: %d cases x 2 variants, two-turn calls, %d ms per reply, --jobs %d\n",
                cases, latency, jobs);
    std::printf("wall %lld ms, ideal %.0f ms (%.2fx), peak %d in flight, %d requests, %d of %d "
                "cells passed, "
                "CLI CPU %.3f ms per turn, exit %d\n",
                wall, ideal, wall / ideal, peak, requests, passed, cases * 2,
                requests ? cpu * 1000 / requests : 0.0, process.exitCode());
    return 0;
}
