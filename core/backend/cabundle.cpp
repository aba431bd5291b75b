// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "cabundle.h"

#include <QDir>
#include <QFile>
#include <QProcessEnvironment>

namespace converge {

void CaBundle::addFile(const QString &path, const QString &source)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        m_problems
            << QStringLiteral("%1: cannot read %2: %3").arg(source, path, file.errorString());
        return;
    }
    const QList<QSslCertificate> found = QSslCertificate::fromData(file.readAll(), QSsl::Pem);
    if (found.isEmpty()) {
        m_problems << QStringLiteral("%1: no PEM certificate in %2").arg(source, path);
        return;
    }
    m_certificates += found;
}

CaBundle CaBundle::fromEnvironment(const Environment &environment)
{
    CaBundle bundle;
    const QString file = environment.value(QStringLiteral("SSL_CERT_FILE")).trimmed();
    if (!file.isEmpty())
        bundle.addFile(file, QStringLiteral("SSL_CERT_FILE"));
    const QString dirs = environment.value(QStringLiteral("SSL_CERT_DIR")).trimmed();
    for (const QString &path : dirs.split(QLatin1Char(':'), Qt::SkipEmptyParts)) {
        const QDir dir(path);
        if (!dir.exists()) {
            bundle.m_problems << QStringLiteral("SSL_CERT_DIR: no folder %1").arg(path);
            continue;
        }
        // OpenSSL's hashed links (abcd1234.0) point at the same files: read each target once.
        QStringList seen;
        for (const QFileInfo &entry : dir.entryInfoList(QDir::Files | QDir::Readable, QDir::Name)) {
            const QString target = entry.canonicalFilePath();
            if (target.isEmpty() || seen.contains(target))
                continue;
            seen << target;
            const QList<QSslCertificate> found = QSslCertificate::fromPath(target, QSsl::Pem);
            bundle.m_certificates += found; // other files in the folder are not certificates
        }
    }
    return bundle;
}

CaBundle CaBundle::fromProcess()
{
    Environment environment;
    const QProcessEnvironment process = QProcessEnvironment::systemEnvironment();
    for (const char *name : {"SSL_CERT_FILE", "SSL_CERT_DIR"})
        environment.insert(QLatin1String(name), process.value(QLatin1String(name)));
    return fromEnvironment(environment);
}

} // namespace converge
