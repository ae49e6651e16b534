#include "ui/settings/enginespage.h"

#include "core/engines/httpjob.h"
#include "core/secrets/credentialstore.h"
#include "core/secrets/keyresolver.h"
#include "core/secrets/profilestore.h"
#include "core/service/callservice.h"
#include "core/service/engineprobe.h"
#include "ui/settings/historysettingspage.h"
#include "ui/settings/limitspage.h"
#include "ui/settings/profilelistmodel.h"
#include "ui/settings/telemetrypage.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QSpinBox>
#include <QTabWidget>
#include <QUrl>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Callscope {

EnginesPage::EnginesPage(ProfileStore *profiles, CredentialStore *credentials,
                         QNetworkAccessManager *nam, QWidget *parent)
    : QWidget(parent)
    , m_profiles(profiles)
    , m_credentials(credentials)
    , m_probe(new EngineProbe(nam, credentials, this))
    , m_model(new ProfileListModel(profiles, credentials, this))
    , m_list(new QListView(this))
    , m_banner(new QLabel(this))
    , m_name(new QLineEdit(this))
    , m_type(new QComboBox(this))
    , m_modelEdit(new QLineEdit(this))
    , m_baseUrl(new QLineEdit(this))
    , m_contextWindow(new QLineEdit(this))
    , m_maxInFlight(new QSpinBox(this))
    , m_timeout(new QLineEdit(this))
    , m_idleTimeout(new QLineEdit(this))
    , m_key(new QLineEdit(this))
    , m_keyState(new QLabel(this))
    , m_save(new QPushButton(tr("Save"), this))
    , m_test(new QPushButton(tr("Test"), this))
    , m_remove(new QPushButton(tr("Remove"), this))
    , m_status(new NoticeBar(this))
{
    setObjectName(u"enginesPage"_s);
    m_banner->setObjectName(u"keychainBanner"_s);
    m_banner->setWordWrap(true);
    m_banner->setAutoFillBackground(true);
    QPalette bannerPalette = m_banner->palette();
    bannerPalette.setColor(QPalette::Window, QColor(230, 160, 0));
    bannerPalette.setColor(QPalette::WindowText, Qt::black);
    m_banner->setPalette(bannerPalette);
    m_banner->setContentsMargins(8, 6, 8, 6);
    m_banner->hide();

    m_list->setModel(m_model);
    auto *addButton = new QPushButton(tr("Add"), this);
    auto *left = new QVBoxLayout;
    left->addWidget(m_list, 1);
    auto *listButtons = new QHBoxLayout;
    listButtons->addWidget(addButton);
    listButtons->addWidget(m_remove);
    left->addLayout(listButtons);

    for (const QString &name : engineTypeNames()) {
        if (name != u"replay")
            m_type->addItem(name, name);
    }
    m_name->setPlaceholderText(tr("letters, digits, '.', '_' or '-'"));
    m_baseUrl->setPlaceholderText(tr("empty: the provider's public endpoint"));
    m_contextWindow->setValidator(
        new QRegularExpressionValidator(QRegularExpression(u"[0-9]{0,9}"_s), m_contextWindow));
    m_contextWindow->setPlaceholderText(tr("tokens (optional)"));
    m_maxInFlight->setRange(0, 256);
    m_maxInFlight->setSpecialValueText(tr("the default (Calls at once)"));
    m_maxInFlight->setToolTip(tr("How many calls may run on this engine at the same time"));
    m_timeout->setObjectName(u"profileTimeout"_s);
    m_idleTimeout->setObjectName(u"profileIdleTimeout"_s);
    for (QLineEdit *edit : { m_timeout, m_idleTimeout })
        edit->setValidator(
            new QRegularExpressionValidator(QRegularExpression(u"[0-9]{0,9}"_s), edit));
    m_timeout->setPlaceholderText(tr("ms per attempt (optional; default %1 s)")
                                      .arg(HttpJobSettings::DefaultTotalTimeoutMs / 1000));
    m_idleTimeout->setPlaceholderText(tr("ms of silence (optional; default %1 s)")
                                          .arg(HttpJobSettings::DefaultInactivityTimeoutMs / 1000));
    m_key->setEchoMode(QLineEdit::Password);
    m_key->setPlaceholderText(tr("paste a key to store it in the keychain"));
    m_key->setAttribute(Qt::WA_InputMethodEnabled, false);

    auto *form = new QFormLayout;
    form->addRow(tr("Name:"), m_name);
    form->addRow(tr("Type:"), m_type);
    form->addRow(tr("Model:"), m_modelEdit);
    form->addRow(tr("Base URL:"), m_baseUrl);
    form->addRow(tr("Context window:"), m_contextWindow);
    form->addRow(tr("Calls at once:"), m_maxInFlight);
    form->addRow(tr("Timeout:"), m_timeout);
    form->addRow(tr("Idle timeout:"), m_idleTimeout);
    form->addRow(tr("API key:"), m_key);
    form->addRow(QString(), m_keyState);
    auto *formButtons = new QHBoxLayout;
    formButtons->addWidget(m_save);
    formButtons->addWidget(m_test);
    formButtons->addStretch(1);
    auto *right = new QVBoxLayout;
    right->addLayout(form);
    right->addLayout(formButtons);
    right->addWidget(m_status);
    right->addStretch(1);

    auto *columns = new QHBoxLayout;
    columns->addLayout(left, 2);
    columns->addLayout(right, 3);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_banner);
    layout->addLayout(columns, 1);

    connect(addButton, &QPushButton::clicked, this, &EnginesPage::newProfile);
    connect(m_remove, &QPushButton::clicked, this, &EnginesPage::removeCurrent);
    connect(m_save, &QPushButton::clicked, this, &EnginesPage::save);
    connect(m_test, &QPushButton::clicked, this, &EnginesPage::test);
    connect(m_list->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (current.isValid())
                    editProfile(current.data(ProfileListModel::NameRole).toString());
            });
    connect(m_model, &ProfileListModel::keychainProblem, this, &EnginesPage::showKeychainProblem);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &EnginesPage::showKeyState);
    connect(m_probe, &EngineProbe::finished, this, &EnginesPage::onProbeFinished);
    if (m_credentials) {
        connect(m_credentials, &CredentialStore::keychainUnavailable, this,
                [this](const KeychainResult &result) { showKeychainProblem(result.message); });
        // Ask once so the banner shows before the user types a key.
        m_credentials->readKey(u"callscope-keychain-check"_s, this,
                               [this](const KeychainResult &result) {
                                   if (!result.usable())
                                       showKeychainProblem(result.message);
                               });
    } else {
        showKeychainProblem(keychainMessage(KeychainStatus::NoService, QString()));
    }
    newProfile();
}

EnginesPage::~EnginesPage() = default;

QString EnginesPage::statusText() const
{
    return m_status->text();
}

void EnginesPage::setStatus(const QString &text, NoticeBar::Kind kind)
{
    if (text.isEmpty())
        m_status->clearMessage();
    else
        m_status->showMessage(text, kind);
}

void EnginesPage::setBusy(bool busy)
{
    m_save->setEnabled(!busy);
    m_remove->setEnabled(!busy && !m_editing.isEmpty());
}

void EnginesPage::showKeychainProblem(const QString &message)
{
    m_banner->setText(tr("The keychain cannot be used, so keys cannot be stored: %1").arg(message));
    m_banner->show();
}

void EnginesPage::showKeyState()
{
    if (m_editing.isEmpty()) {
        m_keyState->setText(tr("No key stored yet."));
        return;
    }
    switch (m_model->keyState(m_editing)) {
    case ProfileListModel::KeyState::Stored:
        m_keyState->setText(tr("A key is stored. Type a new one to replace it."));
        break;
    case ProfileListModel::KeyState::Missing:
        m_keyState->setText(tr("No key stored."));
        break;
    case ProfileListModel::KeyState::Unavailable:
        m_keyState->setText(tr("Unknown: the keychain cannot be asked."));
        break;
    case ProfileListModel::KeyState::Unknown:
        m_keyState->setText(tr("Asking the keychain…"));
        break;
    }
}

void EnginesPage::newProfile()
{
    m_editing.clear();
    m_list->selectionModel()->clearCurrentIndex();
    m_name->clear();
    m_type->setCurrentIndex(0);
    m_modelEdit->clear();
    m_baseUrl->clear();
    m_contextWindow->clear();
    m_maxInFlight->setValue(0);
    m_timeout->clear();
    m_idleTimeout->clear();
    m_key->clear();
    m_remove->setEnabled(false);
    showKeyState();
    m_name->setFocus();
}

void EnginesPage::editProfile(const QString &name)
{
    const int row = m_model->rowOfProfile(name);
    if (row < 0)
        return;
    const EngineProfile p = m_model->profileAt(row);
    m_editing = p.name;
    m_name->setText(p.name);
    m_type->setCurrentIndex(std::max(0, m_type->findData(engineTypeName(p.type))));
    m_modelEdit->setText(p.model);
    m_baseUrl->setText(p.baseUrl);
    m_contextWindow->setText(p.contextWindow ? QString::number(*p.contextWindow) : QString());
    m_maxInFlight->setValue(p.maxInFlight.value_or(0));
    m_timeout->setText(p.timeoutMs ? QString::number(*p.timeoutMs) : QString());
    m_idleTimeout->setText(p.idleTimeoutMs ? QString::number(*p.idleTimeoutMs) : QString());
    m_key->clear();
    m_remove->setEnabled(true);
    const QModelIndex index = m_model->index(row);
    if (m_list->currentIndex() != index)
        m_list->setCurrentIndex(index);
    showKeyState();
}

EngineProfile EnginesPage::formProfile(QString *problem) const
{
    EngineProfile p;
    if (!m_editing.isEmpty() && m_profiles) {
        if (auto existing = m_profiles->get(m_editing))
            p = *existing; // keeps the settings this form does not show
    }
    p.name = m_name->text().trimmed();
    p.type = engineTypeFromName(m_type->currentData().toString()).value_or(EngineType::OpenAI);
    p.model = m_modelEdit->text().trimmed();
    p.baseUrl = m_baseUrl->text().trimmed();
    const QString window = m_contextWindow->text().trimmed();
    p.contextWindow = window.isEmpty() || window.toLongLong() <= 0
        ? std::nullopt
        : std::optional<qint64>(window.toLongLong());
    p.maxInFlight =
        m_maxInFlight->value() > 0 ? std::optional<int>(m_maxInFlight->value()) : std::nullopt;
    const auto optionalMs = [](const QLineEdit *edit) {
        const qint64 ms = edit->text().trimmed().toLongLong();
        return ms > 0 ? std::optional<qint64>(ms) : std::nullopt;
    };
    p.timeoutMs = optionalMs(m_timeout);
    p.idleTimeoutMs = optionalMs(m_idleTimeout);
    QString why;
    if (auto nameProblem = profileNameProblem(p.name))
        why = *nameProblem;
    else if (p.model.isEmpty())
        why = tr("Enter the model name.");
    else if (!p.baseUrl.isEmpty()) {
        const QUrl url(p.baseUrl);
        if (!url.isValid() || (url.scheme() != u"http" && url.scheme() != u"https")
            || url.host().isEmpty())
            why = tr("The base URL must start with http:// or https:// and name a host.");
    }
    if (problem)
        *problem = why;
    return p;
}

void EnginesPage::save()
{
    if (!m_profiles) {
        setStatus(tr("Profiles cannot be saved here."), NoticeBar::Kind::Error);
        return;
    }
    QString problem;
    const EngineProfile profile = formProfile(&problem);
    if (!problem.isEmpty()) {
        setStatus(problem);
        return;
    }
    const bool isNew = m_editing.isEmpty();
    if ((isNew || profile.name != m_editing) && m_profiles->contains(profile.name)) {
        setStatus(tr("An engine named %1 already exists.").arg(profile.name),
                  NoticeBar::Kind::Error);
        return;
    }
    setBusy(true);
    auto afterRename = [this, profile, isNew] {
        const QString key = m_key->text().trimmed();
        if (key.isEmpty() || !m_credentials) {
            if (!key.isEmpty())
                setStatus(tr("No keychain: the key was not stored."), NoticeBar::Kind::Error);
            commitProfile(profile, isNew);
            return;
        }
        setStatus(tr("Storing the key in the keychain…"));
        // The key goes first: when the keychain cannot take it, nothing is saved.
        m_credentials->writeKey(
            profile.name, key, this, [this, profile, isNew](const KeychainResult &written) {
                if (written.status != KeychainStatus::Ok) {
                    showKeychainProblem(written.message);
                    setStatus(tr("The key could not be stored, so %1 was not saved: %2")
                                  .arg(profile.name, written.message),
                              NoticeBar::Kind::Error);
                    setBusy(false);
                    return;
                }
                m_key->clear();
                m_model->setKeyState(profile.name, ProfileListModel::KeyState::Stored);
                commitProfile(profile, isNew);
            });
    };
    if (!isNew && profile.name != m_editing) {
        m_profiles->rename(
            m_editing, profile.name, this, [this, afterRename](const ProfileResult &result) {
                if (!result.ok) {
                    setStatus(tr("The engine could not be renamed: %1").arg(result.error),
                              NoticeBar::Kind::Error);
                    setBusy(false);
                    return;
                }
                afterRename();
            });
        return;
    }
    afterRename();
}

void EnginesPage::commitProfile(const EngineProfile &profile, bool isNew)
{
    const ProfileResult result = isNew ? m_profiles->add(profile) : m_profiles->update(profile);
    setBusy(false);
    if (!result.ok) {
        setStatus(tr("The engine could not be saved: %1").arg(result.error),
                  NoticeBar::Kind::Error);
        return;
    }
    const auto state = m_model->keyState(profile.name);
    m_model->reload();
    if (state == ProfileListModel::KeyState::Stored)
        m_model->setKeyState(profile.name, state);
    editProfile(profile.name);
    setStatus(tr("Saved %1.").arg(profile.name));
    Q_EMIT profilesChanged();
    Q_EMIT saved(profile.name);
}

void EnginesPage::removeCurrent()
{
    if (m_editing.isEmpty() || !m_profiles)
        return;
    const QString name = m_editing;
    setBusy(true);
    m_profiles->remove(name, this, [this, name](const ProfileResult &result) {
        setBusy(false);
        m_model->reload();
        newProfile();
        setStatus(
            result.ok
                ? tr("Removed %1 and its key.").arg(name)
                : tr("Removed %1, but its key could not be deleted: %2").arg(name, result.error),
            result.ok ? NoticeBar::Kind::Info : NoticeBar::Kind::Error);
        Q_EMIT profilesChanged();
        Q_EMIT removed(name);
    });
}

void EnginesPage::test()
{
    QString problem;
    const EngineProfile profile = formProfile(&problem);
    if (!problem.isEmpty()) {
        setStatus(problem);
        return;
    }
    if (m_probe->isRunning())
        return;
    m_test->setEnabled(false);
    setStatus(tr("Testing %1…").arg(profile.name));
    // A key typed and not saved yet is the one tested: Test checks what the dialog shows.
    m_probe->start(profile, QString(), m_key->text());
}

void EnginesPage::onProbeFinished(const EngineProbeResult &result)
{
    m_test->setEnabled(true);
    if (result.ok) {
        setStatus(tr("The engine answered “%1” in %2 ms (key from: %3).")
                      .arg(result.reply.trimmed().left(80))
                      .arg(result.durationMs)
                      .arg(result.keySource == keySourceName(KeySource::Typed)
                               ? tr("the key field, not saved yet")
                               : result.keySource));
    } else if (!result.sent) {
        // Stopped before the network: a missing model, base URL or key.
        setStatus(tr("Not tested, nothing was sent: %1").arg(result.message),
                  NoticeBar::Kind::Warning);
    } else {
        // The message names the category and HTTP status (ApiError::toString()).
        setStatus(tr("The test failed: %1").arg(result.message), NoticeBar::Kind::Error);
    }
    Q_EMIT tested(result.ok);
}

SettingsDialog::SettingsDialog(ProfileStore *profiles, CredentialStore *credentials,
                               QNetworkAccessManager *nam, QWidget *parent, CallService *service)
    : QWidget(parent, Qt::Dialog)
    , m_engines(new EnginesPage(profiles, credentials, nam, this))
    , m_limits(new LimitsPage(service, this))
    , m_telemetry(new TelemetryPage(credentials, this))
    , m_history(new HistorySettingsPage(credentials, this))
{
    setWindowTitle(tr("Settings"));
    auto *tabs = new QTabWidget(this);
    tabs->addTab(m_engines, tr("Engines and keys"));
    tabs->addTab(m_limits, tr("Calls at once"));
    tabs->addTab(m_telemetry, tr("Telemetry"));
    tabs->addTab(m_history, tr("History"));
    // A profile's own limit applies to the next call on that engine.
    if (service) {
        const QPointer<CallService> guard(service);
        connect(m_engines, &EnginesPage::profilesChanged, this, [guard] {
            if (guard)
                guard->loadLimitsFromSettings();
        });
    }
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(tabs, 1);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QWidget::close);
    resize(760, 460);
}

SettingsDialog::~SettingsDialog() = default;

} // namespace Callscope
