// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

/// Facts about this build of Converge, for --version, the About box and User-Agent headers.
namespace converge::BuildInfo {

/// The version from the top-level CMakeLists.txt, e.g. "0.1.0".
QString version();

/// The commit this build was made of (12 hex digits, "+changes" when tracked files differed),
/// or "unknown" when it was not built from a git checkout.
QString commit();

/// The reverse-DNS application id, also the desktop file's name.
QString applicationId();

/// "Converge/0.1.0 (Qt 6.4.2; linux)", for User-Agent headers and logs.
QString userAgent();

} // namespace converge::BuildInfo
