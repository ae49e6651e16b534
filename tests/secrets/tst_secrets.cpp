// Engine profiles, the keychain-backed credential store, the key resolver and
// `callscope-cli engines`, against a real Secret Service (gnome-keyring).
//
// Needs: a D-Bus session bus with an unlocked gnome-keyring in DBUS_SESSION_BUS_ADDRESS.
// `tools/dev.sh test` starts one (dbus-run-session plus gnome-keyring-daemon --unlock). By
// hand:
//   export HOME=$(mktemp -d) XDG_RUNTIME_DIR=$(mktemp -d)
//   dbus-run-session -- sh -c 'printf %s pass | gnome-keyring-daemon --unlock
//       --components=secrets >/dev/null; ctest --test-dir build -R tst_secrets --output-on-failure'
// (one line).
// Without a bus the suite fails (it never skips). The "no Secret Service" and "locked
// keyring" cases run this executable again as a helper (`tst_secrets --helper nobus|locked`):
// with a dead bus address, and inside a private dbus-run-session with its own gnome-keyring
// that the helper locks, so the shared keyring of the test session is never locked.

#include "core/secrets/credentialstore.h"
#include "core/secrets/engineprofile.h"
#include "core/secrets/keyresolver.h"
#include "core/secrets/profilestore.h"
#include "tests/support/fakeprovider.h"
#include "tests/support/testsupport.h"

#include <QCoreApplication>
#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusObjectPath>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <optional>

using namespace Qt::StringLiterals;
using namespace Callscope;

namespace {

// The messages a user sees. Written out in full on purpose: a change to them must be seen here.
const QString kRunOnly = u"or give the key for this run only (an environment variable named by the "
                         u"spec's api_key_env, or a key typed in for this session)."_s;
const QString kNoServiceDeadSocket =
    u"No keychain service is running (Secret Service over D-Bus: Could not connect: No such file "
    u"or "
    u"directory). Start gnome-keyring or KWallet in your desktop session, "_s
    + kRunOnly;
const QString kLocked =
    u"The keychain is locked. Unlock your keyring (for example by logging in again or with Seahorse), "_s
    + kRunOnly;

const char kKeyVariable[] = "CALLSCOPE_TST_SECRETS_KEY";

QString statusName(KeychainStatus status)
{
    switch (status) {
    case KeychainStatus::Ok:
        return u"ok"_s;
    case KeychainStatus::NotFound:
        return u"not_found"_s;
    case KeychainStatus::NoService:
        return u"no_service"_s;
    case KeychainStatus::Locked:
        return u"locked"_s;
    case KeychainStatus::AccessDenied:
        return u"access_denied"_s;
    case KeychainStatus::Failed:
        return u"failed"_s;
    }
    return {};
}

template<typename T> bool waitFor(const std::optional<T> &value, int ms = 30000)
{
    return QTest::qWaitFor([&] { return value.has_value(); }, ms);
}

std::optional<KeychainResult> readNow(CredentialStore &store, const QString &profile)
{
    std::optional<KeychainResult> result;
    QObject context;
    store.readKey(profile, &context, [&](const KeychainResult &r) { result = r; });
    waitFor(result);
    return result;
}

std::optional<KeychainResult> writeNow(CredentialStore &store, const QString &profile,
                                       const QString &key)
{
    std::optional<KeychainResult> result;
    QObject context;
    store.writeKey(profile, key, &context, [&](const KeychainResult &r) { result = r; });
    waitFor(result);
    return result;
}

std::optional<KeychainResult> deleteNow(CredentialStore &store, const QString &profile)
{
    std::optional<KeychainResult> result;
    QObject context;
    store.deleteKey(profile, &context, [&](const KeychainResult &r) { result = r; });
    waitFor(result);
    return result;
}

std::optional<ResolvedKey> resolveNow(KeyResolver &resolver, const EngineSpec &spec)
{
    std::optional<ResolvedKey> result;
    QObject context;
    resolver.resolve(spec, &context, [&](const ResolvedKey &r) { result = r; });
    waitFor(result);
    return result;
}

QJsonObject resolvedJson(const std::optional<ResolvedKey> &r)
{
    if (!r)
        return { { u"timeout"_s, true } };
    return { { u"ok"_s, r->ok },
             { u"source"_s, keySourceName(r->source) },
             { u"key"_s, r->key },
             { u"error"_s, r->error } };
}

QJsonObject keychainJson(const std::optional<KeychainResult> &r)
{
    if (!r)
        return { { u"timeout"_s, true } };
    return { { u"status"_s, statusName(r->status) },
             { u"message"_s, r->message },
             { u"key"_s, r->key ? QJsonValue(*r->key) : QJsonValue(QJsonValue::Null) } };
}

struct CliRun
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    bool finished = false;
};

CliRun runCli(const QStringList &arguments, const QProcessEnvironment &env,
              const QByteArray &input = {})
{
    CliRun run;
    QProcess process;
    process.setProcessEnvironment(env);
    process.start(Callscope::Test::cliPath(), arguments);
    if (!process.waitForStarted(10000))
        return run;
    if (!input.isNull())
        process.write(input);
    process.closeWriteChannel();
    run.finished = process.waitForFinished(60000) && process.exitStatus() == QProcess::NormalExit;
    run.exitCode = process.exitCode();
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    return run;
}

// For a child that talks to a FakeProvider of this thread: waits while the event loop runs.
CliRun runCliAsync(const QStringList &arguments, const QProcessEnvironment &env)
{
    CliRun run;
    QProcess process;
    process.setProcessEnvironment(env);
    process.start(Callscope::Test::cliPath(), arguments);
    process.closeWriteChannel();
    run.finished = QTest::qWaitFor([&] { return process.state() == QProcess::NotRunning; }, 60000)
        && process.exitStatus() == QProcess::NormalExit;
    run.exitCode = process.exitCode();
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    return run;
}

QJsonObject cliJson(const CliRun &run)
{
    QJsonValue out = QJsonDocument::fromJson(run.out).isArray()
        ? QJsonValue(QJsonDocument::fromJson(run.out).array())
        : QJsonValue(QJsonDocument::fromJson(run.out).object());
    return { { u"exit"_s, run.exitCode },
             { u"out"_s, out },
             { u"err"_s, QString::fromUtf8(run.err) } };
}

// --- helper processes -----------------------------------------------------------------------

// Locks the default collection of the Secret Service on the session bus (gnome-keyring locks
// without a prompt). Returns an error text, empty on success.
QString lockDefaultCollection()
{
    QDBusConnection bus = QDBusConnection::sessionBus();
    QDBusMessage alias =
        QDBusMessage::createMethodCall(u"org.freedesktop.secrets"_s, u"/org/freedesktop/secrets"_s,
                                       u"org.freedesktop.Secret.Service"_s, u"ReadAlias"_s);
    alias << u"default"_s;
    const QDBusMessage aliasReply = bus.call(alias, QDBus::Block, 10000);
    if (aliasReply.type() != QDBusMessage::ReplyMessage || aliasReply.arguments().isEmpty())
        return u"ReadAlias failed: "_s + aliasReply.errorMessage();
    const auto collection = aliasReply.arguments().first().value<QDBusObjectPath>();
    QDBusMessage lock =
        QDBusMessage::createMethodCall(u"org.freedesktop.secrets"_s, u"/org/freedesktop/secrets"_s,
                                       u"org.freedesktop.Secret.Service"_s, u"Lock"_s);
    lock << QVariant::fromValue(QList<QDBusObjectPath> { collection });
    const QDBusMessage lockReply = bus.call(lock, QDBus::Block, 10000);
    if (lockReply.type() != QDBusMessage::ReplyMessage)
        return u"Lock failed: "_s + lockReply.errorMessage();
    return {};
}

// The checks every "keychain unusable" helper runs in-process: reads and writes fail with the
// user-facing message, and a key for this run still comes from the session or the environment.
void unusableKeychainChecks(QJsonObject &out, const QString &profile)
{
    CredentialStore store(nullptr);
    KeyResolver resolver(&store);
    out.insert(u"read"_s, keychainJson(readNow(store, profile)));
    out.insert(u"write"_s, keychainJson(writeNow(store, profile, u"sk-new-key-0001"_s)));
    out.insert(u"delete"_s, keychainJson(deleteNow(store, profile)));

    EngineSpec spec;
    spec.profile = profile;
    out.insert(u"resolve_plain"_s, resolvedJson(resolveNow(resolver, spec)));
    store.setSessionKey(profile, u"sk-session-0002"_s);
    out.insert(u"resolve_session"_s, resolvedJson(resolveNow(resolver, spec)));
    store.clearSessionKey(profile);
    spec.apiKeyEnv = QString::fromLatin1(kKeyVariable);
    out.insert(u"resolve_env"_s, resolvedJson(resolveNow(resolver, spec)));
}

int runHelper(const QString &scenario)
{
    QJsonObject out;
    if (scenario == u"nobus") {
        unusableKeychainChecks(out, u"tst-nobus"_s);
    } else if (scenario == u"locked") {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        const QStringList addArgs = {
            u"engines"_s, u"add"_s,       u"tst-locked"_s,
            u"--type"_s,  u"openai"_s,    u"--model"_s,
            u"m-1"_s,     u"--key-env"_s, QString::fromLatin1(kKeyVariable)
        };
        out.insert(u"cli_add_before_lock"_s, cliJson(runCli(addArgs, env)));
        {
            CredentialStore store(nullptr);
            out.insert(u"read_before_lock"_s, keychainJson(readNow(store, u"tst-locked"_s)));
        }
        out.insert(u"lock_error"_s, lockDefaultCollection());
        unusableKeychainChecks(out, u"tst-locked"_s);
        out.insert(u"cli_add_locked"_s,
                   cliJson(runCli({ u"engines"_s, u"add"_s, u"tst-locked-2"_s, u"--type"_s,
                                    u"anthropic"_s, u"--model"_s, u"m-2"_s, u"--key-env"_s,
                                    QString::fromLatin1(kKeyVariable) },
                                  env)));
        out.insert(u"cli_list_locked"_s, cliJson(runCli({ u"engines"_s, u"list"_s }, env)));
        out.insert(u"cli_remove_locked"_s,
                   cliJson(runCli({ u"engines"_s, u"remove"_s, u"tst-locked"_s }, env)));
        out.insert(u"cli_list_after_remove"_s, cliJson(runCli({ u"engines"_s, u"list"_s }, env)));
    } else {
        std::fprintf(stderr, "unknown helper scenario\n");
        return 2;
    }
    const QByteArray json = QJsonDocument(out).toJson(QJsonDocument::Compact);
    std::fwrite(json.constData(), 1, size_t(json.size()), stdout);
    return 0;
}

// Runs this executable as a helper; returns its JSON (or an "error" entry).
QJsonObject runHelperProcess(const QStringList &command, const QProcessEnvironment &env)
{
    QProcess process;
    process.setProcessEnvironment(env);
    process.start(command.first(), command.mid(1));
    if (!process.waitForStarted(10000))
        return { { u"error"_s, QString(u"cannot start "_s + command.first()) } };
    if (!process.waitForFinished(120000))
        return { { u"error"_s, u"helper did not finish"_s } };
    const QByteArray out = process.readAllStandardOutput();
    const QJsonDocument doc = QJsonDocument::fromJson(out);
    if (!doc.isObject()) {
        const QString error = u"helper exit "_s + QString::number(process.exitCode())
            + u", stdout: "_s + QString::fromUtf8(out) + u", stderr: "_s
            + QString::fromUtf8(process.readAllStandardError());
        return { { u"error"_s, error } };
    }
    return doc.object();
}

} // namespace

class TestSecrets final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void keyRoundTrip();
    void missingEntryIsNoKey();
    void jobsStartedFromCallbacks();
    void storeDestroyedWhileBusy();
    void profileCrud();
    void renameMovesKey();
    void removeDeletesKey();
    void settingsFileHoldsNoKey();
    void mergeProfileUnderSpec();
    void resolverOrder();
    void cliAddListRemove();
    void cliRefusesKeyArgument();
    void cliEnginesTest();
    void runWithProfileKeepsKeyOut();
    void noSecretService();
    void lockedKeyring();

private:
    QString uniqueName(const QString &base) const
    {
        return base + u'-' + QString::number(QCoreApplication::applicationPid());
    }
    QProcessEnvironment cliEnvironment(const QString &configHome) const;

    QString m_service;
    std::unique_ptr<CredentialStore> m_store;
    QTemporaryDir m_dir;
};

void TestSecrets::initTestCase()
{
    QVERIFY2(
        !qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS"),
        "tst_secrets needs a D-Bus session bus with an unlocked gnome-keyring (Secret Service). "
        "Run it through `tools/dev.sh test`, or by hand: export HOME=$(mktemp -d) "
        "XDG_RUNTIME_DIR=$(mktemp -d); dbus-run-session -- sh -c 'printf %s pass | "
        "gnome-keyring-daemon --unlock --components=secrets >/dev/null; ctest -R tst_secrets'");
    QVERIFY2(!Callscope::Test::cliPath().isEmpty() && QFile::exists(Callscope::Test::cliPath()),
             "CALLSCOPE_CLI does not point at a built callscope-cli");
    QVERIFY(m_dir.isValid());
    // A service name of our own: the tests never meet real entries, nor a parallel run's.
    m_service = uniqueName(u"callscope-tst-secrets"_s);
    m_store = std::make_unique<CredentialStore>(m_service, nullptr);
    const auto probe = writeNow(*m_store, u"probe"_s, u"probe-value"_s);
    QVERIFY2(probe, "the keychain did not answer within 30 s");
    QVERIFY2(
        probe->status == KeychainStatus::Ok,
        qPrintable(u"the Secret Service of this session is not usable: "_s + probe->message
                   + u" (is gnome-keyring running and unlocked on DBUS_SESSION_BUS_ADDRESS?)"_s));
    QCOMPARE(deleteNow(*m_store, u"probe"_s)->status, KeychainStatus::Ok);
}

void TestSecrets::keyRoundTrip()
{
    const QString profile = u"round-trip"_s;
    auto written = writeNow(*m_store, profile, u"sk-first-4f1e9c"_s);
    QVERIFY(written);
    QCOMPARE(written->status, KeychainStatus::Ok);
    QVERIFY(written->message.isEmpty());

    auto read = readNow(*m_store, profile);
    QVERIFY(read);
    QCOMPARE(read->status, KeychainStatus::Ok);
    QCOMPARE(read->key, std::optional<QString>(u"sk-first-4f1e9c"_s));

    // Update: writing again replaces the entry.
    QCOMPARE(writeNow(*m_store, profile, u"sk-second-77aa01"_s)->status, KeychainStatus::Ok);
    read = readNow(*m_store, profile);
    QCOMPARE(read->status, KeychainStatus::Ok);
    QCOMPARE(read->key, std::optional<QString>(u"sk-second-77aa01"_s));

    // Non-ASCII keys survive.
    QCOMPARE(writeNow(*m_store, profile, u"clé-ünïcode-€"_s)->status, KeychainStatus::Ok);
    QCOMPARE(readNow(*m_store, profile)->key, std::optional<QString>(u"clé-ünïcode-€"_s));

    auto deleted = deleteNow(*m_store, profile);
    QCOMPARE(deleted->status, KeychainStatus::Ok);
    read = readNow(*m_store, profile);
    QCOMPARE(read->status, KeychainStatus::NotFound);
    QVERIFY(!read->key);
    // Deleting what is not there succeeds.
    QCOMPARE(deleteNow(*m_store, profile)->status, KeychainStatus::Ok);
}

void TestSecrets::missingEntryIsNoKey()
{
    const auto read = readNow(*m_store, u"never-stored"_s);
    QVERIFY(read);
    QCOMPARE(read->status, KeychainStatus::NotFound);
    QVERIFY(read->usable());
    QVERIFY(read->message.isEmpty());
    QCOMPARE(read->backendCode, 1); // QKeychain::EntryNotFound
}

void TestSecrets::jobsStartedFromCallbacks()
{
    // A write asked for from inside a read's callback, and a read from inside that write's:
    // each starts after the previous job is gone, and the order holds.
    QStringList order;
    std::optional<KeychainResult> last;
    QObject context;
    m_store->readKey(u"chain"_s, &context, [&](const KeychainResult &first) {
        order << u"read1:"_s + statusName(first.status);
        m_store->writeKey(u"chain"_s, u"sk-chain-1"_s, &context, [&](const KeychainResult &w) {
            order << u"write:"_s + statusName(w.status);
            m_store->readKey(u"chain"_s, &context, [&](const KeychainResult &second) {
                order << u"read2:"_s + second.key.value_or(u"-"_s);
                last = second;
            });
        });
    });
    QCOMPARE(m_store->pendingCount(), 1);
    QVERIFY(waitFor(last));
    QCOMPARE(order, (QStringList { u"read1:not_found"_s, u"write:ok"_s, u"read2:sk-chain-1"_s }));
    QCOMPARE(m_store->pendingCount(), 0);

    // A callback whose context is gone is not called; the queue goes on.
    bool called = false;
    {
        QObject shortLived;
        m_store->readKey(u"chain"_s, &shortLived, [&](const KeychainResult &) { called = true; });
    }
    QCOMPARE(deleteNow(*m_store, u"chain"_s)->status, KeychainStatus::Ok);
    QVERIFY(!called);
}

void TestSecrets::storeDestroyedWhileBusy()
{
    // Destroying the store with one job running and one queued: no callback, no crash, and
    // the keychain still answers afterwards.
    QCOMPARE(writeNow(*m_store, u"busy"_s, u"sk-busy"_s)->status, KeychainStatus::Ok);
    int calls = 0;
    {
        CredentialStore doomed(m_service, nullptr);
        QObject context;
        doomed.readKey(u"busy"_s, &context, [&](const KeychainResult &) { ++calls; });
        doomed.readKey(u"busy"_s, &context, [&](const KeychainResult &) { ++calls; });
        QCoreApplication::processEvents(); // the first job starts
        QCOMPARE(doomed.pendingCount(), 2);
    }
    QTest::qWait(500);
    QCOMPARE(calls, 0);
    QCOMPARE(readNow(*m_store, u"busy"_s)->key, std::optional<QString>(u"sk-busy"_s));
    QCOMPARE(deleteNow(*m_store, u"busy"_s)->status, KeychainStatus::Ok);
}

void TestSecrets::profileCrud()
{
    const QString file = m_dir.filePath(u"crud.conf"_s);
    ProfileStore store(file, m_store.get(), nullptr);
    QVERIFY(store.list().isEmpty());

    EngineProfile local;
    local.name = u"local-llama"_s;
    local.type = EngineType::OpenAICompatible;
    local.model = u"llama3"_s;
    local.baseUrl = u"http://127.0.0.1:8080"_s;
    local.contextWindow = 8192;
    local.toolResultsInContext = std::optional<int>(); // null: send every result
    QVERIFY(store.add(local).ok);

    EngineProfile claude;
    claude.name = u"claude"_s;
    claude.type = EngineType::Anthropic;
    claude.model = u"claude-sonnet"_s;
    claude.maxTokens = 2048;
    claude.temperature = 0.25;
    claude.toolResultsInContext = std::optional<int>(4);
    claude.toolResultsTokens = 3000;
    QVERIFY(store.add(claude).ok);

    const QList<EngineProfile> all = store.list();
    QCOMPARE(all.size(), 2);
    QCOMPARE(all.at(0), claude); // sorted by name
    QCOMPARE(all.at(1), local);

    // A second store on the same file sees the same profiles (they are on disk).
    ProfileStore again(file, m_store.get(), nullptr);
    QCOMPARE(again.get(u"local-llama"_s), std::optional<EngineProfile>(local));
    QCOMPARE(again.get(u"claude"_s)->toJson(),
             (QJsonObject { { u"name"_s, u"claude"_s },
                            { u"type"_s, u"anthropic"_s },
                            { u"model"_s, u"claude-sonnet"_s },
                            { u"max_tokens"_s, 2048 },
                            { u"temperature"_s, 0.25 },
                            { u"tool_results_in_context"_s, 4 },
                            { u"tool_results_tokens"_s, 3000 } }));
    QCOMPARE(again.get(u"local-llama"_s)->toJson().value(u"tool_results_in_context"_s),
             QJsonValue(QJsonValue::Null));

    const ProfileResult dup = store.add(local);
    QVERIFY(!dup.ok);
    QCOMPARE(dup.error, u"an engine profile named 'local-llama' already exists"_s);

    EngineProfile bad = local;
    bad.name = u"with/slash"_s;
    QCOMPARE(
        store.add(bad).error,
        u"invalid engine profile name 'with/slash': use 1 to 64 letters, digits, '.', '_' or '-', "
        u"starting with a letter or digit"_s);
    bad.name.clear();
    QCOMPARE(store.add(bad).error, u"the engine profile name is empty"_s);

    local.model = u"llama3.1"_s;
    local.contextWindow.reset();
    QVERIFY(store.update(local).ok);
    QCOMPARE(store.get(u"local-llama"_s), std::optional<EngineProfile>(local));
    EngineProfile ghost = local;
    ghost.name = u"ghost"_s;
    QCOMPARE(store.update(ghost).error, u"no engine profile named 'ghost'"_s);
    QVERIFY(!store.get(u"ghost"_s));
}

void TestSecrets::renameMovesKey()
{
    const QString file = m_dir.filePath(u"rename.conf"_s);
    ProfileStore store(file, m_store.get(), nullptr);
    EngineProfile profile;
    profile.name = u"old-name"_s;
    profile.model = u"gpt-test"_s;
    QVERIFY(store.add(profile).ok);
    QCOMPARE(writeNow(*m_store, u"old-name"_s, u"sk-moving-key-9d2"_s)->status, KeychainStatus::Ok);

    std::optional<ProfileResult> result;
    store.rename(u"old-name"_s, u"new-name"_s, this, [&](const ProfileResult &r) { result = r; });
    QVERIFY(waitFor(result));
    QVERIFY2(result->ok, qPrintable(result->error));
    QVERIFY(!store.contains(u"old-name"_s));
    QCOMPARE(store.get(u"new-name"_s)->model, u"gpt-test"_s);
    QCOMPARE(readNow(*m_store, u"new-name"_s)->key, std::optional<QString>(u"sk-moving-key-9d2"_s));
    QCOMPARE(readNow(*m_store, u"old-name"_s)->status, KeychainStatus::NotFound);

    // Onto an existing name: refused, nothing moves.
    EngineProfile other = profile;
    other.name = u"taken"_s;
    QVERIFY(store.add(other).ok);
    result.reset();
    store.rename(u"new-name"_s, u"taken"_s, this, [&](const ProfileResult &r) { result = r; });
    QVERIFY(waitFor(result));
    QVERIFY(!result->ok);
    QCOMPARE(result->error, u"an engine profile named 'taken' already exists"_s);
    QCOMPARE(readNow(*m_store, u"new-name"_s)->key, std::optional<QString>(u"sk-moving-key-9d2"_s));

    // A profile without a key renames too.
    result.reset();
    store.rename(u"taken"_s, u"taken-2"_s, this, [&](const ProfileResult &r) { result = r; });
    QVERIFY(waitFor(result));
    QVERIFY(result->ok);
    QCOMPARE(result->keychain->status, KeychainStatus::NotFound);
    QVERIFY(store.contains(u"taken-2"_s));
    QCOMPARE(readNow(*m_store, u"taken-2"_s)->status, KeychainStatus::NotFound);

    QCOMPARE(deleteNow(*m_store, u"new-name"_s)->status, KeychainStatus::Ok);
}

void TestSecrets::removeDeletesKey()
{
    const QString file = m_dir.filePath(u"remove.conf"_s);
    ProfileStore store(file, m_store.get(), nullptr);
    EngineProfile profile;
    profile.name = u"doomed"_s;
    profile.model = u"m"_s;
    QVERIFY(store.add(profile).ok);
    QCOMPARE(writeNow(*m_store, u"doomed"_s, u"sk-doomed-31"_s)->status, KeychainStatus::Ok);

    std::optional<ProfileResult> result;
    store.remove(u"doomed"_s, this, [&](const ProfileResult &r) { result = r; });
    QVERIFY(waitFor(result));
    QVERIFY2(result->ok, qPrintable(result->error));
    QVERIFY(!store.contains(u"doomed"_s));
    QCOMPARE(readNow(*m_store, u"doomed"_s)->status, KeychainStatus::NotFound);

    result.reset();
    store.remove(u"doomed"_s, this, [&](const ProfileResult &r) { result = r; });
    QVERIFY(waitFor(result));
    QVERIFY(!result->ok);
    QCOMPARE(result->error, u"no engine profile named 'doomed'"_s);
}

void TestSecrets::settingsFileHoldsNoKey()
{
    const QString file = m_dir.filePath(u"grep.conf"_s);
    const QString key = u"sk-grep-me-5c0ffee-unique"_s;
    {
        ProfileStore store(file, m_store.get(), nullptr);
        EngineProfile profile;
        profile.name = u"grepped"_s;
        profile.type = EngineType::Gemini;
        profile.model = u"gemini-pro"_s;
        profile.baseUrl = u"http://127.0.0.1:9"_s;
        QVERIFY(store.add(profile).ok);
        QCOMPARE(writeNow(*m_store, u"grepped"_s, key)->status, KeychainStatus::Ok);
        std::optional<ProfileResult> renamed;
        store.rename(u"grepped"_s, u"grepped-2"_s, this,
                     [&](const ProfileResult &r) { renamed = r; });
        QVERIFY(waitFor(renamed));
        QVERIFY(renamed->ok);
    }
    const QByteArray bytes = Callscope::Test::readFile(file);
    QVERIFY2(!bytes.isEmpty(), qPrintable(Callscope::Test::lastError()));
    QVERIFY(bytes.contains("gemini-pro")); // the profile is there...
    QVERIFY(bytes.contains("grepped-2"));
    QVERIFY(!bytes.contains(key.toUtf8())); // ...its key is not
    QVERIFY(!bytes.contains("5c0ffee"));
    QVERIFY(!bytes.contains(key.toUtf8().toBase64()));
    QCOMPARE(readNow(*m_store, u"grepped-2"_s)->key, std::optional<QString>(key));
    QCOMPARE(deleteNow(*m_store, u"grepped-2"_s)->status, KeychainStatus::Ok);
}

void TestSecrets::mergeProfileUnderSpec()
{
    EngineProfile profile;
    profile.name = u"p"_s;
    profile.type = EngineType::Anthropic;
    profile.model = u"profile-model"_s;
    profile.baseUrl = u"http://127.0.0.1:7000"_s;
    profile.contextWindow = 200000;
    profile.maxTokens = 4096;
    profile.temperature = 0.7;

    EngineSpec spec;
    spec.profile = u"p"_s;
    spec.typeFromProfile = true;
    spec.maxTokens = 100; // the spec wins
    EngineConfig config = makeEngineConfig(spec, profile, u"sk-merge"_s);
    QCOMPARE(config.type, EngineType::Anthropic);
    QCOMPARE(config.model, u"profile-model"_s);
    QCOMPARE(config.baseUrl, QUrl(u"http://127.0.0.1:7000"_s));
    QCOMPARE(config.maxTokens, std::optional<int>(100));
    QCOMPARE(config.temperature, std::optional<double>(0.7));
    QCOMPARE(config.apiKey, u"sk-merge"_s);
    QCOMPARE(mergeProfileIntoSpec(spec, profile).contextWindow, std::optional<qint64>(200000));

    // A spec that names its own type and model keeps them.
    spec.typeFromProfile = false;
    spec.type = EngineType::OpenAICompatible;
    spec.model = u"spec-model"_s;
    spec.baseUrl = u"http://127.0.0.1:7001"_s;
    spec.contextWindow = 32000;
    config = makeEngineConfig(spec, profile, {});
    QCOMPARE(config.type, EngineType::OpenAICompatible);
    QCOMPARE(config.model, u"spec-model"_s);
    QCOMPARE(config.baseUrl, QUrl(u"http://127.0.0.1:7001"_s));
    QCOMPARE(mergeProfileIntoSpec(spec, profile).contextWindow, std::optional<qint64>(32000));
    QVERIFY(config.apiKey.isEmpty());

    // No profile: the spec alone.
    config = makeEngineConfig(spec, std::nullopt, u"k"_s);
    QCOMPARE(config.temperature, std::optional<double>());
    QCOMPARE(config.maxTokens, std::optional<int>(100));
}

void TestSecrets::resolverOrder()
{
    KeyResolver resolver(m_store.get());
    const QString profile = u"resolved"_s;
    QCOMPARE(writeNow(*m_store, profile, u"sk-from-keychain"_s)->status, KeychainStatus::Ok);

    EngineSpec spec;
    spec.profile = profile;
    auto r = resolveNow(resolver, spec);
    QVERIFY(r && r->ok);
    QCOMPARE(r->source, KeySource::Keychain);
    QCOMPARE(r->key, u"sk-from-keychain"_s);

    // The environment variable comes first.
    qputenv(kKeyVariable, "sk-from-env");
    spec.apiKeyEnv = QString::fromLatin1(kKeyVariable);
    r = resolveNow(resolver, spec);
    QCOMPARE(r->source, KeySource::Environment);
    QCOMPARE(r->key, u"sk-from-env"_s);

    // Named but unset: the keychain still answers for the profile...
    qunsetenv(kKeyVariable);
    r = resolveNow(resolver, spec);
    QCOMPARE(r->source, KeySource::Keychain);
    QCOMPARE(r->key, u"sk-from-keychain"_s);

    // ...and without a profile it is an error that names the variable.
    spec.profile.clear();
    r = resolveNow(resolver, spec);
    QVERIFY(r);
    QVERIFY(!r->ok);
    QCOMPARE(r->error,
             u"The environment variable CALLSCOPE_TST_SECRETS_KEY named by api_key_env is not set "
             u"(or is empty). Set it to the key, or store a key for the engine profile with "
             u"'callscope-cli engines add'."_s);

    // A profile without a key and no variable: no key, no error (local servers).
    QCOMPARE(deleteNow(*m_store, profile)->status, KeychainStatus::Ok);
    spec.apiKeyEnv.clear();
    spec.profile = profile;
    r = resolveNow(resolver, spec);
    QVERIFY(r->ok);
    QCOMPARE(r->source, KeySource::None);
    QVERIFY(r->key.isEmpty());

    // A key kept for this session stands in when the keychain has none.
    m_store->setSessionKey(profile, u"sk-typed-in"_s);
    r = resolveNow(resolver, spec);
    QCOMPARE(r->source, KeySource::Session);
    QCOMPARE(r->key, u"sk-typed-in"_s);
    m_store->clearSessionKey(profile);
    QVERIFY(!m_store->sessionKey(profile));
}

QProcessEnvironment TestSecrets::cliEnvironment(const QString &configHome) const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"XDG_CONFIG_HOME"_s, configHome);
    env.remove(u"DISPLAY"_s); // never a keyring prompt on a real screen
    env.remove(u"WAYLAND_DISPLAY"_s);
    return env;
}

void TestSecrets::cliAddListRemove()
{
    const QString configHome = m_dir.filePath(u"cli-config"_s);
    QProcessEnvironment env = cliEnvironment(configHome);
    const QString name = uniqueName(u"tst-cli"_s);
    const QString key = u"sk-cli-env-8e1b77"_s;
    env.insert(QString::fromLatin1(kKeyVariable), key);
    CredentialStore appStore(nullptr); // the CLI's own service, "callscope"

    CliRun run =
        runCli({ u"engines"_s, u"add"_s, name, u"--type"_s, u"openai-compatible"_s, u"--model"_s,
                 u"qwen"_s, u"--base-url"_s, u"http://127.0.0.1:11434"_s, u"--context-window"_s,
                 u"32768"_s, u"--key-env"_s, QString::fromLatin1(kKeyVariable) },
               env);
    QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
    QCOMPARE(QJsonDocument::fromJson(run.out).object(),
             (QJsonObject { { u"name"_s, name },
                            { u"type"_s, u"openai-compatible"_s },
                            { u"model"_s, u"qwen"_s },
                            { u"base_url"_s, u"http://127.0.0.1:11434"_s },
                            { u"context_window"_s, 32768 },
                            { u"has_key"_s, true } }));
    QCOMPARE(readNow(appStore, name)->key, std::optional<QString>(key));

    // From stdin, with the trailing newline a shell adds.
    const QString name2 = uniqueName(u"tst-cli-stdin"_s);
    run = runCli({ u"engines"_s, u"add"_s, name2, u"--type"_s, u"anthropic"_s, u"--model"_s,
                   u"claude-x"_s, u"--key-stdin"_s },
                 env, "sk-from-stdin-42\n");
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QCOMPARE(readNow(appStore, name2)->key, std::optional<QString>(u"sk-from-stdin-42"_s));

    // Without a key.
    const QString name3 = uniqueName(u"tst-cli-nokey"_s);
    run = runCli({ u"engines"_s, u"add"_s, name3, u"--type"_s, u"gemini"_s, u"--model"_s, u"g"_s },
                 env);
    QVERIFY2(run.exitCode == 0, run.err.constData());

    // Adding the same name again fails and keeps the stored key.
    run = runCli({ u"engines"_s, u"add"_s, name, u"--type"_s, u"openai"_s, u"--model"_s, u"x"_s },
                 env);
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(
        QString::fromUtf8(run.err),
        u"callscope-cli: an engine profile named '%1' already exists (remove it first)\n"_s.arg(
            name));

    run = runCli({ u"engines"_s, u"list"_s }, env);
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.err.isEmpty());
    const QJsonArray list = QJsonDocument::fromJson(run.out).array();
    QCOMPARE(list.size(), 3);
    QJsonObject byName;
    for (const QJsonValue &v : list)
        byName.insert(v[u"name"_s].toString(), v);
    QCOMPARE(byName.value(name)[u"has_key"_s], QJsonValue(true));
    QCOMPARE(byName.value(name2)[u"has_key"_s], QJsonValue(true));
    QCOMPARE(byName.value(name3)[u"has_key"_s], QJsonValue(false));
    QCOMPARE(byName.value(name2)[u"type"_s], QJsonValue(u"anthropic"_s));
    QVERIFY(!run.out.contains(key.toUtf8()));
    QVERIFY(!run.out.contains("sk-from-stdin-42"));

    // The settings file the CLI wrote has the profiles and no key.
    const QByteArray settings =
        Callscope::Test::readFile(configHome + u"/Callscope/callscope.conf"_s);
    QVERIFY2(settings.contains("qwen"), qPrintable(Callscope::Test::lastError()));
    QVERIFY(!settings.contains(key.toUtf8()));
    QVERIFY(!settings.contains("sk-from-stdin-42"));

    for (const QString &n : { name, name2, name3 }) {
        run = runCli({ u"engines"_s, u"remove"_s, n }, env);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QCOMPARE(QJsonDocument::fromJson(run.out).object(),
                 (QJsonObject { { u"removed"_s, n }, { u"key_deleted"_s, true } }));
        QCOMPARE(readNow(appStore, n)->status, KeychainStatus::NotFound);
    }
    run = runCli({ u"engines"_s, u"list"_s }, env);
    QCOMPARE(run.out.trimmed(), "[\n]");

    run = runCli({ u"engines"_s, u"remove"_s, name }, env);
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(QString::fromUtf8(run.err),
             u"callscope-cli: no engine profile named '%1'\n"_s.arg(name));
}

void TestSecrets::cliRefusesKeyArgument()
{
    const QProcessEnvironment env = cliEnvironment(m_dir.filePath(u"cli-refuse"_s));
    CliRun run = runCli({ u"engines"_s, u"add"_s, u"x"_s, u"--type"_s, u"openai"_s, u"--model"_s,
                          u"m"_s, u"--key"_s, u"sk-visible"_s },
                        env);
    QCOMPARE(run.exitCode, 2);
    QCOMPARE(
        QString::fromUtf8(run.err),
        u"callscope-cli: --key is refused: a key given as an argument shows in the process list. "
        u"Use --key-env VAR (the key in an environment variable) or --key-stdin.\n"_s);
    run = runCli({ u"engines"_s, u"add"_s, u"x"_s, u"--type"_s, u"openai"_s, u"--model"_s, u"m"_s,
                   u"--key-env"_s, u"CALLSCOPE_TST_SURELY_UNSET"_s },
                 env);
    QCOMPARE(run.exitCode, 2);
    QCOMPARE(QString::fromUtf8(run.err),
             u"callscope-cli: the environment variable CALLSCOPE_TST_SURELY_UNSET "
             u"given by --key-env is not set or empty\n"_s);
    run = runCli({ u"engines"_s, u"add"_s, u"x"_s, u"--type"_s, u"replay"_s, u"--model"_s, u"m"_s },
                 env);
    QCOMPARE(run.exitCode, 2);
    QCOMPARE(QString::fromUtf8(run.err),
             u"callscope-cli: unknown engine type 'replay' (one of: openai, "
             u"openai-responses, anthropic, gemini, openai-compatible)\n"_s);
    run = runCli({ u"engines"_s, u"list"_s }, env);
    QCOMPARE(run.out.trimmed(), "[\n]"); // nothing was added
}

void TestSecrets::cliEnginesTest()
{
    using Callscope::Test::FakeProvider;
    using Callscope::Test::FakeReply;
    FakeProvider server;
    QVERIFY2(server.listen(), qPrintable(server.errorString()));
    const QString baseUrl = server.baseUrl().toString();
    QProcessEnvironment env = cliEnvironment(m_dir.filePath(u"cli-test"_s));
    const QString local = uniqueName(u"tst-test-local"_s);
    const QString claude = uniqueName(u"tst-test-claude"_s);
    env.insert(QString::fromLatin1(kKeyVariable), u"sk-engine-test-1"_s);
    CliRun run = runCli({ u"engines"_s, u"add"_s, local, u"--type"_s, u"openai-compatible"_s,
                          u"--model"_s, u"qwen"_s, u"--base-url"_s, baseUrl, u"--key-env"_s,
                          QString::fromLatin1(kKeyVariable) },
                        env);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    env.insert(QString::fromLatin1(kKeyVariable), u"sk-ant-engine-test-2"_s);
    run = runCli({ u"engines"_s, u"add"_s, claude, u"--type"_s, u"anthropic"_s, u"--model"_s,
                   u"claude-x"_s, u"--base-url"_s, baseUrl, u"--key-env"_s,
                   QString::fromLatin1(kKeyVariable) },
                 env);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    env.remove(QString::fromLatin1(kKeyVariable));

    // The key from the keychain goes in the engine's own auth header.
    server.enqueue(
        FakeReply::jsonFile(200, Callscope::Test::testDataPath(u"secrets/openai_ok.json"_s)));
    run = runCliAsync({ u"engines"_s, u"test"_s, local }, env);
    QVERIFY2(run.finished && run.exitCode == 0, run.err.constData());
    QJsonObject out = QJsonDocument::fromJson(run.out).object();
    out.remove(u"duration_ms"_s);
    QCOMPARE(out,
             (QJsonObject { { u"name"_s, local },
                            { u"type"_s, u"openai-compatible"_s },
                            { u"model"_s, u"qwen"_s },
                            { u"key_source"_s, u"keychain"_s },
                            { u"ok"_s, true },
                            { u"reply"_s, u"ok"_s } }));
    QCOMPARE(server.requestCount(), 1);
    QCOMPARE(server.requests().at(0).path, "/v1/chat/completions"_ba);
    QCOMPARE(server.requests().at(0).header("authorization"), "Bearer sk-engine-test-1"_ba);
    QCOMPARE(server.requests().at(0).jsonObject().value(u"model"_s).toString(), u"qwen"_s);

    server.enqueue(
        FakeReply::jsonFile(200, Callscope::Test::testDataPath(u"secrets/anthropic_ok.json"_s)));
    run = runCliAsync({ u"engines"_s, u"test"_s, claude }, env);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QCOMPARE(server.requests().at(1).path, "/v1/messages"_ba);
    QCOMPARE(server.requests().at(1).header("x-api-key"), "sk-ant-engine-test-2"_ba);
    QVERIFY(!server.requests().at(1).hasHeader("authorization"));

    // A key for this test only, from a variable, wins over the keychain.
    env.insert(u"CALLSCOPE_TST_RUN_ONLY"_s, u"sk-run-only-3"_s);
    server.enqueue(
        FakeReply::jsonFile(401, Callscope::Test::testDataPath(u"secrets/openai_401.json"_s)));
    run = runCliAsync(
        { u"engines"_s, u"test"_s, local, u"--key-env"_s, u"CALLSCOPE_TST_RUN_ONLY"_s }, env);
    QVERIFY(run.finished);
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(server.requests().at(2).header("authorization"), "Bearer sk-run-only-3"_ba);
    out = QJsonDocument::fromJson(run.out).object();
    QCOMPARE(out.value(u"ok"_s), QJsonValue(false));
    QCOMPARE(out.value(u"key_source"_s), QJsonValue(u"environment"_s));
    QCOMPARE(out.value(u"error_category"_s), QJsonValue(u"auth"_s));
    QCOMPARE(out.value(u"http_status"_s), QJsonValue(401));
    QCOMPARE(out.value(u"message"_s), QJsonValue(u"Incorrect API key provided: sk-wro****."_s));
    QVERIFY2(QString::fromUtf8(run.err).startsWith(
                 u"callscope-cli: engine '%1' failed the test: auth (HTTP 401)"_s.arg(local)),
             run.err.constData());
    // No key bytes in what the CLI printed.
    QVERIFY(!run.out.contains("sk-run-only-3") && !run.err.contains("sk-run-only-3"));
    QVERIFY(!run.out.contains("sk-engine-test-1") && !run.err.contains("sk-engine-test-1"));

    // A hosted provider with no key anywhere: the probe says so and sends nothing.
    const QString keyless = uniqueName(u"tst-test-keyless"_s);
    run = runCli(
        { u"engines"_s, u"add"_s, keyless, u"--type"_s, u"openai"_s, u"--model"_s, u"gpt-x"_s },
        env);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    run = runCliAsync({ u"engines"_s, u"test"_s, keyless }, env);
    QCOMPARE(run.exitCode, 1);
    out = QJsonDocument::fromJson(run.out).object();
    QCOMPARE(out.value(u"sent"_s), QJsonValue(false));
    QCOMPARE(out.value(u"problems"_s).toArray().at(0).toString(),
             u"No key found for the engine profile %1 (openai needs one): store a key with the "
             u"profile, or give one "
             u"in an environment variable (engines test %1 --key-env VAR)."_s.arg(keyless));
    QCOMPARE(runCli({ u"engines"_s, u"remove"_s, keyless }, env).exitCode, 0);

    run = runCliAsync({ u"engines"_s, u"test"_s, u"tst-no-such-engine"_s }, env);
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(QString::fromUtf8(run.err),
             u"callscope-cli: no engine profile named 'tst-no-such-engine'\n"_s);
    QCOMPARE(server.requestCount(), 3);

    for (const QString &n : { local, claude })
        QCOMPARE(runCli({ u"engines"_s, u"remove"_s, n }, env).exitCode, 0);
}

void TestSecrets::runWithProfileKeepsKeyOut()
{
    // A spec that names a profile and no type: the run takes type, base URL and model from the
    // profile and the key from the keychain; afterwards neither the settings file, nor the
    // database, nor an export of the call holds the key bytes.
    using Callscope::Test::FakeProvider;
    using Callscope::Test::FakeReply;
    FakeProvider server;
    QVERIFY2(server.listen(), qPrintable(server.errorString()));
    const QString configHome = m_dir.filePath(u"run-config"_s);
    QProcessEnvironment env = cliEnvironment(configHome);
    env.insert(u"XDG_DATA_HOME"_s, m_dir.filePath(u"run-data"_s));
    const QString profile = uniqueName(u"tst-run"_s);
    const QByteArray key = "sk-run-profile-key-b7e4a19d";
    env.insert(QString::fromLatin1(kKeyVariable), QString::fromLatin1(key));
    CliRun run = runCli({ u"engines"_s, u"add"_s, profile, u"--type"_s, u"openai-compatible"_s,
                          u"--model"_s, u"qwen"_s, u"--base-url"_s, server.baseUrl().toString(),
                          u"--key-env"_s, QString::fromLatin1(kKeyVariable) },
                        env);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    env.remove(QString::fromLatin1(kKeyVariable));

    const QJsonObject spec {
        { u"kind"_s, u"secrets-check"_s },
        { u"system_prompt"_s, u"Answer with one word."_s },
        { u"output_parser"_s, u"text"_s },
        { u"engine"_s, QJsonObject { { u"profile"_s, profile }, { u"stream"_s, false } } }
    };
    const QString specPath = m_dir.filePath(u"profile-run.spec.json"_s);
    {
        QFile file(specPath);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(spec).toJson());
    }
    const QString db = m_dir.filePath(u"run.sqlite"_s);
    server.enqueue(
        FakeReply::jsonFile(200, Callscope::Test::testDataPath(u"secrets/openai_ok.json"_s)));
    run = runCliAsync({ u"run"_s, specPath, u"--input"_s, u"hello"_s, u"--db"_s, db }, env);
    QVERIFY2(run.finished && run.exitCode == 0, QByteArray(run.err + run.out).constData());
    QCOMPARE(server.requestCount(), 1);
    QCOMPARE(server.requests().at(0).path, "/v1/chat/completions"_ba);
    QCOMPARE(server.requests().at(0).header("authorization"), "Bearer "_ba + key);
    QCOMPARE(server.requests().at(0).jsonObject().value(u"model"_s).toString(), u"qwen"_s);
    const QJsonObject result = QJsonDocument::fromJson(run.out).object();
    QCOMPARE(result.value(u"status"_s).toString(), u"completed"_s);
    const QString callId = result.value(u"call_id"_s).toVariant().toString();
    QVERIFY(!callId.isEmpty());

    const QString exportPath = m_dir.filePath(u"run-export.json"_s);
    run = runCliAsync({ u"export"_s, callId, u"--out"_s, exportPath, u"--db"_s, db }, env);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QByteArray exported = Callscope::Test::readFile(exportPath);
    QVERIFY2(exported.contains("qwen"),
             qPrintable(Callscope::Test::lastError())); // the export is real
    QVERIFY(!exported.contains(key));

    QStringList checked;
    const QStringList candidates = { configHome + u"/Callscope/callscope.conf"_s, db,
                                     db + u"-wal"_s, db + u"-journal"_s };
    for (const QString &path : candidates) {
        if (!QFile::exists(path))
            continue;
        const QByteArray bytes = Callscope::Test::readFile(path);
        QVERIFY2(!bytes.contains(key), qPrintable(u"the key is in "_s + path));
        QVERIFY2(!bytes.contains(key.toBase64()), qPrintable(u"the key (base64) is in "_s + path));
        checked << QFileInfo(path).fileName();
    }
    QVERIFY2(checked.contains(u"callscope.conf"_s) && checked.contains(u"run.sqlite"_s),
             qPrintable(checked.join(u", "_s)));
    QVERIFY(Callscope::Test::readFile(db).size() + Callscope::Test::readFile(db + u"-wal"_s).size()
            > 0);
    QVERIFY(!run.out.contains(key) && !run.err.contains(key));

    QCOMPARE(runCli({ u"engines"_s, u"remove"_s, profile }, env).exitCode, 0);
}

void TestSecrets::noSecretService()
{
    const QString configHome = m_dir.filePath(u"nobus-config"_s);
    QProcessEnvironment env = cliEnvironment(configHome);
    env.insert(u"DBUS_SESSION_BUS_ADDRESS"_s,
               u"unix:path="_s + m_dir.filePath(u"no-such-bus-socket"_s));
    env.insert(QString::fromLatin1(kKeyVariable), u"sk-run-only-env"_s);

    CliRun run = runCli({ u"engines"_s, u"add"_s, u"nobus"_s, u"--type"_s, u"openai"_s,
                          u"--model"_s, u"m"_s, u"--key-env"_s, QString::fromLatin1(kKeyVariable) },
                        env);
    QVERIFY(run.finished);
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(QString::fromUtf8(run.err),
             u"callscope-cli: cannot store the key of engine 'nobus'; the engine was not added. "_s
                 + kNoServiceDeadSocket + u'\n');
    QVERIFY(run.out.isEmpty());

    // A profile without a key still works; list says the keychain could not be asked.
    run = runCli(
        { u"engines"_s, u"add"_s, u"nobus"_s, u"--type"_s, u"openai"_s, u"--model"_s, u"m"_s },
        env);
    QCOMPARE(run.exitCode, 0);
    run = runCli({ u"engines"_s, u"list"_s }, env);
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(run.out).array(),
             (QJsonArray { QJsonObject { { u"name"_s, u"nobus"_s },
                                         { u"type"_s, u"openai"_s },
                                         { u"model"_s, u"m"_s },
                                         { u"has_key"_s, QJsonValue(QJsonValue::Null) },
                                         { u"keychain_note"_s, kNoServiceDeadSocket } } }));
    QCOMPARE(QString::fromUtf8(run.err),
             u"callscope-cli: cannot tell which engines have a key: "_s + kNoServiceDeadSocket
                 + u'\n');
    run = runCli({ u"engines"_s, u"remove"_s, u"nobus"_s }, env);
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(
        QString::fromUtf8(run.err),
        u"callscope-cli: the engine 'nobus' was removed, but its key could not be deleted from the "
        u"keychain: "_s
            + kNoServiceDeadSocket + u'\n');

    // In-process, in a helper with the dead bus: the store's errors and a run-only key.
    const QJsonObject helper = runHelperProcess(
        { QCoreApplication::applicationFilePath(), u"--helper"_s, u"nobus"_s }, env);
    QVERIFY2(!helper.contains(u"error"_s), qPrintable(helper.value(u"error"_s).toString()));
    const QJsonObject noService { { u"status"_s, u"no_service"_s },
                                  { u"message"_s, kNoServiceDeadSocket },
                                  { u"key"_s, QJsonValue(QJsonValue::Null) } };
    QCOMPARE(helper.value(u"read"_s).toObject(), noService);
    QCOMPARE(helper.value(u"write"_s).toObject(), noService);
    QCOMPARE(helper.value(u"delete"_s).toObject(), noService);
    QCOMPARE(helper.value(u"resolve_plain"_s).toObject(),
             (QJsonObject { { u"ok"_s, false },
                            { u"source"_s, u"none"_s },
                            { u"key"_s, QString() },
                            { u"error"_s, kNoServiceDeadSocket } }));
    QCOMPARE(helper.value(u"resolve_session"_s).toObject(),
             (QJsonObject { { u"ok"_s, true },
                            { u"source"_s, u"session"_s },
                            { u"key"_s, u"sk-session-0002"_s },
                            { u"error"_s, QString() } }));
    QCOMPARE(helper.value(u"resolve_env"_s).toObject(),
             (QJsonObject { { u"ok"_s, true },
                            { u"source"_s, u"environment"_s },
                            { u"key"_s, u"sk-run-only-env"_s },
                            { u"error"_s, QString() } }));
}

void TestSecrets::lockedKeyring()
{
    // A private bus and keyring, locked by the helper: the session's shared keyring (other
    // test executables use it in parallel) is never locked.
    const QString dbusRunSession = QStandardPaths::findExecutable(u"dbus-run-session"_s);
    const QString keyringDaemon = QStandardPaths::findExecutable(u"gnome-keyring-daemon"_s);
    QVERIFY2(!dbusRunSession.isEmpty(),
             "dbus-run-session is not installed (Debian package dbus-bin)");
    QVERIFY2(!keyringDaemon.isEmpty(),
             "gnome-keyring-daemon is not installed (Debian package gnome-keyring)");
    const QString script = Callscope::Test::testDataPath(u"secrets/private-keyring.sh"_s);
    QVERIFY2(QFile::exists(script), qPrintable(u"missing "_s + script));

    QDir root(m_dir.path());
    QVERIFY(root.mkpath(u"locked/home"_s) && root.mkpath(u"locked/runtime"_s)
            && root.mkpath(u"locked/config"_s));
    QFile::setPermissions(root.filePath(u"locked/runtime"_s),
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    QProcessEnvironment env = cliEnvironment(root.filePath(u"locked/config"_s));
    env.insert(u"HOME"_s, root.filePath(u"locked/home"_s));
    env.insert(u"XDG_RUNTIME_DIR"_s, root.filePath(u"locked/runtime"_s));
    env.insert(u"XDG_DATA_HOME"_s, root.filePath(u"locked/home/.local/share"_s));
    env.insert(u"CALLSCOPE_KEYRING_PASSWORD"_s, u"tst-locked-pass"_s);
    env.insert(QString::fromLatin1(kKeyVariable), u"sk-locked-env-11"_s);
    env.remove(u"DBUS_SESSION_BUS_ADDRESS"_s);

    const QJsonObject helper =
        runHelperProcess({ dbusRunSession, u"--"_s, u"sh"_s, script,
                           QCoreApplication::applicationFilePath(), u"--helper"_s, u"locked"_s },
                         env);
    QVERIFY2(!helper.contains(u"error"_s), qPrintable(helper.value(u"error"_s).toString()));

    // Before the lock: the CLI stored the key, and it reads back.
    QCOMPARE(helper.value(u"cli_add_before_lock"_s)[u"exit"_s], QJsonValue(0));
    QCOMPARE(helper.value(u"read_before_lock"_s).toObject(),
             (QJsonObject { { u"status"_s, u"ok"_s },
                            { u"message"_s, QString() },
                            { u"key"_s, u"sk-locked-env-11"_s } }));
    QCOMPARE(helper.value(u"lock_error"_s).toString(), QString());

    // Locked: reading, writing and deleting all say so (libsecret alone would answer "not
    // found" to the read and "done" to the delete).
    const QJsonObject locked { { u"status"_s, u"locked"_s },
                               { u"message"_s, kLocked },
                               { u"key"_s, QJsonValue(QJsonValue::Null) } };
    QCOMPARE(helper.value(u"read"_s).toObject(), locked);
    QCOMPARE(helper.value(u"write"_s).toObject(), locked);
    QCOMPARE(helper.value(u"delete"_s).toObject(), locked);
    QCOMPARE(helper.value(u"resolve_plain"_s).toObject(),
             (QJsonObject { { u"ok"_s, false },
                            { u"source"_s, u"none"_s },
                            { u"key"_s, QString() },
                            { u"error"_s, kLocked } }));
    QCOMPARE(helper.value(u"resolve_session"_s).toObject(),
             (QJsonObject { { u"ok"_s, true },
                            { u"source"_s, u"session"_s },
                            { u"key"_s, u"sk-session-0002"_s },
                            { u"error"_s, QString() } }));
    QCOMPARE(helper.value(u"resolve_env"_s).toObject(),
             (QJsonObject { { u"ok"_s, true },
                            { u"source"_s, u"environment"_s },
                            { u"key"_s, u"sk-locked-env-11"_s },
                            { u"error"_s, QString() } }));

    const QJsonObject add = helper.value(u"cli_add_locked"_s).toObject();
    QCOMPARE(add.value(u"exit"_s), QJsonValue(1));
    QCOMPARE(
        add.value(u"err"_s).toString(),
        u"callscope-cli: cannot store the key of engine 'tst-locked-2'; the engine was not added. "_s
            + kLocked + u'\n');
    const QJsonObject list = helper.value(u"cli_list_locked"_s).toObject();
    QCOMPARE(list.value(u"exit"_s), QJsonValue(0));
    QCOMPARE(list.value(u"out"_s).toArray(),
             (QJsonArray { QJsonObject { { u"name"_s, u"tst-locked"_s },
                                         { u"type"_s, u"openai"_s },
                                         { u"model"_s, u"m-1"_s },
                                         { u"has_key"_s, QJsonValue(QJsonValue::Null) },
                                         { u"keychain_note"_s, kLocked } } }));
    const QJsonObject remove = helper.value(u"cli_remove_locked"_s).toObject();
    QCOMPARE(remove.value(u"exit"_s), QJsonValue(1));
    QCOMPARE(remove.value(u"err"_s).toString(),
             u"callscope-cli: the engine 'tst-locked' was removed, but its key could not be "
             u"deleted from the "
             u"keychain: "_s
                 + kLocked + u'\n');
    QCOMPARE(helper.value(u"cli_list_after_remove"_s)[u"out"_s].toArray(), QJsonArray());
}

int main(int argc, char *argv[])
{
    if (argc >= 3 && qstrcmp(argv[1], "--helper") == 0) {
        QCoreApplication app(argc, argv);
        QCoreApplication::setOrganizationName(u"Callscope"_s);
        QCoreApplication::setApplicationName(u"callscope"_s);
        return runHelper(QString::fromLocal8Bit(argv[2]));
    }
    QCoreApplication app(argc, argv);
    TestSecrets test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_secrets.moc"
