#pragma once

// Maps JSON Pointers to positions in JSON text, so an error or a lint finding can move the
// editor's cursor to the spot it names. The scan is tolerant: on a syntax error it keeps what
// it mapped so far.

#include <QHash>
#include <QString>

#include <optional>

namespace Callscope {

class JsonPointerMap
{
public:
    JsonPointerMap() = default;
    explicit JsonPointerMap(QStringView text);

    // Where the value at `pointer` starts; for an object member, where its key starts.
    std::optional<qsizetype> exactPosition(const QString &pointer) const;
    // Like exactPosition, but falls back to the closest ancestor that exists (a missing field
    // points at the object that lacks it); 0 when nothing matches.
    qsizetype position(const QString &pointer) const;
    qsizetype size() const { return m_positions.size(); }

private:
    QHash<QString, qsizetype> m_positions;
};

} // namespace Callscope
