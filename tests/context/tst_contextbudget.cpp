// Tests of the context budget (core/context/contextbudget.h): the settings chain, the trimming
// rules, the stub text, the image window and the report.

#include "core/context/contextbudget.h"
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace Callscope;

namespace {

// Content of exactly `chars` characters on `lines` lines ('\n' between them, none at the end).
QString sized(qint64 chars, qint64 lines = 1)
{
    Q_ASSERT(lines >= 1 && chars >= 2 * lines - 1);
    const qint64 letters = chars - (lines - 1);
    QString text;
    text.reserve(chars);
    for (qint64 line = 0; line < lines; ++line) {
        const qint64 here = letters / lines + (line < letters % lines ? 1 : 0);
        if (line > 0)
            text += u'\n';
        text += QString(here, u'x');
    }
    return text;
}

QByteArray pngBytes(char seed)
{
    return "\x89PNG\r\n\x1a\n"_ba + QByteArray(16, seed);
}

Attachment image(const QString &name)
{
    return Attachment::fromData(name, u"image/png"_s,
                                pngBytes(name.isEmpty() ? 'x' : name.at(0).toLatin1()));
}

// Compact conversations: one assistant call plus one tool message per token of `results`.
// A token is a size ("5000"), an error ("e5000"), with an optional image ("5000+i").
QList<Message> conversation(const QStringList &results)
{
    QList<Message> messages { Message::user(u"Go."_s) };
    for (int i = 0; i < results.size(); ++i) {
        QString token = results[i];
        const bool withImage = token.endsWith(u"+i");
        if (withImage)
            token.chop(2);
        const bool error = token.startsWith(u'e');
        if (error)
            token.remove(0, 1);
        ToolCall call;
        call.id = u"call_%1"_s.arg(i);
        call.name = u"search"_s;
        call.rawArguments = u"{\"q\":%1}"_s.arg(i);
        call.arguments = QJsonObject { { u"q"_s, i } };
        messages.append(Message::assistant(QString(), { call }));
        ToolResult result;
        result.callId = call.id;
        result.name = call.name;
        result.content = sized(token.toLongLong());
        result.isError = error;
        if (withImage)
            result.images.append(image(u"r%1.png"_s.arg(i)));
        messages.append(Message::toolResultsMessage({ result }));
    }
    return messages;
}

BudgetSettings settingsFor(std::optional<int> newest, std::optional<qint64> chars,
                           EngineType type = EngineType::OpenAI)
{
    EngineSpec engine;
    engine.type = type;
    ContextSpec context;
    context.toolResultsInContext = newest;
    context.toolResultsChars = chars;
    return BudgetSettings::resolve(engine, context);
}

// The reasons of every tool result in order, comma-separated.
QString resultReasons(const BudgetReport &report)
{
    QStringList reasons;
    for (const BudgetMessageReport &entry : report.messages) {
        for (const BudgetPartReport &part : entry.parts) {
            if (part.kind == BudgetPartKind::ToolResult)
                reasons.append(budgetReasonName(part.reason));
        }
    }
    return reasons.join(u',');
}

QList<ToolResult> allResults(const QList<Message> &messages)
{
    QList<ToolResult> results;
    for (const Message &message : messages)
        results += message.toolResults;
    return results;
}

const QString StubTail =
    u" chars; trimmed from context to save space. Note what you need; call the "
    u"tool again only if you still need detail.]"_s;

} // namespace

class TestContextBudget final : public QObject
{
    Q_OBJECT

private slots:
    void estimates();
    void formatThousands_data();
    void formatThousands();
    void formatThousandsIgnoresLocale();
    void lineAndCharacterCount_data();
    void lineAndCharacterCount();
    void stubText_data();
    void stubText();
    void settingsChain_data();
    void settingsChain();
    void chainDrivesTrimming_data();
    void chainDrivesTrimming();
    void rules_data();
    void rules();
    void largeBoundary_data();
    void largeBoundary();
    void stubbedResultKeepsPairing();
    void resultsInOneMessage();
    void images_data();
    void images();
    void droppedImageNotes();
    void reportOfConversation();
    void reportJsonRoundTrip();
    void reportGoldenJson();
    void deterministicAndInputUntouched();
    void budgetFunctionForRunner();
};

void TestContextBudget::estimates()
{
    for (EngineType type : { EngineType::OpenAI, EngineType::OpenAIResponses, EngineType::Anthropic,
                             EngineType::Gemini, EngineType::OpenAICompatible, EngineType::Replay })
        QCOMPARE(charsPerToken(type), 4);
    QCOMPARE(estimateTokens(0, EngineType::OpenAI), 0);
    QCOMPARE(estimateTokens(1, EngineType::OpenAI), 1);
    QCOMPARE(estimateTokens(4, EngineType::Anthropic), 1);
    QCOMPARE(estimateTokens(5, EngineType::Gemini), 2);
    QCOMPARE(estimateTokens(5000, EngineType::OpenAI), 1250);
    QCOMPARE(estimateTokens(9412, EngineType::OpenAI), 2353);
    QCOMPARE(tokensToChars(2500, EngineType::OpenAI), 10000);
    QCOMPARE(tokensToChars(-3, EngineType::OpenAI), 0);
    QCOMPARE(imageTokenEstimate(EngineType::OpenAI), 765);
    QCOMPARE(imageTokenEstimate(EngineType::OpenAIResponses), 765);
    QCOMPARE(imageTokenEstimate(EngineType::OpenAICompatible), 765);
    QCOMPARE(imageTokenEstimate(EngineType::Anthropic), 1600);
    QCOMPARE(imageTokenEstimate(EngineType::Gemini), 258);
}

void TestContextBudget::formatThousands_data()
{
    QTest::addColumn<qint64>("value");
    QTest::addColumn<QString>("expected");
    QTest::newRow("0") << qint64(0) << u"0"_s;
    QTest::newRow("7") << qint64(7) << u"7"_s;
    QTest::newRow("999") << qint64(999) << u"999"_s;
    QTest::newRow("1000") << qint64(1000) << u"1,000"_s;
    QTest::newRow("9412") << qint64(9412) << u"9,412"_s;
    QTest::newRow("12345") << qint64(12345) << u"12,345"_s;
    QTest::newRow("100000") << qint64(100000) << u"100,000"_s;
    QTest::newRow("1234567") << qint64(1234567) << u"1,234,567"_s;
    QTest::newRow("negative") << qint64(-1234) << u"-1,234"_s;
}

void TestContextBudget::formatThousands()
{
    QFETCH(qint64, value);
    QFETCH(QString, expected);
    QCOMPARE(Callscope::formatThousands(value), expected);
}

void TestContextBudget::formatThousandsIgnoresLocale()
{
    const QLocale before;
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    const QString formatted = Callscope::formatThousands(9412);
    const QString stub = Callscope::stubText(u"search"_s, sized(9412, 180));
    QLocale::setDefault(QLocale(QLocale::French, QLocale::France));
    const QString french = Callscope::formatThousands(1234567);
    QLocale::setDefault(before);
    QCOMPARE(formatted, u"9,412"_s);
    QCOMPARE(french, u"1,234,567"_s);
    QCOMPARE(stub, u"[search result, 180 lines, 9,412"_s + StubTail);
}

void TestContextBudget::lineAndCharacterCount_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("lines");
    QTest::addColumn<qint64>("chars");
    QTest::newRow("empty") << QString() << qint64(0) << qint64(0);
    QTest::newRow("one line") << u"abc"_s << qint64(1) << qint64(3);
    QTest::newRow("trailing newline") << u"abc\n"_s << qint64(1) << qint64(4);
    QTest::newRow("two lines") << u"a\nb"_s << qint64(2) << qint64(3);
    QTest::newRow("two lines, trailing") << u"a\nb\n"_s << qint64(2) << qint64(4);
    QTest::newRow("blank lines") << u"a\n\n\nb"_s << qint64(4) << qint64(5);
    QTest::newRow("only newline") << u"\n"_s << qint64(1) << qint64(1);
    QTest::newRow("crlf") << u"a\r\nb\r\n"_s << qint64(2) << qint64(6);
    // U+1F600 is one character written as a surrogate pair.
    QTest::newRow("emoji") << QString::fromUtf8("\xF0\x9F\x98\x80\xF0\x9F\x98\x80") << qint64(1)
                           << qint64(2);
    QTest::newRow("accent") << QString::fromUtf8("caf\xC3\xA9") << qint64(1) << qint64(4);
}

void TestContextBudget::lineAndCharacterCount()
{
    QFETCH(QString, text);
    QFETCH(qint64, lines);
    QFETCH(qint64, chars);
    QCOMPARE(lineCount(text), lines);
    QCOMPARE(characterCount(text), chars);
}

void TestContextBudget::stubText_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("content");
    QTest::addColumn<QString>("expected");
    QTest::newRow("mission example")
        << u"search"_s << sized(9412, 180) << u"[search result, 180 lines, 9,412"_s + StubTail;
    QTest::newRow("penpot") << u"penpot_tree"_s << sized(9412, 180)
                            << u"[penpot_tree result, 180 lines, 9,412"_s + StubTail;
    QTest::newRow("one line") << u"fetch"_s << sized(501)
                              << u"[fetch result, 1 line, 501"_s + StubTail;
    QTest::newRow("trailing newline")
        << u"fetch"_s << sized(600, 3) + u'\n' << u"[fetch result, 3 lines, 601"_s + StubTail;
    QTest::newRow("millions") << u"dump"_s << sized(1234567, 1001)
                              << u"[dump result, 1,001 lines, 1,234,567"_s + StubTail;
    QTest::newRow("no name") << QString() << sized(5000, 2)
                             << u"[tool result, 2 lines, 5,000"_s + StubTail;
    QString emoji;
    for (int i = 0; i < 600; ++i)
        emoji += QString::fromUtf8("\xF0\x9F\x98\x80");
    QTest::newRow("emoji counts code points")
        << u"emoji"_s << emoji << u"[emoji result, 1 line, 600"_s + StubTail;
}

void TestContextBudget::stubText()
{
    QFETCH(QString, name);
    QFETCH(QString, content);
    QFETCH(QString, expected);
    QCOMPARE(Callscope::stubText(name, content), expected);
    QVERIFY(!expected.contains(u'\n'));
}

void TestContextBudget::settingsChain_data()
{
    // -2 = absent, -1 = null (only meaningful for the N columns and the optional numbers).
    QTest::addColumn<int>("engineN");
    QTest::addColumn<int>("globalN");
    QTest::addColumn<qint64>("engineTokens");
    QTest::addColumn<qint64>("globalTokens");
    QTest::addColumn<qint64>("globalChars");
    QTest::addColumn<qint64>("window");
    QTest::addColumn<int>("engineType");
    QTest::addColumn<int>("expectedN");
    QTest::addColumn<QString>("expectedSource");
    QTest::addColumn<qint64>("expectedValue");
    QTest::addColumn<qint64>("expectedChars");

    const int openai = int(EngineType::OpenAI);
    QTest::newRow("defaults") << -2 << 6 << qint64(-2) << qint64(-2) << qint64(-2) << qint64(-2)
                              << openai << 6 << u"assumed_context_window"_s << qint64(25600)
                              << qint64(102400);
    QTest::newRow("20% of window") << -2 << 6 << qint64(-2) << qint64(-2) << qint64(-2)
                                   << qint64(200000) << int(EngineType::Anthropic) << 6
                                   << u"context_window"_s << qint64(40000) << qint64(160000);
    QTest::newRow("20% of odd window floors")
        << -2 << 6 << qint64(-2) << qint64(-2) << qint64(-2) << qint64(8191) << openai << 6
        << u"context_window"_s << qint64(1638) << qint64(6552);
    QTest::newRow("chars") << -2 << 6 << qint64(-2) << qint64(-2) << qint64(30000) << qint64(200000)
                           << openai << 6 << u"tool_results_chars"_s << qint64(30000)
                           << qint64(30000);
    QTest::newRow("chars 0") << -2 << 6 << qint64(-2) << qint64(-2) << qint64(0) << qint64(200000)
                             << openai << 6 << u"tool_results_chars"_s << qint64(0) << qint64(0);
    QTest::newRow("global tokens over chars")
        << -2 << 6 << qint64(-2) << qint64(3000) << qint64(30000) << qint64(200000) << openai << 6
        << u"tool_results_tokens"_s << qint64(3000) << qint64(12000);
    QTest::newRow("engine tokens over all")
        << -2 << 6 << qint64(2500) << qint64(3000) << qint64(30000) << qint64(200000)
        << int(EngineType::Gemini) << 6 << u"engine_tool_results_tokens"_s << qint64(2500)
        << qint64(10000);
    QTest::newRow("engine tokens 0")
        << -2 << 6 << qint64(0) << qint64(3000) << qint64(-2) << qint64(-2) << openai << 6
        << u"engine_tool_results_tokens"_s << qint64(0) << qint64(0);
    QTest::newRow("engine N overrides")
        << 2 << 6 << qint64(-2) << qint64(-2) << qint64(-2) << qint64(100000) << openai << 2
        << u"context_window"_s << qint64(20000) << qint64(80000);
    QTest::newRow("engine N 0") << 0 << 6 << qint64(-2) << qint64(-2) << qint64(0) << qint64(-2)
                                << openai << 0 << u"tool_results_chars"_s << qint64(0) << qint64(0);
    QTest::newRow("engine null overrides")
        << -1 << 6 << qint64(2500) << qint64(-2) << qint64(-2) << qint64(-2) << openai << -1
        << u"unlimited"_s << qint64(0) << qint64(0);
    QTest::newRow("global null") << -2 << -1 << qint64(-2) << qint64(3000) << qint64(-2)
                                 << qint64(-2) << openai << -1 << u"unlimited"_s << qint64(0)
                                 << qint64(0);
    QTest::newRow("engine N over global null")
        << 4 << -1 << qint64(-2) << qint64(-2) << qint64(-2) << qint64(-2) << openai << 4
        << u"assumed_context_window"_s << qint64(25600) << qint64(102400);
    QTest::newRow("negative N clamps")
        << -2 << -5 << qint64(-2) << qint64(-2) << qint64(-2) << qint64(-2) << openai << -1
        << u"unlimited"_s << qint64(0) << qint64(0);
}

void TestContextBudget::settingsChain()
{
    QFETCH(int, engineN);
    QFETCH(int, globalN);
    QFETCH(qint64, engineTokens);
    QFETCH(qint64, globalTokens);
    QFETCH(qint64, globalChars);
    QFETCH(qint64, window);
    QFETCH(int, engineType);
    QFETCH(int, expectedN);
    QFETCH(QString, expectedSource);
    QFETCH(qint64, expectedValue);
    QFETCH(qint64, expectedChars);

    EngineSpec engine;
    engine.type = EngineType(engineType);
    if (engineN == -1)
        engine.toolResultsInContext = std::optional<int>();
    else if (engineN >= 0)
        engine.toolResultsInContext = std::optional<int>(engineN);
    if (engineTokens >= 0)
        engine.toolResultsTokens = engineTokens;
    if (window >= 0)
        engine.contextWindow = window;
    ContextSpec context;
    // The null row for the global N; "negative N clamps" passes -5, which is not null: it
    // checks that a negative count is treated as 0 rather than as "everything".
    context.toolResultsInContext = globalN == -1 ? std::nullopt : std::optional<int>(globalN);
    if (globalTokens >= 0)
        context.toolResultsTokens = globalTokens;
    if (globalChars >= 0)
        context.toolResultsChars = globalChars;

    const BudgetSettings settings = BudgetSettings::resolve(engine, context);
    if (QByteArray(QTest::currentDataTag()) == "negative N clamps") {
        QCOMPARE(settings.toolResultsInContext, std::optional<int>(0));
        QCOMPARE(budgetSourceName(settings.source), u"assumed_context_window"_s);
        return;
    }
    QCOMPARE(settings.toolResultsInContext,
             expectedN < 0 ? std::nullopt : std::optional<int>(expectedN));
    QCOMPARE(budgetSourceName(settings.source), expectedSource);
    QCOMPARE(settings.budgetValue, expectedValue);
    QCOMPARE(settings.budgetChars(), expectedChars);
    QCOMPARE(settings.imagesInContext, 2);
    QCOMPARE(settings.engineType, EngineType(engineType));

    Spec spec;
    spec.engine = engine;
    spec.context = context;
    QCOMPARE(BudgetSettings::fromSpec(spec), settings);
}

void TestContextBudget::chainDrivesTrimming_data()
{
    // Ten 5,000-character results, N = 1 unless said otherwise: how many stay in full.
    QTest::addColumn<int>("engineN"); // -2 absent, -1 null
    QTest::addColumn<qint64>("engineTokens"); // -2 absent
    QTest::addColumn<qint64>("globalTokens");
    QTest::addColumn<qint64>("globalChars");
    QTest::addColumn<qint64>("window");
    QTest::addColumn<int>("kept");
    QTest::addColumn<QString>("line");

    const QString n1 = u"newest 1 large results in full, older ones within "_s;
    QTest::newRow("engine tokens")
        << -2 << qint64(3000) << qint64(5000) << qint64(40000) << qint64(-2) << 2
        << n1 + u"3,000 tokens (12,000 chars) from engine tool_results_tokens"_s;
    QTest::newRow("global tokens")
        << -2 << qint64(-2) << qint64(5000) << qint64(40000) << qint64(-2) << 4
        << n1 + u"5,000 tokens (20,000 chars) from context tool_results_tokens"_s;
    QTest::newRow("chars") << -2 << qint64(-2) << qint64(-2) << qint64(31000) << qint64(1000) << 6
                           << n1 + u"31,000 chars from context tool_results_chars"_s;
    QTest::newRow("chars 0 keeps only the count")
        << -2 << qint64(-2) << qint64(-2) << qint64(0) << qint64(-2) << 1
        << n1 + u"0 chars from context tool_results_chars"_s;
    QTest::newRow("20% of window")
        << -2 << qint64(-2) << qint64(-2) << qint64(-2) << qint64(60000) << 9
        << n1 + u"12,000 tokens (48,000 chars) (20% of engine context_window)"_s;
    QTest::newRow("assumed window")
        << -2 << qint64(-2) << qint64(-2) << qint64(-2) << qint64(-2) << 10
        << n1
            + u"25,600 tokens (102,400 chars) (20% of an assumed 128,000-token "
              u"context window)"_s;
    QTest::newRow("engine N 3, chars 0")
        << 3 << qint64(-2) << qint64(-2) << qint64(0) << qint64(-2) << 3
        << u"newest 3 large results in full, older ones within 0 chars from "
           u"context tool_results_chars"_s;
    QTest::newRow("engine null") << -1 << qint64(-2) << qint64(-2) << qint64(0) << qint64(-2) << 10
                                 << u"tool_results_in_context: null (every tool result in full)"_s;
}

void TestContextBudget::chainDrivesTrimming()
{
    QFETCH(int, engineN);
    QFETCH(qint64, engineTokens);
    QFETCH(qint64, globalTokens);
    QFETCH(qint64, globalChars);
    QFETCH(qint64, window);
    QFETCH(int, kept);
    QFETCH(QString, line);

    EngineSpec engine;
    if (engineN == -1)
        engine.toolResultsInContext = std::optional<int>();
    else if (engineN >= 0)
        engine.toolResultsInContext = std::optional<int>(engineN);
    if (engineTokens >= 0)
        engine.toolResultsTokens = engineTokens;
    if (window >= 0)
        engine.contextWindow = window;
    ContextSpec context;
    context.toolResultsInContext = 1;
    if (globalTokens >= 0)
        context.toolResultsTokens = globalTokens;
    if (globalChars >= 0)
        context.toolResultsChars = globalChars;

    const QStringList sizes(10, u"5000"_s);
    const BudgetResult result =
        applyContextBudget(conversation(sizes), BudgetSettings::resolve(engine, context));
    const QList<ToolResult> results = allResults(result.messages);
    QCOMPARE(results.size(), 10);
    for (int i = 0; i < 10; ++i) {
        const bool full = i >= 10 - kept;
        QCOMPARE(results[i].content,
                 full ? sized(5000) : u"[search result, 1 line, 5,000"_s + StubTail);
    }
    QCOMPARE(result.report.keptLargeResults, kept);
    QCOMPARE(result.report.stubbedResults, 10 - kept);
    QCOMPARE(result.report.usedChars, 5000 * kept);
    QCOMPARE(result.report.budgetLine(), line);
}

void TestContextBudget::rules_data()
{
    // results: oldest first, one tool message each; "e" marks an error result.
    QTest::addColumn<QStringList>("results");
    QTest::addColumn<int>("newest"); // -1 = null
    QTest::addColumn<qint64>("chars"); // tool_results_chars
    QTest::addColumn<QString>("reasons");
    QTest::addColumn<qint64>("used");

    QTest::newRow("ten of 5,000, defaults fit")
        << QStringList(10, u"5000"_s) << 6 << qint64(102400)
        << u"within_budget,within_budget,within_budget,within_budget,newest_n,newest_n,newest_n,"
           u"newest_n,"
           u"newest_n,newest_n"_s
        << qint64(50000);
    QTest::newRow("ten of 5,000, chars 0") << QStringList(10, u"5000"_s) << 6 << qint64(0)
                                           << u"outside_newest_n,outside_newest_n,outside_newest_n,"
                                              u"outside_newest_n,newest_n,newest_n,newest_n,"
                                              u"newest_n,newest_n,newest_n"_s
                                           << qint64(30000);
    QTest::newRow("budget admits one more")
        << QStringList(5, u"5000"_s) << 2 << qint64(15000)
        << u"over_budget,over_budget,within_budget,newest_n,newest_n"_s << qint64(15000);
    QTest::newRow("one char short")
        << QStringList(5, u"5000"_s) << 2 << qint64(14999)
        << u"over_budget,over_budget,over_budget,newest_n,newest_n"_s << qint64(10000);
    QTest::newRow("walk stops at first misfit")
        << QStringList { u"600"_s, u"600"_s, u"9000"_s, u"5000"_s } << 1 << qint64(8000)
        << u"over_budget,over_budget,over_budget,newest_n"_s << qint64(5000);
    QTest::newRow("newest N alone exceed budget")
        << QStringList(5, u"800"_s) << 3 << qint64(1000)
        << u"over_budget,over_budget,newest_n,newest_n,newest_n"_s << qint64(2400);
    QTest::newRow("N 0 uses only the budget")
        << QStringList(4, u"800"_s) << 0 << qint64(2000)
        << u"over_budget,over_budget,within_budget,within_budget"_s << qint64(1600);
    QTest::newRow("N 0 and chars 0 stubs all")
        << QStringList(3, u"800"_s) << 0 << qint64(0)
        << u"outside_newest_n,outside_newest_n,outside_newest_n"_s << qint64(0);
    QTest::newRow("null sends everything")
        << QStringList(8, u"50000"_s) << -1 << qint64(0)
        << u"unlimited,unlimited,unlimited,unlimited,unlimited,unlimited,unlimited,unlimited"_s
        << qint64(400000);
    QTest::newRow("errors pass and do not count")
        << QStringList { u"5000"_s, u"e5000"_s, u"e20"_s, u"5000"_s } << 1 << qint64(0)
        << u"outside_newest_n,error,error,newest_n"_s << qint64(5000);
    QTest::newRow("errors do not use the budget")
        << QStringList { u"5000"_s, u"e50000"_s, u"5000"_s } << 1 << qint64(10000)
        << u"within_budget,error,newest_n"_s << qint64(10000);
    QTest::newRow("short pass and do not count")
        << QStringList { u"5000"_s, u"300"_s, u"500"_s, u"5000"_s } << 1 << qint64(0)
        << u"outside_newest_n,short,short,newest_n"_s << qint64(5000);
    QTest::newRow("null keeps short and errors")
        << QStringList { u"300"_s, u"e900"_s, u"900"_s } << -1 << qint64(0)
        << u"short,error,unlimited"_s << qint64(900);
    QTest::newRow("fewer large than N")
        << QStringList { u"900"_s, u"100"_s, u"900"_s } << 6 << qint64(0)
        << u"newest_n,short,newest_n"_s << qint64(1800);
}

void TestContextBudget::rules()
{
    QFETCH(QStringList, results);
    QFETCH(int, newest);
    QFETCH(qint64, chars);
    QFETCH(QString, reasons);
    QFETCH(qint64, used);

    const QList<Message> input = conversation(results);
    const BudgetResult result = applyContextBudget(
        input, settingsFor(newest < 0 ? std::nullopt : std::optional<int>(newest), chars));
    QCOMPARE(resultReasons(result.report), reasons);
    QCOMPARE(result.report.usedChars, used);

    // What was sent matches the reasons: stubs exactly where the report says, else unchanged.
    const QList<ToolResult> before = allResults(input);
    const QList<ToolResult> after = allResults(result.messages);
    const QStringList reasonList = reasons.split(u',');
    QCOMPARE(after.size(), before.size());
    int stubbed = 0;
    for (int i = 0; i < after.size(); ++i) {
        const bool stub = reasonList[i] == u"over_budget" || reasonList[i] == u"outside_newest_n";
        stubbed += stub ? 1 : 0;
        QCOMPARE(after[i].callId, before[i].callId);
        QCOMPARE(after[i].name, before[i].name);
        QCOMPARE(after[i].isError, before[i].isError);
        QCOMPARE(after[i].content,
                 stub ? Callscope::stubText(before[i].name, before[i].content) : before[i].content);
    }
    QCOMPARE(result.report.stubbedResults, stubbed);
    // Everything but the tool results is sent as it was.
    QCOMPARE(result.messages.size(), input.size());
    for (int m = 0; m < input.size(); ++m) {
        QCOMPARE(result.messages[m].role, input[m].role);
        QCOMPARE(result.messages[m].text, input[m].text);
        QCOMPARE(result.messages[m].toolCalls, input[m].toolCalls);
    }
}

void TestContextBudget::largeBoundary_data()
{
    QTest::addColumn<QString>("content");
    QTest::addColumn<bool>("large");
    QTest::newRow("499") << sized(499) << false;
    QTest::newRow("500 is not large") << sized(500) << false;
    QTest::newRow("501 is large") << sized(501) << true;
    QTest::newRow("500 on many lines") << sized(500, 100) << false;
    QTest::newRow("501 on many lines") << sized(501, 100) << true;
    QString emoji;
    for (int i = 0; i < 500; ++i)
        emoji += QString::fromUtf8("\xF0\x9F\x98\x80");
    QTest::newRow("500 emoji (1,000 UTF-16 units)") << emoji << false;
    QTest::newRow("501 emoji") << emoji + QString::fromUtf8("\xF0\x9F\x98\x80") << true;
}

void TestContextBudget::largeBoundary()
{
    QFETCH(QString, content);
    QFETCH(bool, large);
    ToolResult old;
    old.callId = u"call_old"_s;
    old.name = u"read"_s;
    old.content = content;
    ToolCall call { u"call_old"_s, u"read"_s, {}, u"{}"_s, {}, {} };
    const QList<Message> input { Message::user(u"Go."_s), Message::assistant(QString(), { call }),
                                 Message::toolResultsMessage({ old }) };
    // N 0 and a zero budget: every large result is stubbed, every short one passes.
    const BudgetResult result = applyContextBudget(input, settingsFor(0, 0));
    const ToolResult sent = result.messages[2].toolResults[0];
    QCOMPARE(sent.content, large ? Callscope::stubText(u"read"_s, content) : content);
    QCOMPARE(resultReasons(result.report), large ? u"outside_newest_n"_s : u"short"_s);
    QCOMPARE(result.report.largeResults, large ? 1 : 0);
}

void TestContextBudget::stubbedResultKeepsPairing()
{
    const QList<Message> input = conversation({ u"9000+i"_s, u"7000"_s });
    const BudgetResult result = applyContextBudget(input, settingsFor(1, 0));
    const ToolResult &stub = result.messages[2].toolResults[0];
    QCOMPARE(stub.callId, u"call_0"_s);
    QCOMPARE(stub.name, u"search"_s);
    QCOMPARE(stub.isError, false);
    QCOMPARE(stub.content, u"[search result, 1 line, 9,000"_s + StubTail);
    // Its image is inside the window of 2, so it stays although the text became a stub.
    QCOMPARE(stub.images.size(), 1);
    QCOMPARE(stub.images[0], input[2].toolResults[0].images[0]);
    QCOMPARE(result.messages[1].toolCalls[0].id, u"call_0"_s);
    QCOMPARE(result.messages[4].toolResults[0].content, sized(7000));

    const BudgetPartReport part = result.report.messages[2].parts[0];
    QCOMPARE(part.kind, BudgetPartKind::ToolResult);
    QCOMPARE(part.status, BudgetStatus::Stubbed);
    QCOMPARE(part.stubText, stub.content);
    QCOMPARE(part.charsBefore, 9000);
    QCOMPARE(part.charsAfter, characterCount(stub.content));
    QCOMPARE(part.lines, 1);
    QCOMPARE(result.report.messages[2].status, BudgetStatus::Stubbed);
    QCOMPARE(result.report.messages[2].parts[1].kind, BudgetPartKind::Image);
    QCOMPARE(result.report.messages[2].parts[1].status, BudgetStatus::Kept);
}

void TestContextBudget::resultsInOneMessage()
{
    // Parallel calls: three results in one tool message; the order inside it is the age order.
    QList<ToolCall> calls;
    QList<ToolResult> results;
    for (int i = 0; i < 3; ++i) {
        calls.append(ToolCall { u"call_%1"_s.arg(i), u"t%1"_s.arg(i), {}, u"{}"_s, {}, {} });
        results.append(
            ToolResult { u"call_%1"_s.arg(i), u"t%1"_s.arg(i), sized(1000 + i, 2), false, {} });
    }
    const QList<Message> input { Message::user(u"Go."_s), Message::assistant(QString(), calls),
                                 Message::toolResultsMessage(results) };
    const BudgetResult result = applyContextBudget(input, settingsFor(1, 1002));
    QCOMPARE(resultReasons(result.report), u"over_budget,over_budget,newest_n"_s);
    const QList<ToolResult> sent = result.messages[2].toolResults;
    QCOMPARE(sent[0].content, u"[t0 result, 2 lines, 1,000"_s + StubTail);
    QCOMPARE(sent[1].content, u"[t1 result, 2 lines, 1,001"_s + StubTail);
    QCOMPARE(sent[2].content, results[2].content);
    for (int i = 0; i < 3; ++i)
        QCOMPARE(sent[i].callId, calls[i].id);
}

void TestContextBudget::images_data()
{
    // Conversation, oldest first: user(text + a.png + notes.pdf), result 0 (large, stubbed
    // with N 1 / chars 0, image r0.png), result 1 (short, image r1.png), result 2 (large,
    // kept, image r2.png), user(text + d.png).
    QTest::addColumn<int>("window");
    QTest::addColumn<QStringList>("sent");
    QTest::addColumn<int>("dropped");
    QTest::newRow("0") << 0 << QStringList {} << 5;
    QTest::newRow("1") << 1 << QStringList { u"d.png"_s } << 4;
    QTest::newRow("default 2") << 2 << QStringList { u"r2.png"_s, u"d.png"_s } << 3;
    QTest::newRow("4 reaches the stubbed result")
        << 4 << QStringList { u"r0.png"_s, u"r1.png"_s, u"r2.png"_s, u"d.png"_s } << 1;
    QTest::newRow("5") << 5
                       << QStringList { u"a.png"_s, u"r0.png"_s, u"r1.png"_s, u"r2.png"_s,
                                        u"d.png"_s }
                       << 0;
    QTest::newRow("50") << 50
                        << QStringList { u"a.png"_s, u"r0.png"_s, u"r1.png"_s, u"r2.png"_s,
                                         u"d.png"_s }
                        << 0;
}

void TestContextBudget::images()
{
    QFETCH(int, window);
    QFETCH(QStringList, sent);
    QFETCH(int, dropped);

    QList<Message> input { Message::user(
        u"Look."_s,
        { image(u"a.png"_s),
          Attachment::fromData(u"notes.pdf"_s, u"application/pdf"_s, "%PDF-1.4"_ba) }) };
    const QList<Message> calls = conversation({ u"6000+i"_s, u"100+i"_s, u"6000+i"_s });
    input += calls.mid(1);
    input.append(Message::user(u"And this."_s, { image(u"d.png"_s) }));

    BudgetSettings settings = settingsFor(1, 0, EngineType::Anthropic);
    settings.imagesInContext = window;
    const BudgetResult result = applyContextBudget(input, settings);

    QStringList names;
    for (const Message &message : result.messages) {
        for (const Attachment &attachment : message.attachments) {
            if (attachment.isImage())
                names.append(attachment.name);
        }
        for (const ToolResult &toolResult : message.toolResults) {
            for (const Attachment &picture : toolResult.images)
                names.append(picture.name);
        }
    }
    QCOMPARE(names, sent);
    // The file is no image: always sent, never counted.
    QCOMPARE(result.messages[0].attachments.last().name, u"notes.pdf"_s);
    // Texts stay: no note where the message or result still has content.
    QCOMPARE(result.messages[0].text, u"Look."_s);
    QCOMPARE(result.messages.last().text, u"And this."_s);
    QCOMPARE(result.messages[2].toolResults[0].content,
             u"[search result, 1 line, 6,000"_s + StubTail);
    QCOMPARE(result.messages[4].toolResults[0].content, sized(100));
    QCOMPARE(result.report.images, 5);
    QCOMPARE(result.report.droppedImages, dropped);

    int droppedParts = 0;
    qint64 imageTokensAfter = 0;
    for (const BudgetMessageReport &entry : result.report.messages) {
        for (const BudgetPartReport &part : entry.parts) {
            if (part.kind != BudgetPartKind::Image)
                continue;
            QCOMPARE(part.reason, BudgetReason::ImageWindow);
            QCOMPARE(part.tokensBefore, 1600);
            droppedParts += part.status == BudgetStatus::ImageDropped ? 1 : 0;
            imageTokensAfter += part.tokensAfter;
        }
    }
    QCOMPARE(droppedParts, dropped);
    QCOMPARE(imageTokensAfter, 1600 * (5 - dropped));
}

void TestContextBudget::droppedImageNotes()
{
    // An image-only user message and an image-only tool result need something to send.
    ToolCall call { u"call_1"_s, u"screenshot"_s, {}, u"{}"_s, {}, {} };
    ToolResult shot {
        u"call_1"_s, u"screenshot"_s, QString(), false, { image(u"s1.png"_s), image(QString()) }
    };
    const QList<Message> input {
        Message::user(QString(), { image(u"first.png"_s) }),
        Message::assistant(QString(), { call }), Message::toolResultsMessage({ shot }),
        Message::user(u"Compare."_s, { image(u"b.png"_s), image(u"c.png"_s) })
    };
    const BudgetResult result = applyContextBudget(input, settingsFor(6, std::nullopt));

    QCOMPARE(result.messages[0].text, u"[image first.png dropped from context]"_s);
    QVERIFY(result.messages[0].attachments.isEmpty());
    QCOMPARE(result.messages[2].toolResults[0].content,
             u"[image s1.png dropped from context]\n[image dropped from context]"_s);
    QVERIFY(result.messages[2].toolResults[0].images.isEmpty());
    QCOMPARE(result.messages[2].toolResults[0].callId, u"call_1"_s);
    QCOMPARE(result.messages[3].attachments.size(), 2);

    const BudgetMessageReport &first = result.report.messages[0];
    QCOMPARE(first.status, BudgetStatus::ImageDropped);
    QCOMPARE(first.parts.size(), 2);
    QCOMPARE(first.parts[0].kind, BudgetPartKind::Image);
    QCOMPARE(first.parts[0].status, BudgetStatus::ImageDropped);
    QCOMPARE(first.parts[1].kind, BudgetPartKind::Note);
    QCOMPARE(first.parts[1].noteText, result.messages[0].text);
    QCOMPARE(first.parts[1].charsAfter, 38);
    QCOMPARE(first.charsBefore, 0);
    QCOMPARE(first.charsAfter, 38);
    QCOMPARE(first.tokensBefore, 765);
    QCOMPARE(first.tokensAfter, 10);

    const BudgetMessageReport &tool = result.report.messages[2];
    QCOMPARE(tool.parts.size(), 4); // result, two images, note
    QCOMPARE(tool.parts[0].reason, BudgetReason::Short);
    QCOMPARE(tool.parts[1].resultIndex, 0);
    QCOMPARE(tool.parts[1].imageName, u"s1.png"_s);
    QCOMPARE(tool.parts[2].index, 1);
    QCOMPARE(tool.parts[3].kind, BudgetPartKind::Note);
    QCOMPARE(tool.parts[3].resultIndex, 0);
    QCOMPARE(tool.parts[3].callId, u"call_1"_s);
    QCOMPARE(tool.status, BudgetStatus::ImageDropped);
}

void TestContextBudget::reportOfConversation()
{
    // System prompt, user text, assistant call, a stubbed result, an error, a kept result.
    QList<Message> input = conversation({ u"2000"_s, u"e700"_s, u"1000"_s });
    const BudgetResult result =
        applyContextBudget(u"Be brief."_s, input, settingsFor(1, 0, EngineType::Gemini));
    const BudgetReport &report = result.report;

    QCOMPARE(report.messages.size(), input.size() + 1);
    const BudgetMessageReport &system = report.messages[0];
    QCOMPARE(system.index, -1);
    QCOMPARE(system.kind, u"system"_s);
    QCOMPARE(system.charsBefore, 9);
    QCOMPARE(system.tokensBefore, 3);

    const BudgetMessageReport &user = report.messages[1];
    QCOMPARE(user.index, 0);
    QCOMPARE(user.role, Role::User);
    QCOMPARE(user.kind, u"user"_s);
    QCOMPARE(user.charsBefore, 3);
    QCOMPARE(user.status, BudgetStatus::Kept);

    const BudgetMessageReport &assistant = report.messages[2];
    QCOMPARE(assistant.kind, u"assistant"_s);
    QCOMPARE(assistant.parts.size(), 1);
    QCOMPARE(assistant.parts[0].kind, BudgetPartKind::ToolCall);
    QCOMPARE(assistant.parts[0].toolName, u"search"_s);
    QCOMPARE(assistant.parts[0].callId, u"call_0"_s);
    QCOMPARE(assistant.charsBefore, 6 + 7); // "search" + {"q":0}

    const BudgetMessageReport &stubbed = report.messages[3];
    QCOMPARE(stubbed.kind, u"tool_results"_s);
    QCOMPARE(stubbed.role, Role::Tool);
    QCOMPARE(stubbed.status, BudgetStatus::Stubbed);
    QCOMPARE(stubbed.parts[0].reason, BudgetReason::OutsideNewestN);
    const QString stub = u"[search result, 1 line, 2,000"_s + StubTail;
    QCOMPARE(stubbed.parts[0].stubText, stub);
    QCOMPARE(stubbed.charsBefore, 2000);
    QCOMPARE(stubbed.charsAfter, stub.size());
    QCOMPARE(stubbed.tokensBefore, 500);
    QCOMPARE(stubbed.tokensAfter, (stub.size() + 3) / 4);

    const BudgetMessageReport &error = report.messages[5];
    QCOMPARE(error.status, BudgetStatus::Kept);
    QCOMPARE(error.parts[0].reason, BudgetReason::Error);
    QCOMPARE(error.charsAfter, 700);
    QCOMPARE(report.messages[7].parts[0].reason, BudgetReason::NewestN);

    // Totals: the sum of every message.
    qint64 charsBefore = 0, charsAfter = 0, tokensBefore = 0, tokensAfter = 0;
    for (const BudgetMessageReport &entry : report.messages) {
        charsBefore += entry.charsBefore;
        charsAfter += entry.charsAfter;
        tokensBefore += entry.tokensBefore;
        tokensAfter += entry.tokensAfter;
    }
    const qint64 calls = 3 * 13;
    QCOMPARE(report.charsBefore, 9 + 3 + calls + 2000 + 700 + 1000);
    QCOMPARE(report.charsAfter, 9 + 3 + calls + stub.size() + 700 + 1000);
    QCOMPARE(report.charsBefore, charsBefore);
    QCOMPARE(report.charsAfter, charsAfter);
    QCOMPARE(report.tokensBefore, tokensBefore);
    QCOMPARE(report.tokensAfter, tokensAfter);
    QCOMPARE(report.tokensBefore, 3 + 1 + 3 * 4 + 500 + 175 + 250);
    QCOMPARE(report.largeResults, 2);
    QCOMPARE(report.keptLargeResults, 1);
    QCOMPARE(report.stubbedResults, 1);
    QCOMPARE(report.usedChars, 1000);
    QCOMPARE(report.budgetChars, 0);
    QCOMPARE(report.settings.engineType, EngineType::Gemini);
    // The system prompt is reported, never sent among the messages.
    QCOMPARE(result.messages.size(), input.size());
}

void TestContextBudget::reportJsonRoundTrip()
{
    QList<Message> input = conversation({ u"2000+i"_s, u"e700"_s, u"1000+i"_s, u"30"_s });
    input.prepend(Message::user(QString(), { image(u"old.png"_s) }));
    BudgetResult result =
        applyContextBudget(u"System."_s, input, settingsFor(1, 0, EngineType::Anthropic));
    result.report.providerInputTokens = 4321;

    const QJsonObject json = result.report.toJson();
    QCOMPARE(json.value(u"provider_input_tokens"_s).toInteger(), 4321);
    QCOMPARE(json.value(u"engine_type"_s).toString(), u"anthropic"_s);
    QCOMPARE(json.value(u"chars_per_token"_s).toInt(), 4);
    const BudgetReport back = BudgetReport::fromJson(json);
    QCOMPARE(back, result.report);
    QCOMPARE(back.toJson(), json);

    // Through text, as the store keeps it.
    const QByteArray text = QJsonDocument(json).toJson(QJsonDocument::Compact);
    QCOMPARE(BudgetReport::fromJson(QJsonDocument::fromJson(text).object()), result.report);

    // No provider usage: null in JSON, nullopt back.
    result.report.providerInputTokens.reset();
    const QJsonObject withoutUsage = result.report.toJson();
    QVERIFY(withoutUsage.value(u"provider_input_tokens"_s).isNull());
    QVERIFY(!BudgetReport::fromJson(withoutUsage).providerInputTokens);

    // Unlimited keeps its null N through the round trip.
    const BudgetResult unlimited =
        applyContextBudget(input, settingsFor(std::nullopt, std::nullopt));
    const QJsonObject unlimitedJson = unlimited.report.toJson();
    QVERIFY(
        unlimitedJson.value(u"budget"_s).toObject().value(u"tool_results_in_context"_s).isNull());
    QCOMPARE(BudgetReport::fromJson(unlimitedJson), unlimited.report);
}

void TestContextBudget::reportGoldenJson()
{
    // A recorded conversation (tests/data/context/conversation.json) and the report it must
    // give, written out by hand: the shape the store keeps and the GUI draws.
    const QJsonValue conversationJson =
        Test::readJson(Test::testDataPath(u"context/conversation.json"_s));
    QVERIFY2(conversationJson.isObject(), qPrintable(Test::lastError()));
    const QJsonValue expected =
        Test::readJson(Test::testDataPath(u"context/conversation_report.json"_s));
    QVERIFY2(expected.isObject(), qPrintable(Test::lastError()));

    const QJsonObject object = conversationJson.toObject();
    const QList<Message> input = messagesFromJson(object.value(u"messages"_s).toArray());
    QCOMPARE(input.size(), 6);
    EngineSpec engine;
    engine.type = EngineType::OpenAI;
    engine.toolResultsTokens = object.value(u"engine_tool_results_tokens"_s).toInteger();
    ContextSpec context;
    context.toolResultsInContext = object.value(u"tool_results_in_context"_s).toInt();
    context.imagesInContext = object.value(u"images_in_context"_s).toInt();
    const BudgetResult result = applyContextBudget(object.value(u"system"_s).toString(), input,
                                                   BudgetSettings::resolve(engine, context));
    const QJsonObject actual = result.report.toJson();
    if (actual != expected.toObject())
        qWarning().noquote() << QJsonDocument(actual).toJson(QJsonDocument::Indented);
    QCOMPARE(actual, expected.toObject());
}

void TestContextBudget::deterministicAndInputUntouched()
{
    QList<Message> input =
        conversation({ u"6000+i"_s, u"e900"_s, u"7000"_s, u"8000+i"_s, u"90"_s, u"9000"_s });
    input.prepend(Message::user(QString(), { image(u"a.png"_s) }));
    const QList<Message> copy = input;
    const QJsonArray copyJson = messagesToJson(input);
    const BudgetSettings settings = settingsFor(1, 7000, EngineType::OpenAIResponses);

    const BudgetResult first = applyContextBudget(u"Sys"_s, input, settings);
    const BudgetResult second = applyContextBudget(u"Sys"_s, input, settings);
    QCOMPARE(first.messages, second.messages);
    QCOMPARE(first.report, second.report);
    QCOMPARE(QJsonDocument(first.report.toJson()).toJson(),
             QJsonDocument(second.report.toJson()).toJson());
    QCOMPARE(input, copy);
    QCOMPARE(messagesToJson(input), copyJson);
    // Something was trimmed, so "untouched" is not trivially true.
    QVERIFY(first.messages != input);
    QCOMPARE(first.report.stubbedResults, 3);
    QCOMPARE(first.report.droppedImages, 1);

    // Trimming what was already trimmed changes nothing further: stubs are short.
    const BudgetResult again = applyContextBudget(u"Sys"_s, first.messages, settings);
    QCOMPARE(again.messages, first.messages);
}

void TestContextBudget::budgetFunctionForRunner()
{
    // Ten 5,000-character results under N 6 and 20,000 characters: the four oldest are stubs.
    EngineSpec engine;
    engine.toolResultsTokens = 5000;
    const ContextBudgetFunction budget =
        contextBudgetFunction(BudgetSettings::resolve(engine, ContextSpec()));
    const QList<Message> input = conversation(QStringList(10, u"5000"_s));
    const auto [sent, reportJson] = budget(input);
    const BudgetResult direct =
        applyContextBudget(input, BudgetSettings::resolve(engine, ContextSpec()));
    QCOMPARE(sent, direct.messages);
    QCOMPARE(reportJson, direct.report.toJson());
    const QList<ToolResult> results = allResults(sent);
    for (int i = 0; i < 10; ++i)
        QCOMPARE(results[i].content,
                 i < 4 ? u"[search result, 1 line, 5,000"_s + StubTail : sized(5000));
    QCOMPARE(reportJson.value(u"totals"_s).toObject().value(u"stubbed_results"_s).toInt(), 4);
    QCOMPARE(reportJson.value(u"budget"_s).toObject().value(u"source"_s).toString(),
             u"engine_tool_results_tokens"_s);
}

int runContextBudgetTests(int argc, char **argv)
{
    TestContextBudget test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_contextbudget.moc"
