#include "ui/widgets/budgetmodel.h"

#include <QColor>
#include <QFont>
#include <QLocale>

using namespace Qt::StringLiterals;

namespace Callscope {

BudgetModel::BudgetModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

BudgetModel::~BudgetModel() = default;

QString BudgetModel::statusText(BudgetStatus status)
{
    switch (status) {
    case BudgetStatus::Kept:
        return tr("kept");
    case BudgetStatus::Stubbed:
        return tr("stubbed");
    case BudgetStatus::ImageDropped:
        return tr("image dropped");
    }
    return {};
}

QString BudgetModel::reasonText(BudgetReason reason)
{
    switch (reason) {
    case BudgetReason::None:
        return {};
    case BudgetReason::NewestN:
        return tr("one of the newest large results");
    case BudgetReason::WithinBudget:
        return tr("within the budget");
    case BudgetReason::OverBudget:
        return tr("over the budget");
    case BudgetReason::OutsideNewestN:
        return tr("older than the newest large results, and no room is left for older ones");
    case BudgetReason::Error:
        return tr("error results always pass");
    case BudgetReason::Short:
        return tr("short (500 characters or fewer)");
    case BudgetReason::Unlimited:
        return tr("no limit set");
    case BudgetReason::ImageWindow:
        return tr("image window");
    }
    return {};
}

void BudgetModel::setReport(const BudgetReport &report)
{
    beginResetModel();
    m_report = report;
    m_rows.clear();
    m_maxChars = 0;
    for (int m = 0; m < report.messages.size(); ++m) {
        const BudgetMessageReport &message = report.messages.at(m);
        m_rows.append({ m, -1 });
        m_maxChars = std::max(m_maxChars, message.charsBefore);
        for (int p = 0; p < message.parts.size(); ++p) {
            m_rows.append({ m, p });
            m_maxChars = std::max(m_maxChars, message.parts.at(p).charsBefore);
        }
    }
    endResetModel();
}

int BudgetModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int BudgetModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant BudgetModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows.at(index.row());
    const BudgetMessageReport &message = m_report.messages.at(row.message);
    const BudgetPartReport *part = row.part >= 0 ? &message.parts.at(row.part) : nullptr;
    const qint64 before = part ? part->charsBefore : message.charsBefore;
    const qint64 after = part ? part->charsAfter : message.charsAfter;
    const BudgetStatus status = part ? part->status : message.status;
    switch (role) {
    case CharsBeforeRole:
        return before;
    case CharsAfterRole:
        return after;
    case MaxCharsRole:
        return m_maxChars;
    case IsPartRole:
        return part != nullptr;
    case StatusRole:
        return int(status);
    case ReasonNameRole:
        return part ? budgetReasonName(part->reason) : QString();
    case MessageIndexRole:
        return message.index;
    case Qt::FontRole:
        if (!part) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::ForegroundRole:
        if (index.column() == StatusColumn && status != BudgetStatus::Kept)
            return QColor(status == BudgetStatus::Stubbed ? QColor(200, 110, 0)
                                                          : QColor(200, 40, 40));
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == TokensColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ToolTipRole:
        if (index.column() == SentColumn && part)
            return part->status == BudgetStatus::Stubbed ? part->stubText : part->noteText;
        return {};
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    QLocale locale;
    switch (index.column()) {
    case ItemColumn: {
        if (!part) {
            const QString which =
                message.index < 0 ? tr("system prompt") : tr("message %1").arg(message.index + 1);
            return u"%1 · %2"_s.arg(which, message.kind);
        }
        QString text = u"    "_s + budgetPartKindName(part->kind);
        if (!part->toolName.isEmpty())
            text += u" "_s + part->toolName;
        if (!part->imageName.isEmpty())
            text += u" "_s + part->imageName;
        if (part->kind == BudgetPartKind::ToolResult && part->lines > 0)
            text += u" "_s + tr("(%n line(s))", nullptr, int(part->lines));
        return text;
    }
    case StatusColumn:
        return statusText(status);
    case ReasonColumn:
        return part ? reasonText(part->reason) : QString();
    case SizeColumn:
        if (before == after)
            return tr("%1 chars").arg(locale.toString(before));
        return tr("%1 → %2 chars").arg(locale.toString(before), locale.toString(after));
    case TokensColumn: {
        const qint64 tb = part ? part->tokensBefore : message.tokensBefore;
        const qint64 ta = part ? part->tokensAfter : message.tokensAfter;
        return tb == ta ? locale.toString(ta)
                        : tr("%1 → %2").arg(locale.toString(tb), locale.toString(ta));
    }
    case SentColumn:
        if (!part)
            return {};
        if (part->status == BudgetStatus::Stubbed)
            return part->stubText;
        return part->noteText;
    default:
        return {};
    }
}

QVariant BudgetModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ItemColumn:
        return tr("Message / part");
    case StatusColumn:
        return tr("Sent as");
    case ReasonColumn:
        return tr("Why");
    case SizeColumn:
        return tr("Size");
    case TokensColumn:
        return tr("Tokens (est.)");
    case SentColumn:
        return tr("Stub or note actually sent");
    default:
        return {};
    }
}

} // namespace Callscope
