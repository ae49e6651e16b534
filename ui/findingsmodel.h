#pragma once

// The findings of the open spec: load errors (the spec cannot run) and lint findings
// (advice), as a table of severity, location (JSON Pointer), message and rule.

#include "core/schema/lint.h"

#include <QAbstractTableModel>
#include <QList>

namespace Callscope {

struct SpecError;

struct Finding
{
    enum class Severity { Error, Warning, Info };

    Severity severity = Severity::Error;
    QString pointer;
    QString message;
    QString rule;           // lint rule id; empty for load errors
    qsizetype position = -1; // text offset when known without the pointer (JSON syntax errors)

    static Finding fromError(const SpecError &error);
    static Finding fromLint(const LintFinding &finding);

    friend bool operator==(const Finding &, const Finding &) = default;
};

class FindingsModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FindingsModel)

public:
    enum Column { SeverityColumn, LocationColumn, MessageColumn, RuleColumn, ColumnCount };
    enum Role { PointerRole = Qt::UserRole + 1, SeverityRole, PositionRole, RuleRole };

    explicit FindingsModel(QObject *parent = nullptr);
    ~FindingsModel() override;

    void setFindings(const QList<Finding> &findings);
    const QList<Finding> &findings() const { return m_findings; }
    Finding finding(int row) const { return m_findings.value(row); }
    int count(Finding::Severity severity) const;

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QString severityText(Finding::Severity severity);

private:
    QList<Finding> m_findings;
};

} // namespace Callscope
