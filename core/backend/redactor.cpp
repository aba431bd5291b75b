// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "redactor.h"

#include <QUrl>

#include <algorithm>

namespace converge {

Redactor::Redactor()
{
    // Each pattern keeps group 1 (the name and separator) and replaces the value after it.
    const auto pattern = [](const QString &expression) {
        return QRegularExpression(expression, QRegularExpression::CaseInsensitiveOption);
    };
    m_patterns = {
        // "Authorization: SharedKey acct:sig", "authorization=...", JSON "Authorization": "..."
        pattern(QStringLiteral(R"((\bAuthorization["']?\s*[:=]\s*["']?)([^"'\r\n]+))")),
        pattern(QStringLiteral(R"((\bAccountKey\s*=\s*)([^;"'\s]+))")),
        pattern(QStringLiteral(R"(((?:^|[?&;\s"'])sig=)([^&;"'\s]+))")),
        pattern(QStringLiteral(R"((\bX-Amz-Signature["']?\s*[:=]\s*["']?)([^&;"'\s]+))")),
        pattern(QStringLiteral(R"((\bX-Amz-Security-Token["']?\s*[:=]\s*["']?)([^&;"'\s]+))")),
    };
}

void Redactor::addSecret(const QString &secret)
{
    if (secret.size() < minimumSecretLength() || m_secrets.contains(secret))
        return;
    m_secrets << secret;
    const QByteArray utf8 = secret.toUtf8();
    for (const QString &spelling : {secret, QString::fromLatin1(utf8.toBase64()),
                                    QString::fromLatin1(QUrl::toPercentEncoding(secret))}) {
        if (!m_spellings.contains(spelling))
            m_spellings << spelling;
    }
    // Longest first, so that a secret containing another is replaced whole.
    std::sort(m_spellings.begin(), m_spellings.end(),
              [](const QString &a, const QString &b) { return a.size() > b.size(); });
}

QString Redactor::redact(const QString &text) const
{
    QString result = text;
    for (const QString &spelling : m_spellings)
        result.replace(spelling, mask());
    for (const QRegularExpression &expression : m_patterns) {
        QString out;
        qsizetype last = 0;
        for (auto it = expression.globalMatch(result); it.hasNext();) {
            const QRegularExpressionMatch match = it.next();
            out += QStringView(result).mid(last, match.capturedStart(2) - last);
            out += mask();
            last = match.capturedEnd(2);
        }
        out += QStringView(result).mid(last);
        result = std::move(out);
    }
    return result;
}

} // namespace converge
