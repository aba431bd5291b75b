// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

namespace converge {

/// Removes secrets from text before it reaches logs, events or error messages.
///
/// Always redacted: Authorization header values, `AccountKey=` in connection strings, the `sig=`
/// of SAS tokens, `X-Amz-Signature` and `X-Amz-Security-Token` values. Also every registered
/// secret (an AWS secret access key, an account key, a token), in its raw, base64 and
/// percent-encoded spellings.
///
/// redact() may be called from several threads at once; addSecret() must not run concurrently
/// with anything else (register secrets before handing the redactor out, or give each thread
/// its own copy).
class Redactor final
{
public:
    Redactor();

    /// Registers a secret. Strings shorter than minimumSecretLength() are ignored: redacting
    /// every "abc" would destroy the text while protecting nothing.
    void addSecret(const QString &secret);
    QStringList secrets() const { return m_secrets; }

    QString redact(const QString &text) const;

    static QString mask() { return QStringLiteral("<redacted>"); }
    static constexpr qsizetype minimumSecretLength() { return 4; }

private:
    QList<QRegularExpression> m_patterns;
    QStringList m_secrets;   ///< as registered
    QStringList m_spellings; ///< every form searched for, longest first
};

} // namespace converge
