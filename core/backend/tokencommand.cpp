// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "tokencommand.h"

#include <algorithm>

namespace converge {

std::function<Outcome<AccessToken>(const QByteArray &)> TokenCommand::bareToken(qint64 lifetimeSecs)
{
    return [lifetimeSecs](const QByteArray &output) -> Outcome<AccessToken> {
        const QByteArray token = output.trimmed();
        // One line of token characters: anything else (a prompt, a warning) is not a token and
        // must not be sent as one.
        const bool plausible =
            !token.isEmpty() && !token.contains('\n') &&
            std::all_of(token.begin(), token.end(), [](char c) { return c > ' ' && c < 127; });
        if (!plausible) {
            BackendError error;
            error.category = BackendError::Category::Terminal;
            error.code = QStringLiteral("InvalidTokenOutput");
            error.message = token.isEmpty() ? QStringLiteral("printed no token")
                                            : QStringLiteral("printed something that is not a "
                                                             "token on one line");
            return error;
        }
        return AccessToken{QString::fromLatin1(token),
                           QDateTime::currentDateTimeUtc().addSecs(lifetimeSecs)};
    };
}

} // namespace converge
