#pragma once

// Settings > Telemetry: where the studio sends its calls as OpenTelemetry spans (endpoint,
// protocol, headers, capture level, compression) and a Test that sends one small span there
// and says what happened. Everything but the header values goes into the settings (group
// "telemetry"); the header values, which usually hold tokens, go into the OS keychain and are
// never shown back. The export reads the settings when the studio starts.

#include "ui/widgets/noticebar.h"

#include <QHash>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace Callscope {

class CredentialStore;
struct OtlpProbeResult;
struct TelemetrySettings;

class TelemetryPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TelemetryPage)

public:
    // `credentials` holds the header values; not owned.
    explicit TelemetryPage(CredentialStore *credentials, QWidget *parent = nullptr);
    ~TelemetryPage() override;

    QCheckBox *enabledBox() const { return m_enabled; }
    QLineEdit *endpointEdit() const { return m_endpoint; }
    QComboBox *protocolCombo() const { return m_protocol; }
    QComboBox *captureCombo() const { return m_capture; }
    QComboBox *compressionCombo() const { return m_compression; }
    QLineEdit *traceUrlEdit() const { return m_traceUrl; }
    QListWidget *headerList() const { return m_headers; }
    QLineEdit *headerNameEdit() const { return m_headerName; }
    QLineEdit *headerValueEdit() const { return m_headerValue; }
    QPushButton *addHeaderButton() const { return m_addHeader; }
    QPushButton *removeHeaderButton() const { return m_removeHeader; }
    QPushButton *saveButton() const { return m_save; }
    QPushButton *testButton() const { return m_test; }
    QString statusText() const { return m_status->text(); }

public Q_SLOTS:
    void addHeader();
    void removeHeader();
    void save();
    void test();

Q_SIGNALS:
    void saved(bool ok); // settings written and every header value stored (or not)
    void tested(bool ok);

private:
    TelemetrySettings formSettings() const;
    void showHeaders();
    void setStatus(const QString &text, NoticeBar::Kind kind = NoticeBar::Kind::Info);
    void onProbe(const OtlpProbeResult &result);

    CredentialStore *m_credentials = nullptr;
    QCheckBox *m_enabled = nullptr;
    QLineEdit *m_endpoint = nullptr;
    QComboBox *m_protocol = nullptr;
    QComboBox *m_capture = nullptr;
    QComboBox *m_compression = nullptr;
    QLineEdit *m_traceUrl = nullptr;
    QListWidget *m_headers = nullptr;
    QLineEdit *m_headerName = nullptr;
    QLineEdit *m_headerValue = nullptr;
    QPushButton *m_addHeader = nullptr;
    QPushButton *m_removeHeader = nullptr;
    QPushButton *m_save = nullptr;
    QPushButton *m_test = nullptr;
    NoticeBar *m_status = nullptr;
    QStringList m_names; // headers the form lists
    QHash<QString, QString> m_typed; // values typed since the last save, by name (memory only)
    QStringList m_removed; // stored headers taken off the list since the last save
};

} // namespace Callscope
