// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "outcome.h"
#include "tokencommand.h"

#include <QByteArray>
#include <QUrl>
#include <QUrlQuery>

#include <functional>

namespace converge {

class HttpClient;

/// Asks an OAuth 2.0 token endpoint (Google's, or a key's token_uri) for an access token: a
/// form POST, answered by `{access_token, expires_in}`. A refusal (`{error,
/// error_description}`) is Unauthorized and says what the endpoint said; no secret of the form
/// ever reaches a message.
class GcpOAuth final
{
public:
    /// `what` names the credential in messages ("the service account x@y's key").
    static Outcome<AccessToken> exchange(HttpClient &http, const QUrl &tokenUri,
                                         const QUrlQuery &form, const QString &what,
                                         const std::function<bool()> &isCancelled);
};

} // namespace converge
