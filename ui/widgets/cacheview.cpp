#include "ui/widgets/cacheview.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <cmath>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

enum Column { BlockColumn, TokensColumn, HashColumn, BreakpointColumn, CompareColumn, ColumnCount };

QString statusText(const QString &status)
{
    if (status == u"hit")
        return CacheView::tr("read from the cache");
    if (status == u"written")
        return CacheView::tr("written to the cache");
    if (status == u"hit+written")
        return CacheView::tr("read from the cache, and more written");
    if (status == u"miss")
        return CacheView::tr("missed the cache");
    return CacheView::tr("this engine has no prompt cache");
}

QString money(double usd)
{
    return QLocale().toString(usd, 'f', usd < 0.01 ? 4 : 2);
}

} // namespace

CacheView::CacheView(QWidget *parent)
    : QWidget(parent)
    , m_summary(new QLabel(this))
    , m_turn(new QComboBox(this))
    , m_status(new QLabel(this))
    , m_reason(new QLabel(this))
    , m_blocks(new QTreeWidget(this))
{
    m_summary->setObjectName(u"cacheSummary"_s);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_turn->setObjectName(u"cacheTurn"_s);
    m_turn->setAccessibleName(tr("Turn"));
    m_status->setObjectName(u"cacheStatus"_s);
    m_reason->setObjectName(u"cacheReason"_s);
    m_reason->setWordWrap(true);
    m_reason->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_blocks->setObjectName(u"cacheBlocks"_s);
    m_blocks->setAccessibleName(tr("The request's prefix, block by block"));
    m_blocks->setColumnCount(ColumnCount);
    m_blocks->setHeaderLabels(
        { tr("Block"), tr("Tokens (estimate)"), tr("Hash"), tr("Breakpoint"), tr("Compared") });
    m_blocks->setRootIsDecorated(false);
    m_blocks->setUniformRowHeights(true);
    m_blocks->header()->setStretchLastSection(true);

    auto *turnRow = new QHBoxLayout;
    auto *turnLabel = new QLabel(tr("T&urn:"), this);
    turnLabel->setBuddy(m_turn);
    turnRow->addWidget(turnLabel);
    turnRow->addWidget(m_turn);
    turnRow->addWidget(m_status, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addLayout(turnRow);
    layout->addWidget(m_reason);
    layout->addWidget(m_blocks, 1);

    connect(m_turn, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0)
            showTurn(index);
    });
}

void CacheView::setReport(const CacheReport &report, std::optional<double> costUsd,
                          std::optional<double> uncachedUsd)
{
    m_report = report;
    const QLocale locale;
    Usage total;
    int reading = 0;
    for (const CacheTurnReport &t : report.turns) {
        total += t.usage;
        reading += t.usage.cacheReadTokens > 0 ? 1 : 0;
    }
    QStringList parts;
    parts.append(tr("read the cache in %1 of %2 turns").arg(reading).arg(report.turns.size()));
    parts.append(tr("%1 tokens read, %2 written, %3 uncached")
                     .arg(locale.toString(total.cacheReadTokens),
                          locale.toString(total.cacheWriteTokens),
                          locale.toString(total.inputTokens)));
    if (costUsd && uncachedUsd)
        parts.append(tr("$%1 ($%2 without the cache: %3 $%4)")
                         .arg(money(*costUsd), money(*uncachedUsd),
                              *uncachedUsd >= *costUsd ? tr("saved") : tr("lost"),
                              money(std::abs(*uncachedUsd - *costUsd))));
    if (report.minimumTokens > 0)
        parts.append(tr("%1 caches from %2 tokens")
                         .arg(report.model, locale.toString(report.minimumTokens)));
    if (!report.fromExchanges)
        parts.append(tr("the requests of this call were not kept, so no blocks can be shown"));
    m_summary->setText(parts.join(u" · "_s));

    const QSignalBlocker blocker(m_turn);
    m_turn->clear();
    for (const CacheTurnReport &t : report.turns)
        m_turn->addItem(tr("Turn %1: %2").arg(t.turn + 1).arg(statusText(t.status)));
    m_turn->setEnabled(!report.turns.isEmpty());
    if (!report.turns.isEmpty()) {
        // The first miss is what the person came for.
        int pick = 0;
        for (int i = 0; i < report.turns.size(); ++i) {
            if (!report.turns.at(i).reason.isEmpty() && report.turns.at(i).reasonKind != u"first") {
                pick = i;
                break;
            }
        }
        m_turn->setCurrentIndex(pick);
        showTurn(pick);
    } else {
        m_status->clear();
        m_reason->clear();
        m_blocks->clear();
    }
}

void CacheView::showTurn(int index)
{
    m_blocks->clear();
    if (index < 0 || index >= m_report.turns.size())
        return;
    const CacheTurnReport &t = m_report.turns.at(index);
    const QLocale locale;
    m_status->setText(tr("%1 read · %2 written · %3 uncached")
                          .arg(locale.toString(t.usage.cacheReadTokens),
                               locale.toString(t.usage.cacheWriteTokens),
                               locale.toString(t.usage.inputTokens)));
    if (t.reason.isEmpty())
        m_reason->setText(t.usage.cacheReadTokens > 0
                              ? tr("%1 tokens of this request's prefix were read from the cache.")
                                    .arg(locale.toString(t.usage.cacheReadTokens))
                              : QString());
    else
        m_reason->setText(tr("Why: %1").arg(t.reason));
    for (int i = 0; i < t.blocks.size(); ++i) {
        const CachePrefixBlock &b = t.blocks.at(i);
        auto *item = new QTreeWidgetItem(m_blocks);
        item->setText(BlockColumn, b.label());
        item->setText(TokensColumn, locale.toString(b.tokens));
        item->setTextAlignment(TokensColumn, Qt::AlignRight | Qt::AlignVCenter);
        item->setText(HashColumn, b.hash);
        item->setText(BreakpointColumn, b.breakpoint ? tr("breakpoint") : QString());
        if (t.differentBlock >= 0) {
            if (i < t.differentBlock)
                item->setText(CompareColumn, tr("same"));
            else if (i == t.differentBlock)
                item->setText(
                    CompareColumn,
                    tr("differs at character %1").arg(locale.toString(qint64(t.differentAt))));
        }
        if (i == t.differentBlock) {
            QFont bold = item->font(BlockColumn);
            bold.setBold(true);
            for (int c = 0; c < ColumnCount; ++c)
                item->setFont(c, bold);
        }
        item->setToolTip(BlockColumn, b.text.left(400));
    }
    if (t.automaticBreakpoint)
        m_status->setText(m_status->text() + tr(" · automatic breakpoint"));
    for (int c = 0; c < ColumnCount - 1; ++c)
        m_blocks->resizeColumnToContents(c);
}

QString CacheView::summaryText() const
{
    return m_summary->text();
}

QString CacheView::reasonText() const
{
    return m_reason->text();
}

} // namespace Callscope
