#pragma once

// The files attached to the next run: name, size and media type, with their bytes (sent to
// the model, stored only as placeholders).

#include "core/model/message.h"

#include <QAbstractListModel>

namespace Callscope {

class AttachmentModel final : public QAbstractListModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AttachmentModel)

public:
    explicit AttachmentModel(QObject *parent = nullptr);
    ~AttachmentModel() override;

    // Reads the file; returns an error message, or an empty string when it was added.
    QString addFile(const QString &path);
    void add(const Attachment &attachment);
    void remove(int row);
    void clear();
    const QList<Attachment> &attachments() const { return m_items; }

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

    static constexpr qint64 kMaxBytes = 50 * 1024 * 1024;

private:
    QList<Attachment> m_items;
};

} // namespace Callscope
