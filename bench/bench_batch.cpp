// Batch throughput with many calls in flight: `callscope-cli batch` (the real executable, with
// its history database) runs N two-turn structured calls (a get_ticket tool call, then
// submit_output) against a fake provider on a thread of this process that answers every
// request after a fixed latency. Prints, per --jobs value: wall time, the ideal time
// (calls x turns x latency / jobs), the most requests the provider saw at once, and the CLI's
// CPU time per turn (its own rusage, so the provider's CPU is not counted). When the peer is
// installed (npm install in bench/peer), the official openai SDK runs the same calls with the
// same concurrency against the same provider in the same run.
//
//   bench_batch [--calls N] [--latency MS] [--jobs A,B,...] [--cli PATH]
//   defaults: 40 calls, 250 ms, jobs 1,8; the CLI next to this program's build tree.

#include "tests/support/fakeprovider.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <sys/resource.h>
#include <sys/wait.h>

#include <cstdio>

using namespace Qt::StringLiterals;
using namespace Callscope::Test;

namespace {

double childCpuSeconds()
{
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    int calls = 40;
    int latency = 250;
    QList<int> jobsList{1, 8};
    QString cli = QDir(QCoreApplication::applicationDirPath()).filePath(u"../app/callscope-cli"_s);
    const QStringList args = app.arguments();
    for (int i = 1; i < args.size(); ++i) {
        const QString a = args.at(i);
        const QString next = i + 1 < args.size() ? args.at(i + 1) : QString();
        if (a == u"--calls"_s) {
            calls = next.toInt();
            ++i;
        } else if (a == u"--latency"_s) {
            latency = next.toInt();
            ++i;
        } else if (a == u"--jobs"_s) {
            jobsList.clear();
            for (const QString &part : next.split(u','))
                jobsList.append(part.toInt());
            ++i;
        } else if (a == u"--cli"_s) {
            cli = next;
            ++i;
        } else {
            std::fprintf(stderr, "usage: bench_batch [--calls N] [--latency MS] [--jobs A,B,...] [--cli PATH]\n");
            return 2;
        }
    }
    if (!QFileInfo::exists(cli)) {
        std::fprintf(stderr, "no callscope-cli at %s (give --cli PATH)\n", qPrintable(cli));
        return 2;
    }

    FakeProviderThread server;
    if (!server.listen()) {
        std::fprintf(stderr, "cannot listen on 127.0.0.1\n");
        return 1;
    }
    server.run([latency](FakeProvider &p) {
        p.setResponder(twoTurnResponder(u"get_ticket"_s, {{u"title"_s, u"Fix login"_s}}, latency));
    });
    QTemporaryDir dir;
    const QString specPath = dir.filePath(u"planner.spec.json"_s);
    const QString inputsPath = dir.filePath(u"inputs.jsonl"_s);
    {
        QFile spec(specPath);
        spec.open(QIODevice::WriteOnly);
        spec.write(QJsonDocument(twoTurnSpecJson(server.baseUrl(), u"CALLSCOPE_BENCH_KEY"_s)).toJson());
        QFile inputs(inputsPath);
        inputs.open(QIODevice::WriteOnly);
        for (int i = 1; i <= calls; ++i)
            inputs.write("\"Plan ticket " + QByteArray::number(i) + "\"\n");
    }

    std::printf("bench_batch: %d two-turn calls, %d ms per reply, provider on its own thread\n", calls, latency);
    std::printf("%-28s %6s %10s %10s %7s %9s %12s\n", "client", "jobs", "wall ms", "ideal ms", "x ideal", "peak", "CPU/turn ms");
    for (int jobs : jobsList) {
        server.run([](FakeProvider &p) {
            p.clearRequests();
            p.resetCounters();
        });
        const QString db = dir.filePath(u"history-%1.sqlite"_s.arg(jobs));
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"CALLSCOPE_BENCH_KEY"_s, u"sk-bench"_s);
        process.setProcessEnvironment(env);
        process.setStandardOutputFile(QProcess::nullDevice());
        process.setStandardErrorFile(QProcess::nullDevice());
        const double cpu0 = childCpuSeconds();
        QElapsedTimer clock;
        clock.start();
        process.start(cli, {u"batch"_s, specPath, u"--inputs"_s, inputsPath, u"--db"_s, db, u"--jobs"_s, QString::number(jobs)});
        process.waitForFinished(-1);
        const qint64 wall = clock.elapsed();
        const double cpu = childCpuSeconds() - cpu0;
        int requests = 0;
        int peak = 0;
        server.run([&](FakeProvider &p) {
            requests = int(p.requestCount());
            peak = p.peakInFlight();
        });
        const double ideal = double(calls) * 2 * latency / jobs;
        std::printf("%-28s %6d %10lld %10.0f %7.2f %9s %12.3f%s\n", "callscope-cli batch", jobs, wall, ideal, wall / ideal,
                    qPrintable(QString::number(peak)), requests ? cpu * 1000 / requests : 0.0,
                    process.exitCode() == 0 ? "" : "  (exit != 0)");
        std::fflush(stdout);
    }

    // The peer, when installed: the same calls through the openai SDK.
    const QString peerDir = QStringLiteral(CALLSCOPE_BENCH_SOURCE_DIR) + u"/peer"_s;
    const QString node = QStandardPaths::findExecutable(u"node"_s);
    if (node.isEmpty() || !QFileInfo::exists(peerDir + u"/node_modules/openai"_s)) {
        std::printf("%-28s (not installed: cd bench/peer && npm install)\n", "openai SDK (node)");
        return 0;
    }
    for (int jobs : jobsList) {
        QProcess peer;
        peer.start(node, {peerDir + u"/openai_batch.mjs"_s, server.baseUrl().toString(), QString::number(calls), QString::number(jobs)});
        const double cpu0 = childCpuSeconds();
        peer.waitForFinished(-1);
        const double cpu = childCpuSeconds() - cpu0;
        const QJsonObject result = QJsonDocument::fromJson(peer.readAllStandardOutput()).object();
        const double ideal = double(calls) * 2 * latency / jobs;
        const double wall = result.value(u"wall_ms"_s).toDouble();
        std::printf("%-28s %6d %10.0f %10.0f %7.2f %9s %12.3f%s\n", "openai SDK (node, no store)", jobs, wall, ideal,
                    wall / ideal, "", cpu * 1000 / (calls * 2), result.value(u"done"_s).toInt() == calls ? "" : "  (incomplete)");
    }
    return 0;
}
