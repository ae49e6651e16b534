#pragma once

// Full-text search over a call's input, output and tool results (internal to core/store).
//
// With FTS5 (the normal case: Debian's SQLite has it) the index is a contentless FTS5 table
// `calls_fts(input, output, tools)` keyed by the call id: it holds only the index, not a copy
// of the text, which keeps the database small. Removing a call's entry needs the text it was
// indexed with; the text is a pure function of the stored row, so it is recomputed from the
// row before the row changes.
//
// On a PostgreSQL server the text becomes one tsvector per call in `calls_search(call_id,
// document)` with a GIN index; a query is plainto_tsquery of the user's words.
//
// Without FTS5 the text goes to a plain table `calls_search` and a query matches each word
// with LIKE (case-insensitive for ASCII only, and a full scan: slow on large histories).

#include "core/store/database.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>

namespace Callscope::SearchIndex {

struct Document
{
    QString input; // the request text and attachment names
    QString output; // the parsed response and the error message
    QString tools; // every tool result's content
};

Document documentFor(const QJsonObject &input, const QJsonValue &response, const QString &error,
                     const QJsonArray &messages);

StoreError add(Database &database, Database::SearchMode mode, qint64 callId,
               const Document &document);
StoreError remove(Database &database, Database::SearchMode mode, qint64 callId,
                  const Document &document);

// The words of a user's search text (whitespace separated, empty ones dropped).
QStringList terms(const QString &text);
// An FTS5 query matching rows that contain every term (each quoted, so FTS5 operators in the
// user's text are plain words).
QString ftsQuery(const QStringList &terms);
// A LIKE pattern for one term, with %, _ and \ escaped (ESCAPE '\').
QString likePattern(const QString &term);

} // namespace Callscope::SearchIndex
