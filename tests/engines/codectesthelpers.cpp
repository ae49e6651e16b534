#include "tests/engines/codectesthelpers.h"

#include <QDir>

using namespace Qt::StringLiterals;

namespace Callscope::Test {

QString engineDataPath(const QString &name)
{
    return QDir(QStringLiteral(CALLSCOPE_ENGINES_TEST_DATA)).filePath(name);
}

QList<SseEvent> decodeChunked(const QByteArray &bytes, const QList<qsizetype> &chunkSizes)
{
    SseDecoder decoder;
    QList<SseEvent> events;
    qsizetype pos = 0;
    qsizetype k = 0;
    while (pos < bytes.size()) {
        const qsizetype size = qMax<qsizetype>(1, chunkSizes.at(k++ % chunkSizes.size()));
        events += decoder.feed(bytes.mid(pos, size));
        pos += size;
    }
    events += decoder.finish();
    return events;
}

QList<SseEvent> decodeRandomly(const QByteArray &bytes, QRandomGenerator &random, int maxChunk)
{
    SseDecoder decoder;
    QList<SseEvent> events;
    qsizetype pos = 0;
    while (pos < bytes.size()) {
        const qsizetype size = random.bounded(1, maxChunk + 1);
        events += decoder.feed(bytes.mid(pos, size));
        pos += size;
    }
    events += decoder.finish();
    return events;
}

StreamResult runStream(const EngineCodec &codec, const QByteArray &body)
{
    StreamResult result;
    auto assembler = codec.createStreamAssembler();
    assembler->onTextDelta = [&result](const QString &delta) {
        result.textDeltas.append(delta);
    };
    QList<int> calls;
    assembler->onToolArgumentsDelta = [&result, &calls](int call, const QString &name,
                                                        const QString &fragment) {
        ++result.toolFragments;
        qsizetype at = calls.indexOf(call);
        if (at < 0) {
            calls.append(call);
            result.toolArguments.append({ name, QString() });
            at = calls.size() - 1;
        }
        if (!name.isEmpty())
            result.toolArguments[at].first = name;
        result.toolArguments[at].second += fragment;
    };
    SseDecoder decoder;
    QList<SseEvent> events = decoder.feed(body);
    events += decoder.finish();
    for (const SseEvent &event : std::as_const(events)) {
        ++result.events;
        if (!assembler->handleEvent(event))
            break;
    }
    result.error = assembler->error();
    result.complete = assembler->isComplete();
    result.hasContent = assembler->hasContent();
    result.reply = assembler->reply();
    return result;
}

QString compact(const QJsonValue &value)
{
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    return QString::fromUtf8(QJsonDocument(QJsonArray { value }).toJson(QJsonDocument::Compact));
}

} // namespace Callscope::Test
