#include "ui/history/currentcall.h"

#include <algorithm>

namespace Callscope {

CurrentCall::CurrentCall(QObject *parent)
    : QObject(parent)
{
    setObjectName(QStringLiteral("currentCall"));
}

CurrentCall::~CurrentCall() = default;

std::optional<std::pair<qint64, qint64>> CurrentCall::comparePair() const
{
    if (m_selection.size() != 2)
        return std::nullopt;
    return std::pair { m_selection.at(0), m_selection.at(1) };
}

void CurrentCall::setCurrent(qint64 id)
{
    apply(id > 0 ? QList<qint64> { id } : QList<qint64> {}, id);
}

void CurrentCall::setSelection(const QList<qint64> &ids, qint64 current)
{
    apply(ids, current);
}

void CurrentCall::clear()
{
    apply({}, 0);
}

void CurrentCall::apply(QList<qint64> ids, qint64 current)
{
    ids.removeIf([](qint64 id) { return id <= 0; });
    if (current <= 0)
        current = ids.isEmpty() ? 0 : ids.constLast();
    if (current > 0 && !ids.contains(current))
        ids.append(current);
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    const bool currentChanged_ = current != m_id;
    const bool selectionChanged_ = ids != m_selection;
    if (currentChanged_ && m_id > 0 && current > 0)
        m_previous = m_id;
    m_id = current;
    m_selection = ids;
    if (currentChanged_)
        Q_EMIT currentChanged(m_id);
    if (selectionChanged_)
        Q_EMIT selectionChanged(m_selection);
}

} // namespace Callscope
