#include "ui/window/findingsdock.h"

#include "ui/widgets/findingsmodel.h"

#include <QCoreApplication>
#include <QHeaderView>
#include <QTableView>

using namespace Qt::StringLiterals;

namespace Callscope {

// The view keeps the window's translations (its strings were the window's).
FindingsDock::FindingsDock(QWidget *parent)
    : QDockWidget(QCoreApplication::translate("Callscope::MainWindow", "Findings"), parent)
    , m_findings(new SpecFindingsModel(this))
{
    m_findingsView = new QTableView(this);
    m_findingsView->setObjectName(u"findingsView"_s);
    m_findingsView->setAccessibleName(
        QCoreApplication::translate("Callscope::MainWindow", "Findings"));
    m_findingsView->setModel(m_findings);
    m_findingsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_findingsView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_findingsView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // Messages wrap, so a narrow panel still shows them whole.
    m_findingsView->setWordWrap(true);
    m_findingsView->setAlternatingRowColors(true);
    m_findingsView->verticalHeader()->hide();
    m_findingsView->verticalHeader()->setDefaultSectionSize(m_findingsView->fontMetrics().height()
                                                            + 8);
    m_findingsView->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    QHeaderView *header = m_findingsView->horizontalHeader();
    header->setSectionResizeMode(SpecFindingsModel::SeverityColumn, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(SpecFindingsModel::LocationColumn, QHeaderView::Interactive);
    header->setSectionResizeMode(SpecFindingsModel::MessageColumn, QHeaderView::Stretch);
    header->setSectionResizeMode(SpecFindingsModel::RuleColumn, QHeaderView::Interactive);
    // Long pointers keep their start and their end ("/tools/0/…/properties/x"); the message
    // takes the remaining width and shows in full as a tooltip.
    m_findingsView->setTextElideMode(Qt::ElideMiddle);
    // Narrow where and which rule, so the message keeps the room at 1280 px.
    header->resizeSection(SpecFindingsModel::LocationColumn, 140);
    header->resizeSection(SpecFindingsModel::RuleColumn, 110);
    connect(m_findingsView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &FindingsDock::activate);
    connect(m_findingsView, &QAbstractItemView::activated, this, &FindingsDock::activate);

    setObjectName(u"findingsDock"_s);
    setWidget(m_findingsView);
}

FindingsDock::~FindingsDock() = default;

void FindingsDock::setFindings(const QList<SpecFinding> &findings)
{
    m_findings->setFindings(findings);
    setWindowTitle(findings.isEmpty()
                       ? QCoreApplication::translate("Callscope::MainWindow", "Findings")
                       : QCoreApplication::translate("Callscope::MainWindow", "Findings (%1)")
                             .arg(findings.size()));
}

void FindingsDock::activate(const QModelIndex &index)
{
    if (!index.isValid())
        return;
    Q_EMIT findingActivated(index.data(SpecFindingsModel::PointerRole).toString(),
                            index.data(SpecFindingsModel::LineRole).toInt(),
                            index.data(SpecFindingsModel::ColumnRole).toInt());
}

} // namespace Callscope
