#pragma once

// A stored call shown read-only: a summary line, the transcript (the neutral messages), the
// parsed result and the raw JSON of the row.

#include "core/model/callrecord.h"
#include "core/store/storeerror.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QTabWidget;
class QTextBrowser;

namespace Callscope {

class CallStore;

class CallView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CallView)

public:
    explicit CallView(QWidget *parent = nullptr);
    ~CallView() override;

    // A call with the texts the view shows of it. Printing a reply of tens of MB takes long, so
    // a caller that reads a call off the GUI thread prepares them there too (prepare() only
    // reads its arguments).
    struct Shown
    {
        CallRecord record;
        QString transcriptHtml;
        QString resultText;
        QString rawText;
    };
    static Shown prepare(CallRecord record, const QPalette &palette);
    // Reads call `id` and prepares it; for the reader's thread.
    static StoreResult<Shown> read(CallStore &store, qint64 id, const QPalette &palette);
    void setCall(const Shown &shown);
    void setCall(const CallRecord &record) { setCall(prepare(record, palette())); }
    void clear();
    const CallRecord &call() const { return m_record; }

    QString summaryText() const;
    QString transcriptText() const; // plain text of the transcript tab
    QString rawJsonText() const;
    QTabWidget *tabs() const { return m_tabs; }

    // HTML of neutral messages, shared with the session chat view.
    static QString messageHtml(const Message &message, const QPalette &palette);
    static QString transcriptHtml(const QList<Message> &messages, const QString &systemPrompt,
                                  const QPalette &palette);
    static QString prettyJson(const QJsonValue &value);
    // What a view shows of a long text: its first `most` characters and how long it is.
    // A transcript shows a message's first 8,000 characters: Qt lays out a long run without a
    // break (minified JSON, base64) in time that grows with its square, and 20,000 took the
    // window 170 ms. The Result and Raw JSON pages show 64 KiB.
    static constexpr qsizetype kShownMessageChars = 8000;
    static constexpr qsizetype kShownResultChars = 64 * 1024;
    static QString shownText(const QString &text, qsizetype most);

private:
    void fillTexts(); // the Result and Raw JSON pages, when one of them is in front

    CallRecord m_record;
    QString m_resultText;
    QString m_rawText;
    bool m_textsStale = false; // the pages do not show m_record yet
    QLabel *m_summary = nullptr;
    QTabWidget *m_tabs = nullptr;
    QTextBrowser *m_transcript = nullptr;
    QPlainTextEdit *m_result = nullptr;
    QPlainTextEdit *m_raw = nullptr;
};

} // namespace Callscope
