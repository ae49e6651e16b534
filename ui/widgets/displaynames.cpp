#include "ui/widgets/displaynames.h"

#include "core/schema/lint.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLocale>

#include <algorithm>

namespace Callscope {

namespace {
struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Callscope::DisplayNames)
};
} // namespace

QString callStatusDisplayName(CallStatus status)
{
    switch (status) {
    case CallStatus::Running:
        return Tr::tr("Running");
    case CallStatus::Completed:
        return Tr::tr("Completed");
    case CallStatus::Failed:
        return Tr::tr("Failed");
    case CallStatus::TurnLimited:
        return Tr::tr("Stopped at the turn limit");
    case CallStatus::Cancelled:
        return Tr::tr("Cancelled");
    }
    return {};
}

QString errorCategoryDisplayName(ErrorCategory category)
{
    switch (category) {
    case ErrorCategory::None:
        return {};
    case ErrorCategory::Auth:
        return Tr::tr("key or permission problem");
    case ErrorCategory::Network:
        return Tr::tr("network problem");
    case ErrorCategory::Model:
        return Tr::tr("the model's reply was unusable");
    case ErrorCategory::Refusal:
        return Tr::tr("the model refused");
    case ErrorCategory::Other:
        return Tr::tr("the call could not run");
    }
    return {};
}

QString breakpointDisplayName(Breakpoint breakpoint)
{
    switch (breakpoint) {
    case Breakpoint::None:
        return Tr::tr("no breakpoint");
    case Breakpoint::BeforeRequest:
        return Tr::tr("before the request");
    case Breakpoint::AfterReply:
        return Tr::tr("after the reply");
    case Breakpoint::BeforeTool:
        return Tr::tr("before a tool runs");
    case Breakpoint::AfterToolResult:
        return Tr::tr("after a tool's result");
    case Breakpoint::OnValidationFailure:
        return Tr::tr("on a validation failure");
    }
    return {};
}

QString runnerStateDisplayName(RunnerState state)
{
    switch (state) {
    case RunnerState::Idle:
        return Tr::tr("starting");
    case RunnerState::Preparing:
        return Tr::tr("starting the tools");
    case RunnerState::PreSeeding:
        return Tr::tr("running the pre-seeded calls");
    case RunnerState::BuildingRequest:
        return Tr::tr("preparing the request");
    case RunnerState::AwaitingModel:
        return Tr::tr("waiting for the model");
    case RunnerState::Validating:
        return Tr::tr("checking the output");
    case RunnerState::AwaitingApproval:
        return Tr::tr("waiting for your approval");
    case RunnerState::AwaitingManual:
        return Tr::tr("waiting for your tool result");
    case RunnerState::RunningTools:
        return Tr::tr("running tools");
    case RunnerState::Paused:
        return Tr::tr("paused");
    case RunnerState::Finished:
        return Tr::tr("finished");
    }
    return {};
}

QString callOutcomeText(CallStatus status, ErrorCategory category)
{
    const QString why = errorCategoryDisplayName(category);
    if (status == CallStatus::Failed && !why.isEmpty())
        return Tr::tr("Failed: %1").arg(why);
    return callStatusDisplayName(status);
}

QString lintRuleDisplayName(const QString &rule)
{
    if (rule.isEmpty())
        return {};
    // The linter's own one-line summary of the rule, the one `callscope-cli lint` documents.
    const QList<LintRule> rules = lintRules();
    for (const LintRule &known : rules) {
        if (known.id == rule) {
            QString words = known.summary;
            if (!words.isEmpty())
                words[0] = words.at(0).toUpper();
            return words;
        }
    }
    // Meta-schema findings carry the JSON Schema keyword that failed.
    if (!rule.contains(u'-'))
        return Tr::tr("Schema keyword \"%1\"").arg(rule);
    return rule;
}

QString formatDuration(qint64 ms)
{
    const char *context = "Callscope::HistoryModel";
    if (ms < 0)
        return QCoreApplication::translate(context, "running");
    if (ms < 1000)
        return QCoreApplication::translate(context, "%1 ms").arg(ms);
    if (ms < 60000)
        return QCoreApplication::translate(context, "%1 s")
            .arg(QLocale().toString(ms / 1000.0, 'f', 1));
    return QCoreApplication::translate(context, "%1 min %2 s")
        .arg(ms / 60000)
        .arg((ms % 60000) / 1000);
}

QString formatTokens(const Usage &usage)
{
    if (usage.isEmpty())
        return {};
    return QCoreApplication::translate("Callscope::HistoryModel", "%1 in / %2 out")
        .arg(QLocale().toString(usage.promptTokens()), QLocale().toString(usage.outputTokens));
}

QStringList distinctFileLabels(const QStringList &paths)
{
    QStringList names;
    QList<QStringList> folders; // each file's folder names, the innermost first
    for (const QString &path : paths) {
        const QFileInfo info(QDir::cleanPath(QDir::fromNativeSeparators(path)));
        names.append(info.fileName());
        QStringList parts = info.path().split(u'/', Qt::SkipEmptyParts);
        std::reverse(parts.begin(), parts.end());
        folders.append(parts);
    }
    // The last `depth` folder names of file `k`, outermost first ("resources/samples").
    auto tail = [&folders](qsizetype k, qsizetype depth) {
        QStringList parts = folders.at(k).mid(0, depth);
        std::reverse(parts.begin(), parts.end());
        return parts.join(u'/');
    };
    QStringList labels = names;
    for (qsizetype i = 0; i < paths.size(); ++i) {
        QList<qsizetype> namesakes;
        for (qsizetype j = 0; j < paths.size(); ++j) {
            if (j != i && names.at(j) == names.at(i))
                namesakes.append(j);
        }
        if (namesakes.isEmpty())
            continue;
        // As few folder names as tell this file from each other one of the same name.
        const qsizetype deepest = folders.at(i).size();
        qsizetype depth = 1;
        for (; depth < deepest; ++depth) {
            bool alone = true;
            for (qsizetype j : std::as_const(namesakes))
                alone = alone && tail(j, depth) != tail(i, depth);
            if (alone)
                break;
        }
        QString where;
        if (depth >= deepest)
            where = QDir::toNativeSeparators(QFileInfo(QDir::cleanPath(paths.at(i))).path());
        else
            where = QDir::toNativeSeparators(tail(i, depth));
        labels[i] = Tr::tr("%1 — %2", "a file name and the folder that tells it apart")
                        .arg(names.at(i), where);
    }
    return labels;
}

} // namespace Callscope
