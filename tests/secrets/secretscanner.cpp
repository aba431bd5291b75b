// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "secretscanner.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QUrl>

#include <algorithm>

namespace converge::test {

namespace {

// Larger files are read in part: nothing the suite writes on purpose is this large except the
// 100 MB manifest of the bad-input corpus, which holds no secret.
constexpr qint64 maxBytes = 64 << 20;

bool isSqlite(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) && f.read(16) == QByteArray("SQLite format 3\0", 16);
}

} // namespace

QString SecretScanner::Finding::toString() const
{
    return QStringLiteral("%1: %2 (%3) at byte %4").arg(file, secret, form).arg(offset);
}

bool SecretScanner::addSecret(const QString &name, const QByteArray &value)
{
    if (value.size() < 12)
        return false;
    auto add = [&](const QString &form, const QByteArray &bytes) {
        for (const Needle &n : std::as_const(m_needles))
            if (n.bytes == bytes)
                return;
        m_needles.append({name, form, bytes});
    };
    add(QStringLiteral("raw"), value);
    add(QStringLiteral("base64"), value.toBase64());
    add(QStringLiteral("base64url"),
        value.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
    add(QStringLiteral("percent-encoded"), QUrl::toPercentEncoding(QString::fromLatin1(value)));
    const auto decoded =
        QByteArray::fromBase64Encoding(value, QByteArray::AbortOnBase64DecodingErrors);
    if (decoded && decoded.decoded.size() >= 16)
        add(QStringLiteral("decoded"), decoded.decoded);
    return true;
}

void SecretScanner::addTestSecrets()
{
    // Azurite's published key (the `emulator: true` credential and UseDevelopmentStorage).
    addSecret(QStringLiteral("Azurite account key"),
              "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/"
              "KBHBeksoGMGw==");
    // AWS's documentation example keys, used by the signing tests, in both spellings found.
    addSecret(QStringLiteral("AWS example secret access key"),
              "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
    addSecret(QStringLiteral("AWS example secret access key (variant)"),
              "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY");
    // The dummy secret of `emulator: true` for dynalite.
    addSecret(QStringLiteral("dynalite emulator secret"), "converge-emulator-not-a-secret");
    // The AWS profile tests: static keys and a session token in the shared files, and what the
    // stand-in credential_process (tests/fixtures/aws-credential-process.sh) prints.
    addSecret(QStringLiteral("AWS profile test secret"), "converge-profile-secret-not-real-0001");
    addSecret(QStringLiteral("AWS profile test session token"),
              "converge-profile-session-token-0001");
    addSecret(QStringLiteral("credential_process test secret"),
              "converge-process-secret-not-real-0001");
    addSecret(QStringLiteral("credential_process test session token"),
              "converge-process-session-token-0001");
    // The values the declared kinds' tests give by reference (tests/data/declared/*.json's
    // environment): a secret's value must reach AWS, and nothing else.
    for (const char *value :
         {"converge-secret-value-not-real-0001", "converge-secret-value-not-real-0002",
          "converge-secret-value-not-real-0003"})
        addSecret(QStringLiteral("declared kinds' test secret value"), value);
}

void SecretScanner::addAllowed(const QString &pattern)
{
    m_allowed.append(pattern);
}

bool SecretScanner::addAllowedFrom(const QString &file)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text))
        return false;
    while (!f.atEnd()) {
        const QString line = QString::fromUtf8(f.readLine()).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        addAllowed(line.section(QLatin1Char(' '), 0, 0, QString::SectionSkipEmpty));
    }
    return true;
}

QList<SecretScanner::Finding> SecretScanner::scan(const QByteArray &data, const QString &file) const
{
    QList<Finding> findings;
    for (const Needle &n : m_needles) {
        const qsizetype at = data.indexOf(n.bytes);
        if (at >= 0)
            findings.append({file, n.secret, n.form, at});
    }
    // A SAS signature is base64 of an HMAC-SHA256: 43 characters and '=', often percent-encoded.
    // Redacted ones ("sig=***", "sig=REDACTED") are too short to match.
    static const QRegularExpression signature(
        QStringLiteral(R"(sig(=|%3[Dd])(?:[A-Za-z0-9+/]|%2[BbFf]){30,}(=|%3[Dd])?)"));
    const QString text = QString::fromLatin1(data);
    const QRegularExpressionMatch m = signature.match(text);
    if (m.hasMatch())
        findings.append(
            {file, QStringLiteral("SAS signature"), QStringLiteral("sig="), m.capturedStart()});
    // A bearer token (a JWT: base64url of a JSON header, '.', of a JSON payload, '.'), from
    // whatever command printed it. Redacted ones ("Bearer ***") do not match.
    static const QRegularExpression jwt(
        QStringLiteral(R"(eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*)"));
    const QRegularExpressionMatch token = jwt.match(text);
    if (token.hasMatch())
        findings.append(
            {file, QStringLiteral("bearer token"), QStringLiteral("JWT"), token.capturedStart()});
    return findings;
}

QList<SecretScanner::Finding> SecretScanner::scanPath(const QString &path) const
{
    QStringList files;
    const QFileInfo info(path);
    const QString absolute = info.absoluteFilePath();
    if (info.isFile()) {
        files.append(absolute);
    } else if (info.isDir()) {
        QDirIterator it(absolute, QDir::Files | QDir::Hidden | QDir::System,
                        QDirIterator::Subdirectories);
        while (it.hasNext())
            files.append(it.next());
    }
    QList<QRegularExpression> allowed;
    for (const QString &pattern : m_allowed)
        allowed.append(
            QRegularExpression(QRegularExpression::wildcardToRegularExpression(pattern)));
    const QDir root(info.isDir() ? absolute : info.absolutePath());
    QList<Finding> findings;
    for (const QString &file : std::as_const(files)) {
        const QFileInfo fi(file);
        if (fi.isSymLink())
            continue;
        const QString relative = root.relativeFilePath(file);
        if (std::any_of(allowed.cbegin(), allowed.cend(), [&](const QRegularExpression &re) {
                return re.match(relative).hasMatch();
            }))
            continue;
        const QFile::Permissions others =
            QFile::ReadGroup | QFile::WriteGroup | QFile::ReadOther | QFile::WriteOther;
        if (!(fi.permissions() & others) && !isSqlite(file))
            continue;
        QFile f(file);
        if (!f.open(QIODevice::ReadOnly))
            continue;
        ++m_filesScanned;
        findings += scan(f.read(maxBytes), file);
    }
    return findings;
}

} // namespace converge::test
