// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QDateTime>
#include <QList>
#include <QPair>
#include <QString>
#include <QUrl>

#include <optional>

namespace converge {

/// An Azure Storage shared access signature (account or service SAS) as a user pastes it.
///
/// Converge never signs SAS tokens; it checks that one is well formed (signature and version
/// present, dates parse, no parameter twice), tells when it expires, appends it to request URLs
/// and prints it with its `sig` redacted.
class SasToken final
{
public:
    /// Parses "sv=...&ss=...&sig=..." (a leading '?' is allowed). On failure returns nothing and
    /// says why in `error`, without echoing the signature.
    static std::optional<SasToken> parse(const QString &text, QString *error = nullptr);

    /// The parameter's value as it was written (percent-encoded), or an empty string.
    QString value(const QString &name) const;
    QString version() const { return value(QStringLiteral("sv")); }
    QString permissions() const { return value(QStringLiteral("sp")); }
    QDateTime start() const { return m_start; }   ///< invalid when not given
    QDateTime expiry() const { return m_expiry; } ///< invalid when not given (a stored policy)
    bool isExpired(const QDateTime &now) const { return m_expiry.isValid() && now >= m_expiry; }

    /// The token as given, without a leading '?'. Contains the signature: never log it.
    QString toString() const;
    /// The token with the value of `sig` replaced, safe for logs.
    QString redacted() const;
    /// `url` with the token's parameters added to its query (replacing any of the same name).
    QUrl appendTo(const QUrl &url) const;

    friend bool operator==(const SasToken &, const SasToken &) = default;

private:
    QList<QPair<QString, QString>> m_parameters; // encoded, in order
    QDateTime m_start;
    QDateTime m_expiry;
};

} // namespace converge
