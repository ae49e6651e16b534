#include "core/context/contextbudget.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include <algorithm>
#include <utility>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

template<typename Enum, std::size_t Size>
std::optional<Enum> fromNameTable(const std::pair<Enum, QStringView> (&table)[Size],
                                  QStringView name)
{
    for (const auto &entry : table) {
        if (entry.second == name)
            return entry.first;
    }
    return std::nullopt;
}

template<typename Enum, std::size_t Size>
QString nameFromTable(const std::pair<Enum, QStringView> (&table)[Size], Enum value)
{
    for (const auto &entry : table) {
        if (entry.first == value)
            return entry.second.toString();
    }
    return {};
}

constexpr std::pair<BudgetSource, QStringView> SourceNames[] = {
    { BudgetSource::Unlimited, u"unlimited" },
    { BudgetSource::EngineTokens, u"engine_tool_results_tokens" },
    { BudgetSource::SettingTokens, u"tool_results_tokens" },
    { BudgetSource::SettingChars, u"tool_results_chars" },
    { BudgetSource::ContextWindow, u"context_window" },
    { BudgetSource::AssumedContextWindow, u"assumed_context_window" },
};

constexpr std::pair<BudgetStatus, QStringView> StatusNames[] = {
    { BudgetStatus::Kept, u"kept" },
    { BudgetStatus::Stubbed, u"stubbed" },
    { BudgetStatus::ImageDropped, u"image_dropped" },
};

constexpr std::pair<BudgetReason, QStringView> ReasonNames[] = {
    { BudgetReason::None, u"" },
    { BudgetReason::NewestN, u"newest_n" },
    { BudgetReason::WithinBudget, u"within_budget" },
    { BudgetReason::OverBudget, u"over_budget" },
    { BudgetReason::OutsideNewestN, u"outside_newest_n" },
    { BudgetReason::Error, u"error" },
    { BudgetReason::Short, u"short" },
    { BudgetReason::Unlimited, u"unlimited" },
    { BudgetReason::ImageWindow, u"image_window" },
};

constexpr std::pair<BudgetPartKind, QStringView> PartKindNames[] = {
    { BudgetPartKind::Text, u"text" },          { BudgetPartKind::Refusal, u"refusal" },
    { BudgetPartKind::ToolCall, u"tool_call" }, { BudgetPartKind::ToolResult, u"tool_result" },
    { BudgetPartKind::Image, u"image" },        { BudgetPartKind::File, u"file" },
    { BudgetPartKind::Note, u"note" },
};

// What the walk over the large results decided for one of them.
struct ResultDecision
{
    BudgetStatus status = BudgetStatus::Kept;
    BudgetReason reason = BudgetReason::None;
};

// Where one image sits: a message attachment (resultIndex -1) or an image of a tool result.
struct ImageRef
{
    int message = 0;
    int resultIndex = -1;
    int index = 0;

    friend bool operator==(const ImageRef &, const ImageRef &) = default;
};

size_t qHash(const ImageRef &ref, size_t seed = 0)
{
    return qHashMulti(seed, ref.message, ref.resultIndex, ref.index);
}

QString toolCallText(const ToolCall &call)
{
    if (!call.rawArguments.isEmpty())
        return call.rawArguments;
    return QString::fromUtf8(QJsonDocument(call.arguments).toJson(QJsonDocument::Compact));
}

QJsonValue optionalToJson(const std::optional<qint64> &value)
{
    return value ? QJsonValue(double(*value)) : QJsonValue(QJsonValue::Null);
}

qint64 toInt64(const QJsonValue &value)
{
    return qint64(value.toDouble());
}

BudgetPartReport textPart(BudgetPartKind kind, int index, qint64 chars, EngineType type)
{
    BudgetPartReport part;
    part.kind = kind;
    part.index = index;
    part.charsBefore = part.charsAfter = chars;
    part.tokensBefore = part.tokensAfter = estimateTokens(chars, type);
    return part;
}

BudgetPartReport attachmentPart(const Attachment &attachment, int index, EngineType type)
{
    BudgetPartReport part;
    part.kind = attachment.isImage() ? BudgetPartKind::Image : BudgetPartKind::File;
    part.index = index;
    part.imageName = attachment.name;
    part.mediaType = attachment.mediaType;
    part.bytes = attachment.size > 0 ? attachment.size : attachment.data.size();
    if (attachment.isImage())
        part.tokensBefore = part.tokensAfter = imageTokenEstimate(type);
    return part;
}

QString joinedNotes(const QStringList &names)
{
    QStringList lines;
    lines.reserve(names.size());
    for (const QString &name : names)
        lines.append(droppedImageNote(name));
    return lines.join(u'\n');
}

} // namespace

int charsPerToken(EngineType type)
{
    switch (type) {
    case EngineType::OpenAI:
    case EngineType::OpenAIResponses:
    case EngineType::Anthropic:
    case EngineType::Gemini:
    case EngineType::OpenAICompatible:
    case EngineType::Replay:
        return 4;
    }
    return 4;
}

qint64 imageTokenEstimate(EngineType type)
{
    switch (type) {
    case EngineType::Anthropic:
        return 1600;
    case EngineType::Gemini:
        return 258;
    case EngineType::OpenAI:
    case EngineType::OpenAIResponses:
    case EngineType::OpenAICompatible:
    case EngineType::Replay:
        return 765;
    }
    return 765;
}

qint64 estimateTokens(qint64 characters, EngineType type)
{
    if (characters <= 0)
        return 0;
    const qint64 perToken = charsPerToken(type);
    return (characters + perToken - 1) / perToken;
}

qint64 tokensToChars(qint64 tokens, EngineType type)
{
    return std::max<qint64>(0, tokens) * charsPerToken(type);
}

qint64 characterCount(QStringView text)
{
    qint64 count = 0;
    const qsizetype size = text.size();
    for (qsizetype i = 0; i < size; ++i) {
        if (text[i].isHighSurrogate() && i + 1 < size && text[i + 1].isLowSurrogate())
            ++i;
        ++count;
    }
    return count;
}

qint64 lineCount(QStringView text)
{
    if (text.isEmpty())
        return 0;
    const qint64 breaks = text.count(u'\n');
    return text.endsWith(u'\n') ? breaks : breaks + 1;
}

QString formatThousands(qint64 value)
{
    const bool negative = value < 0;
    QString digits = QString::number(negative ? -value : value);
    for (qsizetype at = digits.size() - 3; at > 0; at -= 3)
        digits.insert(at, u',');
    return negative ? u'-' + digits : digits;
}

QString stubText(const QString &toolName, QStringView content)
{
    const qint64 lines = lineCount(content);
    const QString name = toolName.isEmpty() ? u"tool"_s : toolName;
    return u"["_s + name + u" result, "_s + formatThousands(lines)
        + (lines == 1 ? u" line, "_s : u" lines, "_s) + formatThousands(characterCount(content))
        + u" chars; trimmed from context to save space. Note what you need; call the tool again "
          u"only if you still need detail.]"_s;
}

QString droppedImageNote(const QString &imageName)
{
    if (imageName.isEmpty())
        return u"[image dropped from context]"_s;
    return u"[image "_s + imageName + u" dropped from context]"_s;
}

QString budgetSourceName(BudgetSource source)
{
    return nameFromTable(SourceNames, source);
}

std::optional<BudgetSource> budgetSourceFromName(QStringView name)
{
    return fromNameTable(SourceNames, name);
}

QString budgetStatusName(BudgetStatus status)
{
    return nameFromTable(StatusNames, status);
}

std::optional<BudgetStatus> budgetStatusFromName(QStringView name)
{
    return fromNameTable(StatusNames, name);
}

QString budgetReasonName(BudgetReason reason)
{
    return nameFromTable(ReasonNames, reason);
}

std::optional<BudgetReason> budgetReasonFromName(QStringView name)
{
    return fromNameTable(ReasonNames, name);
}

QString budgetPartKindName(BudgetPartKind kind)
{
    return nameFromTable(PartKindNames, kind);
}

std::optional<BudgetPartKind> budgetPartKindFromName(QStringView name)
{
    return fromNameTable(PartKindNames, name);
}

QString budgetMessageKindName(const Message &message)
{
    switch (message.role) {
    case Role::System:
        return u"system"_s;
    case Role::User:
        return u"user"_s;
    case Role::Assistant:
        return u"assistant"_s;
    case Role::Tool:
        return u"tool_results"_s;
    }
    return {};
}

// ---------------------------------------------------------------------------------------------
// Settings

qint64 BudgetSettings::budgetChars() const
{
    if (source == BudgetSource::Unlimited)
        return 0;
    if (unit == BudgetUnit::Chars)
        return std::max<qint64>(0, budgetValue);
    return tokensToChars(budgetValue, engineType);
}

BudgetSettings BudgetSettings::resolve(const EngineSpec &engine, const ContextSpec &context)
{
    BudgetSettings settings;
    settings.engineType = engine.type;
    settings.toolResultsInContext =
        engine.toolResultsInContext ? *engine.toolResultsInContext : context.toolResultsInContext;
    if (settings.toolResultsInContext)
        settings.toolResultsInContext = std::max(0, *settings.toolResultsInContext);
    settings.imagesInContext = std::max(0, context.imagesInContext);

    if (!settings.toolResultsInContext) {
        settings.source = BudgetSource::Unlimited;
        settings.unit = BudgetUnit::Tokens;
        settings.budgetValue = 0;
    } else if (engine.toolResultsTokens) {
        settings.source = BudgetSource::EngineTokens;
        settings.unit = BudgetUnit::Tokens;
        settings.budgetValue = std::max<qint64>(0, *engine.toolResultsTokens);
    } else if (context.toolResultsTokens) {
        settings.source = BudgetSource::SettingTokens;
        settings.unit = BudgetUnit::Tokens;
        settings.budgetValue = std::max<qint64>(0, *context.toolResultsTokens);
    } else if (context.toolResultsChars) {
        settings.source = BudgetSource::SettingChars;
        settings.unit = BudgetUnit::Chars;
        settings.budgetValue = std::max<qint64>(0, *context.toolResultsChars);
    } else {
        const bool known = engine.contextWindow && *engine.contextWindow > 0;
        settings.source = known ? BudgetSource::ContextWindow : BudgetSource::AssumedContextWindow;
        settings.unit = BudgetUnit::Tokens;
        const qint64 window = known ? *engine.contextWindow : AssumedContextWindowTokens;
        settings.budgetValue = window * ContextWindowBudgetPercent / 100;
    }
    return settings;
}

// ---------------------------------------------------------------------------------------------
// The trimming

BudgetResult applyContextBudget(const QList<Message> &messages, const BudgetSettings &settings)
{
    return applyContextBudget(QString(), messages, settings);
}

BudgetResult applyContextBudget(const QString &systemPrompt, const QList<Message> &messages,
                                const BudgetSettings &settings)
{
    const EngineType type = settings.engineType;
    BudgetResult result;
    BudgetReport &report = result.report;
    report.settings = settings;
    report.budgetChars = settings.budgetChars();

    // 1. Decide every tool result: walk the large, non-error ones from the newest.
    QList<QList<ResultDecision>> decisions(messages.size());
    QList<std::pair<int, int>> large; // (message, result), oldest first
    QList<QList<qint64>> resultChars(messages.size());
    for (int m = 0; m < messages.size(); ++m) {
        const QList<ToolResult> &results = messages[m].toolResults;
        decisions[m].resize(results.size());
        resultChars[m].resize(results.size());
        for (int r = 0; r < results.size(); ++r) {
            const qint64 chars = characterCount(results[r].content);
            resultChars[m][r] = chars;
            ResultDecision &decision = decisions[m][r];
            if (results[r].isError)
                decision.reason = BudgetReason::Error;
            else if (chars <= LargeToolResultChars)
                decision.reason = BudgetReason::Short;
            else
                large.append({ m, r });
        }
    }
    report.largeResults = int(large.size());

    const qint64 budget = report.budgetChars;
    bool stopped = false;
    for (qsizetype k = large.size() - 1, rank = 0; k >= 0; --k, ++rank) {
        const auto [m, r] = large[k];
        ResultDecision &decision = decisions[m][r];
        const qint64 size = resultChars[m][r];
        if (!settings.toolResultsInContext) {
            decision.reason = BudgetReason::Unlimited;
        } else if (rank < *settings.toolResultsInContext) {
            decision.reason = BudgetReason::NewestN;
        } else if (!stopped && report.usedChars + size <= budget) {
            decision.reason = BudgetReason::WithinBudget;
        } else {
            stopped = true;
            decision.status = BudgetStatus::Stubbed;
            decision.reason = budget == 0 ? BudgetReason::OutsideNewestN : BudgetReason::OverBudget;
            ++report.stubbedResults;
            continue;
        }
        report.usedChars += size;
        ++report.keptLargeResults;
    }

    // 2. The image window: the newest imagesInContext images across the conversation.
    QList<ImageRef> images;
    for (int m = 0; m < messages.size(); ++m) {
        const Message &message = messages[m];
        for (int a = 0; a < message.attachments.size(); ++a) {
            if (message.attachments[a].isImage())
                images.append({ m, -1, a });
        }
        for (int r = 0; r < message.toolResults.size(); ++r) {
            for (int i = 0; i < message.toolResults[r].images.size(); ++i)
                images.append({ m, r, i });
        }
    }
    QSet<ImageRef> dropped;
    const qsizetype keepImages = std::max(0, settings.imagesInContext);
    for (qsizetype k = 0; k + keepImages < images.size(); ++k)
        dropped.insert(images[k]);
    report.images = int(images.size());
    report.droppedImages = int(dropped.size());

    // 3. Build the messages to send and the per-part report.
    auto addMessage = [&report](BudgetMessageReport &entry) {
        for (const BudgetPartReport &part : std::as_const(entry.parts)) {
            entry.charsBefore += part.charsBefore;
            entry.charsAfter += part.charsAfter;
            entry.tokensBefore += part.tokensBefore;
            entry.tokensAfter += part.tokensAfter;
            if (part.status == BudgetStatus::Stubbed)
                entry.status = BudgetStatus::Stubbed;
            else if (part.status == BudgetStatus::ImageDropped
                     && entry.status == BudgetStatus::Kept)
                entry.status = BudgetStatus::ImageDropped;
        }
        report.charsBefore += entry.charsBefore;
        report.charsAfter += entry.charsAfter;
        report.tokensBefore += entry.tokensBefore;
        report.tokensAfter += entry.tokensAfter;
        report.messages.append(entry);
    };

    if (!systemPrompt.isEmpty()) {
        BudgetMessageReport entry;
        entry.index = -1;
        entry.role = Role::System;
        entry.kind = u"system"_s;
        entry.parts.append(textPart(BudgetPartKind::Text, 0, characterCount(systemPrompt), type));
        addMessage(entry);
    }

    result.messages.reserve(messages.size());
    for (int m = 0; m < messages.size(); ++m) {
        const Message &source = messages[m];
        Message sent = source;
        BudgetMessageReport entry;
        entry.index = m;
        entry.role = source.role;
        entry.kind = budgetMessageKindName(source);

        if (!source.text.isEmpty())
            entry.parts.append(
                textPart(BudgetPartKind::Text, 0, characterCount(source.text), type));
        if (!source.refusal.isEmpty())
            entry.parts.append(
                textPart(BudgetPartKind::Refusal, 0, characterCount(source.refusal), type));
        for (int c = 0; c < source.toolCalls.size(); ++c) {
            const ToolCall &call = source.toolCalls[c];
            BudgetPartReport part =
                textPart(BudgetPartKind::ToolCall, c,
                         characterCount(call.name) + characterCount(toolCallText(call)), type);
            part.toolName = call.name;
            part.callId = call.id;
            entry.parts.append(part);
        }

        QStringList droppedNames;
        sent.attachments.clear();
        for (int a = 0; a < source.attachments.size(); ++a) {
            const Attachment &attachment = source.attachments[a];
            BudgetPartReport part = attachmentPart(attachment, a, type);
            if (attachment.isImage()) {
                part.reason = BudgetReason::ImageWindow;
                if (dropped.contains(ImageRef { m, -1, a })) {
                    part.status = BudgetStatus::ImageDropped;
                    part.tokensAfter = 0;
                    droppedNames.append(attachment.name);
                }
            }
            if (part.status != BudgetStatus::ImageDropped)
                sent.attachments.append(attachment);
            entry.parts.append(part);
        }

        for (int r = 0; r < source.toolResults.size(); ++r) {
            const ToolResult &original = source.toolResults[r];
            ToolResult &target = sent.toolResults[r];
            const ResultDecision &decision = decisions[m][r];
            BudgetPartReport part =
                textPart(BudgetPartKind::ToolResult, r, resultChars[m][r], type);
            part.toolName = original.name;
            part.callId = original.callId;
            part.lines = lineCount(original.content);
            part.status = decision.status;
            part.reason = decision.reason;
            if (decision.status == BudgetStatus::Stubbed) {
                target.content = stubText(original.name, original.content);
                part.stubText = target.content;
                part.charsAfter = characterCount(target.content);
                part.tokensAfter = estimateTokens(part.charsAfter, type);
            }
            entry.parts.append(part);

            QStringList droppedHere;
            target.images.clear();
            for (int i = 0; i < original.images.size(); ++i) {
                const Attachment &image = original.images[i];
                BudgetPartReport imagePart = attachmentPart(image, i, type);
                imagePart.kind =
                    BudgetPartKind::Image; // a tool's images are images whatever their type says
                imagePart.tokensBefore = imagePart.tokensAfter = imageTokenEstimate(type);
                imagePart.resultIndex = r;
                imagePart.toolName = original.name;
                imagePart.callId = original.callId;
                imagePart.reason = BudgetReason::ImageWindow;
                if (dropped.contains(ImageRef { m, r, i })) {
                    imagePart.status = BudgetStatus::ImageDropped;
                    imagePart.tokensAfter = 0;
                    droppedHere.append(image.name);
                } else {
                    target.images.append(image);
                }
                entry.parts.append(imagePart);
            }
            if (!droppedHere.isEmpty() && target.content.isEmpty() && target.images.isEmpty()) {
                target.content = joinedNotes(droppedHere);
                BudgetPartReport note = textPart(BudgetPartKind::Note, 0, 0, type);
                note.resultIndex = r;
                note.toolName = original.name;
                note.callId = original.callId;
                note.charsAfter = characterCount(target.content);
                note.tokensAfter = estimateTokens(note.charsAfter, type);
                note.reason = BudgetReason::ImageWindow;
                note.noteText = target.content;
                entry.parts.append(note);
            }
        }

        const bool emptyNow = sent.text.isEmpty() && sent.refusal.isEmpty()
            && sent.attachments.isEmpty() && sent.toolCalls.isEmpty() && sent.toolResults.isEmpty();
        if (!droppedNames.isEmpty() && emptyNow) {
            sent.text = joinedNotes(droppedNames);
            BudgetPartReport note = textPart(BudgetPartKind::Note, 0, 0, type);
            note.charsAfter = characterCount(sent.text);
            note.tokensAfter = estimateTokens(note.charsAfter, type);
            note.reason = BudgetReason::ImageWindow;
            note.noteText = sent.text;
            entry.parts.append(note);
        }

        addMessage(entry);
        result.messages.append(std::move(sent));
    }
    return result;
}

ContextBudgetFunction contextBudgetFunction(const BudgetSettings &settings)
{
    return [settings](const QList<Message> &messages) {
        BudgetResult result = applyContextBudget(messages, settings);
        return std::pair<QList<Message>, QJsonObject>(std::move(result.messages),
                                                      result.report.toJson());
    };
}

// ---------------------------------------------------------------------------------------------
// The report as JSON

QJsonObject BudgetPartReport::toJson() const
{
    QJsonObject object {
        { u"index"_s, index },
        { u"kind"_s, budgetPartKindName(kind) },
        { u"chars_before"_s, double(charsBefore) },
        { u"chars_after"_s, double(charsAfter) },
        { u"tokens_before"_s, double(tokensBefore) },
        { u"tokens_after"_s, double(tokensAfter) },
        { u"status"_s, budgetStatusName(status) },
    };
    if (reason != BudgetReason::None)
        object.insert(u"reason"_s, budgetReasonName(reason));
    if (resultIndex >= 0)
        object.insert(u"result_index"_s, resultIndex);
    if (!toolName.isEmpty())
        object.insert(u"tool_name"_s, toolName);
    if (!callId.isEmpty())
        object.insert(u"call_id"_s, callId);
    if (!imageName.isEmpty())
        object.insert(u"name"_s, imageName);
    if (!mediaType.isEmpty())
        object.insert(u"media_type"_s, mediaType);
    if (kind == BudgetPartKind::Image || kind == BudgetPartKind::File)
        object.insert(u"bytes"_s, double(bytes));
    if (kind == BudgetPartKind::ToolResult)
        object.insert(u"lines"_s, double(lines));
    if (!stubText.isEmpty())
        object.insert(u"stub"_s, stubText);
    if (!noteText.isEmpty())
        object.insert(u"note"_s, noteText);
    return object;
}

BudgetPartReport BudgetPartReport::fromJson(const QJsonObject &object)
{
    BudgetPartReport part;
    part.index = object.value(u"index"_s).toInt();
    part.kind =
        budgetPartKindFromName(object.value(u"kind"_s).toString()).value_or(BudgetPartKind::Text);
    part.resultIndex = object.value(u"result_index"_s).toInt(-1);
    part.toolName = object.value(u"tool_name"_s).toString();
    part.callId = object.value(u"call_id"_s).toString();
    part.imageName = object.value(u"name"_s).toString();
    part.mediaType = object.value(u"media_type"_s).toString();
    part.bytes = toInt64(object.value(u"bytes"_s));
    part.charsBefore = toInt64(object.value(u"chars_before"_s));
    part.charsAfter = toInt64(object.value(u"chars_after"_s));
    part.tokensBefore = toInt64(object.value(u"tokens_before"_s));
    part.tokensAfter = toInt64(object.value(u"tokens_after"_s));
    part.lines = toInt64(object.value(u"lines"_s));
    part.status =
        budgetStatusFromName(object.value(u"status"_s).toString()).value_or(BudgetStatus::Kept);
    part.reason =
        budgetReasonFromName(object.value(u"reason"_s).toString()).value_or(BudgetReason::None);
    part.stubText = object.value(u"stub"_s).toString();
    part.noteText = object.value(u"note"_s).toString();
    return part;
}

QJsonObject BudgetMessageReport::toJson() const
{
    QJsonArray partArray;
    for (const BudgetPartReport &part : parts)
        partArray.append(part.toJson());
    return QJsonObject {
        { u"index"_s, index },
        { u"role"_s, roleName(role) },
        { u"kind"_s, kind },
        { u"chars_before"_s, double(charsBefore) },
        { u"chars_after"_s, double(charsAfter) },
        { u"tokens_before"_s, double(tokensBefore) },
        { u"tokens_after"_s, double(tokensAfter) },
        { u"status"_s, budgetStatusName(status) },
        { u"parts"_s, partArray },
    };
}

BudgetMessageReport BudgetMessageReport::fromJson(const QJsonObject &object)
{
    BudgetMessageReport entry;
    entry.index = object.value(u"index"_s).toInt();
    entry.role = roleFromName(object.value(u"role"_s).toString()).value_or(Role::User);
    entry.kind = object.value(u"kind"_s).toString();
    entry.charsBefore = toInt64(object.value(u"chars_before"_s));
    entry.charsAfter = toInt64(object.value(u"chars_after"_s));
    entry.tokensBefore = toInt64(object.value(u"tokens_before"_s));
    entry.tokensAfter = toInt64(object.value(u"tokens_after"_s));
    entry.status =
        budgetStatusFromName(object.value(u"status"_s).toString()).value_or(BudgetStatus::Kept);
    const QJsonArray partArray = object.value(u"parts"_s).toArray();
    for (const QJsonValue &value : partArray)
        entry.parts.append(BudgetPartReport::fromJson(value.toObject()));
    return entry;
}

QString BudgetReport::budgetLine() const
{
    if (settings.source == BudgetSource::Unlimited || !settings.toolResultsInContext)
        return u"tool_results_in_context: null (every tool result in full)"_s;

    const QString newest = u"newest "_s + QString::number(*settings.toolResultsInContext)
        + u" large results in full, older ones within "_s;
    QString amount;
    if (settings.unit == BudgetUnit::Chars)
        amount = formatThousands(settings.budgetValue) + u" chars"_s;
    else
        amount = formatThousands(settings.budgetValue) + u" tokens ("_s
            + formatThousands(budgetChars) + u" chars)"_s;

    switch (settings.source) {
    case BudgetSource::EngineTokens:
        return newest + amount + u" from engine tool_results_tokens"_s;
    case BudgetSource::SettingTokens:
        return newest + amount + u" from context tool_results_tokens"_s;
    case BudgetSource::SettingChars:
        return newest + amount + u" from context tool_results_chars"_s;
    case BudgetSource::ContextWindow:
        return newest + amount + u" (20% of engine context_window)"_s;
    case BudgetSource::AssumedContextWindow:
        return newest + amount + u" (20% of an assumed "_s
            + formatThousands(AssumedContextWindowTokens) + u"-token context window)"_s;
    case BudgetSource::Unlimited:
        break;
    }
    return {};
}

QJsonObject BudgetReport::toJson() const
{
    QJsonArray messageArray;
    for (const BudgetMessageReport &entry : messages)
        messageArray.append(entry.toJson());

    const QJsonObject budget {
        { u"source"_s, budgetSourceName(settings.source) },
        { u"value"_s, double(settings.budgetValue) },
        { u"unit"_s, settings.unit == BudgetUnit::Chars ? u"chars"_s : u"tokens"_s },
        { u"chars"_s, double(budgetChars) },
        { u"used_chars"_s, double(usedChars) },
        { u"tool_results_in_context"_s,
          settings.toolResultsInContext ? QJsonValue(*settings.toolResultsInContext)
                                        : QJsonValue(QJsonValue::Null) },
        { u"images_in_context"_s, settings.imagesInContext },
        { u"large_threshold"_s, double(LargeToolResultChars) },
        { u"line"_s, budgetLine() },
    };
    const QJsonObject totals {
        { u"chars_before"_s, double(charsBefore) },   { u"chars_after"_s, double(charsAfter) },
        { u"tokens_before"_s, double(tokensBefore) }, { u"tokens_after"_s, double(tokensAfter) },
        { u"large_results"_s, largeResults },         { u"kept_large_results"_s, keptLargeResults },
        { u"stubbed_results"_s, stubbedResults },     { u"images"_s, images },
        { u"dropped_images"_s, droppedImages },
    };
    QJsonObject object {
        { u"version"_s, 1 },
        { u"engine_type"_s, engineTypeName(settings.engineType) },
        { u"chars_per_token"_s, charsPerToken(settings.engineType) },
        { u"image_tokens"_s, double(imageTokenEstimate(settings.engineType)) },
        { u"budget"_s, budget },
        { u"totals"_s, totals },
        { u"provider_input_tokens"_s, optionalToJson(providerInputTokens) },
        { u"messages"_s, messageArray },
    };
    return object;
}

BudgetReport BudgetReport::fromJson(const QJsonObject &object)
{
    BudgetReport report;
    report.settings.engineType =
        engineTypeFromName(object.value(u"engine_type"_s).toString()).value_or(EngineType::OpenAI);
    const QJsonObject budget = object.value(u"budget"_s).toObject();
    report.settings.source = budgetSourceFromName(budget.value(u"source"_s).toString())
                                 .value_or(BudgetSource::AssumedContextWindow);
    report.settings.budgetValue = toInt64(budget.value(u"value"_s));
    report.settings.unit =
        budget.value(u"unit"_s).toString() == u"chars" ? BudgetUnit::Chars : BudgetUnit::Tokens;
    const QJsonValue newest = budget.value(u"tool_results_in_context"_s);
    report.settings.toolResultsInContext =
        newest.isDouble() ? std::optional<int>(newest.toInt()) : std::nullopt;
    report.settings.imagesInContext =
        budget.value(u"images_in_context"_s).toInt(DefaultImagesInContext);
    report.budgetChars = toInt64(budget.value(u"chars"_s));
    report.usedChars = toInt64(budget.value(u"used_chars"_s));

    const QJsonObject totals = object.value(u"totals"_s).toObject();
    report.charsBefore = toInt64(totals.value(u"chars_before"_s));
    report.charsAfter = toInt64(totals.value(u"chars_after"_s));
    report.tokensBefore = toInt64(totals.value(u"tokens_before"_s));
    report.tokensAfter = toInt64(totals.value(u"tokens_after"_s));
    report.largeResults = totals.value(u"large_results"_s).toInt();
    report.keptLargeResults = totals.value(u"kept_large_results"_s).toInt();
    report.stubbedResults = totals.value(u"stubbed_results"_s).toInt();
    report.images = totals.value(u"images"_s).toInt();
    report.droppedImages = totals.value(u"dropped_images"_s).toInt();

    const QJsonValue provider = object.value(u"provider_input_tokens"_s);
    if (provider.isDouble())
        report.providerInputTokens = toInt64(provider);

    const QJsonArray messageArray = object.value(u"messages"_s).toArray();
    for (const QJsonValue &value : messageArray)
        report.messages.append(BudgetMessageReport::fromJson(value.toObject()));
    return report;
}

} // namespace Callscope
