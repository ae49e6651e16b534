#pragma once

// A text/event-stream decoder that takes bytes in any chunking (a byte at a time works):
// "\n", "\r\n" and "\r" line ends, comments, multi-line data, a missing final blank line.
//
// Two additions to the WHATWG rules:
//  - Runaway guard: a line or an event's data growing past MaxEventBytes puts the decoder in
//    an error state (hasError()); it then drops its buffers and ignores further input, so a
//    broken server cannot make us buffer without bound. The HTTP job checks hasError().
//  - Raw JSON fallback: a line that is not a field and starts with '{' or '[' (Gemini sends
//    errors as bare JSON, possibly pretty-printed over several lines) is collected until its
//    brackets balance and delivered as an event named SseEvent::rawJsonEvent().

#include <QByteArray>
#include <QList>
#include <QString>

namespace Callscope {

struct SseEvent
{
    QString event; // "" when the stream sent no event: field
    QByteArray data; // data lines joined with "\n"
    QString id;

    friend bool operator==(const SseEvent &, const SseEvent &) = default;

    // The event name given to bare JSON lines (see the raw JSON fallback above).
    static QString rawJsonEvent() { return QStringLiteral("raw-json"); }
};

class SseDecoder
{
public:
    // Appends bytes; returns the events completed by them.
    QList<SseEvent> feed(const QByteArray &bytes);
    // End of stream: returns a last event that had no terminating blank line, if any.
    QList<SseEvent> finish();
    // Bytes held back waiting for a line end (for limits on runaway lines).
    qsizetype pendingBytes() const;

    // Largest line or event data accepted before the decoder gives up (16 MiB).
    static constexpr qsizetype MaxEventBytes = 16 * 1024 * 1024;
    // True once a line or event exceeded MaxEventBytes; the stream must be abandoned.
    bool hasError() const { return m_error; }
    // The reconnection delay the stream asked for with a "retry:" field; -1 when it gave none.
    qint64 retryMs() const { return m_retryMs; }
    // The last event ID the stream set (what a reconnection sends as Last-Event-ID).
    QString lastEventId() const { return m_id; }
    QString errorString() const;

private:
    void processLine(QByteArrayView line, QList<SseEvent> &out);
    void dispatch(QList<SseEvent> &out);

    QByteArray m_buffer;
    bool m_lastWasCr = false;
    QString m_event;
    QByteArray
        m_eventName; // the last event: field and its text, shared by the events that repeat it
    QString m_eventText;
    QByteArray m_data;
    bool m_hasData = false;
    QString m_id;
    qint64 m_retryMs = -1;

    // Raw JSON fallback state: the collected text and the bracket scanner.
    void scanRawJson(QByteArrayView line);
    QByteArray m_raw;
    bool m_inRaw = false;
    int m_rawDepth = 0;
    bool m_rawInString = false;
    bool m_rawEscape = false;

    bool m_started = false; // a leading UTF-8 BOM is skipped once
    bool m_error = false;
};

} // namespace Callscope
