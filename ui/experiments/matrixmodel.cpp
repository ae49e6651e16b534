#include "ui/experiments/matrixmodel.h"

#include <QJsonArray>
#include <QLocale>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

const MatrixCell &emptyCell()
{
    static const MatrixCell cell;
    return cell;
}

QString verdictTitle(CellVerdict verdict)
{
    switch (verdict) {
    case CellVerdict::NotRun:
        return MatrixModel::tr("not run yet");
    case CellVerdict::Partial:
        return MatrixModel::tr("some repeats still to run");
    case CellVerdict::Pass:
        return MatrixModel::tr("passed in every repeat");
    case CellVerdict::Flaky:
        return MatrixModel::tr("flaky: passed in some repeats only");
    case CellVerdict::Fail:
        return MatrixModel::tr("failed");
    }
    return {};
}

} // namespace

QString formatLatency(qint64 ms)
{
    if (ms < 1000)
        return MatrixModel::tr("%1 ms").arg(ms);
    return MatrixModel::tr("%1 s").arg(
        QLocale().toString(double(ms) / 1000.0, 'f', ms < 10000 ? 2 : 1));
}

QString formatTokens(qint64 tokens)
{
    if (tokens < 10000)
        return QLocale().toString(tokens);
    if (tokens < 1000000)
        return MatrixModel::tr("%1k").arg(QLocale().toString(double(tokens) / 1000.0, 'f', 1));
    return MatrixModel::tr("%1M").arg(QLocale().toString(double(tokens) / 1e6, 'f', 2));
}

QString formatCost(const std::optional<double> &usd)
{
    if (!usd)
        return MatrixModel::tr("no price");
    const double v = *usd;
    const int decimals = v == 0 ? 2 : v < 0.01 ? 5 : v < 1 ? 4 : 2;
    return MatrixModel::tr("$%1").arg(QLocale().toString(v, 'f', decimals));
}

qint64 MatrixCell::representativeCall() const
{
    for (const MatrixRun &run : runs) {
        if (!run.passed && run.callId > 0 && run.status != u"cancelled"_s)
            return run.callId;
    }
    for (const MatrixRun &run : runs) {
        if (run.callId > 0)
            return run.callId;
    }
    return 0;
}

MatrixModel::MatrixModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

MatrixModel::~MatrixModel() = default;

void MatrixModel::setLayout(const QStringList &cases, const QStringList &variants, int repeat)
{
    beginResetModel();
    m_cases = cases;
    m_variants = variants;
    m_repeat = std::max(1, repeat);
    m_caseRow.clear();
    m_variantColumn.clear();
    for (int i = 0; i < cases.size(); ++i)
        m_caseRow.insert(cases.at(i), i);
    for (int i = 0; i < variants.size(); ++i)
        m_variantColumn.insert(variants.at(i), i);
    m_cells = QList<MatrixCell>(cases.size() * variants.size());
    m_figures.clear();
    for (const QString &name : variants) {
        VariantFigures f;
        f.name = name;
        f.cases = int(cases.size());
        m_figures.append(f);
    }
    endResetModel();
    Q_EMIT figuresChanged();
}

QModelIndex MatrixModel::applyCell(const QJsonObject &object)
{
    const int row = m_caseRow.value(object.value(u"case"_s).toString(), -1);
    const int column = m_variantColumn.value(object.value(u"variant"_s).toString(), -1);
    if (row < 0 || column < 0)
        return {};
    MatrixCell &cell = m_cells[row * m_variants.size() + column];
    cell = MatrixCell();
    for (const QJsonValue &r : object.value(u"runs"_s).toArray()) {
        const QJsonObject o = r.toObject();
        MatrixRun run;
        run.repeat = o.value(u"repeat"_s).toInt();
        run.callId = o.value(u"call_id"_s).toInteger();
        run.status = o.value(u"status"_s).toString();
        run.passed = o.value(u"passed"_s).toBool();
        run.latencyMs = o.value(u"latency_ms"_s).toInteger();
        run.cached = o.value(u"cached"_s).toBool();
        if (o.value(u"cost_usd"_s).isDouble())
            run.costUsd = o.value(u"cost_usd"_s).toDouble();
        const QJsonObject tokens = o.value(u"tokens"_s).toObject();
        // Every prompt token: uncached, read from the cache and written to it.
        run.inputTokens = tokens.value(u"input"_s).toInteger()
            + tokens.value(u"cache_read"_s).toInteger()
            + tokens.value(u"cache_write"_s).toInteger();
        run.outputTokens = tokens.value(u"output"_s).toInteger();
        run.score = o.value(u"score"_s).toDouble(run.passed ? 1 : 0);
        if (!run.passed) {
            for (const QJsonValue &a : o.value(u"assertions"_s).toArray()) {
                const QJsonObject assertion = a.toObject();
                if (!assertion.value(u"passed"_s).toBool())
                    run.failures.append(assertion.value(u"name"_s).toString() + u": "_s
                                        + assertion.value(u"reason"_s).toString());
            }
        }
        if (run.status != u"cancelled"_s) {
            ++cell.doneRuns;
            cell.passedRuns += run.passed ? 1 : 0;
        }
        cell.runs.append(run);
    }
    // The verdict is the summary's; a cell whose repeats are not all done yet waits.
    if (cell.doneRuns == 0)
        cell.verdict = CellVerdict::NotRun;
    else if (cell.doneRuns < m_repeat)
        cell.verdict = CellVerdict::Partial;
    else if (object.value(u"passed"_s).toBool())
        cell.verdict = CellVerdict::Pass;
    else if (object.value(u"flaky"_s).toBool())
        cell.verdict = CellVerdict::Flaky;
    else
        cell.verdict = CellVerdict::Fail;
    return index(row, column);
}

void MatrixModel::setCell(const QJsonObject &cell)
{
    const QModelIndex changed = applyCell(cell);
    if (changed.isValid())
        Q_EMIT dataChanged(changed, changed);
}

void MatrixModel::setSummary(const QJsonObject &summary)
{
    if (m_cells.isEmpty())
        return;
    for (const QJsonValue &value : summary.value(u"cells"_s).toArray())
        applyCell(value.toObject());
    for (const QJsonValue &value : summary.value(u"variants"_s).toArray()) {
        const QJsonObject o = value.toObject();
        const int column = m_variantColumn.value(o.value(u"name"_s).toString(), -1);
        if (column < 0)
            continue;
        VariantFigures &f = m_figures[column];
        f.cases = o.value(u"cases"_s).toInt();
        f.passed = o.value(u"passed"_s).toInt();
        f.failed = o.value(u"failed"_s).toInt();
        f.flaky = o.value(u"flaky"_s).toInt();
        f.runs = o.value(u"runs"_s).toInt();
        f.passRate = o.value(u"pass_rate"_s).toDouble();
        f.score = o.value(u"score"_s).toDouble();
        const QJsonObject tokens = o.value(u"tokens"_s).toObject();
        f.inputTokens = tokens.value(u"input"_s).toInteger()
            + tokens.value(u"cache_read"_s).toInteger()
            + tokens.value(u"cache_write"_s).toInteger();
        f.outputTokens = o.value(u"tokens"_s).toObject().value(u"output"_s).toInteger();
        f.costUsd.reset();
        if (o.value(u"cost_usd"_s).isDouble())
            f.costUsd = o.value(u"cost_usd"_s).toDouble();
        f.p50 = o.value(u"latency_ms"_s).toObject().value(u"p50"_s).toInteger();
        f.p95 = o.value(u"latency_ms"_s).toObject().value(u"p95"_s).toInteger();
        f.latencies.clear();
        for (int row = 0; row < m_cases.size(); ++row) {
            for (const MatrixRun &run : m_cells.at(row * m_variants.size() + column).runs) {
                if (run.status != u"cancelled"_s)
                    f.latencies.append(run.latencyMs);
            }
        }
    }
    Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
    Q_EMIT figuresChanged();
}

const MatrixCell &MatrixModel::cell(int row, int column) const
{
    if (row < 0 || column < 0 || row >= m_cases.size() || column >= m_variants.size())
        return emptyCell();
    return m_cells.at(row * m_variants.size() + column);
}

int MatrixModel::count(CellVerdict verdict, int column) const
{
    int n = 0;
    for (qsizetype i = 0; i < m_cells.size(); ++i) {
        if ((column < 0 || i % m_variants.size() == column) && m_cells.at(i).verdict == verdict)
            ++n;
    }
    return n;
}

int MatrixModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_cases.size());
}

int MatrixModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_variants.size());
}

QVariant MatrixModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    const MatrixCell &c = cell(index.row(), index.column());
    switch (role) {
    case Qt::DisplayRole:
        if (c.verdict == CellVerdict::NotRun)
            return QString();
        return tr("%1/%2").arg(c.passedRuns).arg(m_repeat);
    case Qt::AccessibleTextRole:
        return tr("%1 in %2: %3, %4 of %5 repeats passed")
            .arg(m_cases.at(index.row()), m_variants.at(index.column()), verdictTitle(c.verdict))
            .arg(c.passedRuns)
            .arg(m_repeat);
    case Qt::ToolTipRole:
        return toolTip(index.row(), index.column());
    case VerdictRole:
        return int(c.verdict);
    case PassedRunsRole:
        return c.passedRuns;
    case DoneRunsRole:
        return c.doneRuns;
    case RepeatRole:
        return m_repeat;
    case RunPassesRole: {
        QVariantList passes(m_repeat, -1);
        for (const MatrixRun &run : c.runs) {
            if (run.repeat >= 0 && run.repeat < m_repeat && run.status != u"cancelled"_s)
                passes[run.repeat] = run.passed ? 1 : 0;
        }
        return passes;
    }
    case CallIdRole:
        return c.representativeCall();
    case CallIdsRole: {
        QVariantList ids;
        for (const MatrixRun &run : c.runs)
            ids.append(run.callId);
        return ids;
    }
    case CaseRole:
        return m_cases.at(index.row());
    case VariantRole:
        return m_variants.at(index.column());
    default:
        return {};
    }
}

QVariant MatrixModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    if (orientation == Qt::Horizontal) {
        if (section < 0 || section >= m_variants.size())
            return {};
        if (role == Qt::ToolTipRole) {
            const VariantFigures &f = m_figures.at(section);
            return tr("%1: %2 of %3 cases passed, %4 flaky")
                .arg(f.name)
                .arg(f.passed)
                .arg(f.cases)
                .arg(f.flaky);
        }
        return m_variants.at(section);
    }
    if (section < 0 || section >= m_cases.size())
        return {};
    return m_cases.at(section);
}

QString MatrixModel::toolTip(int row, int column) const
{
    const MatrixCell &c = cell(row, column);
    if (row < 0 || row >= m_cases.size() || column < 0 || column >= m_variants.size())
        return {};
    QString html = u"<b>%1</b> · %2<br>%3"_s.arg(m_cases.at(row).toHtmlEscaped(),
                                                 m_variants.at(column).toHtmlEscaped(),
                                                 verdictTitle(c.verdict).toHtmlEscaped());
    if (c.doneRuns > 0)
        html += tr(" (%1 of %2 repeats passed)").arg(c.passedRuns).arg(m_repeat).toHtmlEscaped();
    for (const MatrixRun &run : c.runs) {
        html += u"<br><br>"_s;
        html += tr("Repeat %1: %2, %3")
                    .arg(run.repeat + 1)
                    .arg(run.passed ? tr("passed") : tr("not passed"), run.status)
                    .toHtmlEscaped();
        html += u"<br>"_s
            + tr("%1 · %2 in / %3 out tokens · %4")
                  .arg(formatLatency(run.latencyMs), formatTokens(run.inputTokens),
                       formatTokens(run.outputTokens), formatCost(run.costUsd))
                  .toHtmlEscaped();
        if (run.cached)
            html +=
                u"<br>"_s + tr("Answered from the response cache: no request sent").toHtmlEscaped();
        if (run.callId > 0)
            html += u"<br>"_s + tr("Call %1").arg(run.callId).toHtmlEscaped();
        for (const QString &failure : run.failures)
            html += u"<br>&#10007; "_s + failure.left(300).toHtmlEscaped();
    }
    if (c.representativeCall() > 0)
        html += u"<br><br><i>%1</i>"_s.arg(
            tr("Click to open the call; select two cells of a case to compare them.")
                .toHtmlEscaped());
    return html;
}

// ---- MatrixFilter ----------------------------------------------------------------------------

MatrixFilter::MatrixFilter(QObject *parent)
    : QSortFilterProxyModel(parent)
{ }

MatrixFilter::~MatrixFilter() = default;

void MatrixFilter::setShow(Show show)
{
    if (m_show == show)
        return;
    m_show = show;
    invalidateRowsFilter();
}

void MatrixFilter::setVariantColumn(int column)
{
    if (m_column == column)
        return;
    m_column = column;
    invalidateFilter();
}

bool MatrixFilter::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (m_show == Show::All)
        return true;
    const auto *matrix = qobject_cast<const MatrixModel *>(sourceModel());
    if (!matrix)
        return true;
    for (int column = 0; column < matrix->columnCount(sourceParent); ++column) {
        if (m_column >= 0 && column != m_column)
            continue;
        const CellVerdict v = matrix->cell(sourceRow, column).verdict;
        if (m_show == Show::Flaky && v == CellVerdict::Flaky)
            return true;
        if (m_show == Show::Failing && v == CellVerdict::Fail)
            return true;
        if (m_show == Show::NotPassing && (v == CellVerdict::Fail || v == CellVerdict::Flaky))
            return true;
    }
    return false;
}

bool MatrixFilter::filterAcceptsColumn(int sourceColumn, const QModelIndex &) const
{
    return m_column < 0 || sourceColumn == m_column;
}

// ---- VariantSummaryModel ---------------------------------------------------------------------

VariantSummaryModel::VariantSummaryModel(MatrixModel *matrix, QObject *parent)
    : QAbstractTableModel(parent)
    , m_matrix(matrix)
{
    connect(matrix, &QAbstractItemModel::modelReset, this, [this] {
        beginResetModel();
        endResetModel();
    });
    connect(matrix, &MatrixModel::figuresChanged, this, [this] {
        if (rowCount() > 0)
            Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    });
}

VariantSummaryModel::~VariantSummaryModel() = default;

int VariantSummaryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_matrix->figures().size());
}

int VariantSummaryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant VariantSummaryModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_matrix->figures().size())
        return {};
    const VariantFigures &f = m_matrix->figures().at(index.row());
    if (role == Qt::TextAlignmentRole)
        return index.column() == VariantColumn ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                               : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) {
        switch (index.column()) {
        case ScoreColumn:
            return tr("The assertions that passed, each counted by its weight (default 1), "
                      "averaged over the runs");
        case CostColumn:
            return f.costUsd
                ? tr("From the price table")
                : tr(
                    "A model of this variant is not in the price table, so the total is not known");
        case CountsColumn:
            return tr("Cases that passed in every repeat · passed in some only (flaky) · failed; "
                      "and those not run in every repeat yet");
        case LatencyColumn:
            return tr("Half the runs took at most the first figure, 95 in 100 at most the second");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    const bool any = f.runs > 0;
    switch (index.column()) {
    case VariantColumn:
        return f.name;
    case PassRateColumn:
        return any ? tr("%1%").arg(qRound(f.passRate * 100)) : QString();
    case CountsColumn: {
        if (!any)
            return QString();
        // Each case as its cell shows it; cases whose repeats have not all run are counted apart
        // (the summary counts them as not passed).
        const int column = index.row();
        const int open = m_matrix->count(CellVerdict::NotRun, column)
            + m_matrix->count(CellVerdict::Partial, column);
        const QString counts = tr("%1 · %2 · %3")
                                   .arg(m_matrix->count(CellVerdict::Pass, column))
                                   .arg(m_matrix->count(CellVerdict::Flaky, column))
                                   .arg(m_matrix->count(CellVerdict::Fail, column));
        return open > 0 ? tr("%1 (%2 to run)").arg(counts).arg(open) : counts;
    }
    case ScoreColumn:
        return any ? QLocale().toString(f.score, 'f', 2) : QString();
    case TokensColumn:
        return any ? tr("%1 / %2").arg(formatTokens(f.inputTokens), formatTokens(f.outputTokens))
                   : QString();
    case CostColumn:
        return any ? formatCost(f.costUsd) : QString();
    case LatencyColumn:
        return any ? tr("%1 / %2").arg(formatLatency(f.p50), formatLatency(f.p95)) : QString();
    default:
        return {};
    }
}

QVariant VariantSummaryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case VariantColumn:
        return tr("Variant");
    case PassRateColumn:
        return tr("Pass rate");
    case CountsColumn:
        return tr("Pass · flaky · fail");
    case ScoreColumn:
        return tr("Score");
    case TokensColumn:
        return tr("Tokens in / out");
    case CostColumn:
        return tr("Cost");
    case LatencyColumn:
        return tr("Latency p50 / p95");
    default:
        return {};
    }
}

} // namespace Callscope
