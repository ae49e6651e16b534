#pragma once

// Settings > History: where the studio keeps its history. "This computer" is the SQLite file
// (its path shown); "A shared PostgreSQL server" takes the host (or a socket folder), port,
// database, user, TLS mode and root certificate, and a password that goes into the keychain
// entry `callscope-cli history login` makes; it is never written to the settings and never
// shown again. Test connects off the GUI thread and says what happened (connected, schema
// version, whether the role may store calls; or the server's reason). Save writes the URL
// (without password) as "history/location" and the person as "history/person"; the studio
// opens the chosen history from its next start.

#include "ui/widgets/noticebar.h"

#include <QWidget>

class QButtonGroup;
class QComboBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;
class QSpinBox;
template<typename T> class QFutureWatcher;

namespace Callscope {

class CredentialStore;
struct HistoryServerCheck;

class HistorySettingsPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistorySettingsPage)

public:
    // `credentials` holds the server's password; not owned.
    explicit HistorySettingsPage(CredentialStore *credentials, QWidget *parent = nullptr);
    ~HistorySettingsPage() override;

    // The history the studio uses now (a file or a server URL) and, for a role that may only
    // read, why nothing is stored: said on the page.
    void setCurrentHistory(const QString &location, const QString &readOnlyReason);

    QRadioButton *localButton() const { return m_local; }
    QRadioButton *serverButton() const { return m_server; }
    QLineEdit *hostEdit() const { return m_host; }
    QSpinBox *portBox() const { return m_port; }
    QLineEdit *databaseEdit() const { return m_database; }
    QLineEdit *userEdit() const { return m_user; }
    QComboBox *sslModeCombo() const { return m_sslMode; }
    QLineEdit *rootCertEdit() const { return m_rootCert; }
    QLineEdit *passwordEdit() const { return m_password; }
    QLabel *passwordStateLabel() const { return m_passwordState; }
    QLineEdit *personEdit() const { return m_person; }
    QPushButton *testButton() const { return m_test; }
    QPushButton *saveButton() const { return m_save; }
    QString statusText() const { return m_status->text(); }

    // The server URL the form describes (never with the password), or empty with the problem.
    QString formUrl(QString *problem = nullptr) const;

public Q_SLOTS:
    void test();
    void save();

Q_SIGNALS:
    void tested(bool connected);
    void saved(bool ok); // settings written (and the password kept, when one was typed)

private:
    void load();
    void updateEnabled();
    void showPasswordState();
    void setStatus(const QString &text, NoticeBar::Kind kind = NoticeBar::Kind::Info);
    void startCheck(const QString &url, const QString &password);
    void chooseRootCert();

    CredentialStore *m_credentials = nullptr;
    QRadioButton *m_local = nullptr;
    QRadioButton *m_server = nullptr;
    QButtonGroup *m_where = nullptr;
    QLabel *m_localPath = nullptr;
    QGroupBox *m_serverBox = nullptr;
    QLineEdit *m_host = nullptr;
    QSpinBox *m_port = nullptr;
    QLineEdit *m_database = nullptr;
    QLineEdit *m_user = nullptr;
    QComboBox *m_sslMode = nullptr;
    QLineEdit *m_rootCert = nullptr;
    QPushButton *m_browseCert = nullptr;
    QLineEdit *m_password = nullptr;
    QLabel *m_passwordState = nullptr;
    QLineEdit *m_person = nullptr;
    QLabel *m_current = nullptr;
    QPushButton *m_test = nullptr;
    QPushButton *m_save = nullptr;
    NoticeBar *m_status = nullptr;
    QFutureWatcher<HistoryServerCheck> *m_check = nullptr;
};

} // namespace Callscope
