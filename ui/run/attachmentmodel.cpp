#include "ui/run/attachmentmodel.h"

#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QMimeDatabase>

namespace Callscope {

AttachmentModel::AttachmentModel(QObject *parent)
    : QAbstractListModel(parent)
{ }

AttachmentModel::~AttachmentModel() = default;

QString AttachmentModel::addFile(const QString &path)
{
    QFile file(path);
    const QFileInfo info(path);
    if (!info.isFile())
        return tr("%1 is not a file").arg(path);
    if (info.size() > kMaxBytes)
        return tr("%1 is larger than %2")
            .arg(info.fileName(), QLocale().formattedDataSize(kMaxBytes));
    if (!file.open(QIODevice::ReadOnly))
        return tr("cannot read %1: %2").arg(path, file.errorString());
    const QByteArray data = file.readAll();
    const QString type = QMimeDatabase().mimeTypeForFileNameAndData(path, data).name();
    add(Attachment::fromData(info.fileName(), type, data));
    return {};
}

void AttachmentModel::add(const Attachment &attachment)
{
    const int row = int(m_items.size());
    beginInsertRows({}, row, row);
    m_items.append(attachment);
    endInsertRows();
}

void AttachmentModel::remove(int row)
{
    if (row < 0 || row >= m_items.size())
        return;
    beginRemoveRows({}, row, row);
    m_items.removeAt(row);
    endRemoveRows();
}

void AttachmentModel::clear()
{
    if (m_items.isEmpty())
        return;
    beginResetModel();
    m_items.clear();
    endResetModel();
}

int AttachmentModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_items.size());
}

QVariant AttachmentModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Attachment &a = m_items.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return tr("%1 (%2, %3)")
            .arg(a.name, QLocale().formattedDataSize(a.data.size()), a.mediaType);
    case Qt::ToolTipRole:
        return tr("%1\n%2 bytes, %3").arg(a.name).arg(a.data.size()).arg(a.mediaType);
    default:
        return {};
    }
}

} // namespace Callscope
