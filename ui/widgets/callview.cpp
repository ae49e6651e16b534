#include "ui/widgets/callview.h"

#include "core/loop/edits.h"
#include "core/store/callstore.h"
#include "ui/widgets/calldiff.h"
#include "ui/widgets/displaynames.h"

#include <QFontDatabase>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

QString esc(const QString &text)
{
    return text.toHtmlEscaped().replace(u'\n', u"<br>"_s);
}

QString roleTitle(Role role)
{
    switch (role) {
    case Role::System:
        return CallView::tr("System");
    case Role::User:
        return CallView::tr("User");
    case Role::Assistant:
        return CallView::tr("Assistant");
    case Role::Tool:
        return CallView::tr("Tool results");
    }
    return {};
}

} // namespace

QString CallView::prettyJson(const QJsonValue &value)
{
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Indented))
            .trimmed();
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Indented))
            .trimmed();
    if (value.isString())
        return value.toString();
    if (value.isNull() || value.isUndefined())
        return {};
    const QJsonArray wrapped { value };
    const QString text = QString::fromUtf8(QJsonDocument(wrapped).toJson(QJsonDocument::Compact));
    return text.mid(1, text.size() - 2);
}

QString CallView::shownText(const QString &text, qsizetype most)
{
    if (text.size() <= most)
        return text;
    return text.left(most) + tr("… (%1 characters in all)").arg(QLocale().toString(text.size()));
}

QString CallView::messageHtml(const Message &message, const QPalette &palette)
{
    const QString muted = palette.color(QPalette::PlaceholderText).name();
    QString html = u"<p style='margin:0 0 6px 0'><b>%1</b>"_s.arg(esc(roleTitle(message.role)));
    if (message.providerData.value(u"callscope_output_copy"_s).toBool())
        html += u" <span style='color:%1'>%2</span>"_s.arg(muted, esc(tr("(accepted output)")));
    if (const QString mode = message.providerData.value(u"callscope_output_mode"_s).toString();
        !mode.isEmpty())
        html += u" <span style='color:%1'>%2</span>"_s.arg(
            muted, esc(tr("(accepted output, %1 mode)").arg(mode)));
    html += u"<br>"_s;
    if (!message.text.isEmpty())
        html += esc(shownText(message.text, kShownMessageChars)) + u"<br>"_s;
    if (!message.refusal.isEmpty())
        html += u"<i>%1</i><br>"_s.arg(esc(tr("Refusal: %1").arg(message.refusal)));
    for (const Attachment &a : message.attachments) {
        html += u"<span style='color:%1'>%2</span><br>"_s.arg(
            muted, esc(tr("[attachment %1, %2, %3 bytes]").arg(a.name, a.mediaType).arg(a.size)));
    }
    for (const ToolCall &call : message.toolCalls) {
        html += u"<tt>&#8594; %1(%2)</tt> <span style='color:%3'>%4</span><br>"_s.arg(
            esc(call.name),
            esc(shownText(prettyJson(call.arguments), kShownMessageChars).simplified()), muted,
            esc(call.id));
        if (const auto asked = modelArguments(call))
            html += u"<span style='color:%1'>%2</span> <tt>%3(%4)</tt><br>"_s.arg(
                muted, esc(tr("Arguments edited by you; the model asked for")), esc(call.name),
                esc(prettyJson(*asked).simplified()));
    }
    for (const ToolResult &result : message.toolResults) {
        QString content = result.content;
        if (content.size() > 2000)
            content = content.left(2000)
                + tr("… (%1 characters in all)").arg(QLocale().toString(result.content.size()));
        html += u"<tt>&#8592; %1%2:</tt> %3<br>"_s.arg(
            esc(result.name), result.isError ? esc(tr(" (error)")) : QString(), esc(content));
        if (result.toolOriginal) {
            QString original = result.toolOriginal->content;
            if (original.size() > 2000)
                original = original.left(2000)
                    + tr("… (%1 characters in all)")
                          .arg(QLocale().toString(result.toolOriginal->content.size()));
            html += u"<span style='color:%1'>%2</span> <tt>%3</tt><br>"_s.arg(
                muted,
                esc(result.toolOriginal->isError
                        ? tr("Result edited by you; the tool returned (error):")
                        : tr("Result edited by you; the tool returned:")),
                esc(original));
        }
    }
    if (html.endsWith(u"<br>"_s))
        html.chop(4);
    html += u"</p>"_s;
    return html;
}

QString CallView::transcriptHtml(const QList<Message> &messages, const QString &systemPrompt,
                                 const QPalette &palette)
{
    QString html;
    if (!systemPrompt.isEmpty())
        html += messageHtml(Message::system(systemPrompt), palette);
    for (const Message &m : messages)
        html += messageHtml(m, palette);
    return html;
}

CallView::CallView(QWidget *parent)
    : QWidget(parent)
    , m_summary(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_transcript(new QTextBrowser(this))
    , m_result(new QPlainTextEdit(this))
    , m_raw(new QPlainTextEdit(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_summary);
    layout->addWidget(m_tabs, 1);
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    for (QPlainTextEdit *edit : { m_result, m_raw }) {
        edit->setReadOnly(true);
        edit->setFont(mono);
        edit->setLineWrapMode(QPlainTextEdit::NoWrap);
    }
    m_transcript->setOpenLinks(false);
    m_tabs->addTab(m_transcript, tr("Transcript"));
    m_tabs->addTab(m_result, tr("Result"));
    m_tabs->addTab(m_raw, tr("Raw JSON"));
    // The Result and Raw JSON pages are printed when they are first shown: printing a call of
    // tens of MB takes long, and most calls are looked at in their transcript.
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] { fillTexts(); });
    clear();
}

void CallView::fillTexts()
{
    if (!m_textsStale || m_tabs->currentWidget() == m_transcript)
        return;
    m_textsStale = false;
    m_result->setPlainText(m_resultText);
    m_raw->setPlainText(m_rawText);
}

CallView::~CallView() = default;

void CallView::clear()
{
    m_record = CallRecord();
    m_resultText.clear();
    m_rawText.clear();
    m_summary->setText(tr("No call selected."));
    m_transcript->clear();
    m_result->clear();
    m_raw->clear();
    m_textsStale = false;
}

CallView::Shown CallView::prepare(CallRecord record, const QPalette &palette)
{
    Shown shown;
    shown.transcriptHtml =
        transcriptHtml(messagesFromJson(record.messages), record.systemPrompt, palette);
    shown.resultText = shownText(prettyJson(record.response), kShownResultChars);
    shown.rawText = shownText(prettyJson(record.toJson()), kShownResultChars);
    shown.record = std::move(record);
    return shown;
}

StoreResult<CallView::Shown> CallView::read(CallStore &store, qint64 id, const QPalette &palette)
{
    auto call = store.getCall(id);
    if (!call)
        return call.error();
    return prepare(std::move(call.value()), palette);
}

void CallView::setCall(const Shown &shown)
{
    const CallRecord &record = shown.record;
    m_record = record;
    m_resultText = shown.resultText;
    m_rawText = shown.rawText;
    QString summary = tr("Call %1 · %2 · %3 · %4 %5")
                          .arg(record.id)
                          .arg(record.kind, callStatusDisplayName(record.status), record.engineType,
                               record.model);
    if (const QString mode = recordOutputMode(record); !mode.isEmpty())
        summary += u" · "_s + tr("output: %1").arg(mode);
    if (!record.usage.isEmpty())
        summary += u" · "_s + formatTokens(record.usage);
    if (record.parent)
        summary += u" · "_s + tr("parent %1").arg(*record.parent);
    if (!record.person.isEmpty())
        summary += u" · "_s + tr("by %1 on %2").arg(record.person, record.machine);
    if (!record.error.isEmpty())
        summary += u"\n"_s
            + tr("Error (%1): %2")
                  .arg(errorCategoryDisplayName(record.errorCategory), record.error);
    m_summary->setText(summary);
    m_transcript->setHtml(shown.transcriptHtml);
    // The Result and Raw JSON pages are filled once their page is in front.
    m_result->clear();
    m_raw->clear();
    m_textsStale = true;
    fillTexts();
}

QString CallView::summaryText() const
{
    return m_summary->text();
}

QString CallView::transcriptText() const
{
    return m_transcript->toPlainText();
}

QString CallView::rawJsonText() const
{
    return m_rawText;
}

} // namespace Callscope
