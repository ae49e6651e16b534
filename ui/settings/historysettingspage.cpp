#include "ui/settings/historysettingspage.h"

#include "core/secrets/credentialstore.h"
#include "core/service/appcontext.h"
#include "core/service/historysettings.h"
#include "core/store/database.h"
#include "core/store/identity.h"
#include "ui/widgets/dialogs.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QDir>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSpinBox>
#include <QUrl>
#include <QUrlQuery>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

using namespace Qt::StringLiterals;

namespace Callscope {

HistorySettingsPage::HistorySettingsPage(CredentialStore *credentials, QWidget *parent)
    : QWidget(parent)
    , m_credentials(credentials)
    , m_local(new QRadioButton(tr("This computer"), this))
    , m_server(new QRadioButton(tr("A shared PostgreSQL server"), this))
    , m_where(new QButtonGroup(this))
    , m_localPath(new QLabel(this))
    , m_serverBox(new QGroupBox(tr("Server"), this))
    , m_host(new QLineEdit(this))
    , m_port(new QSpinBox(this))
    , m_database(new QLineEdit(this))
    , m_user(new QLineEdit(this))
    , m_sslMode(new QComboBox(this))
    , m_rootCert(new QLineEdit(this))
    , m_browseCert(new QPushButton(tr("Choose…"), this))
    , m_password(new QLineEdit(this))
    , m_passwordState(new QLabel(this))
    , m_person(new QLineEdit(this))
    , m_current(new QLabel(this))
    , m_test(new QPushButton(tr("Test"), this))
    , m_save(new QPushButton(tr("Save"), this))
    , m_status(new NoticeBar(this))
    , m_check(new QFutureWatcher<HistoryServerCheck>(this))
{
    setObjectName(u"historyPage"_s);
    m_local->setObjectName(u"historyLocal"_s);
    m_server->setObjectName(u"historyServer"_s);
    m_where->addButton(m_local);
    m_where->addButton(m_server);
    m_localPath->setObjectName(u"historyLocalPath"_s);
    m_localPath->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_localPath->setText(QDir::toNativeSeparators(defaultDatabasePath()));
    m_localPath->setToolTip(tr("The SQLite file the studio and callscope-cli use by default"));

    m_host->setObjectName(u"historyHost"_s);
    m_host->setPlaceholderText(tr("db.example.com, or a socket folder such as /run/postgresql"));
    m_port->setObjectName(u"historyPort"_s);
    m_port->setRange(1, 65535);
    m_port->setValue(5432);
    m_database->setObjectName(u"historyDatabase"_s);
    m_database->setPlaceholderText(u"callscope"_s);
    m_user->setObjectName(u"historyUser"_s);
    m_user->setPlaceholderText(tr("your role on the server"));
    m_sslMode->setObjectName(u"historySslMode"_s);
    m_sslMode->addItem(tr("verify-full: encrypted, the server's certificate and name checked"),
                       u"verify-full"_s);
    m_sslMode->addItem(tr("verify-ca: encrypted, the server's certificate checked"),
                       u"verify-ca"_s);
    m_sslMode->addItem(tr("require: encrypted, the certificate not checked"), u"require"_s);
    m_sslMode->addItem(tr("prefer: encrypted when the server offers it"), u"prefer"_s);
    m_sslMode->addItem(tr("disable: not encrypted (a server on this computer)"), u"disable"_s);
    m_rootCert->setObjectName(u"historyRootCert"_s);
    m_rootCert->setPlaceholderText(
        tr("the server's CA certificate (default ~/.postgresql/root.crt)"));
    m_password->setObjectName(u"historyPassword"_s);
    m_password->setEchoMode(QLineEdit::Password);
    m_password->setPlaceholderText(tr("kept in the keychain, never shown again"));
    m_passwordState->setObjectName(u"historyPasswordState"_s);
    m_passwordState->setWordWrap(true);
    m_person->setObjectName(u"historyPersonSetting"_s);
    m_person->setPlaceholderText(Identity::osUserName());
    m_person->setToolTip(
        tr("Recorded with every call you make, so the team can tell whose call it is"));
    m_current->setObjectName(u"historyCurrent"_s);
    m_current->setWordWrap(true);
    m_test->setObjectName(u"historyTest"_s);
    m_test->setToolTip(tr("Connect to the server with these settings and say what happened; "
                          "nothing is created or changed there"));
    m_save->setObjectName(u"historySave"_s);

    auto *certRow = new QHBoxLayout;
    certRow->addWidget(m_rootCert, 1);
    certRow->addWidget(m_browseCert);
    auto *serverForm = new QFormLayout(m_serverBox);
    serverForm->addRow(tr("Host:"), m_host);
    serverForm->addRow(tr("Port:"), m_port);
    serverForm->addRow(tr("Database:"), m_database);
    serverForm->addRow(tr("User:"), m_user);
    serverForm->addRow(tr("Password:"), m_password);
    serverForm->addRow(QString(), m_passwordState);
    serverForm->addRow(tr("TLS:"), m_sslMode);
    serverForm->addRow(tr("Root certificate:"), certRow);

    auto *localRow = new QHBoxLayout;
    localRow->addWidget(m_local);
    localRow->addWidget(m_localPath, 1);
    auto *note = new QLabel(
        tr("The password goes into the system keychain (the entry callscope-cli history login "
           "makes), never into the settings file, and is not shown again. The studio opens the "
           "chosen history the next time it starts; callscope-cli keeps using its --db option."),
        this);
    note->setWordWrap(true);
    auto *personForm = new QFormLayout;
    personForm->addRow(tr("Your name in the history:"), m_person);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_test);
    buttons->addStretch(1);
    buttons->addWidget(m_save);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(localRow);
    layout->addWidget(m_server);
    layout->addWidget(m_serverBox);
    layout->addLayout(personForm);
    layout->addWidget(m_current);
    layout->addWidget(note);
    layout->addWidget(m_status);
    layout->addStretch(1);
    layout->addLayout(buttons);
    m_status->hide();
    m_current->hide();

    load();
    connect(m_where, &QButtonGroup::buttonToggled, this, [this] {
        updateEnabled();
        showPasswordState();
    });
    connect(m_browseCert, &QPushButton::clicked, this, &HistorySettingsPage::chooseRootCert);
    connect(m_test, &QPushButton::clicked, this, &HistorySettingsPage::test);
    connect(m_save, &QPushButton::clicked, this, &HistorySettingsPage::save);
    // The keychain's answer for another server than the one typed is not that server's.
    for (QLineEdit *edit : { m_host, m_database, m_user })
        connect(edit, &QLineEdit::editingFinished, this, &HistorySettingsPage::showPasswordState);
    connect(m_check, &QFutureWatcher<HistoryServerCheck>::finished, this, [this] {
        updateEnabled();
        const HistoryServerCheck result = m_check->result();
        NoticeBar::Kind kind = NoticeBar::Kind::Info;
        if (!result.connected)
            kind = NoticeBar::Kind::Error;
        else if (!result.canWrite || !result.problem.isEmpty())
            kind = NoticeBar::Kind::Warning;
        setStatus(result.text(), kind);
        Q_EMIT tested(result.connected && result.problem.isEmpty());
    });
}

HistorySettingsPage::~HistorySettingsPage()
{
    // A check still connecting runs on the pool to its end; nothing waits for it here.
    disconnect(m_check, nullptr, this, nullptr);
}

void HistorySettingsPage::load()
{
    const QSettings settings;
    m_person->setText(settings.value(Identity::kPersonSetting).toString());
    const QString location = configuredHistoryLocation(settings);
    if (location.isEmpty()) {
        m_local->setChecked(true);
        m_sslMode->setCurrentIndex(0);
    } else {
        m_server->setChecked(true);
        const QUrl url(location);
        const QUrlQuery query(url);
        const QString socketFolder = query.queryItemValue(u"host"_s, QUrl::FullyDecoded);
        m_host->setText(socketFolder.isEmpty() ? url.host() : socketFolder);
        m_port->setValue(url.port(5432));
        m_database->setText(url.path(QUrl::FullyDecoded).mid(1));
        m_user->setText(url.userName(QUrl::FullyDecoded));
        const QString mode = query.queryItemValue(u"sslmode"_s);
        // No sslmode in the URL: libpq's default, prefer.
        m_sslMode->setCurrentIndex(
            std::max(0, m_sslMode->findData(mode.isEmpty() ? u"prefer"_s : mode)));
        m_rootCert->setText(query.queryItemValue(u"sslrootcert"_s, QUrl::FullyDecoded));
    }
    updateEnabled();
    showPasswordState();
}

void HistorySettingsPage::setCurrentHistory(const QString &location, const QString &readOnlyReason)
{
    QString where = isServerLocation(location) ? QUrl(location).toString(QUrl::RemovePassword)
                                               : QDir::toNativeSeparators(location);
    QString text = tr("In use now: %1").arg(where);
    if (!readOnlyReason.isEmpty())
        text += u"\n"_s + tr("Read-only: %1").arg(readOnlyReason);
    m_current->setText(text);
    m_current->setVisible(!location.isEmpty());
}

void HistorySettingsPage::updateEnabled()
{
    m_serverBox->setEnabled(m_server->isChecked());
    m_test->setEnabled(m_server->isChecked() && !m_check->isRunning());
}

void HistorySettingsPage::setStatus(const QString &text, NoticeBar::Kind kind)
{
    m_status->showMessage(text, kind);
    m_status->show();
    // A page of a tab widget is not given the height its wrapped text needs (the stacked layout
    // ignores height-for-width): a server's reason of three lines would be cut.
    const int width = m_status->width() > 0 ? m_status->width() : this->width();
    if (m_status->layout() && width > 0)
        m_status->setMinimumHeight(m_status->layout()->totalHeightForWidth(width));
}

QString HistorySettingsPage::formUrl(QString *problem) const
{
    auto fail = [problem](const QString &why) {
        if (problem)
            *problem = why;
        return QString();
    };
    const QString host = m_host->text().trimmed();
    const QString database = m_database->text().trimmed();
    const QString user = m_user->text().trimmed();
    if (host.isEmpty())
        return fail(tr("Give the server's host name (or the folder of its socket)."));
    if (database.isEmpty())
        return fail(tr("Give the name of the database on the server."));
    if (user.isEmpty())
        return fail(tr("Give your user (role) on the server."));
    QUrl url;
    url.setScheme(u"postgresql"_s);
    url.setUserName(user);
    QUrlQuery query;
    if (host.startsWith(u'/')) {
        // A socket folder: libpq takes it as the host parameter.
        url.setHost(u"localhost"_s);
        query.addQueryItem(u"host"_s, host);
    } else {
        url.setHost(host);
        if (!url.isValid() || url.host().isEmpty())
            return fail(tr("“%1” is not a host name.").arg(host));
    }
    url.setPort(m_port->value());
    url.setPath(u"/"_s + database);
    query.addQueryItem(u"sslmode"_s, m_sslMode->currentData().toString());
    const QString rootCert = m_rootCert->text().trimmed();
    if (!rootCert.isEmpty())
        query.addQueryItem(u"sslrootcert"_s, QDir::fromNativeSeparators(rootCert));
    url.setQuery(query);
    if (!url.isValid())
        return fail(tr("These settings do not make a server address: %1").arg(url.errorString()));
    return url.toString();
}

void HistorySettingsPage::showPasswordState()
{
    const QString url = m_server->isChecked() ? formUrl() : QString();
    if (url.isEmpty()) {
        m_passwordState->clear();
        m_passwordState->hide();
        return;
    }
    const QString server = historyServerKey(url);
    const QPointer<QLabel> label(m_passwordState);
    // Only whether there is one: the value is not kept, nor shown.
    m_credentials->readKey(
        AppContext::historyPasswordEntry(url), this,
        [this, label, server](const KeychainResult &read) {
            if (!label || historyServerKey(formUrl()) != server)
                return;
            label->show();
            if (read.status == KeychainStatus::Ok)
                label->setText(tr("A password for %1 is in the keychain; type one to replace it.")
                                   .arg(server));
            else if (read.status == KeychainStatus::NotFound)
                label->setText(tr("No password for %1 in the keychain yet (without one, "
                                  "PGPASSFILE or ~/.pgpass is used).")
                                   .arg(server));
            else
                label->setText(tr("The keychain cannot be used: %1").arg(read.message));
        });
}

void HistorySettingsPage::chooseRootCert()
{
    const QString file =
        Dialogs::openFileName(this, tr("Root Certificate"), QDir::homePath() + u"/.postgresql"_s,
                              tr("Certificates (*.crt *.pem);;All files (*)"));
    if (!file.isEmpty())
        m_rootCert->setText(QDir::toNativeSeparators(file));
}

void HistorySettingsPage::test()
{
    if (!m_server->isChecked() || m_check->isRunning())
        return;
    QString problem;
    const QString url = formUrl(&problem);
    if (url.isEmpty()) {
        setStatus(tr("Not tested: %1").arg(problem), NoticeBar::Kind::Warning);
        Q_EMIT tested(false);
        return;
    }
    m_test->setEnabled(false);
    setStatus(tr("Connecting to %1…").arg(historyServerKey(url)));
    // A password typed and not saved yet is the one tested; else the keychain's.
    if (!m_password->text().isEmpty()) {
        startCheck(url, m_password->text());
        return;
    }
    m_credentials->readKey(
        AppContext::historyPasswordEntry(url), this, [this, url](const KeychainResult &read) {
            startCheck(url, read.status == KeychainStatus::Ok && read.key ? *read.key : QString());
        });
}

void HistorySettingsPage::startCheck(const QString &url, const QString &password)
{
    // Connecting waits for the network and the server: on the pool, never on this thread.
    m_check->setFuture(
        QtConcurrent::run([url, password] { return checkHistoryServer(url, password); }));
}

void HistorySettingsPage::save()
{
    QString location;
    if (m_server->isChecked()) {
        QString problem;
        location = formUrl(&problem);
        if (location.isEmpty()) {
            setStatus(tr("Not saved: %1").arg(problem), NoticeBar::Kind::Warning);
            Q_EMIT saved(false);
            return;
        }
    }
    {
        QSettings settings;
        QString problem;
        if (!saveHistoryLocation(settings, location, &problem)) {
            setStatus(tr("Not saved: %1").arg(problem), NoticeBar::Kind::Warning);
            Q_EMIT saved(false);
            return;
        }
        const QString person = m_person->text().trimmed();
        if (person.isEmpty())
            settings.remove(Identity::kPersonSetting);
        else
            settings.setValue(Identity::kPersonSetting, person);
        settings.sync();
    }
    const QString where =
        location.isEmpty() ? tr("the file on this computer") : historyServerKey(location);
    const QString password = m_password->text();
    m_password->clear();
    if (location.isEmpty() || password.isEmpty()) {
        setStatus(tr("Saved. The studio opens %1 from its next start.").arg(where));
        Q_EMIT saved(true);
        return;
    }
    m_save->setEnabled(false);
    m_credentials->writeKey(
        AppContext::historyPasswordEntry(location), password, this,
        [this, where](const KeychainResult &written) {
            m_save->setEnabled(true);
            if (written.status != KeychainStatus::Ok) {
                setStatus(tr("Saved, but the keychain refused the password: %1. Type it "
                             "again once the keychain can be used.")
                              .arg(written.message),
                          NoticeBar::Kind::Error);
                Q_EMIT saved(false);
                return;
            }
            setStatus(tr("Saved, the password in the keychain. The studio opens %1 from "
                         "its next start.")
                          .arg(where));
            showPasswordState();
            Q_EMIT saved(true);
        });
}

} // namespace Callscope
