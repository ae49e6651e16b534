#include "ui/history/revisiontreewidget.h"

#include "core/model/specio.h"
#include "core/secrets/truststore.h"
#include "core/service/calljob.h"
#include "core/store/callstore.h"
#include "core/store/storereader.h"
#include "ui/history/enginechoicedialog.h"
#include "ui/history/revisiontreemodel.h"
#include "ui/widgets/callview.h"
#include "ui/widgets/displaynames.h"
#include "ui/widgets/trustdialog.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>

#include <utility>

using namespace Qt::StringLiterals;

namespace Callscope {

RevisionTreeWidget::RevisionTreeWidget(CallStore *store, CallService *service,
                                       ProfileStore *profiles, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
    , m_service(service)
    , m_profiles(profiles)
    , m_model(new RevisionTreeModel(store, this))
    , m_view(new QTreeView(this))
    , m_callView(new CallView(this))
    , m_revise(new QPushButton(tr("Revise…"), this))
    , m_replayEngine(new QPushButton(tr("Replay on another engine…"), this))
    , m_replaySpec(new QPushButton(tr("Replay with current spec"), this))
    , m_diff(new QPushButton(tr("Diff with parent"), this))
    , m_budget(new QPushButton(tr("Context budget"), this))
    , m_export(new QPushButton(tr("Export tree…"), this))
    , m_status(new NoticeBar(this))
{
    setObjectName(u"revisionTree"_s);
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setUniformRowHeights(true);
    m_view->header()->setStretchLastSection(true);

    // One row: the dock under the spec is short (a quarter of the window's height at
    // 1280x800) and wide, and the tree below needs the height.
    auto *buttons = new QHBoxLayout;
    for (QPushButton *b : { m_revise, m_replayEngine, m_replaySpec, m_diff, m_budget, m_export })
        buttons->addWidget(b);
    buttons->addStretch(1);
    // A few rows of the tree always show, whatever height the dock was given.
    m_view->setMinimumHeight(m_view->fontMetrics().height() * 4 + 12);

    // The call beside the tree takes the height the tree leaves it (it scrolls), so the dock's
    // height is the tree's, not the call's summary and tabs.
    m_callView->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Ignored);
    m_status->hide();

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_view);
    splitter->addWidget(m_callView);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(m_status);
    layout->addWidget(splitter, 1);

    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &RevisionTreeWidget::showSelected);
    connect(m_view, &QTreeView::activated, this, [this](const QModelIndex &index) {
        if (const qint64 id = index.data(RevisionTreeModel::CallIdRole).toLongLong(); id > 0)
            Q_EMIT callOpened(id);
    });
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QTreeView::customContextMenuRequested, this, [this](const QPoint &pos) {
        const qint64 id = m_view->indexAt(pos).data(RevisionTreeModel::CallIdRole).toLongLong();
        if (id <= 0)
            return;
        auto *menu = new QMenu(this);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->addAction(tr("Open"), this, [this, id] { Q_EMIT callOpened(id); });
        menu->popup(m_view->viewport()->mapToGlobal(pos));
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, &RevisionTreeWidget::updateActions);
    connect(m_model, &RevisionTreeModel::loaded, this, &RevisionTreeWidget::onTreeLoaded);
    connect(m_model, &RevisionTreeModel::callAdded, this, [this](qint64 id) {
        m_view->expand(m_model->indexOfCall(id).parent());
        m_view->resizeColumnToContents(RevisionTreeModel::CallColumn);
    });
    connect(m_revise, &QPushButton::clicked, this, &RevisionTreeWidget::openReviseDialog);
    connect(m_replayEngine, &QPushButton::clicked, this, &RevisionTreeWidget::openReplayDialog);
    connect(m_replaySpec, &QPushButton::clicked, this, &RevisionTreeWidget::replayWithCurrentSpec);
    connect(m_diff, &QPushButton::clicked, this, [this] {
        const QModelIndex current = m_view->selectionModel()->currentIndex();
        const QVariant parentId = current.data(RevisionTreeModel::ParentIdRole);
        if (current.isValid() && parentId.isValid())
            Q_EMIT diffRequested(parentId.toLongLong(), selectedCallId());
    });
    connect(m_budget, &QPushButton::clicked, this, [this] {
        if (selectedCallId() > 0)
            Q_EMIT budgetRequested(selectedCallId());
    });
    connect(m_export, &QPushButton::clicked, this, [this] {
        if (m_model->rootId() > 0)
            Q_EMIT exportTreeRequested(m_model->rootId());
    });
    m_replaySpec->setToolTip(tr("Open a spec in the editor first."));
    updateActions();
}

RevisionTreeWidget::~RevisionTreeWidget() = default;

QString RevisionTreeWidget::statusText() const
{
    return m_status->text();
}

void RevisionTreeWidget::setStatus(const QString &text, NoticeBar::Kind kind)
{
    if (text.isEmpty())
        m_status->clearMessage();
    else
        m_status->showMessage(text, kind);
}

qint64 RevisionTreeWidget::selectedCallId() const
{
    const QModelIndex current = m_view->selectionModel()->currentIndex();
    return current.isValid() ? current.data(RevisionTreeModel::CallIdRole).toLongLong() : 0;
}

void RevisionTreeWidget::selectCall(qint64 id)
{
    const QModelIndex index = m_model->indexOfCall(id);
    if (!index.isValid())
        return;
    m_view->expandAll();
    m_view->selectionModel()->setCurrentIndex(
        index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(index);
}

void RevisionTreeWidget::setReader(StoreReader *reader)
{
    m_reader = reader;
    m_model->setReader(reader);
}

void RevisionTreeWidget::setCall(qint64 callId)
{
    m_pendingSelect = callId;
    m_layoutAfterLoad = true;
    if (!m_model->setCall(callId) && m_pendingSelect == callId) {
        // Refused before any read (no history).
        m_pendingSelect = 0;
        setStatus(tr("Call %1 cannot be shown: %2").arg(callId).arg(m_model->lastError()),
                  NoticeBar::Kind::Error);
        m_callView->clear();
    }
}

void RevisionTreeWidget::onTreeLoaded(bool ok)
{
    const qint64 wanted = std::exchange(m_pendingSelect, 0);
    const bool layout = std::exchange(m_layoutAfterLoad, false);
    if (!ok) {
        if (layout) {
            setStatus(tr("Call %1 cannot be shown: %2").arg(wanted).arg(m_model->lastError()));
            m_callView->clear();
        }
        return;
    }
    if (layout) {
        setStatus({});
        m_view->expandAll();
        for (int c = 0; c < RevisionTreeModel::ColumnCount - 1; ++c)
            m_view->resizeColumnToContents(c);
    }
    if (wanted > 0)
        selectCall(wanted);
    updateActions();
}

void RevisionTreeWidget::setCurrentSpec(const Spec &spec)
{
    m_currentSpec = spec;
    m_replaySpec->setToolTip(
        tr("Re-run the selected call's input with the spec open in the editor (%1).")
            .arg(spec.kind));
    updateActions();
}

void RevisionTreeWidget::clearCurrentSpec()
{
    m_currentSpec.reset();
    m_replaySpec->setToolTip(tr("Open a spec in the editor first."));
    updateActions();
}

void RevisionTreeWidget::showSelected()
{
    const qint64 id = selectedCallId();
    updateActions();
    if (id <= 0 || !m_store) {
        m_callView->clear();
        return;
    }
    m_showing = id;
    readFromStore<StoreResult<CallView::Shown>>(
        m_reader, m_store, this,
        [id, colours = palette()](CallStore &store) { return CallView::read(store, id, colours); },
        [this, id](const StoreResult<CallView::Shown> *call, const QString &) {
            if (id != m_showing)
                return; // another call was picked since
            m_showing = 0;
            if (call && *call)
                m_callView->setCall(call->value());
        });
    Q_EMIT callSelected(id);
}

void RevisionTreeWidget::updateActions()
{
    const bool selected = selectedCallId() > 0;
    const bool canRun = selected && m_service && !m_job;
    m_revise->setEnabled(canRun);
    m_replayEngine->setEnabled(canRun);
    m_replaySpec->setEnabled(canRun && m_currentSpec.has_value());
    const QModelIndex current = m_view->selectionModel()->currentIndex();
    m_diff->setEnabled(selected && current.data(RevisionTreeModel::ParentIdRole).isValid());
    m_budget->setEnabled(selected);
    m_export->setEnabled(m_model->rootId() > 0);
}

bool RevisionTreeWidget::startRun(const QString &what)
{
    if (!m_service || !m_store) {
        setStatus(tr("Runs need the history database."));
        return false;
    }
    if (m_job) {
        setStatus(tr("Another call is running; wait for it to finish."));
        return false;
    }
    if (selectedCallId() <= 0) {
        setStatus(tr("Select a call first."));
        return false;
    }
    setStatus(what);
    return true;
}

void RevisionTreeWidget::follow(CallJob *job)
{
    // Only this widget's own runs end up here; runs from other panels do not touch it.
    m_job = job;
    connect(job, &CallJob::finished, this, &RevisionTreeWidget::onJobFinished);
    updateActions();
}

bool RevisionTreeWidget::withSelectedCall(std::function<void(const CallRecord &)> then)
{
    const qint64 id = selectedCallId();
    if (!m_store || id <= 0) {
        setStatus(tr("Select a call first."));
        return false;
    }
    // The view beside the tree holds the selected call once it is read: no second read.
    if (m_callView->call().id == id) {
        then(m_callView->call());
        return true;
    }
    setStatus(tr("Reading call %1…").arg(id));
    readFromStore<StoreResult<CallRecord>>(
        m_reader, m_store, this, [id](CallStore &store) { return store.getCall(id); },
        [this, id, then = std::move(then)](const StoreResult<CallRecord> *call,
                                           const QString &error) {
            if (selectedCallId() != id)
                return; // another call was picked meanwhile: nothing runs on this one
            if (!call || !*call) {
                setStatus(tr("Call %1 could not be read: %2")
                              .arg(id)
                              .arg(call ? call->error().message : error),
                          NoticeBar::Kind::Error);
                return;
            }
            setStatus({});
            then(call->value());
        });
    return true;
}

bool RevisionTreeWidget::revise(const QString &correction)
{
    const QString text = correction.trimmed();
    if (text.isEmpty()) {
        setStatus(tr("A revision needs a correction."));
        return false;
    }
    // False only when it is known at once (the call was at hand) that nothing runs yet.
    auto started = std::make_shared<std::optional<bool>>();
    if (!withSelectedCall(
            [this, text, started](const CallRecord &call) { *started = reviseCall(call, text); }))
        return false;
    return started->value_or(true);
}

bool RevisionTreeWidget::reviseCall(const CallRecord &call, const QString &text)
{
    const qint64 id = call.id;
    if (CallService::revisionNeedsLiveEngine(call)) {
        setStatus(tr("Call %1 ran on the replay engine: its recording would answer the same "
                     "whatever the "
                     "correction says. Pick a live engine for the revision.")
                      .arg(id));
        auto *dialog = new EngineChoiceDialog(m_profiles, this);
        dialog->setObjectName(u"reviseEngineDialog"_s);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->setWindowTitle(tr("Revise call %1 on a live engine").arg(id));
        if (auto *box = dialog->findChild<QDialogButtonBox *>())
            box->button(QDialogButtonBox::Ok)->setText(tr("Revise There"));
        connect(dialog, &QDialog::accepted, this,
                [this, dialog, text] { reviseOnEngine(text, dialog->engine()); });
        dialog->open();
        return false;
    }
    // A revision runs the call's tools again: a stored spec that would start programs (an
    // imported call's, say) is shown and asked about first.
    if (TrustStore *trust = m_service ? m_service->trustStore() : nullptr; trust) {
        const SpecLoadResult stored =
            specFromJson(call.spec, call.metadata.value(u"spec_path"_s).toString());
        if (stored.spec) {
            const QList<RunItem> items =
                untrustedRunItems(*stored.spec, *trust, m_service->allowedKeyVariables());
            if (!items.isEmpty()) {
                QPointer<RevisionTreeWidget> self(this);
                TrustDialog::ask(
                    window(), QString(), items, {},
                    [self, trust, entry = trustEntryFor(*stored.spec), text](bool yes) {
                        if (!self)
                            return;
                        if (!yes) {
                            self->setStatus(tr("Nothing was run: the call's spec is not trusted."));
                            return;
                        }
                        trust->trust(entry);
                        self->revise(text);
                    });
                return false;
            }
        }
    }
    if (!startRun(tr("Revising call %1…").arg(id)))
        return false;
    follow(m_service->revise(call, text));
    return true;
}

bool RevisionTreeWidget::reviseOnEngine(const QString &correction, const EngineSpec &engine)
{
    const QString text = correction.trimmed();
    const qint64 id = selectedCallId();
    if (text.isEmpty() || id <= 0) {
        setStatus(tr("A revision needs a correction."));
        return false;
    }
    if (CallService::revisionNeedsLiveEngine({}, engine)) {
        setStatus(tr("The revision needs a live engine, not the replay engine."),
                  NoticeBar::Kind::Error);
        return false;
    }
    auto started = std::make_shared<std::optional<bool>>();
    if (!withSelectedCall([this, text, engine, started](const CallRecord &call) {
            *started = startRun(tr("Revising call %1…").arg(call.id));
            if (*started)
                follow(m_service->revise(call, text, {}, engine));
        }))
        return false;
    return started->value_or(true);
}

bool RevisionTreeWidget::replayOnEngine(const EngineSpec &engine)
{
    auto started = std::make_shared<std::optional<bool>>();
    if (!withSelectedCall([this, engine, started](const CallRecord &call) {
            *started = replayCall(call, engine);
        }))
        return false;
    return started->value_or(true);
}

bool RevisionTreeWidget::replayCall(const CallRecord &call, const EngineSpec &engine)
{
    const qint64 id = call.id;
    SpecLoadResult loaded = specFromJson(call.spec, call.metadata.value(u"spec_path"_s).toString());
    if (!loaded.spec) {
        setStatus(tr("Call %1 has no usable spec stored.").arg(id), NoticeBar::Kind::Error);
        return false;
    }
    Spec spec = *loaded.spec;
    EngineSpec chosen = engine;
    // Output limits and budget settings of the original stay unless the choice sets them.
    if (!chosen.maxTokens)
        chosen.maxTokens = spec.engine.maxTokens;
    if (!chosen.temperature)
        chosen.temperature = spec.engine.temperature;
    chosen.stream = spec.engine.stream;
    spec.engine = chosen;
    const QString target = chosen.profile.isEmpty()
        ? engineTypeName(chosen.type) + u" · "_s + chosen.model
        : chosen.profile;
    if (!startRun(tr("Replaying call %1 on %2…").arg(id).arg(target)))
        return false;
    follow(m_service->rerun(call, spec));
    return true;
}

bool RevisionTreeWidget::replayWithCurrentSpec()
{
    if (!m_currentSpec) {
        setStatus(tr("Open a spec in the editor first."));
        return false;
    }
    auto started = std::make_shared<std::optional<bool>>();
    if (!withSelectedCall([this, started](const CallRecord &call) {
            if (!m_currentSpec) {
                *started = false;
                return;
            }
            *started = startRun(tr("Replaying call %1 with the current spec…").arg(call.id));
            if (*started)
                follow(m_service->rerun(call, *m_currentSpec));
        }))
        return false;
    return started->value_or(true);
}

void RevisionTreeWidget::openReviseDialog()
{
    const qint64 id = selectedCallId();
    if (id <= 0)
        return;
    auto *dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Revise call %1").arg(id));
    auto *edit = new QPlainTextEdit(dialog);
    edit->setObjectName(u"correction"_s);
    edit->setPlaceholderText(tr("What should the model do differently?"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Revise"));
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(new QLabel(tr("Correction sent after the call's conversation:"), dialog));
    layout->addWidget(edit);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    connect(dialog, &QDialog::accepted, this, [this, edit] { revise(edit->toPlainText()); });
    dialog->open();
}

void RevisionTreeWidget::openReplayDialog()
{
    const qint64 id = selectedCallId();
    if (id <= 0 || !m_store)
        return;
    // The dialog starts from the call's engine: it opens once the call is read.
    withSelectedCall([this](const CallRecord &call) {
        auto *dialog = new EngineChoiceDialog(m_profiles, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        if (auto loaded = specFromJson(call.spec); loaded.spec)
            dialog->setEngine(loaded.spec->engine);
        connect(dialog, &QDialog::accepted, this,
                [this, dialog] { replayOnEngine(dialog->engine()); });
        dialog->open();
    });
}

void RevisionTreeWidget::onJobFinished(const LaunchResult &result)
{
    m_job = nullptr;
    if (!result.stored) {
        setStatus(tr("The run was not stored: %1")
                      .arg(result.storeError.isEmpty() ? result.record.error : result.storeError),
                  NoticeBar::Kind::Error);
        updateActions();
        Q_EMIT runFinished(0);
        return;
    }
    // The new call is picked once the tree holds it.
    m_pendingSelect = result.record.id;
    m_model->refresh();
    QString text = tr("Call %1 finished: %2.")
                       .arg(result.record.id)
                       .arg(callStatusDisplayName(result.record.status));
    if (!result.record.error.isEmpty())
        text += u" "_s + result.record.error;
    setStatus(text);
    if (!m_model->isLoading())
        selectCall(result.record.id);
    updateActions();
    Q_EMIT runFinished(result.record.id);
}

} // namespace Callscope
