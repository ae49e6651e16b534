#pragma once

// One model request and its reply as JSON, in two tabs (Request, Response), read-only and
// highlighted. A reply kept only in part (the first few MiB of a large body) says so above the
// tabs. Used by the Run view's raw exchange dialog and by the stored call's tab.

#include <QByteArray>
#include <QJsonObject>
#include <QWidget>

class QLabel;
class QTabWidget;

namespace Callscope {

class JsonEditor;

class RawExchangeView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RawExchangeView)

public:
    explicit RawExchangeView(QWidget *parent = nullptr);
    ~RawExchangeView() override;

    // `response` is shown pretty-printed when it is JSON, as text otherwise; `responseBytes`
    // is the whole reply's size (larger than `response` when only its start was kept).
    void setExchange(const QJsonObject &request, const QByteArray &response, qint64 responseBytes);
    // The same for a request kept as bytes (a stored call's): pretty-printed when it is JSON,
    // as text when only its start was kept (`requestBytes` is its whole size).
    void setExchange(const QByteArray &request, qint64 requestBytes, const QByteArray &response,
                     qint64 responseBytes);
    void clear();

    JsonEditor *requestEditor() const { return m_request; }
    JsonEditor *responseEditor() const { return m_response; }
    QTabWidget *tabs() const { return m_tabs; }
    // The "shows the first … of the …" note; empty when the whole request and reply are shown.
    QString cutText() const;

private:
    QTabWidget *m_tabs = nullptr;
    JsonEditor *m_request = nullptr;
    JsonEditor *m_response = nullptr;
    QLabel *m_cut = nullptr; // only while the reply is shown in part
};

} // namespace Callscope
