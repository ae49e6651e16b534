#pragma once

// The structured answer of the reply under way, field by field, while it streams: one row per
// field (its JSON Pointer, its state in plain words, the value so far, and why an invalid field
// can no longer match the schema). It follows Runner::outputProgress; rows are only ever added
// while one reply streams, and a new reply starts again from none.

#include "core/loop/runner.h"

#include <QAbstractTableModel>
#include <QJsonValue>
#include <QList>

namespace Callscope {

class PartialOutputModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PartialOutputModel)

public:
    enum Column { FieldColumn, StateColumn, ValueColumn, ReasonColumn, ColumnCount };
    enum Role {
        PointerRole = Qt::UserRole + 1, // the field's JSON Pointer
        StateRole, // StreamCheck::FieldState as an int
    };

    explicit PartialOutputModel(QObject *parent = nullptr);
    ~PartialOutputModel() override;

    void clear();
    void setProgress(const OutputProgress &progress);

    // Where things stand, for the panel and for tests.
    bool isEmpty() const { return !m_progress.has_value(); }
    const std::optional<OutputProgress> &progress() const { return m_progress; }
    int rowOf(const QString &pointer) const; // -1 when the field has not started
    std::optional<StreamCheck::FieldState> stateOf(const QString &pointer) const;
    QString reasonOf(const QString &pointer) const;
    const StreamCheck::Field &field(int row) const { return m_fields.at(row); }
    // "streaming", "complete", "invalid", in the interface's language.
    static QString stateText(StreamCheck::FieldState state);
    // One line about the answer so far ("3 fields, 1 invalid; stopped early").
    QString summary() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    void progressChanged();

private:
    QString valueText(const QString &pointer) const;

    std::optional<OutputProgress> m_progress;
    QList<StreamCheck::Field> m_fields;
};

} // namespace Callscope
