// The history side of the studio, with real widgets (offscreen), a real SQLite history, the
// scripted FakeProvider on 127.0.0.1 and the real Secret Service: history browser, revision tree,
// revise / replay, diff, context budget view, sessions, export/import through the dialogs and
// the engines page. Every item model runs under QAbstractItemModelTester. Screenshots go to
// <build>/screenshots/.

#include "core/context/contextbudget.h"
#include "core/eval/pricetable.h"
#include "core/model/specio.h"
#include "core/secrets/credentialstore.h"
#include "core/secrets/profilestore.h"
#include "core/service/calljob.h"
#include "core/service/callservice.h"
#include "core/store/cachereport.h"
#include "core/store/callstore.h"
#include "core/store/database.h"
#include "tests/support/fakepromptcache.h"
#include "tests/support/fakeprovider.h"
#include "tests/support/studiowait.h"
#include "tests/support/testsupport.h"
#include "ui/diff/diffmodel.h"
#include "ui/diff/diffview.h"
#include "ui/history/calltab.h"
#include "ui/history/enginechoicedialog.h"
#include "ui/history/historybrowser.h"
#include "ui/history/historymodel.h"
#include "ui/history/revisiontreemodel.h"
#include "ui/history/revisiontreewidget.h"
#include "ui/sessions/sessionlistmodel.h"
#include "ui/sessions/sessionview.h"
#include "ui/settings/enginespage.h"
#include "ui/settings/profilelistmodel.h"
#include "ui/transfer/transfercontroller.h"
#include "ui/widgets/budgetmodel.h"
#include "ui/widgets/budgetview.h"
#include "ui/widgets/cacheview.h"
#include "ui/widgets/calldiff.h"
#include "ui/widgets/callview.h"
#include "ui/widgets/noticebar.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDateEdit>
#include <QDir>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QNetworkAccessManager>
#include <QPlainTextEdit>
#include <QProcess>
#include <QProgressDialog>
#include <QPushButton>
#include <QScopeGuard>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>
#include <QTranslator>
#include <QTreeView>
#include <QTreeWidget>
#include <QUuid>

#include <cstdio>

#include "translations/translationloader.h"

using namespace Qt::StringLiterals;
using namespace Callscope;
using namespace Callscope::Test;

Q_DECLARE_METATYPE(Callscope::LaunchResult)

namespace {

constexpr auto kKey = "sk-window-env-key";

QByteArray compact(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

// OpenAI Chat Completions replies.
QByteArray openaiToolCall(const QString &id, const QString &name, const QJsonObject &args,
                          int in = 100, int out = 20)
{
    return compact(QJsonObject {
        { u"id"_s, u"chatcmpl-1"_s },
        { u"object"_s, u"chat.completion"_s },
        { u"created"_s, 1 },
        { u"model"_s, u"m"_s },
        { u"choices"_s,
          QJsonArray { QJsonObject {
              { u"index"_s, 0 },
              { u"message"_s,
                QJsonObject {
                    { u"role"_s, u"assistant"_s },
                    { u"content"_s, QJsonValue() },
                    { u"tool_calls"_s,
                      QJsonArray { QJsonObject {
                          { u"id"_s, id },
                          { u"type"_s, u"function"_s },
                          { u"function"_s,
                            QJsonObject {
                                { u"name"_s, name },
                                { u"arguments"_s, QString::fromUtf8(compact(args)) } } } } } } } },
              { u"finish_reason"_s, u"tool_calls"_s } } } },
        { u"usage"_s,
          QJsonObject { { u"prompt_tokens"_s, in },
                        { u"completion_tokens"_s, out },
                        { u"total_tokens"_s, in + out } } } });
}

QByteArray openaiText(const QString &text)
{
    return compact(QJsonObject {
        { u"id"_s, u"chatcmpl-2"_s },
        { u"object"_s, u"chat.completion"_s },
        { u"created"_s, 1 },
        { u"model"_s, u"m"_s },
        { u"choices"_s,
          QJsonArray { QJsonObject {
              { u"index"_s, 0 },
              { u"message"_s,
                QJsonObject { { u"role"_s, u"assistant"_s }, { u"content"_s, text } } },
              { u"finish_reason"_s, u"stop"_s } } } },
        { u"usage"_s,
          QJsonObject { { u"prompt_tokens"_s, 30 },
                        { u"completion_tokens"_s, 4 },
                        { u"total_tokens"_s, 34 } } } });
}

// Anthropic Messages reply with one tool_use block.
QByteArray anthropicToolCall(const QString &id, const QString &name, const QJsonObject &args)
{
    return compact(QJsonObject {
        { u"id"_s, u"msg_1"_s },
        { u"type"_s, u"message"_s },
        { u"role"_s, u"assistant"_s },
        { u"model"_s, u"claude-test"_s },
        { u"content"_s,
          QJsonArray { QJsonObject { { u"type"_s, u"tool_use"_s },
                                     { u"id"_s, id },
                                     { u"name"_s, name },
                                     { u"input"_s, args } } } },
        { u"stop_reason"_s, u"tool_use"_s },
        { u"usage"_s, QJsonObject { { u"input_tokens"_s, 80 }, { u"output_tokens"_s, 12 } } } });
}

void screenshot(QWidget &widget, const QString &name)
{
    // Layout requests are posted: let labels that changed text take their size first.
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
    widget.grab().save(buildPath(u"screenshots/"_s + name + u".png"_s));
}

class Env
{
public:
    Env()
    {
        db = std::move(Database::open(dir.filePath(u"history.sqlite"_s)).value());
        store = std::make_unique<CallStore>(*db);
        service = std::make_unique<CallService>(&nam, store.get(), nullptr, nullptr);
        service->setInactivityTimeoutMs(5000);
        qputenv("CALLSCOPE_STUDIO2_API_KEY", kKey);
    }

    QJsonObject specJson(QJsonObject extra = {})
    {
        QJsonObject engine { { u"type"_s, u"openai"_s },
                             { u"model"_s, u"gpt-test"_s },
                             { u"base_url"_s, server.baseUrl().toString() },
                             { u"api_key_env"_s, u"CALLSCOPE_STUDIO2_API_KEY"_s },
                             { u"stream"_s, false },
                             { u"max_tokens"_s, 256 } };
        const QJsonObject engineExtra = extra.take(u"engine"_s).toObject();
        for (auto it = engineExtra.begin(); it != engineExtra.end(); ++it)
            engine.insert(it.key(), it.value());
        QJsonObject object = readJson(testDataPath(u"window/planner.spec.json"_s)).toObject();
        object.insert(u"engine"_s, engine);
        for (auto it = extra.begin(); it != extra.end(); ++it)
            object.insert(it.key(), it.value());
        return object;
    }

    Spec spec(const QJsonObject &extra = {})
    {
        const SpecLoadResult loaded = specFromJson(specJson(extra));
        if (!loaded.spec)
            qFatal("bad test spec: %s",
                   qPrintable(loaded.errors.value(0).pointer + u" "_s
                              + loaded.errors.value(0).message));
        return *loaded.spec;
    }

    LaunchResult launch(const Spec &spec, const QString &input = u"Plan ticket 7"_s)
    {
        QSignalSpy finished(service.get(), &CallService::jobFinished);
        LaunchRequest request;
        request.spec = spec;
        request.input.text = input;
        service->launch(request);
        if (!finished.wait(20000))
            return {};
        return finished.at(0).at(1).value<LaunchResult>();
    }

    // A completed planner call: get_ticket, then submit_output {"title": title}.
    qint64 plannerCall(const QString &title = u"Fix login"_s)
    {
        server.enqueue(
            FakeReply::json(200, openaiToolCall(u"call_1"_s, u"get_ticket"_s, { { u"id"_s, 7 } })));
        server.enqueue(FakeReply::json(
            200,
            openaiToolCall(u"call_2"_s, u"submit_output"_s, { { u"title"_s, title } }, 150, 30)));
        const LaunchResult result = launch(spec());
        return result.stored && result.record.status == CallStatus::Completed ? result.record.id
                                                                              : 0;
    }

    QTemporaryDir dir;
    FakeProvider server;
    QNetworkAccessManager nam;
    std::unique_ptr<Database> db;
    std::unique_ptr<CallStore> store;
    std::unique_ptr<CallService> service;
};

CallRecord bulkCall(int i, qint64 createdMs)
{
    static const QStringList kinds { u"planner"_s, u"extractor"_s, u"chat"_s };
    CallRecord r;
    r.kind = kinds.at(i % 3);
    r.status = i % 10 == 0 ? CallStatus::Failed : CallStatus::Completed;
    r.engineType = i % 2 ? u"anthropic"_s : u"openai"_s;
    r.model = i % 2 ? u"claude-test"_s : u"gpt-test"_s;
    QString text = u"Bulk input number %1 about tickets"_s.arg(i);
    if (i % 50 == 0)
        text += u" quokkaword"_s;
    r.input = QJsonObject { { u"text"_s, text } };
    r.messages = messagesToJson({ Message::user(text), Message::assistant(u"answer %1"_s.arg(i)) });
    r.response = QJsonObject { { u"answer"_s, i } };
    r.usage = { 100 + i, 10, 0, 0 };
    r.createdAt = QDateTime::fromMSecsSinceEpoch(createdMs, Qt::UTC);
    r.finishedAt = r.createdAt.addMSecs(1500);
    return r;
}

} // namespace

class TestHistoryViews : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void jsonDifferencesPure();
    void diffAlignmentPure();
    void historyBrowserPagesFiltersAndSearch();
    void reviseTwiceShowsTree();
    void replayOnAnotherEngine();
    void diffParentAndRevisionMarksArgument();
    void budgetViewShowsStubbedResults();
    void cacheViewNamesWhereThePrefixDiffers();
    void budgetViewCacheTab();
    void sessionChatTurnThenStructuredCall();
    void sessionFailedTurnLeavesNothingAndReplayCannotChat();
    void exportImportTreeThroughDialogs();
    void importRefusesBadFiles();
    void engineProfileKeyLandsInKeychain();
    void engineTestUsesTheTypedKey();
    void keychainBannerWithoutSecretService();
};

void TestHistoryViews::initTestCase()
{
    qRegisterMetaType<LaunchResult>();
    QVERIFY2(QFile::exists(testDataPath(u"window/planner.spec.json"_s)),
             "tests/data/window/planner.spec.json is missing");
}

void TestHistoryViews::jsonDifferencesPure()
{
    const QJsonObject a { { u"title"_s, u"Fix login"_s },
                          { u"steps"_s, QJsonArray { 1, 2, 3 } },
                          { u"a/b"_s, 1 } };
    const QJsonObject b { { u"title"_s, u"Fix login quickly"_s },
                          { u"steps"_s, QJsonArray { 1, 5 } },
                          { u"a/b"_s, 1 },
                          { u"new"_s, true } };
    QCOMPARE(jsonDifferences(a, a), QStringList());
    QCOMPARE(jsonDifferences(a, b),
             (QStringList { u"/steps/1"_s, u"/steps/2"_s, u"/title"_s, u"/new"_s }));
    QCOMPARE(jsonDifferences(QJsonObject { { u"a/b"_s, 1 } }, QJsonObject { { u"a/b"_s, 2 } }),
             QStringList { u"/a~1b"_s });
    QCOMPARE(jsonDifferences(QJsonValue(1), QJsonValue(u"1"_s)), QStringList { QString() });
    const QString marked = markedJson(b, jsonDifferences(a, b));
    QVERIFY2(marked.contains(u"  ● \"title\": \"Fix login quickly\""_s), qPrintable(marked));
    QVERIFY2(marked.contains(u"    \"a/b\": 1"_s), qPrintable(marked));
}

void TestHistoryViews::diffAlignmentPure()
{
    // A parent and its revision: the revision repeats the parent's conversation, then the
    // correction and a new submit_output.
    const ToolCall ticket { u"c1"_s, u"get_ticket"_s, { { u"id"_s, 7 } }, {}, {}, {} };
    const ToolCall submitA {
        u"c2"_s, u"submit_output"_s, { { u"title"_s, u"Fix login"_s } }, {}, {}, {}
    };
    const ToolCall submitB {
        u"c3"_s, u"submit_output"_s, { { u"title"_s, u"Fix login quickly"_s } }, {}, {}, {}
    };
    const Message accepted = Message::toolResultsMessage(
        { ToolResult { u"c2"_s, u"submit_output"_s, u"Output accepted."_s, false, {} } });
    const QList<Message> parentMessages {
        Message::user(u"Plan ticket 7"_s), Message::assistant({}, { ticket }),
        Message::toolResultsMessage(
            { ToolResult { u"c1"_s, u"get_ticket"_s, u"Ticket 7"_s, false, {} } }),
        Message::assistant({}, { submitA }), accepted
    };
    QList<Message> revisionMessages = parentMessages;
    revisionMessages << Message::user(u"Make it urgent."_s) << Message::assistant({}, { submitB })
                     << Message::toolResultsMessage({ ToolResult {
                            u"c3"_s, u"submit_output"_s, u"Output accepted."_s, false, {} } });
    CallRecord parent, revision;
    parent.id = 1;
    revision.id = 2;
    revision.parent = 1;
    parent.messages = messagesToJson(parentMessages);
    revision.messages = messagesToJson(revisionMessages);
    parent.turns.resize(2);
    parent.turns[0].usage.inputTokens = 100;
    parent.turns[1].usage.inputTokens = 150;
    revision.turns.resize(1); // its own turn; the first two are its parent's
    revision.turns[0].usage.inputTokens = 220;
    parent.response = QJsonObject { { u"title"_s, u"Fix login"_s } };
    revision.response = QJsonObject { { u"title"_s, u"Fix login quickly"_s } };
    // As the store keeps them: a revision's own input is its correction.
    parent.input = QJsonObject { { u"text"_s, u"Plan ticket 7"_s } };
    revision.input = QJsonObject { { u"text"_s, u"Make it urgent."_s } };
    revision.metadata.insert(u"revision_of"_s, 1);
    const CallDiff diff = diffCalls(parent, revision);

    // The Input row compares what both calls were asked; the correction is a message below.
    const auto input = std::find_if(diff.rows.begin(), diff.rows.end(), [](const DiffRow &r) {
        return r.section == DiffSection::Input && r.label == u"Input"_s;
    });
    QVERIFY(input != diff.rows.end());
    QCOMPARE(input->right, u"Plan ticket 7"_s);
    QCOMPARE(diffStateName(input->state), u"same"_s);

    QList<DiffRow> messages, calls, tokens;
    for (const DiffRow &r : diff.rows) {
        if (r.section == DiffSection::Message || r.section == DiffSection::Correction)
            messages << r;
        if (r.section == DiffSection::ToolCall)
            calls << r;
        if (r.section == DiffSection::Tokens)
            tokens << r;
    }
    // The revision's copy of the parent's conversation pairs with the parent's, in order, even
    // though the parent's last message ("Output accepted.") also equals the revision's last.
    QStringList labels;
    for (const DiffRow &r : messages)
        labels << r.label + u" "_s + diffStateName(r.state);
    QCOMPARE(labels,
             (QStringList { u"Turn 1 · user same"_s, u"Turn 1 · assistant same"_s,
                            u"Turn 1 · tool same"_s, u"Turn 2 · assistant same"_s,
                            u"Turn 2 · tool same"_s, u"Turn 3 · user added"_s,
                            u"Turn 3 · assistant added"_s, u"Turn 3 · tool added"_s }));
    QCOMPARE(messages.at(5).section, DiffSection::Correction);
    // Tool calls: the repeated ones are the same, the new submit_output is the revision's own.
    QCOMPARE(calls.size(), 3);
    QCOMPARE(diffStateName(calls.at(0).state), u"same"_s);
    QCOMPARE(diffStateName(calls.at(1).state), u"same"_s);
    QCOMPARE(calls.at(1).label, u"submit_output (turn 2)"_s);
    QCOMPARE(diffStateName(calls.at(2).state), u"added"_s);
    QCOMPARE(calls.at(2).label, u"submit_output (turn 3)"_s);
    // Tokens by turn of the conversation: the revision paid only for turn 3.
    QCOMPARE(tokens.at(0).label, u"Turn 1 tokens"_s);
    QCOMPARE(diffStateName(tokens.at(0).state), u"same"_s);
    QCOMPARE(tokens.at(0).right, u"repeated from call 1, not sent again"_s);
    QCOMPARE(tokens.at(2).label, u"Turn 3 tokens"_s);
    QCOMPARE(diffStateName(tokens.at(2).state), u"added"_s);
    QVERIFY2(tokens.at(2).right.startsWith(u"220 in"_s), qPrintable(tokens.at(2).right));
    const DiffRow &result = diff.rows.constLast();
    QCOMPARE(result.section, DiffSection::Result);
    QCOMPARE(result.changedPointers, QStringList { u"/title"_s });

    // Two separate calls of the same spec: calls of one name pair up, their arguments compared.
    CallRecord other = parent;
    other.id = 3;
    other.parent.reset();
    QList<Message> otherMessages = parentMessages;
    otherMessages[3] = Message::assistant({}, { submitB });
    other.messages = messagesToJson(otherMessages);
    const CallDiff apart = diffCalls(parent, other);
    QList<DiffRow> apartCalls;
    for (const DiffRow &r : apart.rows) {
        if (r.section == DiffSection::ToolCall)
            apartCalls << r;
    }
    QCOMPARE(apartCalls.size(), 2);
    QCOMPARE(diffStateName(apartCalls.at(1).state), u"changed"_s);
    QCOMPARE(apartCalls.at(1).changedPointers, QStringList { u"/title"_s });
}

void TestHistoryViews::historyBrowserPagesFiltersAndSearch()
{
    Env env;
    QList<CallRecord> records;
    const qint64 base = QDateTime::currentMSecsSinceEpoch() - 450 * 60000;
    for (int i = 0; i < 450; ++i)
        records.append(bulkCall(i, base + i * 60000));
    QVERIFY(env.store->insertCalls(records));

    HistoryBrowser browser(env.store.get());
    QAbstractItemModelTester tester(browser.model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    browser.resize(1200, 760);
    browser.show();
    QVERIFY(QTest::qWaitForWindowExposed(&browser));

    HistoryModel *model = browser.model();
    // Paged: one page at a time, more as the view scrolls.
    QCOMPARE(model->pageSize(), 200);
    QTRY_VERIFY(model->rowCount() >= 200);
    while (model->canFetchMore({}))
        model->fetchMore({});
    QCOMPARE(model->rowCount(), 450);
    // Newest first.
    QCOMPARE(model->rowAt(0).inputPreview, u"Bulk input number 449 about tickets"_s);
    QCOMPARE(model->index(0, HistoryModel::KindColumn).data().toString(), u"chat"_s);
    QCOMPARE(model->index(0, HistoryModel::EngineColumn).data().toString(), u"anthropic"_s);
    QCOMPARE(model->index(0, HistoryModel::StatusColumn).data().toString(), u"Completed"_s);
    QCOMPARE(model->index(0, HistoryModel::DurationColumn).data().toString(), u"1.5 s"_s);

    // Filters.
    browser.statusCombo()->setCurrentIndex(browser.statusCombo()->findData(u"failed"_s));
    QCOMPARE(model->rowCount(), 45);
    browser.engineCombo()->setCurrentIndex(browser.engineCombo()->findData(u"openai"_s));
    QCOMPARE(model->rowCount(), 45);
    browser.statusCombo()->setCurrentIndex(0);
    while (model->canFetchMore({}))
        model->fetchMore({});
    QCOMPARE(model->rowCount(), 225);
    browser.engineCombo()->setCurrentIndex(0);
    browser.kindEdit()->setText(u"extractor"_s);
    QTRY_COMPARE(model->query().kind, u"extractor"_s);
    QCOMPARE(model->rowCount(), 150);
    browser.kindEdit()->clear();
    QTRY_VERIFY(model->query().kind.isEmpty());
    // A date range: all of it, then a day with no calls.
    browser.fromEdit()->setDate(QDateTime::fromMSecsSinceEpoch(base).toLocalTime().date());
    browser.toEdit()->setDate(QDate::currentDate());
    browser.dateCheck()->setChecked(true);
    while (model->canFetchMore({}))
        model->fetchMore({});
    QCOMPARE(model->rowCount(), 450);
    browser.fromEdit()->setDate(QDate::currentDate().addDays(-20));
    browser.toEdit()->setDate(QDate::currentDate().addDays(-19));
    QCOMPARE(model->rowCount(), 0);
    browser.dateCheck()->setChecked(false);

    // Full-text search, debounced: nothing happens while typing, then one query.
    QTest::keyClicks(browser.searchEdit(), u"quokkaword"_s);
    QCOMPARE(model->query().search, QString());
    QTRY_COMPARE(model->query().search, u"quokkaword"_s);
    QCOMPARE(model->rowCount(), 9);
    for (int r = 0; r < model->rowCount(); ++r)
        QVERIFY(model->rowAt(r).inputPreview.contains(u"quokkaword"_s));

    // Opening a call shows it read-only: transcript and raw JSON.
    const qint64 id = model->rowAt(0).id;
    browser.openCall(id);
    QCOMPARE(browser.callView()->call().id, id);
    const QString number = model->rowAt(0).inputPreview.section(u' ', 3, 3);
    QVERIFY2(browser.callView()->transcriptText().contains(u"answer "_s + number),
             qPrintable(browser.callView()->transcriptText()));
    QVERIFY(browser.callView()->rawJsonText().contains(u"\"kind\": \""_s + model->rowAt(0).kind
                                                       + u'"'));
    QVERIFY(browser.callView()->rawJsonText().contains(u"\"id\": "_s + QString::number(id)));
    browser.searchEdit()->clear();
    QTRY_COMPARE(model->query().search, QString());
    browser.openCall(model->rowAt(3).id);
    screenshot(browser, u"history-browser"_s);
}

void TestHistoryViews::reviseTwiceShowsTree()
{
    Env env;
    QVERIFY(env.server.listen());
    const qint64 root = env.plannerCall();
    QVERIFY(root > 0);

    RevisionTreeWidget widget(env.store.get(), env.service.get(), nullptr);
    QAbstractItemModelTester tester(widget.model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    HistoryBrowser history(env.store.get());
    history.setCallService(env.service.get());
    history.openCall(root);
    QCOMPARE(history.model()->rowCount(), 1);
    widget.resize(1200, 600);
    widget.show();
    widget.setCall(root);
    QCOMPARE(widget.model()->callCount(), 1);
    QCOMPARE(widget.selectedCallId(), root);
    QVERIFY(widget.reviseButton()->isEnabled());

    // First revision, of the root.
    QSignalSpy finished(&widget, &RevisionTreeWidget::runFinished);
    env.server.enqueue(FakeReply::json(200,
                                       openaiToolCall(u"call_3"_s, u"submit_output"_s,
                                                      { { u"title"_s, u"Fix login quickly"_s } })));
    QVERIFY(widget.revise(u"Make the title urgent."_s));
    QVERIFY(!widget.reviseButton()->isEnabled()); // one run at a time
    QVERIFY(finished.wait(20000));
    const qint64 first = finished.at(0).at(0).toLongLong();
    QVERIFY2(first > 0, qPrintable(widget.statusText()));
    QCOMPARE(widget.model()->callCount(), 2);
    QCOMPARE(widget.selectedCallId(), first); // the new child is selected

    // Second revision, of the first one (selected now).
    env.server.enqueue(FakeReply::json(200,
                                       openaiToolCall(u"call_4"_s, u"submit_output"_s,
                                                      { { u"title"_s, u"URGENT: fix login"_s } })));
    QVERIFY(widget.revise(u"Start with URGENT."_s));
    QVERIFY(finished.wait(20000));
    const qint64 second = finished.at(1).at(0).toLongLong();
    QVERIFY(second > 0);

    RevisionTreeModel *model = widget.model();
    QCOMPARE(model->callCount(), 3);
    // The history browser followed the runs (refreshes are at most 150 ms apart) and kept
    // its selection.
    QTRY_COMPARE_WITH_TIMEOUT(history.model()->rowCount(), 3, 15000);
    QCOMPARE(history.model()->index(0, HistoryModel::RevisionsColumn).data().toInt(),
             0); // newest: the leaf
    QCOMPARE(history.model()->index(2, HistoryModel::RevisionsColumn).data().toInt(),
             1); // the root
    QCOMPARE(history.selectedCallId(), root);
    QCOMPARE(model->rootId(), root);
    QCOMPARE(model->rowCount(), 1);
    const QModelIndex rootIndex = model->indexOfCall(root);
    const QModelIndex firstIndex = model->indexOfCall(first);
    const QModelIndex secondIndex = model->indexOfCall(second);
    QCOMPARE(firstIndex.parent(), rootIndex);
    QCOMPARE(secondIndex.parent(), firstIndex);
    QCOMPARE(model->rowCount(rootIndex), 1);
    QCOMPARE(model->rowCount(firstIndex), 1);
    QCOMPARE(firstIndex.data(RevisionTreeModel::ParentIdRole).toLongLong(), root);
    QCOMPARE(secondIndex.data(RevisionTreeModel::ParentIdRole).toLongLong(), first);
    QCOMPARE(
        model->index(secondIndex.row(), RevisionTreeModel::RelationColumn, secondIndex.parent())
            .data()
            .toString(),
        u"revision"_s);
    QCOMPARE(model->index(0, RevisionTreeModel::RelationColumn).data().toString(), u"original"_s);
    QCOMPARE(env.store->getCall(second)->response.toObject().value(u"title"_s).toString(),
             u"URGENT: fix login"_s);
    // The correction reached the model after the parent's conversation.
    QVERIFY(env.server.requests().constLast().body.contains("Start with URGENT."));
    QVERIFY(widget.callView()->transcriptText().contains(u"Start with URGENT."_s));

    // Opening the tree from any call of it shows the same tree.
    RevisionTreeWidget other(env.store.get(), nullptr, nullptr);
    other.setCall(second);
    QCOMPARE(other.model()->rootId(), root);
    QCOMPARE(other.model()->callCount(), 3);
    QCOMPARE(other.selectedCallId(), second);
    QVERIFY(!other.reviseButton()->isEnabled()); // no service: read-only

    widget.selectCall(second);
    screenshot(widget, u"revision-tree"_s);
}

void TestHistoryViews::replayOnAnotherEngine()
{
    Env env;
    QVERIFY(env.server.listen());
    const qint64 root = env.plannerCall();
    QVERIFY(root > 0);
    RevisionTreeWidget widget(env.store.get(), env.service.get(), nullptr);
    QAbstractItemModelTester tester(widget.model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    widget.setCall(root);

    // The dialog proposes the call's own engine; pick Anthropic on the same fake server.
    EngineChoiceDialog dialog(nullptr, &widget);
    EngineSpec own = env.spec().engine;
    dialog.setEngine(own);
    QCOMPARE(dialog.typeCombo()->currentData().toString(), u"openai"_s);
    QCOMPARE(dialog.modelEdit()->text(), u"gpt-test"_s);
    dialog.typeCombo()->setCurrentIndex(dialog.typeCombo()->findData(u"anthropic"_s));
    dialog.modelEdit()->setText(u"claude-test"_s);
    // A choice that cannot run is said in the dialog, which stays open.
    dialog.modelEdit()->clear();
    dialog.show();
    dialog.accept();
    auto *notice = dialog.findChild<NoticeBar *>(u"engineChoiceNotice"_s);
    QVERIFY(notice);
    QTRY_VERIFY(notice->isVisible());
    QCOMPARE(notice->text(), dialog.problem());
    QVERIFY(dialog.isVisible());
    QCOMPARE(dialog.result(), int(QDialog::Rejected));
    dialog.modelEdit()->setText(u"claude-test"_s);
    QCOMPARE(dialog.problem(), QString());
    const EngineSpec chosen = dialog.engine();
    QCOMPARE(chosen.type, EngineType::Anthropic);
    QCOMPARE(chosen.baseUrl, env.server.baseUrl().toString());

    const qsizetype before = env.server.requestCount();
    env.server.enqueue(
        FakeReply::json(200, anthropicToolCall(u"toolu_1"_s, u"get_ticket"_s, { { u"id"_s, 8 } })));
    env.server.enqueue(
        FakeReply::json(200,
                        anthropicToolCall(u"toolu_2"_s, u"submit_output"_s,
                                          { { u"title"_s, u"Fix login (Claude)"_s } })));
    QSignalSpy finished(&widget, &RevisionTreeWidget::runFinished);
    QVERIFY(widget.replayOnEngine(chosen));
    QVERIFY(finished.wait(20000));
    const qint64 replay = finished.at(0).at(0).toLongLong();
    QVERIFY2(replay > 0, qPrintable(widget.statusText()));
    QCOMPARE(env.server.requests().at(before).path, "/v1/messages"_ba);
    QCOMPARE(env.server.requests().at(before).header("x-api-key"), QByteArray(kKey));

    const QModelIndex index = widget.model()->indexOfCall(replay);
    QVERIFY(index.isValid());
    QCOMPARE(index.parent(), widget.model()->indexOfCall(root));
    QCOMPARE(index.data(RevisionTreeModel::RelationRole).toInt(),
             int(RevisionTreeModel::Relation::Replay));
    QCOMPARE(widget.model()
                 ->index(index.row(), RevisionTreeModel::RelationColumn, index.parent())
                 .data()
                 .toString(),
             u"replay"_s);
    QCOMPARE(widget.model()
                 ->index(index.row(), RevisionTreeModel::EngineColumn, index.parent())
                 .data()
                 .toString(),
             u"anthropic · claude-test"_s);
    const CallRecord stored = env.store->getCall(replay).value();
    QCOMPARE(stored.engineType, u"anthropic"_s);
    QCOMPARE(stored.parent.value_or(0), root);
    QCOMPARE(stored.metadata.value(u"rerun_of"_s).toString(), QString::number(root));
    QCOMPARE(stored.input.value(u"text"_s).toString(), u"Plan ticket 7"_s);

    // Replay with the current spec: a spec open in the editor (its kind differs).
    QVERIFY(!widget.replaySpecButton()->isEnabled());
    Spec edited = env.spec({ { u"kind"_s, u"planner-v2"_s } });
    widget.setCurrentSpec(edited);
    widget.selectCall(root);
    QVERIFY(widget.replaySpecButton()->isEnabled());
    env.server.enqueue(FakeReply::json(
        200, openaiToolCall(u"c9"_s, u"submit_output"_s, { { u"title"_s, u"v2"_s } })));
    QVERIFY(widget.replayWithCurrentSpec());
    QVERIFY(finished.wait(20000));
    const qint64 v2 = finished.at(1).at(0).toLongLong();
    QCOMPARE(widget.model()->callCount(), 3);
    QCOMPARE(widget.model()->rowCount(widget.model()->indexOfCall(root)), 2);
    QCOMPARE(env.store->getCall(v2)->kind, u"planner-v2"_s);
}

void TestHistoryViews::diffParentAndRevisionMarksArgument()
{
    Env env;
    QVERIFY(env.server.listen());
    const qint64 root = env.plannerCall();
    QVERIFY(root > 0);
    QSignalSpy finished(env.service.get(), &CallService::jobFinished);
    env.server.enqueue(
        FakeReply::json(200,
                        openaiToolCall(u"call_3"_s, u"submit_output"_s,
                                       { { u"title"_s, u"Fix login quickly"_s } }, 220, 25)));
    env.service->revise(root, u"Make the title urgent."_s);
    QVERIFY(finished.wait(20000));
    const qint64 revision = finished.at(0).at(1).value<LaunchResult>().record.id;
    QVERIFY(revision > 0);

    DiffView view(env.store.get());
    QAbstractItemModelTester tester(view.model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    view.resize(1200, 800);
    view.show();
    QVERIFY(view.compareWithParent(revision)); // default pair: the revision and its parent
    const DiffModel *model = view.model();
    QCOMPARE(model->diff().leftId, root);
    QCOMPARE(model->diff().rightId, revision);
    QCOMPARE(model->headerData(DiffModel::LeftColumn, Qt::Horizontal).toString(),
             u"Call %1"_s.arg(root));

    // The revision's copy of its parent's conversation pairs with it; its own submit_output is
    // added after the correction, and the result shows the changed field.
    int addedCall = -1, correction = -1, result = -1, total = -1, firstUser = -1;
    for (int r = 0; r < model->rowCount(); ++r) {
        const auto section = DiffSection(model->index(r, 0).data(DiffModel::SectionRole).toInt());
        const auto state = DiffState(model->index(r, 0).data(DiffModel::StateRole).toInt());
        const QString what = model->index(r, DiffModel::WhatColumn).data().toString();
        if (section == DiffSection::ToolCall && what.startsWith(u"submit_output"_s)) {
            if (state == DiffState::Added)
                addedCall = r;
            else
                QCOMPARE(state, DiffState::Same);
        }
        if (section == DiffSection::Message && what == u"Turn 1 · user"_s)
            firstUser = r;
        if (section == DiffSection::Correction)
            correction = r;
        if (section == DiffSection::Result)
            result = r;
        if (section == DiffSection::Tokens && what == u"Total tokens"_s)
            total = r;
    }
    QVERIFY(firstUser >= 0);
    QCOMPARE(DiffState(model->index(firstUser, 0).data(DiffModel::StateRole).toInt()),
             DiffState::Same);
    QVERIFY(addedCall >= 0);
    QCOMPARE(model->index(addedCall, DiffModel::WhatColumn).data().toString(),
             u"submit_output (turn 3)"_s);
    QVERIFY(model->index(addedCall, DiffModel::RightColumn)
                .data()
                .toString()
                .contains(u"\"title\": \"Fix login quickly\""_s));
    QVERIFY(correction >= 0);
    QVERIFY(correction < addedCall);
    QCOMPARE(model->index(correction, DiffModel::RightColumn).data().toString(),
             u"Make the title urgent."_s);
    QCOMPARE(DiffState(model->index(correction, 0).data(DiffModel::StateRole).toInt()),
             DiffState::Added);
    QVERIFY(!model->index(correction, DiffModel::LeftColumn).data(Qt::BackgroundRole).isValid());
    QCOMPARE(model->index(result, 0).data(DiffModel::ChangedPointersRole).toStringList(),
             QStringList { u"/title"_s });
    QVERIFY(model->index(result, DiffModel::RightColumn)
                .data()
                .toString()
                .contains(u"● \"title\": \"Fix login quickly\""_s));
    QCOMPARE(model->index(total, DiffModel::LeftColumn).data().toString(), u"250 in / 50 out"_s);
    QCOMPARE(model->index(total, DiffModel::RightColumn).data().toString(), u"220 in / 25 out"_s);
    QVERIFY(view.statusText().contains(u"difference"_s));
    screenshot(view, u"diff"_s);
}

void TestHistoryViews::budgetViewShowsStubbedResults()
{
    Env env;
    QVERIFY(env.server.listen());
    // Two large results (the mock returns 1,200 characters) with a budget of 100 tokens
    // (400 characters) and only the newest one guaranteed: the older one is stubbed.
    QString longResult;
    for (int i = 0; i < 40; ++i)
        longResult += u"line %1 of the ticket history xx\n"_s.arg(i, 2, 10, QChar(u'0'));
    QCOMPARE(longResult.size(), 1320);
    QJsonObject tool = env.specJson().value(u"tools"_s).toArray().at(0).toObject();
    tool.insert(u"mock"_s, longResult);
    const Spec spec =
        env.spec({ { u"tools"_s, QJsonArray { tool } },
                   { u"engine"_s, QJsonObject { { u"tool_results_tokens"_s, 100 } } },
                   { u"context"_s, QJsonObject { { u"tool_results_in_context"_s, 1 } } } });
    env.server.enqueue(
        FakeReply::json(200, openaiToolCall(u"call_1"_s, u"get_ticket"_s, { { u"id"_s, 7 } })));
    env.server.enqueue(
        FakeReply::json(200, openaiToolCall(u"call_2"_s, u"get_ticket"_s, { { u"id"_s, 8 } })));
    env.server.enqueue(FakeReply::json(
        200, openaiToolCall(u"call_3"_s, u"submit_output"_s, { { u"title"_s, u"T"_s } })));
    const LaunchResult run = env.launch(spec);
    QCOMPARE(callStatusName(run.record.status), u"completed"_s);
    const CallRecord record = env.store->getCall(run.record.id).value();
    QCOMPARE(record.turns.size(), 3);

    BudgetView view;
    QAbstractItemModelTester tester(view.model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    view.resize(1200, 520);
    view.show();
    view.setCall(record);
    QCOMPARE(view.turnCombo()->count(), 3);
    QCOMPARE(view.turnCombo()->currentData().toInt(), 2); // the last request first

    const BudgetModel *model = view.model();
    QList<int> stubbed, kept;
    for (int r = 0; r < model->rowCount(); ++r) {
        if (!model->index(r, 0).data(BudgetModel::IsPartRole).toBool())
            continue;
        const auto status = BudgetStatus(model->index(r, 0).data(BudgetModel::StatusRole).toInt());
        const QString reason = model->index(r, 0).data(BudgetModel::ReasonNameRole).toString();
        if (status == BudgetStatus::Stubbed)
            stubbed << r;
        else if (reason == u"newest_n"_s)
            kept << r;
    }
    QCOMPARE(stubbed.size(), 1);
    QCOMPARE(kept.size(), 1);
    const int s = stubbed.first();
    QCOMPARE(model->index(s, 0).data(BudgetModel::ReasonNameRole).toString(), u"over_budget"_s);
    QCOMPARE(model->index(s, BudgetModel::StatusColumn).data().toString(), u"stubbed"_s);
    QCOMPARE(model->index(s, BudgetModel::ReasonColumn).data().toString(), u"over the budget"_s);
    QCOMPARE(model->index(s, BudgetModel::SentColumn).data().toString(),
             stubText(u"get_ticket"_s, longResult));
    QCOMPARE(
        model->index(s, BudgetModel::SentColumn).data().toString(),
        u"[get_ticket result, 40 lines, 1,320 chars; trimmed from context to save space. Note what you need; call the tool again only if you still need detail.]"_s);
    QCOMPARE(model->index(s, 0).data(BudgetModel::CharsBeforeRole).toLongLong(), 1320);
    QCOMPARE(model->index(s, 0).data(BudgetModel::CharsAfterRole).toLongLong(),
             stubText(u"get_ticket"_s, longResult).size());
    QCOMPARE(model->index(kept.first(), BudgetModel::ReasonColumn).data().toString(),
             u"one of the newest large results"_s);
    // The budget in plain words: where it came from, what it keeps; no setting names.
    QVERIFY2(
        view.summaryText().contains(
            u"older ones too while they fit in 100 tokens (about 400 characters), the limit set on the engine"_s),
        qPrintable(view.summaryText()));
    QVERIFY2(view.summaryText().contains(u"1 sent in full, 1 replaced by a short note"_s),
             qPrintable(view.summaryText()));
    QVERIFY2(!view.summaryText().contains(u"tool_results"_s), qPrintable(view.summaryText()));
    screenshot(view, u"budget-view-panel"_s);

    // The same view on the call's own tab, at 1280x800: the stubbed result there too.
    CallTab tab(env.store.get(), nullptr);
    tab.resize(1280, 800);
    tab.show();
    QVERIFY(tab.setCall(record.id));
    tab.tabs()->setCurrentWidget(tab.budget());
    QCOMPARE(tab.budget()->turnCombo()->count(), 3);
    QVERIFY2(tab.budget()->summaryText().contains(u"1 sent in full, 1 replaced by a short note"_s),
             qPrintable(tab.budget()->summaryText()));
    QCOMPARE(tab.turnCombo()->count(), 3);
    // Its first turn's request carried the input only; the last one the whole tool loop.
    tab.turnCombo()->setCurrentIndex(0);
    QVERIFY2(tab.requestText().contains(u"Plan ticket 7"_s), qPrintable(tab.requestText()));
    QVERIFY2(tab.responseText().contains(u"get_ticket"_s), qPrintable(tab.responseText()));
    screenshot(tab, u"budget-view"_s);

    // The second request had one large result, kept as the newest.
    view.turnCombo()->setCurrentIndex(1);
    int stubs = 0;
    for (int r = 0; r < model->rowCount(); ++r)
        stubs += BudgetStatus(model->index(r, 0).data(BudgetModel::StatusRole).toInt())
                == BudgetStatus::Stubbed
            ? 1
            : 0;
    QCOMPARE(stubs, 0);
}

// Two calls against a fake OpenAI that caches prompt prefixes as OpenAI documents: the
// customer's name opens the system prompt, so the second call misses. Its Cache page says
// which block differs from the first call and at which character; screenshot at 1280x800.
void TestHistoryViews::cacheViewNamesWhereThePrefixDiffers()
{
    Env env;
    QVERIFY(env.server.listen());
    auto cache = std::make_shared<FakePromptCache>(FakePromptCache::Provider::OpenAIChat);
    auto log = std::make_shared<FakeCacheLog>();
    env.server.setResponder(cachingResponder(
        cache,
        [](const QJsonObject &body) {
            const bool answered =
                QJsonDocument(body).toJson(QJsonDocument::Compact).contains("\"role\":\"tool\"");
            return answered
                ? std::pair { u"submit_output"_s, QJsonObject { { u"title"_s, u"Fix login"_s } } }
                : std::pair { u"get_ticket"_s, QJsonObject { { u"id"_s, 7 } } };
        },
        log));
    QString rules;
    for (int i = 0; i < 80; ++i)
        rules += u"Rule %1: answer with the ticket's title, short and exact. "_s.arg(i, 2, 10,
                                                                                     QChar(u'0'));
    qint64 ids[2] = { 0, 0 };
    const QStringList customers { u"Acme Rockets"_s, u"Acme Pianos"_s };
    for (int i = 0; i < 2; ++i) {
        const Spec spec = env.spec(QJsonObject {
            { u"system_prompt"_s, QString(u"Customer: %1. "_s.arg(customers.at(i)) + rules) },
            { u"engine"_s, QJsonObject { { u"model"_s, u"gpt-4.1"_s } } } });
        const LaunchResult result = env.launch(spec);
        QVERIFY2(result.stored && result.record.status == CallStatus::Completed,
                 qPrintable(result.record.error));
        ids[i] = result.record.id;
    }
    // The provider read the first call's second turn from the cache, and nothing of the
    // second call's first turn but what the two prompts share.
    QCOMPARE(log->snapshot().size(), 4);
    QVERIFY(log->snapshot().at(1).read >= 1024);
    QCOMPARE(log->snapshot().at(2).read, qint64(0));

    CallTab tab(env.store.get(), nullptr);
    tab.resize(1280, 800);
    tab.show();
    QVERIFY(tab.setCall(ids[1]));
    tab.tabs()->setCurrentWidget(tab.cacheView());
    CacheView *view = tab.cacheView();
    QCOMPARE(view->turnCombo()->count(), 2);
    QCOMPARE(view->turnCombo()->currentIndex(), 0);
    // "Customer: Acme " is common; "R" and "P" differ at character 15.
    QVERIFY2(view->reasonText().contains(
                 u"the system prompt differs from call %1 at character 15"_s.arg(ids[0])),
             qPrintable(view->reasonText()));
    QVERIFY2(view->summaryText().contains(u"read the cache in 1 of 2 turns"_s),
             qPrintable(view->summaryText()));
    QCOMPARE(view->blocks()->topLevelItemCount(), 3); // the tools, the system prompt, the input
    QVERIFY(view->blocks()->topLevelItem(1)->text(4).startsWith(u"differs at character 15"_s));
    QCOMPARE(view->blocks()->topLevelItem(0)->text(4), u"same"_s);
    QVERIFY2(tab.summaryText().contains(u"without the cache"_s), qPrintable(tab.summaryText()));
    screenshot(tab, u"cache-view"_s);

    // Its second turn read the cache: the prefix up to the first turn was the same.
    view->turnCombo()->setCurrentIndex(1);
    QVERIFY2(view->reasonText().contains(u"read from the cache"_s), qPrintable(view->reasonText()));
}

// The budget view's cache tab shows the call's prompt cache with the call tab's own CacheView:
// the blocks of an Anthropic request, its breakpoints after the tools and the system prompt,
// and why the first turn of the second call missed.
void TestHistoryViews::budgetViewCacheTab()
{
    Env env;
    QVERIFY(env.server.listen());
    auto cache = std::make_shared<FakePromptCache>(FakePromptCache::Provider::Anthropic);
    auto log = std::make_shared<FakeCacheLog>();
    env.server.setResponder(cachingResponder(
        cache,
        [](const QJsonObject &body) {
            const bool answered =
                QJsonDocument(body).toJson(QJsonDocument::Compact).contains("\"tool_result\"");
            return answered
                ? std::pair { u"submit_output"_s, QJsonObject { { u"title"_s, u"Fix login"_s } } }
                : std::pair { u"get_ticket"_s, QJsonObject { { u"id"_s, 7 } } };
        },
        log));
    QString rules;
    for (int i = 0; i < 80; ++i)
        rules += u"Rule %1: answer with the ticket's title, short and exact. "_s.arg(i, 2, 10,
                                                                                     QChar(u'0'));
    qint64 ids[2] = { 0, 0 };
    const QStringList customers { u"Acme Rockets"_s, u"Acme Pianos"_s };
    for (int i = 0; i < 2; ++i) {
        const Spec spec = env.spec(QJsonObject {
            { u"system_prompt"_s, QString(u"Customer: %1. "_s.arg(customers.at(i)) + rules) },
            { u"cache"_s,
              QJsonObject { { u"breakpoints"_s, QJsonArray { u"tools"_s, u"system"_s } } } },
            { u"engine"_s,
              QJsonObject { { u"type"_s, u"anthropic"_s },
                            { u"model"_s, u"claude-sonnet-4"_s } } } });
        const LaunchResult result = env.launch(spec);
        QVERIFY2(result.stored && result.record.status == CallStatus::Completed,
                 qPrintable(result.record.error));
        ids[i] = result.record.id;
    }
    QCOMPARE(log->snapshot().size(), 4);
    QVERIFY(log->snapshot().at(0).written5m > 0);
    QCOMPARE(log->snapshot().at(2).read, qint64(0));

    BudgetView budget;
    budget.resize(1280, 800);
    budget.show();
    const auto record = env.store->getCall(ids[1]);
    QVERIFY(record);
    budget.setCall(record.value());
    // Until its report comes, the tab says it is being read.
    QCOMPARE(budget.tabs()->count(), 2);
    QVERIFY(budget.tabs()->isTabVisible(1));
    const auto report = buildCacheReport(*env.store, ids[1]);
    QVERIFY(report);
    const QJsonObject costs = PriceTable::shipped().costJson(record.value());
    budget.setCacheReport(report.value(), costs.value(u"cost_usd"_s).toDouble(),
                          costs.value(u"cost_uncached_usd"_s).toDouble());
    budget.tabs()->setCurrentIndex(1);
    CacheView *view = budget.cacheView();
    QVERIFY(view->isVisible());
    QCOMPARE(view->turnCombo()->count(), 2);
    QCOMPARE(view->turnCombo()->currentIndex(), 0);
    QVERIFY2(view->reasonText().contains(
                 u"the system prompt differs from call %1 at character 15"_s.arg(ids[0])),
             qPrintable(view->reasonText()));
    // The tools, the system prompt, the input; a breakpoint after each of the first two.
    QCOMPARE(view->blocks()->topLevelItemCount(), 3);
    QCOMPARE(view->blocks()->topLevelItem(0)->text(3), u"breakpoint"_s);
    QCOMPARE(view->blocks()->topLevelItem(1)->text(3), u"breakpoint"_s);
    QCOMPARE(view->blocks()->topLevelItem(2)->text(3), QString());
    QCOMPARE(view->blocks()->topLevelItem(0)->text(4), u"same"_s);
    QVERIFY(view->blocks()->topLevelItem(1)->text(4).startsWith(u"differs at character 15"_s));
    QVERIFY2(view->summaryText().contains(u"without the cache"_s), qPrintable(view->summaryText()));
    screenshot(budget, u"budget-cache-tab"_s);

    // A report of another call than the one shown is not taken.
    const auto other = buildCacheReport(*env.store, ids[0]);
    QVERIFY(other);
    budget.setCacheReport(other.value(), std::nullopt, std::nullopt);
    QVERIFY(view->reasonText().contains(u"at character 15"_s));

    // The call tab has its own Cache page: its budget view shows no cache tab.
    CallTab tab(env.store.get(), nullptr);
    auto *inner = tab.findChild<BudgetView *>();
    QVERIFY(inner);
    QVERIFY(!inner->tabs()->isTabVisible(1));
}

void TestHistoryViews::sessionChatTurnThenStructuredCall()
{
    Env env;
    QVERIFY(env.server.listen());
    SessionView view(env.store.get(), env.service.get(), nullptr);
    QAbstractItemModelTester tester(view.sessionModel(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    view.resize(1100, 700);
    view.show();
    const qint64 session = sessionStored(&view, u"Planning"_s);
    QVERIFY(session > 0);
    QCOMPARE(view.currentSessionId(), session);
    QSignalSpy renamed(&view, &SessionView::sessionRenamed);
    view.renameCurrent(u"Ticket planning"_s);
    QVERIFY(renamed.wait(15000));
    QVERIFY(renamed.at(0).at(1).toBool());
    QCOMPARE(env.store->getSession(session)->title, u"Ticket planning"_s);
    QCOMPARE(view.sessionModel()->index(0).data().toString(), u"Ticket planning"_s);

    // No engine yet: the send says what to do.
    QVERIFY(!view.sendMessage(u"Hello"_s));
    QVERIFY(view.statusText().contains(u"engine"_s));
    view.setChatEngine(env.spec().engine);

    QSignalSpy turns(&view, &SessionView::turnFinished);
    env.server.enqueue(FakeReply::json(200, openaiText(u"Hello! Which ticket?"_s)));
    view.input()->setPlainText(u"Hi, help me plan."_s);
    QTest::mouseClick(view.sendButton(), Qt::LeftButton);
    QVERIFY(turns.wait(20000));
    QVERIFY(view.input()->toPlainText().isEmpty());
    const qint64 chatCall = turns.at(0).at(0).toLongLong();
    QVERIFY(chatCall > 0);
    QCOMPARE(env.store->getCall(chatCall)->kind, u"chat"_s);
    // An ordinary chat turn: no tools, no schema.
    QVERIFY(!env.server.requests().constLast().jsonObject().contains(u"tools"_s));

    // A structured call in the same session.
    const QString longTitle =
        u"Fix login: the session times out after five minutes on the web app and on the mobile app"_s;
    env.server.enqueue(FakeReply::json(
        200, openaiToolCall(u"c1"_s, u"submit_output"_s, { { u"title"_s, longTitle } })));
    view.setCurrentSpec(env.spec());
    view.input()->setPlainText(u"Plan ticket 7"_s);
    QTest::mouseClick(view.runSpecButton(), Qt::LeftButton);
    QVERIFY(turns.wait(20000));
    const qint64 structured = turns.at(1).at(0).toLongLong();
    QVERIFY(structured > 0);
    // The structured turn's request carried the earlier chat turn.
    QVERIFY(env.server.requests().constLast().body.contains("Hello! Which ticket?"));

    const QString chat = view.chatText();
    QVERIFY2(chat.contains(u"Hi, help me plan."_s) && chat.contains(u"Hello! Which ticket?"_s),
             qPrintable(chat));
    QVERIFY2(chat.contains(u"Structured call planner"_s), qPrintable(chat));
    QVERIFY(chat.contains(u"\"title\": \"%1\""_s.arg(longTitle)));
    QVERIFY(chat.contains(u"open call %1"_s.arg(structured)));
    QVERIFY(chat.indexOf(u"Hello! Which ticket?"_s) < chat.indexOf(u"Structured call"_s));
    QVERIFY(view.chat()->toHtml().contains(u"call:%1"_s.arg(structured)));
    // The link opens the call.
    QSignalSpy opened(&view, &SessionView::callOpened);
    Q_EMIT view.chat()->anchorClicked(QUrl(u"call:%1"_s.arg(structured)));
    QCOMPARE(opened.size(), 1);
    QCOMPARE(opened.at(0).at(0).toLongLong(), structured);
    QCOMPARE(env.store->sessionCalls(session)->size(), 2);
    screenshot(view, u"session"_s);
    // As narrow as the sidebar: the answer's JSON wraps instead of running off the right edge.
    view.resize(380, 700);
    QTRY_COMPARE(view.chat()->width() <= 380, true);
    QCoreApplication::processEvents();
    QCOMPARE(view.chat()->horizontalScrollBar()->maximum(), 0);
    QVERIFY(view.chat()->document()->size().width() <= view.chat()->viewport()->width() + 1);
    screenshot(view, u"session-narrow"_s);
    view.resize(1100, 700);

    // Compact now: the older messages fold into a summary made on the chat engine.
    QVERIFY(view.compactButton()->isEnabled());
    env.server.enqueue(
        FakeReply::json(200, openaiText(u"The user asked for help planning ticket 7."_s)));
    QSignalSpy compacted(&view, &SessionView::compacted);
    QTest::mouseClick(view.compactButton(), Qt::LeftButton);
    QVERIFY(compacted.wait(20000));
    const qint64 summaryCall = compacted.at(0).at(0).toLongLong();
    QVERIFY2(summaryCall > 0, qPrintable(view.statusText()));
    QCOMPARE(env.store->getCall(summaryCall)->kind, u"compaction"_s);
    QCOMPARE(env.store->getSession(session)->summary,
             u"The user asked for help planning ticket 7."_s);
    QVERIFY2(
        view.chatText().contains(
            u"Summary of the compacted messages: The user asked for help planning ticket 7."_s),
        qPrintable(view.chatText()));
    QVERIFY(view.chatText().contains(u"(compacted)"_s));
}

// A turn that fails leaves nothing in the session (its tool calls would go to the model on the
// next turn); a spec on the replay engine offers no chat turns and says why.
void TestHistoryViews::sessionFailedTurnLeavesNothingAndReplayCannotChat()
{
    Env env;
    QVERIFY(env.server.listen());
    SessionView view(env.store.get(), env.service.get(), nullptr);
    view.resize(1280, 800);
    view.show();
    const qint64 session = sessionStored(&view, u"Failing"_s);
    QVERIFY(session > 0);
    view.setChatEngine(env.spec().engine);
    QSignalSpy turns(&view, &SessionView::turnFinished);

    env.server.enqueue(FakeReply::json(200, openaiText(u"Hello! Which ticket?"_s)));
    view.input()->setPlainText(u"Hi."_s);
    QTest::mouseClick(view.sendButton(), Qt::LeftButton);
    QVERIFY(turns.wait(20000));
    const int before =
        int(env.store->sessionMessages(session, CallStore::MessageView::All)->size());
    QVERIFY(before >= 2);

    // A structured turn that calls get_ticket and then fails at the provider.
    env.server.enqueue(
        FakeReply::json(200, openaiToolCall(u"c1"_s, u"get_ticket"_s, { { u"id"_s, 7 } })));
    env.server.enqueue(
        FakeReply::json(400, QByteArray(R"({"error": {"message": "bad request"}})")));
    view.setCurrentSpec(
        env.spec(QJsonObject { { u"retry"_s, QJsonObject { { u"max_attempts"_s, 1 } } } }));
    view.input()->setPlainText(u"Plan the failing ticket"_s);
    QTest::mouseClick(view.runSpecButton(), Qt::LeftButton);
    QVERIFY(turns.wait(20000));
    const qint64 failed = turns.at(1).at(0).toLongLong();
    QVERIFY(failed > 0);
    QCOMPARE(env.store->getCall(failed)->status, CallStatus::Failed);
    // Nothing of it in the session: no user message, no tool call, no tool result.
    QCOMPARE(int(env.store->sessionMessages(session, CallStore::MessageView::All)->size()), before);
    screenshot(view, u"session-failed-turn"_s);

    // The next turn sends the session as it was before the failed one.
    env.server.enqueue(FakeReply::json(200, openaiText(u"Ticket 7 it is."_s)));
    view.input()->setPlainText(u"Ticket 7."_s);
    QTest::mouseClick(view.sendButton(), Qt::LeftButton);
    QVERIFY(turns.wait(20000));
    const QByteArray body = env.server.requests().constLast().body;
    QVERIFY2(body.contains("Hello! Which ticket?"), body.constData());
    QVERIFY2(!body.contains("get_ticket") && !body.contains("Plan the failing ticket"),
             body.constData());

    // A spec on the replay engine: Send is off and says to pick a live engine.
    SessionView replay(env.store.get(), env.service.get(), nullptr);
    replay.show();
    // No session chosen yet: the hint says where to start.
    auto *startHint = replay.findChild<QLabel *>(u"sessionChatHint"_s);
    QVERIFY(startHint);
    QVERIFY(startHint->isVisible());
    QVERIFY2(startHint->text().contains(u"New"_s), qPrintable(startHint->text()));
    QVERIFY(sessionStored(&replay, u"Replay"_s) > 0);
    Spec recorded = env.spec();
    recorded.engine.type = EngineType::Replay;
    recorded.engine.replay = testDataPath(u"window/planner.recording.json"_s);
    replay.setCurrentSpec(recorded);
    QVERIFY(!replay.sendButton()->isEnabled());
    QVERIFY2(replay.sendButton()->toolTip().contains(u"live engine"_s),
             qPrintable(replay.sendButton()->toolTip()));
    // Said in sight too, under the buttons, not only in a tooltip of a disabled button.
    auto *hint = replay.findChild<QLabel *>(u"sessionChatHint"_s);
    QVERIFY(hint);
    QVERIFY(hint->isVisible());
    QVERIFY2(hint->text().contains(u"live engine"_s), qPrintable(hint->text()));
    QVERIFY(replay.runSpecButton()->isEnabled());
    QVERIFY(!replay.sendMessage(u"hello"_s));
    QVERIFY2(replay.statusText().contains(u"live engine"_s), qPrintable(replay.statusText()));
    // A live engine again: Send is on and the hint goes.
    replay.setCurrentSpec(env.spec());
    QVERIFY(replay.sendButton()->isEnabled());
    QVERIFY(!hint->isVisible());
}

void TestHistoryViews::exportImportTreeThroughDialogs()
{
    // The English plural forms, as the programs install them ("2 calls", not "2 call(s)").
    installTranslators(qApp, QLocale(QLocale::English, QLocale::UnitedStates));
    const auto removeTranslators = qScopeGuard([] {
        const auto translators = qApp->findChildren<QTranslator *>();
        for (QTranslator *translator : translators) {
            QCoreApplication::removeTranslator(translator);
            delete translator;
        }
    });
    Env env;
    QVERIFY(env.server.listen());
    const qint64 root = env.plannerCall();
    QSignalSpy finished(env.service.get(), &CallService::jobFinished);
    env.server.enqueue(FakeReply::json(200,
                                       openaiToolCall(u"call_3"_s, u"submit_output"_s,
                                                      { { u"title"_s, u"Fix login quickly"_s } })));
    env.service->revise(root, u"Make the title urgent."_s);
    QVERIFY(finished.wait(20000));
    const qint64 revision = finished.at(0).at(1).value<LaunchResult>().record.id;
    QVERIFY(root > 0 && revision > 0);

    QWidget parent;
    TransferController transfer(env.db->path(), &parent, nullptr);
    QSignalSpy done(&transfer, &TransferController::finished);
    const QString path = env.dir.filePath(u"tree-export.json"_s);

    // Export: the save dialog, a file name typed, accepted.
    transfer.exportTree(revision);
    QFileDialog *save = transfer.fileDialog();
    QVERIFY(save);
    QCOMPARE(save->acceptMode(), QFileDialog::AcceptSave);
    // At first it offers the user's documents (or home), not the folder the program ran from.
    if (QSettings().value(u"transfer/lastDir"_s).toString().isEmpty()) {
        const QString documents =
            QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
        QCOMPARE(QDir(save->directory()).absolutePath(),
                 QDir(QFileInfo(documents).isDir() ? documents : QDir::homePath()).absolutePath());
    }
    save->selectFile(path);
    static_cast<QDialog *>(save)->accept(); // QFileDialog::accept, as the Save button does
    QVERIFY(done.wait(20000));
    TransferResult exported = done.at(0).at(0).value<TransferResult>();
    QVERIFY2(exported.ok, qPrintable(exported.message));
    QCOMPARE(exported.callIds, (QList<qint64> { root, revision }));
    const QJsonObject document = readJson(path).toObject();
    QCOMPARE(document.value(u"format"_s).toString(), u"callscope-export"_s);
    QCOMPARE(document.value(u"calls"_s).toArray().size(), 2);

    // Import of the same file into the same history: every call's UUID is already here, so
    // nothing is stored again and the message says so.
    transfer.importFile();
    QFileDialog *open = transfer.fileDialog();
    QVERIFY(open && open != save);
    QCOMPARE(open->acceptMode(), QFileDialog::AcceptOpen);
    // Then the folder of the last export.
    QCOMPARE(QDir(open->directory()).absolutePath(), QFileInfo(path).absolutePath());
    open->selectFile(path);
    static_cast<QDialog *>(open)->accept();
    QVERIFY(done.wait(20000));
    const TransferResult again = done.at(1).at(0).value<TransferResult>();
    QVERIFY2(again.ok, qPrintable(again.message));
    QCOMPARE(again.callIds, (QList<qint64> { root, revision }));
    QVERIFY2(again.message.startsWith(u"Nothing new in "_s), qPrintable(again.message));
    HistoryQuery all;
    all.limit = 10000;
    QCOMPARE(env.store->listCalls(all)->rows.size(), 2);

    // The same calls as another machine exported them (other UUIDs): a new tree.
    QJsonObject theirs = document;
    QJsonArray theirCalls = theirs.value(u"calls"_s).toArray();
    for (qsizetype i = 0; i < theirCalls.size(); ++i) {
        QJsonObject call = theirCalls.at(i).toObject();
        QVERIFY(!call.value(u"uuid"_s).toString().isEmpty());
        call.insert(u"uuid"_s, QUuid::createUuid().toString(QUuid::WithoutBraces));
        theirCalls.replace(i, call);
    }
    theirs.insert(u"calls"_s, theirCalls);
    const QString theirPath = env.dir.filePath(u"their-tree.json"_s);
    QFile theirFile(theirPath);
    QVERIFY(theirFile.open(QIODevice::WriteOnly));
    theirFile.write(QJsonDocument(theirs).toJson());
    theirFile.close();
    transfer.startImport(theirPath);
    QVERIFY(done.wait(20000));
    const TransferResult imported = done.at(2).at(0).value<TransferResult>();
    QVERIFY2(imported.ok, qPrintable(imported.message));
    QVERIFY2(imported.message.startsWith(u"Imported 2 calls and 0 sessions from their-tree.json"_s),
             qPrintable(imported.message));
    QCOMPARE(imported.callIds.size(), 2);
    QVERIFY(!imported.callIds.contains(root) && !imported.callIds.contains(revision));
    const CallRecord newRoot = env.store->getCall(imported.callIds.at(0)).value();
    const CallRecord newRevision = env.store->getCall(imported.callIds.at(1)).value();
    QCOMPARE(newRevision.parent.value_or(0), newRoot.id);
    QVERIFY(!newRoot.parent);
    QCOMPARE(newRevision.response, env.store->getCall(revision)->response);
    QCOMPARE(newRoot.messages, env.store->getCall(root)->messages);

    // The imported tree shows in the tree view like the original.
    RevisionTreeWidget tree(env.store.get(), nullptr, nullptr);
    tree.setCall(newRevision.id);
    QCOMPARE(tree.model()->callCount(), 2);
    QCOMPARE(tree.model()->rootId(), newRoot.id);

    // A long import shows progress and can be cancelled: nothing is written. (The export plus
    // 64 MB of trailing white space: reading and parsing take far longer than the cancel.)
    const QString big = env.dir.filePath(u"big.json"_s);
    QFile bigFile(big);
    QVERIFY(bigFile.open(QIODevice::WriteOnly));
    bigFile.write(readFile(path));
    bigFile.write(QByteArray(64 << 20, ' '));
    bigFile.close();
    const qsizetype callsBefore = env.store->listCalls(all)->rows.size();
    QCOMPARE(callsBefore, 4);
    transfer.startImport(big);
    QVERIFY(transfer.isBusy());
    QVERIFY(transfer.progressDialog());
    Q_EMIT transfer.progressDialog()->canceled(); // the Cancel button
    QVERIFY(done.wait(30000));
    const TransferResult cancelledImport = done.at(3).at(0).value<TransferResult>();
    QVERIFY(cancelledImport.cancelled);
    QVERIFY(!cancelledImport.ok);
    QCOMPARE(cancelledImport.message, u"Cancelled; nothing was written."_s);
    QCOMPARE(env.store->listCalls(all)->rows.size(), callsBefore);
    QVERIFY(!transfer.isBusy());
}

void TestHistoryViews::importRefusesBadFiles()
{
    Env env;
    QWidget parent;
    TransferController transfer(env.db->path(), &parent, nullptr);
    QSignalSpy done(&transfer, &TransferController::finished);

    const QString notJson = env.dir.filePath(u"broken.json"_s);
    QFile f(notJson);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"format\": \"callscope-export\", \"version\": 1, ");
    f.close();
    transfer.startImport(notJson);
    QVERIFY(done.wait(20000));
    TransferResult result = done.at(0).at(0).value<TransferResult>();
    QVERIFY(!result.ok);
    QVERIFY2(result.message.startsWith(u"broken.json is not valid JSON"_s),
             qPrintable(result.message));

    const QString wrong = env.dir.filePath(u"wrong.json"_s);
    QFile g(wrong);
    QVERIFY(g.open(QIODevice::WriteOnly));
    g.write("{\"format\": \"callscope-export\", \"version\": 1, \"exported_at\": "
            "\"2026-01-01T00:00:00Z\", \"calls\": [{\"id\": \"seven\"}], \"sessions\": []}");
    g.close();
    transfer.startImport(wrong);
    QVERIFY(done.wait(20000));
    result = done.at(1).at(0).value<TransferResult>();
    QVERIFY(!result.ok);
    QVERIFY2(result.message.startsWith(u"wrong.json is not a Callscope export: "_s),
             qPrintable(result.message));
    QVERIFY2(result.message.contains(u"/calls/0"_s), qPrintable(result.message));
    HistoryQuery all;
    QCOMPARE(env.store->listCalls(all)->rows.size(), 0); // nothing written
}

void TestHistoryViews::engineProfileKeyLandsInKeychain()
{
    QVERIFY2(!qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS"),
             "needs a D-Bus session with an unlocked gnome-keyring (run the suite through "
             "tools/dev.sh test)");
    Env env;
    QVERIFY(env.server.listen());
    const QString service = u"callscope-tst-window-%1"_s.arg(QCoreApplication::applicationPid());
    CredentialStore credentials(service, nullptr);
    ProfileStore profiles(env.dir.filePath(u"profiles.ini"_s), &credentials, nullptr);
    EnginesPage page(&profiles, &credentials, &env.nam);
    QAbstractItemModelTester tester(page.model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    page.resize(800, 420);
    page.show();
    QTRY_VERIFY(credentials.pendingCount() == 0);
    QVERIFY2(page.banner()->isHidden(),
             qPrintable(u"the Secret Service is not usable: "_s + page.banner()->text()));

    // A new profile with a key typed into the password field.
    QCOMPARE(page.keyEdit()->echoMode(), QLineEdit::Password);
    page.nameEdit()->setText(u"fake-openai"_s);
    page.typeCombo()->setCurrentIndex(page.typeCombo()->findData(u"openai"_s));
    page.modelEdit()->setText(u"gpt-test"_s);
    page.baseUrlEdit()->setText(env.server.baseUrl().toString());
    page.contextWindowEdit()->setText(u"64000"_s);
    page.timeoutEdit()->setText(u"120000"_s);
    page.idleTimeoutEdit()->setText(u"30000"_s);
    const QString key = u"sk-window-keychain-0001"_s;
    QTest::keyClicks(page.keyEdit(), key);
    QSignalSpy saved(&page, &EnginesPage::saved);
    QTest::mouseClick(page.saveButton(), Qt::LeftButton);
    QVERIFY2(saved.wait(20000), qPrintable(page.statusText()));
    QCOMPARE(saved.at(0).at(0).toString(), u"fake-openai"_s);
    // The field is cleared and the key never shown back.
    QVERIFY(page.keyEdit()->text().isEmpty());
    QVERIFY2(page.keyStateLabel()->text().startsWith(u"A key is stored"_s),
             qPrintable(page.keyStateLabel()->text()));
    QCOMPARE(page.model()->rowCount(), 1);
    QCOMPARE(profiles.get(u"fake-openai"_s)->contextWindow.value_or(0), 64000);
    QCOMPARE(profiles.get(u"fake-openai"_s)->timeoutMs.value_or(0), 120000);
    QCOMPARE(profiles.get(u"fake-openai"_s)->idleTimeoutMs.value_or(0), 30000);
    QVERIFY(!readFile(profiles.settingsFileName()).contains(key.toUtf8()));

    // The key is in the keychain (read back through a separate store).
    CredentialStore reader(service, nullptr);
    std::optional<KeychainResult> read;
    reader.readKey(u"fake-openai"_s, &reader, [&read](const KeychainResult &r) { read = r; });
    QTRY_VERIFY_WITH_TIMEOUT(read.has_value(), 10000);
    QCOMPARE(int(read->status), int(KeychainStatus::Ok));
    QCOMPARE(read->key.value_or(QString()), key);

    // Test sends a minimal request with that key.
    env.server.enqueue(FakeReply::json(200, openaiText(u"ok"_s)));
    QSignalSpy tested(&page, &EnginesPage::tested);
    QTest::mouseClick(page.testButton(), Qt::LeftButton);
    QVERIFY(tested.wait(20000));
    QCOMPARE(tested.at(0).at(0).toBool(), true);
    QCOMPARE(env.server.requests().constLast().header("authorization"),
             "Bearer "_ba + key.toUtf8());
    QVERIFY2(page.statusText().contains(u"answered “ok”"_s), qPrintable(page.statusText()));
    QVERIFY(page.statusText().contains(u"keychain"_s));

    // A failing test shows the classified error.
    env.server.enqueue(FakeReply::json(
        401,
        R"({"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}})"));
    QTest::mouseClick(page.testButton(), Qt::LeftButton);
    QVERIFY(tested.wait(20000));
    QCOMPARE(tested.at(1).at(0).toBool(), false);
    QVERIFY2(page.statusText().startsWith(u"The test failed: auth (HTTP 401)"_s),
             qPrintable(page.statusText()));
    QVERIFY(page.statusText().contains(u"Incorrect API key provided"_s));

    screenshot(page, u"engines-page"_s);

    // Remove deletes the profile and its key.
    QSignalSpy removed(&page, &EnginesPage::removed);
    QTest::mouseClick(page.removeButton(), Qt::LeftButton);
    QVERIFY(removed.wait(20000));
    QVERIFY(!profiles.contains(u"fake-openai"_s));
    read.reset();
    reader.readKey(u"fake-openai"_s, &reader, [&read](const KeychainResult &r) { read = r; });
    QTRY_VERIFY_WITH_TIMEOUT(read.has_value(), 10000);
    QCOMPARE(int(read->status), int(KeychainStatus::NotFound));
}

// Test before Save: the key typed in the field is the one sent (the dialog tests what it shows),
// and nothing is stored by testing.
void TestHistoryViews::engineTestUsesTheTypedKey()
{
    QVERIFY2(!qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS"),
             "needs a D-Bus session with an unlocked gnome-keyring (run the suite through "
             "tools/dev.sh test)");
    Env env;
    QVERIFY(env.server.listen());
    const QString service =
        u"callscope-tst-window-typed-%1"_s.arg(QCoreApplication::applicationPid());
    CredentialStore credentials(service, nullptr);
    ProfileStore profiles(env.dir.filePath(u"profiles.ini"_s), &credentials, nullptr);
    EnginesPage page(&profiles, &credentials, &env.nam);
    page.resize(800, 420);
    page.show();
    QTRY_VERIFY(credentials.pendingCount() == 0);

    page.nameEdit()->setText(u"unsaved-openai"_s);
    page.typeCombo()->setCurrentIndex(page.typeCombo()->findData(u"openai"_s));
    page.modelEdit()->setText(u"gpt-test"_s);
    page.baseUrlEdit()->setText(env.server.baseUrl().toString());
    const QString key = u"sk-typed-not-saved-0042"_s;
    QTest::keyClicks(page.keyEdit(), key);
    env.server.enqueue(FakeReply::json(200, openaiText(u"ok"_s)));
    QSignalSpy tested(&page, &EnginesPage::tested);
    QTest::mouseClick(page.testButton(), Qt::LeftButton);
    QVERIFY(tested.wait(20000));
    QVERIFY2(tested.at(0).at(0).toBool(), qPrintable(page.statusText()));
    QCOMPARE(env.server.requestCount(), 1);
    QCOMPARE(env.server.requests().constLast().header("authorization"),
             "Bearer "_ba + key.toUtf8());
    QVERIFY2(page.statusText().contains(u"key from: the key field, not saved yet"_s),
             qPrintable(page.statusText()));
    // Testing saved nothing: no profile, no key in the keychain, the field still holds the key.
    QVERIFY(!profiles.contains(u"unsaved-openai"_s));
    QCOMPARE(page.keyEdit()->text(), key);
    std::optional<KeychainResult> read;
    credentials.readKey(u"unsaved-openai"_s, &credentials,
                        [&read](const KeychainResult &r) { read = r; });
    QTRY_VERIFY_WITH_TIMEOUT(read.has_value(), 10000);
    QCOMPARE(int(read->status), int(KeychainStatus::NotFound));
}

void TestHistoryViews::keychainBannerWithoutSecretService()
{
    // A child process whose session bus does not exist: the page must say so before a key is
    // typed, and refuse to save a profile whose key cannot be stored.
    QTemporaryDir dir;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"DBUS_SESSION_BUS_ADDRESS"_s,
               u"unix:path="_s + dir.filePath(u"no-such-bus-socket"_s));
    env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
    env.insert(u"CALLSCOPE_STUDIO2_HELPER_DIR"_s, dir.path());
    QProcess helper;
    helper.setProcessEnvironment(env);
    helper.start(QCoreApplication::applicationFilePath(), { u"--banner-helper"_s });
    QVERIFY(helper.waitForFinished(60000));
    QCOMPARE(helper.exitCode(), 0);
    const QJsonObject out = QJsonDocument::fromJson(helper.readAllStandardOutput()).object();
    const QString banner = out.value(u"banner"_s).toString();
    QVERIFY2(out.value(u"visible"_s).toBool(), qPrintable(banner));
    QVERIFY2(
        banner.startsWith(
            u"The keychain cannot be used, so keys cannot be stored: No keychain service is running"_s),
        qPrintable(banner));
    QVERIFY(banner.contains(u"Start gnome-keyring or KWallet"_s));
    const QString status = out.value(u"status"_s).toString();
    QVERIFY2(status.startsWith(u"The key could not be stored, so nobus was not saved"_s),
             qPrintable(status));
    QCOMPARE(out.value(u"profiles"_s).toInt(), 0);
}

namespace {

// The child process of keychainBannerWithoutSecretService: prints what the page showed.
int runBannerHelper(int argc, char **argv)
{
    QApplication app(argc, argv);
    const QString dir = qEnvironmentVariable("CALLSCOPE_STUDIO2_HELPER_DIR");
    CredentialStore credentials(u"callscope-tst-window-helper"_s, nullptr);
    ProfileStore profiles(dir + u"/profiles.ini"_s, &credentials, nullptr);
    QNetworkAccessManager nam;
    EnginesPage page(&profiles, &credentials, &nam);
    page.show();
    QObject::connect(&credentials, &CredentialStore::keychainUnavailable, &page, [&page] {
        if (!page.nameEdit()->text().isEmpty())
            return;
        // The banner is up before any key was typed; now try to save one.
        page.nameEdit()->setText(u"nobus"_s);
        page.modelEdit()->setText(u"m"_s);
        page.keyEdit()->setText(u"sk-never-stored"_s);
        page.save();
    });
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &app, [&] {
        if (!page.statusText().startsWith(u"The key could not be stored"_s))
            return;
        const QJsonObject out { { u"visible"_s, !page.banner()->isHidden() },
                                { u"banner"_s, page.banner()->text() },
                                { u"status"_s, page.statusText() },
                                { u"profiles"_s, int(profiles.list().size()) } };
        std::fputs(QJsonDocument(out).toJson(QJsonDocument::Compact).constData(), stdout);
        std::fflush(stdout);
        app.exit(0);
    });
    poll.start(20);
    QTimer::singleShot(45000, &app, [&app] { app.exit(3); });
    return app.exec();
}

} // namespace

// tst_mainwindow.cpp: the views placed in the real MainWindow.
int runMainWindowTests(int argc, char **argv);
// tst_firstuse.cpp: the first-use problems of a newcomer, in the real MainWindow.
int runFirstUseTests(int argc, char **argv);
// tst_callview.cpp: a stored call as a tab, and the one current call.
int runCallViewTests(int argc, char **argv);
// tst_historysettings.cpp: Settings > History and the studio on a PostgreSQL server.
int runSharedHistoryTests(int argc, char **argv);

int main(int argc, char **argv)
{
    if (argc > 1 && qstrcmp(argv[1], "--banner-helper") == 0)
        return runBannerHelper(argc, argv);
    QApplication app(argc, argv);
    app.setAttribute(Qt::AA_Use96Dpi, true);
    TestHistoryViews test;
    QTEST_SET_MAIN_SOURCE_PATH
    const int failed = QTest::qExec(&test, argc, argv);
    return failed + runMainWindowTests(argc, argv) + runFirstUseTests(argc, argv)
        + runCallViewTests(argc, argv) + runSharedHistoryTests(argc, argv);
}

#include "tst_window.moc"
