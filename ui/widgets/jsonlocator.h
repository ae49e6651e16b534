#pragma once

// Maps JSON Pointers to character ranges in JSON text, so findings can be marked where they
// are. Tolerant: it scans as far as the text is well formed.

#include <QHash>
#include <QString>

#include <optional>

namespace Callscope {

struct TextSpan
{
    int start = 0;
    int end = 0; // exclusive
};

class JsonLocator
{
public:
    explicit JsonLocator(const QString &text);

    // The span of the value at `pointer`, or of its nearest existing ancestor.
    std::optional<TextSpan> locate(const QString &pointer) const;
    bool contains(const QString &pointer) const { return m_spans.contains(pointer); }
    // Where the value at `pointer` starts; for an object member, where its key starts (a jump
    // to a finding lands on the name). Nothing when the text has no such value.
    std::optional<int> start(const QString &pointer) const;
    // Like start(), or else the start of the nearest ancestor that exists (a missing field
    // gives the object that lacks it); 0 when nothing matches.
    int nearestStart(const QString &pointer) const;

    // 1-based line and column of a character offset.
    static std::pair<int, int> lineColumn(const QString &text, int offset);

private:
    int value(int pos, const QString &pointer);
    int skipSpace(int pos) const;
    int stringEnd(int pos) const; // pos at the opening quote; returns one past the closing quote

    QString m_text;
    QHash<QString, TextSpan> m_spans;
    QHash<QString, int> m_keys; // object members: where the key starts
    int m_depth = 0;
};

} // namespace Callscope
