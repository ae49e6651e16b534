#pragma once

// The difference between two stored calls, as rows a side-by-side view shows. Pure: no
// widgets, no database (unit-tested on its own).
//
//  - Messages are aligned by a longest common subsequence of their content (tool call and
//    result ids and engine extras ignored, so the same conversation on two engines lines up).
//    Unmatched runs between two matches are paired in order when the roles agree (changed),
//    else shown as removed / added.
//  - The tool-call sequence is aligned by tool name, preferring the latest occurrences, so the
//    final submit_output of a revision lines up with its parent's; paired calls carry the JSON
//    Pointers of the arguments that differ.
//  - The output mode each call ran with is a summary row: the same spec in two modes differs
//    there first.
//  - Then the token figures per turn and in total, the status and the final result (a JSON
//    diff: the pointers of every changed value).

#include "core/model/callrecord.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace Callscope {

enum class DiffState { Same, Changed, Added, Removed };
enum class DiffSection {
    Summary,
    Input,
    Message,
    Correction,
    ToolCall,
    ToolResult,
    Tokens,
    Status,
    Result
};

QString diffStateName(DiffState state); // "same", "changed", "added", "removed"
QString diffSectionName(DiffSection section);

struct DiffRow
{
    DiffSection section = DiffSection::Message;
    DiffState state = DiffState::Same;
    QString label; // "Turn 2 · assistant", "get_ticket", ...
    bool hasLeft = false;
    bool hasRight = false;
    QString left;
    QString right;
    QStringList changedPointers; // JSON values that differ (tool arguments, the result)
};

struct CallDiff
{
    qint64 leftId = 0;
    qint64 rightId = 0;
    QList<DiffRow> rows;

    int count(DiffState state) const;
    int differenceCount() const { return int(rows.size()) - count(DiffState::Same); }
};

// JSON Pointers (RFC 6901) of the values that differ between `a` and `b`: a changed scalar, a
// member or element present on one side only, a changed type. Empty when equal. Objects and
// arrays are walked; `base` prefixes every pointer.
QStringList jsonDifferences(const QJsonValue &a, const QJsonValue &b, const QString &base = {});

// Indented JSON with the lines of changed top-level members marked "● " (for the view).
QString markedJson(const QJsonValue &value, const QStringList &changedPointers);

CallDiff diffCalls(const CallRecord &left, const CallRecord &right);

// The output mode a stored call ran with ("tool", "native", "prompted"), from the spec stored
// with it; empty for a call without a response schema.
QString recordOutputMode(const CallRecord &record);

} // namespace Callscope
