#include "core/model/boundedread.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

#include <sys/stat.h>

namespace Callscope {

namespace {

constexpr qint64 OneMiB = qint64(1) << 20;

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Callscope::BoundedRead)
};

// A character or block device: /dev/zero, /dev/urandom, a disk.
bool isDevice(const QString &path)
{
    struct stat info
    {
    };
    if (::stat(QFile::encodeName(path).constData(), &info) != 0)
        return false;
    return S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode);
}

} // namespace

QString sizeText(qint64 bytes)
{
    if (bytes >= OneMiB && bytes % OneMiB == 0)
        return Tr::tr("%1 MiB").arg(bytes / OneMiB);
    return Tr::tr("%1 bytes").arg(bytes);
}

bool openForReading(QFile &file, QString *error)
{
    const QString path = file.fileName();
    const QFileInfo info(path);
    if (info.isDir()) {
        if (error)
            *error = Tr::tr("cannot read %1: it is a folder, not a file").arg(path);
        return false;
    }
    if (isDevice(path)) {
        if (error)
            *error = Tr::tr("cannot read %1: it is a device, not a file").arg(path);
        return false;
    }
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = Tr::tr("cannot read %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

std::optional<QByteArray> readFileBounded(const QString &path, qint64 maxBytes, QString *error)
{
    QFile file(path);
    if (!openForReading(file, error))
        return std::nullopt;
    const auto tooLarge = [&] {
        if (error)
            *error = Tr::tr("cannot read %1: it is larger than %2, the most read from such a file")
                         .arg(path, sizeText(maxBytes));
        return std::nullopt;
    };
    if (!file.isSequential() && file.size() > maxBytes)
        return tooLarge();
    QByteArray data;
    if (!file.isSequential())
        data.reserve(file.size());
    // One byte past the bound tells a file that is too large from one that fits exactly.
    constexpr qint64 Chunk = OneMiB;
    while (true) {
        const qint64 room = maxBytes + 1 - data.size();
        if (room <= 0)
            return tooLarge();
        const QByteArray piece = file.read(std::min(Chunk, room));
        if (piece.isEmpty()) {
            if (file.error() != QFileDevice::NoError) {
                if (error)
                    *error = Tr::tr("cannot read %1: %2").arg(path, file.errorString());
                return std::nullopt;
            }
            if (file.atEnd() || !file.isSequential() || !file.waitForReadyRead(-1))
                break;
            continue;
        }
        data.append(piece);
    }
    if (data.size() > maxBytes)
        return tooLarge();
    return data;
}

QByteArray readLineBounded(QIODevice &device, qint64 maxBytes, bool *tooLong)
{
    if (tooLong)
        *tooLong = false;
    // In pieces: QIODevice::readLine(maxSize) would reserve maxSize bytes (64 MiB for a
    // JSONL line) for every line, a map and an unmap of that much per line.
    QByteArray line;
    char piece[16384];
    for (;;) {
        const qint64 n = device.readLine(piece, sizeof piece);
        if (n <= 0)
            break;
        line.append(piece, n);
        if (line.size() > maxBytes) {
            if (tooLong)
                *tooLong = true;
            return {};
        }
        if (piece[n - 1] == '\n')
            break;
    }
    return line;
}

} // namespace Callscope
