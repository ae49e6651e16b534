#include "ui/experiments/experimentview.h"

#include "core/eval/batchrounds.h"
#include "core/eval/pricetable.h"
#include "core/eval/promptfooimport.h"
#include "core/eval/review.h"
#include "core/secrets/truststore.h"
#include "core/service/callservice.h"
#include "core/service/scheduler.h"
#include "core/store/callstore.h"
#include "core/store/providerbatchstore.h"
#include "core/store/runlock.h"
#include "core/store/storereader.h"
#include "core/store/storewriter.h"
#include "ui/experiments/experimentcharts.h"
#include "ui/experiments/matrixdelegate.h"
#include "ui/experiments/matrixmodel.h"
#include "ui/experiments/newexperimentdialog.h"
#include "ui/experiments/reviewqueue.h"
#include "ui/experiments/variantwriter.h"
#include "ui/widgets/noticebar.h"
#include "ui/widgets/trustdialog.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMimeData>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QSet>
#include <QSettings>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QThreadPool>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <memory>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

const QString kLastDirKey = u"experiments/lastDirectory"_s;
constexpr int kRefreshMs = 150;

QString experimentFileFilter()
{
    return ExperimentView::tr(
        "Experiment files (*.json);;promptfoo configurations (*.yaml *.yml);;All files (*)");
}

int plannedRuns(const Experiment &e)
{
    return int(e.rows.size() * e.variants.size()) * e.repeat;
}

} // namespace

ExperimentView::ExperimentView(CallService *service, CallStore *store, QWidget *parent)
    : QWidget(parent)
    , m_service(service)
    , m_store(store)
    , m_matrix(new MatrixModel(this))
    , m_filter(new MatrixFilter(this))
    , m_summary(new VariantSummaryModel(m_matrix, this))
{
    setObjectName(u"experimentView"_s);
    setAccessibleName(tr("Experiment"));
    setAcceptDrops(true);
    m_filter->setSourceModel(m_matrix);
    m_refresh.setSingleShot(true);
    m_refresh.setInterval(kRefreshMs);
    connect(&m_refresh, &QTimer::timeout, this, &ExperimentView::refreshMatrix);
    m_tick.setInterval(250);
    connect(&m_tick, &QTimer::timeout, this, &ExperimentView::updateStatus);
    connect(&m_tick, &QTimer::timeout, this, &ExperimentView::updateBatchStatus);
    buildUi();
    setState(State::Empty);
}

ExperimentView::~ExperimentView()
{
    if (m_run && isRunning())
        m_run->stop();
}

void ExperimentView::buildUi()
{
    m_openButton = new QPushButton(QIcon::fromTheme(u"document-open"_s), tr("Open…"), this);
    m_openButton->setObjectName(u"experimentOpenButton"_s);
    m_openButton->setToolTip(
        tr("Open an experiment file (a spec, a dataset, variants and assertions)"));
    m_newButton = new QPushButton(QIcon::fromTheme(u"document-new"_s), tr("New…"), this);
    m_newButton->setObjectName(u"experimentNewButton"_s);
    m_newButton->setToolTip(
        tr("Make a new experiment file: a spec, cases, variants and assertions in a form"));
    connect(m_newButton, &QPushButton::clicked, this, &ExperimentView::showNewDialog);
    m_runButton = new QPushButton(QIcon::fromTheme(u"media-playback-start"_s), tr("Run"), this);
    m_runButton->setObjectName(u"experimentRunButton"_s);
    m_runButton->setToolTip(
        tr("Run every case in every variant, repeated, and check the assertions"));
    m_stopButton = new QPushButton(QIcon::fromTheme(u"media-playback-stop"_s), tr("Stop"), this);
    m_stopButton->setObjectName(u"experimentStopButton"_s);
    m_stopButton->setToolTip(
        tr("Cancel the calls in flight; what finished stays stored and Resume runs the rest"));
    m_resumeButton = new QPushButton(tr("Resume"), this);
    m_resumeButton->setObjectName(u"experimentResumeButton"_s);
    m_resumeButton->setToolTip(tr("Run only what the stored experiment has not run yet"));
    m_addVariantButton = new QToolButton(this);
    m_addVariantButton->setObjectName(u"experimentAddVariantButton"_s);
    m_addVariantButton->setText(tr("Add Variant"));
    m_addVariantButton->setPopupMode(QToolButton::InstantPopup);
    m_addVariantButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto *variantMenu = new QMenu(m_addVariantButton);
    QAction *fromSpec = variantMenu->addAction(tr("From the Spec in the Editor…"), this,
                                               &ExperimentView::askVariantFromSpec);
    fromSpec->setObjectName(u"variantFromSpecAction"_s);
    QAction *fromCall = variantMenu->addAction(tr("From the Current Call…"), this,
                                               &ExperimentView::askVariantFromCall);
    fromCall->setObjectName(u"variantFromCallAction"_s);
    m_addVariantButton->setMenu(variantMenu);
    m_addVariantButton->setToolTip(tr("Add a variant to the experiment file, made from the spec "
                                      "you are editing or from a stored call"));

    connect(m_openButton, &QPushButton::clicked, this, &ExperimentView::showOpenDialog);
    connect(m_runButton, &QPushButton::clicked, this, &ExperimentView::run);
    connect(m_stopButton, &QPushButton::clicked, this, &ExperimentView::stop);
    connect(m_resumeButton, &QPushButton::clicked, this, [this] { resume(); });
    m_cancelBatchesButton = new QPushButton(tr("Cancel Batches"), this);
    m_cancelBatchesButton->setObjectName(u"experimentCancelBatchesButton"_s);
    m_cancelBatchesButton->setToolTip(
        tr("Cancel the open provider batches at the provider (what they answered "
           "so far is kept), then stop. Stop alone leaves them running, "
           "and Resume picks them up later."));
    m_cancelBatchesButton->hide();
    connect(m_cancelBatchesButton, &QPushButton::clicked, this, &ExperimentView::cancelBatches);

    m_reviewButton = new QPushButton(tr("Review…"), this);
    m_reviewButton->setObjectName(u"experimentReviewButton"_s);
    m_reviewButton->setToolTip(
        tr("Label the outputs of this run yourself, with the keyboard: pass, fail, a score and "
           "a note. The judge's verdict stays hidden until you have labelled."));
    connect(m_reviewButton, &QPushButton::clicked, this, [this] { openReview(); });

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_newButton);
    buttons->addWidget(m_openButton);
    buttons->addWidget(m_runButton);
    buttons->addWidget(m_stopButton);
    buttons->addWidget(m_resumeButton);
    buttons->addWidget(m_cancelBatchesButton);
    buttons->addWidget(m_addVariantButton);
    buttons->addWidget(m_reviewButton);
    buttons->addStretch(1);

    // The status strip: what the experiment is, what is happening, and room for batch rounds.
    m_title = new QLabel(this);
    m_title->setObjectName(u"experimentTitle"_s);
    m_title->setTextFormat(Qt::PlainText);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_status = new QLabel(this);
    m_status->setObjectName(u"experimentStatus"_s);
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(u"experimentProgress"_s);
    // The strip's text gives the figures; the bar only shows how far.
    m_progress->setTextVisible(false);
    m_progress->setMaximumWidth(160);
    m_batchStatus = new QLabel(this);
    m_batchStatus->setObjectName(u"experimentBatchStatus"_s);
    m_batchStatus->setTextFormat(Qt::PlainText);
    m_batchStatus->setWordWrap(true);
    m_batchStatus->hide(); // shown for "via": "batch" experiments
    auto *strip = new QHBoxLayout;
    strip->addWidget(m_status, 1);
    strip->addWidget(m_progress);

    m_notice = new NoticeBar(this);
    m_notice->setObjectName(u"experimentNotice"_s);

    // Pages: nothing open yet, the errors of a file that cannot run, the results.
    m_pages = new QStackedWidget(this);
    m_emptyPage = new QWidget(m_pages);
    {
        auto *hint = new QLabel(
            tr("<p><b>Compare specs across many inputs.</b></p>"
               "<p>An experiment file names a spec, a dataset of cases, the variants to compare "
               "and the checks each output must pass. Make one with <b>New…</b>, open one with "
               "<b>Open…</b> (or File › Open Experiment…), or drop the file here; then press "
               "<b>Run</b>.</p>"
               "<p>The matrix shows each case in each variant: green passed every repeat, amber "
               "is flaky, red failed. Click a cell to see its call.</p>"),
            m_emptyPage);
        hint->setObjectName(u"experimentHint"_s);
        hint->setWordWrap(true);
        hint->setAlignment(Qt::AlignCenter);
        hint->setMargin(24);
        m_emptyNewButton = new QPushButton(QIcon::fromTheme(u"document-new"_s),
                                           tr("New Experiment…"), m_emptyPage);
        m_emptyNewButton->setObjectName(u"experimentEmptyNewButton"_s);
        connect(m_emptyNewButton, &QPushButton::clicked, this, &ExperimentView::showNewDialog);
        auto *emptyOpen = new QPushButton(QIcon::fromTheme(u"document-open"_s),
                                          tr("Open Experiment…"), m_emptyPage);
        emptyOpen->setObjectName(u"experimentEmptyOpenButton"_s);
        connect(emptyOpen, &QPushButton::clicked, this, &ExperimentView::showOpenDialog);
        auto *emptyButtons = new QHBoxLayout;
        emptyButtons->addStretch(1);
        emptyButtons->addWidget(m_emptyNewButton);
        emptyButtons->addWidget(emptyOpen);
        emptyButtons->addStretch(1);
        auto *layout = new QVBoxLayout(m_emptyPage);
        layout->addStretch(1);
        layout->addWidget(hint);
        layout->addLayout(emptyButtons);
        layout->addStretch(2);
    }
    auto *errorsPage = new QWidget(m_pages);
    {
        auto *label = new QLabel(errorsPage);
        label->setWordWrap(true);
        m_errorsHint = label;
        m_errorsView = new QTableWidget(0, 2, errorsPage);
        m_errorsView->setObjectName(u"experimentErrors"_s);
        m_errorsView->setHorizontalHeaderLabels({ tr("Where"), tr("Problem") });
        m_errorsView->verticalHeader()->hide();
        m_errorsView->setEditTriggers(QAbstractItemView::NoEditTriggers);
        m_errorsView->setWordWrap(true);
        m_errorsView->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
        m_errorsView->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
        m_errorsView->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
        auto *reload =
            new QPushButton(QIcon::fromTheme(u"view-refresh"_s), tr("Reload"), errorsPage);
        reload->setObjectName(u"experimentReloadButton"_s);
        connect(reload, &QPushButton::clicked, this, &ExperimentView::reload);
        m_leaveOutButton = new QPushButton(tr("Leave Them Out"), errorsPage);
        m_leaveOutButton->setObjectName(u"experimentLeaveOutButton"_s);
        m_leaveOutButton->setToolTip(
            tr("Open the configuration without the parts listed here. The file is not changed."));
        m_leaveOutButton->hide();
        connect(m_leaveOutButton, &QPushButton::clicked, this, [this] { leaveOutUnsupported(); });
        auto *row = new QHBoxLayout;
        row->addWidget(label, 1);
        row->addWidget(m_leaveOutButton);
        row->addWidget(reload);
        auto *layout = new QVBoxLayout(errorsPage);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addLayout(row);
        layout->addWidget(m_errorsView, 1);
    }
    m_resultsPage = new QWidget(m_pages);
    {
        m_summaryView = new QTableView(m_resultsPage);
        m_summaryView->setObjectName(u"experimentSummary"_s);
        m_summaryView->setAccessibleName(tr("Figures per variant"));
        m_summaryView->setModel(m_summary);
        m_summaryView->verticalHeader()->hide();
        m_summaryView->setEditTriggers(QAbstractItemView::NoEditTriggers);
        m_summaryView->setSelectionMode(QAbstractItemView::NoSelection);
        m_summaryView->setFocusPolicy(Qt::NoFocus);
        // Every column as wide as its figures; the variant's name takes what is left.
        m_summaryView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
        m_summaryView->horizontalHeader()->setStretchLastSection(false);
        m_summaryView->horizontalHeader()->setSectionResizeMode(VariantSummaryModel::VariantColumn,
                                                                QHeaderView::Stretch);
        m_summaryView->horizontalHeader()->setMinimumSectionSize(40);
        m_summaryView->setTextElideMode(Qt::ElideMiddle);
        m_summaryView->verticalHeader()->setDefaultSectionSize(m_summaryView->fontMetrics().height()
                                                               + 8);
        m_summaryView->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);

        m_matrixView = new QTableView(m_resultsPage);
        m_matrixView->setObjectName(u"experimentMatrix"_s);
        m_matrixView->setAccessibleName(tr("Matrix: cases by variants"));
        m_matrixView->setModel(m_filter);
        m_matrixView->setItemDelegate(new MatrixDelegate(m_matrixView));
        m_matrixView->setShowGrid(false);
        m_matrixView->setEditTriggers(QAbstractItemView::NoEditTriggers);
        m_matrixView->setSelectionMode(QAbstractItemView::ExtendedSelection);
        m_matrixView->setSelectionBehavior(QAbstractItemView::SelectItems);
        m_matrixView->setMouseTracking(true);
        m_matrixView->setContextMenuPolicy(Qt::CustomContextMenu);
        QHeaderView *rows = m_matrixView->verticalHeader();
        rows->setSectionResizeMode(QHeaderView::Fixed);
        rows->setDefaultSectionSize(m_matrixView->fontMetrics().height() + 18);
        rows->setMaximumWidth(220);
        rows->setTextElideMode(Qt::ElideMiddle);
        QHeaderView *columns = m_matrixView->horizontalHeader();
        columns->setSectionResizeMode(QHeaderView::Interactive);
        columns->setDefaultSectionSize(120);
        columns->setMinimumSectionSize(60);
        connect(m_matrixView, &QTableView::clicked, this, &ExperimentView::openCell);
        // Double-click or Enter opens the call itself (a tab of its own), not just its place in
        // History.
        connect(m_matrixView, &QTableView::activated, this, [this](const QModelIndex &index) {
            openCell(index);
            const qint64 id = index.data(MatrixModel::CallIdRole).toLongLong();
            if (id > 0 && selectedSourceCells().size() <= 1)
                Q_EMIT callOpenRequested(id);
        });
        connect(m_matrixView, &QWidget::customContextMenuRequested, this,
                &ExperimentView::showMatrixContextMenu);
        connect(m_matrixView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
                &ExperimentView::updateActions);

        m_showCombo = new QComboBox(m_resultsPage);
        m_showCombo->setObjectName(u"experimentShowCombo"_s);
        m_showCombo->addItem(tr("All cases"), int(MatrixFilter::Show::All));
        m_showCombo->addItem(tr("Not passing"), int(MatrixFilter::Show::NotPassing));
        m_showCombo->addItem(tr("Flaky"), int(MatrixFilter::Show::Flaky));
        m_showCombo->addItem(tr("Failing"), int(MatrixFilter::Show::Failing));
        connect(m_showCombo, &QComboBox::currentIndexChanged, this, [this] {
            m_filter->setShow(MatrixFilter::Show(m_showCombo->currentData().toInt()));
        });
        m_variantCombo = new QComboBox(m_resultsPage);
        m_variantCombo->setObjectName(u"experimentVariantCombo"_s);
        connect(m_variantCombo, &QComboBox::currentIndexChanged, this,
                [this] { m_filter->setVariantColumn(m_variantCombo->currentData().toInt()); });
        m_compareButton = new QPushButton(tr("Compare Two Cells"), m_resultsPage);
        m_compareButton->setObjectName(u"experimentCompareButton"_s);
        m_compareButton->setToolTip(tr("Select two cells of one case (Ctrl+click) to see their "
                                       "calls side by side in the Diff panel"));
        connect(m_compareButton, &QPushButton::clicked, this, &ExperimentView::compareSelected);
        auto *filters = new QHBoxLayout;
        auto *showLabel = new QLabel(tr("Show:"), m_resultsPage);
        showLabel->setBuddy(m_showCombo);
        filters->addWidget(showLabel);
        filters->addWidget(m_showCombo);
        filters->addWidget(m_variantCombo);
        filters->addStretch(1);
        filters->addWidget(m_compareButton);

        auto *matrixTab = new QWidget(m_resultsPage);
        auto *matrixLayout = new QVBoxLayout(matrixTab);
        matrixLayout->setContentsMargins(0, 4, 0, 0);
        matrixLayout->addLayout(filters);
        matrixLayout->addWidget(m_matrixView, 1);
        auto *hint = new QLabel(tr("Click a cell to see its call in History. Ctrl+click a second "
                                   "cell of the same case, "
                                   "then Compare Two Cells to see both calls side by side. Hover a "
                                   "cell for why it failed."),
                                matrixTab);
        hint->setObjectName(u"experimentMatrixHint"_s);
        hint->setWordWrap(true);
        QPalette muted = hint->palette();
        muted.setColor(QPalette::WindowText, muted.color(QPalette::PlaceholderText));
        hint->setPalette(muted);
        matrixLayout->addWidget(hint);

        m_charts = new ExperimentCharts(m_matrix, m_resultsPage);
        m_resultTabs = new QTabWidget(m_resultsPage);
        m_resultTabs->setObjectName(u"experimentResultTabs"_s);
        m_resultTabs->setDocumentMode(true);
        m_resultTabs->addTab(matrixTab, tr("Matrix"));
        m_resultTabs->addTab(m_charts, tr("Charts"));

        // The paired comparison of each two variants, in words (the numbers are in the tooltip).
        m_comparisons = new QLabel(m_resultsPage);
        m_comparisons->setObjectName(u"experimentComparisons"_s);
        m_comparisons->setAccessibleName(tr("Comparisons of the variants"));
        m_comparisons->setWordWrap(true);
        m_comparisons->setTextInteractionFlags(Qt::TextSelectableByMouse);
        m_comparisons->hide();

        // Each judge against the people's labels, in words (the tables are in the tooltip).
        m_agreement = new QLabel(m_resultsPage);
        m_agreement->setObjectName(u"experimentAgreement"_s);
        m_agreement->setAccessibleName(tr("Agreement of the judges with people"));
        m_agreement->setWordWrap(true);
        m_agreement->setTextInteractionFlags(Qt::TextSelectableByMouse);
        m_agreement->hide();

        auto *layout = new QVBoxLayout(m_resultsPage);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(m_summaryView);
        layout->addWidget(m_comparisons);
        layout->addWidget(m_agreement);
        layout->addWidget(m_resultTabs, 1);
    }
    m_pages->addWidget(m_emptyPage);
    m_pages->addWidget(errorsPage);
    m_pages->addWidget(m_resultsPage);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(buttons);
    layout->addWidget(m_title);
    layout->addLayout(strip);
    layout->addWidget(m_batchStatus); // its own line: rounds, batches, lines, the wait
    layout->addWidget(m_notice);
    layout->addWidget(m_pages, 1);

    // The summary is as tall as its rows (up to six), so the matrix keeps the rest.
    auto fitSummary = [this] {
        const int rowsShown = std::clamp(m_summary->rowCount(), 1, 6);
        const int height = m_summaryView->horizontalHeader()->sizeHint().height()
            + rowsShown * m_summaryView->verticalHeader()->defaultSectionSize()
            + 2 * m_summaryView->frameWidth() + 2;
        m_summaryView->setFixedHeight(height);
    };
    connect(m_summary, &QAbstractItemModel::modelReset, this, fitSummary);
    fitSummary();
}

// ---- loading -----------------------------------------------------------------------------

void ExperimentView::showOpenDialog()
{
    const QString dir = m_path.isEmpty() ? QSettings().value(kLastDirKey).toString()
                                         : QFileInfo(m_path).absolutePath();
    auto *dialog = new QFileDialog(this, tr("Open Experiment"), dir, experimentFileFilter());
    dialog->setObjectName(u"experimentOpenDialog"_s);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::ExistingFile);
    connect(dialog, &QFileDialog::fileSelected, this,
            [this](const QString &path) { openFile(path); });
    dialog->open();
}

NewExperimentDialog *ExperimentView::showNewDialog()
{
    if (m_newDialog) {
        m_newDialog->raise();
        m_newDialog->activateWindow();
        return m_newDialog;
    }
    auto *dialog = new NewExperimentDialog(m_specPathProvider ? m_specPathProvider() : QString(),
                                           m_store, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &NewExperimentDialog::created, this,
            [this](const QString &path) { openFile(path); });
    m_newDialog = dialog;
    dialog->open();
    return dialog;
}

bool ExperimentView::openFile(const QString &path)
{
    if (isRunning()) {
        m_notice->showMessage(tr("An experiment is running; stop it before opening another."),
                              NoticeBar::Kind::Warning);
        return false;
    }
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (absolute != m_path)
        m_skipUnsupported = false; // what was left out of one file says nothing of another
    m_path = absolute;
    QSettings().setValue(kLastDirKey, QFileInfo(m_path).absolutePath());
    return reload();
}

bool ExperimentView::leaveOutUnsupported()
{
    if (isRunning() || !m_onlyUnsupported || !isPromptfooConfig(m_path))
        return false;
    m_skipUnsupported = true;
    return reload();
}

namespace {

// True when a variant of the definition in `path` starts from a stored call (its spec is read
// from the history). A file that cannot be read or parsed says so when it is loaded.
bool startsFromCalls(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const QJsonObject definition = QJsonDocument::fromJson(file.readAll()).object();
    const QJsonArray variants = definition.value(u"variants"_s).toArray();
    return std::any_of(variants.begin(), variants.end(),
                       [](const QJsonValue &v) { return v.toObject().contains(u"from_call"_s); });
}

} // namespace

bool ExperimentView::reload()
{
    if (isRunning() || m_path.isEmpty())
        return false;
    m_notice->clearMessage();
    if (m_review)
        m_review->close();
    m_run.reset();
    ++m_storeSerial;
    m_busyText.clear();
    m_storedBatches.clear();
    m_experimentId = 0;
    m_storedDone = 0;
    m_storedAt = {};
    const quint64 ticket = ++m_loadTicket;
    if (m_reader && m_store && startsFromCalls(m_path)) {
        // The calls the variants start from are read on the reader's thread (the whole file
        // is loaded there); loaded() follows.
        m_title->setText(
            tr("%1 (reading the calls it starts from…)").arg(QFileInfo(m_path).fileName()));
        m_loadingCalls = true;
        readFromStore<ExperimentLoad>(
            m_reader, m_store, this,
            [path = m_path](CallStore &store) { return loadExperimentFile(path, &store); },
            [this, ticket](const ExperimentLoad *load, const QString &error) {
                if (ticket != m_loadTicket)
                    return; // another file (or the same again) was asked for since
                m_loadingCalls = false;
                if (!load) {
                    ExperimentLoad failed;
                    failed.errors.append({ QString(), error });
                    apply(failed);
                    return;
                }
                apply(*load);
            });
        return true;
    }
    m_loadingCalls = false;
    // Without a variant from a stored call the store is not needed (no SQL on this thread).
    ExperimentFileOptions options;
    options.skipUnsupported = m_skipUnsupported;
    return apply(loadExperimentFile(m_path, m_reader ? nullptr : m_store, options));
}

bool ExperimentView::apply(const ExperimentLoad &load)
{
    m_errors = load.errors;
    m_skipped = load.skipped;
    m_experiment = load.experiment;
    // A promptfoo configuration that converts, but with parts that have no counterpart here,
    // can be opened without them (Leave Them Out); one that does not convert cannot.
    m_onlyUnsupported = load.onlyUnsupported;
    if (!m_experiment) {
        m_matrix->clear();
        m_title->setText(tr("%1 (cannot run)").arg(QFileInfo(m_path).fileName()));
        showErrors();
        setState(State::Invalid);
        Q_EMIT loaded(false);
        return false;
    }
    m_title->setText(tr("%1 — %2").arg(m_experiment->name, QFileInfo(m_path).fileName()));
    if (!m_skipped.isEmpty()) {
        QStringList places;
        for (const ExperimentError &e : std::as_const(m_skipped))
            places.append(e.toString());
        m_notice->showMessage(
            tr("%n part(s) of %1 were left out: %2", nullptr, int(m_skipped.size()))
                .arg(QFileInfo(m_path).fileName(), places.join(u"; "_s)),
            NoticeBar::Kind::Warning);
    }
    applyLayout();
    m_pages->setCurrentWidget(m_resultsPage);
    setState(State::Ready);
    showStored();
    Q_EMIT loaded(true);
    return true;
}

void ExperimentView::showErrors()
{
    m_leaveOutButton->setVisible(m_onlyUnsupported);
    if (m_onlyUnsupported)
        m_errorsHint->setText(
            tr("%1 is a promptfoo configuration with parts Callscope cannot take. Leave Them "
               "Out opens the rest (the file is not changed); a place file:line is in that "
               "file, after it the key path.")
                .arg(QFileInfo(m_path).fileName()));
    else
        m_errorsHint->setText(
            tr("This experiment cannot run yet. Fix these places, then press Reload. A place "
               "starting with / is in the experiment file (/assert/0 is the first entry of "
               "\"assert\"); file:line:column is in that file."));
    m_errorsView->setRowCount(int(m_errors.size()));
    for (int i = 0; i < m_errors.size(); ++i) {
        const ExperimentError &e = m_errors.at(i);
        auto *where = new QTableWidgetItem(e.where.isEmpty() ? tr("(the file)") : e.where);
        where->setToolTip(where->text());
        auto *what = new QTableWidgetItem(e.message);
        what->setToolTip(e.message);
        m_errorsView->setItem(i, 0, where);
        m_errorsView->setItem(i, 1, what);
    }
    m_pages->setCurrentIndex(1);
}

void ExperimentView::applyLayout()
{
    QStringList cases, variants;
    for (const DatasetRow &row : m_experiment->rows)
        cases.append(row.id);
    for (const Variant &v : m_experiment->variants)
        variants.append(v.name);
    m_matrix->setLayout(cases, variants, m_experiment->repeat);
    m_variantCombo->blockSignals(true);
    m_variantCombo->clear();
    m_variantCombo->addItem(tr("All variants"), -1);
    for (int i = 0; i < variants.size(); ++i)
        m_variantCombo->addItem(variants.at(i), i);
    m_variantCombo->blockSignals(false);
    m_filter->setVariantColumn(-1);
    // Few variants share the width; many keep a readable width each and scroll.
    QHeaderView *header = m_matrixView->horizontalHeader();
    header->setSectionResizeMode(variants.size() <= 5 ? QHeaderView::Stretch
                                                      : QHeaderView::Interactive);
}

namespace {

// What a view shows of the newest stored experiment with a definition, read off the GUI thread.
struct StoredResults
{
    QString error;
    std::optional<StoredExperiment> newest;
    QList<ExperimentRunRecord> runs;
    QList<ProviderBatchRecord> batches;
    QList<ReviewLabel> labels;
};

StoredResults readStoredResults(CallStore &store, const Experiment &experiment)
{
    StoredResults out;
    auto stored = storedExperimentsFor(&store, experiment);
    if (!stored) {
        out.error = stored.error().message;
        return out;
    }
    if (stored->isEmpty())
        return out;
    auto runs = store.experimentRuns(stored->constFirst().record.id);
    if (!runs)
        return out;
    out.newest = stored->constFirst();
    out.runs = runs.value();
    if (auto labels = store.reviewLabels(out.newest->record.id))
        out.labels = labels.value();
    if (experiment.via == u"batch"_s) {
        if (auto batches = ProviderBatchStore(store.database()).batches(out.newest->record.id))
            out.batches = batches.value();
    }
    return out;
}

} // namespace

void ExperimentView::showStored()
{
    // The newest stored experiment with this very definition: its results, and whether it can
    // be resumed. Read off the GUI thread; the view says so meanwhile.
    if (!m_store || !m_experiment)
        return;
    const quint64 serial = ++m_storeSerial;
    m_busyText = tr("Reading the stored results…");
    const Experiment experiment = *m_experiment;
    runOnStore<StoredResults>(
        m_service ? m_service->writer() : nullptr, m_store, this,
        [experiment](CallStore &store) { return readStoredResults(store, experiment); },
        [this, serial](const StoredResults *stored, const QString &error) {
            if (serial != m_storeSerial)
                return; // the view moved on (another file, a run started)
            m_busyText.clear();
            const QString problem = stored ? stored->error : error;
            if (!problem.isEmpty()) {
                m_notice->showMessage(tr("The stored results could not be read: %1").arg(problem),
                                      NoticeBar::Kind::Warning);
            } else if (stored && stored->newest) {
                m_experimentId = stored->newest->record.id;
                m_storedAt = stored->newest->record.createdAt;
                m_storedDone = stored->newest->done;
                m_storedBatches = stored->batches;
                m_run = std::make_unique<ExperimentRun>(m_service, *m_experiment);
                m_run->setExperimentId(m_experimentId);
                m_run->setPreviousRuns(stored->runs);
                m_run->setReviewLabels(stored->labels);
                refreshMatrix();
            }
            if (m_state == State::Ready)
                setState(m_experimentId > 0 ? (canResume() ? State::Stopped : State::Finished)
                                            : State::Ready);
            else
                setState(m_state);
        });
}

// ---- running -----------------------------------------------------------------------------

bool ExperimentView::run()
{
    return startSession(std::nullopt);
}

bool ExperimentView::resume(qint64 experimentId)
{
    const qint64 id = experimentId > 0 ? experimentId : m_experimentId;
    if (id <= 0) {
        m_notice->showMessage(tr("There is no stored run of this experiment to resume; press Run."),
                              NoticeBar::Kind::Info);
        return false;
    }
    return startSession(id);
}

bool ExperimentView::startSession(std::optional<qint64> resumeId)
{
    if (!m_experiment || isRunning() || !m_service)
        return false;
    m_notice->clearMessage();
    // Programs the experiment would start (its variants' tools, its command assertions) are
    // shown and asked about first; the answer is remembered for its content and folder.
    if (TrustStore *trust = m_service->trustStore()) {
        const QList<RunItem> items =
            experimentRunItems(*m_experiment, m_service->allowedKeyVariables());
        const TrustEntry entry = experimentTrustEntry(*m_experiment);
        if (!items.isEmpty() && !trust->isTrusted(entry)) {
            QPointer<ExperimentView> self(this);
            TrustDialog::ask(window(), m_experiment->path, items, {},
                             [self, trust, entry, resumeId](bool yes) {
                                 if (!self)
                                     return;
                                 if (!yes) {
                                     self->m_notice->showMessage(
                                         tr("Nothing was run: the experiment is not trusted."),
                                         NoticeBar::Kind::Info);
                                     return;
                                 }
                                 QString error;
                                 if (!trust->trust(entry, &error)) {
                                     self->m_notice->showMessage(
                                         tr("The answer could not be remembered: %1").arg(error),
                                         NoticeBar::Kind::Error);
                                     return;
                                 }
                                 self->startSession(resumeId);
                             });
            return false;
        }
    }
    if (!m_store) {
        m_notice->showMessage(
            tr("The history database is not open: the runs are not stored and cannot be resumed."),
            NoticeBar::Kind::Warning);
        ++m_storeSerial;
        beginSession(ExperimentStart(), resumeId);
        return true;
    }
    // Creating the stored experiment, or reading what it has done, happens off the GUI thread;
    // meanwhile the view counts as running (Stop gives up the start) and says what it does.
    m_stateBeforeStart =
        m_state == State::Running || m_state == State::Stopping ? State::Ready : m_state;
    const quint64 serial = ++m_storeSerial;
    m_busyText = resumeId ? tr("Reading what experiment %1 has done…").arg(*resumeId)
                          : tr("Storing the new experiment…");
    setState(State::Running);
    const Experiment experiment = *m_experiment;
    runOnStore<ExperimentStart>(
        m_service->writer(), m_store, this,
        [experiment, resumeId](CallStore &store) {
            return startStoredExperiment(&store, experiment, resumeId);
        },
        [this, serial, resumeId](const ExperimentStart *started, const QString &error) {
            if (serial != m_storeSerial)
                return; // given up (Stop, another file): the lock it may hold goes with it
            m_busyText.clear();
            QString problem;
            if (!started) {
                problem = tr("The experiment cannot be stored: %1").arg(error);
            } else {
                switch (started->problem) {
                case ExperimentStart::Problem::None:
                    break;
                case ExperimentStart::Problem::NotFound:
                    problem = tr("Experiment %1 is not in the history database.")
                                  .arg(resumeId.value_or(0));
                    break;
                case ExperimentStart::Problem::Changed:
                    problem = tr("The file changed since experiment %1 ran, so it cannot be "
                                 "resumed; press Run to start again.")
                                  .arg(resumeId.value_or(0));
                    break;
                case ExperimentStart::Problem::Store:
                    problem = tr("The experiment cannot be stored: %1").arg(started->storeError);
                    break;
                case ExperimentStart::Problem::InUse:
                    problem = tr("Experiment %1 is running in another program (%2); wait for it to "
                                 "end, then resume.")
                                  .arg(resumeId.value_or(0))
                                  .arg(started->inUse);
                    break;
                }
            }
            if (!problem.isEmpty()) {
                m_notice->showMessage(problem, NoticeBar::Kind::Error);
                setState(m_stateBeforeStart);
                return;
            }
            beginSession(*started, resumeId);
        });
    return true;
}

void ExperimentView::beginSession(const ExperimentStart &started, std::optional<qint64> resumeId)
{
    const qint64 id = started.id;
    // A resumed experiment keeps the labels people gave its runs.
    const QList<ReviewLabel> labels =
        m_run && m_experimentId == id && resumeId ? m_run->reviewLabels() : QList<ReviewLabel>();
    m_experimentId = id;
    m_storedAt = QDateTime::currentDateTimeUtc();
    if (m_review)
        m_review->close();
    m_run = std::make_unique<ExperimentRun>(m_service, *m_experiment);
    m_run->setReviewLabels(labels);
    m_run->setExperimentId(id);
    m_run->setPreviousRuns(started.previous);
    m_run->setStoredCalls(started.storedCalls);
    m_run->setStoredJudges(started.storedJudges);
    m_run->setRunLock(started.lock);
    m_run->setPriceTable(PriceTable::fromSettings());
    connect(m_run.get(), &ExperimentRun::halted, this, [this](const QString &why) {
        m_notice->showMessage(
            tr("The history cannot store the results (%1): no more calls are started. The replies "
               "of the calls in flight are kept beside the database and stored at the next start.")
                .arg(why),
            NoticeBar::Kind::Error);
    });
    connect(m_run.get(), &ExperimentRun::notice, this,
            [this](const QString &text) { m_notice->showMessage(text, NoticeBar::Kind::Warning); });
    if (m_run->viaBatch())
        m_run->setBatchSettings(BatchRoundSettings::fromEnvironment());
    // Each finished run updates its cell at once; the figures and charts follow with the
    // whole summary a little later (less often for big experiments).
    connect(m_run.get(), &ExperimentRun::runFinished, this, [this](const ExperimentRunRecord &run) {
        m_matrix->setCell(m_run->cell(run.caseId, run.variant));
        m_recentCells.append({ ++m_cellSerial, run.caseId, run.variant });
        if (!m_refresh.isActive())
            m_refresh.start();
    });
    connect(m_run.get(), &ExperimentRun::finished, this, &ExperimentView::onFinished);
    if (!resumeId)
        applyLayout();
    m_pages->setCurrentWidget(m_resultsPage);
    refreshMatrix();
    setState(State::Running);
    m_tick.start();
    m_run->start();
    if (BatchRounds *rounds = m_run->batchRounds()) {
        connect(rounds, &BatchRounds::changed, this, &ExperimentView::updateBatchStatus);
        connect(rounds, &BatchRounds::notice, this, [this](const QString &text) {
            m_notice->showMessage(text, NoticeBar::Kind::Warning);
        });
    }
    updateBatchStatus();
}

void ExperimentView::cancelBatches()
{
    if (m_state != State::Running || !m_run || !m_run->batchRounds())
        return;
    setState(State::Stopping);
    m_run->cancelBatches();
}

namespace {

QString waitingText(qint64 ms)
{
    const qint64 minutes = ms / 60000;
    if (minutes < 1)
        return ExperimentView::tr("%1 s").arg(ms / 1000);
    if (minutes < 120)
        return ExperimentView::tr("%1 min").arg(minutes);
    return ExperimentView::tr("%1 h").arg(minutes / 60);
}

struct BatchFigures
{
    int rounds = 0;
    int open = 0;
    int ended = 0;
    int lines = 0; // of the open batches
    int answered = 0; // of those lines, answered so far
    qint64 waitingMs = 0; // the longest wait of an open batch
    bool unknown = false;
};

} // namespace

// What the provider batches are doing, in one line, from the session or (after a restart)
// from the store; the Cancel Batches button shows while a session has open batches.
void ExperimentView::updateBatchStatus()
{
    const bool viaBatch = m_experiment && m_experiment->via == u"batch"_s;
    m_batchStatus->setVisible(viaBatch);
    BatchFigures f;
    int queued = 0;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    if (viaBatch && m_run && m_run->batchRounds()) {
        const BatchRoundsOverview overview = m_run->batchRounds()->overview();
        queued = overview.queuedRequests;
        for (const BatchRoundState &b : overview.batches) {
            f.rounds = std::max(f.rounds, b.round);
            const bool open = ProviderBatchRecord::isOpenStatus(b.status);
            f.unknown |= b.status == u"submit_unknown"_s;
            if (open) {
                ++f.open;
                f.lines += b.lines;
                f.answered += b.succeeded + b.errored;
                f.waitingMs = std::max(f.waitingMs, b.waitingMs);
            } else {
                ++f.ended;
            }
        }
    } else if (viaBatch && m_experimentId > 0) {
        for (const ProviderBatchRecord &b : std::as_const(m_storedBatches)) {
            f.rounds = std::max(f.rounds, b.round);
            f.unknown |= b.status == u"submit_unknown"_s;
            if (b.isOpen()) {
                ++f.open;
                f.lines += b.lineCount;
                if (b.submittedAt.isValid())
                    f.waitingMs = std::max(f.waitingMs, b.submittedAt.msecsTo(now));
            } else {
                ++f.ended;
            }
        }
    }
    m_openBatches = f.open > 0;
    if (!viaBatch) {
        m_batchStatus->clear();
    } else if (f.rounds == 0) {
        m_batchStatus->setText(tr("Through the providers' batch APIs: nothing submitted yet"));
    } else {
        QStringList parts { tr("Provider batches, round %1").arg(f.rounds) };
        if (f.open > 0) {
            parts.append((f.open == 1 ? tr("1 batch at the provider")
                                      : tr("%1 batches at the provider").arg(f.open))
                         + u" ("_s + tr("%1 of %2 lines answered").arg(f.answered).arg(f.lines)
                         + u")"_s);
            parts.append(tr("waiting %1").arg(waitingText(f.waitingMs)));
        }
        if (f.ended > 0)
            parts.append(f.ended == 1 ? tr("1 batch ended") : tr("%1 batches ended").arg(f.ended));
        if (queued > 0)
            parts.append(queued == 1 ? tr("1 request for the next round")
                                     : tr("%1 requests for the next round").arg(queued));
        if (f.open > 0 && !isRunning())
            parts.append(tr("Resume to collect their answers"));
        if (f.unknown)
            parts.append(tr("a submission is unknown: see the notice"));
        m_batchStatus->setText(parts.join(u" · "_s));
    }
    m_cancelBatchesButton->setVisible(viaBatch && isRunning());
    m_cancelBatchesButton->setEnabled(m_state == State::Running && m_openBatches);
}

void ExperimentView::stop()
{
    if (m_state == State::Running && !m_busyText.isEmpty()) {
        // Still starting: the answer is dropped when it comes.
        ++m_storeSerial;
        m_busyText.clear();
        setState(m_stateBeforeStart);
        return;
    }
    if (m_state != State::Running || !m_run)
        return;
    setState(State::Stopping);
    m_run->stop();
}

void ExperimentView::onFinished()
{
    m_tick.stop();
    m_refresh.stop();
    refreshMatrix();
    const QList<ExperimentRunRecord> runs = m_run->runs();
    m_storedDone = int(std::count_if(runs.begin(), runs.end(), [](const ExperimentRunRecord &r) {
        return r.status != u"cancelled"_s;
    }));
    const int planned = plannedRuns(*m_experiment);
    const bool stopped = m_storedDone < planned;
    setState(stopped ? State::Stopped : State::Finished);
    Q_EMIT message(
        stopped ? tr("Experiment stopped: %1 of %n run(s) done", nullptr, planned).arg(m_storedDone)
                : tr("Experiment finished: %n run(s)", nullptr, planned));
}

void ExperimentView::refreshMatrix()
{
    if (m_run) {
        // Summed up on a worker thread from a copy of the results (a big experiment takes a
        // while); only the newest answer is shown, and the cells of runs finished since it was
        // asked for are drawn again over it.
        const quint64 ticket = ++m_summaryTicket;
        const quint64 cellsAt = m_cellSerial;
        auto results = std::make_shared<const ExperimentRun::Results>(m_run->results());
        QPointer<ExperimentView> self(this);
        QThreadPool::globalInstance()->start([self, ticket, cellsAt, results] {
            QElapsedTimer timer;
            timer.start();
            QJsonObject summary = results->summary();
            const qint64 ms = timer.elapsed();
            QMetaObject::invokeMethod(
                qApp,
                [self, ticket, cellsAt, summary = std::move(summary), ms] {
                    if (self)
                        self->applySummary(ticket, cellsAt, summary, ms);
                },
                Qt::QueuedConnection);
        });
    }
    updateStatus();
    updateActions();
}

void ExperimentView::applySummary(quint64 ticket, quint64 cellsAt, const QJsonObject &summary,
                                  qint64 elapsedMs)
{
    if (ticket != m_summaryTicket || !m_run)
        return; // a newer one is on its way, or the run is gone
    m_matrix->setSummary(summary);
    for (auto it = m_recentCells.begin(); it != m_recentCells.end();) {
        if (it->serial <= cellsAt) {
            it = m_recentCells.erase(it);
            continue;
        }
        m_matrix->setCell(m_run->cell(it->caseId, it->variant));
        ++it;
    }
    showComparisons(summary);
    showAgreement(summary);
    // It never takes more than about a twentieth of the time while runs finish.
    m_refresh.setInterval(int(std::clamp<qint64>(elapsedMs * 20, kRefreshMs, 5000)));
    m_summaryShown = ticket;
    updateStatus();
    updateActions();
    Q_EMIT summaryShown();
}

bool ExperimentView::isSummarizing() const
{
    return m_summaryShown != m_summaryTicket;
}

void ExperimentView::showComparisons(const QJsonObject &summary)
{
    QStringList lines;
    QStringList details;
    for (const QJsonValue &c : summary.value(u"comparisons"_s).toArray()) {
        const QJsonObject comparison = c.toObject();
        if (comparison.value(u"cases"_s).toInt() == 0)
            continue;
        lines.append(comparison.value(u"sentence"_s).toString());
        const QJsonArray ci = comparison.value(u"ci95"_s).toArray();
        details.append(
            tr("%1 against %2: %3 cases, %4 passed only under %2, %5 only under %1; "
               "difference %6 points (95% interval %7 to %8), p = %9; score difference %10")
                .arg(comparison.value(u"b"_s).toString(), comparison.value(u"a"_s).toString())
                .arg(comparison.value(u"cases"_s).toInt())
                .arg(comparison.value(u"only_a"_s).toInt())
                .arg(comparison.value(u"only_b"_s).toInt())
                .arg(comparison.value(u"pass_rate_diff"_s).toDouble() * 100, 0, 'f', 1)
                .arg(ci.at(0).toDouble() * 100, 0, 'f', 1)
                .arg(ci.at(1).toDouble() * 100, 0, 'f', 1)
                .arg(comparison.value(u"p_value"_s).toDouble(), 0, 'g', 3)
                .arg(comparison.value(u"score_diff"_s).toDouble(), 0, 'f', 3));
    }
    m_comparisons->setVisible(!lines.isEmpty());
    m_comparisons->setText(lines.join(u'\n'));
    m_comparisons->setToolTip(details.join(u'\n'));
}

void ExperimentView::showAgreement(const QJsonObject &summary)
{
    const QJsonObject review = summary.value(u"review"_s).toObject();
    QStringList lines;
    QStringList details;
    for (const QJsonValue &value : review.value(u"agreement"_s).toArray()) {
        const QJsonObject a = value.toObject();
        lines.append(a.value(u"sentence"_s).toString());
        const QJsonObject confusion = a.value(u"confusion"_s).toObject();
        const QJsonObject jp = confusion.value(u"judge_pass"_s).toObject();
        const QJsonObject jf = confusion.value(u"judge_fail"_s).toObject();
        details.append(tr("%1: judge pass and person pass %2, judge pass and person fail %3, "
                          "judge fail and person pass %4, judge fail and person fail %5")
                           .arg(a.value(u"assertion"_s).toString())
                           .arg(jp.value(u"person_pass"_s).toInt())
                           .arg(jp.value(u"person_fail"_s).toInt())
                           .arg(jf.value(u"person_pass"_s).toInt())
                           .arg(jf.value(u"person_fail"_s).toInt()));
    }
    if (!review.isEmpty() && lines.isEmpty())
        lines.append(tr("%n label(s) by people; the experiment has no judge to compare them with.",
                        nullptr, review.value(u"labels"_s).toInt()));
    m_agreement->setVisible(!lines.isEmpty());
    m_agreement->setText(lines.join(u'\n'));
    m_agreement->setToolTip(details.join(u'\n'));
}

ReviewQueue *ExperimentView::reviewQueue() const
{
    return m_review;
}

ReviewQueue *ExperimentView::openReview()
{
    if (m_review) {
        m_review->raise();
        m_review->activateWindow();
        return m_review;
    }
    if (!m_run || !m_experiment || m_experimentId <= 0 || isRunning()) {
        m_notice->showMessage(tr("Run the experiment (or open a stored run) before reviewing it."),
                              NoticeBar::Kind::Info);
        return nullptr;
    }
    ReviewQueue::Inputs inputs;
    inputs.service = m_service;
    inputs.store = m_store;
    inputs.reader = m_reader;
    inputs.experiment = *m_experiment;
    inputs.experimentId = m_experimentId;
    inputs.runs = m_run->runs();
    inputs.labels = m_run->reviewLabels();
    auto *queue = new ReviewQueue(inputs, this);
    if (queue->count() == 0) {
        delete queue;
        m_notice->showMessage(tr("No run of this experiment has a call to review yet."),
                              NoticeBar::Kind::Info);
        return nullptr;
    }
    queue->setWindowFlag(Qt::Window);
    queue->setAttribute(Qt::WA_DeleteOnClose);
    queue->resize(1200, 760);
    connect(queue, &ReviewQueue::labelsChanged, this,
            [this, id = m_experimentId](const QList<ReviewLabel> &labels) {
                if (!m_run || isRunning() || m_experimentId != id)
                    return;
                m_run->setReviewLabels(labels);
                if (!m_refresh.isActive())
                    m_refresh.start();
            });
    m_review = queue;
    queue->show();
    queue->setFocus();
    return queue;
}

QJsonObject ExperimentView::summary() const
{
    return m_run ? m_run->summary() : QJsonObject();
}

ExperimentRun::Progress ExperimentView::progress() const
{
    return m_run ? m_run->progress() : ExperimentRun::Progress();
}

int ExperimentView::doneRuns() const
{
    if (isRunning() && m_run) {
        const ExperimentRun::Progress p = m_run->progress();
        return p.done + p.resumed;
    }
    return m_storedDone;
}

bool ExperimentView::canResume() const
{
    if (!m_experiment || m_experimentId <= 0 || !m_store || isRunning())
        return false;
    return doneRuns() < plannedRuns(*m_experiment);
}

// ---- state and status -------------------------------------------------------------------

void ExperimentView::setState(State state)
{
    const bool changed = m_state != state;
    m_state = state;
    if (state == State::Empty) {
        m_title->setText(tr("No experiment open"));
        m_pages->setCurrentWidget(m_emptyPage);
    }
    updateStatus();
    updateBatchStatus();
    updateActions();
    if (changed)
        Q_EMIT stateChanged(state);
}

void ExperimentView::updateStatus()
{
    QString text;
    int total = 0, done = 0;
    if (m_experiment) {
        total = plannedRuns(*m_experiment);
        done = doneRuns();
    }
    QString shape;
    if (m_experiment) {
        const int rows = int(m_experiment->rows.size());
        const int variants = int(m_experiment->variants.size());
        const int repeat = m_experiment->repeat;
        shape = (rows == 1 ? tr("1 case") : tr("%1 cases").arg(rows)) + u" × "_s
            + (variants == 1 ? tr("1 variant") : tr("%1 variants").arg(variants)) + u" × "_s
            + (repeat == 1 ? tr("1 repeat") : tr("%1 repeats").arg(repeat));
    }
    const QString when = m_storedAt.isValid()
        ? QLocale().toString(m_storedAt.toLocalTime(), QLocale::ShortFormat)
        : QString();
    switch (m_state) {
    case State::Empty:
        text = tr("Open an experiment file to compare variants of a spec over a dataset.");
        break;
    case State::Invalid:
        text = m_errors.size() == 1
            ? tr("1 problem in the file; nothing was sent.")
            : tr("%1 problems in the file; nothing was sent.").arg(m_errors.size());
        break;
    case State::Ready:
        text = tr("%1 = %n run(s). Press Run to start.", nullptr, total).arg(shape);
        break;
    case State::Running: {
        if (!m_busyText.isEmpty()) {
            text = m_busyText;
            break;
        }
        const ExperimentRun::Progress p = progress();
        text = tr("Running experiment %1: %2 of %n run(s) done, %3 not passed, %4 in flight (at "
                  "most %5 at once; Preferences › Limits).",
                  nullptr, total)
                   .arg(m_experimentId)
                   .arg(done)
                   .arg(p.failed)
                   .arg(p.inFlight)
                   .arg(m_service && m_service->scheduler() ? m_service->scheduler()->globalLimit()
                                                            : 0);
        break;
    }
    case State::Stopping:
        text = tr("Stopping: cancelling the calls in flight…");
        break;
    case State::Stopped:
        text = tr("Experiment %1 (%2) is incomplete: %3 of %n run(s) done. Resume runs the rest.",
                  nullptr, total)
                   .arg(m_experimentId)
                   .arg(when)
                   .arg(done);
        break;
    case State::Finished: {
        const int cells = m_matrix->rowCount() * m_matrix->columnCount();
        const int notPassed = cells - m_matrix->count(CellVerdict::Pass);
        text = tr("Experiment %1 (%2): all %n run(s) done. %3", nullptr, total)
                   .arg(m_experimentId)
                   .arg(when)
                   .arg(notPassed == 0
                            ? tr("Every case passed in every variant.")
                            : tr("%1 of %2 cells did not pass in every repeat (red or amber).")
                                  .arg(notPassed)
                                  .arg(cells));
        break;
    }
    }
    if (!m_busyText.isEmpty() && m_state != State::Running)
        text = m_busyText + u' ' + text;
    m_status->setText(text);
    // Shown once there is progress to show (never an empty box before the first run).
    m_progress->setVisible(m_experiment.has_value()
                           && (m_state != State::Ready || !m_busyText.isEmpty()));
    // A busy bar while the history is read or written for the view.
    m_progress->setMinimum(0);
    m_progress->setMaximum(m_busyText.isEmpty() ? std::max(1, total) : 0);
    m_progress->setValue(std::min(done, std::max(1, total)));
}

void ExperimentView::setRunBlockedReason(const QString &reason)
{
    m_runBlocked = reason;
    updateActions();
}

void ExperimentView::updateActions()
{
    const bool loaded = m_experiment.has_value();
    const bool running = isRunning();
    const bool blocked = !m_runBlocked.isEmpty();
    m_runButton->setEnabled(loaded && !running && m_service && !blocked);
    m_runButton->setText(m_experimentId > 0 && !running ? tr("Run Again") : tr("Run"));
    m_runButton->setToolTip(
        blocked ? tr("Cannot run: %1").arg(m_runBlocked)
                : tr("Run every case in every variant, repeated, and check the assertions"));
    m_stopButton->setEnabled(m_state == State::Running);
    m_resumeButton->setEnabled(!running && canResume() && !blocked);
    m_resumeButton->setVisible(canResume() || m_state == State::Stopping);
    m_addVariantButton->setEnabled(loaded && !running);
    m_reviewButton->setEnabled(loaded && !running && m_run && m_experimentId > 0);
    m_openButton->setEnabled(!running);
    m_newButton->setEnabled(!running);
    const QList<QModelIndex> cells = selectedSourceCells();
    m_compareButton->setEnabled(
        cells.size() == 2 && cells.at(0).row() == cells.at(1).row()
        && m_matrix->cell(cells.at(0).row(), cells.at(0).column()).representativeCall() > 0
        && m_matrix->cell(cells.at(1).row(), cells.at(1).column()).representativeCall() > 0);
    Q_EMIT actionsChanged();
}

// ---- cells -------------------------------------------------------------------------------

QList<QModelIndex> ExperimentView::selectedSourceCells() const
{
    QList<QModelIndex> out;
    for (const QModelIndex &index : m_matrixView->selectionModel()->selectedIndexes())
        out.append(m_filter->mapToSource(index));
    std::sort(out.begin(), out.end(),
              [](const QModelIndex &a, const QModelIndex &b) { return a.column() < b.column(); });
    return out;
}

void ExperimentView::openCell(const QModelIndex &index)
{
    if (!index.isValid())
        return;
    // Ctrl/Shift-clicks build a selection to compare; they do not open.
    if (selectedSourceCells().size() > 1)
        return;
    const qint64 id = index.data(MatrixModel::CallIdRole).toLongLong();
    if (id > 0)
        Q_EMIT callRequested(id);
    else
        Q_EMIT message(tr("This cell has no call yet"));
}

bool ExperimentView::compareSelected()
{
    const QList<QModelIndex> cells = selectedSourceCells();
    if (cells.size() != 2 || cells.at(0).row() != cells.at(1).row()) {
        m_notice->showMessage(
            tr("Select two cells of the same case (Ctrl+click the second) to compare them."),
            NoticeBar::Kind::Info);
        return false;
    }
    const qint64 left =
        m_matrix->cell(cells.at(0).row(), cells.at(0).column()).representativeCall();
    const qint64 right =
        m_matrix->cell(cells.at(1).row(), cells.at(1).column()).representativeCall();
    if (left <= 0 || right <= 0) {
        m_notice->showMessage(tr("Both cells need a finished run to compare."),
                              NoticeBar::Kind::Info);
        return false;
    }
    m_notice->showMessage(
        tr("The Diff panel shows case %1: %2 (call %3) on the left, %4 (call %5) on the right.")
            .arg(m_matrix->cases().at(cells.at(0).row()),
                 m_matrix->variants().at(cells.at(0).column()))
            .arg(left)
            .arg(m_matrix->variants().at(cells.at(1).column()))
            .arg(right),
        NoticeBar::Kind::Info);
    Q_EMIT compareRequested(left, right);
    return true;
}

void ExperimentView::showMatrixContextMenu(const QPoint &pos)
{
    const QModelIndex proxyIndex = m_matrixView->indexAt(pos);
    if (!proxyIndex.isValid())
        return;
    const QModelIndex index = m_filter->mapToSource(proxyIndex);
    const MatrixCell &cell = m_matrix->cell(index.row(), index.column());
    auto *menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    for (const MatrixRun &run : cell.runs) {
        if (run.callId <= 0)
            continue;
        const qint64 id = run.callId;
        menu->addAction(tr("Open Call of Repeat %1 (%2)")
                            .arg(run.repeat + 1)
                            .arg(run.passed ? tr("passed") : tr("not passed")),
                        this, [this, id] { Q_EMIT callRequested(id); });
    }
    const qint64 mine = cell.representativeCall();
    if (mine > 0 && m_matrix->columnCount() > 1) {
        QMenu *compare = menu->addMenu(tr("Compare With"));
        for (int c = 0; c < m_matrix->columnCount(); ++c) {
            if (c == index.column())
                continue;
            const qint64 other = m_matrix->cell(index.row(), c).representativeCall();
            QAction *action =
                compare->addAction(m_matrix->variants().at(c), this, [this, mine, other, index, c] {
                    // Left is the variant further left in the matrix.
                    if (index.column() < c)
                        Q_EMIT compareRequested(mine, other);
                    else
                        Q_EMIT compareRequested(other, mine);
                });
            action->setEnabled(other > 0);
        }
    }
    if (menu->isEmpty()) {
        delete menu;
        return;
    }
    menu->popup(m_matrixView->viewport()->mapToGlobal(pos));
}

// ---- variants ----------------------------------------------------------------------------

QString ExperimentView::suggestVariantName(const QString &stem) const
{
    QSet<QString> names;
    if (m_experiment) {
        for (const Variant &v : m_experiment->variants)
            names.insert(v.name);
    }
    if (!names.contains(stem))
        return stem;
    for (int i = 2;; ++i) {
        const QString name = u"%1 %2"_s.arg(stem).arg(i);
        if (!names.contains(name))
            return name;
    }
}

std::optional<QString> ExperimentView::addVariant(const QJsonObject &variant)
{
    if (!m_experiment || m_path.isEmpty())
        return tr("Open an experiment first.");
    if (isRunning())
        return tr("Stop the experiment before changing it.");
    const QString name = variant.value(u"name"_s).toString().trimmed();
    if (name.isEmpty())
        return tr("A variant needs a name.");
    for (const Variant &v : m_experiment->variants) {
        if (v.name == name)
            return tr("There is already a variant named \"%1\".").arg(name);
    }
    // With no "variants" in the file the experiment ran one, named as the loader names it.
    const QString defaultName =
        m_experiment->variants.size() == 1 && !m_experiment->definition.contains(u"variants"_s)
        ? m_experiment->variants.constFirst().name
        : QString();
    // Where every variant brings its own input (a promptfoo prompt) and the rows none, a new
    // variant without one sends the first variant's input.
    QJsonObject added = variant;
    QString inputFrom;
    const bool rowsWithoutInput =
        std::any_of(m_experiment->rows.cbegin(), m_experiment->rows.cend(),
                    [](const DatasetRow &row) { return !row.hasInput; });
    if (!added.contains(u"input"_s) && rowsWithoutInput
        && m_experiment->variants.constFirst().input) {
        added.insert(u"input"_s, *m_experiment->variants.constFirst().input);
        inputFrom = m_experiment->variants.constFirst().name;
    }
    // A promptfoo configuration is not written to: the experiment it makes is saved beside it
    // as a Callscope experiment (self-contained, as convert writes it), which takes the variant
    // and is the file shown from then on.
    QString converted;
    if (isPromptfooConfig(m_path)) {
        const QFileInfo config(m_path);
        const QString target =
            config.absoluteDir().filePath(config.completeBaseName() + u".experiment.json"_s);
        if (QFileInfo::exists(target))
            return tr("%1 is a promptfoo configuration, which Callscope does not change, and "
                      "%2 beside it exists already. Open %2 and add the variant there.")
                .arg(config.fileName(), QFileInfo(target).fileName());
        QSaveFile out(target);
        const QByteArray json =
            QJsonDocument(m_experiment->definition).toJson(QJsonDocument::Indented);
        if (!out.open(QIODevice::WriteOnly) || out.write(json) != json.size() || !out.commit())
            return tr("Cannot write %1: %2").arg(target, out.errorString());
        converted = config.fileName();
        m_path = target;
        m_skipUnsupported = false;
    }
    if (auto error = addVariantToFile(m_path, added, defaultName))
        return error;
    reload();
    if (!m_experiment)
        return tr("The file with the new variant does not load; see the problems listed.");
    QString text = converted.isEmpty()
        ? tr("Added the variant \"%1\" to %2. Press Run to run the experiment with it.")
              .arg(name, QFileInfo(m_path).fileName())
        : tr("Added the variant \"%1\" to %2, a Callscope experiment made from %3 (which is "
             "unchanged). Press Run to run it.")
              .arg(name, QFileInfo(m_path).fileName(), converted);
    if (!inputFrom.isEmpty())
        text += u' '
            + tr("It sends the input of \"%1\"; change its \"input\" in the file to send "
                 "another.")
                  .arg(inputFrom);
    m_notice->showMessage(text, NoticeBar::Kind::Info);
    return std::nullopt;
}

std::optional<QString> ExperimentView::addVariantFromSpec(const QString &name)
{
    if (!m_experiment)
        return tr("Open an experiment first.");
    const std::optional<Spec> spec = m_specProvider ? m_specProvider() : std::nullopt;
    if (!spec)
        return tr("The spec in the editor cannot be read; fix it first (see Findings).");
    QStringList dropped;
    const QJsonObject variant = variantFromSpec(name, *m_experiment, *spec, &dropped);
    if (variant.size() == 1 && dropped.isEmpty())
        return tr("The spec in the editor is the same as the experiment's spec; change it first.");
    auto error = addVariant(variant);
    if (!error && !dropped.isEmpty())
        m_notice->showMessage(
            tr("Added \"%1\". A variant can only add or change fields, so it keeps these of the "
               "experiment's spec: %2.")
                .arg(name, dropped.join(u", "_s)),
            NoticeBar::Kind::Warning);
    return error;
}

std::optional<QString> ExperimentView::addVariantFromCall(const QString &name, qint64 callId)
{
    if (callId <= 0)
        return tr("Pick a call first (in History, or a cell of the matrix).");
    return addVariant(variantFromCall(name, callId));
}

void ExperimentView::askName(const QString &title, const QString &suggestion,
                             std::function<void(const QString &)> done)
{
    auto *dialog = new QInputDialog(this);
    dialog->setObjectName(u"variantNameDialog"_s);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(title);
    dialog->setLabelText(tr("Name of the new variant (it becomes a column of the matrix):"));
    dialog->setTextValue(suggestion);
    connect(dialog, &QInputDialog::textValueSelected, this,
            [done = std::move(done)](const QString &text) { done(text.trimmed()); });
    dialog->open();
}

void ExperimentView::askVariantFromSpec()
{
    if (!m_experiment) {
        m_notice->showMessage(tr("Open an experiment first."), NoticeBar::Kind::Info);
        return;
    }
    askName(tr("New Variant from the Spec"), suggestVariantName(tr("edited spec")),
            [this](const QString &name) {
                if (auto error = addVariantFromSpec(name))
                    m_notice->showMessage(*error, NoticeBar::Kind::Error);
            });
}

void ExperimentView::askVariantFromCall()
{
    if (!m_experiment) {
        m_notice->showMessage(tr("Open an experiment first."), NoticeBar::Kind::Info);
        return;
    }
    const qint64 id = m_callProvider ? m_callProvider() : 0;
    if (id <= 0) {
        m_notice->showMessage(tr("Pick a call first (in History, or a cell of the matrix)."),
                              NoticeBar::Kind::Info);
        return;
    }
    askName(tr("New Variant from Call %1").arg(id), suggestVariantName(tr("call %1").arg(id)),
            [this, id](const QString &name) {
                if (auto error = addVariantFromCall(name, id))
                    m_notice->showMessage(*error, NoticeBar::Kind::Error);
            });
}

// ---- drag and drop -----------------------------------------------------------------------

void ExperimentView::dragEnterEvent(QDragEnterEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (!isRunning() && urls.size() == 1 && urls.first().isLocalFile()
        && (urls.first().toLocalFile().endsWith(u".json"_s)
            || isPromptfooConfig(urls.first().toLocalFile())))
        event->acceptProposedAction();
}

void ExperimentView::dropEvent(QDropEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.first().isLocalFile()) {
        event->acceptProposedAction();
        openFile(urls.first().toLocalFile());
    }
}

} // namespace Callscope
