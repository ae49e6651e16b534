#include "core/schema/cachelint.h"

#include "core/model/cacherules.h"
#include "core/model/jsonpointer.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QLocale>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(CacheLint)
};

QString number(qint64 n)
{
    return QLocale().toString(n);
}

// The characters of the tools as a provider receives them (their declarations).
qsizetype toolCharacters(const Spec &spec)
{
    qsizetype n = 0;
    for (const ToolSpec &tool : spec.tools) {
        n += tool.name.size() + tool.description.size();
        n += QJsonDocument(tool.inputSchema).toJson(QJsonDocument::Compact).size();
    }
    if (spec.responseSchema && spec.outputMode == OutputMode::Tool)
        n += QJsonDocument(*spec.responseSchema).toJson(QJsonDocument::Compact).size();
    return n;
}

} // namespace

std::optional<VarsFirst> varsBeforeStaticText(const QString &text)
{
    static const QRegularExpression var(u"\\{\\{\\s*([A-Za-z0-9_.-]+)\\s*\\}\\}"_s);
    QRegularExpressionMatchIterator it = var.globalMatch(text);
    if (!it.hasNext())
        return std::nullopt;
    const QRegularExpressionMatch first = it.next();
    qsizetype lastEnd = first.capturedEnd();
    qsizetype staticAfter = 0;
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        staticAfter += m.capturedStart() - lastEnd;
        lastEnd = m.capturedEnd();
    }
    staticAfter += text.size() - lastEnd;
    const qsizetype before = first.capturedStart();
    // Per-case text late in the prompt leaves the long static part before it cacheable.
    if (staticAfter <= before)
        return std::nullopt;
    return VarsFirst { before, first.captured(1), staticAfter };
}

QList<LintRule> cacheLintRules()
{
    return {
        { u"cache-breakpoint-count"_s,
          Tr::tr("Anthropic: at most 4 cache breakpoints in a request") },
        { u"cache-breakpoint-place"_s, Tr::tr("cache breakpoints on parts the request has") },
        { u"cache-ttl"_s, Tr::tr("cache TTLs the engine takes") },
        { u"cache-ignored"_s, Tr::tr("cache settings this engine does not read") },
        { u"cache-key-length"_s, Tr::tr("OpenAI: a prompt_cache_key of at most 64 characters") },
        { u"cache-below-minimum"_s, Tr::tr("a cached prefix reaches the model's minimum length") },
        { u"cache-vars-first"_s,
          Tr::tr("per-case {{vars}} after the static text of the system prompt") },
    };
}

QList<LintFinding> lintCache(const Spec &spec, EngineType target)
{
    QList<LintFinding> out;
    auto warn = [&out](const QString &pointer, const QString &rule, const QString &message) {
        out.append({ LintSeverity::Warning, pointer, message, rule });
    };
    auto info = [&out](const QString &pointer, const QString &rule, const QString &message) {
        out.append({ LintSeverity::Info, pointer, message, rule });
    };
    if (!CacheRules::caches(target))
        return out;
    const QString model = spec.engine.model;
    const qint64 minimum = CacheRules::minimumTokens(target, model);

    if (const auto first = varsBeforeStaticText(spec.systemPrompt)) {
        warn(u"/system_prompt"_s, u"cache-vars-first"_s,
             Tr::tr(
                 "{{%1}} at character %2 of the system prompt comes before %3 characters of static "
                 "text: every case sends a different prefix, so no case can read what another "
                 "cached. Move the per-case text to the end of the system prompt (or into the "
                 "input).")
                 .arg(first->var, number(first->position), number(first->staticAfter)));
    }

    const qint64 toolTokens = CacheRules::estimateTokens(toolCharacters(spec));
    const qint64 systemTokens = CacheRules::estimateTokens(spec.systemPrompt.size());
    if (!spec.engine.cache)
        return out;
    const CacheSpec &cache = *spec.engine.cache;

    if (target == EngineType::Anthropic) {
        if (cache.breakpoints.size() > CacheRules::MaxAnthropicBreakpoints) {
            warn(
                u"/cache/breakpoints"_s, u"cache-breakpoint-count"_s,
                Tr::tr(
                    "%1 cache breakpoints: Anthropic takes at most %2 in a request; the ones after "
                    "the "
                    "fourth are not sent")
                    .arg(cache.breakpoints.size())
                    .arg(CacheRules::MaxAnthropicBreakpoints));
        }
        if (!cache.ttl.isEmpty() && cache.ttl != u"5m" && cache.ttl != u"1h") {
            warn(u"/cache/ttl"_s, u"cache-ttl"_s,
                 Tr::tr(
                     "Anthropic caches for \"5m\" or \"1h\", not \"%1\"; the default five minutes "
                     "is used")
                     .arg(cache.ttl));
        }
        for (qsizetype i = 0; i < cache.breakpoints.size(); ++i) {
            const CacheBreakpoint &b = cache.breakpoints.at(i);
            const QString pointer = JsonPointer::append(u"/cache/breakpoints"_s, i);
            qint64 prefix = -1;
            if (b.place == CacheBreakpoint::Place::Tools) {
                if (spec.tools.isEmpty()
                    && !(spec.responseSchema && spec.outputMode == OutputMode::Tool))
                    warn(pointer, u"cache-breakpoint-place"_s,
                         Tr::tr("a breakpoint after the tools, but the spec has no tools"));
                else
                    prefix = toolTokens;
            } else if (b.place == CacheBreakpoint::Place::System) {
                if (spec.systemPrompt.isEmpty())
                    warn(pointer, u"cache-breakpoint-place"_s,
                         Tr::tr("a breakpoint after the system prompt, but the spec has none"));
                else
                    prefix = toolTokens + systemTokens;
            }
            if (prefix >= 0 && prefix < minimum) {
                warn(pointer, u"cache-below-minimum"_s,
                     Tr::tr(
                         "the prefix up to this breakpoint is about %1 tokens; %2 caches only from "
                         "%3 tokens, "
                         "so nothing is cached here")
                         .arg(number(prefix), model.isEmpty() ? Tr::tr("the model") : model,
                              number(minimum)));
            }
        }
        if (!cache.key.isEmpty())
            info(u"/cache/key"_s, u"cache-ignored"_s,
                 Tr::tr("Anthropic has no cache key; \"key\" is not sent"));
        if (!cache.retention.isEmpty())
            info(u"/cache/retention"_s, u"cache-ignored"_s,
                 Tr::tr("Anthropic has no retention setting; use \"ttl\""));
        if (cache.explicitCache)
            info(u"/cache/explicit"_s, u"cache-ignored"_s,
                 Tr::tr("\"explicit\" is for Gemini; Anthropic caches at breakpoints"));
        return out;
    }

    if (target == EngineType::OpenAI || target == EngineType::OpenAIResponses) {
        if (!cache.breakpoints.isEmpty())
            info(u"/cache/breakpoints"_s, u"cache-ignored"_s,
                 Tr::tr(
                     "OpenAI caches every prompt of %1 tokens or more on its own; breakpoints are "
                     "not sent")
                     .arg(number(CacheRules::OpenAIMinimumTokens)));
        if (!cache.ttl.isEmpty())
            info(u"/cache/ttl"_s, u"cache-ignored"_s,
                 Tr::tr("OpenAI takes \"retention\" (\"in_memory\" or \"24h\"), not \"ttl\""));
        if (cache.explicitCache)
            info(u"/cache/explicit"_s, u"cache-ignored"_s, Tr::tr("\"explicit\" is for Gemini"));
        if (cache.key.size() > 64)
            warn(u"/cache/key"_s, u"cache-key-length"_s,
                 Tr::tr("the cache key is %1 characters; OpenAI takes at most 64")
                     .arg(cache.key.size()));
        if (!cache.key.isEmpty() && toolTokens + systemTokens < minimum) {
            info(
                u"/cache/key"_s, u"cache-below-minimum"_s,
                Tr::tr(
                    "the static prefix (tools and system prompt) is about %1 tokens; OpenAI caches "
                    "only "
                    "prompts of %2 tokens or more")
                    .arg(number(toolTokens + systemTokens), number(minimum)));
        }
        return out;
    }

    // Gemini
    if (!cache.breakpoints.isEmpty())
        info(u"/cache/breakpoints"_s, u"cache-ignored"_s,
             Tr::tr("Gemini has no breakpoints; it caches implicitly, or explicitly with "
                    "\"explicit\""));
    if (!cache.key.isEmpty() || !cache.retention.isEmpty())
        info(cache.key.isEmpty() ? u"/cache/retention"_s : u"/cache/key"_s, u"cache-ignored"_s,
             Tr::tr("\"key\" and \"retention\" are for OpenAI"));
    if (!cache.ttl.isEmpty() && !cacheTtlSeconds(cache.ttl))
        warn(u"/cache/ttl"_s, u"cache-ttl"_s,
             Tr::tr("Gemini takes a TTL in seconds such as \"3600s\", not \"%1\"").arg(cache.ttl));
    if (cache.explicitCache && toolTokens + systemTokens < minimum) {
        warn(
            u"/cache/explicit"_s, u"cache-below-minimum"_s,
            Tr::tr(
                "the system prompt and tools are about %1 tokens; an explicit cache needs at least "
                "%2")
                .arg(number(toolTokens + systemTokens), number(minimum)));
    }
    return out;
}

} // namespace Callscope
