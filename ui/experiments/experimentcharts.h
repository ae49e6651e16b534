#pragma once

// Three small charts of an experiment's variants, drawn with QPainter: the pass rate (passed,
// flaky and failed cases as one bar per variant), cost against pass rate (one point per
// variant; variants with no price sit in their own "no price" column), and the latency of every
// run (a dot per run, with the p50 and p95 marked). They follow the matrix model's figures.

#include <QWidget>

namespace Callscope {

class MatrixModel;

class ExperimentCharts final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ExperimentCharts)

public:
    explicit ExperimentCharts(MatrixModel *matrix, QWidget *parent = nullptr);
    ~ExperimentCharts() override;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    void paintPassRate(QPainter &p, const QRect &area) const;
    void paintCost(QPainter &p, const QRect &area) const;
    void paintLatency(QPainter &p, const QRect &area) const;
    QRect drawTitle(QPainter &p, const QRect &area, const QString &title) const;

    MatrixModel *m_matrix = nullptr;
};

} // namespace Callscope
