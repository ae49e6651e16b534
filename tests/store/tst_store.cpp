// Tests of core/store with real SQLite files in temporary folders, and of the store-only
// callscope-cli commands (show, history, export, import) run as real processes.

#include "core/model/jsonwriter.h"
#include "core/store/callexchange.h"
#include "core/store/callstore.h"
#include "core/store/database.h"
#include "core/store/identity.h"
#include "core/store/recoveryfile.h"
#include "tests/support/testsupport.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSettings>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace Callscope;

namespace {

QString dataFile(const QString &name)
{
    return QStringLiteral(CALLSCOPE_STORE_TEST_DATA) + u'/' + name;
}

QByteArray fileHash(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256).toHex();
}

QJsonObject readObject(const QString &path)
{
    return Test::readJson(path).toObject();
}

// Rows in a table, through a separate plain connection (not the store's).
qint64 countRows(const QString &dbPath, const QString &table)
{
    const QString name = u"count-"_s + QString::number(QRandomGenerator::global()->generate64());
    qint64 count = -1;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, name);
        db.setDatabaseName(dbPath);
        if (db.open()) {
            QSqlQuery q(db);
            if (q.exec(u"SELECT count(*) FROM "_s + table) && q.next())
                count = q.value(0).toLongLong();
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return count;
}

// Runs SQL through a plain connection; statements separated by lines holding only ";".
bool runSql(const QString &dbPath, const QString &script, QString *error = nullptr)
{
    const QString name = u"sql-"_s + QString::number(QRandomGenerator::global()->generate64());
    bool ok = true;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, name);
        db.setDatabaseName(dbPath);
        ok = db.open();
        QSqlQuery q(db);
        for (const QString &statement : script.split(u"\n;\n"_s)) {
            QString sql;
            for (const QString &line : statement.split(u'\n')) {
                if (!line.trimmed().startsWith(u"--"))
                    sql += line + u'\n';
            }
            if (!ok || sql.trimmed().isEmpty() || sql.trimmed() == u";")
                continue;
            if (!q.exec(sql)) {
                ok = false;
                if (error)
                    *error = q.lastError().text() + u" in: "_s + sql;
            }
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return ok;
}

Message toolCallMessage()
{
    ToolCall call;
    call.id = u"call_1"_s;
    call.name = u"get_ticket"_s;
    call.arguments = QJsonObject { { u"id"_s, 7 } };
    call.rawArguments = u"{\"id\":7}"_s;
    call.providerData = QJsonObject { { u"thoughtSignature"_s, u"abc"_s } };
    return Message::assistant(u"Looking it up"_s, { call });
}

Message toolResultMessage(const QString &content)
{
    ToolResult result;
    result.callId = u"call_1"_s;
    result.name = u"get_ticket"_s;
    result.content = content;
    return Message::toolResultsMessage({ result });
}

// A record with every field set to a non-default value.
// Takes a file of the latest version back to the version 8 layout: the experiments' indexes of
// version 12 and the review labels of version 10 go, then version 9's UUIDs, people and machines
// (their indexes first).
const QString kBackToVersion8 = uR"(DROP INDEX experiments_by_hash
;
DROP INDEX experiments_by_name
;
DROP TABLE review_labels
;
DROP INDEX calls_by_uuid
;
DROP INDEX calls_by_person
;
DROP INDEX sessions_by_uuid
;
DROP INDEX experiment_runs_by_uuid
;
ALTER TABLE calls DROP COLUMN uuid
;
ALTER TABLE calls DROP COLUMN person
;
ALTER TABLE calls DROP COLUMN machine
;
ALTER TABLE sessions DROP COLUMN uuid
;
ALTER TABLE experiment_runs DROP COLUMN uuid
;
ALTER TABLE experiment_runs DROP COLUMN person
;
ALTER TABLE experiment_runs DROP COLUMN machine
;
)"_s;

// Then back to version 6: the prompt cache write columns of version 8 go, then the response
// cache of version 7 (its table and two run columns).
const QString kBackToVersion6 =
    kBackToVersion8 + uR"(ALTER TABLE calls DROP COLUMN cache_write_tokens
;
ALTER TABLE calls DROP COLUMN cache_write_1h_tokens
;
ALTER TABLE call_turns DROP COLUMN cache_write_tokens
;
ALTER TABLE call_turns DROP COLUMN cache_write_1h_tokens
;
ALTER TABLE call_attempts DROP COLUMN cache_write_tokens
;
ALTER TABLE call_attempts DROP COLUMN cache_write_1h_tokens
;
ALTER TABLE experiment_runs DROP COLUMN cache_read_tokens
;
ALTER TABLE experiment_runs DROP COLUMN cache_write_tokens
;
ALTER TABLE experiment_runs DROP COLUMN uncached_cost_usd
;
DROP TABLE response_cache
;
ALTER TABLE experiment_runs DROP COLUMN cached
;
ALTER TABLE experiment_runs DROP COLUMN cache_saved_usd)"_s;

CallRecord fullRecord(const QString &inputText = u"Plan the quarterly budget review"_s)
{
    CallRecord r;
    r.kind = u"planner"_s;
    r.status = CallStatus::Completed;
    r.input = QJsonObject {
        { u"text"_s, inputText },
        { u"attachments"_s,
          QJsonArray {
              Attachment::fromData(u"notes.txt"_s, u"text/plain"_s, "hello"_ba).toJson() } }
    };
    r.response = QJsonObject { { u"title"_s, u"Budget review"_s },
                               { u"steps"_s, QJsonArray { u"collect"_s, u"compare"_s } } };
    r.systemPrompt = u"Plan the work."_s;
    r.engineType = u"openai"_s;
    r.model = u"gpt-test"_s;
    r.transcript =
        QJsonArray { QJsonObject { { u"role"_s, u"user"_s }, { u"content"_s, inputText } } };
    r.messages = messagesToJson({ Message::user(inputText), toolCallMessage(),
                                  toolResultMessage(u"Ticket 7: the kumquat forecast slipped"_s) });
    TurnRecord t0;
    t0.index = 0;
    t0.finishReason = FinishReason::ToolCalls;
    t0.rawFinishReason = u"tool_calls"_s;
    t0.usage = { 100, 20, 10, 5 };
    t0.toolCalls = 1;
    t0.note = u"first"_s;
    t0.requestReport = QJsonObject { { u"messages"_s, 2 }, { u"stubbed"_s, 0 } };
    TurnRecord t1;
    t1.index = 1;
    t1.finishReason = FinishReason::Stop;
    t1.rawFinishReason = u"stop"_s;
    t1.usage = { 150, 40, 90, 0, 60, 20 }; // 60 written to the cache, 20 of them for an hour
    r.turns = { t0, t1 };
    AttemptRecord a0;
    a0.index = 0;
    a0.turn = 0;
    a0.outcome = u"retry"_s;
    a0.finishReason = FinishReason::Other;
    a0.rawFinishReason = u"overloaded"_s;
    a0.httpStatus = 529;
    a0.error = u"overloaded"_s;
    a0.delayMs = 1200;
    a0.startedAt = QDateTime::fromMSecsSinceEpoch(1764460800123, Qt::UTC);
    a0.durationMs = 310;
    AttemptRecord a1 = a0;
    a1.index = 1;
    a1.outcome = u"ok"_s;
    a1.finishReason = FinishReason::ToolCalls;
    a1.httpStatus = 200;
    a1.error.clear();
    a1.delayMs = 0;
    a1.usage = t0.usage;
    AttemptRecord a2;
    a2.index = 2;
    a2.turn = 1;
    a2.outcome = u"ok"_s;
    a2.finishReason = FinishReason::Stop;
    a2.httpStatus = 200;
    a2.usage = t1.usage;
    a2.startedAt = QDateTime::fromMSecsSinceEpoch(1764460802000, Qt::UTC);
    a2.durationMs = 700;
    r.attempts = { a0, a1, a2 };
    r.usage = { 250, 60, 100, 5 };
    r.errorCategory = ErrorCategory::Other;
    r.error = u"a note kept with a completed call"_s;
    r.metadata = QJsonObject { { u"ticket"_s, 7 }, { u"text_answer"_s, true } };
    r.spec = QJsonObject {
        { u"kind"_s, u"planner"_s },
        { u"engine"_s, QJsonObject { { u"type"_s, u"openai"_s }, { u"model"_s, u"gpt-test"_s } } }
    };
    r.createdAt = QDateTime::fromMSecsSinceEpoch(1764460800000, Qt::UTC);
    r.finishedAt = QDateTime::fromMSecsSinceEpoch(1764460803456, Qt::UTC);
    return r;
}

CallRecord simpleRecord(const QString &kind, CallStatus status, const QString &engine,
                        const QString &model, qint64 createdMs, const QString &text = {})
{
    CallRecord r;
    r.kind = kind;
    r.status = status;
    r.engineType = engine;
    r.model = model;
    r.input = QJsonObject { { u"text"_s, text.isEmpty() ? u"input for "_s + kind : text } };
    r.createdAt = QDateTime::fromMSecsSinceEpoch(createdMs, Qt::UTC);
    r.finishedAt = r.createdAt.addMSecs(1500);
    TurnRecord t;
    t.finishReason = FinishReason::Stop;
    r.turns = { t };
    return r;
}

QList<qint64> ids(const QList<HistoryRow> &rows)
{
    QList<qint64> list;
    for (const HistoryRow &row : rows)
        list.append(row.id);
    return list;
}

// An export with ids replaced by their position, so two exports of the same rows made by
// different databases compare equal; exported_at is dropped.
QJsonObject canonicalExport(QJsonObject doc)
{
    doc.remove(u"exported_at"_s);
    QHash<qint64, int> callPos;
    QJsonArray calls = doc.value(u"calls"_s).toArray();
    for (int i = 0; i < calls.size(); ++i)
        callPos.insert(calls.at(i).toObject().value(u"id"_s).toInteger(), i);
    QHash<qint64, int> sessionPos;
    QJsonArray sessions = doc.value(u"sessions"_s).toArray();
    for (int i = 0; i < sessions.size(); ++i)
        sessionPos.insert(sessions.at(i).toObject().value(u"id"_s).toInteger(), i);
    auto mapped = [](const QHash<qint64, int> &positions, const QJsonValue &value) {
        if (!value.isDouble())
            return QJsonValue(QJsonValue::Null);
        return positions.contains(value.toInteger())
            ? QJsonValue(u"#"_s + QString::number(positions.value(value.toInteger())))
            : QJsonValue(u"outside"_s);
    };
    // Usage in the one shape (an older document's cached_tokens sat inside input_tokens).
    auto usage = [](const QJsonValue &value) {
        return Usage::fromJson(value.toObject()).toJson();
    };
    auto usages = [&usage](QJsonArray list) {
        for (qsizetype k = 0; k < list.size(); ++k) {
            QJsonObject o = list.at(k).toObject();
            o.insert(u"usage"_s, usage(o.value(u"usage"_s)));
            list.replace(k, o);
        }
        return list;
    };
    for (int i = 0; i < calls.size(); ++i) {
        QJsonObject call = calls.at(i).toObject();
        call.insert(u"usage"_s, usage(call.value(u"usage"_s)));
        call.insert(u"turns"_s, usages(call.value(u"turns"_s).toArray()));
        call.insert(u"attempts"_s, usages(call.value(u"attempts"_s).toArray()));
        call.insert(u"id"_s, mapped(callPos, call.value(u"id"_s)));
        call.insert(u"parent"_s, mapped(callPos, call.value(u"parent"_s)));
        call.insert(u"session"_s, mapped(sessionPos, call.value(u"session"_s)));
        calls.replace(i, call);
    }
    for (int i = 0; i < sessions.size(); ++i) {
        QJsonObject session = sessions.at(i).toObject();
        session.insert(u"id"_s, mapped(sessionPos, session.value(u"id"_s)));
        QHash<qint64, int> compactionPos;
        QJsonArray compactions = session.value(u"compactions"_s).toArray();
        for (int c = 0; c < compactions.size(); ++c) {
            QJsonObject o = compactions.at(c).toObject();
            compactionPos.insert(o.value(u"id"_s).toInteger(), c);
            o.insert(u"call"_s, mapped(callPos, o.value(u"call"_s)));
            compactions.replace(c, o);
        }
        for (int c = 0; c < compactions.size(); ++c) {
            QJsonObject o = compactions.at(c).toObject();
            o.insert(u"id"_s, mapped(compactionPos, o.value(u"id"_s)));
            compactions.replace(c, o);
        }
        QJsonArray messages = session.value(u"messages"_s).toArray();
        for (int m = 0; m < messages.size(); ++m) {
            QJsonObject o = messages.at(m).toObject();
            o.insert(u"compacted_by"_s, mapped(compactionPos, o.value(u"compacted_by"_s)));
            messages.replace(m, o);
        }
        session.insert(u"compactions"_s, compactions);
        session.insert(u"messages"_s, messages);
        sessions.replace(i, session);
    }
    doc.insert(u"calls"_s, calls);
    doc.insert(u"sessions"_s, sessions);
    return doc;
}

// The first differing place of two JSON values, for readable failures.
QString firstDifference(const QJsonValue &a, const QJsonValue &b, const QString &path = {})
{
    if (a == b)
        return {};
    if (a.isObject() && b.isObject()) {
        const QJsonObject oa = a.toObject();
        const QJsonObject ob = b.toObject();
        QStringList keys = oa.keys() + ob.keys();
        keys.removeDuplicates();
        for (const QString &key : keys) {
            const QString d = firstDifference(oa.value(key), ob.value(key), path + u'/' + key);
            if (!d.isEmpty())
                return d;
        }
    }
    if (a.isArray() && b.isArray()) {
        const QJsonArray aa = a.toArray();
        const QJsonArray ab = b.toArray();
        for (int i = 0; i < qMin(aa.size(), ab.size()); ++i) {
            const QString d = firstDifference(aa.at(i), ab.at(i), path + u'/' + QString::number(i));
            if (!d.isEmpty())
                return d;
        }
    }
    const auto text = [](const QJsonValue &v) {
        return QString::fromUtf8(QJsonDocument(QJsonArray { v }).toJson(QJsonDocument::Compact))
            .left(300);
    };
    return path + u": "_s + text(a) + u" != "_s + text(b);
}

} // namespace

class TestStore final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    int m_counter = 0;
    QString freshPath() { return m_dir.filePath(u"db%1.sqlite"_s.arg(++m_counter)); }

private slots:
    void initTestCase();
    void reviewLabelsKeptWithTheRun();
    void defaultPath();
    void roundTripsEveryField();
    void stripsSecretsFromSpec();
    void writesOneTransaction();
    void updateFinishesCall();
    void migratesFromVersion1();
    void refusesNewerVersion();
    void refusesGarbage_data();
    void refusesGarbage();
    void reportsLockedDatabase();
    void historyFilters();
    void keysetPaging();
    void fullTextSearch_data();
    void fullTextSearch();
    void revisionTree();
    void sessionsAndModelView();
    void compaction();
    void exportImportRoundTrip();
    void identityAndUuids();
    void migrationGivesOldRowsUuids();
    void remakesCallsWithJsonLast();
    void importTwiceStoresOnce();
    void importsHandwrittenSample();
    void refusesBrokenImport_data();
    void refusesBrokenImport();
    void integrityCheck();
    void exchangesStoredApart();
    void migratesFromVersion5WithACall();
    void migratesFromVersion6SplitsCachedTokens();
    void survivesSigkill();
    void cliShowHistoryExportImport();
    void cliErrors();
    void jsonWriterMatchesQt();
    void jsonWriterRandomValues();
    void storesLargeCallPieceByPiece();
    void textAnswerStoredOnce();
    void recoveryFileKeepsEverythingAndImportsOnce();
};

void TestStore::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY2(QFile::exists(dataFile(u"export-sample.json"_s)), "tests/data/store is missing");
}

void TestStore::defaultPath()
{
    Test::ScopedDataHome home;
    const QString path = defaultDatabasePath();
    QCOMPARE(path,
             QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)
                 + u"/callscope.sqlite"_s);
    // Test mode keeps it away from the user's real data.
    QVERIFY2(path.contains(u".qttest"_s) || path.startsWith(home.path()), qPrintable(path));
}

// People's labels: one per run and reviewer (a second label of the same run replaces the
// first), removed for undo, checked (verdict, score), and gone with their experiment. A file of
// version 8 gets the table by migration.
void TestStore::reviewLabelsKeptWithTheRun()
{
    const QString path = freshPath();
    {
        Database::Options old;
        old.targetVersion = 8;
        auto before = Database::open(path, old);
        QVERIFY2(before, qPrintable(before.error().message));
        QCOMPARE((*before)->schemaVersion(), 8);
    }
    auto db = Database::open(path);
    QVERIFY2(db, qPrintable(db.error().message));
    QCOMPARE((*db)->schemaVersion(), Database::latestSchemaVersion());
    QVERIFY(Database::latestSchemaVersion() >= 10);
    CallStore store(**db);
    const qint64 call = *store.insertCall(fullRecord(u"labelled"_s));
    ExperimentRecord definition;
    definition.name = u"reviewed"_s;
    definition.definitionHash = "h";
    const qint64 experiment = *store.createExperiment(definition);
    ExperimentRunRecord run;
    run.experimentId = experiment;
    run.caseId = u"c1"_s;
    run.variant = u"A"_s;
    run.repeat = 1;
    run.callId = call;
    run.status = u"completed"_s;
    const qint64 runId = *store.saveExperimentRun(run);

    ReviewLabel label;
    label.experimentId = experiment;
    label.runId = runId;
    label.callId = call;
    label.caseId = u"c1"_s;
    label.variant = u"A"_s;
    label.repeat = 1;
    label.verdict = u"pass"_s;
    label.score = 4;
    label.note = u"fine"_s;
    label.reviewer = u"ana"_s;
    label.createdAt = QDateTime::fromMSecsSinceEpoch(1700000000123, Qt::UTC);
    const auto first = store.saveReviewLabel(label);
    QVERIFY2(first, qPrintable(first.error().message));
    ReviewLabel other = label;
    other.reviewer = u"ben"_s;
    other.verdict = u"fail"_s;
    other.score.reset();
    other.note.clear();
    QVERIFY(store.saveReviewLabel(other));
    // Ana changes her mind: the same row, the new verdict.
    label.verdict = u"fail"_s;
    label.score = 2;
    const auto again = store.saveReviewLabel(label);
    QVERIFY(again);
    QCOMPARE(*again, *first);
    auto labels = store.reviewLabels(experiment);
    QVERIFY2(labels, qPrintable(labels.error().message));
    QCOMPARE(labels->size(), 2);
    const ReviewLabel &ana = labels->at(0);
    QCOMPARE(ana.reviewer, u"ana"_s);
    QCOMPARE(ana.verdict, u"fail"_s);
    QCOMPARE(ana.score, std::optional<int>(2));
    QCOMPARE(ana.note, u"fine"_s);
    QCOMPARE(ana.runId, std::optional<qint64>(runId));
    QCOMPARE(ana.callId, std::optional<qint64>(call));
    QCOMPARE(ana.repeat, 1);
    QCOMPARE(ana.createdAt, label.createdAt);
    QVERIFY(!labels->at(1).score);

    // What the table refuses.
    ReviewLabel bad = label;
    bad.reviewer = u"cy"_s;
    bad.verdict = u"maybe"_s;
    QVERIFY(!store.saveReviewLabel(bad));
    bad.verdict = u"pass"_s;
    bad.score = 7;
    QVERIFY(!store.saveReviewLabel(bad));

    // Undo removes one reviewer's label only; removing one that is not there is no error.
    QVERIFY(!store.deleteReviewLabel(experiment, u"c1"_s, u"A"_s, 1, u"ben"_s));
    QVERIFY(!store.deleteReviewLabel(experiment, u"c1"_s, u"A"_s, 1, u"ben"_s));
    QCOMPARE(store.reviewLabels(experiment)->size(), 1);
    QCOMPARE(store.reviewLabels(experiment)->first().reviewer, u"ana"_s);
    QVERIFY(store.reviewLabels(experiment + 1)->isEmpty());
    QVERIFY(store.checkIntegrity()->ok());
}

void TestStore::roundTripsEveryField()
{
    auto db = Database::open(freshPath());
    QVERIFY2(db, qPrintable(db.error().message));
    QCOMPARE((*db)->schemaVersion(), Database::latestSchemaVersion());
    CallStore store(**db);

    const CallRecord record = fullRecord();
    const auto id = store.insertCall(record);
    QVERIFY2(id, qPrintable(id.error().message));
    QVERIFY(*id > 0);

    const auto loaded = store.getCall(*id);
    QVERIFY2(loaded, qPrintable(loaded.error().message));
    QCOMPARE(loaded->id, *id);
    QJsonObject expected = record.toJson();
    expected.insert(u"id"_s, *id);
    expected.insert(u"uuid"_s, loaded->uuid);
    expected.insert(u"person"_s, Identity::person());
    expected.insert(u"machine"_s, Identity::machine());
    const QJsonObject actual = loaded->toJson();
    QVERIFY2(actual == expected, qPrintable(firstDifference(actual, expected)));
    // Spot checks on the typed fields, not only their JSON.
    QCOMPARE(loaded->attempts.size(), 3);
    QCOMPARE(loaded->attempts.at(0).httpStatus, 529);
    QCOMPARE(loaded->attempts.at(0).startedAt, record.attempts.at(0).startedAt);
    QCOMPARE(loaded->turns.at(0).usage, (Usage { 100, 20, 10, 5 }));
    QCOMPARE(loaded->usage, record.usage);
    QCOMPARE(loaded->finishedAt, record.finishedAt);

    // A scalar response and a null one round-trip too.
    CallRecord text = simpleRecord(u"chat"_s, CallStatus::Completed, u"openai"_s, u"m"_s, 1000);
    text.response = u"plain answer"_s;
    const auto textId = store.insertCall(text);
    QVERIFY(textId);
    QCOMPARE(store.getCall(*textId)->response, QJsonValue(u"plain answer"_s));
    CallRecord none = simpleRecord(u"chat"_s, CallStatus::Failed, u"openai"_s, u"m"_s, 1001);
    const auto noneId = store.insertCall(none);
    QVERIFY(noneId);
    QVERIFY(store.getCall(*noneId)->response.isNull());

    const auto missing = store.getCall(999999);
    QVERIFY(!missing);
    QCOMPARE(missing.error().code, StoreError::Code::NotFound);
}

void TestStore::stripsSecretsFromSpec()
{
    const QString path = freshPath();
    const QString key = u"sk-live-TESTKEY-0123456789abcdef"_s;
    {
        auto db = Database::open(path);
        QVERIFY(db);
        CallStore store(**db);
        CallRecord record = fullRecord();
        record.spec = QJsonObject {
            { u"kind"_s, u"planner"_s },
            { u"engine"_s,
              QJsonObject { { u"type"_s, u"openai"_s },
                            { u"api_key"_s, key },
                            { u"api_key_env"_s, u"OPENAI_API_KEY"_s },
                            { u"max_tokens"_s, 256 } } },
            { u"mcp_servers"_s,
              QJsonObject { { u"gh"_s,
                              QJsonObject { { u"command"_s, QJsonArray { u"npx"_s } },
                                            { u"env"_s,
                                              QJsonObject { { u"GITHUB_TOKEN"_s, key },
                                                            { u"DEBUG"_s, u"1"_s } } } } } } },
            { u"headers"_s, QJsonObject { { u"Authorization"_s, QString(u"Bearer "_s + key) } } },
            { u"tools"_s,
              QJsonArray { QJsonObject {
                  { u"name"_s, u"login"_s },
                  { u"input_schema"_s,
                    QJsonObject {
                        { u"properties"_s,
                          QJsonObject {
                              { u"password"_s, QJsonObject { { u"type"_s, u"string"_s } } },
                              { u"token"_s,
                                QJsonObject { { u"type"_s, u"string"_s } } } } } } } } } },
        };
        const auto id = store.insertCall(record);
        QVERIFY(id);
        const QJsonObject spec = store.getCall(*id)->spec;
        const QJsonObject engine = spec.value(u"engine"_s).toObject();
        QVERIFY(!engine.contains(u"api_key"_s));
        QCOMPARE(engine.value(u"api_key_env"_s).toString(), u"OPENAI_API_KEY"_s);
        QCOMPARE(engine.value(u"max_tokens"_s).toInt(), 256);
        const QJsonObject env = spec.value(u"mcp_servers"_s)[u"gh"_s][u"env"_s].toObject();
        QCOMPARE(env, (QJsonObject { { u"DEBUG"_s, u"1"_s } }));
        QCOMPARE(spec.value(u"headers"_s).toObject(), QJsonObject());
        // A tool's input schema is user content: its "password"/"token" properties stay.
        const QJsonObject properties =
            spec.value(u"tools"_s)[0][u"input_schema"_s][u"properties"_s].toObject();
        QCOMPARE(properties.keys(), (QStringList { u"password"_s, u"token"_s }));

        CallExchange exchange(store);
        const auto doc = exchange.exportCalls({ *id });
        QVERIFY(doc);
        QVERIFY(!QJsonDocument(*doc).toJson().contains(key.toUtf8()));
    }
    // No byte of the key anywhere in the database files.
    for (const QString &file : { path, QString(path + u"-wal"_s) }) {
        QFile f(file);
        if (!f.exists())
            continue;
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY2(!f.readAll().contains("TESTKEY"), qPrintable(file));
    }
}

void TestStore::writesOneTransaction()
{
    const QString path = freshPath();
    auto db = Database::open(path);
    QVERIFY(db);
    CallStore store(**db);

    // The second turn breaks the (call_id, turn_index) key after the call row and the first
    // turn were written: the whole call must be gone.
    CallRecord broken = fullRecord(u"pomegranate harvest"_s);
    broken.turns[1].index = broken.turns[0].index;
    const auto id = store.insertCall(broken);
    QVERIFY(!id);
    QCOMPARE(id.error().code, StoreError::Code::Constraint);
    QVERIFY2(id.error().message.contains(u"turn 0"), qPrintable(id.error().message));
    QCOMPARE(countRows(path, u"calls"_s), 0);
    QCOMPARE(countRows(path, u"call_turns"_s), 0);
    QCOMPARE(countRows(path, u"call_attempts"_s), 0);
    HistoryQuery search;
    search.search = u"pomegranate"_s;
    QCOMPARE(store.listCalls(search)->rows.size(), 0);

    // A failing attempt row (duplicate index) also rolls back the call and its turns.
    CallRecord brokenAttempts = fullRecord();
    brokenAttempts.attempts[2].index = 1;
    QVERIFY(!store.insertCall(brokenAttempts));
    QCOMPARE(countRows(path, u"calls"_s), 0);
    QCOMPARE(countRows(path, u"call_turns"_s), 0);

    // A session call whose session does not exist writes neither messages nor the call.
    CallRecord inSession = fullRecord();
    inSession.session = 77;
    const auto missing =
        store.insertCall(inSession, { SessionMessage { 0, Message::user(u"hi"_s) } });
    QVERIFY(!missing);
    QCOMPARE(missing.error().code, StoreError::Code::NotFound);
    QCOMPARE(countRows(path, u"messages"_s), 0);

    // A batch with one bad record writes nothing.
    QList<CallRecord> batch { fullRecord(), fullRecord(), broken };
    QVERIFY(!store.insertCalls(batch));
    QCOMPARE(countRows(path, u"calls"_s), 0);

    // And the store still works afterwards.
    QVERIFY(store.insertCall(fullRecord()));
    QCOMPARE(countRows(path, u"calls"_s), 1);
    QCOMPARE(countRows(path, u"call_turns"_s), 2);
    QCOMPARE(countRows(path, u"call_attempts"_s), 3);
}

void TestStore::updateFinishesCall()
{
    auto db = Database::open(freshPath());
    QVERIFY(db);
    CallStore store(**db);
    CallRecord running = simpleRecord(u"planner"_s, CallStatus::Running, u"openai"_s, u"m"_s, 5000,
                                      u"walrus migration"_s);
    running.turns.clear();
    running.finishedAt = QDateTime();
    const auto id = store.insertCall(running);
    QVERIFY(id);
    QCOMPARE(store.getCall(*id)->status, CallStatus::Running);

    CallRecord finished = fullRecord(u"narwhal migration"_s);
    finished.id = *id;
    QVERIFY(!store.updateCall(finished));
    const auto loaded = store.getCall(*id);
    QJsonObject expected = finished.toJson();
    // Who and where stay those of the first insert: finishing a call does not change them.
    expected.insert(u"uuid"_s, loaded->uuid);
    expected.insert(u"person"_s, Identity::person());
    expected.insert(u"machine"_s, Identity::machine());
    QVERIFY2(loaded->toJson() == expected, qPrintable(firstDifference(loaded->toJson(), expected)));

    // The search index follows: the old words are gone, the new ones found.
    HistoryQuery q;
    q.search = u"walrus"_s;
    QCOMPARE(store.listCalls(q)->rows.size(), 0);
    q.search = u"narwhal"_s;
    QCOMPARE(ids(store.listCalls(q)->rows), QList<qint64> { *id });

    finished.id = 4242;
    const StoreError error = store.updateCall(finished);
    QCOMPARE(error.code, StoreError::Code::NotFound);
}

void TestStore::migratesFromVersion1()
{
    const QString path = freshPath();
    const QByteArray v1 = Test::readFile(dataFile(u"schema-v1.sql"_s));
    QVERIFY2(!v1.isEmpty(), qPrintable(Test::lastError()));
    QString error;
    QVERIFY2(runSql(path, QString::fromUtf8(v1), &error), qPrintable(error));
    QVERIFY2(runSql(path, uR"(INSERT INTO calls (id, kind, status, engine_type, model, created_at,
                        finished_at, input_tokens, output_tokens, turn_count, input_preview,
                        input, response, messages)
                        VALUES (7, 'planner', 'completed', 'gemini', 'gemini-test', 1764460800000,
                        1764460801000, 11, 22, 1, 'capybara census',
                        '{"text":"capybara census"}', '{"count":3}', '[]')
;
INSERT INTO call_turns (call_id, turn_index, finish_reason, input_tokens, output_tokens)
                        VALUES (7, 0, 'stop', 11, 22)
;
PRAGMA user_version = 1
)"_s,
                    &error),
             qPrintable(error));

    auto db = Database::open(path);
    QVERIFY2(db, qPrintable(db.error().message));
    QCOMPARE((*db)->schemaVersion(), Database::latestSchemaVersion());
    QCOMPARE((*db)->searchMode(), Database::SearchMode::Fts5);
    CallStore store(**db);
    const auto call = store.getCall(7);
    QVERIFY2(call, qPrintable(call.error().message));
    QCOMPARE(call->kind, u"planner"_s);
    QCOMPARE(call->engineType, u"gemini"_s);
    QCOMPARE(call->input.value(u"text"_s).toString(), u"capybara census"_s);
    QCOMPARE(call->response.toObject().value(u"count"_s).toInt(), 3);
    QCOMPARE(call->usage, (Usage { 11, 22, 0, 0 }));
    QCOMPARE(call->turns.size(), 1);
    QCOMPARE(call->createdAt, QDateTime::fromMSecsSinceEpoch(1764460800000, Qt::UTC));
    // Migration 2 indexed the row that was already there.
    HistoryQuery q;
    q.search = u"capybara"_s;
    QCOMPARE(ids(store.listCalls(q)->rows), QList<qint64> { 7 });

    // Opening again changes nothing (no second migration).
    db = StoreResult<std::unique_ptr<Database>>(StoreError());
    auto again = Database::open(path);
    QVERIFY(again);
    QCOMPARE((*again)->schemaVersion(), Database::latestSchemaVersion());
}

void TestStore::refusesNewerVersion()
{
    const QString path = freshPath();
    {
        auto db = Database::open(path);
        QVERIFY(db);
        CallStore store(**db);
        QVERIFY(store.insertCall(fullRecord()));
    }
    QVERIFY(runSql(path, u"PRAGMA user_version = 999"_s));
    QVERIFY(!QFile::exists(path + u"-wal"_s) || QFileInfo(path + u"-wal"_s).size() == 0);
    const QByteArray before = fileHash(path);
    QVERIFY(!before.isEmpty());

    auto db = Database::open(path);
    QVERIFY(!db);
    QCOMPARE(db.error().code, StoreError::Code::NewerVersion);
    QVERIFY2(db.error().message.contains(u"999"), qPrintable(db.error().message));
    QVERIFY2(db.error().message.contains(u"newer"), qPrintable(db.error().message));
    QVERIFY2(db.error().message.contains(u"untouched"), qPrintable(db.error().message));
    QCOMPARE(fileHash(path), before);
    QVERIFY(!QFile::exists(path + u"-wal"_s) || QFileInfo(path + u"-wal"_s).size() == 0);
}

void TestStore::refusesGarbage_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<int>("code");
    QByteArray random(8192, '\0');
    QRandomGenerator generator(42);
    for (char &c : random)
        c = char(generator.bounded(256));
    QTest::newRow("random bytes") << random << int(StoreError::Code::NotADatabase);
    QTest::newRow("text file") << "{\"not\": \"a database\"}\n"_ba
                               << int(StoreError::Code::NotADatabase);
    // Right magic, garbage after it: SQLite itself rejects it.
    QTest::newRow("sqlite header, garbage body")
        << QByteArray("SQLite format 3\0", 16) + random << int(StoreError::Code::NotADatabase);
}

void TestStore::refusesGarbage()
{
    QFETCH(QByteArray, content);
    QFETCH(int, code);
    const QString path = freshPath();
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(content);
    }
    auto db = Database::open(path);
    QVERIFY(!db);
    QVERIFY2(int(db.error().code) == code || db.error().code == StoreError::Code::Corrupt,
             qPrintable(db.error().message));
    QVERIFY2(db.error().message.contains(path), qPrintable(db.error().message));
    QVERIFY2(db.error().message.contains(u"untouched"), qPrintable(db.error().message));
    QCOMPARE(Test::readFile(path), content);
    QVERIFY(!QFile::exists(path + u"-wal"_s));
    QVERIFY(!QFile::exists(path + u"-journal"_s));
}

void TestStore::reportsLockedDatabase()
{
    const QString path = freshPath();
    {
        auto db = Database::open(path);
        QVERIFY(db);
        CallStore store(**db);
        QVERIFY(store.insertCall(fullRecord()));
    }
    const QByteArray before = fileHash(path);
    const QString holder = u"holder"_s;
    {
        QSqlDatabase other = QSqlDatabase::addDatabase(u"QSQLITE"_s, holder);
        other.setDatabaseName(path);
        QVERIFY(other.open());
        QSqlQuery q(other);
        QVERIFY(q.exec(u"PRAGMA locking_mode = EXCLUSIVE"_s));
        QVERIFY2(q.exec(u"BEGIN EXCLUSIVE"_s), qPrintable(q.lastError().text()));

        Database::Options options;
        options.busyTimeoutMs = 100;
        auto db = Database::open(path, options);
        QVERIFY(!db);
        QCOMPARE(db.error().code, StoreError::Code::Locked);
        QVERIFY2(db.error().message.contains(u"locked"), qPrintable(db.error().message));
        QVERIFY(q.exec(u"ROLLBACK"_s));
        other.close();
    }
    QSqlDatabase::removeDatabase(holder);
    QCOMPARE(fileHash(path), before);
    // Once released the database opens normally.
    auto db = Database::open(path);
    QVERIFY2(db, qPrintable(db.error().message));
}

void TestStore::historyFilters()
{
    auto db = Database::open(freshPath());
    QVERIFY(db);
    CallStore store(**db);
    const qint64 t0 = 1764460800000;
    const auto session = store.createSession(Session { 0, u"s"_s });
    QVERIFY(session);

    // 12 calls, one per minute; kind/status/engine/model vary with i.
    QList<qint64> all;
    const QStringList kinds { u"planner"_s, u"chat"_s, u"compaction"_s };
    const QList<CallStatus> statuses { CallStatus::Completed, CallStatus::Failed,
                                       CallStatus::TurnLimited, CallStatus::Cancelled };
    for (int i = 0; i < 12; ++i) {
        CallRecord r =
            simpleRecord(kinds.at(i % 3), statuses.at(i % 4), i < 6 ? u"openai"_s : u"anthropic"_s,
                         i % 2 ? u"model-b"_s : u"model-a"_s, t0 + i * 60000);
        if (i == 5 || i == 7)
            r.parent = all.at(1);
        if (i >= 9)
            r.session = *session;
        const auto id = store.insertCall(r);
        QVERIFY2(id, qPrintable(id.error().message));
        all.append(*id);
    }
    auto pick = [&](std::initializer_list<int> indexes) {
        QList<qint64> list;
        for (int i : indexes)
            list.append(all.at(i));
        return list;
    };
    auto run = [&](const HistoryQuery &q) {
        return ids(store.listCalls(q)->rows);
    };

    HistoryQuery q;
    QCOMPARE(run(q), pick({ 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0 }));
    q.kind = u"chat"_s;
    QCOMPARE(run(q), pick({ 10, 7, 4, 1 }));
    q = {};
    q.status = CallStatus::Failed;
    QCOMPARE(run(q), pick({ 9, 5, 1 }));
    q = {};
    q.engineType = u"anthropic"_s;
    q.model = u"model-a"_s;
    QCOMPARE(run(q), pick({ 10, 8, 6 }));
    q = {};
    q.from = QDateTime::fromMSecsSinceEpoch(t0 + 3 * 60000, Qt::UTC);
    q.to = QDateTime::fromMSecsSinceEpoch(t0 + 6 * 60000, Qt::UTC);
    QCOMPARE(run(q), pick({ 5, 4, 3 }));
    q = {};
    q.parent = all.at(1);
    QCOMPARE(run(q), pick({ 7, 5 }));
    q = {};
    q.session = *session;
    QCOMPARE(run(q), pick({ 11, 10, 9 }));
    q = {};
    q.kind = u"planner"_s;
    q.status = CallStatus::Completed;
    QCOMPARE(run(q), pick({ 0 }));
    q = {};
    q.kind = u"nothing-like-this"_s;
    QCOMPARE(run(q), QList<qint64>());

    // Light rows carry what the list shows.
    q = {};
    q.limit = 12;
    const auto page = store.listCalls(q);
    const HistoryRow &row1 = page->rows.at(10); // all[1]
    QCOMPARE(row1.id, all.at(1));
    QCOMPARE(row1.revisionCount, 2);
    QCOMPARE(row1.kind, u"chat"_s);
    QCOMPARE(row1.status, CallStatus::Failed);
    QCOMPARE(row1.durationMs(), 1500);
    QCOMPARE(row1.turnCount, 1);
    QCOMPARE(row1.inputPreview, u"input for chat"_s);
    QCOMPARE(page->rows.at(6).parent, std::optional<qint64>(all.at(1)));
    const QJsonObject json = row1.toJson();
    QCOMPARE(json.value(u"revisions"_s).toInt(), 2);
    QCOMPARE(json.value(u"status"_s).toString(), u"failed"_s);
    QCOMPARE(json.value(u"duration_ms"_s).toInt(), 1500);
    QVERIFY(page->next); // the page was full

    const auto structured = store.sessionCalls(*session);
    QCOMPARE(ids(*structured), pick({ 9, 10, 11 }));
    QCOMPARE(store.sessionCalls(9999).error().code, StoreError::Code::NotFound);
}

void TestStore::keysetPaging()
{
    auto db = Database::open(freshPath());
    QVERIFY(db);
    CallStore store(**db);
    // 53 calls, several sharing a created_at so the id tie-break matters.
    QList<CallRecord> batch;
    for (int i = 0; i < 53; ++i)
        batch.append(simpleRecord(i % 2 ? u"a"_s : u"b"_s, CallStatus::Completed, u"openai"_s,
                                  u"m"_s, 1764460800000 + (i / 3) * 1000));
    const auto inserted = store.insertCalls(batch);
    QVERIFY(inserted);
    QList<qint64> expected = *inserted;
    std::reverse(expected.begin(), expected.end()); // newest first; equal times -> higher id first

    for (int pageSize : { 1, 7, 10, 53, 60 }) {
        QList<qint64> seen;
        HistoryQuery q;
        q.limit = pageSize;
        int pages = 0;
        while (true) {
            const auto page = store.listCalls(q);
            QVERIFY(page);
            seen += ids(page->rows);
            ++pages;
            if (!page->next)
                break;
            q.after = page->next;
            QVERIFY(pages < 100);
        }
        QCOMPARE(seen, expected);
        // Offsets give the same pages.
        HistoryQuery offsetQuery;
        offsetQuery.limit = pageSize;
        offsetQuery.offset = pageSize;
        QCOMPARE(ids(store.listCalls(offsetQuery)->rows), expected.mid(pageSize, pageSize));
    }

    // Keyset with a filter.
    HistoryQuery q;
    q.kind = u"a"_s;
    q.limit = 5;
    QList<qint64> seen;
    for (;;) {
        const auto page = store.listCalls(q);
        seen += ids(page->rows);
        if (!page->next)
            break;
        q.after = page->next;
    }
    QList<qint64> expectedA;
    for (qsizetype i = inserted->size() - 1; i >= 0; --i) {
        if (i % 2)
            expectedA.append(inserted->at(i));
    }
    QCOMPARE(seen, expectedA);

    // Keyset paging through search results (every call says "input"), with and without FTS5.
    for (const QString &words : { u"input"_s, u"input for"_s }) {
        HistoryQuery search;
        search.search = words;
        search.limit = 7;
        QList<qint64> found;
        for (int pages = 0; pages < 100; ++pages) {
            const auto page = store.listCalls(search);
            QVERIFY2(page, qPrintable(page.error().message));
            found += ids(page->rows);
            if (!page->next)
                break;
            search.after = page->next;
        }
        QCOMPARE(found, expected);
    }

    // Cursors survive a text round trip.
    const HistoryCursor cursor { 1764460800123, 77 };
    QCOMPARE(HistoryCursor::fromString(cursor.toString()), std::optional<HistoryCursor>(cursor));
    QVERIFY(!HistoryCursor::fromString(u"garbage"_s));
}

void TestStore::fullTextSearch_data()
{
    QTest::addColumn<bool>("fallback");
    QTest::newRow("fts5") << false;
    QTest::newRow("like fallback") << true;
}

void TestStore::fullTextSearch()
{
    QFETCH(bool, fallback);
    Database::Options options;
    options.forceSearchFallback = fallback;
    auto db = Database::open(freshPath(), options);
    QVERIFY(db);
    QCOMPARE((*db)->searchMode(),
             fallback ? Database::SearchMode::LikeFallback : Database::SearchMode::Fts5);
    CallStore store(**db);

    CallRecord inInput = simpleRecord(u"k"_s, CallStatus::Completed, u"openai"_s, u"m"_s, 1000,
                                      u"Where is the Flamingo invoice?"_s);
    CallRecord inResponse = simpleRecord(u"k"_s, CallStatus::Completed, u"openai"_s, u"m"_s, 2000);
    inResponse.response = QJsonObject { { u"answer"_s, u"the flamingo budget is approved"_s } };
    CallRecord inTool = simpleRecord(u"k"_s, CallStatus::Failed, u"openai"_s, u"m"_s, 3000);
    inTool.messages = messagesToJson({ Message::user(u"look it up"_s), toolCallMessage(),
                                       toolResultMessage(u"invoice 99 for the café order"_s) });
    CallRecord inError = simpleRecord(u"k"_s, CallStatus::Failed, u"openai"_s, u"m"_s, 4000);
    inError.error = u"quota exceeded for project heron"_s;
    const qint64 a = *store.insertCall(inInput);
    const qint64 b = *store.insertCall(inResponse);
    const qint64 c = *store.insertCall(inTool);
    const qint64 d = *store.insertCall(inError);

    auto search = [&](const QString &text, std::optional<CallStatus> status = std::nullopt) {
        HistoryQuery q;
        q.search = text;
        q.status = status;
        const auto page = store.listCalls(q);
        if (!page)
            qWarning() << page.error().message;
        return page ? ids(page->rows) : QList<qint64> { -1 };
    };
    QCOMPARE(search(u"flamingo"_s), (QList<qint64> { b, a })); // input and response, any case
    QCOMPARE(search(u"invoice"_s), (QList<qint64> { c, a })); // tool result and input
    QCOMPARE(search(u"flamingo invoice"_s), (QList<qint64> { a })); // every word must occur
    QCOMPARE(search(u"heron"_s), (QList<qint64> { d })); // error text
    QCOMPARE(search(u"invoice"_s, CallStatus::Failed), (QList<qint64> { c }));
    QCOMPARE(search(u"nonexistentword"_s), QList<qint64>());
    QCOMPARE(search(u"   "_s), (QList<qint64> { d, c, b, a })); // blank search = no filter
    // Operators and quotes in the user's text are plain words, never a syntax error.
    QCOMPARE(search(u"\"flamingo"_s), (QList<qint64> { b, a }));
    QCOMPARE(search(u"flamingo AND OR NOT"_s), QList<qint64>());
    QCOMPARE(search(u"NEAR(invoice"_s), QList<qint64>());
    QCOMPARE(search(u"100%"_s), QList<qint64>());
    if (!fallback) {
        // FTS5 folds diacritics: "cafe" finds "café".
        QCOMPARE(search(u"cafe"_s), (QList<qint64> { c }));
    } else {
        QCOMPARE(search(u"café"_s), (QList<qint64> { c }));
    }
}

void TestStore::revisionTree()
{
    auto db = Database::open(freshPath());
    QVERIFY(db);
    CallStore store(**db);
    const qint64 t = 1764460800000;
    const qint64 root =
        *store.insertCall(simpleRecord(u"p"_s, CallStatus::Completed, u"openai"_s, u"m"_s, t));
    CallRecord r1 = simpleRecord(u"p"_s, CallStatus::Completed, u"openai"_s, u"m"_s, t + 1000);
    r1.parent = root;
    const qint64 rev1 = *store.insertCall(r1);
    CallRecord r2 = r1;
    r2.createdAt = r2.createdAt.addSecs(5);
    const qint64 rev2 = *store.insertCall(r2);
    CallRecord r11 = r1;
    r11.parent = rev1;
    r11.createdAt = r11.createdAt.addSecs(2);
    const qint64 rev11 = *store.insertCall(r11);
    const qint64 other = *store.insertCall(
        simpleRecord(u"p"_s, CallStatus::Completed, u"openai"_s, u"m"_s, t + 500));

    QCOMPARE(ids(*store.children(root)), (QList<qint64> { rev1, rev2 }));
    QCOMPARE(ids(*store.revisionTree(root)), (QList<qint64> { root, rev1, rev11, rev2 }));
    QCOMPARE(ids(*store.revisionTree(rev1)), (QList<qint64> { rev1, rev11 }));
    QCOMPARE(*store.revisionRoot(rev11), root);
    QCOMPARE(*store.revisionRoot(other), other);
    QCOMPARE(store.revisionTree(12345).error().code, StoreError::Code::NotFound);

    CallRecord orphan = r1;
    orphan.parent = 12345;
    const auto refused = store.insertCall(orphan);
    QCOMPARE(refused.error().code, StoreError::Code::NotFound);
    QVERIFY(refused.error().message.contains(u"12345"));
}

void TestStore::sessionsAndModelView()
{
    auto db = Database::open(freshPath());
    QVERIFY(db);
    CallStore store(**db);
    Session s;
    s.title = u"Trip"_s;
    s.systemPrompt = u"You plan trips."_s;
    s.metadata = QJsonObject { { u"owner"_s, u"me"_s } };
    const auto sessionId = store.createSession(s);
    QVERIFY(sessionId);
    const auto loaded = store.getSession(*sessionId);
    QCOMPARE(loaded->title, u"Trip"_s);
    QCOMPARE(loaded->systemPrompt, u"You plan trips."_s);
    QCOMPARE(loaded->metadata, s.metadata);
    QVERIFY(loaded->createdAt.isValid());

    // Rename: only the title changes; an unknown id is NotFound.
    QVERIFY(!store.renameSession(*sessionId, u"Trip to Lisbon"_s));
    const auto renamed = store.getSession(*sessionId);
    QCOMPARE(renamed->title, u"Trip to Lisbon"_s);
    QCOMPARE(renamed->systemPrompt, u"You plan trips."_s);
    QCOMPARE(renamed->createdAt, loaded->createdAt);
    QCOMPARE(store.renameSession(*sessionId + 1000, u"x"_s).code, StoreError::Code::NotFound);

    // An ordinary chat turn.
    const auto chat =
        store.appendMessages(*sessionId,
                             { SessionMessage { 0, Message::user(u"Hi"_s) },
                               SessionMessage { 0, Message::assistant(u"Hello, where to?"_s) } });
    QVERIFY(chat);
    QCOMPARE(chat->first, 1);
    QCOMPARE(chat->last, 2);

    // A structured call in the session: its loop messages, then the accepted output copy.
    CallRecord call = fullRecord(u"Plan Lisbon"_s);
    call.session = *sessionId;
    SessionMessage copy { 0, Message::assistant(u"{\"title\":\"Lisbon\"}"_s) };
    copy.sendToModel = false;
    const auto callId =
        store.insertCall(call,
                         { SessionMessage { 0, Message::user(u"Plan Lisbon"_s) },
                           SessionMessage { 0, toolCallMessage() },
                           SessionMessage { 0, toolResultMessage(u"Lisbon: 3 days"_s) }, copy });
    QVERIFY2(callId, qPrintable(callId.error().message));
    const auto stored = store.getCall(*callId);
    QCOMPARE(stored->session, std::optional<qint64>(*sessionId));
    QCOMPARE(stored->firstSequence, std::optional<qint64>(3));
    QCOMPARE(stored->lastSequence, std::optional<qint64>(6));

    const auto all = store.sessionMessages(*sessionId);
    QVERIFY(all);
    QCOMPARE(all->size(), 6);
    QCOMPARE(all->at(5).sequence, 6);
    QCOMPARE(all->at(5).sendToModel, false);
    QCOMPARE(all->at(5).message.text, u"{\"title\":\"Lisbon\"}"_s);
    QCOMPARE(all->at(3).message, toolCallMessage());

    const auto forModel = store.sessionMessages(*sessionId, CallStore::MessageView::ForModel);
    QCOMPARE(forModel->size(), 5);
    for (const SessionMessage &m : *forModel)
        QVERIFY(m.sequence != 6);
    const auto plain = store.modelMessages(*sessionId);
    QCOMPARE(plain->size(), 5);
    QCOMPARE(plain->at(4), toolResultMessage(u"Lisbon: 3 days"_s));

    QCOMPARE(ids(*store.sessionCalls(*sessionId)), QList<qint64> { *callId });
    QCOMPARE(store.listSessions()->size(), 1);
    QCOMPARE(store.appendMessages(999, { SessionMessage {} }).error().code,
             StoreError::Code::NotFound);
}

void TestStore::compaction()
{
    auto db = Database::open(freshPath());
    QVERIFY(db);
    CallStore store(**db);
    const qint64 sessionId = *store.createSession(Session { 0, u"Long chat"_s });
    QList<SessionMessage> messages;
    for (int i = 1; i <= 6; ++i)
        messages.append(SessionMessage {
            0, i % 2 ? Message::user(u"q%1"_s.arg(i)) : Message::assistant(u"a%1"_s.arg(i)) });
    QVERIFY(store.appendMessages(sessionId, messages));

    CallRecord summaryCall = simpleRecord(u"compaction"_s, CallStatus::Completed, u"openai"_s,
                                          u"m"_s, 1764460800000, u"Summarise"_s);
    summaryCall.response = u"They asked q1 and q3."_s;
    const auto first =
        store.recordCompaction(sessionId, summaryCall, 1, 4, u"They asked q1 and q3."_s);
    QVERIFY2(first, qPrintable(first.error().message));
    QCOMPARE(first->firstSequence, 1);
    QCOMPARE(store.getCall(first->callId)->kind, u"compaction"_s);
    QCOMPARE(store.getCall(first->callId)->session, std::optional<qint64>(sessionId));

    auto view = store.sessionMessages(sessionId, CallStore::MessageView::ForModel);
    QCOMPARE(view->size(), 3);
    QVERIFY(view->at(0).isSummary);
    QCOMPARE(view->at(0).message.text, u"They asked q1 and q3."_s);
    QCOMPARE(view->at(0).message.role, Role::User);
    QCOMPARE(view->at(1).message.text, u"q5"_s);
    QCOMPARE(view->at(2).message.text, u"a6"_s);
    // Nothing is deleted; the rows say who folded them.
    const auto all = store.sessionMessages(sessionId);
    QCOMPARE(all->size(), 6);
    QCOMPARE(all->at(3).compactedBy, std::optional<qint64>(first->id));
    QVERIFY(!all->at(4).compactedBy);
    QCOMPARE(store.getSession(sessionId)->summary, u"They asked q1 and q3."_s);
    QCOMPARE(store.getSession(sessionId)->summaryThrough, std::optional<qint64>(4));

    // A rolling summary over a longer range replaces the first one in the model's view.
    summaryCall.response = u"They asked q1, q3 and q5."_s;
    const auto second =
        store.recordCompaction(sessionId, summaryCall, 1, 5, u"They asked q1, q3 and q5."_s);
    QVERIFY(second);
    view = store.sessionMessages(sessionId, CallStore::MessageView::ForModel);
    QCOMPARE(view->size(), 2);
    QCOMPARE(view->at(0).message.text, u"They asked q1, q3 and q5."_s);
    QCOMPARE(view->at(1).message.text, u"a6"_s);
    QCOMPARE(store.compactions(sessionId)->size(), 2);
    // sessionCalls lists the summary calls too.
    QCOMPARE(store.sessionCalls(sessionId)->size(), 2);

    // A range with no messages is refused and writes nothing.
    const qint64 callsBefore = store.listCalls({})->rows.size();
    QCOMPARE(store.recordCompaction(sessionId, summaryCall, 5, 9, u"x"_s).error().code,
             StoreError::Code::InvalidInput);
    QCOMPARE(store.listCalls({})->rows.size(), callsBefore);
}

void TestStore::exportImportRoundTrip()
{
    auto source = Database::open(freshPath());
    QVERIFY(source);
    CallStore store(**source);

    // A revision tree: root -> (rev1 -> rev11), rev2.
    const qint64 root = *store.insertCall(fullRecord(u"root call"_s));
    CallRecord r1 = fullRecord(u"revision one"_s);
    r1.parent = root;
    r1.metadata = QJsonObject { { u"correction"_s, u"shorter"_s } };
    const qint64 rev1 = *store.insertCall(r1);
    CallRecord r11 = fullRecord(u"revision one one"_s);
    r11.parent = rev1;
    r11.status = CallStatus::TurnLimited;
    r11.response = QJsonValue();
    const qint64 rev11 = *store.insertCall(r11);
    CallRecord r2 = fullRecord(u"revision two"_s);
    r2.parent = root;
    r2.errorCategory = ErrorCategory::Refusal;
    r2.status = CallStatus::Failed;
    r2.error = u"refused: violence"_s;
    const qint64 rev2 = *store.insertCall(r2);

    // A session with chat, a structured call, its revision, and a compaction.
    const qint64 session = *store.createSession(Session { 0, u"Mixed"_s, u"Be brief."_s });
    QVERIFY(store.appendMessages(session,
                                 { SessionMessage { 0, Message::user(u"hello"_s) },
                                   SessionMessage { 0, Message::assistant(u"hi"_s) } }));
    CallRecord inSession = fullRecord(u"structured in session"_s);
    inSession.session = session;
    SessionMessage copy { 0, Message::assistant(u"accepted output"_s) };
    copy.sendToModel = false;
    const qint64 sessionCall = *store.insertCall(
        inSession, { SessionMessage { 0, Message::user(u"structured in session"_s) }, copy });
    CallRecord sessionRevision = fullRecord(u"structured revised"_s);
    sessionRevision.session = session;
    sessionRevision.parent = sessionCall;
    QVERIFY(store.insertCall(sessionRevision, { SessionMessage { 0, Message::user(u"again"_s) } }));
    QVERIFY(store.recordCompaction(
        session,
        simpleRecord(u"compaction"_s, CallStatus::Completed, u"openai"_s, u"m"_s, 1764460900000), 1,
        2, u"greetings"_s));

    CallExchange exchange(store);
    const auto treeDoc = exchange.exportRevisionTree(root);
    QVERIFY2(treeDoc, qPrintable(treeDoc.error().message));
    QCOMPARE(treeDoc->value(u"calls"_s).toArray().size(), 4);
    const StoreError treeValid = CallExchange::validateDocument(*treeDoc);
    QVERIFY2(!treeValid, qPrintable(treeValid.message));
    const auto sessionDoc = exchange.exportSession(session);
    QVERIFY2(sessionDoc, qPrintable(sessionDoc.error().message));
    QCOMPARE(sessionDoc->value(u"calls"_s).toArray().size(), 3);
    QCOMPARE(sessionDoc->value(u"sessions"_s)[0][u"messages"_s].toArray().size(), 5);
    const StoreError sessionValid = CallExchange::validateDocument(*sessionDoc);
    QVERIFY2(!sessionValid, qPrintable(sessionValid.message));
    // Parents come before revisions in the document.
    QList<qint64> order;
    for (const QJsonValue &c : treeDoc->value(u"calls"_s).toArray())
        order.append(c[u"id"_s].toInteger());
    QCOMPARE(order.indexOf(root), 0);
    QVERIFY(order.indexOf(rev1) < order.indexOf(rev11));
    QVERIFY(order.contains(rev2));

    // Import both into an empty database with ids already taken, export again, compare.
    auto target = Database::open(freshPath());
    QVERIFY(target);
    CallStore targetStore(**target);
    for (int i = 0; i < 10; ++i) // shift ids so the import cannot keep them by accident
        QVERIFY(targetStore.insertCall(
            simpleRecord(u"filler"_s, CallStatus::Completed, u"x"_s, u"y"_s, 1)));
    CallExchange targetExchange(targetStore);
    for (const QJsonObject &doc : { *treeDoc, *sessionDoc }) {
        const auto imported = targetExchange.importDocument(doc);
        QVERIFY2(imported, qPrintable(imported.error().message));
        const QList<qint64> newIds = imported->callIds;
        QCOMPARE(newIds.size(), doc.value(u"calls"_s).toArray().size());
        for (qint64 id : newIds)
            QVERIFY(id > 10);
        QJsonObject again;
        if (doc.value(u"sessions"_s).toArray().isEmpty()) {
            const auto rootId = imported->callIdMap.value(root);
            // The parent links point at the new rows.
            QCOMPARE(targetStore.getCall(imported->callIdMap.value(rev11))->parent,
                     std::optional<qint64>(imported->callIdMap.value(rev1)));
            QCOMPARE(targetStore.getCall(imported->callIdMap.value(rev2))->parent,
                     std::optional<qint64>(rootId));
            again = *targetExchange.exportRevisionTree(rootId);
        } else {
            QCOMPARE(imported->sessionIds.size(), 1);
            again = *targetExchange.exportSession(imported->sessionIds.first());
            // The model view survives: the copy stays out, the compaction stays in.
            const auto view = targetStore.modelMessages(imported->sessionIds.first());
            QCOMPARE(view->size(), 3);
            QCOMPARE(view->at(0).text, u"greetings"_s);
            QCOMPARE(view->at(1).text, u"structured in session"_s);
            QCOMPARE(view->at(2).text, u"again"_s);
        }
        const QJsonObject a = canonicalExport(doc);
        const QJsonObject b = canonicalExport(again);
        QVERIFY2(a == b, qPrintable(firstDifference(a, b)));
        // Only ids differ: a plain id remap turns one into the other.
        QVERIFY(again.value(u"calls"_s) != doc.value(u"calls"_s));
    }
}

// Every call, session and run gets a UUID, the person (settings, else the OS user) and the
// machine (CALLSCOPE_MACHINE, else the host name); the history filters by person.
void TestStore::identityAndUuids()
{
    auto db = Database::open(freshPath());
    QVERIFY(db);
    CallStore store(**db);
    const QRegularExpression uuid(
        u"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"_s);
    const QString before = QSettings().value(Identity::kPersonSetting).toString();
    QSettings().setValue(Identity::kPersonSetting, u"sam"_s);
    qputenv("CALLSCOPE_MACHINE", "test-machine");
    const auto a = store.insertCall(fullRecord(u"one"_s));
    QSettings().setValue(Identity::kPersonSetting, QString());
    qunsetenv("CALLSCOPE_MACHINE");
    const auto b = store.insertCall(fullRecord(u"two"_s));
    if (!before.isEmpty())
        QSettings().setValue(Identity::kPersonSetting, before);
    QVERIFY(a && b);
    const auto first = store.getCall(*a);
    const auto second = store.getCall(*b);
    QVERIFY2(uuid.match(first->uuid).hasMatch(), qPrintable(first->uuid));
    QVERIFY(first->uuid != second->uuid);
    QCOMPARE(first->person, u"sam"_s);
    QCOMPARE(first->machine, u"test-machine"_s);
    QCOMPARE(second->person, Identity::osUserName());
    QCOMPARE(second->machine, QSysInfo::machineHostName());
    QCOMPARE(first->toJson().value(u"person"_s).toString(), u"sam"_s);
    HistoryQuery sams;
    sams.person = u"sam"_s;
    QCOMPARE(ids(store.listCalls(sams)->rows), QList<qint64> { *a });
    QCOMPARE(store.listCalls(sams)->rows.first().machine, u"test-machine"_s);
    const qint64 session = *store.createSession(Session { 0, QString(), u"t"_s });
    QVERIFY(uuid.match(store.getSession(session)->uuid).hasMatch());
    ExperimentRecord experiment;
    experiment.name = u"e"_s;
    experiment.definitionHash = "h";
    ExperimentRunRecord run;
    run.experimentId = *store.createExperiment(experiment);
    run.caseId = u"c"_s;
    run.variant = u"v"_s;
    run.status = u"completed"_s;
    QVERIFY(store.saveExperimentRun(run));
    const auto runs = store.experimentRuns(run.experimentId);
    QVERIFY(uuid.match(runs->first().uuid).hasMatch());
    QCOMPARE(runs->first().person, Identity::person());
}

// A history made before UUIDs: migrating gives every old row one of its own.
void TestStore::migrationGivesOldRowsUuids()
{
    const QString path = freshPath();
    {
        Database::Options old;
        old.targetVersion = 8;
        auto db = Database::open(path, old);
        QVERIFY2(db, qPrintable(db.error().message));
        QSqlQuery q(db.value()->connection());
        for (int i = 0; i < 3; ++i)
            QVERIFY(q.exec(u"INSERT INTO calls (kind, status, created_at) VALUES ('old', "
                           "'completed', %1)"_s.arg(i)));
        QVERIFY(q.exec(u"INSERT INTO sessions (created_at) VALUES (5)"_s));
    }
    auto db = Database::open(path);
    QVERIFY2(db, qPrintable(db.error().message));
    QCOMPARE(db.value()->schemaVersion(), Database::latestSchemaVersion());
    QSqlQuery q(db.value()->connection());
    QVERIFY(q.exec(u"SELECT count(*), count(DISTINCT uuid), count(uuid) FROM calls"_s) && q.next());
    QCOMPARE(q.value(0).toInt(), 3);
    QCOMPARE(q.value(1).toInt(), 3);
    QCOMPARE(q.value(2).toInt(), 3);
    QVERIFY(q.exec(u"SELECT uuid FROM calls LIMIT 1"_s) && q.next());
    QVERIFY2(QRegularExpression(
                 u"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"_s)
                 .match(q.value(0).toString())
                 .hasMatch(),
             qPrintable(q.value(0).toString()));
    QVERIFY(q.exec(u"SELECT count(uuid) FROM sessions"_s) && q.next());
    QCOMPARE(q.value(0).toInt(), 1);
}

// Version 11 copies the calls table so that its JSON columns come last again (the columns of
// versions 8 and 9 were added after them, which made SQLite fill a large call's blobs in
// memory). Rows, children, links, indexes and the search index survive it, and foreign keys
// are on again afterwards.
void TestStore::remakesCallsWithJsonLast()
{
    const QString path = freshPath();
    qint64 parentId = 0;
    qint64 childId = 0;
    QString parentUuid;
    {
        Database::Options old;
        old.targetVersion = 10;
        auto db = Database::open(path, old);
        QVERIFY2(db, qPrintable(db.error().message));
        QCOMPARE(db.value()->schemaVersion(), 10);
        QSqlQuery q(db.value()->connection());
        QVERIFY(q.exec(u"SELECT name FROM pragma_table_info('calls') ORDER BY cid DESC LIMIT 1"_s)
                && q.next());
        QCOMPARE(q.value(0).toString(), u"machine"_s);
        q.finish();
        CallStore store(**db);
        CallRecord parent = fullRecord(u"kumquat before the rebuild"_s);
        parent.usage.cacheWriteTokens = 17;
        parentId = *store.insertCall(parent);
        CallRecord child = fullRecord(u"the child revision"_s);
        child.parent = parentId;
        childId = *store.insertCall(child);
        parentUuid = store.getCall(parentId)->uuid;
        QVERIFY(!parentUuid.isEmpty());
    }
    const qint64 turnsBefore = countRows(path, u"call_turns"_s);
    const qint64 attemptsBefore = countRows(path, u"call_attempts"_s);
    QVERIFY(turnsBefore > 0 && attemptsBefore > 0);

    auto db = Database::open(path);
    QVERIFY2(db, qPrintable(db.error().message));
    QCOMPARE(db.value()->schemaVersion(), Database::latestSchemaVersion());
    QSqlQuery q(db.value()->connection());
    QStringList columns;
    QVERIFY(q.exec(u"SELECT name FROM pragma_table_info('calls') ORDER BY cid"_s));
    while (q.next())
        columns.append(q.value(0).toString());
    QCOMPARE(columns.mid(columns.size() - 6),
             (QStringList { u"input"_s, u"response"_s, u"metadata"_s, u"spec"_s, u"messages"_s,
                            u"transcript"_s }));
    QVERIFY(columns.indexOf(u"uuid"_s) < columns.indexOf(u"system_prompt"_s));
    QVERIFY(columns.indexOf(u"cache_write_1h_tokens"_s) < columns.indexOf(u"system_prompt"_s));
    QVERIFY(q.exec(u"PRAGMA foreign_keys"_s) && q.next());
    QCOMPARE(q.value(0).toInt(), 1);
    QVERIFY(q.exec(u"PRAGMA foreign_key_check"_s));
    QVERIFY(!q.next());
    QStringList indexes;
    QVERIFY(q.exec(u"SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'calls' "
                   "AND sql IS NOT NULL ORDER BY name"_s));
    while (q.next())
        indexes.append(q.value(0).toString());
    QCOMPARE(indexes,
             (QStringList { u"calls_by_created"_s, u"calls_by_engine"_s, u"calls_by_kind"_s,
                            u"calls_by_model"_s, u"calls_by_parent"_s, u"calls_by_person"_s,
                            u"calls_by_session"_s, u"calls_by_status"_s, u"calls_by_uuid"_s }));
    q.finish();
    QCOMPARE(countRows(path, u"call_turns"_s), turnsBefore);
    QCOMPARE(countRows(path, u"call_attempts"_s), attemptsBefore);

    CallStore store(**db);
    const auto parent = store.getCall(parentId);
    QVERIFY2(parent, qPrintable(parent.error().message));
    QCOMPARE(parent->uuid, parentUuid);
    QCOMPARE(parent->usage.cacheWriteTokens, qint64(17));
    QCOMPARE(parent->input.value(u"text"_s).toString(), u"kumquat before the rebuild"_s);
    QCOMPARE(parent->turns.size(), fullRecord().turns.size());
    QCOMPARE(store.getCall(childId)->parent, std::optional<qint64>(parentId));
    HistoryQuery search;
    search.search = u"kumquat"_s;
    QCOMPARE(ids(store.listCalls(search)->rows), (QList<qint64> { childId, parentId }));
    // The remade table's own keys work: a call's children still go with it.
    QVERIFY(q.exec(u"DELETE FROM calls WHERE id = %1"_s.arg(parentId)));
    QVERIFY(q.exec(u"SELECT count(*) FROM call_turns WHERE call_id = %1"_s.arg(parentId))
            && q.next());
    QCOMPARE(q.value(0).toInt(), 0);
    QVERIFY(q.exec(u"SELECT parent_id IS NULL FROM calls WHERE id = %1"_s.arg(childId))
            && q.next());
    QVERIFY(q.value(0).toBool());
}

// The same export imported twice is stored once; its UUIDs come along.
void TestStore::importTwiceStoresOnce()
{
    auto source = Database::open(freshPath());
    QVERIFY(source);
    CallStore store(**source);
    const qint64 root = *store.insertCall(fullRecord(u"root"_s));
    CallRecord revision = fullRecord(u"revision"_s);
    revision.parent = root;
    QVERIFY(store.insertCall(revision));
    const auto doc = CallExchange(store).exportRevisionTree(root);
    QVERIFY(doc);
    const QString rootUuid = store.getCall(root)->uuid;
    QCOMPARE(doc->value(u"calls"_s)[0][u"uuid"_s].toString(), rootUuid);

    const QString path = freshPath();
    auto target = Database::open(path);
    QVERIFY(target);
    CallStore targetStore(**target);
    CallExchange exchange(targetStore);
    const auto first = exchange.importDocument(*doc);
    QVERIFY2(first, qPrintable(first.error().message));
    const auto second = exchange.importDocument(*doc);
    QVERIFY2(second, qPrintable(second.error().message));
    QCOMPARE(second->callsAlreadyPresent, 2);
    QCOMPARE(second->callIds, first->callIds);
    QCOMPARE(countRows(path, u"calls"_s), 2);
    QCOMPARE(*targetStore.findCallByUuid(rootUuid), first->callIds.first());
    // Back into the history it came from: nothing new there either.
    const auto home = CallExchange(store).importDocument(*doc);
    QVERIFY(home);
    QCOMPARE(home->callsAlreadyPresent, 2);
    QCOMPARE(home->callIds.first(), root);
}

void TestStore::importsHandwrittenSample()
{
    const QString path = freshPath();
    auto db = Database::open(path);
    QVERIFY(db);
    CallStore store(**db);
    CallExchange exchange(store);
    const QJsonObject sample = readObject(dataFile(u"export-sample.json"_s));
    QVERIFY(!sample.isEmpty());
    const auto imported = exchange.importDocument(sample);
    QVERIFY2(imported, qPrintable(imported.error().message));
    QCOMPARE(imported->callIds.size(), 3);
    const qint64 sessionId = imported->sessionIds.at(0);
    const auto revision = store.getCall(imported->callIdMap.value(42));
    QCOMPARE(revision->parent, std::optional<qint64>(imported->callIdMap.value(41)));
    QCOMPARE(revision->errorCategory, ErrorCategory::Model);
    QCOMPARE(revision->turns.at(0).finishReason, FinishReason::Length);
    QCOMPARE(revision->session, std::optional<qint64>(sessionId));
    const auto view = store.sessionMessages(sessionId, CallStore::MessageView::ForModel);
    QCOMPARE(view->size(), 3);
    QCOMPARE(view->at(0).message.text, u"The user planned a billing migration."_s);
    const auto comp = store.compactions(sessionId);
    QCOMPARE(comp->at(0).callId, imported->callIdMap.value(43));
    HistoryQuery q;
    q.search = u"zebrafish"_s; // only in a tool result
    QCOMPARE(ids(store.listCalls(q)->rows), QList<qint64> { imported->callIdMap.value(41) });

    // The sample says nobody: the calls keep that, they are not the importer's; each got a
    // UUID of its own.
    QCOMPARE(revision->person, QString());
    QCOMPARE(revision->machine, QString());
    QVERIFY(!revision->uuid.isEmpty());
    QJsonObject again = *exchange.exportSession(sessionId);
    QJsonArray againCalls = again.value(u"calls"_s).toArray();
    for (qsizetype i = 0; i < againCalls.size(); ++i) {
        QJsonObject call = againCalls.at(i).toObject();
        QCOMPARE(call.take(u"person"_s).toString(), QString());
        QCOMPARE(call.take(u"machine"_s).toString(), QString());
        call.remove(u"uuid"_s);
        againCalls.replace(i, call);
    }
    again.insert(u"calls"_s, againCalls);
    QJsonArray againSessions = again.value(u"sessions"_s).toArray();
    for (qsizetype i = 0; i < againSessions.size(); ++i) {
        QJsonObject session = againSessions.at(i).toObject();
        session.remove(u"uuid"_s);
        againSessions.replace(i, session);
    }
    again.insert(u"sessions"_s, againSessions);
    const QJsonObject a = canonicalExport(sample);
    const QJsonObject b = canonicalExport(again);
    QVERIFY2(a == b, qPrintable(firstDifference(a, b)));
}

void TestStore::refusesBrokenImport_data()
{
    QTest::addColumn<QString>("setAt"); // JSON Pointer into the sample to replace
    QTest::addColumn<QByteArray>("value"); // JSON text of the new value ("" = remove)
    QTest::addColumn<QString>("pointer"); // expected error pointer

    QTest::newRow("wrong format") << u"/format"_s << "\"something-else\""_ba << u"/format"_s;
    QTest::newRow("future version") << u"/version"_s << "2"_ba << u"/version"_s;
    QTest::newRow("unknown status")
        << u"/calls/1/status"_s << "\"done\""_ba << u"/calls/1/status"_s;
    QTest::newRow("missing kind") << u"/calls/2/kind"_s << ""_ba << u"/calls/2"_s;
    QTest::newRow("bad time") << u"/calls/0/created_at"_s << "\"yesterday\""_ba
                              << u"/calls/0/created_at"_s;
    QTest::newRow("negative tokens") << u"/calls/0/turns/1/usage/output_tokens"_s << "-5"_ba
                                     << u"/calls/0/turns/1/usage/output_tokens"_s;
    QTest::newRow("duplicate call id") << u"/calls/2/id"_s << "41"_ba << u"/calls/2/id"_s;
    QTest::newRow("parent cycle") << u"/calls/0/parent"_s << "42"_ba << u"/calls/0/parent"_s;
    QTest::newRow("compaction call missing")
        << u"/sessions/0/compactions/0/call"_s << "99"_ba << u"/sessions/0/compactions/0/call"_s;
    QTest::newRow("compacted_by unknown") << u"/sessions/0/messages/1/compacted_by"_s << "8"_ba
                                          << u"/sessions/0/messages/1/compacted_by"_s;
    QTest::newRow("duplicate sequence")
        << u"/sessions/0/messages/3/sequence"_s << "3"_ba << u"/sessions/0/messages/3/sequence"_s;
    QTest::newRow("bad role") << u"/sessions/0/messages/0/message/role"_s << "\"robot\""_ba
                              << u"/sessions/0/messages/0/message/role"_s;
}

namespace {
// Sets (or removes, for empty `json`) the value at `pointer` inside `root`.
QJsonValue setAtPointer(const QJsonValue &root, QStringList tokens, const QByteArray &json)
{
    if (tokens.isEmpty())
        return QJsonDocument::fromJson('[' + json + ']').array().at(0);
    const QString token = tokens.takeFirst();
    if (root.isArray()) {
        QJsonArray array = root.toArray();
        const int index = token.toInt();
        if (tokens.isEmpty() && json.isEmpty())
            array.removeAt(index);
        else
            array.replace(index, setAtPointer(array.at(index), tokens, json));
        return array;
    }
    QJsonObject object = root.toObject();
    if (tokens.isEmpty() && json.isEmpty())
        object.remove(token);
    else
        object.insert(token, setAtPointer(object.value(token), tokens, json));
    return object;
}
} // namespace

void TestStore::refusesBrokenImport()
{
    QFETCH(QString, setAt);
    QFETCH(QByteArray, value);
    QFETCH(QString, pointer);
    const QJsonObject sample = readObject(dataFile(u"export-sample.json"_s));
    QVERIFY(!sample.isEmpty());
    const QJsonValue broken = setAtPointer(sample, setAt.mid(1).split(u'/'), value);

    const QString path = freshPath();
    auto db = Database::open(path);
    QVERIFY(db);
    CallStore store(**db);
    CallExchange exchange(store);
    const auto result = exchange.importDocument(broken);
    QVERIFY(!result);
    QCOMPARE(result.error().code, StoreError::Code::InvalidInput);
    QCOMPARE(result.error().pointer, pointer);
    QVERIFY2(result.error().message.contains(pointer), qPrintable(result.error().message));
    for (const QString &table : { u"calls"_s, u"call_turns"_s, u"call_attempts"_s, u"sessions"_s,
                                  u"messages"_s, u"compactions"_s })
        QCOMPARE(countRows(path, table), 0);
}

void TestStore::integrityCheck()
{
    const QString path = freshPath();
    qint64 callId = 0;
    qint64 sessionCall = 0;
    {
        auto db = Database::open(path);
        QVERIFY(db);
        CallStore store(**db);
        callId = *store.insertCall(fullRecord());
        const qint64 session = *store.createSession(Session { 0, u"s"_s });
        CallRecord r = fullRecord();
        r.session = session;
        sessionCall = *store.insertCall(r,
                                        { SessionMessage { 0, Message::user(u"a"_s) },
                                          SessionMessage { 0, Message::assistant(u"b"_s) } });
        const auto report = store.checkIntegrity();
        QVERIFY2(report, qPrintable(report.error().message));
        QVERIFY2(report->ok(), qPrintable(report->problems.join(u'\n')));
    }
    // Damage the consistency behind the store's back: a lost turn, a lost session message.
    QVERIFY(runSql(path,
                   u"DELETE FROM call_turns WHERE call_id = %1 AND turn_index = 1\n;\n"
                   "DELETE FROM messages WHERE sequence = 2"_s.arg(callId)));
    auto db = Database::open(path);
    QVERIFY(db);
    CallStore store(**db);
    const auto report = store.checkIntegrity();
    QVERIFY(report);
    QCOMPARE(report->problems,
             (QStringList { u"call %1: turn_count 2 but 1 turn rows"_s.arg(callId),
                            u"call %1: session 1 span 1..2 has 1 messages"_s.arg(sessionCall) }));
}

// The child side of survivesSigkill: writes calls (standalone, in a session, finished by
// updateCall) as fast as it can until it is killed.
static int runWriter(const QString &path)
{
    auto db = Database::open(path);
    if (!db)
        return 3;
    CallStore store(**db);
    const auto session = store.createSession(Session { 0, u"crash"_s });
    if (!session)
        return 4;
    bool announced = false;
    for (int i = 0;; ++i) {
        CallRecord record = fullRecord(u"crash test call %1"_s.arg(i));
        if (i % 3 == 1) {
            record.session = *session;
            SessionMessage copy { 0, Message::assistant(u"accepted"_s) };
            copy.sendToModel = false;
            if (!store.insertCall(record,
                                  { SessionMessage { 0, Message::user(u"q"_s) },
                                    SessionMessage { 0, toolCallMessage() },
                                    SessionMessage { 0, toolResultMessage(u"r"_s) }, copy }))
                return 5;
        } else if (i % 3 == 2) {
            CallRecord running = record;
            running.status = CallStatus::Running;
            running.turns.clear();
            running.attempts.clear();
            const auto id = store.insertCall(running);
            if (!id)
                return 6;
            record.id = *id;
            if (store.updateCall(record))
                return 7;
        } else if (!store.insertCall(record)) {
            return 8;
        }
        if (!announced) {
            std::fputs("ready\n", stdout);
            std::fflush(stdout);
            announced = true;
        }
    }
}

namespace {

QList<TurnExchange> twoExchanges()
{
    TurnExchange first;
    first.turn = 0;
    first.attempt = 0;
    first.httpStatus = 200;
    first.request = R"({"model":"m","messages":[{"role":"user","content":"Plan ticket 7"}]})"_ba;
    first.requestBytes = first.request.size();
    first.response = R"({"choices":[{"finish_reason":"tool_calls"}]})"_ba;
    first.responseBytes = first.response.size();
    TurnExchange second;
    second.turn = 1;
    second.attempt = 2;
    second.httpStatus = 200;
    second.request = R"({"model":"m","messages":["second"]})"_ba;
    second.requestBytes = second.request.size();
    // A reply larger than the stored head: the store keeps 256 KiB and the whole size.
    second.response = QByteArray(300 * 1024, 'x');
    second.responseBytes = 50 * 1024 * 1024;
    return { first, second };
}

} // namespace

// The raw exchanges go with the call in its transaction, are read only by exchanges() (not by
// getCall), survive an update that brings none, and go when the call goes.
void TestStore::exchangesStoredApart()
{
    const QString path = freshPath();
    auto db = Database::open(path);
    QVERIFY(db);
    CallStore store(**db);
    CallRecord record = fullRecord(u"ocelot exchanges"_s);
    record.exchanges = twoExchanges();
    const auto id = store.insertCall(record);
    QVERIFY2(id, qPrintable(id.error().message));
    QCOMPARE(countRows(path, u"call_exchanges"_s), 2);

    const auto call = store.getCall(*id);
    QVERIFY(call);
    QVERIFY(call->exchanges.isEmpty()); // the history load never reads the bodies
    QVERIFY(!QJsonDocument(call->toJson()).toJson().contains("Plan ticket 7"));

    auto read = store.exchanges(*id);
    QVERIFY2(read, qPrintable(read.error().message));
    QCOMPARE(read->size(), 2);
    QCOMPARE(read->at(0), record.exchanges.at(0));
    const TurnExchange &big = read->at(1);
    QCOMPARE(big.turn, 1);
    QCOMPARE(big.attempt, 2);
    QCOMPARE(big.httpStatus, 200);
    QCOMPARE(big.response.size(), TurnExchange::kMaxResponseBytes);
    QCOMPARE(big.responseBytes, qint64(50 * 1024 * 1024));
    QVERIFY(big.responseCut());
    QVERIFY(!big.requestCut());

    // An update without exchanges (a record read back by getCall) keeps them; one with
    // exchanges replaces them.
    CallRecord updated = *call;
    updated.error = u"later"_s;
    QVERIFY(!store.updateCall(updated));
    QCOMPARE(store.exchanges(*id)->size(), 2);
    updated.exchanges = { record.exchanges.at(0) };
    QVERIFY(!store.updateCall(updated));
    QCOMPARE(store.exchanges(*id)->size(), 1);
    QCOMPARE(store.exchanges(*id)->at(0), record.exchanges.at(0));

    // Another call's exchanges are its own; a call without requests has none.
    const auto other = store.insertCall(fullRecord());
    QVERIFY(other);
    QVERIFY(store.exchanges(*other)->isEmpty());
    const auto report = store.checkIntegrity();
    QVERIFY(report && report->ok());

    // Deleting the call deletes its exchanges (foreign key cascade, on the store's connection).
    QSqlQuery remove((*db)->connection());
    QVERIFY2(remove.exec(u"DELETE FROM calls WHERE id = %1"_s.arg(*id)),
             qPrintable(remove.lastError().text()));
    QCOMPARE(countRows(path, u"call_exchanges"_s), 0);
    QVERIFY(store.exchanges(*id)->isEmpty());
}

// A database of the previous layout (version 5) with a call in it opens, gains the exchanges
// table, keeps the call readable (with no exchanges) and stores new calls with theirs.
void TestStore::migratesFromVersion5WithACall()
{
    const QString path = freshPath();
    qint64 oldId = 0;
    {
        auto db = Database::open(path);
        QVERIFY(db);
        CallStore store(**db);
        oldId = *store.insertCall(fullRecord(u"pangolin before exchanges"_s));
    }
    // Back to version 5: its layout is this one without the exchanges table and the response
    // cache (with its two columns of the experiment runs).
    QString error;
    QVERIFY2(
        runSql(path,
               kBackToVersion6 + u"\n;\nDROP TABLE call_exchanges\n;\nPRAGMA user_version = 5"_s,
               &error),
        qPrintable(error));
    QCOMPARE(countRows(path, u"call_exchanges"_s), -1);

    auto db = Database::open(path);
    QVERIFY2(db, qPrintable(db.error().message));
    QCOMPARE((*db)->schemaVersion(), Database::latestSchemaVersion());
    QCOMPARE(Database::latestSchemaVersion(), 12);
    QCOMPARE(countRows(path, u"response_cache"_s), 0);
    CallStore store(**db);
    const auto old = store.getCall(oldId);
    QVERIFY2(old, qPrintable(old.error().message));
    QCOMPARE(old->input.value(u"text"_s).toString(), u"pangolin before exchanges"_s);
    const auto none = store.exchanges(oldId);
    QVERIFY2(none, qPrintable(none.error().message));
    QVERIFY(none->isEmpty());
    HistoryQuery q;
    q.search = u"pangolin"_s;
    QCOMPARE(ids(store.listCalls(q)->rows), QList<qint64> { oldId });

    CallRecord fresh = fullRecord();
    fresh.exchanges = twoExchanges();
    const auto id = store.insertCall(fresh);
    QVERIFY(id);
    QCOMPARE(store.exchanges(*id)->size(), 2);
}

// Version 6 held every prompt token in input_tokens, the cache reads among them, and had no
// cache write columns. Opening such a file splits the old counts: input_tokens becomes the
// uncached part, in the call, its turns and attempts, and an experiment run's tokens.
void TestStore::migratesFromVersion6SplitsCachedTokens()
{
    const QString path = freshPath();
    qint64 id = 0;
    {
        auto db = Database::open(path);
        QVERIFY(db);
        CallStore store(**db);
        CallRecord record = fullRecord(u"ocelot with a cache"_s);
        record.usage = { 250, 60, 100, 5, 0, 0 };
        id = *store.insertCall(record);
        ExperimentRecord definition;
        definition.name = u"e"_s;
        definition.definitionHash = "h";
        const auto experiment = store.createExperiment(definition);
        QVERIFY(experiment);
        ExperimentRunRecord run;
        run.experimentId = *experiment;
        run.caseId = u"c"_s;
        run.variant = u"v"_s;
        run.callId = id;
        run.status = u"completed"_s;
        run.inputTokens = 250;
        QVERIFY(store.saveExperimentRun(run));
    }
    // The file as version 6 wrote it.
    QString error;
    QVERIFY2(runSql(path,
                    u"UPDATE calls SET input_tokens = input_tokens + cached_tokens\n;\n"
                    "UPDATE call_turns SET input_tokens = input_tokens + cached_tokens\n;\n"
                    "UPDATE call_attempts SET input_tokens = input_tokens + cached_tokens\n;\n"
                    "UPDATE experiment_runs SET input_tokens = 350\n;\n"_s
                        + kBackToVersion6 + u"\n;\nPRAGMA user_version = 6"_s,
                    &error),
             qPrintable(error));
    auto db = Database::open(path);
    QVERIFY2(db, qPrintable(db.error().message));
    QCOMPARE((*db)->schemaVersion(), Database::latestSchemaVersion());
    CallStore store(**db);
    const auto call = store.getCall(id);
    QVERIFY2(call, qPrintable(call.error().message));
    QCOMPARE(call->usage, (Usage { 250, 60, 100, 5, 0, 0 }));
    QCOMPARE(call->usage.promptTokens(), qint64(350));
    QCOMPARE(call->turns.at(0).usage, (Usage { 100, 20, 10, 5, 0, 0 }));
    // The writes of turn 1 were never kept apart by version 6: they stay in its input.
    QCOMPARE(call->turns.at(1).usage, (Usage { 150, 40, 90, 0, 0, 0 }));
    QCOMPARE(call->attempts.at(1).usage, (Usage { 100, 20, 10, 5, 0, 0 }));
    const auto runs = store.experimentRuns(1); // the one experiment of this file
    QVERIFY2(runs, qPrintable(runs.error().message));
    QCOMPARE(runs->size(), 1);
    QCOMPARE(runs->first().inputTokens, qint64(250));
    QCOMPARE(runs->first().cacheReadTokens, qint64(100));
}

void TestStore::survivesSigkill()
{
    const QString path = freshPath();
    QRandomGenerator random(7);
    qint64 previous = 0;
    for (int round = 0; round < 20; ++round) {
        QProcess writer;
        writer.start(QCoreApplication::applicationFilePath(), { u"--store-writer"_s, path });
        QVERIFY(writer.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(writer.canReadLine() || writer.state() != QProcess::Running,
                                 20000);
        QVERIFY2(writer.state() == QProcess::Running, writer.readAllStandardError().constData());
        QTest::qWait(int(random.bounded(20, 300)));
        writer.kill(); // SIGKILL
        QVERIFY(writer.waitForFinished());

        auto db = Database::open(path);
        QVERIFY2(db, qPrintable(db.error().message));
        CallStore store(**db);
        const auto report = store.checkIntegrity();
        QVERIFY2(report, qPrintable(report.error().message));
        QVERIFY2(report->ok(), qPrintable(report->problems.join(u'\n')));
        const qint64 calls = countRows(path, u"calls"_s);
        QVERIFY2(calls > previous, qPrintable(u"round %1: %2 calls"_s.arg(round).arg(calls)));
        previous = calls;
        // A finished call written by updateCall has all its turns: no running row has any.
        QSqlQuery q((*db)->connection());
        QVERIFY(
            q.exec(u"SELECT count(*) FROM calls WHERE status = 'running' AND turn_count > 0"_s));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 0);
    }
}

namespace {
struct CliResult
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

CliResult runCli(const QStringList &arguments)
{
    QProcess process;
    process.start(Test::cliPath(), arguments);
    CliResult result;
    if (!process.waitForFinished(60000)) {
        process.kill();
        process.waitForFinished();
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}
} // namespace

void TestStore::cliShowHistoryExportImport()
{
    QVERIFY2(QFile::exists(Test::cliPath()), "callscope-cli not built (CALLSCOPE_CLI)");
    const QString path = freshPath();
    qint64 root = 0;
    qint64 revision = 0;
    {
        auto db = Database::open(path);
        QVERIFY(db);
        CallStore store(**db);
        root = *store.insertCall(fullRecord(u"Plan the aardvark rescue"_s));
        CallRecord r = fullRecord(u"Plan the aardvark rescue, shorter"_s);
        r.parent = root;
        r.kind = u"reviser"_s;
        r.status = CallStatus::Failed;
        revision = *store.insertCall(r);
        CallRecord other = simpleRecord(u"chat"_s, CallStatus::Completed, u"openai"_s, u"m"_s,
                                        1764460900000, u"unrelated"_s);
        QVERIFY(store.insertCall(other));
    }

    // show: the whole row.
    CliResult show = runCli({ u"show"_s, QString::number(revision), u"--db"_s, path });
    QCOMPARE(show.exitCode, 0);
    const QJsonObject row = QJsonDocument::fromJson(show.out).object();
    QCOMPARE(row.value(u"id"_s).toInteger(), revision);
    QCOMPARE(row.value(u"parent"_s).toInteger(), root);
    QCOMPARE(row.value(u"kind"_s).toString(), u"reviser"_s);
    QCOMPARE(row.value(u"turns"_s).toArray().size(), 2);
    QCOMPARE(row.value(u"attempts"_s).toArray().size(), 3);

    // history with filters.
    CliResult history = runCli({ u"history"_s, u"--db"_s, path });
    QCOMPARE(history.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(history.out).array().size(), 3);
    history = runCli({ u"history"_s, u"--kind"_s, u"reviser"_s, u"--db"_s, path });
    QJsonArray rows = QJsonDocument::fromJson(history.out).array();
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows.at(0)[u"id"_s].toInteger(), revision);
    history = runCli({ u"history"_s, u"--search"_s, u"aardvark"_s, u"--status"_s, u"completed"_s,
                       u"--db"_s, path });
    rows = QJsonDocument::fromJson(history.out).array();
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows.at(0)[u"id"_s].toInteger(), root);
    QCOMPARE(rows.at(0)[u"revisions"_s].toInt(), 1);
    history = runCli({ u"history"_s, u"--limit"_s, u"2"_s, u"--db"_s, path });
    QCOMPARE(QJsonDocument::fromJson(history.out).array().size(), 2);

    // export to a file, import into a new database, export again.
    const QString exportFile = m_dir.filePath(u"tree.json"_s);
    CliResult exported =
        runCli({ u"export"_s, QString::number(root), u"--out"_s, exportFile, u"--db"_s, path });
    QVERIFY2(exported.exitCode == 0, exported.err.constData());
    const QJsonObject doc = readObject(exportFile);
    QCOMPARE(doc.value(u"format"_s).toString(), u"callscope-export"_s);
    QCOMPARE(doc.value(u"calls"_s).toArray().size(), 2);

    const QString other = freshPath();
    CliResult imported = runCli({ u"import"_s, exportFile, u"--db"_s, other });
    QVERIFY2(imported.exitCode == 0, imported.err.constData());
    const QJsonObject importOut = QJsonDocument::fromJson(imported.out).object();
    const QJsonArray newIds = importOut.value(u"calls"_s).toArray();
    QCOMPARE(newIds.size(), 2);
    CliResult again =
        runCli({ u"export"_s, QString::number(newIds.at(0).toInteger()), u"--db"_s, other });
    QCOMPARE(again.exitCode, 0);
    const QJsonObject a = canonicalExport(doc);
    const QJsonObject b = canonicalExport(QJsonDocument::fromJson(again.out).object());
    QVERIFY2(a == b, qPrintable(firstDifference(a, b)));

    // export --session to stdout.
    const QString sessionsDb = freshPath();
    CliResult sample =
        runCli({ u"import"_s, dataFile(u"export-sample.json"_s), u"--db"_s, sessionsDb });
    QCOMPARE(sample.exitCode, 0);
    const qint64 sessionId =
        QJsonDocument::fromJson(sample.out).object().value(u"sessions"_s)[0].toInteger();
    CliResult sessionExport =
        runCli({ u"export"_s, u"--session"_s, QString::number(sessionId), u"--db"_s, sessionsDb });
    QCOMPARE(sessionExport.exitCode, 0);
    const QJsonObject sessionDoc = QJsonDocument::fromJson(sessionExport.out).object();
    QCOMPARE(sessionDoc.value(u"sessions"_s).toArray().size(), 1);
    QCOMPARE(sessionDoc.value(u"calls"_s).toArray().size(), 3);
}

void TestStore::cliErrors()
{
    QVERIFY2(QFile::exists(Test::cliPath()), "callscope-cli not built (CALLSCOPE_CLI)");
    const QString path = freshPath();
    {
        auto db = Database::open(path);
        QVERIFY(db);
    }
    CliResult r = runCli({ u"show"_s, u"12345"_s, u"--db"_s, path });
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("12345"), r.err.constData());
    QVERIFY(r.out.isEmpty());
    r = runCli({ u"show"_s, u"--db"_s, path });
    QCOMPARE(r.exitCode, 2);
    r = runCli({ u"show"_s, u"abc"_s, u"--db"_s, path });
    QCOMPARE(r.exitCode, 2);
    r = runCli({ u"history"_s, u"--status"_s, u"sleeping"_s, u"--db"_s, path });
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("sleeping"), r.err.constData());
    r = runCli({ u"history"_s, u"--limit"_s, u"zero"_s, u"--db"_s, path });
    QCOMPARE(r.exitCode, 2);
    r = runCli({ u"export"_s, u"--db"_s, path });
    QCOMPARE(r.exitCode, 2);
    r = runCli({ u"export"_s, u"--session"_s, u"77"_s, u"--db"_s, path });
    QCOMPARE(r.exitCode, 2);
    r = runCli({ u"import"_s, u"/nonexistent/file.json"_s, u"--db"_s, path });
    QCOMPARE(r.exitCode, 2);

    // A broken export: refused with the pointer, nothing written, exit 1.
    const QString broken = m_dir.filePath(u"broken.json"_s);
    {
        QJsonObject sample = readObject(dataFile(u"export-sample.json"_s));
        QJsonArray calls = sample.value(u"calls"_s).toArray();
        QJsonObject call = calls.at(1).toObject();
        call.insert(u"status"_s, u"done"_s);
        calls.replace(1, call);
        sample.insert(u"calls"_s, calls);
        QFile file(broken);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(sample).toJson());
    }
    r = runCli({ u"import"_s, broken, u"--db"_s, path });
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("/calls/1/status"), r.err.constData());
    QCOMPARE(countRows(path, u"calls"_s), 0);
    QCOMPARE(countRows(path, u"sessions"_s), 0);

    // Not JSON at all.
    const QString notJson = m_dir.filePath(u"not.json"_s);
    {
        QFile file(notJson);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"format\": ");
    }
    r = runCli({ u"import"_s, notJson, u"--db"_s, path });
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("line 1"), r.err.constData());

    // A database file the store refuses: exit 1 and the file untouched.
    const QString garbage = m_dir.filePath(u"garbage.sqlite"_s);
    {
        QFile file(garbage);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("this is not a database at all, not even close");
    }
    r = runCli({ u"history"_s, u"--db"_s, garbage });
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("not a Callscope database"), r.err.constData());
    QCOMPARE(Test::readFile(garbage), "this is not a database at all, not even close"_ba);
}

namespace {

// Qt's compact text of any value (a scalar without the brackets of the array it is written in).
QByteArray qtCompact(const QJsonValue &value)
{
    if (value.isObject())
        return QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact);
    if (value.isArray())
        return QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact);
    if (value.isUndefined())
        return "null";
    QByteArray wrapped = QJsonDocument(QJsonArray { value }).toJson(QJsonDocument::Compact);
    return wrapped.mid(1, wrapped.size() - 2);
}

// Compares Json::compact, Json::indented and Json::writeCompact with Qt's writer on one value;
// empty when they agree, else what differs.
QString writerDifference(const QJsonValue &value)
{
    const QByteArray expected = qtCompact(value);
    const QByteArray compact = Json::compact(value);
    if (compact != expected)
        return u"compact: "_s + QString::fromUtf8(compact.left(200)) + u" != "_s
            + QString::fromUtf8(expected.left(200));
    QByteArray streamed;
    if (Json::writeCompact(value, [&](const char *d, qsizetype n) { streamed.append(d, n); })
        && streamed != expected)
        return u"streamed: "_s + QString::fromUtf8(streamed.left(200));
    if (value.isObject()
        && Json::indented(value.toObject()) != QJsonDocument(value.toObject()).toJson())
        return u"indented object"_s;
    if (value.isArray()
        && Json::indented(value.toArray()) != QJsonDocument(value.toArray()).toJson())
        return u"indented array"_s;
    return {};
}

QString randomString(QRandomGenerator &rng, int length)
{
    QString s;
    for (int i = 0; i < length; ++i) {
        switch (rng.bounded(9)) {
        case 0:
            s += QChar(char16_t(rng.bounded(0x20)));
            break; // controls
        case 1:
            s += u'"';
            break;
        case 2:
            s += u'\\';
            break;
        case 3:
            s += QChar(char16_t(0xd800 + rng.bounded(0x800)));
            break; // lone surrogates
        case 4:
            s += QChar(char16_t(0xfffd));
            break;
        case 5:
            s += QChar(char16_t(0x80 + rng.bounded(0xd700)));
            break; // BMP
        case 6:
            s += QString::fromUcs4(U"\U0001F600");
            break; // a pair
        case 7:
            s += u'?';
            break;
        default:
            s += QChar(char16_t(0x20 + rng.bounded(0x5f)));
            break; // ASCII
        }
    }
    return s;
}

QJsonValue randomValue(QRandomGenerator &rng, int depth)
{
    static const double doubles[] = { 0.0,          -0.0,    0.1, 1e300,  -1e-300,
                                      3.0,          1e20,    2.5, 5e-324, 123456789012345678.0,
                                      std::nan(""), INFINITY };
    switch (rng.bounded(depth > 3 ? 6 : 8)) {
    case 0:
        return rng.bounded(2) == 0;
    case 1:
        return QJsonValue(QJsonValue::Null);
    case 2:
        return qint64(rng.generate64());
    case 3:
        return rng.bounded(2) ? doubles[rng.bounded(12)]
                              : std::ldexp(rng.generateDouble() - 0.5, rng.bounded(200) - 100);
    case 4:
    case 5:
        return randomString(rng, rng.bounded(12));
    case 6: {
        QJsonArray a;
        for (int i = rng.bounded(5); i > 0; --i)
            a.append(randomValue(rng, depth + 1));
        return a;
    }
    default: {
        QJsonObject o;
        for (int i = rng.bounded(5); i > 0; --i)
            o.insert(randomString(rng, 3), randomValue(rng, depth + 1));
        return o;
    }
    }
}

} // namespace

// The writer the store and the CLI use gives Qt's bytes exactly: the JSON Schema suite, the
// OpenAPI document and every event of the recorded provider streams.
void TestStore::jsonWriterMatchesQt()
{
    int documents = 0;
    int values = 0;
    for (const QString &root :
         { u"json-schema-test-suite"_s, u"wire-fixtures"_s, u"openai-openapi.json"_s }) {
        const QString path = Test::sharedDataPath(root);
        QVERIFY2(!path.isEmpty(), qPrintable(path));
        QStringList files;
        if (QFileInfo(path).isFile()) {
            files << path;
        } else {
            QDirIterator it(path, { u"*.json"_s, u"*.sse"_s }, QDir::Files,
                            QDirIterator::Subdirectories);
            while (it.hasNext())
                files << it.next();
        }
        for (const QString &file : files) {
            QFile f(file);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QList<QByteArray> texts;
            if (file.endsWith(u".sse"_s)) {
                for (const QByteArray &line : f.readAll().split('\n')) {
                    if (line.startsWith("data:"))
                        texts << line.mid(5).trimmed();
                }
            } else {
                texts << f.readAll();
            }
            for (const QByteArray &text : texts) {
                const QJsonDocument doc = QJsonDocument::fromJson(text);
                if (doc.isNull())
                    continue; // [DONE] and the like
                ++documents;
                const QJsonValue value =
                    doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(doc.array());
                const QString difference = writerDifference(value);
                QVERIFY2(difference.isEmpty(), qPrintable(file + u": "_s + difference));
                const QJsonArray items = doc.isArray() ? doc.array() : QJsonArray();
                for (const QJsonValue &item : items) {
                    ++values;
                    QVERIFY2(writerDifference(item).isEmpty(), qPrintable(file));
                }
            }
        }
    }
    qInfo("%d documents and %d array items written as Qt writes them", documents, values);
    QVERIFY(documents > 150);
}

// Random values (controls, quotes, unpaired surrogates, U+FFFD, '?', doubles such as -0 and
// 5e-324, NaN, 64-bit integers) and the same after a round trip through Qt's parser; long strings
// with an unpaired surrogate beyond what is streamed on at once; long strings put in an object
// by Json::withString.
void TestStore::jsonWriterRandomValues()
{
    QRandomGenerator rng(20261201);
    for (int i = 0; i < 20000; ++i) {
        const QJsonValue value = randomValue(rng, 0);
        QString difference = writerDifference(value);
        QVERIFY2(difference.isEmpty(), qPrintable(u"value %1: "_s.arg(i) + difference));
        const QJsonDocument reparsed = QJsonDocument::fromJson('[' + qtCompact(value) + ']');
        QVERIFY(!reparsed.isNull());
        difference = writerDifference(reparsed.array());
        QVERIFY2(difference.isEmpty(), qPrintable(u"reparsed %1: "_s.arg(i) + difference));
    }

    // 3 MiB of ASCII, then an unpaired surrogate: the streamed writer has handed on the start of
    // that string when it meets the surrogate, so it declines; compact() still matches Qt.
    const QString longText = QString(3 * 1024 * 1024, u'a') + QChar(char16_t(0xdc00)) + u"?end"_s;
    const QJsonObject withSurrogate { { u"text"_s, longText } };
    QByteArray streamed;
    QVERIFY(!Json::writeCompact(withSurrogate,
                                [&](const char *d, qsizetype n) { streamed.append(d, n); }));
    QCOMPARE(Json::compact(withSurrogate), qtCompact(withSurrogate));
    const QJsonObject plain { { u"text"_s,
                                QString(QString(3 * 1024 * 1024, u'b') + u"?\u00e9\n"_s) } };
    streamed.clear();
    QVERIFY(Json::writeCompact(plain, [&](const char *d, qsizetype n) { streamed.append(d, n); }));
    QCOMPARE(streamed, qtCompact(plain));

    for (int i = 0; i < 60; ++i) {
        QJsonObject base;
        for (int k = rng.bounded(4); k > 0; --k)
            base.insert(randomString(rng, 3), randomString(rng, 4));
        const QString key = i % 2 ? u"text"_s : randomString(rng, 4);
        const QString text = i % 3
            ? randomString(rng, int(Json::kLongString) + rng.bounded(100))
            : QString(int(Json::kLongString), u'x') + QChar(char16_t(0xd800));
        QJsonObject expected = base;
        expected.insert(key, text);
        const QJsonObject actual = Json::withString(base, key, text);
        QVERIFY2(actual == expected, qPrintable(u"withString %1"_s.arg(i)));
        QCOMPARE(QJsonDocument(actual).toJson(), QJsonDocument(expected).toJson());
        QCOMPARE(actual.value(key).toString(), text);
    }
}

// A call whose JSON is large is written into its row piece by piece (blob I/O into zero blobs
// of the right size); it reads back field for field, is found by search, and can be updated.
void TestStore::storesLargeCallPieceByPiece()
{
    auto db = Database::open(freshPath());
    QVERIFY2(db, qPrintable(db.error().message));
    CallStore store(**db);

    CallRecord record = fullRecord();
    const QString answer = u"Zebra tally "_s + QString(3 * 1024 * 1024, u'x')
        + u" caf\u00e9 \"q\"\n\u6f22"_s + QChar(char16_t(0xd801)) + u" ?"_s;
    record.response = QJsonObject { { u"title"_s, answer }, { u"n"_s, 3 } };
    record.transcript.append(
        QJsonObject { { u"role"_s, u"assistant"_s }, { u"content"_s, answer } });
    record.messages.append(Message::assistant(answer).toJson());
    const auto id = store.insertCall(record);
    QVERIFY2(id, qPrintable(id.error().message));
    const auto loaded = store.getCall(*id);
    QVERIFY2(loaded, qPrintable(loaded.error().message));
    QJsonObject expected = record.toJson();
    expected.insert(u"id"_s, *id);
    expected.insert(u"uuid"_s, loaded->uuid);
    expected.insert(u"person"_s, Identity::person());
    expected.insert(u"machine"_s, Identity::machine());
    QVERIFY2(loaded->toJson() == expected, qPrintable(firstDifference(loaded->toJson(), expected)));

    // The JSON columns of such a row hold the compact text exactly (stored as blobs).
    QSqlQuery q((*db)->connection());
    QVERIFY(q.exec(
        u"SELECT typeof(response), response, typeof(input), transcript FROM calls WHERE id = %1"_s
            .arg(*id)));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toString(), u"blob"_s);
    QCOMPARE(q.value(1).toByteArray(), qtCompact(record.response));
    QCOMPARE(q.value(2).toString(), u"blob"_s);
    QCOMPARE(q.value(3).toByteArray(), qtCompact(record.transcript));
    q.finish();

    HistoryQuery search;
    search.search = u"zebra"_s;
    const auto found = store.listCalls(search);
    QVERIFY2(found, qPrintable(found.error().message));
    QCOMPARE(found->rows.size(), 1);
    QCOMPARE(found->rows.first().id, *id);

    // An update rewrites the row (the ordinary way) and keeps it readable.
    CallRecord updated = *loaded;
    updated.error = u"noted"_s;
    QVERIFY(!store.updateCall(updated));
    QCOMPARE(store.getCall(*id)->error, u"noted"_s);
    QVERIFY(store.getCall(*id)->toJson().value(u"response"_s) == record.response);

    // A large call without a response keeps SQL NULL there.
    CallRecord failed = simpleRecord(u"chat"_s, CallStatus::Failed, u"openai"_s, u"m"_s, 5000);
    failed.transcript.append(QJsonObject { { u"role"_s, u"user"_s }, { u"content"_s, answer } });
    const auto failedId = store.insertCall(failed);
    QVERIFY2(failedId, qPrintable(failedId.error().message));
    QVERIFY(q.exec(u"SELECT response IS NULL FROM calls WHERE id = %1"_s.arg(*failedId)));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toInt(), 1);
    QVERIFY(store.getCall(*failedId)->response.isNull());
    QCOMPARE(store.getCall(*failedId)->transcript, failed.transcript);
}

// Under text_output the answer's text is stored once: in the arguments of the submit_output call
// made from it. fromJson takes it back; a text that is not exactly those arguments is kept.
void TestStore::textAnswerStoredOnce()
{
    const QString answer = u"The title \u00e9 "_s + QString(100, u'x');
    ToolCall call;
    call.id = u"text_output_0"_s;
    call.name = u"submit_output"_s;
    call.arguments = QJsonObject { { u"title"_s, answer } };
    Message m = Message::assistant(answer, { call });
    m.providerData.insert(u"callscope_text_answer"_s, true);
    QVERIFY(m.textAnswerCall());
    const QJsonObject json = m.toJson();
    QVERIFY(!json.contains(u"text"_s));
    QCOMPARE(
        json.value(u"tool_calls"_s).toArray().first().toObject().value(u"arguments"_s).toObject(),
        call.arguments);
    QCOMPARE(Message::fromJson(json), m);
    QCOMPARE(messagesFromJson(messagesToJson({ m })), QList<Message> { m });

    // Edited after the fact (or never the same): the text stays in the message.
    Message edited = m;
    edited.text = answer + u"!"_s;
    QVERIFY(!edited.textAnswerCall());
    QCOMPARE(edited.toJson().value(u"text"_s).toString(), edited.text);
    QCOMPARE(Message::fromJson(edited.toJson()), edited);
    // Without the mark nothing is left out.
    Message unmarked = m;
    unmarked.providerData = {};
    QCOMPARE(unmarked.toJson().value(u"text"_s).toString(), answer);
    // Rows written before: text and arguments both present.
    QJsonObject old = json;
    old.insert(u"text"_s, answer);
    QCOMPARE(Message::fromJson(old), m);
}

// A paid call that could not be stored goes to the recovery file with everything the store
// keeps (its session messages, its raw exchanges, its batch line), and an import that was
// stopped after storing some entries (the file not emptied yet) stores none of them twice.
void TestStore::recoveryFileKeepsEverythingAndImportsOnce()
{
    const QString path = freshPath();
    auto db = Database::open(path);
    QVERIFY(db);
    CallStore store(**db);
    Session session;
    session.title = u"Kept"_s;
    const auto sessionId = store.createSession(session);
    QVERIFY(sessionId);

    CallRecord inSession = fullRecord(u"aardvark in a session"_s);
    inSession.session = *sessionId;
    inSession.exchanges = twoExchanges();
    const QList<SessionMessage> messages { SessionMessage { 0, Message::user(u"Plan aardvark"_s) },
                                           SessionMessage { 0,
                                                            Message::assistant(u"Planned."_s) } };
    QString error;
    QVERIFY2(RecoveryFile::append(path, inSession, {}, messages, &error), qPrintable(error));
    for (int i = 0; i < 4; ++i)
        QVERIFY2(RecoveryFile::append(path, fullRecord(u"badger %1"_s.arg(i)), {}, {}, &error),
                 qPrintable(error));
    QFile file(RecoveryFile::pathFor(path));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray kept = file.readAll();
    file.close();
    QCOMPARE(kept.count('\n'), 5);

    const RecoveryFile::ImportOutcome first = RecoveryFile::import(store, path);
    QVERIFY2(first.error.isEmpty(), qPrintable(first.error));
    QCOMPARE(first.stored, 5);
    QCOMPARE(first.alreadyStored, 0);
    QCOMPARE(QFileInfo(RecoveryFile::pathFor(path)).size(), 0);

    HistoryQuery everything;
    const auto page = store.listCalls(everything);
    QVERIFY(page);
    QCOMPARE(page->rows.size(), 5);
    qint64 sessionCall = 0;
    for (const auto &row : page->rows) {
        const auto call = store.getCall(row.id);
        QVERIFY(call);
        QVERIFY(call->metadata.value(u"recovered"_s).toBool());
        QVERIFY(!call->metadata.value(u"recovery_entry"_s).toString().isEmpty());
        if (call->input.value(u"text"_s).toString() == u"aardvark in a session"_s)
            sessionCall = row.id;
    }
    QVERIFY(sessionCall > 0);
    const auto exchanges = store.exchanges(sessionCall);
    QVERIFY(exchanges);
    QCOMPARE(exchanges->size(), 2);
    QCOMPARE(exchanges->at(0), inSession.exchanges.at(0));
    QCOMPARE(exchanges->at(1).turn, 1);
    QCOMPARE(exchanges->at(1).attempt, 2);
    QCOMPARE(exchanges->at(1).response,
             inSession.exchanges.at(1).response.left(TurnExchange::kMaxResponseBytes));
    QCOMPARE(exchanges->at(1).responseBytes, qint64(50 * 1024 * 1024));
    const auto stored = store.sessionMessages(*sessionId);
    QVERIFY(stored);
    QCOMPARE(stored->size(), 2);
    QCOMPARE(stored->at(0).message.text, u"Plan aardvark"_s);
    const auto call = store.getCall(sessionCall);
    QCOMPARE(call->firstSequence.value_or(0), qint64(1));
    QCOMPARE(call->lastSequence.value_or(0), qint64(2));

    // As a process killed after the inserts and before emptying the file leaves it: the whole
    // file again, plus one entry that never made it in.
    QVERIFY(RecoveryFile::append(path, fullRecord(u"capybara"_s), {}, {}, &error));
    QFile again(RecoveryFile::pathFor(path));
    QVERIFY(again.open(QIODevice::ReadOnly));
    const QByteArray newer = again.readAll();
    again.close();
    QVERIFY(again.open(QIODevice::WriteOnly | QIODevice::Truncate));
    again.write(kept + newer);
    again.close();
    const RecoveryFile::ImportOutcome second = RecoveryFile::import(store, path);
    QVERIFY2(second.error.isEmpty(), qPrintable(second.error));
    QCOMPARE(second.alreadyStored, 5);
    QCOMPARE(second.stored, 1);
    QCOMPARE(store.listCalls(everything)->rows.size(), 6);
    QCOMPARE(store.sessionMessages(*sessionId)->size(), 2);
    QCOMPARE(countRows(path, u"call_exchanges"_s), 2);
    const auto report = store.checkIntegrity();
    QVERIFY(report && report->ok());
}

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    if (argc == 3 && qstrcmp(argv[1], "--store-writer") == 0)
        return runWriter(QString::fromLocal8Bit(argv[2]));
    TestStore test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}
#include "tst_store.moc"
