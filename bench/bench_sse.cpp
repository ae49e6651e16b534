// bench_sse [STREAM.sse] [--mb N] [--rounds N]
//
// The SSE decoder over recorded provider streams (make_stream.py: OpenAI parallel tool calls and
// Anthropic tool use, concatenated to about N MB, 50 by default; generated into the build folder
// when no path is given), fed in 16 KiB chunks, with a JSON parse of every event's data, as a
// streaming client does. Prints MB/s for the decoder alone, with QJsonDocument (what the codecs
// use for non-streamed bodies) and with JsonTape, and through the stream assemblers of the
// OpenAI chat and Anthropic codecs (the path a streamed reply takes in the product).

#include "core/engines/enginecodec.h"
#include "core/engines/ssedecoder.h"
#include "core/schema/jsontape.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QProcess>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <vector>

#include "peer.h"

using namespace Qt::StringLiterals;
using namespace Callscope;

using CallscopeBench::cpuSeconds;
using CallscopeBench::line;
using CallscopeBench::sharedData;

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QString path;
    int rounds = 3;
    QString megabytes = u"50"_s;
    const QStringList args = app.arguments().mid(1);
    for (qsizetype i = 0; i < args.size(); ++i) {
        if (args.at(i) == u"--rounds" && i + 1 < args.size())
            rounds = std::max(1, args.at(++i).toInt());
        else if (args.at(i) == u"--mb" && i + 1 < args.size())
            megabytes = args.at(++i);
        else
            path = args.at(i);
    }
    if (path.isEmpty()) {
        path = QDir::current().filePath(u"bench-sse-%1mb.sse"_s.arg(megabytes));
        if (!QFileInfo::exists(path)) {
            const int code = QProcess::execute(
                u"python3"_s, { sharedData(u"bench/make_stream.py"_s), megabytes, path });
            if (code != 0) {
                std::fprintf(stderr, "bench_sse: make_stream.py failed (%d)\n", code);
                return 2;
            }
        }
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "bench_sse: cannot read %s\n", qPrintable(path));
        return 2;
    }
    const QByteArray stream = file.readAll();
    // The chunks as the network hands them over (made before timing).
    constexpr qsizetype chunkSize = 16 * 1024;
    std::vector<QByteArray> chunks;
    for (qsizetype at = 0; at < stream.size(); at += chunkSize)
        chunks.emplace_back(stream.constData() + at, std::min(chunkSize, stream.size() - at));
    const double megabytesIn = double(stream.size()) / 1e6;
    line(u"stream: %1 (%2 MB, %3 chunks of 16 KiB)"_s.arg(QFileInfo(path).fileName())
             .arg(megabytesIn, 0, 'f', 1)
             .arg(chunks.size()));

    enum class Parse { None, Qt, Tape, Codec };
    int status = 0;
    qsizetype expectedEvents = -1;
    qsizetype qtFailures = 0;
    const std::unique_ptr<EngineCodec> chatCodec = createEngineCodec(EngineType::OpenAI);
    const std::unique_ptr<EngineCodec> anthropicCodec = createEngineCodec(EngineType::Anthropic);
    qsizetype replies = 0, replyBytes = 0;
    for (const Parse parse : { Parse::None, Parse::Qt, Parse::Tape, Parse::Codec }) {
        double seconds = 1e30, cpu = 1e30;
        qsizetype events = 0, failures = 0;
        for (int round = 0; round < rounds; ++round) {
            events = failures = replies = replyBytes = 0;
            // Codec: each recording goes to a fresh assembler of its format (Anthropic's events
            // are named, OpenAI's are not); a finished reply is taken as the client takes it.
            std::unique_ptr<StreamAssembler> assembler;
            bool anthropic = false;
            auto takeReply = [&] {
                if (assembler && assembler->hasContent()) {
                    const ModelReply reply = assembler->reply();
                    ++replies;
                    replyBytes += reply.message.text.size();
                    for (const ToolCall &call : reply.message.toolCalls)
                        replyBytes += call.rawArguments.size();
                }
                assembler.reset();
            };
            QElapsedTimer timer;
            timer.start();
            const double cpuStart = cpuSeconds();
            SseDecoder decoder;
            JsonTape tape;
            auto consume = [&](const QList<SseEvent> &batch) {
                for (const SseEvent &event : batch) {
                    ++events;
                    if (parse == Parse::Qt) {
                        QJsonParseError error;
                        const QJsonDocument doc = QJsonDocument::fromJson(event.data, &error);
                        failures +=
                            error.error == QJsonParseError::NoError && doc.isObject() ? 0 : 1;
                    } else if (parse == Parse::Tape) {
                        tape.clear();
                        failures += tape.append(event.data) < 0 ? 1 : 0;
                    } else if (parse == Parse::Codec) {
                        const bool named = !event.event.isEmpty();
                        if (!assembler || named != anthropic) {
                            takeReply();
                            anthropic = named;
                            assembler =
                                (anthropic ? anthropicCodec : chatCodec)->createStreamAssembler();
                        }
                        if (!assembler->handleEvent(event)) {
                            ++failures;
                            assembler.reset();
                        } else if (assembler->isComplete()) {
                            takeReply();
                        }
                    }
                }
            };
            for (const QByteArray &chunk : chunks)
                consume(decoder.feed(chunk));
            consume(decoder.finish());
            takeReply();
            seconds = std::min(seconds, double(timer.nsecsElapsed()) / 1e9);
            cpu = std::min(cpu, cpuSeconds() - cpuStart);
        }
        const QString label = parse == Parse::None ? u"decoder only:             "_s
            : parse == Parse::Qt                   ? u"decoder + QJsonDocument:  "_s
            : parse == Parse::Tape                 ? u"decoder + JsonTape:       "_s
                                                   : u"decoder + codec streams:  "_s;
        line(u"%1 %2 MB/s wall, %3 MB per CPU second (%4 events, %5 parse failures, %6 s)"_s
                 .arg(label)
                 .arg(megabytesIn / seconds, 0, 'f', 0)
                 .arg(megabytesIn / cpu, 0, 'f', 0)
                 .arg(events)
                 .arg(failures)
                 .arg(seconds, 0, 'f', 3));
        if (parse == Parse::Codec)
            line(
                u"    %1 replies assembled, %2 characters of text and arguments"_s.arg(replies).arg(
                    replyBytes));
        if (expectedEvents >= 0 && events != expectedEvents)
            status = 1;
        expectedEvents = events;
        // make_stream.py glues the Anthropic recording (no final blank line) to the next OpenAI
        // one, so one event per repetition holds two JSON texts: both parsers must refuse it.
        if (parse == Parse::Qt)
            qtFailures = failures;
        else if (parse == Parse::Tape && failures != qtFailures)
            status = 1;
    }
    // The peer, in the same run on the same file: eventsource-parser with a JSON.parse per event.
    if (const auto peer = CallscopeBench::runPeer(u"sse_parse.mjs"_s, u"eventsource-parser"_s,
                                                  { path, QString::number(rounds) })) {
        line(
            u"peer eventsource-parser:   %1 MB/s wall, %2 MB per CPU second (%3 events, %4 parse failures)"_s
                .arg(peer->value(u"mb_per_s"_s).toDouble(), 0, 'f', 0)
                .arg(peer->value(u"mb_per_cpu_s"_s).toDouble(), 0, 'f', 0)
                .arg(peer->value(u"events"_s).toInt())
                .arg(peer->value(u"failures"_s).toInt()));
    }
    return status;
}
