// The history on PostgreSQL: the store's calls, revisions, sessions, batches, experiments,
// search and export/import on a real server of the test's own (tests/support/pgserver.h);
// who and where on every row; and every callscope-cli command that touches the history, run as
// real processes against that server and the scripted fake provider (two "machines" at once, a
// reader role, a password kept in the keychain).
// Skips only when PostgreSQL 15's programs are not installed (tools/dev.sh installs them).

#include "core/store/callexchange.h"
#include "core/store/callstore.h"
#include "core/store/database.h"
#include "core/store/historyqueue.h"
#include "core/store/identity.h"
#include "core/store/storewriter.h"
#include "tests/support/fakeprovider.h"
#include "tests/support/pgserver.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>

#include <csignal>
#include <optional>

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

const QRegularExpression &uuidPattern()
{
    static const QRegularExpression pattern(
        u"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"_s);
    return pattern;
}

// One row of `sql` on the server's database, as strings.
QStringList queryRow(Database &db, const QString &sql)
{
    QSqlQuery q(db.connection());
    QStringList row;
    if (!q.exec(sql) || !q.next()) {
        qWarning() << sql << q.lastError().text();
        return row;
    }
    for (int i = 0; i < q.record().count(); ++i)
        row.append(q.value(i).toString());
    return row;
}

struct CliResult
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    QJsonObject json() const { return QJsonDocument::fromJson(out).object(); }
    QJsonArray array() const { return QJsonDocument::fromJson(out).array(); }
};

// A computer of its own for callscope-cli: a HOME with its settings (the person) and data, and
// the machine name the history records.
class Machine
{
public:
    Machine(const QString &person, const QString &name)
        : m_name(name)
    {
        QDir().mkpath(configDir() + u"/Callscope"_s);
        QFile settings(configDir() + u"/Callscope/callscope.conf"_s);
        if (settings.open(QIODevice::WriteOnly))
            settings.write("[history]\nperson=" + person.toUtf8() + "\n");
    }
    QString home() const { return m_home.path(); }
    QString configDir() const { return m_home.filePath(u".config"_s); }
    QProcessEnvironment environment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"HOME"_s, home());
        env.insert(u"XDG_CONFIG_HOME"_s, configDir());
        env.insert(u"XDG_DATA_HOME"_s, m_home.filePath(u".local/share"_s));
        env.insert(u"XDG_CACHE_HOME"_s, m_home.filePath(u".cache"_s));
        env.insert(u"CALLSCOPE_MACHINE"_s, m_name);
        env.insert(u"CALLSCOPE_TEST_API_KEY"_s, u"sk-pg-test-key"_s);
        env.remove(u"PGPASSWORD"_s);
        env.remove(u"PGPASSFILE"_s);
        return env;
    }
    QString filePath(const QString &name) const { return m_home.filePath(name); }

private:
    QTemporaryDir m_home;
    QString m_name;
};

QProcess *startCli(const QStringList &args, const QProcessEnvironment &env,
                   const QByteArray &input = {}, QObject *parent = nullptr)
{
    auto *process = new QProcess(parent);
    process->setProcessEnvironment(env);
    process->start(cliPath(), args);
    process->waitForStarted(10000);
    if (!input.isEmpty())
        process->write(input);
    process->closeWriteChannel();
    return process;
}

// Waits (on the event loop: the fake provider answers meanwhile) until the process ended.
CliResult finish(QProcess *process, int timeoutMs = 120000)
{
    if (process->state() != QProcess::NotRunning) {
        QSignalSpy finished(process, &QProcess::finished);
        if (!finished.wait(timeoutMs)) {
            process->kill();
            process->waitForFinished();
        }
    }
    CliResult r;
    r.exitCode = process->exitStatus() == QProcess::NormalExit ? process->exitCode() : -1;
    r.out = process->readAllStandardOutput();
    r.err = process->readAllStandardError();
    delete process;
    return r;
}

CliResult runCli(const QStringList &args, const QProcessEnvironment &env,
                 const QByteArray &input = {})
{
    return finish(startCli(args, env, input));
}

QString writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        qWarning() << "cannot write" << path;
    file.write(bytes);
    return path;
}

// A structured spec on the fake provider, an experiment of `cases` cases on it and a batch
// input file of `lines` lines, in `folder`.
struct Workload
{
    QString spec;
    QString experiment;
    QString inputs;
};

Workload writeWorkload(const QString &folder, const QUrl &provider, int cases, int lines)
{
    const QJsonObject spec {
        { u"kind"_s, u"planner"_s },
        { u"system_prompt"_s, u"Plan."_s },
        { u"response_schema"_s,
          QJsonObject {
              { u"type"_s, u"object"_s },
              { u"properties"_s,
                QJsonObject { { u"title"_s, QJsonObject { { u"type"_s, u"string"_s } } } } },
              { u"required"_s, QJsonArray { u"title"_s } } } },
        { u"engine"_s,
          QJsonObject { { u"type"_s, u"openai"_s },
                        { u"model"_s, u"gpt-test"_s },
                        { u"base_url"_s, provider.toString() },
                        { u"api_key_env"_s, u"CALLSCOPE_TEST_API_KEY"_s },
                        { u"stream"_s, false } } }
    };
    Workload w;
    w.spec = writeFile(folder + u"/planner.spec.json"_s, QJsonDocument(spec).toJson());
    QJsonArray dataset;
    for (int i = 1; i <= cases; ++i)
        dataset.append(QJsonObject { { u"id"_s, u"case%1"_s.arg(i) },
                                     { u"input"_s, u"Plan case %1"_s.arg(i) } });
    const QJsonObject experiment { { u"name"_s, u"team-plans"_s },
                                   { u"spec"_s, u"planner.spec.json"_s },
                                   { u"dataset"_s, dataset },
                                   { u"assert"_s,
                                     QJsonArray { QJsonObject { { u"type"_s, u"equals"_s },
                                                                { u"pointer"_s, u"/title"_s },
                                                                { u"value"_s, u"ok"_s } } } } };
    w.experiment =
        writeFile(folder + u"/plans.experiment.json"_s, QJsonDocument(experiment).toJson());
    QByteArray input;
    for (int i = 1; i <= lines; ++i)
        input += "\"Plan line " + QByteArray::number(i) + "\"\n";
    w.inputs = writeFile(folder + u"/inputs.jsonl"_s, input);
    return w;
}

void answerEverything(FakeProvider &provider)
{
    provider.setDefaultReply(FakeReply::json(
        200, openAiToolCallBody(u"call_1"_s, u"submit_output"_s, { { u"title"_s, u"ok"_s } })));
}

// Every file below `folder` that holds `needle`.
QStringList filesHolding(const QString &folder, const QByteArray &needle)
{
    QStringList found;
    QDirIterator it(folder, QDir::Files | QDir::Hidden | QDir::System,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile file(it.next());
        if (file.open(QIODevice::ReadOnly) && file.readAll().contains(needle))
            found.append(file.fileName());
    }
    return found;
}

// The local queue files (core/store/historyqueue.h) below a machine's HOME.
QStringList queueFiles(const QString &home)
{
    QStringList found;
    QDirIterator it(home, { u"*.sqlite"_s }, QDir::Files | QDir::Hidden,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        if (path.contains(u"/queue/"_s))
            found.append(path);
    }
    return found;
}

// Calls and experiment runs in a queue file, as "calls runs".
QString queueCounts(const QString &path)
{
    Database::Options options;
    options.readOnly = true;
    options.mustWrite = false;
    auto db = Database::open(path, options);
    if (!db)
        return db.error().message;
    CallStore store(*db.value());
    const auto waiting = HistoryQueue::waiting(store);
    if (!waiting)
        return waiting.error().message;
    return u"%1 %2"_s.arg(waiting->calls).arg(waiting->runs);
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
    void identityOnEveryRow();
    void migrationGivesOldRowsUuids();
    void importTwiceStoresOnce();
    void everyCommandOnTheServer();
    void fourProcessesOnTwoMachines();
    void readerRoleBrowsesButDoesNotRun();
    void passwordFromTheKeychainOnly();
    void serverStopsInTheMiddleOfAnExperiment();
    void queueSharedByTwoProcesses();
    void pushTwiceSendsNothingNew();
    void pushStopsBetweenCalls();
    void writerQueuesAndSendsOnRetry();

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
    QCOMPARE(unreachable.error().code, StoreError::Code::Unreachable);
    QVERIFY2(unreachable.error().message.contains(u"cannot reach the history server"_s),
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
    // Given by the store: a UUID, this person and this machine (identityOnEveryRow).
    expected.uuid = back->uuid;
    expected.person = Identity::person();
    expected.machine = Identity::machine();
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

void TestPgHistory::identityOnEveryRow()
{
    auto db = openHistory(freshDatabase());
    QVERIFY(db);
    CallStore store(*db);
    const auto first = store.insertCall(record(u"planner"_s, u"first"_s, 1000));
    const auto second = store.insertCall(record(u"planner"_s, u"second"_s, 2000));
    QVERIFY(first && second);
    const auto a = store.getCall(*first);
    const auto b = store.getCall(*second);
    QVERIFY(a && b);
    QVERIFY2(uuidPattern().match(a->uuid).hasMatch(), qPrintable(a->uuid));
    QVERIFY(a->uuid != b->uuid);
    QCOMPARE(a->person, Identity::person());
    QCOMPARE(a->machine, Identity::machine());
    QCOMPARE(*store.findCallByUuid(a->uuid), *first);
    QCOMPARE(*store.findCallByUuid(u"00000000-0000-4000-8000-000000000000"_s), 0);

    // A record that says who made it keeps that (an import, a call from elsewhere).
    CallRecord theirs = record(u"planner"_s, u"theirs"_s, 3000);
    theirs.uuid = u"7d1c3a52-2f7b-4c55-9a41-6c0b1f2e9d10"_s;
    theirs.person = u"dana"_s;
    theirs.machine = u"build-box"_s;
    const auto theirsId = store.insertCall(theirs);
    QVERIFY(theirsId);
    QCOMPARE(store.getCall(*theirsId)->person, u"dana"_s);
    // The same UUID twice is refused: a call is stored once.
    QCOMPARE(store.insertCall(theirs).error().code, StoreError::Code::Constraint);

    // The history filters by person and shows who and where.
    HistoryQuery byDana;
    byDana.person = u"dana"_s;
    const auto page = store.listCalls(byDana);
    QVERIFY2(page, qPrintable(page.error().message));
    QCOMPARE(ids(page->rows), QList<qint64> { *theirsId });
    QCOMPARE(page->rows.first().machine, u"build-box"_s);
    QCOMPARE(page->rows.first().toJson().value(u"person"_s).toString(), u"dana"_s);

    Session session;
    session.title = u"chat"_s;
    const auto sessionId = store.createSession(session);
    QVERIFY(sessionId);
    const QString sessionUuid = store.getSession(*sessionId)->uuid;
    QVERIFY2(uuidPattern().match(sessionUuid).hasMatch(), qPrintable(sessionUuid));
    QCOMPARE(*store.findSessionByUuid(sessionUuid), *sessionId);

    ExperimentRecord experiment;
    experiment.name = u"e"_s;
    experiment.definitionHash = "h";
    const auto experimentId = store.createExperiment(experiment);
    QVERIFY(experimentId);
    ExperimentRunRecord run;
    run.experimentId = *experimentId;
    run.caseId = u"a"_s;
    run.variant = u"base"_s;
    run.status = u"completed"_s;
    QVERIFY(store.saveExperimentRun(run));
    const QString runUuid = store.experimentRuns(*experimentId)->first().uuid;
    QVERIFY2(uuidPattern().match(runUuid).hasMatch(), qPrintable(runUuid));
    // Saving the run again keeps its UUID.
    run.passed = true;
    QVERIFY(store.saveExperimentRun(run));
    const auto runs = store.experimentRuns(*experimentId);
    QCOMPARE(runs->size(), 1);
    QCOMPARE(runs->first().uuid, runUuid);
    QCOMPARE(runs->first().person, Identity::person());
    QCOMPARE(runs->first().machine, Identity::machine());
}

void TestPgHistory::migrationGivesOldRowsUuids()
{
    const QString url = freshDatabase();
    {
        Database::Options old;
        old.targetVersion = 8;
        auto db = Database::open(url, old);
        QVERIFY2(db, qPrintable(db.error().message));
        QCOMPARE(db.value()->schemaVersion(), 8);
        QSqlQuery q(db.value()->connection());
        for (int i = 0; i < 3; ++i)
            QVERIFY2(q.exec(u"INSERT INTO calls (kind, status, created_at) VALUES ('old', "
                            "'completed', %1)"_s.arg(1000 + i)),
                     qPrintable(q.lastError().text()));
        QVERIFY(q.exec(u"INSERT INTO sessions (created_at) VALUES (5)"_s));
        QVERIFY(q.exec(u"INSERT INTO experiments (name, definition_hash, definition, created_at) "
                       "VALUES ('e', 'h', '{}', 1)"_s));
        QVERIFY(q.exec(u"INSERT INTO experiment_runs (experiment_id, case_id, variant, repeat, "
                       "status, passed, created_at) SELECT id, 'a', 'b', 0, 'completed', 1, 1 "
                       "FROM experiments"_s));
    }
    auto db = openHistory(url);
    QVERIFY(db);
    QCOMPARE(db->schemaVersion(), Database::latestSchemaVersion());
    QCOMPARE(queryRow(*db, u"SELECT count(*), count(DISTINCT uuid), count(uuid) FROM calls"_s),
             (QStringList { u"3"_s, u"3"_s, u"3"_s }));
    QCOMPARE(queryRow(*db, u"SELECT count(uuid) FROM sessions"_s), QStringList { u"1"_s });
    QCOMPARE(queryRow(*db, u"SELECT count(uuid) FROM experiment_runs"_s), QStringList { u"1"_s });
    const QString uuid = queryRow(*db, u"SELECT uuid FROM calls ORDER BY id LIMIT 1"_s).value(0);
    QVERIFY2(uuidPattern().match(uuid).hasMatch(), qPrintable(uuid));
    // Who made the old rows is not known.
    QCOMPARE(queryRow(*db, u"SELECT count(*) FROM calls WHERE person = ''"_s),
             QStringList { u"3"_s });
}

void TestPgHistory::importTwiceStoresOnce()
{
    QTemporaryDir dir;
    auto local = Database::open(dir.filePath(u"h.sqlite"_s));
    QVERIFY(local);
    CallStore localStore(*local.value());
    Session session;
    session.title = u"chat"_s;
    const auto sessionId = localStore.createSession(session);
    QVERIFY(sessionId);
    CallRecord chat = record(u"chat"_s, u"in the session"_s, 1000);
    chat.session = *sessionId;
    SessionMessage hello;
    hello.message = Message::user(u"hello"_s);
    QVERIFY(localStore.insertCall(chat, { hello }));
    const auto document = CallExchange(localStore).exportSession(*sessionId);
    QVERIFY(document);
    const QString exportedUuid =
        document->value(u"calls"_s).toArray().first().toObject().value(u"uuid"_s).toString();
    QVERIFY2(uuidPattern().match(exportedUuid).hasMatch(), qPrintable(exportedUuid));

    auto db = openHistory(freshDatabase());
    QVERIFY(db);
    CallStore store(*db);
    const auto first = CallExchange(store).importDocument(*document);
    QVERIFY2(first, qPrintable(first.error().message));
    QCOMPARE(first->callsAlreadyPresent, 0);
    const auto second = CallExchange(store).importDocument(*document);
    QVERIFY2(second, qPrintable(second.error().message));
    QCOMPARE(second->callsAlreadyPresent, 1);
    QCOMPARE(second->sessionsAlreadyPresent, 1);
    QCOMPARE(second->callIds, first->callIds);
    QCOMPARE(second->sessionIds, first->sessionIds);
    QCOMPARE(queryRow(*db, u"SELECT count(*) FROM calls"_s), QStringList { u"1"_s });
    QCOMPARE(queryRow(*db, u"SELECT count(*) FROM sessions"_s), QStringList { u"1"_s });
    QCOMPARE(queryRow(*db, u"SELECT count(*) FROM messages"_s), QStringList { u"1"_s });
    QCOMPARE(store.getCall(first->callIds.first())->uuid, exportedUuid);
}

void TestPgHistory::everyCommandOnTheServer()
{
    FakeProvider provider;
    QVERIFY(provider.listen());
    answerEverything(provider);
    Machine laptop(u"erin"_s, u"erin-laptop"_s);
    const Workload work = writeWorkload(laptop.home(), provider.baseUrl(), 3, 4);
    const QString url = freshDatabase();
    const QProcessEnvironment env = laptop.environment();

    CliResult r =
        runCli({ u"run"_s, work.spec, u"--input"_s, u"Plan ticket 7"_s, u"--db"_s, url }, env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const qint64 runId = r.json().value(u"call_id"_s).toInteger();
    QVERIFY(runId > 0);

    r = runCli({ u"batch"_s, work.spec, u"--inputs"_s, work.inputs, u"--db"_s, url }, env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY2(r.err.contains("4 inputs, 4 completed"), r.err.constData());

    r = runCli({ u"eval"_s, work.experiment, u"--db"_s, url }, env);
    QVERIFY2(r.exitCode == 0, r.err.constData());

    r = runCli(
        { u"revise"_s, QString::number(runId), u"--correction"_s, u"Shorter."_s, u"--db"_s, url },
        env);
    QVERIFY2(r.exitCode == 0, r.err.constData());

    r = runCli({ u"history"_s, u"--limit"_s, u"100"_s, u"--db"_s, url }, env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(r.array().size(), 1 + 4 + 3 + 1);
    r = runCli({ u"history"_s, u"--person"_s, u"erin"_s, u"--limit"_s, u"100"_s, u"--db"_s, url },
               env);
    QCOMPARE(r.array().size(), 9);
    QCOMPARE(r.array().first().toObject().value(u"person"_s).toString(), u"erin"_s);
    QCOMPARE(r.array().first().toObject().value(u"machine"_s).toString(), u"erin-laptop"_s);
    r = runCli({ u"history"_s, u"--person"_s, u"nobody-here"_s, u"--db"_s, url }, env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(r.array().size(), 0);

    r = runCli({ u"show"_s, QString::number(runId), u"--db"_s, url }, env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(r.json().value(u"person"_s).toString(), u"erin"_s);
    QCOMPARE(r.json().value(u"machine"_s).toString(), u"erin-laptop"_s);
    QCOMPARE(r.json().value(u"response"_s).toObject().value(u"title"_s).toString(), u"ok"_s);
    const QString uuid = r.json().value(u"uuid"_s).toString();
    QVERIFY2(uuidPattern().match(uuid).hasMatch(), qPrintable(uuid));

    r = runCli({ u"cache"_s, QString::number(runId), u"--db"_s, url }, env);
    QVERIFY2(r.exitCode == 0, r.err.constData());

    const QString exported = laptop.filePath(u"export.json"_s);
    r = runCli({ u"export"_s, QString::number(runId), u"--out"_s, exported, u"--db"_s, url }, env);
    QVERIFY2(r.exitCode == 0, r.err.constData());

    // Into another history on the server, twice: stored once, under the same UUID.
    const QString other = freshDatabase();
    r = runCli({ u"import"_s, exported, u"--db"_s, other }, env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(r.json().value(u"calls"_s).toArray().size(), 2); // the call and its revision
    QCOMPARE(r.json().value(u"calls_already_present"_s).toInt(), 0);
    r = runCli({ u"import"_s, exported, u"--db"_s, other }, env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(r.json().value(u"calls_already_present"_s).toInt(), 2);
    auto db = openHistory(other);
    QVERIFY(db);
    QCOMPARE(queryRow(*db, u"SELECT count(*) FROM calls"_s), QStringList { u"2"_s });
    QCOMPARE(queryRow(*db, u"SELECT person, machine FROM calls WHERE uuid = '%1'"_s.arg(uuid)),
             (QStringList { u"erin"_s, u"erin-laptop"_s }));
    // Imported into the same history it came from: nothing new.
    r = runCli({ u"import"_s, exported, u"--db"_s, url }, env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(r.json().value(u"calls_already_present"_s).toInt(), 2);
    QCOMPARE(provider.requestCount(), 1 + 4 + 3 + 1);
}

void TestPgHistory::fourProcessesOnTwoMachines()
{
    FakeProvider provider;
    QVERIFY(provider.listen());
    answerEverything(provider);
    Machine one(u"alice"_s, u"machine-one"_s);
    Machine two(u"bob"_s, u"machine-two"_s);
    constexpr int kCases = 6;
    constexpr int kLines = 8;
    const Workload workOne = writeWorkload(one.home(), provider.baseUrl(), kCases, kLines);
    const Workload workTwo = writeWorkload(two.home(), provider.baseUrl(), kCases, kLines);
    const QString url = freshDatabase();
    {
        auto db = openHistory(url); // the schema made once, as the first user would
        QVERIFY(db);
    }

    // Both people run the same experiment and a batch, all four at once.
    QList<QProcess *> processes;
    for (const auto &[machine, work] :
         { std::pair { &one, &workOne }, std::pair { &two, &workTwo } }) {
        processes.append(startCli({ u"batch"_s, work->spec, u"--inputs"_s, work->inputs,
                                    u"--jobs"_s, u"4"_s, u"--db"_s, url },
                                  machine->environment()));
        processes.append(
            startCli({ u"eval"_s, work->experiment, u"--db"_s, url }, machine->environment()));
    }
    for (QProcess *process : std::as_const(processes)) {
        const CliResult r = finish(process, 240000);
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }

    auto db = openHistory(url);
    QVERIFY(db);
    const int total = 2 * (kCases + kLines);
    // The experiment's response cache may answer one person's case from the other's call;
    // each case is still a call of its own.
    QVERIFY(provider.requestCount() >= 2 * kLines + kCases);
    QVERIFY(provider.requestCount() <= total);
    // Every call stored exactly once, each with its own UUID and its person.
    QCOMPARE(
        queryRow(*db, u"SELECT count(*), count(DISTINCT uuid), count(uuid) FROM calls"_s),
        (QStringList { QString::number(total), QString::number(total), QString::number(total) }));
    for (const auto &[person, machine] :
         { std::pair { u"alice"_s, u"machine-one"_s }, std::pair { u"bob"_s, u"machine-two"_s } }) {
        QCOMPARE(
            queryRow(*db,
                     u"SELECT count(*) FROM calls WHERE person = '%1' AND machine = '%2'"_s.arg(
                         person, machine)),
            QStringList { QString::number(kCases + kLines) });
        QCOMPARE(queryRow(*db,
                          u"SELECT count(*), count(DISTINCT uuid) FROM experiment_runs "
                          "WHERE person = '%1'"_s.arg(person)),
                 (QStringList { QString::number(kCases), QString::number(kCases) }));
    }
    QCOMPARE(queryRow(*db, u"SELECT count(*), count(DISTINCT call_id) FROM batch_calls"_s),
             (QStringList { QString::number(2 * kLines), QString::number(2 * kLines) }));
    // Each person has an experiment row of their own.
    QCOMPARE(queryRow(*db, u"SELECT count(*) FROM experiments WHERE name = 'team-plans'"_s),
             QStringList { u"2"_s });
    // And the history lists everybody's calls, or one person's.
    CallStore store(*db);
    HistoryQuery all;
    all.limit = 1000;
    QCOMPARE(store.listCalls(all)->rows.size(), total);
    HistoryQuery bobs;
    bobs.person = u"bob"_s;
    bobs.limit = 1000;
    const auto page = store.listCalls(bobs);
    QCOMPARE(page->rows.size(), kCases + kLines);
    for (const HistoryRow &row : page->rows)
        QCOMPARE(row.machine, u"machine-two"_s);
}

void TestPgHistory::readerRoleBrowsesButDoesNotRun()
{
    FakeProvider provider;
    QVERIFY(provider.listen());
    answerEverything(provider);
    Machine laptop(u"rita"_s, u"rita-laptop"_s);
    const Workload work = writeWorkload(laptop.home(), provider.baseUrl(), 1, 1);
    const QString name = u"readers%1"_s.arg(++m_databases);
    QString error;
    QVERIFY2(m_server.createDatabase(name, &error), qPrintable(error));
    const QString writerUrl = m_server.url(name);
    CliResult r = runCli({ u"run"_s, work.spec, u"--input"_s, u"x"_s, u"--db"_s, writerUrl },
                         laptop.environment());
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const qint64 id = r.json().value(u"call_id"_s).toInteger();

    // The reader role of docs/shared-history.md.
    for (const QString &sql :
         { u"CREATE ROLE callscope_reader LOGIN PASSWORD 'reader-pass'"_s,
           u"GRANT CONNECT ON DATABASE %1 TO callscope_reader"_s.arg(name),
           u"GRANT USAGE ON SCHEMA public TO callscope_reader"_s,
           u"GRANT SELECT ON ALL TABLES IN SCHEMA public TO callscope_reader"_s }) {
        QVERIFY2(m_server.exec(sql.startsWith(u"CREATE"_s) ? u"postgres"_s : name, sql, &error),
                 qPrintable(error));
    }
    QProcessEnvironment reader = laptop.environment();
    reader.insert(u"PGPASSWORD"_s, u"reader-pass"_s); // libpq's own source, as in CI
    const QString readerUrl = m_server.url(name, u"callscope_reader"_s);
    provider.clearRequests();

    r = runCli({ u"run"_s, work.spec, u"--input"_s, u"y"_s, u"--db"_s, readerUrl }, reader);
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("read-only for the role callscope_reader"), r.err.constData());
    r = runCli({ u"batch"_s, work.spec, u"--inputs"_s, work.inputs, u"--db"_s, readerUrl }, reader);
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("read-only"), r.err.constData());
    r = runCli({ u"eval"_s, work.experiment, u"--db"_s, readerUrl }, reader);
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("read-only"), r.err.constData());
    QCOMPARE(provider.requestCount(), 0); // refused before anything was sent

    r = runCli({ u"history"_s, u"--db"_s, readerUrl }, reader);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(r.array().size(), 1);
    r = runCli({ u"show"_s, QString::number(id), u"--db"_s, readerUrl }, reader);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(r.json().value(u"person"_s).toString(), u"rita"_s);
    r = runCli({ u"export"_s, QString::number(id), u"--db"_s, readerUrl }, reader);
    QVERIFY2(r.exitCode == 0, r.err.constData());
}

void TestPgHistory::passwordFromTheKeychainOnly()
{
    if (qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS"))
        QSKIP("needs a D-Bus session with an unlocked keyring (tools/dev.sh test starts one)");
    FakeProvider provider;
    QVERIFY(provider.listen());
    answerEverything(provider);
    Machine laptop(u"paul"_s, u"paul-laptop"_s);
    const Workload work = writeWorkload(laptop.home(), provider.baseUrl(), 2, 2);
    const QByteArray password = "pw-Zq81-" + QUuid::createUuid().toByteArray(QUuid::Id128);
    const QString name = u"guarded%1"_s.arg(++m_databases);
    QString error;
    QVERIFY2(
        m_server.exec(u"postgres"_s,
                      u"CREATE ROLE paul LOGIN PASSWORD '%1'"_s.arg(QString::fromLatin1(password)),
                      &error),
        qPrintable(error));
    QVERIFY2(m_server.exec(u"postgres"_s, u"CREATE DATABASE %1 OWNER paul"_s.arg(name), &error),
             qPrintable(error));
    const QString url = m_server.url(name, u"paul"_s);
    QProcessEnvironment env = laptop.environment();
    env.insert(u"QT_LOGGING_RULES"_s, u"callscope.*.debug=true"_s);
    QByteArray everything; // every byte the commands printed

    // Before login: no password anywhere, the server refuses.
    CliResult r = runCli({ u"history"_s, u"--db"_s, url }, env);
    everything += r.out + r.err;
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("password"), r.err.constData());

    // A wrong password is not kept.
    r = runCli({ u"history"_s, u"login"_s, url }, env, "not-the-password\n");
    everything += r.out + r.err;
    QCOMPARE(r.exitCode, 1);
    r = runCli({ u"history"_s, u"--db"_s, url }, env);
    QCOMPARE(r.exitCode, 1);

    r = runCli({ u"history"_s, u"login"_s, url }, env, password + "\n");
    everything += r.out + r.err;
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(r.json().value(u"stored"_s).toBool(), true);
    QCOMPARE(r.json().value(u"can_write"_s).toBool(), true);

    // Every command now takes it from the keychain.
    r = runCli({ u"run"_s, work.spec, u"--input"_s, u"guarded"_s, u"--db"_s, url }, env);
    everything += r.out + r.err;
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const qint64 id = r.json().value(u"call_id"_s).toInteger();
    r = runCli({ u"batch"_s, work.spec, u"--inputs"_s, work.inputs, u"--db"_s, url }, env);
    everything += r.out + r.err;
    QVERIFY2(r.exitCode == 0, r.err.constData());
    r = runCli({ u"eval"_s, work.experiment, u"--db"_s, url }, env);
    everything += r.out + r.err;
    QVERIFY2(r.exitCode == 0, r.err.constData());
    r = runCli({ u"history"_s, u"--db"_s, url }, env);
    everything += r.out + r.err;
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(r.array().size(), 5);
    r = runCli({ u"show"_s, QString::number(id), u"--db"_s, url }, env);
    everything += r.out + r.err;
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QString exported = laptop.filePath(u"export.json"_s);
    r = runCli({ u"export"_s, QString::number(id), u"--out"_s, exported, u"--db"_s, url }, env);
    everything += r.out + r.err;
    QVERIFY2(r.exitCode == 0, r.err.constData());
    r = runCli({ u"import"_s, exported, u"--db"_s, url }, env);
    everything += r.out + r.err;
    QVERIFY2(r.exitCode == 0, r.err.constData());

    // The password is in none of: the output and logs, the settings and data of this HOME
    // (the export among them), the database, the server's log.
    QVERIFY(!everything.isEmpty());
    QVERIFY2(!everything.contains(password), everything.constData());
    QCOMPARE(filesHolding(laptop.home(), password), QStringList());
    QByteArray dump;
    QVERIFY2(m_server.dump(name, &dump, &error), qPrintable(error));
    QVERIFY(dump.contains("guarded")); // the dump does hold the calls
    QVERIFY(!dump.contains(password));
    QVERIFY(!m_server.log().contains(password));

    r = runCli({ u"history"_s, u"logout"_s, url }, env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    r = runCli({ u"history"_s, u"--db"_s, url }, env);
    QCOMPARE(r.exitCode, 1);
}

// The server stops while an experiment runs (held at a known case by the fake provider): the
// run goes on into the local queue, nothing is lost or paid twice; after a restart the next
// command sends the queue once, and the server holds exactly the cases run.
void TestPgHistory::serverStopsInTheMiddleOfAnExperiment()
{
    FakeProvider provider;
    QVERIFY(provider.listen());
    constexpr int kCases = 8;
    constexpr int kHoldAt = 4; // the 4th request waits until the server is down
    int answered = 0;
    provider.setResponder([&answered](const RecordedRequest &) {
        FakeReply reply = FakeReply::json(
            200, openAiToolCallBody(u"call_1"_s, u"submit_output"_s, { { u"title"_s, u"ok"_s } }));
        reply.held = ++answered == kHoldAt;
        return reply;
    });
    Machine laptop(u"nina"_s, u"nina-laptop"_s);
    const Workload work = writeWorkload(laptop.home(), provider.baseUrl(), kCases, 1);
    const QString url = freshDatabase();
    const QProcessEnvironment env = laptop.environment();
    auto restart = qScopeGuard([this] {
        QString ignored;
        m_server.restart(&ignored);
    });

    QProcess *eval =
        startCli({ u"eval"_s, work.experiment, u"--jobs"_s, u"1"_s, u"--db"_s, url }, env);
    QTRY_COMPARE_WITH_TIMEOUT(provider.heldCount(), 1, 60000);
    {
        // With one case at a time, the cases before the held one are on the server.
        auto db = openHistory(url);
        QVERIFY(db);
        QCOMPARE(queryRow(*db, u"SELECT count(*) FROM experiment_runs"_s),
                 QStringList { QString::number(kHoldAt - 1) });
    }
    QString error;
    QVERIFY2(m_server.stop(&error), qPrintable(error));
    provider.releaseHeld();
    CliResult r = finish(eval);
    QVERIFY2(r.exitCode == 0, QByteArray(r.err + r.out).constData());
    QVERIFY2(r.err.contains("wait to be sent to the shared history at"), r.err.constData());
    QCOMPARE(provider.requestCount(), kCases);
    const QStringList queues = queueFiles(laptop.home());
    QCOMPARE(queues.size(), 1);
    const QStringList waiting = queueCounts(queues.first()).split(u' ');
    QCOMPARE(waiting.size(), 2);
    // The held case and every one after it wait.
    QCOMPARE(waiting.at(0).toInt(), kCases - kHoldAt + 1);
    QCOMPARE(waiting.at(1), waiting.at(0)); // each queued call with its run

    // While the server is down a command that only reads says so and changes nothing.
    r = runCli({ u"history"_s, u"--db"_s, url }, env);
    QCOMPARE(r.exitCode, 1);
    QCOMPARE(queueCounts(queues.first()).split(u' ').first(), waiting.at(0));

    QVERIFY2(m_server.restart(&error), qPrintable(error));
    // The next command sends the queue, once.
    r = runCli({ u"history"_s, u"--limit"_s, u"100"_s, u"--db"_s, url }, env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY2(r.err.contains("from the local queue were sent"), r.err.constData());
    QCOMPARE(r.array().size(), kCases);
    QCOMPARE(queueCounts(queues.first()), u"0 0"_s);
    r = runCli({ u"history"_s, u"--db"_s, url }, env);
    QVERIFY2(!r.err.contains("were sent"), r.err.constData());

    auto db = openHistory(url);
    QVERIFY(db);
    const QString n = QString::number(kCases);
    QCOMPARE(queryRow(*db, u"SELECT count(*), count(DISTINCT uuid) FROM calls"_s),
             (QStringList { n, n }));
    QCOMPARE(queryRow(*db, u"SELECT count(*) FROM experiments"_s), QStringList { u"1"_s });
    const QString experiment = queryRow(*db, u"SELECT id FROM experiments"_s).value(0);
    QCOMPARE(queryRow(*db,
                      u"SELECT count(*), count(DISTINCT uuid), count(DISTINCT case_id), "
                      "count(call_id), count(DISTINCT call_id) FROM experiment_runs "
                      "WHERE experiment_id = %1"_s.arg(experiment)),
             (QStringList { n, n, n, n, n }));
    // Every run's call is on the server, and names the server's experiment.
    QCOMPARE(queryRow(*db,
                      u"SELECT count(*) FROM experiment_runs r JOIN calls c ON c.id = r.call_id "
                      "WHERE %1 = '%2' AND c.person = 'nina'"_s.arg(
                          db->dialect().jsonField(u"c.metadata", u"experiment_id"), experiment)),
             QStringList { n });
}

// Two processes at once write one queue (the server is down from the start): every call of
// both is there, and is sent once when the server is back.
void TestPgHistory::queueSharedByTwoProcesses()
{
    FakeProvider provider;
    QVERIFY(provider.listen());
    answerEverything(provider);
    Machine laptop(u"omar"_s, u"omar-laptop"_s);
    constexpr int kLines = 10;
    QDir(laptop.home()).mkpath(u"a"_s);
    QDir(laptop.home()).mkpath(u"b"_s);
    const Workload one = writeWorkload(laptop.filePath(u"a"_s), provider.baseUrl(), 1, kLines);
    const Workload two = writeWorkload(laptop.filePath(u"b"_s), provider.baseUrl(), 1, kLines);
    const QString url = freshDatabase();
    const QProcessEnvironment env = laptop.environment();
    auto restart = qScopeGuard([this] {
        QString ignored;
        m_server.restart(&ignored);
    });
    QString error;
    QVERIFY2(m_server.stop(&error), qPrintable(error));

    QList<QProcess *> processes;
    for (const Workload *work : { &one, &two })
        processes.append(startCli({ u"batch"_s, work->spec, u"--inputs"_s, work->inputs,
                                    u"--jobs"_s, u"3"_s, u"--db"_s, url },
                                  env));
    for (QProcess *process : std::as_const(processes)) {
        const CliResult r = finish(process, 240000);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.err.contains("calls are kept in the local queue"), r.err.constData());
        QVERIFY2(r.err.contains("wait to be sent to the shared history at"), r.err.constData());
    }
    const QStringList queues = queueFiles(laptop.home());
    QCOMPARE(queues.size(), 1);
    QCOMPARE(queueCounts(queues.first()), u"%1 0"_s.arg(2 * kLines));

    QVERIFY2(m_server.restart(&error), qPrintable(error));
    // Two commands start at once: the queue is sent by one of them, never twice.
    QList<QProcess *> readers;
    for (int i = 0; i < 2; ++i)
        readers.append(startCli({ u"history"_s, u"--db"_s, url }, env));
    for (QProcess *process : std::as_const(readers)) {
        const CliResult r = finish(process);
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }
    CliResult r = runCli({ u"history"_s, u"--limit"_s, u"100"_s, u"--db"_s, url }, env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(r.array().size(), 2 * kLines);
    QCOMPARE(queueCounts(queues.first()), u"0 0"_s);
    auto db = openHistory(url);
    QVERIFY(db);
    const QString n = QString::number(2 * kLines);
    QCOMPARE(queryRow(*db, u"SELECT count(*), count(DISTINCT uuid) FROM calls"_s),
             (QStringList { n, n }));
    QCOMPARE(queryRow(*db, u"SELECT count(*), count(DISTINCT call_id) FROM batch_calls"_s),
             (QStringList { n, n }));
    QCOMPARE(queryRow(*db, u"SELECT count(*) FROM batches"_s), QStringList { u"2"_s });
    QCOMPARE(provider.requestCount(), 2 * kLines);
}

// `history push` of a local history: each call once, a second push sends nothing new,
// --kind and --since choose; the password comes from PGPASSWORD and is printed nowhere.
void TestPgHistory::pushTwiceSendsNothingNew()
{
    FakeProvider provider;
    QVERIFY(provider.listen());
    answerEverything(provider);
    Machine laptop(u"pia"_s, u"pia-laptop"_s);
    constexpr int kLines = 4;
    const Workload work = writeWorkload(laptop.home(), provider.baseUrl(), 2, kLines);
    QFile specFile(work.spec);
    QVERIFY(specFile.open(QIODevice::ReadOnly));
    QJsonObject reviewer = parse(specFile.readAll());
    reviewer.insert(u"kind"_s, u"reviewer"_s);
    const QString reviewerSpec =
        writeFile(laptop.filePath(u"reviewer.spec.json"_s), QJsonDocument(reviewer).toJson());
    const QString local = laptop.filePath(u"local.sqlite"_s);
    QProcessEnvironment env = laptop.environment();
    env.insert(u"QT_LOGGING_RULES"_s, u"callscope.*.debug=true"_s);
    QByteArray everything;

    CliResult r =
        runCli({ u"batch"_s, work.spec, u"--inputs"_s, work.inputs, u"--db"_s, local }, env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    r = runCli({ u"eval"_s, work.experiment, u"--db"_s, local }, env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    r = runCli({ u"run"_s, reviewerSpec, u"--input"_s, u"Review it"_s, u"--db"_s, local }, env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const int total = kLines + 2 + 1;

    const QByteArray password = "pw-Push-" + QUuid::createUuid().toByteArray(QUuid::Id128);
    const QString name = u"pushed%1"_s.arg(++m_databases);
    QString error;
    QVERIFY2(
        m_server.exec(u"postgres"_s,
                      u"CREATE ROLE pia LOGIN PASSWORD '%1'"_s.arg(QString::fromLatin1(password)),
                      &error),
        qPrintable(error));
    QVERIFY2(m_server.exec(u"postgres"_s, u"CREATE DATABASE %1 OWNER pia"_s.arg(name), &error),
             qPrintable(error));
    const QString url = m_server.url(name, u"pia"_s);

    // No password: refused, not queued.
    r = runCli({ u"history"_s, u"push"_s, u"--to"_s, url, u"--db"_s, local }, env);
    everything += r.out + r.err;
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("password"), r.err.constData());
    // A password in the URL is refused before anything is sent.
    QUrl withPassword(url);
    withPassword.setPassword(u"given"_s);
    r = runCli({ u"history"_s, u"push"_s, u"--to"_s, withPassword.toString(), u"--db"_s, local },
               env);
    QCOMPARE(r.exitCode, 2);

    env.insert(u"PGPASSWORD"_s, QString::fromLatin1(password));
    r = runCli(
        { u"history"_s, u"push"_s, u"--to"_s, url, u"--kind"_s, u"reviewer"_s, u"--db"_s, local },
        env);
    everything += r.out + r.err;
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(r.json().value(u"calls"_s).toInt(), 1);
    QCOMPARE(r.json().value(u"sent"_s).toInt(), 1);
    QVERIFY2(r.err.contains("1 of 1"), r.err.constData());

    r = runCli({ u"history"_s, u"push"_s, u"--to"_s, url, u"--db"_s, local }, env);
    everything += r.out + r.err;
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(r.json().value(u"calls"_s).toInt(), total);
    QCOMPARE(r.json().value(u"sent"_s).toInt(), total - 1);
    QCOMPARE(r.json().value(u"already_there"_s).toInt(), 1);
    QCOMPARE(r.json().value(u"failed"_s).toInt(), 0);
    QCOMPARE(r.json().value(u"runs_sent"_s).toInt(), 2);
    QVERIFY2(
        r.err.contains(QByteArray(QByteArray::number(total) + " of " + QByteArray::number(total))),
        r.err.constData());

    // Again: nothing new, and it says so.
    r = runCli({ u"history"_s, u"push"_s, u"--to"_s, url, u"--db"_s, local }, env);
    everything += r.out + r.err;
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(r.json().value(u"sent"_s).toInt(), 0);
    QCOMPARE(r.json().value(u"already_there"_s).toInt(), total);
    QCOMPARE(r.json().value(u"runs_sent"_s).toInt(), 0);
    QCOMPARE(r.json().value(u"runs_already_there"_s).toInt(), 2);
    QVERIFY2(r.err.contains("nothing new to send"), r.err.constData());

    // --since: tomorrow holds nothing, yesterday everything.
    const QDate today = QDateTime::currentDateTimeUtc().date();
    r = runCli({ u"history"_s, u"push"_s, u"--to"_s, url, u"--since"_s,
                 today.addDays(1).toString(Qt::ISODate), u"--db"_s, local },
               env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(r.json().value(u"calls"_s).toInt(), 0);
    r = runCli({ u"history"_s, u"push"_s, u"--to"_s, url, u"--since"_s,
                 today.addDays(-1).toString(Qt::ISODate), u"--kind"_s, u"planner"_s, u"--db"_s,
                 local },
               env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(r.json().value(u"calls"_s).toInt(), total - 1);
    QCOMPARE(r.json().value(u"sent"_s).toInt(), 0);
    r = runCli(
        { u"history"_s, u"push"_s, u"--to"_s, url, u"--since"_s, u"yesterday"_s, u"--db"_s, local },
        env);
    QCOMPARE(r.exitCode, 2);

    auto db = openHistory(m_server.url(name));
    QVERIFY(db);
    const QString n = QString::number(total);
    QCOMPARE(queryRow(*db, u"SELECT count(*), count(DISTINCT uuid) FROM calls"_s),
             (QStringList { n, n }));
    QCOMPARE(queryRow(*db, u"SELECT count(*) FROM calls WHERE kind = 'reviewer'"_s),
             QStringList { u"1"_s });
    QCOMPARE(queryRow(*db, u"SELECT count(*), count(DISTINCT line) FROM batch_calls"_s),
             (QStringList { QString::number(kLines), QString::number(kLines) }));
    QCOMPARE(queryRow(*db, u"SELECT count(*), count(call_id) FROM experiment_runs"_s),
             (QStringList { u"2"_s, u"2"_s }));
    QCOMPARE(queryRow(*db,
                      u"SELECT count(*) FROM calls WHERE person = 'pia' AND machine = "
                      "'pia-laptop'"_s),
             QStringList { n });

    QVERIFY(!everything.isEmpty());
    QVERIFY2(!everything.contains(password), everything.constData());
    QCOMPARE(filesHolding(laptop.home(), password), QStringList());
    QByteArray dump;
    QVERIFY2(m_server.dump(name, &dump, &error), qPrintable(error));
    QVERIFY(!dump.contains(password));
}

// Ctrl+C while `history push` waits on the server (the test holds a lock on the calls table):
// the call in hand is stored whole, no other; the next push sends the rest.
void TestPgHistory::pushStopsBetweenCalls()
{
    FakeProvider provider;
    QVERIFY(provider.listen());
    answerEverything(provider);
    Machine laptop(u"quinn"_s, u"quinn-laptop"_s);
    constexpr int kLines = 5;
    const Workload work = writeWorkload(laptop.home(), provider.baseUrl(), 1, kLines);
    const QString local = laptop.filePath(u"local.sqlite"_s);
    const QProcessEnvironment env = laptop.environment();
    CliResult r =
        runCli({ u"batch"_s, work.spec, u"--inputs"_s, work.inputs, u"--db"_s, local }, env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QString url = freshDatabase();
    auto db = openHistory(url);
    QVERIFY(db);
    const QString name = QUrl(url).path().mid(1);

    QSqlQuery lock(db->connection());
    QVERIFY(lock.exec(u"BEGIN"_s));
    QVERIFY2(lock.exec(u"LOCK TABLE calls IN ACCESS EXCLUSIVE MODE"_s),
             qPrintable(lock.lastError().text()));
    QProcess *push = startCli({ u"history"_s, u"push"_s, u"--to"_s, url, u"--db"_s, local }, env);
    // The push waits for the lock: its first call is in hand.
    QTRY_COMPARE_WITH_TIMEOUT(
        queryRow(*openHistory(url),
                 u"SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND "
                 "datname = '%1'"_s.arg(name)),
        QStringList { u"1"_s }, 30000);
    QVERIFY(::kill(pid_t(push->processId()), SIGINT) == 0);
    // Ctrl+C has been read: let the call in hand go on.
    QByteArray said;
    QTRY_VERIFY_WITH_TIMEOUT((said += push->readAllStandardError()).contains("stopping after"),
                             30000);
    QVERIFY(lock.exec(u"COMMIT"_s));
    r = finish(push);
    r.err.prepend(said);
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.json().value(u"cancelled"_s).toBool(), r.out.constData());
    const int sent = r.json().value(u"sent"_s).toInt();
    QCOMPARE(sent, 1);
    QVERIFY2(r.err.contains("stopped"), r.err.constData());
    // Whole calls only: each with every turn and attempt and its batch line.
    const QString n = QString::number(sent);
    QCOMPARE(queryRow(*db, u"SELECT count(*), sum(turn_count), sum(attempt_count) FROM calls"_s),
             queryRow(*db,
                      u"SELECT count(*), (SELECT count(*) FROM call_turns), (SELECT count(*) "
                      "FROM call_attempts) FROM calls"_s));
    QCOMPARE(queryRow(*db, u"SELECT count(*) FROM calls"_s), QStringList { n });
    QCOMPARE(queryRow(*db, u"SELECT count(*) FROM batch_calls"_s), QStringList { n });

    r = runCli({ u"history"_s, u"push"_s, u"--to"_s, url, u"--db"_s, local }, env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(r.json().value(u"sent"_s).toInt(), kLines - sent);
    QCOMPARE(r.json().value(u"already_there"_s).toInt(), sent);
    QCOMPARE(queryRow(*db, u"SELECT count(*), count(DISTINCT uuid) FROM calls"_s),
             (QStringList { QString::number(kLines), QString::number(kLines) }));
}

// The store writer on a server that goes away: the write goes to the local queue (and says so),
// a retry while the server is down sends nothing, a retry once it is back sends the call once
// and the writer writes to the server again (what the studio's status-bar line does).
void TestPgHistory::writerQueuesAndSendsOnRetry()
{
    const QString url = freshDatabase();
    {
        auto db = openHistory(url);
        QVERIFY(db);
    }
    QFile::remove(HistoryQueue::pathFor(url));
    auto restart = qScopeGuard([this] {
        QString ignored;
        m_server.restart(&ignored);
    });
    StoreWriter writer(url);
    QObject context;
    // Each answer comes from the event loop; nullopt when none came.
    auto insert = [&](const QString &text) {
        std::optional<WriteResult> answer;
        writer.insertCall(record(u"planner"_s, text, QDateTime::currentMSecsSinceEpoch()), {}, {},
                          &context, [&answer](const WriteResult &r) { answer = r; });
        QTest::qWaitFor([&answer] { return answer.has_value(); }, 30000);
        return answer.value_or(WriteResult());
    };
    auto retry = [&] {
        std::optional<StoreWriter::QueueReport> report;
        writer.sendQueue(&context, [&report](const StoreWriter::QueueReport &r) { report = r; });
        QTest::qWaitFor([&report] { return report.has_value(); }, 30000);
        return report.value_or(StoreWriter::QueueReport());
    };
    WriteResult first = insert(u"before"_s);
    QVERIFY2(first.id.ok() && !first.queued, qPrintable(first.id.error().message));
    QString error;
    QVERIFY2(m_server.stop(&error), qPrintable(error));
    WriteResult second = insert(u"while away"_s);
    QVERIFY2(second.id.ok(), qPrintable(second.id.error().message));
    QVERIFY(second.queued);
    QVERIFY(writer.queueing());
    QCOMPARE(writer.queuePath(), HistoryQueue::pathFor(url));
    StoreWriter::QueueReport report = retry();
    QVERIFY(report.outcome.unreachable);
    QCOMPARE(report.waitingCalls, 1);
    QVERIFY(report.queueing);
    // (The plural forms come from the program's English translation; the source text here.)
    const QString message = HistoryQueue::waitingMessage(url, report.waitingCalls);
    QVERIFY2(
        message.startsWith(u"1 call"_s)
            && message.endsWith(u"to the shared history at "_s + HistoryQueue::serverName(url)),
        qPrintable(message));

    QVERIFY2(m_server.restart(&error), qPrintable(error));
    report = retry();
    QCOMPARE(report.outcome.sent, 1);
    QCOMPARE(report.waitingCalls, 0);
    QVERIFY(!report.queueing);
    QVERIFY(!writer.queueing());
    WriteResult third = insert(u"after"_s);
    QVERIFY2(third.id.ok() && !third.queued, qPrintable(third.id.error().message));
    report = retry();
    QCOMPARE(report.outcome.total, 0);
    writer.flush();
    auto db = openHistory(url);
    QVERIFY(db);
    QCOMPARE(queryRow(*db, u"SELECT count(*), count(DISTINCT uuid) FROM calls"_s),
             (QStringList { u"3"_s, u"3"_s }));
}

QTEST_GUILESS_MAIN(TestPgHistory)
#include "tst_pghistory.moc"
