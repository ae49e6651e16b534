// libFuzzer target for the SSE decoder: any bytes, any chunking, never a crash, and the same
// events however the bytes are cut (whole, a byte at a time, chunks sized from the input).

#include "core/engines/ssedecoder.h"

#include <cstdint>
#include <cstdlib>

using namespace Callscope;

namespace {

QList<SseEvent> decode(const QByteArray &bytes, qsizetype chunk)
{
    SseDecoder decoder;
    QList<SseEvent> events;
    for (qsizetype pos = 0; pos < bytes.size(); pos += chunk) {
        const qsizetype n = qMin(chunk, bytes.size() - pos);
        events += decoder.feed(QByteArray::fromRawData(bytes.constData() + pos, n));
        if (decoder.pendingBytes() > SseDecoder::MaxEventBytes)
            std::abort(); // the runaway guard must hold
    }
    events += decoder.finish();
    return events;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const QList<SseEvent> whole = decode(bytes, qMax<qsizetype>(1, bytes.size()));
    const QList<SseEvent> single = decode(bytes, 1);
    if (single != whole)
        std::abort();
    const qsizetype chunk = size > 0 ? qsizetype(data[0] % 17) + 2 : 1;
    if (decode(bytes, chunk) != whole)
        std::abort();
    return 0;
}
