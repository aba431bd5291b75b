# SPDX-FileCopyrightText: Converge contributors
# SPDX-License-Identifier: MIT
#
# Fails when a file under SOURCE_DIR includes a header of QtGui or QtWidgets, by module path
# (<QtGui/QColor>, <QtWidgets>) or by class name (<QColor>, <QWidget>), the class names being read
# from the installed module folders FORBIDDEN_DIRS ("|"-separated).
cmake_policy(SET CMP0057 NEW)
string(REPLACE "|" ";" dirs "${FORBIDDEN_DIRS}")
if(NOT dirs)
    message(FATAL_ERROR "no QtGui/QtWidgets include folders given")
endif()

set(forbidden)
foreach(dir IN LISTS dirs)
    file(GLOB headers RELATIVE ${dir} ${dir}/*)
    list(APPEND forbidden ${headers})
endforeach()
list(LENGTH forbidden count)
if(count LESS 100)
    message(FATAL_ERROR "expected hundreds of QtGui/QtWidgets headers, found ${count} in ${dirs}")
endif()

file(GLOB_RECURSE sources ${SOURCE_DIR}/*.h ${SOURCE_DIR}/*.cpp)
set(violations)
foreach(source IN LISTS sources)
    file(STRINGS ${source} includes REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
    foreach(line IN LISTS includes)
        string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"]+)[>\"].*" "\\1" header "${line}")
        if(header MATCHES "^Qt(Gui|Widgets)(/|$)")
            list(APPEND violations "${source}: ${header}")
        elseif(NOT header MATCHES "/" AND header IN_LIST forbidden)
            list(APPEND violations "${source}: ${header}")
        endif()
    endforeach()
endforeach()

if(violations)
    string(REPLACE ";" "\n  " text "${violations}")
    message(FATAL_ERROR "core/ must not include QtGui or QtWidgets headers:\n  ${text}")
endif()
list(LENGTH sources n)
message(STATUS "core layering: ${n} files checked against ${count} QtGui/QtWidgets headers")
