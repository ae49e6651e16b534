#include "core/engines/ssedecoder.h"

#include <QCoreApplication>

#include <algorithm>
#include <cstring>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

bool startsWithField(QByteArrayView line)
{
    // Lines that are plainly SSE fields end a raw JSON block (a JSON continuation line never
    // starts with an unquoted key).
    return line.startsWith("data") || line.startsWith("event") || line.startsWith("id:")
        || line.startsWith("retry") || line.startsWith(':');
}

// The first '\n' or '\r': memchr for the '\n' that ends nearly every line, then a look for a
// '\r' before it.
const char *findLineEnd(const char *pos, const char *end)
{
    const auto *newline = static_cast<const char *>(std::memchr(pos, '\n', size_t(end - pos)));
    const char *limit = newline ? newline : end;
    const auto *cr = static_cast<const char *>(std::memchr(pos, '\r', size_t(limit - pos)));
    return cr ? cr : limit;
}

bool startsLikeJson(QByteArrayView line)
{
    for (const char c : line) {
        if (c == ' ' || c == '\t')
            continue;
        return c == '{' || c == '[';
    }
    return false;
}

} // namespace

QList<SseEvent> SseDecoder::feed(const QByteArray &bytes)
{
    QList<SseEvent> out;
    if (m_error)
        return out;
    const char *const begin = bytes.constData();
    const char *const end = begin + bytes.size();
    const char *pos = begin;
    while (pos < end && !m_error) {
        if (m_lastWasCr) {
            m_lastWasCr = false;
            if (*pos == '\n') {
                ++pos;
                continue;
            }
        }
        const char *lineEnd = findLineEnd(pos, end);
        if (lineEnd == end) {
            m_buffer.append(pos, end - pos);
            if (m_buffer.size() > MaxEventBytes) {
                m_error = true;
                m_buffer.clear();
            }
            break;
        }
        if (m_buffer.isEmpty()) {
            processLine(QByteArrayView(pos, lineEnd - pos), out);
        } else {
            m_buffer.append(pos, lineEnd - pos);
            const QByteArray line = std::exchange(m_buffer, QByteArray());
            processLine(line, out);
        }
        if (*lineEnd == '\r') {
            if (lineEnd + 1 == end)
                m_lastWasCr = true; // a '\n' may open the next chunk: same line end
            else if (lineEnd[1] == '\n')
                ++lineEnd;
        }
        pos = lineEnd + 1;
    }
    if (m_error) {
        m_buffer.clear();
        m_data.clear();
        m_raw.clear();
        m_hasData = false;
        m_inRaw = false;
    }
    return out;
}

QList<SseEvent> SseDecoder::finish()
{
    QList<SseEvent> out;
    if (m_error)
        return out;
    m_lastWasCr = false;
    if (!m_buffer.isEmpty()) {
        const QByteArray line = std::exchange(m_buffer, QByteArray());
        processLine(line, out);
    }
    if (m_inRaw) {
        m_inRaw = false;
        out.append(SseEvent { SseEvent::rawJsonEvent(), std::exchange(m_raw, QByteArray()), m_id });
    }
    if (!m_error)
        dispatch(out);
    return out;
}

qsizetype SseDecoder::pendingBytes() const
{
    return m_buffer.size() + m_data.size() + m_raw.size();
}

QString SseDecoder::errorString() const
{
    if (!m_error)
        return {};
    return QCoreApplication::translate("Callscope::SseDecoder",
                                       "The event stream sent a line or event larger than %1 MiB.")
        .arg(MaxEventBytes / (1024 * 1024));
}

void SseDecoder::scanRawJson(QByteArrayView line)
{
    for (const char c : line) {
        if (m_rawInString) {
            if (m_rawEscape)
                m_rawEscape = false;
            else if (c == '\\')
                m_rawEscape = true;
            else if (c == '"')
                m_rawInString = false;
            continue;
        }
        if (c == '"')
            m_rawInString = true;
        else if (c == '{' || c == '[')
            ++m_rawDepth;
        else if (c == '}' || c == ']')
            --m_rawDepth;
    }
}

void SseDecoder::processLine(QByteArrayView line, QList<SseEvent> &out)
{
    if (!m_started) {
        m_started = true;
        if (line.startsWith("\xEF\xBB\xBF"))
            line = line.sliced(3);
    }

    if (m_inRaw) {
        if (!line.isEmpty() && !startsWithField(line)) {
            m_raw.append('\n');
            m_raw.append(line);
            scanRawJson(line);
            if (m_raw.size() > MaxEventBytes) {
                m_error = true;
                return;
            }
            if (m_rawDepth <= 0) {
                m_inRaw = false;
                out.append(SseEvent { SseEvent::rawJsonEvent(), std::exchange(m_raw, QByteArray()),
                                      m_id });
            }
            return;
        }
        // An SSE line (or a blank one) cuts an unbalanced raw block short: deliver what came.
        m_inRaw = false;
        out.append(SseEvent { SseEvent::rawJsonEvent(), std::exchange(m_raw, QByteArray()), m_id });
    }

    if (line.isEmpty()) {
        dispatch(out);
        return;
    }
    if (line.front() == ':')
        return; // comment

    if (startsLikeJson(line)) {
        m_raw = line.toByteArray();
        m_rawDepth = 0;
        m_rawInString = false;
        m_rawEscape = false;
        scanRawJson(line);
        if (m_rawDepth <= 0)
            out.append(
                SseEvent { SseEvent::rawJsonEvent(), std::exchange(m_raw, QByteArray()), m_id });
        else
            m_inRaw = true;
        return;
    }

    QByteArrayView field = line;
    QByteArrayView value;
    const qsizetype colon = line.indexOf(':');
    if (colon >= 0) {
        field = line.first(colon);
        value = line.sliced(colon + 1);
        if (value.startsWith(' '))
            value = value.sliced(1);
    }

    if (field == "data") {
        if (m_hasData)
            m_data.append('\n');
        m_data.append(value);
        m_hasData = true;
        if (m_data.size() > MaxEventBytes)
            m_error = true;
    } else if (field == "event") {
        // Streams repeat a handful of names: keep the last one's string instead of a new one.
        if (value != QByteArrayView(m_eventName)) {
            m_eventName = value.toByteArray();
            m_eventText = QString::fromUtf8(value);
        }
        m_event = m_eventText;
    } else if (field == "id") {
        if (!value.contains('\0'))
            m_id = QString::fromUtf8(value);
    } else if (field == "retry") {
        // Only ASCII digits count; anything else leaves the last value in force.
        bool digits = !value.isEmpty() && value.size() <= 9;
        for (const char c : value)
            digits = digits && c >= '0' && c <= '9';
        if (digits)
            m_retryMs = QByteArray(value.data(), value.size()).toLongLong();
    }
    // Unknown fields are ignored.
}

void SseDecoder::dispatch(QList<SseEvent> &out)
{
    if (m_hasData)
        out.append(SseEvent { m_event, m_data, m_id });
    m_event.clear();
    m_data.clear();
    m_hasData = false;
}

} // namespace Callscope
