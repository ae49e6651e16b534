#pragma once

// One process at a time works on a stored batch or experiment.
//
// Two processes resuming the same stored batch would each see the same unfinished lines and
// each send them: paid requests twice. A RunLock is a lock file beside the history database,
// named after what it guards, held for as long as the object lives. A lock left behind by a
// process that died (SIGKILL, a crash) is recognised by its process id and taken over, so a
// resume after a crash is never refused.

#include <QString>

#include <memory>

class QLockFile;

namespace Callscope {

class RunLock
{
public:
    ~RunLock();
    RunLock(const RunLock &) = delete;
    RunLock &operator=(const RunLock &) = delete;

    // `what` names the guarded thing in the file name, e.g. "batch-3". nullptr with `error`
    // set when another live process holds the lock (translated: "in use by callscope-cli
    // (process 123 on host)") or when the lock file cannot be made.
    static std::unique_ptr<RunLock> acquire(const QString &databasePath, const QString &what,
                                            QString *error);

    QString path() const;

private:
    explicit RunLock(std::unique_ptr<QLockFile> file, QString path);

    std::unique_ptr<QLockFile> m_file;
    QString m_path;
};

} // namespace Callscope
