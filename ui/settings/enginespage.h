#pragma once

// Settings page "Engines and keys": add, edit and remove engine profiles; the key field writes
// to the OS keychain and is never shown back ("a key is stored"); Test sends a minimal
// request; a banner says when the keychain cannot be used, why, and what to do.

#include "core/secrets/engineprofile.h"
#include "ui/widgets/noticebar.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QListView;
class QNetworkAccessManager;
class QPushButton;

namespace Callscope {

class CallService;
class LimitsPage;
class TelemetryPage;
class HistorySettingsPage;

class CredentialStore;
class EngineProbe;
struct EngineProbeResult;
struct KeychainResult;
class ProfileListModel;
class ProfileStore;

class EnginesPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EnginesPage)

public:
    // `nam` is used by Test; none of the pointers is owned.
    EnginesPage(ProfileStore *profiles, CredentialStore *credentials, QNetworkAccessManager *nam,
                QWidget *parent = nullptr);
    ~EnginesPage() override;

    ProfileListModel *model() const { return m_model; }
    QListView *list() const { return m_list; }
    QLineEdit *nameEdit() const { return m_name; }
    QComboBox *typeCombo() const { return m_type; }
    QLineEdit *modelEdit() const { return m_modelEdit; }
    QLineEdit *baseUrlEdit() const { return m_baseUrl; }
    QLineEdit *contextWindowEdit() const { return m_contextWindow; }
    QLineEdit *timeoutEdit() const { return m_timeout; }
    QLineEdit *idleTimeoutEdit() const { return m_idleTimeout; }
    QLineEdit *keyEdit() const { return m_key; }
    QLabel *keyStateLabel() const { return m_keyState; }
    QLabel *banner() const { return m_banner; }
    QPushButton *saveButton() const { return m_save; }
    QPushButton *testButton() const { return m_test; }
    QPushButton *removeButton() const { return m_remove; }
    QString statusText() const;

    // The profile the form describes, or the problem with it.
    EngineProfile formProfile(QString *problem = nullptr) const;

public Q_SLOTS:
    void newProfile();
    void editProfile(const QString &name);
    void save();
    void removeCurrent();
    void test();

Q_SIGNALS:
    void saved(const QString &name); // profile (and key, when one was typed) stored
    void removed(const QString &name);
    void tested(bool ok);
    void profilesChanged();

private:
    void commitProfile(const EngineProfile &profile, bool isNew);
    void showKeychainProblem(const QString &message);
    void showKeyState();
    void setStatus(const QString &text, NoticeBar::Kind kind = NoticeBar::Kind::Info);
    void setBusy(bool busy);
    void onProbeFinished(const EngineProbeResult &result);

    ProfileStore *m_profiles = nullptr;
    CredentialStore *m_credentials = nullptr;
    EngineProbe *m_probe = nullptr;
    ProfileListModel *m_model = nullptr;
    QListView *m_list = nullptr;
    QLabel *m_banner = nullptr;
    QLineEdit *m_name = nullptr;
    QComboBox *m_type = nullptr;
    QLineEdit *m_modelEdit = nullptr;
    QLineEdit *m_baseUrl = nullptr;
    QLineEdit *m_contextWindow = nullptr;
    QSpinBox *m_maxInFlight = nullptr;
    QLineEdit *m_timeout = nullptr;
    QLineEdit *m_idleTimeout = nullptr;
    QLineEdit *m_key = nullptr;
    QLabel *m_keyState = nullptr;
    QPushButton *m_save = nullptr;
    QPushButton *m_test = nullptr;
    QPushButton *m_remove = nullptr;
    NoticeBar *m_status = nullptr;
    QString m_editing; // name of the profile being edited; empty = new
};

// The settings dialog (non-modal); holds the engines page.
class SettingsDialog final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SettingsDialog)

public:
    // `service` (may be null) gets the new limits at once.
    SettingsDialog(ProfileStore *profiles, CredentialStore *credentials, QNetworkAccessManager *nam,
                   QWidget *parent = nullptr, CallService *service = nullptr);
    ~SettingsDialog() override;

    EnginesPage *enginesPage() const { return m_engines; }
    LimitsPage *limitsPage() const { return m_limits; }
    TelemetryPage *telemetryPage() const { return m_telemetry; }
    HistorySettingsPage *historyPage() const { return m_history; }

private:
    EnginesPage *m_engines = nullptr;
    LimitsPage *m_limits = nullptr;
    TelemetryPage *m_telemetry = nullptr;
    HistorySettingsPage *m_history = nullptr;
};

} // namespace Callscope
