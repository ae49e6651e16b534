#pragma once

// The files the user trusted to run things on this machine (see core/model/trustpolicy.h for
// what counts). An entry is the content's digest plus the folder the file sits in: the same
// content elsewhere, or an edited file in the same place, is not trusted. Entries live in one
// JSON file in the application's data folder (trusted-files.json) and are read afresh on each
// question, so the studio and callscope-cli see each other's answers at once.

#include "core/model/trustpolicy.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>

namespace Callscope {

struct TrustEntry
{
    QByteArray digest; // specTrustDigest() or experimentTrustDigest(), hex
    QString folder; // absolute; empty for a spec that has no file (an imported call)
    QString file; // the file's path when trusted, for lists and revoke; may be empty
    QDateTime trustedAt;

    friend bool operator==(const TrustEntry &, const TrustEntry &) = default;
};

// The digest and folder of a spec as it will run (its sourcePath gives the folder).
TrustEntry trustEntryFor(const Spec &spec);

class TrustStore final
{
public:
    // `path` empty: defaultPath().
    explicit TrustStore(const QString &path = {});

    // <AppDataLocation>/trusted-files.json
    static QString defaultPath();
    QString path() const { return m_path; }

    bool isTrusted(const QByteArray &digest, const QString &folder) const;
    bool isTrusted(const TrustEntry &entry) const { return isTrusted(entry.digest, entry.folder); }
    // Adds the entry (an older one for the same file is replaced). False with `error` when the
    // file cannot be written.
    bool trust(TrustEntry entry, QString *error = nullptr);
    // Removes every entry whose file or folder is `fileOrFolder` (all of them when it is
    // empty); returns how many went.
    int revoke(const QString &fileOrFolder, QString *error = nullptr);
    QList<TrustEntry> entries() const;

private:
    bool write(const QList<TrustEntry> &entries, QString *error);

    QString m_path;
};

} // namespace Callscope

namespace Callscope {

// What still needs the user's trust before `spec` runs: its run items, or none when `store`
// trusts its content in its folder.
QList<RunItem> untrustedRunItems(const Spec &spec, const TrustStore &store,
                                 const QStringList &allowedVariables = {});
// For a person: that the file is not trusted, then one line per item.
QString untrustedText(const QList<RunItem> &items);

} // namespace Callscope
