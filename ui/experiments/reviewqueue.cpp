#include "ui/experiments/reviewqueue.h"

#include "core/eval/review.h"
#include "core/model/message.h"
#include "core/service/callservice.h"
#include "core/store/storereader.h"
#include "core/store/storewriter.h"
#include "ui/widgets/noticebar.h"

#include <QCoreApplication>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

// What a pane shows of a very long text: its start (the pane stays quick to fill).
constexpr int kMaxPaneChars = 200'000;

QString capped(QString text)
{
    if (text.size() > kMaxPaneChars) {
        text.truncate(kMaxPaneChars);
        text += u"\n\n"_s + ReviewQueue::tr("(cut here: the rest is in the call's own tab)");
    }
    return text;
}

QString jsonText(const QJsonValue &value)
{
    if (value.isString())
        return value.toString();
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Indented));
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Indented));
    if (value.isNull() || value.isUndefined())
        return QString();
    return QString::fromUtf8(
        QJsonDocument(QJsonArray { value }).toJson(QJsonDocument::Compact).chopped(1).mid(1));
}

QString runKey(const QString &caseId, const QString &variant, int repeat)
{
    return caseId + QChar(0x1f) + variant + QChar(0x1f) + QString::number(repeat);
}

QString verdictWord(const QString &verdict)
{
    if (verdict == u"pass"_s)
        return ReviewQueue::tr("Pass");
    if (verdict == u"fail"_s)
        return ReviewQueue::tr("Fail");
    return ReviewQueue::tr("Skipped");
}

// What a reader thread answers for one run's call.
struct Loaded
{
    bool ok = false;
    QString error;
    QString output;
    QString transcript;
};

} // namespace

ReviewQueue::ReviewQueue(const Inputs &inputs, QWidget *parent)
    : QWidget(parent)
    , m_service(inputs.service)
    , m_store(inputs.store)
    , m_reader(inputs.reader)
    , m_experimentId(inputs.experimentId)
    , m_reviewer(inputs.reviewer.isEmpty() ? reviewerName() : inputs.reviewer)
{
    setObjectName(u"reviewQueue"_s);
    setAccessibleName(tr("Review queue"));
    setWindowTitle(tr("Review: %1").arg(inputs.experiment.name));
    setFocusPolicy(Qt::StrongFocus);

    QHash<QString, const DatasetRow *> rows;
    for (const DatasetRow &row : inputs.experiment.rows)
        rows.insert(row.id, &row);
    for (const ExperimentRunRecord &run : inputs.runs) {
        if (!run.callId || *run.callId <= 0)
            continue;
        Item item;
        item.run = run;
        if (const DatasetRow *row = rows.value(run.caseId)) {
            const auto variant =
                std::find_if(inputs.experiment.variants.cbegin(), inputs.experiment.variants.cend(),
                             [&run](const Variant &v) { return v.name == run.variant; });
            QString text = variant != inputs.experiment.variants.cend()
                ? inputs.experiment.inputFor(*row, *variant)
                : fillVars(row->input, row->vars);
            if (!row->vars.isEmpty())
                text += u"\n\n"_s + tr("Vars:") + u'\n' + jsonText(row->vars);
            if (!row->expected.isUndefined())
                text += u"\n\n"_s + tr("Expected:") + u'\n' + jsonText(row->expected);
            item.caseText = capped(text);
        }
        m_items.append(item);
    }
    for (const ReviewLabel &label : inputs.labels) {
        if (label.experimentId != m_experimentId)
            continue;
        if (label.reviewer == m_reviewer)
            m_mine.insert(runKey(label.caseId, label.variant, label.repeat), label);
        else
            m_others.append(label);
    }
    buildUi();
    // Start at the first run this reviewer has not labelled.
    int first = 0;
    while (first < count() && m_mine.contains(keyOf(first)))
        ++first;
    showIndex(first < count() ? first : 0);
}

ReviewQueue::~ReviewQueue() = default;

void ReviewQueue::buildUi()
{
    m_title = new QLabel(this);
    m_title->setObjectName(u"reviewTitle"_s);
    m_title->setTextFormat(Qt::PlainText);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_reviewerLabel = new QLabel(this);
    m_reviewerLabel->setObjectName(u"reviewReviewer"_s);
    m_reviewerLabel->setTextFormat(Qt::PlainText);
    auto *rename = new QPushButton(tr("Change Name…"), this);
    rename->setObjectName(u"reviewRenameButton"_s);
    rename->setFocusPolicy(Qt::NoFocus);
    rename->setToolTip(tr("The name stored with your labels (kept in the settings)"));
    connect(rename, &QPushButton::clicked, this, [this] {
        auto *dialog = new QInputDialog(this);
        dialog->setObjectName(u"reviewerNameDialog"_s);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->setWindowTitle(tr("Your Name"));
        dialog->setLabelText(tr("The name stored with your labels:"));
        dialog->setTextValue(m_reviewer);
        connect(dialog, &QInputDialog::textValueSelected, this, [this](const QString &name) {
            if (name.trimmed().isEmpty())
                return;
            setReviewerName(name);
            setReviewer(name.trimmed());
        });
        dialog->open();
    });
    auto *top = new QHBoxLayout;
    top->addWidget(m_title, 1);
    top->addWidget(m_reviewerLabel);
    top->addWidget(rename);

    m_progressLabel = new QLabel(this);
    m_progressLabel->setObjectName(u"reviewProgress"_s);
    m_progressLabel->setTextFormat(Qt::PlainText);
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(u"reviewProgressBar"_s);
    m_progress->setTextVisible(false);
    m_progress->setMaximumWidth(200);
    auto *strip = new QHBoxLayout;
    strip->addWidget(m_progressLabel, 1);
    strip->addWidget(m_progress);

    m_notice = new NoticeBar(this);
    m_notice->setObjectName(u"reviewNotice"_s);

    // The three panes side by side, each under its heading; they scroll, the window does not.
    auto pane = [this](const QString &heading, const QString &name, QPlainTextEdit **view) {
        auto *box = new QWidget(this);
        auto *layout = new QVBoxLayout(box);
        layout->setContentsMargins(0, 0, 0, 0);
        auto *title = new QLabel(heading, box);
        QFont font = title->font();
        font.setBold(true);
        title->setFont(font);
        *view = new QPlainTextEdit(box);
        (*view)->setObjectName(name);
        (*view)->setAccessibleName(heading);
        (*view)->setReadOnly(true);
        // The keys belong to the queue: the panes scroll with the mouse, or PageUp/PageDown.
        (*view)->setFocusPolicy(Qt::NoFocus);
        (*view)->setLineWrapMode(QPlainTextEdit::WidgetWidth);
        layout->addWidget(title);
        layout->addWidget(*view, 1);
        return box;
    };
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setObjectName(u"reviewPanes"_s);
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(pane(tr("Case"), u"reviewCase"_s, &m_caseView));
    splitter->addWidget(pane(tr("Output"), u"reviewOutput"_s, &m_outputView));
    splitter->addWidget(pane(tr("Transcript"), u"reviewTranscript"_s, &m_transcriptView));
    splitter->setSizes({ 300, 400, 500 });

    m_labelLine = new QLabel(this);
    m_labelLine->setObjectName(u"reviewLabelLine"_s);
    m_labelLine->setTextFormat(Qt::PlainText);
    m_labelLine->setWordWrap(true);
    m_verdicts = new QLabel(this);
    m_verdicts->setObjectName(u"reviewVerdicts"_s);
    m_verdicts->setTextFormat(Qt::PlainText);
    m_verdicts->setWordWrap(true);
    m_verdicts->setMaximumHeight(fontMetrics().lineSpacing() * 5 + 4);
    m_verdicts->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_noteEdit = new QLineEdit(this);
    m_noteEdit->setObjectName(u"reviewNote"_s);
    m_noteEdit->setPlaceholderText(tr("A note on this output (Enter keeps it, Esc drops it)"));
    m_noteEdit->hide();
    m_noteEdit->installEventFilter(this);

    auto *keys = new QLabel(tr("P pass · F fail · 1–5 score · N note · S skip · U undo · "
                               "Space next without a label · ← → previous / next · Esc close"),
                            this);
    keys->setObjectName(u"reviewKeys"_s);
    keys->setWordWrap(true);
    QPalette muted = keys->palette();
    muted.setColor(QPalette::WindowText, muted.color(QPalette::PlaceholderText));
    keys->setPalette(muted);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->addLayout(top);
    layout->addLayout(strip);
    layout->addWidget(m_notice);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_labelLine);
    layout->addWidget(m_verdicts);
    layout->addWidget(m_noteEdit);
    layout->addWidget(keys);
    m_reviewerLabel->setText(tr("Labelling as %1").arg(m_reviewer));
}

QString ReviewQueue::keyOf(int index) const
{
    const ExperimentRunRecord &run = m_items.at(index).run;
    return runKey(run.caseId, run.variant, run.repeat);
}

int ReviewQueue::labelledCount() const
{
    int n = 0;
    for (const ReviewLabel &label : m_mine)
        n += label.verdict != u"skip"_s ? 1 : 0;
    return n;
}

int ReviewQueue::skippedCount() const
{
    return int(m_mine.size()) - labelledCount();
}

std::optional<ReviewLabel> ReviewQueue::labelAt(int index) const
{
    if (index < 0 || index >= count())
        return std::nullopt;
    const auto it = m_mine.constFind(keyOf(index));
    if (it == m_mine.cend())
        return std::nullopt;
    return *it;
}

QList<ReviewLabel> ReviewQueue::labels() const
{
    QList<ReviewLabel> out = m_others;
    for (int i = 0; i < count(); ++i) {
        if (auto label = labelAt(i))
            out.append(*label);
    }
    return out;
}

bool ReviewQueue::isLoaded(int index) const
{
    return index >= 0 && index < count() && m_items.at(index).content.has_value();
}

bool ReviewQueue::verdictsShown() const
{
    return m_current >= 0 && m_current < count() && m_mine.contains(keyOf(m_current));
}

void ReviewQueue::setReviewer(const QString &name)
{
    if (name == m_reviewer)
        return;
    // Labels are per person: the other name's labels are kept, this name's are its own.
    QList<ReviewLabel> all = labels();
    m_reviewer = name;
    m_mine.clear();
    m_others.clear();
    for (const ReviewLabel &label : all) {
        if (label.reviewer == m_reviewer)
            m_mine.insert(runKey(label.caseId, label.variant, label.repeat), label);
        else
            m_others.append(label);
    }
    m_undo.clear();
    m_reviewerLabel->setText(tr("Labelling as %1").arg(m_reviewer));
    showIndex(m_current);
}

// ---- reading the calls ------------------------------------------------------------------

ReviewQueue::Content ReviewQueue::contentFor(const CallRecord &record)
{
    Content c;
    c.output = jsonText(record.response);
    if (c.output.isEmpty())
        c.output = tr("(no output: the call ended as %1)").arg(callStatusName(record.status))
            + (record.error.isEmpty() ? QString() : u"\n\n"_s + record.error);
    QStringList parts;
    for (const Message &m : messagesFromJson(record.messages)) {
        QString block = u"— "_s + roleName(m.role) + u" —"_s;
        if (!m.text.isEmpty())
            block += u'\n' + m.text;
        for (const ToolCall &call : m.toolCalls)
            block += u"\n→ "_s + call.name + u' '
                + (call.rawArguments.isEmpty() ? QString::fromUtf8(
                       QJsonDocument(call.arguments).toJson(QJsonDocument::Compact))
                                               : call.rawArguments);
        for (const ToolResult &result : m.toolResults)
            block += u"\n← "_s + result.name + u": "_s + result.content;
        if (!m.refusal.isEmpty())
            block += u'\n' + tr("Refused: %1").arg(m.refusal);
        parts.append(block);
    }
    c.output = capped(c.output);
    c.transcript = capped(parts.join(u"\n\n"_s));
    return c;
}

void ReviewQueue::request(int index)
{
    if (index < 0 || index >= count())
        return;
    Item &item = m_items[index];
    if (item.requested)
        return;
    item.requested = true;
    const qint64 callId = item.run.callId.value_or(0);
    readFromStore<Loaded>(
        m_reader, m_reader ? nullptr : m_store, this,
        [callId](CallStore &store) {
            Loaded out;
            auto call = store.getCall(callId);
            if (!call) {
                out.error = call.error().message;
                return out;
            }
            const Content c = contentFor(call.value());
            out.ok = true;
            out.output = c.output;
            out.transcript = c.transcript;
            return out;
        },
        [this, index](const Loaded *loaded, const QString &error) {
            Item &it = m_items[index];
            if (!loaded || !loaded->ok) {
                const QString why = loaded ? loaded->error : error;
                it.content = Content { tr("(the call could not be read: %1)").arg(why), QString() };
            } else {
                it.content = Content { loaded->output, loaded->transcript };
            }
            if (index == m_current && !m_shownLoaded)
                showContent();
        });
}

void ReviewQueue::prefetchAround(int index)
{
    request(index);
    // The runs the next keys lead to: the next ones in order, and the next without a label.
    for (int i = 1; i <= kPrefetch; ++i)
        request(index + i);
    for (int i = index + 1, found = 0; i < count() && found < kPrefetch; ++i) {
        if (!m_mine.contains(keyOf(i))) {
            request(i);
            ++found;
        }
    }
    request(index - 1);
}

// ---- showing ----------------------------------------------------------------------------

void ReviewQueue::showIndex(int index)
{
    if (count() == 0) {
        m_current = -1;
        m_title->setText(tr("Nothing to review: no run of this experiment has a call yet."));
        m_caseView->clear();
        m_outputView->clear();
        m_transcriptView->clear();
        updateLabelLine();
        updateProgress();
        return;
    }
    index = std::clamp(index, 0, count() - 1);
    if (index != m_current) {
        m_pendingScore.reset();
        m_pendingNote.clear();
        if (m_noteEdit->isVisible())
            finishNote(false);
    }
    m_current = index;
    const Item &item = m_items.at(index);
    m_title->setText(tr("Run %1 of %2 — case %3 · variant %4 · repeat %5")
                         .arg(index + 1)
                         .arg(count())
                         .arg(item.run.caseId, item.run.variant)
                         .arg(item.run.repeat + 1));
    m_caseView->setPlainText(item.caseText);
    m_shownLoaded = false;
    showContent();
    updateLabelLine();
    updateProgress();
    prefetchAround(index);
}

void ReviewQueue::showContent()
{
    const Item &item = m_items.at(m_current);
    if (!item.content) {
        m_outputView->setPlainText(tr("Reading the call…"));
        m_transcriptView->clear();
        return;
    }
    m_outputView->setPlainText(item.content->output);
    m_transcriptView->setPlainText(item.content->transcript);
    m_shownLoaded = true;
    m_lastShowMs = m_moveTimer.isValid() ? m_moveTimer.elapsed() : 0;
}

void ReviewQueue::updateLabelLine()
{
    if (m_current < 0) {
        m_labelLine->clear();
        m_verdicts->clear();
        return;
    }
    const std::optional<ReviewLabel> label = labelAt(m_current);
    QStringList parts;
    if (label) {
        parts.append(tr("Your label: %1").arg(verdictWord(label->verdict)));
        if (label->score)
            parts.append(tr("score %1 of 5").arg(*label->score));
        if (!label->note.isEmpty())
            parts.append(tr("note: %1").arg(label->note));
    } else {
        parts.append(tr("Not labelled yet: P pass, F fail, S skip"));
        if (m_pendingScore)
            parts.append(tr("score %1 of 5 (kept with your verdict)").arg(*m_pendingScore));
        if (!m_pendingNote.isEmpty())
            parts.append(tr("note: %1 (kept with your verdict)").arg(m_pendingNote));
    }
    m_labelLine->setText(parts.join(u" · "_s));

    if (!label) {
        m_verdicts->setText(tr("The checks' verdicts (the judge's too) are hidden until you "
                               "label this output, so they do not sway you."));
        return;
    }
    const ExperimentRunRecord &run = m_items.at(m_current).run;
    QStringList lines;
    for (const QJsonValue &value : run.assertions) {
        const QJsonObject result = value.toObject();
        const bool passed = result.value(u"passed"_s).toBool();
        QString line = (passed ? tr("✓ %1 passed") : tr("✗ %1 failed"))
                           .arg(result.value(u"name"_s).toString());
        if (result.value(u"type"_s).toString() == u"judge"_s)
            line = (passed ? tr("✓ The judge %1 passed it") : tr("✗ The judge %1 failed it"))
                       .arg(result.value(u"name"_s).toString());
        const QString reason = result.value(u"reason"_s).toString();
        if (!reason.isEmpty())
            line += u": "_s + reason.left(300);
        lines.append(line);
    }
    if (lines.isEmpty())
        lines.append(tr("This run has no checks."));
    m_verdicts->setText(lines.join(u'\n'));
}

void ReviewQueue::updateProgress()
{
    const int done = labelledCount();
    const int skipped = skippedCount();
    QString text = QCoreApplication::translate("Callscope::ReviewQueue", "%1 of %n run(s) labelled",
                                               nullptr, count())
                       .arg(done);
    if (skipped > 0)
        text += u", "_s
            + QCoreApplication::translate("Callscope::ReviewQueue", "%n skipped", nullptr, skipped);
    if (done + skipped >= count() && count() > 0)
        text += u". "_s + tr("Every run has your label.");
    m_progressLabel->setText(text);
    m_progress->setMaximum(std::max(1, count()));
    m_progress->setValue(done + skipped);
}

// ---- labelling ----------------------------------------------------------------------------

void ReviewQueue::label(const QString &verdict)
{
    if (m_current < 0)
        return;
    const std::optional<ReviewLabel> before = labelAt(m_current);
    const ExperimentRunRecord &run = m_items.at(m_current).run;
    ReviewLabel label;
    label.experimentId = m_experimentId;
    if (run.id > 0)
        label.runId = run.id;
    label.callId = run.callId;
    label.caseId = run.caseId;
    label.variant = run.variant;
    label.repeat = run.repeat;
    label.verdict = verdict;
    label.score = m_pendingScore ? m_pendingScore : before ? before->score : std::nullopt;
    label.note = !m_pendingNote.isEmpty() ? m_pendingNote : before ? before->note : QString();
    label.reviewer = m_reviewer;
    label.createdAt = QDateTime::currentDateTimeUtc();
    m_pendingScore.reset();
    m_pendingNote.clear();
    storeLabel(m_current, label, true);
}

void ReviewQueue::score(int value)
{
    if (m_current < 0 || value < 1 || value > 5)
        return;
    if (std::optional<ReviewLabel> label = labelAt(m_current)) {
        label->score = value;
        label->createdAt = QDateTime::currentDateTimeUtc();
        storeLabel(m_current, *label, true);
        return;
    }
    m_pendingScore = value;
    updateLabelLine();
}

void ReviewQueue::editNote()
{
    if (m_current < 0)
        return;
    const std::optional<ReviewLabel> label = labelAt(m_current);
    m_noteEdit->setText(label ? label->note : m_pendingNote);
    m_noteEdit->show();
    m_noteEdit->setFocus();
    m_noteEdit->selectAll();
}

void ReviewQueue::finishNote(bool keep)
{
    const QString text = m_noteEdit->text().trimmed();
    m_noteEdit->hide();
    setFocus();
    if (!keep || m_current < 0)
        return;
    if (std::optional<ReviewLabel> label = labelAt(m_current)) {
        if (label->note == text)
            return;
        label->note = text;
        label->createdAt = QDateTime::currentDateTimeUtc();
        storeLabel(m_current, *label, true);
        return;
    }
    m_pendingNote = text;
    updateLabelLine();
}

void ReviewQueue::storeLabel(int index, const ReviewLabel &label, bool pushUndo)
{
    if (pushUndo)
        m_undo.append({ index, labelAt(index) });
    m_mine.insert(keyOf(index), label);
    ++m_pendingWrites;
    runOnStore<StoreError>(
        m_service ? m_service->writer() : nullptr, m_store, this,
        [label](CallStore &store) -> StoreError {
            auto saved = store.saveReviewLabel(label);
            return saved ? StoreError() : saved.error();
        },
        [this](const StoreError *error, const QString &why) {
            --m_pendingWrites;
            if (!error)
                m_notice->showMessage(tr("The label could not be stored: %1")
                                          .arg(why.isEmpty() ? tr("the history is not open") : why),
                                      NoticeBar::Kind::Error);
            else if (*error)
                m_notice->showMessage(tr("The label could not be stored: %1").arg(error->message),
                                      NoticeBar::Kind::Error);
        });
    if (index == m_current)
        updateLabelLine();
    updateProgress();
    Q_EMIT labelsChanged(labels());
}

void ReviewQueue::removeLabel(int index)
{
    const ExperimentRunRecord run = m_items.at(index).run;
    m_mine.remove(keyOf(index));
    ++m_pendingWrites;
    runOnStore<StoreError>(
        m_service ? m_service->writer() : nullptr, m_store, this,
        [run, id = m_experimentId, reviewer = m_reviewer](CallStore &store) {
            return store.deleteReviewLabel(id, run.caseId, run.variant, run.repeat, reviewer);
        },
        [this](const StoreError *error, const QString &why) {
            --m_pendingWrites;
            if (!error || *error)
                m_notice->showMessage(
                    tr("The label could not be taken back: %1").arg(error ? error->message : why),
                    NoticeBar::Kind::Error);
        });
    updateProgress();
    Q_EMIT labelsChanged(labels());
}

void ReviewQueue::undo()
{
    if (m_undo.isEmpty()) {
        m_notice->showMessage(tr("Nothing to undo."), NoticeBar::Kind::Info);
        return;
    }
    const UndoStep step = m_undo.takeLast();
    if (step.before)
        storeLabel(step.index, *step.before, false);
    else
        removeLabel(step.index);
    m_moveTimer.start();
    showIndex(step.index);
    m_notice->clearMessage();
}

void ReviewQueue::next()
{
    if (count() == 0)
        return;
    m_moveTimer.start();
    for (int i = 1; i <= count(); ++i) {
        const int at = (m_current + i) % count();
        if (!m_mine.contains(keyOf(at))) {
            showIndex(at);
            return;
        }
    }
    // Everything has a label: the next run in order.
    showIndex(std::min(m_current + 1, count() - 1));
}

void ReviewQueue::step(int delta)
{
    m_moveTimer.start();
    showIndex(m_current + delta);
}

// ---- keys --------------------------------------------------------------------------------

void ReviewQueue::keyPressEvent(QKeyEvent *event)
{
    const bool plain =
        !(event->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier));
    switch (event->key()) {
    case Qt::Key_P:
        if (plain) {
            label(u"pass"_s);
            return;
        }
        break;
    case Qt::Key_F:
        if (plain) {
            label(u"fail"_s);
            return;
        }
        break;
    case Qt::Key_S:
        if (plain) {
            label(u"skip"_s);
            return;
        }
        break;
    case Qt::Key_1:
    case Qt::Key_2:
    case Qt::Key_3:
    case Qt::Key_4:
    case Qt::Key_5:
        if (plain) {
            score(event->key() - Qt::Key_0);
            return;
        }
        break;
    case Qt::Key_N:
        if (plain) {
            editNote();
            return;
        }
        break;
    case Qt::Key_U:
        if (plain) {
            undo();
            return;
        }
        break;
    case Qt::Key_Z:
        if (event->modifiers() & Qt::ControlModifier) {
            undo();
            return;
        }
        break;
    case Qt::Key_Space:
    case Qt::Key_Return:
    case Qt::Key_Enter:
        next();
        return;
    case Qt::Key_Right:
    case Qt::Key_J:
        step(1);
        return;
    case Qt::Key_Left:
    case Qt::Key_K:
        step(-1);
        return;
    case Qt::Key_PageDown:
        m_outputView->verticalScrollBar()->triggerAction(QAbstractSlider::SliderPageStepAdd);
        m_transcriptView->verticalScrollBar()->triggerAction(QAbstractSlider::SliderPageStepAdd);
        return;
    case Qt::Key_PageUp:
        m_outputView->verticalScrollBar()->triggerAction(QAbstractSlider::SliderPageStepSub);
        m_transcriptView->verticalScrollBar()->triggerAction(QAbstractSlider::SliderPageStepSub);
        return;
    case Qt::Key_Escape:
        if (isWindow()) {
            close();
            return;
        }
        break;
    default:
        break;
    }
    QWidget::keyPressEvent(event);
}

bool ReviewQueue::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_noteEdit && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            finishNote(true);
            return true;
        }
        if (key->key() == Qt::Key_Escape) {
            finishNote(false);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace Callscope
