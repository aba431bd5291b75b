# SPDX-FileCopyrightText: Converge contributors
# SPDX-License-Identifier: MIT
#
# Fails when a translation falls behind the sources: lupdate, run over the same sources with the
# same options as the update_translations target (resources/CMakeLists.txt), writes into a copy of
# each checked-in .ts; the copy must then have the same messages and none unfinished.
#   cmake -DSOURCE_DIR=… -DLUPDATE=… -DWORK_DIR=… -P checktranslations.cmake
file(GLOB_RECURSE sources
    ${SOURCE_DIR}/ui/*.cpp ${SOURCE_DIR}/ui/*.h
    ${SOURCE_DIR}/app/*.cpp ${SOURCE_DIR}/app/*.h
    ${SOURCE_DIR}/core/*.cpp ${SOURCE_DIR}/core/*.h)
file(GLOB translations ${SOURCE_DIR}/resources/translations/*.ts)
file(MAKE_DIRECTORY ${WORK_DIR})
set(failures "")
foreach(ts IN LISTS translations)
    get_filename_component(name ${ts} NAME)
    set(copy ${WORK_DIR}/${name})
    configure_file(${ts} ${copy} COPYONLY)
    execute_process(
        COMMAND ${LUPDATE} ${sources} -ts ${copy} -no-obsolete -locations none -silent
        RESULT_VARIABLE result ERROR_VARIABLE errors OUTPUT_QUIET)
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "lupdate failed on ${name}: ${errors}")
    endif()
    file(READ ${ts} before)
    file(READ ${copy} after)
    string(REGEX MATCHALL "<message[ >]" before_messages "${before}")
    string(REGEX MATCHALL "<message[ >]" after_messages "${after}")
    list(LENGTH before_messages n_before)
    list(LENGTH after_messages n_after)
    # The sources of the messages left unfinished, for the failure message.
    string(REGEX MATCHALL "<source>[^<]*</source>[^<]*(<comment>[^<]*</comment>[^<]*)?<translation[^>]*type=\"unfinished\""
        unfinished "${after}")
    list(LENGTH unfinished n_unfinished)
    if(NOT n_before EQUAL n_after OR n_unfinished GREATER 0)
        set(shown "")
        set(i 0)
        foreach(entry IN LISTS unfinished)
            if(i LESS 20)
                string(REGEX REPLACE "<source>([^<]*)</source>.*" "\\1" text "${entry}")
                string(APPEND shown "\n  ${text}")
            endif()
            math(EXPR i "${i} + 1")
        endforeach()
        string(APPEND failures "\n${name}: ${n_before} messages checked in, ${n_after} in the "
            "sources, ${n_unfinished} without a translation (the first 20):${shown}")
    endif()
endforeach()
if(failures)
    message(FATAL_ERROR "translations behind the sources:${failures}\nRun `cmake --build BUILD "
        "--target update_translations`, translate what it marks unfinished (Qt Linguist, or the "
        ".ts by hand), and check the .ts in.")
endif()
list(LENGTH translations n)
message(STATUS "translations: ${n} file(s) current")
