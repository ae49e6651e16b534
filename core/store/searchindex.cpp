#include "core/store/searchindex.h"

#include "core/model/jsonwriter.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSqlQuery>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Callscope::SearchIndex {

namespace {

constexpr auto kFtsInsert =
    "INSERT INTO calls_fts(rowid, input, output, tools) VALUES (?, ?, ?, ?)"_L1;
// A contentless FTS5 table forgets a row by being told the exact text it indexed.
constexpr auto kFtsDelete =
    "INSERT INTO calls_fts(calls_fts, rowid, input, output, tools) VALUES ('delete', ?, ?, ?, ?)"_L1;
constexpr auto kLikeInsert =
    "INSERT OR REPLACE INTO calls_search(call_id, input, output, tools) VALUES (?, ?, ?, ?)"_L1;
constexpr auto kLikeDelete = "DELETE FROM calls_search WHERE call_id = ?"_L1;
// PostgreSQL: one tsvector of the three parts, weighted so a future ranking can tell them apart.
constexpr auto kTextSearchInsert = R"(INSERT INTO calls_search (call_id, document) VALUES (?,
    setweight(to_tsvector('simple', ?), 'A') || setweight(to_tsvector('simple', ?), 'B')
    || setweight(to_tsvector('simple', ?), 'C'))
    ON CONFLICT (call_id) DO UPDATE SET document = excluded.document)"_L1;

// A field's text is indexed up to this length. FTS5 would otherwise hold a giant answer's
// every token (or one 50 MB token) in memory while indexing, and store all of it; the start of
// an answer is what a search for it finds. Every document is cut the same way, so the text a
// removal recomputes is the text that was indexed.
constexpr qsizetype kMaxIndexedChars = 256 * 1024;

QString indexable(QString text)
{
    if (text.size() > kMaxIndexedChars)
        text.truncate(kMaxIndexedChars);
    return text;
}

// The first kMaxIndexedChars characters of UTF-8 text, decoding no more than needed: every
// UTF-8 sequence is at most 4 bytes and gives at least one character.
QString indexableUtf8(const QByteArray &utf8)
{
    return indexable(
        QString::fromUtf8(QByteArrayView(utf8).first(std::min(utf8.size(), 4 * kMaxIndexedChars))));
}

// The start of a value's compact JSON text: only the bytes that can be indexed are kept while
// it is written.
QString compactStart(const QJsonValue &value)
{
    const qsizetype wanted = 4 * kMaxIndexedChars;
    QByteArray start;
    if (!Json::writeCompact(value, [&](const char *data, qsizetype size) {
            if (start.size() < wanted)
                start.append(data, std::min(size, wanted - start.size()));
        }))
        start = Json::compact(value);
    return indexableUtf8(start);
}

QString jsonText(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::String:
        return value.toString();
    case QJsonValue::Object:
    case QJsonValue::Array:
        return compactStart(value);
    case QJsonValue::Double:
    case QJsonValue::Bool:
        return QString::fromUtf8(QJsonDocument(QJsonArray { value }).toJson(QJsonDocument::Compact))
            .mid(1)
            .chopped(1);
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        break;
    }
    return {};
}

StoreError run(Database &database, QLatin1StringView sql, qint64 callId, const Document *document)
{
    QSqlQuery query(database.connection());
    query.prepare(sql);
    query.addBindValue(callId);
    if (document) {
        // Never a null QString: QSQLITE would bind it as SQL NULL.
        for (const QString *text : { &document->input, &document->output, &document->tools })
            query.addBindValue(text->isNull() ? QStringLiteral("") : *text);
    }
    if (!query.exec())
        return database.errorFrom(
            query, QCoreApplication::translate("Store", "updating the search index"));
    return {};
}

} // namespace

Document documentFor(const QJsonObject &input, const QJsonValue &response, const QString &error,
                     const QJsonArray &messages)
{
    Document doc;
    QStringList inputParts { input.value(u"text"_s).toString() };
    for (const QJsonValue &attachment : input.value(u"attachments"_s).toArray())
        inputParts.append(attachment.toObject().value(u"name"_s).toString());
    inputParts.removeAll(QString());
    doc.input = inputParts.join(u'\n');

    QStringList outputParts { jsonText(response), error };
    outputParts.removeAll(QString());
    doc.output = outputParts.join(u'\n');

    QStringList toolParts;
    for (const QJsonValue &message : messages) {
        const QJsonObject object = message.toObject();
        if (object.value(u"role"_s).toString() != u"tool")
            continue;
        for (const QJsonValue &result : object.value(u"tool_results"_s).toArray()) {
            const QString content = result.toObject().value(u"content"_s).toString();
            if (!content.isEmpty())
                toolParts.append(content);
        }
    }
    doc.tools = toolParts.join(u'\n');
    doc.input = indexable(std::move(doc.input));
    doc.output = indexable(std::move(doc.output));
    doc.tools = indexable(std::move(doc.tools));
    return doc;
}

StoreError add(Database &database, Database::SearchMode mode, qint64 callId,
               const Document &document)
{
    switch (mode) {
    case Database::SearchMode::Fts5:
        return run(database, kFtsInsert, callId, &document);
    case Database::SearchMode::LikeFallback:
        return run(database, kLikeInsert, callId, &document);
    case Database::SearchMode::TextSearch:
        return run(database, kTextSearchInsert, callId, &document);
    case Database::SearchMode::None:
        break;
    }
    return {};
}

StoreError remove(Database &database, Database::SearchMode mode, qint64 callId,
                  const Document &document)
{
    switch (mode) {
    case Database::SearchMode::Fts5:
        return run(database, kFtsDelete, callId, &document);
    case Database::SearchMode::LikeFallback:
    case Database::SearchMode::TextSearch:
        return run(database, kLikeDelete, callId, nullptr);
    case Database::SearchMode::None:
        break;
    }
    return {};
}

QStringList terms(const QString &text)
{
    static const QRegularExpression whitespace(u"\\s+"_s);
    return text.split(whitespace, Qt::SkipEmptyParts);
}

QString ftsQuery(const QStringList &terms)
{
    QStringList quoted;
    for (QString term : terms)
        quoted.append(u'"' + term.replace(u'"', u"\"\""_s) + u'"');
    return quoted.join(u' ');
}

QString likePattern(const QString &term)
{
    QString escaped;
    escaped.reserve(term.size() + 2);
    for (QChar c : term) {
        if (c == u'\\' || c == u'%' || c == u'_')
            escaped.append(u'\\');
        escaped.append(c);
    }
    return u'%' + escaped + u'%';
}

} // namespace Callscope::SearchIndex
