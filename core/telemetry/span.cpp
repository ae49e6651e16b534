#include "core/telemetry/span.h"

#include <QCryptographicHash>

using namespace Qt::StringLiterals;

namespace Callscope::Telemetry {

void setAttribute(Attributes &attributes, const QString &key, const QVariant &value)
{
    const bool empty = !value.isValid()
        || (value.typeId() == QMetaType::QString && value.toString().isEmpty())
        || (value.typeId() == QMetaType::QStringList && value.toStringList().isEmpty());
    for (qsizetype i = 0; i < attributes.size(); ++i) {
        if (attributes.at(i).key == key) {
            if (empty)
                attributes.removeAt(i);
            else
                attributes[i].value = value;
            return;
        }
    }
    if (!empty)
        attributes.append({ key, value });
}

QVariant attributeValue(const Attributes &attributes, QStringView key)
{
    for (const Attribute &attribute : attributes) {
        if (attribute.key == key)
            return attribute.value;
    }
    return {};
}

qint64 unixNano(const QDateTime &time)
{
    return time.isValid() ? time.toMSecsSinceEpoch() * 1000000 : 0;
}

namespace {

QByteArray digest(const char *prefix, const QString &key)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(QByteArrayView(prefix));
    hash.addData(key.toUtf8());
    return hash.result();
}

} // namespace

QByteArray traceIdFor(const QString &key)
{
    return digest("callscope-trace:", key).left(16);
}

QByteArray spanIdFor(const QString &key)
{
    return digest("callscope-span:", key).left(8);
}

} // namespace Callscope::Telemetry
