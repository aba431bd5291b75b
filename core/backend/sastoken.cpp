// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "sastoken.h"

#include "redactor.h"

#include <QRegularExpression>
#include <QSet>
#include <QTimeZone>

#include <algorithm>

namespace converge {

namespace {

std::optional<SasToken> notASasToken(QString *error, const QString &message)
{
    if (error)
        *error = message;
    return std::nullopt;
}

/// SAS times are ISO 8601 in UTC: "2026-11-30", "2026-11-30T03:48Z", "2026-11-30T03:48:11Z".
QDateTime parseTime(const QString &text)
{
    for (const QString &format :
         {QStringLiteral("yyyy-MM-dd'T'HH:mm:ss'Z'"), QStringLiteral("yyyy-MM-dd'T'HH:mm'Z'"),
          QStringLiteral("yyyy-MM-dd")}) {
        QDateTime time = QDateTime::fromString(text, format);
        if (time.isValid()) {
            time.setTimeZone(QTimeZone::utc());
            return time;
        }
    }
    // Fractional seconds are allowed too.
    QDateTime time = QDateTime::fromString(text, Qt::ISODateWithMs);
    return time.isValid() && time.timeSpec() == Qt::UTC ? time : QDateTime();
}

} // namespace

std::optional<SasToken> SasToken::parse(const QString &input, QString *error)
{
    QString text = input.trimmed();
    if (text.startsWith(QLatin1Char('?')))
        text.remove(0, 1);
    SasToken token;
    QSet<QString> seen;
    for (const QString &pair : text.split(QLatin1Char('&'), Qt::SkipEmptyParts)) {
        const qsizetype eq = pair.indexOf(QLatin1Char('='));
        if (eq <= 0) {
            return notASasToken(
                error, QStringLiteral("the SAS token has a parameter without a value: \"%1\"")
                           .arg(pair.left(eq < 0 ? 20 : eq)));
        }
        const QString name = pair.left(eq);
        if (seen.contains(name)) {
            return notASasToken(
                error, QStringLiteral("the SAS token has the parameter \"%1\" twice").arg(name));
        }
        seen.insert(name);
        token.m_parameters.append({name, pair.mid(eq + 1)});
    }
    if (token.value(QStringLiteral("sig")).isEmpty())
        return notASasToken(error, QStringLiteral("the SAS token has no signature (sig=...)"));
    const QByteArray signature =
        QByteArray::fromPercentEncoding(token.value(QStringLiteral("sig")).toLatin1());
    if (!QByteArray::fromBase64Encoding(signature, QByteArray::AbortOnBase64DecodingErrors))
        return notASasToken(error, QStringLiteral("the SAS token's signature (sig) is not base64"));
    static const QRegularExpression versionPattern(QStringLiteral("^\\d{4}-\\d{2}-\\d{2}$"));
    if (!versionPattern.match(token.version()).hasMatch()) {
        return notASasToken(
            error, QStringLiteral("the SAS token has no valid service version (sv=YYYY-MM-DD)"));
    }
    for (const auto &[name, target] : {std::pair{QStringLiteral("st"), &token.m_start},
                                       std::pair{QStringLiteral("se"), &token.m_expiry}}) {
        const QString raw = QUrl::fromPercentEncoding(token.value(name).toLatin1());
        if (raw.isEmpty())
            continue;
        *target = parseTime(raw);
        if (!target->isValid()) {
            return notASasToken(
                error, QStringLiteral("the SAS token's %1 is not an ISO 8601 UTC time: \"%2\"")
                           .arg(name, raw));
        }
    }
    // A service SAS may take its expiry from a stored access policy (si) instead.
    if (!token.m_expiry.isValid() && token.value(QStringLiteral("si")).isEmpty())
        return notASasToken(error, QStringLiteral("the SAS token has no expiry (se=...)"));
    const QString protocol =
        QUrl::fromPercentEncoding(token.value(QStringLiteral("spr")).toLatin1());
    if (!protocol.isEmpty() && protocol != QLatin1String("https") &&
        protocol != QLatin1String("https,http")) {
        return notASasToken(
            error, QStringLiteral("the SAS token's protocol (spr) must be https or https,http"));
    }
    return token;
}

QString SasToken::value(const QString &name) const
{
    for (const auto &[key, value] : m_parameters) {
        if (key == name)
            return value;
    }
    return {};
}

QString SasToken::toString() const
{
    QStringList parts;
    for (const auto &[key, value] : m_parameters)
        parts << key + QLatin1Char('=') + value;
    return parts.join(QLatin1Char('&'));
}

QString SasToken::redacted() const
{
    QStringList parts;
    for (const auto &[key, value] : m_parameters)
        parts << key + QLatin1Char('=') + (key == QLatin1String("sig") ? Redactor::mask() : value);
    return parts.join(QLatin1Char('&'));
}

QUrl SasToken::appendTo(const QUrl &url) const
{
    QStringList parts;
    const QString existing = url.query(QUrl::FullyEncoded);
    for (const QString &pair : existing.split(QLatin1Char('&'), Qt::SkipEmptyParts)) {
        const QString name = pair.section(QLatin1Char('='), 0, 0);
        const bool replaced = std::any_of(m_parameters.cbegin(), m_parameters.cend(),
                                          [&name](const auto &p) { return p.first == name; });
        if (!replaced)
            parts << pair;
    }
    parts << toString();
    QUrl result = url;
    result.setQuery(parts.join(QLatin1Char('&')), QUrl::StrictMode);
    return result;
}

} // namespace converge
