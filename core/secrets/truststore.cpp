#include "core/secrets/truststore.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStandardPaths>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

QString cleanFolder(const QString &folder)
{
    return folder.isEmpty() ? QString() : QDir::cleanPath(QFileInfo(folder).absoluteFilePath());
}

} // namespace

TrustEntry trustEntryFor(const Spec &spec)
{
    TrustEntry entry;
    entry.digest = specTrustDigest(spec);
    if (!spec.sourcePath.isEmpty()) {
        const QFileInfo info(spec.sourcePath);
        entry.folder = cleanFolder(info.absolutePath());
        entry.file = info.absoluteFilePath();
    }
    return entry;
}

TrustStore::TrustStore(const QString &path)
    : m_path(path.isEmpty() ? defaultPath() : path)
{ }

QString TrustStore::defaultPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)
        + u"/trusted-files.json"_s;
}

QList<TrustEntry> TrustStore::entries() const
{
    QList<TrustEntry> out;
    QFile file(m_path);
    if (!file.open(QIODevice::ReadOnly))
        return out;
    const QJsonArray array =
        QJsonDocument::fromJson(file.read(4 * 1024 * 1024)).object().value(u"trusted"_s).toArray();
    for (const QJsonValue &value : array) {
        const QJsonObject o = value.toObject();
        TrustEntry entry;
        entry.digest = o.value(u"sha256"_s).toString().toLatin1();
        entry.folder = o.value(u"folder"_s).toString();
        entry.file = o.value(u"file"_s).toString();
        entry.trustedAt = QDateTime::fromString(o.value(u"trusted_at"_s).toString(), Qt::ISODate);
        if (!entry.digest.isEmpty())
            out.append(entry);
    }
    return out;
}

bool TrustStore::isTrusted(const QByteArray &digest, const QString &folder) const
{
    const QString wanted = cleanFolder(folder);
    const QList<TrustEntry> all = entries();
    for (const TrustEntry &entry : all) {
        if (entry.digest == digest && entry.folder == wanted)
            return true;
    }
    return false;
}

bool TrustStore::trust(TrustEntry entry, QString *error)
{
    entry.folder = cleanFolder(entry.folder);
    if (!entry.trustedAt.isValid())
        entry.trustedAt = QDateTime::currentDateTimeUtc();
    QList<TrustEntry> all = entries();
    all.removeIf([&entry](const TrustEntry &old) {
        return (!entry.file.isEmpty() && old.file == entry.file)
            || (old.digest == entry.digest && old.folder == entry.folder);
    });
    all.append(entry);
    return write(all, error);
}

int TrustStore::revoke(const QString &fileOrFolder, QString *error)
{
    QList<TrustEntry> all = entries();
    const qsizetype before = all.size();
    if (fileOrFolder.isEmpty()) {
        all.clear();
    } else {
        const QString wanted = cleanFolder(fileOrFolder);
        all.removeIf([&wanted](const TrustEntry &entry) {
            return entry.file == wanted || entry.folder == wanted;
        });
    }
    const int removed = int(before - all.size());
    if (removed > 0 && !write(all, error))
        return 0;
    return removed;
}

bool TrustStore::write(const QList<TrustEntry> &entries, QString *error)
{
    QJsonArray array;
    for (const TrustEntry &entry : entries) {
        array.append(
            QJsonObject { { u"sha256"_s, QString::fromLatin1(entry.digest) },
                          { u"folder"_s, entry.folder },
                          { u"file"_s, entry.file },
                          { u"trusted_at"_s, entry.trustedAt.toUTC().toString(Qt::ISODate) } });
    }
    QDir().mkpath(QFileInfo(m_path).absolutePath());
    QSaveFile file(m_path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = QCoreApplication::translate("Callscope::TrustStore", "cannot write %1: %2")
                         .arg(QDir::toNativeSeparators(m_path), file.errorString());
        return false;
    }
    file.write(
        QJsonDocument(QJsonObject { { u"trusted"_s, array } }).toJson(QJsonDocument::Indented));
    if (!file.commit()) {
        if (error)
            *error = QCoreApplication::translate("Callscope::TrustStore", "cannot write %1: %2")
                         .arg(QDir::toNativeSeparators(m_path), file.errorString());
        return false;
    }
    return true;
}

} // namespace Callscope

namespace Callscope {

QList<RunItem> untrustedRunItems(const Spec &spec, const TrustStore &store,
                                 const QStringList &allowedVariables)
{
    const QList<RunItem> items = specRunItems(spec, allowedVariables);
    if (items.isEmpty() || store.isTrusted(trustEntryFor(spec)))
        return {};
    return items;
}

QString untrustedText(const QList<RunItem> &items)
{
    QStringList lines;
    lines.append(
        QCoreApplication::translate("Callscope::TrustStore",
                                    "this file is not trusted, and running it would do %n thing(s) "
                                    "on this computer:",
                                    nullptr, int(items.size())));
    for (const RunItem &item : items)
        lines.append(u"  - "_s + item.describe());
    return lines.join(u'\n');
}

} // namespace Callscope
