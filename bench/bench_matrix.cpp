// The experiment matrix at scale, offscreen: N cases x V variants x R repeats (default 1,000 x 2
// x 3 = 2,000 cells) in the real Experiment view. Times what the person waits for: filling the
// matrix from a summary (done after every batch of finished runs), the first paint, and each
// frame while scrolling down and across (a synchronous repaint of the matrix after each scroll
// step), with the filter switched to "not passing" as a last pass.
//
//   bench_matrix [--cases N] [--variants V] [--repeat R] [--steps S]

#include "ui/experiments/experimentview.h"
#include "ui/experiments/matrixmodel.h"

#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QScrollBar>
#include <QStackedWidget>
#include <QTableView>

#include <algorithm>
#include <cstdio>

using namespace Qt::StringLiterals;
using namespace Callscope;

namespace {

void print(const char *label, double value, const char *unit)
{
    std::printf("%-56s %10.3f %s\n", label, value, unit);
    std::fflush(stdout);
}

// A summary as ExperimentRun::summary() gives it: cells pass, fail or are flaky by a fixed pattern.
QJsonObject makeSummary(int cases, int variants, int repeat)
{
    QJsonArray cells, figures;
    for (int v = 0; v < variants; ++v) {
        const QString variant = u"variant %1"_s.arg(v + 1);
        for (int c = 0; c < cases; ++c) {
            QJsonArray runs;
            int good = 0;
            for (int k = 0; k < repeat; ++k) {
                const bool passed = (c * 7 + v * 3 + k) % 5 != 0;
                good += passed;
                QJsonArray assertions { QJsonObject {
                    { u"type"_s, u"equals"_s },
                    { u"name"_s, u"equals"_s },
                    { u"passed"_s, passed },
                    { u"reason"_s,
                      passed ? QJsonValue() : QJsonValue(u"expected \"ok\", got \"bad\""_s) } } };
                runs.append(QJsonObject {
                    { u"repeat"_s, k },
                    { u"call_id"_s, c * 10 + k + 1 },
                    { u"status"_s, u"completed"_s },
                    { u"passed"_s, passed },
                    { u"latency_ms"_s, 400 + (c * 37 + k * 11) % 900 },
                    { u"cost_usd"_s, 0.0004 },
                    { u"tokens"_s, QJsonObject { { u"input"_s, 240 }, { u"output"_s, 40 } } },
                    { u"score"_s, passed ? 1.0 : 0.0 },
                    { u"assertions"_s, assertions } });
            }
            cells.append(QJsonObject { { u"case"_s, u"case-%1"_s.arg(c + 1) },
                                       { u"variant"_s, variant },
                                       { u"passed"_s, good == repeat },
                                       { u"flaky"_s, good > 0 && good < repeat },
                                       { u"runs"_s, runs } });
        }
        figures.append(QJsonObject {
            { u"name"_s, variant },
            { u"cases"_s, cases },
            { u"passed"_s, cases / 2 },
            { u"failed"_s, cases / 4 },
            { u"flaky"_s, cases / 4 },
            { u"pass_rate"_s, 0.5 },
            { u"runs"_s, cases * repeat },
            { u"tokens"_s,
              QJsonObject { { u"input"_s, 240 * cases }, { u"output"_s, 40 * cases } } },
            { u"cost_usd"_s, 0.0004 * cases },
            { u"latency_ms"_s, QJsonObject { { u"p50"_s, 800 }, { u"p95"_s, 1250 } } } });
    }
    return QJsonObject { { u"variants"_s, figures }, { u"cells"_s, cells } };
}

struct Frames
{
    QList<double> ms;
    void add(double v) { ms.append(v); }
    void report(const char *what) const
    {
        QList<double> sorted = ms;
        std::sort(sorted.begin(), sorted.end());
        const auto at = [&](double p) {
            return sorted.at(std::min<qsizetype>(sorted.size() - 1, qsizetype(p * sorted.size())));
        };
        std::printf(
            "%-28s frames %4lld   p50 %7.3f ms   p95 %7.3f ms   max %7.3f ms   over 16 ms: %lld\n",
            what, qlonglong(sorted.size()), at(0.5), at(0.95), sorted.constLast(),
            qlonglong(
                std::count_if(sorted.begin(), sorted.end(), [](double v) { return v > 16.0; })));
        std::fflush(stdout);
    }
};

} // namespace

int main(int argc, char *argv[])
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    int cases = 1000, variants = 2, repeat = 3, steps = 400;
    const QStringList args = app.arguments().mid(1);
    for (qsizetype i = 0; i + 1 < args.size(); i += 2) {
        const int value = args.at(i + 1).toInt();
        if (args.at(i) == u"--cases")
            cases = value;
        else if (args.at(i) == u"--variants")
            variants = value;
        else if (args.at(i) == u"--repeat")
            repeat = value;
        else if (args.at(i) == u"--steps")
            steps = value;
    }
    std::printf("matrix: %d cases x %d variants (%d cells), %d repeats each\n", cases, variants,
                cases * variants, repeat);

    ExperimentView view(nullptr, nullptr);
    view.resize(1280, 800);
    view.show();
    QCoreApplication::processEvents();
    QStringList caseIds, variantNames;
    for (int c = 0; c < cases; ++c)
        caseIds.append(u"case-%1"_s.arg(c + 1));
    for (int v = 0; v < variants; ++v)
        variantNames.append(u"variant %1"_s.arg(v + 1));
    const QJsonObject summary = makeSummary(cases, variants, repeat);

    QElapsedTimer timer;
    // What the view asks the core for after runs finish: the summary of every stored run.
    {
        Experiment experiment;
        experiment.repeat = repeat;
        for (const QString &id : caseIds) {
            DatasetRow row;
            row.id = id;
            experiment.rows.append(row);
        }
        for (const QString &name : variantNames) {
            Variant variant;
            variant.name = name;
            experiment.variants.append(variant);
        }
        QList<ExperimentRunRecord> runs;
        for (int c = 0; c < cases; ++c) {
            for (int v = 0; v < variants; ++v) {
                for (int k = 0; k < repeat; ++k) {
                    ExperimentRunRecord r;
                    r.caseId = caseIds.at(c);
                    r.variant = variantNames.at(v);
                    r.repeat = k;
                    r.callId = c * 10 + k + 1;
                    r.status = u"completed"_s;
                    r.passed = (c * 7 + v * 3 + k) % 5 != 0;
                    r.assertions = QJsonArray { QJsonObject { { u"type"_s, u"equals"_s },
                                                              { u"name"_s, u"equals"_s },
                                                              { u"passed"_s, r.passed } } };
                    r.latencyMs = 400 + (c * 37 + k * 11) % 900;
                    runs.append(r);
                }
            }
        }
        ExperimentRun run(nullptr, experiment);
        run.setPreviousRuns(runs);
        QList<double> times;
        for (int i = 0; i < 5; ++i) {
            timer.start();
            const QJsonObject all = run.summary();
            times.append(timer.nsecsElapsed() / 1e6);
            if (all.value(u"cells"_s).toArray().size() != cases * variants)
                return 1;
        }
        std::sort(times.begin(), times.end());
        print("core summary of every run (median of 5)", times.at(2), "ms");
        // What a finished run costs the view: its one cell from the core, into the model.
        view.matrixModel()->setLayout(caseIds, variantNames, repeat);
        QList<double> cellTimes;
        for (int i = 0; i < 200; ++i) {
            timer.start();
            view.matrixModel()->setCell(
                run.cell(caseIds.at(cases - 1 - i % cases), variantNames.at(i % variants)));
            cellTimes.append(timer.nsecsElapsed() / 1e6);
        }
        std::sort(cellTimes.begin(), cellTimes.end());
        print("one finished run: its cell from the core (median)", cellTimes.at(100), "ms");
        print("one finished run: its cell from the core (max)", cellTimes.constLast(), "ms");
    }
    timer.start();
    view.matrixModel()->setLayout(caseIds, variantNames, repeat);
    print("layout (cases x variants, all not run)", timer.nsecsElapsed() / 1e6, "ms");
    // The results page is what a loaded experiment shows.
    view.resultTabs()->setCurrentIndex(0);
    timer.restart();
    view.matrixModel()->setSummary(summary);
    print("fill from the summary (every cell)", timer.nsecsElapsed() / 1e6, "ms");
    QList<double> fills;
    for (int i = 0; i < 10; ++i) {
        timer.restart();
        view.matrixModel()->setSummary(summary);
        fills.append(timer.nsecsElapsed() / 1e6);
    }
    std::sort(fills.begin(), fills.end());
    print("fill again (median of 10; after runs finish)", fills.at(5), "ms");

    QTableView *matrix = view.matrixView();
    // The results page, as a loaded experiment shows it.
    if (auto *pages = view.findChild<QStackedWidget *>(QString(), Qt::FindDirectChildrenOnly))
        pages->setCurrentIndex(pages->count() - 1);
    QCoreApplication::processEvents();
    timer.restart();
    matrix->viewport()->repaint();
    print("first paint of the matrix", timer.nsecsElapsed() / 1e6, "ms");

    Frames down, across, filtered;
    QScrollBar *vertical = matrix->verticalScrollBar();
    const int step = std::max(1, vertical->maximum() / steps);
    for (int i = 0; i < steps && vertical->value() < vertical->maximum(); ++i) {
        timer.restart();
        vertical->setValue(vertical->value() + step);
        matrix->viewport()->repaint();
        down.add(timer.nsecsElapsed() / 1e6);
    }
    down.report("scroll down");
    // A page at a time, back up.
    for (int i = 0; i < 60 && vertical->value() > 0; ++i) {
        timer.restart();
        vertical->setValue(vertical->value() - vertical->pageStep());
        matrix->viewport()->repaint();
        across.add(timer.nsecsElapsed() / 1e6);
    }
    across.report("page up");
    // Only the cases that do not pass.
    timer.restart();
    view.showCombo()->setCurrentIndex(1);
    QCoreApplication::processEvents();
    print("filter to \"not passing\"", timer.nsecsElapsed() / 1e6, "ms");
    vertical->setValue(0);
    for (int i = 0; i < steps / 2 && vertical->value() < vertical->maximum(); ++i) {
        timer.restart();
        vertical->setValue(vertical->value() + std::max(1, vertical->maximum() / (steps / 2)));
        matrix->viewport()->repaint();
        filtered.add(timer.nsecsElapsed() / 1e6);
    }
    filtered.report("scroll, filtered");
    timer.restart();
    const QImage image = view.grab().toImage();
    print("whole view painted (grab)", timer.nsecsElapsed() / 1e6, "ms");
    if (qEnvironmentVariableIsSet("BENCH_MATRIX_IMAGE"))
        image.save(qEnvironmentVariable("BENCH_MATRIX_IMAGE"));
    return image.isNull() ? 1 : 0;
}
