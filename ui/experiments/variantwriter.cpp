#include "ui/experiments/variantwriter.h"

#include "core/eval/experiment.h"
#include "core/model/specio.h"
#include "ui/widgets/jsonlocator.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Callscope::VariantWriter)
};

QString compact(const QJsonValue &value)
{
    const QByteArray json = QJsonDocument(QJsonArray { value }).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(json.mid(1, json.size() - 2));
}

// The column of `offset` on its line.
int columnOf(const QString &text, int offset)
{
    const int lineStart = int(text.lastIndexOf(u'\n', offset - 1)) + 1;
    return offset - lineStart;
}

} // namespace

QString variantText(const QJsonObject &variant, int indent)
{
    QStringList members;
    members.append(u"\"name\": "_s + compact(variant.value(u"name"_s)));
    for (auto it = variant.begin(); it != variant.end(); ++it) {
        if (it.key() != u"name"_s)
            members.append(compact(it.key()) + u": "_s + compact(it.value()));
    }
    const QString oneLine = u"{ "_s + members.join(u", "_s) + u" }"_s;
    if (oneLine.size() + indent <= 100)
        return oneLine;
    const QString pad(indent + 2, u' ');
    return u"{ "_s + members.join(u",\n"_s + pad) + u" }"_s;
}

std::optional<QString> insertVariant(const QString &text, const QJsonObject &variant,
                                     const QString &defaultName, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        if (error)
            *error = Tr::tr("the experiment file is not a JSON object (%1)")
                         .arg(parseError.errorString());
        return std::nullopt;
    }
    QJsonObject expected = doc.object();
    const QJsonValue existing = expected.value(u"variants"_s);
    if (!existing.isUndefined() && !existing.isArray()) {
        if (error)
            *error = Tr::tr("\"variants\" is not an array");
        return std::nullopt;
    }
    const JsonLocator locator(text);
    QString out = text;
    if (existing.isArray() && !existing.toArray().isEmpty()) {
        const int last = int(existing.toArray().size()) - 1;
        const auto span = locator.locate(u"/variants/"_s + QString::number(last));
        const auto array = locator.locate(u"/variants"_s);
        if (!span || !array || !locator.contains(u"/variants/"_s + QString::number(last))) {
            if (error)
                *error = Tr::tr("cannot find the variants in the file");
            return std::nullopt;
        }
        // On its own line like the one before it, or on the same line when they share one.
        const int firstStart = locator.locate(u"/variants/0"_s)->start;
        const bool ownLines = last > 0
            ? text.mid(locator.locate(u"/variants/"_s + QString::number(last - 1))->end,
                       span->start
                           - locator.locate(u"/variants/"_s + QString::number(last - 1))->end)
                  .contains(u'\n')
            : text.mid(array->start, firstStart - array->start).contains(u'\n');
        const int indent = columnOf(text, span->start);
        const QString insert = ownLines
            ? QString(u",\n"_s + QString(indent, u' ') + variantText(variant, indent))
            : QString(u", "_s + variantText(variant, indent));
        out.insert(span->end, insert);
        QJsonArray variants = existing.toArray();
        variants.append(variant);
        expected.insert(u"variants"_s, variants);
    } else if (existing.isArray()) {
        const auto array = locator.locate(u"/variants"_s);
        if (!array) {
            if (error)
                *error = Tr::tr("cannot find the variants in the file");
            return std::nullopt;
        }
        out.insert(array->start + 1,
                   u" "_s + variantText(variant, columnOf(text, array->start) + 2) + u" "_s);
        expected.insert(u"variants"_s, QJsonArray { variant });
    } else {
        // A new member after the last one, before the object's closing brace.
        const auto root = locator.locate(QString());
        if (!root) {
            if (error)
                *error = Tr::tr("cannot find the end of the experiment object");
            return std::nullopt;
        }
        int close = root->end - 1;
        int lastChar = close - 1;
        while (lastChar > root->start && text.at(lastChar).isSpace())
            --lastChar;
        const bool multiLine = text.mid(root->start, root->end - root->start).contains(u'\n');
        const int indent = multiLine ? 2 : 0;
        const QJsonObject first { { u"name"_s, defaultName } };
        QString member = u"\"variants\": [ "_s + variantText(first, indent + 2);
        if (multiLine)
            member +=
                u",\n"_s + QString(indent + 15, u' ') + variantText(variant, indent + 15) + u" ]"_s;
        else
            member += u", "_s + variantText(variant, 0) + u" ]"_s;
        const bool empty = text.at(lastChar) == u'{';
        const QString separator = multiLine ? QString(u"\n"_s + QString(indent, u' ')) : u" "_s;
        const QString insert = (empty ? QString() : u","_s) + separator + member;
        out.insert(lastChar + 1, insert);
        expected.insert(u"variants"_s, QJsonArray { first, variant });
    }
    // The text edit must mean exactly the intended JSON; if not, write it out plainly.
    const QJsonDocument check = QJsonDocument::fromJson(out.toUtf8());
    if (!check.isObject() || check.object() != expected)
        return QString::fromUtf8(QJsonDocument(expected).toJson(QJsonDocument::Indented));
    return out;
}

QJsonObject variantFromSpec(const QString &name, const Experiment &experiment, const Spec &spec,
                            QStringList *dropped)
{
    // Both sides as the spec writer spells them, so defaults written out on one side only do
    // not count as changes.
    const SpecLoadResult parsed = specFromJson(experiment.baseSpec, experiment.path);
    const QJsonObject base = parsed.spec ? specToJson(*parsed.spec) : experiment.baseSpec;
    const QJsonObject now = specToJson(spec);
    QJsonObject variant { { u"name"_s, name } };
    for (auto it = now.begin(); it != now.end(); ++it) {
        if (base.value(it.key()) != it.value())
            variant.insert(it.key(), it.value());
    }
    if (dropped) {
        dropped->clear();
        for (auto it = base.begin(); it != base.end(); ++it) {
            if (!now.contains(it.key()))
                dropped->append(it.key());
        }
    }
    return variant;
}

QJsonObject variantFromCall(const QString &name, qint64 callId)
{
    return QJsonObject { { u"name"_s, name }, { u"from_call"_s, callId } };
}

std::optional<QString> addVariantToFile(const QString &path, const QJsonObject &variant,
                                        const QString &defaultName)
{
    QFile in(path);
    if (!in.open(QIODevice::ReadOnly))
        return Tr::tr("cannot read %1: %2").arg(path, in.errorString());
    const QString text = QString::fromUtf8(in.readAll());
    in.close();
    QString error;
    const auto updated = insertVariant(text, variant, defaultName, &error);
    if (!updated)
        return error;
    QSaveFile out(path);
    if (!out.open(QIODevice::WriteOnly))
        return Tr::tr("cannot write %1: %2").arg(path, out.errorString());
    out.write(updated->toUtf8());
    if (!out.commit())
        return Tr::tr("cannot write %1: %2").arg(path, out.errorString());
    return std::nullopt;
}

} // namespace Callscope
