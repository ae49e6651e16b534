#pragma once

// The review queue: a person labels the outputs of a stored experiment run, one run at a time,
// with the keyboard only. The case (its input, vars and what is expected), the output and the
// transcript are side by side; P passes, F fails, 1-5 give a score, N writes a note, S skips,
// U (or Ctrl+Z) undoes the last label, Space goes to the next run without a label (Right and
// Left step through every run). The checks' verdicts (a judge's among them) stay hidden until
// the person has labelled the run, so they cannot sway the label.
//
// Labels are written through the store writer and the calls are read through the store reader,
// never on this thread; the calls of the next runs are read ahead, so the next run shows at once.

#include "core/eval/experiment.h"
#include "core/store/callstore.h"

#include <QElapsedTimer>
#include <QHash>
#include <QPointer>
#include <QWidget>

#include <optional>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;

namespace Callscope {

class CallService;
class NoticeBar;
class StoreReader;

class ReviewQueue final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ReviewQueue)

public:
    struct Inputs
    {
        CallService *service = nullptr; // its writer stores the labels
        CallStore *store = nullptr; // used directly only without a reader / writer
        StoreReader *reader = nullptr;
        Experiment experiment;
        qint64 experimentId = 0;
        QList<ExperimentRunRecord> runs; // in plan order; runs without a call are left out
        QList<ReviewLabel> labels; // every label stored so far (any reviewer)
        QString reviewer; // empty: reviewerName()
    };
    // How many runs ahead of the one shown are read in advance.
    static constexpr int kPrefetch = 3;

    explicit ReviewQueue(const Inputs &inputs, QWidget *parent = nullptr);
    ~ReviewQueue() override;

    int count() const { return int(m_items.size()); }
    int currentIndex() const { return m_current; }
    // Runs with a pass or fail label of this reviewer, and with a skip.
    int labelledCount() const;
    int skippedCount() const;
    QString reviewer() const { return m_reviewer; }
    void setReviewer(const QString &name);
    // The reviewer's label of run `index`, if any.
    std::optional<ReviewLabel> labelAt(int index) const;
    const ExperimentRunRecord &runAt(int index) const { return m_items.at(index).run; }
    // Every label this queue knows (the other reviewers' and this one's), as stored.
    QList<ReviewLabel> labels() const;
    // Whether the call of run `index` has been read (shown at once when it comes up).
    bool isLoaded(int index) const;
    // The run shown has its call on screen (not "Reading…").
    bool isCurrentShown() const { return m_shownLoaded; }
    // Milliseconds from the key that moved to the run shown to its content on screen (0 when
    // it was read ahead and shown in the key's own handling).
    qint64 lastShowMs() const { return m_lastShowMs; }
    // Labels written and not yet confirmed by the writer.
    int pendingWrites() const { return m_pendingWrites; }
    bool verdictsShown() const; // the checks' verdicts of the run shown are visible

    QPlainTextEdit *caseView() const { return m_caseView; }
    QPlainTextEdit *outputView() const { return m_outputView; }
    QPlainTextEdit *transcriptView() const { return m_transcriptView; }
    QLabel *progressLabel() const { return m_progressLabel; }
    QLabel *verdictsLabel() const { return m_verdicts; }
    QLabel *labelLine() const { return m_labelLine; }
    QLineEdit *noteEdit() const { return m_noteEdit; }

    // The commands the keys give (public for the buttons and for tests).
    void label(const QString &verdict); // "pass", "fail", "skip"
    void score(int value); // 1..5
    void editNote();
    void undo();
    void next(); // the next run without a label of this reviewer (after the one shown)
    void step(int delta); // the run before or after
    void showIndex(int index);

Q_SIGNALS:
    // A label was stored or removed: every label now known (for the experiment's figures).
    void labelsChanged(const QList<Callscope::ReviewLabel> &labels);

protected:
    void keyPressEvent(QKeyEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    struct Content
    {
        QString output;
        QString transcript;
    };
    struct Item
    {
        ExperimentRunRecord run;
        QString caseText;
        std::optional<Content> content;
        bool requested = false;
    };
    struct UndoStep
    {
        int index = 0;
        std::optional<ReviewLabel> before;
    };

    void buildUi();
    void request(int index);
    void prefetchAround(int index);
    void showContent();
    void updateLabelLine();
    void updateProgress();
    void storeLabel(int index, const ReviewLabel &label, bool pushUndo);
    void removeLabel(int index);
    void finishNote(bool keep);
    QString keyOf(int index) const;
    static Content contentFor(const CallRecord &record);

    CallService *m_service = nullptr;
    CallStore *m_store = nullptr;
    StoreReader *m_reader = nullptr;
    qint64 m_experimentId = 0;
    QString m_reviewer;
    QList<Item> m_items;
    QHash<QString, ReviewLabel> m_mine; // this reviewer's labels by run key
    QList<ReviewLabel> m_others; // the other reviewers' labels, kept as they are
    std::optional<int> m_pendingScore; // given before the verdict of the run shown
    QString m_pendingNote;
    QList<UndoStep> m_undo;
    int m_current = -1;
    bool m_shownLoaded = false;
    QElapsedTimer m_moveTimer; // from the key that moved to the run shown
    qint64 m_lastShowMs = 0;
    int m_pendingWrites = 0;

    QLabel *m_title = nullptr;
    QLabel *m_progressLabel = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_reviewerLabel = nullptr;
    NoticeBar *m_notice = nullptr;
    QPlainTextEdit *m_caseView = nullptr;
    QPlainTextEdit *m_outputView = nullptr;
    QPlainTextEdit *m_transcriptView = nullptr;
    QLabel *m_labelLine = nullptr;
    QLabel *m_verdicts = nullptr;
    QLineEdit *m_noteEdit = nullptr;
};

} // namespace Callscope
