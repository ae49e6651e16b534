#include "core/model/schemacycles.h"

#include "core/model/jsonpointer.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QUrl>

#include <algorithm>
#include <vector>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

struct Edge
{
    int target = -1;
    bool inPlace = false; // evaluated at the same instance location
    bool evaluated = true; // false for $defs: only a reference makes them count
    QString pointer; // of the keyword
};

struct SchemaNode
{
    QJsonObject object;
    QString pointer;
    int resource = 0; // the node whose "$id" encloses this one (0: the document)
    std::vector<Edge> edges;
};

class Walker
{
public:
    std::vector<SchemaNode> nodes;

    void run(const QJsonValue &root)
    {
        walk(root, QString(), 0, 0);
        for (size_t i = 0; i < nodes.size(); ++i)
            addReferences(int(i));
    }

private:
    QHash<QString, int> m_byPointer;
    QHash<QString, int> m_anchors; // "<resource>#<name>"

    int walk(const QJsonValue &value, const QString &pointer, int resource, int depth)
    {
        if (!value.isObject() || depth > 512)
            return -1;
        const QJsonObject object = value.toObject();
        const int index = int(nodes.size());
        if (index > 0 && object.value("$id"_L1).isString())
            resource = index;
        nodes.push_back({ object, pointer, resource, {} });
        m_byPointer.insert(pointer, index);
        for (const auto key : { "$anchor"_L1, "$dynamicAnchor"_L1 }) {
            const QJsonValue anchor = object.value(key);
            if (anchor.isString())
                m_anchors.insert(QString::number(resource) + u'#' + anchor.toString(), index);
        }

        auto child = [&](const QJsonValue &v, const QString &where, bool inPlace, bool evaluated) {
            const int target = walk(v, where, resource, depth + 1);
            if (target >= 0)
                nodes[size_t(index)].edges.push_back({ target, inPlace, evaluated, where });
        };
        for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
            const QString key = it.key();
            const QJsonValue v = it.value();
            const QString where = JsonPointer::append(pointer, key);
            const bool inPlaceSingle =
                key == u"not" || key == u"if" || key == u"then" || key == u"else";
            if (inPlaceSingle || key == u"additionalProperties" || key == u"propertyNames"
                || key == u"contains" || key == u"unevaluatedItems"
                || key == u"unevaluatedProperties" || key == u"contentSchema"
                || key == u"additionalItems" || (key == u"items" && v.isObject())) {
                child(v, where, inPlaceSingle, true);
            } else if (key == u"allOf" || key == u"anyOf" || key == u"oneOf"
                       || key == u"prefixItems" || (key == u"items" && v.isArray())) {
                const bool inPlace = key == u"allOf" || key == u"anyOf" || key == u"oneOf";
                const QJsonArray array = v.toArray();
                for (qsizetype i = 0; i < array.size(); ++i)
                    child(array.at(i), JsonPointer::append(where, i), inPlace, true);
            } else if (key == u"properties" || key == u"patternProperties" || key == u"$defs"
                       || key == u"definitions" || key == u"dependentSchemas"
                       || key == u"dependencies") {
                const bool inPlace = key == u"dependentSchemas" || key == u"dependencies";
                const bool evaluated = key != u"$defs" && key != u"definitions";
                const QJsonObject map = v.toObject();
                for (auto m = map.constBegin(); m != map.constEnd(); ++m)
                    child(m.value(), JsonPointer::append(where, m.key()), inPlace, evaluated);
            }
        }
        return index;
    }

    void addReferences(int index)
    {
        for (const QString &key : { u"$ref"_s, u"$dynamicRef"_s }) {
            const QJsonValue ref = nodes[size_t(index)].object.value(key);
            if (!ref.isString())
                continue;
            const int target = resolve(nodes[size_t(index)].resource, ref.toString());
            if (target >= 0)
                nodes[size_t(index)].edges.push_back(
                    { target, true, true, JsonPointer::append(nodes[size_t(index)].pointer, key) });
        }
    }

    int resolve(int resource, const QString &reference) const
    {
        if (!reference.startsWith(u'#'))
            return -1; // another document: not followed here
        const QString fragment = QUrl::fromPercentEncoding(reference.mid(1).toUtf8());
        if (fragment.isEmpty())
            return resource;
        if (fragment.startsWith(u'/'))
            return m_byPointer.value(nodes[size_t(resource)].pointer + fragment, -1);
        return m_anchors.value(QString::number(resource) + u'#' + fragment, -1);
    }
};

// What evaluation can reach from the root ($defs only through a reference).
std::vector<char> reachableNodes(const std::vector<SchemaNode> &nodes)
{
    std::vector<char> reachable(nodes.size(), 0);
    if (nodes.empty())
        return reachable;
    std::vector<int> todo { 0 };
    reachable[0] = 1;
    while (!todo.empty()) {
        const int n = todo.back();
        todo.pop_back();
        for (const Edge &edge : nodes[size_t(n)].edges) {
            if (edge.evaluated && !reachable[size_t(edge.target)]) {
                reachable[size_t(edge.target)] = 1;
                todo.push_back(edge.target);
            }
        }
    }
    return reachable;
}

} // namespace

std::optional<SchemaCostProblem> findSchemaCostProblem(const QJsonValue &schema,
                                                       qint64 *maxExpansion)
{
    if (maxExpansion)
        *maxExpansion = 1;
    Walker walker;
    walker.run(schema);
    const auto &nodes = walker.nodes;
    if (nodes.empty())
        return std::nullopt;
    const std::vector<char> reachable = reachableNodes(nodes);

    // Over the in-place edges (a DAG once cycles are cut; findSchemaCycle reports those): the
    // longest chain below each node and how many evaluations of one value it unfolds to.
    std::vector<int> depth(nodes.size(), 0);
    std::vector<qint64> cost(nodes.size(), 0);
    std::vector<char> colour(nodes.size(), 0);
    struct Frame
    {
        int node;
        size_t edge;
    };
    for (size_t start = 0; start < nodes.size(); ++start) {
        if (!reachable[start] || colour[start])
            continue;
        std::vector<Frame> path { { int(start), 0 } };
        colour[start] = 1;
        while (!path.empty()) {
            Frame &top = path.back();
            const auto &edges = nodes[size_t(top.node)].edges;
            if (top.edge < edges.size()) {
                const Edge &edge = edges[top.edge++];
                if (edge.inPlace && colour[size_t(edge.target)] == 0) {
                    colour[size_t(edge.target)] = 1;
                    path.push_back({ edge.target, 0 });
                }
                continue;
            }
            const int n = top.node;
            int longest = 0;
            qint64 total = 1;
            for (const Edge &edge : edges) {
                if (!edge.inPlace || colour[size_t(edge.target)] != 2)
                    continue; // a cycle: reported by findSchemaCycle
                longest = std::max(longest, depth[size_t(edge.target)]);
                total =
                    std::min<qint64>(total + cost[size_t(edge.target)], kMaxSchemaExpansion * 1000);
            }
            depth[size_t(n)] = longest + 1;
            cost[size_t(n)] = total;
            colour[size_t(n)] = 2;
            path.pop_back();
        }
    }
    auto tr = [](const char *text) {
        return QCoreApplication::translate("SchemaCycles", text);
    };
    if (maxExpansion) {
        for (size_t i = 0; i < nodes.size(); ++i) {
            if (reachable[i])
                *maxExpansion = std::max(*maxExpansion, cost[i]);
        }
    }
    for (size_t i = 0; i < nodes.size(); ++i) {
        if (!reachable[i])
            continue;
        const QString where = nodes[i].pointer.isEmpty() ? u"#"_s : nodes[i].pointer;
        if (depth[i] > kMaxSchemaChain) {
            return SchemaCostProblem {
                nodes[i].pointer,
                tr("the schema nests $ref (or allOf/anyOf/oneOf) %1 levels deep at one place, "
                   "starting at %2; at most %3 can be checked")
                    .arg(depth[i])
                    .arg(where)
                    .arg(kMaxSchemaChain)
            };
        }
    }
    for (size_t i = 0; i < nodes.size(); ++i) {
        if (!reachable[i])
            continue;
        const QString where = nodes[i].pointer.isEmpty() ? u"#"_s : nodes[i].pointer;
        if (cost[i] > kMaxSchemaExpansion) {
            return SchemaCostProblem {
                nodes[i].pointer,
                tr("this schema is too expensive to check: from %1 its allOf/anyOf/oneOf and $ref "
                   "branches multiply to more than %2 checks of one value")
                    .arg(where)
                    .arg(kMaxSchemaExpansion)
            };
        }
    }
    return std::nullopt;
}

std::optional<SchemaCycle> findSchemaCycle(const QJsonValue &schema)
{
    Walker walker;
    walker.run(schema);
    auto &nodes = walker.nodes;
    if (nodes.empty())
        return std::nullopt;

    const std::vector<char> reachable = reachableNodes(nodes);

    // A cycle of in-place edges among those (iterative depth-first search).
    std::vector<char> colour(nodes.size(), 0); // 0 new, 1 on the path, 2 done
    struct Frame
    {
        int node;
        size_t edge;
    };
    for (size_t start = 0; start < nodes.size(); ++start) {
        if (!reachable[start] || colour[start])
            continue;
        std::vector<Frame> path { { int(start), 0 } };
        colour[start] = 1;
        while (!path.empty()) {
            Frame &top = path.back();
            const auto &edges = nodes[size_t(top.node)].edges;
            if (top.edge == edges.size()) {
                colour[size_t(top.node)] = 2;
                path.pop_back();
                continue;
            }
            const Edge &edge = edges[top.edge++];
            if (!edge.inPlace)
                continue;
            if (colour[size_t(edge.target)] == 1) {
                SchemaCycle cycle;
                cycle.pointer = edge.pointer;
                bool inCycle = false;
                for (const Frame &frame : path) {
                    inCycle = inCycle || frame.node == edge.target;
                    if (inCycle)
                        cycle.path.append(nodes[size_t(frame.node)].pointer);
                }
                cycle.path.append(nodes[size_t(edge.target)].pointer);
                return cycle;
            }
            if (colour[size_t(edge.target)] == 0) {
                colour[size_t(edge.target)] = 1;
                path.push_back({ edge.target, 0 });
            }
        }
    }
    return std::nullopt;
}

QString schemaCycleMessage(const SchemaCycle &cycle)
{
    QStringList steps;
    for (const QString &pointer : cycle.path)
        steps.append(pointer.isEmpty() ? u"#"_s : pointer);
    return QCoreApplication::translate(
               "SchemaCycles",
               "the schema refers back to itself without consuming any input "
               "(a $ref cycle: %1), so no value can ever be valid here")
        .arg(steps.join(u" -> "_s));
}

} // namespace Callscope
