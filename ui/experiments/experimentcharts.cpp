#include "ui/experiments/experimentcharts.h"

#include "ui/experiments/matrixdelegate.h"
#include "ui/experiments/matrixmodel.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

// A colour per variant for the scatter points (distinct on light and dark backgrounds).
QColor seriesColor(int i)
{
    static const QColor colors[] = { QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x27, 0x28),
                                     QColor(0x2c, 0xa0, 0x2c), QColor(0x94, 0x67, 0xbd),
                                     QColor(0xff, 0x7f, 0x0e), QColor(0x17, 0xbe, 0xcf),
                                     QColor(0x8c, 0x56, 0x4b), QColor(0xe3, 0x77, 0xc2) };
    return colors[i % int(std::size(colors))];
}

} // namespace

ExperimentCharts::ExperimentCharts(MatrixModel *matrix, QWidget *parent)
    : QWidget(parent)
    , m_matrix(matrix)
{
    setObjectName(u"experimentCharts"_s);
    setAccessibleName(tr("Charts: pass rate, cost and latency per variant"));
    connect(matrix, &MatrixModel::figuresChanged, this, qOverload<>(&QWidget::update));
    connect(matrix, &QAbstractItemModel::modelReset, this, qOverload<>(&QWidget::update));
}

ExperimentCharts::~ExperimentCharts() = default;

QSize ExperimentCharts::sizeHint() const
{
    return { 720, 200 };
}

QSize ExperimentCharts::minimumSizeHint() const
{
    return { 420, 150 };
}

QRect ExperimentCharts::drawTitle(QPainter &p, const QRect &area, const QString &title) const
{
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(palette().color(QPalette::WindowText));
    const int h = QFontMetrics(bold).height();
    p.drawText(QRect(area.left(), area.top(), area.width(), h), Qt::AlignLeft | Qt::AlignVCenter,
               QFontMetrics(bold).elidedText(title, Qt::ElideRight, area.width()));
    p.setFont(font());
    return area.adjusted(0, h + 6, 0, 0);
}

void ExperimentCharts::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().color(QPalette::Base));
    const QList<VariantFigures> &figures = m_matrix->figures();
    if (figures.isEmpty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("Open an experiment to see its charts."));
        return;
    }
    const QRect inner = rect().adjusted(10, 8, -10, -8);
    const int gap = 18;
    if (inner.width() >= 960) {
        // Wide: three side by side.
        const int w = (inner.width() - 2 * gap) / 3;
        paintPassRate(p, QRect(inner.left(), inner.top(), w, inner.height()));
        paintCost(p, QRect(inner.left() + w + gap, inner.top(), w, inner.height()));
        paintLatency(p, QRect(inner.left() + 2 * (w + gap), inner.top(), w, inner.height()));
        return;
    }
    // Narrow: the two charts with a row per variant on the left, one above the other; the
    // scatter on the right.
    const int left = (inner.width() - gap) * 11 / 20;
    const int half = (inner.height() - gap) / 2;
    paintPassRate(p, QRect(inner.left(), inner.top(), left, half));
    paintLatency(p,
                 QRect(inner.left(), inner.top() + half + gap, left, inner.height() - half - gap));
    paintCost(
        p,
        QRect(inner.left() + left + gap, inner.top(), inner.width() - left - gap, inner.height()));
}

void ExperimentCharts::paintPassRate(QPainter &p, const QRect &area) const
{
    const QRect body = drawTitle(p, area, tr("Pass rate per variant"));
    const QList<VariantFigures> &figures = m_matrix->figures();
    const bool dark = palette().color(QPalette::Base).lightness() < 128;
    const QFontMetrics fm(font());
    const int n = int(figures.size());
    const int legend = fm.height() + 4;
    const int rowH = std::clamp((body.height() - legend) / std::max(1, n), 8, fm.height() + 10);
    const int nameW = std::min(body.width() / 3, 110);
    const int pctW = fm.horizontalAdvance(u"100%"_s) + 6;
    for (int i = 0; i < n; ++i) {
        const VariantFigures &f = figures.at(i);
        const QRect row(body.left(), body.top() + i * rowH, body.width(), rowH);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(row.left(), row.top(), nameW - 4, rowH), Qt::AlignLeft | Qt::AlignVCenter,
                   fm.elidedText(f.name, Qt::ElideRight, nameW - 4));
        const QRect bar(row.left() + nameW, row.top() + 3, row.width() - nameW - pctW, rowH - 6);
        p.fillRect(bar, verdictColors(CellVerdict::NotRun, dark).fill);
        const int cases = std::max(1, f.cases);
        int x = bar.left();
        for (const auto &[count, verdict] :
             { std::pair { f.passed, CellVerdict::Pass }, std::pair { f.flaky, CellVerdict::Flaky },
               std::pair { f.failed, CellVerdict::Fail } }) {
            if (f.runs == 0)
                break;
            const int width = qRound(double(bar.width()) * count / cases);
            p.fillRect(QRect(x, bar.top(), width, bar.height()),
                       verdictColors(verdict, dark).fill.darker(dark ? 70 : 115));
            x += width;
        }
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(bar.right() + 4, row.top(), pctW, rowH), Qt::AlignRight | Qt::AlignVCenter,
                   f.runs ? tr("%1%").arg(qRound(f.passRate * 100)) : tr("–"));
    }
    // Legend.
    int x = body.left() + nameW;
    const int y = body.top() + n * rowH + 2;
    for (const auto &[label, verdict] : { std::pair { tr("passed"), CellVerdict::Pass },
                                          std::pair { tr("flaky"), CellVerdict::Flaky },
                                          std::pair { tr("failed"), CellVerdict::Fail } }) {
        p.fillRect(QRect(x, y + fm.height() / 2 - 4, 8, 8),
                   verdictColors(verdict, dark).fill.darker(dark ? 70 : 115));
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(QPoint(x + 11, y + fm.ascent()), label);
        x += 11 + fm.horizontalAdvance(label) + 10;
    }
}

void ExperimentCharts::paintCost(QPainter &p, const QRect &area) const
{
    const QRect body = drawTitle(p, area, tr("Cost (total) and pass rate"));
    const QList<VariantFigures> &figures = m_matrix->figures();
    const QFontMetrics fm(font());
    const QColor axis = palette().color(QPalette::PlaceholderText);
    double maxCost = 0;
    bool anyUnpriced = false;
    for (const VariantFigures &f : figures) {
        if (f.runs == 0)
            continue;
        if (f.costUsd)
            maxCost = std::max(maxCost, *f.costUsd);
        else
            anyUnpriced = true;
    }
    if (maxCost <= 0 && anyUnpriced
        && std::none_of(figures.begin(), figures.end(),
                        [](const VariantFigures &f) { return f.costUsd && f.runs; })) {
        p.setPen(axis);
        p.drawText(body.adjusted(4, 4, -4, -4), Qt::AlignCenter | Qt::TextWordWrap,
                   tr("No price for the models of these variants, so no cost to compare. Add them "
                      "to your own "
                      "price table (the setting prices/file) to see it here."));
        return;
    }
    const int labelW = fm.horizontalAdvance(u"100%"_s) + 4;
    const int noPriceW = anyUnpriced ? fm.horizontalAdvance(tr("no price")) + 8 : 0;
    const QRect plot(body.left() + labelW + noPriceW, body.top() + 4,
                     body.width() - labelW - noPriceW - 8, body.height() - fm.height() - 10);
    if (plot.width() < 20 || plot.height() < 20)
        return;
    p.setPen(axis);
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    p.drawLine(plot.bottomLeft(), plot.topLeft());
    p.drawText(QRect(body.left(), plot.top() - fm.height() / 2, labelW - 4, fm.height()),
               Qt::AlignRight | Qt::AlignVCenter, tr("100%"));
    p.drawText(QRect(body.left(), plot.bottom() - fm.height() / 2, labelW - 4, fm.height()),
               Qt::AlignRight | Qt::AlignVCenter, tr("0%"));
    p.drawText(QRect(plot.left(), plot.bottom() + 3, plot.width(), fm.height()), Qt::AlignLeft,
               formatCost(0.0));
    p.drawText(QRect(plot.left(), plot.bottom() + 3, plot.width(), fm.height()), Qt::AlignRight,
               formatCost(maxCost));
    if (anyUnpriced) {
        const QRect lane(body.left() + labelW, plot.top(), noPriceW - 4, plot.height());
        QColor shade = axis;
        shade.setAlpha(30);
        p.fillRect(lane, shade);
        p.setPen(axis);
        p.drawText(QRect(lane.left(), plot.bottom() + 3, lane.width() + 4, fm.height()),
                   Qt::AlignLeft, tr("no price"));
    }
    for (int i = 0; i < figures.size(); ++i) {
        const VariantFigures &f = figures.at(i);
        if (f.runs == 0)
            continue;
        const int y = plot.bottom() - qRound(f.passRate * plot.height());
        int x;
        if (f.costUsd)
            x = plot.left() + (maxCost > 0 ? qRound(*f.costUsd / maxCost * (plot.width() - 10)) : 0)
                + 5;
        else
            x = body.left() + labelW + (noPriceW - 4) / 2;
        p.setPen(QPen(seriesColor(i), 2));
        p.setBrush(f.costUsd ? QBrush(seriesColor(i)) : QBrush(Qt::NoBrush));
        p.drawEllipse(QPoint(x, y), 5, 5);
        p.setPen(palette().color(QPalette::WindowText));
        const QString name = fm.elidedText(f.name, Qt::ElideRight, 90);
        const int textW = fm.horizontalAdvance(name);
        const int tx = x + 8 + textW > body.right() ? x - 8 - textW : x + 8;
        p.drawText(
            QPoint(tx,
                   std::clamp(y + fm.ascent() / 2, plot.top() + fm.ascent(), plot.bottom() - 2)),
            name);
    }
    p.setBrush(Qt::NoBrush);
}

void ExperimentCharts::paintLatency(QPainter &p, const QRect &area) const
{
    const QRect body = drawTitle(p, area, tr("Latency of each run"));
    const QList<VariantFigures> &figures = m_matrix->figures();
    const QFontMetrics fm(font());
    const QColor axis = palette().color(QPalette::PlaceholderText);
    qint64 maxLatency = 1;
    for (const VariantFigures &f : figures) {
        for (qint64 l : f.latencies)
            maxLatency = std::max(maxLatency, l);
    }
    const int n = int(figures.size());
    const int nameW = std::min(body.width() / 3, 110);
    const QRect plot(body.left() + nameW, body.top(), body.width() - nameW - 6,
                     body.height() - 2 * fm.height() - 8);
    const int rowH = std::clamp(plot.height() / std::max(1, n), 8, fm.height() + 10);
    auto xFor = [&](qint64 ms) {
        return plot.left() + int(double(ms) / double(maxLatency) * (plot.width() - 1));
    };
    for (int i = 0; i < n; ++i) {
        const VariantFigures &f = figures.at(i);
        const QRect row(body.left(), plot.top() + i * rowH, body.width(), rowH);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(row.left(), row.top(), nameW - 4, rowH), Qt::AlignLeft | Qt::AlignVCenter,
                   fm.elidedText(f.name, Qt::ElideRight, nameW - 4));
        QColor dot = seriesColor(i);
        dot.setAlpha(f.latencies.size() > 200 ? 60 : 140);
        p.setPen(Qt::NoPen);
        p.setBrush(dot);
        const int cy = row.center().y();
        int k = 0;
        for (qint64 l : f.latencies) {
            // A small fixed jitter spreads runs of the same latency.
            const int jitter = ((k++ * 7) % 9) - 4;
            p.drawEllipse(QPointF(xFor(l), cy + jitter * (rowH - 8) / 10.0), 2.5, 2.5);
        }
        p.setBrush(Qt::NoBrush);
        if (!f.latencies.isEmpty()) {
            p.setPen(QPen(palette().color(QPalette::WindowText), 2));
            p.drawLine(xFor(f.p50), row.top() + 2, xFor(f.p50), row.bottom() - 2);
            p.setPen(QPen(palette().color(QPalette::WindowText), 1, Qt::DashLine));
            p.drawLine(xFor(f.p95), row.top() + 2, xFor(f.p95), row.bottom() - 2);
        }
    }
    p.setPen(axis);
    const int axisY = plot.top() + n * rowH + 2;
    p.drawLine(plot.left(), axisY, plot.right(), axisY);
    p.drawText(QRect(plot.left(), axisY + 2, plot.width(), fm.height()), Qt::AlignLeft, tr("0"));
    p.drawText(QRect(plot.left(), axisY + 2, plot.width(), fm.height()), Qt::AlignRight,
               formatLatency(maxLatency));
    // Legend: the solid mark is the median, the dashed one the 95th percentile.
    const int ly = axisY + 4 + fm.height();
    p.setPen(QPen(palette().color(QPalette::WindowText), 2));
    p.drawLine(plot.left(), ly + 2, plot.left(), ly + fm.height() - 2);
    p.setPen(axis);
    const QString p50 = tr("p50 (half the runs are faster)");
    p.drawText(QPoint(plot.left() + 6, ly + fm.ascent()), p50);
    const int x95 = plot.left() + 6 + fm.horizontalAdvance(p50) + 14;
    p.setPen(QPen(palette().color(QPalette::WindowText), 1, Qt::DashLine));
    p.drawLine(x95, ly + 2, x95, ly + fm.height() - 2);
    p.setPen(axis);
    p.drawText(QPoint(x95 + 6, ly + fm.ascent()), tr("p95"));
}

} // namespace Callscope
