// History browser at scale: opens the real HistoryBrowser widget (offscreen) on a database of
// N calls (default 1,000,000) and times what the user waits for: the window showing its first
// page, the next page while scrolling, a filter, and a full-text search (the debounce delay
// excluded; it is a fixed 300 ms wait before the query). Each figure is also given for the
// store query alone, so the view's own cost is the difference.
//
//   bench_history_view [N] [--db PATH] [--keep] [--reuse]
//
// --reuse keeps the calls already in PATH (for example a database bench_store --keep left).

#include "core/store/callstore.h"
#include "core/store/database.h"
#include "ui/history/historybrowser.h"
#include "ui/history/historymodel.h"

#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QLineEdit>
#include <QRandomGenerator>
#include <QTableView>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>

using namespace Qt::StringLiterals;
using namespace Callscope;

namespace {

void print(const char *label, double value, const char *unit)
{
    std::printf("%-62s %12.3f %s\n", label, value, unit);
    std::fflush(stdout);
}

template<typename F> double medianMs(F &&work, int runs = 5)
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

// About 1.5 KB per call: enough text for a realistic search index.
CallRecord makeCall(QRandomGenerator &rnd, const QStringList &words, qint64 i, qint64 createdMs)
{
    static const QStringList kinds { u"planner"_s, u"extractor"_s, u"classifier"_s, u"chat"_s };
    static const QStringList engines { u"openai"_s, u"anthropic"_s, u"gemini"_s,
                                       u"openai-compatible"_s };
    CallRecord r;
    r.kind = kinds.at(int(rnd.bounded(kinds.size())));
    const int roll = int(rnd.bounded(100));
    r.status = roll < 85 ? CallStatus::Completed
        : roll < 95      ? CallStatus::Failed
                         : CallStatus::TurnLimited;
    const int e = int(rnd.bounded(engines.size()));
    r.engineType = engines.at(e);
    r.model = u"model-%1"_s.arg(e);
    QString text;
    for (int w = 0; w < 80; ++w)
        text += words.at(int(std::min<quint32>(rnd.bounded(quint32(words.size())),
                                               rnd.bounded(quint32(words.size())))))
            + u' ';
    if (i % 10000 == 0)
        text += u"zanzibarite"_s;
    r.input = QJsonObject { { u"text"_s, text } };
    r.messages = messagesToJson({ Message::user(text), Message::assistant(text.left(300)) });
    r.response = QJsonObject { { u"title"_s, text.left(40) } };
    r.usage = { 800, 120, 0, 0 };
    r.createdAt = QDateTime::fromMSecsSinceEpoch(createdMs, Qt::UTC);
    r.finishedAt = r.createdAt.addMSecs(2500);
    return r;
}

} // namespace

int main(int argc, char *argv[])
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QStringList args = app.arguments().mid(1);
    qint64 count = 1000000;
    QString path;
    bool keep = false, reuse = false;
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
    dir.setAutoRemove(!keep);
    if (path.isEmpty())
        path = dir.filePath(u"history-view.sqlite"_s);
    if (!reuse)
        QFile::remove(path);

    {
        auto opened = Database::open(path);
        if (!opened) {
            std::fprintf(stderr, "%s\n", qPrintable(opened.error().message));
            return 1;
        }
        CallStore store(**opened);
        HistoryQuery any;
        any.limit = 1;
        if (!(reuse && !store.listCalls(any)->rows.isEmpty())) {
            QRandomGenerator rnd(20261130);
            QStringList words;
            static const char *const syllables[] = { "ka", "lo", "mi",  "ne",  "ru",  "sa",
                                                     "to", "vi", "ber", "dan", "fel", "gor" };
            for (int w = 0; w < 5000; ++w)
                words << QLatin1StringView(syllables[w % 12])
                        + QLatin1StringView(syllables[(w / 12) % 12]) + QString::number(w / 144);
            QElapsedTimer timer;
            timer.start();
            const qint64 start = 1735689600000;
            for (qint64 done = 0; done < count; done += 5000) {
                QList<CallRecord> batch;
                for (qint64 i = done; i < std::min(count, done + 5000); ++i)
                    batch.append(makeCall(rnd, words, i, start + i * 30000));
                if (!store.insertCalls(batch)) {
                    std::fprintf(stderr, "insert failed\n");
                    return 1;
                }
                if ((done / 5000) % 20 == 0) {
                    std::printf("  %lld calls\n", done + 5000);
                    std::fflush(stdout);
                }
            }
            print("generate + insert", timer.nsecsElapsed() / 1e9, "s");
        }
    }

    QElapsedTimer openTimer;
    openTimer.start();
    auto opened = Database::open(path);
    if (!opened)
        return 1;
    CallStore store(**opened);
    const double openMs = openTimer.nsecsElapsed() / 1e6;
    print("database: open (checks, migrations)", openMs, "ms");

    HistoryQuery first;
    first.limit = 200;
    print("store: first page of 200 (no filter)", medianMs([&] { store.listCalls(first); }), "ms");
    HistoryQuery rare = first;
    rare.search = u"zanzibarite"_s;
    print("store: search, rare word, first page", medianMs([&] { store.listCalls(rare); }), "ms");
    HistoryQuery common = first;
    common.search = u"kaka0"_s;
    print("store: search, common word, first page", medianMs([&] { store.listCalls(common); }),
          "ms");

    // The widget: constructed, shown, first page loaded and painted.
    QElapsedTimer shown;
    shown.start();
    HistoryBrowser browser(&store);
    browser.resize(1200, 800);
    browser.show();
    QApplication::processEvents();
    browser.view()->viewport()->grab();
    const double firstPageMs = shown.nsecsElapsed() / 1e6;
    print("view: open browser, first page shown and painted", firstPageMs, "ms");
    std::printf("  (%d rows loaded)\n", browser.model()->rowCount());

    print("view: next page while scrolling (fetchMore + paint)", medianMs([&] {
              browser.model()->fetchMore({});
              browser.view()->scrollToBottom();
              QApplication::processEvents();
              browser.view()->viewport()->grab();
          }),
          "ms");

    auto timeFilter = [&](auto &&apply) {
        return medianMs([&] {
            apply();
            QApplication::processEvents();
            browser.view()->viewport()->grab();
        });
    };
    print("view: filter status=failed (query + paint)", timeFilter([&] {
              browser.statusCombo()->setCurrentIndex(0);
              browser.statusCombo()->setCurrentIndex(browser.statusCombo()->findData(u"failed"_s));
          }),
          "ms");
    browser.statusCombo()->setCurrentIndex(0);
    print("view: search rare word (query + paint, debounce excluded)", timeFilter([&] {
              const QSignalBlocker block(browser.searchEdit());
              browser.searchEdit()->setText(u"zanzibarite"_s);
              browser.applyFilters();
          }),
          "ms");
    std::printf("  (%d rows)\n", browser.model()->rowCount());
    print("view: search common word (query + paint, debounce excluded)", timeFilter([&] {
              const QSignalBlocker block(browser.searchEdit());
              browser.searchEdit()->setText(u"kaka0"_s);
              browser.applyFilters();
          }),
          "ms");
    std::printf("  (%d rows)\n", browser.model()->rowCount());
    // The whole wait a user sees after typing: debounce (300 ms) + query + paint.
    QElapsedTimer typed;
    {
        const QSignalBlocker block(browser.searchEdit());
        browser.searchEdit()->clear();
        browser.applyFilters();
    }
    typed.start();
    browser.searchEdit()->setText(u"zanzibarite"_s);
    while (browser.model()->query().search.isEmpty())
        QApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
    browser.view()->viewport()->grab();
    print("view: typed search to results shown (with the 300 ms debounce)",
          typed.nsecsElapsed() / 1e6, "ms");
    return 0;
}
