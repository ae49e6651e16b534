#include "core/engines/modelclient.h"

using namespace Qt::StringLiterals;

namespace Callscope {

QString ApiError::toString() const
{
    QString text = errorCategoryName(category);
    if (httpStatus > 0 && !messageNamesStatus)
        text += u" (HTTP "_s + QString::number(httpStatus) + u')';
    if (!providerType.isEmpty())
        text += u' ' + providerType;
    if (!message.isEmpty())
        text += u": "_s + message;
    return text;
}

} // namespace Callscope
