// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QUrl>

namespace converge::test {

/// Plain JSON requests to a Google emulator's REST API, for the fixture's own tests (the product's
/// client is not what they check).
class GcpEmulatorClient
{
public:
    struct Answer
    {
        int status = 0;
        QJsonObject json;
        QByteArray body;
    };

    explicit GcpEmulatorClient(QUrl endpoint)
        : m_endpoint(std::move(endpoint))
    {}

    Answer send(const QByteArray &verb, const QString &path, const QJsonObject &body = {})
    {
        QUrl url = m_endpoint;
        url.setPath(path);
        QNetworkRequest request(url);
        request.setTransferTimeout(10000);
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
        const QByteArray payload =
            body.isEmpty() ? QByteArray() : QJsonDocument(body).toJson(QJsonDocument::Compact);
        QNetworkReply *reply = m_network.sendCustomRequest(request, verb, payload);
        QSignalSpy finished(reply, &QNetworkReply::finished);
        if (!reply->isFinished())
            finished.wait(15000);
        Answer a;
        a.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        a.body = reply->readAll();
        a.json = QJsonDocument::fromJson(a.body).object();
        reply->deleteLater();
        return a;
    }

private:
    QUrl m_endpoint;
    QNetworkAccessManager m_network;
};

} // namespace converge::test
