// JSON Schema: the official test suite of each dialect (draft 4 to 2020-12), format assertion,
// messages, meta-schemas, hostile input, and the `callscope-cli validate` command end to end.

#include "core/schema/jsonschema.h"
#include "core/schema/jsontape.h"
#include "core/schema/schemadialect.h"
#include "core/schema/schemaformats.h"
#include "core/schema/streamcheck.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <thread>
#include <tuple>

using namespace Qt::StringLiterals;
using namespace Callscope;

namespace {

SchemaRegistry suiteRegistry()
{
    SchemaRegistry registry;
    registry.addDirectory(QUrl(u"http://localhost:1234/"_s),
                          Test::sharedDataPath(u"json-schema-test-suite/remotes"_s));
    return registry;
}

struct SuiteCounts
{
    int passed = 0;
    int failed = 0;
    QStringList failures;
};

// Runs every case of `files`; both the verdict-only and the full-error paths must agree.
SuiteCounts runSuiteFiles(const QStringList &files, const SchemaOptions &options)
{
    SuiteCounts counts;
    const SchemaCompiler compiler(suiteRegistry(), options);
    for (const QString &path : files) {
        const QString file = QFileInfo(path).fileName();
        const QJsonArray groups = Test::readJson(path).toArray();
        if (groups.isEmpty()) {
            ++counts.failed;
            counts.failures.append(file + u": cannot read"_s);
            continue;
        }
        for (const QJsonValue &groupValue : groups) {
            const QJsonObject group = groupValue.toObject();
            const QString groupName = group.value("description"_L1).toString();
            const CompiledSchema schema = compiler.compile(group.value("schema"_L1));
            for (const QJsonValue &testValue : group.value("tests"_L1).toArray()) {
                const QJsonObject test = testValue.toObject();
                const QString testName = test.value("description"_L1).toString();
                const bool expected = test.value("valid"_L1).toBool();
                const QJsonValue data = test.value("data"_L1);
                const SchemaValidationResult result = schema.validate(data);
                const bool quick = schema.accepts(data);
                // The same instance parsed from its text by the tape parser.
                JsonTape tape;
                const qsizetype wrapper =
                    tape.append(QJsonDocument(QJsonArray { data }).toJson(QJsonDocument::Compact));
                const SchemaValidationResult fromText = wrapper < 0
                    ? SchemaValidationResult { false, {} }
                    : schema.validate(tape, wrapper + 1);
                QString problem;
                if (!schema.isValid())
                    problem = u"does not compile: "_s + schema.errorString();
                else if (result.valid != expected)
                    problem =
                        u"expected %1, got %2 %3"_s.arg(expected ? u"valid"_s : u"invalid"_s,
                                                        result.valid ? u"valid"_s : u"invalid"_s,
                                                        formatErrorsForModel(result.errors, 3));
                else if (quick != expected)
                    problem = u"accepts() disagrees with validate()"_s;
                else if (fromText.valid != result.valid || fromText.errors != result.errors)
                    problem = u"the parsed tape disagrees with the QJsonValue"_s;
                else if (!result.valid && result.errors.isEmpty())
                    problem = u"invalid without any error"_s;
                if (problem.isEmpty()) {
                    ++counts.passed;
                } else {
                    ++counts.failed;
                    counts.failures.append(
                        u"%1 | %2 | %3: %4"_s.arg(file, groupName, testName, problem));
                }
            }
        }
    }
    return counts;
}

QJsonValue parse(const char *json)
{
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray(json));
    if (doc.isObject())
        return doc.object();
    if (doc.isArray())
        return doc.array();
    // scalars
    const QJsonDocument wrapped = QJsonDocument::fromJson("["_ba + QByteArray(json) + "]"_ba);
    return wrapped.array().at(0);
}

CompiledSchema compileText(const char *json, const SchemaOptions &options = {})
{
    return SchemaCompiler(SchemaRegistry(), options).compile(parse(json));
}

QString describe(const QList<SchemaError> &errors)
{
    QStringList lines;
    for (const SchemaError &error : errors)
        lines.append(error.instancePath + u" | "_s + error.keywordLocation + u" | "_s
                     + error.message);
    return lines.join(u'\n');
}

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
    if (!process.waitForFinished(30000))
        return result;
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

} // namespace

class TestSchema final : public QObject
{
    Q_OBJECT

private slots:
    void officialSuite_data();
    void officialSuite();
    void formatAssertionSuite_data();
    void formatAssertionSuite();
    void optionalSuite_data();
    void optionalSuite();
    void dialectKeywords_data();
    void dialectKeywords();
    void dialectMetaSchemas();
    void upgradeKeepsVerdicts_data();
    void upgradeKeepsVerdicts();
    void olderDraftFormsWithoutSchema();
    void formatAnnotationByDefault();
    void formatCheckers();
    void errorMessages_data();
    void errorMessages();
    void everyViolationReported();
    void anyOfSummary();
    void taggedUnionPicksTheTaggedBranch();
    void oneOfTooMany();
    void keywordLocationThroughRef();
    void formatErrorsForModelText();
    void errorsToJson();
    void metaSchemaAcceptsGoodSchemas();
    void metaSchemaFlagsBrokenSchemas();
    void compileErrors();
    void deepInstanceNesting();
    void deepSchemaNesting();
    void refCycles();
    void hostileSchemasBounded();
    void unusableSchemas();
    void tapeParser_data();
    void tapeParser();
    void tapeRoundTrip();
    void tapeDeepNesting();
    void tapeRefReadsLikeQt();
    void multipleOfPrecision();
    void simplePatterns_data();
    void simplePatterns();
    void valueTextsMatchQt();
    void benchVerdicts();
    void hugeDocument();
    void registryLoaderAndFolder();
    void concurrentValidation();
    void cliValid();
    void cliInvalid();
    void cliBadFiles();
    void cliScalarDocuments();
    void cliRelativeRefs();
    void cliFormatAssertion();
    void cliDialects();
    void cliUnusableSchema();

    // Checking an answer while it streams.
    void streamCheckSuite_data();
    void streamCheckSuite();
    void streamCheckFindsTheFirstBadField();
    void streamCheckSnapshotAndStates();
    void streamCheckKeepsToWhatSurelyApplies();
};

namespace {

struct SuiteDialect
{
    const char *folder;
    SchemaDialect dialect;
    int minimumRequired; // cases in the folder's required files
    int minimumFormat; // cases in the format files that are asserted
};

constexpr SuiteDialect kSuiteDialects[] = {
    { "draft4", SchemaDialect::Draft4, 600, 200 },
    { "draft6", SchemaDialect::Draft6, 820, 200 },
    { "draft7", SchemaDialect::Draft7, 900, 360 },
    { "draft2019-09", SchemaDialect::Draft201909, 1240, 440 },
    { "draft2020-12", SchemaDialect::Draft202012, 1280, 450 },
};

void addDialectRows()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<int>("dialect");
    QTest::addColumn<int>("minimumRequired");
    QTest::addColumn<int>("minimumFormat");
    for (const SuiteDialect &row : kSuiteDialects)
        QTest::newRow(row.folder) << QString::fromLatin1(row.folder) << int(row.dialect)
                                  << row.minimumRequired << row.minimumFormat;
}

QStringList suiteFiles(const QString &dir)
{
    QStringList files;
    for (const QString &name : QDir(dir).entryList({ u"*.json"_s }, QDir::Files, QDir::Name))
        files.append(QDir(dir).filePath(name));
    return files;
}

} // namespace

void TestSchema::officialSuite_data()
{
    addDialectRows();
}

// Every required case of the dialect's folder; the schemas that name no $schema are read in the
// folder's dialect, as the suite intends.
void TestSchema::officialSuite()
{
    QFETCH(QString, folder);
    QFETCH(int, dialect);
    QFETCH(int, minimumRequired);
    const QString dir = Test::sharedDataPath(u"json-schema-test-suite/tests/"_s + folder);
    QVERIFY2(!dir.isEmpty(), qPrintable(Test::lastError()));
    const QStringList files = suiteFiles(dir);
    QVERIFY(files.size() >= 30);
    SchemaOptions options;
    options.dialect = SchemaDialect(dialect);
    const SuiteCounts counts = runSuiteFiles(files, options);
    for (const QString &failure : counts.failures)
        qWarning().noquote() << "MISS" << failure;
    qInfo().noquote() << u"JSON-Schema-Test-Suite %1: %2 passed, %3 failed (nothing is skipped)"_s
                             .arg(folder)
                             .arg(counts.passed)
                             .arg(counts.failed);
    QVERIFY(counts.passed >= minimumRequired);
    QCOMPARE(counts.failed, 0);
}

void TestSchema::formatAssertionSuite_data()
{
    addDialectRows();
}

// The format files of the formats Callscope checks, with format assertion on.
void TestSchema::formatAssertionSuite()
{
    QFETCH(QString, folder);
    QFETCH(int, dialect);
    QFETCH(int, minimumFormat);
    const QString dir =
        Test::sharedDataPath(u"json-schema-test-suite/tests/"_s + folder + u"/optional/format"_s);
    QVERIFY2(!dir.isEmpty(), qPrintable(Test::lastError()));
    QStringList files;
    for (const char *name : { "date-time", "date", "time", "duration", "email", "hostname", "ipv4",
                              "ipv6", "uri", "uuid" }) {
        const QString path = QDir(dir).filePath(QLatin1StringView(name) + u".json"_s);
        if (QFileInfo::exists(path))
            files.append(path);
    }
    SchemaOptions options;
    options.formatAssertion = true;
    options.dialect = SchemaDialect(dialect);
    const SuiteCounts counts = runSuiteFiles(files, options);
    for (const QString &failure : counts.failures)
        qWarning().noquote() << "MISS" << failure;
    qInfo().noquote() << u"%1 optional/format (assertion): %2 passed, %3 failed"_s.arg(folder)
                             .arg(counts.passed)
                             .arg(counts.failed);
    QVERIFY(counts.passed >= minimumFormat);
    QCOMPARE(counts.failed, 0);
}

void TestSchema::optionalSuite_data()
{
    addDialectRows();
}

// The optional/ files (not format/). The ones about references, identifiers, anchors and the
// dialect of referenced documents (cross-draft: a $ref into another draft's schema is read in
// that draft) must pass; the others (big numbers, ECMA-262 regular expression corners, floats
// like 1.0 that draft 4 calls non-integers, content decoding) are counted so a change shows.
void TestSchema::optionalSuite()
{
    QFETCH(QString, folder);
    QFETCH(int, dialect);
    const QString dir =
        Test::sharedDataPath(u"json-schema-test-suite/tests/"_s + folder + u"/optional"_s);
    QVERIFY2(!dir.isEmpty(), qPrintable(Test::lastError()));
    SchemaOptions options;
    options.dialect = SchemaDialect(dialect);
    const QStringList mustPass { u"anchor.json"_s,
                                 u"cross-draft.json"_s,
                                 u"dependencies-compatibility.json"_s,
                                 u"dynamicRef.json"_s,
                                 u"id.json"_s,
                                 u"no-schema.json"_s,
                                 u"refOfUnknownKeyword.json"_s,
                                 u"unknownKeyword.json"_s };
    QStringList required, reported;
    for (const QString &path : suiteFiles(dir))
        (mustPass.contains(QFileInfo(path).fileName()) ? required : reported).append(path);
    QVERIFY(!required.isEmpty());
    const SuiteCounts counts = runSuiteFiles(required, options);
    for (const QString &failure : counts.failures)
        qWarning().noquote() << "MISS" << failure;
    const SuiteCounts others = runSuiteFiles(reported, options);
    for (const QString &failure : others.failures)
        qInfo().noquote() << "optional miss:" << failure;
    qInfo().noquote()
        << u"%1 optional, references and dialects: %2 passed, %3 failed; the others: %4 passed, %5 failed"_s
               .arg(folder)
               .arg(counts.passed)
               .arg(counts.failed)
               .arg(others.passed)
               .arg(others.failed);
    QCOMPARE(counts.failed, 0);
    QVERIFY(others.passed >= 60);
}

void TestSchema::dialectKeywords_data()
{
    QTest::addColumn<int>("dialect"); // for a schema without $schema
    QTest::addColumn<QString>("schema");
    QTest::addColumn<QString>("instance");
    QTest::addColumn<QString>("keywordLocation"); // empty: valid
    QTest::addColumn<QString>("message");
    const int d4 = int(SchemaDialect::Draft4), d6 = int(SchemaDialect::Draft6),
              d7 = int(SchemaDialect::Draft7), d19 = int(SchemaDialect::Draft201909),
              d20 = int(SchemaDialect::Draft202012);

    QTest::newRow("draft4-exclusiveMaximum-true")
        << d4 << u"{\"maximum\":3,\"exclusiveMaximum\":true}"_s << u"3"_s << u"/exclusiveMaximum"_s
        << u"must be less than 3, got 3"_s;
    QTest::newRow("draft4-exclusiveMaximum-false")
        << d4 << u"{\"maximum\":3,\"exclusiveMaximum\":false}"_s << u"3"_s << QString()
        << QString();
    QTest::newRow("draft4-exclusiveMinimum-true-by-$schema")
        << d20
        << u"{\"$schema\":\"http://json-schema.org/draft-04/schema#\",\"minimum\":1,\"exclusiveMinimum\":true}"_s
        << u"1"_s << u"/exclusiveMinimum"_s << u"must be greater than 1, got 1"_s;
    QTest::newRow("draft6-exclusiveMaximum-number")
        << d6 << u"{\"exclusiveMaximum\":3}"_s << u"3"_s << u"/exclusiveMaximum"_s
        << u"must be less than 3, got 3"_s;
    QTest::newRow("draft4-no-const")
        << d4 << u"{\"const\":1}"_s << u"2"_s << QString() << QString();
    QTest::newRow("draft6-const") << d6 << u"{\"const\":1}"_s << u"2"_s << u"/const"_s
                                  << u"value must be 1, got 2"_s;
    QTest::newRow("draft6-no-if") << d6 << u"{\"if\":true,\"then\":false}"_s << u"1"_s << QString()
                                  << QString();
    QTest::newRow("draft7-if") << d7 << u"{\"if\":true,\"then\":false}"_s << u"1"_s << u"/then"_s
                               << u"no value is allowed here"_s;
    QTest::newRow("draft7-tuple-items")
        << d7 << u"{\"items\":[{\"type\":\"string\"},{\"type\":\"integer\"}]}"_s
        << u"[\"a\",\"b\"]"_s << u"/items/1/type"_s << u"expected an integer, got \"b\""_s;
    QTest::newRow("draft7-additionalItems-false")
        << d7 << u"{\"items\":[{\"type\":\"string\"}],\"additionalItems\":false}"_s
        << u"[\"a\",2]"_s << u"/additionalItems"_s << u"has 2 items, at most 1 allowed"_s;
    QTest::newRow("draft7-additionalItems-with-schema-items")
        << d7 << u"{\"items\":{\"type\":\"string\"},\"additionalItems\":false}"_s
        << u"[\"a\",\"b\"]"_s << QString() << QString();
    QTest::newRow("2019-09-tuple-items")
        << d19 << u"{\"items\":[true],\"additionalItems\":{\"type\":\"null\"}}"_s << u"[1,2]"_s
        << u"/additionalItems/type"_s << u"expected null, got 2"_s;
    QTest::newRow("2019-09-no-prefixItems") << d19 << u"{\"prefixItems\":[{\"type\":\"string\"}]}"_s
                                            << u"[1]"_s << QString() << QString();
    QTest::newRow("draft7-dependencies-names")
        << d7 << u"{\"dependencies\":{\"a\":[\"b\"]}}"_s << u"{\"a\":1}"_s << u"/dependencies"_s
        << u"property \"b\" is required when \"a\" is present"_s;
    QTest::newRow("draft7-dependencies-schema")
        << d7 << u"{\"dependencies\":{\"a\":{\"required\":[\"c\"]}}}"_s << u"{\"a\":1}"_s
        << u"/dependencies/a/required"_s << u"missing required property \"c\""_s;
    QTest::newRow("draft7-no-dependentRequired")
        << d7 << u"{\"dependentRequired\":{\"a\":[\"b\"]}}"_s << u"{\"a\":1}"_s << QString()
        << QString();
    QTest::newRow("draft7-ref-siblings-ignored")
        << d7
        << u"{\"definitions\":{\"s\":{\"type\":\"string\"}},\"properties\":{\"x\":{\"$ref\":\"#/definitions/s\",\"maxLength\":1}}}"_s
        << u"{\"x\":\"long\"}"_s << QString() << QString();
    QTest::newRow("2019-09-ref-siblings-apply")
        << d19
        << u"{\"$defs\":{\"s\":{\"type\":\"string\"}},\"properties\":{\"x\":{\"$ref\":\"#/$defs/s\",\"maxLength\":1}}}"_s
        << u"{\"x\":\"long\"}"_s << u"/properties/x/maxLength"_s
        << u"is 4 characters long, at most 1 allowed"_s;
    QTest::newRow("draft4-id-anchor")
        << d4
        << u"{\"allOf\":[{\"$ref\":\"#num\"}],\"definitions\":{\"n\":{\"id\":\"#num\",\"type\":\"number\"}}}"_s
        << u"\"x\""_s << u"/allOf/0/$ref/type"_s << u"expected a number, got \"x\""_s;
    QTest::newRow("draft6-id-anchor")
        << d6
        << u"{\"allOf\":[{\"$ref\":\"#num\"}],\"definitions\":{\"n\":{\"$id\":\"#num\",\"type\":\"number\"}}}"_s
        << u"\"x\""_s << u"/allOf/0/$ref/type"_s << u"expected a number, got \"x\""_s;
    QTest::newRow("2020-12-definitions-by-pointer")
        << d20 << u"{\"$ref\":\"#/definitions/n\",\"definitions\":{\"n\":{\"type\":\"number\"}}}"_s
        << u"\"x\""_s << u"/$ref/type"_s << u"expected a number, got \"x\""_s;
    QTest::newRow("2019-09-recursiveRef")
        << d19
        << u"{\"$id\":\"https://example.com/tree\",\"$recursiveAnchor\":true,\"type\":\"object\",\"properties\":{\"kids\":{\"type\":\"array\",\"items\":{\"$recursiveRef\":\"#\"}}}}"_s
        << u"{\"kids\":[{\"kids\":[7]}]}"_s
        << u"/properties/kids/items/$recursiveRef/properties/kids/items/$recursiveRef/type"_s
        << u"expected an object, got 7"_s;
    QTest::newRow("draft4-ref-to-meta-schema")
        << d4 << u"{\"$ref\":\"http://json-schema.org/draft-04/schema#\"}"_s
        << u"{\"minLength\":-1}"_s << u"/$ref/properties/minLength/$ref/allOf/0/$ref/minimum"_s
        << u"must be at least 0, got -1"_s;
    QTest::newRow("draft7-ref-to-meta-schema")
        << d20 << u"{\"$ref\":\"http://json-schema.org/draft-07/schema#\"}"_s
        << u"{\"items\":[{\"type\":\"string\"}],\"additionalItems\":false}"_s << QString()
        << QString();
    QTest::newRow("2019-09-ref-to-meta-schema")
        << d20 << u"{\"$ref\":\"https://json-schema.org/draft/2019-09/schema\"}"_s
        << u"{\"items\":[true],\"dependentRequired\":{\"a\":[]}}"_s << QString() << QString();
}

void TestSchema::dialectKeywords()
{
    QFETCH(int, dialect);
    QFETCH(QString, schema);
    QFETCH(QString, instance);
    QFETCH(QString, keywordLocation);
    QFETCH(QString, message);
    SchemaOptions options;
    options.dialect = SchemaDialect(dialect);
    const CompiledSchema compiled = compileText(schema.toUtf8().constData(), options);
    QVERIFY2(compiled.isValid(), qPrintable(compiled.errorString()));
    const SchemaValidationResult result = compiled.validate(parse(instance.toUtf8().constData()));
    if (keywordLocation.isEmpty()) {
        QVERIFY2(result.valid, qPrintable(describe(result.errors)));
        return;
    }
    QVERIFY(!result.valid);
    QVERIFY2(!result.errors.isEmpty(), "invalid without an error");
    const SchemaError &last = result.errors.last();
    QCOMPARE(last.keywordLocation, keywordLocation);
    QCOMPARE(last.message, message);
}

// Each dialect's own meta-schema checks a schema: what is fine in one is an error in another.
void TestSchema::dialectMetaSchemas()
{
    const QJsonValue tuple =
        parse(R"({"type": "array", "items": [{"type": "string"}], "additionalItems": false})");
    QVERIFY(!validateSchema(tuple).isEmpty()); // 2020-12: "items" must be a schema
    SchemaOptions draft7;
    draft7.dialect = SchemaDialect::Draft7;
    QVERIFY(validateSchema(tuple, {}, {}, draft7).isEmpty());

    const QJsonValue draft4Bound = parse(R"({"$schema": "http://json-schema.org/draft-04/schema#",
                                             "maximum": 3, "exclusiveMaximum": true})");
    QVERIFY2(validateSchema(draft4Bound).isEmpty(),
             qPrintable(describe(validateSchema(draft4Bound))));
    // Draft 4 wants "maximum" beside a boolean bound.
    const QJsonValue draft4Lonely = parse(R"({"$schema": "http://json-schema.org/draft-04/schema#",
                                              "exclusiveMaximum": true})");
    const QList<SchemaError> lonely = validateSchema(draft4Lonely);
    QVERIFY(!lonely.isEmpty());
    QVERIFY2(describe(lonely).contains(u"maximum"_s), qPrintable(describe(lonely)));
    // Read as 2020-12 (override), the boolean bound is refused by the 2020-12 meta-schema.
    SchemaOptions override2020;
    override2020.overrideDialect = true;
    QVERIFY(!validateSchema(draft4Bound, {}, {}, override2020).isEmpty());

    QCOMPARE(schemaDialectOfUri(u"http://json-schema.org/draft-04/schema#"), SchemaDialect::Draft4);
    QCOMPARE(schemaDialectOfUri(u"https://json-schema.org/draft-07/schema"), SchemaDialect::Draft7);
    QCOMPARE(schemaDialectOfUri(u"https://json-schema.org/draft/2019-09/schema"),
             SchemaDialect::Draft201909);
    QVERIFY(!schemaDialectOfUri(u"https://example.com/my-meta").has_value());
    QCOMPARE(schemaDialectFromName(u"draft-06"), SchemaDialect::Draft6);
    QCOMPARE(schemaDialectFromName(u"2019-09"), SchemaDialect::Draft201909);
    QVERIFY(!schemaDialectFromName(u"draft-05").has_value());
    for (const SuiteDialect &row : kSuiteDialects) {
        QCOMPARE(schemaDialectFromName(schemaDialectName(row.dialect)), row.dialect);
        QCOMPARE(schemaDialectOfUri(schemaDialectUri(row.dialect).toString()), row.dialect);
    }
}

void TestSchema::upgradeKeepsVerdicts_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<int>("dialect");
    QTest::addColumn<int>("minimumCases");
    QTest::newRow("draft4") << u"draft4"_s << int(SchemaDialect::Draft4) << 500;
    QTest::newRow("draft6") << u"draft6"_s << int(SchemaDialect::Draft6) << 700;
    QTest::newRow("draft7") << u"draft7"_s << int(SchemaDialect::Draft7) << 800;
    QTest::newRow("draft2019-09") << u"draft2019-09"_s << int(SchemaDialect::Draft201909) << 1000;
}

// The 2020-12 rewrite of every schema of an older draft's suite gives the same verdict on each
// of its instances as the original read in its own draft. Left out, and counted: the groups that
// use 2019-09's $recursiveRef (no 2020-12 rewrite) and the files about remote documents and
// vocabularies (the documents they reach keep their own draft, which the rewrite cannot change).
void TestSchema::upgradeKeepsVerdicts()
{
    QFETCH(QString, folder);
    QFETCH(int, dialect);
    QFETCH(int, minimumCases);
    const QString dir = Test::sharedDataPath(u"json-schema-test-suite/tests/"_s + folder);
    QVERIFY2(!dir.isEmpty(), qPrintable(Test::lastError()));
    SchemaOptions original;
    original.dialect = SchemaDialect(dialect);
    original.overrideDialect = true;
    SchemaOptions rewritten;
    rewritten.overrideDialect = true; // 2020-12
    const SchemaCompiler oldCompiler(suiteRegistry(), original);
    const SchemaCompiler newCompiler(suiteRegistry(), rewritten);
    int cases = 0, groupsLeftOut = 0, changedGroups = 0;
    QStringList mismatches;
    for (const QString &path : suiteFiles(dir)) {
        const QString file = QFileInfo(path).fileName();
        if (file == u"refRemote.json" || file == u"vocabulary.json"
            || file == u"recursiveRef.json") {
            ++groupsLeftOut;
            continue;
        }
        for (const QJsonValue &groupValue : Test::readJson(path).toArray()) {
            const QJsonObject group = groupValue.toObject();
            const SchemaUpgrade upgrade =
                upgradeSchema(group.value("schema"_L1), SchemaDialect(dialect));
            const bool recursive = std::any_of(
                upgrade.changes.cbegin(), upgrade.changes.cend(),
                [](const DialectRewrite &c) { return c.keyword.startsWith(u"$recursive"_s); });
            const bool remote = QJsonDocument(group.value("schema"_L1).toObject())
                                    .toJson()
                                    .contains("localhost:1234");
            if (recursive || remote) {
                ++groupsLeftOut;
                continue;
            }
            if (!upgrade.changes.isEmpty())
                ++changedGroups;
            const CompiledSchema before = oldCompiler.compile(group.value("schema"_L1));
            const CompiledSchema after = newCompiler.compile(upgrade.schema);
            QVERIFY2(before.isValid(), qPrintable(file + u": "_s + before.errorString()));
            const QString groupName = group.value("description"_L1).toString();
            if (!after.isValid()) {
                mismatches.append(u"%1 | %2: the rewrite does not compile: %3"_s.arg(
                    file, groupName, after.errorString()));
                continue;
            }
            for (const QJsonValue &testValue : group.value("tests"_L1).toArray()) {
                const QJsonValue data = testValue.toObject().value("data"_L1);
                ++cases;
                if (before.accepts(data) != after.accepts(data))
                    mismatches.append(u"%1 | %2 | %3"_s.arg(
                        file, groupName, testValue.toObject().value("description"_L1).toString()));
            }
        }
    }
    for (const QString &m : mismatches)
        qWarning().noquote() << "DIFFERS" << m;
    qInfo().noquote()
        << u"%1 rewritten to 2020-12: %2 cases compared, %3 groups rewritten, %4 left out, %5 differ"_s
               .arg(folder)
               .arg(cases)
               .arg(changedGroups)
               .arg(groupsLeftOut)
               .arg(mismatches.size());
    QVERIFY(cases >= minimumCases);
    QVERIFY(changedGroups >= 5);
    QVERIFY(mismatches.isEmpty());
}

void TestSchema::olderDraftFormsWithoutSchema()
{
    const QJsonObject schema = parse(R"({
        "type": "object",
        "properties": {
            "point": {"type": "array", "items": [{"type": "number"}, {"type": "number"}], "additionalItems": false},
            "share": {"type": "number", "maximum": 1, "exclusiveMaximum": true},
            "owner": {"$ref": "#/definitions/person"}
        },
        "dependencies": {"share": ["owner"]},
        "definitions": {"person": {"type": "string"}}
    })")
                                   .toObject();
    const QList<DialectRewrite> forms = olderDraftForms(schema);
    QStringList where;
    for (const DialectRewrite &form : forms)
        where.append(form.pointer + u' ' + form.keyword);
    QCOMPARE(where,
             (QStringList { u"/definitions definitions"_s, u"/dependencies dependencies"_s,
                            u"/properties/point/items items"_s,
                            u"/properties/share/exclusiveMaximum exclusiveMaximum"_s }));
    QVERIFY2(forms.at(2).message.contains(u"\"prefixItems\": [...]"_s),
             qPrintable(forms.at(2).message));
    QVERIFY2(forms.at(3).message.contains(u"\"exclusiveMaximum\": 1"_s),
             qPrintable(forms.at(3).message));

    // The rewrite keeps the draft-04 meaning, and the 2020-12 meta-schema accepts it.
    const SchemaUpgrade upgrade = upgradeSchema(schema, SchemaDialect::Draft4);
    QVERIFY2(validateSchema(upgrade.schema).isEmpty(),
             qPrintable(describe(validateSchema(upgrade.schema))));
    const QJsonObject point =
        upgrade.schema.toObject().value("properties"_L1).toObject().value("point"_L1).toObject();
    QCOMPARE(point.value("items"_L1), QJsonValue(false));
    QCOMPARE(point.value("prefixItems"_L1).toArray().size(), 2);
    QCOMPARE(upgrade.schema.toObject()
                 .value("properties"_L1)
                 .toObject()
                 .value("owner"_L1)
                 .toObject()
                 .value("$ref"_L1),
             QJsonValue(u"#/$defs/person"_s));
    SchemaOptions draft4;
    draft4.dialect = SchemaDialect::Draft4;
    const CompiledSchema before = compileText(QJsonDocument(schema).toJson().constData(), draft4);
    const CompiledSchema after = SchemaCompiler().compile(upgrade.schema);
    for (const char *instance :
         { R"({"point": [1, 2]})", R"({"point": [1, 2, 3]})", R"({"share": 1, "owner": "a"})",
           R"({"share": 0.5, "owner": "a"})", R"({"share": 0.5})", R"({"owner": 7})" }) {
        const QJsonValue value = parse(instance);
        QCOMPARE(after.accepts(value), before.accepts(value));
    }
    QVERIFY(!before.accepts(parse(R"({"share": 1, "owner": "a"})")));

    // A schema that says which draft it is has nothing to flag; nor does a plain 2020-12 one.
    QJsonObject declared = schema;
    declared.insert(u"$schema"_s, u"http://json-schema.org/draft-04/schema#"_s);
    QVERIFY(olderDraftForms(declared).isEmpty());
    QVERIFY(olderDraftForms(parse(R"({"type": "array", "prefixItems": [true], "items": false,
                                     "$defs": {"a": {"const": 1}}})")
                                .toObject())
                .isEmpty());
}

void TestSchema::formatAnnotationByDefault()
{
    const CompiledSchema schema = compileText(R"({"type": "string", "format": "date"})");
    QVERIFY(schema.isValid());
    QVERIFY(schema.validate(QJsonValue(u"yesterday"_s)).valid);
    SchemaOptions options;
    options.formatAssertion = true;
    const CompiledSchema asserting =
        compileText(R"({"type": "string", "format": "date"})", options);
    const SchemaValidationResult result = asserting.validate(QJsonValue(u"yesterday"_s));
    QVERIFY(!result.valid);
    QCOMPARE(result.errors.size(), 1);
    QCOMPARE(result.errors.first().message, u"\"yesterday\" is not a valid date"_s);
    QCOMPARE(result.errors.first().keywordLocation, u"/format"_s);
    QVERIFY(asserting.validate(QJsonValue(u"2024-02-29"_s)).valid);
    QVERIFY(!asserting.validate(QJsonValue(u"2023-02-29"_s)).valid);
}

void TestSchema::formatCheckers()
{
    using namespace SchemaFormats;
    QVERIFY(isDateTime(u"2026-11-30T02:00:00Z"));
    QVERIFY(!isDateTime(u"2026-11-30 02:00:00Z"));
    QVERIFY(isEmail(u"ops42@example.org"));
    QVERIFY(!isEmail(u"not an email"));
    QVERIFY(isUri(u"https://example.org/a?b=c#d"));
    QVERIFY(!isUri(u"example.org/a"));
    QVERIFY(isUuid(u"2eb8aa08-aa98-11ea-b4aa-73b441d16380"));
    QVERIFY(isIpv6(u"::ffff:192.168.0.1"));
    QVERIFY(!isIpv4(u"192.168.0.01"));
    QVERIFY(isDuration(u"P1Y2M3DT4H5M6S"));
    QVERIFY(!isDuration(u"P1Y2W"));
    QVERIFY(isHostname(u"xn--9n2bp8q.xn--9t4b11yi5a"));
    QCOMPARE(fromName(u"uuid"), Format::Uuid);
    QCOMPARE(fromName(u"iri"), Format::Unknown);
}

void TestSchema::errorMessages_data()
{
    QTest::addColumn<QString>("schema");
    QTest::addColumn<QString>("instance");
    QTest::addColumn<QString>("instancePath");
    QTest::addColumn<QString>("keywordLocation");
    QTest::addColumn<QString>("message");

    QTest::newRow("type") << u"{\"properties\":{\"steps\":{\"items\":{\"type\":\"string\"}}}}"_s
                          << u"{\"steps\":[\"a\",\"b\",7]}"_s << u"/steps/2"_s
                          << u"/properties/steps/items/type"_s << u"expected a string, got 7"_s;
    QTest::newRow("type-union") << u"{\"type\":[\"string\",\"null\"]}"_s << u"1.5"_s << QString()
                                << u"/type"_s << u"expected a string or null, got 1.5"_s;
    QTest::newRow("integer") << u"{\"type\":\"integer\"}"_s << u"1.5"_s << QString() << u"/type"_s
                             << u"expected an integer, got 1.5"_s;
    QTest::newRow("object-got") << u"{\"type\":\"array\"}"_s << u"{\"a\":1}"_s << QString()
                                << u"/type"_s << u"expected an array, got an object"_s;
    QTest::newRow("required") << u"{\"required\":[\"title\"]}"_s << u"{}"_s << QString()
                              << u"/required"_s << u"missing required property \"title\""_s;
    QTest::newRow("enum") << u"{\"enum\":[\"a\",\"b\"]}"_s << u"\"c\""_s << QString() << u"/enum"_s
                          << u"value must be one of [\"a\",\"b\"], got \"c\""_s;
    QTest::newRow("const") << u"{\"const\":\"x\"}"_s << u"\"y\""_s << QString() << u"/const"_s
                           << u"value must be \"x\", got \"y\""_s;
    QTest::newRow("maxItems") << u"{\"maxItems\":3}"_s << u"[1,2,3,4,5]"_s << QString()
                              << u"/maxItems"_s << u"has 5 items, at most 3 allowed"_s;
    QTest::newRow("minItems") << u"{\"minItems\":1}"_s << u"[]"_s << QString() << u"/minItems"_s
                              << u"has 0 items, at least 1 required"_s;
    QTest::newRow("maxLength-codepoints")
        << u"{\"maxLength\":2}"_s << u"\"\\ud83d\\ude00\\ud83d\\ude00x\""_s << QString()
        << u"/maxLength"_s << u"is 3 characters long, at most 2 allowed"_s;
    QTest::newRow("minLength") << u"{\"minLength\":1}"_s << u"\"\""_s << QString()
                               << u"/minLength"_s << u"is 0 characters long, at least 1 required"_s;
    QTest::newRow("maximum") << u"{\"maximum\":90}"_s << u"123"_s << QString() << u"/maximum"_s
                             << u"must be at most 90, got 123"_s;
    QTest::newRow("exclusiveMinimum")
        << u"{\"exclusiveMinimum\":0}"_s << u"0"_s << QString() << u"/exclusiveMinimum"_s
        << u"must be greater than 0, got 0"_s;
    QTest::newRow("multipleOf") << u"{\"multipleOf\":2}"_s << u"7"_s << QString()
                                << u"/multipleOf"_s << u"7 is not a multiple of 2"_s;
    QTest::newRow("pattern") << u"{\"pattern\":\"^[a-z]+$\"}"_s << u"\"bad/name!\""_s << QString()
                             << u"/pattern"_s
                             << u"\"bad/name!\" does not match the pattern ^[a-z]+$"_s;
    QTest::newRow("additional")
        << u"{\"properties\":{\"a\":true,\"b\":true},\"additionalProperties\":false}"_s
        << u"{\"a\":1,\"zz\":2}"_s << QString() << u"/additionalProperties"_s
        << u"unexpected property \"zz\" (allowed: \"a\", \"b\")"_s;
    QTest::newRow("unique") << u"{\"uniqueItems\":true}"_s << u"[\"lunar\",1,\"lunar\"]"_s
                            << QString() << u"/uniqueItems"_s
                            << u"items 0 and 2 are equal (\"lunar\"); items must be unique"_s;
    QTest::newRow("unique-1-1.0") << u"{\"uniqueItems\":true}"_s << u"[1,1.0]"_s << QString()
                                  << u"/uniqueItems"_s
                                  << u"items 0 and 1 are equal (1); items must be unique"_s;
    QTest::newRow("dependentRequired")
        << u"{\"dependentRequired\":{\"a\":[\"b\"]}}"_s << u"{\"a\":1}"_s << QString()
        << u"/dependentRequired"_s << u"property \"b\" is required when \"a\" is present"_s;
    QTest::newRow("contains") << u"{\"contains\":{\"type\":\"string\"}}"_s << u"[1,2]"_s
                              << QString() << u"/contains"_s
                              << u"no item matches the \"contains\" schema"_s;
    QTest::newRow("maxContains") << u"{\"contains\":{\"type\":\"string\"},\"maxContains\":1}"_s
                                 << u"[\"a\",\"b\"]"_s << QString() << u"/maxContains"_s
                                 << u"has 2 matching items, at most 1 allowed"_s;
    QTest::newRow("not") << u"{\"not\":{\"type\":\"null\"}}"_s << u"null"_s << QString()
                         << u"/not"_s << u"must not match the schema at /not"_s;
    QTest::newRow("false-schema") << u"{\"properties\":{\"x\":false}}"_s << u"{\"x\":1}"_s
                                  << u"/x"_s << u"/properties/x"_s
                                  << u"property \"x\" is not allowed"_s;
    QTest::newRow("false-item") << u"{\"prefixItems\":[true,false]}"_s << u"[1,2]"_s << u"/1"_s
                                << u"/prefixItems/1"_s << u"no value is allowed here"_s;
    QTest::newRow("items-false") << u"{\"prefixItems\":[true],\"items\":false}"_s << u"[1,2]"_s
                                 << QString() << u"/items"_s << u"has 2 items, at most 1 allowed"_s;
    QTest::newRow("unevaluatedProperties")
        << u"{\"allOf\":[{\"properties\":{\"a\":true}}],\"unevaluatedProperties\":false}"_s
        << u"{\"a\":1,\"b\":2}"_s << QString() << u"/unevaluatedProperties"_s
        << u"unexpected property \"b\""_s;
    QTest::newRow("propertyNames")
        << u"{\"propertyNames\":{\"maxLength\":3}}"_s << u"{\"abcd\":1}"_s << QString()
        << u"/propertyNames/maxLength"_s
        << u"property name \"abcd\": is 4 characters long, at most 3 allowed"_s;
    QTest::newRow("pointer-escaping")
        << u"{\"properties\":{\"a/b\":{\"properties\":{\"c~d\":{\"type\":\"string\"}}}}}"_s
        << u"{\"a/b\":{\"c~d\":1}}"_s << u"/a~1b/c~0d"_s
        << u"/properties/a~1b/properties/c~0d/type"_s << u"expected a string, got 1"_s;
}

void TestSchema::errorMessages()
{
    QFETCH(QString, schema);
    QFETCH(QString, instance);
    QFETCH(QString, instancePath);
    QFETCH(QString, keywordLocation);
    QFETCH(QString, message);
    const CompiledSchema compiled = compileText(schema.toUtf8().constData());
    QVERIFY2(compiled.isValid(), qPrintable(compiled.errorString()));
    const SchemaValidationResult result = compiled.validate(parse(instance.toUtf8().constData()));
    QVERIFY(!result.valid);
    QVERIFY2(result.errors.size() == 1, qPrintable(describe(result.errors)));
    QCOMPARE(result.errors.first().instancePath, instancePath);
    QCOMPARE(result.errors.first().keywordLocation, keywordLocation);
    QCOMPARE(result.errors.first().message, message);
}

void TestSchema::everyViolationReported()
{
    const CompiledSchema schema = compileText(R"({
        "type": "object", "required": ["title", "steps"],
        "properties": {"title": {"type": "string"}, "steps": {"type": "array", "maxItems": 2, "items": {"type": "string"}}}
    })");
    const SchemaValidationResult result = schema.validate(parse(R"({"steps": ["a", 2, 3]})"));
    QVERIFY(!result.valid);
    QCOMPARE(describe(result.errors),
             u" | /required | missing required property \"title\"\n"
             "/steps | /properties/steps/maxItems | has 3 items, at most 2 allowed\n"
             "/steps/1 | /properties/steps/items/type | expected a string, got 2\n"
             "/steps/2 | /properties/steps/items/type | expected a string, got 3"_s);
}

void TestSchema::anyOfSummary()
{
    // Pure type alternatives collapse into one message.
    const CompiledSchema types =
        compileText(R"({"anyOf": [{"type": "string"}, {"type": "null"}]})");
    SchemaValidationResult result = types.validate(QJsonValue(7));
    QCOMPARE(describe(result.errors), u" | /anyOf | expected a string or null, got 7"_s);

    // Enum, const and type alternatives too.
    const CompiledSchema mixed = compileText(
        R"({"anyOf": [{"enum": ["near side", "far side"]}, {"type": "null"}, {"const": 0}]})");
    result = mixed.validate(QJsonValue(u"west"_s));
    QCOMPARE(
        describe(result.errors),
        u" | /anyOf | expected one of [\"near side\",\"far side\"], null or 0, got \"west\""_s);

    // Object alternatives: one summary plus the closest branch's own errors.
    const CompiledSchema shapes = compileText(R"({"oneOf": [
        {"type": "object", "required": ["kind", "radius"], "properties": {"kind": {"const": "circle"}, "radius": {"type": "number"}}},
        {"type": "array"}
    ]})");
    result = shapes.validate(parse(R"({"kind": "circle", "radius": "big"})"));
    QVERIFY(!result.valid);
    QCOMPARE(describe(result.errors),
             u" | /oneOf | does not match any of the 2 allowed shapes; the closest (oneOf 0) fails "
             u"with:\n"
             "/radius | /oneOf/0/properties/radius/type | expected a number, got \"big\""_s);
}

void TestSchema::taggedUnionPicksTheTaggedBranch()
{
    const CompiledSchema schema = compileText(R"({"oneOf": [
        {"properties": {"kind": {"const": "circle"}, "radius": {"type": "number"}}, "required": ["kind", "radius"]},
        {"properties": {"kind": {"const": "square"}, "side": {"type": "number"}}, "required": ["kind", "side"]}
    ]})");
    const SchemaValidationResult result = schema.validate(parse(R"({"kind": "square"})"));
    QCOMPARE(describe(result.errors),
             u" | /oneOf | does not match any of the 2 allowed shapes; the closest (oneOf 1) fails "
             u"with:\n"
             " | /oneOf/1/required | missing required property \"side\""_s);
}

void TestSchema::oneOfTooMany()
{
    const CompiledSchema schema =
        compileText(R"({"oneOf": [{"type": "integer"}, {"minimum": 0}, {"type": "string"}]})");
    const SchemaValidationResult result = schema.validate(QJsonValue(3));
    QCOMPARE(describe(result.errors),
             u" | /oneOf | matches 2 of the allowed shapes (0, 1), exactly one is required"_s);
    QVERIFY(schema.validate(QJsonValue(-3)).valid);
}

void TestSchema::keywordLocationThroughRef()
{
    const CompiledSchema schema = compileText(R"({
        "properties": {"site": {"$ref": "#/$defs/site"}},
        "$defs": {"site": {"properties": {"lat": {"maximum": 90}}}}
    })");
    const SchemaValidationResult result = schema.validate(parse(R"({"site": {"lat": 123.0}})"));
    QCOMPARE(
        describe(result.errors),
        u"/site/lat | /properties/site/$ref/properties/lat/maximum | must be at most 90, got 123"_s);
}

void TestSchema::formatErrorsForModelText()
{
    const CompiledSchema schema = compileText(
        R"({"required": ["title"], "properties": {"steps": {"items": {"type": "string"}}}})");
    const SchemaValidationResult result = schema.validate(parse(R"({"steps": ["a", "b", 7]})"));
    QCOMPARE(formatErrorsForModel(result.errors),
             u"(root): missing required property \"title\"\n/steps/2: expected a string, got 7"_s);
    QList<SchemaError> many;
    for (int i = 0; i < 5; ++i)
        many.append({ u"/a/%1"_s.arg(i), u"/x"_s, u"bad"_s, u"type"_s });
    QCOMPARE(formatErrorsForModel(many, 2), u"/a/0: bad\n/a/1: bad\n... and 3 more"_s);
    QCOMPARE(formatErrorsForModel({}), QString());
}

void TestSchema::errorsToJson()
{
    const QList<SchemaError> errors { { u"/a"_s, u"/properties/a/type"_s,
                                        u"expected a string, got 1"_s, u"type"_s } };
    const QJsonArray json = schemaErrorsToJson(errors).toArray();
    QCOMPARE(json.size(), 1);
    QCOMPARE(json.at(0).toObject(),
             (QJsonObject { { u"instance_path"_s, u"/a"_s },
                            { u"keyword_location"_s, u"/properties/a/type"_s },
                            { u"message"_s, u"expected a string, got 1"_s } }));
}

void TestSchema::metaSchemaAcceptsGoodSchemas()
{
    const QString benchSchema = Test::sharedDataPath(u"bench/response-schema.json"_s);
    QVERIFY2(!benchSchema.isEmpty(), qPrintable(Test::lastError()));
    QCOMPARE(describe(validateSchema(Test::readJson(benchSchema))), QString());
    QCOMPARE(describe(validateSchema(parse("true"))), QString());
    QCOMPARE(describe(validateSchema(
                 parse(R"({"type": ["string", "null"], "$defs": {"a": {"$anchor": "x"}}})"))),
             QString());
    // The meta-schema validates itself.
    QFile meta(u":/callscope/schema/metaschema/schema.json"_s);
    QVERIFY(meta.open(QIODevice::ReadOnly));
    QCOMPARE(describe(validateSchema(QJsonDocument::fromJson(meta.readAll()).object())), QString());
}

void TestSchema::metaSchemaFlagsBrokenSchemas()
{
    QList<SchemaError> errors = validateSchema(parse(R"({"type": "strnig"})"));
    QVERIFY(!errors.isEmpty());
    bool namesType = false;
    for (const SchemaError &error : errors)
        namesType = namesType || error.instancePath == u"/type";
    QVERIFY2(namesType, qPrintable(describe(errors)));

    errors = validateSchema(parse(R"({"properties": {"a": {"minLength": -1}}})"));
    QVERIFY(!errors.isEmpty());
    bool namesMinLength = false;
    for (const SchemaError &error : errors)
        namesMinLength = namesMinLength || error.instancePath == u"/properties/a/minLength";
    QVERIFY2(namesMinLength, qPrintable(describe(errors)));

    errors = validateSchema(parse(R"({"required": "title"})"));
    QVERIFY(!errors.isEmpty());
    QCOMPARE(errors.last().instancePath, u"/required"_s);

    errors = validateSchema(parse("42"));
    QVERIFY(!errors.isEmpty());

    // Structurally fine, but the reference goes nowhere: the compile check says so.
    errors = validateSchema(parse(R"({"$ref": "#/$defs/missing"})"));
    QCOMPARE(errors.size(), 1);
    QCOMPARE(errors.first().keywordLocation, u"/$ref"_s);
    QCOMPARE(errors.first().message, u"cannot resolve reference \"#/$defs/missing\""_s);
}

void TestSchema::compileErrors()
{
    CompiledSchema schema = compileText(R"({"pattern": "("})");
    QVERIFY(!schema.isValid());
    QCOMPARE(schema.compileErrors().first().keywordLocation, u"/pattern"_s);
    QVERIFY(schema.errorString().startsWith(u"/pattern: invalid regular expression \"(\""_s));
    QVERIFY(!schema.validate(QJsonValue(1)).valid);
    QVERIFY(!schema.accepts(QJsonValue(1)));

    schema = compileText(R"({"$ref": "http://example.invalid/never.json"})");
    QVERIFY(!schema.isValid());
    QCOMPARE(schema.errorString(),
             u"/$ref: cannot resolve reference \"http://example.invalid/never.json\""_s);
}

void TestSchema::deepInstanceNesting()
{
    // A recursive schema and an instance 600 levels deep: an error, not a crash.
    const CompiledSchema schema = compileText(
        R"({"$defs": {"n": {"type": "array", "items": {"$ref": "#/$defs/n"}}}, "$ref": "#/$defs/n"})");
    QVERIFY(schema.isValid());
    QByteArray text;
    for (int i = 0; i < 600; ++i)
        text += '[';
    for (int i = 0; i < 600; ++i)
        text += ']';
    const QJsonDocument doc = QJsonDocument::fromJson(text);
    QVERIFY(doc.isArray());
    const SchemaValidationResult result = schema.validate(doc.array());
    QVERIFY(!result.valid);
    QVERIFY2(result.errors.size() == 1, qPrintable(describe(result.errors)));
    QCOMPARE(result.errors.first().message, u"nesting is too deep (more than 512 levels)"_s);
    QVERIFY(!schema.accepts(doc.array()));

    // 400 levels are fine.
    text.clear();
    for (int i = 0; i < 400; ++i)
        text += '[';
    for (int i = 0; i < 400; ++i)
        text += ']';
    QVERIFY(schema.validate(QJsonDocument::fromJson(text).array()).valid);
}

void TestSchema::deepSchemaNesting()
{
    QByteArray text;
    for (int i = 0; i < 700; ++i)
        text += "{\"not\":";
    text += "true";
    for (int i = 0; i < 700; ++i)
        text += '}';
    const QJsonDocument doc = QJsonDocument::fromJson(text);
    QVERIFY(doc.isObject());
    const CompiledSchema schema = SchemaCompiler().compile(doc.object());
    QVERIFY(!schema.isValid());
    QVERIFY2(schema.errorString().contains(u"nested too deeply"_s),
             qPrintable(schema.errorString()));
}

void TestSchema::refCycles()
{
    const char *cycles[] = {
        R"({"$ref": "#"})",
        R"({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"})",
        R"({"allOf": [{"$ref": "#"}]})",
        R"({"$defs": {"a": {"anyOf": [{"$ref": "#/$defs/a"}, {"type": "null"}]}}, "$ref": "#/$defs/a"})",
        R"({"$dynamicAnchor": "x", "not": {"$dynamicRef": "#x"}})",
    };
    for (const char *text : cycles) {
        const CompiledSchema schema = compileText(text);
        QVERIFY2(schema.isValid(), text);
        const SchemaValidationResult result = schema.validate(QJsonValue(1));
        QVERIFY2(!result.valid, text);
        QVERIFY2(result.errors.size() >= 1, text);
        QVERIFY2(result.errors.last().message.contains(u"$ref cycle"_s),
                 qPrintable(describe(result.errors)));
        QVERIFY(!schema.accepts(QJsonValue(1)));
    }
    // A long chain of distinct references at one place: an error, not a stack overflow.
    QJsonObject defs;
    for (int i = 0; i < 5000; ++i)
        defs.insert(u"d%1"_s.arg(i), QJsonObject { { u"$ref"_s, u"#/$defs/d%1"_s.arg(i + 1) } });
    defs.insert(u"d5000"_s, QJsonObject { { u"type"_s, u"integer"_s } });
    // It is refused when compiled (before any value is checked), not after.
    const CompiledSchema chain = SchemaCompiler().compile(
        QJsonObject { { u"$defs"_s, defs }, { u"$ref"_s, u"#/$defs/d0"_s } });
    QVERIFY(!chain.isValid());
    QVERIFY2(chain.errorString().contains(u"5002 levels deep"_s), qPrintable(chain.errorString()));
    const SchemaValidationResult chained = chain.validate(QJsonValue(1));
    QVERIFY(!chained.valid);
    QVERIFY(!chain.accepts(QJsonValue(1)));

    // Recursion that consumes the instance is not a cycle.
    const CompiledSchema tree =
        compileText(R"({"type": "object", "properties": {"child": {"$ref": "#"}}})");
    QVERIFY(tree.validate(parse(R"({"child": {"child": {"child": {}}}})")).valid);
}

void TestSchema::unusableSchemas()
{
    // Compiles (and fails every instance at run time), but validateSchema() refuses it up front.
    const QJsonValue cycle = parse(
        R"({"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"})");
    QList<SchemaError> errors = validateSchema(cycle);
    QCOMPARE(errors.size(), 1);
    QCOMPARE(errors.first().instancePath, u"/$defs/b/$ref"_s);
    QCOMPARE(errors.first().keyword, u"$ref"_s);
    QCOMPARE(
        errors.first().message,
        u"the schema refers back to itself without consuming any input (a $ref cycle: /$defs/a -> "
        "/$defs/b -> /$defs/a), so no value can ever be valid here"_s);
    for (
        const char *text :
        { R"({"$ref": "#"})", R"({"allOf": [{"$ref": "#"}]})",
          R"({"properties": {"a": {"anyOf": [{"$ref": "#/properties/a"}]}}})",
          R"({"$id": "https://x.invalid/s", "$defs": {"n": {"$anchor": "n", "not": {"$ref": "#n"}}}, "$ref": "#/$defs/n"})",
          R"({"$dynamicAnchor": "x", "not": {"$dynamicRef": "#x"}})" }) {
        errors = validateSchema(parse(text));
        QVERIFY2(errors.size() == 1 && errors.first().message.contains(u"$ref cycle"_s), text);
    }
    // Recursion through the instance, and a cycle nobody refers to, are fine.
    for (const char *text :
         { R"({"type": "object", "properties": {"child": {"$ref": "#"}}})",
           R"({"$defs": {"a": {"items": {"$ref": "#/$defs/a"}}}, "$ref": "#/$defs/a"})",
           R"({"$defs": {"unused": {"$ref": "#/$defs/unused"}}, "type": "string"})" }) {
        errors = validateSchema(parse(text));
        QVERIFY2(errors.isEmpty(), qPrintable(describe(errors)));
    }
}

void TestSchema::tapeParser_data()
{
    QTest::addColumn<QByteArray>("text");
    for (const char *text :
         { "{}", "[]", " 7 ", "-0", "1.5e3", "1E-2", "0.58", "\"a\\u00e9\\ud83d\\ude00b\"",
           "{\"a\":[1,{\"b\":null}],\"c\":true}", "[1,2,[3,[4]]]", "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"",
           "\"h\xc3\xa9\xe2\x82\xac\"", "123456789012345678", "1e308",
           // Not JSON:
           "", "{", "[1,]", "{\"a\" 1}", "{\"a\":1,}", "01", "+1", "-", "tru", "nul", "\"a",
           "[1] 2", "{1:2}", "[1 2]", "\"\\u12\"" })
        QTest::newRow(text) << QByteArray(text);
    // Qt lets these through; the tape keeps to RFC 8259.
    for (const char *text :
         { "1.", ".5", "\"\\x\"", "\"\xff\"", "\"\xc0\xaf\"", "\"\xed\xa0\x80\"", "\"\x01\"" })
        QTest::newRow(text) << QByteArray(text);
}

void TestSchema::tapeParser()
{
    // The tape parser accepts exactly what Qt's parser accepts (scalars wrapped for Qt), with the
    // same values.
    QFETCH(QByteArray, text);
    QJsonParseError qtError;
    const QJsonDocument doc = QJsonDocument::fromJson("[" + text + "]", &qtError);
    static const QList<QByteArray> laxInQt { "1.",       ".5",           "\"\\x\"",
                                             "\"\xff\"", "\"\xc0\xaf\"", "\"\xed\xa0\x80\"",
                                             "\"\x01\"" };
    const bool qtAccepts = qtError.error == QJsonParseError::NoError && doc.array().size() == 1
        && !text.trimmed().isEmpty() && !laxInQt.contains(text);
    JsonTape tape;
    JsonTape::ParseError error;
    const qsizetype root = tape.append(text, &error);
    QCOMPARE(root >= 0, qtAccepts);
    if (root < 0) {
        QVERIFY(error.offset >= 0);
        QVERIFY(!error.message.isEmpty());
        QCOMPARE(tape.nodeCount(), 0);
        return;
    }
    QCOMPARE(tape.toValue(root), doc.array().at(0));
}

void TestSchema::tapeRoundTrip()
{
    const QJsonValue value = Test::readJson(Test::sharedDataPath(u"bench/response-schema.json"_s));
    JsonTape tape;
    const qsizetype first = tape.appendValue(value);
    const qsizetype second = tape.append(QJsonDocument(value.toObject()).toJson());
    QCOMPARE(tape.toValue(first), value);
    QCOMPARE(tape.toValue(second), value);
    QCOMPARE(tape.next(first), second);
    // A lone surrogate has no UTF-8 form: U+FFFD, from both paths.
    const QString lone = QString(QChar(0xD800)) + u"x"_s;
    QCOMPARE(tape.toValue(tape.appendValue(QJsonValue(lone))).toString(), u"\uFFFDx"_s);
    QCOMPARE(tape.toValue(tape.append("\"\\ud800x\"")).toString(), u"\uFFFDx"_s);
    // A U+FEFF that opens a string or a name is text, not a byte order mark: it stays.
    const qsizetype bom = tape.append("{\"\xEF\xBB\xBFk\": \"\xEF\xBB\xBF\"}");
    QCOMPARE(tape.toValue(bom).toObject().value(u"\uFEFFk"_s).toString(), u"\uFEFF"_s);
    tape.clear();
    QCOMPARE(tape.nodeCount(), 0);
}

// JsonRef answers what QJsonValue answers for the same document.
void TestSchema::tapeRefReadsLikeQt()
{
    const QByteArray text = R"({"a": 1, "b": [true, null, "x\u00e9", 2.5, {"c": -3}], "a": 7,
        "big": 1e300, "frac": 2.5, "s": "t", "o": {}})";
    JsonTape tape;
    const JsonRef root(&tape, tape.append(text));
    const QJsonObject qt = QJsonDocument::fromJson(text).object();
    QVERIFY(root.isObject());
    QCOMPARE(root.value("a"_L1).toInt(), qt.value(u"a"_s).toInt()); // the last "a"
    QCOMPARE(root.value(u"a"_s).toInt(), 7);
    QCOMPARE(root.value("big"_L1).toInt(-1), qt.value(u"big"_s).toInt(-1));
    QCOMPARE(root.value("frac"_L1).toInt(-1), qt.value(u"frac"_s).toInt(-1));
    QCOMPARE(root.value("frac"_L1).toDouble(), 2.5);
    QCOMPARE(root.value("s"_L1).toString(), u"t"_s);
    QCOMPARE(root.value("s"_L1).toInt(9), 9);
    QVERIFY(root.value("missing"_L1).isUndefined());
    QVERIFY(root.value("s"_L1).value("x"_L1).isUndefined());
    QCOMPARE(root.value("missing"_L1).toString(u"fallback"_s), u"fallback"_s);
    QVERIFY(root.value("o"_L1).isObject());
    QCOMPARE(root.value("o"_L1).size(), 0);
    QStringList items;
    for (const JsonRef item : root.value("b"_L1))
        items.append(item.toQt().isString() ? item.toString()
                                            : QString::number(int(item.toQt().type())));
    QCOMPARE(items.size(), 5);
    QCOMPARE(items.at(2), u"x\u00e9"_s);
    int loops = 0;
    for (const JsonRef item : root.value("s"_L1)) { // a string iterates nothing
        Q_UNUSED(item);
        ++loops;
    }
    QCOMPARE(loops, 0);
    QCOMPARE(root.value("b"_L1).toQt(), qt.value(u"b"_s));
    QCOMPARE(root.toQtObject(), qt);
}

void TestSchema::tapeDeepNesting()
{
    // The parser keeps its own stack and Qt's nesting limit (1024); the validator stops at 512.
    QByteArray text(1024, '[');
    text += QByteArray(1024, ']');
    JsonTape tape;
    JsonTape::ParseError error;
    QCOMPARE(tape.append(QByteArray("[" + text + "]"), &error), -1);
    QCOMPARE(error.message, u"too deeply nested document"_s);
    QCOMPARE(error.offset, 1024);
    const qsizetype root = tape.append(text);
    QCOMPARE(root, 0);
    QCOMPARE(tape.nodeCount(), 1024);
    const CompiledSchema schema = compileText(
        R"({"$defs": {"n": {"type": "array", "items": {"$ref": "#/$defs/n"}}}, "$ref": "#/$defs/n"})");
    const SchemaValidationResult result = schema.validate(tape, root);
    QVERIFY(!result.valid);
    QCOMPARE(result.errors.size(), 1);
    QCOMPARE(result.errors.first().message, u"nesting is too deep (more than 512 levels)"_s);
}

void TestSchema::multipleOfPrecision()
{
    // 0.58 / 0.01 is 57.99999999999999 in binary floating point: still a multiple.
    const CompiledSchema schema = compileText(R"({"multipleOf": 0.01})");
    for (const char *good : { "0.58", "0.07", "1.1", "100", "0", "-0.29", "12345.67" }) {
        QVERIFY2(schema.validate(parse(good)).valid, good);
        JsonTape tape;
        QVERIFY2(schema.accepts(tape, tape.append(good)), good);
    }
    for (const char *bad : { "0.585", "0.001", "1.0000001" }) {
        QVERIFY2(!schema.validate(parse(bad)).valid, bad);
        JsonTape tape;
        QVERIFY2(!schema.accepts(tape, tape.append(bad)), bad);
    }
    QCOMPARE(schema.validate(parse("0.585")).errors.first().message,
             u"0.585 is not a multiple of 0.01"_s);
}

void TestSchema::simplePatterns_data()
{
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("matches");
    // Patterns the validator checks without a regular expression, beside the same check done by
    // QRegularExpression (a leading "(?:)" keeps it on the regular-expression path).
    const QList<std::tuple<QString, QString, bool>> rows {
        { u"^[A-Za-z0-9 ._-]+$"_s, u"payload 3"_s, true },
        { u"^[A-Za-z0-9 ._-]+$"_s, u"bad/name!"_s, false },
        { u"^[A-Za-z0-9 ._-]+$"_s, QString(), false },
        { u"^[A-Za-z0-9 ._-]+$"_s, u"caf\u00e9"_s, false },
        { u"^[A-Za-z0-9 ._-]+$"_s, u"line\n"_s, false },
        { u"^[a-z]*$"_s, QString(), true },
        { u"^[\\d]{2,3}$"_s, u"123"_s, true },
        { u"^[\\d]{2,3}$"_s, u"1234"_s, false },
        { u"^[\\w-]{3}$"_s, u"a_-"_s, true },
        { u"^[^/]+$"_s, u"\u00e9t\u00e9 \U0001F600"_s, true },
        { u"^[^/]+$"_s, u"a/b"_s, false },
        { u"^[^/]{2}$"_s, u"\U0001F600\U0001F600"_s, true },
        { u"^[-a]+$"_s, u"-a-"_s, true },
        { u"^[a-]+$"_s, u"a-"_s, true },
        { u"^[\\.]+$"_s, u"..."_s, true },
        { u"^[\\.]+$"_s, u"a"_s, false },
    };
    for (const auto &[pattern, text, matches] : rows)
        QTest::newRow(qPrintable(pattern + u" ~ "_s + text)) << pattern << text << matches;
}

void TestSchema::simplePatterns()
{
    QFETCH(QString, pattern);
    QFETCH(QString, text);
    QFETCH(bool, matches);
    const CompiledSchema simple =
        SchemaCompiler().compile(QJsonObject { { u"pattern"_s, pattern } });
    const CompiledSchema regex =
        SchemaCompiler().compile(QJsonObject { { u"pattern"_s, QString(u"(?:)"_s + pattern) } });
    QCOMPARE(simple.validate(QJsonValue(text)).valid, matches);
    QCOMPARE(regex.validate(QJsonValue(text)).valid, matches);
}

void TestSchema::valueTextsMatchQt()
{
    // Messages quote values as QJsonDocument writes them.
    const CompiledSchema schema = compileText(R"({"const": false})");
    auto qtText = [](const QJsonValue &value) {
        const QByteArray bytes = QJsonDocument(QJsonArray { value }).toJson(QJsonDocument::Compact);
        QString text = QString::fromUtf8(bytes.mid(1, bytes.size() - 2));
        if (text.size() > 60) // messages shorten long values
            text = text.left(57) + u"...\""_s;
        return text;
    };
    QString all;
    for (char16_t c = 0; c < 0x80; ++c)
        all += QChar(c);
    const QList<QJsonValue> values { 0.0,
                                     -0.0,
                                     1.0,
                                     0.1,
                                     0.58,
                                     1e20,
                                     1e21,
                                     1e22,
                                     9007199254740991.0,
                                     1e-7,
                                     3.14159,
                                     -2.5e300,
                                     5e-324,
                                     1234567.125,
                                     1e16,
                                     QJsonValue(all.left(8)),
                                     QJsonValue(all.mid(8, 8)),
                                     QJsonValue(all.mid(16, 16)),
                                     QJsonValue(all.left(20)),
                                     QJsonValue(u"\u00e9\u20ac\U0001F600\u2028"_s),
                                     QJsonValue(all.mid(20, 40)) };
    for (const QJsonValue &value : values) {
        const SchemaValidationResult result = schema.validate(value);
        QCOMPARE(result.errors.size(), 1);
        QCOMPARE(result.errors.first().message, u"value must be false, got "_s + qtText(value));
    }
}

void TestSchema::benchVerdicts()
{
    // The shared bench schema on a sample of its instances: tape and QJsonValue paths agree.
    const QJsonValue schemaJson =
        Test::readJson(Test::sharedDataPath(u"bench/response-schema.json"_s));
    const CompiledSchema schema = SchemaCompiler().compile(schemaJson);
    QVERIFY(schema.isValid());
    QTemporaryDir dir;
    const QString path = dir.filePath(u"instances.jsonl"_s);
    QCOMPARE(
        QProcess::execute(u"python3"_s,
                          { Test::sharedDataPath(u"bench/make_instances.py"_s), u"2000"_s, path }),
        0);
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    int valid = 0, invalid = 0;
    JsonTape tape;
    for (const QByteArray &line : file.readAll().split('\n')) {
        if (line.isEmpty())
            continue;
        tape.clear();
        const qsizetype root = tape.append(line);
        QVERIFY(root >= 0);
        const SchemaValidationResult fromTape = schema.validate(tape, root);
        const SchemaValidationResult fromQt =
            schema.validate(QJsonDocument::fromJson(line).object());
        QCOMPARE(fromTape.valid, fromQt.valid);
        QCOMPARE(fromTape.errors.size(), fromQt.errors.size());
        QCOMPARE(schema.accepts(tape, root), fromTape.valid);
        (fromTape.valid ? valid : invalid) += 1;
    }
    QVERIFY(valid > 1600 && invalid > 100);
}

void TestSchema::hugeDocument()
{
    const CompiledSchema schema = compileText(
        R"({"type": "array", "uniqueItems": true, "items": {"type": "object", "required": ["id"]}})");
    QJsonArray items;
    for (int i = 0; i < 200000; ++i)
        items.append(QJsonObject { { u"id"_s, i } });
    QVERIFY(schema.validate(items).valid);
    items.append(QJsonObject { { u"id"_s, 5 } });
    const SchemaValidationResult result = schema.validate(items);
    QVERIFY(!result.valid);
    QCOMPARE(result.errors.size(), 1);
    QCOMPARE(result.errors.first().message,
             u"items 5 and 200000 are equal (an object); items must be unique"_s);

    // Many violations are capped.
    QJsonArray bad;
    for (int i = 0; i < 5000; ++i)
        bad.append(i);
    const SchemaValidationResult capped = schema.validate(bad);
    QCOMPARE(capped.errors.size(), 1000);
}

void TestSchema::registryLoaderAndFolder()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QFile file(dir.filePath(u"name.json"_s));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"type": "string", "minLength": 2})");
    file.close();

    SchemaRegistry registry;
    registry.addDirectory(QUrl(u"https://schemas.example/v1/"_s), dir.path());
    int loaderCalls = 0;
    registry.setLoader([&loaderCalls](const QUrl &uri) -> std::optional<QJsonValue> {
        ++loaderCalls;
        if (uri.toString() == u"urn:example:count")
            return QJsonValue(QJsonObject { { u"type"_s, u"integer"_s } });
        return std::nullopt;
    });
    const CompiledSchema schema = SchemaCompiler(registry).compile(parse(R"({
        "$id": "https://schemas.example/v1/root.json",
        "properties": {"name": {"$ref": "name.json"}, "count": {"$ref": "urn:example:count"}}
    })"));
    QVERIFY2(schema.isValid(), qPrintable(schema.errorString()));
    QCOMPARE(loaderCalls, 1);
    QVERIFY(schema.validate(parse(R"({"name": "ab", "count": 2})")).valid);
    QCOMPARE(
        describe(schema.validate(parse(R"({"name": "a", "count": 2.5})")).errors),
        u"/count | /properties/count/$ref/type | expected an integer, got 2.5\n"
        "/name | /properties/name/$ref/minLength | is 1 characters long, at least 2 required"_s);
}

void TestSchema::concurrentValidation()
{
    const QString path = Test::sharedDataPath(u"bench/response-schema.json"_s);
    QVERIFY2(!path.isEmpty(), qPrintable(Test::lastError()));
    SchemaOptions options;
    options.formatAssertion = true;
    const CompiledSchema schema =
        SchemaCompiler(SchemaRegistry(), options).compile(Test::readJson(path));
    QVERIFY2(schema.isValid(), qPrintable(schema.errorString()));
    const QJsonValue good = parse(R"({"mission": "IM-3 1", "operator": "ISRO",
        "landing_site": {"name": "south pole", "lat": -80.5, "lon": 10, "region": null},
        "outcome": "landed", "mass_kg": null, "payloads": [], "launch_date": "2026-01-02",
        "timeline": [{"t": "2026-01-02T03:04:00Z", "what": "launch"}], "contacts": {"email": "ops@example.org"},
        "tags": ["lunar"], "confidence": 0.42})");
    QJsonObject badObject = good.toObject();
    badObject.insert(u"outcome"_s, u"hovering"_s);
    const QJsonValue bad = badObject;
    const SchemaValidationResult expectedBad = schema.validate(bad);
    QVERIFY2(schema.validate(good).valid, qPrintable(describe(schema.validate(good).errors)));
    QCOMPARE(
        describe(expectedBad.errors),
        u"/outcome | /properties/outcome/enum | value must be one of [\"landed\",\"crashed\",\"unconfirmed\",\"aborted\"], got \"hovering\""_s);

    std::atomic<int> mismatches = 0;
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&] {
            for (int i = 0; i < 2000; ++i) {
                if (!schema.validate(good).valid
                    || schema.validate(bad).errors != expectedBad.errors)
                    ++mismatches;
            }
        });
    }
    for (auto &thread : threads)
        thread.join();
    QCOMPARE(mismatches.load(), 0);
}

void TestSchema::cliValid()
{
    QVERIFY2(QFileInfo::exists(Test::cliPath()), qPrintable(Test::cliPath()));
    const CliResult result =
        runCli({ u"validate"_s, Test::testDataPath(u"schema/person.schema.json"_s),
                 Test::testDataPath(u"schema/person-valid.json"_s) });
    QCOMPARE(result.exitCode, 0);
    const QJsonObject out = QJsonDocument::fromJson(result.out).object();
    QCOMPARE(out, (QJsonObject { { u"valid"_s, true }, { u"errors"_s, QJsonArray() } }));
}

void TestSchema::cliInvalid()
{
    const CliResult result =
        runCli({ u"validate"_s, Test::testDataPath(u"schema/person.schema.json"_s),
                 Test::testDataPath(u"schema/person-invalid.json"_s) });
    QCOMPARE(result.exitCode, 1);
    const QJsonObject out = QJsonDocument::fromJson(result.out).object();
    QCOMPARE(out.value("valid"_L1), QJsonValue(false));
    const QJsonArray errors = out.value("errors"_L1).toArray();
    QCOMPARE(errors.size(), 2);
    QCOMPARE(errors.at(0).toObject(),
             (QJsonObject { { u"instance_path"_s, QString() },
                            { u"keyword_location"_s, u"/required"_s },
                            { u"message"_s, u"missing required property \"name\""_s } }));
    QCOMPARE(errors.at(1).toObject(),
             (QJsonObject { { u"instance_path"_s, u"/tags/1"_s },
                            { u"keyword_location"_s, u"/properties/tags/items/type"_s },
                            { u"message"_s, u"expected a string, got 7"_s } }));
}

void TestSchema::cliBadFiles()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString instance = Test::testDataPath(u"schema/person-valid.json"_s);

    CliResult result = runCli({ u"validate"_s, dir.filePath(u"missing.json"_s), instance });
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains("missing.json"), result.err.constData());
    QVERIFY(result.out.isEmpty());

    QFile broken(dir.filePath(u"broken.json"_s));
    QVERIFY(broken.open(QIODevice::WriteOnly));
    broken.write("{\n  \"type\": \"object\",\n  \"properties\": {\n");
    broken.close();
    result = runCli({ u"validate"_s, broken.fileName(), instance });
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains("broken.json") && result.err.contains("line "),
             result.err.constData());

    result = runCli(
        { u"validate"_s, Test::testDataPath(u"schema/person.schema.json"_s), broken.fileName() });
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains("broken.json"), result.err.constData());

    // A schema that is JSON but not a valid schema: exit 2 and where it is wrong.
    result = runCli({ u"validate"_s, Test::testDataPath(u"schema/not-a-schema.json"_s), instance });
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains("not-a-schema.json")
                 && result.err.contains("/properties/age/type"),
             result.err.constData());

    result = runCli({ u"validate"_s, instance });
    QCOMPARE(result.exitCode, 2);
}

void TestSchema::cliScalarDocuments()
{
    // Boolean schemas and scalar instances are JSON documents too.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    auto write = [&dir](const QString &name, const QByteArray &text) {
        QFile file(dir.filePath(name));
        if (file.open(QIODevice::WriteOnly))
            file.write(text);
        return file.fileName();
    };
    const QString falseSchema = write(u"false.json"_s, "false\n");
    const QString numberSchema =
        write(u"number.json"_s, "{\"type\": \"integer\", \"maximum\": 10}");
    const QString seven = write(u"seven.json"_s, " 7 \n");
    const QString text = write(u"text.json"_s, "\"hi\"");
    CliResult result = runCli({ u"validate"_s, numberSchema, seven });
    QCOMPARE(result.exitCode, 0);
    result = runCli({ u"validate"_s, numberSchema, text });
    QCOMPARE(result.exitCode, 1);
    QCOMPARE(QJsonDocument::fromJson(result.out)
                 .object()
                 .value("errors"_L1)
                 .toArray()
                 .at(0)
                 .toObject()
                 .value("message"_L1),
             QJsonValue(u"expected an integer, got \"hi\""_s));
    result = runCli({ u"validate"_s, falseSchema, seven });
    QCOMPARE(result.exitCode, 1);
}

void TestSchema::cliRelativeRefs()
{
    const CliResult ok =
        runCli({ u"validate"_s, Test::testDataPath(u"schema/refs/order.schema.json"_s),
                 Test::testDataPath(u"schema/refs/order-valid.json"_s) });
    QCOMPARE(ok.exitCode, 0);
    const CliResult bad =
        runCli({ u"validate"_s, Test::testDataPath(u"schema/refs/order.schema.json"_s),
                 Test::testDataPath(u"schema/refs/order-invalid.json"_s) });
    QCOMPARE(bad.exitCode, 1);
    const QJsonArray errors =
        QJsonDocument::fromJson(bad.out).object().value("errors"_L1).toArray();
    QCOMPARE(errors.size(), 1);
    QCOMPARE(errors.at(0).toObject().value("instance_path"_L1).toString(), u"/customer/email"_s);
    QCOMPARE(errors.at(0).toObject().value("keyword_location"_L1).toString(),
             u"/properties/customer/$ref/properties/email/$ref/type"_s);
}

// The dialect named by $schema decides; --dialect overrides it.
void TestSchema::cliDialects()
{
    auto data = [](const char *name) {
        return Test::testDataPath(u"schema/dialects/"_s + QLatin1StringView(name));
    };
    CliResult result =
        runCli({ u"validate"_s, data("draft07-tuple.schema.json"), data("point-ok.json") });
    QCOMPARE(result.exitCode, 0);
    result =
        runCli({ u"validate"_s, data("draft07-tuple.schema.json"), data("point-too-long.json") });
    QCOMPARE(result.exitCode, 1);
    QJsonArray errors = QJsonDocument::fromJson(result.out).object().value("errors"_L1).toArray();
    QCOMPARE(errors.size(), 1);
    QCOMPARE(errors.at(0).toObject().value("keyword_location"_L1).toString(),
             u"/additionalItems"_s);

    // Without $schema the tuple form is not 2020-12: the schema is refused, saying where.
    result = runCli({ u"validate"_s, data("tuple-no-schema.schema.json"), data("pair-ok.json") });
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains("not a valid JSON Schema (2020-12)"), result.err.constData());
    QVERIFY2(result.err.contains("/items"), result.err.constData());
    // Read as draft-07 it works, both ways of writing the option.
    result = runCli({ u"validate"_s, u"--dialect"_s, u"draft-07"_s,
                      data("tuple-no-schema.schema.json"), data("pair-ok.json") });
    QCOMPARE(result.exitCode, 0);
    result = runCli({ u"validate"_s, u"--dialect=2019-09"_s, data("tuple-no-schema.schema.json"),
                      data("point-too-long.json") });
    QCOMPARE(result.exitCode, 1);
    // Overriding a schema's own $schema: the draft-07 tuple read as 2020-12 is refused.
    result = runCli({ u"validate"_s, u"--dialect"_s, u"2020-12"_s,
                      data("draft07-tuple.schema.json"), data("point-ok.json") });
    QCOMPARE(result.exitCode, 2);

    // Draft 4: a boolean exclusive bound, "id", and a $ref to the draft-04 meta-schema.
    result = runCli({ u"validate"_s, data("draft04-bounds.schema.json"), data("percent-ok.json") });
    QVERIFY2(result.exitCode == 0, result.out.constData());
    result =
        runCli({ u"validate"_s, data("draft04-bounds.schema.json"), data("percent-bad.json") });
    QCOMPARE(result.exitCode, 1);
    errors = QJsonDocument::fromJson(result.out).object().value("errors"_L1).toArray();
    QStringList locations;
    for (const QJsonValue &error : errors)
        locations.append(error.toObject().value("keyword_location"_L1).toString());
    QVERIFY2(locations.contains(u"/properties/share/exclusiveMinimum"_s),
             qPrintable(locations.join(u' ')));
    QVERIFY2(
        std::any_of(locations.cbegin(), locations.cend(),
                    [](const QString &l) { return l.startsWith(u"/properties/meta/$ref/"_s); }),
        qPrintable(locations.join(u' ')));

    result = runCli({ u"validate"_s, u"--dialect"_s, u"draft-05"_s,
                      data("draft07-tuple.schema.json"), data("point-ok.json") });
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains("unknown dialect draft-05"), result.err.constData());
    result = runCli({ u"validate"_s, data("draft07-tuple.schema.json"), data("point-ok.json"),
                      u"--dialect"_s });
    QCOMPARE(result.exitCode, 2);
}

void TestSchema::cliFormatAssertion()
{
    const QStringList files { Test::testDataPath(u"schema/refs/order.schema.json"_s),
                              Test::testDataPath(u"schema/refs/order-bad-date.json"_s) };
    CliResult result = runCli(QStringList { u"validate"_s } + files);
    QCOMPARE(result.exitCode, 0);
    result =
        runCli(QStringList { u"validate"_s } + files + QStringList { u"--format-assertion"_s });
    QCOMPARE(result.exitCode, 1);
    const QJsonArray errors =
        QJsonDocument::fromJson(result.out).object().value("errors"_L1).toArray();
    QCOMPARE(errors.size(), 1);
    QCOMPARE(errors.at(0).toObject().value("message"_L1).toString(),
             u"\"next tuesday\" is not a valid date"_s);
}

void TestSchema::cliUnusableSchema()
{
    // A schema no value can satisfy is an unusable schema (exit 2), not an invalid instance.
    QTemporaryDir dir;
    QFile schema(dir.filePath(u"cycle.json"_s));
    QVERIFY(schema.open(QIODevice::WriteOnly));
    schema.write(
        R"({"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"})");
    schema.close();
    QFile instance(dir.filePath(u"one.json"_s));
    QVERIFY(instance.open(QIODevice::WriteOnly));
    instance.write("1");
    instance.close();
    const CliResult result = runCli({ u"validate"_s, schema.fileName(), instance.fileName() });
    QCOMPARE(result.exitCode, 2);
    QVERIFY(result.out.isEmpty());
    const QString err = QString::fromUtf8(result.err);
    QVERIFY2(err.contains(
                 u"/$defs/b/$ref: the schema refers back to itself without consuming any input"_s),
             qPrintable(err));
}

QTEST_GUILESS_MAIN(TestSchema)
namespace {

QJsonObject fanOut(int depth)
{
    QJsonObject defs;
    for (int i = 0; i < depth; ++i) {
        const QString next = u"#/$defs/l%1"_s.arg(i + 1);
        defs.insert(u"l%1"_s.arg(i),
                    QJsonObject { { u"anyOf"_s,
                                    QJsonArray { QJsonObject { { u"$ref"_s, next } },
                                                 QJsonObject { { u"$ref"_s, next } } } } });
    }
    defs.insert(u"l%1"_s.arg(depth), QJsonObject { { u"type"_s, u"string"_s } });
    return { { u"$ref"_s, u"#/$defs/l0"_s }, { u"$defs"_s, defs } };
}

// What "fast" means for a refused or budgeted schema in a test: far below the hours an
// unbounded check would take, far above what a loaded machine needs.
constexpr qint64 kRefusedWithinMs = 20000;

QJsonObject refChain(int length)
{
    QJsonObject defs;
    for (int i = 0; i < length; ++i)
        defs.insert(u"c%1"_s.arg(i), QJsonObject { { u"$ref"_s, u"#/$defs/c%1"_s.arg(i + 1) } });
    defs.insert(u"c%1"_s.arg(length), QJsonObject { { u"type"_s, u"string"_s } });
    return { { u"$ref"_s, u"#/$defs/c0"_s }, { u"$defs"_s, defs } };
}

} // namespace

void TestSchema::hostileSchemasBounded()
{
    // Fan-outs at depth 25 and 40 and a 10,000-level $ref chain: refused when compiled (and by
    // validateSchema), fast, with what is wrong.
    for (const auto &[name, schema, says] :
         { std::tuple { "fan-out 25", fanOut(25), u"too expensive to check"_s },
           std::tuple { "fan-out 40", fanOut(40), u"too expensive to check"_s },
           std::tuple { "chain 10000", refChain(10000), u"levels deep"_s },
           std::tuple { "chain 500", refChain(500), u"levels deep"_s } }) {
        QElapsedTimer clock;
        clock.start();
        const CompiledSchema compiled = SchemaCompiler().compile(schema);
        QVERIFY2(!compiled.isValid(), name);
        QVERIFY2(compiled.errorString().contains(says), qPrintable(compiled.errorString()));
        const QList<SchemaError> errors = validateSchema(schema);
        QVERIFY2(!errors.isEmpty() && errors.first().message.contains(says), name);
        qInfo("%s: refused in %lld ms", name, clock.elapsed());
        // Unbounded, these would run for hours; the bound is loose so a busy machine passes
        // (bench_schema holds the speed figures).
        QVERIFY2(clock.elapsed() < kRefusedWithinMs, name);
    }
    // Under the limits: a fan-out of depth 14 (32,768 paths to one leaf) is usable, and
    // remembered verdicts make a valid value quick to accept.
    const CompiledSchema fourteen = SchemaCompiler().compile(fanOut(14));
    QVERIFY2(fourteen.isValid(), qPrintable(fourteen.errorString()));
    QElapsedTimer clock;
    clock.start();
    QVERIFY(fourteen.accepts(QJsonValue(u"ok"_s)));
    QVERIFY(fourteen.validate(QJsonValue(u"ok"_s)).valid);
    QVERIFY2(clock.elapsed() < kRefusedWithinMs, qPrintable(QString::number(clock.elapsed())));
    QCOMPARE(refChain(200).size(), 2);
    QVERIFY(SchemaCompiler().compile(refChain(200)).accepts(QJsonValue(u"ok"_s)));

    // The work budget: an invalid value that would report every branch stops with a message.
    SchemaOptions options;
    options.stepBudget = 2000;
    const CompiledSchema budgeted = SchemaCompiler(SchemaRegistry(), options).compile(fanOut(14));
    clock.restart();
    QJsonArray many;
    for (int i = 0; i < 50; ++i)
        many.append(i);
    QJsonObject itemsSchema = fanOut(12);
    itemsSchema.remove(u"$ref"_s);
    itemsSchema.insert(u"items"_s, QJsonObject { { u"$ref"_s, u"#/$defs/l0"_s } });
    const CompiledSchema items = SchemaCompiler(SchemaRegistry(), options).compile(itemsSchema);
    QVERIFY2(items.isValid(), qPrintable(items.errorString()));
    const SchemaValidationResult result = items.validate(many);
    QVERIFY(!result.valid);
    QVERIFY2(describe(result.errors).contains(u"too expensive to check"_s),
             qPrintable(describe(result.errors)));
    QVERIFY2(clock.elapsed() < kRefusedWithinMs, qPrintable(QString::number(clock.elapsed())));
}

namespace {

QByteArray serialized(const QJsonValue &data, bool indented)
{
    const QByteArray wrapped =
        QJsonDocument(QJsonArray { data })
            .toJson(indented ? QJsonDocument::Indented : QJsonDocument::Compact);
    // Strip the wrapping array: what is left is the value's own text.
    const qsizetype open = wrapped.indexOf('[');
    const qsizetype close = wrapped.lastIndexOf(']');
    return wrapped.mid(open + 1, close - open - 1).trimmed();
}

} // namespace

void TestSchema::streamCheckSuite_data()
{
    addDialectRows();
}

// Every case of the official suite, fed a byte at a time: a valid instance is never flagged on
// the way (the streaming verdict is final, so a false one would cut a good answer), and the
// verdict once the text is complete equals the validator's.
void TestSchema::streamCheckSuite()
{
    QFETCH(QString, folder);
    QFETCH(int, dialect);
    const QString dir = Test::sharedDataPath(u"json-schema-test-suite/tests/"_s + folder);
    QVERIFY2(!dir.isEmpty(), qPrintable(Test::lastError()));
    SchemaOptions options;
    options.dialect = SchemaDialect(dialect);
    const SchemaCompiler compiler(suiteRegistry(), options);
    int valid = 0;
    int invalid = 0;
    int early = 0;
    QStringList failures;
    for (const QString &path : suiteFiles(dir)) {
        const QString file = QFileInfo(path).fileName();
        for (const QJsonValue &groupValue : Test::readJson(path).toArray()) {
            const QJsonObject group = groupValue.toObject();
            const QJsonValue schemaValue = group.value("schema"_L1);
            const CompiledSchema compiled = compiler.compile(schemaValue);
            for (const QJsonValue &testValue : group.value("tests"_L1).toArray()) {
                const QJsonObject test = testValue.toObject();
                const QJsonValue data = test.value("data"_L1);
                const bool expected = compiled.accepts(data);
                for (const bool indented : { false, true }) {
                    const QByteArray text = serialized(data, indented);
                    StreamCheck check(schemaValue, suiteRegistry(), options);
                    qsizetype flaggedAt = -1;
                    for (qsizetype i = 0; i < text.size(); ++i) {
                        if (!check.append(text.mid(i, 1)) && flaggedAt < 0)
                            flaggedAt = i + 1;
                    }
                    check.finish();
                    const QString where =
                        u"%1 | %2 | %3%4"_s.arg(file, group.value("description"_L1).toString(),
                                                test.value("description"_L1).toString(),
                                                indented ? u" (indented)"_s : QString());
                    if (check.syntaxError()) {
                        failures << where + u": syntax error "_s + check.syntaxMessage();
                        continue;
                    }
                    if (!check.rootComplete()) {
                        failures << where + u": the answer never completed"_s;
                        continue;
                    }
                    if (expected && !check.canStillBeValid()) {
                        failures << where
                                + u": a valid instance was flagged at byte %1: %2 %3"_s
                                      .arg(flaggedAt)
                                      .arg(check.firstViolation()->pointer,
                                           check.firstViolation()->reason);
                        continue;
                    }
                    if (!expected && check.canStillBeValid()) {
                        failures << where + u": an invalid instance was never flagged"_s;
                        continue;
                    }
                    if (indented)
                        continue;
                    if (expected) {
                        ++valid;
                    } else {
                        ++invalid;
                        if (flaggedAt >= 0 && flaggedAt < text.size())
                            ++early;
                    }
                }
            }
        }
    }
    for (const QString &failure : std::as_const(failures))
        qWarning().noquote() << "STREAM" << failure;
    qInfo().noquote() << u"%1 streamed: %2 valid never flagged, %3 invalid flagged, %4 of them "
                         u"before the text ended"_s.arg(folder)
                             .arg(valid)
                             .arg(invalid)
                             .arg(early);
    QVERIFY(valid > 100);
    QVERIFY(early > 0);
    QCOMPARE(failures.size(), 0);
}

// A streamed answer whose third field breaks its enum is flagged while that field streams,
// long before the reply ends; the fields before it are complete, the one after never started.
void TestSchema::streamCheckFindsTheFirstBadField()
{
    const QJsonValue schema = parse(R"({
        "type": "object",
        "additionalProperties": false,
        "required": ["title", "priority", "category", "summary"],
        "properties": {
            "title": {"type": "string", "maxLength": 40},
            "priority": {"type": "integer", "minimum": 1, "maximum": 5},
            "category": {"enum": ["billing", "bug", "feature-request"]},
            "summary": {"type": "string"}
        }
    })");
    const QByteArray reply =
        R"({"title": "Refund for order 1123", "priority": 2, "category": "bugfix", "summary": ")"
        + QByteArray(4000, 'x') + "\"}";
    StreamCheck check(schema);
    qsizetype cut = -1;
    for (qsizetype i = 0; i < reply.size() && cut < 0; i += 3) {
        if (!check.append(reply.mid(i, 3)))
            cut = check.bytesRead();
    }
    QVERIFY(cut > 0);
    const qsizetype badField = reply.indexOf("\"bugfix\"");
    // "bug" is a prefix of an allowed value; "bugf" is not.
    QVERIFY2(cut >= badField + 5 && cut <= badField + 8, qPrintable(QString::number(cut)));
    const StreamCheck::Violation v = *check.firstViolation();
    QCOMPARE(v.pointer, u"/category"_s);
    QCOMPARE(v.keyword, u"enum"_s);
    QVERIFY2(v.reason.contains(u"bugf"_s), qPrintable(v.reason));
    const QList<StreamCheck::Field> fields = check.fields();
    QCOMPARE(fields.size(), 3);
    QCOMPARE(fields.at(0).state, StreamCheck::FieldState::Complete);
    QCOMPARE(fields.at(1).state, StreamCheck::FieldState::Complete);
    QCOMPARE(fields.at(2).pointer, u"/category"_s);
    QCOMPARE(fields.at(2).state, StreamCheck::FieldState::Invalid);

    // Each other kind of early violation, with the field it names.
    struct Case
    {
        const char *text;
        const char *pointer;
        const char *keyword;
    };
    const Case cases[] = {
        { R"({"title": "0123456789012345678901234567890123456789-)", "/title", "maxLength" },
        { R"({"title": 7)", "/title", "type" },
        { R"({"priority": 9,)", "/priority", "maximum" },
        { R"({"priority": 2.5 )", "/priority", "type" },
        { R"({"extra")", "/extra", "additionalProperties" },
        { R"({"category": 3)", "/category", "enum" },
    };
    for (const Case &c : cases) {
        StreamCheck one(schema);
        QVERIFY2(!one.append(c.text), c.text);
        QCOMPARE(one.firstViolation()->pointer, QString::fromUtf8(c.pointer));
        QCOMPARE(one.firstViolation()->keyword, QString::fromUtf8(c.keyword));
        QVERIFY(!one.rootComplete());
    }

    // The same answer with a good category is never cut, and is valid once complete.
    QByteArray good = reply;
    good.replace("\"bugfix\"", "\"bug\"");
    StreamCheck whole(schema);
    for (qsizetype i = 0; i < good.size(); i += 5)
        QVERIFY(whole.append(good.mid(i, 5)));
    whole.finish();
    QVERIFY(whole.rootComplete());
    QVERIFY(whole.canStillBeValid());
    // A required field left out is only known at the end.
    StreamCheck missing(schema);
    QVERIFY(missing.append(R"({"title": "t", "priority": 1, "category": "bug")"));
    QVERIFY(!missing.append("}"));
    QCOMPARE(missing.firstViolation()->keyword, u"required"_s);
}

void TestSchema::streamCheckSnapshotAndStates()
{
    const QJsonValue schema = parse(R"({"type": "object", "properties": {
        "name": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}},
        "n": {"type": "number"}}})");
    StreamCheck check(schema);
    QVERIFY(check.append(R"({"name": "Ad\u00e9la", "tags": ["a", "b)"));
    QCOMPARE(check.snapshot(), parse(R"({"name": "Adéla", "tags": ["a", "b"]})"));
    QList<StreamCheck::Field> fields = check.fields();
    QCOMPARE(fields.size(), 4);
    QCOMPARE(fields.at(0).state, StreamCheck::FieldState::Complete); // name
    QCOMPARE(fields.at(1).state, StreamCheck::FieldState::Streaming); // tags
    QCOMPARE(fields.at(3).pointer, u"/tags/1"_s);
    QCOMPARE(fields.at(3).state, StreamCheck::FieldState::Streaming);
    // A number is left out until it ends.
    QVERIFY(check.append(R"(c"], "n": 12)"));
    QCOMPARE(check.snapshot(), parse(R"({"name": "Adéla", "tags": ["a", "bc"]})"));
    QVERIFY(check.append("5}"));
    QVERIFY(check.rootComplete());
    QCOMPARE(check.snapshot(), parse(R"({"name": "Adéla", "tags": ["a", "bc"], "n": 125})"));
    // An escape cut in two is read once it is whole.
    StreamCheck escapes(schema);
    QVERIFY(escapes.append(R"({"name": "a\)"));
    QVERIFY(escapes.append(R"(u00)"));
    QCOMPARE(escapes.snapshot(), parse(R"({"name": "a"})"));
    QVERIFY(escapes.append(R"(e9\n\ud83d\ude00")"));
    QCOMPARE(escapes.snapshot().toObject().value("name"_L1).toString(),
             QString::fromUtf8("a\xc3\xa9\n\xf0\x9f\x98\x80"));
    // Text that is not JSON is a syntax error, never a violation.
    StreamCheck prose(schema);
    QVERIFY(prose.append("Sure! Here is the JSON"));
    QVERIFY(prose.syntaxError());
    QVERIFY(prose.canStillBeValid());
}

// Only what applies for certain rules a field out early: a branch of anyOf, or a $ref beside
// other keywords in draft-07, never does.
void TestSchema::streamCheckKeepsToWhatSurelyApplies()
{
    {
        // "a" may be a number (first branch) though the second branch wants a string.
        StreamCheck check(parse(R"({"anyOf": [{"properties": {"a": {"type": "number"}}},
                                               {"properties": {"a": {"type": "string"}}}]})"));
        QVERIFY(check.append(R"({"a": 1, "b": 2})"));
        QVERIFY(check.canStillBeValid());
    }
    {
        // allOf and a local $ref do apply.
        StreamCheck check(parse(R"({"$defs": {"s": {"type": "string"}},
            "allOf": [{"properties": {"a": {"$ref": "#/$defs/s"}}}]})"));
        QVERIFY(!check.append(R"({"a": 1)"));
        QCOMPARE(check.firstViolation()->pointer, u"/a"_s);
    }
    {
        // draft-07: the sibling of $ref is ignored, so "type": "number" does not apply.
        StreamCheck check(parse(R"({"$schema": "http://json-schema.org/draft-07/schema#",
            "definitions": {"s": {"type": "string"}},
            "properties": {"a": {"$ref": "#/definitions/s", "type": "number"}}})"));
        QVERIFY(check.append(R"({"a": "text")"));
        QVERIFY(!check.append(R"(, "b": 1, "a2": 2, "a": 3)"));
        QCOMPARE(check.firstViolation()->keyword, u"type"_s);
    }
    {
        // A tuple before 2020-12, and additionalItems false.
        StreamCheck check(parse(R"({"$schema": "http://json-schema.org/draft-07/schema#",
            "items": [{"type": "string"}, {"type": "number"}], "additionalItems": false})"));
        QVERIFY(check.append(R"(["a", 1)"));
        QVERIFY(!check.append(R"(, null)"));
        QCOMPARE(check.firstViolation()->pointer, u"/2"_s);
    }
}

#include "tst_schema.moc"
