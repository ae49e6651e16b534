#pragma once

// A stored call shown read-only: a summary line, the transcript (the neutral messages), the
// parsed result and the raw JSON of the row.

#include "core/model/callrecord.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QTabWidget;
class QTextBrowser;

namespace Callscope {

class CallView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CallView)

public:
    explicit CallView(QWidget *parent = nullptr);
    ~CallView() override;

    void setCall(const CallRecord &record);
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
    static constexpr qsizetype kShownMessageChars = 20000;
    static constexpr qsizetype kShownResultChars = 64 * 1024;
    static QString shownText(const QString &text, qsizetype most);

private:
    void fillTexts(); // the Result and Raw JSON pages, when one of them is in front

    CallRecord m_record;
    bool m_textsStale = false; // the pages do not show m_record yet
    QLabel *m_summary = nullptr;
    QTabWidget *m_tabs = nullptr;
    QTextBrowser *m_transcript = nullptr;
    QPlainTextEdit *m_result = nullptr;
    QPlainTextEdit *m_raw = nullptr;
};

} // namespace Callscope
