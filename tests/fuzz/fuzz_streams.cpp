// libFuzzer target for the engines' stream parsers: the input is decoded as SSE and every
// event is fed to the stream assembler of each of the five engines, then the reply is built.
// The same bytes also go through parseReply() and parseError() as a plain body, and a JSON
// array input through fromNative()/toNative(). Nothing may crash, hang or trip a sanitizer.

#include "core/engines/enginecodec.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cstdint>

using namespace Callscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const EngineType types[] = { EngineType::OpenAI, EngineType::OpenAIResponses,
                                        EngineType::Anthropic, EngineType::Gemini,
                                        EngineType::OpenAICompatible };
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));

    SseDecoder decoder;
    QList<SseEvent> events = decoder.feed(bytes);
    events += decoder.finish();

    const QJsonDocument doc = QJsonDocument::fromJson(bytes);
    for (const EngineType type : types) {
        const auto codec = createEngineCodec(type);
        auto assembler = codec->createStreamAssembler();
        qsizetype deltaChars = 0;
        assembler->onTextDelta = [&deltaChars](const QString &delta) {
            deltaChars += delta.size();
        };
        for (const SseEvent &event : std::as_const(events)) {
            if (!assembler->handleEvent(event))
                break;
        }
        const ModelReply reply = assembler->reply();
        (void)assembler->isComplete();
        (void)assembler->hasContent();
        (void)assembler->error();
        // Whatever was assembled must be sendable back.
        (void)codec->toNative(QString(), { reply.message });

        QString error;
        (void)codec->parseReply(bytes, &error);
        (void)codec->parseError(500, bytes);
        if (doc.isArray())
            (void)codec->toNative(QString(), codec->fromNative(doc.array()));
        (void)deltaChars;
    }
    return 0;
}
