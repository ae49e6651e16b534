#pragma once

// Errors of the store. Every store function returns its error in the result:
// a StoreError for functions without a value, a StoreResult<T> otherwise.

#include <QString>

#include <optional>
#include <utility>

namespace Callscope {

struct StoreError
{
    enum class Code {
        None,
        NotFound, // no row with that id
        NotADatabase, // the file exists but is not an SQLite database (left untouched)
        NewerVersion, // made by a newer Callscope (left untouched)
        Locked, // another program holds the database
        Corrupt, // SQLite reports a malformed database image
        Io, // cannot create the folder, open the file, ...
        ReadOnly, // the history may be read but not written (a reader role on a server)
        Unreachable, // the history server cannot be reached (no connection, or it went away)
        Constraint, // a write broke a constraint (nothing was written)
        InvalidInput, // a document or argument the store refuses (import, bad query)
        Sql, // any other SQLite failure
    };

    Code code = Code::None;
    QString message; // translated, says what and where
    QString pointer; // JSON Pointer into an import document, when the error has one

    bool isError() const { return code != Code::None; }
    explicit operator bool() const { return isError(); }

    static StoreError make(Code code, const QString &message, const QString &pointer = {})
    {
        return StoreError { code, message, pointer };
    }
};

// A value or the StoreError that prevented it.
template<typename T> class StoreResult
{
public:
    StoreResult(T value) // NOLINT(google-explicit-constructor): returning a value reads naturally
        : m_value(std::move(value))
    { }
    StoreResult(StoreError error) // NOLINT(google-explicit-constructor)
        : m_error(std::move(error))
    { }

    bool ok() const { return m_value.has_value(); }
    explicit operator bool() const { return ok(); }
    const T &value() const { return *m_value; }
    T &value() { return *m_value; }
    const T &operator*() const { return *m_value; }
    T &operator*() { return *m_value; }
    const T *operator->() const { return &*m_value; }
    T *operator->() { return &*m_value; }
    const StoreError &error() const { return m_error; }

private:
    std::optional<T> m_value;
    StoreError m_error;
};

} // namespace Callscope
