#include "ui/history/historybrowser.h"

#include "core/eval/telemetrysettings.h"
#include "core/model/spec.h"
#include "core/service/calljob.h"
#include "core/service/callservice.h"
#include "core/store/historywatcher.h"
#include "core/store/storereader.h"
#include "core/telemetry/genaispans.h"
#include "ui/history/historymodel.h"
#include "ui/widgets/callview.h"
#include "ui/widgets/displaynames.h"
#include "ui/widgets/noticebar.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateEdit>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <memory>
#include <utility>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {
constexpr int kSearchDelayMs = 300;
}

HistoryBrowser::HistoryBrowser(CallStore *store, QWidget *parent)
    : HistoryBrowser(store, nullptr, parent)
{ }

HistoryBrowser::HistoryBrowser(CallStore *store, StoreReader *reader, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
    , m_reader(reader)
    , m_model(new HistoryModel(nullptr, this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTableView(this))
    , m_callView(new CallView(this))
    , m_search(new QLineEdit(this))
    , m_kind(new QLineEdit(this))
    , m_person(new QLineEdit(this))
    , m_status(new QComboBox(this))
    , m_engine(new QComboBox(this))
    , m_dateRange(new QCheckBox(tr("From"), this))
    , m_from(new QDateEdit(this))
    , m_to(new QDateEdit(this))
    , m_message(new NoticeBar(this))
    , m_loading(new QLabel(tr("Loading the history…"), this))
    , m_loadingDelay(new QTimer(this))
    , m_debounce(new QTimer(this))
{
    setObjectName(u"historyBrowser"_s);
    m_search->setPlaceholderText(tr("Search input, output and tools…"));
    m_search->setClearButtonEnabled(true);
    m_kind->setObjectName(u"historyKind"_s);
    m_kind->setPlaceholderText(tr("Kind"));
    m_kind->setClearButtonEnabled(true);
    m_person->setObjectName(u"historyPerson"_s);
    m_person->setPlaceholderText(tr("Person"));
    m_person->setToolTip(tr("Only the calls of this person (the name in their settings)"));
    m_person->setClearButtonEnabled(true);
    m_status->addItem(tr("Any status"));
    for (CallStatus s : { CallStatus::Completed, CallStatus::Failed, CallStatus::TurnLimited,
                          CallStatus::Cancelled, CallStatus::Running })
        m_status->addItem(callStatusDisplayName(s), callStatusName(s));
    m_engine->addItem(tr("Any engine"));
    for (const QString &name : engineTypeNames())
        m_engine->addItem(name, name);
    const QDate today = QDate::currentDate();
    m_from->setCalendarPopup(true);
    m_to->setCalendarPopup(true);
    m_from->setDate(today.addDays(-7));
    m_to->setDate(today);
    m_from->setEnabled(false);
    m_to->setEnabled(false);
    m_dateRange->setToolTip(tr("Only calls started between these two days (both included)"));

    // Four short rows (the words to look for; kind and person; status and engine; the days) so
    // the panel fits the window's sidebar with every field readable (four in one row left
    // "Ki…" and "P…" at 320 px).
    auto *filters = new QVBoxLayout;
    filters->addWidget(m_search);
    auto *who = new QHBoxLayout;
    who->addWidget(m_kind, 1);
    who->addWidget(m_person, 1);
    auto *what = new QHBoxLayout;
    what->addWidget(m_status, 1);
    what->addWidget(m_engine, 1);
    m_status->setMinimumContentsLength(8);
    m_status->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_engine->setMinimumContentsLength(8);
    m_engine->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    auto *when = new QHBoxLayout;
    when->addWidget(m_dateRange);
    when->addWidget(m_from);
    when->addWidget(new QLabel(tr("to"), this));
    when->addWidget(m_to);
    when->addStretch(1);
    filters->addLayout(who);
    filters->addLayout(what);
    filters->addLayout(when);

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(HistoryModel::SortRole);
    m_view->setModel(m_proxy);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(HistoryModel::StartedColumn, Qt::DescendingOrder);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->installEventFilter(this);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_view);
    splitter->addWidget(m_callView);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);

    m_message->setObjectName(u"historyMessages"_s);
    m_message->hide();
    m_loading->setObjectName(u"historyLoading"_s);
    m_loading->setEnabled(false); // a quiet grey line
    m_loading->hide();

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(filters);
    layout->addWidget(m_message);
    layout->addWidget(m_loading);
    layout->addWidget(splitter, 1);

    m_debounce->setSingleShot(true);
    m_debounce->setInterval(kSearchDelayMs);
    connect(m_debounce, &QTimer::timeout, this, &HistoryBrowser::applyFilters);
    connect(m_search, &QLineEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_kind, &QLineEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_person, &QLineEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_status, &QComboBox::currentIndexChanged, this, &HistoryBrowser::applyFilters);
    connect(m_engine, &QComboBox::currentIndexChanged, this, &HistoryBrowser::applyFilters);
    connect(m_dateRange, &QCheckBox::toggled, this, [this](bool on) {
        m_from->setEnabled(on);
        m_to->setEnabled(on);
        applyFilters();
    });
    connect(m_from, &QDateEdit::dateChanged, this, [this] {
        if (m_dateRange->isChecked())
            applyFilters();
    });
    connect(m_to, &QDateEdit::dateChanged, this, [this] {
        if (m_dateRange->isChecked())
            applyFilters();
    });
    // "Loading" only when a read takes longer than a blink.
    m_loadingDelay->setSingleShot(true);
    m_loadingDelay->setInterval(300);
    connect(m_loadingDelay, &QTimer::timeout, this, [this] { m_loading->setVisible(isLoading()); });
    connect(m_model, &HistoryModel::loadingChanged, this, [this](bool loading) {
        if (loading) {
            if (!m_loadingDelay->isActive() && m_loading->isHidden())
                m_loadingDelay->start();
        } else {
            m_loadingDelay->stop();
            m_loading->hide();
        }
    });
    // The picked rows survive every reload: they are picked again when the new rows are in.
    connect(m_model, &QAbstractItemModel::modelAboutToBeReset, this, [this] {
        if (m_picked.recorded)
            return;
        m_picked.recorded = true;
        m_picked.current = selectedCallId();
        m_picked.others.clear();
        for (const QModelIndex &index : m_view->selectionModel()->selectedRows()) {
            const qint64 id = index.data(HistoryModel::CallIdRole).toLongLong();
            if (id > 0 && id != m_picked.current)
                m_picked.others.append(id);
        }
    });
    connect(m_model, &HistoryModel::loaded, this, &HistoryBrowser::onLoaded);
    connect(m_model, &HistoryModel::errorOccurred, this, [this](const QString &message) {
        m_message->showMessage(tr("The history could not be read: %1").arg(message),
                               NoticeBar::Kind::Error);
        m_message->show();
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &HistoryBrowser::onSelectionChanged);
    connect(m_view, &QTableView::customContextMenuRequested, this, [this](const QPoint &pos) {
        const qint64 id = selectedCallId();
        if (id <= 0)
            return;
        auto *menu = new QMenu(this);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->addAction(tr("Open"), this, [this, id] { Q_EMIT callOpened(id); });
        menu->addSeparator();
        menu->addAction(tr("Revision tree"), this,
                        [this, id] { Q_EMIT revisionTreeRequested(id); });
        menu->addAction(tr("Diff with parent"), this, [this, id] { Q_EMIT diffRequested(id); });
        menu->addAction(tr("Context budget"), this, [this, id] { Q_EMIT budgetRequested(id); });
        menu->addAction(tr("Export…"), this, [this, id] { Q_EMIT exportRequested(id); });
        if (const QString link = TelemetrySettings::load(QSettings()).traceUrl;
            !link.trimmed().isEmpty() && Telemetry::traceViewerTemplateProblem(link).isEmpty())
            menu->addAction(tr("Open Trace"), this, [this, id] { Q_EMIT traceRequested(id); });
        menu->popup(m_view->viewport()->mapToGlobal(pos));
    });
    connect(m_view, &QTableView::activated, this, [this](const QModelIndex &index) {
        Q_EMIT callOpened(index.data(HistoryModel::CallIdRole).toLongLong());
    });

    m_model->setReader(reader);
    setStore(store);
}

HistoryBrowser::~HistoryBrowser() = default;

int HistoryBrowser::searchDelayMs() const
{
    return kSearchDelayMs;
}

void HistoryBrowser::setStore(CallStore *store)
{
    m_store = store;
    // Calls another process (a CLI batch, an import) or the store writer committed show up
    // without a restart.
    watchStore();
    m_callView->clear();
    m_showing = 0;
    m_pendingOpen = 0;
    m_model->setStore(store);
    m_picked = {};
    applyFilters();
}

void HistoryBrowser::watchStore()
{
    delete m_watcher;
    m_watcher = nullptr;
    if (!m_store)
        return;
    // With a reader the question runs on its thread: the GUI thread runs no SQL.
    m_watcher = m_reader ? new HistoryWatcher(m_reader, 1000, this)
                         : new HistoryWatcher(&m_store->database(), 1000, this);
    connect(m_watcher, &HistoryWatcher::changed, this, &HistoryBrowser::requestRefresh);
}

void HistoryBrowser::setReader(StoreReader *reader)
{
    m_reader = reader;
    m_model->setReader(reader);
    watchStore();
}

bool HistoryBrowser::isLoading() const
{
    return m_model->isLoading() || m_showing != 0;
}

void HistoryBrowser::setCallService(CallService *service)
{
    if (!service)
        return;
    // Any call stored from any panel: new rows appear at once.
    connect(service, &CallService::jobFinished, this,
            [this](CallJob *, const LaunchResult &result) {
                if (result.stored)
                    requestRefresh();
            });
}

void HistoryBrowser::requestRefresh()
{
    // Many calls finishing together (a batch, here or in another process) refresh the list
    // at most every 150 ms, not once per call.
    if (!m_quiet) {
        m_quiet = new QTimer(this);
        m_quiet->setSingleShot(true);
        m_quiet->setInterval(150);
        connect(m_quiet, &QTimer::timeout, this, [this] {
            if (m_refreshMissed) {
                m_refreshMissed = false;
                refresh();
            }
        });
    }
    if (m_quiet->isActive()) {
        m_refreshMissed = true;
        return;
    }
    refresh();
    m_quiet->start();
}

HistoryQuery HistoryBrowser::currentQuery() const
{
    HistoryQuery query;
    query.search = m_search->text().trimmed();
    query.kind = m_kind->text().trimmed();
    query.person = m_person->text().trimmed();
    if (m_status->currentIndex() > 0)
        query.status = callStatusFromName(m_status->currentData().toString());
    if (m_engine->currentIndex() > 0)
        query.engineType = m_engine->currentData().toString();
    if (m_dateRange->isChecked()) {
        query.from = m_from->date().startOfDay();
        query.to = m_to->date().addDays(1).startOfDay();
    }
    return query;
}

void HistoryBrowser::applyFilters()
{
    m_debounce->stop();
    m_message->hide();
    m_model->setQuery(currentQuery());
}

void HistoryBrowser::refresh()
{
    m_model->reload();
}

bool HistoryBrowser::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_view && event->type() == QEvent::Resize)
        fitColumns();
    return QWidget::eventFilter(watched, event);
}

void HistoryBrowser::fitColumns()
{
    static constexpr int kByNeed[] = {
        HistoryModel::IdColumn,     HistoryModel::StatusColumn,   HistoryModel::StartedColumn,
        HistoryModel::EngineColumn, HistoryModel::KindColumn,     HistoryModel::ModelColumn,
        HistoryModel::TokensColumn, HistoryModel::DurationColumn, HistoryModel::RevisionsColumn,
    };
    QHeaderView *header = m_view->horizontalHeader();
    const int room = m_view->viewport()->width();
    int used = 0;
    bool full = false;
    for (int column : kByNeed) {
        const int width = column < m_naturalWidths.size() ? m_naturalWidths.at(column)
                                                          : header->sectionSizeHint(column);
        full = full || (used + width > room && used > 0);
        header->setSectionHidden(column, full);
        if (!full)
            used += width;
    }
}

void HistoryBrowser::onLoaded()
{
    if (!m_columnsSized && m_model->rowCount() > 0) {
        // Once, from the first page (the view only measures the rows it shows).
        m_columnsSized = true;
        QHeaderView *header = m_view->horizontalHeader();
        for (int c = 0; c < HistoryModel::ColumnCount; ++c)
            header->showSection(c);
        m_view->resizeColumnsToContents();
        m_naturalWidths.clear();
        for (int c = 0; c < HistoryModel::ColumnCount; ++c)
            m_naturalWidths.append(header->sectionSize(c));
        fitColumns();
    }
    const Picked picked = std::exchange(m_picked, {});
    qint64 current = picked.current;
    if (m_pendingOpen > 0)
        current = std::exchange(m_pendingOpen, 0);
    if (current > 0) {
        const int row = m_model->rowOfCall(current);
        if (row >= 0) {
            const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
            m_view->selectionModel()->setCurrentIndex(
                index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            if (current != picked.current)
                m_view->scrollTo(index);
        }
    }
    for (qint64 id : picked.others) {
        const int row = m_model->rowOfCall(id);
        if (row >= 0)
            m_view->selectionModel()->select(m_proxy->mapFromSource(m_model->index(row, 0)),
                                             QItemSelectionModel::Select
                                                 | QItemSelectionModel::Rows);
    }
    Q_EMIT listLoaded();
}

qint64 HistoryBrowser::selectedCallId() const
{
    const QModelIndex current = m_view->selectionModel()->currentIndex();
    return current.isValid() ? current.data(HistoryModel::CallIdRole).toLongLong() : 0;
}

void HistoryBrowser::openCall(qint64 id)
{
    const int row = m_model->rowOfCall(id);
    if (row >= 0) {
        const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
        m_view->selectionModel()->setCurrentIndex(
            index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        m_view->scrollTo(index);
    } else if (m_store) {
        // A call stored a moment ago may not be listed yet (the list refreshes at most every
        // 150 ms while calls finish): the first page is read again, and the call picked when
        // it is in.
        m_pendingOpen = id;
        m_model->reload();
    }
    showCall(id);
}

void HistoryBrowser::onSelectionChanged()
{
    const qint64 id = selectedCallId();
    if (id > 0 && id != m_callView->call().id && id != m_showing)
        showCall(id);
}

void HistoryBrowser::showCall(qint64 id)
{
    if (!m_store)
        return;
    m_showing = id;
    readFromStore<StoreResult<CallView::Shown>>(
        m_reader, m_store, this,
        [id, colours = palette()](CallStore &store) { return CallView::read(store, id, colours); },
        [this, id](const StoreResult<CallView::Shown> *call, const QString &error) {
            if (id != m_showing)
                return; // another call was picked since
            m_showing = 0;
            if (!call || !*call) {
                m_message->showMessage(tr("Call %1 could not be read: %2")
                                           .arg(id)
                                           .arg(call ? call->error().message : error),
                                       NoticeBar::Kind::Error);
                m_message->show();
                return;
            }
            m_callView->setCall(call->value());
            Q_EMIT callShown(id);
        });
}

} // namespace Callscope
