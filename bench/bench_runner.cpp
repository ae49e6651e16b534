// Runner throughput: N structured calls (default 1,000) of three turns each (tool call, tool
// call, submit_output) through CallService + HttpModelClient + the OpenAI chat codec against the
// fake provider on 127.0.0.1. The fake provider runs on its own thread, so the CPU time measured
// on the main thread is the runner's own (request building, HTTP client, parsing, validation,
// tools, budget), not the server's.
//
//   bench_runner [CALLS] [--store]     --store also writes every call to a temporary database

#include "core/model/specio.h"
#include "core/service/calljob.h"
#include "core/service/callservice.h"
#include "core/store/callstore.h"
#include "core/store/database.h"
#include "tests/support/fakeprovider.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QTemporaryDir>
#include <QThread>

#include <cstdio>
#include <ctime>
#include <future>

using namespace Qt::StringLiterals;
using namespace Callscope;

namespace {

double cpuSeconds(clockid_t clock)
{
    timespec ts {};
    clock_gettime(clock, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

QByteArray toolCall(const QString &id, const QString &name, const QJsonObject &args)
{
    const QJsonObject body {
        { u"id"_s, u"chatcmpl-bench"_s },
        { u"object"_s, u"chat.completion"_s },
        { u"model"_s, u"bench"_s },
        { u"choices"_s,
          QJsonArray { QJsonObject {
              { u"index"_s, 0 },
              { u"message"_s,
                QJsonObject { { u"role"_s, u"assistant"_s },
                              { u"content"_s, QJsonValue() },
                              { u"tool_calls"_s,
                                QJsonArray { QJsonObject {
                                    { u"id"_s, id },
                                    { u"type"_s, u"function"_s },
                                    { u"function"_s,
                                      QJsonObject { { u"name"_s, name },
                                                    { u"arguments"_s,
                                                      QString::fromUtf8(QJsonDocument(args).toJson(
                                                          QJsonDocument::Compact)) } } } } } } } },
              { u"finish_reason"_s, u"tool_calls"_s } } } },
        { u"usage"_s,
          QJsonObject { { u"prompt_tokens"_s, 800 },
                        { u"completion_tokens"_s, 60 },
                        { u"total_tokens"_s, 860 } } }
    };
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QLoggingCategory::setFilterRules(u"callscope.*.debug=false"_s);
    const QStringList args = app.arguments();
    const int calls = args.size() > 1 && args.at(1).toInt() > 0 ? args.at(1).toInt() : 1000;
    const bool withStore = args.contains(u"--store"_s);

    // The server lives on its own thread with every reply scripted up front.
    QThread serverThread;
    serverThread.start();
    std::promise<QUrl> baseUrl;
    Test::FakeProvider *server = nullptr;
    QMetaObject::invokeMethod(
        qApp, [&] {}, Qt::DirectConnection);
    QObject anchor;
    anchor.moveToThread(&serverThread);
    QMetaObject::invokeMethod(
        &anchor,
        [&] {
            server = new Test::FakeProvider;
            server->listen();
            const QJsonObject plan { { u"title"_s, u"Stream the export"_s },
                                     { u"steps"_s,
                                       QJsonArray { u"write a failing test"_s,
                                                    u"stream the writer"_s, u"add progress"_s } },
                                     { u"risk"_s, u"medium"_s } };
            for (int i = 0; i < calls; ++i) {
                server->enqueue(Test::FakeReply::json(
                    200, toolCall(u"call_a"_s, u"get_ticket"_s, { { u"id"_s, i } })));
                server->enqueue(
                    Test::FakeReply::json(200, toolCall(u"call_b"_s, u"list_team"_s, {})));
                server->enqueue(
                    Test::FakeReply::json(200, toolCall(u"call_c"_s, u"submit_output"_s, plan)));
            }
            baseUrl.set_value(server->baseUrl());
        },
        Qt::QueuedConnection);
    const QUrl url = baseUrl.get_future().get();

    const QJsonObject specJson {
        { u"kind"_s, u"planner"_s },
        { u"system_prompt"_s,
          u"You plan engineering work. Read the ticket, check the team, then submit the plan."_s },
        { u"response_schema"_s,
          QJsonObject {
              { u"type"_s, u"object"_s },
              { u"properties"_s,
                QJsonObject {
                    { u"title"_s, QJsonObject { { u"type"_s, u"string"_s } } },
                    { u"steps"_s,
                      QJsonObject { { u"type"_s, u"array"_s },
                                    { u"items"_s, QJsonObject { { u"type"_s, u"string"_s } } },
                                    { u"minItems"_s, 1 } } },
                    { u"risk"_s,
                      QJsonObject {
                          { u"enum"_s, QJsonArray { u"low"_s, u"medium"_s, u"high"_s } } } } } },
              { u"required"_s, QJsonArray { u"title"_s, u"steps"_s, u"risk"_s } },
              { u"additionalProperties"_s, false } } },
        { u"tools"_s,
          QJsonArray {
              QJsonObject {
                  { u"name"_s, u"get_ticket"_s },
                  { u"description"_s, u"Load a ticket."_s },
                  { u"mock"_s, QString(u"Ticket: export fails over 10 MB. "_s).repeated(40) } },
              QJsonObject {
                  { u"name"_s, u"list_team"_s },
                  { u"description"_s, u"List the team."_s },
                  { u"mock"_s,
                    QJsonObject { { u"members"_s, QJsonArray { u"Ada"_s, u"Lin"_s } } } } } } },
        { u"engine"_s,
          QJsonObject { { u"type"_s, u"openai"_s },
                        { u"model"_s, u"bench"_s },
                        { u"base_url"_s, url.toString() },
                        { u"stream"_s, false },
                        { u"max_tokens"_s, 512 } } }
    };
    const SpecLoadResult loaded = specFromJson(specJson);
    if (!loaded.spec) {
        std::fprintf(stderr, "bench spec invalid\n");
        return 1;
    }

    QTemporaryDir dir;
    std::unique_ptr<Database> db;
    std::unique_ptr<CallStore> store;
    if (withStore) {
        db = std::move(Database::open(dir.filePath(u"bench.sqlite"_s)).value());
        store = std::make_unique<CallStore>(*db);
    }
    QNetworkAccessManager nam;
    CallService service(&nam, store.get(), nullptr, nullptr);

    int done = 0;
    int completed = 0;
    LaunchRequest request;
    request.spec = *loaded.spec;
    request.input.text = u"Plan ticket 7"_s;
    QObject::connect(&service, &CallService::jobFinished, &app,
                     [&](CallJob *, const LaunchResult &result) {
                         ++done;
                         completed += result.record.status == CallStatus::Completed ? 1 : 0;
                         if (done == calls) {
                             app.quit();
                             return;
                         }
                         QMetaObject::invokeMethod(
                             &service, [&] { service.launch(request); }, Qt::QueuedConnection);
                     });

    QElapsedTimer wall;
    const double process0 = cpuSeconds(CLOCK_PROCESS_CPUTIME_ID);
    const double main0 = cpuSeconds(CLOCK_THREAD_CPUTIME_ID);
    double server0 = 0;
    QMetaObject::invokeMethod(
        &anchor, [&] { server0 = cpuSeconds(CLOCK_THREAD_CPUTIME_ID); },
        Qt::BlockingQueuedConnection);
    wall.start();
    service.launch(request);
    app.exec();
    const double seconds = double(wall.nsecsElapsed()) / 1e9;
    double server1 = 0;
    QMetaObject::invokeMethod(
        &anchor, [&] { server1 = cpuSeconds(CLOCK_THREAD_CPUTIME_ID); },
        Qt::BlockingQueuedConnection);
    // Everything but the server thread: the runner, the engine codec and Qt's HTTP thread.
    const double cpu = (cpuSeconds(CLOCK_PROCESS_CPUTIME_ID) - process0) - (server1 - server0);
    const double mainCpu = cpuSeconds(CLOCK_THREAD_CPUTIME_ID) - main0;

    std::printf("runner benchmark: %d calls x 3 turns, openai chat codec, loopback HTTP%s\n", calls,
                withStore ? ", stored in SQLite" : "");
    std::printf("  completed:            %d of %d\n", completed, calls);
    std::printf("  wall time:            %.2f s\n", seconds);
    std::printf("  calls per second:     %.1f\n", calls / seconds);
    std::printf("  client CPU per turn:  %.3f ms (whole process minus the server thread: runner, "
                "codec, Qt HTTP)\n",
                cpu * 1000.0 / (calls * 3.0));
    std::printf("  runner thread only:   %.3f ms per turn (request building, parsing, validation, "
                "tools, budget)\n",
                mainCpu * 1000.0 / (calls * 3.0));
    std::printf("  runner CPU per call:  %.3f ms\n", cpu * 1000.0 / calls);

    QMetaObject::invokeMethod(
        &anchor, [&] { delete server; }, Qt::BlockingQueuedConnection);
    serverThread.quit();
    serverThread.wait();
    return completed == calls ? 0 : 1;
}
