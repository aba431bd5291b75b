// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace converge {

/// AWS's query protocol on the wire, both ways, without the service's model: an operation's JSON
/// input as form fields, and its XML answer as JSON.
///
/// The query protocol spells a list as `<Name><member>…</member></Name>` (`Name.member.1=` in a
/// request) and a map as `<Name><entry><key/><value/></entry></Name>` (`Name.entry.1.key=`), so the
/// shape can be read from the XML itself: an element whose children are all `member` is a list,
/// all `entry` a map, one without child elements a string (numbers and booleans too, as the query
/// protocol sends them); an empty element is left out. That is what a DeclaredManager needs; a
/// number that must be a number is compared as the string the spec holds.
class AwsQueryXml final
{
public:
    /// The form body: Action=<operation>&Version=<version>& the input's members; the members
    /// named in `mapMembers` are maps (their objects' keys are keys, not members).
    static QByteArray form(const QString &operation, const QString &version,
                           const QJsonObject &input, const QStringList &mapMembers = {});

    struct Answer
    {
        QJsonObject result; ///< the <OperationResult> element's contents
        QString requestId;  ///< ResponseMetadata/RequestId
        QString errorCode;  ///< an <ErrorResponse>'s Code
        QString errorMessage;
        QString parseError; ///< non-empty when the body is not such XML
    };
    /// Reads a query answer: `<XResponse><XResult>…</XResult><ResponseMetadata>…` or
    /// `<ErrorResponse><Error><Code>…`.
    static Answer read(const QByteArray &xml);
};

} // namespace converge
