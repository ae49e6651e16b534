#include "core/store/storequery.h"

namespace Callscope {

QVariant bindable(const QVariant &value)
{
    if (value.typeId() == QMetaType::QString && value.toString().isNull())
        return QVariant(QStringLiteral(""));
    return value;
}

void bindAll(QSqlQuery &query, const QVariantList &values, const SqlDialect &dialect)
{
    for (qsizetype i = 0; i < values.size(); ++i)
        query.bindValue(int(i), dialect.textValue(bindable(values.at(i))));
}

void releaseValues(QSqlQuery &query)
{
    const qsizetype count = query.boundValues().size();
    for (qsizetype i = 0; i < count; ++i)
        query.bindValue(int(i), QVariant());
}

} // namespace Callscope
