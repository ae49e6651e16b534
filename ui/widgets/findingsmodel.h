#pragma once

// The findings of the spec being edited: JSON syntax errors, spec file errors, response and
// tool schemas checked against the 2020-12 meta-schema, and lint advice. Each names the JSON
// Pointer of its spot in the spec document (or, for a JSON syntax error, its line and column),
// as a table of severity, location, message and rule.

#include "core/schema/lint.h"

#include <QAbstractTableModel>
#include <QList>

namespace Callscope {

struct SpecFinding
{
    enum class Severity { Error, Warning, Info };
    enum class Source { Json, Spec, Schema, Lint };

    Severity severity = Severity::Warning;
    Source source = Source::Lint;
    QString pointer; // into the whole spec document
    QString message;
    QString rule; // lint rule id, or SpecSchemaError::rule() for a schema that is not valid
    int line = 0; // JSON syntax errors: where in the editor's text (1-based)
    int column = 0;
    QString editor; // JSON syntax errors: which editor's text
    QString keyword; // a schema that is not valid: the JSON Schema keyword that is wrong

    // A lint finding as a row of the list.
    static SpecFinding fromLint(const LintFinding &lint);

    friend bool operator==(const SpecFinding &, const SpecFinding &) = default;
};

class SpecFindingsModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SpecFindingsModel)

public:
    enum Column { SeverityColumn, LocationColumn, MessageColumn, RuleColumn, ColumnCount };
    enum Role {
        PointerRole = Qt::UserRole + 1,
        SeverityRole,
        SourceRole,
        RuleRole,
        LineRole,
        ColumnRole
    };

    explicit SpecFindingsModel(QObject *parent = nullptr);
    ~SpecFindingsModel() override;

    void setFindings(const QList<SpecFinding> &findings);
    const QList<SpecFinding> &findings() const { return m_findings; }
    const SpecFinding &finding(int row) const { return m_findings.at(row); }
    int errorCount() const;
    int count(SpecFinding::Severity severity) const;
    static QString severityText(SpecFinding::Severity severity);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QList<SpecFinding> m_findings;
};

} // namespace Callscope
