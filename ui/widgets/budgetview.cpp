#include "ui/widgets/budgetview.h"

#include "ui/widgets/budgetbardelegate.h"
#include "ui/widgets/budgetmodel.h"
#include "ui/widgets/cacheview.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QStackedWidget>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Callscope {

QString BudgetView::budgetLineText(const BudgetReport &report)
{
    const BudgetSettings &settings = report.settings;
    if (settings.source == BudgetSource::Unlimited || !settings.toolResultsInContext)
        return tr("No limit: every tool result is sent in full.");

    QLocale locale;
    const QString size = settings.unit == BudgetUnit::Chars
        ? tr("%1 characters").arg(locale.toString(settings.budgetValue))
        : tr("%1 tokens (about %2 characters)")
              .arg(locale.toString(settings.budgetValue), locale.toString(report.budgetChars));
    QString where;
    switch (settings.source) {
    case BudgetSource::EngineTokens:
        where = tr("the limit set on the engine");
        break;
    case BudgetSource::SettingTokens:
    case BudgetSource::SettingChars:
        where = tr("the limit set in the spec's context settings");
        break;
    case BudgetSource::ContextWindow:
        where = tr("a fifth of the engine's context window");
        break;
    case BudgetSource::AssumedContextWindow:
        where = tr("a fifth of a %1-token context window, assumed because the engine does not give "
                   "its size")
                    .arg(locale.toString(AssumedContextWindowTokens));
        break;
    case BudgetSource::Unlimited:
        break;
    }
    return tr("The newest %n large tool result(s) go in full; older ones too while they fit in %1, "
              "%2.",
              nullptr, *settings.toolResultsInContext)
        .arg(size, where);
}

BudgetView::BudgetView(QWidget *parent)
    : QWidget(parent)
    , m_model(new BudgetModel(this))
    , m_view(new QTableView(this))
    , m_turn(new QComboBox(this))
    , m_title(new QLabel(this))
    , m_summary(new QLabel(this))
{
    setObjectName(u"budgetView"_s);
    auto *bar = new QHBoxLayout;
    bar->addWidget(m_title);
    bar->addStretch(1);
    bar->addWidget(new QLabel(tr("Request:"), this));
    bar->addWidget(m_turn);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_view->setModel(m_model);
    m_view->setItemDelegateForColumn(BudgetModel::SizeColumn, new BudgetBarDelegate(m_view));
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);

    // The budget, and the prompt cache of the same call.
    auto *budgetPage = new QWidget(this);
    auto *budgetLayout = new QVBoxLayout(budgetPage);
    budgetLayout->setContentsMargins(0, 0, 0, 0);
    budgetLayout->addWidget(m_summary);
    budgetLayout->addWidget(m_view, 1);
    m_cache = new CacheView(this);
    m_cache->setObjectName(u"budgetCache"_s);
    m_cacheEmpty = new QLabel(tr("No call is shown."), this);
    m_cacheEmpty->setAlignment(Qt::AlignCenter);
    m_cacheEmpty->setWordWrap(true);
    auto *cachePage = new QStackedWidget(this);
    cachePage->setObjectName(u"budgetCachePage"_s);
    cachePage->addWidget(m_cacheEmpty);
    cachePage->addWidget(m_cache);
    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(u"budgetTabs"_s);
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(budgetPage, tr("B&udget"));
    m_tabs->addTab(cachePage, tr("Prompt ca&che"));

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_tabs, 1);
    connect(m_turn, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i >= 0)
            showTurn(m_turn->itemData(i).toInt());
    });
}

BudgetView::~BudgetView() = default;

QString BudgetView::summaryText() const
{
    return m_summary->text();
}

void BudgetView::setCacheTabShown(bool shown)
{
    m_tabs->setTabVisible(1, shown);
    m_tabs->tabBar()->setVisible(shown);
}

void BudgetView::setCacheReport(const CacheReport &report, std::optional<double> costUsd,
                                std::optional<double> uncachedUsd)
{
    if (report.callId != m_record.id)
        return; // the report of a call no longer shown
    m_cache->setReport(report, costUsd, uncachedUsd);
    static_cast<QStackedWidget *>(m_tabs->widget(1))->setCurrentWidget(m_cache);
}

void BudgetView::setCall(const CallRecord &record)
{
    m_record = record;
    m_cacheEmpty->setText(tr("Reading the prompt cache of call %1…").arg(record.id));
    static_cast<QStackedWidget *>(m_tabs->widget(1))->setCurrentWidget(m_cacheEmpty);
    m_title->setText(tr("Call %1 · %2 · %3 %4")
                         .arg(record.id)
                         .arg(record.kind, record.engineType, record.model));
    const QSignalBlocker blocker(m_turn);
    m_turn->clear();
    for (const TurnRecord &turn : record.turns) {
        if (turn.requestReport.isEmpty())
            continue;
        QString label = tr("Turn %1").arg(turn.index + 1);
        if (!turn.note.isEmpty())
            label += u" ("_s + turn.note + u")"_s;
        m_turn->addItem(label, turn.index);
    }
    m_turn->setEnabled(m_turn->count() > 0);
    if (m_turn->count() == 0) {
        m_model->clear();
        m_summary->setText(tr("This call has no recorded request reports."));
        return;
    }
    m_turn->setCurrentIndex(m_turn->count() - 1);
    showTurn(m_turn->currentData().toInt());
}

void BudgetView::showTurn(int turnIndex)
{
    for (const TurnRecord &turn : m_record.turns) {
        if (turn.index == turnIndex) {
            const int at = m_turn->findData(turnIndex);
            if (at >= 0 && at != m_turn->currentIndex()) {
                const QSignalBlocker blocker(m_turn);
                m_turn->setCurrentIndex(at);
            }
            showReport(BudgetReport::fromJson(turn.requestReport));
            return;
        }
    }
}

void BudgetView::setReport(const BudgetReport &report, const QString &title)
{
    m_record = CallRecord();
    m_cacheEmpty->setText(tr("The prompt cache is shown for a stored call."));
    static_cast<QStackedWidget *>(m_tabs->widget(1))->setCurrentWidget(m_cacheEmpty);
    m_turn->clear();
    m_turn->setEnabled(false);
    m_title->setText(title);
    showReport(report);
}

void BudgetView::showReport(const BudgetReport &report)
{
    m_model->setReport(report);
    QLocale locale;
    QString text = tr("Budget: %1").arg(budgetLineText(report));
    text += u"\n"_s
        + tr("Large tool results (over 500 characters): %n", nullptr, report.largeResults) + u", "_s
        + tr("%n sent in full", nullptr, report.keptLargeResults) + u", "_s
        + tr("%n replaced by a short note", nullptr, report.stubbedResults) + u" · "_s
        + tr("the full ones take %1 of %2 characters")
              .arg(locale.toString(report.usedChars), locale.toString(report.budgetChars));
    if (report.images > 0)
        text += u" · "_s + tr("images: %n", nullptr, report.images) + u", "_s
            + tr("%n left out", nullptr, report.droppedImages);
    text += u"\n"_s
        + tr("Request: %1 → %2 characters, about %3 → %4 tokens")
              .arg(locale.toString(report.charsBefore), locale.toString(report.charsAfter),
                   locale.toString(report.tokensBefore), locale.toString(report.tokensAfter));
    if (report.providerInputTokens)
        text += tr(" (the provider counted %1)").arg(locale.toString(*report.providerInputTokens));
    m_summary->setText(text);
    m_view->resizeColumnsToContents();
    m_view->setColumnWidth(BudgetModel::SizeColumn,
                           std::max(m_view->columnWidth(BudgetModel::SizeColumn), 240));
}

} // namespace Callscope
