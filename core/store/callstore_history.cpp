// CallStore: history pages (filters, keyset paging, full-text search) and revision trees.

#include "core/store/callstore.h"
#include "core/store/callstore_p.h"
#include "core/store/searchindex.h"
#include "core/store/storequery.h"

#include <QSet>
#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace Callscope {

using namespace CallStoreDetail;

namespace {

constexpr auto kSelectParent = "SELECT parent_id FROM calls WHERE id = ?"_L1;
// A full-text page walks the FTS5 matches newest id first and stops after the page: no
// sort over every match (a common word matches most of a million rows). CROSS JOIN keeps
// the FTS table the outer loop.
constexpr auto kHistoryFromFts = " FROM calls_fts CROSS JOIN calls c ON c.id = calls_fts.rowid"_L1;
constexpr auto kFilterFtsMatch = "calls_fts MATCH ?"_L1;
constexpr auto kFilterFtsAfter = "calls_fts.rowid < ?"_L1;
constexpr auto kFtsOrder = " ORDER BY calls_fts.rowid DESC LIMIT ? OFFSET ?"_L1;
constexpr auto kWhere = " WHERE "_L1;
constexpr auto kAnd = " AND "_L1;
constexpr auto kFilterKind = "c.kind = ?"_L1;
constexpr auto kFilterStatus = "c.status = ?"_L1;
constexpr auto kFilterEngine = "c.engine_type = ?"_L1;
constexpr auto kFilterModel = "c.model = ?"_L1;
constexpr auto kFilterPerson = "c.person = ?"_L1;
constexpr auto kFilterFrom = "c.created_at >= ?"_L1;
constexpr auto kFilterTo = "c.created_at < ?"_L1;
constexpr auto kFilterParent = "c.parent_id = ?"_L1;
constexpr auto kFilterSession = "c.session_id = ?"_L1;
constexpr auto kFilterLikeTerm = R"(c.id IN (SELECT call_id FROM calls_search WHERE
    input LIKE ? ESCAPE '\' OR output LIKE ? ESCAPE '\' OR tools LIKE ? ESCAPE '\'))"_L1;
constexpr auto kFilterTextSearch = R"(c.id IN (SELECT call_id FROM calls_search WHERE
    document @@ plainto_tsquery('simple', ?)))"_L1;
constexpr auto kFilterAfter = "(c.created_at, c.id) < (?, ?)"_L1;
constexpr auto kHistoryOrder = " ORDER BY c.created_at DESC, c.id DESC LIMIT ? OFFSET ?"_L1;

constexpr auto kChildren = " WHERE c.parent_id = ? ORDER BY c.created_at, c.id"_L1;
constexpr auto kRevisionTree = R"( WHERE c.id IN (WITH RECURSIVE tree(id) AS (
    SELECT CAST(? AS BIGINT) UNION SELECT k.id FROM calls k JOIN tree t ON k.parent_id = t.id)
    SELECT id FROM tree)
    ORDER BY c.created_at, c.id)"_L1;

constexpr int kDefaultLimit = 50;
constexpr int kMaxLimit = 10000;

} // namespace

StoreResult<QList<HistoryRow>> CallStore::rowsFor(QLatin1StringView sql, const QVariantList &values)
{
    auto q = runQuery(m_database, kHistoryColumns + kHistoryFrom + sql, values,
                      Tr::tr("reading history"));
    if (!q)
        return q.error();
    QList<HistoryRow> rows;
    while (q->next())
        rows.append(historyRowFrom(*q));
    return rows;
}

StoreResult<QList<HistoryRow>> CallStore::children(qint64 id)
{
    return rowsFor(kChildren, { id });
}

StoreResult<qint64> CallStore::revisionRoot(qint64 id)
{
    QSqlQuery q(m_database.connection());
    q.prepare(kSelectParent);
    qint64 current = id;
    QSet<qint64> seen;
    for (;;) {
        q.bindValue(0, current);
        if (!q.exec())
            return m_database.errorFrom(q, Tr::tr("reading call %1").arg(current));
        if (!q.next())
            return StoreError::make(StoreError::Code::NotFound,
                                    Tr::tr("no call with id %1").arg(current));
        const QVariant parent = q.value(0);
        q.finish();
        seen.insert(current);
        if (parent.isNull() || seen.contains(parent.toLongLong()))
            return current;
        current = parent.toLongLong();
    }
}

StoreResult<QList<HistoryRow>> CallStore::revisionTree(qint64 rootId)
{
    auto rows = rowsFor(kRevisionTree, { rootId });
    if (rows && rows->isEmpty())
        return StoreError::make(StoreError::Code::NotFound,
                                Tr::tr("no call with id %1").arg(rootId));
    return rows;
}

StoreResult<HistoryPage> CallStore::listCalls(const HistoryQuery &query)
{
    QStringList conditions;
    QVariantList values;
    auto filter = [&](QLatin1StringView condition, const QVariant &value) {
        conditions.append(condition);
        values.append(value);
    };
    if (!query.kind.isEmpty())
        filter(kFilterKind, query.kind);
    if (query.status)
        filter(kFilterStatus, callStatusName(*query.status));
    if (!query.engineType.isEmpty())
        filter(kFilterEngine, query.engineType);
    if (!query.model.isEmpty())
        filter(kFilterModel, query.model);
    if (!query.person.isEmpty())
        filter(kFilterPerson, query.person);
    if (query.from.isValid())
        filter(kFilterFrom, query.from.toMSecsSinceEpoch());
    if (query.to.isValid())
        filter(kFilterTo, query.to.toMSecsSinceEpoch());
    if (query.parent)
        filter(kFilterParent, *query.parent);
    if (query.session)
        filter(kFilterSession, *query.session);
    const QStringList terms = SearchIndex::terms(query.search);
    const bool fts = !terms.isEmpty() && m_database.searchMode() == Database::SearchMode::Fts5;
    if (!terms.isEmpty()) {
        switch (m_database.searchMode()) {
        case Database::SearchMode::Fts5:
            filter(kFilterFtsMatch, SearchIndex::ftsQuery(terms));
            break;
        case Database::SearchMode::LikeFallback:
            for (const QString &term : terms) {
                // Like the FTS5 tokenizer, ignore punctuation around a word ("flamingo,).
                qsizetype begin = 0;
                qsizetype end = term.size();
                while (begin < end && !term.at(begin).isLetterOrNumber())
                    ++begin;
                while (end > begin && !term.at(end - 1).isLetterOrNumber())
                    --end;
                if (begin == end)
                    continue;
                const QString pattern = SearchIndex::likePattern(term.mid(begin, end - begin));
                conditions.append(kFilterLikeTerm);
                values << pattern << pattern << pattern;
            }
            break;
        case Database::SearchMode::TextSearch:
            filter(kFilterTextSearch, terms.join(u' '));
            break;
        case Database::SearchMode::None:
            return StoreError::make(StoreError::Code::Sql,
                                    Tr::tr("this database has no search index"));
        }
    }
    if (query.after) {
        if (fts) {
            filter(kFilterFtsAfter, query.after->id);
        } else {
            conditions.append(kFilterAfter);
            values << query.after->createdMs << query.after->id;
        }
    }
    const int limit = (query.limit >= 1 && query.limit <= kMaxLimit) ? query.limit : kDefaultLimit;
    values << limit << qMax(0, query.offset);

    QString sql = kHistoryColumns + (fts ? kHistoryFromFts : kHistoryFrom);
    if (!conditions.isEmpty())
        sql += kWhere + conditions.join(kAnd);
    sql += fts ? kFtsOrder : kHistoryOrder;

    auto q = runQuery(m_database, sql, values, Tr::tr("reading history"));
    if (!q)
        return q.error();
    HistoryPage page;
    while (q->next())
        page.rows.append(historyRowFrom(*q));
    if (page.rows.size() == limit)
        page.next = page.rows.constLast().cursor();
    return page;
}

} // namespace Callscope
