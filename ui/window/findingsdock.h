#pragma once

// The Findings panel below the spec tabs: the findings of the spec in front, one row each
// (severity, where, what, which rule). Picking a row asks the window to show that place.

#include "ui/widgets/findingsmodel.h"

#include <QDockWidget>

class QModelIndex;
class QTableView;

namespace Callscope {

class FindingsDock final : public QDockWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FindingsDock)

public:
    explicit FindingsDock(QWidget *parent = nullptr);
    ~FindingsDock() override;

    SpecFindingsModel *model() const { return m_findings; }
    QTableView *view() const { return m_findingsView; }
    // Lists `findings`; the title counts them.
    void setFindings(const QList<SpecFinding> &findings);

Q_SIGNALS:
    // A row was picked: the JSON Pointer of the place, and its line and column in the text.
    void findingActivated(const QString &pointer, int line, int column);

private:
    void activate(const QModelIndex &index);

    SpecFindingsModel *m_findings = nullptr;
    QTableView *m_findingsView = nullptr;
};

} // namespace Callscope
