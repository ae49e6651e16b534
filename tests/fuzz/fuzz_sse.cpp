// libFuzzer target for the SSE decoder: any bytes, any chunking, never a crash, and the same
// events however the bytes are cut (whole, a byte at a time, chunks sized from the input).
// Each event's data, and the input itself, also go through the JSON tape parser (it accepts
// nothing Qt's parser refuses, and gives the same values) and the schema validator on the tape
// (validate() and accepts() agree).

#include "core/engines/ssedecoder.h"
#include "core/schema/jsonschema.h"
#include "core/schema/jsontape.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

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

const CompiledSchema &fuzzSchema()
{
    static const CompiledSchema schema = SchemaCompiler().compile(QJsonDocument::fromJson(R"({
        "type": ["object", "array", "string"], "additionalProperties": {"$ref": "#/$defs/v"},
        "properties": {"type": {"enum": ["message_start", "content_block_delta", 7, null]},
                       "choices": {"type": "array", "uniqueItems": true, "items": {"$ref": "#"}},
                       "index": {"type": "integer", "multipleOf": 0.5, "maximum": 1000}},
        "required": ["type"], "pattern": "^[a-z_]{1,40}$",
        "items": {"anyOf": [{"const": {"a": [1]}}, {"$ref": "#/$defs/v"}]},
        "$defs": {"v": {"oneOf": [{"type": "string", "maxLength": 30}, {"type": "object", "minProperties": 1},
                                  {"type": ["number", "boolean", "null", "array"]}]}}
    })")
                                                                      .object());
    return schema;
}

void checkJson(QByteArrayView text)
{
    JsonTape tape;
    const qsizetype root = tape.append(text);
    if (root < 0)
        return;
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson("[" + text.toByteArray() + "]", &error);
    if (error.error != QJsonParseError::NoError || doc.array().size() != 1)
        std::abort(); // the tape took something Qt refuses
    // Qt's parser loses a U+FEFF that opens a string (its value then compares unequal even to
    // an empty string); the tape keeps it, so such inputs skip the value comparison.
    if (!text.toByteArray().contains("\xEF\xBB\xBF")) {
        const QJsonValue value = tape.toValue(root);
        const QJsonValue expected = doc.array().at(0);
        if (value != expected && !(value.isDouble() && expected.isDouble()))
            std::abort();
    }
    const CompiledSchema &schema = fuzzSchema();
    const SchemaValidationResult result = schema.validate(tape, root);
    if (result.valid != schema.accepts(tape, root) || (!result.valid && result.errors.isEmpty()))
        std::abort();
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
    checkJson(bytes);
    for (const SseEvent &event : whole)
        checkJson(event.data);
    return 0;
}
