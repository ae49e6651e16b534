#pragma once

// The words a person reads for the core's enums. The core's *Name() functions give the stable
// identifiers the CLI, the store and the export format use (`turn_limited`, `before_tool`);
// the screen shows these instead, through tr().

#include "core/loop/runner.h"
#include "core/model/callrecord.h"

#include <QString>
#include <QStringList>

namespace Callscope {

QString callStatusDisplayName(CallStatus status); // "Completed", "Stopped at the turn limit"
QString
errorCategoryDisplayName(ErrorCategory category); // "Key or permission problem"; None -> empty
QString breakpointDisplayName(Breakpoint breakpoint); // "before a tool runs"
QString runnerStateDisplayName(RunnerState state); // "waiting for your approval"
// "Failed: the provider refused" style title of a finished call.
QString callOutcomeText(CallStatus status, ErrorCategory category);
// A lint rule or a failed schema keyword in words: a rule's summary from lintRules()
// ("OpenAI strict: every property is required"), "type" -> "Schema keyword "type"";
// unknown ids as they are.
QString lintRuleDisplayName(const QString &rule);

// The figures of a call as History and the call views show them: "850 ms", "1.2 s",
// "2 min 5 s" ("running" while negative); "1,200 in / 80 out" (empty without usage).
QString formatDuration(qint64 ms);
QString formatTokens(const Usage &usage);

// The names a list of files is shown by (Recent files, Open Recent), one per path and in its
// order: the file name alone, or, where two files share a name, the name and as much of its
// folder as tells them apart ("planner.spec.json — samples", "planner.spec.json — drafts").
QStringList distinctFileLabels(const QStringList &paths);

} // namespace Callscope
