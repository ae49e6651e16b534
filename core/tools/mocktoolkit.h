#pragma once

// Tools with a canned result (ToolSpec::mock).
//
// The mock value is either one JSON value, returned for every call, or an array of values,
// returned one per call in the order the calls start; after the last one the last repeats.
// (So a tool that should return one array every time is written as [[...]]; an empty array
// is returned as the text "[]".) The counting is per tool and per toolkit, so each run that
// builds its own toolkits starts at the first value.
//
// How one value becomes a result:
//  - a JSON string is the content as it is;
//  - an object with the single key "$error" is an error result whose content is that key's
//    value (a string as it is, anything else as compact JSON);
//  - anything else is the content as compact JSON text.

#include "core/model/spec.h"
#include "core/tools/basictooljob.h"
#include "core/tools/toolkit.h"

#include <QHash>
#include <QPointer>

namespace Callscope {

class MockToolkit;

class MockJob final : public BasicToolJob
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MockJob)

public:
    MockJob(MockToolkit *toolkit, const ToolCall &call, QObject *parent = nullptr);

protected:
    void begin() override;

private:
    QPointer<MockToolkit> m_toolkit;
};

class MockToolkit final : public Toolkit
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MockToolkit)

public:
    static constexpr QLatin1StringView ErrorKey { "$error" };

    // Keeps the tools whose runner is Mock; others are ignored.
    explicit MockToolkit(const QList<ToolSpec> &tools, QObject *parent = nullptr);

    QList<ToolDeclaration> declarations() const override;
    bool offers(const QString &toolName) const override;
    ToolJob *createJob(const ToolCall &call, QObject *parent) override;

    // The result one mock value stands for (callId and name left empty).
    static ToolResult resultFor(const QJsonValue &value);
    // The next value of `toolName`'s list (advances the count).
    QJsonValue takeNext(const QString &toolName);

private:
    QList<ToolSpec> m_tools;
    QHash<QString, qsizetype> m_next;
};

} // namespace Callscope
