#include "ui/widgets/findingsmodel.h"

#include "ui/widgets/displaynames.h"

#include <QApplication>
#include <QStyle>

using namespace Qt::StringLiterals;

namespace Callscope {

SpecFinding SpecFinding::fromLint(const LintFinding &lint)
{
    SpecFinding f;
    f.severity = lint.severity == LintSeverity::Warning ? Severity::Warning : Severity::Info;
    f.source = Source::Lint;
    f.pointer = lint.pointer;
    f.message = lint.message;
    f.rule = lint.rule;
    return f;
}

SpecFindingsModel::SpecFindingsModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

SpecFindingsModel::~SpecFindingsModel() = default;

void SpecFindingsModel::setFindings(const QList<SpecFinding> &findings)
{
    if (findings == m_findings)
        return;
    beginResetModel();
    m_findings = findings;
    endResetModel();
}

int SpecFindingsModel::errorCount() const
{
    return int(std::count_if(m_findings.cbegin(), m_findings.cend(), [](const SpecFinding &f) {
        return f.severity == SpecFinding::Severity::Error;
    }));
}

int SpecFindingsModel::count(SpecFinding::Severity severity) const
{
    return int(std::count_if(m_findings.cbegin(), m_findings.cend(),
                             [severity](const SpecFinding &f) { return f.severity == severity; }));
}

QString SpecFindingsModel::severityText(SpecFinding::Severity severity)
{
    switch (severity) {
    case SpecFinding::Severity::Error:
        return tr("Error");
    case SpecFinding::Severity::Warning:
        return tr("Warning");
    case SpecFinding::Severity::Info:
        return tr("Info");
    }
    return {};
}

int SpecFindingsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_findings.size());
}

int SpecFindingsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SpecFindingsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const SpecFinding &f = m_findings.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case SeverityColumn:
            return severityText(f.severity);
        case LocationColumn:
            if (f.line > 0)
                return tr("line %1, column %2").arg(f.line).arg(f.column);
            return f.pointer.isEmpty() ? tr("(document)") : f.pointer;
        case MessageColumn:
            return f.message;
        case RuleColumn:
            // A schema error names the keyword that is wrong; lint advice, its rule.
            return lintRuleDisplayName(f.keyword.isEmpty() ? f.rule : f.keyword);
        }
        return {};
    case Qt::DecorationRole:
        if (index.column() != SeverityColumn)
            return {};
        return QApplication::style()->standardIcon(
            f.severity == SpecFinding::Severity::Error         ? QStyle::SP_MessageBoxCritical
                : f.severity == SpecFinding::Severity::Warning ? QStyle::SP_MessageBoxWarning
                                                               : QStyle::SP_MessageBoxInformation);
    case Qt::ToolTipRole: {
        QString tip = f.pointer.isEmpty() ? f.message : f.pointer + u": "_s + f.message;
        // The id is what `callscope-cli lint` prints and what a person searches the docs for.
        if (!f.rule.isEmpty())
            tip += u"\n"_s + tr("Rule id: %1").arg(f.rule);
        return tip;
    }
    case PointerRole:
        return f.pointer;
    case SeverityRole:
        return int(f.severity);
    case SourceRole:
        return int(f.source);
    case RuleRole:
        return f.rule;
    case LineRole:
        return f.line;
    case ColumnRole:
        return f.column;
    default:
        return {};
    }
}

QVariant SpecFindingsModel::headerData(int section, Qt::Orientation orientation, int role) const
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
    }
    return {};
}

} // namespace Callscope
