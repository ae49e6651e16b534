// callscope-cli engines list | add | remove | test.
//
// Profiles live in the application's settings; keys live in the OS keychain. A key is taken
// from an environment variable (--key-env) or from stdin (--key-stdin), never from an
// argument, where any user could read it in the process list.

#include "app/cli/cliutil.h"
#include "core/secrets/credentialstore.h"
#include "core/secrets/profilestore.h"
#include "core/service/appcontext.h"
#include "core/service/engineprobe.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QSet>
#include <QUrl>

#include <cstdio>
#include <memory>

using namespace Qt::StringLiterals;

namespace Callscope::Cli {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Cli::Engines)
};

struct Options
{
    QStringList positional;
    QHash<QString, QString> values;
    QSet<QString> flags;
};

// Parses the options of `engines COMMAND` through parseArguments(); `valued` names the options
// that take a value, `flags` those that do not ("--name"). A key given as an argument is
// refused before anything else. Returns the exit code when the command ends here.
std::optional<int> parseOptions(const QString &command, const QStringList &arguments,
                                const QStringList &valued, const QStringList &flags,
                                const QString &usage, Options *out)
{
    for (const QString &argument : arguments) {
        const QString name = argument.section(u'=', 0, 0);
        if (name == u"--key" || name == u"--api-key") {
            printError(
                Tr::tr("%1 is refused: a key given as an argument shows in the process list. "
                       "Use --key-env VAR (the key in an environment variable) or "
                       "--key-stdin.")
                    .arg(name));
            return int(ExitUsage);
        }
    }
    QCommandLineParser parser;
    for (const QString &name : valued)
        parser.addOption({ name.mid(2), QString(), u"VALUE"_s });
    for (const QString &name : flags)
        parser.addOption({ name.mid(2), QString() });
    if (const auto exit = parseArguments(parser, u"engines "_s + command, arguments, usage + u'\n'))
        return exit;
    out->positional = parser.positionalArguments();
    for (const QString &name : valued) {
        if (parser.isSet(name.mid(2)))
            out->values.insert(name, parser.value(name.mid(2)));
    }
    for (const QString &name : flags) {
        if (parser.isSet(name.mid(2)))
            out->flags.insert(name);
    }
    return std::nullopt;
}

template<typename T> std::optional<T> parsePositive(const QString &text)
{
    bool ok = false;
    const qint64 value = text.toLongLong(&ok);
    if (!ok || value <= 0)
        return std::nullopt;
    return T(value);
}

int finishWith(int code)
{
    QCoreApplication::exit(code);
    return code;
}

QJsonObject profileJson(const EngineProfile &profile, const KeychainResult &keyState)
{
    QJsonObject object = profile.toJson();
    if (keyState.usable()) {
        object.insert(u"has_key"_s, keyState.status == KeychainStatus::Ok);
    } else {
        object.insert(u"has_key"_s, QJsonValue(QJsonValue::Null));
        object.insert(u"keychain_note"_s, keyState.message);
    }
    return object;
}

int runAdd(const QStringList &arguments)
{
    Options options;
    const QStringList valued = {
        u"--type"_s,       u"--model"_s,           u"--base-url"_s, u"--context-window"_s,
        u"--max-tokens"_s, u"--temperature"_s,     u"--key-env"_s,  u"--max-in-flight"_s,
        u"--timeout-ms"_s, u"--idle-timeout-ms"_s, u"--cache"_s
    };
    const QString usage =
        Tr::tr("usage: engines add NAME --type T --model M [--base-url URL] "
               "[--context-window N] [--max-in-flight N] [--timeout-ms MS] [--idle-timeout-ms MS] "
               "[--cache JSON] [--key-env VAR | --key-stdin]");
    if (const auto exit =
            parseOptions(u"add"_s, arguments, valued, { u"--key-stdin"_s }, usage, &options))
        return *exit;
    if (options.positional.size() != 1) {
        printError(usage);
        return ExitUsage;
    }
    EngineProfile profile;
    profile.name = options.positional.first();
    if (auto problem = profileNameProblem(profile.name)) {
        printError(*problem);
        return ExitUsage;
    }
    const QString typeName = options.values.value(u"--type"_s);
    const auto type = engineTypeFromName(typeName);
    if (!type || *type == EngineType::Replay) {
        QStringList names = engineTypeNames();
        names.removeAll(u"replay"_s);
        printError(typeName.isEmpty()
                       ? Tr::tr("engines add needs --type (one of: %1)").arg(names.join(u", "_s))
                       : Tr::tr("unknown engine type '%1' (one of: %2)")
                             .arg(typeName, names.join(u", "_s)));
        return ExitUsage;
    }
    profile.type = *type;
    profile.model = options.values.value(u"--model"_s);
    if (profile.model.isEmpty()) {
        printError(Tr::tr("engines add needs --model"));
        return ExitUsage;
    }
    profile.baseUrl = options.values.value(u"--base-url"_s);
    if (!profile.baseUrl.isEmpty()) {
        const QUrl url(profile.baseUrl);
        if (!url.isValid() || (url.scheme() != u"http" && url.scheme() != u"https")
            || url.host().isEmpty()) {
            printError(Tr::tr("invalid --base-url '%1': expected http:// or https:// and a host")
                           .arg(profile.baseUrl));
            return ExitUsage;
        }
    }
    if (options.values.contains(u"--context-window"_s)) {
        profile.contextWindow = parsePositive<qint64>(options.values.value(u"--context-window"_s));
        if (!profile.contextWindow) {
            printError(Tr::tr("--context-window needs a positive whole number"));
            return ExitUsage;
        }
    }
    if (options.values.contains(u"--max-in-flight"_s)) {
        profile.maxInFlight = parsePositive<int>(options.values.value(u"--max-in-flight"_s));
        if (!profile.maxInFlight) {
            printError(Tr::tr("--max-in-flight needs a positive whole number"));
            return ExitUsage;
        }
    }
    for (const auto &[option, target] :
         { std::pair { u"--timeout-ms"_s, &profile.timeoutMs },
           std::pair { u"--idle-timeout-ms"_s, &profile.idleTimeoutMs } }) {
        if (!options.values.contains(option))
            continue;
        *target = parsePositive<qint64>(options.values.value(option));
        if (!*target) {
            printError(Tr::tr("%1 needs a positive whole number of milliseconds").arg(option));
            return ExitUsage;
        }
    }
    if (options.values.contains(u"--cache"_s)) {
        QJsonParseError parseError;
        const QJsonDocument doc =
            QJsonDocument::fromJson(options.values.value(u"--cache"_s).toUtf8(), &parseError);
        QList<CacheSpecError> problems;
        if (parseError.error == QJsonParseError::NoError)
            profile.cache = cacheSpecFromJson(
                doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(), u"/cache"_s, &problems);
        if (!profile.cache) {
            const QString why = parseError.error != QJsonParseError::NoError
                ? parseError.errorString()
                : problems.isEmpty()
                ? Tr::tr("expected a JSON object")
                : QString(problems.first().pointer + u": "_s + problems.first().message);
            printError(Tr::tr("invalid --cache: %1").arg(why));
            return ExitUsage;
        }
    }
    if (options.values.contains(u"--max-tokens"_s)) {
        profile.maxTokens = parsePositive<int>(options.values.value(u"--max-tokens"_s));
        if (!profile.maxTokens) {
            printError(Tr::tr("--max-tokens needs a positive whole number"));
            return ExitUsage;
        }
    }
    if (options.values.contains(u"--temperature"_s)) {
        bool ok = false;
        const double t = options.values.value(u"--temperature"_s).toDouble(&ok);
        if (!ok || t < 0) {
            printError(Tr::tr("--temperature needs a number of 0 or more"));
            return ExitUsage;
        }
        profile.temperature = t;
    }

    const bool fromEnv = options.values.contains(u"--key-env"_s);
    const bool fromStdin = options.flags.contains(u"--key-stdin"_s);
    if (fromEnv && fromStdin) {
        printError(Tr::tr("give the key either with --key-env or with --key-stdin, not both"));
        return ExitUsage;
    }
    std::optional<QString> key;
    if (fromEnv) {
        const QString variable = options.values.value(u"--key-env"_s);
        key = qEnvironmentVariable(variable.toLocal8Bit().constData());
        if (key->isEmpty()) {
            printError(Tr::tr("the environment variable %1 given by --key-env is not set or empty")
                           .arg(variable));
            return ExitUsage;
        }
    } else if (fromStdin) {
        QFile in;
        if (!in.open(stdin, QIODevice::ReadOnly)) {
            printError(Tr::tr("cannot read the key from stdin"));
            return ExitUsage;
        }
        key = QString::fromUtf8(in.readAll()).trimmed();
        if (key->isEmpty()) {
            printError(Tr::tr("no key on stdin (--key-stdin reads the key from standard input)"));
            return ExitUsage;
        }
    }

    AppContext context; // the keychain and the profiles; also the context of the keychain jobs
    if (context.profiles()->contains(profile.name)) {
        printError(Tr::tr("an engine profile named '%1' already exists (remove it first)")
                       .arg(profile.name));
        return ExitFailed;
    }

    auto addProfile = [&context, profile](bool hasKey) {
        const ProfileResult added = context.profiles()->add(profile);
        if (!added.ok) {
            printError(added.error);
            return ExitFailed;
        }
        QJsonObject object = profile.toJson();
        object.insert(u"has_key"_s, hasKey);
        printJson(object);
        return ExitOk;
    };

    if (!key)
        return addProfile(false);

    // The key goes first: when the keychain cannot take it, nothing is saved.
    context.credentials()->writeKey(
        profile.name, *key, &context, [&](const KeychainResult &written) {
            if (written.status != KeychainStatus::Ok) {
                printError(
                    Tr::tr("cannot store the key of engine '%1'; the engine was not added. %2")
                        .arg(profile.name, written.message));
                finishWith(ExitFailed);
                return;
            }
            finishWith(addProfile(true));
        });
    return QCoreApplication::exec();
}

int runList(const QStringList &arguments)
{
    Options options;
    const QString usage = Tr::tr("usage: engines list");
    if (const auto exit = parseOptions(u"list"_s, arguments, {}, {}, usage, &options))
        return *exit;
    if (!options.positional.isEmpty()) {
        printError(usage);
        return ExitUsage;
    }
    AppContext context;
    const QList<EngineProfile> profiles = context.profiles()->list();
    if (profiles.isEmpty()) {
        printJson(QJsonArray());
        return ExitOk;
    }
    // One read per profile, queued in order by the credential store.
    auto results = std::make_shared<QList<KeychainResult>>();
    for (const EngineProfile &profile : profiles) {
        context.credentials()->readKey(
            profile.name, &context, [results, profiles](const KeychainResult &read) {
                KeychainResult state = read;
                state.key.reset(); // never kept beyond this point
                results->append(state);
                if (results->size() < profiles.size())
                    return;
                QJsonArray array;
                QString note;
                for (qsizetype i = 0; i < profiles.size(); ++i) {
                    array.append(profileJson(profiles.at(i), results->at(i)));
                    if (!results->at(i).usable() && note.isEmpty())
                        note = results->at(i).message;
                }
                if (!note.isEmpty())
                    printError(Tr::tr("cannot tell which engines have a key: %1").arg(note));
                printJson(array);
                finishWith(ExitOk);
            });
    }
    return QCoreApplication::exec();
}

int runRemove(const QStringList &arguments)
{
    Options options;
    const QString usage = Tr::tr("usage: engines remove NAME");
    if (const auto exit = parseOptions(u"remove"_s, arguments, {}, {}, usage, &options))
        return *exit;
    if (options.positional.size() != 1) {
        printError(usage);
        return ExitUsage;
    }
    const QString name = options.positional.first();
    AppContext context;
    if (!context.profiles()->contains(name)) {
        printError(Tr::tr("no engine profile named '%1'").arg(name));
        return ExitFailed;
    }
    context.profiles()->remove(name, &context, [name](const ProfileResult &result) {
        if (!result.ok) {
            printError(result.error);
            finishWith(ExitFailed);
            return;
        }
        printJson(QJsonObject { { u"removed"_s, name }, { u"key_deleted"_s, true } });
        finishWith(ExitOk);
    });
    return QCoreApplication::exec();
}

int runTest(const QStringList &arguments)
{
    Options options;
    const QString usage = Tr::tr("usage: engines test NAME [--key-env VAR]");
    if (const auto exit =
            parseOptions(u"test"_s, arguments, { u"--key-env"_s }, {}, usage, &options))
        return *exit;
    if (options.positional.size() != 1) {
        printError(usage);
        return ExitUsage;
    }
    const QString name = options.positional.first();
    AppContext context;
    const std::optional<EngineProfile> profile = context.profiles()->get(name);
    if (!profile) {
        printError(Tr::tr("no engine profile named '%1'").arg(name));
        return ExitFailed;
    }

    // The probe in core does the checks, the key lookup a run makes (a variable given here
    // first, a key for this test only; then the profile's keychain entry) and the request.
    EngineProbe probe(context.network(), context.credentials(), nullptr);
    QObject::connect(&probe, &EngineProbe::finished, &context, [](const EngineProbeResult &result) {
        QJsonObject out { { u"name"_s, result.name },
                          { u"type"_s, engineTypeName(result.type) },
                          { u"model"_s, result.model } };
        if (result.sent) {
            out.insert(u"key_source"_s, result.keySource);
            out.insert(u"duration_ms"_s, double(result.durationMs));
        }
        if (result.ok) {
            out.insert(u"ok"_s, true);
            out.insert(u"reply"_s, result.reply);
            printJson(out);
            finishWith(ExitOk);
            return;
        }
        out.insert(u"ok"_s, false);
        out.insert(u"sent"_s, result.sent);
        out.insert(u"error_category"_s, errorCategoryName(result.category));
        if (result.sent) {
            out.insert(u"http_status"_s, result.httpStatus);
            out.insert(u"provider_type"_s, result.providerType);
            out.insert(u"message"_s, result.providerMessage);
            printJson(out);
            printError(Tr::tr("engine '%1' failed the test: %2").arg(result.name, result.message));
        } else {
            QJsonArray problems;
            for (const PreflightProblem &problem : result.problems)
                problems.append(problem.message);
            out.insert(u"message"_s, result.message);
            out.insert(u"problems"_s, problems);
            printJson(out);
            printError(Tr::tr("cannot test engine '%1' (nothing was sent): %2")
                           .arg(result.name, result.message));
        }
        finishWith(ExitFailed);
    });
    probe.start(*profile, options.values.value(u"--key-env"_s));
    return QCoreApplication::exec();
}

} // namespace

int runEngines(const QStringList &arguments)
{
    const QString sub = arguments.value(0);
    const QStringList rest = arguments.mid(1);
    if (sub == u"add")
        return runAdd(rest);
    if (sub == u"list")
        return runList(rest);
    if (sub == u"remove")
        return runRemove(rest);
    if (sub == u"test")
        return runTest(rest);
    printError(
        sub.isEmpty()
            ? Tr::tr("engines needs a subcommand: list, add, remove or test")
            : Tr::tr("unknown engines subcommand '%1' (list, add, remove or test)").arg(sub));
    return ExitUsage;
}

} // namespace Callscope::Cli
