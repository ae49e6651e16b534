#include "core/schema/jsonschema.h"

#include "core/model/boundedread.h"
#include "core/model/jsonpointer.h"
#include "core/model/schemacycles.h"
#include "core/schema/jsontape.h"
#include "core/schema/schemaformats.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QVarLengthArray>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <cstring>
#include <deque>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

Q_LOGGING_CATEGORY(lcSchema, "callscope.schema")

using namespace Qt::StringLiterals;

static void initSchemaResources()
{
    Q_INIT_RESOURCE(metaschema);
}

namespace Callscope {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(JsonSchema)
};

const QString kDraft202012 = u"https://json-schema.org/draft/2020-12/schema"_s;

// ---------------------------------------------------------------------------------------------
// URIs

QString uriKey(const QUrl &url)
{
    return url.adjusted(QUrl::RemoveFragment).toString(QUrl::FullyEncoded);
}

QUrl resolveUri(const QUrl &base, const QString &reference)
{
    const QUrl ref(reference);
    if (base.isEmpty())
        return ref;
    if (ref.isRelative() && !base.isEmpty() && base.path().isEmpty() && !base.host().isEmpty()
        && !reference.startsWith(u'#')) {
        // "http://host" + "a.json" -> "http://host/a.json"
        QUrl withSlash = base;
        withSlash.setPath(u"/"_s);
        return withSlash.resolved(ref);
    }
    if (!ref.isRelative())
        return ref;
    if (reference.startsWith(u'#')) {
        QUrl out = base;
        out.setFragment(ref.fragment(QUrl::FullyDecoded), QUrl::DecodedMode);
        if (reference.size() == 1)
            out.setFragment(QString());
        return out;
    }
    return base.resolved(ref);
}

// ---------------------------------------------------------------------------------------------
// Compiled form

enum TypeBit : quint8 {
    TNull = 1,
    TBool = 2,
    TObject = 4,
    TArray = 8,
    TNumber = 16,
    TString = 32,
    TInteger = 64,
};

enum Vocab : quint16 {
    VCore = 1,
    VApplicator = 2,
    VUnevaluated = 4,
    VValidation = 8,
    VMetaData = 16,
    VFormatAnnotation = 32,
    VFormatAssertion = 64,
    VContent = 128,
    VAll =
        VCore | VApplicator | VUnevaluated | VValidation | VMetaData | VFormatAnnotation | VContent,
};

using Dialect = SchemaDialect;

// How one schema object is read: its dialect and the vocabularies its meta-schema enables.
struct Reading
{
    Dialect dialect = Dialect::Draft202012;
    quint16 vocab = VAll;

    bool atLeast(Dialect other) const { return dialect >= other; }
};

// Short strings (member names, enum values) compare faster inline than through memcmp.
inline bool sameBytes(const char *a, const char *b, size_t size)
{
    if (size < 8 && size >= 4) {
        std::uint32_t x1, y1, x2, y2; // two overlapping words
        std::memcpy(&x1, a, 4);
        std::memcpy(&y1, b, 4);
        std::memcpy(&x2, a + size - 4, 4);
        std::memcpy(&y2, b + size - 4, 4);
        return x1 == y1 && x2 == y2;
    }
    while (size >= 8) {
        std::uint64_t x, y;
        std::memcpy(&x, a, 8);
        std::memcpy(&y, b, 8);
        if (x != y)
            return false;
        a += 8;
        b += 8;
        size -= 8;
    }
    while (size > 0) {
        if (*a++ != *b++)
            return false;
        --size;
    }
    return true;
}

} // namespace

namespace SchemaDetail {

struct Node;

struct Resource
{
    QString uri; // absolute, no fragment
    QJsonValue json; // the resource root document
    Node *root = nullptr;
    QHash<QString, Node *> pointers; // decoded JSON Pointer (relative to the root) -> node
    QHash<QString, Node *> anchors; // $anchor and $dynamicAnchor
    QHash<QString, Node *> dynamicAnchors;
    Reading reading; // of the resource root
    bool recursiveAnchor = false; // 2019-09: the root says "$recursiveAnchor": true
};

struct PatternChild
{
    QRegularExpression regex;
    QString source;
    Node *node = nullptr;
};

struct NamedChild
{
    QString name;
    Node *node = nullptr;
    int slot = -1; // in Node::memberSlots
    bool fromDependencies = false; // written "dependencies" (errors name that keyword)
};

struct NamedList
{
    QString name;
    QStringList names;
    int slot = -1;
    QList<int> nameSlots;
    bool fromDependencies = false;
};

struct EnumString
{
    QByteArray text; // UTF-8
    std::uint32_t hash = 0;
};

struct MemberKey
{
    std::uint32_t hash = 0;
    std::uint32_t offset = 0; // of the UTF-8 name in Node::memberNames
    std::uint32_t size = 0;
    int slot = -1;
};

// A pattern that is one ASCII character class repeated over the whole string ("^[a-z0-9_-]+$")
// is checked without the regular expression engine.
struct PatternPlan
{
    bool simple = false;
    bool negated = false;
    qint64 minCount = 0;
    qint64 maxCount = -1;
    std::uint64_t bits[2] = { 0, 0 }; // ASCII members of the class
};

struct Node
{
    Resource *resource = nullptr;
    bool isBoolean = false;
    bool leaf = false; // no reference and no subschema: evaluation never nests below it
    bool booleanValue = true;
    bool needsOwnAnnotations = false; // unevaluatedProperties/unevaluatedItems present

    // Core
    Node *ref = nullptr;
    Node *dynamicRef = nullptr; // the static target of $dynamicRef
    QString dynamicAnchor; // non-empty when the $dynamicRef is dynamic
    Node *recursiveRef = nullptr; // 2019-09 $recursiveRef, resolved as a plain $ref
    // Drafts 4 to 2019-09: "items": [...] is the tuple (kept in prefixItems) and
    // "additionalItems" the rest (kept in items); messages name those keywords.
    bool legacyItems = false;

    // Validation
    quint8 typeMask = 0;
    QList<quint8> typeOrder; // for messages
    bool hasEnum = false;
    QJsonArray enumValues;
    QString enumText; // for messages
    std::vector<EnumString> enumStrings; // the string members of enum, as UTF-8 with their hash
    std::vector<qsizetype> enumOthers; // the other members, in Compiled::constants
    bool hasConst = false;
    QJsonValue constValue;
    QString constText; // for messages
    qsizetype constRef = -1; // in Compiled::constants
    std::optional<double> multipleOf, maximum, minimum, exclusiveMaximum, exclusiveMinimum;
    qint64 maxLength = -1, minLength = -1;
    bool hasPattern = false;
    PatternPlan patternPlan;
    QRegularExpression pattern;
    QString patternSource;
    SchemaFormats::Format format = SchemaFormats::Format::Unknown;
    QString formatName;
    bool assertFormat = false;
    qint64 maxItems = -1, minItems = -1;
    bool uniqueItems = false;
    qint64 maxContains = -1, minContains = -1;
    qint64 maxProperties = -1, minProperties = -1;
    QStringList required;
    QList<int> requiredSlots;
    std::vector<NamedList> dependentRequired;

    // Every member name an object keyword asks about, so one pass over an instance object finds
    // them all: name -> slot; slot -> index in `properties` (or -1).
    QHash<QString, int> memberSlots;
    std::vector<int> slotProperty;
    int slotCount = 0;
    std::vector<MemberKey> memberTable; // open addressing over memberSlots, size a power of two
    QByteArray memberNames;

    int findSlot(std::string_view name, std::uint32_t hash) const
    {
        if (memberTable.empty())
            return -1;
        const size_t mask = memberTable.size() - 1;
        for (size_t i = hash & mask;; i = (i + 1) & mask) {
            const MemberKey &entry = memberTable[i];
            if (entry.slot < 0)
                return -1;
            if (entry.hash == hash && entry.size == name.size()
                && sameBytes(memberNames.constData() + entry.offset, name.data(), name.size()))
                return entry.slot;
        }
    }

    // Applicator
    std::vector<Node *> prefixItems;
    Node *items = nullptr;
    Node *contains = nullptr;
    std::vector<NamedChild> properties;
    std::vector<PatternChild> patternProperties;
    Node *additionalProperties = nullptr;
    Node *propertyNames = nullptr;
    std::vector<NamedChild> dependentSchemas;
    std::vector<Node *> allOf, anyOf, oneOf;
    Node *notSchema = nullptr;
    Node *ifSchema = nullptr, *thenSchema = nullptr, *elseSchema = nullptr;

    // Unevaluated
    Node *unevaluatedItems = nullptr;
    Node *unevaluatedProperties = nullptr;

    bool hasObjectKeywords = false;
    bool hasArrayKeywords = false;
    bool hasStringKeywords = false;
    bool hasNumberKeywords = false;
};

struct Compiled
{
    bool hasDynamicRefs = false; // verdicts then depend on the dynamic scope: not memoized
    bool memoize = false; // in-place branches meet again: verdicts are remembered
    std::deque<Node> nodes;
    std::deque<Resource> resources;
    QHash<QString, Resource *> resourcesByUri;
    Node *root = nullptr;
    SchemaOptions options;
    JsonTape constants; // enum and const values
};

} // namespace SchemaDetail

using SchemaDetail::Compiled;
using SchemaDetail::Node;
using SchemaDetail::PatternPlan;
using SchemaDetail::Resource;

namespace {

// ---------------------------------------------------------------------------------------------
// Rendering values and types for messages

QString compactJson(const QJsonValue &value)
{
    QByteArray bytes;
    if (value.isObject())
        bytes = QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact);
    else if (value.isArray())
        bytes = QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact);
    else {
        bytes = QJsonDocument(QJsonArray { value }).toJson(QJsonDocument::Compact);
        bytes = bytes.mid(1, bytes.size() - 2);
    }
    return QString::fromUtf8(bytes);
}

QString shortValue(const QJsonValue &value)
{
    if (value.isObject())
        return Tr::tr("an object");
    if (value.isArray())
        return Tr::tr("an array");
    QString text = compactJson(value);
    if (text.size() > 60)
        text = text.left(57) + u"...\""_s;
    return text;
}

QString listJson(const QJsonArray &values, int maxChars = 200)
{
    QString text = compactJson(values);
    if (text.size() > maxChars)
        text = text.left(maxChars - 4) + u", ...]"_s;
    return text;
}

QString typeName(quint8 bit)
{
    switch (bit) {
    case TNull:
        return u"null"_s;
    case TBool:
        return Tr::tr("a boolean");
    case TObject:
        return Tr::tr("an object");
    case TArray:
        return Tr::tr("an array");
    case TNumber:
        return Tr::tr("a number");
    case TString:
        return Tr::tr("a string");
    case TInteger:
        return Tr::tr("an integer");
    }
    return {};
}

bool isIntegral(double d)
{
    return std::isfinite(d) && d == std::floor(d);
}

// What QJsonDocument writes for a string and a number (without building a document: these
// run on the error path of every invalid instance). tst_schema checks both against Qt.
template<typename Char> void appendEscaped(QString &out, const Char *begin, const Char *end)
{
    static const char hex[] = "0123456789abcdef";
    for (const Char *p = begin; p < end; ++p) {
        const char16_t c = char16_t(*p);
        if (c >= 0x20 && c != u'"' && c != u'\\') {
            out += QChar(c);
            continue;
        }
        out += u'\\';
        switch (c) {
        case u'"':
            out += u'"';
            break;
        case u'\\':
            out += u'\\';
            break;
        case u'\b':
            out += u'b';
            break;
        case u'\f':
            out += u'f';
            break;
        case u'\n':
            out += u'n';
            break;
        case u'\r':
            out += u'r';
            break;
        case u'\t':
            out += u't';
            break;
        default:
            out += u"u00"_s;
            out += QLatin1Char(hex[c >> 4]);
            out += QLatin1Char(hex[c & 15]);
        }
    }
}

QString quoted(QStringView text)
{
    QString out;
    out.reserve(text.size() + 2);
    out += u'"';
    appendEscaped(out, text.utf16(), text.utf16() + text.size());
    out += u'"';
    return out;
}

QString numberText(double value)
{
    if (!std::isfinite(value))
        return u"null"_s;
    if (isIntegral(value) && std::fabs(value) < 9007199254740992.0)
        return QString::number(qint64(value));
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

// ---------------------------------------------------------------------------------------------
// Regular expressions: ECMA 262 patterns mapped onto PCRE2.

QString unicodePropertyName(const QString &name)
{
    static const QHash<QString, QString> longNames {
        { u"Letter"_s, u"L"_s },
        { u"Cased_Letter"_s, u"L&"_s },
        { u"Uppercase_Letter"_s, u"Lu"_s },
        { u"Lowercase_Letter"_s, u"Ll"_s },
        { u"Titlecase_Letter"_s, u"Lt"_s },
        { u"Modifier_Letter"_s, u"Lm"_s },
        { u"Other_Letter"_s, u"Lo"_s },
        { u"Mark"_s, u"M"_s },
        { u"Nonspacing_Mark"_s, u"Mn"_s },
        { u"Spacing_Mark"_s, u"Mc"_s },
        { u"Enclosing_Mark"_s, u"Me"_s },
        { u"Number"_s, u"N"_s },
        { u"Decimal_Number"_s, u"Nd"_s },
        { u"digit"_s, u"Nd"_s },
        { u"Letter_Number"_s, u"Nl"_s },
        { u"Other_Number"_s, u"No"_s },
        { u"Punctuation"_s, u"P"_s },
        { u"punct"_s, u"P"_s },
        { u"Connector_Punctuation"_s, u"Pc"_s },
        { u"Dash_Punctuation"_s, u"Pd"_s },
        { u"Open_Punctuation"_s, u"Ps"_s },
        { u"Close_Punctuation"_s, u"Pe"_s },
        { u"Initial_Punctuation"_s, u"Pi"_s },
        { u"Final_Punctuation"_s, u"Pf"_s },
        { u"Other_Punctuation"_s, u"Po"_s },
        { u"Symbol"_s, u"S"_s },
        { u"Math_Symbol"_s, u"Sm"_s },
        { u"Currency_Symbol"_s, u"Sc"_s },
        { u"Modifier_Symbol"_s, u"Sk"_s },
        { u"Other_Symbol"_s, u"So"_s },
        { u"Separator"_s, u"Z"_s },
        { u"Space_Separator"_s, u"Zs"_s },
        { u"Line_Separator"_s, u"Zl"_s },
        { u"Paragraph_Separator"_s, u"Zp"_s },
        { u"Other"_s, u"C"_s },
        { u"Control"_s, u"Cc"_s },
        { u"cntrl"_s, u"Cc"_s },
        { u"Format"_s, u"Cf"_s },
        { u"Surrogate"_s, u"Cs"_s },
        { u"Private_Use"_s, u"Co"_s },
        { u"Unassigned"_s, u"Cn"_s },
    };
    return longNames.value(name, name);
}

QString ecmaToPcre(const QString &pattern)
{
    QString out;
    out.reserve(pattern.size() + 8);
    bool inClass = false;
    for (qsizetype i = 0; i < pattern.size(); ++i) {
        const QChar c = pattern.at(i);
        if (c == u'\\' && i + 1 < pattern.size()) {
            const QChar n = pattern.at(i + 1);
            ++i;
            switch (n.unicode()) {
            case 'd':
                out += inClass ? u"0-9"_s : u"[0-9]"_s;
                continue;
            case 'D':
                out += inClass ? u"\\x00-\\x2f\\x3a-\\x{10ffff}"_s : u"[^0-9]"_s;
                continue;
            case 'w':
                out += inClass ? u"A-Za-z0-9_"_s : u"[A-Za-z0-9_]"_s;
                continue;
            case 'W':
                out += inClass ? u"\\W"_s : u"[^A-Za-z0-9_]"_s;
                continue;
            case 's':
                out += inClass
                    ? u"\\s\\x{feff}\\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}"_s
                    : u"[\\s\\x{feff}\\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}]"_s;
                continue;
            case 'S':
                out += inClass
                    ? u"\\S"_s
                    : u"[^\\s\\x{feff}\\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}]"_s;
                continue;
            case 'p':
            case 'P': {
                // \p{Letter}, \p{gc=Lu}, \p{Script=Greek}: PCRE2 wants short names.
                const qsizetype close = pattern.indexOf(u'}', i + 1);
                if (i + 1 < pattern.size() && pattern.at(i + 1) == u'{' && close > i) {
                    QString name = pattern.mid(i + 2, close - i - 2);
                    const qsizetype equals = name.indexOf(u'=');
                    if (equals >= 0)
                        name = name.mid(equals + 1);
                    out += c;
                    out += n;
                    out += u'{' + unicodePropertyName(name) + u'}';
                    i = close;
                    continue;
                }
                break;
            }
            case 'u':
                if (i + 4 < pattern.size()) {
                    bool okHigh = false;
                    const uint high = pattern.mid(i + 1, 4).toUInt(&okHigh, 16);
                    // A surrogate pair written as two escapes is one code point for PCRE2.
                    if (okHigh && QChar::isHighSurrogate(high) && i + 10 < pattern.size()
                        && pattern.mid(i + 5, 2) == u"\\u") {
                        bool okLow = false;
                        const uint low = pattern.mid(i + 7, 4).toUInt(&okLow, 16);
                        if (okLow && QChar::isLowSurrogate(low)) {
                            out += u"\\x{"_s
                                + QString::number(
                                       QChar::surrogateToUcs4(char16_t(high), char16_t(low)), 16)
                                + u'}';
                            i += 10;
                            continue;
                        }
                    }
                    out += u"\\x{"_s + pattern.mid(i + 1, 4) + u'}';
                    i += 4;
                    continue;
                }
                break;
            case 'c':
                if (i + 1 < pattern.size()) {
                    out += u"\\x{"_s + QString::number(pattern.at(i + 1).unicode() % 32, 16) + u'}';
                    ++i;
                    continue;
                }
                break;
            default:
                break;
            }
            out += c;
            out += n;
            continue;
        }
        if (c == u'[' && !inClass)
            inClass = true;
        else if (c == u']' && inClass)
            inClass = false;
        else if (c == u'$' && !inClass) {
            out += u"\\z"_s; // ECMA "$" does not match before a final newline
            continue;
        }
        out += c;
    }
    return out;
}

// "^[...]+$", "^[...]*$", "^[...]{m,n}$" with an ASCII class (literals, ranges, \d, \w and
// escaped punctuation): a bitmap and a count instead of a regular expression. Anything else
// is not simple and goes to QRegularExpression.
PatternPlan planPattern(const QString &source)
{
    PatternPlan plan;
    qsizetype i = 0;
    const qsizetype n = source.size();
    auto at = [&](qsizetype k) {
        return k < n ? source.at(k).unicode() : char16_t(0);
    };
    if (at(0) != u'^' || at(1) != u'[')
        return {};
    i = 2;
    if (at(i) == u'^') {
        plan.negated = true;
        ++i;
    }
    auto set = [&](char16_t c) {
        plan.bits[c >> 6] |= std::uint64_t(1) << (c & 63);
    };
    bool first = true;
    for (;;) {
        if (i >= n)
            return {};
        char16_t c = at(i);
        if (c == u']' && !first) {
            ++i;
            break;
        }
        first = false;
        if (c >= 0x80 || c == u'[')
            return {};
        if (c == u'\\') {
            const char16_t e = at(i + 1);
            i += 2;
            if (e == u'd') {
                for (char16_t d = u'0'; d <= u'9'; ++d)
                    set(d);
                continue;
            }
            if (e == u'w') {
                for (char16_t d = u'0'; d <= u'9'; ++d)
                    set(d);
                for (char16_t d = u'a'; d <= u'z'; ++d)
                    set(d);
                for (char16_t d = u'A'; d <= u'Z'; ++d)
                    set(d);
                set(u'_');
                continue;
            }
            // Only escaped punctuation is a plain literal.
            if (e == 0 || e >= 0x80 || (e >= u'0' && e <= u'9') || (e >= u'a' && e <= u'z')
                || (e >= u'A' && e <= u'Z'))
                return {};
            c = e;
        } else {
            ++i;
        }
        // A range "a-z" (a '-' before the closing bracket is a literal).
        if (at(i) == u'-' && at(i + 1) != u']' && i + 1 < n) {
            const char16_t hi = at(i + 1);
            if (hi == u'\\' || hi >= 0x80 || hi < c)
                return {};
            for (char16_t d = c; d <= hi; ++d)
                set(d);
            i += 2;
            continue;
        }
        set(c);
    }
    const char16_t q = at(i);
    if (q == u'+') {
        plan.minCount = 1;
        ++i;
    } else if (q == u'*') {
        ++i;
    } else if (q == u'{') {
        const qsizetype close = source.indexOf(u'}', i);
        if (close < 0)
            return {};
        const QStringView body = QStringView(source).mid(i + 1, close - i - 1);
        const qsizetype comma = body.indexOf(u',');
        bool okMin = false, okMax = true;
        plan.minCount = (comma < 0 ? body : body.left(comma)).toLongLong(&okMin);
        if (comma < 0)
            plan.maxCount = plan.minCount;
        else if (comma + 1 < body.size())
            plan.maxCount = body.mid(comma + 1).toLongLong(&okMax);
        if (!okMin || !okMax || plan.minCount < 0
            || (plan.maxCount >= 0 && plan.maxCount < plan.minCount))
            return {};
        i = close + 1;
    } else {
        return {};
    }
    if (at(i) != u'$' || i + 1 != n)
        return {};
    plan.simple = true;
    return plan;
}

bool matchPattern(const PatternPlan &plan, const QRegularExpression &regex, std::string_view text);

// ---------------------------------------------------------------------------------------------
// Compiler

enum class RefKind : quint8 { Ref, Dynamic, Recursive };

struct PendingRef
{
    Node *node = nullptr;
    QUrl target;
    RefKind kind = RefKind::Ref;
    QString location; // for messages
    Reading reading; // of the referring schema: a document without $schema is read the same
};

class Builder
{
public:
    Builder(const SchemaRegistry &registry, const SchemaOptions &options, Compiled &out)
        : m_registry(registry)
        , m_options(options)
        , m_out(out)
    { }

    QList<SchemaError> errors;

    Node *compileDocument(const QJsonValue &json, const QUrl &retrievalUri, Reading reading,
                          bool rootDocument = false)
    {
        QList<std::pair<Resource *, QString>> paths;
        Resource *resource = nullptr;
        if (!retrievalUri.isEmpty()) {
            resource = newResource(retrievalUri, json);
            paths.append({ resource, QString() });
        } else {
            resource = newResource(QUrl(), json);
            paths.append({ resource, QString() });
        }
        const QUrl base = retrievalUri.adjusted(QUrl::RemoveFragment);
        m_rootDocument = rootDocument;
        Node *root = compile(json, resource, base, paths, reading, QString(), 0);
        if (resource->root == nullptr)
            resource->root = root;
        return root;
    }

    void link()
    {
        // Resolving may load further documents, which add more pending references.
        while (!m_pending.empty()) {
            const PendingRef pending = m_pending.front();
            m_pending.pop_front();
            QString anchorName;
            bool viaDynamicAnchor = false;
            Node *target = resolve(pending.target, pending.reading, &anchorName, &viaDynamicAnchor);
            if (!target) {
                addError(pending.location, u"$ref"_s,
                         Tr::tr("cannot resolve reference \"%1\"").arg(pending.target.toString()));
                continue;
            }
            switch (pending.kind) {
            case RefKind::Dynamic:
                pending.node->dynamicRef = target;
                if (viaDynamicAnchor)
                    pending.node->dynamicAnchor = anchorName;
                break;
            case RefKind::Recursive:
                pending.node->recursiveRef = target;
                break;
            case RefKind::Ref:
                pending.node->ref = target;
                break;
            }
        }
    }

private:
    const SchemaRegistry &m_registry;
    const SchemaOptions &m_options;
    Compiled &m_out;
    std::deque<PendingRef> m_pending;
    bool m_rootDocument = false; // the next compile() is the root of the document being checked

    void addError(const QString &location, const QString &keyword, const QString &message)
    {
        errors.append({ QString(), location, message, keyword });
    }

    Resource *newResource(const QUrl &uri, const QJsonValue &json)
    {
        Resource &resource = m_out.resources.emplace_back();
        resource.uri = uriKey(uri);
        resource.json = json;
        if (!m_out.resourcesByUri.contains(resource.uri))
            m_out.resourcesByUri.insert(resource.uri, &resource);
        return &resource;
    }

    Node *newNode(Resource *resource)
    {
        Node &node = m_out.nodes.emplace_back();
        node.resource = resource;
        return &node;
    }

    // The reading a `$schema` URI asks for. A known dialect is read with all its vocabularies;
    // another meta-schema gives its own dialect (by its `$schema`, a few levels deep) and the
    // vocabularies its `$vocabulary` enables.
    Reading readingOf(const QString &metaSchema, Reading inherited, int depth = 0)
    {
        if (const auto dialect = schemaDialectOfUri(metaSchema))
            return { *dialect, VAll };
        if (depth > 8)
            return inherited;
        const auto doc = m_registry.document(QUrl(metaSchema));
        if (!doc || !doc->isObject())
            return inherited;
        const QJsonObject object = doc->toObject();
        Reading reading = inherited;
        if (const QJsonValue outer = object.value("$schema"_L1);
            outer.isString() && outer.toString() != metaSchema)
            reading = readingOf(outer.toString(), inherited, depth + 1);
        reading.vocab = VAll;
        const QJsonValue vocabulary = object.value("$vocabulary"_L1);
        if (!vocabulary.isObject() || !reading.atLeast(Dialect::Draft201909))
            return reading;
        quint16 bits = VCore;
        const QJsonObject vocabObject = vocabulary.toObject();
        for (auto it = vocabObject.constBegin(); it != vocabObject.constEnd(); ++it) {
            const QString key = it.key();
            QStringView name;
            bool older = false;
            if (key.startsWith("https://json-schema.org/draft/2020-12/vocab/"_L1)) {
                name = QStringView(key).mid(44);
            } else if (key.startsWith("https://json-schema.org/draft/2019-09/vocab/"_L1)) {
                name = QStringView(key).mid(44);
                older = true;
            } else {
                continue;
            }
            if (name == u"applicator")
                bits |= older ? quint16(VApplicator | VUnevaluated) : quint16(VApplicator);
            else if (name == u"unevaluated")
                bits |= VUnevaluated;
            else if (name == u"validation")
                bits |= VValidation;
            else if (name == u"meta-data")
                bits |= VMetaData;
            else if (name == u"format-annotation")
                bits |= VFormatAnnotation;
            else if (name == u"format-assertion")
                bits |= VFormatAssertion;
            else if (name == u"format")
                bits |= it.value().toBool() ? VFormatAssertion : VFormatAnnotation;
            else if (name == u"content")
                bits |= VContent;
        }
        reading.vocab = bits;
        return reading;
    }

    void registerNode(Node *node, const QList<std::pair<Resource *, QString>> &paths)
    {
        for (const auto &[resource, pointer] : paths) {
            if (!resource->pointers.contains(pointer))
                resource->pointers.insert(pointer, node);
        }
    }

    static QList<std::pair<Resource *, QString>>
    childPaths(const QList<std::pair<Resource *, QString>> &paths, QStringView keyword,
               QStringView name = {}, qsizetype index = -1)
    {
        QList<std::pair<Resource *, QString>> out;
        out.reserve(paths.size());
        QString suffix = u'/' + keyword.toString();
        if (!name.isNull())
            suffix += u'/' + JsonPointer::escapeToken(name);
        if (index >= 0)
            suffix += u'/' + QString::number(index);
        for (const auto &[resource, pointer] : paths)
            out.append({ resource, pointer + suffix });
        return out;
    }

    Node *compile(const QJsonValue &json, Resource *resource, QUrl base,
                  QList<std::pair<Resource *, QString>> paths, Reading reading,
                  const QString &location, int depth)
    {
        if (depth > m_options.maxDepth) {
            addError(location, QString(),
                     Tr::tr("schema is nested too deeply (more than %1 levels)")
                         .arg(m_options.maxDepth));
            Node *node = newNode(resource);
            node->isBoolean = true;
            return node;
        }
        if (json.isBool()) {
            Node *node = newNode(resource);
            node->isBoolean = true;
            node->booleanValue = json.toBool();
            registerNode(node, paths);
            return node;
        }
        if (!json.isObject()) {
            addError(
                location, QString(),
                Tr::tr("a schema must be an object or a boolean, got %1").arg(shortValue(json)));
            Node *node = newNode(resource);
            node->isBoolean = true;
            return node;
        }
        const QJsonObject object = json.toObject();

        // $schema switches the dialect and the vocabularies (unless the caller fixed the root's).
        const bool documentRoot = std::exchange(m_rootDocument, false);
        const QJsonValue schemaValue = object.value("$schema"_L1);
        if (schemaValue.isString() && !(documentRoot && m_options.overrideDialect))
            reading = readingOf(schemaValue.toString(), reading);
        const quint16 vocab = reading.vocab;
        const bool legacy = !reading.atLeast(Dialect::Draft201909);
        if (depth == 0 && resource->root == nullptr)
            resource->reading = reading;

        // Drafts 4 to 7: beside "$ref" every other keyword is ignored, "$id" included.
        const QJsonValue ref = object.value("$ref"_L1);
        const bool refOnly = legacy && ref.isString();

        // $id (draft 4: id) starts a new resource; in drafts 4 to 7 an id "#name" (or one
        // with a fragment) also names a plain-name anchor.
        QString plainAnchor;
        const QJsonValue idValue = refOnly
            ? QJsonValue()
            : object.value(reading.dialect == Dialect::Draft4 ? "id"_L1 : "$id"_L1);
        if (idValue.isString()) {
            QString idText = idValue.toString();
            if (legacy) {
                const qsizetype hash = idText.indexOf(u'#');
                if (hash >= 0) {
                    const QString fragment = idText.mid(hash + 1);
                    if (!fragment.isEmpty() && !fragment.startsWith(u'/'))
                        plainAnchor = QUrl::fromPercentEncoding(fragment.toUtf8());
                    idText.truncate(hash);
                }
            }
            if (!idText.isEmpty()) {
                const QUrl id = resolveUri(base, idText);
                const QString key = uriKey(id);
                if (resource->root == nullptr) {
                    // The document itself: the $id names the same resource.
                    if (!key.isEmpty() && !m_out.resourcesByUri.contains(key))
                        m_out.resourcesByUri.insert(key, resource);
                    if (resource->uri.isEmpty())
                        resource->uri = key;
                } else {
                    Resource *inner = newResource(id, json);
                    inner->reading = reading;
                    resource = inner;
                    paths.append({ inner, QString() });
                }
                base = id.adjusted(QUrl::RemoveFragment);
            }
        }

        Node *node = newNode(resource);
        if (resource->root == nullptr)
            resource->root = node;
        registerNode(node, paths);
        if (!plainAnchor.isEmpty() && !resource->anchors.contains(plainAnchor))
            resource->anchors.insert(plainAnchor, node);

        if (refOnly) {
            m_pending.push_back({ node, resolveUri(base, ref.toString()), RefKind::Ref,
                                  location + u"/$ref"_s, reading });
            buildSlots(node);
            return node;
        }

        if (vocab & VCore) {
            if (reading.atLeast(Dialect::Draft201909)) {
                const QJsonValue anchor = object.value("$anchor"_L1);
                if (anchor.isString() && !resource->anchors.contains(anchor.toString()))
                    resource->anchors.insert(anchor.toString(), node);
            }
            if (reading.dialect == Dialect::Draft202012) {
                const QJsonValue dynamicAnchor = object.value("$dynamicAnchor"_L1);
                if (dynamicAnchor.isString()) {
                    if (!resource->anchors.contains(dynamicAnchor.toString()))
                        resource->anchors.insert(dynamicAnchor.toString(), node);
                    resource->dynamicAnchors.insert(dynamicAnchor.toString(), node);
                }
                const QJsonValue dynamicRef = object.value("$dynamicRef"_L1);
                if (dynamicRef.isString())
                    m_pending.push_back({ node, resolveUri(base, dynamicRef.toString()),
                                          RefKind::Dynamic, location + u"/$dynamicRef"_s,
                                          reading });
            }
            if (reading.dialect == Dialect::Draft201909) {
                if (resource->root == node && object.value("$recursiveAnchor"_L1).toBool())
                    resource->recursiveAnchor = true;
                const QJsonValue recursiveRef = object.value("$recursiveRef"_L1);
                if (recursiveRef.isString())
                    m_pending.push_back({ node, resolveUri(base, recursiveRef.toString()),
                                          RefKind::Recursive, location + u"/$recursiveRef"_s,
                                          reading });
            }
            if (ref.isString())
                m_pending.push_back({ node, resolveUri(base, ref.toString()), RefKind::Ref,
                                      location + u"/$ref"_s, reading });
            const QLatin1StringView defsKeyword = legacy ? "definitions"_L1 : "$defs"_L1;
            const QJsonValue defs = object.value(defsKeyword);
            if (defs.isObject()) {
                const QJsonObject defsObject = defs.toObject();
                const QString keyword(defsKeyword);
                for (auto it = defsObject.constBegin(); it != defsObject.constEnd(); ++it) {
                    const QString name = it.key();
                    compile(it.value(), resource, base, childPaths(paths, keyword, name), reading,
                            location + u'/' + keyword + u'/' + JsonPointer::escapeToken(name),
                            depth + 1);
                }
            }
        }

        auto sub = [&](const QJsonValue &value, QStringView keyword, QStringView name = {},
                       qsizetype index = -1) {
            QString childLocation = location + u'/' + keyword.toString();
            if (!name.isNull())
                childLocation += u'/' + JsonPointer::escapeToken(name);
            if (index >= 0)
                childLocation += u'/' + QString::number(index);
            return compile(value, resource, base, childPaths(paths, keyword, name, index), reading,
                           childLocation, depth + 1);
        };
        auto subArray = [&](const QJsonValue &value, QStringView keyword,
                            std::vector<Node *> &out) {
            if (!value.isArray()) {
                addError(location + u'/' + keyword.toString(), keyword.toString(),
                         Tr::tr("must be an array of schemas"));
                return;
            }
            const QJsonArray array = value.toArray();
            for (qsizetype i = 0; i < array.size(); ++i)
                out.push_back(sub(array.at(i), keyword, {}, i));
        };

        // Drafts 4 to 2019-09 write the tuple as "items": [...].
        const bool tupleItems = reading.dialect != Dialect::Draft202012;
        if (vocab & VApplicator) {
            for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
                const QString key = it.key();
                const QJsonValue value = it.value();
                if (key == u"allOf")
                    subArray(value, u"allOf", node->allOf);
                else if (key == u"anyOf")
                    subArray(value, u"anyOf", node->anyOf);
                else if (key == u"oneOf")
                    subArray(value, u"oneOf", node->oneOf);
                else if (key == u"not")
                    node->notSchema = sub(value, u"not");
                else if (key == u"if" && reading.atLeast(Dialect::Draft7))
                    node->ifSchema = sub(value, u"if");
                else if (key == u"then" && reading.atLeast(Dialect::Draft7))
                    node->thenSchema = sub(value, u"then");
                else if (key == u"else" && reading.atLeast(Dialect::Draft7))
                    node->elseSchema = sub(value, u"else");
                else if (key == u"prefixItems" && !tupleItems) {
                    subArray(value, u"prefixItems", node->prefixItems);
                    node->hasArrayKeywords = true;
                } else if (key == u"items" && tupleItems && value.isArray()) {
                    subArray(value, u"items", node->prefixItems);
                    node->legacyItems = true;
                    node->hasArrayKeywords = true;
                    const QJsonValue additional = object.value("additionalItems"_L1);
                    if (!additional.isUndefined())
                        node->items = sub(additional, u"additionalItems");
                } else if (key == u"items") {
                    node->items = sub(value, u"items");
                    node->hasArrayKeywords = true;
                } else if (key == u"contains" && reading.atLeast(Dialect::Draft6)) {
                    node->contains = sub(value, u"contains");
                    node->hasArrayKeywords = true;
                } else if (key == u"properties" && value.isObject()) {
                    const QJsonObject props = value.toObject();
                    for (auto p = props.constBegin(); p != props.constEnd(); ++p) {
                        const QString name = p.key();
                        node->properties.push_back({ name, sub(p.value(), u"properties", name) });
                    }
                    node->hasObjectKeywords = true;
                } else if (key == u"patternProperties" && value.isObject()) {
                    const QJsonObject props = value.toObject();
                    for (auto p = props.constBegin(); p != props.constEnd(); ++p) {
                        const QString name = p.key();
                        SchemaDetail::PatternChild child;
                        child.source = name;
                        child.regex = makeRegex(name, location + u"/patternProperties"_s);
                        child.node = sub(p.value(), u"patternProperties", name);
                        node->patternProperties.push_back(std::move(child));
                    }
                    node->hasObjectKeywords = true;
                } else if (key == u"additionalProperties") {
                    node->additionalProperties = sub(value, u"additionalProperties");
                    node->hasObjectKeywords = true;
                } else if (key == u"propertyNames" && reading.atLeast(Dialect::Draft6)) {
                    node->propertyNames = sub(value, u"propertyNames");
                    node->hasObjectKeywords = true;
                } else if (key == u"dependencies" && value.isObject()) {
                    // Draft 7 "dependencies": schemas here, name lists in compileValidation.
                    const QJsonObject deps = value.toObject();
                    for (auto p = deps.constBegin(); p != deps.constEnd(); ++p) {
                        if (p.value().isArray())
                            continue;
                        const QString name = p.key();
                        node->dependentSchemas.push_back(
                            { name, sub(p.value(), u"dependencies", name), -1, true });
                    }
                    node->hasObjectKeywords = true;
                } else if (key == u"dependentSchemas" && !legacy && value.isObject()) {
                    const QJsonObject deps = value.toObject();
                    for (auto p = deps.constBegin(); p != deps.constEnd(); ++p) {
                        const QString name = p.key();
                        node->dependentSchemas.push_back(
                            { name, sub(p.value(), u"dependentSchemas", name) });
                    }
                    node->hasObjectKeywords = true;
                }
            }
        }
        if ((vocab & VUnevaluated) && !legacy) {
            const QJsonValue uItems = object.value("unevaluatedItems"_L1);
            if (!uItems.isUndefined()) {
                node->unevaluatedItems = sub(uItems, u"unevaluatedItems");
                node->needsOwnAnnotations = true;
                node->hasArrayKeywords = true;
            }
            const QJsonValue uProps = object.value("unevaluatedProperties"_L1);
            if (!uProps.isUndefined()) {
                node->unevaluatedProperties = sub(uProps, u"unevaluatedProperties");
                node->needsOwnAnnotations = true;
                node->hasObjectKeywords = true;
            }
        }
        if (vocab & VValidation)
            compileValidation(node, object, location, reading);
        if (vocab & (VFormatAnnotation | VFormatAssertion)) {
            const QJsonValue format = object.value("format"_L1);
            if (format.isString()) {
                node->formatName = format.toString();
                node->format = SchemaFormats::fromName(node->formatName);
                if (node->format == SchemaFormats::Format::Hostname
                    && !reading.atLeast(Dialect::Draft7))
                    node->format = SchemaFormats::Format::HostnameRfc1123;
                node->assertFormat = node->format != SchemaFormats::Format::Unknown
                    && (m_options.formatAssertion || (vocab & VFormatAssertion));
                if (node->assertFormat)
                    node->hasStringKeywords = true;
            }
        }
        buildSlots(node);
        return node;
    }

    static void buildSlots(Node *node)
    {
        auto slotFor = [node](const QString &name) {
            auto it = node->memberSlots.constFind(name);
            if (it != node->memberSlots.constEnd())
                return it.value();
            const int slot = int(node->memberSlots.size());
            node->memberSlots.insert(name, slot);
            node->slotProperty.push_back(-1);
            return slot;
        };
        for (size_t i = 0; i < node->properties.size(); ++i) {
            node->properties[i].slot = slotFor(node->properties[i].name);
            node->slotProperty[node->properties[i].slot] = int(i);
        }
        for (const QString &name : node->required)
            node->requiredSlots.append(slotFor(name));
        for (auto &dependency : node->dependentRequired) {
            dependency.slot = slotFor(dependency.name);
            for (const QString &name : dependency.names)
                dependency.nameSlots.append(slotFor(name));
        }
        for (auto &dependency : node->dependentSchemas)
            dependency.slot = slotFor(dependency.name);

        node->slotCount = int(node->memberSlots.size());
        if (node->slotCount > 0) {
            size_t size = 4;
            while (size < size_t(node->slotCount) * 2)
                size *= 2;
            node->memberTable.assign(size, {});
            for (auto it = node->memberSlots.constBegin(); it != node->memberSlots.constEnd();
                 ++it) {
                SchemaDetail::MemberKey key;
                const QByteArray name = it.key().toUtf8();
                key.hash = JsonTape::hashBytes(name.constData(), size_t(name.size()));
                key.offset = std::uint32_t(node->memberNames.size());
                key.size = std::uint32_t(name.size());
                key.slot = it.value();
                node->memberNames += name;
                size_t i = key.hash & (size - 1);
                while (node->memberTable[i].slot >= 0)
                    i = (i + 1) & (size - 1);
                node->memberTable[i] = key;
            }
        }
    }

    QRegularExpression makeRegex(const QString &source, const QString &location)
    {
        QRegularExpression regex(ecmaToPcre(source));
        if (!regex.isValid()) {
            addError(location, u"pattern"_s,
                     Tr::tr("invalid regular expression %1: %2")
                         .arg(quoted(source), regex.errorString()));
        } else {
            regex.optimize();
        }
        return regex;
    }

    qint64 nonNegative(const QJsonValue &value, const QString &location, QStringView keyword)
    {
        if (!value.isDouble() || !isIntegral(value.toDouble()) || value.toDouble() < 0) {
            addError(location + u'/' + keyword.toString(), keyword.toString(),
                     Tr::tr("must be a non-negative integer"));
            return -1;
        }
        return qint64(value.toDouble());
    }

    void compileValidation(Node *node, const QJsonObject &object, const QString &location,
                           Reading reading)
    {
        const bool draft4 = reading.dialect == Dialect::Draft4;
        for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
            const QString key = it.key();
            const QJsonValue value = it.value();
            if (key == u"type") {
                auto bitOf = [](const QString &name) -> quint8 {
                    if (name == u"null")
                        return TNull;
                    if (name == u"boolean")
                        return TBool;
                    if (name == u"object")
                        return TObject;
                    if (name == u"array")
                        return TArray;
                    if (name == u"number")
                        return TNumber;
                    if (name == u"string")
                        return TString;
                    if (name == u"integer")
                        return TInteger;
                    return 0;
                };
                QJsonArray names = value.isArray() ? value.toArray() : QJsonArray { value };
                for (const QJsonValue &name : names) {
                    const quint8 bit = bitOf(name.toString());
                    if (bit == 0) {
                        addError(location + u"/type"_s, u"type"_s,
                                 Tr::tr("unknown type %1").arg(shortValue(name)));
                        continue;
                    }
                    node->typeMask |= bit;
                    node->typeOrder.append(bit);
                }
                if (node->typeMask == 0)
                    node->typeMask = 0x80; // nothing matches
            } else if (key == u"enum") {
                node->hasEnum = true;
                node->enumValues = value.toArray();
                node->enumText = listJson(node->enumValues);
                for (const QJsonValue &member : node->enumValues) {
                    if (member.isString()) {
                        const QByteArray text = member.toString().toUtf8();
                        node->enumStrings.push_back(
                            { text, JsonTape::hashBytes(text.constData(), size_t(text.size())) });
                    } else {
                        node->enumOthers.push_back(m_out.constants.appendValue(member));
                    }
                }
            } else if (key == u"const" && reading.atLeast(Dialect::Draft6)) {
                node->hasConst = true;
                node->constValue = value;
                node->constText = shortValue(value);
                node->constRef = m_out.constants.appendValue(value);
            } else if (key == u"multipleOf" && value.isDouble()) {
                node->multipleOf = value.toDouble();
                node->hasNumberKeywords = true;
            } else if (key == u"maximum" && value.isDouble()) {
                node->maximum = value.toDouble();
                node->hasNumberKeywords = true;
            } else if (key == u"minimum" && value.isDouble()) {
                node->minimum = value.toDouble();
                node->hasNumberKeywords = true;
            } else if (key == u"exclusiveMaximum" && draft4) {
                // Draft 4: a boolean that makes "maximum" exclusive.
                if (value.toBool() && object.value("maximum"_L1).isDouble()) {
                    node->exclusiveMaximum = object.value("maximum"_L1).toDouble();
                    node->hasNumberKeywords = true;
                }
            } else if (key == u"exclusiveMinimum" && draft4) {
                if (value.toBool() && object.value("minimum"_L1).isDouble()) {
                    node->exclusiveMinimum = object.value("minimum"_L1).toDouble();
                    node->hasNumberKeywords = true;
                }
            } else if (key == u"exclusiveMaximum" && value.isDouble()) {
                node->exclusiveMaximum = value.toDouble();
                node->hasNumberKeywords = true;
            } else if (key == u"exclusiveMinimum" && value.isDouble()) {
                node->exclusiveMinimum = value.toDouble();
                node->hasNumberKeywords = true;
            } else if (key == u"maxLength") {
                node->maxLength = nonNegative(value, location, key);
                node->hasStringKeywords = true;
            } else if (key == u"minLength") {
                node->minLength = nonNegative(value, location, key);
                node->hasStringKeywords = true;
            } else if (key == u"pattern" && value.isString()) {
                node->hasPattern = true;
                node->patternSource = value.toString();
                node->pattern = makeRegex(node->patternSource, location + u"/pattern"_s);
                node->patternPlan = planPattern(node->patternSource);
                node->hasStringKeywords = true;
            } else if (key == u"maxItems") {
                node->maxItems = nonNegative(value, location, key);
                node->hasArrayKeywords = true;
            } else if (key == u"minItems") {
                node->minItems = nonNegative(value, location, key);
                node->hasArrayKeywords = true;
            } else if (key == u"uniqueItems") {
                node->uniqueItems = value.toBool();
                node->hasArrayKeywords = true;
            } else if (key == u"maxContains" && reading.atLeast(Dialect::Draft201909)) {
                node->maxContains = nonNegative(value, location, key);
            } else if (key == u"minContains" && reading.atLeast(Dialect::Draft201909)) {
                node->minContains = nonNegative(value, location, key);
            } else if (key == u"maxProperties") {
                node->maxProperties = nonNegative(value, location, key);
                node->hasObjectKeywords = true;
            } else if (key == u"minProperties") {
                node->minProperties = nonNegative(value, location, key);
                node->hasObjectKeywords = true;
            } else if (key == u"required" && value.isArray()) {
                for (const QJsonValue &name : value.toArray())
                    node->required.append(name.toString());
                node->hasObjectKeywords = !node->required.isEmpty() || node->hasObjectKeywords;
            } else if (((key == u"dependentRequired" && reading.atLeast(Dialect::Draft201909))
                        || key == u"dependencies")
                       && value.isObject()) {
                const QJsonObject deps = value.toObject();
                for (auto d = deps.constBegin(); d != deps.constEnd(); ++d) {
                    if (!d.value().isArray())
                        continue; // a "dependencies" schema, compiled with the applicators
                    SchemaDetail::NamedList list;
                    list.name = d.key();
                    list.fromDependencies = key == u"dependencies";
                    for (const QJsonValue &name : d.value().toArray())
                        list.names.append(name.toString());
                    node->dependentRequired.push_back(std::move(list));
                }
                node->hasObjectKeywords = true;
            }
        }
        if (draft4 && node->exclusiveMaximum)
            node->maximum.reset();
        if (draft4 && node->exclusiveMinimum)
            node->minimum.reset();
    }

    Node *resolve(const QUrl &target, Reading referrer, QString *anchorName, bool *viaDynamicAnchor)
    {
        const QString key = uriKey(target);
        Resource *resource = m_out.resourcesByUri.value(key);
        if (!resource) {
            const auto document = m_registry.document(target);
            if (!document)
                return nullptr;
            compileDocument(*document, target.adjusted(QUrl::RemoveFragment), referrer);
            resource = m_out.resourcesByUri.value(key);
            if (!resource)
                return nullptr;
        }
        const QString fragment = target.fragment(QUrl::FullyDecoded);
        if (fragment.isEmpty())
            return resource->root;
        if (fragment.startsWith(u'/')) {
            const auto tokens = JsonPointer::split(fragment);
            if (!tokens)
                return nullptr;
            QString normalized;
            for (const QString &token : *tokens)
                normalized += u'/' + JsonPointer::escapeToken(token);
            if (Node *node = resource->pointers.value(normalized))
                return node;
            // A location no schema keyword reaches: compile the value found there.
            const auto value = JsonPointer::resolve(resource->json, fragment);
            if (!value)
                return nullptr;
            QList<std::pair<Resource *, QString>> paths { { resource, normalized } };
            return compile(*value, resource, QUrl(resource->uri), paths, resource->reading,
                           fragment, 0);
        }
        *anchorName = fragment;
        *viaDynamicAnchor = resource->dynamicAnchors.contains(fragment);
        return resource->anchors.value(fragment);
    }
};

// ---------------------------------------------------------------------------------------------
// Validation, over a JsonTape: instance values are node indexes, strings are UTF-8 views.

using JType = JsonTape::Type;

struct InstancePath
{
    const InstancePath *parent = nullptr;
    std::string_view key; // UTF-8 member name
    qsizetype index = -1;
    int depth = 0;
};

struct KeywordPath
{
    const KeywordPath *parent = nullptr;
    QStringView keyword;
    QStringView name;
    qsizetype index = -1;
};

QString fromUtf8(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

QString buildInstancePath(const InstancePath *path)
{
    QVarLengthArray<const InstancePath *, 32> chain;
    for (const InstancePath *p = path; p && p->parent; p = p->parent)
        chain.append(p);
    QString out;
    for (qsizetype i = chain.size() - 1; i >= 0; --i) {
        out += u'/';
        if (chain[i]->index >= 0)
            out += QString::number(chain[i]->index);
        else
            out += JsonPointer::escapeToken(fromUtf8(chain[i]->key));
    }
    return out;
}

QString buildKeywordPath(const KeywordPath *path, QStringView last)
{
    QVarLengthArray<const KeywordPath *, 32> chain;
    for (const KeywordPath *p = path; p; p = p->parent)
        chain.append(p);
    QString out;
    for (qsizetype i = chain.size() - 1; i >= 0; --i) {
        if (chain[i]->keyword.isEmpty())
            continue;
        out += u'/' + chain[i]->keyword.toString();
        if (!chain[i]->name.isNull())
            out += u'/' + JsonPointer::escapeToken(chain[i]->name);
        if (chain[i]->index >= 0)
            out += u'/' + QString::number(chain[i]->index);
    }
    if (!last.isEmpty())
        out += u'/' + last.toString();
    return out;
}

Q_ALWAYS_INLINE quint8 typeBitsOf(const JsonTape::Node &n)
{
    switch (n.type) {
    case JType::Null:
        return TNull;
    case JType::False:
    case JType::True:
        return TBool;
    case JType::Number:
        return isIntegral(n.number) ? quint8(TNumber | TInteger) : quint8(TNumber);
    case JType::String:
        return TString;
    case JType::Array:
        return TArray;
    case JType::Object:
        return TObject;
    }
    return 0;
}

qsizetype codePointCount(std::string_view text)
{
    qsizetype count = 0;
    for (const char c : text)
        count += (std::uint8_t(c) & 0xC0) != 0x80 ? 1 : 0;
    return count;
}

// UTF-8 (valid: the tape checked it) to UTF-16 on the stack, for QRegularExpression and the
// format checks.
struct Utf16
{
    QVarLengthArray<char16_t, 256> units;
    explicit Utf16(std::string_view text)
    {
        units.reserve(qsizetype(text.size()));
        const auto *p = reinterpret_cast<const std::uint8_t *>(text.data());
        const auto *end = p + text.size();
        while (p < end) {
            const std::uint8_t c = *p;
            char32_t cp;
            if (c < 0x80) {
                cp = c;
                p += 1;
            } else if (c < 0xE0) {
                cp = (char32_t(c & 0x1F) << 6) | (p[1] & 0x3F);
                p += 2;
            } else if (c < 0xF0) {
                cp = (char32_t(c & 0x0F) << 12) | (char32_t(p[1] & 0x3F) << 6) | (p[2] & 0x3F);
                p += 3;
            } else {
                cp = (char32_t(c & 0x07) << 18) | (char32_t(p[1] & 0x3F) << 12)
                    | (char32_t(p[2] & 0x3F) << 6) | (p[3] & 0x3F);
                p += 4;
            }
            if (cp >= 0x10000) {
                units.append(QChar::highSurrogate(cp));
                units.append(QChar::lowSurrogate(cp));
            } else {
                units.append(char16_t(cp));
            }
        }
    }
    QStringView view() const { return QStringView(units.constData(), units.size()); }
};

// JSON equality (1 == 1.0, objects regardless of key order), across two tapes.
bool tapeEqual(const JsonTape &ta, qsizetype a, const JsonTape &tb, qsizetype b)
{
    const JsonTape::Node &x = ta.node(a);
    const JsonTape::Node &y = tb.node(b);
    if (x.type != y.type)
        return false;
    switch (x.type) {
    case JType::Null:
    case JType::False:
    case JType::True:
        return true;
    case JType::Number:
        return x.number == y.number;
    case JType::String:
        return x.size == y.size && x.ref.hash == y.ref.hash
            && sameBytes(ta.string(a).data(), tb.string(b).data(), x.size);
    case JType::Array: {
        if (x.size != y.size)
            return false;
        for (qsizetype i = a + 1, j = b + 1; i < qsizetype(x.ref.offset);
             i = ta.next(i), j = tb.next(j)) {
            if (!tapeEqual(ta, i, tb, j))
                return false;
        }
        return true;
    }
    case JType::Object: {
        if (x.size != y.size)
            return false;
        for (qsizetype i = a + 1; i < qsizetype(x.ref.offset); i = ta.next(i + 1)) {
            const std::string_view key = ta.string(i);
            bool found = false;
            for (qsizetype j = b + 1; j < qsizetype(y.ref.offset); j = tb.next(j + 1)) {
                if (tb.string(j) == key) {
                    if (!tapeEqual(ta, i + 1, tb, j + 1))
                        return false;
                    found = true;
                    break;
                }
            }
            if (!found)
                return false;
        }
        return true;
    }
    }
    return false;
}

size_t tapeHash(const JsonTape &tape, qsizetype index, int depth = 0)
{
    const JsonTape::Node &n = tape.node(index);
    switch (n.type) {
    case JType::Null:
        return 1;
    case JType::False:
        return 2;
    case JType::True:
        return 3;
    case JType::Number:
        return qHash(n.number == 0 ? 0.0 : n.number) ^ 0x55;
    case JType::String:
        return n.ref.hash;
    case JType::Array: {
        size_t h = 0x1234 + size_t(n.size);
        if (depth < 8) {
            for (qsizetype i = index + 1; i < qsizetype(n.ref.offset); i = tape.next(i))
                h = h * 31 + tapeHash(tape, i, depth + 1);
        }
        return h;
    }
    case JType::Object: {
        size_t h = 0x4321 + size_t(n.size);
        if (depth < 8) {
            for (qsizetype i = index + 1; i < qsizetype(n.ref.offset); i = tape.next(i + 1))
                h += tape.node(i).ref.hash
                    ^ (tapeHash(tape, i + 1, depth + 1) * 17); // order independent
        }
        return h;
    }
    }
    return 0;
}

// Which members of the current object / array were evaluated (for unevaluated*).
struct Annotations
{
    std::vector<char> properties;
    std::vector<char> items;
    bool allProperties = false;
    bool allItems = false;

    void markProperty(qsizetype index, qsizetype count)
    {
        if (properties.size() < size_t(count))
            properties.resize(size_t(count), 0);
        properties[size_t(index)] = 1;
    }
    void markItem(qsizetype index, qsizetype count)
    {
        if (items.size() < size_t(count))
            items.resize(size_t(count), 0);
        items[size_t(index)] = 1;
    }
    void merge(const Annotations &other)
    {
        allProperties = allProperties || other.allProperties;
        allItems = allItems || other.allItems;
        if (properties.size() < other.properties.size())
            properties.resize(other.properties.size(), 0);
        for (size_t i = 0; i < other.properties.size(); ++i)
            properties[i] |= other.properties[i];
        if (items.size() < other.items.size())
            items.resize(other.items.size(), 0);
        for (size_t i = 0; i < other.items.size(); ++i)
            items[i] |= other.items[i];
    }
    bool propertyEvaluated(qsizetype index) const
    {
        return allProperties || (size_t(index) < properties.size() && properties[size_t(index)]);
    }
    bool itemEvaluated(qsizetype index) const
    {
        return allItems || (size_t(index) < items.size() && items[size_t(index)]);
    }
};

struct Context
{
    const Compiled *compiled = nullptr;
    const JsonTape *tape = nullptr;
    QList<SchemaError> *errors = nullptr; // null: only the verdict is wanted
    QVarLengthArray<const Resource *, 16>
        scope; // dynamic scope: resources entered, outermost first
    QVarLengthArray<const Node *, 32> refStack;
    qsizetype refBase = 0;
    int evaluationDepth = 0;
    bool aborted = false;
    qint64 steps = 0;
    qint64 budget = 0;
    QString stopped; // why the check stopped early (budget, stop flag); reported once at the end
    // Verdicts of (subschema, instance node) already worked out when only the verdict was
    // wanted: a fan-out reaching the same place by many paths is checked there once.
    QHash<std::pair<const Node *, qsizetype>, bool> verdicts;
};

std::atomic<bool> g_validationStopped { false };
static_assert(std::atomic<bool>::is_always_lock_free);

class Evaluator
{
public:
    explicit Evaluator(Context &context)
        : m_ctx(context)
        , m_tape(*context.tape)
    { }

    bool evaluate(const Node *node, qsizetype instance, const InstancePath *ipath,
                  const KeywordPath *kpath, Annotations *out);

private:
    bool evaluateUncached(const Node *node, qsizetype instance, const InstancePath *ipath,
                          const KeywordPath *kpath, Annotations *out);

    Context &m_ctx;
    const JsonTape &m_tape;

    // shortValue() of a tape value.
    QString shortValueAt(qsizetype instance) const
    {
        const JsonTape::Node &n = m_tape.node(instance);
        switch (n.type) {
        case JType::Object:
            return Tr::tr("an object");
        case JType::Array:
            return Tr::tr("an array");
        case JType::Null:
            return u"null"_s;
        case JType::False:
            return u"false"_s;
        case JType::True:
            return u"true"_s;
        case JType::Number:
            return numberText(n.number);
        case JType::String:
            break;
        }
        QString text = quoted(fromUtf8(m_tape.string(instance)));
        if (text.size() > 60)
            text = text.left(57) + u"...\""_s;
        return text;
    }

    void report(const InstancePath *ipath, const KeywordPath *kpath, QStringView keyword,
                const QString &message)
    {
        if (!m_ctx.errors)
            return;
        if (m_ctx.errors->size() >= m_ctx.compiled->options.maxErrors)
            return;
        m_ctx.errors->append({ buildInstancePath(ipath), buildKeywordPath(kpath, keyword), message,
                               keyword.toString() });
    }

    bool evaluateReference(const Node *target, qsizetype instance, const InstancePath *ipath,
                           const KeywordPath *kpath, Annotations *out, QStringView keyword)
    {
        for (qsizetype i = m_ctx.refBase; i < m_ctx.refStack.size(); ++i) {
            if (m_ctx.refStack[i] == target) {
                report(
                    ipath, kpath, keyword,
                    Tr::tr("the schema refers back to itself without consuming any input (a $ref "
                           "cycle)"));
                m_ctx.aborted = true;
                return false;
            }
        }
        m_ctx.refStack.push_back(target);
        const KeywordPath child { kpath, keyword };
        const bool ok = evaluate(target, instance, ipath, &child, out);
        m_ctx.refStack.pop_back();
        return ok;
    }

    // Evaluates `node` at a deeper instance location.
    bool evaluateChild(const Node *node, qsizetype instance, const InstancePath *ipath,
                       const KeywordPath *kpath)
    {
        const qsizetype savedBase = m_ctx.refBase;
        m_ctx.refBase = m_ctx.refStack.size();
        const bool ok = evaluate(node, instance, ipath, kpath, nullptr);
        m_ctx.refBase = savedBase;
        return ok;
    }

    bool quickCheck(const Node *node, qsizetype instance, const InstancePath *ipath,
                    const KeywordPath *kpath, Annotations *out)
    {
        QList<SchemaError> *saved = m_ctx.errors;
        m_ctx.errors = nullptr;
        const bool ok = evaluate(node, instance, ipath, kpath, out);
        m_ctx.errors = saved;
        if (m_ctx.aborted && saved) {
            // Hostile input stopped the check: run it again to report where.
            m_ctx.aborted = false;
            appendErrors(collect(node, instance, ipath, kpath));
            m_ctx.aborted = true;
        }
        return ok;
    }

    QList<SchemaError> collect(const Node *node, qsizetype instance, const InstancePath *ipath,
                               const KeywordPath *kpath)
    {
        QList<SchemaError> local;
        QList<SchemaError> *saved = m_ctx.errors;
        m_ctx.errors = &local;
        evaluate(node, instance, ipath, kpath, nullptr);
        m_ctx.errors = saved;
        return local;
    }

    void appendErrors(const QList<SchemaError> &errors)
    {
        if (!m_ctx.errors)
            return;
        for (const SchemaError &error : errors) {
            if (m_ctx.errors->size() >= m_ctx.compiled->options.maxErrors)
                break;
            m_ctx.errors->append(error);
        }
    }

    bool evaluateKeywords(const Node *node, qsizetype instance, const InstancePath *ipath,
                          const KeywordPath *kpath, Annotations *out);
    bool evaluateType(const Node *node, qsizetype instance, quint8 bits, const InstancePath *ipath,
                      const KeywordPath *kpath);
    bool evaluateScalar(const Node *node, qsizetype instance, const JsonTape::Node &value,
                        quint8 bits, const InstancePath *ipath, const KeywordPath *kpath);
    bool evaluateNumber(const Node *node, double value, const InstancePath *ipath,
                        const KeywordPath *kpath);
    bool evaluateString(const Node *node, qsizetype instance, std::string_view text,
                        const InstancePath *ipath, const KeywordPath *kpath);
    bool evaluateArray(const Node *node, qsizetype array, const InstancePath *ipath,
                       const KeywordPath *kpath, Annotations *ann);
    bool evaluateObject(const Node *node, qsizetype object, const InstancePath *ipath,
                        const KeywordPath *kpath, Annotations *ann);
    bool evaluateAlternatives(const std::vector<Node *> &branches, bool exactlyOne,
                              qsizetype instance, const InstancePath *ipath,
                              const KeywordPath *kpath, Annotations *ann);
    void summariseAlternatives(const std::vector<Node *> &branches, QStringView keyword,
                               qsizetype instance, const InstancePath *ipath,
                               const KeywordPath *kpath);
};

bool matchPattern(const PatternPlan &plan, const QRegularExpression &regex, std::string_view text)
{
    if (!plan.simple)
        return regex.match(Utf16(text).view()).hasMatch();
    qint64 count = 0;
    for (const char ch : text) {
        const std::uint8_t c = std::uint8_t(ch);
        if (c < 0x80) {
            const bool member = (plan.bits[c >> 6] >> (c & 63)) & 1;
            if (member == plan.negated)
                return false;
            ++count;
        } else {
            if (!plan.negated)
                return false; // the class is ASCII only
            if ((c & 0xC0) != 0x80)
                ++count;
        }
    }
    return count >= plan.minCount && (plan.maxCount < 0 || count <= plan.maxCount);
}

bool Evaluator::evaluate(const Node *node, qsizetype instance, const InstancePath *ipath,
                         const KeywordPath *kpath, Annotations *out)
{
    if (m_ctx.aborted)
        return false;
    if (++m_ctx.steps > m_ctx.budget) {
        m_ctx.stopped =
            Tr::tr("this schema is too expensive to check: more than %1 steps for one value")
                .arg(m_ctx.budget);
        m_ctx.aborted = true;
        return false;
    }
    if ((m_ctx.steps & 1023) == 0 && g_validationStopped.load(std::memory_order_relaxed)) {
        m_ctx.stopped = Tr::tr("the check was stopped");
        m_ctx.aborted = true;
        return false;
    }
    const bool memoize = m_ctx.compiled->memoize && !m_ctx.errors && !out && !node->leaf
        && !node->isBoolean && !m_ctx.compiled->hasDynamicRefs;
    if (memoize) {
        const auto known = m_ctx.verdicts.constFind({ node, instance });
        if (known != m_ctx.verdicts.cend())
            return known.value();
        const bool ok = evaluateUncached(node, instance, ipath, kpath, out);
        if (!m_ctx.aborted)
            m_ctx.verdicts.insert({ node, instance }, ok);
        return ok;
    }
    return evaluateUncached(node, instance, ipath, kpath, out);
}

bool Evaluator::evaluateUncached(const Node *node, qsizetype instance, const InstancePath *ipath,
                                 const KeywordPath *kpath, Annotations *out)
{
    if (node->isBoolean) {
        if (!node->booleanValue) {
            if (m_ctx.errors) {
                // "properties": {"x": false} forbids a property: say so by name.
                if (kpath && kpath->keyword == u"properties" && !kpath->name.isNull())
                    report(ipath, kpath, {},
                           Tr::tr("property %1 is not allowed").arg(quoted(kpath->name)));
                else
                    report(ipath, kpath, {}, Tr::tr("no value is allowed here"));
            }
            return false;
        }
        return true;
    }
    if (ipath->depth > m_ctx.compiled->options.maxDepth
        || m_ctx.evaluationDepth > m_ctx.compiled->options.maxDepth * 4) {
        report(ipath, kpath, {},
               Tr::tr("nesting is too deep (more than %1 levels)")
                   .arg(m_ctx.compiled->options.maxDepth));
        m_ctx.aborted = true;
        return false;
    }
    if (node->leaf) {
        // Nothing below it: no scope, no annotations, no nesting.
        const JsonTape::Node &value = m_tape.node(instance);
        return evaluateScalar(node, instance, value, typeBitsOf(value), ipath, kpath);
    }
    ++m_ctx.evaluationDepth;
    const bool newScope = m_ctx.scope.empty() || m_ctx.scope.back() != node->resource;
    if (newScope)
        m_ctx.scope.push_back(node->resource);

    bool ok;
    if (node->needsOwnAnnotations) {
        Annotations local;
        ok = evaluateKeywords(node, instance, ipath, kpath, &local);
        if (out && ok)
            out->merge(local);
    } else {
        ok = evaluateKeywords(node, instance, ipath, kpath, out);
    }

    if (newScope)
        m_ctx.scope.pop_back();
    --m_ctx.evaluationDepth;
    return ok;
}

bool Evaluator::evaluateType(const Node *node, qsizetype instance, quint8 bits,
                             const InstancePath *ipath, const KeywordPath *kpath)
{
    if (node->typeMask & bits)
        return true;
    if (m_ctx.errors) {
        QStringList names;
        for (quint8 bit : node->typeOrder)
            names.append(typeName(bit));
        QString expected;
        for (qsizetype i = 0; i < names.size(); ++i) {
            if (i > 0)
                expected += i + 1 == names.size() ? Tr::tr(" or ") : u", "_s;
            expected += names.at(i);
        }
        report(ipath, kpath, u"type",
               Tr::tr("expected %1, got %2").arg(expected, shortValueAt(instance)));
    }
    return false;
}

bool Evaluator::evaluateNumber(const Node *node, double value, const InstancePath *ipath,
                               const KeywordPath *kpath)
{
    bool ok = true;
    if (node->maximum && !(value <= *node->maximum)) {
        ok = false;
        if (!m_ctx.errors)
            return false;
        report(ipath, kpath, u"maximum",
               Tr::tr("must be at most %1, got %2")
                   .arg(numberText(*node->maximum), numberText(value)));
    }
    if (node->exclusiveMaximum && !(value < *node->exclusiveMaximum)) {
        ok = false;
        if (!m_ctx.errors)
            return false;
        report(ipath, kpath, u"exclusiveMaximum",
               Tr::tr("must be less than %1, got %2")
                   .arg(numberText(*node->exclusiveMaximum), numberText(value)));
    }
    if (node->minimum && !(value >= *node->minimum)) {
        ok = false;
        if (!m_ctx.errors)
            return false;
        report(ipath, kpath, u"minimum",
               Tr::tr("must be at least %1, got %2")
                   .arg(numberText(*node->minimum), numberText(value)));
    }
    if (node->exclusiveMinimum && !(value > *node->exclusiveMinimum)) {
        ok = false;
        if (!m_ctx.errors)
            return false;
        report(ipath, kpath, u"exclusiveMinimum",
               Tr::tr("must be greater than %1, got %2")
                   .arg(numberText(*node->exclusiveMinimum), numberText(value)));
    }
    if (node->multipleOf && *node->multipleOf > 0) {
        const double divisor = *node->multipleOf;
        bool multiple;
        if (isIntegral(value) && isIntegral(divisor)) {
            multiple = std::fmod(value, divisor) == 0;
        } else {
            // Decimal divisors (0.01) have no exact binary form: a relative tolerance on the
            // quotient says 0.58 is a multiple of 0.01, where plain division says it is not.
            const double quotient = value / divisor;
            if (!std::isfinite(quotient)) {
                multiple = std::fmod(value, divisor) == 0; // exact, where the division overflows
            } else {
                const double rounded = std::round(quotient);
                multiple =
                    std::fabs(quotient - rounded) <= 1e-9 * std::max(1.0, std::fabs(quotient));
            }
        }
        if (!multiple) {
            ok = false;
            if (!m_ctx.errors)
                return false;
            report(
                ipath, kpath, u"multipleOf",
                Tr::tr("%1 is not a multiple of %2").arg(numberText(value), numberText(divisor)));
        }
    }
    return ok;
}

bool Evaluator::evaluateString(const Node *node, qsizetype instance, std::string_view text,
                               const InstancePath *ipath, const KeywordPath *kpath)
{
    bool ok = true;
    if (node->maxLength >= 0 || node->minLength >= 0) {
        // Bytes bound the code points from above and, divided by four, from below.
        const qsizetype bytes = qsizetype(text.size());
        const bool surelyFits = (node->maxLength < 0 || bytes <= node->maxLength)
            && (node->minLength < 0 || bytes / 4 >= node->minLength);
        if (!surelyFits) {
            const qsizetype length = codePointCount(text);
            if (node->maxLength >= 0 && length > node->maxLength) {
                ok = false;
                if (!m_ctx.errors)
                    return false;
                report(ipath, kpath, u"maxLength",
                       Tr::tr("is %1 characters long, at most %2 allowed")
                           .arg(length)
                           .arg(node->maxLength));
            }
            if (node->minLength >= 0 && length < node->minLength) {
                ok = false;
                if (!m_ctx.errors)
                    return false;
                report(ipath, kpath, u"minLength",
                       Tr::tr("is %1 characters long, at least %2 required")
                           .arg(length)
                           .arg(node->minLength));
            }
        }
    }
    if (node->hasPattern && node->pattern.isValid()
        && !matchPattern(node->patternPlan, node->pattern, text)) {
        ok = false;
        if (!m_ctx.errors)
            return false;
        report(ipath, kpath, u"pattern",
               Tr::tr("%1 does not match the pattern %2")
                   .arg(shortValueAt(instance), node->patternSource));
    }
    if (node->assertFormat && !SchemaFormats::check(node->format, Utf16(text).view())) {
        ok = false;
        if (!m_ctx.errors)
            return false;
        report(ipath, kpath, u"format",
               Tr::tr("%1 is not a valid %2").arg(shortValueAt(instance), node->formatName));
    }
    return ok;
}

Q_NEVER_INLINE bool Evaluator::evaluateArray(const Node *node, qsizetype array,
                                             const InstancePath *ipath, const KeywordPath *kpath,
                                             Annotations *ann)
{
    bool ok = true;
    const JsonTape::Node &arrayNode = m_tape.node(array);
    const qsizetype count = qsizetype(arrayNode.size);
    const qsizetype end = qsizetype(arrayNode.ref.offset);
    if (node->maxItems >= 0 && count > node->maxItems) {
        ok = false;
        if (!m_ctx.errors)
            return false;
        report(ipath, kpath, u"maxItems",
               Tr::tr("has %1 items, at most %2 allowed").arg(count).arg(node->maxItems));
    }
    if (node->minItems >= 0 && count < node->minItems) {
        ok = false;
        if (!m_ctx.errors)
            return false;
        report(ipath, kpath, u"minItems",
               Tr::tr("has %1 items, at least %2 required").arg(count).arg(node->minItems));
    }
    if (node->uniqueItems && count > 1) {
        auto duplicate = [&](qsizetype earlier, qsizetype later, qsizetype itemNode) {
            ok = false;
            report(ipath, kpath, u"uniqueItems",
                   Tr::tr("items %1 and %2 are equal (%3); items must be unique")
                       .arg(earlier)
                       .arg(later)
                       .arg(shortValueAt(itemNode)));
        };
        if (count <= 32) {
            QVarLengthArray<qsizetype, 32> items;
            for (qsizetype child = array + 1; child < end; child = m_tape.next(child))
                items.append(child);
            bool found = false;
            for (qsizetype i = 1; i < count && !found; ++i) {
                for (qsizetype j = 0; j < i; ++j) {
                    if (tapeEqual(m_tape, items[j], m_tape, items[i])) {
                        if (!m_ctx.errors)
                            return false;
                        duplicate(j, i, items[i]);
                        found = true;
                        break;
                    }
                }
            }
        } else {
            std::vector<qsizetype> items;
            items.reserve(size_t(count));
            std::unordered_multimap<size_t, qsizetype> seen;
            seen.reserve(size_t(count));
            qsizetype i = 0;
            for (qsizetype child = array + 1; child < end; child = m_tape.next(child), ++i) {
                items.push_back(child);
                const size_t h = tapeHash(m_tape, child);
                bool isDuplicate = false;
                const auto range = seen.equal_range(h);
                for (auto it = range.first; it != range.second; ++it) {
                    if (tapeEqual(m_tape, items[size_t(it->second)], m_tape, child)) {
                        if (!m_ctx.errors)
                            return false;
                        duplicate(it->second, i, child);
                        isDuplicate = true;
                        break;
                    }
                }
                if (isDuplicate)
                    break;
                seen.emplace(h, i);
            }
        }
    }

    // prefixItems, items
    const qsizetype prefix = qsizetype(node->prefixItems.size());
    qsizetype child = array + 1;
    qsizetype i = 0;
    for (; i < count && i < prefix; ++i, child = m_tape.next(child)) {
        const InstancePath childPath { ipath, {}, i, ipath->depth + 1 };
        const KeywordPath where {
            kpath, node->legacyItems ? QStringView(u"items") : QStringView(u"prefixItems"), {}, i
        };
        if (!evaluateChild(node->prefixItems[size_t(i)], child, &childPath, &where)) {
            ok = false;
            if (!m_ctx.errors)
                return false;
        }
        if (ann)
            ann->markItem(i, count);
    }
    if (node->items && count > prefix) {
        if (node->items->isBoolean && !node->items->booleanValue) {
            ok = false;
            if (!m_ctx.errors)
                return false;
            report(ipath, kpath,
                   node->legacyItems ? QStringView(u"additionalItems") : QStringView(u"items"),
                   prefix > 0 ? Tr::tr("has %1 items, at most %2 allowed").arg(count).arg(prefix)
                              : Tr::tr("must be an empty array, has %1 items").arg(count));
        } else {
            const KeywordPath where { kpath,
                                      node->legacyItems ? QStringView(u"additionalItems")
                                                        : QStringView(u"items") };
            for (; i < count; ++i, child = m_tape.next(child)) {
                const InstancePath childPath { ipath, {}, i, ipath->depth + 1 };
                if (!evaluateChild(node->items, child, &childPath, &where)) {
                    ok = false;
                    if (!m_ctx.errors)
                        return false;
                }
            }
        }
        if (ann)
            ann->allItems = true;
    }

    if (node->contains) {
        qsizetype matches = 0;
        const KeywordPath where { kpath, u"contains" };
        qsizetype index = 0;
        for (qsizetype item = array + 1; item < end; item = m_tape.next(item), ++index) {
            const InstancePath childPath { ipath, {}, index, ipath->depth + 1 };
            const qsizetype savedBase = m_ctx.refBase;
            m_ctx.refBase = m_ctx.refStack.size();
            const bool match = quickCheck(node->contains, item, &childPath, &where, nullptr);
            m_ctx.refBase = savedBase;
            if (match) {
                ++matches;
                if (ann)
                    ann->markItem(index, count);
            }
        }
        const qsizetype minimum = node->minContains >= 0 ? node->minContains : 1;
        if (matches < minimum) {
            ok = false;
            if (!m_ctx.errors)
                return false;
            if (matches == 0 && node->minContains < 0) {
                report(ipath, kpath, u"contains",
                       Tr::tr("no item matches the \"contains\" schema"));
            } else {
                report(ipath, kpath, u"minContains",
                       Tr::tr("has %1 matching items, at least %2 required")
                           .arg(matches)
                           .arg(minimum));
            }
        }
        if (node->maxContains >= 0 && matches > node->maxContains) {
            ok = false;
            if (!m_ctx.errors)
                return false;
            report(ipath, kpath, u"maxContains",
                   Tr::tr("has %1 matching items, at most %2 allowed")
                       .arg(matches)
                       .arg(node->maxContains));
        }
    }
    return ok;
}

Q_NEVER_INLINE bool Evaluator::evaluateObject(const Node *node, qsizetype object,
                                              const InstancePath *ipath, const KeywordPath *kpath,
                                              Annotations *ann)
{
    bool ok = true;
    const JsonTape::Node &objectNode = m_tape.node(object);
    const qsizetype count = qsizetype(objectNode.size);
    const qsizetype end = qsizetype(objectNode.ref.offset);
    if (node->maxProperties >= 0 && count > node->maxProperties) {
        ok = false;
        if (!m_ctx.errors)
            return false;
        report(ipath, kpath, u"maxProperties",
               Tr::tr("has %1 properties, at most %2 allowed").arg(count).arg(node->maxProperties));
    }
    if (node->minProperties >= 0 && count < node->minProperties) {
        ok = false;
        if (!m_ctx.errors)
            return false;
        report(
            ipath, kpath, u"minProperties",
            Tr::tr("has %1 properties, at least %2 required").arg(count).arg(node->minProperties));
    }
    const qsizetype firstError = m_ctx.errors ? m_ctx.errors->size() : 0;

    // One pass over the members. Named members land in their slot (a pre-hashed lookup); the
    // others go to patternProperties / additionalProperties.
    const qsizetype slotCount = node->slotCount;
    QVarLengthArray<qsizetype, 32> at(slotCount);
    std::fill(at.begin(), at.end(), qsizetype(-1));
    const bool needMemberLoop =
        !node->patternProperties.empty() || node->additionalProperties || node->propertyNames;
    const bool additionalFalse = node->additionalProperties && node->additionalProperties->isBoolean
        && !node->additionalProperties->booleanValue;
    QStringList unexpected;
    if (slotCount > 0 || needMemberLoop) {
        qsizetype index = 0;
        for (qsizetype keyNode = object + 1; keyNode < end;
             keyNode = m_tape.next(keyNode + 1), ++index) {
            const qsizetype value = keyNode + 1;
            const std::string_view key = m_tape.string(keyNode);
            int property = -1;
            if (slotCount > 0) {
                const int slot = node->findSlot(key, m_tape.node(keyNode).ref.hash);
                if (slot >= 0) {
                    at[slot] = index;
                    property = node->slotProperty[size_t(slot)];
                }
            }
            if (property < 0 && !needMemberLoop)
                continue;
            const InstancePath child { ipath, key, -1, ipath->depth + 1 };
            if (property >= 0) {
                const auto &named = node->properties[size_t(property)];
                if (ann)
                    ann->markProperty(index, count);
                const KeywordPath where { kpath, u"properties", named.name };
                if (!evaluateChild(named.node, value, &child, &where)) {
                    ok = false;
                    if (!m_ctx.errors)
                        return false;
                }
            }
            if (!needMemberLoop)
                continue;
            if (node->propertyNames) {
                const KeywordPath where { kpath, u"propertyNames" };
                if (m_ctx.errors) {
                    const QList<SchemaError> nameErrors =
                        collect(node->propertyNames, keyNode, ipath, &where);
                    if (!nameErrors.isEmpty()) {
                        ok = false;
                        const QString name = quoted(fromUtf8(key));
                        for (const SchemaError &error : nameErrors) {
                            SchemaError adjusted = error;
                            adjusted.message =
                                Tr::tr("property name %1: %2").arg(name, error.message);
                            appendErrors({ adjusted });
                        }
                    }
                } else if (!quickCheck(node->propertyNames, keyNode, ipath, &where, nullptr)) {
                    return false;
                }
            }
            bool covered = property >= 0;
            if (!node->patternProperties.empty()) {
                const Utf16 name(key);
                for (const auto &pattern : node->patternProperties) {
                    if (!pattern.regex.isValid() || !pattern.regex.match(name.view()).hasMatch())
                        continue;
                    covered = true;
                    if (ann)
                        ann->markProperty(index, count);
                    const KeywordPath where { kpath, u"patternProperties", pattern.source };
                    if (!evaluateChild(pattern.node, value, &child, &where)) {
                        ok = false;
                        if (!m_ctx.errors)
                            return false;
                    }
                }
            }
            if (covered || !node->additionalProperties)
                continue;
            if (ann)
                ann->markProperty(index, count);
            if (additionalFalse) {
                ok = false;
                if (!m_ctx.errors)
                    return false;
                unexpected.append(fromUtf8(key));
                continue;
            }
            const KeywordPath where { kpath, u"additionalProperties" };
            if (!evaluateChild(node->additionalProperties, value, &child, &where)) {
                ok = false;
                if (!m_ctx.errors)
                    return false;
            }
        }
    }
    for (const QString &key : unexpected) {
        QString message = Tr::tr("unexpected property %1").arg(quoted(key));
        if (!node->properties.empty() && node->properties.size() <= 20
            && node->patternProperties.empty()) {
            QStringList allowed;
            for (const auto &property : node->properties)
                allowed.append(quoted(property.name));
            message += Tr::tr(" (allowed: %1)").arg(allowed.join(u", "_s));
        }
        report(ipath, kpath, u"additionalProperties", message);
    }

    // required / dependentRequired: reported before the members' own errors.
    QList<SchemaError> presence;
    QList<SchemaError> *saved = m_ctx.errors;
    if (saved)
        m_ctx.errors = &presence;
    for (qsizetype i = 0; i < node->requiredSlots.size(); ++i) {
        if (at[node->requiredSlots.at(i)] < 0) {
            ok = false;
            if (!saved)
                return false;
            report(ipath, kpath, u"required",
                   Tr::tr("missing required property %1").arg(quoted(node->required.at(i))));
        }
    }
    for (const auto &dependency : node->dependentRequired) {
        if (at[dependency.slot] < 0)
            continue;
        for (qsizetype i = 0; i < dependency.names.size(); ++i) {
            if (at[dependency.nameSlots.at(i)] < 0) {
                ok = false;
                if (!saved)
                    return false;
                report(ipath, kpath,
                       dependency.fromDependencies ? QStringView(u"dependencies")
                                                   : QStringView(u"dependentRequired"),
                       Tr::tr("property %1 is required when %2 is present")
                           .arg(quoted(dependency.names.at(i)), quoted(dependency.name)));
            }
        }
    }
    if (saved) {
        m_ctx.errors = saved;
        for (qsizetype i = 0;
             i < presence.size() && saved->size() < m_ctx.compiled->options.maxErrors; ++i)
            saved->insert(firstError + i, presence.at(i));
    }

    for (const auto &dependency : node->dependentSchemas) {
        if (at[dependency.slot] < 0)
            continue;
        const KeywordPath where { kpath,
                                  dependency.fromDependencies ? QStringView(u"dependencies")
                                                              : QStringView(u"dependentSchemas"),
                                  dependency.name };
        if (!evaluate(dependency.node, object, ipath, &where, ann)) {
            ok = false;
            if (!m_ctx.errors)
                return false;
        }
    }
    return ok;
}

Q_NEVER_INLINE bool Evaluator::evaluateAlternatives(const std::vector<Node *> &branches,
                                                    bool exactlyOne, qsizetype instance,
                                                    const InstancePath *ipath,
                                                    const KeywordPath *kpath, Annotations *ann)
{
    const QStringView keyword = exactlyOne ? QStringView(u"oneOf") : QStringView(u"anyOf");
    QVarLengthArray<qsizetype, 8> passing;
    for (size_t i = 0; i < branches.size(); ++i) {
        const KeywordPath where { kpath, keyword, {}, qsizetype(i) };
        bool pass;
        if (ann) {
            Annotations local;
            pass = quickCheck(branches[i], instance, ipath, &where, &local);
            if (pass)
                ann->merge(local);
        } else {
            pass = quickCheck(branches[i], instance, ipath, &where, nullptr);
        }
        if (m_ctx.aborted)
            return false;
        if (pass) {
            passing.append(qsizetype(i));
            if (!exactlyOne && !ann)
                return true;
            if (exactlyOne && passing.size() > 1 && !m_ctx.errors)
                return false;
        }
    }
    if (passing.isEmpty()) {
        if (m_ctx.errors)
            summariseAlternatives(branches, keyword, instance, ipath, kpath);
        return false;
    }
    if (exactlyOne && passing.size() > 1) {
        QStringList which;
        for (qsizetype i : passing)
            which.append(QString::number(i));
        report(ipath, kpath, u"oneOf",
               Tr::tr("matches %1 of the allowed shapes (%2), exactly one is required")
                   .arg(passing.size())
                   .arg(which.join(u", "_s)));
        return false;
    }
    return true;
}

Q_NEVER_INLINE void Evaluator::summariseAlternatives(const std::vector<Node *> &branches,
                                                     QStringView keyword, qsizetype instance,
                                                     const InstancePath *ipath,
                                                     const KeywordPath *kpath)
{
    const QString here = buildInstancePath(ipath);
    QList<QList<SchemaError>> all;
    // When every branch only rejects this very value's type, enum or const, one message says
    // what would do: "expected one of ["a","b"] or null, got 7".
    const QString got = Tr::tr(", got ") + shortValueAt(instance);
    auto expectation = [&](const SchemaError &error) -> QString {
        if (error.instancePath != here || !error.message.endsWith(got))
            return {};
        const QString head = error.message.chopped(got.size());
        const QString typePrefix = Tr::tr("expected ");
        const QString enumPrefix = Tr::tr("value must be one of ");
        const QString constPrefix = Tr::tr("value must be ");
        if (error.keyword == u"type" && head.startsWith(typePrefix))
            return head.mid(typePrefix.size());
        if (error.keyword == u"enum" && head.startsWith(enumPrefix))
            return Tr::tr("one of ") + head.mid(enumPrefix.size());
        if (error.keyword == u"const" && head.startsWith(constPrefix))
            return head.mid(constPrefix.size());
        return {};
    };
    bool simple = true;
    QStringList expected;
    for (size_t i = 0; i < branches.size(); ++i) {
        const KeywordPath where { kpath, keyword, {}, qsizetype(i) };
        all.append(collect(branches[i], instance, ipath, &where));
        const QList<SchemaError> &errors = all.last();
        const QString what = errors.size() == 1 ? expectation(errors.first()) : QString();
        if (what.isEmpty())
            simple = false;
        else if (!expected.contains(what))
            expected.append(what);
    }
    if (simple && !expected.isEmpty()) {
        QString joined;
        for (qsizetype i = 0; i < expected.size(); ++i) {
            if (i > 0)
                joined += i + 1 == expected.size() ? Tr::tr(" or ") : u", "_s;
            joined += expected.at(i);
        }
        report(ipath, kpath, keyword,
               Tr::tr("expected %1, got %2").arg(joined, shortValueAt(instance)));
        return;
    }
    // The closest branch: its errors are not about the type of this very value, and they are few.
    qsizetype best = -1;
    int bestScore = INT_MAX;
    for (qsizetype i = 0; i < all.size(); ++i) {
        int score = int(all.at(i).size());
        for (const SchemaError &error : all.at(i)) {
            if (error.instancePath == here
                && (error.keyword == u"type" || error.keyword == u"const"
                    || error.keyword == u"enum" || error.keyword.isEmpty()))
                score += 1000;
            else if (error.keyword == u"const")
                score += 100; // a discriminator ("kind": "circle") says this is another shape
            else if (error.instancePath.size() > here.size())
                score -= 1; // it got further into the value
        }
        if (score < bestScore) {
            bestScore = score;
            best = i;
        }
    }
    report(ipath, kpath, keyword,
           Tr::tr("does not match any of the %1 allowed shapes; the closest (%2 %3) fails with:")
               .arg(branches.size())
               .arg(keyword.toString())
               .arg(best));
    if (best >= 0)
        appendErrors(all.at(best));
}

// type, const, enum and the number and string keywords: all a leaf node has.
bool Evaluator::evaluateScalar(const Node *node, qsizetype instance, const JsonTape::Node &value,
                               quint8 bits, const InstancePath *ipath, const KeywordPath *kpath)
{
    bool ok = true;
    const bool verdictOnly = m_ctx.errors == nullptr;
    if (node->typeMask && !evaluateType(node, instance, bits, ipath, kpath)) {
        ok = false;
        if (verdictOnly)
            return false;
    }
    const std::string_view text = bits == TString ? m_tape.string(instance) : std::string_view();
    if (node->hasConst && !tapeEqual(m_ctx.compiled->constants, node->constRef, m_tape, instance)) {
        ok = false;
        if (verdictOnly)
            return false;
        report(ipath, kpath, u"const",
               Tr::tr("value must be %1, got %2").arg(node->constText, shortValueAt(instance)));
    }
    if (node->hasEnum) {
        bool found = false;
        if (bits == TString) {
            const std::uint32_t hash = value.ref.hash;
            for (const auto &candidate : node->enumStrings) {
                if (candidate.hash == hash && size_t(candidate.text.size()) == text.size()
                    && sameBytes(candidate.text.constData(), text.data(), text.size())) {
                    found = true;
                    break;
                }
            }
        } else {
            for (const qsizetype candidate : node->enumOthers) {
                if (tapeEqual(m_ctx.compiled->constants, candidate, m_tape, instance)) {
                    found = true;
                    break;
                }
            }
        }
        if (!found) {
            ok = false;
            if (verdictOnly)
                return false;
            report(ipath, kpath, u"enum",
                   Tr::tr("value must be one of %1, got %2")
                       .arg(node->enumText, shortValueAt(instance)));
        }
    }

    if ((bits & TNumber) && node->hasNumberKeywords) {
        if (!evaluateNumber(node, value.number, ipath, kpath)) {
            ok = false;
            if (verdictOnly)
                return false;
        }
    } else if (bits == TString && node->hasStringKeywords) {
        if (!evaluateString(node, instance, text, ipath, kpath)) {
            ok = false;
            if (verdictOnly)
                return false;
        }
    }
    return ok;
}

bool Evaluator::evaluateKeywords(const Node *node, qsizetype instance, const InstancePath *ipath,
                                 const KeywordPath *kpath, Annotations *ann)
{
    bool ok = true;
    const bool verdictOnly = m_ctx.errors == nullptr;
    const JsonTape::Node &value = m_tape.node(instance);
    const quint8 bits = typeBitsOf(value);

    if (node->ref) {
        if (!evaluateReference(node->ref, instance, ipath, kpath, ann, u"$ref")) {
            ok = false;
            if (verdictOnly || m_ctx.aborted)
                return false;
        }
    }
    if (node->dynamicRef) {
        const Node *target = node->dynamicRef;
        if (!node->dynamicAnchor.isEmpty()) {
            for (const Resource *resource : m_ctx.scope) {
                const auto it = resource->dynamicAnchors.constFind(node->dynamicAnchor);
                if (it != resource->dynamicAnchors.constEnd()) {
                    target = it.value();
                    break;
                }
            }
        }
        if (!evaluateReference(target, instance, ipath, kpath, ann, u"$dynamicRef")) {
            ok = false;
            if (verdictOnly || m_ctx.aborted)
                return false;
        }
    }
    if (node->recursiveRef) {
        // 2019-09: a target whose resource says "$recursiveAnchor": true moves out through the
        // dynamic scope as long as each enclosing resource says so too.
        const Node *target = node->recursiveRef;
        if (target->resource->recursiveAnchor && target == target->resource->root) {
            for (qsizetype i = m_ctx.scope.size() - 1; i >= 0 && m_ctx.scope[i]->recursiveAnchor;
                 --i)
                target = m_ctx.scope[i]->root;
        }
        if (!evaluateReference(target, instance, ipath, kpath, ann, u"$recursiveRef")) {
            ok = false;
            if (verdictOnly || m_ctx.aborted)
                return false;
        }
    }

    if (!evaluateScalar(node, instance, value, bits, ipath, kpath)) {
        ok = false;
        if (verdictOnly)
            return false;
    }
    if (bits == TArray && node->hasArrayKeywords) {
        if (!evaluateArray(node, instance, ipath, kpath, ann)) {
            ok = false;
            if (verdictOnly || m_ctx.aborted)
                return false;
        }
    } else if (bits == TObject && node->hasObjectKeywords) {
        if (!evaluateObject(node, instance, ipath, kpath, ann)) {
            ok = false;
            if (verdictOnly || m_ctx.aborted)
                return false;
        }
    }

    // In-place applicators.
    for (size_t i = 0; i < node->allOf.size(); ++i) {
        const KeywordPath where { kpath, u"allOf", {}, qsizetype(i) };
        if (!evaluate(node->allOf[i], instance, ipath, &where, ann)) {
            ok = false;
            if (verdictOnly || m_ctx.aborted)
                return false;
        }
    }
    if (!node->anyOf.empty()
        && !evaluateAlternatives(node->anyOf, false, instance, ipath, kpath, ann)) {
        ok = false;
        if (verdictOnly || m_ctx.aborted)
            return false;
    }
    if (!node->oneOf.empty()
        && !evaluateAlternatives(node->oneOf, true, instance, ipath, kpath, ann)) {
        ok = false;
        if (verdictOnly || m_ctx.aborted)
            return false;
    }
    if (node->notSchema) {
        const KeywordPath where { kpath, u"not" };
        const bool matched = quickCheck(node->notSchema, instance, ipath, &where, nullptr);
        if (m_ctx.aborted)
            return false;
        if (matched) {
            ok = false;
            if (verdictOnly)
                return false;
            report(ipath, kpath, u"not",
                   Tr::tr("must not match the schema at %1").arg(buildKeywordPath(kpath, u"not")));
        }
    }
    if (node->ifSchema && (node->thenSchema || node->elseSchema || ann)) {
        const KeywordPath where { kpath, u"if" };
        Annotations ifAnnotations;
        const bool condition =
            quickCheck(node->ifSchema, instance, ipath, &where, ann ? &ifAnnotations : nullptr);
        if (m_ctx.aborted)
            return false;
        if (condition && ann)
            ann->merge(ifAnnotations);
        const Node *branch = condition ? node->thenSchema : node->elseSchema;
        if (branch) {
            const KeywordPath branchWhere { kpath,
                                            condition ? QStringView(u"then")
                                                      : QStringView(u"else") };
            if (!evaluate(branch, instance, ipath, &branchWhere, ann)) {
                ok = false;
                if (verdictOnly || m_ctx.aborted)
                    return false;
            }
        }
    }

    // Unevaluated: after every other keyword, with the annotations they left.
    if (node->unevaluatedItems && bits == TArray && ann) {
        const KeywordPath where { kpath, u"unevaluatedItems" };
        const bool forbidden =
            node->unevaluatedItems->isBoolean && !node->unevaluatedItems->booleanValue;
        qsizetype i = 0;
        for (qsizetype item = instance + 1; item < qsizetype(value.ref.offset);
             item = m_tape.next(item), ++i) {
            if (ann->itemEvaluated(i))
                continue;
            const InstancePath child { ipath, {}, i, ipath->depth + 1 };
            if (forbidden) {
                ok = false;
                if (verdictOnly)
                    return false;
                report(&child, kpath, u"unevaluatedItems",
                       Tr::tr("unexpected item at index %1").arg(i));
                continue;
            }
            if (!evaluateChild(node->unevaluatedItems, item, &child, &where)) {
                ok = false;
                if (verdictOnly)
                    return false;
            }
        }
        ann->allItems = true;
    }
    if (node->unevaluatedProperties && bits == TObject && ann) {
        const KeywordPath where { kpath, u"unevaluatedProperties" };
        const bool forbidden =
            node->unevaluatedProperties->isBoolean && !node->unevaluatedProperties->booleanValue;
        qsizetype index = 0;
        for (qsizetype keyNode = instance + 1; keyNode < qsizetype(value.ref.offset);
             keyNode = m_tape.next(keyNode + 1), ++index) {
            if (ann->propertyEvaluated(index))
                continue;
            const std::string_view key = m_tape.string(keyNode);
            if (forbidden) {
                ok = false;
                if (verdictOnly)
                    return false;
                report(ipath, kpath, u"unevaluatedProperties",
                       Tr::tr("unexpected property %1").arg(quoted(fromUtf8(key))));
                continue;
            }
            const InstancePath child { ipath, key, -1, ipath->depth + 1 };
            if (!evaluateChild(node->unevaluatedProperties, keyNode + 1, &child, &where)) {
                ok = false;
                if (verdictOnly)
                    return false;
            }
        }
        ann->allProperties = true;
    }
    return ok;
}

// ---------------------------------------------------------------------------------------------
// Bundled meta-schemas

struct MetaDocument
{
    const char *uri;
    const char *resource;
};

constexpr MetaDocument kMetaDocuments[] = {
    { "https://json-schema.org/draft/2020-12/schema", ":/callscope/schema/metaschema/schema.json" },
    { "https://json-schema.org/draft/2020-12/meta/core",
      ":/callscope/schema/metaschema/meta/core.json" },
    { "https://json-schema.org/draft/2020-12/meta/applicator",
      ":/callscope/schema/metaschema/meta/applicator.json" },
    { "https://json-schema.org/draft/2020-12/meta/unevaluated",
      ":/callscope/schema/metaschema/meta/unevaluated.json" },
    { "https://json-schema.org/draft/2020-12/meta/validation",
      ":/callscope/schema/metaschema/meta/validation.json" },
    { "https://json-schema.org/draft/2020-12/meta/meta-data",
      ":/callscope/schema/metaschema/meta/meta-data.json" },
    { "https://json-schema.org/draft/2020-12/meta/format-annotation",
      ":/callscope/schema/metaschema/meta/format-annotation.json" },
    { "https://json-schema.org/draft/2020-12/meta/format-assertion",
      ":/callscope/schema/metaschema/meta/format-assertion.json" },
    { "https://json-schema.org/draft/2020-12/meta/content",
      ":/callscope/schema/metaschema/meta/content.json" },
    { "http://json-schema.org/draft-04/schema",
      ":/callscope/schema/metaschema/draft-04/schema.json" },
    { "http://json-schema.org/draft-06/schema",
      ":/callscope/schema/metaschema/draft-06/schema.json" },
    { "http://json-schema.org/draft-07/schema",
      ":/callscope/schema/metaschema/draft-07/schema.json" },
    { "https://json-schema.org/draft/2019-09/schema",
      ":/callscope/schema/metaschema/2019-09/schema.json" },
    { "https://json-schema.org/draft/2019-09/meta/core",
      ":/callscope/schema/metaschema/2019-09/meta/core.json" },
    { "https://json-schema.org/draft/2019-09/meta/applicator",
      ":/callscope/schema/metaschema/2019-09/meta/applicator.json" },
    { "https://json-schema.org/draft/2019-09/meta/validation",
      ":/callscope/schema/metaschema/2019-09/meta/validation.json" },
    { "https://json-schema.org/draft/2019-09/meta/meta-data",
      ":/callscope/schema/metaschema/2019-09/meta/meta-data.json" },
    { "https://json-schema.org/draft/2019-09/meta/format",
      ":/callscope/schema/metaschema/2019-09/meta/format.json" },
    { "https://json-schema.org/draft/2019-09/meta/content",
      ":/callscope/schema/metaschema/2019-09/meta/content.json" },
};

const QHash<QString, QJsonValue> &metaDocuments()
{
    static const QHash<QString, QJsonValue> documents = [] {
        initSchemaResources();
        QHash<QString, QJsonValue> out;
        for (const MetaDocument &doc : kMetaDocuments) {
            QFile file(QString::fromLatin1(doc.resource));
            if (!file.open(QIODevice::ReadOnly)) {
                qCWarning(lcSchema) << "missing bundled meta-schema" << doc.resource;
                continue;
            }
            const QJsonDocument json = QJsonDocument::fromJson(file.readAll());
            out.insert(QString::fromLatin1(doc.uri),
                       json.isObject() ? QJsonValue(json.object()) : QJsonValue());
        }
        return out;
    }();
    return documents;
}

std::optional<QJsonValue> readJsonFile(const QString &path)
{
    const std::optional<QByteArray> data = readFileBounded(path, MaxInputFileBytes, nullptr);
    if (!data)
        return std::nullopt;
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(*data, &error);
    if (error.error != QJsonParseError::NoError)
        return std::nullopt;
    if (doc.isObject())
        return QJsonValue(doc.object());
    if (doc.isArray())
        return QJsonValue(doc.array());
    return std::nullopt;
}

} // namespace

// ---------------------------------------------------------------------------------------------
// SchemaRegistry

SchemaRegistry::SchemaRegistry() = default;

void SchemaRegistry::addDocument(const QUrl &uri, const QJsonValue &document)
{
    m_documents.insert(uriKey(uri), document);
}

void SchemaRegistry::addDirectory(const QUrl &baseUri, const QString &directory)
{
    QString base = uriKey(baseUri);
    if (!base.endsWith(u'/'))
        base += u'/';
    m_directories.append({ base, directory });
}

void SchemaRegistry::setLoader(Loader loader)
{
    m_loader = std::move(loader);
}

void SchemaRegistry::setFileAccess(bool allowed)
{
    m_fileAccess = allowed;
}

std::optional<QJsonValue> SchemaRegistry::document(const QUrl &uri) const
{
    const QString key = uriKey(uri);
    if (const auto it = m_documents.constFind(key); it != m_documents.constEnd())
        return it.value();
    const auto &meta = metaDocuments();
    if (const auto it = meta.constFind(key); it != meta.constEnd())
        return it.value();
    for (const auto &[base, directory] : m_directories) {
        if (!key.startsWith(base))
            continue;
        const QString relative = QUrl::fromPercentEncoding(key.mid(base.size()).toUtf8());
        if (relative.contains(u"..") || relative.isEmpty())
            continue;
        if (auto doc = readJsonFile(QDir(directory).filePath(relative)))
            return doc;
    }
    if (m_fileAccess && uri.isLocalFile()) {
        if (auto doc = readJsonFile(uri.toLocalFile()))
            return doc;
    }
    if (m_loader)
        return m_loader(uri.adjusted(QUrl::RemoveFragment));
    return std::nullopt;
}

QUrl SchemaRegistry::metaSchemaUri()
{
    return QUrl(kDraft202012);
}

// ---------------------------------------------------------------------------------------------
// CompiledSchema / SchemaCompiler

CompiledSchema::CompiledSchema() = default;

bool CompiledSchema::isValid() const
{
    return m_data && m_compileErrors.isEmpty();
}

QList<SchemaError> CompiledSchema::compileErrors() const
{
    return m_compileErrors;
}

QString CompiledSchema::errorString() const
{
    QStringList lines;
    for (const SchemaError &error : m_compileErrors)
        lines.append((error.keywordLocation.isEmpty() ? u"(root)"_s : error.keywordLocation)
                     + u": "_s + error.message);
    if (!m_data && lines.isEmpty())
        lines.append(Tr::tr("no schema"));
    return lines.join(u'\n');
}

namespace {

// One tape per thread for QJsonValue instances: its capacity is reused by the next call.
JsonTape &scratchTape()
{
    thread_local JsonTape tape;
    tape.clear();
    return tape;
}

void releaseScratch(JsonTape &tape)
{
    // A scratch tape that held a large document gives its memory back at once.
    if (tape.nodeCount() > 65536 || tape.textBytes() > 4 * 1024 * 1024) {
        tape.clear();
        tape.shrinkToFit();
    }
}

} // namespace

SchemaValidationResult CompiledSchema::validate(const QJsonValue &instance) const
{
    JsonTape &tape = scratchTape();
    const qsizetype root = tape.appendValue(instance);
    SchemaValidationResult result = root < 0 ? validate(JsonTape(), -1) : validate(tape, root);
    releaseScratch(tape);
    return result;
}

bool CompiledSchema::accepts(const QJsonValue &instance) const
{
    JsonTape &tape = scratchTape();
    const qsizetype root = tape.appendValue(instance);
    const bool ok = root >= 0 && accepts(tape, root);
    releaseScratch(tape);
    return ok;
}

SchemaValidationResult CompiledSchema::validate(const JsonTape &tape, qsizetype root) const
{
    SchemaValidationResult result;
    if (!isValid()) {
        result.valid = false;
        result.errors = m_compileErrors;
        if (result.errors.isEmpty())
            result.errors.append({ QString(), QString(), Tr::tr("no schema"), u"$schema"_s });
        return result;
    }
    if (root < 0 || root >= tape.nodeCount()) {
        result.valid = false;
        result.errors.append(
            { QString(), QString(), Tr::tr("the instance is not a JSON document"), QString() });
        return result;
    }
    Context context;
    context.compiled = m_data.get();
    context.tape = &tape;
    context.errors = &result.errors;
    context.budget = m_data->options.stepBudget + 64 * tape.nodeCount();
    Evaluator evaluator(context);
    const InstancePath rootPath;
    result.valid = evaluator.evaluate(m_data->root, root, &rootPath, nullptr, nullptr);
    if (!context.stopped.isEmpty()) {
        // Stopped part way: what was found so far, then why it stopped.
        result.valid = false;
        result.errors.append({ QString(), QString(), context.stopped, QString() });
    }
    if (result.valid && !result.errors.isEmpty())
        result.errors.clear(); // defensive: only violations of a failing verdict are reported
    if (!result.valid && result.errors.isEmpty())
        result.errors.append(
            { QString(), QString(), Tr::tr("the value does not match the schema"), QString() });
    return result;
}

bool CompiledSchema::accepts(const JsonTape &tape, qsizetype root) const
{
    if (!isValid() || root < 0 || root >= tape.nodeCount())
        return false;
    Context context;
    context.compiled = m_data.get();
    context.tape = &tape;
    context.budget = m_data->options.stepBudget + 64 * tape.nodeCount();
    Evaluator evaluator(context);
    const InstancePath rootPath;
    return evaluator.evaluate(m_data->root, root, &rootPath, nullptr, nullptr);
}

SchemaCompiler::SchemaCompiler(const SchemaRegistry &registry, const SchemaOptions &options)
    : m_registry(registry)
    , m_options(options)
{ }

CompiledSchema SchemaCompiler::compile(const QJsonValue &schema, const QUrl &baseUri) const
{
    auto data = std::make_shared<Compiled>();
    data->options = m_options;
    Builder builder(m_registry, m_options, *data);
    data->root =
        builder.compileDocument(schema, baseUri, Reading { m_options.dialect, VAll }, true);
    builder.link();
    // Checking must stay bounded whatever the instance: a fan-out or a $ref chain that would
    // take unbounded work is refused here, before anything is validated.
    qint64 expansion = 1;
    if (builder.errors.isEmpty()) {
        if (const auto cost = findSchemaCostProblem(schema, &expansion))
            builder.errors.append({ QString(), cost->pointer, cost->message, u"$ref"_s });
    }
    // Below that the plain walk is cheaper than remembering (and allocates nothing).
    data->memoize = expansion > 64;
    for (Node &node : data->nodes) {
        data->hasDynamicRefs = data->hasDynamicRefs
            || (node.dynamicRef && !node.dynamicAnchor.isEmpty()) || node.recursiveRef;
        node.leaf = !node.isBoolean && !node.ref && !node.dynamicRef && !node.recursiveRef
            && node.allOf.empty() && node.anyOf.empty() && node.oneOf.empty() && !node.notSchema
            && !node.ifSchema && !node.thenSchema && !node.elseSchema && !node.needsOwnAnnotations
            && !node.hasObjectKeywords && !node.hasArrayKeywords;
    }
    data->constants.shrinkToFit();
    CompiledSchema out;
    out.m_compileErrors = builder.errors;
    out.m_data = std::move(data);
    return out;
}

// ---------------------------------------------------------------------------------------------

QList<SchemaError> validateSchema(const QJsonValue &schema, const SchemaRegistry &registry,
                                  const QUrl &baseUri, const SchemaOptions &options)
{
    // One compiled meta-schema per dialect, made when first needed.
    constexpr int kDialects = int(Dialect::Draft202012) + 1;
    static std::once_flag once[kDialects];
    static CompiledSchema metas[kDialects];
    Dialect dialect = options.dialect;
    if (!options.overrideDialect) {
        if (const auto declared = declaredSchemaDialect(schema))
            dialect = *declared;
    }
    const int which = int(dialect);
    std::call_once(once[which], [which] {
        SchemaOptions metaOptions;
        metaOptions.dialect = Dialect(which);
        const QUrl uri = schemaDialectUri(Dialect(which));
        metas[which] = SchemaCompiler(SchemaRegistry(), metaOptions)
                           .compile(metaDocuments().value(uriKey(uri)), uri);
        if (!metas[which].isValid())
            qCWarning(lcSchema) << "meta-schema does not compile:" << metas[which].errorString();
    });
    const CompiledSchema &meta = metas[which];
    QList<SchemaError> errors = meta.validate(schema).errors;
    if (!errors.isEmpty())
        return errors;
    // Compile errors point into the schema document, like the meta-schema violations above.
    const CompiledSchema compiled = SchemaCompiler(registry, options).compile(schema, baseUri);
    errors = compiled.compileErrors();
    for (SchemaError &error : errors)
        error.instancePath = error.keywordLocation;
    if (errors.isEmpty()) {
        // Compiles, but evaluation would loop where the cycle is reached: unusable.
        if (const auto cycle = findSchemaCycle(schema))
            errors.append(
                { cycle->pointer, cycle->pointer, schemaCycleMessage(*cycle), u"$ref"_s });
    }
    return errors;
}

QString schemaDialectName(SchemaDialect dialect)
{
    switch (dialect) {
    case Dialect::Draft4:
        return u"draft-04"_s;
    case Dialect::Draft6:
        return u"draft-06"_s;
    case Dialect::Draft7:
        return u"draft-07"_s;
    case Dialect::Draft201909:
        return u"2019-09"_s;
    case Dialect::Draft202012:
        return u"2020-12"_s;
    }
    return {};
}

std::optional<SchemaDialect> schemaDialectFromName(QStringView name)
{
    const QString text = name.trimmed().toString().toLower();
    if (text == u"draft-04" || text == u"draft4" || text == u"draft-4" || text == u"4")
        return Dialect::Draft4;
    if (text == u"draft-06" || text == u"draft6" || text == u"draft-6" || text == u"6")
        return Dialect::Draft6;
    if (text == u"draft-07" || text == u"draft7" || text == u"draft-7" || text == u"7")
        return Dialect::Draft7;
    if (text == u"2019-09" || text == u"draft2019-09" || text == u"draft-2019-09")
        return Dialect::Draft201909;
    if (text == u"2020-12" || text == u"draft2020-12" || text == u"draft-2020-12")
        return Dialect::Draft202012;
    return schemaDialectOfUri(name);
}

std::optional<SchemaDialect> schemaDialectOfUri(QStringView uri)
{
    QStringView text = uri.trimmed();
    while (text.endsWith(u'#'))
        text.chop(1);
    if (text.startsWith(u"https://"))
        text = text.mid(8);
    else if (text.startsWith(u"http://"))
        text = text.mid(7);
    else
        return std::nullopt;
    if (text == u"json-schema.org/draft-04/schema")
        return Dialect::Draft4;
    if (text == u"json-schema.org/draft-06/schema")
        return Dialect::Draft6;
    if (text == u"json-schema.org/draft-07/schema")
        return Dialect::Draft7;
    if (text == u"json-schema.org/draft/2019-09/schema")
        return Dialect::Draft201909;
    if (text == u"json-schema.org/draft/2020-12/schema")
        return Dialect::Draft202012;
    return std::nullopt;
}

QUrl schemaDialectUri(SchemaDialect dialect)
{
    switch (dialect) {
    case Dialect::Draft4:
        return QUrl(u"http://json-schema.org/draft-04/schema#"_s);
    case Dialect::Draft6:
        return QUrl(u"http://json-schema.org/draft-06/schema#"_s);
    case Dialect::Draft7:
        return QUrl(u"http://json-schema.org/draft-07/schema#"_s);
    case Dialect::Draft201909:
        return QUrl(u"https://json-schema.org/draft/2019-09/schema"_s);
    case Dialect::Draft202012:
        break;
    }
    return QUrl(kDraft202012);
}

std::optional<SchemaDialect> declaredSchemaDialect(const QJsonValue &schema)
{
    const QJsonValue declared = schema.toObject().value("$schema"_L1);
    return declared.isString() ? schemaDialectOfUri(declared.toString()) : std::nullopt;
}

void stopAllValidation()
{
    g_validationStopped.store(true, std::memory_order_relaxed);
}

bool validationStopped()
{
    return g_validationStopped.load(std::memory_order_relaxed);
}

QString formatErrorsForModel(const QList<SchemaError> &errors, int maxLines)
{
    QString text;
    const qsizetype shown = std::min<qsizetype>(errors.size(), maxLines);
    for (qsizetype i = 0; i < shown; ++i) {
        const SchemaError &error = errors.at(i);
        text += (error.instancePath.isEmpty() ? u"(root)"_s : error.instancePath) + u": "_s
            + error.message + u'\n';
    }
    if (errors.size() > shown)
        text += Tr::tr("... and %1 more").arg(errors.size() - shown) + u'\n';
    if (text.endsWith(u'\n'))
        text.chop(1);
    return text;
}

QJsonValue schemaErrorsToJson(const QList<SchemaError> &errors)
{
    QJsonArray array;
    for (const SchemaError &error : errors) {
        array.append(QJsonObject { { u"instance_path"_s, error.instancePath },
                                   { u"keyword_location"_s, error.keywordLocation },
                                   { u"message"_s, error.message } });
    }
    return array;
}

} // namespace Callscope
