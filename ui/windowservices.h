// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

class QSettings;

namespace converge {

class Controller;
class CredentialStore;
class KindRegistry;

/// What app/ hands the window: nothing here is owned by the window, and everything must outlive
/// it. The window opens its own workspace connections (on worker threads) from the path.
struct WindowServices
{
    const KindRegistry &kinds;
    QString workspacePath;
    /// The controller running in this process, or null when another process runs it (or none
    /// does); the window then shows the workspace and follows its changes, and the actions that
    /// need a controller are disabled.
    Controller *controller = nullptr;
    /// Where geometry and dock state are kept; null for the application's default QSettings.
    QSettings *settings = nullptr;
    /// Where the connect dialog stores account secrets (the OS keychain); null offers only a
    /// file or an environment variable.
    CredentialStore *credentials = nullptr;
};

} // namespace converge
