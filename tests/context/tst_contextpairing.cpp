// Tool-call/result pairing after trimming, in each engine type's own wire shape: the trimmed
// messages go through the real codec (core/engines) and every call id must still find its
// result, with the stub text where the budget put one.

#include "core/context/contextbudget.h"
#include "core/engines/enginecodec.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace Callscope;

namespace {

struct NativeItem
{
    QString id;
    QString name;
    int position = 0; // index of the native message that holds it
    QJsonValue payload; // the result as sent (results only)
};

struct NativePairs
{
    QList<NativeItem> calls;
    QList<NativeItem> results;
    int images = 0;
};

QString text(int chars)
{
    QString out;
    for (int i = 0; out.size() < chars; ++i)
        out += u"row %1\n"_s.arg(qlonglong(i), 4, 10, QChar(u'0'));
    out.truncate(chars);
    return out;
}

Attachment png(const QString &name)
{
    return Attachment::fromData(name, u"image/png"_s, "\x89PNG\r\n\x1a\n"_ba + name.toUtf8());
}

bool isImagePart(const QJsonObject &part)
{
    const QString type = part.value(u"type"_s).toString();
    return type == u"image_url" || type == u"input_image" || type == u"image"
        || part.contains(u"inlineData"_s);
}

int countImages(const QJsonValue &value)
{
    if (value.isArray()) {
        int count = 0;
        const QJsonArray array = value.toArray();
        for (const QJsonValue &item : array)
            count += countImages(item);
        return count;
    }
    if (!value.isObject())
        return 0;
    const QJsonObject object = value.toObject();
    int count = isImagePart(object) ? 1 : 0;
    for (auto it = object.begin(); it != object.end(); ++it)
        count += countImages(it.value());
    return count;
}

// Reads the calls and results out of one engine's native message list.
NativePairs readPairs(EngineType type, const QJsonArray &native)
{
    NativePairs pairs;
    pairs.images = countImages(native);
    for (int position = 0; position < native.size(); ++position) {
        const QJsonObject item = native[position].toObject();
        switch (type) {
        case EngineType::OpenAI:
        case EngineType::OpenAICompatible: {
            const QJsonArray calls = item.value(u"tool_calls"_s).toArray();
            for (const QJsonValue &call : calls) {
                const QJsonObject object = call.toObject();
                pairs.calls.append(
                    { object.value(u"id"_s).toString(),
                      object.value(u"function"_s).toObject().value(u"name"_s).toString(),
                      position,
                      {} });
            }
            if (item.value(u"role"_s).toString() == u"tool")
                pairs.results.append({ item.value(u"tool_call_id"_s).toString(),
                                       {},
                                       position,
                                       item.value(u"content"_s) });
            break;
        }
        case EngineType::OpenAIResponses: {
            const QString itemType = item.value(u"type"_s).toString();
            if (itemType == u"function_call")
                pairs.calls.append({ item.value(u"call_id"_s).toString(),
                                     item.value(u"name"_s).toString(),
                                     position,
                                     {} });
            else if (itemType == u"function_call_output")
                pairs.results.append(
                    { item.value(u"call_id"_s).toString(), {}, position, item.value(u"output"_s) });
            break;
        }
        case EngineType::Anthropic: {
            const QJsonArray blocks = item.value(u"content"_s).toArray();
            for (const QJsonValue &value : blocks) {
                const QJsonObject block = value.toObject();
                if (block.value(u"type"_s).toString() == u"tool_use")
                    pairs.calls.append({ block.value(u"id"_s).toString(),
                                         block.value(u"name"_s).toString(),
                                         position,
                                         {} });
                else if (block.value(u"type"_s).toString() == u"tool_result")
                    pairs.results.append({ block.value(u"tool_use_id"_s).toString(),
                                           {},
                                           position,
                                           block.value(u"content"_s) });
            }
            break;
        }
        case EngineType::Gemini: {
            const QJsonArray parts = item.value(u"parts"_s).toArray();
            for (const QJsonValue &value : parts) {
                const QJsonObject part = value.toObject();
                if (part.contains(u"functionCall"_s)) {
                    const QJsonObject call = part.value(u"functionCall"_s).toObject();
                    pairs.calls.append({ call.value(u"id"_s).toString(),
                                         call.value(u"name"_s).toString(),
                                         position,
                                         {} });
                } else if (part.contains(u"functionResponse"_s)) {
                    const QJsonObject response = part.value(u"functionResponse"_s).toObject();
                    pairs.results.append({ response.value(u"id"_s).toString(),
                                           response.value(u"name"_s).toString(), position,
                                           response.value(u"response"_s) });
                }
            }
            break;
        }
        case EngineType::Replay:
            break;
        }
    }
    return pairs;
}

QString asText(const QJsonValue &value)
{
    if (value.isString())
        return value.toString();
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
}

} // namespace

class TestContextPairing final : public QObject
{
    Q_OBJECT

private slots:
    void pairingAfterTrimming_data();
    void pairingAfterTrimming();
};

void TestContextPairing::pairingAfterTrimming_data()
{
    QTest::addColumn<int>("type");
    QTest::newRow("openai") << int(EngineType::OpenAI);
    QTest::newRow("openai-responses") << int(EngineType::OpenAIResponses);
    QTest::newRow("anthropic") << int(EngineType::Anthropic);
    QTest::newRow("gemini") << int(EngineType::Gemini);
    QTest::newRow("openai-compatible") << int(EngineType::OpenAICompatible);
}

void TestContextPairing::pairingAfterTrimming()
{
    QFETCH(int, type);
    const EngineType engineType = EngineType(type);
    const std::unique_ptr<EngineCodec> codec = createEngineCodec(engineType);
    QVERIFY2(codec, qPrintable(u"no codec for "_s + engineTypeName(engineType)));

    // Turn 1: two parallel calls (a large search result, a short screenshot result with an
    // image). Turn 2: a large error. Turn 3: a large result that stays in full.
    const ToolCall search {
        u"call_search"_s,      u"search"_s, QJsonObject { { u"q"_s, u"logs"_s } },
        u"{\"q\":\"logs\"}"_s, {},          {}
    };
    const ToolCall shot { u"call_shot"_s, u"screenshot"_s, QJsonObject {}, u"{}"_s, {}, {} };
    const ToolCall fetch { u"call_fetch"_s,      u"fetch"_s, QJsonObject { { u"url"_s, u"a"_s } },
                           u"{\"url\":\"a\"}"_s, {},         {} };
    const ToolCall read { u"call_read"_s,        u"read"_s, QJsonObject { { u"path"_s, u"b"_s } },
                          u"{\"path\":\"b\"}"_s, {},        {} };
    const QList<Message> input {
        Message::user(u"Check the logs."_s, { png(u"question.png"_s) }),
        Message::assistant(u"Looking."_s, { search, shot }),
        Message::toolResultsMessage(
            { ToolResult { search.id, search.name, text(6000), false, {} },
              ToolResult { shot.id, shot.name, u"captured"_s, false, { png(u"shot.png"_s) } } }),
        Message::assistant(QString(), { fetch }),
        Message::toolResultsMessage({ ToolResult { fetch.id, fetch.name, text(3000), true, {} } }),
        Message::assistant(QString(), { read }),
        Message::toolResultsMessage({ ToolResult { read.id, read.name, text(7000), false, {} } }),
    };

    EngineSpec engine;
    engine.type = engineType;
    engine.toolResultsInContext = std::optional<int>(1);
    ContextSpec context;
    context.toolResultsChars = 0;
    context.imagesInContext = 1;
    const BudgetResult trimmed =
        applyContextBudget(u"Be careful."_s, input, BudgetSettings::resolve(engine, context));
    const QString stub = stubText(u"search"_s, text(6000));
    QCOMPARE(stub,
             u"[search result, 667 lines, 6,000 chars; trimmed from context to save space. Note "
             u"what you "
             u"need; call the tool again only if you still need detail.]"_s);
    QCOMPARE(trimmed.report.stubbedResults, 1);
    QCOMPARE(trimmed.report.droppedImages, 1);

    const QJsonArray native = codec->toNative(u"Be careful."_s, trimmed.messages);
    const NativePairs pairs = readPairs(engineType, native);

    // Every call has exactly one result, after it, and nothing else has a result.
    QCOMPARE(pairs.calls.size(), 4);
    QCOMPARE(pairs.results.size(), 4);
    for (const NativeItem &call : pairs.calls) {
        int matches = 0;
        for (const NativeItem &result : pairs.results) {
            const bool sameId = !result.id.isEmpty() && result.id == call.id;
            if (!sameId)
                continue;
            ++matches;
            QVERIFY2(result.position > call.position, qPrintable(call.id));
            if (engineType == EngineType::Gemini)
                QCOMPARE(result.name, call.name); // Gemini also pairs by name
        }
        QVERIFY2(matches == 1, qPrintable(u"%1 has %2 results"_s.arg(call.id).arg(matches)));
    }
    QStringList resultIds;
    for (const NativeItem &result : pairs.results)
        resultIds.append(result.id);
    QCOMPARE(resultIds,
             (QStringList { u"call_search"_s, u"call_shot"_s, u"call_fetch"_s, u"call_read"_s }));

    // The stub is what the search result carries on the wire; the others are in full.
    const QString searchSent = asText(pairs.results[0].payload);
    QVERIFY2(searchSent.contains(stub), qPrintable(searchSent.left(300)));
    QVERIFY(!searchSent.contains(u"row 0000"_s));
    QVERIFY(asText(pairs.results[1].payload).contains(u"captured"_s));
    QVERIFY(asText(pairs.results[2].payload).contains(u"row 0332"_s));
    QVERIFY(asText(pairs.results[3].payload).contains(u"row 0776"_s));
    // Only the newest image (the screenshot) is on the wire; the question's image was dropped.
    QCOMPARE(pairs.images, 1);

    // Read back by the same codec, the tool results still carry their ids and the stub.
    QList<ToolResult> back;
    for (const Message &message : codec->fromNative(native))
        back += message.toolResults;
    QCOMPARE(back.size(), 4);
    QCOMPARE(back[0].callId, u"call_search"_s);
    QCOMPARE(back[0].content, stub);
    QCOMPARE(back[3].callId, u"call_read"_s);

    // The input itself still holds every result in full.
    QCOMPARE(input[2].toolResults[0].content, text(6000));
}

int runContextPairingTests(int argc, char **argv)
{
    TestContextPairing test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_contextpairing.moc"
