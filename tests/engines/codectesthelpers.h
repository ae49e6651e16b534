#pragma once

// Helpers for tst_codecs: fixture loading, SSE chunking, running a stream through a codec.

#include "core/engines/enginecodec.h"

#include <QJsonDocument>
#include <QRandomGenerator>

namespace Callscope::Test {

// tests/data/engines/<name>.
QString engineDataPath(const QString &name);

// Decodes `bytes` fed in the given chunk sizes (cycled), then finish().
QList<SseEvent> decodeChunked(const QByteArray &bytes, const QList<qsizetype> &chunkSizes);
// Decodes `bytes` cut at random places (1..maxChunk bytes a piece).
QList<SseEvent> decodeRandomly(const QByteArray &bytes, QRandomGenerator &random, int maxChunk);

struct StreamResult
{
    ModelReply reply;
    std::optional<ApiError> error;
    bool complete = false;
    bool hasContent = false;
    QStringList textDeltas;
    // The tool argument fragments, joined per call (onToolArgumentsDelta), in the order the
    // calls started, with the names they came with.
    QList<std::pair<QString, QString>> toolArguments; // (name, arguments)
    int toolFragments = 0;
    int events = 0;
};

// Decodes an SSE body and feeds every event to the codec's stream assembler.
StreamResult runStream(const EngineCodec &codec, const QByteArray &body);

QString compact(const QJsonValue &value);

} // namespace Callscope::Test
