#pragma once

// The Experiment view: open an experiment file, run it (progress, stop, resume), and read
// the results: the matrix (cases x variants, coloured by verdict, the failing assertions on
// hover), the figures per variant and three small charts. Everything that runs or judges is
// the core's ExperimentRun; this view shows its summary.
//
// A click on a cell asks for its call (callRequested; the window selects it in History); two
// cells of one case selected asks for their calls side by side (compareRequested). "Add
// Variant" writes a new variant into the file from the spec in the editor or a stored call.
// The strip under the buttons says what is happening; batch rounds will be shown there too.

#include "core/eval/experiment.h"
#include "core/eval/experimentrun.h"
#include "core/model/spec.h"

#include <QJsonObject>
#include <QPointer>
#include <QTimer>
#include <QWidget>

#include <functional>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QStackedWidget;
class QTableView;
class QTableWidget;
class QTabWidget;
class QToolButton;

namespace Callscope {

class CallService;
class CallStore;
class ExperimentCharts;
class MatrixFilter;
class MatrixModel;
class NewExperimentDialog;
class NoticeBar;
class ReviewQueue;
class StoreReader;
class VariantSummaryModel;

class ExperimentView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ExperimentView)

public:
    enum class State { Empty, Invalid, Ready, Running, Stopping, Finished, Stopped };

    // `store` may be null (the database could not be opened): runs are then not stored.
    ExperimentView(CallService *service, CallStore *store, QWidget *parent = nullptr);
    ~ExperimentView() override;

    // Loads the file and shows the newest stored results of the same experiment, if any.
    // Returns whether it loaded; otherwise its errors are listed (with where they are).
    // With a reader, a file whose variants start from stored calls (from_call) is loaded on
    // the reader's thread: true means it is being read, and loaded() tells how it went.
    bool openFile(const QString &path);
    bool reload();
    bool isLoadingCalls() const { return m_loadingCalls; }
    // Reads the calls variants start from on `reader`'s thread (null: at once on the store).
    // It must outlive the view.
    void setReader(StoreReader *reader) { m_reader = reader; }
    // Why nothing may run (a history the role may only read); empty: runs are allowed. The
    // Run button is off with the reason as its tip, Resume too.
    void setRunBlockedReason(const QString &reason);
    // A new stored experiment over every case, variant and repeat.
    bool run();
    // Continues a stored experiment (0: the one shown) with what it has not run yet.
    bool resume(qint64 experimentId = 0);
    void stop();

    State state() const { return m_state; }
    bool isRunning() const { return m_state == State::Running || m_state == State::Stopping; }
    QString filePath() const { return m_path; }
    const std::optional<Experiment> &experiment() const { return m_experiment; }
    QList<ExperimentError> loadErrors() const { return m_errors; }
    // What a promptfoo configuration opened with "Leave Them Out" lost (empty otherwise).
    QList<ExperimentError> skippedParts() const { return m_skipped; }
    // A promptfoo configuration whose only problems are parts Callscope cannot take: loads it
    // again without them (the file is not changed). False when there is nothing to leave out.
    bool leaveOutUnsupported();
    qint64 experimentId() const { return m_experimentId; }
    // The core's summary of what the matrix shows (ExperimentRun::summary()).
    QJsonObject summary() const;
    // A summary is being built for the figures and charts (summaryShown() follows).
    bool isSummarizing() const;
    ExperimentRun::Progress progress() const;
    // Whether the stored experiment shown can be resumed (it has runs still to do).
    bool canResume() const;

    // Where "Add Variant" takes the spec in the editor and the current call from.
    void setSpecProvider(std::function<std::optional<Spec>()> provider)
    {
        m_specProvider = std::move(provider);
    }
    void setCurrentCallProvider(std::function<qint64()> provider)
    {
        m_callProvider = std::move(provider);
    }
    // The spec file New Experiment starts from (the saved spec in the editor), or empty.
    void setSpecPathProvider(std::function<QString()> provider)
    {
        m_specPathProvider = std::move(provider);
    }
    // Adds the variant to the file and loads it again; the error otherwise.
    std::optional<QString> addVariant(const QJsonObject &variant);
    std::optional<QString> addVariantFromSpec(const QString &name);
    std::optional<QString> addVariantFromCall(const QString &name, qint64 callId);
    QString suggestVariantName(const QString &stem) const;

    // The call of a matrix cell (an index of matrixView()'s model) is asked for; two selected
    // cells of one case are compared.
    void openCell(const QModelIndex &index);
    bool compareSelected();

    MatrixModel *matrixModel() const { return m_matrix; }
    MatrixFilter *matrixFilter() const { return m_filter; }
    QTableView *matrixView() const { return m_matrixView; }
    VariantSummaryModel *summaryModel() const { return m_summary; }
    ExperimentCharts *charts() const { return m_charts; }
    QTabWidget *resultTabs() const { return m_resultTabs; }
    QTableWidget *errorsView() const { return m_errorsView; }
    QPushButton *leaveOutButton() const { return m_leaveOutButton; }
    NoticeBar *noticeBar() const { return m_notice; }
    QLabel *statusLabel() const { return m_status; }
    QLabel *titleLabel() const { return m_title; }
    // The provider batches of a "via": "batch" experiment: rounds, open batches, lines,
    // waiting time (from the running session, or from the store after a restart).
    QLabel *batchStatus() const { return m_batchStatus; }
    // The paired comparisons of the variants, one sentence each (hidden with one variant).
    QLabel *comparisonsLabel() const { return m_comparisons; }
    // How each judge agrees with the people's labels (hidden while there are none).
    QLabel *agreementLabel() const { return m_agreement; }
    // Opens the review queue of the stored run shown (a window of its own), or brings it up;
    // null when there is nothing to review.
    ReviewQueue *openReview();
    ReviewQueue *reviewQueue() const;
    QPushButton *reviewButton() const { return m_reviewButton; }
    // The session running or shown; null before the first run.
    ExperimentRun *experimentRun() const { return m_run.get(); }
    // Cancels the open provider batches at the provider, then stops (a running batch session).
    QPushButton *cancelBatchesButton() const { return m_cancelBatchesButton; }
    void cancelBatches();
    QPushButton *newButton() const { return m_newButton; }
    QPushButton *emptyNewButton() const { return m_emptyNewButton; }
    QPushButton *runButton() const { return m_runButton; }
    QPushButton *stopButton() const { return m_stopButton; }
    QPushButton *resumeButton() const { return m_resumeButton; }
    QPushButton *compareButton() const { return m_compareButton; }
    QComboBox *showCombo() const { return m_showCombo; }
    QComboBox *variantCombo() const { return m_variantCombo; }

public Q_SLOTS:
    void showOpenDialog();
    // The New Experiment form (open, not modal to the event loop); what it creates opens here.
    NewExperimentDialog *showNewDialog();
    // Ask for a name, then add the variant (from the editor's spec / the current call).
    void askVariantFromSpec();
    void askVariantFromCall();

Q_SIGNALS:
    void callRequested(qint64 callId);
    // The cell was activated (double-click, Enter): open its call.
    void callOpenRequested(qint64 callId);
    void compareRequested(qint64 leftCallId, qint64 rightCallId);
    void stateChanged(Callscope::ExperimentView::State state);
    // What the buttons allow changed (a state, a selection of cells): menus follow them.
    void actionsChanged();
    // The file was (re)loaded, valid or not.
    void loaded(bool ok);
    void message(const QString &text);
    // The figures, charts and comparisons show the newest summary (built off the GUI thread).
    void summaryShown();

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void buildUi();
    void setState(State state);
    void updateStatus();
    void updateBatchStatus();
    void updateActions();
    void refreshMatrix();
    void showComparisons(const QJsonObject &summary);
    void showAgreement(const QJsonObject &summary);
    void applySummary(quint64 ticket, quint64 cellsAt, const QJsonObject &summary,
                      qint64 elapsedMs);
    void showStored();
    bool startSession(std::optional<qint64> resumeId);
    void beginSession(const ExperimentStart &started, std::optional<qint64> resumeId);
    void onFinished();
    void applyLayout();
    void showErrors();
    void showMatrixContextMenu(const QPoint &pos);
    void askName(const QString &title, const QString &suggestion,
                 std::function<void(const QString &)> done);
    QList<QModelIndex> selectedSourceCells() const;
    int doneRuns() const; // runs of the experiment shown that finished (cancelled ones not)

    bool apply(const ExperimentLoad &load);

    QPointer<CallService> m_service;
    CallStore *m_store = nullptr;
    StoreReader *m_reader = nullptr;
    QString m_runBlocked; // setRunBlockedReason()
    quint64 m_loadTicket = 0; // the load whose answer counts
    bool m_loadingCalls = false;
    QString m_path;
    std::optional<Experiment> m_experiment;
    QList<ExperimentError> m_errors;
    QList<ExperimentError> m_skipped;
    // A promptfoo configuration is loaded without its unsupported parts (the user said so).
    bool m_skipUnsupported = false;
    // The errors shown are only unsupported parts of a promptfoo configuration.
    bool m_onlyUnsupported = false;
    std::unique_ptr<ExperimentRun> m_run; // the session running, or the stored results shown
    qint64 m_experimentId = 0;
    QDateTime m_storedAt;
    int m_storedDone = 0;
    // The history is read and written off the GUI thread (runOnStore): what is being done
    // meanwhile, for the status line; answers that come after the view moved on are dropped.
    QString m_busyText;
    quint64 m_storeSerial = 0;
    State m_stateBeforeStart = State::Ready;
    QList<ProviderBatchRecord> m_storedBatches; // of the stored experiment shown (not running)
    State m_state = State::Empty;
    QTimer m_refresh;
    quint64 m_summaryTicket = 0; // the newest summary asked for
    quint64 m_summaryShown = 0; // the one shown
    quint64 m_cellSerial = 0; // runs finished so far, each drawn into its cell at once
    struct RecentCell
    {
        quint64 serial = 0;
        QString caseId;
        QString variant;
    };
    QList<RecentCell> m_recentCells; // drawn after the summary asked for last was asked for
    QTimer m_tick;
    std::function<std::optional<Spec>()> m_specProvider;
    std::function<qint64()> m_callProvider;
    std::function<QString()> m_specPathProvider;
    QPointer<NewExperimentDialog> m_newDialog;
    QPushButton *m_newButton = nullptr;
    QPushButton *m_emptyNewButton = nullptr;

    MatrixModel *m_matrix = nullptr;
    MatrixFilter *m_filter = nullptr;
    VariantSummaryModel *m_summary = nullptr;
    QLabel *m_title = nullptr;
    NoticeBar *m_notice = nullptr;
    QLabel *m_status = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_batchStatus = nullptr;
    QLabel *m_comparisons = nullptr;
    QLabel *m_agreement = nullptr;
    QPushButton *m_reviewButton = nullptr;
    QPointer<ReviewQueue> m_review;
    QPushButton *m_cancelBatchesButton = nullptr;
    bool m_openBatches = false;
    QPushButton *m_openButton = nullptr;
    QPushButton *m_runButton = nullptr;
    QPushButton *m_stopButton = nullptr;
    QPushButton *m_resumeButton = nullptr;
    QPushButton *m_compareButton = nullptr;
    QToolButton *m_addVariantButton = nullptr;
    QComboBox *m_showCombo = nullptr;
    QComboBox *m_variantCombo = nullptr;
    QStackedWidget *m_pages = nullptr;
    QWidget *m_emptyPage = nullptr;
    QWidget *m_resultsPage = nullptr;
    QTableWidget *m_errorsView = nullptr;
    QLabel *m_errorsHint = nullptr;
    QPushButton *m_leaveOutButton = nullptr;
    QTableView *m_matrixView = nullptr;
    QTableView *m_summaryView = nullptr;
    ExperimentCharts *m_charts = nullptr;
    QTabWidget *m_resultTabs = nullptr;
};

} // namespace Callscope
