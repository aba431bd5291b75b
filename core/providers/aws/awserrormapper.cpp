// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "awserrormapper.h"

#include "awsqueryxml.h"
#include "crc32.h"
#include "httpresponse.h"
#include "redactor.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QRegularExpression>

namespace converge {

namespace {

using Category = BackendError::Category;

struct CodeCategory
{
    const char *code;
    Category category;
};

// Codes from the DynamoDB API reference ("Common Errors" and the operations' errors).
constexpr CodeCategory knownCodes[] = {
    {"ResourceNotFoundException", Category::NotFound},
    {"ResourceInUseException", Category::Conflict},
    {"ConditionalCheckFailedException", Category::Conflict},
    {"TransactionConflictException", Category::Conflict},
    {"ValidationException", Category::Invalid},
    {"SerializationException", Category::Invalid},
    {"InvalidParameterValue", Category::Invalid},
    {"InvalidParameterCombination", Category::Invalid},
    {"MissingParameter", Category::Invalid},
    {"MalformedQueryString", Category::Invalid},
    {"UnknownOperationException", Category::Invalid},
    {"ThrottlingException", Category::Throttled},
    {"ProvisionedThroughputExceededException", Category::Throttled},
    {"RequestLimitExceeded", Category::Throttled},
    {"LimitExceededException", Category::Throttled},
    {"InternalServerError", Category::Transient},
    {"InternalFailure", Category::Transient},
    {"ServiceUnavailable", Category::Transient},
    {"UnrecognizedClientException", Category::Unauthorized},
    {"InvalidSignatureException", Category::Unauthorized},
    {"IncompleteSignatureException", Category::Unauthorized},
    {"AccessDeniedException", Category::Unauthorized},
    {"MissingAuthenticationTokenException", Category::Unauthorized},
    {"InvalidClientTokenId", Category::Unauthorized},
    {"ExpiredTokenException", Category::Unauthorized},
    {"NotAuthorized", Category::Unauthorized},
    {"OptInRequired", Category::Unauthorized},
    // The query protocol's (SNS, IAM) and the other json services'.
    {"NotFound", Category::NotFound},
    {"NoSuchEntity", Category::NotFound},
    {"EntityAlreadyExists", Category::Conflict},
    {"ResourceAlreadyExistsException", Category::Conflict},
    {"InvalidParameter", Category::Invalid},
    {"InvalidParameterException", Category::Invalid},
    {"ValidationError", Category::Invalid},
    {"Throttling", Category::Throttled},
    {"ThrottledException", Category::Throttled},
    {"SignatureDoesNotMatch", Category::Unauthorized},
    {"AuthorizationError", Category::Unauthorized},
    {"AccessDenied", Category::Unauthorized},
    // S3's (rest-xml).
    {"NoSuchBucket", Category::NotFound},
    {"BucketAlreadyOwnedByYou", Category::Conflict},
    // Another account's bucket has the name: only another name helps.
    {"BucketAlreadyExists", Category::Invalid},
    {"BucketNotEmpty", Category::Conflict},
    {"MalformedXML", Category::Invalid},
    {"InvalidBucketName", Category::Invalid},
    {"InvalidDigest", Category::Invalid},
    {"SlowDown", Category::Throttled},
    // Lambda's (rest-json). ResourceConflictException is a function that exists already (to
    // create) or one whose update still runs (LastUpdateStatus InProgress): passes.
    {"ResourceConflictException", Category::Conflict},
    {"ResourceNotReadyException", Category::Transient},
    {"TooManyRequestsException", Category::Throttled},
    {"ServiceException", Category::Transient},
    {"InvalidParameterValueException", Category::Invalid},
    {"RequestTooLargeException", Category::Invalid},
    {"CodeStorageExceededException", Category::Terminal},
    {"PreconditionFailedException", Category::Conflict},
};

BackendError makeError(Category category, const QString &code, int status, const QString &message)
{
    BackendError error;
    error.category = category;
    error.code = code;
    error.httpStatus = status;
    error.message = message;
    return error;
}

} // namespace

QString AwsErrorMapper::errorCode(const QString &type)
{
    QString code = type.trimmed();
    if (const qsizetype colon = code.indexOf(QLatin1Char(':')); colon >= 0)
        code.truncate(colon);
    return code.mid(code.lastIndexOf(QLatin1Char('#')) + 1);
}

BackendError::Category AwsErrorMapper::categoryFor(const QString &code, int httpStatus)
{
    for (const CodeCategory &known : knownCodes) {
        if (code == QLatin1String(known.code))
            return known.category;
    }
    // DynamoDB answers most client errors with 400, which alone says nothing better.
    if (httpStatus >= 500)
        return Category::Transient;
    return BackendError::categoryForStatus(httpStatus);
}

bool AwsErrorMapper::crcMatches(const QByteArray &body, const QByteArray &header)
{
    const QByteArray text = header.trimmed();
    if (text.isEmpty())
        return true;
    bool ok = false;
    const qulonglong expected = text.toULongLong(&ok, 10);
    return ok && expected <= 0xFFFFFFFFull && quint32(expected) == Crc32::of(body);
}

std::optional<BackendError> AwsErrorMapper::errorFor(const HttpResponse &response,
                                                     const QString &operation,
                                                     const Redactor &redactor)
{
    // No HTTP answer (refused, cancelled, network down): the generic mapping says it all.
    if (response.clientError || response.status == 0) {
        BackendError error = response.toError();
        error.message = redactor.redact(error.message);
        return error;
    }

    if (!crcMatches(response.body, response.header("x-amz-crc32"))) {
        BackendError error = makeError(
            Category::Transient, QStringLiteral("Crc32Mismatch"), response.status,
            QStringLiteral("the answer to %1 was corrupted in transit (its x-amz-crc32 does not "
                           "match its body)")
                .arg(operation));
        error.requestId = response.requestId;
        return error;
    }
    if (response.isSuccess())
        return std::nullopt;

    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(response.body, &parseError);
    const QJsonObject json = document.object();
    QString code = errorCode(json.value(QStringLiteral("__type")).toString());
    if (code.isEmpty())
        code = errorCode(QString::fromUtf8(response.header("x-amzn-ErrorType")));
    // rest-json services may name it in the body only, as `code` or `Type` (where Lambda's
    // `Type` is "User" or "Service", whose fault it is: no code).
    if (code.isEmpty())
        code = errorCode(json.value(QStringLiteral("code")).toString());
    if (const QString type = json.value(QStringLiteral("Type")).toString();
        code.isEmpty() && type != QLatin1String("User") && type != QLatin1String("Service"))
        code = errorCode(type);
    QString message = json.value(QStringLiteral("message")).toString();
    if (message.isEmpty())
        message = json.value(QStringLiteral("Message")).toString();
    QString requestId = response.requestId;
    // The query protocol (SNS, IAM) answers errors in XML, and so does moto for a bad signature
    // whatever the service's protocol.
    if (code.isEmpty() && response.body.trimmed().startsWith('<')) {
        const AwsQueryXml::Answer xml = AwsQueryXml::read(response.body);
        code = xml.errorCode;
        message = xml.errorMessage;
        if (requestId.isEmpty())
            requestId = xml.requestId;
        if (!code.isEmpty())
            parseError.error = QJsonParseError::NoError;
    }
    // A HEAD answer (S3's HeadBucket, HeadObject) has no body to say why it was refused.
    if (code.isEmpty() && response.status == 403 && response.body.trimmed().isEmpty()) {
        code = QStringLiteral("AccessDenied");
        message = QStringLiteral("%1 was refused (HTTP 403; the answer carries no reason): the "
                                 "credential's permissions or the bucket's policy deny it")
                      .arg(operation);
    }
    if (message.isEmpty()) {
        if (!code.isEmpty())
            message = QStringLiteral("%1 failed with %2").arg(operation, code);
        else if (parseError.error != QJsonParseError::NoError || !document.isObject())
            message = QStringLiteral("%1 failed with HTTP %2 and an unreadable error body")
                          .arg(operation)
                          .arg(response.status);
        else
            message = QStringLiteral("%1 failed with HTTP %2").arg(operation).arg(response.status);
    }
    Category category = categoryFor(code, response.status);
    // LimitExceededException is mostly too many table operations at once, which passes; the
    // account's table quota does not, and retrying it forever only hides it.
    static const QRegularExpression tableQuota(
        QStringLiteral("number of tables|table (count )?(quota|limit)|tables? in the account|"
                       "maximum number of tables"),
        QRegularExpression::CaseInsensitiveOption);
    if (code == QLatin1String("LimitExceededException") && tableQuota.match(message).hasMatch()) {
        category = Category::Terminal;
        message += QStringLiteral(
            " — the account's DynamoDB table quota is reached: delete tables it no longer needs "
            "or ask AWS for a higher quota (Service Quotas, DynamoDB \"Maximum number of "
            "tables\"), then Reconcile");
    }
    // S3 refuses to delete a bucket that holds objects, and Converge never empties one.
    if (code == QLatin1String("BucketNotEmpty"))
        message += QStringLiteral(" — Converge does not empty buckets: delete or move its "
                                  "objects (and their versions), then delete it again");
    BackendError error = makeError(category, code, response.status, redactor.redact(message));
    error.requestId = requestId;
    error.retryAfter = response.retryAfter;
    return error;
}

} // namespace converge
