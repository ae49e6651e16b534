# cmake -DSOURCE_DIR=<repo> -DMIRROR_DIR=<dir> -DTS_FILES=<a.ts;b.ts> -DLUPDATE=<lupdate> -P lupdate_sources.cmake
#
# Runs lupdate over core/, ui/ and app/. Many sources translate through a file-local helper,
#     QString tr(const char *text[, ...]) { return QCoreApplication::translate("Cli", text[, ...]); }
# which lupdate cannot see through: it files the strings under the enclosing namespace instead
# of "Cli" (so the translation would never be found at run time), and a one-argument helper
# called translate() is taken for QCoreApplication::translate and can even hang lupdate.
# So the sources are first copied to MIRROR_DIR with every call of such a helper spelled out as
# QCoreApplication::translate("<context>", ...), and lupdate reads the copy.
# The copy is also where a lupdate 6.4 parser hang is worked around (see below).
foreach(var SOURCE_DIR MIRROR_DIR TS_FILES LUPDATE)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "lupdate_sources.cmake: ${var} is not set")
    endif()
endforeach()

set(_ws "[ \t\r\n]*")
set(_helper_re "QString[ \t\r\n]+([A-Za-z_][A-Za-z0-9_]*)${_ws}\\(${_ws}const[ \t\r\n]+char${_ws}\\*${_ws}[A-Za-z_][A-Za-z0-9_]*[^)]*\\)${_ws}{${_ws}return[ \t\r\n]+QCoreApplication::translate\\(${_ws}\"([^\"]+)\"")

file(REMOVE_RECURSE "${MIRROR_DIR}")
file(GLOB_RECURSE _sources RELATIVE "${SOURCE_DIR}"
    "${SOURCE_DIR}/core/*.cpp" "${SOURCE_DIR}/core/*.h"
    "${SOURCE_DIR}/ui/*.cpp" "${SOURCE_DIR}/ui/*.h"
    "${SOURCE_DIR}/app/*.cpp" "${SOURCE_DIR}/app/*.h")
set(_rewritten 0)
foreach(rel IN LISTS _sources)
    file(READ "${SOURCE_DIR}/${rel}" text)
    string(REGEX MATCHALL "${_helper_re}" helpers "${text}")
    foreach(helper IN LISTS helpers)
        string(REGEX MATCH "${_helper_re}" _ "${helper}")
        set(name "${CMAKE_MATCH_1}")
        set(context "${CMAKE_MATCH_2}")
        # A call is the helper's name, not preceded by an identifier character, "::", "." or
        # "->", followed by "(" and a string literal. The definition itself has "(const".
        string(REGEX REPLACE "([^A-Za-z0-9_:.>])${name}${_ws}\\(${_ws}\""
            "\\1QCoreApplication::translate(\"${context}\", \"" text "${text}")
        math(EXPR _rewritten "${_rewritten} + 1")
    endforeach()
    # lupdate 6.4 hangs on translate("C", "%n x", nullptr, int(n)): a functional cast as the
    # count argument. The count does not matter to lupdate, so give it a static_cast.
    string(REGEX REPLACE "nullptr,${_ws}(int|long|short|unsigned|char|bool|double|float)${_ws}\\("
        "nullptr, static_cast<\\1>(" text "${text}")
    file(WRITE "${MIRROR_DIR}/${rel}" "${text}")
endforeach()
message(STATUS "lupdate: ${_rewritten} translation helpers spelled out")

foreach(ts IN LISTS TS_FILES)
    # English needs only the plural forms of the %n strings; the rest is the source text.
    set(_only)
    if(ts MATCHES "_en\\.ts$")
        set(_only -pluralonly)
    endif()
    execute_process(
        COMMAND "${LUPDATE}" -I "${MIRROR_DIR}" core ui app -extensions cpp,h
                -no-obsolete -locations none ${_only} -ts "${ts}"
        WORKING_DIRECTORY "${MIRROR_DIR}"
        RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "lupdate failed on ${ts} (${rc})")
    endif()
endforeach()
