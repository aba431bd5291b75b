// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QHash>
#include <QList>
#include <QSslCertificate>
#include <QString>
#include <QStringList>

namespace converge {

/// The certificate authorities a person adds for TLS besides the system's, read as OpenSSL
/// reads them: `SSL_CERT_FILE` (one PEM bundle) and `SSL_CERT_DIR` (folders of PEM files,
/// separated by ':'). Qt's TLS backend loads the system's roots itself and ignores both
/// variables, so a company's own root CA would otherwise never be trusted.
///
/// A value; HttpClient reads it once when it is made.
class CaBundle final
{
public:
    using Environment = QHash<QString, QString>;

    /// Reads the files the environment names. Unreadable files and files without a
    /// certificate are listed in problems() (for a warning), not fatal.
    static CaBundle fromEnvironment(const Environment &environment);
    static CaBundle fromProcess();

    /// The certificates added to the system's; empty when nothing is set.
    const QList<QSslCertificate> &certificates() const { return m_certificates; }
    const QStringList &problems() const { return m_problems; }
    bool isEmpty() const { return m_certificates.isEmpty(); }

private:
    void addFile(const QString &path, const QString &source);

    QList<QSslCertificate> m_certificates;
    QStringList m_problems;
};

} // namespace converge
