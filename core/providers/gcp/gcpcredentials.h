// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "outcome.h"
#include "tokencommandcache.h"

#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QMutex>

#include <atomic>
#include <chrono>
#include <functional>

namespace converge {

class CredentialStore;
class HttpClient;
struct Resource;

/// Access tokens for GcpProjects, from the credential their spec names, kept in memory only and
/// shared by the workers (the factory owns one):
/// - `emulator: true`: none (an empty token: no Authorization header);
/// - `gcloud: {account?}` and `tokenCommand: {command, args}`: what the program prints, through
///   a TokenCommandCache; a bare token says nothing of its expiry, so it is kept for
///   `commandTokenLifetime`, well under Google's hour;
/// - `serviceAccountKey: {file|env|keychain}`: a JWT signed with the key
///   (GcpServiceAccountKey) exchanged at its token_uri;
/// - `applicationDefault: true`: the ADC file (GOOGLE_APPLICATION_CREDENTIALS, else gcloud's
///   application_default_credentials.json): an authorized user's refresh token exchanged at its
///   token_uri, or a service account key as above.
/// A token is reused until `refreshBefore` its expiry; one the service refused (401) is
/// forgotten by token(…, fresh = true). A failed exchange is given again for `failureHold`
/// without asking, as TokenCommandCache does for commands. Errors are Unauthorized, name the
/// credential and what to do, and never hold a token, a key or a refresh token.
/// Thread-safe; exchanges run on the calling worker thread under the cache's lock.
class GcpCredentials final
{
public:
    struct Options
    {
        TokenCommandCache::Options commands;
        std::chrono::seconds refreshBefore{300};
        std::chrono::seconds commandTokenLifetime{45 * 60};
        std::chrono::seconds failureHold{15};
    };

    GcpCredentials();
    explicit GcpCredentials(Options options);
    Q_DISABLE_COPY_MOVE(GcpCredentials)

    /// The bearer token for `project`, or an empty string for `emulator: true`. `fresh`: the
    /// last one was refused; ask for a new one. Worker threads only (it may run a program or
    /// send a request).
    Outcome<QString> token(const Resource &project, HttpClient &http, CredentialStore *keychain,
                           const std::function<bool()> &isCancelled, bool fresh = false);

    /// How many token requests were sent to token endpoints (for tests).
    int exchanges() const { return m_exchanges; }
    /// How many times a token program was started (for tests).
    int commandRuns() const { return m_commands.runs(); }

private:
    Outcome<QString> fromCommand(const TokenCommand &command, bool fresh);
    /// A token from the cache under `key`, or from `exchange` (run under the lock).
    Outcome<QString> cached(const QString &key, bool fresh,
                            const std::function<Outcome<AccessToken>()> &exchange);
    /// The token a service account key's JWT is exchanged for; `source` names the key.
    static Outcome<AccessToken> keyExchange(const QByteArray &json, const QString &source,
                                            HttpClient &http,
                                            const std::function<bool()> &isCancelled);
    /// The token the ADC file at `path` gives: a refresh token's, or a key's.
    static Outcome<AccessToken>
    applicationDefaultExchange(const QString &path, HttpClient &http,
                               const std::function<bool()> &isCancelled);

    Options m_options;
    TokenCommandCache m_commands;
    QMutex m_mutex;
    QHash<QString, AccessToken> m_tokens;
    struct Failure
    {
        BackendError error;
        QDateTime until;
    };
    QHash<QString, Failure> m_failures;
    std::atomic<int> m_exchanges{0};
};

} // namespace converge
