#pragma once

// The experiment matrix as a table: one row per case, one column per variant. Each cell holds
// what the core's summary says of that case in that variant (its runs over the repeats, their
// verdicts and failing assertions); nothing is judged here. Cells are updated in place as runs
// finish, so the view keeps its scroll position and selection.
//
// Also the per-variant figures (pass rate, score, tokens, cost, latency) as the summary gives
// them, and a small model that lists them one row per variant.

#include <QAbstractTableModel>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QSortFilterProxyModel>
#include <QStringList>

#include <optional>

namespace Callscope {

enum class CellVerdict { NotRun, Partial, Pass, Flaky, Fail };

struct MatrixRun
{
    int repeat = 0;
    qint64 callId = 0;
    QString status;
    bool passed = false;
    qint64 latencyMs = 0;
    std::optional<double> costUsd;
    qint64 inputTokens = 0;
    qint64 outputTokens = 0;
    double score = 0;
    bool cached = false; // answered from the response cache, no request sent
    QStringList failures; // "name: reason" of every assertion that did not pass
};

struct MatrixCell
{
    CellVerdict verdict = CellVerdict::NotRun;
    int passedRuns = 0;
    int doneRuns = 0; // runs that finished (cancelled ones not counted)
    QList<MatrixRun> runs;
    // The call a click opens: the first failing run's, else the first run's (0 when none).
    qint64 representativeCall() const;
};

struct VariantFigures
{
    QString name;
    int cases = 0;
    int passed = 0;
    int failed = 0;
    int flaky = 0;
    int runs = 0;
    double passRate = 0;
    double score = 0;
    qint64 inputTokens = 0;
    qint64 outputTokens = 0;
    std::optional<double> costUsd; // none: some run's model has no price
    qint64 p50 = 0;
    qint64 p95 = 0;
    QList<qint64> latencies; // every finished run's
};

class MatrixModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MatrixModel)

public:
    enum Role {
        VerdictRole = Qt::UserRole + 1, // int (CellVerdict)
        PassedRunsRole,
        DoneRunsRole,
        RepeatRole, // runs a complete cell has
        RunPassesRole, // QVariantList: per repeat 1 passed, 0 failed, -1 not done
        CallIdRole, // the representative call
        CallIdsRole, // QVariantList of every run's call id
        CaseRole,
        VariantRole,
    };

    explicit MatrixModel(QObject *parent = nullptr);
    ~MatrixModel() override;

    // The shape: cases x variants, `repeat` runs a cell. Every cell starts as not run.
    void setLayout(const QStringList &cases, const QStringList &variants, int repeat);
    void clear() { setLayout({}, {}, 1); }
    // Fills the cells and the figures from ExperimentRun::summary().
    void setSummary(const QJsonObject &summary);
    // One cell as ExperimentRun::cell() gives it (the figures wait for the next summary).
    void setCell(const QJsonObject &cell);

    const MatrixCell &cell(int row, int column) const;
    QStringList cases() const { return m_cases; }
    QStringList variants() const { return m_variants; }
    int repeat() const { return m_repeat; }
    const QList<VariantFigures> &figures() const { return m_figures; }
    // Counts of cells by verdict (the test compares them with the summary); in one column
    // when `column` >= 0.
    int count(CellVerdict verdict, int column = -1) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    QString toolTip(int row, int column) const;

Q_SIGNALS:
    void figuresChanged();

private:
    QModelIndex applyCell(const QJsonObject &cell);

    QStringList m_cases;
    QStringList m_variants;
    QHash<QString, int> m_caseRow;
    QHash<QString, int> m_variantColumn;
    int m_repeat = 1;
    QList<MatrixCell> m_cells; // row-major
    QList<VariantFigures> m_figures;
};

// Which cases the matrix shows: all, those not passing, only flaky or only failing ones, and
// all variants or one.
class MatrixFilter final : public QSortFilterProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MatrixFilter)

public:
    enum class Show { All, NotPassing, Flaky, Failing };

    explicit MatrixFilter(QObject *parent = nullptr);
    ~MatrixFilter() override;

    void setShow(Show show);
    Show show() const { return m_show; }
    // -1: every variant.
    void setVariantColumn(int column);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool filterAcceptsColumn(int sourceColumn, const QModelIndex &sourceParent) const override;

private:
    Show m_show = Show::All;
    int m_column = -1;
};

// The figures one row per variant: pass rate, passed / flaky / failed (and cases still to run),
// score, tokens, cost (or "no price"), latency p50 and p95.
class VariantSummaryModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(VariantSummaryModel)

public:
    enum Column {
        VariantColumn,
        PassRateColumn,
        CountsColumn,
        ScoreColumn,
        TokensColumn,
        CostColumn,
        LatencyColumn,
        ColumnCount
    };

    explicit VariantSummaryModel(MatrixModel *matrix, QObject *parent = nullptr);
    ~VariantSummaryModel() override;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    MatrixModel *m_matrix = nullptr;
};

// Plain figures for people: "1.2 s", "12.3k", "$0.0123", "no price".
QString formatLatency(qint64 ms);
QString formatTokens(qint64 tokens);
QString formatCost(const std::optional<double> &usd);

} // namespace Callscope
