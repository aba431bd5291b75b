// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <optional>

namespace converge {

/// Background work yields to the thread a person is looking at. The window's controller threads
/// and its loading thread lower themselves with lowerCurrent(): on a busy machine (an emulator,
/// the workers and the loads wanting the same cores) the GUI thread then gets the core it needs
/// at once instead of its fair share of one, which is what a frame's 16 ms cannot afford.
///
/// On Linux this is the calling thread's own nice value (setpriority on its thread id; a thread
/// may always lower itself, never raise itself back without privilege); elsewhere QThread's
/// LowPriority. A command-line run leaves its threads as they are: nothing there is waiting on
/// a person.
class ThreadPriority final
{
public:
    /// The nice value background threads run at, on Linux: the GUI thread's (0) gets about
    /// nine tenths of a contended core against one of them.
    static constexpr int backgroundNice = 10;

    /// Lowers the calling thread to background priority. Idempotent.
    static void lowerCurrent();
    /// The calling thread's nice value, where the platform has one per thread (Linux).
    static std::optional<int> currentNice();
};

} // namespace converge
