#pragma once

// The context budget: which tool results and images one model request
// carries in full. applyContextBudget() is a pure function: it never touches its input, the
// stored transcript keeps every result, and the report says per message and per part what was
// kept, what was stubbed or dropped, why, and how large each part was. The runner stores the
// report per turn (TurnRecord::requestReport) and the GUI's budget view draws it.
//
// Rules, precisely:
//  - Sizes are counted in characters = Unicode code points (a surrogate pair counts once), the
//    way the original Python implementation counted len(str).
//  - A tool result is *large* when its content has more than 500 characters (500 is not large,
//    501 is). Error results (isError) and short results always pass unchanged and do not count
//    against the budget.
//  - Large results are walked from the newest to the oldest (message order, then result order
//    inside a message). The newest N (tool_results_in_context) are kept in full. Each older one
//    is kept in full while the running total of the kept large results -- the newest N
//    included -- plus its own size stays within the budget (total <= budget). The walk stops
//    at the first one that does not fit: it and every older large result become stubs, so the
//    kept results always form the newest contiguous run. Stubs get the reason "over_budget",
//    or "outside_newest_n" when the budget is 0 (tool_results_chars 0, or a 0-token setting:
//    only the count keeps results).
//  - The budget is compared in characters. A token budget is turned into characters with the
//    engine type's characters-per-token figure (charsPerToken()).
//  - tool_results_in_context null sends every result in full (reason "unlimited").
//  - A stub is exactly stubText(name, content): `[<name> result, <L> lines, <C> chars;
//    trimmed from context to save space. Note what you need; call the tool again only if you
//    still need detail.]`. C has a comma thousands separator regardless of the locale; L
//    counts '\n'-separated lines where a trailing newline does not open a new line ("a\nb\n"
//    is 2 lines) and one line is written "1 line". An empty tool name is written "tool".
//    The stubbed result keeps its call id, its name and its images.
//  - Images: every image across the conversation (user attachments whose media type is
//    image/*, and every image a tool result carries, stubbed or not) is ordered by message,
//    then attachment / result / image order. Only the newest images_in_context are sent; the
//    older ones are removed. A message or tool result that would then carry nothing at all
//    (no text, no other attachment, no image) gets the note `[image <name> dropped from
//    context]` (one line per dropped image) as its text, because providers reject empty
//    parts; otherwise no text is added. Non-image attachments are never touched. The image
//    window also applies when tool_results_in_context is null. Placeholder images (bytes not
//    kept, e.g. in a replayed transcript) count in the window like any other.
//  - The budget chain when no setting and no context_window is given: 20% of an assumed
//    128,000-token window (source "assumed_context_window").
//
// Token estimates are rough planning figures (the provider counts the real ones; the runner
// can add them to the report with BudgetReport::providerInputTokens):
//  - text: ceil(characters / charsPerToken(type)); 4 characters per token for every engine
//    type (OpenAI, OpenAI Responses, Anthropic, Gemini, OpenAI-compatible, replay). English
//    prose averages about 4 characters per token on all these tokenizers; code and non-Latin
//    text use more tokens per character, so the estimate errs low there.
//  - images: a flat figure per engine type, imageTokenEstimate(type): OpenAI / Responses /
//    compatible 765 (a 1024x1024 image at high detail: 85 + 4 tiles x 170), Anthropic 1,600
//    (the largest image it accepts without downscaling is about 1.15 megapixels / 750), Gemini
//    258 (one image up to 384x384; larger ones are tiled and cost more).

#include "core/model/message.h"
#include "core/model/spec.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <functional>
#include <optional>
#include <utility>

namespace Callscope {

// Content over this many characters makes a tool result "large".
inline constexpr qint64 LargeToolResultChars = 500;
inline constexpr int DefaultToolResultsInContext = 6;
inline constexpr int DefaultImagesInContext = 2;
inline constexpr int ContextWindowBudgetPercent = 20;
// Assumed when neither a budget setting nor the engine's context_window is given.
inline constexpr qint64 AssumedContextWindowTokens = 128000;

int charsPerToken(EngineType type);
qint64 imageTokenEstimate(EngineType type);
// ceil(characters / charsPerToken(type)); 0 for 0.
qint64 estimateTokens(qint64 characters, EngineType type);
// tokens * charsPerToken(type).
qint64 tokensToChars(qint64 tokens, EngineType type);

// Number of Unicode code points (a valid surrogate pair counts once).
qint64 characterCount(QStringView text);
// '\n'-separated lines; a trailing newline does not open a new line; "" has 0 lines.
qint64 lineCount(QStringView text);
// 9412 -> "9,412"; locale-independent.
QString formatThousands(qint64 value);
// The one-line stub a trimmed tool result is sent as.
QString stubText(const QString &toolName, QStringView content);
// "[image <name> dropped from context]" (or "[image dropped from context]" without a name).
QString droppedImageNote(const QString &imageName);

// Which link of the budget chain gave the budget.
enum class BudgetSource {
    Unlimited, // tool_results_in_context null: no budget applies
    EngineTokens, // engine.tool_results_tokens
    SettingTokens, // context.tool_results_tokens
    SettingChars, // context.tool_results_chars
    ContextWindow, // 20% of engine.context_window
    AssumedContextWindow, // 20% of AssumedContextWindowTokens (no context_window given)
};

QString budgetSourceName(BudgetSource source);
std::optional<BudgetSource> budgetSourceFromName(QStringView name);

enum class BudgetUnit { Tokens, Chars };

struct BudgetSettings
{
    EngineType engineType = EngineType::OpenAI;
    std::optional<int> toolResultsInContext = DefaultToolResultsInContext; // nullopt = all in full
    BudgetSource source = BudgetSource::AssumedContextWindow;
    qint64 budgetValue = 0; // in `unit`, as the source gave it (after the 20% rule)
    BudgetUnit unit = BudgetUnit::Tokens;
    int imagesInContext = DefaultImagesInContext;

    // The budget the kept large results are compared against, in characters.
    qint64 budgetChars() const;

    // Engine settings override the global ones; see the chain in the file comment.
    static BudgetSettings resolve(const EngineSpec &engine, const ContextSpec &context);
    static BudgetSettings fromSpec(const Spec &spec) { return resolve(spec.engine, spec.context); }

    friend bool operator==(const BudgetSettings &, const BudgetSettings &) = default;
};

enum class BudgetStatus { Kept, Stubbed, ImageDropped };
enum class BudgetReason {
    None, // not subject to trimming (text, tool calls, files)
    NewestN, // one of the newest N large results
    WithinBudget, // older large result that fitted the budget
    OverBudget, // older large result that did not fit (or is older than one that did not)
    OutsideNewestN, // older large result with a budget of 0: only the count keeps results
    Error, // error results always pass
    Short, // 500 characters or fewer
    Unlimited, // tool_results_in_context null
    ImageWindow, // images: inside (kept) or outside (dropped) the newest images_in_context
};

QString budgetStatusName(BudgetStatus status);
std::optional<BudgetStatus> budgetStatusFromName(QStringView name);
QString budgetReasonName(BudgetReason reason); // "" for None
std::optional<BudgetReason> budgetReasonFromName(QStringView name);

enum class BudgetPartKind { Text, Refusal, ToolCall, ToolResult, Image, File, Note };

QString budgetPartKindName(BudgetPartKind kind);
std::optional<BudgetPartKind> budgetPartKindFromName(QStringView name);

// One part of one message. Images have 0 characters and a flat token estimate.
// A Note part is the dropped-image note added to a message or tool result that would be empty.
struct BudgetPartReport
{
    // Text/Refusal/Note: 0; ToolCall: index in toolCalls; ToolResult: index in toolResults;
    // Image/File of a message: index in attachments; Image of a tool result: index in its images.
    int index = 0;
    BudgetPartKind kind = BudgetPartKind::Text;
    int resultIndex = -1; // images and notes of a tool result: the result's index
    QString toolName; // tool calls, tool results, images of tool results
    QString callId;
    QString imageName; // images and files
    QString mediaType;
    qint64 bytes = 0; // images and files: the attachment size
    qint64 charsBefore = 0;
    qint64 charsAfter = 0;
    qint64 tokensBefore = 0;
    qint64 tokensAfter = 0;
    qint64 lines = 0; // tool results: lines of the original content
    BudgetStatus status = BudgetStatus::Kept;
    BudgetReason reason = BudgetReason::None;
    QString stubText; // the stub actually sent (stubbed results only)
    QString noteText; // Note parts: the note actually sent

    QJsonObject toJson() const;
    static BudgetPartReport fromJson(const QJsonObject &object);
    friend bool operator==(const BudgetPartReport &, const BudgetPartReport &) = default;
};

// The message kinds: "system", "user", "assistant", "tool_results".
QString budgetMessageKindName(const Message &message);

struct BudgetMessageReport
{
    int index = 0; // index in the request's message list; -1 = system prompt
    Role role = Role::User;
    QString kind; // see budgetMessageKindName()
    qint64 charsBefore = 0;
    qint64 charsAfter = 0;
    qint64 tokensBefore = 0;
    qint64 tokensAfter = 0;
    // Stubbed when any result was stubbed, else ImageDropped when any image was dropped.
    BudgetStatus status = BudgetStatus::Kept;
    QList<BudgetPartReport> parts;

    QJsonObject toJson() const;
    static BudgetMessageReport fromJson(const QJsonObject &object);
    friend bool operator==(const BudgetMessageReport &, const BudgetMessageReport &) = default;
};

struct BudgetReport
{
    BudgetSettings settings;
    qint64 budgetChars = 0; // settings.budgetChars(), for readers of the JSON
    qint64 usedChars = 0; // size of the large results kept in full (errors excluded)
    int largeResults = 0; // large, non-error results
    int keptLargeResults = 0;
    int stubbedResults = 0;
    int images = 0;
    int droppedImages = 0;
    qint64 charsBefore = 0;
    qint64 charsAfter = 0;
    qint64 tokensBefore = 0;
    qint64 tokensAfter = 0;
    // The provider's own prompt token count for this request, once its reply reported usage
    // (the runner fills it in); the GUI shows it next to the estimate.
    std::optional<qint64> providerInputTokens;
    QList<BudgetMessageReport> messages;

    // "engine tool_results_tokens: 8,000 tokens (32,000 chars)" and the like; not translated
    // (it names settings).
    QString budgetLine() const;

    QJsonObject toJson() const;
    static BudgetReport fromJson(const QJsonObject &object);
    friend bool operator==(const BudgetReport &, const BudgetReport &) = default;
};

struct BudgetResult
{
    QList<Message> messages; // what the request carries
    BudgetReport report;
};

BudgetResult applyContextBudget(const QList<Message> &messages, const BudgetSettings &settings);
// Same, with the system prompt reported as message index -1 (it is never trimmed).
BudgetResult applyContextBudget(const QString &systemPrompt, const QList<Message> &messages,
                                const BudgetSettings &settings);

// For the runner's RunOptions::budget (core/loop/runner.h): applies the budget with `settings`
// to each request's messages and returns them with the report as JSON (TurnRecord::requestReport).
using ContextBudgetFunction =
    std::function<std::pair<QList<Message>, QJsonObject>(const QList<Message> &)>;
ContextBudgetFunction contextBudgetFunction(const BudgetSettings &settings);

} // namespace Callscope
