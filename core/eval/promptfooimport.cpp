#include "core/eval/promptfooimport.h"

#include "core/model/boundedread.h"
#include "core/model/spec.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>

#include <yaml-cpp/yaml.h>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(PromptfooImport)
};

QString qs(const std::string &text)
{
    return QString::fromStdString(text);
}

QString pointerKey(QString key)
{
    return key.replace(u'~', u"~0"_s).replace(u'/', u"~1"_s);
}

// A plain YAML scalar as JSON: null, booleans and numbers as YAML 1.2 reads them, the rest (and
// anything quoted) as a string.
QJsonValue scalarToJson(const YAML::Node &node)
{
    const QString text = qs(node.Scalar());
    if (node.Tag() == "!")
        return text;
    static const QRegularExpression integer(u"^[-+]?[0-9]+$"_s);
    static const QRegularExpression real(
        u"^[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?$"_s);
    if (text.isEmpty() || text == u"~"_s || text.compare(u"null"_s, Qt::CaseInsensitive) == 0)
        return QJsonValue(QJsonValue::Null);
    if (text.compare(u"true"_s, Qt::CaseInsensitive) == 0)
        return true;
    if (text.compare(u"false"_s, Qt::CaseInsensitive) == 0)
        return false;
    if (integer.match(text).hasMatch())
        return QJsonValue(text.toLongLong());
    if (real.match(text).hasMatch())
        return text.toDouble();
    return text;
}

QJsonValue toJson(const YAML::Node &node)
{
    if (node.IsMap()) {
        QJsonObject object;
        for (auto it = node.begin(); it != node.end(); ++it)
            object.insert(qs(it->first.Scalar()), toJson(it->second));
        return object;
    }
    if (node.IsSequence()) {
        QJsonArray array;
        for (const YAML::Node &item : node)
            array.append(toJson(item));
        return array;
    }
    if (node.IsScalar())
        return scalarToJson(node);
    return QJsonValue(QJsonValue::Null);
}

// Where a place is: the file's name and the line a node's mark counts from.
struct Source
{
    QString fileName;
    int lineBase = 0; // added to the node's 0-based line (a JSONL or CSV line's own number - 1)
};

struct Prompt
{
    QString label;
    QString system;
    QString input;
};

struct Provider
{
    QString label;
    QJsonObject engine;
};

// A CSV file's records (RFC 4180: quoted fields may hold commas, quotes and newlines), each with
// the line it starts on.
QList<std::pair<int, QStringList>> readCsv(const QString &text, bool *ok)
{
    QList<std::pair<int, QStringList>> records;
    QStringList fields;
    QString field;
    bool quoted = false;
    bool any = false;
    int line = 1;
    int recordLine = 1;
    *ok = true;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (quoted) {
            if (c == u'"' && i + 1 < text.size() && text.at(i + 1) == u'"') {
                field += u'"';
                ++i;
            } else if (c == u'"') {
                quoted = false;
            } else {
                if (c == u'\n')
                    ++line;
                field += c;
            }
            continue;
        }
        if (c == u'"' && field.isEmpty()) {
            quoted = true;
            any = true;
        } else if (c == u',') {
            fields.append(field);
            field.clear();
            any = true;
        } else if (c == u'\n' || c == u'\r') {
            if (c == u'\r' && i + 1 < text.size() && text.at(i + 1) == u'\n')
                ++i;
            if (any || !field.isEmpty()) {
                fields.append(field);
                records.append({ recordLine, fields });
            }
            fields.clear();
            field.clear();
            any = false;
            ++line;
            recordLine = line;
        } else {
            field += c;
            any = true;
        }
    }
    if (quoted)
        *ok = false;
    if (any || !field.isEmpty()) {
        fields.append(field);
        records.append({ recordLine, fields });
    }
    return records;
}

class Converter
{
public:
    explicit Converter(const QString &path)
        : m_path(path)
        , m_dir(QFileInfo(path).absoluteDir())
        , m_main { QFileInfo(path).fileName(), 0 }
    { }

    PromptfooConversion run();

private:
    QString place(const Source &source, const YAML::Node &node, const QString &pointer) const
    {
        const int line = node.Mark().is_null() ? 0 : node.Mark().line;
        return u"%1:%2 %3"_s.arg(source.fileName)
            .arg(source.lineBase + line + 1)
            .arg(pointer.isEmpty() ? u"/"_s : pointer);
    }
    void unsupported(const Source &source, const YAML::Node &node, const QString &pointer,
                     const QString &reason)
    {
        m_result.unsupported.append({ place(source, node, pointer), reason });
    }
    void error(const Source &source, const YAML::Node &node, const QString &pointer,
               const QString &message)
    {
        m_result.errors.append({ place(source, node, pointer), message });
    }

    std::optional<QByteArray> readReferenced(const QString &reference, const Source &source,
                                             const YAML::Node &node, const QString &pointer,
                                             QString *absolute);
    void readPrompts(const YAML::Node &node);
    void readPrompt(const YAML::Node &node, const QString &pointer, const QString &label);
    void addPromptText(const QString &text, const QString &label, const YAML::Node &node,
                       const QString &pointer, const Source &source);
    void addChat(const QJsonArray &messages, const QString &label, const YAML::Node &node,
                 const QString &pointer, const Source &source);
    bool templateIsPlain(const QString &text, const YAML::Node &node, const QString &pointer,
                         const Source &source);
    void readProviders(const YAML::Node &node);
    std::optional<QJsonObject> engineFor(const QString &id, const YAML::Node &config,
                                         const Source &source, const YAML::Node &node,
                                         const QString &pointer);
    std::optional<QJsonObject> graderFrom(const YAML::Node &node, const Source &source,
                                          const QString &pointer);
    void readDefaultTest(const YAML::Node &node);
    void readTests(const YAML::Node &node);
    void readTestsFile(const QString &reference, const YAML::Node &node, const QString &pointer);
    void readTest(const YAML::Node &node, const Source &source, const QString &pointer);
    void addRow(QJsonObject row, const QString &description);
    std::optional<QJsonValue> readVar(const YAML::Node &value, const Source &source,
                                      const QString &pointer);
    QJsonArray readAssertions(const YAML::Node &node, const Source &source, const QString &pointer,
                              const std::optional<QJsonObject> &grader);
    std::optional<QJsonObject> readAssertion(const YAML::Node &node, const Source &source,
                                             const QString &pointer,
                                             const std::optional<QJsonObject> &grader);
    QJsonObject graderOr(const std::optional<QJsonObject> &grader) const;

    QString m_path;
    QDir m_dir;
    Source m_main;
    PromptfooConversion m_result;
    QList<Prompt> m_prompts;
    QList<Provider> m_providers;
    QJsonObject m_defaultVars;
    QString m_defaultTransform;
    std::optional<QJsonObject> m_defaultGrader;
    QJsonArray m_defaultAsserts;
    QJsonArray m_rows;
    QSet<QString> m_ids;
    int m_testCount = 0;
};

std::optional<QByteArray> Converter::readReferenced(const QString &reference, const Source &source,
                                                    const YAML::Node &node, const QString &pointer,
                                                    QString *absolute)
{
    QString relative = reference;
    if (relative.startsWith(u"file://"_s))
        relative = relative.mid(7);
    *absolute = m_dir.absoluteFilePath(relative);
    QString readError;
    const auto bytes = readFileBounded(*absolute, MaxSpecFileBytes, &readError);
    if (!bytes)
        error(source, node, pointer, readError);
    return bytes;
}

bool Converter::templateIsPlain(const QString &text, const YAML::Node &node, const QString &pointer,
                                const Source &source)
{
    // Callscope fills {{name}}; Nunjucks tags, filters and paths into objects it does not run.
    static const QRegularExpression placeholder(u"\\{\\{(.*?)\\}\\}"_s);
    static const QRegularExpression plainName(u"^\\s*[A-Za-z0-9_-]+\\s*$"_s);
    bool plain = !text.contains(u"{%"_s) && !text.contains(u"{#"_s);
    for (auto it = placeholder.globalMatch(text); plain && it.hasNext();)
        plain = plainName.match(it.next().captured(1)).hasMatch();
    if (!plain)
        unsupported(source, node, pointer,
                    Tr::tr("the prompt uses Nunjucks beyond {{name}} (tags, filters or "
                           "paths); Callscope fills plain {{name}} placeholders only"));
    return plain;
}

void Converter::addPromptText(const QString &text, const QString &label, const YAML::Node &node,
                              const QString &pointer, const Source &source)
{
    // A prompt whose text is a JSON array of messages is a chat prompt.
    if (text.trimmed().startsWith(u'[')) {
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8(), &parseError);
        if (parseError.error == QJsonParseError::NoError && doc.isArray()) {
            addChat(doc.array(), label, node, pointer, source);
            return;
        }
    }
    if (!templateIsPlain(text, node, pointer, source))
        return;
    m_prompts.append({ label, QString(), text });
}

void Converter::addChat(const QJsonArray &messages, const QString &label, const YAML::Node &node,
                        const QString &pointer, const Source &source)
{
    QStringList system;
    QStringList user;
    for (qsizetype i = 0; i < messages.size(); ++i) {
        const QJsonObject message = messages.at(i).toObject();
        const QString role = message.value(u"role"_s).toString();
        const QJsonValue content = message.value(u"content"_s);
        if (!content.isString()) {
            unsupported(source, node, pointer + u'/' + QString::number(i),
                        Tr::tr("a message whose content is not text (images, parts); Callscope "
                               "takes a chat prompt's messages as text"));
            return;
        }
        if (role == u"system"_s || role == u"developer"_s) {
            system.append(content.toString());
        } else if (role == u"user"_s && user.isEmpty()) {
            user.append(content.toString());
        } else {
            unsupported(source, node, pointer + u'/' + QString::number(i),
                        Tr::tr("a chat prompt with earlier turns (role \"%1\"); a Callscope call "
                               "starts from a system prompt and one user message")
                            .arg(role));
            return;
        }
    }
    if (user.isEmpty()) {
        unsupported(source, node, pointer, Tr::tr("a chat prompt without a user message"));
        return;
    }
    const QString systemText = system.join(u"\n\n"_s);
    if (!templateIsPlain(systemText + user.first(), node, pointer, source))
        return;
    m_prompts.append({ label, systemText, user.first() });
}

void Converter::readPrompt(const YAML::Node &node, const QString &pointer, const QString &label)
{
    const QString fallback = Tr::tr("prompt %1").arg(m_prompts.size() + 1);
    QString reference;
    QString text;
    QString name = label;
    if (node.IsScalar()) {
        const QString value = qs(node.Scalar());
        if (value.startsWith(u"file://"_s))
            reference = value;
        else
            text = value;
    } else if (node.IsMap()) {
        for (auto it = node.begin(); it != node.end(); ++it) {
            const QString key = qs(it->first.Scalar());
            if (key == u"id"_s && it->second.IsScalar())
                reference = qs(it->second.Scalar());
            else if (key == u"raw"_s && it->second.IsScalar())
                text = qs(it->second.Scalar());
            else if (key == u"label"_s && it->second.IsScalar())
                name = qs(it->second.Scalar());
            else
                unsupported(m_main, it->second, pointer + u'/' + pointerKey(key),
                            Tr::tr("a prompt option Callscope has no counterpart for"));
        }
        if (!reference.isEmpty() && !reference.startsWith(u"file://"_s)) {
            text = reference;
            reference.clear();
        }
    } else {
        error(m_main, node, pointer, Tr::tr("a prompt is a string, a file:// path or a map"));
        return;
    }
    if (reference.isEmpty()) {
        addPromptText(text, name.isEmpty() ? fallback : name, node, pointer, m_main);
        return;
    }
    const QString fileName = QFileInfo(reference.mid(7).section(u':', 0, 0)).fileName();
    const QString suffix = QFileInfo(fileName).suffix().toLower();
    if (reference.contains(u'*')) {
        unsupported(m_main, node, pointer,
                    Tr::tr("a glob of prompt files; name each file (Callscope reads named files)"));
        return;
    }
    static const QSet<QString> programs { u"js"_s, u"cjs"_s, u"mjs"_s, u"ts"_s, u"py"_s };
    if (programs.contains(suffix)) {
        unsupported(m_main, node, pointer,
                    Tr::tr("a prompt written as a program (.%1) builds its messages by running "
                           "code; Callscope runs no prompt programs")
                        .arg(suffix));
        return;
    }
    QString absolute;
    const auto bytes = readReferenced(reference, m_main, node, pointer, &absolute);
    if (!bytes)
        return;
    const Source source { fileName, 0 };
    if (name.isEmpty())
        name = fileName;
    if (suffix == u"json"_s) {
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(*bytes, &parseError);
        if (parseError.error != QJsonParseError::NoError || !doc.isArray()) {
            error(m_main, node, pointer,
                  Tr::tr("%1 is not a JSON array of messages: %2")
                      .arg(fileName, parseError.errorString()));
            return;
        }
        addChat(doc.array(), name, node, pointer, m_main);
        return;
    }
    if (suffix == u"yaml"_s || suffix == u"yml"_s) {
        const YAML::Node messages = YAML::Load(bytes->toStdString());
        if (!messages.IsSequence()) {
            error(source, messages, QString(), Tr::tr("a chat prompt file is a list of messages"));
            return;
        }
        addChat(toJson(messages).toArray(), name, node, pointer, m_main);
        return;
    }
    // A text file may hold several prompts, separated by a line of three dashes.
    static const QRegularExpression separator(u"\\r?\\n---\\r?\\n"_s);
    const QStringList parts = QString::fromUtf8(*bytes).split(separator);
    for (qsizetype i = 0; i < parts.size(); ++i) {
        const QString partLabel = parts.size() == 1 ? name : u"%1 #%2"_s.arg(name).arg(i + 1);
        addPromptText(parts.at(i).trimmed(), partLabel, node, pointer, source);
    }
}

void Converter::readPrompts(const YAML::Node &node)
{
    if (node.IsSequence()) {
        for (std::size_t i = 0; i < node.size(); ++i)
            readPrompt(node[i], u"/prompts/"_s + QString::number(i), QString());
    } else if (node.IsMap()) {
        // promptfoo's older form: {file://prompt.txt: label}
        for (auto it = node.begin(); it != node.end(); ++it)
            readPrompt(it->first, u"/prompts/"_s + pointerKey(qs(it->first.Scalar())),
                       it->second.IsScalar() ? qs(it->second.Scalar()) : QString());
    } else {
        readPrompt(node, u"/prompts"_s, QString());
    }
}

std::optional<QJsonObject> Converter::engineFor(const QString &id, const YAML::Node &config,
                                                const Source &source, const YAML::Node &node,
                                                const QString &pointer)
{
    const QStringList parts = id.split(u':');
    const QString vendor = parts.value(0);
    const QString second = parts.value(1);
    QString model = parts.mid(1).join(u':');
    std::optional<EngineType> type;
    QString keyEnv;
    static const QSet<QString> openAiOther { u"completion"_s, u"embedding"_s,     u"embeddings"_s,
                                             u"assistant"_s,  u"image"_s,         u"realtime"_s,
                                             u"moderation"_s, u"transcription"_s, u"chatkit"_s,
                                             u"agents"_s };
    if (vendor == u"openai"_s && !openAiOther.contains(second)) {
        type = second == u"responses"_s ? EngineType::OpenAIResponses : EngineType::OpenAI;
        if (second == u"chat"_s || second == u"responses"_s)
            model = parts.mid(2).join(u':');
        keyEnv = u"OPENAI_API_KEY"_s;
    } else if (vendor == u"anthropic"_s && second != u"completion"_s) {
        type = EngineType::Anthropic;
        if (second == u"messages"_s)
            model = parts.mid(2).join(u':');
        keyEnv = u"ANTHROPIC_API_KEY"_s;
    } else if ((vendor == u"google"_s || vendor == u"vertex"_s) && second != u"embedding"_s) {
        type = EngineType::Gemini;
        keyEnv = vendor == u"google"_s ? u"GOOGLE_API_KEY"_s : u"VERTEX_API_KEY"_s;
    }
    if (!type) {
        unsupported(source, node, pointer,
                    Tr::tr("no Callscope engine for the provider \"%1\" (Callscope speaks "
                           "openai:chat, openai:responses, anthropic:messages, google and vertex)")
                        .arg(id));
        return std::nullopt;
    }
    if (model.isEmpty()) {
        error(source, node, pointer, Tr::tr("the provider \"%1\" names no model").arg(id));
        return std::nullopt;
    }
    QJsonObject engine { { u"type"_s, engineTypeName(*type) },
                         { u"model"_s, model },
                         { u"api_key_env"_s, keyEnv } };
    if (!config.IsDefined() || config.IsNull())
        return engine;
    if (!config.IsMap()) {
        error(source, config, pointer + u"/config"_s, Tr::tr("\"config\" is a map of options"));
        return std::nullopt;
    }
    for (auto it = config.begin(); it != config.end(); ++it) {
        const QString key = qs(it->first.Scalar());
        const QString at = pointer + u"/config/"_s + pointerKey(key);
        const QJsonValue value = toJson(it->second);
        if (key == u"apiBaseUrl"_s && value.isString()) {
            engine.insert(u"base_url"_s, value);
        } else if (key == u"apiHost"_s && value.isString()) {
            engine.insert(u"base_url"_s, QString(u"https://"_s + value.toString()));
        } else if (key == u"apiKeyEnvar"_s && value.isString()) {
            engine.insert(u"api_key_env"_s, value);
        } else if (key == u"temperature"_s && value.isDouble()) {
            engine.insert(u"temperature"_s, value);
        } else if ((key == u"max_tokens"_s || key == u"max_output_tokens"_s
                    || key == u"maxOutputTokens"_s)
                   && value.isDouble()) {
            engine.insert(u"max_tokens"_s, value.toInteger());
        } else if (key == u"generationConfig"_s && value.isObject()) {
            const QJsonObject generation = value.toObject();
            for (auto g = generation.begin(); g != generation.end(); ++g) {
                if (g.key() == u"temperature"_s)
                    engine.insert(u"temperature"_s, g.value());
                else if (g.key() == u"maxOutputTokens"_s)
                    engine.insert(u"max_tokens"_s, g.value().toInteger());
                else
                    unsupported(source, it->second, at + u'/' + pointerKey(g.key()),
                                Tr::tr("a provider option a Callscope engine has no "
                                       "counterpart for"));
            }
        } else {
            unsupported(source, it->second, at,
                        Tr::tr("a provider option a Callscope engine has no counterpart for"));
        }
    }
    return engine;
}

void Converter::readProviders(const YAML::Node &node)
{
    const auto one = [this](const YAML::Node &item, const QString &pointer) {
        QString id;
        QString label;
        YAML::Node config;
        if (item.IsScalar()) {
            id = qs(item.Scalar());
        } else if (item.IsMap() && item["id"]) {
            for (auto it = item.begin(); it != item.end(); ++it) {
                const QString key = qs(it->first.Scalar());
                if (key == u"id"_s)
                    id = qs(it->second.Scalar());
                else if (key == u"label"_s)
                    label = qs(it->second.Scalar());
                else if (key == u"config"_s)
                    config = it->second;
                else
                    unsupported(m_main, it->second, pointer + u'/' + pointerKey(key),
                                Tr::tr("a provider setting Callscope has no counterpart for"));
            }
        } else if (item.IsMap() && item.size() == 1) {
            // {openai:chat:gpt-4.1: {config: ...}}
            const auto entry = item.begin();
            id = qs(entry->first.Scalar());
            if (entry->second.IsMap()) {
                label = entry->second["label"] ? qs(entry->second["label"].Scalar()) : QString();
                config = entry->second["config"];
            }
        } else {
            error(m_main, item, pointer, Tr::tr("a provider is an id or a map with \"id\""));
            return;
        }
        if (const auto engine = engineFor(id, config, m_main, item, pointer))
            m_providers.append({ label.isEmpty() ? id : label, *engine });
    };
    if (node.IsSequence()) {
        for (std::size_t i = 0; i < node.size(); ++i)
            one(node[i], u"/providers/"_s + QString::number(i));
    } else {
        one(node, u"/providers"_s);
    }
}

std::optional<QJsonObject> Converter::graderFrom(const YAML::Node &node, const Source &source,
                                                 const QString &pointer)
{
    if (node.IsScalar())
        return engineFor(qs(node.Scalar()), YAML::Node(), source, node, pointer);
    if (node.IsMap() && node["id"])
        return engineFor(qs(node["id"].Scalar()), node["config"], source, node, pointer);
    unsupported(source, node, pointer, Tr::tr("a grading provider Callscope cannot read"));
    return std::nullopt;
}

QJsonObject Converter::graderOr(const std::optional<QJsonObject> &grader) const
{
    if (grader)
        return *grader;
    if (m_defaultGrader)
        return *m_defaultGrader;
    return m_providers.isEmpty() ? QJsonObject() : m_providers.first().engine;
}

std::optional<QJsonObject> Converter::readAssertion(const YAML::Node &node, const Source &source,
                                                    const QString &pointer,
                                                    const std::optional<QJsonObject> &grader)
{
    if (!node.IsMap() || !node["type"] || !node["type"].IsScalar()) {
        error(source, node, pointer, Tr::tr("an assertion is a map with a \"type\""));
        return std::nullopt;
    }
    const QString type = qs(node["type"].Scalar());
    const bool negate = type.startsWith(u"not-"_s);
    const QString base = negate ? type.mid(4) : type;
    const YAML::Node value = node["value"];
    const QString text = value && value.IsScalar() ? qs(value.Scalar()) : QString();
    const QString valueAt = pointer + u"/value"_s;

    static const QSet<QString> python { u"python"_s };
    static const QSet<QString> embeddings { u"similar"_s, u"similar:cosine"_s, u"similar:dot"_s,
                                            u"similar:euclidean"_s };
    if (python.contains(base)) {
        unsupported(source, node, pointer,
                    Tr::tr("a Python assertion runs Python; Callscope runs no Python in its checks "
                           "(write it as javascript, or as a command assertion)"));
        return std::nullopt;
    }
    if (embeddings.contains(base)) {
        unsupported(
            source, node, pointer,
            Tr::tr("\"%1\" compares embeddings, and Callscope has no embeddings engine").arg(type));
        return std::nullopt;
    }

    QJsonObject out { { u"name"_s, type } };
    bool takesThreshold = false;
    const auto escapedList = [&]() -> std::optional<QStringList> {
        QStringList items;
        if (value && value.IsSequence()) {
            for (const YAML::Node &item : value)
                items.append(QRegularExpression::escape(qs(item.Scalar())));
        } else if (!text.isEmpty()) {
            for (const QString &item : text.split(u','))
                items.append(QRegularExpression::escape(item.trimmed()));
        }
        if (items.isEmpty()) {
            error(source, node, valueAt, Tr::tr("needs a list of values"));
            return std::nullopt;
        }
        return items;
    };
    const auto needText = [&]() {
        if (value && value.IsScalar())
            return true;
        error(source, node, valueAt, Tr::tr("needs a \"value\""));
        return false;
    };
    const auto schemaFrom = [&]() -> std::optional<QJsonValue> {
        if (!value || value.IsNull())
            return QJsonValue(QJsonValue::Undefined);
        if (value.IsMap())
            return toJson(value);
        if (value.IsScalar() && text.startsWith(u"file://"_s)) {
            QString absolute;
            const auto bytes = readReferenced(text, source, value, valueAt, &absolute);
            if (!bytes)
                return std::nullopt;
            if (absolute.endsWith(u".json"_s, Qt::CaseInsensitive))
                return QJsonValue(QJsonDocument::fromJson(*bytes).object());
            return toJson(YAML::Load(bytes->toStdString()));
        }
        error(source, value, valueAt, Tr::tr("a schema is a map or a file:// path"));
        return std::nullopt;
    };

    if (base == u"equals"_s) {
        if (!value) {
            error(source, node, valueAt, Tr::tr("needs a \"value\""));
            return std::nullopt;
        }
        out.insert(u"type"_s, u"equals"_s);
        out.insert(u"pointer"_s, QString());
        if (value.IsScalar()) {
            out.insert(u"value"_s, text);
        } else {
            // An object or a list is compared with the output read as JSON.
            if (node["transform"]) {
                unsupported(source, node["transform"], pointer + u"/transform"_s,
                            Tr::tr("a transform on an equals with a JSON value"));
                return std::nullopt;
            }
            out.insert(u"value"_s, toJson(value));
            out.insert(u"transform"_s, u"JSON.parse(output)"_s);
        }
    } else if (base == u"contains"_s) {
        if (!needText())
            return std::nullopt;
        out.insert(u"type"_s, u"contains"_s);
        out.insert(u"pointer"_s, QString());
        out.insert(u"value"_s, text);
    } else if (base == u"icontains"_s || base == u"starts-with"_s || base == u"regex"_s) {
        if (!needText())
            return std::nullopt;
        out.insert(u"type"_s, u"regex"_s);
        out.insert(u"pointer"_s, QString());
        out.insert(u"pattern"_s,
                   base == u"regex"_s           ? text
                       : base == u"icontains"_s ? u"(?i)"_s + QRegularExpression::escape(text)
                                                : u"\\A"_s + QRegularExpression::escape(text));
    } else if (base == u"contains-any"_s || base == u"icontains-any"_s || base == u"contains-all"_s
               || base == u"icontains-all"_s) {
        const auto items = escapedList();
        if (!items)
            return std::nullopt;
        const QString flags = base.startsWith(u'i') ? u"(?i)"_s : QString();
        QString pattern;
        if (base.endsWith(u"any"_s)) {
            pattern = flags + u"(?:"_s + items->join(u'|') + u')';
        } else {
            pattern = flags + u"\\A"_s;
            for (const QString &item : *items)
                pattern += u"(?=[\\s\\S]*?"_s + item + u')';
        }
        out.insert(u"type"_s, u"regex"_s);
        out.insert(u"pointer"_s, QString());
        out.insert(u"pattern"_s, pattern);
    } else if (base == u"is-json"_s || base == u"contains-json"_s) {
        const auto schema = schemaFrom();
        if (!schema)
            return std::nullopt;
        out.insert(u"type"_s, base == u"is-json"_s ? u"is_json"_s : u"contains_json"_s);
        if (!schema->isUndefined())
            out.insert(u"schema"_s, *schema);
    } else if (base == u"javascript"_s) {
        if (!needText())
            return std::nullopt;
        if (text.startsWith(u"file://"_s)) {
            unsupported(source, value, valueAt,
                        Tr::tr("a JavaScript file needs Node.js modules; Callscope runs inline "
                               "scripts only (paste the function body as the value)"));
            return std::nullopt;
        }
        out.insert(u"type"_s, u"javascript"_s);
        out.insert(u"value"_s, text);
        takesThreshold = true;
    } else if (base == u"llm-rubric"_s) {
        if (!needText())
            return std::nullopt;
        std::optional<QJsonObject> engine = grader;
        if (node["provider"]) {
            engine = graderFrom(node["provider"], source, pointer + u"/provider"_s);
            if (!engine)
                return std::nullopt;
        }
        out.insert(u"type"_s, u"judge"_s);
        out.insert(u"rubric"_s, text);
        out.insert(u"engine"_s, graderOr(engine));
        if (node["threshold"])
            out.insert(u"pass_score"_s, toJson(node["threshold"]));
    } else if (base == u"cost"_s || base == u"latency"_s) {
        if (!node["threshold"] || !toJson(node["threshold"]).isDouble()) {
            error(source, node, pointer + u"/threshold"_s, Tr::tr("needs a number \"threshold\""));
            return std::nullopt;
        }
        out.insert(u"type"_s, base == u"cost"_s ? u"max_cost_usd"_s : u"max_latency_ms"_s);
        out.insert(u"value"_s, toJson(node["threshold"]));
    } else {
        unsupported(source, node, pointer + u"/type"_s,
                    Tr::tr("the assertion type \"%1\" has no Callscope check").arg(type));
        return std::nullopt;
    }
    if (negate)
        out.insert(u"not"_s, true);

    for (auto it = node.begin(); it != node.end(); ++it) {
        const QString key = qs(it->first.Scalar());
        const QString at = pointer + u'/' + pointerKey(key);
        if (key == u"type"_s || key == u"value"_s)
            continue;
        if (key == u"weight"_s) {
            const QJsonValue weight = toJson(it->second);
            if (!weight.isDouble() || weight.toDouble() < 0) {
                error(source, it->second, at, Tr::tr("must be a number, 0 or more"));
                return std::nullopt;
            }
            out.insert(u"weight"_s, weight);
        } else if (key == u"metric"_s) {
            out.insert(u"name"_s, qs(it->second.Scalar()));
        } else if (key == u"transform"_s && !out.contains(u"transform"_s)) {
            const QString script = qs(it->second.Scalar());
            if (script.startsWith(u"file://"_s)) {
                unsupported(source, it->second, at,
                            Tr::tr("a transform file; Callscope runs inline scripts only"));
                return std::nullopt;
            }
            out.insert(u"transform"_s, script);
        } else if (key == u"threshold"_s) {
            if (takesThreshold) {
                out.insert(u"threshold"_s, toJson(it->second));
            } else if (base != u"llm-rubric"_s && base != u"cost"_s && base != u"latency"_s) {
                unsupported(
                    source, it->second, at,
                    Tr::tr("a threshold on \"%1\", which passes or fails as a whole").arg(type));
                return std::nullopt;
            }
        } else if (key == u"provider"_s && base == u"llm-rubric"_s) {
            continue;
        } else {
            unsupported(source, it->second, at,
                        Tr::tr("an assertion option Callscope has no counterpart for"));
            return std::nullopt;
        }
    }
    return out;
}

QJsonArray Converter::readAssertions(const YAML::Node &node, const Source &source,
                                     const QString &pointer,
                                     const std::optional<QJsonObject> &grader)
{
    QJsonArray out;
    if (!node.IsSequence()) {
        error(source, node, pointer, Tr::tr("must be a list of assertions"));
        return out;
    }
    for (std::size_t i = 0; i < node.size(); ++i) {
        const QString at = pointer + u'/' + QString::number(i);
        if (node[i].IsMap() && node[i]["type"] && qs(node[i]["type"].Scalar()) == u"assert-set"_s) {
            unsupported(source, node[i], at,
                        Tr::tr("an assert-set passes on a share of its checks; list the checks "
                               "one by one"));
            continue;
        }
        if (const auto a = readAssertion(node[i], source, at, grader))
            out.append(*a);
    }
    return out;
}

std::optional<QJsonValue> Converter::readVar(const YAML::Node &value, const Source &source,
                                             const QString &pointer)
{
    if (value.IsSequence()) {
        unsupported(source, value, pointer,
                    Tr::tr("a list of values runs the test once per value in promptfoo; write "
                           "one test per value"));
        return std::nullopt;
    }
    if (value.IsScalar() && value.Tag() != "!" && qs(value.Scalar()).startsWith(u"file://"_s)) {
        const QString reference = qs(value.Scalar());
        const QString suffix = QFileInfo(reference).suffix().toLower();
        if (suffix == u"py"_s || suffix == u"js"_s || suffix == u"mjs"_s || suffix == u"cjs"_s) {
            unsupported(source, value, pointer,
                        Tr::tr("a var computed by a program; Callscope reads text files only"));
            return std::nullopt;
        }
        QString absolute;
        const auto bytes = readReferenced(reference, source, value, pointer, &absolute);
        if (!bytes)
            return std::nullopt;
        return QString::fromUtf8(*bytes);
    }
    return toJson(value);
}

void Converter::addRow(QJsonObject row, const QString &description)
{
    ++m_testCount;
    QString id = description.trimmed();
    if (id.isEmpty() || m_ids.contains(id))
        id = u"test-%1"_s.arg(m_testCount);
    m_ids.insert(id);
    row.insert(u"id"_s, id);
    if (!row.contains(u"transform"_s) && !m_defaultTransform.isEmpty())
        row.insert(u"transform"_s, m_defaultTransform);
    m_rows.append(row);
}

void Converter::readTest(const YAML::Node &node, const Source &source, const QString &pointer)
{
    if (!node.IsMap()) {
        error(source, node, pointer, Tr::tr("a test is a map (vars, assert, ...)"));
        return;
    }
    QJsonObject row;
    QJsonObject vars = m_defaultVars;
    QString description;
    std::optional<QJsonObject> grader;
    // The grader comes first: the assertions read it whatever the order of the keys.
    if (node["options"] && node["options"].IsMap() && node["options"]["provider"])
        grader = graderFrom(node["options"]["provider"], source, pointer + u"/options/provider"_s);
    for (auto it = node.begin(); it != node.end(); ++it) {
        const QString key = qs(it->first.Scalar());
        const QString at = (pointer.isEmpty() ? QString() : pointer) + u'/' + pointerKey(key);
        if (key == u"description"_s) {
            description = qs(it->second.Scalar());
        } else if (key == u"vars"_s) {
            if (!it->second.IsMap()) {
                unsupported(source, it->second, at, Tr::tr("vars that are not a map"));
                continue;
            }
            for (auto v = it->second.begin(); v != it->second.end(); ++v) {
                const QString name = qs(v->first.Scalar());
                if (const auto value = readVar(v->second, source, at + u'/' + pointerKey(name)))
                    vars.insert(name, *value);
            }
        } else if (key == u"assert"_s) {
            const QJsonArray asserts = readAssertions(it->second, source, at, grader);
            if (!asserts.isEmpty())
                row.insert(u"assert"_s, asserts);
        } else if (key == u"options"_s && it->second.IsMap()) {
            for (auto o = it->second.begin(); o != it->second.end(); ++o) {
                const QString option = qs(o->first.Scalar());
                const QString optionAt = at + u'/' + pointerKey(option);
                if (option == u"transform"_s && !qs(o->second.Scalar()).startsWith(u"file://"_s))
                    row.insert(u"transform"_s, qs(o->second.Scalar()));
                else if (option != u"provider"_s)
                    unsupported(source, o->second, optionAt,
                                Tr::tr("a test option Callscope has no counterpart for"));
            }
        } else if (key == u"metadata"_s) {
            continue; // promptfoo's own filters and reports; nothing to run
        } else if (key == u"threshold"_s) {
            unsupported(source, it->second, at,
                        Tr::tr("a test threshold passes a test on part of its score; a Callscope "
                               "case passes when every check passes (the weighted score is "
                               "reported beside)"));
        } else {
            unsupported(source, it->second, at,
                        Tr::tr("a test setting Callscope has no counterpart for"));
        }
    }
    row.insert(u"vars"_s, vars);
    addRow(row, description);
}

void Converter::readTestsFile(const QString &reference, const YAML::Node &node,
                              const QString &pointer)
{
    if (reference.contains(u'*') || reference.startsWith(u"http"_s)) {
        unsupported(m_main, node, pointer,
                    Tr::tr("tests from a glob or an address; name each file"));
        return;
    }
    const QString fileName = QFileInfo(reference).fileName();
    const QString suffix = QFileInfo(fileName).suffix().toLower();
    if (suffix != u"csv"_s && suffix != u"jsonl"_s && suffix != u"json"_s && suffix != u"yaml"_s
        && suffix != u"yml"_s) {
        unsupported(
            m_main, node, pointer,
            Tr::tr("tests from a .%1 file; Callscope reads CSV, JSONL, JSON and YAML").arg(suffix));
        return;
    }
    QString absolute;
    const auto bytes = readReferenced(reference, m_main, node, pointer, &absolute);
    if (!bytes)
        return;
    if (suffix == u"jsonl"_s) {
        const QList<QByteArray> lines = bytes->split('\n');
        for (qsizetype i = 0; i < lines.size(); ++i) {
            if (lines.at(i).trimmed().isEmpty())
                continue;
            const Source source { fileName, int(i) };
            YAML::Node test;
            try {
                test = YAML::Load(lines.at(i).toStdString());
            } catch (const YAML::Exception &e) {
                m_result.errors.append(
                    { u"%1:%2"_s.arg(fileName).arg(i + 1), Tr::tr("not JSON: %1").arg(qs(e.msg)) });
                continue;
            }
            readTest(test, source, QString());
        }
        return;
    }
    if (suffix != u"csv"_s) {
        const YAML::Node tests = YAML::Load(bytes->toStdString());
        const Source source { fileName, 0 };
        if (!tests.IsSequence()) {
            error(source, tests, QString(), Tr::tr("a tests file is a list of tests"));
            return;
        }
        for (std::size_t i = 0; i < tests.size(); ++i)
            readTest(tests[i], source, u'/' + QString::number(i));
        return;
    }
    bool ok = true;
    const auto records = readCsv(QString::fromUtf8(*bytes), &ok);
    if (!ok || records.isEmpty()) {
        m_result.errors.append({ fileName, Tr::tr("a quoted field is not closed") });
        return;
    }
    const QStringList header = records.first().second;
    for (qsizetype r = 1; r < records.size(); ++r) {
        const auto &[line, fields] = records.at(r);
        const Source source { fileName, line - 1 };
        const QString where = u"%1:%2"_s.arg(fileName).arg(line);
        if (fields.size() != header.size()) {
            m_result.errors.append(
                { where,
                  Tr::tr("%1 fields, the header has %2").arg(fields.size()).arg(header.size()) });
            continue;
        }
        QJsonObject row;
        QJsonObject vars = m_defaultVars;
        QJsonArray asserts;
        QString description;
        for (qsizetype c = 0; c < header.size(); ++c) {
            const QString column = header.at(c).trimmed();
            const QString cell = fields.at(c);
            const QString at = u'/' + pointerKey(column);
            if (column == u"__description"_s) {
                description = cell;
            } else if (column.startsWith(u"__expected"_s)) {
                if (cell.trimmed().isEmpty())
                    continue;
                // "type: value" for a known type, "grade:" / "fn:" / "eval:" shorthands, else
                // an equals.
                static const QRegularExpression shorthand(
                    u"^(not-)?([a-z-]+)(?::\\s?([\\s\\S]*))?$"_s);
                const QRegularExpressionMatch m = shorthand.match(cell);
                static const QHash<QString, QString> aliases { { u"grade"_s, u"llm-rubric"_s },
                                                               { u"fn"_s, u"javascript"_s },
                                                               { u"eval"_s, u"javascript"_s } };
                static const QSet<QString> known {
                    u"equals"_s,       u"contains"_s,      u"icontains"_s,     u"contains-any"_s,
                    u"contains-all"_s, u"icontains-any"_s, u"icontains-all"_s, u"regex"_s,
                    u"starts-with"_s,  u"is-json"_s,       u"contains-json"_s, u"javascript"_s,
                    u"llm-rubric"_s,   u"python"_s,        u"similar"_s
                };
                YAML::Node assertion;
                QString type =
                    m.hasMatch() ? aliases.value(m.captured(2), m.captured(2)) : QString();
                if (m.hasMatch() && known.contains(type)
                    && (m.capturedLength(3) > 0 || type.endsWith(u"json"_s))) {
                    assertion["type"] = QString(m.captured(1) + type).toStdString();
                    if (m.capturedLength(3) > 0)
                        assertion["value"] = m.captured(3).toStdString();
                } else {
                    assertion["type"] = "equals";
                    assertion["value"] = cell.toStdString();
                }
                if (const auto a = readAssertion(assertion, source, at, std::nullopt))
                    asserts.append(*a);
            } else if (column.startsWith(u"__"_s)) {
                unsupported(source, YAML::Node(), at,
                            Tr::tr("the column %1 has no Callscope counterpart").arg(column));
            } else {
                vars.insert(column, cell);
            }
        }
        row.insert(u"vars"_s, vars);
        if (!asserts.isEmpty())
            row.insert(u"assert"_s, asserts);
        addRow(row, description);
    }
}

void Converter::readTests(const YAML::Node &node)
{
    if (node.IsScalar()) {
        readTestsFile(qs(node.Scalar()), node, u"/tests"_s);
        return;
    }
    if (!node.IsSequence()) {
        error(m_main, node, u"/tests"_s, Tr::tr("tests are a list or a file:// path"));
        return;
    }
    for (std::size_t i = 0; i < node.size(); ++i) {
        const QString at = u"/tests/"_s + QString::number(i);
        if (node[i].IsScalar())
            readTestsFile(qs(node[i].Scalar()), node[i], at);
        else
            readTest(node[i], m_main, at);
    }
}

void Converter::readDefaultTest(const YAML::Node &node)
{
    if (!node.IsMap()) {
        unsupported(m_main, node, u"/defaultTest"_s,
                    Tr::tr("a defaultTest that is not a map (a file)"));
        return;
    }
    if (node["options"] && node["options"].IsMap() && node["options"]["provider"])
        m_defaultGrader =
            graderFrom(node["options"]["provider"], m_main, u"/defaultTest/options/provider"_s);
    for (auto it = node.begin(); it != node.end(); ++it) {
        const QString key = qs(it->first.Scalar());
        const QString at = u"/defaultTest/"_s + pointerKey(key);
        if (key == u"vars"_s && it->second.IsMap()) {
            for (auto v = it->second.begin(); v != it->second.end(); ++v) {
                const QString name = qs(v->first.Scalar());
                if (const auto value = readVar(v->second, m_main, at + u'/' + pointerKey(name)))
                    m_defaultVars.insert(name, *value);
            }
        } else if (key == u"assert"_s) {
            m_defaultAsserts = readAssertions(it->second, m_main, at, m_defaultGrader);
        } else if (key == u"options"_s && it->second.IsMap()) {
            for (auto o = it->second.begin(); o != it->second.end(); ++o) {
                const QString option = qs(o->first.Scalar());
                if (option == u"transform"_s && !qs(o->second.Scalar()).startsWith(u"file://"_s))
                    m_defaultTransform = qs(o->second.Scalar());
                else if (option != u"provider"_s)
                    unsupported(m_main, o->second, at + u'/' + pointerKey(option),
                                Tr::tr("a test option Callscope has no counterpart for"));
            }
        } else if (key == u"metadata"_s || key == u"description"_s) {
            continue;
        } else {
            unsupported(m_main, it->second, at,
                        Tr::tr("a test setting Callscope has no counterpart for"));
        }
    }
}

PromptfooConversion Converter::run()
{
    QString readError;
    const auto bytes = readFileBounded(m_path, MaxSpecFileBytes, &readError);
    if (!bytes) {
        m_result.errors.append({ QString(), readError });
        return m_result;
    }
    YAML::Node root;
    try {
        root = YAML::Load(bytes->toStdString());
    } catch (const YAML::ParserException &e) {
        m_result.errors.append(
            { u"%1:%2:%3"_s.arg(m_main.fileName).arg(e.mark.line + 1).arg(e.mark.column + 1),
              Tr::tr("not YAML: %1").arg(qs(e.msg)) });
        return m_result;
    }
    if (!root.IsMap()) {
        error(m_main, root, QString(), Tr::tr("a promptfoo configuration is a YAML map"));
        return m_result;
    }
    QJsonObject experiment;
    experiment.insert(u"name"_s, QFileInfo(m_path).completeBaseName());
    // The providers first: an llm-rubric without a grader of its own is judged by the first.
    if (const YAML::Node providers = root["providers"] ? root["providers"] : root["targets"])
        readProviders(providers);
    else
        error(m_main, root, u"/providers"_s,
              Tr::tr("missing: the providers to run the prompts on"));
    if (root["prompts"])
        readPrompts(root["prompts"]);
    else
        error(m_main, root, u"/prompts"_s, Tr::tr("missing: the prompts"));
    if (root["defaultTest"])
        readDefaultTest(root["defaultTest"]);
    if (root["tests"])
        readTests(root["tests"]);

    static const QSet<QString> ignored { u"outputPath"_s, u"sharing"_s, u"tags"_s,
                                         u"writeLatestResults"_s };
    static const QHash<QString, QString> refused {
        { u"redteam"_s,
          Tr::tr("red-team plugins and strategies generate attack tests with their own models; "
                 "Callscope runs the tests it is given") },
        { u"scenarios"_s,
          Tr::tr("scenarios (groups of vars crossed with tests); write the tests "
                 "out") },
        { u"extensions"_s, Tr::tr("extension hooks run JavaScript or Python around the run") },
        { u"derivedMetrics"_s, Tr::tr("derived metrics are computed by promptfoo's reports") },
        { u"nunjucksFilters"_s, Tr::tr("Nunjucks filters run JavaScript inside the prompts") },
        { u"env"_s, Tr::tr("environment overrides; set the variables in the environment") },
    };
    for (auto it = root.begin(); it != root.end(); ++it) {
        const QString key = qs(it->first.Scalar());
        const QString at = u'/' + pointerKey(key);
        if (key == u"description"_s) {
            experiment.insert(u"description"_s, qs(it->second.Scalar()));
            experiment.insert(u"name"_s, qs(it->second.Scalar()));
        } else if (key == u"evaluateOptions"_s && it->second.IsMap()) {
            for (auto o = it->second.begin(); o != it->second.end(); ++o) {
                const QString option = qs(o->first.Scalar());
                const QJsonValue value = toJson(o->second);
                if (option == u"maxConcurrency"_s && value.isDouble())
                    experiment.insert(u"jobs"_s, value);
                else if (option == u"repeat"_s && value.isDouble())
                    experiment.insert(u"repeat"_s, value);
                else if (option != u"cache"_s && option != u"showProgressBar"_s)
                    unsupported(m_main, o->second, at + u'/' + pointerKey(option),
                                Tr::tr("an evaluate option Callscope has no counterpart for"));
            }
        } else if (refused.contains(key)) {
            unsupported(m_main, it->second, at, refused.value(key));
        } else if (!ignored.contains(key) && key != u"prompts"_s && key != u"providers"_s
                   && key != u"targets"_s && key != u"tests"_s && key != u"defaultTest"_s) {
            unsupported(m_main, it->second, at, Tr::tr("a setting this converter does not know"));
        }
    }
    if (!m_result.errors.isEmpty())
        return m_result;

    // Every prompt on every provider, named after what differs.
    QJsonArray variants;
    QSet<QString> names;
    for (const Prompt &prompt : std::as_const(m_prompts)) {
        for (const Provider &provider : std::as_const(m_providers)) {
            QString name = m_prompts.size() == 1 ? provider.label
                : m_providers.size() == 1        ? prompt.label
                                                 : prompt.label + u" / "_s + provider.label;
            const QString base = name;
            for (int n = 2; names.contains(name); ++n)
                name = u"%1 (%2)"_s.arg(base).arg(n);
            names.insert(name);
            QJsonObject variant { { u"name"_s, name },
                                  { u"input"_s, prompt.input },
                                  { u"engine"_s, provider.engine } };
            if (!prompt.system.isEmpty())
                variant.insert(u"system_prompt"_s, prompt.system);
            variants.append(variant);
        }
    }
    // promptfoo runs a configuration without tests once, with no vars.
    if (m_rows.isEmpty() && !root["tests"])
        addRow(QJsonObject { { u"vars"_s, m_defaultVars } }, QString());
    experiment.insert(u"spec"_s,
                      QJsonObject { { u"output_parser"_s, u"text"_s }, { u"max_turns"_s, 1 } });
    experiment.insert(u"variants"_s, variants);
    experiment.insert(u"dataset"_s, m_rows);
    if (!m_defaultAsserts.isEmpty())
        experiment.insert(u"assert"_s, m_defaultAsserts);
    m_result.experiment = experiment;
    return m_result;
}

} // namespace

bool isPromptfooConfig(const QString &path)
{
    return path.endsWith(u".yaml"_s, Qt::CaseInsensitive)
        || path.endsWith(u".yml"_s, Qt::CaseInsensitive);
}

PromptfooConversion convertPromptfooConfig(const QString &path)
{
    Converter converter(QFileInfo(path).absoluteFilePath());
    try {
        return converter.run();
    } catch (const YAML::Exception &e) {
        // A YAML file named by the configuration (a prompt, tests or schema file) that does not
        // parse, or a node of the wrong kind.
        PromptfooConversion failed;
        failed.errors.append(
            { u"%1:%2"_s.arg(QFileInfo(path).fileName()).arg(e.mark.line + 1), qs(e.msg) });
        return failed;
    }
}

} // namespace Callscope
