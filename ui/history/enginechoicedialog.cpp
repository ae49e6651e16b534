#include "ui/history/enginechoicedialog.h"

#include "core/secrets/profilestore.h"
#include "ui/widgets/noticebar.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QUrl>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Callscope {

EngineChoiceDialog::EngineChoiceDialog(ProfileStore *profiles, QWidget *parent)
    : QDialog(parent)
    , m_profile(new QComboBox(this))
    , m_type(new QComboBox(this))
    , m_model(new QLineEdit(this))
    , m_baseUrl(new QLineEdit(this))
    , m_keyEnv(new QLineEdit(this))
{
    setWindowTitle(tr("Replay on another engine"));
    // Wide enough for its title (the revision's names the call) and a full base URL.
    setMinimumWidth(560);
    m_profile->addItem(tr("(no profile: type and model below)"));
    if (profiles) {
        for (const EngineProfile &p : profiles->list())
            m_profile->addItem(u"%1 (%2, %3)"_s.arg(p.name, engineTypeName(p.type), p.model),
                               p.name);
    }
    for (const QString &name : engineTypeNames()) {
        if (name != u"replay")
            m_type->addItem(name, name);
    }
    m_baseUrl->setPlaceholderText(tr("the provider's public endpoint"));
    m_keyEnv->setPlaceholderText(tr("e.g. OPENAI_API_KEY"));

    auto *form = new QFormLayout;
    form->addRow(tr("Profile:"), m_profile);
    form->addRow(tr("Engine type:"), m_type);
    form->addRow(tr("Model:"), m_model);
    form->addRow(tr("Base URL:"), m_baseUrl);
    form->addRow(tr("Key variable:"), m_keyEnv);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Replay"));
    // Why the choice cannot be replayed yet, said in the dialog itself.
    m_notice = new NoticeBar(this);
    m_notice->setObjectName(u"engineChoiceNotice"_s);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_notice);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &EngineChoiceDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &EngineChoiceDialog::reject);
    connect(m_profile, &QComboBox::currentIndexChanged, this, &EngineChoiceDialog::updateEnabled);
    updateEnabled();
}

EngineChoiceDialog::~EngineChoiceDialog() = default;

void EngineChoiceDialog::updateEnabled()
{
    const bool manual = m_profile->currentIndex() <= 0;
    for (QWidget *w : std::initializer_list<QWidget *> { m_type, m_model, m_baseUrl, m_keyEnv })
        w->setEnabled(manual);
}

void EngineChoiceDialog::setEngine(const EngineSpec &engine)
{
    const int profileIndex = m_profile->findData(engine.profile);
    m_profile->setCurrentIndex(profileIndex > 0 ? profileIndex : 0);
    const int typeIndex = m_type->findData(engineTypeName(engine.type));
    if (typeIndex >= 0)
        m_type->setCurrentIndex(typeIndex);
    m_model->setText(engine.model);
    m_baseUrl->setText(engine.baseUrl);
    m_keyEnv->setText(engine.apiKeyEnv);
}

EngineSpec EngineChoiceDialog::engine() const
{
    EngineSpec spec;
    if (m_profile->currentIndex() > 0) {
        spec.profile = m_profile->currentData().toString();
        spec.typeFromProfile = true;
        return spec;
    }
    spec.type = engineTypeFromName(m_type->currentData().toString()).value_or(EngineType::OpenAI);
    spec.model = m_model->text().trimmed();
    spec.baseUrl = m_baseUrl->text().trimmed();
    spec.apiKeyEnv = m_keyEnv->text().trimmed();
    return spec;
}

QString EngineChoiceDialog::problem() const
{
    if (m_profile->currentIndex() > 0)
        return {};
    if (m_model->text().trimmed().isEmpty())
        return tr("Enter the model to replay on.");
    const QString base = m_baseUrl->text().trimmed();
    if (!base.isEmpty()) {
        const QUrl url(base);
        if (!url.isValid() || (url.scheme() != u"http" && url.scheme() != u"https")
            || url.host().isEmpty())
            return tr("The base URL must start with http:// or https:// and name a host.");
    }
    return {};
}

void EngineChoiceDialog::accept()
{
    if (const QString why = problem(); !why.isEmpty()) {
        m_notice->showMessage(why, NoticeBar::Kind::Error);
        return;
    }
    QDialog::accept();
}

} // namespace Callscope
