#pragma once

// Checks a structured answer against its schema while it streams.
//
// The reply text (native JSON content, or the arguments of the submit_output tool) arrives in
// pieces. StreamCheck parses the pieces as they come, keeps a tree of the values seen so far,
// and says for each field whether it is still streaming, complete, or already invalid: a value
// of a type the schema does not allow, a string past maxLength, a string that is no prefix of
// any enum or const value, a property or an array item the schema forbids, too many members,
// or a completed value that its subschema rejects. A verdict of "invalid" is final: no
// continuation of the text can make the answer valid, so a caller may cut the stream there.
//
// The check is sound, never complete while streaming: it only follows what applies to a field
// for certain (properties, patternProperties, additionalProperties, items, prefixItems,
// additionalItems, local $ref and allOf). Branches (anyOf, oneOf, if/then/else), dependencies and
// unevaluated* are left to the check of the enclosing value once it is complete, and the
// complete root is checked by the full validator, so the final verdict equals validate().

#include "core/schema/jsonschema.h"

#include <QByteArray>
#include <QHash>
#include <QJsonValue>
#include <QList>
#include <QString>

#include <optional>
#include <vector>

namespace Callscope {

class StreamCheck
{
public:
    enum class FieldState : quint8 { Streaming, Complete, Invalid };

    struct Field
    {
        QString pointer; // JSON Pointer of the value in the answer ("" is the whole answer)
        FieldState state = FieldState::Streaming;
        QString reason; // why it is invalid (empty otherwise)
        qsizetype invalidAt = -1; // byte offset in the text where it became invalid
    };

    struct Violation
    {
        QString pointer;
        QString reason;
        qsizetype offset = -1; // bytes of text read when it was found
        QString keyword; // the schema keyword that rules it out ("enum", "maxLength", ...)
    };

    // `schema` is the response schema; the registry serves what it refers to.
    explicit StreamCheck(const QJsonValue &schema, const SchemaRegistry &registry = {},
                         const SchemaOptions &options = {});
    ~StreamCheck();
    StreamCheck(const StreamCheck &) = delete;
    StreamCheck &operator=(const StreamCheck &) = delete;

    // Reads the next piece of the text. Returns false once the answer can no longer be valid.
    bool append(QByteArrayView text);
    // The text ended: a number at the very end is complete now.
    void finish();

    // Where things stand.
    bool canStillBeValid() const { return m_violations.isEmpty(); }
    std::optional<Violation> firstViolation() const;
    const QList<Violation> &violations() const { return m_violations; }
    bool rootComplete() const { return m_done; }
    // The text is not JSON (from `syntaxOffset()` on); nothing after it is checked. This is not
    // a schema verdict: the reply may still be repaired, so it never counts as a violation.
    bool syntaxError() const { return m_syntaxError; }
    QString syntaxMessage() const { return m_syntaxMessage; }
    qsizetype syntaxOffset() const { return m_syntaxOffset; }
    qsizetype bytesRead() const { return m_text.size(); }

    // Every value below the root, in the order it started, with its state.
    QList<Field> fields() const;
    // What has arrived, as JSON: complete values as they are, a streaming string with the text
    // so far, open objects and arrays with what they hold; an unfinished number or literal, or a
    // property whose value has not started, is left out.
    QJsonValue snapshot() const;

private:
    struct Node;
    enum class Mode : quint8;

    void feed(char c);
    void startValue(char c);
    int newNode(int kind);
    void completeNode(int index, qsizetype end);
    void closeContainer(char c);
    void afterValue();
    void appendDecoded(const QByteArray &decoded); // to the name or string being read
    void checkStringSoFar(int index);
    void keyDone();
    void fail(const QString &message);
    void addViolation(int nodeIndex, const QString &pointer, const QString &keyword,
                      const QString &reason);

    QList<QString> expand(const QString &pointer) const;
    QList<QString> childSchemas(const QList<QString> &parent, const QString &key, int index,
                                bool *forbidden) const;
    QJsonValue schemaAt(const QString &pointer) const;
    const CompiledSchema *compiledAt(const QString &pointer);
    QJsonValue snapshotOf(int index) const;

    QJsonValue m_schema;
    SchemaRegistry m_registry;
    SchemaOptions m_options;
    bool m_legacyRef = false; // draft-04..07: $ref replaces its siblings
    bool m_itemsArrayTuple = false; // "items": [...] is a tuple (before 2020-12)
    bool m_followRefs = true; // local references are followed (no embedded resources)
    bool m_subtreeChecks = true; // off when dynamic references make subschemas context-bound
    CompiledSchema m_root;
    QHash<QString, std::optional<CompiledSchema>> m_compiled;

    QByteArray m_text;
    std::vector<Node> m_nodes;
    QList<int> m_stack; // open containers
    Mode m_mode;
    int m_current = -1; // the string, number or literal being read
    bool m_keyString = false;
    QByteArray m_key; // the member name being read, decoded
    QString m_pendingKey;
    int m_escape = 0; // inside an escape: bytes seen after the backslash
    QByteArray m_escapeBytes;
    quint32 m_highSurrogate = 0;
    bool m_done = false;
    bool m_syntaxError = false;
    QString m_syntaxMessage;
    qsizetype m_syntaxOffset = -1;
    QList<Violation> m_violations;
};

QString streamFieldStateName(StreamCheck::FieldState state);

} // namespace Callscope
