// `callscope-cli lint` end to end: the real executable in a QProcess.

#include "core/model/specio.h"
#include "core/schema/lint.h"
#include "tests/support/testsupport.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace Callscope;

namespace {

struct CliResult
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

CliResult runCli(const QStringList &arguments)
{
    QProcess process;
    process.start(Test::cliPath(), arguments);
    CliResult result;
    if (!process.waitForFinished(30000) || process.exitStatus() != QProcess::NormalExit)
        return result;
    result.exitCode = process.exitCode();
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

QString lintFile(const QString &name)
{
    return Test::testDataPath(u"spec/lint/"_s + name + u".spec.json"_s);
}

} // namespace

class TestCliLint final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void printsFindings();
    void engineOption();
    void cleanSpec();
    void invalidSpec();
    void unreadableSpec();
    void badArguments_data();
    void badArguments();
    void helpListsLint();
    void nativeSchemaChanges();
    void invalidSchemas_data();
    void invalidSchemas();
};

void TestCliLint::initTestCase()
{
    QVERIFY2(QFileInfo(Test::cliPath()).isExecutable(),
             qPrintable(u"callscope-cli not built at "_s + Test::cliPath()));
}

void TestCliLint::printsFindings()
{
    const QString path = lintFile(u"names"_s);
    const CliResult r = runCli({ u"lint"_s, path });
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.err.isEmpty(), r.err.constData());
    QJsonParseError parseError;
    const QJsonObject out = QJsonDocument::fromJson(r.out, &parseError).object();
    QCOMPARE(parseError.error, QJsonParseError::NoError);
    QCOMPARE(out.value("spec"_L1).toString(), path);
    QCOMPARE(out.value("engine"_L1).toString(), u"openai"_s);

    // The same findings as the library gives, field by field.
    const auto spec = loadSpecFile(path).spec;
    QVERIFY(spec);
    const QList<LintFinding> expected = lintSpec(*spec, EngineType::OpenAI);
    const QJsonArray findings = out.value("findings"_L1).toArray();
    QCOMPARE(findings.size(), expected.size());
    QCOMPARE(findings.size(), 6);
    for (qsizetype i = 0; i < findings.size(); ++i) {
        const QJsonObject f = findings.at(i).toObject();
        QCOMPARE(f.keys(), (QStringList { u"message"_s, u"pointer"_s, u"rule"_s, u"severity"_s }));
        QCOMPARE(f.value("severity"_L1).toString(), lintSeverityName(expected.at(i).severity));
        QCOMPARE(f.value("pointer"_L1).toString(), expected.at(i).pointer);
        QCOMPARE(f.value("message"_L1).toString(), expected.at(i).message);
        QCOMPARE(f.value("rule"_L1).toString(), expected.at(i).rule);
    }
    QCOMPARE(findings.at(0).toObject().value("pointer"_L1).toString(), u"/tools/0/name"_s);
    QCOMPARE(findings.at(0).toObject().value("rule"_L1).toString(), u"tool-name-snake-case"_s);
    QCOMPARE(out.value("summary"_L1).toObject(),
             (QJsonObject { { "error"_L1, 0 }, { "warning"_L1, 5 }, { "info"_L1, 1 } }));
}

void TestCliLint::engineOption()
{
    const CliResult r = runCli({ u"lint"_s, lintFile(u"names"_s), u"--engine"_s, u"gemini"_s });
    QCOMPARE(r.exitCode, 0);
    const QJsonObject out = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(out.value("engine"_L1).toString(), u"gemini"_s);
    QStringList providerPointers;
    for (const QJsonValue &v : out.value("findings"_L1).toArray()) {
        if (v.toObject().value("rule"_L1) == u"tool-name-provider"_s)
            providerPointers.append(v.toObject().value("pointer"_L1).toString());
    }
    QCOMPARE(providerPointers, QStringList { u"/tools/4/name"_s });

    const CliResult eq =
        runCli({ u"lint"_s, u"--engine=anthropic"_s, lintFile(u"tool-count-70"_s) });
    QCOMPARE(eq.exitCode, 0);
    const QJsonArray findings =
        QJsonDocument::fromJson(eq.out).object().value("findings"_L1).toArray();
    QCOMPARE(findings.size(), 1);
    QCOMPARE(findings.at(0).toObject().value("rule"_L1).toString(), u"tool-count"_s);
}

void TestCliLint::cleanSpec()
{
    const CliResult r = runCli({ u"lint"_s, lintFile(u"clean"_s) });
    QCOMPARE(r.exitCode, 0);
    const QJsonObject out = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(out.value("findings"_L1).toArray(), QJsonArray());
    QCOMPARE(out.value("summary"_L1).toObject(),
             (QJsonObject { { "error"_L1, 0 }, { "warning"_L1, 0 }, { "info"_L1, 0 } }));
}

void TestCliLint::invalidSpec()
{
    const QString path = Test::testDataPath(u"spec/broken/wrong-types.spec.json"_s);
    const CliResult r = runCli({ u"lint"_s, path });
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.out.isEmpty(), r.out.constData());
    const QString err = QString::fromUtf8(r.err);
    QVERIFY2(err.startsWith(u"callscope-cli: "_s + path + u" is not a valid spec (11 errors):\n"_s),
             qPrintable(err));
    // Every load error on its own line, pointer first.
    const SpecLoadResult loaded = loadSpecFile(path);
    QCOMPARE(loaded.errors.size(), 11);
    for (const SpecError &e : loaded.errors)
        QVERIFY2(err.contains(u"\n  "_s + e.pointer + u": "_s + e.message + u'\n'),
                 qPrintable(e.toString()));

    const QString badJson = Test::testDataPath(u"spec/broken/bad-json.spec.json"_s);
    const CliResult j = runCli({ u"lint"_s, badJson });
    QCOMPARE(j.exitCode, 2);
    QCOMPARE(
        QString::fromUtf8(j.err),
        u"callscope-cli: "_s + badJson
            + u" is not a valid spec (1 error):\n  (document): line 3, column 16: object is missing after a comma\n"_s);
}

void TestCliLint::unreadableSpec()
{
    const QString path = Test::testDataPath(u"spec/nope.spec.json"_s);
    const CliResult r = runCli({ u"lint"_s, path });
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.out.isEmpty());
    QCOMPARE(QString::fromUtf8(r.err),
             u"callscope-cli: cannot read "_s + path + u": No such file or directory\n"_s);
}

void TestCliLint::badArguments_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("error");
    QTest::newRow("no file") << QStringList {
        u"lint"_s
    } << u"lint needs a spec file: callscope-cli lint SPEC.json [--engine TYPE]"_s;
    QTest::newRow("unknown engine")
        << QStringList { u"lint"_s, u"x.json"_s, u"--engine"_s, u"bard"_s }
        << u"unknown engine type \"bard\" (expected one of openai, "
           "openai-responses, anthropic, gemini, openai-compatible, replay)"_s;
    QTest::newRow("engine without value") << QStringList { u"lint"_s, u"x.json"_s, u"--engine"_s }
                                          << u"--engine needs an engine type (openai, "
                                             "openai-responses, anthropic, gemini, "
                                             "openai-compatible, replay)"_s;
    QTest::newRow("unknown option") << QStringList { u"lint"_s, u"--fix"_s, u"x.json"_s }
                                    << u"lint: unknown option --fix (see lint --help)"_s;
    QTest::newRow("two files") << QStringList { u"lint"_s, u"a.json"_s, u"b.json"_s }
                               << u"lint takes one spec file, got a.json and b.json"_s;
}

void TestCliLint::badArguments()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, error);
    const CliResult r = runCli(arguments);
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.out.isEmpty());
    QCOMPARE(QString::fromUtf8(r.err), u"callscope-cli: "_s + error + u'\n');
}

void TestCliLint::helpListsLint()
{
    const CliResult r = runCli({ u"--help"_s });
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains("  lint SPEC.json [--engine TYPE]"), r.out.constData());
    const CliResult h = runCli({ u"lint"_s, u"--help"_s });
    QCOMPARE(h.exitCode, 0);
    QVERIFY(h.out.startsWith("Usage: callscope-cli lint SPEC.json [--engine TYPE]\n"));
}

void TestCliLint::nativeSchemaChanges()
{
    // lint --engine lists every change the native transform makes for that engine.
    const CliResult r =
        runCli({ u"lint"_s, lintFile(u"native"_s), u"--engine"_s, u"openai-responses"_s });
    QCOMPARE(r.exitCode, 0);
    const QJsonObject out = QJsonDocument::fromJson(r.out).object();
    QStringList changes;
    for (const QJsonValue &v : out.value("findings"_L1).toArray()) {
        const QJsonObject f = v.toObject();
        if (f.value("rule"_L1) == u"native-schema-changed"_s)
            changes.append(f.value("severity"_L1).toString() + u' '
                           + f.value("pointer"_L1).toString());
    }
    QCOMPARE(changes,
             (QStringList { u"info /response_schema/additionalProperties"_s,
                            u"warning /response_schema/properties/title/minLength"_s,
                            u"info /response_schema/properties/note"_s }));
}

int runCliLintTests(int argc, char **argv)
{
    TestCliLint test;
    return QTest::qExec(&test, argc, argv);
}

void TestCliLint::invalidSchemas_data()
{
    QTest::addColumn<QString>("schema");
    QTest::addColumn<QString>("pointer");
    QTest::addColumn<QString>("keyword");
    QTest::newRow("type")
        << uR"({"type": "objekt", "properties": {"answer": {"type": "string"}}})"_s
        << u"/response_schema/type"_s << u"type"_s;
    QTest::newRow("minLength")
        << uR"({"type": "object", "properties": {"answer": {"type": "string", "minLength": "three"}}, "required": ["answer"]})"_s
        << u"/response_schema/properties/answer/minLength"_s << u"minLength"_s;
    QTest::newRow("required")
        << uR"({"type": "object", "properties": {"answer": {"type": "string"}}, "required": "answer"})"_s
        << u"/response_schema/required"_s << u"required"_s;
    QTest::newRow("tool parameters")
        << uR"({"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]})"_s
        << u"/tools/0/input_schema/properties/id/type"_s << u"type"_s;
}

// A schema that is not JSON Schema: lint fails, naming the spot and the keyword, and lists it
// as an error first; advice about the broken schema is left out.
void TestCliLint::invalidSchemas()
{
    QFETCH(QString, schema);
    QFETCH(QString, pointer);
    QFETCH(QString, keyword);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QJsonObject spec {
        { u"kind"_s, u"answer"_s },
        { u"engine"_s, QJsonObject { { u"type"_s, u"openai"_s }, { u"model"_s, u"gpt-test"_s } } },
        { u"response_schema"_s, QJsonDocument::fromJson(schema.toUtf8()).object() }
    };
    if (pointer.startsWith(u"/tools"_s)) {
        spec.insert(
            u"tools"_s,
            QJsonArray { QJsonObject {
                { u"name"_s, u"get_ticket"_s },
                { u"description"_s, u"Loads a ticket by its number."_s },
                { u"mock"_s, u"ok"_s },
                { u"input_schema"_s,
                  QJsonObject {
                      { u"type"_s, u"object"_s },
                      { u"properties"_s,
                        QJsonObject {
                            { u"id"_s, QJsonObject { { u"type"_s, u"number!"_s } } } } } } } } });
    }
    const QString path = dir.filePath(u"bad.spec.json"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(spec).toJson());
    file.close();

    const CliResult r = runCli({ u"lint"_s, path });
    QCOMPARE(r.exitCode, 2);
    const QString err = QString::fromUtf8(r.err);
    QVERIFY2(err.contains(pointer) && err.contains(u"\"%1\""_s.arg(keyword)), qPrintable(err));
    const QJsonObject out = QJsonDocument::fromJson(r.out).object();
    const QJsonArray findings = out.value("findings"_L1).toArray();
    QVERIFY(!findings.isEmpty());
    const QJsonObject first = findings.first().toObject();
    QCOMPARE(first.value("severity"_L1).toString(), u"error"_s);
    QCOMPARE(first.value("pointer"_L1).toString(), pointer);
    QCOMPARE(first.value("keyword"_L1).toString(), keyword);
    QCOMPARE(out.value("summary"_L1).toObject().value("error"_L1).toInt(), 1);
    // No advice about what a broken "required" does not list.
    for (const QJsonValue &f : findings) {
        const QJsonObject o = f.toObject();
        if (o.value("severity"_L1).toString() != u"error")
            QVERIFY2(
                !o.value("pointer"_L1)
                     .toString()
                     .startsWith(pointer.section(u'/', 0, pointer.startsWith(u"/tools"_s) ? 3 : 1)),
                qPrintable(o.value("pointer"_L1).toString() + u" "_s
                           + o.value("message"_L1).toString()));
    }
}

#include "tst_clilint.moc"
