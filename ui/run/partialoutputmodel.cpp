#include "ui/run/partialoutputmodel.h"

#include "core/model/jsonpointer.h"

#include <QBrush>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

constexpr qsizetype kValueLimit = 200;

QString compact(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::String:
        return u'"' + value.toString() + u'"';
    case QJsonValue::Object:
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    case QJsonValue::Array:
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    case QJsonValue::Double:
        return QString::number(value.toDouble(), 'g', 17);
    case QJsonValue::Bool:
        return value.toBool() ? u"true"_s : u"false"_s;
    case QJsonValue::Null:
        return u"null"_s;
    case QJsonValue::Undefined:
        break;
    }
    return {};
}

} // namespace

PartialOutputModel::PartialOutputModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

PartialOutputModel::~PartialOutputModel() = default;

void PartialOutputModel::clear()
{
    if (!m_progress && m_fields.isEmpty())
        return;
    beginResetModel();
    m_progress.reset();
    m_fields.clear();
    endResetModel();
    Q_EMIT progressChanged();
}

void PartialOutputModel::setProgress(const OutputProgress &progress)
{
    // Another reply (a correction's, say) starts from no field.
    if (m_progress && m_progress->turn != progress.turn && !m_fields.isEmpty()) {
        beginResetModel();
        m_fields.clear();
        m_progress.reset();
        endResetModel();
    }
    m_progress = progress;
    const QList<StreamCheck::Field> &fields = progress.fields;
    const int known = int(std::min(m_fields.size(), fields.size()));
    for (int row = 0; row < known; ++row)
        m_fields[row] = fields.at(row);
    if (known > 0)
        Q_EMIT dataChanged(index(0, 0), index(known - 1, ColumnCount - 1));
    if (fields.size() > m_fields.size()) {
        beginInsertRows({}, int(m_fields.size()), int(fields.size()) - 1);
        m_fields.append(fields.mid(m_fields.size()));
        endInsertRows();
    } else if (fields.size() < m_fields.size()) {
        beginRemoveRows({}, int(fields.size()), int(m_fields.size()) - 1);
        m_fields.resize(fields.size());
        endRemoveRows();
    }
    Q_EMIT progressChanged();
}

int PartialOutputModel::rowOf(const QString &pointer) const
{
    for (int row = 0; row < m_fields.size(); ++row) {
        if (m_fields.at(row).pointer == pointer)
            return row;
    }
    return -1;
}

std::optional<StreamCheck::FieldState> PartialOutputModel::stateOf(const QString &pointer) const
{
    const int row = rowOf(pointer);
    if (row < 0)
        return std::nullopt;
    return m_fields.at(row).state;
}

QString PartialOutputModel::reasonOf(const QString &pointer) const
{
    const int row = rowOf(pointer);
    return row < 0 ? QString() : m_fields.at(row).reason;
}

QString PartialOutputModel::stateText(StreamCheck::FieldState state)
{
    switch (state) {
    case StreamCheck::FieldState::Streaming:
        return tr("streaming");
    case StreamCheck::FieldState::Complete:
        return tr("complete");
    case StreamCheck::FieldState::Invalid:
        return tr("invalid");
    }
    return {};
}

QString PartialOutputModel::summary() const
{
    if (!m_progress)
        return {};
    int invalid = 0;
    for (const StreamCheck::Field &f : m_fields) {
        if (f.state == StreamCheck::FieldState::Invalid)
            ++invalid;
    }
    QString text = tr("%n field(s)", nullptr, int(m_fields.size()));
    if (invalid > 0)
        text = tr("%1, %n invalid", nullptr, invalid).arg(text);
    if (m_progress->cut)
        return tr("%1; stopped early: the answer could no longer match the schema").arg(text);
    if (!m_progress->ended)
        return tr("%1; streaming").arg(text);
    return m_progress->canStillBeValid ? tr("%1; the reply is complete").arg(text)
                                       : tr("%1; the answer does not match the schema").arg(text);
}

QString PartialOutputModel::valueText(const QString &pointer) const
{
    if (!m_progress)
        return {};
    const std::optional<QJsonValue> value = JsonPointer::resolve(m_progress->partial, pointer);
    if (!value)
        return {};
    QString text = compact(*value);
    if (text.size() > kValueLimit)
        text = text.left(kValueLimit) + u"…"_s;
    return text;
}

int PartialOutputModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_fields.size());
}

int PartialOutputModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PartialOutputModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_fields.size())
        return {};
    const StreamCheck::Field &f = m_fields.at(index.row());
    switch (role) {
    case PointerRole:
        return f.pointer;
    case StateRole:
        return int(f.state);
    case Qt::ForegroundRole:
        if (f.state == StreamCheck::FieldState::Invalid
            && (index.column() == StateColumn || index.column() == ReasonColumn))
            return QBrush(Qt::red);
        return {};
    case Qt::ToolTipRole:
        if (f.state == StreamCheck::FieldState::Invalid)
            return tr("%1 is invalid: %2")
                .arg(f.pointer.isEmpty() ? tr("The answer") : f.pointer, f.reason);
        return {};
    case Qt::DisplayRole:
        switch (index.column()) {
        case FieldColumn:
            return f.pointer.isEmpty() ? tr("(the whole answer)") : f.pointer;
        case StateColumn:
            return stateText(f.state);
        case ValueColumn:
            return valueText(f.pointer);
        case ReasonColumn:
            return f.reason;
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant PartialOutputModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case FieldColumn:
        return tr("Field");
    case StateColumn:
        return tr("State");
    case ValueColumn:
        return tr("Value so far");
    case ReasonColumn:
        return tr("Why it is invalid");
    default:
        return {};
    }
}

} // namespace Callscope
