// Store benchmark: fills a history database with N calls of realistic size (default
// 1,000,000) and 50 experiments of 2,000 runs, then times, through CallStore, the queries the
// History list, its search and the experiment matrix make.
//
//   bench_store [N] [--backend sqlite|postgresql|both] [--db PATH-OR-URL] [--seed S]
//               [--explain] [--keep] [--reuse]
//
// SQLite: every call goes through CallStore::insertCalls. PostgreSQL (a server of its own, as
// the tests start one, unless --db gives a URL): the first S calls (default 20,000) go through
// the store, the rest are copies the server makes of them (INSERT ... SELECT: new ids, UUIDs and
// times, the same search documents, turns and attempts), then VACUUM ANALYZE. --explain logs the
// plan of every timed statement once (auto_explain, ANALYZE and VERBOSE, own server only) and
// says whether a plan outputs a large column. --backend both prints the figures side by side.
// --reuse skips the insert when the database already holds calls.

#include "core/store/callstore.h"
#include "core/store/database.h"
#include "tests/support/pgserver.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QRandomGenerator>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <optional>

using namespace Qt::StringLiterals;
using namespace Callscope;

namespace {

constexpr int kBatch = 2000;
constexpr int kVocabulary = 20000;
// One call in this many gets the rare word, for a selective search.
constexpr int kRareEvery = 10000;

class Corpus
{
public:
    explicit Corpus(quint32 seed)
        : m_random(seed)
    {
        static const char *const syllables[] = { "ka",  "lo",  "mi",  "ne",  "ru",  "sa",
                                                 "to",  "vi",  "ber", "dan", "fel", "gor",
                                                 "hin", "jul", "mor", "pex", "qua", "ris",
                                                 "sul", "tan", "wex", "yor", "zel", "bri" };
        for (int i = 0; i < kVocabulary; ++i) {
            QString word;
            int n = i;
            do {
                word += QLatin1StringView(syllables[n % 24]);
                n /= 24;
            } while (n > 0);
            m_words.append(word);
        }
        // Zipf-like: word rank r drawn with probability ~ 1/r.
        double sum = 0;
        for (int r = 1; r <= kVocabulary; ++r) {
            sum += 1.0 / r;
            m_cumulative.append(sum);
        }
        for (double &c : m_cumulative)
            c /= sum;
    }

    QString word()
    {
        const double x = m_random.generateDouble();
        const auto it = std::lower_bound(m_cumulative.cbegin(), m_cumulative.cend(), x);
        return m_words.at(std::min<qsizetype>(it - m_cumulative.cbegin(), kVocabulary - 1));
    }

    QString text(int words)
    {
        QString s;
        s.reserve(words * 7);
        for (int i = 0; i < words; ++i) {
            if (i)
                s += (i % 12 == 0) ? u". "_s : u" "_s;
            s += word();
        }
        return s;
    }

    QRandomGenerator &random() { return m_random; }

private:
    QRandomGenerator m_random;
    QStringList m_words;
    QList<double> m_cumulative;
};

// About 4-5 KB of JSON per call: a tool loop of three turns with one tool result.
CallRecord makeCall(Corpus &corpus, qint64 index, qint64 createdMs)
{
    static const QStringList kinds { u"planner"_s, u"extractor"_s,  u"classifier"_s,
                                     u"chat"_s,    u"summariser"_s, u"compaction"_s };
    static const QStringList engines { u"openai"_s, u"anthropic"_s, u"gemini"_s,
                                       u"openai-compatible"_s };
    static const QStringList models { u"gpt-4.1-mini"_s, u"claude-sonnet-4"_s,
                                      u"gemini-2.5-flash"_s, u"qwen3-8b"_s };
    QRandomGenerator &rnd = corpus.random();
    CallRecord r;
    const int kind = rnd.bounded(100) < 40 ? 0 : int(rnd.bounded(kinds.size()));
    r.kind = kinds.at(kind);
    const int roll = int(rnd.bounded(100));
    r.status = roll < 85 ? CallStatus::Completed
        : roll < 95      ? CallStatus::Failed
        : roll < 98      ? CallStatus::TurnLimited
                         : CallStatus::Cancelled;
    const int engine = int(rnd.bounded(engines.size()));
    r.engineType = engines.at(engine);
    r.model = models.at(engine);
    QString input = corpus.text(60 + int(rnd.bounded(40)));
    if (index % kRareEvery == 0)
        input += u" zanzibarite"_s;
    r.input = QJsonObject { { u"text"_s, input }, { u"attachments"_s, QJsonArray() } };
    r.systemPrompt = u"You are a careful assistant. "_s + corpus.text(25);
    const QString toolResult = corpus.text(150 + int(rnd.bounded(100)));
    const QJsonObject response {
        { u"title"_s, corpus.text(6) },
        { u"steps"_s, QJsonArray { corpus.text(12), corpus.text(12), corpus.text(12) } },
        { u"confidence"_s, 0.8 }
    };
    if (r.status == CallStatus::Completed)
        r.response = response;
    else if (r.status == CallStatus::Failed) {
        r.errorCategory = ErrorCategory::Model;
        r.error = u"the reply was cut off at max_tokens"_s;
    }

    ToolCall call { u"call_%1"_s.arg(index),
                    u"search_docs"_s,
                    QJsonObject { { u"query"_s, corpus.text(5) } },
                    {},
                    {},
                    {} };
    ToolCall submit { u"call_%1_s"_s.arg(index), u"submit_output"_s, response, {}, {}, {} };
    const QList<Message> messages { Message::user(input), Message::assistant({}, { call }),
                                    Message::toolResultsMessage(
                                        { ToolResult { call.id, call.name, toolResult } }),
                                    Message::assistant({}, { submit }) };
    r.messages = messagesToJson(messages);
    // The engine-native transcript: the same conversation in a wire shape (Chat Completions).
    r.transcript = QJsonArray {
        QJsonObject { { u"role"_s, u"system"_s }, { u"content"_s, r.systemPrompt } },
        QJsonObject { { u"role"_s, u"user"_s }, { u"content"_s, input } },
        QJsonObject {
            { u"role"_s, u"assistant"_s },
            { u"tool_calls"_s,
              QJsonArray { QJsonObject {
                  { u"id"_s, call.id },
                  { u"type"_s, u"function"_s },
                  { u"function"_s,
                    QJsonObject { { u"name"_s, call.name },
                                  { u"arguments"_s, u"{\"query\":\"...\"}"_s } } } } } } },
        QJsonObject { { u"role"_s, u"tool"_s },
                      { u"tool_call_id"_s, call.id },
                      { u"content"_s, toolResult } },
        QJsonObject { { u"role"_s, u"assistant"_s },
                      { u"tool_calls"_s,
                        QJsonArray { QJsonObject {
                            { u"id"_s, submit.id },
                            { u"type"_s, u"function"_s },
                            { u"function"_s, QJsonObject { { u"name"_s, submit.name } } } } } } }
    };
    for (int t = 0; t < 3; ++t) {
        TurnRecord turn;
        turn.index = t;
        turn.finishReason = t < 2 ? FinishReason::ToolCalls : FinishReason::Stop;
        turn.rawFinishReason = t < 2 ? u"tool_calls"_s : u"stop"_s;
        turn.usage = { 800 + t * 400, 120, t * 300, 0 };
        turn.toolCalls = t < 2 ? 1 : 0;
        r.turns.append(turn);
        AttemptRecord attempt;
        attempt.index = t;
        attempt.turn = t;
        attempt.outcome = u"ok"_s;
        attempt.finishReason = turn.finishReason;
        attempt.rawFinishReason = turn.rawFinishReason;
        attempt.httpStatus = 200;
        attempt.usage = turn.usage;
        attempt.startedAt = QDateTime::fromMSecsSinceEpoch(createdMs + t * 1500, Qt::UTC);
        attempt.durationMs = 1400;
        r.attempts.append(attempt);
        r.usage += turn.usage;
    }
    r.spec = QJsonObject {
        { u"kind"_s, r.kind },
        { u"system_prompt"_s, r.systemPrompt },
        { u"max_turns"_s, 10 },
        { u"engine"_s,
          QJsonObject {
              { u"type"_s, r.engineType }, { u"model"_s, r.model }, { u"max_tokens"_s, 1024 } } },
        { u"response_schema"_s,
          QJsonObject {
              { u"type"_s, u"object"_s },
              { u"required"_s, QJsonArray { u"title"_s, u"steps"_s } },
              { u"properties"_s,
                QJsonObject { { u"title"_s, QJsonObject { { u"type"_s, u"string"_s } } },
                              { u"steps"_s, QJsonObject { { u"type"_s, u"array"_s } } } } } } }
    };
    r.metadata = QJsonObject { { u"batch"_s, int(index / 1000) } };
    r.createdAt = QDateTime::fromMSecsSinceEpoch(createdMs, Qt::UTC);
    r.finishedAt = r.createdAt.addMSecs(4500);
    return r;
}

struct Figure
{
    QString label;
    double value = 0;
    QString unit;
};

class Figures
{
public:
    void add(const QString &label, double value, const QString &unit)
    {
        std::printf("%-62s %12.3f %s\n", qPrintable(label), value, qPrintable(unit));
        std::fflush(stdout);
        m_list.append({ label, value, unit });
    }
    const QList<Figure> &list() const { return m_list; }

private:
    QList<Figure> m_list;
};

// Median wall time of `runs` runs of `work`, in milliseconds.
template<typename F> double timeMs(F &&work, int runs = 7)
{
    QList<double> times;
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer timer;
        timer.start();
        work();
        times.append(timer.nsecsElapsed() / 1e6);
    }
    std::sort(times.begin(), times.end());
    return times.at(times.size() / 2);
}

qint64 fileSize(const QString &path)
{
    return QFileInfo(path).size();
}

bool exec(Database &db, const QString &sql, QSqlQuery *out = nullptr)
{
    QSqlQuery query(db.connection());
    if (!query.exec(sql)) {
        std::fprintf(stderr, "%s\n  %s\n", qPrintable(sql), qPrintable(query.lastError().text()));
        return false;
    }
    if (out)
        *out = query;
    return true;
}

qint64 scalar(Database &db, const QString &sql)
{
    QSqlQuery query(db.connection());
    if (!query.exec(sql) || !query.next())
        return -1;
    return query.value(0).toLongLong();
}

constexpr qint64 kStartMs = 1735689600000; // 2025-01-01
constexpr qint64 kSpacingMs = 30000; // one call every 30 s or so

// Inserts calls [from, to) through the store, in batches.
bool insertThroughStore(CallStore &store, Corpus &corpus, qint64 from, qint64 to,
                        qint64 *generationNs)
{
    QElapsedTimer total;
    total.start();
    for (qint64 done = from; done < to; done += kBatch) {
        QElapsedTimer gen;
        gen.start();
        QList<CallRecord> batch;
        for (qint64 i = done; i < std::min(to, done + kBatch); ++i)
            batch.append(
                makeCall(corpus, i, kStartMs + i * kSpacingMs + corpus.random().bounded(20000)));
        *generationNs += gen.nsecsElapsed();
        const auto ids = store.insertCalls(batch);
        if (!ids) {
            std::fprintf(stderr, "insert failed: %s\n", qPrintable(ids.error().message));
            return false;
        }
        if (((done - from) / kBatch) % 50 == 0 && done > from) {
            std::printf("  %lld calls, %.0f calls/s\n", done + kBatch - from,
                        (done + kBatch - from) / (total.nsecsElapsed() / 1e9));
            std::fflush(stdout);
        }
    }
    return true;
}

// The columns of `table` on the server, as INSERT ... SELECT expressions that copy a row `off`
// ids further on and `shift` ms later (a new UUID for a call).
struct CopyColumns
{
    QStringList names;
    QStringList expressions;
};

CopyColumns copyColumns(Database &db, const QString &table)
{
    CopyColumns c;
    QSqlQuery query(db.connection());
    query.prepare(u"SELECT column_name, data_type FROM information_schema.columns "
                  "WHERE table_name = ? ORDER BY ordinal_position"_s);
    query.addBindValue(table);
    query.exec();
    while (query.next()) {
        const QString name = query.value(0).toString();
        const QString type = query.value(1).toString();
        if (name == u"id" && table != u"calls_search")
            continue; // the server gives the new row its id
        c.names.append(name);
        if (name == u"call_id")
            c.expressions.append(u"call_id + :off"_s);
        else if (table == u"calls" && (name == u"created_at" || name == u"finished_at"))
            c.expressions.append(name + u" + :shift"_s);
        else if (table == u"calls" && name == u"uuid")
            c.expressions.append(type == u"uuid" ? u"gen_random_uuid()"_s
                                                 : u"gen_random_uuid()::text"_s);
        else
            c.expressions.append(name);
    }
    return c;
}

// Fills a server's history to `count` calls fast: the first `seed` through the store (its
// search index, turns and attempts as a real run stores them), then copies of them made by the
// server itself (INSERT ... SELECT), each copy later in time, with its own ids and UUIDs and
// the same search document, turns and attempts.
bool fillServer(Database &db, CallStore &store, Corpus &corpus, qint64 count, qint64 seed,
                Figures &figures)
{
    QElapsedTimer total;
    total.start();
    qint64 generationNs = 0;
    seed = std::min(seed, count);
    if (!insertThroughStore(store, corpus, 0, seed, &generationNs))
        return false;
    const double seedSeconds = total.nsecsElapsed() / 1e9;
    figures.add(u"insert: calls through the store (seed)"_s, double(seed), QString());
    figures.add(u"insert: seed throughput"_s, seed / seedSeconds, u"calls/s"_s);
    if (scalar(db, u"SELECT max(id) FROM calls"_s) != seed) {
        std::fprintf(stderr, "the seed's ids are not 1..%lld\n", seed);
        return false;
    }
    const QStringList tables { u"calls_search"_s, u"call_turns"_s, u"call_attempts"_s };
    const CopyColumns calls = copyColumns(db, u"calls"_s);
    QElapsedTimer copying;
    copying.start();
    for (qint64 done = seed, round = 1; done < count; done += seed, ++round) {
        const qint64 n = std::min(seed, count - done);
        const qint64 off = scalar(db, u"SELECT max(id) FROM calls"_s);
        const qint64 shift = round * seed * kSpacingMs;
        auto bind = [&](QString sql) {
            return sql.replace(u":off"_s, QString::number(off))
                .replace(u":shift"_s, QString::number(shift));
        };
        if (!exec(db, u"BEGIN"_s))
            return false;
        if (!exec(db,
                  bind(u"INSERT INTO calls (%1) SELECT %2 FROM calls WHERE id <= %3 ORDER BY id"_s
                           .arg(calls.names.join(u", "_s), calls.expressions.join(u", "_s))
                           .arg(n))))
            return false;
        if (scalar(db, u"SELECT max(id) FROM calls"_s) != off + n) {
            std::fprintf(stderr, "copied ids are not contiguous\n");
            return false;
        }
        for (const QString &table : tables) {
            const CopyColumns c = copyColumns(db, table);
            if (!exec(db,
                      bind(u"INSERT INTO %1 (%2) SELECT %3 FROM %1 WHERE call_id <= %4"_s
                               .arg(table, c.names.join(u", "_s), c.expressions.join(u", "_s))
                               .arg(n))))
                return false;
        }
        if (!exec(db, u"COMMIT"_s))
            return false;
        std::printf("  %lld calls, %.0f calls/s copied\n", done + n,
                    (done + n - seed) / (copying.nsecsElapsed() / 1e9));
        std::fflush(stdout);
    }
    // What autovacuum does on a real server, now rather than at some point during the timing.
    QElapsedTimer vacuum;
    vacuum.start();
    if (!exec(db, u"VACUUM ANALYZE"_s))
        return false;
    figures.add(u"insert: copies made by the server"_s, double(count - seed), QString());
    figures.add(u"insert: copy throughput"_s,
                (count - seed)
                    / std::max(1e-9, (copying.nsecsElapsed() - vacuum.nsecsElapsed()) / 1e9),
                u"calls/s"_s);
    figures.add(u"insert: VACUUM ANALYZE"_s, vacuum.nsecsElapsed() / 1e9, u"s"_s);
    figures.add(u"insert: total time"_s, total.nsecsElapsed() / 1e9, u"s"_s);
    return true;
}

// Experiments as a team's history holds them: `experiments` of 1,000 cases x 2 variants, each
// run pointing at a call of the history. Returns the definition hash of the newest.
QByteArray addExperiments(CallStore &store, qint64 rows, int experiments, Figures &figures)
{
    QRandomGenerator random(7);
    QByteArray hash;
    QElapsedTimer timer;
    timer.start();
    for (int e = 0; e < experiments; ++e) {
        QJsonArray dataset;
        for (int c = 0; c < 1000; ++c)
            dataset.append(QJsonObject {
                { u"id"_s, u"case%1"_s.arg(c) },
                { u"input"_s, u"Plan the release of component %1 for team %2"_s.arg(c).arg(e) } });
        ExperimentRecord record;
        record.name = u"release-plans"_s;
        record.definition = QJsonObject { { u"name"_s, record.name },
                                          { u"spec"_s, u"planner.spec.json"_s },
                                          { u"dataset"_s, dataset },
                                          { u"revision"_s, e } };
        record.definitionHash = QByteArray::number(e).rightJustified(64, '0');
        record.createdAt = QDateTime::fromMSecsSinceEpoch(kStartMs + e * 3600000, Qt::UTC);
        auto id = store.createExperiment(record);
        if (!id) {
            std::fprintf(stderr, "%s\n", qPrintable(id.error().message));
            return {};
        }
        {
            for (int c = 0; c < 1000; ++c) {
                for (const char *variant : { "baseline", "terse" }) {
                    ExperimentRunRecord run;
                    run.experimentId = *id;
                    run.caseId = u"case%1"_s.arg(c);
                    run.variant = QString::fromLatin1(variant);
                    run.callId = 1 + qint64(random.bounded(quint32(std::max<qint64>(rows, 1))));
                    run.status = u"completed"_s;
                    run.passed = random.bounded(100) < 80;
                    run.assertions = QJsonArray { QJsonObject { { u"type"_s, u"equals"_s },
                                                                { u"passed"_s, run.passed } } };
                    run.latencyMs = 900 + random.bounded(2000);
                    run.inputTokens = 1200;
                    run.outputTokens = 150;
                    run.costUsd = 0.0012;
                    if (auto saved = store.saveExperimentRun(run); !saved) {
                        std::fprintf(stderr, "%s\n", qPrintable(saved.error().message));
                        return {};
                    }
                }
            }
        }
        hash = record.definitionHash;
    }
    figures.add(u"experiments: stored (1,000 cases x 2 variants each)"_s, experiments, QString());
    figures.add(u"experiments: time to store them"_s, timer.nsecsElapsed() / 1e9, u"s"_s);
    return hash;
}

// The plans the server chose for the store's own statements (auto_explain, VERBOSE: each node's
// output columns), from the server's log since `from`; whether any list or search plan reads a
// large column.
void printPlans(const QByteArray &log, qsizetype from)
{
    const QString text = QString::fromUtf8(log.mid(from));
    std::printf("\nplans (auto_explain, ANALYZE, VERBOSE) of the statements above:\n%s\n",
                qPrintable(text));
    static const QStringList large { u"c.input,"_s,     u"c.input "_s,       u"c.messages"_s,
                                     u"c.transcript"_s, u"c.spec"_s,         u"c.response"_s,
                                     u"c.metadata"_s,   u"c.system_prompt"_s };
    QStringList read;
    for (const QString &line : text.split(u'\n')) {
        if (!line.trimmed().startsWith(u"Output:"))
            continue;
        for (const QString &column : large) {
            if (line.contains(column) && !read.contains(column.trimmed()))
                read.append(column.trimmed());
        }
    }
    std::printf("large columns in the plans' output: %s\n",
                read.isEmpty() ? "none" : qPrintable(read.join(u", "_s)));
}

enum class Backend { Sqlite, Postgres };

struct Run
{
    Backend backend = Backend::Sqlite;
    QString location; // a file or a server URL; empty: a temporary one
    qint64 count = 1000000;
    qint64 seed = 20000; // PostgreSQL: calls inserted through the store before the copies
    bool keep = false;
    bool reuse = false;
    bool explain = false;
};

std::optional<Figures> runBackend(const Run &run)
{
    Figures figures;
    const bool server = run.backend == Backend::Postgres;
    QTemporaryDir dir;
    dir.setAutoRemove(!run.keep);
    std::unique_ptr<Test::PgServer> pg;
    QString path = run.location;
    if (server && path.isEmpty()) {
        pg = std::make_unique<Test::PgServer>();
        QString error;
        if (!pg->start(&error) || !pg->createDatabase(u"bench"_s, &error)) {
            std::fprintf(stderr, "cannot start PostgreSQL: %s\n", qPrintable(error));
            return std::nullopt;
        }
        path = pg->url(u"bench"_s);
    }
    if (!server && path.isEmpty())
        path = dir.filePath(u"bench.sqlite"_s);
    if (!server && !run.reuse)
        QFile::remove(path);

    auto opened = Database::open(path);
    if (!opened) {
        std::fprintf(stderr, "%s\n", qPrintable(opened.error().message));
        return std::nullopt;
    }
    Database &db = **opened;
    std::printf("\n== %s: %s, search %s\n", server ? "PostgreSQL" : "SQLite", qPrintable(path),
                db.searchMode() == Database::SearchMode::Fts5             ? "FTS5"
                    : db.searchMode() == Database::SearchMode::TextSearch ? "tsvector + GIN"
                                                                          : "LIKE fallback");
    if (server)
        std::printf("server %s\n",
                    qPrintable(QString::number(scalar(db, u"SHOW server_version_num"_s))));
    QByteArray experimentHash;
    {
        CallStore store(db);
        HistoryQuery any;
        any.limit = 1;
        const bool hasRows = !store.listCalls(any)->rows.isEmpty();
        if (!(run.reuse && hasRows)) {
            Corpus corpus(20261130);
            if (server) {
                if (!fillServer(db, store, corpus, run.count, run.seed, figures))
                    return std::nullopt;
            } else {
                QElapsedTimer total;
                total.start();
                qint64 generationNs = 0;
                if (!insertThroughStore(store, corpus, 0, run.count, &generationNs))
                    return std::nullopt;
                const double seconds = total.nsecsElapsed() / 1e9;
                figures.add(u"insert: calls through the store"_s, double(run.count), QString());
                figures.add(u"insert: total time"_s, seconds, u"s"_s);
                figures.add(u"insert: of which generating records (JSON)"_s, generationNs / 1e9,
                            u"s"_s);
                figures.add(u"insert: throughput"_s, run.count / seconds, u"calls/s"_s);
            }
            experimentHash = addExperiments(store, run.count, 50, figures);
        }
    }

    if (!server && !run.reuse) { // with --reuse another process may still be writing
        exec(db, u"PRAGMA wal_checkpoint(TRUNCATE)"_s);
    }
    const qint64 rows = scalar(db, u"SELECT count(*) FROM calls"_s);

    // One run of each statement with its plan logged, before the timed runs.
    qsizetype logFrom = 0;
    const bool explain = run.explain && server && pg;
    if (explain) {
        logFrom = pg->log().size();
        for (const QString &sql :
             { u"LOAD 'auto_explain'"_s, u"SET auto_explain.log_min_duration = 0"_s,
               u"SET auto_explain.log_analyze = on"_s, u"SET auto_explain.log_verbose = on"_s,
               u"SET auto_explain.log_buffers = on"_s, u"SET auto_explain.log_timing = on"_s })
            exec(db, sql);
    }
    auto planOnce = [&](auto &&work) {
        if (!explain)
            return;
        work();
    };
    auto stopPlans = [&] {
        if (explain)
            exec(db, u"SET auto_explain.log_min_duration = -1"_s);
    };

    CallStore store(db);
    struct Timed
    {
        QString label;
        std::function<void()> work;
        int runs = 7;
    };
    QList<Timed> timed;
    HistoryQuery first;
    first.limit = 50;
    timed.append({ u"history: first page (50 rows, no filter)"_s, [&] {
                      store.listCalls(first);
                  } });
    HistoryQuery filtered;
    filtered.kind = u"extractor"_s;
    filtered.status = CallStatus::Failed;
    filtered.limit = 50;
    timed.append({ u"history: filtered page (kind + status)"_s, [&] {
                      store.listCalls(filtered);
                  } });
    HistoryQuery byModel;
    byModel.model = u"gemini-2.5-flash"_s;
    byModel.limit = 50;
    timed.append({ u"history: filtered page (model)"_s, [&] {
                      store.listCalls(byModel);
                  } });
    HistoryQuery byDate;
    byDate.from = QDateTime::fromMSecsSinceEpoch(kStartMs + (rows / 2) * kSpacingMs, Qt::UTC);
    byDate.to = byDate.from.addDays(1);
    byDate.limit = 50;
    timed.append({ u"history: filtered page (one day, mid-history)"_s, [&] {
                      store.listCalls(byDate);
                  } });
    // A cursor 90% of the way down the list, found once with OFFSET (the slow way).
    HistoryQuery deepOffset;
    deepOffset.limit = 50;
    deepOffset.offset = int(rows * 9 / 10);
    std::optional<HistoryCursor> deepCursor;
    {
        auto page = store.listCalls(deepOffset);
        if (page && !page->rows.isEmpty())
            deepCursor = page->rows.constFirst().cursor();
    }
    HistoryQuery deep;
    deep.limit = 50;
    deep.after = deepCursor;
    timed.append({ u"history: page at 90% depth with keyset cursor"_s, [&] {
                      store.listCalls(deep);
                  } });
    HistoryQuery deepFiltered = deep;
    deepFiltered.kind = u"planner"_s;
    timed.append({ u"history: filtered page at 90% depth with keyset cursor"_s, [&] {
                      store.listCalls(deepFiltered);
                  } });
    HistoryQuery rare;
    rare.search = u"zanzibarite"_s;
    rare.limit = 50;
    timed.append({ u"search: rare word (1 call in 10,000), first page"_s, [&] {
                      store.listCalls(rare);
                  } });
    HistoryQuery common;
    common.search = u"kalo"_s; // a frequent word of the corpus
    common.limit = 50;
    timed.append({ u"search: common word, first page"_s, [&] { store.listCalls(common); }, 3 });
    HistoryQuery two;
    two.search = u"kalo mimi"_s;
    two.limit = 50;
    timed.append(
        { u"search: two mid-frequency words, first page"_s, [&] { store.listCalls(two); }, 3 });
    HistoryQuery searchFiltered;
    searchFiltered.search = u"zanzibarite"_s;
    searchFiltered.status = CallStatus::Completed;
    searchFiltered.limit = 50;
    timed.append({ u"search: rare word + status filter"_s, [&] {
                      store.listCalls(searchFiltered);
                  } });
    const qint64 someId = rows / 2;
    timed.append({ u"getCall: one full row with turns and attempts"_s, [&] {
                      store.getCall(someId);
                  } });
    // What the experiment view reads to show a matrix: the experiments with this definition,
    // the runs of each, the labels of the newest.
    if (experimentHash.isEmpty()) {
        QSqlQuery q;
        if (exec(db, u"SELECT definition_hash FROM experiments ORDER BY id DESC LIMIT 1"_s, &q)
            && q.next())
            experimentHash = q.value(0).toByteArray();
    }
    timed.append({ u"experiment matrix: stored results (2,000 runs of 100,000)"_s, [&] {
                      auto found = store.findExperiments(experimentHash);
                      if (!found || found->isEmpty())
                          return;
                      for (const ExperimentRecord &record : found.value())
                          store.experimentRuns(record.id);
                      store.reviewLabels(found->constFirst().id);
                  } });
    timed.append({ u"experiment: latest run of the same name (Compare)"_s, [&] {
                      store.latestExperimentNamed(u"release-plans"_s,
                                                  std::numeric_limits<qint64>::max());
                  } });

    for (const Timed &t : timed)
        planOnce(t.work);
    stopPlans();
    for (const Timed &t : timed)
        figures.add(t.label, timeMs(t.work, t.runs), u"ms"_s);

    figures.add(u"database: rows"_s, double(rows), QString());
    if (server) {
        const qint64 bytes = scalar(db, u"SELECT pg_database_size(current_database())"_s);
        figures.add(u"database: size"_s, bytes / 1048576.0, u"MiB"_s);
        figures.add(u"database: size per call"_s, double(bytes) / std::max<qint64>(rows, 1),
                    u"bytes"_s);
    } else {
        const qint64 bytes = fileSize(path) + fileSize(path + u"-wal"_s);
        figures.add(u"database: size"_s, bytes / 1048576.0, u"MiB"_s);
        figures.add(u"database: size per call"_s, double(bytes) / std::max<qint64>(rows, 1),
                    u"bytes"_s);
    }
    if (explain)
        printPlans(pg->log(), logFrom);
    if (pg && run.keep)
        std::printf("(--keep: the server stays in %s until this program ends)\n",
                    qPrintable(pg->socketDir()));
    return figures;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QStringList args = app.arguments().mid(1);
    Run run;
    QString backend = u"sqlite"_s;
    for (qsizetype i = 0; i < args.size(); ++i) {
        if (args.at(i) == u"--db" && i + 1 < args.size())
            run.location = args.at(++i);
        else if (args.at(i) == u"--backend" && i + 1 < args.size())
            backend = args.at(++i);
        else if (args.at(i) == u"--seed" && i + 1 < args.size())
            run.seed = std::max<qint64>(1, args.at(++i).toLongLong());
        else if (args.at(i) == u"--keep")
            run.keep = true;
        else if (args.at(i) == u"--reuse")
            run.reuse = true;
        else if (args.at(i) == u"--explain")
            run.explain = true;
        else
            run.count = args.at(i).toLongLong();
    }
    if (backend != u"sqlite" && backend != u"postgresql" && backend != u"both") {
        std::fprintf(stderr, "--backend takes sqlite, postgresql or both\n");
        return 2;
    }
    if (isServerLocation(run.location) && backend == u"sqlite")
        backend = u"postgresql"_s;
    if (backend == u"both" && !run.location.isEmpty()) {
        std::fprintf(stderr, "--backend both makes its own databases; leave out --db\n");
        return 2;
    }
    QList<std::pair<QString, Figures>> results;
    for (const QString &name : { u"sqlite"_s, u"postgresql"_s }) {
        if (backend != u"both" && backend != name)
            continue;
        Run one = run;
        one.backend = name == u"sqlite" ? Backend::Sqlite : Backend::Postgres;
        auto figures = runBackend(one);
        if (!figures)
            return 1;
        results.append({ name == u"sqlite" ? u"SQLite"_s : u"PostgreSQL"_s, *figures });
    }
    if (results.size() == 2) {
        // The figures side by side (those both backends measured).
        std::printf("\n%-62s %14s %14s\n", "", "SQLite", "PostgreSQL");
        for (const Figure &a : results.at(0).second.list()) {
            for (const Figure &b : results.at(1).second.list()) {
                if (a.label == b.label)
                    std::printf("%-62s %14.3f %14.3f %s\n", qPrintable(a.label), a.value, b.value,
                                qPrintable(a.unit));
            }
        }
    }
    return 0;
}
