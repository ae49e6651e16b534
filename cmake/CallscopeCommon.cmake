# Shared compile settings for every Callscope target, carried by one INTERFACE target.

find_program(CALLSCOPE_CCACHE ccache)
if(CALLSCOPE_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
    # Precompiled headers and ccache only agree with these sloppiness settings. Paths are hashed
    # relative to the checkout's parent folder and without the build folder, so checkouts side
    # by side (git worktrees) share one cache.
    get_filename_component(_callscope_checkout_parent ${PROJECT_SOURCE_DIR} DIRECTORY)
    set(CMAKE_CXX_COMPILER_LAUNCHER
        ${CMAKE_COMMAND} -E env "CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime"
        "CCACHE_BASEDIR=${_callscope_checkout_parent}" CCACHE_NOHASHDIR=1
        ${CALLSCOPE_CCACHE})
endif()

add_library(callscope_flags INTERFACE)
target_compile_definitions(callscope_flags INTERFACE
    QT_NO_CAST_FROM_ASCII
    QT_NO_CAST_TO_ASCII
    QT_NO_CAST_FROM_BYTEARRAY
    QT_NO_URL_CAST_FROM_STRING
    QT_USE_QSTRINGBUILDER
    QT_NO_FOREACH
    QT_NO_NARROWING_CONVERSIONS_IN_CONNECT
    QT_NO_CONTEXTLESS_CONNECT
    QT_STRICT_ITERATORS
    QT_DISABLE_DEPRECATED_UP_TO=0x060400
    CALLSCOPE_VERSION="${PROJECT_VERSION}")
target_compile_options(callscope_flags INTERFACE
    -Wall -Wextra -Wshadow=local -Wnon-virtual-dtor -Wcast-align -Woverloaded-virtual
    -Wno-missing-field-initializers)
if(CALLSCOPE_WERROR)
    target_compile_options(callscope_flags INTERFACE -Werror)
endif()
if(CALLSCOPE_SANITIZE)
    target_compile_options(callscope_flags INTERFACE
        -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
    target_link_options(callscope_flags INTERFACE -fsanitize=address,undefined)
endif()

# One precompiled header for the Qt headers every core source pulls in.
set(CALLSCOPE_PCH_HEADERS
    <QtCore/QByteArray> <QtCore/QHash> <QtCore/QJsonArray> <QtCore/QJsonDocument>
    <QtCore/QJsonObject> <QtCore/QJsonValue> <QtCore/QList> <QtCore/QObject>
    <QtCore/QString> <QtCore/QVariant> <optional> <memory> <functional>)

# callscope_add_core_module(NAME SOURCES ... LIBS ...): a static library of one core domain.
function(callscope_add_core_module name)
    cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
    add_library(${name} STATIC ${ARG_SOURCES})
    target_link_libraries(${name} PUBLIC callscope_flags Qt6::Core ${ARG_LIBS})
    target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR})
    target_precompile_headers(${name} PRIVATE ${CALLSCOPE_PCH_HEADERS})
endfunction()
