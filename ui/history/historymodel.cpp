#include "ui/history/historymodel.h"

#include "core/store/storereader.h"
#include "ui/widgets/displaynames.h"

#include <QDate>
#include <QDateTime>
#include <QElapsedTimer>
#include <QLocale>

using namespace Qt::StringLiterals;

namespace Callscope {

HistoryModel::HistoryModel(CallStore *store, QObject *parent)
    : QAbstractTableModel(parent)
    , m_store(store)
{ }

HistoryModel::~HistoryModel() = default;

void HistoryModel::setStore(CallStore *store)
{
    beginResetModel();
    m_store = store;
    m_rows.clear();
    m_next.reset();
    m_atEnd = true;
    // An answer still on its way belongs to the old store.
    m_latest->store(++m_generation);
    setLoading(false);
    endResetModel();
}

void HistoryModel::requestPage(const std::optional<HistoryCursor> &after, bool replace)
{
    if (!m_store) {
        applyPage(HistoryPage {}, 0, replace);
        return;
    }
    HistoryQuery query = m_query;
    query.limit = m_pageSize;
    query.offset = 0;
    query.after = after;
    const quint64 generation = ++m_generation;
    m_latest->store(generation);
    setLoading(true);
    struct Read
    {
        std::optional<StoreResult<HistoryPage>> page; // unset: a newer read was asked for
        qint64 elapsedNs = 0;
    };
    readFromStore<Read>(
        m_reader, m_store, this,
        [query, generation, latest = m_latest](CallStore &store) {
            Read read;
            if (latest->load() != generation)
                return read;
            QElapsedTimer timer;
            timer.start();
            read.page = store.listCalls(query);
            read.elapsedNs = timer.nsecsElapsed();
            return read;
        },
        [this, generation, replace](const Read *read, const QString &error) {
            if (generation != m_generation)
                return;
            setLoading(false);
            if (!read) {
                applyPage(StoreError::make(StoreError::Code::Io, error), 0, replace);
                return;
            }
            if (read->page)
                applyPage(*read->page, read->elapsedNs, replace);
        });
}

void HistoryModel::applyPage(const StoreResult<HistoryPage> &page, qint64 elapsedNs, bool replace)
{
    if (!page) {
        m_lastError = page.error().message;
        if (replace) {
            beginResetModel();
            m_rows.clear();
            m_next.reset();
            endResetModel();
        }
        m_atEnd = true;
        Q_EMIT errorOccurred(m_lastError);
        if (replace)
            Q_EMIT loaded();
        return;
    }
    m_lastError.clear();
    Q_EMIT pageLoaded(int(page->rows.size()), elapsedNs);
    if (replace) {
        // Views fetch more from their modelReset handlers; that must wait until every listener
        // has seen the reset (item model testers check the order).
        m_resetting = true;
        beginResetModel();
        m_rows = page->rows;
        m_next = page->next;
        m_atEnd = !m_next.has_value();
        endResetModel();
        m_resetting = false;
        Q_EMIT loaded();
        return;
    }
    m_next = page->next;
    m_atEnd = !m_next.has_value();
    if (page->rows.isEmpty())
        return;
    // Views ask for more from their rowsInserted handlers; not before every listener has seen
    // this insertion.
    m_inserting = true;
    beginInsertRows({}, int(m_rows.size()), int(m_rows.size() + page->rows.size() - 1));
    m_rows.append(page->rows);
    endInsertRows();
    m_inserting = false;
}

void HistoryModel::setLoading(bool loading)
{
    if (m_loading == loading)
        return;
    m_loading = loading;
    Q_EMIT loadingChanged(loading);
}

void HistoryModel::setQuery(const HistoryQuery &query)
{
    m_query = query;
    requestPage(std::nullopt, true);
}

int HistoryModel::rowOfCall(qint64 id) const
{
    for (int i = 0; i < m_rows.size(); ++i) {
        if (m_rows.at(i).id == id)
            return i;
    }
    return -1;
}

int HistoryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int HistoryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant HistoryModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const HistoryRow &row = m_rows.at(index.row());
    if (role == CallIdRole)
        return row.id;
    if (role == SortRole) {
        switch (index.column()) {
        case IdColumn:
            return row.id;
        case TokensColumn:
            return row.usage.promptTokens() + row.usage.outputTokens;
        case StartedColumn:
            return row.createdAt.toMSecsSinceEpoch();
        case DurationColumn:
            return row.durationMs();
        case RevisionsColumn:
            return row.revisionCount;
        default:
            break;
        }
        role = Qt::DisplayRole;
    }
    if (role == Qt::TextAlignmentRole) {
        switch (index.column()) {
        case IdColumn:
        case TokensColumn:
        case DurationColumn:
        case RevisionsColumn:
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole && index.column() == StatusColumn
        && row.errorCategory != ErrorCategory::None)
        return tr("Why: %1").arg(errorCategoryDisplayName(row.errorCategory));
    if (role == Qt::ToolTipRole && index.column() == KindColumn)
        return row.inputPreview;
    if (role == Qt::ToolTipRole && index.column() == StartedColumn) {
        const QString when = QLocale().toString(row.createdAt.toLocalTime(), QLocale::LongFormat);
        // In a team's history: whose call it is, and from which machine.
        if (row.person.isEmpty())
            return when;
        return row.machine.isEmpty() ? tr("%1, by %2").arg(when, row.person)
                                     : tr("%1, by %2 on %3").arg(when, row.person, row.machine);
    }
    if (role == Qt::ToolTipRole && index.column() == IdColumn && !row.person.isEmpty())
        return row.machine.isEmpty() ? tr("by %1").arg(row.person)
                                     : tr("by %1 on %2").arg(row.person, row.machine);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case IdColumn:
        return row.id;
    case KindColumn:
        return row.kind;
    case StatusColumn:
        return callStatusDisplayName(row.status);
    case EngineColumn:
        return row.engineType;
    case ModelColumn:
        return row.model;
    case TokensColumn:
        return formatTokens(row.usage);
    case StartedColumn: {
        // Today's calls by their time alone, so the column stays narrow enough for the sidebar
        // to show the engine beside it; older ones with their day (the tooltip has both).
        const QDateTime local = row.createdAt.toLocalTime();
        if (local.date() == QDate::currentDate())
            return QLocale().toString(local.time(), QLocale::ShortFormat);
        return QLocale().toString(local, QLocale::ShortFormat);
    }
    case DurationColumn:
        return formatDuration(row.durationMs());
    case RevisionsColumn:
        return row.revisionCount;
    default:
        return {};
    }
}

QVariant HistoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case IdColumn:
        return tr("Call");
    case KindColumn:
        return tr("Kind");
    case StatusColumn:
        return tr("Status");
    case EngineColumn:
        return tr("Engine");
    case ModelColumn:
        return tr("Model");
    case TokensColumn:
        return tr("Tokens");
    case StartedColumn:
        return tr("Started");
    case DurationColumn:
        return tr("Duration");
    case RevisionsColumn:
        return tr("Revisions");
    default:
        return {};
    }
}

bool HistoryModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && !m_atEnd && m_store && !m_resetting && !m_inserting && !m_loading;
}

void HistoryModel::fetchMore(const QModelIndex &parent)
{
    if (!canFetchMore(parent))
        return;
    requestPage(m_next, false);
}

} // namespace Callscope
