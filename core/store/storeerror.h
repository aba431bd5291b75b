// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace converge {

/// Why a workspace operation failed. Every failed operation changed nothing.
struct StoreError
{
    enum class Code {
        None,
        NotAWorkspace, ///< the file exists but is not a Converge workspace (or not SQLite)
        NewerVersion,  ///< written by a newer Converge; not touched
        Corrupt,       ///< failed SQLite's integrity check or could not be read
        Conflict,      ///< a stale resourceVersion: someone else wrote first
        NotFound,
        Invalid,        ///< the request itself is wrong (e.g. the same kind/name twice)
        AlreadyManaged, ///< the backend resource is another workspace resource's (BackendIdIndex)
        Io,             ///< the disk, permissions, a lock held too long
    };

    Code code = Code::None;
    QString message;

    bool isError() const { return code != Code::None; }
};

} // namespace converge
