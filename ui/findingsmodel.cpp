#include "ui/findingsmodel.h"

#include "core/model/specio.h"

#include <QApplication>
#include <QIcon>
#include <QStyle>

using namespace Qt::StringLiterals;

namespace Callscope {

Finding Finding::fromError(const SpecError &error)
{
    return {Severity::Error, error.pointer, error.message, QString(), -1};
}

Finding Finding::fromLint(const LintFinding &finding)
{
    return {finding.severity == LintSeverity::Warning ? Severity::Warning : Severity::Info,
            finding.pointer, finding.message, finding.rule, -1};
}

FindingsModel::FindingsModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

FindingsModel::~FindingsModel() = default;

void FindingsModel::setFindings(const QList<Finding> &findings)
{
    if (findings == m_findings)
        return;
    beginResetModel();
    m_findings = findings;
    endResetModel();
}

int FindingsModel::count(Finding::Severity severity) const
{
    return int(std::count_if(m_findings.cbegin(), m_findings.cend(),
                             [severity](const Finding &f) { return f.severity == severity; }));
}

int FindingsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_findings.size());
}

int FindingsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString FindingsModel::severityText(Finding::Severity severity)
{
    switch (severity) {
    case Finding::Severity::Error:
        return tr("Error");
    case Finding::Severity::Warning:
        return tr("Warning");
    case Finding::Severity::Info:
        return tr("Info");
    }
    return {};
}

QVariant FindingsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Finding &f = m_findings.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case SeverityColumn:
            return severityText(f.severity);
        case LocationColumn:
            return f.pointer.isEmpty() ? tr("(document)") : f.pointer;
        case MessageColumn:
            return f.message;
        case RuleColumn:
            return f.rule;
        default:
            return {};
        }
    case Qt::ToolTipRole:
        if (index.column() == MessageColumn || index.column() == LocationColumn)
            return f.pointer.isEmpty() ? f.message : f.pointer + u": "_s + f.message;
        return {};
    case Qt::DecorationRole:
        if (index.column() != SeverityColumn)
            return {};
        switch (f.severity) {
        case Finding::Severity::Error:
            return qApp->style()->standardIcon(QStyle::SP_MessageBoxCritical);
        case Finding::Severity::Warning:
            return qApp->style()->standardIcon(QStyle::SP_MessageBoxWarning);
        case Finding::Severity::Info:
            return qApp->style()->standardIcon(QStyle::SP_MessageBoxInformation);
        }
        return {};
    case PointerRole:
        return f.pointer;
    case SeverityRole:
        return int(f.severity);
    case PositionRole:
        return qlonglong(f.position);
    case RuleRole:
        return f.rule;
    default:
        return {};
    }
}

QVariant FindingsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SeverityColumn:
        return tr("Severity");
    case LocationColumn:
        return tr("Location");
    case MessageColumn:
        return tr("Message");
    case RuleColumn:
        return tr("Rule");
    default:
        return {};
    }
}

} // namespace Callscope
