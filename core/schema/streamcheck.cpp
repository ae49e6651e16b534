#include "core/schema/streamcheck.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QUrl>

#include <cctype>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Callscope::StreamCheck)
};

// The document the subschema checks refer into.
const QString kDocumentUri = u"urn:callscope:stream-check"_s;

enum Kind { ObjectKind, ArrayKind, StringKind, NumberKind, LiteralKind };

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

QString escapeToken(const QString &token)
{
    QString out = token;
    out.replace(u'~', u"~0"_s);
    out.replace(u'/', u"~1"_s);
    return out;
}

QString unescapeToken(QString token)
{
    token.replace(u"~1"_s, u"/"_s);
    token.replace(u"~0"_s, u"~"_s);
    return token;
}

QString kindName(int kind, const QByteArray &literal)
{
    switch (kind) {
    case ObjectKind:
        return Tr::tr("an object");
    case ArrayKind:
        return Tr::tr("an array");
    case StringKind:
        return Tr::tr("a string");
    case NumberKind:
        return Tr::tr("a number");
    default:
        return literal.startsWith('n') ? Tr::tr("null") : Tr::tr("a boolean");
    }
}

// Whether the JSON type name `type` admits a value that starts as `kind`.
bool typeAdmits(const QString &type, int kind, const QByteArray &literal)
{
    switch (kind) {
    case ObjectKind:
        return type == "object"_L1;
    case ArrayKind:
        return type == "array"_L1;
    case StringKind:
        return type == "string"_L1;
    case NumberKind:
        return type == "number"_L1 || type == "integer"_L1;
    default:
        return literal.startsWith('n') ? type == "null"_L1 : type == "boolean"_L1;
    }
}

// Whether a JSON value could be what a value that starts as `kind` becomes.
bool valueAdmits(const QJsonValue &value, int kind, const QByteArray &literal)
{
    switch (kind) {
    case ObjectKind:
        return value.isObject();
    case ArrayKind:
        return value.isArray();
    case StringKind:
        return value.isString();
    case NumberKind:
        return value.isDouble();
    default:
        return literal.startsWith('n') ? value.isNull() : value.isBool();
    }
}

// Any $id (or draft-04 id) below the root: a "#..." reference there means that resource, not
// the document, so references are not followed and subschemas are not checked on their own.
bool hasNestedIds(const QJsonValue &value, bool root, bool legacyIds, int depth = 0)
{
    if (depth > 256)
        return true;
    if (value.isArray()) {
        for (const QJsonValue &item : value.toArray()) {
            if (hasNestedIds(item, false, legacyIds, depth + 1))
                return true;
        }
        return false;
    }
    if (!value.isObject())
        return false;
    const QJsonObject object = value.toObject();
    if (!root
        && (object.value("$id"_L1).isString() || (legacyIds && object.value("id"_L1).isString())))
        return true;
    for (auto it = object.begin(); it != object.end(); ++it) {
        // Values of these keywords are data, not schemas.
        if (it.key() == "enum"_L1 || it.key() == "const"_L1 || it.key() == "examples"_L1
            || it.key() == "default"_L1)
            continue;
        if (hasNestedIds(it.value(), false, legacyIds, depth + 1))
            return true;
    }
    return false;
}

bool usesDynamicReferences(const QByteArray &schemaText)
{
    return schemaText.contains("\"$dynamicRef\"") || schemaText.contains("\"$recursiveRef\"");
}

void appendCodePoint(QByteArray &out, char32_t cp)
{
    out += QString::fromUcs4(&cp, 1).toUtf8();
}

} // namespace

enum class StreamCheck::Mode : quint8 {
    Value, // a value comes next
    ArrayFirst, // just after '[': a value or ']'
    ObjectFirst, // just after '{': a name or '}'
    ObjectKey, // after ',' in an object: a name
    Colon,
    InString,
    InNumber,
    InLiteral,
    AfterValue, // ',' or the closing bracket
    Done,
    Failed,
};

struct StreamCheck::Node
{
    int kind = ObjectKind;
    int parent = -1;
    QString pointer;
    QList<QString> schemas; // pointers into the schema of everything that applies for certain
    qsizetype start = 0;
    bool complete = false;
    bool invalid = false;
    QString reason;
    qsizetype invalidAt = -1;
    QList<int> children;
    QString key; // the member name in an object parent
    int members = 0; // children started (containers)
    QByteArray text; // string: decoded so far; number and literal: the spelling
    qsizetype codePoints = 0; // string: characters so far
    std::optional<qint64> maxLength; // string: the smallest maxLength that applies
    // string: for each schema that lists its values (enum, const), the values still possible
    QList<QList<QByteArray>> candidates;
    QJsonValue value; // once complete (dropped again when the parent completes)
};

StreamCheck::StreamCheck(const QJsonValue &schema, const SchemaRegistry &registry,
                         const SchemaOptions &options)
    : m_schema(schema)
    , m_registry(registry)
    , m_options(options)
    , m_mode(Mode::Value)
{
    SchemaDialect dialect = options.dialect;
    const std::optional<SchemaDialect> declared = declaredSchemaDialect(schema);
    if (declared && !options.overrideDialect)
        dialect = *declared;
    m_legacyRef = dialect <= SchemaDialect::Draft7;
    m_itemsArrayTuple = dialect <= SchemaDialect::Draft201909;
    const bool nestedIds = hasNestedIds(schema, true, dialect == SchemaDialect::Draft4);
    m_followRefs = !nestedIds;
    // Checked alone, a subschema would lose the dynamic scope of the whole, or its resource.
    // A large schema is compiled once per subschema checked: beyond this size only the cheap
    // checks run while streaming, and the whole answer is checked once it is complete.
    const QByteArray schemaText = schema.isObject()
        ? QJsonDocument(schema.toObject()).toJson(QJsonDocument::Compact)
        : QByteArray();
    m_subtreeChecks = !nestedIds && !usesDynamicReferences(schemaText)
        && schemaText.size() <= 64 * 1024
        && !(options.overrideDialect && declared && *declared != options.dialect);
    m_registry.addDocument(QUrl(kDocumentUri), schema);
    m_root = SchemaCompiler(m_registry, m_options).compile(schema, QUrl(kDocumentUri));
}

StreamCheck::~StreamCheck() = default;

QString streamFieldStateName(StreamCheck::FieldState state)
{
    switch (state) {
    case StreamCheck::FieldState::Streaming:
        return u"streaming"_s;
    case StreamCheck::FieldState::Complete:
        return u"complete"_s;
    case StreamCheck::FieldState::Invalid:
        return u"invalid"_s;
    }
    return {};
}

bool StreamCheck::append(QByteArrayView text)
{
    for (const char c : text) {
        if (m_mode == Mode::Failed)
            break;
        m_text.append(c);
        feed(c);
    }
    return canStillBeValid();
}

void StreamCheck::finish()
{
    if (m_mode == Mode::InNumber && m_current >= 0) {
        completeNode(m_current, m_text.size());
        afterValue();
    }
}

std::optional<StreamCheck::Violation> StreamCheck::firstViolation() const
{
    if (m_violations.isEmpty())
        return std::nullopt;
    return m_violations.constFirst();
}

void StreamCheck::fail(const QString &message)
{
    m_syntaxError = true;
    m_syntaxMessage = message;
    m_syntaxOffset = m_text.size() - 1;
    m_mode = Mode::Failed;
}

void StreamCheck::addViolation(int nodeIndex, const QString &pointer, const QString &keyword,
                               const QString &reason)
{
    Violation v;
    v.pointer = pointer;
    v.keyword = keyword;
    v.reason = reason;
    v.offset = m_text.size();
    m_violations.append(v);
    // The value the violation is found in, or its nearest started ancestor, is marked.
    for (int i = nodeIndex; i >= 0; i = m_nodes[size_t(i)].parent) {
        Node &node = m_nodes[size_t(i)];
        if (node.pointer == pointer || pointer.startsWith(node.pointer + u'/')
            || node.pointer.isEmpty()) {
            if (!node.invalid) {
                node.invalid = true;
                node.reason = reason;
                node.invalidAt = v.offset;
            }
            break;
        }
    }
}

void StreamCheck::feed(char c)
{
    switch (m_mode) {
    case Mode::Failed:
        return;
    case Mode::Done:
        if (!isSpace(c))
            fail(Tr::tr("there is more text after the answer"));
        return;
    case Mode::Value:
        if (!isSpace(c))
            startValue(c);
        return;
    case Mode::ArrayFirst:
        if (isSpace(c))
            return;
        if (c == ']')
            closeContainer(c);
        else
            startValue(c);
        return;
    case Mode::ObjectFirst:
    case Mode::ObjectKey:
        if (isSpace(c))
            return;
        if (c == '"') {
            m_keyString = true;
            m_key.clear();
            m_mode = Mode::InString;
        } else if (c == '}' && m_mode == Mode::ObjectFirst) {
            closeContainer(c);
        } else {
            fail(Tr::tr("a property name was expected"));
        }
        return;
    case Mode::Colon:
        if (isSpace(c))
            return;
        if (c == ':')
            m_mode = Mode::Value;
        else
            fail(Tr::tr("':' was expected after the property name"));
        return;
    case Mode::AfterValue:
        if (isSpace(c))
            return;
        if (c == ',') {
            m_mode = m_nodes[size_t(m_stack.constLast())].kind == ObjectKind ? Mode::ObjectKey
                                                                             : Mode::Value;
        } else if (c == '}' || c == ']') {
            closeContainer(c);
        } else {
            fail(Tr::tr("',' or the end of the %1 was expected")
                     .arg(m_nodes[size_t(m_stack.constLast())].kind == ObjectKind
                              ? Tr::tr("object")
                              : Tr::tr("array")));
        }
        return;
    case Mode::InNumber: {
        if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E') {
            m_nodes[size_t(m_current)].text.append(c);
            return;
        }
        completeNode(m_current, m_text.size() - 1);
        if (m_mode == Mode::Failed)
            return;
        afterValue();
        feed(c);
        return;
    }
    case Mode::InLiteral: {
        Node &node = m_nodes[size_t(m_current)];
        node.text.append(c);
        const QByteArray &t = node.text;
        if (t == "true" || t == "false" || t == "null") {
            completeNode(m_current, m_text.size());
            if (m_mode != Mode::Failed)
                afterValue();
        } else if (!QByteArray("true").startsWith(t) && !QByteArray("false").startsWith(t)
                   && !QByteArray("null").startsWith(t)) {
            fail(Tr::tr("'%1' is not a JSON value").arg(QString::fromUtf8(t)));
        }
        return;
    }
    case Mode::InString: {
        QByteArray decoded;
        if (m_escape == 1) {
            switch (c) {
            case '"':
            case '\\':
            case '/':
                decoded.append(c);
                break;
            case 'b':
                decoded.append('\b');
                break;
            case 'f':
                decoded.append('\f');
                break;
            case 'n':
                decoded.append('\n');
                break;
            case 'r':
                decoded.append('\r');
                break;
            case 't':
                decoded.append('\t');
                break;
            case 'u':
                m_escape = 2;
                m_escapeBytes.clear();
                return;
            default:
                fail(Tr::tr("'\\%1' is not a valid escape").arg(QLatin1Char(c)));
                return;
            }
            m_escape = 0;
        } else if (m_escape >= 2) {
            if (!std::isxdigit(static_cast<unsigned char>(c))) {
                fail(Tr::tr("a \\u escape needs four hexadecimal digits"));
                return;
            }
            m_escapeBytes.append(c);
            if (m_escapeBytes.size() < 4)
                return;
            m_escape = 0;
            const quint32 unit = m_escapeBytes.toUInt(nullptr, 16);
            if (unit >= 0xD800 && unit <= 0xDBFF) {
                if (m_highSurrogate)
                    appendCodePoint(decoded, 0xFFFD);
                m_highSurrogate = unit;
            } else if (unit >= 0xDC00 && unit <= 0xDFFF && m_highSurrogate) {
                appendCodePoint(decoded,
                                0x10000 + ((m_highSurrogate - 0xD800) << 10) + (unit - 0xDC00));
                m_highSurrogate = 0;
            } else {
                if (m_highSurrogate)
                    appendCodePoint(decoded, 0xFFFD);
                m_highSurrogate = 0;
                appendCodePoint(decoded, unit >= 0xDC00 && unit <= 0xDFFF ? 0xFFFD : unit);
            }
        } else if (c == '\\') {
            m_escape = 1;
            return;
        } else if (c == '"') {
            if (m_highSurrogate) {
                appendCodePoint(decoded, 0xFFFD);
                m_highSurrogate = 0;
            }
            appendDecoded(decoded);
            if (m_keyString) {
                keyDone();
            } else {
                completeNode(m_current, m_text.size());
                if (m_mode != Mode::Failed)
                    afterValue();
            }
            return;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            fail(Tr::tr("a control character inside a string"));
            return;
        } else {
            decoded.append(c);
        }
        if (m_highSurrogate && m_escape == 0 && !decoded.isEmpty() && c != '\\') {
            // A high surrogate not followed by its low half.
            QByteArray fixed;
            appendCodePoint(fixed, 0xFFFD);
            decoded.prepend(fixed);
            m_highSurrogate = 0;
        }
        appendDecoded(decoded);
        return;
    }
    }
}

int StreamCheck::newNode(int kind)
{
    Node node;
    node.kind = kind;
    node.start = m_text.size() - 1;
    if (m_stack.isEmpty()) {
        node.parent = -1;
        node.schemas = expand(QString());
    } else {
        node.parent = m_stack.constLast();
        Node &parent = m_nodes[size_t(node.parent)];
        if (parent.kind == ObjectKind) {
            node.key = m_pendingKey;
            node.pointer = parent.pointer + u'/' + escapeToken(m_pendingKey);
            node.schemas = childSchemas(parent.schemas, m_pendingKey, -1, nullptr);
        } else {
            const int index = parent.members++;
            node.pointer = parent.pointer + u'/' + QString::number(index);
            bool forbidden = false;
            node.schemas = childSchemas(parent.schemas, QString(), index, &forbidden);
        }
    }
    const int index = int(m_nodes.size());
    m_nodes.push_back(std::move(node));
    if (m_nodes[size_t(index)].parent >= 0)
        m_nodes[size_t(m_nodes[size_t(index)].parent)].children.append(index);
    return index;
}

void StreamCheck::startValue(char c)
{
    int kind;
    if (c == '{')
        kind = ObjectKind;
    else if (c == '[')
        kind = ArrayKind;
    else if (c == '"')
        kind = StringKind;
    else if (c == '-' || (c >= '0' && c <= '9'))
        kind = NumberKind;
    else if (c == 't' || c == 'f' || c == 'n')
        kind = LiteralKind;
    else {
        fail(Tr::tr("a JSON value was expected"));
        return;
    }

    const int index = newNode(kind);
    // A property already ruled out by its name.
    for (const Violation &v : std::as_const(m_violations)) {
        Node &node = m_nodes[size_t(index)];
        if (v.pointer == node.pointer && !node.invalid) {
            node.invalid = true;
            node.reason = v.reason;
            node.invalidAt = v.offset;
        }
    }
    const QByteArray literal = kind == LiteralKind ? QByteArray(1, c) : QByteArray();
    const QString pointer = m_nodes[size_t(index)].pointer;
    const int parent = m_nodes[size_t(index)].parent;

    // An array item beyond maxItems.
    if (parent >= 0 && m_nodes[size_t(parent)].kind == ArrayKind) {
        const Node &p = m_nodes[size_t(parent)];
        for (const QString &sp : p.schemas) {
            const QJsonValue limit = schemaAt(sp).toObject().value("maxItems"_L1);
            if (limit.isDouble() && p.members > limit.toDouble()) {
                addViolation(parent, p.pointer, u"maxItems"_s,
                             Tr::tr("more than %1 items").arg(limit.toDouble()));
                break;
            }
        }
    }

    bool ruledOut = false;
    for (const QString &sp : m_nodes[size_t(index)].schemas) {
        if (ruledOut)
            break;
        const QJsonValue schema = schemaAt(sp);
        if (schema.isBool()) {
            if (!schema.toBool()) {
                addViolation(index, pointer, u"false"_s,
                             parent >= 0 && m_nodes[size_t(parent)].kind == ArrayKind
                                 ? Tr::tr("this item is not allowed")
                                 : Tr::tr("no value is allowed here"));
                ruledOut = true;
            }
            continue;
        }
        const QJsonObject s = schema.toObject();
        const QJsonValue type = s.value("type"_L1);
        if (type.isString() || type.isArray()) {
            QStringList names;
            if (type.isString())
                names << type.toString();
            else
                for (const QJsonValue &t : type.toArray())
                    names << t.toString();
            bool admitted = false;
            for (const QString &name : std::as_const(names))
                admitted = admitted || typeAdmits(name, kind, literal);
            if (!admitted) {
                addViolation(index, pointer, u"type"_s,
                             Tr::tr("expected %1, got %2")
                                 .arg(names.join(u" or "_s), kindName(kind, literal)));
                ruledOut = true;
                continue;
            }
        }
        if (s.contains("const"_L1) && !valueAdmits(s.value("const"_L1), kind, literal)) {
            addViolation(
                index, pointer, u"const"_s,
                Tr::tr("%1 cannot be the value this field must have").arg(kindName(kind, literal)));
            ruledOut = true;
            continue;
        }
        const QJsonValue values = s.value("enum"_L1);
        if (values.isArray()) {
            bool any = false;
            for (const QJsonValue &v : values.toArray())
                any = any || valueAdmits(v, kind, literal);
            if (!any) {
                addViolation(
                    index, pointer, u"enum"_s,
                    Tr::tr("none of the allowed values is %1").arg(kindName(kind, literal)));
                ruledOut = true;
                continue;
            }
        }
        if (kind == StringKind) {
            Node &node = m_nodes[size_t(index)];
            const QJsonValue maxLength = s.value("maxLength"_L1);
            if (maxLength.isDouble()) {
                const qint64 limit = qint64(maxLength.toDouble());
                node.maxLength = node.maxLength ? std::min(*node.maxLength, limit) : limit;
            }
            QList<QByteArray> allowed;
            bool lists = false;
            if (s.value("const"_L1).isString()) {
                lists = true;
                allowed << s.value("const"_L1).toString().toUtf8();
            } else if (values.isArray()) {
                lists = true;
                for (const QJsonValue &v : values.toArray())
                    if (v.isString())
                        allowed << v.toString().toUtf8();
            }
            if (lists)
                node.candidates << allowed;
        }
    }

    m_current = -1;
    switch (kind) {
    case ObjectKind:
    case ArrayKind:
        m_stack.append(index);
        m_mode = kind == ObjectKind ? Mode::ObjectFirst : Mode::ArrayFirst;
        break;
    case StringKind:
        m_current = index;
        m_keyString = false;
        m_escape = 0;
        m_highSurrogate = 0;
        m_mode = Mode::InString;
        break;
    case NumberKind:
        m_current = index;
        m_nodes[size_t(index)].text = QByteArray(1, c);
        m_mode = Mode::InNumber;
        break;
    default:
        m_current = index;
        m_nodes[size_t(index)].text = QByteArray(1, c);
        m_mode = Mode::InLiteral;
        break;
    }
}

void StreamCheck::appendDecoded(const QByteArray &decoded)
{
    if (decoded.isEmpty())
        return;
    if (m_keyString) {
        m_key += decoded;
        return;
    }
    Node &node = m_nodes[size_t(m_current)];
    node.text += decoded;
    // Characters: every byte that does not continue a UTF-8 sequence starts one.
    for (const char b : decoded)
        if ((static_cast<unsigned char>(b) & 0xC0) != 0x80)
            ++node.codePoints;
    checkStringSoFar(m_current);
}

void StreamCheck::checkStringSoFar(int index)
{
    Node &node = m_nodes[size_t(index)];
    if (node.invalid)
        return;
    if (node.maxLength && node.codePoints > *node.maxLength) {
        addViolation(index, node.pointer, u"maxLength"_s,
                     Tr::tr("longer than %n characters", nullptr, int(*node.maxLength)));
        return;
    }
    for (QList<QByteArray> &allowed : node.candidates) {
        allowed.removeIf([&node](const QByteArray &value) { return !value.startsWith(node.text); });
        if (allowed.isEmpty()) {
            addViolation(index, node.pointer, u"enum"_s,
                         Tr::tr("\"%1\" is not the start of any allowed value")
                             .arg(QString::fromUtf8(node.text.left(80))));
            return;
        }
    }
}

void StreamCheck::keyDone()
{
    m_pendingKey = QString::fromUtf8(m_key);
    m_mode = Mode::Colon;
    Node &object = m_nodes[size_t(m_stack.constLast())];
    ++object.members;
    for (const QString &sp : std::as_const(object.schemas)) {
        const QJsonValue limit = schemaAt(sp).toObject().value("maxProperties"_L1);
        if (limit.isDouble() && object.members > limit.toDouble()) {
            addViolation(m_stack.constLast(), object.pointer, u"maxProperties"_s,
                         Tr::tr("more than %1 properties").arg(limit.toDouble()));
            break;
        }
    }
    bool forbidden = false;
    childSchemas(object.schemas, m_pendingKey, -1, &forbidden);
    if (forbidden)
        addViolation(m_stack.constLast(), object.pointer + u'/' + escapeToken(m_pendingKey),
                     u"additionalProperties"_s,
                     Tr::tr("the property \"%1\" is not allowed").arg(m_pendingKey));
}

void StreamCheck::closeContainer(char c)
{
    const int top = m_stack.constLast();
    const bool object = m_nodes[size_t(top)].kind == ObjectKind;
    if ((c == '}') != object) {
        fail(object ? Tr::tr("'}' was expected") : Tr::tr("']' was expected"));
        return;
    }
    m_stack.removeLast();
    completeNode(top, m_text.size());
    if (m_mode != Mode::Failed)
        afterValue();
}

void StreamCheck::afterValue()
{
    m_current = -1;
    if (m_stack.isEmpty()) {
        m_done = true;
        m_mode = Mode::Done;
    } else {
        m_mode = Mode::AfterValue;
    }
}

void StreamCheck::completeNode(int index, qsizetype end)
{
    Node &node = m_nodes[size_t(index)];
    QJsonValue value;
    switch (node.kind) {
    case StringKind:
        value = QString::fromUtf8(node.text);
        break;
    case LiteralKind:
        value =
            node.text == "null" ? QJsonValue(QJsonValue::Null) : QJsonValue(node.text == "true");
        break;
    case NumberKind: {
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson("[" + node.text + "]", &error);
        if (error.error != QJsonParseError::NoError) {
            fail(Tr::tr("'%1' is not a number").arg(QString::fromUtf8(node.text)));
            return;
        }
        value = doc.array().at(0);
        break;
    }
    default: {
        QJsonParseError error;
        const QJsonDocument doc =
            QJsonDocument::fromJson(m_text.mid(node.start, end - node.start), &error);
        if (error.error != QJsonParseError::NoError) {
            fail(error.errorString());
            return;
        }
        value = doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(doc.array());
        break;
    }
    }
    node.complete = true;
    node.value = value;
    // What the children held is in the parent's value now.
    for (const int child : std::as_const(node.children)) {
        Node &c = m_nodes[size_t(child)];
        c.value = QJsonValue();
        c.text.clear();
        c.candidates.clear();
    }

    bool alreadyInvalid = false;
    for (const Violation &v : std::as_const(m_violations))
        alreadyInvalid = alreadyInvalid || v.pointer == node.pointer
            || v.pointer.startsWith(node.pointer + u'/') || node.pointer.isEmpty();
    if (alreadyInvalid)
        return;

    if (node.parent < 0) {
        const SchemaValidationResult result = m_root.validate(value);
        if (!result.valid && !result.errors.isEmpty()) {
            const SchemaError &e = result.errors.constFirst();
            addViolation(index, e.instancePath, e.keyword, e.message);
        }
        return;
    }
    if (!m_subtreeChecks)
        return;
    for (const QString &sp : std::as_const(node.schemas)) {
        const CompiledSchema *compiled = compiledAt(sp);
        if (!compiled || compiled->accepts(value))
            continue;
        const SchemaValidationResult result = compiled->validate(value);
        if (result.errors.isEmpty())
            continue;
        const SchemaError &e = result.errors.constFirst();
        addViolation(index, node.pointer + e.instancePath, e.keyword, e.message);
        return;
    }
}

QJsonValue StreamCheck::schemaAt(const QString &pointer) const
{
    QJsonValue at = m_schema;
    if (pointer.isEmpty())
        return at;
    const QStringList tokens = pointer.mid(1).split(u'/');
    for (const QString &raw : tokens) {
        const QString token = unescapeToken(raw);
        if (at.isObject()) {
            const QJsonObject object = at.toObject();
            if (!object.contains(token))
                return QJsonValue(QJsonValue::Undefined);
            at = object.value(token);
        } else if (at.isArray()) {
            bool ok = false;
            const int i = token.toInt(&ok);
            const QJsonArray array = at.toArray();
            if (!ok || i < 0 || i >= array.size())
                return QJsonValue(QJsonValue::Undefined);
            at = array.at(i);
        } else {
            return QJsonValue(QJsonValue::Undefined);
        }
    }
    return at;
}

QList<QString> StreamCheck::expand(const QString &pointer) const
{
    QList<QString> out;
    QSet<QString> seen;
    QList<QString> work { pointer };
    while (!work.isEmpty() && out.size() < 64) {
        const QString p = work.takeFirst();
        if (seen.contains(p))
            continue;
        seen.insert(p);
        const QJsonValue schema = schemaAt(p);
        if (schema.isUndefined())
            continue;
        const QJsonObject s = schema.toObject();
        const QJsonValue ref = s.value("$ref"_L1);
        bool replaced = false;
        if (ref.isString()) {
            // Only references to a place in this document by JSON Pointer are followed.
            const QString target = ref.toString();
            if (m_followRefs && (target == "#"_L1 || target.startsWith("#/"_L1))) {
                const QString decoded = QUrl::fromPercentEncoding(target.mid(1).toUtf8());
                work.append(decoded);
            }
            replaced = m_legacyRef;
        }
        if (replaced)
            continue; // older drafts ignore what stands beside $ref
        out.append(p);
        const QJsonValue all = s.value("allOf"_L1);
        if (all.isArray()) {
            for (int i = 0; i < all.toArray().size(); ++i)
                work.append(p + u"/allOf/"_s + QString::number(i));
        }
    }
    return out;
}

QList<QString> StreamCheck::childSchemas(const QList<QString> &parent, const QString &key,
                                         int index, bool *forbidden) const
{
    QList<QString> out;
    for (const QString &p : parent) {
        const QJsonValue schema = schemaAt(p);
        if (!schema.isObject())
            continue;
        const QJsonObject s = schema.toObject();
        if (index < 0) {
            bool matched = false;
            bool uncertain = false;
            const QJsonObject properties = s.value("properties"_L1).toObject();
            if (properties.contains(key)) {
                out += expand(p + u"/properties/"_s + escapeToken(key));
                matched = true;
            }
            const QJsonObject patterns = s.value("patternProperties"_L1).toObject();
            for (auto it = patterns.begin(); it != patterns.end(); ++it) {
                const QRegularExpression re(it.key(),
                                            QRegularExpression::UseUnicodePropertiesOption);
                if (!re.isValid()) {
                    uncertain = true;
                    continue;
                }
                if (re.match(key).hasMatch()) {
                    out += expand(p + u"/patternProperties/"_s + escapeToken(it.key()));
                    matched = true;
                }
            }
            if (!matched && !uncertain && s.contains("additionalProperties"_L1))
                out += expand(p + u"/additionalProperties"_s);
        } else {
            const QJsonValue items = s.value("items"_L1);
            if (!m_itemsArrayTuple) {
                const QJsonArray prefix = s.value("prefixItems"_L1).toArray();
                if (index < prefix.size())
                    out += expand(p + u"/prefixItems/"_s + QString::number(index));
                else if (items.isObject() || items.isBool())
                    out += expand(p + u"/items"_s);
            } else if (items.isArray()) {
                if (index < items.toArray().size())
                    out += expand(p + u"/items/"_s + QString::number(index));
                else if (s.contains("additionalItems"_L1))
                    out += expand(p + u"/additionalItems"_s);
            } else if (items.isObject() || items.isBool()) {
                out += expand(p + u"/items"_s);
            }
        }
    }
    if (forbidden) {
        *forbidden = false;
        for (const QString &p : std::as_const(out)) {
            const QJsonValue schema = schemaAt(p);
            if (schema.isBool() && !schema.toBool())
                *forbidden = true;
        }
    }
    return out;
}

const CompiledSchema *StreamCheck::compiledAt(const QString &pointer)
{
    auto it = m_compiled.find(pointer);
    if (it == m_compiled.end()) {
        QByteArray fragment;
        for (const QString &token : pointer.split(u'/'))
            fragment += (fragment.isEmpty() && token.isEmpty() ? QByteArray() : "/")
                + QUrl::toPercentEncoding(token, "~");
        if (pointer.isEmpty())
            fragment.clear();
        const QString target = kDocumentUri + u"#"_s + QString::fromUtf8(fragment);
        const QJsonObject wrapper { { u"$ref"_s, target } };
        CompiledSchema compiled = SchemaCompiler(m_registry, m_options).compile(wrapper);
        it = m_compiled.insert(
            pointer, compiled.isValid() ? std::optional<CompiledSchema>(compiled) : std::nullopt);
    }
    return it->has_value() ? &**it : nullptr;
}

QList<StreamCheck::Field> StreamCheck::fields() const
{
    QList<Field> out;
    out.reserve(qsizetype(m_nodes.size()));
    for (const Node &node : m_nodes) {
        if (node.parent < 0)
            continue;
        Field f;
        f.pointer = node.pointer;
        f.state = node.invalid ? FieldState::Invalid
            : node.complete    ? FieldState::Complete
                               : FieldState::Streaming;
        f.reason = node.reason;
        f.invalidAt = node.invalidAt;
        out.append(f);
    }
    return out;
}

QJsonValue StreamCheck::snapshotOf(int index) const
{
    const Node &node = m_nodes[size_t(index)];
    if (node.complete)
        return node.value;
    switch (node.kind) {
    case StringKind:
        return QString::fromUtf8(node.text);
    case ObjectKind: {
        QJsonObject object;
        for (const int child : node.children) {
            const QJsonValue v = snapshotOf(child);
            if (!v.isUndefined())
                object.insert(m_nodes[size_t(child)].key, v);
        }
        return object;
    }
    case ArrayKind: {
        QJsonArray array;
        for (const int child : node.children) {
            const QJsonValue v = snapshotOf(child);
            if (!v.isUndefined())
                array.append(v);
        }
        return array;
    }
    default:
        return QJsonValue(QJsonValue::Undefined);
    }
}

QJsonValue StreamCheck::snapshot() const
{
    if (m_nodes.empty())
        return QJsonValue(QJsonValue::Undefined);
    return snapshotOf(0);
}

} // namespace Callscope
