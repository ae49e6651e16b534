// Store benchmark: fills a history database with N calls of realistic size (default
// 1,000,000), then times the history queries the GUI and the CLI make.
//
//   bench_store [N] [--db PATH] [--keep] [--reuse]
//
// --reuse skips the insert when PATH already holds calls (re-time the queries only; it can
// run beside a filling run, as a reader, to measure a growing database).
// Prints one line per figure; the database size per call at the end.

#include "core/store/callstore.h"
#include "core/store/database.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QRandomGenerator>
#include <QSqlQuery>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <cstdio>

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

void print(const char *label, double value, const char *unit)
{
    std::printf("%-58s %12.3f %s\n", label, value, unit);
    std::fflush(stdout);
}

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

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QStringList args = app.arguments().mid(1);
    qint64 count = 1000000;
    QString path;
    bool keep = false;
    bool reuse = false;
    for (qsizetype i = 0; i < args.size(); ++i) {
        if (args.at(i) == u"--db" && i + 1 < args.size())
            path = args.at(++i);
        else if (args.at(i) == u"--keep")
            keep = true;
        else if (args.at(i) == u"--reuse")
            reuse = true;
        else
            count = args.at(i).toLongLong();
    }
    QTemporaryDir dir;
    if (path.isEmpty())
        path = dir.filePath(u"bench.sqlite"_s);
    dir.setAutoRemove(!keep);
    if (!reuse)
        QFile::remove(path);

    auto opened = Database::open(path);
    if (!opened) {
        std::fprintf(stderr, "%s\n", qPrintable(opened.error().message));
        return 1;
    }
    Database &db = **opened;
    std::printf("database %s, search %s\n", qPrintable(path),
                db.searchMode() == Database::SearchMode::Fts5 ? "FTS5" : "LIKE fallback");
    {
        CallStore store(db);
        HistoryQuery any;
        any.limit = 1;
        const bool hasRows = !store.listCalls(any)->rows.isEmpty();
        if (!(reuse && hasRows)) {
            Corpus corpus(20261130);
            const qint64 start = 1735689600000; // 2025-01-01
            QElapsedTimer total;
            total.start();
            qint64 generationNs = 0;
            for (qint64 done = 0; done < count; done += kBatch) {
                QElapsedTimer gen;
                gen.start();
                QList<CallRecord> batch;
                for (qint64 i = done; i < std::min(count, done + kBatch); ++i)
                    batch.append(
                        makeCall(corpus, i, start + i * 30000 + corpus.random().bounded(20000)));
                generationNs += gen.nsecsElapsed();
                const auto ids = store.insertCalls(batch);
                if (!ids) {
                    std::fprintf(stderr, "insert failed: %s\n", qPrintable(ids.error().message));
                    return 1;
                }
                if ((done / kBatch) % 50 == 0 && done > 0) {
                    std::printf("  %lld calls, %.0f calls/s\n", done + kBatch,
                                (done + kBatch) / (total.nsecsElapsed() / 1e9));
                    std::fflush(stdout);
                }
            }
            const double seconds = total.nsecsElapsed() / 1e9;
            print("insert: calls", double(count), "");
            print("insert: total time", seconds, "s");
            print("insert: of which generating records (JSON)", generationNs / 1e9, "s");
            print("insert: throughput", count / seconds, "calls/s");
        }
    }

    if (!reuse) { // with --reuse another process may still be writing: leave its WAL alone
        QSqlQuery checkpoint(db.connection());
        checkpoint.exec(u"PRAGMA wal_checkpoint(TRUNCATE)"_s);
        checkpoint.finish();
    }
    QSqlQuery countQuery(db.connection());
    countQuery.exec(u"SELECT count(*) FROM calls"_s);
    countQuery.next();
    const qint64 rows = countQuery.value(0).toLongLong();
    countQuery.finish();

    CallStore store(db);
    HistoryQuery first;
    first.limit = 50;
    print("history: first page (50 rows, no filter)", timeMs([&] { store.listCalls(first); }),
          "ms");

    HistoryQuery filtered;
    filtered.kind = u"extractor"_s;
    filtered.status = CallStatus::Failed;
    filtered.limit = 50;
    print("history: filtered page (kind + status)", timeMs([&] { store.listCalls(filtered); }),
          "ms");
    HistoryQuery byModel;
    byModel.model = u"gemini-2.5-flash"_s;
    byModel.limit = 50;
    print("history: filtered page (model)", timeMs([&] { store.listCalls(byModel); }), "ms");
    HistoryQuery byDate;
    byDate.from = QDateTime::fromMSecsSinceEpoch(1735689600000 + (rows / 2) * 30000, Qt::UTC);
    byDate.to = byDate.from.addDays(1);
    byDate.limit = 50;
    print("history: filtered page (one day, mid-history)", timeMs([&] { store.listCalls(byDate); }),
          "ms");

    // A cursor 90% of the way down the list, found once with OFFSET (which is the slow way).
    HistoryQuery deepOffset;
    deepOffset.limit = 50;
    deepOffset.offset = int(rows * 9 / 10);
    std::optional<HistoryCursor> deepCursor;
    print("history: page at 90% depth with OFFSET (for comparison)",
          timeMs([&] { deepCursor = store.listCalls(deepOffset)->rows.constFirst().cursor(); }, 3),
          "ms");
    HistoryQuery deep;
    deep.limit = 50;
    deep.after = deepCursor;
    print("history: page at 90% depth with keyset cursor", timeMs([&] { store.listCalls(deep); }),
          "ms");
    HistoryQuery deepFiltered = deep;
    deepFiltered.kind = u"planner"_s;
    print("history: filtered page at 90% depth with keyset cursor",
          timeMs([&] { store.listCalls(deepFiltered); }), "ms");

    HistoryQuery rare;
    rare.search = u"zanzibarite"_s;
    rare.limit = 50;
    qsizetype rareHits = 0;
    print("search: rare word (1 call in 10,000), first page",
          timeMs([&] { rareHits = store.listCalls(rare)->rows.size(); }), "ms");
    std::printf("  (%lld rows on the page)\n", qint64(rareHits));
    HistoryQuery common;
    common.search = u"kalo"_s; // a frequent word of the corpus
    common.limit = 50;
    print("search: common word, first page", timeMs([&] { store.listCalls(common); }, 3), "ms");
    HistoryQuery two;
    two.search = u"kalo mimi"_s;
    two.limit = 50;
    print("search: two mid-frequency words, first page", timeMs([&] { store.listCalls(two); }, 3),
          "ms");
    HistoryQuery searchFiltered;
    searchFiltered.search = u"zanzibarite"_s;
    searchFiltered.status = CallStatus::Completed;
    searchFiltered.limit = 50;
    print("search: rare word + status filter", timeMs([&] { store.listCalls(searchFiltered); }),
          "ms");

    const qint64 someId = rows / 2;
    print("getCall: one full row with turns and attempts", timeMs([&] { store.getCall(someId); }),
          "ms");

    const qint64 bytes = fileSize(path) + fileSize(path + u"-wal"_s);
    print("database: rows", double(rows), "");
    print("database: size", bytes / 1048576.0, "MiB");
    print("database: size per call", double(bytes) / std::max<qint64>(rows, 1), "bytes");
    return 0;
}
