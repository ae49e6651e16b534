#include "ui/widgets/calldiff.h"

#include "core/loop/edits.h"
#include "ui/widgets/displaynames.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QSet>

#include <algorithm>
#include <functional>
#include <vector>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(CallDiff)
};

QString escapePointerToken(QString token)
{
    return token.replace(u'~', u"~0"_s).replace(u'/', u"~1"_s);
}

QString jsonText(const QJsonValue &value)
{
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Indented))
            .trimmed();
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Indented))
            .trimmed();
    if (value.isUndefined())
        return {};
    const QString wrapped =
        QString::fromUtf8(QJsonDocument(QJsonArray { value }).toJson(QJsonDocument::Compact));
    return wrapped.mid(1, wrapped.size() - 2);
}

// A message's content for alignment: ids and engine extras differ between runs and engines.
QJsonObject alignmentKey(const Message &message)
{
    QJsonObject key { { u"role"_s, roleName(message.role) },
                      { u"text"_s, message.text },
                      { u"refusal"_s, message.refusal } };
    QJsonArray calls;
    for (const ToolCall &c : message.toolCalls)
        calls.append(
            QJsonObject { { u"name"_s, c.name },
                          { u"arguments"_s, c.arguments },
                          { u"raw"_s, c.arguments.isEmpty() ? c.rawArguments : QString() } });
    key.insert(u"calls"_s, calls);
    QJsonArray results;
    for (const ToolResult &r : message.toolResults)
        results.append(QJsonObject {
            { u"name"_s, r.name }, { u"content"_s, r.content }, { u"error"_s, r.isError } });
    key.insert(u"results"_s, results);
    return key;
}

// Pairs of indices (i in a, j in b; -1 for none) from an LCS of `equal`, walked from the start
// so the earliest occurrences pair up (a revision repeats its parent's conversation first, and
// that copy pairs with the parent's, not its last message); unmatched runs are paired in order
// while `pairable`.
using Pairs = std::vector<std::pair<int, int>>;
Pairs align(int n, int m, const std::function<bool(int, int)> &equal,
            const std::function<bool(int, int)> &pairable)
{
    // dp[i][j]: the LCS length of a[i..] and b[j..].
    std::vector<std::vector<int>> dp(size_t(n + 1), std::vector<int>(size_t(m + 1), 0));
    for (int i = n - 1; i >= 0; --i) {
        for (int j = m - 1; j >= 0; --j)
            dp[i][j] = equal(i, j) ? dp[i + 1][j + 1] + 1 : std::max(dp[i + 1][j], dp[i][j + 1]);
    }
    std::vector<std::pair<int, int>> matches;
    int i = 0, j = 0;
    while (i < n && j < m) {
        if (equal(i, j) && dp[i][j] == dp[i + 1][j + 1] + 1) {
            matches.emplace_back(i++, j++);
        } else if (dp[i + 1][j] >= dp[i][j + 1]) {
            ++i;
        } else {
            ++j;
        }
    }
    matches.emplace_back(n, m); // sentinel
    Pairs out;
    int a = 0, b = 0;
    for (const auto &[mi, mj] : matches) {
        // The unmatched run a..mi-1 against b..mj-1.
        while (a < mi && b < mj && pairable(a, b))
            out.emplace_back(a++, b++);
        while (a < mi)
            out.emplace_back(a++, -1);
        while (b < mj)
            out.emplace_back(-1, b++);
        if (mi < n && mj < m)
            out.emplace_back(mi, mj);
        a = mi + 1;
        b = mj + 1;
    }
    return out;
}

DiffState stateFor(bool hasLeft, bool hasRight, bool equal)
{
    if (!hasLeft)
        return DiffState::Added;
    if (!hasRight)
        return DiffState::Removed;
    return equal ? DiffState::Same : DiffState::Changed;
}

QString messageText(const Message &m)
{
    QStringList parts;
    if (!m.text.isEmpty())
        parts << m.text;
    if (!m.refusal.isEmpty())
        parts << Tr::tr("Refusal: %1").arg(m.refusal);
    for (const ToolCall &c : m.toolCalls) {
        parts << u"→ %1(%2)"_s.arg(
            c.name, QString::fromUtf8(QJsonDocument(c.arguments).toJson(QJsonDocument::Compact)));
        if (const auto asked = modelArguments(c))
            parts << Tr::tr("   edited by you; the model asked for %1(%2)")
                         .arg(c.name,
                              QString::fromUtf8(
                                  QJsonDocument(*asked).toJson(QJsonDocument::Compact)));
    }
    for (const ToolResult &r : m.toolResults) {
        QString content = r.content;
        if (content.size() > 400)
            content = content.left(400) + u"…"_s;
        parts << u"← %1%2: %3"_s.arg(r.name, r.isError ? Tr::tr(" (error)") : QString(), content);
        if (r.toolOriginal) {
            QString original = r.toolOriginal->content;
            if (original.size() > 400)
                original = original.left(400) + u"…"_s;
            parts << Tr::tr("   edited by you; the tool returned%1: %2")
                         .arg(r.toolOriginal->isError ? Tr::tr(" (error)") : QString(), original);
        }
    }
    for (const Attachment &a : m.attachments)
        parts << Tr::tr("[attachment %1]").arg(a.name);
    return parts.join(u'\n');
}

struct Flat
{
    QList<Message> messages;
    // The 1-based turn of each message: a reply and the results of its tool calls belong to
    // its turn; a user message to the turn whose request first carries it.
    QList<int> turnOf;
    QList<bool> isCorrection; // user message after the first reply
    int turns = 0; // model replies in the conversation
    // Turns of the conversation that came from the parent (a revision repeats its parent's
    // conversation; the record's own turns follow them).
    int priorTurns = 0;
};

Flat flatten(const CallRecord &record)
{
    Flat f;
    f.messages = messagesFromJson(record.messages);
    int turn = 0;
    bool sawReply = false;
    for (const Message &m : f.messages) {
        if (m.role == Role::Assistant) {
            ++turn;
            sawReply = true;
        }
        f.turnOf.append(m.role == Role::User ? turn + 1 : std::max(turn, 1));
        f.isCorrection.append(m.role == Role::User && sawReply);
    }
    f.turns = turn;
    if (record.parent)
        f.priorTurns = std::max(0, turn - int(record.turns.size()));
    return f;
}

// What the call was asked. A revision's own input is its correction (the conversation shows it
// as one); the task is the first user message of the conversation it carries on.
QString taskInput(const CallRecord &record, const Flat &flat)
{
    if (record.metadata.contains(u"revision_of"_s)) {
        for (const Message &m : flat.messages) {
            if (m.role == Role::User)
                return m.text;
        }
    }
    return record.input.value(u"text"_s).toString();
}

QString usageText(const Usage &u)
{
    QLocale locale;
    QString text = Tr::tr("%1 in / %2 out")
                       .arg(locale.toString(u.promptTokens()), locale.toString(u.outputTokens));
    if (u.cacheReadTokens)
        text += Tr::tr(", %1 cached").arg(locale.toString(u.cacheReadTokens));
    if (u.cacheWriteTokens)
        text += Tr::tr(", %1 written to the cache").arg(locale.toString(u.cacheWriteTokens));
    if (u.reasoningTokens)
        text += Tr::tr(", %1 reasoning").arg(locale.toString(u.reasoningTokens));
    return text;
}

} // namespace

QString diffStateName(DiffState state)
{
    switch (state) {
    case DiffState::Same:
        return u"same"_s;
    case DiffState::Changed:
        return u"changed"_s;
    case DiffState::Added:
        return u"added"_s;
    case DiffState::Removed:
        return u"removed"_s;
    }
    return {};
}

QString diffSectionName(DiffSection section)
{
    switch (section) {
    case DiffSection::Summary:
        return Tr::tr("Call");
    case DiffSection::Input:
        return Tr::tr("Input");
    case DiffSection::Message:
        return Tr::tr("Message");
    case DiffSection::Correction:
        return Tr::tr("Correction");
    case DiffSection::ToolCall:
        return Tr::tr("Tool call");
    case DiffSection::ToolResult:
        return Tr::tr("Tool result");
    case DiffSection::Tokens:
        return Tr::tr("Tokens");
    case DiffSection::Status:
        return Tr::tr("Status");
    case DiffSection::Result:
        return Tr::tr("Result");
    }
    return {};
}

int CallDiff::count(DiffState state) const
{
    int n = 0;
    for (const DiffRow &r : rows)
        n += r.state == state ? 1 : 0;
    return n;
}

QStringList jsonDifferences(const QJsonValue &a, const QJsonValue &b, const QString &base)
{
    if (a.type() != b.type())
        return { base.isEmpty() ? u""_s : base };
    if (a.isObject()) {
        const QJsonObject oa = a.toObject(), ob = b.toObject();
        QStringList keys = oa.keys();
        for (const QString &k : ob.keys()) {
            if (!oa.contains(k))
                keys.append(k);
        }
        QStringList out;
        for (const QString &k : keys) {
            const QString pointer = base + u'/' + escapePointerToken(k);
            if (!oa.contains(k) || !ob.contains(k))
                out.append(pointer);
            else
                out.append(jsonDifferences(oa.value(k), ob.value(k), pointer));
        }
        return out;
    }
    if (a.isArray()) {
        const QJsonArray aa = a.toArray(), ab = b.toArray();
        QStringList out;
        for (qsizetype i = 0; i < std::max(aa.size(), ab.size()); ++i) {
            const QString pointer = base + u'/' + QString::number(i);
            if (i >= aa.size() || i >= ab.size())
                out.append(pointer);
            else
                out.append(jsonDifferences(aa.at(i), ab.at(i), pointer));
        }
        return out;
    }
    return a == b ? QStringList() : QStringList { base };
}

QString markedJson(const QJsonValue &value, const QStringList &changedPointers)
{
    const QString text = jsonText(value);
    if (!value.isObject() || changedPointers.isEmpty())
        return text;
    QSet<QString> changedKeys;
    for (const QString &p : changedPointers) {
        if (p.size() > 1)
            changedKeys.insert(
                p.mid(1).section(u'/', 0, 0).replace(u"~1"_s, u"/"_s).replace(u"~0"_s, u"~"_s));
    }
    QStringList lines = text.split(u'\n');
    for (QString &line : lines) {
        // Top-level members are indented by exactly four spaces.
        if (!line.startsWith(u"    \""_s) || line.startsWith(u"     "_s))
            continue;
        const qsizetype end = line.indexOf(u"\":"_s);
        if (end < 0)
            continue;
        const QJsonDocument keyDoc =
            QJsonDocument::fromJson(u"[%1]"_s.arg(line.mid(4, end - 3)).toUtf8());
        if (changedKeys.contains(keyDoc.array().at(0).toString()))
            line = u"  ● "_s + line.mid(4);
    }
    return lines.join(u'\n');
}

QString recordOutputMode(const CallRecord &record)
{
    if (const QString mode = record.spec.value(u"output_mode"_s).toString(); !mode.isEmpty())
        return mode;
    if (const QString mode = record.metadata.value(u"output_mode"_s).toString(); !mode.isEmpty())
        return mode;
    return record.spec.contains(u"response_schema"_s) ? u"tool"_s : QString();
}

CallDiff diffCalls(const CallRecord &left, const CallRecord &right)
{
    CallDiff diff;
    diff.leftId = left.id;
    diff.rightId = right.id;
    auto add = [&diff](DiffSection section, const QString &label, bool hasL, const QString &l,
                       bool hasR, const QString &r, const QStringList &pointers = {},
                       std::optional<bool> equal = {}) {
        DiffRow row;
        row.section = section;
        row.label = label;
        row.hasLeft = hasL;
        row.hasRight = hasR;
        row.left = l;
        row.right = r;
        row.changedPointers = pointers;
        row.state = stateFor(hasL, hasR, equal.value_or(l == r));
        diff.rows.append(row);
    };

    // Which calls, on what.
    auto summary = [](const CallRecord &c) {
        QString s = Tr::tr("#%1 %2 · %3 %4").arg(c.id).arg(c.kind, c.engineType, c.model);
        if (c.parent)
            s += u"\n"_s + Tr::tr("parent #%1").arg(*c.parent);
        return s;
    };
    add(DiffSection::Summary, Tr::tr("Call"), true, summary(left), true, summary(right), {}, true);
    add(DiffSection::Summary, Tr::tr("Engine"), true, left.engineType + u" · "_s + left.model, true,
        right.engineType + u" · "_s + right.model);
    const QString modeL = recordOutputMode(left), modeR = recordOutputMode(right);
    if (!modeL.isEmpty() || !modeR.isEmpty())
        add(DiffSection::Summary, Tr::tr("Output mode"), true, modeL, true, modeR);
    const Flat fl = flatten(left), fr = flatten(right);
    add(DiffSection::Input, Tr::tr("Input"), true, taskInput(left, fl), true, taskInput(right, fr));
    if (!left.systemPrompt.isEmpty() || !right.systemPrompt.isEmpty())
        add(DiffSection::Input, Tr::tr("System prompt"), true, left.systemPrompt, true,
            right.systemPrompt);

    // The conversations, aligned.
    QList<QJsonObject> keysL, keysR;
    for (const Message &m : fl.messages)
        keysL.append(alignmentKey(m));
    for (const Message &m : fr.messages)
        keysR.append(alignmentKey(m));
    const Pairs messagePairs = align(
        int(keysL.size()), int(keysR.size()),
        [&](int i, int j) { return keysL.at(i) == keysR.at(j); },
        [&](int i, int j) { return fl.messages.at(i).role == fr.messages.at(j).role; });
    for (const auto &[i, j] : messagePairs) {
        const Message *ml = i >= 0 ? &fl.messages.at(i) : nullptr;
        const Message *mr = j >= 0 ? &fr.messages.at(j) : nullptr;
        const Message &any = ml ? *ml : *mr;
        const bool correction = (ml && fl.isCorrection.at(i)) || (mr && fr.isCorrection.at(j));
        const int turnL = ml ? fl.turnOf.at(i) : 0, turnR = mr ? fr.turnOf.at(j) : 0;
        QString turnLabel = turnL == turnR || !ml || !mr
            ? Tr::tr("Turn %1").arg(ml ? turnL : turnR)
            : Tr::tr("Turn %1 / %2").arg(turnL).arg(turnR);
        const QString label = turnLabel + u" · "_s + roleName(any.role);
        const bool equal = ml && mr && keysL.at(i) == keysR.at(j);
        const DiffSection section = correction ? DiffSection::Correction : DiffSection::Message;
        add(section, label, ml != nullptr, ml ? messageText(*ml) : QString(), mr != nullptr,
            mr ? messageText(*mr) : QString(), {}, equal);
    }

    // The tool-call sequence, aligned on name and arguments; calls of one name left over on both
    // sides pair up, with their argument differences.
    struct CallAt
    {
        ToolCall call;
        std::optional<ToolResult> result;
        int turn;
    };
    auto collect = [](const Flat &f) {
        QList<CallAt> calls;
        for (int k = 0; k < f.messages.size(); ++k) {
            for (const ToolCall &c : f.messages.at(k).toolCalls)
                calls.append({ c, std::nullopt, f.turnOf.at(k) });
            for (const ToolResult &r : f.messages.at(k).toolResults) {
                for (qsizetype n = calls.size() - 1; n >= 0; --n) {
                    if (!calls[n].result
                        && (calls[n].call.id == r.callId
                            || (r.callId.isEmpty() && calls[n].call.name == r.name))) {
                        calls[n].result = r;
                        break;
                    }
                }
            }
        }
        return calls;
    };
    const QList<CallAt> cl = collect(fl), cr = collect(fr);
    const Pairs callPairs = align(
        int(cl.size()), int(cr.size()),
        [&](int i, int j) {
            return cl.at(i).call.name == cr.at(j).call.name
                && cl.at(i).call.arguments == cr.at(j).call.arguments;
        },
        [&](int i, int j) { return cl.at(i).call.name == cr.at(j).call.name; });
    for (const auto &[i, j] : callPairs) {
        const CallAt *a = i >= 0 ? &cl.at(i) : nullptr;
        const CallAt *b = j >= 0 ? &cr.at(j) : nullptr;
        const QString name = a ? a->call.name : b->call.name;
        const QStringList pointers =
            a && b ? jsonDifferences(a->call.arguments, b->call.arguments) : QStringList();
        const QString label = Tr::tr("%1 (turn %2)").arg(name).arg(a ? a->turn : b->turn);
        // An edit made at a pause shows beside the model's own request.
        auto side = [&pointers](const CallAt *at) {
            if (!at)
                return QString();
            QString text = markedJson(at->call.arguments, pointers);
            if (const auto asked = modelArguments(at->call))
                text += u"\n\n"_s + Tr::tr("Edited by you. The model asked for:") + u"\n"_s
                    + QString::fromUtf8(QJsonDocument(*asked).toJson(QJsonDocument::Indented))
                          .trimmed();
            return text;
        };
        const bool sameEdits = (a && modelArguments(a->call)) == (b && modelArguments(b->call));
        add(DiffSection::ToolCall, label, a != nullptr, side(a), b != nullptr, side(b), pointers,
            pointers.isEmpty() && sameEdits);
        const bool resultL = a && a->result, resultR = b && b->result;
        if (resultL || resultR) {
            // A result edited at a pause shows beside the tool's own answer.
            auto resultSide = [](const ToolResult &result) {
                QString text = (result.isError ? Tr::tr("(error) ") : QString()) + result.content;
                if (result.toolOriginal)
                    text += u"\n\n"_s + Tr::tr("Edited by you. The tool returned:") + u"\n"_s
                        + (result.toolOriginal->isError ? Tr::tr("(error) ") : QString())
                        + result.toolOriginal->content;
                return text;
            };
            const QString l = resultL ? resultSide(*a->result) : QString();
            const QString r = resultR ? resultSide(*b->result) : QString();
            add(DiffSection::ToolResult, Tr::tr("%1 result").arg(name), resultL, l, resultR, r);
        }
    }

    // Token figures per turn of the conversation and in total. A revision's turns follow the
    // ones it repeats from its parent, which it did not pay for again.
    const int turns =
        std::max(fl.priorTurns + int(left.turns.size()), fr.priorTurns + int(right.turns.size()));
    auto turnTokens = [](const CallRecord &c, const Flat &f, int t) -> std::optional<QString> {
        if (t < f.priorTurns)
            return c.parent ? Tr::tr("repeated from call %1, not sent again").arg(*c.parent)
                            : Tr::tr("repeated, not sent again");
        const int own = t - f.priorTurns;
        if (own < c.turns.size())
            return usageText(c.turns.at(own).usage);
        return std::nullopt;
    };
    for (int t = 0; t < turns; ++t) {
        const auto l = turnTokens(left, fl, t), r = turnTokens(right, fr, t);
        const bool repeated = t < fl.priorTurns || t < fr.priorTurns;
        add(DiffSection::Tokens, Tr::tr("Turn %1 tokens").arg(t + 1), l.has_value(),
            l.value_or(QString()), r.has_value(), r.value_or(QString()), {},
            repeated && l && r ? std::optional<bool>(true) : std::nullopt);
    }
    add(DiffSection::Tokens, Tr::tr("Total tokens"), true, usageText(left.usage), true,
        usageText(right.usage));
    add(DiffSection::Tokens, Tr::tr("Turns / attempts"), true,
        Tr::tr("%1 / %2").arg(left.turns.size()).arg(left.attempts.size()), true,
        Tr::tr("%1 / %2").arg(right.turns.size()).arg(right.attempts.size()));

    // Outcome.
    auto status = [](const CallRecord &c) {
        QString s = callStatusDisplayName(c.status);
        if (c.errorCategory != ErrorCategory::None)
            s += u" ("_s + errorCategoryDisplayName(c.errorCategory) + u")"_s;
        if (!c.error.isEmpty())
            s += u"\n"_s + c.error;
        return s;
    };
    add(DiffSection::Status, Tr::tr("Status"), true, status(left), true, status(right));
    const QStringList resultPointers = jsonDifferences(left.response, right.response);
    add(DiffSection::Result, Tr::tr("Result"), true, markedJson(left.response, resultPointers),
        true, markedJson(right.response, resultPointers), resultPointers, resultPointers.isEmpty());
    return diff;
}

} // namespace Callscope
