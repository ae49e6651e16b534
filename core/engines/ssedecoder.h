#pragma once

// A text/event-stream decoder that takes bytes in any chunking (a byte at a time works):
// "\n", "\r\n" and "\r" line ends, comments, multi-line data, a missing final blank line.

#include <QByteArray>
#include <QList>
#include <QString>

namespace Callscope {

struct SseEvent
{
    QString event;                 // "" when the stream sent no event: field
    QByteArray data;               // data lines joined with "\n"
    QString id;

    friend bool operator==(const SseEvent &, const SseEvent &) = default;
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

private:
    void processLine(QByteArrayView line, QList<SseEvent> &out);
    void dispatch(QList<SseEvent> &out);

    QByteArray m_buffer;
    bool m_lastWasCr = false;
    QString m_event;
    QByteArray m_data;
    bool m_hasData = false;
    QString m_id;
};

} // namespace Callscope
