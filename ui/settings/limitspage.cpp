#include "ui/settings/limitspage.h"

#include "core/service/callservice.h"
#include "core/service/scheduler.h"

#include <QFormLayout>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Callscope {

LimitsPage::LimitsPage(CallService *service, QWidget *parent)
    : QWidget(parent)
    , m_service(service)
    , m_global(new QSpinBox(this))
    , m_engine(new QSpinBox(this))
    , m_note(new QLabel(this))
{
    setObjectName(u"limitsPage"_s);
    QSettings settings;
    m_global->setRange(1, 256);
    m_global->setValue(std::max(
        1, settings.value(u"scheduler/global_limit"_s, Scheduler::DefaultGlobalLimit).toInt()));
    m_engine->setRange(0, 256);
    m_engine->setSpecialValueText(tr("no limit of its own"));
    m_engine->setValue(std::max(0, settings.value(u"scheduler/engine_limit"_s, 0).toInt()));
    m_note->setWordWrap(true);
    m_note->setText(
        tr("Calls beyond these limits wait in a queue and start as soon as a place is free. "
           "When a provider answers “too many requests”, Callscope also sends fewer requests "
           "to that engine for a while, on its own. An engine profile can set its own limit "
           "(Engines and keys)."));

    auto *form = new QFormLayout;
    form->addRow(tr("Calls at once, all engines:"), m_global);
    form->addRow(tr("Calls at once, per engine:"), m_engine);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_note);
    layout->addStretch(1);
    connect(m_global, &QSpinBox::valueChanged, this, &LimitsPage::save);
    connect(m_engine, &QSpinBox::valueChanged, this, &LimitsPage::save);
}

LimitsPage::~LimitsPage() = default;

void LimitsPage::save()
{
    QSettings settings;
    settings.setValue(u"scheduler/global_limit"_s, m_global->value());
    settings.setValue(u"scheduler/engine_limit"_s, m_engine->value());
    if (m_service)
        m_service->loadLimitsFromSettings();
}

} // namespace Callscope
