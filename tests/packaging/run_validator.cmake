# cmake -DTOOL=<program> -DWHAT=<name> -DARGS=<a;b;c> -P run_validator.cmake
# Runs a validator and fails on any output at all (warnings included) or a non-zero exit:
# the desktop files must pass exactly.
if(NOT TOOL)
    message(FATAL_ERROR "${WHAT} is not installed (tools/dev.sh installs it)")
endif()
execute_process(COMMAND ${TOOL} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${WHAT} ${ARGS}\nexit ${rc}\n${out}${err}")
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${WHAT} failed")
endif()
# appstreamcli prints its verdict on success; anything beyond that is a finding.
string(REGEX REPLACE "[^\n]*Validation was successful[^\n]*\n?" "" rest "${out}${err}")
string(STRIP "${rest}" rest)
if(NOT rest STREQUAL "")
    message(FATAL_ERROR "${WHAT} reported findings")
endif()
