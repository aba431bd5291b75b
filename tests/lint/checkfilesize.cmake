# SPDX-FileCopyrightText: Converge contributors
# SPDX-License-Identifier: MIT
#
# Fails when a C++ file of core/, ui/ or app/ under SOURCE_DIR has more than MAX_LINES lines: a
# file a newcomer can hold (issue #38). A file that grows past it is split by concern.
set(too_long)
foreach(folder core ui app)
    file(GLOB_RECURSE files ${SOURCE_DIR}/${folder}/*.cpp ${SOURCE_DIR}/${folder}/*.h)
    foreach(file IN LISTS files)
        file(READ ${file} text)
        string(REGEX MATCHALL "\n" newlines "${text}")
        list(LENGTH newlines count)
        if(count GREATER MAX_LINES)
            file(RELATIVE_PATH relative ${SOURCE_DIR} ${file})
            list(APPEND too_long "  ${relative}: ${count} lines")
        endif()
    endforeach()
endforeach()
if(too_long)
    string(REPLACE ";" "\n" too_long "${too_long}")
    message(FATAL_ERROR "over ${MAX_LINES} lines (split them by concern):\n${too_long}")
endif()
