// The history on PostgreSQL: the store's calls, revisions, sessions, batches, experiments,
// search and export/import on a real server of the test's own (tests/support/pgserver.h).
// Skips only when PostgreSQL 15's programs are not installed (tools/dev.sh installs them).

#include "core/store/callexchange.h"
#include "core/store/callstore.h"
#include "core/store/database.h"
#include "tests/support/pgserver.h"
#include "tests/support/testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace Callscope;
using namespace Callscope::Test;

namespace {

QJsonObject parse(const QByteArray &json)
{
    return QJsonDocument::fromJson(json).object();
}

CallRecord record(const QString &kind, const QString &text, qint64 createdMs)
{
    CallRecord r;
    r.kind = kind;
    r.status = CallStatus::Completed;
    r.engineType = u"openai"_s;
    r.model = u"gpt-test"_s;
    r.systemPrompt = u"Plan the work."_s;
    r.input = QJsonObject { { u"text"_s, text } };
    r.response = QJsonObject { { u"title"_s, u"Budget review"_s },
                               { u"steps"_s, QJsonArray { u"collect"_s, u"compare"_s } } };
    r.metadata = QJsonObject { { u"ticket"_s, 7 }, { u"note"_s, u"it's \"quoted\" \\ here"_s } };
    r.spec = QJsonObject { { u"kind"_s, kind }, { u"api_key"_s, u"sk-never-stored"_s } };
    r.messages = messagesToJson({ Message::user(text) });
    r.transcript = QJsonArray { QJsonObject { { u"role"_s, u"user"_s }, { u"content"_s, text } } };
    TurnRecord t0;
    t0.index = 0;
    t0.finishReason = FinishReason::Stop;
    t0.rawFinishReason = u"stop"_s;
    t0.usage = { 100, 20, 10, 5, 3, 1 };
    t0.note = u"first"_s;
    t0.requestReport = QJsonObject { { u"messages"_s, 2 } };
    r.turns = { t0 };
    AttemptRecord a0;
    a0.index = 0;
    a0.turn = 0;
    a0.outcome = u"ok"_s;
    a0.finishReason = FinishReason::Stop;
    a0.httpStatus = 200;
    a0.usage = t0.usage;
    a0.startedAt = QDateTime::fromMSecsSinceEpoch(createdMs + 5, Qt::UTC);
    a0.durationMs = 310;
    r.attempts = { a0 };
    r.usage = t0.usage;
    r.createdAt = QDateTime::fromMSecsSinceEpoch(createdMs, Qt::UTC);
    r.finishedAt = r.createdAt.addMSecs(1234);
    return r;
}

QList<qint64> ids(const QList<HistoryRow> &rows)
{
    QList<qint64> list;
    for (const HistoryRow &row : rows)
        list.append(row.id);
    return list;
}

} // namespace

class TestPgHistory : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void schemaMatchesSqlite();
    void refusesNewerSchema();
    void refusesBadUrls();
    void callsRoundTrip();
    void revisions();
    void sessionsAndCompactions();
    void batchesAndExperiments();
    void searchFiltersAndPages();
    void exportImportRoundTrip();

private:
    // A new, empty database on the server, opened as a history.
    QString freshDatabase();
    std::unique_ptr<Database> openHistory(const QString &url);

    PgServer m_server;
    int m_databases = 0;
};

void TestPgHistory::initTestCase()
{
    if (PgServer::binDir().isEmpty())
        QSKIP("PostgreSQL 15 is not installed (tools/dev.sh installs postgresql-15)");
    QVERIFY2(QSqlDatabase::isDriverAvailable(u"QPSQL"_s),
             "Qt's PostgreSQL driver is missing (Debian package libqt6sql6-psql)");
    QString error;
    QVERIFY2(m_server.start(&error), qPrintable(error));
}

void TestPgHistory::cleanupTestCase()
{
    QString error;
    QVERIFY2(m_server.stop(&error), qPrintable(error));
}

QString TestPgHistory::freshDatabase()
{
    const QString name = u"history%1"_s.arg(++m_databases);
    QString error;
    if (!m_server.createDatabase(name, &error))
        qWarning() << error;
    return m_server.url(name);
}

std::unique_ptr<Database> TestPgHistory::openHistory(const QString &url)
{
    auto opened = Database::open(url);
    if (!opened) {
        qWarning() << opened.error().message;
        return nullptr;
    }
    return std::move(opened.value());
}

void TestPgHistory::schemaMatchesSqlite()
{
    const QString url = freshDatabase();
    auto db = openHistory(url);
    QVERIFY(db);
    QVERIFY(db->isServer());
    QCOMPARE(db->schemaVersion(), Database::latestSchemaVersion());
    QCOMPARE(db->searchMode(), Database::SearchMode::TextSearch);

    // The same tables and columns as a SQLite history: a team's SQL reads either.
    QTemporaryDir dir;
    auto local = Database::open(dir.filePath(u"h.sqlite"_s));
    QVERIFY(local);
    QSqlQuery sqliteTables(local.value()->connection());
    QVERIFY(sqliteTables.exec(
        u"SELECT m.name, p.name FROM sqlite_master m JOIN pragma_table_info(m.name) p "
        "WHERE m.type = 'table' AND m.name NOT LIKE 'calls_fts%' AND m.name != 'calls_search' "
        "ORDER BY 1, 2"_s));
    QStringList expected;
    while (sqliteTables.next())
        expected.append(sqliteTables.value(0).toString() + u'.' + sqliteTables.value(1).toString());
    QSqlQuery pgTables(db->connection());
    QVERIFY(pgTables.exec(
        u"SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = "
        "'public' AND table_name NOT IN ('callscope_schema', 'calls_search') ORDER BY 1, 2"_s));
    QStringList columns;
    while (pgTables.next())
        columns.append(pgTables.value(0).toString() + u'.' + pgTables.value(1).toString());
    QVERIFY(expected.contains(u"calls.kind"_s));
    QCOMPARE(columns, expected);

    // Opening again migrates nothing.
    db.reset();
    db = openHistory(url);
    QVERIFY(db);
    QCOMPARE(db->schemaVersion(), Database::latestSchemaVersion());
}

void TestPgHistory::refusesNewerSchema()
{
    const QString url = freshDatabase();
    {
        auto db = openHistory(url);
        QVERIFY(db);
        QSqlQuery q(db->connection());
        QVERIFY(q.exec(u"UPDATE callscope_schema SET version = %1"_s.arg(
            Database::latestSchemaVersion() + 1)));
    }
    auto refused = Database::open(url);
    QVERIFY(!refused);
    QCOMPARE(refused.error().code, StoreError::Code::NewerVersion);
    QVERIFY2(refused.error().message.contains(u"newer Callscope"_s),
             qPrintable(refused.error().message));
}

void TestPgHistory::refusesBadUrls()
{
    auto withPassword = Database::open(u"postgresql://me:s3cret@localhost:5432/team"_s);
    QVERIFY(!withPassword);
    QCOMPARE(withPassword.error().code, StoreError::Code::InvalidInput);
    QVERIFY(!withPassword.error().message.contains(u"s3cret"_s));
    QVERIFY(withPassword.error().message.contains(u"PGPASSFILE"_s));

    auto unknown = Database::open(m_server.url(u"postgres"_s) + u"&password=x"_s);
    QVERIFY(!unknown);
    QVERIFY2(unknown.error().message.contains(u"unknown parameter password"_s),
             qPrintable(unknown.error().message));

    auto noDatabase = Database::open(u"postgresql://me@localhost:5432"_s);
    QVERIFY(!noDatabase);
    QCOMPARE(noDatabase.error().code, StoreError::Code::InvalidInput);

    // No server there: a clear error, not a hang.
    QTemporaryDir empty;
    auto unreachable = Database::open(
        u"postgresql://me@localhost:%1/team?host=%2"_s.arg(m_server.port()).arg(empty.path()));
    QVERIFY(!unreachable);
    QCOMPARE(unreachable.error().code, StoreError::Code::Io);
    QVERIFY2(unreachable.error().message.contains(u"cannot use the history server"_s),
             qPrintable(unreachable.error().message));
}

void TestPgHistory::callsRoundTrip()
{
    auto db = openHistory(freshDatabase());
    QVERIFY(db);
    CallStore store(*db);
    CallRecord call = record(u"planner"_s, u"Plan the quarterly budget review"_s, 1764460800000);
    TurnExchange exchange;
    exchange.turn = 0;
    exchange.httpStatus = 200;
    exchange.request = "{\"model\":\"gpt-test\"}"_ba;
    exchange.response = QByteArray("binary\0body\xff", 12);
    exchange.requestBytes = exchange.request.size();
    exchange.responseBytes = exchange.response.size();
    call.exchanges = { exchange };

    const auto id = store.insertCall(call);
    QVERIFY2(id, qPrintable(id.error().message));
    QVERIFY(*id > 0);
    const auto back = store.getCall(*id);
    QVERIFY2(back, qPrintable(back.error().message));
    CallRecord expected = call;
    expected.id = *id;
    expected.spec = CallStore::stripSecrets(call.spec);
    expected.exchanges.clear();
    QCOMPARE(back->toJson(), expected.toJson());
    QVERIFY(!back->spec.contains(u"api_key"_s));
    const auto exchanges = store.exchanges(*id);
    QVERIFY(exchanges);
    QCOMPARE(*exchanges, call.exchanges);

    // Finishing a running call replaces every field.
    CallRecord running = record(u"planner"_s, u"Still running"_s, 1764460900000);
    running.status = CallStatus::Running;
    running.response = QJsonValue();
    running.finishedAt = QDateTime();
    const auto runningId = store.insertCall(running);
    QVERIFY(runningId);
    running.id = *runningId;
    running.status = CallStatus::Failed;
    running.error = u"the provider said no"_s;
    running.errorCategory = ErrorCategory::Model;
    running.finishedAt = running.createdAt.addMSecs(99);
    QVERIFY(!store.updateCall(running));
    const auto finished = store.getCall(*runningId);
    QVERIFY(finished);
    QCOMPARE(finished->status, CallStatus::Failed);
    QCOMPARE(finished->error, running.error);
    QVERIFY(finished->response.isNull());

    QCOMPARE(store.getCall(999999).error().code, StoreError::Code::NotFound);
    const auto integrity = store.checkIntegrity();
    QVERIFY(integrity);
    QVERIFY2(integrity->ok(), qPrintable(integrity->problems.join(u'\n')));
}

void TestPgHistory::revisions()
{
    auto db = openHistory(freshDatabase());
    QVERIFY(db);
    CallStore store(*db);
    const auto root = store.insertCall(record(u"planner"_s, u"root"_s, 1000));
    QVERIFY(root);
    CallRecord child = record(u"planner"_s, u"child"_s, 2000);
    child.parent = *root;
    const auto a = store.insertCall(child);
    const auto b = store.insertCall(child);
    QVERIFY(a && b);
    CallRecord grandchild = record(u"planner"_s, u"grandchild"_s, 3000);
    grandchild.parent = *a;
    const auto c = store.insertCall(grandchild);
    QVERIFY(c);

    const auto children = store.children(*root);
    QVERIFY(children);
    QCOMPARE(ids(*children), (QList<qint64> { *a, *b }));
    QCOMPARE(*store.revisionRoot(*c), *root);
    const auto tree = store.revisionTree(*root);
    QVERIFY2(tree, qPrintable(tree.error().message));
    QCOMPARE(ids(*tree), (QList<qint64> { *root, *a, *b, *c }));
    QCOMPARE(tree->first().revisionCount, 2);

    CallRecord orphan = record(u"planner"_s, u"orphan"_s, 4000);
    orphan.parent = 424242;
    QCOMPARE(store.insertCall(orphan).error().code, StoreError::Code::NotFound);
}

void TestPgHistory::sessionsAndCompactions()
{
    auto db = openHistory(freshDatabase());
    QVERIFY(db);
    CallStore store(*db);
    Session session;
    session.title = u"Budget chat"_s;
    session.systemPrompt = u"Be brief."_s;
    const auto sessionId = store.createSession(session);
    QVERIFY2(sessionId, qPrintable(sessionId.error().message));

    CallRecord first = record(u"chat"_s, u"hello"_s, 1000);
    first.session = *sessionId;
    SessionMessage user;
    user.message = Message::user(u"hello"_s);
    SessionMessage answer;
    answer.message = Message::assistant(u"hi"_s);
    SequenceSpan span;
    const auto firstId = store.insertCall(first, { user, answer }, {}, &span);
    QVERIFY2(firstId, qPrintable(firstId.error().message));
    QCOMPARE(span.first, 1);
    QCOMPARE(span.last, 2);
    const auto more = store.appendMessages(*sessionId, { user, answer });
    QVERIFY(more);
    QCOMPARE(more->first, 3);

    CallRecord summaryCall = record(u"compaction"_s, u"summarise"_s, 2000);
    const auto compaction =
        store.recordCompaction(*sessionId, summaryCall, 1, 2, u"they said hello"_s);
    QVERIFY2(compaction, qPrintable(compaction.error().message));
    const auto forModel = store.sessionMessages(*sessionId, CallStore::MessageView::ForModel);
    QVERIFY(forModel);
    QCOMPARE(forModel->size(), 3);
    QVERIFY(forModel->first().isSummary);
    QCOMPARE(forModel->first().message.text, u"they said hello"_s);
    QCOMPARE(store.getSession(*sessionId)->summary, u"they said hello"_s);
    QCOMPARE(store.recordCompaction(*sessionId, summaryCall, 5, 9, u"x"_s).error().code,
             StoreError::Code::InvalidInput);

    QVERIFY(!store.renameSession(*sessionId, u"Renamed"_s));
    QCOMPARE(store.listSessions()->first().title, u"Renamed"_s);
    QCOMPARE(store.renameSession(777, u"x"_s).code, StoreError::Code::NotFound);
    const auto calls = store.sessionCalls(*sessionId);
    QVERIFY(calls);
    QCOMPARE(calls->size(), 2); // the chat call and the summary call
}

void TestPgHistory::batchesAndExperiments()
{
    auto db = openHistory(freshDatabase());
    QVERIFY(db);
    CallStore store(*db);
    BatchInfo batch;
    batch.specPath = u"/work/a.spec.json"_s;
    batch.specHash = "abc";
    batch.spec = parse(R"({"kind":"planner"})");
    batch.inputsPath = u"/work/in.jsonl"_s;
    batch.inputsHash = "def";
    batch.totalLines = 2;
    const auto batchId = store.createBatch(batch);
    QVERIFY2(batchId, qPrintable(batchId.error().message));
    InsertOptions link;
    link.batch = BatchLink { *batchId, 1 };
    const auto lineCall = store.insertCall(record(u"planner"_s, u"line 1"_s, 1000), {}, link);
    QVERIFY2(lineCall, qPrintable(lineCall.error().message));
    QCOMPARE(store.batchCompletedLines(*batchId)->value(1), *lineCall);
    QCOMPARE(store.latestBatch(batch.specPath, batch.inputsPath)->value().id, *batchId);

    ExperimentRecord experiment;
    experiment.name = u"budget"_s;
    experiment.definitionHash = "hash1";
    experiment.definition = parse(R"({"name":"budget"})");
    const auto experimentId = store.createExperiment(experiment);
    QVERIFY2(experimentId, qPrintable(experimentId.error().message));
    const auto second = store.createExperiment(experiment);
    QVERIFY(second);
    QCOMPARE(store.latestExperimentNamed(u"budget"_s, *second)->value(), *experimentId);
    QCOMPARE(store.findExperiments("hash1")->size(), 2);

    CallRecord caseCall = record(u"planner"_s, u"case a"_s, 5000);
    caseCall.metadata = QJsonObject { { u"experiment_id"_s, *experimentId },
                                      { u"case"_s, u"a"_s },
                                      { u"variant"_s, u"base"_s },
                                      { u"repeat"_s, 0 } };
    const auto caseId = store.insertCall(caseCall);
    QVERIFY(caseId);
    CallRecord judge = record(u"judge"_s, u"judge a"_s, 5001);
    judge.metadata = QJsonObject { { u"experiment_id"_s, *experimentId },
                                   { u"judge_of"_s, *caseId },
                                   { u"judge_key"_s, u"tone"_s } };
    judge.response = QJsonObject { { u"pass"_s, true } };
    const auto judgeId = store.insertCall(judge);
    QVERIFY(judgeId);
    const auto completed =
        store.experimentCompletedCalls(*experimentId, QDateTime::fromMSecsSinceEpoch(4000));
    QVERIFY2(completed, qPrintable(completed.error().message));
    QCOMPARE(completed->size(), 1);
    QCOMPARE(completed->first().callId, *caseId);
    QCOMPARE(completed->first().variant, u"base"_s);
    const auto judges = store.experimentJudgeCalls(*experimentId, {});
    QVERIFY2(judges, qPrintable(judges.error().message));
    QCOMPARE(judges->size(), 1);
    QCOMPARE(judges->first().judgedCallId, *caseId);
    QCOMPARE(judges->first().judgeKey, u"tone"_s);
    QCOMPARE(judges->first().response.toObject().value(u"pass"_s), QJsonValue(true));
    const auto similar = store.previousSimilarCall(*caseId);
    QVERIFY2(similar, qPrintable(similar.error().message));

    // A run is stored once per (case, variant, repeat): the second save replaces the first.
    ExperimentRunRecord run;
    run.experimentId = *experimentId;
    run.caseId = u"a"_s;
    run.variant = u"base"_s;
    run.callId = *caseId;
    run.status = u"completed"_s;
    run.costUsd = 0.25;
    const auto runId = store.saveExperimentRun(run);
    QVERIFY2(runId, qPrintable(runId.error().message));
    run.passed = true;
    run.cached = true;
    const auto again = store.saveExperimentRun(run);
    QVERIFY(again);
    QCOMPARE(*again, *runId);
    const auto runs = store.experimentRuns(*experimentId);
    QVERIFY(runs);
    QCOMPARE(runs->size(), 1);
    QVERIFY(runs->first().passed);
    QVERIFY(runs->first().cached);
    QCOMPARE(runs->first().costUsd, std::optional<double>(0.25));
    QVERIFY(!runs->first().directCostUsd);

    // People's labels: one per run and reviewer on the server too.
    ReviewLabel label;
    label.experimentId = *experimentId;
    label.runId = *runId;
    label.callId = *caseId;
    label.caseId = u"a"_s;
    label.variant = u"base"_s;
    label.verdict = u"pass"_s;
    label.score = 5;
    label.reviewer = u"ana"_s;
    const auto labelId = store.saveReviewLabel(label);
    QVERIFY2(labelId, qPrintable(labelId.error().message));
    label.verdict = u"fail"_s;
    label.score.reset();
    const auto relabelled = store.saveReviewLabel(label);
    QVERIFY2(relabelled, qPrintable(relabelled.error().message));
    QCOMPARE(*relabelled, *labelId);
    const auto labels = store.reviewLabels(*experimentId);
    QVERIFY2(labels, qPrintable(labels.error().message));
    QCOMPARE(labels->size(), 1);
    QCOMPARE(labels->first().verdict, u"fail"_s);
    QVERIFY(!labels->first().score);
    QCOMPARE(labels->first().callId, std::optional<qint64>(*caseId));
    QVERIFY(!store.deleteReviewLabel(*experimentId, u"a"_s, u"base"_s, 0, u"ana"_s));
    QVERIFY(store.reviewLabels(*experimentId)->isEmpty());
}

void TestPgHistory::searchFiltersAndPages()
{
    auto db = openHistory(freshDatabase());
    QVERIFY(db);
    CallStore store(*db);
    QList<qint64> all;
    for (int i = 0; i < 7; ++i) {
        CallRecord r =
            record(i % 2 ? u"writer"_s : u"planner"_s,
                   i == 3 ? u"The Flamingo, budget"_s : u"plain text %1"_s.arg(i), 1000 + i * 10);
        const auto id = store.insertCall(r);
        QVERIFY(id);
        all.prepend(*id);
    }
    HistoryQuery query;
    query.search = u"flamingo BUDGET"_s;
    auto found = store.listCalls(query);
    QVERIFY2(found, qPrintable(found.error().message));
    QCOMPARE(found->rows.size(), 1);
    QCOMPARE(found->rows.first().inputPreview, u"The Flamingo, budget"_s);
    query.search = u"flamingo nowhere"_s;
    QVERIFY(store.listCalls(query)->rows.isEmpty());

    HistoryQuery writers;
    writers.kind = u"writer"_s;
    QCOMPARE(store.listCalls(writers)->rows.size(), 3);

    HistoryQuery page;
    page.limit = 3;
    QList<qint64> walked;
    for (;;) {
        const auto p = store.listCalls(page);
        QVERIFY2(p, qPrintable(p.error().message));
        walked += ids(p->rows);
        if (!p->next)
            break;
        page.after = p->next;
    }
    QCOMPARE(walked, all);
}

void TestPgHistory::exportImportRoundTrip()
{
    QTemporaryDir dir;
    auto local = Database::open(dir.filePath(u"h.sqlite"_s));
    QVERIFY(local);
    CallStore localStore(*local.value());
    const auto root = localStore.insertCall(record(u"planner"_s, u"exported root"_s, 1000));
    QVERIFY(root);
    CallRecord child = record(u"planner"_s, u"exported child"_s, 2000);
    child.parent = *root;
    QVERIFY(localStore.insertCall(child));
    const auto document = CallExchange(localStore).exportRevisionTree(*root);
    QVERIFY(document);

    auto db = openHistory(freshDatabase());
    QVERIFY(db);
    CallStore store(*db);
    const auto imported = CallExchange(store).importDocument(*document);
    QVERIFY2(imported, qPrintable(imported.error().message));
    QCOMPARE(imported->callIds.size(), 2);
    const auto back = CallExchange(store).exportRevisionTree(imported->callIds.first());
    QVERIFY2(back, qPrintable(back.error().message));
    // The same document, but for the ids the server gave and the time of the export.
    auto calls = [](const QJsonObject &doc) {
        QJsonArray out;
        for (const QJsonValue &v : doc.value(u"calls"_s).toArray()) {
            QJsonObject call = v.toObject();
            call.remove(u"id"_s);
            call.remove(u"parent"_s);
            out.append(call);
        }
        return out;
    };
    QCOMPARE(calls(*back), calls(*document));
}

QTEST_GUILESS_MAIN(TestPgHistory)
#include "tst_pghistory.moc"
