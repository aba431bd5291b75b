# SPDX-FileCopyrightText: Converge contributors
# SPDX-License-Identifier: MIT
# cmake -DROOT=DIR -P prepare.cmake: an empty tree for the tests' TMPDIR, HOME and kept files.
file(REMOVE_RECURSE ${ROOT})
file(MAKE_DIRECTORY ${ROOT}/tmp ${ROOT}/home ${ROOT}/kept)
