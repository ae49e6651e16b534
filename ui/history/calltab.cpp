#include "ui/history/calltab.h"

#include "core/eval/pricetable.h"
#include "core/eval/telemetrysettings.h"
#include "core/loop/edits.h"
#include "core/loop/exchangecapture.h"
#include "core/store/cachereport.h"
#include "core/store/callstore.h"
#include "core/store/storereader.h"
#include "ui/history/currentcall.h"
#include "ui/history/revisiontreemodel.h"
#include "ui/widgets/budgetview.h"
#include "ui/widgets/cacheview.h"
#include "ui/widgets/calldiff.h"
#include "ui/widgets/callview.h"
#include "ui/widgets/displaynames.h"
#include "ui/widgets/jsoneditor.h"
#include "ui/widgets/rawexchangeview.h"

#include <QComboBox>
#include <QDesktopServices>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QTabWidget>
#include <QTextBrowser>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

// The conversation's replies, one per turn, in order: the last turns.size() assistant messages
// that are not the accepted-output copy (a revision's conversation starts with its parent's).
QList<qsizetype> replyPositions(const QList<Message> &messages, qsizetype turns)
{
    QList<qsizetype> replies;
    for (qsizetype i = 0; i < messages.size(); ++i) {
        const Message &m = messages.at(i);
        if (m.role == Role::Assistant && !m.providerData.value(u"callscope_output_copy"_s).toBool())
            replies.append(i);
    }
    if (replies.size() > turns)
        replies = replies.mid(replies.size() - turns);
    return replies;
}

// The reply position of `turn` (its index among the record's turns), -1 when unknown.
qsizetype replyPosition(const CallRecord &record, const QList<Message> &messages, int turn)
{
    const QList<qsizetype> replies = replyPositions(messages, record.turns.size());
    // With fewer replies than turns the earliest turns have none.
    const qsizetype at = turn - (record.turns.size() - replies.size());
    return at >= 0 && at < replies.size() ? replies.at(at) : -1;
}

// The turn notes the runner leaves when a reply was not accepted and a correction went back.
QString noteText(const QString &note)
{
    if (note == u"validation_failed"_s)
        return CallTab::tr("the output failed validation; a correction was sent");
    if (note == u"parse_failed"_s)
        return CallTab::tr("the output was not valid JSON; a correction was sent");
    if (note == u"reask_truncated"_s)
        return CallTab::tr("the reply was cut off at the token limit; the model was asked again");
    if (note == u"empty_reply"_s)
        return CallTab::tr("the reply was empty; the model was asked again");
    if (note == u"plain_text"_s)
        return CallTab::tr("the reply was plain text, not the output; the model was asked again");
    if (note == u"correction"_s)
        return CallTab::tr("a correction was sent");
    return note;
}

} // namespace

CallTab::CallTab(CallStore *store, CurrentCall *current, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
    , m_current(current)
    , m_summary(new QLabel(this))
    , m_marks(new QLabel(this))
    , m_replay(new QPushButton(tr("Replay…"), this))
    , m_revise(new QPushButton(tr("Revise…"), this))
    , m_export(new QPushButton(tr("Export…"), this))
    , m_compareParent(new QPushButton(tr("Compare with Parent"), this))
    , m_compareSelected(new QPushButton(tr("Compare Selected"), this))
    , m_openTrace(new QPushButton(tr("Open Trace"), this))
    , m_tabs(new QTabWidget(this))
    , m_transcript(new QTextBrowser(this))
    , m_resultPage(new QWidget(this))
    , m_resultState(new QLabel(m_resultPage))
    , m_result(new JsonEditor(m_resultPage))
    , m_validation(new QPlainTextEdit(m_resultPage))
    , m_exchangePage(new QWidget(this))
    , m_turn(new QComboBox(m_exchangePage))
    , m_turnFacts(new QLabel(m_exchangePage))
    , m_exchangeNote(new QLabel(m_exchangePage))
    , m_exchange(new RawExchangeView(m_exchangePage))
    , m_budget(new BudgetView(this))
    , m_revisionView(new QTreeView(this))
    , m_revisionModel(new RevisionTreeModel(store, this))
{
    setObjectName(u"callTab"_s);
    m_summary->setObjectName(u"callSummary"_s);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_marks->setObjectName(u"callMarks"_s);
    m_marks->setWordWrap(true);
    m_marks->hide();
    m_replay->setObjectName(u"callReplay"_s);
    m_replay->setToolTip(
        tr("Run this call's input again on another engine; the replay is stored under it"));
    m_revise->setObjectName(u"callRevise"_s);
    m_revise->setToolTip(
        tr("Run this call again with a correction; the revision is stored under it"));
    m_export->setObjectName(u"callExport"_s);
    m_export->setToolTip(tr("Write this call to a JSON file"));
    m_compareParent->setObjectName(u"callCompareParent"_s);
    m_compareParent->setToolTip(tr("Show what differs from the call this one revises or replays"));
    m_compareSelected->setObjectName(u"callCompareSelected"_s);
    m_compareSelected->setToolTip(
        tr("Show what differs between the two calls picked in the revision tree"));

    m_openTrace->setObjectName(u"callOpenTrace"_s);
    m_openTrace->setToolTip(
        tr("Open this call's trace in the viewer named in Settings > Telemetry"));
    m_openTrace->hide();

    auto *buttons = new QHBoxLayout;
    for (QPushButton *b : { m_replay, m_revise, m_export, m_compareParent, m_compareSelected })
        buttons->addWidget(b);
    buttons->addStretch(1);
    buttons->addWidget(m_openTrace);

    // Transcript.
    m_transcript->setObjectName(u"callTranscript"_s);
    m_transcript->setOpenLinks(false);
    m_tabs->addTab(m_transcript, tr("&Transcript"));

    // Result: the accepted output, or why there is none and what failed validation.
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_resultState->setObjectName(u"resultState"_s);
    m_resultState->setWordWrap(true);
    m_result->setObjectName(u"callResult"_s);
    m_result->setReadOnly(true);
    m_validation->setObjectName(u"callValidation"_s);
    m_validation->setReadOnly(true);
    m_validation->setFont(mono);
    auto *resultSplit = new QSplitter(Qt::Vertical, m_resultPage);
    resultSplit->addWidget(m_result);
    resultSplit->addWidget(m_validation);
    resultSplit->setStretchFactor(0, 3);
    resultSplit->setStretchFactor(1, 1);
    auto *resultLayout = new QVBoxLayout(m_resultPage);
    resultLayout->addWidget(m_resultState);
    resultLayout->addWidget(resultSplit, 1);
    m_tabs->addTab(m_resultPage, tr("R&esult"));

    // Request / Response of one turn.
    m_turn->setObjectName(u"exchangeTurn"_s);
    m_turn->setAccessibleName(tr("Turn"));
    m_turnFacts->setObjectName(u"exchangeFacts"_s);
    m_exchangeNote->setObjectName(u"exchangeNote"_s);
    m_exchangeNote->setWordWrap(true);
    auto *turnRow = new QHBoxLayout;
    turnRow->addWidget(new QLabel(tr("Turn:"), m_exchangePage));
    turnRow->addWidget(m_turn);
    turnRow->addWidget(m_turnFacts, 1);
    auto *exchangeLayout = new QVBoxLayout(m_exchangePage);
    exchangeLayout->addLayout(turnRow);
    exchangeLayout->addWidget(m_exchangeNote);
    exchangeLayout->addWidget(m_exchange, 1);
    m_tabs->addTab(m_exchangePage, tr("Re&quest / Response"));
    connect(m_turn, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0)
            showTurn(m_turn->itemData(index).toInt());
    });

    // Context budget.
    m_budget->setObjectName(u"callBudget"_s);
    m_budget->setCacheTabShown(false); // the Cache page below shows it
    m_tabs->addTab(m_budget, tr("Context &Budget"));

    // What the prompt cache did for each turn.
    m_cacheView = new CacheView(this);
    m_cacheView->setObjectName(u"callCache"_s);
    m_tabs->addTab(m_cacheView, tr("Cac&he"));

    // Revisions: the call's tree; two nodes can be picked for Compare.
    m_revisionView->setObjectName(u"callRevisions"_s);
    m_revisionView->setAccessibleName(tr("Revisions and replays of this call"));
    m_revisionView->setModel(m_revisionModel);
    m_revisionView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_revisionView->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_revisionView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_revisionView->setUniformRowHeights(true);
    m_revisionView->header()->setStretchLastSection(true);
    m_tabs->addTab(m_revisionView, tr("Re&visions"));
    connect(m_revisionView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &CallTab::writeSelection);
    connect(m_revisionView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &CallTab::writeSelection);
    connect(m_revisionModel, &RevisionTreeModel::loaded, this, [this](bool ok) {
        if (ok)
            showTree();
    });
    connect(m_revisionView, &QTreeView::activated, this, [this](const QModelIndex &index) {
        if (const qint64 id = index.data(RevisionTreeModel::CallIdRole).toLongLong(); id > 0)
            Q_EMIT callOpened(id);
    });
    m_revisionView->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_revisionView, &QTreeView::customContextMenuRequested, this,
            [this](const QPoint &pos) {
                const QModelIndex index = m_revisionView->indexAt(pos);
                const qint64 id = index.data(RevisionTreeModel::CallIdRole).toLongLong();
                if (id <= 0)
                    return;
                auto *menu = new QMenu(this);
                menu->setAttribute(Qt::WA_DeleteOnClose);
                menu->addAction(tr("Open"), this, [this, id] { Q_EMIT callOpened(id); });
                const QVariant parentId = index.data(RevisionTreeModel::ParentIdRole);
                if (parentId.isValid())
                    menu->addAction(tr("Compare with Parent"), this, [this, id, parentId] {
                        Q_EMIT compareRequested(parentId.toLongLong(), id);
                    });
                menu->popup(m_revisionView->viewport()->mapToGlobal(pos));
            });

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_marks);
    layout->addLayout(buttons);
    layout->addWidget(m_tabs, 1);

    connect(m_replay, &QPushButton::clicked, this, [this] { Q_EMIT replayRequested(m_record.id); });
    connect(m_revise, &QPushButton::clicked, this, [this] { Q_EMIT reviseRequested(m_record.id); });
    connect(m_export, &QPushButton::clicked, this, [this] { Q_EMIT exportRequested(m_record.id); });
    connect(m_openTrace, &QPushButton::clicked, this, [this] {
        if (const QUrl url = traceUrl(); url.isValid())
            QDesktopServices::openUrl(url);
    });
    connect(m_compareParent, &QPushButton::clicked, this, [this] {
        if (m_record.parent)
            Q_EMIT compareRequested(*m_record.parent, m_record.id);
    });
    connect(m_compareSelected, &QPushButton::clicked, this, [this] {
        QList<qint64> ids;
        for (const QModelIndex &index : m_revisionView->selectionModel()->selectedRows())
            ids.append(index.data(RevisionTreeModel::CallIdRole).toLongLong());
        std::sort(ids.begin(), ids.end());
        if (ids.size() == 2)
            Q_EMIT compareRequested(ids.at(0), ids.at(1));
    });
    updateButtons();
}

CallTab::~CallTab() = default;

void CallTab::setReader(StoreReader *reader)
{
    m_reader = reader;
    m_revisionModel->setReader(reader);
}

bool CallTab::setCall(qint64 id)
{
    m_id = id;
    m_failed = false;
    if (!m_store) {
        m_failed = true;
        m_summary->setText(tr("The history is not available."));
        return false;
    }
    m_record = CallRecord();
    m_exchanges.clear();
    m_summary->setText(tr("Reading call %1…").arg(id));
    updateButtons();
    read();
    return !m_failed;
}

void CallTab::reload()
{
    if (m_id <= 0 || !m_store)
        return;
    read();
}

void CallTab::read()
{
    struct Read
    {
        std::optional<CallRecord> record;
        QString error;
        QList<TurnExchange> exchanges;
        std::optional<CacheReport> cache;
        // Prepared there too: a reply of tens of MB takes long to parse and print.
        QList<Message> messages;
        QString transcriptHtml;
        QString resultText;
    };
    const qint64 id = m_id;
    const quint64 ticket = ++m_ticket;
    m_loading = true;
    // The call, its raw exchanges (they can be tens of MB) and its cache report, on the
    // reader's thread: the window keeps drawing while a large call is read.
    readFromStore<Read>(
        m_reader, m_store, this,
        [id, colours = palette()](CallStore &store) {
            Read read;
            auto call = store.getCall(id);
            if (!call) {
                read.error = call.error().message;
                return read;
            }
            read.record = call.value();
            // The bodies are read only here, for this one call; History never loads them.
            if (auto exchanges = store.exchanges(id))
                read.exchanges = exchanges.value();
            if (auto report = buildCacheReport(store, id))
                read.cache = report.value();
            read.messages = messagesFromJson(read.record->messages);
            read.transcriptHtml =
                CallView::transcriptHtml(read.messages, read.record->systemPrompt, colours);
            const QJsonValue &response = read.record->response;
            if (!(response.isNull() || response.isUndefined()))
                read.resultText = CallView::shownText(CallView::prettyJson(response),
                                                      CallView::kShownResultChars);
            return read;
        },
        [this, id, ticket](const Read *read, const QString &error) {
            if (ticket != m_ticket)
                return; // asked again since: the newer answer counts
            m_loading = false;
            if (!read || !read->record) {
                // A reload that fails keeps what is shown.
                if (m_record.id <= 0) {
                    m_failed = true;
                    m_summary->setText(tr("Call %1 could not be read: %2")
                                           .arg(id)
                                           .arg(read ? read->error : error));
                }
                Q_EMIT loaded(false);
                return;
            }
            const bool first = m_record.id <= 0;
            m_record = *read->record;
            m_exchanges = read->exchanges;
            m_cache = read->cache;
            m_messages = read->messages;
            m_transcriptHtml = read->transcriptHtml;
            m_resultText = read->resultText;
            if (first) {
                fill();
            } else {
                m_revisionModel->refresh();
            }
            Q_EMIT loaded(true);
        });
}

QString CallTab::title() const
{
    return m_record.kind.isEmpty() ? tr("Call %1").arg(m_id)
                                   : tr("Call %1 · %2").arg(m_id).arg(m_record.kind);
}

void CallTab::fill()
{
    const CallRecord &r = m_record;
    QLocale locale;
    QStringList parts { tr("Call %1").arg(r.id), r.kind, callStatusDisplayName(r.status) };
    parts.append(QString(r.engineType + u' ' + r.model).trimmed());
    if (const QString mode = recordOutputMode(r); !mode.isEmpty())
        parts.append(tr("output: %1").arg(mode));
    if (!r.usage.isEmpty())
        parts.append(tr("%1 tokens in, %2 out")
                         .arg(locale.toString(r.usage.promptTokens()),
                              locale.toString(r.usage.outputTokens)));
    if (r.usage.cacheReadTokens > 0 || r.usage.cacheWriteTokens > 0)
        parts.append(tr("cache: %1 read, %2 written")
                         .arg(locale.toString(r.usage.cacheReadTokens),
                              locale.toString(r.usage.cacheWriteTokens)));
    if (r.engineType != u"replay"_s && !r.usage.isEmpty()) {
        const PriceTable prices = PriceTable::fromSettings();
        const std::optional<double> cost = prices.cost(r.model, r.usage);
        const std::optional<double> uncached = prices.uncachedCost(r.model, r.usage);
        auto money = [&locale](double usd) {
            return locale.toString(usd, 'f', usd < 0.01 ? 4 : 2);
        };
        if (!cost)
            parts.append(tr("no price for %1").arg(r.model));
        else if (uncached && (r.usage.cacheReadTokens > 0 || r.usage.cacheWriteTokens > 0))
            parts.append(
                tr("about $%1 ($%2 without the cache)").arg(money(*cost), money(*uncached)));
        else
            parts.append(tr("about $%1").arg(money(*cost)));
    }
    qint64 ms = r.metadata.value(u"duration_ms"_s).toInteger(-1);
    if (ms < 0 && r.createdAt.isValid() && r.finishedAt.isValid())
        ms = r.createdAt.msecsTo(r.finishedAt);
    if (ms >= 0)
        parts.append(formatDuration(ms));
    if (r.createdAt.isValid())
        parts.append(locale.toString(r.createdAt.toLocalTime(), QLocale::ShortFormat));
    parts.removeAll(QString());
    QString summary = parts.join(u" · "_s);
    if (!r.error.isEmpty())
        summary +=
            u'\n' + tr("Error (%1): %2").arg(errorCategoryDisplayName(r.errorCategory), r.error);
    m_summary->setText(summary);

    // The cache page: read with the call, as the exchanges are (its request and the one
    // compared with it).
    if (m_cache) {
        const QJsonObject costs = PriceTable::fromSettings().costJson(r);
        auto usd = [&costs](QLatin1StringView key) -> std::optional<double> {
            const QJsonValue v = costs.value(key);
            return v.isDouble() ? std::optional<double>(v.toDouble()) : std::nullopt;
        };
        m_cacheView->setReport(*m_cache, usd("cost_usd"_L1), usd("cost_uncached_usd"_L1));
    }

    // What the record itself says it is: a replay, a revision, edits made at a pause.
    const QList<Message> &messages = m_messages;
    int editedArguments = 0;
    int editedResults = 0;
    for (const Message &m : messages) {
        for (const ToolCall &c : m.toolCalls)
            editedArguments += argumentsEdited(c) ? 1 : 0;
        for (const ToolResult &t : m.toolResults)
            editedResults += resultEdited(t) ? 1 : 0;
    }
    QStringList marks;
    if (r.engineType == u"replay"_s)
        marks.append(tr("Replayed from a recording: nothing was sent to a model."));
    if (r.parent) {
        const bool rerun =
            r.metadata.contains(u"rerun_of"_s) || r.metadata.contains(u"replay_of"_s);
        marks.append(rerun ? tr("A replay of call %1.").arg(*r.parent)
                           : tr("A revision of call %1.").arg(*r.parent));
    }
    if (editedArguments > 0)
        marks.append(tr("%n tool argument(s) edited by you at a pause.", nullptr, editedArguments));
    if (editedResults > 0)
        marks.append(tr("%n tool result(s) edited by you at a pause.", nullptr, editedResults));
    m_marks->setText(marks.join(u"  "_s));
    m_marks->setVisible(!marks.isEmpty());

    m_transcript->setHtml(m_transcriptHtml);

    // Result and what failed validation on the way.
    const bool haveResult = !(r.response.isNull() || r.response.isUndefined());
    m_result->setJsonText(haveResult ? m_resultText : QString());
    QStringList failures;
    for (const TurnRecord &turn : r.turns) {
        if (turn.note.isEmpty())
            continue;
        QString line = tr("Turn %1: %2").arg(turn.index + 1).arg(noteText(turn.note));
        // The correction sent back follows the turn's reply.
        const qsizetype at = replyPosition(r, messages, turn.index);
        if (at >= 0 && at + 1 < messages.size()) {
            const Message &next = messages.at(at + 1);
            QStringList sent;
            for (const ToolResult &t : next.toolResults) {
                if (t.isError)
                    sent.append(t.content);
            }
            if (sent.isEmpty() && next.role == Role::User)
                sent.append(next.text);
            if (!sent.isEmpty())
                line += u'\n' + sent.join(u'\n');
        }
        failures.append(line);
    }
    if (haveResult && r.status == CallStatus::Completed)
        m_resultState->setText(failures.isEmpty()
                                   ? tr("The output passed validation.")
                                   : tr("The output passed validation after %n correction(s).",
                                        nullptr, int(failures.size())));
    else
        m_resultState->setText(
            tr("No validated output: %1.").arg(callOutcomeText(r.status, r.errorCategory)));
    m_validation->setPlainText(failures.isEmpty() ? tr("No validation errors.")
                                                  : failures.join(u"\n\n"_s));

    // Turns, and a last request that ended in an error (it has an exchange but no turn).
    {
        const QSignalBlocker block(m_turn);
        m_turn->clear();
        QList<int> indexes;
        for (const TurnRecord &turn : r.turns)
            indexes.append(turn.index);
        for (const TurnExchange &e : std::as_const(m_exchanges)) {
            if (!indexes.contains(e.turn))
                indexes.append(e.turn);
        }
        std::sort(indexes.begin(), indexes.end());
        for (int index : std::as_const(indexes)) {
            const bool failed =
                std::none_of(r.turns.cbegin(), r.turns.cend(),
                             [index](const TurnRecord &t) { return t.index == index; });
            m_turn->addItem(failed ? tr("%1 of %2 (failed)").arg(index + 1).arg(indexes.size())
                                   : tr("%1 of %2").arg(index + 1).arg(indexes.size()),
                            index);
        }
    }
    if (m_turn->count() == 0) {
        m_exchange->clear();
        m_exchangeNote->clear();
        m_turnFacts->setText(tr("This call made no model request."));
    } else {
        m_turn->setCurrentIndex(m_turn->count() - 1);
        showTurn(m_turn->currentData().toInt());
    }

    m_budget->setCall(r);

    // The tree is read on the reader's thread too; showTree() picks the call once it is in.
    m_treeShown = false;
    m_revisionModel->setCall(r.id);
    if (!m_revisionModel->isLoading())
        showTree();
    updateButtons();
}

void CallTab::showTree()
{
    m_revisionView->expandAll();
    if (m_treeShown || m_record.id <= 0)
        return;
    const QModelIndex index = m_revisionModel->indexOfCall(m_record.id);
    if (!index.isValid())
        return;
    m_treeShown = true;
    const QSignalBlocker block(m_revisionView->selectionModel());
    m_syncing = true;
    for (int c = 0; c < RevisionTreeModel::ColumnCount - 1; ++c)
        m_revisionView->resizeColumnToContents(c);
    m_revisionView->selectionModel()->setCurrentIndex(
        index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_syncing = false;
}

QJsonObject CallTab::turnRequest(const CallRecord &record, int turn)
{
    const QList<Message> messages = messagesFromJson(record.messages);
    qsizetype end = replyPosition(record, messages, turn);
    if (end < 0)
        end = messages.size();
    QJsonArray sent;
    for (qsizetype i = 0; i < end; ++i)
        sent.append(messageAsSent(messages.at(i)));
    QJsonObject request { { u"turn"_s, turn + 1 }, { u"model"_s, record.model } };
    if (!record.systemPrompt.isEmpty())
        request.insert(u"system"_s, record.systemPrompt);
    request.insert(u"messages"_s, sent);
    return request;
}

QJsonObject CallTab::turnResponse(const CallRecord &record, int turn)
{
    const auto it = std::find_if(record.turns.cbegin(), record.turns.cend(),
                                 [turn](const TurnRecord &t) { return t.index == turn; });
    if (it == record.turns.cend())
        return {};
    const QList<Message> messages = messagesFromJson(record.messages);
    QJsonObject response { { u"finish_reason"_s,
                             it->rawFinishReason.isEmpty() ? finishReasonName(it->finishReason)
                                                           : it->rawFinishReason },
                           { u"usage"_s, it->usage.toJson() } };
    if (const qsizetype at = replyPosition(record, messages, turn); at >= 0)
        response.insert(u"message"_s, messages.at(at).toJson());
    return response;
}

void CallTab::showTurn(int turn)
{
    const auto it = std::find_if(m_record.turns.cbegin(), m_record.turns.cend(),
                                 [turn](const TurnRecord &t) { return t.index == turn; });
    // The turn's last exchange: the request that got the reply (or the final error).
    const auto raw = std::find_if(m_exchanges.crbegin(), m_exchanges.crend(),
                                  [turn](const TurnExchange &e) { return e.turn == turn; });
    const bool haveRaw = raw != m_exchanges.crend();
    if (it == m_record.turns.cend() && !haveRaw) {
        m_exchange->clear();
        m_turnFacts->clear();
        m_exchangeNote->clear();
        return;
    }
    QStringList facts;
    if (haveRaw) {
        m_exchange->setExchange(raw->request, raw->requestBytes, raw->response, raw->responseBytes);
        if (raw->replayed) {
            m_exchangeNote->setText(
                tr("Replayed: nothing was sent to a model. The request is what the replay engine "
                   "was asked, the response the recorded reply it served."));
        } else {
            m_exchangeNote->setText(
                tr("The request body as it was sent (headers, and with them any key, are never "
                   "kept; attachments appear as a placeholder) and the response body as it was "
                   "received."));
            if (raw->httpStatus > 0)
                facts.append(tr("HTTP %1").arg(raw->httpStatus));
        }
    } else {
        const QByteArray response =
            QJsonDocument(turnResponse(m_record, turn)).toJson(QJsonDocument::Indented);
        m_exchange->setExchange(turnRequest(m_record, turn), response, response.size());
        const QString decoded = tr(
            "The request is the conversation that turn's request carried (the Context budget "
            "tab shows what of it was cut to fit), the response is the reply as it was decoded.");
        m_exchangeNote->setText(
            m_exchanges.isEmpty()
                ? tr("This call was stored before Callscope kept raw requests (or was imported, "
                     "which leaves them out).")
                    + u' ' + decoded
                : tr("No raw exchange was kept for this turn.") + u' ' + decoded);
    }
    if (it != m_record.turns.cend()) {
        facts.append(formatTokens(it->usage));
        if (it->toolCalls > 0)
            facts.append(tr("%n tool call(s)", nullptr, it->toolCalls));
        if (!it->note.isEmpty())
            facts.append(noteText(it->note));
    } else {
        facts.append(tr("no reply: the request ended in an error"));
    }
    facts.removeAll(QString());
    m_turnFacts->setText(facts.join(u" · "_s));
    const int index = m_turn->findData(turn);
    if (index >= 0 && index != m_turn->currentIndex()) {
        const QSignalBlocker block(m_turn);
        m_turn->setCurrentIndex(index);
    }
}

void CallTab::writeSelection()
{
    updateButtons();
    if (m_syncing || !m_current)
        return;
    QList<qint64> ids;
    for (const QModelIndex &index : m_revisionView->selectionModel()->selectedRows())
        ids.append(index.data(RevisionTreeModel::CallIdRole).toLongLong());
    const qint64 current = m_revisionView->selectionModel()
                               ->currentIndex()
                               .data(RevisionTreeModel::CallIdRole)
                               .toLongLong();
    m_current->setSelection(ids, current);
}

void CallTab::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    // The tab in front is the call at hand.
    if (m_current && m_id > 0 && m_current->id() != m_id)
        m_current->setCurrent(m_id);
}

void CallTab::updateButtons()
{
    const bool have = m_record.id > 0;
    m_replay->setEnabled(have);
    m_revise->setEnabled(have);
    m_export->setEnabled(have);
    m_compareParent->setEnabled(have && m_record.parent.has_value());
    m_compareSelected->setEnabled(m_revisionView->selectionModel()->selectedRows().size() == 2);
    // The link is read each time: a trace link saved in Settings applies to the tabs open.
    const QUrl trace = traceUrl();
    m_openTrace->setVisible(have && trace.isValid());
    if (trace.isValid())
        m_openTrace->setToolTip(
            tr("Open this call's trace in the viewer: %1").arg(trace.toString()));
}

QUrl CallTab::traceUrl() const
{
    if (m_record.id <= 0)
        return {};
    return traceUrlFromSettings(m_record);
}

QString CallTab::summaryText() const
{
    return m_summary->text() + (m_marks->text().isEmpty() ? QString() : u'\n' + m_marks->text());
}

QString CallTab::transcriptText() const
{
    return m_transcript->toPlainText();
}

QString CallTab::resultText() const
{
    return m_result->toPlainText();
}

QString CallTab::validationText() const
{
    return m_resultState->text() + u'\n' + m_validation->toPlainText();
}

QString CallTab::requestText() const
{
    return m_exchange->requestEditor()->toPlainText();
}

QString CallTab::responseText() const
{
    return m_exchange->responseEditor()->toPlainText();
}

QString CallTab::exchangeNote() const
{
    return m_exchangeNote->text();
}

QWidget *CallTab::transcriptPage() const
{
    return m_transcript;
}

} // namespace Callscope
