// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
// The source of the tests' precompiled headers (tests/common/CMakeLists.txt): nothing of its own.
