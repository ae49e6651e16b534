#include "core/model/jsonpointer.h"

#include <QJsonArray>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace Callscope::JsonPointer {

QString escapeToken(QStringView token)
{
    QString out = token.toString();
    out.replace(u'~', u"~0"_s);
    out.replace(u'/', u"~1"_s);
    return out;
}

QString unescapeToken(QStringView token)
{
    QString out = token.toString();
    out.replace(u"~1"_s, u"/"_s);
    out.replace(u"~0"_s, u"~"_s);
    return out;
}

QString append(const QString &pointer, QStringView token)
{
    return pointer + u'/' + escapeToken(token);
}

QString append(const QString &pointer, qsizetype index)
{
    return pointer + u'/' + QString::number(index);
}

std::optional<QStringList> split(QStringView pointer)
{
    if (pointer.isEmpty())
        return QStringList();
    if (!pointer.startsWith(u'/'))
        return std::nullopt;
    QStringList tokens;
    for (QStringView part : pointer.mid(1).split(u'/'))
        tokens.append(unescapeToken(part));
    return tokens;
}

std::optional<QJsonValue> resolve(const QJsonValue &document, QStringView pointer)
{
    const auto tokens = split(pointer);
    if (!tokens)
        return std::nullopt;
    QJsonValue current = document;
    for (const QString &token : *tokens) {
        if (current.isObject()) {
            const QJsonObject object = current.toObject();
            const auto it = object.constFind(token);
            if (it == object.constEnd())
                return std::nullopt;
            current = it.value();
        } else if (current.isArray()) {
            bool ok = false;
            const qsizetype index = token.toLongLong(&ok);
            const QJsonArray array = current.toArray();
            if (!ok || index < 0 || index >= array.size()
                || (token.size() > 1 && token.startsWith(u'0')))
                return std::nullopt;
            current = array.at(index);
        } else {
            return std::nullopt;
        }
    }
    return current;
}

} // namespace Callscope::JsonPointer
