#include "core/tools/mocktoolkit.h"

#include "core/tools/commandtoolkit.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {
QString compactJson(const QJsonValue &value)
{
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    // Scalars: wrap in an array and strip the brackets, so numbers keep their JSON spelling.
    const QByteArray text = QJsonDocument(QJsonArray { value }).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(text.mid(1, text.size() - 2));
}
} // namespace

MockJob::MockJob(MockToolkit *toolkit, const ToolCall &call, QObject *parent)
    : BasicToolJob(call, parent)
    , m_toolkit(toolkit)
{ }

void MockJob::begin()
{
    if (!m_toolkit) {
        finishWithError(tr("Tool \"%1\" is no longer available.").arg(call().name));
        return;
    }
    // Answered on the next turn of the event loop (BasicToolJob queues it), like a real tool.
    finishWith(MockToolkit::resultFor(m_toolkit->takeNext(call().name)));
}

MockToolkit::MockToolkit(const QList<ToolSpec> &tools, QObject *parent)
    : Toolkit(parent)
{
    setObjectName(u"mock"_s);
    for (const ToolSpec &tool : tools) {
        if (tool.runner == ToolRunnerKind::Mock)
            m_tools.append(tool);
    }
}

QList<ToolDeclaration> MockToolkit::declarations() const
{
    QList<ToolDeclaration> result;
    for (const ToolSpec &tool : m_tools)
        result.append(declarationOf(tool));
    return result;
}

bool MockToolkit::offers(const QString &toolName) const
{
    return std::any_of(m_tools.cbegin(), m_tools.cend(),
                       [&](const ToolSpec &tool) { return tool.name == toolName; });
}

ToolJob *MockToolkit::createJob(const ToolCall &call, QObject *parent)
{
    if (!offers(call.name))
        return nullptr;
    return new MockJob(this, call, parent);
}

QJsonValue MockToolkit::takeNext(const QString &toolName)
{
    for (const ToolSpec &tool : std::as_const(m_tools)) {
        if (tool.name != toolName)
            continue;
        if (!tool.mock.isArray() || tool.mock.toArray().isEmpty())
            return tool.mock;
        const QJsonArray list = tool.mock.toArray();
        qsizetype &next = m_next[toolName];
        const QJsonValue value = list.at(qMin(next, list.size() - 1));
        ++next;
        return value;
    }
    return QJsonValue(QJsonValue::Undefined);
}

ToolResult MockToolkit::resultFor(const QJsonValue &value)
{
    ToolResult result;
    if (value.isString()) {
        result.content = value.toString();
    } else if (value.isObject() && value.toObject().size() == 1
               && value.toObject().contains(ErrorKey)) {
        const QJsonValue error = value.toObject().value(ErrorKey);
        result.content = error.isString() ? error.toString() : compactJson(error);
        result.isError = true;
    } else if (value.isUndefined()) {
        result.content = u"null"_s;
    } else {
        result.content = compactJson(value);
    }
    return result;
}

} // namespace Callscope
