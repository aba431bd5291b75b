// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "gcpserviceaccountkey.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <memory>

namespace converge {

namespace {

BackendError keyRefused(const QString &message)
{
    return BackendError::make(BackendError::Category::Unauthorized,
                              QStringLiteral("InvalidServiceAccountKey"), message);
}

QByteArray base64Url(const QByteArray &bytes)
{
    return bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

} // namespace

Outcome<GcpServiceAccountKey> GcpServiceAccountKey::parse(const QByteArray &json,
                                                          const QString &source)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (!document.isObject())
        return keyRefused(QStringLiteral("%1 is not a JSON service account key").arg(source));
    const QJsonObject o = document.object();
    if (o.value(QStringLiteral("type")).toString() != QLatin1String("service_account"))
        return keyRefused(QStringLiteral("%1 is not a service account key (its type is not "
                                         "service_account)")
                              .arg(source));
    GcpServiceAccountKey key;
    key.clientEmail = o.value(QStringLiteral("client_email")).toString();
    key.privateKeyId = o.value(QStringLiteral("private_key_id")).toString();
    key.privateKeyPem = o.value(QStringLiteral("private_key")).toString().toUtf8();
    key.tokenUri = o.value(QStringLiteral("token_uri")).toString(defaultTokenUri());
    if (key.clientEmail.isEmpty() || key.privateKeyPem.isEmpty())
        return keyRefused(QStringLiteral("%1 has no client_email or no private_key").arg(source));
    return key;
}

Outcome<QByteArray> GcpServiceAccountKey::assertion(const QDateTime &now) const
{
    const qint64 issued = now.toSecsSinceEpoch();
    QJsonObject header{{QStringLiteral("alg"), QStringLiteral("RS256")},
                       {QStringLiteral("typ"), QStringLiteral("JWT")}};
    if (!privateKeyId.isEmpty())
        header.insert(QStringLiteral("kid"), privateKeyId);
    const QJsonObject claims{{QStringLiteral("iss"), clientEmail},
                             {QStringLiteral("scope"), cloudPlatformScope()},
                             {QStringLiteral("aud"), tokenUri},
                             {QStringLiteral("iat"), issued},
                             {QStringLiteral("exp"), issued + 3600}};
    const QByteArray signingInput =
        base64Url(QJsonDocument(header).toJson(QJsonDocument::Compact)) + '.' +
        base64Url(QJsonDocument(claims).toJson(QJsonDocument::Compact));

    const std::unique_ptr<BIO, decltype(&BIO_free)> bio(
        BIO_new_mem_buf(privateKeyPem.constData(), int(privateKeyPem.size())), BIO_free);
    const std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> pkey(
        bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr) : nullptr,
        EVP_PKEY_free);
    if (!pkey || EVP_PKEY_get_base_id(pkey.get()) != EVP_PKEY_RSA)
        return keyRefused(QStringLiteral("the private_key of %1's key is not an RSA key in PEM")
                              .arg(clientEmail));
    const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(),
                                                                      EVP_MD_CTX_free);
    size_t length = 0;
    const auto *data = reinterpret_cast<const unsigned char *>(signingInput.constData());
    if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, pkey.get()) != 1 ||
        EVP_DigestSign(ctx.get(), nullptr, &length, data, size_t(signingInput.size())) != 1)
        return keyRefused(QStringLiteral("could not sign with %1's key").arg(clientEmail));
    QByteArray signature(qsizetype(length), Qt::Uninitialized);
    if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char *>(signature.data()), &length,
                       data, size_t(signingInput.size())) != 1)
        return keyRefused(QStringLiteral("could not sign with %1's key").arg(clientEmail));
    signature.resize(qsizetype(length));
    return QByteArray(signingInput + '.' + base64Url(signature));
}

} // namespace converge
