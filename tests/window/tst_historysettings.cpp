// The studio on a team's history (docs/shared-history.md): Settings > History against a real
// PostgreSQL 15 the test starts itself (tests/support/pgserver.h), the password through the
// real keychain, and the real MainWindow opened on the server as a writer and as a reader,
// with calls stored by callscope-cli processes of other "machines" (their own HOME and
// CALLSCOPE_MACHINE) against the scripted fake provider.

#include "core/secrets/credentialstore.h"
#include "core/secrets/profilestore.h"
#include "core/service/appcontext.h"
#include "core/service/historysettings.h"
#include "core/store/database.h"
#include "tests/support/fakeprovider.h"
#include "tests/support/pgserver.h"
#include "tests/support/testsupport.h"
#include "ui/experiments/experimentview.h"
#include "ui/history/historybrowser.h"
#include "ui/history/historymodel.h"
#include "ui/run/runpanel.h"
#include "ui/sessions/sessionview.h"
#include "ui/settings/enginespage.h"
#include "ui/settings/historysettingspage.h"
#include "ui/widgets/studioservices.h"
#include "ui/window/historydocks.h"
#include "ui/window/mainwindow.h"
#include "ui/window/spectab.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QNetworkAccessManager>
#include <QProcess>
#include <QPushButton>
#include <QRadioButton>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSqlDatabase>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

using namespace Qt::StringLiterals;
using namespace Callscope;
using namespace Callscope::Test;

namespace {

constexpr auto kDatabase = "team"_L1;
constexpr auto kWriter = "alice"_L1;
constexpr auto kWriterPassword = "alice-pw-7731-zq"_L1;
constexpr auto kReader = "team_reader"_L1;
constexpr auto kReaderPassword = "reader-pw-4410-xk"_L1;

// A computer of its own for callscope-cli: a HOME with its settings (the person), and the
// machine name the history records.
class OtherMachine
{
public:
    OtherMachine(const QString &person, const QString &name)
        : m_name(name)
    {
        QDir().mkpath(m_home.filePath(u".config/Callscope"_s));
        QFile settings(m_home.filePath(u".config/Callscope/callscope.conf"_s));
        if (settings.open(QIODevice::WriteOnly))
            settings.write("[history]\nperson=" + person.toUtf8() + "\n");
    }
    QProcessEnvironment environment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"HOME"_s, m_home.path());
        env.insert(u"XDG_CONFIG_HOME"_s, m_home.filePath(u".config"_s));
        env.insert(u"XDG_DATA_HOME"_s, m_home.filePath(u".local/share"_s));
        env.insert(u"XDG_CACHE_HOME"_s, m_home.filePath(u".cache"_s));
        env.insert(u"CALLSCOPE_MACHINE"_s, m_name);
        env.insert(u"CALLSCOPE_TEST_API_KEY"_s, u"sk-studio-pg-key"_s);
        // libpq's own source, as on a machine without a keychain.
        env.insert(u"PGPASSWORD"_s, QString(kWriterPassword));
        env.remove(u"PGPASSFILE"_s);
        return env;
    }
    QString path() const { return m_home.path(); }

private:
    QTemporaryDir m_home;
    QString m_name;
};

// Runs callscope-cli and waits on the event loop (the fake provider answers meanwhile).
QByteArray runCli(const QStringList &args, const QProcessEnvironment &env, int *exitCode)
{
    QProcess process;
    process.setProcessEnvironment(env);
    process.start(cliPath(), args);
    QSignalSpy finished(&process, &QProcess::finished);
    if (!process.waitForStarted(10000) || !finished.wait(120000)) {
        process.kill();
        process.waitForFinished();
    }
    *exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    const QByteArray err = process.readAllStandardError();
    if (*exitCode != 0)
        qWarning() << "callscope-cli" << args << "failed:" << err;
    return process.readAllStandardOutput();
}

QString writeSpec(const QString &folder, const QUrl &provider)
{
    const QJsonObject spec {
        { u"kind"_s, u"planner"_s },
        { u"system_prompt"_s, u"Plan."_s },
        { u"response_schema"_s,
          QJsonObject {
              { u"type"_s, u"object"_s },
              { u"properties"_s,
                QJsonObject { { u"title"_s, QJsonObject { { u"type"_s, u"string"_s } } } } },
              { u"required"_s, QJsonArray { u"title"_s } } } },
        { u"engine"_s,
          QJsonObject { { u"type"_s, u"openai"_s },
                        { u"model"_s, u"gpt-test"_s },
                        { u"base_url"_s, provider.toString() },
                        { u"api_key_env"_s, u"CALLSCOPE_TEST_API_KEY"_s },
                        { u"stream"_s, false } } }
    };
    const QString path = folder + u"/planner.spec.json"_s;
    QFile file(path);
    if (file.open(QIODevice::WriteOnly))
        file.write(QJsonDocument(spec).toJson());
    return path;
}

} // namespace

class TestHistorySettings : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void pageTestsTheServer();
    void saveKeepsThePasswordInTheKeychainOnly();
    void studioOnTheServerShowsOtherMachines();
    void studioOnAReaderRoleBrowsesOnly();

private:
    // Fills the page's server fields for `role` on the test server.
    void fillServer(HistorySettingsPage &page, const QString &role, const QString &password);
    // Runs Test and returns the page's sentence; *connected says how it ended.
    QString runTest(HistorySettingsPage &page, bool *connected);
    // Chooses the server as `role` on the page and saves (the password into the keychain).
    void saveServer(const QString &role, const QString &password);

    PgServer m_server;
    QTemporaryDir m_work;
    FakeProvider m_provider;
    QString m_spec;
    QString m_keychain;
    std::unique_ptr<OtherMachine> m_bob;
    std::unique_ptr<OtherMachine> m_carol;
    bool m_ready = false;
};

void TestHistorySettings::initTestCase()
{
    if (PgServer::binDir().isEmpty())
        QSKIP("PostgreSQL 15 is not installed (tools/dev.sh installs postgresql-15)");
    QVERIFY2(QSqlDatabase::isDriverAvailable(u"QPSQL"_s),
             "Qt's PostgreSQL driver is missing (Debian package libqt6sql6-psql)");
    QString error;
    QVERIFY2(m_server.start(&error), qPrintable(error));
    QVERIFY2(m_server.createDatabase(kDatabase, &error), qPrintable(error));
    // The roles of docs/shared-history.md: a writer and a reader, each with a password.
    for (const QString &sql :
         { u"CREATE ROLE %1 LOGIN PASSWORD '%2'"_s.arg(kWriter, kWriterPassword),
           u"GRANT CONNECT, TEMPORARY ON DATABASE %1 TO %2"_s.arg(kDatabase, kWriter),
           u"GRANT USAGE, CREATE ON SCHEMA public TO %1"_s.arg(kWriter),
           u"CREATE ROLE %1 LOGIN PASSWORD '%2'"_s.arg(kReader, kReaderPassword),
           u"GRANT CONNECT ON DATABASE %1 TO %2"_s.arg(kDatabase, kReader),
           u"GRANT USAGE ON SCHEMA public TO %1"_s.arg(kReader),
           u"ALTER DEFAULT PRIVILEGES FOR ROLE %1 IN SCHEMA public GRANT SELECT ON TABLES TO %2"_s
               .arg(kWriter, kReader) })
        QVERIFY2(m_server.exec(kDatabase, sql, &error), qPrintable(sql + u": "_s + error));

    QVERIFY(m_provider.listen());
    m_provider.setDefaultReply(FakeReply::json(
        200, openAiToolCallBody(u"call_1"_s, u"submit_output"_s, { { u"title"_s, u"ok"_s } })));
    m_spec = writeSpec(m_work.path(), m_provider.baseUrl());

    // Two other computers store calls on the server (the first one creates the schema).
    m_bob = std::make_unique<OtherMachine>(u"bob"_s, u"bobs-laptop"_s);
    m_carol = std::make_unique<OtherMachine>(u"carol"_s, u"carols-desktop"_s);
    const QString url = m_server.url(kDatabase, kWriter);
    int code = -1;
    for (int i = 1; i <= 2; ++i) {
        runCli({ u"run"_s, m_spec, u"--input"_s, u"Bob's plan %1"_s.arg(i), u"--db"_s, url },
               m_bob->environment(), &code);
        QCOMPARE(code, 0);
    }
    runCli({ u"run"_s, m_spec, u"--input"_s, u"Carol's plan"_s, u"--db"_s, url },
           m_carol->environment(), &code);
    QCOMPARE(code, 0);

    // The keychain entries of this test, never the user's (removed at the end).
    m_keychain = u"callscope-tst-history-settings-%1"_s.arg(QCoreApplication::applicationPid());
    m_ready = true;
}

void TestHistorySettings::cleanupTestCase()
{
    if (!m_ready)
        return;
    CredentialStore credentials(m_keychain, nullptr);
    for (const QString &role : { QString(kWriter), QString(kReader) }) {
        bool done = false;
        credentials.deleteKey(AppContext::historyPasswordEntry(m_server.url(kDatabase, role)),
                              &credentials, [&done](const KeychainResult &) { done = true; });
        QTRY_VERIFY_WITH_TIMEOUT(done, 10000);
    }
    QSettings().remove(kHistoryLocationSetting);
    QString error;
    QVERIFY2(m_server.stop(&error), qPrintable(error));
}

void TestHistorySettings::fillServer(HistorySettingsPage &page, const QString &role,
                                     const QString &password)
{
    // On the button's mark (a radio button takes clicks on its mark and text only).
    QTest::mouseClick(page.serverButton(), Qt::LeftButton, {},
                      QPoint(8, page.serverButton()->height() / 2));
    QVERIFY(page.serverButton()->isChecked());
    QVERIFY(page.hostEdit()->isEnabled());
    page.hostEdit()->setText(m_server.socketDir()); // a socket folder, as libpq takes it
    page.portBox()->setValue(m_server.port());
    page.databaseEdit()->setText(kDatabase);
    page.userEdit()->setText(role);
    page.sslModeCombo()->setCurrentIndex(page.sslModeCombo()->findData(u"disable"_s));
    page.passwordEdit()->clear();
    if (!password.isEmpty())
        QTest::keyClicks(page.passwordEdit(), password);
}

QString TestHistorySettings::runTest(HistorySettingsPage &page, bool *connected)
{
    QSignalSpy tested(&page, &HistorySettingsPage::tested);
    const int guiStatements = Database::forbiddenThreadStatements();
    QTest::mouseClick(page.testButton(), Qt::LeftButton);
    // Connecting happens on the pool: the button waits, the window does not.
    if (tested.isEmpty()
        && (page.testButton()->isEnabled() || !page.statusText().startsWith(u"Connecting to"_s)))
        return u"(Test did not wait off the GUI thread) "_s + page.statusText();
    if (!tested.wait(30000) && tested.isEmpty())
        return u"(no answer) "_s + page.statusText();
    *connected = tested.at(0).at(0).toBool();
    // Not one statement on the GUI thread (counted when the guard is set).
    if (Database::forbiddenThreadStatements() != guiStatements)
        return u"(SQL on the GUI thread: %1) "_s.arg(Database::lastForbiddenStatement());
    return page.statusText();
}

void TestHistorySettings::pageTestsTheServer()
{
    Database::setForbiddenThread(QThread::currentThread(), Database::ThreadCheck::Count);
    auto reset = qScopeGuard([] { Database::setForbiddenThread(nullptr); });
    CredentialStore credentials(m_keychain, nullptr);
    ProfileStore profiles(&credentials, nullptr);
    QNetworkAccessManager nam;
    SettingsDialog dialog(&profiles, &credentials, &nam);
    HistorySettingsPage &page = *dialog.historyPage();
    page.setCurrentHistory(defaultDatabasePath(), QString()); // as the studio's window does
    dialog.findChild<QTabWidget *>()->setCurrentWidget(&page);
    dialog.resize(1280, 800);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    // By default: this computer, its file named, the server's fields off.
    QVERIFY(page.localButton()->isChecked());
    QVERIFY(!page.hostEdit()->isEnabled());
    QVERIFY(!page.testButton()->isEnabled());
    QCOMPARE(page.findChild<QLabel *>(u"historyLocalPath"_s)->text(),
             QDir::toNativeSeparators(defaultDatabasePath()));

    // The writer with its password: connected, the version, may store calls.
    fillServer(page, kWriter, kWriterPassword);
    QCOMPARE(page.passwordEdit()->echoMode(), QLineEdit::Password);
    bool connected = false;
    QString said = runTest(page, &connected);
    QVERIFY2(connected, qPrintable(said));
    QVERIFY2(said.contains(u"schema version %1, up to date"_s.arg(Database::latestSchemaVersion())),
             qPrintable(said));
    QVERIFY2(said.contains(u"the role alice may store calls"_s), qPrintable(said));
    QVERIFY2(!said.contains(kWriterPassword), qPrintable(said));
    QCoreApplication::sendPostedEvents(); // the notice's new height laid out
    dialog.grab().save(buildPath(u"screenshots/settings-history-server.png"_s));

    // A wrong password: the server's own reason, and never the password typed.
    fillServer(page, kWriter, u"not-the-password-9921"_s);
    said = runTest(page, &connected);
    QVERIFY2(!connected, qPrintable(said));
    QVERIFY2(said.startsWith(u"Could not connect:"_s), qPrintable(said));
    QVERIFY2(said.contains(u"password authentication failed for user \"alice\""_s),
             qPrintable(said));
    QVERIFY2(!said.contains(u"not-the-password-9921"_s), qPrintable(said));
    QCoreApplication::sendPostedEvents(); // the notice's new height laid out
    dialog.grab().save(buildPath(u"screenshots/settings-history-wrong-password.png"_s));

    // The reader: connected, and said to be read-only.
    QString error;
    QVERIFY2(m_server.exec(kDatabase,
                           u"GRANT SELECT ON ALL TABLES IN SCHEMA public TO %1"_s.arg(kReader),
                           &error),
             qPrintable(error));
    fillServer(page, kReader, kReaderPassword);
    said = runTest(page, &connected);
    QVERIFY2(connected, qPrintable(said));
    QVERIFY2(said.contains(u"the role team_reader may only read: the history is read-only"_s),
             qPrintable(said));
    QCoreApplication::sendPostedEvents(); // the notice's new height laid out
    dialog.grab().save(buildPath(u"screenshots/settings-history-reader.png"_s));

    // A database without Callscope's tables: Test creates nothing there.
    QVERIFY2(m_server.createDatabase(u"empty"_s, &error), qPrintable(error));
    fillServer(page, m_server.user(), QString());
    page.databaseEdit()->setText(u"empty"_s);
    said = runTest(page, &connected);
    QVERIFY2(connected, qPrintable(said));
    QVERIFY2(said.contains(u"no Callscope tables yet"_s), qPrintable(said));
    auto opened = Database::open(m_server.url(u"empty"_s), [] {
        Database::Options look;
        look.inspectOnly = true;
        look.mustWrite = false;
        return look;
    }());
    QVERIFY2(opened, qPrintable(opened.error().message));
    QCOMPARE(opened.value()->schemaVersion(), 0);

    // An unreachable server says so (a closed port on this computer), within the timeout.
    fillServer(page, kWriter, kWriterPassword);
    page.hostEdit()->setText(u"127.0.0.1"_s);
    page.portBox()->setValue(9); // discard: nothing listens
    said = runTest(page, &connected);
    QVERIFY2(!connected, qPrintable(said));
    QVERIFY2(said.contains(u"Could not connect"_s) && said.contains(u"127.0.0.1"_s),
             qPrintable(said));
}

void TestHistorySettings::saveServer(const QString &role, const QString &password)
{
    CredentialStore credentials(m_keychain, nullptr);
    HistorySettingsPage page(&credentials);
    page.show();
    fillServer(page, role, password);
    QSignalSpy saved(&page, &HistorySettingsPage::saved);
    QTest::mouseClick(page.saveButton(), Qt::LeftButton);
    QVERIFY2(saved.wait(20000) || !saved.isEmpty(), qPrintable(page.statusText()));
    QVERIFY2(saved.at(0).at(0).toBool(), qPrintable(page.statusText()));
    // Never shown again: the field is empty, the page says one is kept.
    QVERIFY(page.passwordEdit()->text().isEmpty());
    QTRY_VERIFY2_WITH_TIMEOUT(page.passwordStateLabel()->text().contains(u"is in the keychain"_s),
                              qPrintable(page.passwordStateLabel()->text()), 10000);
}

void TestHistorySettings::saveKeepsThePasswordInTheKeychainOnly()
{
    const QString settingsFile = QSettings().fileName();
    saveServer(kWriter, kWriterPassword);
    if (QTest::currentTestFailed())
        return;
    QSettings().sync();
    QFile file(settingsFile);
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(settingsFile));
    const QByteArray bytes = file.readAll();
    QVERIFY2(!bytes.contains(QByteArray(kWriterPassword.data(), kWriterPassword.size())),
             bytes.constData());
    // The URL is there, without a password; it is what the studio opens from its next start.
    const QString url = configuredHistoryLocation(QSettings());
    QVERIFY2(url.startsWith(u"postgresql://alice@localhost:%1/team?"_s.arg(m_server.port())),
             qPrintable(url));
    QVERIFY2(bytes.contains("postgresql:"), bytes.constData());
    QVERIFY(QUrl(url).password().isEmpty());
    QCOMPARE(historyServerKey(url), historyServerKey(m_server.url(kDatabase, kWriter)));

    // The password is the keychain entry `history login` makes, for that server.
    CredentialStore reader(m_keychain, nullptr);
    std::optional<KeychainResult> read;
    reader.readKey(AppContext::historyPasswordEntry(url), &reader,
                   [&read](const KeychainResult &result) { read = result; });
    QTRY_VERIFY_WITH_TIMEOUT(read.has_value(), 10000);
    QCOMPARE(int(read->status), int(KeychainStatus::Ok));
    QCOMPARE(read->key.value_or(QString()), QString(kWriterPassword));

    // A page opened again shows the saved server, and an empty password field.
    CredentialStore credentials(m_keychain, nullptr);
    HistorySettingsPage again(&credentials);
    QVERIFY(again.serverButton()->isChecked());
    QCOMPARE(again.hostEdit()->text(), m_server.socketDir());
    QCOMPARE(again.portBox()->value(), m_server.port());
    QCOMPARE(again.databaseEdit()->text(), QString(kDatabase));
    QCOMPARE(again.userEdit()->text(), QString(kWriter));
    QCOMPARE(again.sslModeCombo()->currentData().toString(), u"disable"_s);
    QVERIFY(again.passwordEdit()->text().isEmpty());
    QCOMPARE(again.formUrl(), url);

    // Back to this computer: the setting goes.
    again.localButton()->setChecked(true);
    QSignalSpy saved(&again, &HistorySettingsPage::saved);
    QTest::mouseClick(again.saveButton(), Qt::LeftButton);
    QVERIFY(!saved.isEmpty() || saved.wait(10000));
    QVERIFY(configuredHistoryLocation(QSettings()).isEmpty());
    QVERIFY(!QSettings().contains(kHistoryLocationSetting));
}

void TestHistorySettings::studioOnTheServerShowsOtherMachines()
{
    saveServer(kWriter, kWriterPassword);
    if (QTest::currentTestFailed())
        return;
    // What the studio's main does at start: the setting, the password from the keychain.
    const QString location = configuredHistoryLocation(QSettings());
    QVERIFY(!location.isEmpty());
    Database::setServerPassword(location, QString()); // nothing left from an earlier open
    AppContext context;
    context.setKeychainService(m_keychain);
    QVERIFY2(context.openHistory(location, AppContext::History::ReadWriteOrBrowse),
             qPrintable(context.databaseError()));
    QVERIFY(context.historyReadOnlyReason().isEmpty());
    MainWindow::Options options;
    options.context = &context;
    MainWindow window(options);
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto *label = window.findChild<QLabel *>(u"historyFileLabel"_s);
    QVERIFY(label);
    QCOMPARE(label->text(), u"History: alice@localhost/team"_s);

    // The three calls of the other two machines.
    HistoryBrowser *history = window.historyDocks()->history();
    QTRY_COMPARE_WITH_TIMEOUT(history->model()->rowCount(), 3, 20000);
    QSet<QString> machines;
    for (int row = 0; row < 3; ++row)
        machines.insert(history->model()->rowAt(row).machine);
    QCOMPARE(machines, (QSet<QString> { u"bobs-laptop"_s, u"carols-desktop"_s }));
    const QModelIndex carols = history->model()->index(0, HistoryModel::StartedColumn);
    QVERIFY2(carols.data(Qt::ToolTipRole).toString().endsWith(u", by carol on carols-desktop"_s),
             qPrintable(carols.data(Qt::ToolTipRole).toString()));

    // The Person filter: one person's calls.
    history->personEdit()->setText(u"bob"_s);
    QTRY_VERIFY_WITH_TIMEOUT(!history->model()->isLoading() && history->model()->rowCount() == 2,
                             20000);
    for (int row = 0; row < 2; ++row)
        QCOMPARE(history->model()->rowAt(row).person, u"bob"_s);
    history->personEdit()->setText(u"carol"_s);
    QTRY_VERIFY_WITH_TIMEOUT(!history->model()->isLoading() && history->model()->rowCount() == 1,
                             20000);
    QCOMPARE(history->model()->rowAt(0).machine, u"carols-desktop"_s);

    // A writer may run: Run is on.
    window.openSpecFile(m_spec);
    QTRY_VERIFY(window.currentSpecTab());
    RunPanel *panel = window.currentSpecTab()->runPanel();
    QTRY_VERIFY_WITH_TIMEOUT(panel->runAction()->isEnabled(), 10000);
    QVERIFY(panel->blockedReason().isEmpty());
    history->personEdit()->clear();
    window.grab().save(buildPath(u"screenshots/studio-on-shared-history.png"_s));
}

void TestHistorySettings::studioOnAReaderRoleBrowsesOnly()
{
    QString error;
    QVERIFY2(m_server.exec(kDatabase,
                           u"GRANT SELECT ON ALL TABLES IN SCHEMA public TO %1"_s.arg(kReader),
                           &error),
             qPrintable(error));
    saveServer(kReader, kReaderPassword);
    if (QTest::currentTestFailed())
        return;
    const QString location = configuredHistoryLocation(QSettings());
    QVERIFY2(location.contains(u"team_reader@"_s), qPrintable(location));
    AppContext context;
    context.setKeychainService(m_keychain);
    QVERIFY2(context.openHistory(location, AppContext::History::ReadWriteOrBrowse),
             qPrintable(context.databaseError()));
    const QString reason = context.historyReadOnlyReason();
    QVERIFY2(reason.contains(u"read-only for the role team_reader"_s), qPrintable(reason));
    MainWindow::Options options;
    options.context = &context;
    MainWindow window(options);
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto *label = window.findChild<QLabel *>(u"historyFileLabel"_s);
    QVERIFY(label);
    QCOMPARE(label->text(), u"History: team_reader@localhost/team (read-only)"_s);

    // Browsing works: the others' calls are there.
    HistoryBrowser *history = window.historyDocks()->history();
    QTRY_COMPARE_WITH_TIMEOUT(history->model()->rowCount(), 3, 20000);
    QCOMPARE(history->model()->rowAt(0).person, u"carol"_s);

    // Run is off before anyone presses it, with the reason; the window's Run action too.
    window.openSpecFile(m_spec);
    QTRY_VERIFY(window.currentSpecTab());
    SpecTab *tab = window.currentSpecTab();
    RunPanel *panel = tab->runPanel();
    QTRY_VERIFY_WITH_TIMEOUT(panel->blockedReason() == reason, 10000);
    QVERIFY(!panel->runAction()->isEnabled());
    QVERIFY2(panel->runAction()->toolTip().contains(u"read-only for the role team_reader"_s),
             qPrintable(panel->runAction()->toolTip()));
    auto *status = panel->findChild<QLabel *>(u"runStatus"_s);
    QVERIFY(status);
    QVERIFY2(status->text().startsWith(
                 u"Cannot run: the history team_reader@localhost/team is read-only"_s),
             qPrintable(status->text()));
    QAction *windowRun = nullptr;
    for (QAction *action : window.findChildren<QAction *>()) {
        if (action->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_R))
            windowRun = action;
    }
    QVERIFY(windowRun);
    QVERIFY(!windowRun->isEnabled());
    // Sessions cannot start or send either.
    auto *sessions = window.findChild<SessionView *>();
    QVERIFY(sessions);
    QVERIFY(!sessions->sendButton()->isEnabled());
    for (QPushButton *button : sessions->findChildren<QPushButton *>()) {
        if (button->text() == u"New"_s)
            QVERIFY(!button->isEnabled());
    }
    window.grab().save(buildPath(u"screenshots/studio-reader-role.png"_s));
    // Pressing it anyway starts nothing: no request reaches the provider.
    const int requests = m_provider.requestCount();
    panel->run();
    QTest::qWait(200);
    QCOMPARE(m_provider.requestCount(), requests);
    QCOMPARE(history->model()->rowCount(), 3);
    // The experiment view's Run says the same.
    auto *experiments = window.findChild<ExperimentView *>();
    QVERIFY(experiments);
    auto *experimentRun = experiments->findChild<QPushButton *>(u"experimentRunButton"_s);
    QVERIFY(experimentRun);
    QVERIFY(!experimentRun->isEnabled());
    QVERIFY2(experimentRun->toolTip().contains(u"read-only for the role team_reader"_s),
             qPrintable(experimentRun->toolTip()));
}

int runSharedHistoryTests(int argc, char **argv)
{
    TestHistorySettings test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_historysettings.moc"
