// Batch throughput with many calls in flight: `callscope-cli batch` (the real executable, with
// its history database) runs N two-turn structured calls (a get_ticket tool call, then
// submit_output) against a fake provider on a thread of this process that answers every
// request after a fixed latency. Prints, per --jobs value: wall time, the ideal time
// (calls x turns x latency / jobs), the most requests the provider saw at once, and the CLI's
// CPU time per turn (its own rusage, so the provider's CPU is not counted). When the peer is
// installed (npm install in bench/peer), the official openai SDK runs the same calls with the
// same concurrency against the same provider in the same run.
//
//   bench_batch [--calls N] [--latency MS] [--jobs A,B,...] [--cli PATH] [--three-turn]
//   defaults: 40 calls, 250 ms, jobs 1,8; the CLI next to this program's build tree.
//   --otlp-overhead [--repeat R] runs every --jobs value R times (default 5) in three ways,
//   interleaved: no export, OTLP export to a port nothing listens on, and export to a
//   collector stand-in on a thread of this process (answers 200); prints the median wall times
//   and the export's overhead in percent of the run without it, and the same for the CLI's own
//   CPU time (less disturbed by other work on the machine than the wall time). Below the table,
//   per mode, the median of the paired differences (each run against the run without export
//   made just before it) with their middle half: drift of the machine's load between runs
//   then cancels out.
//   --three-turn runs bench_runner's call instead (get_ticket with a 1.3 KB result, list_team,
//   then submit_output of a plan against a schema with an enum and an array); the peer is
//   not run then (its script makes two-turn calls).

#include "tests/support/fakeprovider.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <sys/resource.h>
#include <sys/wait.h>

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

// bench_runner's three-turn planner call: the spec, and a responder that answers by the number
// of tool results the request already holds.
QJsonObject threeTurnSpecJson(const QUrl &base, const QString &keyEnv)
{
    const QJsonObject schema {
        { u"type"_s, u"object"_s },
        { u"properties"_s,
          QJsonObject { { u"title"_s, QJsonObject { { u"type"_s, u"string"_s } } },
                        { u"steps"_s,
                          QJsonObject { { u"type"_s, u"array"_s },
                                        { u"items"_s, QJsonObject { { u"type"_s, u"string"_s } } },
                                        { u"minItems"_s, 1 } } },
                        { u"risk"_s,
                          QJsonObject { { u"enum"_s,
                                          QJsonArray { u"low"_s, u"medium"_s, u"high"_s } } } } } },
        { u"required"_s, QJsonArray { u"title"_s, u"steps"_s, u"risk"_s } },
        { u"additionalProperties"_s, false }
    };
    const QJsonArray tools {
        QJsonObject { { u"name"_s, u"get_ticket"_s },
                      { u"description"_s, u"Load a ticket."_s },
                      { u"mock"_s, QString(u"Ticket: export fails over 10 MB. "_s).repeated(40) } },
        QJsonObject {
            { u"name"_s, u"list_team"_s },
            { u"description"_s, u"List the team."_s },
            { u"mock"_s, QJsonObject { { u"members"_s, QJsonArray { u"Ada"_s, u"Lin"_s } } } } }
    };
    return QJsonObject {
        { u"kind"_s, u"planner"_s },
        { u"system_prompt"_s,
          u"You plan engineering work. Read the ticket, check the team, then submit the plan."_s },
        { u"response_schema"_s, schema },
        { u"tools"_s, tools },
        { u"engine"_s,
          QJsonObject { { u"type"_s, u"openai"_s },
                        { u"model"_s, u"bench"_s },
                        { u"base_url"_s, base.toString() },
                        { u"api_key_env"_s, keyEnv },
                        { u"stream"_s, false },
                        { u"max_tokens"_s, 512 } } }
    };
}

FakeProvider::Responder threeTurnResponder(int delayMs)
{
    const QJsonObject plan { { u"title"_s, u"Stream the export"_s },
                             { u"steps"_s,
                               QJsonArray { u"write a failing test"_s, u"stream the writer"_s,
                                            u"add progress"_s } },
                             { u"risk"_s, u"medium"_s } };
    return [plan, delayMs](const RecordedRequest &request) {
        int results = 0;
        for (const QJsonValue &m : request.jsonObject().value(u"messages"_s).toArray())
            results += m.toObject().value(u"role"_s).toString() == u"tool"_s ? 1 : 0;
        FakeReply reply = FakeReply::json(
            200,
            results == 0
                ? openAiToolCallBody(u"call_a"_s, u"get_ticket"_s, QJsonObject { { u"id"_s, 7 } })
                : results == 1 ? openAiToolCallBody(u"call_b"_s, u"list_team"_s, QJsonObject())
                               : openAiToolCallBody(u"call_c"_s, u"submit_output"_s, plan));
        if (delayMs > 0)
            reply.delayedBy(delayMs);
        return reply;
    };
}

qint64 median(QList<qint64> values)
{
    std::sort(values.begin(), values.end());
    return values.isEmpty() ? 0 : values.at(values.size() / 2);
}

// The value at fraction `q` (0..1) of the sorted values.
qint64 quantile(QList<qint64> values, double q)
{
    std::sort(values.begin(), values.end());
    if (values.isEmpty())
        return 0;
    return values.at(std::min<qsizetype>(values.size() - 1, qsizetype(q * double(values.size()))));
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    int calls = 40;
    int latency = 250;
    QList<int> jobsList { 1, 8 };
    bool threeTurns = false;
    bool otlpOverhead = false;
    int repeat = 5;
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
        } else if (a == u"--three-turn"_s) {
            threeTurns = true;
        } else if (a == u"--otlp-overhead"_s) {
            otlpOverhead = true;
        } else if (a == u"--repeat"_s) {
            repeat = std::max(1, next.toInt());
            ++i;
        } else {
            std::fprintf(stderr,
                         "usage: bench_batch [--calls N] [--latency MS] [--jobs A,B,...] [--cli "
                         "PATH] [--three-turn] [--otlp-overhead [--repeat R]]\n");
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
    const int turns = threeTurns ? 3 : 2;
    server.run([latency, threeTurns](FakeProvider &p) {
        p.setResponder(threeTurns ? threeTurnResponder(latency)
                                  : twoTurnResponder(u"get_ticket"_s,
                                                     { { u"title"_s, u"Fix login"_s } }, latency));
    });
    QTemporaryDir dir;
    const QString specPath = dir.filePath(u"planner.spec.json"_s);
    const QString inputsPath = dir.filePath(u"inputs.jsonl"_s);
    {
        QFile spec(specPath);
        spec.open(QIODevice::WriteOnly);
        spec.write(QJsonDocument(threeTurns
                                     ? threeTurnSpecJson(server.baseUrl(), u"CALLSCOPE_BENCH_KEY"_s)
                                     : twoTurnSpecJson(server.baseUrl(), u"CALLSCOPE_BENCH_KEY"_s))
                       .toJson());
        QFile inputs(inputsPath);
        inputs.open(QIODevice::WriteOnly);
        for (int i = 1; i <= calls; ++i)
            inputs.write("\"Plan ticket " + QByteArray::number(i) + "\"\n");
    }

    if (otlpOverhead) {
        // A port nothing listens on: bound, then closed.
        QTcpServer closed;
        closed.listen(QHostAddress::LocalHost);
        const QString unreachable = u"http://127.0.0.1:%1"_s.arg(closed.serverPort());
        closed.close();
        FakeProviderThread collector;
        if (!collector.listen()) {
            std::fprintf(stderr, "cannot listen on 127.0.0.1\n");
            return 1;
        }
        collector.run([](FakeProvider &p) {
            p.setDefaultReply(FakeReply::text(200, QByteArray(), "application/x-protobuf"));
        });
        const QStringList modes { u"off"_s, u"unreachable"_s, u"collector"_s };
        std::printf("bench_batch --otlp-overhead: %d %s calls, %d ms per reply, %d runs each, "
                    "median wall ms\n",
                    calls, threeTurns ? "three-turn" : "two-turn", latency, repeat);
        std::printf("%6s %12s %18s %18s %10s   %s\n", "jobs", "export off", "unreachable",
                    "collector", "requests", "CLI CPU ms: off / unreachable / collector");
        for (int jobs : jobsList) {
            QHash<QString, QList<qint64>> walls;
            QHash<QString, QList<qint64>> cpus; // the CLI's own CPU time, ms
            int failures = 0;
            for (int r = 0; r < repeat; ++r) {
                for (const QString &mode : modes) {
                    const QString db =
                        dir.filePath(u"otlp-%1-%2-%3.sqlite"_s.arg(mode).arg(jobs).arg(r));
                    QProcess process;
                    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
                    for (const QString &name : env.keys()) {
                        if (name.startsWith(u"OTEL_"_s))
                            env.remove(name);
                    }
                    env.insert(u"CALLSCOPE_BENCH_KEY"_s, u"sk-bench"_s);
                    if (mode != u"off"_s)
                        env.insert(u"OTEL_EXPORTER_OTLP_ENDPOINT"_s,
                                   mode == u"unreachable"_s ? unreachable
                                                            : collector.baseUrl().toString());
                    process.setProcessEnvironment(env);
                    process.setStandardOutputFile(QProcess::nullDevice());
                    const double cpu0 = childCpuSeconds();
                    QElapsedTimer clock;
                    clock.start();
                    process.start(cli,
                                  { u"batch"_s, specPath, u"--inputs"_s, inputsPath, u"--db"_s, db,
                                    u"--jobs"_s, QString::number(jobs), u"--trust"_s });
                    process.waitForFinished(-1);
                    walls[mode].append(clock.elapsed());
                    cpus[mode].append(qint64((childCpuSeconds() - cpu0) * 1000));
                    if (process.exitCode() != 0 && failures++ == 0)
                        std::fprintf(stderr, "callscope-cli batch (%s) exited %d: %s\n",
                                     qPrintable(mode), process.exitCode(),
                                     process.readAllStandardError().left(2000).constData());
                }
            }
            int requests = 0;
            collector.run([&](FakeProvider &p) {
                requests = int(p.requestCount());
                p.clearRequests();
                p.resetCounters();
            });
            const qint64 off = median(walls.value(u"off"_s));
            auto cell = [off](qint64 wall) {
                return QString(
                    u"%1 (%2%3%)"_s.arg(wall)
                        .arg(wall >= off ? u"+"_s : QString())
                        .arg(off > 0 ? 100.0 * double(wall - off) / double(off) : 0.0, 0, 'f', 2));
            };
            const qint64 cpuOff = median(cpus.value(u"off"_s));
            auto cpuCell = [cpuOff](qint64 cpu) {
                return QString(
                    u"%1 (%2%3%)"_s.arg(cpu)
                        .arg(cpu >= cpuOff ? u"+"_s : QString())
                        .arg(cpuOff > 0 ? 100.0 * double(cpu - cpuOff) / double(cpuOff) : 0.0, 0,
                             'f', 1));
            };
            std::printf("%6d %12lld %18s %18s %10d   %lld / %s / %s%s\n", jobs, off,
                        qPrintable(cell(median(walls.value(u"unreachable"_s)))),
                        qPrintable(cell(median(walls.value(u"collector"_s)))), requests, cpuOff,
                        qPrintable(cpuCell(median(cpus.value(u"unreachable"_s)))),
                        qPrintable(cpuCell(median(cpus.value(u"collector"_s)))),
                        failures ? "  (a run exited != 0)" : "");
            for (const QString &mode : { u"unreachable"_s, u"collector"_s }) {
                QList<qint64> diffs;
                const QList<qint64> base = walls.value(u"off"_s);
                const QList<qint64> with = walls.value(mode);
                for (qsizetype i = 0; i < std::min(base.size(), with.size()); ++i)
                    diffs.append(with.at(i) - base.at(i));
                const double percent = off > 0 ? 100.0 * double(median(diffs)) / double(off) : 0.0;
                std::printf("%6s   %-11s paired difference, median %+lld ms (%+.2f%%), middle "
                            "half %+lld .. %+lld ms\n",
                            "", qPrintable(mode), median(diffs), percent, quantile(diffs, 0.25),
                            quantile(diffs, 0.75));
            }
            std::fflush(stdout);
        }
        return 0;
    }

    std::printf("bench_batch: %d %s calls, %d ms per reply, provider on its own thread\n", calls,
                threeTurns ? "three-turn" : "two-turn", latency);
    std::printf("%-28s %6s %10s %10s %7s %9s %12s\n", "client", "jobs", "wall ms", "ideal ms",
                "x ideal", "peak", "CPU/turn ms");
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
        process.start(cli,
                      { u"batch"_s, specPath, u"--inputs"_s, inputsPath, u"--db"_s, db, u"--jobs"_s,
                        QString::number(jobs), u"--trust"_s }); // the bench's own spec
        process.waitForFinished(-1);
        const qint64 wall = clock.elapsed();
        const double cpu = childCpuSeconds() - cpu0;
        int requests = 0;
        int peak = 0;
        server.run([&](FakeProvider &p) {
            requests = int(p.requestCount());
            peak = p.peakInFlight();
        });
        const double ideal = double(calls) * turns * latency / jobs;
        std::printf("%-28s %6d %10lld %10.0f %7.2f %9s %12.3f%s\n", "callscope-cli batch", jobs,
                    wall, ideal, wall / ideal, qPrintable(QString::number(peak)),
                    requests ? cpu * 1000 / requests : 0.0,
                    process.exitCode() == 0 ? "" : "  (exit != 0)");
        std::fflush(stdout);
    }

    // The peer, when installed: the same calls through the openai SDK.
    const QString peerDir = QStringLiteral(CALLSCOPE_BENCH_SOURCE_DIR) + u"/peer"_s;
    const QString node = QStandardPaths::findExecutable(u"node"_s);
    if (threeTurns)
        return 0;
    if (node.isEmpty() || !QFileInfo::exists(peerDir + u"/node_modules/openai"_s)) {
        std::printf("%-28s (not installed: cd bench/peer && npm install)\n", "openai SDK (node)");
        return 0;
    }
    for (int jobs : jobsList) {
        QProcess peer;
        peer.start(node,
                   { peerDir + u"/openai_batch.mjs"_s, server.baseUrl().toString(),
                     QString::number(calls), QString::number(jobs) });
        const double cpu0 = childCpuSeconds();
        peer.waitForFinished(-1);
        const double cpu = childCpuSeconds() - cpu0;
        const QJsonObject result = QJsonDocument::fromJson(peer.readAllStandardOutput()).object();
        const double ideal = double(calls) * 2 * latency / jobs;
        const double wall = result.value(u"wall_ms"_s).toDouble();
        std::printf("%-28s %6d %10.0f %10.0f %7.2f %9s %12.3f%s\n", "openai SDK (node, no store)",
                    jobs, wall, ideal, wall / ideal, "", cpu * 1000 / (calls * 2),
                    result.value(u"done"_s).toInt() == calls ? "" : "  (incomplete)");
    }
    return 0;
}
