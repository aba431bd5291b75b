// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

// Included before every test file (tests/CMakeLists.txt, converge_add_test): QTEST_MAIN,
// QTEST_GUILESS_MAIN and QTEST_APPLESS_MAIN define `convergeTest_<TestClass>(argc, argv)`
// instead of main(), with the same body as Qt's. The files of a folder are linked into one
// executable whose generated main() runs the test its first argument names, so that the suite
// builds a dozen executables rather than one per file (tests/CMakeLists.txt says why).

#include <QTest>

#undef QTEST_MAIN_WRAPPER
#define QTEST_MAIN_WRAPPER(TestObject, ...)                                                        \
    int convergeTest_##TestObject(int argc, char *argv[])                                          \
    {                                                                                              \
        QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>();                         \
        __VA_ARGS__                                                                                \
        TestObject tc;                                                                             \
        QTEST_SET_MAIN_SOURCE_PATH                                                                 \
        return QTest::qExec(&tc, argc, argv);                                                      \
    }
