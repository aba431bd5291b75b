// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "azureerrormapper.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QXmlStreamReader>

namespace converge {

namespace {

using Category = BackendError::Category;

QString firstLine(const QString &text)
{
    return text.section(QLatin1Char('\n'), 0, 0).trimmed();
}

AzureErrorMapper::Body parseXml(const QByteArray &body)
{
    AzureErrorMapper::Body result;
    QXmlStreamReader xml(body);
    bool inError = false;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement())
            continue;
        if (!inError) {
            if (xml.name() != QLatin1String("Error")) {
                result.parseError = QStringLiteral("an XML body without an <Error> element");
                return result;
            }
            inError = true;
            continue;
        }
        if (xml.name() == QLatin1String("Code"))
            result.code = xml.readElementText(QXmlStreamReader::SkipChildElements).trimmed();
        else if (xml.name() == QLatin1String("Message"))
            result.message = firstLine(xml.readElementText(QXmlStreamReader::SkipChildElements));
        else
            // AuthenticationErrorDetail echoes the request's signature: never kept.
            xml.skipCurrentElement();
    }
    if (xml.hasError() && result.code.isEmpty())
        result.parseError =
            QStringLiteral("a malformed XML error body (%1)").arg(xml.errorString());
    return result;
}

AzureErrorMapper::Body parseJson(const QByteArray &body)
{
    AzureErrorMapper::Body result;
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject()) {
        result.parseError = QStringLiteral("a malformed JSON error body");
        return result;
    }
    const QJsonObject root = doc.object();
    QJsonObject odata = root.value(QStringLiteral("odata.error")).toObject();
    if (odata.isEmpty())
        odata = root.value(QStringLiteral("error")).toObject();
    if (odata.isEmpty()) {
        result.parseError = QStringLiteral("a JSON body without \"odata.error\"");
        return result;
    }
    result.code = odata.value(QStringLiteral("code")).toString().trimmed();
    const QJsonValue message = odata.value(QStringLiteral("message"));
    result.message =
        firstLine(message.isObject() ? message.toObject().value(QStringLiteral("value")).toString()
                                     : message.toString());
    return result;
}

} // namespace

AzureErrorMapper::Body AzureErrorMapper::parseBody(const QByteArray &body)
{
    QByteArray trimmed = body.trimmed();
    if (trimmed.startsWith("\xEF\xBB\xBF")) // Azure's XML starts with a UTF-8 byte order mark
        trimmed = trimmed.mid(3).trimmed();
    if (trimmed.isEmpty())
        return {};
    if (trimmed.startsWith('<'))
        return parseXml(trimmed);
    if (trimmed.startsWith('{'))
        return parseJson(trimmed);
    Body result;
    result.parseError = QStringLiteral("an error body that is neither XML nor JSON");
    return result;
}

std::optional<BackendError::Category> AzureErrorMapper::categoryForCode(const QString &code)
{
    if (code.isEmpty())
        return std::nullopt;
    if (code.endsWith(QLatin1String("AlreadyExists")) ||
        code.endsWith(QLatin1String("BeingDeleted")))
        return Category::Conflict;
    static const QStringList unauthorized{
        QStringLiteral("AuthenticationFailed"),
        QStringLiteral("AuthorizationFailure"),
        QStringLiteral("AuthorizationPermissionMismatch"),
        QStringLiteral("AuthorizationProtocolMismatch"),
        QStringLiteral("AuthorizationResourceTypeMismatch"),
        QStringLiteral("AuthorizationServiceMismatch"),
        QStringLiteral("AuthorizationSourceIPMismatch"),
        QStringLiteral("InsufficientAccountPermissions"),
        QStringLiteral("InvalidAuthenticationInfo"),
        QStringLiteral("AccountIsDisabled"),
        QStringLiteral("NoAuthenticationInformation"),
    };
    if (unauthorized.contains(code))
        return Category::Unauthorized;
    static const QStringList invalid{
        QStringLiteral("InvalidResourceName"),
        QStringLiteral("OutOfRangeInput"),
        QStringLiteral("InvalidHeaderValue"),
        QStringLiteral("InvalidQueryParameterValue"),
        QStringLiteral("OutOfRangeQueryParameterValue"),
        QStringLiteral("InvalidInput"),
        QStringLiteral("InvalidUri"),
        QStringLiteral("InvalidXmlDocument"),
        QStringLiteral("InvalidXmlNodeValue"),
        QStringLiteral("InvalidMetadata"),
        QStringLiteral("EmptyMetadataKey"),
        QStringLiteral("MetadataTooLarge"),
        QStringLiteral("MissingRequiredHeader"),
        QStringLiteral("MissingRequiredQueryParameter"),
        QStringLiteral("UnsupportedHeader"),
        QStringLiteral("UnsupportedQueryParameter"),
        QStringLiteral("Md5Mismatch"),
        QStringLiteral("InvalidMd5"),
        QStringLiteral("RequestBodyTooLarge"),
        QStringLiteral("PublicAccessNotPermitted"),
        QStringLiteral("InvalidBlobType"),
        QStringLiteral("CannotVerifyCopySource"),
    };
    if (invalid.contains(code))
        return Category::Invalid;
    if (code == QLatin1String("ServerBusy"))
        return Category::Throttled;
    if (code == QLatin1String("OperationTimedOut") || code == QLatin1String("InternalError"))
        return Category::Transient;
    return std::nullopt;
}

BackendError AzureErrorMapper::map(const HttpResponse &response)
{
    BackendError error = response.toError();
    if (response.clientError || response.status == 0)
        return error; // our refusal or a transport failure: nothing of Azure's to read

    const Body body = parseBody(response.body);
    const QString headerCode = QString::fromUtf8(response.header("x-ms-error-code")).trimmed();
    error.code = headerCode.isEmpty() ? body.code : headerCode;
    error.message = body.message;
    if (error.message.isEmpty()) {
        error.message = body.parseError.isEmpty()
                            ? QStringLiteral("HTTP %1").arg(response.status)
                            : QStringLiteral("HTTP %1 with %2")
                                  .arg(QString::number(response.status), body.parseError);
    }

    if (response.status == 404)
        error.category = Category::NotFound;
    else if (const auto category = categoryForCode(error.code))
        error.category = *category;
    else
        error.category = BackendError::categoryForStatus(response.status);
    // A 403 is about permissions whatever its code says.
    if (response.status == 401 || response.status == 403)
        error.category = Category::Unauthorized;
    return error;
}

} // namespace converge
