#include "ui/widgets/displaynames.h"

#include <QCoreApplication>

namespace Callscope {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("Callscope::DisplayNames", text);
}
} // namespace

QString callStatusDisplayName(CallStatus status)
{
    switch (status) {
    case CallStatus::Running:
        return tr("Running");
    case CallStatus::Completed:
        return tr("Completed");
    case CallStatus::Failed:
        return tr("Failed");
    case CallStatus::TurnLimited:
        return tr("Stopped at the turn limit");
    case CallStatus::Cancelled:
        return tr("Cancelled");
    }
    return {};
}

QString errorCategoryDisplayName(ErrorCategory category)
{
    switch (category) {
    case ErrorCategory::None:
        return {};
    case ErrorCategory::Auth:
        return tr("key or permission problem");
    case ErrorCategory::Network:
        return tr("network problem");
    case ErrorCategory::Model:
        return tr("the model's reply was unusable");
    case ErrorCategory::Refusal:
        return tr("the model refused");
    case ErrorCategory::Other:
        return tr("the call could not run");
    }
    return {};
}

QString breakpointDisplayName(Breakpoint breakpoint)
{
    switch (breakpoint) {
    case Breakpoint::None:
        return tr("no breakpoint");
    case Breakpoint::BeforeRequest:
        return tr("before the request");
    case Breakpoint::AfterReply:
        return tr("after the reply");
    case Breakpoint::BeforeTool:
        return tr("before a tool runs");
    case Breakpoint::AfterToolResult:
        return tr("after a tool's result");
    case Breakpoint::OnValidationFailure:
        return tr("on a validation failure");
    }
    return {};
}

QString runnerStateDisplayName(RunnerState state)
{
    switch (state) {
    case RunnerState::Idle:
        return tr("starting");
    case RunnerState::Preparing:
        return tr("starting the tools");
    case RunnerState::PreSeeding:
        return tr("running the pre-seeded calls");
    case RunnerState::BuildingRequest:
        return tr("preparing the request");
    case RunnerState::AwaitingModel:
        return tr("waiting for the model");
    case RunnerState::Validating:
        return tr("checking the output");
    case RunnerState::AwaitingApproval:
        return tr("waiting for your approval");
    case RunnerState::AwaitingManual:
        return tr("waiting for your tool result");
    case RunnerState::RunningTools:
        return tr("running tools");
    case RunnerState::Paused:
        return tr("paused");
    case RunnerState::Finished:
        return tr("finished");
    }
    return {};
}

QString callOutcomeText(CallStatus status, ErrorCategory category)
{
    const QString why = errorCategoryDisplayName(category);
    if (status == CallStatus::Failed && !why.isEmpty())
        return tr("Failed: %1").arg(why);
    return callStatusDisplayName(status);
}

QString lintRuleDisplayName(const QString &rule)
{
    struct Name
    {
        const char *rule;
        const char *words;
    };
    static const Name names[] = {
        {"anthropic-format", QT_TRANSLATE_NOOP("Callscope::DisplayNames", "Anthropic: string format")},
        {"anthropic-min-items", QT_TRANSLATE_NOOP("Callscope::DisplayNames", "Anthropic: minimum items")},
        {"anthropic-unsupported-keyword", QT_TRANSLATE_NOOP("Callscope::DisplayNames", "Anthropic: keyword not supported")},
        {"argument-string-size", QT_TRANSLATE_NOOP("Callscope::DisplayNames", "Unbounded text argument")},
        {"enum-closed-set", QT_TRANSLATE_NOOP("Callscope::DisplayNames", "Closed set of values")},
        {"gemini-const", QT_TRANSLATE_NOOP("Callscope::DisplayNames", "Gemini: fixed value")},
        {"gemini-dropped-keyword", QT_TRANSLATE_NOOP("Callscope::DisplayNames", "Gemini: keyword dropped")},
        {"gemini-parameter-name", QT_TRANSLATE_NOOP("Callscope::DisplayNames", "Gemini: parameter name")},
        {"gemini-recursive-ref", QT_TRANSLATE_NOOP("Callscope::DisplayNames", "Gemini: recursive schema")},
        {"key-env-not-allowed", QT_TRANSLATE_NOOP("Callscope::DisplayNames", "Key variable not allowed")},
        {"key-profile-redirect", QT_TRANSLATE_NOOP("Callscope::DisplayNames", "Key sent elsewhere")},
        {"mcp-insecure-url", QT_TRANSLATE_NOOP("Callscope::DisplayNames", "Unencrypted MCP address")},
        {"native-schema-changed", QT_TRANSLATE_NOOP("Callscope::DisplayNames", "Schema changed for the engine")},
        {"native-unsupported", QT_TRANSLATE_NOOP("Callscope::DisplayNames", "Native output not available")},
        {"output-mode-ignored", QT_TRANSLATE_NOOP("Callscope::DisplayNames", "Output mode not used")},
        {"output-parser-ignored", QT_TRANSLATE_NOOP("Callscope::DisplayNames", "Output parser not used")},
        {"schema-root-object", QT_TRANSLATE_NOOP("Callscope::DisplayNames", "Schema root is not an object")},
        {"strict-additional-properties", QT_TRANSLATE_NOOP("Callscope::DisplayNames", "Strict mode: extra fields")},
        {"strict-depth", QT_TRANSLATE_NOOP("Callscope::DisplayNames", "Strict mode: nesting depth")},
        {"strict-format", QT_TRANSLATE_NOOP("Callscope::DisplayNames", "Strict mode: string format")},
        {"strict-ref-siblings", QT_TRANSLATE_NOOP("Callscope::DisplayNames", "Strict mode: keywords beside $ref")},
        {"strict-required", QT_TRANSLATE_NOOP("Callscope::DisplayNames", "Strict mode: required fields")},
        {"strict-size", QT_TRANSLATE_NOOP("Callscope::DisplayNames", "Strict mode: schema size")},
        {"strict-unsupported-keyword", QT_TRANSLATE_NOOP("Callscope::DisplayNames", "Strict mode: keyword not supported")},
        {"text-output-ignored", QT_TRANSLATE_NOOP("Callscope::DisplayNames", "Text output not used")},
        {"tool-count", QT_TRANSLATE_NOOP("Callscope::DisplayNames", "Many tools")},
        {"tool-description-length", QT_TRANSLATE_NOOP("Callscope::DisplayNames", "Long tool description")},
        {"tool-description-missing", QT_TRANSLATE_NOOP("Callscope::DisplayNames", "Tool without description")},
        {"tool-name-provider", QT_TRANSLATE_NOOP("Callscope::DisplayNames", "Tool name the provider refuses")},
        {"tool-name-snake-case", QT_TRANSLATE_NOOP("Callscope::DisplayNames", "Tool name style")},
        {"tool-name-verb-noun", QT_TRANSLATE_NOOP("Callscope::DisplayNames", "Tool name wording")},
        {"unknown-field", QT_TRANSLATE_NOOP("Callscope::DisplayNames", "Unknown field")},
    };
    if (rule.isEmpty())
        return {};
    for (const Name &name : names) {
        if (rule == QLatin1StringView(name.rule))
            return tr(name.words);
    }
    // Meta-schema findings carry the JSON Schema keyword that failed.
    if (!rule.contains(u'-'))
        return tr("Schema keyword \"%1\"").arg(rule);
    return rule;
}

} // namespace Callscope
