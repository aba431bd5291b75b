# SPDX-FileCopyrightText: Converge contributors
# SPDX-License-Identifier: MIT
#
# Fails when a C++ file of ours differs from what the checked-in .clang-format makes of it.
cmake_policy(SET CMP0057 NEW)
file(GLOB_RECURSE sources
    ${SOURCE_DIR}/app/*.cpp ${SOURCE_DIR}/app/*.h
    ${SOURCE_DIR}/core/*.cpp ${SOURCE_DIR}/core/*.h
    ${SOURCE_DIR}/ui/*.cpp ${SOURCE_DIR}/ui/*.h
    ${SOURCE_DIR}/tests/*.cpp ${SOURCE_DIR}/tests/*.h)
execute_process(
    COMMAND ${CLANG_FORMAT} --dry-run -Werror --style=file ${sources}
    WORKING_DIRECTORY ${SOURCE_DIR}
    RESULT_VARIABLE result
    ERROR_VARIABLE errors)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "not formatted with .clang-format (run clang-format -i on these):\n${errors}")
endif()
list(LENGTH sources n)
message(STATUS "format: ${n} files checked")
