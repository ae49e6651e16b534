#include "ui/run/transcriptmodel.h"

#include <QTimer>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {
constexpr int kFlushIntervalMs = 40;
}

TranscriptModel::TranscriptModel(QObject *parent)
    : QAbstractListModel(parent)
    , m_flushTimer(new QTimer(this))
{
    m_flushTimer->setSingleShot(true);
    m_flushTimer->setInterval(kFlushIntervalMs);
    connect(m_flushTimer, &QTimer::timeout, this, &TranscriptModel::flush);
}

TranscriptModel::~TranscriptModel() = default;

void TranscriptModel::clear()
{
    m_flushTimer->stop();
    beginResetModel();
    m_items.clear();
    m_raw.clear();
    m_pending.clear();
    m_streamedAll.clear();
    m_streamRow = -1;
    endResetModel();
}

void TranscriptModel::setItem(int row, const Item &item)
{
    if (row < 0 || row >= m_items.size())
        return;
    m_items[row] = item;
    const QModelIndex i = index(row, 0);
    Q_EMIT dataChanged(i, i);
}

void TranscriptModel::remove(int row)
{
    if (row < 0 || row >= m_items.size())
        return;
    beginRemoveRows({}, row, row);
    m_items.removeAt(row);
    if (m_streamRow == row)
        m_streamRow = -1;
    else if (m_streamRow > row)
        --m_streamRow;
    endRemoveRows();
}

void TranscriptModel::append(const Item &item)
{
    // Text streamed so far belongs before whatever comes next.
    if (!m_pending.isEmpty())
        flush();
    if (item.kind != Kind::Assistant || !item.streaming)
        m_streamRow = -1;
    const int row = int(m_items.size());
    beginInsertRows({}, row, row);
    m_items.append(item);
    endInsertRows();
    if (item.streaming)
        m_streamRow = row;
}

void TranscriptModel::appendDelta(const QString &delta)
{
    if (delta.isEmpty())
        return;
    m_pending += delta;
    m_streamedAll += delta;
    if (!m_flushTimer->isActive())
        m_flushTimer->start();
}

int TranscriptModel::openStreamRow() const
{
    return m_streamRow >= 0 && m_streamRow < m_items.size() && m_items.at(m_streamRow).streaming
        ? m_streamRow
        : -1;
}

void TranscriptModel::flush()
{
    m_flushTimer->stop();
    if (m_pending.isEmpty())
        return;
    const QString text = std::exchange(m_pending, QString());
    const int row = openStreamRow();
    if (row < 0) {
        Item item;
        item.kind = Kind::Assistant;
        item.title = tr("Assistant (streaming)");
        item.text = text;
        item.streaming = true;
        const int newRow = int(m_items.size());
        beginInsertRows({}, newRow, newRow);
        m_items.append(item);
        endInsertRows();
        m_streamRow = newRow;
    } else {
        m_items[row].text += text;
        const QModelIndex i = index(row);
        Q_EMIT dataChanged(i, i, { Qt::DisplayRole, TextRole });
    }
    Q_EMIT flushed();
}

void TranscriptModel::endStream()
{
    flush();
    const int row = openStreamRow();
    if (row >= 0) {
        m_items[row].streaming = false;
        m_items[row].title = tr("Assistant");
        const QModelIndex i = index(row);
        Q_EMIT dataChanged(i, i);
    }
    m_streamRow = -1;
}

void TranscriptModel::finishAssistantText(int turn, const QString &text)
{
    flush();
    const int row = openStreamRow();
    if (row >= 0) {
        Item &item = m_items[row];
        item.streaming = false;
        item.turn = turn;
        item.title = tr("Assistant");
        if (!text.isEmpty())
            item.text = text;
        const QModelIndex i = index(row);
        Q_EMIT dataChanged(i, i);
        m_streamRow = -1;
        return;
    }
    m_streamRow = -1;
    if (text.isEmpty())
        return;
    Item item;
    item.kind = Kind::Assistant;
    item.title = tr("Assistant");
    item.text = text;
    item.turn = turn;
    append(item);
}

void TranscriptModel::setTurnRaw(int turn, const TurnRaw &raw)
{
    m_raw.insert(turn, raw);
    for (int row = 0; row < m_items.size(); ++row) {
        if (m_items.at(row).turn == turn) {
            const QModelIndex i = index(row);
            Q_EMIT dataChanged(i, i, { HasRawRole, UsageRole });
        }
    }
}

std::optional<TranscriptModel::TurnRaw> TranscriptModel::turnRaw(int turn) const
{
    auto it = m_raw.constFind(turn);
    if (it == m_raw.cend())
        return std::nullopt;
    return *it;
}

QString TranscriptModel::streamedText() const
{
    return m_streamedAll;
}

QString TranscriptModel::kindLabel(Kind kind)
{
    switch (kind) {
    case Kind::System:
        return tr("System");
    case Kind::User:
        return tr("User");
    case Kind::Assistant:
        return tr("Assistant");
    case Kind::ToolCall:
        return tr("Tool call");
    case Kind::ToolResult:
        return tr("Tool result");
    case Kind::Correction:
        return tr("Correction");
    case Kind::Retry:
        return tr("Retry");
    case Kind::ValidationFailure:
        return tr("Validation failed");
    case Kind::Result:
        return tr("Result");
    case Kind::Error:
        return tr("Error");
    case Kind::Note:
        return tr("Note");
    }
    return {};
}

int TranscriptModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_items.size());
}

QVariant TranscriptModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Item &item = m_items.at(index.row());
    switch (role) {
    case Qt::DisplayRole: {
        // Very long rows show their tail while streaming and their head otherwise.
        if (item.text.size() <= kDisplayLimit)
            return item.text;
        if (item.streaming)
            return QString(u"…"_s + item.text.right(kDisplayLimit));
        return QString(item.text.left(kDisplayLimit) + u"…"_s);
    }
    case Qt::ToolTipRole:
        return item.text.left(kDisplayLimit);
    case Qt::AccessibleTextRole:
        return QString(item.title + u": "_s + item.text.left(kDisplayLimit));
    case KindRole:
        return int(item.kind);
    case TitleRole:
        return item.title;
    case TextRole:
        return item.text;
    case TurnRole:
        return item.turn;
    case IsErrorRole:
        return item.isError;
    case HasRawRole:
        return item.turn >= 0 && m_raw.contains(item.turn);
    case StreamingRole:
        return item.streaming;
    case UsageRole: {
        if (item.turn < 0)
            return {};
        auto it = m_raw.constFind(item.turn);
        if (it == m_raw.cend() || it->usage.isEmpty())
            return {};
        return tr("in %1 / out %2 tokens")
            .arg(it->usage.promptTokens())
            .arg(it->usage.outputTokens);
    }
    default:
        return {};
    }
}

QHash<int, QByteArray> TranscriptModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert(KindRole, "kind");
    names.insert(TitleRole, "title");
    names.insert(TextRole, "text");
    names.insert(TurnRole, "turn");
    names.insert(IsErrorRole, "isError");
    names.insert(HasRawRole, "hasRaw");
    names.insert(StreamingRole, "streaming");
    names.insert(UsageRole, "usage");
    return names;
}

} // namespace Callscope
