#include "ui/widgets/rawexchangeview.h"

#include "ui/widgets/jsoneditor.h"

#include <QJsonDocument>
#include <QLabel>
#include <QLocale>
#include <QStringList>
#include <QTabWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Callscope {

RawExchangeView::RawExchangeView(QWidget *parent)
    : QWidget(parent)
    , m_tabs(new QTabWidget(this))
    , m_request(new JsonEditor(m_tabs))
    , m_response(new JsonEditor(m_tabs))
{
    m_request->setObjectName(u"rawRequest"_s);
    m_request->setAccessibleName(tr("Raw request body"));
    m_request->setReadOnly(true);
    m_response->setObjectName(u"rawResponse"_s);
    m_response->setAccessibleName(tr("Raw response body"));
    m_response->setReadOnly(true);
    m_tabs->addTab(m_request, tr("&Request"));
    m_tabs->addTab(m_response, tr("R&esponse"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs, 1);
}

RawExchangeView::~RawExchangeView() = default;

void RawExchangeView::setExchange(const QJsonObject &request, const QByteArray &response,
                                  qint64 responseBytes)
{
    const QByteArray body = QJsonDocument(request).toJson(QJsonDocument::Compact);
    setExchange(body, body.size(), response, responseBytes);
}

namespace {

QString shown(const QByteArray &bytes)
{
    const QJsonDocument parsed = QJsonDocument::fromJson(bytes);
    return parsed.isNull() ? QString::fromUtf8(bytes)
                           : QString::fromUtf8(parsed.toJson(QJsonDocument::Indented));
}

} // namespace

void RawExchangeView::setExchange(const QByteArray &request, qint64 requestBytes,
                                  const QByteArray &response, qint64 responseBytes)
{
    m_request->setJsonText(shown(request));
    m_response->setJsonText(shown(response));
    // Only the start of a large body is kept; say so rather than show it as the whole. The
    // note exists only then.
    QStringList notes;
    const QLocale locale;
    if (requestBytes > request.size())
        notes.append(tr("The request shows the first %1 of its %2; the rest was not kept.")
                         .arg(locale.formattedDataSize(request.size()),
                              locale.formattedDataSize(requestBytes)));
    if (responseBytes > response.size())
        notes.append(tr("The response shows the first %1 of the %2 received; the rest was "
                        "decoded as it arrived and not kept.")
                         .arg(locale.formattedDataSize(response.size()),
                              locale.formattedDataSize(responseBytes)));
    if (!notes.isEmpty()) {
        if (!m_cut) {
            m_cut = new QLabel(this);
            m_cut->setObjectName(u"rawResponseCut"_s);
            m_cut->setWordWrap(true);
            static_cast<QVBoxLayout *>(layout())->insertWidget(0, m_cut);
        }
        m_cut->setText(notes.join(u' '));
    } else {
        delete m_cut;
        m_cut = nullptr;
    }
}

void RawExchangeView::clear()
{
    m_request->setJsonText({});
    m_response->setJsonText({});
    delete m_cut;
    m_cut = nullptr;
}

QString RawExchangeView::cutText() const
{
    return m_cut ? m_cut->text() : QString();
}

} // namespace Callscope
