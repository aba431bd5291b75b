// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "apicaller.h"

#include <QJsonObject>
#include <QString>

#include <memory>

namespace converge {

class GcpSession;

/// One operation of a Google Cloud REST API at a time, as a declaration binds it (the google-rest
/// protocol, scripts/kinds/googlemodel.py): `{method, path, query?, body?, wrap?, mask?}`. The
/// path's `{projectsId}` is the project's ID and every other `{param}` the input member of that
/// name; `query` members go in the query string; with `body: "*"` the rest of the input is the
/// JSON body, or with `wrap` the body's member `wrap`, beside `mask` naming those members (a
/// PATCH's updateMask: only what the call carries changes) and the members `beside` names (a
/// create's instanceId); `maskInQuery` puts the mask in the query string instead. `fullNames`
/// gives the prefix of a member sent short (a Spanner instance's config). The answer's JSON is the
/// output.
///
/// Used from one worker thread, like its session's HttpClient.
class GcpRestClient final : public ApiCaller
{
public:
    GcpRestClient(QJsonObject operations, QString projectId, std::shared_ptr<GcpSession> session);

    Outcome<Reply> call(const QString &operation, const QJsonObject &input) override;

private:
    QJsonObject m_operations;
    QString m_projectId;
    std::shared_ptr<GcpSession> m_session;
};

} // namespace converge
