// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "namequery.h"

#include <QUrl>

namespace converge {

namespace {

QString normalId(const QString &id)
{
    QString s = id.trimmed();
    if (const qsizetype q = s.indexOf(QLatin1Char('?')); q >= 0)
        s.truncate(q); // a SAS or other query is not part of the resource's identity
    while (s.endsWith(QLatin1Char('/')))
        s.chop(1);
    return s;
}

} // namespace

NameQuery::NameQuery(const QString &text)
    : m_text(text.trimmed())
{
    if (m_text.isEmpty())
        return;
    if (readS3())
        return;
    if (m_text.startsWith(QLatin1String("arn:"))) {
        // arn:aws:dynamodb:REGION:ACCOUNT:table/NAME
        m_normalId = m_text;
        const qsizetype slash = m_text.lastIndexOf(QLatin1Char('/'));
        m_idName = slash >= 0 ? m_text.mid(slash + 1) : QString();
        return;
    }
    const QUrl url(m_text, QUrl::StrictMode);
    if (url.isValid() && !url.scheme().isEmpty() && !url.host().isEmpty()) {
        m_normalId = normalId(m_text);
        // https://ACCOUNT.blob.core.windows.net/CONTAINER[/BLOB…], or the emulator's
        // http://127.0.0.1:10000/ACCOUNT/CONTAINER[/BLOB…]: the container (or queue, table)
        // is named right after the account, a blob by the rest of the path.
        QStringList parts = url.path().split(QLatin1Char('/'), Qt::SkipEmptyParts);
        const bool emulator =
            url.host().front().isDigit() || url.host() == QLatin1String("localhost");
        if (emulator && !parts.isEmpty())
            parts.removeFirst();
        if (parts.size() == 1) {
            m_idName = parts.first();
        } else if (parts.size() > 1) {
            m_idName = parts.mid(1).join(QLatin1Char('/'));
            m_path = m_idName;
            // The container's URL: everything up to the container's name in the path.
            QUrl container = url.adjusted(QUrl::RemoveQuery | QUrl::RemoveFragment);
            const QStringList all = url.path().split(QLatin1Char('/'), Qt::SkipEmptyParts);
            container.setPath(QLatin1Char('/') +
                              all.mid(0, all.size() - parts.size() + 1).join(QLatin1Char('/')));
            m_containerText = container.toString();
        }
        return;
    }
    const qsizetype slash = m_text.indexOf(QLatin1Char('/'));
    if (slash > 0 && m_text.front().isUpper()) {
        m_kind = m_text.left(slash);
        m_name = m_text.mid(slash + 1);
    } else {
        m_name = m_text;
    }
}

bool NameQuery::readS3()
{
    // s3://BUCKET[/KEY], arn:aws:s3:::BUCKET[/KEY], and AWS's own URLs of either addressing:
    // https://BUCKET.s3[.REGION].amazonaws.com[/KEY],
    // https://s3[.REGION].amazonaws.com/BUCKET[/KEY].
    QString bucket;
    QString key;
    const auto split = [&bucket, &key](const QString &rest) {
        const qsizetype slash = rest.indexOf(QLatin1Char('/'));
        bucket = slash < 0 ? rest : rest.left(slash);
        key = slash < 0 ? QString() : rest.mid(slash + 1);
    };
    if (m_text.startsWith(QLatin1String("s3://"))) {
        split(m_text.mid(5));
    } else if (m_text.startsWith(QLatin1String("arn:aws:s3:::"))) {
        split(m_text.mid(13));
    } else {
        const QUrl url(m_text, QUrl::StrictMode);
        const QString host = url.host().toLower();
        if (!url.isValid() || !host.endsWith(QLatin1String(".amazonaws.com")))
            return false;
        const QString path = url.path(QUrl::FullyDecoded).mid(1);
        if (host.startsWith(QLatin1String("s3.")) || host.startsWith(QLatin1String("s3-")))
            split(path);
        else if (const qsizetype at = host.indexOf(QLatin1String(".s3")); at > 0)
            bucket = host.left(at), key = path;
        else
            return false;
    }
    while (key.endsWith(QLatin1Char('/')))
        key.chop(1);
    if (bucket.isEmpty())
        return false;
    if (key.isEmpty()) {
        // The bucket itself, as `S3Bucket/NAME` finds it (its backend name is its ID).
        m_kind = QStringLiteral("S3Bucket");
        m_name = bucket;
        return true;
    }
    // An object: found by the ARN Converge records for it, else listed down to from its bucket.
    m_normalId = QStringLiteral("arn:aws:s3:::%1/%2").arg(bucket, key);
    m_idName = key;
    m_path = key;
    m_containerText = QStringLiteral("S3Bucket/") + bucket;
    return true;
}

QString NameQuery::lookupName() const
{
    const QString name = m_normalId.isEmpty() ? m_name : m_idName;
    return name.contains(QLatin1Char('/')) ? QString() : name;
}

int NameQuery::score(const QString &kind, const QString &name, const QString &backendName,
                     const QString &resourceId) const
{
    if (m_text.isEmpty())
        return 0;
    if (!m_normalId.isEmpty()) {
        if (!resourceId.isEmpty() && normalId(resourceId) == m_normalId)
            return 100;
        return !m_idName.isEmpty() && backendName == m_idName ? 60 : 0;
    }
    if (!m_kind.isEmpty()) {
        if (kind.compare(m_kind, Qt::CaseInsensitive) != 0)
            return 0;
        if (name == m_name)
            return 100;
        return backendName == m_name ? 80 : 0;
    }
    if (backendName == m_name)
        return 70;
    if (name == m_name)
        return 60;
    return 0;
}

} // namespace converge
