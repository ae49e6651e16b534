#include "ui/run/transcriptdelegate.h"

#include "ui/run/timelineview.h"
#include "ui/run/transcriptmodel.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QPainter>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {
constexpr int kMargin = 6;
constexpr int kBar = 4;

QColor kindColor(TranscriptModel::Kind kind, bool error)
{
    if (error)
        return QColor(215, 55, 55);
    switch (kind) {
    case TranscriptModel::Kind::System:
        return QColor(130, 130, 130);
    case TranscriptModel::Kind::User:
        return QColor(50, 120, 215);
    case TranscriptModel::Kind::Assistant:
        return QColor(40, 160, 90);
    case TranscriptModel::Kind::ToolCall:
        return QColor(160, 100, 210);
    case TranscriptModel::Kind::ToolResult:
        return QColor(120, 90, 180);
    case TranscriptModel::Kind::Correction:
    case TranscriptModel::Kind::ValidationFailure:
    case TranscriptModel::Kind::Retry:
        return QColor(225, 150, 30);
    case TranscriptModel::Kind::Result:
        return QColor(30, 170, 60);
    case TranscriptModel::Kind::Error:
        return QColor(215, 55, 55);
    case TranscriptModel::Kind::Note:
        return QColor(110, 110, 160);
    }
    return {};
}
} // namespace

TranscriptDelegate::TranscriptDelegate(QAbstractItemView *view)
    : QStyledItemDelegate(view)
    , m_view(view)
{ }

TranscriptDelegate::~TranscriptDelegate() = default;

int TranscriptDelegate::textWidth() const
{
    return std::max(120, m_view->viewport()->width() - 2 * kMargin - kBar - 6);
}

bool TranscriptDelegate::isPendingRow(const QModelIndex &index) const
{
    const auto *timeline = qobject_cast<const TimelineView *>(m_view);
    return timeline && timeline->pendingWidget() && timeline->pendingIndex() == index;
}

QRect TranscriptDelegate::bodyRect(const QRect &rowRect, const QFont &font)
{
    QFont titleFont = font;
    titleFont.setBold(true);
    const int titleHeight = QFontMetrics(titleFont).height();
    const QRect r = rowRect.adjusted(kMargin, kMargin / 2, -kMargin, -kMargin / 2);
    return { r.left() + kBar + 6, r.top() + titleHeight + 1, r.width() - kBar - 6,
             r.height() - titleHeight - 1 };
}

QSize TranscriptDelegate::sizeHint(const QStyleOptionViewItem &option,
                                   const QModelIndex &index) const
{
    QFont titleFont = option.font;
    titleFont.setBold(true);
    const int titleHeight = QFontMetrics(titleFont).height();
    const int w = textWidth();
    if (isPendingRow(index)) {
        const int widgetHeight = static_cast<const TimelineView *>(m_view)->pendingHeight(w);
        return { w + 2 * kMargin + kBar, titleHeight + widgetHeight + 2 * kMargin + 2 };
    }
    const QString text = index.data(Qt::DisplayRole).toString();
    const QFontMetrics fm(option.font);
    const int textHeight = text.isEmpty()
        ? 0
        : fm.boundingRect(QRect(0, 0, w, 1'000'000), Qt::TextWordWrap, text).height();
    return { w + 2 * kMargin + kBar, titleHeight + textHeight + 2 * kMargin + 2 };
}

void TranscriptDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                               const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear();
    QStyle *style = opt.widget ? opt.widget->style() : QApplication::style();
    style->drawPrimitive(QStyle::PE_PanelItemViewItem, &opt, painter, opt.widget);

    const auto kind = TranscriptModel::Kind(index.data(TranscriptModel::KindRole).toInt());
    const bool error = index.data(TranscriptModel::IsErrorRole).toBool();
    const bool selected = option.state & QStyle::State_Selected;
    const QPalette::ColorRole textRole = selected ? QPalette::HighlightedText : QPalette::Text;

    painter->save();
    const QRect r = option.rect.adjusted(kMargin, kMargin / 2, -kMargin, -kMargin / 2);
    painter->fillRect(QRect(r.left(), r.top(), kBar, r.height()), kindColor(kind, error));

    QFont titleFont = option.font;
    titleFont.setBold(true);
    const int titleHeight = QFontMetrics(titleFont).height();
    QString title = TranscriptModel::kindLabel(kind);
    const QString itemTitle = index.data(TranscriptModel::TitleRole).toString();
    if (!itemTitle.isEmpty() && itemTitle != title)
        title = itemTitle;
    const int turn = index.data(TranscriptModel::TurnRole).toInt();
    if (turn >= 0)
        title += tr("  ·  turn %1").arg(turn + 1);
    const QString usage = index.data(TranscriptModel::UsageRole).toString();
    if (!usage.isEmpty())
        title += u"  ·  "_s + usage;
    if (index.data(TranscriptModel::HasRawRole).toBool())
        title += tr("  ·  raw");
    painter->setFont(titleFont);
    painter->setPen(selected ? option.palette.color(textRole) : kindColor(kind, error));
    const QRect titleRect(r.left() + kBar + 6, r.top(), r.width() - kBar - 6, titleHeight);
    painter->drawText(titleRect, Qt::AlignLeft | Qt::AlignVCenter, title);

    if (!isPendingRow(index)) {
        painter->setFont(option.font);
        painter->setPen(option.palette.color(textRole));
        painter->drawText(bodyRect(option.rect, option.font),
                          Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop,
                          index.data(Qt::DisplayRole).toString());
    }
    painter->restore();
}

} // namespace Callscope
