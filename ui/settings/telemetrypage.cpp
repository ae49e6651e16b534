#include "ui/settings/telemetrypage.h"

#include "core/eval/telemetrysettings.h"
#include "core/secrets/credentialstore.h"
#include "core/telemetry/genaispans.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QVBoxLayout>

#include <memory>

using namespace Qt::StringLiterals;

namespace Callscope {

TelemetryPage::TelemetryPage(CredentialStore *credentials, QWidget *parent)
    : QWidget(parent)
    , m_credentials(credentials)
    , m_enabled(new QCheckBox(tr("Send every call to an OpenTelemetry collector"), this))
    , m_endpoint(new QLineEdit(this))
    , m_protocol(new QComboBox(this))
    , m_capture(new QComboBox(this))
    , m_compression(new QComboBox(this))
    , m_traceUrl(new QLineEdit(this))
    , m_headers(new QListWidget(this))
    , m_headerName(new QLineEdit(this))
    , m_headerValue(new QLineEdit(this))
    , m_addHeader(new QPushButton(tr("Add header"), this))
    , m_removeHeader(new QPushButton(tr("Remove header"), this))
    , m_save(new QPushButton(tr("Save"), this))
    , m_test(new QPushButton(tr("Test"), this))
    , m_status(new NoticeBar(this))
{
    setObjectName(u"telemetryPage"_s);
    m_endpoint->setPlaceholderText(u"http://localhost:4318"_s);
    m_protocol->addItem(tr("protobuf over HTTP (http/protobuf)"), u"http/protobuf"_s);
    m_protocol->addItem(tr("JSON over HTTP (http/json)"), u"http/json"_s);
    m_capture->addItem(tr("none: no prompts, messages or tool data"), u"none"_s);
    m_capture->addItem(tr("metadata: tool names and sizes"), u"metadata"_s);
    m_capture->addItem(tr("full: prompts, messages, tool arguments and results"), u"full"_s);
    m_compression->addItem(tr("none"), u"none"_s);
    m_compression->addItem(tr("gzip"), u"gzip"_s);
    m_headerName->setPlaceholderText(tr("name, for example Authorization"));
    m_headerValue->setPlaceholderText(tr("value (kept in the keychain)"));
    m_headerValue->setEchoMode(QLineEdit::Password);
    m_traceUrl->setObjectName(u"telemetryTraceUrl"_s);
    m_traceUrl->setPlaceholderText(u"http://localhost:16686/trace/{trace_id}"_s);
    m_traceUrl->setToolTip(
        tr("The address of a trace in your viewer, with {trace_id} where the trace's id goes "
           "({span_id}: the call's own span). History and the call's tab then offer Open Trace."));

    const TelemetrySettings stored = TelemetrySettings::load(QSettings());
    m_enabled->setChecked(stored.enabled);
    m_endpoint->setText(stored.endpoint);
    m_protocol->setCurrentIndex(std::max(0, m_protocol->findData(stored.protocol)));
    m_capture->setCurrentIndex(std::max(0, m_capture->findData(stored.capture)));
    m_compression->setCurrentIndex(std::max(0, m_compression->findData(stored.compression)));
    m_names = stored.headerNames;
    m_traceUrl->setText(stored.traceUrl);
    showHeaders();

    auto *note = new QLabel(
        tr("Header values often hold tokens: they are stored in the system keychain, never in "
           "the settings file, and never shown again. Changes apply the next time the studio "
           "starts. The OTEL_EXPORTER_OTLP_* variables, when set, win over this page."),
        this);
    note->setWordWrap(true);

    auto *headerRow = new QHBoxLayout;
    headerRow->addWidget(m_headerName, 1);
    headerRow->addWidget(m_headerValue, 1);
    headerRow->addWidget(m_addHeader);
    auto *headerBox = new QVBoxLayout;
    headerBox->addWidget(m_headers);
    headerBox->addLayout(headerRow);
    headerBox->addWidget(m_removeHeader, 0, Qt::AlignLeft);

    auto *form = new QFormLayout;
    form->addRow(m_enabled);
    form->addRow(tr("Endpoint:"), m_endpoint);
    form->addRow(tr("Protocol:"), m_protocol);
    form->addRow(tr("Headers:"), headerBox);
    form->addRow(tr("Content sent:"), m_capture);
    form->addRow(tr("Compression:"), m_compression);
    form->addRow(tr("Trace link:"), m_traceUrl);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_test);
    buttons->addStretch(1);
    buttons->addWidget(m_save);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(m_status);
    layout->addStretch(1);
    layout->addLayout(buttons);
    m_status->hide();

    connect(m_addHeader, &QPushButton::clicked, this, &TelemetryPage::addHeader);
    connect(m_removeHeader, &QPushButton::clicked, this, &TelemetryPage::removeHeader);
    connect(m_save, &QPushButton::clicked, this, &TelemetryPage::save);
    connect(m_test, &QPushButton::clicked, this, &TelemetryPage::test);
}

TelemetryPage::~TelemetryPage() = default;

void TelemetryPage::setStatus(const QString &text, NoticeBar::Kind kind)
{
    m_status->showMessage(text, kind);
    m_status->show();
}

void TelemetryPage::showHeaders()
{
    m_headers->clear();
    for (const QString &name : std::as_const(m_names)) {
        m_headers->addItem(m_typed.contains(name) ? tr("%1 (value typed, not saved yet)").arg(name)
                                                  : tr("%1 (value in the keychain)").arg(name));
    }
    m_removeHeader->setEnabled(!m_names.isEmpty());
}

void TelemetryPage::addHeader()
{
    static const QRegularExpression token(u"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$"_s);
    const QString name = m_headerName->text().trimmed();
    if (!token.match(name).hasMatch()) {
        setStatus(tr("“%1” is not a header name.").arg(name), NoticeBar::Kind::Warning);
        return;
    }
    if (m_headerValue->text().isEmpty()) {
        setStatus(tr("The header %1 needs a value.").arg(name), NoticeBar::Kind::Warning);
        return;
    }
    for (const QString &existing : std::as_const(m_names)) {
        if (existing.compare(name, Qt::CaseInsensitive) == 0)
            m_names.removeOne(existing);
    }
    m_names.append(name);
    m_removed.removeAll(name);
    m_typed.insert(name, m_headerValue->text());
    m_headerName->clear();
    m_headerValue->clear();
    showHeaders();
}

void TelemetryPage::removeHeader()
{
    const int row = m_headers->currentRow() >= 0 ? m_headers->currentRow() : 0;
    if (row >= m_names.size())
        return;
    const QString name = m_names.takeAt(row);
    m_typed.remove(name);
    m_removed.append(name);
    showHeaders();
}

TelemetrySettings TelemetryPage::formSettings() const
{
    TelemetrySettings s;
    s.enabled = m_enabled->isChecked();
    s.endpoint = m_endpoint->text().trimmed();
    s.protocol = m_protocol->currentData().toString();
    s.capture = m_capture->currentData().toString();
    s.compression = m_compression->currentData().toString();
    s.headerNames = m_names;
    s.traceUrl = m_traceUrl->text().trimmed();
    return s;
}

void TelemetryPage::save()
{
    const TelemetrySettings s = formSettings();
    if (s.enabled && s.endpoint.isEmpty()) {
        setStatus(tr("Give an endpoint to send to, or turn the export off."),
                  NoticeBar::Kind::Warning);
        Q_EMIT saved(false);
        return;
    }
    if (const QString problem = Telemetry::traceViewerTemplateProblem(s.traceUrl);
        !problem.isEmpty()) {
        setStatus(problem, NoticeBar::Kind::Warning);
        m_traceUrl->setFocus();
        Q_EMIT saved(false);
        return;
    }
    {
        QSettings settings;
        s.save(settings);
    }
    // The values: written to (or deleted from) the keychain one after another.
    struct Pending
    {
        int left = 0;
        QStringList problems;
    };
    auto pending = std::make_shared<Pending>();
    pending->left = int(m_typed.size() + m_removed.size());
    const auto finish = [this, pending] {
        if (--pending->left > 0)
            return;
        if (pending->problems.isEmpty()) {
            setStatus(tr("Saved. The studio sends with these settings from its next start."));
            Q_EMIT saved(true);
        } else {
            setStatus(
                tr("Saved, but the keychain refused: %1").arg(pending->problems.join(u"; "_s)),
                NoticeBar::Kind::Error);
            Q_EMIT saved(false);
        }
    };
    if (pending->left == 0) {
        ++pending->left;
        finish();
        return;
    }
    for (auto it = m_typed.cbegin(); it != m_typed.cend(); ++it) {
        const QString name = it.key();
        m_credentials->writeKey(TelemetrySettings::headerEntry(name), it.value(), this,
                                [pending, finish, name](const KeychainResult &result) {
                                    if (result.status != KeychainStatus::Ok)
                                        pending->problems.append(name + u": "_s + result.message);
                                    finish();
                                });
    }
    for (const QString &name : std::as_const(m_removed)) {
        m_credentials->deleteKey(TelemetrySettings::headerEntry(name), this,
                                 [pending, finish, name](const KeychainResult &result) {
                                     if (!result.usable())
                                         pending->problems.append(name + u": "_s + result.message);
                                     finish();
                                 });
    }
    m_typed.clear();
    m_removed.clear();
    showHeaders();
}

void TelemetryPage::test()
{
    const TelemetrySettings s = formSettings();
    Telemetry::OtlpConfig config;
    config.tracesUrl = Telemetry::OtlpConfig::tracesUrlFor(s.endpoint);
    config.protocol = Telemetry::OtlpConfig::protocolFromName(s.protocol)
                          .value_or(Telemetry::OtlpProtocol::Protobuf);
    config.gzip = s.compression == u"gzip"_s;
    const QString scheme = config.tracesUrl.scheme();
    if (s.endpoint.isEmpty() || !config.tracesUrl.isValid() || config.tracesUrl.host().isEmpty()
        || (scheme != u"http"_s && scheme != u"https"_s)) {
        setStatus(
            tr("Not tested, nothing was sent: “%1” is not an http(s) address.").arg(s.endpoint),
            NoticeBar::Kind::Warning);
        Q_EMIT tested(false);
        return;
    }
    m_test->setEnabled(false);
    setStatus(tr("Sending a test span…"));
    // Stored values are read from the keychain; values typed since the last save are used
    // as they are.
    QStringList stored;
    for (const QString &name : std::as_const(m_names)) {
        if (!m_typed.contains(name))
            stored.append(name);
    }
    const QHash<QString, QString> typed = m_typed;
    readTelemetryHeaders(
        m_credentials, stored, this,
        [this, config, typed](const HttpHeaderList &headers, const QStringList &problems) mutable {
            config.headers = headers;
            for (auto it = typed.cbegin(); it != typed.cend(); ++it)
                config.headers.append({ it.key().toLatin1(), it.value().toUtf8() });
            if (!problems.isEmpty()) {
                m_test->setEnabled(true);
                setStatus(tr("Not tested, nothing was sent: %1").arg(problems.join(u' ')),
                          NoticeBar::Kind::Warning);
                Q_EMIT tested(false);
                return;
            }
            probeOtlpEndpoint(config, this,
                              [this](const OtlpProbeResult &result) { onProbe(result); });
        });
}

void TelemetryPage::onProbe(const OtlpProbeResult &result)
{
    m_test->setEnabled(true);
    const bool ok = result.outcome == OtlpProbeResult::Outcome::Accepted;
    setStatus(result.text, ok ? NoticeBar::Kind::Info : NoticeBar::Kind::Error);
    Q_EMIT tested(ok);
}

} // namespace Callscope
