#pragma once

// Reading the files a person names (specs, experiments, datasets, inputs, recordings) without
// trusting them: a folder or a device is refused by name, and no read goes past a bound, so
// `/dev/zero` or a 40 GB log given by mistake ends in an error instead of eating the memory.
// Pipes and other sequential files are read as far as the bound allows.

#include <QByteArray>
#include <QString>

#include <optional>

class QIODevice;
class QFile;

namespace Callscope {

// The most each kind of file may hold.
inline constexpr qint64 MaxSpecFileBytes = qint64(32) << 20; // a spec, an experiment, a schema
inline constexpr qint64 MaxInputFileBytes = qint64(256)
    << 20; // an input, an attachment, a document
inline constexpr qint64 MaxRecordingFileBytes = qint64(512) << 20; // a replay recording
inline constexpr qint64 MaxLineBytes = qint64(64) << 20; // one line of a JSONL or CSV file

// Opens `file` (its name already set) for reading. Refuses a folder and a character or block
// device; `error` says why ("cannot read PATH: ...").
bool openForReading(QFile &file, QString *error);

// The whole file, or nullopt with `error` set when it cannot be opened or holds more than
// `maxBytes`.
std::optional<QByteArray> readFileBounded(const QString &path, qint64 maxBytes, QString *error);

// The next line (with its newline) of at most `maxBytes`. A longer line sets `tooLong` and
// returns nothing; the reader should stop there (the rest of the device is left unread).
QByteArray readLineBounded(QIODevice &device, qint64 maxBytes, bool *tooLong);

// "64 MiB"
QString sizeText(qint64 bytes);

} // namespace Callscope
